# SPDX-License-Identifier: BSD-3-Clause
# certify --shard I/N and --merge (the shards of one run give the certificate of the whole run), JUnit XML
# beside the TAP stream, and a selection of nothing an error.
T="${TC_BUILD:-build}/tracecert"
B="${TC_BUILD:-build}/adapters"
R="$B/libtc_reference.so"
W="$B/bad/libtc_bad_wrong.so"
. tests/lib/tap.sh

# What must differ between a run and the merge of its shards: the seconds each took (JSON "seconds",
# Markdown and HTML "N runs in S s") and the date each began (JSON "date", Markdown "Date:", JUnit's
# property "date", HTML's id "date": the merge's is shard 1's); every other byte is compared.
untimed() {
  grep -v -e '^  "seconds": ' -e '^  "date": ' -e '^Date: ' -e '<property name="date" ' -e '<td id="date">' "$1" |
    sed -e 's/ runs in [0-9.]* s\.$/ runs in S s./' -e 's/ runs in [0-9.]* s</ runs in S s</'
}
same_cert() {   # same_cert DIR1 DIR2: the four certificate files agree but for the seconds and the date
  for f in certificate.json certificate.md certificate.junit.xml certificate.html; do
    untimed "$1/$f" > "$tmp/a.$f"; untimed "$2/$f" > "$tmp/b.$f"
    cmp "$tmp/a.$f" "$tmp/b.$f" || { diff "$tmp/a.$f" "$tmp/b.$f" | head -20; return 1; }
  done
}
# The TAP test lines' "L<level> <vector>", sorted.
runs_of() { sed -n 's/^\(not \)\{0,1\}ok [0-9]* - \(L[13] [^#]*[^ #]\).*/\2/p' "$1" | sort; }

# ---- --shard: bad values are usage errors naming the option ----
usage_error() {
  m=$1; shift
  "$T" "$@" > "$tmp/ue.out" 2> "$tmp/ue.err"; rc=$?
  test $rc -eq 2 && test ! -s "$tmp/ue.out" && test "$(wc -l < "$tmp/ue.err")" -eq 1 &&
    grep -qF -- "$m" "$tmp/ue.err" && grep -qF -- "(see tracecert help certify)" "$tmp/ue.err" || { echo "rc $rc"; cat "$tmp/ue.err"; return 1; }
}
check "--shard 0/3: shards are numbered from 1" usage_error "--shard 0/3: I (the shard) must be in 1..3 (shards are numbered from 1)" certify --adapter "$R" --shard 0/3
check "--shard 4/3: past the last shard" usage_error "--shard 4/3: I (the shard) must be in 1..3" certify --adapter "$R" --shard 4/3
check "--shard 1/0: no shards" usage_error "--shard 1/0: N (the number of shards) must be in 1..65536" certify --adapter "$R" --shard 1/0
check "--shard 1/65537: too many shards" usage_error "--shard 1/65537: N (the number of shards) must be in 1..65536" certify --adapter "$R" --shard 1/65537
check "--shard a/b: not numbers" usage_error "--shard expects I/N with I and N decimal numbers, got 'a/b'" certify --adapter "$R" --shard a/b
for v in 1/ /3 1/3/4 -1/3 +1/3 ' 1/3' 1.0/3 0x1/3 999999/3 1/3x; do
  check "--shard '$v': a usage error" usage_error "--shard expects I/N with I and N decimal numbers, got '$v'" certify --adapter "$R" --shard "$v"
done
check "--shard 3: no slash" usage_error "--shard expects I/N (shard I of N, 1 <= I <= N), got '3'" certify --adapter "$R" --shard 3
check "--shard '': empty" usage_error "--shard expects I/N (shard I of N, 1 <= I <= N), got ''" certify --adapter "$R" --shard ''
check "--shard needs a value" usage_error "option '--shard' needs a value" certify --adapter "$R" --shard
check "--shard 1/1 and 3/3 are shards (the whole run; the last of three)" sh -c "'$T' certify --adapter '$R' --vectors vectors/ete/spec --shard 1/1 2>&1 | grep -q ' 28 pass, 0 fail' && '$T' certify --adapter '$R' --vectors vectors/ete/spec --shard 3/3 2>&1 | grep -q ' [1-9][0-9]* pass, 0 fail'"

# ---- Every vector in exactly one shard ----
# vectors/ete/spec and vectors/ptm/spec, sorted per path: shard I of 3 runs the files at sorted index I-1,
# I+2, ...; the three shards' runs together are the full run's, none twice.
V="--vectors vectors/ete/spec --vectors vectors/ptm/spec"
"$T" certify --adapter "$R" $V --tap > "$tmp/full.tap" 2>/dev/null
for i in 1 2 3; do "$T" certify --adapter "$R" $V --shard $i/3 --tap > "$tmp/s$i.tap" 2>/dev/null; done
three_shards() {
  for i in 1 2 3; do test -n "$(runs_of "$tmp/s$i.tap")" || return 1; done
  runs_of "$tmp/full.tap" > "$tmp/full.runs"
  cat "$tmp/s1.tap" "$tmp/s2.tap" "$tmp/s3.tap" > "$tmp/all.tap"
  runs_of "$tmp/all.tap" > "$tmp/all.runs"
  test "$(wc -l < "$tmp/full.runs")" -gt 40 && cmp "$tmp/full.runs" "$tmp/all.runs" && test -z "$(uniq -d "$tmp/all.runs")"
}
check "three shards: each runs some vectors, together every run of the full run once" three_shards
# Hand count: the sorted list's first file (index 0) is in shard 1 and its second (index 1) in shard 2.
first=$(ls vectors/ete/spec/*.tcv | LC_ALL=C sort | sed -n 1p); second=$(ls vectors/ete/spec/*.tcv | LC_ALL=C sort | sed -n 2p)
check "shard 1/3 runs the first file of the sorted list, shard 2/3 the second" sh -c "grep -q ' - L1 $first\$' '$tmp/s1.tap' && ! grep -q ' - L1 $first\$' '$tmp/s2.tap' && grep -q ' - L1 $second\$' '$tmp/s2.tap' && ! grep -q ' - L1 $second\$' '$tmp/s1.tap'"
nv=$(ls vectors/ete/spec/*.tcv | wc -l)
check "a shard past the vectors ($((nv + 1))/$((nv + 5)) of $nv files) holds no run: said, exit 0, a certificate of no run" sh -c "'$T' certify --adapter '$R' --vectors vectors/ete/spec --shard $((nv + 1))/$((nv + 5)) --report '$tmp/empty' 2> '$tmp/empty.err'; test \$? -eq 0 && grep -q '^certify: --shard $((nv + 1))/$((nv + 5)) holds none of the $((2 * nv)) runs selected; its certificate has no run' '$tmp/empty.err' && grep -q '^  \"runs\": \[\]' '$tmp/empty/certificate.json' && grep -q 'tests=\"0\"' '$tmp/empty/certificate.junit.xml'"
check "a --tags selection of nothing is an error under --shard too (judged on the whole selection)" sh -c "'$T' certify --adapter '$R' --vectors vectors/ete/spec --shard 1/2 --tags no-such-tag 2> '$tmp/st.err'; test \$? -eq 2 && grep -q 'no-such-tag selects nothing' '$tmp/st.err'"

# ---- --merge: the shards' certificate is the full run's ----
"$T" certify --adapter "$R" $V --report "$tmp/full" 2>/dev/null
for i in 1 2 3; do "$T" certify --adapter "$R" $V --shard $i/3 --report "$tmp/s$i" 2>/dev/null; done
"$T" certify --merge "$tmp/s3/certificate.json" "$tmp/s1/certificate.json" "$tmp/s2/certificate.json" --report "$tmp/merged" 2> "$tmp/merged.err"; mrc=$?
merged_ref() { test $mrc -eq 0 && grep -q '^certify: merged [0-9]* runs of reference: score 100.00%' "$tmp/merged.err" && same_cert "$tmp/full" "$tmp/merged"; }
check "merge of three reference shards (in any order): exit 0, the certificate of the full run byte for byte but for the seconds" merged_ref
check "a shard's JSON says which shard it is, the full run's and the merge's 0/0" sh -c "grep -q '\"shard\": {\"index\": 2, \"count\": 3}' '$tmp/s2/certificate.json' && grep -q '\"shard\": {\"index\": 0, \"count\": 0}' '$tmp/merged/certificate.json' && grep -q '\"shard\": {\"index\": 0, \"count\": 0}' '$tmp/full/certificate.json'"
# A run with failures, unsupported runs and --tags/--level options, four shards: the same, exit 1 as the full run's.
WV="--vectors vectors/ete/spec --vectors vectors/ete/regress --level all"
"$T" certify --adapter "$W" $WV --report "$tmp/wfull" 2>/dev/null; wrc=$?
for i in 1 2 3 4; do "$T" certify --adapter "$W" $WV --shard $i/4 --report "$tmp/w$i" 2>/dev/null; done
"$T" certify --merge "$tmp/w1/certificate.json" "$tmp/w2/certificate.json" "$tmp/w3/certificate.json" "$tmp/w4/certificate.json" --report "$tmp/wmerged" --junit "$tmp/wmerged.xml" 2>/dev/null; wmrc=$?
merged_wrong() { test $wrc -eq 1 && test $wmrc -eq 1 && same_cert "$tmp/wfull" "$tmp/wmerged" && cmp "$tmp/wmerged.xml" "$tmp/wmerged/certificate.junit.xml"; }
check "merge of four shards of a failing adapter: exit 1 as the full run's, the same certificate, --junit the folder's" merged_wrong
"$T" certify --adapter "$R" --vectors vectors/ete --tags K10-18 --level 3 --notes conformance/notes/opencsd.md --report "$tmp/tfull" 2>/dev/null
for i in 1 2; do "$T" certify --adapter "$R" --vectors vectors/ete --tags K10-18 --level 3 --notes conformance/notes/opencsd.md --shard $i/2 --report "$tmp/t$i" 2>/dev/null; done
"$T" certify --merge "$tmp/t1/certificate.json" "$tmp/t2/certificate.json" --report "$tmp/tmerged" 2>/dev/null; tmrc=$?
merged_tags() { test $tmrc -eq 0 && same_cert "$tmp/tfull" "$tmp/tmerged" && grep -q '"tags": "K10-18"' "$tmp/tmerged/certificate.json" && grep -q '^## Notes' "$tmp/tmerged/certificate.md"; }
check "merge with --tags, --level 3 and --notes: the same certificate as the full run" merged_tags

# ---- --merge refuses what is not the N shards of one run ----
merge_error() {   # merge_error MESSAGE FILE...: exit 2, MESSAGE on stderr, no certificate written
  m=$1; shift
  rm -rf "$tmp/out"
  "$T" certify --merge "$@" --report "$tmp/out" > "$tmp/me.out" 2> "$tmp/me.err"; rc=$?
  test $rc -eq 2 && test ! -s "$tmp/me.out" && grep -qF -- "$m" "$tmp/me.err" && test ! -e "$tmp/out/certificate.json" || { echo "rc $rc"; cat "$tmp/me.err"; return 1; }
}
S1="$tmp/s1/certificate.json"; S2="$tmp/s2/certificate.json"; S3="$tmp/s3/certificate.json"
check "a missing shard: named" merge_error "tracecert certify: --merge $S1: shard 3/3 is missing (2 files given)" "$S1" "$S2"
check "a shard given twice: overlapping, both files named" merge_error "tracecert certify: --merge $S2: shard 2/3 is given twice ($S2 too): the runs would overlap" "$S1" "$S2" "$S2" "$S3"
cp "$S1" "$tmp/copy1.json"
check "the same shard in two files: overlapping" merge_error "tracecert certify: --merge $tmp/copy1.json: shard 1/3 is given twice ($S1 too)" "$S1" "$tmp/copy1.json" "$S2" "$S3"
check "shards of another N: named" merge_error "tracecert certify: --merge $tmp/w1/certificate.json: " "$S1" "$S2" "$S3" "$tmp/w1/certificate.json"
"$T" certify --adapter "$W" $V --shard 3/3 --report "$tmp/wrong3" 2>/dev/null
check "another adapter: the adapter named, both values" merge_error "tracecert certify: --merge $tmp/wrong3/certificate.json: is not a shard of the run $S1 is: its adapter is 'bad', not 'reference'" "$S1" "$S2" "$tmp/wrong3/certificate.json"
"$T" certify --adapter "$R" $V --level 1 --shard 3/3 --report "$tmp/l1" 2>/dev/null
check "other options (--level 1): the option named" merge_error "is not a shard of the run $S1 is: its levels is '1', not 'all'" "$S1" "$S2" "$tmp/l1/certificate.json"
"$T" certify --adapter "$R" $V --tags transaction --shard 3/3 --report "$tmp/tg" 2>/dev/null
check "other options (--tags): named" merge_error "its tags is 'transaction', not ''" "$S1" "$S2" "$tmp/tg/certificate.json"
"$T" certify --adapter "$R" --vectors vectors/ete/spec --shard 3/3 --report "$tmp/vs" 2>/dev/null
check "another vector set: its file count named" merge_error "its vector_set.files is " "$S1" "$S2" "$tmp/vs/certificate.json"
sed 's/"tracecert_version": "[^"]*"/"tracecert_version": "0.0.1"/' "$S3" > "$tmp/v3.json"
check "another tracecert version: named" merge_error "its tracecert_version is '0.0.1', not '" "$S1" "$S2" "$tmp/v3.json"
sed 's/"adapter_version": "[^"]*"/"adapter_version": "9.9"/' "$S3" > "$tmp/av3.json"
check "another adapter version: named" merge_error "its adapter_version is '9.9', not '" "$S1" "$S2" "$tmp/av3.json"
sed 's/{"index": 0, "vector"/{"index": 1, "vector"/' "$S1" > "$tmp/idx1.json"
check "a run not of its shard (an edited index): named" merge_error "tracecert certify: --merge $tmp/idx1.json: its run of " "$tmp/idx1.json" "$S2" "$S3"
sed '0,/"verdict": "pass"/s//"verdict": "bogus"/' "$S1" > "$tmp/verdict1.json"
check "a run with a verdict certify never writes: named" merge_error "tracecert certify: --merge $tmp/verdict1.json: a run that is not what certify writes: " "$tmp/verdict1.json" "$S2" "$S3"
sed '0,/{"index": 0, "vector": "[^"]*"/s//{"index": 0, "vector": "elsewhere.tcv"/' "$S1" > "$tmp/path1.json"
check "one index, two vector paths: both named" merge_error "tracecert certify: --merge $tmp/path1.json: names vector " "$tmp/path1.json" "$S2" "$S3"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['runs'].insert(0, d['runs'][0]); json.dump(d, open(sys.argv[2], 'w'))" "$S1" "$tmp/dup1.json"
check "a run listed twice: the run named" merge_error "the run L1 of " "$tmp/dup1.json" "$S2" "$S3"
sed 's/"shard": {"index": 1, "count": 3}/"shard": {"index": 4, "count": 3}/' "$S1" > "$tmp/four.json"
check "a shard index past its count: named" merge_error "tracecert certify: --merge $tmp/four.json: its shard (index out of range) is not one of 1..N" "$tmp/four.json" "$S2" "$S3"
check "--merge --junit into a folder that does not exist: exit 2, the file named" sh -c "'$T' certify --merge '$S1' '$S2' '$S3' --junit '$tmp/no/such/m.xml' 2> '$tmp/mj.err'; test \$? -eq 2 && grep -q '$tmp/no/such/m.xml' '$tmp/mj.err'"
merged_self() { "$T" certify --merge "$tmp/full/certificate.json" --report "$tmp/self" 2>/dev/null && same_cert "$tmp/full" "$tmp/self"; }
check "a certificate without --shard merges alone into itself (read as shard 1/1)" merged_self
printf '{"adapter": "x"' > "$tmp/cut.json"
check "a file that is not JSON: the byte offset and what was expected" merge_error "tracecert certify: --merge $tmp/cut.json: not JSON: byte offset 15: ',' or '}'" "$tmp/cut.json"
# The reader's every refusal, each with the byte offset of what it could not take.
jerr() { printf '%s' "$2" > "$tmp/j.json"; merge_error "tracecert certify: --merge $tmp/j.json: not JSON: byte offset $1" "$tmp/j.json"; }
check "JSON: an unknown escape" jerr "7: an unknown escape in a string" '{"a": "\q"}'
check "JSON: a control character in a string" jerr "7: a control character in a string" "$(printf '{"a": "\001"}')"
check "JSON: \\u0000" jerr "7: \\u0000 (a NUL byte) in a string" '{"a": "\u0000"}'
check "JSON: \\u without four hex digits" jerr "7: \\u is not followed by four hex digits" '{"a": "\u12"}'
check "JSON: a lone high surrogate" jerr "7: a high surrogate without a low one" '{"a": "\ud800x"}'
check "JSON: a lone low surrogate" jerr "7: a low surrogate without a high one" '{"a": "\udc00"}'
check "JSON: a string without its end" jerr "9: a string without its closing quote" '{"a": "xy'
check "JSON: a member name that is no string" jerr "1: a member name (a string)" '{a: 1}'
check "JSON: no ':'" jerr "5: ':' after a member name" '{"a" 1}'
check "JSON: an array without ',' or ']'" jerr "9: ',' or ']'" '{"a": [1 2]}'
check "JSON: an exponent" jerr "7: a number without an exponent" '{"a": 1e5}'
check "JSON: a point without a digit" jerr "8: a digit after the decimal point" '{"a": 1.}'
check "JSON: a word that is no literal" jerr "6: a value (object, array, string, number, true, false or null)" '{"a": nul}'
check "JSON: nesting deeper than 32" jerr "33: nesting deeper than 32" "$(printf '%.0s[' $(seq 40))"
check "JSON: text after the value" jerr "3: the end of the text after the value" '{} x'
check "JSON: nothing" jerr "0: a value, not the end of the text" ''
printf '{"adapter": "x"}\n' > "$tmp/notcert.json"
check "JSON that is no certificate: said" merge_error "tracecert certify: --merge $tmp/notcert.json: not a certificate of tracecert certify with its runs" "$tmp/notcert.json"
check "a file that does not exist: errno's text" merge_error "tracecert certify: --merge $tmp/none.json: cannot read it: No such file or directory" "$tmp/none.json"
check "--merge without files: a usage error" usage_error "--merge expects the shard files: --merge A.json B.json ..." certify --merge --report "$tmp/out"
check "--merge without --report or --junit: a usage error" usage_error "--merge needs --report DIR or --junit FILE to write to" certify --merge "$S1"
check "--merge with a run's option: a usage error" usage_error "--merge takes only --report and --junit" certify --merge "$S1" --adapter "$R" --report "$tmp/out"
check "a shard file without --merge: a usage error pointing at --merge" usage_error "unexpected argument '$S1' (shard files are given with --merge)" certify --adapter "$R" "$S1"

# ---- JUnit XML: valid XML whatever the adapter printed, counts as the JSON's ----
# The markup adapter's open error holds '<', '&', "]]>", control bytes, U+FFFE and a byte that is not
# UTF-8; the vector's file name holds '<', '&', '"', a control byte and a byte that is not UTF-8.
odd="$tmp/$(printf 'a<b&c\001\377"x')"; mkdir -p "$odd"; cp vectors/ete/spec/k10-06-program-trace.tcv "$odd/"
"$T" certify --adapter "$B/bad/libtc_bad_markup.so" --vectors vectors/ete/spec --vectors "$odd" --report "$tmp/mk" --junit "$tmp/mk.xml" 2>/dev/null
"$T" certify --adapter "$W" --vectors vectors/ete/spec --vectors vectors/ete/regress --report "$tmp/wj" 2>/dev/null
cat > "$tmp/junit.py" <<'EOF'
# junit.py XML JSON: the XML parses; its testcases are the JSON's runs, one per vector and level; skipped
# are the unsupported and not-run, failure the other runs that do not pass (error: runner-error), each
# failure with a message starting with its verdict.
import json, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cert = json.load(open(sys.argv[2], encoding='utf-8'))
tot = cert['totals']
cases = root.findall('./testsuite/testcase')
skipped = [c for c in cases if c.find('skipped') is not None]
failed = [c for c in cases if c.find('failure') is not None]
errors = [c for c in cases if c.find('error') is not None]
assert len(cases) == sum(tot.values()) == len(cert['runs']), (len(cases), tot)
assert len(skipped) == tot['unsupported'] + tot['not-run'], len(skipped)
assert len(errors) == tot['runner-error']
bad = sum(v for k, v in tot.items() if k not in ('pass', 'pass-alt', 'unsupported', 'not-run', 'runner-error'))
assert len(failed) == bad and bad == len(cert['failures']) - tot['runner-error'], (len(failed), bad)
assert root.get('tests') == str(len(cases)) and root.get('failures') == str(bad) and root.get('skipped') == str(len(skipped))
for c, r in zip(cases, cert['runs']):
    assert c.get('classname') == r['level'], (c.get('classname'), r['level'])
    f = c.find('failure')
    if f is not None:
        assert f.get('type') == r['verdict'] and f.get('message').startswith(r['verdict'] + '; ')
for need in sys.argv[3:]:
    assert any(need in (c.get('name') + ''.join(c.itertext()) + (c.find('failure').get('message') if c.find('failure') is not None else '')) for c in cases), need
print(len(cases), len(skipped), len(failed))
EOF
check "JUnit of the failing adapter: parses, counts as the JSON's (fail and unsupported runs)" sh -c "python3 '$tmp/junit.py' '$tmp/wj/certificate.junit.xml' '$tmp/wj/certificate.json' | grep -Eq '^[1-9][0-9]* [1-9][0-9]* [1-9][0-9]*\$'"
check "JUnit of the markup adapter: parses, markup and control bytes escaped (\\xNN), counts as the JSON's" sh -c "python3 '$tmp/junit.py' '$tmp/mk/certificate.junit.xml' '$tmp/mk/certificate.json' '<b>&amp; ]]>' 'a<b&c\\x01\\xff\"x/k10-06' '\\xef\\xbf\\xbe' && cmp '$tmp/mk.xml' '$tmp/mk/certificate.junit.xml' && grep -q '&lt;b&gt;&amp;amp; ]]&gt;' '$tmp/mk.xml'"
check "JUnit: the first divergence of a failure is its message" sh -c "grep -q 'failure type=\"fail\" message=\"fail; section: l1; line: [0-9]*; expected: &apos;' '$tmp/wj/certificate.junit.xml'"
check "--junit FILE without --report: written, nothing else" sh -c "'$T' certify --adapter '$W' --vectors vectors/ete/spec --junit '$tmp/only.xml' 2>/dev/null; test \$? -eq 1 && python3 -c 'import xml.etree.ElementTree as E; E.parse(\"$tmp/only.xml\")'"
check "--junit into a folder that does not exist: exit 2, named" sh -c "'$T' certify --adapter '$R' --vectors vectors/ete/spec --junit '$tmp/no/such/j.xml' 2> '$tmp/nj.err'; test \$? -eq 2 && grep -q '$tmp/no/such/j.xml' '$tmp/nj.err'"

# ---- A selection of nothing is an error (exit 2) naming the option ----
mkdir -p "$tmp/novec"
check "--vectors of a folder without vectors: exit 2, --vectors named" sh -c "'$T' certify --adapter '$R' --vectors '$tmp/novec' 2> '$tmp/nv.err'; test \$? -eq 2 && grep -q \"^tracecert certify: --vectors $tmp/novec: \" '$tmp/nv.err'"
check "--tags that no vector carries: exit 2, --tags named" sh -c "'$T' certify --adapter '$R' --vectors vectors/ete/spec --tags no-such-tag 2> '$tmp/nt.err'; test \$? -eq 2 && grep -q '^tracecert certify: --tags no-such-tag selects nothing' '$tmp/nt.err'"
check "certify --help documents --shard, --merge, --junit and the selection errors" sh -c "h=\$('$T' certify --help) && echo \"\$h\" | grep -q '^  --shard I/N ' && echo \"\$h\" | grep -q '^  --merge ' && echo \"\$h\" | grep -q '^  --junit FILE ' && echo \"\$h\" | grep -q 'selects nothing'"
tap_done
