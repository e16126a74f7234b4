#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh — make vectors-real: the real-execution vectors of this folder, from the freestanding
# RV64GC assembly programs of src/ (no C library: _start runs straight through and exits by ecall),
# written so that every instruction form reference/rvinsn.c tells apart in RV64 executes: each
# branch taken and not taken with each offset bit, each jump, the pairs of Table 3.2 with each
# register form and jumps that are not pairs, the compressed quadrants' forms.
# usage: sh build.sh TRACECERT OUT WORK | sh build.sh --check (only says which packages are missing)
#   each program assembled by riscv64-linux-gnu-as -march=rv64gc and linked -static -nostdlib by
#   riscv64-linux-gnu-ld (.text at 0x10000, the sections .far1 at 0x100000 and .far2 at 0x40100000
#   where a program has them), run by qemu-riscv64 -singlestep -d exec,nochain (no argument, stdin,
#   stdout and the environment fixed: the run is the same each time), and the whole run from _start
#   made a vector by `TRACECERT gen --protocol rvtrace --from-exec`: OUT/NAME.tcv and its image pages
#   OUT/NAME.0xADDR.bin. WORK holds the binaries and logs. RV32 is not made here: the execution log
#   reader (encoder/execlog.c) reads qemu-riscv64's RV64GC logs only.
set -eu
[ "${1:-}" = --check ] || { tool=$1 out=$2 work=$3; }
here=$(dirname "$0")
src=$here/src
steps=${STEPS:-5000}
as=riscv64-linux-gnu-as
ld=riscv64-linux-gnu-ld
missing=
command -v $as > /dev/null 2>&1 || missing="$missing binutils-riscv64-linux-gnu"
command -v qemu-riscv64 > /dev/null 2>&1 || missing="$missing qemu-user"
if [ -n "$missing" ]; then
	echo "vectors-real: missing Debian packages:$missing (apt-get install$missing)" >&2
	exit 1
fi
[ "$1" != --check ] || exit 0
asver=$($as --version | head -n 1)
qver=$(qemu-riscv64 --version | head -n 1)
rm -rf "$work" && mkdir -p "$work/new"
for file in "$src"/*.S; do
	name=$(basename "$file" .S)
	$as -march=rv64gc -o "$work/$name.o" "$file"
	$ld -static -nostdlib -Ttext=0x10000 --section-start=.far1=0x100000 --section-start=.far2=0x40100000 \
		-o "$work/$name" "$work/$name.o"
	(cd "$work" && env -i qemu-riscv64 -singlestep -d exec,nochain -D "$name.log" "./$name" \
		< /dev/null > "$name.out")
	"$tool" gen --protocol rvtrace --from-exec "$work/$name.log" --elf "$work/$name" --name "$name" \
		--exec-start _start --steps "$steps" --out "$work/new" \
		--note "rvtrace/real-insn/src/$name.S assembled by $asver: $as -march=rv64gc; $ld -static -nostdlib; run by $qver"
done
rm -f "$out"/*.tcv "$out"/*.bin
mv "$work"/new/* "$out"/
echo "vectors-real: $(ls "$out"/*.tcv | wc -l) vectors in $out ($(du -sk "$out" | cut -f1) KB)"
