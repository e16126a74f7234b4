/* SPDX-License-Identifier: BSD-3-Clause */
/* roundtrip.c — fuzz harness (structure-aware) for any protocol with an encoder, through its descriptors: the input steers the encoder; the reference must decode exactly what it wrote.
 *
 * Built once per protocol that has an encoder and no round-trip harness of
 * its own (fuzz/P/roundtrip.c): fuzz.mk compiles it with TC_FUZZ_PROTOCOL
 * set to the protocol's name and TC_FUZZ_ENCODER to its encoder's
 * descriptor (harness P_roundtrip); it reaches the encoder only through
 * tracecert/encoder.h (struct tc_encoder: generate, variant_count,
 * variant_name) and the decoder only through tracecert/protocol.h (keys,
 * config_check, alloc/set_image/feed/finish, format).
 *
 * Property: for every encoder run the input chooses — configuration (fixed
 * from the key bytes, or the encoder's random one), seed, execution steps,
 * program blocks and, through tc_enc_request.entropy, every random choice
 * of the program, the execution and the encoding — the reference decoder,
 * fed the generated trace with the generated image, prints exactly the
 * encoder's ground truth (the comparison of encoder/test/roundtrip.c and
 * tests/roundtrip.t):
 *   1. its L1 lines equal the vector's L1 and its L3 lines the vector's L3,
 *      line for line, offsets included;
 *   2. fed whole and fed in the chunks the input chose;
 *   3. a fixed configuration is refused by the encoder exactly when the
 *      protocol's config_check refuses it;
 *   4. (flag bits 2:1 both set) the encoder is deterministic: a second run
 *      from the same request gives the same vector;
 * with no crash, leak or undefined behaviour in the encoder or the decoder.
 * A mismatch is a bug of the encoder's model or of the reference: the first
 * differing line of each side (and the one before) and the generated
 * vector's configuration, image regions and trace are printed before the
 * abort. The variants of the encoder's list (tc_encoder.variants_file) the
 * inputs reached are counted over the process (a report, not a property):
 * at exit, after at least one input, "P_roundtrip: variants reached K/N"
 * on stderr; with TC_FUZZ_VARIANTS=FILE the count of every variant is
 * written to FILE. Under libFuzzer each variant an input produces is also
 * a coverage feature (libFuzzer's extra counters): an input that produces
 * a variant no other did is kept in the corpus, although it takes no new
 * branch (most variants are values: an atom header, a packet length).
 *
 * Input: the configuration, one byte per key (fuzz.h tc_fuzz_proto_config),
 * used when flag bit 0 is clear; a flags byte: bit 0 the encoder chooses
 * the configuration (random_config), bits 2:1 both set the determinism
 * check; steps: b < 0xf0 → 1 + b % 32, else 40 + 4·(b & 0x0f) (40…100);
 * blocks: 4 + b % 61 (4…64); a chunking byte (tc_fuzz_chunks_init); the
 * seed (u32, little endian); the rest is the entropy, one byte per random
 * draw (tracecert/encoder.h). Without entropy the vector is the one the
 * seed alone gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/encoder.h"

#ifndef TC_FUZZ_PROTOCOL
#error "TC_FUZZ_PROTOCOL names the protocol (fuzz/fuzz.mk)"
#endif
#ifndef TC_FUZZ_ENCODER
#error "TC_FUZZ_ENCODER names the protocol's encoder descriptor (fuzz/fuzz.mk)"
#endif

#define HARNESS TC_FUZZ_PROTOCOL "_roundtrip"

extern const struct tc_encoder TC_FUZZ_ENCODER;

/* Variant hits over the whole process: a report only (the record buffers
 * of fuzz/stream.c are the precedent). */
static uint64_t *variant_hits;
static uint64_t inputs;

/* The variants of the current input, as libFuzzer's extra counters (a
 * section libFuzzer reads as coverage; elsewhere an ordinary array). */
#define VARIANT_FEATURES 1024
#if defined(__clang__) && defined(__linux__)
__attribute__((section("__libfuzzer_extra_counters")))
#endif
static uint8_t variant_feature[VARIANT_FEATURES];

/* One level compared with the encoder's truth as it is decoded. */
struct side {
	const char *level;        /* "L1" or "L3" */
	const char *want;         /* the truth: lines, each ending in '\n' */
	const char *at;           /* the next expected line */
	size_t n;                 /* lines decoded */
	long diff;                /* first differing line (0-based), -1 while equal */
	char got[TC_FUZZ_LINE];
	char expected[TC_FUZZ_LINE];
	char before[TC_FUZZ_LINE];
};

struct run {
	const struct tc_protocol *proto;
	struct side l1, l3;
};

/* What one input's checks need: the protocol, its encoder and the vector. */
struct subject {
	const struct tc_protocol *proto;
	const struct tc_encoder *enc;
	const struct tc_enc_result *v;
	const struct tc_image *img;
};

/* Copies the line at s (up to '\n') into buf; returns the start of the next. */
static const char *copy_line(const char *s, char *buf, size_t size)
{
	size_t n = strcspn(s, "\n");
	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), s);
	return s[n] ? s + n + 1 : s + n;
}

static void take(struct side *s, const char *line)
{
	char want[TC_FUZZ_LINE];
	if (s->diff < 0) {
		const char *next = copy_line(s->at, want, sizeof want);
		if (!*s->at || strcmp(want, line)) {
			s->diff = (long)s->n;
			snprintf(s->got, sizeof s->got, "%s", line);
			snprintf(s->expected, sizeof s->expected, "%s", *s->at ? want : "(end)");
		} else {
			snprintf(s->before, sizeof s->before, "%s", line);
			s->at = next;
		}
	}
	s->n++;
}

/* The decoder's sink: L1 and L3 items, formatted by the protocol. */
static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct run *r = ctx;
	char buf[TC_FUZZ_LINE];
	r->proto->format(buf, sizeof buf, level, item);
	take(level == tc_level_l1 ? &r->l1 : &r->l3, buf);
}

/* End of the decode: fewer lines than the truth is a difference too. */
static void close_side(struct side *s)
{
	if (s->diff < 0 && *s->at) {
		s->diff = (long)s->n;
		snprintf(s->got, sizeof s->got, "(end)");
		copy_line(s->at, s->expected, sizeof s->expected);
	}
}

static void init_side(struct side *s, const char *level, const char *want)
{
	memset(s, 0, sizeof *s);
	s->level = level;
	s->want = want;
	s->at = want;
	s->diff = -1;
}

/* The generated vector, for a human to turn into a regression vector. */
static void print_vector(const struct subject *t)
{
	const struct tc_enc_result *v = t->v;
	fprintf(stderr, "the generated vector (%s):\n  configuration:", v->tags);
	for (int k = 0; k < t->proto->nkeys; k++)
		fprintf(stderr, " %s=%llu", t->proto->keys[k].name,
			(unsigned long long)tc_config_get(t->proto, v->cfg, k));
	for (int i = 0; i < v->nregions; i++)
		fprintf(stderr, "\n  image region 0x%llx, %zu bytes", (unsigned long long)v->region[i].base,
			v->region[i].len);
	fprintf(stderr, "\n  trace (%zu bytes):", v->trace_len);
	for (size_t i = 0; i < v->trace_len; i++)
		fprintf(stderr, "%s%02x", i % 32 ? " " : "\n    ", v->trace[i]);
	fprintf(stderr, "\n");
}

static void verdict(const struct side *s, const char *how, const struct subject *t)
{
	if (s->diff < 0)
		return;
	fprintf(stderr, HARNESS ": %s fed %s differs at line %ld (%zu lines decoded)\n", s->level, how,
		s->diff + 1, s->n);
	fprintf(stderr, "  line before: %s\n  expected:    %s\n  decoded:     %s\n",
		s->diff > 0 ? s->before : "(start)", s->expected, s->got);
	print_vector(t);
	TC_FUZZ_CHECK(0, "%s (fed %s) line %ld: expected '%s', decoded '%s'", s->level, how, s->diff + 1, s->expected,
		      s->got);
}

/* Decodes the vector whole (chunk < 0) or in chunks and compares with its truth. */
static void check(const struct subject *t, int chunk)
{
	const struct tc_protocol *proto = t->proto;
	const struct tc_enc_result *v = t->v;
	struct run r;
	struct tc_sink sink = { &r, tc_level_l1 | tc_level_l3, on_item };
	char how[32];
	void *d;
	r.proto = proto;
	init_side(&r.l1, "L1", v->l1);
	init_side(&r.l3, "L3", v->l3);
	d = proto->alloc(v->cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "alloc refused the encoder's configuration");
	TC_FUZZ_CHECK(proto->set_image(d, t->img) == 0, "set_image");
	if (chunk < 0) {
		TC_FUZZ_CHECK(proto->feed(d, v->trace, v->trace_len) == 0, "feed");
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, (uint8_t)chunk);
		while (i < v->trace_len) {
			size_t n = tc_fuzz_chunk_next(&c, v->trace_len - i);
			TC_FUZZ_CHECK(proto->feed(d, v->trace + i, n) == 0, "feed");
			i += n;
		}
	}
	TC_FUZZ_CHECK(proto->finish(d) == 0, "finish");
	proto->free(d);
	close_side(&r.l1);
	close_side(&r.l3);
	if (chunk < 0)
		snprintf(how, sizeof how, "whole");
	else
		snprintf(how, sizeof how, "in chunks 0x%02x", (unsigned)chunk);
	verdict(&r.l1, how, t);
	verdict(&r.l3, how, t);
}

/* A second run from the same request must give the same vector. */
static void check_determinism(const struct subject *t, const struct tc_enc_request *rq)
{
	const struct tc_enc_result *v = t->v;
	struct tc_enc_result w;
	char err[256];
	int same;
	TC_FUZZ_CHECK(t->enc->generate(rq, &w, err, sizeof err) == 0, "second run: %s", err);
	same = !memcmp(v->cfg, w.cfg, t->proto->config_size) && v->nregions == w.nregions &&
	       v->trace_len == w.trace_len && !memcmp(v->trace, w.trace, v->trace_len) && !strcmp(v->l1, w.l1) &&
	       !strcmp(v->l3, w.l3) && !strcmp(v->tags, w.tags) &&
	       !memcmp(v->variants, w.variants, (size_t)t->enc->variant_count() * sizeof *v->variants);
	for (int i = 0; same && i < v->nregions; i++)
		same = v->region[i].base == w.region[i].base && v->region[i].len == w.region[i].len &&
		       !memcmp(v->region[i].bytes, w.region[i].bytes, v->region[i].len);
	TC_FUZZ_CHECK(same, "the encoder gave two different vectors for the same request");
	tc_enc_result_free(&w);
}

static unsigned steps(uint8_t b)
{
	return b < 0xf0 ? 1 + b % 32u : 40 + 4 * (b & 0x0fu);
}

static void count_variants(const struct tc_encoder *enc, const struct tc_enc_result *v)
{
	inputs++;
	for (int i = 0; variant_hits && i < enc->variant_count(); i++) {
		variant_hits[i] += v->variants[i];
		variant_feature[i] = v->variants[i] > 0;
	}
}

static void report_variants(void)
{
	const struct tc_encoder *enc = &TC_FUZZ_ENCODER;
	const char *path = getenv("TC_FUZZ_VARIANTS");
	int n = enc->variant_count(), reached = 0;
	FILE *f = path && *path ? fopen(path, "w") : NULL;
	if (!inputs || !variant_hits)
		return;
	for (int i = 0; i < n; i++) {
		reached += variant_hits[i] > 0;
		if (f)
			fprintf(f, "%llu %s\n", (unsigned long long)variant_hits[i], enc->variant_name(i));
	}
	if (f)
		fclose(f);
	fprintf(stderr, HARNESS ": variants reached %d/%d (%llu inputs)\n", reached, n, (unsigned long long)inputs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const struct tc_encoder *enc = &TC_FUZZ_ENCODER;
	(void)argc;
	(void)argv;
	if (strcmp(enc->protocol, TC_FUZZ_PROTOCOL) || !tc_protocol_find(TC_FUZZ_PROTOCOL)) {
		fprintf(stderr, HARNESS ": the encoder is %s's; protocol %s %s\n", enc->protocol, TC_FUZZ_PROTOCOL,
			tc_protocol_find(TC_FUZZ_PROTOCOL) ? "is in this build" : "is not in this build");
		return 1;
	}
	if (enc->variant_count() > VARIANT_FEATURES) {
		fprintf(stderr, HARNESS ": %d variants, room for %d features\n", enc->variant_count(),
			VARIANT_FEATURES);
		return 1;
	}
	variant_hits = calloc((size_t)enc->variant_count(), sizeof *variant_hits);
	atexit(report_variants);
	return 0;
}

/* The request of the input (its configuration into cfg); *chunk its chunking byte, *flags its flags. */
static void request(const struct tc_protocol *proto, const uint8_t *data, size_t size, void *cfg,
		    struct tc_enc_request *rq, uint8_t *flags, uint8_t *chunk)
{
	struct tc_fuzz_in in = { data, size };
	memset(rq, 0, sizeof *rq);
	tc_fuzz_proto_config(proto, &in, cfg);
	rq->cfg = cfg;
	*flags = tc_fuzz_u8(&in);
	rq->random_config = *flags & 1;
	rq->steps = steps(tc_fuzz_u8(&in));
	rq->blocks = 4 + tc_fuzz_u8(&in) % 61u;
	*chunk = tc_fuzz_u8(&in);
	rq->seed = tc_fuzz_u32(&in);
	rq->entropy = in.p;
	rq->entropy_len = in.n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	const struct tc_encoder *enc = &TC_FUZZ_ENCODER;
	struct tc_enc_request rq;
	struct tc_enc_result v;
	struct tc_image img;
	struct subject t = { proto, enc, &v, &img };
	char err[256];
	uint8_t flags, chunk;
	int rc, refused;
	void *cfg;
	if (size < (size_t)proto->nkeys + 8)
		return 0;
	cfg = malloc(proto->config_size);
	TC_FUZZ_CHECK(cfg != NULL, "out of memory");
	request(proto, data, size, cfg, &rq, &flags, &chunk);
	refused = !rq.random_config && (proto->config_check(cfg, NULL, 0) != 0 ||
					(enc->config_refused && enc->config_refused(cfg, NULL, 0) != 0));
	rc = enc->generate(&rq, &v, err, sizeof err);
	TC_FUZZ_CHECK((rc != 0) == refused, "the encoder returned %d (%s) for a configuration %s", rc, rc ? err : "-",
		      refused ? "config_check or the encoder's config_refused refuses" : "the decoder and the encoder accept");
	if (rc) {
		free(cfg);
		return 0;
	}
	TC_FUZZ_CHECK(v.l1 && v.l3 && v.cfg, "the encoder's vector lacks its L1 or L3 truth or its configuration");
	count_variants(enc, &v);
	if ((flags & 6) == 6)
		check_determinism(&t, &rq);
	free(cfg);
	memset(&img, 0, sizeof img);
	for (int i = 0; i < v.nregions; i++)
		TC_FUZZ_CHECK(tc_image_add(&img, v.region[i].base, v.region[i].bytes, v.region[i].len) == 0,
			      "the encoder's region %d (0x%llx, %zu bytes) does not fit the image", i,
			      (unsigned long long)v.region[i].base, v.region[i].len);
	check(&t, -1);
	check(&t, chunk);
	tc_image_free(&img);
	tc_enc_result_free(&v);
	return 0;
}
