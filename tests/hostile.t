# Hostile adapters (conformance/test/bad_adapter.c): the runner survives each, and the certificate is complete and true, or absent with a clear error.
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters/bad"
REF="${TC_BUILD:-build}/adapters/libtc_reference.so"
V=vectors/ete/spec
ONE=$V/k10-06-program-trace.tcv
. tests/lib/tap.sh
# The adapters leave what they achieved in $M, a folder anyone may write to (run as root, certify runs
# each adapter as nobody): so a marker that is missing means the adapter could not, not that it lacked
# the permission.
chmod 711 "$tmp"; M="$tmp/m"; mkdir -m 1777 "$M"
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
TC_BAD_MARKER="$M/marker" run daemon --adapter "$B/libtc_bad_daemon.so" --vectors $ONE
sleep 1.5
check "fork and daemonise: the runner ends, the daemon is killed with the run (no marker a second later)" sh -c "test $(rc daemon) -eq 1 && grep -q ' 0 pass, 1 fail,' '$tmp/daemon.err' && test ! -e '$M/marker'"

# What the adapter prints is captured and bounded, never in the TAP stream or the runner's messages.
run stdout --adapter "$B/libtc_bad_stdout.so" --vectors $ONE
check "writes to stdout and stderr: not in the TAP stream nor on stderr; the run is judged on its items" sh -c "test $(rc stdout) -eq 1 && ! grep -q FORGED '$tmp/stdout.tap' '$tmp/stdout.err' && grep -q ' 0 pass, 1 fail,' '$tmp/stdout.err' && { prove --exec cat '$tmp/stdout.tap' > /dev/null 2>&1; test \$? -eq 1; }"
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

# A memory hog is stopped at --memory: in a plain build by the address-space limit of each process
# (RLIMIT_AS: malloc fails, the hog aborts, and the message says the run's largest process came near the
# limit); in an ASan build (no RLIMIT_AS) by the resident size of the run's processes, summed.
case "${TC_BUILD:-build}" in
*asan*) HOGMSG="message: 'resident memory of the run''s [0-9]* processes, [0-9]* MiB summed, over --memory 200 MiB (killed)'" ;;
*) HOGMSG="message: 'child killed by signal 6 (Aborted); its largest process reached 1[0-9][0-9] MiB resident, near --memory 200 MiB, each process''s address-space limit (RLIMIT_AS: an allocation past it fails)'" ;;
esac
run hog --adapter "$B/libtc_bad_hog.so" --vectors $ONE --memory 200
check "memory hog: a crash at the memory limit, the message naming the limit that fired, the runner unharmed" sh -c "test $(rc hog) -eq 1 && grep -q ' 0 pass, 0 fail, 1 crash,' '$tmp/hog.err' && grep -q \"$HOGMSG\" '$tmp/hog.tap' && $J '$tmp/hog/certificate.json' 2"
# The limit is the build's, not the environment's: ASAN_OPTIONS (hard_rss_limit_mb off, malloc
# allowed to fail) changes nothing, in a plain build as in an ASan one.
ASAN_OPTIONS=hard_rss_limit_mb=0:allocator_may_return_null=1 run hogasan --adapter "$B/libtc_bad_hog.so" --vectors $ONE --memory 200
check "memory hog with ASAN_OPTIONS set: the same limit fires, the same message" sh -c "grep -q ' 0 pass, 0 fail, 1 crash,' '$tmp/hogasan.err' && grep -q \"$HOGMSG\" '$tmp/hogasan.tap'"
# The limit holds for the run's processes together: four children of 64 MiB each stay under the
# address-space limit one by one, not the resident size of all of them, summed (polled every 20 ms).
run forkhog --adapter "$B/libtc_bad_forkhog.so" --vectors $ONE --memory 100
check "four children of 64 MiB each under --memory 100: a crash at the summed resident size, said" sh -c "test $(rc forkhog) -eq 1 && grep -q ' 0 pass, 0 fail, 1 crash,' '$tmp/forkhog.err' && grep -q \"message: 'resident memory of the run''s [0-9]* processes, [0-9]* MiB summed, over --memory 100 MiB (killed)'\" '$tmp/forkhog.tap'"
# ---- The walls (conformance/isolate.c) -----------------------------------------------------------
# iso DIR KEY: the certificate's count of runs behind a wall (isolation.KEY; runs: all that loaded it).
iso() { perl -MJSON::PP -e 'local $/; open(my $f, "<", $ARGV[0]) or die; print decode_json(<$f>)->{isolation}{$ARGV[1]}' "$1/certificate.json" "$2"; }
# What this system permits, from the reference's certificate: each test below needs its wall.
run walls --adapter "$REF" --vectors $ONE
all() { r=$(iso "$tmp/walls" runs 2> /dev/null); test -n "$r" && test "$r" -gt 0 && test "$(iso "$tmp/walls" "$1")" = "$r"; }
all unprivileged_uid && UID_WALL=1 || UID_WALL=
all pid_namespace && PID_WALL=1 || PID_WALL=
all inputs_hidden && HIDDEN=1 || HIDDEN=
check "the certificate says which walls held for every run (runs, unprivileged_uid, pid_namespace, inputs_hidden)" sh -c "test '$(iso "$tmp/walls" runs)' = 2 && grep -q 'certify: isolation: of the 2 runs that loaded the adapter, ' '$tmp/walls.err' && grep -q '^Isolation: of the 2 runs' '$tmp/walls/certificate.md'"
if [ "$(id -u)" = 0 ]; then
  check "run as root: every run as nobody (65534), in a PID namespace of its own, the vectors and the report hidden" test -n "$UID_WALL" -a -n "$PID_WALL" -a -n "$HIDDEN"
fi

# (a) An adapter that decodes nothing and copies the expected answers (oracle_adapter.c) from the
# memory it runs in (the runner's item context) and from the vector files (uncovering their folder
# first if it can). Its process never held them, the folders are hidden, and text it writes to the
# frames descriptor is no item: 0 passes.
TC_BAD_VECTORS="$PWD/$V" TC_BAD_MARKER_DIR="$M" run oracle --adapter "$B/libtc_oracle.so" --vectors $V
if [ -n "$HIDDEN" ]; then
  check "an adapter that copies the answers from its memory or the vector files: it finds none, 0 passes, the certificate complete" sh -c "test $(rc oracle) -eq 1 && grep -q ' 0 pass, 14 fail, 0 crash,' '$tmp/oracle.err' && test -e '$M/ran' && test ! -e '$M/found' && $J '$tmp/oracle/certificate.json' 28"
else
  check "an adapter that copies the answers from the vector files (not hidden here): its text is no item, every run malformed" sh -c "test $(rc oracle) -eq 1 && grep -q ' 0 pass, 0 fail, .* 14 malformed' '$tmp/oracle.err' && $J '$tmp/oracle/certificate.json' 28"
fi
rm -f "$M"/*; cp -r $V "$tmp/copy"
TC_BAD_VECTORS="$tmp/copy" TC_BAD_MARKER_DIR="$M" run oraclecopy --adapter "$B/libtc_oracle.so" --vectors $V
check "... the answers read from a copy nobody certifies (not hidden), written as text frames: every run malformed, 0 passes" sh -c "test -e '$M/found' && grep -q ' 0 pass, 0 fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, 14 unsupported, 14 malformed' '$tmp/oraclecopy.err' && grep -q 'an item frame of [0-9]* bytes' '$tmp/oraclecopy.tap'"

# (b) An adapter that rewrites every vector file to expect what it reports (a copy anyone may write).
# The folder is hidden from it; reached through a second path (a bind mount), the files change, but
# every run uses what the plan read before the adapter ran.
rm -f "$M"/*; cp -r $V "$tmp/rw"; chmod 777 "$tmp/rw"; chmod 666 "$tmp/rw"/*
TC_BAD_VECTORS="$tmp/rw" TC_BAD_MARKER_DIR="$M" run rewrite --adapter "$B/libtc_bad_rewrite.so" --vectors "$tmp/rw" --jobs 1
if [ -n "$HIDDEN" ]; then
  check "an adapter that rewrites the vector files: hidden from it, they are unchanged; 0 passes" sh -c "test $(rc rewrite) -eq 1 && grep -q ' 0 pass, 14 fail,' '$tmp/rewrite.err' && diff -r $V '$tmp/rw' && test ! -e '$M/rewrote' && $J '$tmp/rewrite/certificate.json' 28"
fi
mkdir "$tmp/rw2"
if mount --bind "$tmp/rw" "$tmp/rw2" 2>/dev/null; then
  TC_BAD_VECTORS="$tmp/rw2" TC_BAD_MARKER_DIR="$M" run rewrite2 --adapter "$B/libtc_bad_rewrite.so" --vectors "$tmp/rw" --jobs 1
  umount "$tmp/rw2"
  check "... rewritten through a second path: the files change, each run uses what the plan read: 0 passes" sh -c "test -s '$M/rewrote' && ! diff -r $V '$tmp/rw' > /dev/null && grep -q ' 0 pass, 14 fail,' '$tmp/rewrite2.err' && $J '$tmp/rewrite2/certificate.json' 28"
else
  check "... rewritten through a second path # SKIP mount --bind is not permitted here" true
fi

# (c) An adapter that sends SIGKILL to its parent and every tracecert process above it: behind the
# walls it can see none of them (its own PID namespace) and signal none (nobody; root's processes).
if [ -n "$UID_WALL" ] || [ -n "$PID_WALL" ]; then
  rm -f "$M"/*
  TC_BAD_MARKER_DIR="$M" run killer --adapter "$B/libtc_bad_killer.so" --vectors $V
  check "an adapter that kills its parent and the runner: none is hit, the run ends (exit 1), the certificate complete" sh -c "test $(rc killer) -eq 1 && test ! -e '$M/killed' && grep -q ' 0 pass, 14 fail, 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error' '$tmp/killer.err' && $J '$tmp/killer/certificate.json' 28"
fi
# RLIMIT_NPROC binds (root is exempt from it: certify runs the adapter as nobody).
rm -f "$M"/*
TC_BAD_MARKER_DIR="$M" run forkbomb --adapter "$B/libtc_bad_forkbomb.so" --vectors $ONE
check "an adapter that forks 300 children: at most 256 (RLIMIT_NPROC), the run ends" sh -c "test $(rc forkbomb) -eq 1 && test \$(cat '$M/forks') -le 256 && grep -q ' 0 pass, 1 fail,' '$tmp/forkbomb.err'"
# As a user other than root, a user namespace gives the same walls but the uid.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && setpriv --reuid 65534 --regid 65534 --clear-groups unshare -U -m -p -f true 2> /dev/null; then
  mkdir -m 1777 "$tmp/nr"
  setpriv --reuid 65534 --regid 65534 --clear-groups "$T" certify --adapter "$REF" --vectors $V --report "$tmp/nr/rep" > /dev/null 2> "$tmp/nr.err"
  check "certify run by a user other than root: each run in a PID namespace of its own with the vectors hidden (a user namespace), every vector passes" sh -c "grep -q ' 28 pass, 0 fail,' '$tmp/nr.err' && grep -q 'isolation: of the 28 runs that loaded the adapter, 0 ran as uid 65534 (nobody) instead of the runner.s, 28 in a PID namespace of their own, 28 with the vectors and the report folder hidden (the runner is not root' '$tmp/nr.err'"
else
  check "certify run by a user other than root # SKIP needs root, setpriv and user namespaces" true
fi

# A runner killed outright (SIGKILL: no handler runs) leaves no certificate claiming to be its result:
# the pair an earlier run left is moved aside before the run, and the next run removes what was moved.
"$T" certify --adapter "$REF" --vectors $ONE --report "$tmp/killed" 2> /dev/null
"$T" certify --adapter "$B/libtc_bad_hang.so" --vectors $V --timeout 20 --report "$tmp/killed" > /dev/null 2>&1 & kpid=$!
i=0; while [ $i -lt 100 ] && [ -e "$tmp/killed/certificate.json" ]; do i=$((i + 1)); sleep 0.05; done
sleep 0.3; kill -9 $kpid; wait $kpid; krc=$?
check "a runner killed by SIGKILL mid-run (status 137) leaves no certificate in its report folder" sh -c "test $krc -eq 137 && test ! -e '$tmp/killed/certificate.json' && test ! -e '$tmp/killed/certificate.md'"
"$T" certify --adapter "$REF" --vectors $ONE --report "$tmp/killed" 2> /dev/null
check "... the next run writes its pair and removes what the killed one moved aside" sh -c "$J '$tmp/killed/certificate.json' 2 && test -z \"\$(ls -A '$tmp/killed' | grep '^[.]')\""
tap_done
