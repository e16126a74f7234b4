# SPDX-License-Identifier: BSD-3-Clause
# tracecert gen --negative: generated vectors with one deliberate corruption each (reserved
# header, exact-match index 3, truncation, SBZ bit, reserved extension, bad A-sync), labelled with
# the error class and offset and the expected L1 from the encoder's own record of its packets.
# Every one must decode as it says: reference output == encoder truth, whole buffer, one byte at
# a time and in random chunks (vectest).
T="${TC_BUILD:-build}/tracecert"
V="${TC_BUILD:-build}/test/vectest"
N="${TC_NEGATIVE_COUNT:-300}"
. tests/lib/tap.sh
check "gen --negative writes $N vectors named neg-SEED.tcv" sh -c "'$T' gen --negative --count $N --quiet --out '$tmp/any' && test \$(ls '$tmp/any' | grep -c '^neg-[0-9]*\\.tcv\$') -eq $N"
check "the $N negative vectors decode as the encoder says" "$V" "$tmp/any"
check "each has one [error] line and no [expect.l3]" sh -c "for f in '$tmp/any'/*.tcv; do test \$(sed -n '/^\\[error\\]/,\$p' \"\$f\" | grep -c '^[a-z-]* [0-9]*\$') -eq 1 && ! grep -q '^\\[expect.l3\\]' \"\$f\" || exit 1; done"
check "every kind of corruption occurs among them" sh -c "for k in reserved-header exact-match-index truncated sbz reserved-extension bad-async; do cat '$tmp/any'/*.tcv | grep -q \"^\$k [0-9]*\\\$\" || exit 1; done"
for k in reserved-header exact-match-index truncated sbz reserved-extension bad-async; do
  check "gen --negative --kind $k: 40 vectors with [error] $k" sh -c "'$T' gen --negative --kind $k --seed 1000 --count 40 --quiet --out '$tmp/$k' && test \$(ls '$tmp/$k' | grep -c '\\.tcv\$') -eq 40 && for f in '$tmp/$k'/*.tcv; do sed -n '/^\\[error\\]/,\$p' \"\$f\" | grep -q '^$k [0-9]*\$' || exit 1; done"
  check "gen --negative --kind $k: they decode as the encoder says" "$V" "$tmp/$k"
done
check "a fixed configuration (commopt=1 ite=1 tsmark=1 rme=1 maxspec=100): 60 vectors decode as they say" sh -c "'$T' gen --negative --config commopt=1 --config ite=1 --config tsmark=1 --config rme=1 --config maxspec=100 --seed 500 --count 60 --quiet --out '$tmp/cfg' && '$V' '$tmp/cfg'"
check "the same seed gives the same negative vector" sh -c "'$T' gen --negative --seed 42 --quiet > '$tmp/a.tcv' && '$T' gen --negative --seed 42 --quiet > '$tmp/b.tcv' && grep -q '^\\[error\\]' '$tmp/a.tcv' && cmp -s '$tmp/a.tcv' '$tmp/b.tcv'"
check "gen --help documents --negative and every --kind" sh -c "h=\$('$T' gen --help); for k in --negative --kind reserved-header exact-match-index truncated sbz reserved-extension bad-async; do echo \"\$h\" | grep -q -e \"\$k\" || exit 1; done"
check "--kind without --negative is refused (message, exit 2)" sh -c "'$T' gen --kind sbz 2>&1 | grep -q 'needs --negative' && { '$T' gen --kind sbz >/dev/null 2>&1; test \$? -eq 2; }"
check "an unknown --kind is named" sh -c "'$T' gen --negative --kind bogus 2>&1 | grep -q \"unknown --kind 'bogus'\""
# ETMv1 (encoder/etmv1/e1enc_negative.c): the vector of a seed, then one record cut short or outside
# the record table after its last one, or the capture cut inside the trace; the expected L1 is the
# encoder's truth and the error line.
check "etmv1: gen --negative writes 40 vectors, each with one [error] line and no [expect.l3]" sh -c "'$T' gen --negative --protocol etmv1 --seed 300 --count 40 --quiet --out '$tmp/e1' && test \$(ls '$tmp/e1' | grep -c '^neg-[0-9]*\\.tcv\$') -eq 40 && for f in '$tmp/e1'/*.tcv; do test \$(sed -n '/^\\[error\\]/,\$p' \"\$f\" | grep -c '^[a-z-]* [0-9]*\$') -eq 1 && ! grep -q '^\\[expect.l3\\]' \"\$f\" || exit 1; done"
check "etmv1: the 40 negative vectors decode as the encoder says" "$V" "$tmp/e1"
# cut: the capture ends at a record while an item is incomplete: the items kept up to the first
# incomplete one (the encoder's record of when each packet and APO cycle left), then truncated there
# (unowned-packets when only early packets are held, ETM1-P33)
check "etmv1: gen --negative --kind cut: 40 vectors cut inside the trace, [error] truncated or unowned-packets, decoded as they say" sh -c "'$T' gen --negative --protocol etmv1 --kind cut --seed 900 --count 40 --quiet --out '$tmp/e1-cut' && test \$(grep -l '^# cut: the capture ends after' '$tmp/e1-cut'/*.tcv | wc -l) -ge 35 && '$V' '$tmp/e1-cut' >/dev/null"
for k in truncated bad-record; do
  check "etmv1: gen --negative --kind $k: 20 vectors with [error] $k, decoded as they say" sh -c "'$T' gen --negative --protocol etmv1 --kind $k --seed 700 --count 20 --quiet --out '$tmp/e1-$k' && for f in '$tmp/e1-$k'/*.tcv; do sed -n '/^\\[error\\]/,\$p' \"\$f\" | grep -q '^$k [0-9]*\$' || exit 1; done && '$V' '$tmp/e1-$k' >/dev/null"
done
tap_done
