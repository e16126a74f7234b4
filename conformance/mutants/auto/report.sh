#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# report.sh OUT — the report of the automatic mutants (Markdown on stdout) from every
# OUT/<protocol>/ that run.sh beside this script wrote (verdicts.tsv, sites.tsv, parts.txt,
# run.txt): per protocol and part, the mutants, how many the vectors alone kill and how many
# the whole suite kills, the equivalent ones, then every mutant the vectors miss with its site.
out=$1
ps=
for d in "$out"/*/; do
	[ -f "$d/verdicts.tsv" ] && ps="$ps $(basename "$d")"
done
echo "# Automatic mutants of the reference"
echo
echo "Counted over the mutants that compile (not stillborn) and are not marked equivalent"
echo "(conformance/mutants/auto/equivalent.txt). Killed by the vectors: a failing comparison"
echo "in \`tracecert certify\` against vectors/<protocol>, or every vector failing, or only"
echo "crashes, hangs, floods or adapter errors (certify fails those too). Killed by the whole"
echo "suite: by the vectors, or else by a unit test, vectest (s1 and l2 too) or the encoder"
echo "round trip (conformance/mutants/auto/suite.sh). Unscored: a fault that only output certify"
echo "never scores shows (warnings, s1 and L2, the skipped-byte count, L3 offsets), or only calls"
echo "certify never makes (API argument guards; image calls: error messages, regions out of order,"
echo "overlapping or named), argued in conformance/mutants/auto/unscored.txt, killed by the whole"
echo "suite; left out of the vectors' kill rate, counted in the whole suite's. Unreachable: a site"
echo "of shared code that one protocol's decoder never reaches, or whose effect it cannot show"
echo "(A64 code under a protocol of A32 and T32 only), argued per protocol in"
echo "conformance/mutants/auto/unreachable.txt, killed by the whole suite; counted as unscored is."
echo
for p in $ps; do
	printf -- '- %s: %s, commit %s%s, sample %s, seed %s (`make mutants-auto PROTOCOL=%s%s`)%s%s\n' "$p" \
		"$(sed -n 's/^date=//p' "$out/$p/run.txt")" "$(sed -n 's/^commit=//p' "$out/$p/run.txt")" \
		"$(sed -n 's/^tree=\(.*\)/ (\1)/p' "$out/$p/run.txt")" \
		"$(sed -n 's/^sample=//p' "$out/$p/run.txt")" "$(sed -n 's/^seed=//p' "$out/$p/run.txt")" "$p" \
		"$(sed -n 's/^sample=\([0-9]\)/ SAMPLE=\1/p; s/^seed=\(.*\)/ SEED=\1/p' "$out/$p/run.txt" | tr -d '\n' | sed 's/ SEED=1$//')" \
		"$(sed -n 's/^resumed=\(.*\)/; resumed \1 (`RESUME=1`)/p' "$out/$p/run.txt")" \
		"$(sed -n 's/^rechecked=\(.*\)/; rechecked \1 (`RECHECK=1`)/p' "$out/$p/run.txt")"
done
echo
echo "| protocol | part | sites | mutants | stillborn | equivalent | unscored | unreachable | killed by vectors | vectors kill rate | killed by whole suite | whole-suite kill rate | survivors |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for p in $ps; do
	awk -F'\t' -v p="$p" -v sites="$out/$p/sites.tsv" -v parts="$out/$p/parts.txt" '
		BEGIN {
			while ((getline l < parts) > 0) { split(l, a, " "); part[a[2]] = a[1]; order[++np] = a[1] }
			while ((getline l < sites) > 0) { split(l, a, "\t"); ns[part[a[2]]]++; ns["(all)"]++ }
		}
		function add(k, col) { c[k, col]++; c["(all)", col]++ }
		{
			add($2, "n")
			if ($10 == "stillborn" || $10 == "equivalent") add($2, $10)
			else if ($10 == "killed" || $10 == "killed-all" || $10 == "run-error") { add($2, "kv"); add($2, "ks") }
			else if ($10 == "suite") add($2, "ks")
			else if ($10 == "unscored") { add($2, "unscored"); add($2, "ks") }
			else if ($10 == "unreachable") { add($2, "unreach"); add($2, "ks") }
			else add($2, "surv")
		}
		function row(k,   d, dv) {
			d = c[k, "n"] - c[k, "stillborn"] - c[k, "equivalent"]
			dv = d - c[k, "unscored"] - c[k, "unreach"]
			printf "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %s | %d | %s | %d |\n", p, k, ns[k], c[k, "n"],
				c[k, "stillborn"], c[k, "equivalent"], c[k, "unscored"], c[k, "unreach"], c[k, "kv"],
				dv ? sprintf("%.1f%%", 100 * c[k, "kv"] / dv) : "-",
				c[k, "ks"], d ? sprintf("%.1f%%", 100 * c[k, "ks"] / d) : "-", c[k, "surv"]
		}
		END { for (i = 1; i <= np; i++) row(order[i]); row("(all)") }' "$out/$p/verdicts.tsv"
done
echo
for p in $ps; do
	awk -F'\t' -v p="$p" '$10 == "killed-all" { a++ } $10 == "run-error" { c++ } $10 == "lost" { l++ }
		END { printf "%s: of the kills by the vectors, %d fail every vector and %d only crash, hang, flood or error; %d mutants lost (no verdict, counted as survivors).\n", p, a, c, l }' \
		"$out/$p/verdicts.tsv"
done
echo
echo "## Mutants the vectors miss"
echo
echo "Site (file:line:col), operator, the change, what kills it (a test of the whole suite, or"
echo "SURVIVED), the site id (for equivalent.txt)."
for p in $ps; do
	printf '\n### %s\n\n' "$p"
	awk -F'\t' '$10 == "suite" || $10 == "survived" || $10 == "lost" {
		printf "- %s:%s:%s %s `%s` -> `%s` — %s — %s\n", $4, $5, $6, $7, $8, $9,
			$10 == "suite" ? "whole suite: " $11 : "SURVIVED", $3 }' "$out/$p/verdicts.tsv"
done
