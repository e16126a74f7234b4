# SPDX-License-Identifier: BSD-3-Clause
# Every header value 0x00-0xFF is a header in some vector of vectors/P/hdr, for every protocol P of
# PROTOCOLS that has that folder: a valid value decoded as its packet, a reserved one as its error,
# so that a decoder certified on the folder meets all 256. Which bytes are headers is read from the
# reference's L1 text (tracecert dump --vector: the header column, the byte at each line's offset);
# the reference only locates the headers here, the vectors' expected sections are checked elsewhere
# (tests/vectors.t).
. tests/lib/tap.sh
T="${TC_BUILD:-build}/tracecert"
protocols=$(sed -n 's/^PROTOCOLS := //p' GNUmakefile)
check "PROTOCOLS is read from GNUmakefile" test -n "$protocols"

# headers DIR: the header values of the L1 lines of every vector in DIR, one lower-case hex pair a
# line, sorted and unique; fails when a vector does not decode (exit status 2) or DIR holds none.
headers() {
	ls "$1"/*.tcv >/dev/null 2>&1 || { echo "no vectors in $1" >&2; return 1; }
	: > "$tmp/hh"
	for f in "$1"/*.tcv; do
		"$T" dump --vector "$f" > "$tmp/l1" 2> "$tmp/l1.err"
		rc=$?
		if [ $rc -gt 1 ]; then echo "$f: tracecert dump exit $rc: $(cat "$tmp/l1.err")" >&2; return 1; fi
		sed -n 's/^@[0-9][0-9]* \([0-9a-f][0-9a-f]\) .*/\1/p' "$tmp/l1" >> "$tmp/hh"
	done
	sort -u "$tmp/hh"
}

# missing DIR: the values of 00..ff that no vector of DIR has as a header (empty: all 256).
missing() {
	headers "$1" > "$tmp/seen" || return 1
	i=0
	while [ $i -lt 256 ]; do printf '%02x\n' $i; i=$((i + 1)); done | comm -23 - "$tmp/seen"
}

# covers DIR: succeeds when all 256 values are headers in DIR, else names the missing ones.
covers() {
	m=$(missing "$1") || return 1
	if [ -n "$m" ]; then
		echo "$1: $(echo "$m" | wc -l) header values never a header: $(echo $m)"
		return 1
	fi
}

folders=0
for p in $protocols; do
	if [ ! -d "vectors/$p/hdr" ]; then
		echo "# $p: no vectors/$p/hdr folder, not checked"
		continue
	fi
	folders=$((folders + 1))
	check "$p: every header value 00-ff is a header in vectors/$p/hdr" covers "vectors/$p/hdr"
done
check "at least one protocol has a hdr folder" test $folders -gt 0

# The check can fail: a folder holding only the vector of Trigger, Ignore and Exception return
# (after its A-sync) has four header values, 00 0c 66 76, and is 252 short, named.
mkdir "$tmp/cut"
cp vectors/ptm/hdr/0c-66-76-trigger-ignore-eret.tcv "$tmp/cut/"
check_cut() {
	! covers "$tmp/cut" > "$tmp/cut.out" || return 1
	cat "$tmp/cut.out"
	grep -q ': 252 header values never a header: 01 02 03 04 05 06 07 08 09 0a 0b 0d ' "$tmp/cut.out" &&
	  ! grep -qE ' (00|0c|66|76)( |$)' "$tmp/cut.out"
}
check "a folder with only 0c-66-76-trigger-ignore-eret.tcv is 252 values short, 00 0c 66 76 not among them" check_cut
tap_done
