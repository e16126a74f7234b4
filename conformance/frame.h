/* SPDX-License-Identifier: BSD-3-Clause */
/* frame.h — the framed messages of the certify processes (run child → worker → runner): one writer, one parser. */
#ifndef TC_FRAME_H
#define TC_FRAME_H

#include <stddef.h>

/* A frame is a type byte (a printable ASCII letter or digit), four decimal
 * digits of payload length, a blank, the payload and a newline:
 * "1 0012 @0 00 async\n" is type '1' with a 12-byte payload. The payload is
 * at most TC_FRAME_MAX bytes. Anything else is malformed. */
#define TC_FRAME_MAX 4000
#define TC_FRAME_HEAD 6           /* type, four digits, blank */

struct tc_frame {
	char type;
	const char *payload;      /* inside the parsed buffer, not NUL-terminated */
	size_t len;
};

/* Writes one frame to fd (EINTR retried, short writes continued). Returns
 * 0, or -1 when len is over TC_FRAME_MAX, type is not a letter or digit, or
 * a write failed. */
int tc_frame_write(int fd, char type, const char *payload, size_t len);
/* The frame's bytes into buf (size bytes): their number, or -1 when they
 * do not fit or the frame is not one (as tc_frame_write). For a writer that
 * gathers frames and writes many at once (tc_frame_write_all). */
long tc_frame_put(char *buf, size_t size, char type, const char *payload, size_t len);
/* n bytes of whole frames to fd (EINTR retried, short writes continued). 0,
 * or -1 when a write failed. */
int tc_frame_write_all(int fd, const char *bytes, size_t n);
/* tc_frame_write on a socket, without SIGPIPE when the peer is gone. */
int tc_frame_send(int sock, char type, const char *payload, size_t len);
/* tc_frame_write of a NUL-terminated payload. */
int tc_frame_puts(int fd, char type, const char *payload);

/* Parses the frame at the start of buf (n bytes). Returns the bytes it
 * takes (> 0) with f set, 0 when buf holds only part of a frame, or -1
 * when the bytes cannot start a frame (bad type, length or terminator). */
long tc_frame_parse(const char *buf, size_t n, struct tc_frame *f);

/* Bytes received and not yet parsed, bounded: the reader of one channel. */
struct tc_frame_reader {
	char buf[2 * (TC_FRAME_HEAD + TC_FRAME_MAX + 1)];
	size_t len;
	size_t taken;             /* the bytes of the frame last returned, dropped at the next call */
};

/* Reads what fd has (one read) into r. Returns the bytes read, 0 at end of
 * file, -1 on an error (EAGAIN/EINTR included: nothing to read now). */
long tc_frame_fill(struct tc_frame_reader *r, int fd);
/* The next whole frame in r: 1 with f set (valid until the next call on r),
 * 0 when none is whole yet, -1 when the bytes are malformed. */
int tc_frame_next(struct tc_frame_reader *r, struct tc_frame *f);

/* Copies text that another process handed over into dst (size n ≥ 1),
 * bounded and NUL-terminated, as valid UTF-8: a NUL, a control character
 * (newline and tab included) or a byte that is not part of a valid UTF-8
 * sequence becomes '?'. Returns the length written. */
size_t tc_text_clean(char *dst, size_t n, const char *src, size_t len);
/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
size_t tc_utf8_len(const unsigned char *s, size_t n);

#endif
