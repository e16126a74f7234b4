# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the ETMv1 walk and L3 (reference/test/unit_etmv1_l3.c): the image walk's value
# lengths, the L3 items of each L1 kind, Example 5-1 through decoder, walk and analyzer.
exec "${TC_BUILD:-build}/test/unit_etmv1_l3"
