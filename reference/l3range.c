/* SPDX-License-Identifier: BSD-3-Clause */
/* l3range.c — the L3 range being built, one walked instruction at a time (l3range.h). */
#include <string.h>

#include "l3range.h"

void tc_l3range_init(struct tc_l3range *r, int protocol, unsigned addr_bits,
		     void (*l3)(void *ctx, const struct tc_l3 *x), void *ctx)
{
	memset(r, 0, sizeof *r);
	r->protocol = protocol;
	r->addr_mask = addr_bits < 64 ? (UINT64_C(1) << addr_bits) - 1 : UINT64_MAX;
	r->l3 = l3;
	r->ctx = ctx;
}

void tc_l3range_blank(const struct tc_l3range *r, struct tc_l3 *x, int kind, uint64_t offset)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = (uint16_t)r->protocol;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

void tc_l3range_deliver(struct tc_l3range *r)
{
	if (!r->open)
		return;
	if (!r->ended) {
		r->range.last_type = tc_insn_other;
		r->range.taken = tc_taken_none;
	}
	r->l3(r->ctx, &r->range);
	r->open = 0;
	r->ended = 0;
}

void tc_l3range_emit(struct tc_l3range *r, const struct tc_l3 *x)
{
	tc_l3range_deliver(r);
	r->l3(r->ctx, x);
}

void tc_l3range_add(struct tc_l3range *r, uint64_t offset, uint64_t at, int isa, unsigned size, int type, int ends,
		    int executed)
{
	if (r->open && (r->ended || r->range.isa != isa || at != r->next))
		tc_l3range_deliver(r);
	if (!r->open) {
		tc_l3range_blank(r, &r->range, tc_l3_range, offset);
		r->range.first = at;
		r->range.isa = (uint8_t)isa;
		r->open = 1;
	}
	r->range.last = at;
	r->range.count++;
	r->next = (at + size) & r->addr_mask;
	if (ends) {
		int branch = type == tc_insn_branch_dir || type == tc_insn_branch_indir;
		r->range.last_type = (uint8_t)type;
		r->range.taken = (uint8_t)(!branch ? tc_taken_none : executed ? tc_taken_e : tc_taken_n);
		r->ended = 1;
	}
}

/* A last instruction that did not end the range has no taken (its type is other: only an
 * instruction that ends its range sets one), as tc_l3range_deliver gives it (ERRATA ETM2-P47). */
void tc_l3range_end(struct tc_l3range *r)
{
	if (!r->open || r->ended)
		return;
	r->range.taken = tc_taken_none;
	r->ended = 1;
}
