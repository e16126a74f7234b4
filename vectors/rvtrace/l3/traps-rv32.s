# traps-rv32.s (the image of traps-interrupt-exception-rv32.tcv, traps-notval-rv32.tcv and privilege-trace-off-rv32.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x1000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 1		# 0x1000 (user mode)
	addi	a0, a0, 1		# 0x1004: an interrupt follows it (machine timer, cause 7)
	addi	a0, a0, 2		# 0x1008: the interrupt handler returns here
	sw	a1, 0(a2)		# 0x100c: a2 = 0x2000, no memory there: store access fault (cause 7), does not retire (exc_only)
	addi	a0, a0, 3		# 0x1010: the exception handler returns here, past the sw
	.org	0x1100 - 0x1000
	addi	t1, t1, 1		# 0x1100: interrupt handler (machine mode)
	mret				# 0x1104
	.org	0x1200 - 0x1000
	csrr	t0, mepc		# 0x1200: exception handler (machine mode)
	addi	t0, t0, 4		# 0x1204
	csrw	mepc, t0		# 0x1208
	mret				# 0x120c
# SPDX-License-Identifier: BSD-3-Clause
