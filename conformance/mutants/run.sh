#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run.sh — builds every deliberately broken copy of the reference decoder
# (conformance/mutants/PROTOCOL/NN-name.patch) and checks that the vectors of
# its protocol kill it.
#
#   run.sh [--first-failure] [--tap] [--refresh] [--protocol NAME]... [--vectors DIR]... BUILD_DIR
#
# Each folder conformance/mutants/NAME/ (but auto/, the automatic mutants) holds the mutants of protocol NAME
# (a name of PROTOCOLS in GNUmakefile, i.e. of BUILD_DIR/gen/protocols.c);
# they run against vectors/NAME. --protocol runs only the protocols named;
# --vectors replaces vectors/NAME (for every protocol run).
#
# For each patch: the shared files of reference/ (its top level and include/)
# and the protocol's own folder reference/NAME/ (when it has one) are copied
# to BUILD_DIR/mutants/NAME/MUTANT/src/reference, the patch is applied there
# (patch -p1; a patch that does not apply is an error), the file(s) it
# touches are compiled (every source, when it touches a header) and linked
# with the pristine objects of the rest and conformance/adapters/reference.c
# (the reference adapter, every protocol of the build) into
# BUILD_DIR/mutants/NAME/MUTANT/libtc_mutant.so, and BUILD_DIR/tracecert
# certify runs it against the vectors. The reference itself carries no
# mutation switch: the faults exist only in these copies.
#
# The copies leave out the lines that hold nothing but a spec-clause marker
# (TC_CLAUSE(…); / TC_CLAUSE_CASE(…);, reference/clause.h): they expand to
# nothing outside the coverage build, and without them the patches do not
# depend on where markers are added (each patch is a diff -u against the
# reference without them). A pristine copy made the same way must pass every
# vector of the protocol first (the control), so a copy that differs in
# behaviour from the reference stops the run.
#
# Verdicts:
#   killed    at least one failing comparison, and at least one vector passes
#   no-pass   fails, but passes nothing: the fault breaks everything, so it
#             proves nothing about the suite (a problem)
#   survived  no failing comparison (a problem: the suite misses the fault)
#   broken    only crashes / hangs / floods / adapter errors, which are not
#             kills (a problem)
#   no-patch  the patch does not apply to the current reference (a problem)
#   no-build  the mutant does not compile (a problem)
# --first-failure stops each certify run at its first failing comparison
# (make check); without it every vector runs (make mutants).
# --tap prints TAP instead (one test per mutant, ok when killed; the table
# as comments), for prove.
# --refresh rewrites a patch that applies only with fuzz (the reference moved
# around it) as a clean diff of the same change, keeping its header.
#
# Prints the kill table and `mutants: K killed of N (kill rate X%)`, the
# total over the protocols run. Exit status 0 when every mutant is killed,
# 1 otherwise, 2 for bad usage.
# Environment: CC (default cc), JOBS (parallel compiles, default: CPUs).

set -u

usage() {
	echo "usage: $0 [--first-failure] [--tap] [--refresh] [--protocol NAME]... [--vectors DIR]... BUILD_DIR" >&2
	exit 2
}

ff=
tap=0
refresh=0
vecdirs=
only=
while [ $# -gt 0 ]; do
	case $1 in
	--first-failure) ff=--first-failure; shift ;;
	--tap) tap=1; shift ;;
	--refresh) refresh=1; shift ;;
	--protocol)
		[ $# -ge 2 ] || usage
		only="$only $2"
		shift 2
		;;
	--vectors)
		[ $# -ge 2 ] || usage
		case $2 in /*) v=$2 ;; *) v=$(pwd)/$2 ;; esac
		vecdirs="$vecdirs $v"
		shift 2
		;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || usage

# Work from the project root; BUILD_DIR and --vectors are relative to the caller's directory.
case $1 in
/*) build=$1 ;;
*) build=$(pwd)/$1 ;;
esac
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
cd "$root" || exit 2

CC=${CC:-cc}
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
CFLAGS_M="-std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -fPIC -O1"
tool=$build/tracecert
. conformance/mutants/lib.sh
out=$build/mutants
protocols_c=$build/gen/protocols.c

if [ ! -x "$tool" ]; then
	echo "mutants: $tool not found (build it first)" >&2
	exit 2
fi
if [ ! -f "$protocols_c" ] || [ ! -f "$build/gen/include/tracecert/build.h" ]; then
	echo "mutants: $protocols_c or $build/gen/include/tracecert/build.h is missing (make builds them)" >&2
	exit 2
fi

# The protocols: a folder of patches each, named after a protocol of this build.
protocols=
for d in conformance/mutants/*/; do
	p=$(basename "$d")
	[ "$p" = auto ] && continue   # the automatic mutants (auto/run.sh), not a protocol
	if [ -n "$only" ]; then
		case " $only " in *" $p "*) ;; *) continue ;; esac
	fi
	if ! grep -q "^extern const struct tc_protocol tc_protocol_$p;" "$protocols_c"; then
		echo "mutants: conformance/mutants/$p/ is not a protocol of this build (PROTOCOLS)" >&2
		exit 2
	fi
	if [ -z "$(ls "$d"*.patch 2>/dev/null)" ]; then
		echo "mutants: no conformance/mutants/$p/*.patch" >&2
		exit 1
	fi
	protocols="$protocols $p"
done
for p in $only; do
	case " $protocols " in *" $p "*) ;; *) echo "mutants: no conformance/mutants/$p/" >&2; exit 2 ;; esac
done
if [ -z "$protocols" ]; then
	echo "mutants: no conformance/mutants/*/ folder of patches" >&2
	exit 1
fi

ref_srcs=$(ref_sources)

# touched PATCH: the reference files a patch changes (F of its +++ b/reference/F lines).
touched() {
	sed -n 's|^+++ b/reference/\([^[:space:]]*\).*|\1|p' "$1"
}

# refresh_patch PATCH DIR: the patch again, as a clean diff of DIR's patched copy.
refresh_patch() {
	tmp=$1.tmp
	sed -n '/^--- /q;p' "$1" >"$tmp"
	for t in $(touched "$1"); do
		diff -u --label "a/reference/$t" --label "b/reference/$t" \
			"$base/src/reference/$t" "$2/src/reference/$t" >>"$tmp"
		[ $? -eq 1 ] || { rm -f "$tmp"; return 1; }
	done
	mv "$tmp" "$1"
}

rm -rf "$out"   # no stale mutants from patches renamed or removed since
mkdir -p "$out" || exit 2

# ---- The control: a pristine copy of every source of every protocol, built
# the same way, passes every vector of each protocol run.
base=$out/.base
build_base "$base" "$protocols_c" "$build/gen/include" || exit 1
for p in $protocols; do
	certify_run "$p" "$base/libtc_mutant.so" "$base/certify-$p"
	if ! control_ok "$p" "$base/certify-$p"; then
		echo "mutants: the pristine reference (control) does not pass every $p vector:" >&2
		cat "$base/certify-$p.err" >&2
		exit 1
	fi
done

# ---- Every mutant: copy, patch (one after another), then compile in parallel.
names=
for p in $protocols; do
	for pf in conformance/mutants/"$p"/*.patch; do
		name=$p/$(basename "$pf" .patch)
		names="$names $name"
		dir=$out/$name
		rm -rf "$dir"
		mkdir -p "$dir/obj" || exit 2
		copy_ref "$dir/src" "$p" || exit 2
		if ! patch -p1 --batch --no-backup-if-mismatch -d "$dir/src" -i "$root/$pf" >"$dir/patch.log" 2>&1 ||
		   grep -q 'FAILED\|malformed\|Reversed' "$dir/patch.log"; then
			echo "mutants: $pf does not apply to the current reference:" >&2
			sed 's/^/  /' "$dir/patch.log" >&2
			echo no-patch >"$dir/state"
			continue
		fi
		if grep -q 'with fuzz' "$dir/patch.log"; then
			if [ $refresh -eq 1 ]; then
				refresh_patch "$pf" "$dir" || exit 1
				echo "mutants: $pf refreshed (it applied with fuzz)" >&2
			else
				echo "mutants: warning: $pf applies only with fuzz (run.sh --refresh rewrites it)" >&2
			fi
		fi
		echo ok >"$dir/state"
	done
done

# build_one NAME: compiles the files the patch touches (all of them when it
# touches a header: a file the copy does not hold, another protocol's, from
# the pristine copy with the mutant's headers), links them with the pristine
# objects of the rest.
build_one() {
	name=$1 dir=$out/$1
	files=$(touched "conformance/mutants/$name.patch")
	objs="$base/obj/protocols.o"
	all=0
	for t in $files; do
		case $t in *.h) all=1 ;; esac
	done
	for f in $ref_srcs; do
		o=${f%.c}.o
		mine=$all
		for t in $files; do [ "$t" = "$f" ] && mine=1; done
		if [ $mine -eq 0 ]; then
			objs="$objs $base/obj/$o"
		elif [ -f "$dir/src/reference/$f" ]; then
			compile "$dir/src/reference" "$f" "$dir/obj/$o" || return 1
			objs="$objs $dir/obj/$o"
		else
			compile "$dir/src/reference" "$f" "$dir/obj/$o" "$base/src/reference" || return 1
			objs="$objs $dir/obj/$o"
		fi
	done
	if [ $all -eq 1 ]; then
		$CC $CFLAGS_M -I"$dir/src/reference/include" -I"$dir/src/reference" -Iconformance/include -I"$build/gen/include" \
			-c conformance/adapters/reference.c -o "$dir/obj/adapter.o" || return 1
		objs="$objs $dir/obj/adapter.o"
	else
		objs="$objs $base/obj/adapter.o"
	fi
	# shellcheck disable=SC2086
	$CC -shared -o "$dir/libtc_mutant.so" $objs
}

running=0
pids=
for name in $names; do
	dir=$out/$name
	[ "$(cat "$dir/state")" = ok ] || continue
	(
		if build_one "$name" >"$dir/build.log" 2>&1; then
			echo built >"$dir/state"
		else
			echo no-build >"$dir/state"
		fi
	) &
	pids="$pids $!"
	running=$((running + 1))
	if [ $running -ge "$JOBS" ]; then
		for p in $pids; do wait "$p"; done
		pids=
		running=0
	fi
done
for p in $pids; do wait "$p"; done

# ---- Run them one after another and classify.
# say LINE: a table line (a TAP comment with --tap).
say() {
	if [ $tap -eq 1 ]; then echo "# $1"; else echo "$1"; fi
}
if [ $tap -eq 1 ]; then
	echo "TAP version 13"
	echo "1..$(echo $names | wc -w)"
fi
say "$(printf '%-44s %-9s %6s %6s  %s' mutant verdict passes fails "killed by (first failing vector)")"
total=0 killed=0
for name in $names; do
	dir=$out/$name
	proto=${name%%/*}
	total=$((total + 1))
	passes=- fails=- by=
	case $(cat "$dir/state") in
	no-patch) verdict=no-patch ;;
	no-build)
		verdict=no-build
		echo "mutants: $name does not compile:" >&2
		sed 's/^/  /' "$dir/build.log" >&2
		;;
	*)
		# shellcheck disable=SC2086
		certify_run "$proto" "$dir/libtc_mutant.so" "$dir/certify" $ff
		passes=$(count pass "$dir/certify")
		fails=$(count fail "$dir/certify")
		others=$(count_others "$dir/certify")
		by=$(awk '/^not ok /{ cur = $5 " " $6; next }
			/^  verdict: fail$/ && cur != "" { print cur; exit }' "$dir/certify.tap")
		if [ -z "$fails" ] || [ -z "$passes" ]; then
			verdict=broken
			by="certify: $(head -n 1 "$dir/certify.err")"
			passes=- fails=-
		elif [ "$fails" -gt 0 ]; then
			verdict=killed
			if [ "$passes" -eq 0 ] && [ -n "$ff" ]; then
				# stopped before anything passed: run every vector once to know
				certify_run "$proto" "$dir/libtc_mutant.so" "$dir/certify-full"
				passes=$(count pass "$dir/certify-full")
			fi
			[ "${passes:-0}" -gt 0 ] || verdict=no-pass
		elif [ "$others" -gt 0 ]; then
			verdict=broken
			by="only crash/hang/flood/adapter-error/runner-error ($others runs)"
		else
			verdict=survived
		fi
		;;
	esac
	[ "$verdict" = killed ] && killed=$((killed + 1))
	say "$(printf '%-44s %-9s %6s %6s  %s' "$name" "$verdict" "$passes" "$fails" "${by:--}")"
	if [ $tap -eq 1 ]; then
		if [ "$verdict" = killed ]; then
			echo "ok $total - $name killed by $by"
		else
			echo "not ok $total - $name $verdict"
		fi
	fi
done
say "$(awk -v k="$killed" -v n="$total" \
	'BEGIN { printf "mutants: %d killed of %d (kill rate %.1f%%)", k, n, n ? 100 * k / n : 0 }')"
[ "$killed" -eq "$total" ]
