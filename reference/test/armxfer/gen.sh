#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# gen.sh — assembles a32.S and t32.S (-march=armv5te) with the GNU cross
# assembler, disassembles them with objdump and writes a32.tsv and t32.tsv
# beside them: the ground truth that reference/test/unit_armxfer.c checks
# tc_armxfer_decode against.
#
# Needs binutils-arm-linux-gnueabihf (only to regenerate the .tsv files; the
# unit test reads the committed ones). The bytes are objdump's; the expected
# transfers are derived here from objdump's disassembly text alone: the
# mnemonic (with its condition suffix) names the kind and the size of each
# transfer, a `{...}` register list gives the count (ranges expanded), and a
# load writes the PC when pc is its destination or in its list. A mnemonic
# not in the table below stops the script. Usage: gen.sh [DIR].
set -euo pipefail

dir=${1:-$(cd "$(dirname "$0")" && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ARM_AS=${ARM_AS:-arm-linux-gnueabihf-as}
ARM_OBJDUMP=${ARM_OBJDUMP:-arm-linux-gnueabihf-objdump}

# derive ISA: objdump -d lines to .tsv rows.
derive() {
	awk -v isa="$1" '
	BEGIN {
		FS = "\t"
		# mnemonic -> "kind count bytes"; count L: the register list.
		split("ldr ldrt", a, " "); for (i in a) t[a[i]] = "load 1 4"
		split("ldrb ldrbt ldrsb", a, " "); for (i in a) t[a[i]] = "load 1 1"
		split("ldrh ldrsh", a, " "); for (i in a) t[a[i]] = "load 1 2"
		t["ldrd"] = "load 2 4"
		split("str strt", a, " "); for (i in a) t[a[i]] = "store 1 4"
		split("strb strbt", a, " "); for (i in a) t[a[i]] = "store 1 1"
		t["strh"] = "store 1 2"; t["strd"] = "store 2 4"
		split("ldm ldmia ldmib ldmda ldmdb pop", a, " "); for (i in a) t[a[i]] = "load L 4"
		split("stm stmia stmib stmda stmdb push", a, " "); for (i in a) t[a[i]] = "store L 4"
		t["swp"] = "swap 2 4"; t["swpb"] = "swap 2 1"
		split("ldc ldcl ldc2 ldc2l", a, " "); for (i in a) t[a[i]] = "ldc 0 0"
		split("stc stcl stc2 stc2l", a, " "); for (i in a) t[a[i]] = "stc 0 0"
		split("mrc mrc2", a, " "); for (i in a) t[a[i]] = "mrc 1 4"
		split("mcr mcr2", a, " "); for (i in a) t[a[i]] = "mcr 1 4"
		t["mrrc"] = "mrc 2 4"; t["mcrr"] = "mcr 2 4"
		t["pld"] = "preload 0 0"
		split("nop mov movs add adds sub subs cmp b bl blx bx mul muls mla umull smlabb qadd clz mrs msr cdp cdp2 svc bkpt udf cbz", a, " ")
		for (i in a) t[a[i]] = "none 0 0"
		split("eq ne cs cc mi pl vs vc hi ls ge lt gt le", a, " "); for (i in a) cc[a[i]] = 1
	}
	function fail(msg) { printf "gen.sh: %s: %s: %s\n", isa, $0, msg > "/dev/stderr"; bad = 1 }
	# "  1c:\te5910004 \tldr\tr0, [r1]" ; Thumb: "  1c:\tf7ff fffe \tbl\t..."
	/^ *[0-9a-f]+:\t/ {
		off = $1; sub(/^ */, "", off); sub(/:$/, "", off)
		hex = $2; sub(/ +$/, "", hex)
		n = split(hex, g, " "); mem = ""
		for (i = 1; i <= n; i++)
			for (j = length(g[i]) - 1; j >= 1; j -= 2) mem = mem substr(g[i], j, 2)
		mn = $3; ops = $4; sub(/[ \t]*@.*$/, "", ops)
		text = mn (ops != "" ? " " ops : "")
		if (mn == "") { mn = "udf"; text = $0; sub(/^.*@ */, "", text) }   # <UNDEFINED>
		sub(/\.[nw]$/, "", mn)
		base = ""; cond = 0; hits = 0
		for (b in t) {
			if (mn == b) { base = b; cond = 0; hits++ }
			else if (index(mn, b) == 1 && (substr(mn, length(b) + 1) in cc)) { base = b; cond = 1; hits++ }
		}
		if (hits != 1) { fail(hits " readings of the mnemonic"); next }
		split(t[base], k, " "); kind = k[1]; count = k[2]; each = k[3]
		list = ops
		if (count == "L") {
			if (!match(ops, /\{[^}]*\}/)) { fail("no register list"); next }
			list = substr(ops, RSTART + 1, RLENGTH - 2); count = 0
			m = split(list, r, ", *")
			for (i = 1; i <= m; i++) {
				if (split(r[i], rr, "-") == 2) { sub(/^r/, "", rr[1]); sub(/^r/, "", rr[2]); count += rr[2] - rr[1] + 1 }
				else count++
			}
		}
		first = ops; sub(/,.*$/, "", first)
		pc = 0
		if (kind == "load" || kind == "swap") {
			if (list ~ /(^|[{, ])pc($|[}, ])/ && t[base] ~ / L /) pc = 1
			if (t[base] !~ / L / && first == "pc") pc = 1
			if (base == "ldrd" && first == "lr") pc = 1
		}
		if (count == 0) each = 0
		printf "%s\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%s\n", off, mem, length(mem) / 2, kind, count, each, pc, cond, text
		rows++
	}
	END { if (!rows) { print "gen.sh: no instructions" > "/dev/stderr"; bad = 1 } exit bad }'
}

for isa in a32 t32; do
	"$ARM_AS" -march=armv5te -o "$tmp/$isa.o" "$dir/$isa.S"
	{
		printf '# %s instructions from %s.S, assembled by %s and disassembled by objdump -M reg-names-std (gen.sh). Columns:\n' \
			"$isa" "$isa" "$("$ARM_AS" --version | head -1)"
		printf '# offset (hex)\tbytes (hex, memory order)\tsize\tkind\tcount\tbytes each\twrites_pc\tcond\tdisassembly\n'
		"$ARM_OBJDUMP" -d -M reg-names-std "$tmp/$isa.o" | derive "$isa"
	} > "$tmp/$isa.tsv"
	mv "$tmp/$isa.tsv" "$dir/$isa.tsv"
done
