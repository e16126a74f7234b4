# SPDX-License-Identifier: BSD-3-Clause
# The shared code names no protocol: for every protocol p of PROTOCOLS (GNUmakefile), neither its
# identifiers (tc_p_…, TC_P_…, tc_proto_p, tracecert/p.h, p_config.h, encoder_p.h) nor its name
# anywhere else — as a word in any case ("p", 'ete,ptm', "ETE", "PTM"), as a prefix (p_parse,
# P_1, p_0.ini) or a part of a name (oc_p, twin_rules_p, opencsd_p.c), in a path (reference/p/FORMAT.md, fuzz/p/) or by another name of it (ptm: PFT) —
# appears in the shared sources: the top level of reference/, encoder/, conformance/ (with the
# reference adapter, OpenCSD's shared part opencsd_common.* and the RES0 twins' driver), fuzz/,
# tools/ (with the shared part of the instruction vectors' programs, tools/vecgen/insn_*) and
# coverage/, C and scripts and make fragments alike, their comments included, GNUmakefile, and the
# shared public headers: every tracecert/*.h of reference/include, conformance/include and
# encoder/include but a protocol's own (tracecert/p.h, p_config.h, encoder_p.h). A protocol's own
# folders (reference/p/, encoder/p/, fuzz/p/, tools/floor/p/ …), its public headers, its
# field-decoder adapter, the tests and the generated tables (build/gen/) are where it is named on
# purpose.
#
# ALLOWED lists the few lines that must name a protocol, each with its reason (PATH, an extended
# regular expression the line matches, the reason); an entry that matches nothing fails the test.
# PENDING lists the shared files that still name a protocol while they are being made
# protocol-neutral; a file listed there that no longer names one fails the test (take it off).
. tests/lib/tap.sh
PENDING=""
ALLOWED="GNUmakefile	^PROTOCOLS := 	the one list of the build's protocols
reference/include/tracecert/trace.h	^[[:space:]]*tc_proto_[a-z0-9]+ = [0-9]+,	enum tc_protocol_id: the number of every protocol, in the header every protocol and adapter shares (the ABI); it names each protocol by necessity, so its lines alone are excepted"
protocols=$(sed -n 's/^PROTOCOLS := //p' GNUmakefile)
# A staged protocol (reference/p/ holds C, p is not in PROTOCOLS yet: GNUmakefile's STAGED) owns its
# public headers as well.
staged=$(for d in reference/*/; do p=${d%/}; p=${p##*/}; ls "$d"*.c > /dev/null 2>&1 && echo "$p"; done)
# own_header FILE: FILE is a protocol's own public header (tracecert/p.h, p_config.h, encoder_p.h).
own_header() {
	for p in $protocols $staged; do
		case ${1##*/} in "$p.h"|"${p}_config.h"|"encoder_$p.h") return 0 ;; esac
	done
	return 1
}
headers=$(for h in reference/include/tracecert/*.h conformance/include/tracecert/*.h encoder/include/tracecert/*.h; do
	[ -f "$h" ] && ! own_header "$h" && echo "$h"; done)
shared=$(ls reference/*.[ch] encoder/*.[ch] fuzz/*.[ch] conformance/*.[ch] tools/*.[ch] coverage/*.[ch] \
	conformance/adapters/opencsd_common.[ch] conformance/adapters/reference.c conformance/test/twins.[ch] \
	tools/vecgen/insn_*.[ch] \
	reference/*.sh encoder/*.sh fuzz/*.sh fuzz/*.mk fuzz/*.t conformance/*.sh conformance/mutants/*.sh \
	conformance/mutants/auto/*.sh conformance/mutants/auto/*.py tools/*.sh coverage/*.sh coverage/*.mk \
	GNUmakefile 2>/dev/null)
shared="$shared
$headers"
check "PROTOCOLS is read from GNUmakefile" test -n "$protocols"
check "there are shared sources to search" test -n "$shared"
check "the shared public headers are searched: trace.h, protocol.h, adapter.h and encoder.h among them" sh -c \
	"for h in reference/include/tracecert/trace.h reference/include/tracecert/protocol.h conformance/include/tracecert/adapter.h encoder/include/tracecert/encoder.h; do printf '%s\n' \"\$1\" | grep -qx \"\$h\" || exit 1; done" sh "$headers"
check "a protocol's own public headers are not (tracecert/p.h, p_config.h, encoder_p.h)" sh -c \
	"! printf '%s\n' \"\$1\" | grep -E '/(encoder_)?($(echo $protocols | tr ' ' '|'))(_config)?\.h$'" sh "$headers"
# Other names a protocol goes by (the words its own documents use).
aliases() {
	case $1 in
	ptm) echo PFT ;;
	esac
}
pattern() {
	P=$(echo "$1" | tr a-z A-Z)
	a=
	for w in $(aliases "$1"); do a="$a|\\b$w\\b|\\b${w}_"; done
	printf '%s\n' "\\b(tc|TC)_($1|$P)_[A-Za-z0-9_]*|\\btc_proto_$1\\b|tracecert/(encoder_)?$1(_config)?\\.h|\\b($1|$P)\\b|\\b($1|$P)_[A-Za-z0-9]|_($1|$P)(_|\\b)|/$1/$a"
}
is_pending() {
	case " $PENDING " in *" $1 "*) return 0 ;; esac
	return 1
}
# The hits of file $1 (grep -n lines) that no entry of ALLOWED for that file allows.
not_allowed() {
	printf '%s\n' "$2" | while IFS= read -r line; do
		[ -n "$line" ] || continue
		text=${line#*:}
		ok=0
		while IFS='	' read -r path re why; do
			[ "$path" = "$1" ] && printf '%s\n' "$text" | grep -qE -- "$re" && ok=1
		done <<EOF
$ALLOWED
EOF
		[ $ok = 1 ] || printf '%s\n' "$line"
	done
}
for f in $shared; do
	hits=
	for p in $protocols; do
		h=$(grep -nE "$(pattern "$p")" "$f")
		[ -n "$h" ] && hits="$hits$h
"
	done
	hits=$(not_allowed "$f" "$hits" | head -n 5)
	if is_pending "$f"; then
		check "$f (pending) still names a protocol; take it off PENDING once it does not" test -n "$hits"
	else
		check "$f names no protocol" sh -c "printf '%s\\n' \"\$1\"; test -z \"\$1\"" sh "$hits"
	fi
done
for f in $PENDING; do
	check "$f (pending) exists" test -f "$f"
done
# Every entry of ALLOWED is still needed: its file has a line it allows that names a protocol.
while IFS='	' read -r path re why; do
	all=$(for p in $protocols; do grep -E "$(pattern "$p")" "$path"; done)
	check "allowed in $path ($why): still there" sh -c "printf '%s\n' \"\$1\" | grep -qE -- \"\$2\"" sh "$all" "$re"
done <<EOF
$ALLOWED
EOF
# The search finds what it looks for (a check that cannot fail is none).
for p in $protocols; do
	P=$(echo "$p" | tr a-z A-Z)
	for w in "tc_${p}_x" "TC_${P}_X" "tc_proto_$p" "#include \"tracecert/$p.h\"" "tracecert/encoder_$p.h" "find(\"$p\")" \
		"see reference/$p/ERRATA.md" "${p}_parse.o" "(${p},other)" "the $P decoder" "${P}_1" "fuzz/$p/fuzz.mk" "&oc_$p," "opencsd_$p.c" "oc_${p}_unsupported" \
		$(for a in $(aliases "$p"); do echo "$a"; done); do
		check "the pattern of $p finds '$w'" sh -c "printf '%s\n' \"\$1\" | grep -qE \"\$2\"" sh "$w" "$(pattern "$p")"
	done
done
# … and nothing in words that merely contain a protocol's name.
for w in "protocol" "the ptmx device" "deleted_x" "complete" "concrete/x"; do
	found=
	for p in $protocols; do printf '%s\n' "$w" | grep -qE "$(pattern "$p")" && found="$found $p"; done
	check "no protocol's pattern finds '$w'" test -z "$found"
done
tap_done
