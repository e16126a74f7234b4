/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_exec.c — a logged real execution (qemu-riscv64) through the rvtrace encoder's Figure 5.1
 * (tc_encoder.from_exec). */
/* The same path as the random execution (rvenc_entry.c build): the retired
 * instructions (struct rvenc_run) through rvenc_trace_encode (Figure 5.1,
 * RV-X2, with RV-E1's extra packets), rvenc_packets_write and the model's
 * L3 (rvenc_l3_write). What the model takes from the log instead of
 * drawing it (tracecert/execlog.h):
 *
 * - the configuration: RV64 with C (the programs are RV64GC), addresses of
 *   XLEN bits (iaddress_width_p 64, lsb 0), the long frames RV64 needs
 *   (RV-F4), the other keys at their defaults (CONFIG.md); a resync after
 *   RVENC_EXEC_RESYNC qualified instructions (RV-E4);
 * - every instruction is qualified, in U-mode (privilege 0), context 0:
 *   tracing starts with te_support and a sync 00 at the window's first;
 * - a branch's outcome is the log's next instruction; a jalr, c.jr or c.jalr
 *   is inferable when the window's instruction before it is the auipc, lui
 *   or c.lui that wrote its rs1 (tc_exec_insn.pair, RV-P12), else its
 *   target (the log's next instruction) is sent by the packet that follows
 *   it (updiscon);
 * - an ecall retires with its trap in the same cycle (er_ccdn, Table 3.3
 *   L181; RV-P14): a packet reports it, and the instruction after it is the
 *   first the trace sees after the trap — qemu-user runs the system call
 *   itself, so no handler instruction retires: to the trace unit's ingress
 *   port the next retirement is the return, in U-mode again. It gets the
 *   sync 01 (Table 6.3) of the exception, ecause 8 "environment call from
 *   U-mode" (the privileged ISA's mcause/scause table), tval 0 (the ISA
 *   writes 0 to *tval for ecall), ret = the instruction after the ecall
 *   (RV-P14's er_ccdn case; tval=0x0 at L3, RV-P23), no trace-on (tracing
 *   never ended); the te_support that ends the window gives trace-off (RV-P24).
 *
 * The offsets of what a decoder reports go into tc_exec_marks, read off
 * the packets as rvenc_l3_write walks them; the vector's L3 is derived from
 * the log by tc_exec_l3, never from this model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/execlog.h"
#include "rvenc_internal.h"

#define RVENC_EXEC_ECALL_U 8u       /* exception code 8: environment call from U-mode */
#define RVENC_EXEC_RESYNC 1024u     /* qualified instructions between syncs (RV-E4's counter) */

static uint8_t class_of(const struct tc_exec_insn *i)
{
	if (i->type == tc_insn_branch_dir)
		return i->cond ? rvc_branch : rvc_jump;
	return i->type == tc_insn_branch_indir ? rvc_indirect : rvc_other;
}

/* The retired instructions of the log's window (RV64: tc_exec_begin checked it); -1: memory. */
static int make_run(const struct tc_exec *x, struct rvenc_run *run, char *err, size_t errlen)
{
	run->rec = calloc(x->n, sizeof *run->rec);
	run->n = x->n;
	if (!run->rec) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t k = 0; k < x->n; k++) {
		const struct tc_exec_insn *i = &x->insn[k];
		struct rvenc_retired *r = &run->rec[k];
		r->addr = i->addr;
		r->next = i->has_next ? i->next : i->addr + i->size;
		r->size = i->size;
		r->cls = class_of(i);
		r->taken = i->taken;
		r->inferable = i->pair;
		r->pair_writer = i->upper;
		r->qualified = 1;
		r->er = i->svc;
		if (k > 0 && x->insn[k - 1].svc) {
			r->trap_before = 1;
			r->cause = RVENC_EXEC_ECALL_U;
		}
	}
	return 0;
}

static void walked(struct tc_exec_marks *m, size_t from, size_t to, uint64_t off)
{
	for (size_t k = from; k <= to; k++)
		m->insn[k] = off;
	m->range_end[to] = 1;
}

/* Where each instruction is reported: the walks of rvenc_l3_write, packet
 * by packet (RV-P11, RV-P13, RV-P14, RV-P17). */
static void marks_of(const struct rvenc_trace *t, const struct tc_exec *x, struct tc_exec_marks *m)
{
	size_t from = SIZE_MAX;
	int started = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct rvenc_pkt *k = &t->pkt[i];
		uint64_t off = k->p.h.offset;
		switch (k->p.h.kind) {
		case tc_rvtrace_pkt_support:
			if ((k->p.qual || !k->p.enable) && from != SIZE_MAX && !m->has_stop) {
				m->has_stop = 1;   /* the end of the window: trace-off (RV-P24) */
				m->stop = off;
			}
			if (k->p.qual || !k->p.enable)
				from = SIZE_MAX;
			break;
		case tc_rvtrace_pkt_sync_start:
		case tc_rvtrace_pkt_sync_exception:
			if (!started)
				m->start = off;
			started = 1;
			if (k->p.h.kind == tc_rvtrace_pkt_sync_start && from != SIZE_MAX && from < k->at)
				walked(m, from, k->at - 1, off);
			if (k->p.h.kind == tc_rvtrace_pkt_sync_exception && k->at > 0 && x->insn[k->at - 1].svc)
				m->exception[k->at - 1] = off;
			walked(m, k->at, k->at, off);
			from = k->at + 1;
			break;
		case tc_rvtrace_pkt_sync_context:
			break;
		default:
			if (from != SIZE_MAX && from <= k->at) {
				walked(m, from, k->at, off);
				from = k->at + 1;
			}
		}
	}
}

static void exec_config(struct tc_rvtrace_config *cfg)
{
	tc_rvtrace_config_default(cfg);
	cfg->rv32 = 0;
	cfg->iaddress_width_p = 64;
	cfg->iaddress_lsb_p = 0;
	cfg->c_ext = 1;
	cfg->long_frames = 1;
}

static char *take(struct enc_buf *b)
{
	enc_buf_put(b, "", 1);
	return enc_buf_take(b);
}

static int encode(struct rvenc_ctx *c, const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m,
		  char *err, size_t errlen)
{
	struct rvenc_run run = { 0 };
	struct rvenc_trace t = { 0 };
	struct enc_buf bytes = { 0 }, l1 = { 0 }, l3 = { 0 };
	int rc = make_run(x, &run, err, errlen);
	if (rc == 0 && (rvenc_trace_encode(c, &run, &t) || rvenc_packets_write(c, &t, &bytes, &l1))) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	if (rc == 0) {
		rvenc_l3_write(c, &run, &t, &l3);
		marks_of(&t, x, m);
		r->trace_len = bytes.len;
		r->trace = (uint8_t *)bytes.p;
		bytes.p = NULL;
		r->l1 = take(&l1);
		r->l3 = take(&l3);
	}
	free(bytes.p);
	free(l1.p);
	free(l3.p);
	free(run.rec);
	rvenc_trace_free(&t);
	return rc;
}

int rvenc_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		    size_t errlen)
{
	struct enc_rng rng;
	struct rvenc_ctx c;
	if (tc_exec_begin(x, tc_exec_family_rv64, "rvtrace", r, sizeof(struct tc_rvtrace_config),
			  rvenc_variant_count() + 1, NULL, 0, err, errlen))
		return -1;
	exec_config(r->cfg);
	enc_rng_init(&rng, x->n, NULL, 0);   /* nothing is drawn; the same log, the same bytes */
	c.cfg = r->cfg;
	c.rng = &rng;
	c.variants = r->variants;
	c.resync_max = RVENC_EXEC_RESYNC;
	if (encode(&c, x, r, m, err, errlen)) {
		tc_exec_abandon(r, NULL);
		return -1;
	}
	m->protocol = tc_proto_rvtrace;
	m->svc_type = RVENC_EXEC_ECALL_U;
	m->no_start_trace_on = 1;
	m->svc_seen_after = 1;
	m->svc_has_tval = (uint8_t)!c.cfg->notval_p;   /* RV-P23: tval 0 for ecall (RV-E6) */
	m->svc_tval = 0;
	memset(&m->ctx, 0, sizeof m->ctx);
	r->protocol = "rvtrace";
	r->tags = NULL;
	return 0;
}
