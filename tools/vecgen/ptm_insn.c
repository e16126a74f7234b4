/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_insn.c — vectors/ptm/insn: the instruction tables of reference/test/insn (A32, T32) as PFT/PTM L3 vectors. */
/*
 * What these vectors score: how a decoder classifies every instruction of the
 * A32 and T32 tables (reference/test/insn/{a32,t32}.tsv: gen.sh assembles the
 * .S sources, whose expected type, link, cond, next ISA and target are written
 * by hand from the Arm ARM's encoding tables beside each instruction, and
 * checks the targets against objdump), as far as it shows at L3 of a PTM. The
 * expected L3 lines are derived from the tables' columns and the decompression
 * operations of IHI 0035B App. B.3.2 (as reference/ptm/ERRATA.md reads them)
 * written next to each step; no decoder runs here, and nothing of the
 * reference's classifier (reference/insn.c) or of reference/ptm is called.
 * The bytes and the L1 lines are the PTM encoder's (tc_enc_ptm_packets_*);
 * the L3 lines are written by the one L3 text writer.
 *
 * PTM traces waypoints (§4.2, PTM-P11): direct and indirect branches and ISB;
 * WFI and WFE are not waypoints (the tables' `wfx` rows are other here).
 * Configuration: PFTv1.1, not cycle-accurate, return stack enabled (ETMCR[29]).
 * The first I-sync (reason 1, trace enabled) gives the items trace-on and
 * context (PTM-P16, PTM-P19; Secure, not Hyp, context ID 0). After it the trace
 * moves with branch address packets: branch_no_excp first walks from
 * CurrentState to the waypoint the packet says was taken, which shows where
 * the analysis stands. This program keeps that CurrentState as its model
 * (struct ptm_vec cur*): lost after a no-image (PTM-P14), so the packet then
 * walks nothing; a row placed alone at it that is a waypoint: its range,
 * taken (the packet's E), pushing when it has link (step 6.2); nothing in the
 * image: no-image there. (Periodic I-syncs are not used to move: whether they
 * empty a decoder's return stack is ERRATA PTM-P16.)
 *
 * Two kinds of vector (ISA is a32 or t32):
 *
 * ISA-other: every `other` and `wfx` row of the table in table order, then a
 * known direct branch T. I-sync to the first, atom E: analyze_atomheader walks
 * the instructions that are not waypoints up to T, which takes the atom: one
 * range first=<first> last=T n=<rows + 1> type=dir taken=E. A row taken for a
 * waypoint ends the range early; a wrong size walks off the rows' bytes.
 *
 * ISA-dir-K, ISA-indir-K, ISA-p0 (ISB): each row R alone at an address of its
 * own, L a known direct branch with link and P a known indirect branch without,
 * each alone too; each row starts with CurrentState lost; taken:
 *   [R without link]  go L, E: range L dir E; L pushes L+4 (B.3.2 lines 63-65);
 *       CurrentState at L's target.
 *   go R (from L's target: no-image there), then
 *   dir: E: range R dir E; CurrentState goes to the target (table: address +
 *        target) in the next ISA column's instruction set (BLX immediate
 *        switches, B.3.2 decode_instr); R pushes R+size when it has link.
 *        go P: the walk from the target finds no whole instruction: no-image
 *        there (a target inside R's own bytes, T32 `blx . + 2`: an ARM
 *        instruction there would need two bytes after R). (A target that is R
 *        itself: atom N first, R again not taken, and the walk of go P is from
 *        R+size.)
 *   isb: E: range R isb E; on at R+size: go P, no-image at R+size.
 *   indir: go P: branch_no_excp walks to R, the waypoint the packet says was
 *        taken: range R indir E, a push when it has link; CurrentState is P.
 *   E: range P indir E; an indirect branch takes its target from the return
 *       stack: R+size (R's ISA) when R has link, else L+4 (L's).
 *   E: the walk starts there: no-image; CurrentState is lost.
 * and for a conditional dir or indir row also not taken:
 *   go R, N: range R <type> N;  E: the walk from R+size: no-image there.
 * So type and outcome show in each range, a direct branch's target and next
 * ISA in the no-image after it, link in the popped address, the size in the
 * no-image after a row not taken or an ISB and in the popped R+size. The cond
 * column reaches no L3 field: a decoder is not scored on it.
 *
 * t32-cut-byte, t32-cut-halfword: a 16-bit `other` row X whose region ends one byte into the next
 * 16-bit row, and again two bytes into a 32-bit row. go X, E: range X other
 * (taken -), then no-image at X+2: the image does not hold the whole
 * instruction there (PTM-P14: decode_instr fails).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "insn_vec.h"
#include "outfile.h"
#include "tracecert/encoder_ptm.h"
#include "tracecert/ptm.h"

#define SEED 0x696e736eu         /* "insn": the encoder's choices among equivalent encodings */
#ifndef ROWS_PER_VECTOR
#define ROWS_PER_VECTOR 24   /* -DROWS_PER_VECTOR=1: a vector per row, to find every row a decoder fails */
#endif
#define SLOT_BASE UINT64_C(0x10000000)
#define SLOT_STRIDE UINT64_C(0x4000000)   /* an AArch32 branch reaches +-32 MB */

/* A vector being laid out for one table. */
struct ptm_vec {
	struct insn_vec v;
	struct tc_enc_ptm_packets *w;
	struct tc_ptm_config cfg;
	const struct insn_table *t;
	const struct insn_row *L, *P;    /* the known branch with link, the known indirect branch */
	uint64_t l_at, p_at;
	const struct insn_row *pad;      /* T32: the 32-bit row whose first halfword follows a 16-bit row placed alone */
	int synced;                      /* the first I-sync (reason 1) was written */
	int cur_valid;                   /* the model of the decoder's CurrentState: known, */
	uint64_t cur;                    /* its address */
	int cur_isa;                     /* and instruction set (enum tc_isa) */
};

/* Slot k: far apart (insn_vec checks that nothing the walk must miss is there); the
 * address keeps the row's offset modulo 4 (a T32 BLX's target is Align(PC, 4) + imm32). */
static uint64_t slot(int k, const struct insn_row *r)
{
	return SLOT_BASE + (uint64_t)k * SLOT_STRIDE + (r->offset & 3);
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

static int ptm_isa(int isa)
{
	return isa == tc_isa_a32 ? tc_ptm_isa_arm : tc_ptm_isa_thumb;
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

static uint64_t pkt_isync(struct ptm_vec *e, uint64_t a, int isa, const char *what)
{
	int reason = !e->synced;
	uint64_t off = tc_enc_ptm_packets_isync(e->w, (uint32_t)a, ptm_isa(isa), reason);
	struct tc_context c = { 0 };
	insn_vec_packet(&e->v, off, "@%llu I-sync 0x%llx %s, reason %d: %s", (unsigned long long)off,
			(unsigned long long)a, isa == tc_isa_a32 ? "ARM" : "Thumb", reason, what);
	if (!e->synced) {
		insn_vec_l3_item(&e->v, off, tc_l3_trace_on, "PTM-P16: an I-sync of reason 1");
		insn_vec_l3_context(&e->v, off, &c, "PTM-P19: the first context (Secure, not Hyp, context ID 0)");
		e->synced = 1;
	}
	return off;
}

static uint64_t pkt_branch(struct ptm_vec *e, uint64_t a, int isa, const char *what)
{
	uint64_t off = tc_enc_ptm_packets_branch(e->w, (uint32_t)a, ptm_isa(isa));
	insn_vec_packet(&e->v, off, "@%llu branch address 0x%llx %s: %s", (unsigned long long)off,
			(unsigned long long)a, isa == tc_isa_a32 ? "ARM" : "Thumb", what);
	return off;
}

static uint64_t pkt_atom(struct ptm_vec *e, int taken, const char *what)
{
	uint64_t off = tc_enc_ptm_packets_atom(e->w, taken);
	insn_vec_packet(&e->v, off, "@%llu atom %s: %s", (unsigned long long)off, taken ? "E" : "N", what);
	return off;
}

/* CurrentState is at a (isa). */
static void set_cur(struct ptm_vec *e, uint64_t a, int isa)
{
	e->cur_valid = 1;
	e->cur = a;
	e->cur_isa = isa;
}

/* The walk of a branch address packet at off from CurrentState (branch_no_excp). */
static void packet_walk(struct ptm_vec *e, uint64_t off, const char *why)
{
	const struct insn_row *r = insn_vec_row_at(&e->v, e->cur);
	char line[300];
	if (!e->cur_valid)
		return;
	if (!r) {
		insn_vec_l3_no_image(&e->v, off, e->cur, e->cur_isa, why);
		return;
	}
	if (r->type != tc_insn_branch_dir && r->type != tc_insn_branch_indir && r->type != tc_insn_isb) {
		insn_vec_fail(&e->v, "%s: a branch address packet would walk through %s", e->v.name, r->source);
		return;
	}
	snprintf(line, sizeof line, "%s: %s, the waypoint the branch address packet takes%s", r->source,
		 insn_row_type_word(r->type), r->link ? " (link: push)" : "");
	insn_vec_l3_range(&e->v, off, e->cur, e->cur, 1, r->isa, r->type, tc_taken_e, line);
}

/* Moves CurrentState to a: the first I-sync (reason 1), then branch address packets, whose
 * walk from CurrentState (why: what a no-image there means) comes first. */
static void go(struct ptm_vec *e, uint64_t a, int isa, const char *what, const char *why)
{
	if (!e->synced) {
		pkt_isync(e, a, isa, what);
	} else {
		uint64_t off = pkt_branch(e, a, isa, what);
		packet_walk(e, off, why);
	}
	set_cur(e, a, isa);
}

static int start(struct ptm_vec *e, const struct insn_table *t, const char *name)
{
	uint64_t off;
	memset(e, 0, sizeof *e);
	insn_vec_init(&e->v, name, tc_proto_ptm);
	tc_ptm_config_default(&e->cfg);
	e->cfg.return_stack = 1;
	e->t = t;
	e->pad = pad_row(t);
	e->w = tc_enc_ptm_packets_new(&e->cfg, SEED);
	if (!e->w) {
		fprintf(stderr, "ptm_insn: %s: out of memory\n", name);
		insn_vec_free(&e->v);
		return -1;
	}
	off = tc_enc_ptm_packets_async(e->w);
	insn_vec_packet(&e->v, off, "@%llu A-sync", (unsigned long long)off);
	return 0;
}

static int finish(struct ptm_vec *e, const char *dir, const char *tags)
{
	size_t len;
	const uint8_t *trace = tc_enc_ptm_packets_trace(e->w, &len);
	int rc = insn_vec_write(&e->v, dir, tc_protocol_find("ptm"), &e->cfg, tags, trace, len,
				tc_enc_ptm_packets_l1(e->w));
	if (rc)
		fprintf(stderr, "ptm_insn: %s\n", e->v.err);
	tc_enc_ptm_packets_free(e->w);
	insn_vec_free(&e->v);
	return rc;
}

/* ---- 1. The rows that are not waypoints, in one range ------------------------------------------ */

static int write_other(const struct insn_table *t, const char *dir)
{
	static struct ptm_vec e;
	const struct insn_row *T = find_row(t, tc_insn_branch_dir, 0);
	char name[64], why[300], tags[64];
	uint64_t at = slot(0, T), first = at, off;
	size_t n = 0;
	snprintf(name, sizeof name, "%s-other.tcv", insn_row_isa_word(t->isa));
	if (start(&e, t, name))
		return -1;
	insn_text_printf(&e.v.head,
			 "The %s rows of reference/test/insn/%s.tsv that are not waypoints: every `other` and\n"
			 "`wfx` row, in table order, then the table's direct branch T, one range (the layout\n"
			 "and the reasons: tools/vecgen/ptm_insn.c, kind 1).",
			 insn_row_isa_word(t->isa), insn_row_isa_word(t->isa));
	for (size_t i = 0; i < t->n; i++) {
		const struct insn_row *r = &t->row[i];
		if (r->type != tc_insn_other && r->type != tc_insn_wfx)
			continue;
		insn_vec_place(&e.v, at, r, "0x%llx %s: %s", (unsigned long long)at, r->source,
			       r->type == tc_insn_wfx ? "wfx, not a waypoint" : "other");
		at = insn_row_next(r, at);
		n++;
	}
	insn_vec_place_alone(&e.v, at, T, e.pad, "0x%llx %s: T, dir", (unsigned long long)at, T->source);
	go(&e, first, t->isa, "the first row", "");
	off = pkt_atom(&e, 1, "T taken");
	snprintf(why, sizeof why, "B.3.2 analyze_atomheader: the %zu rows are no waypoints, T (%s) is dir, taken", n,
		 T->source);
	insn_vec_l3_range(&e.v, off, first, at, n + 1, t->isa, tc_insn_branch_dir, tc_taken_e, why);
	snprintf(tags, sizeof tags, "insn l3 %s other", insn_row_isa_word(t->isa));
	return finish(&e, dir, tags);
}

/* ---- 2. Waypoint rows one at a time ----------------------------------------------------------- */

/* After the direct row at a was taken: what shows its target, then CurrentState at P. */
static void after_direct(struct ptm_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t t = insn_row_target(r, a), off;
	if (t == a) {
		off = pkt_atom(e, 0, "at the target");
		insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_n, "the target is the branch itself");
		set_cur(e, insn_row_next(r, a), r->isa);
		go(e, e->p_at, e->P->isa, "P", "the walk goes on after it: nothing in the image there");
	} else {
		set_cur(e, t, r->next_isa);
		snprintf(why, sizeof why, "branch_no_excp walks from the target: 0x%llx %+lld, %s", (unsigned long long)a,
			 (long long)r->target, insn_row_isa_word(r->next_isa));
		go(e, e->p_at, e->P->isa, "P (the walk from the target first)", why);
	}
}

/* The row at a, taken, then the return-stack probe; CurrentState lost before and after. */
static void taken_pass(struct ptm_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t off, ret = insn_row_next(r, a);
	int ret_isa = r->isa;
	if (!r->link) {
		go(e, e->l_at, e->L->isa, "L", "");
		off = pkt_atom(e, 1, "L taken");
		snprintf(why, sizeof why, "L (%s): dir, link: pushes 0x%llx", e->L->source,
			 (unsigned long long)insn_row_next(e->L, e->l_at));
		insn_vec_l3_range(&e->v, off, e->l_at, e->l_at, 1, e->L->isa, tc_insn_branch_dir, tc_taken_e, why);
		set_cur(e, insn_row_target(e->L, e->l_at), e->L->next_isa);
		ret = insn_row_next(e->L, e->l_at);
		ret_isa = e->L->isa;
	}
	go(e, a, r->isa, r->source, "the walk from L's target: nothing in the image there");
	snprintf(why, sizeof why, "%s: %s%s, taken", r->source, insn_row_type_word(r->type), r->link ? ", link: push" : "");
	if (r->type == tc_insn_branch_indir) {
		go(e, e->p_at, e->P->isa, "P, the target", "");
	} else {
		off = pkt_atom(e, 1, r->source);
		insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_e, why);
		if (r->type == tc_insn_branch_dir) {
			after_direct(e, r, a);
		} else {
			set_cur(e, insn_row_next(r, a), r->isa);
			snprintf(why, sizeof why, "ISB: on at 0x%llx + %d: nothing in the image there", (unsigned long long)a,
				 r->size);
			go(e, e->p_at, e->P->isa, "P (the walk from the next instruction first)", why);
		}
	}
	off = pkt_atom(e, 1, "P taken");
	snprintf(why, sizeof why, "P (%s): indir, its target from the return stack", e->P->source);
	insn_vec_l3_range(&e->v, off, e->p_at, e->p_at, 1, e->P->isa, tc_insn_branch_indir, tc_taken_e, why);
	off = pkt_atom(e, 1, "at the popped address");
	snprintf(why, sizeof why, "popped %s", r->link ? "the row's return address (link)" : "L's (row: no link)");
	insn_vec_l3_no_image(&e->v, off, ret, ret_isa, why);
	e->cur_valid = 0;
}

/* A conditional branch, not taken: on at the next instruction. */
static void not_taken_pass(struct ptm_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t off;
	go(e, a, r->isa, r->source, "");
	off = pkt_atom(e, 0, r->source);
	snprintf(why, sizeof why, "%s: %s, not taken", r->source, insn_row_type_word(r->type));
	insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_n, why);
	off = pkt_atom(e, 1, "after it");
	snprintf(why, sizeof why, "not taken: on at 0x%llx + %d", (unsigned long long)a, r->size);
	insn_vec_l3_no_image(&e->v, off, insn_row_next(r, a), r->isa, why);
	e->cur_valid = 0;
}

static int write_group(const struct insn_table *t, const char *dir, const char *name, const char *what,
		       const struct insn_row *const *rows, size_t n)
{
	static struct ptm_vec e;
	char tags[80];
	if (start(&e, t, name))
		return -1;
	e.L = find_row(t, tc_insn_branch_dir, 1);
	e.P = find_row(t, tc_insn_branch_indir, 0);
	e.l_at = slot(0, e.L);
	e.p_at = slot(1, e.P);
	insn_text_printf(&e.v.head,
			 "%s rows of reference/test/insn/%s.tsv, each alone: taken, with the return stack as a\n"
			 "probe of link, and not taken when conditional (the layout and the reasons:\n"
			 "tools/vecgen/ptm_insn.c, kind 2). L = %s, P = %s.",
			 what, insn_row_isa_word(t->isa), e.L->source, e.P->source);
	insn_vec_place_alone(&e.v, e.l_at, e.L, e.pad, "0x%llx %s: L", (unsigned long long)e.l_at, e.L->source);
	insn_vec_place_alone(&e.v, e.p_at, e.P, e.pad, "0x%llx %s: P", (unsigned long long)e.p_at, e.P->source);
	for (size_t i = 0; i < n; i++) {
		uint64_t a = slot((int)i + 2, rows[i]);
		insn_vec_place_alone(&e.v, a, rows[i], e.pad, "0x%llx %s", (unsigned long long)a, rows[i]->source);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t a = slot((int)i + 2, rows[i]);
		taken_pass(&e, rows[i], a);
		if (rows[i]->cond && rows[i]->type != tc_insn_isb)
			not_taken_pass(&e, rows[i], a);
	}
	snprintf(tags, sizeof tags, "insn l3 %s %s return-stack", insn_row_isa_word(t->isa), what);
	return finish(&e, dir, tags);
}

/* The rows a predicate picks, in groups of at most ROWS_PER_VECTOR of about equal size. */
static int write_groups(const struct insn_table *t, const char *dir, const char *what,
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
		rc = write_group(t, dir, name, what, rows + from, to - from);
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

static int pick_isb(const struct insn_row *r)
{
	return r->type == tc_insn_isb;
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
 * X is walked, the instruction after it is not wholly there (PTM-P14: decode_instr fails): range X other,
 * no-image at X+2. */
static int write_cut(const struct insn_table *t, const char *dir, int k)
{
	static struct ptm_vec e;
	const struct insn_row *x = other_of_size(t, 2, NULL), *y = other_of_size(t, 2, x), *z = other_of_size(t, 4, NULL);
	const struct insn_row *cut = k ? z : y;
	uint64_t a, off;
	char why[300];
	if (!x || !y || !z) {
		fprintf(stderr, "ptm_insn: the T32 table has no two 16-bit and one 32-bit `other` rows\n");
		return -1;
	}
	if (start(&e, t, k ? "t32-cut-halfword.tcv" : "t32-cut-byte.tcv"))
		return -1;
	insn_text_printf(&e.v.head,
			 "A T32 instruction that the image holds only in part: a 16-bit `other` row X, then %s\n"
			 "(the layout and the reasons: tools/vecgen/ptm_insn.c, kind 3).",
			 k ? "two of the four bytes of a 32-bit row" : "one byte of a 16-bit row");
	a = slot(k, x);
	insn_vec_place(&e.v, a, x, "0x%llx %s: X", (unsigned long long)a, x->source);
	insn_vec_place_part(&e.v, a + 2, cut, k ? 2 : 1, "0x%llx the first %s of %s: the image ends", (unsigned long long)(a + 2),
			    k ? "halfword" : "byte", cut->source);
	go(&e, a, tc_isa_t32, "X", "");
	off = pkt_atom(&e, 1, "a walk from X");
	snprintf(why, sizeof why, "%s: other, then the image ends inside the next instruction", x->source);
	insn_vec_l3_range(&e.v, off, a, a, 1, tc_isa_t32, tc_insn_other, tc_taken_none, why);
	snprintf(why, sizeof why, "PTM-P14: decode_instr fails: %d of its %d bytes", k ? 2 : 1, cut->size);
	insn_vec_l3_no_image(&e.v, off, a + 2, tc_isa_t32, why);
	e.cur_valid = 0;
	return finish(&e, dir, "insn l3 t32 no-image");
}

/* ---- The program ---------------------------------------------------------------------------------- */

static int write_table(const char *tables, const char *name, const char *dir)
{
	struct insn_table t;
	char err[700];
	int rc;
	if (insn_table_load(tables, name, &t, err, sizeof err)) {
		fprintf(stderr, "ptm_insn: %s\n", err);
		return -1;
	}
	if (!find_row(&t, tc_insn_branch_dir, 0) || !find_row(&t, tc_insn_branch_dir, 1) ||
	    !find_row(&t, tc_insn_branch_indir, 0) || (t.isa == tc_isa_t32 && !pad_row(&t))) {
		fprintf(stderr, "ptm_insn: %s/%s.tsv: no unconditional direct branch with and without link, or no "
				"indirect one without (T32: and a 32-bit `other` row), to lay the vectors out with\n", tables, name);
		insn_table_free(&t);
		return -1;
	}
	for (size_t i = 0; i < t.n; i++)
		if (t.row[i].type == tc_insn_tstart) {
			fprintf(stderr, "ptm_insn: %s/%s.tsv: %s: TSTART has no meaning for a PTM\n", tables, name,
				t.row[i].source);
			insn_table_free(&t);
			return -1;
		}
	rc = write_other(&t, dir) || write_groups(&t, dir, "dir", pick_dir) || write_groups(&t, dir, "indir", pick_indir) ||
	     write_groups(&t, dir, "p0", pick_isb) || (t.isa == tc_isa_t32 && (write_cut(&t, dir, 0) || write_cut(&t, dir, 1))) ? -1 : 0;
	insn_table_free(&t);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ptm_insn TABLES DIR\n"
		"\n"
		"Writes DIR/*.tcv: the instruction tables TABLES/{a32,t32}.tsv (reference/test/insn) as\n"
		"PFT/PTM L3 vectors, laid out as tools/vecgen/ptm_insn.c describes, through the one .tcv\n"
		"writer. DIR is vectors/ptm/insn for `make vectors`; `make vectors-check` writes to a\n"
		"scratch folder and compares.\n");
}

int main(int argc, char **argv)
{
	static const char *const tables[] = { "a32", "t32" };
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
		fprintf(stderr, "ptm_insn: cannot create '%s': %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (write_table(argv[1], tables[i], argv[2]))
			return 1;
	return 0;
}
