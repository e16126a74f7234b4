# Hostile adapters (conformance/test/bad_adapter.c): the runner survives each, and the certificate is complete and true, or absent with a clear error.
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters/bad"
V=vectors/ete/spec
ONE=$V/k10-06-program-trace.tcv
. tests/lib/tap.sh
# A certificate is complete when its JSON parses (valid UTF-8 included) and its totals add up to the runs.
cat > "$tmp/json_ok.pl" <<'PERL'
use JSON::PP; local $/; open(my $f, '<', $ARGV[0]) or die "$ARGV[0]: $!\n";
my $j = JSON::PP->new->utf8->decode(<$f>); my $n = 0; $n += $_ for values %{$j->{totals}};
exit($n == $ARGV[1] ? 0 : 1);
PERL
J="perl $tmp/json_ok.pl"
# certify under a guard: a runner that hangs fails the check instead of the test run.
run() { name=$1; shift; timeout 60 "$T" certify "$@" --report "$tmp/$name" --tap > "$tmp/$name.tap" 2> "$tmp/$name.err"; echo $? > "$tmp/$name.rc"; }
rc() { cat "$tmp/$1.rc"; }

# Loading happens in a child: a constructor that crashes or an entry point that exits cannot end the runner.
run ctor --adapter "$B/libtc_bad_ctor.so" --vectors $V
check "crash in the constructor: exit 2, the crash named, no certificate" sh -c "test $(rc ctor) -eq 2 && grep -q \"adapter '.*libtc_bad_ctor.so' crashed while loading (signal \" '$tmp/ctor.err' && test ! -e '$tmp/ctor/certificate.json' && test ! -s '$tmp/ctor.tap'"
run entryexit --adapter "$B/libtc_bad_entryexit.so" --vectors $V
check "exit(0) in the entry point: exit 2, said, no certificate" sh -c "test $(rc entryexit) -eq 2 && grep -q 'ended the process loading it (exit status 0) before declaring what it decodes' '$tmp/entryexit.err' && test ! -e '$tmp/entryexit/certificate.md'"

# A child that closes its descriptors and sleeps: the wall-clock deadline ends it.
run closesleep --adapter "$B/libtc_bad_closesleep.so" --vectors $ONE --timeout 1
check "descriptor-closing sleep: a hang at the wall-clock deadline, the certificate complete" sh -c "test $(rc closesleep) -eq 1 && grep -q ' 0 pass, 0 fail, 0 crash, 1 hang,' '$tmp/closesleep.err' && grep -q 'no end within 1 s of wall-clock time' '$tmp/closesleep.tap' && $J '$tmp/closesleep/certificate.json' 2"

# A daemonised grandchild (its own session) is killed with the run: its marker never appears.
rm -f "$tmp/marker"
TC_BAD_MARKER="$tmp/marker" run daemon --adapter "$B/libtc_bad_daemon.so" --vectors $ONE
sleep 1.5
check "fork and daemonise: the runner ends, the daemon is killed with the run (no marker a second later)" sh -c "test $(rc daemon) -eq 1 && grep -q ' 0 pass, 1 fail,' '$tmp/daemon.err' && test ! -e '$tmp/marker'"

# What the adapter prints is captured and bounded, never in the TAP stream or the runner's messages.
run stdout --adapter "$B/libtc_bad_stdout.so" --vectors $ONE
check "writes to stdout and stderr: not in the TAP stream nor on stderr; the run is judged on its items" sh -c "test $(rc stdout) -eq 1 && ! grep -q FORGED '$tmp/stdout.tap' '$tmp/stdout.err' && grep -q ' 0 pass, 1 fail,' '$tmp/stdout.err' && prove --exec cat '$tmp/stdout.tap' > /dev/null 2>&1; test \$? -eq 1"
run stdoutflood --adapter "$B/libtc_bad_stdout.so" --vectors $ONE --output 1
check "more output than --output allows: flood, the bytes counted, none of them in the TAP stream" sh -c "grep -q ' 1 flood,' '$tmp/stdoutflood.err' && grep -q 'output over the size limit' '$tmp/stdoutflood.tap' && grep -q 'output_bytes: [0-9]' '$tmp/stdoutflood.tap' && ! grep -q FORGED '$tmp/stdoutflood.tap' '$tmp/stdoutflood.err' '$tmp/stdoutflood/certificate.md'"

# Forged frames on every descriptor: the run is malformed, nothing of it trusted; no other run affected.
run forge --adapter "$B/libtc_bad_forge.so" --vectors $V
check "an adapter that forges results: 0 passes, score 0.00%, exit 1, every run malformed" sh -c "test $(rc forge) -eq 1 && grep -q ' 0 pass, 0 fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, 14 unsupported, 14 malformed; score 0.00%' '$tmp/forge.err' && ! grep -q '^ok [0-9]* - L1' '$tmp/forge.tap' && grep -q 'Score: \*\*0.00%' '$tmp/forge/certificate.md' && $J '$tmp/forge/certificate.json' 28"

# Endless callbacks are a flood (items counted, warnings included), not a hang.
run warnflood --adapter "$B/libtc_bad_warnflood.so" --vectors $ONE --timeout 20
check "endless warning items: flood by item count, long before the deadline" sh -c "grep -q ' 0 hang, 1 flood,' '$tmp/warnflood.err' && grep -q 'more than [0-9]* items' '$tmp/warnflood.tap'"

# Strings without a NUL: copied bounded.
run noterm --adapter "$B/libtc_bad_noterm.so" --vectors $ONE
check "name, version and error text without a NUL: cut at their bounds, the run an adapter-error" sh -c "grep -q ' 1 adapter-error,' '$tmp/noterm.err' && grep -q '\"adapter\": \"unterminated-x*\",' '$tmp/noterm/certificate.json' && test \$(grep -o '\"adapter\": \"[^\"]*\"' '$tmp/noterm/certificate.json' | wc -c) -lt 150 && grep -q \"message: 'open failed: EEEE*'\" '$tmp/noterm.tap' && $J '$tmp/noterm/certificate.json' 2"

# Markdown and JSON take the adapter's strings escaped: no forged heading, valid UTF-8.
run markup --adapter "$B/libtc_bad_markup.so" --vectors $V
check "name and version with Markdown and bad UTF-8: no forged heading or fence, JSON valid" sh -c "! grep -q '^#* *Forged' '$tmp/markup/certificate.md' && ! grep -q '^## Score' '$tmp/markup/certificate.md' && grep -q '^\`\`\`\`\$' '$tmp/markup/certificate.md' && $J '$tmp/markup/certificate.json' 28 && grep -q '\"adapter\": \"bad?# Forged heading' '$tmp/markup/certificate.json'"

# A memory hog is stopped at --memory (RLIMIT_AS; the resident size in an ASan build).
run hog --adapter "$B/libtc_bad_hog.so" --vectors $ONE --memory 200
check "memory hog: a crash at the memory limit, the runner unharmed" sh -c "test $(rc hog) -eq 1 && grep -q ' 0 pass, 0 fail, 1 crash,' '$tmp/hog.err' && $J '$tmp/hog/certificate.json' 2"
# A runner killed outright (SIGKILL: no handler runs) leaves no certificate claiming to be its result:
# the pair an earlier run left is moved aside before the run, and the next run removes what was moved.
"$T" certify --adapter "${TC_BUILD:-build}/adapters/libtc_reference.so" --vectors $ONE --report "$tmp/killed" 2> /dev/null
"$T" certify --adapter "$B/libtc_bad_hang.so" --vectors $V --timeout 20 --report "$tmp/killed" > /dev/null 2>&1 & kpid=$!
i=0; while [ $i -lt 100 ] && [ -e "$tmp/killed/certificate.json" ]; do i=$((i + 1)); sleep 0.05; done
sleep 0.3; kill -9 $kpid; wait $kpid; krc=$?
check "a runner killed by SIGKILL mid-run (status 137) leaves no certificate in its report folder" sh -c "test $krc -eq 137 && test ! -e '$tmp/killed/certificate.json' && test ! -e '$tmp/killed/certificate.md'"
"$T" certify --adapter "${TC_BUILD:-build}/adapters/libtc_reference.so" --vectors $ONE --report "$tmp/killed" 2> /dev/null
check "... the next run writes its pair and removes what the killed one moved aside" sh -c "$J '$tmp/killed/certificate.json' 2 && test -z \"\$(ls -A '$tmp/killed' | grep '^[.]')\""
tap_done
