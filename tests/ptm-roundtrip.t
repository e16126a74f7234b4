# The PTM encoder's ground truth == the PTM reference decoder's output (L1, L3; fed whole, byte by byte,
# in random chunks) for a fixed seed list, which must also produce every variant of encoder/ptm/variants.txt.
exec "${TC_BUILD:-build}/test/ptm_roundtrip" --require-coverage 1 "${TC_PTM_ROUNDTRIP_SEEDS:-2000}"
