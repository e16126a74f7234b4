# Every vector under vectors/ through the reference decoder (whole, 1-byte, random chunks).
exec "${TC_BUILD:-build}/test/vectest" vectors
