# address-wrap-rv32.s (the image of address-wrap-rv32.tcv and full-address-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xfffffff0, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 1		# 0xfffffff0
	addi	a0, a0, 1		# 0xfffffff4
	.option rvc
	c.addi	a0, 1			# 0xfffffff8
	c.addi	a0, 2			# 0xfffffffa
	.option norvc
	addi	a0, a0, 3		# 0xfffffffc: its successor is 0x0 (modulo 2^32)
# SPDX-License-Identifier: BSD-3-Clause
