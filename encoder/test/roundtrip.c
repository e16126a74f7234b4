/* SPDX-License-Identifier: BSD-3-Clause */
/* roundtrip.c — the round trip of every encoder: for every seed, the reference decoder must reproduce the encoder's L1 and L3 ground truth exactly. */
/* Each protocol of the build that has an encoder (tc_encoders[], or those
 * --protocol names) generates a vector per seed through its descriptor
 * (struct tc_encoder); the protocol's reference decoder (struct
 * tc_protocol) is fed its bytes whole, byte by byte and in random chunks,
 * and each time its L1 and L3 lines must equal the encoder's truth line for
 * line. Prints TAP version 13: a test per range of seeds and protocol (a
 * failure names the seed, the feeding and the first line that differs);
 * --require-coverage adds a test per protocol that the seeds produced every
 * variant of its list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder.h"
#include "tracecert/image.h"
#include "tracecert/protocol.h"
#include "vector.h"

#define MAX_PROTOCOLS 16

enum feed_mode { feed_whole, feed_bytes, feed_chunks, feed_count };
static const char *const mode_names[feed_count] = { "whole", "byte by byte", "random chunks" };

struct args {
	const struct tc_encoder *encs[MAX_PROTOCOLS];   /* --protocol, in the order given; none: every encoder */
	int nencs;
	unsigned long long first;
	unsigned long long count;
	int coverage;              /* print every variant's hits */
	int require;               /* a TAP test that every variant was produced */
	int dump;                  /* print each seed's vector as comments */
	const char *failures;      /* --failures DIR: the vector of each failing seed */
};

/* One protocol's run. */
struct run {
	const struct tc_encoder *enc;
	const struct tc_protocol *proto;
	const struct args *a;
	unsigned long long bytes;
	uint64_t *hits;            /* per variant */
};

/* Compares one level; on a difference prints a YAML block and returns 1. */
static int compare(const char *level, const char *truth, const struct tc_lines *got, uint64_t seed, int mode)
{
	struct tc_lines want = { 0 };
	long at;
	tc_lines_add_text(&want, truth ? truth : "");
	at = tc_lines_diff(&want, got);
	if (at >= 0) {
		printf("  ---\n  seed: %llu\n  fed: %s\n  level: %s\n  line: %ld\n  expected: '%s'\n  got: '%s'\n  ...\n",
		       (unsigned long long)seed, mode_names[mode], level, at + 1,
		       (size_t)at < want.n ? want.line[at] : "(end)", (size_t)at < got->n ? got->line[at] : "(end)");
	}
	tc_lines_free(&want);
	return at >= 0;
}

/* The vector of a failing seed as DIR/roundtrip-PROTOCOL-SEED.tcv (the one .tcv writer). */
static void save_failure(const struct run *r, const struct tc_enc_result *v, uint64_t seed)
{
	char path[512], title[96], err[400];
	char *text;
	snprintf(path, sizeof path, "%s/roundtrip-%s-%llu.tcv", r->a->failures, r->enc->protocol,
		 (unsigned long long)seed);
	snprintf(title, sizeof title, "%s round-trip failure, seed %llu", r->enc->protocol, (unsigned long long)seed);
	text = tc_vector_text_generated(v, title, err, sizeof err);
	if (text && tc_vector_save(path, text, err, sizeof err) == 0)
		printf("  # written to %s\n", path);
	else
		printf("  # not written: %s\n", err);
	free(text);
}

static void dump_vector(const struct tc_enc_result *v, uint64_t seed)
{
	printf("# %s seed %llu: %s\n# trace (%zu bytes):", v->protocol, (unsigned long long)seed, v->tags, v->trace_len);
	for (size_t i = 0; i < v->trace_len; i++)
		printf("%s%02x", i % 32 ? " " : "\n# ", v->trace[i]);
	printf("\n");
	for (int i = 0; i < v->nregions; i++)
		printf("# image region 0x%llx, %zu bytes\n", (unsigned long long)v->region[i].base, v->region[i].len);
	printf("# expected L1:\n%s# expected L3:\n%s", v->l1, v->l3 ? v->l3 : "");
}

/* Decodes the vector fed three ways and compares each with its truth; returns 1 on a failure. */
static int check_vector(const struct run *r, const struct tc_enc_result *v, uint64_t seed)
{
	/* tc_collect's chunk: 0 whole, 1 byte by byte, negative pseudo-random sizes seeded by it */
	const long chunk[feed_count] = { 0, 1, -(long)(seed % 0x7fffffff) - 1 };
	struct tc_image img;
	int bad = 0;
	memset(&img, 0, sizeof img);
	for (int i = 0; i < v->nregions; i++)
		bad |= tc_image_add(&img, v->region[i].base, v->region[i].bytes, v->region[i].len) != 0;
	for (int mode = 0; mode < feed_count && !bad; mode++) {
		struct tc_output out;
		if (tc_collect(r->proto, v->cfg, &img, v->trace, v->trace_len, chunk[mode], &out)) {
			printf("  ---\n  seed: %llu\n  message: 'the decoder refused the configuration'\n  ...\n",
			       (unsigned long long)seed);
			bad = 1;
			continue;
		}
		bad = compare("l1", v->l1, &out.level[tc_sec_l1], seed, mode) ||
		      compare("l3", v->l3, &out.level[tc_sec_l3], seed, mode);
		tc_output_free(&out);
	}
	tc_image_free(&img);
	return bad;
}

/* One seed: generate, decode three ways, compare; returns 1 on a failure. */
static int one(struct run *r, uint64_t seed)
{
	struct tc_enc_request rq = { seed, 1, NULL, 100 + (unsigned)(seed % 400), 4 + (unsigned)(seed % 13) * 20, NULL, 0 };
	struct tc_enc_result v;
	char err[256];
	int bad;
	if (r->enc->generate(&rq, &v, err, sizeof err)) {
		printf("  ---\n  seed: %llu\n  message: '%s'\n  ...\n", (unsigned long long)seed, err);
		return 1;
	}
	if (r->a->dump)
		dump_vector(&v, seed);
	bad = check_vector(r, &v, seed);
	if (bad && r->a->failures)
		save_failure(r, &v, seed);
	r->bytes += v.trace_len;
	for (int i = 0; i < r->enc->variant_count(); i++)
		r->hits[i] += v.variants[i];
	tc_enc_result_free(&v);
	return bad;
}

/* The variants no seed produced, as TAP diagnostics (print_all: every
 * variant's count); returns how many. */
static int unused(const struct run *r, int print_all)
{
	int n = 0;
	for (int i = 0; i < r->enc->variant_count(); i++) {
		if (print_all)
			printf("# %10llu %s\n", (unsigned long long)r->hits[i], r->enc->variant_name(i));
		else if (!r->hits[i])
			printf("# unused: %s\n", r->enc->variant_name(i));
		n += !r->hits[i];
	}
	return n;
}

static unsigned long long chunk_of(const struct args *a)
{
	return a->count < 20 ? 1 : a->count / 20;
}

/* The seeds of one protocol; TAP numbers from *n. Returns how many tests failed. */
static unsigned long long run_protocol(struct run *r, unsigned long long *n)
{
	const struct args *a = r->a;
	unsigned long long failed = 0, chunk = chunk_of(a), end = a->first + a->count;
	for (unsigned long long s = a->first; s < end; s += chunk) {
		unsigned long long bad = 0, last = s + chunk < end ? s + chunk - 1 : end - 1;
		for (unsigned long long k = s; k <= last; k++)
			bad += (unsigned long long)one(r, k);
		failed += bad > 0;
		printf("%s %llu - %s seeds %llu..%llu: encoder truth == reference decode (L1, L3; whole, bytes, chunks)\n",
		       bad ? "not ok" : "ok", ++*n, r->enc->protocol, s, last);
	}
	if (a->require) {
		int u = unused(r, 0), nv = r->enc->variant_count();
		printf("%s %llu - %s seeds %llu..%llu produce every variant of %s (%d of %d)\n", u ? "not ok" : "ok",
		       ++*n, r->enc->protocol, a->first, end - 1, r->enc->variants_file, nv - u, nv);
		failed += u > 0;
	}
	if (a->coverage) {
		int nv = r->enc->variant_count();
		printf("# %s variants used: %d/%d\n", r->enc->protocol, nv - unused(r, 1), nv);
	}
	printf("# %s: %llu seeds, %llu bytes of trace\n", r->enc->protocol, a->count, r->bytes);
	return failed;
}

static const struct tc_encoder *find_encoder(const char *name)
{
	for (int i = 0; tc_encoders[i]; i++)
		if (!strcmp(tc_encoders[i]->protocol, name))
			return tc_encoders[i];
	return NULL;
}

static int parse_number(const char *s, unsigned long long *v)
{
	char *end;
	if (s[0] < '0' || s[0] > '9')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

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
		else if (!strcmp(argv[i], "--failures") && i + 1 < argc)
			a->failures = argv[++i];
		else if (!strcmp(argv[i], "--protocol") && i + 1 < argc && a->nencs < MAX_PROTOCOLS) {
			a->encs[a->nencs] = find_encoder(argv[++i]);
			if (!a->encs[a->nencs++]) {
				fprintf(stderr, "roundtrip: no encoder for protocol '%s' in this build\n", argv[i]);
				return -1;
			}
		} else if (pos < 2 && parse_number(argv[i], pos++ ? &a->count : &a->first) == 0)
			continue;
		else
			return -1;
	}
	if (a->nencs == 0)
		for (; a->nencs < MAX_PROTOCOLS && tc_encoders[a->nencs]; a->nencs++)
			a->encs[a->nencs] = tc_encoders[a->nencs];
	return a->count > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct args a;
	unsigned long long failed = 0, n = 0, tests = 0;
	memset(&a, 0, sizeof a);
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: roundtrip [--protocol P]... [--coverage] [--require-coverage] [--dump] [--failures DIR]\n"
		       "                 [FIRST_SEED [COUNT]]\n"
		       "Every encoder of the build (or those of --protocol): seeds FIRST_SEED.. (default 1),\n"
		       "COUNT of them (default 200), each decoded whole, byte by byte and in random chunks.\n");
		return 0;
	}
	if (parse_args(argc, argv, &a)) {
		fprintf(stderr, "usage: roundtrip [--protocol P]... [--coverage] [--require-coverage] [--dump] "
				"[--failures DIR] [FIRST_SEED [COUNT]]\n");
		return 2;
	}
	for (int i = 0; i < a.nencs; i++)
		tests += (a.count + chunk_of(&a) - 1) / chunk_of(&a) + (a.require ? 1 : 0);
	printf("TAP version 13\n1..%llu\n", tests);
	for (int i = 0; i < a.nencs; i++) {
		struct run r = { a.encs[i], tc_protocol_find(a.encs[i]->protocol), &a, 0, NULL };
		r.hits = calloc((size_t)r.enc->variant_count() + 1, sizeof *r.hits);
		if (!r.hits || !r.proto) {
			fprintf(stderr, "roundtrip: %s: %s\n", r.enc->protocol, r.proto ? "out of memory" : "no descriptor");
			free(r.hits);
			return 2;
		}
		failed += run_protocol(&r, &n);
		free(r.hits);
	}
	return failed ? 1 : 0;
}
