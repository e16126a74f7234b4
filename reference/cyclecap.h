/* SPDX-License-Identifier: BSD-3-Clause */
/* cyclecap.h — the reader of a per-cycle sample file (the "Sample file" of the per-cycle protocols' FORMAT.md): the
 * 16-byte header, then one fixed-size record per captured core cycle. Protocol-neutral: the caller
 * names the major version it accepts, the status bits that exist and whether bit 4 (a sync pin)
 * exists; the reader knows bit fields, not what a status means. */
#ifndef TC_CYCLECAP_H
#define TC_CYCLECAP_H

#include <stddef.h>
#include <stdint.h>

#define TC_CYCLECAP_HEADER 16

/* What the caller's protocol allows. */
struct tc_cyclecap_params {
	uint8_t major;        /* header byte 5 must equal it */
	uint8_t max_minor;    /* header byte 6 at most this */
	uint8_t status_bits;  /* 3: bit 3 of a status byte is bad-record; 4: bits 3:0 are the status */
	uint8_t has_sync;     /* 1: bit 4 is a sync pin; 0: bit 4 set is bad-record */
};

/* The header's fields (bytes 4..10). */
struct tc_cyclecap_header {
	uint8_t revision, major, minor, port_width, port_mode, half_rate, flags;
};

/* One record. */
struct tc_cyclecap_record {
	uint64_t offset;      /* byte offset of the record in the file */
	uint8_t gap;          /* 1: the gap record (status byte 0x80) */
	uint8_t status;       /* bits 3:0 of the status byte */
	uint8_t sync;         /* bit 4 */
	uint16_t pkt;         /* TRACEPKT[7:0] (and [15:8] on a 16-bit port) */
};

enum tc_cyclecap_error { tc_cyclecap_ok = 0, tc_cyclecap_bad_header, tc_cyclecap_bad_record, tc_cyclecap_truncated };

/* The reader: bytes are fed in pieces of any size; a record cut by a piece's end is kept until
 * the next piece completes it. */
struct tc_cyclecap {
	struct tc_cyclecap_params params;
	struct tc_cyclecap_header header;
	uint8_t buf[TC_CYCLECAP_HEADER];
	size_t have;          /* bytes of buf filled: the header while !header_ok, else the record */
	size_t record_size;   /* 2 or 3, once the header is read */
	uint64_t offset;      /* file offset of buf[0] */
	int header_ok;
	int dead;             /* 1 after bad-header: nothing more is read */
	int header_checked;   /* the driver: the header was given to header_agrees */
	int finished;         /* the driver: tc_cyclecap_drive_finish was called */
};

void tc_cyclecap_init(struct tc_cyclecap *c, const struct tc_cyclecap_params *p);

/* Takes bytes from *data (advancing it and *len) until one record is complete or the bytes run out.
 * Returns 1 with the record in *r; 0 when more bytes are needed (all taken); -1 with the error in
 * *err and its offset in *err_offset: bad-header (at 0; every later call returns 0 and takes the
 * bytes), or bad-record (the record is skipped; reading goes on with the next). */
int tc_cyclecap_next(struct tc_cyclecap *c, const uint8_t **data, size_t *len, struct tc_cyclecap_record *r,
		     int *err, uint64_t *err_offset);

/* The end of the file: -1 with bad-header (a header shorter than 16 bytes) or truncated (a
 * partial record, at its offset); else 0. */
int tc_cyclecap_finish(struct tc_cyclecap *c, int *err, uint64_t *err_offset);

/* The whole records of a sample file of len bytes (their size from its header's port width): one
 * per captured core cycle, and each gap record one. -1 when it has no header of that shape
 * (shorter than 16 bytes, no magic, a port width other than 4, 8 or 16); the other header fields
 * and the records are not checked. */
long long tc_cyclecap_record_count(const uint8_t *file, size_t len);

/* The driver of a decoder over the reader: the feed and finish loop, the decoder's calls as
 * callbacks. header_agrees: 1 when the header's fields equal the decoder's keys (ETMC-F5), else the
 * header is fatal; bad_header: the fatal bad-header item (nothing more is read); record: one good
 * record; record_error: bad-record or truncated at off (an error of the tc_cyclecap_error list);
 * end_checks: at the end, what the decoder finds incomplete, 1 when it gave an error (then a
 * partial record is not reported). end_checks may be NULL. */
struct tc_cyclecap_driver {
	void *ctx;
	int (*header_agrees)(void *ctx, const struct tc_cyclecap_header *h);
	void (*bad_header)(void *ctx);
	void (*record)(void *ctx, const struct tc_cyclecap_record *r);
	void (*record_error)(void *ctx, int err, uint64_t off);
	int (*end_checks)(void *ctx);
};

/* Feeds bytes through the reader to the driver's callbacks. Returns 0, or -1 after finish. */
int tc_cyclecap_drive(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv, const uint8_t *data, size_t len);

/* The end of the file: no byte at all gives nothing (ETMC-F9); a short header bad-header; else
 * end_checks, then a partial record's truncated unless end_checks gave an error (ETM1-P33: one
 * truncated). Returns 0, or -1 when called twice. */
int tc_cyclecap_drive_finish(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv);

/* ---- The writer (the one writer of the format, beside the one reader above) ---- */

/* The 16 header bytes of h (revision, major, minor, port width, mode, half-rate, flags). */
void tc_cyclecap_put_header(const struct tc_cyclecap_header *h, uint8_t out[TC_CYCLECAP_HEADER]);

/* The bytes of record r on a port of port_width pins (4, 8, 16): 2 or 3, returned. A gap record is
 * 0x80 and TRACEPKT 0. */
size_t tc_cyclecap_put_record(const struct tc_cyclecap_record *r, unsigned port_width, uint8_t out[3]);

/* ---- The cycle text (`dump --cycles`, `asm`: the per-cycle protocols' FORMAT.md "Cycle lines") ---- */

/* One line: the header (at offset 0), one record, or bytes the reader takes no header or record of
 * (a header it refuses and all after it, a record it refuses, a partial record or header at the end):
 * 1 to 16 of them. */
#define TC_CYCLECAP_LINE_BYTES 16
struct tc_cyclecap_line {
	int is_header;
	int is_bytes;
	struct tc_cyclecap_header h;      /* is_header: revision and major are not in the text */
	struct tc_cyclecap_record r;      /* else (its offset the line's, also for is_bytes) */
	uint8_t bytes[TC_CYCLECAP_LINE_BYTES];
	size_t nbytes;
};

/* "@0 sample-header version=V port_width=W port_mode=M half_rate=H flags=F", "@OFF cycle S[ sync]
 * pkt=0xV", "@OFF cycle gap", "@OFF bytes HH HH ...". Like snprintf. */
int tc_cyclecap_format_line(char *buf, size_t size, const struct tc_cyclecap_line *l);

/* The parser of those lines (exactly as written): 0 with *l; 1 when the line is no cycle line (its
 * second word is neither "sample-header" nor "cycle": an item's line); -1 with err ("column C:
 * expected ..."). */
int tc_cyclecap_parse_line(const char *line, struct tc_cyclecap_line *l, char *err, size_t errlen);

/* The assembler of cycle lines for a file of the protocol whose reader takes params (major: header
 * byte 5): each line's bytes in order. A header is written as its line says, whether or not the
 * decoder's keys agree with it (a decoder reports bad-header then: the text says so). */
struct tc_cyclecap_writer {
	struct tc_cyclecap_params params;
	int header_done;
	unsigned port_width;      /* the header's: the records' size */
};

void tc_cyclecap_writer_init(struct tc_cyclecap_writer *w, const struct tc_cyclecap_params *p);

/* The bytes of line l into out (cap bytes, at least 16): their count, or -1 with err (a second
 * header, a record before the header, a status, sync pin or TRACEPKT value the header's record
 * cannot hold). */
long tc_cyclecap_writer_line(struct tc_cyclecap_writer *w, const struct tc_cyclecap_line *l, uint8_t *out, size_t cap,
			     char *err, size_t errlen);

/* The cycle lines of a file as it is read (dump --cycles): the reader beside a decoder. step takes
 * the bytes up to the end of the next header, record or unread piece, gives their lines to line(),
 * and returns how many it took (the caller feeds those to the decoder, whose items then follow
 * their record's line); finish gives a partial header's or record's bytes. */
struct tc_cyclecap_echo {
	struct tc_cyclecap cc;
	int header_shown;
	int dead;                 /* the reader refused the header: every later byte is a bytes line */
	uint64_t pos;             /* bytes taken */
	void (*line)(void *ctx, const struct tc_cyclecap_line *l);
	void *ctx;
};

void tc_cyclecap_echo_init(struct tc_cyclecap_echo *e, const struct tc_cyclecap_params *p,
			   void (*line)(void *ctx, const struct tc_cyclecap_line *l), void *ctx);
size_t tc_cyclecap_echo_step(struct tc_cyclecap_echo *e, const uint8_t *b, size_t len);
void tc_cyclecap_echo_finish(struct tc_cyclecap_echo *e);

#endif
