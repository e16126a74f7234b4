# walk-limit-key-rv32.s (the image of walk-limit-key-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xc000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.text
	addi	a0, zero, 1		# 0xc000
	addi	a0, a0, 1		# 0xc004
	addi	a0, a0, 1		# 0xc008
	addi	a0, a0, 1		# 0xc00c
	addi	a0, a0, 1		# 0xc010
	addi	a0, a0, 1		# 0xc014
	addi	a0, a0, 1		# 0xc018
# SPDX-License-Identifier: BSD-3-Clause
