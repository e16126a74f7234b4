#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# rvgen.sh — assembles rv64.S and rv32.S with the GNU cross assembler and writes rv64.tsv and
# rv32.tsv beside them: the ground truth that reference/test/unit_rvinsn.c checks tc_rvinsn_decode
# (reference/rvinsn.c) against.
#
# Needs binutils-riscv64-linux-gnu (only to regenerate the .tsv files; the tests read the committed
# ones). Every column comes from objdump's disassembly (-M no-aliases,numeric: the compressed
# mnemonics and x0…x31): the bytes, the mnemonic, which gives the class (the table below, written
# from the ISA manual's chapters on control transfer, not from the classifier), the registers, the
# offset of a jalr, the immediate of lui/auipc/c.lui as printed, and the branch or jump target as
# objdump computes it (the section starts at 0). A line objdump prints as data (.2byte, .4byte,
# .short) fails the run: the files hold only instructions. Usage: rvgen.sh [DIR].
set -euo pipefail

dir=${1:-$(cd "$(dirname "$0")" && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
AS=${RV_AS:-riscv64-linux-gnu-as}
OBJDUMP=${RV_OBJDUMP:-riscv64-linux-gnu-objdump}

die() { echo "rvgen.sh: $*" >&2; exit 1; }

# objdump -d as: offset bytes(memory order) size class rd rs1 imm target uimm text
table() {
	awk '
	function reg(s) { if (s !~ /^x[0-9]+$/) bad = 1; return substr(s, 2) + 0 }
	function mem(h,   i, o) { o = ""; for (i = length(h) - 1; i >= 1; i -= 2) o = o substr(h, i, 2); return o }
	match($0, /^ *[0-9a-f]+:\t[0-9a-f]+ *\t/) {
		line = $0
		split(line, f, "\t")
		off = f[1]; gsub(/[ :]/, "", off)
		hex = f[2]; gsub(/ /, "", hex)
		mn = f[3]; ops = f[4]
		sub(/ *#.*/, "", ops); sub(/ *<.*/, "", ops)
		if (mn ~ /^\./ || mn == "unimp" || mn == "") { printf "data at %s: %s\n", off, line > "/dev/stderr"; err = 1; next }
		n = split(ops, o, ",")
		cls = "other"; rd = "-"; rs1 = "-"; imm = "-"; tgt = "-"; uimm = "-"; bad = 0
		if (mn ~ /^(beq|bne|blt|bge|bltu|bgeu|c\.beqz|c\.bnez)$/) { cls = "branch"; tgt = o[n] }
		else if (mn == "jal") { cls = "jump"; rd = reg(o[1]); tgt = o[2] }
		else if (mn == "c.j") { cls = "jump"; rd = 0; tgt = o[1] }
		else if (mn == "c.jal") { cls = "jump"; rd = 1; tgt = o[1] }
		else if (mn == "jalr") {
			cls = "indirect"; rd = reg(o[1])
			if (!match(o[2], /^-?[0-9]+\(x[0-9]+\)$/)) bad = 1
			split(o[2], p, "("); imm = p[1]; sub(/\)/, "", p[2]); rs1 = reg(p[2])
		}
		else if (mn == "c.jr") { cls = "indirect"; rd = 0; rs1 = reg(o[1]); imm = 0 }
		else if (mn == "c.jalr") { cls = "indirect"; rd = 1; rs1 = reg(o[1]); imm = 0 }
		else if (mn ~ /^(mret|sret|uret|dret)$/) cls = "xret"
		else if (mn ~ /^(ecall|ebreak|c\.ebreak)$/) cls = "trap"
		else if (mn ~ /^(lui|auipc|c\.lui)$/) { cls = "upper"; rd = reg(o[1]); uimm = o[2] }
		if (tgt != "-" && tgt !~ /^[0-9a-f]+$/) bad = 1
		if (uimm != "-" && uimm !~ /^0x[0-9a-f]+$/) bad = 1
		if (bad) { printf "cannot read %s\n", line > "/dev/stderr"; err = 1; next }
		text = mn (ops == "" ? "" : " " ops)
		printf "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", off, mem(hex), length(hex) / 2, cls, rd, rs1, imm, tgt, uimm, text
	}
	END { exit err }'
}

build() {
	local name=$1 march=$2 mabi=$3 n
	"$AS" -march="$march" -mabi="$mabi" -mno-relax -I "$dir" -o "$tmp/$name.o" "$dir/$name.S" ||
		die "$name.S does not assemble"
	"$OBJDUMP" -d -M no-aliases,numeric "$tmp/$name.o" > "$tmp/$name.dis"
	table < "$tmp/$name.dis" > "$tmp/$name.rows" || die "$name.S: objdump printed something not an instruction"
	n=$(wc -l < "$tmp/$name.rows")
	[ "$n" -gt 0 ] || die "$name.S: no instructions"
	{
		printf '# %s instructions from %s.S (-march=%s), assembled by %s, disassembled by objdump -M no-aliases,numeric (rvgen.sh). Columns:\n' "$name" "$name" "$march" "$("$AS" --version | head -1)"
		printf '# offset (hex)\tbytes (hex, memory order)\tsize\tclass (from the mnemonic)\trd\trs1\timm (jalr offset)\ttarget (hex, objdump'"'"'s, at section address 0)\tuimm (lui/auipc/c.lui immediate as printed)\tobjdump text\n'
		cat "$tmp/$name.rows"
	} > "$dir/$name.tsv"
	echo "$name.tsv: $n instructions"
}

build rv64 rv64gc lp64d
build rv32 rv32gc ilp32d
