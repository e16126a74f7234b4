# SPDX-License-Identifier: BSD-3-Clause
# Every encoder's ground truth == its protocol's reference decoder (L1, L3), fed whole, byte by
# byte and in random chunks, for seeds 1-2000 of each protocol of the build with an encoder;
# --require-coverage: the seeds produce every variant of each encoder's list (encoder/<p>/variants.txt).
# The ASan+UBSan pass of make check looks for undefined behaviour on the same paths: per protocol,
# a budget of seeds that also produce every variant (asan_seeds below, rounded up from the fewest
# that do, measured 2026-12-03: ETMv3 800 (750 miss some), PFT/PTM 400, ETE and RISC-V trace 350,
# ETMv2 400, ETMv1 150), one test each; the agreement over 2000 seeds is the plain pass's.
B="${TC_BUILD:-build}"
case "$B" in *asan*) ;; *) exec "$B/test/roundtrip" --require-coverage 1 "${TC_ROUNDTRIP_SEEDS:-2000}" ;; esac
. tests/lib/tap.sh
asan_seeds() { case $1 in etmv3) echo 800 ;; etmv2) echo 500 ;; etmv1) echo 300 ;; *) echo 400 ;; esac; }
for p in $(tc_enc_protocols); do
	seeds=${TC_ROUNDTRIP_SEEDS:-$(asan_seeds "$p")}
	check "$p: seeds 1..$seeds, encoder truth == reference decode (whole, bytes, chunks), every variant produced" \
		"$B/test/roundtrip" --protocol "$p" --require-coverage 1 "$seeds"
done
tap_done
