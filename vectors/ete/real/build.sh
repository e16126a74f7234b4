#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh — make vectors-real: the ETE real-execution vectors of this folder, from the programs
# of ../../etmv3/real/src/ (the same C programs as the ETMv3 and PFT/PTM ones, not copied).
# usage: sh build.sh TRACECERT OUT WORK | sh build.sh --check (only says which packages are missing)
#   each program of ../../etmv3/real/src/ built -static with aarch64-linux-gnu-gcc at -O0 and -O2
#   (A64), run by qemu-aarch64 -singlestep -d exec,nochain (stdin, stdout and the environment
#   fixed: the run is the same each time), and a window of STEPS instructions from main's entry
#   made a vector by `TRACECERT gen --protocol ete --from-exec`: OUT/NAME.tcv and its image pages
#   OUT/NAME.0xADDR.bin. WORK holds the binaries and logs.
set -eu
[ "${1:-}" = --check ] || { tool=$1 out=$2 work=$3; }
here=$(dirname "$0")
steps=${STEPS:-2000}
cc=aarch64-linux-gnu-gcc
missing=
command -v $cc > /dev/null 2>&1 || missing="$missing gcc-aarch64-linux-gnu"
[ -f /usr/aarch64-linux-gnu/include/stdio.h ] || missing="$missing libc6-dev-arm64-cross"
[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || case $missing in *libc6-dev*) ;; *) missing="$missing libc6-dev-arm64-cross";; esac
command -v qemu-aarch64 > /dev/null 2>&1 || missing="$missing qemu-user"
if [ -n "$missing" ]; then
	echo "vectors-real: missing Debian packages:$missing (apt-get install$missing)" >&2
	exit 1
fi
[ "$1" != --check ] || exit 0
ccver=$($cc --version | head -n 1)
qver=$(qemu-aarch64 --version | head -n 1)
rm -rf "$work" && mkdir -p "$work/new"
for src in "$here"/../../etmv3/real/src/*.c; do
	prog=$(basename "$src" .c)
	for opt in O0 O2; do
		name=$prog-$opt
		$cc -static -$opt -fno-stack-protector -o "$work/$name" "$src"
		# run as ./NAME in WORK: the same path, arguments and environment each time
		(cd "$work" && env -i qemu-aarch64 -singlestep -d exec,nochain -D "$name.log" "./$name" \
			< /dev/null > "$name.out") || true   # the exit status is the program's result
		"$tool" gen --protocol ete --from-exec "$work/$name.log" --elf "$work/$name" --name "$name" \
			--steps "$steps" --out "$work/new" \
			--note "vectors/etmv3/real/src/$prog.c built by $ccver: $cc -static -$opt -fno-stack-protector; run by $qver"
	done
done
rm -f "$out"/*.tcv "$out"/*.bin
mv "$work"/new/* "$out"/
echo "vectors-real: $(ls "$out"/*.tcv | wc -l) vectors in $out ($(du -sk "$out" | cut -f1) KB)"
