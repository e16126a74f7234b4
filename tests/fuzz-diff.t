# SPDX-License-Identifier: BSD-3-Clause
# The differential harness (fuzz/diff.c) of every protocol, replayed by the plain driver against
# OpenCSD 1.3.3: an explanation (fuzz/P/diffrules.c) must not hide a divergence that its reading does
# not predict, and a candidate is a vector file of the harness's protocol and configuration.
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
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' ete_diff '$tmp/0c.bin' 2>&1); echo \"\$out\" | grep -q '^diff: line 3 divergent: cycle-count/cycle-count:commit\$' && ! echo \"\$out\" | grep -q -e explained -e warning"
# 14: format 3 under COMMOPT=1 is read with AA = 00 (ERRATA TC-P7, TC-R1): no commit, cc = BB;
# OpenCSD decodes the same: no divergence at all.
check "0x14 under COMMOPT=1: OpenCSD and the reference agree (the warning is not compared)" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' ete_diff '$tmp/14.bin' 2>&1); echo \"\$out\" | grep -q '^ok 1 ' && ! echo \"\$out\" | grep -q -e divergent -e explained"
# MAXSPEC 4, atoms EE EE (depth 4), then 0D F1: the project's reading commits nothing; the literal
# reading commits MAXSPEC + 15 - 15 = 4. OpenCSD takes F from payload bit 0 = 1 and AAAA = 15:
# 4 + 15 - 15 = 4, which is what TC-S7-literal commits: explained. With 0D F2 (bit 0 = 0) it
# commits AAAA + 1 = 16, which neither reading does: divergent.
check "0D F1 under COMMOPT=1 committing MAXSPEC is the TC-S7-literal reading" \
  sh -c "run() { TC_DIFF_ADAPTER='$A' '$R' ete_diff \"\$1\" 2>&1; }; run '$tmp/0df1.bin' | grep -q '^diff: line 5 explained: .*TC-S7-literal'"
check "0D F2 under COMMOPT=1 committing 16 is divergent, not TC-S7-literal" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' ete_diff '$tmp/0df2.bin' 2>&1); echo \"\$out\" | grep -q '^diff: line 5 divergent: cycle-count/cycle-count:commit\$' && ! echo \"\$out\" | grep -q explained"
# A candidate file holds the configuration the harness ran, queue capacities included (they decide
# queue-overflow lines; a missing key means the vector default, 65536 for tx_cap). Configuration
# byte 2 = 00: queue_cap = MAXSPEC + 64 = 64, tx_cap = 64 (fuzz.h). TC_DIFF_WRITE=1 lets the
# replay driver write the candidate.
printf "\001\000\000\000$async\001\000\014\000\367" > "$tmp/caps.bin"
check "a candidate records queue_cap and tx_cap as the harness set them" \
  sh -c "TC_DIFF_WRITE=1 TC_DIFF_FINDINGS='$tmp/f' TC_DIFF_ADAPTER='$A' '$R' ete_diff '$tmp/caps.bin' && test \$(ls '$tmp'/f/ete_diff-*.tcv | wc -l) -eq 1 && grep -qx 'queue_cap=64' '$tmp'/f/ete_diff-*.tcv && grep -qx 'tx_cap=64' '$tmp'/f/ete_diff-*.tcv"
# PTM (ptm_diff): configuration bytes one per key (version=1, ts_binary=1, the others 0), adapter
# chunking 00, then an A-sync and the packets under test (trace bytes as in vectors/ptm/hdr).
k='\001\000\000\000\000\000\000\000\001\000\000'; ptmsync='\000\000\000\000\000\200'
printf "$k$ptmsync\010\000\020\000\000\001\200\205" > "$tmp/ptm-agree.bin"
printf "$k$ptmsync\010\000\020\000\000\041\010\003\100\000\000\021" > "$tmp/ptm-jazelle.bin"
printf "$k$ptmsync\010\000\020\000\000\001\162\201\001\005" > "$tmp/ptm-waypoint.bin"
printf "$k$ptmsync\010\000\020\000\000\001\162\201\001\201\001" > "$tmp/ptm-waypoint-2.bin"
check "PTM: an I-sync and atoms both decoders read alike agree" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' ptm_diff '$tmp/ptm-agree.bin' 2>&1); echo \"\$out\" | grep -q '^ok 1 ' && ! echo \"\$out\" | grep -q -e divergent -e explained"
# @12 I-sync with J=1 (Jazelle, address 0x4003): OpenCSD does not read J (opencsd.md, PTM-P8).
check "PTM: a Jazelle I-sync read as another instruction set is the documented J-bit class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' ptm_diff '$tmp/ptm-jazelle.bin' 2>&1 | grep -q '^diff: line 3 explained: .*PTM-P8'"
# @12 waypoint update to 0x100, @15 branch 05 (A[7:2] = 2): the reference compresses against the
# I-sync's 0x1000 (0x1008), OpenCSD against the waypoint's 0x100 (0x108): PTM-S3.
check "PTM: a branch compressed against a waypoint update is the documented PTM-S3 class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' ptm_diff '$tmp/ptm-waypoint.bin' 2>&1 | grep -q '^diff: line 4 explained: .*PTM-S3'"
# The same with a two-byte branch address (81 01: bits 13:0 = 0x100): 0x100 against either
# compression reference, so both decoders agree and nothing is explained.
check "PTM: a branch both decoders resolve alike after a waypoint update is no divergence" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' ptm_diff '$tmp/ptm-waypoint-2.bin' 2>&1); echo \"\$out\" | grep -q '^ok 1 ' && ! echo \"\$out\" | grep -q -e divergent -e explained"
# @6 trigger, @7 branch 3B before any I-sync: A[7:2] = 0x1d against LastState 0 gives 0x74 (ARM,
# PTM-P5's reset state); OpenCSD, whose instruction set is unknown there, gives 0x3a. The address
# is UNKNOWN before the first I-sync (PTM-P5): explained. The same byte after an I-sync is not.
printf "$k$ptmsync\014\073" > "$tmp/ptm-before-isync.bin"
check "PTM: a branch address before the first I-sync is the PTM-P5 ambiguity" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' ptm_diff '$tmp/ptm-before-isync.bin' 2>&1 | grep -q '^diff: line 3 explained: .*PTM-P5'"
# 68 zeros, then 80: one A-sync at @0 (ERRATA PTM-P10: more zeros are accepted); OpenCSD outputs
# nothing. Divergent; the candidate is a PTM vector file with the harness's configuration.
z=''; i=0; while [ $i -lt 68 ]; do z="$z\\000"; i=$((i + 1)); done
printf "$k$z\200\010\000\020\000\000\001" > "$tmp/ptm-zeros.bin"
check "PTM: a divergence is written as a PTM candidate through the vector writer" \
  sh -c "TC_DIFF_WRITE=1 TC_DIFF_FINDINGS='$tmp/p' TC_DIFF_ADAPTER='$A' '$R' ptm_diff '$tmp/ptm-zeros.bin' 2>&1 | grep -q '^diff: line 1 divergent: adapter-ended-first after start\$' && test \$(ls '$tmp'/p/ptm_diff-*.tcv | wc -l) -eq 1 && head -1 '$tmp'/p/ptm_diff-*.tcv | grep -qx 'tracecert-vector 1' && grep -qx 'protocol=ptm' '$tmp'/p/ptm_diff-*.tcv && grep -qx 'version=1' '$tmp'/p/ptm_diff-*.tcv && grep -q '^# >> @0 00 async' '$tmp'/p/ptm_diff-*.tcv"
# ETMv3 (etmv3_diff): configuration bytes one per key (version=5, thumb2_one=1, ts_binary=1, the
# others 0; data_value=1 in the second form), adapter chunking 00, then an A-sync and the packets
# under test (trace bytes as in vectors/etmv3/hdr).
e='\005\000\000\000\000\000\000\000\001\000\000\000\000\001\000'; ev='\005\000\000\000\001\000\000\000\001\000\000\000\000\001\000'
e3sync='\000\000\000\000\000\200'
printf "$e$e3sync\010\041\000\020\000\000\204\210" > "$tmp/e3-agree.bin"
printf "$e$e3sync\106\177" > "$tmp/e3-r.bin"
printf "$e$e3sync\010\041\000\020\000\000\006\177" > "$tmp/e3-data-off.bin"
printf "$ev$e3sync\010\041\000\020\000\000\006\177" > "$tmp/e3-data-on.bin"
printf "$e$e3sync\010\041\000\020\000\000\020\204\000\000\000\000\000\200" > "$tmp/e3-resync.bin"
check "ETMv3: an I-sync and P-headers both decoders read alike agree" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' etmv3_diff '$tmp/e3-agree.bin' 2>&1); echo \"\$out\" | grep -q '^ok 1 ' && ! echo \"\$out\" | grep -q -e divergent -e explained"
# @6 46 7f: a timestamp with R = 1 (header bit 2); OpenCSD's packet has no R bit (r=0).
check "ETMv3: a timestamp whose R bit OpenCSD does not give is the documented adapter class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' etmv3_diff '$tmp/e3-r.bin' 2>&1 | grep -q '^diff: line 2 explained: .*R bit'"
# @12 06 7f: Normal data, SS = 01, with data address and value tracing off: OpenCSD's bad-mode (the
# reference decodes it: no value bytes, SS ignored); with data_value=1 both read the value 0x7f.
check "ETMv3: a data packet OpenCSD's data access setting refuses is the documented class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' etmv3_diff '$tmp/e3-data-off.bin' 2>&1 | grep -q '^diff: line 3 explained: .*data access setting'"
check "ETMv3: the same data packet with value tracing on is no divergence" \
  sh -c "out=\$(TC_DIFF_ADAPTER='$A' '$R' etmv3_diff '$tmp/e3-data-on.bin' 2>&1); echo \"\$out\" | grep -q '^ok 1 ' && ! echo \"\$out\" | grep -q -e divergent -e explained"
# @12 10: a reserved header (both); the reference searches for the A-sync @14, OpenCSD decodes on
# at @13 (84): left a candidate (the resync class), written as an ETMv3 vector file.
check "ETMv3: OpenCSD decoding on after a bad packet stays a candidate, an ETMv3 vector file" \
  sh -c "TC_DIFF_WRITE=1 TC_DIFF_FINDINGS='$tmp/e' TC_DIFF_ADAPTER='$A' '$R' etmv3_diff '$tmp/e3-resync.bin' 2>&1 | grep -q '^diff: line 4 divergent: reference-resyncs-later after error\[reserved-header\]\$' && test \$(ls '$tmp'/e/etmv3_diff-*.tcv | wc -l) -eq 1 && grep -qx 'protocol=etmv3' '$tmp'/e/etmv3_diff-*.tcv && grep -qx 'ts_binary=1' '$tmp'/e/etmv3_diff-*.tcv"
# fuzz/corpus/etmv3_diff inputs of three classes whose reference line is an error:
# lsip-byte5-form: ETMv3.0, cycle-accurate, contextid_size=1: @6 08 f8 a1 is an LSiP I-sync (information
# byte bit 7) whose current address 9c ec 86 81 a0 ends in the fifth-byte exception form (a0 = b1010 0000),
# the reference's reserved-field (ERRATA ETM3-P9, §7.7.3); OpenCSD gives an I-sync without lsip=.
check "ETMv3: an LSiP current address in the fifth-byte exception form is the documented LSiP class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' etmv3_diff fuzz/corpus/etmv3_diff/opencsd-lsip-byte5-form.bin 2>&1 | grep -q '^diff: line 2 explained: .*LSiP I-sync'"
# context-id-size0-at-end: ETMv3.4, contextid_size=0, @6 6e the last byte: the reference's bad-mode;
# OpenCSD's Context ID packet, its payload byte cut off (ctxid=0x0).
check "ETMv3: a Context ID header of size 0 at the end is the documented ContextIDSize b00 class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' etmv3_diff fuzz/corpus/etmv3_diff/opencsd-context-id-size0-at-end.bin 2>&1 | grep -q '^diff: line 2 explained: .*ContextIDSize b00'"
# data-only-branch-reserved: data-only mode, alternative scheme: @8 81 80 80 80 40 a branch packet,
# the reference's bad-mode (§7.4.10); OpenCSD decodes it and finds its fifth byte b01000000 reserved.
check "ETMv3: a branch packet in data-only mode OpenCSD finds malformed is the documented data-only class" \
  sh -c "TC_DIFF_ADAPTER='$A' '$R' etmv3_diff fuzz/corpus/etmv3_diff/opencsd-data-only-branch-reserved.bin 2>&1 | grep -q '^diff: line 3 explained: .*data-only mode'"
tap_done
