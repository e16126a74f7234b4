# The PTM encoder's truth == the PTM reference decoder's L1 and L3 for seeds 1-2000, which cover every variant.
# (Fed whole, byte by byte and in random chunks; --require-coverage: encoder/ptm/variants.txt, every line.)
exec "${TC_BUILD:-build}/test/ptm_roundtrip" --require-coverage 1 "${TC_PTM_ROUNDTRIP_SEEDS:-2000}"
