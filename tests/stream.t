# SPDX-License-Identifier: BSD-3-Clause
# dump and decode stream their input (files and standard input, raw and hex) in fixed chunks: peak RSS does
# not grow with the trace (64 MiB against 8 MiB), a regular file has no default size bound (1100 MiB), and
# every error names the command, the file and the reason.
T="${TC_BUILD:-build}/tracecert"
M="${TC_BUILD:-build}/test/maxrss"
. tests/lib/tap.sh
# A trace of N MiB: zeros (skipped until the A-sync) ending with an A-sync, Trace Info, Trace On and an atom.
mk() { head -c $(($1 << 20)) /dev/zero > "$2" && printf '\000\000\000\000\000\000\000\000\000\000\000\200\001\000\004\367' >> "$2"; }
mk 8 "$tmp/t8"; mk 64 "$tmp/t64"
# Peak RSS (KiB) of a command; its stdout goes to $tmp/out.
rss() { "$M" "$@" 2>&1 >"$tmp/out" | tail -1; }
r8=$(rss "$T" dump "$tmp/t8"); r64=$(rss "$T" dump "$tmp/t64")
echo "# dump peak RSS: 8 MiB trace $r8 KiB, 64 MiB trace $r64 KiB"
check "dump: peak RSS of a 64 MiB trace is within 4 MiB of an 8 MiB one ($r8 / $r64 KiB)" test "$r64" -le $((r8 + 4096))
check "dump of the 64 MiB trace decoded it to the end" sh -c "'$T' dump '$tmp/t64' | tail -1 | grep -qx '@67108879 f7 atom atoms=E'"
s8=$(rss sh -c "'$T' decode - < '$tmp/t8'"); s64=$(rss sh -c "'$T' decode - < '$tmp/t64'")
echo "# decode - (standard input) peak RSS: $s8 / $s64 KiB"
check "decode from standard input: peak RSS flat too ($s8 / $s64 KiB)" test "$s64" -le $((s8 + 4096))
# The trace's only output at L3 (no image): the Trace On packet after the 64 MiB of zeros and the A-sync's
# 12 bytes and Trace Info's 2, at byte 64 * 2^20 + 14 = 67108878; the atom has no address to execute from.
check "decode from standard input decoded the 64 MiB trace to its end" sh -c "printf '@67108878 trace-on\\n' | cmp - '$tmp/out'"
# Hex text: 6 and 36 MiB of '00 ' (2 and 12 MiB of trace bytes).
perl -e 'print "00 " x (8 << 18), "\n# comment\n"' > "$tmp/h8"; perl -e 'print "00 " x (48 << 18), "\n"' > "$tmp/h48"
h8=$(rss "$T" dump --hex "$tmp/h8"); h48=$(rss "$T" dump --hex "$tmp/h48")
echo "# dump --hex peak RSS: $h8 / $h48 KiB"
check "dump --hex converts while streaming: peak RSS flat ($h8 / $h48 KiB)" test "$h48" -le $((h8 + 4096))
check "dump --hex of 36 MiB of text decodes every byte" sh -c "'$T' dump --hex '$tmp/h48' | grep -qx '# skipped 12582912 bytes outside A-sync'"
printf '00 00 00 00 00 00 00 00 00 00 00 80 01 00 04 f7\n00 zz\n' > "$tmp/bad.hex"
check "bad hex in a file: nothing is decoded, the error names the command, file and byte offset" sh -c "'$T' dump --hex '$tmp/bad.hex' > '$tmp/o' 2> '$tmp/e'; test \$? -eq 2 && test ! -s '$tmp/o' && grep -qx \"tracecert dump: $tmp/bad.hex: byte 51: expected a hex digit, blank or '#' comment\" '$tmp/e'"
check "bad hex on standard input: the error names the command and '-'" sh -c "'$T' decode --hex - < '$tmp/bad.hex' 2> '$tmp/e' >/dev/null; test \$? -eq 2 && grep -q \"^tracecert decode: -: byte 51: expected a hex digit\" '$tmp/e'"
check "an odd number of hex digits is reported at the end" sh -c "printf '00 0' | '$T' dump --hex - 2>&1 >/dev/null | grep -q 'byte 4: .*odd number of hex digits'"
check "a missing file: the command, the file and the errno text" sh -c "'$T' decode /nonexistent/x 2> '$tmp/e'; test \$? -eq 2 && grep -qx \"tracecert decode: cannot read '/nonexistent/x': No such file or directory\" '$tmp/e'"
check "a directory as the trace: the command, the file and the errno text" sh -c "'$T' dump '$tmp' 2> '$tmp/e'; test \$? -eq 2 && grep -qx \"tracecert dump: cannot read '$tmp': Is a directory\" '$tmp/e'"
check "decode errors say 'tracecert decode:' (a bad vector)" sh -c "printf 'x\n' > '$tmp/v.tcv'; '$T' decode --vector '$tmp/v.tcv' 2>&1 | grep -q \"^tracecert decode: $tmp/v.tcv: line 1: \""
# A generated vector whose trace (111,954 bytes) spans two 64 KiB chunks as binary and six as hex text,
# decoded from files with the vector's own [config] (every key given as --config), prints the vector's
# [expect.l1] (the encoder's ground truth), as dump --vector does.
section() { awk -v s="[$1]" '/^\[/{p=($0==s); next} p && NF && !/^#/' "$2"; }
same_as_vector() {
  "$T" gen --seed 11 --steps 30000 --quiet > "$tmp/g.tcv" && section trace "$tmp/g.tcv" > "$tmp/g.hex" &&
    tr -d ' \n' < "$tmp/g.hex" | perl -ne 'print pack("H*", $_)' > "$tmp/g.bin" &&
    test "$(wc -c < "$tmp/g.bin")" -gt 65536 && test "$(wc -c < "$tmp/g.hex")" -gt $((5 * 65536)) &&
    section expect.l1 "$tmp/g.tcv" > "$tmp/want" && test -s "$tmp/want" &&
    cfg=$(section config "$tmp/g.tcv" | grep -v '^protocol=' | sed 's/^/--config /') && test -n "$cfg" &&
    "$T" dump --hex "$tmp/g.hex" $cfg > "$tmp/a" && cmp "$tmp/a" "$tmp/want" &&
    "$T" dump "$tmp/g.bin" $cfg > "$tmp/a" && cmp "$tmp/a" "$tmp/want" &&
    "$T" dump --vector "$tmp/g.tcv" > "$tmp/b" && cmp "$tmp/b" "$tmp/want"
}
check "chunked reading of the trace as a hex and a binary file, with the vector's configuration, prints the vector's expected L1" same_as_vector
# --max-bytes: no default bound on a regular file, 1 GiB (2^30) on an input whose end is not known.
# A sparse file of 1100 MiB of zeros (more than 2^30 bytes, held in $tmp, removed after) ending as mk's traces
# do: the Trace On at 1100 * 2^20 + 14 = 1153433614, the atom at 1153433615.
truncate -s 1100M "$tmp/big" && printf '\000\000\000\000\000\000\000\000\000\000\000\200\001\000\004\367' >> "$tmp/big"
check "a regular file of more than 1 GiB (1100 MiB) decodes to its end with no --max-bytes, exit 0" sh -c "'$T' dump '$tmp/big' > '$tmp/o' 2> '$tmp/e' && test ! -s '$tmp/e' && tail -2 '$tmp/o' | tr '\n' '|' | grep -qx '@1153433614 04 trace-on|@1153433615 f7 atom atoms=E|'"
check "... and as standard input redirected from the file (a regular file too)" sh -c "'$T' decode - < '$tmp/big' > '$tmp/o' 2> '$tmp/e' && test ! -s '$tmp/e' && printf '@1153433614 trace-on\n' | cmp - '$tmp/o'"
check "a regular file larger than --max-bytes given: refused before anything is decoded, both sizes named, exit 2" sh -c "'$T' dump --max-bytes 1000000 '$tmp/t8' > '$tmp/o' 2> '$tmp/e'; test \$? -eq 2 && test ! -s '$tmp/o' && grep -qx \"tracecert dump: $tmp/t8: 8388624 bytes, more than 1000000, the limit (--max-bytes N; 0: no limit)\" '$tmp/e'"
rm -f "$tmp/big"
check "a character device (/dev/zero) stops at the default bound of 1 GiB, the limit named, exit 2" sh -c "'$T' dump /dev/zero > /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -qx 'tracecert dump: /dev/zero: more than 1073741824 bytes, the limit (--max-bytes N; 0: no limit)' '$tmp/e'"
check "a pipe on standard input has the bound too (--max-bytes given smaller: named)" sh -c "head -c 3000000 /dev/zero | '$T' dump - --max-bytes 2000000 > /dev/null 2> '$tmp/e'; test \$? -eq 2 && grep -qx 'tracecert dump: -: more than 2000000 bytes, the limit (--max-bytes N; 0: no limit)' '$tmp/e'"
tap_done
