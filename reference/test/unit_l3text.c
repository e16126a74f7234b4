/* unit_l3text.c — the shared L3 text writer and parser (reference/l3text.c); prints TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/ete.h"
#include "tracecert/trace.h"
#include "vector.h"

static const char *error_names[tc_ete_err_count];

/* A deterministic pseudo-random source (xorshift64). */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random field values, often small, sometimes extreme. */
static uint64_t any_value(uint64_t *s)
{
	uint64_t v = next(s);
	switch (v & 3) {
	case 0: return v >> 60;
	case 1: return UINT64_MAX - (v >> 62);
	default: return v;
	}
}

static void random_items(uint64_t *s, struct tc_ete_l3 *a, struct tc_l3 *b)
{
	memset(a, 0, sizeof *a);
	a->kind = (uint8_t)(next(s) % tc_ete_l3_count);
	a->offset = any_value(s);
	a->first = any_value(s);
	a->last = any_value(s);
	a->count = any_value(s);
	a->address = any_value(s);
	a->value = any_value(s);
	a->ctx.context_id = (uint32_t)next(s);
	a->ctx.vmid = (uint32_t)next(s);
	a->ctx.el = (uint8_t)(next(s) & 3);
	a->ctx.ns = (uint8_t)(next(s) & 1);
	a->ctx.sf = (uint8_t)(next(s) & 1);
	a->isa = (uint8_t)(next(s) % 3);
	a->last_type = (uint8_t)(next(s) % 6);
	a->taken = (uint8_t)(next(s) & 3);
	a->type = (uint8_t)(next(s) & 0x1f);
	a->unknown = (uint8_t)(next(s) & 1);
	a->error = (uint8_t)(1 + next(s) % (tc_ete_err_count - 1));
	memset(b, 0, sizeof *b);
	b->h.size = sizeof *b;
	b->h.kind = a->kind;
	b->h.offset = a->offset;
	b->first = a->first;
	b->last = a->last;
	b->count = a->count;
	b->address = a->address;
	b->value = a->value;
	b->ctx.context_id = a->ctx.context_id;
	b->ctx.vmid = a->ctx.vmid;
	b->ctx.el = a->ctx.el;
	b->ctx.ns = a->ctx.ns;
	b->ctx.sf = a->ctx.sf;
	b->isa = a->isa;
	b->last_type = a->last_type;
	b->taken = a->taken;
	b->type = a->type;
	b->unknown = a->unknown;
	b->error = a->error;
}

/* The new writer prints what ETE's printf-based one prints, byte for byte,
 * and parses back to a line that prints the same. */
static void test_same_as_ete(void)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	int same = 0, round = 0, n = 20000;
	for (int i = 0; i < n; i++) {
		struct tc_ete_l3 a;
		struct tc_l3 b, c;
		char x[256], y[256], z[256];
		random_items(&s, &a, &b);
		tc_ete_format_l3(x, sizeof x, &a);
		tc_l3_format(y, sizeof y, &b, error_names, tc_ete_err_count);
		if (!strcmp(x, y))
			same++;
		else if (same == i)
			note("first difference: ete '%s', shared '%s'", x, y);
		if (tc_l3_parse(y, &c, error_names, tc_ete_err_count) == 0) {
			tc_l3_format(z, sizeof z, &c, error_names, tc_ete_err_count);
			round += !strcmp(y, z);
		} else if (round == i) {
			note("does not parse: '%s'", y);
		}
	}
	ok(same == n, "random items of every kind: the shared writer prints ETE's text (%d/%d)", same, n);
	ok(round == n, "every line it prints parses back to the same line (%d/%d)", round, n);
}

/* snprintf's contract: the length needed, at most size-1 characters and a NUL. */
static void test_truncation(void)
{
	struct tc_l3 x;
	char full[256], small[256];
	int n, good = 1;
	memset(&x, 0, sizeof x);
	x.h.kind = tc_l3_range;
	x.h.offset = 123456;
	x.first = 0x1000;
	x.last = 0xffffffffffffffffu;
	x.count = 42;
	n = tc_l3_format(full, sizeof full, &x, error_names, tc_ete_err_count);
	for (size_t size = 0; size <= (size_t)n + 1; size++) {
		memset(small, 'X', sizeof small);
		if (tc_l3_format(small, size, &x, error_names, tc_ete_err_count) != n)
			good = 0;
		if (size > 0 && (strlen(small) != (size - 1 < (size_t)n ? size - 1 : (size_t)n) ||
				 strncmp(small, full, strlen(small))))
			good = 0;
		if (small[size] != 'X')
			good = 0;
	}
	ok(good, "every buffer size: the needed length, a NUL-terminated prefix, nothing past the buffer");
}

static void test_bad_lines(void)
{
	static const char *const bad[] = {
		"", "@", "@12", "@12 ", "@x range", "range", "@1 range first=0x1", "@1 bogus",
		"@1 range first=0x1 last=0x2 n=3 isa=a64 type=dir taken=E extra",
		"@1 range first=0x1 last=0x2 n=3 isa=a65 type=dir taken=E",
		"@1 range first=1 last=0x2 n=3 isa=a64 type=dir taken=E",
		"@1 context el=4 ns=0 sf=0 ctxid=0x0 vmid=0x0",
		"@1 context el=1 ns=0 sf=0 ctxid=0x100000000 vmid=0x0",
		"@1 error class=nonsense", "@1 event n=", "@1 event n=18446744073709551616",
		"@1 timestamp ts=0x10000000000000000 cc=1", "@1 trace-on ", "@1  trace-on",
	};
	int rejected = 0, n = (int)(sizeof bad / sizeof bad[0]);
	for (int i = 0; i < n; i++) {
		struct tc_l3 x;
		if (tc_l3_parse(bad[i], &x, error_names, tc_ete_err_count) != 0)
			rejected++;
		else
			note("accepted: '%s'", bad[i]);
	}
	ok(rejected == n, "malformed lines are rejected (%d/%d)", rejected, n);
}

/* Every [expect.l3] line of every vector parses and prints back unchanged. */
static void test_vectors(const char *dir)
{
	char **list = NULL;
	size_t n = 0, lines = 0, good = 0;
	tc_vector_list(dir, &list, &n);
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		char err[256];
		if (tc_vector_load(list[i], &v, err, sizeof err) == 0) {
			for (size_t k = 0; k < v.expect[tc_sec_l3].n; k++) {
				const char *line = v.expect[tc_sec_l3].line[k];
				struct tc_l3 x;
				char buf[256];
				lines++;
				if (tc_l3_parse(line, &x, error_names, tc_ete_err_count) == 0 &&
				    tc_l3_format(buf, sizeof buf, &x, error_names, tc_ete_err_count) > 0 &&
				    !strcmp(buf, line))
					good++;
				else if (good + 1 == lines)
					note("%s: '%s'", list[i], line);
			}
			tc_vector_free(&v);
		}
		free(list[i]);
	}
	free(list);
	ok(lines > 1000 && good == lines, "every expected L3 line of %zu vectors parses and prints back (%zu/%zu)", n,
	   good, lines);
}

int main(int argc, char **argv)
{
	for (int i = 0; i < tc_ete_err_count; i++)
		error_names[i] = tc_ete_error_name(i);
	test_same_as_ete();
	test_truncation();
	test_bad_lines();
	test_vectors(argc > 1 ? argv[1] : "vectors");
	return tap_finish();
}
