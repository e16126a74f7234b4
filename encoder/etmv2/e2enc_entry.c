/* SPDX-License-Identifier: BSD-3-Clause */
/* e2enc_entry.c — the ETMv2 encoder: the execution of a random program (the ETMv1 encoder's, through
 * e1e_program_make) through the cycle model, the data it transfers, and its entry in the table of
 * encoders (tracecert/encoder.h): what `tracecert gen --protocol etmv2` calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2enc_internal.h"
#include "tracecert/execlog.h"
#include "tracecert/protocol.h"

extern const char *const enc_etmv2_variant_names[];
extern const int enc_etmv2_variant_total;

static int variant_count(void)
{
	return enc_etmv2_variant_total;
}

static const char *variant_name(int i)
{
	return (i >= 0 && i < enc_etmv2_variant_total) ? enc_etmv2_variant_names[i] : NULL;
}

/* ---- The program: the ETMv1 encoder's generator (ARMv4T/ARMv5TE A32 and Thumb, e1enc_program.c) */

static int make_program(struct e2e *e, unsigned nblocks)
{
	struct e1e *g = calloc(1, sizeof *g);
	if (!g)
		return -1;
	g->rng = e->rng;
	g->cfg.hivecs = e->cfg.hivecs;
	g->thumb_percent = e->thumb_percent;
	g->traps = 1;   /* SWI and undefined instructions (ETM2-E22) */
	int rc = e1e_program_make(g, nblocks);
	e->rng = g->rng;
	e->prog = g->prog;
	free(g);
	return rc;
}

/* ---- The execution: one instruction at a time (struct e2e_op, e2e_run: e2enc_internal.h) --- */

/* The address of the next instruction of x. */
static uint32_t exec_addr(const struct e2e *e, const struct e2e_exec *x)
{
	const struct e1e_block *k = &e->prog.block[x->block];
	return k->start + (k->thumb ? 2u : 4u) * (uint32_t)x->next;
}

/* The next instruction of x is a Thumb BL pair (two statuses, ETM2-P27). */
static int at_pair(const struct e2e *e, const struct e2e_exec *x)
{
	const struct e1e_block *k = &e->prog.block[x->block];
	return k->thumb && k->term == e1e_bl && exec_addr(e, x) == k->term_addr;
}

/* §4.5.3 (L7424-7426, L7442-7444), ETM2-P15, ETM2-E22: an undefined instruction or SWI that executes
 * becomes a branch to its vector (+0x04, +0x08), not cancelling: IE with a branch address, E = 0;
 * the exception (Table 7-12's 0x9, 0xa) returns to the next instruction, in its state. */
static void trap(struct e2e *e, struct e2e_op *op, int kind)
{
	if (!kind)
		return;
	op->exc_type = kind;
	op->exc_ret = op->next;
	op->next = e->prog.vector_base + (kind == 0x9 ? 0x04u : 0x08u);
	op->next_thumb = 0;
	op->refill = 2;
	op->traced_target = 1;
}

/* An instruction that is no terminator: A32 with its condition passing or not (IE, IN); Thumb
 * always executed (no condition but B<cond>'s). */
static void decide_other(struct e2e *e, const struct e1e_block *k, uint32_t at, struct e2e_op *op)
{
	op->in.type = tc_insn_other;
	if (k->thumb) {
		uint32_t hw = e1e_half(&e->prog, at);
		op->in.thumb = 1;
		op->in.size = 2;
		op->in.executed = 1;
		op->ntransfers = e1e_transfers_t16(hw, &op->size);
		/* the L bit (bit 11) of every Thumb transfer but LDRSB, LDRSH (0101 x11x: loads) */
		op->load = (hw & 0xf000u) == 0x5000u || (int)(hw >> 11 & 1);
		op->next = at + 2;
		op->next_thumb = 1;
		if (op->ntransfers)
			e2e_hit(e, "thumb data");
		e2e_hit(e, "thumb instruction");
		trap(e, op, e1e_trap_kind(hw, 1));
		return;
	}
	uint32_t w = e1e_word(&e->prog, at), cond = w >> 28;
	op->in.executed = cond == 14 || enc_chance(&e->rng, 60);
	op->ntransfers = op->in.executed ? e1e_transfers(w, &op->size) : 0;
	op->load = (int)(w >> 20 & 1);   /* the L bit of every transfer e1e_transfers knows */
	op->cprt = op->in.executed ? e1e_cprt_words(w) : 0;
	const char *name = e1e_transfer_name(w, 0);
	if (name && !strcmp(name, "ldrd/strd")) {
		op->dual = 1;
		op->load = !(w & 0x20u);   /* LDRD SH = b10, STRD b11 (L = 0 in both) */
	}
	op->next = at + 4;
	if (op->in.executed)
		trap(e, op, e1e_trap_kind(w, 0));
}

static void decide(struct e2e *e, struct e2e_exec *x, struct e2e_op *op)
{
	const struct e1e_block *k = &e->prog.block[x->block];
	uint32_t at = exec_addr(e, x);
	memset(op, 0, sizeof *op);
	op->in.addr = at;
	if (at < k->term_addr) {
		decide_other(e, k, at, op);
		x->next++;
		return;
	}
	int indirect = k->term == e1e_bx || k->term == e1e_mov_pc;
	int taken = k->term != e1e_bcond || enc_chance(&e->rng, 50);
	int to = indirect ? (int)enc_below(&e->rng, (unsigned)e->prog.nblocks) : k->target;
	if (k->term == e1e_mov_pc)
		to = e1e_block_of_isa(&e->prog, to, k->thumb);   /* MOV pc does not change the set (ARMv5T) */
	op->in.thumb = k->thumb;
	op->in.size = k->thumb && k->term != e1e_bl ? 2 : 4;
	if (k->thumb)
		e2e_hit(e, "thumb %s", k->term == e1e_bl ? "bl pair" : indirect ? "indirect branch" : "direct branch");
	/* ETM2-E12: with branch_output every taken branch has its address */
	if (!taken && x->block + 1 == e->prog.nblocks)
		taken = 1;   /* the last block's B<cond> would fall off the program: taken */
	op->in.type = indirect ? tc_insn_branch_indir : tc_insn_branch_dir;
	op->in.executed = taken;
	if (taken) {
		op->next = e->prog.block[to].start;
		op->next_thumb = e->prog.block[to].thumb;
		op->refill = 2;
		op->traced_target = indirect || e->cfg.branch_output;
		x->block = to;
	} else {
		op->next = at + (uint32_t)op->in.size;
		op->next_thumb = k->thumb;
		x->block++;
	}
	x->next = 0;
}

static uint32_t random_data_address(struct e2e *e, int size)
{
	uint32_t a = enc_chance(&e->rng, 70) ? (e->last_daddr & ~UINT32_C(0xfff)) | enc_below(&e->rng, 0x1000)
					     : (uint32_t)enc_next(&e->rng);
	return a & ~(uint32_t)(size - 1);
}

static uint32_t random_value(struct e2e *e, int size)
{
	uint32_t v = (uint32_t)enc_next(&e->rng);
	switch (enc_below(&e->rng, 4)) {   /* every SS of Table 6-3 */
	case 0: v = 0; break;
	case 1: v &= 0xff; break;
	case 2: v &= 0xffff; break;
	default: break;
	}
	return size == 4 ? v : v & ((UINT32_C(1) << (8 * size)) - 1);
}

static int data_traced(const struct e2e *e)
{
	return e->cfg.data_value || e->cfg.data_address;
}

/* Load Miss Data of misses whose data have come back (at most two packets a cycle), in any order;
 * a 64-bit miss's two in one cycle, one after the other (§6.4.3 L8800-8802). */
static void miss_returns(struct e2e *e, struct e2e_run *r, struct e2e_group *g, int all)
{
	int n = 0;
	for (int t = 0; t < 4 && n < 2; t++) {
		struct e2e_miss *m = &r->miss[(t + (int)(e->cycles % 4)) % 4];
		if (!m->used || (!all && e->cycles < m->due) || (m->dual && n))
			continue;
		e2e_group_miss_data(e, g, (int)(m - r->miss), m->value, m->size);
		if (m->dual) {
			e2e_group_miss_data(e, g, (int)(m - r->miss), m->value2, m->size);
			e2e_hit(e, "load miss data 64-bit");
			n++;
		}
		m->used = 0;
		n++;
	}
}

static int misses_outstanding(const struct e2e_run *r)
{
	int n = 0;
	for (int t = 0; t < 4; t++)
		n += r->miss[t].used;
	return n;
}

/* A single load that misses (§6.4.3): Load Miss Occurred now, its data later; an LDRD (dual) two
 * Load Miss Occurred packets of one tag in the same cycle, the address with the first (L8794-8796,
 * ETM2-E25). */
static int try_miss(struct e2e *e, struct e2e_run *r, struct e2e_group *g, uint32_t a, int size, int dual)
{
	if (!e->cfg.data_value || !enc_chance(&e->rng, 30))
		return 0;
	for (int t = 0; t < 4; t++) {
		if (r->miss[t].used)
			continue;
		r->miss[t].used = 1;
		r->miss[t].dual = dual;
		r->miss[t].value = random_value(e, size);
		r->miss[t].value2 = dual ? random_value(e, size) : 0;
		r->miss[t].size = size;
		r->miss[t].due = e->cycles + 1 + enc_below(&e->rng, 12);
		e2e_group_miss(e, g, 1, t, a);
		if (dual) {
			e2e_group_miss(e, g, 0, t, a + 4);
			e2e_hit(e, "load miss 64-bit");
		}
		if (misses_outstanding(r) > 1)
			e2e_hit(e, "load misses outstanding 2-4");
		return 1;
	}
	return 0;
}

/* Which transfers of an LSM are traced (§6.4.4 L8806-8813): all, or a random part (ViewData per
 * transfer); 1 when any is (ETM2-E6). */
static int lsm_view(struct e2e *e, int n, int *traced)
{
	int partial = enc_chance(&e->rng, 30), any = 0;
	for (int i = 0; i < n; i++) {
		traced[i] = !partial || enc_chance(&e->rng, 50);
		any |= traced[i];
	}
	if (partial && any)
		e2e_hit(e, "lsm partly traced");
	return any;
}

/* The packet of LSM transfer i (§6.4.4): nothing before the first traced one; the first traced a
 * Normal data packet with A = 1 and the address; later ones Normal data (A = 0) or Value Not Traced. */
static void lsm_packet(struct e2e *e, struct e2e_group *g, const int *traced, int i, int *first_done, uint32_t a, int size)
{
	if (!*first_done && !traced[i])
		return;
	if (!*first_done) {
		e2e_group_data(e, g, 1, a + 4 * (uint32_t)i, random_value(e, size), size);
		*first_done = 1;
	} else if (traced[i]) {
		e2e_group_data(e, g, 0, 0, random_value(e, size), size);
	} else {
		e2e_group_not_traced(e, g);
	}
}

static void data_hit(struct e2e *e, const struct e2e_op *op)
{
	e2e_hit(e, "data %s %s", op->load ? "load" : "store",
		op->dual ? "doubleword" : op->ntransfers > 1 ? "lsm" : op->size == 1 ? "byte" : op->size == 2 ? "halfword" : "word");
}

/* The FIFO stalls the core until a group of n bytes fits (FIFOFULL; all or nothing, §6.10 L9282). */
static void room_for(struct e2e *e, int n)
{
	while (e2e_fifo_count(e) + (unsigned)n > e->depth) {
		e2e_hit(e, "fifofull stall");
		e2e_wait(e);
	}
}

static void cycle_init(struct e2e_cyc *c, int kind)
{
	memset(c, 0, sizeof *c);
	c->kind = kind;
}

/* The bytes of a TFO packet (§6.5.4). */
static int tfo_packet_bytes(const struct e2e *e)
{
	return 1 + e->cfg.contextid_size + 4;
}

/* §6.5.1 (L8851, L8858): the periodic TFO replaces an IE once the period has passed: when its value
 * and packet fit (ETM2-E2) and no TFO nibble is still owed. */
static int periodic_tfo_now(const struct e2e *e, const struct e2e_cyc *c, const struct e2e_insn *in)
{
	return e->since_sync >= e->sync_period && c->kind == tc_etmv2_ie && c->g.n == 0 && !c->phantom &&
	       !(in->thumb && (in->first_half || in->size == 4)) &&   /* ETM2-E21: not a BL pair's */
	       e->nspecial == 0 && e2e_fifo_count(e) <= e->tfo_limit &&
	       e2e_fifo_count(e) + (unsigned)tfo_packet_bytes(e) <= e->depth;
}

static void waits(struct e2e *e, int refill)
{
	unsigned n = (unsigned)refill;
	if (enc_chance(&e->rng, e->wait_percent))
		n += 1 + enc_below(&e->rng, 3);
	for (unsigned i = 0; i < n; i++)
		e2e_wait(e);
}


/* Whether an exception's branch address comes on a DW cycle right after its instruction's cycle
 * instead of in its group (ETM2-P7, ETM2-E19). */
static int branch_on_dw(struct e2e *e)
{
	return enc_chance(&e->rng, 30);
}

/* The cycle of an instruction c and, when d has a group, the DW cycle after it: both groups fit
 * first; the trigger never falls on the DW (the analyzer ends the held instruction at a trigger,
 * ETM2-P27): when it is due there, a wait cycle before takes it (ETM2-E19). */
static void cycle_and_dw(struct e2e *e, struct e2e_cyc *c, struct e2e_cyc *d)
{
	if (c->g.n + d->g.n)
		room_for(e, c->g.n + d->g.n);
	if (d->g.n && !e->triggered && e->trigger_at == e->cycles + 1)
		e2e_wait(e);
	e2e_cycle(e, c);
	if (!d->g.n)
		return;
	e2e_cycle(e, d);
	e2e_hit(e, "exception branch on dw");
}

/* The handler at entry of the vector page (e1enc_program.c): MOV r0, r0 up to the MOV pc, Rm (BX Rm
 * with Thumb code) at +0x18 (+0x1C for FIQ's), a DE with its address back to ret, in Thumb state by
 * ret_thumb. */
static void handler(struct e2e *e, struct e2e_run *r, uint32_t entry, uint32_t ret, int ret_thumb)
{
	uint32_t mov = e->prog.vector_base + 0x18;
	struct e2e_op op;
	for (uint32_t at = entry; at < mov; at += 4) {
		memset(&op, 0, sizeof op);
		op.in.addr = at;
		op.in.type = tc_insn_other;
		op.in.executed = 1;
		op.next = at + 4;
		e2e_run_op(e, r, &op, NULL);
	}
	memset(&op, 0, sizeof op);
	op.in.addr = entry > mov ? entry : mov;
	op.in.type = tc_insn_branch_indir;
	op.in.executed = 1;
	op.next = ret;
	op.next_thumb = ret_thumb;
	op.refill = 2;
	op.traced_target = 1;
	e2e_run_op(e, r, &op, NULL);
}

/* §4.11.3 (L7894-7911), §6.4.2 (L8701, L8723), ETM2-E26: with MonitorCPRT (cprt) a coprocessor
 * register transfer is traced as Normal data with A = 0 (no address), a word each, the value when
 * data values are traced; MCRR and MRRC's second word in the same group or, at half of them, on a
 * DW cycle of its own (1: the caller writes that cycle). */
static int cprt_packets(struct e2e *e, const struct e2e_op *op, struct e2e_group *g)
{
	e2e_group_data(e, g, 0, 0, random_value(e, 4), 4);
	e2e_hit(e, "cprt data %d %s", op->cprt, op->cprt == 1 ? "word" : "words");
	if (op->cprt == 1)
		return 0;
	if (enc_chance(&e->rng, 50))
		return 1;
	e2e_group_data(e, g, 0, 0, random_value(e, 4), 4);
	return 0;
}

static void cprt_second_word(struct e2e *e)
{
	struct e2e_cyc d;
	cycle_init(&d, tc_etmv2_dw);
	e2e_group_data(e, &d.g, 0, 0, random_value(e, 4), 4);
	room_for(e, d.g.n);
	e2e_cycle(e, &d);
	e2e_hit(e, "cprt second word on dw");
}

/* §6.10 (L9275-9282), ETM2-E23: the group of an instruction does not fit: nothing of it goes in (all
 * or none), the status is WT while the FIFO empties, and the next instruction comes after a TFO of
 * reason b10. Only with no load miss outstanding before the instruction (its own are lost too). */
static int overflow(struct e2e *e, struct e2e_run *r, int may, int n)
{
	if (!may || e2e_fifo_count(e) + (unsigned)n <= e->depth)
		return 0;
	memset(r->miss, 0, sizeof r->miss);
	e2e_hit(e, "fifo overflow");
	e2e_drain_all(e);
	e->restart_pending = 1;
	return 1;
}

/* One instruction (and the one folded with it: phantom): its cycle, the later transfers of an LSM
 * on DW cycles, waits and refill. */
void e2e_run_op(struct e2e *e, struct e2e_run *r, const struct e2e_op *op, const struct e2e_op *branch)
{
	struct e2e_cyc c, dw;
	int traced[16] = { 0 }, lsm_any = 0, first_done = 0, missed64 = 0;
	uint32_t a = 0;
	int may_overflow = op->may_overflow && !branch && !op->exc_type && !misses_outstanding(r);
	/* §6.8.1 (L9210-9216), ETM2-E17: a single load or store that aborts (precise): its data, then
	 * the branch to the data abort vector, E = 0, in its group */
	int abort = op->ntransfers == 1 && e->abort_percent && enc_chance(&e->rng, e->abort_percent);
	cycle_init(&c, op->in.executed ? tc_etmv2_ie : tc_etmv2_in);
	cycle_init(&dw, tc_etmv2_dw);
	if (branch) {
		c.phantom = branch->in.executed ? tc_etmv2_phantom_taken : tc_etmv2_phantom_not_taken;
		c.ins[c.nins++] = branch->in;
	}
	c.ins[c.nins++] = op->in;
	miss_returns(e, r, &c.g, 0);
	if (op->ntransfers && data_traced(e)) {
		a = random_data_address(e, op->dual ? 8 : op->size);   /* LDRD, STRD: doubleword aligned */
		data_hit(e, op);
		if (op->ntransfers == 1) {
			if (!(op->load && !abort && try_miss(e, r, &c.g, a, op->size, 0)))
				e2e_group_data(e, &c.g, 1, a, random_value(e, op->size), op->size);
		} else if (op->dual && op->load && try_miss(e, r, &c.g, a, 4, 1)) {
			missed64 = 1;   /* both words' packets in this cycle: no later DW */
		} else {
			lsm_any = lsm_view(e, op->ntransfers, traced);
			if (lsm_any)
				lsm_packet(e, &c.g, traced, 0, &first_done, a, 4);
		}
	}
	int cprt_dw = op->cprt && e->cfg.cprt && cprt_packets(e, op, &c.g);
	if (op->traced_target)
		e2e_group_branch(e, &c.g, op->next | (op->next_thumb ? 1u : 0u), 0);
	if (op->exc_type) {   /* a non-cancelling exception of the instruction: its branch is traced_target */
		c.exc_type = op->exc_type;
		c.exc_ret = op->exc_ret;
	}
	if (abort) {
		struct e2e_cyc *b = branch_on_dw(e) ? &dw : &c;
		e2e_group_branch(e, &b->g, e->prog.vector_base + 0x10, 0);
		b->exc_type = 0xc;   /* Table 7-12's data abort (ETM1-P17) */
		b->exc_ret = op->next;
	}
	if (!abort && overflow(e, r, may_overflow, c.g.n))
		return;   /* no refill: the restart comes at once (cycle-accurate TDs are off until it, §6.11 L9294) */
	if (c.g.n)
		room_for(e, c.g.n);
	if (!abort && periodic_tfo_now(e, &c, &op->in)) {
		c.kind = tc_etmv2_tfo;
		c.tfo_reason = 0;
		c.tfo_addr = op->in.addr | (op->in.thumb ? 1u : 0u);
		e2e_group_tfo(e, &c.g, 0, c.tfo_addr);
		e->since_sync = 0;
		e2e_hit(e, "tfo periodic");
	}
	cycle_and_dw(e, &c, &dw);
	if (cprt_dw)
		cprt_second_word(e);
	if (branch)
		e2e_hit(e, "phantom %s %s", branch->in.executed ? "taken" : "not taken", op->in.type == tc_insn_other ? "other" : "branch");
	for (int i = 1; i < op->ntransfers && data_traced(e) && !missed64; i++) {
		/* ETM2-P7, ETM2-E6: the later transfers of an LSM on DW cycles, one or two a cycle */
		struct e2e_cyc d;
		cycle_init(&d, tc_etmv2_dw);
		if (lsm_any) {
			lsm_packet(e, &d.g, traced, i, &first_done, a, 4);
			if (i + 1 < op->ntransfers && enc_chance(&e->rng, 30))
				lsm_packet(e, &d.g, traced, ++i, &first_done, a, 4);
		}
		if (!d.g.n) {
			e2e_wait(e);
			continue;
		}
		room_for(e, d.g.n);
		e2e_cycle(e, &d);
		e2e_hit(e, "pipestat dw lsm");
	}
	waits(e, op->refill);
	if (abort) {
		e2e_hit(e, "exception data abort hivecs%u", e->cfg.hivecs);
		if (op->in.thumb)
			e2e_hit(e, "exception from thumb");
		waits(e, 2);
		handler(e, r, e->prog.vector_base + 0x10, op->next, op->next_thumb);
	}
}

/* §4.5.3 (L7398-7412), §6.1.5 (L8527-8542), §6.7.1 (L9174-9197), ETM2-P15: an IRQ or FIQ taken
 * before the instruction at ret: that instruction traced as IE or IN with a full branch address to
 * the vector, E = 1 (it is cancelled); the handler's MOV pc, Rm a DE with its address back
 * (ETM2-E8). In ETMv2.1 an imprecise data abort is traced so too, at the data abort vector
 * (§6.8.1 L9218-9226, ETM2-E18); a prefetch abort and a reset too, at +0x0C and +0x00, cancelling
 * (L7402-7412, L7436-7438, ETM2-E22). */
static void interrupt(struct e2e *e, struct e2e_run *r, uint32_t ret, int thumb)
{
	static const struct { const char *name; uint32_t offset; int type; } kinds[] = {
		{ "irq", 0x18, 0xe }, { "fiq", 0x1c, 0xf }, { "imprecise abort", 0x10, 0xc },
		{ "prefetch abort", 0x0c, 0xb }, { "reset", 0x00, 0x8 },
	};   /* Table 7-12's numbers (ETM1-P17) */
	int imprecise = e->cfg.version >= 1 && enc_chance(&e->rng, 25);
	int fiq = !imprecise && enc_chance(&e->rng, 30);
	int k = imprecise ? 2 : fiq ? 1 : 0;
	if (k == 0 && enc_chance(&e->rng, 30))
		k = enc_chance(&e->rng, 60) ? 3 : 4;   /* ETM2-E22: a prefetch abort or a reset */
	uint32_t vector = e->prog.vector_base + kinds[k].offset;
	struct e2e_cyc c, d;
	cycle_init(&c, enc_chance(&e->rng, 50) ? tc_etmv2_ie : tc_etmv2_in);
	cycle_init(&d, tc_etmv2_dw);
	struct e2e_cyc *b = branch_on_dw(e) ? &d : &c;
	miss_returns(e, r, &c.g, 0);
	e2e_group_branch(e, &b->g, vector, 1);
	b->exc_type = kinds[k].type;
	b->exc_ret = ret;
	cycle_and_dw(e, &c, &d);
	e2e_hit(e, "exception %s hivecs%u", kinds[k].name, e->cfg.hivecs);
	if (thumb)
		e2e_hit(e, "exception from thumb");
	waits(e, 2);
	handler(e, r, vector, ret, thumb);
}

/* §6.4.5 (L8822-8832), §6.5.7: a new Context ID (another process), its packet on a DW cycle
 * (ETM2-E10). */
static void context_change(struct e2e *e)
{
	struct e2e_cyc c;
	uint32_t v = (uint32_t)enc_next(&e->rng);
	e->ctxid = e->cfg.contextid_size >= 4 ? v : v & ((UINT32_C(1) << (8 * e->cfg.contextid_size)) - 1);
	cycle_init(&c, tc_etmv2_dw);
	e2e_group_ctxid(e, &c.g);
	c.ctx_packet = 1;
	room_for(e, c.g.n);
	e2e_cycle(e, &c);
}

/* Whether the next instruction is a direct branch to fold with the one after it (§6.1.2
 * L8509-8513): predicted correctly, no address traced (ETM2-E3). */
static int foldable(const struct e2e *e, const struct e2e_exec *x)
{
	const struct e1e_block *k = &e->prog.block[x->block];
	return exec_addr(e, x) == k->term_addr && (k->term == e1e_b || k->term == e1e_bl || k->term == e1e_bcond) &&
	       !at_pair(e, x) && !e->cfg.branch_output;
}

/* The first half of a Thumb BL pair (ARMv4T: BL prefix, then BL suffix): an IE of its own, no
 * L3; the pair is the 32-bit instruction of the second status (ETM2-P27, ETM2-E21). */
static void pair_first_half(struct e2e *e, struct e2e_run *r, uint32_t at)
{
	struct e2e_op op;
	memset(&op, 0, sizeof op);
	op.in.addr = at;
	op.in.type = tc_insn_other;
	op.in.executed = 1;
	op.in.thumb = 1;
	op.in.size = 2;
	op.in.first_half = 1;
	op.next = at + 2;
	op.next_thumb = 1;
	e2e_run_op(e, r, &op, NULL);
}

/* The handler of an undefined instruction or SWI op ran (trap): back to the next instruction. */
static void trap_handler(struct e2e *e, struct e2e_run *r, const struct e2e_op *op)
{
	if (!op->exc_type)
		return;
	e2e_hit(e, "exception %s hivecs%u", op->exc_type == 0x9 ? "undefined" : "svc", e->cfg.hivecs);
	if (op->in.thumb)
		e2e_hit(e, "exception from thumb");
	handler(e, r, op->next, op->exc_ret, op->in.thumb);
}

/* Runs one instruction through the cycle model; returns 1 when it ended its block. */
static int execute_one(struct e2e *e, struct e2e_run *r)
{
	struct e2e_exec *x = &r->x;
	const struct e1e_block *k = &e->prog.block[x->block];
	uint32_t at = exec_addr(e, x);
	if (e->restart_pending) {   /* §6.10 (L9280), Table 6-7 b10, ETM2-E23 */
		e->restart_pending = 0;
		e2e_trace_restart(e, 2, at | (k->thumb ? 1u : 0u), 0, 0);
		e2e_hit(e, "tfo overflow");
	}
	/* ETM2-E21: no interrupt before a Thumb BL pair nor between its halves */
	if (e->irq_percent && !at_pair(e, x) && enc_chance(&e->rng, e->irq_percent)) {
		interrupt(e, r, at, k->thumb);
		return 0;
	}
	if (e->ctx_percent && enc_chance(&e->rng, e->ctx_percent)) {
		context_change(e);
		return 0;
	}
	struct e2e_op op, second;
	int fold = foldable(e, x) && enc_chance(&e->rng, e->phantom_percent);
	if (at_pair(e, x))
		pair_first_half(e, r, at);
	decide(e, x, &op);
	if (fold && !at_pair(e, x)) {   /* the instruction folded with it: no BL pair (ETM2-E21) */
		if (op.in.thumb)
			e2e_hit(e, "phantom thumb");
		decide(e, x, &second);
		e2e_run_op(e, r, &second, &op);
		trap_handler(e, r, &second);
		return 1;
	}
	op.may_overflow = e->overflow_mode && !(op.in.thumb && op.in.size == 4);   /* not a BL pair's */
	e2e_run_op(e, r, &op, NULL);
	trap_handler(e, r, &op);
	return op.in.type != tc_insn_other;
}

/* The misses still outstanding come back on DW cycles (L8774: with trace disabled too). */
void e2e_misses_home(struct e2e *e, struct e2e_run *r)
{
	while (misses_outstanding(r)) {
		struct e2e_cyc c;
		cycle_init(&c, tc_etmv2_dw);
		miss_returns(e, r, &c.g, 1);
		room_for(e, c.g.n);
		e2e_cycle(e, &c);
		e2e_hit(e, "load miss data on dw");
	}
}

void e2e_drain_all(struct e2e *e)
{
	while (!e2e_idle(e))
		e2e_wait(e);
}

/* §6.9.1 (L9253-9261), Table 6-7 b01: trace enabled: a TFO whose packet gives the first
 * instruction's address, no instruction implied (L8858); its value the bytes still in the FIFO
 * (ETM2-E15). lsm: the address of an LSM executing when trace turns on with the instruction at
 * addr under it: an LSM in progress TFO, the LSM executed (§6.5.5, ETM2-P13, ETM2-E16). */
void e2e_trace_on(struct e2e *e, uint32_t addr, int lsm, uint32_t lsm_addr)
{
	e2e_trace_restart(e, 1, addr, lsm, lsm_addr);
	e2e_hit(e, "tfo trace enabled");
}

/* A TFO with no instruction implied of the reason given (Table 6-7: b01 trace enabled, b10 trace
 * restarted after overflow), as e2e_trace_on. */
void e2e_trace_restart(struct e2e *e, int reason, uint32_t addr, int lsm, uint32_t lsm_addr)
{
	struct e2e_cyc c;
	while (!e2e_idle(e) && (e->nspecial || e2e_fifo_count(e) > e->tfo_limit ||
				 e2e_fifo_count(e) + (unsigned)tfo_packet_bytes(e) + 5 > e->depth))
		e2e_wait(e);
	if (e2e_fifo_count(e))
		e2e_hit(e, "tfo trace enabled fifo not empty");
	cycle_init(&c, tc_etmv2_tfo);
	c.tfo_reason = reason;
	c.tfo_addr = lsm ? lsm_addr : addr;
	e->lsip = lsm;
	e->lsip_cur = addr;
	e2e_group_tfo(e, &c.g, reason, c.tfo_addr);
	e->lsip = 0;
	if (lsm) {
		c.ins[0].addr = lsm_addr & ~UINT32_C(1);
		c.ins[0].type = tc_insn_other;
		c.ins[0].executed = 1;
		c.ins[0].thumb = (int)(lsm_addr & 1);
		c.ins[0].size = lsm_addr & 1 ? 2 : 4;
		c.nins = 1;
	}
	e->tracing = 1;
	e->daddr_full_done = 0;   /* ETM2-P26: an interruption */
	e->since_sync = 0;
	e2e_cycle(e, &c);
}

/* The first LSM of block b that always executes (AL), if any: trace turning on while it runs
 * (ETM2-E16); -1 for none. */
static int lsm_in_block(const struct e2e *e, int b)
{
	const struct e1e_block *k = &e->prog.block[b];
	uint32_t step = k->thumb ? 2u : 4u;
	for (uint32_t at = k->start; at < k->term_addr; at += step) {
		int size = 0;
		int n = k->thumb ? e1e_transfers_t16(e1e_half(&e->prog, at), &size)   /* no condition */
				 : e1e_word(&e->prog, at) >> 28 == 14 ? e1e_transfers(e1e_word(&e->prog, at), &size) : 0;
		if (n > 1)
			return (int)((at - k->start) / step);
	}
	return -1;
}

/* Tracing starts at a random block: at its start, or, in a quarter of the restarts whose block has
 * an LSM, under that LSM (LSM in progress). */
static void trace_start(struct e2e *e, struct e2e_run *r)
{
	r->x.block = (int)enc_below(&e->rng, (unsigned)e->prog.nblocks);
	r->x.next = 0;
	int j = lsm_in_block(e, r->x.block);
	const struct e1e_block *k = &e->prog.block[r->x.block];
	if (j >= 0 && enc_chance(&e->rng, 25)) {
		uint32_t step = k->thumb ? 2u : 4u, t = k->thumb ? 1u : 0u;
		r->x.next = j + 1;
		if (k->thumb)
			e2e_hit(e, "tfo lsm in progress thumb");
		e2e_trace_on(e, (k->start + step * (uint32_t)r->x.next) | t, 1, (k->start + step * (uint32_t)j) | t);
		return;
	}
	e2e_trace_on(e, k->start | (k->thumb ? 1u : 0u), 0, 0);
}

/* §6.9.2 (L9263-9269): trace disabled: WT while the FIFO drains, then TD with TRACEPKT[0] = 0. */
void e2e_trace_off(struct e2e *e, struct e2e_run *r, unsigned cycles)
{
	e2e_misses_home(e, r);
	if (enc_chance(&e->rng, 70))
		e2e_drain_all(e);   /* else enabled again while the FIFO may still drain (ETM2-E15) */
	e->tracing = 0;
	for (unsigned i = 0; i < cycles; i++)
		e2e_wait(e);
	e2e_hit(e, "trace disabled");
}

static uint32_t random_ctxid(struct e2e *e)
{
	uint32_t v = (uint32_t)enc_next(&e->rng);
	return e->cfg.contextid_size >= 4 ? v : v & ((UINT32_C(1) << (8 * e->cfg.contextid_size)) - 1);
}

static void random_config(struct e2e *e)
{
	static const uint8_t widths[3] = { 4, 8, 16 };
	static const uint8_t sizes[4] = { 0, 1, 2, 4 };
	tc_etmv2_config_default(&e->cfg);
	e->cfg.version = (uint8_t)enc_below(&e->rng, 2);
	e->cfg.port_width = widths[enc_below(&e->rng, 3)];
	e->cfg.cycle_accurate = (uint8_t)enc_chance(&e->rng, 40);
	e->cfg.branch_output = (uint8_t)enc_chance(&e->rng, 30);
	e->cfg.hivecs = (uint8_t)enc_chance(&e->rng, 50);
	e->cfg.data_value = (uint8_t)enc_chance(&e->rng, 50);
	e->cfg.data_address = (uint8_t)enc_chance(&e->rng, 40);
	e->cfg.contextid_size = sizes[enc_below(&e->rng, 4)];
	e->cfg.cprt = (uint8_t)enc_chance(&e->rng, 50);   /* ETM2-E26 */
}

static void tags(struct e2e *e, struct enc_buf *t)
{
	enc_buf_printf(t, "etmv2 v2.%u port%u%s%s", e->cfg.version, e->cfg.port_width,
		       e->cfg.cycle_accurate ? " cycle-accurate" : "", e->cfg.branch_output ? " branch-output" : "");
}

/* §6.9.1 (L9257-9261), Table 6-7 b11, §6.11 (L9295), ETM2-E24: the core was halted in debug state
 * (no PIPESTAT of its own in Table 6-1: the cycles of trace disabled, e2e_trace_off) and goes on at
 * the instruction where it stopped, after a TFO of reason b11. */
static void debug_exit(struct e2e *e, struct e2e_run *r)
{
	const struct e1e_block *k = &e->prog.block[r->x.block];
	e2e_trace_restart(e, 3, exec_addr(e, &r->x) | (k->thumb ? 1u : 0u), 0, 0);
	e2e_hit(e, "tfo debug exit");
}

static int run(struct e2e *e, const struct tc_enc_request *rq)
{
	struct e2e_run r;
	memset(&r, 0, sizeof r);
	if (make_program(e, rq->blocks))
		return -1;
	e2e_header(e);
	for (unsigned i = enc_below(&e->rng, 4); i > 0; i--)
		e2e_wait(e);   /* TraceEnable not yet active: TD (ETM2-E4) */
	trace_start(e, &r);
	for (unsigned s = 0; s < rq->steps && !e->failed;) {
		int ended = execute_one(e, &r);
		s += (unsigned)ended;
		if (ended && s < rq->steps && !e->restart_pending && e->off_percent &&
		    enc_chance(&e->rng, e->off_percent)) {
			/* TraceEnable off for a while (§6.9): the code run meanwhile is not traced; tracing
			 * resumes at a block with a TFO of reason b01 (§6.9.1) */
			int debug = enc_chance(&e->rng, 25);
			e2e_trace_off(e, &r, 1 + enc_below(&e->rng, 20));
			if (debug) {
				debug_exit(e, &r);
				continue;
			}
			if (e->cfg.contextid_size && enc_chance(&e->rng, 50))   /* another process ran meanwhile */
				e->ctxid = random_ctxid(e);
			trace_start(e, &r);
		}
	}
	e2e_misses_home(e, &r);
	e2e_drain_all(e);
	e2e_l3_flush(e);
	return e->failed ? -1 : 0;
}

static void release(struct e2e *e)
{
	e1e_program_free(&e->prog);
	free(e->trace.p);
	free(e->rec);
	free(e->l3.p);
	free(e->variants);
}

/* The run's draws after the configuration: the FIFO, the synchronisation period, the events. */
static void random_run(struct e2e *e, const struct tc_enc_request *rq, int random_cfg)
{
	e->depth = 40 + enc_below(&e->rng, E2E_DEPTH_MAX - 40 + 1);
	if (random_cfg && enc_chance(&e->rng, 50))
		e->cfg.fifo_depth = (uint16_t)(e->depth + enc_below(&e->rng, 16));   /* ETM2-P10, ETM2-E1 */
	e->tfo_limit = e->cfg.fifo_depth && e->cfg.fifo_depth < 95 ? e->cfg.fifo_depth : 95;
	e->sync_period = 64 + enc_below(&e->rng, 400);
	e->ctxid = random_ctxid(e);
	e->off_percent = enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 4);
	e->irq_percent = enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 3);
	e->abort_percent = enc_chance(&e->rng, 60) ? 0 : 1 + enc_below(&e->rng, 5);
	e->ctx_percent = e->cfg.contextid_size && enc_chance(&e->rng, 50) ? 1 : 0;
	e->phantom_percent = enc_chance(&e->rng, 60) ? 20 + enc_below(&e->rng, 60) : 0;
	e->wait_percent = enc_below(&e->rng, 40);
	e->drop_td = enc_chance(&e->rng, 25);
	e->trigger_at = enc_chance(&e->rng, 50) ? 1 + enc_below(&e->rng, 20 * rq->steps) : UINT64_MAX;
	e->trigger_near_tfo = e->trigger_at == UINT64_MAX && enc_chance(&e->rng, 40);   /* ETM2-E14 */
	e->thumb_percent = enc_chance(&e->rng, 50) ? 0 : 20 + enc_below(&e->rng, 60);   /* ETM2-E21 */
	e->overflow_mode = enc_chance(&e->rng, 25);   /* ETM2-E23 */
}

static int result(struct e2e *e, struct tc_enc_result *r)
{
	struct enc_buf t = { 0 };
	e2e_hit(e, "port%u", e->cfg.port_width);
	e2e_hit(e, "version 2.%u", e->cfg.version);
	if (e->cfg.fifo_depth)
		e2e_hit(e, "fifo depth known");
	tags(e, &t);
	r->protocol = "etmv2";
	r->cfg = malloc(sizeof e->cfg);
	r->l1 = e2e_l1_text(e);
	r->l3 = e->l3.p ? e->l3.p : calloc(1, 1);
	r->tags = t.p;
	r->variants = e->variants;
	r->trace = (uint8_t *)e->trace.p;
	r->trace_len = e->trace.len;
	e1e_program_regions(&e->prog, r);
	if (r->cfg)
		memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	e->variants = NULL;
	e->trace.p = NULL;
	e->l3.p = NULL;
	if (!r->cfg || !r->l1 || !r->l3 || !r->tags || r->nregions != 2) {
		tc_enc_result_free(r);
		return -1;
	}
	return 0;
}

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (!rq || rq->steps < 1 || rq->steps > 100000 || rq->blocks < 4 || rq->blocks > 4096) {
		snprintf(err, errlen, "etmv2 encoder: --steps must be 1..100000 and --blocks 4..4096");
		return -1;
	}
	struct e2e *e = calloc(1, sizeof *e);
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	enc_rng_init(&e->rng, rq->seed, rq->entropy, rq->entropy_len);
	int random_cfg = rq->random_config || !rq->cfg;
	if (random_cfg) {
		random_config(e);
	} else {
		e->cfg = *(const struct tc_etmv2_config *)rq->cfg;
		if (tc_etmv2_config_check(&e->cfg, err, errlen)) {
			free(e);
			return -1;
		}
	}
	random_run(e, rq, random_cfg);
	e->variants = calloc((size_t)enc_etmv2_variant_total + 1, sizeof *e->variants);
	int rc = !e->variants || run(e, rq) ? -1 : result(e, r);
	release(e);
	free(e);
	if (rc) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

const struct tc_encoder tc_encoder_etmv2 = {
	.protocol = "etmv2",
	.doc = "A random ARMv4T/ARMv5TE A32 and Thumb program (the ETMv1 encoder's: data processing,\n"
	       "loads and stores, LDRD/STRD, LDM/STM, CPRTs, SWI, undefined; B, BL, the Thumb BL pair,\n"
	       "B<cond>, BX, MOV pc), an execution of it with wait states and exceptions, and\n"
	       "the ETMv2.0..2.1 cycle model: PIPESTAT on each instruction's first cycle with D for a\n"
	       "group, branch phantoms, a FIFO that stalls the core when full, drained at 4, 8 or 16\n"
	       "bits, branch addresses of 1-5 bytes with E, data packets, load misses, TFOs (trace\n"
	       "enabled, periodic, the gap nibble), Context ID, the trigger; the per-cycle sample\n"
	       "file and the ground truth at L1 and L3 (encoder/etmv2/).\n",
	.variants_file = "encoder/etmv2/variants.txt",
	.default_steps = 200,
	.default_blocks = 64,
	.select_candidates = 2000,
	.select_extra = 4,
	.generate = generate,
	.variant_count = variant_count,
	.variant_name = variant_name,
	.bench_config = "",
	.from_exec = e2e_from_exec,
	.exec_family = tc_exec_family_aarch32,
};
