/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_encoders.c — the table of encoders (tracecert/encoder.h) through its published interface: one encoder per protocol, its fields, determinism, fixed configurations, refusals, negative vectors, synchronisation points; the shared random source, variant lists and program queries (enc_common.h); TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/tap.h"   /* reference/test/tap.h */
#include "tracecert/encoder.h"
#include "tracecert/protocol.h"
#include "enc_common.h"   /* encoder/enc_common.h: what the encoders share */

/* One encoder per protocol of the build that has one (ENC_PROTOCOLS), in the
 * build's order: each names a protocol of the build after the previous one's. */
static void test_table(void)
{
	int n = 0, next = 0, np = 0;
	while (tc_encoders[n])
		n++;
	while (tc_protocols[np])
		np++;
	for (int i = 0; i < n; i++) {
		int at = next;
		while (at < np && strcmp(tc_encoders[i]->protocol, tc_protocols[at]->name))
			at++;
		ok(at < np, "encoder %d is protocol %s's, a protocol of the build after the previous encoder's", i,
		   tc_encoders[i]->protocol);
		next = at + 1;
	}
	ok(n > 0 && n <= np, "at most one encoder per protocol (%d encoders, %d protocols)", n, np);
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


/* ---- Synchronisation points (tc_enc_sync_points_zeros, tc_encoder.sync_points) ---- */

/* A buffer laid out by hand, with sequences of 5 zeros (the shortest
 * ETMv3/PTM A-sync) then 0x80 and near misses. */
static const uint8_t zeros_trace[] = {
	0, 0, 0, 0, 0, 0x80,          /* @0 5 zeros, 0x80: the point 0, which is always given, not again */
	0x84,                         /* @6 */
	0, 0, 0, 0, 0, 0x80,          /* @7 5 zeros, 0x80: a point at 7 */
	0x10,                         /* @13 */
	0, 0, 0, 0, 0x80,             /* @14 4 zeros, 0x80: too few */
	0x22,                         /* @19 */
	0, 0, 0, 0, 0, 0, 0, 0x80,    /* @20 7 zeros, 0x80: a point at its first zero, 20 */
	0x80,                         /* @28 0x80 after no zeros */
	0, 0, 0, 0, 0, 0x81,          /* @29 5 zeros, then not 0x80 */
	0, 0, 0, 0, 0                 /* @35 5 zeros at the end, no 0x80 */
};

static void test_sync_points_zeros(void)
{
	static const uint8_t late[] = { 0x84, 0, 0, 0, 0, 0, 0x80 };   /* @1 the first A-sync */
	size_t at[8];
	size_t n;
	n = tc_enc_sync_points_zeros(zeros_trace, sizeof zeros_trace, 5, at, 8);
	ok(n == 3 && at[0] == 0 && at[1] == 7 && at[2] == 20,
	   "sync points with 5 zeros: 0, 7, 20 (4 zeros, no 0x80, 0x81 after the zeros are none) (%zu: %zu %zu %zu)",
	   n, at[0], n > 1 ? at[1] : 0, n > 2 ? at[2] : 0);
	for (int i = 0; i < 8; i++)
		at[i] = 99;
	n = tc_enc_sync_points_zeros(zeros_trace, sizeof zeros_trace, 5, at, 2);
	ok(n == 3 && at[0] == 0 && at[1] == 7 && at[2] == 99,
	   "max 2: the first two written (0, 7), at[2] untouched, the count is all 3 (%zu)", n);
	at[0] = 99;
	n = tc_enc_sync_points_zeros(zeros_trace, sizeof zeros_trace, 5, at, 0);
	ok(n == 3 && at[0] == 99, "max 0: nothing written, the count is 3 (%zu)", n);
	n = tc_enc_sync_points_zeros(zeros_trace, sizeof zeros_trace, 6, at, 8);
	ok(n == 2 && at[0] == 0 && at[1] == 20, "with 6 zeros: only the 7-zero sequence at 20 besides 0 (%zu)", n);
	n = tc_enc_sync_points_zeros(zeros_trace, sizeof zeros_trace, 11, at, 8);
	ok(n == 1 && at[0] == 0, "with 11 zeros: none but 0 (%zu)", n);
	n = tc_enc_sync_points_zeros(late, sizeof late, 5, at, 8);
	ok(n == 2 && at[0] == 0 && at[1] == 1, "a trace whose sequence starts at 1: 0, then 1 (%zu)", n);
	n = tc_enc_sync_points_zeros(late, 0, 5, at, 8);
	ok(n == 1 && at[0] == 0, "an empty trace: 0 alone (%zu)", n);
}

struct piece_sink {
	const struct tc_protocol *p;
	unsigned long items, errors;
};

static void count_item(void *ctx, int level, const struct tc_item *item)
{
	struct piece_sink *s = ctx;
	s->items++;
	s->errors += s->p->item_error(level, item) != 0;
}

/* Decodes trace[from..len-1] at L1; the bytes skipped before synchronisation, or -1 when alloc fails. */
static long decode_piece(const struct tc_protocol *p, const void *cfg, const uint8_t *trace, size_t len, size_t from,
			 struct piece_sink *s)
{
	struct tc_sink sink = { s, tc_level_l1, count_item };
	void *d = p->alloc(cfg, &sink);
	long skipped;
	s->p = p;
	s->items = s->errors = 0;
	if (!d)
		return -1;
	p->feed(d, trace + from, len - from);
	p->finish(d);
	skipped = (long)p->skipped(d);
	p->free(d);
	return skipped;
}

/* Every point sync_points gives for a generated trace is where a
 * synchronisation sequence starts: ascending, inside the trace, a zero byte
 * whose run of zeros ends in 0x80, and the trace from there decodes with no
 * byte skipped and no error (a generated vector has none). */
static void test_sync_points(const struct tc_encoder *e)
{
	const struct tc_protocol *p = tc_protocol_find(e->protocol);
	struct tc_enc_request rq = request(7, NULL);
	struct tc_enc_result r;
	struct piece_sink s;
	char err[300] = "";
	size_t n, *at;
	int ordered = 1, shaped = 1, decodes = 1;
	if (!e->sync_points) {
		ok(1, "%s: no synchronisation points (its traces are not cut)", e->protocol);
		return;
	}
	rq.steps = 3000;
	rq.blocks = e->default_blocks;
	if (e->generate(&rq, &r, err, sizeof err) != 0) {
		ok(0, "%s: seed 7 with 3000 steps generates (%s)", e->protocol, err);
		return;
	}
	n = e->sync_points(r.trace, r.trace_len, NULL, 0);
	at = calloc(n, sizeof *at);
	if (!at || e->sync_points(r.trace, r.trace_len, at, n) != n)
		n = 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = at[k];
		ordered &= k == 0 ? i == 0 : i > at[k - 1];
		if (i >= r.trace_len) {
			ordered = 0;
			continue;
		}
		while (i < r.trace_len && r.trace[i] == 0)
			i++;
		shaped &= r.trace[at[k]] == 0 && i < r.trace_len && r.trace[i] == 0x80;
		if (decode_piece(p, r.cfg, r.trace, r.trace_len, at[k], &s) != 0 || s.errors || !s.items) {
			decodes = 0;
			note("  # the piece from @%zu: %lu items, %lu errors\n", at[k], s.items, s.errors);
		}
	}
	ok(n >= 1 && ordered && shaped, "%s: %zu points in %zu bytes, from 0 ascending, each zeros then 0x80", e->protocol, n,
	   r.trace_len);
	ok(n >= 1 && decodes, "%s: the trace from each point decodes, no byte skipped, no error", e->protocol);
	free(at);
	tc_enc_result_free(&r);
}

/* ---- The shared random source, variant lists, buffers (enc_common.h) ------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* An entropy byte perturbs its own draw only: XORed into that draw's input
 * (a bijection of it), not into the state (enc_common.h, common.c). */
static void test_rng(void)
{
	static const uint8_t zero[1] = { 0 }, two[2] = { 0x5a, 0x01 };
	struct enc_rng seed_only, r;
	uint64_t plain[4], first[256];
	int same = 1, distinct = 1, below = 1;
	enc_rng_init(&seed_only, 42, NULL, 0);
	for (int i = 0; i < 4; i++)
		plain[i] = enc_next(&seed_only);
	enc_rng_init(&r, 42, zero, 1);   /* byte 0: x ^ 0 is x */
	for (int i = 0; i < 4; i++)
		same &= enc_next(&r) == plain[i];
	enc_rng_init(&r, 42, NULL, 5);   /* no bytes, whatever the length */
	for (int i = 0; i < 4; i++)
		same &= enc_next(&r) == plain[i];
	ok(same, "entropy: a byte 0, or no bytes, gives the seed's own draws");
	enc_rng_init(&r, 42, two, sizeof two);
	ok(enc_next(&r) != plain[0] && enc_next(&r) != plain[1] && enc_next(&r) == plain[2] && enc_next(&r) == plain[3],
	   "entropy: two bytes change the first two draws, the third and fourth are the seed's");
	for (int b = 0; b < 256; b++) {
		uint8_t byte = (uint8_t)b;
		enc_rng_init(&r, 42, &byte, 1);
		first[b] = enc_next(&r);
	}
	qsort(first, 256, sizeof first[0], cmp_u64);
	for (int b = 1; b < 256; b++)
		distinct &= first[b] != first[b - 1];
	ok(distinct, "entropy: the 256 values of one byte give 256 distinct first draws");
	enc_rng_init(&r, 42, NULL, 0);
	below = enc_below(&r, 0) == 0 && enc_next(&r) == plain[0];   /* n 0 takes no draw */
	for (int i = 0; i < 200; i++)
		below &= enc_below(&r, 1) == 0 && enc_below(&r, 7) < 7 && !enc_chance(&r, 0) && enc_chance(&r, 100);
	ok(below, "enc_below(0) is 0 without a draw; below(1) 0, below(7) < 7; chance 0%% never, 100%% always");
}

static void test_variants_and_buffers(void)
{
	static const char *const names[] = { "a", "b.c", "d" };
	struct enc_buf b = { NULL, 0, 0 };
	int good;
	ok(enc_variant_find(names, 3, "a") == 0 && enc_variant_find(names, 3, "b.c") == 1 &&
	   enc_variant_find(names, 3, "d") == 2,
	   "enc_variant_find: each of 3 sorted names at its index");
	ok(enc_variant_find(names, 3, "0") == -1 && enc_variant_find(names, 3, "c") == -1 &&
	   enc_variant_find(names, 3, "z") == -1 && enc_variant_find(names, 0, "a") == -1,
	   "enc_variant_find: -1 before the first, between two, after the last, in an empty list");
	for (int i = 0; i < 500; i++)
		enc_buf_printf(&b, "%03d,", i);   /* 2000 bytes: beyond the first 1024 */
	enc_buf_put(&b, "end", 3);
	good = b.len == 2003 && b.p[2003] == '\0' && !strncmp(b.p, "000,001,", 8) && !strcmp(b.p + 1996, "499,end") &&
	       b.cap >= 2004;
	ok(good, "enc_buf: 500 printf and a put make 2003 bytes, NUL-terminated (%zu)", b.len);
	free(b.p);
}

/* ---- Programs (enc_common.h): the queries over a generated program ----------- */

static int regions_have(const struct enc_program *p, int a64)
{
	for (int k = 0; k < p->nregions; k++)
		if ((p->region[k].isa == enc_a64) == a64)
			return 1;
	return 0;
}

static void test_program_queries(int mix, const char *what)
{
	struct enc_program p;
	struct enc_rng r;
	int at = 1, containing = 1, between = 1, group0 = 1, group1 = 1;
	enc_rng_init(&r, 5, NULL, 0);
	if (enc_program_make(&p, &r, 64, mix) != 0) {
		ok(0, "%s: a program of 64 blocks", what);
		return;
	}
	for (int b = 0; b < p.nblocks; b++) {
		const struct enc_block *k = &p.block[b];
		at &= enc_block_at(&p, k->start) == b;
		containing &= enc_block_containing(&p, k->start) == b && enc_block_containing(&p, k->term_addr) == b;
		/* the terminator of a block with other instructions before it starts no block */
		between &= k->nother == 0 || enc_block_at(&p, k->term_addr) == -1;
	}
	at &= enc_block_at(&p, p.block[0].start - 2) == -1 && enc_block_at(&p, p.block[p.nblocks - 1].term_addr + 4) == -1;
	containing &= enc_block_containing(&p, p.block[0].start - 2) == -1 &&
		      enc_block_containing(&p, p.block[p.nblocks - 1].term_addr + 4) == -1;
	ok(at && containing && between, "%s: enc_block_at each block's start, -1 elsewhere; enc_block_containing", what);
	ok(enc_program_mixed(&p) == (regions_have(&p, 1) && regions_have(&p, 0)),
	   "%s: enc_program_mixed %d, as its regions' instruction sets", what, enc_program_mixed(&p));
	for (int i = 0; i < 100; i++) {
		int b0 = enc_random_block(&p, &r, 0), b1 = enc_random_block(&p, &r, 1);
		/* a group no region has: any block */
		group0 &= b0 >= 0 && b0 < p.nblocks && (!regions_have(&p, 1) || p.block[b0].isa == enc_a64);
		group1 &= b1 >= 0 && b1 < p.nblocks && (!regions_have(&p, 0) || p.block[b1].isa != enc_a64);
	}
	ok(group0 && group1, "%s: enc_random_block of each group is one of its blocks, or any block without one", what);
	enc_program_free(&p);
}

static void test_programs(void)
{
	struct enc_program p;
	struct enc_rng r;
	enc_rng_init(&r, 1, NULL, 0);
	ok(enc_program_make(&p, &r, 1, mix_a64) == -1 && enc_program_make(&p, &r, ENC_MAX_BLOCKS + 1, mix_a64) == -1,
	   "enc_program_make refuses 1 block and %d blocks", ENC_MAX_BLOCKS + 1);
	test_program_queries(mix_a64, "A64");
	test_program_queries(mix_aarch32, "AArch32");
	test_program_queries(mix_both, "both");
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
		test_sync_points(tc_encoders[i]);
	}
	test_sync_points_zeros();
	test_rng();
	test_variants_and_buffers();
	test_programs();
	tc_enc_result_free(NULL);   /* must return: a crash fails the run */
	return tap_finish();
}
