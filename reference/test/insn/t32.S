@ t32.S — T32 instructions with their expected classification (tc_insn_decode, isa t32).
@ Each instruction line ends with `@= TYPE [link] [cond] [isa=ISA] [target=±0xN]`:
@ TYPE is other|dir|indir|wfx|isb (wfx: with wfxmode=1; other with wfxmode=0),
@ target is the direct branch target minus the instruction's address
@ (PC = address + 4; BLX to A32 from Align(PC, 4)), next isa defaults to t32.
@ cond is only what the encoding says (B<c>, CBZ/CBNZ): IT-block conditions
@ are not visible one instruction at a time. Written from the Arm ARM
@ (DDI 0487) F3 encodings; gen.sh assembles this file and writes t32.tsv.
	.syntax unified
	.thumb
	.text

@ ---- 16-bit: Conditional branch B<c> T1; target = address + 4 + sext(imm8) << 1
	beq.n . + 0x10             @= dir cond target=+0x10
	bne.n . - 0x10             @= dir cond target=-0x10
	bcs.n . + 0x14             @= dir cond target=+0x14
	bcc.n . + 0x18             @= dir cond target=+0x18
	bmi.n . + 0x1a             @= dir cond target=+0x1a
	bpl.n . + 0x20             @= dir cond target=+0x20
	bvs.n . + 0x22             @= dir cond target=+0x22
	bvc.n . + 0x24             @= dir cond target=+0x24
	bhi.n . + 0x26             @= dir cond target=+0x26
	bls.n . + 0x28             @= dir cond target=+0x28
	bge.n . + 0x2a             @= dir cond target=+0x2a
	blt.n . + 0x2c             @= dir cond target=+0x2c
	bgt.n . + 0x2e             @= dir cond target=+0x2e
	ble.n . + 0x30             @= dir cond target=+0x30
	bne.n . + 0x102            @= dir cond target=+0x102
	beq.n . - 0xfc             @= dir cond target=-0xfc
	bgt.n .                    @= dir cond target=+0x0
	beq.n . + 4                @= dir cond target=+0x4

@ ---- 16-bit: Unconditional branch B T2; imm11 halfwords
	b.n . + 0x40               @= dir target=+0x40
	b.n . - 0x40               @= dir target=-0x40
	b.n .                      @= dir target=+0x0
	b.n . + 0x802              @= dir target=+0x802
	b.n . - 0x7fc              @= dir target=-0x7fc
1:	b.n 1b                     @= dir target=+0x0
	b.n 2f                     @= dir target=+0x4
	nop                        @= other
2:	nop                        @= other

@ ---- 16-bit: CBZ, CBNZ; forward, i:imm5 halfwords
	cbz r0, . + 4              @= dir cond target=+0x4
	cbz r7, . + 0x82           @= dir cond target=+0x82
	cbz r3, . + 0x40           @= dir cond target=+0x40
	cbnz r1, . + 0x6           @= dir cond target=+0x6
	cbnz r5, . + 0x80          @= dir cond target=+0x80
	cbnz r2, . + 0x42          @= dir cond target=+0x42

@ ---- 16-bit: BX, BLX (register), MOV/ADD PC, POP {…, PC}
	bx lr                      @= indir
	bx r0                      @= indir
	bx r9                      @= indir
	bx pc                      @= indir
	blx r0                     @= indir link
	blx r7                     @= indir link
	blx lr                     @= indir link
	mov pc, lr                 @= indir
	mov pc, r0                 @= indir
	mov pc, r8                 @= indir
	add pc, r0                 @= indir
	add pc, lr                 @= indir
	add pc, sp                 @= indir
	pop {pc}                   @= indir
	pop {r0-r7, pc}            @= indir
	pop {r4, pc}               @= indir
	it eq                      @= other
	bxeq lr                    @= indir
	ite ne                     @= other
	movne r0, r1               @= other
	moveq pc, r0               @= indir
	it ge                      @= other
	popge {r4, pc}             @= indir

@ ---- 16-bit hints: WFI, WFE
	wfi                        @= wfx
	wfe                        @= wfx
	wfi.n                      @= wfx
	wfe.n                      @= wfx

@ ---- 32-bit: Branches: B<c>.W T3 (S:J2:J1:imm6:imm11:0)
	beq.w . + 0x100            @= dir cond target=+0x100
	bne.w . - 0x100            @= dir cond target=-0x100
	bcs.w . + 0x1000           @= dir cond target=+0x1000
	bcc.w . + 0x12344          @= dir cond target=+0x12344
	bmi.w . - 0x12344          @= dir cond target=-0x12344
	bpl.w . + 6                @= dir cond target=+0x6
	bvs.w . + 8                @= dir cond target=+0x8
	bvc.w . + 0xa              @= dir cond target=+0xa
	bhi.w . + 0xc              @= dir cond target=+0xc
	bls.w . + 0xe              @= dir cond target=+0xe
	bge.w . + 0x10             @= dir cond target=+0x10
	blt.w . + 0x12             @= dir cond target=+0x12
	bgt.w . + 0x14             @= dir cond target=+0x14
	ble.w . + 0x16             @= dir cond target=+0x16
	bne.w . + 0x100002         @= dir cond target=+0x100002
	beq.w . - 0xffffc          @= dir cond target=-0xffffc
	bgt.w . + 0x80002          @= dir cond target=+0x80002
	blt.w . - 0x80000          @= dir cond target=-0x80000

@ ---- 32-bit: B.W T4, BL (S:I1:I2:imm10:imm11:0)
	b.w . + 0x1000             @= dir target=+0x1000
	b.w . - 0x1000             @= dir target=-0x1000
	b.w .                      @= dir target=+0x0
	b.w . + 0x1000002          @= dir target=+0x1000002
	b.w . - 0xfffffc           @= dir target=-0xfffffc
	b.w . + 0x800002           @= dir target=+0x800002
	b.w . - 0x800000           @= dir target=-0x800000
	b.w . + 0x400002           @= dir target=+0x400002
	b.w . - 0x400000           @= dir target=-0x400000
	b.w . + 0x123456           @= dir target=+0x123456
	bl . + 0x1000              @= dir link target=+0x1000
	bl . - 0x1000              @= dir link target=-0x1000
	bl . + 4                   @= dir link target=+0x4
	bl . + 0x1000002           @= dir link target=+0x1000002
	bl . - 0xfffffc            @= dir link target=-0xfffffc
	bl . + 0x800002            @= dir link target=+0x800002
	bl . - 0x400000            @= dir link target=-0x400000
	bl 1b                      @= dir link target=-0xd6

@ ---- 32-bit: BLX (immediate) to A32; target = Align(address + 4, 4) + imm
	.balign 4
	blx . + 0x100              @= dir link isa=a32 target=+0x100
	blx . - 0x100              @= dir link isa=a32 target=-0x100
	blx . + 4                  @= dir link isa=a32 target=+0x4
	blx . + 0x1000000          @= dir link isa=a32 target=+0x1000000
	blx . - 0xfffffc           @= dir link isa=a32 target=-0xfffffc
	nop                        @= other
	blx . + 0x102              @= dir link isa=a32 target=+0x102
	blx . - 0xfe               @= dir link isa=a32 target=-0xfe
	blx . + 2                  @= dir link isa=a32 target=+0x2
	blx . + 0xfffffe           @= dir link isa=a32 target=+0xfffffe
	blx . - 0xfffffe           @= dir link isa=a32 target=-0xfffffe

@ ---- 32-bit: Load word with Rt = PC (LDR.W immediate T3/T4, literal, register)
	ldr.w pc, [sp], #4         @= indir
	pop.w {pc}                 @= indir
	ldr pc, [r0]               @= indir
	ldr.w pc, [r0, #4]         @= indir
	ldr pc, [r1, #0xfff]       @= indir
	ldr pc, [r0, #-4]          @= indir
	ldr pc, [r0, #4]!          @= indir
	ldr pc, [r0, #-0xff]!      @= indir
	ldr pc, [r2], #-8          @= indir
	ldr pc, [r1, r2, lsl #2]   @= indir
	ldr pc, [r3, r4]           @= indir
	ldr.w pc, [pc, #8]         @= indir
	ldr.w pc, [pc, #-8]        @= indir
	ldr.w pc, [pc, #-0x40]     @= indir
	it hi                      @= other
	ldrhi.w pc, [r0]           @= indir

@ ---- 32-bit: Load/store multiple with PC; RFE
	pop.w {r4, pc}             @= indir
	pop.w {r4-r11, pc}         @= indir
	ldmia.w r0!, {r1, pc}      @= indir
	ldm.w r0, {r1, r2, pc}     @= indir
	ldm.w r1, {r0, r2, pc}     @= indir
	ldmdb r0, {r4, pc}         @= indir
	ldmdb sp!, {r0-r3, pc}     @= indir
	rfeia r0                   @= indir
	rfeia sp!                  @= indir
	rfedb r1                   @= indir
	rfedb lr!                  @= indir

@ ---- 32-bit: TBB, TBH
	tbb [r0, r1]               @= indir
	tbb [pc, r1]               @= indir
	tbh [r0, r1, lsl #1]       @= indir
	tbh [pc, r2, lsl #1]       @= indir

@ ---- 32-bit: Exception return (SUBS PC, LR / ERET), BXJ
	subs pc, lr, #4            @= indir
	subs pc, lr, #0            @= indir
	subs pc, lr, #0xff         @= indir
	eret                       @= indir
	bxj r0                     @= indir
	bxj lr                     @= indir

@ ---- 32-bit: Hints and barriers: WFI.W, WFE.W, ISB
	wfi.w                      @= wfx
	wfe.w                      @= wfx
	isb                        @= isb
	isb sy                     @= isb
	isb #3                     @= isb
	isb #0                     @= isb

@ ---- Not P0 16-bit: other
	nop                        @= other
	yield                      @= other
	sev                        @= other
	sevl                       @= other
	movs r0, #1                @= other
	adds r0, r1, r2            @= other
	subs r0, #8                @= other
	mov r8, r9                 @= other
	mov lr, pc                 @= other
	add r0, pc                 @= other
	add r8, r0                 @= other
	cmp r8, r9                 @= other
	cmp r0, r1                 @= other
	add sp, #8                 @= other
	sub sp, #16                @= other
	add r0, sp, #4             @= other
	adr r0, . + 8              @= other
	lsls r0, r1, #2            @= other
	ands r0, r1                @= other
	muls r0, r1, r0            @= other
	ldr r0, [r1]               @= other
	ldr r0, [sp, #4]           @= other
	ldr r0, [pc, #4]           @= other
	ldrb r0, [r1, #1]          @= other
	ldrh r0, [r1, r2]          @= other
	str r0, [r1]               @= other
	push {r4, lr}              @= other
	pop {r4}                   @= other
	pop {r0-r7}                @= other
	ldm r0!, {r1, r2}          @= other
	stm r0!, {r1, r2}          @= other
	svc #0                     @= other
	svc #0xff                  @= other
	bkpt #0                    @= other
	udf #0                     @= other
	udf #0xff                  @= other
	cpsid i                    @= other
	rev r0, r1                 @= other
	uxtb r0, r1                @= other
	sxth r2, r3                @= other

@ ---- Not P0 32-bit: other
	nop.w                      @= other
	yield.w                    @= other
	sev.w                      @= other
	dbg #5                     @= other
	csdb                       @= other
	cpsid.w i                  @= other
	cps #19                    @= other
	dmb ish                    @= other
	dsb sy                     @= other
	ssbb                       @= other
	sb                         @= other
	clrex                      @= other
	hvc #0                     @= other
	smc #0                     @= other
	udf.w #0                   @= other
	udf.w #0xffff              @= other
	mrs r0, apsr               @= other
	msr apsr_nzcvq, r0         @= other
	add.w r0, r1, r2           @= other
	add.w r0, pc, #4           @= other
	adr.w r0, . + 0x100        @= other
	sub.w sp, sp, #0x100       @= other
	mov.w r0, r1               @= other
	movs.w r0, #0x100          @= other
	movw r0, #0x1234           @= other
	movt r0, #0x5678           @= other
	cmp.w r0, #1               @= other
	cmp.w r0, r1, lsl #2       @= other
	tst.w r0, #0x100           @= other
	teq.w r0, r1               @= other
	cmn.w r0, r1               @= other
	lsl.w r0, r1, r2           @= other
	mul.w r0, r1, r2           @= other
	mla r0, r1, r2, r3         @= other
	umull r0, r1, r2, r3       @= other
	sdiv r0, r1, r2            @= other
	udiv r0, r1, r2            @= other
	clz r0, r1                 @= other
	rbit r0, r1                @= other
	bfi r0, r1, #4, #8         @= other
	ubfx r0, r1, #4, #8        @= other
	crc32b r0, r1, r2          @= other
	ldr.w r0, [r1]             @= other
	ldr.w r0, [pc, #8]         @= other
	ldr.w lr, [sp], #4         @= other
	ldr r0, [r1, #-4]          @= other
	ldr r0, [r1, r2, lsl #1]   @= other
	ldrt r0, [r1, #4]          @= other
	ldrb.w r0, [r1, #1]        @= other
	ldrh.w r0, [r1]            @= other
	ldrsb.w r0, [r1]           @= other
	ldrd r0, r1, [r2]          @= other
	ldrex r0, [r1]             @= other
	ldrexb r0, [r1]            @= other
	ldrexh r0, [r1]            @= other
	ldrexd r0, r1, [r2]        @= other
	lda r0, [r1]               @= other
	ldab r0, [r1]              @= other
	ldaex r0, [r1]             @= other
	strex r0, r1, [r2]         @= other
	str.w lr, [r0]             @= other
	str.w r0, [r1, #4]!        @= other
	push.w {r4-r11, lr}        @= other
	stmdb sp!, {r0, r1}        @= other
	ldm.w r0, {r1, r2}         @= other
	ldmdb r0!, {r1, lr}        @= other
	pop.w {r4-r11}             @= other
	srsdb sp!, #19             @= other
	pld [r0]                   @= other
	pld [r0, #-4]              @= other
	pli [r0, #4]               @= other
	mrc p15, 0, r0, c1, c0, 0  @= other
	mcr p15, 0, r0, c7, c5, 4  @= other
	vadd.f32 s0, s1, s2        @= other
	vldr d0, [r0]              @= other
	vmov r0, s0                @= other
	vadd.i32 q0, q1, q2        @= other

@ ---- Hand-written words (not assembler mnemonics, which gas refuses): BLX with
@ H=1 and LDR T4 with P=W=0 are UNDEFINED, MOV.W PC and LDRB.W PC UNPREDICTABLE
@ (left as other), should-be bits ignored (ISB, SUBS PC, LR).
	.inst.w 0xf000e801         @= other
	.inst.w 0xf850f800         @= other
	.inst.w 0xea4f0f00         @= other
	.inst.w 0xf890f000         @= other
	.inst.w 0xe8d0f020         @= other
	.inst.w 0xf3bf8068         @= isb
	.inst.w 0xf3d08f04         @= indir
@ F3 16-bit Special data instructions and branch and exchange: BX and BLX (register) are
@ 0100 0111 L Rm (0)(0)(0): bit 0 set (BX r0, BLX r0).
	.inst.n 0x4701             @= indir
	.inst.n 0x4781             @= indir link
@ F3 16-bit If-Then, and hints: IT with mask 0001 (firstcond CS and CC): not WFE (bf20)
@ nor WFI (bf30), which are hints with mask 0000.
	.inst.n 0xbf21             @= other
	.inst.n 0xbf31             @= other
@ F3 Branches and miscellaneous control: BXJ is 1111 0011 1100 Rm 10(0)0 (1)(1)(1)(1)
@ (0)(0)(0)(0) (0)(0)(0)(0): bit 0 set (BXJ r0).
	.inst.w 0xf3c08f01         @= indir
@ F3 Load/store multiple: RFEDB and RFEIA are 1110 100x x0W1 Rn (1)(1)(0)(0) (0)(0)(0)(0)
@ (0)(0)(0)(0) (0)(0)(0)(0): bit 0 set (RFEDB r0, RFEIA r0).
	.inst.w 0xe810c001         @= indir
	.inst.w 0xe990c001         @= indir
@ F3 Load word, Rn != PC, U=0: hw2 bits 11:6 must be 000000 (register), 1PUW with P or W
@ set (T4) or 1100xx/1110xx; 010000, 1010 (P=W=0, UNDEFINED), 1000 with imm8<7> set
@ (P=W=0) and 000001 are not LDR: other. Rn = LR with 000001 too.
	.inst.w 0xf850f400         @= other
	.inst.w 0xf850fa00         @= other
	.inst.w 0xf850f880         @= other
	.inst.w 0xf850f040         @= other
	.inst.w 0xf85ef040         @= other
@ F3 Branches and miscellaneous control, B<c>.W T3: offset S:J2:J1:imm6:imm11:0 = 0x80000,
@ J2 set and imm6 = 0.
	bne.w . + 0x80004          @= dir cond target=+0x80004
@ SPDX-License-Identifier: BSD-3-Clause
