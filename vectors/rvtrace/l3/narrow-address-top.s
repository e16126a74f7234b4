# narrow-address-top.s (the image at 0xfffffffff8 of narrow-address-rv64.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xfffffffff8, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 1		# 0xfffffffff8: the top of the 40-bit address space
	addi	a0, a0, 1		# 0xfffffffffc: its successor is 0x0 modulo 2^40
# SPDX-License-Identifier: BSD-3-Clause
