/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_program.c — the PTM encoder's view of a random A32/T32 program: conditions, instruction sets, waypoints. */
/* The program is the shared generator's (encoder/program.c); here some
 * A32 branches with link and indirect branches are made conditional. */
#include <stdlib.h>

#include "ptmenc_internal.h"

/* A32 terminators that become conditional here (the shared generator makes
 * them unconditional): a conditional waypoint that fails its condition is
 * an N atom, which does not push (BL) or pop (returns) the return stack. */
static int may_be_conditional(int term)
{
	switch (term) {
	case term_bl: case term_bx_lr: case term_bx: case term_blx_reg: case term_pop_pc:
	case term_ldr_pc: case term_mov_pc:
		return 1;
	default:
		return 0;
	}
}

/* Rewrites the condition field (bits 31:28, in the fourth byte of the
 * little-endian word) of the A32 terminator of block k to cond (0..13). */
static void set_condition(struct enc_program *p, const struct enc_block *k, unsigned cond)
{
	struct enc_region *g = &p->region[k->region];
	uint8_t *b = g->code + (k->term_addr - g->base) + 3;
	*b = (uint8_t)(cond << 4 | (*b & 0x0f));
}

int pe_program_conditions(struct pe *e)
{
	struct enc_program *p = &e->prog;
	e->cond = calloc((size_t)p->nblocks, 1);
	if (!e->cond)
		return -1;
	for (int b = 0; b < p->nblocks; b++) {
		const struct enc_block *k = &p->block[b];
		if (k->isa != enc_a32 || !may_be_conditional(k->term) || !enc_chance(&e->rng, 15))
			continue;
		set_condition(p, k, enc_below(&e->rng, 14));
		e->cond[b] = 1;
	}
	return 0;
}

int pe_isa_at(const struct pe *e, uint64_t a)
{
	return enc_isa_at(&e->prog, a) == enc_t32 ? tc_ptm_isa_thumb : tc_ptm_isa_arm;
}

uint32_t pe_vis(const struct pe *e, uint64_t a)
{
	(void)e;
	return (uint32_t)a;   /* AArch32 code across 2^32 goes on at 0 (enc_visible) */
}

int pe_next_waypoint(const struct pe *e, uint64_t a)
{
	const struct enc_program *p = &e->prog;
	int b = enc_block_containing(p, a);
	/* A region's last block ends in B, so the walk stops inside the region. */
	while (b >= 0 && b < p->nblocks && p->block[b].term == term_wfi)
		b++;
	return b < p->nblocks ? b : -1;
}

int pe_crosses(uint64_t a, uint64_t b)
{
	return a >> 32 != b >> 32;
}
