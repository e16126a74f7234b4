# c-2505.s (the image of c-jal-rv32.tcv, c-addiw-rv64.tcv and c-ext-0-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x7000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	.2byte	0x2505			# 0x7000: RV32 c.jal 0x7620; RV64 c.addiw a0,1 (objdump -M no-aliases, both)
	addi	a0, a0, 1		# 0x7002
	.org	0x620
	addi	a1, a1, 1		# 0x7620
# SPDX-License-Identifier: BSD-3-Clause
