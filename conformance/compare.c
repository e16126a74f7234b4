/* SPDX-License-Identifier: BSD-3-Clause */
/* compare.c — a run's output against the vector (L1, L3, errors, alternative readings) and the first divergence. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

const char *const tc_verdict_names[tc_v_count] = {
	"pass", "fail", "crash", "hang", "flood", "adapter-error", "unsupported", "not-run", "pass-alt", "runner-error",
	"malformed"
};

int tc_verdict_is_good(int verdict)
{
	return verdict == tc_v_pass || verdict == tc_v_pass_alt || verdict == tc_v_unsupported ||
	       verdict == tc_v_skipped;
}

void tc_task_diag(struct tc_task *t, const char *fmt, ...)
{
	size_t n = strlen(t->diag);
	va_list ap;
	if (n + 1 >= sizeof t->diag)
		return;
	va_start(ap, fmt);
	vsnprintf(t->diag + n, sizeof t->diag - n, fmt, ap);
	va_end(ap);
}

size_t tc_yaml_text(char *dst, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, left = strlen(s);
	while (left > 0) {
		size_t k = tc_utf8_len(p, left), need = k == 0 || *p < 0x20 || *p == 0x7F ? 4 : *p == '\'' ? 2 : k;
		if (o + need >= n)
			break;
		if (need == 4)
			snprintf(dst + o, n - o, "\\x%02x", *p);
		else if (*p == '\'')
			memcpy(dst + o, "''", 2);
		else
			memcpy(dst + o, p, k);
		o += need;
		k = k ? k : 1;
		p += k;
		left -= k;
	}
	if (n > 0)
		dst[o] = '\0';
	return o;
}

void tc_task_diag_quoted(struct tc_task *t, const char *key, const char *s)
{
	char q[600];
	tc_yaml_text(q, sizeof q, s);
	tc_task_diag(t, "  %s: '%s'\n", key, q);
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted copies of the line pointers of a list (NULL when memory is short). */
static char **sorted_lines(const struct tc_lines *l)
{
	char **a = malloc((l->n + 1) * sizeof *a);
	if (!a)
		return NULL;
	for (size_t i = 0; i < l->n; i++)   /* (an empty list's line may be NULL: no memcpy) */
		a[i] = l->line[i];
	qsort(a, l->n, sizeof *a, cmp_line);
	return a;
}

/* How far apart two outputs are beyond their first difference: the lines
 * of each that the other lacks (missing, extra), counted as multisets
 * (sorted copies merged), so that one wrong line is told from a run that
 * lost sync. */
static void count_unmatched(const struct tc_lines *want, const struct tc_lines *got, size_t *missing, size_t *extra)
{
	char **a = sorted_lines(want), **b = sorted_lines(got);
	size_t i = 0, j = 0;
	*missing = *extra = 0;
	if (!a || !b) {
		free(a);
		free(b);
		*missing = want->n;
		*extra = got->n;
		return;
	}
	while (i < want->n || j < got->n) {
		int c = i == want->n ? 1 : j == got->n ? -1 : strcmp(a[i], b[j]);
		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			(*missing)++;
			i++;
		} else {
			(*extra)++;
			j++;
		}
	}
	free(a);
	free(b);
}

/* The first divergence with a few lines of context, and the size of the
 * whole difference. `section` is what was compared (the YAML block's
 * `level:` is the task's level). */
static void diag_divergence(struct tc_task *t, const char *section, const struct tc_lines *want,
			    const struct tc_lines *got, long at)
{
	long from = at > 2 ? at - 2 : 0;
	size_t missing, extra;
	tc_task_diag(t, "  section: %s\n  line: %ld\n", section, at + 1);
	tc_task_diag_quoted(t, "expected", (size_t)at < want->n ? want->line[at] : "(end of output)");
	tc_task_diag_quoted(t, "got", (size_t)at < got->n ? got->line[at] : "(end of output)");
	tc_task_diag(t, "  context:\n");
	for (long i = from; i < at + 3 && (size_t)i < want->n; i++)
		tc_task_diag(t, "    - '%s%s'\n", i == at ? ">> " : "", want->line[i]);
	count_unmatched(want, got, &missing, &extra);
	tc_task_diag(t, "  expected_lines: %zu\n  got_lines: %zu\n  missing_lines: %zu\n  extra_lines: %zu\n", want->n,
		     got->n, missing, extra);
}

/* The expected lines of a section under a reading (NULL: the default). */
static const struct tc_lines *expected(const struct tc_vector *v, int sec, const char *reading)
{
	for (int i = 0; reading && i < v->nalts; i++)
		if (v->alt[i].sec == sec && !strcmp(v->alt[i].reading, reading))
			return &v->alt[i].lines;
	return &v->expect[sec];
}

static int has_section(const struct tc_vector *v, int sec, const char *reading)
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

/* L3: the shared normalisation of both sides. */
static int compare_l3(struct tc_task *t, const struct tc_vector *v, const struct tc_lines *want_raw,
		      const struct tc_lines *l3, int report)
{
	struct tc_lines want, got;
	long at;
	tc_l3_normalise(want_raw, &v->image, &want);
	tc_l3_normalise(l3, &v->image, &got);
	at = tc_lines_diff(&want, &got);
	if (at >= 0 && report)
		diag_divergence(t, "l3 (normalised)", &want, &got, at);
	tc_lines_free(&want);
	tc_lines_free(&got);
	return at < 0;
}

/* When the errors already differ and L1 is compared for this vector: the
 * first L1 line that differs too, so that one run shows both (a wrong
 * error list would otherwise hide every L1 difference). */
static void also_l1(struct tc_task *t, const struct tc_vector *v, const char *reading, const struct tc_lines *l1)
{
	const struct tc_lines *want = expected(v, tc_sec_l1, reading);
	long at = tc_lines_diff(want, l1);
	if (at < 0)
		return;
	tc_task_diag(t, "  l1_line: %ld\n", at + 1);
	tc_task_diag_quoted(t, "l1_expected", (size_t)at < want->n ? want->line[at] : "(end of output)");
	tc_task_diag_quoted(t, "l1_got", (size_t)at < l1->n ? l1->line[at] : "(end of output)");
}

/* A negative vector with [error strict=class]: the error classes only. */
static int compare_classes(struct tc_task *t, const struct tc_lines *want_err, const struct tc_lines *errs,
			   int report)
{
	struct tc_lines a, b;
	long at;
	classes_only(want_err, &a);
	classes_only(errs, &b);
	at = tc_lines_diff(&a, &b);
	if (at >= 0 && report)
		diag_divergence(t, "l1 errors (class only)", &a, &b, at);
	tc_lines_free(&a);
	tc_lines_free(&b);
	return at < 0;
}

/* L1 of a negative vector: its errors as strictly as the vector says
 * ([error strict=…]); the whole L1 only with strict=resync. A positive
 * vector: its whole L1, and no error. */
static int compare_l1(struct tc_task *t, const struct tc_vector *v, const char *reading, const struct tc_lines *l1,
		      const struct tc_lines *errs, int report)
{
	const struct tc_lines *want_err = expected(v, tc_sec_error, reading);
	int negative = has_section(v, tc_sec_error, reading) && want_err->n > 0;
	int l1_compared;
	long at;
	if (negative && v->error_strict == tc_strict_class)
		return compare_classes(t, want_err, errs, report);
	l1_compared = (!negative || v->error_strict == tc_strict_resync) && has_section(v, tc_sec_l1, reading);
	at = tc_lines_diff(want_err, errs);
	if (at >= 0) {
		if (report) {
			diag_divergence(t, "l1 errors (class offset)", want_err, errs, at);
			if (l1_compared)
				also_l1(t, v, reading, l1);
		}
		return 0;
	}
	if (!l1_compared)
		return 1;
	at = tc_lines_diff(expected(v, tc_sec_l1, reading), l1);
	if (at >= 0 && report)
		diag_divergence(t, "l1", expected(v, tc_sec_l1, reading), l1, at);
	return at < 0;
}

/* Compares one level's output with the vector: the default reading, then
 * each alternative reading the vector gives for that level. */
int tc_compare(struct tc_task *t, const struct tc_vector *v, const struct tc_run_output *out)
{
	int level_sec = t->level == 3 ? tc_sec_l3 : tc_sec_l1;
	if (t->level == 3 ? compare_l3(t, v, &v->expect[tc_sec_l3], &out->l3, 1)
			  : compare_l1(t, v, NULL, &out->l1, &out->errs, 1))
		return tc_v_pass;
	for (int i = 0; i < v->nalts; i++) {
		const char *r = v->alt[i].reading;
		int ok;
		if (v->alt[i].sec != level_sec && !(t->level == 1 && v->alt[i].sec == tc_sec_error))
			continue;
		ok = t->level == 3 ? compare_l3(t, v, &v->alt[i].lines, &out->l3, 0)
				   : compare_l1(t, v, r, &out->l1, &out->errs, 0);
		if (ok) {
			t->diag[0] = '\0';
			tc_task_diag(t, "  reading: '%s'\n", r);
			return tc_v_pass_alt;
		}
	}
	return tc_v_fail;
}
