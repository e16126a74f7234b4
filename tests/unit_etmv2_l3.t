# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the ETMv2 L3 analyzer (reference/test/unit_etmv2_l3.c): the L3 items of each L1
# kind and packet, exceptions by vector and E, TFO reasons, Table 6-5 through decoder and analyzer.
exec "${TC_BUILD:-build}/test/unit_etmv2_l3"
