/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_etmv3.c — unit tests of the ETMv3 reference decoder through its public API; prints TAP. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/etmv3.h"
#include "tracecert/etmv3_config.h"
#include "tracecert/image.h"
#include "tracecert/protocol.h"

/* ---- Collecting output ------------------------------------------------------- */

struct out {
	char l1[65536];
	char l3[65536];
	int errors;
};

static void append(char *dst, size_t size, const char *line)
{
	size_t n = strlen(dst);
	snprintf(dst + n, size - n, "%s\n", line);
}

static void on_packet(void *ctx, const struct tc_etmv3_packet *p)
{
	struct out *o = ctx;
	char buf[256];
	tc_etmv3_format_packet(buf, sizeof buf, p);
	append(o->l1, sizeof o->l1, buf);
	o->errors += p->h.kind == tc_etmv3_pkt_error;
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct out *o = ctx;
	char buf[256];
	tc_etmv3_format_l3(buf, sizeof buf, x);
	append(o->l3, sizeof o->l3, buf);
}

/* Decodes n bytes fed `chunk` at a time (0: whole; SIZE_MAX: sizes 1..9
 * from a fixed sequence), with L3 over image when it is not NULL; returns
 * the bytes skipped. */
static uint64_t decode_image(const struct tc_etmv3_config *cfg, const struct tc_image *image, const uint8_t *b,
			     size_t n, size_t chunk, struct out *o)
{
	struct tc_etmv3_sink sink = { o, on_packet, image ? on_l3 : NULL };
	struct tc_etmv3_decoder *d = tc_etmv3_alloc(cfg, &sink);
	uint32_t seed = 7;
	uint64_t skipped;
	memset(o, 0, sizeof *o);
	if (!d) {
		o->errors = -1;
		return 0;
	}
	tc_etmv3_set_image(d, image);
	for (size_t i = 0; i < n;) {
		size_t k = chunk ? chunk : n;
		if (chunk == SIZE_MAX) {
			seed = seed * 1664525u + 1013904223u;
			k = 1 + (seed >> 24) % 9;
		}
		if (k > n - i)
			k = n - i;
		tc_etmv3_feed(d, b + i, k);
		i += k;
	}
	tc_etmv3_finish(d);
	skipped = tc_etmv3_skipped(d);
	tc_etmv3_free(d);
	return skipped;
}

/* ---- The API's edges ----------------------------------------------------------- */

static void test_api(void)
{
	struct tc_etmv3_config cfg;
	struct tc_etmv3_decoder *d;
	uint8_t byte = 0;
	int good = 0;
	tc_etmv3_config_default(&cfg);
	good += tc_etmv3_alloc(NULL, NULL) == NULL;
	cfg.contextid_size = 3;
	good += tc_etmv3_alloc(&cfg, NULL) == NULL;
	tc_etmv3_config_default(&cfg);
	d = tc_etmv3_alloc(&cfg, NULL);   /* no sink: decodes into nothing */
	good += d != NULL;
	good += tc_etmv3_feed(NULL, &byte, 1) == tc_etmv3_invalid;
	good += tc_etmv3_feed(d, NULL, 1) == tc_etmv3_invalid;
	good += tc_etmv3_feed(d, NULL, 0) == tc_etmv3_ok;
	good += tc_etmv3_feed(d, &byte, 1) == tc_etmv3_ok;
	good += tc_etmv3_set_image(NULL, NULL) == tc_etmv3_invalid;
	good += tc_etmv3_finish(NULL) == tc_etmv3_invalid;
	good += tc_etmv3_finish(d) == tc_etmv3_ok;
	good += tc_etmv3_finish(d) == tc_etmv3_finished;
	good += tc_etmv3_feed(d, &byte, 1) == tc_etmv3_finished;
	good += tc_etmv3_skipped(d) == 1 && tc_etmv3_skipped(NULL) == 0;
	tc_etmv3_free(d);
	tc_etmv3_free(NULL);
	tc_etmv3_config_default(NULL);
	ok(good == 13, "API: NULL and invalid arguments, feed after finish, finish twice, skipped (%d/13)", good);
}

/* ---- Configuration: the checks and the registers --------------------------------- */

static int refused(void (*set)(struct tc_etmv3_config *), const char *says)
{
	struct tc_etmv3_config cfg;
	char err[200] = "";
	tc_etmv3_config_default(&cfg);
	set(&cfg);
	if (tc_etmv3_config_check(&cfg, err, sizeof err) == 0 || !strstr(err, says)) {
		note("expected a refusal saying '%s', got '%s'\n", says, err);
		return 0;
	}
	return 1;
}

static void cid3(struct tc_etmv3_config *c) { c->contextid_size = 3; }
static void alt33(struct tc_etmv3_config *c) { c->version = 3, c->alt_branch = 1; }
static void dataonly30(struct tc_etmv3_config *c) { c->version = 0, c->data_only = 1; }
static void ts34(struct tc_etmv3_config *c) { c->version = 4, c->timestamps = 1; }
static void vmid34(struct tc_etmv3_config *c) { c->version = 4, c->vmid = 1; }
static void version6(struct tc_etmv3_config *c) { c->version = 6; }

static void test_config_check(void)
{
	int good = refused(cid3, "contextid_size=3") + refused(alt33, "alt_branch=1 needs version=4") +
		   refused(dataonly30, "data_only=1 needs version=1") + refused(ts34, "timestamps=1 needs version=5") +
		   refused(vmid34, "vmid=1 needs version=5") + refused(version6, "version=6 is out of range");
	ok(good == 6, "configurations a version cannot have are refused, naming the key and the version (%d/6)", good);
}

/* The keys a configuration builder gives for register values. */
static int derive(const char *const *settings, int n, struct tc_etmv3_config *cfg, char *err, size_t errlen)
{
	const struct tc_protocol *p = tc_protocol_find("etmv3");
	struct tc_config_builder b;
	if (!p)
		return -1;
	tc_config_builder_init(&b, p);
	for (int i = 0; i < n; i++) {
		char name[32];
		const char *eq = strchr(settings[i], '=');
		snprintf(name, sizeof name, "%.*s", (int)(eq - settings[i]), settings[i]);
		if (tc_config_builder_set(&b, name, eq + 1, err, errlen))
			return -1;
	}
	tc_etmv3_config_default(cfg);
	return tc_config_builder_apply(&b, cfg, NULL, err, errlen);
}

/* ETMIDR values of Table 3-47 (ETM-R4 0x4104F230: ETMv3.3; ETM-M3
 * 0x4114F240: ETMv3.4, bit 20 set) and an ETMCR with data access b11,
 * branch output, cycle accuracy, ContextIDSize b11 and data-only mode. */
static void test_registers(void)
{
	static const char *const r4[] = { "ETMIDR=0x4104F230", "ETMCR=0x0010D10C" };
	static const char *const m3[] = { "ETMIDR=0x4114F240", "ETMCR=0" };
	static const char *const v35[] = { "ETMIDR=0x410CF250", "ETMCR=0x50000000", "ETMCCER=0x20000000" };
	static const char *const pft[] = { "ETMIDR=0x410CF330" };
	static const char *const given[] = { "ETMIDR=0x4114F240", "alt_branch=0" };
	struct tc_etmv3_config c;
	char err[256] = "";
	int good = 0;
	good += derive(r4, 2, &c, err, sizeof err) == 0 && c.version == 3 && c.thumb2_one == 1 && c.alt_branch == 0 &&
		c.data_address == 1 && c.data_value == 1 && c.branch_output == 1 && c.cycle_accurate == 1 &&
		c.contextid_size == 4 && c.data_only == 1;
	good += derive(m3, 2, &c, err, sizeof err) == 0 && c.version == 4 && c.alt_branch == 1 && c.thumb2_one == 1 &&
		c.cycle_accurate == 0 && c.contextid_size == 0;
	good += derive(v35, 3, &c, err, sizeof err) == 0 && c.version == 5 && c.timestamps == 1 && c.vmid == 1 &&
		c.ts64 == 1 && c.ts_binary == 0;
	good += derive(pft, 1, &c, err, sizeof err) != 0 && strstr(err, "not 2 (ETMv3)") != NULL;
	good += derive(given, 2, &c, err, sizeof err) == 0 && c.alt_branch == 0 && c.version == 4;
	ok(good == 5, "keys from ETMIDR, ETMCR and ETMCCER; a PFT's ETMIDR refused; a key given overrides (%d/5)", good);
}

/* ---- The byte stream: chunking, errors, resynchronisation -------------------- */

/* A-sync @0; I-sync @6 (context ID 0x05, reason trace enabled, ARM 0x8000);
 * atoms EE @13; branch @14 (one byte, A[7:2] = 0x10: 0x8040); a reserved
 * header 0x10 @15; two bytes skipped; A-sync @18; I-sync @24 (0x06, periodic,
 * 0x8004); a Context ID packet @31 whose byte never comes. */
static const uint8_t stream[] = {
	0, 0, 0, 0, 0, 0x80,                      /* @0 A-sync */
	0x08, 0x05, 0x21, 0x00, 0x80, 0x00, 0x00, /* @6 I-sync: context ID, info 0x21 (reason 1), address */
	0x88,                                     /* @13 format 1: EE */
	0x21,                                     /* @14 branch: byte 1 bits 6:1 = 0x10 */
	0x10,                                     /* @15 reserved header b0001xx00 */
	0x84, 0x84,                               /* @16 skipped while searching */
	0, 0, 0, 0, 0, 0x80,                      /* @18 A-sync */
	0x08, 0x06, 0x01, 0x04, 0x80, 0x00, 0x00, /* @24 I-sync: context ID, info 0x01 (reason 0), address */
	0x6e                                      /* @31 Context ID, cut off */
};

static void test_stream(void)
{
	static const char want[] = "@0 00 async\n"
				   "@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0 ctxid=0x5\n"
				   "@13 88 atom atoms=EE\n"
				   "@14 21 branch addr=0x8040 isa=arm ns=0 hyp=0\n"
				   "@15 10 error class=reserved-header\n"
				   "@18 00 async\n"
				   "@24 08 isync addr=0x8004 isa=arm reason=0 ns=0 hyp=0 ctxid=0x6\n"
				   "@31 6e error class=truncated\n";
	static struct out whole, bytes, pieces;
	struct tc_etmv3_config cfg;
	uint64_t s1, s2, s3;
	tc_etmv3_config_default(&cfg);
	cfg.contextid_size = 1;
	s1 = decode_image(&cfg, NULL, stream, sizeof stream, 0, &whole);
	s2 = decode_image(&cfg, NULL, stream, sizeof stream, 1, &bytes);
	s3 = decode_image(&cfg, NULL, stream, sizeof stream, SIZE_MAX, &pieces);
	if (strcmp(whole.l1, want))
		note("got:\n%s", whole.l1);
	ok(!strcmp(whole.l1, want), "a stream with a reserved header and a packet cut off: the packets, errors and resync");
	ok(!strcmp(bytes.l1, whole.l1) && !strcmp(pieces.l1, whole.l1),
	   "the same L1 fed whole, byte by byte and in pieces of 1 to 9 bytes");
	ok(s1 == 2 && s2 == 2 && s3 == 2, "two bytes skipped while searching, however fed (%llu %llu %llu)",
	   (unsigned long long)s1, (unsigned long long)s2, (unsigned long long)s3);
}

/* ---- A new image replaces the old one's instructions -------------------------- */

/* A-sync @0; I-sync @6 (context ID 0x05, reason 1, ARM 0x8000); one E atom
 * @13. Then, over another image, I-sync @14 (periodic, 0x8000) and one E
 * atom @21. */
static const uint8_t trace_before[] = {
	0, 0, 0, 0, 0, 0x80,                      /* @0 A-sync */
	0x08, 0x05, 0x21, 0x00, 0x80, 0x00, 0x00, /* @6 I-sync: context ID, info 0x21 (reason 1), address */
	0x84                                      /* @13 format 1: E */
};
static const uint8_t trace_after[] = {
	0x08, 0x05, 0x01, 0x00, 0x80, 0x00, 0x00, /* @14 I-sync: info 0x01 (reason 0), the same address */
	0x84                                      /* @21 format 1: E */
};

static void test_new_image(void)
{
	/* 0x8000 holds MOV r0, r0 (E1A00000) in the first image and B 0x8008
	 * (EA000000: offset 0, PC + 8) in the second: the atom @13 is a
	 * non-branch (type=other taken=-), delivered at the I-sync @14; the atom
	 * @21 the taken direct branch (type=dir taken=E). The items before: the
	 * trace-on of reason 1 and the context ID 0x05 of the first I-sync. */
	static const uint8_t mov[4] = { 0x00, 0x00, 0xa0, 0xe1 }, b[4] = { 0x00, 0x00, 0x00, 0xea };
	static const char want[] = "@6 trace-on\n"
				   "@6 context el=0 ns=0 sf=0 ctxid=0x5 vmid=0x0\n"
				   "@13 range first=0x8000 last=0x8000 n=1 isa=a32 type=other taken=-\n"
				   "@21 range first=0x8000 last=0x8000 n=1 isa=a32 type=dir taken=E\n";
	static struct out o;
	struct tc_image first = { 0 }, second = { 0 };
	struct tc_etmv3_sink sink = { &o, on_packet, on_l3 };
	struct tc_etmv3_config cfg;
	struct tc_etmv3_decoder *d;
	tc_etmv3_config_default(&cfg);
	cfg.contextid_size = 1;
	memset(&o, 0, sizeof o);
	d = tc_etmv3_alloc(&cfg, &sink);
	if (!d || tc_image_add(&first, 0x8000, mov, sizeof mov) || tc_image_add(&second, 0x8000, b, sizeof b)) {
		ok(0, "a new image: set up");
	} else {
		tc_etmv3_set_image(d, &first);
		tc_etmv3_feed(d, trace_before, sizeof trace_before);
		tc_etmv3_set_image(d, &second);
		tc_etmv3_feed(d, trace_after, sizeof trace_after);
		tc_etmv3_finish(d);
		if (strcmp(o.l3, want))
			note("got:\n%s", o.l3);
		ok(!strcmp(o.l3, want), "an image set while decoding: the instructions are the new image's");
	}
	tc_etmv3_free(d);
	tc_image_free(&first);
	tc_image_free(&second);
}

/* ---- Instructions at addresses, and in instruction sets, that look alike ------ */

/* A-sync @0; I-sync @6 (context ID 0x05, reason 1, ARM 0x4000); E @13;
 * periodic I-syncs to ARM 0x0000 @14, ARM 0x8000 @22 and Thumb 0x8000 @30
 * (address bit 0, the T bit, set), each followed by one E atom (@21, @29,
 * @37). */
static const uint8_t trace_alike[] = {
	0, 0, 0, 0, 0, 0x80,                      /* @0 A-sync */
	0x08, 0x05, 0x21, 0x00, 0x40, 0x00, 0x00, /* @6 I-sync: info 0x21 (reason 1), ARM 0x4000 */
	0x84,                                     /* @13 format 1: E */
	0x08, 0x05, 0x01, 0x00, 0x00, 0x00, 0x00, /* @14 I-sync: info 0x01 (reason 0), ARM 0x0000 */
	0x84,                                     /* @21 E */
	0x08, 0x05, 0x01, 0x00, 0x80, 0x00, 0x00, /* @22 I-sync: ARM 0x8000 */
	0x84,                                     /* @29 E */
	0x08, 0x05, 0x01, 0x01, 0x80, 0x00, 0x00, /* @30 I-sync: Thumb 0x8000 */
	0x84                                      /* @37 E */
};

static void test_alike(void)
{
	/* 0x4000: B 0x4008 (EA000000), a taken direct branch; 0x0000: MOV r0, r0
	 * (E1A00000), no branch; 0x8000: the bytes FE E7 00 00, as ARM
	 * 0000E7FE (ANDEQ, destination r14: no branch), as Thumb E7FE (B to
	 * itself: imm11 0x7FE is -4 from PC = 0x8004, a taken direct branch).
	 * Each atom is one instruction, its own range; the ranges after the
	 * branches are delivered at the next I-sync. The three addresses are
	 * 16 KiB and 32 KiB apart, so that a decoder remembering instructions
	 * by their low address bits sees them in the same place. */
	static const uint8_t b[4] = { 0x00, 0x00, 0x00, 0xea }, mov[4] = { 0x00, 0x00, 0xa0, 0xe1 },
			     both[4] = { 0xfe, 0xe7, 0x00, 0x00 };
	static const char want[] = "@6 trace-on\n"
				   "@6 context el=0 ns=0 sf=0 ctxid=0x5 vmid=0x0\n"
				   "@13 range first=0x4000 last=0x4000 n=1 isa=a32 type=dir taken=E\n"
				   "@21 range first=0x0 last=0x0 n=1 isa=a32 type=other taken=-\n"
				   "@29 range first=0x8000 last=0x8000 n=1 isa=a32 type=other taken=-\n"
				   "@37 range first=0x8000 last=0x8000 n=1 isa=t32 type=dir taken=E\n";
	static struct out o;
	struct tc_image image = { 0 };
	struct tc_etmv3_config cfg;
	tc_etmv3_config_default(&cfg);
	cfg.contextid_size = 1;
	if (tc_image_add(&image, 0x4000, b, sizeof b) || tc_image_add(&image, 0x0, mov, sizeof mov) ||
	    tc_image_add(&image, 0x8000, both, sizeof both)) {
		ok(0, "addresses alike: set up");
	} else {
		decode_image(&cfg, &image, trace_alike, sizeof trace_alike, 0, &o);
		if (strcmp(o.l3, want))
			note("got:\n%s", o.l3);
		ok(!strcmp(o.l3, want),
		   "instructions at addresses 16 KiB apart, and one address in ARM and in Thumb: each its own");
	}
	tc_image_free(&image);
}

/* The bytes skipped while searching for an A-sync (tc_etmv3_skipped), counted
 * once each: those before the first A-sync of a stream that ends in sync,
 * and, after an error, those from the byte after the bad packet's first to
 * the end of a stream that ends searching. */
static void test_skipped(void)
{
	static const uint8_t ends_in_sync[] = {
		0x84,                          /* @0 skipped: no A-sync yet */
		0, 0, 0, 0, 0, 0x80,           /* @1 A-sync */
		0x84                           /* @7 format 1: E */
	};
	static const uint8_t ends_searching[] = {
		0x84, 0x84, 0x84,              /* @0 skipped: no A-sync yet */
		0, 0, 0, 0, 0, 0x80,           /* @3 A-sync */
		0x84,                          /* @9 format 1: E */
		0x10,                          /* @10 reserved header b0001xx00 */
		0x84, 0x84                     /* @11 skipped while searching, to the end */
	};
	static struct out o;
	struct tc_etmv3_config cfg;
	uint64_t s1, s2;
	tc_etmv3_config_default(&cfg);
	s1 = decode_image(&cfg, NULL, ends_in_sync, sizeof ends_in_sync, 1, &o);
	s2 = decode_image(&cfg, NULL, ends_searching, sizeof ends_searching, 1, &o);
	ok(s1 == 1 && s2 == 5, "skipped: 1 before the A-sync of a stream ending in sync, 3 + 2 around an error (%llu %llu)",
	   (unsigned long long)s1, (unsigned long long)s2);
}

/* ---- Deriving the keys from the registers: refusals and notes (config_derive) ---- */

struct derived {
	uint64_t value[TC_CONFIG_KEYS_MAX];
	uint32_t derived;
	struct tc_config_notes notes;
	char err[256];
	int rc;
};

/* config_derive of the descriptor over the registers given ("NAME=VALUE", hex). */
static void derive_regs(const char *const *settings, int n, struct derived *d)
{
	const struct tc_protocol *p = tc_protocol_find("etmv3");
	uint32_t regs[TC_CONFIG_REGS_MAX] = { 0 }, given = 0;
	memset(d, 0, sizeof *d);
	for (int i = 0; i < n; i++) {
		char name[32];
		const char *eq = strchr(settings[i], '=');
		int r;
		snprintf(name, sizeof name, "%.*s", (int)(eq - settings[i]), settings[i]);
		r = tc_config_reg_find(p, name);
		regs[r] = (uint32_t)strtoul(eq + 1, NULL, 16);
		given |= 1u << r;
	}
	d->rc = p->config_derive(regs, given, d->value, &d->derived, &d->notes, d->err, sizeof d->err);
}

/* Key NAME was derived, as value v. */
static int has_key(const struct derived *d, const char *name, uint64_t v)
{
	int k = tc_config_key_find(tc_protocol_find("etmv3"), name);
	return k >= 0 && (d->derived >> k & 1) && d->value[k] == v;
}

static int lacks_key(const struct derived *d, const char *name)
{
	int k = tc_config_key_find(tc_protocol_find("etmv3"), name);
	return k >= 0 && !(d->derived >> k & 1);
}

static int notes_are(const struct derived *d, int n, const char *const *want)
{
	if (d->notes.n != n)
		return 0;
	for (int i = 0; i < n; i++)
		if (strcmp(d->notes.note[i], want[i])) {
			note("note %d: '%s', not '%s'\n", i, d->notes.note[i], want[i]);
			return 0;
		}
	return 1;
}

static void test_derive_refusals(void)
{
	/* ETMIDR [11:8] 3 (a PFT's, 0x410CF330); [7:4] 6 (no ETMv3.6, 0x4100F260) */
	static const char *const major3[] = { "ETMIDR=410CF330" }, *const minor6[] = { "ETMIDR=4100F260" };
	struct derived d;
	derive_regs(major3, 1, &d);
	ok(d.rc == -1 && !strcmp(d.err, "ETMIDR=0x410cf330: major architecture version [11:8] is 3, not 2 (ETMv3)"),
	   "ETMIDR major version 3 refused: '%s'", d.err);
	derive_regs(minor6, 1, &d);
	ok(d.rc == -1 && !strcmp(d.err, "ETMIDR=0x4100f260: minor version [7:4] 6 is not ETMv3.0 .. ETMv3.5"),
	   "ETMIDR minor version 6 refused: '%s'", d.err);
}

static void test_derive_notes(void)
{
	/* ETMIDR 0x41340210: major 2, minor 1 (ETMv3.1), bit 18 (Thumb as one, from
	 * ETMv3.2), bit 20 (alternative branch encoding, from ETMv3.4) and bit 21
	 * (reserved) set: three notes, version 1, neither field derived. */
	static const char *const v31[] = { "ETMIDR=41340210" };
	static const char *const v31_notes[] = {
		"ETMIDR bit 18 (32-bit Thumb traced as one) is reserved before ETMv3.2 but set: ignored",
		"ETMIDR bit 20 (alternative branch encoding) is reserved before ETMv3.4 but set: ignored",
		"ETMIDR bits [23:21] or [17] are reserved but set: ignored"
	};
	/* ETMIDR 0x41020250: ETMv3.5 with reserved bit 17 alone; bits 18 and 20 clear: both derived as 0. */
	static const char *const v35[] = { "ETMIDR=41020250" };
	static const char *const v35_notes[] = { "ETMIDR bits [23:21] or [17] are reserved but set: ignored" };
	/* ETMv3.0 (ETMIDR 0x41000200) with ETMCR 0xD0100000: bit 20 (data-only,
	 * from ETMv3.1), bits 28 and 30 (timestamp, VMID: ETMv3.5) and reserved
	 * bit 31 set: three notes, none of the three keys derived. */
	static const char *const v30[] = { "ETMIDR=41000200", "ETMCR=D0100000" };
	static const char *const v30_notes[] = {
		"ETMCR bit 20 (data-only mode) is reserved in ETMv3.0 but set: ignored",
		"ETMCR bits 28 and 30 (timestamp, VMID) are ETMv3.5 fields but set: ignored",
		"ETMCR bits 31 or 29 are reserved but set: ignored"
	};
	/* ETMCR 0x70100000 without ETMIDR (the version a key gives): data-only,
	 * timestamp and VMID derived; bit 29 reserved: one note. */
	static const char *const cr_alone[] = { "ETMCR=70100000" };
	static const char *const cr_notes[] = { "ETMCR bits 31 or 29 are reserved but set: ignored" };
	/* ETMTRACEIDR 0x92: ID 0x12 and bit 7 set; ETMCCER 0x30000000: binary, 64-bit timestamps. */
	static const char *const ids[] = { "ETMTRACEIDR=92", "ETMCCER=30000000" };
	static const char *const ids_notes[] = { "ETMTRACEIDR bits [31:7] are reserved but set: ignored" };
	/* all of v31's and v30's reserved bits with ETMTRACEIDR's: seven notes, the first four kept */
	static const char *const many[] = { "ETMIDR=41340200", "ETMCR=D0100000", "ETMTRACEIDR=80" };
	static const char *const many_notes[] = { v31_notes[0], v31_notes[1], v31_notes[2], v30_notes[0] };
	struct derived d;
	derive_regs(v31, 1, &d);
	ok(d.rc == 0 && notes_are(&d, 3, v31_notes) && has_key(&d, "version", 1) && lacks_key(&d, "thumb2_one") &&
	   lacks_key(&d, "alt_branch"), "ETMv3.1's ETMIDR with bits 18, 20, 21: three notes, the two fields not derived");
	derive_regs(v35, 1, &d);
	ok(d.rc == 0 && notes_are(&d, 1, v35_notes) && has_key(&d, "version", 5) && has_key(&d, "thumb2_one", 0) &&
	   has_key(&d, "alt_branch", 0), "ETMv3.5's ETMIDR with bit 17: one note, bits 18 and 20 derived as 0");
	derive_regs(v30, 2, &d);
	ok(d.rc == 0 && notes_are(&d, 3, v30_notes) && has_key(&d, "version", 0) && lacks_key(&d, "data_only") &&
	   lacks_key(&d, "timestamps") && lacks_key(&d, "vmid"),
	   "ETMv3.0 with ETMCR bits 20, 28, 30, 31: three notes, data_only, timestamps, vmid not derived");
	derive_regs(cr_alone, 1, &d);
	ok(d.rc == 0 && notes_are(&d, 1, cr_notes) && lacks_key(&d, "version") && has_key(&d, "data_only", 1) &&
	   has_key(&d, "timestamps", 1) && has_key(&d, "vmid", 1),
	   "ETMCR without ETMIDR: data-only, timestamp and VMID derived; bit 29 noted");
	derive_regs(ids, 2, &d);
	ok(d.rc == 0 && notes_are(&d, 1, ids_notes) && has_key(&d, "ts_binary", 1) && has_key(&d, "ts64", 1),
	   "ETMTRACEIDR bit 7 noted; ETMCCER's timestamp encoding and size");
	derive_regs(many, 3, &d);
	ok(d.rc == 0 && notes_are(&d, TC_CONFIG_NOTES, many_notes), "seven notes: the first %d kept", TC_CONFIG_NOTES);
}

/* config_to_regs, then config_derive: the keys the registers hold come back,
 * with no note, for every version and context ID size and flags on and off. */
static void test_regs_round_trip(void)
{
	static const char *const flags[] = { "data_value", "data_address", "branch_output", "cycle_accurate",
					     "data_only", "thumb2_one", "alt_branch", "timestamps", "vmid",
					     "ts_binary", "ts64" };
	static const unsigned since[] = { 0, 0, 0, 0, 1, 2, 4, 5, 5, 0, 0 };   /* the version a flag needs */
	static const unsigned cid[] = { 0, 1, 2, 4 };
	const struct tc_protocol *p = tc_protocol_find("etmv3");
	int good = 1, runs = 0;
	for (unsigned v = 0; v <= 5; v++)
		for (int c = 0; c < 4; c++)
			for (int on = 0; on < 2; on++) {
				struct tc_etmv3_config cfg;
				uint32_t regs[TC_CONFIG_REGS_MAX] = { 0 };
				struct derived d;
				int k = tc_config_key_find(p, "contextid_size");
				tc_etmv3_config_default(&cfg);
				cfg.version = (uint8_t)v;
				tc_config_set(p, &cfg, k, cid[c]);
				for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
					if (v >= since[f])   /* alternately all on and all off */
						tc_config_set(p, &cfg, tc_config_key_find(p, flags[f]), (uint64_t)on);
				p->config_to_regs(&cfg, 0x2a, regs);
				memset(&d, 0, sizeof d);
				d.rc = p->config_derive(regs, (1u << p->nregs) - 1, d.value, &d.derived, &d.notes, d.err,
							sizeof d.err);
				good &= d.rc == 0 && d.notes.n == 0 && regs[p->trace_id_reg] == 0x2a &&
					has_key(&d, "version", v) && has_key(&d, "contextid_size", cid[c]);
				for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
					good &= v >= since[f] ? has_key(&d, flags[f], (uint64_t)on) : lacks_key(&d, flags[f]);
				runs++;
			}
	ok(good && runs == 48, "config_to_regs then config_derive: every version, context ID size, flags on and off (%d)",
	   runs);
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
	const struct tc_protocol *p = tc_protocol_find("etmv3");
	char buf[256];
	p->format(buf, sizeof buf, level, item);
	append(level == tc_level_l3 ? o->l3 : o->l1, level == tc_level_l3 ? sizeof o->l3 : sizeof o->l1, buf);
	o->l1_errors += level == tc_level_l1 && p->item_error(level, item) != 0;
	o->l3_errors += level == tc_level_l3 && p->item_error(level, item) != 0;
	o->warnings += p->item_is_warning(level, item);
}

/* Decodes through the descriptor with the given levels; 0, or -1 when alloc refuses. */
static int descriptor_decode(const void *cfg, unsigned levels, const uint8_t *b, size_t n, struct items *o)
{
	const struct tc_protocol *p = tc_protocol_find("etmv3");
	struct tc_sink sink = { o, levels, on_item };
	void *d = p->alloc(cfg, &sink);
	memset(o, 0, sizeof *o);
	if (!d)
		return -1;
	p->set_image(d, NULL);
	p->feed(d, b, n);
	p->finish(d);
	o->skipped = p->skipped(d);
	p->free(d);
	return 0;
}

static void test_descriptor(void)
{
	/* test_stream's L1, reasoned there */
	static const char want_l1[] = "@0 00 async\n"
				      "@6 08 isync addr=0x8000 isa=arm reason=1 ns=0 hyp=0 ctxid=0x5\n"
				      "@13 88 atom atoms=EE\n"
				      "@14 21 branch addr=0x8040 isa=arm ns=0 hyp=0\n"
				      "@15 10 error class=reserved-header\n"
				      "@18 00 async\n"
				      "@24 08 isync addr=0x8004 isa=arm reason=0 ns=0 hyp=0 ctxid=0x6\n"
				      "@31 6e error class=truncated\n";
	/* Its L3 without an image: the I-sync @6 (reason 1) turns trace on and
	 * gives context ID 0x5; the atoms @13 start at 0x8000, which no image
	 * holds (no-image), and the branch @14 adds nothing to follow; the
	 * errors @15 and @31 as L3 errors; the periodic I-sync @24 gives no
	 * trace-on, only the new context ID 0x6. */
	static const char want_l3[] = "@6 trace-on\n"
				      "@6 context el=0 ns=0 sf=0 ctxid=0x5 vmid=0x0\n"
				      "@13 no-image addr=0x8000 isa=a32\n"
				      "@15 error class=reserved-header\n"
				      "@24 context el=0 ns=0 sf=0 ctxid=0x6 vmid=0x0\n"
				      "@31 error class=truncated\n";
	const struct tc_protocol *p = tc_protocol_find("etmv3");
	struct tc_etmv3_config cfg;
	struct tc_sink no_item = { NULL, tc_level_l1, NULL };
	struct items l1only, l3only;
	struct tc_etmv3_packet w;
	struct tc_l3 x;
	char buf[64];
	long v = -1;
	int rc;
	tc_etmv3_config_default(&cfg);
	cfg.contextid_size = 1;
	ok(p != NULL && p->clause_value != NULL, "descriptor: etmv3 found, with clause_value");
	ok(p->clause_value("ISA_THUMBEE", &v) && v == tc_etmv3_isa_thumbee && p->clause_value("ISA_ARM", &v) &&
	   v == tc_etmv3_isa_arm, "clause_value ISA_THUMBEE, ISA_ARM");
	ok(p->clause_value("FIELD_CC_LAST", &v) && v == tc_etmv3_wf_cc_last && p->clause_value("FIELD_TS_LAST", &v) &&
	   v == tc_etmv3_wf_ts_last, "clause_value FIELD_CC_LAST, FIELD_TS_LAST ('-' as '_')");
	ok(!p->clause_value("ISA_", &v) && !p->clause_value("FIELD_NONE", &v) && !p->clause_value("ISA_ARMX", &v) &&
	   !p->clause_value("ISA_arm", &v) && !p->clause_value("InstType_ISB", &v),
	   "clause_value: names it does not have (a prefix alone, none, a longer name, lower case, another kind)");
	ok(p->alloc(&cfg, NULL) == NULL && p->alloc(&cfg, &no_item) == NULL, "alloc without a sink or its item() fails");
	cfg.contextid_size = 3;
	ok(descriptor_decode(&cfg, tc_level_l1, stream, sizeof stream, &l1only) == -1,
	   "alloc refuses a configuration config_check refuses");
	cfg.contextid_size = 1;
	p->free(NULL);
	ok(descriptor_decode(&cfg, tc_level_l1, stream, sizeof stream, &l1only) == 0 && !strcmp(l1only.l1, want_l1) &&
	   l1only.l3[0] == '\0', "descriptor: an L1 sink gets the L1 text through format() and no L3");
	ok(l1only.l1_errors == 2 && l1only.warnings == 0 && l1only.skipped == 2,
	   "descriptor: item_error at L1 (reserved header, truncated); skipped() 2");
	rc = descriptor_decode(&cfg, tc_level_l3, stream, sizeof stream, &l3only);
	if (strcmp(l3only.l3, want_l3))
		note("got:\n%s", l3only.l3);
	ok(rc == 0 && l3only.l1[0] == '\0' && !strcmp(l3only.l3, want_l3) && l3only.l3_errors == 2,
	   "descriptor: an L3 sink without an image gets the L3 items, two errors by item_error, and no L1");
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.kind = tc_l3_error;
	x.h.offset = 15;
	x.error = tc_etmv3_err_reserved_header;
	ok(p->format(buf, sizeof buf, tc_level_l3, &x.h) > 0 && !strcmp(buf, "@15 error class=reserved-header"),
	   "format at L3: the shared L3 text with ETMv3's classes ('%s')", buf);
	ok(p->format(buf, sizeof buf, tc_level_s1, &x.h) == 0 && buf[0] == '\0' &&
	   p->format(buf, 0, tc_level_l2, &x.h) == 0, "no s1 or L2 text");
	ok(p->item_error(tc_level_l3, &x.h) == tc_etmv3_err_reserved_header && p->item_error(tc_level_l2, &x.h) == 0 &&
	   !p->item_is_warning(tc_level_l3, &x.h), "item_error at L3 is the error item's class; none at L2");
	x.h.kind = tc_l3_range;
	ok(p->item_error(tc_level_l3, &x.h) == 0, "item_error at L3 of an item that is no error: 0");
	memset(&w, 0, sizeof w);
	w.h.size = sizeof w;
	w.h.kind = tc_etmv3_pkt_warning;
	ok(p->item_is_warning(tc_level_l1, &w.h) && p->item_error(tc_level_l1, &w.h) == 0,
	   "a warning packet is a warning at L1, no error");
}

/* ---- Names and text edges (etmv3_text.c) ------------------------------------------ */

static void test_names(void)
{
	struct tc_etmv3_packet pk;
	char buf[64], err[200] = "";
	ok(!strcmp(tc_etmv3_pkt_kind_name(-1), "?") && !strcmp(tc_etmv3_pkt_kind_name(tc_etmv3_pkt_count), "?") &&
	   !strcmp(tc_etmv3_error_name(-1), "?") && !strcmp(tc_etmv3_error_name(tc_etmv3_err_count), "?") &&
	   !strcmp(tc_etmv3_warning_name(-1), "?") && !strcmp(tc_etmv3_warning_name(tc_etmv3_warn_count), "?") &&
	   !strcmp(tc_etmv3_warning_field_name(-1), "?") &&
	   !strcmp(tc_etmv3_warning_field_name(tc_etmv3_wf_count), "?") && !strcmp(tc_etmv3_isa_name(-1), "?") &&
	   !strcmp(tc_etmv3_isa_name(tc_etmv3_isa_count), "?"),
	   "names out of range are '?' (packet kinds, errors, warnings, fields, instruction sets)");
	ok(!strcmp(tc_etmv3_pkt_kind_name(tc_etmv3_pkt_warning), "warning") && !strcmp(tc_etmv3_isa_name(3), "jazelle") &&
	   !strcmp(tc_etmv3_warning_field_name(tc_etmv3_wf_ts_last), "ts-last"),
	   "names in range: the last of each table");
	buf[0] = 'x';
	ok(tc_etmv3_format_packet(buf, sizeof buf, NULL) == 0 && buf[0] == '\0' &&
	   tc_etmv3_format_l3(buf, sizeof buf, NULL) == 0 && buf[0] == '\0', "format of no packet, no L3 item: empty");
	memset(&pk, 0, sizeof pk);
	pk.h.kind = tc_etmv3_pkt_async;
	pk.h.offset = 123;
	ok(tc_etmv3_format_packet(buf, 0, &pk) == (int)strlen("@123 00 async") &&
	   tc_etmv3_format_packet(buf, 5, &pk) == (int)strlen("@123 00 async") && !strcmp(buf, "@123"),
	   "format into 0 and 5 bytes: the length it needs, what fits");
	ok(tc_etmv3_parse_packet_text("@4 00 asink", &pk, err, sizeof err) == -1 && strstr(err, "column 7") &&
	   strstr(err, "packet kind"), "parse: an unknown packet kind is refused at its column (%s)", err);
}

int main(void)
{
	test_api();
	test_config_check();
	test_registers();
	test_stream();
	test_new_image();
	test_alike();
	test_skipped();
	test_derive_refusals();
	test_derive_notes();
	test_regs_round_trip();
	test_descriptor();
	test_names();
	return tap_finish();
}
