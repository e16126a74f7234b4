/* SPDX-License-Identifier: BSD-3-Clause */
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

static struct tc_l3 random_item(uint64_t *s)
{
	struct tc_l3 b;
	memset(&b, 0, sizeof b);
	b.h.size = sizeof b;
	b.h.kind = (uint16_t)(next(s) % tc_l3_kind_count);
	b.h.offset = any_value(s);
	b.first = any_value(s);
	b.last = any_value(s);
	b.count = any_value(s);
	b.address = any_value(s);
	b.value = any_value(s);
	b.ctx.context_id = (uint32_t)next(s);
	b.ctx.vmid = (uint32_t)next(s);
	b.ctx.el = (uint8_t)(next(s) & 15);
	b.ctx.ns = (uint8_t)(next(s) & 1);
	b.ctx.sf = (uint8_t)(next(s) & 1);
	b.ctx.nse = (uint8_t)(next(s) & 1);
	b.isa = (uint8_t)(next(s) % 3);
	b.last_type = (uint8_t)(next(s) % 6);
	b.taken = (uint8_t)(next(s) & 3);
	b.type = (uint16_t)(next(s) & 0x1ff);
	b.unknown = (uint8_t)(next(s) & 1);
	b.error = (uint8_t)(1 + next(s) % (tc_ete_err_count - 1));
	b.interrupt = (uint8_t)(next(s) & 1);
	b.has_tval = (uint8_t)(next(s) & 1);
	if (b.h.kind == tc_l3_instrumentation)
		b.ctx.el &= 3;
	return b;
}

/* One item of each kind and the line reference/L3FORMAT.md gives for it,
 * written here by hand. */
static void test_known_lines(void)
{
	static const char *const want[] = {
		"@7 range first=0x1000 last=0x1008 n=3 isa=t32 type=indir taken=E",
		"@7 exception type=0x1e ret=0xffffffffffffffff",
		"@7 context el=2 ns=1 sf=0 ctxid=0xabc vmid=0x0 nse=1",
		"@7 trace-on", "@7 discard", "@7 overflow",
		"@7 no-image addr=0x0 isa=a64", "@7 walk-limit addr=0x10 isa=a32",
		"@7 timestamp ts=0xff cc=unknown", "@7 cycle-count n=0", "@7 event n=3",
		"@7 trans-start", "@7 trans-commit", "@7 trans-failure", "@7 ts-marker",
		"@7 instrumentation el=3 value=0x0", "@7 unresolved n=18446744073709551615",
		"@7 error class=sbz", "@7 exception-return", "@7 trigger", "@7 trace-off",
	};
	int good = 0;
	for (int k = 0; k < tc_l3_kind_count; k++) {
		struct tc_l3 x;
		char buf[256];
		memset(&x, 0, sizeof x);
		x.h.kind = (uint16_t)k;
		x.h.offset = 7;
		switch (k) {
		case tc_l3_range:
			x.first = 0x1000, x.last = 0x1008, x.count = 3, x.isa = tc_isa_t32;
			x.last_type = tc_insn_branch_indir, x.taken = tc_taken_e;
			break;
		case tc_l3_exception: x.type = 0x1e, x.address = UINT64_MAX; break;
		case tc_l3_context: x.ctx.el = 2, x.ctx.ns = 1, x.ctx.nse = 1, x.ctx.context_id = 0xabc; break;
		case tc_l3_walk_limit: x.address = 0x10, x.isa = tc_isa_a32; break;
		case tc_l3_timestamp: x.value = 0xff, x.unknown = 1; break;
		case tc_l3_event: x.count = 3; break;
		case tc_l3_instrumentation: x.ctx.el = 3; break;
		case tc_l3_unresolved: x.count = UINT64_MAX; break;
		case tc_l3_error: x.error = tc_ete_err_sbz; break;
		default: break;
		}
		tc_l3_format(buf, sizeof buf, &x, error_names, tc_ete_err_count);
		if (!strcmp(buf, want[k]))
			good++;
		else
			note("kind %d: '%s', FORMAT.md: '%s'", k, buf, want[k]);
	}
	ok(good == tc_l3_kind_count, "one item of each kind prints as FORMAT.md says (%d/%d)", good, tc_l3_kind_count);
}

/* The optional fields of `exception` (L3FORMAT.md "Optional fields"): interrupt=1 only when set,
 * tval only when traced, in that order after ret; each line written by hand from the table. */
static void test_exception_fields(void)
{
	static const struct {
		uint8_t interrupt, has_tval, unknown;
		uint64_t tval;
		const char *line;
	} cases[] = {
		{ 0, 0, 0, 0, "@3 exception type=0x7 ret=0x80000010" },
		{ 1, 0, 0, 0, "@3 exception type=0x7 ret=0x80000010 interrupt=1" },
		{ 0, 1, 0, 0, "@3 exception type=0x7 ret=0x80000010 tval=0x0" },
		{ 1, 1, 1, 0xffffffffffffffffu, "@3 exception type=0x7 ret=unknown interrupt=1 tval=0xffffffffffffffff" },
		{ 0, 1, 1, 0x1234, "@3 exception type=0x7 ret=unknown tval=0x1234" },
	};
	int written = 0, read = 0, n = (int)(sizeof cases / sizeof cases[0]);
	for (int i = 0; i < n; i++) {
		struct tc_l3 x, y;
		char buf[256];
		memset(&x, 0, sizeof x);
		x.h.kind = tc_l3_exception;
		x.h.offset = 3;
		x.type = 7;
		x.address = 0x80000010;
		x.unknown = cases[i].unknown;
		x.interrupt = cases[i].interrupt;
		x.has_tval = cases[i].has_tval;
		x.value = cases[i].tval;
		if (x.unknown)
			x.address = 0;
		tc_l3_format(buf, sizeof buf, &x, error_names, tc_ete_err_count);
		if (!strcmp(buf, cases[i].line))
			written++;
		else
			note("written '%s', want '%s'", buf, cases[i].line);
		if (tc_l3_parse(cases[i].line, &y, error_names, tc_ete_err_count) == 0 && y.interrupt == x.interrupt &&
		    y.has_tval == x.has_tval && y.value == x.value && y.unknown == x.unknown && y.address == x.address &&
		    y.type == 7)
			read++;
		else
			note("not read back as written: '%s'", cases[i].line);
	}
	ok(written == n, "exception: interrupt=1 and tval= written only when set, after ret (%d/%d)", written, n);
	ok(read == n, "exception: each line reads back to the item's fields (%d/%d)", read, n);
}

/* `el` is a privilege level 0..15 in a context line (L3FORMAT.md "The privilege level `el`"). */
static void test_context_el(void)
{
	struct tc_l3 x;
	int good = 0;
	for (int el = 0; el <= 15; el++) {
		char line[96];
		snprintf(line, sizeof line, "@0 context el=%d ns=0 sf=0 ctxid=0x0 vmid=0x0", el);
		good += tc_l3_parse(line, &x, error_names, tc_ete_err_count) == 0 && x.ctx.el == el;
	}
	ok(good == 16, "context el=0..15 read back (%d/16)", good);
	ok(tc_l3_parse("@0 context el=16 ns=0 sf=0 ctxid=0x0 vmid=0x0", &x, error_names, tc_ete_err_count) != 0 &&
	   tc_l3_parse("@0 instrumentation el=4 value=0x0", &x, error_names, tc_ete_err_count) != 0,
	   "context el=16 and instrumentation el=4 are refused");
}

/* The comparison (conformance/l3norm.c, L3FORMAT.md "Optional fields"): the optional fields are
 * tokens like any other. An expected interrupt=1 or tval fails a decoder that leaves it out, and one
 * that writes a tval the vector does not expect fails too; a line without them is compared as
 * before. Returns tc_lines_diff of the two normalised one-line texts (-1: equal). */
static long compare_one(const char *want, const char *got)
{
	struct tc_lines w, g, wn, gn;
	struct tc_image img;
	long d;
	memset(&w, 0, sizeof w);
	memset(&g, 0, sizeof g);
	memset(&img, 0, sizeof img);
	tc_lines_add_text(&w, want);
	tc_lines_add_text(&g, got);
	tc_l3_normalise(&w, &img, &wn);
	tc_l3_normalise(&g, &img, &gn);
	d = tc_lines_diff(&wn, &gn);
	tc_lines_free(&w);
	tc_lines_free(&g);
	tc_lines_free(&wn);
	tc_lines_free(&gn);
	return d;
}

static void test_compare_fields(void)
{
	ok(compare_one("@8 exception type=0x7 ret=0x1008 interrupt=1 tval=0x0  # a comment",
		       "@9 exception type=0x7 ret=0x1008 interrupt=1 tval=0x0") < 0,
	   "compare: the same fields match (offsets and comments aside)");
	ok(compare_one("@8 exception type=0x7 ret=0x1008 interrupt=1", "@8 exception type=0x7 ret=0x1008") >= 0,
	   "compare: an expected interrupt=1 that the decoder omits fails");
	ok(compare_one("@8 exception type=0x7 ret=0x1008 tval=0x0", "@8 exception type=0x7 ret=0x1008") >= 0,
	   "compare: an expected tval that the decoder omits fails");
	ok(compare_one("@8 exception type=0x7 ret=0x1008", "@8 exception type=0x7 ret=0x1008 tval=0x0") >= 0,
	   "compare: a tval the vector does not expect (not traced) fails");
	ok(compare_one("@8 exception type=0x7 ret=0x1008 tval=0x2000", "@8 exception type=0x7 ret=0x1008 tval=0x2001") >= 0,
	   "compare: a different tval fails");
	ok(compare_one("@3 exception type=0x1e ret=unknown", "@3 exception type=0x1e ret=unknown") < 0 &&
	   compare_one("@3 trace-off", "@3 trace-on") >= 0,
	   "compare: a line without the fields as before; trace-off is not trace-on");
}

/* What the writer prints parses back to a line that prints the same. */
static void test_round_trip(void)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	int round = 0, n = 20000;
	for (int i = 0; i < n; i++) {
		struct tc_l3 b = random_item(&s), c;
		char y[256], z[256];
		tc_l3_format(y, sizeof y, &b, error_names, tc_ete_err_count);
		if (tc_l3_parse(y, &c, error_names, tc_ete_err_count) == 0) {
			tc_l3_format(z, sizeof z, &c, error_names, tc_ete_err_count);
			round += !strcmp(y, z);
		} else if (round == i) {
			note("does not parse: '%s'", y);
		}
	}
	ok(round == n, "random items of every kind: every line printed parses back to the same line (%d/%d)", round, n);
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
		"@1 context el=16 ns=0 sf=0 ctxid=0x0 vmid=0x0",
		"@1 exception type=0x1 ret=0x0 interrupt=0",   /* interrupt is written only when set */
		"@1 exception type=0x1 ret=0x0 interrupt=2",
		"@1 exception type=0x1 ret=0x0 tval=0x1 interrupt=1",   /* the writer's order only */
		"@1 exception type=0x1 ret=0x0 tval=",
		"@1 exception type=0x1 ret=0x0 tval=5",
		"@1 exception type=0x10000 ret=0x0",
		"@1 trace-off extra",
		"@1 context el=1 ns=0 sf=0 ctxid=0x100000000 vmid=0x0",
		"@1 context el=1 ns=0 sf=0 ctxid=0x0 vmid=0x0 nse=0",   /* nse is written only when set */
		"@1 context el=1 ns=0 sf=0 ctxid=0x0 vmid=0x0 nse=2",
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
	char **list = NULL, err[600];
	size_t n = 0, lines = 0, good = 0;
	ok(tc_vector_list(dir, &list, &n, err, sizeof err) > 0, "the vectors under %s are listed (%s)", dir, n ? "" : err);
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		char err[256];
		if (tc_vector_load(list[i], &v, err, sizeof err) == 0) {
			for (size_t k = 0; k < v.expect[tc_sec_l3].n; k++) {
				const char *line = v.expect[tc_sec_l3].line[k];
				struct tc_l3 x;
				char buf[256];
				lines++;
				if (tc_l3_parse(line, &x, v.proto->error_names, v.proto->nerrors) == 0 &&
				    tc_l3_format(buf, sizeof buf, &x, v.proto->error_names, v.proto->nerrors) > 0 &&
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
	test_known_lines();
	test_exception_fields();
	test_context_el();
	test_compare_fields();
	test_round_trip();
	test_truncation();
	test_bad_lines();
	test_vectors(argc > 1 ? argv[1] : "vectors");
	return tap_finish();
}
