/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_program.c — a random ARMv4T/ARMv5TE A32 program of basic blocks for the ETMv1 encoder. */
/* Only encodings ARMv4T and ARMv5TE define (the cores ETMv1 traces: ETM7, ETM9, Table 1-1 L897-929):
 * data processing with an immediate (ADD, SUB, MOV, CMP; some conditional), MOV r0, r0, and the
 * terminators B, BL, B<cond>, BX Rm, MOV pc, Rm. The shared generator (encoder/program.c) writes
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

/* A load or store (ARM ARM A5.2, A5.3, A5.4 addressing modes with an immediate offset; Rd and Rn
 * below r13, never the PC): LDR, STR, LDRB, STRB, LDRH, STRH, LDRSB, LDRSH, LDMIA, STMIA. */
static uint32_t transfer(struct enc_rng *r, uint32_t cond)
{
	uint32_t rd = enc_below(r, 13), rn = enc_below(r, 13), imm = enc_below(r, 256);
	uint32_t misc = (imm >> 4) << 8 | (imm & 0xf);
	switch (enc_below(r, 10)) {
	case 0: return cond << 28 | 0x05900000u | rn << 16 | rd << 12 | imm;   /* LDR */
	case 1: return cond << 28 | 0x05800000u | rn << 16 | rd << 12 | imm;   /* STR */
	case 2: return cond << 28 | 0x05d00000u | rn << 16 | rd << 12 | imm;   /* LDRB */
	case 3: return cond << 28 | 0x05c00000u | rn << 16 | rd << 12 | imm;   /* STRB */
	case 4: return cond << 28 | 0x01d000b0u | rn << 16 | rd << 12 | misc;  /* LDRH */
	case 5: return cond << 28 | 0x01c000b0u | rn << 16 | rd << 12 | misc;  /* STRH */
	case 6: return cond << 28 | 0x01d000d0u | rn << 16 | rd << 12 | misc;  /* LDRSB */
	case 7: return cond << 28 | 0x01d000f0u | rn << 16 | rd << 12 | misc;  /* LDRSH */
	case 8: return cond << 28 | 0x08900000u | rn << 16 | (1 + enc_below(r, 0x1fff));   /* LDMIA */
	default: return cond << 28 | 0x08800000u | rn << 16 | (1 + enc_below(r, 0x1fff)); /* STMIA */
	}
}

/* The transfers of an instruction transfer() wrote: how many, of how many bytes each (Table 5-2
 * L8133-8135: 1, 2 or 4 bytes; n x 4 for LDM and STM); 0 for any other instruction. */
int e1e_transfers(uint32_t w, int *size)
{
	if ((w & 0x0e000000u) == 0x04000000u) {
		*size = w & (1u << 22) ? 1 : 4;
		return 1;
	}
	if ((w & 0x0e000090u) == 0x00000090u && (w & 0x60u)) {
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

/* An ordinary instruction (ARM ARM A5.1 data processing, immediate, or a load or store): never
 * writes the PC. */
static uint32_t other(struct enc_rng *r)
{
	uint32_t cond = enc_chance(r, 20) ? enc_below(r, 14) : 14;
	uint32_t rd = enc_below(r, 13), rn = enc_below(r, 13), imm = enc_below(r, 256);
	if (enc_chance(r, 35))
		return transfer(r, cond);
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
	default: return 0xe1a0f000u | enc_below(r, 13);   /* MOV pc, Rm */
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
	uint32_t at = p->base;
	int *nother = calloc(nblocks, sizeof *nother);
	if (!nother)
		return -1;
	for (int i = 0; i < p->nblocks; i++) {
		nother[i] = (int)enc_below(&e->rng, 6);
		p->block[i].start = at;
		p->block[i].term_addr = at + 4 * (uint32_t)nother[i];
		p->block[i].term = (int)enc_below(&e->rng, e1e_term_count);
		p->block[i].target = (int)enc_below(&e->rng, nblocks);
		at = p->block[i].term_addr + 4;
	}
	p->size = at - p->base;
	p->code = malloc(p->size);
	if (!p->code) {
		free(nother);
		return -1;
	}
	for (int i = 0; i < p->nblocks; i++) {
		struct e1e_block *k = &p->block[i];
		for (int j = 0; j < nother[i]; j++)
			put32(p, k->start + 4 * (uint32_t)j, other(&e->rng));
		put32(p, k->term_addr, terminator(&e->rng, k->term, k->term_addr, p->block[k->target].start));
	}
	free(nother);
	/* the vector page (ARMv4T/ARMv5TE: IRQ at +0x18, FIQ at +0x1c, ETM1-P17): each handler one
	 * MOV pc, Rm back to the interrupted instruction (a return as the model's indirect branch) */
	p->vector_base = e->cfg.hivecs ? 0xffff0000u : 0;
	for (int i = 0; i < 8; i++) {
		uint32_t w = i >= 6 ? 0xe1a0f000u | enc_below(&e->rng, 13) : 0xe1a00000u;
		for (int k = 0; k < 4; k++)
			p->vectors[4 * i + k] = (uint8_t)(w >> (8 * k));
	}
	return 0;
}

void e1e_program_free(struct e1e_program *p)
{
	free(p->code);
	free(p->block);
	memset(p, 0, sizeof *p);
}
