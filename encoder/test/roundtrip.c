/* roundtrip.c — the round trip: for every seed, the reference decoder must reproduce the encoder's
 * L1 and L3 ground truth exactly. Prints TAP (one test per seed range, failures with YAML). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder_ete.h"
#include "tracecert/image.h"
#include "vector.h"

/* Compares one level; on a difference prints a YAML block and returns 1. */
static int compare(const char *level, const char *truth, const struct tc_lines *got, uint64_t seed)
{
	struct tc_lines want = { 0 };
	long at;
	tc_lines_add_text(&want, truth);
	at = tc_lines_diff(&want, got);
	if (at >= 0) {
		printf("  ---\n  seed: %llu\n  level: %s\n  line: %ld\n  expected: '%s'\n  got: '%s'\n  ...\n",
		       (unsigned long long)seed, level, at + 1,
		       (size_t)at < want.n ? want.line[at] : "(end)", (size_t)at < got->n ? got->line[at] : "(end)");
	}
	tc_lines_free(&want);
	return at >= 0;
}

/* The vector of a failing seed as dir/roundtrip-seed-SEED.tcv (the one .tcv writer). */
static void save_failure(struct tc_enc_vector *v, unsigned long long seed, const char *dir)
{
	struct tc_enc_result r;
	char path[512], title[64], err[400];
	char *text;
	snprintf(path, sizeof path, "%s/roundtrip-seed-%llu.tcv", dir, seed);
	snprintf(title, sizeof title, "round-trip failure, seed %llu", seed);
	tc_enc_vector_result(v, &r);
	text = tc_vector_text_generated(&r, title, err, sizeof err);
	if (text && tc_vector_save(path, text, err, sizeof err) == 0)
		printf("  # written to %s\n", path);
	else
		printf("  # not written: %s\n", err);
	free(text);
}

/* One seed: generate, decode, compare. Writes the vector of a failure to dir. */
static int one(uint64_t seed, const char *dir, unsigned long long *bytes)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	struct tc_image img;
	struct tc_output out;
	char err[256];
	int bad = 0;
	tc_enc_options_default(&o);
	o.seed = seed;
	o.steps = 100 + (unsigned)(seed % 400);
	if (tc_enc_generate(&o, &v, err, sizeof err)) {
		printf("  ---\n  seed: %llu\n  message: '%s'\n  ...\n", (unsigned long long)seed, err);
		return 1;
	}
	memset(&img, 0, sizeof img);
	for (int i = 0; i < v.nregions; i++)
		tc_image_add(&img, v.region[i].base, v.region[i].bytes, v.region[i].len);
	*bytes += v.trace_len;
	if (tc_collect(tc_protocol_find("ete"), &v.cfg, &img, v.trace, v.trace_len, 0, &out)) {
		printf("  ---\n  seed: %llu\n  message: 'decoder rejected the configuration'\n  ...\n", (unsigned long long)seed);
		bad = 1;
	} else {
		bad = compare("l1", v.l1, &out.level[tc_sec_l1], seed) ||
		      compare("l3", v.l3, &out.level[tc_sec_l3], seed);
		tc_output_free(&out);
	}
	if (bad && dir)
		save_failure(&v, seed, dir);
	tc_image_free(&img);
	tc_enc_vector_free(&v);
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long long first = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
	unsigned long long count = argc > 2 ? strtoull(argv[2], NULL, 0) : 200;
	const char *dir = argc > 3 ? argv[3] : NULL;
	unsigned long long failed = 0, bytes = 0, chunk = count < 20 ? 1 : count / 20, n = 0;
	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: roundtrip [FIRST_SEED [COUNT [FAILURE_DIR]]]\n");
		return 0;
	}
	printf("TAP version 13\n1..%llu\n", (count + chunk - 1) / chunk);
	for (unsigned long long s = first; s < first + count; s += chunk) {
		unsigned long long bad = 0;
		for (unsigned long long k = s; k < s + chunk && k < first + count; k++)
			bad += (unsigned long long)one(k, dir, &bytes);
		failed += bad;
		printf("%s %llu - seeds %llu..%llu: encoder truth == reference decode (L1, L3)\n", bad ? "not ok" : "ok", ++n, s,
		       (s + chunk < first + count ? s + chunk : first + count) - 1);
	}
	printf("# %llu seeds, %llu failed, %llu bytes of trace\n", count, failed, bytes);
	return failed ? 1 : 0;
}
