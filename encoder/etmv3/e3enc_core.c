/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_core.c — the ETMv3 encoder's entry: options, configuration, generation, variant counters. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e3enc_internal.h"

/* ---- Variants: the names of encoder/etmv3/variants.txt (embedded at build
 * time as enc_etmv3_variant_names, sorted) ------------------------------------ */

extern const char *const enc_etmv3_variant_names[];
extern const int enc_etmv3_variant_total;

int tc_enc_etmv3_variant_count(void)
{
	return enc_etmv3_variant_total;
}

const char *tc_enc_etmv3_variant_name(int i)
{
	return (i >= 0 && i < enc_etmv3_variant_total) ? enc_etmv3_variant_names[i] : NULL;
}

void e3e_hit(struct e3e *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enc_variant_hit(enc_etmv3_variant_names, enc_etmv3_variant_total, e->variants, "encoder/etmv3/variants.txt",
			fmt, ap);
	va_end(ap);
}

int e3e_length(struct e3e *e, int min, int max)
{
	if (min >= max || enc_chance(&e->rng, 75))
		return min;
	return min + 1 + (int)enc_below(&e->rng, (unsigned)(max - min));
}

/* ---- Configuration -------------------------------------------------------------- */

void tc_enc_etmv3_options_default(struct tc_enc_etmv3_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->random_config = 1;
	tc_etmv3_config_default(&o->cfg);
	o->steps = 200;
	o->blocks = 64;
}

/* The data tracing a macrocell provides: none, addresses, values or both
 * (every feature set of Table 7-20); data-only mode only with the full set
 * (Table 7-20 note), from ETMv3.1 (ETMCR[20]), and then no cycle-accurate
 * tracing (data-only mode never outputs the Cycle count packets a
 * Non-periodic I-sync needs in cycle-accurate mode, §7.3.4, §7.4.10). */
static void random_data_trace(struct e3e *e)
{
	struct tc_etmv3_config *c = &e->cfg;
	unsigned r = enc_below(&e->rng, 4);
	int only = enc_chance(&e->rng, 30);
	c->data_address = r == 1 || r == 3;
	c->data_value = r == 2 || r == 3;
	c->data_only = c->version >= 1 && r == 3 && only;
	if (c->data_only)
		c->cycle_accurate = 0;
}

/* Every field drawn whatever the version, then kept only where the version
 * has it (ETM3-P1: alt_branch from ETMv3.4, thumb2_one (ETMIDR[18]) from
 * ETMv3.2, timestamps, VMID and ETMCCER[29:28] from ETMv3.5). An ARMv7-M core
 * (ETMv3.4 and later here: the extended exception packets of §7.5) has no
 * context ID and no virtualization. */
static void random_config(struct e3e *e)
{
	static const int ctxid_sizes[4] = { 0, 1, 2, 4 };
	struct tc_etmv3_config *c = &e->cfg;
	int m, alt, one, ts, vmid, ts64, bin;
	tc_etmv3_config_default(c);
	c->version = (int)enc_below(&e->rng, 6);
	m = enc_chance(&e->rng, 35);
	c->profile_m = c->version >= 4 && m;
	c->cycle_accurate = enc_chance(&e->rng, 40);
	c->contextid_size = ctxid_sizes[enc_below(&e->rng, 4)];
	if (c->profile_m)
		c->contextid_size = 0;
	c->branch_output = enc_chance(&e->rng, 25);
	alt = enc_chance(&e->rng, 50);
	one = enc_chance(&e->rng, 65);
	ts = enc_chance(&e->rng, 65);
	vmid = enc_chance(&e->rng, 50);
	ts64 = enc_chance(&e->rng, 50);
	bin = enc_chance(&e->rng, 50);
	c->alt_branch = c->version >= 4 && alt;
	c->thumb2_one = c->version >= 2 ? one : 1;
	c->timestamps = c->version >= 5 && ts;
	c->vmid = c->version >= 5 && !c->profile_m && vmid;
	c->ts64 = c->version >= 5 && ts64;
	c->ts_binary = c->version >= 5 ? bin : 1;
	random_data_trace(e);
}

static int flag(int v)
{
	return v == 0 || v == 1;
}

/* The combinations reference/etmv3/ERRATA.md ETM3-P1 allows. */
static int config_valid(const struct tc_etmv3_config *c)
{
	int cs = c->contextid_size;
	if (c->version < 0 || c->version > 5 || !(cs == 0 || cs == 1 || cs == 2 || cs == 4))
		return 0;
	if (!flag(c->cycle_accurate) || !flag(c->data_address) || !flag(c->data_value) || !flag(c->data_only) ||
	    !flag(c->branch_output) || !flag(c->alt_branch) || !flag(c->thumb2_one) || !flag(c->profile_m) ||
	    !flag(c->timestamps) || !flag(c->vmid) || !flag(c->ts64) || !flag(c->ts_binary))
		return 0;
	return !(c->data_only && c->version < 1) && !(c->alt_branch && c->version < 4) &&
	       !((c->timestamps || c->vmid) && c->version < 5);
}

static void config_variants(struct e3e *e)
{
	const struct tc_etmv3_config *c = &e->cfg;
	static const char *const data[4] = { "none", "addr", "value", "both" };
	e3e_hit(e, "config-version-%d", c->version);
	e3e_hit(e, "config-ca-%d", c->cycle_accurate);
	e3e_hit(e, "config-ctxid-%d", c->contextid_size);
	e3e_hit(e, "config-bo-%d", c->branch_output);
	e3e_hit(e, "config-data-%s", data[c->data_address | c->data_value << 1]);
	if (c->version >= 4)
		e3e_hit(e, "config-alt-%d", c->alt_branch);
	if (c->version >= 2)
		e3e_hit(e, "config-thumb2-one-%d", c->thumb2_one);
	if (c->profile_m)
		e3e_hit(e, "config-profile-m");
	if (c->data_only)
		e3e_hit(e, "config-data-only");
	if (c->timestamps)
		e3e_hit(e, "config-ts-%s-%d", c->ts_binary ? "bin" : "gray", c->ts64 ? 64 : 48);
	if (c->vmid)
		e3e_hit(e, "config-vmid");
}

/* ---- Generation -------------------------------------------------------------------- */

static void describe(struct e3e *e, struct tc_enc_etmv3_vector *v)
{
	const struct tc_etmv3_config *c = &e->cfg;
	struct enc_buf t = { NULL, 0, 0 };
	int isa[2] = { 0, 0 };
	enc_buf_printf(&t, "gen etmv3.%d", c->version);
	if (c->cycle_accurate)
		enc_buf_printf(&t, " cycle-accurate");
	if (c->branch_output)
		enc_buf_printf(&t, " branch-output");
	if (c->alt_branch)
		enc_buf_printf(&t, " alt-branch");
	if (!c->thumb2_one)
		enc_buf_printf(&t, " thumb2-two");
	if (c->profile_m)
		enc_buf_printf(&t, " profile-m");
	if (c->data_address || c->data_value)
		enc_buf_printf(&t, " data-trace");
	if (c->data_only)
		enc_buf_printf(&t, " data-only");
	if (c->data_address || c->data_value || c->data_only)
		enc_buf_printf(&t, " data-l3");   /* the vector has an [expect.l3] */
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
	if (e->traced_isa[tc_etmv3_isa_thumbee])
		enc_buf_printf(&t, " thumbee-l3");
	if (e->traced_isa[tc_etmv3_isa_jazelle])
		enc_buf_printf(&t, " jazelle-l3");
	v->tags = enc_buf_take(&t);
}

static void e3e_free(struct e3e *e)
{
	enc_program_free(&e->prog);
	free(e->cond);
	free(e->bxj);
	free(e->trace.p);
	free(e->l1.p);
	free(e->l3.p);
	free(e->variants);
	free(e);
}

/* The state before the run: the trace unit's and a decoder's state all zero
 * (ETM3-P5), the program made: T32 only for an ARMv7-M core. */
static struct e3e *e3e_new(const struct tc_enc_etmv3_options *o)
{
	struct e3e *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	enc_rng_init(&e->rng, o->seed, o->entropy, o->entropy_len);
	e->l1_record = o->l1_record;
	e->l1_ctx = o->l1_ctx;
	if (o->random_config)
		random_config(e);
	else
		e->cfg = o->cfg;
	e->variants = calloc((size_t)tc_enc_etmv3_variant_count(), sizeof *e->variants);
	if (!e->variants || enc_program_make(&e->prog, &e->rng, o->blocks, e->cfg.profile_m ? mix_t32 : mix_aarch32) ||
	    e3e_program_passes(e)) {
		e3e_free(e);
		return NULL;
	}
	return e;
}

static void take_result(struct e3e *e, struct tc_enc_etmv3_vector *v)
{
	v->cfg = e->cfg;
	v->nregions = enc_program_image(&e->prog, v->region);
	e3e_hit(e, "regions-%d", v->nregions);
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

int tc_enc_etmv3_generate(const struct tc_enc_etmv3_options *o, struct tc_enc_etmv3_vector *v, char *err,
			  size_t errlen)
{
	struct e3e *e;
	if (!v)
		return fail(err, errlen, "no vector");
	memset(v, 0, sizeof *v);
	if (!o || o->steps < 1 || o->steps > 100000 || o->blocks < 4 || o->blocks > ENC_MAX_BLOCKS)
		return fail(err, errlen, "steps must be 1..100000 and blocks 4..4096");
	if (!o->random_config && !config_valid(&o->cfg))
		return fail(err, errlen, "invalid ETMv3 configuration (reference/etmv3/CONFIG.md)");
	e = e3e_new(o);
	if (!e)
		return fail(err, errlen, "out of memory");
	config_variants(e);
	e3e_start(e);
	for (unsigned i = 0; i < o->steps; i++)
		e3e_step(e);
	e3e_finish(e);
	take_result(e, v);
	e3e_free(e);
	return 0;
}

void tc_enc_etmv3_vector_free(struct tc_enc_etmv3_vector *v)
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
