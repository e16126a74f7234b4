# SPDX-License-Identifier: BSD-3-Clause
# Every multi-byte PFT/PTM packet form has a vector under vectors/ptm whose stream ends inside it, so a
# decoder certified on the folder is scored on a cut of each (reference/ptm/FORMAT.md "Error classes":
# truncated, at the offset of the cut packet's header). Where each cut lands is worked out here from the
# vectors' own bytes and [config], by the packet layouts of reference/ptm/ptm_parse.c's comments
# (IHI 0035B Table 4.1, ERRATA PTM-P3, P6-P9, S4), never by a decoder: for each `@N HH error
# class=truncated` line of an [expect.l1], the bytes from N to the end of [trace] are the cut packet.
. tests/lib/tap.sh

# forms FILE...: one "FORM FILE" line per truncated error of each vector.
forms() {
	awk '
	function hex(s) { return index("0123456789abcdef", substr(s, 1, 1)) * 16 + index("0123456789abcdef", substr(s, 2, 1)) - 17 }
	function bit(v, i) { return int(v / 2 ^ i) % 2 }
	# The number of address bytes of a section whose first byte is b[at]: while bit 7, at most 5.
	function addr_len(at,   k) { k = 1; while (k < 5 && at + k - 1 < nb && bit(b[at + k - 1], 7)) k++; return k }
	# Bytes of a cycle count starting at b[at] (first: bit 6 more; then bit 7; at most 5), or 99 when cut.
	function cc_len(at,   k, more) {
		if (at >= nb) return 99
		more = bit(b[at], 6); k = 1
		while (more && k < 5) { if (at + k >= nb) return 99; more = bit(b[at + k], 7); k++ }
		return k
	}
	function classify(o,   h, m, n, info, p, ts, i, ca) {
		h = b[o]; m = nb - o; ca = cfg["cycle_accurate"]
		if (h == 0) return "async"
		if (h == 8) {
			if (m < 6) return "isync-address"
			p = o + 6
			if (ca && int(b[o + 5] / 32) % 4 != 0) { if (cc_len(p) == 99) return "isync-cycle-count"; p += cc_len(p) }
			return "isync-context-id"
		}
		if (h == 60) return "vmid"                         # 0x3c
		if (h == 110) return "context-id-" cfg["contextid_size"]   # 0x6e
		if (h == 66 || h == 70) {                        # 0x42, 0x46
			ts = cfg["ts64"] ? 9 : 7
			for (i = 1; i <= ts; i++) { if (o + i >= nb) return "timestamp-" (cfg["ts64"] ? 64 : 48); if (!bit(b[o + i], 7)) break }
			return "timestamp-cycle-count"
		}
		if (h == 114) {                                   # 0x72
			if (m < 2) return "waypoint-update-0"
			n = addr_len(o + 1)
			if (m - 1 < n) return "waypoint-update-" (m - 1)
			return "waypoint-update-information"
		}
		if (bit(h, 0)) {
			n = addr_len(o)
			if (m < n) return "branch-address"
			info = n == 1 ? 0 : bit(b[o + n - 1], 6)
			p = o + n
			if (info) {
				if (p >= nb) return "branch-exception-0"
				if (bit(b[p], 7)) { if (p + 1 >= nb) return "branch-exception-1"; p++ }
				p++
			}
			return ca ? "branch-cycle-count" : "branch-?"
		}
		if (bit(h, 7)) return ca ? "atom-cycle-count" : "atom-?"
		return "other-" h
	}
	function done(   i) { for (i = 1; i <= ne; i++) print classify(err[i]), file }
	FNR == 1 { if (file != "") done(); file = FILENAME; nb = 0; ne = 0; sec = ""; delete cfg }
	/^\[/ { sec = $0; next }
	{ sub(/#.*/, "") }
	sec == "[config]" && /=/ { split($0, kv, "="); cfg[kv[1]] = kv[2] + 0; next }
	sec == "[trace]" { for (i = 1; i <= NF; i++) { t = tolower($i); while (length(t) >= 2) { b[nb++] = hex(substr(t, 1, 2)); t = substr(t, 3) } } next }
	sec == "[expect.l1]" && / error class=truncated$/ { ne++; err[ne] = substr($1, 2) + 0 }
	END { if (file != "") done() }
	' "$@"
}
files=$(find vectors/ptm -name '*.tcv' | sort)
check "vectors/ptm holds vectors" test -n "$files"
forms $files > "$tmp/forms"
for form in async isync-address isync-cycle-count isync-context-id atom-cycle-count branch-address \
	branch-exception-0 branch-exception-1 branch-cycle-count waypoint-update-0 waypoint-update-1 \
	waypoint-update-2 waypoint-update-3 waypoint-update-4 waypoint-update-information context-id-1 \
	context-id-2 context-id-4 vmid timestamp-48 timestamp-64 timestamp-cycle-count; do
	check "a vector of vectors/ptm ends inside: $form" sh -c "grep '^$form ' '$tmp/forms'"
done
check "every truncated error lands in a form the layouts give" sh -c "! grep -E '^(other-|branch-[?]|atom-[?])' '$tmp/forms'"
# The classification finds what it looks for (a check that cannot fail is none): cuts made here.
cut_form() {
	printf '%s\n' 'tracecert-vector 1' '[config]' 'protocol=ptm' "cycle_accurate=$1" 'contextid_size=0' 'ts64=0' \
		'[trace]' '00 00 00 00 00 80' "$2" '[expect.l1]' '@6 '"${2%% *}"' error class=truncated' '[end]' > "$tmp/cut.tcv"
	forms "$tmp/cut.tcv" | sed "s/ .*//"
}
check "the classification: a branch cut after exception byte 0 with bit 7 set is branch-exception-1" test "$(cut_form 0 '85 50 83')" = branch-exception-1
check "the classification: the same branch whole, cut before its cycle count, is branch-cycle-count" test "$(cut_form 1 '85 50 83 20')" = branch-cycle-count
check "the classification: a waypoint update with two address bytes, the second saying more, is waypoint-update-2" test "$(cut_form 0 '72 81 80')" = waypoint-update-2
check "the classification: a cycle-accurate atom header saying more is atom-cycle-count" test "$(cut_form 1 'c4')" = atom-cycle-count
tap_done
