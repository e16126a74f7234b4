/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_neg.c — lays out the templated ETE vectors of vectors/ete/neg and vectors/ete/warn through the one .tcv writer. */
/*
 * Every expectation below comes from the reasoning written next to it (the
 * header map of Parse_Trace, Arm ARM K10.5.2.2.1, as reference/ete/ERRATA.md
 * amends it, the error classes of reference/ete/FORMAT.md); nothing is obtained
 * by running a decoder. The program only lays the bytes out, counts offsets
 * and prints the lines.
 *
 * Shape of a "resync" vector (all offsets decimal):
 *     @0    A-sync (12 bytes)
 *     @12   Trace Info 01 00           -> trace-info cc=0 cct=0 spec=0 tx=0
 *     @14   setup packets (optional, case-specific, with their own expected lines)
 *     @B    the bad packet (its bytes) -> error class=CLASS at @B
 *     @R    A-sync, R = B + len(bad)   -> found by the resync search, which starts at B+1
 *     @R+12 Trace Info 01 00
 *     @R+14 F7 (atom E; with maxspec=0 also its implicit Commit(1) in s1)
 * The bytes between B+1 and R-1 must not contain an A-sync and the byte at
 * R-1 must not be 0, so that the A-sync found by the search starts exactly
 * at R (checked: layout_resync).
 *
 * vectors/ete/neg/queue-overflow.tcv is written by hand: it needs a
 * configuration with queue_cap > maxspec and L1/s1/L2 expectations.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracecert/ete.h"
#include "tracecert/protocol.h"
#include "outfile.h"
#include "vector.h"

#define MAX_PACKETS 64
#define MAX_LINES 80
#define LINE_SIZE 128
#define MAX_FILES 256

static const char ti0[] = "trace-info cc=0 cct=0 spec=0 tx=0";
static const char ti_cc[] = "trace-info cc=1 cct=0 spec=0 tx=0";
static const char implicit_commit[] = "commit n=1          # depth 1 > maxspec 0: implicit Commit(1)";
static const uint8_t async_bytes[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 };

/* A packet of a case: its bytes, the note beside them in [trace], its L1
 * line (without "@OFF HH"; NULL: none) and s1 lines (without "@OFF"). */
struct pkt {
	uint8_t b[16];
	size_t n;
	const char *note;
	const char *l1;
	const char *s1[3];
};

/* Where the files go, what was written, the first failure. */
struct out {
	char dir[2][512];           /* neg, warn */
	char made[MAX_FILES][40];   /* names written, to refuse a name twice */
	int nmade[2];
	char err[600];
};

/* One vector being laid out. */
struct vec {
	struct tc_ete_config cfg;
	struct pkt_line {
		uint8_t b[16];
		size_t n;
		char note[LINE_SIZE];
	} pkt[MAX_PACKETS];
	int npkt;
	char l1[MAX_LINES][LINE_SIZE], s1[MAX_LINES][LINE_SIZE], errors[MAX_LINES][LINE_SIZE];
	int nl1, ns1, nerrors;
	uint64_t off;
	int broken;                 /* a fixed size was too small: a bug of this program */
};

/* ---- Laying out ------------------------------------------------------------------ */

/* Appends a formatted line to one of the vector's lists. */
static void add_line(struct vec *v, char (*list)[LINE_SIZE], int *n, const char *fmt, ...)
{
	va_list ap;
	int len;
	if (*n == MAX_LINES) {
		v->broken = 1;
		return;
	}
	va_start(ap, fmt);
	len = vsnprintf(list[*n], LINE_SIZE, fmt, ap);
	va_end(ap);
	if (len < 0 || len >= LINE_SIZE)
		v->broken = 1;
	(*n)++;
}

static void vec_init(struct vec *v, unsigned maxspec, int commopt, int ite, int rme)
{
	memset(v, 0, sizeof *v);
	tc_ete_config_default(&v->cfg);
	v->cfg.maxspec = maxspec;
	v->cfg.commopt = commopt;
	v->cfg.ite = ite;
	v->cfg.rme = rme;
}

/* Adds the packet p at the current offset; returns that offset. */
static uint64_t vec_add(struct vec *v, const struct pkt *p)
{
	uint64_t off = v->off;
	struct pkt_line *line = &v->pkt[v->npkt];
	if (v->npkt == MAX_PACKETS || p->n > sizeof line->b) {
		v->broken = 1;
		return off;
	}
	memcpy(line->b, p->b, p->n);
	line->n = p->n;
	if (snprintf(line->note, sizeof line->note, "@%llu %s", (unsigned long long)off, p->note) >= LINE_SIZE)
		v->broken = 1;
	v->npkt++;
	if (p->l1)
		add_line(v, v->l1, &v->nl1, "@%llu %02x %s", (unsigned long long)off, p->b[0], p->l1);
	for (int i = 0; i < 3 && p->s1[i]; i++)
		add_line(v, v->s1, &v->ns1, "@%llu %s", (unsigned long long)off, p->s1[i]);
	v->off += p->n;
	return off;
}

static void vec_async(struct vec *v)
{
	struct pkt p = { .n = 12, .note = "A-sync", .l1 = "async" };
	memcpy(p.b, async_bytes, 12);
	vec_add(v, &p);
}

static void vec_trace_info(struct vec *v)
{
	struct pkt p = { { 0x01, 0x00 }, 2, "Trace Info, PLCTL=0", ti0, { ti0 } };
	vec_add(v, &p);
}

/* Atom E; with maxspec 0 its element is committed at once (UpdateSpecDepth). */
static void vec_atom_e(struct vec *v)
{
	struct pkt p = { { 0xF7 }, 1, "atom E (Atom F1, A=1)", "atom atoms=E", { "atom E" } };
	if (v->cfg.maxspec == 0)
		p.s1[1] = implicit_commit;
	vec_add(v, &p);
}

/* The bad packet: no lines of its own, an error line at L1 and s1, and
 * CLASS OFFSET in [error]. Returns its offset. */
static uint64_t vec_bad(struct vec *v, const uint8_t *b, size_t n, const char *cls, const char *note)
{
	struct pkt p = { .n = n, .note = note };
	uint64_t off;
	if (n > sizeof p.b) {
		v->broken = 1;
		return v->off;
	}
	memcpy(p.b, b, n);
	off = vec_add(v, &p);
	add_line(v, v->l1, &v->nl1, "@%llu %02x error class=%s", (unsigned long long)off, b[0], cls);
	add_line(v, v->s1, &v->ns1, "@%llu error class=%s", (unsigned long long)off, cls);
	add_line(v, v->errors, &v->nerrors, "%s %llu", cls, (unsigned long long)off);
	return off;
}

/* The byte at offset at. */
static uint8_t byte_at(const struct vec *v, uint64_t at)
{
	uint64_t off = 0;
	for (int i = 0; i < v->npkt; off += v->pkt[i].n, i++)
		if (at < off + v->pkt[i].n)
			return v->pkt[i].b[at - off];
	return 0;
}

/* Whether an A-sync starts anywhere in [from, to) and ends before to. */
static int async_inside(const struct vec *v, uint64_t from, uint64_t to)
{
	for (uint64_t at = from; at + 12 <= to; at++) {
		int same = 1;
		for (int k = 0; k < 12 && same; k++)
			same = byte_at(v, at + (uint64_t)k) == async_bytes[k];
		if (same)
			return 1;
	}
	return 0;
}

/* After the bad packet at bad_off: the A-sync the resync search finds, a
 * Trace Info and atom E. Returns -1 when the search would not find the
 * A-sync exactly here. */
static int layout_resync(struct vec *v, uint64_t bad_off)
{
	if (v->off <= bad_off || byte_at(v, v->off - 1) == 0 || async_inside(v, bad_off + 1, v->off))
		return -1;
	vec_async(v);
	vec_trace_info(v);
	vec_atom_e(v);
	return 0;
}

/* ---- Writing ------------------------------------------------------------------------ */

static int fail(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->err, sizeof o->err, fmt, ap);
	va_end(ap);
	return -1;
}

static void write_lines(struct tc_vwriter *w, const char (*list)[LINE_SIZE], int n)
{
	for (int i = 0; i < n; i++)
		tc_vwrite_lines(w, list[i]);
}

/* The vector as DIR/name (which: 0 neg, 1 warn), head its description. */
static int vec_write(struct out *o, int which, const char *name, const struct vec *v, const char *head,
		     const char *tags)
{
	struct tc_vwriter w;
	char path[700], err[300];
	char *text;
	int total = o->nmade[0] + o->nmade[1];
	if (v->broken)
		return fail(o, "%s: a fixed size of ete_neg.c is too small for this vector", name);
	for (int i = 0; i < total; i++)
		if (!strcmp(o->made[i], name))
			return fail(o, "%s written twice", name);
	if (total == MAX_FILES || strlen(name) >= sizeof o->made[0])
		return fail(o, "%s: more files or a longer name than ete_neg.c holds", name);
	tc_vwrite_begin(&w);
	tc_vwrite_comment(&w, head);
	tc_vwrite_config(&w, tc_protocol_find("ete"), &v->cfg, 0);
	tc_vwrite_tags(&w, tags);
	for (int i = 0; i < v->npkt; i++)
		tc_vwrite_trace_packet(&w, v->pkt[i].b, v->pkt[i].n, v->pkt[i].note);
	tc_vwrite_section(&w, tc_sec_l1, tc_strict_offset, NULL);
	write_lines(&w, v->l1, v->nl1);
	tc_vwrite_section(&w, tc_sec_s1, tc_strict_offset, NULL);
	write_lines(&w, v->s1, v->ns1);
	if (v->nerrors) {
		tc_vwrite_section(&w, tc_sec_error, tc_strict_offset, NULL);
		write_lines(&w, v->errors, v->nerrors);
	}
	text = tc_vwrite_end(&w, err, sizeof err);
	if (!text)
		return fail(o, "%s: %s", name, err);
	snprintf(path, sizeof path, "%s/%s", o->dir[which], name);
	if (tc_vector_save(path, text, err, sizeof err)) {
		free(text);
		return fail(o, "%s", err);
	}
	free(text);
	snprintf(o->made[total], sizeof o->made[0], "%s", name);
	o->nmade[which]++;
	return 0;
}

/* ---- Resync vectors ----------------------------------------------------------------- */

enum { ti_default, ti_none, ti_given };

/* A-sync, Trace Info (01 00, the one given, or none), the setup packets, one bad
 * packet, the resync; the description says where the error is and where the search starts. */
struct resync_case {
	const char *name;
	unsigned maxspec;
	int ite, rme;
	int ti;
	struct pkt ti_pkt;
	struct pkt setup;           /* n 0: none */
	uint8_t bad[16];
	size_t nbad;
	const char *cls;
	const char *note;
	const char *head;           /* '\n'-separated */
};

static int write_resync(struct out *o, const struct resync_case *c)
{
	static struct vec v;
	char head[1200], tags[64];
	uint64_t b;
	vec_init(&v, c->maxspec, 0, c->ite, c->rme);
	vec_async(&v);
	if (c->ti == ti_default)
		vec_trace_info(&v);
	else if (c->ti == ti_given)
		vec_add(&v, &c->ti_pkt);
	if (c->setup.n)
		vec_add(&v, &c->setup);
	b = vec_bad(&v, c->bad, c->nbad, c->cls, c->note);
	if (layout_resync(&v, b))
		return fail(o, "%s: the resync A-sync would not be found right after the bad packet", c->name);
	snprintf(head, sizeof head,
		 "%s\nThe parser reports %s at the bad packet's first byte (@%llu), then searches for\n"
		 "the next A-sync from @%llu; it starts at @%llu. Bytes in between produce nothing.",
		 c->head, c->cls, (unsigned long long)b, (unsigned long long)b + 1, (unsigned long long)(b + c->nbad));
	snprintf(tags, sizeof tags, "neg %s", c->cls);
	return vec_write(o, 0, c->name, &v, head, tags);
}

/* ---- 1. Reserved header values, default configuration --------------------------------- */

/* Whether header h starts a packet with commopt=0, ite=0, tsmark=0
 * (K10.5.2.2.1 Parse_Trace; ERRATA.md TC-S2, TC-S3, TC-S3b, TC-S7, TC-P1, TC-P7). */
static int valid_default(unsigned h)
{
	static const unsigned singles[] = {
		0x00, 0x01, 0x02, 0x03, 0x04, 0x06,     /* ext, Trace Info, Timestamp, Trace On, Exception */
		0x0A, 0x0B,                             /* Transaction Start / Commit */
		0x0C, 0x0D, 0x0E, 0x0F,                 /* Cycle Count F2 / F1 */
		0x2D, 0x2E, 0x2F,                       /* Commit, Cancel F1 */
		0x80, 0x81, 0x82, 0x83, 0x85, 0x86,     /* Context, Address with Context */
		0x90, 0x91, 0x92, 0x95, 0x96, 0x9A, 0x9B, 0x9D, 0x9E,   /* Target Address */
		0xA0, 0xA1, 0xA2, 0xA5, 0xA6, 0xAA, 0xAB, 0xAC, 0xAF,   /* Q */
		0xB0, 0xB1, 0xB2, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9,   /* Source Address */
	};
	for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++)
		if (h == singles[i])
			return 1;
	return (h >= 0x10 && h <= 0x1F)      /* Cycle Count F3 (all 16 in commit mode 0) */
	       || (h >= 0x30 && h <= 0x3F)   /* Mispredict 30-33, Cancel F2 34-37, F3 38-3F */
	       || (h >= 0x70 && h <= 0x7F)   /* Ignore 70, Event 71-7F */
	       || h >= 0xC0;                 /* Atom formats 1-6 */
}

/* Exact-match index 3 (TC-S3, TC-S3b): class exact-match-index, not reserved-header. */
static int exact_match_3(unsigned h)
{
	return h == 0x93 || h == 0xA3 || h == 0xB3;
}

/* What header h was, or why it is reserved. */
static const char *header_note(unsigned h)
{
	static const struct { unsigned h; const char *note; } notes[] = {
		{ 0x05, "ETMv4-M function return; no ETE packet" },
		{ 0x07, "ETMv4 Exception Return, removed in ETE" },
		{ 0x08, "reserved" },
		{ 0x09, "Instrumentation only with ite=1 (ERRATA TC-P1); here ite=0" },
		{ 0x84, "no Address-with-Context form for header<2:0>=100" },
		{ 0x87, "no Address-with-Context form for header<2:0>=111" },
		{ 0x88, "Timestamp Marker only with tsmark=1 (ERRATA TC-P1); here tsmark=0" },
		{ 0x94, "K10 routes '100101xx' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)" },
		{ 0x97, "K10 routes '100101xx' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)" },
		{ 0x98, "K10 routes '1001100x' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)" },
		{ 0x99, "K10 routes '1001100x' to Parse_TargetAddressPacket, which has no arm (ERRATA TC-S2)" },
		{ 0x9C, "no Target Address form for header<2:0>=100" },
		{ 0x9F, "no Target Address form for header<2:0>=111" },
		{ 0x93, "exact match with QE=3: AddressHistoryBuffer.Get asserts n<3 (ERRATA TC-S3b)" },
		{ 0xA3, "Q type 0011 = exact match with QE=3 (ERRATA TC-S3b)" },
		{ 0xB3, "Source Address exact match q=3; K10 '101100xx' includes it (ERRATA TC-S3)" },
	};
	for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
		if (notes[i].h == h)
			return notes[i].note;
	if (h >= 0x20 && h <= 0x2C)
		return "ETMv4 data synchronisation markers; no ETE packet";
	if (h >= 0x40 && h <= 0x6F)
		return "ETMv4 conditional instruction/result packets; no ETE packet";
	return "reserved";
}

/* "reserved Q type 0100" for the reserved Q headers, else header_note. */
static void header_reason(unsigned h, char *buf, size_t size)
{
	static const unsigned q[] = { 0xA4, 0xA7, 0xA8, 0xA9, 0xAD, 0xAE };
	for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
		if (h == q[i]) {
			snprintf(buf, size, "reserved Q type %u%u%u%u", h >> 3 & 1, h >> 2 & 1, h >> 1 & 1, h & 1);
			return;
		}
	snprintf(buf, size, "%s", header_note(h));
}

static int write_header(struct out *o, unsigned h)
{
	struct resync_case c = { .ti = ti_default, .nbad = 1 };
	char name[32], note[32], head[400], reason[120];
	c.cls = exact_match_3(h) ? "exact-match-index" : "reserved-header";
	header_reason(h, reason, sizeof reason);
	snprintf(name, sizeof name, "hdr-%02x.tcv", h);
	snprintf(note, sizeof note, "header 0x%02X", h);
	snprintf(head, sizeof head,
		 "Header 0x%02x with commopt=0, ite=0, tsmark=0: %s.\nClass %s (reference/ete/FORMAT.md, reference/ete/ERRATA.md).",
		 h, reason, c.cls);
	c.name = name;
	c.bad[0] = (uint8_t)h;
	c.note = note;
	c.head = head;
	return write_resync(o, &c);
}

/* Every header that starts no packet in the default configuration (this
 * includes 0x09, Instrumentation only with ite=1, and 0x88, Timestamp
 * Marker only with tsmark=1: TC-P1), and the three of exact-match index 3.
 * With commopt=1, 0x0C and 0x14-0x1F are cycle counts whose ignored bits
 * give a warning (ERRATA TC-R1): they are in vectors/ete/warn. */
static int write_headers(struct out *o, int *reserved, int *exact, int *valid)
{
	for (unsigned h = 0; h < 256; h++) {
		*valid += valid_default(h);
		*exact += exact_match_3(h);
		*reserved += !valid_default(h) && !exact_match_3(h);
		if (!valid_default(h) && write_header(o, h))
			return -1;
	}
	return 0;
}

/* ---- 2. Reserved extension bytes: 00 xx, xx not 00, 03, 05; grouped by high nibble ---- */

static int ext_valid(unsigned x)
{
	return x == 0x00 || x == 0x03 || x == 0x05;
}

static int write_extension_group(struct out *o, unsigned hi)
{
	static struct vec v;
	char name[32], head[800], values[80] = "";
	vec_init(&v, 0, 0, 0, 0);
	vec_async(&v);
	vec_trace_info(&v);
	for (unsigned x = hi * 16; x < hi * 16 + 16; x++) {
		uint8_t bad[2] = { 0x00, (uint8_t)x };
		char note[64];
		if (ext_valid(x))
			continue;
		snprintf(note, sizeof note, "extension packet 00, second byte 0x%02X", x);
		vec_bad(&v, bad, 2, "reserved-extension", note);
		vec_async(&v);   /* the search from the second byte (not 0) finds it right after */
		snprintf(values + strlen(values), sizeof values - strlen(values), "%s%02x", values[0] ? ", " : "", x);
	}
	vec_trace_info(&v);
	vec_atom_e(&v);
	snprintf(name, sizeof name, "ext-%xx.tcv", hi);
	snprintf(head, sizeof head,
		 "Reserved extension bytes 0x%02x-0x%02x: header 00 followed by a byte other than\n"
		 "00 (A-sync), 03 (Discard), 05 (Overflow) is reserved-extension (K10.5.2.3.1\n"
		 "\"otherwise ReservedEncoding()\"), reported at the 00 byte. Each bad packet is\n"
		 "followed by a full A-sync, which the resync search (starting at the second\n"
		 "byte, which is non-zero) finds right after it. Values here: %s.",
		 hi * 16, hi * 16 + 15, values);
	return vec_write(o, 0, name, &v, head, "neg reserved-extension");
}

static int write_extension_groups(struct out *o)
{
	for (unsigned hi = 0; hi < 16; hi++)
		if (write_extension_group(o, hi))
			return -1;
	return 0;
}

/* ---- 3. Other classes, each a resync vector -------------------------------------------- */

static const struct resync_case other_cases[] = {
	/* bad-async (ERRATA TC-P2: at least 10 zero payload bytes, then 0x80) */
	{ .name = "async-9zeros.tcv", .bad = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 }, .nbad = 11, .cls = "bad-async",
	  .note = "header 00 + 9 zero payload bytes + 0x80",
	  .head = "A-sync with only 9 zero payload bytes (10 zero bytes in all) before 0x80." },
	{ .name = "async-1zero.tcv", .bad = { 0x00, 0x00, 0x80 }, .nbad = 3, .cls = "bad-async",
	  .note = "header 00 + 1 zero payload byte + 0x80", .head = "00 00 80: one zero payload byte, then 0x80." },
	{ .name = "async-bad-end.tcv", .bad = { 0x00, 0x00, 0x00, 0x05 }, .nbad = 4, .cls = "bad-async",
	  .note = "00 00 00 then 0x05",
	  .head = "00 00 00 05: the zero run of an A-sync ends in 0x05 instead of 0x80\n"
		  "(K10: \"if extension != 10000000 then ReservedEncoding\")." },
	{ .name = "async-no-80.tcv", .bad = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01 }, .nbad = 13,
	  .cls = "bad-async", .note = "12 zero bytes then 0x01",
	  .head = "Twelve zero bytes (enough) but then 0x01 instead of 0x80. The resync search from\n"
		  "the next byte sees 11 zeros followed by 0x01: not an A-sync." },
	/* sbz */
	{ .name = "sbz-addr32-b1.tcv", .bad = { 0x9A, 0x81, 0x02, 0x03, 0x04 }, .nbad = 5, .cls = "sbz",
	  .note = "9A with b1<7>=1",
	  .head = "Target Address 32-bit IS0 (9A): byte 1 bit 7 is SBZ (LongAddressBytes, K10.5.2.14.2)." },
	{ .name = "sbz-addr64-b2.tcv", .bad = { 0x9D, 0x01, 0x82, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, .nbad = 9,
	  .cls = "sbz", .note = "9D with b2<7>=1",
	  .head = "Target Address 64-bit IS0 (9D): byte 2 bit 7 is SBZ (LongAddressBytes)." },
	{ .name = "sbz-addr64is1-b1.tcv", .bad = { 0x9E, 0x81, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, .nbad = 9,
	  .cls = "sbz", .note = "9E with b1<7>=1",
	  .head = "Target Address 64-bit IS1 (9E): byte 1 bit 7 is SBZ (LongAddressBytes)." },
	{ .name = "sbz-addrctx-b1.tcv", .bad = { 0x82, 0x81, 0x02, 0x03, 0x04, 0x01 }, .nbad = 6, .cls = "sbz",
	  .note = "82 with b1<7>=1, context INFO 0x01",
	  .head = "Address with Context 32-bit IS0 (82): the long address byte 1 bit 7 is SBZ." },
	{ .name = "sbz-q-addr-b1.tcv", .bad = { 0xAA, 0x81, 0x02, 0x03, 0x04, 0x05 }, .nbad = 6, .cls = "sbz",
	  .note = "AA with b1<7>=1, count 5",
	  .head = "Q with 32-bit IS0 address (AA): LongAddressBytes byte 1 bit 7 is SBZ." },
	{ .name = "sbz-ctx-bit2.tcv", .bad = { 0x81, 0x04 }, .nbad = 2, .cls = "sbz", .note = "81, INFO 0x04 (bit 2)",
	  .head = "Context payload bit 2 is SBZ (K10.5.2.14.9 SBZ(payload<3:2>), ERRATA TC-P8)." },
	{ .name = "sbz-ctx-bit3.tcv", .bad = { 0x81, 0x08 }, .nbad = 2, .cls = "sbz", .note = "81, INFO 0x08 (bit 3)",
	  .head = "Context payload bit 3 is SBZ when rme=0 (ERRATA TC-P8; with rme=1 it is NSE, see\n"
		  "vectors/ete/hdr/context-rme.tcv)." },
	{ .name = "sbz-ctx-bit2-rme.tcv", .rme = 1, .bad = { 0x81, 0x04 }, .nbad = 2, .cls = "sbz",
	  .note = "81, INFO 0x04 (bit 2)", .head = "Context payload bit 2 stays SBZ with rme=1 (ERRATA TC-P8)." },
	{ .name = "sbz-exc-addr.tcv", .bad = { 0x06, 0x5C, 0x9A, 0x81, 0x02, 0x03, 0x04 }, .nbad = 7, .cls = "sbz",
	  .note = "06 5C, AH 9A with b1<7>=1",
	  .head = "Exception E=10 TYPE=0xe whose embedded 32-bit IS0 address has byte 1 bit 7 set:\n"
		  "SBZ inside the exception packet, reported at the 06 byte." },
	/* reserved-field */
	{ .name = "exc-e00.tcv", .bad = { 0x06, 0x1C }, .nbad = 2, .cls = "reserved-field",
	  .note = "06, payload 0x1c: E=00",
	  .head = "Exception payload 0x1c = 0001_1100: E1=bit6=0, E0=bit0=0 -> E=00, reserved\n"
		  "(K10.5.2.13.1 \"else ReservedEncoding\"); no address header is read." },
	{ .name = "exc-e11.tcv", .bad = { 0x06, 0x5D, 0x90 }, .nbad = 3, .cls = "reserved-field",
	  .note = "06, payload 0x5d: E=11",
	  .head = "Exception payload 0x5d = 0101_1101: E1=1, E0=1 -> E=11, reserved." },
	/* exact-match-index inside an exception */
	{ .name = "exc-ah-93.tcv", .bad = { 0x06, 0x5C, 0x93 }, .nbad = 3, .cls = "exact-match-index",
	  .note = "06 5C, AH 93",
	  .head = "Exception E=10 TYPE=0xe with address header 0x93: exact match QE=3\n"
		  "(ERRATA TC-S3b, TC-P4), class exact-match-index, reported at the 06 byte." },
	/* field-overflow (BitReplacement final byte, ERRATA TC-S10) */
	{ .name = "fo-commit.tcv", .bad = { 0x2D, 0x81, 0x80, 0x80, 0x80, 0x10 }, .nbad = 6, .cls = "field-overflow",
	  .note = "Commit, 5th ULEB byte 0x10",
	  .head = "COMMIT is ULEB128(32): after 4 continued bytes (28 bits) the 5th byte fills\n"
		  "bits 31:28 with its bits 3:0; its bits 7:4 must be 0. 0x10 sets bit 4." },
	{ .name = "fo-cancel.tcv", .bad = { 0x2E, 0x80, 0x80, 0x80, 0x80, 0x20 }, .nbad = 6, .cls = "field-overflow",
	  .note = "Cancel F1, 5th ULEB byte 0x20",
	  .head = "CANCEL is ULEB128(32): 5th byte 0x20 has bit 5 set, beyond bit 31 of the field." },
	{ .name = "fo-q-count.tcv", .bad = { 0xAC, 0x80, 0x80, 0x80, 0x80, 0xF0 }, .nbad = 6, .cls = "field-overflow",
	  .note = "Q type 1100, 5th count byte 0xf0",
	  .head = "Q COUNT is ULEB128(32): 5th byte 0xf0 has bits 7:4 set (no continuation exists\n"
		  "after the 5th byte; bit 7 is part of the overflow)." },
	{ .name = "fo-cc-count.tcv", .bad = { 0x0E, 0x00, 0x80, 0x80, 0x40 }, .nbad = 5, .cls = "field-overflow",
	  .note = "Cycle Count F1, COMMIT=0, COUNT 3rd byte 0x40",
	  .head = "Cycle Count COUNT is ULEB128(20): after 2 continued bytes (14 bits) the 3rd byte\n"
		  "fills bits 19:14 with its bits 5:0; bits 7:6 must be 0. 0x40 sets bit 6." },
	{ .name = "fo-ts-count.tcv", .bad = { 0x03, 0x01, 0xFF, 0xFF, 0xC0 }, .nbad = 5, .cls = "field-overflow",
	  .note = "Timestamp 03, TS=1, COUNT 3rd byte 0xc0",
	  .head = "Timestamp COUNT is ULEB128(20): 3rd byte 0xc0 sets bits 7:6." },
	{ .name = "fo-ti-cyct.tcv", .bad = { 0x01, 0x08, 0x80, 0x80, 0x80, 0x80, 0x10 }, .nbad = 7,
	  .cls = "field-overflow", .note = "Trace Info PLCTL 0x08, CYCT 5th byte 0x10",
	  .head = "Trace Info CYCT is ULEB128(32) (ERRATA TC-P3): 5th byte 0x10 sets bit 4." },
	{ .name = "fo-ti-wndw.tcv", .bad = { 0x01, 0x10, 0x80, 0x80, 0x80, 0x80, 0x10 }, .nbad = 7,
	  .cls = "field-overflow", .note = "Trace Info PLCTL 0x10, WNDW 5th byte 0x10",
	  .head = "Trace Info WNDW is ULEB128(32) (ERRATA TC-P3): 5th byte 0x10 sets bit 4." },
};

/* Reserved address headers inside an exception (ERRATA TC-P4): reserved-field. */
static int write_exception_address_header(struct out *o, unsigned ah)
{
	struct resync_case c = { .ti = ti_default, .bad = { 0x06, 0x5C, (uint8_t)ah }, .nbad = 3,
				 .cls = "reserved-field" };
	char name[32], note[32], head[400];
	snprintf(name, sizeof name, "exc-ah-%02x.tcv", ah);
	snprintf(note, sizeof note, "06 5C, AH %02X", ah);
	snprintf(head, sizeof head,
		 "Exception E=10 TYPE=0xe with address header 0x%02x, which is not one of\n"
		 "90-92, 95, 96, 9A, 9B, 9D, 9E, 82, 83, 85, 86, 70: reserved-field\n"
		 "(ERRATA TC-P4), reported at the 06 byte.", ah);
	c.name = name;
	c.note = note;
	c.head = head;
	return write_resync(o, &c);
}

static int write_other_classes(struct out *o)
{
	static const unsigned ahs[] = { 0x80, 0x81, 0x84, 0x87, 0x94, 0x97, 0x98, 0x99, 0x9C, 0x9F, 0xA5, 0xB0, 0xF7, 0x01 };
	for (size_t i = 0; i < sizeof other_cases / sizeof other_cases[0]; i++)
		if (write_resync(o, &other_cases[i]))
			return -1;
	for (size_t i = 0; i < sizeof ahs / sizeof ahs[0]; i++)
		if (write_exception_address_header(o, ahs[i]))
			return -1;
	return 0;
}

/* ---- 4. Commit/cancel beyond the outstanding depth, spec-mismatch ------------------------
 * ERRATA TC-S11: detected in stage 1 before any state changes, so the bad packet emits
 * nothing; spec-mismatch: TC-P10. maxspec=16 everywhere but spec-exceeds-maxspec, so no
 * implicit commit: atoms only raise the depth. */


static const struct resync_case depth_cases[] = {
	{ .name = "overrun-commit.tcv", .maxspec = 16, .setup = { { 0xDB }, 1, "atoms E E (Atom F2, A=11): depth 0 -> 2", "atom atoms=EE", { "atom E", "atom E" } },
	   .bad = { 0x2D, 0x03 }, .nbad = 2,
	  .cls = "commit-overrun", .note = "Commit 3", .head = "Commit 3 with 2 P0 elements outstanding (depth 2)." },
	{ .name = "overrun-commit-unseen.tcv", .maxspec = 16, .ti = ti_given,
	  .ti_pkt = { { 0x01, 0x04, 0x03 }, 3, "Trace Info", "trace-info cc=0 cct=0 spec=3 tx=0",
		      { "trace-info cc=0 cct=0 spec=3 tx=0" } },
	  .setup = { { 0xF7 }, 1, "atom E (Atom F1): depth 3 -> 4", "atom atoms=E", { "atom E" } },
	  .bad = { 0x2D, 0x05 }, .nbad = 2, .cls = "commit-overrun", .note = "Commit 5",
	  .head = "The Trace Info says 3 unseen P0 elements are outstanding (SPEC=3); one atom makes\n"
		  "the depth 4; Commit 5 exceeds it." },
	{ .name = "overrun-cc-f3.tcv", .maxspec = 16, .bad = { 0x10 }, .nbad = 1, .cls = "commit-overrun",
	  .note = "Cycle Count F3 AA=00 BB=00",
	  .head = "Cycle Count format 3 (0x10, commit mode 0) commits AA+1 = 1 element with depth 0." },
	{ .name = "overrun-cc-f2.tcv", .maxspec = 16, .bad = { 0x0D, 0xF0 }, .nbad = 2, .cls = "commit-overrun",
	  .note = "Cycle Count F2 F=1, payload 0xf0",
	  .head = "Cycle Count format 2 with F=1 (0x0D), AAAA=15: commit = MAXSPEC + AAAA - 15 = 16\n"
		  "(ERRATA TC-S7) with depth 0." },
	{ .name = "overrun-cc-f1.tcv", .maxspec = 16, .setup = { { 0xF7 }, 1, "atom E (Atom F1): depth 0 -> 1", "atom atoms=E", { "atom E" } },
	   .bad = { 0x0E, 0x02, 0x05 }, .nbad = 3,
	  .cls = "commit-overrun", .note = "Cycle Count F1, COMMIT=2, COUNT=5",
	  .head = "Cycle Count format 1 (0x0E) with COMMIT=2 and depth 1." },
	{ .name = "overrun-cancel-f1.tcv", .maxspec = 16, .setup = { { 0xDB }, 1, "atoms E E (Atom F2, A=11): depth 0 -> 2", "atom atoms=EE", { "atom E", "atom E" } },
	   .bad = { 0x2E, 0x03 }, .nbad = 2,
	  .cls = "cancel-overrun", .note = "Cancel F1 M=0, 3", .head = "Cancel format 1 of 3 elements with depth 2." },
	{ .name = "overrun-cancel-f2.tcv", .maxspec = 16, .bad = { 0x34 }, .nbad = 1, .cls = "cancel-overrun",
	  .note = "Cancel F2 A=00", .head = "Cancel format 2 with A=00 (no atom) cancels 1 element with depth 0." },
	{ .name = "overrun-cancel-f3.tcv", .maxspec = 16, .setup = { { 0xF7 }, 1, "atom E (Atom F1): depth 0 -> 1", "atom atoms=E", { "atom E" } },
	   .bad = { 0x3E }, .nbad = 1,
	  .cls = "cancel-overrun", .note = "Cancel F3 CC=11 A=0",
	  .head = "Cancel format 3 0x3e: A=0 (no atom), CC=11 -> cancels CC+2 = 5 elements with depth 1." },
	{ .name = "spec-exceeds-maxspec.tcv", .ti = ti_none, .bad = { 0x01, 0x04, 0x01 }, .nbad = 3,
	  .cls = "spec-mismatch", .note = "Trace Info PLCTL 0x04, SPEC=1",
	  .head = "The first Trace Info says SPEC=1 but maxspec=0 (ERRATA TC-P10)." },
	{ .name = "spec-differs.tcv", .maxspec = 16, .setup = { { 0xDB }, 1, "atoms E E (Atom F2, A=11): depth 0 -> 2", "atom atoms=EE", { "atom E", "atom E" } },
	   .bad = { 0x01, 0x04, 0x03 }, .nbad = 3,
	  .cls = "spec-mismatch", .note = "Trace Info PLCTL 0x04, SPEC=3",
	  .head = "A second Trace Info says SPEC=3 (<= maxspec 16) while the outstanding depth is 2\n"
		  "(ERRATA TC-P10)." },
	{ .name = "spec-differs-zero.tcv", .maxspec = 16, .setup = { { 0xDB }, 1, "atoms E E (Atom F2, A=11): depth 0 -> 2", "atom atoms=EE", { "atom E", "atom E" } },
	   .bad = { 0x01, 0x01, 0x01 }, .nbad = 3,
	  .cls = "spec-mismatch", .note = "Trace Info PLCTL 0x01 (no SPEC section: 0), INFO 0x01",
	  .head = "A second Trace Info without SPEC section (SPEC=0) while the outstanding depth is 2\n"
		  "(ERRATA TC-P10)." },
};

static int write_depth_cases(struct out *o)
{
	for (size_t i = 0; i < sizeof depth_cases / sizeof depth_cases[0]; i++)
		if (write_resync(o, &depth_cases[i]))
			return -1;
	return 0;
}

/* ---- 5. Truncated: the stream ends inside a packet; the error is at its first byte and
 * nothing follows ------------------------------------------------------------------------- */

struct trunc_case {
	const char *name;
	int ite;
	uint8_t b[16];
	size_t n;
	const char *why;
};

static const struct trunc_case trunc_cases[] = {
	{ "trunc-ext.tcv", 0, { 0x00 }, 1, "header 00 with no second byte" },
	{ "trunc-trace-info.tcv", 0, { 0x01, 0x01 }, 2, "Trace Info PLCTL=0x01 but no INFO byte" },
	{ "trunc-trace-info-cyct.tcv", 0, { 0x01, 0x08, 0x81 }, 3,
	  "Trace Info PLCTL=0x08: the CYCT byte 0x81 announces a continuation that is missing" },
	{ "trunc-timestamp.tcv", 0, { 0x02, 0x81 }, 2, "Timestamp: 0x81 continues, next byte missing" },
	{ "trunc-timestamp-count.tcv", 0, { 0x03, 0x05 }, 2, "Timestamp 03: TS byte 0x05 complete, COUNT missing" },
	{ "trunc-exception.tcv", 0, { 0x06, 0x5C, 0x9D, 0x11, 0x22 }, 5, "Exception E=10, AH 9D: 2 of 8 address bytes" },
	{ "trunc-exception-ah.tcv", 0, { 0x06, 0x5C }, 2, "Exception payload byte, no address header" },
	{ "trunc-cc-f1.tcv", 0, { 0x0E, 0x00 }, 2, "Cycle Count F1: COMMIT=0, COUNT missing" },
	{ "trunc-cc-f2.tcv", 0, { 0x0C }, 1, "Cycle Count F2: payload byte missing" },
	{ "trunc-commit.tcv", 0, { 0x2D, 0x80 }, 2, "Commit: 0x80 continues, next byte missing" },
	{ "trunc-cancel.tcv", 0, { 0x2E }, 1, "Cancel F1: CANCEL field missing" },
	{ "trunc-context.tcv", 0, { 0x81, 0xC0, 0x01, 0x02 }, 4, "Context INFO 0xc0 (VMID and CTXID follow): 2 of 8 bytes" },
	{ "trunc-addr-ctx.tcv", 0, { 0x85, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xC0, 0x01 }, 11,
	  "Address with Context 85: address complete, INFO 0xc0, 1 of 8 VMID/CTXID bytes" },
	{ "trunc-address-long.tcv", 0, { 0x9D, 0x01, 0x02, 0x03 }, 4, "Long address 9D: 3 of 8 bytes" },
	{ "trunc-address-short.tcv", 0, { 0x95, 0x81 }, 2, "Short address 95: 0x81 announces a second byte" },
	{ "trunc-q.tcv", 0, { 0xA5, 0x05 }, 2, "Q 0xa5: short address complete, COUNT missing" },
	{ "trunc-q-addr.tcv", 0, { 0xAA, 0x01, 0x02 }, 3, "Q 0xaa: 2 of 4 address bytes" },
	{ "trunc-source.tcv", 0, { 0xB8, 0x01, 0x02 }, 3, "Source Address B8: 2 of 8 bytes" },
	{ "trunc-ite.tcv", 1, { 0x09, 0x01, 0x11, 0x22 }, 4, "Instrumentation (ite=1): EL byte and 2 of 8 value bytes" },
};

static int write_truncated(struct out *o, const struct trunc_case *c)
{
	static struct vec v;
	char head[600];
	uint64_t b;
	vec_init(&v, 0, 0, c->ite, 0);
	vec_async(&v);
	vec_trace_info(&v);
	b = vec_bad(&v, c->b, c->n, "truncated", c->why);
	snprintf(head, sizeof head,
		 "Truncated packet at the end of the stream: %s.\n"
		 "Class truncated at the packet's first byte (@%llu), whose byte is the L1 header\n"
		 "column. Nothing follows.", c->why, (unsigned long long)b);
	return vec_write(o, 0, c->name, &v, head, "neg truncated");
}

static int write_truncations(struct out *o)
{
	for (size_t i = 0; i < sizeof trunc_cases / sizeof trunc_cases[0]; i++)
		if (write_truncated(o, &trunc_cases[i]))
			return -1;
	return 0;
}

/* ---- 6. Fields ignored with a warning (ERRATA TC-R1): vectors/ete/warn ------------------
 * A-sync, a Trace Info (01 00; none when the packet is the Trace Info), the packet whose
 * unassigned bits are set, then atom E. One L1 warning line per warning, after the packet's
 * line (reference/ete/FORMAT.md "Warnings"). Nothing else changes: the lines, s1 included, are
 * those of the same packet with the bits clear (ERRATA TC-R1). */

struct warning {
	const char *cls;
	const char *field;
	unsigned bits;
};

struct warn_case {
	const char *name;
	int commopt, ite;
	int trace_info;             /* 1: a Trace Info 01 00 before the packet */
	struct pkt p;
	struct warning w[2];
	int nw;
	const char *head;
};

static int write_warned(struct out *o, const struct warn_case *c)
{
	static struct vec v;
	char head[1200], tags[64];
	uint64_t off;
	vec_init(&v, 0, c->commopt, c->ite, 0);
	vec_async(&v);
	if (c->trace_info)
		vec_trace_info(&v);
	off = vec_add(&v, &c->p);
	for (int i = 0; i < c->nw; i++)
		add_line(&v, v.l1, &v.nl1, "@%llu %02x warning class=%s field=%s bits=0x%x", (unsigned long long)off,
			 c->p.b[0], c->w[i].cls, c->w[i].field, c->w[i].bits);
	vec_atom_e(&v);
	snprintf(head, sizeof head, "%s\nDecoding goes on: the atom E after it decodes as usual.", c->head);
	if (!strcmp(c->w[0].cls, "res0"))
		snprintf(tags, sizeof tags, "warning res0%s", c->ite ? " ite instrumentation" : "");
	else
		snprintf(tags, sizeof tags, "warning ignored-field commopt1");
	return vec_write(o, 1, c->name, &v, head, tags);
}

/* Trace Info INFO bits no text assigns, as the first Trace Info after the A-sync. */
static int write_info_cases(struct out *o)
{
	static const struct { unsigned info; const char *l1; } cases[] = {
		{ 0x10, ti0 }, { 0x03, ti_cc }, { 0x21, ti_cc }, { 0x80, ti0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned info = cases[i].info;
		char name[32], note[64], head[600];
		struct warn_case c = { .name = name, .head = head, .nw = 1 };
		c.p = (struct pkt){ { 0x01, 0x01, (uint8_t)info }, 3, note, cases[i].l1, { cases[i].l1 } };
		c.w[0] = (struct warning){ "res0", "info", info & 0xbe };
		snprintf(name, sizeof name, "info-%02x.tcv", info);
		snprintf(note, sizeof note, "Trace Info, PLCTL 0x01, INFO 0x%02X", info);
		snprintf(head, sizeof head,
			 "Trace Info INFO 0x%02x as the first Trace Info after the A-sync. K10.5.2.6.2\n"
			 "TraceInfoPacket uses INFO<0> (cc_enabled) only, and ERRATA TC-S12 adds INFO<6>\n"
			 "(in transaction); bits 0x%02x are assigned nowhere: ignored with a res0 warning\n"
			 "(ERRATA TC-R1). With INFO 0x%02x the lines are the same without the warning.",
			 info, info & 0xbe, info & 0x41);
		if (write_warned(o, &c))
			return -1;
	}
	return 0;
}

/* Trace Info PLCTL bits Parse_TraceInfoPacket does not read. */
static int write_plctl_cases(struct out *o)
{
	static const struct { unsigned plctl; int info; const char *l1; const char *why; } cases[] = {
		{ 0x81, 1, ti_cc, "PLCTL<7> (an ETMv4 continuation bit; K10 reads PLCTL as one byte)" },
		{ 0x40, 0, ti0, "PLCTL<6>" },
		{ 0x20, 0, ti0, "PLCTL<5>" },
		{ 0x02, 0, ti0, "PLCTL<1> (KEY section in ETMv4 data trace; no such section in K10)" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned plctl = cases[i].plctl;
		char name[32], note[64], head[600];
		struct warn_case c = { .name = name, .head = head, .nw = 1 };
		c.p = (struct pkt){ { 0x01, (uint8_t)plctl, 0x01 }, cases[i].info ? 3 : 2, note, cases[i].l1, { cases[i].l1 } };
		c.w[0] = (struct warning){ "res0", "plctl", plctl & 0xe2 };
		snprintf(name, sizeof name, "plctl-%02x.tcv", plctl);
		snprintf(note, sizeof note, "Trace Info, PLCTL 0x%02X%s", plctl, cases[i].info ? ", INFO 0x01" : "");
		snprintf(head, sizeof head,
			 "Trace Info PLCTL 0x%02x: %s is not read by\n"
			 "K10.5.2.6.1 Parse_TraceInfoPacket, which tests PLCTL<0>, <2> and <3> only (and\n"
			 "PLCTL<4>, WNDW, ERRATA TC-P3): res0 warning (ERRATA TC-R1); the sections the\n"
			 "assigned bits announce are read as usual.", plctl, cases[i].why);
		if (write_warned(o, &c))
			return -1;
	}
	return 0;
}

static const struct warn_case exception_bit7 = {
	.name = "exception-bit7.tcv", .trace_info = 1,
	.p = { { 0x06, 0xDC, 0x90 }, 3, "Exception, payload 0xDC, AH 90", "exception e=2 type=0xe addr=0x0 isa=0",
	       { "target-address addr=0x0 isa=0", "exception type=0xe addr=0x0", implicit_commit } },
	.w = { { "res0", "exception", 0x80 } }, .nw = 1,
	.head = "Exception payload 0xdc = 1101_1100: K10.5.2.13.1 reads E<0> = bit 0 = 0,\n"
		"E<1> = bit 6 = 1 (E=10) and TYPE = bits 5:1 = 0xe; bit 7 is read nowhere: res0\n"
		"warning (ERRATA TC-P4, TC-R1). AH 90: exact match 0, AHB[0] = 0x0 IS0 after the\n"
		"Trace Info. E=10: Target Address, then the Exception element, then the implicit\n"
		"commit of UpdateSpecDepth(1) with maxspec 0. Payload 0x5c gives the same lines.",
};

static const struct warn_case ite_el = {
	.name = "ite-el.tcv", .ite = 1, .trace_info = 1,
	.p = { { 0x09, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, 10,
	       "Instrumentation, EL byte 0x05, value 0x0807060504030201", "instrumentation el=1 value=0x807060504030201",
	       { "instrumentation el=1 value=0x807060504030201" } },
	.w = { { "res0", "instrumentation", 0x04 } }, .nw = 1,
	.head = "Instrumentation (ite=1, ERRATA TC-P1): the EL byte assigns bits 1:0 only; 0x05\n"
		"sets bit 2 as well: res0 warning (ERRATA TC-R1). EL = 1; the value is the next\n"
		"eight bytes, little endian.",
};

/* Source Address: bit 7 of the low bytes, which no SBZ() guards. */
static int write_source_address_cases(struct out *o)
{
	static const struct { uint8_t b[9]; uint64_t addr; int isa; unsigned bits; const char *what; } cases[] = {
		{ { 0xB6, 0x81, 0x02, 0x03, 0x04 }, 0x04030404, 0, 0x80,
		  "B6 (32-bit IS0): data12<7> set; address = 0403:02<6:0>:01<6:0>:00" },
		{ { 0xB8, 0x81, 0x82, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, 0x807060504030404, 0, 0x8080,
		  "B8 (64-bit IS0): data1<7> and data2<7> set (bits 0x8080 of the two bytes)" },
		{ { 0xB9, 0x81, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, 0x807060504030202, 1, 0x80,
		  "B9 (64-bit IS1): data11<7> set; address = 08070605040302:01<6:0>:0" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char name[40], note[80], line[80], head[800];
		struct warn_case c = { .name = name, .head = head, .trace_info = 1, .nw = 1 };
		c.p = (struct pkt){ .n = cases[i].b[0] == 0xB6 ? 5 : 9, .note = note, .l1 = line,
				    .s1 = { line, implicit_commit } };
		memcpy(c.p.b, cases[i].b, c.p.n);
		c.w[0] = (struct warning){ "res0", "source-address", cases[i].bits };
		snprintf(name, sizeof name, "source-address-%02x.tcv", cases[i].b[0]);
		snprintf(note, sizeof note, "Source Address %02X, bit 7 of the low byte(s) set", cases[i].b[0]);
		snprintf(line, sizeof line, "source-address addr=0x%llx isa=%d", (unsigned long long)cases[i].addr,
			 cases[i].isa);
		snprintf(head, sizeof head,
			 "Source Address %s.\n"
			 "K10.5.2.12.1 Parse_SourceAddressPacket reads data<6:0> of the low bytes and no\n"
			 "SBZ() (unlike LongAddressBytes): bit 7 is assigned nowhere, a res0 warning\n"
			 "(ERRATA TC-P9, TC-R1). Emit, then UpdateSpecDepth(1) (ERRATA TC-S8): with maxspec\n"
			 "0 the implicit Commit(1). The same bytes with bit 7 clear give the same lines.", cases[i].what);
		if (write_warned(o, &c))
			return -1;
	}
	return 0;
}

/* Cycle Count format 2 with commopt=1: F and AAAA are not read. */
static int write_cc_f2_cases(struct out *o)
{
	static const struct { unsigned hdr, pay; struct warning w[2]; int nw; const char *why; } cases[] = {
		{ 0x0D, 0x1B, { { "ignored-field", "cc-f2-aaaa", 0x1 } }, 1, "AAAA = 0001 instead of 1111" },
		{ 0x0C, 0xF3, { { "ignored-field", "cc-f2-f", 0x0 } }, 1, "F = header<0> = 0 instead of 1" },
		{ 0x0C, 0x05, { { "ignored-field", "cc-f2-f", 0x0 }, { "ignored-field", "cc-f2-aaaa", 0x0 } }, 2,
		  "F = 0 and AAAA = 0000" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned n = cases[i].pay & 0xf;
		char name[40], note[80], l1[64], s1[64], head[800];
		struct warn_case c = { .name = name, .head = head, .commopt = 1, .trace_info = 1, .nw = cases[i].nw };
		c.p = (struct pkt){ { (uint8_t)cases[i].hdr, (uint8_t)cases[i].pay }, 2, note, l1, { s1 } };
		memcpy(c.w, cases[i].w, sizeof c.w);
		snprintf(name, sizeof name, "cc-f2-%02x-%02x-commopt1.tcv", cases[i].hdr, cases[i].pay);
		snprintf(note, sizeof note, "Cycle Count format 2, header 0x%02X, payload 0x%02X", cases[i].hdr, cases[i].pay);
		snprintf(l1, sizeof l1, "cycle-count commit=0 cc=%u", n);
		snprintf(s1, sizeof s1, "cycle-count n=%u", n);
		snprintf(head, sizeof head,
			 "With commopt=1 K10.5.2.16.2 Parse_CycleCountPackets reads BBBB only and calls\n"
			 "CycleCountFormat2Packet('1', '1111', BBBB): here %s, so\n"
			 "ignored-field (ERRATA TC-R1). Commit mode 1 commits nothing (ERRATA TC-S7); the\n"
			 "count is cc_threshold (0: the Trace Info has no CYCT) + BBBB = %u. 0D F%X gives\n"
			 "the same lines without the warning.", cases[i].why, n, n);
		if (write_warned(o, &c))
			return -1;
	}
	return 0;
}

/* Cycle Count format 3 headers 0x14-0x1F with commopt=1: AA is not read. */
static int write_cc_f3_cases(struct out *o)
{
	for (unsigned h = 0x14; h < 0x20; h++) {
		unsigned aa = (h >> 2) & 3, bb = h & 3;
		char name[40], note[64], l1[64], s1[64], head[800];
		struct warn_case c = { .name = name, .head = head, .commopt = 1, .trace_info = 1, .nw = 1 };
		c.p = (struct pkt){ { (uint8_t)h }, 1, note, l1, { s1 } };
		c.w[0] = (struct warning){ "ignored-field", "cc-f3-aa", aa };
		snprintf(name, sizeof name, "cc-f3-%02x-commopt1.tcv", h);
		snprintf(note, sizeof note, "Cycle Count format 3, header 0x%02X", h);
		snprintf(l1, sizeof l1, "cycle-count commit=0 cc=%u", bb);
		snprintf(s1, sizeof s1, "cycle-count n=%u", bb);
		snprintf(head, sizeof head,
			 "Header 0x%02x with commopt=1: K10.5.2.16.2 routes 0001xxxx to\n"
			 "CycleCountFormat3Packet('00', BB) in commit mode 1, ignoring AA = header<3:2> = %u%u:"
			 " ignored-field warning (ERRATA TC-P7, TC-R1).\n"
			 "No commit (commit mode 1); count = cc_threshold 0 + BB = %u. Header 0x%02x gives\n"
			 "the same lines without the warning.", h, aa >> 1, aa & 1, bb, 0x10 | bb);
		if (write_warned(o, &c))
			return -1;
	}
	return 0;
}

static int write_warnings(struct out *o)
{
	return write_info_cases(o) || write_plctl_cases(o) || write_warned(o, &exception_bit7) ||
	       write_source_address_cases(o) || write_warned(o, &ite_el) || write_cc_f2_cases(o) ||
	       write_cc_f3_cases(o) ? -1 : 0;
}

/* ---- The program ------------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ete_neg DIR\n"
		"\n"
		"Writes the templated ETE vectors, each laid out from the hand reasoning written in\n"
		"tools/vecgen/ete_neg.c, through the one .tcv writer (conformance/vecwrite.c):\n"
		"  DIR/neg/   every reserved header value and reserved extension byte of the\n"
		"             default configuration, every other error class, truncations\n"
		"  DIR/warn/  every field the reference ignores with a warning (ERRATA TC-R1)\n"
		"DIR is vectors/ete for `make vectors`; `make vectors-check` writes to a scratch\n"
		"folder and compares. vectors/ete/neg/queue-overflow.tcv is written by hand.\n");
}

/* DIR and DIR/sub, created when missing. */
static int make_dir(struct out *o, int which, const char *dir, const char *sub)
{
	if ((size_t)snprintf(o->dir[which], sizeof o->dir[which], "%s/%s", dir, sub) >= sizeof o->dir[which])
		return fail(o, "folder name too long: %s", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return fail(o, "cannot create '%s': %s", dir, strerror(errno));
	if (mkdir(o->dir[which], 0777) != 0 && errno != EEXIST)
		return fail(o, "cannot create '%s': %s", o->dir[which], strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	static struct out o;
	int reserved = 0, exact = 0, valid = 0;
	tc_out_ignore_file_size_signal();   /* beyond RLIMIT_FSIZE: an error naming the file (EFBIG) */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		usage(stderr);
		return 2;
	}
	if (make_dir(&o, 0, argv[1], "neg") || make_dir(&o, 1, argv[1], "warn") ||
	    write_headers(&o, &reserved, &exact, &valid) || write_extension_groups(&o) || write_other_classes(&o) ||
	    write_depth_cases(&o) || write_truncations(&o) || write_warnings(&o)) {
		fprintf(stderr, "ete_neg: %s\n", o.err);
		return 1;
	}
	printf("wrote %d files to %s and %d to %s\n", o.nmade[0], o.dir[0], o.nmade[1], o.dir[1]);
	printf("reserved (default config): %d, exact-match-index: %d, valid: %d\n", reserved, exact, valid);
	return 0;
}
