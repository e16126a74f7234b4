/* unit_rvenc.c — the rvtrace encoder (encoder/rvtrace/) against the reference L1 decoder: for many
 * seeds the bytes it writes decode to exactly the L1 text it expects; the same request gives the same
 * vector; every variant of encoder/rvtrace/variants.txt is reached; refused requests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tracecert/encoder_rvtrace.h"

struct text {
	char *p;
	size_t len, cap;
};

static void on_packet(void *ctx, const struct tc_rvtrace_packet *p)
{
	struct text *t = ctx;
	char line[512];
	int n = tc_rvtrace_format_packet(line, sizeof line, p);
	if (n < 0 || (size_t)n + 2 > sizeof line)
		return;
	if (t->len + (size_t)n + 2 > t->cap) {
		t->cap = (t->len + (size_t)n + 2) * 2;
		t->p = realloc(t->p, t->cap);
		if (!t->p)
			abort();
	}
	memcpy(t->p + t->len, line, (size_t)n);
	t->len += (size_t)n;
	t->p[t->len++] = '\n';
	t->p[t->len] = 0;
}

/* The reference's L1 text of the vector's bytes (fed in pieces of 7 bytes). */
static char *decode(const struct rvenc_vector *v)
{
	struct text t = { calloc(1, 1), 0, 1 };
	struct tc_rvtrace_sink sink = { &t, on_packet };
	struct tc_rvtrace_decoder *d = tc_rvtrace_alloc(&v->cfg, &sink);
	if (!d || !t.p)
		abort();
	for (size_t i = 0; i < v->trace_len; i += 7)
		tc_rvtrace_feed(d, v->trace + i, v->trace_len - i < 7 ? v->trace_len - i : 7);
	tc_rvtrace_finish(d);
	tc_rvtrace_free(d);
	return t.p;
}

/* The first line where a and b differ, for the note. */
static void note_difference(const char *a, const char *b)
{
	int line = 1;
	while (*a && *a == *b) {
		line += *a == '\n';
		a++, b++;
	}
	note("line %d: decoder '%.80s' encoder '%.80s'", line, a, b);
}

static int round_trip(uint64_t seed, unsigned steps, unsigned blocks, uint64_t *hits, unsigned *extra)
{
	struct rvenc_options o;
	struct rvenc_vector v;
	char err[200];
	rvenc_options_default(&o);
	o.seed = seed;
	o.steps = steps;
	o.blocks = blocks;
	if (rvenc_generate(&o, &v, err, sizeof err)) {
		note("seed %llu: %s", (unsigned long long)seed, err);
		return 0;
	}
	char *l1 = decode(&v);
	int same = strcmp(l1, v.l1) == 0 && v.l3 && v.l3[0];
	if (!same) {
		note("seed %llu steps %u blocks %u", (unsigned long long)seed, steps, blocks);
		note_difference(l1, v.l1);
	}
	for (int i = 0; i < rvenc_variant_count(); i++)
		hits[i] += v.variants[i];
	*extra += v.extra_packets;
	free(l1);
	rvenc_vector_free(&v);
	return same;
}

static void test_seeds(void)
{
	int n = rvenc_variant_count(), good = 0, missing = 0;
	uint64_t *hits = calloc((size_t)n, sizeof *hits);
	unsigned extra = 0;
	const unsigned seeds = 2000;
	for (unsigned s = 1; s <= seeds; s++)
		good += round_trip(s, 50 + s % 700, 4 + s % 90, hits, &extra);
	ok(good == (int)seeds, "%d of %u seeds: the reference's L1 of the encoder's bytes is the encoder's L1", good,
	   seeds);
	for (int i = 0; i < n; i++)
		if (!hits[i]) {
			note("variant %s never used", rvenc_variant_name(i));
			missing++;
		}
	ok(missing == 0, "every one of the %d variants is used (RV-E1 extra packets: %u)", n, extra);
	free(hits);
	good = round_trip(99, 20000, 4096, calloc((size_t)n, sizeof *hits), &extra);
	ok(good, "a long request (20000 steps, 4096 blocks) round-trips");
}

static void test_deterministic(void)
{
	struct rvenc_options o;
	struct rvenc_vector a, b;
	rvenc_options_default(&o);
	o.seed = 1234;
	int rc = rvenc_generate(&o, &a, NULL, 0) | rvenc_generate(&o, &b, NULL, 0);
	ok(rc == 0 && a.trace_len == b.trace_len && !memcmp(a.trace, b.trace, a.trace_len) && !strcmp(a.l1, b.l1) &&
	   !strcmp(a.l3, b.l3), "the same request gives the same vector");
	rvenc_vector_free(&a);
	rvenc_vector_free(&b);
}

static void test_refused(void)
{
	struct rvenc_options o;
	struct rvenc_vector v;
	char err[200];
	rvenc_options_default(&o);
	ok(rvenc_generate(NULL, &v, err, sizeof err) == -1, "no options: refused");
	o.steps = 0;
	ok(rvenc_generate(&o, &v, err, sizeof err) == -1, "0 steps: refused");
	rvenc_options_default(&o);
	o.blocks = 3;
	ok(rvenc_generate(&o, &v, err, sizeof err) == -1, "3 blocks: refused");
	rvenc_options_default(&o);
	o.random_config = 0;
	o.cfg.iaddress_width_p = 20;
	ok(rvenc_generate(&o, &v, err, sizeof err) == -1, "iaddress_width_p below XLEN: refused (%s)", err);
	rvenc_options_default(&o);
	o.random_config = 0;
	o.cfg.iaddress_lsb_p = 2;
	ok(rvenc_generate(&o, &v, err, sizeof err) == -1, "iaddress_lsb_p 2 with C: refused");
	rvenc_options_default(&o);
	o.random_config = 0;
	o.cfg.rv32 = 0;
	o.cfg.iaddress_width_p = 64;
	o.cfg.long_frames = 0;
	ok(rvenc_generate(&o, &v, err, sizeof err) == -1, "RV64 without long frames: refused");
	rvenc_options_default(&o);
	o.random_config = 0;
	o.cfg.context_width_p = 0;
	ok(rvenc_generate(&o, &v, err, sizeof err) == -1, "an invalid configuration: refused");
	rvenc_options_default(&o);
	o.random_config = 0;
	ok(rvenc_generate(&o, &v, err, sizeof err) == 0 && v.trace_len > 0, "the default configuration: generated");
	rvenc_vector_free(&v);
}

int main(void)
{
	test_refused();
	test_deterministic();
	test_seeds();
	return tap_finish();
}
