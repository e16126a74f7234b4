# SPDX-License-Identifier: BSD-3-Clause
# The shared L3 text writer and parser (reference/l3text.c).
exec "${TC_BUILD:-build}/test/unit_l3text" vectors
