@ a32.S — A32 instructions with their expected classification (tc_insn_decode, isa a32).
@ Each instruction line ends with `@= TYPE [link] [cond] [isa=ISA] [target=±0xN]`:
@ TYPE is other|dir|indir|wfx|isb (wfx: with wfxmode=1; other with wfxmode=0),
@ cond means cond field not 1110/1111, target is the direct branch target minus
@ the instruction's address (PC = address + 8), next isa defaults to a32.
@ Written from the Arm ARM (DDI 0487) F4 encodings; gen.sh assembles this
@ file and writes a32.tsv.
	.syntax unified
	.arm
	.text

@ ---- Branch (immediate): B, BL; target = address + 8 + sext(imm24) << 2
	b . + 0x40                 @= dir target=+0x40
	b . - 0x40                 @= dir target=-0x40
	b .                        @= dir target=+0x0
	b . + 8                    @= dir target=+0x8
	b . + 0x2000004            @= dir target=+0x2000004
	b . - 0x1fffff8            @= dir target=-0x1fffff8
1:	b 1b                       @= dir target=+0x0
	b 2f                       @= dir target=+0x8
	nop                        @= other
2:	beq . + 0x10               @= dir cond target=+0x10
	bne . - 0x10               @= dir cond target=-0x10
	bcs . + 0x14               @= dir cond target=+0x14
	bcc . + 0x18               @= dir cond target=+0x18
	bmi . + 0x1c               @= dir cond target=+0x1c
	bpl . + 0x20               @= dir cond target=+0x20
	bvs . + 0x24               @= dir cond target=+0x24
	bvc . + 0x28               @= dir cond target=+0x28
	bhi . + 0x2c               @= dir cond target=+0x2c
	bls . + 0x30               @= dir cond target=+0x30
	bge . + 0x34               @= dir cond target=+0x34
	blt . + 0x38               @= dir cond target=+0x38
	bgt . + 0x3c               @= dir cond target=+0x3c
	ble . + 0x40               @= dir cond target=+0x40
	bal . + 0x44               @= dir target=+0x44
	bne . + 0x2000004          @= dir cond target=+0x2000004
	bls . - 0x1fffff8          @= dir cond target=-0x1fffff8
	bl . + 0x100               @= dir link target=+0x100
	bl . - 0x100               @= dir link target=-0x100
	blne . + 0x1000            @= dir link cond target=+0x1000
	blgt . - 4                 @= dir link cond target=-0x4
	bl . + 0x2000004           @= dir link target=+0x2000004
	bl . - 0x1fffff8           @= dir link target=-0x1fffff8
	bl 1b                      @= dir link target=-0x68

@ ---- Unconditional: BLX (immediate) to T32; target = address + 8 + imm24:H:0
	blx . + 0x100              @= dir link isa=t32 target=+0x100
	blx . + 0x102              @= dir link isa=t32 target=+0x102
	blx . - 0x1e               @= dir link isa=t32 target=-0x1e
	blx . + 8                  @= dir link isa=t32 target=+0x8
	blx . + 0x2000006          @= dir link isa=t32 target=+0x2000006
	blx . - 0x1fffff8          @= dir link isa=t32 target=-0x1fffff8

@ ---- Miscellaneous: BX, BXJ, BLX (register), ERET
	bx lr                      @= indir
	bx r0                      @= indir
	bxeq r3                    @= indir cond
	bxj r1                     @= indir
	blx r0                     @= indir link
	blx lr                     @= indir link
	blxne r12                  @= indir link cond
	eret                       @= indir
	eretne                     @= indir cond

@ ---- Data-processing with Rd = PC (register, register-shifted register, immediate)
	mov pc, lr                 @= indir
	movs pc, lr                @= indir
	movne pc, r0               @= indir cond
	mov pc, r1, lsl #2         @= indir
	mov pc, #0x1000            @= indir
	mvn pc, r1                 @= indir
	mvns pc, #0                @= indir
	add pc, pc, r0, lsl #2     @= indir
	addls pc, pc, r0, lsl #2   @= indir cond
	add pc, r0, #8             @= indir
	add pc, r0, r1, lsl r2     @= indir
	sub pc, lr, #4             @= indir
	subs pc, lr, #4            @= indir
	subs pc, lr, #0            @= indir
	rsb pc, r0, #0x100         @= indir
	adc pc, r1, r2, lsr #3     @= indir
	sbc pc, r3, r4             @= indir
	rsc pc, r5, #1             @= indir
	and pc, r0, #0xfffffffc    @= indir
	eor pc, r0, r1             @= indir
	orr pc, r2, #1             @= indir
	bic pc, r3, #3             @= indir
	bicsvc pc, r3, r4, ror r5  @= indir cond
	lsl pc, r0, #1             @= indir
	asr pc, r0, r1             @= indir
	rrx pc, r0                 @= indir
	adr pc, . + 0x10           @= indir
	adr pc, . - 0x10           @= indir
	mov pc, r8, lsl #1         @= indir

@ ---- Load word with Rt = PC (immediate, literal, register)
	ldr pc, [r0]               @= indir
	ldr pc, [sp], #4           @= indir
	pop {pc}                   @= indir
	ldr pc, [r0, #4]!          @= indir
	ldr pc, [r0, #-0xfff]      @= indir
	ldr pc, [r1, r2, lsl #2]   @= indir
	ldr pc, [r1, -r2]          @= indir
	ldr pc, [r3], r4           @= indir
	ldr pc, [pc, #-4]          @= indir
	ldr pc, . + 0x20           @= indir
	ldreq pc, [r0]             @= indir cond
	ldrne pc, [r0]             @= indir cond
	ldr pc, [r0, r1, lsr #2]   @= indir
	ldr pc, [r0, r8]           @= indir
	ldrhi pc, [pc, r0, lsl #2] @= indir cond

@ ---- Block data transfer: LDM with PC in the list (and the exception return form)
	pop {r4, pc}               @= indir
	pop {r0-r12, pc}           @= indir
	ldm r0, {r1, pc}           @= indir
	ldmia r0!, {pc}            @= indir
	ldmdb r0!, {r4-r11, pc}    @= indir
	ldmib r1, {r2, pc}         @= indir
	ldmda r1, {r2, pc}         @= indir
	ldm r0, {r0-r15}           @= indir
	ldm sp, {pc}^              @= indir
	ldmfdne sp!, {r0, pc}      @= indir cond
	ldmfdne sp!, {r0, pc}^     @= indir cond

@ ---- Unconditional: RFE (Exception Save/Restore)
	rfeia sp!                  @= indir
	rfedb r0                   @= indir
	rfeda r1!                  @= indir
	rfeib r2                   @= indir

@ ---- Hints and barriers: WFI, WFE, ISB
	wfi                        @= wfx
	wfe                        @= wfx
	wfine                      @= wfx cond
	wfeeq                      @= wfx cond
	isb                        @= isb
	isb sy                     @= isb
	isb #0                     @= isb
	isb #5                     @= isb

@ ---- Not P0: other
	nop                        @= other
	yield                      @= other
	sev                        @= other
	sevl                       @= other
	csdb                       @= other
	dbg #5                     @= other
	dmb ish                    @= other
	dsb sy                     @= other
	ssbb                       @= other
	pssbb                      @= other
	sb                         @= other
	clrex                      @= other
	svc #0                     @= other
	svcne #0x123456            @= other
	svc #0x10f000              @= other
	hvc #0                     @= other
	smc #0                     @= other
	bkpt #0                    @= other
	udf #0                     @= other
	cmp pc, r0                 @= other
	cmp r0, #1                 @= other
	cmn r0, r1                 @= other
	tst r0, #1                 @= other
	teq r0, r1, lsl r2         @= other
	mov r0, r1                 @= other
	mov r0, pc                 @= other
	mov lr, pc                 @= other
	movs r0, r1, lsr #1        @= other
	add r0, r1, r2             @= other
	addne r0, r1, r2           @= other
	add r0, pc, #4             @= other
	adr lr, . + 0x40           @= other
	sub sp, sp, #16            @= other
	movw r0, #0x1234           @= other
	movt r0, #0x5678           @= other
	mul r0, r1, r2             @= other
	mla r0, r1, r2, r3         @= other
	umull r0, r1, r2, r3       @= other
	smulbb r0, r1, r2          @= other
	clz r0, r1                 @= other
	rev r0, r1                 @= other
	uxtb r0, r1                @= other
	sxth r2, r3                @= other
	sel r0, r1, r2             @= other
	usat r0, #8, r1            @= other
	bfi r0, r1, #4, #8         @= other
	sdiv r0, r1, r2            @= other
	crc32b r0, r1, r2          @= other
	mrs r0, apsr               @= other
	msr cpsr_c, r0             @= other
	msr cpsr_f, #0xf0000000    @= other
	cpsid i                    @= other
	setend be                  @= other
	ldr r0, [r1]               @= other
	ldr r0, [pc, #8]           @= other
	ldr lr, [sp], #4           @= other
	ldrb r0, [r1, #1]          @= other
	ldrh r0, [r1]              @= other
	ldrsb r0, [r1]             @= other
	ldrd r0, r1, [r2]          @= other
	ldrex r0, [r1]             @= other
	strex r0, r1, [r2]         @= other
	lda r0, [r1]               @= other
	str pc, [r0]               @= other
	str pc, [r8]               @= other
	str r0, [r1, #4]!          @= other
	strb r0, [r1]              @= other
	push {r4, lr}              @= other
	stmdb sp!, {r0-r12, lr}    @= other
	stm r0, {r1, r2}           @= other
	pop {r4, lr}               @= other
	ldm r0!, {r1-r3}           @= other
	srsdb sp!, #19             @= other
	pld [r0]                   @= other
	pli [r0, #4]               @= other
	mrc p15, 0, r0, c1, c0, 0  @= other
	mrc p14, 0, APSR_nzcv, c0, c1, 0 @= other
	mcr p15, 0, r0, c7, c5, 4  @= other
	mrrc p15, 0, r0, r1, c14   @= other
	vadd.f32 s0, s1, s2        @= other
	vldr d0, [r0]              @= other
	vmov r0, s0                @= other
	vmrs APSR_nzcv, fpscr      @= other
	vadd.i32 q0, q1, q2        @= other
	vld1.8 {d0}, [r0]          @= other

@ ---- Hand-written words (not assembler mnemonics, which gas refuses or lacks):
@ UNPREDICTABLE PC writes left as other, should-be bits ignored.
	.inst 0xe5d0f000           @= other
	.inst 0xe1d0f0b0           @= other
	.inst 0xe020f291           @= other
	.inst 0xe300f000           @= other
	.inst 0xe340f000           @= other
	.inst 0xe120001e           @= indir
	.inst 0xe4b0f000           @= indir
	.inst 0xe7f000f0           @= other
@ F4 Miscellaneous: ERET is cccc 0001 0110 (0)(0)(0)(0) (0)(0)(0)(0) (0)(0)(0)(0) 0110 (1)(1)(1)(0):
@ bit 0 is a should-be-0 bit, set here (still ERET, an indirect branch).
	.inst 0xe160006f           @= indir
@ F4 Exception Save/Restore: RFE is 1111 100P U0W1 Rn (0)(0)(0)(0) (1)(0)(1)(0) (0)(0)(0)(0)
@ (0)(0)(0)(0): bit 0 set (RFEIA r0, still an indirect branch).
	.inst 0xf8900a01           @= indir
@ F4 Branch, branch with link, and block data transfer: STM (STMIA, P=0 U=1) r0, {r12-r15}:
@ a store, no PC write, though bits 15:12 are 1111 as in a data-processing Rd = PC.
	.inst 0xe880f000           @= other
@ F4 Load/store word and unsigned byte: STR (W=1, writeback) of PC, a store.
	.inst 0xe5a0f004           @= other
@ SPDX-License-Identifier: BSD-3-Clause
