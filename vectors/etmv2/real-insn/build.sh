#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh — make vectors-real: the ETMv2 real-execution vectors of this folder, from the A32
# assembly programs of ../../etmv1/real-insn/src (the ETMv1 vectors' own, not copied), run by
# qemu-arm -cpu arm1026 (an ARM1026EJ-S, an ETM10 core, ARMv5TE): the build shared with
# vectors/etmv1/real-insn, ../../real-insn-a32.sh, says how.
# usage: sh build.sh TRACECERT OUT WORK | sh build.sh --check (only says which packages are missing)
set -eu
exec /bin/sh "$(dirname "$0")/../../real-insn-a32.sh" etmv2 arm1026 "$@"
