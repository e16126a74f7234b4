/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_core.c — the PTM encoder's entry: options, configuration, generation, variant counters. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptmenc_internal.h"

/* ---- Variants: the names of encoder/ptm/variants.txt (embedded at build
 * time as enc_ptm_variant_names, sorted) ------------------------------------ */

extern const char *const enc_ptm_variant_names[];
extern const int enc_ptm_variant_total;

int tc_enc_ptm_variant_count(void)
{
	return enc_ptm_variant_total;
}

const char *tc_enc_ptm_variant_name(int i)
{
	return (i >= 0 && i < enc_ptm_variant_total) ? enc_ptm_variant_names[i] : NULL;
}

void pe_hit(struct pe *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enc_variant_hit(enc_ptm_variant_names, enc_ptm_variant_total, e->variants, "encoder/ptm/variants.txt", fmt, ap);
	va_end(ap);
}

/* ---- Configuration -------------------------------------------------------------- */

void tc_enc_ptm_options_default(struct tc_enc_ptm_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->random_config = 1;
	tc_ptm_config_default(&o->cfg);
	o->steps = 200;
	o->blocks = 64;
}

static void random_config(struct pe *e)
{
	static const int ctxid_sizes[4] = { 0, 1, 2, 4 };
	struct tc_ptm_config *c = &e->cfg;
	tc_ptm_config_default(c);
	c->version = enc_chance(&e->rng, 80);
	c->cycle_accurate = enc_chance(&e->rng, 40);
	c->branch_broadcast = enc_chance(&e->rng, 25);
	c->return_stack = enc_chance(&e->rng, 60);
	c->timestamps = enc_chance(&e->rng, 60);
	c->contextid_size = ctxid_sizes[enc_below(&e->rng, 4)];
	c->vmid = c->version >= 1 && enc_chance(&e->rng, 50);
	/* ETMCCER[29:28] (64-bit, natural binary timestamps) are drawn for
	 * PFTv1.1 only: whether a PFTv1.0 trace unit has them is in no text we
	 * hold (reference/ptm/ERRATA.md PTM-P1), and OpenCSD reads them only for
	 * PFTv1.1. Both draws are made whatever the version, so the random
	 * stream, and every PFTv1.1 vector, stays as it was. */
	int ts64 = enc_chance(&e->rng, 50), ts_binary = enc_chance(&e->rng, 50);
	c->ts64 = c->version >= 1 && ts64;
	c->ts_binary = c->version >= 1 && ts_binary;
}

static int flag(int v)
{
	return v == 0 || v == 1;
}

int pe_config_valid(const struct tc_ptm_config *c)
{
	int cs = c->contextid_size;
	return (c->version == 0 || c->version == 1) && flag(c->cycle_accurate) && flag(c->branch_broadcast) &&
	       flag(c->return_stack) && flag(c->timestamps) && (cs == 0 || cs == 1 || cs == 2 || cs == 4) &&
	       flag(c->vmid) && flag(c->ts64) && flag(c->ts_binary);
}

static void config_variants(struct pe *e)
{
	const struct tc_ptm_config *c = &e->cfg;
	pe_hit(e, "config-version-%d", c->version);
	pe_hit(e, "config-ca-%d", c->cycle_accurate);
	pe_hit(e, "config-bb-%d", c->branch_broadcast);
	pe_hit(e, "config-rs-%d", c->return_stack);
	pe_hit(e, "config-ctxid-%d", c->contextid_size);
}

/* ---- Generation -------------------------------------------------------------------- */

static void describe(struct pe *e, struct tc_enc_ptm_vector *v)
{
	const struct tc_ptm_config *c = &e->cfg;
	struct enc_buf t = { NULL, 0, 0 };
	int isa[2] = { 0, 0 };
	enc_buf_printf(&t, "gen pftv1.%d", c->version);
	if (c->cycle_accurate)
		enc_buf_printf(&t, " cycle-accurate");
	if (c->branch_broadcast)
		enc_buf_printf(&t, " branch-broadcast");
	if (c->return_stack)
		enc_buf_printf(&t, " return-stack");
	if (c->timestamps)
		enc_buf_printf(&t, " timestamps ts%d %s", c->ts64 ? 64 : 48, c->ts_binary ? "ts-binary" : "gray");
	if (c->vmid)
		enc_buf_printf(&t, " vmid");
	enc_buf_printf(&t, " ctxid-%d", c->contextid_size);
	for (int i = 0; i < e->prog.nregions; i++)
		isa[e->prog.region[i].isa == enc_t32] = 1;
	enc_buf_printf(&t, "%s%s regions-%d", isa[0] ? " a32" : "", isa[1] ? " t32" : "", v->nregions);
	if (v->nregions > e->prog.nregions)
		enc_buf_printf(&t, " wrap");
	v->tags = enc_buf_take(&t);
}

static void pe_free(struct pe *e)
{
	enc_program_free(&e->prog);
	free(e->cond);
	free(e->trace.p);
	free(e->l1.p);
	free(e->l3.p);
	free(e->variants);
	free(e);
}

/* The state before the run: all of the PTM's and a decoder's state zero
 * (PTM-P5), the program made. */
static struct pe *pe_new(const struct tc_enc_ptm_options *o)
{
	struct pe *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	enc_rng_init(&e->rng, o->seed, o->entropy, o->entropy_len);
	e->l1_record = o->l1_record;
	e->l1_ctx = o->l1_ctx;
	if (o->random_config)
		random_config(e);
	else
		e->cfg = o->cfg;
	e->cfg.walk_limit = 0;
	e->variants = calloc((size_t)tc_enc_ptm_variant_count(), sizeof *e->variants);
	if (!e->variants || enc_program_make(&e->prog, &e->rng, o->blocks, mix_aarch32) ||
	    pe_program_conditions(e)) {
		pe_free(e);
		return NULL;
	}
	return e;
}

static void take_result(struct pe *e, struct tc_enc_ptm_vector *v)
{
	v->cfg = e->cfg;
	v->nregions = enc_program_image(&e->prog, v->region);
	pe_hit(e, "regions-%d", v->nregions);
	describe(e, v);
	v->trace_len = e->trace.len;
	v->trace = (uint8_t *)enc_buf_take(&e->trace);
	v->l1 = enc_buf_take(&e->l1);
	v->l3 = enc_buf_take(&e->l3);
	v->variants = e->variants;
	e->variants = NULL;
}

/* A message for the caller (err may be NULL). */
static int fail(char *err, size_t errlen, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return -1;
}

int tc_enc_ptm_generate(const struct tc_enc_ptm_options *o, struct tc_enc_ptm_vector *v, char *err, size_t errlen)
{
	struct pe *e;
	if (!v)
		return fail(err, errlen, "no vector");
	memset(v, 0, sizeof *v);
	if (!o || o->steps < 1 || o->steps > 100000 || o->blocks < 4 || o->blocks > ENC_MAX_BLOCKS)
		return fail(err, errlen, "steps must be 1..100000 and blocks 4..4096");
	if (!o->random_config && !pe_config_valid(&o->cfg))
		return fail(err, errlen, "invalid PTM configuration (reference/ptm/CONFIG.md)");
	e = pe_new(o);
	if (!e)
		return fail(err, errlen, "out of memory");
	config_variants(e);
	pe_start(e);
	for (unsigned i = 0; i < o->steps; i++)
		pe_step(e);
	pe_finish(e);
	take_result(e, v);
	pe_free(e);
	return 0;
}

void tc_enc_ptm_vector_free(struct tc_enc_ptm_vector *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->nregions; i++)
		free(v->region[i].bytes);
	free(v->trace);
	free(v->l1);
	free(v->l3);
	free(v->tags);
	free(v->variants);
	memset(v, 0, sizeof *v);
}
