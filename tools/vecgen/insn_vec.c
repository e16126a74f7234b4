/* SPDX-License-Identifier: BSD-3-Clause */
/* insn_vec.c — a vector of the instruction tables being laid out, and its writing through the one .tcv writer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn_vec.h"
#include "vector.h"

/* ---- Text ----------------------------------------------------------------------- */

static void text_vprintf(struct insn_text *t, const char *fmt, va_list ap)
{
	va_list again;
	int n;
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 1024;
		char *p;
		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		p = realloc(t->p, cap);
		if (!p)
			abort();   /* a few hundred kilobytes at most: a generator out of memory has nothing to write */
		t->p = p;
		t->cap = cap;
	}
	vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
	t->len += (size_t)n;
}

void insn_text_printf(struct insn_text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	text_vprintf(t, fmt, ap);
	va_end(ap);
}

void insn_text_free(struct insn_text *t)
{
	free(t->p);
	memset(t, 0, sizeof *t);
}

/* ---- The vector ------------------------------------------------------------------- */

void insn_vec_init(struct insn_vec *v, const char *name, int protocol)
{
	memset(v, 0, sizeof *v);
	snprintf(v->name, sizeof v->name, "%s", name);
	v->protocol = protocol;
}

void insn_vec_free(struct insn_vec *v)
{
	insn_text_free(&v->head);
	insn_text_free(&v->l3);
	free(v->pkt);
	free(v->img);
	memset(v, 0, sizeof *v);
}

void insn_vec_fail(struct insn_vec *v, const char *fmt, ...)
{
	va_list ap;
	if (v->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(v->err, sizeof v->err, fmt, ap);
	va_end(ap);
}

/* Room for one more element of an array of size bytes each. */
static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, *cap * size);
	if (!p)
		abort();
	return p;
}

void insn_vec_packet(struct insn_vec *v, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	struct insn_pkt *k;
	v->pkt = grow(v->pkt, &v->pkt_cap, v->npkt, sizeof *v->pkt);
	k = &v->pkt[v->npkt++];
	k->off = off;
	va_start(ap, fmt);
	vsnprintf(k->note, sizeof k->note, fmt, ap);
	va_end(ap);
}

const struct insn_row *insn_vec_row_at(const struct insn_vec *v, uint64_t address)
{
	for (size_t i = 0; i < v->nimg; i++)
		if (v->img[i].address == address && v->img[i].n == v->img[i].row->size)
			return v->img[i].row;
	return NULL;
}

/* Whether [a, a + n) meets an instruction of the image. */
static int overlaps(const struct insn_vec *v, uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < v->nimg; i++) {
		uint64_t b = v->img[i].address, m = (uint64_t)v->img[i].n;
		if (a < b + m && b < a + n)
			return 1;
	}
	return 0;
}

/* The image's byte at a in *b; 0 when it has none. */
static int byte_at(const struct insn_vec *v, uint64_t a, uint8_t *b)
{
	for (size_t i = 0; i < v->nimg; i++)
		if (a >= v->img[i].address && a - v->img[i].address < (uint64_t)v->img[i].n) {
			*b = v->img[i].row->bytes[a - v->img[i].address];
			return 1;
		}
	return 0;
}

int insn_vec_holds(const struct insn_vec *v, uint64_t address, int isa)
{
	uint8_t b[4];
	int size = 4;
	for (int i = 0; i < 2; i++)
		if (!byte_at(v, address + (uint64_t)i, &b[i]))
			return 0;
	if (isa == tc_isa_t32 && (b[1] >> 3) < 0x1d)
		size = 2;
	for (int i = 2; i < size; i++)
		if (!byte_at(v, address + (uint64_t)i, &b[i]))
			return 0;
	return 1;
}

static void place(struct insn_vec *v, uint64_t address, const struct insn_row *row, int n, const char *fmt,
		  va_list ap)
{
	struct insn_img *m;
	if (n < 1 || n > row->size || overlaps(v, address, (uint64_t)n)) {
		insn_vec_fail(v, "%s: %s placed at 0x%llx overlaps another instruction", v->name, row->source,
			      (unsigned long long)address);
		return;
	}
	v->img = grow(v->img, &v->img_cap, v->nimg, sizeof *v->img);
	m = &v->img[v->nimg++];
	m->address = address;
	m->row = row;
	m->n = n;
	vsnprintf(m->note, sizeof m->note, fmt, ap);
}

void insn_vec_place(struct insn_vec *v, uint64_t address, const struct insn_row *row, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	place(v, address, row, row->size, fmt, ap);
	va_end(ap);
}

void insn_vec_place_part(struct insn_vec *v, uint64_t address, const struct insn_row *row, int n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	place(v, address, row, n, fmt, ap);
	va_end(ap);
}

void insn_vec_place_alone(struct insn_vec *v, uint64_t address, const struct insn_row *row, const struct insn_row *pad,
			  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	place(v, address, row, row->size, fmt, ap);
	va_end(ap);
	if (row->isa == tc_isa_t32 && row->size == 2)
		insn_vec_place_part(v, address + 2, pad, 2, "0x%llx the first halfword of %s: no whole instruction",
				    (unsigned long long)(address + 2), pad->source);
}

/* ---- Expected L3 -------------------------------------------------------------------- */

static void l3_line(struct insn_vec *v, const struct tc_l3 *x, const char *why)
{
	char line[256];
	tc_l3_format(line, sizeof line, x, NULL, 0);
	insn_text_printf(&v->l3, "%s   # %s\n", line, why);
}

static void l3_blank(const struct insn_vec *v, struct tc_l3 *x, uint64_t off, int kind)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = (uint16_t)v->protocol;
	x->h.kind = (uint16_t)kind;
	x->h.offset = off;
}

void insn_vec_l3_item(struct insn_vec *v, uint64_t off, int kind, const char *why)
{
	struct tc_l3 x;
	l3_blank(v, &x, off, kind);
	l3_line(v, &x, why);
}

void insn_vec_l3_context(struct insn_vec *v, uint64_t off, const struct tc_context *c, const char *why)
{
	struct tc_l3 x;
	l3_blank(v, &x, off, tc_l3_context);
	x.ctx = *c;
	l3_line(v, &x, why);
}

void insn_vec_l3_range(struct insn_vec *v, uint64_t off, uint64_t first, uint64_t last, uint64_t n, int isa,
		       int type, int taken, const char *why)
{
	struct tc_l3 x;
	l3_blank(v, &x, off, tc_l3_range);
	x.first = first;
	x.last = last;
	x.count = n;
	x.isa = (uint8_t)isa;
	x.last_type = (uint8_t)type;
	x.taken = (uint8_t)taken;
	l3_line(v, &x, why);
}

void insn_vec_l3_exception(struct insn_vec *v, uint64_t off, unsigned type, uint64_t ret, const char *why)
{
	struct tc_l3 x;
	l3_blank(v, &x, off, tc_l3_exception);
	x.type = (uint16_t)type;
	x.address = ret;
	l3_line(v, &x, why);
}

static void no_image(struct insn_vec *v, uint64_t off, uint64_t address, int isa, const char *why)
{
	struct tc_l3 x;
	l3_blank(v, &x, off, tc_l3_no_image);
	x.address = address;
	x.isa = (uint8_t)isa;
	l3_line(v, &x, why);
}

void insn_vec_l3_no_image(struct insn_vec *v, uint64_t off, uint64_t address, int isa, const char *why)
{
	if (insn_vec_holds(v, address, isa))
		insn_vec_fail(v, "%s: the walk should find no whole instruction at 0x%llx, but the layout put one there",
			      v->name, (unsigned long long)address);
	no_image(v, off, address, isa, why);
}

/* ---- Addresses ------------------------------------------------------------------------ */

static uint64_t wrap(const struct insn_row *r, uint64_t a)
{
	return r->isa == tc_isa_a64 ? a : a & UINT64_C(0xffffffff);
}

uint64_t insn_row_target(const struct insn_row *r, uint64_t address)
{
	return wrap(r, address + (uint64_t)r->target);
}

uint64_t insn_row_next(const struct insn_row *r, uint64_t address)
{
	return wrap(r, address + (uint64_t)r->size);
}

/* ---- Writing ----------------------------------------------------------------------------- */

static int by_address(const void *a, const void *b)
{
	const struct insn_img *x = a, *y = b;
	return x->address < y->address ? -1 : x->address > y->address;
}

static void write_trace(struct tc_vwriter *w, const struct insn_vec *v, const uint8_t *trace, size_t len)
{
	for (size_t i = 0; i < v->npkt; i++) {
		uint64_t end = i + 1 < v->npkt ? v->pkt[i + 1].off : len;
		tc_vwrite_trace_packet(w, trace + v->pkt[i].off, (size_t)(end - v->pkt[i].off), v->pkt[i].note);
	}
}

int insn_vec_write(struct insn_vec *v, const char *dir, const struct tc_protocol *p, const void *cfg,
		   const char *tags, const uint8_t *trace, size_t trace_len, const char *l1)
{
	struct tc_vwriter w;
	char path[700], err[300];
	char *text;
	if (v->err[0])
		return -1;
	for (size_t i = 0; i + 1 < v->npkt; i++)
		if (v->pkt[i].off >= v->pkt[i + 1].off)
			insn_vec_fail(v, "%s: packet %zu has no bytes", v->name, i);
	if (!v->npkt || v->pkt[v->npkt - 1].off >= trace_len || v->pkt[0].off != 0)
		insn_vec_fail(v, "%s: the packets do not cover the trace", v->name);
	if (v->err[0])
		return -1;
	qsort(v->img, v->nimg, sizeof *v->img, by_address);
	tc_vwrite_begin(&w);
	tc_vwrite_comment(&w, v->head.p);
	tc_vwrite_config(&w, p, cfg, 1);
	tc_vwrite_tags(&w, tags);
	write_trace(&w, v, trace, trace_len);
	for (size_t i = 0; i < v->nimg; i++)
		tc_vwrite_image_line(&w, v->img[i].address, v->img[i].row->bytes, (size_t)v->img[i].n, v->img[i].note);
	tc_vwrite_section(&w, tc_sec_l1, tc_strict_offset, NULL);
	tc_vwrite_lines(&w, l1);
	tc_vwrite_section(&w, tc_sec_l3, tc_strict_offset, NULL);
	tc_vwrite_lines(&w, v->l3.p);
	text = tc_vwrite_end(&w, err, sizeof err);
	if (!text) {
		insn_vec_fail(v, "%s: %s", v->name, err);
		return -1;
	}
	snprintf(path, sizeof path, "%s/%s", dir, v->name);
	if (tc_vector_save(path, text, err, sizeof err)) {
		insn_vec_fail(v, "%s", err);
		free(text);
		return -1;
	}
	free(text);
	return 0;
}
