/* SPDX-License-Identifier: BSD-3-Clause */
/* frame.c — the framed messages of the certify processes: the one writer and the one parser (frame.h), and clean copies of handed-over text. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "frame.h"

/* Writes everything: write() on a pipe, send() without SIGPIPE on a socket. */
static int write_all(int fd, const char *s, size_t n, int sock)
{
	while (n > 0) {
		ssize_t w = sock ? send(fd, s, n, MSG_NOSIGNAL) : write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

static int frame_type_ok(char type)
{
	return (type >= 'a' && type <= 'z') || (type >= 'A' && type <= 'Z') || (type >= '0' && type <= '9');
}

/* The one writer of a frame's bytes. */
long tc_frame_put(char *buf, size_t size, char type, const char *payload, size_t len)
{
	char head[TC_FRAME_HEAD + 1];
	if (len > TC_FRAME_MAX || !frame_type_ok(type) || size < TC_FRAME_HEAD + len + 1)
		return -1;
	snprintf(head, sizeof head, "%c%04zu ", type, len);
	memcpy(buf, head, TC_FRAME_HEAD);
	memcpy(buf + TC_FRAME_HEAD, payload, len);
	buf[TC_FRAME_HEAD + len] = '\n';
	return (long)(TC_FRAME_HEAD + len + 1);
}

/* The frame whole, in one write (frames of one writer never interleave). */
static int frame_out(int fd, char type, const char *payload, size_t len, int sock)
{
	char buf[TC_FRAME_HEAD + TC_FRAME_MAX + 1];
	long n = tc_frame_put(buf, sizeof buf, type, payload, len);
	return n < 0 ? -1 : write_all(fd, buf, (size_t)n, sock);
}

int tc_frame_write_all(int fd, const char *bytes, size_t n)
{
	return write_all(fd, bytes, n, 0);
}

int tc_frame_write(int fd, char type, const char *payload, size_t len)
{
	return frame_out(fd, type, payload, len, 0);
}

int tc_frame_send(int sock, char type, const char *payload, size_t len)
{
	return frame_out(sock, type, payload, len, 1);
}

int tc_frame_puts(int fd, char type, const char *payload)
{
	return tc_frame_write(fd, type, payload, strlen(payload));
}

long tc_frame_parse(const char *buf, size_t n, struct tc_frame *f)
{
	size_t len = 0;
	for (size_t i = 0; i < TC_FRAME_HEAD && i < n; i++) {
		char c = buf[i];
		int ok = i == 0 ? frame_type_ok(c) : i < 5 ? c >= '0' && c <= '9' : c == ' ';
		if (!ok)
			return -1;
		if (i >= 1 && i < 5)
			len = len * 10 + (size_t)(c - '0');
	}
	if (n < TC_FRAME_HEAD)
		return 0;
	if (len > TC_FRAME_MAX)
		return -1;
	if (n < TC_FRAME_HEAD + len + 1)
		return 0;
	if (buf[TC_FRAME_HEAD + len] != '\n')
		return -1;
	f->type = buf[0];
	f->payload = buf + TC_FRAME_HEAD;
	f->len = len;
	return (long)(TC_FRAME_HEAD + len + 1);
}

static void reader_drop_taken(struct tc_frame_reader *r)
{
	if (r->taken == 0)
		return;
	memmove(r->buf, r->buf + r->taken, r->len - r->taken);
	r->len -= r->taken;
	r->taken = 0;
}

long tc_frame_fill(struct tc_frame_reader *r, int fd)
{
	ssize_t n;
	reader_drop_taken(r);
	if (r->len == sizeof r->buf)
		return -1;   /* cannot happen: a whole frame fits twice and tc_frame_next takes it first */
	n = read(fd, r->buf + r->len, sizeof r->buf - r->len);
	if (n > 0)
		r->len += (size_t)n;
	return (long)n;
}

int tc_frame_next(struct tc_frame_reader *r, struct tc_frame *f)
{
	long k;
	reader_drop_taken(r);
	k = tc_frame_parse(r->buf, r->len, f);
	if (k <= 0)
		return (int)k;
	r->taken = (size_t)k;
	return 1;
}

size_t tc_utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
	unsigned cp;
	if (len == 0 || len > n)
		return 0;
	if (len == 1)
		return 1;
	cp = c & (0x7Fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3Fu);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;   /* overlong, beyond Unicode, or a surrogate */
	return len;
}

size_t tc_text_clean(char *dst, size_t n, const char *src, size_t len)
{
	const unsigned char *p = (const unsigned char *)src;
	size_t o = 0;
	while (len > 0) {
		size_t k = tc_utf8_len(p, len);
		if (k == 0 || (k == 1 && (*p < 0x20 || *p == 0x7F))) {
			if (o + 1 >= n)
				break;
			dst[o++] = '?';
			k = k ? k : 1;
		} else {
			if (o + k >= n)
				break;
			memmove(dst + o, p, k);   /* dst may be src: never ahead of it */
			o += k;
		}
		p += k;
		len -= k;
	}
	dst[o] = '\0';
	return o;
}
