# SPDX-License-Identifier: BSD-3-Clause
# RISC-V instruction classification (reference/rvinsn.c) against assembler-produced encodings.
exec "${TC_BUILD:-build}/test/unit_rvinsn" reference/test/insn
