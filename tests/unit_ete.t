# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the ETE reference decoder (stages 1-2).
exec "${TC_BUILD:-build}/test/unit_ete"
