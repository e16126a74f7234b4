/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_trace.c — the encoder's execution model and trace-unit decisions: runs a random program,
 * decides what the trace unit reports (speculation, mispredicts, exceptions, context, gaps,
 * transactions, Q, source addresses, timestamps, cycle counts, events), and records the L3
 * truth as what the execution retired. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

/* ---- L3 truth ---------------------------------------------------------------- */

void enc_l3_item(struct tc_l3 *x, int kind, uint64_t offset)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_ete;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

void enc_l3_write(struct enc *e, int in_tx, int kept, const struct tc_l3 *x)
{
	char line[256];
	tc_ete_format_l3(line, sizeof line, x);
	if (!in_tx) {
		enc_buf_printf(&e->l3, "%s\n", line);
		return;
	}
	enc_buf_printf(&e->l3_tx, "%s\n", line);
	if (kept)
		enc_buf_printf(&e->l3_tx_events, "%s\n", line);
}

void enc_l3(struct enc *e, int kept, const struct tc_l3 *x)
{
	enc_l3_write(e, e->in_tx, kept, x);
}

void enc_l3_simple(struct enc *e, int kept, int kind, uint64_t offset)
{
	struct tc_l3 x;
	enc_l3_item(&x, kind, offset);
	enc_l3(e, kept, &x);
}

/* Offset the next packet will have (pending atoms are packed first). */
static uint64_t next_offset(struct enc *e)
{
	if (e->npending)
		enc_flush_atoms(e);
	return e->trace.len;
}

/* ---- The analyzer's view: ranges, context, return stack ------------------------ */

static int is_p0(const struct enc *e, int term)
{
	return term != term_wfi || e->cfg.wfxmode;
}

/* The L3 type of a terminator (enum tc_insn_type). */
static int term_type(int term)
{
	const char *t = enc_term_info(term)->type;
	if (!strcmp(t, "dir"))
		return tc_insn_branch_dir;
	if (!strcmp(t, "indir"))
		return tc_insn_branch_indir;
	return !strcmp(t, "isb") ? tc_insn_isb : tc_insn_wfx;
}

/* ---- Instruction sets: each image region holds code of one ---------------------- */

static const char *const isa_names[] = { "a64", "a32", "t32" };

static int isa_at(const struct enc *e, uint64_t a)
{
	int isa = enc_isa_at(&e->prog, a);
	return isa < 0 ? enc_a64 : isa;
}

/* The sub-ISA an address packet gives for the code at a: IS1 for T32. */
static int sub_isa(const struct enc *e, uint64_t a)
{
	return isa_at(e, a) == enc_t32;
}

/* The execution state of the code at a: 0 AArch64, 1 AArch32. */
static int group_at(const struct enc *e, uint64_t a)
{
	return isa_at(e, a) != enc_a64;
}

/* The address the trace shows (AArch32: 32 bits; the model's addresses of
 * code across 2^32 go on above it). */
static uint64_t vis(const struct enc *e, uint64_t a)
{
	return enc_visible(&e->prog, a);
}

/* Whether AArch32 execution from a through b runs across 2^32 (from
 * 0xffffffff on to 0). */
static int crosses(const struct enc *e, uint64_t a, uint64_t b)
{
	return group_at(e, a) && a >> 32 != b >> 32;
}

/* The L3 instruction set (enum tc_isa) of an encoder instruction set (enum enc_isa). */
static int l3_isa(int isa)
{
	return isa == enc_t32 ? tc_isa_t32 : isa == enc_a32 ? tc_isa_a32 : tc_isa_a64;
}

/* The range item, at offset, from the analyzer's current address
 * (e->last_branch_target) to last: n instructions (T32 ones 2 or 4 bytes)
 * of one instruction set, the last of L3 type `type` (enum tc_insn_type)
 * with outcome taken (enum tc_taken). */
static void range_item(struct enc *e, struct tc_l3 *x, uint64_t off, uint64_t last, int type, int taken)
{
	uint64_t first = e->last_branch_target;
	int isa = isa_at(e, first);
	enc_l3_item(x, tc_l3_range, off);
	x->first = vis(e, first);
	x->last = vis(e, last);
	x->count = enc_insn_count(&e->prog, first, last);
	x->isa = (uint8_t)l3_isa(isa);
	x->last_type = (uint8_t)type;
	x->taken = (uint8_t)taken;
	if (isa != enc_a64)
		enc_hit(e, "isa-%s", isa_names[isa]);
}

/* The analyzer resets its return stack at the first P0 element after a
 * Trace On or Trace Info (TC-S21). */
static void p0_element(struct enc *e)
{
	e->need_p0 = 0;   /* a pending return-stack pop happens at this element's analysis */
	if (e->rs_reset_pending) {
		e->rs_n = 0;
		e->rs_reset_pending = 0;
	}
}

/* A walk from the analyzer's current address to last that runs across
 * 2^32: the analyzer's address goes from 0xffffffff-ish to 0, which ends a
 * range (its instructions are in address order): the part up to the wrap is
 * a range of its own, at the same offset. */
static void wrap_split(struct enc *e, uint64_t off, uint64_t last)
{
	uint64_t wrap = ((e->last_branch_target >> 32) + 1) << 32;
	struct tc_l3 x;
	if (!crosses(e, e->last_branch_target, last))
		return;
	range_item(e, &x, off, enc_insn_prev(&e->prog, wrap), tc_insn_other, tc_taken_none);
	enc_l3(e, 0, &x);
	e->last_branch_target = wrap;
	enc_hit(e, "aarch32-wrap");
}

/* A taken branch with link pushes its return address with the caller's sub-ISA. */
static void rs_push(struct enc *e, uint64_t address, int is1)
{
	if (!e->cfg.retstack)
		return;
	if (e->rs_n == ENC_RS_DEPTH) {
		memmove(e->rs, e->rs + 1, (ENC_RS_DEPTH - 1) * sizeof e->rs[0]);
		e->rs_n--;
	}
	e->rs[e->rs_n].address = vis(e, address);
	e->rs[e->rs_n].isa = is1;
	e->rs_n++;
}

static void report_context(struct enc *e, uint64_t off)
{
	struct tc_l3 x;
	if (e->ctx_reported_valid && !memcmp(&e->ctx_reported, &e->ctx, sizeof e->ctx))
		return;
	e->ctx_reported = e->ctx;
	e->ctx_reported_valid = 1;
	enc_l3_item(&x, tc_l3_context, off);
	x.ctx = e->ctx;
	enc_l3(e, 0, &x);
}

/* ---- Program flow ---------------------------------------------------------------------- */

/* A random block of execution state group (0 AArch64, 1 AArch32, -1 any). */
static uint64_t random_block_start(struct enc *e, int group)
{
	return e->prog.block[enc_random_block(&e->prog, &e->rng, group)].start;
}

/* Sends an address for a new location (after an indirect branch, an
 * exception, a gap): a plain address packet, IS1 for T32 code. */
static void send_address(struct enc *e, uint64_t a)
{
	int is1 = sub_isa(e, a);
	enc_pkt_address(e, vis(e, a), is1);
	if (is1)
		enc_hit(e, "real-is1-address");
	e->pc = a;
	e->last_branch_target = a;
}

/* A context for execution state sf (1 AArch64, 0 AArch32). */
static struct tc_context random_context(struct enc *e, int sf)
{
	struct tc_context c = e->ctx;
	c.sf = (uint8_t)sf;
	if (enc_chance(&e->rng, 50))
		c.el = (uint8_t)enc_below(&e->rng, 4);
	if (enc_chance(&e->rng, 30))
		c.ns = (uint8_t)enc_below(&e->rng, 2);
	if (enc_chance(&e->rng, 50))
		c.context_id = (uint32_t)enc_next(&e->rng);
	if (enc_chance(&e->rng, 30))
		c.vmid = (uint32_t)enc_next(&e->rng) & 0xffff;
	return c;
}

/* Goes to a with context c: a Context packet and an address, or one
 * Address with Context packet (its IS bit the sub-ISA of a). */
static void send_context_address(struct enc *e, uint64_t a, const struct tc_context *c)
{
	uint64_t off = next_offset(e);
	int is1 = sub_isa(e, a);
	if (enc_chance(&e->rng, 50)) {
		enc_pkt_context(e, c);
		report_context(e, off);
		send_address(e, a);
		return;
	}
	enc_pkt_addr_ctx(e, vis(e, a), is1, c);
	report_context(e, off);
	if (is1)
		enc_hit(e, "real-is1-addr-ctx");
	e->pc = a;
	e->last_branch_target = a;
}

/* Trace starts or restarts: Trace On, a context (its SF the execution
 * state of the code at `at`) and an address. Returns whether the
 * execution state changed (AArch64 <-> AArch32). */
static int restart(struct enc *e, uint64_t at)
{
	struct tc_context c = random_context(e, !group_at(e, at));
	int switched = e->ctx_reported_valid && e->ctx_reported.sf != c.sf;
	enc_pkt_trace_on(e);
	enc_l3_simple(e, 0, tc_l3_trace_on, e->trace.len - 1);
	e->rs_reset_pending = 1;
	send_context_address(e, at, &c);
	return switched;
}

/* ---- Speculation --------------------------------------------------------------------- */

static uint64_t random_address(struct enc *e, int isa)
{
	uint64_t a = e->ahb[enc_below(&e->rng, 3)].address;
	switch (enc_below(&e->rng, 4)) {
	case 0: a ^= (uint64_t)enc_below(&e->rng, 128) << 2; break;
	case 1: a ^= (uint64_t)enc_below(&e->rng, 1u << 15) << 2; break;
	case 2: a = (a & ~UINT64_C(0xffffffff)) | (uint32_t)enc_next(&e->rng); break;
	default: a = enc_next(&e->rng); a >>= enc_below(&e->rng, 2) * 16; break;
	}
	return isa ? a & ~UINT64_C(1) : a & ~UINT64_C(3);
}

/* One P0 element on a wrong path: an atom, a Q, a source address or (not
 * first: its Context / Target Address elements come before the P0 element
 * and would survive the Cancel) an exception, in any address form and
 * sub-ISA. They are never analysed. */
static void wrong_p0(struct enc *e, int first, int discard_follows)
{
	int isa = (int)enc_below(&e->rng, 2);
	unsigned r = enc_below(&e->rng, first ? 8 : 10);
	if (r < 6 || discard_follows) {
		enc_atom(e, enc_chance(&e->rng, 60), NULL);
	} else if (r == 6) {
		int t = (int)enc_below(&e->rng, 4);
		uint32_t count = 1 + enc_below(&e->rng, 300);
		uint64_t a = random_address(e, isa);
		enc_pkt_q(e, t == 0 ? 0xc : t == 1 ? 0xf : -1, count, a, isa);
	} else if (r == 7) {
		enc_pkt_source(e, random_address(e, isa), isa);
	} else {
		int type;
		do
			type = (int)enc_below(&e->rng, 32);
		while (type == 0 || type == 0x18);
		int form = 1 + (int)enc_below(&e->rng, 2);
		uint64_t a = random_address(e, isa);
		int with_ctx = enc_chance(&e->rng, 30);
		enc_pkt_exception(e, form, type, a, isa, 0, with_ctx ? &e->ctx : NULL);
	}
}

/* Elements on a path that is later cancelled (or discarded). The first one
 * is a P0 element: a Cancel removes back to the oldest P0 element it
 * cancels, so anything before that would stay. At most MAXSPEC P0
 * elements, so that no implicit commit reaches them. Only the kinds a
 * Cancel keeps (events here) are analysed. Returns the P0 count. */
static int wrong_path(struct enc *e, int discard_follows)
{
	int k, max = (int)(e->cfg.maxspec < 6 ? e->cfg.maxspec : 6);
	if (max == 0 || !enc_chance(&e->rng, 60))
		return 0;
	k = 1 + (int)enc_below(&e->rng, (unsigned)max);
	for (int i = 0; i < k; i++) {
		if (i == 1 && e->cfg.commtrans == 0 && !e->in_tx && !e->T && !discard_follows &&
		    enc_chance(&e->rng, 20)) {
			enc_pkt_tx_start(e);         /* a transaction started speculatively (a P0 here) */
			enc_hit(e, "tx-cancelled");
			e->T_speculative = 1;
			continue;
		}
		wrong_p0(e, i == 0, discard_follows);
		if (enc_chance(&e->rng, 15)) {
			int isa = (int)enc_below(&e->rng, 2);
			if (enc_chance(&e->rng, 70))
				enc_pkt_address(e, random_address(e, isa), isa);
			else
				enc_pkt_addr_ctx(e, random_address(e, isa), isa, &e->ctx);
		}
		if (enc_chance(&e->rng, 5))
			enc_pkt_event(e, 1 + (int)enc_below(&e->rng, 15));
	}
	enc_hit(e, "wrong-path-%d", k > 3 ? 4 : k);
	return k;
}

/* ---- One block ---------------------------------------------------------------------- */

static int outcome(struct enc *e, const struct enc_block *k, uint64_t *next)
{
	uint64_t fall = k->term_addr + (uint64_t)k->term_size;
	int taken = 1, group = k->isa != enc_a64, flow = enc_term_info(k->term)->flow;
	switch (flow) {
	case flow_jump: case flow_call:
		*next = e->prog.block[k->target].start;
		break;
	case flow_cond:
		if (k->target == k - e->prog.block) {   /* a loop: taken until its last iteration */
			if (e->loop_left == 0)
				e->loop_left = 1 + enc_below(&e->rng, 40);
			taken = --e->loop_left > 0;
		} else {
			taken = enc_chance(&e->rng, e->burst ? e->burst_bias : 50);
		}
		*next = taken ? e->prog.block[k->target].start : fall;
		break;
	case flow_return:
		*next = e->call_depth > 0 && enc_chance(&e->rng, 85) ? e->calls[--e->call_depth]
								     : random_block_start(e, group);
		if (group_at(e, *next) != group)   /* a call made in the other execution state */
			*next = random_block_start(e, group);
		break;
	case flow_fall:
		taken = enc_chance(&e->rng, 70);
		*next = fall;
		break;
	default:   /* br, blr, braa, blraa, eret, bx, blx, ldr pc, mov pc: any code of this state */
		*next = random_block_start(e, group);
		break;
	}
	if ((flow == flow_call || flow == flow_icall) && e->call_depth < 64)
		e->calls[e->call_depth++] = fall;
	return taken;
}

static int is_indirect(int term)
{
	return term_type(term) == tc_insn_branch_indir;
}

/* The variants a P0 terminator shows: T32 branch sizes, BLX (immediate). */
static void branch_variants(struct enc *e, const struct enc_block *k)
{
	if (k->isa == enc_t32 && term_type(k->term) == tc_insn_branch_dir)
		enc_hit(e, k->term == term_cbz ? "t32-cbz" : k->term_size == 4 ? "t32-32bit-branch" : "t32-16bit-branch");
	if (k->term == term_blx_imm)
		enc_hit(e, "interwork-blx-imm-%s", isa_names[k->isa]);
}

/* After a taken indirect branch to next: the analyzer pops its return
 * stack when no address follows (only a return whose target, with its
 * sub-ISA, is the top entry), else a Target Address says where (and, by
 * its IS bit, which instruction set). */
static void indirect_target(struct enc *e, const struct enc_block *k, uint64_t next)
{
	const struct enc_ahb *top = e->rs_n > 0 ? &e->rs[e->rs_n - 1] : NULL;
	if (enc_term_info(k->term)->flow == flow_return && e->cfg.retstack && top && top->address == vis(e, next) &&
	    top->isa == sub_isa(e, next) && enc_chance(&e->rng, 80)) {
		e->rs_n--;                   /* the analyzer pops at the next P0 element */
		e->need_p0 = 1;
		enc_hit(e, "rs-pop");
		if (k->isa != enc_a64)
			enc_hit(e, "rs-pop-%s", isa_names[isa_at(e, next)]);
		return;
	}
	if (k->isa != enc_a64 && isa_at(e, next) != k->isa)
		enc_hit(e, "interwork-indirect");
	send_address(e, next);
}

/* Executes the block containing pc up to its terminator and traces it. */
static void run_block(struct enc *e)
{
	int b = enc_block_containing(&e->prog, e->pc);
	const struct enc_block *k;
	uint64_t next = 0;
	struct tc_l3 range;
	int taken, mispredict, flow, crossed;
	if (b < 0) {
		e->pc = random_block_start(e, !e->ctx_reported.sf);
		return;
	}
	k = &e->prog.block[b];
	flow = enc_term_info(k->term)->flow;
	taken = outcome(e, k, &next);
	if (!is_p0(e, k->term)) {   /* WFI with wfxmode 0: an ordinary instruction */
		e->pc = next;
		return;
	}
	p0_element(e);
	crossed = crosses(e, e->last_branch_target, k->term_addr);
	if (crossed)   /* the element's packet is the next one: its offset is known */
		wrap_split(e, next_offset(e), k->term_addr);
	range_item(e, &range, 0, k->term_addr, term_type(k->term), taken ? tc_taken_e : tc_taken_n);
	branch_variants(e, k);
	mispredict = flow == flow_cond && !e->loop_left && enc_chance(&e->rng, 12);
	/* (no Source Address across the wrap: the analyzer would restart at it, TC-P20) */
	if (taken && !mispredict && !e->loop_left && !crossed && enc_chance(&e->rng, 8)) {
		uint64_t off = next_offset(e);
		enc_pkt_source(e, vis(e, k->term_addr), k->isa == enc_t32);
		if (k->isa == enc_t32)
			enc_hit(e, "real-is1-source");
		range.h.offset = off;
		enc_l3(e, 0, &range);
	} else if (mispredict) {
		enc_atom(e, !taken, &range);  /* traced the wrong way, then corrected */
		enc_cancel_mispredict(e, wrong_path(e, 0));
		e->T_speculative = 0;
		enc_hit(e, "mispredict-direct");
	} else {
		enc_atom(e, taken, &range);
		if (!e->burst && enc_chance(&e->rng, 5)) {   /* speculation past it, cancelled */
			int w = wrong_path(e, 0);
			if (w)
				enc_cancel_plain(e, w);
			e->T_speculative = 0;
		}
	}
	if ((flow == flow_call || flow == flow_icall) && taken)
		rs_push(e, k->term_addr + (uint64_t)k->term_size, k->isa == enc_t32);
	e->pc = next;
	e->last_branch_target = next;
	if (is_indirect(k->term))
		indirect_target(e, k, next);
}

/* ---- Other actions ------------------------------------------------------------------- */

/* The exception handler; where the execution state changes (AArch64 <->
 * AArch32), a context with the new SF comes with its address. */
static void enter_handler(struct enc *e, uint64_t handler)
{
	int a64 = !group_at(e, handler);
	struct tc_context c;
	if (a64 == e->ctx_reported.sf) {
		send_address(e, handler);
		return;
	}
	c = random_context(e, a64);
	send_context_address(e, handler, &c);
	enc_hit(e, "state-switch-exception");
}

/* An exception at an instruction of the current block (the preferred return
 * address); the handler is a random block, maybe with a context change. */
static void exception(struct enc *e)
{
	int b = enc_block_containing(&e->prog, e->pc);
	const struct enc_block *k;
	uint64_t per, off, handler = random_block_start(e, -1);
	int type, unknown = enc_chance(&e->rng, 5), form = 1, was_t, is1;
	struct tc_context c;
	struct tc_l3 x;
	int with_ctx = enc_chance(&e->rng, 20);
	if (b < 0)
		return;
	k = &e->prog.block[b];
	is1 = k->isa == enc_t32;
	c = random_context(e, k->isa == enc_a64);   /* the packet's context keeps the state: it applies before the walk */
	per = enc_insn_nth(&e->prog, e->pc, enc_below(&e->rng, (unsigned)enc_insn_count(&e->prog, e->pc, k->term_addr)));
	if (crosses(e, e->last_branch_target, per))
		return;   /* AnalyzeException compares addresses: no walk across the wrap (K10.5.5.6 note) */
	do
		type = (int)enc_below(&e->rng, 32);
	while (type == 0x18 || type == 0x19 || type == 0);
	if (unknown)
		type = 0, with_ctx = 0;
	if (per == e->last_branch_target && !unknown && enc_chance(&e->rng, 40))
		form = 2;
	p0_element(e);
	off = next_offset(e);
	was_t = e->T;
	enc_pkt_exception(e, form, type, vis(e, per), is1, unknown, with_ctx ? &c : NULL);
	if (is1 && !unknown)
		enc_hit(e, "real-is1-exception");
	if (with_ctx)
		report_context(e, off);
	if (unknown && was_t)   /* PE reset while T: Transaction Failure first */
		enc_l3_simple(e, 0, tc_l3_trans_failure, off);
	if (!unknown && per > e->last_branch_target) {
		range_item(e, &x, off, enc_insn_prev(&e->prog, per), tc_insn_other, tc_taken_none);
		enc_l3(e, 0, &x);
	}
	enc_l3_item(&x, tc_l3_exception, off);
	x.type = (uint16_t)type;   /* 0 when unknown */
	x.address = unknown ? 0 : vis(e, per);
	x.unknown = (uint8_t)unknown;
	enc_l3(e, 0, &x);
	enter_handler(e, handler);
}

static void timestamp(struct enc *e)
{
	uint64_t delta = enc_chance(&e->rng, 80) ? enc_below(&e->rng, 5000) + 1 : enc_next(&e->rng) >> 8;
	int with_cc;
	e->ts_value += delta;
	with_cc = enc_chance(&e->rng, 40);
	enc_pkt_timestamp(e, e->ts_value, with_cc, enc_below(&e->rng, 100000));
}

static void commit_some(struct enc *e)
{
	if (e->depth > 0)
		enc_commit(e, 1 + (int64_t)enc_below(&e->rng, (unsigned)e->depth));
}

/* A-sync and a Trace Info in the middle of the trace, with the current
 * speculation depth. */
static void periodic_sync(struct enc *e)
{
	enc_pkt_async(e);
	enc_pkt_trace_info(e, e->cc_enabled, e->cc_threshold, (uint32_t)e->depth, e->in_tx);
	e->rs_reset_pending = 1;
	if (e->depth)
		enc_hit(e, "tinfo-mid-speculation");
}

/* A filtering gap: tracing stops and starts again elsewhere. */
static void gap(struct enc *e)
{
	if (restart(e, random_block_start(e, -1)))
		enc_hit(e, "state-switch-gap");
	enc_hit(e, "trace-on-gap");
}

/* Everything resolved and nothing after the last P0 element: a Discard or
 * an Overflow drops nothing real here. */
static int quiet(const struct enc *e)
{
	return e->depth == 0 && e->since_p0 == 0 && !e->in_tx && e->npending == 0;
}

static void discard_or_overflow(struct enc *e)
{
	uint64_t off;
	int overflow = enc_chance(&e->rng, 40), was_t;
	wrong_path(e, 1);
	was_t = e->T;
	off = next_offset(e);
	if (overflow)
		enc_pkt_overflow(e);
	else
		enc_pkt_discard(e);
	enc_l3_simple(e, 0, tc_l3_discard, off);
	if (overflow)
		enc_l3_simple(e, 0, tc_l3_overflow, off);
	if (was_t)
		enc_l3_simple(e, 0, tc_l3_trans_failure, off);
	enc_hit(e, overflow ? "overflow" : "discard");
	if (overflow) {
		enc_pkt_async(e);
		enc_pkt_trace_info(e, e->cc_enabled, e->cc_threshold, 0, 0);
	}
	restart(e, random_block_start(e, -1));
}

static void transaction(struct enc *e)
{
	uint64_t off;
	if (!e->in_tx) {
		off = next_offset(e);
		enc_pkt_tx_start(e);
		if (e->cfg.commtrans == 0)
			p0_element(e);
		enc_l3_simple(e, 0, tc_l3_trans_start, off);
		e->in_tx = 1;
		e->tx_resume = e->pc;
		memcpy(e->rs_tx, e->rs, sizeof e->rs);
		e->rs_tx_n = e->rs_n;
		e->rs_tx_reset = e->rs_reset_pending;
		return;
	}
	off = next_offset(e);
	if (enc_chance(&e->rng, 60)) {
		enc_pkt_tx_commit(e);
		e->in_tx = 0;
		enc_buf_put(&e->l3, e->l3_tx.p ? e->l3_tx.p : "", e->l3_tx.len);
		enc_l3_simple(e, 0, tc_l3_trans_commit, off);
		enc_hit(e, "tx-commit");
	} else {
		enc_pkt_exception(e, 1, 0x18, vis(e, e->pc), sub_isa(e, e->pc), 0, NULL);
		e->in_tx = 0;
		enc_buf_put(&e->l3, e->l3_tx_events.p ? e->l3_tx_events.p : "", e->l3_tx_events.len);
		enc_l3_simple(e, 0, tc_l3_trans_failure, off);
		memcpy(e->rs, e->rs_tx, sizeof e->rs);   /* the held elements were never analysed */
		e->rs_n = e->rs_tx_n;
		e->rs_reset_pending = e->rs_tx_reset;
		send_address(e, e->tx_resume);
		enc_hit(e, "tx-failure");
	}
	e->l3_tx.len = 0;
	e->l3_tx_events.len = 0;
}

/* Q over a straight stretch: the instructions from the analyzer's current
 * address, through not-taken conditional branches, ISB and WFI (never out
 * of the region). */
static uint64_t q_end(struct enc *e)
{
	uint64_t at = e->pc;
	for (int steps = 0; steps < 12; steps++) {
		int b = enc_block_containing(&e->prog, at);
		const struct enc_block *k = b >= 0 ? &e->prog.block[b] : NULL;
		int flow = k ? enc_term_info(k->term)->flow : -1;
		if (!k || (flow != flow_cond && flow != flow_fall) || b + 1 >= e->prog.nblocks ||
		    e->prog.block[b + 1].region != k->region)
			break;
		at = k->term_addr + (uint64_t)k->term_size;
		if (enc_chance(&e->rng, 40))
			break;
	}
	return at;
}

/* The ranges of a Q walk up to `at`: they close at every P0 instruction,
 * outcome unknown, and at the end. */
static void q_ranges(struct enc *e, uint64_t off, uint64_t at)
{
	uint64_t a = e->last_branch_target, end = enc_insn_prev(&e->prog, at);
	struct tc_l3 x;
	while (a < at) {
		int b = enc_block_containing(&e->prog, a);
		const struct enc_block *k = &e->prog.block[b];
		uint64_t last = k->term_addr < at ? k->term_addr : end;
		int p0 = last == k->term_addr && is_p0(e, k->term);
		wrap_split(e, off, last);
		if (p0 || last == end) {
			range_item(e, &x, off, last, p0 ? term_type(k->term) : tc_insn_other,
				   p0 ? tc_taken_unknown : tc_taken_none);
			enc_l3(e, 0, &x);
			e->last_branch_target = last + (uint64_t)enc_insn_size(&e->prog, last);
		}
		a = last + (uint64_t)enc_insn_size(&e->prog, last);
	}
}

static void q_stretch(struct enc *e)
{
	uint64_t at = q_end(e), off;
	uint32_t count;
	int type, is1 = sub_isa(e, at);
	if (at == e->pc)
		return;
	count = (uint32_t)enc_insn_count(&e->prog, e->last_branch_target, enc_insn_prev(&e->prog, at));
	type = enc_chance(&e->rng, 15) ? 0xf : enc_chance(&e->rng, 30) ? 0xc : -1;
	p0_element(e);
	off = next_offset(e);
	enc_pkt_q(e, type, count, vis(e, at), is1);
	if (is1)
		enc_hit(e, "real-is1-q");
	if (type != 0xf)
		q_ranges(e, off, at);
	e->pc = at;
	e->last_branch_target = at;
	if (type == 0xf)
		send_address(e, at);   /* no count: the analyzer waits for an address */
}

/* ---- The run ------------------------------------------------------------------------- */

static void non_p0_extras(struct enc *e)
{
	unsigned r = enc_below(&e->rng, 100);
	if (r < 6) {
		timestamp(e);
	} else if (r < 10) {
		enc_pkt_event(e, 1 + (int)enc_below(&e->rng, 15));
	} else if (r < 13 && e->cc_enabled) {
		uint32_t count = enc_chance(&e->rng, 30) ? enc_below(&e->rng, 4) : enc_below(&e->rng, 3000);
		enc_pkt_cycle_count_only(e, count, enc_chance(&e->rng, 10));
	} else if (r < 15 && !e->in_tx) {
		struct tc_context c = random_context(e, !group_at(e, e->pc));
		uint64_t off = next_offset(e);
		enc_pkt_context(e, &c);
		report_context(e, off);
	} else if (r < 16) {
		enc_pkt_ignore(e);
	} else if (r < 18 && e->cfg.tsmark) {
		enc_pkt_ts_marker(e);
	} else if (r < 20 && e->cfg.ite) {
		int el = (int)enc_below(&e->rng, 4);
		enc_pkt_instrumentation(e, el, enc_next(&e->rng));
	}
}

/* One step: mostly a block, sometimes something else. */
static void step(struct enc *e)
{
	unsigned r;
	if (e->need_p0) {   /* a return-stack pop is pending: the next element must be P0 (a block
			     * ending in a non-P0 WFI emits nothing, so this may take several steps) */
		run_block(e);
		return;
	}
	if (e->burst) {     /* long runs of atoms: blocks back to back, nothing between */
		e->burst--;
		run_block(e);
		return;
	}
	non_p0_extras(e);
	r = enc_below(&e->rng, 1000);
	if (r < 30 && !e->in_tx) {
		exception(e);
	} else if (r < 45) {
		commit_some(e);
	} else if (r < 52) {
		periodic_sync(e);
	} else if (r < 58 && !e->in_tx) {
		gap(e);
	} else if (r < 66) {
		transaction(e);
	} else if (r < 72 && quiet(e)) {
		discard_or_overflow(e);
	} else if (r < 90) {
		q_stretch(e);
	} else if (r < 100) {
		e->burst = 10 + enc_below(&e->rng, 30);
		e->burst_bias = enc_chance(&e->rng, 50) ? 92 : 8;
	} else {
		run_block(e);
	}
}

/* ---- Generation ------------------------------------------------------------------------ */

static void random_config(struct enc *e)
{
	static const uint32_t maxspec[] = { 0, 0, 0, 1, 2, 3, 4, 8, 16, 32, 100 };
	tc_ete_config_default(&e->cfg);
	e->cfg.maxspec = maxspec[enc_below(&e->rng, sizeof maxspec / sizeof maxspec[0])];
	e->cfg.commopt = enc_chance(&e->rng, 30);
	e->cfg.commtrans = enc_chance(&e->rng, 50);
	e->cfg.retstack = enc_chance(&e->rng, 60);
	e->cfg.wfxmode = enc_chance(&e->rng, 50);
	e->cfg.tsmark = enc_chance(&e->rng, 20);
	e->cfg.ite = enc_chance(&e->rng, 20);
	e->cfg.tf_keep_cc = 0;
}

/* The end: everything resolved, nothing left speculative. */
static void finish(struct enc *e)
{
	for (int i = 0; i < 100000 && e->need_p0; i++)
		run_block(e);
	if (e->in_tx) {
		uint64_t off = next_offset(e);
		enc_pkt_tx_commit(e);
		e->in_tx = 0;
		enc_buf_put(&e->l3, e->l3_tx.p ? e->l3_tx.p : "", e->l3_tx.len);
		enc_l3_simple(e, 0, tc_l3_trans_commit, off);
	}
	enc_commit(e, e->depth);
	enc_flush_atoms(e);
}

static void start(struct enc *e)
{
	int cc = enc_chance(&e->rng, 50);
	uint32_t cct = cc && enc_chance(&e->rng, 50) ? enc_below(&e->rng, 4096) : 0;
	enc_pkt_async(e);
	enc_pkt_trace_info(e, cc, cct, 0, 0);
	e->ts_value = enc_next(&e->rng) >> 20;
	restart(e, random_block_start(e, -1));
}

static void describe(struct enc *e, struct tc_enc_vector *v)
{
	struct enc_buf t = { NULL, 0, 0 };
	enc_buf_printf(&t, "gen maxspec-%u commopt-%d commtrans-%d retstack-%d wfxmode-%d", e->cfg.maxspec,
		       e->cfg.commopt, e->cfg.commtrans, e->cfg.retstack, e->cfg.wfxmode);
	if (e->cfg.tsmark)
		enc_buf_printf(&t, " ts-marker");
	if (e->cfg.ite)
		enc_buf_printf(&t, " ite instrumentation");
	for (int isa = enc_a64; isa <= enc_t32; isa++)   /* the instruction sets of the program */
		for (int i = 0; i < e->prog.nregions; i++)
			if (e->prog.region[i].isa == isa) {
				enc_buf_printf(&t, " %s", isa_names[isa]);
				break;
			}
	enc_buf_printf(&t, " regions-%d", v->nregions);
	if (v->nregions > e->prog.nregions)
		enc_buf_printf(&t, " wrap address-mask");
	v->tags = enc_buf_take(&t);
}

void tc_enc_options_default(struct tc_enc_options *o)
{
	memset(o, 0, sizeof *o);
	o->seed = 1;
	o->random_config = 1;
	tc_ete_config_default(&o->cfg);
	o->steps = 200;
	o->blocks = 64;
	o->entropy = NULL;   /* the seed alone decides */
	o->entropy_len = 0;
}

/* The instruction sets of the program: A64 only (most), AArch32 only, or both. */
static int random_mix(struct enc *e)
{
	unsigned r = enc_below(&e->rng, 100);
	return r < 55 ? mix_a64 : r < 75 ? mix_aarch32 : mix_both;
}

/* The program's regions move to the vector. */
static void take_regions(struct enc *e, struct tc_enc_vector *v)
{
	v->nregions = enc_program_image(&e->prog, v->region);
	enc_hit(e, "regions-%d", v->nregions);
	enc_program_free(&e->prog);
}

int enc_generate_packets(const struct tc_enc_options *o, struct tc_enc_vector *v, struct tc_ete_packet **pkts,
			 size_t *npkts, char *err, size_t errlen)
{
	struct enc *e;
	memset(v, 0, sizeof *v);
	if (!o || o->steps < 1 || o->steps > 100000 || o->blocks < 4 || o->blocks > ENC_MAX_BLOCKS) {
		snprintf(err, errlen, "steps must be 1..100000 and blocks 4..%d", ENC_MAX_BLOCKS);
		return -1;
	}
	if (!o->random_config && o->cfg.maxspec > TC_ETE_MAXSPEC_LIMIT) {
		snprintf(err, errlen, "maxspec %u is over %u", o->cfg.maxspec, TC_ETE_MAXSPEC_LIMIT);
		return -1;
	}
	e = calloc(1, sizeof *e);
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	e->keep_packets = pkts != NULL;
	enc_rng_init(&e->rng, o->seed, o->entropy, o->entropy_len);
	e->l1_record = o->l1_record;
	e->l1_ctx = o->l1_ctx;
	if (o->random_config)
		random_config(e);
	else
		e->cfg = o->cfg;
	e->variants = calloc((size_t)tc_enc_variant_count(), sizeof *e->variants);
	if (!e->variants || enc_program_make(&e->prog, &e->rng, o->blocks, random_mix(e))) {
		snprintf(err, errlen, "out of memory");
		enc_program_free(&e->prog);
		free(e->variants);
		free(e);
		return -1;
	}
	start(e);
	for (unsigned i = 0; i < o->steps; i++)
		step(e);
	finish(e);
	v->cfg = e->cfg;
	take_regions(e, v);
	v->trace_len = e->trace.len;
	v->trace = (uint8_t *)enc_buf_take(&e->trace);
	v->l1 = enc_buf_take(&e->l1);
	v->l3 = enc_buf_take(&e->l3);
	v->variants = e->variants;
	describe(e, v);
	if (pkts) {
		*npkts = e->packets.len / sizeof **pkts;
		*pkts = (struct tc_ete_packet *)(void *)enc_buf_take(&e->packets);
	}
	free(e->l3_tx.p);
	free(e->l3_tx_events.p);
	free(e);
	return 0;
}

int tc_enc_generate(const struct tc_enc_options *o, struct tc_enc_vector *v, char *err, size_t errlen)
{
	return enc_generate_packets(o, v, NULL, NULL, err, errlen);
}

void tc_enc_vector_free(struct tc_enc_vector *v)
{
	if (!v)
		return;
	for (int i = 0; i < v->nregions; i++)
		free(v->region[i].bytes);
	free(v->trace);
	free(v->l1);
	free(v->l3);
	free(v->tags);
	free(v->variants);
	free(v->error);
	free(v->note);
	memset(v, 0, sizeof *v);
}
