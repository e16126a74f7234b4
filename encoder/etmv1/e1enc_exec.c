/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_exec.c — a logged real execution through the ETMv1 cycle model (tc_encoder.from_exec). */
/* The same cycle model as the random execution (e1enc_cycle.c: PIPESTAT per
 * cycle, the FIFO, branch addresses and the APO), fed with the log's
 * instructions instead of a random program's (tracecert/execlog.h). What
 * the model does not draw at random but takes from the log, or fixes:
 *
 * - the configuration: ETMv1.3, a 4-bit port in normal mode (a nibble a
 *   cycle, §5.2 L7998: the FIFO fills, the APO counts), cycle
 *   accurate, high vectors (Linux's, 0xFFFF0000: §4.5.3 L7389), a Context
 *   ID of 4 bytes, 0 (qemu-user gives none; the log's L3 has a context), no
 *   data trace: the log holds no data address or value, so the loads and
 *   stores are traced IE like any other instruction (Table 5-1 L7958), and
 *   no CPRT; no trigger, the FIFO 16 packets deep;
 * - tracing starts with a b001 five-packet address at the window's first
 *   instruction (§5.8.1 L8375, ETM1-P15);
 * - every instruction that is not a branch is traced IE: the log does not
 *   say whether a conditional one passed its condition (L3 shows no
 *   outcome for it, `taken=-`, executed or not: reference/etmv1/FORMAT.md
 *   "L3"); a branch is IN when the next logged instruction is the one after
 *   it (its condition failed, ETM1-P26), else a taken direct branch IE
 *   (L7958) with its two pipeline-refill cycles and a taken indirect one BE
 *   with its target (L7962) and its two APO cycles (§5.6.1 L8231);
 * - a SWI is BE with the address of the SWI vector, 0xFFFF0008 (§4.5.3
 *   L7426, L7444: a branch to the SVC vector, the SWI executed, ETM1-P17); the
 *   handler is not traced (a trace filter on the program: qemu-user runs
 *   the kernel's part itself), so trace is disabled (§5.8.2 L8381-8386) and
 *   enabled again at the return address, the instruction after the SWI,
 *   with a b001 address;
 * - Thumb code is refused: the model traces A32 only (README.md "What is
 *   not (yet)").
 *
 * The offsets of what a decoder reports go into tc_exec_marks (each the
 * record of the cycle, FORMAT.md "Records"); the vector's L3 is derived from the
 * log by tc_exec_l3, never from this model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1enc_internal.h"
#include "tracecert/execlog.h"
#include "tracecert/protocol.h"

extern const int enc_etmv1_variant_total;

#define E1E_SVC_TYPE 0xa                 /* Table 7-12 b1010 SVC (L10112) */
#define E1E_SVC_VECTOR 0xffff0008u       /* the SWI vector with HIVECS high (§4.5.3 L7389) */
#define E1E_EXEC_HANDLER_CYCLES 8        /* TD cycles while the handler runs untraced */
#define E1E_EXEC_FIFO_DEPTH 16

static void exec_config(struct e1e *e)
{
	tc_etmv1_config_default(&e->cfg);   /* ETMv1.3 */
	e->cfg.port_width = 4;
	e->cfg.cycle_accurate = 1;
	e->cfg.hivecs = 1;
	e->cfg.contextid_size = 4;
	e->fifo_depth = E1E_EXEC_FIFO_DEPTH;
	e->trigger_at = UINT64_MAX;
	e->ctxid = 0;
}

/* The first instruction that is not A32, or a branch to T32 (its address would be a Thumb one,
 * §5.5.4), said in err as model's refusal: -1; 0 when none. The ETMv2 model's too (e2enc_exec.c). */
int e1e_exec_a32_only(const struct tc_exec *x, const char *model, char *err, size_t errlen)
{
	for (size_t k = 0; k < x->n; k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		const char *what = i->isa != tc_isa_a32 ? "T32" : i->has_next && i->next_isa != tc_isa_a32 ? "a branch to T32" : NULL;
		if (what) {
			snprintf(err, errlen, "line %zu: %s: the %s model traces A32 only (Thumb is not modelled yet)",
				 i->line, what, model);
			return -1;
		}
	}
	return 0;
}

/* The offset of the record made last: the cycle that traced the instruction. */
static uint64_t last_record(const struct e1e *e)
{
	return e->nrec ? e->rec[e->nrec - 1].h.offset : 0;
}

/* The model's exception item, written as e1enc_cycle.c writes its items (tc_etmv1_format_l3). */
static void exception_item(struct e1e *e, uint64_t off, uint32_t ret)
{
	struct tc_l3 x;
	char line[256];
	e1e_l3_flush(e);
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_etmv1;
	x.h.kind = tc_l3_exception;
	x.h.offset = off;
	x.type = E1E_SVC_TYPE;
	x.address = ret;
	tc_etmv1_format_l3(line, sizeof line, &x);
	enc_buf_printf(&e->l3, "%s\n", line);
}

/* The SWI insn[k]: BE to the vector; trace disabled while the handler runs, and enabled again at
 * the return when the window goes on. */
static void swi(struct e1e *e, const struct tc_exec *x, size_t k, struct tc_exec_marks *m)
{
	const struct tc_exec_insn *i = &x->insn[k];
	uint32_t ret = (uint32_t)(i->addr + i->size);
	e1e_instruction(e, tc_etmv1_ps_be, (uint32_t)i->addr, tc_insn_other, 1, 1, E1E_SVC_VECTOR, 0);
	m->insn[k] = m->exception[k] = last_record(e);
	exception_item(e, m->exception[k], ret);
	if (k + 1 == x->n)
		return;
	e1e_trace_off(e, E1E_EXEC_HANDLER_CYCLES);
	m->resume[k] = e1e_offset(e);
	e1e_trace_on(e, ret);
}

static void instruction(struct e1e *e, const struct tc_exec_insn *i)
{
	uint32_t at = (uint32_t)i->addr, to = (uint32_t)i->next;
	if (i->type == tc_insn_other)
		e1e_instruction(e, tc_etmv1_ps_ie, at, tc_insn_other, 1, 0, 0, 0);
	else if (!i->taken)
		e1e_instruction(e, tc_etmv1_ps_in, at, i->type, 0, 0, 0, 0);   /* ETM1-P26 */
	else if (i->type == tc_insn_branch_indir)
		e1e_instruction(e, tc_etmv1_ps_be, at, i->type, 1, 1, to, 0);
	else
		e1e_instruction(e, tc_etmv1_ps_ie, at, i->type, 1, 0, to, 2);
}

static void run(struct e1e *e, const struct tc_exec *x, struct tc_exec_marks *m)
{
	e1e_header(e);
	m->start = e1e_offset(e);
	e1e_trace_on(e, (uint32_t)x->insn[0].addr);
	for (size_t k = 0; k < x->n && !e->failed; k++) {
		if (x->insn[k].svc) {
			swi(e, x, k, m);
			continue;
		}
		instruction(e, &x->insn[k]);
		m->insn[k] = last_record(e);
	}
	e1e_drain(e);
	e1e_l3_flush(e);
}

int e1e_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		  size_t errlen)
{
	struct e1e *e;
	void *state;
	if (tc_exec_begin(x, tc_exec_family_aarch32, "etmv1", r, sizeof e->cfg, enc_etmv1_variant_total, &state,
			  sizeof *e, err, errlen))
		return -1;
	e = state;
	if (e1e_exec_a32_only(x, "etmv1", err, errlen)) {
		tc_exec_abandon(r, state);
		return -1;
	}
	e->variants = r->variants;
	enc_rng_init(&e->rng, x->n, NULL, 0);   /* the wait states: the same log, the same cycles */
	exec_config(e);
	run(e, x, m);
	m->protocol = tc_proto_etmv1;
	m->svc_type = E1E_SVC_TYPE;
	memset(&m->ctx, 0, sizeof m->ctx);
	memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	r->protocol = "etmv1";
	r->l1 = e->failed ? NULL : e1e_l1_text(e);
	r->l3 = enc_buf_take(&e->l3);
	r->trace_len = e->trace.len;
	r->trace = (uint8_t *)enc_buf_take(&e->trace);
	r->tags = NULL;
	free(e->rec);
	free(e->done);
	free(e);   /* its buffers taken, its variants r's */
	if (!r->l1 || !r->l3 || !r->trace) {
		tc_enc_result_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
