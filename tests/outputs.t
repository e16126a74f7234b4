# SPDX-License-Identifier: BSD-3-Clause
# Every output is complete or absent: certificates, vectors, snapshot folders and standard output on a
# full file system (a small tmpfs when mount is permitted; RLIMIT_FSIZE always), on /dev/full, from two
# runs into one folder, and after SIGINT/SIGTERM; make vectors interrupted before and at its swap;
# make coverage's lcov files and make certify's mutant table after a failed or cut run. Each check
# asserts the exit status, the message (file and errno text) and that what is there parses whole.
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters"
REF="$B/libtc_reference.so"
# A certificate of about 30 KB from a few dozen runs (every one a failure with its divergence):
# bigger than the limits below, quick under ASan.
BIG="--adapter $B/bad/libtc_bad_wrong.so --vectors vectors/ete/hdr"
. tests/lib/tap.sh
mnt="$tmp/mnt"
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT

# pair_ok DIR: certificate.json parses (JSON::PP) and certificate.md is whole (its last section is
# there) and of the same run (its run count is the sum of the JSON's totals).
pair_ok() {
  perl -MJSON::PP -e '
    local $/;
    open(my $j, "<", "$ARGV[0]/certificate.json") or die "$ARGV[0]/certificate.json: $!\n";
    my $d = decode_json(<$j>);
    open(my $m, "<", "$ARGV[0]/certificate.md") or die "$ARGV[0]/certificate.md: $!\n";
    my $md = <$m>;
    my $n = 0;
    $n += $_ for values %{$d->{totals}};
    $md =~ /unsupported\)\. (\d+) runs in / or die "no run count in the Markdown\n";
    $1 == $n or die "Markdown: $1 runs, JSON: $n\n";
    $md =~ /^## Failures/m or die "the Markdown is cut short\n";' "$1"
}
# no_temp DIR: no temporary file or folder (".NAME.XXXXXX") is left in DIR.
no_temp() { test -z "$(ls -A "$1" | grep '^\.')"; }
# absent DIR: neither certificate file is there.
absent() { ! test -e "$1/certificate.json" && ! test -e "$1/certificate.md"; }
# prev_kept DIR: the certificates in DIR are byte for byte those of $tmp/prev, and no temporary file is left.
prev_kept() { cmp "$tmp/prev/certificate.json" "$1/certificate.json" && cmp "$tmp/prev/certificate.md" "$1/certificate.md" && no_temp "$1"; }
# all_pass DIR: every vector file in DIR is whole (the reference passes every one) and there is one.
all_pass() { ls "$1"/*.tcv > /dev/null 2>&1 && "$T" certify --adapter "$REF" --vectors "$1" > /dev/null 2>&1; }
# A certificate of a few vectors, kept as "the previous one" of the checks below.
"$T" certify --adapter "$REF" --vectors vectors/ete/spec --report "$tmp/prev" 2>/dev/null

# ---- Standard output on /dev/full ------------------------------------------------------
full_stdout() {  # full_stdout CMD ARGS...: exit 2 and "tracecert CMD: cannot write standard output: No space left on device"
  "$T" "$@" > /dev/full 2> "$tmp/full.err"; rc=$?
  cat "$tmp/full.err"; test $rc -eq 2 && grep -q "^tracecert $1: cannot write standard output: No space left on device\$" "$tmp/full.err"
}
check "dump > /dev/full: exit 2, the reason named" full_stdout dump --vector vectors/ete/spec/k10-06-program-trace.tcv
check "decode > /dev/full: exit 2, the reason named" full_stdout decode --vector vectors/ete/l3/a64-bcond.tcv
check "gen to standard output > /dev/full: exit 2" full_stdout gen --quiet --count 3
check "config > /dev/full: exit 2" full_stdout config
check "bench > /dev/full: exit 2, the reason named (its children write nothing there)" full_stdout bench --reference "$REF" --protocol ptm --only l1 --size 1 --runs 1
check "certify --tap > /dev/full: exit 2, the TAP stream named, no certificate written" sh -c "'$T' certify --adapter '$REF' --vectors vectors/ete/spec --tap --report '$tmp/tapfull' > /dev/full 2> '$tmp/tapfull.err'; test \$? -eq 2 && grep -q 'cannot write the TAP stream: No space left on device' '$tmp/tapfull.err' && ! test -e '$tmp/tapfull/certificate.json'"

# ---- The file-size limit (RLIMIT_FSIZE; sh's ulimit -f counts blocks of 512 or 1024 bytes) -----
cp -r "$tmp/prev" "$tmp/lim"
(ulimit -f 16; "$T" certify $BIG --report "$tmp/lim" > /dev/null 2> "$tmp/lim.err"); lim_rc=$?
check "certify at the file-size limit: exit 2, the file and 'File too large' named (not killed by SIGXFSZ)" sh -c "cat '$tmp/lim.err'; test $lim_rc -eq 2 && grep -q \"cannot write '$tmp/lim/certificate.json': File too large\" '$tmp/lim.err'"
check "... the previous certificate is left whole, no temporary file" prev_kept "$tmp/lim"
(ulimit -f 4; "$T" gen --count 20 --steps 3000 --out "$tmp/glim" 2> "$tmp/glim.err"); glim_rc=$?
check "gen --out at the file-size limit: exit 2, 'File too large' named, no count of vectors written" sh -c "cat '$tmp/glim.err'; test $glim_rc -eq 2 && grep -q \"tracecert gen: cannot write '$tmp/glim/gen-0000[0-9]*.tcv': File too large\" '$tmp/glim.err' && ! grep -q 'vectors, .* trace bytes' '$tmp/glim.err'"
check "... every vector file there is whole, no temporary file" sh -c "{ ! ls '$tmp/glim'/*.tcv >/dev/null 2>&1 || '$T' certify --adapter '$REF' --vectors '$tmp/glim' >/dev/null 2>&1; } && test -z \"\$(ls -A '$tmp/glim' | grep '^\\.')\""
(ulimit -f 4; "$T" gen --count 16 --steps 3000 --quiet --snapshot-out "$tmp/slim" > /dev/null 2> "$tmp/slim.err"); slim_rc=$?
check "gen --snapshot-out at the file-size limit: exit 2, no snapshot folder, no temporary folder" sh -c "cat '$tmp/slim.err'; test $slim_rc -eq 2 && grep -q 'File too large' '$tmp/slim.err' && ! test -e '$tmp/slim' && test -z \"\$(ls -A '$tmp' | grep '^\\.slim')\""
(ulimit -f 4; "$T" dump --vector vectors/ete/gen/gen-000004.tcv --level all > "$tmp/dlim.txt" 2> "$tmp/dlim.err"); dlim_rc=$?
check "dump into a file at the file-size limit: exit 2, the reason named" sh -c "cat '$tmp/dlim.err'; test $dlim_rc -eq 2 && grep -q '^tracecert dump: cannot write standard output: File too large' '$tmp/dlim.err'"

# ---- A full file system: a small tmpfs, when this machine lets us mount one ----------------
mkdir "$mnt"
if mount -t tmpfs -o size=256k tmpfs "$mnt" 2>/dev/null; then
  cp -r "$tmp/prev" "$mnt/rep"
  dd if=/dev/zero of="$mnt/fill" bs=4096 2>/dev/null
  truncate -s -24k "$mnt/fill"           # 24 KiB left: the probe passes, the 30 KB JSON does not fit
  "$T" certify $BIG --report "$mnt/rep" > /dev/null 2> "$tmp/fs.err"; fs_rc=$?
  check "certify on a full file system: exit 2, the file and 'No space left on device' named" sh -c "cat '$tmp/fs.err'; test $fs_rc -eq 2 && grep -q \"cannot write '$mnt/rep/certificate.json': No space left on device\" '$tmp/fs.err'"
  check "... the previous certificate is left whole, no temporary file" prev_kept "$mnt/rep"
  "$T" gen --count 40 --steps 3000 --out "$mnt/g" 2> "$tmp/fsg.err"; fsg_rc=$?
  check "gen --out on a full file system: exit 2, every file there whole, no temporary file" sh -c "cat '$tmp/fsg.err'; test $fsg_rc -eq 2 && grep -q 'No space left on device' '$tmp/fsg.err' && ! grep -q 'vectors, .* trace bytes' '$tmp/fsg.err' && { ! ls '$mnt/g'/*.tcv >/dev/null 2>&1 || '$T' certify --adapter '$REF' --vectors '$mnt/g' >/dev/null 2>&1; } && test -z \"\$(ls -A '$mnt/g' | grep '^\\.')\""
  rm -rf "$mnt/g"
  "$T" gen --count 16 --steps 3000 --quiet --snapshot-out "$mnt/snap" > /dev/null 2> "$tmp/fss.err"; fss_rc=$?
  check "gen --snapshot-out on a full file system: exit 2, no snapshot folder, no temporary folder" sh -c "cat '$tmp/fss.err'; test $fss_rc -eq 2 && grep -q 'No space left on device' '$tmp/fss.err' && ! test -e '$mnt/snap' && test -z \"\$(ls -A '$mnt' | grep '^\\.')\""
  dd if=/dev/zero of="$mnt/fill2" bs=4096 2>/dev/null
  "$T" certify --adapter "$B/bad/libtc_bad_hang.so" --vectors vectors/ete/spec --timeout 5 --report "$mnt/rep2" > /dev/null 2> "$tmp/fsp.err"; fsp_rc=$?
  check "a report folder with no room is found before the run (no summary line, exit 2)" sh -c "cat '$tmp/fsp.err'; test $fsp_rc -eq 2 && grep -q \"^tracecert certify: --report: cannot write in the folder '$mnt/rep2': No space left on device\" '$tmp/fsp.err' && ! grep -q '^certify:' '$tmp/fsp.err'"
  umount "$mnt"
else
  check "full file system on a tmpfs # SKIP mount is not permitted here (RLIMIT_FSIZE above covers it)" true
fi

# ---- A report folder that cannot be written is found before the run ----------------------
: > "$tmp/plainfile"
start=$(date +%s)
"$T" certify --adapter "$B/bad/libtc_bad_hang.so" --vectors vectors/ete/spec --timeout 5 --report "$tmp/plainfile/rep" > /dev/null 2> "$tmp/unw.err"; unw_rc=$?
unw_s=$(( $(date +%s) - start ))
check "an unwritable report folder: exit 2 before any run, the folder and the reason named" sh -c "cat '$tmp/unw.err'; test $unw_rc -eq 2 && test $unw_s -lt 3 && grep -q \"^tracecert certify: --report: cannot create the folder '$tmp/plainfile/rep': Not a directory\" '$tmp/unw.err' && ! grep -q '^certify:' '$tmp/unw.err'"

# ---- Two runs into one folder: one complete pair, each time ------------------------------
conc_ok=1
for round in 1 2 3 4; do
  "$T" certify --adapter "$REF" --vectors vectors/ete/spec --report "$tmp/conc" 2>/dev/null & a=$!
  "$T" certify $BIG --report "$tmp/conc" 2>/dev/null & b=$!
  wait $a || conc_ok=0
  wait $b; [ $? -eq 1 ] || conc_ok=0
  pair_ok "$tmp/conc" || conc_ok=0
  no_temp "$tmp/conc" || conc_ok=0
done
check "two certify runs into one folder (4 times): exit 0 and 1, one whole JSON and Markdown pair of one run" test $conc_ok -eq 1

# ---- SIGINT / SIGTERM during certify ------------------------------------------------------
# (The functions below keep clear of tap.sh's variables n and d.)
# descendants PID: the processes PID started, and theirs.
descendants() {
  for f in /proc/[0-9]*/stat; do
    read -r pid comm state ppid rest 2>/dev/null < "$f" && [ "$ppid" = "$1" ] && { echo "$pid"; descendants "$pid"; }
  done
}
# alive PIDS...: those still running (not gone, not a zombie).
alive() {
  for p in "$@"; do
    read -r pid comm state rest 2>/dev/null < "/proc/$p/stat" && [ "$state" != Z ] && echo "$p"
  done
}
interrupt_certify() {  # interrupt_certify SIGNAL STATUS
  rm -rf "$tmp/sig" && cp -r "$tmp/prev" "$tmp/sig"
  "$T" certify --adapter "$B/bad/libtc_bad_hang.so" --vectors vectors/ete/spec --timeout 8 --jobs 2 --tap \
    --report "$tmp/sig" > "$tmp/sig.tap" 2> "$tmp/sig.err" &
  cpid=$!
  i=0 procs=
  while [ $i -lt 100 ] && [ $(echo $procs | wc -w) -lt 4 ]; do procs=$(descendants $cpid); i=$((i + 1)); sleep 0.05; done
  start=$(date +%s)
  kill -$1 $cpid
  wait $cpid; rc=$?
  took=$(( $(date +%s) - start ))
  sleep 0.2
  left=$(alive $procs)
  echo "exit $rc after $took s; workers and children before:" $procs "; left:" $left; cat "$tmp/sig.err"
  test $rc -eq $2 && test $took -le 2 && test $(echo $procs | wc -w) -ge 4 && test -z "$left" &&
    grep -q "^tracecert certify: interrupted by SIG$1: no certificate written" "$tmp/sig.err" &&
    absent "$tmp/sig" && no_temp "$tmp/sig" && ! test -s "$tmp/sig.tap"
}
check "SIGINT during certify: exit 130 at once, every worker and child stopped, no TAP, no certificate, the previous one removed" interrupt_certify INT 130
check "SIGTERM during certify: exit 143, the same" interrupt_certify TERM 143

# ---- SIGINT / SIGTERM during gen ------------------------------------------------------------
interrupt_gen() {  # interrupt_gen SIGNAL STATUS
  rm -rf "$tmp/gi"
  "$T" gen --count 1000000 --out "$tmp/gi" 2> "$tmp/gi.err" & gpid=$!
  i=0
  while [ $i -lt 200 ] && [ $(ls "$tmp/gi" 2>/dev/null | wc -l) -lt 30 ]; do i=$((i + 1)); sleep 0.05; done
  kill -$1 $gpid
  wait $gpid; rc=$?
  files=$(ls "$tmp/gi" | wc -l)
  echo "exit $rc, $files files"; cat "$tmp/gi.err"
  test $rc -eq $2 && test $files -ge 30 && grep -q "^tracecert gen: interrupted by SIG$1 after $files of 1000000 vectors, each file written whole" "$tmp/gi.err" &&
    no_temp "$tmp/gi" && all_pass "$tmp/gi"
}
check "SIGINT during gen --out: exit 130, every vector written is whole (the reference passes each), none half" interrupt_gen INT 130
check "SIGTERM during gen --out: exit 143, the same" interrupt_gen TERM 143

# ---- Snapshot folders are replaced whole, and only a snapshot ------------------------------
"$T" gen --seed 3 --count 5 --quiet --snapshot-out "$tmp/snap" > /dev/null
"$T" gen --seed 3 --count 2 --quiet --snapshot-out "$tmp/snap" > /dev/null; snap_rc=$?
check "gen --snapshot-out over an earlier snapshot: replaced whole (2 sources, none of the 5 left)" sh -c "test $snap_rc -eq 0 && test \$(ls '$tmp/snap' | grep -c '^cpu_[0-9]*\\.ini\$') -eq 2 && test -z \"\$(ls -A '$tmp' | grep '^\\.snap')\""
mkdir "$tmp/other" && echo keep > "$tmp/other/notes.txt"
check "gen --snapshot-out over a folder of other files: refused (exit 2), the folder untouched" sh -c "'$T' gen --quiet --snapshot-out '$tmp/other' > /dev/null 2> '$tmp/other.err'; test \$? -eq 2 && grep -q \"'$tmp/other' exists and holds other files (no snapshot.ini): not replaced\" '$tmp/other.err' && test \"\$(ls -A '$tmp/other')\" = notes.txt && test -z \"\$(ls -A '$tmp' | grep '^\\.other')\""

# ---- make coverage's lcov files (coverage/report.sh): each .info file written beside its place ---------
# A stand-in lcov (first on PATH) writes "new" to its --output-file, or with STUB_BREAK=WHAT (capture,
# extract, merge: the run that does it) writes half a file there and is killed (SIGKILL) or fails.
mkdir -p "$tmp/stub" "$tmp/cov"
cat > "$tmp/stub/lcov" <<'EOS'
#!/bin/sh
out= what=merge prev=
for a; do
  [ "$prev" = --output-file ] && out=$a
  case $a in --capture) what=capture ;; --extract) what=extract ;; --summary) what=summary ;; esac
  prev=$a
done
if [ $what = summary ]; then
  printf '  lines......: 100.0%% (1 of 1 lines)\n  functions..: 100.0%% (1 of 1 functions)\n  branches...: 100.0%% (2 of 2 branches)\n'
  exit 0
fi
if [ "$STUB_BREAK" = $what ]; then printf 'TN:\nSF:half' > "$out"; [ "$STUB_HOW" = kill ] && kill -KILL $$; exit 1; fi
echo "new $what" > "$out"
EOS
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --output-directory ] && { mkdir -p "$2"; echo html > "$2/index.html"; }; shift; done\n' > "$tmp/stub/genhtml"
chmod +x "$tmp/stub/lcov" "$tmp/stub/genhtml"
# report BREAK HOW: coverage/report.sh over $tmp/cov (all.info, core.info and coverage.info "old" before)
report_cov() {
  for f in all core coverage; do echo old > "$tmp/cov/$f.info"; done
  STUB_BREAK=$1 STUB_HOW=$2 PATH="$tmp/stub:$PATH" sh coverage/report.sh "$tmp/cov" 95 90 --part core x.c > "$tmp/cov.out" 2>&1
}
# cov_is ALL CORE COVERAGE: the three files hold these words, and no temporary file is left.
cov_is() { test "$(cat "$tmp/cov/all.info")" = "$1" && test "$(cat "$tmp/cov/core.info")" = "$2" && test "$(cat "$tmp/cov/coverage.info")" = "$3" && no_temp "$tmp/cov"; }
report_cov capture kill; rc=$?
check "coverage: lcov killed while capturing: exit 2, the file named" sh -c "cat '$tmp/cov.out'; test $rc -eq 2 && grep -q 'lcov did not write $tmp/cov/all.info (left as it was)' '$tmp/cov.out'"
check "... the files are those of before, none cut" cov_is old old old
report_cov extract fail; rc=$?
check "coverage: lcov failing on a part: exit 2, the part's file named" sh -c "test $rc -eq 2 && grep -q 'lcov did not write $tmp/cov/core.info' '$tmp/cov.out'"
check "... each file whole: the new capture, the old part and merged file" cov_is "new capture" old old
report_cov merge kill; rc=$?
check "coverage: lcov killed while merging: exit 2, coverage.info named" sh -c "test $rc -eq 2 && grep -q 'lcov did not write $tmp/cov/coverage.info' '$tmp/cov.out'"
check "... the capture and the part replaced whole, the merged file old" cov_is "new capture" "new extract" old
report_cov none ok; rc=$?
check "coverage: every lcov run succeeds: exit 0, the HTML report in place" sh -c "cat '$tmp/cov.out'; test $rc -eq 0 && test -f '$tmp/cov/html/index.html'"
check "... all three files new, no temporary file" cov_is "new capture" "new extract" "new merge"
# The HTML folder swapped in by SWAPDIR (build/swapdir) in one step: a stand-in that records its call
# and runs the real one; the old report is replaced whole and no '.html.new' folder is left.
echo old > "$tmp/cov/html/index.html"; echo stale > "$tmp/cov/html/stale.html"
printf '#!/bin/sh\necho "$@" > "%s/swapped"\nexec "%s" "$@"\n' "$tmp" "$(cd "${TC_BUILD:-build}" && pwd)/swapdir" > "$tmp/swapdir"
chmod +x "$tmp/swapdir"
for f in all core coverage; do echo old > "$tmp/cov/$f.info"; done
SWAPDIR="$tmp/swapdir" STUB_BREAK=none PATH="$tmp/stub:$PATH" sh coverage/report.sh "$tmp/cov" 95 90 --part core x.c > "$tmp/cov.out" 2>&1; rc=$?
check "coverage: with SWAPDIR the HTML folder is exchanged in one step, the old report gone whole" sh -c "test $rc -eq 0 && grep -q '^$tmp/cov/.html.new $tmp/cov/html\$' '$tmp/swapped' && test \"\$(cat '$tmp/cov/html/index.html')\" = html && test ! -e '$tmp/cov/html/stale.html' && test ! -e '$tmp/cov/.html.new'"

# ---- make certify: the mutant kill table is replaced only by a whole one ----------------------------
# make suite-check (the suite's own mutant run and certificate) with a stand-in
# mutant run (MUTANTS_RUN) in a build folder of its own: the previous table and suite certificate are
# "old"; the run prints part of a table and fails (exit 2), is killed (SIGKILL), or prints a whole one.
sb="$tmp/sb"
mkdir -p "$sb/certify/suite" "$sb/gen"
ln -s "$(cd "${TC_BUILD:-build}/gen" && pwd)/protocols.c" "$sb/gen/protocols.c"
printf '#!/bin/sh\necho "ete/01-x                 killed        3      1  v.tcv"\n[ "$1" = --first-failure ] || exit 3\ncase $STUB in fail) exit 2 ;; kill) kill -KILL $$ ;; esac\necho "ptm/01-y                 survived      5      0  -"\necho "mutants: 1 killed of 2 (kill rate 50.0%%)"\nexit 1\n' > "$tmp/mutants-run"
suite() {  # suite STUB: make suite-check over $sb with the stand-in; its status
  echo old > "$sb/certify/suite/mutants.txt"; echo old > "$sb/certify/suite/certificate.md"
  STUB=$1 make -s --no-print-directory suite-check BUILD="$sb" MUTANTS_RUN="$tmp/mutants-run" > "$tmp/suite.out" 2>&1
}
suite fail; rc=$?
check "make suite-check with a mutant run that fails: make fails, saying the table and certificate are left as they were" sh -c "cat '$tmp/suite.out'; test $rc -ne 0 && grep -q \"make suite-check: the mutant run ($tmp/mutants-run) did not finish (exit status 2, no 'mutants: K killed of N' line): $sb/certify/suite/mutants.txt and certificate.md are left as they were\" '$tmp/suite.out'"
check "... mutants.txt and the suite certificate are the old ones, no temporary file" sh -c "test \"\$(cat '$sb/certify/suite/mutants.txt')\" = old && test \"\$(cat '$sb/certify/suite/certificate.md')\" = old && test -z \"\$(ls -A '$sb/certify/suite' | grep '^\\.')\""
suite kill; rc=$?
check "make suite-check with a mutant run killed half way (SIGKILL): make fails, the old table and certificate kept" sh -c "cat '$tmp/suite.out'; test $rc -ne 0 && grep -q 'did not finish (exit status 137' '$tmp/suite.out' && test \"\$(cat '$sb/certify/suite/mutants.txt')\" = old && test \"\$(cat '$sb/certify/suite/certificate.md')\" = old"
suite whole; rc=$?
check "make certify with a whole table (a mutant survived, exit 1): the table in place, the certificate shows the survivor" sh -c "cat '$tmp/suite.out'; test $rc -eq 0 && tail -n 1 '$sb/certify/suite/mutants.txt' | grep -q '^mutants: 1 killed of 2 ' && grep -q '^| ptm | [0-9]* | 0 | ptm/01-y survived |' '$sb/certify/suite/certificate.md' && test -z \"\$(ls -A '$sb/certify/suite' | grep '^\\.')\""

# ---- make vectors: the vectors are put in place only when all are written ------------------
# A stand-in for the generator (VEC_GEN) writes 3 of the vectors, then stops make, its parent, with
# SIGTERM: the checked-in copy must be untouched (no vector is deleted before its replacement is written).
mkdir -p "$tmp/v/ptm"
cp -r vectors/ptm/gen "$tmp/v/ptm/gen"
real_t=$(cd "$(dirname "$T")" && pwd)/$(basename "$T")
cat > "$tmp/stopped-gen" <<EOF
#!/bin/sh
prev=
for a; do
  shift
  if [ "\$prev" = --seeds-file ]; then grep -v '^#' "\$a" | head -n 3 > "$tmp/three-seeds.txt"; a="$tmp/three-seeds.txt"; fi
  set -- "\$@" "\$a"
  prev=\$a
done
"$real_t" "\$@"
kill -TERM \$PPID
sleep 5
EOF
chmod +x "$tmp/stopped-gen"
make -s vectors-gen-ptm BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" VEC_GEN="$tmp/stopped-gen" > "$tmp/mv.out" 2>&1; mv_rc=$?
check "make vectors stopped after 3 vectors: make fails, vectors/ptm/gen untouched (none deleted)" sh -c "cat '$tmp/mv.out'; test $mv_rc -ne 0 && grep -q 'tracecert gen: 3 vectors' '$tmp/mv.out' && diff -r vectors/ptm/gen '$tmp/v/ptm/gen'"
echo "stale" > "$tmp/v/ptm/gen/gen-999999.tcv"
make -s vectors-gen-ptm BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" > "$tmp/mv2.out" 2>&1; mv2_rc=$?
check "make vectors that completes: the folder is what the generator writes (a vector no seed makes is removed), no temporary folder" sh -c "cat '$tmp/mv2.out'; test $mv2_rc -eq 0 && diff -r vectors/ptm/gen '$tmp/v/ptm/gen' && test -z \"\$(ls -A '$tmp/v/ptm' | grep '^\\.')\""

# ---- make vectors: the folder is swapped in whole (tools/swapin.sh, build/swapdir) ----------------
# A stand-in for the exchanging program (VEC_SWAP) copies both folders as they are at the swap, then
# exchanges them with the real one (SWAP_AT=after) or not (before), and kills swapin.sh: make is cut
# at the swap. The old folder has a stale vector (no seed makes it) and one vector changed.
real_swap=$(cd "${TC_BUILD:-build}" && pwd)/swapdir
{
  echo '#!/bin/sh'
  echo "rm -rf '$tmp/at-swap' && mkdir '$tmp/at-swap' && cp -R \"\$1\" '$tmp/at-swap/new' && cp -R \"\$2\" '$tmp/at-swap/dest'"
  echo "[ \"\$SWAP_AT\" = after ] && '$real_swap' \"\$1\" \"\$2\""
  echo 'kill -KILL $PPID'
} > "$tmp/swap-stop"
chmod +x "$tmp/swap-stop"
# old_gen: $tmp/v/ptm/gen as the generator writes it, plus a stale vector and one changed, kept in $tmp/old-gen.
old_gen() {
  rm -rf "$tmp/v/ptm/gen" "$tmp/v/ptm/.gen.new" "$tmp/old-gen" && cp -r vectors/ptm/gen "$tmp/v/ptm/gen" &&
  cp "$tmp/v/ptm/gen/gen-000005.tcv" "$tmp/v/ptm/gen/gen-999999.tcv" &&
  sed -i '2s/^# /# (changed) /' "$tmp/v/ptm/gen/gen-000005.tcv" && cp -r "$tmp/v/ptm/gen" "$tmp/old-gen"
}
old_gen
SWAP_AT=before make -s vectors-gen-ptm BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" VEC_SWAP="$tmp/swap-stop" > "$tmp/sw1.out" 2>&1; sw1_rc=$?
check "make vectors cut at the swap, before the exchange: make fails, the folder is the old one, whole (its stale and changed vectors too)" sh -c "cat '$tmp/sw1.out'; test $sw1_rc -ne 0 && test -d '$tmp/at-swap/new' && diff -r '$tmp/old-gen' '$tmp/v/ptm/gen'"
check "... at that instant the new folder was complete: the generator's vectors and seeds.txt, the stale vector left out" diff -r vectors/ptm/gen "$tmp/at-swap/new"
check "... and the folder in place the old one, whole" diff -r "$tmp/old-gen" "$tmp/at-swap/dest"
old_gen
SWAP_AT=after make -s vectors-gen-ptm BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" VEC_SWAP="$tmp/swap-stop" > "$tmp/sw2.out" 2>&1; sw2_rc=$?
check "make vectors cut just after the exchange: make fails, the folder is the new one, whole" sh -c "cat '$tmp/sw2.out'; test $sw2_rc -ne 0 && diff -r vectors/ptm/gen '$tmp/v/ptm/gen'"
check "... the old folder left under the '.' name is skipped by certify (the same runs as over the folder alone)" sh -c "test -d '$tmp/v/ptm/.gen.new' && diff -r '$tmp/old-gen' '$tmp/v/ptm/.gen.new' && '$T' certify --adapter '$REF' --vectors '$tmp/v/ptm' --tap 2>/dev/null | grep '^1[.][.]' > '$tmp/plan1' && '$T' certify --adapter '$REF' --vectors '$tmp/v/ptm/gen' --tap 2>/dev/null | grep '^1[.][.]' > '$tmp/plan2' && cat '$tmp/plan1' && cmp '$tmp/plan1' '$tmp/plan2'"
make -s vectors-gen-ptm BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" > "$tmp/sw3.out" 2>&1; sw3_rc=$?
check "... the next make vectors completes and leaves no '.' folder" sh -c "cat '$tmp/sw3.out'; test $sw3_rc -eq 0 && diff -r vectors/ptm/gen '$tmp/v/ptm/gen' && test -z \"\$(ls -A '$tmp/v/ptm' | grep '^\\.')\""
# vectors/ete/neg and warn come from one run of tools/vecgen/ete_neg.c: they are exchanged as a pair, by
# one swapdir, so make cut at the swap leaves both old or both new. The old ones each have a file changed.
{
  echo '#!/bin/sh'
  echo "echo \"\$#\" > '$tmp/pair-args'"
  echo "[ \"\$SWAP_AT\" = after ] && '$real_swap' \"\$@\""
  echo 'kill -KILL $PPID'
} > "$tmp/pair-stop"
chmod +x "$tmp/pair-stop"
old_pair() {
  rm -rf "$tmp/v/ete" "$tmp/old-pair" && mkdir -p "$tmp/v/ete" && cp -r vectors/ete/neg vectors/ete/warn "$tmp/v/ete/" &&
  sed -i '2s/^# /# (changed) /' "$tmp/v/ete/neg/hdr-05.tcv" "$tmp/v/ete/warn/ite-el.tcv" && cp -r "$tmp/v/ete" "$tmp/old-pair"
}
old_pair
SWAP_AT=after make -s vectors-neg-ete BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" VEC_SWAP="$tmp/pair-stop" > "$tmp/np1.out" 2>&1; np1_rc=$?
check "make vectors cut just after the neg/warn exchange: both folders new (one swapdir for the pair)" sh -c "cat '$tmp/np1.out'; test $np1_rc -ne 0 && test \$(cat '$tmp/pair-args') -eq 4 && diff -r vectors/ete/neg '$tmp/v/ete/neg' && diff -r vectors/ete/warn '$tmp/v/ete/warn'"
old_pair
SWAP_AT=before make -s vectors-neg-ete BUILD="${TC_BUILD:-build}" VEC_ROOT="$tmp/v" VEC_SWAP="$tmp/pair-stop" > "$tmp/np2.out" 2>&1; np2_rc=$?
check "... cut just before it: both folders old, whole" sh -c "cat '$tmp/np2.out'; test $np2_rc -ne 0 && diff -r '$tmp/old-pair/neg' '$tmp/v/ete/neg' && diff -r '$tmp/old-pair/warn' '$tmp/v/ete/warn'"
# swapdir with a pair that cannot be exchanged puts back the pairs it exchanged before it.
mkdir -p "$tmp/sd/a" "$tmp/sd/b" "$tmp/sd/c"; echo a > "$tmp/sd/a/f"; echo b > "$tmp/sd/b/f"
"$real_swap" "$tmp/sd/a" "$tmp/sd/b" "$tmp/sd/none" "$tmp/sd/c" 2> "$tmp/sd.err"; sd_rc=$?
check "swapdir: the second pair cannot be exchanged: exit 2, said, the first pair exchanged back" sh -c "test $sd_rc -eq 2 && grep -q \"swapdir: cannot exchange '$tmp/sd/none' and '$tmp/sd/c'\" '$tmp/sd.err' && test \$(cat '$tmp/sd/a/f') = a && test \$(cat '$tmp/sd/b/f') = b"
tap_done
