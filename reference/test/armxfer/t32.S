@ t32.S — every ARMv5TE Thumb load/store encoding class, the 32-bit BL/BLX
@ pair, and instructions that transfer nothing, for gen.sh (assembled with
@ -march=armv5te, ARMv5 Thumb-1 syntax). The expected transfers are derived
@ by gen.sh from objdump's disassembly of each line.
	.syntax divided
	.thumb
	.text
	.p2align 2
@ LDR literal (PC relative)
	ldr	r0, [pc, #0]
	ldr	r7, [pc, #1020]
@ Register offset
	str	r0, [r1, r2]
	strh	r0, [r1, r2]
	strb	r0, [r1, r2]
	ldrsb	r0, [r1, r2]
	ldr	r7, [r6, r5]
	ldrh	r0, [r1, r2]
	ldrb	r0, [r1, r2]
	ldrsh	r0, [r1, r2]
@ Immediate offset: word, byte, halfword
	str	r0, [r1, #0]
	str	r0, [r1, #124]
	ldr	r0, [r1, #4]
	strb	r0, [r1, #31]
	ldrb	r0, [r1, #0]
	strh	r0, [r1, #62]
	ldrh	r0, [r1, #2]
@ SP relative
	str	r0, [sp, #0]
	str	r7, [sp, #1020]
	ldr	r0, [sp, #4]
@ Push and pop
	push	{r0}
	push	{r0-r7}
	push	{lr}
	push	{r4, r5, lr}
	push	{r0-r7, lr}
	pop	{r1}
	pop	{r0-r7}
	pop	{pc}
	pop	{r4, pc}
	pop	{r0-r7, pc}
@ Load and store multiple
	stmia	r0!, {r1}
	stmia	r0!, {r0-r7}
	ldmia	r0!, {r1, r2}
	ldmia	r0!, {r1-r7}
	ldmia	r0, {r0, r1}
	ldmia	r3, {r3}
@ No transfer
	mov	r0, r1
	add	r0, r1, #1
	cmp	r0, #0
	mov	r8, r9
	mov	pc, lr
	add	r0, pc, #4
	add	sp, #8
	sub	sp, #8
	mul	r0, r1
	bx	lr
	blx	r0
	b	.
	beq	.
	bne	.
	bcs	.
	bcc	.
	bmi	.
	bpl	.
	bvs	.
	bvc	.
	bhi	.
	bls	.
	bge	.
	blt	.
	bgt	.
	ble	.
	swi	1
	bkpt	2
	bl	.
	blx	.
	.inst.n	0xde00
	.inst.n	0xb100
@ SPDX-License-Identifier: BSD-3-Clause
