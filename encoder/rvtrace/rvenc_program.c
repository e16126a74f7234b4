/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_program.c — a random RV32/RV64 program (basic blocks, with or without C, and one trap handler
 * ending in mret) and its execution into retired instructions, one at a time as the ingress port's
 * groups split (0.026 L145; README "Encoder from the ingress port"). */
#include <stdlib.h>
#include <string.h>

#include "rvenc_internal.h"

/* Terminator kinds of a block. */
enum term { t_fall, t_branch, t_jump, t_call, t_jalr, t_icall, t_ret, t_pair, t_ecall, t_mret };

static int pick_term(struct enc_rng *r, int quiet)
{
	static const int busy[] = { 10, 30, 8, 8, 8, 5, 8, 10, 4 };
	static const int calm[] = { 10, 70, 10, 0, 0, 0, 0, 0, 0 };   /* long branch maps */
	const int *weight = quiet ? calm : busy;
	unsigned total = 0, x;
	for (unsigned i = 0; i < sizeof busy / sizeof busy[0]; i++)
		total += (unsigned)weight[i];
	x = enc_below(r, total);
	for (int i = 0;; i++) {
		if (x < (unsigned)weight[i])
			return i;
		x -= (unsigned)weight[i];
	}
}

static int grow(struct rvenc_program *p, int *cap)
{
	if (p->ninsn < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 256;
	void *n = realloc(p->insn, (size_t)*cap * sizeof *p->insn);
	if (!n)
		return -1;
	p->insn = n;
	return 0;
}

static int add(struct rvenc_program *p, int *cap, int op, int rd, int rs1, int target)
{
	if (grow(p, cap))
		return -1;
	struct rvenc_insn *i = &p->insn[p->ninsn++];
	memset(i, 0, sizeof *i);
	i->op = op;
	i->rd = rd;
	i->rs1 = rs1;
	i->size = rvenc_insn_size(op);
	i->target = target;
	return 0;
}

static int ordinary_op(struct enc_rng *r, int c_ext)
{
	static const int c_ops[] = { rvop_c_addi, rvop_c_nop, rvop_c_mv };
	if (enc_chance(r, 15))
		return rvop_lw;
	if (c_ext && enc_chance(r, 50))
		return c_ops[enc_below(r, 3)];
	return rvop_addi;
}

/* The terminator's instructions (the pair's auipc first). */
static int add_term(struct rvenc_program *p, int *cap, struct enc_rng *r, int term)
{
	int c = p->c_ext && enc_chance(r, 50);
	static const int br32[] = { rvop_beq, rvop_bne, rvop_blt, rvop_bgeu };
	int rd = 28 + (int)enc_below(r, 4);
	switch (term) {
	case t_fall: return 0;
	case t_branch: return add(p, cap, c ? (enc_chance(r, 50) ? rvop_c_beqz : rvop_c_bnez) : br32[enc_below(r, 4)],
				 0, 8 + (int)enc_below(r, 8), -1);
	case t_jump: return add(p, cap, c ? rvop_c_j : rvop_jal, 0, 0, -1);
	case t_call: return add(p, cap, c && !p->rv64 ? rvop_c_jal : rvop_jal, 1, 0, -1);
	case t_jalr: return add(p, cap, c ? rvop_c_jr : rvop_jalr, 0, 7, -1);
	case t_icall: return add(p, cap, c ? rvop_c_jalr : rvop_jalr, 1, 7, -1);
	case t_ret: return add(p, cap, c ? rvop_c_jr : rvop_jalr, 0, 1, -1);
	case t_pair:
		if (add(p, cap, rvop_auipc, rd, 0, -1))
			return -1;
		return add(p, cap, rvop_jalr, enc_chance(r, 50), rd, -1);   /* the offset needs the 32-bit form */
	case t_ecall: return add(p, cap, rvop_ecall, 0, 0, -1);
	default: return add(p, cap, rvop_mret, 0, 0, -1);
	}
}

static int64_t reach(int op)
{
	switch (op) {
	case rvop_c_beqz: case rvop_c_bnez: return 256;
	case rvop_c_j: case rvop_c_jal: return 2048;
	case rvop_jal: return 1 << 20;
	default: return 4096;
	}
}

/* A target block for the direct branch or jump i of block b within its reach (the next block else). */
static int pick_target(const struct rvenc_program *p, struct enc_rng *r, const struct rvenc_insn *i, int b)
{
	int normal = p->nblocks - 1;
	for (int tries = 0; tries < 12; tries++) {
		int t = (int)enc_below(r, (unsigned)normal);
		int64_t off = (int64_t)(p->block[t].start - i->addr);
		if (i->op >= rvop_jal && t <= b)
			continue;   /* jumps go forward: no loop without a branch but the last block's */
		if (off >= -reach(i->op) && off < reach(i->op))
			return t;
	}
	return b + 1;
}

static int is_direct(int op)
{
	return (op >= rvop_beq && op <= rvop_c_jal);
}

static void encode_all(struct rvenc_program *p)
{
	for (int k = 0; k < p->ninsn; k++) {
		struct rvenc_insn *i = &p->insn[k];
		uint8_t *out = p->code + (i->addr - p->base);
		int64_t off = 0;
		if (is_direct(i->op) || i->op == rvop_auipc)
			off = (int64_t)(p->block[i->target].start - i->addr);
		if (i->op == rvop_auipc) {   /* target = auipc + (hi << 12) + lo, lo in the jalr (Table 3.2 pair) */
			int64_t lo = (int64_t)((uint64_t)off & 0xfff);
			if (lo >= 2048)
				lo -= 4096;
			rvenc_insn_write(out, i->op, i->rd, 0, 0, (off - lo) >> 12);
			p->insn[k + 1].target = -2 - (int)(lo + 2048);   /* the jalr's offset, carried to it */
			continue;
		}
		if (i->op == rvop_jalr) {
			int64_t lo = i->target <= -2 ? (int64_t)(-2 - i->target) - 2048 : 0;
			rvenc_insn_write(out, i->op, i->rd, i->rs1, 0, lo);
			continue;
		}
		switch (i->op) {
		case rvop_addi: rvenc_insn_write(out, i->op, 5 + k % 2, 5 + k % 2, 0, 1 + k % 100); break;
		case rvop_lw: rvenc_insn_write(out, i->op, 6, 10, 0, 4 * (k % 16)); break;
		case rvop_c_addi: rvenc_insn_write(out, i->op, 6, 0, 0, 1 + k % 30); break;
		case rvop_c_mv: rvenc_insn_write(out, i->op, 6, 0, 9, 0); break;
		case rvop_beq: case rvop_bne: case rvop_blt: case rvop_bgeu:
			rvenc_insn_write(out, i->op, 0, i->rs1, 9, off); break;
		case rvop_c_beqz: case rvop_c_bnez: rvenc_insn_write(out, i->op, 0, i->rs1, 0, off); break;
		case rvop_jal: case rvop_c_j: case rvop_c_jal: rvenc_insn_write(out, i->op, i->rd, 0, 0, off); break;
		default: rvenc_insn_write(out, i->op, i->rd, i->rs1, 0, 0);
		}
	}
}

int rvenc_program_make(struct rvenc_program *p, struct enc_rng *r, unsigned nblocks, int rv64, int c_ext,
		       uint64_t base, int quiet)
{
	int cap = 0;
	memset(p, 0, sizeof *p);
	p->quiet = quiet;
	p->rv64 = rv64;
	p->c_ext = c_ext;
	p->base = base;
	p->nblocks = (int)nblocks + 1;
	p->block = calloc((size_t)p->nblocks, sizeof *p->block);
	if (!p->block)
		return -1;
	for (int b = 0; b < p->nblocks; b++) {
		int handler = b == p->nblocks - 1;
		int term = handler ? t_mret : b == p->nblocks - 2 ? t_jalr : pick_term(r, p->quiet);
		unsigned n = enc_below(r, handler ? 3 : 5);
		p->block[b].first = p->ninsn;
		for (unsigned k = 0; k < n; k++)
			if (add(p, &cap, handler ? rvop_addi : ordinary_op(r, c_ext), 0, 0, -1))
				return -1;
		if (add_term(p, &cap, r, term))
			return -1;
		if (p->ninsn == p->block[b].first && add(p, &cap, rvop_addi, 0, 0, -1))
			return -1;
		p->block[b].n = p->ninsn - p->block[b].first;
	}
	uint64_t a = base;
	for (int b = 0; b < p->nblocks; b++) {
		p->block[b].start = a;
		for (int k = 0; k < p->block[b].n; k++) {
			p->insn[p->block[b].first + k].addr = a;
			a += (uint64_t)p->insn[p->block[b].first + k].size;
		}
	}
	p->size = a - base;
	for (int b = 0; b < p->nblocks - 1; b++) {
		struct rvenc_insn *t = &p->insn[p->block[b].first + p->block[b].n - 1];
		if (is_direct(t->op))
			t->target = pick_target(p, r, t, b);
		if (t - p->insn >= 1 && t[-1].op == rvop_auipc)   /* forward too: an inferable pair is no loop */
			t[-1].target = b + 1 + (int)enc_below(r, (unsigned)(p->nblocks - 2 - b));
	}
	p->code = calloc(1, (size_t)p->size);
	if (!p->code)
		return -1;
	encode_all(p);
	return 0;
}

void rvenc_program_free(struct rvenc_program *p)
{
	free(p->code);
	free(p->insn);
	free(p->block);
	memset(p, 0, sizeof *p);
}

/* ---- Execution -------------------------------------------------------------------------------- */

struct machine {
	const struct rvenc_program *p;
	const struct tc_rvtrace_config *cfg;
	struct enc_rng *r;
	int pc;                  /* index of the next instruction */
	int prev;                /* index of the instruction retired just before, -1 after a trap or at start */
	uint8_t priv;
	uint32_t context;
	uint64_t stack[64];
	int depth;
	uint64_t mepc;           /* where the handler's mret goes */
	uint8_t priv_before_trap;
	unsigned gap;            /* unqualified instructions still to come */
	struct rvenc_retired pending;   /* the trap to note on the next record (trap_before) */
	int have_pending;
};

static int index_at(const struct rvenc_program *p, uint64_t addr)
{
	int lo = 0, hi = p->ninsn - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (p->insn[mid].addr == addr)
			return mid;
		if (p->insn[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return 0;
}

static uint64_t random_block_start(struct machine *m)
{
	return m->p->block[enc_below(m->r, (unsigned)(m->p->nblocks - 1))].start;
}

static uint16_t cause_mask(const struct machine *m, unsigned v)
{
	return (uint16_t)(v & ((1u << m->cfg->ecause_width_p) - 1));
}

/* Enters the handler: the next record notes the trap (e_ccd, L154 itype 1/2). */
static void trap(struct machine *m, unsigned cause, int interrupt, uint64_t tval, uint64_t mepc)
{
	memset(&m->pending, 0, sizeof m->pending);
	m->pending.cause = cause_mask(m, cause);
	m->pending.interrupt = (uint8_t)interrupt;
	m->pending.tval = m->cfg->iaddress_width_p < 64 ? tval & ((UINT64_C(1) << m->cfg->iaddress_width_p) - 1) : tval;
	m->have_pending = 1;
	m->mepc = mepc;
	m->priv_before_trap = m->priv;
	m->priv = 3;
	m->pc = m->p->block[m->p->nblocks - 1].first;
	m->prev = -1;
}

static uint64_t flow_target(struct machine *m, const struct rvenc_insn *i, struct rvenc_retired *x)
{
	uint64_t fall = i->addr + (uint64_t)i->size;
	switch (i->op) {
	case rvop_beq: case rvop_bne: case rvop_blt: case rvop_bgeu: case rvop_c_beqz: case rvop_c_bnez:
		x->cls = rvc_branch;
		x->taken = (uint8_t)enc_chance(m->r, 50);
		return x->taken ? m->p->block[i->target].start : fall;
	case rvop_jal: case rvop_c_j: case rvop_c_jal:
		x->cls = rvc_jump;
		if (i->rd == 1 && m->depth < 64)
			m->stack[m->depth++] = fall;
		return m->p->block[i->target].start;
	case rvop_jalr: case rvop_c_jr: case rvop_c_jalr: {
		int link = i->op == rvop_c_jalr || i->rd == 1;
		uint64_t t;
		x->cls = rvc_indirect;
		x->inferable = (uint8_t)(m->prev >= 0 && m->p->insn[m->prev].op == rvop_auipc &&
					 m->p->insn[m->prev].rd == i->rs1 && m->prev == i - m->p->insn - 1);
		if (i - m->p->insn >= 1 && i[-1].op == rvop_auipc && i[-1].rd == i->rs1)
			t = m->p->block[i[-1].target].start;
		else if (i->rs1 == 1 && m->depth > 0)
			t = m->stack[--m->depth];
		else
			t = random_block_start(m);
		if (link && m->depth < 64)
			m->stack[m->depth++] = fall;
		return t;
	}
	case rvop_mret:
		x->cls = rvc_xret;
		m->priv = (uint8_t)(enc_chance(m->r, 30) ? enc_below(m->r, 2) : m->priv_before_trap);
		return m->mepc;
	default:
		x->pair_writer = i->op == rvop_auipc;
		return fall;
	}
}

static int in_handler(const struct machine *m)
{
	return m->pc >= m->p->block[m->p->nblocks - 1].first;
}

/* Random events between two instructions outside the handler: an interrupt (exc_only), a fault of a
 * load that then does not retire, a context change (Table 3.3), the start of a qualification gap. */
static int before_insn(struct machine *m, struct rvenc_run *run)
{
	const struct rvenc_insn *i = &m->p->insn[m->pc];
	if (run->n == 0 || in_handler(m) || m->p->quiet)
		return 0;
	if (enc_chance(m->r, 2) || (i->op == rvop_lw && enc_chance(m->r, 20))) {
		int fault = i->op == rvop_lw && !enc_chance(m->r, 20);
		run->rec[run->n - 1].exc_only_next = 1;
		if (fault)
			trap(m, 5, 0, enc_next(m->r), i->addr);   /* the handler returns past the load */
		else
			trap(m, 3 + 4 * enc_below(m->r, 3), 1, 0, i->addr);
		if (fault)
			m->mepc = i->addr + (uint64_t)i->size;
		return 1;
	}
	if (!m->gap && enc_chance(m->r, 1))
		m->gap = 1 + enc_below(m->r, 30);
	return 0;
}

static void context_event(struct machine *m, struct rvenc_retired *x)
{
	if (m->cfg->nocontext_p || in_handler(m) || m->p->quiet || !enc_chance(m->r, 2))
		return;
	uint32_t mask = m->cfg->context_width_p >= 32 ? UINT32_MAX : (UINT32_C(1) << m->cfg->context_width_p) - 1;
	m->context = (uint32_t)enc_next(m->r) & mask;
	x->ctx_change = (uint8_t)(1 + enc_below(m->r, 2));
}

static int push(struct rvenc_run *run, size_t *cap)
{
	if (run->n < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 1024;
	void *n = realloc(run->rec, *cap * sizeof *run->rec);
	if (!n)
		return -1;
	run->rec = n;
	return 0;
}

int rvenc_execute(const struct rvenc_program *p, struct enc_rng *r, const struct tc_rvtrace_config *cfg,
		  unsigned steps, struct rvenc_run *run)
{
	struct machine m;
	size_t cap = 0;
	memset(&m, 0, sizeof m);
	memset(run, 0, sizeof *run);
	m.p = p;
	m.cfg = cfg;
	m.r = r;
	m.prev = -1;
	m.priv = (uint8_t)enc_below(r, 2);
	while (run->n < steps) {
		if (before_insn(&m, run))
			continue;
		const struct rvenc_insn *i = &p->insn[m.pc];
		if (push(run, &cap))
			return -1;
		struct rvenc_retired *x = &run->rec[run->n++];
		memset(x, 0, sizeof *x);
		if (m.have_pending) {
			*x = m.pending;
			x->trap_before = 1;
			m.have_pending = 0;
		} else {
			context_event(&m, x);
		}
		x->addr = i->addr;
		x->size = (uint8_t)i->size;
		x->priv = m.priv;
		x->context = m.context;
		x->qualified = !m.gap;
		if (m.gap)
			m.gap--;
		x->next = flow_target(&m, i, x);
		if (i->op == rvop_ecall) {   /* retires with its trap in the same cycle (er_ccdn) */
			x->er = 1;
			trap(&m, 8 + m.priv, 0, 0, x->next);
		} else if (x->cls == rvc_other && !in_handler(&m) && !p->quiet && enc_chance(r, 1)) {
			x->er = 1;   /* a notification (Table 3.3 L181) */
			m.prev = m.pc;
			m.pc = index_at(p, x->next);
		} else {
			m.prev = m.pc;
			m.pc = index_at(p, x->next);
		}
	}
	return 0;
}
