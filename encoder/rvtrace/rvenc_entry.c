/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_entry.c — the rvtrace encoder's entry: options, the configuration, generation, the variant
 * counters, and struct tc_encoder (tracecert/encoder.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "rvenc_internal.h"

extern const char *const enc_rvtrace_variant_names[];
extern const int enc_rvtrace_variant_total;

int rvenc_variant_count(void)
{
	return enc_rvtrace_variant_total;
}

const char *rvenc_variant_name(int i)
{
	return (i >= 0 && i < enc_rvtrace_variant_total) ? enc_rvtrace_variant_names[i] : NULL;
}

void rvenc_hit(struct rvenc_ctx *c, const char *fmt, ...)
{
	va_list ap;
	if (!c->variants)
		return;
	va_start(ap, fmt);
	enc_variant_hit(enc_rvtrace_variant_names, enc_rvtrace_variant_total, c->variants,
			"encoder/rvtrace/variants.txt", fmt, ap);
	va_end(ap);
}

void rvenc_options_default(struct rvenc_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->random_config = 1;
	tc_rvtrace_config_default(&o->cfg);
	o->steps = 300;
	o->blocks = 48;
}

/* A configuration from the seed: every key the encoder varies (CONFIG.md). */
static void random_config(struct enc_rng *r, struct tc_rvtrace_config *cfg)
{
	tc_rvtrace_config_default(cfg);
	cfg->rv32 = enc_chance(r, 50);
	cfg->iaddress_width_p = cfg->rv32 ? 32 : 64;
	cfg->c_ext = enc_chance(r, 70);
	cfg->iaddress_lsb_p = (int)enc_below(r, cfg->c_ext ? 2 : 3);
	cfg->context_width_p = 1 + (int)enc_below(r, 32);
	cfg->nocontext_p = enc_chance(r, 30);
	cfg->privilege_width_p = 2 + (int)enc_below(r, 3);
	cfg->ecause_width_p = 4 + (int)enc_below(r, 13);
	cfg->notval_p = enc_chance(r, 40);
	cfg->full_address = enc_chance(r, 20);
	cfg->diff_sign = enc_chance(r, 30);
	cfg->long_frames = cfg->rv32 ? enc_chance(r, 70) : 1;   /* RV64 sync exceptions need it (RV-F4) */
}

/* What the encoder models (reference/rvtrace/README.md "Encoder", ERRATA RV-E4): addresses of XLEN bits, packet
 * addresses no finer than the instruction alignment, privileges 0, 1 and 3, causes up to 11. */
static int config_refused(const struct tc_rvtrace_config *cfg, char *err, size_t errlen)
{
	if (!err)
		errlen = 0;
	if (tc_rvtrace_config_check(cfg, err, errlen))
		return -1;
	if (cfg->iaddress_width_p != (cfg->rv32 ? 32 : 64)) {
		snprintf(err, errlen, "the rvtrace encoder needs iaddress_width_p = XLEN");
		return -1;
	}
	if (cfg->iaddress_lsb_p > (cfg->c_ext ? 1 : 2) || cfg->privilege_width_p < 2 || cfg->ecause_width_p < 4) {
		snprintf(err, errlen, "the rvtrace encoder needs iaddress_lsb_p at most the instruction alignment, "
			 "privilege_width_p >= 2, ecause_width_p >= 4");
		return -1;
	}
	if (cfg->walk_limit != 0) {   /* the reference's own bound, which the encoder's walks do not keep */
		snprintf(err, errlen, "the rvtrace encoder needs walk_limit=0 (no bound below the default)");
		return -1;
	}
	if (!cfg->rv32 && !cfg->long_frames) {
		snprintf(err, errlen, "the rvtrace encoder needs long_frames=1 with rv32=0");
		return -1;
	}
	return 0;
}

static uint64_t program_base(struct enc_rng *r, int rv64)
{
	static const uint64_t b32[] = { 0x1000, 0x80000000, 0xfff00000, 0x20000000 };
	static const uint64_t b64[] = { 0x80000000, UINT64_C(0xffffffffff000000), UINT64_C(0x400000000000),
					 0x10000 };
	return rv64 ? b64[enc_below(r, 4)] : b32[enc_below(r, 4)];
}

static void tags(struct enc_buf *b, const struct tc_rvtrace_config *cfg, const struct rvenc_trace *t)
{
	enc_buf_printf(b, "%s %s%s%s%s", cfg->rv32 ? "rv32" : "rv64", cfg->c_ext ? "c" : "noc",
		       cfg->full_address ? " full-address" : "", cfg->diff_sign ? " diff-sign" : "",
		       t->extra ? " extra-packet" : "");
	enc_buf_put(b, "", 1);
}

static int build(struct rvenc_ctx *c, struct enc_rng *r, const struct rvenc_options *o, struct rvenc_vector *v,
		 struct rvenc_program *prog, struct rvenc_run *run, struct rvenc_trace *t)
{
	struct enc_buf bytes = { 0 }, l1 = { 0 }, l3 = { 0 }, tg = { 0 };
	int quiet = enc_chance(r, 25);
	if (quiet)
		c->resync_max = 500 + enc_below(r, 2000);
	if (rvenc_program_make(prog, r, o->blocks, !v->cfg.rv32, v->cfg.c_ext, program_base(r, !v->cfg.rv32), quiet) ||
	    rvenc_execute(prog, r, &v->cfg, o->steps, run) || rvenc_trace_encode(c, run, t) ||
	    rvenc_packets_write(c, t, &bytes, &l1))
		return -1;
	rvenc_l3_write(c, run, t, &l3);
	enc_buf_put(&l1, "", 1);
	enc_buf_put(&l3, "", 1);
	tags(&tg, &v->cfg, t);
	v->trace = (uint8_t *)bytes.p;
	v->trace_len = bytes.len;
	v->l1 = l1.p;
	v->l3 = l3.p;
	v->tags = tg.p;
	v->extra_packets = t->extra;
	for (size_t i = 0; i < run->n; i++)
		v->qualified += run->rec[i].qualified;
	v->region[0].base = prog->base;
	v->region[0].bytes = prog->code;
	v->region[0].len = (size_t)prog->size;
	v->nregions = 1;
	prog->code = NULL;
	rvenc_hit(c, "%s-%s", v->cfg.rv32 ? "rv32" : "rv64", v->cfg.c_ext ? "c" : "noc");
	return 0;
}

int rvenc_generate(const struct rvenc_options *o, struct rvenc_vector *v, char *err, size_t errlen)
{
	char dummy[8];
	struct enc_rng r;
	struct rvenc_ctx c;
	struct rvenc_program prog;
	struct rvenc_run run = { 0 };
	struct rvenc_trace t = { 0 };
	int rc;
	if (!err)
		err = dummy, errlen = sizeof dummy;
	memset(v, 0, sizeof *v);
	memset(&prog, 0, sizeof prog);
	if (!o || o->steps < 1 || o->steps > 100000 || o->blocks < 4 || o->blocks > 4096) {
		snprintf(err, errlen, "steps 1..100000 and blocks 4..4096");
		return -1;
	}
	enc_rng_init(&r, o->seed, o->entropy, o->entropy_len);
	if (o->random_config)
		random_config(&r, &v->cfg);
	else
		v->cfg = o->cfg;
	if (config_refused(&v->cfg, err, errlen))
		return -1;
	v->variants = calloc((size_t)rvenc_variant_count() + 1, sizeof *v->variants);
	c.cfg = &v->cfg;
	c.rng = &r;
	c.variants = v->variants;
	c.resync_max = 16 + enc_below(&r, 240);
	rc = v->variants ? build(&c, &r, o, v, &prog, &run, &t) : -1;
	rvenc_program_free(&prog);
	free(run.rec);
	rvenc_trace_free(&t);
	if (rc) {
		rvenc_vector_free(v);
		snprintf(err, errlen, "out of memory");
	}
	return rc;
}

void rvenc_vector_free(struct rvenc_vector *v)
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

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct rvenc_options o;
	struct rvenc_vector v;
	memset(r, 0, sizeof *r);
	rvenc_options_default(&o);
	o.seed = rq->seed;
	o.random_config = rq->random_config || !rq->cfg;
	if (!o.random_config)
		o.cfg = *(const struct tc_rvtrace_config *)rq->cfg;
	o.steps = rq->steps;
	o.blocks = rq->blocks;
	o.entropy = rq->entropy;
	o.entropy_len = rq->entropy_len;
	if (rvenc_generate(&o, &v, err, errlen))
		return -1;
	r->cfg = malloc(sizeof v.cfg);
	if (!r->cfg) {
		rvenc_vector_free(&v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(r->cfg, &v.cfg, sizeof v.cfg);
	r->protocol = "rvtrace";
	for (int i = 0; i < v.nregions; i++)
		r->region[i] = v.region[i];
	r->nregions = v.nregions;
	r->trace = v.trace;
	r->trace_len = v.trace_len;
	r->l1 = v.l1;
	r->l3 = v.l3;
	r->tags = v.tags;
	r->variants = v.variants;
	return 0;
}

static int rvenc_config_refused(const void *cfg, char *err, size_t errlen)
{
	return config_refused(cfg, err, errlen);
}

const struct tc_encoder tc_encoder_rvtrace = {
	.protocol = "rvtrace",
	.doc = "A random RV32/RV64 program with or without C (branches, jal, jalr with and without\n"
	       "an auipc before it, returns, ecall, faults and interrupts with their handler and mret,\n"
	       "privilege and context changes, qualification gaps), Figure 5.1 of RISC-V processor\n"
	       "trace 0.026 over its retired instructions, the frames and the truth at L1 and L3\n"
	       "(encoder/rvtrace/).\n",
	.variants_file = "encoder/rvtrace/variants.txt",
	.default_steps = 300,
	.default_blocks = 48,
	.select_candidates = 2000,
	.select_extra = 8,
	.generate = generate,
	.variant_count = rvenc_variant_count,
	.variant_name = rvenc_variant_name,
	.bench_config = "",
	.config_refused = rvenc_config_refused,
	.from_exec = rvenc_from_exec,
	.exec_family = tc_exec_family_rv64,
	.asm_open = rvenc_asm_open,
	.asm_write = rvenc_asm_write,
	.asm_close = rvenc_asm_close,
};
