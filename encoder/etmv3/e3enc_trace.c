/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_trace.c — the ETMv3 encoder's execution model and trace-unit decisions. */
/* Runs a random A32/T32 program instruction by instruction and decides what
 * an ETMv3 reports (IHI 0014 chapter 7, as reference/etmv3/ERRATA.md reads
 * it): an atom per instruction (§7.3.1: E passed its condition, N failed it;
 * a 32-bit Thumb instruction as two with ETMIDR[18] = 0, §4.5.4), a branch
 * address packet for every taken indirect branch and, with branch output
 * (ETMCR[8]), every taken branch (§7.3.5), exceptions with and without a
 * cancelled instruction (Table 4-2, Table 7-10) and their returns (§7.5.4,
 * IHI 0014Q §7.6), ThumbEE and Jazelle states (Table 7-14), context and
 * security changes, periodic, trace-on, overflow and LSiP I-syncs (§7.7.3),
 * cycle counts (§7.3.4), data transfers (e3enc_data.c). The L3 truth is
 * what the execution traced (e3enc_l3.c). */
#include <string.h>

#include "e3enc_internal.h"

enum { st_arm = tc_etmv3_isa_arm, st_thumb = tc_etmv3_isa_thumb, st_thumbee = tc_etmv3_isa_thumbee,
       st_jazelle = tc_etmv3_isa_jazelle };

/* ---- States and program flow ------------------------------------------------------- */

static int thumbish(int s)
{
	return s == st_thumb || s == st_thumbee;
}

static int l3_isa_of(int state)
{
	return state == st_arm ? tc_isa_a32 : tc_isa_t32;   /* ThumbEE as T32 (ETM3-P12) */
}

static uint64_t random_block_start(struct e3e *e)
{
	return e->prog.block[enc_random_block(&e->prog, &e->rng, -1)].start;
}

/* A block start in A32 code when there is one (Jazelle returns to ARM). */
static uint64_t random_arm_start(struct e3e *e)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t a = random_block_start(e);
		if (e3e_code_isa(e, a) == st_arm)
			return a;
	}
	return random_block_start(e);
}

/* The state of the code at a: ARM, or Thumb / ThumbEE (ee) for T32 code. */
static int state_at(const struct e3e *e, uint64_t a, int ee)
{
	if (e3e_code_isa(e, a) == st_arm)
		return st_arm;
	return ee ? st_thumbee : st_thumb;
}

/* Whether execution arriving at a (by an address) runs in ThumbEE state. */
static int random_ee(struct e3e *e, uint64_t a)
{
	return e->use_thumbee && e3e_code_isa(e, a) != st_arm && enc_chance(&e->rng, 50);
}

static int term_type(int term)
{
	const char *t = enc_term_info(term)->type;
	return !strcmp(t, "dir") ? tc_insn_branch_dir : !strcmp(t, "indir") ? tc_insn_branch_indir : tc_insn_other;
}

static int is_indirect(int flow)
{
	return flow == flow_return || flow == flow_indirect || flow == flow_icall;
}

/* The atoms of the instruction at `at` in the current state (two for a
 * 32-bit Thumb instruction with ETMIDR[18] = 0, the first only counting). */
static void trace_atoms(struct e3e *e, uint64_t at, int size, int pass, int type)
{
	struct e3e_atom a;
	if (!e->itrace)
		return;
	memset(&a, 0, sizeof a);
	a.e = (uint8_t)pass;
	a.kind = e3e_atom_insn;
	a.isa = (uint8_t)l3_isa_of(e->state);
	a.type = (uint8_t)type;
	a.size = (uint8_t)size;
	a.addr = e3e_vis(at);
	if (thumbish(e->state) && size == 4 && !e->cfg.thumb2_one) {
		struct e3e_atom h = a;
		h.kind = e3e_atom_half;
		e3e_atom(e, &h);
		e3e_hit(e, "t32-two-atoms");
	}
	e3e_atom(e, &a);
}

/* The first of the two atoms of a 32-bit Thumb instruction alone (an
 * exception comes between them, §4.5.4). */
static void trace_half(struct e3e *e, uint64_t at)
{
	struct e3e_atom h;
	memset(&h, 0, sizeof h);
	h.e = 1;
	h.kind = e3e_atom_half;
	h.isa = (uint8_t)l3_isa_of(e->state);
	h.size = 4;
	h.addr = e3e_vis(at);
	e3e_atom(e, &h);
	e3e_hit(e, "exc-between-halves");
}

/* Whether the terminator of block b passes its condition, and where the
 * execution goes next. */
static int outcome(struct e3e *e, int b, uint64_t *next)
{
	const struct enc_block *k = &e->prog.block[b];
	uint64_t fall = k->term_addr + (uint64_t)k->term_size;
	int flow = enc_term_info(k->term)->flow, taken = e->cond[b] ? enc_chance(&e->rng, 60) : 1;
	if (flow == flow_cond) {
		if (k->target == b) {   /* a loop: taken until its last iteration */
			if (e->loop_left == 0)
				e->loop_left = 1 + enc_below(&e->rng, 40);
			taken = --e->loop_left > 0;
			e3e_hit(e, "loop");
		} else {
			taken = enc_chance(&e->rng, e->burst ? e->burst_bias : 50);
		}
	}
	*next = fall;
	if (!taken || flow == flow_fall)
		return taken;
	if (flow == flow_jump || flow == flow_call || flow == flow_cond)
		*next = e->prog.block[k->target].start;
	else if (flow == flow_return && e->call_depth > 0 && enc_chance(&e->rng, 85))
		*next = e->calls[--e->call_depth];
	else
		*next = random_block_start(e);
	if ((flow == flow_call || flow == flow_icall) && e->call_depth < E3E_MAX_CALLS)
		e->calls[e->call_depth++] = fall;
	return taken;
}

/* ---- Branch packets ------------------------------------------------------------------- */

/* A branch packet to `to` (a model address, or a Jazelle address) in state
 * st with the security state and Hyp mode after it: exception information
 * with Exception 0 when the security state, Hyp mode or a ThumbEE state
 * changes (§7.3.5 "Branch address packets for change of security state",
 * Table 7-14; IHI 0014Q: Hyp). */
static uint64_t branch_packet(struct e3e *e, uint64_t to, int st, int ns, int hyp)
{
	struct e3e_exc x;
	int ee = (st == st_thumbee) != (e->last.isa == st_thumbee);
	int need = ee || ns != e->last.ns || hyp != e->last.hyp;
	uint64_t off;
	memset(&x, 0, sizeof x);
	x.ns = ns;
	x.hyp = hyp;
	if (ee)
		e3e_hit(e, st == st_thumbee ? "thumbee-enter" : "thumbee-leave");
	if (ns != e->last.ns || hyp != e->last.hyp)
		e3e_hit(e, "branch-state-change");
	off = e3e_pkt_branch(e, e3e_vis(to), st, need ? &x : NULL);
	e3e_l3_context(e, off);
	return off;
}

/* ---- Synchronisation ----------------------------------------------------------------- */

/* An instruction of the block at `from` where an LSiP I-sync can start
 * (§7.7.3: trace enabled in the middle of a data instruction while another
 * executes): a data instruction that is not the terminator, and the
 * current instruction after it. A 32-bit Thumb data instruction traced as
 * two atoms is left out (what its one implied E atom stands for is not
 * said). Returns 0 when the block has none. */
static int pick_lsip(struct e3e *e, int b, struct e3e_insn *d, uint64_t *cur)
{
	const struct enc_block *k = &e->prog.block[b];
	uint64_t cand[8];
	int n = 0;
	for (uint64_t at = k->start; at < k->term_addr && n < 8;) {
		struct e3e_insn i;
		e3e_insn_at(e, at, &i);
		if (i.transfers == 1 && !(i.t32 && i.size == 4 && !e->cfg.thumb2_one))
			cand[n++] = at;
		at += (uint64_t)(i.size ? i.size : 2);
	}
	if (n == 0)
		return 0;
	e3e_insn_at(e, cand[enc_below(&e->rng, (unsigned)n)], d);
	*cur = d->at + (uint64_t)d->size;
	if (*cur < k->term_addr && enc_chance(&e->rng, 25)) {
		*cur += (uint64_t)enc_insn_size(&e->prog, *cur);
		e3e_hit(e, "isync-lsip-skip");
	}
	return 1;
}

static void vmid(struct e3e *e, int change);

/* Whether the cycle counts of a Non-periodic I-sync of this reason must be
 * ignored: "In ETMv3.0, the cycle count output following overflow or entry
 * to debug state must be ignored" (§7.3.4); "In ETMv3.5, the trace is not
 * cycle-accurate through overflow" (IHI 0014Q §7.3.4). Its count, in header
 * 70 or a Cycle count packet before the next Non-periodic I-sync, is then
 * unknown at L3 (ETM3-P25). */
static int cc_ignored(const struct tc_etmv3_config *c, int reason)
{
	if (c->version == 0)
		return reason == 2 || reason == 3;
	return c->version >= 5 && reason == 2;
}

/* A count of a Non-periodic I-sync in the versions where some are ignored. */
static void cc_variants(struct e3e *e, uint32_t cc)
{
	if (cc != 0 && (e->cfg.version == 0 || e->cfg.version == 5))
		e3e_hit(e, "cc-%s-v3%d-reason%d", e->cc_ignored ? "ignored" : "kept", e->cfg.version, e->cc_reason);
}

/* An I-sync where the execution stands (e->pc or, in Jazelle state, e->jz_pc):
 * periodic (0), or after a gap (1 trace enabled, 2 overflow, 3 debug exit)
 * with, in cycle-accurate mode, its cycle count in the packet or in a Cycle
 * count packet later (§7.3.4); d: the data instruction of an LSiP I-sync. */
static void isync_here(struct e3e *e, int reason, const struct e3e_insn *d)
{
	struct e3e_isync s;
	struct tc_l3 x;
	uint64_t off;
	memset(&s, 0, sizeof s);
	s.address = e->state == st_jazelle ? e->jz_pc : e3e_vis(e->pc);
	s.isa = e->state;
	s.reason = reason;
	s.cc = -1;
	if (e->cfg.cycle_accurate && e->itrace && reason != 0 && enc_chance(&e->rng, 50))
		s.cc = e3e_random_cc(e);
	s.lsip = d != NULL;
	s.data_insn = d ? e3e_vis(d->at) : 0;
	s.lsip_ns = d && !e->cfg.profile_m && enc_chance(&e->rng, 15) ? !e->ns : e->ns;
	off = e3e_pkt_isync(e, &s);
	if (reason != 0) {
		e->cc_ignored = cc_ignored(&e->cfg, reason);
		e->cc_reason = reason;
	}
	if (reason == 2)
		e3e_l3_simple(e, tc_l3_overflow, off);
	else if (reason != 0)
		e3e_l3_simple(e, tc_l3_trace_on, off);
	e3e_l3_deliver(e);
	e3e_l3_forget_last(e);
	if (d) {   /* "Execution of the instruction at this address is implied, as if an E atom was traced" */
		struct e3e_atom a;
		memset(&a, 0, sizeof a);
		a.e = 1;
		a.kind = e3e_atom_insn;
		a.isa = (uint8_t)l3_isa_of(e->state);
		a.type = tc_insn_other;
		a.size = (uint8_t)d->size;
		a.addr = s.data_insn;
		/* in the information byte's security state; the current address's
		 * Exception information byte changes it after (ETM3-P18) */
		e->last.ns = e->ns;
		e3e_l3_context(e, off);
		e3e_l3_insn(e, off, &a);
		e->last.ns = s.lsip_ns;
	}
	e->ns = s.lsip_ns;
	e3e_l3_context(e, off);
	if (s.cc >= 0) {
		e3e_item(&x, tc_l3_cycle_count, off);
		x.count = (uint32_t)s.cc;
		x.unknown = s.cc == 0 || e->cc_ignored;
		e3e_l3_emit(e, &x);
		cc_variants(e, (uint32_t)s.cc);
	} else if (e->cfg.cycle_accurate && e->itrace && reason != 0) {
		e->cc_owed = 1;
	}
	e->jz_atoms = 0;
	if (d)
		e3e_data_insn(e, d, 0, 0);   /* the data instruction still in progress */
	if (e->cfg.vmid)   /* "When an I-Sync packet occurs, a VMID packet must be output before the next P-header" */
		vmid(e, reason != 0 && enc_chance(&e->rng, 30));
}

static void cycle_count(struct e3e *e, uint32_t cc)
{
	struct tc_l3 x;
	uint64_t off = e3e_pkt_cycle_count(e, cc);
	e3e_item(&x, tc_l3_cycle_count, off);
	x.count = cc;
	x.unknown = cc == 0 || e->cc_ignored;
	e3e_l3_emit(e, &x);
	cc_variants(e, cc);
	e->cc_owed = 0;
}

static uint32_t random_ctxid(struct e3e *e)
{
	int n = e->cfg.contextid_size;
	uint32_t mask = n >= 4 ? UINT32_MAX : (UINT32_C(1) << (8 * n)) - 1;
	return (uint32_t)enc_next(&e->rng) & mask;
}

/* A new security state and Hyp mode (Hyp from ETMv3.5, not in data-only
 * mode, whose I-syncs do not give it); an ARMv7-M core has neither. */
static void new_state(struct e3e *e, int *ns, int *hyp)
{
	*ns = e->ns;
	*hyp = e->hyp;
	if (e->cfg.profile_m)
		return;
	if (enc_chance(&e->rng, 25))
		*ns = !e->ns;
	if (e->cfg.version >= 5 && !e->cfg.data_only && enc_chance(&e->rng, 20))
		*hyp = !e->hyp;
}

/* Where tracing starts after a gap: a block, or an instruction inside one,
 * in either instruction set; maybe in the middle of a data instruction. */
static int restart_point(struct e3e *e, int reason, struct e3e_insn *d)
{
	int b = enc_random_block(&e->prog, &e->rng, -1);
	const struct enc_block *k = &e->prog.block[b];
	uint64_t at = k->start, cur;
	if (e->itrace && reason != 0 && enc_chance(&e->rng, 20) && pick_lsip(e, b, d, &cur)) {
		e->pc = cur;
		e->state = state_at(e, cur, random_ee(e, cur));
		return 1;
	}
	if (enc_chance(&e->rng, 30)) {
		at = enc_insn_nth(&e->prog, k->start, enc_below(&e->rng, (unsigned)enc_insn_count(&e->prog, k->start, k->term_addr)));
		e3e_hit(e, "restart-mid-block");
	}
	e->pc = at;
	e->state = state_at(e, at, random_ee(e, at));
	return 0;
}

/* Tracing stops and starts again (reason 1 trace enabled, 3 debug exit, 2
 * after an overflow), maybe elsewhere and in another context. A Cycle count
 * packet a Non-periodic I-sync still owes comes first ("might not be
 * present if there is a subsequent ETM FIFO overflow"). at_pc: restart
 * where the execution stands. */
static void restart_at(struct e3e *e, int reason, int at_pc)
{
	struct e3e_insn d;
	int lsip = 0;
	e3e_flush_atoms(e);
	if (e->cc_owed) {
		if (reason == 2 && enc_chance(&e->rng, 50)) {
			e->cc_owed = 0;
			e3e_hit(e, "cc-owed-lost");
		} else {
			cycle_count(e, e3e_random_cc(e));
		}
	}
	e3e_data_gap(e);
	new_state(e, &e->ns, &e->hyp);
	if (e->cfg.contextid_size > 0 && enc_chance(&e->rng, 40))
		e->ctxid = random_ctxid(e);
	if (!at_pc) {
		lsip = restart_point(e, reason, &d);
		e->nframes = 0;   /* elsewhere: the exceptions taken before are not returned from */
	}
	e->resume_skip = 0;
	if (reason == 2 || enc_chance(&e->rng, 50))
		e3e_pkt_async(e);
	isync_here(e, reason, lsip ? &d : NULL);
}

static void restart(struct e3e *e, int reason)
{
	restart_at(e, reason, 0);
}

/* A periodic I-sync where the execution stands (maybe after an A-sync). */
static void periodic_sync(struct e3e *e)
{
	if (enc_chance(&e->rng, 50))
		e3e_pkt_async(e);
	isync_here(e, 0, NULL);
}

/* ---- Exceptions ----------------------------------------------------------------------- */

/* Exception[3:0] of an A or R profile core (Table 7-12) by how the exception
 * treats the last traced instruction (Table 4-2): mode 0 it completed, 1 it
 * is cancelled, 2 a 32-bit Thumb instruction traced as two was interrupted
 * between them. Halting debug (1) rarely: tracing stops at it. Generic
 * (13) from ETMv3.3. Jazelle exceptions (5) come from Jazelle state only. */
static unsigned ar_type(struct e3e *e, int mode)
{
	static const unsigned completed[] = { 0x2, 0x4, 0x9, 0xa, 0xb, 0xc, 0xe, 0xf, 0xd };
	static const unsigned cancelled[] = { 0x4, 0x8, 0xb, 0xc, 0xe, 0xf, 0xd };
	static const unsigned between[] = { 0x4, 0xe, 0xf };
	int generic = e->cfg.version >= 3;
	if (enc_chance(&e->rng, 6))
		return 0x1;
	if (mode == 2)
		return between[enc_below(&e->rng, 3)];
	if (mode == 1)
		return cancelled[enc_below(&e->rng, 6 + (unsigned)generic)];
	return completed[enc_below(&e->rng, 8 + (unsigned)generic)];
}

/* Exception[8:0] of an ARMv7-M core (Table 7-17): 1..15, or 17 and above
 * (not the reserved 16, 18, 20, 22, 23); above 15 needs Exception
 * information byte 1 (ETMv3.4). */
static unsigned m_type(struct e3e *e)
{
	if (e->cfg.version < 4 || enc_chance(&e->rng, 50))
		return 1 + enc_below(&e->rng, 15);
	for (;;) {
		unsigned t = 0x11 + enc_below(&e->rng, 0x1ff - 0x11 + 1);
		if (t != 0x12 && t != 0x14 && t != 0x16 && t != 0x17)
			return t;
	}
}

/* A block in ARM code at the vector offset (low five address bits) off, or 0. */
static uint64_t vector_block(const struct e3e *e, unsigned off)
{
	for (int b = 0; b < e->prog.nblocks; b++) {
		uint64_t a = e->prog.block[b].start;
		if (e->prog.block[b].isa == enc_a32 && (e3e_vis(a) & 0x1f) == off)
			return a;
	}
	return 0;
}

/* The deprecated fifth-byte form (Table 7-8 b1CEEExxx, Table 7-9) for an
 * exception into ARM state, original scheme, no state change: EEE names IRQ,
 * Jazelle, FIQ, asynchronous data abort and debug; 000 the exceptions "determined
 * from the branch address" (reset, undefined, SVC, aborts), whose handler
 * must then sit at its vector offset, C 1 for data aborts and 0 for
 * undefined instructions and SVCs. Returns the handler to use, or 0. */
static uint64_t byte5_form(struct e3e *e, struct e3e_exc *x, uint64_t handler)
{
	static const int eee[16] = { -1, 7, -1, -1, 6, 4, -1, -1, 0, 0, 0, 0, 0, -1, 1, 5 };
	uint64_t v;
	if (e->cfg.alt_branch || e->cfg.profile_m || x->type > 15 || eee[x->type] < 0 || x->ns != e->last.ns ||
	    x->hyp != e->last.hyp || x->resume || !enc_chance(&e->rng, 40))
		return 0;
	x->eee = (unsigned)eee[x->type];
	if (x->eee != 0)
		return e3e_code_isa(e, handler) == st_arm ? handler : random_arm_start(e);
	if ((x->type == 0xc && !x->can) || ((x->type == 0x9 || x->type == 0xa) && x->can))
		return 0;
	v = vector_block(e, (x->type - 8) * 4);
	return v;
}

/* The exception's handler: a random block, in ARM, Thumb or ThumbEE state,
 * or the fifth-byte form's. */
static uint64_t handler_for(struct e3e *e, struct e3e_exc *x, int *hstate)
{
	uint64_t handler = random_block_start(e), h5 = byte5_form(e, x, handler);
	if (h5 && e3e_code_isa(e, h5) == st_arm) {
		x->byte5 = 1;
		*hstate = st_arm;
		return h5;
	}
	*hstate = state_at(e, handler, random_ee(e, handler));
	return handler;
}

/* The exception item a decoder gives: the type and the preferred return
 * address, where the walk stands (ETM3-P15). */
static void exception_item(struct e3e *e, uint64_t off, unsigned type, uint32_t ret, int unknown)
{
	struct tc_l3 x;
	e3e_item(&x, tc_l3_exception, off);
	x.type = (uint16_t)type;
	x.address = ret;
	x.unknown = (uint8_t)unknown;
	e3e_l3_emit(e, &x);
	e3e_l3_forget_last(e);
}

static void push_frame(struct e3e *e, uint64_t ret, int state, int ns, int hyp, unsigned resume)
{
	struct e3e_frame *f;
	if (e->nframes == E3E_MAX_FRAMES) {
		memmove(&e->frames[0], &e->frames[1], (E3E_MAX_FRAMES - 1) * sizeof e->frames[0]);
		e->nframes--;
	}
	f = &e->frames[e->nframes++];
	f->ret = ret;
	f->state = state;
	f->ns = ns;
	f->hyp = hyp;
	f->resume = resume;
}

static void exception_variants(struct e3e *e, const struct e3e_exc *x, int mode)
{
	if (e->cfg.profile_m)
		e3e_hit(e, x->type > 15 ? "exc-m-large" : "exc-m-small");
	else
		e3e_hit(e, "exc-type-%x", x->type);
	e3e_hit(e, "exc-mode-%d", mode);
	if (x->resume)
		e3e_hit(e, "exc-paused");
	if (x->ns != e->ns)
		e3e_hit(e, "exc-ns-change");
	if (x->hyp != e->hyp)
		e3e_hit(e, "exc-hyp-change");
}

/* An ARMv7-M exception entry: the Exception entry packet and the stack
 * push, before the exception branch packet (§7.5.3), with data trace. */
static void m_entry(struct e3e *e)
{
	if (!e->cfg.profile_m || e->cfg.version < 4 || !e->dtrace)
		return;
	e3e_pkt_simple(e, 0x7e);
	e3e_data_stack(e, 1);
}

/* ARMv7-M: an instruction paused for continuation (§7.5.2): a multiple
 * load (traced E) whose first k transfers completed; Can 1 and Resume k. */
static int can_pause(struct e3e *e, const struct e3e_insn *i)
{
	return e->cfg.profile_m && e->cfg.version >= 4 && e->dtrace && i->transfers >= 2 && enc_chance(&e->rng, 80);
}

static unsigned pause(struct e3e *e, const struct e3e_insn *i, uint32_t target)
{
	unsigned k = 1 + enc_below(&e->rng, (unsigned)i->transfers - 1);
	e3e_data_partial(e, i, target, 0, (int)k);
	return k;
}

/* The instruction i is traced and cancelled by the exception (mode 1):
 * an N atom for an indirect branch ("might be traced as having failed",
 * §7.3.2), E or N otherwise, maybe with data traced before the abort (to be
 * discarded, §7.4.9); an ARMv7-M multiple load paused instead is traced E
 * with its first transfers. Returns Resume (0: not paused). */
static unsigned trace_cancelled(struct e3e *e, const struct e3e_insn *i)
{
	int type = i->term ? term_type(e->prog.block[i->block].term) : tc_insn_other;
	int pass = type == tc_insn_other ? enc_chance(&e->rng, 70) : type == tc_insn_branch_dir && enc_chance(&e->rng, 40);
	int paused = can_pause(e, i);
	unsigned resume = 0;
	trace_atoms(e, i->at, i->size, pass || paused, type);
	if (paused)
		resume = pause(e, i, e3e_vis(random_block_start(e)) | 1);
	if (pass && !paused && i->transfers && enc_chance(&e->rng, 50)) {
		e3e_data_insn(e, i, 0, 0);
		e3e_hit(e, "exc-cancelled-data");
	}
	return resume;
}

/* An exception at the instruction i (e->pc): mode 0 before it (the last
 * traced instruction completed), 1 i traced and cancelled, 2 between the
 * two halves of i. The branch packet gives the handler with the new
 * security and Hyp state; a halting-debug exception (A and R profile) stops
 * tracing until the core leaves debug state (an I-sync, reason 3). */
static void exception_packet(struct e3e *e, uint64_t at, int mode, unsigned resume);

static void take_exception(struct e3e *e, const struct e3e_insn *i, int mode)
{
	unsigned resume = 0;
	if (mode == 1)
		resume = trace_cancelled(e, i);
	else if (mode == 2)
		trace_half(e, i->at);
	exception_packet(e, i->at, mode, resume);
}

/* The exception branch packet of an exception at the instruction at `at`
 * (traced and cancelled in mode 1), its L3, and the handler's state. */
static void exception_packet(struct e3e *e, uint64_t at, int mode, unsigned resume)
{
	struct e3e_exc x;
	uint64_t handler, off;
	int hstate, prev_state = e->state, ns = e->ns, hyp = e->hyp;
	memset(&x, 0, sizeof x);
	x.resume = resume;
	x.type = e->cfg.profile_m ? m_type(e) : ar_type(e, mode);
	x.can = mode == 1;
	new_state(e, &x.ns, &x.hyp);
	if (x.type == 0x2)
		x.ns = 0;   /* SMC: to the Secure monitor */
	if (x.type == 0x1 && !e->cfg.profile_m)
		x.ns = e->ns, x.hyp = e->hyp;
	handler = handler_for(e, &x, &hstate);
	exception_variants(e, &x, mode);
	m_entry(e);
	off = e3e_pkt_branch(e, e3e_vis(handler), hstate, &x);
	if (x.can)
		e3e_l3_cancel(e);
	exception_item(e, off, x.type, e3e_vis(at), 0);
	e->ns = x.ns;
	e->hyp = x.hyp;
	e3e_l3_context(e, off);
	if (x.type == 0x1 && !e->cfg.profile_m) {   /* "The address in the branch packet is not valid" */
		e3e_hit(e, "exc-debug-halt");
		e->pc = at;
		restart_at(e, enc_chance(&e->rng, 70) ? 3 : 1, 1);
		return;
	}
	push_frame(e, at, prev_state, ns, hyp, x.resume);
	e->state = hstate;
	e->pc = handler;
}

/* An exception when the execution is not traced (data-only mode): the
 * execution goes on elsewhere. */
static void untraced_exception(struct e3e *e)
{
	e->pc = random_block_start(e);
	e->state = state_at(e, e->pc, 0);
}

/* ---- Exception returns ------------------------------------------------------------------- */

/* ARMv7-M tail-chaining (§7.5.4): the return from a handler goes straight
 * to the next one with an exception branch packet; the walk a decoder does
 * is still waiting for the return's address (ret=unknown). */
static void tail_chain(struct e3e *e)
{
	struct e3e_exc x;
	uint64_t handler = random_block_start(e), off;
	memset(&x, 0, sizeof x);
	x.type = m_type(e);
	off = e3e_pkt_branch(e, e3e_vis(handler), st_thumb, &x);
	exception_item(e, off, x.type, 0, 1);
	e3e_l3_context(e, off);
	e->state = st_thumb;
	e->pc = handler;
	e3e_hit(e, "exc-tail-chain");
}

/* The taken indirect branch just traced (at `at`) returns from the
 * innermost exception: an Exception return packet after its atom (ETMv3.4
 * for ARMv7-M, §7.5.4; ETMv3.5 for every core, IHI 0014Q §7.6) with the
 * stack pop (ARMv7-M with data trace), then the branch packet to the return
 * address with the state returned to; a paused instruction is resumed
 * (Resume, Can 0, Exception 0, Table 7-18). On an A or R profile core an
 * exception can still cancel the return instruction after its packet: the
 * exception branch packet with Can comes instead of the return's branch
 * packet, and the exception is taken at the return instruction, which did
 * not execute (IHI 0014Q §7.6, ETM3-X4). */
static void exception_return(struct e3e *e, uint64_t at)
{
	struct e3e_frame f = e->frames[e->nframes - 1];
	int m = e->cfg.profile_m && e->cfg.version >= 4;
	int tail = m && enc_chance(&e->rng, 25);
	if (m || e->cfg.version >= 5) {
		uint64_t off = e3e_pkt_simple(e, 0x76);
		e3e_l3_exception_return(e, off);
		if (m && e->dtrace && !tail)
			e3e_data_stack(e, 0);
		if (!m && enc_chance(&e->rng, 10)) {
			e3e_hit(e, "exc-return-cancelled");
			exception_packet(e, at, 1, 0);
			return;
		}
	}
	if (tail) {
		tail_chain(e);
		return;
	}
	e->nframes--;
	if (f.resume) {
		struct e3e_exc x;
		uint64_t off;
		memset(&x, 0, sizeof x);
		x.resume = f.resume;
		off = e3e_pkt_branch(e, e3e_vis(f.ret), st_thumb, &x);
		e3e_l3_context(e, off);
		e->resume_at = f.ret;
		e->resume_skip = (int)f.resume;
		e3e_hit(e, "exc-resume");
	} else {
		branch_packet(e, f.ret, f.state, f.ns, f.hyp);
	}
	e->ns = f.ns;
	e->hyp = f.hyp;
	e->state = f.state;
	if (f.state == st_jazelle) {
		e->jz_pc = (uint32_t)f.ret;
		e->jz_atoms = 0;
		e->jz_steps = 2 + (int)enc_below(&e->rng, 8);
	} else {
		e->pc = f.ret;
	}
	e3e_hit(e, "exc-return");
}

/* ---- Jazelle state (ETM3-P12: a decoder does not walk bytecodes) ----------------------- */

static uint32_t random_jazelle_address(struct e3e *e)
{
	return 0x00200000u + enc_below(&e->rng, 0x100000);
}

/* BXJ into Jazelle state: a five-byte branch packet to a bytecode address. */
static void jazelle_enter(struct e3e *e)
{
	e->jz_pc = random_jazelle_address(e);
	branch_packet(e, e->jz_pc, st_jazelle, e->ns, e->hyp);
	e->state = st_jazelle;
	e->jz_atoms = 0;
	e->jz_steps = 3 + (int)enc_below(&e->rng, 15);
	e3e_hit(e, "jazelle-enter");
}

static void bytecode_atom(struct e3e *e, int pass)
{
	struct e3e_atom a;
	memset(&a, 0, sizeof a);
	a.e = (uint8_t)pass;
	a.kind = e3e_atom_bytecode;
	e3e_atom(e, &a);
	e->jz_pc += 1 + enc_below(&e->rng, 3);
	e->jz_atoms++;
}

/* An exception in Jazelle state (a Jazelle exception, Table 7-12 0b0101, an
 * interrupt or an asynchronous abort) to an ARM handler. After bytecodes a
 * decoder does not walk, the walk has no address: ret=unknown, and a Can
 * bit cancels a bytecode (nothing at L3). */
static void jazelle_exception(struct e3e *e)
{
	static const unsigned types[4] = { 0x5, 0xe, 0xf, 0x4 };
	struct e3e_exc x;
	uint64_t handler, off;
	int hstate, ns = e->ns, hyp = e->hyp, after = e->jz_atoms > 0;
	memset(&x, 0, sizeof x);
	x.type = types[enc_below(&e->rng, 4)];
	x.can = after && enc_chance(&e->rng, 40);
	new_state(e, &x.ns, &x.hyp);
	handler = handler_for(e, &x, &hstate);
	off = e3e_pkt_branch(e, e3e_vis(handler), hstate, &x);
	exception_item(e, off, x.type, after ? 0 : e->jz_pc, after);
	e->ns = x.ns;
	e->hyp = x.hyp;
	e3e_l3_context(e, off);
	push_frame(e, e->jz_pc, st_jazelle, ns, hyp, 0);
	e->state = hstate;
	e->pc = handler;
	e3e_hit(e, after ? "jazelle-exc-after-bytecodes" : "jazelle-exc-at-address");
	e3e_hit(e, "exc-type-%x", x.type);
	if (x.can)
		e3e_hit(e, "jazelle-exc-can");
}

/* One step in Jazelle state: bytecodes, a bytecode branch (a compressed
 * Jazelle address), a periodic I-sync, an exception, or the way back to ARM
 * state (a five-byte branch packet). */
static void jazelle_step(struct e3e *e)
{
	unsigned r = enc_below(&e->rng, 100);
	if (--e->jz_steps <= 0) {
		uint64_t to = random_arm_start(e);
		bytecode_atom(e, 1);
		branch_packet(e, to, state_at(e, to, 0), e->ns, e->hyp);
		e->state = state_at(e, to, 0);
		e->pc = to;
		e3e_hit(e, "jazelle-leave");
	} else if (r < 50) {
		for (unsigned n = 1 + enc_below(&e->rng, 6); n > 0; n--)
			bytecode_atom(e, enc_chance(&e->rng, 80));
	} else if (r < 75) {
		bytecode_atom(e, 1);
		e->jz_pc = enc_chance(&e->rng, 70) ? e->jz_pc + enc_below(&e->rng, 0x40) - 0x20
						   : random_jazelle_address(e);
		branch_packet(e, e->jz_pc, st_jazelle, e->ns, e->hyp);
		e->jz_atoms = 0;
	} else if (r < 83) {
		periodic_sync(e);
	} else {
		jazelle_exception(e);
	}
}

/* ---- Running the program ------------------------------------------------------------ */

/* A taken indirect branch just traced: its branch packet (maybe after W
 * atoms in cycle-accurate mode, "the branch might not be traced on the same
 * cycle"; maybe after another packet for the same instruction, "all but the
 * final branch packet must be ignored"), or the return from an exception,
 * or BXJ into Jazelle state, or an overflow that loses the packet ("unless
 * prevented by a FIFO overflow"). */
static void indirect_taken(struct e3e *e, int b, uint64_t next)
{
	const struct enc_block *k = &e->prog.block[b];
	int flow = enc_term_info(k->term)->flow, st;
	int ret_ok = flow != flow_icall && (!e->cfg.profile_m || k->term != term_mov_pc);
	if (e->nframes > 0 && ret_ok && enc_chance(&e->rng, 40)) {
		exception_return(e, k->term_addr);
		return;
	}
	if (e->bxj[b] && enc_chance(&e->rng, 50)) {
		jazelle_enter(e);
		return;
	}
	st = state_at(e, next, random_ee(e, next));
	e->pc = next;
	if (enc_chance(&e->rng, 2)) {
		e->overflow = 1;
		e->state = st;
		e3e_hit(e, "overflow-branch-lost");
		return;
	}
	if (e->cfg.cycle_accurate && enc_chance(&e->rng, 10)) {
		e3e_waits(e);
		e3e_hit(e, "branch-after-w");
	}
	if (enc_chance(&e->rng, 3)) {
		uint64_t other = random_block_start(e);
		branch_packet(e, other, state_at(e, other, 0), e->ns, e->hyp);
		e3e_hit(e, "branch-multiple");
	}
	branch_packet(e, next, st, e->ns, e->hyp);
	if (e3e_code_isa(e, next) != e3e_code_isa(e, k->term_addr))
		e3e_hit(e, "interwork-indirect");
	e->state = st;
}

/* The state after a taken direct branch: BLX (immediate) switches between
 * ARM and Thumb; others keep the state (ThumbEE included, ETM3-P12). */
static int direct_state(const struct e3e *e, const struct enc_block *k)
{
	if (k->term != term_blx_imm)
		return e->state;
	return e->state == st_arm ? st_thumb : st_arm;
}

static void terminator_variants(struct e3e *e, const struct enc_block *k, int taken, uint64_t next)
{
	int flow = enc_term_info(k->term)->flow;
	if (k->isa == enc_t32 && flow != flow_fall && !is_indirect(flow))
		e3e_hit(e, k->term == term_cbz ? "t32-cbz" : k->term_size == 4 ? "t32-32bit-branch" : "t32-16bit-branch");
	if (flow == flow_fall)
		e3e_hit(e, k->term == term_isb ? "isb" : "wfi");
	if (!taken && (is_indirect(flow) || flow == flow_call))
		e3e_hit(e, is_indirect(flow) ? "atom-n-indirect" : "atom-n-link");
	if (!taken && flow == flow_cond)
		e3e_hit(e, "atom-n-direct");
	if (taken && k->term == term_blx_imm)
		e3e_hit(e, "interwork-blx-imm-%s", k->isa == enc_a32 ? "a32" : "t32");
	(void)next;
}

/* The terminator of block b: its atom, the data of a load to the PC, then
 * the branch packet a taken indirect branch needs (or any taken branch
 * with branch output). */
static void run_terminator(struct e3e *e, int b, const struct e3e_insn *i)
{
	const struct enc_block *k = &e->prog.block[b];
	int flow = enc_term_info(k->term)->flow, type = term_type(k->term);
	uint64_t next;
	int taken = outcome(e, b, &next);
	uint32_t target = e3e_vis(next) | (e3e_code_isa(e, next) == st_arm ? 0 : 1);
	trace_atoms(e, k->term_addr, k->term_size, taken, type);
	terminator_variants(e, k, taken, next);
	if (taken && i->transfers) {
		if (e->resume_skip && e->resume_at == i->at)
			e3e_data_partial(e, i, target, e->resume_skip, i->transfers - e->resume_skip);
		else
			e3e_data_insn(e, i, 1, target);
	}
	e->resume_skip = 0;
	if (flow == flow_fall && k->term == term_wfi && enc_chance(&e->rng, 40))
		e3e_waits(e);
	if (!taken || flow == flow_fall) {
		e->pc = next;
		return;
	}
	if (!e->itrace) {
		e->pc = next;
		e->state = is_indirect(flow) ? state_at(e, next, 0) : direct_state(e, k);
		return;
	}
	if (is_indirect(flow)) {
		indirect_taken(e, b, next);
		return;
	}
	e->state = direct_state(e, k);
	e->pc = next;
	if (e->cfg.branch_output) {
		branch_packet(e, next, e->state, e->ns, e->hyp);
		e3e_hit(e, "broadcast-direct");
	}
}

/* An instruction that is not its block's terminator: E, or for a
 * conditional A32 instruction E or N; a data instruction that executed
 * gives its data packets. */
static void run_other(struct e3e *e, const struct e3e_insn *i)
{
	int pass = i->cond == 14 || enc_chance(&e->rng, 55);
	if (i->cond != 14)
		e3e_hit(e, pass ? "cond-e" : "cond-n");
	trace_atoms(e, i->at, i->size, pass, tc_insn_other);
	if (pass && i->transfers) {
		if (i->strex)
			e3e_hit(e, "strex");
		e3e_data_insn(e, i, 0, 0);
	}
	e->pc += (uint64_t)i->size;
}

/* Runs from the current instruction to the end of its block; exc_at >= 0:
 * an exception at that instruction of the block (counted from the current
 * one) in mode exc_mode. */
static void run_block(struct e3e *e, int exc_at, int exc_mode)
{
	int b = enc_block_containing(&e->prog, e->pc);
	if (b < 0) {   /* never: the execution stays in the program */
		restart(e, 1);
		return;
	}
	for (int idx = 0;; idx++) {
		struct e3e_insn i;
		e3e_insn_at(e, e->pc, &i);
		if (idx == exc_at) {
			if (exc_mode == 2 && !(thumbish(e->state) && i.size == 4 && !e->cfg.thumb2_one))
				exc_mode = 0;
			take_exception(e, &i, exc_mode);
			return;
		}
		if (i.term) {
			run_terminator(e, b, &i);
			break;
		}
		run_other(e, &i);
	}
	if (e->overflow) {
		e->overflow = 0;
		restart(e, 2);
	}
}

/* An exception at a random instruction from the current one to the end of
 * its block. */
static void exception_step(struct e3e *e)
{
	int b = enc_block_containing(&e->prog, e->pc);
	unsigned n, mode = enc_below(&e->rng, 10);
	if (b < 0)
		return;
	if (!e->itrace) {
		untraced_exception(e);
		return;
	}
	n = (unsigned)enc_insn_count(&e->prog, e->pc, e->prog.block[b].term_addr);
	if (e->cfg.profile_m && e->dtrace && e->prog.block[b].term == term_pop_pc && enc_chance(&e->rng, 50)) {
		run_block(e, (int)n - 1, 1);   /* at the POP, which it may pause (§7.5.2) */
		return;
	}
	run_block(e, (int)enc_below(&e->rng, n), mode < 5 ? 0 : mode < 8 ? 1 : 2);
}

/* ---- Context, timestamps, single packets -------------------------------------------- */

static void context_id(struct e3e *e)
{
	uint64_t off;
	if (enc_chance(&e->rng, 85))
		e->ctxid = random_ctxid(e);
	else
		e3e_hit(e, "ctxid-unchanged");
	off = e3e_pkt_context_id(e, e->ctxid);
	e3e_l3_context(e, off);
}

/* A VMID packet (IHI 0014Q §7.3.7): a new VMID (change), or the current one. */
static void vmid(struct e3e *e, int change)
{
	uint64_t off;
	if (change)
		e->vmid = enc_below(&e->rng, 256);
	else
		e3e_hit(e, "vmid-unchanged");
	off = e3e_pkt_vmid(e, e->vmid);
	e3e_l3_context(e, off);
}

/* A timestamp packet (ETM3-X1); whole: a T-sync, every byte. */
static void timestamp(struct e3e *e, int whole)
{
	uint64_t mask = e->cfg.ts64 ? UINT64_MAX : (UINT64_C(1) << 48) - 1, off;
	struct tc_l3 x;
	int r = enc_chance(&e->rng, 15);
	if (enc_chance(&e->rng, 85))
		e->ts_clock += 1 + enc_below(&e->rng, enc_chance(&e->rng, 50) ? 100 : 100000);
	else
		e->ts_clock = enc_next(&e->rng);
	e->ts_clock &= mask;
	off = e3e_pkt_timestamp(e, e->ts_clock, r, whole);
	e3e_item(&x, tc_l3_timestamp, off);
	x.value = e->ts_clock;
	x.unknown = 1;   /* an ETMv3.5 timestamp carries no cycle count */
	e3e_l3_emit(e, &x);
}

static void trigger(struct e3e *e)
{
	e3e_l3_simple(e, tc_l3_trigger, e3e_pkt_simple(e, 0x0c));
}

/* Packets that are not instruction trace, between steps. */
static void extras(struct e3e *e)
{
	unsigned r = enc_below(&e->rng, 100);
	if (r < 4 && e->cfg.timestamps)
		timestamp(e, 0);
	else if (r < 7 && e->cfg.contextid_size > 0)
		context_id(e);
	else if (r < 9 && e->cfg.vmid)
		vmid(e, enc_chance(&e->rng, 85));
	else if (r < 10)
		trigger(e);
	else if (r < 11 && !e->cfg.data_only)
		e3e_pkt_simple(e, 0x66);   /* not among the headers of data-only mode (§7.4.10) */
	else if (r < 14 && e->cfg.cycle_accurate && e->itrace)
		e3e_waits(e);
	else if (r < 18 && e->cc_owed)
		cycle_count(e, e3e_random_cc(e));
	else if (r < 24 && e->dtrace)
		e3e_data_ooo_returns(e);
}

void e3e_step(struct e3e *e)
{
	unsigned r;
	if (e->state == st_jazelle) {
		jazelle_step(e);
		return;
	}
	if (e->burst) {   /* long runs of atoms: blocks back to back */
		e->burst--;
		run_block(e, -1, 0);
		return;
	}
	extras(e);
	r = enc_below(&e->rng, 1000);
	if (r < 60)
		exception_step(e);
	else if (r < 75)
		periodic_sync(e);
	else if (r < 85)
		restart(e, enc_chance(&e->rng, 70) ? 1 : 3);
	else if (r < 92)
		restart(e, 2);
	else if (r < 102) {
		e->burst = 10 + enc_below(&e->rng, 30);
		e->burst_bias = enc_chance(&e->rng, 50) ? 92 : 8;
	} else {
		run_block(e, -1, 0);
	}
}

/* Bytes before the first A-sync, which a decoder skips: none of them 0x00,
 * so no A-sync forms among them. */
static void leading_garbage(struct e3e *e)
{
	unsigned n = 1 + enc_below(&e->rng, 12);
	for (unsigned i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(1 + enc_below(&e->rng, 255));
		enc_buf_put(&e->trace, &b, 1);
	}
	e3e_hit(e, "leading-garbage");
}

/* Packets a decoder reads before the first I-sync: L3 reports them without
 * walking (ETM3-P5). */
static void before_isync(struct e3e *e)
{
	unsigned r = enc_below(&e->rng, 4);
	if (r == 0 && e->cfg.timestamps) {
		timestamp(e, 0);
		e3e_hit(e, "before-isync-timestamp");
	} else if (r == 1 && e->cfg.contextid_size > 0) {
		context_id(e);
		e3e_hit(e, "before-isync-ctxid");
	} else if (r == 2 && e->cfg.vmid) {
		vmid(e, 1);
		e3e_hit(e, "before-isync-vmid");
	} else {
		trigger(e);
		e3e_hit(e, "before-isync-trigger");
	}
}

void e3e_start(struct e3e *e)
{
	int reason = enc_chance(&e->rng, 70) ? 1 : (int)enc_below(&e->rng, 4);
	struct e3e_insn d;
	int lsip;
	e->itrace = !e->cfg.data_only;
	e->dtrace = e->cfg.data_address || e->cfg.data_value;
	e->use_thumbee = e->cfg.version >= 3 && !e->cfg.profile_m && e->itrace && enc_chance(&e->rng, 25);
	e->ts_clock = enc_next(&e->rng) >> (e->cfg.ts64 ? 8 : 24);
	e->data_base = 0x20000000u + (enc_below(&e->rng, 0x1000) << 12);
	e->sp = 0x30000000u + (enc_below(&e->rng, 0x1000) << 12);
	if (enc_chance(&e->rng, 20))
		leading_garbage(e);
	e3e_pkt_async(e);
	if (enc_chance(&e->rng, 25))
		before_isync(e);
	new_state(e, &e->ns, &e->hyp);
	if (e->cfg.contextid_size > 0)
		e->ctxid = random_ctxid(e);
	lsip = restart_point(e, reason, &d);
	e->last.dsync = 1;
	isync_here(e, reason, lsip ? &d : NULL);
	if (e->cfg.timestamps && reason != 0) {   /* tracing starts: "a T-Sync packet must be generated" (IHI 0014Q §7.10.2) */
		timestamp(e, 1);
		e3e_hit(e, "ts-tsync");
	}
}

void e3e_finish(struct e3e *e)
{
	e3e_flush_atoms(e);
	e3e_l3_deliver(e);
}
