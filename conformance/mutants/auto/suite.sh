# SPDX-License-Identifier: BSD-3-Clause
# suite.sh — "the whole suite" against a copy of the reference, for the automatic mutants
# (sourced by run.sh and one.sh beside it): every unit test program of the reference
# (every reference/test/unit_NAME.c but other protocols' unit_<q>.c, run with the arguments
# of its tests/unit_NAME.t; the instruction and image tables included), vectest over the
# protocol's vectors (every expect section: s1 and l2 too, which certify does not score) and
# the protocol's encoder round trip when it has an encoder (500 seeds: decode the encoder's
# random trace whole, byte by byte and in chunks, compare with its ground truth). The test
# programs are linked from their own objects in BUILD_DIR/obj (make tests), suite_link (the runner's objects and the encoder
# library) and the mutant's reference objects. Not included: the CLI, certify-runner, fuzz
# regression and install tests (they check the tools, not the decoder's output).

# suite_run PROTOCOL DIR OBJS (all: the protocols of the build): links the test programs with the reference objects OBJS in
# DIR/suite and runs each (120 s at most); prints the first that fails and returns 1, or
# returns 0. The programs are removed afterwards, their output kept.
suite_run() {
	sp=$1 sd=$2/suite sobjs=$3
	mkdir -p "$sd" || return 1
	# the unit tests' shared helpers (tap.c, l3case.c), linked into every unit test as the GNUmakefile does
	tapo="$build/obj/reference/test/tap.o $build/obj/reference/test/l3case.o"
	units=
	for u in reference/test/unit_*.c; do
		u=$(basename "$u" .c)
		case " $(echo $all) " in *" ${u#unit_} "*) [ "$u" = "unit_$sp" ] || continue ;; esac
		units="$units $u"
	done
	for t in $units vectest roundtrip; do
		args=
		case $t in
		unit_*) main="$build/obj/reference/test/$t.o $tapo" ;;
		vectest) main=$build/obj/conformance/vectest.o args=vectors/$sp ;;
		roundtrip)
			# a protocol without an encoder (no encoder/P/*.c, as the GNUmakefile tells) has no round trip
			set -- encoder/"$sp"/*.c
			[ -f "$1" ] || continue
			main=$build/obj/encoder/test/roundtrip.o args="--protocol $sp 1 500"
			;;
		esac
		set -- $main
		[ -f "$1" ] || continue
		case $t in
		unit_*) args=$(sed -n "s|^exec \"\${TC_BUILD:-build}/test/$t\" *||p" "tests/$t.t" 2>/dev/null) ;;
		esac
		# shellcheck disable=SC2086
		if ! $CC -o "$sd/$t" $main $sobjs $suite_link -ldl >"$sd/$t.out" 2>&1; then
			echo "$t (does not link)"
			return 1
		fi
		# shellcheck disable=SC2086
		timeout 120 "$sd/$t" $args >"$sd/$t.out" 2>&1
		rc=$?
		rm -f "$sd/$t"
		if [ $rc -ne 0 ]; then
			echo "$t"
			return 1
		fi
	done
	return 0
}
