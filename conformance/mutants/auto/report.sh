#!/bin/sh
# report.sh OUT SAMPLE SEED — the report of an automatic mutant run (Markdown on stdout) from
# OUT/verdicts.tsv and OUT/<protocol>/sites.tsv (run.sh beside this script writes both): per
# protocol and part, the mutants, how many the vectors alone kill and how many the whole suite
# kills, the equivalent ones, then every mutant the vectors miss with its site.
out=$1 sample=$2 seed=$3
v=$out/verdicts.tsv
echo "# Automatic mutants of the reference"
echo
printf 'Run %s on commit %s (%s), sample %s, seed %s.\n' "$(date -u -r "$v" '+%Y-%m-%d %H:%M UTC')" \
	"$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	"$(if git diff --quiet HEAD 2>/dev/null; then echo clean; else echo 'with uncommitted changes'; fi)" "$sample" "$seed"
echo
echo "Counted over the mutants that compile and are not marked equivalent. Killed by the"
echo "vectors: a failing comparison in \`tracecert certify\` (also: every vector fails; or only"
echo "crashes, hangs, floods or adapter errors). Killed by the whole suite: by the vectors, or else by a unit test,"
echo "vectest (s1/l2 too) or the encoder round trip (conformance/mutants/auto/suite.sh)."
echo
echo "| protocol | part | sites | mutants | stillborn | equivalent | killed by vectors | vectors kill rate | killed by whole suite | whole-suite kill rate | survivors |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for p in $(cut -f1 "$v" | uniq); do
	awk -F'\t' -v p="$p" -v sites="$out/$p/sites.tsv" -v parts="$out/$p/parts.txt" '
		BEGIN {
			while ((getline l < parts) > 0) { split(l, a, " "); part[a[2]] = a[1]; order[++np] = a[1] }
			while ((getline l < sites) > 0) { split(l, a, "\t"); ns[part[a[2]]]++; ns["(all)"]++ }
		}
		function add(k, col) { c[k, col]++; c["(all)", col]++ }
		$1 == p {
			add($2, "n")
			if ($10 == "stillborn" || $10 == "equivalent") add($2, $10)
			else if ($10 == "killed" || $10 == "killed-all" || $10 == "run-error") { add($2, "kv"); add($2, "ks") }
			else if ($10 == "suite") add($2, "ks")
			else add($2, "surv")
		}
		function row(k,   d) {
			d = c[k, "n"] - c[k, "stillborn"] - c[k, "equivalent"]
			printf "| %s | %s | %d | %d | %d | %d | %d | %s | %d | %s | %d |\n", p, k, ns[k], c[k, "n"],
				c[k, "stillborn"], c[k, "equivalent"], c[k, "kv"], d ? sprintf("%.1f%%", 100 * c[k, "kv"] / d) : "-",
				c[k, "ks"], d ? sprintf("%.1f%%", 100 * c[k, "ks"] / d) : "-", c[k, "surv"]
		}
		END { for (i = 1; i <= np; i++) row(order[i]); row("(all)") }' "$v"
done
echo
echo "Of the kills by the vectors: $(awk -F'\t' '$10 == "killed-all" { a++ } $10 == "run-error" { c++ }
	END { printf "%d fail every vector, %d only crash, hang, flood or adapter error", a, c }' "$v")."
echo
echo "## Mutants the vectors miss"
echo
echo "Site (file:line:col), operator, the change, then what kills it: a test of the whole suite, or nothing (survived); the site id for equivalent.txt."
echo
awk -F'\t' '$10 == "suite" || $10 == "survived" {
	if ($1 != last) { printf "\n### %s\n\n", $1; last = $1 }
	printf "- %s:%s:%s %s `%s` -> `%s` — %s — %s\n", $4, $5, $6, $7, $8, $9,
		$10 == "suite" ? "whole suite: " $11 : "SURVIVED", $3 }' "$v"
