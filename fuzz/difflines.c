/* SPDX-License-Identifier: BSD-3-Clause */
/* difflines.c — formatted L1 lines for the differential harness and its rules (diff.h): a line list, tokens, fields. */
#include <stdlib.h>
#include <string.h>

#include "diff.h"

void tc_diff_lines_add(struct tc_diff_lines *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2 + 4096;
		l->buf = realloc(l->buf, l->cap);
		TC_FUZZ_CHECK(l->buf != NULL, "out of memory");
	}
	if (l->n == l->ncap) {
		l->ncap = l->ncap * 2 + 64;
		l->off = realloc(l->off, l->ncap * sizeof *l->off);
		TC_FUZZ_CHECK(l->off != NULL, "out of memory");
	}
	l->off[l->n++] = l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len++] = '\0';
}

void tc_diff_lines_free(struct tc_diff_lines *l)
{
	free(l->buf);
	free(l->off);
	memset(l, 0, sizeof *l);
}

const char *tc_diff_line_at(const struct tc_diff_lines *l, size_t i)
{
	return i < l->n ? l->buf + l->off[i] : NULL;
}

const char *tc_diff_token(const char *s, int n, size_t *len)
{
	for (int i = 0; s && *s; i++) {
		size_t k;
		while (*s == ' ')
			s++;
		k = strcspn(s, " ");
		if (i == n) {
			*len = k;
			return k ? s : NULL;
		}
		s += k;
	}
	*len = 0;
	return NULL;
}

const char *tc_diff_field(const char *line, const char *key, size_t klen, size_t *vlen)
{
	size_t len;
	const char *t;
	for (int i = 3; (t = tc_diff_token(line, i, &len)) != NULL; i++) {
		if (len > klen && t[klen] == '=' && !strncmp(t, key, klen)) {
			*vlen = len - klen - 1;
			return t + klen + 1;
		}
	}
	return NULL;
}

int tc_diff_kind_is(const char *line, const char *kind)
{
	size_t k = 0;
	const char *t = tc_diff_token(line, 2, &k);
	return t && k == strlen(kind) && !memcmp(t, kind, k);
}

uint64_t tc_diff_line_offset(const char *line)
{
	return line && line[0] == '@' ? strtoull(line + 1, NULL, 10) : 0;
}
