# SPDX-License-Identifier: BSD-3-Clause
# pairs-rv64.S: the pairs of Table 3.2 (RISC-V processor trace 0.026 L163-171, ERRATA RV-P12) in
# RV64GC: auipc, lui and c.lui, each followed by jalr, c.jr or c.jalr through the register it wrote,
# with positive and negative upper immediates and jump offsets, odd offsets and targets 2 mod 4,
# link and base registers x1, x3, x16 and x18, an upper value with bit 30 set, a pc-relative offset
# of 1 GiB; a jal of ~1 MiB each way; and jumps that are not pairs (an instruction writes the
# register in between, or the jump reads another register). Freestanding (no C library): linked
# with .text at 0x10000, .far1 at 0x100000 and .far2 at 0x40100000 (build.sh), each block at a
# fixed address (.org) so that the immediates below reach it; the blocks run as a chain, in the
# order of their numbers, and the last exits by ecall.
	.option norelax
	.option norvc			# 32-bit encodings unless written as c.* (the macro C)
	.macro	C insn:vararg
	.option	push
	.option	rvc
	\insn
	.option	pop
	.endm
	.text
	.globl	_start
	.type	_start, @function
_start:					# 0x10000: block 0
	C c.li	a0, 0
	lui	t0, 0x15		# t0 = 0x15000 (upper bit 0 set: word bit 12)
	jalr	zero, 1(t0)		# pair, odd offset: to (0x15000 + 1) & ~1 = 0x15000

	.org	0x10400 - 0x10000	# block 9
	C c.lui	t0, 0x1c		# t0 = 0x1c000
	C c.jalr	t0			# pair, a call (ra = 0x10404): to 0x1c000

	.org	0x15000 - 0x10000	# block 1
	auipc	t1, 0x1			# t1 = 0x15000 + 0x1000 = 0x16000
	jalr	zero, 0x404(t1)		# pair, offset 0x404 (bit 10 set): to 0x16404

	.org	0x16404 - 0x10000	# block 2
	lui	ra, 0x17		# ra = 0x17000
	jalr	zero, 0x7fe(ra)		# pair through x1, offset 0x7fe: to 0x177fe (2 mod 4)

	.org	0x167fc - 0x10000	# block 4
	C c.lui	a6, 0x18		# a6 (x16) = 0x18000
	C c.jr	a6			# pair through x16: to 0x18000

	.org	0x177fe - 0x10000	# block 3
	auipc	t2, 0xfffff		# t2 = 0x177fe - 0x1000 = 0x167fe
	jalr	zero, -2(t2)		# pair, negative offset: to 0x167fc

	.org	0x18000 - 0x10000	# block 5
	C c.lui	ra, 0x19		# ra (x1) = 0x19000
	C c.jr	ra			# pair through x1: to 0x19000

	.org	0x19000 - 0x10000	# block 6
	C c.lui	gp, 0x1a		# gp (x3) = 0x1a000
	jalr	zero, 2(gp)		# pair through x3, offset 2: to 0x1a002

	.org	0x1a002 - 0x10000	# block 7
	C c.lui	s2, 0x1b		# s2 (x18) = 0x1b000
	C c.jr	s2			# pair through x18: to 0x1b000

	.org	0x1b000 - 0x10000	# block 8
	C c.mv	a0, ra			# c.mv and c.add with rs2 = x1 (not c.jr, c.jalr)
	C c.add	a1, ra
	C c.lui	t0, 0x10		# t0 = 0x10000 (nzimm[16] alone)
	jalr	zero, 0x400(t0)		# pair: to 0x10400

	.org	0x1c000 - 0x10000	# block 10: jumps that are not pairs
	auipc	t0, 0			# t0 = 0x1c000
	addi	t1, t1, 1		# another instruction between: not a pair
	jalr	zero, 0x10(t0)		# uninferable: to 0x1c010
	.org	0x1c010 - 0x10000
	auipc	t0, 0			# t0 = 0x1c010
	addi	t0, t0, 0x10		# writes t0 again: t0 = 0x1c020
	jalr	zero, 0(t0)		# uninferable: to 0x1c020
	.org	0x1c020 - 0x10000
	C c.mv	t6, t0			# t6 = 0x1c020
	lui	t5, 0x1c		# t5 = 0x1c000: not the register jalr reads
	jalr	zero, 0x10(t6)		# uninferable: to 0x1c030
	.org	0x1c030 - 0x10000
	lui	ra, 0x1c		# ra = 0x1c000
	jalr	ra, 0x40(ra)		# pair through x1, linking x1: to 0x1c040
	.org	0x1c040 - 0x10000
	jal	zero, far1		# 0xe3fc0 bytes forward (offset bit 19 set)

	.org	0x1d000 - 0x10000	# block 15
	li	a0, 0
	li	a7, 93
	ecall				# exit(0)
	.size	_start, . - _start

	.section .far1, "ax"
	.globl	far1
	.type	far1, @function
far1:					# 0x100000: block 11
	auipc	t0, 0x40000		# t0 = 0x100000 + 0x40000000 (offset bit 30 set)
	jalr	zero, 0(t0)		# pair: to 0x40100000
	.org	0x1000			# block 14
	jal	zero, 0x1d000		# 0x101000: 0xe4000 bytes backward
	.size	far1, . - far1

	.section .far2, "ax"
	.globl	far2
	.type	far2, @function
far2:					# 0x40100000: block 12
	lui	t1, 0x40110		# t1 = 0x40110000 (bit 30 set)
	jalr	zero, 0(t1)		# pair: to 0x40110000
	.org	0x10000			# block 13
	lui	t0, 0x101		# t0 = 0x101000
	jalr	zero, 0(t0)		# pair: to 0x101000
	.size	far2, . - far2
