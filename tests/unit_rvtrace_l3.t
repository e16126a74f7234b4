# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the RISC-V processor trace 0.026 reference decoder at L3 (reference/test/unit_rvtrace_l3.c).
exec "${TC_BUILD:-build}/test/unit_rvtrace_l3"
