#!/bin/bash -eu
# SPDX-License-Identifier: BSD-3-Clause
# ClusterFuzzLite's build script: the one of OSS-Fuzz, oss-fuzz/build.sh (every harness of make
# fuzz-harnesses as a fuzz target in $OUT).
exec bash "$SRC/tracecert/oss-fuzz/build.sh"
