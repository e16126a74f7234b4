# The fuzz targets' argument checks (fuzz/run.sh check-args, run by `make fuzz` and `make fuzz-afl`
# before anything is built): an unknown harness, a bad TIME or a bad JOBS is refused with a message, exit 2.
. tests/lib/tap.sh
R="sh fuzz/run.sh"
check "every harness is accepted" sh -c "for h in parse decode diff adapter format roundtrip; do $R check-args \$h 60 || exit 1; done"
check "an unknown harness is named with the list" sh -c "$R check-args bogus 60 2>&1 | grep -q \"unknown HARNESS 'bogus' (one of: parse decode diff adapter format roundtrip)\" && { $R check-args bogus 60 2>/dev/null; test \$? -eq 2; }"
check "a TIME that is not a number is refused" sh -c "$R check-args parse abc 2>&1 | grep -q \"TIME must be a whole number of seconds, not 'abc'\" && { $R check-args parse abc 2>/dev/null; test \$? -eq 2; }"
check "TIME 0 is refused" sh -c "$R check-args parse 0 2>&1 | grep -q 'at least 1 second' && { $R check-args parse 0 2>/dev/null; test \$? -eq 2; }"
check "an empty TIME is refused" sh -c "$R check-args parse '' 2>/dev/null; test \$? -eq 2"
check "JOBS 2 is accepted, and no JOBS (one instance)" sh -c "$R check-args parse 60 2 && $R check-args parse 60 ''"
check "a JOBS that is not a number is refused" sh -c "$R check-args parse 60 two 2>&1 | grep -q \"JOBS must be a whole number of instances, at least 1, not 'two'\" && { $R check-args parse 60 two 2>/dev/null; test \$? -eq 2; }"
check "JOBS 0 is refused" sh -c "$R check-args parse 60 0 2>/dev/null; test \$? -eq 2"
check "an unknown run.sh command prints the usage" sh -c "$R frob 2>&1 | grep -q '^usage: run.sh' && { $R frob 2>/dev/null; test \$? -eq 2; }"
tap_done
