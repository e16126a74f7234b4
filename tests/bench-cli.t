# SPDX-License-Identifier: BSD-3-Clause
# tracecert bench (tools/bench.c on tools/cli.c): usage errors, missing adapters, and the shape of tiny
# runs (1 MiB, 1 or 2 runs): a row per protocol with an encoder and level, the OpenCSD column's states
# (not installed, not supported, crashed, a figure with the run-by-run ratio). Never a speed.
# Misbehaving adapters (conformance/test/bad_adapter.c) on either side: bench loads none itself, so
# one that crashes or exits while loading, crashes, exits, hangs, forges its reply or prints in a run
# is that side's column and one line on standard error, the other side measured; exit status 1 when
# it is the reference or could not be loaded, 0 when the compared side failed in a run (a finding).
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}"
R="$B/adapters/libtc_reference.so"
. tests/lib/tap.sh
# usage_error MESSAGE ARG...: tracecert ARG... prints one line with MESSAGE on standard error, nothing on
# standard output, and exits 2.
usage_error() {
  m=$1; shift
  "$T" "$@" > "$tmp/ue.out" 2> "$tmp/ue.err"; rc=$?
  test $rc -eq 2 && test ! -s "$tmp/ue.out" && test "$(wc -l < "$tmp/ue.err")" -eq 1 &&
    grep -qF -- "$m" "$tmp/ue.err" && grep -qF -- "(see tracecert help bench)" "$tmp/ue.err" || { echo "rc $rc"; cat "$tmp/ue.err"; return 1; }
}
# The protocols of the build that have an encoder (ENC_PROTOCOLS): bench measures those.
protocols=$(tc_enc_protocols)
check "the build has protocols with an encoder ($protocols)" test -n "$protocols"
# The runs that decode (throughput, text, memory, cycles, compression) measure every protocol in the
# plain pass; the ASan+UBSan pass measures two (--protocol ete,etmv1: a byte stream and a sample file):
# a section's rows are one path of bench's for every protocol, and each decoder runs under ASan in
# the round trip and the vectors.
measured=$protocols
case "$B" in *asan*) measured="ete etmv1" ;; esac
only="--protocol $(echo $measured | tr ' ' ,)"
check "bench without --reference is a usage error" usage_error "--reference PATH.so is required" bench
check "bench --only names an unknown section" usage_error "--only: unknown section 'frob'" bench --reference "$R" --only throughput,frob
check "bench --protocol names an unknown protocol and the ones with an encoder" usage_error "--protocol: no encoder for 'frob' (protocols with an encoder: $(echo $protocols | sed 's/ /, /g'))" bench --reference "$R" --protocol frob
check "bench --protocol with an empty name in the list" usage_error "no encoder for ''" bench --reference "$R" --protocol ete,,ptm
check "bench --protocol '' is a usage error, not every protocol" usage_error "--protocol: no protocol given (protocols with an encoder: $(echo $protocols | sed 's/ /, /g'))" bench --reference "$R" --protocol ""
check "bench --only '' is a usage error, not nothing at all" usage_error "--only: no section given (throughput, l1, text" bench --reference "$R" --only ""
check "bench --only= (empty, attached) is a usage error" usage_error "--only: no section given" bench --reference "$R" --only=
check "bench --timeout 0 is a usage error" usage_error "--timeout expects a number in 1..86400, got '0'" bench --reference "$R" --timeout 0
check "bench --runs 0 is a usage error" usage_error "--runs expects a number in 1..16, got '0'" bench --reference "$R" --runs 0
check "bench --runs=17 is a usage error (not cut to 16)" usage_error "--runs expects a number in 1..16, got '17'" bench --reference "$R" --runs=17
check "bench --runs x is a usage error" usage_error "--runs expects a number in 1..16, got 'x'" bench --reference "$R" --runs x
check "bench --size 0 is a usage error" usage_error "--size expects a number in 1..65536, got '0'" bench --reference "$R" --size 0
check "bench --memory-sizes 8,x is a usage error" usage_error "--memory-sizes expects a number in 1..65536, got '8,x'" bench --reference "$R" --memory-sizes 8,x
check "bench takes no operand, even after --" usage_error "takes no operand, got '--runs'" bench --reference "$R" -- --runs
check "bench --reference of a missing file: its name and why, exit 1" sh -c "'$T' bench --reference '$tmp/none.so' --only l1 > '$tmp/o' 2> '$tmp/e'; test \$? -eq 1 && grep -qF \"tracecert bench: --reference '$tmp/none.so': No such file or directory\" '$tmp/e' && test ! -s '$tmp/o'"
check "bench --opencsd of a missing file: its name and why, exit 1" sh -c "'$T' bench --reference '$R' --opencsd '$tmp/none.so' --only l1 > '$tmp/o' 2> '$tmp/e'; test \$? -eq 1 && grep -qF \"tracecert bench: --opencsd '$tmp/none.so': No such file or directory\" '$tmp/e'"
check "bench --reference of a file that is no adapter: exit 1" sh -c "printf x > '$tmp/x.so'; '$T' bench --reference '$tmp/x.so' --only l1 2> '$tmp/e'; test \$? -eq 1 && grep -q 'cannot load adapter' '$tmp/e'"
check "tracecert help bench prints what bench --help prints" sh -c "'$T' help bench > '$tmp/h1' && '$T' bench --help > '$tmp/h2' && test -s '$tmp/h1' && cmp '$tmp/h1' '$tmp/h2'"
check "bench --help names every protocol with an encoder and the sections" sh -c "h=\$('$T' bench --help) && for p in $protocols; do echo \"\$h\" | grep -Eq \"^  \$p +([a-z_]+=[0-9]|the defaults\$)\" || exit 1; done && echo \"\$h\" | grep -q 'throughput,l1,text,memory,cycles,compression,encoder,runner,fuzz'"
check "bench --version prints tracecert's version" sh -c "test \"\$('$T' bench --version)\" = \"\$('$T' --version)\""

# A tiny run of every protocol: the workload line, L1 and L3 rows (MB/s), the text row (instructions/s);
# OpenCSD's column 'not installed' without --opencsd.
fig='[0-9]+[.][0-9] [[] *[0-9]+[.][0-9][.][.] *[0-9]+[.][0-9][]]'
"$T" bench --reference "$R" --size 1 --runs 1 --only throughput,text $only > "$tmp/tiny" 2> "$tmp/tiny.err"
check "a tiny run (--size 1 --runs 1) exits 0" test $? -eq 0
for p in $measured; do
  check "$p: the workload line names the encoder's seed and configuration" grep -Eq "^workload $p: encoder seed 42, 100000 steps, 4096 blocks, config .*: [0-9]+-byte trace fed 1 MiB" "$tmp/tiny"
  check "$p: an L1 row with the reference's figure, OpenCSD not installed" grep -Eq "^$p L1 packets +$fig +not installed\$" "$tmp/tiny"
  check "$p: an L3 row with the reference's figure, OpenCSD not installed" grep -Eq "^$p L3 instructions +$fig +not installed\$" "$tmp/tiny"
  check "$p: a text-output row, with text against without, and their ratio" grep -Eq "^$p decode, L3 text +$fig +$fig +[0-9]+[.][0-9]{2}x [[]" "$tmp/tiny"
done
check "a tiny run has no row for a section not asked for" sh -c "! grep -Eq '^[a-z]+ encoder |peak RSS|^runner|fuzz harness' '$tmp/tiny'"
check "bench --protocol ptm --protocol=ptm,ptm: ptm's rows, once, no other protocol's" sh -c "out=\$('$T' bench --reference '$R' --size 1 --runs 1 --only l1 --protocol ptm --protocol=ptm,ptm) && test \$(echo \"\$out\" | grep -c ' L1 packets ') -eq 1 && echo \"\$out\" | grep -q '^ptm L1 packets ' && ! echo \"\$out\" | grep -q '^ptm L3' && test \$(echo \"\$out\" | grep -c '^workload ') -eq 1"
check "bench with the reference as both adapters: the run-by-run ratio and its range, per protocol and level" sh -c "out=\$('$T' bench --reference '$R' --opencsd '$R' --size 1 --runs 2 --only throughput $only) && for p in $measured; do for row in 'L1 packets' 'L3 instructions'; do echo \"\$out\" | grep -Eq \"^\$p \$row .*[0-9][.][0-9]{2}x [[][0-9]+[.][0-9]{2}[.][.][0-9]+[.][0-9]{2}[]]\\\$\" || exit 1; done; done"
# An adapter that lists ETE at L1 only (conformance/test/bad_adapter.c, kind wrong) and one that
# crashes in feed().
check "a protocol or level the other adapter does not list: 'not supported', not an error" sh -c "out=\$('$T' bench --reference '$R' --opencsd '$B/adapters/bad/libtc_bad_wrong.so' --size 1 --runs 1 --only throughput --protocol ete,ptm) && echo \"\$out\" | grep -Eq '^ete L1 packets .*[0-9]x [[]' && echo \"\$out\" | grep -Eq '^ete L3 instructions +$fig +ete not supported\$' && echo \"\$out\" | grep -Eq '^ptm L1 packets +$fig +ptm not supported\$'"
check "a --reference that does not list the protocol: 'not supported', the other adapter still measured" sh -c "out=\$('$T' bench --reference '$B/adapters/bad/libtc_bad_wrong.so' --opencsd '$R' --protocol ptm --size 1 --runs 1 --only l1) && echo \"\$out\" | grep -Eq '^ptm L1 packets +ptm not supported +$fig\$' && ! echo \"\$out\" | grep -q ' 0[.]0 [[]'"
# bad KIND SIDE CELL MESSAGE: bench with the misbehaving adapter KIND as --opencsd (SIDE opencsd) or
# --reference (SIDE reference; the reference adapter on the other side), ETE at L1, 1 MiB, one run,
# --timeout 2: exit status 1 for the reference side or a cell starting 'load:', else 0; the ETE L1 row has the other side's figure and CELL (an extended regular
# expression) in the bad side's column; standard error holds "tracecert bench: --SIDE 'PATH': " and
# MESSAGE (fixed text); nothing the adapter prints reaches standard output.
bad() {
  kind=$1 side=$2 cell=$3 msg=$4 so="$B/adapters/bad/libtc_bad_$1.so"
  if [ "$side" = opencsd ]; then set -- --reference "$R" --opencsd "$so"; row="^ete L1 packets +$fig +$cell\$"
  else set -- --reference "$so" --opencsd "$R"; row="^ete L1 packets +$cell +$fig\$"; fi
  want=0; case $side:$cell in reference:* | *:load:*) want=1 ;; esac
  "$T" bench "$@" --protocol ete --size 1 --runs 1 --only l1 --timeout 2 > "$tmp/bad.out" 2> "$tmp/bad.err"; rc=$?
  test $rc -eq $want && grep -Eq "$row" "$tmp/bad.out" && test "$(grep -vc '^workload \|^MB/s \|^ete L1 packets ' "$tmp/bad.out")" -eq 0 &&
    grep -qF "tracecert bench: --$side '$so': $msg" "$tmp/bad.err" || { echo "rc $rc"; cat "$tmp/bad.out" "$tmp/bad.err"; return 1; }
}
check "an adapter that crashes in feed: 'crashed (signal N)' (11, SIGSEGV; under ASan its abort), exit 0" bad crash opencsd 'crashed [(]signal [0-9]+[)]' "ete L1 packets: crashed (signal "
check "an adapter that aborts: 'crashed (signal 6)'" bad abort opencsd 'crashed [(]signal 6[)]' "ete L1 packets: crashed (signal 6, Aborted)"
check "an adapter that crashes in its constructor (bench itself was killed by it): 'load: crashed', the reference measured" bad ctor opencsd 'load: crashed [(]signal [0-9]+[)]' "crashed (signal "
check "... its message says where: while loading, in its constructor or entry point" grep -q "while loading: in its constructor or entry point" "$tmp/bad.err"
check "an adapter that exits in its entry point (bench ended with status 0 and no table): 'load: exited (status 0)'" bad entryexit opencsd 'load: exited [(]status 0[)]' "ended its process (exit status 0) while loading: in its constructor or entry point"
check "an adapter that hangs in feed: killed at the deadline, 'timed out (2 s)'" bad hang opencsd 'timed out [(]2 s[)]' "ete L1 packets: still running after 2 s of wall-clock time (killed)"
check "an adapter that closes every descriptor and sleeps: 'timed out (2 s)'" bad closesleep opencsd 'timed out [(]2 s[)]' "ete L1 packets: still running after 2 s"
check "an adapter that exits in finish: 'exited (status 0)', no figure" bad nofinish opencsd 'exited [(]status 0[)]' "ete L1 packets: ended its process (exit status 0) without sending its figures"
check "an adapter that writes forged frames to every descriptor: 'malformed reply'" bad forge opencsd 'malformed reply' "ete L1 packets: sent a malformed reply: "
check "an adapter whose open() refuses: 'failed', its reason on standard error" bad openfail opencsd 'failed' "ete L1 packets: this adapter refuses every vector"
check "a --reference that crashes in feed: the OpenCSD side is still measured" bad crash reference 'crashed [(]signal [0-9]+[)]' "ete L1 packets: crashed (signal "
check "a --reference that crashes in its constructor: the OpenCSD side is still measured" bad ctor reference 'load: crashed [(]signal [0-9]+[)]' "crashed (signal "
check "an adapter with the wrong ABI version: 'cannot load', the reason named, the other side measured" sh -c "'$T' bench --reference '$R' --opencsd '$B/adapters/bad/libtc_bad_abi.so' --protocol ete --size 1 --runs 1 --only l1 > '$tmp/o' 2> '$tmp/e'; test \$? -eq 1 && grep -Eq '^ete L1 packets +$fig +cannot load\$' '$tmp/o' && grep -q \"^tracecert bench: --opencsd: adapter '$B/adapters/bad/libtc_bad_abi.so' has ABI version\" '$tmp/e'"
check "an adapter that prints 4 MiB of TAP-looking lines: none reaches bench's output, its figure is there" sh -c "out=\$('$T' bench --reference '$R' --opencsd '$B/adapters/bad/libtc_bad_stdout.so' --protocol ete --size 1 --runs 1 --only l1 2> '$tmp/e') && ! echo \"\$out\" | grep -q FORGED && ! grep -q FORGED '$tmp/e' && echo \"\$out\" | grep -Eq '^ete L1 packets +$fig +$fig +[0-9.]+x'"
check "a --reference that crashes in its constructor: the memory row says so, exit 1" sh -c "'$T' bench --reference '$B/adapters/bad/libtc_bad_ctor.so' --protocol ete --only memory --memory-sizes 1,1 > '$tmp/o' 2> '$tmp/e'; test \$? -eq 1 && grep -Eq '^ete reference peak RSS [(]L3[)] +load: crashed [(]signal [0-9]+[)]\$' '$tmp/o'"
check "bench --memory-sizes 1 --size 2: the second size is 8 times the first" sh -c "'$T' bench --reference '$R' --protocol ptm --only memory --size 2 --memory-sizes 1 | grep -Eq '^ptm reference peak RSS [(]L3[)] +1 MiB: [0-9]+ KiB, 8 MiB: '"
check "bench --only memory: each protocol's peak RSS at the two sizes" sh -c "out=\$('$T' bench --reference '$R' --only memory --memory-sizes 1,2 $only) && for p in $measured; do echo \"\$out\" | grep -Eq \"^\$p reference peak RSS [(]L3[)] +1 MiB: [0-9]+ KiB, 2 MiB: [0-9]+ KiB [(][-+][0-9]+[.][0-9]%[)]\\\$\" || exit 1; done"
check "bench --only encoder --size 1: each protocol's encoder (31 vectors), no workload" sh -c "out=\$('$T' bench --reference '$R' --only encoder --size 1) && for p in $protocols; do echo \"\$out\" | grep -Eq \"^\$p encoder +[0-9]+ vectors/s, [0-9.]+ MB/s of trace [(]31 vectors of [0-9]+ steps[)]\\\$\" || exit 1; done && ! echo \"\$out\" | grep -q '^workload'"
# The cycles section: every protocol with an encoder whose descriptor names its port width key (a
# per-cycle sample protocol: .cycle_port_width_key of reference/P/P_protocol.c), at 4, 8 and 16 bits,
# L1 and L3, millions of cycles (the sample file's records) per second; an adapter that does not list
# the protocol (bad_adapter.c, kind wrong: ETE at L1 only) has "no P decoder" in its column. No speed is
# checked, only that the figures are there and above 0.
cyc=$(for p in $measured; do grep -q '^[[:space:]]*[.]cycle_port_width_key = "' reference/$p/${p}_protocol.c && printf '%s ' "$p"; done)
cyc=${cyc% }
check "a protocol with an encoder is a per-cycle sample protocol ($cyc)" test -n "$cyc"
"$T" bench --reference "$R" --opencsd "$B/adapters/bad/libtc_bad_wrong.so" --size 1 --runs 1 --only cycles $only > "$tmp/cyc" 2> "$tmp/cyc.err"
check "bench --only cycles exits 0, nothing on standard error" sh -c "test $? -eq 0 && test ! -s '$tmp/cyc.err'"
check "the cycles header says what a cycle is and that each file is decoded whole" sh -c "grep -q 'the cycles are the records decoded' '$tmp/cyc' && grep -q 'decoded whole again and again' '$tmp/cyc' && grep -Eq '^M cycles/s [(]median [[]min[.][.]max[]][)] +reference +OpenCSD +ratio, run by run' '$tmp/cyc'"
# positive FILE: every figure of the one line of FILE (its label cut off) is above 0.
positive() { sed 's/^.*-bit port *//; s/[][]/ /g; s/[.][.]/ /g' "$1" | awk 'NR == 1 && NF >= 3 { ok = $1 > 0 && $2 > 0 && $3 > 0 } END { exit !(NR == 1 && ok) }'; }
for p in $cyc; do
  for w in 4 8 16; do
    check "$p, $w-bit port: its workload line, a whole number of files of records" grep -Eq "^cycles workload $p, $w-bit port: [0-9]+-byte trace, [1-9][0-9]* cycles, files decoded per run: [1-9][0-9]*\$" "$tmp/cyc"
    for l in 1 3; do
      grep -E "^$p L$l cycles, $w-bit port +$fig +no $p decoder\$" "$tmp/cyc" > "$tmp/cycrow"
      check "$p L$l cycles, $w-bit port: the reference's figure, above 0; the other adapter has no $p decoder" positive "$tmp/cycrow"
    done
  done
done
check "no cycles row of a byte-stream protocol" sh -c "test \$(grep -Ec '^[a-z0-9]+ L[13] cycles, ' '$tmp/cyc') -eq \$((6 * $(echo $cyc | wc -w)))"
first=${cyc%% *}
"$T" bench --reference "$R" --opencsd "$R" --protocol "$first" --size 1 --runs 2 --only cycles > "$tmp/cyc2"
check "$first: the reference as both adapters: both figures above 0 and the run-by-run ratio, every row" sh -c "test \$(grep -Ec '^$first L[13] cycles, (4|8|16)-bit port +$fig +$fig +[0-9]+[.][0-9]{2}x [[][0-9]+[.][0-9]{2}[.][.][0-9]+[.][0-9]{2}[]]\$' '$tmp/cyc2') -eq 6 && ! grep -Eq ' 0[.]0 [[]' '$tmp/cyc2'"
check "bench --only cycles --protocol of a byte-stream protocol: no cycles table" sh -c "out=\$('$T' bench --reference '$R' --only cycles --protocol ptm) && test -z \"\$out\""
# The compression section: every protocol's trace with the steps that bring the instruction count of
# its encoder's L3 truth within 1% of the fewest any has at 100000 steps (the header names that count);
# per protocol: steps, ISA, instructions, trace bytes, bits per instruction (8 * bytes / instructions),
# branches per 1000 instructions, the reference's L3 figure. No speed is checked, only that one is there.
"$T" bench --reference "$R" --size 1 --runs 1 --only compression $only > "$tmp/cmp" 2> "$tmp/cmp.err"
check "bench --only compression exits 0, no workload line of the other sections" sh -c "test $? -eq 0 && ! grep -q '^workload ' '$tmp/cmp' && ! grep -q ' L1 packets ' '$tmp/cmp'"
check "the compression header names the common count, says the programs differ and that branch density is measured, not set" sh -c "grep -Eq 'within 1% of [0-9]+ [(]the fewest any protocol has at\$' '$tmp/cmp' && grep -q 'not the same program' '$tmp/cmp' && grep -q 'measured from its L3 truth, not set' '$tmp/cmp' && grep -Eq '^protocol +steps +isa +instructions +trace bytes +bits/insn +br/kinsn +L3 Minsn/s' '$tmp/cmp'"
target=$(sed -n 's/.*within 1% of \([0-9]*\) .*/\1/p' "$tmp/cmp")
for p in $measured; do
  check "$p: one compression row: steps, ISA, instructions, bytes, bits/insn, br/kinsn, the reference's L3 figure" sh -c "test \$(grep -Ec '^$p compression +[0-9]+ +[a-z0-9+]+ +[0-9]+ +[0-9]+ +[0-9]+[.][0-9]{3} +[0-9]+[.][0-9] +$fig\$' '$tmp/cmp') -eq 1"
  check "$p: its instructions within 1% of the common count, steps 1..100000, bits/insn = 8 * bytes / instructions" sh -c "grep '^$p compression ' '$tmp/cmp' | awk -v t='$target' '{ d = \$5 - t; if (d < 0) d = -d; b = 8 * \$6 / \$5 - \$7; if (b < 0) b = -b; exit !(t > 0 && d * 100 <= t && \$3 >= 1 && \$3 <= 100000 && b < 0.0006) }'"
done
check "the fewest instructions at 100000 steps: a protocol whose row has 100000 steps" grep -Eq '^[a-z0-9]+ compression +100000 ' "$tmp/cmp"
check "bench --only compression --protocol ptm: ptm's row alone, its own count the common one" sh -c "out=\$('$T' bench --reference '$R' --size 1 --runs 1 --only compression --protocol ptm) && test \$(echo \"\$out\" | grep -c ' compression ') -eq 1 && echo \"\$out\" | grep -Eq '^ptm compression +100000 '"
check "a --reference that lists ETE at L1 only (bad_adapter.c, kind crash): the compression row has the trace's figures and 'not supported' for L3, exit 0" sh -c "'$T' bench --reference '$B/adapters/bad/libtc_bad_crash.so' --protocol ete --size 1 --runs 1 --only compression > '$tmp/o' 2> '$tmp/e' && grep -Eq '^ete compression +100000 a64 +[0-9]+ +[0-9]+ +[0-9]+[.][0-9]{3} +[0-9]+[.][0-9] +ete not supported\$' '$tmp/o'"
# bench's fuzz section with stand-in harnesses (a script printing libFuzzer's final statistic): the
# ASan figure as printed; the no-sanitizer figure is the sum of its two processes, median of --runs.
mkdir -p "$tmp/fz"; for p in $protocols; do printf '#!/bin/sh\necho "stat::average_exec_per_sec:     1234"\n' > "$tmp/fz/${p}_parse"; chmod +x "$tmp/fz/${p}_parse"; done
check "bench --only fuzz: each protocol's one-core figure, and two processes summed for the no-sanitizer build" sh -c "out=\$('$T' bench --reference '$R' --only fuzz --runs 2 --fuzz-dir '$tmp/fz' --fuzz-dir-fast '$tmp/fz') && for p in $protocols; do echo \"\$out\" | grep -Eq \"^\$p parse fuzz harness +1234 execs/s [(]libFuzzer, ASan\" && echo \"\$out\" | grep -Eq \"^\$p parse fuzz harness, no sanitizers +2468 execs/s [[]2468[.][.]2468[]] [(]libFuzzer, 2 processes, -max_len=128, fresh, 10 s; 2 runs[)]\" || exit 1; done"
check "bench --only fuzz without the harnesses says how to build each" sh -c "out=\$('$T' bench --reference '$R' --only fuzz --fuzz-dir '$tmp/none' --fuzz-dir-fast '$tmp/none') && echo \"\$out\" | grep -q 'not built (make fuzz-build-libfuzzer; needs clang)' && echo \"\$out\" | grep -q 'not built (make fuzz-build-libfuzzer FUZZ_LF_SAN=; needs clang)'"
tap_done
