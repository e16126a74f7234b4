# address-wrap-rv32-low.s (the image at 0 of address-wrap-rv32.tcv and full-address-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x0, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a1, zero, 1		# 0x0
	beqz	a1, 1f			# 0x4: not taken
	addi	a1, a1, 1		# 0x8
1:	addi	a1, a1, 2		# 0xc
# SPDX-License-Identifier: BSD-3-Clause
