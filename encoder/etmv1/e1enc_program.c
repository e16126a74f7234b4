/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_program.c — a random ARMv4T/ARMv5TE A32 program of basic blocks for the ETMv1 encoder. */
/* Only encodings ARMv4T and ARMv5TE define (the cores ETMv1 traces: ETM7, ETM9, Table 1-1 L897-929):
 * data processing with an immediate (ADD, SUB, MOV, CMP; some conditional), MOV r0, r0, loads and
 * stores, and the terminators B, BL, B<cond>, BX Rm, MOV pc, Rm; with thumb_percent, runs of Thumb
 * blocks (the same kinds; the BL pair) and the ARMv5T BLX (immediate) and BLX Rm in both sets. The shared generator (encoder/program.c) writes
 * ARMv6K and Thumb-2 encodings (NOP hints, ISB, WFI, CBZ, B.W) that these cores do not have. */
#include <stdlib.h>
#include <string.h>

#include "e1enc_internal.h"

static void put32(struct e1e_program *p, uint32_t at, uint32_t w)
{
	uint8_t *b = p->code + (at - p->base);
	b[0] = (uint8_t)w;
	b[1] = (uint8_t)(w >> 8);
	b[2] = (uint8_t)(w >> 16);
	b[3] = (uint8_t)(w >> 24);
}

uint32_t e1e_word(const struct e1e_program *p, uint32_t at)
{
	const uint8_t *b = p->code + (at - p->base);
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int e1e_block_at(const struct e1e_program *p, uint32_t at)
{
	int lo = 0, hi = p->nblocks - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (p->block[mid].start == at)
			return mid;
		if (p->block[mid].start < at)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* A load or store (ARM ARM A5.2, A5.3, A5.4, A5.5 addressing modes with an immediate offset; Rd
 * and Rn below r13, never the PC): LDR, STR, LDRB, STRB, LDRH, STRH, LDRSB, LDRSH, LDMIA, STMIA,
 * SWP, SWPB, LDRD, STRD (ARMv5TE: Rd even, below r12), PUSH and POP (STMDB, LDMIA sp! of r0-r12
 * and, PUSH only, lr). */
static uint32_t transfer(struct enc_rng *r, uint32_t cond, int full, int dual)
{
	uint32_t rd = enc_below(r, 13), rn = enc_below(r, 13), imm = enc_below(r, 256);
	uint32_t misc = (imm >> 4) << 8 | (imm & 0xf), even = full || dual ? 2 * enc_below(r, 6) : 0;
	unsigned kind = enc_below(r, full ? 15 : dual ? 12 : 10);
	if (!full && kind >= 10)
		kind++;   /* dual: LDRD and STRD, no SWP */
	switch (kind) {
	case 0: return cond << 28 | 0x05900000u | rn << 16 | rd << 12 | imm;   /* LDR */
	case 1: return cond << 28 | 0x05800000u | rn << 16 | rd << 12 | imm;   /* STR */
	case 2: return cond << 28 | 0x05d00000u | rn << 16 | rd << 12 | imm;   /* LDRB */
	case 3: return cond << 28 | 0x05c00000u | rn << 16 | rd << 12 | imm;   /* STRB */
	case 4: return cond << 28 | 0x01d000b0u | rn << 16 | rd << 12 | misc;  /* LDRH */
	case 5: return cond << 28 | 0x01c000b0u | rn << 16 | rd << 12 | misc;  /* STRH */
	case 6: return cond << 28 | 0x01d000d0u | rn << 16 | rd << 12 | misc;  /* LDRSB */
	case 7: return cond << 28 | 0x01d000f0u | rn << 16 | rd << 12 | misc;  /* LDRSH */
	case 8: return cond << 28 | 0x08900000u | rn << 16 | (1 + enc_below(r, 0x1fff));   /* LDMIA */
	case 9: return cond << 28 | 0x08800000u | rn << 16 | (1 + enc_below(r, 0x1fff)); /* STMIA */
	case 10: return cond << 28 | 0x01000090u | enc_below(r, 2) << 22 | rn << 16 | rd << 12 | enc_below(r, 13); /* SWP(B) */
	case 11: return cond << 28 | 0x01c000d0u | rn << 16 | even << 12 | misc;  /* LDRD */
	case 12: return cond << 28 | 0x01c000f0u | rn << 16 | even << 12 | misc;  /* STRD */
	case 13: return cond << 28 | 0x092d0000u | (1 + enc_below(r, 0x1fff)) | enc_below(r, 2) << 14; /* PUSH */
	default: return cond << 28 | 0x08bd0000u | (1 + enc_below(r, 0x1fff));   /* POP, no PC */
	}
}

/* The transfers of an instruction transfer() wrote: how many, of how many bytes each (Table 5-2
 * L8133-8135: 1, 2 or 4 bytes; n x 4 for LDM and STM; ETM1-P10: SWP a load and a store, LDRD and
 * STRD two words); 0 for any other instruction. */
int e1e_transfers(uint32_t w, int *size)
{
	if ((w & 0x0e000000u) == 0x04000000u) {
		*size = w & (1u << 22) ? 1 : 4;
		return 1;
	}
	if ((w & 0x0fb00ff0u) == 0x01000090u) {
		*size = w & (1u << 22) ? 1 : 4;   /* SWPB, SWP */
		return 2;
	}
	if ((w & 0x0e000090u) == 0x00000090u && (w & 0x60u)) {
		if (!(w & (1u << 20)) && (w & 0x40u)) {
			*size = 4;   /* LDRD, STRD (L = 0, SH = 1x) */
			return 2;
		}
		*size = (w & 0x60u) == 0x40u ? 1 : 2;   /* SB 1; H, SH 2 */
		return 1;
	}
	if ((w & 0x0e000000u) == 0x08000000u) {
		int n = 0;
		for (uint32_t list = w & 0xffffu; list; list &= list - 1)
			n++;
		*size = 4;
		return n;
	}
	return 0;
}

/* The exception an instruction other() or other_t16() wrote takes when executed (Table 7-12's
 * numbers, ETM1-P17): 0x9 undefined, 0xa SVC; 0 for none. */
int e1e_trap_kind(uint32_t w, int thumb)
{
	if (thumb)
		return (w & 0xff00u) == 0xde00u ? 0x9 : (w & 0xff00u) == 0xdf00u ? 0xa : 0;
	if ((w & 0xfff000f0u) == 0xe7f000f0u)
		return 0x9;
	return (w & 0x0f000000u) == 0x0f000000u && w >> 28 != 15 ? 0xa : 0;
}

/* The name of the ARMv5TE transfers a variant counts (SWP, LDRD/STRD, PUSH/POP), else NULL. */
const char *e1e_transfer_name(uint32_t w, int thumb)
{
	if (thumb)
		return (w & 0xf600u) == 0xb400u ? "thumb push/pop" : NULL;
	if ((w & 0x0fb00ff0u) == 0x01000090u)
		return "swp";
	if ((w & 0x0e1000d0u) == 0x000000d0u)
		return "ldrd/strd";
	if ((w & 0x0fff0000u) == 0x092d0000u || (w & 0x0fff0000u) == 0x08bd0000u)
		return "push/pop";
	return NULL;
}

/* A coprocessor register transfer (ARM ARM A4.1.32, A4.1.35, ARMv5TE MCRR, MRRC; never to or from
 * the PC or SP): MCR, MRC, MCRR, MRRC to a coprocessor other than 10 and 11. */
static uint32_t cprt(struct enc_rng *r, uint32_t cond)
{
	uint32_t cp = enc_below(r, 14), rd = enc_below(r, 13), rn = enc_below(r, 13);
	uint32_t crn = enc_below(r, 16), crm = enc_below(r, 16), op = enc_below(r, 8);
	cp = cp >= 10 ? cp + 2 : cp;
	switch (enc_below(r, 4)) {
	case 0: return cond << 28 | 0x0e000010u | op << 21 | crn << 16 | rd << 12 | cp << 8 | (op & 7) << 5 | crm; /* MCR */
	case 1: return cond << 28 | 0x0e100010u | op << 21 | crn << 16 | rd << 12 | cp << 8 | (op & 7) << 5 | crm; /* MRC */
	case 2: return cond << 28 | 0x0c400000u | rn << 16 | rd << 12 | cp << 8 | (op & 7) << 4 | crm;  /* MCRR */
	default: return cond << 28 | 0x0c500000u | rn << 16 | rd << 12 | cp << 8 | (op & 7) << 4 | crm; /* MRRC */
	}
}

/* The words a coprocessor register transfer cprt() wrote moves (L7903: MCR, MRC 32 bits, MCRR,
 * MRRC 64); 0 for any other instruction. */
int e1e_cprt_words(uint32_t w)
{
	if ((w & 0x0f000010u) == 0x0e000010u)
		return 1;
	if ((w & 0x0fe00000u) == 0x0c400000u)
		return 2;
	return 0;
}

/* An ordinary instruction (ARM ARM A5.1 data processing, immediate, a load or store; in the full
 * program also a coprocessor register transfer; in it and with traps SWI, an undefined
 * instruction): never writes the PC. With traps (the ETMv2 encoder's) the same but SWP, PUSH and
 * POP. */
static uint32_t other(struct enc_rng *r, int full, int traps)
{
	uint32_t cond = enc_chance(r, 20) ? enc_below(r, 14) : 14;
	uint32_t rd = enc_below(r, 13), rn = enc_below(r, 13), imm = enc_below(r, 256);
	if (enc_chance(r, 35))
		return transfer(r, cond, full, traps);
	if ((full || traps) && enc_chance(r, 8))
		return cprt(r, cond);
	if ((full || traps) && enc_chance(r, 3))   /* SWI #imm24, or an undefined instruction (cond 0111 1111 ... 1111) */
		return enc_chance(r, 50) ? cond << 28 | 0x0f000000u | enc_below(r, 0x1000000)
					 : 0xe7f000f0u | enc_below(r, 0x1000) << 8 | enc_below(r, 16);
	switch (enc_below(r, 5)) {
	case 0: return cond << 28 | 0x02800000u | rn << 16 | rd << 12 | imm;   /* ADD Rd, Rn, #imm */
	case 1: return cond << 28 | 0x02400000u | rn << 16 | rd << 12 | imm;   /* SUB Rd, Rn, #imm */
	case 2: return cond << 28 | 0x03a00000u | rd << 12 | imm;              /* MOV Rd, #imm */
	case 3: return cond << 28 | 0x03500000u | rn << 16 | imm;              /* CMP Rn, #imm */
	default: return 0xe1a00000u;                                           /* MOV r0, r0 */
	}
}

static uint32_t terminator(struct enc_rng *r, int term, uint32_t at, uint32_t to)
{
	uint32_t off = ((to - (at + 8)) >> 2) & 0xffffffu;
	switch (term) {
	case e1e_b: return 0xea000000u | off;
	case e1e_bl: return 0xeb000000u | off;
	case e1e_bcond: return enc_below(r, 14) << 28 | 0x0a000000u | off;
	case e1e_bx: return 0xe12fff10u | enc_below(r, 13);
	case e1e_blx_imm: return 0xfa000000u | (((to - (at + 8)) >> 1) & 1) << 24 | off;   /* ARMv5T, to Thumb */
	case e1e_blx_reg: return 0xe12fff30u | enc_below(r, 13);                          /* ARMv5T */
	case e1e_ldr_pc: return 0xe590f000u | enc_below(r, 13) << 16 | enc_below(r, 0x1000);   /* LDR pc, [Rn, #imm] */
	case e1e_pop_pc:
		if (enc_chance(r, 50))
			return 0xe8bd8000u | enc_below(r, 0x2000);             /* POP {..., pc} */
		return 0xe8908000u | enc_below(r, 13) << 16 | enc_below(r, 0x2000);   /* LDMIA Rn, {..., pc} */
	default: return 0xe1a0f000u | enc_below(r, 13);   /* MOV pc, Rm */
	}
}

/* ---- Thumb (ARMv4T/ARMv5T 16-bit encodings, ARM ARM A6/A7) ------------------------------- */

static void put16(struct e1e_program *p, uint32_t at, uint32_t hw)
{
	uint8_t *b = p->code + (at - p->base);
	b[0] = (uint8_t)hw;
	b[1] = (uint8_t)(hw >> 8);
}

uint32_t e1e_half(const struct e1e_program *p, uint32_t at)
{
	const uint8_t *b = p->code + (at - p->base);
	return (uint32_t)b[0] | (uint32_t)b[1] << 8;
}

/* A Thumb load or store: LDR, STR, LDRB, STRB, LDRH, STRH (immediate offset), LDRSB, LDRSH
 * (register offset), LDMIA, STMIA of r0-r7, PUSH (with lr or not), POP (never the PC). */
static uint32_t transfer_t16(struct enc_rng *r)
{
	uint32_t rd = enc_below(r, 8), rn = enc_below(r, 8), rm = enc_below(r, 8), imm = enc_below(r, 32);
	uint32_t list = 1 + enc_below(r, 0xff);
	switch (enc_below(r, 12)) {
	case 0: return 0x6800u | imm << 6 | rn << 3 | rd;   /* LDR Rd, [Rn, #imm*4] */
	case 1: return 0x6000u | imm << 6 | rn << 3 | rd;   /* STR */
	case 2: return 0x7800u | imm << 6 | rn << 3 | rd;   /* LDRB */
	case 3: return 0x7000u | imm << 6 | rn << 3 | rd;   /* STRB */
	case 4: return 0x8800u | imm << 6 | rn << 3 | rd;   /* LDRH */
	case 5: return 0x8000u | imm << 6 | rn << 3 | rd;   /* STRH */
	case 6: return 0x5600u | rm << 6 | rn << 3 | rd;    /* LDRSB Rd, [Rn, Rm] */
	case 7: return 0x5e00u | rm << 6 | rn << 3 | rd;    /* LDRSH */
	case 8: return 0xc800u | rn << 8 | list;            /* LDMIA Rn!, {list} */
	case 9: return 0xb400u | enc_below(r, 2) << 8 | list;   /* PUSH {list[, lr]} */
	case 10: return 0xbc00u | list;                     /* POP {list}, no PC */
	default: return 0xc000u | rn << 8 | list;           /* STMIA */
	}
}

/* The transfers of a Thumb instruction transfer_t16() wrote (as e1e_transfers); 0 for another. */
int e1e_transfers_t16(uint32_t hw, int *size)
{
	uint32_t top = hw & 0xf000u;
	if (top == 0x6000u || top == 0x7000u || top == 0x8000u) {
		*size = top == 0x6000u ? 4 : top == 0x7000u ? 1 : 2;
		return 1;
	}
	if ((hw & 0xfe00u) == 0x5600u || (hw & 0xfe00u) == 0x5e00u) {
		*size = (hw & 0xfe00u) == 0x5600u ? 1 : 2;
		return 1;
	}
	if (top == 0xc000u || (hw & 0xf600u) == 0xb400u) {
		int n = top == 0xb000u && (hw & 0x100u);   /* PUSH's lr, POP's pc */
		for (uint32_t list = hw & 0xffu; list; list &= list - 1)
			n++;
		*size = 4;
		return n;
	}
	return 0;
}

/* A Thumb instruction that never writes the PC: MOVS, CMP, ADDS, SUBS with an immediate, MOV r8, r8,
 * or a load or store; in the full program (or with traps) also SWI and an undefined instruction. Thumb has no
 * conditional forms but B<cond>. */
static uint32_t other_t16(struct enc_rng *r, int full)
{
	uint32_t rd = enc_below(r, 8), imm = enc_below(r, 256);
	if (enc_chance(r, 35))
		return transfer_t16(r);
	if (full && enc_chance(r, 3))   /* SWI #imm8, or an undefined instruction (B<cond> with cond 1110) */
		return (enc_chance(r, 50) ? 0xdf00u : 0xde00u) | enc_below(r, 256);
	switch (enc_below(r, 5)) {
	case 0: return 0x2000u | rd << 8 | imm;   /* MOVS Rd, #imm */
	case 1: return 0x2800u | rd << 8 | imm;   /* CMP Rn, #imm */
	case 2: return 0x3000u | rd << 8 | imm;   /* ADDS Rd, #imm */
	case 3: return 0x3800u | rd << 8 | imm;   /* SUBS Rd, #imm */
	default: return 0x46c0u;                  /* MOV r8, r8 */
	}
}

/* The Thumb terminator at at to to; the BL and BLX pairs as two halfwords (first << 16 | second). */
static uint32_t terminator_t16(struct enc_rng *r, int term, uint32_t at, uint32_t to)
{
	uint32_t off = to - (at + 4);
	switch (term) {
	case e1e_b: return 0xe000u | ((off >> 1) & 0x7ffu);
	case e1e_bcond: return 0xd000u | enc_below(r, 14) << 8 | ((off >> 1) & 0xffu);
	case e1e_bl: return (0xf000u | ((off >> 12) & 0x7ffu)) << 16 | 0xf800u | ((off >> 1) & 0x7ffu);
	case e1e_blx_imm:   /* ARMv5T, to ARM from Align(PC, 4) */
		off = to - ((at + 4) & ~UINT32_C(3));
		return (0xf000u | ((off >> 12) & 0x7ffu)) << 16 | 0xe800u | ((off >> 1) & 0x7feu);
	case e1e_bx: return 0x4700u | enc_below(r, 8) << 3;
	case e1e_blx_reg: return 0x4780u | enc_below(r, 8) << 3;   /* ARMv5T */
	case e1e_ldr_pc:
	case e1e_pop_pc: return 0xbd00u | enc_below(r, 0x100);     /* POP {..., pc} */
	default: return 0x4687u | enc_below(r, 8) << 3;             /* MOV pc, Rm: stays in Thumb */
	}
}

static int term_size(const struct e1e_block *k)
{
	if (!k->thumb)
		return 4;
	return k->term == e1e_bl || k->term == e1e_blx_imm ? 4 : 2;
}

/* The first block from `from` on (wrapping) of the instruction set, or -1. */
int e1e_block_of_isa(const struct e1e_program *p, int from, int thumb)
{
	for (int i = 0; i < p->nblocks; i++) {
		int k = (from + i) % p->nblocks;
		if (p->block[k].thumb == thumb)
			return k;
	}
	return -1;
}

/* A block's address as a branch gives it: bit 0 set for Thumb (§5.5.2 L8155). */
uint32_t e1e_code_addr(const struct e1e_program *p, int block)
{
	return p->block[block].start | (p->block[block].thumb ? 1u : 0u);
}

/* Runs of 1-8 blocks of one instruction set, Thumb by thumb_percent; both sets when it is not 0. */
static void draw_isas(struct e1e *e, struct e1e_program *p)
{
	if (!e->thumb_percent)
		return;
	for (int i = 0; i < p->nblocks;) {
		int thumb = e->thumb_percent && enc_chance(&e->rng, e->thumb_percent);
		for (int n = 1 + (int)enc_below(&e->rng, 8); n > 0 && i < p->nblocks; n--)
			p->block[i++].thumb = thumb;
	}
	if (!e->thumb_percent)
		return;
	if (e1e_block_of_isa(p, 0, 1) < 0)
		p->block[p->nblocks / 2].thumb = 1;
	if (e1e_block_of_isa(p, 0, 0) < 0)
		p->block[0].thumb = 0;
	p->thumb = 1;
}

/* A direct branch's target block: ARM B, BL, B<cond> any ARM block; BLX the other set; Thumb B
 * and B<cond> (±2 KB, ±256 bytes) a Thumb block at most 20 or 8 blocks away (a block is at most
 * 26 bytes with its padding), else the Thumb B becomes the BL pair and B<cond> B (ETM1-E2). */
static void draw_target(struct e1e *e, struct e1e_program *p, int i)
{
	struct e1e_block *k = &p->block[i];
	int want = k->term == e1e_blx_imm ? !k->thumb : k->thumb;
	int reach = !k->thumb || k->term == e1e_bl || k->term == e1e_blx_imm ? p->nblocks
		    : k->term == e1e_b ? 20 : 8;
	for (int tries = 0; tries < 8; tries++) {
		int lo = i - reach < 0 ? 0 : i - reach, hi = i + reach >= p->nblocks ? p->nblocks - 1 : i + reach;
		int t = lo + (int)enc_below(&e->rng, (unsigned)(hi - lo + 1));
		if (p->block[t].thumb == want) {
			k->target = t;
			return;
		}
	}
	if (reach == p->nblocks) {
		k->target = e1e_block_of_isa(p, (int)enc_below(&e->rng, (unsigned)p->nblocks), want);
		return;
	}
	k->term = k->term == e1e_b ? e1e_bl : e1e_b;
	draw_target(e, p, i);
}

/* The terminators: B<cond> only where the next block follows in the same instruction set (a
 * B<cond> not taken falls through to it); then the direct branches' targets. */
/* After the terminators: a B<cond> only before a block of its own set (it falls through to it), then
 * each block's target; with `mixed` (a program with Thumb blocks) a direct branch's again where its
 * set can reach (draw_target). */
static void draw_targets(struct e1e *e, struct e1e_program *p, int mixed)
{
	for (int i = 0; i + 1 < p->nblocks; i++)
		if (p->block[i].term == e1e_bcond && p->block[i + 1].thumb != p->block[i].thumb)
			p->block[i].term = e1e_b;
	for (int i = 0; i < p->nblocks; i++) {
		int t = p->block[i].term;
		p->block[i].target = (int)enc_below(&e->rng, (unsigned)p->nblocks);
		if (mixed && (t == e1e_b || t == e1e_bl || t == e1e_bcond || t == e1e_blx_imm))
			draw_target(e, p, i);
	}
}

static void draw_terms(struct e1e *e, struct e1e_program *p)
{
	static const int arm_only[] = { e1e_b, e1e_bl, e1e_bcond, e1e_bx, e1e_mov_pc, e1e_ldr_pc, e1e_pop_pc };
	for (int i = 0; i < p->nblocks; i++)
		p->block[i].term = p->thumb ? (int)enc_below(&e->rng, e1e_term_all) : arm_only[enc_below(&e->rng, 7)];
	for (int i = 0; i < p->nblocks; i++)
		if (p->block[i].thumb && p->block[i].term == e1e_ldr_pc)
			p->block[i].term = e1e_pop_pc;   /* Thumb has no 16-bit LDR pc */
	draw_targets(e, p, p->thumb);
}

/* Addresses: each ARM block word aligned (after Thumb code a halfword of padding, never run). */
static size_t lay_out(struct e1e_program *p, const int *nother)
{
	uint32_t at = p->base;
	for (int i = 0; i < p->nblocks; i++) {
		struct e1e_block *k = &p->block[i];
		if (!k->thumb && (at & 2))
			at += 2;
		k->start = at;
		k->term_addr = at + (k->thumb ? 2u : 4u) * (uint32_t)nother[i];
		at = k->term_addr + (uint32_t)term_size(k);
	}
	return at - p->base;
}

static void write_block(struct e1e *e, struct e1e_program *p, int i, int nother)
{
	struct e1e_block *k = &p->block[i];
	uint32_t to = p->block[k->target].start;
	if (!k->thumb) {
		for (int j = 0; j < nother; j++)
			put32(p, k->start + 4 * (uint32_t)j, other(&e->rng, e->full_program, e->traps));
		put32(p, k->term_addr, terminator(&e->rng, k->term, k->term_addr, to));
		return;
	}
	for (int j = 0; j < nother; j++)
		put16(p, k->start + 2 * (uint32_t)j, other_t16(&e->rng, e->full_program || e->traps));
	uint32_t t = terminator_t16(&e->rng, k->term, k->term_addr, to);
	if (term_size(k) == 4) {
		put16(p, k->term_addr, t >> 16);
		put16(p, k->term_addr + 2, t & 0xffffu);
	} else {
		put16(p, k->term_addr, t);
	}
}

/* The A32 program of five terminators (full_program 0, the ETMv2 encoder's): per block its
 * instruction count, terminator and target, in that order of draws. */
static void draw_blocks_a32(struct e1e *e, struct e1e_program *p, int *nother)
{
	for (int i = 0; i < p->nblocks; i++) {
		nother[i] = (int)enc_below(&e->rng, 6);
		p->block[i].term = (int)enc_below(&e->rng, e1e_term_count);
		p->block[i].target = (int)enc_below(&e->rng, (unsigned)p->nblocks);
	}
}

/* The A32 and Thumb program of the five terminators (full_program 0 with thumb_percent, the ETMv2
 * encoder's): runs of blocks of one set, then per block its instruction count and terminator,
 * then the targets as the full program draws them (B<cond> only before a block of its set). */
static void draw_blocks_mixed(struct e1e *e, struct e1e_program *p, int *nother)
{
	draw_isas(e, p);
	for (int i = 0; i < p->nblocks; i++) {
		nother[i] = (int)enc_below(&e->rng, 6);
		p->block[i].term = (int)enc_below(&e->rng, e1e_term_count);
	}
	draw_targets(e, p, 1);
}

/* The vector page of the A32 program: handlers at IRQ and FIQ only; BX Rm when the program has
 * Thumb code (the return to Thumb state). */
static void vectors_a32(struct e1e *e, struct e1e_program *p)
{
	uint32_t ret = p->thumb ? 0xe12fff10u : 0xe1a0f000u;
	for (int i = 0; i < 8; i++) {
		uint32_t w = i >= 6 ? ret | enc_below(&e->rng, 13) : 0xe1a00000u;
		for (int k = 0; k < 4; k++)
			p->vectors[4 * i + k] = (uint8_t)(w >> (8 * k));
	}
}

int e1e_program_make(struct e1e *e, unsigned nblocks)
{
	static const uint32_t bases[] = { 0x8000, 0x100000, 0x40000000, 0xfff00000u };
	struct e1e_program *p = &e->prog;
	memset(p, 0, sizeof *p);
	p->block = calloc(nblocks, sizeof *p->block);
	if (!p->block)
		return -1;
	p->nblocks = (int)nblocks;
	p->base = bases[enc_below(&e->rng, 4)] + 4 * enc_below(&e->rng, 0x400);
	int *nother = calloc(nblocks, sizeof *nother);
	if (!nother)
		return -1;
	if (e->full_program) {
		draw_isas(e, p);
		for (int i = 0; i < p->nblocks; i++)
			nother[i] = (int)enc_below(&e->rng, 6);
		draw_terms(e, p);
	} else if (e->thumb_percent) {
		draw_blocks_mixed(e, p, nother);
	} else {
		draw_blocks_a32(e, p, nother);
	}
	p->size = lay_out(p, nother);
	p->code = calloc(1, p->size);
	if (!p->code) {
		free(nother);
		return -1;
	}
	for (int i = 0; i < p->nblocks; i++)
		write_block(e, p, i, nother[i]);
	for (int i = 0; i + 1 < p->nblocks; i++)
		if (p->block[i + 1].start != p->block[i].term_addr + (uint32_t)term_size(&p->block[i]))
			put16(p, p->block[i + 1].start - 2, 0x46c0u);   /* the padding: MOV r8, r8 */
	free(nother);
	/* the vector page (ARMv4T/ARMv5TE: reset +0x00, undefined +0x04, SVC +0x08, prefetch abort +0x0c,
	 * data abort +0x10, IRQ +0x18, FIQ +0x1c, ETM1-P17): each handler one
	 * MOV pc, Rm back to the interrupted instruction (a return as the model's indirect branch);
	 * BX Rm when the program has Thumb code (the return to Thumb state) */
	p->vector_base = e->cfg.hivecs ? 0xffff0000u : 0;
	if (!e->full_program) {
		vectors_a32(e, p);
		return 0;
	}
	for (int i = 0; i < 8; i++) {
		uint32_t ret = p->thumb ? 0xe12fff10u : 0xe1a0f000u;
		uint32_t w = i != 5 ? ret | enc_below(&e->rng, 13) : 0xe1a00000u;   /* +0x14: no exception */
		for (int k = 0; k < 4; k++)
			p->vectors[4 * i + k] = (uint8_t)(w >> (8 * k));
	}
	return 0;
}

/* The program's two regions into r: its code (handed over: p's code is NULL after) and a copy of
 * its vector page. r->nregions is 2, or 1 when the copy could not be allocated. */
void e1e_program_regions(struct e1e_program *p, struct tc_enc_result *r)
{
	r->region[0].base = p->base;
	r->region[0].bytes = p->code;
	r->region[0].len = p->size;
	r->nregions = 1;
	p->code = NULL;
	r->region[1].base = p->vector_base;
	r->region[1].bytes = malloc(sizeof p->vectors);
	r->region[1].len = sizeof p->vectors;
	if (r->region[1].bytes) {
		memcpy(r->region[1].bytes, p->vectors, sizeof p->vectors);
		r->nregions = 2;
	}
}

void e1e_program_free(struct e1e_program *p)
{
	free(p->code);
	free(p->block);
	memset(p, 0, sizeof *p);
}
