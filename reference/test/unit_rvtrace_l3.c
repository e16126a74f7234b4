/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_rvtrace_l3.c — unit tests of the RISC-V processor trace 0.026 L3 walk (rvtrace_analyze.c, ERRATA
 * RV-P5, RV-P8…RV-P19, RV-X1, RV-E5); prints TAP. The images are assembled by riscv64-linux-gnu-as 2.40 (the
 * source beside the bytes, -march=rv32gc -mno-relax) and checked against its objdump; the packets are
 * L1 records built by hand (one end-to-end case feeds the bytes of FORMAT.md's worked example), and
 * every expected L3 line is reasoned in the comments beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "rvtrace/rvtrace_internal.h"
#include "tracecert/image.h"
#include "tracecert/rvtrace.h"
#include "tracecert/rvtrace_config.h"

/* Image A at 0x80000000 (RV32, objdump -M no-aliases,numeric):
 *   80000000 00200513 addi x10,x0,2
 *   80000004 fff50513 addi x10,x10,-1        L:
 *   80000008 fe051ee3 bne x10,x0,80000004    (to L)
 *   8000000c 00000297 auipc x5,0x0
 *   80000010 018280e7 jalr x1,24(x5)         objdump: # 80000024 (the pair, RV-P12)
 *   80000014 01c0006f jal x0,80000030
 *   80000018 00000013 addi x0,x0,0
 *   8000001c 00000013 addi x0,x0,0
 *   80000020 00000013 addi x0,x0,0
 *   80000024 00158593 addi x11,x11,1         F:
 *   80000028 00008067 jalr x0,0(x1)          (a return: uninferable)
 *   8000002c 00000013 addi x0,x0,0
 *   80000030 30200073 mret */
static const uint8_t image_a[] = {
	0x13, 0x05, 0x20, 0x00, 0x13, 0x05, 0xf5, 0xff, 0xe3, 0x1e, 0x05, 0xfe, 0x97, 0x02, 0x00, 0x00,
	0xe7, 0x80, 0x82, 0x01, 0x6f, 0x00, 0xc0, 0x01, 0x13, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00,
	0x13, 0x00, 0x00, 0x00, 0x93, 0x85, 0x15, 0x00, 0x67, 0x80, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00,
	0x73, 0x00, 0x20, 0x30,
};
#define A 0x80000000u

/* Image B at 0x1000 (-march=rv32gc; RV64's objdump -m riscv:rv64 shows 0x2021 as .2byte: c.addiw x0,
 * reserved there, RV-P21):
 *   1000 2021 c.jal 1008   (RV32 only)
 *   1002 0001 c.addi x0,0
 *   1004 0001 c.addi x0,0
 *   1006 0001 c.addi x0,0
 *   1008 6289 c.lui x5,0x2
 *   100a 8282 c.jr x5 */
static const uint8_t image_b[] = { 0x21, 0x20, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x89, 0x62, 0x82, 0x82 };

/* ---- Collecting L3 ------------------------------------------------------------------- */

struct out {
	char text[16384];
};

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct out *o = ctx;
	char buf[256];
	size_t len = strlen(o->text);
	tc_l3_format(buf, sizeof buf, x, tc_rvtrace_error_names, tc_rvtrace_err_count);
	snprintf(o->text + len, sizeof o->text - len, "%s\n", buf);
}

struct run {
	struct tc_image image;
	struct rv_l3 a;
	struct out o;
	uint64_t off;
};

static void start(struct run *r, int rv32, const uint8_t *img, size_t len, uint64_t base)
{
	struct tc_rvtrace_config cfg;
	memset(r, 0, sizeof *r);
	tc_rvtrace_config_default(&cfg);
	cfg.rv32 = rv32;
	cfg.iaddress_width_p = rv32 ? 32 : 64;
	if (img && tc_image_add(&r->image, base, img, len))
		abort();
	rv_l3_init(&r->a, &cfg);
	r->a.image = &r->image;
	r->a.sink = on_l3;
	r->a.ctx = &r->o;
}

static void finish(struct run *r, const char *want, const char *what)
{
	rv_l3_finish(&r->a);
	if (strcmp(r->o.text, want))
		note("got:\n%swant:\n%s", r->o.text, want);
	ok(!strcmp(r->o.text, want), "%s", what);
	tc_image_free(&r->image);
}

/* Each packet is at the next offset: 10, 20, 30… */
static struct tc_rvtrace_packet pkt(struct run *r, int kind)
{
	struct tc_rvtrace_packet p;
	memset(&p, 0, sizeof p);
	p.h.size = sizeof p;
	p.h.protocol = tc_proto_rvtrace;
	p.h.kind = (uint16_t)kind;
	r->off += 10;
	p.h.offset = r->off;
	return p;
}

static void sync(struct run *r, int kind, unsigned priv, int branch, uint64_t addr, unsigned ecause)
{
	struct tc_rvtrace_packet p = pkt(r, kind);
	p.privilege = (uint8_t)priv;
	p.branch = (uint8_t)branch;
	p.address = addr;
	p.ecause = (uint16_t)ecause;
	p.has_context = 1;
	rv_l3_packet(&r->a, &p);
}

static void full(struct run *r, unsigned branches, uint32_t map, uint64_t addr)
{
	struct tc_rvtrace_packet p = pkt(r, tc_rvtrace_pkt_full_delta);
	p.branches = (uint8_t)branches;
	p.map = map;
	p.address = addr;
	rv_l3_packet(&r->a, &p);
}

static void diff(struct run *r, unsigned branches, uint32_t map, int64_t d)
{
	struct tc_rvtrace_packet p = pkt(r, tc_rvtrace_pkt_diff_delta);
	p.branches = (uint8_t)branches;
	p.map = map;
	p.diff = d;
	rv_l3_packet(&r->a, &p);
}

static void addr_only(struct run *r, int64_t d)
{
	struct tc_rvtrace_packet p = pkt(r, tc_rvtrace_pkt_addr_only);
	p.diff = d;
	rv_l3_packet(&r->a, &p);
}

static void support(struct run *r, int enable, int qual)
{
	struct tc_rvtrace_packet p = pkt(r, tc_rvtrace_pkt_support);
	p.enable = (uint8_t)enable;
	p.qual = (uint8_t)qual;
	rv_l3_packet(&r->a, &p);
}

/* ---- The walk ------------------------------------------------------------------------ */

#define CTX3 "context el=3 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"

/* A loop twice round, a pair, a return, a jal at the packet's address, an mret, an exception. */
static void test_walk(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 sync-start priv 3 at 80000000: the first sync, a context item (RV-P9), the addi opens and
	 * closes a range (RV-P10). */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A, 0);
	/* @20 diff-delta branches=2 map=0b10 diff=+0x14 → 80000014 (RV-P5, base 80000000): from 04: addi,
	 * bne bit 0 = 0 taken → 04; addi, bne bit 1 = 1 not taken; auipc, jalr x1,24(x5) the pair → 24;
	 * addi, jalr x0,0(x1) uninferable → the packet's address 14 (RV-P13); jal at 14 with every bit
	 * taken: the walk stops there. */
	diff(&r, 2, 0x2, 0x14);
	/* @30 addr-only diff=+0x4 → 80000018 (base 80000014): from the jal's target 30: mret (indir E,
	 * exception-return, RV-P15), uninferable → 18: the addi there is the last. */
	addr_only(&r, 0x4);
	/* @40 sync-exception ecause 2 at 80000020: ret = the successor of 18, 1c (RV-P14); privilege
	 * unchanged: no context item; sync-exception walks nothing (RV-P11). */
	sync(&r, tc_rvtrace_pkt_sync_exception, 3, 0, A + 0x20, 2);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=E\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=N\n"
	       "@20 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000024 last=0x80000028 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000014 last=0x80000014 n=1 isa=rv32 type=dir taken=E\n"
	       "@30 range first=0x80000030 last=0x80000030 n=1 isa=rv32 type=indir taken=E\n"
	       "@30 exception-return\n"
	       "@30 range first=0x80000018 last=0x80000018 n=1 isa=rv32 type=other taken=-\n"
	       "@40 exception type=0x2 ret=0x8000001c\n"
	       "@40 range first=0x80000020 last=0x80000020 n=1 isa=rv32 type=other taken=-\n",
	       "walk: loop, pair, return, jal at the address, mret, exception (RV-P10, RV-P12…RV-P15)");
}

/* RV-X1: the same packet under both readings of the differential sign. */
static void test_diff_sign(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	r.a.cfg.diff_sign = 1;
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A, 0);
	/* trdb's reading, last minus this: diff = -0x14 is 80000000 - (-0x14) = 80000014: the walk of
	 * test_walk's @20. */
	diff(&r, 2, 0x2, -0x14);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=E\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=N\n"
	       "@20 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000024 last=0x80000028 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000014 last=0x80000014 n=1 isa=rv32 type=dir taken=E\n",
	       "RV-X1 trdb reading: base - diff");
	start(&r, 1, image_a, sizeof image_a, A);
	r.a.cfg.diff_sign = 1;
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A, 0);
	/* The same +0x14 under trdb's reading is 7fffffec: the walk passes 14 with every bit taken but
	 * not at the address, returns from 28 to 7fffffec, where the image has nothing (RV-P19). */
	diff(&r, 2, 0x2, 0x14);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=E\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=N\n"
	       "@20 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000024 last=0x80000028 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 no-image addr=0x7fffffec isa=rv32\n",
	       "RV-X1 trdb reading: +0x14 is another address");
}

/* The sync's branch bit, a jalr at a sync, the sync walk of RV-P11, the end of the trace. */
static void test_sync(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 sync at the bne with branch=1: not taken (L385) → next 0c. */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 1, A + 8, 0);
	/* @20 sync-start at 80000024 with a position: the walk with no map bit from 0c: auipc, the pair
	 * to 24 = the address: the walk stops before it (RV-P11). Privilege 1 now: a context item. */
	sync(&r, tc_rvtrace_pkt_sync_start, 1, 0, A + 0x24, 0);
	/* @30 sync-start at the jalr x0,0(x1) at 28: walks nothing (24's successor is 28); the jalr at a
	 * sync is uninferable (RV-P12). */
	sync(&r, tc_rvtrace_pkt_sync_start, 1, 0, A + 0x28, 0);
	/* @40 sync-exception: after an uninferable jump ret=unknown (RV-P14). */
	sync(&r, tc_rvtrace_pkt_sync_exception, 1, 0, A + 0x18, 5);
	/* @50 te_support qual=3 ends the trace (RV-P17): trace-off (RV-P24); @60 a format 2 walks nothing;
	 * @70 sync: trace-on. */
	support(&r, 1, 3);
	addr_only(&r, 0x4);
	sync(&r, tc_rvtrace_pkt_sync_start, 1, 0, A + 0x20, 0);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000008 last=0x80000008 n=1 isa=rv32 type=dir taken=N\n"
	       "@20 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 context el=1 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	       "@20 range first=0x80000024 last=0x80000024 n=1 isa=rv32 type=other taken=-\n"
	       "@30 range first=0x80000028 last=0x80000028 n=1 isa=rv32 type=indir taken=E\n"
	       "@40 exception type=0x5 ret=unknown\n"
	       "@40 range first=0x80000018 last=0x80000018 n=1 isa=rv32 type=other taken=-\n"
	       "@50 trace-off\n"
	       "@70 trace-on\n"
	       "@70 range first=0x80000020 last=0x80000020 n=1 isa=rv32 type=other taken=-\n",
	       "syncs: branch bit, RV-P11 walk, jalr at a sync, ret=unknown, trace end and trace-on");
}

/* RV-E5: an auipc a sync reports, its jalr reported by a packet of its own, then an exception (Fig 5.1
 * exc_only): the decoder executed the auipc, so the jalr is the pair (RV-P12) and ret is its target. */
static void test_reported_pair(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 sync-start at the auipc x5,0x0 at 0c: x5 = 8000000c; the range ends at the packet (RV-P10). */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A + 0x0c, 0);
	/* @20 format 2, diff +4 from the base 0c (diff_sign 0: base + diff): the jalr x1,24(x5) at 10, walked
	 * from 0c's successor; the auipc was executed just before it: inferable, target 8000000c + 24. */
	addr_only(&r, 0x4);
	/* @30 sync-exception at 2c, cause 7, privilege unchanged (no context item): ret = that target,
	 * 80000024, never unknown (RV-P14, RV-E5). */
	sync(&r, tc_rvtrace_pkt_sync_exception, 3, 0, A + 0x2c, 7);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x8000000c last=0x8000000c n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x80000010 last=0x80000010 n=1 isa=rv32 type=indir taken=E\n"
	       "@30 exception type=0x7 ret=0x80000024\n"
	       "@30 range first=0x8000002c last=0x8000002c n=1 isa=rv32 type=other taken=-\n",
	       "a jalr after an auipc that a sync reported is the pair: the exception after it returns to its target "
	       "(RV-E5)");
}

/* A full branch map (branches = 0, RV-P3): 31 bits, no address. */
static void test_full_map(void)
{
	struct run r;
	char want[8192];
	size_t n = 0;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 sync at 80000004 (the addi in the loop). @20 full-delta branches=0, bits 0…29 = 0 taken, bit
	 * 30 = 1 not taken: the bne at 08 (a range of its own, the sync's range having closed), then 04–08
	 * 29 times taken and once not taken: 31 bits, the walk ends at that bne. @30 format 2 diff=+4 from
	 * the sync's base 80000004 (branches = 0 reports no address, RV-P5): 80000008. The walk goes from
	 * the bne's successor 0c: auipc, the pair → 24, addi, jalr uninferable → 08, the bne there: no bit
	 * (format 2 has none): map-exhausted. */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A + 4, 0);
	full(&r, 0, 0x40000000u, 0);
	addr_only(&r, 0x4);
	n += (size_t)snprintf(want + n, sizeof want - n,
			      "@10 " CTX3 "@10 range first=0x80000004 last=0x80000004 n=1 isa=rv32 type=other taken=-\n"
			      "@20 range first=0x80000008 last=0x80000008 n=1 isa=rv32 type=dir taken=E\n");
	for (int i = 0; i < 29; i++)
		n += (size_t)snprintf(want + n, sizeof want - n,
				      "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=E\n");
	snprintf(want + n, sizeof want - n,
		 "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=N\n"
		 "@30 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
		 "@30 range first=0x80000024 last=0x80000028 n=2 isa=rv32 type=indir taken=E\n"
		 "@30 error class=map-exhausted\n");
	finish(&r, want, "branches = 0: 31 map bits, no address; then a branch with no bit");
}

/* The errors of the walk and of the stream. */
static void test_errors(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 a difference before any sync: no base (RV-P5). @20 an L1 error before the sync: error, and
	 * nothing more (RV-P8). */
	diff(&r, 1, 0, 0x10);
	{
		struct tc_rvtrace_packet p = pkt(&r, tc_rvtrace_pkt_error);
		p.error = tc_rvtrace_err_short_frame;
		rv_l3_packet(&r.a, &p);
	}
	/* @30 sync at 80000000; @40 full-delta branches=1 map=0 at 8000000c: 04 addi, 08 bne takes bit 0
	 * (taken → 04), 04 addi, 08 bne has no bit: map-exhausted; the bne is in no range (its outcome is
	 * unknown: the walk ends before it, RV-P13), position lost. @50 a format 2 after it walks nothing
	 * (the base, 8000000c, stays). */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A, 0);
	full(&r, 1, 0, A + 0xc);
	addr_only(&r, 0x4);
	/* @60 sync at 80000024; @70 full-delta branches=1 at 80000014: 28 jalr uninferable → 14, the jal
	 * there; bit 0 left: unconsumed-map (RV-P13). */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A + 0x24, 0);
	full(&r, 1, 0, A + 0x14);
	/* @80 sync at 80000024; @90 full-delta branches=0: the jalr at 28 is uninferable and the packet has
	 * no address: no-address. */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A + 0x24, 0);
	full(&r, 0, 0, 0);
	/* @100 sync at 90000000: no image (RV-P19). */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, 0x90000000u, 0);
	finish(&r,
	       "@10 error class=no-base-address\n"
	       "@20 error class=short-frame\n"
	       "@30 " CTX3
	       "@30 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
	       "@40 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=E\n"
	       "@40 range first=0x80000004 last=0x80000004 n=1 isa=rv32 type=other taken=-\n"
	       "@40 error class=map-exhausted\n"
	       "@60 range first=0x80000024 last=0x80000024 n=1 isa=rv32 type=other taken=-\n"
	       "@70 range first=0x80000028 last=0x80000028 n=1 isa=rv32 type=indir taken=E\n"
	       "@70 range first=0x80000014 last=0x80000014 n=1 isa=rv32 type=dir taken=E\n"
	       "@70 error class=unconsumed-map\n"
	       "@80 range first=0x80000024 last=0x80000024 n=1 isa=rv32 type=other taken=-\n"
	       "@90 range first=0x80000028 last=0x80000028 n=1 isa=rv32 type=indir taken=E\n"
	       "@90 error class=no-address\n"
	       "@100 no-image addr=0x90000000 isa=rv32\n",
	       "errors: no-base-address, L1 error, map-exhausted, unconsumed-map, no-address, no-image");
}

/* RV-S14: a packet's address passed before the last arrival there: the walk stops at the first. */
static void test_first_arrival(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 sync at the bne, not taken: next 0c. Say the program ran 0c, 10 (→ 24), 28 (→ 14), 14 (→ 30),
	 * 30 mret back to 24, and the encoder sent @20 format 2 at 24 after the mret (diff +0x1c from the
	 * base 80000008). The decoder cannot know: it stops at the first arrival at 24, with no map bit to
	 * take (RV-P13); 28, 14 and 30 are lost (ERRATA RV-S14 says how the encoder avoids this). */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 1, A + 8, 0);
	addr_only(&r, 0x1c);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000008 last=0x80000008 n=1 isa=rv32 type=dir taken=N\n"
	       "@20 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000024 last=0x80000024 n=1 isa=rv32 type=other taken=-\n",
	       "RV-S14: the walk stops at the first arrival at the address");
}

/* sync-context (RV-P16), the te_support values that end the trace or not (RV-P17), the records
 * with no L3 item, and a difference that wraps at 2^32 (RV-P5). */
static void test_context_support(void)
{
	struct run r;
	struct tc_rvtrace_packet p;
	start(&r, 1, image_a, sizeof image_a, A);
	/* @10 sync-context before any sync: privilege and context are known from it (RV-P9): context. */
	p = pkt(&r, tc_rvtrace_pkt_sync_context);
	p.privilege = 1;
	p.has_context = 1;
	p.context = 0x42;
	rv_l3_packet(&r.a, &p);
	/* @20 sync-start priv 1 ctx 0x42 at 80000000: unchanged, no context item. */
	p = pkt(&r, tc_rvtrace_pkt_sync_start);
	p.privilege = 1;
	p.has_context = 1;
	p.context = 0x42;
	p.address = A;
	rv_l3_packet(&r.a, &p);
	/* @30 te_support enable=1 qual=0: tracing on, nothing ends. @40 sync-context ctx 0x43: a context
	 * item where it comes, no walk. @50 message, @60 software, @70 warning: no item. */
	support(&r, 1, 0);
	p = pkt(&r, tc_rvtrace_pkt_sync_context);
	p.privilege = 1;
	p.has_context = 1;
	p.context = 0x43;
	rv_l3_packet(&r.a, &p);
	p = pkt(&r, tc_rvtrace_pkt_message);
	rv_l3_packet(&r.a, &p);
	p = pkt(&r, tc_rvtrace_pkt_software);
	rv_l3_packet(&r.a, &p);
	p = pkt(&r, tc_rvtrace_pkt_warning);
	rv_l3_packet(&r.a, &p);
	/* @80 te_support enable=0 ends the trace: trace-off (RV-P24); @90 a format 0 walks nothing; @100 sync-exception at
	 * 80000020: trace-on, then exception ret=unknown (nothing walked since the end: RV-P14, RV-P17). */
	support(&r, 0, 0);
	full(&r, 2, 0x2, A + 0x14);
	sync(&r, tc_rvtrace_pkt_sync_exception, 1, 0, A + 0x20, 7);
	/* @110 qual=1 (ended_rep) ends it too, trace-off: @120 a sync-start gives trace-on and walks nothing. */
	support(&r, 1, 1);
	p = pkt(&r, tc_rvtrace_pkt_sync_start);
	p.privilege = 1;
	p.has_context = 1;
	p.context = 0x42;
	p.address = A + 0x18;
	rv_l3_packet(&r.a, &p);
	finish(&r,
	       "@10 context el=1 ns=0 sf=0 ctxid=0x42 vmid=0x0\n"
	       "@20 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
	       "@40 context el=1 ns=0 sf=0 ctxid=0x43 vmid=0x0\n"
	       "@80 trace-off\n"
	       "@100 trace-on\n"
	       "@100 exception type=0x7 ret=unknown\n"
	       "@100 context el=1 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	       "@100 range first=0x80000020 last=0x80000020 n=1 isa=rv32 type=other taken=-\n"
	       "@110 trace-off\n"
	       "@120 trace-on\n"
	       "@120 context el=1 ns=0 sf=0 ctxid=0x42 vmid=0x0\n"
	       "@120 range first=0x80000018 last=0x80000018 n=1 isa=rv32 type=other taken=-\n",
	       "sync-context, te_support, records with no L3 item");
	/* A difference that wraps: @10 sync at the bne, not taken (next 0c); @20 format 2 diff +0x1c →
	 * 80000024 (the walk of test_first_arrival); @30 format 2 diff +0x7fffffdc from that base:
	 * 0x100000000 mod 2^32 = 0. The walk: 28 jalr uninferable → 0, where the image has nothing. */
	start(&r, 1, image_a, sizeof image_a, A);
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 1, A + 8, 0);      /* @10 bne not taken: next 0c */
	addr_only(&r, (int64_t)0x1c);                              /* @20 → 80000024 (first arrival, RV-S14) */
	addr_only(&r, (int64_t)0x7fffffdc);                        /* @30 → 0x100000000 mod 2^32 = 0 */
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000008 last=0x80000008 n=1 isa=rv32 type=dir taken=N\n"
	       "@20 range first=0x8000000c last=0x80000010 n=2 isa=rv32 type=indir taken=E\n"
	       "@20 range first=0x80000024 last=0x80000024 n=1 isa=rv32 type=other taken=-\n"
	       "@30 range first=0x80000028 last=0x80000028 n=1 isa=rv32 type=indir taken=E\n"
	       "@30 no-image addr=0x0 isa=rv32\n",
	       "a difference wraps modulo 2^32 (RV-P5): 80000024 + 7fffffdc = 0");
}

/* walk_limit (RV-P19). */
static void test_walk_limit(void)
{
	struct run r;
	start(&r, 1, image_a, sizeof image_a, A);
	r.a.cfg.walk_limit = 3;
	/* @20: 04 addi, 08 bne taken, 04 addi: three instructions, the fourth is past the limit at 08. */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, A, 0);
	full(&r, 2, 0x2, A + 0x14);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x80000004 last=0x80000008 n=2 isa=rv32 type=dir taken=E\n"
	       "@20 range first=0x80000004 last=0x80000004 n=1 isa=rv32 type=other taken=-\n"
	       "@20 walk-limit addr=0x80000008 isa=rv32\n",
	       "walk_limit 3");
}

/* RV-P22: image C at 0x2000, nop (13 00 00 00: addi x0,x0,0) then j . (6f 00 00 00: jal x0,0, an
 * inferable jump to itself). A format-1 packet with one map bit never reaches its address: the walk
 * from 0x2004 takes j . again and again without a map bit. Image C is 8 bytes: 5 halfwords counted
 * (8/2 + 1 for the one region), bound 3 * 5 + 2 = 17 steps, so 17 ranges of the jump and then
 * walk-limit at 0x2004, whatever walk_limit says (here its default, 2^20). */
static const uint8_t image_c[] = { 0x13, 0x00, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00 };
static void test_inferable_loop(void)
{
	struct run r;
	char want[4096];
	size_t n;
	start(&r, 1, image_c, sizeof image_c, 0x2000);
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, 0x2000, 0);
	full(&r, 1, 0, 0x2010);
	n = (size_t)snprintf(want, sizeof want, "@10 " CTX3 "@10 range first=0x2000 last=0x2000 n=1 isa=rv32 type=other taken=-\n");
	for (int i = 0; i < 17; i++)
		n += (size_t)snprintf(want + n, sizeof want - n, "@20 range first=0x2004 last=0x2004 n=1 isa=rv32 type=dir taken=E\n");
	snprintf(want + n, sizeof want - n, "@20 walk-limit addr=0x2004 isa=rv32\n");
	finish(&r, want, "a loop of inferable jumps ends at the loop bound (RV-P22)");
}

/* RV-S12: iaddress_width_p 40 < XLEN 64. Image E, two nops (addi x0,x0,0) at 0xfffffffff8, the top
 * of the 40-bit space, and at 0x0 j . - 8 (ff9ff06f: jal x0,-8, the bytes objdump shows for j back
 * 8 bytes at 0x3018 of vectors/rvtrace/l3/branch-maps-rv32.s). Every address of the walk is modulo
 * 2^40 as the packets' are: fffffffffc + 4 is 0x0, the packet's address (not 0x10000000000, where
 * there is no image), and the jal at 0x0 goes to 0 - 8 = 0xfffffffff8 (not 0xfffffffffffffff8). */
static const uint8_t image_e_top[] = { 0x13, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00 };
static const uint8_t image_e_low[] = { 0x6f, 0xf0, 0x9f, 0xff };
static void test_narrow_width(void)
{
	struct run r;
	start(&r, 0, image_e_top, sizeof image_e_top, 0xfffffffff8u);
	if (tc_image_add(&r.image, 0, image_e_low, sizeof image_e_low))
		abort();
	r.a.cfg.iaddress_width_p = 40;
	/* @10 sync at fffffffff8. @20 format 2, diff +8: (fffffffff8 + 8) mod 2^40 = 0; the walk: the nop at
	 * fffffffffc, then 0x0 (mod 2^40), the jal, which ends its range: the address, stop. @30 format 2,
	 * diff -8: 0 - 8 mod 2^40 = fffffffff8, the jal's target: the walk starts there, stop. */
	sync(&r, tc_rvtrace_pkt_sync_start, 3, 0, 0xfffffffff8u, 0);
	addr_only(&r, 8);
	addr_only(&r, -8);
	finish(&r,
	       "@10 " CTX3
	       "@10 range first=0xfffffffff8 last=0xfffffffff8 n=1 isa=rv64 type=other taken=-\n"
	       "@20 range first=0xfffffffffc last=0x0 n=2 isa=rv64 type=dir taken=E\n"
	       "@30 range first=0xfffffffff8 last=0xfffffffff8 n=1 isa=rv64 type=other taken=-\n",
	       "iaddress_width_p 40 < XLEN: the walk modulo 2^40, as the packets (RV-S12)");
}

/* c.jal in RV32, the same bits reserved c.addiw in RV64 (RV-P18, RV-P21), and with c_ext=0. */
static void test_c(void)
{
	struct run r;
	start(&r, 1, image_b, sizeof image_b, 0x1000);
	/* RV32: @10 sync at 1000, c.jal → 1008 (dir E). @20 sync at 100a: the walk from 1008: c.lui, stop
	 * before 100a (RV-P11); the c.jr at a sync: uninferable (RV-P12). */
	sync(&r, tc_rvtrace_pkt_sync_start, 0, 0, 0x1000, 0);
	sync(&r, tc_rvtrace_pkt_sync_start, 0, 0, 0x100a, 0);
	finish(&r,
	       "@10 context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	       "@10 range first=0x1000 last=0x1000 n=1 isa=rv32 type=dir taken=E\n"
	       "@20 range first=0x1008 last=0x1008 n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x100a last=0x100a n=1 isa=rv32 type=indir taken=E\n",
	       "RV32: c.jal is a jump");
	/* RV64: 2021 is c.addiw x0 (reserved, other at L3, size 2): the walk from 1002 takes the three
	 * c.addi x0,0 and c.lui, up to 100a. */
	start(&r, 0, image_b, sizeof image_b, 0x1000);
	sync(&r, tc_rvtrace_pkt_sync_start, 0, 0, 0x1000, 0);
	sync(&r, tc_rvtrace_pkt_sync_start, 0, 0, 0x100a, 0);
	finish(&r,
	       "@10 context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	       "@10 range first=0x1000 last=0x1000 n=1 isa=rv64 type=other taken=-\n"
	       "@20 range first=0x1002 last=0x1008 n=4 isa=rv64 type=other taken=-\n"
	       "@20 range first=0x100a last=0x100a n=1 isa=rv64 type=indir taken=E\n",
	       "RV64: the same bits are not a jump");
	/* RV32 with c_ext=0: every 16-bit encoding is other of size 2 (RV-P18), the c.jr too. */
	start(&r, 1, image_b, sizeof image_b, 0x1000);
	r.a.cfg.c_ext = 0;
	sync(&r, tc_rvtrace_pkt_sync_start, 0, 0, 0x1000, 0);
	sync(&r, tc_rvtrace_pkt_sync_start, 0, 0, 0x100a, 0);
	finish(&r,
	       "@10 context el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
	       "@10 range first=0x1000 last=0x1000 n=1 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x1002 last=0x1008 n=4 isa=rv32 type=other taken=-\n"
	       "@20 range first=0x100a last=0x100a n=1 isa=rv32 type=other taken=-\n",
	       "c_ext=0: 16-bit encodings are other");
}

/* Through the decoder: FORMAT.md's worked example e5 0c 00 00 00 10, sync-start priv=3 branch=0
 * addr=0x80000000 (RV32, nocontext_p = 1, privilege_width_p = 2), over image A; then trdb's timer
 * (RV-X3) 55 01 00 00 00 00: byte 0 = N 5 + type 1 (0x10) + payload bits 1:0 = 01 (bit 6 = 1, bit 7
 * = 0); byte 1 = payload bits 9:2 = 0x01: the 40-bit value is 0b101 = 5, payload bits 41:40 padding
 * 0. */
static void test_decoder(void)
{
	static const uint8_t bytes[] = { 0xe5, 0x0c, 0x00, 0x00, 0x00, 0x10, 0x55, 0x01, 0x00, 0x00, 0x00, 0x00 };
	struct tc_rvtrace_config cfg;
	struct tc_image image;
	struct out o;
	struct tc_rvtrace_sink sink;
	struct tc_rvtrace_decoder *d;
	const char *want = "@0 context el=3 ns=0 sf=0 ctxid=0x0 vmid=0x0\n"
			   "@0 range first=0x80000000 last=0x80000000 n=1 isa=rv32 type=other taken=-\n"
			   "@6 timestamp ts=0x5 cc=unknown\n";
	memset(&o, 0, sizeof o);
	memset(&image, 0, sizeof image);
	memset(&sink, 0, sizeof sink);
	sink.ctx = &o;
	tc_rvtrace_config_default(&cfg);
	cfg.nocontext_p = 1;
	cfg.privilege_width_p = 2;
	if (tc_image_add(&image, A, image_a, sizeof image_a))
		abort();
	d = tc_rvtrace_alloc(&cfg, &sink);
	ok(d != NULL, "decoder allocated");
	if (!d)
		return;
	ok(tc_rvtrace_set_image(NULL, &image) == tc_rvtrace_invalid, "set_image refuses a NULL decoder");
	ok(tc_rvtrace_set_l3_sink(NULL, on_l3) == tc_rvtrace_invalid, "set_l3_sink refuses a NULL decoder");
	ok(tc_rvtrace_set_l3_sink(d, on_l3) == tc_rvtrace_ok, "set_l3_sink before the first feed");
	ok(tc_rvtrace_set_image(d, &image) == tc_rvtrace_ok, "set_image before the first feed");
	tc_rvtrace_feed(d, bytes, sizeof bytes);
	ok(tc_rvtrace_set_image(d, &image) == tc_rvtrace_invalid, "set_image refused once fed");
	ok(tc_rvtrace_set_l3_sink(d, on_l3) == tc_rvtrace_invalid, "set_l3_sink refused once fed");
	tc_rvtrace_finish(d);
	if (strcmp(o.text, want))
		note("got:\n%swant:\n%s", o.text, want);
	ok(!strcmp(o.text, want), "decoder: L1 frames to L3 through the sink");
	tc_rvtrace_free(d);
	tc_image_free(&image);
}

int main(void)
{
	test_walk();
	test_diff_sign();
	test_sync();
	test_reported_pair();
	test_full_map();
	test_errors();
	test_walk_limit();
	test_inferable_loop();
	test_narrow_width();
	test_context_support();
	test_first_arrival();
	test_c();
	test_decoder();
	return tap_finish();
}
