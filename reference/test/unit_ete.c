/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_ete.c — unit tests of the ETE reference decoder (stages 1–2) through its public API; prints TAP. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/ete.h"
#include "tracecert/image.h"
#include "tracecert/protocol.h"


/* ---- Collecting output as one string per level -------------------------- */

struct out {
	char l1[16384];
	char s1[16384];
	char l2[16384];
	char l3[32768];
	int errors;
	int last_error;
	unsigned long long last_error_offset;
};

static void append(char *dst, size_t size, const char *line)
{
	size_t n = strlen(dst);
	snprintf(dst + n, size - n, "%s\n", line);
}

static void on_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct out *o = ctx;
	char buf[256];
	tc_ete_format_packet(buf, sizeof buf, p);
	append(o->l1, sizeof o->l1, buf);
	if (p->h.kind == tc_ete_pkt_error) {
		o->errors++;
		o->last_error = p->error;
		o->last_error_offset = (unsigned long long)p->h.offset;
	}
}

static void on_s1(void *ctx, const struct tc_ete_elem *e)
{
	struct out *o = ctx;
	char buf[256];
	tc_ete_format_elem(buf, sizeof buf, e);
	append(o->s1, sizeof o->s1, buf);
}

static void on_l2(void *ctx, const struct tc_ete_elem *e)
{
	struct out *o = ctx;
	char buf[256];
	tc_ete_format_elem(buf, sizeof buf, e);
	append(o->l2, sizeof o->l2, buf);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct out *o = ctx;
	char buf[256];
	tc_ete_format_l3(buf, sizeof buf, x);
	append(o->l3, sizeof o->l3, buf);
}

/* Decodes bytes fed `chunk` at a time (0 = whole), with stage 3 on image
 * when image is not NULL. */
static void decode_image(const struct tc_ete_config *cfg, const struct tc_image *image,
			 const uint8_t *b, size_t n, size_t chunk, struct out *o)
{
	struct tc_ete_sink sink = { o, on_packet, on_s1, on_l2, image ? on_l3 : NULL };
	struct tc_ete_decoder *d = tc_ete_alloc(cfg, &sink);
	memset(o, 0, sizeof *o);
	if (!d) {
		o->errors = -1;
		return;
	}
	tc_ete_set_image(d, image);
	for (size_t i = 0; i < n; i += chunk ? chunk : n)
		tc_ete_feed(d, b + i, (chunk && chunk < n - i) ? chunk : n - i);
	tc_ete_finish(d);
	tc_ete_free(d);
}

static void decode(const struct tc_ete_config *cfg, const uint8_t *b, size_t n, size_t chunk, struct out *o)
{
	decode_image(cfg, NULL, b, n, chunk, o);
}

static const uint8_t async_bytes[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 };

/* A-sync, then `pre` (e.g. a Trace Info), then the packet under test. */
static size_t build(uint8_t *buf, const uint8_t *pre, size_t npre, const uint8_t *pkt, size_t npkt)
{
	memcpy(buf, async_bytes, 12);
	memcpy(buf + 12, pre, npre);
	memcpy(buf + 12 + npre, pkt, npkt);
	return 12 + npre + npkt;
}

/* The L1 line of the packet at offset `at`, or "" */
static const char *l1_line_at(const struct out *o, unsigned at)
{
	static char line[256];
	char key[32];
	const char *s;
	snprintf(key, sizeof key, "@%u ", at);
	s = strstr(o->l1, key);
	line[0] = '\0';
	if (s) {
		size_t n = strcspn(s, "\n");
		snprintf(line, sizeof line, "%.*s", (int)n, s);
	}
	return line;
}

/* ---- Tests ----------------------------------------------------------------- */

static void test_null_arguments(void)
{
	struct tc_ete_config cfg;
	struct tc_ete_decoder *d;
	uint8_t b = 0;
	tc_ete_config_default(&cfg);
	ok(tc_ete_alloc(NULL, NULL) == NULL, "alloc(NULL config) fails");
	ok(tc_ete_feed(NULL, &b, 1) == tc_ete_invalid, "feed(NULL decoder) is invalid");
	ok(tc_ete_finish(NULL) == tc_ete_invalid, "finish(NULL) is invalid");
	tc_ete_free(NULL);
	ok(tc_ete_skipped(NULL) == 0, "skipped(NULL) is 0");
	d = tc_ete_alloc(&cfg, NULL);
	ok(d != NULL, "alloc with a NULL sink works");
	ok(tc_ete_feed(d, NULL, 1) == tc_ete_invalid, "feed(NULL data, 1) is invalid");
	ok(tc_ete_feed(d, NULL, 0) == tc_ete_ok, "feed(NULL data, 0) is fine");
	ok(tc_ete_finish(d) == tc_ete_ok, "finish works once");
	ok(tc_ete_finish(d) == tc_ete_finished, "finish twice is refused");
	ok(tc_ete_feed(d, &b, 1) == tc_ete_finished, "feed after finish is refused");
	tc_ete_free(d);
}

/* One key by name through the shared builder (tracecert/protocol.h). */
static int config_set(struct tc_ete_config *cfg, const char *key, const char *value)
{
	struct tc_config_builder b;
	char err[200];
	int rc;
	if (!cfg)
		return -1;
	tc_config_builder_init(&b, tc_protocol_find("ete"));
	rc = tc_config_builder_set(&b, key, value, err, sizeof err);
	if (rc)
		return rc;
	return tc_config_builder_apply(&b, cfg, NULL, err, sizeof err) ? -2 : 0;
}

static void test_config(void)
{
	struct tc_ete_config cfg;
	tc_ete_config_default(&cfg);
	ok(config_set(&cfg, "maxspec", "12") == 0 && cfg.maxspec == 12, "maxspec=12 is set");
	ok(config_set(&cfg, "nosuch", "1") == -1, "unknown key is -1");
	ok(config_set(&cfg, "commopt", "2") == -2, "commopt=2 is out of range");
	ok(config_set(&cfg, "maxspec", "65536") == -2, "maxspec=65536 is out of range");
	ok(config_set(&cfg, "maxspec", "-1") == -2, "maxspec=-1 is rejected");
	ok(config_set(&cfg, "maxspec", "1x") == -2, "maxspec=1x is rejected");
	ok(config_set(&cfg, "maxspec", "") == -2, "empty value is rejected");
	ok(config_set(NULL, "maxspec", "1") == -1, "NULL config is rejected");
	cfg.maxspec = 8;
	cfg.queue_cap = 8;
	ok(tc_ete_alloc(&cfg, NULL) == NULL, "queue_cap <= maxspec is an invalid configuration");
	tc_ete_config_default(&cfg);
	cfg.commopt = 3;
	ok(tc_ete_alloc(&cfg, NULL) == NULL, "commopt=3 in the struct is an invalid configuration");
}

/* Hand-derived values for the continuation encodings (K10.5.6.4). */
static void test_bit_replacement(void)
{
	struct tc_ete_config cfg;
	struct out o;
	uint8_t buf[128];
	size_t n;
	static const uint8_t tinfo[] = { 0x01, 0x00 };
	/* 9-byte timestamp: 8 x 7 bits of ones, then a full ninth byte: all 64 bits set */
	static const uint8_t ts9[] = { 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	/* 0x02 0x81 0x01: bits 6:0 = 1, bits 13:7 = 1 -> 0x81; then 0x02 0x05 replaces bits 6:0 -> 0x85 */
	static const uint8_t ts_repl[] = { 0x02, 0x81, 0x01, 0x02, 0x05 };
	/* Commit: 5th byte of a 32-bit field holds bits 31:28; 0x10 sets bit 32 */
	static const uint8_t commit_over[] = { 0x2d, 0x80, 0x80, 0x80, 0x80, 0x10 };
	/* Cycle count F1 (commopt 0): COMMIT=0, COUNT 20 bits: 3rd byte bits 5:0; 0x40 overflows */
	static const uint8_t cc_over[] = { 0x0e, 0x00, 0x80, 0x80, 0x40 };
	/* Cycle count F1: COUNT = 0x7f + (0x3f << 14) = 0x0fc07f... here 0xff 0x80 0x3f */
	static const uint8_t cc_max[] = { 0x0e, 0x00, 0xff, 0x80, 0x3f };
	tc_ete_config_default(&cfg);
	n = build(buf, tinfo, 2, ts9, sizeof ts9);
	decode(&cfg, buf, n, 0, &o);
	ok(!strcmp(l1_line_at(&o, 14), "@14 02 timestamp ts=0xffffffffffffffff"), "9-byte timestamp: %s", l1_line_at(&o, 14));
	n = build(buf, tinfo, 2, ts_repl, sizeof ts_repl);
	decode(&cfg, buf, n, 0, &o);
	ok(!strcmp(l1_line_at(&o, 14), "@14 02 timestamp ts=0x81") &&
	   !strcmp(l1_line_at(&o, 17), "@17 02 timestamp ts=0x85"), "timestamp bit replacement keeps the upper bits");
	n = build(buf, tinfo, 2, commit_over, sizeof commit_over);
	decode(&cfg, buf, n, 0, &o);
	ok(o.errors == 1 && o.last_error == tc_ete_err_field_overflow && o.last_error_offset == 14,
	   "ULEB128(32) with a 33rd bit is field-overflow at the packet");
	n = build(buf, tinfo, 2, cc_over, sizeof cc_over);
	decode(&cfg, buf, n, 0, &o);
	ok(o.errors == 1 && o.last_error == tc_ete_err_field_overflow, "ULEB128(20) with a 21st bit is field-overflow");
	n = build(buf, tinfo, 2, cc_max, sizeof cc_max);
	decode(&cfg, buf, n, 0, &o);
	/* COUNT = 0x7f | 0x00<<7 | 0x3f<<14 = 0x7f + 0xfc000 = 1032319 */
	ok(!strcmp(l1_line_at(&o, 14), "@14 0e cycle-count commit=0 cc=1032319"), "20-bit count: %s", l1_line_at(&o, 14));
}

/* libipt-style: every packet cut off by 1..len-1 bytes reports `truncated`
 * at its first byte, and nothing else. */
static void test_truncation(void)
{
	static const struct { const char *name; uint8_t b[24]; size_t n; } pk[] = {
		{ "trace info", { 0x01, 0x0d, 0x01, 0x05, 0x05 }, 5 },
		{ "timestamp+cc", { 0x03, 0x81, 0x01, 0x85, 0x01 }, 5 },
		{ "exception long64+ctx", { 0x06, 0x03, 0x85, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
					    0xc0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 }, 20 },
		{ "cycle count f1", { 0x0e, 0x81, 0x00, 0x85, 0x01 }, 5 },
		{ "cycle count f2", { 0x0c, 0x12 }, 2 },
		{ "commit", { 0x2d, 0x82, 0x00 }, 3 },
		{ "cancel f1", { 0x2e, 0x81, 0x00 }, 3 },
		{ "context", { 0x81, 0xc1, 1, 2, 3, 4, 5, 6, 7, 8 }, 10 },
		{ "addr ctx 32", { 0x82, 0x01, 0x02, 0x03, 0x04, 0x01 }, 6 },
		{ "short", { 0x95, 0x81, 0x01 }, 3 },
		{ "long 32 IS1", { 0x9b, 0x01, 0x02, 0x03, 0x04 }, 5 },
		{ "long 64 IS0", { 0x9d, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, 9 },
		{ "q 32-bit", { 0xaa, 0x01, 0x02, 0x03, 0x04, 0x81, 0x01 }, 7 },
		{ "source 64 IS1", { 0xb9, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 }, 9 },
	};
	/* Trace Info with SPEC=5 so Commit/Cancel of 2 are legal; maxspec 16 */
	static const uint8_t tinfo[] = { 0x01, 0x04, 0x05 };
	struct tc_ete_config cfg;
	uint8_t buf[64];
	struct out o;
	tc_ete_config_default(&cfg);
	cfg.maxspec = 16;
	for (size_t k = 0; k < sizeof pk / sizeof pk[0]; k++) {
		size_t n = build(buf, tinfo, sizeof tinfo, pk[k].b, pk[k].n);
		int all = 1;
		decode(&cfg, buf, n, 0, &o);
		ok(o.errors == 0, "%s: the whole packet decodes without error", pk[k].name);
		for (size_t cut = 1; cut < pk[k].n; cut++) {
			decode(&cfg, buf, n - cut, 0, &o);
			all &= o.errors == 1 && o.last_error == tc_ete_err_truncated && o.last_error_offset == 15;
		}
		ok(all, "%s: cut by 1..%zu bytes is truncated at @15", pk[k].name, pk[k].n - 1);
	}
}

/* Reserved headers per the project's errata (the 256 header values of
 * Parse_Trace, Arm ARM K10.5.2.2.1, with reference/ete/ERRATA.md TC-S2/S3/P1;
 * with COMMOPT=1, 0x0C and 0x14-0x1F are cycle counts with a warning,
 * TC-R1), written here independently of the decoder's dispatch. */
static int expect_reserved(int h)
{
	static const int always[] = { 0x05, 0x07, 0x08, 0x09, 0x84, 0x87, 0x88, 0x94, 0x97,
				      0x98, 0x99, 0x9c, 0x9f, 0xa4, 0xa7, 0xa8, 0xa9, 0xad, 0xae };
	for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
		if (h == always[i])
			return 1;
	if ((h >= 0x20 && h <= 0x2c) || (h >= 0x40 && h <= 0x6f) || (h >= 0x89 && h <= 0x8f) ||
	    (h >= 0xba && h <= 0xbf))
		return 1;
	return 0;
}

static void test_every_header(void)
{
	struct tc_ete_config cfg;
	uint8_t buf[64], pkt[33];
	struct out o;
	int right = 0, right1 = 0;
	static const uint8_t tinfo[] = { 0x01, 0x04, 0x05 };
	tc_ete_config_default(&cfg);
	cfg.maxspec = 16;
	memset(pkt, 0x01, sizeof pkt);   /* payload bytes of 01: small valid counts/addresses */
	for (int h = 0; h < 256; h++) {
		int reserved, idx3, got_res, got_idx3;
		size_t n;
		pkt[0] = (uint8_t)h;
		n = build(buf, tinfo, sizeof tinfo, pkt, sizeof pkt);
		for (int commopt = 0; commopt <= 1; commopt++) {
			cfg.commopt = commopt;
			decode(&cfg, buf, n, 0, &o);
			reserved = expect_reserved(h);
			idx3 = h == 0x93 || h == 0xa3 || h == 0xb3;
			got_res = strstr(o.l1, "@15 ") && strstr(l1_line_at(&o, 15), "reserved-header");
			got_idx3 = strstr(l1_line_at(&o, 15), "exact-match-index") != NULL;
			if (reserved == !!got_res && idx3 == got_idx3)
				*(commopt ? &right1 : &right) += 1;
			else
				printf("# header %02x commopt=%d: %s\n", h, commopt, l1_line_at(&o, 15));
		}
	}
	ok(right == 256, "commopt=0: all 256 headers classified as the errata map says (%d)", right);
	ok(right1 == 256, "commopt=1: all 256 headers classified as the errata map says (%d)", right1);
}

/* Random bytes with A-syncs sprinkled in. */
static void random_bytes(uint8_t *buf, size_t n, uint32_t *seed)
{
	for (size_t i = 0; i < n; i++) {
		*seed = *seed * 1103515245u + 12345u;
		buf[i] = (uint8_t)(*seed >> 16);
		if ((*seed >> 8) % 97 == 0 && i + 12 < n) {
			memcpy(buf + i, async_bytes, 12);
			i += 11;
		}
	}
}

/* A synchronised start (A-sync, Trace Info, Trace On, AArch64 context, an
 * address in the image) followed by packets drawn from a list of valid
 * ones with random payload bytes: exercises stages 2 and 3. */
static void random_packets(uint8_t *buf, size_t n, uint32_t *seed)
{
	static const uint8_t start[] = { 0x01, 0x00, 0x04, 0x81, 0x10, 0x9a, 0x00, 0x01, 0x00, 0x00 };
	static const uint8_t heads[] = { 0xf7, 0xf6, 0xfa, 0xd9, 0xdc, 0xf5, 0xd6, 0xc3, 0xe1, 0x90, 0x91,
					 0x95, 0x96, 0xac, 0xaf, 0xa0, 0x30, 0x33, 0x34, 0x3b, 0x71, 0x02,
					 0x0a, 0x0b, 0xb4, 0xb0, 0x80, 0x04, 0x2d, 0x2e, 0x0d, 0x12 };
	size_t i;
	memcpy(buf, async_bytes, 12);
	memcpy(buf + 12, start, sizeof start);
	for (i = 12 + sizeof start; i + 3 < n;) {
		*seed = *seed * 1103515245u + 12345u;
		buf[i++] = heads[(*seed >> 16) % sizeof heads];
		*seed = *seed * 1103515245u + 12345u;
		buf[i++] = (uint8_t)((*seed >> 16) & 0x7f);   /* a payload byte, if any, without continuation */
		if (buf[i - 2] == 0x0a || buf[i - 2] == 0x0b || buf[i - 2] == 0x80 || buf[i - 2] == 0x04 ||
		    buf[i - 2] >= 0xc0 || (buf[i - 2] >= 0x30 && buf[i - 2] <= 0x3b) || buf[i - 2] == 0x71 ||
		    buf[i - 2] == 0x90 || buf[i - 2] == 0x91 || buf[i - 2] == 0xaf || buf[i - 2] == 0xb0 || buf[i - 2] == 0x12)
			i--;                                    /* no payload */
	}
	memset(buf + i, 0x70, n - i);                   /* Ignore packets */
}

/* Any chunking gives the same output as the whole buffer (random streams
 * with A-syncs sprinkled in, so the parser spends time in sync), down to L3
 * over an image of random instructions with a few return stack and WFX
 * settings. */
static void test_streaming(void)
{
	struct tc_ete_config cfg;
	static struct out whole, bytes, chunks;
	static uint8_t code[4096];
	struct tc_image img;
	uint8_t buf[600];
	uint32_t seed = 12345;
	int same = 0, runs = 300, l3_lines = 0;
	memset(&img, 0, sizeof img);
	for (size_t i = 0; i < sizeof code; i++) {
		seed = seed * 1103515245u + 12345u;
		code[i] = (uint8_t)(seed >> 16);
	}
	tc_image_add(&img, 0, code, sizeof code);
	tc_ete_config_default(&cfg);
	for (int r = 0; r < runs; r++) {
		cfg.maxspec = (uint32_t)(r % 5) * 3;
		cfg.commopt = r & 1;
		cfg.retstack = (r >> 1) & 1;
		cfg.wfxmode = (r >> 2) & 1;
		cfg.walk_limit = 1000;
		if (r % 2)
			random_bytes(buf, sizeof buf, &seed);
		else
			random_packets(buf, sizeof buf, &seed);
		decode_image(&cfg, &img, buf, sizeof buf, 0, &whole);
		decode_image(&cfg, &img, buf, sizeof buf, 1, &bytes);
		decode_image(&cfg, &img, buf, sizeof buf, 1 + r % 13, &chunks);
		same += !strcmp(whole.l1, bytes.l1) && !strcmp(whole.s1, bytes.s1) && !strcmp(whole.l2, bytes.l2) &&
			!strcmp(whole.l1, chunks.l1) && !strcmp(whole.s1, chunks.s1) && !strcmp(whole.l2, chunks.l2) &&
			!strcmp(whole.l3, bytes.l3) && !strcmp(whole.l3, chunks.l3);
		for (const char *p = whole.l3; (p = strstr(p, "range")) != NULL; p++)
			l3_lines++;
	}
	ok(same == runs, "random streams: whole, 1-byte and n-byte feeding agree on L1, s1, L2, L3 (%d/%d)", same, runs);
	ok(l3_lines > 0, "random streams reach stage 3 (%d ranges)", l3_lines);
	tc_image_free(&img);
}

/* Memory is bounded by configuration: a queue that fills up is an error of
 * its own class, not a reallocation. */
static void test_queue_cap(void)
{
	struct tc_ete_config cfg;
	uint8_t buf[128];
	uint8_t events[40];
	struct out o;
	static const uint8_t tinfo[] = { 0x01, 0x00 };
	size_t n;
	tc_ete_config_default(&cfg);
	cfg.maxspec = 4;
	cfg.queue_cap = 8;
	memset(events, 0x71, sizeof events);   /* Event 0: one non-P0 element each */
	n = build(buf, tinfo, 2, events, sizeof events);
	decode(&cfg, buf, n, 0, &o);
	/* the queue holds the Trace Info (@12) and 7 events (@14..@20); the 8th
	 * event, at @21, does not fit */
	ok(o.errors == 1 && o.last_error == tc_ete_err_queue_overflow && o.last_error_offset == 21,
	   "queue_cap 8: the 8th event overflows at @21 (got %d errors, last @%llu)", o.errors, o.last_error_offset);
}

/* Bytes before the first A-sync produce nothing; a short zero run is not
 * an A-sync. */
static void test_sync_search(void)
{
	struct tc_ete_config cfg;
	struct out o;
	static const uint8_t junk[] = { 0xf7, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					0x00, 0x00, 0x00, 0x00, 0x80, /* 10 zeros + 80: too short */
					0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					0x00, 0x00, 0x80, 0x04 };
	tc_ete_config_default(&cfg);
	decode(&cfg, junk, sizeof junk, 0, &o);
	ok(!strcmp(o.l1, "@15 00 async\n@28 04 trace-on\n"), "search skips to the first full A-sync (@15), not a 10-zero run");
}

/* Decodes b fed in pieces of 1, 2, ..., 16 bytes in turn (as certify
 * feeds a trace) and returns tc_ete_skipped. */
static uint64_t skipped_in_pieces(const struct tc_ete_config *cfg, const uint8_t *b, size_t n)
{
	struct tc_ete_decoder *d = tc_ete_alloc(cfg, NULL);
	uint64_t skipped;
	size_t piece = 1;
	if (!d)
		return UINT64_MAX;
	for (size_t i = 0; i < n; i += piece, piece = piece % 16 + 1)
		tc_ete_feed(d, b + i, piece < n - i ? piece : n - i);
	tc_ete_finish(d);
	skipped = tc_ete_skipped(d);
	tc_ete_free(d);
	return skipped;
}

/* The bytes skipped while searching for an A-sync (the `# skipped N bytes`
 * comment of tracecert dump; no level carries the count, FORMAT.md): a
 * search starts at the beginning of the trace and one byte after an
 * erroneous packet's first byte, and ends at the first zero of the A-sync
 * found (ERRATA TC-P28) or at the end of the trace. */
static void test_skipped_count(void)
{
	struct tc_ete_config cfg;
	/* vectors/ete/hand/resync-search-edges.tcv */
	static const uint8_t edges[] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,                 /* @0  A-sync: 0 skipped before it */
		0x01, 0x00,                                            /* @12 Trace Info */
		0x9d, 0x04, 0x08, 0x0c, 0x10, 0x14, 0x18, 0x1c, 0x20,  /* @14 Long Address */
		0x8c,                                                  /* @23 reserved: search from @24 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,                 /* @24 A-sync: 0 skipped */
		0x01, 0x00,                                            /* @36 Trace Info */
		0x8c,                                                  /* @38 reserved: search from @39 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,                    /* @39 10 zeros: no A-sync */
		0xf7,                                                  /* @50 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,                 /* @51 A-sync: @39..@50 skipped, 12 */
		0x01, 0x00,                                            /* @63 Trace Info */
		0x9d, 0x80, 0x00,                                      /* @65 sbz: search from @66 */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80,                    /* A-sync @67: @66 skipped, 1 */
		0x01, 0x00, 0xf7,                                      /* @79 Trace Info, @81 atom */
		0x9d, 0x04, 0x08,                                      /* @82 truncated: @83, @84 skipped, 2 */
	};
	/* vectors/ete/hand/trunc-async-in-sync.tcv */
	static const uint8_t trunc_async[] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x01, 0x00,    /* @0 A-sync, @12 Trace Info */
		0, 0, 0, 0,                                            /* @14 A-sync cut off: @15..@17 skipped, 3 */
	};
	/* test_sync_search's bytes: 15 before the A-sync @15 */
	static const uint8_t junk[] = { 0xf7, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
					0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x04 };
	tc_ete_config_default(&cfg);
	ok(skipped_in_pieces(&cfg, edges, sizeof edges) == 15,
	   "skipped after errors, a too-short zero run and a truncation: 0+0+12+1+2 = 15 bytes");
	ok(skipped_in_pieces(&cfg, trunc_async, sizeof trunc_async) == 3,
	   "an A-sync cut off by the end: the 3 bytes after its first are skipped");
	ok(skipped_in_pieces(&cfg, junk, sizeof junk) == 15, "15 bytes before the first A-sync are skipped");
}

/* An image replaced between feeds (tc_ete_set_image again, as ete.h allows
 * after regions are freed or replaced): the decoder forgets what it decoded
 * from the old one. 0x1000 holds B 0x2000 in the first image, NOP; B 0x3000
 * in the second; the same atom after the same address walks each in turn. */
static void test_set_image_again(void)
{
	static const uint8_t first[] = { 0x00, 0x04, 0x00, 0x14 };                          /* b 0x2000 */
	static const uint8_t second[] = { 0x1f, 0x20, 0x03, 0xd5, 0xff, 0x07, 0x00, 0x14 }; /* nop; b 0x3000 */
	static const uint8_t tinfo[] = { 0x01, 0x00 };                                      /* Trace Info */
	static const uint8_t start[] = { 0x04, 0x81, 0x31,                                  /* Trace On, Context (AArch64) */
					 0x9d, 0x00, 0x08, 0, 0, 0, 0, 0, 0,                /* Target Address 0x1000 */
					 0xf7 };                                            /* Atom E */
	static const uint8_t again[] = { 0x90, 0xf7 };                                      /* Target Address 0x1000, Atom E */
	struct tc_ete_config cfg;
	struct out o;
	struct tc_ete_sink sink = { &o, on_packet, on_s1, on_l2, on_l3 };
	struct tc_image a, b;
	struct tc_ete_decoder *d;
	uint8_t buf[64];
	size_t n = build(buf, tinfo, sizeof tinfo, start, sizeof start);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	tc_image_add(&a, 0x1000, first, sizeof first);
	tc_image_add(&b, 0x1000, second, sizeof second);
	tc_ete_config_default(&cfg);
	memset(&o, 0, sizeof o);
	d = tc_ete_alloc(&cfg, &sink);
	tc_ete_set_image(d, &a);
	tc_ete_feed(d, buf, n);
	tc_ete_set_image(d, &b);
	tc_ete_feed(d, again, sizeof again);
	tc_ete_finish(d);
	tc_ete_free(d);
	note("L3: %s", o.l3);
	ok(!strcmp(o.l3, "@14 trace-on\n@15 context el=1 ns=1 sf=1 ctxid=0x0 vmid=0x0\n"
			 "@26 range first=0x1000 last=0x1000 n=1 isa=a64 type=dir taken=E\n"
			 "@28 range first=0x1000 last=0x1004 n=2 isa=a64 type=dir taken=E\n"),
	   "a second image replaces the first: the instruction at 0x1000 is decoded again");
	tc_image_free(&a);
	tc_image_free(&b);
}

int main(void)
{
	test_null_arguments();
	test_config();
	test_bit_replacement();
	test_truncation();
	test_every_header();
	test_streaming();
	test_queue_cap();
	test_sync_search();
	test_skipped_count();
	test_set_image_again();
	return tap_finish();
}
