/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_insn.c — vectors/ete/insn: the instruction tables of reference/test/insn (A64, A32, T32) as ETE L3 vectors. */
/*
 * What these vectors score: how a decoder classifies every instruction of the
 * tables (reference/test/insn/{a64,a32,t32}.tsv: gen.sh assembles the .S
 * sources, whose expected type, link, cond, next ISA and target are written by
 * hand from the Arm ARM's encoding tables beside each instruction, and checks
 * the targets against objdump), as far as it shows at L3. The expected L3 lines
 * below are derived from the tables' columns and the stage-3 rules of Arm ARM
 * K10.5.5 as written next to each step; no decoder runs here, and nothing of
 * the reference's instruction classifier (reference/insn.c tc_insn_decode) or
 * stage 3 is called. The bytes and the L1 lines are the ETE encoder's own
 * (tc_enc_packets_*); the L3 lines are written by the one L3 text writer.
 *
 * Every vector: maxspec=0 (K10.5.2.18.3 UpdateSpecDepth: each P0 element is
 * committed by the implicit commit at once, so an atom's L3 items carry the
 * atom's offset), retstack=1 (Table K10-14: the return stack is used), wfxmode
 * as said. Preamble: A-sync; Trace Info (K10.5.5.9.1: the return stack is
 * reset at the next P0 element; empty anyway); Trace On (K10.5.5.10.1: item
 * trace-on, NOT_SYNC); Context EL1, Non-secure, SF=1 for A64 and 0 for A32/T32
 * (K10.5.5.5.1: item context, CONTEXT_SYNC). A Target Address then gives
 * FULL_SYNC at its address (K10.5.5.8.1), IS0 for A64 and A32, IS1 for T32.
 *
 * Two kinds of vector (ISA is a64, a32 or t32):
 *
 * ISA-other (wfxmode=1): every `other` row of the table, one after another in
 * table order, then a known direct branch T. A Target Address to the first
 * and an E atom: AnalyzeAtom (K10.5.5.4.1) walks the non-P0 instructions to T,
 * which it takes: one range first=<first> last=T n=<rows + 1> type=dir
 * taken=E. A row taken for a P0 instruction (a WFx too) ends the range early;
 * a wrong size walks off the rows' bytes. ISA-wfx-wfxmode0: the same with
 * every `wfx` row and wfxmode=0, where they are not P0 (K10.5.6.2.3).
 *
 * ISA-dir-K, ISA-indir-K (wfxmode=0), ISA-p0 (ISB, TSTART, WFx; wfxmode=1): each
 * row R alone at an address of its own (nothing else within its targets), L a
 * known direct branch with link and P a known indirect branch without, each
 * alone too; for each row, taken:
 *   [R without link]  TA L, E: range L dir E; L pushes L+4 (K10.5.5.3.1).
 *   TA R, E: range R <type> E (K10.5.5.18.1, K10.5.5.18.3); R pushes R+size
 *       when it has link.
 *   dir: N: the walk starts at R's target (table: address + target column), in
 *       the next ISA column's instruction set; the image has nothing there:
 *       no-image (K10.5.6.3.11, DecodeAvailable FALSE), CONTEXT_SYNC. (A target
 *       that is R itself: R walked again, not taken. A target inside R's own
 *       bytes, T32 `blx . + 2`: an A32 instruction there would need two bytes
 *       after R: no-image too.)
 *   isb, tstart, wfx: E: the walk starts at R+size: no-image there.
 *   indir: R waits for its target (CONTEXT_SYNC): the next TA gives it.
 *   TA P, E: range P indir E, waiting for a target.
 *   E: CheckForReturnStackMatch (K10.5.5.18.2) pops the return stack: R+size
 *       (R's ISA) when R has link, else L+4 (L's): no-image there.
 * and for a conditional dir or indir row also not taken:
 *   TA R, N: range R <type> N;  E: the walk starts at R+size: no-image there.
 * So each row's type and outcome show in its range, a direct branch's target
 * and next ISA in the no-image after it, link in the popped address, the size
 * in the no-image after a row not taken or not a branch and in the popped
 * R+size. The cond column reaches no L3 field: a decoder is not scored on it.
 *
 * t32-cut-byte, t32-cut-halfword (wfxmode=0): a 16-bit `other` row X whose region ends one byte into
 * the next 16-bit row, and again two bytes into a 32-bit row. TA X, E: range X
 * other (taken -), then no-image at X+2: the image does not hold the whole
 * instruction there (K10.5.6.3.11, DecodeAvailable FALSE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "insn_vec.h"
#include "outfile.h"
#include "tracecert/encoder_ete.h"
#include "tracecert/ete.h"

#define SEED 0x696e736eu         /* "insn": the encoder's choices among equivalent encodings */
#ifndef ROWS_PER_VECTOR
#define ROWS_PER_VECTOR 24   /* -DROWS_PER_VECTOR=1: a vector per row, to find every row a decoder fails */
#endif
#define SLOT_BASE UINT64_C(0x10000000)

/* A vector being laid out for one table. */
struct ete_vec {
	struct insn_vec v;
	struct tc_enc_packets *w;
	struct tc_ete_config cfg;
	const struct insn_table *t;
	const struct insn_row *L, *P;    /* the known branch with link, the known indirect branch */
	uint64_t l_at, p_at;
	const struct insn_row *pad;      /* T32: the 32-bit row whose first halfword follows a 16-bit row placed alone */
};

/* Slot k of a table: far enough apart that no row's target, R+size or L+4
 * lands on another (insn_vec checks each). An A64 branch reaches +-128 MB, an
 * AArch32 one +-32 MB. The address keeps the row's offset modulo 4: a T32 BLX's
 * target is Align(PC, 4) + imm32, so its table target holds at that alignment. */
static uint64_t slot(const struct insn_table *t, int k, const struct insn_row *r)
{
	uint64_t stride = t->isa == tc_isa_a64 ? UINT64_C(0x10000000) : UINT64_C(0x4000000);
	return SLOT_BASE + (uint64_t)k * stride + (r->offset & 3);
}

/* The table's first unconditional row of a type with the given link that stays in the table's
 * instruction set (and, for a direct branch, does not branch to itself). */
static const struct insn_row *find_row(const struct insn_table *t, int type, int link)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct insn_row *r = &t->row[i];
		if (r->type == type && r->link == link && !r->cond && r->next_isa == t->isa && (!r->has_target || r->target))
			return r;
	}
	return NULL;
}

/* The pad after a 16-bit T32 row placed alone (insn_vec_place_alone): the table's first 32-bit
 * `other` row; NULL in a table of 4-byte instructions. */
static const struct insn_row *pad_row(const struct insn_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->row[i].type == tc_insn_other && t->row[i].size == 4 && t->isa == tc_isa_t32)
			return &t->row[i];
	return NULL;
}

/* ---- Packets and their notes --------------------------------------------------------------- */

static int is1(int isa)
{
	return isa == tc_isa_t32;
}

static uint64_t pkt_address(struct ete_vec *e, uint64_t a, int isa, const char *what)
{
	uint64_t off = tc_enc_packets_address(e->w, a, is1(isa));
	insn_vec_packet(&e->v, off, "@%llu Target Address 0x%llx IS%d: %s", (unsigned long long)off,
			(unsigned long long)a, is1(isa), what);
	return off;
}

static uint64_t pkt_atom(struct ete_vec *e, int taken, const char *what)
{
	uint64_t off = tc_enc_packets_atom(e->w, taken);
	insn_vec_packet(&e->v, off, "@%llu Atom %s: %s", (unsigned long long)off, taken ? "E" : "N", what);
	return off;
}

/* A-sync, Trace Info, Trace On, Context: the preamble of every vector. */
static void preamble(struct ete_vec *e)
{
	struct tc_context c = { .el = 1, .ns = 1, .sf = e->t->isa == tc_isa_a64 };
	uint64_t off = tc_enc_packets_async(e->w);
	insn_vec_packet(&e->v, off, "@%llu A-sync", (unsigned long long)off);
	off = tc_enc_packets_trace_info(e->w);
	insn_vec_packet(&e->v, off, "@%llu Trace Info: no cycle counts, depth 0", (unsigned long long)off);
	off = tc_enc_packets_trace_on(e->w);
	insn_vec_packet(&e->v, off, "@%llu Trace On", (unsigned long long)off);
	insn_vec_l3_item(&e->v, off, tc_l3_trace_on, "K10.5.5.10.1: NOT_SYNC");
	off = tc_enc_packets_context(e->w, &c);
	insn_vec_packet(&e->v, off, "@%llu Context: EL1, Non-secure, SF=%d", (unsigned long long)off, c.sf);
	insn_vec_l3_context(&e->v, off, &c, "K10.5.5.5.1: CONTEXT_SYNC");
}

static int start(struct ete_vec *e, const struct insn_table *t, const char *name, int wfxmode)
{
	insn_vec_init(&e->v, name, tc_proto_ete);
	tc_ete_config_default(&e->cfg);
	e->cfg.maxspec = 0;
	e->cfg.retstack = 1;
	e->cfg.wfxmode = wfxmode;
	e->t = t;
	e->pad = pad_row(t);
	e->w = tc_enc_packets_new(&e->cfg, SEED);
	if (!e->w) {
		fprintf(stderr, "ete_insn: %s: out of memory\n", name);
		insn_vec_free(&e->v);
		return -1;
	}
	preamble(e);
	return 0;
}

static int finish(struct ete_vec *e, const char *dir, const char *tags)
{
	size_t len;
	const uint8_t *trace = tc_enc_packets_trace(e->w, &len);
	int rc = insn_vec_write(&e->v, dir, tc_protocol_find("ete"), &e->cfg, tags, trace, len,
				tc_enc_packets_l1(e->w));
	if (rc)
		fprintf(stderr, "ete_insn: %s\n", e->v.err);
	tc_enc_packets_free(e->w);
	insn_vec_free(&e->v);
	return rc;
}

/* ---- 1. The non-P0 rows in one range -------------------------------------------------------- */

/* wfx 0: every `other` row with wfxmode=1 (a row taken for any P0 instruction, a WFx too, ends
 * the range); wfx 1: every `wfx` row with wfxmode=0, where none is P0. */
static int write_other(const struct insn_table *t, const char *dir, int wfx)
{
	static struct ete_vec e;
	const struct insn_row *T = find_row(t, tc_insn_branch_dir, 0);
	const char *isa = insn_row_isa_word(t->isa);
	char name[64], why[300], tags[64];
	uint64_t at = slot(t, 0, T), first = at, off;
	size_t n = 0;
	snprintf(name, sizeof name, wfx ? "%s-wfx-wfxmode0.tcv" : "%s-other.tcv", isa);
	if (start(&e, t, name, !wfx))
		return -1;
	if (wfx)
		insn_text_printf(&e.v.head,
				 "The `wfx` rows of reference/test/insn/%s.tsv with wfxmode=0, where they are not P0\n"
				 "instructions, in table order, then the table's direct branch T, one range (the layout\n"
				 "and the reasons: tools/vecgen/ete_insn.c, kind 1).", isa);
	else
		insn_text_printf(&e.v.head,
				 "The `other` rows of reference/test/insn/%s.tsv (wfxmode=1), in table order, then the\n"
				 "table's direct branch T, one range (the layout and the reasons: tools/vecgen/ete_insn.c,\n"
				 "kind 1).", isa);
	for (size_t i = 0; i < t->n; i++) {
		const struct insn_row *r = &t->row[i];
		if (r->type != (wfx ? tc_insn_wfx : tc_insn_other))
			continue;
		insn_vec_place(&e.v, at, r, "0x%llx %s: %s", (unsigned long long)at, r->source,
			       wfx ? "wfx, not P0 with wfxmode=0" : "other");
		at = insn_row_next(r, at);
		n++;
	}
	insn_vec_place_alone(&e.v, at, T, e.pad, "0x%llx %s: T, dir", (unsigned long long)at, T->source);
	pkt_address(&e, first, t->isa, "the first row");
	off = pkt_atom(&e, 1, "T taken");
	snprintf(why, sizeof why, "K10.5.5.4.1: the %zu rows are not P0, T (%s) is dir, taken", n, T->source);
	insn_vec_l3_range(&e.v, off, first, at, n + 1, t->isa, tc_insn_branch_dir, tc_taken_e, why);
	snprintf(tags, sizeof tags, wfx ? "insn l3 %s wfx" : "insn l3 %s other wfxmode", isa);
	return finish(&e, dir, tags);
}

/* ---- 2. P0 rows one at a time ------------------------------------------------------------------ */

/* The row at a, taken, then the return-stack probe. */
static void taken_pass(struct ete_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t off, ret = insn_row_next(r, a), t;
	int ret_isa = r->isa;
	if (!r->link) {
		pkt_address(e, e->l_at, e->L->isa, "L");
		off = pkt_atom(e, 1, "L taken");
		snprintf(why, sizeof why, "L (%s): dir, link: pushes 0x%llx", e->L->source,
			 (unsigned long long)insn_row_next(e->L, e->l_at));
		insn_vec_l3_range(&e->v, off, e->l_at, e->l_at, 1, e->L->isa, tc_insn_branch_dir, tc_taken_e, why);
		ret = insn_row_next(e->L, e->l_at);
		ret_isa = e->L->isa;
	}
	pkt_address(e, a, r->isa, r->source);
	off = pkt_atom(e, 1, r->source);
	snprintf(why, sizeof why, "%s: %s%s, taken", r->source, insn_row_type_word(r->type), r->link ? ", link: push" : "");
	insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_e, why);
	if (r->type == tc_insn_branch_dir) {
		t = insn_row_target(r, a);
		off = pkt_atom(e, 0, "at the target");
		if (t == a) {
			insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_n, "the target is the branch itself");
		} else {
			snprintf(why, sizeof why, "the target: 0x%llx %+lld, %s", (unsigned long long)a, (long long)r->target,
				 insn_row_isa_word(r->next_isa));
			insn_vec_l3_no_image(&e->v, off, t, r->next_isa, why);
		}
	} else if (r->type != tc_insn_branch_indir) {
		off = pkt_atom(e, 1, "after it");
		snprintf(why, sizeof why, "not a branch: on at 0x%llx + %d", (unsigned long long)a, r->size);
		insn_vec_l3_no_image(&e->v, off, insn_row_next(r, a), r->isa, why);
	}
	pkt_address(e, e->p_at, e->P->isa, r->type == tc_insn_branch_indir ? "P, the target" : "P");
	off = pkt_atom(e, 1, "P taken");
	snprintf(why, sizeof why, "P (%s): indir, waits for its target", e->P->source);
	insn_vec_l3_range(&e->v, off, e->p_at, e->p_at, 1, e->P->isa, tc_insn_branch_indir, tc_taken_e, why);
	off = pkt_atom(e, 1, "return stack");
	snprintf(why, sizeof why, "K10.5.5.18.2: pop %s", r->link ? "the row's return address (link)" : "L's (row: no link)");
	insn_vec_l3_no_image(&e->v, off, ret, ret_isa, why);
}

/* A conditional branch, not taken: on at the next instruction. */
static void not_taken_pass(struct ete_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t off;
	pkt_address(e, a, r->isa, r->source);
	off = pkt_atom(e, 0, r->source);
	snprintf(why, sizeof why, "%s: %s, not taken", r->source, insn_row_type_word(r->type));
	insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_n, why);
	off = pkt_atom(e, 1, "after it");
	snprintf(why, sizeof why, "not taken: on at 0x%llx + %d", (unsigned long long)a, r->size);
	insn_vec_l3_no_image(&e->v, off, insn_row_next(r, a), r->isa, why);
}

/* The rows rows[0..n-1] of a group, each alone. */
static int write_group(const struct insn_table *t, const char *dir, const char *name, const char *what, int wfxmode,
		       const struct insn_row *const *rows, size_t n)
{
	static struct ete_vec e;
	char tags[80];
	if (start(&e, t, name, wfxmode))
		return -1;
	e.L = find_row(t, tc_insn_branch_dir, 1);
	e.P = find_row(t, tc_insn_branch_indir, 0);
	e.l_at = slot(t, 0, e.L);
	e.p_at = slot(t, 1, e.P);
	insn_text_printf(&e.v.head,
			 "%s rows of reference/test/insn/%s.tsv (wfxmode=%d), each alone: taken, with the return\n"
			 "stack as a probe of link, and not taken when conditional (the layout and the reasons:\n"
			 "tools/vecgen/ete_insn.c, kind 2). L = %s, P = %s.",
			 what, insn_row_isa_word(t->isa), wfxmode, e.L->source, e.P->source);
	insn_vec_place_alone(&e.v, e.l_at, e.L, e.pad, "0x%llx %s: L", (unsigned long long)e.l_at, e.L->source);
	insn_vec_place_alone(&e.v, e.p_at, e.P, e.pad, "0x%llx %s: P", (unsigned long long)e.p_at, e.P->source);
	for (size_t i = 0; i < n; i++) {
		uint64_t a = slot(t, (int)i + 2, rows[i]);
		insn_vec_place_alone(&e.v, a, rows[i], e.pad, "0x%llx %s", (unsigned long long)a, rows[i]->source);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t a = slot(t, (int)i + 2, rows[i]);
		taken_pass(&e, rows[i], a);
		if (rows[i]->cond && (rows[i]->type == tc_insn_branch_dir || rows[i]->type == tc_insn_branch_indir))
			not_taken_pass(&e, rows[i], a);
	}
	snprintf(tags, sizeof tags, "insn l3 %s %s return-stack%s", insn_row_isa_word(t->isa), what,
		 wfxmode ? " wfxmode" : "");
	return finish(&e, dir, tags);
}

/* The rows of a table that a predicate picks, in groups of at most ROWS_PER_VECTOR of about
 * equal size, named ISA-WHAT-K (ISA-WHAT when one). */
static int write_groups(const struct insn_table *t, const char *dir, const char *what, int wfxmode,
			int (*pick)(const struct insn_row *))
{
	const struct insn_row **rows = malloc(t->n * sizeof *rows);
	size_t n = 0, groups, from = 0;
	int rc = 0;
	if (!rows)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		if (pick(&t->row[i]))
			rows[n++] = &t->row[i];
	groups = (n + ROWS_PER_VECTOR - 1) / ROWS_PER_VECTOR;
	for (size_t g = 0; g < groups && !rc; g++) {
		size_t to = n * (g + 1) / groups;
		char name[64];
		if (groups == 1)
			snprintf(name, sizeof name, "%s-%s.tcv", insn_row_isa_word(t->isa), what);
		else
			snprintf(name, sizeof name, "%s-%s-%zu.tcv", insn_row_isa_word(t->isa), what, g + 1);
		rc = write_group(t, dir, name, what, wfxmode, rows + from, to - from);
		from = to;
	}
	free(rows);
	return rc;
}

static int pick_dir(const struct insn_row *r)
{
	return r->type == tc_insn_branch_dir;
}

static int pick_indir(const struct insn_row *r)
{
	return r->type == tc_insn_branch_indir;
}

/* ISB, TSTART, and WFx with wfxmode=1: P0 instructions that are not branches. */
static int pick_p0(const struct insn_row *r)
{
	return r->type == tc_insn_isb || r->type == tc_insn_tstart || r->type == tc_insn_wfx;
}

/* ---- 3. T32 instructions the image holds only in part ---------------------------------------------- */

/* The first row of type other and size n. */
static const struct insn_row *other_of_size(const struct insn_table *t, int n, const struct insn_row *after)
{
	for (size_t i = after ? (size_t)(after - t->row) + 1 : 0; i < t->n; i++)
		if (t->row[i].type == tc_insn_other && t->row[i].size == n)
			return &t->row[i];
	return NULL;
}

/* X, a 16-bit `other` row, then the first byte of another 16-bit row, or the first halfword
 * of a 32-bit row: the image ends inside the instruction after X. Reaching X and an atom E:
 * X is walked, the instruction after it is not wholly there (K10.5.6.3.11: DecodeAvailable FALSE): range X other,
 * no-image at X+2. */
static int write_cut(const struct insn_table *t, const char *dir, int k)
{
	static struct ete_vec e;
	const struct insn_row *x = other_of_size(t, 2, NULL), *y = other_of_size(t, 2, x), *z = other_of_size(t, 4, NULL);
	const struct insn_row *cut = k ? z : y;
	uint64_t a, off;
	char why[300];
	if (!x || !y || !z) {
		fprintf(stderr, "ete_insn: the T32 table has no two 16-bit and one 32-bit `other` rows\n");
		return -1;
	}
	if (start(&e, t, k ? "t32-cut-halfword.tcv" : "t32-cut-byte.tcv", 0))
		return -1;
	insn_text_printf(&e.v.head,
			 "A T32 instruction that the image holds only in part: a 16-bit `other` row X, then %s\n"
			 "(the layout and the reasons: tools/vecgen/ete_insn.c, kind 3).",
			 k ? "two of the four bytes of a 32-bit row" : "one byte of a 16-bit row");
	a = slot(t, k, x);
	insn_vec_place(&e.v, a, x, "0x%llx %s: X", (unsigned long long)a, x->source);
	insn_vec_place_part(&e.v, a + 2, cut, k ? 2 : 1, "0x%llx the first %s of %s: the image ends", (unsigned long long)(a + 2),
			    k ? "halfword" : "byte", cut->source);
	pkt_address(&e, a, tc_isa_t32, "X");
	off = pkt_atom(&e, 1, "a walk from X");
	snprintf(why, sizeof why, "%s: other, then the image ends inside the next instruction", x->source);
	insn_vec_l3_range(&e.v, off, a, a, 1, tc_isa_t32, tc_insn_other, tc_taken_none, why);
	snprintf(why, sizeof why, "K10.5.6.3.11: DecodeAvailable FALSE: %d of its %d bytes", k ? 2 : 1, cut->size);
	insn_vec_l3_no_image(&e.v, off, a + 2, tc_isa_t32, why);
	return finish(&e, dir, "insn l3 t32 no-image");
}

/* ---- The program ---------------------------------------------------------------------------------- */

static int write_table(const char *tables, const char *name, const char *dir)
{
	struct insn_table t;
	char err[700];
	int rc;
	if (insn_table_load(tables, name, &t, err, sizeof err)) {
		fprintf(stderr, "ete_insn: %s\n", err);
		return -1;
	}
	if (!find_row(&t, tc_insn_branch_dir, 0) || !find_row(&t, tc_insn_branch_dir, 1) ||
	    !find_row(&t, tc_insn_branch_indir, 0) || (t.isa == tc_isa_t32 && !pad_row(&t))) {
		fprintf(stderr, "ete_insn: %s/%s.tsv: no unconditional direct branch with and without link, or no "
				"indirect one without (T32: and a 32-bit `other` row), to lay the vectors out with\n", tables, name);
		insn_table_free(&t);
		return -1;
	}
	rc = write_other(&t, dir, 0) || write_other(&t, dir, 1) || write_groups(&t, dir, "dir", 0, pick_dir) ||
	     write_groups(&t, dir, "indir", 0, pick_indir) || write_groups(&t, dir, "p0", 1, pick_p0) ||
	     (t.isa == tc_isa_t32 && (write_cut(&t, dir, 0) || write_cut(&t, dir, 1))) ? -1 : 0;
	insn_table_free(&t);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ete_insn TABLES DIR\n"
		"\n"
		"Writes DIR/*.tcv: the instruction tables TABLES/{a64,a32,t32}.tsv (reference/test/insn)\n"
		"as ETE L3 vectors, laid out as tools/vecgen/ete_insn.c describes, through the one .tcv\n"
		"writer. DIR is vectors/ete/insn for `make vectors`; `make vectors-check` writes to a\n"
		"scratch folder and compares.\n");
}

int main(int argc, char **argv)
{
	static const char *const tables[] = { "a64", "a32", "t32" };
	tc_out_ignore_file_size_signal();   /* beyond RLIMIT_FSIZE: an error naming the file (EFBIG) */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
		usage(stderr);
		return 2;
	}
	if (mkdir(argv[2], 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "ete_insn: cannot create '%s': %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (write_table(argv[1], tables[i], argv[2]))
			return 1;
	return 0;
}
