/* execlog.c — real executions as vectors: qemu-user's execution log parsed, its instructions
 * classified from the image, the L3 of that execution and the pages it touches (tracecert/execlog.h). */
/* The L3 is derived from the log's address sequence alone (what executed),
 * never from a protocol's trace-unit model: reference/L3FORMAT.md's items,
 * ranges ending at every branch (`dir`/`indir`, the classifier's types;
 * at an ISB too where the protocol traces it, tc_exec_marks.isb_waypoint), a
 * supervisor call an exception whose preferred return address is the
 * instruction after it (the SVC instruction has completed when its
 * exception is taken), the handler (the kernel, which qemu-user runs
 * itself) not traced, tracing on again at the return. A protocol gives only the offsets of the packets (tc_exec_marks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "enc_common.h"
#include "insn.h"

/* ---- The log ------------------------------------------------------------------------ */

static int hex_field(const char **p, int digits, uint64_t *v)
{
	uint64_t x = 0;
	for (int i = 0; i < digits; i++) {
		char c = (*p)[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return -1;
		x = x << 4 | (uint64_t)d;
	}
	*p += digits;
	*v = x;
	return 0;
}

static int literal(const char **p, const char *s)
{
	size_t n = strlen(s);
	if (strncmp(*p, s, n))
		return -1;
	*p += n;
	return 0;
}

/* "Trace N: 0xHOST [FLAGS2/PC/FLAGS/CFLAGS] SYMBOL" (tracecert/execlog.h);
 * line is NUL-terminated (its line break removed). FLAGS2 and PC have 8
 * digits (qemu-arm) or 16 (qemu-aarch64: A64); FLAGS and CFLAGS 8. */
static int parse_line(const char *line, struct tc_execlog_entry *e)
{
	const char *p = line;
	uint64_t f[4];
	int wide;
	if (literal(&p, "Trace ") || !(*p >= '0' && *p <= '9'))
		return -1;
	p += strspn(p, "0123456789");
	if (literal(&p, ": 0x") || !strchr("0123456789abcdef", *p) || *p == '\0')
		return -1;
	p += strspn(p, "0123456789abcdef");
	if (literal(&p, " ["))
		return -1;
	wide = strspn(p, "0123456789abcdef") == 16;
	for (int i = 0; i < 4; i++)
		if (hex_field(&p, wide && i < 2 ? 16 : 8, &f[i]) || literal(&p, i < 3 ? "/" : "]"))
			return -1;
	if (*p != '\0' && *p != ' ')
		return -1;
	p += *p == ' ';
	e->addr = f[1];
	e->a64 = (uint8_t)wide;
	e->thumb = (uint8_t)(!wide && (f[0] >> 23 & 1));
	if (e->addr & (e->thumb ? 1u : 3u))
		return -1;   /* no instruction there: T32 halfword, A32 and A64 word aligned */
	e->sym = p;
	e->symlen = strlen(p);
	while (e->symlen && e->sym[e->symlen - 1] == ' ')
		e->symlen--;
	return 0;
}

static void shown(char *out, size_t size, const char *line)
{
	snprintf(out, size, "%.60s%s", line, strlen(line) > 60 ? "..." : "");
}

int tc_execlog_parse(const char *text, size_t len, const char *name, struct tc_execlog_entry **out, size_t *n,
		     char *err, size_t errlen)
{
	struct tc_execlog_entry *v = malloc((len / 40 + 1) * sizeof *v);   /* a line takes 40 bytes at least */
	char *copy = malloc(len + 1);
	size_t k = 0, lineno = 0, at = 0;
	if (!v || !copy) {
		free(v);
		free(copy);
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (memchr(text, '\0', len)) {
		size_t off = (size_t)((const char *)memchr(text, '\0', len) - text);
		for (size_t i = 0; i < off; i++)
			lineno += text[i] == '\n';
		snprintf(err, errlen, "%s:%zu: byte offset %zu: a NUL byte (the log is text)", name, lineno + 1, off);
		goto fail;
	}
	while (at < len) {
		size_t eol = at + strcspn(copy + at, "\n");
		char what[80];
		lineno++;
		copy[eol] = '\0';
		if (parse_line(copy + at, &v[k])) {
			shown(what, sizeof what, copy + at);
			snprintf(err, errlen,
				 "%s:%zu: byte offset %zu: not a line of qemu's -d exec log "
				 "('Trace N: 0xHOST [FLAGS2/PC/FLAGS/CFLAGS] SYMBOL'): '%s'", name, lineno, at, what);
			goto fail;
		}
		v[k].sym = text + (v[k].sym - copy);
		v[k].line = lineno;
		k++;
		at = eol + 1;
	}
	if (k == 0) {
		snprintf(err, errlen, "%s: no instruction in it", name);
		goto fail;
	}
	free(copy);
	*out = v;
	*n = k;
	return 0;
fail:
	free(copy);
	free(v);
	return -1;
}

size_t tc_execlog_find_symbol(const struct tc_execlog_entry *e, size_t n, const char *sym)
{
	size_t len = strlen(sym);
	for (size_t i = 0; i < n; i++)
		if (e[i].symlen == len && !memcmp(e[i].sym, sym, len))
			return i;
	return n;
}

/* ---- Classification ------------------------------------------------------------------- */

/* SVC: A32 cond 1111 excluded, bits 27:24 1111 (DDI 0406 A8.8.228
 * encoding A1); T16 1101 1111 imm8 (encoding T1); A64 1101 0100 000
 * imm16 000 01 (DDI 0487 C6.2 SVC). */
static int is_svc(int isa, uint32_t op, int size)
{
	if (isa == tc_isa_a64)
		return (op & 0xffe0001fu) == 0xd4000001u;
	if (isa == tc_isa_a32)
		return (op & 0x0f000000u) == 0x0f000000u && (op >> 28) != 0xf;
	return size == 2 && (op & 0xff00u) == 0xdf00u;
}

static int isa_of(const struct tc_execlog_entry *e)
{
	return e->a64 ? tc_isa_a64 : e->thumb ? tc_isa_t32 : tc_isa_a32;
}

/* An address as the instruction set sees it: AArch32 addresses are 32 bits. */
static uint64_t visible(int isa, uint64_t a)
{
	return isa == tc_isa_a64 ? a : (uint32_t)a;
}

static int classify_one(const struct tc_execlog_entry *e, const struct tc_execlog_entry *next,
			const struct tc_image *img, struct tc_exec_insn *o, const char *name, char *err, size_t errlen)
{
	size_t avail = 0;
	const uint8_t *b = tc_image_lookup(img, e->addr, &avail);
	struct tc_insn in;
	int isa = isa_of(e);
	if (!b || !tc_insn_decode(isa, e->addr, b, avail, 0, &in)) {
		snprintf(err, errlen, "%s:%zu: no image bytes for the instruction at 0x%llx", name, e->line,
			 (unsigned long long)e->addr);
		return -1;
	}
	memset(o, 0, sizeof *o);
	o->addr = e->addr;
	o->isa = (uint8_t)isa;
	o->size = in.size;
	o->type = in.type == tc_insn_branch_dir || in.type == tc_insn_branch_indir ? in.type : tc_insn_other;
	o->svc = (uint8_t)is_svc(isa, in.opcode, in.size);
	o->isb = in.type == tc_insn_isb;
	o->line = e->line;
	if (!next)
		return 0;
	o->has_next = 1;
	o->next = next->addr;
	o->next_isa = (uint8_t)isa_of(next);
	o->taken = o->next != visible(isa, e->addr + in.size) || o->next_isa != isa;
	if (o->taken && (o->type == tc_insn_other || o->svc)) {
		snprintf(err, errlen, "%s:%zu: the instruction at 0x%llx is not a branch, yet the next one is at 0x%llx",
			 name, e->line, (unsigned long long)e->addr, (unsigned long long)o->next);
		return -1;
	}
	if (o->taken && o->type == tc_insn_branch_dir &&
	    (o->next != visible(isa, in.target) || o->next_isa != in.next_isa)) {
		snprintf(err, errlen,
			 "%s:%zu: the direct branch at 0x%llx goes to 0x%llx, yet the next instruction is at 0x%llx",
			 name, e->line, (unsigned long long)e->addr, (unsigned long long)visible(isa, in.target),
			 (unsigned long long)o->next);
		return -1;
	}
	return 0;
}

int tc_exec_classify(const struct tc_execlog_entry *entries, size_t n, size_t first, size_t count,
		     const struct tc_image *img, const char *name, struct tc_exec *x, char *err, size_t errlen)
{
	memset(x, 0, sizeof *x);
	if (first >= n) {
		snprintf(err, errlen, "%s: the window starts after the last line", name);
		return -1;
	}
	if (count > n - first)
		count = n - first;
	x->insn = calloc(count ? count : 1, sizeof *x->insn);
	if (!x->insn) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < count; i++) {
		size_t k = first + i;
		if (classify_one(&entries[k], k + 1 < n ? &entries[k + 1] : NULL, img, &x->insn[i], name, err, errlen)) {
			tc_exec_free(x);
			return -1;
		}
	}
	x->n = count;
	return 0;
}

void tc_exec_free(struct tc_exec *x)
{
	free(x->insn);
	memset(x, 0, sizeof *x);
}

/* ---- The L3 of the execution ------------------------------------------------------------ */

int tc_exec_marks_alloc(struct tc_exec_marks *m, const struct tc_exec *x)
{
	size_t n = x->n ? x->n : 1;
	m->insn = calloc(n, sizeof *m->insn);
	m->exception = calloc(n, sizeof *m->exception);
	m->resume = calloc(n, sizeof *m->resume);
	if (m->insn && m->exception && m->resume)
		return 0;
	tc_exec_marks_free(m);
	return -1;
}

void tc_exec_marks_free(struct tc_exec_marks *m)
{
	free(m->insn);
	free(m->exception);
	free(m->resume);
	m->insn = m->exception = m->resume = NULL;
}

struct l3w {
	struct enc_buf b;
	const struct tc_exec_marks *m;
	struct tc_l3 range;
	int open;
};

static void item(struct l3w *w, struct tc_l3 *x, int kind, uint64_t off)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = (uint16_t)w->m->protocol;
	x->h.kind = (uint16_t)kind;
	x->h.offset = off;
}

static void put(struct l3w *w, const struct tc_l3 *x)
{
	char line[256];
	tc_l3_format(line, sizeof line, x, NULL, 0);
	enc_buf_printf(&w->b, "%s\n", line);
}

static void close_range(struct l3w *w)
{
	if (w->open)
		put(w, &w->range);
	w->open = 0;
}

static void simple(struct l3w *w, int kind, uint64_t off)
{
	struct tc_l3 x;
	close_range(w);
	item(w, &x, kind, off);
	put(w, &x);
}

/* An instruction joins the open range (it is the next in address order, same
 * ISA: a range is only ever closed by a branch or another item here); a
 * branch ends it with its outcome (L3FORMAT.md "Ranges split at P0
 * instructions"). */
static void insn(struct l3w *w, const struct tc_exec_insn *i, uint64_t off)
{
	int isb = i->isb && w->m->isb_waypoint;
	if (!w->open) {
		item(w, &w->range, tc_l3_range, off);
		w->range.first = i->addr;
		w->range.isa = i->isa;
		w->open = 1;
	}
	w->range.last = i->addr;
	w->range.count++;
	w->range.last_type = isb ? tc_insn_isb : i->type;
	w->range.taken = isb ? tc_taken_e : i->type == tc_insn_other ? tc_taken_none : i->taken ? tc_taken_e : tc_taken_n;
	if (i->type != tc_insn_other || isb)
		close_range(w);
}

char *tc_exec_l3(const struct tc_exec *x, const struct tc_exec_marks *m)
{
	struct l3w w;
	struct tc_l3 c;
	memset(&w, 0, sizeof w);
	w.m = m;
	simple(&w, tc_l3_trace_on, m->start);
	item(&w, &c, tc_l3_context, m->start_context ? m->start_context : m->start);
	c.ctx = m->ctx;
	put(&w, &c);
	for (size_t k = 0; k < (m->traced ? m->traced : x->n); k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		insn(&w, i, m->insn[k]);
		if (!i->svc)
			continue;
		close_range(&w);
		item(&w, &c, tc_l3_exception, m->exception[k]);
		c.type = m->svc_type;
		c.address = visible(i->isa, i->addr + i->size);
		put(&w, &c);
		if (k + 1 < (m->traced ? m->traced : x->n))
			simple(&w, tc_l3_trace_on, m->resume[k]);
	}
	close_range(&w);
	return w.b.p ? w.b.p : calloc(1, 1);
}

/* ---- Pages -------------------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

long tc_exec_pages(const struct tc_exec *x, uint64_t page, uint64_t **bases)
{
	uint64_t *v = malloc((2 * x->n + 1) * sizeof *v);
	long k = 0;
	if (!v)
		return -1;
	for (size_t i = 0; i < x->n; i++) {
		v[k++] = x->insn[i].addr & ~(page - 1);
		v[k++] = (x->insn[i].addr + x->insn[i].size - 1u) & ~(page - 1);
	}
	qsort(v, (size_t)k, sizeof *v, cmp_u64);
	long u = 0;
	for (long i = 0; i < k; i++)
		if (u == 0 || v[u - 1] != v[i])
			v[u++] = v[i];
	*bases = v;
	return u;
}
