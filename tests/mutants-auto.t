# SPDX-License-Identifier: BSD-3-Clause
# The automatic mutation tool (conformance/mutants/auto/), fast: it finds sites of every operator
# class with libclang, the same sample twice, every entry of equivalent.txt and unscored.txt still
# names a site (a made-up entry is reported stale) and none is in both, and a run end to end (one
# PTM mutant of a sample of 2, kept by --ids) writes a report.
# Needs python3-clang; run once, in the plain pass. The measurement itself: make mutants-auto.
case "${TC_BUILD:-build}" in
*asan*) echo "1..0 # SKIP the automatic mutants run in the plain pass of make check"; exit 0 ;;
esac
PY=$(sh conformance/mutants/auto/python.sh 2>/dev/null) ||
	{ echo "1..0 # SKIP no python3 with clang.cindex: apt-get install python3-clang"; exit 0; }
. tests/lib/tap.sh
B="${TC_BUILD:-build}"
S=conformance/mutants/auto/sites.py

"$PY" $S list reference/ete/ete_parse.c reference/ete/ete_analyze.c reference/insn.c >"$tmp/sites.tsv" 2>"$tmp/sites.err"
check "sites.py lists the sites of three files, no message" sh -c "test -s '$tmp/sites.tsv' && test ! -s '$tmp/sites.err'"
for op in ror aor lor bor sor asr uoi incdec const assign-del reset-del call-del cond-neg branch-swap; do
	check "operator $op has sites" grep -q "	$op	" "$tmp/sites.tsv"
done
check "every site id is unique" sh -c "test -z \"\$(cut -f1 '$tmp/sites.tsv' | sort | uniq -d)\""
check "each site's original text is at its byte offsets" "$PY" -c '
import re, sys
esc = {"n": "\n", "t": "\t", "\\": "\\"}
for l in open(sys.argv[1]):
    f = l.rstrip("\n").split("\t")
    src = open(f[1], "rb").read()
    orig = re.sub(r"\\(.)", lambda m: esc[m.group(1)], f[5]).encode()
    if src[int(f[7]):int(f[8])] != orig:
        sys.exit("%s: %r is not at %s..%s" % (f[0], orig, f[7], f[8]))' "$tmp/sites.tsv"
"$PY" $S list --sample 25 --seed 3 reference/ete/ete_parse.c >"$tmp/a.tsv"
"$PY" $S list --sample 25 --seed 3 reference/ete/ete_parse.c >"$tmp/b.tsv"
"$PY" $S list --sample 25 --seed 4 reference/ete/ete_parse.c >"$tmp/c.tsv"
check "the same seed draws the same 25 sites" sh -c "test \$(wc -l <'$tmp/a.tsv') -eq 25 && cmp -s '$tmp/a.tsv' '$tmp/b.tsv'"
check "another seed draws others" sh -c "! cmp -s '$tmp/a.tsv' '$tmp/c.tsv'"

# Every protocol's parts, as run.sh takes them.
files="reference/insn.c reference/rvinsn.c reference/armxfer.c reference/cyclecap.c reference/image.c reference/retstack.c reference/pktstream.c reference/l3range.c"
for d in reference/*/; do
	for f in "$d"*.c; do
		case $f in reference/test/* | *_text.c | *_config.c | *_protocol.c) ;; *) [ -f "$f" ] && files="$files $f" ;; esac
	done
done
check "every entry of equivalent.txt names a site" "$PY" $S check conformance/mutants/auto/equivalent.txt $files
check "every entry of unscored.txt names a site" "$PY" $S check conformance/mutants/auto/unscored.txt $files
check "no site is both equivalent and unscored" sh -c "test -z \"\$(cat conformance/mutants/auto/equivalent.txt conformance/mutants/auto/unscored.txt | grep -v '^#' | cut -d' ' -f1 | sort | uniq -d)\""
# unreachable.txt: PROTOCOL SITE-ID argument, per protocol.
ur=conformance/mutants/auto/unreachable.txt
grep -v '^#' $ur | cut -d' ' -f2- >"$tmp/ur.txt"
check "every entry of unreachable.txt names a site" "$PY" $S check "$tmp/ur.txt" $files
check "every protocol of unreachable.txt is one of reference/" sh -c "grep -v '^#' $ur | cut -d' ' -f1 | sort -u | while read -r p; do test -d \"reference/\$p\" && test \"\$p\" != test || exit 1; done"
check "no site is both unreachable and equivalent or unscored" sh -c "test -z \"\$( { grep -v '^#' $ur | cut -d' ' -f2 | sort -u; cat conformance/mutants/auto/equivalent.txt conformance/mutants/auto/unscored.txt | grep -v '^#' | cut -d' ' -f1 | sort -u; } | sort | uniq -d)\""
{ cat conformance/mutants/auto/equivalent.txt; echo "reference/insn.c:nowhere:ror:00000000 made up"; } >"$tmp/eq.txt"
check "a made-up entry is reported stale" sh -c "! '$PY' $S check '$tmp/eq.txt' reference/insn.c >'$tmp/stale.out' && grep -q 'stale: reference/insn.c:nowhere:ror:00000000' '$tmp/stale.out'"

# End to end: two PTM mutants sampled, one of them kept by --ids (a pristine control, the
# vectors, the whole suite for survivors).
ptm_files=$(for f in reference/ptm/*.c; do case $f in *_text.c | *_config.c | *_protocol.c) ;; *) echo "$f" ;; esac; done)
# shellcheck disable=SC2086
"$PY" $S list --sample 2 --seed 5 $ptm_files reference/insn.c reference/image.c | sed -n 2p | cut -f1 >"$tmp/ids.txt"
JOBS=2 sh conformance/mutants/auto/run.sh --protocol ptm --sample 2 --seed 5 --ids "$tmp/ids.txt" --out "$tmp/out" "$B" >"$tmp/run.out" 2>&1
check "run.sh --ids: of 2 PTM mutants sampled, the one listed is judged and reported" sh -c "test -s '$tmp/ids.txt' && grep -q '^| ptm | (all) | [0-9]* | 1 | ' '$tmp/out/report.md' && test \$(wc -l <'$tmp/out/ptm/verdicts.tsv') -eq 1 && cut -f3 '$tmp/out/ptm/verdicts.tsv' | cmp -s - '$tmp/ids.txt' && ! grep -q '	lost	' '$tmp/out/ptm/verdicts.tsv' && grep -q '^ids=' '$tmp/out/ptm/run.txt'"
check "run.sh off a terminal: its progress (progress.sh) ends with the whole count, 1/1 PTM mutants" sh -c "grep -Eq '^mutants-auto: ptm: 1/1 mutants, [01] surviving, [0-9]+\\.[0-9] mutants/s\$' '$tmp/run.out' && ! grep -q \"\$(printf '[\\r\\033]')\" '$tmp/run.out'"
check "keep.sh refuses a run of a sample or a subset, naming run.txt" sh -c "mkdir -p '$tmp/kb' && cp -r '$tmp/out' '$tmp/kb/mutants-auto' && ! sh conformance/mutants/auto/keep.sh ptm '$tmp/kb' 2>'$tmp/keep.err' && grep -q 'run.txt: sample=2: a sampled run' '$tmp/keep.err'"
check "keep.sh without a run: exit 1, the missing file named" sh -c "sh conformance/mutants/auto/keep.sh ptm '$tmp/nobuild' 2>'$tmp/keep2.err'; test \$? -eq 1 && grep -q 'nobuild/mutants-auto/ptm/run.txt: missing' '$tmp/keep2.err'"
check "keep.sh with one argument: usage, exit 2" sh -c "sh conformance/mutants/auto/keep.sh ptm 2>/dev/null; test \$? -eq 2"
check "measured.md is report.sh's output over runs/, unedited" sh -c "sh conformance/mutants/auto/report.sh conformance/mutants/auto/runs | cmp -s - conformance/mutants/auto/measured.md"
for r in conformance/mutants/auto/runs/*/; do
	check "kept run $r is a full run (sample=all, no ids=)" sh -c "grep -qx 'sample=all' '${r}run.txt' && ! grep -q '^ids=' '${r}run.txt'"
done
# --resume: the run stopped before its one mutant was judged (its verdict gone) goes on with it;
# its run.txt keeps the start's date and commit and adds when it was resumed. A tree that differs
# from the run's commit in what verdicts depend on (tree.sh) is not resumed, nor rechecked.
. conformance/mutants/auto/tree.sh
clean=0
if grep -q '^commit=[^ ]*$' "$tmp/out/ptm/started.txt" && ch=$(measured_changes HEAD 2>/dev/null) && [ -z "$ch" ]; then clean=1; fi
cp -r "$tmp/out" "$tmp/rs"
rm -f "$tmp"/rs/ptm/m1/verdict "$tmp/rs/ptm/run.txt" "$tmp/rs/ptm/verdicts.tsv"
JOBS=2 sh conformance/mutants/auto/run.sh --resume --quiet --out "$tmp/rs" "$B" >"$tmp/rs.out" 2>&1
rs_rc=$?
# --recheck: a complete run whose one mutant is marked survived is judged again (as in the first run).
cp -r "$tmp/out" "$tmp/rc"
printf 'survived\t-\n' >"$tmp/rc/ptm/m1/verdict"
JOBS=2 sh conformance/mutants/auto/run.sh --recheck --quiet --out "$tmp/rc" "$B" >"$tmp/rc.out" 2>&1
rc_rc=$?
if [ $clean -eq 1 ]; then
	check "run.sh --resume: the mutant without a verdict judged again, as in the first run; run.txt is started.txt and resumed=" sh -c "test $rs_rc -eq 0 && cmp -s '$tmp/out/ptm/verdicts.tsv' '$tmp/rs/ptm/verdicts.tsv' && head -n 5 '$tmp/rs/ptm/run.txt' | cmp -s - '$tmp/out/ptm/started.txt' && grep -Eq '^resumed=[0-9]{4}-' '$tmp/rs/ptm/run.txt' && grep -q 'ptm: resumed: 1 of 1 mutants left' '$tmp/rs.out'"
	check "run.sh --recheck: the mutant marked survived judged again, as in the first run; run.txt gains rechecked= at HEAD, the report says so" sh -c "test $rc_rc -eq 0 && cmp -s '$tmp/out/ptm/verdicts.tsv' '$tmp/rc/ptm/verdicts.tsv' && head -n 5 '$tmp/rc/ptm/run.txt' | cmp -s - '$tmp/out/ptm/run.txt' && grep -q \"^rechecked=.* at \$(git rev-parse --short HEAD) (1 mutants\" '$tmp/rc/ptm/run.txt' && grep -q 'ptm: rechecked: 1 of 1 mutants' '$tmp/rc.out' && grep -q '; rechecked .*RECHECK=1' '$tmp/rc/report.md'"
else
	check "run.sh --resume in a tree that differs from the run's commit: refused, exit 2" sh -c "test $rs_rc -eq 2 && grep -Eq 'a run of uncommitted changes cannot be resumed|the tree differs from ptm.s run commit' '$tmp/rs.out'"
	check "run.sh --recheck in a tree with uncommitted changes: refused, exit 2" sh -c "test $rc_rc -eq 2 && grep -Eq 'cannot be rechecked|uncommitted or untracked changes' '$tmp/rc.out'"
fi
check "run.sh --resume with --sample: exit 2, the options named" sh -c "sh conformance/mutants/auto/run.sh --resume --sample 3 --out '$tmp/rs' '$B' 2>'$tmp/rs2.err'; test \$? -eq 2 && grep -q 'give no --sample, --ids, --report-only or --recheck' '$tmp/rs2.err'"
check "run.sh --recheck with --ids: exit 2, the options named" sh -c "sh conformance/mutants/auto/run.sh --recheck --ids '$tmp/ids.txt' --out '$tmp/rc' '$B' 2>'$tmp/rc2.err'; test \$? -eq 2 && grep -q 'give no --sample, --ids or --report-only' '$tmp/rc2.err'"
check "run.sh --resume where OUT holds no started run: exit 2, OUT named" sh -c "sh conformance/mutants/auto/run.sh --resume --out '$tmp/empty' '$B' 2>'$tmp/rs3.err'; test \$? -eq 2 && grep -q 'empty holds no started run' '$tmp/rs3.err'"
check "run.sh --recheck where OUT holds no complete run: exit 2, OUT named" sh -c "sh conformance/mutants/auto/run.sh --recheck --out '$tmp/empty' '$B' 2>'$tmp/rc3.err'; test \$? -eq 2 && grep -q 'empty holds no complete run' '$tmp/rc3.err'"
root=$(git rev-list --max-parents=0 HEAD 2>/dev/null | tail -n 1)
printf 'date=2026-01-01 00:00 UTC\ncommit=%s\nsample=2\nseed=5\n' "$root" >"$tmp/rs/ptm/started.txt"
check "run.sh --resume of a run at a commit whose reference or vectors differ: exit 2, the commit named" sh -c "sh conformance/mutants/auto/run.sh --resume --out '$tmp/rs' '$B' 2>'$tmp/rs4.err'; test \$? -eq 2 && grep -q 'the tree differs from ptm.s run commit' '$tmp/rs4.err'"
if [ $clean -eq 1 ]; then
	printf 'date=2026-01-01 00:00 UTC\ncommit=%s\nsample=2\nseed=5\n' "$root" >"$tmp/rc/ptm/run.txt"
	check "run.sh --recheck of a run at a commit where more than vectors differ: exit 2, a changed file named" sh -c "sh conformance/mutants/auto/run.sh --recheck --out '$tmp/rc' '$B' 2>'$tmp/rc4.err'; test \$? -eq 2 && grep -q 'more changed than vectors added (e.g. [ADM?]' '$tmp/rc4.err'"
fi
# tree.sh: a README of vectors/ and an untracked vector, in a repository of its own.
g=$tmp/git
mkdir -p "$g/vectors/x" "$g/reference" && (cd "$g" && git init -q && echo a >reference/a.c && echo r >vectors/x/README.md &&
	git add . && git -c user.email=t@t -c user.name=t commit -qm one && echo s >>vectors/x/README.md && echo v >vectors/x/v.tcv &&
	echo b >>reference/a.c) >/dev/null 2>&1
check "tree.sh: a vector untracked and a reference file changed are measured changes, a vectors README is not" sh -c "cd '$g' && . '$(pwd)/conformance/mutants/auto/tree.sh' && test \"\$(measured_changes HEAD | sort | tr '\t\n' ' ')\" = '? vectors/x/v.tcv M reference/a.c '"
check "run.sh --ids with a missing file: exit 2, the file named" sh -c "sh conformance/mutants/auto/run.sh --ids '$tmp/none' '$B' 2>'$tmp/ids.err'; test \$? -eq 2 && grep -q 'none: not a readable file' '$tmp/ids.err'"
tap_done
