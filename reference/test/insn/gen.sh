#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# gen.sh — assembles a64.S, a32.S and t32.S with the GNU cross assemblers and
# writes a64.tsv, a32.tsv and t32.tsv beside them: the ground truth that
# reference/test/unit_insn.c checks tc_insn_decode against.
#
# Needs binutils-aarch64-linux-gnu and binutils-arm-linux-gnueabihf (only to
# regenerate the .tsv files; `make check` reads the committed ones).
#
# The bytes come from the assembler's listing (-al): one source line, one
# instruction. The expected classification is the `//=` (A64) or `@=`
# (A32/T32) comment written by hand on each line. As a check of those hand
# written comments, every expected direct-branch target must equal the target
# objdump prints for that instruction, and the listing bytes must equal
# objdump's. Usage: gen.sh [DIR] (default: the directory of this script).
set -euo pipefail

dir=${1:-$(cd "$(dirname "$0")" && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

A64_AS=${A64_AS:-aarch64-linux-gnu-as}
A64_OBJDUMP=${A64_OBJDUMP:-aarch64-linux-gnu-objdump}
ARM_AS=${ARM_AS:-arm-linux-gnueabihf-as}
ARM_OBJDUMP=${ARM_OBJDUMP:-arm-linux-gnueabihf-objdump}

die() { echo "gen.sh: $*" >&2; exit 1; }

# join ISA SRC LST: one line per listed instruction,
#   lineno offset bytes size type link cond isa target source
# from the listing (offset, bytes) and the source line (expectation, text).
join() {
	awk -v isa="$1" -v src="$2" '
	BEGIN {
		n = 0
		while ((getline line < src) > 0) text[++n] = line
	}
	function trim(s) { gsub(/[ \t]+/, " ", s); sub(/^ /, "", s); sub(/ $/, "", s); return s }
	function fail(msg) { printf "%s:%d: %s\n", src, ln, msg > "/dev/stderr"; bad = 1 }
	# Listing lines: "  12 0004 1F2003D5 \tsource"
	match($0, /^ *[0-9]+ [0-9a-f][0-9a-f][0-9a-f][0-9a-f] [0-9A-F]+/) {
		ln = $1; off = $2; hex = tolower($3)
		if (seen[ln]++) { fail("more than one listing line"); next }
		s = text[ln]
		m = index(s, "//="); if (!m) m = index(s, "@=")
		if (!m) {
			t = s; sub(/^[ \t]*([0-9A-Za-z_.]+:)?[ \t]*/, "", t)
			if (substr(t, 1, 1) == "." && substr(t, 1, 5) != ".inst") next # directive padding
			fail("instruction without an expectation"); next
		}
		xp = substr(s, m); sub(/^(\/\/=|@=)/, "", xp)
		code = trim(substr(s, 1, m - 1))
		nf = split(trim(xp), f, " ")
		type = f[1]; link = 0; cond = 0; nisa = isa; target = "-"
		if (type !~ /^(other|dir|indir|wfx|isb|tstart)$/) fail("bad type " type)
		for (i = 2; i <= nf; i++) {
			if (f[i] == "link") link = 1
			else if (f[i] == "cond") cond = 1
			else if (f[i] ~ /^isa=(a64|a32|t32)$/) nisa = substr(f[i], 5)
			else if (f[i] ~ /^target=[+-]0x[0-9a-f]+$/) target = substr(f[i], 8)
			else fail("bad field " f[i])
		}
		if ((type == "dir") != (target != "-")) fail("dir needs a target, nothing else has one")
		if (type == "other" && (link || cond || nisa != isa)) fail("other has no flags")
		printf "%d\t%s\t%s\t%d\t%s\t%d\t%d\t%s\t%s\t%s\n", ln, off, hex, length(hex) / 2, type, link, cond, nisa, target, code
		next
	}
	END {
		for (i = 1; i <= n; i++)
			if ((index(text[i], "//=") || index(text[i], "@=")) && text[i] !~ /^[ \t]*(\/\/|@)/ && !(i in seen)) {
				ln = i; fail("expectation on a line that made no bytes")
			}
		exit bad
	}' "$3"
}

# objdump -d as "offset<TAB>hex as printed<TAB>disassembly".
dis() {
	"$1" -d "$2" | sed -n 's/^ *\([0-9a-f][0-9a-f]*\):\t\([0-9a-f ]*[0-9a-f]\) *\t\(.*\)$/\1\t\2\t\3/p'
}

# The bytes of the listing (memory order) as objdump prints them: A64/A32
# words and T32 halfwords are little-endian values.
printed() {
	local hex=$1 unit=$2 out="" i j v
	for ((i = 0; i < ${#hex}; i += unit * 2)); do
		v=""
		for ((j = unit * 2 - 2; j >= 0; j -= 2)); do v+=${hex:i+j:2}; done
		out+="${out:+ }$v"
	done
	echo "$out"
}

# check ISA JOINED DIS: listing bytes and direct targets against objdump.
check() {
	local isa=$1 unit=4 mask=-1 ln off hex size type link cond nisa target code
	local d_hex d_text want got fail=0
	[ "$isa" = t32 ] && unit=2
	[ "$isa" = a64 ] || mask=0xffffffff
	declare -A dhex dtext
	while IFS=$'\t' read -r off d_hex d_text; do
		dhex[$off]=$d_hex
		dtext[$off]=$d_text
	done < "$3"
	while IFS=$'\t' read -r ln off hex size type link cond nisa target code; do
		off=$((16#$off))
		local key
		key=$(printf '%x' "$off")
		[ -n "${dhex[$key]+x}" ] || { echo "$isa.S:$ln: objdump has no instruction at $key" >&2; fail=1; continue; }
		[ "$(printed "$hex" "$unit")" = "${dhex[$key]}" ] ||
			{ echo "$isa.S:$ln: listing $hex, objdump ${dhex[$key]}" >&2; fail=1; }
		[ "$type" = dir ] || continue
		got=$(sed -n 's/.*[ \t,]\([0-9a-f][0-9a-f]*\) <.*/\1/p' <<< "${dtext[$key]}")
		want=$(printf '%x' $(((off + target) & mask)))
		[ "$got" = "$want" ] ||
			{ echo "$isa.S:$ln: expected target $want (offset $key $target), objdump: ${dtext[$key]}" >&2; fail=1; }
	done < "$2"
	return $fail
}

# build ISA ASM OBJDUMP ASFLAGS...
build() {
	local isa=$1 as=$2 objdump=$3
	shift 3
	"$as" "$@" -aln="$tmp/$isa.lst" -o "$tmp/$isa.o" "$dir/$isa.S" 2> "$tmp/$isa.err" ||
		{ cat "$tmp/$isa.err" >&2; die "$isa.S does not assemble"; }
	grep -v -e 'Assembler messages' -e 'unpredictable' -e 'deprecated' "$tmp/$isa.err" >&2 || true
	join "$isa" "$dir/$isa.S" "$tmp/$isa.lst" > "$tmp/$isa.joined" || die "$isa.S: bad expectations"
	dis "$objdump" "$tmp/$isa.o" > "$tmp/$isa.dis"
	check "$isa" "$tmp/$isa.joined" "$tmp/$isa.dis" || die "$isa.S: expectations disagree with the assembler"
	{
		printf '# %s instructions from %s.S, assembled by %s (gen.sh). Columns:\n' "$isa" "$isa" "$("$as" --version | head -1)"
		printf '# offset (hex, from the section start)\tbytes (hex, memory order)\tsize\ttype (wfx: with wfxmode=1)\tlink\tcond\tnext_isa\ttarget (direct branches: target - address, signed hex; else -)\tsource (file:line text)\n'
		while IFS=$'\t' read -r ln off hex size type link cond nisa target code; do
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s.S:%s %s\n' "$off" "$hex" "$size" "$type" "$link" "$cond" "$nisa" "$target" "$isa" "$ln" "$code"
		done < "$tmp/$isa.joined"
	} > "$dir/$isa.tsv"
	echo "$isa.tsv: $(grep -vc '^#' "$dir/$isa.tsv") instructions"
}

build a64 "$A64_AS" "$A64_OBJDUMP"
build a32 "$ARM_AS" "$ARM_OBJDUMP" -march=armv8.5-a+sec+virt -mfpu=neon-fp-armv8
build t32 "$ARM_AS" "$ARM_OBJDUMP" -march=armv8.5-a+sec+virt -mfpu=neon-fp-armv8 -mthumb
