/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_writer.c — the ETE encoder's packet layer behind a public handle (tracecert/encoder_ete.h
 * tc_enc_packets_*): packets one at a time for a trace laid out by its caller. */
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

struct tc_enc_packets {
	struct enc e;
};

struct tc_enc_packets *tc_enc_packets_new(const struct tc_ete_config *cfg, uint64_t seed)
{
	struct tc_enc_packets *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	enc_rng_init(&w->e.rng, seed, NULL, 0);
	w->e.cfg = *cfg;
	w->e.variants = calloc((size_t)tc_enc_variant_count(), sizeof *w->e.variants);
	if (!w->e.variants) {
		free(w);
		return NULL;
	}
	return w;
}

void tc_enc_packets_free(struct tc_enc_packets *w)
{
	if (!w)
		return;
	free(w->e.trace.p);
	free(w->e.l1.p);
	free(w->e.l3.p);
	free(w->e.l3_tx.p);
	free(w->e.l3_tx_events.p);
	free(w->e.variants);
	free(w);
}

uint64_t tc_enc_packets_async(struct tc_enc_packets *w)
{
	uint64_t off = w->e.trace.len;
	enc_pkt_async(&w->e);
	return off;
}

uint64_t tc_enc_packets_trace_info(struct tc_enc_packets *w)
{
	uint64_t off = w->e.trace.len;
	enc_pkt_trace_info(&w->e, 0, 0, 0, 0);
	return off;
}

uint64_t tc_enc_packets_trace_on(struct tc_enc_packets *w)
{
	uint64_t off = w->e.trace.len;
	enc_pkt_trace_on(&w->e);
	return off;
}

uint64_t tc_enc_packets_context(struct tc_enc_packets *w, const struct tc_context *c)
{
	uint64_t off = w->e.trace.len;
	enc_pkt_context(&w->e, c);
	return off;
}

uint64_t tc_enc_packets_address(struct tc_enc_packets *w, uint64_t address, int isa)
{
	uint64_t off = w->e.trace.len;
	enc_pkt_address(&w->e, address, isa != 0);
	return off;
}

/* One pending atom is flushed at once: the only format of one atom is format 1. */
uint64_t tc_enc_packets_atom(struct tc_enc_packets *w, int taken)
{
	uint64_t off = w->e.trace.len;
	enc_atom(&w->e, taken, NULL);
	enc_flush_atoms(&w->e);
	return off;
}

const uint8_t *tc_enc_packets_trace(const struct tc_enc_packets *w, size_t *len)
{
	*len = w->e.trace.len;
	return (const uint8_t *)w->e.trace.p;
}

const char *tc_enc_packets_l1(const struct tc_enc_packets *w)
{
	return w->e.l1.p ? w->e.l1.p : "";
}
