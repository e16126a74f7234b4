/* ptm_roundtrip.c — the PTM round trip: the reference decoder must print exactly the encoder's L1 and L3 truth. */
/* For every seed, the reference PTM decoder is fed the encoder's bytes
 * whole, byte by byte and in random chunks. Prints TAP version 13 (a test
 * per range of seeds; a failure names the seed and the first line that
 * differs); --require-coverage adds a test that the seeds produced every
 * variant of encoder/ptm/variants.txt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder_ptm.h"
#include "tracecert/image.h"
#include "tracecert/ptm.h"

/* ---- Collected text ------------------------------------------------------------- */

struct text {
	char *p;
	size_t len;
	size_t cap;
	int oom;
};

static void text_line(struct text *t, const char *line)
{
	size_t n = strlen(line);
	if (t->oom)
		return;
	if (t->len + n + 2 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *p;
		while (cap < t->len + n + 2)
			cap *= 2;
		p = realloc(t->p, cap);
		if (!p) {
			t->oom = 1;
			return;
		}
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, line, n);
	t->len += n;
	t->p[t->len++] = '\n';
	t->p[t->len] = '\0';
}

struct collect {
	struct text l1;
	struct text l3;
};

static void on_packet(void *ctx, const struct tc_ptm_packet *p)
{
	char buf[512];
	tc_ptm_format_packet(buf, sizeof buf, p);
	text_line(&((struct collect *)ctx)->l1, buf);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	char buf[512];
	tc_ptm_format_l3(buf, sizeof buf, x);
	text_line(&((struct collect *)ctx)->l3, buf);
}

/* ---- Decoding ------------------------------------------------------------------------ */

enum feed_mode { feed_whole, feed_bytes, feed_chunks, feed_count };
static const char *const mode_names[feed_count] = { "whole", "byte by byte", "random chunks" };

static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Feeds the trace in the chunks of mode; returns 0, or -1 when the decoder
 * could not be made or refused a call. */
static int decode(const struct tc_enc_ptm_vector *v, const struct tc_image *img, int mode, uint64_t seed,
		  struct collect *out)
{
	struct tc_ptm_sink sink = { out, on_packet, on_l3 };
	struct tc_ptm_decoder *d = tc_ptm_alloc(&v->cfg, &sink);
	uint64_t rnd = seed;
	size_t at = 0;
	int bad = 0;
	if (!d || tc_ptm_set_image(d, img))
		bad = 1;
	while (!bad && at < v->trace_len) {
		size_t n = v->trace_len - at;
		if (mode == feed_bytes)
			n = 1;
		else if (mode == feed_chunks && n > 1)
			n = 1 + (size_t)(next_random(&rnd) % (n < 40 ? n : 40));
		bad = tc_ptm_feed(d, v->trace + at, n) != tc_ptm_ok;
		at += n;
	}
	if (!bad)
		bad = tc_ptm_finish(d) != tc_ptm_ok;
	tc_ptm_free(d);
	return bad || out->l1.oom || out->l3.oom ? -1 : 0;
}

/* The first line where two texts differ (1-based), 0 when they are equal;
 * the lines themselves (up to their newline) in *wa, *ga. */
static long first_difference(const char *want, const char *got, const char **wa, const char **ga)
{
	long line = 1;
	const char *w = want ? want : "", *g = got ? got : "";
	while (*w || *g) {
		size_t wn = strcspn(w, "\n"), gn = strcspn(g, "\n");
		if (wn != gn || memcmp(w, g, wn)) {
			*wa = w;
			*ga = g;
			return line;
		}
		w += wn + (w[wn] != '\0');
		g += gn + (g[gn] != '\0');
		line++;
	}
	return 0;
}

static void yaml_line(const char *key, const char *s)
{
	int n = (int)strcspn(s, "\n");
	printf("  %s: '%.*s'\n", key, n, *s ? s : "(end)");
}

static int compare(const char *level, const char *want, const char *got, uint64_t seed, int mode)
{
	const char *wa = NULL, *ga = NULL;
	long line = first_difference(want, got, &wa, &ga);
	if (!line)
		return 0;
	printf("  ---\n  seed: %llu\n  fed: %s\n  level: %s\n  line: %ld\n", (unsigned long long)seed,
	       mode_names[mode], level, line);
	yaml_line("expected", wa);
	yaml_line("got", ga);
	printf("  ...\n");
	return 1;
}

/* ---- One seed -------------------------------------------------------------------- */

struct run {
	unsigned long long bytes;
	uint64_t *hits;            /* per variant */
	int dump;                  /* print the vector of each seed */
};

static void dump_vector(const struct tc_enc_ptm_vector *v, uint64_t seed)
{
	printf("# seed %llu: %s\n# trace (%zu bytes):", (unsigned long long)seed, v->tags, v->trace_len);
	for (size_t i = 0; i < v->trace_len; i++)
		printf("%s%02x", i % 32 ? " " : "\n# ", v->trace[i]);
	printf("\n");
	for (int i = 0; i < v->nregions; i++)
		printf("# image region 0x%llx, %zu bytes\n", (unsigned long long)v->region[i].base, v->region[i].len);
	printf("# expected L1:\n%s# expected L3:\n%s", v->l1, v->l3);
}

/* Generates from o, decodes three ways, compares; returns 1 on a failure. */
static int check_options(const struct tc_enc_ptm_options *o, struct run *r)
{
	struct tc_enc_ptm_vector v;
	struct tc_image img;
	char err[256];
	uint64_t seed = o->seed;
	int bad = 0;
	if (tc_enc_ptm_generate(o, &v, err, sizeof err)) {
		printf("  ---\n  seed: %llu\n  message: '%s'\n  ...\n", (unsigned long long)seed, err);
		return 1;
	}
	if (r->dump)
		dump_vector(&v, seed);
	memset(&img, 0, sizeof img);
	for (int i = 0; i < v.nregions; i++)
		bad |= tc_image_add(&img, v.region[i].base, v.region[i].bytes, v.region[i].len) != 0;
	for (int mode = 0; mode < feed_count && !bad; mode++) {
		struct collect c;
		memset(&c, 0, sizeof c);
		if (decode(&v, &img, mode, seed, &c)) {
			printf("  ---\n  seed: %llu\n  message: 'the decoder refused the configuration or a call'\n  ...\n",
			       (unsigned long long)seed);
			bad = 1;
		} else {
			bad = compare("l1", v.l1, c.l1.p, seed, mode) || compare("l3", v.l3, c.l3.p, seed, mode);
		}
		free(c.l1.p);
		free(c.l3.p);
	}
	r->bytes += v.trace_len;
	for (int i = 0; i < tc_enc_ptm_variant_count(); i++)
		r->hits[i] += v.variants[i];
	tc_image_free(&img);
	tc_enc_ptm_vector_free(&v);
	return bad;
}

static int one(uint64_t seed, struct run *r)
{
	struct tc_enc_ptm_options o;
	tc_enc_ptm_options_default(&o);
	o.seed = seed;
	o.steps = 100 + (unsigned)(seed % 400);
	o.blocks = 4 + (unsigned)(seed % 13) * 20;   /* programs of 4 to 244 blocks */
	return check_options(&o, r);
}

/* ---- The API's edges ---------------------------------------------------------------- */

static int same_vector(const struct tc_enc_ptm_vector *a, const struct tc_enc_ptm_vector *b)
{
	return a->trace_len == b->trace_len && !memcmp(a->trace, b->trace, a->trace_len) && !strcmp(a->l1, b->l1) &&
	       !strcmp(a->l3, b->l3) && a->nregions == b->nregions;
}

/* The same options give the same vector. */
static int deterministic(void)
{
	struct tc_enc_ptm_options o;
	struct tc_enc_ptm_vector a, b;
	int ok;
	tc_enc_ptm_options_default(&o);
	o.seed = 77;
	if (tc_enc_ptm_generate(&o, &a, NULL, 0))
		return 0;
	if (tc_enc_ptm_generate(&o, &b, NULL, 0)) {
		tc_enc_ptm_vector_free(&a);
		return 0;
	}
	ok = same_vector(&a, &b);
	tc_enc_ptm_vector_free(&a);
	tc_enc_ptm_vector_free(&b);
	return ok;
}

/* Refusals: NULL options or vector, steps and blocks out of range, a bad
 * fixed configuration; the variant names in and out of range. */
static int refusals(void)
{
	struct tc_enc_ptm_options o;
	struct tc_enc_ptm_vector v;
	char err[128];
	int ok = tc_enc_ptm_generate(NULL, &v, err, sizeof err) == -1 && v.trace == NULL &&
		 tc_enc_ptm_generate(NULL, NULL, NULL, 0) == -1;
	tc_enc_ptm_options_default(NULL);
	tc_enc_ptm_vector_free(NULL);
	tc_enc_ptm_options_default(&o);
	o.steps = 0;
	ok &= tc_enc_ptm_generate(&o, &v, err, sizeof err) == -1 && strstr(err, "steps") != NULL;
	o.steps = 10;
	o.blocks = 3;
	ok &= tc_enc_ptm_generate(&o, &v, err, sizeof err) == -1;
	o.blocks = 64;
	o.random_config = 0;
	o.cfg.contextid_size = 3;
	ok &= tc_enc_ptm_generate(&o, &v, err, sizeof err) == -1 && strstr(err, "configuration") != NULL;
	return ok && tc_enc_ptm_variant_name(-1) == NULL && tc_enc_ptm_variant_name(tc_enc_ptm_variant_count()) == NULL &&
	       tc_enc_ptm_variant_name(0) != NULL;
}

/* A fixed configuration is used as given (and round-trips); its variants
 * are not counted with the seeds'. */
static int fixed_config(void)
{
	struct tc_enc_ptm_options o;
	struct tc_enc_ptm_vector v;
	struct run r;
	int ok;
	tc_enc_ptm_options_default(&o);
	o.random_config = 0;
	o.cfg.version = 0;
	o.cfg.cycle_accurate = 1;
	o.cfg.return_stack = 1;
	o.cfg.timestamps = 1;
	o.cfg.contextid_size = 2;
	o.cfg.ts64 = 1;
	o.cfg.ts_binary = 0;
	o.seed = 5;
	if (tc_enc_ptm_generate(&o, &v, NULL, 0))
		return 0;
	ok = v.cfg.version == 0 && v.cfg.cycle_accurate == 1 && v.cfg.contextid_size == 2 && v.cfg.ts_binary == 0;
	tc_enc_ptm_vector_free(&v);
	memset(&r, 0, sizeof r);
	r.hits = calloc((size_t)tc_enc_ptm_variant_count(), sizeof *r.hits);
	ok = ok && r.hits && !check_options(&o, &r);
	free(r.hits);
	return ok;
}

static int api_checks(unsigned long long *n)
{
	int d = deterministic(), f = refusals(), c = fixed_config();
	printf("%s %llu - API: deterministic, refusals (NULL, ranges, configuration), a fixed configuration\n",
	       d && f && c ? "ok" : "not ok", ++*n);
	if (!(d && f && c))
		printf("  ---\n  deterministic: %d\n  refusals: %d\n  fixed: %d\n  ...\n", d, f, c);
	return !(d && f && c);
}

/* ---- Coverage ---------------------------------------------------------------------- */

/* The variants no seed produced, as TAP diagnostics; returns how many. */
static int unused(const struct run *r, int print_all)
{
	int n = 0;
	for (int i = 0; i < tc_enc_ptm_variant_count(); i++) {
		if (print_all)
			printf("# %10llu %s\n", (unsigned long long)r->hits[i], tc_enc_ptm_variant_name(i));
		else if (!r->hits[i])
			printf("# unused: %s\n", tc_enc_ptm_variant_name(i));
		n += !r->hits[i];
	}
	return n;
}

struct args {
	unsigned long long first;
	unsigned long long count;
	int coverage;              /* print every variant's hits */
	int require;               /* a TAP test that every variant was produced */
	int dump;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	int pos = 0;
	a->first = 1;
	a->count = 200;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--coverage"))
			a->coverage = 1;
		else if (!strcmp(argv[i], "--require-coverage"))
			a->require = 1;
		else if (!strcmp(argv[i], "--dump"))
			a->dump = 1;
		else if (argv[i][0] >= '0' && argv[i][0] <= '9' && pos < 2)
			*(pos++ ? &a->count : &a->first) = strtoull(argv[i], NULL, 0);
		else
			return -1;
	}
	return a->count > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct args a;
	struct run r;
	unsigned long long failed = 0, chunk, n = 0, end;
	memset(&a, 0, sizeof a);
	if (parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: ptm_roundtrip [--coverage] [--require-coverage] [--dump] [FIRST_SEED [COUNT]]\n");
		return 2;
	}
	memset(&r, 0, sizeof r);
	r.dump = a.dump;
	r.hits = calloc((size_t)tc_enc_ptm_variant_count(), sizeof *r.hits);
	if (!r.hits)
		return 2;
	chunk = a.count < 20 ? 1 : a.count / 20;
	end = a.first + a.count;
	printf("TAP version 13\n1..%llu\n", (a.count + chunk - 1) / chunk + (a.require ? 1 : 0) + 1);
	failed += (unsigned long long)api_checks(&n);
	for (unsigned long long s = a.first; s < end; s += chunk) {
		unsigned long long bad = 0, last = s + chunk < end ? s + chunk - 1 : end - 1;
		for (unsigned long long k = s; k <= last; k++)
			bad += (unsigned long long)one(k, &r);
		failed += bad;
		printf("%s %llu - seeds %llu..%llu: PTM encoder truth == reference decode (L1, L3; whole, bytes, chunks)\n",
		       bad ? "not ok" : "ok", ++n, s, last);
	}
	if (a.require) {
		int u = unused(&r, 0);
		printf("%s %llu - seeds %llu..%llu produce every variant of encoder/ptm/variants.txt (%d of %d)\n",
		       u ? "not ok" : "ok", ++n, a.first, end - 1, tc_enc_ptm_variant_count() - u,
		       tc_enc_ptm_variant_count());
		failed += u > 0;
	}
	if (a.coverage)
		printf("# variants used: %d/%d\n", tc_enc_ptm_variant_count() - unused(&r, 1), tc_enc_ptm_variant_count());
	printf("# %llu seeds, %llu bytes of trace\n", a.count, r.bytes);
	free(r.hits);
	return failed ? 1 : 0;
}
