/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_csframe.c — the CoreSight formatter deformatter on hand-checked frames, under any chunking, and against the encoder's formatter writer; prints TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/csframe.h"
#include "tracecert/encoder.h"

/* What a deformatter run gave: the bytes of each ID, and the errors. */
struct got {
	uint8_t *b[128];
	size_t n[128];
	size_t cap[128];
	int calls;
	char errors[1024];
};

static void on_data(void *ctx, unsigned id, const uint8_t *bytes, size_t len)
{
	struct got *g = ctx;
	g->calls++;
	if (id >= 128 || len == 0 || len > 15)
		return;
	if (g->cap[id] - g->n[id] < len) {
		g->cap[id] = 2 * (g->cap[id] + len);
		g->b[id] = realloc(g->b[id], g->cap[id]);
	}
	memcpy(g->b[id] + g->n[id], bytes, len);
	g->n[id] += len;
}

static void on_error(void *ctx, uint64_t offset, const char *msg)
{
	struct got *g = ctx;
	size_t k = strlen(g->errors);
	snprintf(g->errors + k, sizeof g->errors - k, "@%llu %s|", (unsigned long long)offset, msg);
}

/* Deformats buf fed in chunks (0: whole; else pseudo-random 1..chunk). */
static struct tc_csframe run(const uint8_t *buf, size_t len, unsigned chunk, struct got *g)
{
	struct tc_csframe_sink sink = { g, on_data, on_error };
	struct tc_csframe d;
	uint32_t s = chunk * 2654435761u + 1;
	memset(g, 0, sizeof *g);
	tc_csframe_init(&d, &sink);
	for (size_t i = 0; i < len;) {
		size_t n = len - i;
		if (chunk) {
			s = s * 1103515245u + 12345u;
			if ((s >> 16) % chunk + 1 < n)
				n = (s >> 16) % chunk + 1;
		}
		tc_csframe_feed(&d, buf + i, n);
		i += n;
	}
	tc_csframe_finish(&d);
	return d;
}

static void got_free(struct got *g)
{
	for (int i = 0; i < 128; i++)
		free(g->b[i]);
}

static int same(const struct got *a, const struct got *b)
{
	for (int i = 0; i < 128; i++)
		if (a->n[i] != b->n[i] || (a->n[i] && memcmp(a->b[i], b->b[i], a->n[i])))
			return 0;
	return !strcmp(a->errors, b->errors);
}

static int bytes_are(const struct got *g, unsigned id, const char *hex)
{
	uint8_t want[64];
	size_t n = 0;
	for (const char *p = hex; p[0] && p[1]; p += p[2] ? 3 : 2)
		want[n++] = (uint8_t)strtoul((char[3]){ p[0], p[1], 0 }, NULL, 16);
	return g->n[id] == n && (n == 0 || !memcmp(g->b[id], want, n));
}

/* Frames worked out by hand from the rules in csframe.h. */
static void test_hand_frames(void)
{
	static const uint8_t buf[] = {
		0xff, 0xff, 0xff, 0x7f,       /* frame synchronization: skipped */
		/* frame 1 (offset 4) */
		0x21,   /* 0: ID 0x10, aux bit 0 = 0: at once */
		0xaa,   /* 1: 0x10 */
		0x54,   /* 2: data, bit 0 from aux bit 1 (1): 0x55, 0x10 */
		0x66,   /* 3: 0x10 */
		0x41,   /* 4: ID 0x20, aux bit 2 = 1: after the next byte */
		0x77,   /* 5: still 0x10 */
		0x02,   /* 6: data, aux bit 3 = 0: 0x02, now 0x20 */
		0x99,   /* 7: 0x20 */
		0x01,   /* 8: ID 0x00 (null), aux bit 4 = 0 */
		0x12,   /* 9: null: dropped */
		0xfb,   /* 10: ID 0x7D (trigger), aux bit 5 = 0 */
		0x34,   /* 11: trigger: dropped */
		0x21,   /* 12: ID 0x10, aux bit 6 = 0 */
		0x31,   /* 13: 0x10 */
		0x41,   /* 14: ID 0x20 for the next frame; aux bit 7 (1) ignored */
		0x86,   /* 15: aux 1000 0110 */
		/* frame 2 (offset 20): all 0x20 */
		0x08, 0x01, 0x0a, 0x03, 0x0c, 0x05, 0x0e, 0x07, 0x10, 0x09, 0x12, 0x0b, 0x14, 0x0d, 0x16,
		0x01,   /* aux: bit 0 set: byte 0 is 0x09 */
		/* frame 3 (offset 36): a reserved ID in byte 2, then 0x10 again */
		0x10, 0x11, 0xff, 0x22, 0x21, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0x00,
		/* a partial frame (offset 52) */
		0x21, 0x01, 0x02,
	};
	struct got g;
	struct tc_csframe d = run(buf, sizeof buf, 0, &g);
	ok(d.syncs == 1 && d.frames == 3, "one frame sync skipped, three frames");
	ok(bytes_are(&g, 0x10, "aa 55 66 77 31 33 44 55 66 77 88 99 aa bb cc"), "ID 0x10: at once, data in even bytes, after-the-next-byte, and again in frame 3");
	ok(bytes_are(&g, 0x20, "02 99 09 01 0a 03 0c 05 0e 07 10 09 12 0b 14 0d 16 10 11"),
	   "ID 0x20: from byte 4's change, byte 14's change for frame 2, into frame 3 until the reserved ID");
	ok(d.dropped == 3 && g.n[0] == 0 && g.n[0x7d] == 0 && g.n[0x7f] == 0, "null, trigger and reserved-ID bytes dropped (3)");
	ok(strstr(g.errors, "@38 frame byte 2: ID 0x7f is reserved") != NULL, "the reserved ID 0x7F is an error at its offset: %s", g.errors);
	ok(strstr(g.errors, "@52 the buffer ends 3 bytes into a frame") != NULL, "a partial frame at the end is an error at its offset");
	ok(d.errors == 2 && tc_csframe_seen(&d, 0x10) && tc_csframe_seen(&d, 0x20) && !tc_csframe_seen(&d, 0x7d) &&
		   !tc_csframe_seen(&d, 0x11), "IDs seen: 0x10 and 0x20 only");
	got_free(&g);
}

static void test_no_id_yet(void)
{
	uint8_t f[16];
	struct got g;
	struct tc_csframe d;
	for (int i = 0; i < 15; i++)
		f[i] = (uint8_t)(i * 2);
	f[15] = 0;
	d = run(f, 16, 0, &g);
	ok(d.dropped == 15 && g.calls == 0 && d.errors == 0, "data before the first ID is dropped, not an error");
	got_free(&g);
}

/* Any chunking gives the same bytes and errors. */
static void test_chunking(void)
{
	uint8_t buf[4096];
	uint32_t s = 7;
	int bad = 0;
	for (int round = 0; round < 50; round++) {
		struct got whole, part;
		size_t len = 100 + (size_t)round * 79;
		for (size_t i = 0; i < len; i++) {
			s = s * 1103515245u + 12345u;
			buf[i] = (uint8_t)(s >> 16);
			if (i % 16 == 0 && (s >> 8) % 3 == 0)
				buf[i] = 0x21;   /* frequent ID 0x10 */
		}
		run(buf, len, 0, &whole);
		for (unsigned chunk = 1; chunk < 40; chunk += 7) {
			run(buf, len, chunk, &part);
			bad += !same(&whole, &part);
			got_free(&part);
		}
		got_free(&whole);
	}
	ok(bad == 0, "50 random buffers: byte by byte and in random chunks as whole");
}

/* The writer's frames deformat to the streams it was given, with and without syncs. */
static void test_writer_round_trip(void)
{
	uint8_t a[3000], b[1777], c[5];
	int bad = 0, forms_ok = 1;
	unsigned long at_once = 0, after_next = 0, in_14 = 0, even_data = 0;
	for (size_t i = 0; i < sizeof a; i++)
		a[i] = (uint8_t)(i * 7 + 1);
	for (size_t i = 0; i < sizeof b; i++)
		b[i] = (uint8_t)(i * 13 + 5);
	memcpy(c, "\xff\xff\xff\x7f\x01", 5);
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct tc_enc_stream s[3] = { { 0x10, a, sizeof a }, { 0x11, b, sizeof b }, { 0x6f, c, sizeof c } };
		struct got g;
		size_t len = 0;
		uint8_t *buf = tc_enc_csframe(s, 3, seed, (int)(seed & 1), &len);
		struct tc_csframe d;
		if (!buf) {
			bad++;
			continue;
		}
		for (size_t f = 0; f + 16 <= len; f += 16) {
			if (buf[f] == 0xff && buf[f + 1] == 0xff && buf[f + 2] == 0xff && buf[f + 3] == 0x7f)
				f += 4;
			for (unsigned p = 0; p < 15 && f + 16 <= len; p += 2) {
				unsigned aux = (buf[f + 15] >> (p / 2)) & 1;
				if (buf[f + p] & 1)
					*(p == 14 ? &in_14 : aux ? &after_next : &at_once) += 1;
				else
					even_data++;
			}
		}
		d = run(buf, len, (unsigned)(seed % 5) * 9, &g);
		bad += !(g.n[0x10] == sizeof a && !memcmp(g.b[0x10], a, sizeof a) && g.n[0x11] == sizeof b &&
			 !memcmp(g.b[0x11], b, sizeof b) && g.n[0x6f] == sizeof c && !memcmp(g.b[0x6f], c, sizeof c) &&
			 d.errors == 0 && len % 4 == 0 && (seed & 1 ? d.syncs > 0 : d.syncs == 0));
		got_free(&g);
		free(buf);
	}
	forms_ok = at_once && after_next && in_14 && even_data;
	ok(bad == 0, "40 seeds: three interleaved streams come back byte for byte (syncs in odd seeds)");
	ok(forms_ok, "the writer used every form: ID at once %lu, after the next byte %lu, in byte 14 %lu, data in even bytes %lu",
	   at_once, after_next, in_14, even_data);
	ok(tc_enc_csframe((struct tc_enc_stream[]){ { 0x70, a, 1 } }, 1, 1, 0, &(size_t){ 0 }) == NULL,
	   "the writer refuses ID 0x70");
}

/* The writer's refusals (tracecert/encoder.h: 1..16 streams, IDs 0x01..0x6F, bytes
 * unless empty, a length to write to) and its empty output. */
static void test_writer_edges(void)
{
	static const uint8_t a[2] = { 1, 2 };
	struct tc_enc_stream one = { 0x10, a, sizeof a }, s17[17];
	size_t len = 99;
	uint8_t *buf;
	for (int i = 0; i < 17; i++)
		s17[i] = (struct tc_enc_stream){ (unsigned)(i + 1), a, sizeof a };
	ok(tc_enc_csframe(&one, 0, 1, 0, &len) == NULL && tc_enc_csframe(s17, 17, 1, 0, &len) == NULL,
	   "0 and 17 streams are refused");
	ok(tc_enc_csframe(&one, 1, 1, 0, NULL) == NULL, "no length to write to is refused");
	ok(tc_enc_csframe((struct tc_enc_stream[]){ { 0, a, 1 } }, 1, 1, 0, &len) == NULL, "ID 0 is refused");
	ok(tc_enc_csframe((struct tc_enc_stream[]){ { 0x10, NULL, 1 } }, 1, 1, 0, &len) == NULL,
	   "a stream with a length and no bytes is refused");
	buf = tc_enc_csframe(s17, 16, 7, 1, &len);
	ok(buf != NULL && len > 0 && len % 4 == 0, "16 streams (IDs 1..16) are written, syncs on");
	free(buf);
	len = 99;
	buf = tc_enc_csframe((struct tc_enc_stream[]){ { 0x10, NULL, 0 } }, 1, 1, 1, &len);
	ok(buf != NULL && len == 0, "an empty stream gives an empty buffer (freeable, length 0)");
	free(buf);
}

static void test_api_edges(void)
{
	struct tc_csframe d;
	static const uint8_t frame[16] = { 0x21, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0 };
	tc_csframe_init(&d, NULL);
	tc_csframe_feed(&d, frame, sizeof frame);          /* no sink: counted only */
	tc_csframe_feed(&d, NULL, 5);
	tc_csframe_feed(NULL, frame, 5);
	tc_csframe_finish(NULL);
	tc_csframe_feed(&d, frame, 3);
	tc_csframe_finish(&d);
	tc_csframe_finish(&d);
	tc_csframe_feed(&d, frame, 16);                    /* after finish: ignored */
	ok(d.frames == 1 && d.errors == 1 && d.finished && tc_csframe_seen(&d, 0x10) && !tc_csframe_seen(&d, 200),
	   "no sink, NULL arguments, feed after finish, an ID beyond 127");
}

int main(void)
{
	test_hand_frames();
	test_writer_edges();
	test_no_id_yet();
	test_chunking();
	test_writer_round_trip();
	test_api_edges();
	return tap_finish();
}
