/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_entry.c — the PTM encoder's entry in the table of encoders (tracecert/encoder.h): what `tracecert gen --protocol ptm` calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "ptmenc_internal.h"

/* Moves what v holds into r (v is left empty). */
static void move(struct tc_enc_ptm_vector *v, struct tc_enc_result *r)
{
	r->protocol = "ptm";
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
	struct tc_enc_ptm_options o;
	struct tc_enc_ptm_vector v;
	memset(r, 0, sizeof *r);
	tc_enc_ptm_options_default(&o);
	o.seed = rq->seed;
	o.random_config = rq->random_config || !rq->cfg;
	if (!o.random_config)
		o.cfg = *(const struct tc_ptm_config *)rq->cfg;
	o.steps = rq->steps;
	o.blocks = rq->blocks;
	o.entropy = rq->entropy;
	o.entropy_len = rq->entropy_len;
	if (tc_enc_ptm_generate(&o, &v, err, errlen))
		return -1;
	r->cfg = malloc(sizeof v.cfg);
	if (!r->cfg) {
		tc_enc_ptm_vector_free(&v);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(r->cfg, &v.cfg, sizeof v.cfg);
	move(&v, r);
	return 0;
}

/* Pieces start at an A-sync (at least five zeros, then 0x80), which the
 * encoder always follows with an I-sync. */
static size_t sync_points(const uint8_t *trace, size_t len, size_t *at, size_t max)
{
	return tc_enc_sync_points_zeros(trace, len, 5, at, max);
}

const struct tc_encoder tc_encoder_ptm = {
	.protocol = "ptm",
	.doc = "A random A32/T32 (and ThumbEE) program, an execution of it (conditional and\n"
	       "indirect waypoints, BL/BLX and the return stack, exceptions, ISA switches,\n"
	       "context changes, periodic I-syncs, branch broadcast), the PFT bytes chosen at\n"
	       "random among all valid encodings, and the ground truth at L1 and L3\n"
	       "(encoder/ptm/).\n",
	.variants_file = "encoder/ptm/variants.txt",
	.default_steps = 200,
	.default_blocks = 64,
	.select_candidates = 2000,
	.select_extra = 8,
	.generate = generate,
	.variant_count = tc_enc_ptm_variant_count,
	.variant_name = tc_enc_ptm_variant_name,
	.negative = NULL,
	.negative_doc = NULL,
	.negative_kinds = NULL,
	.nnegative_kinds = 0,
	.bench_config = "return_stack=1",
	.sync_points = sync_points,
	.from_exec = pe_from_exec,
	.exec_family = tc_exec_family_aarch32,
	.asm_open = pe_asm_open,
	.asm_write = pe_asm_write,
	.asm_close = pe_asm_close,
};
