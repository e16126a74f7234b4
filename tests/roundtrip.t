# SPDX-License-Identifier: BSD-3-Clause
# Every encoder's ground truth == its protocol's reference decoder (L1, L3), fed whole, byte by
# byte and in random chunks, for seeds 1-2000 of each protocol of the build with an encoder;
# --require-coverage: the seeds produce every variant of each encoder's list (encoder/<p>/variants.txt).
# The ASan+UBSan pass of make check runs seeds 1-800 (they too produce every variant; 500 miss four of ETMv3's): it looks for
# undefined behaviour on the same paths, and the agreement over 2000 seeds is the plain pass's.
seeds=2000
case "${TC_BUILD:-build}" in *asan*) seeds=800 ;; esac
exec "${TC_BUILD:-build}/test/roundtrip" --require-coverage 1 "${TC_ROUNDTRIP_SEEDS:-$seeds}"
