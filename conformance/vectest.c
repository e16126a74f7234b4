/* SPDX-License-Identifier: BSD-3-Clause */
/* vectest.c — runs vector files through the reference decoder and prints TAP (version 13, YAML diagnostics), its progress on stderr (conformance/progress.h); with --cuts, proves the reader refuses each vector cut at every byte offset. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "vector.h"

static const char *const level_names[tc_sec_count] = { "l1", "s1", "l2", "l3", "error" };

struct run {
	int n;
	int failed;
	unsigned char positive[256];   /* the byte at a packet's offset in an [expect.l1] */
	unsigned char negative[256];   /* the byte at a reserved-header / exact-match-index error's offset */
};

/* Header coverage from the expected L1 lines, read by the protocol's L1
 * parser (a line it refuses is left to the comparison, which fails it). */
static void count_headers(struct run *run, const struct tc_vector *v)
{
	const struct tc_lines *l = &v->expect[tc_sec_l1];
	const struct tc_protocol *p = v->proto;
	union {
		struct tc_item h;
		uint64_t align[64];
	} r;
	if (p->l1_size > sizeof r)
		return;
	for (size_t i = 0; i < l->n; i++) {
		int cls;
		uint8_t h;
		if (p->parse_l1(l->line[i], &r.h, NULL, 0) || r.h.offset >= v->trace_len ||
		    p->item_is_warning(tc_level_l1, &r.h))
			continue;
		h = v->trace[r.h.offset];
		cls = p->item_error(tc_level_l1, &r.h);
		if (cls == 0)
			run->positive[h] = 1;
		else if (cls < p->nerrors && (!strcmp(p->error_names[cls], "reserved-header") ||
					      !strcmp(p->error_names[cls], "exact-match-index")))
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
	bad = check_streaming(&whole, &bytewise, "one-byte") ||
	      check_streaming(&whole, &random, "random-chunk") || check_expect(&v, &whole);
	printf("%s %d - %s\n", bad ? "not ok" : "ok", run->n, path);
	run->failed += bad;
	tc_output_free(&whole);
	tc_output_free(&bytewise);
	tc_output_free(&random);
	tc_vector_free(&v);
}

/* ---- --cuts: a vector cut at every byte offset never reads ---------------------- */

/* The whole file at path (malloc'd) and its length; NULL with err. */
static char *read_whole(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n = -1;
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		fclose(f);
		*len = (size_t)n;
		return buf;
	}
	snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno ? errno : EIO));
	free(buf);
	if (f)
		fclose(f);
	return NULL;
}

/* The folder of path, for the vector's image files (malloc'd). */
static char *folder(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, slash ? path : ".", n);
		d[n] = '\0';
	}
	return d;
}

/* Reads the first len bytes of text as a vector (tc_vector_read, the
 * reader every tool uses): 0 when they read, -1 with err. */
static int read_prefix(const char *text, size_t len, const char *dir, char *err, size_t errlen)
{
	struct tc_vector v;
	FILE *f = fmemopen((void *)text, len ? len : 1, "r");
	int rc;
	if (!f) {
		snprintf(err, errlen, "fmemopen: %s", strerror(errno));
		return -1;
	}
	if (len == 0)
		fgetc(f);         /* fmemopen needs one byte: read it, so the stream is empty */
	rc = tc_vector_read(f, dir, &v, err, errlen);
	fclose(f);
	if (rc == 0)
		tc_vector_free(&v);
	return rc;
}

/* One TAP line per vector: the whole file reads, and each of its cuts
 * (the first k bytes, every k below its length) is refused. */
static void cut_vector(struct run *run, const char *path)
{
	char err[600] = "", first_err[600] = "";
	size_t len = 0, accepted = 0, first = 0;
	char *text = read_whole(path, &len, err, sizeof err), *dir = folder(path);
	int whole = text && dir ? read_prefix(text, len, dir, first_err, sizeof first_err) : -1;
	run->n++;
	for (size_t k = 0; whole == 0 && k < len; k++)
		if (read_prefix(text, k, dir, err, sizeof err) == 0)
			first = accepted++ ? first : k;
	if (whole != 0 || accepted) {
		printf("not ok %d - %s\n  ---\n", run->n, path);
		if (whole != 0)
			printf("  message: 'the whole file does not read: %s'\n", text ? first_err : err);
		else
			printf("  message: '%zu of its %zu cuts read as a vector, the first %zu bytes long'\n", accepted, len, first);
		printf("  ...\n");
		run->failed++;
	} else {
		printf("ok %d - %s: refused cut at each of its %zu byte offsets\n", run->n, path, len);
	}
	free(text);
	free(dir);
}

/* The vectors of list (n of them) run one by one, counted on stderr (none
 * when quiet, none for a single vector, none when the TAP goes to a
 * terminal: its lines show the progress, and a counter redrawn among them
 * would be torn). */
static void run_list(struct run *run, char **list, size_t n, int quiet)
{
	struct tc_progress prog;
	int shown = !quiet && n > 1 && !isatty(fileno(stdout));
	tc_progress_begin(&prog, shown ? stderr : NULL, "vectest", n < INT_MAX ? (int)n : INT_MAX);
	tc_progress_units(&prog, "vectors", "failing");
	for (size_t i = 0; i < n; i++) {
		int failed = run->failed;
		run_vector(run, list[i]);
		fflush(stdout);   /* each TAP line before the counter that counts it */
		tc_progress_count(&prog, run->failed != failed);
		tc_progress_tick(&prog);
	}
	tc_progress_end(&prog);
}

int main(int argc, char **argv)
{
	static struct run run;
	char **list = NULL, err[600];
	size_t n = 0;
	int quiet = argc > 1 && !strcmp(argv[1], "--quiet");
	int cuts = argc > 1 + quiet && !strcmp(argv[1 + quiet], "--cuts"), first = 1 + quiet + cuts;
	if (argc < first + 1 || !strcmp(argv[1], "--help")) {
		fprintf(argc < first + 1 ? stderr : stdout,
			"usage: vectest [--quiet] PATH...\n"
			"       vectest --cuts FILE...\n"
			"Runs every .tcv vector under each PATH through the reference decoder\n"
			"(whole buffer, one byte at a time, random chunks) and prints TAP; when\n"
			"the TAP does not go to a terminal, its progress on stderr (on a terminal\n"
			"one line redrawn: vectors done of the total, failing so far, vectors/s;\n"
			"elsewhere that line every 5 s; --quiet: none).\n"
			"With --cuts: each FILE must read whole, and every cut of it (its first k\n"
			"bytes, for each k below its length) must be refused by the reader.\n");
		return argc < first + 1 ? 2 : 0;
	}
	if (cuts) {
		printf("TAP version 13\n1..%d\n", argc - first);
		for (int i = first; i < argc; i++)
			cut_vector(&run, argv[i]);
		return run.failed ? 1 : 0;
	}
	for (int i = first; i < argc; i++) {
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "vectest: %s\n", err);
			return 2;
		}
	}
	printf("TAP version 13\n1..%zu\n", n);
	run_list(&run, list, n, quiet);
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
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
