/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_etmv1_l3.c — unit tests of the ETMv1 walk and L3 (reference/etmv1/etmv1_walk.c,
 * etmv1_analyze.c; reference/etmv1/FORMAT.md "L3", ERRATA ETM1-P10, P15, P17, P19, P23, P25, P26,
 * P36, P37, P38); prints TAP.
 *
 * The image is reference/test/l3case.c's (assembled by arm-linux-gnueabihf-as 2.40, -march=armv5te,
 * read back with objdump -d: the listing there). Most cases feed
 * the analyzer L1 lines (tc_etmv1_parse_text) and compare its L3 text with the hand reasoning
 * beside each case; Example 5-1 (IHI 0014 L8053-8122) runs whole: sample file, decoder, the image
 * walk, the analyzer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "l3case.h"
#include "tap.h"

#include "tracecert/etmv1.h"
#include "tracecert/etmv1_config.h"
#include "tracecert/image.h"

static struct tc_etmv1_config base_cfg(void)
{
	struct tc_etmv1_config c;
	tc_etmv1_config_default(&c);
	return c;
}

/* ---- L3 from L1 lines ---------------------------------------------------------------- */

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	l3case_append(ctx, tc_etmv1_format_l3, x);
}

/* The L3 of L1 lines (one a line of l1), over the image. */
static void analyze(const struct tc_etmv1_config *c, const char *l1, struct l3case_out *o)
{
	struct tc_image img;
	char copy[4096], *save = NULL;
	memset(o, 0, sizeof *o);
	l3case_load_image(&img);
	struct tc_etmv1_analyzer *a = tc_etmv1_analyzer_alloc(c, on_l3, o);
	if (!a) {
		snprintf(o->text, sizeof o->text, "(alloc failed)\n");
		tc_image_free(&img);
		return;
	}
	tc_etmv1_analyzer_set_image(a, &img);
	snprintf(copy, sizeof copy, "%s", l1);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct tc_etmv1_record r;
		char err[128];
		memset(&r, 0, sizeof r);
		if (tc_etmv1_parse_text(l, &r, err, sizeof err) != 0) {
			size_t len = strlen(o->text);
			snprintf(o->text + len, sizeof o->text - len, "(bad L1 line '%s': %s)\n", l, err);
			continue;
		}
		tc_etmv1_analyze(a, &r);
	}
	tc_etmv1_analyze_flush(a);
	tc_etmv1_analyzer_free(a);
	tc_image_free(&img);
}

static void expect_l3(const struct tc_etmv1_config *c, const char *l1, const char *want, const char *what)
{
	struct l3case_out o;
	analyze(c, l1, &o);
	l3case_expect(&o, want, what);
}

/* A trace-on at addr (reason b001), the start of most cases. */
#define ON(addr) "@16 4 be pkt=16 addr=" addr " isa=arm n=5 reason=1 apo=0\n"

/* ---- Ranges: IE, ID, IN, direct and indirect branches (Table 5-1, ETM1-P26, P38) ------ */

static void test_ranges(void)
{
	struct tc_etmv1_config c = base_cfg();
	/* @26 IE b 1000 at 1014: taken (E), the walk at 1000 (a range of its own, ended by the branch);
	 * @28 IE mov 1000; @30 IN ldrb 1004 (not executed, still in the range: ETM1-P26); @32 IE ldrh
	 * 1008: one range 1000-1008, written at the end. */
	expect_l3(&c, ON("0x1014") "@26 0 ie\n@28 0 ie\n@30 2 in\n@32 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1014 last=0x1014 n=1 isa=a32 type=dir taken=E\n"
		  "@28 range first=0x1000 last=0x1008 n=3 isa=a32 type=other taken=-\n",
		  "IE on a direct branch goes to its target; IN joins the range");
	/* @26 IE ldm 1018; @28 IN beq 101c: N ends the range; @30 BE bx lr at 1020 to 0x2000 (no
	 * vector): the bx alone, E; @40 IE at 2000: no image there; @42 nothing walks. */
	expect_l3(&c, ON("0x1018") "@26 0 ie\n@28 2 in\n@30 4 be pkt=30 addr=0x2000 isa=arm n=2 apo=0\n@40 0 ie\n@42 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1018 last=0x101c n=2 isa=a32 type=dir taken=N\n"
		  "@30 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@40 no-image addr=0x2000 isa=a32\n",
		  "IN on a branch: taken=N; BE on bx lr; no image at the branch address");
	/* @26 BD ldr pc at 1028 to 0x1000: the load ends its range; @36 IE mov 1000 */
	expect_l3(&c, ON("0x1028") "@26 5 bd pkt=26 value=0x1000 size=4 addr=0x1000 isa=arm n=2 apo=0\n@36 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1028 last=0x1028 n=1 isa=a32 type=indir taken=E\n"
		  "@36 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "BD: a load to the PC ends its range, the walk at its address");
	/* ETM1-P38: @26 IE on bx lr (an indirect branch with no address): executed, the walk waits;
	 * @28 IE walks nothing; @30 BE: no instruction of its own, the walk at 0x1000; @32 mov. */
	expect_l3(&c, ON("0x1020") "@26 0 ie\n@28 0 ie\n@30 4 be pkt=30 addr=0x1000 isa=arm n=2 apo=0\n@32 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@32 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM1-P38: IE on an indirect branch waits for the next branch address");
	/* A BE with reason b000 (a periodic full address on bx lr, L8249): the instruction's branch */
	expect_l3(&c, ON("0x1020") "@26 4 be pkt=26 addr=0x1000 isa=arm n=5 reason=0 apo=0\n@36 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@36 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM1-P15: reason b000 is the branch of the instruction");
	c.version = 2;
	expect_l3(&c, ON("0x1020") "@26 4 be pkt=26 addr=0x1000 isa=arm n=5 reason=4 apo=0\n",
		  "@16 trace-on\n@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n",
		  "ETM1-P15: reason b100 (ETMv1.2 periodic) likewise");
}

/* ---- Reasons b001-b011 (Table 5-3 L8206-8217, ETM1-P15) ------------------------------ */

static void test_reasons(void)
{
	struct tc_etmv1_config c = base_cfg();
	/* @26 IE mov 1000; @28 BE b010: overflow, no instruction (the ldrb at 1004 is not walked); the
	 * walk at 1008; @38 IE ldrh 1008 (a new range: 1004 was skipped). */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 4 be pkt=28 addr=0x1008 isa=arm n=5 reason=2 apo=0\n@38 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 overflow\n"
		  "@38 range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-\n",
		  "reason b010: overflow, then the walk at the address");
	/* b011 (exit from debug): trace-on, the walk at 100c; @38 IE ldr 100c */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 4 be pkt=28 addr=0x100c isa=arm n=5 reason=3 apo=0\n@38 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 trace-on\n"
		  "@38 range first=0x100c last=0x100c n=1 isa=a32 type=other taken=-\n",
		  "reason b011: trace-on, then the walk at the address");
}

/* ---- Exceptions by vector (§4.5.3 L7383-7446, ETM1-P17) ------------------------------ */

static void test_exceptions(void)
{
	struct tc_etmv1_config c = base_cfg();
	/* @26 IE mov 1000; @28 BE to 0x18 (IRQ, cancels): the ldrb at 1004 leaves nothing in a range,
	 * ret 0x1004; @38 IE nop at 0x18 (the vector region). */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 4 be pkt=28 addr=0x18 isa=arm n=5 reason=0 apo=0\n@38 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 exception type=0xe ret=0x1004\n"
		  "@38 range first=0x18 last=0x18 n=1 isa=a32 type=other taken=-\n",
		  "IRQ (0x18) cancels the instruction it struck: ret is its address");
	/* @26 BE at svc 1024 to 0x8 (SVC, no cancel): the svc executed, ret 0x1028 */
	expect_l3(&c, ON("0x1024") "@26 4 be pkt=26 addr=0x8 isa=arm n=5 reason=0 apo=0\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1024 last=0x1024 n=1 isa=a32 type=other taken=-\n"
		  "@26 exception type=0xa ret=0x1028\n",
		  "SVC (0x08) follows its instruction: ret is the next one");
	/* §5.7.4: an aborted ldr at 100c as BD to 0x10 (data abort, no cancel): ret 0x1010 */
	expect_l3(&c, ON("0x100c") "@26 5 bd pkt=26 value=0x0 size=4 addr=0x10 isa=arm n=5 reason=0 apo=0\n",
		  "@16 trace-on\n"
		  "@26 range first=0x100c last=0x100c n=1 isa=a32 type=other taken=-\n"
		  "@26 exception type=0xc ret=0x1010\n",
		  "data abort (0x10) as BD");
	/* each vector's type and category from 1000 (mov): reset 0x0 cancels, undefined 0x4 no, prefetch
	 * abort 0xc cancels, FIQ 0x1c cancels; 0x14 is no vector (a plain branch) */
	static const struct { const char *addr, *l3; } v[] = {
		{ "0x0", "@26 exception type=0x8 ret=0x1000\n" },
		{ "0x4", "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n@26 exception type=0x9 ret=0x1004\n" },
		{ "0xc", "@26 exception type=0xb ret=0x1000\n" },
		{ "0x1c", "@26 exception type=0xf ret=0x1000\n" },
		{ "0x14", "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n" },
	};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		char l1[256], want[256];
		snprintf(l1, sizeof l1, ON("0x1000") "@26 4 be pkt=26 addr=%s isa=arm n=5 reason=0 apo=0\n", v[i].addr);
		snprintf(want, sizeof want, "@16 trace-on\n%s", v[i].l3);
		char what[64];
		snprintf(what, sizeof what, "vector %s with hivecs=0", v[i].addr);
		expect_l3(&c, l1, want, what);
	}
	/* hivecs=1: 0xffff0018 is IRQ, 0x18 a plain branch */
	c.hivecs = 1;
	expect_l3(&c, ON("0x1000") "@26 4 be pkt=26 addr=0xffff0018 isa=arm n=5 reason=0 apo=0\n",
		  "@16 trace-on\n@26 exception type=0xe ret=0x1000\n", "hivecs=1: 0xffff0018 is IRQ");
	expect_l3(&c, ON("0x1000") "@26 4 be pkt=26 addr=0x18 isa=arm n=5 reason=0 apo=0\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "hivecs=1: 0x18 is no vector");
	c.hivecs = 0;
	/* a Thumb address at 0x18 (bit 0 set: isa=thumb) is no vector: ARM state only */
	expect_l3(&c, ON("0x1000") "@26 4 be pkt=26 addr=0x18 isa=thumb n=5 reason=0 apo=0\n",
		  "@16 trace-on\n@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "a Thumb branch address at 0x18 is no vector");
	/* after an error the walk knows no instruction: the exception's ret is unknown */
	expect_l3(&c, "@20 4 error class=apo-mismatch\n@30 4 be pkt=30 addr=0x4 isa=arm n=5 reason=0 apo=0\n",
		  "@20 error class=apo-mismatch\n@30 exception type=0x9 ret=unknown\n",
		  "a vector with no instruction known: ret=unknown");
}

/* ---- Thumb and the BL pair (ETM1-P25) ----------------------------------------------- */

static void test_thumb(void)
{
	struct tc_etmv1_config c = base_cfg();
	/* @26 IE blx 1040 at 1038 (direct, to Thumb); @28 IE movs 1040; @30 IE the BL pair's first
	 * half (nothing yet); @32 IE its second: bl 104c joins, taken; @34 BE bx lr at 104c to 1046;
	 * @40 IE push 1046. */
	expect_l3(&c, ON("0x1038") "@26 0 ie\n@28 0 ie\n@30 0 ie\n@32 0 ie\n@34 4 be pkt=34 addr=0x1046 isa=thumb n=1 apo=0\n@40 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1038 last=0x1038 n=1 isa=a32 type=dir taken=E\n"
		  "@28 range first=0x1040 last=0x1042 n=2 isa=t32 type=dir taken=E\n"
		  "@34 range first=0x104c last=0x104c n=1 isa=t32 type=indir taken=E\n"
		  "@40 range first=0x1046 last=0x1046 n=1 isa=t32 type=other taken=-\n",
		  "BLX to Thumb, the BL pair as two PIPESTATs, bx lr");
	/* an IRQ between the pair's halves: the walk is at the pair (ret 0x1042), which is cancelled */
	expect_l3(&c, "@16 4 be pkt=16 addr=0x1040 isa=thumb n=5 reason=1 apo=0\n@26 0 ie\n@28 0 ie\n"
		  "@30 4 be pkt=30 addr=0x18 isa=arm n=5 reason=0 apo=0\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1040 last=0x1040 n=1 isa=t32 type=other taken=-\n"
		  "@30 exception type=0xe ret=0x1042\n",
		  "ETM1-P25: an exception between the BL pair's halves finds the walk at the pair");
}

/* ---- The abandoned branch, both readings (ETM1-P19) --------------------------------- */

static void test_abandoned(void)
{
	struct tc_etmv1_config c = base_cfg();
	const char *l1 = ON("0x1020") "@26 4 be pkt=26 addr=0x2000 isa=arm n=2 apo=- abandoned=1\n"
				      "@30 4 be pkt=30 addr=0x18 isa=arm n=5 reason=0 apo=0\n@40 0 ie\n";
	/* default: bx lr at 1020 executed (E), the walk waits; the IRQ at @30 cancels nothing, ret the
	 * abandoned address 0x2000; @40 IE nop at 0x18 */
	expect_l3(&c, l1,
		  "@16 trace-on\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@30 exception type=0xe ret=0x2000\n"
		  "@40 range first=0x18 last=0x18 n=1 isa=a32 type=other taken=-\n",
		  "ETM1-P19 default: the abandoned branch executed, the exception struck its target");
	/* ETM1-P19-discard: the abandoned branch gives nothing; the IRQ is bx lr's branch: it cancels the
	 * bx, ret 0x1020 */
	c.abandoned_discard = 1;
	expect_l3(&c, l1,
		  "@16 trace-on\n"
		  "@30 exception type=0xe ret=0x1020\n"
		  "@40 range first=0x18 last=0x18 n=1 isa=a32 type=other taken=-\n",
		  "ETM1-P19-discard: the new branch is the same instruction's");
	/* default, a new branch to no vector: the walk moves to its address with no instruction */
	c.abandoned_discard = 0;
	expect_l3(&c, ON("0x1020") "@26 4 be pkt=26 addr=0x2000 isa=arm n=2 apo=- abandoned=1\n"
		      "@30 4 be pkt=30 addr=0x1000 isa=arm n=2 apo=0\n@40 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@40 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM1-P19 default: the branch after an abandoned one is no instruction");
}

/* ---- Context ID, Jazelle, errors, gaps, triggers ------------------------------------- */

static void test_other_items(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.contextid_size = 1;
	/* context items when the Context ID changes (§5.6.3): 0x12 at @16, 0x12 again at @30 (nothing),
	 * 0x34 at @40 */
	expect_l3(&c, "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 ctxid=0x12 apo=0\n"
		      "@30 4 be pkt=30 addr=0x1020 isa=arm n=5 reason=0 ctxid=0x12 apo=0\n"
		      "@40 4 be pkt=40 addr=0x1000 isa=arm n=5 reason=0 ctxid=0x34 apo=0\n",
		  "@16 trace-on\n@16 context el=0 ns=0 sf=0 ctxid=0x12 vmid=0x0\n"
		  "@30 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@40 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@40 context el=0 ns=0 sf=0 ctxid=0x34 vmid=0x0\n",
		  "context when the Context ID changes");
	c = base_cfg();
	/* ETM1-P23: @26 bx lr into Jazelle: the bx, then error class=jazelle; @30 IE, @32 a short
	 * Jazelle address: nothing; @40 a five-packet ARM address (J = 0): the walk at 1000, no
	 * instruction; @50 IE mov */
	expect_l3(&c, ON("0x1020") "@26 4 be pkt=26 addr=0x3000 isa=jazelle n=5 reason=0 j=1 apo=0\n@30 0 ie\n"
		      "@32 4 be pkt=32 addr=0x3010 isa=jazelle n=1 apo=0\n"
		      "@40 4 be pkt=40 addr=0x1000 isa=arm n=5 reason=0 j=0 apo=0\n@50 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1020 last=0x1020 n=1 isa=a32 type=indir taken=E\n"
		  "@26 error class=jazelle\n"
		  "@50 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n",
		  "ETM1-P23: Jazelle stops the walk until a five-packet address with J = 0");
	/* an error: the range first, then the error; nothing walks until the next branch address, whose
	 * branch is no instruction (ETM1-P38); a trigger writes the range before it */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 6 trigger\n@30 0 ie\n@32 4 error class=apo-mismatch\n@34 0 ie\n"
		      "@40 4 be pkt=40 addr=0x1008 isa=arm n=5 reason=0 apo=0\n@50 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1000 n=1 isa=a32 type=other taken=-\n"
		  "@28 trigger\n"
		  "@30 range first=0x1004 last=0x1004 n=1 isa=a32 type=other taken=-\n"
		  "@32 error class=apo-mismatch\n"
		  "@50 range first=0x1008 last=0x1008 n=1 isa=a32 type=other taken=-\n",
		  "error, trigger: the walk stops until the next branch address");
	/* a gap and an unassigned run stop the walk silently; trace-disabled and warnings change nothing */
	expect_l3(&c, ON("0x1000") "@26 0 ie\n@28 7 trace-disabled\n@30 0 ie\n@32 - gap\n@34 0 ie\n"
		      "@40 4 be pkt=40 addr=0x1008 isa=arm n=5 reason=0 apo=0\n@44 3 unassigned n=2\n@50 0 ie\n",
		  "@16 trace-on\n"
		  "@26 range first=0x1000 last=0x1004 n=2 isa=a32 type=other taken=-\n",
		  "gap and unassigned stop the walk; trace-disabled does not");
}

/* ---- The walk's transfers (Table 5-2 L8133-8135, ETM1-P10, P31, P36, P37) ------------ */

static void transfers_at(const struct tc_etmv1_config *c, const char *addr, const char *isa,
			 struct tc_etmv1_transfers *t)
{
	struct tc_image img;
	char line[128];
	struct tc_etmv1_record r;
	l3case_load_image(&img);
	struct tc_etmv1_imagewalk *w = tc_etmv1_imagewalk_alloc(c);
	struct tc_etmv1_walk k = tc_etmv1_imagewalk_callbacks(w);
	tc_etmv1_imagewalk_set_image(w, &img);
	snprintf(line, sizeof line, "@16 4 be pkt=16 addr=%s isa=%s n=5 reason=1 apo=0", addr, isa);
	memset(&r, 0, sizeof r);
	tc_etmv1_parse_text(line, &r, NULL, 0);
	k.retire(k.ctx, &r);
	memset(&r, 0, sizeof r);
	tc_etmv1_parse_text("@26 1 id", &r, NULL, 0);
	k.transfers(k.ctx, &r, t);
	tc_etmv1_imagewalk_free(w);
	tc_image_free(&img);
}

static void expect_transfers(const struct tc_etmv1_config *c, const char *addr, const char *isa, int status,
			     unsigned n, unsigned size, const char *what)
{
	struct tc_etmv1_transfers t;
	transfers_at(c, addr, isa, &t);
	int good = t.status == status && (status != 0 || t.n == n);
	for (unsigned i = 0; good && i < t.n; i++)
		good = t.size[i] == size;
	if (!good)
		note("status %d n %u size[0] %u", t.status, t.n, t.n ? t.size[0] : 0);
	ok(good, "%s", what);
}

static void test_transfers(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.data_value = 1;
	expect_transfers(&c, "0x1004", "arm", 0, 1, 1, "ldrb: one value of 1 byte");
	expect_transfers(&c, "0x1008", "arm", 0, 1, 2, "ldrh: 2 bytes");
	expect_transfers(&c, "0x100c", "arm", 0, 1, 4, "ldr: 4 bytes");
	expect_transfers(&c, "0x1018", "arm", 0, 3, 4, "ldm of three registers: 3 x 4 (n * 4, L8135)");
	expect_transfers(&c, "0x1034", "arm", 0, 2, 4, "swp: a load and a store of 4");
	expect_transfers(&c, "0x1046", "thumb", 0, 2, 4, "Thumb push {r4, lr}: 2 x 4");
	expect_transfers(&c, "0x1000", "arm", 0, 0, 0, "mov: no value");
	expect_transfers(&c, "0x1030", "arm", 2, 0, 0, "ldc with data_value=1: unknown length (ETM1-P10)");
	expect_transfers(&c, "0x102c", "arm", 0, 0, 0, "mcr with cprt=0: not traced (ETM1-P37)");
	expect_transfers(&c, "0x2000", "arm", 1, 0, 0, "no image: status 1");
	c.cprt = 1;
	expect_transfers(&c, "0x102c", "arm", 0, 1, 4, "mcr with cprt=1: one word (L7903)");
	c.data_value = 0;
	expect_transfers(&c, "0x100c", "arm", 0, 0, 0, "ldr with data_value=0, cprt=1: no value (ETM1-P37)");
	expect_transfers(&c, "0x1030", "arm", 0, 0, 0, "ldc with data_value=0: no value");
}

/* ---- Example 5-1 whole: sample file, decoder, the image walk, L3 ----------------------- */

struct e2e {
	struct tc_etmv1_analyzer *a;
	char l1[4096];
};

static void e2e_item(void *ctx, const struct tc_etmv1_record *r)
{
	struct e2e *e = ctx;
	char buf[512];
	size_t len = strlen(e->l1);
	tc_etmv1_format(buf, sizeof buf, r);
	snprintf(e->l1 + len, sizeof e->l1 - len, "%s\n", buf);
	tc_etmv1_analyze(e->a, r);
}

static void test_example_5_1(void)
{
	/* reference/test/unit_etmv1.c's example_5_1: the rows of L8078-8111 after the synchronising
	 * prefix, configuration ETM1-S4 (version 1, 8-bit, cycle-accurate, branch output, data values) */
	static const char hex[] = "14 80 00 a0 00 80 03 80 03 10 07 01 07 01 07 01 07 01 00 01 07 01 07 01 07 01 "
				  "07 01 07 01 01 11 07 01 07 01 07 01 07 01 07 01 01 11 03 22 07 01 07 01 03 11 "
				  "03 22 03 33 03 44 01 01 07 01 07 01 07 01 00 01 14 00 00 01 00 01";
	struct tc_etmv1_config c = base_cfg();
	c.version = 1;
	c.cycle_accurate = 1;
	c.branch_output = 1;
	c.data_value = 1;
	uint8_t buf[256] = { 0x45, 0x54, 0x4d, 0x43, 1, 1, 1, 8, 0, 0 };
	size_t n = 16;
	for (const char *p = hex; *p && n < sizeof buf;)
		buf[n++] = (uint8_t)strtoul(p, (char **)&p, 16);
	struct tc_image img;
	struct l3case_out o;
	struct e2e e;
	l3case_load_image(&img);
	memset(&o, 0, sizeof o);
	memset(&e, 0, sizeof e);
	e.a = tc_etmv1_analyzer_alloc(&c, on_l3, &o);
	tc_etmv1_analyzer_set_image(e.a, &img);
	struct tc_etmv1_imagewalk *w = tc_etmv1_imagewalk_alloc(&c);
	tc_etmv1_imagewalk_set_image(w, &img);
	struct tc_etmv1_walk k = tc_etmv1_imagewalk_callbacks(w);
	struct tc_etmv1_sink sink = { &e, e2e_item };
	struct tc_etmv1_decoder *d = tc_etmv1_alloc(&c, &sink, &k);
	tc_etmv1_feed(d, buf, n);
	tc_etmv1_finish(d);
	tc_etmv1_analyze_flush(e.a);
	/* L1: FORMAT.md's worked file, the value sizes now from the image (ldrb 1, ldrh 2, ldr 4) */
	const char *want_l1 = "@16 4 be pkt=16 addr=0x1000 isa=arm n=5 reason=1 apo=0\n@34 0 ie\n"
			      "@46 1 id pkt=46 value=0x11 size=1\n@58 1 id pkt=58 value=0x2211 size=2\n"
			      "@74 1 id pkt=66 value=0x44332211 size=4\n@82 0 ie\n"
			      "@84 4 be pkt=84 addr=0x1000 isa=arm n=1 apo=0\n";
	/* L3: trace-on (b001), then mov, ldrb, ldrh, ldr, nop and the B at 0x1014 to 0x1000 (BE,
	 * branch_output): one range from the IE at @34, ended by the direct branch, taken */
	const char *want_l3 = "@16 trace-on\n@34 range first=0x1000 last=0x1014 n=6 isa=a32 type=dir taken=E\n";
	int g1 = strcmp(e.l1, want_l1) == 0, g3 = strcmp(o.text, want_l3) == 0;
	if (!g1)
		note("L1 got:\n%s", e.l1);
	if (!g3)
		note("L3 got:\n%s", o.text);
	ok(g1, "Example 5-1: L1 with the image walk equals FORMAT.md's worked file");
	ok(g3, "Example 5-1: L3 one range 0x1000-0x1014 ended by the taken B");
	tc_etmv1_free(d);
	tc_etmv1_imagewalk_free(w);
	tc_etmv1_analyzer_free(e.a);
	tc_image_free(&img);
}

static void test_api(void)
{
	struct tc_etmv1_config c = base_cfg();
	c.version = 9;
	ok(!tc_etmv1_analyzer_alloc(&c, on_l3, NULL) && !tc_etmv1_imagewalk_alloc(&c) &&
	   !tc_etmv1_analyzer_alloc(NULL, on_l3, NULL), "alloc refuses an invalid configuration");
	c = base_cfg();
	struct tc_etmv1_transfers t;
	struct tc_etmv1_imagewalk *w = tc_etmv1_imagewalk_alloc(&c);
	struct tc_etmv1_walk k = tc_etmv1_imagewalk_callbacks(w);
	struct tc_etmv1_record r;
	memset(&r, 0, sizeof r);
	tc_etmv1_parse_text("@16 4 be pkt=16 addr=0x1004 isa=arm n=5 reason=1 apo=0", &r, NULL, 0);
	k.retire(k.ctx, &r);
	k.transfers(k.ctx, &r, &t);
	ok(t.status == 1, "a walk with no image: every value is the no-image case");
	tc_etmv1_imagewalk_free(w);

	/* The analyzer's guards: a NULL analyzer or record is ignored (no L3, no crash). */
	struct l3case_out o;
	memset(&o, 0, sizeof o);
	struct tc_etmv1_analyzer *a = tc_etmv1_analyzer_alloc(&c, on_l3, &o);
	tc_etmv1_analyze(a, NULL);
	tc_etmv1_analyze(NULL, &r);
	tc_etmv1_analyze_flush(a);
	tc_etmv1_analyzer_free(a);
	ok(a && o.text[0] == '\0', "tc_etmv1_analyze ignores a NULL record and a NULL analyzer");

	/* tc_etmv1_format_l3: no item is "" (the buffer cleared, of any size but 0) and 0; a size of 0
	 * writes nothing (the buffer may be NULL). */
	char buf[8] = "zzzzzzz", one[1] = { 'z' };
	int n = tc_etmv1_format_l3(buf, sizeof buf, NULL);
	ok(n == 0 && buf[0] == '\0' && buf[1] == 'z', "format_l3 of no item: \"\", returns 0");
	ok(tc_etmv1_format_l3(one, 1, NULL) == 0 && one[0] == '\0', "format_l3 of no item, a buffer of 1 byte: cleared");
	struct tc_l3 x;
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_etmv1;
	x.h.kind = tc_l3_trigger;
	char line[64];
	int len = tc_etmv1_format_l3(line, sizeof line, &x);
	ok(tc_etmv1_format_l3(NULL, 0, &x) == len && len > 0, "format_l3 with size 0 writes nothing and returns the length (%d)", len);
}

int main(void)
{
	test_ranges();
	test_reasons();
	test_exceptions();
	test_thumb();
	test_abandoned();
	test_other_items();
	test_transfers();
	test_example_5_1();
	test_api();
	return tap_finish();
}
