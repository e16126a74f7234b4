#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh — make vectors-real: the ETMv1 real-execution vectors of this folder, from the A32
# assembly programs of src/, run by qemu-arm -cpu arm926 (an ARM926EJ-S, an ETM9 core): the build
# shared with vectors/etmv2/real-insn, ../../real-insn-a32.sh, says how.
# usage: sh build.sh TRACECERT OUT WORK | sh build.sh --check (only says which packages are missing)
set -eu
exec /bin/sh "$(dirname "$0")/../../real-insn-a32.sh" etmv1 arm926 "$@"
