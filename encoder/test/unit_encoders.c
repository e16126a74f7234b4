/* unit_encoders.c — the table of encoders (tracecert/encoder.h) through its published interface: one encoder per protocol, its fields, determinism, fixed configurations, refusals, negative vectors; TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/tap.h"   /* reference/test/tap.h */
#include "tracecert/encoder.h"
#include "tracecert/protocol.h"

/* One encoder per protocol of the build, in the same order. */
static void test_table(void)
{
	int n = 0;
	while (tc_encoders[n])
		n++;
	for (int i = 0; i < n; i++)
		ok(tc_protocols[i] && !strcmp(tc_encoders[i]->protocol, tc_protocols[i]->name),
		   "encoder %d is protocol %s's, the build's protocol %d", i, tc_encoders[i]->protocol, i);
	ok(tc_protocols[n] == NULL, "as many encoders as protocols (%d)", n);
}

static int file_exists(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	return f != NULL;
}

/* The fields gen prints and relies on. */
static void test_fields(const struct tc_encoder *e)
{
	int nv = e->variant_count(), names = 1;
	for (int i = 0; i < nv; i++)
		names &= e->variant_name(i) != NULL && e->variant_name(i)[0] != '\0';
	ok(nv > 0 && names && !e->variant_name(nv) && !e->variant_name(-1),
	   "%s: %d variants, each named; none out of range", e->protocol, nv);
	ok(e->doc && e->doc[0] && e->doc[strlen(e->doc) - 1] == '\n' && file_exists(e->variants_file),
	   "%s: help text, and the variant list %s exists", e->protocol, e->variants_file);
	ok(e->default_steps >= 1 && e->default_steps <= 100000 && e->default_blocks >= 4 && e->default_blocks <= 4096,
	   "%s: default --steps %u and --blocks %u are in range", e->protocol, e->default_steps, e->default_blocks);
}

static struct tc_enc_request request(uint64_t seed, const void *cfg)
{
	struct tc_enc_request rq = { seed, cfg == NULL, cfg, 0, 0, NULL, 0 };
	return rq;
}

static int same_result(const struct tc_enc_result *a, const struct tc_enc_result *b)
{
	return a->trace_len == b->trace_len && !memcmp(a->trace, b->trace, a->trace_len) && !strcmp(a->l1, b->l1) &&
	       !strcmp(a->l3, b->l3) && !strcmp(a->tags, b->tags) && a->nregions == b->nregions;
}

/* The same request twice gives the same vector, a configuration its protocol takes. */
static void test_generate(const struct tc_encoder *e)
{
	const struct tc_protocol *p = tc_protocol_find(e->protocol);
	struct tc_enc_request rq = request(7, NULL);
	struct tc_enc_result a, b;
	char err[300] = "", why[300] = "";
	int rc;
	rq.steps = e->default_steps;
	rq.blocks = e->default_blocks;
	rc = e->generate(&rq, &a, err, sizeof err) | e->generate(&rq, &b, err, sizeof err);
	ok(rc == 0 && same_result(&a, &b), "%s: seed 7 twice gives the same vector (%s)", e->protocol, err);
	ok(rc == 0 && p && !strcmp(a.protocol, e->protocol) && p->config_check(a.cfg, why, sizeof why) == 0 &&
	   a.l3 && !a.error && a.trace_len > 0 && a.nregions > 0,
	   "%s: the result names its protocol, a configuration it takes (%s), a trace, an image, L3", e->protocol, why);
	rq.random_config = 0;   /* and cfg NULL: the seed chooses, as with random_config 1 */
	tc_enc_result_free(&b);
	rc = e->generate(&rq, &b, err, sizeof err);
	ok(rc == 0 && same_result(&a, &b), "%s: random_config 0 without a configuration is the seed's", e->protocol);
	tc_enc_result_free(&a);
	tc_enc_result_free(&b);
	ok(a.trace == NULL && a.cfg == NULL && a.nregions == 0, "%s: tc_enc_result_free empties the result", e->protocol);
}

/* The request's entropy reaches the encoder's draws (tracecert/encoder.h):
 * bytes 0 leave every draw as the seed makes it, so the vector is the
 * seed's; other bytes steer the draws, so the vector is another (checked
 * for seed 7 and 64 bytes 0x5a: a draw XORed with 0x5a that made no
 * difference to the program, the execution or the bytes in all of the first
 * 64 would leave the entropy unread as far as any caller can tell). */
static void test_entropy(const struct tc_encoder *e)
{
	static const uint8_t zeros[64];
	uint8_t bytes[64];
	struct tc_enc_request rq = request(7, NULL);
	struct tc_enc_result seed, a, b;
	char err[300] = "";
	int rc;
	memset(bytes, 0x5a, sizeof bytes);
	rq.steps = e->default_steps;
	rq.blocks = e->default_blocks;
	rc = e->generate(&rq, &seed, err, sizeof err);
	rq.entropy = zeros;
	rq.entropy_len = sizeof zeros;
	rc |= e->generate(&rq, &a, err, sizeof err);
	rq.entropy = bytes;
	rq.entropy_len = sizeof bytes;
	rc |= e->generate(&rq, &b, err, sizeof err);
	ok(rc == 0 && same_result(&seed, &a), "%s: entropy of bytes 0 gives the seed's vector (%s)", e->protocol, err);
	ok(rc == 0 && !same_result(&seed, &b), "%s: entropy of bytes 0x5a gives another vector", e->protocol);
	tc_enc_result_free(&seed);   /* a refused request leaves its result empty */
	tc_enc_result_free(&a);
	tc_enc_result_free(&b);
}

/* A fixed configuration (the protocol's defaults) is the vector's. */
static void test_fixed_config(const struct tc_encoder *e)
{
	const struct tc_protocol *p = tc_protocol_find(e->protocol);
	void *cfg = malloc(p->config_size);
	struct tc_enc_request rq;
	struct tc_enc_result r;
	char err[300] = "";
	int same = 1;
	tc_config_default(p, cfg);
	rq = request(11, cfg);
	rq.steps = 20;
	rq.blocks = 8;
	if (e->generate(&rq, &r, err, sizeof err) == 0) {
		for (int k = 0; k < p->nkeys; k++)
			same &= p->keys[k].need == tc_key_optional || tc_config_get(p, cfg, k) == tc_config_get(p, r.cfg, k);
		tc_enc_result_free(&r);
	} else {
		same = 0;
	}
	ok(same, "%s: a fixed configuration is the vector's, key by key (%s)", e->protocol, err);
	free(cfg);
}

/* Impossible requests are refused with a message and leave nothing to free. */
static void test_refusals(const struct tc_encoder *e)
{
	struct tc_enc_request rq = request(1, NULL);
	struct tc_enc_result r;
	char err[300] = "";
	rq.steps = 0;
	rq.blocks = 32;
	ok(e->generate(&rq, &r, err, sizeof err) == -1 && err[0] && r.trace == NULL,
	   "%s: --steps 0 is refused (%s)", e->protocol, err);
	err[0] = '\0';
	rq.steps = 10;
	rq.blocks = 3;
	ok(e->generate(&rq, &r, err, sizeof err) == -1 && err[0] && r.trace == NULL,
	   "%s: --blocks 3 is refused (%s)", e->protocol, err);
}

/* Negative vectors: kind 0 is "any"; each kind gives an [error] and no L3; a kind out of range is refused. */
static void test_negative(const struct tc_encoder *e)
{
	struct tc_enc_request rq = request(3, NULL);
	struct tc_enc_result r;
	char err[300] = "";
	int good = 1;
	if (!e->negative) {
		ok(e->negative_kinds == NULL && e->nnegative_kinds == 0 && e->negative_doc == NULL,
		   "%s: no negative vectors, and no kinds", e->protocol);
		return;
	}
	ok(e->nnegative_kinds > 1 && !strcmp(e->negative_kinds[0].name, "any") && e->negative_doc,
	   "%s: %d negative kinds, the first 'any'", e->protocol, e->nnegative_kinds);
	rq.steps = e->default_steps;
	rq.blocks = e->default_blocks;
	for (int k = 0; k < e->nnegative_kinds; k++) {
		if (e->negative(&rq, k, &r, err, sizeof err)) {
			good = 0;
			note("  # kind %s: %s\n", e->negative_kinds[k].name, err);
			continue;
		}
		good &= r.error != NULL && r.l3 == NULL && r.note != NULL;
		tc_enc_result_free(&r);
	}
	ok(good, "%s: every kind gives a vector with [error] lines, a note and no L3", e->protocol);
	err[0] = '\0';
	ok(e->negative(&rq, e->nnegative_kinds, &r, err, sizeof err) == -1 && err[0],
	   "%s: a kind out of range is refused (%s)", e->protocol, err);
}

int main(void)
{
	test_table();
	for (int i = 0; tc_encoders[i]; i++) {
		test_fields(tc_encoders[i]);
		test_generate(tc_encoders[i]);
		test_entropy(tc_encoders[i]);
		test_fixed_config(tc_encoders[i]);
		test_refusals(tc_encoders[i]);
		test_negative(tc_encoders[i]);
	}
	tc_enc_result_free(NULL);   /* must return: a crash fails the run */
	return tap_finish();
}
