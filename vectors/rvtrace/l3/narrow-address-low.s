# narrow-address-low.s (the image at 0x0 of narrow-address-rv64.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x0, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	j	.-8			# 0x0: jal zero, -8: to 0 - 8 = 0xfffffffff8 modulo 2^40
# SPDX-License-Identifier: BSD-3-Clause
