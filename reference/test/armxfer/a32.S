@ a32.S — every ARMv5TE A32 load/store encoding class, and instructions that
@ transfer nothing, for gen.sh (assembled with -march=armv5te). The expected
@ transfers are derived by gen.sh from objdump's disassembly of each line.
	.syntax unified
	.arm
	.text
	.p2align 2
@ Single data transfer: immediate, register, scaled register; pre, post, writeback; U=0
	ldr	r0, [r1]
	ldr	r0, [r1, #4]
	ldr	r0, [r1, #-4095]
	ldr	r0, [r1, #4]!
	ldr	r0, [r1], #4
	ldr	r0, [r1, r2]
	ldr	r0, [r1, -r2, lsl #3]!
	ldr	r0, [r1], r2, asr #31
	ldr	r0, [pc, #-8]
	str	r0, [r1]
	str	r0, [r1, #-4]!
	str	r0, [r1], -r2, ror #5
	str	pc, [r1]
	ldrb	r0, [r1, #1]
	ldrb	r0, [r1], #-1
	ldrb	r0, [r1, r2, lsr #1]!
	strb	r0, [r1, #255]
	strb	r0, [r1], r2
	ldrt	r0, [r1], #4
	ldrt	r0, [r1], -r2
	strt	r0, [r1], #4
	ldrbt	r0, [r1], #1
	strbt	r0, [r1], r2, lsl #2
@ Loads to the PC
	ldr	pc, [r1]
	ldr	pc, [sp], #4
	ldr	pc, [r0, r1, lsl #2]
	ldreq	pc, [r1, #8]
@ Extra loads and stores: halfword, signed, doubleword
	ldrh	r0, [r1]
	ldrh	r0, [r1, #2]!
	ldrh	r0, [r1], #-2
	ldrh	r0, [r1, r2]
	ldrh	r0, [r1], -r2
	strh	r0, [r1, #-255]
	strh	r0, [r1, r2]!
	ldrsb	r0, [r1, #1]
	ldrsb	r0, [r1], r2
	ldrsh	r0, [r1, #-2]!
	ldrsh	r0, [r1, -r2]
	ldrd	r2, r3, [r1]
	ldrd	r2, r3, [r1, #8]!
	ldrd	r2, r3, [r1], #-8
	ldrd	r4, r5, [r1, r2]
	strd	r2, r3, [r1, #16]
	strd	r4, r5, [r1], -r6
	strd	r6, r7, [r1, r2]!
@ Swap
	swp	r0, r1, [r2]
	swpb	r0, r1, [r2]
	swpne	r3, r3, [r4]
@ Load and store multiple: all modes, writeback, user registers, PC
	ldm	r0, {r1}
	ldm	r0!, {r1, r2, r3}
	ldmib	r0, {r1-r4}
	ldmda	r0!, {r4, r6, r8, r10, r12}
	ldmdb	r0, {r0-r15}
	stm	r0!, {r1-r7}
	stmib	r0, {r0, lr}
	stmda	r0, {r2}
	stmdb	r0!, {r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, lr}
	stm	r0, {r1, r2}^
	ldm	r0, {r1, r2}^
	ldm	r0!, {r1, pc}^
	ldm	r0, {pc}
	push	{r4-r11, lr}
	push	{r0}
	pop	{r4-r11, pc}
	pop	{r0, r1}
	pop	{pc}
	stmdb	sp!, {r0-r12, lr, pc}
@ Conditional loads and stores
	ldrne	r0, [r1]
	strcs	r0, [r1]
	ldrbcc	r0, [r1]
	strbmi	r0, [r1]
	ldrhpl	r0, [r1]
	strhvs	r0, [r1]
	ldrsbvc	r0, [r1]
	ldrshhi	r0, [r1]
	ldrdls	r2, r3, [r1]
	strdge	r2, r3, [r1]
	ldmlt	r0, {r1, r2}
	stmgt	r0, {r1, r2}
	popgt	{r4, pc}
	pushle	{r4, lr}
	swpbeq	r0, r1, [r2]
	ldrteq	r0, [r1], #4
@ Coprocessor loads and stores: pre, post, unindexed with option, long, LDC2/STC2
	ldc	p14, c5, [r1]
	ldc	p14, c5, [r1, #-4]!
	ldc	p14, c5, [r1], #1020
	ldc	p14, c5, [r1], {7}
	ldcl	p14, c5, [r1, #8]
	stc	p13, c5, [r1, #4]
	stcl	p13, c5, [r1], #-8
	stc	p13, c5, [r1], {255}
	ldceq	p7, c0, [r2]
	stclne	p7, c0, [r2, #4]!
	ldc2	p14, c5, [r1, #4]
	ldc2l	p14, c5, [r1], #-4
	ldc2l	p14, c15, [r1, #4]
	stc2	p13, c5, [r1], {1}
	stc2l	p13, c5, [r1, #-4]!
@ Coprocessor register transfers
	mcr	p15, 0, r0, c1, c0, 0
	mrc	p15, 0, r0, c0, c0, 0
	mrc	p15, 0, APSR_nzcv, c7, c10, 3
	mrc	p14, 1, pc, c1, c2, 3
	mcreq	p14, 7, r1, c2, c3, 7
	mrcne	p15, 0, r2, c3, c4, 5
	mcr2	p14, 0, r0, c1, c0, 0
	mrc2	p14, 0, r0, c1, c0, 0
	mcrr	p15, 0, r0, r1, c2
	mrrc	p14, 3, r2, r3, c4
	mcrrne	p13, 15, r0, r1, c15
	mrrccc	p12, 0, r4, r5, c0
@ Preload: immediate, register, negative
	pld	[r0]
	pld	[r0, #4095]
	pld	[r0, #-4095]
	pld	[r0, r1]
	pld	[r0, r8]
	pld	[r0, -r1, lsl #2]
@ No transfer
	nop
	mov	r0, r1
	add	r0, r1, #4
	subsne	r2, r3, r4, lsl r5
	cmp	r0, #0
	b	.
	beq	.
	bl	.
	blne	.
	blx	.
	blx	r0
	bx	lr
	bxeq	lr
	mul	r0, r1, r2
	mla	r0, r1, r2, r3
	umull	r0, r1, r2, r3
	smlabb	r0, r1, r2, r3
	qadd	r0, r1, r2
	clz	r0, r1
	mrs	r0, cpsr
	msr	cpsr_c, r0
	cdp	p14, 1, c1, c2, c3, 4
	cdp2	p14, 1, c1, c2, c3, 4
	svc	#0
	svcne	#1
	bkpt	#0
	.inst	0xe6100010
	.inst	0xe7f000f0
@ SPDX-License-Identifier: BSD-3-Clause
