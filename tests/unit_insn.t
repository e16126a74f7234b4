# SPDX-License-Identifier: BSD-3-Clause
# Instruction classification (A64, A32, T32) against assembler-produced encodings.
exec "${TC_BUILD:-build}/test/unit_insn" reference/test/insn
