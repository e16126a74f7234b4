# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the ETMv2 reference decoder at L1 (reference/test/unit_etmv2.c); the protocol is
# staged (GNUmakefile STAGED_PROTOCOLS): its sources are linked into the unit tests only.
exec "${TC_BUILD:-build}/test/unit_etmv2"
