# The diff harness's explanations (fuzz/diff.c), replayed by the plain driver against OpenCSD 1.3.3:
# an explanation must not hide a divergence that its reading does not predict.
. tests/lib/tap.sh
b=${TC_BUILD:-build}
R="$b/fuzz/regress"; A="$b/adapters/libtc_opencsd.so"
if [ ! -x "$R" ] || [ ! -f "$A" ]; then
  echo "1..0 # SKIP needs $R (make fuzz-regress) and $A (libopencsd-dev)"; exit 0
fi
# Harness input: configuration bytes 01 MM 00 (COMMOPT=1, MAXSPEC=MM), adapter chunking 00, then
# A-sync, Trace Info 01 00 (cycle counting off, depth 0), the packets under test, atom F7.
async='\000\000\000\000\000\000\000\000\000\000\000\200'
printf "\001\000\000\000$async\001\000\014\000\367" > "$tmp/0c.bin"
printf "\001\000\000\000$async\001\000\024\367" > "$tmp/14.bin"
printf "\001\004\000\000$async\001\000\333\333\015\361\367" > "$tmp/0df1.bin"
printf "\001\004\000\000$async\001\000\333\333\015\362\367" > "$tmp/0df2.bin"
# 0C 00: with COMMOPT=1 the text reads neither F nor AAAA (K10.5.2.16.2); both readings of
# ERRATA TC-S7 commit nothing at MAXSPEC 0 (the literal one MAXSPEC + 15 - 15 = 0); OpenCSD
# commits 1 (F and AAAA from the payload byte): a divergence, not TC-S7-literal. The reference's
# two ignored-field warnings (ERRATA TC-R1) are not compared.
check "0x0C under COMMOPT=1 with a commit neither reading makes is divergent at the cycle count" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/0c.bin' 2>&1); echo \"\$out\" | grep -q '^diff: line 3 divergent: cycle-count/cycle-count:commit\$' && ! echo \"\$out\" | grep -q -e explained -e warning"
# 14: format 3 under COMMOPT=1 is read with AA = 00 (ERRATA TC-P7, TC-R1): no commit, cc = BB;
# OpenCSD decodes the same: no divergence at all.
check "0x14 under COMMOPT=1: OpenCSD and the reference agree (the warning is not compared)" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/14.bin' 2>&1); echo \"\$out\" | grep -q '^ok 1 ' && ! echo \"\$out\" | grep -q -e divergent -e explained"
# MAXSPEC 4, atoms EE EE (depth 4), then 0D F1: the project's reading commits nothing; the literal
# reading commits MAXSPEC + 15 - 15 = 4. OpenCSD takes F from payload bit 0 = 1 and AAAA = 15:
# 4 + 15 - 15 = 4, which is what TC-S7-literal commits: explained. With 0D F2 (bit 0 = 0) it
# commits AAAA + 1 = 16, which neither reading does: divergent.
check "0D F1 under COMMOPT=1 committing MAXSPEC is the TC-S7-literal reading" \
  sh -c "run() { TC_DIFF_ADAPTER='$A' '$R' diff \"\$1\" 2>&1; }; run '$tmp/0df1.bin' | grep -q '^diff: line 5 explained: .*TC-S7-literal'"
check "0D F2 under COMMOPT=1 committing 16 is divergent, not TC-S7-literal" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/0df2.bin' 2>&1); echo \"\$out\" | grep -q '^diff: line 5 divergent: cycle-count/cycle-count:commit\$' && ! echo \"\$out\" | grep -q explained"
# A candidate file holds the configuration the harness ran, queue capacities included (they decide
# queue-overflow lines; a missing key means the vector default, 65536 for tx_cap). Configuration
# byte 2 = 00: queue_cap = MAXSPEC + 64 = 64, tx_cap = 64 (fuzz.h). TC_DIFF_WRITE=1 lets the
# replay driver write the candidate.
printf "\001\000\000\000$async\001\000\014\000\367" > "$tmp/caps.bin"
check "a candidate records queue_cap and tx_cap as the harness set them" \
  sh -c "TC_DIFF_WRITE=1 TC_DIFF_FINDINGS='$tmp/f' TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/caps.bin' && test \$(ls '$tmp'/f/diff-*.tcv | wc -l) -eq 1 && grep -qx 'queue_cap=64' '$tmp'/f/diff-*.tcv && grep -qx 'tx_cap=64' '$tmp'/f/diff-*.tcv"
tap_done
