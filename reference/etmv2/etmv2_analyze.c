/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_analyze.c — ETMv2 L3: the L1 items walked over an ARMv4T/ARMv5TE image (reference/insn.c)
 * and written as the shared L3 text's items (reference/etmv1/FORMAT.md "L3"; IHI 0014 Table 6-1
 * L8460-8490, §6.1.2 L8509-8513, §6.1.5 L8527-8542, §6.5.1 L8858-8859, Table 6-7 L9009-9016,
 * §6.7.1 L9124, L9174-9197, §4.5.3 L7383-7446; ERRATA ETM2-P7, P8, P9, P13, P14, P15, P16, P27,
 * P28). Data packets give nothing at L3 (ETM2-P14). */
#include <stdlib.h>
#include <string.h>

#include "armvec.h"
#include "clause.h"
#include "insn.h"
#include "l3range.h"
#include "tracecert/etmv2.h"
#include "tracecert/image.h"

/* The most recent instruction walked: a branch address in a later packet of its cycle or of a DW
 * cycle may end it or cancel it (ETM2-P7, P9, P27). */
struct e2_pending {
	int has;
	uint64_t offset;          /* its cycle's record */
	uint32_t at;
	uint8_t isa;              /* enum tc_isa */
	uint8_t executed;
	struct tc_insn in;
};

struct tc_etmv2_analyzer {
	struct tc_etmv2_config cfg;
	const struct tc_image *img;
	uint64_t offset;          /* the record of the item being analysed */
	/* the walk */
	int valid;                /* the walk knows where the next instruction is */
	uint32_t pc;
	uint8_t isa;              /* enum tc_etmv2_isa */
	int half;                 /* the first status of a Thumb BL pair was walked (ETM2-P27) */
	uint32_t ctxid;
	int ctx_valid;
	struct e2_pending pend;
	struct tc_l3range ranges; /* the range being built, and where the items go */
};

static int l3_isa(int isa)
{
	return isa == tc_etmv2_isa_thumb ? tc_isa_t32 : tc_isa_a32;
}

static void blank_item(struct tc_etmv2_analyzer *a, struct tc_l3 *x, int kind, uint64_t offset)
{
	tc_l3range_blank(&a->ranges, x, kind, offset);
}

/* An item that is not an instruction: the range being built goes first. */
static void emit(struct tc_etmv2_analyzer *a, const struct tc_l3 *x)
{
	tc_l3range_emit(&a->ranges, x);
}

static void emit_simple(struct tc_etmv2_analyzer *a, int kind)
{
	struct tc_l3 x;
	blank_item(a, &x, kind, a->offset);
	emit(a, &x);
}

static int is_branch(const struct tc_insn *in)
{
	return in->type == tc_insn_branch_dir || in->type == tc_insn_branch_indir;
}

/* The instruction joins the range being built (l3range.h: a new one when it does not follow the
 * last, the last ended its range, or the instruction set changed); a branch ends its range. */
static void output_instruction(struct tc_etmv2_analyzer *a, const struct e2_pending *p, int ends)
{
	tc_l3range_add(&a->ranges, p->offset, p->at, p->isa, p->in.size, p->in.type, ends || is_branch(&p->in),
		       p->executed);
}

/* The most recent instruction is no longer one a branch address can cancel: it joins the range. */
static void commit(struct tc_etmv2_analyzer *a)
{
	if (!a->pend.has)
		return;
	output_instruction(a, &a->pend, 0);
	a->pend.has = 0;
}

/* Nothing walks until the next branch or TFO address (an error, a gap). */
static void stop(struct tc_etmv2_analyzer *a)
{
	a->valid = 0;
	a->half = 0;
}

static void move_to(struct tc_etmv2_analyzer *a, uint32_t addr, int isa)
{
	a->pc = addr;
	a->isa = (uint8_t)isa;
	a->half = 0;
	a->valid = 1;
}

/* The instruction at the walk's address; 0 when the image does not hold it whole. */
static int decode_at(const struct tc_etmv2_analyzer *a, struct tc_insn *in)
{
	size_t avail = 0;
	const uint8_t *b = a->img ? tc_image_lookup(a->img, a->pc, &avail) : NULL;
	return b && tc_insn_decode(l3_isa(a->isa), a->pc, b, avail, 0, in) > 0;
}

/* ETM2-P16: the image does not hold the instruction: `no-image`, and the walk waits for the next
 * branch address. */
static void no_image(struct tc_etmv2_analyzer *a)
{
	struct tc_l3 x;
	TC_CLAUSE("ETM2-P16");
	commit(a);
	blank_item(a, &x, tc_l3_no_image, a->offset);
	x.address = a->pc;
	x.isa = (uint8_t)l3_isa(a->isa);
	emit(a, &x);
	stop(a);
}

/* One instruction at the walk's address, executed or not (Table 6-1): it becomes the most recent
 * one; an executed direct branch moves the walk to its target, an executed indirect one leaves it
 * waiting for its branch address. The first status of a Thumb BL pair walks nothing (ETM2-P27).
 * 1 when an instruction was walked; ends: the instruction ends its range now (a phantom's
 * branch, which nothing after it can cancel). */
static int walk_insn(struct tc_etmv2_analyzer *a, int executed, int ends)
{
	struct tc_insn in;
	if (!a->valid)
		return 0;
	if (!decode_at(a, &in)) {
		no_image(a);
		return 0;
	}
	if (a->isa == tc_etmv2_isa_thumb && in.size == 4 && !a->half) {
		TC_CLAUSE("ETM2-P27/BLPair");
		a->half = 1;
		return 0;
	}
	a->half = 0;
	commit(a);
	struct e2_pending p = { 1, a->offset, a->pc, (uint8_t)l3_isa(a->isa), (uint8_t)executed, in };
	if (executed && in.type == tc_insn_branch_dir) {
		a->pc = (uint32_t)in.target;
		a->isa = in.next_isa == tc_isa_a32 ? tc_etmv2_isa_arm : tc_etmv2_isa_thumb;
	} else if (executed && in.type == tc_insn_branch_indir) {
		a->valid = 0;   /* its address comes in a branch address packet */
	} else {
		a->pc += in.size;
	}
	if (ends)
		output_instruction(a, &p, 1);
	else
		a->pend = p;
	return 1;
}

/* ETM2-P8: a phantom is the direct branch at the walk's address (taken for b1000-b1011, not for
 * b1100-b1111), then the item's instruction at its target or after it. */
static void phantom(struct tc_etmv2_analyzer *a, const struct tc_etmv2_record *r)
{
	TC_CLAUSE_CASE(r->phantom, "ETM2-P8");
	walk_insn(a, r->phantom == tc_etmv2_phantom_taken, 1);
}

static void instruction(struct tc_etmv2_analyzer *a, const struct tc_etmv2_record *r)
{
	int executed = r->h.kind == tc_etmv2_ie || r->h.kind == tc_etmv2_de;
	if (r->phantom != tc_etmv2_phantom_none)
		phantom(a, r);
	walk_insn(a, executed, 0);
}

/* §4.5.3 (L7383-7446), ETM2-P15: the vector an ARM branch address is, by the hivecs key, as
 * Table 7-12's numbers (ETM1-P17's); 0 for no vector. */
static uint16_t vector_type(const struct tc_etmv2_analyzer *a, uint32_t addr, int isa)
{
	int k = tc_armvec_slot(addr, a->cfg.hivecs);
	if (isa != tc_etmv2_isa_arm || k < 0)
		return 0;
	TC_CLAUSE_CASE(k, "ETM2-P15/Vector");
	return tc_armvec_type(k);
}

static void exception(struct tc_etmv2_analyzer *a, uint16_t type, uint32_t ret, int unknown)
{
	struct tc_l3 x;
	blank_item(a, &x, tc_l3_exception, a->offset);
	x.type = type;
	x.address = ret;
	x.unknown = (uint8_t)unknown;
	emit(a, &x);
}

/* §6.7.1 (L9124, L9174-9197), ETM2-P7, P9, P15, P27: a branch address is the most recent
 * instruction's: with E = 1 that instruction was cancelled and leaves the range, else it executed
 * and ends it; at a vector, or with E = 1, an exception; the walk moves to the address. */
static void branch(struct tc_etmv2_analyzer *a, const struct tc_etmv2_record *r)
{
	uint16_t type = vector_type(a, r->addr, r->isa);
	int e = r->has_e && r->e;
	TC_CLAUSE_CASE(e, "ETM2-P9/E");
	if (a->pend.has && e) {
		uint32_t ret = a->pend.at;
		a->pend.has = 0;
		exception(a, type, ret, 0);
	} else if (a->pend.has) {
		a->pend.executed = 1;
		output_instruction(a, &a->pend, 1);
		a->pend.has = 0;
		if (type)
			exception(a, type, a->pend.at + a->pend.in.size, 0);
	} else {
		TC_CLAUSE("ETM2-P27/NoInstruction");
		tc_l3range_end(&a->ranges);
		if (type || e)
			exception(a, type, 0, 1);
	}
	move_to(a, r->addr, r->isa);
}

static void context(struct tc_etmv2_analyzer *a, uint32_t ctxid)
{
	struct tc_l3 x;
	if (a->ctx_valid && a->ctxid == ctxid)
		return;
	TC_CLAUSE("6.4.5/Context");
	a->ctxid = ctxid;
	a->ctx_valid = 1;
	blank_item(a, &x, tc_l3_context, a->offset);
	x.ctx.context_id = ctxid;
	emit(a, &x);
}

/* Table 6-7 (L9009-9016), ETM2-P13, P28: the TFO packet. Reasons b01 and b11 are `trace-on`, b10
 * `overflow`; then the Context ID; the walk stands at the address. Reason b00 is the periodic TFO:
 * the instruction at the address is the TFO cycle's implied IE. LSiP: the LSM at the address is
 * executed and the walk stands at the current address. */
static void tfo_packet(struct tc_etmv2_analyzer *a, const struct tc_etmv2_record *r)
{
	TC_CLAUSE_CASE(r->reason, "ETM2-P13");
	commit(a);
	if (r->reason == 2)
		emit_simple(a, tc_l3_overflow);
	else if (r->reason != 0)
		emit_simple(a, tc_l3_trace_on);
	if (r->has_ctxid)
		context(a, r->ctxid);
	move_to(a, r->addr, r->isa);
	if (r->lsip) {
		walk_insn(a, 1, 0);
		if (r->has_cur)
			move_to(a, r->cur, r->cur_isa);
	} else if (r->reason == 0) {
		walk_insn(a, 1, 0);
	}
}

void tc_etmv2_analyze(struct tc_etmv2_analyzer *a, const struct tc_etmv2_record *r)
{
	if (!a || !r)
		return;
	a->offset = r->h.offset;
	switch (r->h.kind) {
	case tc_etmv2_ie:
	case tc_etmv2_de:
	case tc_etmv2_in:
	case tc_etmv2_dn: instruction(a, r); break;
	case tc_etmv2_tfo: commit(a); break;
	case tc_etmv2_tfo_packet: tfo_packet(a, r); break;
	case tc_etmv2_branch: branch(a, r); break;
	case tc_etmv2_context_id:
		commit(a);
		context(a, r->ctxid);
		break;
	case tc_etmv2_trigger:
		commit(a);
		emit_simple(a, tc_l3_trigger);
		break;
	case tc_etmv2_error: {
		struct tc_l3 x;
		TC_CLAUSE("ETM2-P28/Error");
		commit(a);
		blank_item(a, &x, tc_l3_error, a->offset);
		x.error = r->error;
		emit(a, &x);
		stop(a);
		break;
	}
	case tc_etmv2_gap:
		commit(a);
		stop(a);
		break;
	default: break;   /* dw, trace-disabled, warning, data packets (ETM2-P14) */
	}
}

void tc_etmv2_analyze_flush(struct tc_etmv2_analyzer *a)
{
	if (!a)
		return;
	commit(a);
	tc_l3range_deliver(&a->ranges);
}

struct tc_etmv2_analyzer *tc_etmv2_analyzer_alloc(const struct tc_etmv2_config *cfg,
						  void (*l3)(void *ctx, const struct tc_l3 *x), void *ctx)
{
	if (!cfg || !l3 || tc_etmv2_config_check(cfg, NULL, 0) != 0)
		return NULL;
	struct tc_etmv2_analyzer *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->cfg = *cfg;
	tc_l3range_init(&a->ranges, tc_proto_etmv2, 32, l3, ctx);
	return a;
}

void tc_etmv2_analyzer_set_image(struct tc_etmv2_analyzer *a, const struct tc_image *img)
{
	if (a)
		a->img = img;
}

void tc_etmv2_analyzer_free(struct tc_etmv2_analyzer *a)
{
	free(a);
}

int tc_etmv2_format_l3(char *buf, size_t size, const struct tc_l3 *x)
{
	if (size > 0)
		buf[0] = '\0';
	if (!x)
		return 0;
	return tc_l3_format(buf, size, x, tc_etmv2_error_names, tc_etmv2_err_count);
}
