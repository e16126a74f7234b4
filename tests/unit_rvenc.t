# SPDX-License-Identifier: BSD-3-Clause
# The rvtrace encoder round-tripped through the reference L1 decoder (reference/test/unit_rvenc.c).
exec "${TC_BUILD:-build}/test/unit_rvenc"
