#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run.sh — the automatic mutants: operator-level faults at every site of a protocol's
# reference (conformance/mutants/auto/sites.py, libclang), each judged by the protocol's
# vectors alone (`tracecert certify`, what a third party sees) and, when it survives them,
# by the whole suite (suite.sh). Writes OUT/<protocol>/ (run.txt, sites.tsv, sample.tsv,
# verdicts.tsv, a folder per mutant) and OUT/report.md over every protocol OUT holds (default
# OUT: BUILD_DIR/mutants-auto; each protocol's results stay until a run of it replaces them).
#
#   run.sh [--protocol NAME]... [--sample N] [--seed S] [--ids FILE] [--out DIR] [--report-only] [--resume | --recheck] [--quiet] BUILD_DIR
#
# The protocols: every one of the build (BUILD_DIR/gen/protocols.c), or those named. The
# parts of protocol P: each reference/P/*.c by its name without "P_" (parse, resolve, …)
# but *_text.c (L1 text for dump; certify compares records), *_config.c and *_protocol.c
# (configuration keys and the descriptor: certify hands every decoder a checked
# configuration, so their faults are not decoding faults), and the shared instruction
# classifier, program image, return stack and byte-stream driver (insn, image, retstack,
# pktstream) that the protocol's decoder uses (includes the header of). The image part is
# reference/image.c alone, the regions and lookup a decoder uses: reference/image_file.c
# (loading raw and ELF files), like csframe.c and snapshot.c, is the runner's and the
# tools' side — certify hands a decoder regions, never files, so a fault of the adapter's
# copy of the loader is never reached. --sample N: N sites of each protocol, chosen
# by seed (default 1) and site id; without it every site (a few thousand: hours on 2 cores).
# --ids FILE: only the sites whose id starts a line of FILE (e.g. the survivors of an earlier
# run: cut -f3 of its verdicts.tsv), to see quickly what new vectors kill; its kill rates are
# those of that subset, not of the protocol. Sites listed in equivalent.txt (beside this
# script) are not built. --report-only writes
# the verdicts and the report again from the mutants OUT holds (after equivalent.txt changed).
# --resume goes on with a run that stopped before its end (OUT/P/started.txt, written when
# a protocol's mutants start, records its date, commit, sample, seed and ids): the mutants
# that have a verdict keep it, the others are judged; refused when the tree differs from the
# run's commit in what the verdicts depend on (tree.sh: reference/, vectors/, encoder/,
# conformance/, tests/unit_*.t, but for this script, report.sh, keep.sh, the kept runs and the
# lists of equivalent, unscored and unreachable sites, which verdicts.tsv applies when it is written)
# or when --sample, --ids or --report-only is given. Without --protocol, the protocols OUT
# holds a started run of.
# run.txt then records the commit and date of the start, and when it was resumed.
# --recheck judges again, at this commit, the mutants of a complete run in OUT (run.txt) that
# its vectors did not kill (survived, or killed by the whole suite only), when the tree differs
# from the run's commit only by vectors added (and the lists and scripts --resume allows): a
# vector added cannot make a mutant the others killed survive, since certify fails on the one
# that killed it as before. Refused with uncommitted or untracked changes there (the commit
# recorded must be the tree measured) and with --sample, --ids, --report-only or --resume.
# run.txt keeps the run's date and commit and adds rechecked= (date, commit, how many).
# While a protocol's mutants run, its progress is on stderr (progress.sh: on a terminal one line
# redrawn, mutants judged of those sampled, surviving so far, mutants/s; elsewhere that line every
# 5 s; the last count at the end); --quiet: none.
#
# Each mutant compiles only its own file (against a pristine copy of reference/ with its
# markers: TC_CLAUSE expands to nothing outside the coverage build) and links with the
# pristine objects; a pristine build must pass every vector and the whole suite first.
# Environment: CC, JOBS (parallel mutants, default: CPUs), PYTHON (a python3 with
# clang.cindex; default: python3 or /usr/bin/python3), SUITE_LINK (the objects and libraries
# the test programs need besides the reference: the GNUmakefile passes them; default: the
# runner's objects BUILD_DIR/obj/conformance/*.o but vectest.o and twins.o, and
# BUILD_DIR/libtcenc.a).
# Exit status 0 when the run completed (whatever the kill rates), 1 on a failure, 2 for bad
# usage or a missing prerequisite.
set -u
usage() {
	echo "usage: $0 [--protocol NAME]... [--sample N] [--seed S] [--ids FILE] [--out DIR] [--report-only] [--resume | --recheck] [--quiet] BUILD_DIR" >&2
	exit 2
}
only= sample= seed=1 outarg= report_only=0 ids= quiet=0 resume=0 recheck=0
while [ $# -gt 0 ]; do
	case $1 in
	--protocol) [ $# -ge 2 ] || usage; only="$only $2"; shift 2 ;;
	--sample) [ $# -ge 2 ] || usage; sample=$2; shift 2 ;;
	--seed) [ $# -ge 2 ] || usage; seed=$2; shift 2 ;;
	--ids) [ $# -ge 2 ] || usage; ids=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; outarg=$2; shift 2 ;;
	--report-only) report_only=1; shift ;;
	--resume) resume=1; shift ;;
	--recheck) recheck=1; shift ;;
	--quiet) quiet=1; shift ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage
if [ $resume -eq 1 ] && { [ -n "$sample" ] || [ -n "$ids" ] || [ $report_only -eq 1 ] || [ $recheck -eq 1 ]; }; then
	echo "mutants-auto: --resume goes on with the run's own sample and ids (OUT/P/started.txt): give no --sample, --ids, --report-only or --recheck" >&2
	exit 2
fi
if [ $recheck -eq 1 ] && { [ -n "$sample" ] || [ -n "$ids" ] || [ $report_only -eq 1 ]; }; then
	echo "mutants-auto: --recheck judges again the misses of the run in OUT: give no --sample, --ids or --report-only" >&2
	exit 2
fi
case $1 in /*) build=$1 ;; *) build=$(pwd)/$1 ;; esac
case $ids in '' | /*) ;; *) ids=$(pwd)/$ids ;; esac
if [ -n "$ids" ] && { [ ! -f "$ids" ] || [ ! -r "$ids" ]; }; then
	echo "mutants-auto: --ids $ids: not a readable file" >&2
	exit 2
fi
case ${outarg:-$build/mutants-auto} in /*) out=${outarg:-$build/mutants-auto} ;; *) out=$(pwd)/$outarg ;; esac
root=$(cd "$(dirname "$0")/../../.." && pwd) || exit 2
cd "$root" || exit 2

CC=${CC:-cc}
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
CFLAGS_M="-std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -fPIC -O1"
tool=$build/tracecert
vecdirs=
equivalent=$root/conformance/mutants/auto/equivalent.txt
unscored=$root/conformance/mutants/auto/unscored.txt
unreachable=$root/conformance/mutants/auto/unreachable.txt
suite_link=${SUITE_LINK:-}
if [ -z "$suite_link" ]; then
	for o in "$build"/obj/conformance/*.o; do
		case $o in */vectest.o | */twins.o) ;; *) suite_link="$suite_link $o" ;; esac
	done
	suite_link="$suite_link $build/libtcenc.a"
fi
# A build made with --coverage (make coverage: its objects have .gcno files beside them)
# links only with gcov's runtime.
if [ -n "$(find "$build/obj/reference" -maxdepth 1 -name '*.gcno' 2>/dev/null | head -n 1)" ]; then
	suite_link="$suite_link --coverage"
fi
. conformance/mutants/lib.sh
. conformance/mutants/auto/suite.sh
. conformance/mutants/auto/progress.sh
. conformance/mutants/auto/tree.sh

PYTHON=$(sh conformance/mutants/auto/python.sh) || exit 2
[ -x "$tool" ] && [ -f "$build/gen/protocols.c" ] ||
	{ echo "mutants-auto: $tool or $build/gen/protocols.c is missing (make builds them)" >&2; exit 2; }
[ -f "$build/libtcenc.a" ] && [ -f "$build/obj/conformance/vectest.o" ] ||
	{ echo "mutants-auto: the test programs' objects are missing in $build/obj (make tests builds them)" >&2; exit 2; }
all=$(sed -n 's/^extern const struct tc_protocol tc_protocol_\([a-z0-9_]*\);$/\1/p' "$build/gen/protocols.c")
protocols=${only:-$all}
# Resumed or rechecked without --protocol: the protocols OUT holds a started (a complete) run of.
if [ $((resume + recheck)) -gt 0 ] && [ -z "$only" ]; then
	protocols=
	if [ $resume -eq 1 ]; then f=started.txt opt=--resume what=started; else f=run.txt opt=--recheck what=complete; fi
	for p in $all; do [ -f "$out/$p/$f" ] && protocols="$protocols $p"; done
	[ -n "$protocols" ] || { echo "mutants-auto: $opt: $out holds no $what run (P/$f) of a protocol of this build" >&2; exit 2; }
fi
for p in $protocols; do
	case " $(echo $all) " in *" $p "*) ;; *) echo "mutants-auto: $p is not a protocol of this build" >&2; exit 2 ;; esac
done

# parts PROTOCOL: "PART FILE" lines.
parts() {
	for f in reference/"$1"/*.c; do
		b=$(basename "$f" .c)
		case $b in *_text | *_config | *_protocol) continue ;; esac
		echo "${b#"$1"_} $f"
	done
	# The shared parts the protocol's decoder uses (includes their header).
	for s in insn rvinsn armxfer cyclecap image retstack pktstream l3range; do
		if grep -qE "#include \"(tracecert/)?$s\.h\"" reference/"$1"/*.c reference/"$1"/*.h 2>/dev/null; then
			echo "$s reference/$s.c"
		fi
	done
}

# verdicts PROTOCOL: OUT/PROTOCOL/verdicts.tsv from its sample and each mutant's verdict; a
# site listed in equivalent.txt now is equivalent, whatever its mutant did.
verdicts() {
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\t%s\n' "$line" "$(cat "$out/$1/m$n/verdict" 2>/dev/null || printf 'lost\t-')"
	done <"$out/$1/sample.tsv" |
		awk -F'\t' -v OFS='\t' -v p="$1" -v parts="$out/$1/parts.txt" -v eq="$equivalent" -v un="$unscored" -v ur="$unreachable" '
			BEGIN {
				while ((getline l < parts) > 0) { split(l, a, " "); part[a[2]] = a[1] }
				while ((getline l < eq) > 0) if (l !~ /^#/) { split(l, a, " "); equiv[a[1]] = 1 }
				while ((getline l < un) > 0) if (l !~ /^#/) { split(l, a, " "); unsc[a[1]] = 1 }
				while ((getline l < ur) > 0) if (l !~ /^#/) { split(l, a, " "); if (a[1] == p) unreach[a[2]] = 1 }
			}
			{
				if ($1 in equiv) { $10 = "equivalent"; $11 = "-" }
				else if (($1 in unsc) && $10 == "suite") $10 = "unscored"
				else if (($1 in unreach) && $10 == "suite") $10 = "unreachable"
				print p, part[$2], $1, $2, $3, $4, $5, $6, $7, $10, $11
			}' \
		>"$out/$1/verdicts.tsv"
}
# resume_check: every protocol to run has a started run in OUT at a commit whose tree is this
# one's in what its verdicts depend on.
resume_check() {
	for p in $protocols; do
		st=$out/$p/started.txt
		if [ ! -f "$st" ] || [ ! -f "$out/$p/sample.tsv" ]; then
			echo "mutants-auto: --resume: $st or $out/$p/sample.tsv is missing: no started run of $p to go on with" >&2
			return 1
		fi
		c=$(sed -n 's/^commit=//p' "$st")
		case $c in *' '* | '')
			echo "mutants-auto: --resume: $st: commit '$c': a run of uncommitted changes cannot be resumed" >&2
			return 1 ;;
		esac
		if ! ch=$(measured_changes "$c" 2>/dev/null) || [ -n "$ch" ]; then
			echo "mutants-auto: --resume: the tree differs from $p's run commit $c in reference/, vectors/, encoder/, conformance/ or tests/unit_*.t (git diff $c): start a new run" >&2
			return 1
		fi
	done
	resumed=$(date -u '+%Y-%m-%d %H:%M UTC')
}

# recheck_check: every protocol to run has a complete run in OUT whose commit differs from this
# tree only by vectors added, committed.
recheck_check() {
	headc=$(git rev-parse --short HEAD 2>/dev/null) || { echo "mutants-auto: --recheck: not a git checkout" >&2; return 1; }
	if ! ch=$(measured_changes HEAD 2>/dev/null) || [ -n "$ch" ]; then
		echo "mutants-auto: --recheck: uncommitted or untracked changes in reference/, vectors/, encoder/, conformance/ or tests/unit_*.t: commit them first (the run records the commit)" >&2
		return 1
	fi
	for p in $protocols; do
		rt=$out/$p/run.txt
		if [ ! -f "$rt" ] || [ ! -f "$out/$p/sample.tsv" ]; then
			echo "mutants-auto: --recheck: $rt or $out/$p/sample.tsv is missing: no complete run of $p to judge again" >&2
			return 1
		fi
		c=$(sed -n 's/^commit=//p' "$rt")
		case $c in *' '* | '')
			echo "mutants-auto: --recheck: $rt: commit '$c': a run of uncommitted changes cannot be rechecked" >&2
			return 1 ;;
		esac
		if ! ch=$(measured_changes "$c" 2>/dev/null); then
			echo "mutants-auto: --recheck: git diff $c failed: is $c a commit of this repository?" >&2
			return 1
		fi
		other=$(printf '%s\n' "$ch" | awk -F'\t' 'NF && !($1 == "A" && $2 ~ /^vectors\//)' | head -n 3)
		if [ -n "$other" ]; then
			echo "mutants-auto: --recheck: since $p's run commit $c more changed than vectors added (e.g. $(printf '%s' "$other" | tr '\t\n' ' ')): start a new run" >&2
			return 1
		fi
	done
	rechecked=$(date -u '+%Y-%m-%d %H:%M UTC')
}

if [ $report_only -eq 1 ]; then
	for p in $protocols; do
		[ -f "$out/$p/sample.tsv" ] && verdicts "$p"
	done
	sh conformance/mutants/auto/report.sh "$out" >"$out/report.md" || exit 1
	sed -n '/^| protocol /,/^$/p' "$out/report.md"
	exit 0
fi

# The commit measured (the tree when the run starts).
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- reference vectors conformance/mutants 2>/dev/null || echo ' with uncommitted changes to reference/, vectors/ or conformance/mutants/')"
started=$(date -u '+%Y-%m-%d %H:%M UTC')
resumed= rechecked=

if [ $resume -eq 1 ]; then
	resume_check || exit 2
elif [ $recheck -eq 1 ]; then
	recheck_check || exit 2
else
	# A run replaces the results of the protocols it runs and keeps the others'.
	for p in $protocols; do rm -rf "${out:?}/$p"; done
fi
rm -rf "$out/.base"
mkdir -p "$out" || exit 1

# ---- The control: the pristine copy passes every vector and the whole suite.
base=$out/.base
build_base "$base" "$build/gen/protocols.c" "$build/gen/include" --keep-markers || exit 1
for p in $protocols; do
	certify_run "$p" "$base/libtc_mutant.so" "$base/certify-$p"
	if ! control_ok "$p" "$base/certify-$p"; then
		echo "mutants-auto: the pristine copy (control) does not pass every $p vector:" >&2
		cat "$base/certify-$p.err" >&2
		exit 1
	fi
	if by=$(suite_run "$p" "$base/control-$p" "$base_objs"); then :; else
		echo "mutants-auto: the pristine copy (control) fails $by of the whole suite ($base/control-$p/suite/)" >&2
		exit 1
	fi
done

# ---- The sites, the sample, the mutants (JOBS at a time).
export CC CFLAGS_M tool build out base base_objs suite_link equivalent vecdirs all
for p in $protocols; do
	mkdir -p "$out/$p" || exit 1
	if [ $resume -eq 1 ]; then
		n=$(wc -l <"$out/$p/sample.tsv")
		left=$(seq 1 "$n" | while read -r i; do [ -f "$out/$p/m$i/verdict" ] || echo "$i"; done)
		echo "mutants-auto: $p: resumed: $(echo "$left" | grep -c .) of $n mutants left to judge, $JOBS at a time" >&2
		progress_start "$p" "$out/$p" "$n" $quiet
		[ -z "$left" ] || echo "$left" | xargs -P "$JOBS" -n 1 sh conformance/mutants/auto/one.sh "$p"
		rc=$?
		progress_stop "$p" "$out/$p" "$n" $quiet
		[ $rc -eq 0 ] || exit 1
		continue
	fi
	if [ $recheck -eq 1 ]; then
		n=$(wc -l <"$out/$p/sample.tsv")
		again=$(seq 1 "$n" | while read -r i; do
			case $(cut -f1 "$out/$p/m$i/verdict" 2>/dev/null) in survived | suite | '') echo "$i" ;; esac
		done)
		nagain=$(echo "$again" | grep -c .)
		echo "mutants-auto: $p: rechecked: $nagain of $n mutants the vectors did not kill, judged again, $JOBS at a time" >&2
		progress_start "$p" "$out/$p" "$n" $quiet
		[ -z "$again" ] || echo "$again" | xargs -P "$JOBS" -n 1 sh conformance/mutants/auto/one.sh "$p"
		rc=$?
		progress_stop "$p" "$out/$p" "$n" $quiet
		[ $rc -eq 0 ] || exit 1
		# run.txt: the run's own lines, an earlier recheck's replaced by this one.
		{ grep -v '^rechecked=' "$out/$p/run.txt" &&
			echo "rechecked=$rechecked at $headc ($nagain mutants the vectors did not kill judged again; vectors only added since)"; } \
			>"$out/$p/run.txt.new" && mv "$out/$p/run.txt.new" "$out/$p/run.txt" || exit 1
		continue
	fi
	printf 'date=%s\ncommit=%s\nsample=%s\nseed=%s\n%s' "$started" "$commit" "${sample:-all}" "$seed" \
		"${ids:+ids=$ids (a subset: not the protocol's kill rate)
}" >"$out/$p/started.txt" || exit 1
	# shellcheck disable=SC2046
	"$PYTHON" conformance/mutants/auto/sites.py list $(parts "$p" | cut -d' ' -f2) >"$out/$p/sites.tsv" || exit 1
	# shellcheck disable=SC2046
	"$PYTHON" conformance/mutants/auto/sites.py list ${sample:+--sample "$sample" --seed "$seed"} \
		$(parts "$p" | cut -d' ' -f2) >"$out/$p/sample.tsv" || exit 1
	if [ -n "$ids" ]; then
		awk -F'\t' 'NR == FNR { if ($1 !~ /^#/) want[$1] = 1; next } $1 in want' "$ids" "$out/$p/sample.tsv" \
			>"$out/$p/sample.ids" && mv "$out/$p/sample.ids" "$out/$p/sample.tsv" || exit 1
	fi
	n=$(wc -l <"$out/$p/sample.tsv")
	echo "mutants-auto: $p: $n mutants of $(wc -l <"$out/$p/sites.tsv") sites, $JOBS at a time" >&2
	progress_start "$p" "$out/$p" "$n" $quiet
	seq 1 "$n" | xargs -P "$JOBS" -n 1 sh conformance/mutants/auto/one.sh "$p"
	rc=$?
	progress_stop "$p" "$out/$p" "$n" $quiet
	[ $rc -eq 0 ] || exit 1
done

# ---- OUT/P/verdicts.tsv: protocol, part, id, file, line, col, operator, original, replacement, verdict, by.
for p in $protocols; do
	parts "$p" >"$out/$p/parts.txt"
	if [ $recheck -eq 0 ]; then
		{ cat "$out/$p/started.txt" && if [ -n "$resumed" ]; then echo "resumed=$resumed"; fi; } >"$out/$p/run.txt" || exit 1
	fi
	verdicts "$p"
done
sh conformance/mutants/auto/report.sh "$out" >"$out/report.md" || exit 1
sed -n '/^| protocol /,/^$/p' "$out/report.md"
