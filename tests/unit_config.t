# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the ETE configuration: the key table, derivation from trace unit registers, its inverse.
exec "${TC_BUILD:-build}/test/unit_config"
