/* SPDX-License-Identifier: BSD-3-Clause */
/* insn_rows.c — reads the instruction tables of reference/test/insn (gen.sh's .tsv files) into rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_rows.h"
#include "vector.h"
#include "tracecert/trace.h"

/* The words of gen.sh's columns, in the order of enum tc_insn_type and enum tc_isa. */
static const char *const type_words[] = { "other", "dir", "indir", "wfx", "isb", "tstart" };
static const char *const isa_words[] = { "a64", "a32", "t32" };

const char *insn_row_type_word(int type)
{
	return type >= 0 && type < (int)(sizeof type_words / sizeof *type_words) ? type_words[type] : "?";
}

const char *insn_row_isa_word(int isa)
{
	return isa >= 0 && isa < (int)(sizeof isa_words / sizeof *isa_words) ? isa_words[isa] : "?";
}

static int word_index(const char *const *words, int n, const char *w)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(words[i], w))
			return i;
	return -1;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* The bytes column: 2 or 4 bytes, lower-case hex. */
static int parse_bytes(const char *s, struct insn_row *r)
{
	size_t n = strlen(s);
	if (n != 4 && n != 8)
		return -1;
	for (size_t i = 0; i < n; i += 2) {
		int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		r->bytes[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	r->size = (int)n / 2;
	return 0;
}

/* The target column: "-" or a signed hex offset "+0x40", "-0x8000000". */
static int parse_target(const char *s, struct insn_row *r)
{
	char *end;
	unsigned long long v;
	if (!strcmp(s, "-"))
		return 0;
	if ((s[0] != '+' && s[0] != '-') || s[1] != '0' || s[2] != 'x')
		return -1;
	errno = 0;
	v = strtoull(s + 3, &end, 16);
	if (errno || *end || end == s + 3 || v > 0x80000000ull)
		return -1;
	r->has_target = 1;
	r->target = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Splits line at tabs into at most n fields; returns how many. */
static int split(char *line, char **f, int n)
{
	int k = 0;
	while (k < n) {
		f[k++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return k;
}

/* offset, bytes, size, type, link, cond, next_isa, target, source (gen.sh). */
static const char *parse_row(char *line, int isa, struct insn_row *r)
{
	char *f[10], *end;
	memset(r, 0, sizeof *r);
	if (split(line, f, 10) != 9)
		return "9 tab-separated columns";
	r->offset = (uint32_t)strtoul(f[0], &end, 16);
	if (*end || end == f[0])
		return "a hex offset in column 1";
	if (parse_bytes(f[1], r) || atoi(f[2]) != r->size)
		return "2 or 4 bytes of hex in column 2, their count in column 3";
	r->type = word_index(type_words, (int)(sizeof type_words / sizeof *type_words), f[3]);
	if (r->type < 0)
		return "a type in column 4 (other, dir, indir, wfx, isb, tstart)";
	if (strlen(f[4]) != 1 || strlen(f[5]) != 1 || (f[4][0] != '0' && f[4][0] != '1') ||
	    (f[5][0] != '0' && f[5][0] != '1'))
		return "0 or 1 in columns 5 (link) and 6 (cond)";
	r->link = f[4][0] == '1';
	r->cond = f[5][0] == '1';
	r->isa = isa;
	r->next_isa = word_index(isa_words, 3, f[6]);
	if (r->next_isa < 0)
		return "an instruction set in column 7 (a64, a32, t32)";
	if (parse_target(f[7], r) || r->has_target != (r->type == tc_insn_branch_dir))
		return "a signed hex target in column 8 for a direct branch, '-' for the others";
	if (strlen(f[8]) >= sizeof r->source || !strchr(f[8], ':'))
		return "the source (FILE.S:LINE text) in column 9";
	snprintf(r->source, sizeof r->source, "%s", f[8]);
	return NULL;
}

/* The table file whole (tc_text_read: lines of any length), NUL bytes
 * refused. 0, or -1 with why. */
static int read_table(const char *path, int isa, char **text, size_t *len, char *err, size_t errlen)
{
	char why[300];
	FILE *f = isa < 0 ? NULL : fopen(path, "rb");
	int rc = -1;
	if (!f)
		snprintf(err, errlen, "cannot open '%s': %s", path, isa < 0 ? "not a table name" : strerror(errno));
	else if (tc_text_read(f, TC_VECTOR_MAX_BYTES, "an instruction table", text, len, why, sizeof why) != 0)
		snprintf(err, errlen, "'%s': %s", path, why);
	else if (memchr(*text, '\0', *len))
		snprintf(err, errlen, "%s: byte offset %zu: a NUL byte (a table is text)", path,
			 (size_t)((char *)memchr(*text, '\0', *len) - *text));
	else
		rc = 0;
	if (rc != 0 && f && *text) {
		free(*text);
		*text = NULL;
	}
	if (f)
		fclose(f);
	return rc;
}

int insn_table_load(const char *dir, const char *name, struct insn_table *t, char *err, size_t errlen)
{
	char path[600], *text = NULL, *at, *line;
	size_t cap = 0, len = 0;
	int lineno = 0;
	memset(t, 0, sizeof *t);
	t->isa = word_index(isa_words, 3, name);
	snprintf(path, sizeof path, "%s/%s.tsv", dir, name);
	if (read_table(path, t->isa, &text, &len, err, errlen))
		return -1;
	for (at = text; (line = tc_text_line(&at, text + len)) != NULL;) {
		const char *why;
		lineno++;
		if (line[0] == '#' || !line[0])
			continue;
		if (t->n == cap) {
			struct insn_row *r = realloc(t->row, (cap = cap ? 2 * cap : 256) * sizeof *r);
			if (!r) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto fail;
			}
			t->row = r;
		}
		why = parse_row(line, t->isa, &t->row[t->n]);
		if (why) {
			snprintf(err, errlen, "%s:%d: expected %s", path, lineno, why);
			goto fail;
		}
		t->n++;
	}
	free(text);
	return 0;
fail:
	free(text);
	insn_table_free(t);
	return -1;
}

void insn_table_free(struct insn_table *t)
{
	free(t->row);
	memset(t, 0, sizeof *t);
}
