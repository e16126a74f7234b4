# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the RISC-V processor trace 0.026 reference decoder at L1 (reference/test/unit_rvtrace.c).
exec "${TC_BUILD:-build}/test/unit_rvtrace"
