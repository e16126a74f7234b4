/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_writer.c — the PTM encoder's packet layer behind a public handle (tracecert/encoder_ptm.h
 * tc_enc_ptm_packets_*): packets one at a time for a trace laid out by its caller. */
#include <stdlib.h>
#include <string.h>

#include "ptmenc_internal.h"

struct tc_enc_ptm_packets {
	struct pe e;
};

struct tc_enc_ptm_packets *tc_enc_ptm_packets_new(const struct tc_ptm_config *cfg, uint64_t seed)
{
	struct tc_enc_ptm_packets *w;
	if (!pe_config_valid(cfg) || cfg->cycle_accurate)
		return NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	enc_rng_init(&w->e.rng, seed, NULL, 0);
	w->e.cfg = *cfg;
	w->e.cfg.walk_limit = 0;
	w->e.variants = calloc((size_t)tc_enc_ptm_variant_count(), sizeof *w->e.variants);
	if (!w->e.variants) {
		free(w);
		return NULL;
	}
	return w;
}

void tc_enc_ptm_packets_free(struct tc_enc_ptm_packets *w)
{
	if (!w)
		return;
	free(w->e.trace.p);
	free(w->e.l1.p);
	free(w->e.l3.p);
	free(w->e.variants);
	free(w);
}

uint64_t tc_enc_ptm_packets_async(struct tc_enc_ptm_packets *w)
{
	return pe_pkt_async(&w->e);
}

uint64_t tc_enc_ptm_packets_isync(struct tc_enc_ptm_packets *w, uint32_t address, int isa, int reason)
{
	return pe_pkt_isync(&w->e, address, isa, reason, 0);
}

uint64_t tc_enc_ptm_packets_branch(struct tc_enc_ptm_packets *w, uint32_t address, int isa)
{
	return pe_pkt_branch(&w->e, address, isa, NULL, 0);
}

/* One held atom is written at once: an atom packet of one atom. */
uint64_t tc_enc_ptm_packets_atom(struct tc_enc_ptm_packets *w, int taken)
{
	uint64_t off = w->e.trace.len;
	struct tc_l3 none;   /* no L3 item: pe_atom copies 0 of them, from a valid address */
	memset(&none, 0, sizeof none);
	pe_atom(&w->e, taken, &none, 0, 0);
	pe_flush_atoms(&w->e);
	return off;
}

const uint8_t *tc_enc_ptm_packets_trace(const struct tc_enc_ptm_packets *w, size_t *len)
{
	*len = w->e.trace.len;
	return (const uint8_t *)w->e.trace.p;
}

const char *tc_enc_ptm_packets_l1(const struct tc_enc_ptm_packets *w)
{
	return w->e.l1.p ? w->e.l1.p : "";
}
