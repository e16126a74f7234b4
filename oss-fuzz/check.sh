#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# oss-fuzz/check.sh — make oss-fuzz-check: builds the fuzz targets as OSS-Fuzz would and runs each.
#
# oss-fuzz/build.sh runs in an environment of only what OSS-Fuzz's builder sets (CC=clang, CXX=clang++,
# CFLAGS/CXXFLAGS of its ASan libFuzzer build: -fsanitize=address -fsanitize=fuzzer-no-link,
# LIB_FUZZING_ENGINE=-fsanitize=fuzzer, SANITIZER, FUZZING_ENGINE, ARCHITECTURE) with OUT, WORK and SRC
# (SRC/tracecert: this tree) in a temporary folder. Then, from another folder and with no TC_*
# variable set (the runner sets none), every target runs FUZZ_OSS_SECONDS (default 2) seconds on its
# unpacked seed corpus with the settings of its NAME.options, as the runner passes them (a [libfuzzer]
# key K = V as -K=V, dict relative to OUT; [asan] as ASAN_OPTIONS). Checks: every harness of make
# fuzz-harnesses was built or is listed by make oss-fuzz-skipped (printed as SKIPPED), every
# NAME_seed_corpus.zip and NAME.options exists, and every target exits 0.
# FUZZ_OSS_UBSAN=1 (the default; 0 leaves it out) builds again with OSS-Fuzz's UBSan flags and replays
# every seed corpus once (-runs=0). FUZZ_OSS_KEEP=1 keeps the temporary folder.
# Environment: MAKE, BUILD, FUZZ_OUT (the build folders of the make that runs it), FUZZ_OSS_SECONDS,
# FUZZ_OSS_UBSAN, FUZZ_OSS_KEEP, FUZZ_OSS_MAKE_ARGS (more make arguments for build.sh and the lists,
# e.g. OPENCSD_OK= to see the diff harnesses skipped), TMPDIR.
set -u
MAKE=${MAKE:-make}
secs=${FUZZ_OSS_SECONDS:-2}
tree=$(pwd)
make_args="BUILD=${BUILD:-build} FUZZ_OUT=${FUZZ_OUT:-${BUILD:-build}/fuzz} ${FUZZ_OSS_MAKE_ARGS:-}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tc-oss-fuzz.XXXXXX") || exit 2
fails=0

fail() {
	echo "oss-fuzz-check: FAIL: $*"
	fails=$((fails + 1))
}

for tool in clang clang++ zip unzip; do
	command -v "$tool" >/dev/null || { echo "oss-fuzz-check: SKIPPED: $tool is missing (apt-get install clang zip unzip)"; exit 0; }
done

# build SANITIZER FLAGS: oss-fuzz/build.sh into $tmp/SANITIZER/{out,work,src} (log build.log there)
build() {
	d=$tmp/$1
	mkdir -p "$d/out" "$d/work" "$d/src"
	ln -s "$tree" "$d/src/tracecert"
	cp oss-fuzz/build.sh "$d/src/build.sh"
	flags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION $2 -fsanitize=fuzzer-no-link"
	start=$(date +%s)
	env -i PATH="$PATH" HOME="${HOME:-/tmp}" TMPDIR="${TMPDIR:-/tmp}" CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" \
		LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER="$1" FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64 \
		OUT="$d/out" WORK="$d/work" SRC="$d/src" TC_MAKE_ARGS="$make_args" \
		bash "$d/src/build.sh" >"$d/build.log" 2>&1
	rc=$?
	echo "oss-fuzz-check: $1 build: status $rc, $(($(date +%s) - start)) s (log $d/build.log)"
	grep -E 'SKIPPED|NOT built|^build\.sh:' "$d/build.log"
	[ $rc -eq 0 ] || { tail -20 "$d/build.log"; fail "build.sh ($1) exited with status $rc"; }
	return $rc
}

# options OUT NAME: the runner's libFuzzer arguments from NAME.options (sets args and asan)
options() {
	args= asan= section=
	while IFS= read -r line; do
		case $line in
		'['*']') section=${line#[}; section=${section%]} ;;
		*=*)
			k=$(echo "${line%%=*}" | tr -d ' ') v=$(echo "${line#*=}" | sed 's/^ *//;s/ *$//')
			[ "$k" = dict ] && v=$1/$v
			case $section in
			libfuzzer) args="$args -$k=$v" ;;
			asan) asan="$asan${asan:+:}$k=$v" ;;
			esac ;;
		esac
	done <"$1/$2.options"
}

# run SANITIZER NAME LIBFUZZER-ARGS: NAME on its unpacked seed corpus, from an empty folder
run() {
	san=$1 out=$tmp/$1/out h=$2
	shift 2
	c=$tmp/$san-corpus/$h
	mkdir -p "$c" "$tmp/run"
	unzip -q -o "$out/${h}_seed_corpus.zip" -d "$c" || { fail "$h: cannot unpack ${h}_seed_corpus.zip"; return; }
	options "$out" "$h"
	seeds=$(ls "$c" | wc -l)
	start=$(date +%s)
	# shellcheck disable=SC2086
	(cd "$tmp/run" && ASAN_OPTIONS="${asan:+$asan:}detect_leaks=1" \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:silence_unsigned_overflow=1 \
		"$out/$h" $args "$@" -print_final_stats=1 "$c") >"$tmp/$h.$san.log" 2>&1
	rc=$?
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$h.$san.log")
	echo "oss-fuzz-check: $san $h: status $rc, ${n:-?} execs, $seeds seeds, $(($(date +%s) - start)) s"
	[ $rc -eq 0 ] || { grep -aE 'ERROR|check failed|runtime error|SUMMARY|cannot' "$tmp/$h.$san.log" | head -5; fail "$h ($san) exited with status $rc (log $tmp/$h.$san.log)"; }
}

harnesses=$($MAKE --no-print-directory -s $make_args fuzz-harnesses)
skipped=$($MAKE --no-print-directory -s $make_args oss-fuzz-skipped)
[ -n "$harnesses" ] || fail "make fuzz-harnesses listed nothing"
if build address "-fsanitize=address -fsanitize-address-use-after-scope"; then
	out=$tmp/address/out
	for h in $harnesses; do
		if printf '%s\n' "$skipped" | grep -q "^$h:"; then
			echo "oss-fuzz-check: SKIPPED $(printf '%s\n' "$skipped" | grep "^$h:")"
			[ ! -e "$out/$h" ] || fail "$h is listed as skipped but was built"
			continue
		fi
		[ -x "$out/$h" ] || { fail "$h was not built ($out/$h)"; continue; }
		[ -f "$out/${h}_seed_corpus.zip" ] || { fail "$h has no ${h}_seed_corpus.zip"; continue; }
		[ -f "$out/$h.options" ] || { fail "$h has no $h.options"; continue; }
		run address "$h" -max_total_time="$secs"
	done
	extra=$(cd "$out" && for f in *; do [ -f "$f" ] && [ -x "$f" ] && echo "$f"; done | grep -vxF "$(printf '%s\n' $harnesses)")
	[ -z "$extra" ] || fail "targets no harness list names: $extra"
fi
if [ "${FUZZ_OSS_UBSAN:-1}" = 1 ] &&
   build undefined "-fsanitize=array-bounds,bool,builtin,enum,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound -fno-sanitize-recover=array-bounds,bool,builtin,enum,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound"; then
	for h in $harnesses; do
		[ -x "$tmp/undefined/out/$h" ] || continue
		run undefined "$h" -runs=0
	done
fi
if [ "${FUZZ_OSS_KEEP:-0}" = 1 ] || [ $fails -gt 0 ]; then
	echo "oss-fuzz-check: the build and logs are in $tmp"
else
	rm -rf "$tmp"
fi
if [ $fails -gt 0 ]; then
	echo "oss-fuzz-check: FAILED ($fails)"
	exit 1
fi
echo "oss-fuzz-check: clean ($(echo $harnesses | wc -w) harnesses: $(printf '%s' "$skipped" | grep -c .) skipped, the others built and run)"
