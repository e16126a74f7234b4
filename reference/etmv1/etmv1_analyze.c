/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_analyze.c — ETMv1 L3: the L1 items walked over the image (etmv1_walk.c) and written as the
 * shared L3 text's items (reference/etmv1/FORMAT.md "L3"; IHI 0014 §4.5.3 L7383-7446, §5.5.1 L8151,
 * §5.5.3 L8161, §5.11 L8430-8436; ERRATA ETM1-P15, P17, P19, P23, P26, P27, P38). */
#include <stdlib.h>
#include <string.h>

#include "clause.h"
#include "etmv1_internal.h"
#include "l3range.h"

struct tc_etmv1_analyzer {
	struct e1_walk walk;
	uint64_t offset;          /* the record of the item being analysed */
	struct tc_l3range ranges; /* the range being built, and where the items go */
};

static void blank_item(struct tc_etmv1_analyzer *a, struct tc_l3 *x, int kind)
{
	tc_l3range_blank(&a->ranges, x, kind, a->offset);
}

/* An item that is not an instruction: the range being built goes first. */
static void emit(struct tc_etmv1_analyzer *a, const struct tc_l3 *x)
{
	tc_l3range_emit(&a->ranges, x);
}

static void emit_simple(struct tc_etmv1_analyzer *a, int kind)
{
	struct tc_l3 x;
	blank_item(a, &x, kind);
	emit(a, &x);
}

static void emit_error(struct tc_etmv1_analyzer *a, int error)
{
	struct tc_l3 x;
	blank_item(a, &x, tc_l3_error);
	x.error = (uint8_t)error;
	emit(a, &x);
}

/* The instruction joins the range being built (l3range.h: a new one when it does not follow the
 * last, the last ended its range, or the instruction set changed). */
static void output_instruction(struct tc_etmv1_analyzer *a, const struct e1_step *s)
{
	tc_l3range_add(&a->ranges, a->offset, s->at, s->isa, s->in.size, s->in.type, s->ends, s->executed);
}

static void no_image(struct tc_etmv1_analyzer *a, const struct e1_step *s)
{
	struct tc_l3 x;
	blank_item(a, &x, tc_l3_no_image);
	x.address = s->at;
	x.isa = s->isa;
	emit(a, &x);
}

static void exception(struct tc_etmv1_analyzer *a, const struct e1_step *s)
{
	struct tc_l3 x;
	TC_CLAUSE_CASE(s->ret_unknown, "ETM1-P17/Exception");
	blank_item(a, &x, tc_l3_exception);
	x.type = s->type;
	x.address = s->ret;
	x.unknown = s->ret_unknown;
	emit(a, &x);
}

static void context(struct tc_etmv1_analyzer *a, uint32_t ctxid)
{
	struct tc_l3 x;
	TC_CLAUSE("5.6.3/Context");
	blank_item(a, &x, tc_l3_context);
	x.ctx.context_id = ctxid;
	emit(a, &x);
}

/* One step of the walk as L3 items, in FORMAT.md "L3"'s order. */
static void render(struct tc_etmv1_analyzer *a, const struct tc_etmv1_record *r, const struct e1_step *s)
{
	if (s->overflow)
		emit_simple(a, tc_l3_overflow);
	if (s->trace_on)
		emit_simple(a, tc_l3_trace_on);
	if (s->no_image)
		no_image(a, s);
	if (s->insn)
		output_instruction(a, s);
	if (s->exception)
		exception(a, s);
	if (s->context)
		context(a, r->ctxid);
	if (s->jazelle)
		emit_error(a, tc_etmv1_err_jazelle);
}

void tc_etmv1_analyze(struct tc_etmv1_analyzer *a, const struct tc_etmv1_record *r)
{
	struct e1_step s;
	if (!a || !r)
		return;
	a->offset = r->h.offset;
	e1_walk_step(&a->walk, r, &s);
	if (r->h.kind == tc_etmv1_trigger) {
		emit_simple(a, tc_l3_trigger);
	} else if (r->h.kind == tc_etmv1_error) {
		TC_CLAUSE("ETM1-P38/Error");
		emit_error(a, r->error);
	} else {
		render(a, r, &s);
	}
}

void tc_etmv1_analyze_flush(struct tc_etmv1_analyzer *a)
{
	if (a)
		tc_l3range_deliver(&a->ranges);
}

struct tc_etmv1_analyzer *tc_etmv1_analyzer_alloc(const struct tc_etmv1_config *cfg,
						  void (*l3)(void *ctx, const struct tc_l3 *x), void *ctx)
{
	if (!cfg || !l3 || tc_etmv1_config_check(cfg, NULL, 0) != 0)
		return NULL;
	struct tc_etmv1_analyzer *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	e1_walk_init(&a->walk, cfg);
	tc_l3range_init(&a->ranges, tc_proto_etmv1, 32, l3, ctx);
	return a;
}

void tc_etmv1_analyzer_set_image(struct tc_etmv1_analyzer *a, const struct tc_image *img)
{
	if (a)
		a->walk.img = img;
}

void tc_etmv1_analyzer_free(struct tc_etmv1_analyzer *a)
{
	free(a);
}

int tc_etmv1_format_l3(char *buf, size_t size, const struct tc_l3 *x)
{
	if (size > 0)
		buf[0] = '\0';
	if (!x)
		return 0;
	return tc_l3_format(buf, size, x, tc_etmv1_error_names, tc_etmv1_err_count);
}
