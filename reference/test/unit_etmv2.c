/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_etmv2.c — unit tests of the ETMv2 reference decoder at L1 (reference/etmv2/), through its
 * public API; prints TAP.
 *
 * Every stream is a sample file (reference/etmv1/FORMAT.md "Sample file"): a 16-byte header, then
 * records written here as hex pairs "status TRACEPKT" (a third byte, TRACEPKT[15:8], on a 16-bit
 * port). Expected lines are FORMAT.md's worked file of Table 6-5 (IHI 0014 L8933-8959, ERRATA
 * "Walkthroughs"), Example 6-1 (L8893-8901), the rows of Table 6-4 (L8869-8881), or the hand
 * reasoning written beside each case, record by record. Most cases start with a synchronising
 * prefix: a TFO of value 0 (TRACEPKT 0x09: [7:4] = TFO[3:0] = 0, [3] = !TFO[6] = 1, [2:1] = 0,
 * [0] = 1; L8887-8889) whose TFO packet follows at once: header 0x20 (b0 01 00000: normal, reason
 * b01 tracing enabled, Table 6-6, 6-7), the address 0x00008000 least significant byte first
 * (ETM2-P12), bit 0 = 0: ARM. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/etmv2.h"
#include "tracecert/etmv2_config.h"

/* 8-bit: @16 TD 0x09 (TFO 0), @18-@26 WT: 20 00 80 00 00. Next record @28. */
#define SYNC8 "07 09 04 20 04 00 04 80 04 00 04 00 "
#define SYNC8_L1 "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n"
/* 8-bit, contextid_size=4: the packet's Context ID 0x11223344 before the address (§6.5.4). Next @36. */
#define SYNC8C "07 09 04 20 04 44 04 33 04 22 04 11 04 00 04 80 04 00 04 00 "
#define SYNC8C_L1 "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 ctxid=0x11223344 addr=0x8000 isa=arm\n"
/* 4-bit: @16 TD b1001 (TFO[6:4] = 0), @18 WT TFO[3:0] = 0: TFO 0; @20-@38 the packet's nibbles, low
 * first: 0,2 0,0 0,8 0,0 0,0. Next @40. */
#define SYNC4 "07 09 04 00 04 00 04 02 04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00 "
#define SYNC4_L1 "@16 7 tfo value=0 pkt=20\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n"
/* 16-bit (3-byte records): @16 TD (TRACEPKT[15:8] not read, ETM2-P19); @19 WT 20 00; @22 WT 80 00;
 * @25 WT 00, then the idle byte 0x66 (L8586). Next @28. */
#define SYNC16 "07 09 00 04 20 00 04 80 00 04 00 66 "
#define SYNC16_L1 "@16 7 tfo value=0 pkt=19\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n"

struct out {
	char l1[65536];
	int n;
};

static void on_item(void *ctx, const struct tc_etmv2_record *r)
{
	struct out *o = ctx;
	char buf[512];
	size_t len = strlen(o->l1);
	tc_etmv2_format(buf, sizeof buf, r);
	snprintf(o->l1 + len, sizeof o->l1 - len, "%s\n", buf);
	o->n++;
}

static struct tc_etmv2_config base_cfg(int width)
{
	struct tc_etmv2_config c;
	tc_etmv2_config_default(&c);
	c.port_width = (uint8_t)width;
	return c;
}

/* The header of cfg, then the records of hex. */
static size_t build(const struct tc_etmv2_config *c, const char *hex, uint8_t *buf, size_t cap)
{
	const uint8_t h[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 2, c->version, c->port_width, c->port_mode, c->half_rate };
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

static void decode_bytes(const struct tc_etmv2_config *c, const uint8_t *buf, size_t n, size_t piece, struct out *o)
{
	struct tc_etmv2_sink sink = { o, on_item };
	memset(o, 0, sizeof *o);
	struct tc_etmv2_decoder *d = tc_etmv2_alloc(c, &sink);
	if (!d) {
		snprintf(o->l1, sizeof o->l1, "(alloc failed)\n");
		return;
	}
	if (!piece)
		piece = n;
	for (size_t at = 0; at < n; at += piece)
		tc_etmv2_feed(d, buf + at, n - at < piece ? n - at : piece);
	tc_etmv2_finish(d);
	tc_etmv2_free(d);
}

static void decode(const struct tc_etmv2_config *c, const char *hex, size_t piece, struct out *o)
{
	static uint8_t buf[65536];
	size_t n = build(c, hex, buf, sizeof buf);
	decode_bytes(c, buf, n, piece, o);
}

/* The whole file at once, then one byte at a time: the same lines. */
static void expect(const struct tc_etmv2_config *c, const char *hex, const char *want, const char *what)
{
	static struct out o, p;
	decode(c, hex, 0, &o);
	int good = strcmp(o.l1, want) == 0;
	if (!good) {
		note("want:\n%s", want);
		note("got:\n%s", o.l1);
	}
	ok(good, "%s", what);
	decode(c, hex, 1, &p);
	if (strcmp(o.l1, p.l1) != 0) {
		note("byte by byte:\n%s", p.l1);
		ok(0, "%s: the same fed one byte at a time", what);
	}
}

/* ---- Table 6-5 (L8933-8959) as FORMAT.md "Worked files" gives it ------------------ */

/* The rows of Table 6-5 (L8937-8952; ERRATA ETM2-S2: the first row is DE), then the TFO packet and
 * the DN's group FORMAT.md adds. */
static const char table_6_5[] =
	"01 0d "            /* @16 DE: nibble 0xD (low nibble of 0xCD); unsynchronised, not parsed */
	"00 0c "            /* @18 IE: 0xC */
	"04 0b "            /* @20 WT: 0xB (low nibble of 0xAB) */
	"07 09 "            /* @22 TD (originally IE), b1001: TFO[6] = 0, TFO[5:4] = 0 */
	"00 01 "            /* @24 IE; TFO[3:0] = 1: TFO 1 */
	"04 06 "            /* @26 WT: the gap nibble */
	"02 0a "            /* @28 IN: 0xA, the one byte before the TFO packet */
	"03 00 04 00 "      /* @30 DN, @32 WT: TFO header 0x00 (normal, reason b00) */
	"04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00 " /* @34-@48 address 0x00008000 */
	"04 02 04 00 "      /* @50, @52: the DN's group: Normal data 0x02, C = 0, A = 0, SS = 00 */
	"07 00";            /* @54 TD, TRACEPKT[0] = 0 */

static const char table_6_5_l1[] =
	"@22 7 tfo value=1 pkt=30 implied=ie\n"
	"@22 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=arm\n"
	"@24 0 ie\n"
	"@28 2 in\n"
	"@30 3 dn pkt=50\n"
	"@30 3 +data a=0 value=0x0 size=0\n";

static void test_table_6_5(void)
{
	struct tc_etmv2_config c = base_cfg(4);
	c.data_value = 1;
	expect(&c, table_6_5, table_6_5_l1, "Table 6-5 (L8933-8959): FORMAT.md's worked file, joining at the TFO");

	/* Synchronised (ERRATA ETM2-S12): Table 6-5's sequence with a group the decoder can read (0xABCD is no group:
	 * 0xCD, bit 0 = 1, would open a branch address that 0xAB, bit 7 = 1, continues): the DE places
	 * Normal data 0x06 (C = 0, A = 0, SS = b01) with the value 0xAB. @40 DE 0x6, @42 IE 0x0 (0x06
	 * complete), @44 WT 0xB, @46 TD b1001 with one nibble held, @48 IE TFO[3:0] = 1: TFO 1, @50 WT
	 * the gap nibble, @52 IN 0xA (0xAB complete: the one byte the TFO counts, L8951), @54-@72 the
	 * TFO packet (header 0x00, 0x8000), @74, @76 the DN's group 0x02. */
	static const char synced[] = SYNC4
		"01 06 00 00 04 0b 07 09 00 01 04 06 02 0a 03 00 04 00 "
		"04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00 04 02 04 00";
	static const char synced_l1[] = SYNC4_L1
		"@40 1 de pkt=40\n@40 1 +data a=0 value=0xab size=1\n"
		"@42 0 ie\n"
		"@46 7 tfo value=1 pkt=54 implied=ie\n@46 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=arm\n"
		"@48 0 ie\n@52 2 in\n@54 3 dn pkt=74\n@54 3 +data a=0 value=0x0 size=0\n";
	expect(&c, synced, synced_l1, "Table 6-5 synchronised: TFO 1 agrees with the one byte unread (ETM2-P10)");

	/* The same with the gap nibble 0x5 at @50 (L8929 "always 0x6"): read as the gap nibble, warned. */
	static const char badgap[] = SYNC4
		"01 06 00 00 04 0b 07 09 00 01 04 05 02 0a 03 00 04 00 "
		"04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00 04 02 04 00";
	static const char badgap_l1[] = SYNC4_L1
		"@40 1 de pkt=40\n@40 1 +data a=0 value=0xab size=1\n"
		"@42 0 ie\n"
		"@46 7 tfo value=1 pkt=54 implied=ie\n@46 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=arm\n"
		"@46 7 warning class=ignored-field field=gap-nibble bits=0x5\n"
		"@48 0 ie\n@52 2 in\n@54 3 dn pkt=74\n@54 3 +data a=0 value=0x0 size=0\n";
	expect(&c, badgap, badgap_l1, "a gap nibble other than 0x6: warning gap-nibble (FORMAT.md \"Warnings\")");

	/* "Trigger considerations" (L8915-8919): a TR on the second TFO nibble's cycle (@48, replaced
	 * IE) and one on the gap nibble's (@52, replaced WT): the nibble comes on the next cycle. */
	static const char trig[] = SYNC4
		"01 06 00 00 04 0b 07 09 06 00 00 01 06 04 04 06 02 0a 03 00 04 00 "
		"04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00 04 02 04 00";
	static const char trig_l1[] = SYNC4_L1
		"@40 1 de pkt=40\n@40 1 +data a=0 value=0xab size=1\n"
		"@42 0 ie\n"
		"@46 7 tfo value=1 pkt=58 implied=ie\n@46 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=arm\n"
		"@48 6 trigger\n@48 0 ie\n@50 0 ie\n@52 6 trigger\n@56 2 in\n@58 3 dn pkt=78\n"
		"@58 3 +data a=0 value=0x0 size=0\n";
	expect(&c, trig, trig_l1, "triggers on a TFO's second nibble and on its gap nibble (L8917-8919, ETM2-P11)");

	/* A TFO whose count misses an unread byte: @40 DE 0x6, @42 IE 0x0 (header 0x06: a value byte is
	 * owed), @44 TD b1001 with no nibble held, @46 IE TFO 0; @48, @50 0x20 completes the DE's value,
	 * so the TFO header at @52-@54 comes one byte after the count: tfo-mismatch at the TFO. */
	static const char even[] = SYNC4
		"01 06 00 00 07 09 00 00 04 00 04 02 04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00";
	expect(&c, even, SYNC4_L1 "@40 1 de pkt=40\n@40 1 +data a=0 value=0x20 size=1\n@42 0 ie\n@44 7 error class=tfo-mismatch\n",
	       "a TFO value that disagrees with the bytes unread: tfo-mismatch (ETM2-P10)");
	/* L8959: a TFO on an even nibble has no gap nibble. @40 DE 0x2, @42 IE 0x0 (Normal data, SS = 0:
	 * complete), @44 TD b1001, @46 IE TFO 0, then the packet at once. */
	static const char even_ok[] = SYNC4
		"01 02 00 00 07 09 00 00 04 00 04 02 04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00";
	static const char even_ok_l1[] = SYNC4_L1
		"@40 1 de pkt=40\n@40 1 +data a=0 value=0x0 size=0\n"
		"@42 0 ie\n"
		"@44 7 tfo value=0 pkt=48\n@44 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n"
		"@46 0 ie\n";
	expect(&c, even_ok, even_ok_l1, "a TFO on an even nibble: no gap nibble (L8959)");
}

/* ---- Example 6-1 (L8893-8901) and the rows of Table 6-4 (L8869-8881) ---------------- */

static void test_example_6_1(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	/* L8899: TFO 1 is output as TRACEPKT[7:0] = b00011001 = 0x19. Unsynchronised: one byte
	 * skipped (@18), the TFO packet at @20. */
	expect(&c, "07 19 04 ff 04 20 04 00 04 80 04 00 04 00",
	       "@16 7 tfo value=1 pkt=20\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "Example 6-1 (L8893-8901): TRACEPKT 0x19 is TFO 1; joining, one byte is skipped");
	/* Synchronised: the DE at @28 places Normal data 0x06 (SS = b01) and its value 0xAB; the TFO
	 * at @30 finds 0xAB unread ("one byte left in the FIFO before the TFO packet header", L8895). */
	c.data_value = 1;
	expect(&c, SYNC8 "01 06 07 19 04 ab 04 00 04 00 04 80 04 00 04 00",
	       SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=0 value=0xab size=1\n"
			"@30 7 tfo value=1 pkt=34 implied=ie\n@30 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=arm\n",
	       "Example 6-1 synchronised: the count of one unread byte agrees");
	expect(&c, SYNC8 "01 06 07 29 04 ab 04 00 04 00 04 80 04 00 04 00",
	       SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=0 value=0xab size=1\n@30 7 error class=tfo-mismatch\n",
	       "the same with TRACEPKT 0x29 (TFO 2): tfo-mismatch at the TFO (ETM2-P10)");
}

static void test_table_6_4(void)
{
	/* Each TFO row of Table 6-4 at its two ends: the TRACEPKT byte the row gives, the value. */
	static const struct { uint8_t pkt, value; } rows[] = {
		{ 0x09, 0 }, { 0xf9, 15 }, { 0x0b, 16 }, { 0xfb, 31 }, { 0x0d, 32 }, { 0xfd, 47 },
		{ 0x0f, 48 }, { 0xff, 63 }, { 0x01, 64 }, { 0xf1, 79 }, { 0x03, 80 }, { 0xf3, 95 },
	};
	struct tc_etmv2_config c = base_cfg(8);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char hex[2048], want[256];
		int n = snprintf(hex, sizeof hex, "07 %02x ", rows[i].pkt);
		for (int k = 0; k < rows[i].value; k++)
			n += snprintf(hex + n, sizeof hex - (size_t)n, "04 ff ");
		snprintf(hex + n, sizeof hex - (size_t)n, "04 20 04 00 04 80 04 00 04 00");
		snprintf(want, sizeof want, "@16 7 tfo value=%u pkt=%u\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
			 rows[i].value, 18 + 2 * rows[i].value);
		char what[128];
		snprintf(what, sizeof what, "Table 6-4: TRACEPKT 0x%02x is TFO %u; %u bytes skipped", rows[i].pkt, rows[i].value,
			 rows[i].value);
		expect(&c, hex, want, what);
	}
	expect(&c, "07 05", "@16 7 error class=reserved-tfo\n", "Table 6-4: TRACEPKT[3:0] b0101 is reserved-tfo");
	expect(&c, "07 07 07 00 07 fe", "", "Table 6-4: b0111 (cycle-accurate) and bXXXXXXX0 TDs are no TFO");
	c.fifo_depth = 4;
	expect(&c, "07 59 04 ff", "@16 7 error class=tfo-past-fifo\n", "TFO 5 with fifo_depth=4: tfo-past-fifo (ETM2-P10)");
	expect(&c, "07 49 04 ff 04 ff 04 ff 04 ff 04 20 04 00 04 80 04 00 04 00",
	       "@16 7 tfo value=4 pkt=26\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "TFO 4 with fifo_depth=4: no error");
	/* §6.11 (L9288-9295), ETM1-P21: cycle-accurate, the first TD with TRACEPKT[0] = 0 of a run. */
	c = base_cfg(8);
	c.cycle_accurate = 1;
	expect(&c, SYNC8 "07 00 07 00 07 07 07 00 00 00",
	       SYNC8_L1 "@28 7 trace-disabled\n@34 7 trace-disabled\n@36 0 ie\n",
	       "cycle-accurate: trace-disabled at the first TD with TRACEPKT[0] = 0 of a run; b0111 is a wait");
	c.cycle_accurate = 0;
	expect(&c, SYNC8 "07 00 07 00 07 07 07 00 00 00", SYNC8_L1 "@36 0 ie\n",
	       "not cycle-accurate: a TD gives nothing");
}

/* ---- Each PIPESTAT of Table 6-1 (L8460-8490, read as ETM2-S1) ------------------------ */

static void test_pipestats(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	/* Groups: 0x02 (Normal data, C = 0, A = 0, SS = 0: one byte); the DW's 0xEA (Value Not Traced,
	 * C = 1) then 0x02 on the WT after it. A TR's replaced status on TRACEPKT[3:0]: its cycle carries
	 * no FIFO data, so the replaced DE's group is on @62. */
	expect(&c, SYNC8
	       "00 00 01 02 02 00 03 02 05 ea 04 02 06 00 07 00 "
	       "08 00 09 02 0a 00 0b 02 0c 00 0d 02 0e 00 0f 02 "
	       "06 01 04 02 06 04 06 06",
	       SYNC8_L1
	       "@28 0 ie\n@30 1 de pkt=30\n@30 1 +data a=0\n@32 2 in\n@34 3 dn pkt=34\n@34 3 +data a=0\n"
	       "@36 5 dw pkt=36\n@36 5 +not-traced\n@36 5 +data a=0\n@40 6 trigger\n@40 0 ie\n"
	       "@44 8 ie phantom=E\n@46 9 de phantom=E pkt=46\n@46 9 +data a=0\n@48 a in phantom=E\n"
	       "@50 b dn phantom=E pkt=50\n@50 b +data a=0\n@52 c ie phantom=N\n@54 d de phantom=N pkt=54\n"
	       "@54 d +data a=0\n@56 e in phantom=N\n@58 f dn phantom=N pkt=58\n@58 f +data a=0\n"
	       "@60 6 trigger\n@60 1 de pkt=62\n@60 1 +data a=0\n@64 6 trigger\n@66 6 trigger\n",
	       "every PIPESTAT b0000-b1111, and TR replacing IE, DE, WT and TR");
	/* §6.1.7 (L8568), ETM2-P11: TR with TRACEPKT[3:0] = b0111 is a TFO cycle; the value is on the
	 * next cycle (@18, 0x09: TFO 0), the packet from @20. */
	expect(&c, "06 07 04 09 04 20 04 00 04 80 04 00 04 00",
	       "@16 6 trigger\n@16 7 tfo value=0 pkt=20\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "a trigger on a TFO cycle: the value on the next cycle (L8913-8915)");
	expect(&c, "06 07 04 05", "@16 6 trigger\n@16 7 error class=reserved-tfo\n",
	       "a trigger on a TFO cycle whose next cycle holds no TFO value: reserved-tfo (ETM2-P24)");
	c.port_width = 4;
	expect(&c, "06 07 04 09 04 00 04 00 04 02 04 00 04 00 04 00 04 08 04 00 04 00 04 00 04 00",
	       "@16 6 trigger\n@16 7 tfo value=0 pkt=22\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "4-bit: a trigger on a TFO cycle, the value on the next two cycles (L8915)");
}

/* ---- The records behind the L1 text ------------------------------------------------ */

struct miss_seen {
	int n;
	struct tc_etmv2_record r;
};

static void on_miss(void *ctx, const struct tc_etmv2_record *r)
{
	struct miss_seen *m = ctx;
	if (r->h.kind == tc_etmv2_miss) {
		m->r = *r;
		m->n++;
	}
}

/* §6.4.3 (L8754-8766), ERRATA ETM2-P4: a Load Miss Occurred packet is its header and, with data
 * address tracing and A = 1, the data address (L8754-8760); the value comes in the Load Miss Data
 * packet (L8766), so none follows here, even with data_value=1. 0x74 = b0 1 1 1 01 00: C = 0, A = 1,
 * TT = b01; its one address byte 0x10 (bit 7 = 0, the last) before any full address: unknown
 * (ETM2-P5). The record holds no value (has_value 0, vsize 0): the L1 text never prints one for
 * +miss, so only the record shows it. */
static void test_miss_record(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	c.data_address = 1;
	c.data_value = 1;
	static uint8_t buf[256];
	size_t n = build(&c, SYNC8 "01 74 04 10", buf, sizeof buf);
	struct miss_seen m;
	memset(&m, 0, sizeof m);
	struct tc_etmv2_sink sink = { &m, on_miss };
	struct tc_etmv2_decoder *d = tc_etmv2_alloc(&c, &sink);
	if (d) {
		tc_etmv2_feed(d, buf, n);
		tc_etmv2_finish(d);
		tc_etmv2_free(d);
	}
	ok(m.n == 1 && m.r.h.offset == 28 && m.r.tag == 1 && m.r.a == 1 && m.r.has_daddr && m.r.daddr_unknown &&
		   !m.r.has_value && m.r.vsize == 0,
	   "a Load Miss Occurred record with data_value=1: tag, A and an unknown address, no value (ETM2-P4)");
}

/* ---- Table 6-2's packets (L8670-8688), Table 6-3 (L8708-8715) ------------------------ */

static void test_packets(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	c.data_address = 1;
	c.data_value = 1;
	c.contextid_size = 4;
	/* @36 DE: 0x2E Normal data (C = 0, A = 1, SS = b11); a full data address 0x12345678 (78|80,
	 * 2c|80, 51|80, 11|80, 01: bits 6:0, 13:7, 20:14, 27:21, 31:28); the value ef be ad de.
	 * @56 DN, one group of six packets: 0xA6 Normal data (C = 1, A = 1, SS = b01), address 0x10
	 * (A[6:0] replaced: 0x12345610), value 0x5a; 0xEA Value Not Traced (C = 1); 0xEE Context ID
	 * (C = 1), 78 56 34 12; 0xF8 Load Miss Occurred (C = 1, A = 1, TT = b10), address 0x20;
	 * 0xC8 Load Miss Data (C = 1, TT = b10, SS = b10), 34 12; 0x21 a one-byte ARM branch address:
	 * A[7:2] = 0x10 into 0x8000 (ETM2-P6).
	 * @86 DW: 0x8A Normal data (C = 1, A = 0: no address, SS = b10) cd ab; 0x54 Load Miss Occurred
	 * (C = 0, A = 0, TT = b01): no address. */
	expect(&c, SYNC8C
	       "01 2e 04 f8 04 ac 04 d1 04 91 04 01 04 ef 04 be 04 ad 04 de "
	       "03 a6 04 10 04 5a 04 ea 04 ee 04 78 04 56 04 34 04 12 04 f8 04 20 04 c8 04 34 04 12 04 21 "
	       "05 8a 04 cd 04 ab 04 54",
	       SYNC8C_L1
	       "@36 1 de pkt=36\n@36 1 +data a=1 addr=0x12345678 value=0xdeadbeef size=4\n"
	       "@56 3 dn pkt=56\n@56 3 +data a=1 addr=0x12345610 value=0x5a size=1\n@56 3 +not-traced\n"
	       "@56 3 +context-id ctxid=0x12345678\n@56 3 +miss tag=2 a=1 addr=0x12345620\n"
	       "@56 3 +miss-data tag=2 value=0x1234 size=2\n@56 3 +branch addr=0x8040 isa=arm n=1\n"
	       "@86 5 dw pkt=86\n@86 5 +data a=0 value=0xabcd size=2\n@86 5 +miss tag=1 a=0\n",
	       "each packet of Table 6-2 and each SS of Table 6-3, grouped by the C bit (ETM2-P3, P4)");
	/* §6.4.5 and §6.5.4 with contextid_size=2: the TFO packet's Context ID 34 12, then a Context ID
	 * packet (@32 DE, 0x6E: C = 0) with cd ab. §6.7.1 L9124 (ETM2-P7): a branch address in a DW's
	 * group (@38, 0x21: A[7:2] = 0x10 into 0x8000). */
	c.contextid_size = 2;
	c.data_address = 0;
	c.data_value = 0;
	expect(&c, "07 09 04 20 04 34 04 12 04 00 04 80 04 00 04 00 01 6e 04 cd 04 ab 05 21",
	       "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 ctxid=0x1234 addr=0x8000 isa=arm\n"
	       "@32 1 de pkt=32\n@32 1 +context-id ctxid=0xabcd\n@38 5 dw pkt=38\n@38 5 +branch addr=0x8040 isa=arm n=1\n",
	       "Context ID of two bytes in a TFO packet and in a Context ID packet; a DW's branch address");
	c.data_address = 1;
	/* ETM2-P5, ETM1-P13: a compressed data address before a full one is unknown. */
	c.contextid_size = 0;
	c.data_value = 0;
	expect(&c, SYNC8 "01 22 04 10", SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=1 addr=unknown\n",
	       "a compressed data address before any full one: addr=unknown (ETM2-P5)");
}

/* Table 6-2's rows (L8670-8688) and the note's branch address (L8692, ETM2-S11): letters other
 * than 0 and 1 stand for any bit. */
static const struct { const char *pattern, *kind; } table_6_2[] = {
	{ "cxxxxxx1", "+branch" },
	{ "C0A0SS10", "+data" }, { "X0X1XX00", NULL }, { "X0X1XX10", NULL }, { "X10XXX10", NULL },
	{ "X1100X10", NULL }, { "C1101010", "+not-traced" }, { "C1101110", "+context-id" },
	{ "X111XX10", NULL }, { "C1A1TT00", "+miss" }, { "CTT0SS00", "+miss-data" },
};

static int matches(const char *pattern, unsigned b)
{
	for (int i = 0; i < 8; i++) {
		int bit = b >> (7 - i) & 1;
		if ((pattern[i] == '0' && bit) || (pattern[i] == '1' && !bit))
			return 0;
	}
	return 1;
}

/* The line after `skip` lines of o, or "". */
static const char *nth_line(const char *s, int skip, char *buf, size_t cap)
{
	for (; skip > 0 && s; skip--) {
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	if (!s)
		return "";
	size_t n = strcspn(s, "\n");
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return buf;
}

static void test_header_map(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	c.contextid_size = 1;
	int unique = 1, agree[sizeof table_6_2 / sizeof table_6_2[0]];
	for (size_t r = 0; r < sizeof table_6_2 / sizeof table_6_2[0]; r++)
		agree[r] = 1;
	static struct out o;
	for (unsigned b = 0; b < 256; b++) {
		int row = -1, n = 0;
		for (size_t r = 0; r < sizeof table_6_2 / sizeof table_6_2[0]; r++)
			if (matches(table_6_2[r].pattern, b)) {
				row = (int)r;
				n++;
			}
		if (n != 1) {
			unique = 0;
			continue;
		}
		char hex[128], want[64], buf[128];
		/* SYNC8 with the one Context ID byte contextid_size=1 puts in the TFO packet (0x00). */
		snprintf(hex, sizeof hex, "07 09 04 20 04 00 04 00 04 80 04 00 04 00 01 %02x 04 00 04 00 04 00 04 00 04 00", b);
		decode(&c, hex, 0, &o);
		if (table_6_2[row].kind) {
			snprintf(want, sizeof want, "@30 1 %s", table_6_2[row].kind);
			const char *l = nth_line(o.l1, 3, buf, sizeof buf);
			if (strncmp(l, want, strlen(want)) != 0 || (l[strlen(want)] != ' ' && l[strlen(want)] != 0))
				agree[row] = 0;
		} else if (strcmp(nth_line(o.l1, 2, buf, sizeof buf), "@30 1 error class=reserved-header") != 0) {
			agree[row] = 0;
		}
	}
	ok(unique, "every byte 00-FF matches exactly one row of Table 6-2 (FORMAT.md \"ETMv2 headers\": the map is complete)");
	for (size_t r = 0; r < sizeof table_6_2 / sizeof table_6_2[0]; r++)
		ok(agree[r], "every first byte matching Table 6-2's b%s decodes as %s", table_6_2[r].pattern,
		   table_6_2[r].kind ? table_6_2[r].kind : "reserved-header");
	/* Table 6-6 (L8972-8981): every TFO header byte; b0RR00000 and b1RR00000 only. */
	int tfo_ok = 1;
	c = base_cfg(8);
	for (unsigned b = 0; b < 256; b++) {
		char hex[128], want[96], buf[128];
		snprintf(hex, sizeof hex, "07 09 04 %02x 04 00 04 00 04 00 04 00 04 01", b);
		decode(&c, hex, 0, &o);
		if (b & 0x1f)
			snprintf(want, sizeof want, "@16 7 error class=reserved-header");
		else
			snprintf(want, sizeof want, "@16 7 +tfo-packet reason=%u lsip=%u addr=0x0 isa=arm%s", b >> 5 & 3, b >> 7,
				 b >> 7 ? " cur=0x0 cur-isa=arm" : "");
		if (strcmp(nth_line(o.l1, (b & 0x1f) ? 0 : 1, buf, sizeof buf), want) != 0) {
			note("TFO header 0x%02x: %s", b, o.l1);
			tfo_ok = 0;
		}
	}
	ok(tfo_ok, "every TFO header byte 00-FF: Table 6-6's two forms, every other reserved-header");
}

/* ---- Branch addresses: §6.7.1 (L9112-9197), Table 6-9 -------------------------------- */

static void test_branches(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	/* x is the address with the marker (bit 32 before the shift, ETM2-S4), shifted by 2 (ARM) or 1
	 * (Thumb), then x << 1 | 1, cut in 7-bit pieces, bit 7 set on all but the last.
	 * @28 ARM 0x18, E = 1: x = 0x6 << 1 | 1 = 0xd, the marker at x bit 31: 8d 80 80 80, fifth
	 *     b0 1 001 000 = 0x48 (E = bit 6, Table 6-9 b0E001XXX).
	 * @38 Thumb 0x10002: x = 0x1_0001_0003: 83 80 84 80, fifth b0001 0000 = 0x10 (b0001XXXX).
	 * @48 Thumb, two bytes: A[13:1] of 0x10100 = 0x80 -> x = 0x101: 81 02; 0x10002 keeps its
	 *     upper bits: 0x10100.
	 * @52 ARM 0x8000, E = 0: x = 0x4001: 81 80 81 80 08.
	 * @62 L9116's example: the upper 12 bits unchanged, A[19] the highest that changed: three
	 *     bytes for A[21:2]: 0xf0000 -> x = 0x78001: 81 80 1e. */
	expect(&c, SYNC8
	       "01 8d 04 80 04 80 04 80 04 48 "
	       "01 83 04 80 04 84 04 80 04 10 "
	       "01 81 04 02 "
	       "01 81 04 80 04 81 04 80 04 08 "
	       "01 81 04 80 04 1e",
	       SYNC8_L1
	       "@28 1 de pkt=28\n@28 1 +branch addr=0x18 isa=arm n=5 e=1\n"
	       "@38 1 de pkt=38\n@38 1 +branch addr=0x10002 isa=thumb n=5\n"
	       "@48 1 de pkt=48\n@48 1 +branch addr=0x10100 isa=thumb n=2\n"
	       "@52 1 de pkt=52\n@52 1 +branch addr=0x8000 isa=arm n=5 e=0\n"
	       "@62 1 de pkt=62\n@62 1 +branch addr=0xf0000 isa=arm n=3\n",
	       "branch addresses of 1-5 bytes, ARM with E and Thumb (Table 6-9, ETM2-P6)");
	/* A fifth byte Table 6-9 does not give: 0x28 (bit 5 set: neither b0E001XXX nor b0001XXXX). */
	expect(&c, SYNC8 "01 81 04 80 04 80 04 80 04 28", SYNC8_L1 "@28 1 error class=reserved-field\n",
	       "a reserved fifth branch-address byte: reserved-field");
	/* §6.5.5 (L9018-9041): an LSM in progress TFO packet: header 0xA0 (b1 01 00000, reason b01), the
	 * LSM address 0x8010 (10 80 00 00), the current address in two bytes against it: 0x9020,
	 * x = 0x4811: 91 10. The next one-byte branch (@32, 0x21: A[7:2] = 0x10) is compressed against
	 * the current address (ETM2-P25): 0x9040, not 0x8040. */
	expect(&c, "07 09 04 a0 04 10 04 80 04 00 04 00 04 91 04 10 01 21",
	       "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=1 addr=0x8010 isa=arm cur=0x9020 cur-isa=arm\n"
	       "@32 1 de pkt=32\n@32 1 +branch addr=0x9040 isa=arm n=1\n",
	       "an LSM in progress TFO packet (Tables 6-6, 6-8; ETM2-S6, P12, P25)");
	/* §6.5.4 (L8998-9001): bit 0 of the TFO address is the Thumb bit; header 0x00: reason b00, the
	 * implied IE (ETM2-P13). */
	expect(&c, "07 09 04 00 04 01 04 80 04 00 04 00",
	       "@16 7 tfo value=0 pkt=18 implied=ie\n@16 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=thumb\n",
	       "a TFO packet with a Thumb address and reason b00");
}

/* ---- Warnings (FORMAT.md "Warnings", those marked etmv2 or both) --------------------- */

static void test_warnings(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	/* ETM2-P4: data_value=0; @28 Normal data 0x06 SS = b01; @30 Load Miss Data 0x48 (C = 0,
	 * TT = b10, SS = b10). No value bytes follow either. */
	expect(&c, SYNC8 "01 06 01 48",
	       SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=0\n@28 1 warning class=ignored-field field=data-size bits=0x1\n"
			"@30 1 de pkt=30\n@30 1 +miss-data tag=2\n@30 1 warning class=ignored-field field=data-size bits=0x2\n",
	       "SS not 0 with data_value=0: warning data-size");
	c.data_address = 1;
	/* ETM2-P5: 0x22 Normal data (A = 1, SS = 0); a fifth address byte 0xf1: A[31:28] = 1, bits 6:4
	 * res0, bit 7 read as 0. The same with 0x01: no warning. */
	expect(&c, SYNC8 "01 22 04 80 04 80 04 80 04 80 04 f1 01 22 04 80 04 80 04 80 04 80 04 01",
	       SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=1 addr=0x10000000\n"
			"@28 1 warning class=res0 field=daddr-last bits=0x70\n"
			"@28 1 warning class=ignored-field field=daddr5-bit7 bits=0x80\n"
			"@40 1 de pkt=40\n@40 1 +data a=1 addr=0x10000000\n",
	       "a fifth data-address byte with bits 7:4 set: warnings daddr-last and daddr5-bit7");
	/* L8586: TRACEPKT[15:8] with one valid byte should be 0x66. */
	c = base_cfg(16);
	expect(&c, "07 09 00 04 20 00 04 80 00 04 00 55",
	       SYNC16_L1 "@16 7 warning class=ignored-field field=idle-byte bits=0x55\n",
	       "16-bit: an idle byte other than 0x66: warning idle-byte");
}

/* ERRATA ETM2-P22: at most four warnings an item. data_value=0; the DE's group is five Normal data
 * packets, each one byte (no value is traced): 0x86, 0x8a, 0x8e, 0x86 (C = 1, SS = b01, b10, b11,
 * b01) and 0x0a (C = 0, SS = b10): five data-size warnings found, the first four written. */
static void test_warning_limit(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	expect(&c, SYNC8 "01 86 04 8a 04 8e 04 86 04 0a",
	       SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=0\n@28 1 +data a=0\n@28 1 +data a=0\n@28 1 +data a=0\n"
			"@28 1 +data a=0\n@28 1 warning class=ignored-field field=data-size bits=0x1\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x2\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x3\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x1\n",
	       "five warnings on one item: the first four written");
}

/* ---- Ports: §6.2 (L8574-8586) ------------------------------------------------------- */

static void test_ports(void)
{
	struct tc_etmv2_config c = base_cfg(16);
	c.data_value = 1;
	/* @28 DE: 0x06 (SS = b01) and 0xab in one cycle. @31 DW: Value Not Traced 0x6a, the idle byte
	 * (FORMAT.md's 16-bit fragment). @34 DE: 0x0e (SS = b11) with 0x11 in [15:8], @37 WT 22 33,
	 * @40 WT 44, idle. */
	expect(&c, SYNC16 "01 06 ab 05 6a 66 01 0e 11 04 22 33 04 44 66",
	       SYNC16_L1 "@28 1 de pkt=28\n@28 1 +data a=0 value=0xab size=1\n@31 5 dw pkt=31\n@31 5 +not-traced\n"
			 "@34 1 de pkt=34\n@34 1 +data a=0 value=0x44332211 size=4\n",
	       "16-bit: two bytes a cycle, the idle byte when one is valid (L8586)");
	/* Joining at a TFO on 16 bits: @16 TFO 0; @19 DE: its group comes after the TFO packet (20 00,
	 * 80 00, then 00 at @25 ends it); [15:8] of @25 is the DE's 0x02, not an idle byte. */
	c.data_value = 0;
	expect(&c, "07 09 00 01 20 00 04 80 00 04 00 02",
	       SYNC16_L1 "@19 1 de pkt=25\n@19 1 +data a=0\n",
	       "16-bit: the TFO packet ends on [7:0], the next group starts on [15:8]");
	/* Joining at TFO 2 (TRACEPKT 0x29) on 16 bits: both lanes of @19 are the two bytes skipped, the
	 * packet from @22. */
	expect(&c, "07 29 00 04 ff ff 04 20 00 04 80 00 04 00 66",
	       "@16 7 tfo value=2 pkt=22\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "16-bit: a TFO's skip takes both lanes");
	c = base_cfg(4);
	c.data_value = 1;
	/* @40 DE 0x6 @42 WT 0x0: 0x06; @44 WT 0xb @46 IE 0xa (carries: the DE's group is unread):
	 * 0xab; @48 IE: nothing unread, TRACEPKT not read. */
	expect(&c, SYNC4 "01 06 04 00 04 0b 00 0a 00 05",
	       SYNC4_L1 "@40 1 de pkt=40\n@40 1 +data a=0 value=0xab size=1\n@46 0 ie\n@48 0 ie\n",
	       "4-bit: a byte over two cycles, low nibble first; an IE carries while a group is unread");
}

/* ---- Errors (FORMAT.md "Error classes", those marked etmv2 or both) ------------------ */

static void test_errors(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	expect(&c, SYNC8 "04 00 " SYNC8,
	       SYNC8_L1 "@28 4 error class=unowned-packets\n@30 7 tfo value=0 pkt=32\n"
			"@30 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "a WT with no group unread: unowned-packets; decoding resumes at the next TFO");
	expect(&c, SYNC8 "01 12", SYNC8_L1 "@28 1 error class=reserved-header\n", "a reserved header: reserved-header");
	expect(&c, SYNC8 "01 6e", SYNC8_L1 "@28 1 error class=bad-mode\n",
	       "a Context ID packet with contextid_size=0: bad-mode (L8828)");
	expect(&c, SYNC8 "00 00 01 80", SYNC8_L1 "@28 0 ie\n@30 1 error class=truncated\n",
	       "the end inside a group: truncated at its cycle, the complete items before it given");
	expect(&c, SYNC8 "00", SYNC8_L1 "@28 0 error class=truncated\n", "a partial record: truncated");
	expect(&c, "07 09 04 20", "@16 7 error class=truncated\n", "the end inside a TFO packet: truncated at the TFO");
	expect(&c, SYNC8 "01 80 80 00 " SYNC8,
	       SYNC8_L1 "@28 1 error class=truncated\n@30 - gap\n@32 7 tfo value=0 pkt=34\n"
			"@32 7 +tfo-packet reason=1 lsip=0 addr=0x8000 isa=arm\n",
	       "a gap record inside a group: truncated, gap, then the next TFO");
	expect(&c, SYNC8 "10 00 80 01", SYNC8_L1 "@28 0 error class=bad-record\n@30 0 error class=bad-record\n",
	       "a status byte with bit 4 set, a gap record with TRACEPKT not 0: bad-record");
	/* ETM2-P21: a group of nine packets (0xEA, Value Not Traced with C = 1). */
	expect(&c, SYNC8 "01 ea 04 ea 04 ea 04 ea 04 ea 04 ea 04 ea 04 ea 04 ea",
	       SYNC8_L1 "@28 1 error class=too-many-pending\n", "a ninth packet in one group: too-many-pending (ETM2-P21)");
	/* ETM2-P21: a group left open (0x80: Load Miss Data, C = 1) while TR cycles (no FIFO data)
	 * add a trigger and an IE each: the 512th TR (@30 + 511 x 2) finds 1024 items waiting. */
	static char hex[4096];
	int n = snprintf(hex, sizeof hex, SYNC8 "01 80 ");
	for (int i = 0; i < 512; i++)
		n += snprintf(hex + n, sizeof hex - (size_t)n, "06 00 ");
	expect(&c, hex, SYNC8_L1 "@1052 6 error class=too-many-pending\n",
	       "1024 items waiting: too-many-pending (ETM2-P21)");
	c.port_width = 4;
	expect(&c, "07 09", "@16 7 error class=truncated\n", "4-bit: the end after a TFO value's first nibble: truncated");
	expect(&c, SYNC4 "00 10", SYNC4_L1 "@40 0 error class=bad-record\n", "4-bit: TRACEPKT bits 7:4 set: bad-record");
	/* ETMC-F5: the header must agree with the keys, and be an ETMv2 file. */
	c = base_cfg(8);
	static uint8_t buf[64];
	static struct out o;
	size_t len = build(&c, "00 00", buf, sizeof buf);
	buf[6] = 1;
	decode_bytes(&c, buf, len, 0, &o);
	ok(strcmp(o.l1, "@0 0 error class=bad-header\n") == 0, "a header whose minor version is not the key's: bad-header");
	buf[6] = 0;
	buf[5] = 1;
	decode_bytes(&c, buf, len, 0, &o);
	ok(strcmp(o.l1, "@0 0 error class=bad-header\n") == 0, "an ETMv1 file: bad-header");
	decode_bytes(&c, buf, 10, 0, &o);
	ok(strcmp(o.l1, "@0 0 error class=bad-header\n") == 0, "a header of 10 bytes: bad-header");
}

/* ---- The configuration and the L1 text ---------------------------------------------- */

static void test_config(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	char err[128];
	ok(tc_etmv2_config_check(&c, err, sizeof err) == 0, "the default configuration is valid");
	c.version = 2;
	ok(tc_etmv2_config_check(&c, err, sizeof err) == -1, "version 2 refused: %s", err);
	c = base_cfg(8);
	c.half_rate = 1;
	c.port_mode = 1;
	ok(tc_etmv2_config_check(&c, err, sizeof err) == -1, "half_rate=1 with port_mode=1 refused: %s", err);
	c = base_cfg(8);
	c.fifo_depth = 4097;
	ok(tc_etmv2_config_check(&c, err, sizeof err) == -1, "fifo_depth 4097 refused: %s", err);
	c = base_cfg(8);
	c.contextid_size = 3;
	ok(tc_etmv2_config_check(&c, err, sizeof err) == -1 && tc_etmv2_alloc(&c, NULL) == NULL,
	   "contextid_size 3 refused, and no decoder is made of it");
}

/* The API's returns (etmv2.h): 0 for a feed and a finish; tc_etmv2_invalid for a NULL decoder or
 * NULL data with a length; tc_etmv2_finished for a feed or a finish after the finish. */
static void test_api(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	static uint8_t buf[64];
	static struct out o;
	size_t n = build(&c, SYNC8 "00 00", buf, sizeof buf);
	struct tc_etmv2_sink sink = { &o, on_item };
	memset(&o, 0, sizeof o);
	struct tc_etmv2_decoder *d = tc_etmv2_alloc(&c, &sink);
	ok(d != NULL, "a decoder of the default configuration");
	if (!d)
		return;
	ok(tc_etmv2_feed(NULL, buf, n) == tc_etmv2_invalid, "feed of a NULL decoder: invalid");
	ok(tc_etmv2_feed(d, NULL, 1) == tc_etmv2_invalid, "feed of NULL data with a length: invalid");
	ok(tc_etmv2_feed(d, buf, n) == 0, "feed: 0");
	ok(tc_etmv2_finish(NULL) == tc_etmv2_invalid, "finish of a NULL decoder: invalid");
	ok(tc_etmv2_finish(d) == 0, "finish: 0");
	ok(tc_etmv2_finish(d) == tc_etmv2_finished, "a second finish: finished");
	ok(tc_etmv2_feed(d, buf, n) == tc_etmv2_finished, "feed after the finish: finished");
	ok(strcmp(o.l1, SYNC8_L1 "@28 0 ie\n") == 0, "the items of the one feed, once: none from the second finish or the feed after it");
	tc_etmv2_free(d);
}

static void roundtrip_line(const char *line)
{
	struct tc_etmv2_record r;
	char err[128] = "", back[512];
	int p = tc_etmv2_parse_text(line, &r, err, sizeof err);
	tc_etmv2_format(back, sizeof back, &r);
	ok(p == 0 && strcmp(back, line) == 0, "L1 text round trip: %s%s%s", line, p ? " — " : "", p ? err : "");
}

static void test_text(void)
{
	static const char *const lines[] = {
		"@22 7 tfo value=1 pkt=30 implied=ie", "@22 7 tfo value=95 pkt=30",
		"@22 7 +tfo-packet reason=0 lsip=0 addr=0x8000 isa=arm",
		"@16 7 +tfo-packet reason=1 lsip=1 ctxid=0x11223344 addr=0x8010 isa=thumb cur=0x9020 cur-isa=arm",
		"@24 0 ie", "@28 2 in", "@30 3 dn pkt=50", "@44 8 ie phantom=E", "@54 d de phantom=N pkt=54",
		"@36 5 dw pkt=36", "@30 3 +data a=0 value=0x0 size=0", "@36 1 +data a=1 addr=0x12345678 value=0xdeadbeef size=4",
		"@28 1 +data a=1 addr=unknown", "@56 3 +miss tag=2 a=1 addr=0x12345620", "@86 5 +miss tag=1 a=0",
		"@56 3 +miss-data tag=2 value=0x1234 size=2", "@30 1 +miss-data tag=2", "@56 3 +not-traced",
		"@56 3 +context-id ctxid=0x12345678", "@28 1 +branch addr=0x18 isa=arm n=5 e=1",
		"@38 1 +branch addr=0x10002 isa=thumb n=5", "@40 6 trigger", "@28 7 trace-disabled", "@30 - gap",
		"@0 0 error class=bad-header", "@1052 6 error class=too-many-pending", "@30 7 error class=tfo-mismatch",
		"@46 7 warning class=ignored-field field=gap-nibble bits=0x5",
		"@28 1 warning class=res0 field=daddr-last bits=0x70",
	};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
		roundtrip_line(lines[i]);
	static const char *const bad[] = {
		"@16 g ie", "@16 0 xx", "@16 0 ie extra", "16 0 ie", "@16 7 tfo value=96 pkt=1",
		"@16 1 +branch addr=0x18 isa=jazelle n=5", "@16 0 error class=none", "@16 0 error class=apo-mismatch",
		"@16 1 +data value=0x1 size=1", "@16 0 ie phantom=X",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct tc_etmv2_record r;
		char err[128];
		ok(tc_etmv2_parse_text(bad[i], &r, err, sizeof err) == -1, "the parser refuses '%s'", bad[i]);
	}
	/* Writer then parser over every line Table 6-5's file decodes to. */
	struct tc_etmv2_config c = base_cfg(4);
	c.data_value = 1;
	static struct out o;
	decode(&c, table_6_5, 0, &o);
	char *save = NULL;
	static char copy[sizeof o.l1];
	memcpy(copy, o.l1, sizeof copy);
	int all = 1, n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save), n++) {
		struct tc_etmv2_record r;
		char err[128], back[512];
		all &= tc_etmv2_parse_text(l, &r, err, sizeof err) == 0 && tc_etmv2_format(back, sizeof back, &r) > 0 &&
		       strcmp(back, l) == 0;
	}
	ok(all && n == 6, "Table 6-5's six L1 lines: written, parsed, written again the same");
}

/* ---- The API's answers and the records' fields ------------------------------------------ */

struct recs {
	struct tc_etmv2_record r[32];
	int n;
};

static void on_record(void *ctx, const struct tc_etmv2_record *r)
{
	struct recs *s = ctx;
	if (s->n < 32)
		s->r[s->n++] = *r;
}

/* 1 when every field but the header, S and the kind's own (FORMAT.md "ETMv2 kinds": none for a
 * trigger or a gap; class for an error; class, field and bits for a warning) is 0. */
static int rest_zero(const struct tc_etmv2_record *r)
{
	int own_error = r->h.kind == tc_etmv2_error, own_warning = r->h.kind == tc_etmv2_warning;
	return !r->pkt && !r->has_pkt && !r->phantom && !r->tfo_value && !r->implied && !r->a && !r->tag &&
	       !r->has_daddr && !r->daddr_unknown && !r->daddr && !r->has_value && !r->vsize && !r->value &&
	       !r->has_ctxid && !r->ctxid && !r->has_addr && !r->isa && !r->npkts && !r->has_e && !r->e && !r->addr &&
	       !r->reason && !r->lsip && !r->has_cur && !r->cur_isa && !r->cur && (own_error || !r->error) &&
	       (own_warning || (!r->warning && !r->field && !r->bits));
}

/* @16 TR unsynchronised (a trigger, ETM2-P24), @18 a gap record, @20 TFO 0 and its packet, @32 DE
 * with Normal data SS = b01 and data_value=0 (warning data-size, ETM2-P4), @34 WT with no group
 * unread (unowned-packets, ETM2-P2): the trigger, gap, warning and error records carry nothing but
 * their own fields. */
static void test_record_fields(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	static uint8_t buf[64];
	size_t n = build(&c, "06 00 80 00 07 09 04 20 04 00 04 80 04 00 04 00 01 06 04 00", buf, sizeof buf);
	static struct recs s;
	memset(&s, 0, sizeof s);
	struct tc_etmv2_sink sink = { &s, on_record };
	struct tc_etmv2_decoder *d = tc_etmv2_alloc(&c, &sink);
	if (d) {
		tc_etmv2_feed(d, buf, n);
		tc_etmv2_finish(d);
		tc_etmv2_free(d);
	}
	int seen[tc_etmv2_kind_count] = { 0 }, good = 1;
	for (int i = 0; i < s.n; i++) {
		const struct tc_etmv2_record *r = &s.r[i];
		int k = r->h.kind;
		if (k != tc_etmv2_trigger && k != tc_etmv2_gap && k != tc_etmv2_warning && k != tc_etmv2_error)
			continue;
		seen[k]++;
		good &= rest_zero(r) && r->h.size == sizeof *r && r->h.protocol == tc_proto_etmv2;
		if (k == tc_etmv2_trigger)
			good &= r->h.offset == 16 && r->status == tc_etmv2_ps_tr;
		else if (k == tc_etmv2_gap)
			good &= r->h.offset == 18 && r->status == TC_ETMV2_STATUS_GAP;
		else if (k == tc_etmv2_warning)
			good &= r->h.offset == 32 && r->status == 1 && r->warning == tc_etmv2_warn_ignored_field &&
				r->field == tc_etmv2_wf_data_size && r->bits == 1;
		else
			good &= r->h.offset == 34 && r->status == tc_etmv2_ps_wt && r->error == tc_etmv2_err_unowned_packets;
	}
	ok(good && seen[tc_etmv2_trigger] == 1 && seen[tc_etmv2_gap] == 1 && seen[tc_etmv2_warning] == 1 &&
		   seen[tc_etmv2_error] == 1,
	   "trigger, gap, warning and error records: their own fields, every other 0");
	/* data_value=1: @28 DE, Load Miss Occurred 0x50 (C = 0, A = 0, TT = b00: bC1A1TT00, Table 6-2
	 * L8687) has no value (FORMAT.md "+miss": tag, a, the address): the record's value fields are 0. */
	c.data_value = 1;
	n = build(&c, SYNC8 "01 50", buf, sizeof buf);
	memset(&s, 0, sizeof s);
	d = tc_etmv2_alloc(&c, &sink);
	if (d) {
		tc_etmv2_feed(d, buf, n);
		tc_etmv2_finish(d);
		tc_etmv2_free(d);
	}
	good = 0;
	for (int i = 0; i < s.n; i++)
		if (s.r[i].h.kind == tc_etmv2_miss)
			good = s.r[i].h.offset == 28 && !s.r[i].has_value && !s.r[i].vsize && !s.r[i].value &&
			       !s.r[i].has_daddr && !s.r[i].tag && !s.r[i].a;
	ok(good, "a Load Miss Occurred record with data_value=1: no value fields");
}

/* ERRATA ETM2-P22: at most four warnings an item. @28 DE, data_value=0: five Normal data packets
 * with SS = b01 (0x86: C = 1; the last 0x06: C = 0), each a data-size warning (ETM2-P4). */
static void test_four_warnings_an_item(void)
{
	struct tc_etmv2_config c = base_cfg(8);
	expect(&c, SYNC8 "01 86 04 86 04 86 04 86 04 06",
	       SYNC8_L1 "@28 1 de pkt=28\n@28 1 +data a=0\n@28 1 +data a=0\n@28 1 +data a=0\n@28 1 +data a=0\n"
			"@28 1 +data a=0\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x1\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x1\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x1\n"
			"@28 1 warning class=ignored-field field=data-size bits=0x1\n",
	       "five data-size warnings in one group: the first four written (ETM2-P22)");
}

/* ---- Random records: the decoder reads any file the same whole and in pieces ----------- */

static void test_random(void)
{
	static uint8_t buf[16 + 3 * 4000 + 3 * 22 * 20];
	static struct out whole, pieces;
	uint32_t x = 12345;
	int same = 1, items = 0;
	for (int round = 0; round < 24; round++) {
		struct tc_etmv2_config c = base_cfg(round % 3 == 0 ? 4 : round % 3 == 1 ? 8 : 16);
		c.data_address = (uint8_t)(round >> 1 & 1);
		c.data_value = (uint8_t)(round >> 2 & 1);
		c.contextid_size = (uint8_t)(round & 8 ? 4 : 0);
		c.cycle_accurate = (uint8_t)(round & 1);
		size_t rec = c.port_width == 16 ? 3 : 2, n = build(&c, "", buf, sizeof buf);
		for (int k = 0; k < 4000 && n + rec <= sizeof buf; k++) {
			if (k % 200 == 0 && n + 26 * rec <= sizeof buf) {
				/* a TFO of value 0 and its packet (header 0x20, Context ID 5a.., 0x8000), so that
				 * groups are read; on 16 bits one byte a cycle, the idle byte beside it */
				uint8_t pk[10];
				size_t np = 0;
				pk[np++] = 0x20;
				for (int b = 0; b < c.contextid_size; b++)
					pk[np++] = 0x5a;
				pk[np++] = 0x00, pk[np++] = 0x80, pk[np++] = 0x00, pk[np++] = 0x00;
				memset(buf + n, 0, rec);
				buf[n] = 7;
				buf[n + 1] = 9;
				n += rec;
				if (c.port_width == 4) {
					buf[n] = 4, buf[n + 1] = 0, n += rec;
				}
				for (size_t b = 0; b < np; b++) {
					if (c.port_width == 4) {
						buf[n] = 4, buf[n + 1] = pk[b] & 0xf, n += rec;
						buf[n] = 4, buf[n + 1] = pk[b] >> 4, n += rec;
					} else {
						buf[n] = 4, buf[n + 1] = pk[b], n += rec;
						if (rec == 3)
							buf[n - 1] = 0x66;
					}
				}
			}
			/* statuses weighted to TD with TRACEPKT[0] = 1 (TFOs) and WT, so that groups are read */
			x = x * 1103515245u + 12345u;
			uint8_t st = (uint8_t)(x >> 16 & 0xf);
			if ((x >> 8 & 7) == 0)
				st = 7;
			buf[n] = st;
			x = x * 1103515245u + 12345u;
			buf[n + 1] = (uint8_t)(x >> 16);
			if (c.port_width == 4)
				buf[n + 1] &= 0xf;
			if ((x >> 4 & 31) == 0)
				buf[n + 1] = 0x09;
			if (rec == 3)
				buf[n + 2] = (uint8_t)(x >> 24);
			n += rec;
		}
		decode_bytes(&c, buf, n, 0, &whole);
		decode_bytes(&c, buf, n, 7, &pieces);
		same &= strcmp(whole.l1, pieces.l1) == 0;
		items += whole.n;
	}
	ok(same && items > 100, "24 files of 4000 random records: the same L1 whole and in pieces of 7 bytes (%d lines)", items);
}

int main(void)
{
	test_table_6_5();
	test_example_6_1();
	test_table_6_4();
	test_pipestats();
	test_packets();
	test_miss_record();
	test_header_map();
	test_branches();
	test_warnings();
	test_warning_limit();
	test_ports();
	test_errors();
	test_config();
	test_api();
	test_text();
	test_record_fields();
	test_four_warnings_an_item();
	test_random();
	return tap_finish();
}
