/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_ptm.c — unit tests of the PFT/PTM reference decoder through its public API; prints TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/image.h"
#include "tracecert/ptm.h"
#include "tracecert/ptm_config.h"
#include "tracecert/protocol.h"

/* ---- Collecting output ------------------------------------------------------- */

struct out {
	char l1[65536];
	char l3[65536];
	int errors;
	int last_error;
	unsigned long long last_error_offset;
};

static void append(char *dst, size_t size, const char *line)
{
	size_t n = strlen(dst);
	snprintf(dst + n, size - n, "%s\n", line);
}

static void on_packet(void *ctx, const struct tc_ptm_packet *p)
{
	struct out *o = ctx;
	char buf[256];
	tc_ptm_format_packet(buf, sizeof buf, p);
	append(o->l1, sizeof o->l1, buf);
	if (p->h.kind == tc_ptm_pkt_error) {
		o->errors++;
		o->last_error = p->error;
		o->last_error_offset = (unsigned long long)p->h.offset;
	}
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct out *o = ctx;
	char buf[256];
	tc_ptm_format_l3(buf, sizeof buf, x);
	append(o->l3, sizeof o->l3, buf);
}

/* Decodes n bytes fed `chunk` at a time (0: whole; SIZE_MAX: random sizes
 * from seed), with L3 over image when it is not NULL. */
static void decode_image(const struct tc_ptm_config *cfg, const struct tc_image *image,
			 const uint8_t *b, size_t n, size_t chunk, struct out *o)
{
	struct tc_ptm_sink sink = { o, on_packet, image ? on_l3 : NULL };
	struct tc_ptm_decoder *d = tc_ptm_alloc(cfg, &sink);
	uint32_t seed = 99;
	memset(o, 0, sizeof *o);
	if (!d) {
		o->errors = -1;
		return;
	}
	tc_ptm_set_image(d, image);
	for (size_t i = 0; i < n;) {
		size_t k = chunk ? chunk : n;
		if (chunk == SIZE_MAX) {
			seed = seed * 1664525u + 1013904223u;
			k = 1 + (seed >> 24) % 9;
		}
		if (k > n - i)
			k = n - i;
		tc_ptm_feed(d, b + i, k);
		i += k;
	}
	tc_ptm_finish(d);
	tc_ptm_free(d);
}

static void decode(const struct tc_ptm_config *cfg, const uint8_t *b, size_t n, struct out *o)
{
	decode_image(cfg, NULL, b, n, 0, o);
}

/* A-sync (@0), then an I-sync (@6) to ARM address 0x8000, reason periodic,
 * with as many zero context ID bytes as the configuration asks. */
static const uint8_t prefix[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x00, 0x80, 0x00, 0x00, 0x01 };
static unsigned AT;   /* offset of the packet under test */

static size_t build(uint8_t *buf, const struct tc_ptm_config *cfg, const uint8_t *pkt, size_t npkt)
{
	size_t n = sizeof prefix + (size_t)cfg->contextid_size;
	memcpy(buf, prefix, sizeof prefix);
	memset(buf + sizeof prefix, 0, (size_t)cfg->contextid_size);
	memcpy(buf + n, pkt, npkt);
	AT = (unsigned)n;
	return n + npkt;
}

/* The first L1 line at offset `at`, or "". */
static const char *line_at(const char *text, unsigned at)
{
	static char line[256];
	char key[32];
	const char *s;
	snprintf(key, sizeof key, "@%u ", at);
	s = strstr(text, key);
	line[0] = '\0';
	if (s)
		snprintf(line, sizeof line, "%.*s", (int)strcspn(s, "\n"), s);
	return line;
}

static void config(struct tc_ptm_config *cfg)
{
	tc_ptm_config_default(cfg);
}

/* ---- Every header byte (IHI 0035B §4.5 Table 4.1) ------------------------ */

/* The expected kind of each header, written from Table 4.1 row by row, not
 * from the decoder: b0000 0000 A-sync, b0000 1000 I-sync, b1xxx xxx0 Atom,
 * bCxxx xxx1 Branch address, b0111 0010 Waypoint update, b0000 1100
 * Trigger, b0110 1110 Context ID, b0011 1100 VMID (PFTv1.1, PTM-P2),
 * b0100 0x10 Timestamp, b0111 0110 Exception return, b0110 0110 Ignore;
 * anything else has no packet. */
static const char *expected_kind(unsigned h, int version)
{
	static const struct { unsigned mask, value; const char *kind; } rows[] = {
		{ 0xff, 0x00, "async" }, { 0xff, 0x08, "isync" }, { 0x81, 0x80, "atom" },
		{ 0x01, 0x01, "branch" }, { 0xff, 0x72, "waypoint" }, { 0xff, 0x0c, "trigger" },
		{ 0xff, 0x6e, "context-id" }, { 0xff, 0x3c, "vmid" }, { 0xfb, 0x42, "timestamp" },
		{ 0xff, 0x76, "exception-return" }, { 0xff, 0x66, "ignore" },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if ((h & rows[i].mask) != rows[i].value)
			continue;
		if (rows[i].value == 0x3c && version == 0)
			break;
		return rows[i].kind;
	}
	return "error class=reserved-header";
}

static void test_every_header(int version, int cycle_accurate)
{
	struct tc_ptm_config cfg;
	int bad = 0, reserved = 0;
	config(&cfg);
	cfg.version = version;
	cfg.cycle_accurate = cycle_accurate;
	for (unsigned h = 0; h < 256; h++) {
		uint8_t pkt[24], buf[64];
		struct out o;
		char want[96];
		size_t n;
		memset(pkt, 0, sizeof pkt);
		pkt[0] = (uint8_t)h;
		if (h == 0) {   /* an A-sync needs its 80 */
			pkt[5] = 0x80;
			n = build(buf, &cfg, pkt, 6);
		} else {
			n = build(buf, &cfg, pkt, 16);   /* zero payload bytes end every variable field */
		}
		decode(&cfg, buf, n, &o);
		snprintf(want, sizeof want, "@%u %02x %s", AT, h, expected_kind(h, version));
		if (strncmp(line_at(o.l1, AT), want, strlen(want)) ||
		    (line_at(o.l1, AT)[strlen(want)] != ' ' && line_at(o.l1, AT)[strlen(want)] != '\0')) {
			note("header %02x: expected '%s', got '%s'\n", h, want, line_at(o.l1, AT));
			bad++;
		}
		reserved += strstr(want, "reserved-header") != NULL;
	}
	ok(bad == 0, "version %d cycle_accurate %d: all 256 header bytes classified as Table 4.1 says",
	   version, cycle_accurate);
	ok(reserved == (version ? 54 : 55), "version %d: %d reserved header values", version, reserved);
}

/* Non-cycle-accurate atoms (PTM-P6): the count from the header's top bits,
 * then bits n..1, oldest first, 0 = E. */
static void test_atoms(void)
{
	struct tc_ptm_config cfg;
	int bad = 0;
	config(&cfg);
	for (unsigned h = 0x80; h < 0x100; h += 2) {
		uint8_t buf[32], pkt[1] = { (uint8_t)h };
		char want[64], atoms[8];
		struct out o;
		int n = h >= 0xc0 ? 5 : h >= 0xa0 ? 4 : h >= 0x90 ? 3 : h >= 0x88 ? 2 : 1;
		for (int i = 0; i < n; i++)
			atoms[i] = (h >> (n - i)) & 1 ? 'N' : 'E';
		atoms[n] = '\0';
		decode(&cfg, buf, build(buf, &cfg, pkt, 1), &o);
		snprintf(want, sizeof want, "@%u %02x atom atoms=%s", AT, h, atoms);
		if (strcmp(line_at(o.l1, AT), want)) {
			note("expected '%s', got '%s'\n", want, line_at(o.l1, AT));
			bad++;
		}
	}
	ok(bad == 0, "every non-cycle-accurate atom header gives its atoms");
}

/* ---- Truncation of every packet type at every byte --------------------------- */

struct sample {
	const char *what;
	uint8_t bytes[16];
	size_t n;
	int cycle_accurate;
	int contextid_size;
	int ts64;
};

static const struct sample samples[] = {
	{ "I-sync, CA, 5-byte count, 4-byte context ID", { 0x08, 0x01, 0x10, 0, 0, 0x20, 0x7c, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4 }, 15, 1, 4, 0 },
	{ "I-sync, context ID 2", { 0x08, 0x00, 0x10, 0, 0, 0x08, 0x34, 0x12 }, 8, 0, 2, 0 },
	{ "branch, 5 bytes, 2 exception bytes", { 0x81, 0x80, 0x80, 0x80, 0x48, 0x95, 0x21 }, 7, 0, 0, 0 },
	{ "branch, 3 bytes, 1 exception byte, CA count 3 bytes", { 0x83, 0x81, 0x41, 0x14, 0x44, 0x81, 0x01 }, 7, 1, 0, 0 },
	{ "branch, 2 bytes", { 0x85, 0x02 }, 2, 0, 0, 0 },
	{ "atom, CA, 5 bytes", { 0xc0, 0x80, 0x80, 0x80, 0x01 }, 5, 1, 0, 0 },
	{ "waypoint update, 5 bytes and information byte", { 0x72, 0x80, 0x80, 0x80, 0x80, 0x50, 0x40 }, 7, 0, 0, 0 },
	{ "waypoint update, 2 bytes", { 0x72, 0x84, 0x01 }, 3, 0, 0, 0 },
	{ "context ID, 4 bytes", { 0x6e, 0x78, 0x56, 0x34, 0x12 }, 5, 0, 4, 0 },
	{ "VMID", { 0x3c, 0x07 }, 2, 0, 0, 0 },
	{ "timestamp, 48-bit, 7 bytes", { 0x42, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x07 }, 8, 0, 0, 0 },
	{ "timestamp, 64-bit, 9 bytes, CA count", { 0x46, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x09, 0x44, 0x02 }, 12, 1, 0, 1 },
};

static void test_truncation(void)
{
	for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
		const struct sample *x = &samples[s];
		struct tc_ptm_config cfg;
		int bad = 0;
		config(&cfg);
		cfg.cycle_accurate = x->cycle_accurate;
		cfg.contextid_size = x->contextid_size;
		cfg.ts64 = x->ts64;
		for (size_t cut = 0; cut <= x->n; cut++) {
			uint8_t buf[64];
			struct out o;
			char want[64];
			decode(&cfg, buf, build(buf, &cfg, x->bytes, cut), &o);
			if (cut == 0)
				continue;
			if (cut == x->n) {   /* complete: no error, a packet at AT */
				if (o.errors != 0 || !line_at(o.l1, AT)[0] || strstr(line_at(o.l1, AT), "error")) {
					bad++;
					note("%s complete: %s\n", x->what, line_at(o.l1, AT));
				}
				continue;
			}
			snprintf(want, sizeof want, "@%u %02x error class=truncated", AT, x->bytes[0]);
			if (o.errors != 1 || strcmp(line_at(o.l1, AT), want)) {
				bad++;
				note("%s cut at %zu: '%s'\n", x->what, cut, line_at(o.l1, AT));
			}
		}
		ok(bad == 0, "%s: truncated at every byte, whole when complete", x->what);
	}
}

/* ---- Chunking invariance on random streams ---------------------------------- */

static uint32_t rnd(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Random bytes with A-syncs and I-syncs into the image sprinkled in. */
static size_t random_stream(uint8_t *b, size_t cap, uint32_t seed)
{
	size_t n = 0;
	while (n + 16 < cap) {
		uint32_t r = rnd(&seed) % 16;
		if (r == 0) {
			static const uint8_t as[] = { 0, 0, 0, 0, 0, 0x80 };
			memcpy(b + n, as, sizeof as);
			n += sizeof as;
		} else if (r == 1) {
			uint32_t a = 0x1000 + (rnd(&seed) % 0x3000) * 2;
			uint8_t is[6] = { 0x08, (uint8_t)(a | (rnd(&seed) & 1)), (uint8_t)(a >> 8), 0, 0, 0x21 };
			memcpy(b + n, is, sizeof is);
			n += sizeof is;
		} else {
			b[n++] = (uint8_t)rnd(&seed);
		}
	}
	return n;
}

static void test_chunking(void)
{
	static uint8_t code[0x8000], stream[4096];
	struct tc_image image;
	uint32_t seed = 7;
	int bad = 0;
	memset(&image, 0, sizeof image);
	for (size_t i = 0; i < sizeof code; i++)
		code[i] = (uint8_t)rnd(&seed);
	tc_image_add(&image, 0x1000, code, sizeof code);
	for (uint32_t s = 1; s <= 60; s++) {
		struct tc_ptm_config cfg;
		static struct out whole, one, some;
		size_t n = random_stream(stream, sizeof stream, s);
		config(&cfg);
		cfg.cycle_accurate = (int)(s & 1);
		cfg.return_stack = (int)((s >> 1) & 1);
		cfg.contextid_size = (int)(s % 3 == 0 ? 4 : s % 3);
		cfg.ts64 = (int)((s >> 2) & 1);
		cfg.ts_binary = (int)((s >> 3) & 1);
		decode_image(&cfg, &image, stream, n, 0, &whole);
		decode_image(&cfg, &image, stream, n, 1, &one);
		decode_image(&cfg, &image, stream, n, SIZE_MAX, &some);
		if (strcmp(whole.l1, one.l1) || strcmp(whole.l1, some.l1) ||
		    strcmp(whole.l3, one.l3) || strcmp(whole.l3, some.l3)) {
			bad++;
			note("seed %u differs\n", s);
		}
	}
	ok(bad == 0, "60 random streams: whole, 1-byte and random chunks give the same L1 and L3");
	tc_image_free(&image);
}

/* ---- API ---------------------------------------------------------------------- */

static void test_null_arguments(void)
{
	struct tc_ptm_config cfg;
	struct tc_ptm_decoder *d;
	uint8_t b = 0;
	char buf[8];
	config(&cfg);
	ok(tc_ptm_alloc(NULL, NULL) == NULL, "alloc(NULL config) fails");
	ok(tc_ptm_feed(NULL, &b, 1) == tc_ptm_invalid, "feed(NULL decoder) is invalid");
	ok(tc_ptm_finish(NULL) == tc_ptm_invalid, "finish(NULL) is invalid");
	ok(tc_ptm_set_image(NULL, NULL) == tc_ptm_invalid, "set_image(NULL decoder) is invalid");
	tc_ptm_free(NULL);
	ok(tc_ptm_skipped(NULL) == 0, "skipped(NULL) is 0");
	ok(tc_ptm_format_packet(buf, sizeof buf, NULL) == 0 && buf[0] == '\0', "format_packet(NULL) writes nothing");
	ok(tc_ptm_format_l3(buf, sizeof buf, NULL) == 0 && buf[0] == '\0', "format_l3(NULL) writes nothing");
	ok(tc_ptm_format_packet(NULL, 0, NULL) == 0, "format_packet(NULL buffer, 0, NULL) is 0");
	d = tc_ptm_alloc(&cfg, NULL);
	ok(d != NULL, "alloc with a NULL sink works");
	ok(tc_ptm_set_image(d, NULL) == tc_ptm_ok, "set_image(NULL image) is fine");
	ok(tc_ptm_feed(d, NULL, 1) == tc_ptm_invalid, "feed(NULL data, 1) is invalid");
	ok(tc_ptm_feed(d, NULL, 0) == tc_ptm_ok, "feed(NULL data, 0) is fine");
	ok(tc_ptm_finish(d) == tc_ptm_ok, "finish works once");
	ok(tc_ptm_finish(d) == tc_ptm_finished, "finish twice is refused");
	ok(tc_ptm_feed(d, &b, 1) == tc_ptm_finished, "feed after finish is refused");
	tc_ptm_free(d);
	ok(!strcmp(tc_ptm_pkt_kind_name(-1), "?") && !strcmp(tc_ptm_pkt_kind_name(tc_ptm_pkt_count), "?") &&
	   !strcmp(tc_ptm_error_name(99), "?") && !strcmp(tc_ptm_warning_name(-3), "?") &&
	   !strcmp(tc_ptm_warning_field_name(tc_ptm_wf_count), "?") && !strcmp(tc_ptm_isa_name(4), "?"),
	   "names of out-of-range values are '?'");
	ok(!strcmp(tc_ptm_l3_kind_name(tc_l3_exception_return), "exception-return") &&
	   !strcmp(tc_ptm_l3_kind_name(tc_l3_trigger), "trigger") &&
	   !strcmp(tc_ptm_l3_kind_name(tc_l3_range), "range"), "L3 kind names");
}

/* One key by name through the shared builder (tracecert/protocol.h). */
static int config_set(struct tc_ptm_config *cfg, const char *key, const char *value)
{
	struct tc_config_builder b;
	char err[200];
	int rc;
	if (!cfg)
		return -1;
	tc_config_builder_init(&b, tc_protocol_find("ptm"));
	rc = tc_config_builder_set(&b, key, value, err, sizeof err);
	if (rc)
		return rc;
	return tc_config_builder_apply(&b, cfg, NULL, err, sizeof err) ? -2 : 0;
}

static void test_config(void)
{
	struct tc_ptm_config cfg;
	config(&cfg);
	ok(cfg.version == 1 && cfg.ts_binary == 1 && cfg.cycle_accurate == 0 && cfg.contextid_size == 0,
	   "defaults: version 1, binary timestamps, the rest 0");
	ok(config_set(&cfg, "contextid_size", "4") == 0 && cfg.contextid_size == 4, "contextid_size=4");
	ok(config_set(&cfg, "contextid_size", "3") == -2, "contextid_size=3 is refused");
	ok(config_set(&cfg, "cycle_accurate", "2") == -2, "cycle_accurate=2 is refused");
	ok(config_set(&cfg, "version", "x") == -2, "version=x is refused");
	ok(config_set(&cfg, "nosuch", "1") == -1, "unknown key is -1");
	ok(config_set(NULL, "version", "1") == -1, "NULL config is -1");
	ok(config_set(&cfg, "walk_limit", "100") == 0 && cfg.walk_limit == 100, "walk_limit=100");
	cfg.contextid_size = 3;
	ok(tc_ptm_alloc(&cfg, NULL) == NULL, "contextid_size 3 in the struct is invalid");
	config(&cfg);
	cfg.version = 2;
	ok(tc_ptm_alloc(&cfg, NULL) == NULL, "version 2 is invalid");
	tc_ptm_config_default(NULL);
}

/* Bytes before the first A-sync are skipped; a short zero run is no A-sync. */
static void test_sync(void)
{
	struct tc_ptm_config cfg;
	struct out o;
	static const uint8_t junk[] = { 0x12, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x66 };
	static const uint8_t bad[] = { 0, 0, 0, 0, 0, 0x80, 0x00, 0x00, 0x80, 0x66, 0, 0, 0, 0, 0, 0, 0x80, 0x66 };
	config(&cfg);
	decode(&cfg, junk, sizeof junk, &o);
	ok(!strcmp(o.l1, "@6 00 async\n@12 66 ignore\n"), "4 zeros then 80 is no A-sync; the next one is");
	decode(&cfg, bad, sizeof bad, &o);
	ok(!strcmp(o.l1, "@0 00 async\n@6 00 error class=bad-async\n@10 00 async\n@17 66 ignore\n"),
	   "00 00 80 in sync is bad-async; the search finds the 6-zero A-sync at its first zero");
}

/* ---- The protocol descriptor (tracecert/protocol.h) ------------------------------ */

struct items {
	char l1[4096];
	char l3[4096];
	int l1_errors, l3_errors, warnings;
	uint64_t skipped;
};

static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct items *o = ctx;
	const struct tc_protocol *p = tc_protocol_find("ptm");
	char buf[256];
	p->format(buf, sizeof buf, level, item);
	append(level == tc_level_l3 ? o->l3 : o->l1, level == tc_level_l3 ? sizeof o->l3 : sizeof o->l1, buf);
	o->l1_errors += level == tc_level_l1 && p->item_error(level, item) != 0;
	o->l3_errors += level == tc_level_l3 && p->item_error(level, item) != 0;
	o->warnings += p->item_is_warning(level, item);
}

/* Decodes through the descriptor with the given levels; 0, or -1 when alloc refuses. */
static int descriptor_decode(const void *cfg, unsigned levels, const struct tc_image *image, const uint8_t *b,
			     size_t n, struct items *o)
{
	const struct tc_protocol *p = tc_protocol_find("ptm");
	struct tc_sink sink = { o, levels, on_item };
	void *d = p->alloc(cfg, &sink);
	memset(o, 0, sizeof *o);
	if (!d)
		return -1;
	p->set_image(d, image);
	p->feed(d, b, n);
	p->finish(d);
	o->skipped = p->skipped(d);
	p->free(d);
	return 0;
}

static void test_descriptor(void)
{
	const struct tc_protocol *p = tc_protocol_find("ptm");
	struct tc_ptm_config cfg;
	struct tc_sink no_item = { NULL, tc_level_l1, NULL };
	struct items both, l3only, l1only;
	struct tc_image image;
	struct tc_l3 x;
	char buf[64];
	long v = -1;
	/* @6 I-sync 0x1000 ARM reason 1; @12 atom N: mov, subs, bne not taken; @13 reserved header 02;
	 * @14 I-sync at the same place, periodic; @20 atom E: bne taken to 0x1004; @21 atom header 84:
	 * one atom E with the unassigned bit 2 set (warning) */
	static const uint8_t trace[] = { 0, 0, 0, 0, 0, 0x80, 0x08, 0x00, 0x10, 0x00, 0x00, 0x21, 0x82, 0x02,
					 0, 0, 0, 0, 0, 0x80, 0x08, 0x08, 0x10, 0x00, 0x00, 0x01, 0x80, 0x84 };
	static const uint8_t code[] = { 0x01, 0x00, 0xa0, 0xe3,    /* 0x1000 mov r0, #1 */
					0x01, 0x00, 0x50, 0xe2,    /* 0x1004 subs r0, r0, #1 */
					0xfd, 0xff, 0xff, 0x1a };  /* 0x1008 bne 0x1004 */
	config(&cfg);
	memset(&image, 0, sizeof image);
	ok(tc_image_add(&image, 0x1000, code, sizeof code) == 0, "descriptor: image");
	ok(p != NULL && p->clause_value != NULL, "descriptor: ptm found, with clause_value");
	ok(p->clause_value("ISA_THUMBEE", &v) && v == tc_ptm_isa_thumbee, "clause_value ISA_THUMBEE");
	ok(p->clause_value("FIELD_ADDR_LAST", &v) && v == tc_ptm_wf_addr_last, "clause_value FIELD_ADDR_LAST");
	ok(!p->clause_value("ISA_", &v) && !p->clause_value("FIELD_NONE", &v) && !p->clause_value("ISA_ARMX", &v) &&
	   !p->clause_value("InstType_ISB", &v), "clause_value: names it does not have");
	ok(p->alloc(&cfg, NULL) == NULL && p->alloc(&cfg, &no_item) == NULL, "alloc without a sink or its item() fails");
	cfg.contextid_size = 3;
	ok(descriptor_decode(&cfg, tc_level_l1, NULL, trace, sizeof trace, &both) == -1,
	   "alloc refuses a configuration config_check refuses");
	config(&cfg);
	p->free(NULL);
	ok(descriptor_decode(&cfg, tc_level_l1 | tc_level_l3, &image, trace, sizeof trace, &both) == 0,
	   "descriptor: alloc, set_image, feed, finish, free");
	ok(!strcmp(both.l1, "@0 00 async\n@6 08 isync addr=0x1000 isa=arm reason=1 ns=0 hyp=0\n@12 82 atom atoms=N\n"
			    "@13 02 error class=reserved-header\n@14 00 async\n"
			    "@20 08 isync addr=0x1008 isa=arm reason=0 ns=0 hyp=0\n@26 80 atom atoms=E\n"
			    "@27 84 atom atoms=E\n@27 84 warning class=res0 field=atom bits=0x4\n"),
	   "descriptor: L1 text through format()");
	ok(!strcmp(both.l3, "@6 trace-on\n@6 context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
			    "@12 range first=0x1000 last=0x1008 n=3 isa=a32 type=dir taken=N\n"
			    "@13 error class=reserved-header\n"
			    "@26 range first=0x1008 last=0x1008 n=1 isa=a32 type=dir taken=E\n"
			    "@27 range first=0x1004 last=0x1008 n=2 isa=a32 type=dir taken=E\n"),
	   "descriptor: L3 text through format()");
	ok(both.l1_errors == 1 && both.l3_errors == 1 && both.warnings == 1,
	   "item_error at L1 and L3, item_is_warning at L1");
	ok(both.skipped == 0, "skipped(): nothing before the first A-sync");
	ok(descriptor_decode(&cfg, tc_level_l1, NULL, trace + 3, sizeof trace - 3, &l1only) == 0 &&
	   l1only.skipped == 11, "skipped(): cut at @3, the stream skips 11 bytes up to the A-sync of @14");
	ok(descriptor_decode(&cfg, tc_level_l3, &image, trace, sizeof trace, &l3only) == 0 &&
	   l3only.l1[0] == '\0' && !strcmp(l3only.l3, both.l3), "an L3-only sink gets the same L3 and no L1");
	ok(descriptor_decode(&cfg, tc_level_l1, &image, trace, sizeof trace, &l1only) == 0 &&
	   l1only.l3[0] == '\0' && !strcmp(l1only.l1, both.l1), "an L1-only sink gets the same L1 and no L3");
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.kind = tc_l3_error;
	x.error = tc_ptm_err_truncated;
	ok(p->format(buf, sizeof buf, tc_level_s1, &x.h) == 0 && buf[0] == '\0' &&
	   p->format(buf, 0, tc_level_l2, &x.h) == 0, "no s1 or L2 text");
	ok(p->item_error(tc_level_l2, &x.h) == 0 && !p->item_is_warning(tc_level_l3, &x.h) &&
	   p->item_error(tc_level_l3, &x.h) == tc_ptm_err_truncated, "item_error by level");
	cfg.walk_limit = 77;
	for (int k = 0; k < p->nkeys; k++)
		if (!strcmp(p->keys[k].name, "walk_limit"))
			v = (long)tc_config_get(p, &cfg, k);
	ok(v == 77, "tc_config_get walk_limit");
	ok(tc_config_get(p, &cfg, p->nkeys) == 0, "tc_config_get of no key is 0");
	tc_image_free(&image);
}

/* Configuration from the PTM registers through the shared builder. */
static void test_registers(void)
{
	const struct tc_protocol *p = tc_protocol_find("ptm");
	struct tc_config_builder b;
	struct tc_config_notes notes;
	struct tc_ptm_config cfg;
	char err[200];
	config(&cfg);
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMIDR", "0x410cf321", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, NULL, err, sizeof err) == -1 && strstr(err, "minor version"),
	   "ETMIDR minor version 2 is refused");
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMIDR", "0x410cf311", err, sizeof err) == 0 &&
	   tc_config_builder_set(&b, "ETMTRACEIDR", "0x112", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, &notes, err, sizeof err) == 0 && cfg.version == 1 && notes.n == 1 &&
	   strstr(notes.note[0], "ETMTRACEIDR"), "ETMIDR v1.1; ETMTRACEIDR bits 31:7 are noted");
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMCCER", "0x20000000", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, NULL, err, sizeof err) == 0 && cfg.ts64 == 1 && cfg.ts_binary == 0,
	   "ETMCCER alone: 64-bit Gray-coded timestamps");
	/* PTM-P24: bits no text assigns are notes; the keys come out as with the bits clear. */
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMCR", "0xa0001000", err, sizeof err) == 0 &&
	   tc_config_builder_set(&b, "ETMIDR", "0x41a20310", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, &notes, err, sizeof err) == 0 && notes.n == 2 &&
	   strstr(notes.note[0], "ETMCR bit 31") && strstr(notes.note[1], "ETMIDR bits [23:21] or [17]") &&
	   cfg.cycle_accurate == 1 && cfg.return_stack == 1 && cfg.vmid == 0 && cfg.version == 1,
	   "ETMCR bit 31 and ETMIDR bits 21, 17 set: noted, ignored");
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMIDR", "0x411ef310", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, &notes, err, sizeof err) == 0 && notes.n == 1 &&
	   strstr(notes.note[0], "ETMIDR bits [23:21] or [17]"), "ETMIDR bit 17 alone set: noted (bits 20:18 are assigned: not)");
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMIDR", "0x411cf312", err, sizeof err) == 0 &&
	   tc_config_builder_set(&b, "ETMCR", "0x20000400", err, sizeof err) == 0 &&
	   tc_config_builder_set(&b, "ETMCCER", "0x34c01ac2", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, &notes, err, sizeof err) == 0 && notes.n == 0 && cfg.version == 1 &&
	   cfg.return_stack == 1 && cfg.cycle_accurate == 0 && cfg.ts64 == 1 && cfg.ts_binary == 1,
	   "the register values a Cortex-A15's PTM reports (programming bit set, implementer and core family): no note");
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMIDR", "0x41000200", err, sizeof err) == 0 &&
	   tc_config_builder_apply(&b, &cfg, &notes, err, sizeof err) == -1 && strstr(err, "ETMIDR=0x41000200") &&
	   strstr(err, "not 3 (PFT)"), "ETMIDR of an ETMv3 (major version 2) is refused, naming the register");
	tc_config_builder_init(&b, p);
	ok(tc_config_builder_set(&b, "ETMCR", "0x100000000", err, sizeof err) == -2 && strstr(err, "ETMCR") &&
	   strstr(err, "32-bit"), "an ETMCR value of 33 bits is refused, naming the register");
	ok(p->snapshot_required_regs == (1u << tc_ptm_reg_etmcr | 1u << tc_ptm_reg_etmidr | 1u << tc_ptm_reg_etmccer),
	   "a snapshot's PTM source must give ETMCR, ETMIDR and ETMCCER");
}

int main(void)
{
	test_every_header(1, 0);
	test_every_header(0, 0);
	test_every_header(1, 1);
	test_atoms();
	test_truncation();
	test_chunking();
	test_null_arguments();
	test_config();
	test_sync();
	test_descriptor();
	test_registers();
	return tap_finish();
}
