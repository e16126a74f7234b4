# SPDX-License-Identifier: BSD-3-Clause
# Vector files through the one writer (conformance/vecwrite.c): every vector under vectors/ is written,
# read back as the same vector and written again as the same text (build/test/vecround); the generated
# vectors are byte for byte the writer's text; tracecert gen writes through it for every protocol and
# refuses what it cannot do; the program of the templated ETE vectors (tools/vecgen/ete_neg.c) refuses
# bad use.
B="${TC_BUILD:-build}"
T="$B/tracecert"
V="$B/test/vectest"
R="$B/test/vecround"
N="$B/vecgen/ete_neg"
. tests/lib/tap.sh
# rejects MESSAGE ARG...: tracecert ARG... prints MESSAGE (a fixed string) and exits 2.
rejects() { m=$1; shift; "$T" "$@" 2>&1 | grep -qF -- "$m" && { "$T" "$@" >/dev/null 2>&1; test $? -eq 2; }; }
check "every vector under vectors/: written, read back the same, written again the same text" "$R" vectors
check "vectors/ete/gen, vectors/ptm/gen and vectors/etmv3/gen are byte for byte the text the writer writes" "$R" --identical vectors/ete/gen vectors/ptm/gen vectors/etmv3/gen
check "a hand-written vector (comments, registers in [config]) round-trips as content, not as text" sh -c "'$R' tests/data/regs-k10-15.tcv && ! '$R' --identical tests/data/regs-k10-15.tcv"
check "gen --protocol ptm: 3 vectors that decode as they say and are the writer's text" sh -c "'$T' gen --protocol ptm --seed 40 --count 3 --quiet --out '$tmp/p' && test \$(ls '$tmp/p' | wc -l) -eq 3 && grep -qx 'protocol=ptm' '$tmp/p/gen-000040.tcv' && '$V' '$tmp/p' && '$R' --identical '$tmp/p'"
check "gen --negative (ete): 20 vectors that are the writer's text" sh -c "'$T' gen --negative --count 20 --quiet --out '$tmp/n' && '$R' --identical '$tmp/n'"
check "gen --protocol ptm --config fixes the configuration, given before or after --protocol" sh -c "'$T' gen --config contextid_size=4 --protocol ptm --seed 3 --quiet | grep -qx 'contextid_size=4' && '$T' gen --protocol ptm --config ETMCR=0x1000 --seed 3 --quiet | grep -qx 'cycle_accurate=1'"
n_ptm=$(grep -v '^#' encoder/ptm/variants.txt | grep -v '^[[:space:]]*$' | sort -u | wc -l)
check "gen --protocol ptm --coverage counts the $n_ptm variants of encoder/ptm/variants.txt" sh -c "'$T' gen --protocol ptm --count 20 --coverage --quiet | grep -q '^# variants used: [0-9]*/$n_ptm\$'"
check "an unknown protocol is refused with the list of encoders, one per protocol of PROTOCOLS with an encoder (exit 2)" rejects "unknown protocol 'bogus' (the encoders of this build: $(tc_enc_protocols | sed 's/ /, /g'))" gen --protocol bogus
check "--protocol without a value is refused (exit 2)" rejects "option '--protocol' needs a value (P)" gen --protocol
check "a key of another protocol is refused, naming the protocol that has it (exit 2)" rejects "'maxspec' is a config key or register of protocol ete, not of ptm" gen --protocol ptm --config maxspec=1
check "--negative with an encoder that makes none is refused (exit 2)" rejects "the ptm encoder makes no negative vectors" gen --protocol ptm --negative
check "--snapshot-out of PTM vectors writes a PTM source (tests/snapshot.t decodes them), exit 0" sh -c "'$T' gen --protocol ptm --quiet --snapshot-out '$tmp/snap' > /dev/null && grep -qx 'type=PTM1.0' '$tmp/snap/ptm_0.ini' && grep -qx 'PTM_0=ETB_0' '$tmp/snap/trace.ini'"
check "gen --out into a folder that cannot be made names it (exit 2)" rejects "cannot create '/nonexistent/x'" gen --protocol ptm --quiet --out /nonexistent/x
# make vectors-select's search (gen --select-vectors: the encoder's candidates and plain seeds) gives the
# seeds of each protocol's checked-in list (the seed numbers; its header names how it was made).
# The ASan+UBSan pass searches for the first protocol only (the search is the tool's, one for every
# protocol; each encoder's runs are the round trip's, tests/roundtrip.t): every protocol's is the plain pass's.
select_protocols=$(tc_enc_protocols)
case "$B" in *asan*) select_protocols=${select_protocols%% *} ;; esac
for p in $select_protocols; do
  check "$p: gen --select-vectors gives the seeds of vectors/$p/gen/seeds.txt" sh -c "'$T' gen --protocol $p --select-vectors 2>/dev/null | grep -v '^#' > '$tmp/sel' && grep -v '^#' vectors/$p/gen/seeds.txt | cmp - '$tmp/sel'"
done
check "gen --select-vectors does not go with --select (exit 2)" rejects "--select-vectors does not go with --select or --extra" gen --select-vectors --select 5
check "gen --help documents --protocol and each encoder with its defaults and negative kinds" sh -c "h=\$('$T' gen --help) && echo \"\$h\" | grep -q '^  --protocol P ' && echo \"\$h\" | grep -q '^--protocol ete, the default (variants: encoder/ete/variants.txt):' && echo \"\$h\" | grep -q '^--protocol ptm (variants: encoder/ptm/variants.txt):' && echo \"\$h\" | grep -q '^  --steps 200 --blocks 64 unless given' && echo \"\$h\" | grep -q '^    reserved-header ' && echo \"\$h\" | grep -q 'No negative vectors'"
check "gen --help --protocol ptm (and help gen --protocol ptm) shows ptm's encoder only" sh -c "'$T' gen --help --protocol ptm > '$tmp/h1' && '$T' help gen --protocol=ptm > '$tmp/h2' && cmp '$tmp/h1' '$tmp/h2' && grep -q '^--protocol ptm ' '$tmp/h1' && ! grep -q '^--protocol ete' '$tmp/h1'"
check "gen follows the GNU conventions: --seed=5 is --seed 5, --prot is --protocol, --version" sh -c "'$T' gen --protocol=ptm --seed=5 --quiet > '$tmp/a' && '$T' gen --prot ptm --seed 5 --quiet > '$tmp/b' && cmp '$tmp/a' '$tmp/b' && '$T' gen --version | grep -q '^tracecert '"
check "gen takes no operand (exit 2)" rejects "takes no operand, got 'x'" gen x
check "ete_neg --help says what it writes (exit 0)" sh -c "'$N' --help | grep -q 'DIR/warn/'"
check "ete_neg without DIR prints the usage (exit 2)" sh -c "'$N' 2>&1 | grep -q '^usage: ete_neg DIR' && { '$N' 2>/dev/null; test \$? -eq 2; }"
check "ete_neg into a folder it cannot create names it (exit 1)" sh -c "'$N' /nonexistent/v 2>&1 | grep -qF \"ete_neg: cannot create '/nonexistent/v'\" && { '$N' /nonexistent/v 2>/dev/null; test \$? -eq 1; }"
check "ete_neg writes 179 + 28 vectors that decode as they say" sh -c "'$N' '$tmp/e' | grep -q 'wrote 179 files' && test \$(ls '$tmp/e/warn' | wc -l) -eq 28 && '$V' '$tmp/e'"
check "vecround on a path without vectors fails" sh -c "! '$R' '$tmp/nothing-here'"
# The instruction tables' reader (tools/vecgen/insn_rows.c) reads lines of any length (tc_text_read): a
# comment of 3000 characters and CR LF line ends change no vector; a NUL byte is an error naming it.
I="$B/vecgen/ete_insn"
mkdir "$tmp/tab" "$tmp/tabnul"; cp reference/test/insn/*.tsv "$tmp/tab/"; cp reference/test/insn/*.tsv "$tmp/tabnul/"
long=$(printf '%3000s' '' | tr ' ' x)
for t in "$tmp"/tab/*.tsv; do { printf '# %s\n' "$long"; sed 's/$/\r/' "$t"; } > "$t.new" && mv "$t.new" "$t"; done
printf '# a NUL:\000\n' >> "$tmp/tabnul/a32.tsv"
check "instruction tables with a 3000-character comment line and CR LF: the same vectors" sh -c "'$I' reference/test/insn '$tmp/insn-a' && '$I' '$tmp/tab' '$tmp/insn-b' && diff -r '$tmp/insn-a' '$tmp/insn-b' && test \$(ls '$tmp/insn-b' | wc -l) -gt 10"
check "an instruction table with a NUL byte: an error naming the table and the offset" sh -c "! '$I' '$tmp/tabnul' '$tmp/insn-c' 2> '$tmp/insn-c.err' && grep -q \"$tmp/tabnul/a32.tsv: byte offset [0-9]*: a NUL byte\" '$tmp/insn-c.err'"
tap_done
