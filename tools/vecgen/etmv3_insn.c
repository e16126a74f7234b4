/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_insn.c — vectors/etmv3/insn: the instruction tables of reference/test/insn (A32, T32) as ETMv3 L3 vectors. */
/*
 * What these vectors score: how a decoder classifies every instruction of the
 * A32 and T32 tables (reference/test/insn/{a32,t32}.tsv: gen.sh assembles the
 * .S sources, whose expected type, link, cond, next ISA and target are written
 * by hand from the Arm ARM's encoding tables beside each instruction, and
 * checks the targets against objdump), as far as it shows at L3 of an ETMv3.
 * The expected L3 lines are derived from the tables' columns and the rules of
 * ARM IHI 0014 chapter 7 (as reference/etmv3/ERRATA.md and FORMAT.md "L3" read
 * them) written next to each step; no decoder runs here, and nothing of the
 * reference's classifier (reference/insn.c) or of reference/etmv3's parser and
 * analysis is called. The trace bytes are written here from the layouts of
 * chapter 7: the A-sync (§7.7.2, ERRATA ETM3-P2: five 00 then 80), the P-header
 * formats of Table 7-2 (ETM3-P6: format 1 b1NEEEE00, its E atoms before its N;
 * format 2 b1000FF10, bit 3 the first atom, 1 = N), the I-sync (§7.7.3,
 * ETM3-P8: header 08, information byte, the address little endian with the T
 * bit in bit 0) and branch address packets in the original compression scheme
 * (§7.3.5, ETM3-P3, Table 7-8; Table 7-10 for the exception information byte).
 * Their L1 lines are written by the one L1 text writer (tc_etmv3_format_packet)
 * from the fields this program put in the bytes, the L3 lines by the one L3
 * text writer.
 *
 * ETMv3 traces every instruction (§7.3.1: each E or N atom is one instruction,
 * E passed its condition code test, N failed it); a branch address packet gives
 * the target of an indirect branch (§7.3.5: "a Branch address packet must be
 * output"), a direct branch's target is the walk's (§4.10.3: B, BL, BLX
 * immediate, CBZ, CBNZ). A range ends at every direct or indirect branch
 * (FORMAT.md "L3"); the other rows walk on: `other`, `wfx` (§4.12: "The WFI
 * or WFE instruction is presented in the trace": an atom like any other; the
 * tables' `wfx` is a P0 instruction only with wfxmode=1 and `other` with
 * wfxmode=0, a32.S, and ETMv3 has no P0 instructions: these rows are walked as
 * `other`) and `isb` (no waypoint either: one atom, §7.3.1). Configuration: ETMv3.4, original
 * compression scheme, not cycle-accurate, no branch output (ETMCR[8] = 0: no
 * packet for a direct branch), no context ID, an A or R profile core;
 * thumb2_one=1 (ETMIDR[18] = 1) but in the t32-two-atoms vectors. The first
 * I-sync (reason 1) gives the items trace-on and context (ETM3-P18, ETM3-P19:
 * the first context, Secure, not Hyp, context ID 0, VMID 0). After it the
 * trace moves with branch address packets, each where a real ETMv3 would put
 * one: after a taken indirect branch (its target), or after the walk was lost
 * at an address the image does not hold (ETM3-P14: the code there is unknown;
 * its last instruction was an indirect branch whose target the packet gives).
 * An atom of that code walks nothing.
 *
 * Left out: the A64 table (ETMv3 traces ARM, Thumb, ThumbEE and Jazelle
 * states only, §7.7.3 Table 7-22) and TSTART (FEAT_TME is A64; a table of
 * A32/T32 rows with one is refused). The link column reaches no L3 field:
 * ETMv3 has no return stack, every indirect branch's target is in the trace.
 * The cond column reaches none either; only a row with cond=1 is given an N
 * atom (an N is a failed condition code test).
 *
 * Three kinds of vector (ISA is a32 or t32):
 *
 * ISA-other: every `other`, `wfx` and `isb` row of the table in table order,
 * then a known direct branch T (the table's first unconditional one without
 * link). I-sync to the first, an E atom for each row and for T (format 1
 * P-headers of up to 15 atoms): one range first=<first> last=T n=<rows + 1>
 * type=dir taken=E. A row taken for a branch ends the range early; a wrong size
 * walks off the rows' bytes. Then an E atom: the walk is at T's target, where
 * the image has nothing: no-image there.
 *
 * ISA-dir-K, ISA-indir-K: each row R alone at an address of its own (nothing
 * else within its targets), the walk lost before it (or, for the first row, no
 * I-sync yet), taken:
 *   go R (I-sync or branch address packet), E: range R <type> E.
 *   dir: E: the walk is at the target (table: address + target column) in the
 *        next ISA column's instruction set (BLX immediate switches, §4.10.3):
 *        the image has nothing there: no-image; the walk is lost. A target
 *        inside R's own bytes (T32 `blx . + 2`: an ARM instruction there would
 *        need two bytes after R) is no-image too. A target that is R itself:
 *        E: range R dir E again; then, conditional, N as below; unconditional,
 *        an IRQ (an exception branch packet, Table 7-12 b1110, to a handler
 *        the image does not hold): `exception type=0xe ret=R` (ERRATA ETM3-P15:
 *        where the walk stands, R again), E: no-image at the handler.
 *   indir: the walk waits for R's branch address packet (§7.3.5); it comes
 *        next: to R itself for a conditional row (then N as below), else to
 *        the next row (go R of that row), after the last one to an address the
 *        image does not hold: E, no-image there.
 * and for a conditional row also not taken:
 *   [go R,] N: range R <type> N;  E: the walk is at R+size: no-image there.
 * So type and outcome show in each range, a direct branch's target and next
 * ISA in the no-image after it, the size in the no-image after a row not taken.
 *
 * t32-two-atoms-other, t32-two-atoms-dir-K, t32-two-atoms-indir-K: the same
 * with thumb2_one=0 (ETMIDR[18] = 0, §4.5.4: "each 32-bit Thumb instruction is
 * traced as two instructions"): two atoms for each 32-bit row, in one P-header
 * (ERRATA ETM3-P13: the second one's E or N is the instruction's); the
 * dir and indir groups hold the 32-bit rows only (a 16-bit row is traced as
 * with thumb2_one=1). The text does not say what the first of the two atoms of
 * an instruction that failed its condition is: both are N here (EE when
 * passed), so a reading that takes the instruction's outcome from either atom
 * sees the same.
 *
 * t32-cut-byte, t32-cut-halfword: a 16-bit `other` row X whose region ends one
 * byte into the next 16-bit row, and again two bytes into a 32-bit row. I-sync
 * to X, E: X joins a range; E: the image does not hold the whole instruction
 * at X+2 (ETM3-P14): range X other (taken -), then no-image at X+2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "insn_vec.h"
#include "outfile.h"
#include "tracecert/etmv3.h"

#ifndef ROWS_PER_VECTOR
#define ROWS_PER_VECTOR 24   /* -DROWS_PER_VECTOR=1: a vector per row, to find every row a decoder fails */
#endif
#define SLOT_BASE UINT64_C(0x10000000)
#define SLOT_STRIDE UINT64_C(0x4000000)   /* an AArch32 branch reaches +-32 MB */
#define AWAY UINT64_C(0x1000)             /* from a row's slot: an address the image does not hold */
#define MAX_E 15                          /* E atoms of one format 1 P-header (Table 7-2) */
#define IRQ 0xe                           /* Table 7-12: Exception[3:0] b1110 */

/* A vector being laid out for one table. */
struct e3_vec {
	struct insn_vec v;
	struct tc_etmv3_config cfg;
	const struct insn_table *t;
	const struct insn_row *pad;      /* T32: the 32-bit row whose first halfword follows a 16-bit row placed alone */
	uint8_t *trace;                  /* the bytes written so far */
	size_t len, cap;
	struct insn_text l1;             /* [expect.l1] lines */
	int synced;                      /* the first I-sync (reason 1) was written */
	uint32_t bcast;                  /* the last broadcast address (I-sync or branch address packet), */
	int bcast_isa;                   /* its instruction set (enum tc_etmv3_isa): what packets compress against */
	const struct insn_row *due;      /* a taken indirect branch whose branch address packet comes next */
	int exceptions;                  /* exception packets written (the tag) */
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

/* The pad after a 16-bit T32 row placed alone (insn_vec_place_alone): the table's first 32-bit
 * `other` row; NULL in a table of 4-byte instructions. */
static const struct insn_row *pad_row(const struct insn_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->row[i].type == tc_insn_other && t->row[i].size == 4 && t->isa == tc_isa_t32)
			return &t->row[i];
	return NULL;
}

static int etm_isa(int isa)
{
	return isa == tc_isa_a32 ? tc_etmv3_isa_arm : tc_etmv3_isa_thumb;
}

static const char *isa_word(int isa)
{
	return isa == tc_isa_a32 ? "ARM" : "Thumb";
}

/* The atoms of row r: two for a 32-bit Thumb instruction with thumb2_one=0 (§4.5.4). */
static int atoms_of(const struct e3_vec *e, const struct insn_row *r)
{
	return !e->cfg.thumb2_one && r->isa == tc_isa_t32 && r->size == 4 ? 2 : 1;
}

/* ---- Packets: bytes and L1 lines ---------------------------------------------------------------- */

static void put_byte(struct e3_vec *e, uint8_t b)
{
	if (e->len == e->cap) {
		size_t cap = e->cap ? 2 * e->cap : 256;
		uint8_t *p = realloc(e->trace, cap);
		if (!p) {
			insn_vec_fail(&e->v, "%s: out of memory", e->v.name);
			return;
		}
		e->trace = p;
		e->cap = cap;
	}
	e->trace[e->len++] = b;
}

static void packet_header(struct tc_etmv3_packet *p, int kind, uint64_t off, uint8_t header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_etmv3;
	p->h.kind = (uint16_t)kind;
	p->h.offset = off;
	p->header = header;
}

static void l1_line(struct e3_vec *e, const struct tc_etmv3_packet *p)
{
	char line[256];
	tc_etmv3_format_packet(line, sizeof line, p);
	insn_text_printf(&e->l1, "%s\n", line);
}

/* §7.7.2, ERRATA ETM3-P2: five 00 bytes, then 80. */
static void pkt_async(struct e3_vec *e)
{
	struct tc_etmv3_packet p;
	for (int i = 0; i < 5; i++)
		put_byte(e, 0x00);
	put_byte(e, 0x80);
	packet_header(&p, tc_etmv3_pkt_async, 0, 0x00);
	l1_line(e, &p);
	insn_vec_packet(&e->v, 0, "@0 A-sync");
}

/* §7.7.3, ERRATA ETM3-P8: header 08 (no context ID bytes: contextid_size=0), the information
 * byte (bit 7 LSiP 0, bits 6:5 the reason, J, NS, AltISA and Hyp 0, bit 0 the constant 1),
 * the address, 4 bytes little endian, bit 0 the T bit (ETM3-S10). */
static uint64_t pkt_isync(struct e3_vec *e, uint32_t a, int isa, int reason, const char *what)
{
	struct tc_etmv3_packet p;
	uint64_t off = e->len;
	uint32_t word = a | (isa == tc_isa_t32);
	put_byte(e, 0x08);
	put_byte(e, (uint8_t)(reason << 5 | 1));
	for (int i = 0; i < 4; i++)
		put_byte(e, (uint8_t)(word >> (8 * i)));
	packet_header(&p, tc_etmv3_pkt_isync, off, 0x08);
	p.has_address = 1;
	p.address = a;
	p.isa = (uint8_t)etm_isa(isa);
	p.reason = (uint8_t)reason;
	l1_line(e, &p);
	insn_vec_packet(&e->v, off, "@%llu I-sync 0x%lx %s, reason %d: %s", (unsigned long long)off, (unsigned long)a,
			isa_word(isa), reason, what);
	e->bcast = a;
	e->bcast_isa = p.isa;
	return off;
}

/* The address bytes of a branch address packet in the original scheme (§7.3.5, ERRATA ETM3-P3):
 * ARM A[7:2], A[14:8], A[21:15], A[28:22], then b0X001 A[31:29]; Thumb A[6:1], A[13:7], A[20:14],
 * A[27:21], then b0X01 A[31:28] (Table 7-8, X: an exception information byte follows); bit 7 of
 * each byte but the last 1, bit 0 of the first 1. As few bytes as cover every bit that differs
 * from the last broadcast address ("Only sufficient low-order bits are output to cover all the
 * bits that have changed"); all five for a change of instruction set ("Branch address packets
 * for change of processor state": 5 or 6 bytes) and for an exception (original scheme: "a branch
 * with an exception always requires the trace to output five bytes"). Returns the count. */
static int address_bytes(const struct e3_vec *e, uint32_t a, int isa, int exception, uint8_t out[5])
{
	int shift = isa == tc_etmv3_isa_arm ? 2 : 1, n = 5;
	uint32_t v = a >> shift, diff = a ^ e->bcast;
	if (!exception && isa == e->bcast_isa) {
		for (n = 1; n < 5; n++)
			if ((diff >> (shift + 6 + 7 * (n - 1))) == 0)
				break;
	}
	out[0] = (uint8_t)(1 | (v & 0x3f) << 1);
	out[1] = (uint8_t)((v >> 6) & 0x7f);
	out[2] = (uint8_t)((v >> 13) & 0x7f);
	out[3] = (uint8_t)((v >> 20) & 0x7f);
	out[4] = (uint8_t)(isa == tc_etmv3_isa_arm ? 0x08 | a >> 29 : 0x10 | a >> 28) | (exception ? 0x40 : 0);
	for (int i = 0; i + 1 < n; i++)
		out[i] |= 0x80;
	return n;
}

/* A branch address packet to a (isa), with an exception information byte 0 (Table 7-10: Con 0,
 * AltISA 0, Can 0, Exception[3:0] at bits 4:1, NS 0) when exception is not 0. */
static uint64_t pkt_branch(struct e3_vec *e, uint32_t a, int isa, int exception, const char *what)
{
	struct tc_etmv3_packet p;
	uint8_t b[5];
	uint64_t off = e->len;
	int n = address_bytes(e, a, etm_isa(isa), exception, b);
	for (int i = 0; i < n; i++)
		put_byte(e, b[i]);
	if (exception)
		put_byte(e, (uint8_t)(exception << 1));
	packet_header(&p, tc_etmv3_pkt_branch, off, b[0]);
	p.address = a;
	p.isa = (uint8_t)etm_isa(isa);
	if (exception) {
		p.exc_form = tc_etmv3_exc_bytes;
		p.exception = (uint16_t)exception;
	}
	l1_line(e, &p);
	insn_vec_packet(&e->v, off, "@%llu branch address 0x%lx %s%s: %s", (unsigned long long)off, (unsigned long)a,
			isa_word(isa), exception ? ", exception IRQ" : "", what);
	e->bcast = a;
	e->bcast_isa = p.isa;
	return off;
}

/* One P-header with the atoms of s (oldest first): E...E with at most one N after them in
 * format 1 (b1NEEEE00), or two atoms in format 2 (b1000FF10, 1 = N) (Table 7-2, ERRATA ETM3-P6). */
static uint64_t pkt_atoms(struct e3_vec *e, const char *s, const char *what)
{
	struct tc_etmv3_packet p;
	uint64_t off = e->len;
	size_t n = strlen(s), ne = strspn(s, "E");
	uint8_t h;
	if (ne <= MAX_E && (ne == n || (ne + 1 == n && s[ne] == 'N'))) {
		h = (uint8_t)(0x80 | (ne < n) << 6 | ne << 2);
	} else if (n == 2) {
		h = (uint8_t)(0x82 | (s[0] == 'N') << 3 | (s[1] == 'N') << 2);
	} else {
		insn_vec_fail(&e->v, "%s: no P-header holds the atoms %s", e->v.name, s);
		return off;
	}
	put_byte(e, h);
	packet_header(&p, tc_etmv3_pkt_atom, off, h);
	p.natoms = (uint8_t)n;
	for (size_t i = 0; i < n; i++)
		if (s[i] == 'E')
			p.atoms |= UINT32_C(1) << i;
	l1_line(e, &p);
	insn_vec_packet(&e->v, off, "@%llu %s: %s", (unsigned long long)off, s, what);
	return off;
}

/* The atoms of row r in one P-header: E (EE) or N (NN). */
static uint64_t pkt_row(struct e3_vec *e, const struct insn_row *r, int taken, const char *what)
{
	const char *s = taken ? (atoms_of(e, r) == 2 ? "EE" : "E") : (atoms_of(e, r) == 2 ? "NN" : "N");
	return pkt_atoms(e, s, what);
}

/* ---- Moving the walk ---------------------------------------------------------------------- */

/* The walk goes to a (isa): the first I-sync (reason 1), then branch address packets, written
 * only where the walk is lost or a taken indirect branch waits for its packet. */
static void go(struct e3_vec *e, uint64_t a, int isa, const char *what)
{
	struct tc_context c = { 0 };
	char note[200];
	uint64_t off;
	if (!e->synced) {
		off = pkt_isync(e, (uint32_t)a, isa, 1, what);
		insn_vec_l3_item(&e->v, off, tc_l3_trace_on, "ETM3-P18: an I-sync of reason 1");
		insn_vec_l3_context(&e->v, off, &c, "ETM3-P19: the first context (Secure, not Hyp, context ID 0, VMID 0)");
		e->synced = 1;
		return;
	}
	if (e->due)
		snprintf(note, sizeof note, "%s, the target of %s", what, e->due->source);
	else
		snprintf(note, sizeof note, "%s (the walk was lost)", what);
	pkt_branch(e, (uint32_t)a, isa, 0, note);
	e->due = NULL;
}

/* An E atom where the image holds no whole instruction: no-image; the walk is lost. */
static void lost_at(struct e3_vec *e, uint64_t a, int isa, const char *what, const char *why)
{
	uint64_t off = pkt_atoms(e, "E", what);
	insn_vec_l3_no_image(&e->v, off, a, isa, why);
}

static void start(struct e3_vec *e, const struct insn_table *t, const char *name, int thumb2_one)
{
	memset(e, 0, sizeof *e);
	insn_vec_init(&e->v, name, tc_proto_etmv3);
	tc_etmv3_config_default(&e->cfg);
	e->cfg.version = 4;
	e->cfg.thumb2_one = thumb2_one;
	e->t = t;
	e->pad = pad_row(t);
	pkt_async(e);
}

static int finish(struct e3_vec *e, const char *dir, const char *tags)
{
	int rc = insn_vec_write(&e->v, dir, tc_protocol_find("etmv3"), &e->cfg, tags, e->trace, e->len, e->l1.p);
	if (rc)
		fprintf(stderr, "etmv3_insn: %s\n", e->v.err);
	free(e->trace);
	insn_text_free(&e->l1);
	insn_vec_free(&e->v);
	return rc;
}

/* ---- 1. The rows that are not branches, in one range ------------------------------------------- */

static int walks_on(const struct insn_row *r)
{
	return r->type == tc_insn_other || r->type == tc_insn_wfx || r->type == tc_insn_isb;
}

/* The E atoms of rows[0..n) in format 1 P-headers of at most MAX_E atoms, the two atoms of a
 * 32-bit Thumb instruction in one. Returns the first header's offset. */
static uint64_t atoms_over(struct e3_vec *e, const struct insn_row *const *rows, size_t n)
{
	char s[MAX_E + 1];
	size_t k = 0;
	uint64_t first = e->len;
	const char *each = e->cfg.thumb2_one ? "one E an instruction" : "one E a 16-bit instruction, EE a 32-bit one";
	char note[120];
	for (size_t i = 0; i < n; i++) {
		int m = atoms_of(e, rows[i]);
		if (k + (size_t)m > MAX_E) {
			s[k] = '\0';
			snprintf(note, sizeof note, "%s, in table order", each);
			pkt_atoms(e, s, note);
			k = 0;
		}
		for (int j = 0; j < m; j++)
			s[k++] = 'E';
	}
	s[k] = '\0';
	snprintf(note, sizeof note, "%s, in table order; the last is T, taken", each);
	pkt_atoms(e, s, note);
	return first;
}

static int write_other(const struct insn_table *t, const char *dir, int thumb2_one)
{
	struct e3_vec e;
	const struct insn_row *T = find_row(t, tc_insn_branch_dir, 0);
	const struct insn_row **seq = malloc((t->n + 1) * sizeof *seq);
	const char *two = thumb2_one ? "" : "-two-atoms";
	char name[64], why[300], tags[64];
	uint64_t at = slot(0, T), first = at, off;
	size_t n = 0;
	if (!seq) {
		fprintf(stderr, "etmv3_insn: out of memory\n");
		return -1;
	}
	snprintf(name, sizeof name, "%s%s-other.tcv", insn_row_isa_word(t->isa), two);
	start(&e, t, name, thumb2_one);
	insn_text_printf(&e.v.head,
			 "The %s rows of reference/test/insn/%s.tsv that are not branches: every `other`, `wfx`\n"
			 "and `isb` row, in table order, then the table's direct branch T, one range%s (the\n"
			 "layout and the reasons: tools/vecgen/etmv3_insn.c, kind 1).",
			 insn_row_isa_word(t->isa), insn_row_isa_word(t->isa),
			 thumb2_one ? "" : ", each 32-bit\nrow traced as two instructions (thumb2_one=0)");
	for (size_t i = 0; i < t->n; i++) {
		const struct insn_row *r = &t->row[i];
		if (!walks_on(r))
			continue;
		insn_vec_place(&e.v, at, r, "0x%llx %s: %s", (unsigned long long)at, r->source, insn_row_type_word(r->type));
		at = insn_row_next(r, at);
		seq[n++] = r;
	}
	insn_vec_place_alone(&e.v, at, T, e.pad, "0x%llx %s: T, dir", (unsigned long long)at, T->source);
	seq[n] = T;
	go(&e, first, t->isa, "the first row");
	off = atoms_over(&e, seq, n + 1);
	snprintf(why, sizeof why, "§7.3.1: the %zu rows are no branches%s, T (%s) is dir, taken", n,
		 thumb2_one ? "" : " (two atoms each 32-bit one, ETM3-P13)", T->source);
	insn_vec_l3_range(&e.v, off, first, at, n + 1, t->isa, tc_insn_branch_dir, tc_taken_e, why);
	snprintf(why, sizeof why, "at T's target, 0x%llx %s0x%llx: nothing in the image there", (unsigned long long)at,
		 T->target < 0 ? "- " : "+ ", (unsigned long long)(T->target < 0 ? -T->target : T->target));
	lost_at(&e, insn_row_target(T, at), T->next_isa, "at T's target", why);
	free(seq);
	snprintf(tags, sizeof tags, "insn l3 %s other%s", insn_row_isa_word(t->isa), thumb2_one ? "" : " thumb2");
	return finish(&e, dir, tags);
}

/* ---- 2. Branch rows one at a time ----------------------------------------------------------- */

/* The row at a, not taken: N, then the walk is at a + size. */
static void not_taken(struct e3_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t off = pkt_row(e, r, 0, r->source);
	snprintf(why, sizeof why, "%s: %s, not taken (N)", r->source, insn_row_type_word(r->type));
	insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_n, why);
	snprintf(why, sizeof why, "not taken: on at 0x%llx + %d: nothing in the image there", (unsigned long long)a,
		 r->size);
	lost_at(e, insn_row_next(r, a), r->isa, "after it", why);
}

/* An unconditional branch to itself, taken again: an IRQ takes the walk away (an exception
 * branch packet to an address the image does not hold); its return address is where the walk
 * stands, the branch (ERRATA ETM3-P15). */
static void interrupted(struct e3_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t h = (a & ~UINT64_C(3)) + AWAY;
	uint64_t off = pkt_branch(e, (uint32_t)h, tc_isa_a32, IRQ, "an IRQ interrupts the loop");
	snprintf(why, sizeof why, "Table 7-12 b1110 IRQ; ETM3-P15: ret is where the walk stands, %s again", r->source);
	insn_vec_l3_exception(&e->v, off, IRQ, a, why);
	lost_at(e, h, tc_isa_a32, "at the handler", "the IRQ handler: nothing in the image there");
	e->exceptions++;
}

static void dir_row(struct e3_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t t = insn_row_target(r, a), off;
	go(e, a, r->isa, r->source);
	off = pkt_row(e, r, 1, r->source);
	snprintf(why, sizeof why, "%s: dir, taken (E)", r->source);
	insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_e, why);
	if (t == a) {
		off = pkt_row(e, r, 1, "at the target, the branch itself");
		insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_e, "the target is the branch itself, taken again");
		if (r->cond)
			not_taken(e, r, a);
		else
			interrupted(e, r, a);
		return;
	}
	snprintf(why, sizeof why, "at the target, 0x%llx %s0x%llx, %s: nothing in the image there", (unsigned long long)a,
		 r->target < 0 ? "- " : "+ ", (unsigned long long)(r->target < 0 ? -r->target : r->target),
		 insn_row_isa_word(r->next_isa));
	lost_at(e, t, r->next_isa, "at the target", why);
	if (r->cond) {
		go(e, a, r->isa, r->source);
		not_taken(e, r, a);
	}
}

static void indir_row(struct e3_vec *e, const struct insn_row *r, uint64_t a)
{
	char why[300];
	uint64_t off;
	go(e, a, r->isa, r->source);
	off = pkt_row(e, r, 1, r->source);
	snprintf(why, sizeof why, "%s: indir, taken (E): the walk waits for its branch address packet", r->source);
	insn_vec_l3_range(&e->v, off, a, a, 1, r->isa, r->type, tc_taken_e, why);
	e->due = r;
	if (r->cond) {
		go(e, a, r->isa, "back to it");
		not_taken(e, r, a);
	}
}

static int write_group(const struct insn_table *t, const char *dir, const char *name, const char *what,
		       const struct insn_row *const *rows, size_t n, int thumb2_one)
{
	struct e3_vec e;
	char tags[80];
	start(&e, t, name, thumb2_one);
	insn_text_printf(&e.v.head,
			 "%s rows of reference/test/insn/%s.tsv%s, each alone: taken, and not taken when\n"
			 "conditional (the layout and the reasons: tools/vecgen/etmv3_insn.c, kind 2%s).",
			 what, insn_row_isa_word(t->isa), thumb2_one ? "" : " (32-bit)",
			 thumb2_one ? "" : "; each traced as\ntwo instructions, thumb2_one=0");
	for (size_t i = 0; i < n; i++) {
		uint64_t a = slot((int)i, rows[i]);
		insn_vec_place_alone(&e.v, a, rows[i], e.pad, "0x%llx %s", (unsigned long long)a, rows[i]->source);
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t a = slot((int)i, rows[i]);
		if (rows[i]->type == tc_insn_branch_dir)
			dir_row(&e, rows[i], a);
		else
			indir_row(&e, rows[i], a);
	}
	if (e.due) {
		const struct insn_row *r = e.due;
		uint64_t away = (slot((int)n - 1, r) & ~UINT64_C(3)) + AWAY;
		go(&e, away, r->isa, "an address the image does not hold");
		lost_at(&e, away, r->isa, "there", "the last indirect branch's target: nothing in the image there");
	}
	snprintf(tags, sizeof tags, "insn l3 %s %s%s%s", insn_row_isa_word(t->isa), what, thumb2_one ? "" : " thumb2",
		 e.exceptions ? " exception" : "");
	return finish(&e, dir, tags);
}

/* The rows a predicate picks, in groups of at most ROWS_PER_VECTOR of about equal size. */
static int write_groups(const struct insn_table *t, const char *dir, const char *what,
			int (*pick)(const struct insn_row *), int thumb2_one)
{
	const struct insn_row **rows = malloc(t->n * sizeof *rows);
	size_t n = 0, groups, from = 0;
	int rc = 0;
	if (!rows) {
		fprintf(stderr, "etmv3_insn: out of memory\n");
		return -1;
	}
	for (size_t i = 0; i < t->n; i++)
		if (pick(&t->row[i]) && (thumb2_one || t->row[i].size == 4))
			rows[n++] = &t->row[i];
	groups = (n + ROWS_PER_VECTOR - 1) / ROWS_PER_VECTOR;
	for (size_t g = 0; g < groups && !rc; g++) {
		size_t to = n * (g + 1) / groups;
		char name[64];
		const char *two = thumb2_one ? "" : "-two-atoms";
		if (groups == 1)
			snprintf(name, sizeof name, "%s%s-%s.tcv", insn_row_isa_word(t->isa), two, what);
		else
			snprintf(name, sizeof name, "%s%s-%s-%zu.tcv", insn_row_isa_word(t->isa), two, what, g + 1);
		rc = write_group(t, dir, name, what, rows + from, to - from, thumb2_one);
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

/* ---- 3. T32 instructions the image holds only in part ---------------------------------------------- */

/* The first row of type other and size n after `after`. */
static const struct insn_row *other_of_size(const struct insn_table *t, int n, const struct insn_row *after)
{
	for (size_t i = after ? (size_t)(after - t->row) + 1 : 0; i < t->n; i++)
		if (t->row[i].type == tc_insn_other && t->row[i].size == n)
			return &t->row[i];
	return NULL;
}

static int write_cut(const struct insn_table *t, const char *dir, int k)
{
	struct e3_vec e;
	const struct insn_row *x = other_of_size(t, 2, NULL), *y = other_of_size(t, 2, x), *z = other_of_size(t, 4, NULL);
	const struct insn_row *cut = k ? z : y;
	uint64_t a, off;
	char why[300];
	if (!x || !y || !z) {
		fprintf(stderr, "etmv3_insn: the T32 table has no two 16-bit and one 32-bit `other` rows\n");
		return -1;
	}
	start(&e, t, k ? "t32-cut-halfword.tcv" : "t32-cut-byte.tcv", 1);
	insn_text_printf(&e.v.head,
			 "A T32 instruction that the image holds only in part: a 16-bit `other` row X, then %s\n"
			 "(the layout and the reasons: tools/vecgen/etmv3_insn.c, kind 3).",
			 k ? "two of the four bytes of a 32-bit row" : "one byte of a 16-bit row");
	a = slot(k, x);
	insn_vec_place(&e.v, a, x, "0x%llx %s: X", (unsigned long long)a, x->source);
	insn_vec_place_part(&e.v, a + 2, cut, k ? 2 : 1, "0x%llx the first %s of %s: the image ends",
			    (unsigned long long)(a + 2), k ? "halfword" : "byte", cut->source);
	go(&e, a, tc_isa_t32, "X");
	off = pkt_atoms(&e, "E", "X");
	snprintf(why, sizeof why, "%s: other, then the image ends inside the next instruction", x->source);
	insn_vec_l3_range(&e.v, off, a, a, 1, tc_isa_t32, tc_insn_other, tc_taken_none, why);
	snprintf(why, sizeof why, "ETM3-P14: %d of its %d bytes in the image", k ? 2 : 1, cut->size);
	lost_at(&e, a + 2, tc_isa_t32, "the instruction after X", why);
	return finish(&e, dir, "insn l3 t32 no-image");
}

/* ---- The program ---------------------------------------------------------------------------------- */

static int write_vectors(const struct insn_table *t, const char *dir)
{
	if (write_other(t, dir, 1) || write_groups(t, dir, "dir", pick_dir, 1) || write_groups(t, dir, "indir", pick_indir, 1))
		return -1;
	if (t->isa != tc_isa_t32)
		return 0;
	return write_cut(t, dir, 0) || write_cut(t, dir, 1) || write_other(t, dir, 0) ||
	       write_groups(t, dir, "dir", pick_dir, 0) || write_groups(t, dir, "indir", pick_indir, 0) ? -1 : 0;
}

static int write_table(const char *tables, const char *name, const char *dir)
{
	struct insn_table t;
	char err[700];
	int rc;
	if (insn_table_load(tables, name, &t, err, sizeof err)) {
		fprintf(stderr, "etmv3_insn: %s\n", err);
		return -1;
	}
	if (!find_row(&t, tc_insn_branch_dir, 0) || (t.isa == tc_isa_t32 && !pad_row(&t))) {
		fprintf(stderr, "etmv3_insn: %s/%s.tsv: no unconditional direct branch without link (T32: and no 32-bit "
				"`other` row) to lay the vectors out with\n", tables, name);
		insn_table_free(&t);
		return -1;
	}
	for (size_t i = 0; i < t.n; i++)
		if (t.row[i].type == tc_insn_tstart) {
			fprintf(stderr, "etmv3_insn: %s/%s.tsv: %s: TSTART has no meaning for an ETMv3\n", tables, name,
				t.row[i].source);
			insn_table_free(&t);
			return -1;
		}
	rc = write_vectors(&t, dir);
	insn_table_free(&t);
	return rc;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: etmv3_insn TABLES DIR\n"
		"\n"
		"Writes DIR/*.tcv: the instruction tables TABLES/{a32,t32}.tsv (reference/test/insn) as\n"
		"ETMv3 L3 vectors, laid out as tools/vecgen/etmv3_insn.c describes, through the one .tcv\n"
		"writer. DIR is vectors/etmv3/insn for `make vectors`; `make vectors-check` writes to a\n"
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
		fprintf(stderr, "etmv3_insn: cannot create '%s': %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
		if (write_table(argv[1], tables[i], argv[2]))
			return 1;
	return 0;
}
