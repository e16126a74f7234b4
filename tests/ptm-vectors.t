# Every vector under vectors/ptm through the PTM reference decoder (whole, 1-byte, random chunks),
# by its own small reader (reference/test/ptm_vectest.c) until the shared reader knows protocol=ptm.
exec "${TC_BUILD:-build}/test/ptm_vectest" vectors/ptm
