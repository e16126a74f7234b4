/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_program.c — random programs: basic blocks of ordinary instructions ending in every P0 type,
 * in one or more image regions, each of one instruction set: A64, A32 or T32 (16- and 32-bit).
 * The instruction words are assembled here from the Arm ARM encoding tables (C4.1 A64, F3 T32,
 * F4 A32), independently of the reference's classifier. */
#include <stdlib.h>
#include <string.h>

#include "enc_common.h"

/* ---- Terminators ------------------------------------------------------------------------ */

static const struct enc_term_info term_table[term_count] = {
	[term_b] = { "dir", flow_jump },         [term_bl] = { "dir", flow_call },
	[term_bcond] = { "dir", flow_cond },     [term_cbz] = { "dir", flow_cond },
	[term_tbz] = { "dir", flow_cond },       [term_br] = { "indir", flow_indirect },
	[term_blr] = { "indir", flow_icall },    [term_ret] = { "indir", flow_return },
	[term_retaa] = { "indir", flow_return }, [term_braa] = { "indir", flow_indirect },
	[term_blraa] = { "indir", flow_icall },  [term_eret] = { "indir", flow_indirect },
	[term_isb] = { "isb", flow_fall },       [term_wfi] = { "wfx", flow_fall },
	[term_b_w] = { "dir", flow_jump },       [term_bcond_w] = { "dir", flow_cond },
	[term_blx_imm] = { "dir", flow_call },   [term_bx_lr] = { "indir", flow_return },
	[term_pop_pc] = { "indir", flow_return },[term_bx] = { "indir", flow_indirect },
	[term_blx_reg] = { "indir", flow_icall },[term_ldr_pc] = { "indir", flow_indirect },
	[term_mov_pc] = { "indir", flow_indirect },
};

const struct enc_term_info *enc_term_info(int term)
{
	return &term_table[term];
}

static const int a32_terms[] = { term_b, term_bl, term_bcond, term_blx_imm, term_bx_lr, term_bx,
				 term_blx_reg, term_pop_pc, term_ldr_pc, term_mov_pc, term_isb, term_wfi };
static const int t32_terms[] = { term_b, term_b_w, term_bl, term_bcond, term_bcond_w, term_cbz, term_blx_imm,
				 term_bx_lr, term_bx, term_blx_reg, term_pop_pc, term_ldr_pc, term_mov_pc,
				 term_isb, term_wfi };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int random_term(struct enc_rng *r, int isa)
{
	if (isa == enc_a64)
		return (int)enc_below(r, term_wfi + 1);
	if (isa == enc_a32)
		return a32_terms[enc_below(r, COUNT(a32_terms))];
	return t32_terms[enc_below(r, COUNT(t32_terms))];
}

/* A conditional terminator (runs of them give long atom runs). */
static int random_cond(struct enc_rng *r, int isa)
{
	static const int a64[3] = { term_bcond, term_cbz, term_tbz }, t32[3] = { term_bcond, term_bcond_w, term_cbz };
	if (isa == enc_a32)
		return term_bcond;
	return (isa == enc_a64 ? a64 : t32)[enc_below(r, 3)];
}

/* T32 terminators are 16-bit or 32-bit (WFI either); A64 and A32 ones 32-bit. */
static int term_size(struct enc_rng *r, int isa, int term)
{
	if (isa != enc_t32)
		return 4;
	switch (term) {
	case term_b: case term_bcond: case term_cbz: case term_bx_lr: case term_bx: case term_blx_reg:
	case term_pop_pc: case term_mov_pc:
		return 2;
	case term_wfi:
		return enc_chance(r, 50) ? 2 : 4;
	default:
		return 4;
	}
}

/* ---- Instruction words --------------------------------------------------------------------- */

/* n bits of v from bit lo (two's complement for negative offsets). */
static uint32_t bitsof(int64_t v, int lo, int n)
{
	return (uint32_t)(((uint64_t)v >> lo) & ((UINT64_C(1) << n) - 1));
}

/* A register for BX/MOV PC: R0-R12 or LR. */
static uint32_t branch_reg(struct enc_rng *r)
{
	uint32_t rm = enc_below(r, 14);
	return rm == 13 ? 14 : rm;
}

/* A64 ordinary (non-P0) instruction: ADD/SUB immediate, LDR/STR, MOVZ, CMP, NOP. */
static uint32_t a64_other(struct enc_rng *r)
{
	uint32_t rd = enc_below(r, 29), rn = enc_below(r, 29), imm = enc_below(r, 4096);
	switch (enc_below(r, 7)) {
	case 0: return 0x91000000u | imm << 10 | rn << 5 | rd;            /* ADD Xd, Xn, #imm */
	case 1: return 0xd1000000u | imm << 10 | rn << 5 | rd;            /* SUB Xd, Xn, #imm */
	case 2: return 0xf9400000u | (imm & 0x1ff) << 10 | rn << 5 | rd;  /* LDR Xt, [Xn, #imm] */
	case 3: return 0xf9000000u | (imm & 0x1ff) << 10 | rn << 5 | rd;  /* STR Xt, [Xn, #imm] */
	case 4: return 0xd2800000u | (imm & 0xffff) << 5 | rd;            /* MOVZ Xd, #imm */
	case 5: return 0xf100001fu | imm << 10 | rn << 5;                 /* CMP Xn, #imm */
	default: return 0xd503201fu;                                      /* NOP */
	}
}

/* A64 terminator (C4.1); direct branches encode the offset to `to`. */
static uint32_t a64_terminator(struct enc_rng *r, int term, uint64_t at, uint64_t to)
{
	int64_t off = (int64_t)(to - at);
	uint32_t rn = enc_below(r, 30), rm = enc_below(r, 30), cond = enc_below(r, 14);
	switch (term) {
	case term_b: return 0x14000000u | bitsof(off, 2, 26);
	case term_bl: return 0x94000000u | bitsof(off, 2, 26);
	case term_bcond: return 0x54000000u | bitsof(off, 2, 19) << 5 | cond;
	case term_cbz: return (enc_chance(r, 50) ? 0xb4000000u : 0xb5000000u) | bitsof(off, 2, 19) << 5 | rn;
	case term_tbz: {
		uint32_t op = enc_chance(r, 50) ? 0x36000000u : 0x37000000u;   /* one random draw per statement: */
		uint32_t bit = enc_below(r, 32);                                /* the order must not depend on the compiler */
		return op | bit << 19 | bitsof(off, 2, 14) << 5 | rn;
	}
	case term_br: return 0xd61f0000u | rn << 5;
	case term_blr: return 0xd63f0000u | rn << 5;
	case term_ret: return 0xd65f0000u | 30u << 5;
	case term_retaa: return 0xd65f0bffu;
	case term_braa: return 0xd71f0800u | rn << 5 | rm;
	case term_blraa: return 0xd73f0800u | rn << 5 | rm;
	case term_eret: return 0xd69f03e0u;
	case term_isb: return 0xd5033fdfu;
	default: return 0xd503207fu;                                      /* WFI */
	}
}

/* A32 ordinary instruction (F4), sometimes conditional: ADD/SUB/MOV/CMP
 * immediate, LDR/STR immediate, NOP; never writes the PC. */
static uint32_t a32_other(struct enc_rng *r)
{
	uint32_t cond = enc_chance(r, 20) ? enc_below(r, 14) : 14;
	uint32_t rd = enc_below(r, 13), rn = enc_below(r, 13), imm = enc_below(r, 4096);
	switch (enc_below(r, 7)) {
	case 0: return cond << 28 | 0x02800000u | rn << 16 | rd << 12 | imm;   /* ADD Rd, Rn, #const */
	case 1: return cond << 28 | 0x02400000u | rn << 16 | rd << 12 | imm;   /* SUB Rd, Rn, #const */
	case 2: return cond << 28 | 0x05900000u | rn << 16 | rd << 12 | imm;   /* LDR Rt, [Rn, #imm12] */
	case 3: return cond << 28 | 0x05800000u | rn << 16 | rd << 12 | imm;   /* STR Rt, [Rn, #imm12] */
	case 4: return cond << 28 | 0x03a00000u | rd << 12 | imm;              /* MOV Rd, #const */
	case 5: return cond << 28 | 0x03500000u | rn << 16 | imm;              /* CMP Rn, #const */
	default: return 0xe320f000u;                                           /* NOP */
	}
}

/* A32 terminator (F4): B/BL/B<cond> and BLX (immediate) from PC = address + 8. */
static uint32_t a32_terminator(struct enc_rng *r, int term, uint64_t at, uint64_t to)
{
	int64_t off = (int64_t)(to - (at + 8));
	switch (term) {
	case term_b: return 0xea000000u | bitsof(off, 2, 24);
	case term_bl: return 0xeb000000u | bitsof(off, 2, 24);
	case term_bcond: return enc_below(r, 14) << 28 | 0x0a000000u | bitsof(off, 2, 24);
	case term_blx_imm: return 0xfa000000u | bitsof(off, 1, 1) << 24 | bitsof(off, 2, 24);   /* H = bit 1 */
	case term_bx_lr: return 0xe12fff1eu;
	case term_bx: return 0xe12fff10u | branch_reg(r);
	case term_blx_reg: return 0xe12fff30u | enc_below(r, 13);
	case term_pop_pc: return 0xe8bd8000u | enc_below(r, 0x2000);                      /* LDMIA SP!, {..., PC} */
	case term_ldr_pc: {
		uint32_t base = enc_below(r, 13);
		return 0xe590f000u | base << 16 | enc_below(r, 4096);
	}
	case term_mov_pc: return 0xe1a0f000u | branch_reg(r);
	case term_isb: return 0xf57ff06fu;
	default: return 0xe320f003u;                                                      /* WFI */
	}
}

/* T32 16-bit ordinary instruction (F3): MOVS/ADDS/CMP immediate, LDR/STR
 * immediate, NOP (never IT, never a 32-bit prefix). */
static uint32_t t16_other(struct enc_rng *r)
{
	uint32_t rd = enc_below(r, 8), rn = enc_below(r, 8), imm = enc_below(r, 256);
	switch (enc_below(r, 6)) {
	case 0: return 0x2000u | rd << 8 | imm;                    /* MOVS Rd, #imm8 */
	case 1: return 0x1c00u | (imm & 7) << 6 | rn << 3 | rd;    /* ADDS Rd, Rn, #imm3 */
	case 2: return 0x6800u | (imm & 31) << 6 | rn << 3 | rd;   /* LDR Rt, [Rn, #imm5] */
	case 3: return 0x6000u | (imm & 31) << 6 | rn << 3 | rd;   /* STR Rt, [Rn, #imm5] */
	case 4: return 0x2800u | rn << 8 | imm;                    /* CMP Rn, #imm8 */
	default: return 0xbf00u;                                   /* NOP */
	}
}

/* T32 32-bit ordinary instruction, first halfword in bits 31:16: MOV.W,
 * ADDW, LDR.W, STR.W immediate, NOP.W. */
static uint32_t t32_other(struct enc_rng *r)
{
	uint32_t rd = enc_below(r, 13), rn = enc_below(r, 13), imm = enc_below(r, 4096);
	switch (enc_below(r, 5)) {
	case 0: return 0xf04f0000u | rd << 8 | (imm & 0xff);                          /* MOV.W Rd, #imm8 */
	case 1: return 0xf2000000u | rn << 16 | (imm >> 8 & 7) << 12 | rd << 8 | (imm & 0xff); /* ADDW */
	case 2: return 0xf8d00000u | rn << 16 | rd << 12 | imm;                       /* LDR.W Rt, [Rn, #imm12] */
	case 3: return 0xf8c00000u | rn << 16 | rd << 12 | imm;                       /* STR.W Rt, [Rn, #imm12] */
	default: return 0xf3af8000u;                                                  /* NOP.W */
	}
}

/* B.W (hw2 10x1), BL (11x1) and BLX immediate (11x0): S:I1:I2:imm10:imm11:0
 * with J = NOT(I XOR S). BLX's offset is a multiple of 4, so H (bit 0) is 0. */
static uint32_t t32_long_branch(int64_t off, uint32_t hw2_op)
{
	uint32_t s = bitsof(off, 24, 1), j1 = bitsof(off, 23, 1) ^ s ^ 1, j2 = bitsof(off, 22, 1) ^ s ^ 1;
	uint32_t hw1 = 0xf000u | s << 10 | bitsof(off, 12, 10);
	uint32_t hw2 = hw2_op | j1 << 13 | j2 << 11 | bitsof(off, 1, 11);
	return hw1 << 16 | hw2;
}

/* B<c>.W (T3): S:J2:J1:imm6:imm11:0. */
static uint32_t t32_cond_branch(int64_t off, uint32_t cond)
{
	uint32_t hw1 = 0xf000u | bitsof(off, 20, 1) << 10 | cond << 6 | bitsof(off, 12, 6);
	uint32_t hw2 = 0x8000u | bitsof(off, 18, 1) << 13 | bitsof(off, 19, 1) << 11 | bitsof(off, 1, 11);
	return hw1 << 16 | hw2;
}

/* T32 terminator (F3) from PC = address + 4 (BLX: Align(PC, 4)); 32-bit
 * ones with the first halfword in bits 31:16. */
static uint32_t t32_terminator(struct enc_rng *r, const struct enc_block *k, uint64_t to)
{
	uint64_t at = k->term_addr;
	int64_t off = (int64_t)(to - (at + 4));
	uint32_t cond = enc_below(r, 14);
	switch (k->term) {
	case term_b: return 0xe000u | bitsof(off, 1, 11);
	case term_bcond: return 0xd000u | cond << 8 | bitsof(off, 1, 8);
	case term_cbz: return 0xb100u | enc_below(r, 2) << 11 | bitsof(off, 6, 1) << 9 | bitsof(off, 1, 5) << 3 |
			      enc_below(r, 8);
	case term_b_w: return t32_long_branch(off, 0x9000u);
	case term_bl: return t32_long_branch(off, 0xd000u);
	case term_blx_imm: return t32_long_branch((int64_t)(to - ((at + 4) & ~UINT64_C(3))), 0xc000u);
	case term_bcond_w: return t32_cond_branch(off, cond);
	case term_bx_lr: return 0x4770u;
	case term_bx: return 0x4700u | branch_reg(r) << 3;
	case term_blx_reg: return 0x4780u | enc_below(r, 13) << 3;
	case term_pop_pc: return 0xbd00u | enc_below(r, 256);
	case term_ldr_pc: {
		uint32_t base = enc_below(r, 13);
		return 0xf8d0f000u | base << 16 | enc_below(r, 4096);
	}
	case term_mov_pc: return 0x4687u | branch_reg(r) << 3;
	case term_isb: return 0xf3bf8f6fu;
	default: return k->term_size == 2 ? 0xbf30u : 0xf3af8003u;       /* WFI, WFI.W */
	}
}

/* ---- Branch reach ---------------------------------------------------------------------------- */

static int within(int64_t v, int64_t lo, int64_t hi, int64_t align)
{
	return v >= lo && v <= hi && v % align == 0;
}

/* Whether the direct terminator at `at` can encode a branch to `to`. */
static int reachable(int isa, int term, uint64_t at, uint64_t to)
{
	int64_t off = (int64_t)(to - at), m;
	if (isa == enc_a64) {
		m = term == term_tbz ? INT64_C(1) << 15 : term == term_b || term == term_bl ? INT64_C(1) << 27 : INT64_C(1) << 20;
		return within(off, -m, m - 4, 4);
	}
	if (isa == enc_a32)
		return within(off - 8, -(INT64_C(1) << 25), (INT64_C(1) << 25) - 4, term == term_blx_imm ? 2 : 4);
	off -= 4;
	switch (term) {
	case term_b: return within(off, -2048, 2046, 2);
	case term_bcond: return within(off, -256, 254, 2);
	case term_cbz: return within(off, 0, 126, 2);
	case term_bcond_w: return within(off, -(INT64_C(1) << 20), (INT64_C(1) << 20) - 2, 2);
	case term_blx_imm:
		off = (int64_t)(to - ((at + 4) & ~UINT64_C(3)));
		return within(off, -(INT64_C(1) << 24), (INT64_C(1) << 24) - 4, 4);
	default: return within(off, -(INT64_C(1) << 24), (INT64_C(1) << 24) - 2, 2);   /* B.W, BL */
	}
}

/* The region a direct terminator branches into: its own, or for BLX
 * (immediate) the region of the other AArch32 instruction set (NULL if none). */
static const struct enc_region *target_region(const struct enc_program *p, const struct enc_block *k)
{
	if (k->term != term_blx_imm)
		return &p->region[k->region];
	for (int i = 0; i < p->nregions; i++)
		if (p->region[i].isa != enc_a64 && p->region[i].isa != k->isa)
			return &p->region[i];
	return NULL;
}

/* A target block within reach of the terminator (the next block at worst), or -1. */
static int pick_target(const struct enc_program *p, struct enc_rng *r, int b)
{
	const struct enc_block *k = &p->block[b];
	const struct enc_region *g = target_region(p, k);
	if (!g)
		return -1;
	for (int tries = 0; tries < 16; tries++) {
		int t = g->first + (int)enc_below(r, (unsigned)g->nblocks);
		if (reachable(k->isa, k->term, k->term_addr, p->block[t].start))
			return t;
	}
	if (k->term != term_blx_imm && b + 1 < g->first + g->nblocks &&
	    reachable(k->isa, k->term, k->term_addr, p->block[b + 1].start))
		return b + 1;
	return -1;
}

/* Direct terminators get a target; a BLX with no other instruction set
 * becomes a BL, a CBZ with nothing ahead in reach a B<c> (same sizes). */
static void choose_target(struct enc_program *p, struct enc_rng *r, int b)
{
	struct enc_block *k = &p->block[b];
	int flow = enc_term_info(k->term)->flow;
	k->target = -1;
	if (flow != flow_jump && flow != flow_call && flow != flow_cond)
		return;
	k->target = pick_target(p, r, b);
	if (k->target < 0 && (k->term == term_blx_imm || k->term == term_cbz)) {
		k->term = k->term == term_cbz ? term_bcond : term_bl;
		k->target = pick_target(p, r, b);
	}
	if (k->target < 0)
		k->target = b;   /* not reached: the next block is always in reach */
	if (flow == flow_cond && enc_chance(r, 25) && reachable(k->isa, k->term, k->term_addr, k->start))
		k->target = b;   /* a loop: the branch goes back to the block's own start */
}

/* ---- Layout -------------------------------------------------------------------------------- */

static int other_size(const struct enc_block *k, int i)
{
	return k->isa != enc_t32 || (k->wide >> i & 1) ? 4 : 2;
}

/* One block at offset `at` of its region. */
static void layout_block(struct enc_block *k, struct enc_rng *r, int isa, uint64_t at, int term)
{
	uint64_t bytes = 0;
	k->start = at;
	k->isa = isa;
	k->term = term;
	k->nother = (int)enc_below(r, 7);
	k->wide = 0;
	for (int i = 0; i < k->nother; i++) {
		if (isa == enc_t32 && enc_chance(r, 30))
			k->wide |= 1u << i;
		bytes += (uint64_t)other_size(k, i);
	}
	k->term_size = term_size(r, isa, term);
	k->term_addr = at + bytes;
}

/* The n blocks of region reg from offset 0; returns its size in bytes. */
static uint64_t layout_region(struct enc_program *p, struct enc_rng *r, int reg, int n)
{
	struct enc_region *g = &p->region[reg];
	uint64_t at = 0;
	int chain = 0;   /* blocks left in a run of conditional blocks (runs of N atoms) */
	g->first = p->nblocks;
	g->nblocks = n;
	for (int i = 0; i < n; i++) {
		struct enc_block *k = &p->block[p->nblocks++];
		int term = random_term(r, g->isa);
		if (chain == 0 && enc_chance(r, 5))
			chain = 6 + (int)enc_below(r, 4);
		if (chain > 0) {
			term = random_cond(r, g->isa);
			chain--;
		}
		if (i == n - 1)
			term = g->isa == enc_t32 ? term_b_w : term_b;   /* the last block never falls through */
		layout_block(k, r, g->isa, at, term);
		k->region = reg;
		at = k->term_addr + (uint64_t)k->term_size;
	}
	return at;
}

/* The regions' instruction sets in address order: AArch32 code first
 * (below 4 GB), then A64 code (of a mixed program, above 4 GB). */
static int choose_isas(struct enc_rng *r, int mix, int *isa)
{
	int n = 0;
	if (mix == mix_t32) {
		isa[n++] = enc_t32;
		return n;
	}
	if (mix != mix_a64) {
		unsigned k = enc_below(r, 4);   /* A32 and T32 (either order), A32 only, T32 only */
		isa[n++] = k == 0 || k == 2 ? enc_a32 : enc_t32;
		if (k < 2)
			isa[n++] = k == 0 ? enc_t32 : enc_a32;
	}
	if (mix != mix_aarch32) {
		isa[n++] = enc_a64;
		if (mix == mix_a64 && enc_chance(r, 25))
			isa[n++] = enc_a64;   /* A64 code in two regions */
	}
	return n;
}

/* nblocks among n regions, at least 2 each. */
static void split(struct enc_rng *r, unsigned nblocks, int n, unsigned *share)
{
	unsigned extra = nblocks - 2u * (unsigned)n;
	for (int i = 0; i < n - 1; i++) {
		unsigned s = extra / (unsigned)(n - i);
		s = s / 2 + enc_below(r, s + 1);
		if (s > extra)
			s = extra;
		share[i] = 2 + s;
		extra -= s;
	}
	share[n - 1] = 2 + extra;
}

static int aarch32_region(const struct enc_region *g)
{
	return g->isa != enc_a64;
}

/* An offset in region g, a multiple of 4 where an instruction starts
 * (after its first block), for the 32-bit wrap; 0 if none was found. */
static uint64_t wrap_offset(const struct enc_program *p, struct enc_rng *r, const struct enc_region *g)
{
	for (int tries = 0; tries < 16 && g->nblocks > 1; tries++) {
		const struct enc_block *k = &p->block[g->first + 1 + (int)enc_below(r, (unsigned)g->nblocks - 1)];
		uint64_t at = k->start;
		for (int i = 0; i <= k->nother; at += (uint64_t)(i < k->nother ? other_size(k, i) : 0), i++)
			if (at % 4 == 0)
				return at;   /* (relative offsets: the region starts at 0 here) */
	}
	return 0;
}

/* The base of the group of regions i..j (spanning `span` bytes). AArch32
 * code lies low, at the top of the 32-bit address space, or across its end:
 * then the execution wraps from 0xffffffff to 0 inside region i (the model
 * keeps the linear addresses above 2^32; what the trace shows is masked to
 * 32 bits, enc_visible). A64 code of a mixed program lies above all that. */
static uint64_t group_base(const struct enc_program *p, struct enc_rng *r, int i, uint64_t span)
{
	static const uint64_t a64[] = { 0x1000, 0x400000, 0xffff000000010000ull, 0x7ff000000000ull };
	static const uint64_t a64_high[] = { 0xffff000000010000ull, 0x7ff000000000ull, 0x100800000ull };
	static const uint64_t a32[] = { 0x8000, 0x100000, 0x40000000 };
	uint64_t top = UINT64_C(1) << 32, wrap;
	if (!aarch32_region(&p->region[i]))
		return i > 0 ? a64_high[enc_below(r, 3)] : a64[enc_below(r, 4)];
	switch (enc_below(r, 5)) {
	case 3:
		return (top - span - 0x100) & ~UINT64_C(0xfff);
	case 4:
		wrap = wrap_offset(p, r, &p->region[i]);
		if (wrap)
			return top - wrap;
		return (top - span - 0x100) & ~UINT64_C(0xfff);
	default:
		return a32[enc_below(r, 3)];
	}
}

/* Region bases: consecutive regions of one execution state lie close
 * together (adjacent, or a gap of up to 1 MB: within every branch's reach
 * that needs it), each 4-byte aligned. */
static void place(struct enc_program *p, struct enc_rng *r)
{
	for (int i = 0; i < p->nregions; i++) {   /* offsets within each group */
		struct enc_region *g = &p->region[i];
		uint64_t gap = enc_chance(r, 30) ? 0 : 4 * (1 + (uint64_t)enc_below(r, 0x40000));
		g->base = 0;
		if (i > 0 && aarch32_region(g) == aarch32_region(g - 1))
			g->base = (g[-1].base + g[-1].size + gap + 3) & ~UINT64_C(3);
	}
	for (int i = 0, j; i < p->nregions; i = j + 1) {
		uint64_t base;
		for (j = i; j + 1 < p->nregions && aarch32_region(&p->region[j + 1]) == aarch32_region(&p->region[i]);)
			j++;
		base = group_base(p, r, i, p->region[j].base + p->region[j].size);
		for (int k = i; k <= j; k++)
			p->region[k].base += base;
	}
	for (int b = 0; b < p->nblocks; b++) {
		struct enc_block *k = &p->block[b];
		k->start += p->region[k->region].base;
		k->term_addr += p->region[k->region].base;
	}
}

/* ---- Code ------------------------------------------------------------------------------------ */

static void put16(struct enc_region *g, uint64_t at, uint32_t h)
{
	uint8_t *b = g->code + (at - g->base);
	b[0] = (uint8_t)h;
	b[1] = (uint8_t)(h >> 8);
}

static void put32(struct enc_region *g, uint64_t at, uint32_t w)
{
	put16(g, at, w & 0xffff);
	put16(g, at + 2, w >> 16);
}

/* A 32-bit T32 instruction: first halfword first. */
static void put_t32(struct enc_region *g, uint64_t at, uint32_t op)
{
	put16(g, at, op >> 16);
	put16(g, at + 2, op & 0xffff);
}

/* Records the instruction sizes of a block in its region's map. */
static void mark_sizes(struct enc_program *p, const struct enc_block *k)
{
	struct enc_region *g = &p->region[k->region];
	uint64_t at = k->start;
	for (int i = 0; i < k->nother; i++) {
		g->insn_size[(at - g->base) / 2] = (uint8_t)other_size(k, i);
		at += (uint64_t)other_size(k, i);
	}
	g->insn_size[(k->term_addr - g->base) / 2] = (uint8_t)k->term_size;
}

static void write_block(struct enc_program *p, struct enc_rng *r, const struct enc_block *k)
{
	struct enc_region *g = &p->region[k->region];
	uint64_t at = k->start, to = k->target >= 0 ? p->block[k->target].start : 0;
	for (int i = 0; i < k->nother; i++) {
		if (k->isa == enc_a64)
			put32(g, at, a64_other(r));
		else if (k->isa == enc_a32)
			put32(g, at, a32_other(r));
		else if (other_size(k, i) == 4)
			put_t32(g, at, t32_other(r));
		else
			put16(g, at, t16_other(r));
		at += (uint64_t)other_size(k, i);
	}
	if (k->isa == enc_a64)
		put32(g, at, a64_terminator(r, k->term, at, to));
	else if (k->isa == enc_a32)
		put32(g, at, a32_terminator(r, k->term, at, to));
	else if (k->term_size == 4)
		put_t32(g, at, t32_terminator(r, k, to));
	else
		put16(g, at, t32_terminator(r, k, to));
}

int enc_program_make(struct enc_program *p, struct enc_rng *r, unsigned nblocks, int mix)
{
	int isa[ENC_MAX_REGIONS], n;
	unsigned share[ENC_MAX_REGIONS];
	memset(p, 0, sizeof *p);
	if (nblocks < 2 || nblocks > ENC_MAX_BLOCKS)
		return -1;
	p->block = calloc(nblocks, sizeof *p->block);
	if (!p->block)
		return -1;
	n = choose_isas(r, mix, isa);
	while (n > 1 && nblocks < 2u * (unsigned)n)
		n--;
	split(r, nblocks, n, share);
	p->nregions = n;
	for (int i = 0; i < n; i++) {
		p->region[i].isa = isa[i];
		p->region[i].size = (size_t)layout_region(p, r, i, (int)share[i]);
	}
	place(p, r);
	for (int i = 0; i < n; i++) {
		p->region[i].code = malloc(p->region[i].size);
		p->region[i].insn_size = calloc(p->region[i].size / 2 + 1, 1);
		if (!p->region[i].code || !p->region[i].insn_size)
			return -1;
	}
	for (int b = 0; b < p->nblocks; b++)
		mark_sizes(p, &p->block[b]);
	for (int b = 0; b < p->nblocks; b++)
		choose_target(p, r, b);
	for (int b = 0; b < p->nblocks; b++)
		write_block(p, r, &p->block[b]);
	return 0;
}

void enc_program_free(struct enc_program *p)
{
	free(p->block);
	p->block = NULL;
	for (int i = 0; i < p->nregions; i++) {
		free(p->region[i].code);
		free(p->region[i].insn_size);
		p->region[i].code = NULL;
		p->region[i].insn_size = NULL;
	}
}

/* ---- Queries --------------------------------------------------------------------------------- */

int enc_block_at(const struct enc_program *p, uint64_t address)
{
	int lo = 0, hi = p->nblocks - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (p->block[mid].start == address)
			return mid;
		if (p->block[mid].start < address)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int enc_block_containing(const struct enc_program *p, uint64_t address)
{
	int lo = 0, hi = p->nblocks - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (address < p->block[mid].start)
			hi = mid - 1;
		else if (address > p->block[mid].term_addr)
			lo = mid + 1;
		else
			return mid;
	}
	return -1;
}

static const struct enc_region *region_of(const struct enc_program *p, uint64_t address)
{
	for (int i = 0; i < p->nregions; i++)
		if (address >= p->region[i].base && address - p->region[i].base < p->region[i].size)
			return &p->region[i];
	return NULL;
}

int enc_isa_at(const struct enc_program *p, uint64_t address)
{
	const struct enc_region *g = region_of(p, address);
	return g ? g->isa : -1;
}

int enc_insn_size(const struct enc_program *p, uint64_t address)
{
	const struct enc_region *g = region_of(p, address);
	if (!g || (address - g->base) % 2)
		return 0;
	return g->insn_size[(address - g->base) / 2];
}

uint64_t enc_insn_count(const struct enc_program *p, uint64_t first, uint64_t last)
{
	uint64_t n = 0;
	for (uint64_t a = first; a <= last; n++) {
		int size = enc_insn_size(p, a);
		if (!size)
			break;
		a += (uint64_t)size;
	}
	return n;
}

uint64_t enc_insn_prev(const struct enc_program *p, uint64_t address)
{
	return enc_insn_size(p, address - 2) == 2 ? address - 2 : address - 4;
}

uint64_t enc_insn_nth(const struct enc_program *p, uint64_t first, uint64_t k)
{
	uint64_t a = first;
	for (uint64_t i = 0; i < k; i++)
		a += (uint64_t)enc_insn_size(p, a);
	return a;
}

static int in_group(const struct enc_region *g, int group)
{
	return group < 0 || aarch32_region(g) == group;
}

int enc_random_block(const struct enc_program *p, struct enc_rng *r, int group)
{
	unsigned total = 0, i;
	for (int k = 0; k < p->nregions; k++)
		total += in_group(&p->region[k], group) ? (unsigned)p->region[k].nblocks : 0;
	if (total == 0)
		return (int)enc_below(r, (unsigned)p->nblocks);
	i = enc_below(r, total);
	for (int k = 0; k < p->nregions; k++) {
		const struct enc_region *g = &p->region[k];
		if (!in_group(g, group))
			continue;
		if (i < (unsigned)g->nblocks)
			return g->first + (int)i;
		i -= (unsigned)g->nblocks;
	}
	return 0;
}

uint64_t enc_visible(const struct enc_program *p, uint64_t address)
{
	int isa = enc_isa_at(p, address);
	return isa == enc_a32 || isa == enc_t32 ? address & UINT64_C(0xffffffff) : address;
}

int enc_program_image(struct enc_program *p, struct tc_enc_region *out)
{
	int n = 0;
	for (int i = 0; i < p->nregions; i++) {
		struct enc_region *g = &p->region[i];
		uint64_t end = g->base + g->size, cut = ((g->base >> 32) + 1) << 32;
		uint64_t mask = g->isa == enc_a64 ? UINT64_MAX : UINT64_C(0xffffffff);
		if (g->isa != enc_a64 && end > cut) {   /* across 2^32: the part from 0 on, copied */
			out[n].base = 0;
			out[n].len = (size_t)(end - cut);
			out[n].bytes = malloc(out[n].len);
			if (out[n].bytes)
				memcpy(out[n].bytes, g->code + (cut - g->base), out[n].len);
			n++;
			end = cut;
		}
		out[n].base = g->base & mask;
		out[n].len = (size_t)(end - g->base);
		out[n].bytes = g->code;
		g->code = NULL;
		n++;
	}
	return n;
}

int enc_program_mixed(const struct enc_program *p)
{
	int a64 = 0, a32 = 0;
	for (int k = 0; k < p->nregions; k++) {
		a64 |= !aarch32_region(&p->region[k]);
		a32 |= aarch32_region(&p->region[k]);
	}
	return a64 && a32;
}
