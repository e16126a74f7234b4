#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# report.sh — the lcov half of `make coverage` (coverage/README.md).
# usage: coverage/report.sh DIR MIN_LINES MIN_BRANCHES --part NAME FILE.c... [--part NAME FILE.c...]...
# Captures the gcov data under DIR/obj, writes DIR/NAME.info per part and the
# HTML report DIR/html (each .info file written beside its place and renamed
# into it, the HTML folder swapped in whole), prints lines/functions/branches per part and fails
# when a part is below MIN_LINES % of lines or MIN_BRANCHES % of branches.
# Also writes DIR/summary.md (the README's coverage line, with the spec-clause
# figures of every DIR/spec-summary-NAME.txt that clausecov wrote).
set -u
dir=$1 min_lines=$2 min_branches=$3
shift 3
rc_opt="--rc lcov_branch_coverage=1"
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# lcov 1.16 on Perl >= 5.36 warns "Subroutine … redefined" on every run: drop that noise.
quiet() {
	"$@" 2>"$tmp"
	r=$?
	grep -v 'redefined at ' "$tmp" >&2
	return $r
}
# lcov_to FILE ARGS...: lcov ARGS writing into a temporary name beside FILE (".FILE.new"), renamed
# over FILE only when lcov succeeded: an interrupted or failed lcov leaves FILE as it was, never cut.
lcov_to() {
	out=$1
	shift
	part=$(dirname "$out")/.$(basename "$out").new
	rm -f "$part"
	if quiet lcov "$@" --output-file "$part" && mv -f "$part" "$out"; then
		return 0
	fi
	rm -f "$part"
	echo "coverage: lcov did not write $out (left as it was)" >&2
	return 1
}
lcov_to "$dir/all.info" $rc_opt --quiet --capture --directory "$dir/obj" --base-directory . || exit 2
# One line per part: NAME FILE...
: > "$dir/parts.def"
while [ $# -gt 0 ]; do
	if [ "$1" = --part ] && [ $# -ge 2 ]; then
		printf '\n%s' "$2" >> "$dir/parts.def"
		shift 2
	else
		printf ' %s' "$1" >> "$dir/parts.def"
		shift
	fi
done
printf '\n' >> "$dir/parts.def"
fail=0 infos=""
: > "$dir/parts.txt"
while read -r name files; do
	[ -n "$name" ] || continue
	pats=""
	for f in $files; do
		pats="$pats $PWD/$f"
	done
	# shellcheck disable=SC2086 # one pattern per file
	lcov_to "$dir/$name.info" $rc_opt --quiet --extract "$dir/all.info" $pats || exit 2
	quiet lcov $rc_opt --summary "$dir/$name.info" 2>&1 | awk -v name="$name" \
		-v ml="$min_lines" -v mb="$min_branches" -v parts="$dir/parts.txt" '
	/lines\.*:/     { l = $2; ln = $3 " of " $5 }
	/functions\.*:/ { f = $2; fn = $3 " of " $5 }
	/branches\.*:/  { b = $2; bn = $3 " of " $5 }
	END {
		sub(/\(/, "", ln); sub(/\(/, "", fn); sub(/\(/, "", bn)
		printf "coverage: %-13s lines %6s (%s)  functions %6s (%s)  branches %6s (%s)\n", name, l, ln, f, fn, b, bn
		printf "%s %s %s %s\n", name, l, f, b >> parts
		lv = l; bv = b; sub(/%/, "", lv); sub(/%/, "", bv)
		bad = 0
		if (lv + 0 < ml) { printf "coverage: %s: lines %s is below the %s%% threshold\n", name, l, ml; bad = 1 }
		if (bv + 0 < mb) { printf "coverage: %s: branches %s is below the %s%% threshold\n", name, b, mb; bad = 1 }
		exit bad
	}' || fail=1
	infos="$infos -a $dir/$name.info"
done < "$dir/parts.def"
rm -f "$dir/parts.def"
# shellcheck disable=SC2086
lcov_to "$dir/coverage.info" $rc_opt --quiet $infos || exit 2
# The HTML report is built beside its place and swapped in whole (an interrupted run leaves the old one).
rm -rf "$dir/.html.new"
quiet genhtml $rc_opt --branch-coverage --quiet --title "tracecert coverage" --prefix "$PWD" \
	--output-directory "$dir/.html.new" "$dir/coverage.info" || exit 2
# With SWAPDIR (build/swapdir: renameat2 RENAME_EXCHANGE) the two folders are exchanged in one
# step, so DIR/html is at every instant the old report or the new one; without it, or on a file
# system that cannot exchange, the old one is removed and the new one renamed in.
if [ -d "$dir/html" ] && [ -n "${SWAPDIR:-}" ] && "$SWAPDIR" "$dir/.html.new" "$dir/html" 2>/dev/null; then
	rm -rf "$dir/.html.new"
else
	rm -rf "$dir/html" && mv "$dir/.html.new" "$dir/html" || exit 2
fi
echo "coverage: HTML report: $dir/html/index.html"
# The README line: parts, then the spec clauses when clausecov ran.
{
	printf 'Coverage (`make coverage`):'
	sep=' '
	while read -r name l f b; do
		printf '%s%s %s lines, %s functions, %s branches' "$sep" "$name" "$l" "$f" "$b"
		sep='; '
	done < "$dir/parts.txt"
	for f in "$dir"/spec-summary-*.txt; do
		[ -r "$f" ] || continue
		p=${f##*/spec-summary-}
		. "$f"
		# shellcheck disable=SC2154 # set by spec-summary-NAME.txt
		printf '; %s spec clauses %s/%s covered by %s vectors (%s more that no input can reach)' \
			"${p%.txt}" "$clauses_covered" "$clauses_total" "$vectors" "$clauses_never"
	done
	printf '.\n'
} > "$dir/.summary.md.new" || exit 2
mv -f "$dir/.summary.md.new" "$dir/summary.md" || exit 2
rm -f "$dir/parts.txt"
cat "$dir/summary.md"
exit $fail
