# SPDX-License-Identifier: BSD-3-Clause
# The shared return stack (reference/retstack.c): empty, full, reset, depth 1 and the maximum.
exec "${TC_BUILD:-build}/test/unit_retstack"
