# Every encoder's ground truth == its protocol's reference decoder (L1, L3), fed whole, byte by
# byte and in random chunks, for seeds 1-2000 of each protocol of the build with an encoder;
# --require-coverage: the seeds produce every variant of each encoder's list (encoder/<p>/variants.txt).
exec "${TC_BUILD:-build}/test/roundtrip" --require-coverage 1 "${TC_ROUNDTRIP_SEEDS:-2000}"
