@ SPDX-License-Identifier: BSD-3-Clause
@ memory-a32.S: the A32 loads and stores of ARMv5TE that an ETM7 or ETM9 traces, for ETMv1 (IHI 0014
@ Table 5-1, Table 5-2): LDR, STR, LDRB, STRB, LDRH, STRH, LDRSB, LDRSH, LDRD, STRD, SWP, SWPB, LDM
@ and STM in each addressing mode, with offsets, pre- and post-indexing and writeback, each size
@ also with a condition that fails; LDR pc and LDM with the PC (a return: an indirect branch) and
@ a load to the PC whose condition fails; byte-copy and string-length loops; SWI: getpid, then
@ write(1, buf, 7) of the copied bytes and exit(0). Freestanding (no C library): _start runs
@ straight through.
	.syntax	unified
	.arch	armv5te
	.arm
	.text
	.globl	_start
	.type	_start, %function
_start:
	ldr	sp, =stack_top
	ldr	r4, =data
	@ words
	ldr	r0, [r4]
	str	r0, [r4, #4]
	ldr	r1, [r4, #4]!		@ pre-indexed, writeback
	str	r1, [r4], #-4		@ post-indexed
	mov	r2, #8
	ldr	r3, [r4, r2]		@ register offset
	str	r3, [r4, r2, lsl #1]	@ scaled register offset
	@ bytes and halfwords, signed and not
	ldrb	r0, [r4, #1]
	strb	r0, [r4, #20]
	ldrsb	r1, [r4, #3]
	ldrh	r2, [r4, #2]
	strh	r2, [r4, #22]
	ldrsh	r3, [r4, #2]
	ldrh	r5, [r4, #4]!		@ halfword pre-indexed, writeback
	strh	r5, [r4], #-4		@ post-indexed
	@ doublewords (ARMv5TE)
	ldrd	r6, r7, [r4]
	strd	r6, r7, [r4, #24]
	@ swap
	add	r8, r4, #32
	mov	r0, #0x55
	swp	r1, r0, [r8]
	swpb	r2, r0, [r8]
	@ the same, with a condition that fails
	cmp	r4, #0			@ r4 is not 0: NE
	ldreq	r0, [r4]
	streq	r0, [r4]
	ldrbeq	r0, [r4]
	strbeq	r0, [r4]
	ldrheq	r0, [r4]
	strheq	r0, [r4]
	ldrsbeq	r0, [r4]
	ldrsheq	r0, [r4]
	ldrdeq	r6, r7, [r4]
	strdeq	r6, r7, [r4]
	swpeq	r1, r0, [r8]
	ldmiaeq	r4, {r0-r3}
	stmiaeq	r8, {r0-r3}
	ldreq	pc, [r4]		@ a load to the PC that fails
	@ load and store multiple: IA, IB, DA, DB, with and without writeback
	mov	r0, #1
	mov	r1, #2
	mov	r2, #3
	mov	r3, #4
	stmia	r8, {r0-r3}
	ldmia	r8, {r0-r3}
	stmib	r8, {r0, r1}
	ldmib	r8, {r2, r3}
	add	r9, r8, #16
	stmda	r9!, {r0-r3}
	ldmda	r9, {r5-r7}
	stmdb	r9, {r0, r1}
	ldmdb	r9!, {r2, r3}
	stmfd	sp!, {r0-r12}		@ thirteen registers
	ldmfd	sp!, {r0-r12}
	@ calls returning by a load to the PC
	bl	ldmret
	bl	ldrret
	bl	condret
	@ copy 7 bytes of msg into buf, then measure it
	adr	r0, msg
	ldr	r1, =buf
	mov	r2, #7
1:	ldrb	r3, [r0], #1
	strb	r3, [r1], #1
	subs	r2, r2, #1
	bne	1b
	mov	r3, #0
	strb	r3, [r1]
	ldr	r0, =buf
	mov	r1, r0
2:	ldrb	r2, [r1], #1
	cmp	r2, #0
	bne	2b
	sub	r2, r1, r0
	sub	r2, r2, #1		@ the length, 7
	@ getpid(), write(1, buf, 7), exit(0)
	mov	r7, #20
	swi	#0
	mov	r1, r0
	ldr	r1, =buf
	mov	r0, #1
	mov	r7, #4
	swi	#0
	mov	r0, #0
	mov	r7, #1
	swi	#0
	.size	_start, . - _start

	.type	ldmret, %function
ldmret:
	stmfd	sp!, {r4-r6, lr}
	ldrh	r5, [r4]
	ldmfd	sp!, {r4-r6, pc}

	.type	ldrret, %function
ldrret:
	str	lr, [sp, #-8]!
	ldrsb	r5, [r4]
	ldr	pc, [sp], #8

	.type	condret, %function
condret:
	stmfd	sp!, {lr}
	cmp	r4, #0
	ldmfdeq	sp!, {pc}		@ fails
	ldmfdne	sp!, {pc}		@ passes

msg:	.ascii	"memory\n"
	.align	2
	.ltorg

	.data
	.align	3
data:	.word	0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00
	.space	48
buf:	.space	16

	.bss
	.align	3
	.space	1024
stack_top:
