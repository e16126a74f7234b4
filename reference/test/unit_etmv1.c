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
 * 0x3000 an LDM of three registers (3 x 4), 0x4000 has no image. */
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

int main(void)
{
	test_example_5_1();
	test_text();
	return tap_finish();
}
