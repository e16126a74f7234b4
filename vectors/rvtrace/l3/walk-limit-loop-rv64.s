# walk-limit-loop-rv64.s (the image of walk-limit-loop-rv64.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xb000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 1		# 0xb000
1:	j	1b			# 0xb004: jal zero, 0: an inferable jump to itself
# SPDX-License-Identifier: BSD-3-Clause
