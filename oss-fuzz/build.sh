#!/bin/bash -eu
# SPDX-License-Identifier: BSD-3-Clause
# oss-fuzz/build.sh — builds tracecert's fuzz harnesses for OSS-Fuzz / ClusterFuzzLite (fuzz/README.md,
# "OSS-Fuzz and ClusterFuzzLite"). Runs in the builder image with the environment OSS-Fuzz sets: CC, CXX,
# CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, OUT, SRC, WORK. Every harness of make fuzz-harnesses (the list
# fuzz/fuzz.mk derives from PROTOCOLS) becomes $OUT/NAME with NAME_seed_corpus.zip, NAME.options and,
# when it has one, NAME.dict: make oss-fuzz-build (fuzz/oss-fuzz.mk) does it all, so a protocol added
# later needs no edit here.
#
# Optional: TC_OSS_FUZZ_ADAPTER / TC_OSS_FUZZ_DIFF_ADAPTER (a decoder project's adapter .so, built with
# $CC $CFLAGS, for the adapter harness / the P_diff harnesses; defaults: the reference adapter, and
# OpenCSD's when libopencsd-dev is installed), TC_MAKE_ARGS (more make arguments; oss-fuzz/check.sh).

cd "$SRC/tracecert"
# The seed writer runs here at build time: a plain host compiler, not the fuzzing one.
host_cc=$(command -v gcc || command -v cc || command -v clang)
# shellcheck disable=SC2086
make -j"$(nproc)" --no-print-directory FUZZ_REGRESS_CC="$host_cc" \
	OSS_FUZZ_ADAPTER="${TC_OSS_FUZZ_ADAPTER:-}" OSS_FUZZ_DIFF_ADAPTER="${TC_OSS_FUZZ_DIFF_ADAPTER:-}" \
	${TC_MAKE_ARGS:-} oss-fuzz-build
skipped=$(make --no-print-directory -s OSS_FUZZ_DIFF_ADAPTER="${TC_OSS_FUZZ_DIFF_ADAPTER:-}" ${TC_MAKE_ARGS:-} oss-fuzz-skipped)
if [ -n "$skipped" ]; then
	echo "build.sh: these harnesses were NOT built:"
	echo "$skipped" | sed 's/^/build.sh:   /'
fi
