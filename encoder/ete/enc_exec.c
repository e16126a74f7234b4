/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_exec.c — a logged real execution through the ETE trace-unit model (tc_encoder.from_exec). */
/* The same packet path as the random execution (enc_trace.c): an Atom
 * element per P0 instruction (the branches and ISB, packed into atom
 * packets by enc_packets.c), a Target Address after every taken indirect
 * branch, an Exception packet for a supervisor call. What the model does not
 * draw at random but takes from the log (tracecert/execlog.h):
 *
 * - the configuration is the protocol's defaults (MAXSPEC 0: every P0
 *   element is committed as it is traced, no Commit packet; no return stack,
 *   so every taken indirect branch needs its address; WFI and WFE not P0);
 * - tracing starts with an A-sync, a Trace Info, a Trace On, a Context
 *   (EL0, Non-secure, AArch64: the program runs under Linux) and an Address
 *   at the window's first instruction;
 * - a P0 instruction is E when the next logged instruction is not the one
 *   after it, else N; an ISB is E;
 * - a supervisor call: an Exception packet of type 2, Call (TC-P31), whose
 *   address is its preferred return address, the instruction after the SVC;
 *   the handler is not traced (a filter on EL0), and tracing starts again
 *   with a Trace On, the same Context and an Address at the return;
 * - the instructions after the window's last P0 instruction or system call
 *   are not traced (no element says how far they went): tc_exec_marks.traced
 *   ends the L3 there.
 *
 * The offsets of what a decoder reports go into tc_exec_marks; the vector's
 * L3 is derived from the log by tc_exec_l3, never from this model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "enc_internal.h"

#define ETE_CALL_TYPE 0x2         /* Exception type Call (TC-P31) */

static void context_of(struct tc_context *c)
{
	memset(c, 0, sizeof *c);
	c->ns = 1;
	c->sf = 1;
}

/* Trace On, a Context and an Address at addr; the trace-on item (and the
 * context item the first time). Returns the Trace On's offset. */
static uint64_t trace_on(struct enc *e, uint64_t addr, uint64_t *ctx_off)
{
	struct tc_context c;
	struct tc_l3 x;
	uint64_t on, off;
	context_of(&c);
	enc_pkt_trace_on(e);
	on = e->trace.len - 1;
	enc_l3_simple(e, 0, tc_l3_trace_on, on);
	off = e->trace.len;
	enc_pkt_context(e, &c);
	if (!e->ctx_reported_valid) {
		e->ctx_reported = e->ctx;
		e->ctx_reported_valid = 1;
		enc_l3_item(&x, tc_l3_context, off);
		x.ctx = e->ctx;
		enc_l3(e, 0, &x);
	}
	if (ctx_off)
		*ctx_off = off;
	enc_pkt_address(e, addr, 0);
	return on;
}

static void range_item(const struct tc_exec *x, size_t from, size_t k, int type, int taken, struct tc_l3 *out)
{
	enc_l3_item(out, tc_l3_range, 0);
	out->first = x->insn[from].addr;
	out->last = x->insn[k].addr;
	out->count = k - from + 1;
	out->isa = x->insn[from].isa;
	out->last_type = (uint8_t)type;
	out->taken = (uint8_t)taken;
}

/* The P0 instruction insn[k], the end of the walk from insn[from]. */
static void p0(struct enc *e, const struct tc_exec *x, size_t from, size_t k)
{
	const struct tc_exec_insn *i = &x->insn[k];
	int isb = i->isb && i->type == tc_insn_other, taken = isb || i->taken;
	struct tc_l3 item;
	range_item(x, from, k, isb ? tc_insn_isb : i->type, taken ? tc_taken_e : tc_taken_n, &item);
	e->mark_first = from;
	e->mark_count = k - from + 1;
	enc_atom(e, taken, &item);
	if (taken && i->type == tc_insn_branch_indir)
		enc_pkt_address(e, i->next, 0);
}

/* The supervisor call insn[k], the end of the walk from insn[from]. */
static void svc(struct enc *e, const struct tc_exec *x, size_t from, size_t k, struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	struct tc_l3 item;
	uint64_t off;
	enc_flush_atoms(e);
	off = e->trace.len;
	enc_pkt_exception(e, 1, ETE_CALL_TYPE, i->addr + i->size, 0, 0, NULL);
	range_item(x, from, k, tc_insn_other, tc_taken_none, &item);
	item.h.offset = off;
	enc_l3(e, 0, &item);
	for (size_t j = from; j <= k; j++)
		m->insn[j] = off;
	m->exception[k] = off;
	enc_l3_item(&item, tc_l3_exception, off);
	item.type = ETE_CALL_TYPE;
	item.address = i->addr + i->size;
	enc_l3(e, 0, &item);
	if (k + 1 < x->n)
		m->resume[k] = trace_on(e, i->addr + i->size, NULL);
}

static void run(struct enc *e, const struct tc_exec *x, struct tc_exec_marks *m)
{
	size_t from = 0;
	enc_pkt_async(e);
	enc_pkt_trace_info(e, 0, 0, 0, 0);
	m->start = trace_on(e, x->insn[0].addr, &m->start_context);
	for (size_t k = 0; k < x->n; k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		if (i->svc)
			svc(e, x, from, k, m);
		else if (i->type != tc_insn_other || i->isb)
			p0(e, x, from, k);
		else
			continue;
		from = k + 1;
	}
	m->traced = from;
	enc_flush_atoms(e);
}

static void discard(struct enc *e)
{
	free(e->trace.p);
	free(e->l1.p);
	free(e->l3.p);
	free(e->l3_tx.p);
	free(e->l3_tx_events.p);
	free(e->packets.p);
	free(e->variants);
	free(e);
}

/* Why the model cannot trace the window, or NULL: it has a P0 instruction or
 * a system call (something to trace); tc_exec_begin checked it is A64. */
static const char *refused(const struct tc_exec *x)
{
	for (size_t k = 0; k < x->n; k++)
		if (x->insn[k].svc || x->insn[k].isb || x->insn[k].type != tc_insn_other)
			return NULL;
	return "no P0 instruction or system call in the window: nothing the trace would show";
}

int enc_ete_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		      size_t errlen)
{
	struct enc *e;
	void *state;
	const char *why;
	if (tc_exec_begin(x, tc_exec_family_a64, "ete", r, sizeof e->cfg, tc_enc_variant_count(), &state, sizeof *e,
			  err, errlen))
		return -1;
	e = state;
	why = refused(x);
	if (why) {
		snprintf(err, errlen, "%s", why);
		tc_exec_abandon(r, e);
		return -1;
	}
	e->variants = r->variants;
	enc_rng_init(&e->rng, x->n, NULL, 0);   /* the encoding choices: the same log, the same bytes */
	tc_ete_config_default(&e->cfg);
	e->marks = m->insn;
	run(e, x, m);
	m->protocol = tc_proto_ete;
	m->svc_type = ETE_CALL_TYPE;
	m->isb_waypoint = 1;
	context_of(&m->ctx);
	memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	r->protocol = "ete";
	r->trace_len = e->trace.len;
	r->trace = (uint8_t *)enc_buf_take(&e->trace);
	r->l1 = enc_buf_take(&e->l1);
	r->l3 = enc_buf_take(&e->l3);
	e->variants = NULL;   /* r->variants holds them */
	r->tags = NULL;
	discard(e);
	return 0;
}
