/* SPDX-License-Identifier: BSD-3-Clause */
/* roundtrip.c — fuzz harness (structure-aware): the input steers the random encoder; the reference must decode what it wrote.
 *
 * Property: for every encoder run the input chooses — seed, execution
 * steps, program blocks, configuration and, through tc_enc_options.entropy,
 * every random choice of the program, the execution and the encoding — the
 * reference decoder, fed the generated trace with the generated program
 * image, reproduces the encoder's ground truth exactly:
 *   1. its L1 lines equal the vector's expected L1 and its L3 lines the
 *      expected L3 — the comparison of `make roundtrip`
 *      (encoder/test/roundtrip.c): expected text normalised as vector files
 *      are (tc_lines_add_text), offsets included, so the normalised L3 of
 *      conformance/l3norm.c agrees too;
 *   2. fed whole and fed in the chunks the input chose;
 *   3. (flag bits 2:1 both set) the encoder is deterministic: a second run
 *      from the same options gives the same vector, byte for byte
 *      (vectors/ete/gen and `make vectors-check` depend on it);
 * with no crash, leak or undefined behaviour in the encoder or the decoder.
 * A mismatch is a bug in the encoder's model or in the reference: the first
 * differing line of each side (and the line before) is printed, with
 * whether L3 agrees after normalisation, before the abort; with
 * TC_FUZZ_TCV=FILE in the environment the generated vector is written to
 * FILE as .tcv text (the start of a regression vector).
 *
 * Input: bytes 0–2 the configuration (fuzz_ete.h tc_fuzz_ete_config), used when
 * flag bit 0 is clear, but for the queue capacities (below); byte 3 flags:
 * bit 0 the encoder chooses the configuration (random_config), bits 2:1
 * both set the determinism check (one input in four: it runs the encoder
 * twice); byte 4 steps: b < 0xf0 → 1 + b % 32, else 40 + 4·(b & 0x0f)
 * (40…100); byte 5 blocks: 4 + b % 61 (4…64); byte 6 chunking
 * (tc_fuzz_chunks_init); bytes 7–10 the seed (u32, little endian); the rest
 * is the entropy, one byte per random draw (tracecert/encoder_ete.h). With no
 * entropy the vector is exactly `tracecert gen --seed SEED --steps S
 * --blocks B` (plus a `--config` per field of bytes 0–2 when flag bit 0 is
 * clear).
 *
 * Work per input: short runs are the common case (1–32 steps: an exec
 * costs about 0.4 ms plus 16 µs a step with ASan+UBSan and coverage, the
 * 0.4 ms mostly allocation — two decoders and their queues; stage 3's
 * instruction cache is sized to the image, 64–1024 slots here); longer ones (up to 100 steps of a 64-block program,
 * about 1500 draws) stay reachable. Queue capacities: automatic (the
 * encoder models no queue-overflow, ERRATA TC-P18), lowered to 64 elements
 * per packet of the expected L1 (tc_fuzz_ete_fit_caps_packets) instead of
 * allocating megabytes per decoder. That cannot turn a correct decode into
 * a queue-overflow: up to the first L1 line that differs from the truth the
 * reference has parsed at most as many packets as the truth holds, of at
 * most 64 elements each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_ete.h"
#include "tracecert/encoder_ete.h"
#include "vector.h"

#define HDR (TC_FUZZ_ETE_CFG_BYTES + 8)

/* One level being compared with the encoder's truth as it is decoded. */
struct side {
	const char *level;              /* "L1" or "L3" */
	const struct tc_lines *want;    /* the truth, normalised */
	size_t n;                       /* lines decoded */
	long diff;                      /* first differing line, -1 while equal */
	char got[TC_FUZZ_LINE];         /* the decoded line there */
	char before[TC_FUZZ_LINE];      /* the decoded line before it */
};

struct run {
	struct side l1, l3;
};

/* Takes one decoded line; remembers the first that differs. */
static void take(struct side *s, const char *line)
{
	if (s->diff < 0) {
		if (s->n >= s->want->n || strcmp(s->want->line[s->n], line)) {
			s->diff = (long)s->n;
			snprintf(s->got, sizeof s->got, "%s", line);
		} else {
			snprintf(s->before, sizeof s->before, "%s", line);
		}
	}
	s->n++;
}

static void on_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct run *r = ctx;
	char buf[TC_FUZZ_LINE];
	tc_ete_format_packet(buf, sizeof buf, p);
	take(&r->l1, buf);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct run *r = ctx;
	char buf[TC_FUZZ_LINE];
	tc_ete_format_l3(buf, sizeof buf, x);
	take(&r->l3, buf);
}

/* End of the decode: fewer lines than the truth is a difference too. */
static void close_side(struct side *s)
{
	if (s->diff < 0 && s->n != s->want->n) {
		s->diff = (long)s->n;
		snprintf(s->got, sizeof s->got, "(end)");
	}
}

/* Decodes v's trace with the reference, whole (chunk < 0) or in the chunks
 * of tc_fuzz_chunks_init(chunk), comparing as it goes. */
static void decode(const struct tc_ete_config *cfg, const struct tc_image *img, const struct tc_enc_vector *v,
		   int chunk, struct run *r)
{
	struct tc_ete_sink sink = { r, on_packet, NULL, NULL, on_l3 };
	struct tc_ete_decoder *d = tc_ete_alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "tc_ete_alloc refused the encoder's configuration");
	TC_FUZZ_CHECK(tc_ete_set_image(d, img) == tc_ete_ok, "set_image");
	if (chunk < 0) {
		tc_ete_feed(d, v->trace, v->trace_len);
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, (uint8_t)chunk);
		while (i < v->trace_len) {
			size_t n = tc_fuzz_chunk_next(&c, v->trace_len - i);
			tc_ete_feed(d, v->trace + i, n);
			i += n;
		}
	}
	TC_FUZZ_CHECK(tc_ete_finish(d) == tc_ete_ok, "finish");
	tc_ete_free(d);
	close_side(&r->l1);
	close_side(&r->l3);
}

/* Whether the decoded L3 (fed whole) equals the truth after the L3
 * normalisation of certify (conformance/l3norm.c): "yes" or "no". */
static const char *l3_normalised_equal(const struct tc_ete_config *cfg, const struct tc_image *img,
				       const struct tc_enc_vector *v, const struct tc_lines *want)
{
	struct tc_output out;
	struct tc_lines a, b;
	long at;
	if (tc_collect(tc_protocol_find("ete"), cfg, img, v->trace, v->trace_len, 0, &out))
		return "(decoder not created)";
	tc_l3_normalise(want, img, &a);
	tc_l3_normalise(&out.level[tc_sec_l3], img, &b);
	at = tc_lines_diff(&a, &b);
	tc_lines_free(&a);
	tc_lines_free(&b);
	tc_output_free(&out);
	return at < 0 ? "yes" : "no";
}

/* With TC_FUZZ_TCV=FILE: the vector as .tcv text, for a human (the one .tcv writer). */
static void write_tcv(const struct tc_enc_vector *v)
{
	const char *path = getenv("TC_FUZZ_TCV");
	struct tc_enc_vector shallow = *v;   /* the view below points into it */
	struct tc_enc_result r;
	char err[400];
	char *text;
	if (!path || !*path)
		return;
	tc_enc_vector_result(&shallow, &r);
	text = tc_vector_text_generated(&r, "round-trip fuzz finding (fuzz/ete/roundtrip.c)", err, sizeof err);
	if (text && tc_vector_save(path, text, err, sizeof err) == 0)
		fprintf(stderr, "roundtrip: vector written to %s\n", path);
	else
		fprintf(stderr, "roundtrip: vector not written: %s\n", err);
	free(text);
}

/* Aborts on the first difference of s, printing both sides. */
static void verdict(const struct side *s, const char *how, const struct tc_ete_config *cfg,
		    const struct tc_image *img, const struct tc_enc_vector *v, const struct tc_lines *want_l3)
{
	const char *want;
	if (s->diff < 0)
		return;
	want = (size_t)s->diff < s->want->n ? s->want->line[s->diff] : "(end)";
	fprintf(stderr, "roundtrip: %s fed %s differs at line %ld (%zu lines expected, %zu decoded)\n", s->level, how,
		s->diff + 1, s->want->n, s->n);
	fprintf(stderr, "  line before: %s\n  expected:    %s\n  decoded:     %s\n",
		s->diff > 0 ? s->before : "(start)", want, s->got);
	fprintf(stderr, "  L3 equal after normalisation: %s\n", l3_normalised_equal(cfg, img, v, want_l3));
	write_tcv(v);
	TC_FUZZ_CHECK(0, "%s (fed %s) line %ld: expected '%s', decoded '%s'", s->level, how, s->diff + 1, want,
		      s->got);
}

/* One decode, compared with the truth. */
static void check(const struct tc_ete_config *cfg, const struct tc_image *img, const struct tc_enc_vector *v,
		  const struct tc_lines *want_l1, const struct tc_lines *want_l3, int chunk)
{
	struct run r;
	char how[32];
	memset(&r, 0, sizeof r);
	r.l1.level = "L1";
	r.l1.want = want_l1;
	r.l1.diff = -1;
	r.l3.level = "L3";
	r.l3.want = want_l3;
	r.l3.diff = -1;
	decode(cfg, img, v, chunk, &r);
	if (chunk < 0)
		snprintf(how, sizeof how, "whole");
	else
		snprintf(how, sizeof how, "in chunks 0x%02x", (unsigned)chunk);
	verdict(&r.l1, how, cfg, img, v, want_l3);
	verdict(&r.l3, how, cfg, img, v, want_l3);
}

/* Flag bits 2:1: a second run from the same options must give the same
 * vector (compared field by field: formatting both as .tcv text cost more
 * than the second run). */
static void check_determinism(const struct tc_enc_options *o, const struct tc_enc_vector *v)
{
	struct tc_enc_vector w;
	char err[256];
	int same;
	TC_FUZZ_CHECK(tc_enc_generate(o, &w, err, sizeof err) == 0, "second run: %s", err);
	same = !memcmp(&v->cfg, &w.cfg, sizeof v->cfg) && v->nregions == w.nregions &&
	       v->trace_len == w.trace_len && !memcmp(v->trace, w.trace, v->trace_len) && !strcmp(v->l1, w.l1) &&
	       !strcmp(v->l3, w.l3) && !strcmp(v->tags, w.tags) &&
	       !memcmp(v->variants, w.variants, (size_t)tc_enc_variant_count() * sizeof *v->variants);
	for (int i = 0; same && i < v->nregions; i++)
		same = v->region[i].base == w.region[i].base && v->region[i].len == w.region[i].len &&
		       !memcmp(v->region[i].bytes, w.region[i].bytes, v->region[i].len);
	TC_FUZZ_CHECK(same, "the encoder gave two different vectors for the same options");
	tc_enc_vector_free(&w);
}

/* Execution steps from one byte: mostly 1…32, one value in sixteen 40…100. */
static unsigned steps(uint8_t b)
{
	return b < 0xf0 ? 1 + b % 32u : 40 + 4 * (b & 0x0fu);
}

/* The encoder's options from the header; entropy is the rest of the input. */
static void options(const uint8_t *data, size_t size, struct tc_enc_options *o)
{
	struct tc_fuzz_in in = { data + TC_FUZZ_ETE_CFG_BYTES + 4, 4 };
	tc_enc_options_default(o);
	tc_fuzz_ete_config(data, &o->cfg);
	o->cfg.queue_cap = 0;   /* automatic: the encoder writes no queue-overflow */
	o->cfg.tx_cap = 0;
	o->random_config = data[TC_FUZZ_ETE_CFG_BYTES] & 1;
	o->steps = steps(data[TC_FUZZ_ETE_CFG_BYTES + 1]);
	o->blocks = 4 + data[TC_FUZZ_ETE_CFG_BYTES + 2] % 61u;
	o->seed = tc_fuzz_u32(&in);
	o->entropy = data + HDR;
	o->entropy_len = size - HDR;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	struct tc_ete_config cfg;
	struct tc_image img;
	struct tc_lines want_l1 = { 0 }, want_l3 = { 0 };
	char err[256];
	if (size < HDR)
		return 0;
	options(data, size, &o);
	TC_FUZZ_CHECK(tc_enc_generate(&o, &v, err, sizeof err) == 0, "tc_enc_generate: %s", err);
	if ((data[TC_FUZZ_ETE_CFG_BYTES] & 6) == 6)
		check_determinism(&o, &v);
	memset(&img, 0, sizeof img);
	for (int i = 0; i < v.nregions; i++)
		TC_FUZZ_CHECK(tc_image_add(&img, v.region[i].base, v.region[i].bytes, v.region[i].len) == 0,
			      "the encoder's region %d (0x%llx, %zu bytes) does not fit the image", i,
			      (unsigned long long)v.region[i].base, v.region[i].len);
	tc_lines_add_text(&want_l1, v.l1);
	tc_lines_add_text(&want_l3, v.l3);
	cfg = v.cfg;
	tc_fuzz_ete_fit_caps_packets(&cfg, want_l1.n + 1);
	check(&cfg, &img, &v, &want_l1, &want_l3, -1);
	check(&cfg, &img, &v, &want_l1, &want_l3, data[TC_FUZZ_ETE_CFG_BYTES + 3]);
	tc_lines_free(&want_l1);
	tc_lines_free(&want_l3);
	tc_image_free(&img);
	tc_enc_vector_free(&v);
	return 0;
}
