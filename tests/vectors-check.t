# SPDX-License-Identifier: BSD-3-Clause
# vectors/<protocol>/gen (every protocol) is exactly what the generator produces from its seed list and
# covers every variant of the protocol's encoder; vectors/ete/neg and warn are what tools/vecgen/ete_neg.c
# writes, vectors/ete/insn, vectors/ptm/insn and vectors/etmv3/insn what tools/vecgen/<p>_insn.c writes from the tables of
# reference/test/insn; every vector of every protocol, hand-written or generated, passes the reference
# at each of its expect sections (make vectors-check). Altered copies (VEC_ROOT, INSN_TABLES) must make it fail,
# each with its message.
. tests/lib/tap.sh
B="${TC_BUILD:-build}"
check "vectors-check: regenerated vectors/*/gen and the templated vectors are identical, every variant covered" make -s vectors-check BUILD="$B"
# fails WANT TARGET: make TARGET on the copy in $tmp/v exits non-zero and prints WANT.
fails() { make -s "$2" BUILD="$B" VEC_ROOT="$tmp/v" > "$tmp/out" 2>&1; rc=$?; cat "$tmp/out"; test $rc -ne 0 && grep -qF -- "$1" "$tmp/out"; }
mkdir -p "$tmp/v/ptm" "$tmp/v/ete"
cp -r vectors/ptm/gen "$tmp/v/ptm/gen"
f=$(ls "$tmp/v/ptm/gen"/gen-*.tcv | head -n 1)
sed -i '$ s/$/ /' "$f"   # a blank at the end of the last line
check "a vector of vectors/ptm/gen that differs from the generator fails vectors-check-ptm" fails "$tmp/v/ptm/gen differs from what the generator produces" vectors-check-ptm
rm -r "$tmp/v/ptm/gen" && cp -r vectors/ptm/gen "$tmp/v/ptm/gen" && rm "$f"
check "a vector missing from vectors/ptm/gen fails vectors-check-ptm" fails "$tmp/v/ptm/gen differs from what the generator produces" vectors-check-ptm
s=$(grep -v '^#' vectors/ptm/gen/seeds.txt | head -n 1)
rm -r "$tmp/v/ptm/gen" && mkdir "$tmp/v/ptm/gen" && echo "$s" > "$tmp/v/ptm/gen/seeds.txt" && cp vectors/ptm/gen/gen-$(printf '%06d' "$s").tcv "$tmp/v/ptm/gen/"
check "a PTM seed list that leaves variants unused fails vectors-check-ptm, naming them" fails "variants not covered by $tmp/v/ptm/gen" vectors-check-ptm
check "... and the unused variants are listed" sh -c "grep -q '^# unused: ' '$tmp/out'"
cp -r vectors/ete/neg vectors/ete/warn "$tmp/v/ete/"
sed -i 's/^tf_keep_cc=0$/tf_keep_cc=1/' "$tmp/v/ete/warn/ite-el.tcv"
check "a changed vectors/ete/warn file fails vectors-check-neg-ete" fails "$tmp/v/ete/warn differs from what" vectors-check-neg-ete
cp vectors/ete/warn/ite-el.tcv "$tmp/v/ete/warn/" && rm "$tmp/v/ete/neg/hdr-05.tcv"
check "a templated vectors/ete/neg file that is missing fails vectors-check-neg-ete" fails "$tmp/v/ete/neg/hdr-05.tcv differs from what" vectors-check-neg-ete
cp vectors/ete/neg/hdr-05.tcv "$tmp/v/ete/neg/"
check "the restored copies of neg and warn pass (the failures above are the alterations')" make -s vectors-check-neg-ete BUILD="$B" VEC_ROOT="$tmp/v"
cp -r vectors/ete/insn "$tmp/v/ete/"
f=$(ls "$tmp/v/ete/insn"/*.tcv | head -n 1)
sed -i 's/ taken=E / taken=N /' "$f"
check "a changed vectors/ete/insn file fails vectors-check-insn-ete" fails "$tmp/v/ete/insn differs from what" vectors-check-insn-ete
rm -r "$tmp/v/ete/insn" && cp -r vectors/ete/insn "$tmp/v/ete/" && cp "$f" "$tmp/v/ete/insn/stale.tcv"
check "a vector in vectors/ete/insn that the program does not write fails vectors-check-insn-ete" fails "$tmp/v/ete/insn differs from what" vectors-check-insn-ete
rm "$tmp/v/ete/insn/stale.tcv"
check "the restored copy of vectors/ete/insn passes" make -s vectors-check-insn-ete BUILD="$B" VEC_ROOT="$tmp/v"
mkdir -p "$tmp/v/etmv3" && cp -r vectors/etmv3/insn "$tmp/v/etmv3/"
f=$(ls "$tmp/v/etmv3/insn"/t32-two-atoms-*.tcv | head -n 1)
sed -i 's/^thumb2_one=0$/thumb2_one=1/' "$f"
check "a changed vectors/etmv3/insn file fails vectors-check-insn-etmv3" fails "$tmp/v/etmv3/insn differs from what" vectors-check-insn-etmv3
rm -r "$tmp/v/etmv3/insn" && cp -r vectors/etmv3/insn "$tmp/v/etmv3/"
check "the restored copy of vectors/etmv3/insn passes" make -s vectors-check-insn-etmv3 BUILD="$B" VEC_ROOT="$tmp/v"
# Every vector of a protocol passes the reference at each of its expect sections (vectors-check-ref-P):
# a hand-written vector of each kind altered in a copy fails it, naming the file.
rm -rf "$tmp/v/ptm" && cp -r vectors/ptm "$tmp/v/ptm" && sed -i 's/^truncated 12$/truncated 13/' "$tmp/v/ptm/neg/truncated-branch.tcv"
check "a PTM neg vector whose [error] offset is wrong fails vectors-check-ref-ptm, naming it" fails "$tmp/v/ptm/neg/truncated-branch.tcv" vectors-check-ref-ptm
check "... with the summary line" sh -c "grep -q '^vectors-check: 1 vectors of $tmp/v/ptm fail the reference' '$tmp/out'"
rm -rf "$tmp/v/ptm" && cp -r vectors/ptm "$tmp/v/ptm"
f=$(grep -l '^\[expect.l1\]' "$tmp/v/ptm/spec"/*.tcv | head -n 1)
sed -i '/^\[expect.l1\]/,/^\[/ s/^@0 00 async$/@0 00 async-wrong/' "$f"
check "a PTM spec vector whose expected L1 line is wrong fails vectors-check-ref-ptm" fails "vectors of $tmp/v/ptm fail the reference" vectors-check-ref-ptm
rm -rf "$tmp/v/ptm" && cp -r vectors/ptm "$tmp/v/ptm"
f=$(ls "$tmp/v/ptm/hdr"/*.tcv | head -n 1)
sed -i 's/^\[expect.l1\]$/[expect.l1x]/' "$f"
check "a PTM hdr vector that does not read (an unknown section) fails vectors-check-ref-ptm" fails "vectors of $tmp/v/ptm fail the reference" vectors-check-ref-ptm
rm -rf "$tmp/v/ptm" && cp -r vectors/ptm "$tmp/v/ptm"
check "the restored copy of vectors/ptm passes vectors-check-ref-ptm" make -s vectors-check-ref-ptm BUILD="$B" VEC_ROOT="$tmp/v"
rm -rf "$tmp/v/ete" && cp -r vectors/ete "$tmp/v/ete"
f=$(grep -l '^\[expect.l3\]' "$tmp/v/ete/l3"/*.tcv | head -n 1)
awk 'BEGIN{p=0} /^\[expect.l3\]/{p=1; print; next} p==1 && /^@/{print "# dropped: " $0; p=2; next} {print}' "$f" > "$tmp/x" && mv "$tmp/x" "$f"
check "an ETE l3 vector missing its first expected L3 line fails vectors-check-ref-ete" fails "vectors of $tmp/v/ete fail the reference" vectors-check-ref-ete
rm -rf "$tmp/v/ete" && cp -r vectors/ete "$tmp/v/ete"
f=$(grep -l '^\[error\]' "$tmp/v/ete/hand"/*.tcv | head -n 1)
sed -i '/^\[error\]/,/^\[/ s/^\([a-z-]*\) \([0-9]*\)$/\1 9\2/' "$f"
check "an ETE hand vector whose [error] offset is wrong fails vectors-check-ref-ete" fails "vectors of $tmp/v/ete fail the reference" vectors-check-ref-ete
rm -rf "$tmp/v/ete" && cp -r vectors/ete "$tmp/v/ete"
check "the restored copy of vectors/ete passes vectors-check-ref-ete" make -s vectors-check-ref-ete BUILD="$B" VEC_ROOT="$tmp/v"
rm -rf "$tmp/all" && cp -r vectors "$tmp/all" && sed -i 's/^truncated 12$/truncated 13/' "$tmp/all/ptm/neg/truncated-branch.tcv"
check "make vectors-check over a copy of vectors/ with that PTM neg vector altered fails" sh -c \
	"! make -s vectors-check BUILD='$B' VEC_ROOT='$tmp/all' > '$tmp/out' 2>&1 && grep -qF '$tmp/all/ptm/neg/truncated-branch.tcv' '$tmp/out'"
cp -r reference/test/insn "$tmp/tables"
sed -i 's/\tdir\t1\t0\ta64\t+0x1000\t/\tdir\t0\t0\ta64\t+0x1000\t/' "$tmp/tables/a64.tsv"
check "a table row changed (a64 BL without link) fails vectors-check-insn-ete: the vectors follow the tables" sh -c \
	"! make -s vectors-check-insn-ete BUILD='$B' INSN_TABLES='$tmp/tables' > '$tmp/out' 2>&1 && cat '$tmp/out' && grep -q 'vectors/ete/insn differs' '$tmp/out'"
sed -i 's/\tindir\t0\t0\tt32\t-\tt32.S:53 bx lr$/\tother\t0\t0\tt32\t-\tt32.S:53 bx lr/' "$tmp/tables/t32.tsv"
check "a table row changed (t32 bx lr as other) fails vectors-check-insn-etmv3: the vectors follow the tables" sh -c \
	"! make -s vectors-check-insn-etmv3 BUILD='$B' INSN_TABLES='$tmp/tables' > '$tmp/out' 2>&1 && cat '$tmp/out' && grep -q 'vectors/etmv3/insn differs' '$tmp/out'"
tap_done
