/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_rvtrace.c — unit tests of the RISC-V processor trace 0.026 reference decoder at L1 (frames,
 * packets, text, configuration) through its public API; prints TAP.
 *
 * Expected lines come from the text (Lnnn: lines of RISC-V Processor Trace 0.026-DRAFT), the framing
 * of reference/rvtrace/ERRATA.md (RV-F1…RV-F7) and the hand reasoning written beside each case:
 * every byte's bits named as payload bits pN (payload bit p ≥ 2 is bit (p+6) mod 8 of byte
 * ⌊(p+6)/8⌋; bits 0 and 1 are byte 0's bits 6 and 7). Where a case has many values (every branch
 * map length, every address length), its bytes are laid out by the small packer below from the
 * field values the case chooses; the packer is first shown to give the hand-derived bytes of
 * FORMAT.md's worked examples. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/protocol.h"
#include "tracecert/rvtrace.h"
#include "tracecert/rvtrace_config.h"

/* ---- Collecting output ------------------------------------------------------- */

#define MAX_OUT 64

struct out {
	char l1[16384];
	struct tc_rvtrace_packet rec[MAX_OUT];
	int n;
};

static void on_packet(void *ctx, const struct tc_rvtrace_packet *p)
{
	struct out *o = ctx;
	char buf[256];
	size_t len = strlen(o->l1);
	tc_rvtrace_format_packet(buf, sizeof buf, p);
	snprintf(o->l1 + len, sizeof o->l1 - len, "%s\n", buf);
	if (o->n < MAX_OUT)
		o->rec[o->n++] = *p;
}

/* Decodes n bytes fed `chunk` at a time (0: whole; SIZE_MAX: sizes 1..9 from a fixed sequence).
 * Returns 0, or -1 when the decoder refused the configuration. */
static int decode(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t n, size_t chunk, struct out *o)
{
	struct tc_rvtrace_sink sink = { o, on_packet };
	struct tc_rvtrace_decoder *d = tc_rvtrace_alloc(cfg, &sink);
	uint32_t seed = 11;
	memset(o, 0, sizeof *o);
	if (!d)
		return -1;
	for (size_t i = 0; i < n;) {
		size_t k = chunk ? chunk : n;
		if (chunk == SIZE_MAX) {
			seed = seed * 1664525u + 1013904223u;
			k = 1 + (seed >> 24) % 9;
		}
		if (k > n - i)
			k = n - i;
		tc_rvtrace_feed(d, b + i, k);
		i += k;
	}
	tc_rvtrace_finish(d);
	tc_rvtrace_free(d);
	return 0;
}

static int same_record(const struct tc_rvtrace_packet *a, const struct tc_rvtrace_packet *b)
{
	return a->h.size == b->h.size && a->h.protocol == b->h.protocol && a->h.kind == b->h.kind &&
	       a->h.offset == b->h.offset && a->byte0 == b->byte0 && a->error == b->error &&
	       a->warning == b->warning && a->field == b->field && a->branches == b->branches && a->full == b->full &&
	       a->has_context == b->has_context && a->has_tval == b->has_tval && a->privilege == b->privilege &&
	       a->branch == b->branch && a->interrupt == b->interrupt && a->enable == b->enable && a->mode == b->mode &&
	       a->qual == b->qual && a->control == b->control && a->type == b->type && a->ecause == b->ecause &&
	       a->map == b->map && a->context == b->context && a->address == b->address && a->diff == b->diff &&
	       a->tval == b->tval && a->value == b->value;
}

/* Every line parsed back gives the record it was written from, and is written again the same. */
static int round_trip(const struct out *o)
{
	const char *line = o->l1;
	for (int i = 0; i < o->n; i++) {
		struct tc_rvtrace_packet p;
		char text[256], again[256], err[200];
		size_t len = strcspn(line, "\n");
		snprintf(text, sizeof text, "%.*s", (int)len, line);
		line += len + 1;
		if (tc_rvtrace_parse_packet_text(text, &p, err, sizeof err)) {
			note("line '%s' does not parse back: %s", text, err);
			return 0;
		}
		tc_rvtrace_format_packet(again, sizeof again, &p);
		if (!same_record(&p, &o->rec[i]) || strcmp(again, text)) {
			note("line '%s' parses to a different record (written again: '%s')", text, again);
			return 0;
		}
	}
	return 1;
}

/* The L1 text of the bytes, whole, byte by byte and in random chunks, is `expected`, and every line
 * reads back to its record. */
static void expect_l1(const char *what, const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t n,
		      const char *expected)
{
	static struct out whole, bytes, chunks;
	int good = decode(cfg, b, n, 0, &whole) == 0 && decode(cfg, b, n, 1, &bytes) == 0 &&
		   decode(cfg, b, n, SIZE_MAX, &chunks) == 0;
	good = good && !strcmp(whole.l1, expected) && !strcmp(bytes.l1, expected) && !strcmp(chunks.l1, expected);
	if (!good)
		note("expected:\n%sgot (whole):\n%sgot (bytes):\n%s", expected, whole.l1, bytes.l1);
	ok(good && round_trip(&whole), "%s", what);
}

static struct tc_rvtrace_config config(void)
{
	struct tc_rvtrace_config cfg;
	tc_rvtrace_config_default(&cfg);
	return cfg;
}

/* ---- A packer of payload fields (RV-F1, RV-F2, RV-F4), for the cases with many values ---------- */

struct pack {
	uint8_t b[TC_RVTRACE_MAX_FRAME];
	size_t first;    /* byte of payload bit 2: 1, or 2 in a long form */
	unsigned pos;    /* the next payload bit */
};

static void pack_init(struct pack *k, int long_form)
{
	memset(k, 0, sizeof *k);
	k->first = long_form ? 2 : 1;
}

/* Appends the low `width` bits of v, least-significant bit first. */
static void pack_put(struct pack *k, uint64_t v, unsigned width)
{
	for (unsigned i = 0; i < width; i++, k->pos++) {
		unsigned bit = (unsigned)(v >> i) & 1u;
		size_t at = k->pos < 2 ? 6 + k->pos : k->first * 8 + (k->pos - 2);
		k->b[at / 8] |= (uint8_t)(bit << (at % 8));
	}
}

/* Ends the frame of message type `type` with `bytes` bytes after byte 0 (short form: N) or after
 * byte 1 (long form: M); -1: the fewest that hold every bit put. Returns the frame's length. */
static size_t pack_end(struct pack *k, unsigned type, int bytes)
{
	unsigned n = bytes >= 0 ? (unsigned)bytes : k->pos <= 2 ? 0 : (k->pos - 2 + 7) / 8;
	k->b[0] |= (uint8_t)(type << 4);
	if (k->first == 2) {
		k->b[1] = (uint8_t)n;
		return 2 + n;
	}
	k->b[0] |= (uint8_t)n;
	return 1 + n;
}

static int same_bytes(const uint8_t *a, const uint8_t *b, size_t n)
{
	return !memcmp(a, b, n);
}

/* The packer gives the bytes FORMAT.md derives by hand. */
static void test_packer(void)
{
	static const uint8_t ex_diff[] = { 0x64, 0xac, 0x14, 0x00, 0x08 };
	static const uint8_t ex_sync[] = { 0xe5, 0x0c, 0x00, 0x00, 0x00, 0x10 };
	static const uint8_t ex_support[] = { 0x02, 0x0d, 0x19 };
	static const uint8_t ex_long[] = { 0xa0, 0x10, 0x10 };
	struct pack k;
	size_t n;
	int good = 0;
	pack_init(&k, 0);
	pack_put(&k, 1, 2), pack_put(&k, 12, 5), pack_put(&k, 0xa5, 17), pack_put(&k, 0x20, 10);
	n = pack_end(&k, 2, -1);
	good += n == 5 && same_bytes(k.b, ex_diff, 5);
	pack_init(&k, 0);
	pack_put(&k, 3, 2), pack_put(&k, 0, 2), pack_put(&k, 3, 2), pack_put(&k, 0, 1), pack_put(&k, 0x80000000u, 32);
	n = pack_end(&k, 2, -1);
	good += n == 6 && same_bytes(k.b, ex_sync, 6);
	pack_init(&k, 0);
	pack_put(&k, 0x34, 6), pack_put(&k, 0, 4), pack_put(&k, 1, 1), pack_put(&k, 0, 2), pack_put(&k, 3, 2);
	n = pack_end(&k, 0, -1);
	good += n == 3 && same_bytes(k.b, ex_support, 3);
	/* the long form of test_long_form: a0 10, then byte 2 = address bits 7:0 */
	pack_init(&k, 1);
	pack_put(&k, 2, 2), pack_put(&k, 0x10, 32);
	n = pack_end(&k, 2, 16);
	good += n == 18 && same_bytes(k.b, ex_long, 3) && k.b[3] == 0 && k.b[17] == 0;
	ok(good == 4, "the test's packer gives FORMAT.md's hand-derived bytes (%d/4)", good);
}

/* ---- FORMAT.md's worked examples -------------------------------------------- */

static void test_worked_examples(void)
{
	struct tc_rvtrace_config cfg = config();
	/* a1: N = 1, type 2 (0x20), bits 7:6 = 10: p0 = 0, p1 = 1, format 2; 10: address bits 7:0 = 0x10, the
	 * frame's last bit (bit 7) 0 extends it to 32 bits */
	static const uint8_t addr_pos[] = { 0xa1, 0x10 };
	/* f0: address bits 7:0 = 0xf0, bit 7 = 1 extended: 0xfffffff0 = −0x10 */
	static const uint8_t addr_neg[] = { 0xa1, 0xf0 };
	/* e5: N = 5, type 2, format 3; 0c: p2 p3 = 0 0 subformat 0, p4 p5 = 1 1 privilege 3, p6 = 0 branch,
	 * p7.. address; 10: p38 = bit 4 of byte 5: address bit 31; p39..p41 padding 0 */
	static const uint8_t sync[] = { 0xe5, 0x0c, 0x00, 0x00, 0x00, 0x10 };
	/* 21: N = 1, format 0; 00: branches (p2..p6) 0, the map p7..p9 = 0, extended to 31 bits: no address */
	static const uint8_t full_map[] = { 0x21, 0x00 };
	/* 64: N = 4, format 1 (p0 = 1); ac: p2..p6 = 0 0 1 1 0 branches 12; the 17-bit map p7..p23 = 1 0 1, 14:
	 * 0 0 1 0 1 0 0 0, 00: 0 0 → 0xa5; the address p24..p33: 08 bit 3 = p29, address bit 5 → 0x20, p33 = 0 */
	static const uint8_t diff[] = { 0x64, 0xac, 0x14, 0x00, 0x08 };
	/* 02: N = 2, type 0; 0d 19: control_code 0x34 (p0..p5 = 0 0 1 0 1 1), support_type 0 (p6..p9),
	 * enable p10 = 1, encoder_mode p11 p12 = 0, qual_status p13 p14 = 1 1: 3 (ended_ntr) */
	static const uint8_t support[] = { 0x02, 0x0d, 0x19 };
	cfg.nocontext_p = 1;
	expect_l1("FORMAT.md: a1 10 is addr-only diff=0x10", &cfg, addr_pos, sizeof addr_pos,
		  "@0 a1 addr-only diff=0x10\n");
	expect_l1("FORMAT.md: a1 f0 is addr-only diff=-0x10 (sign extension from the frame's last bit)", &cfg,
		  addr_neg, sizeof addr_neg, "@0 a1 addr-only diff=-0x10\n");
	expect_l1("FORMAT.md: e5 0c 00 00 00 10 is sync-start priv=3 branch=0 addr=0x80000000 (nocontext_p=1)", &cfg,
		  sync, sizeof sync, "@0 e5 sync-start priv=3 branch=0 addr=0x80000000\n");
	expect_l1("FORMAT.md: 21 00 is full-delta branches=0 map=0x0 (31 taken, no address: RV-P3)", &cfg, full_map,
		  sizeof full_map, "@0 21 full-delta branches=0 map=0x0\n");
	expect_l1("FORMAT.md, L368: 64 ac 14 00 08 is diff-delta branches=12 map=0xa5 diff=0x20 (17-bit map, 12 valid)",
		  &cfg, diff, sizeof diff, "@0 64 diff-delta branches=12 map=0xa5 diff=0x20\n");
	expect_l1("FORMAT.md: 02 0d 19 is support enable=1 mode=0 qual=3 (Table 6.4)", &cfg, support, sizeof support,
		  "@0 02 support enable=1 mode=0 qual=3\n");
}

/* ---- Branch-map lengths (Table 6.1, L368) ------------------------------------ */

/* The length the text gives for each value of branches (L368), written from the text. */
static unsigned spec_map_length(unsigned b)
{
	static const unsigned len[32] = { 31, 1, 9, 9, 9, 9, 9, 9, 9, 9, 17, 17, 17, 17, 17, 17, 17, 17,
					  25, 25, 25, 25, 25, 25, 25, 25, 31, 31, 31, 31, 31, 31 };
	return len[b];
}

/* Format 0 with branches b: a map of the text's length whose valid bits alternate 1 0 1 0… from bit 0
 * (bit 0 the oldest, not taken), the invalid bits 0, then the 32-bit address 0x80001234 whole (its top
 * bit 1, so the frame holds it to the last bit and the padding is 0); then the support frame 02 0d 19.
 * A wrong map length would move the address and the frame boundary. With b = 0: the 31-bit map
 * 0x55555555 and no address (RV-P3). */
static void test_map_lengths(void)
{
	static const unsigned cases[] = { 0, 1, 2, 9, 10, 17, 18, 25, 26, 31 };
	struct tc_rvtrace_config cfg = config();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned b = cases[i], valid = b ? b : 31, len = spec_map_length(b);
		uint32_t map = (uint32_t)(UINT64_C(0x55555555) & ((UINT64_C(1) << valid) - 1));
		struct pack k;
		uint8_t bytes[64];
		size_t n;
		char expected[256];
		pack_init(&k, 0);
		pack_put(&k, 0, 2);
		pack_put(&k, b, 5);
		pack_put(&k, map, len);
		if (b)
			pack_put(&k, 0x80001234u, 32);
		n = pack_end(&k, 2, -1);
		memcpy(bytes, k.b, n);
		memcpy(bytes + n, "\x02\x0d\x19", 3);
		if (b)
			snprintf(expected, sizeof expected,
				 "@0 %02x full-delta branches=%u map=0x%lx addr=0x80001234\n@%zu 02 support enable=1 mode=0 qual=3\n",
				 k.b[0], b, (unsigned long)map, n);
		else
			snprintf(expected, sizeof expected,
				 "@0 %02x full-delta branches=0 map=0x55555555\n@%zu 02 support enable=1 mode=0 qual=3\n", k.b[0], n);
		{
			char what[100];
			snprintf(what, sizeof what, "L368: branches=%u has a %u-bit map (%u valid), the frame %zu bytes", b, len,
				 valid, n);
			expect_l1(what, &cfg, bytes, n + 3, expected);
		}
	}
}

/* ---- Every compressed address length (RV-F5) ------------------------------------ */

/* An address field cut by the frame's end after `have` of its A bits, the rest copies of the frame's last
 * bit. The frame is byte aligned, so `have` = 8N + 2 − (the address's first payload bit): format 2 starts
 * at bit 2 (have 8, 16, …), format 1 with branches = 1 at bit 8 (2, 10, 18, …), format 0 with branches
 * = 26 at bit 38 (4, 12, 20, …); these are every length a frame can hold. `value` is the number (of A
 * bits) the address must read as; its bits from `have` up are all equal (its sign), so the `have` bits
 * put are what a writer keeps (T7). */
struct cut {
	int format;        /* 0, 1 or 2 */
	unsigned branches; /* formats 0, 1 */
	unsigned have;     /* address bits in the frame */
	uint64_t value;    /* the A-bit field */
	const char *shown; /* the L1 fields after the kind, by hand */
};

static void expect_cut(const struct tc_rvtrace_config *cfg, const struct cut *c)
{
	struct pack k;
	size_t n;
	char expected[200], what[160];
	pack_init(&k, 0);
	pack_put(&k, (uint64_t)c->format, 2);
	if (c->format < 2) {
		pack_put(&k, c->branches, 5);
		pack_put(&k, 0, spec_map_length(c->branches));
	}
	pack_put(&k, c->value, c->have);
	n = pack_end(&k, 2, -1);
	snprintf(expected, sizeof expected, "@0 %02x %s %s\n", k.b[0],
		 c->format == 0 ? "full-delta" : c->format == 1 ? "diff-delta" : "addr-only", c->shown);
	snprintf(what, sizeof what, "RV-F5: an address with %u of its %d bits in the frame (N = %zu, rv32=%d): %s",
		 c->have, cfg->iaddress_width_p - cfg->iaddress_lsb_p, n - 1, cfg->rv32, c->shown);
	expect_l1(what, cfg, k.b, n, expected);
}

static void test_address_lengths(void)
{
	struct tc_rvtrace_config rv32 = config(), rv64 = config();
	/* RV32 (A = 32): each length, positive (sign 0) and negative (sign 1, the top bits copies of it). */
	static const struct cut cuts32[] = {
		{ 2, 0, 8, 0x7f, "diff=0x7f" },                       /* 0111 1111: bit 7 = 0 */
		{ 2, 0, 8, 0xffffff80u, "diff=-0x80" },               /* 1000 0000: bit 7 = 1 */
		{ 2, 0, 16, 0x1234, "diff=0x1234" },
		{ 2, 0, 16, 0xffff8000u, "diff=-0x8000" },
		{ 2, 0, 24, 0x7fffff, "diff=0x7fffff" },
		{ 2, 0, 24, 0xffedcbaau, "diff=-0x123456" },         /* 2^32 − 0x123456; its 24 bits 0xedcbaa, bit 23 = 1 */
		{ 2, 0, 32, 0x7fffffff, "diff=0x7fffffff" },          /* whole, N = 4 */
		{ 2, 0, 32, 0x80000000u, "diff=-0x80000000" },
		{ 1, 1, 2, 0x1, "branches=1 map=0x0 diff=0x1" },      /* p8 p9 = 1 0 */
		{ 1, 1, 2, 0xfffffffeu, "branches=1 map=0x0 diff=-0x2" }, /* p8 p9 = 0 1 */
		{ 1, 1, 10, 0x155, "branches=1 map=0x0 diff=0x155" },
		{ 1, 1, 18, 0xfffe0000u, "branches=1 map=0x0 diff=-0x20000" },
		{ 1, 1, 26, 0x1000000, "branches=1 map=0x0 diff=0x1000000" },
		{ 0, 1, 2, 0xffffffffu, "branches=1 map=0x0 addr=0xffffffff" }, /* full: 1 1 extended */
		{ 0, 26, 4, 0x7, "branches=26 map=0x0 addr=0x7" },     /* p38..p41 = 1 1 1 0 */
		{ 0, 26, 12, 0xfffff800u, "branches=26 map=0x0 addr=0xfffff800" },
		{ 0, 26, 20, 0x12345, "branches=26 map=0x0 addr=0x12345" },
		{ 0, 26, 28, 0x4000000, "branches=26 map=0x0 addr=0x4000000" }, /* bit 27, the frame's last, 0 */
	};
	/* RV64 (A = 64): format 2 with 8 … 64 bits. */
	static const struct cut cuts64[] = {
		{ 2, 0, 8, 0xfffffffffffffff0u, "diff=-0x10" },
		{ 2, 0, 32, 0x7fffffff, "diff=0x7fffffff" },
		{ 2, 0, 40, 0xffffff8000000000u, "diff=-0x8000000000" },
		{ 2, 0, 56, 0x0012345678abcdefu, "diff=0x12345678abcdef" },
		{ 2, 0, 64, 0x8000000000000000u, "diff=-0x8000000000000000" },   /* whole, N = 8 */
		{ 2, 0, 64, 0x7fffffffffffffffu, "diff=0x7fffffffffffffff" },
	};
	rv64.rv32 = 0;
	rv64.iaddress_width_p = 64;
	for (size_t i = 0; i < sizeof cuts32 / sizeof cuts32[0]; i++)
		expect_cut(&rv32, &cuts32[i]);
	for (size_t i = 0; i < sizeof cuts64 / sizeof cuts64[0]; i++)
		expect_cut(&rv64, &cuts64[i]);
}

/* The full map (branches = 0) cut by the frame's end (RV-F5, T8): it starts at payload bit 7, so a frame
 * holds 3, 11, 19 or 27 of its 31 bits (N = 1 … 4); the rest are copies of the frame's last bit. */
static void test_full_map_lengths(void)
{
	static const struct { int format; unsigned have; uint32_t map; } cases[] = {
		{ 0, 11, 0x7ffffc05u },   /* kept 100 0000 0101, bit 10 = 1: bits 30:11 all 1 */
		{ 1, 19, 0x12345u },      /* kept 0x12345, bit 18 = 0 */
		{ 0, 27, 0x7c000001u },   /* kept 0x4000001, bit 26 = 1: bits 30:27 all 1 */
	};
	struct tc_rvtrace_config cfg = config();
	/* 21 e0: format 0, branches p2..p6 = 0, the map p7 p8 p9 = 1 1 1: all 31 bits 1 */
	expect_l1("RV-F5: 21 e0, a full map of 3 bits in the frame, is map=0x7fffffff", &cfg, (const uint8_t *)"\x21\xe0",
		  2, "@0 21 full-delta branches=0 map=0x7fffffff\n");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pack k;
		size_t n;
		char expected[100], what[100];
		pack_init(&k, 0);
		pack_put(&k, (uint64_t)cases[i].format, 2), pack_put(&k, 0, 5), pack_put(&k, cases[i].map, cases[i].have);
		n = pack_end(&k, 2, -1);
		snprintf(expected, sizeof expected, "@0 %02x %s branches=0 map=0x%lx\n", k.b[0],
			 cases[i].format ? "diff-delta" : "full-delta", (unsigned long)cases[i].map);
		snprintf(what, sizeof what, "RV-F5: a full map with %u of its 31 bits in the frame (N = %zu)", cases[i].have,
			 n - 1);
		expect_l1(what, &cfg, k.b, n, expected);
	}
}

/* ---- The long form (RV-F4) --------------------------------------------------- */

static void test_long_form(void)
{
	struct tc_rvtrace_config cfg = config(), rv64 = config(), trdb = config();
	uint8_t b[300];
	struct pack k;
	size_t n;
	/* a0: N = 0, type 2, format 2 (bits 7:6 = 10): the long form; 10: M = 16 bytes after byte 1; byte 2 =
	 * address bits 7:0 = 0x10 (payload bit p ≥ 2 is bit (p − 2) mod 8 of byte 2 + ⌊(p − 2)/8⌋), bytes 3..17
	 * 0: the rest of the address and 96 bits of padding 0; then 02 0d 19 at offset 18 */
	memset(b, 0, sizeof b);
	b[0] = 0xa0, b[1] = 0x10, b[2] = 0x10;
	memcpy(b + 18, "\x02\x0d\x19", 3);
	expect_l1("RV-F4: a0 10 10 00…: a long form of M = 16 (the least), addr-only diff=0x10; the next frame at 18",
		  &cfg, b, 21, "@0 a0 addr-only diff=0x10\n@18 02 support enable=1 mode=0 qual=3\n");
	/* M = 255 (the most): a frame of 257 bytes; bytes 2..5 f0 ff ff ff: the address 0xfffffff0 whole; the
	 * padding bytes 6..256 all ff, copies of its last bit (bit 31 = 1): no warning */
	memset(b, 0xff, sizeof b);
	b[0] = 0xa0, b[1] = 0xff, b[2] = 0xf0;
	memcpy(b + 257, "\x02\x0d\x19", 3);
	expect_l1("RV-F4: a long form of M = 255, 257 bytes, sign-copy padding silent (RV-F6)", &cfg, b, 260,
		  "@0 a0 addr-only diff=-0x10\n@257 02 support enable=1 mode=0 qual=3\n");
	/* RV-F4's own case: an RV64 sync exception with tval, 2-bit privilege, 5-bit cause, no context:
	 * 2+2+2+1+64+5+1+64 = 141 bits, more than N = 15 holds (122): M = ⌈139/8⌉ = 18, byte 0 = 0xe0 (type 2,
	 * format 3, N = 0) */
	rv64.rv32 = 0, rv64.iaddress_width_p = 64, rv64.nocontext_p = 1;
	pack_init(&k, 1);
	pack_put(&k, 3, 2), pack_put(&k, 1, 2), pack_put(&k, 1, 2), pack_put(&k, 1, 1);
	pack_put(&k, UINT64_C(0x8000000000001000), 64), pack_put(&k, 2, 5), pack_put(&k, 0, 1);
	pack_put(&k, UINT64_C(0xdeadbeefcafef00d), 64);
	n = pack_end(&k, 2, -1);
	ok(n == 20 && k.b[0] == 0xe0 && k.b[1] == 18, "RV-F4: the 141-bit RV64 sync exception is a long form of M = 18");
	expect_l1("RV-F4: that long form decodes (tval 64 bits, L389)", &rv64, k.b, n,
		  "@0 e0 sync-exception priv=1 branch=1 addr=0x8000000000001000 ecause=0x2 interrupt=0 tval=0xdeadbeefcafef00d\n");
	/* long_frames=0 (trdb's framing): a0 is a frame of 2 payload bits, format 2 with no address bit */
	trdb.long_frames = 0;
	expect_l1("long_frames=0: a0 is short-frame (format 2, no address bit), 02 0d 19 follows at 1", &trdb,
		  (const uint8_t *)"\xa0\x02\x0d\x19", 4, "@0 a0 error class=short-frame\n@1 02 support enable=1 mode=0 qual=3\n");
	expect_l1("long_frames=0: 20 is short-frame (format 0, no branches field)", &trdb,
		  (const uint8_t *)"\x20", 1, "@0 20 error class=short-frame\n");
}

/* ---- Error classes (FORMAT.md), each followed by the next frame (RV-F7, RV-P8) ----- */

static void test_errors(void)
{
	struct tc_rvtrace_config cfg = config(), noctx = config(), full = config();
	uint8_t b[40];
	noctx.nocontext_p = 1;
	full.full_address = 1;
	/* truncated: the stream ends inside a frame */
	expect_l1("truncated: e5 0c 00 after a whole frame: the sync needs 5 bytes after byte 0", &cfg,
		  (const uint8_t *)"\x02\x0d\x19\xe5\x0c\x00", 6,
		  "@0 02 support enable=1 mode=0 qual=3\n@3 e5 error class=truncated\n");
	expect_l1("truncated: a1 alone (N = 1, no byte 1)", &cfg, (const uint8_t *)"\xa1", 1,
		  "@0 a1 error class=truncated\n");
	expect_l1("truncated: a0 alone, a long form without its byte 1", &cfg, (const uint8_t *)"\xa0", 1,
		  "@0 a0 error class=truncated\n");
	expect_l1("truncated: a0 10 10, a long form of M = 16 with 1 byte of 16", &cfg, (const uint8_t *)"\xa0\x10\x10", 3,
		  "@0 a0 error class=truncated\n");
	/* short-frame: 21 02: format 0, branches = 2 (p2..p6 = 0 1 0 0 0): a 9-bit map (L368) needs p7..p15,
	 * the frame holds p7..p9 */
	expect_l1("short-frame: 21 02, a 9-bit map in 3 bits", &cfg, (const uint8_t *)"\x21\x02\x02\x0d\x19", 5,
		  "@0 21 error class=short-frame\n@2 02 support enable=1 mode=0 qual=3\n");
	/* e1 00: format 3, subformat 0, with a 32-bit context (nocontext_p = 0) in the 6 bits p4..p9 */
	expect_l1("short-frame: e1 00, a sync's 32-bit context cut (sync fields are whole: RV-F5)", &cfg,
		  (const uint8_t *)"\xe1\x00", 2, "@0 e1 error class=short-frame\n");
	/* e5 01 00 00 00 00 (nocontext_p = 1): subformat 1 (p2 p3 = 1 0), privilege p4 p5, branch p6, the
	 * address p7..p38; the 5-bit ecause needs p39..p43, the frame ends at p41 */
	expect_l1("short-frame: a sync exception's ecause cut", &noctx, (const uint8_t *)"\xe5\x01\x00\x00\x00\x00", 6,
		  "@0 e5 error class=short-frame\n");
	/* 00: type 0, N = 0: control_code (6 bits) in 2 */
	expect_l1("short-frame: 00, te_support's control_code cut", &cfg, (const uint8_t *)"\x00\x02\x0d\x19", 4,
		  "@0 00 error class=short-frame\n@1 02 support enable=1 mode=0 qual=3\n");
	/* 01 0d: control_code 0x34 and support_type 0 fill the 10 bits: enable cut */
	expect_l1("short-frame: 01 0d, te_support's enable cut", &cfg, (const uint8_t *)"\x01\x0d", 2,
		  "@0 01 error class=short-frame\n");
	/* bad-length: a long form with M below 16; its M bytes are skipped (RV-F7) */
	memset(b, 0, sizeof b);
	b[0] = 0xa0, b[1] = 0x0f;
	memcpy(b + 17, "\x02\x0d\x19", 3);
	expect_l1("bad-length: a0 0f and 15 bytes, the next frame at 17", &cfg, b, 20,
		  "@0 a0 error class=bad-length\n@17 02 support enable=1 mode=0 qual=3\n");
	expect_l1("bad-length: a0 00 (M = 0), the next frame at 2", &cfg, (const uint8_t *)"\xa0\x00\x02\x0d\x19", 5,
		  "@0 a0 error class=bad-length\n@2 02 support enable=1 mode=0 qual=3\n");
	/* reserved-subformat: e1 03: format 3, subformat p2 p3 = 1 1 (L382 "11 : reserved") */
	expect_l1("reserved-subformat: e1 03 (L382)", &cfg, (const uint8_t *)"\xe1\x03\x02\x0d\x19", 5,
		  "@0 e1 error class=reserved-subformat\n@2 02 support enable=1 mode=0 qual=3\n");
	/* reserved-qual: 02 0d 11: as 02 0d 19 with qual_status p13 p14 = 0 1: 2 (L399 "10: Reserved") */
	expect_l1("reserved-qual: 02 0d 11 (L399)", &cfg, (const uint8_t *)"\x02\x0d\x11\x02\x0d\x19", 6,
		  "@0 02 error class=reserved-qual\n@3 02 support enable=1 mode=0 qual=3\n");
	/* bad-mode: 61 00: N = 1, type 2, format 1 (bit 6 = p0 = 1) with full_address=1 (L376, RV-P4) */
	expect_l1("bad-mode: 61 00, format 1 with full_address=1", &full, (const uint8_t *)"\x61\x00\x02\x0d\x19", 5,
		  "@0 61 error class=bad-mode\n@2 02 support enable=1 mode=0 qual=3\n");
	/* the same format 1 frame without full_address: branches 0, a full map (no address) */
	expect_l1("61 00 with full_address=0: diff-delta branches=0 map=0x0 (RV-P3)", &cfg, (const uint8_t *)"\x61\x00",
		  2, "@0 61 diff-delta branches=0 map=0x0\n");
	/* full_address=1: format 2's address is full, sign-extended as a difference is (RV-F5) */
	expect_l1("full_address=1: a1 f0 is addr-only addr=0xfffffff0 (L376)", &full, (const uint8_t *)"\xa1\xf0", 2,
		  "@0 a1 addr-only addr=0xfffffff0\n");
}

/* ---- Warnings (RV-R1) ------------------------------------------------------ */

static void test_warnings(void)
{
	struct tc_rvtrace_config cfg = config(), noctx = config();
	struct pack k;
	size_t n;
	noctx.nocontext_p = 1;
	/* map: format 0, branches 2, the 9-bit map 1 0000 0101: valid bits 01 (map=0x1), the bits above them
	 * 100 0001 (0x41, bit 0 = map bit 2); the address 0x80000000 whole; 2 bits of padding 0 */
	pack_init(&k, 0);
	pack_put(&k, 0, 2), pack_put(&k, 2, 5), pack_put(&k, 0x105, 9), pack_put(&k, 0x80000000u, 32);
	n = pack_end(&k, 2, -1);
	expect_l1("map warning: branches=2 with map bits above the valid 2 set (L368)", &cfg, k.b, n,
		  "@0 26 full-delta branches=2 map=0x1 addr=0x80000000\n@0 26 warning class=res0 field=map bits=0x41\n");
	/* both warnings: the same with padding p48 p49 = 1 0, neither 0 0 nor copies of the address's bit 31 */
	pack_put(&k, 1, 2);
	n = pack_end(&k, 2, 6);
	expect_l1("map and pad warnings, in payload order", &cfg, k.b, n,
		  "@0 26 full-delta branches=2 map=0x1 addr=0x80000000\n@0 26 warning class=res0 field=map bits=0x41\n"
		  "@0 26 warning class=res0 field=pad bits=0x1\n");
	/* pad: 02 0d b9: as 02 0d 19 with padding p15 p16 p17 = byte 2 bits 5, 6, 7 = 1 0 1 (qual's last bit 1) */
	expect_l1("pad warning: te_support padding 1 0 1", &cfg, (const uint8_t *)"\x02\x0d\xb9", 3,
		  "@0 02 support enable=1 mode=0 qual=3\n@0 02 warning class=res0 field=pad bits=0x5\n");
	expect_l1("pad: 02 0d f9, padding 1 1 1 (copies of qual's last bit) is silent", &cfg,
		  (const uint8_t *)"\x02\x0d\xf9", 3, "@0 02 support enable=1 mode=0 qual=3\n");
	/* e5 0c 00 00 00 50: byte 5 bit 4 = p38 (address bit 31 = 1), padding p39 p40 p41 = 0 1 0 */
	expect_l1("pad warning: a sync's padding 0 1 0", &noctx, (const uint8_t *)"\xe5\x0c\x00\x00\x00\x50", 6,
		  "@0 e5 sync-start priv=3 branch=0 addr=0x80000000\n@0 e5 warning class=res0 field=pad bits=0x2\n");
	expect_l1("pad: a sync's padding 1 1 1 (copies of address bit 31) is silent", &noctx,
		  (const uint8_t *)"\xe5\x0c\x00\x00\x00\xf0", 6, "@0 e5 sync-start priv=3 branch=0 addr=0x80000000\n");
	/* a5 10 00 00 00 ff: format 2, N = 5: the 32-bit address p2..p33 whole (0x10, bit 31 = 0), byte 5 =
	 * p34..p41 a whole byte of padding, all 1 */
	expect_l1("pad warning: a whole padding byte ff after a positive address", &cfg,
		  (const uint8_t *)"\xa5\x10\x00\x00\x00\xff", 6,
		  "@0 a5 addr-only diff=0x10\n@0 a5 warning class=res0 field=pad bits=0xff\n");
	expect_l1("pad: the same byte 00 is silent", &cfg, (const uint8_t *)"\xa5\x10\x00\x00\x00\x00", 6,
		  "@0 a5 addr-only diff=0x10\n");
}

/* ---- Other messages: type 0 not te_support, trdb's timer and software (RV-F3, RV-X3) ---- */

static void test_messages(void)
{
	struct tc_rvtrace_config cfg = config(), rv64 = config();
	rv64.rv32 = 0, rv64.iaddress_width_p = 64;
	/* 41 35: type 0, p0 p1 = 1 0; 35: p2..p9 = 1 0 1 0 1 1 0 0: control_code p0..p5 = 0x15, support_type
	 * p6..p9 = 3 */
	expect_l1("RV-F3: 41 35 is message control=0x15 type=3", &cfg, (const uint8_t *)"\x41\x35", 2,
		  "@0 41 message control=0x15 type=3\n");
	/* 01 1d: control_code 0x34 (p2..p5 = 1 0 1 1), support_type 1 (p6 = 1) */
	expect_l1("RV-F3: 01 1d is message control=0x34 type=1 (support_type not 0)", &cfg, (const uint8_t *)"\x01\x1d", 2,
		  "@0 01 message control=0x34 type=1\n");
	/* 95: N = 5, type 1, p0 p1 = 0 1; the 40-bit value 0x123456789a: bits 1:0 = 10, bits 39:2 =
	 * 0x48d159e26 in bytes 26 9e 15 8d 04 (byte 5 bits 5:0 = value bits 39:34 = 000100); p40 p41 padding 0 */
	expect_l1("RV-X3: 95 26 9e 15 8d 04 is timer time=0x123456789a (40 bits)", &cfg,
		  (const uint8_t *)"\x95\x26\x9e\x15\x8d\x04", 6, "@0 95 timer time=0x123456789a\n");
	expect_l1("RV-X3: 10 is timer time=0x0 (2 bits, extended)", &cfg, (const uint8_t *)"\x10", 1,
		  "@0 10 timer time=0x0\n");
	expect_l1("RV-X3: d0 is timer time=0xffffffffff (p1 = 1 extended to 40 bits)", &cfg, (const uint8_t *)"\xd0", 1,
		  "@0 d0 timer time=0xffffffffff\n");
	/* 34: N = 4, type 3, p0 p1 = 0 0; bytes 9e 15 8d 04 = 0x12345678 >> 2 */
	expect_l1("RV-X3: 34 9e 15 8d 04 is software value=0x12345678 (XLEN 32)", &cfg,
		  (const uint8_t *)"\x34\x9e\x15\x8d\x04", 5, "@0 34 software value=0x12345678\n");
	expect_l1("RV-X3: f0 with rv32=0 is software value=0xffffffffffffffff (64 bits)", &rv64,
		  (const uint8_t *)"\xf0", 1, "@0 f0 software value=0xffffffffffffffff\n");
}

/* ---- Sync packets and the width keys (Table 6.3, Table 3.7) ------------------- */

static void test_sync_widths(void)
{
	struct tc_rvtrace_config cfg = config(), lsb1 = config(), lsb2 = config(), wide = config(), w40 = config();
	struct pack k;
	size_t n;
	/* sync-context, the default widths: 2+2+32 (context)+2 (privilege) = 38 bits, N = 5 */
	pack_init(&k, 0);
	pack_put(&k, 3, 2), pack_put(&k, 2, 2), pack_put(&k, 0x5a, 32), pack_put(&k, 3, 2);
	n = pack_end(&k, 2, -1);
	expect_l1("sync-context: ctx and priv only (L382)", &cfg, k.b, n, "@0 e5 sync-context ctx=0x5a priv=3\n");
	/* sync-exception, context_width_p 8: 2+2+8+2+1+32+5+1+32 = 85 bits, N = 11 */
	cfg.context_width_p = 8;
	pack_init(&k, 0);
	pack_put(&k, 3, 2), pack_put(&k, 1, 2), pack_put(&k, 0x5a, 8), pack_put(&k, 1, 2), pack_put(&k, 0, 1);
	pack_put(&k, 0x80000100u, 32), pack_put(&k, 0x1f, 5), pack_put(&k, 1, 1), pack_put(&k, 0xdeadbeefu, 32);
	n = pack_end(&k, 2, -1);
	expect_l1("sync-exception: every field (context_width_p=8)", &cfg, k.b, n,
		  "@0 eb sync-exception ctx=0x5a priv=1 branch=0 addr=0x80000100 ecause=0x1f interrupt=1 tval=0xdeadbeef\n");
	/* notval_p = 1: the same bytes cut to N = 7 (58 bits): the packet ends at p52 (interrupt, 1); p53..p57,
	 * the first 5 bits of the tval that was put (0xef: 1 1 1 1 0), are padding, neither 0 nor copies of 1 */
	cfg.notval_p = 1;
	n = pack_end(&k, 2, 7);
	k.b[0] = 0xe7;
	expect_l1("notval_p=1: sync-exception without tval (L389); the tval bits left are padding", &cfg, k.b, 8,
		  "@0 e7 sync-exception ctx=0x5a priv=1 branch=0 addr=0x80000100 ecause=0x1f interrupt=1\n"
		  "@0 e7 warning class=res0 field=pad bits=0xf\n");
	/* privilege_width_p 4, ecause_width_p 16, nocontext_p 1: 2+2+4+1+32+16+1+32 = 90 bits, N = 11 */
	wide.privilege_width_p = 4, wide.ecause_width_p = 16, wide.nocontext_p = 1;
	pack_init(&k, 0);
	pack_put(&k, 3, 2), pack_put(&k, 1, 2), pack_put(&k, 0xf, 4), pack_put(&k, 1, 1), pack_put(&k, 0x1000, 32);
	pack_put(&k, 0xffff, 16), pack_put(&k, 0, 1), pack_put(&k, 0x0, 32);
	n = pack_end(&k, 2, -1);
	expect_l1("privilege_width_p=4, ecause_width_p=16, nocontext_p=1", &wide, k.b, n,
		  "@0 eb sync-exception priv=15 branch=1 addr=0x1000 ecause=0xffff interrupt=0 tval=0x0\n");
	/* iaddress_lsb_p = 1 (A = 31): a1 f8: the field 0xf8 = −8 in 8 bits, times 2: −0x10 (L386, RV-P5) */
	lsb1.iaddress_lsb_p = 1, lsb1.nocontext_p = 1;
	expect_l1("iaddress_lsb_p=1: a1 f8 is diff=-0x10", &lsb1, (const uint8_t *)"\xa1\xf8", 2,
		  "@0 a1 addr-only diff=-0x10\n");
	/* a sync's 31-bit address field 0x40000080 shifted left by 1: 0x80000100; 2+2+2+1+31 = 38 bits, N = 5 */
	pack_init(&k, 0);
	pack_put(&k, 3, 2), pack_put(&k, 0, 2), pack_put(&k, 3, 2), pack_put(&k, 0, 1), pack_put(&k, 0x40000080u, 31);
	n = pack_end(&k, 2, -1);
	expect_l1("iaddress_lsb_p=1: a sync's address field shifted left by 1 (L386)", &lsb1, k.b, n,
		  "@0 e5 sync-start priv=3 branch=0 addr=0x80000100\n");
	/* iaddress_lsb_p = 2: a1 04: the field 4 times 4 */
	lsb2.iaddress_lsb_p = 2;
	expect_l1("iaddress_lsb_p=2: a1 04 is diff=0x10", &lsb2, (const uint8_t *)"\xa1\x04", 2,
		  "@0 a1 addr-only diff=0x10\n");
	/* rv32=0, iaddress_width_p 40, full_address=1: a1 80: 8 bits 0x80, bit 7 = 1 extended to 40 bits */
	w40.rv32 = 0, w40.iaddress_width_p = 40, w40.full_address = 1;
	expect_l1("iaddress_width_p=40: a1 80 is addr-only addr=0xffffffff80", &w40, (const uint8_t *)"\xa1\x80", 2,
		  "@0 a1 addr-only addr=0xffffffff80\n");
}

/* ---- The text parser refuses what the writer never writes ---------------------- */

struct refusal {
	const char *line;
	const char *says;   /* in err: the column (counted by hand from 1) and what was expected */
};

static void test_text_refusals(void)
{
	static const struct refusal cases[] = {
		{ "@0 a1 addr-only diff=0x010", "column 22: expected a hexadecimal number (0x and lower-case digits) without leading zeros" },
		{ "@0 21 full-delta branches=2 map=0x4", "column 33: expected a hexadecimal number (0x and lower-case digits) at most 0x3" },
		{ "@0 21 full-delta branches=32 map=0x0", "column 27: expected a decimal number at most 31" },
		{ "@0 21 full-delta branches=0 map=0x80000000", "column 33: expected a hexadecimal number (0x and lower-case digits) at most 0x7fffffff" },
		{ "@0 21 full-delta branches=0 map=0x0 addr=0x10", "column 36: expected the end of the line, found ' addr=0x10'" },
		{ "@0 02 support enable=1 mode=0 qual=2", "column 36: expected a qual_status of 0, 1 or 3 (2 is reserved)" },
		{ "@0 a1 addr-only", "column 16: expected ' addr=' or ' diff=', found end of line" },
		{ "@0 a1 addr-only diff=-0x0", "column 22: expected a difference (-0x0 is written 0x0)" },
		{ "@0 a1 addr-only diff=0x8000000000000000", "column 22: expected a hexadecimal number (0x and lower-case digits) at most 0x7fffffffffffffff" },
		{ "@0 01 message control=0x34 type=0", "column 33: expected a support_type other than 0 with control=0x34" },
		{ "@0 a1 bogus", "column 7: expected a packet kind" },
		{ "@0 A1 addr-only diff=0x10", "column 4: expected two lower-case hexadecimal digits" },
		{ "@0 a1 addr-only diff=0x10 ", "column 26: expected the end of the line" },
		{ "@0 e5 sync-start priv=16 branch=0 addr=0x0", "column 23: expected a decimal number at most 15" },
		{ "@0 e5 sync-start priv=1 branch=2 addr=0x0", "column 32: expected a decimal number at most 1" },
		{ "@0 e5 sync-context priv=1 branch=0", "column 26: expected the end of the line, found ' branch=0'" },
		{ "@0 a1 error class=none", "column 19: expected an error class" },
		{ "@0 a1 warning class=res0 field=none bits=0x1", "column 32: expected a warning field" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tc_rvtrace_packet p;
		char err[200] = "";
		int rc = tc_rvtrace_parse_packet_text(cases[i].line, &p, err, sizeof err);
		if (rc == 0 || !strstr(err, cases[i].says))
			note("expected a refusal saying '%s', got %d '%s'", cases[i].says, rc, err);
		ok(rc != 0 && strstr(err, cases[i].says) != NULL, "text: '%s' is refused (%s)", cases[i].line,
		   cases[i].says);
	}
}

/* Lines no byte case above writes, read back and written the same. */
static void test_text_lines(void)
{
	static const char *const lines[] = {
		"@18446744073709551615 ff addr-only diff=-0x8000000000000000",
		"@5 e0 sync-exception ctx=0xffffffff priv=15 branch=1 addr=0xffffffffffffffff ecause=0xffff interrupt=1 tval=0x0",
		"@7 a1 error class=unconsumed-map",
		"@7 02 support enable=0 mode=3 qual=1",
		"@9 21 full-delta branches=31 map=0x7fffffff addr=0x0",
		"@9 61 diff-delta branches=1 map=0x1 diff=0x7fffffffffffffff",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct tc_rvtrace_packet p;
		char err[200] = "", again[256] = "";
		int rc = tc_rvtrace_parse_packet_text(lines[i], &p, err, sizeof err);
		tc_rvtrace_format_packet(again, sizeof again, &p);
		if (rc || strcmp(again, lines[i]))
			note("parse: %d '%s'; written again: '%s'", rc, err, again);
		ok(rc == 0 && !strcmp(again, lines[i]), "text: '%s' reads back and is written the same", lines[i]);
	}
}

/* ---- Configuration: defaults, ranges, refusals, discovery fields (CONFIG.md) ----- */

static int refused(void (*set)(struct tc_rvtrace_config *), const char *says)
{
	struct tc_rvtrace_config cfg = config();
	char err[200] = "";
	set(&cfg);
	if (tc_rvtrace_config_check(&cfg, err, sizeof err) == 0 || !strstr(err, says)) {
		note("expected a refusal saying '%s', got '%s'", says, err);
		return 0;
	}
	return tc_rvtrace_alloc(&cfg, NULL) == NULL;
}

static void width0(struct tc_rvtrace_config *c) { c->iaddress_width_p = 0; }
static void width1(struct tc_rvtrace_config *c) { c->iaddress_width_p = 1; }
static void width65(struct tc_rvtrace_config *c) { c->iaddress_width_p = 65; c->rv32 = 0; }
static void width33(struct tc_rvtrace_config *c) { c->iaddress_width_p = 33; }
static void lsb4(struct tc_rvtrace_config *c) { c->iaddress_lsb_p = 4; }
static void lsb2w2(struct tc_rvtrace_config *c) { c->iaddress_width_p = 2; c->iaddress_lsb_p = 2; }
static void ctx0(struct tc_rvtrace_config *c) { c->context_width_p = 0; }
static void ctx33(struct tc_rvtrace_config *c) { c->context_width_p = 33; }
static void priv0(struct tc_rvtrace_config *c) { c->privilege_width_p = 0; }
static void priv5(struct tc_rvtrace_config *c) { c->privilege_width_p = 5; }
static void ecause0(struct tc_rvtrace_config *c) { c->ecause_width_p = 0; }
static void ecause17(struct tc_rvtrace_config *c) { c->ecause_width_p = 17; }
static void timer0(struct tc_rvtrace_config *c) { c->timer_width = 0; }
static void timer65(struct tc_rvtrace_config *c) { c->timer_width = 65; }
static void nocontext2(struct tc_rvtrace_config *c) { c->nocontext_p = 2; }
static void rv32_2(struct tc_rvtrace_config *c) { c->rv32 = 2; }

static void test_config(void)
{
	static const struct { void (*set)(struct tc_rvtrace_config *); const char *says; } refusals[] = {
		{ width0, "iaddress_width_p=0 is below its minimum 2" },
		{ width1, "iaddress_width_p=1 is below its minimum 2" },
		{ width65, "iaddress_width_p=65 is out of range (0..64)" },
		{ width33, "iaddress_width_p=33 is above XLEN (32 with rv32=1)" },
		{ lsb4, "iaddress_lsb_p=4 is out of range (0..3)" },
		{ lsb2w2, "iaddress_lsb_p=2 is not below iaddress_width_p=2" },
		{ ctx0, "context_width_p=0 is below its minimum 1" },
		{ ctx33, "context_width_p=33 is out of range (0..32)" },
		{ priv0, "privilege_width_p=0 is below its minimum 1" },
		{ priv5, "privilege_width_p=5 is out of range (0..4)" },
		{ ecause0, "ecause_width_p=0 is below its minimum 1" },
		{ ecause17, "ecause_width_p=17 is out of range (0..16)" },
		{ timer0, "timer_width=0 is below its minimum 1" },
		{ timer65, "timer_width=65 is out of range (0..64)" },
		{ nocontext2, "nocontext_p=2 is out of range (0..1)" },
		{ rv32_2, "rv32=2 is out of range (0..1)" },
	};
	struct tc_rvtrace_config cfg = config(), back;
	uint32_t regs[tc_rvtrace_reg_count] = { 0 };
	uint64_t value[TC_RVTRACE_NKEYS] = { 0 };
	uint32_t derived = 0;
	char err[200] = "";
	int good;
	/* the defaults of CONFIG.md's table */
	good = cfg.iaddress_width_p == 32 && cfg.iaddress_lsb_p == 0 && cfg.context_width_p == 32 && cfg.nocontext_p == 0 &&
	       cfg.privilege_width_p == 2 && cfg.ecause_width_p == 5 && cfg.notval_p == 0 && cfg.rv32 == 1 &&
	       cfg.c_ext == 1 && cfg.full_address == 0 && cfg.diff_sign == 0 && cfg.long_frames == 1 &&
	       cfg.timer_width == 40 && cfg.walk_limit == 0 && tc_rvtrace_config_check(&cfg, err, sizeof err) == 0;
	ok(good, "CONFIG.md: the defaults, and they pass the check (%s)", err);
	ok(tc_rvtrace_nkeys == 14 && !strcmp(tc_rvtrace_keys[0].name, "iaddress_width_p") &&
	   !strcmp(tc_rvtrace_keys[13].name, "walk_limit") && tc_rvtrace_keys[13].max == 0xffffffffu &&
	   tc_rvtrace_keys[13].need == tc_key_optional && tc_rvtrace_keys[8].need == tc_key_required_l3,
	   "CONFIG.md: 14 keys in its order, walk_limit optional, c_ext needed with [expect.l3]");
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
		ok(refused(refusals[i].set, refusals[i].says), "config refused: %s", refusals[i].says);
	/* the limits that are allowed: RV64 with a 64-bit address, iaddress_lsb_p 3, every width at its top */
	cfg.rv32 = 0, cfg.iaddress_width_p = 64, cfg.iaddress_lsb_p = 3, cfg.context_width_p = 32;
	cfg.privilege_width_p = 4, cfg.ecause_width_p = 16, cfg.timer_width = 64;
	ok(tc_rvtrace_config_check(&cfg, err, sizeof err) == 0, "config: every key at its top is accepted (%s)", err);
	/* discovery fields: value + 1 for the widths (L253, L256, L263, L266), the value itself for the others */
	regs[tc_rvtrace_reg_iaddress_width] = 63, regs[tc_rvtrace_reg_iaddress_lsb] = 1;
	regs[tc_rvtrace_reg_context_width] = 7, regs[tc_rvtrace_reg_nocontext] = 1;
	regs[tc_rvtrace_reg_privilege_width] = 2, regs[tc_rvtrace_reg_ecause_width] = 4;
	regs[tc_rvtrace_reg_notval] = 1, regs[tc_rvtrace_reg_rv32] = 0;
	good = tc_rvtrace_config_derive(regs, 0xff, value, &derived, NULL, err, sizeof err) == 0 && derived == 0xff &&
	       value[0] == 64 && value[1] == 1 && value[2] == 8 && value[3] == 1 && value[4] == 3 && value[5] == 5 &&
	       value[6] == 1 && value[7] == 0;
	ok(good, "discovery: IADDRESS_WIDTH=63 → 64, IADDRESS_LSB=1 → 1, CONTEXT_WIDTH=7 → 8, PRIVILEGE_WIDTH=2 → 3, "
		 "ECAUSE_WIDTH=4 → 5, NOCONTEXT, NOTVAL, RV32 as they are (%s)", err);
	derived = 0;
	good = tc_rvtrace_config_derive(regs, 1u << tc_rvtrace_reg_context_width, value, &derived, NULL, err,
					sizeof err) == 0 && derived == 1u << 2;
	ok(good, "discovery: only the fields given derive keys");
	regs[tc_rvtrace_reg_iaddress_width] = 64;
	ok(tc_rvtrace_config_derive(regs, 1, value, &derived, NULL, err, sizeof err) == -1 &&
	   strstr(err, "IADDRESS_WIDTH=64 gives iaddress_width_p=65, above its maximum 64") != NULL,
	   "discovery refused: IADDRESS_WIDTH=64 (%s)", err);
	regs[tc_rvtrace_reg_nocontext] = 2;
	ok(tc_rvtrace_config_derive(regs, 1u << tc_rvtrace_reg_nocontext, value, &derived, NULL, err, sizeof err) == -1 &&
	   strstr(err, "NOCONTEXT=2 gives nocontext_p=2, above its maximum 1") != NULL,
	   "discovery refused: NOCONTEXT=2 (%s)", err);
	/* the fields of a configuration derive it back */
	cfg = config();
	cfg.context_width_p = 16, cfg.privilege_width_p = 3, cfg.notval_p = 1;
	tc_rvtrace_config_to_regs(&cfg, regs);
	back = config();
	tc_rvtrace_config_derive(regs, 0xff, value, &derived, NULL, err, sizeof err);
	for (int key = 0; key < 8; key++)
		tc_config_key_set(&tc_rvtrace_keys[key], &back, value[key]);
	ok(regs[tc_rvtrace_reg_context_width] == 15 && regs[tc_rvtrace_reg_privilege_width] == 2 &&
	   regs[tc_rvtrace_reg_iaddress_width] == 31 && !memcmp(&back, &cfg, sizeof cfg),
	   "discovery: config_to_regs gives CONTEXT_WIDTH=15, PRIVILEGE_WIDTH=2, IADDRESS_WIDTH=31, and derives back");
}

/* ---- The API's edges --------------------------------------------------------- */

static void test_api(void)
{
	struct tc_rvtrace_config cfg = config();
	struct tc_rvtrace_decoder *d;
	struct tc_rvtrace_packet rec[TC_RVTRACE_MAX_RECORDS];
	uint8_t byte = 0x02;
	int good = 0;
	good += tc_rvtrace_alloc(NULL, NULL) == NULL;
	d = tc_rvtrace_alloc(&cfg, NULL);   /* no sink: decodes into nothing */
	good += d != NULL;
	good += tc_rvtrace_feed(NULL, &byte, 1) == tc_rvtrace_invalid;
	good += tc_rvtrace_feed(d, NULL, 1) == tc_rvtrace_invalid;
	good += tc_rvtrace_feed(d, NULL, 0) == tc_rvtrace_ok;
	good += tc_rvtrace_feed(d, &byte, 1) == tc_rvtrace_ok;
	good += tc_rvtrace_finish(NULL) == tc_rvtrace_invalid;
	good += tc_rvtrace_finish(d) == tc_rvtrace_ok;
	good += tc_rvtrace_finish(d) == tc_rvtrace_finished;
	good += tc_rvtrace_feed(d, &byte, 1) == tc_rvtrace_finished;
	tc_rvtrace_free(d);
	tc_rvtrace_free(NULL);
	tc_rvtrace_config_default(NULL);
	/* frame sizes: 1 + N; a long form's byte 0 alone says nothing; 2 + M */
	good += tc_rvtrace_frame_size(&cfg, (const uint8_t *)"\xe5", 1) == 6;
	good += tc_rvtrace_frame_size(&cfg, (const uint8_t *)"\xa0", 1) == 0;
	good += tc_rvtrace_frame_size(&cfg, (const uint8_t *)"\xa0\x20", 2) == 34;
	good += tc_rvtrace_frame_size(&cfg, (const uint8_t *)"\x10", 1) == 1;   /* type 1: never a long form */
	good += tc_rvtrace_frame_size(&cfg, NULL, 0) == 0;
	/* a frame given short to parse_frame is truncated */
	good += tc_rvtrace_parse_frame(&cfg, (const uint8_t *)"\xe5\x0c", 2, 7, rec) == 1 &&
		rec[0].h.kind == tc_rvtrace_pkt_error && rec[0].error == tc_rvtrace_err_truncated && rec[0].h.offset == 7;
	ok(good == 16, "API: NULL arguments, feed after finish, finish twice, frame sizes, a short frame (%d/16)", good);
	ok(!strcmp(tc_rvtrace_pkt_kind_name(tc_rvtrace_pkt_count), "?") && !strcmp(tc_rvtrace_error_name(-1), "?") &&
	   !strcmp(tc_rvtrace_warning_name(tc_rvtrace_warn_res0), "res0") &&
	   !strcmp(tc_rvtrace_warning_field_name(tc_rvtrace_wf_pad), "pad") &&
	   !strcmp(tc_rvtrace_error_name(tc_rvtrace_err_no_base_address), "no-base-address"),
	   "names: kinds, classes and fields, '?' out of range");
}

/* The descriptor (rvtrace_protocol.c): found by name and id, its tables, and a
 * decoder through it giving FORMAT.md's examples at L1 only. */
struct desc_out {
	int n, errors, warnings;
	char text[4][80];
};

static void desc_item(void *ctx, int level, const struct tc_item *item)
{
	struct desc_out *o = ctx;
	const struct tc_protocol *p = tc_protocol_find("rvtrace");
	if (level != tc_level_l1 || o->n >= 4)
		return;
	p->format(o->text[o->n++], sizeof o->text[0], level, item);
	o->errors += p->item_error(level, item) != 0;
	o->warnings += p->item_is_warning(level, item);
}

static void test_descriptor(void)
{
	static const uint8_t trace[] = { 0xa1, 0xf0, 0x64, 0xac, 0x14, 0x00, 0x08, 0xe1, 0x03, 0xa3 };
	const struct tc_protocol *p = tc_protocol_find("rvtrace");
	struct tc_rvtrace_config cfg;
	struct desc_out o;
	struct tc_sink sink = { &o, tc_level_l1 | tc_level_l3, desc_item };
	struct tc_image image;
	void *d;
	ok(p != NULL && p == tc_protocol_by_id(tc_proto_rvtrace) && !strcmp(p->errata, "reference/rvtrace/ERRATA.md"),
	   "descriptor: rvtrace found by name and id, its errata named");
	if (!p)
		return;
	ok(p->config_size == sizeof cfg && p->nkeys == TC_RVTRACE_NKEYS && p->nregs == tc_rvtrace_reg_count &&
	   p->nerrors == tc_rvtrace_err_count && p->nwarnings == tc_rvtrace_warn_count &&
	   p->l1_size == sizeof(struct tc_rvtrace_packet) && p->l1_kinds == tc_rvtrace_pkt_count && p->trace_id_reg == -1,
	   "descriptor: sizes, tables and no trace ID register (RV-X4)");
	tc_config_default(p, &cfg);
	cfg.nocontext_p = 1;
	memset(&o, 0, sizeof o);
	memset(&image, 0, sizeof image);
	d = p->alloc(&cfg, &sink);
	ok(d != NULL && p->set_image(d, &image) == 0 && p->feed(d, trace, sizeof trace) == 0 && p->finish(d) == 0 &&
	   p->skipped(d) == 0 && p->finish(d) != 0,
	   "descriptor: alloc, set_image, feed, finish, skipped 0, a second finish refused");
	p->free(d);
	ok(o.n == 4 && !strcmp(o.text[0], "@0 a1 addr-only diff=-0x10") &&
	   !strcmp(o.text[1], "@2 64 diff-delta branches=12 map=0xa5 diff=0x20") &&
	   !strcmp(o.text[2], "@7 e1 error class=reserved-subformat") && !strcmp(o.text[3], "@9 a3 error class=truncated") &&
	   o.errors == 2 && o.warnings == 0,
	   "descriptor: FORMAT.md's examples, a reserved subformat and a cut frame through it (%d items: %s | %s)", o.n,
	   o.text[0], o.text[3]);
	cfg.context_width_p = 0;
	ok(p->alloc(&cfg, &sink) == NULL && p->config_check(&cfg, NULL, 0) != 0,
	   "descriptor: a configuration config_check refuses is refused by alloc");
}

/* The guards and short fields no vector reaches: frame sizes without a configuration (never a long
 * form, RV-F4 needs long_frames=1), the image and L3 sink refused after finish even with nothing fed,
 * a sync's subformat cut (RV-F5: sync fields are whole), a sync exception's interrupt bit cut. */
static void test_guards(void)
{
	struct tc_rvtrace_config cfg = config(), short_frames = config(), narrow = config();
	struct tc_rvtrace_decoder *d = tc_rvtrace_alloc(&cfg, NULL), *one = tc_rvtrace_alloc(&cfg, NULL);
	struct tc_rvtrace_packet rec[TC_RVTRACE_MAX_RECORDS];
	int good = 0;
	short_frames.long_frames = 0;
	narrow.nocontext_p = 1;
	narrow.ecause_width_p = 3;
	/* 20: te_inst (type 2), N = 0: with no configuration not a long form, so 1 byte */
	good += tc_rvtrace_frame_size(NULL, (const uint8_t *)"\x20", 1) == 1;
	good += tc_rvtrace_set_image(NULL, NULL) == tc_rvtrace_invalid;
	good += tc_rvtrace_set_l3_sink(NULL, NULL) == tc_rvtrace_invalid;
	good += d && tc_rvtrace_finish(d) == tc_rvtrace_ok;   /* finished, nothing fed */
	good += d && tc_rvtrace_set_image(d, NULL) == tc_rvtrace_invalid;
	good += d && tc_rvtrace_set_l3_sink(d, NULL) == tc_rvtrace_invalid;
	tc_rvtrace_free(d);
	/* a feed of one byte fixes the image as a longer one does */
	good += one && tc_rvtrace_feed(one, (const uint8_t *)"\x20", 1) == tc_rvtrace_ok &&
		tc_rvtrace_set_image(one, NULL) == tc_rvtrace_invalid;
	tc_rvtrace_free(one);
	/* no bytes at all: truncated, with byte 0 given as 00 (there is none) */
	good += tc_rvtrace_parse_frame(&cfg, (const uint8_t *)"", 0, 3, rec) == 1 && rec[0].h.kind == tc_rvtrace_pkt_error &&
		rec[0].error == tc_rvtrace_err_truncated && rec[0].byte0 == 0 && rec[0].h.offset == 3;
	ok(good == 8, "API: frame size with no configuration, set_image and set_l3_sink after finish, set_image after a "
	   "one-byte feed, no bytes to parse_frame (%d/8)", good);
	/* e0 with long_frames=0: te_inst, N = 0, one byte: format 11 in p0 p1, the 2-bit subformat cut */
	expect_l1("short-frame: e0 (long_frames=0), a sync's subformat cut", &short_frames, (const uint8_t *)"\xe0", 1,
		  "@0 e0 error class=short-frame\n");
	/* e5 01 00 00 00 00 (nocontext_p = 1, ecause_width_p = 3): subformat 1 (p2 p3 = 1 0), privilege
	 * p4 p5, branch p6, the address p7..p38, ecause p39..p41: the frame's 42 bits end there, the
	 * interrupt bit (L388) is cut */
	expect_l1("short-frame: a sync exception's interrupt bit cut", &narrow,
		  (const uint8_t *)"\xe5\x01\x00\x00\x00\x00", 6, "@0 e5 error class=short-frame\n");
}

int main(void)
{
	test_descriptor();
	test_packer();
	test_worked_examples();
	test_map_lengths();
	test_address_lengths();
	test_full_map_lengths();
	test_long_form();
	test_errors();
	test_warnings();
	test_messages();
	test_sync_widths();
	test_text_refusals();
	test_text_lines();
	test_config();
	test_api();
	test_guards();
	return tap_finish();
}
