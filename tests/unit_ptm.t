# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the PFT/PTM reference decoder (L1 and L3).
exec "${TC_BUILD:-build}/test/unit_ptm"
