/* SPDX-License-Identifier: BSD-3-Clause */
/* vecround.c — the vector writer's round trip over vector files: read, write, read back the same vector, write the same text; TAP. */
/*
 * usage: vecround [--identical] PATH...
 *
 * For every .tcv file under each PATH: the vector read from it (A) is
 * written (text 1, tc_vector_text) and read back (B); A and B must be the
 * same vector, field by field (description, protocol, every configuration
 * key, tags, trace, image regions, every section and reading, error
 * strictness), and B written again must give text 1 exactly. With
 * --identical the file itself must also be text 1 byte for byte (the files
 * the writer wrote: vectors/<protocol>/gen). What the writer does not keep
 * of a hand-written file (vector.h tc_vector_text): comments other than the
 * description, the layout of hex and lines, registers given in [config],
 * image file names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/tap.h"   /* reference/test/tap.h */
#include "vector.h"

static int same_text(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Notes the first line where two lists differ; 1 when they are the same. */
static int same_lines(const char *what, const struct tc_lines *a, const struct tc_lines *b)
{
	long at = tc_lines_diff(a, b);
	if (at < 0)
		return 1;
	note("  ---\n  section: %s\n  line: %ld\n  read: '%s'\n  read back: '%s'\n  ...\n", what, at + 1,
	     (size_t)at < a->n ? a->line[at] : "(end)", (size_t)at < b->n ? b->line[at] : "(end)");
	return 0;
}

static int same_config(const struct tc_vector *a, const struct tc_vector *b)
{
	if (a->proto != b->proto) {
		note("  # protocol %s, read back %s\n", a->proto->name, b->proto->name);
		return 0;
	}
	for (int k = 0; k < a->proto->nkeys; k++)
		if (tc_config_get(a->proto, a->config, k) != tc_config_get(b->proto, b->config, k)) {
			note("  # configuration key %s differs\n", a->proto->keys[k].name);
			return 0;
		}
	return 1;
}

static int same_image(const struct tc_image *a, const struct tc_image *b)
{
	if (a->n != b->n) {
		note("  # %d image regions, read back %d\n", a->n, b->n);
		return 0;
	}
	for (int i = 0; i < a->n; i++) {
		const struct tc_image_region *x = &a->region[i], *y = &b->region[i];
		if (x->base != y->base || x->size != y->size || memcmp(x->data, y->data, (size_t)x->size)) {
			note("  # image region %d (base 0x%llx) differs\n", i, (unsigned long long)x->base);
			return 0;
		}
	}
	return 1;
}

static int same_sections(const struct tc_vector *a, const struct tc_vector *b)
{
	static const char *const names[tc_sec_count] = { "expect.l1", "expect.s1", "expect.l2", "expect.l3", "error" };
	if (a->error_strict != b->error_strict || a->nalts != b->nalts) {
		note("  # error strictness or number of readings differs\n");
		return 0;
	}
	for (int s = 0; s < tc_sec_count; s++)
		if (a->has[s] != b->has[s] || !same_lines(names[s], &a->expect[s], &b->expect[s]))
			return 0;
	for (int i = 0; i < a->nalts; i++)
		if (a->alt[i].sec != b->alt[i].sec || strcmp(a->alt[i].reading, b->alt[i].reading) ||
		    !same_lines(a->alt[i].reading, &a->alt[i].lines, &b->alt[i].lines))
			return 0;
	return 1;
}

/* Whether a and b are the same vector. */
static int same_vector(const struct tc_vector *a, const struct tc_vector *b)
{
	if (!same_text(a->comment, b->comment) || strcmp(a->tags, b->tags)) {
		note("  # description or tags differ\n");
		return 0;
	}
	if (a->trace_len != b->trace_len || memcmp(a->trace, b->trace, a->trace_len)) {
		note("  # trace differs\n");
		return 0;
	}
	return same_config(a, b) && a->has_image == b->has_image && same_image(&a->image, &b->image) &&
	       same_sections(a, b);
}

/* Reads a vector from text. */
static int read_text(const char *text, struct tc_vector *v, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;
	if (!f) {
		snprintf(err, errlen, "fmemopen failed");
		return -1;
	}
	rc = tc_vector_read(f, ".", v, err, errlen);
	fclose(f);
	return rc;
}

/* The whole file as a string, or NULL. */
static char *file_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (s = malloc((size_t)n + 1)) != NULL) {
		s[fread(s, 1, (size_t)n, f)] = '\0';
	}
	fclose(f);
	return s;
}

/* Write, read back, write again; with identical, the file must be the text. */
static int round_trip(const char *path, const struct tc_vector *a, int identical)
{
	struct tc_vector b;
	char err[600];
	char *t1 = tc_vector_text(a, err, sizeof err), *t2 = NULL, *file = NULL;
	int good = 0;
	if (!t1) {
		note("  # not written: %s\n", err);
		return 0;
	}
	if (read_text(t1, &b, err, sizeof err)) {
		note("  # what the writer wrote does not read: %s\n", err);
		free(t1);
		return 0;
	}
	if (same_vector(a, &b) && (t2 = tc_vector_text(&b, err, sizeof err)) != NULL) {
		good = !strcmp(t1, t2);
		if (!good)
			note("  # written twice, the texts differ\n");
	}
	if (good && identical) {
		file = file_text(path);
		good = file && !strcmp(file, t1);
		if (!good)
			note("  # the file is not the text the writer writes\n");
	}
	free(file);
	free(t2);
	free(t1);
	tc_vector_free(&b);
	return good;
}

int main(int argc, char **argv)
{
	char **files = NULL, err[600];
	size_t n = 0;
	int identical = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--identical"))
			identical = 1;
		else if (tc_vector_list(argv[i], &files, &n, err, sizeof err) == 0)
			ok(0, "%s: %s", argv[i], err);
	}
	if (argc < 2)
		fprintf(stderr, "usage: vecround [--identical] PATH...\n");
	for (size_t i = 0; i < n; i++) {
		struct tc_vector a;
		char err[600];
		if (tc_vector_load(files[i], &a, err, sizeof err)) {
			ok(0, "%s: %s", files[i], err);
		} else {
			ok(round_trip(files[i], &a, identical), "%s", files[i]);
			tc_vector_free(&a);
		}
		free(files[i]);
	}
	free(files);
	if (argc < 2)
		return 2;
	return tap_finish();
}
