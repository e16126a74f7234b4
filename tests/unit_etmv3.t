# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the ETMv3 reference decoder through its public API.
exec "${TC_BUILD:-build}/test/unit_etmv3"
