/* SPDX-License-Identifier: BSD-3-Clause */
/* jsonread.c — a reader of JSON text (RFC 8259) into a tree of values, for certify --merge's shard files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

#define JR_DEPTH 32

struct jr {
	const char *p;
	const char *end;
	const char *start;
	char *err;
	size_t errlen;
	int failed;
};

static int jr_fail(struct jr *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err, r->errlen, "byte offset %zu: %s", (size_t)(r->p - r->start), what);
	r->failed = 1;
	return -1;
}

static void jr_blank(struct jr *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

/* A growing byte buffer for a string's decoded bytes. */
struct jbuf {
	char *b;
	size_t n, cap;
};

static int jbuf_put(struct jbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *nb;
		while (cap < b->n + n + 1)
			cap *= 2;
		if (!(nb = realloc(b->b, cap)))
			return -1;
		b->b = nb;
		b->cap = cap;
	}
	memcpy(b->b + b->n, s, n);
	b->n += n;
	b->b[b->n] = '\0';
	return 0;
}

/* Four hex digits at p; -1 when they are not. */
static long hex4(const char *p)
{
	long v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Code point cp (a \u escape, surrogate pairs joined) as UTF-8 into b;
 * U+FFFD as the byte 0xFF (jsonread.h). */
static int put_code_point(struct jbuf *b, unsigned long cp)
{
	char u[4];
	if (cp == 0xFFFD)
		return jbuf_put(b, "\xff", 1);
	if (cp < 0x80) {
		u[0] = (char)cp;
		return jbuf_put(b, u, 1);
	}
	if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		return jbuf_put(b, u, 2);
	}
	if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		return jbuf_put(b, u, 3);
	}
	u[0] = (char)(0xF0 | (cp >> 18));
	u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	u[3] = (char)(0x80 | (cp & 0x3F));
	return jbuf_put(b, u, 4);
}

/* A \u escape after the backslash and 'u' (RFC 8259 section 7); an error
 * names the offset of its backslash, at. */
static int jr_unicode(struct jr *r, struct jbuf *b, const char *at)
{
	long hi = r->end - r->p >= 4 ? hex4(r->p) : -1, lo;
	if (hi < 0)
		return r->p = at, jr_fail(r, "\\u is not followed by four hex digits");
	r->p += 4;
	if (hi == 0)
		return r->p = at, jr_fail(r, "\\u0000 (a NUL byte) in a string");
	if (hi >= 0xDC00 && hi <= 0xDFFF)
		return r->p = at, jr_fail(r, "a low surrogate without a high one");
	if (hi >= 0xD800 && hi <= 0xDBFF) {
		lo = r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u' ? hex4(r->p + 2) : -1;
		if (lo < 0xDC00 || lo > 0xDFFF)
			return r->p = at, jr_fail(r, "a high surrogate without a low one");
		r->p += 6;
		return put_code_point(b, 0x10000 + (((unsigned long)hi - 0xD800) << 10) + ((unsigned long)lo - 0xDC00));
	}
	return put_code_point(b, (unsigned long)hi);
}

static int jr_string(struct jr *r, char **out)
{
	struct jbuf b = { NULL, 0, 0 };
	r->p++;   /* the opening quote */
	if (jbuf_put(&b, "", 0))
		return jr_fail(r, "out of memory");
	while (r->p < r->end && *r->p != '"') {
		const char *at = r->p;
		unsigned char c = (unsigned char)*r->p++;
		const char *esc = "\"\"\\\\//b\bf\fn\nr\rt\t", *e;
		char ch;
		int bad = 0;
		if (c < 0x20) {
			r->p = at;
			bad = jr_fail(r, "a control character in a string");
		} else if (c != '\\') {
			ch = (char)c;
			bad = jbuf_put(&b, &ch, 1);
		} else if (r->p < r->end && *r->p == 'u') {
			r->p++;
			bad = jr_unicode(r, &b, at);
		} else if (r->p < r->end && *r->p && (e = strchr(esc, *r->p)) && (e - esc) % 2 == 0) {
			r->p++;
			bad = jbuf_put(&b, e + 1, 1);
		} else {
			r->p = at;
			bad = jr_fail(r, "an unknown escape in a string");
		}
		if (bad) {
			free(b.b);
			return jr_fail(r, "out of memory");
		}
	}
	if (r->p >= r->end) {
		free(b.b);
		return jr_fail(r, "a string without its closing quote");
	}
	r->p++;
	*out = b.b;
	return 0;
}

/* A number (RFC 8259 section 6): its text kept, its value read. */
static int jr_number(struct jr *r, struct tc_jv *v)
{
	const char *s = r->p;
	size_t len;
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return jr_fail(r, "a value (object, array, string, number, true, false or null)");
	if (*r->p == '0')
		r->p++;
	else
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return jr_fail(r, "a digit after the decimal point");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E'))
		return jr_fail(r, "a number without an exponent (certificates write none)");
	len = (size_t)(r->p - s);
	if (!(v->s = malloc(len + 1)))
		return jr_fail(r, "out of memory");
	memcpy(v->s, s, len);
	v->s[len] = '\0';
	v->num = strtod(v->s, NULL);
	v->type = tc_j_number;
	return 0;
}

static int jr_value(struct jr *r, struct tc_jv *v, int depth);

/* The members of an array or object (after its bracket). */
static int jr_members(struct jr *r, struct tc_jv *v, int depth, char close)
{
	size_t cap = 0;
	r->p++;
	jr_blank(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			size_t nc = cap ? 2 * cap : 8;
			struct tc_jv *ni = realloc(v->item, nc * sizeof *ni);
			char **nk = ni && close == '}' ? realloc(v->key, nc * sizeof *nk) : NULL;
			if (ni)
				v->item = ni;
			if (nk)
				v->key = nk;
			if (!ni || (close == '}' && !nk))
				return jr_fail(r, "out of memory");
			cap = nc;
		}
		memset(&v->item[v->n], 0, sizeof v->item[v->n]);
		jr_blank(r);
		if (close == '}') {
			if (r->p >= r->end || *r->p != '"')
				return jr_fail(r, "a member name (a string)");
			if (jr_string(r, &v->key[v->n]))
				return -1;
			jr_blank(r);
			if (r->p >= r->end || *r->p != ':')
				return v->n++, jr_fail(r, "':' after a member name");
			r->p++;
		}
		v->n++;
		if (jr_value(r, &v->item[v->n - 1], depth + 1))
			return -1;
		jr_blank(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return 0;
		}
		return jr_fail(r, close == '}' ? "',' or '}'" : "',' or ']'");
	}
}

static int jr_literal(struct jr *r, struct tc_jv *v, const char *word, enum tc_jtype type, double num)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n))
		return jr_fail(r, "a value (object, array, string, number, true, false or null)");
	r->p += n;
	v->type = type;
	v->num = num;
	return 0;
}

static int jr_value(struct jr *r, struct tc_jv *v, int depth)
{
	jr_blank(r);
	if (depth > JR_DEPTH)
		return jr_fail(r, "nesting deeper than 32");
	if (r->p >= r->end)
		return jr_fail(r, "a value, not the end of the text");
	switch (*r->p) {
	case '{': v->type = tc_j_object; return jr_members(r, v, depth, '}');
	case '[': v->type = tc_j_array; return jr_members(r, v, depth, ']');
	case '"': v->type = tc_j_string; return jr_string(r, &v->s);
	case 't': return jr_literal(r, v, "true", tc_j_bool, 1);
	case 'f': return jr_literal(r, v, "false", tc_j_bool, 0);
	case 'n': return jr_literal(r, v, "null", tc_j_null, 0);
	default: return jr_number(r, v);
	}
}

int tc_json_parse(const char *text, size_t n, struct tc_jv *v, char *err, size_t errlen)
{
	struct jr r = { text, text + n, text, err, errlen, 0 };
	memset(v, 0, sizeof *v);
	if (jr_value(&r, v, 0) == 0) {
		jr_blank(&r);
		if (r.p == r.end)
			return 0;
		jr_fail(&r, "the end of the text after the value");
	}
	tc_json_free(v);
	return -1;
}

void tc_json_free(struct tc_jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		tc_json_free(&v->item[i]);
		if (v->key)
			free(v->key[i]);
	}
	free(v->item);
	free(v->key);
	free(v->s);
	memset(v, 0, sizeof *v);
}

const struct tc_jv *tc_json_get(const struct tc_jv *o, const char *key)
{
	for (size_t i = 0; o && o->type == tc_j_object && i < o->n; i++)
		if (!strcmp(o->key[i], key))
			return &o->item[i];
	return NULL;
}
