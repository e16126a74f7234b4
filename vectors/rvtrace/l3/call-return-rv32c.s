# call-return-rv32c.s (the image of call-return-rv32c.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x6000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 5		# 0x6000
	.option rvc
	c.jal	f			# 0x6004: c.jal (RV32 only), an inferable call (Table 3.2 itype 9)
	.option norvc
	addi	t0, zero, 2		# 0x6006: f returns here
1:	jal	ra, f			# 0x600a: jal ra, inferable call, twice from this one call site
	addi	t0, t0, -1		# 0x600e: f returns here, twice
	bnez	t0, 1b			# 0x6012: taken, then not taken
	addi	a1, a1, 1		# 0x6016
	.org	0x6030 - 0x6000
f:	.option rvc
	c.addi	a0, 1			# 0x6030
	c.jr	ra			# 0x6032: return (c.jr x1), uninferable (itype 10; 0.026 has no return stack)
# SPDX-License-Identifier: BSD-3-Clause
