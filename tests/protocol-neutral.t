# The shared code names no protocol: for every protocol p of PROTOCOLS (GNUmakefile), none of
# its identifiers (tc_p_…, TC_P_…, tc_proto_p, tracecert/p.h, p_config.h, encoder_p.h, the
# string "p") appears in the shared sources: the top level of reference/, encoder/, fuzz/,
# conformance/, tools/ and coverage/. A protocol's own folders (reference/p/, encoder/p/,
# fuzz/p/), its public headers, its field-decoder adapter, the tests and the generated tables
# are where it is named on purpose.
#
# PENDING lists the shared files that still name a protocol while they are being made
# protocol-neutral; a file listed there that no longer names one fails the test (take it off).
. tests/lib/tap.sh
PENDING=""
protocols=$(sed -n 's/^PROTOCOLS := //p' GNUmakefile)
shared=$(ls reference/*.[ch] encoder/*.[ch] fuzz/*.[ch] conformance/*.[ch] tools/*.[ch] coverage/*.[ch] 2>/dev/null)
check "PROTOCOLS is read from GNUmakefile" test -n "$protocols"
check "there are shared sources to search" test -n "$shared"
pattern() {
	P=$(echo "$1" | tr a-z A-Z)
	printf '%s\n' "\\b(tc|TC)_($1|$P)_[A-Za-z0-9_]*|\\btc_proto_$1\\b|tracecert/(encoder_)?$1(_config)?\\.h|\"$1\""
}
is_pending() {
	case " $PENDING " in *" $1 "*) return 0 ;; esac
	return 1
}
for f in $shared; do
	hits=
	for p in $protocols; do
		h=$(grep -nE "$(pattern "$p")" "$f" | head -n 3)
		[ -n "$h" ] && hits="$hits$h
"
	done
	if is_pending "$f"; then
		check "$f (pending) still names a protocol; take it off PENDING once it does not" test -n "$hits"
	else
		check "$f names no protocol" sh -c "printf '%s' \"\$1\"; test -z \"\$1\"" sh "$hits"
	fi
done
for f in $PENDING; do
	check "$f (pending) exists" test -f "$f"
done
# The search finds what it looks for (a check that cannot fail is none).
for p in $protocols; do
	P=$(echo "$p" | tr a-z A-Z)
	check "the pattern of $p finds tc_${p}_x, TC_${P}_X, tc_proto_$p, tracecert/$p.h, encoder_$p.h and \"$p\"" sh -c \
		"for w in 'tc_${p}_x' 'TC_${P}_X' 'tc_proto_$p' '#include \"tracecert/$p.h\"' 'tracecert/encoder_$p.h' 'find(\"$p\")'; do echo \"\$w\" | grep -qE '$(pattern "$p")' || exit 1; done"
done
tap_done
