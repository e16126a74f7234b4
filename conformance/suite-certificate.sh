#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# suite-certificate.sh BUILD_DIR — the certificate of the suite itself (Markdown on stdout), so a
# reader can judge how much a pass means. For every protocol: its vectors per folder
# (vectors/<p>/*/), its spec clauses (coverage/clauses/<p>.txt; how many its vectors cover when
# `make coverage` has measured them, BUILD_DIR/coverage/spec-summary-<p>.txt), its mutants
# (conformance/mutants/<p>/) and how many the vectors kill (BUILD_DIR/certify/suite/mutants.txt,
# written by conformance/mutants/run.sh), then the kill table; then the automatic mutants' kill
# rates per protocol and part, vectors alone and whole suite, with their survivors
# (BUILD_DIR/mutants-auto/report.md, written by make mutants-auto), when they were measured;
# else the last full run's report as checked in (conformance/mutants/auto/measured.md), said so.
#
# The protocols are those of the build (BUILD_DIR/gen/protocols.c, from PROTOCOLS in
# GNUmakefile); without a build, every folder vectors/<p>/. Paths are relative to the current
# directory (the top of the tree). Names no protocol.
build=${1:-build}
suite=$build/certify/suite/mutants.txt

# The protocols, one a line.
protocols() {
	if [ -f "$build/gen/protocols.c" ]; then
		sed -n 's/^extern const struct tc_protocol tc_protocol_\([a-z0-9_]*\);$/\1/p' "$build/gen/protocols.c"
	else
		for d in vectors/*/; do
			[ -d "$d" ] && basename "$d"
		done
	fi
}

count_tcv() {
	find "$1" -name '*.tcv' 2>/dev/null | wc -l | tr -d ' '
}

# The clause lines of a list (ID | CHECK | TITLE), and those checked `never`.
clauses_listed() {
	grep -c '^[^#[:space:]]' "$1"
}
clauses_never() {
	grep -c '^[^#[:space:]][^|]*| *never *|' "$1"
}

# A KEY=VALUE of a spec-summary file.
summary_value() {
	sed -n "s/^$2=//p" "$1"
}

ps=$(protocols)
echo "# tracecert certificate of the suite itself"
echo
printf 'Protocols: %s.\n' "$(echo $ps | sed 's/ /, /g')"
echo
echo "## Vectors"
echo
echo "| protocol | folder | vectors |"
echo "|---|---|---|"
for p in $ps; do
	for d in vectors/"$p"/*/; do
		[ -d "$d" ] || continue
		f=${d%/}
		printf '| %s | %s | %s |\n' "$p" "${f##*/}" "$(count_tcv "$d")"
	done
	printf '| %s | (all) | %s |\n' "$p" "$(count_tcv "vectors/$p")"
done
echo
echo "## Spec clauses"
echo
echo "Every pseudocode function and case arm a protocol's reference decoder marks,"
echo "listed in coverage/clauses/<protocol>.txt (\`never\`: no input can reach it);"
echo "\`make coverage\` runs the protocol's vectors through them."
echo
echo "| protocol | clauses listed | of them never | covered by the vectors |"
echo "|---|---|---|---|"
for p in $ps; do
	list=coverage/clauses/$p.txt
	sum=$build/coverage/spec-summary-$p.txt
	if [ ! -f "$list" ]; then
		printf '| %s | (no %s) | | |\n' "$p" "$list"
		continue
	fi
	if [ -f "$sum" ]; then
		cov="$(summary_value "$sum" clauses_covered)/$(summary_value "$sum" clauses_total) by $(summary_value "$sum" vectors) vectors ($sum, $(date -r "$sum" +%Y-%m-%d))"
	else
		cov="not measured (make coverage writes $sum)"
	fi
	printf '| %s | %s | %s | %s |\n' "$p" "$(clauses_listed "$list")" "$(clauses_never "$list")" "$cov"
done
echo
echo "## Mutants"
echo
echo "Each mutant is one realistic decoder fault applied to a copy of the reference"
echo "(conformance/mutants/<protocol>/); it counts as killed only by a failing comparison"
echo "while it still passes other vectors. Runs stop at the first kill (\`make mutants\`"
echo "runs every vector)."
echo
echo "| protocol | mutants | killed | not killed |"
echo "|---|---|---|---|"
for p in $ps; do
	n=$(ls conformance/mutants/"$p"/*.patch 2>/dev/null | wc -l | tr -d ' ')
	if [ -f "$suite" ] && grep -q "^$p/" "$suite"; then
		k=$(grep -c "^$p/[^ ]*  *killed " "$suite")
		other=$(grep "^$p/" "$suite" | grep -v "^$p/[^ ]*  *killed " | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }')
		printf '| %s | %s | %s | %s |\n' "$p" "$n" "$k" "${other:-none}"
	else
		printf '| %s | %s | not run | |\n' "$p" "$n"
	fi
done
echo
if [ -f "$suite" ]; then
	echo '```'
	cat "$suite"
	echo '```'
else
	echo "(no kill table: run make suite-check)"
fi
echo
echo "## Automatic mutants"
echo
auto=$build/mutants-auto/report.md
kept=conformance/mutants/auto/measured.md
if [ ! -f "$auto" ] && [ -f "$kept" ]; then
	echo "Not measured in this build: the last full run's report, checked in as $kept"
	echo "(its dates and commits below). \`make mutants-auto [PROTOCOL=p] [SAMPLE=N]\` measures"
	echo "again and writes $auto, which this certificate then shows."
	echo
	auto=$kept
fi
if [ -f "$auto" ]; then
	# The report without its title, its headings one level down.
	sed '1{/^# /d;}' "$auto" | sed 's/^## /### /; s/^### \([a-z0-9_]*\)$/#### \1/'
else
	echo "Not measured: \`make mutants-auto [PROTOCOL=p] [SAMPLE=N]\` writes $auto (needs python3-clang)."
fi
