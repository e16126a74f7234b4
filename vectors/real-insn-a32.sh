#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# real-insn-a32.sh — make vectors-real: the real-execution vectors of a folder vectors/P/real-insn
# for an ETMv1 or ETMv2 protocol P, from the freestanding ARMv5TE A32 assembly programs of
# vectors/etmv1/real-insn/src (one set of programs for both, not copied; no C library: _start runs
# straight through, makes its system calls by SWI and exits by one), written so that what an ETM7,
# ETM9 or ETM10 traces of A32 code executes: direct and indirect branches taken and failing their
# condition, calls and their returns by BX, MOV pc, LDR pc and LDM with the PC, jump tables, loops,
# loads and stores of every size, SWI. Debian's armhf C library is Thumb-2 (ARMv7), which no ETMv1
# or ETMv2 core runs, hence no C program here.
# usage: sh real-insn-a32.sh PROTOCOL CPU TRACECERT OUT WORK | sh real-insn-a32.sh PROTOCOL CPU --check
#   (only says which packages are missing)
#   each program built by arm-linux-gnueabihf-gcc -march=armv5te -marm -mfloat-abi=soft -nostdlib
#   -static -ffreestanding (.text at 0x10000, the section .far1 at 0x40100000 where a program has
#   it), run by qemu-arm -cpu CPU -singlestep -d exec,nochain (no argument, stdin, stdout and the
#   environment fixed: the run is the same each time), and the whole run from _start made a vector by
#   `TRACECERT gen --protocol PROTOCOL --from-exec`: OUT/NAME.tcv and its image pages OUT/NAME.0xADDR.bin.
#   WORK holds the binaries and logs. The configuration is the protocol's model's
#   (encoder/P/README.md "Real executions"): data trace off, since the log holds no data address or value.
set -eu
protocol=$1 cpu=$2
shift 2
[ "${1:-}" = --check ] || { tool=$1 out=$2 work=$3; }
src=$(dirname "$0")/etmv1/real-insn/src
steps=${STEPS:-5000}
cc=arm-linux-gnueabihf-gcc
flags="-march=armv5te -marm -mfloat-abi=soft -nostdlib -static -ffreestanding"
ldflags="-Wl,--build-id=none -Wl,-Ttext=0x10000 -Wl,--section-start=.far1=0x40100000"
missing=
command -v $cc > /dev/null 2>&1 || missing="$missing gcc-arm-linux-gnueabihf"
command -v qemu-arm > /dev/null 2>&1 || missing="$missing qemu-user"
if [ -n "$missing" ]; then
	echo "vectors-real: missing Debian packages:$missing (apt-get install$missing)" >&2
	exit 1
fi
[ "$1" != --check ] || exit 0
ccver=$($cc --version | head -n 1)
qver=$(qemu-arm --version | head -n 1)
rm -rf "$work" && mkdir -p "$work/new"
for file in "$src"/*.S; do
	name=$(basename "$file" .S)
	# shellcheck disable=SC2086 # flags and ldflags are lists of words
	$cc $flags $ldflags -o "$work/$name" "$file"
	(cd "$work" && env -i qemu-arm -cpu "$cpu" -singlestep -d exec,nochain -D "$name.log" "./$name" \
		< /dev/null > "$name.out")
	"$tool" gen --protocol "$protocol" --from-exec "$work/$name.log" --elf "$work/$name" --name "$name" \
		--exec-start _start --steps "$steps" --out "$work/new" \
		--note "etmv1/real-insn/src/$name.S built by $ccver: $cc $flags $ldflags; run by $qver -cpu $cpu.
Data trace off (the log holds no data address or value); every instruction that is not a branch
is IE, a conditional one too (the log does not say whether it passed; L3 shows no outcome for it)."
done
rm -f "$out"/*.tcv "$out"/*.bin
mv "$work"/new/* "$out"/
echo "vectors-real: $(ls "$out"/*.tcv | wc -l) vectors in $out ($(du -sk "$out" | cut -f1) KB)"
