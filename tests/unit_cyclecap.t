# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the per-cycle sample file reader (reference/test/unit_cyclecap.c).
exec "${TC_BUILD:-build}/test/unit_cyclecap"
