/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_entry.c — the ETE encoder's entry in the table of encoders (tracecert/encoder.h): what `tracecert gen --protocol ete` calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "enc_internal.h"

void tc_enc_vector_result(struct tc_enc_vector *v, struct tc_enc_result *r)
{
	memset(r, 0, sizeof *r);
	r->protocol = "ete";
	r->cfg = &v->cfg;
	for (int i = 0; i < v->nregions; i++)
		r->region[i] = v->region[i];
	r->nregions = v->nregions;
	r->trace = v->trace;
	r->trace_len = v->trace_len;
	r->l1 = v->l1;
	r->l3 = v->l3;                /* NULL for a negative vector */
	r->tags = v->tags;
	r->error = v->error;
	r->note = v->note;
	r->variants = v->variants;
}

static void options(const struct tc_enc_request *rq, struct tc_enc_options *o)
{
	tc_enc_options_default(o);
	o->seed = rq->seed;
	o->random_config = rq->random_config || !rq->cfg;
	if (!o->random_config)
		o->cfg = *(const struct tc_ete_config *)rq->cfg;
	o->steps = rq->steps;
	o->blocks = rq->blocks;
	o->entropy = rq->entropy;
	o->entropy_len = rq->entropy_len;
}

/* Hands what v holds over to r (v is left empty): r owns it now. */
static int move(struct tc_enc_vector *v, struct tc_enc_result *r, char *err, size_t errlen)
{
	void *cfg = malloc(sizeof v->cfg);
	if (!cfg) {
		tc_enc_vector_free(v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(cfg, &v->cfg, sizeof v->cfg);
	tc_enc_vector_result(v, r);
	r->cfg = cfg;
	memset(v, 0, sizeof *v);
	return 0;
}

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	memset(r, 0, sizeof *r);
	options(rq, &o);
	if (tc_enc_generate(&o, &v, err, errlen))
		return -1;
	return move(&v, r, err, errlen);
}

static int negative(const struct tc_enc_request *rq, int kind, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	memset(r, 0, sizeof *r);
	options(rq, &o);
	if (tc_enc_make_negative(&o, kind, &v, err, errlen))
		return -1;
	return move(&v, r, err, errlen);
}

/* Pieces start at an A-sync (at least eleven zeros, then 0x80),
 * which the encoder always follows with a Trace Info. */
static size_t sync_points(const uint8_t *trace, size_t len, size_t *at, size_t max)
{
	return tc_enc_sync_points_zeros(trace, len, 11, at, max);
}

/* Indexed by enum tc_enc_negative_kind. */
static const struct tc_enc_kind negative_kinds[tc_enc_neg_count] = {
	{ "any", "chosen by the seed (the default)" },
	{ "reserved-header", "a header replaced by a reserved one" },
	{ "truncated", "the stream cut inside a packet" },
	{ "sbz", "an SBZ bit set: long address payload bit 7,\n"
		 "context payload bit 2/3, Trace Info INFO<5:1>" },
	{ "reserved-extension", "a Discard/Overflow's 03/05 replaced, or 00 xx\n"
				"inserted between packets" },
	{ "bad-async", "an A-sync's 0x80 or one of its first ten zeros\n"
		       "replaced" },
	{ "exact-match-index", "a header replaced by 0x93, 0xA3 or 0xB3" },
};

const struct tc_encoder tc_encoder_ete = {
	.protocol = "ete",
	.doc = "A random program (A64, A32 and T32 code in one or more image regions), an\n"
	       "execution of it (interworking, AArch64 <-> AArch32 at exceptions and trace\n"
	       "gaps), the trace bytes chosen at random among all valid encodings, and the\n"
	       "ground truth at L1 and L3 (encoder/).\n",
	.variants_file = "encoder/ete/variants.txt",
	.default_steps = 60,
	.default_blocks = 32,
	.select_candidates = 3000,
	.select_extra = 24,
	.generate = generate,
	.variant_count = tc_enc_variant_count,
	.variant_name = tc_enc_variant_name,
	.negative = negative,
	.negative_doc = "the packets before the corrupted one, the error line, then (but for\n"
			"truncated) the packets from the next A-sync + Trace Info, where the\n"
			"decoder resynchronises. When the seed's vector has no A-sync after any\n"
			"place for the corruption, seeds derived from it are tried (the vector's\n"
			"comment names the encoder seed used).\n",
	.negative_kinds = negative_kinds,
	.nnegative_kinds = tc_enc_neg_count,
	.bench_config = "maxspec=8 retstack=1",
	.sync_points = sync_points,
	.from_exec = enc_ete_from_exec,
	.exec_family = tc_exec_family_a64,
	.asm_open = enc_asm_open,
	.asm_write = enc_asm_write,
	.asm_close = enc_asm_close,
};
