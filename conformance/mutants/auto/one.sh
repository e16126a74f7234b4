#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# one.sh PROTOCOL N — builds and judges the Nth automatic mutant of PROTOCOL (line N of
# OUT/PROTOCOL/sample.tsv, from sites.py); called by run.sh beside it, in parallel, with
# its environment (CC, CFLAGS_M, tool, build, out, base, base_objs, suite_link, equivalent).
# Writes OUT/PROTOCOL/mN/verdict: VERDICT<TAB>BY, where VERDICT is
#   equivalent    the site is in equivalent.txt: not built
#   stillborn     the mutant does not compile
#   killed        the vectors alone: a failing comparison (BY: the first failing vector)
#   killed-all    the vectors alone: every vector fails
#   run-error     the vectors alone: no failing comparison, but crashes, hangs, floods or
#                 adapter errors (certify scores them as failures too)
#   suite         survived the vectors, killed by the whole suite (BY: the failing test)
#   survived      survived the vectors and the whole suite
set -u
p=$1 n=$2
. conformance/mutants/lib.sh
. conformance/mutants/auto/suite.sh
line=$(sed -n "${n}p" "$out/$p/sample.tsv")
field() { printf '%s\n' "$line" | cut -f"$1"; }
id=$(field 1) file=$(field 2) start=$(field 8) end=$(field 9)
dir=$out/$p/m$n
rm -rf "$dir"
mkdir -p "$dir" || exit 1
verdict() {
	printf '%s\t%s\n' "$1" "${2:--}" >"$dir/verdict"
	exit 0
}
grep -q "^$id[[:space:]]" "$equivalent" 2>/dev/null && verdict equivalent

# The mutated source: bytes [start, end) replaced (the replacement's \\, \n, \t decoded).
rel=${file#reference/}
src=$dir/src/$rel obj=$dir/obj/${rel%.c}.o
mkdir -p "$(dirname "$src")" "$(dirname "$obj")" || exit 1
{
	head -c "$start" "$file"
	printf '%b' "$(field 7)"
	tail -c +$((end + 1)) "$file"
} >"$src"
$CC $CFLAGS_M -I"$base/src/reference/include" -I"$base/src/reference" -I"$base/src/reference/$(dirname "$rel")" \
	-Iconformance/include -c "$src" -o "$obj" >"$dir/build.log" 2>&1 || verdict stillborn
objs=
for o in $base_objs; do
	if [ "$o" = "$base/obj/${rel%.c}.o" ]; then objs="$objs $obj"; else objs="$objs $o"; fi
done
# shellcheck disable=SC2086
$CC -shared -o "$dir/libtc_mutant.so" "$base/obj/adapter.o" $objs >>"$dir/build.log" 2>&1 || verdict stillborn

# The vectors alone: what `tracecert certify` tells a third party. A mutant that hangs on
# every vector would take minutes: the run stops after 60 s (a run-error: certify fails hangs).
certify_cap=60
certify_run "$p" "$dir/libtc_mutant.so" "$dir/certify" --first-failure --jobs 1 --timeout 1
# A run over 1 s may be the machine's load, not the mutant: when hangs are all that went wrong,
# the vectors judge it again with 20 s a run (and 10 minutes in all); that run decides.
hangs=$(count hang "$dir/certify")
if [ "${hangs:-0}" -gt 0 ] && [ "$(count_others "$dir/certify")" -eq "$hangs" ] && [ "$(count fail "$dir/certify")" = 0 ]; then
	certify_cap=600
	certify_run "$p" "$dir/libtc_mutant.so" "$dir/certify-slow" --first-failure --jobs 1 --timeout 20
	for f in tap err; do mv "$dir/certify.$f" "$dir/certify-1s.$f" && mv "$dir/certify-slow.$f" "$dir/certify.$f"; done
fi
passes=$(count pass "$dir/certify") fails=$(count fail "$dir/certify")
if [ -n "$fails" ] && [ "$fails" -gt 0 ]; then
	by=$(awk '/^not ok /{ cur = $5 " " $6; next } /^  verdict: fail$/ && cur != "" { print cur; exit }' "$dir/certify.tap")
	if [ "${passes:-0}" -eq 0 ]; then
		certify_run "$p" "$dir/libtc_mutant.so" "$dir/certify-full" --jobs 1 --timeout 1
		[ "$(count pass "$dir/certify-full")" = 0 ] && verdict killed-all "$by"
	fi
	verdict killed "$by"
fi
if [ -z "$fails" ] || [ "$(count_others "$dir/certify")" -gt 0 ]; then
	verdict run-error "$(head -n 1 "$dir/certify.err")"
fi

# The whole suite (suite_run in run.sh's environment): the first test that fails.
rm -f "$dir/libtc_mutant.so"
by=$(suite_run "$p" "$dir" "$objs") || verdict suite "$by"
verdict survived
