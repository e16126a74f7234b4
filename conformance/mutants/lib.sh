# SPDX-License-Identifier: BSD-3-Clause
# lib.sh — shell functions shared by the mutant runners (conformance/mutants/run.sh, the hand-written
# patches, and conformance/mutants/auto/run.sh, the automatic operator mutants). Sourced from the
# top of the tree with set: CC, CFLAGS_M, tool (BUILD_DIR/tracecert), vecdirs (empty: vectors/<p>).

# copy_ref [--keep-markers] DIR [PROTOCOL]: reference/ copied to DIR/reference: its top-level
# files and include/, and every protocol folder (no PROTOCOL) or only PROTOCOL's. Without
# --keep-markers the lines holding nothing but a spec-clause marker are left out.
copy_ref() {
	keep=0
	[ "$1" = --keep-markers ] && { keep=1; shift; }
	mkdir -p "$1/reference" || return 1
	dirs=reference/include
	for d in reference/*/; do
		d=${d%/}
		case ${d#reference/} in
		include | test) continue ;;
		esac
		[ $# -lt 2 ] || [ "${d#reference/}" = "$2" ] || continue
		dirs="$dirs $d"
	done
	# a few processes, not one a file: this runs once for every mutant
	find reference -maxdepth 1 -type f ! -name '.*' -exec cp -t "$1/reference/" {} + || return 1
	# shellcheck disable=SC2086
	cp -R $dirs "$1/reference/" || return 1
	[ $keep -eq 1 ] && return 0
	marked=$(grep -rl --include='*.[ch]' 'TC_CLAUSE' "$1/reference") || return 0
	# shellcheck disable=SC2086
	sed -i '/^[[:space:]]*TC_CLAUSE\(_CASE\)\{0,1\}(.*);[[:space:]]*$/d' $marked
}

# compile REFDIR FILE.c OBJ [SRCDIR]: one object of the reference; the headers
# come from REFDIR, the source from SRCDIR (default REFDIR).
compile() {
	mkdir -p "$(dirname "$3")" &&
		$CC $CFLAGS_M -I"$1/include" -I"$1" -Iconformance/include -c "${4:-$1}/$2" -o "$3"
}

# certify_run PROTOCOL SO LOGPREFIX [CERTIFY OPTION]...: runs the protocol's
# vectors (vectors/PROTOCOL, or vecdirs); LOGPREFIX.tap, LOGPREFIX.err. With certify_cap
# set, the whole run stops after that many seconds (then the summary line is missing).
certify_run() {
	p=$1 so=$2 log=$3
	shift 3
	va=
	if [ -n "$vecdirs" ]; then
		for v in $vecdirs; do va="$va --vectors $v"; done
	else
		va="--vectors vectors/$p"
	fi
	# shellcheck disable=SC2086
	${certify_cap:+timeout -k 5 "$certify_cap"} "$tool" certify --adapter "$so" $va --tap --timeout 5 "$@" >"$log.tap" 2>"$log.err"
}

# count WORD LOGPREFIX: a number from the runner's summary line
# ("certify: NAME: P pass, F fail, C crash, H hang, X flood, E adapter-error, R runner-error, U unsupported, M malformed; …").
count() {
	sed -n "s/^certify: .*[:,] \([0-9][0-9]*\) $1[,;].*/\1/p" "$2.err" | head -n 1
}

# count_others LOGPREFIX: the runs that ended in a crash, hang, flood, adapter or runner error.
count_others() {
	others=0
	for w in crash hang flood adapter-error runner-error malformed; do
		c=$(count "$w" "$1")
		others=$((others + ${c:-0}))
	done
	echo $others
}

# ref_sources: every .c of reference/ and of its protocol folders (not its tests), relative to reference/.
ref_sources() {
	(cd reference && for f in *.c */*.c; do
		case $f in test/*) ;; *) [ -f "$f" ] && echo "$f" ;; esac
	done)
}

# build_base DIR PROTOCOLS_C GEN_INCLUDE [--keep-markers]: the pristine copy of the reference
# in DIR/src, every object in DIR/obj (protocols.o, adapter.o, one per source), and
# DIR/libtc_mutant.so linked from them. Sets base_objs (every object but the adapter's).
build_base() {
	bdir=$1 pc=$2 geninc=$3
	copy_ref ${4:-} "$bdir/src" || return 1
	mkdir -p "$bdir/obj" || return 1
	bpids=
	$CC $CFLAGS_M -I"$bdir/src/reference/include" -c "$pc" -o "$bdir/obj/protocols.o" &
	bpids="$bpids $!"
	for f in $(ref_sources); do
		compile "$bdir/src/reference" "$f" "$bdir/obj/${f%.c}.o" &
		bpids="$bpids $!"
	done
	$CC $CFLAGS_M -I"$bdir/src/reference/include" -I"$bdir/src/reference" -Iconformance/include -I"$geninc" \
		-c conformance/adapters/reference.c -o "$bdir/obj/adapter.o" &
	bpids="$bpids $!"
	bbad=0
	for bp in $bpids; do wait "$bp" || bbad=1; done
	if [ $bbad -ne 0 ]; then
		echo "mutants: the pristine reference does not compile" >&2
		return 1
	fi
	base_objs="$bdir/obj/protocols.o"
	for f in $(ref_sources); do base_objs="$base_objs $bdir/obj/${f%.c}.o"; done
	# shellcheck disable=SC2086
	$CC -shared -o "$bdir/libtc_mutant.so" "$bdir/obj/adapter.o" $base_objs
}

# control_ok PROTOCOL LOGPREFIX: the control's certify run passed every vector and nothing else.
control_ok() {
	cfail=$(count fail "$2")
	cpass=$(count pass "$2")
	[ -n "$cfail" ] && [ "$cfail" -eq 0 ] && [ "${cpass:-0}" -gt 0 ] &&
		grep -q ' 0 crash, 0 hang, 0 flood, 0 adapter-error, 0 runner-error, 0 unsupported' "$2.err"
}
