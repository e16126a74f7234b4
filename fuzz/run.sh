#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/run.sh — runs the fuzz harnesses for fuzz/fuzz.mk and summarises each run (execs/s, coverage, findings).
#
#   run.sh check-args HARNESS SECONDS [JOBS]  exit 2 with a message for an unknown harness, a bad time or job count
#   run.sh need libfuzzer|afl          exit 2 with the Debian package to install when the compiler is absent
#   run.sh libfuzzer HARNESS SECONDS [libFuzzer args...]  FUZZ_LF_JOBS processes (default 1); execs/s summed
#   run.sh lf-summary HARNESS LOG...   the RESULT line of finished libFuzzer runs (each status in LOG.rc)
#   run.sh afl HARNESS SECONDS [JOBS]  JOBS instances (one main, the rest secondaries); execs/s summed
#   run.sh smoke [OPENCSD_SO]          every harness briefly under libFuzzer and AFL++, then the regression driver
#   run.sh dict HARNESS                the dictionary a run of HARNESS uses (nothing: none)
#   run.sh smoke-times 1|2             the smoke seconds of every harness under libFuzzer (1) or AFL++ (2)
#
# Environment: FUZZ_OUT (build/fuzz), FUZZ_LF_DIR / FUZZ_AFL_DIR (the builds), FUZZ_LF_JOBS, MAKE, FUZZ_CLANG (clang), FUZZ_AFL_CC (afl-clang-fast),
# FUZZ_HARNESSES (the list; fuzz.mk passes it, else `make fuzz-harnesses` says it),
# TC_DIFF_ADAPTER, TC_DIFF_FINDINGS, TC_FUZZ_ADAPTER, FUZZ_SMOKE_LF / FUZZ_SMOKE_AFL (the harnesses a
# smoke run runs and their seconds, "P_parse:25 P_diff:12 ..."), FUZZ_SMOKE_TIMES and FUZZ_SMOKE_PROTO
# (fuzz.mk: how those lists are made by default), FUZZ_SMOKE_BUILD_JOBS (make jobs of the smoke's build, 2).
# Exit status: 0 clean, 1 a finding, 2 cannot run.
set -u

OUT=${FUZZ_OUT:-build/fuzz}
LF=${FUZZ_LF_DIR:-$OUT/libfuzzer}     # the libFuzzer build (fuzz.mk: libfuzzer-nosan without sanitizers)
AFL=${FUZZ_AFL_DIR:-$OUT/afl}          # the AFL++ build (afl-san with FUZZ_AFL_SAN)
MAKE=${MAKE:-make}
CLANG=${FUZZ_CLANG:-clang}
AFLCC=${FUZZ_AFL_CC:-afl-clang-fast}
# The harnesses: fuzz.mk's list (FUZZ_HARNESSES, FUZZ_PROTO_HARNESSES).
harnesses() {
	echo "${FUZZ_HARNESSES:-$($MAKE -s --no-print-directory fuzz-harnesses 2>/dev/null)}"
}

banner() {
	echo "########################################################################"
	for l in "$@"; do echo "## $l"; done
	echo "########################################################################"
}

# have_libfuzzer / have_afl print the reason on failure.
have_libfuzzer() {
	if ! command -v "$CLANG" >/dev/null 2>&1; then
		echo "$CLANG not found: apt-get install clang libclang-rt-14-dev"
		return 1
	fi
	t=$(mktemp -d)
	printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$t/t.c"
	if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$t/t.c" -o "$t/t" >/dev/null 2>&1; then
		rm -rf "$t"
		echo "$CLANG cannot link -fsanitize=fuzzer,address,undefined: apt-get install libclang-rt-14-dev"
		return 1
	fi
	rm -rf "$t"
	return 0
}

have_afl() {
	if ! command -v "$AFLCC" >/dev/null 2>&1 || ! command -v afl-fuzz >/dev/null 2>&1; then
		echo "$AFLCC / afl-fuzz not found: apt-get install afl++"
		return 1
	fi
	return 0
}

need() {
	case $1 in
	libfuzzer) why=$(have_libfuzzer) || { banner "cannot build the libFuzzer harnesses:" "$why"; exit 2; } ;;
	afl) why=$(have_afl) || { banner "cannot build the AFL++ harnesses:" "$why"; exit 2; } ;;
	esac
}

# Sets DIFF_ENV / ADAPTER_ENV defaults for one harness; returns 1 (with a message) when it cannot run.
harness_env() {
	h=$1 mode=$2
	case $h in
	*_diff)
		: "${TC_DIFF_ADAPTER:=build/adapters/libtc_opencsd.so}"
		if [ ! -f "$TC_DIFF_ADAPTER" ]; then
			echo "the diff harness needs an adapter: $TC_DIFF_ADAPTER is missing" \
			     "(apt-get install libopencsd-dev, then make $TC_DIFF_ADAPTER; or set TC_DIFF_ADAPTER)"
			return 1
		fi
		export TC_DIFF_ADAPTER ;;
	adapter)
		if [ -z "${TC_FUZZ_ADAPTER:-}" ]; then
			TC_FUZZ_ADAPTER=$LF/libtc_reference.so   # built with the harness's own flags
			[ "$mode" = afl ] && TC_FUZZ_ADAPTER=$AFL/libtc_reference.so
			export TC_FUZZ_ADAPTER
		fi ;;
	esac
	return 0
}

# dict_of HARNESS: its dictionary, or nothing: fuzz/HARNESS.dict; for a protocol's harness P_NAME
# fuzz/P/NAME.dict; P_stream and P_diff without one of their own take fuzz/P/parse.dict (the
# protocol's packets); adapter every protocol's parse.dict (in $OUT/adapter.dict).
dict_of() {
	p=${1%%_*} n=${1#*_}
	case $1 in
	adapter)
		mkdir -p "$OUT"
		cat fuzz/*/parse.dict >"$OUT/adapter.dict" 2>/dev/null && echo "$OUT/adapter.dict"
		return 0 ;;
	*_stream | *_diff) set -- "fuzz/$p/$n.dict" "fuzz/$p/parse.dict" ;;
	*_*) set -- "fuzz/$p/$n.dict" ;;
	*) set -- "fuzz/$1.dict" ;;
	esac
	for f in "$@"; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 0
}

corpus_dirs() {
	h=$1
	dirs="$OUT/corpus/$h"
	mkdir -p "$OUT/corpus/$h"
	[ -d "$OUT/${h}_seed_corpus" ] && dirs="$dirs $OUT/${h}_seed_corpus"
	[ -d "fuzz/corpus/$h" ] && [ -n "$(ls -A "fuzz/corpus/$h" 2>/dev/null)" ] && dirs="$dirs fuzz/corpus/$h"
	echo "$dirs"
}

# lf_exec ARTIFACT_PREFIX [args]: one libFuzzer process of run_libfuzzer (bin, dict, secs, h set there).
lf_exec() {
	prefix=$1
	shift
	# shellcheck disable=SC2046
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
	"$bin" $dict -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2560 \
		-max_len=4096 -artifact_prefix="$prefix" "$@" $(corpus_dirs "$h") 2>&1
}

# run_libfuzzer HARNESS SECONDS [args]: prints a summary line; status 1 on a finding.
# FUZZ_LF_JOBS=N runs N processes on the same corpus (each picks up the others' new inputs,
# libFuzzer's -reload), one per core: the first as usual, the others logged to LOG.wK, their
# reproducers named HARNESS-wK-…; execs and execs/s are summed.
run_libfuzzer() {
	h=$1 secs=$2
	shift 2
	jobs=${FUZZ_LF_JOBS:-1}
	[ -n "$jobs" ] || jobs=1
	bin=$LF/$h
	[ -x "$bin" ] || { echo "$bin is not built (make $bin)"; return 2; }
	why=$(harness_env "$h" libfuzzer) || { banner "SKIPPED libFuzzer $h: $why"; return 0; }
	harness_env "$h" libfuzzer
	mkdir -p "$OUT/findings" "$OUT/logs"
	log=$OUT/logs/$h-libfuzzer.log
	dict=$(dict_of "$h")
	[ -n "$dict" ] && dict=-dict=$dict
	logs=$log
	if [ "$jobs" -gt 1 ]; then
		echo "libFuzzer $h for ${secs}s, $jobs processes: logs $log, $log.w1…"
		k=1
		while [ "$k" -lt "$jobs" ]; do
			( TC_DIFF_SUMMARY=$h-summary-w$k.txt; export TC_DIFF_SUMMARY
			  lf_exec "$OUT/findings/$h-w$k-" "$@" >"$log.w$k"; echo $? >"$log.w$k.rc" ) &
			logs="$logs $log.w$k"
			k=$((k + 1))
		done
	else
		echo "libFuzzer $h for ${secs}s: log $log"
	fi
	# progress (pulse lines, errors) on stdout, everything in the log
	( lf_exec "$OUT/findings/$h-" "$@"; echo $? >"$log.rc" ) | tee "$log" |
		grep --line-buffered -aE '^#[0-9]+[[:space:]]+(INITED|pulse)|^#[0-9]+: cov|^==[0-9]+==ERROR|check failed|runtime error'
	wait
	# shellcheck disable=SC2086
	summarise_libfuzzer "$h" $logs
	return $?
}

# lf_stats LOG: sets execs, eps (execs/s) and cov from one libFuzzer log.
lf_stats() {
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$1" | tail -1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$1" | tail -1)
	last=$(grep -aE '^#[0-9]+' "$1" | tail -1)
	cov=$(echo "$last" | sed -n 's/.*\(cov: [0-9]*\).*\(ft: [0-9]*\).*\(corp: [0-9]*\/*[0-9a-zA-Z]*\).*/\1 \2 \3/p')
	if [ -z "$execs" ]; then   # -fork=N mode: no final stats, "#EXECS: cov: … exec/s: N"
		execs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
		eps=$(echo "$last" | sed -n 's/.*exec\/s:\{0,1\} \([0-9]*\).*/\1/p')
	fi
}

# summarise_libfuzzer HARNESS LOG...: one RESULT line (summed over the logs of the processes, each
# with its status in LOG.rc); status 1 on a finding in any of them.
summarise_libfuzzer() {
	h=$1
	shift
	sum_execs=0 sum_eps=0 each= status=0 first_cov= first=$1 known=0
	for log in "$@"; do
		lf_stats "$log"
		[ -n "$first_cov" ] || first_cov=${cov:-?}
		[ -n "$execs" ] && known=$((known + 1))
		sum_execs=$((sum_execs + ${execs:-0}))
		sum_eps=$((sum_eps + ${eps:-0}))
		each="$each${each:+ + }${eps:-?}"
	done
	[ "$known" -gt 0 ] || sum_execs=? sum_eps=?   # no process got as far as its statistics
	[ "$#" -gt 1 ] || each=
	extra=
	if [ "${h%_diff}" != "$h" ]; then   # each process's own counts (and its own summary file)
		for log in "$@"; do
			extra="$extra | $(grep -a '^diff: [0-9]* inputs' "$log" | tail -1 | sed 's/^diff: //')"
		done
	fi
	[ "$#" -gt 1 ] && extra="$extra; $# processes (cov of the first)"
	echo "RESULT libfuzzer $h: $sum_execs execs, $sum_eps execs/s${each:+ ($each)}, $first_cov$extra"
	for log in "$@"; do
		rc=$(cat "$log.rc" 2>/dev/null || echo 2)
		rm -f "$log.rc"
		[ "$rc" -eq 0 ] && continue
		status=1
		art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
		banner "FINDING: libFuzzer $h exited with status $rc (log $log)" "reproducer: ${art:-see $log}" \
		       "replay: $LF/$h ${art:-FILE}   (or $OUT/regress $h ${art:-FILE})"
		grep -aE 'ERROR: |check failed|runtime error|SUMMARY' "$log" | head -5
	done
	return $status
}

# afl_instance ROLE LOG [SUMMARY]: one afl-fuzz of run_afl (in, out, dict, secs, bin set there);
# ROLE is "" (a lone instance, out/default), "-M main" or "-S sN"; SUMMARY names the diff
# harness's summary file (one per instance).
afl_instance() {
	# shellcheck disable=SC2086
	AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_AUTORESUME=1 \
	AFL_NO_AFFINITY=${AFL_NO_AFFINITY:-1} AFL_QUIET=1 \
	TC_DIFF_FINDINGS=${TC_DIFF_FINDINGS:-$OUT/findings/diff-afl} TC_DIFF_SUMMARY=${3:-$h-summary-afl.txt} \
		afl-fuzz -i "$in" -o "$out" $1 $dict -V "$secs" -t 5000 -m none -- "$bin" >"$2" 2>&1
}

# sum_stat KEY FILES...: the sum of KEY over fuzzer_stats files (integers and decimals)
sum_stat() {
	k=$1
	shift
	sed -n "s/^$k *: *//p" "$@" | awk '{ s += $1 } END { printf "%.0f", s }'
}

# run_afl HARNESS SECONDS [JOBS]: prints execs/s from fuzzer_stats (summed over the JOBS
# instances: one main, JOBS-1 secondaries, each on its own core when there are enough);
# status 1 on a crash or hang.
run_afl() {
	h=$1 secs=$2 jobs=${3:-1}
	bin=$AFL/$h
	[ -x "$bin" ] || { echo "$bin is not built (make $bin)"; return 2; }
	why=$(harness_env "$h" afl) || { banner "SKIPPED AFL++ $h: $why"; return 0; }
	harness_env "$h" afl
	in=$AFL/$h-in
	out=$AFL/$h-out
	[ "$jobs" -gt 1 ] && out=$AFL/$h-out-$jobs
	# FUZZ_AFL_FRESH=1: a new campaign (statistics of this run only); else resume the last one
	[ "${FUZZ_AFL_FRESH:-0}" = 1 ] && rm -rf "$out"
	mkdir -p "$OUT/findings" "$OUT/logs" "$in"
	for d in $(corpus_dirs "$h"); do
		find "$d" -maxdepth 1 -type f ! -name '.*' -size -1000k -exec cp {} "$in/" \; 2>/dev/null
	done
	[ -n "$(ls -A "$in")" ] || printf '\000\000\000\000' >"$in/empty"
	dict=$(dict_of "$h")
	[ -n "$dict" ] && dict="-x $dict"
	log=$OUT/logs/$h-afl.log
	if [ "$jobs" -gt 1 ]; then
		echo "AFL++ $h for ${secs}s, $jobs instances: logs $log (main), $log.sN; output $out"
		i=1
		while [ "$i" -lt "$jobs" ]; do
			afl_instance "-S s$i" "$log.s$i" "$h-summary-s$i.txt" &
			i=$((i + 1))
		done
		afl_instance "-M main" "$log"
		rc=$?
		wait
	else
		echo "AFL++ $h for ${secs}s: log $log, output $out"
		afl_instance "" "$log"
		rc=$?
	fi
	set -- "$out"/*/fuzzer_stats
	if [ ! -f "$1" ]; then
		banner "AFL++ $h did not start (status $rc): see $log"
		tail -5 "$log"
		return 2
	fi
	crashes=$(sum_stat saved_crashes "$@")
	hangs=$(sum_stat saved_hangs "$@")
	note=" (cumulative over resumed runs; FUZZ_AFL_FRESH=1 for one run)"
	[ "${FUZZ_AFL_FRESH:-0}" = 1 ] && note=
	get() { sed -n "s/^$1 *: *//p" "$2"; }
	each=
	[ "$#" -gt 1 ] && each=" ($(for f in "$@"; do printf '%s ' "$(get execs_per_sec "$f")"; done | sed 's/ $//;s/ / + /g'))"
	echo "RESULT afl $h: $(sum_stat execs_done "$@") execs, $(sum_stat execs_per_sec "$@") execs/s$each," \
	     "run_time $(get run_time "$1")s$note, $# instance(s); first: edges $(get edges_found "$1")/$(get total_edges "$1")," \
	     "bitmap $(get bitmap_cvg "$1"), corpus $(get corpus_count "$1"); crashes ${crashes:-0}, hangs ${hangs:-0}"
	if [ "${crashes:-0}" -gt 0 ] || [ "${hangs:-0}" -gt 0 ]; then
		for f in "$out"/*/crashes/id* "$out"/*/hangs/id*; do
			[ -f "$f" ] || continue
			kind=$(basename "$(dirname "$f")")
			inst=$(basename "$(dirname "$(dirname "$f")")")   # default, main, s1…: ids repeat across instances
			cp "$f" "$OUT/findings/afl-$h-$inst-$kind-$(basename "$f" | cut -c1-9 | tr -c 'a-zA-Z0-9\n' '_')"
		done
		banner "FINDING: AFL++ $h: ${crashes:-0} crashes, ${hangs:-0} hangs" \
		       "reproducers: $OUT/findings/afl-$h-*" "replay: $OUT/regress $h FILE"
		return 1
	fi
	return 0
}

# smoke_times ENGINE (1 libFuzzer, 2 AFL++): "HARNESS:SECONDS ..." for every harness: its own entry of
# FUZZ_SMOKE_TIMES (HARNESS:LF:AFL), else an equal share of its protocol's FUZZ_SMOKE_PROTO seconds
# (at least 5) among that protocol's harnesses without an entry.
smoke_times() {
	col=$1 out=
	for h in $(harnesses); do
		t=
		for e in ${FUZZ_SMOKE_TIMES:-}; do
			[ "${e%%:*}" = "$h" ] && t=$(echo "$e" | cut -d: -f$((col + 1)))
		done
		if [ -z "$t" ]; then
			n=0
			for o in $(harnesses); do
				[ "${o%%_*}" = "${h%%_*}" ] || continue
				case " ${FUZZ_SMOKE_TIMES:-} " in *" $o:"*) ;; *) n=$((n + 1)) ;; esac
			done
			t=$(( ${FUZZ_SMOKE_PROTO:-60} / n ))
			[ "$t" -ge 5 ] || t=5
		fi
		out="$out${out:+ }$h:$t"
	done
	echo "$out"
}

smoke() {
	opencsd=${1:-}
	lf_times=${FUZZ_SMOKE_LF:-$(smoke_times 1)}
	afl_times=${FUZZ_SMOKE_AFL:-$(smoke_times 2)}
	status=0 lf=yes afl=yes
	export FUZZ_AFL_FRESH=1
	rm -rf "$OUT/findings"
	mkdir -p "$OUT/findings" "$OUT/logs"
	export TC_DIFF_FINDINGS=${TC_DIFF_FINDINGS:-$OUT/findings/diff}
	builds=
	if why=$(have_libfuzzer); then
		builds=fuzz-build-libfuzzer
	else
		banner "SKIPPED: the libFuzzer harnesses were NOT built or run" "$why"
		lf=no
	fi
	if why=$(have_afl); then
		builds="$builds fuzz-build-afl"
	else
		banner "SKIPPED: the AFL++ harnesses were NOT built or run" "$why"
		afl=no
	fi
	# Both builds and the regression driver in one make, two jobs (one per core) unless the make
	# that ran this passes its own job count (a -j in MAKEFLAGS).
	jobs=-j${FUZZ_SMOKE_BUILD_JOBS:-2}
	case " ${MAKEFLAGS:-} " in *" -j"* | *jobserver*) jobs= ;; esac
	# shellcheck disable=SC2086
	$MAKE --no-print-directory $jobs $builds "$OUT/regress" $opencsd || return 2
	# libFuzzer and AFL++ in parallel, one core each
	: >"$OUT/logs/smoke-lf.txt"
	: >"$OUT/logs/smoke-afl.txt"
	(
		s=0
		if [ $lf = yes ]; then
			for ht in $lf_times; do
				run_libfuzzer "${ht%%:*}" "${ht#*:}" >>"$OUT/logs/smoke-lf.txt" 2>&1 || s=1
			done
		fi
		exit $s
	) &
	lfpid=$!
	(
		s=0
		if [ $afl = yes ]; then
			for ht in $afl_times; do
				run_afl "${ht%%:*}" "${ht#*:}" >>"$OUT/logs/smoke-afl.txt" 2>&1 || s=1
			done
		fi
		exit $s
	) &
	aflpid=$!
	wait $lfpid || status=1
	wait $aflpid || status=1
	grep -avE '^#[0-9]+' "$OUT/logs/smoke-lf.txt" "$OUT/logs/smoke-afl.txt" | sed 's/^[^:]*smoke-[a-z]*\.txt://'
	echo "regression driver:"
	$MAKE --no-print-directory fuzz-regress >"$OUT/logs/smoke-regress.txt" 2>&1 || status=1
	grep -E '^(not ok|1\.\.)' "$OUT/logs/smoke-regress.txt"
	grep -c '^ok' "$OUT/logs/smoke-regress.txt" | sed 's/$/ replays ok/'
	n=$(find "$OUT/findings" -maxdepth 1 -type f | wc -l)
	if [ -d "$TC_DIFF_FINDINGS" ]; then
		for h in $(harnesses); do
			case $h in *_diff) ;; *) continue ;; esac
			echo "$h harness (recorded, not failures): $(find "$TC_DIFF_FINDINGS" -name "$h-*.tcv" | wc -l) candidate vectors," \
			     "$(find "$TC_DIFF_FINDINGS" -name "$h-crash-*" -o -name "$h-hang-*" -o -name "$h-flood-*" | wc -l) adapter crash/hang/flood inputs in $TC_DIFF_FINDINGS"
		done
	fi
	[ $lf = no ] && echo "NOTE: libFuzzer part SKIPPED (see above)"
	[ $afl = no ] && echo "NOTE: AFL++ part SKIPPED (see above)"
	if [ $status -ne 0 ] || [ "$n" -gt 0 ]; then
		banner "fuzz-smoke FAILED: $n reproducer(s) in $OUT/findings/ (logs in $OUT/logs/)"
		ls "$OUT/findings" | grep -v '^diff' | sed 's/^/##   /'
		return 1
	fi
	echo "fuzz-smoke: clean"
	return 0
}

cmd=${1:-}
[ $# -gt 0 ] && shift
# The arguments of `make fuzz` / `make fuzz-afl`, checked before anything is built.
check_args() {
	HARNESSES=$(harnesses)
	case " $HARNESSES " in
	*" ${1:-} "*) ;;
	*) echo "fuzz: unknown HARNESS '${1:-}' (one of: $HARNESSES)" >&2; exit 2 ;;
	esac
	case ${2:-} in
	'' | *[!0-9]*) echo "fuzz: TIME must be a whole number of seconds, not '${2:-}'" >&2; exit 2 ;;
	esac
	[ "$2" -gt 0 ] || { echo "fuzz: TIME must be at least 1 second" >&2; exit 2; }
	case ${3:-1} in
	'' | *[!0-9]* | 0) echo "fuzz: JOBS must be a whole number of instances, at least 1, not '${3:-}'" >&2; exit 2 ;;
	esac
}

case $cmd in
check-args) check_args "$@" ;;
need) need "$@" ;;
libfuzzer) run_libfuzzer "$@" ;;
lf-summary) summarise_libfuzzer "$@" ;;   # HARNESS LOG...: the RESULT line of finished runs (tests)
afl) run_afl "$@" ;;
smoke) smoke "$@" ;;
dict) dict_of "$@" ;;
smoke-times) smoke_times "$@" ;;   # 1|2: the smoke seconds of every harness (tests)
*) echo "usage: run.sh check-args|need|libfuzzer|lf-summary|afl|smoke|smoke-times|dict ..." >&2; exit 2 ;;
esac
