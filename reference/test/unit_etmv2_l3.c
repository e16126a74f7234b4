/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_etmv2_l3.c — unit tests of the ETMv2 L3 analyzer (reference/etmv2/etmv2_analyze.c;
 * reference/etmv1/FORMAT.md "L3", ERRATA ETM2-P7, P8, P9, P13, P15, P16, P27, P28); prints TAP.
 *
 * The image is reference/test/l3case.c's (assembled by arm-linux-gnueabihf-as 2.40,
 * -march=armv5te, read back with objdump -d: the listing there). Each case feeds the analyzer L1
 * lines (tc_etmv2_parse_text) and compares its L3 text with the hand reasoning beside it; Table 6-5
 * runs whole: sample file, decoder, analyzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3case.h"
#include "tap.h"

#include "tracecert/etmv2.h"
#include "tracecert/etmv2_config.h"
#include "tracecert/image.h"

static struct tc_etmv2_config base_cfg(void)
{
	struct tc_etmv2_config c;
	tc_etmv2_config_default(&c);
	return c;
}

/* ---- L3 from L1 lines ---------------------------------------------------------------- */

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	l3case_append(ctx, tc_etmv2_format_l3, x);
}

/* The L3 of L1 lines (one a line of l1), over the image and, when top is set, a nop at 0xfffffffc,
 * the last word of the address space. */
static void analyze_top(const struct tc_etmv2_config *c, const char *l1, int top, struct l3case_out *o)
{
	static const uint8_t nop[4] = { 0x00, 0x00, 0xa0, 0xe1 };
	struct tc_image img;
	char copy[4096], *save = NULL;
	memset(o, 0, sizeof *o);
	l3case_load_image(&img);
	if (top && tc_image_add(&img, 0xfffffffcu, nop, sizeof nop) != 0)
		snprintf(o->text, sizeof o->text, "(image add failed)\n");
	struct tc_etmv2_analyzer *a = tc_etmv2_analyzer_alloc(c, on_l3, o);
	if (!a) {
		snprintf(o->text, sizeof o->text, "(alloc failed)\n");
		tc_image_free(&img);
		return;
	}
	tc_etmv2_analyzer_set_image(a, &img);
	snprintf(copy, sizeof copy, "%s", l1);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct tc_etmv2_record r;
		char err[128];
		memset(&r, 0, sizeof r);
		if (tc_etmv2_parse_text(l, &r, err, sizeof err) != 0) {
			size_t len = strlen(o->text);
			snprintf(o->text + len, sizeof o->text - len, "(bad L1 line '%s': %s)\n", l, err);
			continue;
		}
		tc_etmv2_analyze(a, &r);
	}
	tc_etmv2_analyze_flush(a);
	tc_etmv2_analyzer_free(a);
	tc_image_free(&img);
}

static void analyze(const struct tc_etmv2_config *c, const char *l1, struct l3case_out *o)
{
	analyze_top(c, l1, 0, o);
}

static void expect_l3(const struct tc_etmv2_config *c, const char *l1, const char *want, const char *what)
{
	struct l3case_out o;
	analyze(c, l1, &o);
	l3case_expect(&o, want, what);
}

/* A TFO turning trace on (reason b01, Table 6-7) at addr in ARM state, the start of most cases. */
#define ON(addr) "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 addr=" addr " isa=arm\n"

/* ---- Ranges: IE, DE, IN, DN, DW and branch addresses (Table 6-1, ETM2-P7, P27) ---------- */

static void test_ranges(void)
{
	struct tc_etmv2_config c = base_cfg();
	/* @26 IE b 1000 at 1014: taken (E), the walk at 1000; @28 IE mov 1000; @30 IN ldrb 1004 (not
	 * executed, in the range); @32 IE ldrh 1008: one range 1000-1008, written at the end. */
	expect_l3(&c, ON("0x1000") "", "@16 trace-on\n", "a TFO with reason b01 is trace-on, no instruction");
	expect_l3(&c, ON("0x1014") "@26 0 ie\n@28 0 ie\n@30 2 in\n@32 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1014 last=0x1014 n=1 isa=a32 type=dir taken=E\n"
		  "@28 range first=0x1000 last=0x1008 n=3 isa=a32 type=other taken=-\n",
		  "IE on a direct branch goes to its target; IN joins the range");
	/* @26 IE ldm 1018; @28 IN beq 101c: N ends the range; @30 DE bx lr at 1020 with its branch
	 * address 0x2000 (no vector, E = 0): the bx alone, E; @40 IE at 2000: no image (ETM2-P16);
	 * @42 nothing walks. */
	expect_l3(&c, ON("0x1018") "@26 0 ie\n@28 2 in\n@30 1 de pkt=30\n@30 1 +branch addr=0x2000 isa=arm n=2\n@40 0 ie\n@42 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1018 last=0x101c n=2 isa=a32 type=dir taken=N\n"
		  "@30 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@40 no-image addr=0x2000 isa=a32\n",
		  "IN on a branch: taken=N; a branch address ends bx lr; no image at its address");
	/* ETM2-P7: @26 IE bx lr at 1020 (indirect: the walk waits); @28 IE walks nothing; @30 DW with a
	 * branch address: the most recent instruction's, the bx; @32 IE mov 1000. */
	expect_l3(&c, ON("0x1020") "@26 0 ie\n@28 0 ie\n@30 5 dw pkt=30\n@30 5 +branch addr=0x1000 isa=arm n=2\n@32 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@32 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM2-P7: a DW's branch address is the most recent instruction's");
	/* ETM2-P27: a branch address on an IN (E = 0): the instruction executed whatever its status
	 * said; @26 DN ldr pc at 1028 to 0x1000, @28 IE mov 1000. */
	expect_l3(&c, ON("0x1028") "@26 3 dn pkt=26\n@26 3 +branch addr=0x1000 isa=arm n=2\n@28 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1028 last=0x1028 n=1 isa=a32 type=indir taken=E\n"
		  "@28 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM2-P27: with E = 0 the instruction of a branch address executed");
	/* Data packets give nothing at L3 (ETM2-P14): @26 DE ldrb with +data, @28 IE ldrh */
	expect_l3(&c, ON("0x1004") "@26 1 de pkt=26\n@26 1 +data a=0\n@28 0 ie\n",
		  "@16 trace-on\n@26 range first=0x1004 last=0x1008 n=2 isa=a32 type=other taken=-\n",
		  "ETM2-P14: a +data packet gives nothing");
}

/* ---- Phantoms (§6.1.2 L8509-8513, ETM2-P8) ----------------------------------------------- */

static void test_phantoms(void)
{
	struct tc_etmv2_config c = base_cfg();
	/* @26 PTIE: the b at 1014 taken (its own range, E), then the IE's instruction at its target,
	 * mov 1000; @28 IE ldrb 1004 joins it. */
	expect_l3(&c, ON("0x1014") "@26 8 ie phantom=E\n@28 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1014 last=0x1014 n=1 isa=a32 type=dir taken=E\n"
		  "@26 range first=0x1000 last=0x1004 n=2 isa=a32 type=other taken=-\n",
		  "PTIE: the branch taken, then the instruction at its target");
	/* @26 PNIE: beq at 101c not taken (N), then bx lr at 1020 executed (the walk waits); @28 DW's
	 * branch address 0x1000 ends the bx; @30 IE mov 1000. */
	expect_l3(&c, ON("0x101c") "@26 c ie phantom=N\n@28 5 dw pkt=28\n@28 5 +branch addr=0x1000 isa=arm n=2\n@30 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x101c last=0x101c n=1 isa=a32 type=dir taken=N\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@30 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "PNIE: the branch not taken, then the instruction after it");
	/* @26 PTIN: the b taken, the mov at 1000 not executed (IN): in the range all the same */
	expect_l3(&c, ON("0x1014") "@26 a in phantom=E\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1014 last=0x1014 n=1 isa=a32 type=dir taken=E\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "PTIN: the second instruction not executed");
}

/* ---- Exceptions: vectors and the E bit (L9174-9197, §4.5.3 L7383-7446, ETM2-P9, P15) ---- */

static void test_exceptions(void)
{
	struct tc_etmv2_config c = base_cfg();
	/* @26 IE mov 1000; @28 DN ldrb 1004 cancelled by an IRQ: a branch address to 0x18 with E = 1:
	 * the ldrb leaves the range, ret its address; @38 IE nop at 0x18. */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 3 dn pkt=28\n@28 3 +branch addr=0x18 isa=arm n=5 e=1\n@38 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 exception type=0xe ret=0x1004\n"
		  "@38 range first=0x18 last=0x18 n=1 isa=a32 type=other taken=-\n",
		  "E = 1 at the IRQ vector cancels the most recent instruction: ret is its address");
	/* @26 DE svc 1024 with a branch address to 0x8, E = 0: the svc executed, ret 0x1028 */
	expect_l3(&c, ON("0x1024") "@26 1 de pkt=26\n@26 1 +branch addr=0x8 isa=arm n=5 e=0\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1024 last=0x1024 n=1 isa=a32 type=other taken=-\n"
		  "@26 exception type=0xa ret=0x1028\n",
		  "SVC (0x08) with E = 0 follows its instruction: ret is the next one");
	/* ETM2-P15: E = 1 to an address that is no vector: type 0x0, the instruction cancelled */
	expect_l3(&c, ON("0x1000") "@26 3 dn pkt=26\n@26 3 +branch addr=0x2000 isa=arm n=5 e=1\n",
		  "@16 trace-on\n@26 exception type=0x0 ret=0x1000\n",
		  "ETM2-P15: E = 1 to no vector is an exception of type 0x0");
	/* hivecs=1: 0xffff001c is FIQ; 0x1c is then no vector */
	c.hivecs = 1;
	expect_l3(&c, ON("0x1000") "@26 3 dn pkt=26\n@26 3 +branch addr=0xffff001c isa=arm n=5 e=1\n",
		  "@16 trace-on\n@26 exception type=0xf ret=0x1000\n", "hivecs=1: 0xffff001c is FIQ");
	expect_l3(&c, ON("0x1000") "@26 1 de pkt=26\n@26 1 +branch addr=0x1c isa=arm n=5 e=0\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "hivecs=1: 0x1c is no vector");
	c.hivecs = 0;
	/* ETM2-P27: after an error no instruction is held: the FIQ's ret is unknown; @30 IE nop at 0x1c */
	expect_l3(&c, ON("0x1000") "@26 0 error class=truncated\n@28 5 dw pkt=28\n@28 5 +branch addr=0x1c isa=arm n=5 e=1\n@30 0 ie\n",
		  "@16 trace-on\n@26 error class=truncated\n@28 exception type=0xf ret=unknown\n"
		  "@30 range first=0x1c last=0x1c n=1 isa=a32 type=other taken=-\n",
		  "ETM2-P27, P28: a vector with no instruction held: ret=unknown; an error stops the walk");
}

/* ---- TFO reasons, LSiP, Context ID (Table 6-7, §6.5.5, §6.4.5; ETM2-P13, P28) ----------- */

static void test_tfo(void)
{
	struct tc_etmv2_config c = base_cfg();
	/* reason b00: the TFO cycle is the IE of the instruction at its address (mov 1000); @20 IE
	 * ldrb 1004 follows in the same range; no trace-on. */
	expect_l3(&c, "@16 7 tfo value=0 pkt=18 implied=ie\n@16 7 +tfo-packet reason=0 lsip=0 addr=0x1000 isa=arm\n@20 0 ie\n",
		  "@16 range first=0x1000 last=0x1004 n=2 isa=a32 type=other taken=-\n",
		  "ETM2-P13: reason b00 implies the IE of the instruction at its address");
	/* reason b10: overflow; the walk at 1008 (the ldrb at 1004 not walked) */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 7 tfo value=0 pkt=30\n@28 7 +tfo-packet reason=2 lsip=0 addr=0x1008 isa=arm\n@40 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 overflow\n"
		  "@40 range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-\n",
		  "reason b10: overflow, then the walk at the address");
	/* reason b11 (debug exit): trace-on */
	expect_l3(&c, "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=3 lsip=0 addr=0x1000 isa=arm\n@20 0 ie\n",
		  "@16 trace-on\n@20 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "reason b11: trace-on");
	/* LSiP (§6.5.5): the ldm at 1018 executed, then the walk at the current address 1000 */
	expect_l3(&c, "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=1 addr=0x1018 isa=arm cur=0x1000 cur-isa=arm\n@20 0 ie\n",
		  "@16 trace-on\n"
		  "@16 range first=0x1018 last=0x1018 n=1 isa=a32 type=other taken=-\n"
		  "@20 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "LSiP: the LSM executed, then the walk at the current address");
	/* ETM2-P28: trace-on, then the TFO's Context ID; a Context ID packet that repeats it gives
	 * nothing, a changed one `context` after the instructions before it */
	c.contextid_size = 4;
	expect_l3(&c, "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 ctxid=0x5 addr=0x1000 isa=arm\n"
		      "@20 0 ie\n@22 1 de pkt=22\n@22 1 +context-id ctxid=0x5\n@24 1 de pkt=24\n@24 1 +context-id ctxid=0x7\n",
		  "@16 trace-on\n@16 context el=0 ns=0 sf=0 ctxid=0x5 vmid=0x0\n"
		  "@20 range first=0x1000 last=0x1008 n=3 isa=a32 type=other taken=-\n"
		  "@24 context el=0 ns=0 sf=0 ctxid=0x7 vmid=0x0\n",
		  "Context ID: in the TFO packet and in a Context ID packet, when it changes");
}

/* ---- Thumb, triggers, gaps (ETM2-P27, ETM1-P25) ------------------------------------------ */

static void test_other(void)
{
	struct tc_etmv2_config c = base_cfg();
	/* Thumb at 1040: movs; the BL pair at 1042 (two statuses, the first walks nothing) to 104c;
	 * bx lr at 104c, executed, waits. */
	expect_l3(&c, "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 addr=0x1040 isa=thumb\n"
		      "@20 0 ie\n@22 0 ie\n@24 0 ie\n@26 0 ie\n",
		  "@16 trace-on\n"
		  "@20 range first=0x1040 last=0x1042 n=2 isa=t32 type=dir taken=E\n"
		  "@26 range first=0x104c last=0x104c n=1 isa=t32 type=indir taken=E\n",
		  "Thumb: the BL pair is two statuses, one instruction");
	/* a trigger between two instructions: the range before it, the trigger, the range after */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 6 trigger\n@28 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 trigger\n"
		  "@28 range first=0x1004 last=0x1004 n=1 isa=a32 type=other taken=-\n",
		  "a trigger ends the range being built");
	/* a gap: nothing walks until the next TFO */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 - gap\n@30 0 ie\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "a gap stops the walk");
	/* no image given: no-image at the first instruction */
	expect_l3(&c, ON("0x3000") "@26 0 ie\n@28 0 ie\n", "@16 trace-on\n@26 no-image addr=0x3000 isa=a32\n",
		  "ETM2-P16: no image at the address");
}

/* ---- Records the decoder never gives in this order, and the edges of the walk ----------- */

static void test_direct(void)
{
	struct tc_etmv2_config c = base_cfg();
	struct l3case_out o;
	/* A TFO packet record without its tfo item: the held mov is in the range before trace-on */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 7 +tfo-packet reason=1 lsip=0 addr=0x1008 isa=arm\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n@28 trace-on\n",
		  "ETM2-P28: a TFO packet commits the held instruction before its trace-on");
	/* A tfo item, then a branch address with E = 1 (no packet between): the tfo ended the mov's
	 * holding (ETM2-P27), so the IRQ's ret is unknown and the mov stays */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 7 tfo value=0 pkt=30\n@30 5 +branch addr=0x18 isa=arm n=5 e=1\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@30 exception type=0xe ret=unknown\n",
		  "ETM2-P27: a TFO ends the holding");
	/* The same after a gap: the gap ends the holding */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 - gap\n@30 5 +branch addr=0x18 isa=arm n=5 e=1\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@30 exception type=0xe ret=unknown\n",
		  "ETM2-P27: a gap ends the holding");
	/* An instruction record after an error: nothing walks (ETM2-P28) */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 0 error class=truncated\n@30 0 ie\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 error class=truncated\n",
		  "ETM2-P28: nothing walks after an error");
	/* ETM2-P27, P47: a Context ID packet of the same value ends the mov's holding without an item;
	 * the branch address to 0x1004 (no vector) with no instruction held ends the range, taken -;
	 * the ldrb at 0x1004 starts the next range */
	expect_l3(&c, ON("0x1000") "@20 1 +context-id ctxid=0x5\n@26 0 ie\n@28 1 +context-id ctxid=0x5\n"
		      "@30 5 +branch addr=0x1004 isa=arm n=2\n@32 0 ie\n",
		  "@16 trace-on\n@20 context el=0 ns=0 sf=0 ctxid=0x5 vmid=0x0\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@32 range first=0x1004 last=0x1004 n=1 isa=a32 type=other taken=-\n",
		  "ETM2-P27, P47: a branch address with none held ends the range");
	/* ETM2-P8: a phantom's instruction ends its range whatever it is: here the mov at 1000 (no
	 * branch: taken -), then the IE's ldrb at 1004 in a range of its own */
	expect_l3(&c, ON("0x1000") "@26 8 ie phantom=E\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@26 range first=0x1004 last=0x1004 n=1 isa=a32 type=other taken=-\n",
		  "ETM2-P8: a phantom on no branch still ends its range");
	/* ETM2-P13: LSiP's instruction at the address is executed: here ldr pc at 1028 (an indirect
	 * branch: taken E), then the walk at the current address 1000 */
	expect_l3(&c, "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=1 addr=0x1028 isa=arm cur=0x1000 cur-isa=arm\n"
		      "@26 0 ie\n",
		  "@16 trace-on\n"
		  "@16 range first=0x1028 last=0x1028 n=1 isa=a32 type=indir taken=E\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM2-P13: the LSiP instruction executed, a branch taken");
	/* l3range.h: the address after 0xfffffffc is 0 (32-bit addresses): one range across the top */
	analyze_top(&c, "@16 7 tfo value=0 pkt=18\n@16 7 +tfo-packet reason=1 lsip=0 addr=0xfffffffc isa=arm\n"
			"@26 0 ie\n@28 0 ie\n",
		    1, &o);
	l3case_expect(&o,
		      "@16 trace-on\n@26 range first=0xfffffffc last=0x0 n=2 isa=a32 type=other taken=-\n",
		      "a walk across 2^32 wraps to 0 in the same range");
}

/* ---- Table 6-5 whole: sample file, decoder, analyzer ------------------------------------ */

struct chain {
	struct tc_etmv2_analyzer *a;
};

static void on_item(void *ctx, const struct tc_etmv2_record *r)
{
	tc_etmv2_analyze(((struct chain *)ctx)->a, r);
}

static void test_table_6_5(void)
{
	/* reference/etmv1/FORMAT.md "Worked files": Table 6-5 on a 4-bit port, then the TFO packet
	 * (normal, b00, address 0x8000) and the DN's group; the image: 0x8000, 0x8004 mov r0, r0
	 * (e1a00000), 0x8008, 0x800c moveq r0, r0 (01a00000). L3: the implied IE at 0x8000, IE 0x8004,
	 * IN 0x8008, DN 0x800c: one range of four. */
	static const uint8_t file[] = {
		0x45, 0x54, 0x4d, 0x43, 1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0,
		0x01, 0x0d, 0x00, 0x0c, 0x04, 0x0b, 0x07, 0x09, 0x00, 0x01, 0x04, 0x06, 0x02, 0x0a, 0x03, 0x00,
		0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00, 0x04, 0x08, 0x04, 0x00, 0x04, 0x00, 0x04, 0x00,
		0x04, 0x00, 0x04, 0x02, 0x04, 0x00, 0x07, 0x00,
	};
	static const uint8_t code[] = { 0x00, 0x00, 0xa0, 0xe1, 0x00, 0x00, 0xa0, 0xe1,
					0x00, 0x00, 0xa0, 0x01, 0x00, 0x00, 0xa0, 0x01 };
	struct tc_etmv2_config c = base_cfg();
	c.port_width = 4;
	c.data_value = 1;
	struct tc_image img;
	struct l3case_out o;
	memset(&img, 0, sizeof img);
	memset(&o, 0, sizeof o);
	tc_image_add(&img, 0x8000, code, sizeof code);
	struct chain ch = { tc_etmv2_analyzer_alloc(&c, on_l3, &o) };
	tc_etmv2_analyzer_set_image(ch.a, &img);
	struct tc_etmv2_sink sink = { &ch, on_item };
	struct tc_etmv2_decoder *d = tc_etmv2_alloc(&c, &sink);
	tc_etmv2_feed(d, file, sizeof file);
	tc_etmv2_finish(d);
	tc_etmv2_analyze_flush(ch.a);
	const char *want = "@22 range first=0x8000 last=0x800c n=4 isa=a32 type=other taken=-\n";
	int good = strcmp(o.text, want) == 0;
	if (!good)
		note("got:\n%s", o.text);
	ok(good, "Table 6-5 through decoder and analyzer: one range of four from the TFO cycle");
	tc_etmv2_free(d);
	tc_etmv2_analyzer_free(ch.a);
	tc_image_free(&img);
}

static void test_api(void)
{
	struct tc_etmv2_config c = base_cfg();
	c.port_width = 5;
	ok(tc_etmv2_analyzer_alloc(&c, on_l3, NULL) == NULL, "an invalid configuration is refused");
	c = base_cfg();
	ok(tc_etmv2_analyzer_alloc(&c, NULL, NULL) == NULL, "no L3 callback is refused");
	tc_etmv2_analyze(NULL, NULL);
	tc_etmv2_analyze_flush(NULL);
	struct l3case_out o;
	memset(&o, 0, sizeof o);
	struct tc_etmv2_analyzer *a = tc_etmv2_analyzer_alloc(&c, on_l3, &o);
	struct tc_etmv2_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv2, tc_etmv2_trigger, 16 };
	tc_etmv2_analyze(a, NULL);
	tc_etmv2_analyze(NULL, &r);
	tc_etmv2_analyze_flush(a);
	tc_etmv2_analyzer_free(a);
	ok(a && o.text[0] == '\0', "a NULL record or analyzer is ignored");
	char buf[8] = "x";
	ok(tc_etmv2_format_l3(buf, sizeof buf, NULL) == 0 && buf[0] == '\0', "formatting no item writes nothing");
	buf[0] = 'x';
	ok(tc_etmv2_format_l3(buf, 1, NULL) == 0 && buf[0] == '\0', "formatting no item into one byte writes the NUL");
}

int main(void)
{
	test_ranges();
	test_phantoms();
	test_exceptions();
	test_tfo();
	test_other();
	test_direct();
	test_table_6_5();
	test_api();
	return tap_finish();
}
