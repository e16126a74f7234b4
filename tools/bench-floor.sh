#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# bench-floor.sh — how fast the L1 row of `make bench` could get if the
# reference did less: the reference adapter is built again from copies of
# reference/ with each tools/floor/PROTOCOL/*.patch applied, and each build is
# measured against OpenCSD with `tracecert bench --only l1 --protocol PROTOCOL`
# (the same workload, alternating runs, ratio run by run).
#
#   bench-floor.sh [--check | --callgrind] BUILD_DIR [tracecert bench options, e.g. --runs 5]
#
# The patched builds are not decoders: they drop work the reference must do
# (each tools/floor/PROTOCOL/README.md says what each of its patches drops).
# They bound what any speed-up of those parts could give (README "Why L1 is
# far from 3x").
#
# --check only tests that every patch still applies (tests/bench-floor.t).
# --callgrind counts instructions instead of timing (valgrind; repeatable where
# timings drift): each build, and OpenCSD, decodes 1 MiB of the workload at L1
# under callgrind, counting only inside the adapters' feed and finish; prints
# instructions per byte fed.
# Environment: CC (default cc), CFLAGS (default: the project's -O3 flags),
# VALGRIND (default valgrind).
# Needs BUILD_DIR/tracecert, and libopencsd-dev for the OpenCSD column.
# Exit status 0, 1 when a patch does not apply or a build fails, 2 for bad usage.

set -u

usage() {
	echo "usage: $0 [--check | --callgrind] BUILD_DIR [tracecert bench options]" >&2
	exit 2
}

check=0
callgrind=0
case ${1:-} in
--check) check=1; shift ;;
--callgrind) callgrind=1; shift ;;
esac
[ $# -ge 1 ] || usage
case $1 in -*) usage ;; esac
build=$1
shift
CC=${CC:-cc}
VALGRIND=${VALGRIND:-valgrind}
CFLAGS=${CFLAGS:-"-std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -O3 -g"}
patches=$(ls tools/floor/*/*.patch 2>/dev/null)
[ -n "$patches" ] || { echo "bench-floor: no tools/floor/*/*.patch (run from the top of the tree)" >&2; exit 2; }
protocols=$(sed -n 's/^PROTOCOLS := //p' GNUmakefile)

# The protocol a patch is for: the name of its folder under tools/floor.
patch_protocol() {
	basename "$(dirname "$1")"
}
if [ $callgrind -eq 1 ] && ! command -v "$VALGRIND" >/dev/null; then
	echo "bench-floor: --callgrind needs valgrind ('$VALGRIND' not found; apt-get install valgrind)" >&2
	exit 1
fi

# Copies reference/ to $1/src and applies patch $2 there; 0 when it applies cleanly.
prepare() {
	rm -rf "$1" && mkdir -p "$1/src" && cp -r reference "$1/src/" || return 1
	(cd "$1/src" && patch -s -p1 --no-backup-if-mismatch -F0 >/dev/null) < "$2"
}

# Builds $1/libtc_floor.so from $1/src/reference and the reference adapter.
build_so() {
	mkdir -p "$1/obj" || return 1
	# every file of the reference and of its protocol folders (reference/P/ for each P of
	# PROTOCOLS that has one), and the protocol list
	sh tools/gen-protocols.sh $protocols > "$1/protocols.c" || return 1
	mkdir -p "$1/include/tracecert" || return 1
	sh tools/gen-protocols.sh --build-header VERSION $protocols > "$1/include/tracecert/build.h" || return 1
	for c in "$1"/src/reference/*.c $(for q in $protocols; do echo "$1/src/reference/$q/"*.c; done) "$1/protocols.c"; do
		$CC $CFLAGS -fPIC -I"$1/src/reference/include" -I"$1/src/reference" -Iconformance/include \
			-c "$c" -o "$1/obj/$(basename "$c" .c).o" || return 1
	done
	$CC $CFLAGS -fPIC -Ireference/include -Iconformance/include -I"$1/include" \
		-c conformance/adapters/reference.c -o "$1/obj/adapter.o" || return 1
	$CC -shared -Wl,-Bsymbolic -o "$1/libtc_floor.so" "$1"/obj/*.o
}

status=0
for p in $patches; do
	name=$(patch_protocol "$p")-$(basename "$p" .patch)
	dir=$build/floor/$name
	if ! prepare "$dir" "$p"; then
		echo "bench-floor: $p does not apply cleanly to reference/ (refresh it: diff -u against a copy)" >&2
		status=1
		continue
	fi
	if [ $check -eq 1 ]; then
		echo "bench-floor: $name applies"
		continue
	fi
	if ! build_so "$dir"; then
		echo "bench-floor: $name does not build" >&2
		status=1
		continue
	fi
done
[ $check -eq 1 ] || [ $status -ne 0 ] && exit $status

[ -x "$build/tracecert" ] || { echo "bench-floor: $build/tracecert is missing (make)" >&2; exit 1; }
oc=$build/adapters/libtc_opencsd.so

# Instructions per byte of one adapter ($2) at L1 over 1 MiB of protocol $3's workload (callgrind,
# inside feed/finish only), printed under the name $1.
count() {
	out=$build/floor/callgrind/$1
	rm -rf "$out" && mkdir -p "$out" || return 1
	$VALGRIND --tool=callgrind --callgrind-out-file="$out/cg.%p" \
		--toggle-collect=ref_feed --toggle-collect=ref_finish \
		--toggle-collect=oc_feed --toggle-collect=oc_finish \
		"$build/tracecert" bench --reference "$2" --protocol "$3" --only l1 --size 1 --runs 1 >"$out/bench.txt" 2>"$out/valgrind.txt" || return 1
	# one file per process: the bench and its measuring child; the child's holds the count
	total=$(cat "$out"/cg.* | sed -n 's/^totals: *//p' | sort -n | tail -1)
	[ -n "$total" ] && [ "$total" -gt 0 ] || return 1
	awk -v t="$total" -v n="$1" 'BEGIN { printf "%-16s %14d %8.1f\n", n, t, t / 1048576 }'
}

if [ $callgrind -eq 1 ]; then
	printf "%-16s %14s %8s\n" "build" "instructions" "per byte"
	for proto in $(for p in $patches; do patch_protocol "$p"; done | sort -u); do
		count "$proto-reference" "$build/adapters/libtc_reference.so" "$proto" || status=1
		for p in $patches; do
			[ "$(patch_protocol "$p")" = "$proto" ] || continue
			name=$proto-$(basename "$p" .patch)
			count "$name" "$build/floor/$name/libtc_floor.so" "$proto" || status=1
		done
		if [ -f "$oc" ]; then
			count "$proto-OpenCSD" "$oc" "$proto" || status=1
		else
			echo "OpenCSD          not installed (apt-get install libopencsd-dev; make bench)"
		fi
	done
	[ $status -eq 0 ] || echo "bench-floor: a callgrind run failed (see $build/floor/callgrind/*/valgrind.txt)" >&2
	exit $status
fi
# the OpenCSD column: its adapter when built, else 'not installed'
if [ -f "$oc" ]; then
	set -- --opencsd "$oc" "$@"
else
	echo "bench-floor: $oc is missing: OpenCSD column 'not installed' (apt-get install libopencsd-dev; make bench)"
fi
for proto in $(for p in $patches; do patch_protocol "$p"; done | sort -u); do
	echo "== $proto: the reference as it is"
	"$build/tracecert" bench --reference "$build/adapters/libtc_reference.so" --protocol "$proto" --only l1 "$@" || exit 1
	for p in $patches; do
		[ "$(patch_protocol "$p")" = "$proto" ] || continue
		name=$proto-$(basename "$p" .patch)
		echo "== $name (not a decoder: $(sed -n 's/.*floor: //p' "$p" | sed 's/ *\*\/.*//' | paste -sd';' - | sed 's/;/; /g'))"
		"$build/tracecert" bench --reference "$build/floor/$name/libtc_floor.so" --protocol "$proto" --only l1 "$@" || exit 1
	done
done
