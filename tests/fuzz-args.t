# SPDX-License-Identifier: BSD-3-Clause
# The fuzz targets' argument checks (fuzz/run.sh check-args, run by `make fuzz` and `make fuzz-afl`
# before anything is built): an unknown harness, a bad TIME or a bad JOBS is refused with a message, exit 2.
. tests/lib/tap.sh
R="sh fuzz/run.sh"
# The harnesses by fuzz/README.md's rule: those naming no protocol, then for each protocol of PROTOCOLS
# every fuzz/P/NAME.c that defines LLVMFuzzerTestOneInput (P_NAME) and, for a protocol with an encoder
# (encoder/P/*.c) and no fuzz/P/roundtrip.c, the shared P_roundtrip, in name order; then P_stream,
# P_diff, P_l1text and P_asm.
export LC_ALL=C
harnesses="adapter csframe snapini"
shared_rt=
for p in $(sed -n 's/^PROTOCOLS := //p' GNUmakefile); do
  own=
  for f in fuzz/$p/*.c; do grep -q LLVMFuzzerTestOneInput "$f" && { b=${f##*/}; own="$own ${p}_${b%.c}"; }; done
  if case " $(tc_enc_protocols) " in *" $p "*) true ;; *) false ;; esac && [ ! -f fuzz/$p/roundtrip.c ]; then
    own="$own ${p}_roundtrip"
    shared_rt="$shared_rt ${p}_roundtrip"
  fi
  harnesses="$harnesses $(printf '%s\n' $own | sort | tr '\n' ' ')${p}_stream ${p}_diff ${p}_l1text ${p}_asm"
done
check "the rule gives this build's known harnesses" sh -c "for h in ete_decode ete_format ete_parse ete_roundtrip ete_stream ete_diff ete_l1text ptm_decode ptm_parse ptm_roundtrip ptm_stream ptm_diff ptm_l1text etmv3_decode etmv3_parse etmv3_roundtrip etmv3_stream etmv3_diff etmv3_l1text; do case ' $harnesses ' in *\" \$h \"*) ;; *) echo \"missing \$h\"; exit 1 ;; esac; done"
check "the shared round-trip harness is that of PTM, ETMv3, rvtrace, ETMv1 and ETMv2, not ETE's (fuzz/ete/roundtrip.c is its own)" test "$shared_rt" = " ptm_roundtrip etmv3_roundtrip rvtrace_roundtrip etmv1_roundtrip etmv2_roundtrip"
# Which source each round-trip harness compiles, with which protocol and encoder (make -n: nothing built).
rt_compile() { make -n -B --no-print-directory FUZZ_OUT="$tmp/fz" "$tmp/fz/regress-obj/fuzz/harness/$1.o" 2>&1; }
for h in $shared_rt; do
  p=${h%_roundtrip}
  out=$(rt_compile "$h")
  check "$h compiles fuzz/roundtrip.c for $p with tc_encoder_$p" sh -c \
    "printf '%s\n' \"\$1\" | grep -qF -- \"-DTC_FUZZ_PROTOCOL='\\\"$p\\\"' -DTC_FUZZ_ENCODER=tc_encoder_$p\" && printf '%s\n' \"\$1\" | grep -q -- ' -c fuzz/roundtrip.c '" sh "$out"
done
out=$(rt_compile ete_roundtrip)
check "ete_roundtrip compiles fuzz/ete/roundtrip.c, with no encoder named" sh -c \
  "printf '%s\n' \"\$1\" | grep -q -- ' -c fuzz/ete/roundtrip.c ' && ! printf '%s\n' \"\$1\" | grep -q TC_FUZZ_ENCODER" sh "$out"
# P_asm compiles fuzz/asm.c for every protocol, with its encoder when it has one (ENC_PROTOCOLS).
for p in $(sed -n 's/^PROTOCOLS := //p' GNUmakefile); do
  out=$(rt_compile "${p}_asm")
  case " $(tc_enc_protocols) " in
  *" $p "*) check "${p}_asm compiles fuzz/asm.c for $p with tc_encoder_$p" sh -c \
    "printf '%s\n' \"\$1\" | grep -qF -- \"-DTC_FUZZ_PROTOCOL='\\\"$p\\\"' -DTC_FUZZ_ENCODER=tc_encoder_$p\" && printf '%s\n' \"\$1\" | grep -q -- ' -c fuzz/asm.c '" sh "$out" ;;
  *) check "${p}_asm compiles fuzz/asm.c for $p, with no encoder named" sh -c \
    "printf '%s\n' \"\$1\" | grep -q -- ' -c fuzz/asm.c ' && ! printf '%s\n' \"\$1\" | grep -q TC_FUZZ_ENCODER" sh "$out" ;;
  esac
done
check "every harness is accepted" sh -c "for h in $harnesses; do $R check-args \$h 60 || exit 1; done"
check "an unknown harness is named with the list" sh -c "$R check-args bogus 60 2>&1 | grep -qF \"unknown HARNESS 'bogus' (one of: $harnesses)\" && { $R check-args bogus 60 2>/dev/null; test \$? -eq 2; }"
check "the list is fuzz.mk's (make fuzz-harnesses): for each protocol, every fuzz/P/NAME.c defining LLVMFuzzerTestOneInput and the shared P_roundtrip, then P_stream, P_diff, P_l1text and P_asm" sh -c "test \"\$(make -s --no-print-directory fuzz-harnesses)\" = '$harnesses'"
check "dictionaries: fuzz/P/NAME.dict, P_stream and P_diff fall back to fuzz/P/parse.dict, roundtrip none" sh -c "test \"\$($R dict ete_parse) \$($R dict ete_diff) \$($R dict ptm_parse) \$($R dict ptm_decode) \$($R dict ptm_stream) \$($R dict ptm_diff) \$($R dict ete_stream) [\$($R dict ptm_roundtrip)\$($R dict ete_roundtrip)]\" = 'fuzz/ete/parse.dict fuzz/ete/parse.dict fuzz/ptm/parse.dict fuzz/ptm/decode.dict fuzz/ptm/parse.dict fuzz/ptm/parse.dict fuzz/ete/parse.dict []'"
check "the adapter harness's dictionary is every protocol's parse.dict" sh -c "d=\$(FUZZ_OUT='$tmp' $R dict adapter) && test \"\$d\" = '$tmp/adapter.dict' && cat fuzz/*/parse.dict | cmp -s - \"\$d\""
# Smoke seconds: fuzz.mk's own entries (HARNESS:LF:AFL), else the protocol's FUZZ_SMOKE_PROTO seconds
# shared among its other harnesses.
check "smoke seconds: own entries, and a protocol's share for the rest" sh -c "out=\$(FUZZ_HARNESSES='adapter ete_parse ete_diff ptm_stream ptm_parse ptm_diff' FUZZ_SMOKE_TIMES='adapter:15:10 ete_parse:30:15' FUZZ_SMOKE_PROTO=60 $R smoke-times 1) && test \"\$out\" = 'adapter:15 ete_parse:30 ete_diff:60 ptm_stream:20 ptm_parse:20 ptm_diff:20' && test \"\$(FUZZ_HARNESSES='adapter ete_parse' FUZZ_SMOKE_TIMES='adapter:15:10 ete_parse:30:15' $R smoke-times 2)\" = 'adapter:10 ete_parse:15'"
check "a TIME that is not a number is refused" sh -c "$R check-args ete_parse abc 2>&1 | grep -q \"TIME must be a whole number of seconds, not 'abc'\" && { $R check-args ete_parse abc 2>/dev/null; test \$? -eq 2; }"
check "TIME 0 is refused" sh -c "$R check-args ete_parse 0 2>&1 | grep -q 'at least 1 second' && { $R check-args ete_parse 0 2>/dev/null; test \$? -eq 2; }"
check "an empty TIME is refused" sh -c "$R check-args ete_parse '' 2>/dev/null; test \$? -eq 2"
check "JOBS 2 is accepted, and no JOBS (one instance)" sh -c "$R check-args ete_parse 60 2 && $R check-args ete_parse 60 ''"
check "a JOBS that is not a number is refused" sh -c "$R check-args ete_parse 60 two 2>&1 | grep -q \"JOBS must be a whole number of instances, at least 1, not 'two'\" && { $R check-args ete_parse 60 two 2>/dev/null; test \$? -eq 2; }"
check "JOBS 0 is refused" sh -c "$R check-args ete_parse 60 0 2>/dev/null; test \$? -eq 2"
check "an unknown run.sh command prints the usage" sh -c "$R frob 2>&1 | grep -q '^usage: run.sh' && { $R frob 2>/dev/null; test \$? -eq 2; }"
# The RESULT line of a libFuzzer run with JOBS processes (run.sh lf-summary, on made-up logs):
# execs and execs/s summed, each rate listed; a process that failed fails the run and is named.
lflog() { printf '#%s\tDONE   cov: 10 ft: 20 corp: 3/1Kb lim: 4 exec/s: %s rss: 1Mb\nstat::number_of_executed_units: %s\nstat::average_exec_per_sec:     %s\n' "$2" "$3" "$2" "$3" > "$1"; echo "$4" > "$1.rc"; }
lflog "$tmp/a.log" 1000 50 0; lflog "$tmp/a.log.w1" 3000 70 0
lflog "$tmp/b.log" 1000 50 0; lflog "$tmp/b.log.w1" 3000 70 1
lflog "$tmp/c.log" 1000 50 0
check "lf-summary sums two processes' execs and execs/s" sh -c "out=\$($R lf-summary parse '$tmp/a.log' '$tmp/a.log.w1') && echo \"\$out\" | grep -qx 'RESULT libfuzzer parse: 4000 execs, 120 execs/s (50 + 70), cov: 10 ft: 20 corp: 3/1Kb; 2 processes (cov of the first)'"
check "lf-summary fails when one process found something, and names its log" sh -c "out=\$($R lf-summary parse '$tmp/b.log' '$tmp/b.log.w1'); test \$? -eq 1 && echo \"\$out\" | grep -q 'FINDING: libFuzzer parse exited with status 1 (log $tmp/b.log.w1)'"
check "lf-summary of one process has no per-process list" sh -c "$R lf-summary parse '$tmp/c.log' | grep -qx 'RESULT libfuzzer parse: 1000 execs, 50 execs/s, cov: 10 ft: 20 corp: 3/1Kb'"
tap_done
