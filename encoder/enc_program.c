/* enc_program.c — random A64 programs: basic blocks of ordinary instructions ending in every P0 type.
 * The instruction words are assembled here from the A64 encoding tables, independently of the
 * reference's classifier. */
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

#define A64_NOP 0xd503201fu
#define A64_ISB 0xd5033fdfu
#define A64_WFI 0xd503207fu
#define A64_ERET 0xd69f03e0u
#define A64_RETAA 0xd65f0bffu

/* An ordinary (non-P0) instruction: ADD/SUB immediate, LDR/STR, MOVZ, CMP, NOP. */
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
	default: return A64_NOP;
	}
}

static uint32_t field(int64_t offset_words, int bits)
{
	return (uint32_t)((uint64_t)offset_words & ((UINT64_C(1) << bits) - 1));
}

/* The terminator's word; direct branches encode the offset to `to`. */
static uint32_t a64_terminator(struct enc_rng *r, int term, uint64_t at, uint64_t to)
{
	int64_t words = (int64_t)(to - at) / 4;
	uint32_t rn = enc_below(r, 30), rm = enc_below(r, 30), cond = enc_below(r, 14);
	switch (term) {
	case term_b: return 0x14000000u | field(words, 26);
	case term_bl: return 0x94000000u | field(words, 26);
	case term_bcond: return 0x54000000u | field(words, 19) << 5 | cond;
	case term_cbz: return (enc_chance(r, 50) ? 0xb4000000u : 0xb5000000u) | field(words, 19) << 5 | rn;
	case term_tbz: return (enc_chance(r, 50) ? 0x36000000u : 0x37000000u) | enc_below(r, 32) << 19 |
			      field(words, 14) << 5 | rn;
	case term_br: return 0xd61f0000u | rn << 5;
	case term_blr: return 0xd63f0000u | rn << 5;
	case term_ret: return 0xd65f0000u | 30u << 5;
	case term_retaa: return A64_RETAA;
	case term_braa: return 0xd71f0800u | rn << 5 | rm;
	case term_blraa: return 0xd73f0800u | rn << 5 | rm;
	case term_eret: return A64_ERET;
	case term_isb: return A64_ISB;
	default: return A64_WFI;
	}
}

static int is_direct(int term)
{
	return term == term_b || term == term_bl || term == term_bcond || term == term_cbz || term == term_tbz;
}

/* Branch range in bytes for a direct terminator. */
static int64_t reach(int term)
{
	if (term == term_tbz)
		return (INT64_C(1) << 15) - 4;
	if (term == term_b || term == term_bl)
		return (INT64_C(1) << 27) - 4;
	return (INT64_C(1) << 20) - 4;
}

/* A target block within reach of the terminator (the next block at worst). */
static int pick_target(struct enc_program *p, struct enc_rng *r, int b)
{
	for (int tries = 0; tries < 16; tries++) {
		int t = (int)enc_below(r, (unsigned)p->nblocks);
		int64_t d = (int64_t)(p->block[t].start - p->block[b].term_addr);
		if (d <= reach(p->block[b].term) && -d <= reach(p->block[b].term))
			return t;
	}
	return b + 1 < p->nblocks ? b + 1 : b;
}

static void put_word(struct enc_program *p, uint64_t address, uint32_t w)
{
	uint8_t *at = p->code + (address - p->base);
	at[0] = (uint8_t)w;
	at[1] = (uint8_t)(w >> 8);
	at[2] = (uint8_t)(w >> 16);
	at[3] = (uint8_t)(w >> 24);
}

int enc_program_make(struct enc_program *p, struct enc_rng *r, unsigned nblocks, uint64_t base)
{
	uint64_t at = base;
	int chain = 0;   /* blocks left in a run of conditional blocks (runs of N atoms) */
	memset(p, 0, sizeof *p);
	if (nblocks < 2 || nblocks > ENC_MAX_BLOCKS)
		return -1;
	p->base = base;
	p->nblocks = (int)nblocks;
	for (int b = 0; b < p->nblocks; b++) {
		struct enc_block *k = &p->block[b];
		k->start = at;
		k->nother = (int)enc_below(r, 7);
		k->term = (int)enc_below(r, term_count);
		if (chain == 0 && enc_chance(r, 5))
			chain = 6 + (int)enc_below(r, 4);
		if (chain > 0) {
			static const int cond[3] = { term_bcond, term_cbz, term_tbz };
			k->term = cond[enc_below(r, 3)];
			chain--;
		}
		if (b == p->nblocks - 1)
			k->term = term_b;   /* the last block never falls through */
		k->term_addr = at + 4u * (unsigned)k->nother;
		at = k->term_addr + 4;
	}
	p->size = (size_t)(at - base);
	p->code = malloc(p->size);
	if (!p->code)
		return -1;
	for (int b = 0; b < p->nblocks; b++) {
		struct enc_block *k = &p->block[b];
		for (int i = 0; i < k->nother; i++)
			put_word(p, k->start + 4u * (unsigned)i, a64_other(r));
		k->target = is_direct(k->term) ? pick_target(p, r, b) : -1;
		if ((k->term == term_bcond || k->term == term_cbz || k->term == term_tbz) && enc_chance(r, 25))
			k->target = b;   /* a loop: the branch goes back to the block's own start */
		put_word(p, k->term_addr, a64_terminator(r, k->term, k->term_addr,
							  k->target >= 0 ? p->block[k->target].start : 0));
	}
	return 0;
}

void enc_program_free(struct enc_program *p)
{
	free(p->code);
	p->code = NULL;
}

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
