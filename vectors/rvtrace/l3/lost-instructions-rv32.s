# lost-instructions-rv32.s (the image of lost-instructions-rv32.tcv and lost-instructions-extra-packet-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0xd000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.text
	addi	t1, zero, 0		# 0xd000: (t1 is then set to 0xd004 by code not traced: lui/addi before)
1:	addi	t2, t2, 1		# 0xd004: A
	jalr	t1, 0(t1)		# 0xd008: first to t1 = 0xd004 (A), t1 := 0xd00c; then to 0xd00c
	addi	t3, zero, 5		# 0xd00c
# SPDX-License-Identifier: BSD-3-Clause
