/* enc_entry.c — the ETE encoder's entry in the table of encoders (tracecert/encoder.h): what `tracecert gen --protocol ete` calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

/* Bytes copied into malloc'd memory (n may be 0); NULL when memory is short. */
static void *copy_bytes(const void *p, size_t n)
{
	void *q = malloc(n ? n : 1);
	if (q && n)
		memcpy(q, p, n);
	return q;
}

/* A string copied, NULL for NULL; *failed set when memory is short. */
static char *copy_text(const char *s, int *failed)
{
	char *q;
	if (!s)
		return NULL;
	q = copy_bytes(s, strlen(s) + 1);
	*failed |= q == NULL;
	return q;
}

int tc_enc_vector_result(const struct tc_enc_vector *v, struct tc_enc_result *r)
{
	int failed = 0;
	memset(r, 0, sizeof *r);
	r->protocol = "ete";
	r->cfg = copy_bytes(&v->cfg, sizeof v->cfg);
	failed |= r->cfg == NULL;
	for (int i = 0; i < v->nregions; i++) {
		r->region[i].base = v->region[i].base;
		r->region[i].len = v->region[i].len;
		r->region[i].bytes = copy_bytes(v->region[i].bytes, v->region[i].len);
		failed |= r->region[i].bytes == NULL;
		r->nregions = i + 1;
	}
	r->trace = copy_bytes(v->trace, v->trace_len);
	r->trace_len = v->trace_len;
	failed |= r->trace == NULL;
	r->l1 = copy_text(v->l1, &failed);
	r->l3 = v->error ? NULL : copy_text(v->l3, &failed);
	r->tags = copy_text(v->tags, &failed);
	r->error = copy_text(v->error, &failed);
	r->note = copy_text(v->note, &failed);
	r->variants = copy_bytes(v->variants, (size_t)tc_enc_variant_count() * sizeof *v->variants);
	failed |= r->variants == NULL;
	if (failed)
		tc_enc_result_free(r);
	return failed ? -1 : 0;
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
}

/* Hands v over as r (a copy; v is freed). */
static int finish(struct tc_enc_vector *v, struct tc_enc_result *r, char *err, size_t errlen)
{
	int rc = tc_enc_vector_result(v, r);
	tc_enc_vector_free(v);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	memset(r, 0, sizeof *r);
	options(rq, &o);
	if (tc_enc_generate(&o, &v, err, errlen))
		return -1;
	return finish(&v, r, err, errlen);
}

static int negative(const struct tc_enc_request *rq, int kind, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	memset(r, 0, sizeof *r);
	options(rq, &o);
	if (tc_enc_make_negative(&o, kind, &v, err, errlen))
		return -1;
	return finish(&v, r, err, errlen);
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
	.variants_file = "encoder/variants.txt",
	.default_steps = 60,
	.default_blocks = 32,
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
};
