# SPDX-License-Identifier: BSD-3-Clause
# The OpenCSD adapter's 64-bit offsets over OpenCSD's 32-bit trace index: oc_unwrap's arithmetic, and
# the vectors decoded through OpenCSD as if the stream began just below 2^32, at 2^32, across 7*2^32
# and at the end of the 64-bit range (conformance/test/opencsd_offsets.c says how, and what it skips).
b=${TC_BUILD:-build}
if [ ! -x "$b/test/opencsd_offsets" ]; then
  echo "1..0 # SKIP needs libopencsd-dev (make builds $b/test/opencsd_offsets only when OpenCSD is installed)"; exit 0
fi
# ETE: not neg/ and regress/ (OpenCSD crashes at L3 on a regress vector, and the point here is offsets); PTM: every vector;
# ETMv3: the adapter's test vectors (tests/data/etmv3-opencsd-*.tcv but the data one, whose L3 the adapter refuses) and
# every vector of vectors/etmv3 when there is one.
set -- vectors/ete/spec vectors/ete/hdr vectors/ete/hand vectors/ete/l3 vectors/ete/gen vectors/ptm \
  tests/data/etmv3-opencsd-flow.tcv tests/data/etmv3-opencsd-packets.tcv tests/data/etmv3-opencsd-errors.tcv
[ -d vectors/etmv3 ] && set -- "$@" vectors/etmv3
# The ASan+UBSan pass takes a fifth of that (each vector is decoded 14 times through OpenCSD, whose
# allocations under ASan cost most of the pass): the spec and header vectors of each protocol and the
# adapter's test vectors. The offset arithmetic is the same code for every vector; the plain pass
# runs them all.
case "$b" in
*asan*) set -- vectors/ete/spec vectors/ete/hdr vectors/ptm/spec vectors/ptm/hdr vectors/etmv3/spec vectors/etmv3/hdr \
          tests/data/etmv3-opencsd-flow.tcv tests/data/etmv3-opencsd-packets.tcv tests/data/etmv3-opencsd-errors.tcv ;;
esac
exec "$b/test/opencsd_offsets" "$@"
