/* SPDX-License-Identifier: BSD-3-Clause */
/* execlog.c — real executions as vectors: qemu-user's execution log parsed, its instructions
 * classified from the image, the L3 of that execution and the pages it touches (tracecert/execlog.h). */
/* The L3 is derived from the log's address sequence alone (what executed),
 * never from a protocol's trace-unit model: reference/L3FORMAT.md's items,
 * ranges ending at every branch (`dir`/`indir`, the classifier's types;
 * at an ISB too where the protocol traces it, tc_exec_marks.isb_waypoint), a
 * supervisor call (SVC, ecall) an exception whose preferred return address
 * is the instruction after it (the instruction has completed when its
 * exception is taken), the handler (the kernel, which qemu-user runs
 * itself) not traced, tracing on again at the return. A protocol gives only
 * the offsets of the packets and how its trace shows what the log cannot
 * say (tc_exec_marks: where a walk ends a range, whether tracing starts and
 * resumes with a trace-on). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder.h"
#include "tracecert/execlog.h"
#include "enc_common.h"
#include "insn.h"
#include "rvinsn.h"

/* ---- The families ------------------------------------------------------------------- */

/* What a log of each family is (tracecert/execlog.h), for the reader and
 * for messages. */
struct family_form {
	const char *name;       /* as messages give it */
	const char *sets;       /* the instruction sets a model of it traces */
	const char *emulator;   /* the qemu-user program that writes it */
	const char *form;       /* its lines' FLAGS2 and PC */
	int digits;             /* of FLAGS2 and PC */
	int flags2_zero;        /* FLAGS2: 1 always 0, 0 never 0, -1 either */
	unsigned machine;       /* its programs' ELF e_machine */
	int elf_class;          /* and EI_CLASS (1: 32-bit, 2: 64-bit) */
};

static const struct family_form families[] = {
	[tc_exec_family_aarch32] = { "AArch32", "A32 and T32", "qemu-arm", "FLAGS2 and PC of 8 digits", 8, -1, 40, 1 },
	[tc_exec_family_a64] = { "A64", "A64", "qemu-aarch64", "FLAGS2 and PC of 16 digits, FLAGS2 not 0", 16, 0, 183, 2 },
	[tc_exec_family_rv64] = { "RV64", "RV64GC", "qemu-riscv64", "FLAGS2 and PC of 16 digits, FLAGS2 0", 16, 1, 243, 2 },
};

static const struct family_form *family_form(int family)
{
	return family > tc_exec_family_none && family <= tc_exec_family_rv64 ? &families[family] : NULL;
}

const char *tc_exec_family_name(int family)
{
	const struct family_form *f = family_form(family);
	return f ? f->name : "no family";
}

int tc_exec_family_of_elf(unsigned machine, int elf_class)
{
	for (int k = tc_exec_family_aarch32; k <= tc_exec_family_rv64; k++)
		if (families[k].machine == machine && families[k].elf_class == elf_class)
			return k;
	return tc_exec_family_none;
}

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

/* The fields of a line: "Trace N: 0xHOST [FLAGS2/PC/FLAGS/CFLAGS] SYMBOL"
 * (tracecert/execlog.h), FLAGS2 and PC of 8 or 16 digits (*digits), FLAGS
 * and CFLAGS of 8; line is NUL-terminated (its line break removed). e gets
 * the address and the symbol. */
static int parse_fields(const char *line, struct tc_execlog_entry *e, uint64_t *flags2, int *digits)
{
	const char *p = line;
	uint64_t f[4];
	if (literal(&p, "Trace ") || !(*p >= '0' && *p <= '9'))
		return -1;
	p += strspn(p, "0123456789");
	if (literal(&p, ": 0x") || !strchr("0123456789abcdef", *p) || *p == '\0')
		return -1;
	p += strspn(p, "0123456789abcdef");
	if (literal(&p, " ["))
		return -1;
	*digits = strspn(p, "0123456789abcdef") == 16 ? 16 : 8;
	for (int i = 0; i < 4; i++)
		if (hex_field(&p, i < 2 ? *digits : 8, &f[i]) || literal(&p, i < 3 ? "/" : "]"))
			return -1;
	if (*p != '\0' && *p != ' ')
		return -1;
	p += *p == ' ';
	*flags2 = f[0];
	e->addr = f[1];
	e->sym = p;
	e->symlen = strlen(p);
	while (e->symlen && e->sym[e->symlen - 1] == ' ')
		e->symlen--;
	return 0;
}

/* Whether a line of FLAGS2 flags2 and fields of digits digits is of the
 * form of family f. */
static int fits(const struct family_form *f, uint64_t flags2, int digits)
{
	return digits == f->digits && (f->flags2_zero < 0 || (flags2 == 0) == (f->flags2_zero == 1));
}

/* The family whose form the line has, for the message that refuses it. */
static const struct family_form *form_of(uint64_t flags2, int digits)
{
	for (int k = tc_exec_family_aarch32; k <= tc_exec_family_rv64; k++)
		if (fits(&families[k], flags2, digits))
			return &families[k];
	return &families[tc_exec_family_aarch32];
}

/* The entry's instruction set from its family: AArch32 A32 or, with FLAGS2
 * bit 23, T32; A64; RV64. */
static void entry_isa(struct tc_execlog_entry *e, int family, uint64_t flags2)
{
	e->thumb = (uint8_t)(family == tc_exec_family_aarch32 && (flags2 >> 23 & 1));
	e->isa = (uint8_t)(family == tc_exec_family_a64 ? tc_isa_a64 : family == tc_exec_family_rv64 ? tc_isa_rv64 :
			   e->thumb ? tc_isa_t32 : tc_isa_a32);
}

/* Whether the entry's address can hold an instruction: T32 and RVC
 * halfword, A32 and A64 word aligned. */
static int aligned(const struct tc_execlog_entry *e)
{
	return (e->addr & (e->isa == tc_isa_a32 || e->isa == tc_isa_a64 ? 3u : 1u)) == 0;
}

static void shown(char *out, size_t size, const char *line)
{
	snprintf(out, size, "%.60s%s", line, strlen(line) > 60 ? "..." : "");
}

int tc_execlog_parse(const char *text, size_t len, const char *name, int family, struct tc_execlog_entry **out,
		     size_t *n, char *err, size_t errlen)
{
	const struct family_form *f = family_form(family);
	struct tc_execlog_entry *v = malloc((len / 40 + 1) * sizeof *v);   /* a line takes 40 bytes at least */
	char *copy = malloc(len + 1);
	size_t k = 0, lineno = 0, at = 0;
	uint64_t flags2 = 0;
	int digits = 0;
	if (!f) {
		free(v);
		free(copy);
		snprintf(err, errlen, "%s: no instruction-set family to read it as", name);
		return -1;
	}
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
		int parsed = parse_fields(copy + at, &v[k], &flags2, &digits) == 0;
		if (parsed && !fits(f, flags2, digits)) {
			const struct family_form *g = form_of(flags2, digits);
			snprintf(err, errlen, "%s:%zu: byte offset %zu: not a line of an %s log (%s: %s): "
				 "a %s line (%s)", name, lineno, at, f->name, f->emulator, f->form, g->emulator, g->form);
			goto fail;
		}
		if (parsed)
			entry_isa(&v[k], family, flags2);
		if (!parsed || !aligned(&v[k])) {
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

/* An address as the instruction set sees it: AArch32 addresses are 32 bits. */
static uint64_t visible(int isa, uint64_t a)
{
	return isa == tc_isa_a32 || isa == tc_isa_t32 ? (uint32_t)a : a;
}

/* The next instruction's place in *o, and whether it is not the one after
 * this: a taken branch. */
static void follow(struct tc_exec_insn *o, const struct tc_execlog_entry *next)
{
	o->has_next = 1;
	o->next = next->addr;
	o->next_isa = next->isa;
	o->taken = o->next != visible(o->isa, o->addr + o->size) || o->next_isa != o->isa;
}

/* The log against the image: only a branch goes elsewhere, a direct one
 * (next_isa its target's ISA) to its target. */
static int check_flow(const struct tc_exec_insn *o, uint64_t target, int target_isa, const char *name, char *err,
		      size_t errlen)
{
	if (o->taken && (o->type == tc_insn_other || o->svc)) {
		snprintf(err, errlen, "%s:%zu: the instruction at 0x%llx is not a branch, yet the next one is at 0x%llx",
			 name, o->line, (unsigned long long)o->addr, (unsigned long long)o->next);
		return -1;
	}
	if (o->taken && o->type == tc_insn_branch_dir && (o->next != target || o->next_isa != target_isa)) {
		snprintf(err, errlen, "%s:%zu: the direct branch at 0x%llx goes to 0x%llx, yet the next instruction is at 0x%llx",
			 name, o->line, (unsigned long long)o->addr, (unsigned long long)target,
			 (unsigned long long)o->next);
		return -1;
	}
	return 0;
}

static int no_bytes(const struct tc_execlog_entry *e, const char *name, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s:%zu: no image bytes for the instruction at 0x%llx", name, e->line,
		 (unsigned long long)e->addr);
	return -1;
}

/* A64, A32 and T32 (reference/insn.c). */
static int classify_arm(const struct tc_execlog_entry *e, const struct tc_execlog_entry *next,
			const struct tc_image *img, struct tc_exec_insn *o, const char *name, char *err, size_t errlen)
{
	size_t avail = 0;
	const uint8_t *b = tc_image_lookup(img, e->addr, &avail);
	struct tc_insn in;
	if (!b || !tc_insn_decode(e->isa, e->addr, b, avail, 0, &in))
		return no_bytes(e, name, err, errlen);
	o->size = in.size;
	o->type = in.type == tc_insn_branch_dir || in.type == tc_insn_branch_indir ? in.type : tc_insn_other;
	o->svc = (uint8_t)is_svc(e->isa, in.opcode, in.size);
	o->isb = in.type == tc_insn_isb;
	if (!next)
		return 0;
	follow(o, next);
	return check_flow(o, visible(e->isa, in.target), in.next_isa, name, err, errlen);
}

/* RV64GC (reference/rvinsn.c): branches and jumps dir, jalr, c.jr and
 * c.jalr indir, ecall a system call; what traps in user mode (ebreak, an
 * xRET, a reserved or long encoding) qemu-user would have stopped at: the
 * log does not go on after it as a trace of it would. prev: the window's
 * instruction before, decoded (NULL: none). */
static int classify_rv(const struct tc_execlog_entry *e, const struct tc_execlog_entry *next,
		       const struct tc_image *img, const struct tc_rvinsn *prev, struct tc_rvinsn *in,
		       struct tc_exec_insn *o, const char *name, char *err, size_t errlen)
{
	size_t avail = 0;
	const uint8_t *b = tc_image_lookup(img, e->addr, &avail);
	uint64_t pair_target = 0;
	if (!b || tc_rvinsn_decode(64, 1, e->addr, b, avail, in) == tc_rvinsn_truncated)
		return no_bytes(e, name, err, errlen);
	o->size = in->size;
	switch (in->cls) {
	case tc_rvinsn_branch: o->type = tc_insn_branch_dir; o->cond = 1; break;
	case tc_rvinsn_jump: o->type = tc_insn_branch_dir; break;
	case tc_rvinsn_indirect: o->type = tc_insn_branch_indir; break;
	case tc_rvinsn_upper: o->upper = 1; break;
	case tc_rvinsn_other: break;
	default:
		if (in->cls == tc_rvinsn_trap && in->raw == 0x00000073u) {   /* ecall (not ebreak, c.ebreak) */
			o->svc = 1;
			break;
		}
		snprintf(err, errlen, "%s:%zu: the instruction at 0x%llx (0x%x) is a %s, which user mode does not "
			 "execute past", name, e->line, (unsigned long long)e->addr, (unsigned)in->raw,
			 tc_rvinsn_class_name(in->cls));
		return -1;
	}
	if (!next)
		return 0;
	follow(o, next);
	if (in->cls == tc_rvinsn_indirect && tc_rvinsn_pair_target(64, prev, in, &pair_target)) {
		if (pair_target != o->next) {
			snprintf(err, errlen, "%s:%zu: the jump at 0x%llx goes to 0x%llx by the upper instruction before it, "
				 "yet the next instruction is at 0x%llx", name, e->line, (unsigned long long)e->addr,
				 (unsigned long long)pair_target, (unsigned long long)o->next);
			return -1;
		}
		o->pair = 1;
	}
	if (in->cls == tc_rvinsn_indirect || in->cls == tc_rvinsn_jump)
		o->taken = 1;   /* a jump always goes to its target, even the next instruction */
	return check_flow(o, in->target, tc_isa_rv64, name, err, errlen);
}

static int classify_one(const struct tc_execlog_entry *e, const struct tc_execlog_entry *next,
			const struct tc_image *img, struct tc_rvinsn rv[2], int has_prev, struct tc_exec_insn *o,
			const char *name, char *err, size_t errlen)
{
	memset(o, 0, sizeof *o);
	o->addr = e->addr;
	o->isa = e->isa;
	o->line = e->line;
	if (e->isa != tc_isa_rv64)
		return classify_arm(e, next, img, o, name, err, errlen);
	rv[0] = rv[1];
	return classify_rv(e, next, img, has_prev ? &rv[0] : NULL, &rv[1], o, name, err, errlen);
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
	struct tc_rvinsn rv[2];
	memset(rv, 0, sizeof rv);
	for (size_t i = 0; i < count; i++) {
		size_t k = first + i;
		int has_prev = i > 0 && x->insn[i - 1].isa == tc_isa_rv64;
		if (classify_one(&entries[k], k + 1 < n ? &entries[k + 1] : NULL, img, rv, has_prev, &x->insn[i], name,
				 err, errlen)) {
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

/* ---- What every from_exec does first ---------------------------------------------------- */

static int family_of_isa(int isa)
{
	return isa == tc_isa_a32 || isa == tc_isa_t32 ? tc_exec_family_aarch32 :
	       isa == tc_isa_a64 ? tc_exec_family_a64 : isa == tc_isa_rv64 ? tc_exec_family_rv64 : tc_exec_family_none;
}

/* The first instruction of x not of family f: "line N: not …"; 0 when none. */
static int other_family(const struct tc_exec *x, int family, const char *model, char *err, size_t errlen)
{
	const struct family_form *f = family_form(family);
	for (size_t k = 0; k < x->n; k++)
		if (family_of_isa(x->insn[k].isa) != family) {
			snprintf(err, errlen, "line %zu: not %s: the %s model traces %s (a %s log)", x->insn[k].line,
				 f ? f->name : "of a family", model, f ? f->sets : "nothing", f ? f->emulator : "qemu");
			return -1;
		}
	return 0;
}

int tc_exec_begin(const struct tc_exec *x, int family, const char *model, struct tc_enc_result *r, size_t cfg_size,
		  int nvariants, void **state, size_t state_size, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (state)
		*state = NULL;
	if (!x || x->n == 0) {
		snprintf(err, errlen, "no instruction to trace");
		return -1;
	}
	if (other_family(x, family, model, err, errlen))
		return -1;
	r->cfg = calloc(1, cfg_size ? cfg_size : 1);
	r->variants = calloc(nvariants > 0 ? (size_t)nvariants : 1, sizeof *r->variants);
	if (state && state_size)
		*state = calloc(1, state_size);
	if (!r->cfg || !r->variants || (state && state_size && !*state)) {
		free(r->cfg);
		free(r->variants);
		if (state) {
			free(*state);
			*state = NULL;
		}
		memset(r, 0, sizeof *r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void tc_exec_abandon(struct tc_enc_result *r, void *state)
{
	free(state);
	tc_enc_result_free(r);
}

/* ---- The L3 of the execution ------------------------------------------------------------ */

int tc_exec_marks_alloc(struct tc_exec_marks *m, const struct tc_exec *x)
{
	size_t n = x->n ? x->n : 1;
	m->insn = calloc(n, sizeof *m->insn);
	m->exception = calloc(n, sizeof *m->exception);
	m->resume = calloc(n, sizeof *m->resume);
	m->range_end = calloc(n, 1);
	if (m->insn && m->exception && m->resume && m->range_end)
		return 0;
	tc_exec_marks_free(m);
	return -1;
}

void tc_exec_marks_free(struct tc_exec_marks *m)
{
	free(m->insn);
	free(m->exception);
	free(m->resume);
	free(m->range_end);
	m->insn = m->exception = m->resume = NULL;
	m->range_end = NULL;
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
 * ISA: a range is only ever closed by a branch, the end of a walk or another
 * item here); a branch ends it with its outcome (L3FORMAT.md "Ranges split
 * at P0 instructions"), and so does the end of the protocol's walk
 * (end: m->range_end). */
static void insn(struct l3w *w, const struct tc_exec_insn *i, uint64_t off, int end)
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
	if (i->type != tc_insn_other || isb || end)
		close_range(w);
}

char *tc_exec_l3(const struct tc_exec *x, const struct tc_exec_marks *m)
{
	struct l3w w;
	struct tc_l3 c;
	memset(&w, 0, sizeof w);
	w.m = m;
	if (!m->no_start_trace_on)
		simple(&w, tc_l3_trace_on, m->start);
	item(&w, &c, tc_l3_context, m->start_context ? m->start_context : m->start);
	c.ctx = m->ctx;
	put(&w, &c);
	for (size_t k = 0; k < (m->traced ? m->traced : x->n); k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		insn(&w, i, m->insn[k], m->range_end && m->range_end[k]);
		if (!i->svc || (m->svc_seen_after && k + 1 == x->n))
			continue;
		close_range(&w);
		item(&w, &c, tc_l3_exception, m->exception[k]);
		c.type = m->svc_type;
		c.address = visible(i->isa, i->addr + i->size);
		c.has_tval = m->svc_has_tval;
		c.value = m->svc_has_tval ? m->svc_tval : 0;
		put(&w, &c);
		if (k + 1 < (m->traced ? m->traced : x->n) && !m->svc_seen_after)
			simple(&w, tc_l3_trace_on, m->resume[k]);
	}
	close_range(&w);
	if (m->has_stop)
		simple(&w, tc_l3_trace_off, m->stop);
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
