# SPDX-License-Identifier: BSD-3-Clause
# The certify runner: the reference adapter scores 100%; misbehaving adapters are classified, never fatal.
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters"
. tests/lib/tap.sh
# The runner's summary line: "certify: NAME: P pass, F fail, C crash, H hang, X flood, E adapter-error, R runner-error, U unsupported, M malformed; …"
check "reference adapter: every vector passes, certificate written" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete --report '$tmp/ref' && grep -q 'Score: \*\*100.00%' '$tmp/ref/certificate.md' && grep -q '\"score\": 1.0000' '$tmp/ref/certificate.json'"
check "reference adapter: TAP stream is accepted by prove" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete --tap > '$tmp/ref.tap' && prove --exec cat '$tmp/ref.tap'"
check "crashing adapter: every supported run is a crash, the run goes on" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_crash.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 0 pass, 0 fail, 14 crash'"
check "aborting adapter: crash" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_abort.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 14 crash'"
check "hanging adapter: hang within the time limit" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_hang.so' --vectors vectors/ete/spec/k10-06-program-trace.tcv --timeout 1 2>&1 | grep -q ' 1 hang'"
check "flooding adapter: flood at the output limit" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_flood.so' --vectors vectors/ete/spec/k10-06-program-trace.tcv --output 1 2>&1 | grep -q ' 1 flood'"
check "open failure: adapter-error with its message in the TAP" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_openfail.so' --vectors vectors/ete/spec --tap 2>/dev/null | grep -q 'refuses every vector'"
check "feed failure: adapter-error" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_feedfail.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 14 adapter-error'"
check "exit without finishing: adapter-error" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_nofinish.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 14 adapter-error'"
check "wrong output: fail, with the first divergence in the TAP" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --tap 2>/dev/null | grep -q \"expected: '@12 01 trace-info\""
check "a wrong error list also shows the first L1 difference when L1 is compared (strict=resync vector)" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/regress/opencsd-resync-after-error.tcv --tap 2>/dev/null); echo \"\$out\" | grep -q \"expected: 'reserved-header 14'\" && echo \"\$out\" | grep -q '^  l1_line: 2\$' && echo \"\$out\" | grep -q \"^  l1_expected: '@12 01 trace-info\""
check "each failure's YAML block has one level key (the compared section is 'section')" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --tap 2>/dev/null); n=\$(echo \"\$out\" | grep -c '^not ok'); test \$n -gt 0 && test \$(echo \"\$out\" | grep -c '^  level:') -eq \$n && test \$(echo \"\$out\" | grep -c '^  section:') -eq \$n"
check "L1-only adapter: L3 vectors are unsupported, not failures" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --tap 2>/dev/null | grep -q 'SKIP unsupported'"
check "wrong ABI version: refused with exit 2" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_abi.so' --vectors vectors/ete/spec 2>&1 | grep -q 'has ABI version 3; this runner speaks 2' && { '$T' certify --adapter '$B/bad/libtc_bad_abi.so' --vectors vectors/ete/spec 2>/dev/null; test \$? -eq 2; }"
check "missing entry point: refused with exit 2" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_nosym.so' --vectors vectors/ete/spec 2>&1 | grep -q 'no symbol tracecert_adapter_v2' && { '$T' certify --adapter '$B/bad/libtc_bad_nosym.so' --vectors vectors/ete/spec 2>/dev/null; test \$? -eq 2; }"
check "an ABI v1 adapter: refused with exit 2, the message naming the ABI it exports" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_v1.so' --vectors vectors/ete/spec 2>&1 | grep -q 'exports tracecert_adapter_v1, the adapter ABI version 1, which this runner no longer supports' && { '$T' certify --adapter '$B/bad/libtc_bad_v1.so' --vectors vectors/ete/spec 2>/dev/null; test \$? -eq 2; }"
# An item the runner cannot trust is not formatted: the run is an adapter-error for that vector.
check "an item of the wrong size: adapter-error per vector, named in the TAP" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_badsize.so' --vectors vectors/ete/spec --tap 2>'$tmp/badsize.err'); grep -q ' 0 pass, 0 fail, 0 crash, 0 hang, 0 flood, 14 adapter-error' '$tmp/badsize.err' && echo \"\$out\" | grep -q \"message: 'malformed item: size [0-9]*; a ete L1 item is [0-9]* bytes'\""
check "an item of another protocol: adapter-error" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_badproto.so' --vectors vectors/ete/spec --tap 2>'$tmp/badproto.err'); grep -q ' 14 adapter-error' '$tmp/badproto.err' && echo \"\$out\" | grep -q \"message: 'malformed item: protocol 2 in a run of protocol 1 (ete)'\""
check "an item of a kind out of range: adapter-error" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_badkind.so' --vectors vectors/ete/spec --tap 2>'$tmp/badkind.err'); grep -q ' 14 adapter-error' '$tmp/badkind.err' && echo \"\$out\" | grep -q \"message: 'malformed item: kind 200; ete L1 kinds are 0\.\.\""
check "a PTM-only adapter: an ETE run is unsupported, and the TAP says why" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_ptmonly.so' --vectors vectors/ete/spec --vectors vectors/ptm/hdr --level 1 --tap 2>'$tmp/ptmonly.err'); grep -Eq ' 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, 14 unsupported' '$tmp/ptmonly.err' && echo \"\$out\" | grep -q '^ok [0-9]* - L1 vectors/ete/spec/k10-06-program-trace.tcv # SKIP unsupported by the adapter: protocol ete\$'"
# A selection of which the adapter supports no run selects nothing: an error, as a --tags typo is.
check "a PTM-only adapter on ETE vectors only: nothing to run, exit 2, the adapter and what it declares named, no certificate or folder" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_ptmonly.so' --vectors vectors/ete/spec --tap --report '$tmp/none/ptm' > '$tmp/none.tap' 2> '$tmp/none.err'; test \$? -eq 2 && grep -q \"^tracecert certify: nothing to run: adapter '$B/bad/libtc_bad_ptmonly.so' (bad) declares ptm at L1 and supports none of the 28 runs selected (every level); the first, L1 vectors/ete/spec/k10-06-program-trace.tcv, is unsupported: protocol ete\\$\" '$tmp/none.err' && test ! -s '$tmp/none.tap' && test ! -e '$tmp/none/ptm'"
check "an L1-only adapter with --level 3: nothing to run, exit 2, the level named; an earlier certificate left as it was" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec/k10-06-program-trace.tcv --report '$tmp/l3only' 2> /dev/null; cp '$tmp/l3only/certificate.json' '$tmp/l3only.json'; '$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --level 3 --report '$tmp/l3only' 2> '$tmp/l3only.err'; test \$? -eq 2 && grep -q 'declares ete at L1 and supports none of the 14 runs selected (--level 3); the first, L3 vectors/ete/spec/k10-06-program-trace.tcv, is unsupported: ete at L3' '$tmp/l3only.err' && ! grep -q 'Score' '$tmp/l3only.err' && cmp '$tmp/l3only.json' '$tmp/l3only/certificate.json'"
check "a PTM-only adapter: the PTM vectors run at L1 (not unsupported)" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_ptmonly.so' --vectors vectors/ptm/hdr --level 1 2>&1 | grep -Eq ' [1-9][0-9]* fail, .* 0 unsupported'"
check "missing adapter file: named" sh -c "'$T' certify --adapter /nonexistent.so --vectors vectors/ete/spec 2>&1 | grep -q \"cannot load adapter '/nonexistent.so'\""
check "no --adapter: usage error" sh -c "'$T' certify 2>&1 | grep -q 'adapter PATH.so is required' && { '$T' certify 2>/dev/null; test \$? -eq 2; }"
check "--tags selects vectors" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete --tags K10-18 2>&1 | grep -q ' 2 pass'"
check "--level 3 runs only L3" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete --level 3 --tap 2>/dev/null | grep -q '^ok 1 - L3'"
check "a failing run exits 1" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec 2>/dev/null; test \$? -eq 1"
check "alternative reading: pass-alt, counted as a pass, named in the TAP with the protocol's errata document" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors tests/data/alt-reading.tcv --tap 2>&1 | grep -qF 'ok 1 - L1 tests/data/alt-reading.tcv # pass under an alternative reading (see the vector; reference/ete/ERRATA.md)'"
check "alternative reading of a PTM vector: its TAP line names reference/ptm/ERRATA.md" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors tests/data/alt-reading-ptm.tcv --tap 2>&1 | grep -qF 'ok 1 - L1 tests/data/alt-reading-ptm.tcv # pass under an alternative reading (see the vector; reference/ptm/ERRATA.md)'"
check "alternative reading: the certificate lists it" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors tests/data/alt-reading.tcv --report '$tmp/alt' && grep -q 'pass under an alternative reading' '$tmp/alt/certificate.md' && grep -q 'TEST-1' '$tmp/alt/certificate.md'"
check "[error strict=class]: a wrong offset in the vector still passes" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors tests/data/error-class-only.tcv 2>&1 | grep -q ' 1 pass, 0 fail'"
# (vectest exits 1 and says why: the plain [expect.l1] line the reference does not print)
check "vectest holds the reference to the plain sections (the test vector's plain L1 fails)" sh -c "out=\$('${TC_BUILD:-build}/test/vectest' tests/data/alt-reading.tcv); test \$? -eq 1 && echo \"\$out\" | grep -q '^not ok 1 - tests/data/alt-reading.tcv\$' && echo \"\$out\" | grep -q '^  level: l1\$' && echo \"\$out\" | grep -q \"^  expected: '@14 04 ignore'\$\""
# The size of the whole difference: the stand-in adapter reports one `@0 00 async` whatever the
# trace; the vector's 15 L1 lines begin with that A-sync, so 14 are missing and none is extra.
check "a failure gives the size of the difference (expected/got/missing/extra lines)" sh -c "out=\$('$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/regress/opencsd-trace-info-context-reset.tcv --tap 2>/dev/null); echo \"\$out\" | grep -q '^  expected_lines: 15\$' && echo \"\$out\" | grep -q '^  got_lines: 1\$' && echo \"\$out\" | grep -q '^  missing_lines: 14\$' && echo \"\$out\" | grep -q '^  extra_lines: 0\$'"
# A worker process that dies (an adapter cannot kill one: certify's isolation; here the test does) is
# detected: the vector it was running gets a verdict of its own (a crash, the adapter's doing when its
# run had started, with the reason), a new worker takes its place and the run goes on. certify's only
# worker (--jobs 1) is killed while the hanging stand-in adapter holds its first task; the second vector
# still runs (a hang at --timeout 1). The worker is the child of certify that is a fork of it (named
# tracecert: the processes that load the adapter are tracecert exec'd as /proc/self/exe, named exe) and
# has a child of its own (the run).
children() { for f in /proc/[0-9]*/stat; do read -r pid comm state ppid rest 2>/dev/null < "$f" && [ "$ppid" = "$1" ] && [ -z "$2" -o "$comm" = "$2" ] && echo "$pid"; done; }
worker_of() { for c in $(children "$1" "(tracecert)"); do [ -n "$(children "$c")" ] && echo "$c"; done; }
"$T" certify --adapter "$B/bad/libtc_bad_hang.so" --vectors vectors/ete/spec/k10-06-program-trace.tcv --vectors vectors/ete/spec/k10-07-program-trace-filtering.tcv --jobs 1 --timeout 1 --tap > "$tmp/died.tap" 2> "$tmp/died.err" &
cpid=$!
w=; i=0
while [ -z "$w" ] && [ $i -lt 100 ]; do w=$(worker_of $cpid); i=$((i + 1)); [ -n "$w" ] || sleep 0.05; done
sleep 0.2; [ -n "$w" ] && kill -9 $w
wait $cpid; died_rc=$?
check "a worker that dies: exit status 1, the death on stderr, its vector a crash, the other vector still run" sh -c "test $died_rc -eq 1 && grep -q 'a worker process died (signal 9, Killed) during a run (task 1: crash); a new worker goes on' '$tmp/died.err' && grep -q '^certify: bad: 0 pass, 0 fail, 1 crash, 1 hang, 0 flood, 0 adapter-error, 0 runner-error, 2 unsupported' '$tmp/died.err'"
check "a worker that dies: the TAP names the death as the crash's reason; the next task is judged on its own" sh -c "grep -q \"message: 'the certify worker process running it died (signal 9, Killed) while the adapter''s process ran: the adapter''s doing; a new worker goes on'\" '$tmp/died.tap' && grep -q 'no end within 1 s of wall-clock time' '$tmp/died.tap' && ! grep -q '^ok [0-9]* - L1' '$tmp/died.tap'"
# A vector file the runner cannot read is the suite's problem, not the adapter's: a runner-error.
printf 'not a vector\n' > "$tmp/broken.tcv"
check "an unreadable vector file is a runner-error with its message, and fails the run with exit status 3 (the runner's trouble, not the decoder's)" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors '$tmp/broken.tcv' --tap > '$tmp/broken.tap' 2> '$tmp/broken.err'; test \$? -eq 3 && grep -q ' 0 adapter-error, 1 runner-error,' '$tmp/broken.err' && grep -q \"verdict: runner-error\" '$tmp/broken.tap' && grep -q \"message: 'vector file: \" '$tmp/broken.tap'"
# Every protocol through one runner: the reference on all the vectors, the certificate listing each protocol.
check "reference adapter: every protocol's vectors pass; the certificate lists each protocol" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors --report '$tmp/all' 2>/dev/null && grep -q '^| ete | 100.00% |' '$tmp/all/certificate.md' && grep -q '^| ptm | 100.00% |' '$tmp/all/certificate.md' && grep -q '{\"protocol\": \"ptm\", \"score\": 1.0000' '$tmp/all/certificate.json'"
# OpenCSD's PTM decoder through the runner (built when libopencsd-dev is installed): every PTM
# vector runs at L1 and L3 and is classified; none is a crash, a hang or an error of the adapter.
if [ -f "$B/libtc_opencsd.so" ]; then
  check "OpenCSD PTM: the PTM vectors run at both levels, each classified pass or fail, some pass" sh -c "'$T' certify --adapter '$B/libtc_opencsd.so' --vectors vectors/ptm --tap --report '$tmp/ocptm' > '$tmp/ocptm.tap' 2> '$tmp/ocptm.err'; test \$? -le 1 && grep -Eq ': [1-9][0-9]* pass, [0-9]+ fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, [0-9]+ unsupported' '$tmp/ocptm.err' && grep -q '^ok [0-9]* - L3 ' '$tmp/ocptm.tap' && grep -q '^| ptm |' '$tmp/ocptm/certificate.md'"
else
  check "OpenCSD PTM # SKIP libopencsd-dev not installed" true
fi
# OpenCSD's ETMv3 decoder through the runner: the hand-reasoned test vectors of tests/data/etmv3-opencsd-*.tcv,
# whose packets OpenCSD 1.3.3 decodes as the text says, pass at every level they have (the adapter's mapping of
# each field and error class); the reference passes them too. Data trace at L3 is refused, naming the tag that
# declares it unsupported; a vector with that tag is unsupported. Then every ETMv3 vector, classified.
E3="tests/data/etmv3-opencsd"
if [ -f "$B/libtc_opencsd.so" ]; then
  check "OpenCSD ETMv3: the flow, packet and error test vectors pass at L1 and L3 (4 runs)" sh -c "'$T' certify --adapter '$B/libtc_opencsd.so' --vectors $E3-flow.tcv --vectors $E3-packets.tcv --vectors $E3-errors.tcv --tap > '$tmp/oce3.tap' 2> '$tmp/oce3.err' && grep -q ': 4 pass, 0 fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, 0 unsupported, 0 malformed' '$tmp/oce3.err' && grep -q '^ok [0-9]* - L3 $E3-flow.tcv\$' '$tmp/oce3.tap'"
  check "OpenCSD ETMv3: the reference passes the same test vectors (the hand reasoning), and the data vector" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors $E3-flow.tcv --vectors $E3-packets.tcv --vectors $E3-errors.tcv --vectors $E3-data.tcv 2>&1 | grep -q ': 6 pass, 0 fail'"
  check "OpenCSD ETMv3: data trace at L3 without the tag data-l3 is an adapter-error naming the tag; its L1 passes" sh -c "out=\$('$T' certify --adapter '$B/libtc_opencsd.so' --vectors $E3-data.tcv --tap 2> '$tmp/oce3d.err'); test \$? -eq 1 && grep -q ': 1 pass, 0 fail, 0 crash, 0 hang, 0 flood, 1 adapter-error' '$tmp/oce3d.err' && echo \"\$out\" | grep -q '^ok 1 - L1 ' && echo \"\$out\" | grep -q \"message: 'open failed: OpenCSD''s ETMv3 decoder does not decode data trace .*(tag data-l3)'\""
  sed 's/^test opencsd-adapter data$/test opencsd-adapter data data-l3/' $E3-data.tcv > "$tmp/e3-data-l3.tcv"
  check "OpenCSD ETMv3: the same vector tagged data-l3 is unsupported at L3 and passes at L1 (a tag ending in -l3 is about the L3 section)" sh -c "'$T' certify --adapter '$B/libtc_opencsd.so' --vectors '$tmp/e3-data-l3.tcv' 2>&1 | grep -q ': 1 pass, 0 fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, 1 unsupported'"
  if [ -d vectors/etmv3 ]; then
    check "OpenCSD ETMv3: the ETMv3 vectors run at both levels, each classified pass, fail or unsupported, some pass" sh -c "'$T' certify --adapter '$B/libtc_opencsd.so' --vectors vectors/etmv3 --tap --report '$tmp/oce3v' > '$tmp/oce3v.tap' 2> '$tmp/oce3v.err'; test \$? -le 1 && grep -Eq ': [1-9][0-9]* pass, [0-9]+ fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, [0-9]+ unsupported' '$tmp/oce3v.err' && grep -q '^| etmv3 |' '$tmp/oce3v/certificate.md'"
  else
    check "OpenCSD ETMv3 vectors # SKIP vectors/etmv3 not written yet" true
  fi
else
  check "OpenCSD ETMv3 # SKIP libopencsd-dev not installed" true
fi
# Progress (conformance/progress.c): on a terminal one line redrawn in place, its last count left on its
# own line; --quiet none; off a terminal never a redrawn line (a plain line every 5 s at most: a run of
# any length may print some, so only their form is checked). No check here depends on how long it takes.
if command -v script > /dev/null 2>&1; then
  script -qec "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete/spec" /dev/null > "$tmp/tty.out" 2>&1
  script -qec "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete/spec --quiet" /dev/null > "$tmp/ttyq.out" 2>&1
  check "progress on a terminal: the counter line, redrawn, ends at 28/28 runs, 0 failing, with the rate" sh -c "grep -q \"\$(printf '\r\033')\\[Kcertify: 28/28 runs, 0 failing, [0-9.]* runs/s\" '$tmp/tty.out'"
  check "--quiet on a terminal: no counter" sh -c "grep -q 'certify: reference: 28 pass' '$tmp/ttyq.out' && ! grep -q 'runs, [0-9]* failing' '$tmp/ttyq.out'"
else
  check "progress on a terminal # SKIP no script(1) (bsdutils)" true
  check "--quiet on a terminal # SKIP no script(1) (bsdutils)" true
fi
"$T" certify --adapter "$B/bad/libtc_bad_wrong.so" --vectors vectors/ete/spec 2> "$tmp/notty.err"; notty_rc=$?
check "progress off a terminal: no redrawn line (no carriage return, no escape), every progress line whole" sh -c "test $notty_rc -eq 1 && ! grep -q \"\$(printf '[\r\033]')\" '$tmp/notty.err' && ! grep 'failing, ' '$tmp/notty.err' | grep -vq '^certify: [0-9]*/28 runs, [0-9]* failing, [0-9.]* runs/s\$'"
check "exit status: the decoder's failures 1, a selection of nothing 2, bad usage 2" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --vectors vectors/ete/spec --tags no-such-tag 2>/dev/null; test \$? -eq 2 && '$T' certify --adapter '$B/libtc_reference.so' --bogus 2>/dev/null; test \$? -eq 2 && test $notty_rc -eq 1"
check "exit status 3 when the runner could not run a run, even beside the decoder's failures (1 alone)" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --vectors '$tmp/broken.tcv' 2>/dev/null; test \$? -eq 3"
check "make certify ignores no error (no '-\$(TOOL)' recipe line) and no longer runs the mutants" sh -c "! grep -q '^	-' GNUmakefile && ! sed -n '/^certify:/,/^\$/p' GNUmakefile | grep -q 'MAKE.*suite-check\\|MUTANTS_RUN\\|mutants/run.sh'"
tap_done
