/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_cyclecap.c — unit tests of the per-cycle sample file reader (reference/cyclecap.c) against
 * reference/etmv1/FORMAT.md "Sample file" and ERRATA ETMC-F4, ETMC-F5; prints TAP. Every header
 * byte and record bit below is named beside it; every error path is taken. */
#include <stdint.h>
#include <string.h>

#include "tap.h"
#include "cyclecap.h"

static const struct tc_cyclecap_params v1 = { 1, 3, 3, 1 };   /* major 1, minors 0-3, PIPESTAT[2:0], TRACESYNC */
static const struct tc_cyclecap_params v2 = { 2, 1, 4, 0 };   /* major 2, minors 0-1, PIPESTAT[3:0], no sync */

/* "ETMC", revision 1, major, minor, width, mode, half-rate, flags, reserved 0. */
static void header(uint8_t *h, uint8_t major, uint8_t width)
{
	static const uint8_t base[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 1, 1, 8, 0, 0, 0, 0, 0, 0, 0, 0 };
	memcpy(h, base, 16);
	h[5] = major;
	h[7] = width;
}

struct run {
	struct tc_cyclecap_record rec[16];
	int nrec;
	int err[8];
	uint64_t erroff[8];
	int nerr;
};

/* Feeds buf in pieces of `piece` bytes, then finishes. */
static void run(const struct tc_cyclecap_params *p, const uint8_t *buf, size_t n, size_t piece, struct run *o)
{
	struct tc_cyclecap c;
	memset(o, 0, sizeof *o);
	tc_cyclecap_init(&c, p);
	for (size_t at = 0; at < n; at += piece) {
		const uint8_t *d = buf + at;
		size_t len = n - at < piece ? n - at : piece;
		for (;;) {
			struct tc_cyclecap_record r;
			int e;
			uint64_t off;
			int k = tc_cyclecap_next(&c, &d, &len, &r, &e, &off);
			if (k == 0)
				break;
			if (k == 1 && o->nrec < 16)
				o->rec[o->nrec++] = r;
			if (k == -1 && o->nerr < 8) {
				o->err[o->nerr] = e;
				o->erroff[o->nerr++] = off;
			}
		}
	}
	int e;
	uint64_t off;
	if (tc_cyclecap_finish(&c, &e, &off) < 0 && o->nerr < 8) {
		o->err[o->nerr] = e;
		o->erroff[o->nerr++] = off;
	}
}

static void records_8bit(void)
{
	uint8_t f[16 + 8];
	header(f, 1, 8);
	/* @16 BE|TRACESYNC (0x14), pkt 0x80; @18 IE 0x01; @20 gap; @22 TD 0x01 */
	const uint8_t r[8] = { 0x14, 0x80, 0x00, 0x01, 0x80, 0x00, 0x07, 0x01 };
	memcpy(f + 16, r, 8);
	for (size_t piece = 1; piece <= sizeof f; piece++) {
		struct run o;
		run(&v1, f, sizeof f, piece, &o);
		int good = o.nrec == 4 && o.nerr == 0 && o.rec[0].offset == 16 && o.rec[0].status == 4 &&
			o.rec[0].sync == 1 && o.rec[0].pkt == 0x80 && o.rec[1].offset == 18 && o.rec[1].status == 0 &&
			o.rec[1].sync == 0 && o.rec[2].gap == 1 && o.rec[2].offset == 20 && o.rec[3].status == 7 &&
			o.rec[3].pkt == 1 && o.rec[3].offset == 22;
		if (!good || piece == 1 || piece == 3 || piece == sizeof f)
			ok(good, "8-bit records fed %zu bytes at a time: BE+sync @16, IE @18, gap @20, TD @22", piece);
	}
}

static void records_16bit(void)
{
	uint8_t f[16 + 6];
	header(f, 1, 16);
	/* @16 ID 0x01, TRACEPKT 0x2211 (byte 1 = [7:0]); @19 WT 0x03, 0x4433 */
	const uint8_t r[6] = { 0x01, 0x11, 0x22, 0x03, 0x33, 0x44 };
	memcpy(f + 16, r, 6);
	struct run o;
	run(&v1, f, sizeof f, 5, &o);
	ok(o.nrec == 2 && o.nerr == 0 && o.rec[0].pkt == 0x2211 && o.rec[1].offset == 19 && o.rec[1].pkt == 0x4433,
	   "16-bit records are 3 bytes, TRACEPKT[7:0] first: @16 0x2211, @19 0x4433");
}

static void records_4bit_v2(void)
{
	uint8_t f[16 + 4];
	header(f, 2, 4);
	f[6] = 1; /* ETMv2.1 */
	/* @16 PIPESTAT b1111 with nibble 0xf: good for ETMv2 (4 status bits); @18 TD 0x07, 0x09 */
	const uint8_t r[4] = { 0x0f, 0x0f, 0x07, 0x09 };
	memcpy(f + 16, r, 4);
	struct run o;
	run(&v2, f, sizeof f, 7, &o);
	ok(o.nrec == 2 && o.nerr == 0 && o.rec[0].status == 15 && o.rec[0].pkt == 0xf && o.rec[1].pkt == 9,
	   "4-bit ETMv2 records: status 0xf kept, TRACEPKT[3:0]");
}

/* One header byte changed: bad-header at 0, no record read after it. */
static void bad_header(const struct tc_cyclecap_params *p, int byte, uint8_t value, const char *what)
{
	uint8_t f[16 + 2];
	header(f, p->major, 8);
	f[byte] = value;
	f[16] = 0x00;
	f[17] = 0x01;
	struct run o;
	run(p, f, sizeof f, 3, &o);
	ok(o.nerr == 1 && o.err[0] == tc_cyclecap_bad_header && o.erroff[0] == 0 && o.nrec == 0,
	   "bad-header at 0: %s (byte %d = 0x%02x)", what, byte, value);
}

static void bad_headers(void)
{
	bad_header(&v1, 0, 0x46, "magic");
	bad_header(&v1, 3, 0x44, "magic, last byte");
	bad_header(&v1, 4, 2, "format revision 2");
	bad_header(&v1, 4, 0, "format revision 0");
	bad_header(&v1, 5, 2, "major version 2 for a major-1 reader");
	bad_header(&v2, 5, 1, "major version 1 for a major-2 reader");
	bad_header(&v1, 6, 4, "minor version 4 (ETMv1 is 1.0-1.3)");
	bad_header(&v2, 6, 2, "minor version 2 (ETMv2 is 2.0-2.1)");
	bad_header(&v1, 7, 12, "port width 12");
	bad_header(&v1, 7, 0, "port width 0");
	bad_header(&v1, 8, 3, "port mode 3");
	bad_header(&v1, 9, 2, "half-rate 2");
	bad_header(&v1, 10, 0x02, "capture flag bit 1");
	bad_header(&v1, 10, 0x80, "capture flag bit 7");
	for (int b = 11; b < 16; b++)
		bad_header(&v1, b, 1, "reserved byte");
	/* Flag bit 0 (TD cycles left out) is allowed. */
	uint8_t f[18];
	header(f, 1, 8);
	f[10] = 1;
	f[16] = 7;
	f[17] = 0;
	struct run o;
	run(&v1, f, sizeof f, 18, &o);
	ok(o.nerr == 0 && o.nrec == 1, "capture flag bit 0 is allowed");
	/* Short headers: 0, 1 and 15 bytes. */
	size_t lens[3] = { 0, 1, 15 };
	for (int i = 0; i < 3; i++) {
		run(&v1, f, lens[i], 4, &o);
		ok(o.nerr == 1 && o.err[0] == tc_cyclecap_bad_header && o.erroff[0] == 0,
		   "a %zu-byte file is bad-header at 0", lens[i]);
	}
}

/* A record among good ones: bad-record at its offset, the good ones around it read. */
static void bad_record(const struct tc_cyclecap_params *p, uint8_t width, uint8_t st, uint8_t pk, uint8_t pk2,
		       const char *what)
{
	uint8_t f[16 + 9];
	size_t rs = width == 16 ? 3 : 2;
	header(f, p->major, width);
	if (p->major == 2)
		f[6] = 0;
	for (int i = 0; i < 3; i++) {
		f[16 + rs * i] = 0x00;
		f[17 + rs * i] = 0x01;
		if (rs == 3)
			f[18 + rs * i] = 0;
	}
	f[16 + rs] = st;
	f[17 + rs] = pk;
	if (rs == 3)
		f[18 + rs] = pk2;
	struct run o;
	run(p, f, 16 + 3 * rs, 1, &o);
	ok(o.nerr == 1 && o.err[0] == tc_cyclecap_bad_record && o.erroff[0] == 16 + rs && o.nrec == 2 &&
	   o.rec[1].offset == 16 + 2 * rs, "bad-record at %zu: %s", 16 + rs, what);
}

static void bad_records(void)
{
	bad_record(&v1, 8, 0x20, 0, 0, "status bit 5");
	bad_record(&v1, 8, 0x40, 0, 0, "status bit 6");
	bad_record(&v1, 8, 0x81, 0, 0, "status bit 7 with bit 0 (not the gap record)");
	bad_record(&v1, 8, 0x90, 0, 0, "status bit 7 with TRACESYNC");
	bad_record(&v1, 8, 0x80, 0x01, 0, "a gap record with TRACEPKT 0x01");
	bad_record(&v1, 16, 0x80, 0x00, 0x01, "a 16-bit gap record with TRACEPKT[15:8] 0x01");
	bad_record(&v1, 8, 0x08, 0, 0, "ETMv1 status bit 3 (PIPESTAT is three bits)");
	bad_record(&v2, 8, 0x10, 0, 0, "ETMv2 status bit 4 (no TRACESYNC)");
	bad_record(&v1, 4, 0x00, 0x10, 0, "4-bit port TRACEPKT bit 4");
	bad_record(&v1, 4, 0x03, 0x80, 0, "4-bit port TRACEPKT bit 7");
}

static void truncation(void)
{
	uint8_t f[16 + 5];
	header(f, 1, 8);
	f[16] = 0;
	f[17] = 1;
	f[18] = 3;
	f[19] = 0x11;
	f[20] = 3; /* @20: a record's first byte only */
	struct run o;
	run(&v1, f, sizeof f, 2, &o);
	ok(o.nrec == 2 && o.nerr == 1 && o.err[0] == tc_cyclecap_truncated && o.erroff[0] == 20,
	   "a file ending inside a record: truncated at that record (@20)");
	uint8_t g[16 + 5];
	header(g, 1, 16);
	g[16] = 3;
	g[17] = 0x11;
	g[18] = 0x22;
	g[19] = 3;
	g[20] = 0x33; /* @19: two of three bytes */
	run(&v1, g, sizeof g, 4, &o);
	ok(o.nrec == 1 && o.nerr == 1 && o.err[0] == tc_cyclecap_truncated && o.erroff[0] == 19,
	   "16-bit: two bytes of a record: truncated @19");
	run(&v1, g, 16, 16, &o);
	ok(o.nrec == 0 && o.nerr == 0, "a header and no record is no error");
}

/* tc_cyclecap_record_count: whole records of the header's port width's size (FORMAT.md "Records":
 * 2 bytes for a 4- or 8-bit port, 3 for a 16-bit port), a partial record not counted. */
static void record_count(void)
{
	uint8_t f[16 + 7] = { 0 };
	header(f, 1, 8);
	ok(tc_cyclecap_record_count(f, sizeof f) == 3, "8-bit port, 7 bytes after the header: 3 records");
	header(f, 2, 4);
	ok(tc_cyclecap_record_count(f, sizeof f) == 3, "4-bit port: 2 bytes a record, 3 records");
	header(f, 1, 16);
	ok(tc_cyclecap_record_count(f, sizeof f) == 2, "16-bit port: 3 bytes a record, 2 records");
	ok(tc_cyclecap_record_count(f, 16) == 0, "a header alone: 0 records");
	ok(tc_cyclecap_record_count(f, 15) == -1, "15 bytes: no header, -1");
	header(f, 1, 12);
	ok(tc_cyclecap_record_count(f, sizeof f) == -1, "port width 12: -1");
	header(f, 1, 8);
	f[0] = 0x46;
	ok(tc_cyclecap_record_count(f, sizeof f) == -1, "no ETMC magic: -1");
	f[0] = 0x45;
	f[3] = 0x44;
	ok(tc_cyclecap_record_count(f, sizeof f) == -1, "ETMD, its last magic byte wrong: -1");
}

/* The writer side (FORMAT.md "Cycle lines"): the cycle lines parsed, each written as its record's
 * bytes, and the records a header's port cannot hold refused. */
static long write_text(struct tc_cyclecap_writer *w, const char *text, uint8_t *out)
{
	struct tc_cyclecap_line l;
	char err[160];
	if (tc_cyclecap_parse_line(text, &l, err, sizeof err) != 0)
		return -2;
	return tc_cyclecap_writer_line(w, &l, out, 32, err, sizeof err);
}

static void writer(void)
{
	struct tc_cyclecap_writer w;
	struct tc_cyclecap_line l;
	uint8_t out[32];
	char err[160];
	tc_cyclecap_writer_init(&w, &v1);
	ok(write_text(&w, "@16 cycle 0 pkt=0x0", out) == -1, "a record before the header is refused");
	ok(tc_cyclecap_parse_line("@2 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0", &l, err,
				  sizeof err) == -1, "a header line at offset 2 is refused");
	ok(tc_cyclecap_parse_line("@16 cycles 0 pkt=0x0", &l, err, sizeof err) == 1 &&
	   tc_cyclecap_parse_line("@16 id pkt=16", &l, err, sizeof err) == 1, "a line whose second word is not cycle is no cycle line");
	ok(write_text(&w, "@0 sample-header version=1 port_width=16 port_mode=0 half_rate=0 flags=0", out) == 16 &&
	   out[5] == 1 && out[7] == 16, "the header: 16 bytes, major 1, port width 16");
	ok(write_text(&w, "@16 cycle 4 sync pkt=0x1234", out) == 3 && out[0] == 0x14 && out[1] == 0x34 && out[2] == 0x12,
	   "a 16-bit record: 3 bytes, TRACEPKT[7:0] first");
	ok(write_text(&w, "@19 cycle gap", out) == 3 && out[0] == 0x80 && out[1] == 0 && out[2] == 0, "a 16-bit gap record");
	tc_cyclecap_writer_init(&w, &v1);
	write_text(&w, "@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0", out);
	ok(write_text(&w, "@16 cycle 7 pkt=0xff", out) == 2 && out[0] == 0x07 && out[1] == 0xff, "an 8-bit record: 2 bytes");
	ok(write_text(&w, "@18 cycle 8 pkt=0x0", out) == -1, "ETMv1: a status of 4 bits is refused");
	ok(write_text(&w, "@18 cycle 0 pkt=0x100", out) == -1, "8-bit port: TRACEPKT 0x100 is refused");
	tc_cyclecap_writer_init(&w, &v2);
	write_text(&w, "@0 sample-header version=0 port_width=4 port_mode=0 half_rate=0 flags=0", out);
	ok(write_text(&w, "@16 cycle f pkt=0xf", out) == 2 && out[0] == 0x0f && out[1] == 0x0f, "a 4-bit record, ETMv2 status 0xf");
	ok(write_text(&w, "@18 cycle 0 sync pkt=0x0", out) == -1, "ETMv2: the sync pin is refused");
	memset(&l, 0, sizeof l);
	l.r.pkt = 0x10;
	ok(tc_cyclecap_writer_line(&w, &l, out, 32, err, sizeof err) == -1 && strlen(err) > 11 && strcmp(err + strlen(err) - 11, "at most 0xf") == 0,
	   "4-bit port: TRACEPKT 0x10 is refused, at most 0xf");
}

/* The header writer (FORMAT.md "Header"): "ETMC", then bytes 4-10 in the order of struct
 * tc_cyclecap_header, bytes 11-15 zero, every byte written whatever the buffer held. */
static void header_writer(void)
{
	static const uint8_t want[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 2, 3, 16, 2, 1, 1, 0, 0, 0, 0, 0 };
	struct tc_cyclecap_header h = { 1, 2, 3, 16, 2, 1, 1 };  /* revision, major, minor, width, mode, half-rate, flags */
	uint8_t out[16];
	memset(out, 0xaa, sizeof out);
	tc_cyclecap_put_header(&h, out);
	ok(memcmp(out, want, 16) == 0, "put_header: ETMC, revision 1, major 2, minor 3, width 16, mode 2, half-rate 1, flags 1, zeros");
}

/* The record writer (FORMAT.md "Records"): the status byte (bits 3:0 status, bit 4 sync, 0x80 the
 * gap record) then TRACEPKT[7:0] and, on a 16-bit port only, TRACEPKT[15:8]. */
static void record_writer(void)
{
	struct tc_cyclecap_record r;
	uint8_t out[3];
	memset(&r, 0, sizeof r);
	r.status = 2;
	r.pkt = 0x0c;
	memset(out, 0xaa, sizeof out);
	ok(tc_cyclecap_put_record(&r, 8, out) == 2 && out[0] == 0x02 && out[1] == 0x0c,
	   "an 8-bit record of status 2, no sync: 02 0c, 2 bytes");
	ok(tc_cyclecap_put_record(&r, 4, out) == 2, "a 4-bit record: 2 bytes");
	r.status = 0x1a;  /* bits above 3 are no status: only bits 3:0 are written */
	r.sync = 1;
	r.pkt = 0xbeef;
	ok(tc_cyclecap_put_record(&r, 16, out) == 3 && out[0] == 0x1a && out[1] == 0xef && out[2] == 0xbe,
	   "a 16-bit record of status 0xa with sync: 1a ef be, 3 bytes");
	r.gap = 1;
	memset(out, 0xaa, sizeof out);
	ok(tc_cyclecap_put_record(&r, 8, out) == 2 && out[0] == 0x80 && out[1] == 0, "an 8-bit gap record: 80 00");
}

/* The cycle text (FORMAT.md "Cycle lines"), one line a header, record, gap record or run of bytes. */
static int formats_as(const struct tc_cyclecap_line *l, const char *want)
{
	char buf[128];
	int n = tc_cyclecap_format_line(buf, sizeof buf, l);
	return n == (int)strlen(want) && strcmp(buf, want) == 0;
}

static void format_lines(void)
{
	struct tc_cyclecap_line l;
	char small[4] = { 'x', 'y', 'z', 0 };
	memset(&l, 0, sizeof l);
	l.is_header = 1;
	l.h = (struct tc_cyclecap_header){ 1, 1, 3, 4, 1, 1, 0 };
	ok(formats_as(&l, "@0 sample-header version=3 port_width=4 port_mode=1 half_rate=1 flags=0"), "format: a header line");
	memset(&l, 0, sizeof l);
	l.r.offset = 40;
	l.r.status = 5;
	l.r.pkt = 0x1234;
	ok(formats_as(&l, "@40 cycle 5 pkt=0x1234"), "format: a record, status 5, no sync");
	l.r.status = 0x1e;  /* only bits 3:0 are a status */
	l.r.sync = 1;
	ok(formats_as(&l, "@40 cycle e sync pkt=0x1234"), "format: a record with sync, status bits 3:0 only");
	l.r.gap = 1;
	ok(formats_as(&l, "@40 cycle gap"), "format: the gap record");
	memset(&l, 0, sizeof l);
	l.is_bytes = 1;
	l.r.offset = 7;
	l.nbytes = 20;  /* more than a line holds: 16 printed */
	for (int i = 0; i < TC_CYCLECAP_LINE_BYTES; i++)
		l.bytes[i] = (uint8_t)(0xf0 + i);
	ok(formats_as(&l, "@7 bytes f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 fa fb fc fd fe ff"), "format: a bytes line, 16 bytes at most");
	ok(tc_cyclecap_format_line(small, 0, &l) == 56 && small[0] == 'x', "format into no room: the length, nothing written");
	ok(tc_cyclecap_format_line(small, 1, &l) == 56 && small[0] == 0 && small[1] == 'y', "format into 1 byte: the length, an empty string");
}

/* The cycle-line parser: each kind of line read back, every value at its bound, one past it refused. */
static int parses(const char *text, struct tc_cyclecap_line *l)
{
	char err[160];
	return tc_cyclecap_parse_line(text, l, err, sizeof err);
}

static void parse_lines(void)
{
	static const char *const past[] = {
		"@0 sample-header version=256 port_width=8 port_mode=0 half_rate=0 flags=0",
		"@0 sample-header version=1 port_width=256 port_mode=0 half_rate=0 flags=0",
		"@0 sample-header version=1 port_width=8 port_mode=256 half_rate=0 flags=0",
		"@0 sample-header version=1 port_width=8 port_mode=0 half_rate=256 flags=0",
		"@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=256",
	};
	struct tc_cyclecap_line l;
	ok(parses("@0 sample-header version=255 port_width=255 port_mode=255 half_rate=255 flags=255", &l) == 0 &&
	   l.is_header == 1 && l.is_bytes == 0 && l.h.minor == 255 && l.h.port_width == 255 && l.h.port_mode == 255 &&
	   l.h.half_rate == 255 && l.h.flags == 255, "parse: a header line, every field at 255");
	for (int i = 0; i < 5; i++)
		ok(parses(past[i], &l) == -1, "parse: header field %d of 256 is refused", i + 1);
	ok(parses("@18 cycle gap", &l) == 0 && l.r.gap == 1 && l.r.offset == 18 && !l.is_header && !l.is_bytes,
	   "parse: the gap record");
	ok(parses("@20 cycle c sync pkt=0xffff", &l) == 0 && l.r.gap == 0 && l.r.status == 0xc && l.r.sync == 1 &&
	   l.r.pkt == 0xffff, "parse: a record with sync, pkt 0xffff");
	ok(parses("@20 cycle 3 pkt=0x10000", &l) == -1, "parse: pkt 0x10000 is refused");
	ok(parses("@20 cycle g pkt=0x0", &l) == -1, "parse: status g is no hex digit");
	ok(parses("@20 cycle", &l) == -1, "parse: a cycle line without its status is an error, not another line");
	ok(parses("@20 cyclex 3 pkt=0x0", &l) == 1, "parse: a second word that only begins with cycle is no cycle line");
	ok(parses("@9 bytes 00 7f", &l) == 0 && l.is_bytes == 1 && !l.is_header && l.r.offset == 9 && l.nbytes == 2 &&
	   l.bytes[0] == 0 && l.bytes[1] == 0x7f, "parse: a bytes line of 2");
	ok(parses("@9 bytes 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f", &l) == 0 && l.nbytes == 16 && l.bytes[15] == 0x0f,
	   "parse: a bytes line of 16");
	ok(parses("@9 bytes 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10", &l) == -1, "parse: a bytes line of 17 is refused");
	ok(parses("@9 bytes", &l) == -1 && parses("@9 bytes 0", &l) == -1 && parses("@9 bytes 00  01", &l) == -1,
	   "parse: a bytes line needs whole bytes, one space apart");
}

/* The writer's refusals: each with its message, -1 and nothing else. */
static int refused_with(struct tc_cyclecap_writer *w, const struct tc_cyclecap_line *l, size_t cap, const char *msg)
{
	uint8_t out[32];
	char err[160] = "";
	return tc_cyclecap_writer_line(w, l, out, cap, err, sizeof err) == -1 && strstr(err, msg) != NULL;
}

static void writer_refusals(void)
{
	struct tc_cyclecap_writer w;
	struct tc_cyclecap_line l, h;
	uint8_t out[32];
	char err[160];
	memset(&w, 0x55, sizeof w);
	tc_cyclecap_writer_init(&w, &v1);
	memset(&l, 0, sizeof l);
	ok(refused_with(&w, &l, 32, "a record before the header"), "writer: a record before the header, its message");
	memset(&h, 0, sizeof h);
	h.is_header = 1;
	h.h = (struct tc_cyclecap_header){ 9, 9, 2, 8, 0, 0, 0 };  /* revision and major come from the writer */
	ok(refused_with(&w, &h, 15, "no room"), "writer: 15 bytes of room is too few");
	memset(out, 0xaa, sizeof out);
	ok(tc_cyclecap_writer_line(&w, &h, out, 16, err, sizeof err) == 16 && out[4] == 1 && out[5] == 1 && out[6] == 2 &&
	   out[7] == 8, "writer: a header in exactly 16 bytes, revision 1, the writer's major 1");
	ok(refused_with(&w, &h, 32, "a second header"), "writer: a second header, its message");
	l.r.status = 8;
	ok(refused_with(&w, &l, 32, "status 8: this protocol's status has 3 bits"), "writer: a 4-bit status of ETMv1, its message");
	l.r.status = 0;
	l.r.sync = 1;
	ok(refused_with(&w, &l, 32, "sync: this protocol has no sync pin") == 0, "writer: ETMv1 has the sync pin");
	l.r.sync = 0;
	l.r.pkt = 0x100;
	ok(refused_with(&w, &l, 32, "pkt=0x100: a record of a 8-bit port holds at most 0xff"), "writer: pkt 0x100 on an 8-bit port, its message");
	l.r.gap = 1;
	ok(tc_cyclecap_writer_line(&w, &l, out, 32, err, sizeof err) == 2, "writer: the gap record is never refused for its fields");
	memset(&l, 0, sizeof l);
	l.is_bytes = 1;
	l.nbytes = 3;
	l.bytes[0] = 0xde;
	l.bytes[1] = 0xad;
	l.bytes[2] = 0x01;
	memset(out, 0, sizeof out);
	ok(tc_cyclecap_writer_line(&w, &l, out, 32, err, sizeof err) == 3 && out[0] == 0xde && out[1] == 0xad && out[2] == 0x01,
	   "writer: a bytes line is written as its bytes");
	tc_cyclecap_writer_init(&w, &v2);
	h.h.minor = 1;
	tc_cyclecap_writer_line(&w, &h, out, 32, err, sizeof err);
	memset(&l, 0, sizeof l);
	l.r.sync = 1;
	ok(refused_with(&w, &l, 32, "sync: this protocol has no sync pin"), "writer: ETMv2's sync, its message");
	l.r.sync = 0;
	l.r.status = 0xf;
	ok(tc_cyclecap_writer_line(&w, &l, out, 32, err, sizeof err) == 2 && out[0] == 0x0f, "writer: ETMv2's status 0xf is written");
}

struct echoed {
	char text[1024];
	size_t len;
	int odd;  /* lines whose kind is not exactly one of header, bytes, record */
};

static void on_line(void *ctx, const struct tc_cyclecap_line *l)
{
	struct echoed *e = ctx;
	int n = tc_cyclecap_format_line(e->text + e->len, sizeof e->text - e->len, l);
	if ((l->is_header != 0 && l->is_header != 1) || (l->is_bytes != 0 && l->is_bytes != 1) ||
	    (l->is_header && l->is_bytes) || ((l->is_header || l->is_bytes) && (l->r.gap || l->r.status || l->r.pkt)))
		e->odd++;
	if (n > 0 && e->len + (size_t)n + 1 < sizeof e->text) {
		e->len += (size_t)n;
		e->text[e->len++] = '\n';
		e->text[e->len] = 0;
	}
}

/* dump --cycles' echo: a refused header's bytes and every byte after it are bytes lines of 16 at most. */
static void echo(void)
{
	uint8_t f[40];
	struct echoed got;
	struct tc_cyclecap_echo e;
	memset(&got, 0, sizeof got);
	for (size_t i = 0; i < sizeof f; i++)
		f[i] = (uint8_t)i;
	tc_cyclecap_echo_init(&e, &v1, on_line, &got);
	size_t at = 0;
	while (at < sizeof f) {
		size_t took = tc_cyclecap_echo_step(&e, f + at, sizeof f - at);
		if (took == 0)
			break;
		at += took;
	}
	tc_cyclecap_echo_finish(&e);
	ok(at == sizeof f && strstr(got.text, "@0 bytes 00 01 02") != NULL && strstr(got.text, "@16 bytes 10 11") != NULL &&
	   strstr(got.text, "@32 bytes 20 21 22 23 24 25 26 27\n") != NULL,
	   "a refused header: bytes lines of 16 at most, to the end");
}

/* Echoes f[0..n) in steps of at most `piece` bytes, then finishes. */
static void echo_file(const uint8_t *f, size_t n, size_t piece, struct echoed *got)
{
	struct tc_cyclecap_echo e;
	size_t at = 0;
	memset(got, 0, sizeof *got);
	tc_cyclecap_echo_init(&e, &v1, on_line, got);
	while (at < n) {
		size_t took = tc_cyclecap_echo_step(&e, f + at, n - at < piece ? n - at : piece);
		if (took == 0)
			break;
		at += took;
	}
	tc_cyclecap_echo_finish(&e);
}

/* dump --cycles' echo of a good header: the header line once, each record as its line, a refused
 * record and a file's partial last record as bytes lines at their offsets; the same lines
 * whether the file comes whole or a byte at a time. */
static void echo_files(void)
{
	static const char want[] = "@0 sample-header version=1 port_width=8 port_mode=0 half_rate=0 flags=0\n"
				   "@16 cycle 4 pkt=0x12\n"
				   "@18 bytes 08 00\n"
				   "@20 cycle 1 sync pkt=0xff\n"
				   "@22 cycle gap\n"
				   "@24 bytes 02\n";
	static const char want_bad[] = "@0 bytes 46 54 4d 43 01 01 01 08 00 00 00 00 00 00 00 00\n"
				       "@16 bytes 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n";
	uint8_t f[25];
	struct echoed got;
	header(f, 1, 8);
	/* @16 status 4 pkt 0x12; @18 status byte 08: bit 3 set under a 3-bit PIPESTAT, refused;
	 * @20 status 1 with sync (bit 4); @22 the gap record; @24 one byte of a record. */
	memcpy(f + 16, "\x04\x12\x08\x00\x11\xff\x80\x00\x02", 9);
	echo_file(f, sizeof f, sizeof f, &got);
	ok(strcmp(got.text, want) == 0 && got.odd == 0, "echo of a whole file: header, records, a refused record, a partial one");
	echo_file(f, sizeof f, 1, &got);
	ok(strcmp(got.text, want) == 0 && got.odd == 0, "echo a byte at a time: the same lines");
	echo_file(f, 5, 1, &got);
	ok(strcmp(got.text, "@0 bytes 45 54 4d 43 01\n") == 0 && got.odd == 0, "echo of 5 bytes of a header: one bytes line at 0");
	uint8_t g[32];
	header(g, 1, 8);
	g[0] = 0x46;
	for (int i = 0; i < 16; i++)
		g[16 + i] = (uint8_t)i;
	echo_file(g, sizeof g, 16, &got);
	ok(strcmp(got.text, want_bad) == 0 && got.odd == 0, "echo of a refused header and 16 bytes after it: exactly two lines of 16");
}

/* tc_cyclecap_finish called again: a refused (cut) header leaves the reader dead, so the second
 * call gives nothing; a partial last record is reported once, the second call gives nothing. */
static void finish_again(void)
{
	uint8_t f[17];
	struct tc_cyclecap c;
	int e = 0;
	uint64_t off = 99;
	header(f, 1, 8);
	const uint8_t *d = f;
	size_t len = 5;
	struct tc_cyclecap_record r;
	tc_cyclecap_init(&c, &v1);
	tc_cyclecap_next(&c, &d, &len, &r, &e, &off);
	int first = tc_cyclecap_finish(&c, &e, &off);
	ok(first < 0 && e == tc_cyclecap_bad_header && off == 0 && tc_cyclecap_finish(&c, &e, &off) == 0,
	   "finish of a header cut at 5 bytes: bad-header at 0, then nothing again");
	f[16] = 0x00;   /* @16 the status byte of an IE record, its packet byte missing */
	d = f;
	len = sizeof f;
	tc_cyclecap_init(&c, &v1);
	tc_cyclecap_next(&c, &d, &len, &r, &e, &off);
	first = tc_cyclecap_finish(&c, &e, &off);
	ok(first < 0 && e == tc_cyclecap_truncated && off == 16 && tc_cyclecap_finish(&c, &e, &off) == 0,
	   "finish of a partial record at 16: truncated at 16 once, then nothing again");
}

/* The echo's header line gives the header's own flags byte (byte 10), apart from the half-rate
 * byte before it: ETMv1.1, 8-bit, multiplexed, not half-rate, flags 1 (ETMC-F3). */
static void echo_header_flags(void)
{
	uint8_t f[16];
	struct echoed got;
	header(f, 1, 8);
	f[8] = 1;
	f[10] = 1;
	echo_file(f, sizeof f, 16, &got);
	ok(strcmp(got.text, "@0 sample-header version=1 port_width=8 port_mode=1 half_rate=0 flags=1\n") == 0,
	   "echo of a header with flags 1: the header line says flags=1");
}

int main(void)
{
	record_count();
	records_8bit();
	records_16bit();
	records_4bit_v2();
	bad_headers();
	bad_records();
	truncation();
	writer();
	header_writer();
	record_writer();
	format_lines();
	parse_lines();
	writer_refusals();
	echo();
	echo_files();
	finish_again();
	echo_header_flags();
	return tap_finish();
}
