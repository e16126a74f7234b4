/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_etmv1.c — unit tests of the ETMv1 reference decoder at L1 (reference/etmv1/), through its
 * public API; prints TAP.
 *
 * Every stream is a sample file (reference/etmv1/FORMAT.md "Sample file"): a 16-byte header, then
 * records written here as hex pairs "status TRACEPKT" (a third byte on a 16-bit port). Expected
 * lines are FORMAT.md's worked file of Example 5-1 (IHI 0014 L8053-8122, ERRATA "Walkthroughs") or
 * the hand reasoning written beside each case, record by record. Most cases start with the same
 * synchronising prefix SYNC8: a BE whose APO of 0 designates its own five-packet address 0x1000,
 * reason b001 (ETM1-P9), read as FORMAT.md's worked file reads it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/etmv1.h"
#include "tracecert/etmv1_config.h"

/* @16 BE|TRACESYNC, A[6:0]=0 more; @18 APO b000, A[13:7]=0x20 more; @20 APO b000, 0 more; @22 WT 0
 * more; @24 WT fifth packet: reason b001 (0x10), A[31:28]=0: 0x1000, n=5, apo=0. */
#define SYNC8 "14 80 00 a0 00 80 03 80 03 10 "
#define SYNC8_L1 "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n"

/* ---- The walk of Example 5-1's program (FORMAT.md "Worked files"), by hand: the PC follows each
 * retired instruction (+4, ARM) and each branch address; the value sizes are the loads' at
 * 0x1004 LDRB (1), 0x1008 LDRH (2), 0x100c LDR (4); 0x2000 is an LDC here (unknown length),
 * 0x3000 an LDM of three registers (3 x 4), 0x4000 has no image, 0x5000 an MCR (one word, no data
 * address: L7903), 0x6000 an instruction whose traced values have no bytes (a load with
 * data_value=0 and cprt=1, ETM1-P37). */
struct walk {
	uint32_t pc;
};

static void w_retire(void *ctx, const struct tc_etmv1_record *r)
{
	struct walk *w = ctx;
	if ((r->h.kind == tc_etmv1_be || r->h.kind == tc_etmv1_bd) && r->has_addr)
		w->pc = r->addr;
	else
		w->pc += 4;
}

static void w_transfers(void *ctx, const struct tc_etmv1_record *r, struct tc_etmv1_transfers *t)
{
	struct walk *w = ctx;
	(void)r;
	t->status = 0;
	t->n = 1;
	switch (w->pc) {
	case 0x1004: t->size[0] = 1; break;
	case 0x1008: t->size[0] = 2; break;
	case 0x100c: t->size[0] = 4; break;
	case 0x2000: t->status = 2; break;
	case 0x3000: t->n = 3; t->size[0] = t->size[1] = t->size[2] = 4; break;
	case 0x4000: t->status = 1; break;
	case 0x5000: t->size[0] = 4; t->no_address = 1; break;
	case 0x6000: t->n = 0; break;
	default: t->size[0] = 4; break;
	}
}

/* ---- Running a stream ------------------------------------------------------------ */

struct out {
	char l1[16384];
	int n;
};

static void on_item(void *ctx, const struct tc_etmv1_record *r)
{
	struct out *o = ctx;
	char buf[512];
	size_t len = strlen(o->l1);
	tc_etmv1_format(buf, sizeof buf, r);
	snprintf(o->l1 + len, sizeof o->l1 - len, "%s\n", buf);
	o->n++;
}

static struct tc_etmv1_config base_cfg(void)
{
	struct tc_etmv1_config c;
	tc_etmv1_config_default(&c);
	c.version = 1;
	return c;
}

/* The header of cfg, then the records of hex ("14 80 …"). */
static size_t build(const struct tc_etmv1_config *c, const char *hex, uint8_t *buf, size_t cap)
{
	const uint8_t h[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 1, c->version, c->port_width, c->port_mode, c->half_rate };
	memcpy(buf, h, 16);
	size_t n = 16;
	for (const char *p = hex; *p && n < cap;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		buf[n++] = (uint8_t)strtoul(p, (char **)&p, 16);
	}
	return n;
}

/* Decodes in pieces of `piece` bytes (0: whole). */
static void decode(const struct tc_etmv1_config *c, const char *hex, size_t piece, int with_walk, struct out *o)
{
	static uint8_t buf[65536];
	size_t n = build(c, hex, buf, sizeof buf);
	struct walk w = { 0 };
	struct tc_etmv1_walk wk = { &w, w_retire, w_transfers };
	struct tc_etmv1_sink sink = { o, on_item };
	memset(o, 0, sizeof *o);
	struct tc_etmv1_decoder *d = tc_etmv1_alloc(c, &sink, with_walk ? &wk : NULL);
	if (!d) {
		snprintf(o->l1, sizeof o->l1, "(alloc failed)\n");
		return;
	}
	if (!piece)
		piece = n;
	for (size_t at = 0; at < n; at += piece)
		tc_etmv1_feed(d, buf + at, n - at < piece ? n - at : piece);
	tc_etmv1_finish(d);
	tc_etmv1_free(d);
}

static void expect(const struct tc_etmv1_config *c, const char *hex, int with_walk, const char *want, const char *what)
{
	struct out o;
	decode(c, hex, 0, with_walk, &o);
	int good = strcmp(o.l1, want) == 0;
	if (!good) {
		note("want:\n%s", want);
		note("got:\n%s", o.l1);
	}
	ok(good, "%s", what);
	struct out p;
	decode(c, hex, 1, with_walk, &p);
	if (strcmp(o.l1, p.l1) != 0) {
		note("byte by byte:\n%s", p.l1);
		ok(0, "%s: the same fed one byte at a time", what);
	}
}

/* ---- Example 5-1 (L8053-8122) as FORMAT.md "Worked files" gives it --------------- */

static const char example_5_1[] =
	"14 80 00 a0 00 80 03 80 03 10 "      /* @16-@24 the synchronising prefix */
	"07 01 07 01 07 01 07 01 "            /* @26-@32 rows 1-4 TD, TRACEPKT[0] = 1 */
	"00 01 "                              /* @34 row 5 IE (MOV) */
	"07 01 07 01 07 01 07 01 07 01 "      /* @36-@44 rows 6-10 */
	"01 11 "                              /* @46 row 11 ID LDRB: 0x11 */
	"07 01 07 01 07 01 07 01 07 01 "      /* @48-@56 */
	"01 11 03 22 "                        /* @58 ID LDRH 0x11, @60 WT 0x22 */
	"07 01 07 01 "                        /* @62, @64 */
	"03 11 03 22 03 33 03 44 "            /* @66-@72 early packets */
	"01 01 "                              /* @74 ID LDR: met by the early packets */
	"07 01 07 01 07 01 "                  /* @76-@80 */
	"00 01 "                              /* @82 IE NOP */
	"14 00 00 01 00 01";                  /* @84 BE|TRACESYNC 0x00; @86, @88 APO 0 */

static const char example_5_1_l1[] =
	"@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n"
	"@34 0 ie\n"
	"@46 1 id pkt=46 value=0x11 size=1\n"
	"@58 1 id pkt=58 value=0x2211 size=2\n"
	"@74 1 id pkt=66 value=0x44332211 size=4\n"
	"@82 0 ie\n"
	"@84 4 be pkt=84 addr=0x1000 isa=arm n=1 apo=0\n";

static struct tc_etmv1_config example_cfg(void)
{
	struct tc_etmv1_config c = base_cfg();   /* ETM1-S4 */
	c.cycle_accurate = 1;
	c.branch_output = 1;
	c.data_value = 1;
	return c;
}

static void test_example_5_1(void)
{
	struct tc_etmv1_config c = example_cfg();
	expect(&c, example_5_1, 1, example_5_1_l1, "Example 5-1 (L8053-8122): FORMAT.md's L1");
}

/* ---- The L1 text round trip -------------------------------------------------------- */

static void roundtrip_line(const char *line)
{
	struct tc_etmv1_record r;
	char err[128] = "", back[512];
	int p = tc_etmv1_parse_text(line, &r, err, sizeof err);
	tc_etmv1_format(back, sizeof back, &r);
	ok(p == 0 && strcmp(back, line) == 0, "L1 text round trip: %s%s%s", line, p ? " — " : "", p ? err : "");
}

static void test_text(void)
{
	static const char *const lines[] = {
		"@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0",
		"@34 0 ie", "@35 2 in",
		"@74 1 id pkt=66 value=0x44332211 size=4",
		"@40 1 id pkt=40 daddr=unknown value=0x1 size=4 value=0x2 size=4 lost=1",
		"@40 1 id pkt=42 daddr=0x20000",
		"@50 5 bd pkt=50 daddr=0x8000 value=0x8000 size=4 addr=0x8000 isa=thumb n=5 reason=0 j=0 apo=15",
		"@60 4 be pkt=62 addr=0x40 isa=jazelle n=5 reason=3 j=1 ctxid=0x1234 apo=- abandoned=1 lost=1",
		"@60 4 be apo=2",
		"@70 6 trigger", "@70 7 trace-disabled", "@72 3 unassigned n=7", "@74 - gap",
		"@0 0 error class=bad-header", "@76 4 error class=apo-mismatch", "@76 4 error class=too-many-pending",
		"@60 4 warning class=res0 field=arm-bit1 bits=0x2",
		"@60 4 warning class=ignored-field field=sync-nibble bits=0x10",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		roundtrip_line(lines[i]);
	static const char *const bad[] = {
		"@16 8 ie", "@16 0 xx", "@16 0 ie extra", "16 0 ie", "@16 4 be pkt=16 addr=0x1000 isa=arm n=6 apo=0",
		"@16 4 be apo=16", "@16 0 error class=none", "@16 4 be pkt=16 addr=0x1000 isa=x86 n=1 apo=0",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct tc_etmv1_record r;
		char err[128];
		ok(tc_etmv1_parse_text(bad[i], &r, err, sizeof err) == -1, "the parser refuses '%s'", bad[i]);
	}
	/* Writer then parser over every line Example 5-1 decodes to. */
	struct tc_etmv1_config c = example_cfg();
	struct out o;
	decode(&c, example_5_1, 0, 1, &o);
	char *save = NULL, copy[sizeof o.l1];
	memcpy(copy, o.l1, sizeof copy);
	int all = 1, n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save), n++) {
		struct tc_etmv1_record r;
		char err[128], back[512];
		all &= tc_etmv1_parse_text(l, &r, err, sizeof err) == 0 && tc_etmv1_format(back, sizeof back, &r) > 0 &&
		       strcmp(back, l) == 0;
	}
	ok(all && n == 7, "Example 5-1's seven L1 lines: written, parsed, written again the same");
}


/* ---- Each PIPESTAT of Table 5-1 (L7954-7972) ---------------------------------------- */

static void test_pipestats(void)
{
	struct tc_etmv1_config c = base_cfg();
	expect(&c, SYNC8
	       "00 00 "      /* @26 IE */
	       "02 00 "      /* @28 IN */
	       "01 00 "      /* @30 ID: no data traced, no demand */
	       "07 00 "      /* @32 TD: nothing (not cycle-accurate) */
	       "06 02 "      /* @34 TR, TRACEPKT[2:0] = b010: the replaced status IN */
	       "14 05 "      /* @36 BE|TRACESYNC, 0x05: A[6:0] = 0x05 into 0x1000: 0x1005, bit 0 Thumb */
	       "00 00 00 00 "  /* @38, @40 APO b000 b000 */
	       "15 7c "      /* @42 BD|TRACESYNC, 0x7c into 0x1005: 0x107c, ARM */
	       "00 00 00 00", 0,
	       SYNC8_L1 "@26 0 ie\n@28 2 in\n@30 1 id\n@34 6 trigger\n@34 2 in\n"
	       "@36 4 be pkt=36 addr=0x1004 isa=thumb n=1 apo=0\n@42 5 bd pkt=42 addr=0x107c isa=arm n=1 apo=0\n",
	       "Table 5-1: IE, IN, ID, TD, TR (replaced IN), BE, BD; WT in the prefix");
	expect(&c, SYNC8 "06 07 06 06", 0, SYNC8_L1 "@26 6 trigger\n@28 6 trigger\n",
	       "ETM1-P30: a trigger replacing TD or TR gives the trigger alone");
	c.cycle_accurate = 1;
	/* @26 TD [0]=0: trace-disabled; @28 the same run; @30 [0]=1 a wait; @32 a new run */
	expect(&c, SYNC8 "07 00 07 00 07 01 07 00", 0, SYNC8_L1 "@26 7 trace-disabled\n@32 7 trace-disabled\n",
	       "ETM1-P21: cycle-accurate, the first TD with TRACEPKT[0] = 0 of each run");
	c.cycle_accurate = 0;
	expect(&c, SYNC8 "07 00 07 00 07 01 07 00", 0, SYNC8_L1, "ETM1-P21: not cycle-accurate, TD gives nothing");
}

/* ---- Branch addresses: 1-5 packets, reason codes (§5.5.4, §5.5.5) ------------------- */

static void test_branch_addresses(void)
{
	struct tc_etmv1_config c = base_cfg();
	expect(&c, SYNC8
	       /* @26 0x80 A[6:0]=0; @28 APO, 0xa0 A[13:7]=0x20; @30 APO, 0x20 A[20:14]=0x20: 0x81000 (L8171:
		* A[19] changed, three packets) */
	       "14 80 00 a0 00 20 "
	       /* @32 0x82 A[6:0]=2 more; @34 APO 0x01 A[13:7]=1: low 14 bits 0x82 into 0x81000: 0x80082,
		* ARM with bit 1 set: res0 arm-bit1, 0x80080; @36 APO */
	       "14 82 00 01 00 00 "
	       /* @38 0x81 A[6:0]=1 Thumb; @40, @42 APO 0x80 0x80; @44 WT 0x01 A[27:21]=1: 0x200001 */
	       "14 81 00 80 00 80 03 01 "
	       /* @46-@54 five packets, fifth 0x30: reason b011, A[31:28]=0: 0x0 */
	       "14 80 00 80 00 80 03 80 03 30 "
	       /* @56-@64 the fifth 0xb0 before ETMv1.3: bit 7 ignored (addr5-bit7), reason b011 */
	       "14 80 00 80 00 80 03 80 03 b0", 0,
	       SYNC8_L1 "@26 4 be pkt=26 addr=0x81000 isa=arm n=3 apo=0\n"
	       "@32 4 be pkt=32 addr=0x80080 isa=arm n=2 apo=0\n@32 4 warning class=res0 field=arm-bit1 bits=0x2\n"
	       "@38 4 be pkt=38 addr=0x200000 isa=thumb n=4 apo=0\n"
	       "@46 4 be pkt=46 addr=0x0 isa=arm n=5 reason=3 apo=0\n"
	       "@56 4 be pkt=56 addr=0x0 isa=arm n=5 reason=3 apo=0\n"
	       "@56 4 warning class=ignored-field field=addr5-bit7 bits=0x80\n",
	       "branch addresses of 3, 2, 4 and 5 packets (ETM1-P14), arm-bit1, addr5-bit7");
	expect(&c, SYNC8 "14 80 00 80 00 80 03 80 03 50", 0, SYNC8_L1 "@26 4 error class=reserved-reason\n",
	       "Table 5-3: reason b101 is reserved-reason");
	expect(&c, SYNC8 "14 80 00 80 00 80 03 80 03 70", 0, SYNC8_L1 "@26 4 error class=reserved-reason\n",
	       "Table 5-3: reason b111 is reserved-reason");
	expect(&c, SYNC8 "14 80 00 80 00 80 03 80 03 40", 0, SYNC8_L1 "@26 4 error class=not-in-version\n",
	       "ETM1-P15: reason b100 in ETMv1.1 is not-in-version");
	c.version = 2;
	expect(&c, SYNC8 "14 80 00 80 00 80 03 80 03 40", 0,
	       SYNC8_L1 "@26 4 be pkt=26 addr=0x0 isa=arm n=5 reason=4 apo=0\n", "ETMv1.2: reason b100 periodic");
	c.version = 3;
	/* ETMv1.3: bit 7 of the fifth packet is J (ETM1-P23): 0x90 reason b001, J = 1, Jazelle */
	expect(&c, "14 80 00 a0 00 80 03 80 03 90", 0, "@16 4 be pkt=16 addr=0x1000 isa=jazelle n=5 reason=1 j=1 apo=0\n",
	       "ETMv1.3: j=1 and isa=jazelle");
	expect(&c, SYNC8, 0, "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 j=0 apo=0\n", "ETMv1.3: j=0");
}

/* ---- Context ID (§5.6.3 L8262-8268, ETM1-P16) ----------------------------------------- */

static void test_context_id(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.version = 2;
	c.contextid_size = 2;
	/* the prefix's reason b001: two Context ID bytes follow, least significant first: @26 0x34, @28 0x12;
	 * then @30-@38 a five-packet address with reason b000: none */
	expect(&c, SYNC8 "03 34 03 12 14 80 00 80 00 80 03 80 03 00", 0,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 ctxid=0x1234 apo=0\n"
	       "@30 4 be pkt=30 addr=0x0 isa=arm n=5 reason=0 apo=0\n",
	       "Context ID of 2 bytes after reason b001, none after b000");
	c.contextid_size = 4;
	expect(&c, SYNC8 "03 44 03 33 03 22 03 11", 0,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 ctxid=0x11223344 apo=0\n", "Context ID of 4 bytes");
	c.contextid_size = 1;
	expect(&c, SYNC8 "03 07", 0, "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 ctxid=0x7 apo=0\n",
	       "Context ID of 1 byte");
	expect(&c, SYNC8 "03 07 14 00", 0,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 ctxid=0x7 apo=0\n@28 4 error class=truncated\n",
	       "ETM1-P22: the end in a branch's APO cycles is truncated at the branch");
}

/* ---- Data addresses and values (§5.7.3, §5.7.5; Table 5-2) ----------------------------- */

static void test_data(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.data_address = 1;
	/* @26 ID 0x80, @28-@32 WT 0x80, @34 WT 0x02: five packets, A[31:28] = 2: 0x20000000 (ETM1-P13);
	 * @36 ID 0x04: one packet into it: 0x20000004 */
	expect(&c, SYNC8 "01 80 03 80 03 80 03 80 03 02 01 04", 0,
	       SYNC8_L1 "@26 1 id pkt=26 daddr=0x20000000\n@36 1 id pkt=36 daddr=0x20000004\n",
	       "data addresses: a full one, then a compressed one");
	expect(&c, SYNC8 "01 04", 0, SYNC8_L1 "@26 1 id pkt=26 daddr=unknown\n",
	       "ETM1-P13: a compressed data address before a full one is unknown");
	/* fifth packet 0x92: bits 6:4 = b001 (daddr-reason 0x10), bit 7 (daddr5-bit7) */
	expect(&c, SYNC8 "01 80 03 80 03 80 03 80 03 92", 0,
	       SYNC8_L1 "@26 1 id pkt=26 daddr=0x20000000\n"
	       "@26 1 warning class=ignored-field field=daddr-reason bits=0x10\n"
	       "@26 1 warning class=ignored-field field=daddr5-bit7 bits=0x80\n",
	       "a fifth data-address packet's reason bits and bit 7 are ignored with warnings");
	c.data_value = 1;
	/* BD (LDR pc, the walk's default 4 bytes): @26 daddr 0x05; @28 APO, value 0x11; @30 APO 0x22;
	 * @32 WT 0x33; @34 WT 0x44; @36 WT|TRACESYNC the branch address 0x00: 0x1000 */
	expect(&c, SYNC8 "05 05 00 11 00 22 03 33 03 44 13 00", 1,
	       SYNC8_L1 "@26 5 bd pkt=26 daddr=unknown value=0x44332211 size=4 addr=0x1000 isa=arm n=1 apo=0\n",
	       "ETM1-P11: a BD's data address, value, then branch address");
	c.data_address = 0;
	/* The walk's LDM of three registers at 0x3000 (prefix address A[13:7] = 0x60): 12 value bytes */
	expect(&c, "14 80 00 e0 00 80 03 80 03 10 01 01 03 00 03 00 03 00 03 02 03 00 03 00 03 00 03 03 03 00 03 00 03 00",
	       1, "@16 4 be pkt=16 addr=0x3000 isa=arm n=5 reason=1 apo=0\n"
	       "@26 1 id pkt=26 value=0x1 size=4 value=0x2 size=4 value=0x3 size=4\n",
	       "ETM1-P10: an LDM's values, one per transfer");
}

/* ---- Values of no bytes and a CPRT's missing address (ETM1-P51, ETM1-P52) ---------------- */

static void test_empty_values_cprt(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.data_address = 1;
	c.cprt = 1;
	/* trace on at 0x5000 (A[13:7] = 0x20, A[20:14] = 1); @26 ID on the MCR there: no data address
	 * (L7903), its word 0x44332211 on @26-@32 (ETM1-P12) */
	expect(&c, "14 80 00 a0 00 81 03 80 03 10 01 11 03 22 03 33 03 44", 1,
	       "@16 4 be pkt=16 addr=0x5000 isa=arm n=5 reason=1 apo=0\n@26 1 id pkt=26 value=0x44332211 size=4\n",
	       "ETM1-P52: with cprt=1 and data_address=1 a CPRT's ID has its value and no data address");
	/* trace on at 0x6000 (A[13:7] = 0x40): @26 ID, data address 0x05 (compressed before a full one:
	 * unknown, ETM1-P13), no value bytes owed; @28 IE carries nothing; @30 BE|TRACESYNC 0x00: 0x6000 */
	expect(&c, "14 80 00 c0 00 81 03 80 03 10 01 05 00 00 14 00 00 00 00 00", 1,
	       "@16 4 be pkt=16 addr=0x6000 isa=arm n=5 reason=1 apo=0\n@26 1 id pkt=26 daddr=unknown\n@28 0 ie\n"
	       "@30 4 be pkt=30 addr=0x6000 isa=arm n=1 apo=0\n",
	       "ETM1-P51: a value of no bytes is no demand: the IE after it carries no packet");
	expect(&c, "14 80 00 c0 00 81 03 80 03 10 01 05", 1,
	       "@16 4 be pkt=16 addr=0x6000 isa=arm n=5 reason=1 apo=0\n@26 1 id pkt=26 daddr=unknown\n",
	       "ETM1-P51: the end after a data address whose value has no bytes is not truncated");
	c.port_width = 16;
	/* 16-bit: @16 BE|TRACESYNC 0x80 0xc0; @19 APO 0x81 0x80; @22 APO 0x10; @25 BD at 0x6000: its data
	 * address 0x05 on [7:0], [15:8] 0xee not read (the next packet owed is the branch address's first,
	 * L8041); @28 APO|TRACESYNC 0x00: 0x6000, one packet; @31 APO */
	expect(&c, "14 80 c0 00 81 80 00 10 00 05 05 ee 10 00 00 00 00 00", 1,
	       "@16 4 be pkt=16 addr=0x6000 isa=arm n=5 reason=1 apo=0\n"
	       "@25 5 bd pkt=25 daddr=unknown addr=0x6000 isa=arm n=1 apo=0\n",
	       "ETM1-P51: 16-bit: after a BD's data address with no value bytes [15:8] is not read");
}

/* ---- Association (§5.3 L8016-8028, ETM1-P2, P3) and its errors ----------------------- */

static void test_association(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.data_value = 1;
	expect(&c, SYNC8 "03 11 00 00", 1, SYNC8_L1 "@26 3 error class=unowned-packets\n",
	       "ETM1-P3: an early packet followed by an IE is unowned-packets at the packet");
	expect(&c, SYNC8 "03 11", 1, SYNC8_L1 "@26 3 error class=unowned-packets\n",
	       "ETM1-P3: an early packet at the end of tracing is unowned-packets");
	expect(&c, SYNC8 "11 11", 1, SYNC8_L1 "@26 1 error class=apo-mismatch\n",
	       "ETM1-P28: TRACESYNC on a value packet is apo-mismatch");
	expect(&c, SYNC8 "04 00", 1, SYNC8_L1 "@26 4 error class=apo-mismatch\n",
	       "ETM1-P28: a branch address's first packet without TRACESYNC is apo-mismatch");
	expect(&c, SYNC8 "01 11 03 22", 1, SYNC8_L1 "@26 1 error class=truncated\n",
	       "ETM1-P22: the end with a demand open (2 of 4 bytes) is truncated at the ID");
	/* ID at 0x2000 is an LDC in the walk (prefix A[13:7] = 0x40) */
	expect(&c, "14 80 00 c0 00 80 03 80 03 10 01 11", 1,
	       "@16 4 be pkt=16 addr=0x2000 isa=arm n=5 reason=1 apo=0\n@26 1 error class=unknown-length\n",
	       "ETM1-P10: an LDC's value is unknown-length");
	/* no image at 0x4000 (prefix A[20:14] = 1): the ID without values, then the packets up to the next
	 * TRACESYNC (@26 0x11, @28 0x22; @30 has it) as unassigned n=2 */
	expect(&c, "14 80 00 80 00 81 03 80 03 10 01 11 03 22 13 05", 1,
	       "@16 4 be pkt=16 addr=0x4000 isa=arm n=5 reason=1 apo=0\n@26 1 id\n@26 1 unassigned n=2\n",
	       "ETM1-P10: no image: the ID, then unassigned up to the next TRACESYNC");
	/* the same with a bad record (@30 0x7f: reserved status bits) inside the run: the packets before it
	 * (@26, @28) are reported first, the error, then the part after it (@32 0x33) at the TRACESYNC (@34):
	 * L1 items stay in offset order (ETM1-P39) */
	expect(&c, "14 80 00 80 00 81 03 80 03 10 01 11 03 22 7f 7f 03 33 13 05", 1,
	       "@16 4 be pkt=16 addr=0x4000 isa=arm n=5 reason=1 apo=0\n@26 1 id\n@26 1 unassigned n=2\n"
	       "@30 0 error class=bad-record\n@32 3 unassigned n=1\n",
	       "ETM1-P39: an error inside an unassigned run ends its first part");
	/* ETM1-P53: @26 WT 0x11 is early (no demand open), @28 the ID at 0x4000 (no image) takes it: the
	 * run counts from @26 every cycle neither TD nor TR up to the TRACESYNC at @32 (@26, @28, @30:
	 * ETM1-P32), at the ID's record, the last item written (ETM1-P39) */
	expect(&c, "14 80 00 80 00 81 03 80 03 10 03 11 01 22 03 33 13 05", 1,
	       "@16 4 be pkt=16 addr=0x4000 isa=arm n=5 reason=1 apo=0\n@28 1 id\n@28 1 unassigned n=3\n",
	       "ETM1-P53: a run begun by an early packet counts its ID's own cycle");
	/* two early packets (@26, @28), the ID at @30, WT @32, TRACESYNC @34: n=4, both held ones counted */
	expect(&c, "14 80 00 80 00 81 03 80 03 10 03 11 03 22 01 33 03 44 13 05", 1,
	       "@16 4 be pkt=16 addr=0x4000 isa=arm n=5 reason=1 apo=0\n@30 1 id\n@30 1 unassigned n=4\n",
	       "ETM1-P53: every early packet held is counted in the run");
	/* a held packet with TRACESYNC (@28 WT | TRACESYNC) ends the run there: @26 alone, n=1, at the ID's
	 * record; the ID's cycle (@30) and the WT after it (@32) are not counted (ETM1-P32) */
	expect(&c, "14 80 00 80 00 81 03 80 03 10 03 11 13 22 01 33 03 44", 1,
	       "@16 4 be pkt=16 addr=0x4000 isa=arm n=5 reason=1 apo=0\n@30 1 id\n@30 1 unassigned n=1\n",
	       "ETM1-P53: a held packet with TRACESYNC ends the run");
	expect(&c, SYNC8 "01 11", 0, SYNC8_L1 "@26 1 id\n",
	       "ETM1-P10: no walk at all: the ID without values (the end comes before any TRACESYNC)");
	/* 1025 early packets: the 1025th is too-many-pending (ETM1-P29), at @26 + 1024 x 2 */
	char many[1025 * 6 + 64] = SYNC8;
	for (int i = 0; i < 1025; i++)
		strcat(many, "03 11 ");
	expect(&c, many, 1, SYNC8_L1 "@2074 3 error class=too-many-pending\n",
	       "ETM1-P29: more than 1024 packets held is too-many-pending");
	/* 1024 items waiting behind an ID owed 3 bytes: cycle-accurate, each "07 00 07 01" pair makes one
	 * trace-disabled item (a run of one TD with TRACEPKT[0] = 0, then a wait). The ID is item 1; the
	 * 1024th trace-disabled (at @28 + 1023 x 4 = @4120) would be the 1025th: too-many-pending. */
	static char queue[1024 * 12 + 64];
	strcpy(queue, SYNC8 "01 11 ");
	for (int i = 0; i < 1024; i++)
		strcat(queue, "07 00 07 01 ");
	c.cycle_accurate = 1;
	expect(&c, queue, 1, SYNC8_L1 "@4120 7 error class=too-many-pending\n",
	       "ETM1-P29: more than 1024 items waiting is too-many-pending");
	/* Items wait for an earlier one (FORMAT.md "L1"): @26 ID owed 4 bytes (0x11 now); @28 TD
	 * trace-disabled, complete but after the ID; @30-@34 WT the other three bytes */
	expect(&c, SYNC8 "01 11 07 00 03 22 03 33 03 44", 1,
	       SYNC8_L1 "@26 1 id pkt=26 value=0x44332211 size=4\n@28 7 trace-disabled\n",
	       "items are written in cycle order, each once complete");
	c.cycle_accurate = 0;
	/* Early packets for a BD (ETM1-P3): @26-@32 WT 0x11 0x22 0x33 0x44 with no demand open; @34 BD
	 * takes them as its value, then its own cycle carries the address 0x00 with TRACESYNC */
	expect(&c, SYNC8 "03 11 03 22 03 33 03 44 15 00 00 00 00 00", 1,
	       SYNC8_L1 "@34 5 bd pkt=26 value=0x44332211 size=4 addr=0x1000 isa=arm n=1 apo=0\n",
	       "ETM1-P3: early packets meet a BD's value first");
}

/* ---- APO (§5.6.1 L8227-8243, ETM1-P6…P9, P19) ------------------------------------------- */

static void test_apo(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.data_value = 1;
	/* @26 ID (4 bytes) 0x11; @28 BE1, 0x22 (the ID's); @30, @32 its APO b000 b000 with 0x33, 0x44;
	 * @34 BE2: the decoder counts one address ahead (BE1's); the cycle carries BE1's address 0x00
	 * (TRACESYNC); @36 APO b001|TRACESYNC: BE2's address 0x04; @38 APO b000: APO 1, as counted */
	const char *two = SYNC8 "01 11 04 22 00 33 00 44 14 00 11 04 00 00";
	expect(&c, two, 1,
	       SYNC8_L1 "@26 1 id pkt=26 value=0x44332211 size=4\n@28 4 be pkt=34 addr=0x1000 isa=arm n=1 apo=0\n"
	       "@34 4 be pkt=36 addr=0x1004 isa=arm n=1 apo=1\n", "ETM1-P8: an APO of 1 that agrees");
	expect(&c, SYNC8 "01 11 04 22 00 33 00 44 14 00 10 04 00 00", 1,
	       SYNC8_L1 "@26 1 id pkt=26 value=0x44332211 size=4\n@28 4 be pkt=34 addr=0x1000 isa=arm n=1 apo=0\n"
	       "@34 4 error class=apo-mismatch\n", "ETM1-P8: an APO of 0 where the decoder counts 1 is apo-mismatch");
	expect(&c, SYNC8 "14 00 07 00", 0, SYNC8_L1 "@28 7 error class=bad-apo\n", "ETM1-P6: TD in an APO cycle is bad-apo");
	/* @26 BE1 0x00; @28 BE2 in BE1's first APO cycle: BE1 abandoned (apo=-), BE2's address 0x04 on
	 * its own cycle; @30 @32 BE2's APO 0 */
	expect(&c, SYNC8 "14 00 14 04 00 00 00 00", 0,
	       SYNC8_L1 "@26 4 be pkt=26 addr=0x1000 isa=arm n=1 apo=- abandoned=1\n@28 4 be pkt=28 addr=0x1004 isa=arm n=1 apo=0\n",
	       "ETM1-P19: a BE in an APO cycle abandons the branch");
	/* @28 TR in the APO cycle: the APO bits on TRACEPKT[1:0] = b00 (ETM1-P6, L8243) */
	expect(&c, SYNC8 "14 00 06 00 00 00", 0,
	       SYNC8_L1 "@26 4 be pkt=26 addr=0x1000 isa=arm n=1 apo=0\n@28 6 trigger\n",
	       "L8243: a trigger in an APO cycle carries the APO bits on TRACEPKT");
	/* Overflow (ETM1-P18): @26 ID 0x11 (1 of 4); @28 BE with TRACESYNC while the ID is owed: a
	 * five-packet address with reason b010 closes the ID as lost */
	expect(&c, SYNC8 "01 11 14 80 00 80 00 80 03 80 03 20", 1,
	       SYNC8_L1 "@26 1 id pkt=26 value=0x11 size=4 lost=1\n@28 4 be pkt=28 addr=0x0 isa=arm n=5 reason=2 apo=0\n",
	       "ETM1-P18: a restart after overflow closes the open demand as lost");
	expect(&c, SYNC8 "01 11 14 80 00 80 00 80 03 80 03 00", 1, SYNC8_L1 "@28 4 error class=apo-mismatch\n",
	       "ETM1-P28: an address read ahead of an open demand without reason b010 is apo-mismatch");
}

/* ---- Synchronisation (ETM1-P7, P9) ------------------------------------------------------- */

static void test_sync(void)
{
	struct tc_etmv1_config c = base_cfg();
	expect(&c, "06 00 00 00 " SYNC8, 0, "@16 6 trigger\n@20 4 be pkt=20 addr=0x1000 isa=arm n=5 reason=1 apo=0\n",
	       "ETM1-P9: before synchronisation only the trigger; then the branch");
	expect(&c, "14 80 03 80 03 80 03 80 03 10", 0, "", "ETM1-P7: an APO of 15 gives no sync and no error");
	expect(&c, "14 05 00 00 00 00", 0, "", "ETM1-P9: a branch whose address has one packet does not synchronise");
	/* Walkthrough "An APO of 1": @16 BE (candidate), its APO b001 b000 = 1 at @18 @20; @22 WT|TRACESYNC
	 * a one-packet address (another branch's, skipped); @24 WT|TRACESYNC the five packets @24-@32 */
	expect(&c, "04 00 01 00 00 00 13 00 13 80 03 a0 03 80 03 80 03 10", 0,
	       "@16 4 be pkt=24 addr=0x1000 isa=arm n=5 reason=1 apo=1\n",
	       "ETM1-P7: an APO of 1 skips one TRACESYNC; the decoder joins at its branch");
}

/* ---- Ports: 4 and 16 bits (§5.2, §5.3.1, ETM1-P4, P5) ----------------------------------- */

static void test_ports(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.port_width = 4;
	/* 0x80 0xa0 0x80 0x80 0x10 as nibbles, low first: BE|TRACESYNC 0, APO 8, APO 0, WT a, 0 8, 0 8, 0 1 */
	const char *sync4 = "14 00 00 08 00 00 03 0a 03 00 03 08 03 00 03 08 03 00 03 01 ";
	expect(&c, sync4, 0, "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n", "4-bit port: the five-packet address");
	char s[256];
	snprintf(s, sizeof s, "%s14 05 10 00 00 00", sync4);
	/* @36 BE|TRACESYNC nibble 5; @38 APO b000 with TRACESYNC on the second nibble 0: 0x05 (sync-nibble) */
	expect(&c, s, 0, "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@36 4 be pkt=36 addr=0x1004 isa=thumb n=1 apo=0\n"
	       "@36 4 warning class=ignored-field field=sync-nibble bits=0x10\n", "ETM1-P5: TRACESYNC on a second nibble is ignored");
	snprintf(s, sizeof s, "%s14 05", sync4);
	expect(&c, s, 0, "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@36 4 error class=truncated\n",
	       "ETM1-P22: the end inside a nibble pair is truncated at the branch");
	/* ETM1-P50: @36 BE0|TRACESYNC, a five-packet address 0x80 0xa0 0x80 0x80 0x00 (0x1000, reason
	 * b000) as nibbles 0 8 0 a 0 8 0 8 0 0 on @36-@54; @38 @40 its APO b000 b000; @42 BE1 (BE0's
	 * address started at @36: APO 0, @44 @46 b000 b000); @48-@56 IE; @56 IE|TRACESYNC: BE1's 0x04,
	 * low nibble; @58 BE2 with its high nibble: BE1's TRACESYNC came at @56, before BE2's cycle, so
	 * BE2's own address is the next: APO 0 (@60 b000|TRACESYNC with BE2's 0x08, @62 b000) */
	snprintf(s, sizeof s, "%s14 00 00 08 00 00 04 0a 00 00 00 08 00 00 00 08 00 00 00 00 10 04 04 00 10 08 00 00",
		 sync4);
	expect(&c, s, 0,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@36 4 be pkt=36 addr=0x1000 isa=arm n=5 reason=0 apo=0\n"
	       "@42 4 be pkt=56 addr=0x1004 isa=arm n=1 apo=0\n@48 0 ie\n@50 0 ie\n@52 0 ie\n@54 0 ie\n@56 0 ie\n"
	       "@58 4 be pkt=60 addr=0x1008 isa=arm n=1 apo=0\n",
	       "ETM1-P50: 4-bit: a TRACESYNC nibble before the branch's cycle is not counted in its APO");
	c.port_width = 16;
	c.data_value = 1;
	/* @16 BE|TRACESYNC 0x80 0xa0; @19 APO 0x80 0x80; @22 APO 0x10 (fifth; [15:8] not read); @25, @28 IE
	 * (the walk: 0x1004, 0x1008); @31 ID LDRH at 0x1008: 0x11 0x22 on its own cycle (ETM1-P4) */
	expect(&c, "14 80 a0 00 80 80 00 10 00 00 00 00 00 00 00 01 11 22", 1,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@25 0 ie\n@28 0 ie\n@31 1 id pkt=31 value=0x2211 size=2\n",
	       "16-bit port: two packets a cycle; FORMAT.md's LDRH fragment");
	c.data_value = 0;
	/* @25 BE|TRACESYNC [7:0] 0x00: one packet, 0x1000; [15:8] not read (the demand is met); @28, @31
	 * its APO b000 b000; @34 WT with no demand: [7:0] 0x77 and [15:8] 0x88 are early (ETM1-P3, P4);
	 * @37 IN: unowned-packets at @34 */
	expect(&c, "14 80 a0 00 80 80 00 10 00 14 00 00 00 00 00 00 00 00 03 77 88 02 00 00", 0,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@25 4 be pkt=25 addr=0x1000 isa=arm n=1 apo=0\n"
	       "@34 3 error class=unowned-packets\n", "16-bit: a WT's two bytes with no demand are early (ETM1-P3)");
	/* @25 BE|TRACESYNC [7:0] 0x80 (more), [15:8] 0x00 the second packet (the demand is open and the
	 * next packet is not an address's first): A[13:0] = 0 into 0x1000: 0x0, two packets; @28 @31 APO */
	expect(&c, "14 80 a0 00 80 80 00 10 00 14 80 00 00 00 00 00 00 00", 0,
	       "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@25 4 be pkt=25 addr=0x0 isa=arm n=2 apo=0\n",
	       "16-bit: a branch address's second packet on [15:8]");
}

/* ---- The file's errors ----------------------------------------------------------------- */

static void test_file_errors(void)
{
	struct tc_etmv1_config c = base_cfg();
	expect(&c, SYNC8 "28 00", 0, SYNC8_L1 "@26 0 error class=bad-record\n", "ETMC-F5: status bit 5 is bad-record");
	expect(&c, SYNC8 "14 80 80 00", 0, SYNC8_L1 "@26 4 error class=truncated\n@28 - gap\n",
	       "ETMC-F4: a gap record inside an address: truncated at the branch, then the gap");
	expect(&c, SYNC8 "00", 0, SYNC8_L1 "@26 0 error class=truncated\n", "a partial record is truncated at it");
	struct tc_etmv1_config other = c;
	other.version = 2;
	struct out o;
	static uint8_t buf[64];
	size_t n = build(&c, SYNC8, buf, sizeof buf);
	struct tc_etmv1_sink sink = { &o, on_item };
	memset(&o, 0, sizeof o);
	struct tc_etmv1_decoder *d = tc_etmv1_alloc(&other, &sink, NULL);
	tc_etmv1_feed(d, buf, n);
	tc_etmv1_finish(d);
	ok(strcmp(o.l1, "@0 0 error class=bad-header\n") == 0, "a header that disagrees with the version key is bad-header");
	ok(tc_etmv1_feed(d, buf, 1) == tc_etmv1_finished && tc_etmv1_finish(d) == tc_etmv1_finished &&
	   tc_etmv1_feed(NULL, buf, 1) == tc_etmv1_invalid, "feed and finish after finish; a NULL decoder");
	tc_etmv1_free(d);
	tc_etmv1_free(NULL);
	ok(tc_etmv1_finish(NULL) == tc_etmv1_invalid, "free(NULL) is harmless; finish(NULL) is invalid");
	memset(&o, 0, sizeof o);
	d = tc_etmv1_alloc(&c, &sink, NULL);
	tc_etmv1_feed(d, buf, 10);
	tc_etmv1_finish(d);
	tc_etmv1_free(d);
	ok(strcmp(o.l1, "@0 0 error class=bad-header\n") == 0, "a 10-byte file is bad-header");
	memset(&o, 0, sizeof o);
	d = tc_etmv1_alloc(&c, &sink, NULL);
	tc_etmv1_feed(d, buf, 0);
	tc_etmv1_finish(d);
	tc_etmv1_free(d);
	ok(o.l1[0] == 0, "ETMC-F9: a file of no bytes gives no item");
	struct tc_etmv1_config bad = c;
	bad.contextid_size = 2;
	ok(tc_etmv1_alloc(&bad, &sink, NULL) == NULL && tc_etmv1_config_check(&bad, NULL, 0) == -1,
	   "ETM1-P1: contextid_size in ETMv1.1 is refused");
	bad = c;
	bad.version = 2;
	bad.half_rate = 1;
	bad.port_mode = 1;
	ok(tc_etmv1_config_check(&bad, NULL, 0) == -1, "half_rate=1 with port_mode=1 is refused");
	bad.port_mode = 2;
	ok(tc_etmv1_config_check(&bad, NULL, 0) == 0, "half_rate=1 with port_mode=2 is allowed (ETMv1.2)");
	bad.port_width = 12;
	ok(tc_etmv1_config_check(&bad, NULL, 0) == -1, "port_width 12 is refused");

	/* A caller's walk without callbacks (tracecert/etmv1.h: retire and transfers may be NULL) is
	 * no walk: an IE and an ID with data_value=1 give what they give with none (the ID's value
	 * has no length: ETM1-P10's no-image case), and nothing is called. */
	struct tc_etmv1_config dv = c;
	dv.data_value = 1;
	const char *ie_id = SYNC8 "00 00 01 11 03 22 13 80";
	struct out none, nulls;
	decode(&dv, ie_id, 0, 0, &none);
	n = build(&dv, ie_id, buf, sizeof buf);
	struct tc_etmv1_walk empty = { NULL, NULL, NULL };
	memset(&nulls, 0, sizeof nulls);
	sink.ctx = &nulls;
	d = tc_etmv1_alloc(&dv, &sink, &empty);
	tc_etmv1_feed(d, buf, n);
	tc_etmv1_finish(d);
	tc_etmv1_free(d);
	ok(none.l1[0] && strcmp(none.l1, nulls.l1) == 0, "a walk with NULL callbacks decodes as no walk");
}

/* ---- The registers (CONFIG.md "Registers", "Worked values") ---------------------------- */

static void test_registers(void)
{
	uint32_t regs[tc_etmv1_reg_count] = { 0x0000d01c, 0x20000000 };
	uint64_t v[TC_ETMV1_NKEYS];
	uint32_t derived = 0;
	char err[160] = "";
	memset(v, 0, sizeof v);
	int r = tc_etmv1_config_derive(regs, 3, v, &derived, NULL, err, sizeof err);
	/* keys in CONFIG.md's order: version, port_width, port_mode, half_rate, contextid_size,
	 * data_address, data_value, cprt, cycle_accurate, branch_output (hivecs, abandoned_discard: none) */
	static const uint64_t want[10] = { 2, 8, 0, 0, 4, 1, 1, 0, 1, 0 };
	int good = r == 0 && derived == 0x3ff;
	for (int k = 0; k < 10; k++)
		good &= v[k] == want[k];
	ok(good, "ETMCR 0x0000d01c, ETMCCR 0x20000000: CONFIG.md's worked values");
	regs[1] = 0x40000000;   /* [30:28] b100, ETM7 Rev 1a: ETMv1.2 (L926) */
	ok(tc_etmv1_config_derive(regs, 2, v, &derived, NULL, err, sizeof err) == 0 && v[0] == 2 && derived == 1,
	   "ETMCCR protocol 4 is version 2");
	regs[1] = 0x60000000;
	ok(tc_etmv1_config_derive(regs, 2, v, &derived, NULL, err, sizeof err) == -1, "ETMCCR protocol 6 refused: %s", err);
	regs[1] = 0x80000000;
	ok(tc_etmv1_config_derive(regs, 2, v, &derived, NULL, err, sizeof err) == -1, "ETMCCR[31] = 1 refused: %s", err);
	regs[0] = 0x30;
	ok(tc_etmv1_config_derive(regs, 1, v, &derived, NULL, err, sizeof err) == -1, "ETMCR port size b011 refused: %s", err);
	regs[0] = 0x30000;
	ok(tc_etmv1_config_derive(regs, 1, v, &derived, NULL, err, sizeof err) == -1, "ETMCR port mode b11 refused: %s", err);
	struct tc_etmv1_config c = base_cfg();
	c.version = 3;
	c.port_width = 16;
	c.contextid_size = 2;
	c.cprt = c.branch_output = c.half_rate = 1;
	c.port_mode = 2;
	uint32_t back[tc_etmv1_reg_count];
	tc_etmv1_config_to_regs(&c, back);
	/* [1] cprt, [6:4] b010, [8], [13], [15:14] b10, [17:16] b10; ETMCCR [30:28] 3 */
	ok(back[0] == (0x2u | 0x20u | 0x100u | 0x2000u | 0x8000u | 0x20000u) && back[1] == 0x30000000u,
	   "config_to_regs: ETMCR 0x%x ETMCCR 0x%x", back[0], back[1]);
}

int main(void)
{
	test_example_5_1();
	test_text();
	test_pipestats();
	test_branch_addresses();
	test_context_id();
	test_data();
	test_association();
	test_empty_values_cprt();
	test_apo();
	test_sync();
	test_ports();
	test_file_errors();
	test_registers();
	return tap_finish();
}
