# SPDX-License-Identifier: BSD-3-Clause
# A32/T32 data transfers (ARMv5TE loads, stores, LSMs, CPRTs) against assembler-produced encodings.
exec "${TC_BUILD:-build}/test/unit_armxfer" reference/test/armxfer
