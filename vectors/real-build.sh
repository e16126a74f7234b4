#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# real-build.sh — make vectors-real: the real-execution vectors of one folder vectors/P/real, with
# the settings of vectors/P/real/build.conf (a shell fragment, read with `.`):
#   protocol     the protocol given to `tracecert gen --protocol`
#   src          the folder of the C programs, relative to the folder of build.conf (one set of
#                programs serves every protocol, not copied)
#   triplet      the cross compiler's target: TRIPLET-gcc, its C library in /usr/TRIPLET/
#   gcc_package, libc_package   the Debian packages of that compiler and of its C library
#   qemu         the qemu-user program that runs the builds
#   variants     a list of SUFFIX:FLAG, one build of each program at each -O for each (NAME-OPT
#                SUFFIX, built with FLAG; an empty FLAG adds nothing): e.g. -arm:-marm
#   steps        the window from main's entry, in instructions (STEPS overrides it)
#   start_programs, start_steps   programs whose builds also give a window of start_steps
#                (STARTSTEPS overrides it) from _start, as NAME-start: the C library's start-up
#   note_src     how a vector's description names the programs' folder
# usage: sh real-build.sh CONF TRACECERT OUT WORK | sh real-build.sh CONF --check (only says which
#   Debian packages are missing, exit 1 when one is)
#   each program built -static at -O0 and -O2 (-fno-stack-protector), run by QEMU -singlestep
#   -d exec,nochain with stdin, stdout, arguments and environment fixed, in a directory whose path
#   has the same length wherever the tree is (/tmp/tcreal.XXXXXX): the C library's start-up reads
#   the program's own path (/proc/self/exe) and its length changes what it executes; a window of
#   each log made a vector by `TRACECERT gen --from-exec`: OUT/NAME.tcv and its image pages
#   OUT/NAME.0xADDR.bin. WORK holds the binaries and logs.
set -eu
conf=$1
shift
start_programs= start_steps= variants=:
. "$conf"
src=$(dirname "$conf")/$src
[ "${1:-}" = --check ] || { tool=$1 out=$2 work=$3; }
steps=${STEPS:-$steps}
start_steps=${STARTSTEPS:-$start_steps}
cc=$triplet-gcc
missing=
command -v "$cc" > /dev/null 2>&1 || missing="$missing $gcc_package"
[ -f "/usr/$triplet/include/stdio.h" ] || missing="$missing $libc_package"
[ -f "/usr/$triplet/lib/libc.a" ] || case $missing in *"$libc_package"*) ;; *) missing="$missing $libc_package";; esac
command -v "$qemu" > /dev/null 2>&1 || missing="$missing qemu-user"
if [ -n "$missing" ]; then
	echo "vectors-real: missing Debian packages:$missing (apt-get install$missing)" >&2
	exit 1
fi
[ "$1" != --check ] || exit 0
ccver=$($cc --version | head -n 1)
qver=$($qemu --version | head -n 1)
rm -rf "$work" && mkdir -p "$work/new"
for file in "$src"/*.c; do
	prog=$(basename "$file" .c)
	for opt in O0 O2; do
		for variant in $variants; do
			name=$prog-$opt${variant%%:*}
			flag=${variant#*:}
			flags="-static -$opt${flag:+ $flag} -fno-stack-protector"
			# shellcheck disable=SC2086 # flags is a list of words
			$cc $flags -o "$work/$name" "$file"
			# run as ./NAME with the same arguments and environment each time, in the fixed-length
			# directory
			run=$(mktemp -d /tmp/tcreal.XXXXXX)
			cp "$work/$name" "$run/$name"
			(cd "$run" && env -i "$qemu" -singlestep -d exec,nochain -D "$name.log" "./$name" \
				< /dev/null > "$name.out") || true   # the exit status is the program's result
			mv "$run/$name.log" "$run/$name.out" "$work/"
			rm -rf "$run"
			note="$note_src/$prog.c built by $ccver: $cc $flags; run by $qver"
			"$tool" gen --protocol "$protocol" --from-exec "$work/$name.log" --elf "$work/$name" --name "$name" \
				--steps "$steps" --out "$work/new" --note "$note"
			case " $start_programs " in *" $prog "*) ;; *) continue ;; esac
			"$tool" gen --protocol "$protocol" --from-exec "$work/$name.log" --elf "$work/$name" --name "$name-start" \
				--exec-start _start --steps "$start_steps" --out "$work/new" --note "$note"
		done
	done
done
rm -f "$out"/*.tcv "$out"/*.bin
mv "$work"/new/* "$out"/
echo "vectors-real: $(ls "$out"/*.tcv | wc -l) vectors in $out ($(du -sk "$out" | cut -f1) KB)"
