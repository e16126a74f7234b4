# SPDX-License-Identifier: BSD-3-Clause
# The OSS-Fuzz build's harness list and rules (fuzz/oss-fuzz.mk), without building (make -n): make
# fuzz-list names every harness of make fuzz-harnesses with a source that exists; oss-fuzz-build
# links every one with $LIB_FUZZING_ENGINE from objects compiled with $CC $CFLAGS, zips its seed
# corpus and writes its .options; the P_diff harnesses are skipped, and named, exactly when no diff
# adapter is there. (make oss-fuzz-check, run by make fuzz-smoke, builds and runs the targets.)
. tests/lib/tap.sh
export LC_ALL=C
M="make --no-print-directory -s"
harnesses=$($M fuzz-harnesses)
check "make fuzz-harnesses lists harnesses" test -n "$harnesses"
check "make fuzz-list names the same harnesses in the same order" sh -c \
  "test \"\$($M fuzz-list | cut -f1 | tr '\n' ' ')\" = \"\$1 \"" sh "$harnesses"
check "every source fuzz-list names exists, each protocol harness with its protocol's define" sh -c \
  "$M fuzz-list | while IFS='	' read -r h src defs links; do test -f \"\$src\" || { echo \"\$h: no \$src\"; exit 1; }
     case \$h in *_*) printf '%s\n' \"\$defs\" | grep -qF \"TC_FUZZ_PROTOCOL='\\\"\${h%%_*}\\\"'\" || { echo \"\$h: \$defs\"; exit 1; } ;; esac
     for f in \$links; do case \$f in build/*) ;; *) test -f \"\$f\" || { echo \"\$h: no \$f\"; exit 1; } ;; esac; done; done"
diffs=$(printf '%s\n' $harnesses | grep '_diff$' | tr '\n' ' ')
check "without OpenCSD or OSS_FUZZ_DIFF_ADAPTER every P_diff harness is skipped, with the reason" sh -c \
  "out=\$($M OPENCSD_OK= oss-fuzz-skipped) && test \"\$(printf '%s\n' \"\$out\" | cut -d: -f1 | tr '\n' ' ')\" = '$diffs' &&
   printf '%s\n' \"\$out\" | grep -q 'no diff adapter: libopencsd-dev is not installed and OSS_FUZZ_DIFF_ADAPTER is not set'"
check "with OSS_FUZZ_DIFF_ADAPTER none is skipped" sh -c "test -z \"\$($M OPENCSD_OK= OSS_FUZZ_DIFF_ADAPTER=/x.so oss-fuzz-skipped)\""
# The commands of a build from nothing (make -n -B: nothing is built).
out=$tmp/commands
make -n -B --no-print-directory OUT="$tmp/out" WORK="$tmp/work" CC=tc-cc CXX=tc-cxx CFLAGS=-tc-cflags \
  CXXFLAGS=-tc-cxxflags LIB_FUZZING_ENGINE=-tc-engine OPENCSD_OK= oss-fuzz-build >"$out" 2>&1
check "the objects are compiled by \$CC with \$CFLAGS into WORK" sh -c \
  "grep -q '^tc-cc .* -tc-cflags .* -c fuzz/fuzz_common.c -o $tmp/work/tracecert-obj/fuzz/fuzz_common.o' \"\$1\"" sh "$out"
for h in $harnesses; do
  case " $diffs " in
  *" $h "*)
    check "$h is not built without a diff adapter" sh -c "! grep -q -- \"-o $tmp/out/$h \" \"\$1\"" sh "$out" ;;
  *)
    check "$h is linked by \$CXX \$CXXFLAGS with \$LIB_FUZZING_ENGINE into OUT, its seed corpus zipped, its .options written" sh -c \
      "grep -q '^tc-cxx -tc-cxxflags .* -o $tmp/out/$h .* -tc-engine' \"\$1\" &&
       grep -qF '$tmp/out/${h}_seed_corpus.zip' \"\$1\" && grep -qF '> $tmp/out/$h.options' \"\$1\"" sh "$out" ;;
  esac
done
check "the adapter harness's adapter goes to OUT/lib" grep -qF "$tmp/out/lib/tc_fuzz_adapter.so" "$out"
check "the build says which harnesses it skipped" grep -qF "oss-fuzz-build: SKIPPED $(echo $diffs)" "$out"
tap_done
