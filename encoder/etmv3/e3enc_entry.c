/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_entry.c — the ETMv3 encoder's entry in the table of encoders (tracecert/encoder.h): what `tracecert gen --protocol etmv3` calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "e3enc_internal.h"

/* Moves what v holds into r (v is left empty). */
static void move(struct tc_enc_etmv3_vector *v, struct tc_enc_result *r)
{
	r->protocol = "etmv3";
	for (int i = 0; i < v->nregions; i++)
		r->region[i] = v->region[i];
	r->nregions = v->nregions;
	r->trace = v->trace;
	r->trace_len = v->trace_len;
	r->l1 = v->l1;
	r->l3 = v->l3;
	r->tags = v->tags;
	r->variants = v->variants;
	memset(v, 0, sizeof *v);
}

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct tc_enc_etmv3_options o;
	struct tc_enc_etmv3_vector v;
	memset(r, 0, sizeof *r);
	tc_enc_etmv3_options_default(&o);
	o.seed = rq->seed;
	o.random_config = rq->random_config || !rq->cfg;
	if (!o.random_config)
		o.cfg = *(const struct tc_etmv3_config *)rq->cfg;
	o.steps = rq->steps;
	o.blocks = rq->blocks;
	o.entropy = rq->entropy;
	o.entropy_len = rq->entropy_len;
	if (tc_enc_etmv3_generate(&o, &v, err, errlen))
		return -1;
	r->cfg = malloc(sizeof v.cfg);
	if (!r->cfg) {
		tc_enc_etmv3_vector_free(&v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(r->cfg, &v.cfg, sizeof v.cfg);
	move(&v, r);
	return 0;
}

/* Pieces start at an A-sync (at least five zeros, then 0x80), which the
 * encoder follows with an I-sync but at the start of the trace. */
static size_t sync_points(const uint8_t *trace, size_t len, size_t *at, size_t max)
{
	return tc_enc_sync_points_zeros(trace, len, 5, at, max);
}

const struct tc_encoder tc_encoder_etmv3 = {
	.protocol = "etmv3",
	.doc = "A random A32/T32 program (T32 only for an ARMv7-M core), an execution of it\n"
	       "(conditional and indirect branches, BL/BLX interworking, conditional\n"
	       "instructions, exceptions with and without cancelled instructions and their\n"
	       "returns, ThumbEE and Jazelle states, context and security changes, periodic,\n"
	       "trace-on, overflow and LSiP I-syncs, data transfers when data trace is\n"
	       "configured), ETMv3.0..3.5 bytes chosen at random among all valid encodings\n"
	       "(both compression schemes, cycle-accurate P-headers), and the ground truth at\n"
	       "L1 and L3 (encoder/etmv3/).\n",
	.variants_file = "encoder/etmv3/variants.txt",
	.default_steps = 200,
	.default_blocks = 64,
	.select_candidates = 3000,
	.select_extra = 4,
	.generate = generate,
	.asm_open = e3e_asm_open,
	.asm_write = e3e_asm_write,
	.asm_close = e3e_asm_close,
	.variant_count = tc_enc_etmv3_variant_count,
	.variant_name = tc_enc_etmv3_variant_name,
	.negative = NULL,
	.negative_doc = NULL,
	.negative_kinds = NULL,
	.nnegative_kinds = 0,
	.bench_config = "contextid_size=4",
	.sync_points = sync_points,
	.from_exec = e3e_from_exec,
	.exec_family = tc_exec_family_aarch32,
};
