/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_program.c — the ETMv3 encoder's view of a random A32/T32 program: rewritten instructions, instruction facts. */
/* The program is the shared generator's (encoder/program.c). Here some A32
 * terminators are made conditional (BL, BX, BLX, LDM/LDR/MOV to PC: an N
 * atom on a branch), some A32 BX become BXJ (the way into Jazelle state,
 * ARM DDI 0406 A8.8.28) and some A32 STR become STREX (a store that may fail,
 * §7.4.7). The instruction words are the encoder's own: it reads back the
 * fields it needs (condition, data transfers) from what it wrote. */
#include <stdlib.h>

#include "e3enc_internal.h"

/* A32 terminators that become conditional here (the shared generator makes
 * them unconditional). */
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

static uint8_t *code_at(const struct enc_program *p, uint64_t at)
{
	for (int i = 0; i < p->nregions; i++)
		if (at >= p->region[i].base && at - p->region[i].base < p->region[i].size)
			return p->region[i].code + (at - p->region[i].base);
	return NULL;   /* never: every address asked for is an instruction's */
}

static uint32_t get32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void set32(uint8_t *b, uint32_t w)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(w >> (8 * i));
}

/* Rewrites the condition field (bits 31:28) of an A32 word at `at`. */
static void set_condition(struct enc_program *p, uint64_t at, unsigned cond)
{
	uint8_t *b = code_at(p, at);
	set32(b, (get32(b) & 0x0fffffffu) | cond << 28);
}

/* BX Rm (cond 0001 0010 1111 1111 1111 0001 Rm) becomes BXJ Rm (… 0010 Rm). */
static void make_bxj(struct enc_program *p, uint64_t at)
{
	uint8_t *b = code_at(p, at);
	set32(b, (get32(b) & 0xf000000fu) | 0x012fff20u);
}

/* STR Rt, [Rn, #imm] (cond 0101 1000 Rn Rt imm12) becomes STREX Rd, Rt, [Rn]
 * (cond 0001 1000 Rn Rd 1111 1001 Rt, A8.8.212), Rd neither Rt nor Rn. */
static void make_strex(struct e3e *e, uint64_t at)
{
	uint8_t *b = code_at(&e->prog, at);
	uint32_t w = get32(b), rn = w >> 16 & 0xf, rt = w >> 12 & 0xf, rd = enc_below(&e->rng, 13);
	while (rd == rn || rd == rt)
		rd = (rd + 1) % 13;
	set32(b, (w & 0xf0000000u) | 0x01800f90u | rn << 16 | rd << 12 | rt);
}

static void block_passes(struct e3e *e, int b)
{
	struct enc_program *p = &e->prog;
	const struct enc_block *k = &p->block[b];
	if (k->isa != enc_a32)
		return;
	for (uint64_t at = k->start; at < k->term_addr; at += 4)
		if ((get32(code_at(p, at)) & 0x0ff00000u) == 0x05800000u && enc_chance(&e->rng, 25))
			make_strex(e, at);
	if (e->use_jazelle && k->term == term_bx && enc_chance(&e->rng, 40)) {
		make_bxj(p, k->term_addr);
		e->bxj[b] = 1;
	}
	if (may_be_conditional(k->term) && enc_chance(&e->rng, 15)) {
		set_condition(p, k->term_addr, enc_below(&e->rng, 14));
		e->cond[b] = 1;
	}
}

int e3e_program_passes(struct e3e *e)
{
	struct enc_program *p = &e->prog;
	e->cond = calloc((size_t)p->nblocks, 1);
	e->bxj = calloc((size_t)p->nblocks, 1);
	if (!e->cond || !e->bxj)
		return -1;
	e->use_jazelle = !e->cfg.profile_m && !e->cfg.data_only && enc_chance(&e->rng, 35);
	for (int b = 0; b < p->nblocks; b++)
		block_passes(e, b);
	return 0;
}

static int popcount(uint32_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* The data transfers of an A32 word: LDR/STR (immediate), STREX, LDM SP!
 * (POP) and LDR to the PC, as encoder/program.c and the passes above write them. */
static void a32_facts(uint32_t w, struct e3e_insn *i)
{
	i->cond = (int)(w >> 28);
	if (i->cond == 15)
		i->cond = 14;   /* BLX (immediate): unconditional */
	if ((w & 0x0e000000u) == 0x04000000u) {
		i->transfers = 1;
		i->store = !(w & 0x00100000u);
	} else if ((w & 0x0ff00ff0u) == 0x01800f90u) {
		i->transfers = 1;
		i->store = i->strex = 1;
	} else if ((w & 0x0fff0000u) == 0x08bd0000u) {
		i->transfers = popcount(w & 0xffffu);
	}
}

/* The data transfers of T32 code: LDR/STR (immediate, 16-bit), POP,
 * LDR.W/STR.W (immediate) and LDR.W PC. */
static void t32_facts(const uint8_t *b, int size, struct e3e_insn *i)
{
	uint32_t hw1 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	i->cond = 14;
	if (size == 2 && (hw1 & 0xf000u) == 0x6000u) {
		i->transfers = 1;
		i->store = !(hw1 & 0x0800u);
	} else if (size == 2 && (hw1 & 0xfe00u) == 0xbc00u) {
		i->transfers = popcount(hw1 & 0x1ffu);
	} else if (size == 4 && (hw1 & 0xffe0u) == 0xf8c0u) {
		i->transfers = 1;
		i->store = !(hw1 & 0x0010u);
	}
}

void e3e_insn_at(const struct e3e *e, uint64_t at, struct e3e_insn *i)
{
	const struct enc_program *p = &e->prog;
	const uint8_t *b = code_at(p, at);
	i->at = at;
	i->size = enc_insn_size(p, at);
	i->block = enc_block_containing(p, at);
	i->term = i->block >= 0 && p->block[i->block].term_addr == at;
	i->t32 = enc_isa_at(p, at) == enc_t32;
	i->cond = 14;
	i->transfers = i->store = i->strex = 0;
	if (!b)
		return;
	if (i->t32)
		t32_facts(b, i->size, i);
	else
		a32_facts(get32(b), i);
}

int e3e_code_isa(const struct e3e *e, uint64_t a)
{
	return enc_isa_at(&e->prog, a) == enc_t32 ? tc_etmv3_isa_thumb : tc_etmv3_isa_arm;
}

uint32_t e3e_vis(uint64_t a)
{
	return (uint32_t)a;   /* AArch32 code across 2^32 goes on at 0 (enc_visible) */
}
