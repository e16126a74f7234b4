# SPDX-License-Identifier: BSD-3-Clause
# conformance/suite-certificate.sh: a row for every protocol of the build in each section, with
# counts taken here from the tree (tests/lib/tap.sh owns n, d and fail); and, in a made-up tree with a protocol no code names, that one's
# vectors, clauses (listed and measured) and mutants (killed and not) from its own folders.
. tests/lib/tap.sh
B="${TC_BUILD:-build}"
S=$(pwd)/conformance/suite-certificate.sh
sh "$S" "$B" > "$tmp/real.md" 2> "$tmp/real.err"

# The protocols of the build, as the build lists them.
ps=$(sed -n 's/^extern const struct tc_protocol tc_protocol_\([a-z0-9_]*\);$/\1/p' "$B/gen/protocols.c")
check "the build lists protocols" test -n "$ps"
check "the script runs without a message on stderr" test ! -s "$tmp/real.err"
for p in $ps; do
	total=$(find "vectors/$p" -name '*.tcv' | wc -l | tr -d ' ')
	check "$p: the vector total is every .tcv under vectors/$p ($total)" grep -qx "| $p | (all) | $total |" "$tmp/real.md"
	for vdir in vectors/"$p"/*/; do
		f=${vdir%/}; m=$(find "$vdir" -name '*.tcv' | wc -l | tr -d ' ')
		check "$p: folder ${f##*/} has its $m vectors" grep -qx "| $p | ${f##*/} | $m |" "$tmp/real.md"
	done
	c=$(grep -c '^[^#[:space:]]' "coverage/clauses/$p.txt")
	check "$p: $c clauses listed" grep -q "^| $p | $c | [0-9]* | " "$tmp/real.md"
	k=$(ls conformance/mutants/"$p"/*.patch | wc -l | tr -d ' ')
	check "$p: $k mutants" grep -q "^| $p | $k | " "$tmp/real.md"
done

# A tree of one made-up protocol, run from its top.
t=$tmp/tree
mkdir -p "$t/vectors/zz/spec" "$t/vectors/zz/neg/deeper" "$t/coverage/clauses" "$t/conformance/mutants/zz" \
	"$t/b/gen" "$t/b/certify/suite" "$t/b/coverage"
touch "$t/vectors/zz/spec/a.tcv" "$t/vectors/zz/spec/b.tcv" "$t/vectors/zz/neg/c.tcv" "$t/vectors/zz/neg/deeper/d.tcv"
printf '# comment\n\nZ/one | L1 | first\nZ/two | never | second\nZ/three | L3 | third\n' > "$t/coverage/clauses/zz.txt"
touch "$t/conformance/mutants/zz/01-a.patch" "$t/conformance/mutants/zz/02-b.patch"
printf 'extern const struct tc_protocol tc_protocol_zz;\n' > "$t/b/gen/protocols.c"
printf 'mutant   verdict   passes  fails  killed by\nzz/01-a  killed  3  1  L1 vectors/zz/spec/a.tcv\nzz/02-b  survived  4  0  -\nmutants: 1 killed of 2 (kill rate 50.0%%)\n' > "$t/b/certify/suite/mutants.txt"
(cd "$t" && sh "$S" b) > "$tmp/zz.md" 2> "$tmp/zz.err"
check "made-up protocol: no message on stderr" test ! -s "$tmp/zz.err"
check "made-up protocol: named as the build's only protocol" grep -qx "Protocols: zz." "$tmp/zz.md"
check "made-up protocol: its folders and the total (subfolders counted)" sh -c "grep -qx '| zz | spec | 2 |' '$tmp/zz.md' && grep -qx '| zz | neg | 2 |' '$tmp/zz.md' && grep -qx '| zz | (all) | 4 |' '$tmp/zz.md'"
check "made-up protocol: 3 clauses, 1 never, not measured" grep -q '^| zz | 3 | 1 | not measured' "$tmp/zz.md"
check "made-up protocol: 2 mutants, 1 killed, the survivor named" grep -qx '| zz | 2 | 1 | zz/02-b survived |' "$tmp/zz.md"
check "made-up protocol: the kill table follows" grep -qx 'mutants: 1 killed of 2 (kill rate 50.0%)' "$tmp/zz.md"
printf 'clauses_covered=2\nclauses_total=2\nclauses_never=1\nvectors=4\n' > "$t/b/coverage/spec-summary-zz.txt"
(cd "$t" && sh "$S" b) > "$tmp/zz2.md"
check "made-up protocol: automatic mutants not measured, and how to" grep -q '^Not measured: `make mutants-auto' "$tmp/zz2.md"
mkdir -p "$t/conformance/mutants/auto"
printf '# Automatic mutants of the reference\n\n- zz: 2026-01-02 03:04 UTC, commit abc1234\n\n| protocol | part | sites |\n|---|---|---|\n| zz | parse | 5 |\n' >"$t/conformance/mutants/auto/measured.md"
(cd "$t" && sh "$S" b) > "$tmp/zz5.md"
check "made-up protocol: without a build's report, the checked-in one, said so" sh -c "grep -q '^Not measured in this build: the last full run.s report, checked in as conformance/mutants/auto/measured.md' '$tmp/zz5.md' && grep -qx '| zz | parse | 5 |' '$tmp/zz5.md' && grep -q 'commit abc1234' '$tmp/zz5.md'"
mkdir -p "$t/b/mutants-auto"
printf '# Automatic mutants of the reference\n\n| protocol | part | sites |\n|---|---|---|\n| zz | parse | 7 |\n\n## Mutants the vectors miss\n\n### zz\n\n- reference/zz/zz_parse.c:1:2 ror\n' >"$t/b/mutants-auto/report.md"
(cd "$t" && sh "$S" b) > "$tmp/zz4.md"
check "made-up protocol: the automatic mutants' report, its headings one level down" sh -c "grep -qx '| zz | parse | 7 |' '$tmp/zz4.md' && grep -qx '### Mutants the vectors miss' '$tmp/zz4.md' && grep -qx '#### zz' '$tmp/zz4.md' && ! grep -q '^# Automatic' '$tmp/zz4.md'"
check "made-up protocol: the build's report wins over the checked-in one" sh -c "! grep -q 'Not measured in this build' '$tmp/zz4.md' && ! grep -qx '| zz | parse | 5 |' '$tmp/zz4.md'"
check "made-up protocol: measured clause coverage from make coverage's summary" grep -q '^| zz | 3 | 1 | 2/2 by 4 vectors (b/coverage/spec-summary-zz.txt, [0-9-]*) |$' "$tmp/zz2.md"
rm "$t/b/gen/protocols.c" "$t/b/certify/suite/mutants.txt"
(cd "$t" && sh "$S" b) > "$tmp/zz3.md"
check "without a build: the protocols are the vectors/ folders; no kill table" sh -c "grep -qx 'Protocols: zz.' '$tmp/zz3.md' && grep -qx '| zz | 2 | not run | |' '$tmp/zz3.md' && grep -qx '(no kill table: run make suite-check)' '$tmp/zz3.md'"
tap_done
