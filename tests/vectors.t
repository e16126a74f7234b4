# Every ETE vector under vectors/ete through the reference decoder (whole, 1-byte, random chunks);
# vectors/ptm has its own test (ptm-vectors.t) until the shared reader knows protocol=ptm.
exec "${TC_BUILD:-build}/test/vectest" vectors/ete
