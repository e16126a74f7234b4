# rv32.S — RV32GC instructions for the classifier reference/rvinsn.c (tc_rvinsn_decode, xlen 32,
# c_ext 1): rvcommon.inc (the instructions of both XLENs, here with 32-bit targets and values) and
# those of RV32 alone. rvgen.sh assembles this file with the GNU assembler (-march=rv32gc
# -mabi=ilp32d -mno-relax) and writes rv32.tsv from objdump's disassembly.
	.text
	.include "rvcommon.inc"
# ---- RV32 only: c.jal (its encoding is c.addiw in RV64), the single-precision C loads and stores
	.option rvc
	c.jal . + 2046
	c.jal . - 2048
	c.jal .
	c.jal . + 0x154
	c.flw fa0, 4(a0)
	c.fsw fa1, 124(a5)
	c.flwsp fa0, 252(sp)
	c.fswsp fa1, 4(sp)
# targets and values that wrap at 2^32
	.option norvc
	jal x1, . - 0x1000
	beq a0, a1, . - 0x800
	lui a0, 0x80000
	auipc a1, 0xfffff
# SPDX-License-Identifier: BSD-3-Clause
