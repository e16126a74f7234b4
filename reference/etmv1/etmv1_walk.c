/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_walk.c — the walk over an ARMv4T/ARMv5TE image: the instruction at the current address
 * (reference/insn.c), its data transfers (reference/armxfer.c), where each L1 item leaves the walk.
 * One walk for both uses: the value lengths L1 asks for (struct tc_etmv1_walk, ETM1-P10, P31, P36,
 * P37) and the steps etmv1_analyze.c turns into L3 (reference/etmv1/FORMAT.md "L3"; IHI 0014
 * Table 5-1 L7954-7972, Table 5-2 L8128-8143, §4.5.3 L7383-7446, §4.10, §4.11; ERRATA ETM1-P15,
 * P17, P19, P23, P25, P26, P38). */
#include <stdlib.h>
#include <string.h>

#include "armvec.h"
#include "armxfer.h"
#include "clause.h"
#include "etmv1_internal.h"
#include "insn.h"

void e1_walk_init(struct e1_walk *w, const struct tc_etmv1_config *cfg)
{
	memset(w, 0, sizeof *w);
	w->cfg = *cfg;
}

static int l3_isa(int isa)
{
	return isa == tc_etmv1_isa_thumb ? tc_isa_t32 : tc_isa_a32;
}

/* The instruction at the walk's address; 0 when the image does not hold it whole. */
static int decode_at(const struct e1_walk *w, struct tc_insn *in)
{
	size_t avail = 0;
	const uint8_t *b = w->img ? tc_image_lookup(w->img, w->pc, &avail) : NULL;
	return b && tc_insn_decode(l3_isa(w->isa), w->pc, b, avail, 0, in) > 0;
}

static int is_branch(const struct tc_insn *in)
{
	return in->type == tc_insn_branch_dir || in->type == tc_insn_branch_indir;
}

/* Nothing walks until the next branch address (an error, a gap, an unassigned run, ETM1-P33). */
static void stop(struct e1_walk *w)
{
	w->valid = 0;
	w->half = 0;
	w->after_abandon = 0;
	w->jazelle = 0;
}

/* §4.5.3 (L7383-7446), ETM1-P17: the vector an ARM branch address is, by the hivecs key; its type
 * (Table 7-12's numbers) and whether it cancels the instruction it struck. 0 for no vector. */
static int vector(const struct e1_walk *w, const struct tc_etmv1_record *r, uint16_t *type, int *cancels)
{
	static const uint8_t cancel[8] = { 1, 0, 0, 1, 0, 0, 1, 1 };
	int k = tc_armvec_slot(r->addr, w->cfg.hivecs);
	if (r->isa != tc_etmv1_isa_arm || k < 0 || !tc_armvec_type(k))
		return 0;
	TC_CLAUSE_CASE(k, "ETM1-P17/Vector");
	*type = tc_armvec_type(k);
	*cancels = cancel[k];
	return 1;
}

/* The walk stands at a branch's address (or, in Jazelle state, nowhere it follows: ETM1-P23). */
static void move_to(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s)
{
	w->pc = r->addr;
	w->isa = r->isa;
	w->half = 0;
	w->valid = r->isa != tc_etmv1_isa_jazelle;
	if (r->isa == tc_etmv1_isa_jazelle) {
		TC_CLAUSE("ETM1-P23/Enter");
		w->jazelle = 1;
		s->jazelle = 1;
	}
}

/* The instruction at the walk's address joins the step, executed or not. */
static void take_insn(struct e1_walk *w, const struct tc_insn *in, int executed, struct e1_step *s)
{
	s->insn = 1;
	s->at = w->pc;
	s->isa = (uint8_t)l3_isa(w->isa);
	s->in = *in;
	s->executed = (uint8_t)executed;
	s->ends = (uint8_t)is_branch(in);
}

/* An IE, ID or IN (Table 5-1): one instruction; a direct branch executed goes to its target, an
 * indirect one IE or ID leaves the walk waiting for the next branch address (ETM1-P38). The first
 * PIPESTAT of a Thumb BL pair walks nothing (ETM1-P25). */
static void step_insn(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s)
{
	struct tc_insn in;
	if (!w->valid)
		return;
	if (!decode_at(w, &in)) {
		TC_CLAUSE("ETM1-P38/NoImage");
		s->no_image = 1;
		s->at = w->pc;
		s->isa = (uint8_t)l3_isa(w->isa);
		w->valid = 0;
		return;
	}
	if (w->isa == tc_etmv1_isa_thumb && in.size == 4 && !w->half) {
		TC_CLAUSE("ETM1-P25");
		w->half = 1;
		return;
	}
	w->half = 0;
	int executed = r->h.kind != tc_etmv1_in;
	TC_CLAUSE_CASE(executed, "ETM1-P26");
	take_insn(w, &in, executed, s);
	if (executed && in.type == tc_insn_branch_dir) {
		w->pc = (uint32_t)in.target;
		w->isa = in.next_isa == tc_isa_a32 ? tc_etmv1_isa_arm : tc_etmv1_isa_thumb;
	} else if (executed && in.type == tc_insn_branch_indir) {
		TC_CLAUSE("ETM1-P38/IndirectIE");
		w->valid = 0;
	} else {
		w->pc += in.size;
	}
}

/* A branch whose instruction the walk knows (valid): at a vector, an exception that cancels the
 * instruction or follows it (ETM1-P17); else the instruction ends its range. */
static void branch_insn(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s)
{
	struct tc_insn in;
	uint16_t type = 0;
	int cancels = 0;
	int exc = vector(w, r, &type, &cancels);
	int known = decode_at(w, &in);
	if (!known) {
		TC_CLAUSE("ETM1-P38/NoImageBranch");
		s->no_image = 1;
		s->at = w->pc;
		s->isa = (uint8_t)l3_isa(w->isa);
	}
	if (exc) {
		s->exception = 1;
		s->type = type;
		s->ret = w->pc;
		s->ret_unknown = (uint8_t)(!cancels && !known);
		if (!cancels && known)
			s->ret = w->pc + in.size;
	}
	if (known && !(exc && cancels)) {
		take_insn(w, &in, 1, s);
		s->ends = 1;
	}
}

/* ETM1-P19: an abandoned branch, and the branch after one. */
static int step_abandon(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s)
{
	uint16_t type = 0;
	int cancels = 0;
	if (r->abandoned && w->cfg.abandoned_discard) {
		TC_CLAUSE("ETM1-P19/Discard");
		return 1;   /* nothing: the next branch is this instruction's */
	}
	if (r->abandoned) {
		TC_CLAUSE("ETM1-P19/Abandoned");
		if (w->valid) {
			struct tc_insn in;
			if (decode_at(w, &in)) {
				take_insn(w, &in, 1, s);
				s->ends = 1;
			}
		}
		w->valid = 0;
		w->half = 0;
		w->after_abandon = 1;
		w->abandoned_addr = r->addr;
		return 1;
	}
	if (!w->after_abandon)
		return 0;
	TC_CLAUSE("ETM1-P19/After");
	w->after_abandon = 0;
	if (vector(w, r, &type, &cancels)) {
		s->exception = 1;
		s->type = type;
		s->ret = w->abandoned_addr;
	}
	move_to(w, r, s);
	return 1;
}

/* A BE or BD with its address (ETM1-P15, P17, P19, P23). */
static void step_branch(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s)
{
	if (!r->has_addr) {
		stop(w);
		return;
	}
	if (w->jazelle) {
		if (r->npkts < 5 || r->isa == tc_etmv1_isa_jazelle)
			return;   /* still in Jazelle state: nothing walks (ETM1-P23) */
		TC_CLAUSE("ETM1-P23/Leave");
		w->jazelle = 0;
		w->valid = 0;
	}
	if (r->has_reason && r->reason >= 1 && r->reason <= 3) {
		TC_CLAUSE_CASE(r->reason, "ETM1-P15/Restart");
		s->overflow = r->reason == 2;
		s->trace_on = r->reason != 2;
		w->after_abandon = 0;
		move_to(w, r, s);
		return;
	}
	if (step_abandon(w, r, s))
		return;
	if (w->valid) {
		branch_insn(w, r, s);
	} else {
		uint16_t type = 0;
		int cancels = 0;
		if (vector(w, r, &type, &cancels)) {
			s->exception = 1;
			s->type = type;
			s->ret_unknown = 1;
		}
	}
	move_to(w, r, s);
}

/* Where an L1 item leaves the walk, and what it walked (s zeroed here). */
void e1_walk_step(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s)
{
	memset(s, 0, sizeof *s);
	switch (r->h.kind) {
	case tc_etmv1_ie:
	case tc_etmv1_id:
	case tc_etmv1_in:
		if (!w->jazelle)
			step_insn(w, r, s);
		break;
	case tc_etmv1_be:
	case tc_etmv1_bd: step_branch(w, r, s); break;
	case tc_etmv1_error:
	case tc_etmv1_gap:
	case tc_etmv1_unassigned: stop(w); break;
	default: break;   /* trigger, trace-disabled, warning */
	}
	if (r->has_ctxid && (r->h.kind == tc_etmv1_be || r->h.kind == tc_etmv1_bd) &&
	    (!w->ctx_valid || w->ctxid != r->ctxid)) {
		s->context = 1;
		w->ctxid = r->ctxid;
		w->ctx_valid = 1;
	}
}

/* Table 5-2 (L8133-8135), ETM1-P10, P31, P36, P37: the values the instruction at the walk's
 * address owes: memory transfers when data values are traced, CPRT ones when cprt=1. */
void e1_walk_transfers(const struct e1_walk *w, struct tc_etmv1_transfers *t)
{
	struct tc_armxfer x;
	size_t avail = 0;
	memset(t, 0, sizeof *t);
	const uint8_t *b = w->valid && w->img ? tc_image_lookup(w->img, w->pc, &avail) : NULL;
	if (!b || tc_armxfer_decode(l3_isa(w->isa), b, avail, &x) <= 0) {
		t->status = 1;
		return;
	}
	TC_CLAUSE_CASE(x.kind, "ETM1-P37");
	int memory = x.kind == tc_xfer_load || x.kind == tc_xfer_store || x.kind == tc_xfer_swap;
	int cprt = x.kind == tc_xfer_mrc || x.kind == tc_xfer_mcr;
	if ((x.kind == tc_xfer_ldc || x.kind == tc_xfer_stc) && w->cfg.data_value) {
		t->status = 2;
		return;
	}
	if ((memory && w->cfg.data_value) || (cprt && w->cfg.cprt)) {
		t->n = x.count > TC_ETMV1_MAX_VALUES ? TC_ETMV1_MAX_VALUES : x.count;
		for (unsigned i = 0; i < t->n; i++)
			t->size[i] = x.bytes;
	}
	t->no_address = cprt;   /* L7903 (ETM1-P52) */
}

/* ---- The walk L1 is given (tracecert/etmv1.h) ---------------------------------------- */

struct tc_etmv1_imagewalk {
	struct e1_walk w;
};

static void on_retire(void *ctx, const struct tc_etmv1_record *r)
{
	struct e1_step s;
	e1_walk_step(&((struct tc_etmv1_imagewalk *)ctx)->w, r, &s);
}

static void on_transfers(void *ctx, const struct tc_etmv1_record *r, struct tc_etmv1_transfers *t)
{
	(void)r;
	e1_walk_transfers(&((struct tc_etmv1_imagewalk *)ctx)->w, t);
}

struct tc_etmv1_imagewalk *tc_etmv1_imagewalk_alloc(const struct tc_etmv1_config *cfg)
{
	if (!cfg || tc_etmv1_config_check(cfg, NULL, 0) != 0)
		return NULL;
	struct tc_etmv1_imagewalk *iw = calloc(1, sizeof *iw);
	if (iw)
		e1_walk_init(&iw->w, cfg);
	return iw;
}

void tc_etmv1_imagewalk_set_image(struct tc_etmv1_imagewalk *iw, const struct tc_image *img)
{
	if (iw)
		iw->w.img = img;
}

struct tc_etmv1_walk tc_etmv1_imagewalk_callbacks(struct tc_etmv1_imagewalk *iw)
{
	struct tc_etmv1_walk k = { iw, on_retire, on_transfers };
	return k;
}

void tc_etmv1_imagewalk_free(struct tc_etmv1_imagewalk *iw)
{
	free(iw);
}
