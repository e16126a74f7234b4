# SPDX-License-Identifier: BSD-3-Clause
# branches-rv64.S: every conditional branch and direct jump form of RV64GC (unprivileged ISA
# 20191213 §2.5, chapter 16), taken and not taken, forward and backward, with forward distances
# that set each bit of the offset in turn; and the quadrant-1 and quadrant-2 ALU, load and store
# forms of C. Freestanding (no C library): _start runs straight through and exits by ecall.
	.option norelax
	.text
	.globl	_start
	.type	_start, @function
_start:
	la	sp, stack_top
	li	s0, 0			# s0 = 0 (x8, a c.beqz/c.bnez register)
	li	s1, 1			# s1 = 1 (x9)

	# c.j forward over 2^k bytes (CJ offset bit k set, k = 1..10)
	.irp	d, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024
	c.j	.Lcj\d
	.if	\d > 2
	.skip	\d - 2
	.endif
.Lcj\d:
	.endr
	# c.beqz / c.bnez taken forward over 2^k bytes (CB offset bit k, k = 1..7), then not taken
	.irp	d, 2, 4, 8, 16, 32, 64, 128
	c.beqz	s0, .Lcbz\d
	.if	\d > 2
	.skip	\d - 2
	.endif
.Lcbz\d:
	c.bnez	s1, .Lcbn\d
	.if	\d > 2
	.skip	\d - 2
	.endif
.Lcbn\d:
	c.beqz	s1, .Lcbz\d		# not taken (s1 = 1), backward target
	c.bnez	s0, .Lcbn\d		# not taken (s0 = 0), backward target
	.endr
	# beq and bne taken forward over 2^k bytes (B offset bit k, k = 2..11); then blt, bge, bltu and
	# bgeu taken, and all six not taken
	.option	push
	.option	norvc
	.irp	d, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048
	beq	s0, zero, .Lbeq\d
	.if	\d > 4
	.skip	\d - 4
	.endif
.Lbeq\d:
	bne	s1, zero, .Lbne\d
	.if	\d > 4
	.skip	\d - 4
	.endif
.Lbne\d:
	.endr
	li	t0, -1
	blt	t0, s1, 1f		# -1 < 1: taken
	nop
1:	bge	s1, t0, 1f		# 1 >= -1: taken
	nop
1:	bltu	s1, t0, 1f		# 1 < 2^64 - 1: taken
	nop
1:	bgeu	t0, s1, 1f		# taken
	nop
1:	beq	s0, s1, 1f		# not taken
	bne	s0, s0, 1f		# not taken
	blt	s1, t0, 1f		# not taken
	bge	t0, s1, 1f		# not taken
	bltu	t0, s1, 1f		# not taken
	bgeu	s1, t0, 1f		# not taken
1:
	# backward loops: a taken backward branch twice, then not taken
	li	t1, 3
2:	addi	t1, t1, -1
	bne	t1, zero, 2b
	.option	pop
	c.li	a2, 3
	mv	s0, a2
3:	c.addi	s0, -1
	c.bnez	s0, 3b
	# jal forward and backward, with and without a link
	jal	ra, 4f
	j	5f
4:	ret				# jalr x0, 0(ra): uninferable
5:	jal	zero, 7f
6:	c.j	8f			# c.j backward-reached, forward
7:	j	6b			# backward jal
8:
	# quadrant-1 and quadrant-2 ALU, load and store forms (RV64)
	c.addiw	a2, 1
	c.li	a3, 5
	c.srli	a3, 1
	c.srai	a3, 33
	c.srli	a3, 32
	c.andi	a3, 7
	c.sub	a3, a4
	c.xor	a3, a4
	c.or	a3, a4
	c.and	a3, a4
	c.subw	a3, a4
	c.addw	a3, a4
	c.slli	a3, 33
	c.slli	a3, 3
	c.mv	a4, a3
	c.add	a4, a3
	c.sdsp	a4, 8(sp)
	c.ldsp	a5, 8(sp)
	c.swsp	a4, 16(sp)
	c.lwsp	a5, 16(sp)
	c.addi16sp sp, -32
	c.addi4spn s0, sp, 16
	c.addi16sp sp, 32
	c.sd	a4, 0(s0)
	c.ld	a5, 0(s0)
	c.sw	a4, 8(s0)
	c.lw	a5, 8(s0)
	c.nop
	# exit(0)
	li	a0, 0
	li	a7, 93
	ecall
	.size	_start, . - _start

	.bss
	.balign	16
	.skip	256
stack_top:
