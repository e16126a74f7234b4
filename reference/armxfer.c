/* SPDX-License-Identifier: BSD-3-Clause */
/* armxfer.c — the data transfers of an ARMv4T/ARMv5TE A32 or T32 instruction
 * (armxfer.h). "IHI 0014" below is the ETM architecture (v1 to v3.4) text:
 * Table 5-2 (L8133–8135) sizes data values by the bytes transferred, "n * 4
 * packets for load/store multiple operations"; §4.10 (L7693–7824) lists the
 * loads and stores, SWP and SWPB among the LSMs (L7725); §4.11.2 (L7890–7893)
 * leaves an LDC/STC's length to the coprocessor; §4.11.3 (L7895–7903) gives a
 * CPRT 32 bits (MCR, MRC) or 64 (MCRR, MRRC). The encodings are the ARMv5TE
 * architecture's (the ARM ARM, not in the ETM text); the committed ground
 * truth is reference/test/armxfer/ (GNU as and objdump). Decisions: ERRATA
 * ETM1-P10 (the sizes), ETM1-P36 (empty register lists, unallocated
 * encodings, LDC/STC count). */
#include "armxfer.h"

#include <string.h>

#include "tracecert/trace.h"

static uint32_t bits(uint32_t v, int hi, int lo)
{
	return (v >> lo) & ((UINT32_C(2) << (hi - lo)) - 1u);
}

static int popcount16(uint32_t v)
{
	int n = 0;
	for (v &= 0xffffu; v; v &= v - 1u)
		n++;
	return n;
}

/* A transfer of `count` items of `bytes` each; count 0 has bytes 0. */
static void set_xfer(struct tc_armxfer *x, int kind, int count, int bytes, int writes_pc)
{
	x->kind = (uint8_t)kind;
	x->count = (uint8_t)count;
	x->bytes = (uint8_t)(count ? bytes : 0);
	x->writes_pc = (uint8_t)writes_pc;
}

/* ---- A32 ---------------------------------------------------------------- */

/* Single data transfer, cond 01 I P U B W L: LDR, STR, LDRB, STRB and their
 * T forms. I=1 with bit 4 set is undefined in ARMv5TE (ETM1-P36). */
static void a32_single(uint32_t op, struct tc_armxfer *x)
{
	int load = (int)bits(op, 20, 20);
	if (bits(op, 25, 25) && bits(op, 4, 4))
		return;
	set_xfer(x, load ? tc_xfer_load : tc_xfer_store, 1, bits(op, 22, 22) ? 1 : 4,
		 load && bits(op, 15, 12) == 15);
}

/* Extra loads and stores, cond 000 P U I W L … 1 SH 1: STRH, LDRD, STRD
 * (L=0, SH=01, 10, 11), LDRH, LDRSB, LDRSH (L=1). P=0 with W=1 is
 * unallocated in ARMv5TE (no LDRHT before ARMv6T2: ETM1-P36). */
static void a32_extra(uint32_t op, struct tc_armxfer *x)
{
	uint32_t sh = bits(op, 6, 5);
	int rt = (int)bits(op, 15, 12);
	if (!bits(op, 24, 24) && bits(op, 21, 21))
		return;
	if (bits(op, 20, 20)) {
		set_xfer(x, tc_xfer_load, 1, sh == 2 ? 1 : 2, rt == 15);
		return;
	}
	if (sh == 1)
		set_xfer(x, tc_xfer_store, 1, 2, 0);
	else if (!(rt & 1))   /* LDRD, STRD: Rt odd is undefined */
		set_xfer(x, sh == 2 ? tc_xfer_load : tc_xfer_store, 2, 4, sh == 2 && rt == 14);
}

/* cond 000 with bits 7 and 4 set: SH=00 is the multiplies and SWP/SWPB
 * (cond 0001 0B00 Rn Rt 0000 1001 Rt2), else the extra loads and stores. */
static void a32_000(uint32_t op, struct tc_armxfer *x)
{
	if (!bits(op, 7, 7) || !bits(op, 4, 4))
		return;            /* data processing, misc (MRS, BX, CLZ, QADD, SMLA…) */
	if (bits(op, 6, 5)) {
		a32_extra(op, x);
		return;
	}
	if (bits(op, 27, 23) == 2 && bits(op, 21, 20) == 0 && bits(op, 11, 8) == 0)
		set_xfer(x, tc_xfer_swap, 2, bits(op, 22, 22) ? 1 : 4, bits(op, 15, 12) == 15);
}

/* LDM, STM, cond 100 P U S W L: one word per register in the list; an empty
 * list transfers nothing (ETM1-P36). */
static void a32_multiple(uint32_t op, struct tc_armxfer *x)
{
	int load = (int)bits(op, 20, 20);
	set_xfer(x, load ? tc_xfer_load : tc_xfer_store, popcount16(op), 4, load && bits(op, 15, 15));
}

/* LDC, STC (cond 110 P U N W L) and, at P=U=W=0, MCRR/MRRC (N=1) or nothing
 * (N=0, ETM1-P36); MCRR/MRRC only where the cond is not 1111 (MCRR2 is
 * ARMv6). */
static void a32_coproc_mem(uint32_t op, int uncond, struct tc_armxfer *x)
{
	int load = (int)bits(op, 20, 20);
	if (!bits(op, 24, 24) && !bits(op, 23, 23) && !bits(op, 21, 21)) {
		if (bits(op, 22, 22) && !uncond)
			set_xfer(x, load ? tc_xfer_mrc : tc_xfer_mcr, 2, 4, 0);
		return;
	}
	set_xfer(x, load ? tc_xfer_ldc : tc_xfer_stc, 0, 0, 0);
}

/* cond 1110 with bit 4 set: MCR (L=0), MRC (L=1); bit 4 clear is CDP. An MRC
 * to R15 sets the flags, not the PC. */
static void a32_coproc_reg(uint32_t op, struct tc_armxfer *x)
{
	if (bits(op, 4, 4))
		set_xfer(x, bits(op, 20, 20) ? tc_xfer_mrc : tc_xfer_mcr, 1, 4, 0);
}

/* cond 1111: PLD (1111 01x1 U101 … 1111), LDC2/STC2, MCR2/MRC2; BLX imm and
 * the rest no transfer. */
static void a32_uncond(uint32_t op, struct tc_armxfer *x)
{
	uint32_t top = bits(op, 27, 25);
	if ((bits(op, 27, 20) & 0xd7u) == 0x55u && bits(op, 15, 12) == 15 && !(bits(op, 25, 25) && bits(op, 4, 4)))
		set_xfer(x, tc_xfer_preload, 0, 0, 0);
	else if (top == 6)
		a32_coproc_mem(op, 1, x);
	else if (top == 7 && !bits(op, 24, 24))
		a32_coproc_reg(op, x);
}

static void a32_decode(uint32_t op, struct tc_armxfer *x)
{
	uint32_t cond = bits(op, 31, 28);
	if (cond == 15) {
		a32_uncond(op, x);
		return;
	}
	x->is_cond = cond != 14;
	switch (bits(op, 27, 25)) {
	case 0: a32_000(op, x); break;
	case 2: case 3: a32_single(op, x); break;
	case 4: a32_multiple(op, x); break;
	case 6: a32_coproc_mem(op, 0, x); break;
	case 7: if (!bits(op, 24, 24)) a32_coproc_reg(op, x); break;   /* bit 24 set: SWI */
	default: break;                                                 /* B, BL */
	}
}

/* ---- T32 (16-bit, ARMv5TE Thumb) ----------------------------------------- */

/* 0101 opB Rm Rn Rd: STR, STRH, STRB, LDRSB, LDR, LDRH, LDRB, LDRSH. */
static void t32_register_offset(uint32_t hw, struct tc_armxfer *x)
{
	static const uint8_t size[8] = { 4, 2, 1, 1, 4, 2, 1, 2 };
	uint32_t opb = bits(hw, 11, 9);
	set_xfer(x, opb >= 3 ? tc_xfer_load : tc_xfer_store, 1, size[opb], 0);
}

/* 1011 x10R list: PUSH (L=0, R = LR) and POP (L=1, R = PC). */
static void t32_push_pop(uint32_t hw, struct tc_armxfer *x)
{
	int load = (int)bits(hw, 11, 11);
	int r = (int)bits(hw, 8, 8);
	set_xfer(x, load ? tc_xfer_load : tc_xfer_store, popcount16(bits(hw, 7, 0)) + r, 4, load && r);
}

static void t32_decode(uint32_t hw, struct tc_armxfer *x)
{
	int load = (int)bits(hw, 11, 11);
	switch (bits(hw, 15, 12)) {
	case 4:
		if (bits(hw, 11, 11))               /* 01001: LDR Rd, [PC, #imm] */
			set_xfer(x, tc_xfer_load, 1, 4, 0);
		break;
	case 5: t32_register_offset(hw, x); break;
	case 6: set_xfer(x, load ? tc_xfer_load : tc_xfer_store, 1, 4, 0); break;   /* LDR/STR imm */
	case 7: set_xfer(x, load ? tc_xfer_load : tc_xfer_store, 1, 1, 0); break;   /* LDRB/STRB imm */
	case 8: set_xfer(x, load ? tc_xfer_load : tc_xfer_store, 1, 2, 0); break;   /* LDRH/STRH imm */
	case 9: set_xfer(x, load ? tc_xfer_load : tc_xfer_store, 1, 4, 0); break;   /* SP relative */
	case 11:
		if (bits(hw, 10, 9) == 2)
			t32_push_pop(hw, x);
		break;
	case 12:                                /* LDMIA/STMIA: empty list ETM1-P36 */
		set_xfer(x, load ? tc_xfer_load : tc_xfer_store, popcount16(bits(hw, 7, 0)), 4, 0);
		break;
	case 13: x->is_cond = bits(hw, 11, 8) < 14; break;   /* B<c>; 1110 undefined, 1111 SWI */
	default: break;
	}
}

/* ---- Entry point -------------------------------------------------------- */

int tc_armxfer_decode(int isa, const uint8_t *bytes, size_t avail, struct tc_armxfer *out)
{
	uint32_t hw;
	memset(out, 0, sizeof *out);
	if (isa == tc_isa_a32) {
		if (avail < 4)
			return 0;
		out->size = 4;
		a32_decode((uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24, out);
		return 4;
	}
	if (isa != tc_isa_t32 || avail < 2)
		return 0;
	hw = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8;
	out->size = bits(hw, 15, 11) >= 29 ? 4 : 2;   /* as insn.c's t32_size */
	if (avail < out->size) {
		memset(out, 0, sizeof *out);
		return 0;
	}
	if (out->size == 2)
		t32_decode(hw, out);
	return out->size;
}

const char *tc_xfer_kind_name(int kind)
{
	static const char *const names[tc_xfer_kinds] = {
		"none", "load", "store", "swap", "preload", "ldc", "stc", "mrc", "mcr",
	};
	return kind >= 0 && kind < tc_xfer_kinds ? names[kind] : "?";
}
