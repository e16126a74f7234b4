# errors-l3-rv32.s (the image of errors-l3-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xe000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.text
	beq	a0, a1, 1f		# 0xe000
	beq	a0, a2, 1f		# 0xe004
1:	addi	a0, a0, 1		# 0xe008
	jalr	zero, 0(ra)		# 0xe00c: uninferable
	addi	a1, a1, 1		# 0xe010
	beq	a0, a0, 2f		# 0xe014
	nop				# 0xe018
2:	addi	a2, a2, 1		# 0xe01c
# SPDX-License-Identifier: BSD-3-Clause
