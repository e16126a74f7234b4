/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_exec.c — a logged real execution through the PTM trace-unit model (tc_encoder.from_exec). */
/* The same packet path as the random execution (ptmenc_trace.c): an atom
 * per waypoint (§4.2; packed into atom packets by ptmenc_packets.c), a
 * branch address packet for every taken indirect branch (§4.5.4, "A
 * non-exception branch address packet implies an E atom"), a waypoint
 * update and a branch address packet with exception information for a
 * supervisor call (§2.1.2). What the model does not draw at random but takes
 * from the log (tracecert/execlog.h):
 *
 * - the configuration is the protocol's defaults (PFTv1.1, no cycle
 *   accuracy, no branch broadcast, no return stack, no context ID, no
 *   timestamps): every taken indirect branch needs its address;
 * - tracing starts with an A-sync and an I-sync of reason 1 (trace enabled,
 *   PTM-P16) at the window's first instruction, Non-secure (the program runs
 *   under Linux), not Hyp;
 * - the waypoints are the branches and ISB (PTM-P11); an instruction that
 *   is not a waypoint is traced by none of its own (its condition is
 *   unknown, App. B.3.2 L47-53); a branch is E when the next logged
 *   instruction is not the one after it, else N (it failed its condition);
 *   an ISB is E;
 * - a supervisor call: a waypoint update at the instruction after it, where
 *   execution had reached when the exception was taken (§2.1.2, PTM-S3),
 *   then a branch address packet with Exception 0xa, Supervisor Call
 *   (PTM-P26), to the SVC vector of Linux's high vectors, 0xffff0008 in ARM
 *   state; the handler is not traced (a trace filter on the program), and
 *   tracing starts again with an I-sync of reason 1 at the return address;
 * - where the window ends after the last waypoint, a waypoint update at the
 *   instruction after the last one says how far execution went (tracing
 *   stops there).
 *
 * The offsets of what a decoder reports go into tc_exec_marks; the vector's
 * L3 is derived from the log by tc_exec_l3, never from this model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "ptmenc_internal.h"

#define PE_SVC_TYPE 0xa           /* Supervisor Call (PTM-P26) */
#define PE_SVC_VECTOR 0xffff0008u

static int state_of(int isa)
{
	return isa == tc_isa_t32 ? tc_ptm_isa_thumb : tc_ptm_isa_arm;
}

static void simple_item(struct pe *e, int kind, uint64_t off)
{
	struct tc_l3 x;
	pe_item(&x, kind, off);
	pe_l3(e, &x);
}

/* An I-sync of reason 1 and its items (PTM-P16): trace-on, then the
 * context the first time (PTM-P19: it never changes here). */
static uint64_t isync(struct pe *e, uint32_t addr, int isa)
{
	uint64_t off = pe_pkt_isync(e, addr, state_of(isa), 1, 0);
	struct tc_l3 x;
	simple_item(e, tc_l3_trace_on, off);
	if (!e->reported_valid) {
		pe_item(&x, tc_l3_context, off);
		x.ctx.ns = (uint8_t)e->ns;
		e->reported = x.ctx;
		e->reported_valid = 1;
		pe_l3(e, &x);
	}
	return off;
}

/* The range of insn[from .. k] (in address order, one instruction set: the
 * log has a waypoint before any other change of flow). */
static void range_item(const struct tc_exec *x, size_t from, size_t k, int type, int taken, struct tc_l3 *out)
{
	pe_item(out, tc_l3_range, 0);
	out->first = x->insn[from].addr;
	out->last = x->insn[k].addr;
	out->count = k - from + 1;
	out->isa = x->insn[from].isa;
	out->last_type = (uint8_t)type;
	out->taken = (uint8_t)taken;
}

static void mark(struct tc_exec_marks *m, size_t from, size_t k, uint64_t off)
{
	for (size_t j = from; j <= k; j++)
		m->insn[j] = off;
}

/* The waypoint insn[k], the end of the walk from insn[from]: an atom, or a
 * branch address packet for a taken indirect branch. */
static void waypoint(struct pe *e, const struct tc_exec *x, size_t from, size_t k, struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	int isb = i->isb && i->type == tc_insn_other, taken = isb || i->taken;
	struct tc_l3 item;
	uint64_t off;
	range_item(x, from, k, isb ? tc_insn_isb : i->type, taken ? tc_taken_e : tc_taken_n, &item);
	if (taken && i->type == tc_insn_branch_indir) {
		off = pe_pkt_branch(e, i->next, state_of(i->next_isa), NULL, 0);
		item.h.offset = off;
		pe_l3(e, &item);
		mark(m, from, k, off);
		return;
	}
	e->mark_first = from;
	e->mark_count = k - from + 1;
	pe_atom(e, taken, &item, 1, 0);
}

/* A waypoint update at the instruction after insn[k]: the walk from
 * insn[from] through it, its condition unknown (PTM-S3). */
static uint64_t waypoint_update(struct pe *e, const struct tc_exec *x, size_t from, size_t k,
				struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	uint64_t off = pe_pkt_waypoint(e, i->addr + i->size, state_of(i->isa));
	struct tc_l3 item;
	range_item(x, from, k, tc_insn_other, tc_taken_none, &item);
	item.h.offset = off;
	pe_l3(e, &item);
	mark(m, from, k, off);
	return off;
}

/* The supervisor call insn[k], the end of the walk from insn[from]. */
static void svc(struct pe *e, const struct tc_exec *x, size_t from, size_t k, struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	struct pe_exc xi = { PE_SVC_TYPE, e->ns, e->hyp };
	struct tc_l3 item;
	waypoint_update(e, x, from, k, m);
	m->exception[k] = pe_pkt_branch(e, PE_SVC_VECTOR, tc_ptm_isa_arm, &xi, 0);
	pe_item(&item, tc_l3_exception, m->exception[k]);
	item.type = PE_SVC_TYPE;
	item.address = i->addr + i->size;
	pe_l3(e, &item);
	if (k + 1 < x->n)
		m->resume[k] = isync(e, i->addr + i->size, i->isa);
}

static void run(struct pe *e, const struct tc_exec *x, struct tc_exec_marks *m)
{
	size_t from = 0;
	pe_pkt_async(e);
	m->start = isync(e, x->insn[0].addr, x->insn[0].isa);
	for (size_t k = 0; k < x->n; k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		if (i->svc)
			svc(e, x, from, k, m);
		else if (i->type != tc_insn_other || i->isb)
			waypoint(e, x, from, k, m);
		else
			continue;
		from = k + 1;
	}
	if (from < x->n)
		waypoint_update(e, x, from, x->n - 1, m);
	pe_flush_atoms(e);
}

static void discard(struct pe *e)
{
	free(e->trace.p);
	free(e->l1.p);
	free(e->l3.p);
	free(e->variants);
	free(e);
}

int pe_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		 size_t errlen)
{
	struct pe *e;
	void *state;
	if (tc_exec_begin(x, tc_exec_family_aarch32, "ptm", r, sizeof e->cfg, tc_enc_ptm_variant_count(), &state,
			  sizeof *e, err, errlen))
		return -1;
	e = state;
	e->variants = r->variants;
	enc_rng_init(&e->rng, x->n, NULL, 0);   /* the encoding choices: the same log, the same bytes */
	tc_ptm_config_default(&e->cfg);
	e->ns = 1;
	e->marks = m->insn;
	run(e, x, m);
	m->protocol = tc_proto_ptm;
	m->svc_type = PE_SVC_TYPE;
	m->isb_waypoint = 1;
	memset(&m->ctx, 0, sizeof m->ctx);
	m->ctx.ns = 1;
	memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	r->protocol = "ptm";
	r->trace_len = e->trace.len;
	r->trace = (uint8_t *)enc_buf_take(&e->trace);
	r->l1 = enc_buf_take(&e->l1);
	r->l3 = enc_buf_take(&e->l3);
	e->variants = NULL;   /* r->variants holds them */
	r->tags = NULL;
	discard(e);
	return 0;
}
