/* vectest.c — runs vector files through the reference decoder and prints TAP (version 13, YAML diagnostics).
 *
 * By default every section is held exactly (the reference's own check). With
 * --scored it compares only what `tracecert certify` scores an adapter on
 * (conformance/certify.c compare()): conformance/mutants/run.sh runs the
 * mutants of a protocol that certify does not yet run this way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vector.h"

static const char *const level_names[tc_sec_count] = { "l1", "s1", "l2", "l3", "error" };

struct run {
	int scored;                    /* --scored */
	int first_failure;             /* --first-failure: stop after the first failing vector */
	int n;
	int failed;
	unsigned char positive[256];   /* header value seen as a packet in an [expect.l1] */
	unsigned char negative[256];   /* header value seen as reserved-header / exact-match-index */
};

/* Header coverage from the expected L1 lines ("@OFF HH KIND …"). */
static void count_headers(struct run *run, const struct tc_vector *v)
{
	const struct tc_lines *l = &v->expect[tc_sec_l1];
	for (size_t i = 0; i < l->n; i++) {
		unsigned h;
		char kind[32] = "", cls[48] = "";
		if (sscanf(l->line[i], "@%*u %2x %31s %47s", &h, kind, cls) < 2 || h > 255)
			continue;
		if (strcmp(kind, "error") != 0)
			run->positive[h] = 1;
		else if (!strcmp(cls, "class=reserved-header") || !strcmp(cls, "class=exact-match-index"))
			run->negative[h] = 1;
	}
}

/* Prints a YAML diagnostic for the first divergence of one level. */
static void diag_diff(const char *what, const struct tc_lines *want, const struct tc_lines *got, long at)
{
	printf("  ---\n  level: %s\n  line: %ld\n", what, at + 1);
	printf("  expected: '%s'\n", (size_t)at < want->n ? want->line[at] : "(end)");
	printf("  got: '%s'\n", (size_t)at < got->n ? got->line[at] : "(end)");
	printf("  ...\n");
}

/* The three feeding modes must agree on every level. */
static int check_streaming(const struct tc_output *whole, const struct tc_output *other,
			   const char *mode)
{
	for (int s = 0; s < tc_sec_count; s++) {
		long at = tc_lines_diff(&whole->level[s], &other->level[s]);
		if (at >= 0) {
			printf("  # %s feeding differs from whole-buffer feeding\n", mode);
			diag_diff(level_names[s], &whole->level[s], &other->level[s], at);
			return 1;
		}
	}
	return 0;
}

/* L3 is compared exactly (the reference must print what FORMAT.md says)
 * and after the shared normalisation (what the runner compares). */
static int check_l3(const struct tc_vector *v, const struct tc_output *got)
{
	struct tc_lines want_n, got_n;
	long at = tc_lines_diff(&v->expect[tc_sec_l3], &got->level[tc_sec_l3]);
	int bad = 0;
	if (at >= 0) {
		diag_diff("l3", &v->expect[tc_sec_l3], &got->level[tc_sec_l3], at);
		return 1;
	}
	tc_l3_normalise(&v->expect[tc_sec_l3], &v->image, &want_n);
	tc_l3_normalise(&got->level[tc_sec_l3], &v->image, &got_n);
	at = tc_lines_diff(&want_n, &got_n);
	if (at >= 0) {
		diag_diff("l3-normalised", &want_n, &got_n, at);
		bad = 1;
	}
	tc_lines_free(&want_n);
	tc_lines_free(&got_n);
	return bad;
}

static int check_expect(const struct tc_vector *v, const struct tc_output *got)
{
	int bad = 0;
	for (int s = 0; s < tc_sec_count; s++) {
		long at;
		if (s == tc_sec_l3) {
			if (v->has[s] && check_l3(v, got))
				return 1;
			continue;
		}
		if (!v->has[s] && s != tc_sec_error)
			continue;
		/* no [error] section: the vector must decode without any error */
		at = tc_lines_diff(&v->expect[s], &got->level[s]);
		if (at >= 0) {
			diag_diff(level_names[s], &v->expect[s], &got->level[s], at);
			bad = 1;
			break;
		}
	}
	return bad;
}

/* ---- --scored: what certify compares ---------------------------------------- */

/* The expected lines of a section under a reading (NULL: the default). */
static const struct tc_lines *scored_expected(const struct tc_vector *v, int sec, const char *reading)
{
	for (int i = 0; reading && i < v->nalts; i++)
		if (v->alt[i].sec == sec && !strcmp(v->alt[i].reading, reading))
			return &v->alt[i].lines;
	return &v->expect[sec];
}

static int scored_has(const struct tc_vector *v, int sec, const char *reading)
{
	for (int i = 0; reading && i < v->nalts; i++)
		if (v->alt[i].sec == sec && !strcmp(v->alt[i].reading, reading))
			return 1;
	return v->has[sec];
}

/* "CLASS OFFSET" lines reduced to their classes. */
static void classes_only(const struct tc_lines *in, struct tc_lines *out)
{
	char cls[64];
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < in->n; i++)
		if (sscanf(in->line[i], "%63s", cls) == 1)
			tc_lines_add(out, cls);
}

/* Index of the first difference of two lists (-1: equal); with report, a
 * YAML diagnostic. */
static long scored_diff(const char *what, const struct tc_lines *want, const struct tc_lines *got, int report)
{
	long at = tc_lines_diff(want, got);
	if (at >= 0 && report)
		diag_diff(what, want, got, at);
	return at;
}

/* L1 of a negative vector: its errors as strictly as [error strict=…] says,
 * the whole L1 only with strict=resync; of a positive vector: the whole L1
 * and no error. 1 when it matches. */
static int scored_l1(const struct tc_vector *v, const char *reading, const struct tc_output *got, int report)
{
	const struct tc_lines *want_err = scored_expected(v, tc_sec_error, reading);
	int negative = scored_has(v, tc_sec_error, reading) && want_err->n > 0;
	if (negative && v->error_strict == tc_strict_class) {
		struct tc_lines a, b;
		long at;
		classes_only(want_err, &a);
		classes_only(&got->level[tc_sec_error], &b);
		at = scored_diff("error (class)", &a, &b, report);
		tc_lines_free(&a);
		tc_lines_free(&b);
		return at < 0;
	}
	if (scored_diff("error", want_err, &got->level[tc_sec_error], report) >= 0)
		return 0;
	if ((!negative || v->error_strict == tc_strict_resync) && scored_has(v, tc_sec_l1, reading))
		return scored_diff("l1", scored_expected(v, tc_sec_l1, reading), &got->level[tc_sec_l1], report) < 0;
	return 1;
}

static int scored_l3(const struct tc_vector *v, const struct tc_lines *want_raw, const struct tc_output *got,
		     int report)
{
	struct tc_lines want, have;
	long at;
	tc_l3_normalise(want_raw, &v->image, &want);
	tc_l3_normalise(&got->level[tc_sec_l3], &v->image, &have);
	at = scored_diff("l3-normalised", &want, &have, report);
	tc_lines_free(&want);
	tc_lines_free(&have);
	return at < 0;
}

/* One level as certify scores it: the default reading, then each
 * alternative reading the vector gives for that level. 1 when one matches. */
static int scored_level(const struct tc_vector *v, int level, const struct tc_output *got)
{
	if (level == 3 ? scored_l3(v, &v->expect[tc_sec_l3], got, 1) : scored_l1(v, NULL, got, 1))
		return 1;
	for (int i = 0; i < v->nalts; i++) {
		int sec = v->alt[i].sec;
		if (level == 3 && sec == tc_sec_l3 && scored_l3(v, &v->alt[i].lines, got, 0))
			return 1;
		if (level == 1 && (sec == tc_sec_l1 || sec == tc_sec_error) && scored_l1(v, v->alt[i].reading, got, 0))
			return 1;
	}
	return 0;
}

/* Warnings are never scored: dropped from both sides (certify does the same). */
static int check_scored(struct tc_vector *v, struct tc_output *got)
{
	int bad = 0;
	tc_vector_drop_warnings(v);
	tc_lines_drop_warnings(&got->level[tc_sec_l1]);
	if (v->has[tc_sec_l1] || v->has[tc_sec_error])
		bad |= !scored_level(v, 1, got);
	if (!bad && v->has[tc_sec_l3])
		bad |= !scored_level(v, 3, got);
	return bad;
}

static void run_vector(struct run *run, const char *path)
{
	struct tc_vector v;
	struct tc_output whole, bytewise, random;
	char err[512];
	int bad = 0;
	run->n++;
	if (tc_vector_load(path, &v, err, sizeof err)) {
		printf("not ok %d - %s\n  ---\n  message: '%s'\n  ...\n", run->n, path, err);
		run->failed++;
		return;
	}
	if (tc_collect(v.proto, v.config, &v.image, v.trace, v.trace_len, 0, &whole) ||
	    tc_collect(v.proto, v.config, &v.image, v.trace, v.trace_len, 1, &bytewise) ||
	    tc_collect(v.proto, v.config, &v.image, v.trace, v.trace_len, -(long)(v.trace_len + 7), &random)) {
		printf("not ok %d - %s\n  ---\n  message: 'decoder rejected the configuration'\n  ...\n",
		       run->n, path);
		run->failed++;
		tc_vector_free(&v);
		return;
	}
	printf("# tags: %s\n", v.tags);
	count_headers(run, &v);
	if (run->scored)
		bad = check_scored(&v, &whole);
	else
		bad = check_streaming(&whole, &bytewise, "one-byte") ||
		      check_streaming(&whole, &random, "random-chunk") || check_expect(&v, &whole);
	printf("%s %d - %s\n", bad ? "not ok" : "ok", run->n, path);
	run->failed += bad;
	tc_output_free(&whole);
	tc_output_free(&bytewise);
	tc_output_free(&random);
	tc_vector_free(&v);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: vectest [--scored] [--first-failure] PATH...\n"
		   "Runs every .tcv vector under each PATH through the reference decoder of its\n"
		   "protocol (whole buffer, one byte at a time, random chunks) and prints TAP;\n"
		   "every section must match exactly, and the three feedings must agree.\n"
		   "  --scored         compare only what `tracecert certify` scores an adapter\n"
		   "                   on: the whole-buffer output, warnings dropped, L1 and its\n"
		   "                   errors as [error strict=...] says, L3 after normalisation,\n"
		   "                   alternative readings accepted\n"
		   "  --first-failure  stop after the first vector that fails (the plan is\n"
		   "                   printed last)\n"
		   "Exit status 1 when a vector fails, 2 for bad usage.\n");
}

int main(int argc, char **argv)
{
	static struct run run;
	char **list = NULL;
	size_t n = 0, ran = 0;
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--scored")) {
			run.scored = 1;
		} else if (!strcmp(argv[i], "--first-failure")) {
			run.first_failure = 1;
		} else {
			fprintf(stderr, "vectest: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}
	for (; i < argc; i++) {
		if (tc_vector_list(argv[i], &list, &n) == 0) {
			fprintf(stderr, "vectest: no vector files at '%s'\n", argv[i]);
			return 2;
		}
	}
	printf("TAP version 13\n");
	if (!run.first_failure)
		printf("1..%zu\n", n);
	for (size_t k = 0; k < n; k++) {
		if (!(run.first_failure && run.failed)) {
			run_vector(&run, list[k]);
			ran++;
		}
		free(list[k]);
	}
	free(list);
	if (run.first_failure)
		printf("1..%zu\n", ran);
	{
		int pos = 0, neg = 0, any = 0;
		for (int h = 0; h < 256; h++) {
			pos += run.positive[h];
			neg += run.negative[h];
			any += run.positive[h] || run.negative[h];
		}
		printf("# header values with a vector: %d/256 (decoded as a packet: %d, rejected as reserved: %d; some are both under different configurations)\n",
		       any, pos, neg);
	}
	return run.failed ? 1 : 0;
}
