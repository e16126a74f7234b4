/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_trace.c — the PTM encoder's execution model and trace-unit decisions, and the L3 truth. */
/* Runs a random A32/T32 program, decides what the PTM reports (atoms,
 * branch addresses, the return stack, exceptions with waypoint updates,
 * context, gaps, overflows, timestamps, cycle counts), and records the L3
 * truth as what the execution traced (IHI 0035B App. B.3.2 read as
 * reference/ptm/ERRATA.md decides). */
#include <string.h>

#include "ptmenc_internal.h"

/* ---- L3 truth -------------------------------------------------------------------- */

void pe_item(struct tc_l3 *x, int kind, uint64_t offset)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_ptm;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

void pe_l3(struct pe *e, const struct tc_l3 *x)
{
	char buf[256];
	tc_l3_format(buf, sizeof buf, x, NULL, 0);   /* the encoder never writes an error */
	enc_buf_printf(&e->l3, "%s\n", buf);
}

static void simple_item(struct pe *e, int kind, uint64_t off)
{
	struct tc_l3 x;
	pe_item(&x, kind, off);
	pe_l3(e, &x);
}

/* The cycle-count item of a packet that carries one (after what it walked). */
static void cc_item(struct pe *e, uint64_t off, uint32_t cc)
{
	struct tc_l3 x;
	if (!e->cfg.cycle_accurate)
		return;
	pe_item(&x, tc_l3_cycle_count, off);
	x.count = cc;
	pe_l3(e, &x);
}

/* A context item when the context differs from the last one reported
 * (Hyp mode is el=2, PTM-P19). */
static void report_context(struct pe *e, uint64_t off)
{
	struct tc_context c;
	struct tc_l3 x;
	memset(&c, 0, sizeof c);
	c.context_id = e->ctxid;
	c.vmid = e->vmid;
	c.ns = (uint8_t)e->ns;
	c.el = e->hyp ? 2 : 0;
	if (e->reported_valid && !memcmp(&c, &e->reported, sizeof c))
		return;
	e->reported = c;
	e->reported_valid = 1;
	pe_item(&x, tc_l3_context, off);
	x.ctx = c;
	pe_l3(e, &x);
}

static void range_item(const struct pe *e, struct tc_l3 *x, uint64_t first, uint64_t last, int type, int taken)
{
	pe_item(x, tc_l3_range, 0);
	x->first = pe_vis(e, first);
	x->last = pe_vis(e, last);
	x->count = enc_insn_count(&e->prog, first, last);
	x->isa = pe_isa_at(e, first) == tc_ptm_isa_arm ? tc_isa_a32 : tc_isa_t32;
	x->last_type = (uint8_t)type;
	x->taken = (uint8_t)taken;
}

/* The range items of a walk from `from` through `last` whose last
 * instruction has type and outcome taken: one, or two where the walk runs
 * across 2^32 (ranges are in address order: the first ends at the wrap). */
static int walk_items(struct pe *e, uint64_t from, uint64_t last, int type, int taken, struct tc_l3 *out)
{
	int n = 0;
	if (pe_crosses(from, last)) {
		uint64_t wrap = ((from >> 32) + 1) << 32;
		range_item(e, &out[n++], from, enc_insn_prev(&e->prog, wrap), tc_insn_other, tc_taken_none);
		from = wrap;
		pe_hit(e, "aarch32-wrap");
	}
	range_item(e, &out[n++], from, last, type, taken);
	return n;
}

static void put_items(struct pe *e, struct tc_l3 *x, int n, uint64_t off)
{
	for (int i = 0; i < n; i++) {
		x[i].h.offset = off;
		pe_l3(e, &x[i]);
	}
}

/* ---- Program flow --------------------------------------------------------------- */

static uint64_t random_block_start(struct pe *e)
{
	return e->prog.block[enc_random_block(&e->prog, &e->rng, -1)].start;
}

/* The instruction set state at a: ARM for A32 code, Thumb or ThumbEE (ee)
 * for T32 code. */
static int state_isa(const struct pe *e, uint64_t a, int ee)
{
	if (pe_isa_at(e, a) == tc_ptm_isa_arm)
		return tc_ptm_isa_arm;
	return ee ? tc_ptm_isa_thumbee : tc_ptm_isa_thumb;
}

/* Whether execution arriving at a (by an address) runs in ThumbEE state. */
static int random_ee(struct pe *e, uint64_t a)
{
	return e->use_thumbee && pe_isa_at(e, a) != tc_ptm_isa_arm && enc_chance(&e->rng, 50);
}

static int term_type(int term)
{
	const char *t = enc_term_info(term)->type;
	return !strcmp(t, "dir") ? tc_insn_branch_dir : !strcmp(t, "indir") ? tc_insn_branch_indir : tc_insn_isb;
}

static int is_indirect(int flow)
{
	return flow == flow_return || flow == flow_indirect || flow == flow_icall;
}

/* Whether the waypoint of block b passes its condition, and where the
 * execution goes next. */
static int outcome(struct pe *e, int b, uint64_t *next)
{
	const struct enc_block *k = &e->prog.block[b];
	uint64_t fall = k->term_addr + (uint64_t)k->term_size;
	int flow = enc_term_info(k->term)->flow, taken = e->cond[b] ? enc_chance(&e->rng, 60) : 1;
	if (flow == flow_cond) {
		if (k->target == b) {   /* a loop: taken until its last iteration */
			if (e->loop_left == 0)
				e->loop_left = 1 + enc_below(&e->rng, 40);
			taken = --e->loop_left > 0;
			pe_hit(e, "loop");
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
	if ((flow == flow_call || flow == flow_icall) && e->call_depth < PE_MAX_CALLS)
		e->calls[e->call_depth++] = fall;
	return taken;
}

/* ---- The return stack (B.3.2 lines 61-65; PTM-P13) -------------------------------- */

static void rs_push(struct pe *e, uint32_t address, int isa, int ns)
{
	if (!e->cfg.return_stack)
		return;
	if (e->rs_n == PE_RS_DEPTH) {   /* full: the oldest entry goes */
		memmove(&e->rs[0], &e->rs[1], (PE_RS_DEPTH - 1) * sizeof e->rs[0]);
		e->rs_n--;
		pe_hit(e, "rs-full-push");
	}
	e->rs[e->rs_n].address = address;
	e->rs[e->rs_n].isa = isa;
	e->rs[e->rs_n].ns = ns;
	e->rs_n++;
	pe_hit(e, "rs-push");
}

/* Whether the return stack predicts a return to next: its top entry is
 * the target, in its instruction set (the entry's Thumb or ThumbEE is the
 * state returned to) and security state. The PTM then traces the return
 * by an E atom, and a decoder pops (PTM-S2). */
static int predicted(const struct pe *e, int flow, uint64_t next)
{
	const struct pe_rs_entry *top = e->rs_n > 0 ? &e->rs[e->rs_n - 1] : NULL;
	if (!e->cfg.return_stack || e->cfg.branch_broadcast || flow != flow_return || !top)
		return 0;
	return top->address == pe_vis(e, next) && (top->isa == tc_ptm_isa_arm) == (pe_isa_at(e, next) == tc_ptm_isa_arm) &&
	       top->ns == e->ns;
}

/* ---- Tracing a waypoint ------------------------------------------------------------- */

/* A taken branch traced by a branch address packet (an implied E atom,
 * §4.5.4). An indirect branch may be an exception return: exception
 * information with type 0 gives the new NS and Hyp (PTM-P15's last
 * sentence), then an Exception return packet. */
static void branch_to(struct pe *e, uint64_t next, int ee, struct tc_l3 *items, int n, int indirect)
{
	struct pe_exc x = { 0, e->ns, e->hyp };
	int isa = state_isa(e, next, ee), with_exc = enc_chance(&e->rng, 4), eret = 0;
	uint32_t cc = pe_random_cc(e);
	uint64_t off;
	if (indirect && enc_chance(&e->rng, 8)) {
		with_exc = 1;
		eret = enc_chance(&e->rng, 70);
		if (enc_chance(&e->rng, 40))
			x.ns = !e->ns;
		if (e->cfg.version >= 1 && enc_chance(&e->rng, 30))
			x.hyp = !e->hyp;
	}
	if (!pe_plain_branch_states(e, isa))
		with_exc = 1;   /* only AltISA states Thumb after ThumbEE, ThumbEE after Thumb (PTM-P4) */
	off = pe_pkt_branch(e, pe_vis(e, next), isa, with_exc ? &x : NULL, cc);
	put_items(e, items, n, off);
	if (with_exc)
		pe_hit(e, x.ns != e->ns || x.hyp != e->hyp ? "exc0-state-change" : "exc0-same-state");
	e->ns = x.ns;
	e->hyp = x.hyp;
	e->ee = ee;
	report_context(e, off);
	cc_item(e, off, cc);
	if (eret)
		simple_item(e, tc_l3_exception_return, pe_pkt_simple(e, tc_ptm_pkt_exception_return));
}

/* The variants a waypoint shows. */
static void waypoint_variants(struct pe *e, const struct enc_block *k, int taken, uint64_t next)
{
	int flow = enc_term_info(k->term)->flow;
	if (k->isa == enc_t32 && flow != flow_fall && !is_indirect(flow))
		pe_hit(e, k->term == term_cbz ? "t32-cbz" : k->term_size == 4 ? "t32-32bit-branch" : "t32-16bit-branch");
	if (flow == flow_fall)
		pe_hit(e, "isb-waypoint");
	if (!taken && (is_indirect(flow) || flow == flow_call))
		pe_hit(e, is_indirect(flow) ? "atom-n-indirect" : "atom-n-link");
	if (taken && k->term == term_blx_imm)
		pe_hit(e, "interwork-blx-imm-%s", k->isa == enc_a32 ? "a32" : "t32");
	if (taken && is_indirect(flow) && pe_isa_at(e, next) != pe_isa_at(e, k->term_addr))
		pe_hit(e, "interwork-indirect");
}

/* How the PTM traces the waypoint of block k: an atom, or a branch address
 * packet for a taken indirect branch the return stack does not predict and,
 * with branch broadcasting (ETMCR[8]), for every taken branch. A taken
 * branch with link pushes its return address (lines 63-65, step 6.2). */
static void trace_waypoint(struct pe *e, const struct enc_block *k, int taken, uint64_t next, struct tc_l3 *items,
			   int n)
{
	int flow = enc_term_info(k->term)->flow;
	int link = flow == flow_call || flow == flow_icall;
	int isa = state_isa(e, k->term_addr, e->ee), ns = e->ns;
	int ee = k->term == term_blx_imm ? 0 : e->ee;   /* BLX (immediate) goes to ARM or Thumb */
	uint32_t ret = pe_vis(e, k->term_addr + (uint64_t)k->term_size);
	if (!taken || flow == flow_fall) {
		pe_atom(e, taken, items, n, pe_random_cc(e));
		return;
	}
	if (is_indirect(flow) && predicted(e, flow, next) && enc_chance(&e->rng, 85)) {
		const struct pe_rs_entry *top = &e->rs[--e->rs_n];
		e->ee = top->isa == tc_ptm_isa_thumbee;
		pe_atom(e, 1, items, n, pe_random_cc(e));
		pe_hit(e, "rs-pop-%s", top->isa == tc_ptm_isa_arm ? "arm" : top->isa == tc_ptm_isa_thumb ? "thumb" : "thumbee");
		if ((top->isa == tc_ptm_isa_arm) != (isa == tc_ptm_isa_arm))
			pe_hit(e, "rs-pop-interwork");
	} else if (is_indirect(flow) || e->cfg.branch_broadcast) {
		if (predicted(e, flow, next))
			pe_hit(e, "rs-not-used");
		if (!is_indirect(flow))
			pe_hit(e, "broadcast-direct");
		branch_to(e, next, is_indirect(flow) ? random_ee(e, next) : ee, items, n, is_indirect(flow));
	} else {
		e->ee = ee;
		pe_atom(e, 1, items, n, pe_random_cc(e));
	}
	if (link)
		rs_push(e, ret, isa, ns);
}

/* Executes from CurrentState to the next waypoint (through WFIs, which are
 * not waypoints) and traces it. */
static void run_block(struct pe *e)
{
	int b = pe_next_waypoint(e, e->walk), n;
	const struct enc_block *k;
	uint64_t next;
	int taken;
	struct tc_l3 items[2];
	if (b < 0)
		return;   /* never: CurrentState is always inside the code */
	k = &e->prog.block[b];
	if (k->start > e->walk && enc_block_containing(&e->prog, e->walk) != b)
		pe_hit(e, "wfi-walk");
	taken = outcome(e, b, &next);
	n = walk_items(e, e->walk, k->term_addr, term_type(k->term), taken ? tc_taken_e : tc_taken_n, items);
	waypoint_variants(e, k, taken, next);
	trace_waypoint(e, k, taken, next, items, n);
	e->walk = next;
}

/* ---- Waypoint updates and exceptions -------------------------------------------- */

/* An instruction between CurrentState and the next waypoint (inclusive),
 * or 0 when there is none that a walk reaches without crossing 2^32 (the
 * waypoint update compares addresses, B.3.2 line 99). */
static uint64_t point_in_walk(struct pe *e)
{
	int b = pe_next_waypoint(e, e->walk);
	uint64_t count, at;
	if (b < 0)
		return 0;
	count = enc_insn_count(&e->prog, e->walk, e->prog.block[b].term_addr);
	at = enc_insn_nth(&e->prog, e->walk, enc_below(&e->rng, (unsigned)count));
	return pe_crosses(e->walk, at) ? 0 : at;
}

/* Waypoint update (analyze_waypoint_update, PTM-S3): execution has reached
 * `at`; the instructions before it are traced, condition unknown. */
static void waypoint_update(struct pe *e, uint64_t at)
{
	uint64_t off = pe_pkt_waypoint(e, pe_vis(e, at), state_isa(e, at, e->ee));
	struct tc_l3 x;
	if (at != e->walk) {
		range_item(e, &x, e->walk, enc_insn_prev(&e->prog, at), tc_insn_other, tc_taken_none);
		x.h.offset = off;
		pe_l3(e, &x);
	} else {
		pe_hit(e, "wpu-empty");
	}
	e->walk = at;
}

/* A new security state and Hyp mode (Hyp from PFTv1.1 on). */
static void new_state(struct pe *e, int *ns, int *hyp)
{
	*ns = enc_chance(&e->rng, 25) ? !e->ns : e->ns;
	*hyp = e->cfg.version >= 1 && enc_chance(&e->rng, 20) ? !e->hyp : e->hyp;
}

/* An exception taken at an instruction of the current walk (its preferred
 * return address): a waypoint update says where execution had reached
 * (§2.1.2), a branch address packet with exception information gives the
 * handler (branch_with_excp, PTM-P15). */
static void exception(struct pe *e)
{
	uint64_t per = point_in_walk(e), handler = random_block_start(e), off;
	struct pe_exc x;
	uint32_t cc = pe_random_cc(e);
	struct tc_l3 item;
	int ee = random_ee(e, handler);
	if (!per)
		return;
	x.type = enc_chance(&e->rng, 50) ? 1 + enc_below(&e->rng, 15) : 1 + enc_below(&e->rng, 0x1ff);
	new_state(e, &x.ns, &x.hyp);
	if (per != e->walk || enc_chance(&e->rng, 10)) {
		waypoint_update(e, per);
		pe_hit(e, "wpu-before-exception");
	}
	off = pe_pkt_branch(e, pe_vis(e, handler), state_isa(e, handler, ee), &x, cc);
	pe_item(&item, tc_l3_exception, off);
	item.type = (uint16_t)x.type;
	item.address = pe_vis(e, per);
	pe_l3(e, &item);
	if (x.ns != e->ns)
		pe_hit(e, "exception-ns-change");
	if (x.hyp)
		pe_hit(e, "exception-to-hyp");
	e->ns = x.ns;
	e->hyp = x.hyp;
	e->ee = ee;
	report_context(e, off);
	cc_item(e, off, cc);
	e->walk = handler;
}

/* ---- Synchronisation, gaps, context ------------------------------------------------ */

static uint32_t random_ctxid(struct pe *e)
{
	int n = e->cfg.contextid_size;
	uint32_t mask = n >= 4 ? UINT32_MAX : (UINT32_C(1) << (8 * n)) - 1;
	return (uint32_t)enc_next(&e->rng) & mask;
}

/* An I-sync at `at`: reason 0 periodic, 1 trace enabled, 2 after an
 * overflow, 3 after debug (PTM-P16): its items, the return stack emptied
 * by a discontinuity. */
static void isync(struct pe *e, uint64_t at, int ee, int reason)
{
	uint32_t cc = pe_random_cc(e);
	uint64_t off = pe_pkt_isync(e, pe_vis(e, at), state_isa(e, at, ee), reason, cc);
	if (reason == 2)
		simple_item(e, tc_l3_overflow, off);
	else if (reason != 0)
		simple_item(e, tc_l3_trace_on, off);
	if (e->rs_n > 0)
		pe_hit(e, reason != 0 ? "rs-cleared" : "rs-kept-periodic");
	if (reason != 0)
		e->rs_n = 0;
	e->walk = at;
	e->ee = ee;
	report_context(e, off);
	if (reason != 0)
		cc_item(e, off, cc);
}

/* A periodic I-sync where the analysis stands (maybe after an A-sync). */
static void periodic_sync(struct pe *e)
{
	if (enc_chance(&e->rng, 50))
		pe_pkt_async(e);
	isync(e, e->walk, e->ee, 0);
}

/* Tracing stops (a waypoint update may say where) and starts again
 * elsewhere, maybe in another context: trace enabled (1), debug exit (3),
 * or an overflow (2). */
static void restart(struct pe *e, int reason)
{
	uint64_t at = random_block_start(e), stop = point_in_walk(e);
	if (stop && enc_chance(&e->rng, 40)) {
		waypoint_update(e, stop);
		pe_hit(e, "wpu-before-gap");
	}
	new_state(e, &e->ns, &e->hyp);
	if (e->cfg.contextid_size > 0 && enc_chance(&e->rng, 40))
		e->ctxid = random_ctxid(e);
	if (reason == 2 || enc_chance(&e->rng, 50))
		pe_pkt_async(e);
	isync(e, at, random_ee(e, at), reason);
}

static void context_id(struct pe *e)
{
	uint64_t off;
	if (enc_chance(&e->rng, 85))
		e->ctxid = random_ctxid(e);
	else
		pe_hit(e, "ctxid-unchanged");
	off = pe_pkt_context_id(e, e->ctxid);
	report_context(e, off);
}

static void vmid(struct pe *e)
{
	uint64_t off;
	if (enc_chance(&e->rng, 85))
		e->vmid = (uint32_t)enc_below(&e->rng, 256);
	else
		pe_hit(e, "vmid-unchanged");
	off = pe_pkt_vmid(e, e->vmid);
	report_context(e, off);
}

static void timestamp(struct pe *e)
{
	uint64_t mask = e->cfg.ts64 ? UINT64_MAX : (UINT64_C(1) << 48) - 1, off;
	uint32_t cc = pe_random_cc(e);
	struct tc_l3 x;
	if (enc_chance(&e->rng, 85))
		e->ts_clock += 1 + enc_below(&e->rng, enc_chance(&e->rng, 50) ? 100 : 100000);
	else
		e->ts_clock = enc_next(&e->rng);
	e->ts_clock &= mask;
	off = pe_pkt_timestamp(e, e->ts_clock, cc);
	pe_item(&x, tc_l3_timestamp, off);
	x.value = e->ts_clock;
	x.count = cc;
	x.unknown = !e->cfg.cycle_accurate;
	pe_l3(e, &x);
}

/* ---- The run --------------------------------------------------------------------- */

/* Packets that are not waypoints, between steps. */
static void extras(struct pe *e)
{
	unsigned r = enc_below(&e->rng, 100);
	uint64_t at;
	if (r < 5 && e->cfg.timestamps) {
		timestamp(e);
	} else if (r < 8 && e->cfg.contextid_size > 0) {
		context_id(e);
	} else if (r < 10 && e->cfg.version >= 1 && e->cfg.vmid) {
		vmid(e);
	} else if (r < 11) {
		simple_item(e, tc_l3_trigger, pe_pkt_simple(e, tc_ptm_pkt_trigger));
	} else if (r < 12) {
		pe_pkt_simple(e, tc_ptm_pkt_ignore);
	} else if (r < 15 && (at = point_in_walk(e)) != 0) {
		waypoint_update(e, at);
		pe_hit(e, "wpu-alone");
	}
}

void pe_step(struct pe *e)
{
	unsigned r;
	if (e->burst) {   /* long runs of atoms: waypoints back to back */
		e->burst--;
		run_block(e);
		return;
	}
	extras(e);
	r = enc_below(&e->rng, 1000);
	if (r < 30)
		exception(e);
	else if (r < 45)
		periodic_sync(e);
	else if (r < 55)
		restart(e, enc_chance(&e->rng, 70) ? 1 : 3);
	else if (r < 62)
		restart(e, 2);
	else if (r < 72) {
		e->burst = 10 + enc_below(&e->rng, 30);
		e->burst_bias = enc_chance(&e->rng, 50) ? 92 : 8;
	} else
		run_block(e);
}

/* Bytes before the first A-sync, which a decoder skips: none of them 0x00,
 * so no A-sync forms among them. */
static void leading_garbage(struct pe *e)
{
	unsigned n = 1 + enc_below(&e->rng, 12);
	for (unsigned i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(1 + enc_below(&e->rng, 255));
		enc_buf_put(&e->trace, &b, 1);
	}
	pe_hit(e, "leading-garbage");
}

/* Packets a decoder reads before the first I-sync: L1 resolves them against
 * an all-zero LastState, L3 reports them without walking (PTM-P5). */
static void before_isync(struct pe *e)
{
	unsigned r = enc_below(&e->rng, 3);
	if (r == 0 && e->cfg.timestamps) {
		timestamp(e);
		pe_hit(e, "before-isync-timestamp");
	} else if (r == 1 && e->cfg.contextid_size > 0) {
		context_id(e);
		pe_hit(e, "before-isync-ctxid");
	} else {
		simple_item(e, tc_l3_trigger, pe_pkt_simple(e, tc_ptm_pkt_trigger));
		pe_hit(e, "before-isync-trigger");
	}
}

void pe_start(struct pe *e)
{
	int reason = enc_chance(&e->rng, 70) ? 1 : (int)enc_below(&e->rng, 4);
	uint64_t at;
	e->use_thumbee = enc_chance(&e->rng, 25);
	e->ts_clock = enc_next(&e->rng) >> (e->cfg.ts64 ? 8 : 24);
	if (enc_chance(&e->rng, 20))
		leading_garbage(e);
	pe_pkt_async(e);
	if (enc_chance(&e->rng, 25))
		before_isync(e);
	new_state(e, &e->ns, &e->hyp);
	if (e->cfg.contextid_size > 0)
		e->ctxid = random_ctxid(e);
	at = random_block_start(e);
	isync(e, at, random_ee(e, at), reason);
}

void pe_finish(struct pe *e)
{
	pe_flush_atoms(e);
}
