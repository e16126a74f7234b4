/* SPDX-License-Identifier: BSD-3-Clause */
/* rvinsn.c — RISC-V instruction classification for instruction trace (rvinsn.h), protocol-neutral.
 * The encodings are those of the RISC-V unprivileged ISA (20191213): §1.5 "Base Instruction-Length
 * Encoding" (Figure 1.1), chapter 2 "RV32I" (Figure 2.3, §2.5 "Control Transfer Instructions"), chapter
 * 5 "RV64I", chapter 16 "C" (Tables 16.4–16.6, the opcode map of §16.8), and of the privileged ISA
 * (20190608) for mret, sret, uret and dret (dret: the debug specification 0.13). Which encodings
 * are reserved, and what a protocol may do with the classes, is the errata decision RV-P18;
 * the pairs of Table 3.2 are RV-P12. */
#include <string.h>

#include "rvinsn.h"

static const char *const class_names[tc_rvinsn_class_count] = {
	"other", "branch", "jump", "indirect", "xret", "trap", "upper", "reserved", "long", "truncated",
};

const char *tc_rvinsn_class_name(int cls)
{
	return (cls >= 0 && cls < tc_rvinsn_class_count) ? class_names[cls] : "?";
}

static uint64_t xmask(int xlen)
{
	return xlen == 32 ? 0xffffffffu : ~(uint64_t)0;
}

/* Bits hi..lo of v, moved down to bit 0. */
static uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
	return (v >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* v as a two's-complement number of n bits. */
static int64_t sext(uint64_t v, unsigned n)
{
	uint64_t m = (uint64_t)1 << (n - 1);
	v &= (m << 1) - 1;
	return (int64_t)((v ^ m) - m);
}

/* ---- Length (§1.5 Figure 1.1) ------------------------------------------------ */

/* The length in bytes the first halfword h says: 2, 4, 6, 8, 10…22, or 0 (≥ 192 bits, reserved). */
static unsigned length_of(uint32_t h)
{
	unsigned nnn;
	if ((h & 3) != 3)
		return 2;
	if ((h & 0x1c) != 0x1c)
		return 4;
	if (!(h & 0x20))
		return 6;     /* xxxxxxxxxx011111: 48-bit */
	if (!(h & 0x40))
		return 8;     /* xxxxxxxxx0111111: 64-bit */
	nnn = bits(h, 14, 12);  /* xnnnxxxxx1111111: (80 + 16·nnn)-bit, nnn = 111 reserved */
	return nnn == 7 ? 0 : 10 + 2 * nnn;
}

/* ---- 32-bit encodings (chapter 2 Figure 2.3, chapter 5, privileged ISA) ---------- */

static int decode32(int xlen, uint64_t pc, uint32_t w, struct tc_rvinsn *o)
{
	uint32_t f3 = bits(w, 14, 12);
	o->rd = (uint8_t)bits(w, 11, 7);
	switch (bits(w, 6, 0)) {
	case 0x63:   /* BRANCH: funct3 010 and 011 are unassigned (no base instruction: reserved) */
		if (f3 == 2 || f3 == 3)
			return o->rd = 0, tc_rvinsn_reserved;
		o->rd = 0;
		o->target = (pc + (uint64_t)sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 |
						 bits(w, 11, 8) << 1, 13)) & xmask(xlen);
		return tc_rvinsn_branch;
	case 0x6f:   /* JAL */
		o->target = (pc + (uint64_t)sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 |
						 bits(w, 30, 21) << 1, 21)) & xmask(xlen);
		return tc_rvinsn_jump;
	case 0x67:   /* JALR: funct3 000 only */
		if (f3 != 0)
			return o->rd = 0, tc_rvinsn_reserved;
		o->rs1 = (uint8_t)bits(w, 19, 15);
		o->imm = sext(bits(w, 31, 20), 12);
		return tc_rvinsn_indirect;
	case 0x37:   /* LUI: sign-extended from 32 bits (RV64I §5.2) */
		o->value = (uint64_t)sext(w & 0xfffff000u, 32) & xmask(xlen);
		return tc_rvinsn_upper;
	case 0x17:   /* AUIPC */
		o->value = (pc + (uint64_t)sext(w & 0xfffff000u, 32)) & xmask(xlen);
		return tc_rvinsn_upper;
	default:
		break;
	}
	o->rd = 0;
	switch (w) {   /* SYSTEM, funct3 000, rd = rs1 = 0: the whole word names the instruction */
	case 0x00000073: case 0x00100073:              /* ecall, ebreak */
		return tc_rvinsn_trap;
	case 0x00200073: case 0x10200073: case 0x30200073: case 0x7b200073:   /* uret, sret, mret, dret */
		return tc_rvinsn_xret;
	default:
		return tc_rvinsn_other;                    /* mnret 0x70200073 and wfi too (RV-P18) */
	}
}

/* ---- 16-bit encodings (chapter 16, the opcode map of Tables 16.4–16.6) ------------ */

static int quadrant0(uint32_t h)
{
	uint32_t f3 = bits(h, 15, 13);
	if (f3 == 0 && bits(h, 12, 5) == 0)
		return tc_rvinsn_reserved;    /* c.addi4spn nzuimm = 0, and 0x0000 (the defined illegal one) */
	if (f3 == 4)
		return tc_rvinsn_reserved;    /* "Reserved" (Zcb's c.lbu…c.sh are not decoded) */
	return tc_rvinsn_other;           /* c.addi4spn, c.fld, c.lw, c.flw/c.ld, c.fsd, c.sw, c.fsw/c.sd */
}

/* c.j and c.jal's offset (CJ format): imm[11|4|9:8|10|6|7|3:1|5] in bits 12:2. */
static int64_t cj_offset(uint32_t h)
{
	return sext(bits(h, 12, 12) << 11 | bits(h, 8, 8) << 10 | bits(h, 10, 9) << 8 | bits(h, 6, 6) << 7 |
		    bits(h, 7, 7) << 6 | bits(h, 2, 2) << 5 | bits(h, 11, 11) << 4 | bits(h, 5, 3) << 1, 12);
}

/* c.beqz and c.bnez's offset (CB format): imm[8|4:3] in bits 12:10, imm[7:6|2:1|5] in bits 6:2. */
static int64_t cb_offset(uint32_t h)
{
	return sext(bits(h, 12, 12) << 8 | bits(h, 6, 5) << 6 | bits(h, 2, 2) << 5 | bits(h, 11, 10) << 3 |
		    bits(h, 4, 3) << 1, 9);
}

/* Quadrant 1, funct3 100: c.srli, c.srai, c.andi, c.sub…c.and, c.subw, c.addw. */
static int misc_alu(int xlen, uint32_t h)
{
	uint32_t op = bits(h, 11, 10);
	if (op <= 1)   /* c.srli, c.srai: RV32 with shamt[5] = 1 is reserved (for custom extensions) */
		return (xlen == 32 && bits(h, 12, 12)) ? tc_rvinsn_reserved : tc_rvinsn_other;
	if (op == 2 || !bits(h, 12, 12))
		return tc_rvinsn_other;
	/* 100 1 11 xxx ff xxx 01: c.subw, c.addw (RV64); the rest reserved (Zcb's c.mul, c.zext… are not decoded) */
	return (xlen == 64 && bits(h, 6, 5) <= 1) ? tc_rvinsn_other : tc_rvinsn_reserved;
}

static int quadrant1(int xlen, uint64_t pc, uint32_t h, struct tc_rvinsn *o)
{
	uint32_t rd = bits(h, 11, 7);
	switch (bits(h, 15, 13)) {
	case 1:
		if (xlen == 32) {   /* c.jal, RV32 only */
			o->rd = 1;
			o->target = (pc + (uint64_t)cj_offset(h)) & xmask(xlen);
			return tc_rvinsn_jump;
		}
		return rd == 0 ? tc_rvinsn_reserved : tc_rvinsn_other;   /* c.addiw, rd = 0 reserved */
	case 3:
		if (bits(h, 12, 12) == 0 && bits(h, 6, 2) == 0)
			return tc_rvinsn_reserved;   /* c.addi16sp and c.lui with nzimm = 0 */
		if (rd == 2)
			return tc_rvinsn_other;      /* c.addi16sp */
		o->rd = (uint8_t)rd;             /* c.lui (rd = 0: a HINT, still the pair's kind) */
		o->value = (uint64_t)sext(bits(h, 12, 12) << 17 | bits(h, 6, 2) << 12, 18) & xmask(xlen);
		return tc_rvinsn_upper;
	case 4:
		return misc_alu(xlen, h);
	case 5:   /* c.j */
		o->target = (pc + (uint64_t)cj_offset(h)) & xmask(xlen);
		return tc_rvinsn_jump;
	case 6: case 7:   /* c.beqz, c.bnez */
		o->target = (pc + (uint64_t)cb_offset(h)) & xmask(xlen);
		return tc_rvinsn_branch;
	default:
		return tc_rvinsn_other;   /* c.addi (c.nop), c.li */
	}
}

static int quadrant2(int xlen, uint32_t h, struct tc_rvinsn *o)
{
	uint32_t r1 = bits(h, 11, 7), r2 = bits(h, 6, 2);
	switch (bits(h, 15, 13)) {
	case 0:   /* c.slli: RV32 with shamt[5] = 1 reserved */
		return (xlen == 32 && bits(h, 12, 12)) ? tc_rvinsn_reserved : tc_rvinsn_other;
	case 2:   /* c.lwsp: rd = 0 reserved */
		return r1 == 0 ? tc_rvinsn_reserved : tc_rvinsn_other;
	case 3:   /* c.flwsp (RV32), c.ldsp (RV64): rd = 0 reserved */
		return (xlen == 64 && r1 == 0) ? tc_rvinsn_reserved : tc_rvinsn_other;
	case 4:
		break;
	default:
		return tc_rvinsn_other;   /* c.fldsp, c.fsdsp (Zcmp and Zcmt code points), c.swsp, c.fswsp/c.sdsp */
	}
	if (r2 != 0)
		return tc_rvinsn_other;   /* c.mv, c.add (rd = 0: HINTs) */
	if (!bits(h, 12, 12)) {       /* c.jr: rs1 = 0 reserved */
		if (r1 == 0)
			return tc_rvinsn_reserved;
		o->rs1 = (uint8_t)r1;
		return tc_rvinsn_indirect;
	}
	if (r1 == 0)
		return tc_rvinsn_trap;    /* c.ebreak */
	o->rd = 1;                    /* c.jalr */
	o->rs1 = (uint8_t)r1;
	return tc_rvinsn_indirect;
}

static int decode16(int xlen, uint64_t pc, uint32_t h, struct tc_rvinsn *o)
{
	switch (h & 3) {
	case 0:
		return quadrant0(h);
	case 1:
		return quadrant1(xlen, pc, h, o);
	default:
		return quadrant2(xlen, h, o);
	}
}

int tc_rvinsn_decode(int xlen, int c_ext, uint64_t address, const uint8_t *b, size_t avail,
		     struct tc_rvinsn *out)
{
	uint32_t h;
	unsigned len;
	memset(out, 0, sizeof *out);
	if (avail < 2) {
		out->size = 2;
		return out->cls = tc_rvinsn_truncated;
	}
	h = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	len = length_of(h);
	out->size = (uint8_t)len;
	out->raw = h;
	if (avail >= 4 && len != 2)
		out->raw |= ((uint32_t)b[2] | (uint32_t)b[3] << 8) << 16;
	if (len != 0 && avail < len)
		return out->cls = tc_rvinsn_truncated;
	if (len == 2)
		out->cls = c_ext ? (uint8_t)decode16(xlen, address, h, out) : (uint8_t)tc_rvinsn_other;
	else if (len == 4)
		out->cls = (uint8_t)decode32(xlen, address, out->raw, out);
	else
		out->cls = tc_rvinsn_long;
	return out->cls;
}

int tc_rvinsn_pair_target(int xlen, const struct tc_rvinsn *prev, const struct tc_rvinsn *jump, uint64_t *target)
{
	if (!prev || !jump || prev->cls != tc_rvinsn_upper || jump->cls != tc_rvinsn_indirect || jump->rs1 == 0 ||
	    prev->rd != jump->rs1)
		return 0;
	*target = ((prev->value + (uint64_t)jump->imm) & ~(uint64_t)1) & xmask(xlen);
	return 1;
}
