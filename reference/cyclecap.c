/* SPDX-License-Identifier: BSD-3-Clause */
/* cyclecap.c — the per-cycle sample file reader (the "Sample file" of the per-cycle protocols' FORMAT.md: the
 * header, the records, the gap record; ERRATA ETMC-F1, F3, F4, F5). */
#include <stdio.h>
#include <string.h>

#include "cyclecap.h"
#include "textscan.h"

void tc_cyclecap_init(struct tc_cyclecap *c, const struct tc_cyclecap_params *p)
{
	memset(c, 0, sizeof *c);
	c->params = *p;
}

/* ETMC-F5: every header byte FORMAT.md "Header" allows; 1 when the header is good. */
static int header_valid(const struct tc_cyclecap *c, const uint8_t *b)
{
	if (memcmp(b, "ETMC", 4) != 0 || b[4] != 1 || b[5] != c->params.major || b[6] > c->params.max_minor)
		return 0;
	if (b[7] != 4 && b[7] != 8 && b[7] != 16)
		return 0;
	if (b[8] > 2 || b[9] > 1 || (b[10] & 0xfe) != 0)
		return 0;
	for (int i = 11; i < TC_CYCLECAP_HEADER; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/* FORMAT.md "Records": 2 bytes a record for a 4- or 8-bit port, 3 for a 16-bit port. */
static size_t record_size_of(uint8_t port_width)
{
	return port_width == 16 ? 3 : 2;
}

static void header_take(struct tc_cyclecap *c)
{
	const uint8_t *b = c->buf;
	c->header = (struct tc_cyclecap_header){ b[4], b[5], b[6], b[7], b[8], b[9], b[10] };
	c->record_size = record_size_of(b[7]);
	c->header_ok = 1;
	c->offset = TC_CYCLECAP_HEADER;
	c->have = 0;
}

/* ETMC-F4, F5: the gap record and the bits a record may not have. 1 when the record is good. */
static int record_decode(const struct tc_cyclecap *c, const uint8_t *b, struct tc_cyclecap_record *r)
{
	uint8_t st = b[0];
	uint16_t pkt = (uint16_t)(b[1] | (c->record_size == 3 ? b[2] << 8 : 0));
	memset(r, 0, sizeof *r);
	r->offset = c->offset;
	if (st == 0x80) {
		r->gap = 1;
		return pkt == 0;
	}
	if ((st & 0xe0) != 0 || (c->params.status_bits == 3 && (st & 0x08)) || (!c->params.has_sync && (st & 0x10)))
		return 0;
	if (c->header.port_width == 4 && (pkt & 0xf0) != 0)
		return 0;
	r->status = st & 0x0f;
	r->sync = (st >> 4) & 1;
	r->pkt = pkt;
	return 1;
}

int tc_cyclecap_next(struct tc_cyclecap *c, const uint8_t **data, size_t *len, struct tc_cyclecap_record *r,
		     int *err, uint64_t *err_offset)
{
	while (*len > 0) {
		if (c->dead) {
			*data += *len;
			*len = 0;
			return 0;
		}
		size_t want = c->header_ok ? c->record_size : TC_CYCLECAP_HEADER;
		size_t n = want - c->have < *len ? want - c->have : *len;
		memcpy(c->buf + c->have, *data, n);
		c->have += n;
		*data += n;
		*len -= n;
		if (c->have < want)
			return 0;
		if (!c->header_ok) {
			if (!header_valid(c, c->buf)) {
				c->dead = 1;
				*err = tc_cyclecap_bad_header;
				*err_offset = 0;
				return -1;
			}
			header_take(c);
			continue;
		}
		int good = record_decode(c, c->buf, r);
		c->offset += c->record_size;
		c->have = 0;
		if (good)
			return 1;
		*err = tc_cyclecap_bad_record;
		*err_offset = r->offset;
		return -1;
	}
	return 0;
}

int tc_cyclecap_finish(struct tc_cyclecap *c, int *err, uint64_t *err_offset)
{
	if (c->dead)
		return 0;
	if (!c->header_ok) {
		*err = tc_cyclecap_bad_header;
		*err_offset = 0;
		c->dead = 1;
		return -1;
	}
	if (c->have > 0) {
		*err = tc_cyclecap_truncated;
		*err_offset = c->offset;
		c->have = 0;
		return -1;
	}
	return 0;
}

/* ---- The driver ------------------------------------------------------------------ */

static void drive_fatal(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv)
{
	c->dead = 1;
	drv->bad_header(drv->ctx);
}

int tc_cyclecap_drive(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv, const uint8_t *data, size_t len)
{
	if (c->finished)
		return -1;
	while (len > 0 && !c->dead) {
		struct tc_cyclecap_record rec;
		int err;
		uint64_t off;
		int k = tc_cyclecap_next(c, &data, &len, &rec, &err, &off);
		if (c->header_ok && !c->header_checked) {
			c->header_checked = 1;
			if (!drv->header_agrees(drv->ctx, &c->header)) {
				drive_fatal(c, drv);
				break;
			}
		}
		if (k == 1)
			drv->record(drv->ctx, &rec);
		else if (k < 0 && err == tc_cyclecap_bad_header)
			drive_fatal(c, drv);
		else if (k < 0)
			drv->record_error(drv->ctx, err, off);
	}
	return 0;
}

int tc_cyclecap_drive_finish(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv)
{
	if (c->finished)
		return -1;
	c->finished = 1;
	if (c->dead)
		return 0;
	if (!c->header_ok && c->have == 0)
		return 0;   /* ETMC-F9: no byte at all: no item */
	int err;
	uint64_t off;
	int cut = tc_cyclecap_finish(c, &err, &off);
	if (cut < 0 && err == tc_cyclecap_bad_header) {
		drv->bad_header(drv->ctx);
		return 0;
	}
	int gave = drv->end_checks ? drv->end_checks(drv->ctx) : 0;
	if (!gave && cut < 0)
		drv->record_error(drv->ctx, err, off);
	return 0;
}

long long tc_cyclecap_record_count(const uint8_t *file, size_t len)
{
	if (len < TC_CYCLECAP_HEADER || memcmp(file, "ETMC", 4) != 0 || (file[7] != 4 && file[7] != 8 && file[7] != 16))
		return -1;
	return (long long)((len - TC_CYCLECAP_HEADER) / record_size_of(file[7]));
}

/* ---- The writer ------------------------------------------------------------------ */

void tc_cyclecap_put_header(const struct tc_cyclecap_header *h, uint8_t out[TC_CYCLECAP_HEADER])
{
	memset(out, 0, TC_CYCLECAP_HEADER);
	memcpy(out, "ETMC", 4);
	out[4] = h->revision;
	out[5] = h->major;
	out[6] = h->minor;
	out[7] = h->port_width;
	out[8] = h->port_mode;
	out[9] = h->half_rate;
	out[10] = h->flags;
}

size_t tc_cyclecap_put_record(const struct tc_cyclecap_record *r, unsigned port_width, uint8_t out[3])
{
	size_t n = port_width == 16 ? 3 : 2;
	out[0] = r->gap ? 0x80 : (uint8_t)((r->status & 0x0f) | (r->sync ? 0x10 : 0));
	out[1] = r->gap ? 0 : (uint8_t)(r->pkt & 0xff);
	out[2] = r->gap ? 0 : (uint8_t)(r->pkt >> 8);
	return n;
}

/* ---- The cycle text ---------------------------------------------------------------- */

int tc_cyclecap_format_line(char *buf, size_t size, const struct tc_cyclecap_line *l)
{
	struct tc_textout t = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	if (l->is_bytes) {
		tc_textout_put(&t, "@%llu bytes", (unsigned long long)l->r.offset);
		for (size_t i = 0; i < l->nbytes && i < TC_CYCLECAP_LINE_BYTES; i++)
			tc_textout_put(&t, " %02x", l->bytes[i]);
	} else if (l->is_header) {
		tc_textout_put(&t, "@0 sample-header version=%u port_width=%u port_mode=%u half_rate=%u flags=%u",
			       l->h.minor, l->h.port_width, l->h.port_mode, l->h.half_rate, l->h.flags);
	} else if (l->r.gap) {
		tc_textout_put(&t, "@%llu cycle gap", (unsigned long long)l->r.offset);
	} else {
		tc_textout_put(&t, "@%llu cycle %x%s pkt=0x%x", (unsigned long long)l->r.offset, l->r.status & 0x0fu,
			       l->r.sync ? " sync" : "", (unsigned)l->r.pkt);
	}
	return (int)t.len;
}

static void parse_header(struct tc_scan *s, struct tc_cyclecap_line *l)
{
	l->is_header = 1;
	tc_scan_lit(s, "sample-header version=");
	l->h.minor = (uint8_t)tc_scan_dec(s, 255);
	tc_scan_lit(s, " port_width=");
	l->h.port_width = (uint8_t)tc_scan_dec(s, 255);
	tc_scan_lit(s, " port_mode=");
	l->h.port_mode = (uint8_t)tc_scan_dec(s, 255);
	tc_scan_lit(s, " half_rate=");
	l->h.half_rate = (uint8_t)tc_scan_dec(s, 255);
	tc_scan_lit(s, " flags=");
	l->h.flags = (uint8_t)tc_scan_dec(s, 255);
}

static void parse_record(struct tc_scan *s, struct tc_cyclecap_line *l)
{
	static const char *const digits[] = { "0", "1", "2", "3", "4", "5", "6", "7",
					      "8", "9", "a", "b", "c", "d", "e", "f" };
	tc_scan_lit(s, "cycle ");
	if (tc_scan_next_is(s, "gap")) {
		tc_scan_lit(s, "gap");
		l->r.gap = 1;
		return;
	}
	l->r.status = (uint8_t)tc_scan_name(s, digits, 0, 16, "a status (one hex digit)");
	if (tc_scan_next_is(s, " sync")) {
		tc_scan_lit(s, " sync");
		l->r.sync = 1;
	}
	tc_scan_lit(s, " pkt=");
	l->r.pkt = (uint16_t)tc_scan_hex(s, 0xffff);
}

static void parse_bytes(struct tc_scan *s, struct tc_cyclecap_line *l)
{
	l->is_bytes = 1;
	tc_scan_lit(s, "bytes");
	do {
		tc_scan_lit(s, " ");
		l->bytes[l->nbytes++] = (uint8_t)tc_scan_hex2(s);
	} while (!s->bad && l->nbytes < TC_CYCLECAP_LINE_BYTES && tc_scan_next_is(s, " "));
}

/* Whether the line's second word is w. */
static int second_word_is(const char *line, const char *w)
{
	const char *word = strchr(line, ' ');
	size_t n = strlen(w);
	return word && !strncmp(word + 1, w, n) && (word[1 + n] == ' ' || word[1 + n] == '\0');
}

int tc_cyclecap_parse_line(const char *line, struct tc_cyclecap_line *l, char *err, size_t errlen)
{
	struct tc_scan s;
	memset(l, 0, sizeof *l);
	if (line[0] != '@' || !(second_word_is(line, "sample-header") || second_word_is(line, "cycle") ||
				second_word_is(line, "bytes")))
		return 1;
	tc_scan_init(&s, line, err, errlen);
	tc_scan_lit(&s, "@");
	l->r.offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	if (tc_scan_next_is(&s, "sample-header"))
		parse_header(&s, l);
	else if (tc_scan_next_is(&s, "bytes"))
		parse_bytes(&s, l);
	else
		parse_record(&s, l);
	if (!s.bad && l->is_header && l->r.offset != 0)
		return snprintf(err, errlen, "column 2: the header is at offset 0, not %llu", (unsigned long long)l->r.offset), -1;
	return tc_scan_end(&s);
}

/* ---- The assembler of cycle lines -------------------------------------------------- */

void tc_cyclecap_writer_init(struct tc_cyclecap_writer *w, const struct tc_cyclecap_params *p)
{
	memset(w, 0, sizeof *w);
	w->params = *p;
}

static int record_fits(const struct tc_cyclecap_writer *w, const struct tc_cyclecap_record *r, char *err, size_t errlen)
{
	unsigned width = w->port_width;
	if (!w->header_done) {
		snprintf(err, errlen, "a record before the header (the file begins with its sample-header line)");
		return 0;
	}
	if (r->gap)
		return 1;
	if (w->params.status_bits == 3 && r->status > 7) {
		snprintf(err, errlen, "status %x: this protocol's status has 3 bits", r->status);
		return 0;
	}
	if (r->sync && !w->params.has_sync) {
		snprintf(err, errlen, "sync: this protocol has no sync pin");
		return 0;
	}
	if ((width == 4 && r->pkt > 0xf) || (width != 16 && r->pkt > 0xff)) {
		snprintf(err, errlen, "pkt=0x%x: a record of a %u-bit port holds at most 0x%x", (unsigned)r->pkt, width,
			 width == 4 ? 0xfu : 0xffu);
		return 0;
	}
	return 1;
}

long tc_cyclecap_writer_line(struct tc_cyclecap_writer *w, const struct tc_cyclecap_line *l, uint8_t *out, size_t cap,
			     char *err, size_t errlen)
{
	if (cap < TC_CYCLECAP_HEADER) {
		snprintf(err, errlen, "no room for a record");
		return -1;
	}
	if (l->is_bytes) {
		memcpy(out, l->bytes, l->nbytes);
		return (long)l->nbytes;
	}
	if (l->is_header) {
		struct tc_cyclecap_header h = l->h;
		if (w->header_done) {
			snprintf(err, errlen, "a second header: the file has one, at offset 0");
			return -1;
		}
		h.revision = 1;
		h.major = w->params.major;
		tc_cyclecap_put_header(&h, out);
		w->header_done = 1;
		w->port_width = h.port_width;
		return TC_CYCLECAP_HEADER;
	}
	if (!record_fits(w, &l->r, err, errlen))
		return -1;
	return (long)tc_cyclecap_put_record(&l->r, w->port_width, out);
}

/* ---- The cycle lines of a file as it is read ---------------------------------------- */

void tc_cyclecap_echo_init(struct tc_cyclecap_echo *e, const struct tc_cyclecap_params *p,
			   void (*line)(void *ctx, const struct tc_cyclecap_line *l), void *ctx)
{
	memset(e, 0, sizeof *e);
	tc_cyclecap_init(&e->cc, p);
	e->line = line;
	e->ctx = ctx;
}

/* Bytes the reader takes no header or record of, as bytes lines of 16 at most. */
static void echo_bytes(struct tc_cyclecap_echo *e, uint64_t offset, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i += TC_CYCLECAP_LINE_BYTES) {
		struct tc_cyclecap_line l;
		memset(&l, 0, sizeof l);
		l.is_bytes = 1;
		l.r.offset = offset + i;
		l.nbytes = n - i < TC_CYCLECAP_LINE_BYTES ? n - i : TC_CYCLECAP_LINE_BYTES;
		memcpy(l.bytes, b + i, l.nbytes);
		e->line(e->ctx, &l);
	}
}

size_t tc_cyclecap_echo_step(struct tc_cyclecap_echo *e, const uint8_t *b, size_t len)
{
	struct tc_cyclecap_line l;
	const uint8_t *at = b;
	size_t left = len, took;
	int err = 0, k;
	uint64_t off = 0;
	memset(&l, 0, sizeof l);
	k = tc_cyclecap_next(&e->cc, &at, &left, &l.r, &err, &off);
	took = (size_t)(at - b);
	if (e->dead) {
		echo_bytes(e, e->pos, b, took);
	} else {
		if (e->cc.header_ok && !e->header_shown) {
			struct tc_cyclecap_line h;
			memset(&h, 0, sizeof h);
			h.is_header = 1;
			h.h = e->cc.header;
			e->line(e->ctx, &h);
			e->header_shown = 1;
		}
		if (k == 1)
			e->line(e->ctx, &l);
		else if (k < 0 && err == tc_cyclecap_bad_header)
			echo_bytes(e, 0, e->cc.buf, TC_CYCLECAP_HEADER);
		else if (k < 0)
			echo_bytes(e, off, e->cc.buf, e->cc.record_size);
		e->dead = e->cc.dead;
	}
	e->pos += took;
	return took;
}

void tc_cyclecap_echo_finish(struct tc_cyclecap_echo *e)
{
	if (!e->cc.dead && e->cc.have > 0)
		echo_bytes(e, e->cc.header_ok ? e->cc.offset : 0, e->cc.buf, e->cc.have);
}
