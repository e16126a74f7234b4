# SPDX-License-Identifier: BSD-3-Clause
# The progress counter of the long runs but certify's (tests/certify.t has that one): tracecert gen
# (vectors, and seeds of a --select search), vectest (the vectors-check run over every vector,
# make vectors-check-ref-P) through conformance/progress.c, and the automatic mutant runner's
# shell form (conformance/mutants/auto/progress.sh). On a terminal (script(1) gives one) the
# last line left is the whole count: its done/total must be the number of vectors, seeds or
# mutants asked for (counted here from the files, not from the program). --quiet and QUIET=1:
# no counter. Off a terminal: never a redrawn line.
T="${TC_BUILD:-build}/tracecert"
V="${TC_BUILD:-build}/test/vectest"
. tests/lib/tap.sh
CR=$(printf '\r')
ESC=$(printf '\033')
# counter_lines FILE PATTERN: the counter lines of FILE (what script(1) captured: each redraw is
# "\r\033[K" and the line), one a line, those matching PATTERN.
counter_lines() { tr '\r' '\n' <"$1" | sed "s/^$ESC\\[K//" | grep -E "$2"; }
# last_is FILE PATTERN LINE: the last line of FILE matching PATTERN is LINE up to its rate, and
# every line matching PATTERN has the counter's form.
last_is() { counter_lines "$1" "$2" | tail -n 1 | grep -Eq "^$3, [0-9]+\\.[0-9] [a-z]+/s\$"; }

if command -v script >/dev/null 2>&1; then
	# gen: 40 vectors into a folder (40 .tcv files, counted), then a search over 30 seeds.
	script -qec "'$T' gen --protocol ptm --count 40 --out '$tmp/g'" /dev/null >"$tmp/gen.tty" 2>&1
	script -qec "'$T' gen --protocol ptm --count 40 --out '$tmp/gq' --quiet" /dev/null >"$tmp/genq.tty" 2>&1
	nfiles=$(ls "$tmp/g" | grep -c '\.tcv$')
	check "gen on a terminal: 40 files written, the counter redrawn" sh -c "test $nfiles -eq 40 && grep -q \"${CR}${ESC}\\[Kgen: \" '$tmp/gen.tty'"
	check "gen on a terminal: its last counter line is 40/40 vectors" last_is "$tmp/gen.tty" '^gen: [0-9]+/[0-9]+ vectors' "gen: $nfiles/40 vectors"
	check "gen on a terminal: every counter line is of the form N/40 vectors, N at most 40, never falling" sh -c "tr '\\r' '\\n' <'$tmp/gen.tty' | sed 's/^$ESC\\[K//' | grep '^gen: [0-9]*/' | awk -F'[ /]' '{ if (\$0 !~ /^gen: [0-9]+\\/40 vectors, [0-9]+\\.[0-9] vectors\\/s\$/ || \$2 > 40 || \$2 < last) exit 1; last = \$2 } END { exit NR == 0 }'"
	check "gen --quiet on a terminal: the vectors, no counter, no speed figures" sh -c "test \$(ls '$tmp/gq' | grep -c '\\.tcv\$') -eq 40 && ! grep -q 'vectors' '$tmp/genq.tty'"
	script -qec "'$T' gen --protocol ptm --select 30" /dev/null >"$tmp/sel.tty" 2>&1
	check "gen --select 30 on a terminal: its last counter line is 30/30 seeds" last_is "$tmp/sel.tty" '^gen: [0-9]+/[0-9]+ seeds' 'gen: 30/30 seeds'
	script -qec "'$T' gen --protocol ptm --select 30 --quiet" /dev/null >"$tmp/selq.tty" 2>&1
	check "gen --select 30 --quiet: the seed list, no counter" sh -c "grep -q '^# vectors/ptm/gen seed list' '$tmp/selq.tty' && ! grep -q 'seeds, ' '$tmp/selq.tty'"

	# vectest: vectors/ptm/spec (its .tcv files, counted) and a vector the reference fails
	# (tests/data/alt-reading.tcv: its plain [expect.l1] line is not what the reference prints, tests/certify.t).
	nspec=$(ls vectors/ptm/spec | grep -c '\.tcv$')
	script -qec "'$V' vectors/ptm/spec tests/data/alt-reading.tcv > '$tmp/vt.tap'" /dev/null >"$tmp/vt.tty" 2>&1
	check "vectest on a terminal, its TAP to a file: the last counter line is $((nspec + 1))/$((nspec + 1)) vectors, 1 failing" last_is "$tmp/vt.tty" '^vectest: [0-9]+/' "vectest: $((nspec + 1))/$((nspec + 1)) vectors, 1 failing"
	check "vectest: the TAP file holds the $((nspec + 1)) results, 1 of them not ok" sh -c "test \$(grep -Ec '^(not )?ok ' '$tmp/vt.tap') -eq $((nspec + 1)) && test \$(grep -c '^not ok ' '$tmp/vt.tap') -eq 1"
	script -qec "'$V' --quiet vectors/ptm/spec > '$tmp/vtq.tap'" /dev/null >"$tmp/vtq.tty" 2>&1
	check "vectest --quiet on a terminal: the TAP of the $nspec vectors, no counter" sh -c "test \$(grep -c '^ok ' '$tmp/vtq.tap') -eq $nspec && ! grep -q 'vectest: ' '$tmp/vtq.tty'"
	script -qec "'$V' vectors/ptm/spec" /dev/null >"$tmp/vtt.tty" 2>&1
	check "vectest with its TAP on the terminal: the $nspec results, no counter among them" sh -c "test \$(grep -c '^ok ' '$tmp/vtt.tty') -eq $nspec && ! grep -q 'vectest: ' '$tmp/vtt.tty'"
	script -qec "'$T' gen --protocol ptm --count 5" /dev/null >"$tmp/gent.tty" 2>&1
	check "gen writing its 5 vectors to the terminal: no counter among them" sh -c "test \$(grep -c '^\\[end\\]' '$tmp/gent.tty') -eq 5 && ! grep -q 'gen: [0-9]*/5 vectors' '$tmp/gent.tty'"
	# make vectors-check-ref-ptm: the counter of vectest over every vector of vectors/ptm (the
	# files the vector lister reads: *.tcv, none under a folder or file whose name starts with '.').
	nptm=$(find vectors/ptm -name '*.tcv' ! -path '*/.*' | wc -l)
	script -qec "make -s vectors-check-ref-ptm BUILD='${TC_BUILD:-build}'" /dev/null >"$tmp/mk.tty" 2>&1
	check "make vectors-check-ref-ptm on a terminal: the counter ends at $nptm/$nptm vectors, 0 failing" last_is "$tmp/mk.tty" '^vectest: [0-9]+/' "vectest: $nptm/$nptm vectors, 0 failing"
	script -qec "make -s vectors-check-ref-ptm BUILD='${TC_BUILD:-build}' QUIET=1" /dev/null >"$tmp/mkq.tty" 2>&1
	check "make vectors-check-ref-ptm QUIET=1: the result line, no counter" sh -c "grep -q 'vectors-check: every vector of vectors/ptm passes' '$tmp/mkq.tty' && ! grep -q 'vectest: ' '$tmp/mkq.tty'"
else
	for c in "gen on a terminal" "gen on a terminal: last line" "gen counter lines" "gen --quiet" "gen --select" "gen --select --quiet" \
		"vectest on a terminal" "vectest TAP file" "vectest --quiet" "vectest TAP on the terminal" "gen to the terminal" "make vectors-check-ref-ptm" "make vectors-check-ref-ptm QUIET=1"; do
		check "$c # SKIP no script(1) (bsdutils)" true
	done
fi
# Off a terminal: no carriage return, no escape; a line every 5 s at most, so a short run may print
# none: only their form is checked.
"$T" gen --protocol ptm --count 40 --out "$tmp/gn" 2>"$tmp/gen.err" >/dev/null
"$V" vectors/ptm/spec >/dev/null 2>"$tmp/vt.err"
check "gen and vectest off a terminal: no redrawn line, every counter line whole" sh -c "! grep -q '[$CR$ESC]' '$tmp/gen.err' '$tmp/vt.err' && ! grep '/40 vectors, ' '$tmp/gen.err' | grep -Evq '^gen: [0-9]+/40 vectors, [0-9.]+ vectors/s\$' && ! grep 'failing, ' '$tmp/vt.err' | grep -Evq '^vectest: [0-9]+/$nspec vectors, [0-9]+ failing, [0-9.]+ vectors/s\$'"

# The mutant runner's counter (progress.sh) in isolation, over verdict files as one.sh writes them
# (VERDICT<TAB>BY): 3 of 5 judged, one of them survived.
P=conformance/mutants/auto/progress.sh
mkdir -p "$tmp/mu/m1" "$tmp/mu/m2" "$tmp/mu/m3" "$tmp/mu/m4" "$tmp/mu/m5"
printf 'killed\tL1 vectors/ptm/spec/a.tcv\n' >"$tmp/mu/m1/verdict"
printf 'survived\t-\n' >"$tmp/mu/m2/verdict"
printf 'stillborn\t-\n' >"$tmp/mu/m3/verdict"
check "progress.sh: 3 of the mutants judged, 1 survived" sh -c ". $P; test \"\$(progress_count '$tmp/mu')\" = '3 1'"
# 3 judged in 2 s: 1.5 mutants/s.
check "progress.sh: the line of 3/5 mutants, 1 surviving in 2 s" sh -c ". $P; test \"\$(progress_line ptm 3 5 1 2)\" = 'mutants-auto: ptm: 3/5 mutants, 1 surviving, 1.5 mutants/s'"
# 4 judged in 2 s of a run resumed with 2 judged before: 1.0 mutants/s.
check "progress.sh: a resumed run's rate counts only the mutants judged since (4/5, 2 before, 2 s: 1.0)" sh -c ". $P; test \"\$(progress_line ptm 4 5 1 2 2)\" = 'mutants-auto: ptm: 4/5 mutants, 1 surviving, 1.0 mutants/s'"
# The watcher every 0.2 s off a terminal: waited for (at most 20 s) until it wrote a line, then the
# last two mutants judged (one more survived) and the run stopped: its last line is 5/5, 2 surviving.
cat >"$tmp/watch.sh" <<EOF
. $P
progress_start ptm '$tmp/mu' 5 \$1
i=0
while [ "\$1" = 0 ] && ! grep -q 'mutants-auto' '$tmp/watch.err' && [ \$i -lt 100 ]; do sleep 0.2; i=\$((i + 1)); done
printf 'killed\tL3 x\n' >'$tmp/mu/m4/verdict'
printf 'survived\t-\n' >'$tmp/mu/m5/verdict'
progress_stop ptm '$tmp/mu' 5 \$1
EOF
PROGRESS_S=0.2 sh "$tmp/watch.sh" 0 2>"$tmp/watch.err"
check "progress.sh off a terminal: a line of 3/5 mutants, 1 surviving first, the last 5/5, 2 surviving; all whole" sh -c "head -n 1 '$tmp/watch.err' | grep -Eq '^mutants-auto: ptm: 3/5 mutants, 1 surviving, [0-9]+\\.[0-9] mutants/s\$' && tail -n 1 '$tmp/watch.err' | grep -Eq '^mutants-auto: ptm: 5/5 mutants, 2 surviving, [0-9]+\\.[0-9] mutants/s\$' && ! grep -Evq '^mutants-auto: ptm: [3-5]/5 mutants, [12] surviving, [0-9]+\\.[0-9] mutants/s\$' '$tmp/watch.err' && ! grep -q '[$CR$ESC]' '$tmp/watch.err'"
rm -f "$tmp/mu/m4/verdict" "$tmp/mu/m5/verdict"
: >"$tmp/watch.err"
PROGRESS_S=0.2 sh "$tmp/watch.sh" 1 2>"$tmp/watchq.err"
check "progress.sh quiet: no line" test ! -s "$tmp/watchq.err"
if command -v script >/dev/null 2>&1; then
	rm -f "$tmp/mu/m4/verdict" "$tmp/mu/m5/verdict"
	script -qec "sh '$tmp/watch.sh' 1; . $P; progress_start ptm '$tmp/mu' 5 0; progress_stop ptm '$tmp/mu' 5 0" /dev/null >"$tmp/watch.tty" 2>&1
	check "progress.sh on a terminal: the line redrawn, 5/5 mutants, 2 surviving" sh -c "grep -Eq \"${CR}${ESC}\\[Kmutants-auto: ptm: 5/5 mutants, 2 surviving, [0-9]+\\.[0-9] mutants/s\" '$tmp/watch.tty'"
else
	check "progress.sh on a terminal # SKIP no script(1) (bsdutils)" true
fi
tap_done
