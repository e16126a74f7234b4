# SPDX-License-Identifier: BSD-3-Clause
# Inputs that cannot surprise: vector files (cut, long lines, NUL bytes, sections given twice, versions,
# size limit), folders of vectors (symbolic link loops, the same file twice, FIFOs, a folder named x.tcv), endless files (/dev/zero as a
# vector, image, trace, seed list and notes), numbers (addresses, seeds, counts) and selections that select
# nothing. Each error is checked for its message (the command, the file, the reason) and exit status 2.
T="${TC_BUILD:-build}/tracecert"
V="${TC_BUILD:-build}/test/vectest"
R="${TC_BUILD:-build}/adapters/libtc_reference.so"
. tests/lib/tap.sh
# fails STATUS MESSAGE ARG...: tracecert ARG... exits STATUS and prints MESSAGE (a fixed string) on stderr.
fails() {
  st=$1; m=$2; shift 2
  "$T" "$@" > "$tmp/f.out" 2> "$tmp/f.err"; rc=$?
  test $rc -eq "$st" && grep -qF -- "$m" "$tmp/f.err" || { echo "rc $rc"; cat "$tmp/f.err"; return 1; }
}
K=vectors/ete/spec/k10-06-program-trace.tcv
lines=$(wc -l < "$K")
# --- vector files ---
head -n $((lines - 1)) "$K" > "$tmp/cut.tcv"
check "a vector without its last line [end] is refused as cut short (dump)" fails 2 "$tmp/cut.tcv: line $((lines - 1)): no [end] line: the file is cut short" dump --vector "$tmp/cut.tcv"
check "a cut vector is a runner-error in certify, not a pass (exit 3: the runner's, not the decoder's)" sh -c "'$T' certify --adapter '$R' --vectors '$tmp/cut.tcv' --tap > '$tmp/cut.tap' 2>&1; test \$? -eq 3 && grep -q 'no \\[end\\] line' '$tmp/cut.tap' && grep -q ' 0 pass, .* 1 runner-error' '$tmp/cut.tap'"
head -c $(($(wc -c < "$K") / 3)) "$K" > "$tmp/third.tcv"
check "a vector cut at a third is refused (vectest)" sh -c "'$V' '$tmp/third.tcv' | grep -q 'the file is cut short\\|no \\[end\\] line' && ! '$V' '$tmp/third.tcv' > /dev/null"
sed 's/^tracecert-vector 1$/tracecert-vector 12/' "$K" > "$tmp/v12.tcv"
check "tracecert-vector 12 is not read as version 1" fails 2 "line 1: 'tracecert-vector 12': this reader reads version 1 only" dump --vector "$tmp/v12.tcv"
{ sed -n '1,/^\[trace\]$/p' "$K"; printf '00 00 00 00 00 00 00 00 00 00 00 80\n[trace]\n'; sed -n '/^\[trace\]$/,$p' "$K" | sed 1d; } > "$tmp/twotrace.tcv"
check "a second [trace] section is refused, not merged" fails 2 "section [trace] given twice (first on line" dump --vector "$tmp/twotrace.tcv"
{ sed '$d' "$K"; printf '[config]\nprotocol=ete\n[end]\n'; } > "$tmp/twoconfig.tcv"
check "a second [config] section is refused" fails 2 "section [config] given twice" dump --vector "$tmp/twoconfig.tcv"
{ head -n 1 "$K"; printf '# %05000d\n' 0; sed 1d "$K"; } > "$tmp/longcomment.tcv"
check "a 5000-character comment line stays a comment (no tail read as trace bytes)" sh -c "'$T' dump --vector '$tmp/longcomment.tcv' > '$tmp/lc.out' && '$T' dump --vector '$K' | cmp - '$tmp/lc.out'"
{ sed -n '1,/^\[trace\]$/p' "$K"; printf '00 %.0s' $(seq 1 3000); printf '\n'; sed -n '/^\[trace\]$/,$p' "$K" | sed 1d; } > "$tmp/longhex.tcv"
check "a [trace] line of 3000 bytes (9000 characters) is read whole" sh -c "'$T' dump --vector '$tmp/longhex.tcv' | tail -1 | grep -q '^# skipped 3000 bytes outside A-sync\$\\|^@3'"
printf 'tracecert-vector 1\n[config]\nprotocol=ete\000maxspec=0\n[end]\n' > "$tmp/nul.tcv"
check "a NUL byte in a vector is refused with its offset" fails 2 "line 3: a NUL byte (byte offset 40): a vector file is text" dump --vector "$tmp/nul.tcv"
: > "$tmp/empty.tcv"
check "an empty vector file: 'empty file' after the file's name, no line number" sh -c "'$T' dump --vector '$tmp/empty.tcv' 2> '$tmp/empty.err'; test \$? -eq 2 && grep -qx \"tracecert dump: $tmp/empty.tcv: empty file: expected 'tracecert-vector 1' on line one\" '$tmp/empty.err'"
check "a folder given as a vector file: Is a directory" fails 2 "cannot read '$tmp': Is a directory" dump --vector "$tmp"
check "a missing vector file: the reason" fails 2 "cannot open '$tmp/none.tcv': No such file or directory" dump --vector "$tmp/none.tcv"
check "/dev/zero as a vector ends with the size limit (64 MiB)" fails 2 "tracecert dump: /dev/zero: byte 67108864: the file is longer than 67108864 bytes, the limit of a vector file" dump --vector /dev/zero
head -c $((65 << 20)) /dev/zero | tr '\0' '#' > "$tmp/big.tcv"
check "a vector file over 64 MiB is refused naming the limit" fails 2 "byte 67108864: the file is longer than 67108864 bytes, the limit of a vector file" dump --vector "$tmp/big.tcv"
rm -f "$tmp/big.tcv"
# A 200 KB trace (600 KB of hex): the reader is linear in the file's size (a quadratic one takes minutes under ASan).
{ sed -n '1,/^\[trace\]$/p' "$K"; head -c 200000 /dev/zero | od -An -v -tx1; printf '00 00 00 00 00 00 00 00 00 00 00 80 01 00\n[error strict=class]\n[end]\n'; } > "$tmp/big-trace.tcv"
check "a vector with a 200 KB trace is read in under 20 s (under ASan too)" sh -c "timeout 20 '$T' dump --vector '$tmp/big-trace.tcv' | grep -q '^@200012 01 trace-info'"
# --- images ---
{ sed '$d' "$K" | sed '/^\[expect/,$d'; printf '[image file=zero base=0x1000]\n[expect.l1]\n@0 00 async\n[end]\n'; } > "$tmp/zimg.tcv"; ln -s /dev/zero "$tmp/zero"
check "/dev/zero as a vector's image file ends with the limit (TC_IMAGE_READ_MAX)" fails 2 "zero: cannot read: more than 268435456 bytes, the limit of a file read whole" dump --vector "$tmp/zimg.tcv"
# A vector's sibling image file cut short or changed: size= and crc32= of [image file=…] make it an input
# error naming the vector, the file and the sizes (runner-error), never an adapter's fail.
IV=vectors/ete/hand/l3-raw-image-file.tcv
mkdir -p "$tmp/img"; cp "$IV" "$tmp/img/"; head -c 7 "${IV%.tcv}.bin" > "$tmp/img/l3-raw-image-file.bin"
check "an image file cut short (7 of its 8 bytes): dump refuses the vector, naming it, the file and both sizes" fails 2 "tracecert dump: $tmp/img/l3-raw-image-file.tcv: line 32: [image file=l3-raw-image-file.bin]: '$tmp/img/l3-raw-image-file.bin' holds 7 bytes, the vector says size=8" dump --vector "$tmp/img/l3-raw-image-file.tcv"
check "... certify: a runner-error naming the sizes, no fail charged to the adapter (exit 3: the runner's, not the decoder's)" sh -c "'$T' certify --adapter '$R' --vectors '$tmp/img' --tap > '$tmp/img.tap' 2>&1; test \$? -eq 3 && grep -q \"holds 7 bytes, the vector says size=8\" '$tmp/img.tap' && grep -q ' 0 pass, 0 fail, .* 1 runner-error' '$tmp/img.tap'"
sed 's/ size=8 crc32=0x[0-9a-f]*\]/]/' "$IV" > "$tmp/img/l3-raw-image-file.tcv"
check "... (the same cut file under a header without size=: read as a shorter image, the adapter charged a fail)" sh -c "'$T' certify --adapter '$R' --vectors '$tmp/img' --tap > '$tmp/img2.tap' 2>&1; test \$? -eq 1 && grep -q ' 1 pass, 1 fail, ' '$tmp/img2.tap' && grep -q '^not ok 2 - L3 ' '$tmp/img2.tap'"
cp "$IV" "$tmp/img/"; printf '\037\040\003\325\377\377\377\026' > "$tmp/img/l3-raw-image-file.bin"
check "an image file with one byte changed (its size right): refused by its crc32=" fails 2 "'$tmp/img/l3-raw-image-file.bin' (8 bytes) has crc32=0x" dump --vector "$tmp/img/l3-raw-image-file.tcv"
check "/dev/zero as decode --image ends with the limit" fails 2 "/dev/zero: cannot read: more than 268435456 bytes" decode --image /dev/zero@0x1000 /dev/null
check "a folder as decode --image: Is a directory" fails 2 "$tmp: cannot read: Is a directory" decode --image "$tmp@0" /dev/null
check "an image address below zero is refused" fails 2 "'-1' is not an address (decimal or 0x hex, at most 64 bits)" decode --image x@-1 /dev/null
check "an image address past 64 bits is refused" fails 2 "'0x10000000000000000' is not an address" decode --image x@0x10000000000000000 /dev/null
check "an image address of 20 decimal digits past 2^64 is refused" fails 2 "'18446744073709551616' is not an address" decode --image x@18446744073709551616 /dev/null
# --- traces ---
check "/dev/zero as a trace ends with the limit named (--max-bytes)" fails 2 "tracecert dump: /dev/zero: more than 1000000 bytes, the limit (--max-bytes N; 0: no limit)" dump --max-bytes 1000000 /dev/zero
check "--max-bytes takes no negative number" fails 2 "--max-bytes expects a number (decimal or 0x hex, 0: no limit), got '-5'" dump --max-bytes -5 /dev/null
check "a folder as a trace: Is a directory" fails 2 "tracecert dump: cannot read '$tmp': Is a directory" dump "$tmp"
check "dump --help documents --max-bytes and its defaults (none for a regular file, 1 GiB otherwise)" sh -c "'$T' dump --help | tr -s ' \\n' ' ' | grep -q 'Default: no limit for a regular file (its size is known), 1 GiB (1073741824) for an input whose end is not known (standard input, a pipe, a device such as /dev/zero)'"
# --- seed lists ---
printf '5\n-1\n' > "$tmp/neg.txt"
check "a negative seed is refused (not read as 2^64 - 1)" fails 2 "neg.txt:2: expected a seed number in 0..4294967295, got '-1'" gen --seeds-file "$tmp/neg.txt" --quiet
printf '99999999999999999999999\n' > "$tmp/over.txt"
check "a seed past the range is refused (not wrapped)" fails 2 "over.txt:1: expected a seed number in 0..4294967295, got '99999999999999999999999'" gen --seeds-file "$tmp/over.txt" --quiet
{ printf '# %0300d\n' 0; printf '7\n'; } > "$tmp/long.txt"
check "a 300-character comment in a seed list is one line (no tail read as a seed)" sh -c "'$T' gen --seeds-file '$tmp/long.txt' --quiet | grep -c '^# encoder seed' | grep -qx 1"
check "a folder as a seed list: Is a directory" fails 2 "tracecert gen: cannot read '$tmp': Is a directory" gen --seeds-file "$tmp" --quiet
check "/dev/zero as a seed list ends with the limit" fails 2 "tracecert gen: /dev/zero: longer than 16777216 bytes, the limit of a seed list" gen --seeds-file /dev/zero --quiet
printf '# nothing\n' > "$tmp/empty.txt"
check "a seed list without a seed selects nothing: an error" fails 2 "empty.txt: no seed in it" gen --seeds-file "$tmp/empty.txt" --quiet
check "--seed 010 is ten (decimal, not octal)" sh -c "'$T' gen --seed 010 --quiet | grep -q '^# encoder seed 10,'"
check "--count -1 is refused" fails 2 "--count expects a number in 1..4294967295, got '-1'" gen --count -1
# --- certify: folders, tags, notes ---
mkdir -p "$tmp/v/a"; cp "$K" "$tmp/v/a/"; ln -s .. "$tmp/v/a/up"
check "a symbolic link loop in a vectors folder ends with an error naming it" fails 2 "'$tmp/v/a/up' leads back to '$tmp/v', a folder it is inside (a symbolic link loop)" certify --adapter "$R" --vectors "$tmp/v"
rm "$tmp/v/a/up"
check "the same folder given twice is an error (it counted twice)" fails 2 "is listed twice (each vector counts once" certify --adapter "$R" --vectors "$tmp/v" --vectors "$tmp/v"
check "a folder and a folder inside it: an error" fails 2 "is listed twice" certify --adapter "$R" --vectors "$tmp/v" --vectors "$tmp/v/a"
ln -s a "$tmp/v/b"
check "a vector reached through a link and its folder: an error naming both" fails 2 "are the same file" certify --adapter "$R" --vectors "$tmp/v"
rm "$tmp/v/b"
check "a missing --vectors path: the reason" fails 2 "tracecert certify: --vectors $tmp/none: cannot read '$tmp/none': No such file or directory" certify --adapter "$R" --vectors "$tmp/none"
mkdir "$tmp/novec"
check "a folder without vectors: an error" fails 2 "no vector files (*.tcv) at '$tmp/novec'" certify --adapter "$R" --vectors "$tmp/novec"
# A vector is a regular file: a FIFO would keep the plan waiting for a writer for ever (each check under a guard).
mkdir "$tmp/fifo"; cp "$K" "$tmp/fifo/"; mkfifo "$tmp/fifo/pipe.tcv"
check "a FIFO named *.tcv in a vectors folder: exit 2 at once, the path named" timeout 20 sh -c "'$T' certify --adapter '$R' --vectors '$tmp/fifo' 2> '$tmp/fifo.err'; test \$? -eq 2 && grep -qF \"tracecert certify: --vectors $tmp/fifo: '$tmp/fifo/pipe.tcv' is not a regular file (a FIFO): a vector file is a regular file\" '$tmp/fifo.err'"
check "a FIFO given as --vectors: the same" timeout 20 sh -c "'$T' certify --adapter '$R' --vectors '$tmp/fifo/pipe.tcv' 2> '$tmp/fifo.err'; test \$? -eq 2 && grep -qF \"'$tmp/fifo/pipe.tcv' is not a regular file (a FIFO)\" '$tmp/fifo.err'"
rm "$tmp/fifo/pipe.tcv"; mkfifo "$tmp/fifo/other"
check "a FIFO not named *.tcv in a vectors folder is not a vector: passed over" timeout 20 sh -c "'$T' certify --adapter '$R' --vectors '$tmp/fifo' 2>&1 | grep -q ' 2 pass, 0 fail'"
{ sed '$d' "$K" | sed '/^\[expect/,$d'; printf '[image file=img.bin base=0x1000]\n[expect.l1]\n@0 00 async\n[end]\n'; } > "$tmp/fifo/fimg.tcv"; mkfifo "$tmp/fifo/img.bin"
check "a FIFO as a vector's image file: certify's runner-error names it (no wait)" timeout 20 sh -c "'$T' certify --adapter '$R' --vectors '$tmp/fifo/fimg.tcv' --tap > '$tmp/fimg.tap' 2>&1; test \$? -eq 3 && grep -qF \"cannot read ''$tmp/fifo/img.bin'': not a regular file (a FIFO)\" '$tmp/fimg.tap' && grep -q ' 1 runner-error' '$tmp/fimg.tap'"
check "... and dump refuses it too (no wait)" timeout 20 sh -c "'$T' dump --vector '$tmp/fifo/fimg.tcv' 2> '$tmp/fimg.err'; test \$? -eq 2 && grep -qF \"not a regular file (a FIFO)\" '$tmp/fimg.err'"
ln -s /dev/zero "$tmp/fifo/img.bin2"; sed 's/img.bin/img.bin2/' "$tmp/fifo/fimg.tcv" > "$tmp/fifo/dimg.tcv"; rm "$tmp/fifo/fimg.tcv"
check "a device as a vector's image file: certify refuses it (a vector's files are regular files)" timeout 20 sh -c "'$T' certify --adapter '$R' --vectors '$tmp/fifo/dimg.tcv' --tap 2>&1 | grep -qF \"not a regular file (a character device)\""
# A folder is walked into whatever its name: a folder named x.tcv is a folder of vectors, not a vector.
mkdir -p "$tmp/dirv/x.tcv"; cp "$K" "$tmp/dirv/x.tcv/"
check "a folder named x.tcv inside a vectors folder is walked into (its vector runs)" sh -c "'$T' certify --adapter '$R' --vectors '$tmp/dirv' --tap 2>&1 | grep -q '^ok 1 - L1 $tmp/dirv/x.tcv/k10-06-program-trace.tcv'"
check "--tags with a typo: exit 2, no score, the tags that exist named" sh -c "'$T' certify --adapter '$R' --vectors vectors/ptm/spec --tags waypiont --report '$tmp/typo' 2> '$tmp/e'; test \$? -eq 2 && grep -q 'tracecert certify: --tags waypiont selects nothing: no vector of the 11 read carries it; their tags: .* waypoint' '$tmp/e' && ! test -e '$tmp/typo' && ! grep -q Score '$tmp/e'"
check "--tags of which one selects nothing: an error too" fails 2 "--tags nosuch selects nothing" certify --adapter "$R" --vectors vectors/ptm/spec --tags waypoint,nosuch
check "notes that are a folder: Is a directory" fails 2 "tracecert certify: cannot read notes '$tmp': Is a directory" certify --adapter "$R" --vectors "$K" --notes "$tmp"
printf '# Notes\n\001\n' > "$tmp/ctl.md"
check "notes with a control character are not text" fails 2 "notes '$tmp/ctl.md' are not text: byte offset 8 is 0x01" certify --adapter "$R" --vectors "$K" --notes "$tmp/ctl.md"
printf '# Notes\n\300\200\n' > "$tmp/utf.md"
check "notes that are not UTF-8 are not text" fails 2 "byte offset 8 is 0xc0" certify --adapter "$R" --vectors "$K" --notes "$tmp/utf.md"
check "/dev/zero as notes is not text (no read past the limit)" fails 2 "notes '/dev/zero' are" certify --adapter "$R" --vectors "$K" --notes /dev/zero
printf '# Notes\n\nCaf\303\251: fine.\n' > "$tmp/ok.md"
check "notes in UTF-8 are copied into the certificate" sh -c "'$T' certify --adapter '$R' --vectors '$K' --notes '$tmp/ok.md' --report '$tmp/rep' 2>/dev/null && grep -q 'Caf' '$tmp/rep/certificate.md'"

# --- certify: file names that are not plain text ---
# A vector file named "a<LF># Forged<0xFF>.tcv" and a notes file named "n<LF>## Notes forged.md": each
# TAP test line stays one line (the '#' escaped, TAP 13), the YAML block one value, the Markdown heading
# one line; no line of either begins with the forged text; both are valid UTF-8; the JSON parses.
mkdir "$tmp/odd"; NL='
'; ODD="$tmp/odd/a$NL# Forged$(printf '\377').tcv"; ODDN="$tmp/odd/n$NL## Notes forged.md"
cp "$K" "$ODD"; cp "$tmp/ok.md" "$ODDN"
"$T" certify --adapter "${TC_BUILD:-build}/adapters/bad/libtc_bad_wrong.so" --vectors "$ODD" --notes "$ODDN" --tap --report "$tmp/oddrep" > "$tmp/odd.tap" 2> /dev/null
utf8() { perl -MEncode -e 'local $/; open(my $f, "<", $ARGV[0]) or die; my $t = <$f>; decode("UTF-8", $t, Encode::FB_CROAK); exit 0' "$1"; }
check "a vector file name with a line break, '#' and a byte that is not UTF-8: TAP lines escaped, none forged" sh -c "test \$(grep -c '^\\(not \\)\\?ok [0-9]* - ' '$tmp/odd.tap') -eq 2 && ! grep -q '^# Forged' '$tmp/odd.tap' && grep -qF 'not ok 1 - L1 $tmp/odd/a\\x0a\\# Forged\\xff.tcv' '$tmp/odd.tap' && grep -qF \"  vector: '$tmp/odd/a\\x0a# Forged\\xff.tcv'\" '$tmp/odd.tap' && prove --exec cat '$tmp/odd.tap' 2>&1 | grep -q 'Tests=2,'"
check "... the TAP stream is valid UTF-8" utf8 "$tmp/odd.tap"
check "... Markdown: the failure heading and the notes heading one line each, escaped; no forged heading" sh -c "! grep -q '^#* *Forged' '$tmp/oddrep/certificate.md' && ! grep -q '^## Notes forged' '$tmp/oddrep/certificate.md' && grep -qF '### L1 $tmp/odd/a\\x0a\\# Forged\\xff.tcv — fail' '$tmp/oddrep/certificate.md' && grep -qF '## Notes ($tmp/odd/n\\x0a\\#\\# Notes forged.md)' '$tmp/oddrep/certificate.md'"
check "... the Markdown is valid UTF-8" utf8 "$tmp/oddrep/certificate.md"
check "... the JSON parses" perl -MJSON::PP -e 'local $/; open(my $f, "<", $ARGV[0]) or die; JSON::PP->new->utf8->decode(<$f>)' "$tmp/oddrep/certificate.json"
tap_done
