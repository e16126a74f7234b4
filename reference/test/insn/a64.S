// a64.S — A64 instructions with their expected classification (tc_insn_decode, isa a64).
// Each instruction line ends with `//= TYPE [link] [cond] [isa=ISA] [target=±0xN]`:
// TYPE is other|dir|indir|wfx|isb|tstart (wfx: with wfxmode=1; other with wfxmode=0),
// target is the direct branch target minus the instruction's address, next isa
// defaults to a64. Written from the Arm ARM (DDI 0487) C4.1 encodings; gen.sh
// assembles this file and writes a64.tsv. `. + N` puts targets out of range of
// the section without padding it.
	.text
	.arch armv8.8-a+sve2+memtag+tme

// ---- Unconditional branch (immediate): B, BL; target = address + sext(imm26)*4
	b . + 0x40                 //= dir target=+0x40
	b . - 0x40                 //= dir target=-0x40
	b .                        //= dir target=+0x0
	b . + 4                    //= dir target=+0x4
	b . + 0x7fffffc            //= dir target=+0x7fffffc
	b . - 0x8000000            //= dir target=-0x8000000
	b . + 0x123450             //= dir target=+0x123450
1:	b 1b                       //= dir target=+0x0
	b 2f                       //= dir target=+0x8
	nop                        //= other
2:	bl . + 0x1000              //= dir link target=+0x1000
	bl . - 4                   //= dir link target=-0x4
	bl . + 0x7fffffc           //= dir link target=+0x7fffffc
	bl . - 0x8000000           //= dir link target=-0x8000000
	bl 1b                      //= dir link target=-0x1c

// ---- Conditional branch (immediate): B.cond, BC.cond; imm19 words
	b.eq . + 8                 //= dir cond target=+0x8
	b.ne . - 8                 //= dir cond target=-0x8
	b.cs . + 0x10              //= dir cond target=+0x10
	b.hs . + 0x14              //= dir cond target=+0x14
	b.cc . + 0x18              //= dir cond target=+0x18
	b.lo . - 0x18              //= dir cond target=-0x18
	b.mi . + 0x20              //= dir cond target=+0x20
	b.pl . + 0x24              //= dir cond target=+0x24
	b.vs . + 0x28              //= dir cond target=+0x28
	b.vc . + 0x2c              //= dir cond target=+0x2c
	b.hi . + 0x30              //= dir cond target=+0x30
	b.ls . + 0x34              //= dir cond target=+0x34
	b.ge . + 0x38              //= dir cond target=+0x38
	b.lt . + 0x3c              //= dir cond target=+0x3c
	b.gt . + 0x40              //= dir cond target=+0x40
	b.le . + 0x44              //= dir cond target=+0x44
	b.al . + 0x48              //= dir target=+0x48
	b.nv . + 0x4c              //= dir target=+0x4c
	b.ne . + 0xffffc           //= dir cond target=+0xffffc
	b.eq . - 0x100000          //= dir cond target=-0x100000
	b.gt .                     //= dir cond target=+0x0
	bc.eq . + 8                //= dir cond target=+0x8
	bc.ne . - 0x100000         //= dir cond target=-0x100000
	bc.lt . + 0xffffc          //= dir cond target=+0xffffc
	bc.al . + 0x100            //= dir target=+0x100

// ---- Compare and branch (immediate): CBZ, CBNZ; imm19 words
	cbz w0, . + 0x20           //= dir cond target=+0x20
	cbz x30, . - 0x100000      //= dir cond target=-0x100000
	cbz xzr, . + 4             //= dir cond target=+0x4
	cbnz w5, . + 0xffffc       //= dir cond target=+0xffffc
	cbnz x17, . - 4            //= dir cond target=-0x4
	cbnz wzr, .                //= dir cond target=+0x0

// ---- Test and branch (immediate): TBZ, TBNZ; imm14 words, b5:b40 bit number
	tbz w0, #0, . + 0x7ffc     //= dir cond target=+0x7ffc
	tbz x1, #63, . - 0x8000    //= dir cond target=-0x8000
	tbz w9, #17, . + 0x40      //= dir cond target=+0x40
	tbnz w2, #31, . + 8        //= dir cond target=+0x8
	tbnz x3, #32, . - 4        //= dir cond target=-0x4
	tbnz x30, #5, . + 0x1234   //= dir cond target=+0x1234

// ---- Unconditional branch (register)
	br x0                      //= indir
	br x17                     //= indir
	br x30                     //= indir
	blr x1                     //= indir link
	blr x16                    //= indir link
	blr x30                    //= indir link
	ret                        //= indir
	ret x0                     //= indir
	ret x29                    //= indir
	braa x0, x1                //= indir
	braa x16, sp               //= indir
	brab x2, x3                //= indir
	brab x30, x29              //= indir
	braaz x4                   //= indir
	brabz x30                  //= indir
	blraa x5, x6               //= indir link
	blraa x7, sp               //= indir link
	blrab x8, x9               //= indir link
	blraaz x10                 //= indir link
	blrabz x11                 //= indir link
	blrabz x30                 //= indir link
	retaa                      //= indir
	retab                      //= indir
	eret                       //= indir
	eretaa                     //= indir
	eretab                     //= indir

// ---- Hints, system instructions with register argument, barriers
	wfi                        //= wfx
	wfe                        //= wfx
	wfit x0                    //= wfx
	wfit x30                   //= wfx
	wfit x1                    //= wfx
	wfet x1                    //= wfx
	wfet xzr                   //= wfx
	isb                        //= isb
	isb sy                     //= isb
	isb #0                     //= isb
	isb #5                     //= isb
	isb #14                    //= isb
	tstart x0                  //= tstart
	tstart x17                 //= tstart
	tstart xzr                 //= tstart
	tcommit                    //= other
	ttest x3                   //= other
	tcancel #0x1234            //= other

// ---- Not P0: other
	nop                        //= other
	yield                      //= other
	sev                        //= other
	sevl                       //= other
	hint #0x22                 //= other
	bti c                      //= other
	bti j                      //= other
	paciasp                    //= other
	autiasp                    //= other
	pacibsp                    //= other
	xpaclri                    //= other
	esb                        //= other
	csdb                       //= other
	dsb sy                     //= other
	dsb ish                    //= other
	dmb ish                    //= other
	dmb oshld                  //= other
	sb                         //= other
	ssbb                       //= other
	clrex                      //= other
	svc #0                     //= other
	svc #0xffff                //= other
	hvc #0                     //= other
	smc #0                     //= other
	brk #0x3e8                 //= other
	hlt #0                     //= other
	udf #0                     //= other
	dcps1                      //= other
	drps                       //= other
	msr daifset, #2            //= other
	msr sctlr_el1, x0          //= other
	mrs x0, tpidr_el0          //= other
	mrs x30, cntvct_el0        //= other
	ic iallu                   //= other
	dc civac, x0               //= other
	tlbi vmalle1               //= other
	at s1e1r, x1               //= other
	ldr x0, [x1]               //= other
	ldr x30, [sp, #8]          //= other
	ldr w0, [x1, #4]!          //= other
	ldr x0, . + 0x100          //= other
	ldrb w2, [x3], #1          //= other
	ldrsw x4, [x5, x6, lsl #2] //= other
	ldp x29, x30, [sp], #16    //= other
	stp x29, x30, [sp, #-16]!  //= other
	str x30, [sp, #-16]!       //= other
	ldar x0, [x1]              //= other
	ldaxr w2, [x3]             //= other
	stlxr w4, x5, [x6]         //= other
	ldr q0, [x0]               //= other
	ld1 {v0.16b}, [x0]         //= other
	cas x0, x1, [x2]           //= other
	ldadd w0, w1, [x2]         //= other
	prfm pldl1keep, [x0]       //= other
	add x0, x1, x2             //= other
	add sp, sp, #0x10          //= other
	sub x30, x30, #4           //= other
	subs xzr, x0, #1           //= other
	cmp x0, x1                 //= other
	movz x0, #0x1234, lsl #16  //= other
	movk x0, #0xffff, lsl #48  //= other
	mov x30, x0                //= other
	adr x0, . + 0x40           //= other
	adrp x1, . + 0x1000        //= other
	csel x0, x1, x2, eq        //= other
	ccmp x0, #3, #0, ne        //= other
	madd x0, x1, x2, x3        //= other
	udiv w0, w1, w2            //= other
	lsl x0, x1, #3             //= other
	ubfx x0, x1, #4, #8        //= other
	rev x0, x1                 //= other
	and x0, x1, #0xff          //= other
	orr w0, wzr, #1            //= other
	eor x0, x1, x2, ror #7     //= other
	fmov d0, x1                //= other
	fadd s0, s1, s2            //= other
	add v0.4s, v1.4s, v2.4s    //= other
	add z0.s, z1.s, z2.s       //= other
	ptrue p0.b                 //= other
	pacia x0, x1               //= other
	autib x30, sp              //= other
	irg x0, x1                 //= other
	setf8 w0                   //= other

// ---- Hand-written words (not assembler mnemonics): unallocated neighbours of P0 encodings
	.inst 0xd65f0001           //= other
	.inst 0xd61f0801           //= other
	.inst 0xd65f0bfe           //= other
	.inst 0xd69f03e1           //= other
	.inst 0xd73f0000           //= other
	.inst 0xd61e0000           //= other
	.inst 0x55000000           //= other
	.inst 0xd503209f           //= other
	.inst 0xd5031040           //= other
// C4.1 Unconditional branch (register): BR and BLR need op4 (bits 4:0) = 00000; with
// op3 = 000000 any other op4 is unallocated (bit 0 set: not BR x0, not BLR x0).
	.inst 0xd61f0001           //= other
	.inst 0xd63f0001           //= other
// SPDX-License-Identifier: BSD-3-Clause
