/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_exec.c — a logged real execution through the ETMv3 trace-unit model (tc_encoder.from_exec). */
/* The same packet path as the random execution (e3enc_trace.c): an atom per
 * instruction (§7.3.1, e3e_atom, packed into P-headers by e3enc_packets.c),
 * a branch address packet after every taken indirect branch (§7.3.5), an
 * exception branch packet for a supervisor call. What the model does not
 * draw at random but takes from the log (tracecert/execlog.h):
 *
 * - the configuration is the protocol's defaults (ETMv3.5, no cycle
 *   accuracy, no context ID, no data trace);
 * - tracing starts with an A-sync and an I-sync of reason 1 (trace enabled,
 *   §7.7.3) at the window's first instruction, Non-secure (the program runs
 *   under Linux), not Hyp;
 * - every instruction that is not a branch is traced E: the log does not
 *   say whether a conditional one passed its condition (it executed either
 *   way at L3, which shows no outcome for it: `taken=-`); a branch is E when
 *   the next logged instruction is not the one after it, else N;
 * - a supervisor call is traced E, then a branch packet with Exception
 *   Supervisor Call (Table 7-12 b1010, IHI 0014 L10112) to the SVC vector of
 *   Linux's high vectors, 0xffff0008 in ARM state ("it becomes a branch to
 *   the SVC vector", L7426); the handler is not traced (a trace filter on
 *   the program), and tracing starts again with an I-sync of reason 1 at the
 *   return address, the instruction after it.
 *
 * The offsets of what a decoder reports go into tc_exec_marks; the vector's
 * L3 is derived from the log by tc_exec_l3, never from this model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "e3enc_internal.h"

#define E3E_SVC_TYPE 0xa          /* Table 7-12 b1010 Supervisor Call (SVC) */
#define E3E_SVC_VECTOR 0xffff0008u

static int state_of(int isa)
{
	return isa == tc_isa_t32 ? tc_etmv3_isa_thumb : tc_etmv3_isa_arm;
}

/* An I-sync of reason 1 and the model's L3 of it, as e3enc_trace.c's
 * isync_here gives it (FORMAT.md "L3": trace-on, then context if it changed). */
static uint64_t isync(struct e3e *e, uint32_t addr, int isa)
{
	struct e3e_isync s;
	uint64_t off;
	memset(&s, 0, sizeof s);
	s.address = addr;
	s.isa = state_of(isa);
	s.reason = 1;
	s.cc = -1;
	s.lsip_ns = e->ns;
	off = e3e_pkt_isync(e, &s);
	e3e_l3_simple(e, tc_l3_trace_on, off);
	e3e_l3_deliver(e);
	e3e_l3_forget_last(e);
	e3e_l3_context(e, off);
	return off;
}

static void atom(struct e3e *e, const struct tc_exec_insn *i, size_t k)
{
	struct e3e_atom a;
	memset(&a, 0, sizeof a);
	a.e = (uint8_t)(i->type == tc_insn_other || i->taken);
	a.kind = e3e_atom_insn;
	a.isa = i->isa;
	a.type = i->type;
	a.size = i->size;
	a.addr = (uint32_t)i->addr;
	a.seq = (uint32_t)k + 1;
	e3e_atom(e, &a);
}

/* The model's exception item: the preferred return address is where the
 * walk stands, after the instruction traced last (ETM3-P15). */
static void exception_item(struct e3e *e, uint64_t off, uint32_t ret)
{
	struct tc_l3 x;
	e3e_item(&x, tc_l3_exception, off);
	x.type = E3E_SVC_TYPE;
	x.address = ret;
	e3e_l3_emit(e, &x);
	e3e_l3_forget_last(e);
	e3e_l3_context(e, off);
}

/* The supervisor call insn[k] (traced E): its exception branch packet, and
 * tracing on again at the return when the window goes on. */
static void svc(struct e3e *e, const struct tc_exec *x, size_t k, struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	struct e3e_exc xi;
	memset(&xi, 0, sizeof xi);
	xi.type = E3E_SVC_TYPE;
	xi.ns = e->ns;
	xi.hyp = e->hyp;
	m->exception[k] = e3e_pkt_branch(e, E3E_SVC_VECTOR, tc_etmv3_isa_arm, &xi);
	exception_item(e, m->exception[k], (uint32_t)(i->addr + i->size));
	if (k + 1 < x->n)
		m->resume[k] = isync(e, (uint32_t)(i->addr + i->size), i->isa);
}

static void run(struct e3e *e, const struct tc_exec *x, struct tc_exec_marks *m)
{
	e3e_pkt_async(e);
	e->last.dsync = 1;
	m->start = isync(e, (uint32_t)x->insn[0].addr, x->insn[0].isa);
	for (size_t k = 0; k < x->n; k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		atom(e, i, k);
		if (i->svc)
			svc(e, x, k, m);
		else if (i->type == tc_insn_branch_indir && i->taken)
			e3e_pkt_branch(e, (uint32_t)i->next, state_of(i->next_isa), NULL);
	}
	e3e_flush_atoms(e);
	e3e_l3_deliver(e);
}

int e3e_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		  size_t errlen)
{
	struct e3e *e;
	void *state;
	if (tc_exec_begin(x, tc_exec_family_aarch32, "etmv3", r, sizeof e->cfg, tc_enc_etmv3_variant_count(), &state,
			  sizeof *e, err, errlen))
		return -1;
	e = state;
	e->variants = r->variants;
	enc_rng_init(&e->rng, x->n, NULL, 0);   /* the encoding choices: the same log, the same bytes */
	tc_etmv3_config_default(&e->cfg);
	e->itrace = 1;
	e->ns = 1;
	e->seq_off = m->insn;
	run(e, x, m);
	m->protocol = tc_proto_etmv3;
	m->svc_type = E3E_SVC_TYPE;
	memset(&m->ctx, 0, sizeof m->ctx);
	m->ctx.ns = 1;
	memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	r->protocol = "etmv3";
	r->trace_len = e->trace.len;
	r->trace = (uint8_t *)enc_buf_take(&e->trace);
	r->l1 = enc_buf_take(&e->l1);
	r->l3 = enc_buf_take(&e->l3);
	r->tags = NULL;
	free(e);   /* its buffers taken, its variants r's */
	return 0;
}
