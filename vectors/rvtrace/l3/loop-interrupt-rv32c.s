# loop-interrupt-rv32c.s (the image of loop-interrupt-rv32c.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x100, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.text
	.option rvc
	c.li	a0, 3			# 0x100
1:	c.addi	a1, 1			# 0x102
	.option norvc
	addi	a2, a2, 1		# 0x104: the interrupt follows it in the third iteration
	.option rvc
	c.addi	a0, -1			# 0x108
	c.bnez	a0, 1b			# 0x10a: taken (a0 = 2, 1), not taken (a0 = 0)
	c.lui	a5, 1			# 0x10c: a5 = 0x1000
	c.jalr	a5			# 0x10e: preceded by c.lui a5: an inferable call to 0x1000 (Table 3.2 itype 9)
	.option norvc
	.org	0x120 - 0x100
	addi	a3, a3, 1		# 0x120
	.org	0x200 - 0x100
	.option rvc
	c.addi	a4, 1			# 0x200: interrupt handler, machine mode as the code it interrupts
	.option norvc
	mret				# 0x202: back to 0x108, same privilege: no sync, a format 2 packet
	.org	0x1000 - 0x100
	jalr	zero, 0x120(zero)	# 0x1000: rs1 = x0: uninferable all the same (RV-P12), to 0x120
# SPDX-License-Identifier: BSD-3-Clause
