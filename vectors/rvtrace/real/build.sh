#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh — make vectors-real: the real-execution vectors of this folder, from the programs of
# ../../etmv3/real/src/ (the same C programs as the ETMv3 real vectors, shared, not copied).
# usage: sh build.sh TRACECERT OUT WORK | sh build.sh --check (only says which packages are missing)
#   each program built -static with riscv64-linux-gnu-gcc (RV64GC, lp64d) at -O0 and -O2, run by
#   qemu-riscv64 -singlestep -d exec,nochain (stdin, stdout and the environment fixed: the run is the
#   same each time), and a window of STEPS instructions from main's entry made a vector by
#   `TRACECERT gen --protocol rvtrace --from-exec`: OUT/NAME.tcv and its image pages
#   OUT/NAME.0xADDR.bin. The programs make no system call after main's entry but the last (the
#   exit) and fmt's writes, so jmp's builds give a window of STARTSTEPS from _start as well
#   (NAME-start): the C library's start-up, with its system calls (ecall) and their returns.
#   WORK holds the binaries and logs.
set -eu
[ "${1:-}" = --check ] || { tool=$1 out=$2 work=$3; }
here=$(dirname "$0")
src=$here/../../etmv3/real/src
steps=${STEPS:-2000}
startsteps=${STARTSTEPS:-3000}
cc=riscv64-linux-gnu-gcc
missing=
command -v $cc > /dev/null 2>&1 || missing="$missing gcc-riscv64-linux-gnu"
[ -f /usr/riscv64-linux-gnu/include/stdio.h ] || missing="$missing libc6-dev-riscv64-cross"
[ -f /usr/riscv64-linux-gnu/lib/libc.a ] || case $missing in *libc6-dev*) ;; *) missing="$missing libc6-dev-riscv64-cross";; esac
command -v qemu-riscv64 > /dev/null 2>&1 || missing="$missing qemu-user"
if [ -n "$missing" ]; then
	echo "vectors-real: missing Debian packages:$missing (apt-get install$missing)" >&2
	exit 1
fi
[ "$1" != --check ] || exit 0
ccver=$($cc --version | head -n 1)
qver=$(qemu-riscv64 --version | head -n 1)
rm -rf "$work" && mkdir -p "$work/new"
for file in "$src"/*.c; do
	prog=$(basename "$file" .c)
	for opt in O0 O2; do
		name=$prog-$opt-rv64
		$cc -static -$opt -fno-stack-protector -o "$work/$name" "$file"
		# run as ./NAME with the same arguments and environment each time, in a directory whose path
		# has the same length wherever the tree is (/tmp/tcreal.XXXXXX): the C library's start-up
		# reads the program's own path (/proc/self/exe), and its length changes the _start windows
		run=$(mktemp -d /tmp/tcreal.XXXXXX)
		cp "$work/$name" "$run/$name"
		(cd "$run" && env -i qemu-riscv64 -singlestep -d exec,nochain -D "$name.log" "./$name" \
			< /dev/null > "$name.out") || true   # the exit status is the program's result
		mv "$run/$name.log" "$run/$name.out" "$work/"
		rm -rf "$run"
		"$tool" gen --protocol rvtrace --from-exec "$work/$name.log" --elf "$work/$name" --name "$name" \
			--steps "$steps" --out "$work/new" \
			--note "etmv3/real/src/$prog.c built by $ccver: $cc -static -$opt -fno-stack-protector; run by $qver"
		[ "$prog" = jmp ] || continue
		"$tool" gen --protocol rvtrace --from-exec "$work/$name.log" --elf "$work/$name" --name "$name-start" \
			--exec-start _start --steps "$startsteps" --out "$work/new" \
			--note "etmv3/real/src/$prog.c built by $ccver: $cc -static -$opt -fno-stack-protector; run by $qver"
	done
done
rm -f "$out"/*.tcv "$out"/*.bin
mv "$work"/new/* "$out"/
echo "vectors-real: $(ls "$out"/*.tcv | wc -l) vectors in $out ($(du -sk "$out" | cut -f1) KB)"
