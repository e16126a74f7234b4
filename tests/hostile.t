# SPDX-License-Identifier: BSD-3-Clause
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
# Where the walls this system permits leave an adapter able to signal the runner or write the report
# folder (a user other than root without user namespaces), certify refuses to load it: checked in (d).
# There the checks of the runner itself (loading, limits, frames, output) run with --no-isolation, and
# those that need a wall say why they are skipped.
timeout 60 "$T" certify --adapter "$REF" --vectors $ONE > /dev/null 2> "$tmp/setting.err"
if [ $? -eq 2 ] && grep -q ': not isolated: ' "$tmp/setting.err"; then
  NOISO=--no-isolation
  UNWALLED=$(sed -n 's/.*: not isolated: \(.*\); from there a hostile adapter.*/\1/p' "$tmp/setting.err" | head -n 1)
else
  NOISO=
fi
# certify under a guard: a runner that hangs fails the check instead of the test run.
run() { name=$1; shift; timeout 60 "$T" certify $NOISO "$@" --report "$tmp/$name" --tap > "$tmp/$name.tap" 2> "$tmp/$name.err"; echo $? > "$tmp/$name.rc"; }
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
all guarded && GUARDED=1 || GUARDED=
check "the certificate says which walls held for every run (runs, unprivileged_uid, pid_namespace, inputs_hidden, guarded)" sh -c "test '$(iso "$tmp/walls" runs)' = 2 && grep -q 'certify: isolation: of the 2 runs that loaded the adapter, ' '$tmp/walls.err' && grep -q '^Isolation: of the 2 runs' '$tmp/walls/certificate.md'"
if [ -z "$NOISO" ]; then
  check "walls that keep the adapter from the runner and the report folder: every run guarded, the certificate isolated" sh -c "test -n '$GUARDED' && grep -q '^  \"isolated\": true,\$' '$tmp/walls/certificate.json' && ! grep -q 'not isolated' '$tmp/walls.err' '$tmp/walls.tap' '$tmp/walls/certificate.md'"
else
  check "walls that keep the adapter from the runner # SKIP not here: $UNWALLED" true
fi
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
else
  check "an adapter that rewrites the vector files # SKIP the vectors are not hidden here: $(iso "$tmp/walls" missing)" true
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
else
  check "an adapter that kills its parent and the runner # SKIP it can here ($UNWALLED): certify refuses to load it without --no-isolation, checked in (d)" true
fi
# RLIMIT_NPROC binds (root is exempt from it: certify runs the adapter as nobody).
rm -f "$M"/*
TC_BAD_MARKER_DIR="$M" run forkbomb --adapter "$B/libtc_bad_forkbomb.so" --vectors $ONE
check "an adapter that forks 300 children: at most 256 (RLIMIT_NPROC), the run ends" sh -c "test $(rc forkbomb) -eq 1 && test \$(cat '$M/forks') -le 256 && grep -q ' 0 pass, 1 fail,' '$tmp/forkbomb.err'"
# As a user other than root, a user namespace gives the same walls but the uid.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && setpriv --reuid 65534 --regid 65534 --clear-groups unshare -U -m -p -f true 2> /dev/null; then
  mkdir -m 1777 "$tmp/nr"
  setpriv --reuid 65534 --regid 65534 --clear-groups "$T" certify --adapter "$REF" --vectors $V --report "$tmp/nr/rep" > /dev/null 2> "$tmp/nr.err"
  check "certify run by a user other than root: each run in a PID namespace of its own with the vectors hidden (a user namespace), every vector passes" sh -c "grep -q ' 28 pass, 0 fail,' '$tmp/nr.err' && grep -q 'isolation: of the 28 runs that loaded the adapter, 0 ran as uid 65534 (nobody) instead of the runner.s, 28 in a PID namespace of their own, 28 with the vectors and the report folder hidden, 28 where it could neither signal the runner nor write the report folder (the runner is not root' '$tmp/nr.err'"
else
  check "certify run by a user other than root # SKIP needs root, setpriv and user namespaces" true
fi

# (d) Where the walls would leave the adapter able to forge the outcome, certify refuses to load it
# (exit 2, saying why and what to do) and leaves no certificate, nor the one an earlier run left.
# libtc_bad_forgecert.so, as soon as it is loaded, writes a pair scoring 100% into the report folder,
# makes it read-only and kills its tracecert ancestors; it must never get that far.
# refused RC ERRFILE WHY DIR: exit 2, the refusal and what to do said, the earlier pair's removal said,
# nothing of the adapter's done, no certificate in DIR.
refused() {
  test "$1" -eq 2 && grep -q "^tracecert certify: refused to load adapter '.*libtc_bad_forgecert.so': not isolated: $3" "$2" &&
    grep -q 'or give --no-isolation to run it anyway' "$2" && grep -q "removed $4/certificate.json, left by an earlier run" "$2" &&
    test ! -e "$M/forged" && test ! -e "$M/killed" && test ! -e "$4/certificate.json" && test ! -e "$4/certificate.md"
}
# No user namespace: this system's own setting, or one that root makes for a command (tests/lib/nouserns.c:
# a user namespace of its own whose user.max_user_namespaces is 0, certify run there as nobody).
NU="${TC_BUILD:-build}/test/nouserns"
if [ -n "$NOISO" ]; then
  nouserns() { "$@"; }; NUHOW="this system"
elif [ "$(id -u)" = 0 ] && "$NU" 65534 65534 sh -c '! unshare -U true' 2> /dev/null; then
  nouserns() { "$NU" 65534 65534 "$@"; }; NUHOW="a user namespace without user namespaces (nouserns), as nobody"
else
  NUHOW=
fi
if [ -n "$NUHOW" ]; then
  mkdir -m 1777 "$tmp/nu"; rm -f "$M"/*
  # --no-isolation: the run goes on, and every output says it was not isolated (this pair is also the
  # earlier run's certificate that the refused run below must not leave behind).
  nouserns "$T" certify --adapter "$REF" --vectors $ONE --no-isolation --tap --report "$tmp/nu/rep" > "$tmp/nu.tap" 2> "$tmp/nu.err"; nu_rc=$?
  check "no user namespaces ($NUHOW), --no-isolation: the run goes on; certificate, TAP and summary say it was not isolated" sh -c "test $nu_rc -eq 0 && grep -q '^  \"isolated\": false,\$' '$tmp/nu/rep/certificate.json' && grep -q '\"guarded\": 0, \"missing\": \"the adapter.s process runs as the runner.s user (uid [0-9]*) in the runner.s PID namespace, where it can signal (kill) the runner' '$tmp/nu/rep/certificate.json' && grep -q '^\*\*Not isolated\*\*: --no-isolation, and 2 of the 2 runs that loaded the adapter (and the process that read its declaration) were not walled off: the adapter.s process runs as the runner.s user' '$tmp/nu/rep/certificate.md' && sed -n 3p '$tmp/nu.tap' | grep -q '^# not isolated: --no-isolation, and 2 of the 2 runs' && grep -q '^certify: not isolated: ' '$tmp/nu.err' && prove --exec cat '$tmp/nu.tap' > /dev/null 2>&1"
  TC_BAD_REPORT="$tmp/nu/rep" TC_BAD_MARKER_DIR="$M" nouserns "$T" certify --adapter "$B/libtc_bad_forgecert.so" --vectors $V --report "$tmp/nu/rep" > "$tmp/nu2.out" 2> "$tmp/nu2.err"; nu2_rc=$?
  check "no user namespaces ($NUHOW): certify refuses the adapter (exit 2: it could signal the runner), which never runs; no certificate, the earlier one removed" refused $nu2_rc "$tmp/nu2.err" "the adapter.s process runs as the runner.s user (uid [0-9]*) in the runner.s PID namespace, where it can signal (kill) the runner" "$tmp/nu/rep"
else
  check "no user namespaces: certify refuses # SKIP needs a system without them, or root and a user namespace to make such a setting in" true
  check "no user namespaces: --no-isolation # SKIP needs a system without them, or root and a user namespace to make such a setting in" true
fi
# A report folder that holds the adapter cannot be hidden from it: as a user other than root (a user
# namespace), the adapter would run as that user and could write the folder: refused. As root it runs
# as nobody, who cannot write root's folder: the run goes on.
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && setpriv --reuid 65534 --regid 65534 --clear-groups unshare -U -m -p -f true 2> /dev/null; then
  NB="setpriv --reuid 65534 --regid 65534 --clear-groups"
  rm -f "$M"/*; $NB mkdir "$tmp/nr/own"
  $NB "$T" certify --adapter "$REF" --vectors $ONE --report "$tmp/nr/own" 2> /dev/null
  $NB cp "$B/libtc_bad_forgecert.so" "$tmp/nr/own/"
  TC_BAD_REPORT="$tmp/nr/own" TC_BAD_MARKER_DIR="$M" $NB "$T" certify --adapter "$tmp/nr/own/libtc_bad_forgecert.so" --vectors $V --report "$tmp/nr/own" > /dev/null 2> "$tmp/own.err"; own_rc=$?
  check "a report folder that holds the adapter, run by a user other than root: refused (it could write the folder), no certificate, the earlier one removed" refused $own_rc "$tmp/own.err" "the adapter.s process can write the report folder '$tmp/nr/own' (not hidden from it).*; '$tmp/nr/own' is not hidden: it holds the adapter" "$tmp/nr/own"
  # A folder above the report folder moved aside while the adapter runs, and a forged, read-only pair
  # built at the report folder's path: the runner writes into no folder but the one it prepared.
  rm -f "$M"/*; $NB mkdir -p "$tmp/nr/up/rep"
  TC_BAD_REPORT="$tmp/nr/up/rep" TC_BAD_MARKER_DIR="$M" $NB "$T" certify --adapter "$B/libtc_bad_swap.so" --vectors $ONE --report "$tmp/nr/up/rep" > /dev/null 2> "$tmp/swap.err"; swap_rc=$?
  check "the report folder's parent moved and a forged pair put at its path: exit 2, said, the forged pair removed" sh -c "test $swap_rc -eq 2 && test -s '$M/swapped' && grep -q \"'$tmp/nr/up/rep' is no longer the report folder this run prepared\" '$tmp/swap.err' && grep -q 'removed $tmp/nr/up/rep/certificate.json, which is not this run.s' '$tmp/swap.err' && test ! -e '$tmp/nr/up/rep/certificate.json' && test ! -e '$tmp/nr/up/rep/certificate.md'"
else
  check "a report folder that holds the adapter, run by a user other than root # SKIP needs root, setpriv and user namespaces" true
  check "the report folder's parent moved while the adapter runs # SKIP needs root, setpriv and user namespaces" true
fi
if [ "$(id -u)" = 0 ] && [ -n "$UID_WALL" ]; then
  # An adapter nobody cannot read (mode 0600 in a folder of mode 0700): root hands nobody a copy.
  mkdir -m 700 "$tmp/closed"; cp "$REF" "$tmp/closed/"; chmod 600 "$tmp/closed/libtc_reference.so"
  run closed --adapter "$tmp/closed/libtc_reference.so" --vectors $ONE
  check "an adapter only root can read, run as root: loaded from a copy, every run as nobody and guarded" sh -c "test $(rc closed) -eq 0 && test '$(iso "$tmp/closed" unprivileged_uid)' = 2 && test '$(iso "$tmp/closed" guarded)' = 2"
  rm -f "$M"/*; mkdir "$tmp/rootown"; cp "$B/libtc_bad_forgecert.so" "$tmp/rootown/"; chmod 755 "$tmp/rootown"
  TC_BAD_REPORT="$tmp/rootown" TC_BAD_MARKER_DIR="$M" "$T" certify --adapter "$tmp/rootown/libtc_bad_forgecert.so" --vectors $V --report "$tmp/rootown" > /dev/null 2> "$tmp/rootown.err"; ro_rc=$?
  check "a report folder that holds the adapter, run as root: nobody cannot write it; the run goes on, nothing forged" sh -c "test $ro_rc -eq 1 && grep -q ' 0 pass, 14 fail,' '$tmp/rootown.err' && test ! -e '$M/forged' && test ! -e '$M/killed' && ! grep -q FORGED '$tmp/rootown/certificate.md' && $J '$tmp/rootown/certificate.json' 28"
fi

# A runner killed outright (SIGKILL: no handler runs) leaves no certificate claiming to be its result:
# the pair an earlier run left is moved aside before the run, and the next run removes what was moved.
"$T" certify $NOISO --adapter "$REF" --vectors $ONE --report "$tmp/killed" 2> /dev/null
"$T" certify $NOISO --adapter "$B/libtc_bad_hang.so" --vectors $V --timeout 20 --report "$tmp/killed" > /dev/null 2>&1 & kpid=$!
i=0; while [ $i -lt 100 ] && [ -e "$tmp/killed/certificate.json" ]; do i=$((i + 1)); sleep 0.05; done
sleep 0.3; kill -9 $kpid; wait $kpid; krc=$?
check "a runner killed by SIGKILL mid-run (status 137) leaves no certificate in its report folder" sh -c "test $krc -eq 137 && test ! -e '$tmp/killed/certificate.json' && test ! -e '$tmp/killed/certificate.md'"
"$T" certify $NOISO --adapter "$REF" --vectors $ONE --report "$tmp/killed" 2> /dev/null
check "... the next run writes its pair and removes what the killed one moved aside" sh -c "$J '$tmp/killed/certificate.json' 2 && test -z \"\$(ls -A '$tmp/killed' | grep '^[.]')\""
tap_done
