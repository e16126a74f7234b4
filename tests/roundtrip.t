# The encoder's ground truth == the reference decoder's output (L1, L3), for a bounded number of seeds.
exec "${TC_BUILD:-build}/test/roundtrip" 1 "${TC_ROUNDTRIP_SEEDS:-1500}"
