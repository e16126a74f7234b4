# The certify runner: the reference adapter scores 100%; misbehaving adapters are classified, never fatal.
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters"
n=0; fail=0
check() { # check DESCRIPTION COMMAND...
  n=$((n+1)); d="$1"; shift
  if "$@" >/dev/null 2>&1; then echo "ok $n - $d"; else echo "not ok $n - $d"; fail=1; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
# The runner's summary line: "certify: NAME: P pass, F fail, C crash, H hang, X flood, E adapter-error, U unsupported; …"
check "reference adapter: every vector passes, certificate written" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --report '$tmp/ref' && grep -q 'Score: \*\*100.00%' '$tmp/ref/certificate.md' && grep -q '\"score\": 1.0000' '$tmp/ref/certificate.json'"
check "reference adapter: TAP stream is accepted by prove" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --tap > '$tmp/ref.tap' && prove --exec cat '$tmp/ref.tap'"
check "crashing adapter: every supported run is a crash, the run goes on" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_crash.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 0 pass, 0 fail, 14 crash'"
check "aborting adapter: crash" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_abort.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 14 crash'"
check "hanging adapter: hang within the time limit" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_hang.so' --vectors vectors/ete/spec/k10-06-program-trace.tcv --timeout 1 2>&1 | grep -q ' 1 hang'"
check "flooding adapter: flood at the output limit" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_flood.so' --vectors vectors/ete/spec/k10-06-program-trace.tcv --output 1 2>&1 | grep -q ' 1 flood'"
check "open failure: adapter-error with its message in the TAP" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_openfail.so' --vectors vectors/ete/spec --tap 2>/dev/null | grep -q 'refuses every vector'"
check "feed failure: adapter-error" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_feedfail.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 14 adapter-error'"
check "exit without finishing: adapter-error" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_nofinish.so' --vectors vectors/ete/spec 2>&1 | grep -q ' 14 adapter-error'"
check "wrong output: fail, with the first divergence in the TAP" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --tap 2>/dev/null | grep -q \"expected: '@12 01 trace-info\""
check "L1-only adapter: L3 vectors are unsupported, not failures" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec --tap 2>/dev/null | grep -q 'SKIP unsupported'"
check "wrong ABI version: refused with exit 2" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_abi.so' 2>&1 | grep -q 'ABI version 2'; '$T' certify --adapter '$B/bad/libtc_bad_abi.so' 2>/dev/null; test \$? -eq 2"
check "missing entry point: refused with exit 2" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_nosym.so' 2>&1 | grep -q 'no symbol tracecert_adapter_v1'"
check "missing adapter file: named" sh -c "'$T' certify --adapter /nonexistent.so 2>&1 | grep -q \"cannot load adapter '/nonexistent.so'\""
check "no --adapter: usage error" sh -c "'$T' certify 2>&1 | grep -q 'adapter PATH.so is required'; '$T' certify 2>/dev/null; test \$? -eq 2"
check "--tags selects vectors" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --tags K10-18 2>&1 | grep -q ' 2 pass'"
check "--level 3 runs only L3" sh -c "'$T' certify --adapter '$B/libtc_reference.so' --level 3 --tap 2>/dev/null | grep -q '^ok 1 - L3'"
check "a failing run exits 1" sh -c "'$T' certify --adapter '$B/bad/libtc_bad_wrong.so' --vectors vectors/ete/spec 2>/dev/null; test \$? -eq 1"
echo "1..$n"
exit $fail
