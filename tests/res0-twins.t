# ERRATA TC-R1 on every positive vector: each packet with a field the text leaves unassigned (or
# does not read in its configuration) decodes the same with that field set, plus one warning.
exec "${TC_BUILD:-build}/test/twins" vectors
