# rv64.S — RV64GC instructions for the classifier reference/rvinsn.c (tc_rvinsn_decode, xlen 64,
# c_ext 1). rvgen.sh assembles this file with the GNU assembler (-march=rv64gc -mno-relax, so that
# every target is resolved in the object) and writes rv64.tsv from objdump's disassembly: the class
# follows from objdump's mnemonic, the target and immediates are objdump's. `. + N` puts a target
# anywhere in range without padding the section.
	.text
	.include "rvcommon.inc"
# ---- RV64 only
	.option norvc
	addiw a0, a1, -1
	ld a0, 0(a1)
	sd a1, 8(a2)
	sllw a0, a1, a2
	slli a0, a0, 63
	lui t1, 0x80001
	auipc t2, 0xfffff
	.option rvc
	c.addiw a0, 1
	c.addiw x31, -32
	c.ld a0, 8(a1)
	c.sd a2, 248(a3)
	c.subw a0, a1
	c.addw s0, s1
	c.ldsp a0, 8(sp)
	c.sdsp a1, 504(sp)
	c.srli a0, 63
	c.srai a1, 32
	c.slli a0, 63
# SPDX-License-Identifier: BSD-3-Clause
