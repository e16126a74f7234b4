@ SPDX-License-Identifier: BSD-3-Clause
@ branches-a32.S: the A32 branches of ARMv5TE that an ETM7 or ETM9 traces, for ETMv1 (IHI 0014
@ Table 5-1): B and BL (direct: IE when taken, IN when the condition fails), B<cond> taken and not
@ taken, BX and BLX to a register, MOV pc, LDR pc and LDM with the PC as returns (indirect: BE with
@ the target), each also with a condition that fails, a jump table (ADD pc, pc, Rn, LSL #2 and LDR pc
@ from a table), a loop, branches to and from a section 1 GiB away (addresses of four and five
@ packets, back to back), conditional data processing that fails, and SWI: write(1, msg, 6) and exit(0).
@ Freestanding (no C library): _start runs straight through.
	.syntax	unified
	.arch	armv5te
	.arm
	.text
	.globl	_start
	.type	_start, %function
_start:
	ldr	sp, =stack_top
	mov	r4, #0
	cmp	r4, #0			@ Z set
	addne	r4, r4, #1		@ fails: NE
	moveq	r5, #1			@ passes
	bne	1f			@ not taken
	beq	1f			@ taken
	nop
1:	blne	leaf			@ not taken (a BL whose condition fails)
	bl	leaf			@ BL, returns by BX lr
	bl	pushpop			@ returns by LDMFD sp!, {r4, pc}
	bl	movret			@ returns by MOV pc, lr
	bl	ldrret			@ returns by LDR pc, [sp], #4
	adr	r3, leaf
	blx	r3			@ BLX to a register (A32 target)
	bxne	r3			@ fails
	ldmfdne	sp!, {pc}		@ fails
	movne	pc, lr			@ fails
	@ the jump table by ADD pc: cases 0, 1, 2
	mov	r0, #0
2:	bl	switch_add
	add	r0, r0, #1
	cmp	r0, #3
	blo	2b			@ backward, taken twice
	@ the jump table by LDR pc: cases 2, 0, 1
	mov	r0, #2
	bl	switch_ldr
	mov	r0, #0
	bl	switch_ldr
	mov	r0, #1
	bl	switch_ldr
	@ a loop of 300 iterations: a backward branch taken 299 times (past 1536 cycles: the periodic
	@ full address, §5.6.2, on a direct branch made BE)
	mov	r6, #300
	mov	r7, #0
3:	add	r7, r7, r6
	subs	r6, r6, #1
	bne	3b
	@ far: a section at 0x40100000 (a branch address of five packets), and back
	ldr	r3, =far
	mov	lr, pc
	bx	r3
	@ indirect branches back to back: to the far section and straight back (five packets each on a
	@ 4-bit port, ten cycles), then two more while those packets still wait in the FIFO: their
	@ APOs count the TRACESYNCs still to come (§5.6.1)
	adr	r5, hop
	adr	r6, cont
	ldr	r3, =far2
	mov	lr, pc
	bx	r3
	bx	r5
hop:	bx	r6
cont:
	@ write(1, msg, 6), exit(0)
	mov	r0, #1
	adr	r1, msg
	mov	r2, #6
	mov	r7, #4
	swi	#0
	mov	r0, #0
	mov	r7, #1
	swi	#0
	.size	_start, . - _start

	.type	leaf, %function
leaf:
	add	r8, r8, #1
	bx	lr

	.type	pushpop, %function
pushpop:
	stmfd	sp!, {r4, lr}
	mov	r4, #7
	ldmfd	sp!, {r4, pc}

	.type	movret, %function
movret:
	mov	r9, #3
	mov	pc, lr

	.type	ldrret, %function
ldrret:
	str	lr, [sp, #-4]!
	mov	r9, #4
	ldr	pc, [sp], #4

	.type	switch_add, %function
switch_add:
	cmp	r0, #3
	addlo	pc, pc, r0, lsl #2	@ pc reads as this + 8: the first case
	b	9f
	b	5f
	b	6f
	b	7f
5:	mov	r1, #10
	bx	lr
6:	mov	r1, #11
	bx	lr
7:	mov	r1, #12
9:	bx	lr

	.type	switch_ldr, %function
switch_ldr:
	adr	r2, table
	ldr	pc, [r2, r0, lsl #2]
table:
	.word	case0, case1, case2
case0:	mov	r1, #20
	bx	lr
case1:	mov	r1, #21
	bx	lr
case2:	mov	r1, #22
	bx	lr

msg:	.ascii	"etmv1\n"
	.align	2
	.ltorg

	.section .far1, "ax"
	.type	far, %function
far:
	cmp	r0, r0
	movne	r1, #1			@ fails
	bx	lr			@ back: five packets again
far2:	bx	lr

	.bss
	.align	3
	.space	1024
stack_top:
