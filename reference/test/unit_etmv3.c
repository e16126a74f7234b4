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

int main(void)
{
	test_api();
	test_config_check();
	test_registers();
	test_stream();
	test_new_image();
	test_alike();
	test_skipped();
	return tap_finish();
}
