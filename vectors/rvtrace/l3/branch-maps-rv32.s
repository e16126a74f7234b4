# branch-maps-rv32.s (the image of branch-maps-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x3000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.text
	addi	t0, zero, 31		# 0x3000
1:	addi	t0, t0, -1		# 0x3004
	bnez	t0, 1b			# 0x3008: taken 30 times (t0 30..1), not taken the 31st (t0 = 0)
	addi	t1, zero, 3		# 0x300c
2:	addi	t1, t1, -1		# 0x3010
	beqz	t1, 3f			# 0x3014: t1 = 2, 1: not taken; t1 = 0: taken
	j	2b			# 0x3018: jal zero, an inferable jump (no map bit)
3:	addi	t2, zero, 7		# 0x301c
	addi	t3, zero, 8		# 0x3020
	slli	t3, t3, 1		# 0x3024
	sw	t3, 0(sp)		# 0x3028
	lw	t4, 0(sp)		# 0x302c
# SPDX-License-Identifier: BSD-3-Clause
