# exceptions-rv64.s (the image of exceptions-rv64.tcv): written by GNU as 2.40 (riscv64-linux-gnu-as, Debian binutils 2.40), linked by riscv64-linux-gnu-ld --no-relax -Ttext=0x8000, .text taken by riscv64-linux-gnu-objcopy -O binary.

	.option norelax
	.option norvc
	.text
	addi	a0, zero, 1		# 0x8000 (user mode)
	ecall				# 0x8004: retires with its trap (er_ccdn): cause 8
	addi	a0, a0, 1		# 0x8008: the handler returns here
	ld	a1, 0(a2)		# 0x800c: faults (load access fault, cause 5), does not retire (exc_only)
	addi	a0, a0, 2		# 0x8010: the handler returns here, past the ld
	addi	a0, a0, 3		# 0x8014: an interrupt follows it (machine timer, cause 7)
	jalr	zero, 0(a3)		# 0x8018: a3 = 0x9000, without image: the fetch faults (cause 12)
	.org	0x8100 - 0x8000
	csrr	t0, mepc		# 0x8100: exception handler (machine mode)
	addi	t0, t0, 4		# 0x8104
	csrw	mepc, t0		# 0x8108
	mret				# 0x810c
	.org	0x8200 - 0x8000
	addi	t1, t1, 1		# 0x8200: interrupt handler
	mret				# 0x8204
# SPDX-License-Identifier: BSD-3-Clause
