# SPDX-License-Identifier: BSD-3-Clause
# A vector cut at any byte offset never reads as a vector: the reader requires its last line, [end]
# (vectors/README.md). build/test/vectest --cuts reads each file below whole with the reader every tool
# uses (tc_vector_read), then every cut of it (its first k bytes, for each k below its length), and
# fails when one reads. The files: the smallest vector of each folder of each protocol (spec, l3, gen,
# neg, warn, hand, hdr, image), so that the sweep stays cheap under ASan, and the vector with a sibling image
# file (its [image file=…] line is read in every cut that reaches it); rvtrace/l3's smallest has one too.
V="${TC_BUILD:-build}/test/vectest"
files=
for d in ete/spec ete/l3 ete/gen ete/neg ete/warn ete/hand ete/image ptm/spec ptm/gen ptm/neg ptm/warn ptm/hdr ptm/image rvtrace/l3; do
  f=$(ls -S vectors/$d/*.tcv 2>/dev/null | tail -n 1)
  if [ -z "$f" ]; then echo "1..1"; echo "not ok 1 - no vector in vectors/$d"; exit 1; fi
  files="$files $f"
done
# shellcheck disable=SC2086 # one argument per file (vector names hold no blank)
exec "$V" --cuts $files vectors/ete/hand/l3-raw-image-file.tcv
