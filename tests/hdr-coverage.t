# SPDX-License-Identifier: BSD-3-Clause
# Every header value 0x00-0xFF is a header in some vector of vectors/P/hdr, for every protocol P of
# PROTOCOLS that has that folder: a valid value decoded as its packet, a reserved one as its error,
# so that a decoder certified on the folder meets all 256. Which bytes are headers is read from the
# reference's L1 text (tracecert dump --vector: the header column, the byte at each line's offset);
# the reference only locates the headers here, the vectors' expected sections are checked elsewhere
# (tests/vectors.t). A protocol whose L1 record is a per-cycle status declares its own alphabet in
# vectors/P/hdr/headers.txt (below): then every value of it at every value of a configuration key,
# and, when the file lists them, every packet class its L1 text names (ETMv2: each first byte of a
# group, TFO value row and TFO header, by the fields the header byte sets).
. tests/lib/tap.sh
T="${TC_BUILD:-build}/tracecert"
protocols=$(sed -n 's/^PROTOCOLS := //p' GNUmakefile)
check "PROTOCOLS is read from GNUmakefile" test -n "$protocols"

# A protocol whose L1 record is a per-cycle status, not a header byte, declares what its headers are
# in vectors/P/hdr/headers.txt, one directive a line (# comments):
#   records SKIP KEY V=SIZE ...  every record of the sample file is a header: SKIP bytes of file
#                                header, then records of SIZE bytes, SIZE by the vector's [config] KEY
#   mask 0xM                     a header value is the record's first byte AND M
#   values H ...                 the header alphabet (lower-case hex as printf %x gives it); each must
#                                be a header at every V of KEY
#   packets CLASS ...            (any number of lines) packet classes that must each come in some
#                                vector's L1 text, as packet_classes (below) names its lines
# The records are read from the vector's [trace] bytes: with fixed-size records every record starts
# with its header, so no decoder is needed to locate them (the vector must still decode: exit status
# 0 or 1). Without the file a header is the two-hex-digit second token of an L1 line, 00-ff.
decl() { sed -n "s/^$1 //p" "$decl_file" | sed 's/#.*//'; }

# record_headers FILE: KEY=V:H for each record of FILE's [trace] whose masked status H is in values.
record_headers() {
	awk -v key="$(decl records | awk '{print $2}')" -v skip="$(decl records | awk '{print $1}')" \
	    -v sizes="$(decl records | cut -d' ' -f3-)" -v mask="$(decl mask)" -v values=" $(decl values) " '
	function hx(s,   i, v) { s = tolower(s); sub(/^0x/, "", s); v = 0
		for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v }
	function band(a, b,   r, bit) { r = 0; for (bit = 1; bit <= 128; bit *= 2) {
		if (int(a / bit) % 2 && int(b / bit) % 2) r += bit }
		return r }
	/^\[/ { sec = $0; next }
	sec == "[config]" && index($0, key "=") == 1 { kv = substr($0, length(key) + 2) }
	sec == "[trace]" { sub(/#.*/, ""); for (i = 1; i <= NF; i++) b[n++] = hx($i) }
	END {
		split(sizes, sz, " "); size = 0
		for (i in sz) { split(sz[i], p, "="); if (p[1] == kv) size = p[2] + 0 }
		if (size == 0) { print "no record size for " key "=" kv > "/dev/stderr"; exit 1 }
		for (o = skip + 0; o + size <= n; o += size) {
			h = sprintf("%x", band(b[o], hx(mask)))
			if (index(values, " " h " ")) print key "=" kv ":" h
		}
	}' "$1"
}

# packet_classes L1: the packet class of each L1 line of a per-cycle protocol whose packets start
# with a header byte (ETMv2, reference/etmv1/FORMAT.md "ETMv2 kinds" and "ETMv2 headers"): the kind
# with the fields its header byte sets (Table 6-2 L8670-8688 with the C bit, whether another packet
# of the item follows; a branch address's continue bit, more than one byte; Table 6-3's SS as the
# value's size, Table 6-6 L8972-8981's RR and LSiP bit), the row of Table 6-4 (L8869-8881) of a TFO
# value (no size: data values not traced), and the reserved encodings by their errors: a
# reserved-header error on a TFO cycle (status 7, ERRATA ETM2-P23) is a TFO header's, on any other
# a group's; bad-mode a Context ID header with no Context ID traced (L8828). The lines are the reference's
# reading; the vectors' expected sections, which tests/vectors.t holds it to, are the hand-reasoned
# ones.
packet_classes() {
	awk '
	function f(line, name,   n, t, i) { n = split(line, t, " ")
		for (i = 4; i <= n; i++) if (index(t[i], name "=") == 1) return substr(t[i], length(name) + 2)
		return "" }
	function sz(line) { return f(line, "size") == "" ? "" : ":size=" f(line, "size") }
	# the C bit of a group packet: 1 when the next line is a packet of the same item (ETM2-P3)
	function c(line, next_line,   a, b) { split(line, a, " "); split(next_line, b, " ")
		return ":c=" (b[1] == a[1] && b[3] ~ /^\+/ && b[3] != "+tfo-packet") }
	function classify(line, next_line,   t) { split(line, t, " ")
		if (t[3] == "+branch") print "branch:c=" (f(line, "n") > 1)
		if (t[3] == "+data") print "data" c(line, next_line) ":a=" f(line, "a") sz(line)
		if (t[3] == "+miss") print "miss" c(line, next_line) ":tag=" f(line, "tag") ":a=" f(line, "a")
		if (t[3] == "+miss-data") print "miss-data" c(line, next_line) ":tag=" f(line, "tag") sz(line)
		if (t[3] == "+not-traced") print "not-traced" c(line, next_line)
		if (t[3] == "+context-id") print "context-id" c(line, next_line)
		if (t[3] == "+tfo-packet") print "tfo-header:reason=" f(line, "reason") ":lsip=" f(line, "lsip")
		if (t[3] == "tfo") print "tfo-value:row=" int(f(line, "value") / 16)
		if (t[3] == "error" && t[4] == "class=reserved-header")
			print (t[2] == "7" ? "tfo-header" : "group-header") ":reserved"
		if (t[3] == "error" && t[4] == "class=reserved-tfo") print "tfo-value:reserved"
		if (t[3] == "error" && t[4] == "class=bad-mode") print "context-id:bad-mode"
	}
	NR > 1 { classify(prev, $0) }
	{ prev = $0 }
	END { if (NR) classify(prev, "") }
	' "$1"
}

# headers DIR: the header values of every vector in DIR (the L1 lines' header column, or the records
# of headers.txt), one a line, sorted and unique; fails when a vector does not decode (exit status 2)
# or DIR holds none.
headers() {
	ls "$1"/*.tcv >/dev/null 2>&1 || { echo "no vectors in $1" >&2; return 1; }
	: > "$tmp/hh"
	for f in "$1"/*.tcv; do
		"$T" dump --vector "$f" > "$tmp/l1" 2> "$tmp/l1.err"
		rc=$?
		if [ $rc -gt 1 ]; then echo "$f: tracecert dump exit $rc: $(cat "$tmp/l1.err")" >&2; return 1; fi
		if [ -f "$decl_file" ]; then
			record_headers "$f" >> "$tmp/hh" || return 1
			[ -z "$(decl packets)" ] || packet_classes "$tmp/l1" >> "$tmp/hh"
		else
			sed -n 's/^@[0-9][0-9]* \([0-9a-f][0-9a-f]\) .*/\1/p' "$tmp/l1" >> "$tmp/hh"
		fi
	done
	sort -u "$tmp/hh"
}

# alphabet: every header value the folder must hold, sorted.
alphabet() {
	if [ -f "$decl_file" ]; then
		key=$(decl records | awk '{print $2}')
		for kv in $(decl records | cut -d' ' -f3-); do
			for h in $(decl values); do echo "$key=${kv%%=*}:$h"; done
		done > "$tmp/ab"
		for c in $(decl packets); do echo "$c"; done >> "$tmp/ab"
		sort "$tmp/ab"
	else
		i=0
		while [ $i -lt 256 ]; do printf '%02x\n' $i; i=$((i + 1)); done
	fi
}

# missing DIR: the values of the alphabet that no vector of DIR has as a header (empty: all).
missing() {
	decl_file="$1/headers.txt"
	headers "$1" > "$tmp/seen" || return 1
	alphabet | comm -23 - "$tmp/seen"
}

# covers DIR: succeeds when every value of the alphabet is a header in DIR, else names the missing ones.
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
	check "$p: every header value is a header in vectors/$p/hdr" covers "vectors/$p/hdr"
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

# The declared alphabet can fail too: a folder holding vectors/etmv1/hdr's headers.txt and only its
# 8-bit vector (every status 0-7 at port_width=8) is 16 values short, all at port widths 4 and 16.
mkdir "$tmp/rec"
cp vectors/etmv1/hdr/headers.txt vectors/etmv1/hdr/pipestat-port8.tcv "$tmp/rec/"
check_rec() {
	! covers "$tmp/rec" > "$tmp/rec.out" || return 1
	cat "$tmp/rec.out"
	grep -q ': 16 header values never a header: port_width=16:0 .* port_width=4:7$' "$tmp/rec.out" &&
	  ! grep -q 'port_width=8' "$tmp/rec.out"
}
check "a folder with headers.txt and only pipestat-port8.tcv is 16 values short, at port_width=4 and 16" check_rec

# And its packet classes: vectors/etmv2/hdr without tfo-headers.tcv has every PIPESTAT at every
# width and every group header, but of Table 6-6's TFO headers only the normal one of reason b01
# (every other vector synchronises with it): 8 values short, all TFO headers.
mkdir "$tmp/pkt"
cp vectors/etmv2/hdr/headers.txt vectors/etmv2/hdr/*.tcv "$tmp/pkt/"
rm "$tmp/pkt/tfo-headers.tcv"
check_pkt() {
	! covers "$tmp/pkt" > "$tmp/pkt.out" || return 1
	cat "$tmp/pkt.out"
	grep -q ': 8 header values never a header: tfo-header:reason=0:lsip=0 tfo-header:reason=0:lsip=1 tfo-header:reason=1:lsip=1 .* tfo-header:reserved$' "$tmp/pkt.out" &&
	  ! grep -qE 'port_width|tfo-header:reason=1:lsip=0' "$tmp/pkt.out"
}
check "etmv2's hdr folder without tfo-headers.tcv is 8 TFO headers short, not reason b01's normal one" check_pkt
tap_done
