/* SPDX-License-Identifier: BSD-3-Clause */
/* insn.c — instruction classification for stage 3 (K10.5.6.2.3 InstType,
 * K10.5.5.18.5 DecodedInst). Encoding groups are named as in the Arm ARM
 * (DDI 0487): C4.1 "A64 instruction set encoding", F3 "T32 instruction set
 * encoding", F4 "A32 instruction set encoding". Bits shown in parentheses in
 * the Arm ARM, (0) and (1), are "should be" bits: they are not checked, so an
 * encoding that differs only there classifies as the instruction it resembles
 * (the CONSTRAINED UNPREDICTABLE choice "behaves as if the bit had its
 * should-be value"). Every other unallocated encoding is tc_insn_other. */
#include <string.h>

#include "insn.h"

/* A fixed pattern: (opcode & mask) == value is the instruction. */
struct rule {
	uint32_t mask;
	uint32_t value;
	uint8_t type;
	uint8_t link;
};

/* What the decoders below work on. */
struct dec {
	uint64_t address;
	uint32_t op;              /* A64/A32 word; T32: first halfword, or hw1 << 16 | hw2 */
	int isa;
	int wfx_p0;
	struct tc_insn *out;
};

static const char *const type_names[] = { "other", "dir", "indir", "wfx", "isb", "tstart" };
static const char *const isa_names[] = { "a64", "a32", "t32" };

const char *tc_insn_type_name(int type)
{
	return (type >= 0 && type <= tc_insn_tstart) ? type_names[type] : "?";
}

const char *tc_isa_name(int isa)
{
	return (isa >= 0 && isa <= tc_isa_t32) ? isa_names[isa] : "?";
}

/* ---- Helpers ------------------------------------------------------------ */

static uint32_t read16(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8;
}

static uint32_t read32(const uint8_t *b)
{
	return read16(b) | read16(b + 2) << 16;
}

static uint32_t bits(uint32_t v, int hi, int lo)
{
	return (v >> lo) & ((UINT32_C(2) << (hi - lo)) - 1);
}

/* Sign-extends the low `n` bits of v (1 <= n <= 32) in unsigned arithmetic. */
static uint64_t sext(uint32_t v, int n)
{
	uint64_t m = UINT64_C(1) << (n - 1);
	uint64_t x = (uint64_t)v & ((m << 1) - 1);
	return (x ^ m) - m;
}

static const struct rule *match(const struct rule *r, size_t n, uint32_t op)
{
	for (size_t i = 0; i < n; i++)
		if ((op & r[i].mask) == r[i].value)
			return &r[i];
	return NULL;
}

static int set(struct dec *d, int type, int link, int cond)
{
	d->out->type = (uint8_t)type;
	d->out->is_link = (uint8_t)link;
	d->out->is_cond = (uint8_t)cond;
	return 1;
}

static int set_rule(struct dec *d, const struct rule *r, int cond)
{
	if (!r)
		return 0;
	return set(d, r->type, r->link, cond);
}

/* A direct branch to `target`, given unmasked: AArch32 addresses are 32-bit. */
static int direct(struct dec *d, uint64_t target, int link, int cond)
{
	d->out->target = d->isa == tc_isa_a64 ? target : (target & UINT32_C(0xffffffff));
	return set(d, tc_insn_branch_dir, link, cond);
}

/* WFI/WFE/WFIT/WFET are P0 instructions only when the protocol says so (wfx_p0). */
static int wfx(struct dec *d, int cond)
{
	if (!d->wfx_p0)
		return 1;
	return set(d, tc_insn_wfx, 0, cond);
}

/* ---- A64 (C4.1) --------------------------------------------------------- */

/* C4.1 Branches, exception generating and system instructions:
 * Unconditional branch (register). Any other encoding there (DRPS, which
 * only executes in Debug state, the unallocated ones) is other. */
static const struct rule a64_branch_reg[] = {
	{ 0xfffffc1f, 0xd61f0000, tc_insn_branch_indir, 0 }, /* BR Xn */
	{ 0xfffffc1f, 0xd63f0000, tc_insn_branch_indir, 1 }, /* BLR Xn */
	{ 0xfffffc1f, 0xd65f0000, tc_insn_branch_indir, 0 }, /* RET Xn */
	{ 0xfffff81f, 0xd61f081f, tc_insn_branch_indir, 0 }, /* BRAAZ/BRABZ Xn */
	{ 0xfffff81f, 0xd63f081f, tc_insn_branch_indir, 1 }, /* BLRAAZ/BLRABZ Xn */
	{ 0xfffffbff, 0xd65f0bff, tc_insn_branch_indir, 0 }, /* RETAA/RETAB */
	{ 0xffffffff, 0xd69f03e0, tc_insn_branch_indir, 0 }, /* ERET */
	{ 0xfffffbff, 0xd69f0bff, tc_insn_branch_indir, 0 }, /* ERETAA/ERETAB */
	{ 0xfffff800, 0xd71f0800, tc_insn_branch_indir, 0 }, /* BRAA/BRAB Xn, Xm */
	{ 0xfffff800, 0xd73f0800, tc_insn_branch_indir, 1 }, /* BLRAA/BLRAB Xn, Xm */
};

/* C4.1 Branches, exception generating and system instructions: Hints
 * (WFE, WFI), System instructions with register argument (WFET, WFIT),
 * Barriers (ISB, any CRm option). */
static const struct rule a64_system[] = {
	{ 0xffffffff, 0xd503205f, tc_insn_wfx, 0 },          /* WFE */
	{ 0xffffffff, 0xd503207f, tc_insn_wfx, 0 },          /* WFI */
	{ 0xffffffe0, 0xd5031000, tc_insn_wfx, 0 },          /* WFET Xt */
	{ 0xffffffe0, 0xd5031020, tc_insn_wfx, 0 },          /* WFIT Xt */
	{ 0xfffff0ff, 0xd50330df, tc_insn_isb, 0 },          /* ISB #option */
	{ 0xffffffe0, 0xd5233060, tc_insn_tstart, 0 },       /* TSTART Xt (FEAT_TME; TC-P27) */
};

/* C4.1 Unconditional branch (immediate): B, BL; imm26 words. */
static int a64_branch_imm(struct dec *d)
{
	if ((d->op & 0x7c000000) != 0x14000000)
		return 0;
	return direct(d, d->address + (sext(bits(d->op, 25, 0), 26) << 2), (int)bits(d->op, 31, 31), 0);
}

/* C4.1 Conditional branch (immediate): B.cond (o0=0), BC.cond (o0=1,
 * FEAT_HBC); imm19 words. cond AL/NV (111x) always branch: not conditional. */
static int a64_branch_cond(struct dec *d)
{
	if ((d->op & 0xff000000) != 0x54000000)
		return 0;
	return direct(d, d->address + (sext(bits(d->op, 23, 5), 19) << 2), 0, bits(d->op, 3, 1) != 7);
}

/* C4.1 Compare and branch (immediate): CBZ, CBNZ; imm19 words. */
static int a64_cbz(struct dec *d)
{
	if ((d->op & 0x7e000000) != 0x34000000)
		return 0;
	return direct(d, d->address + (sext(bits(d->op, 23, 5), 19) << 2), 0, 1);
}

/* C4.1 Test and branch (immediate): TBZ, TBNZ; imm14 words. */
static int a64_tbz(struct dec *d)
{
	if ((d->op & 0x7e000000) != 0x36000000)
		return 0;
	return direct(d, d->address + (sext(bits(d->op, 18, 5), 14) << 2), 0, 1);
}

static int a64_table(struct dec *d)
{
	const struct rule *r = match(a64_branch_reg, sizeof a64_branch_reg / sizeof *a64_branch_reg, d->op);
	if (r)
		return set_rule(d, r, 0);
	r = match(a64_system, sizeof a64_system / sizeof *a64_system, d->op);
	if (r && r->type == tc_insn_wfx)
		return wfx(d, 0);
	return set_rule(d, r, 0);
}

static void decode_a64(struct dec *d)
{
	if (a64_branch_imm(d) || a64_branch_cond(d) || a64_cbz(d) || a64_tbz(d))
		return;
	a64_table(d);
}

/* ---- A32 (F4) ----------------------------------------------------------- */

/* F4 Data-processing and miscellaneous instructions: Miscellaneous (BX, BXJ,
 * BLX register, ERET) and Move special register and hints (WFE, WFI).
 * BXJ is BX on Armv8 (no Jazelle). For cond != 1111. */
static const struct rule a32_misc[] = {
	{ 0x0ff000f0, 0x01200010, tc_insn_branch_indir, 0 }, /* BX Rm */
	{ 0x0ff000f0, 0x01200020, tc_insn_branch_indir, 0 }, /* BXJ Rm */
	{ 0x0ff000f0, 0x01200030, tc_insn_branch_indir, 1 }, /* BLX Rm */
	{ 0x0ff000f0, 0x01600060, tc_insn_branch_indir, 0 }, /* ERET */
	{ 0x0fff00ff, 0x03200002, tc_insn_wfx, 0 },          /* WFE */
	{ 0x0fff00ff, 0x03200003, tc_insn_wfx, 0 },          /* WFI */
};

/* F4 Unconditional instructions (cond = 1111): Barriers (ISB), Exception
 * Save/Restore (RFE writes the PC). BLX (immediate) is in a32_uncond. */
static const struct rule a32_uncond_rules[] = {
	{ 0xfff000f0, 0xf5700060, tc_insn_isb, 0 },          /* ISB #option */
	{ 0xfe500000, 0xf8100000, tc_insn_branch_indir, 0 }, /* RFE{DA,DB,IA,IB} */
};

/* F4 Branch, branch with link, and block data transfer: B, BL (cond !=
 * 1111); target = PC (address + 8) + imm24 words. */
static int a32_branch_imm(struct dec *d, int cond)
{
	if ((d->op & 0x0e000000) != 0x0a000000)
		return 0;
	return direct(d, d->address + 8 + (sext(bits(d->op, 23, 0), 24) << 2), (int)bits(d->op, 24, 24), cond);
}

/* F4 Data-processing register, register-shifted register and immediate
 * with Rd = PC: an indirect branch (MOV PC, SUBS PC, LR, ADD PC, PC, #i…).
 * Opcodes 10xx are TST/TEQ/CMP/CMN (S=1, no Rd) or, with S=0, the
 * Miscellaneous / MOVW / MOVT / MSR groups; bits 7 and 4 both set (I=0)
 * are the multiply and extra load/store groups. */
static int a32_data_pc(struct dec *d, int cond)
{
	uint32_t op = d->op;
	if (bits(op, 27, 26) != 0 || bits(op, 15, 12) != 15 || bits(op, 24, 23) == 2)
		return 0;
	if (!bits(op, 25, 25) && bits(op, 7, 7) && bits(op, 4, 4))
		return 0;
	return set(d, tc_insn_branch_indir, 0, cond);
}

/* F4 Load/store word and unsigned byte (immediate, literal, register):
 * LDR and LDRT with Rt = PC (B=0, L=1). Bit 25 and bit 4 set is Media. */
static int a32_ldr_pc(struct dec *d, int cond)
{
	uint32_t op = d->op;
	if (bits(op, 27, 26) != 1 || (bits(op, 25, 25) && bits(op, 4, 4)))
		return 0;
	if (bits(op, 22, 22) || !bits(op, 20, 20) || bits(op, 15, 12) != 15)
		return 0;
	return set(d, tc_insn_branch_indir, 0, cond);
}

/* F4 Branch, branch with link, and block data transfer: LDM/LDMDA/LDMDB/
 * LDMIB/POP (and LDM exception return) with PC in the register list. */
static int a32_ldm_pc(struct dec *d, int cond)
{
	if ((d->op & 0x0e108000) != 0x08108000)
		return 0;
	return set(d, tc_insn_branch_indir, 0, cond);
}

/* F4 Unconditional instructions: BLX (immediate) to T32, H is bit 1 of
 * the offset; ISB; RFE. */
static int a32_uncond(struct dec *d)
{
	uint32_t off;
	if ((d->op & 0x0e000000) == 0x0a000000) {
		off = bits(d->op, 23, 0) << 2 | bits(d->op, 24, 24) << 1;
		d->out->next_isa = tc_isa_t32;
		return direct(d, d->address + 8 + sext(off, 26), 1, 0);
	}
	return set_rule(d, match(a32_uncond_rules, sizeof a32_uncond_rules / sizeof *a32_uncond_rules, d->op), 0);
}

static int a32_misc_rule(struct dec *d, int cond)
{
	const struct rule *r = match(a32_misc, sizeof a32_misc / sizeof *a32_misc, d->op);
	if (r && r->type == tc_insn_wfx)
		return wfx(d, cond);
	return set_rule(d, r, cond);
}

static void decode_a32(struct dec *d)
{
	uint32_t c = bits(d->op, 31, 28);
	int cond = c < 14;
	if (c == 15) {
		a32_uncond(d);
		return;
	}
	if (a32_branch_imm(d, cond) || a32_misc_rule(d, cond) || a32_data_pc(d, cond))
		return;
	if (a32_ldr_pc(d, cond))
		return;
	a32_ldm_pc(d, cond);
}

/* ---- T32 16-bit (F3 16-bit T32 instruction encoding) -------------------- */

/* Special data instructions and branch and exchange (BX, BLX, and ADD/MOV
 * high registers with D:Rd = PC); Miscellaneous 16-bit (POP with P=1, the
 * WFE/WFI hints; IT and the other hints are other). */
static const struct rule t16_rules[] = {
	{ 0xff80, 0x4700, tc_insn_branch_indir, 0 },         /* BX Rm */
	{ 0xff80, 0x4780, tc_insn_branch_indir, 1 },         /* BLX Rm */
	{ 0xff87, 0x4487, tc_insn_branch_indir, 0 },         /* ADD PC, Rm */
	{ 0xff87, 0x4687, tc_insn_branch_indir, 0 },         /* MOV PC, Rm */
	{ 0xff00, 0xbd00, tc_insn_branch_indir, 0 },         /* POP {…, PC} */
	{ 0xffff, 0xbf20, tc_insn_wfx, 0 },                  /* WFE */
	{ 0xffff, 0xbf30, tc_insn_wfx, 0 },                  /* WFI */
};

/* Conditional branch, and Supervisor Call: B<c> T1, cond not 111x
 * (1110 is UDF, 1111 SVC); target = PC (address + 4) + imm8 halfwords. */
static int t16_branch_cond(struct dec *d)
{
	if (bits(d->op, 15, 12) != 13 || bits(d->op, 11, 9) == 7)
		return 0;
	return direct(d, d->address + 4 + (sext(bits(d->op, 7, 0), 8) << 1), 0, 1);
}

/* Unconditional Branch: B T2, imm11 halfwords. */
static int t16_branch(struct dec *d)
{
	if (bits(d->op, 15, 11) != 28)
		return 0;
	return direct(d, d->address + 4 + (sext(bits(d->op, 10, 0), 11) << 1), 0, 0);
}

/* Miscellaneous 16-bit: CBZ, CBNZ; forward only, i:imm5 halfwords. */
static int t16_cbz(struct dec *d)
{
	if ((d->op & 0xf500) != 0xb100)
		return 0;
	return direct(d, d->address + 4 + (bits(d->op, 9, 9) << 6 | bits(d->op, 7, 3) << 1), 0, 1);
}

static void decode_t16(struct dec *d)
{
	const struct rule *r;
	if (t16_branch_cond(d) || t16_branch(d) || t16_cbz(d))
		return;
	r = match(t16_rules, sizeof t16_rules / sizeof *t16_rules, d->op);
	if (r && r->type == tc_insn_wfx)
		wfx(d, 0);
	else
		set_rule(d, r, 0);
}

/* ---- T32 32-bit (F3 32-bit T32 instruction encoding) -------------------- */

/* opcode = hw1 << 16 | hw2. Branches and miscellaneous control, the
 * op0 = 0, op1 = 111x part: Hints (WFE.W, WFI.W), Miscellaneous system
 * (ISB), Branch and exchange Jazelle (BXJ = BX), Exception return
 * (SUBS PC, LR, #imm8; ERET is SUBS PC, LR, #0). */
static const struct rule t32_control[] = {
	{ 0xfff0d7ff, 0xf3a08002, tc_insn_wfx, 0 },          /* WFE.W */
	{ 0xfff0d7ff, 0xf3a08003, tc_insn_wfx, 0 },          /* WFI.W */
	{ 0xfff0d0f0, 0xf3b08060, tc_insn_isb, 0 },          /* ISB #option */
	{ 0xfff0d000, 0xf3c08000, tc_insn_branch_indir, 0 }, /* BXJ Rm */
	{ 0xfff0d000, 0xf3d08000, tc_insn_branch_indir, 0 }, /* SUBS PC, LR, #imm8 / ERET */
};

/* Load/store multiple (hw1 = 1110100 op 0 W L Rn): LDM (IA, op=01),
 * LDMDB (op=10) with PC in the list; RFEDB (op=00), RFEIA (op=11).
 * Load/store dual, exclusive, table branch: TBB, TBH. */
static const struct rule t32_load[] = {
	{ 0xffd08000, 0xe8908000, tc_insn_branch_indir, 0 }, /* LDM{IA}.W / POP.W {…, PC} */
	{ 0xffd08000, 0xe9108000, tc_insn_branch_indir, 0 }, /* LDMDB {…, PC} */
	{ 0xffd00000, 0xe8100000, tc_insn_branch_indir, 0 }, /* RFEDB */
	{ 0xffd00000, 0xe9900000, tc_insn_branch_indir, 0 }, /* RFEIA */
	{ 0xfff000e0, 0xe8d00000, tc_insn_branch_indir, 0 }, /* TBB, TBH */
};

/* I1:I2 from J1, J2 and S: I = NOT(J XOR S). */
static uint32_t t32_i1i2(uint32_t op)
{
	uint32_t s = bits(op, 26, 26);
	uint32_t i1 = !(bits(op, 13, 13) ^ s);
	uint32_t i2 = !(bits(op, 11, 11) ^ s);
	return s << 24 | i1 << 23 | i2 << 22;
}

/* Branches and miscellaneous control: B<c>.W T3 (cond not 111x, 21-bit
 * S:J2:J1:imm6:imm11:0). */
static int t32_branch_cond(struct dec *d)
{
	uint32_t op = d->op, off;
	/* unreachable: t32_branches calls this only when op<25:23> != 111 */
	if (bits(op, 25, 23) == 7)
		return 0;
	off = bits(op, 26, 26) << 20 | bits(op, 11, 11) << 19 | bits(op, 13, 13) << 18 |
	      bits(op, 21, 16) << 12 | bits(op, 10, 0) << 1;
	return direct(d, d->address + 4 + sext(off, 21), 0, 1);
}

/* Branches and miscellaneous control: B.W T4, BL, BLX (immediate) with the
 * 25-bit S:I1:I2:imm10:imm11:0 offset. BLX goes to A32 from Align(PC, 4);
 * its H bit (bit 0) set is UNDEFINED. */
static int t32_branch(struct dec *d)
{
	uint32_t op = d->op;
	uint32_t off = t32_i1i2(op) | bits(op, 25, 16) << 12 | bits(op, 10, 0) << 1;
	int link = (int)bits(op, 14, 14);
	if (!bits(op, 12, 12)) {
		if (bits(op, 0, 0))
			return 1;
		d->out->next_isa = tc_isa_a32;
		return direct(d, ((d->address + 4) & ~(uint64_t)3) + sext(off, 25), 1, 0);
	}
	return direct(d, d->address + 4 + sext(off, 25), link, 0);
}

static int t32_rule(struct dec *d, const struct rule *r)
{
	if (r && r->type == tc_insn_wfx)
		return wfx(d, 0);
	set_rule(d, r, 0);
	return 1;
}

/* Branches and miscellaneous control: hw1 = 11110, hw2 bit 15 = 1. */
static int t32_branches(struct dec *d)
{
	uint32_t op = d->op;
	if ((op & 0xf8008000) != 0xf0008000)
		return 0;
	if (bits(op, 14, 14) || bits(op, 12, 12))
		return t32_branch(d);
	if (bits(op, 25, 23) != 7)
		return t32_branch_cond(d);
	return t32_rule(d, match(t32_control, sizeof t32_control / sizeof *t32_control, op));
}

/* Load word: LDR.W (immediate T3 and T4, literal, register) and LDRT with
 * Rt = PC. hw1 = 11111000 x101 Rn; with Rn != PC and U(bit 23) = 0, hw2 bits
 * 11:6 must be 000000 (register) or 1PUW with P or W set. */
static int t32_ldr_pc(struct dec *d)
{
	uint32_t op = d->op;
	if ((op & 0xff70f000) != 0xf850f000)
		return 0;
	if (bits(op, 19, 16) != 15 && !bits(op, 23, 23)) {
		if (bits(op, 11, 11) ? !bits(op, 10, 10) && !bits(op, 8, 8) : bits(op, 10, 6) != 0)
			return 1;
	}
	return set(d, tc_insn_branch_indir, 0, 0);
}

static void decode_t32(struct dec *d)
{
	if (t32_branches(d) || t32_ldr_pc(d))
		return;
	t32_rule(d, match(t32_load, sizeof t32_load / sizeof *t32_load, d->op));
}

/* ---- Entry point -------------------------------------------------------- */

/* T32: a first halfword with bits 15:11 = 11101, 11110 or 11111 starts a
 * 32-bit instruction. */
static int t32_size(uint32_t hw1)
{
	return bits(hw1, 15, 11) >= 29 ? 4 : 2;
}

static int insn_size(int isa, const uint8_t *bytes, size_t avail)
{
	if (isa == tc_isa_t32)
		return avail < 2 ? 0 : t32_size(read16(bytes));
	return avail < 4 ? 0 : 4;
}

int tc_insn_decode(int isa, uint64_t address, const uint8_t *bytes, size_t avail, int wfx_p0,
		   struct tc_insn *out)
{
	struct dec d;
	int size;
	if (!out)
		return 0;
	memset(out, 0, sizeof *out);
	if (!bytes || isa < tc_isa_a64 || isa > tc_isa_t32)
		return 0;
	size = insn_size(isa, bytes, avail);
	if (!size || (size_t)size > avail)
		return 0;
	d.address = address;
	d.isa = isa;
	d.op = size == 2 ? read16(bytes) : isa == tc_isa_t32 ? read16(bytes) << 16 | read16(bytes + 2) : read32(bytes);
	d.wfx_p0 = wfx_p0;
	d.out = out;
	out->opcode = d.op;
	out->size = (uint8_t)size;
	out->next_isa = (uint8_t)isa;
	if (isa == tc_isa_a64)
		decode_a64(&d);
	else if (isa == tc_isa_a32)
		decode_a32(&d);
	else if (size == 2)
		decode_t16(&d);
	else
		decode_t32(&d);
	return size;
}
