# The diff harness's explanations (fuzz/diff.c), replayed by the plain driver against OpenCSD 1.3.3:
# an explanation must not hide a divergence that its reading does not predict.
. tests/lib/tap.sh
b=${TC_BUILD:-build}
R="$b/fuzz/regress"; A="$b/adapters/libtc_opencsd.so"
if [ ! -x "$R" ] || [ ! -f "$A" ]; then
  echo "1..0 # SKIP needs $R (make fuzz-regress) and $A (libopencsd-dev)"; exit 0
fi
# Harness input: configuration bytes 01 00 00 (COMMOPT=1, MAXSPEC=0), adapter chunking 00, then
# A-sync, Trace Info 01 00 (cycle counting off, depth 0), the header under test, atom F7.
async='\000\000\000\000\000\000\000\000\000\000\000\200'
printf "\001\000\000\000$async\001\000\014\000\367" > "$tmp/0c.bin"
printf "\001\000\000\000$async\001\000\024\367" > "$tmp/14.bin"
# 0C 00: reserved-header in the project's reading (ERRATA TC-S7). The literal reading makes it a
# format 2 packet committing MAXSPEC + 15 - 15 = 0; OpenCSD commits 1 (F and AAAA from the
# payload byte), which neither reading allows: a divergence, not TC-S7-literal.
check "0x0C under COMMOPT=1 with a commit the literal reading does not make is divergent" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/0c.bin' 2>&1); echo \"\$out\" | grep -q '^diff: line 3 divergent: error\[reserved-header\]/cycle-count' && ! echo \"\$out\" | grep -q 'explained'"
# 14: format 3 (TC-P7 reserved under COMMOPT=1); the literal reading is a cycle count
# committing nothing, which is what OpenCSD reports: explained.
check "0x14 under COMMOPT=1 decoded as a cycle count committing nothing is the TC-S7-literal reading" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/14.bin' 2>&1 | grep -q '^diff: line 3 explained: .*TC-S7-literal'"
# A candidate file holds the configuration the harness ran, queue capacities included (they decide
# queue-overflow lines; a missing key means the vector default, 65536 for tx_cap). Configuration
# byte 2 = 00: queue_cap = MAXSPEC + 64 = 64, tx_cap = 64 (fuzz.h). TC_DIFF_WRITE=1 lets the
# replay driver write the candidate.
printf "\001\000\000\000$async\001\000\014\000\367" > "$tmp/caps.bin"
check "a candidate records queue_cap and tx_cap as the harness set them" \
  sh -c "TC_DIFF_WRITE=1 TC_DIFF_FINDINGS='$tmp/f' TC_DIFF_ADAPTER='$A' '$R' diff '$tmp/caps.bin' && test \$(ls '$tmp'/f/diff-*.tcv | wc -l) -eq 1 && grep -qx 'queue_cap=64' '$tmp'/f/diff-*.tcv && grep -qx 'tx_cap=64' '$tmp'/f/diff-*.tcv"
tap_done
