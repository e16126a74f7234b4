/* SPDX-License-Identifier: BSD-3-Clause */
/* e2enc_exec.c — a logged real execution through the ETMv2 cycle model (tc_encoder.from_exec). */
/* The same cycle model and execution steps as the random execution
 * (e2enc_cycle.c, e2e_run_op and e2e_trace_on/off of e2enc_entry.c:
 * PIPESTAT per cycle, the FIFO, TFOs, branch addresses), fed with the log's
 * instructions instead of a random program's (tracecert/execlog.h), as the
 * ETMv1 model is (../etmv1/e1enc_exec.c). What the model does not draw at
 * random but takes from the log, or fixes (ETM2-E20):
 *
 * - the configuration: ETMv2.1, a 4-bit port in normal mode (a nibble a
 *   cycle, §6.2: the FIFO fills, TFO values get their second nibble and gap
 *   nibble), cycle accurate, high vectors (Linux's, 0xFFFF0000: §4.5.3
 *   L7389), a Context ID of 4 bytes, 0 (qemu-user gives none; the log's L3
 *   has a context), no branch_output, no data trace: the log holds no data
 *   address or value, so the loads and stores are traced IE like any other
 *   instruction; no CPRT, no trigger, no interrupt, no branch phantom (the
 *   macrocell's option, §6.1.2 L8509); the FIFO 48 bytes, the core stalled
 *   while a group would not fit, fifo_depth not given; a periodic TFO every
 *   256 cycles (§6.5.1 L8851); wait states drawn from a generator seeded by
 *   the log's length (the same log, the same cycles);
 * - tracing starts with a reason-b01 TFO at the window's first instruction
 *   (§6.9.1 L9253-9255);
 * - every instruction that is not a branch is traced IE: the log does not
 *   say whether a conditional one passed its condition (L3 shows no outcome
 *   for it); a branch is IN when the next logged instruction is the one after
 *   it (its condition failed, §6.1.5 L8527), else IE, a taken indirect one
 *   with its branch address (§6.7.1), with two pipeline-refill cycles;
 * - a SWI is IE with a branch address to the SWI vector, 0xFFFF0008, E = 0:
 *   SVC becomes a branch to the SVC vector (§4.5.3 L7426), a non-cancelling
 *   exception whose instruction executed (L7444), the E bit set only for a
 *   cancelling one (§6.7.1 L9176); the handler is not traced (qemu-user runs
 *   the kernel's part itself), so TraceEnable goes inactive: WT while the
 *   FIFO drains, then TD (§6.9.2 L9263-9265), and tracing is enabled again at
 *   the return address, the instruction after the SWI, with a reason-b01 TFO;
 * - Thumb code is refused: the model traces A32 only (README.md "What is
 *   not (yet)").
 *
 * The offsets of what a decoder reports go into tc_exec_marks (each the
 * record of the cycle); the vector's L3 is derived from the log by
 * tc_exec_l3, never from this model, and gen refuses the vector when the
 * model's own L3 differs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e2enc_internal.h"
#include "tracecert/execlog.h"
#include "tracecert/protocol.h"

extern const int enc_etmv2_variant_total;

#define E2E_SVC_TYPE 0xa                 /* Table 7-12 b1010 SVC (L10112) */
#define E2E_SVC_VECTOR 0xffff0008u       /* the SWI vector with HIVECS high (§4.5.3 L7389) */
#define E2E_EXEC_HANDLER_CYCLES 8        /* TD cycles while the handler runs untraced */
#define E2E_EXEC_DEPTH 48                /* FIFO bytes */
#define E2E_EXEC_SYNC_PERIOD 256         /* cycles between periodic TFOs */
#define E2E_EXEC_WAIT_PERCENT 20

static void exec_config(struct e2e *e)
{
	tc_etmv2_config_default(&e->cfg);
	e->cfg.version = 1;   /* ETMv2.1 */
	e->cfg.port_width = 4;
	e->cfg.cycle_accurate = 1;
	e->cfg.hivecs = 1;
	e->cfg.contextid_size = 4;
	e->cfg.branch_output = 0;
	e->cfg.data_value = 0;
	e->cfg.data_address = 0;
	e->depth = E2E_EXEC_DEPTH;
	e->tfo_limit = 95;
	e->sync_period = E2E_EXEC_SYNC_PERIOD;
	e->wait_percent = E2E_EXEC_WAIT_PERCENT;
	e->trigger_at = UINT64_MAX;
	e->ctxid = 0;
}

/* The log's instruction as the model's step: its outcome, its refill, its traced address. */
static void op_of(const struct tc_exec_insn *i, struct e2e_op *op)
{
	memset(op, 0, sizeof *op);
	op->in.addr = (uint32_t)i->addr;
	op->in.type = i->type;
	op->in.executed = i->type == tc_insn_other || i->taken;
	op->next = op->in.executed && i->type != tc_insn_other ? (uint32_t)i->next : (uint32_t)(i->addr + i->size);
	if (i->type != tc_insn_other && i->taken) {
		op->refill = 2;
		op->traced_target = i->type == tc_insn_branch_indir;
	}
}

/* The SWI insn[k]: IE with its branch to the vector, an SVC exception; trace disabled while the
 * handler runs, and enabled again at the return when the window goes on. */
static void swi(struct e2e *e, struct e2e_run *r, const struct tc_exec *x, size_t k, struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	uint32_t ret = (uint32_t)(i->addr + i->size);
	struct e2e_op op;
	memset(&op, 0, sizeof op);
	op.in.addr = (uint32_t)i->addr;
	op.in.type = tc_insn_other;
	op.in.executed = 1;
	op.next = E2E_SVC_VECTOR;
	op.refill = 2;
	op.traced_target = 1;
	op.exc_type = E2E_SVC_TYPE;
	op.exc_ret = ret;
	e2e_run_op(e, r, &op, NULL);
	m->insn[k] = m->exception[k] = e->insn_at;
	if (k + 1 == x->n)
		return;
	e2e_trace_off(e, r, E2E_EXEC_HANDLER_CYCLES);
	e2e_trace_on(e, ret, 0, 0);
	m->resume[k] = e->tfo_at;
}

static void run(struct e2e *e, const struct tc_exec *x, struct tc_exec_marks *m)
{
	struct e2e_run r;
	struct e2e_op op;
	memset(&r, 0, sizeof r);
	e2e_header(e);
	e2e_trace_on(e, (uint32_t)x->insn[0].addr, 0, 0);
	m->start = e->tfo_at;
	for (size_t k = 0; k < x->n && !e->failed; k++) {
		if (x->insn[k].svc) {
			swi(e, &r, x, k, m);
			continue;
		}
		op_of(&x->insn[k], &op);
		e2e_run_op(e, &r, &op, NULL);
		m->insn[k] = e->insn_at;
	}
	e2e_misses_home(e, &r);
	e2e_drain_all(e);
	e2e_l3_flush(e);
}

int e2e_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		  size_t errlen)
{
	struct e2e *e;
	void *state;
	if (tc_exec_begin(x, tc_exec_family_aarch32, "etmv2", r, sizeof e->cfg, enc_etmv2_variant_total, &state,
			  sizeof *e, err, errlen))
		return -1;
	e = state;
	if (e1e_exec_a32_only(x, "etmv2", err, errlen)) {
		tc_exec_abandon(r, state);
		return -1;
	}
	e->variants = r->variants;
	enc_rng_init(&e->rng, x->n, NULL, 0);   /* the wait states: the same log, the same cycles */
	exec_config(e);
	run(e, x, m);
	m->protocol = tc_proto_etmv2;
	m->svc_type = E2E_SVC_TYPE;
	memset(&m->ctx, 0, sizeof m->ctx);
	memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	r->protocol = "etmv2";
	r->l1 = e->failed ? NULL : e2e_l1_text(e);
	r->l3 = enc_buf_take(&e->l3);
	r->trace_len = e->trace.len;
	r->trace = (uint8_t *)enc_buf_take(&e->trace);
	r->tags = NULL;
	free(e->rec);
	free(e);   /* its buffers taken, its variants r's */
	if (!r->l1 || !r->l3 || !r->trace) {
		tc_enc_result_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
