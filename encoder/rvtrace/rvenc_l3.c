/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_l3.c — the L3 truth (reference/L3FORMAT.md, reference/rvtrace/FORMAT.md "L3"): the executed
 * qualified instructions, each in the walk of the packet that reports it (ERRATA RV-P10, RV-P11,
 * RV-P13), exceptions with their return address (RV-P14), interrupt bit and trap value (RV-P23), trap
 * returns (RV-P15), context (RV-P16), trace-off where the trace ends (RV-P24) and trace-on after it (RV-P17). */
#include <string.h>

#include "rvenc_internal.h"

struct l3w {
	struct rvenc_ctx *c;
	struct enc_buf *out;
	int isa;
	int have_ctx;
	uint8_t priv;
	uint32_t context;
};

static void item(struct l3w *w, struct tc_l3 *x, uint64_t offset)
{
	char line[256];
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_rvtrace;
	x->h.offset = offset;
	if (tc_l3_format(line, sizeof line, x, tc_rvtrace_error_names, tc_rvtrace_err_count) < (int)sizeof line)
		enc_buf_printf(w->out, "%s\n", line);
}

static void range(struct l3w *w, const struct rvenc_run *run, size_t a, size_t b, uint64_t offset)
{
	const struct rvenc_retired *last = &run->rec[b];
	struct tc_l3 x;
	memset(&x, 0, sizeof x);
	x.h.kind = tc_l3_range;
	x.first = run->rec[a].addr;
	x.last = last->addr;
	x.count = b - a + 1;
	x.isa = (uint8_t)w->isa;
	switch (last->cls) {
	case rvc_branch: x.last_type = tc_insn_branch_dir; x.taken = last->taken ? tc_taken_e : tc_taken_n; break;
	case rvc_jump: x.last_type = tc_insn_branch_dir; x.taken = tc_taken_e; break;
	case rvc_indirect: case rvc_xret: x.last_type = tc_insn_branch_indir; x.taken = tc_taken_e; break;
	default: x.last_type = tc_insn_other; x.taken = tc_taken_none;
	}
	item(w, &x, offset);
	if (last->cls == rvc_xret) {
		memset(&x, 0, sizeof x);
		x.h.kind = tc_l3_exception_return;
		item(w, &x, offset);
	}
}

/* Records a..b (inclusive) as ranges, each ending at a branch, jump or trap return (RV-P18). */
static void walk(struct l3w *w, const struct rvenc_run *run, size_t a, size_t b, uint64_t offset)
{
	size_t start = a;
	for (size_t r = a; r <= b && r != SIZE_MAX; r++)
		if (r == b || run->rec[r].cls != rvc_other) {
			range(w, run, start, r, offset);
			start = r + 1;
		}
}

static void context(struct l3w *w, const struct tc_rvtrace_packet *p, uint64_t offset)
{
	uint32_t ctx = p->has_context ? p->context : 0;
	if (w->have_ctx && w->priv == p->privilege && w->context == ctx)
		return;
	struct tc_l3 x;
	memset(&x, 0, sizeof x);
	x.h.kind = tc_l3_context;
	x.ctx.el = p->privilege;
	x.ctx.context_id = ctx;
	item(w, &x, offset);
	w->have_ctx = 1;
	w->priv = p->privilege;
	w->context = ctx;
}

void rvenc_l3_write(struct rvenc_ctx *c, const struct rvenc_run *run, const struct rvenc_trace *t,
		    struct enc_buf *l3)
{
	struct l3w w = { c, l3, c->cfg->rv32 ? tc_isa_rv32 : tc_isa_rv64, 0, 0, 0 };
	size_t from = SIZE_MAX;
	int ended = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct rvenc_pkt *k = &t->pkt[i];
		uint64_t off = k->p.h.offset;
		struct tc_l3 x;
		memset(&x, 0, sizeof x);
		switch (k->p.h.kind) {
		case tc_rvtrace_pkt_support:
			if ((k->p.qual || !k->p.enable) && !ended) {   /* the trace ends: trace-off (RV-P24) */
				x.h.kind = tc_l3_trace_off;
				item(&w, &x, off);
				ended = 1;
				from = SIZE_MAX;
			}
			break;
		case tc_rvtrace_pkt_sync_start:
		case tc_rvtrace_pkt_sync_exception:
			if (ended) {
				x.h.kind = tc_l3_trace_on;
				item(&w, &x, off);
				ended = 0;
			}
			if (k->p.h.kind == tc_rvtrace_pkt_sync_start && from != SIZE_MAX && from < k->at)
				walk(&w, run, from, k->at - 1, off);
			if (k->p.h.kind == tc_rvtrace_pkt_sync_exception) {
				x.h.kind = tc_l3_exception;
				x.type = k->p.ecause;
				x.address = k->ret;
				x.unknown = (uint8_t)!k->ret_known;
				x.interrupt = k->p.interrupt;   /* RV-P23: as the packet carries them */
				x.has_tval = k->p.has_tval;
				x.value = k->p.tval;
				item(&w, &x, off);
			}
			context(&w, &k->p, off);
			walk(&w, run, k->at, k->at, off);
			from = k->at + 1;
			break;
		case tc_rvtrace_pkt_sync_context:
			context(&w, &k->p, off);
			break;
		default:
			if (from != SIZE_MAX) {   /* after the trace ended nothing walks until a sync (RV-P17) */
				walk(&w, run, from, k->at, off);
				from = k->at + 1;
			}
		}
	}
}
