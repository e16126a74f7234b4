/* SPDX-License-Identifier: BSD-3-Clause */
/* retstack.c — the trace analyzer's return stack, for every protocol (retstack.h). */
#include "retstack.h"

int tc_retstack_init(struct tc_retstack *rs, int depth)
{
	int ok = depth >= 1 && depth <= TC_RETSTACK_MAX_DEPTH;
	rs->depth = (uint8_t)(ok ? depth : 1);
	rs->oldest = 0;
	tc_retstack_reset(rs);
	return ok ? 0 : -1;
}

/* The index i entries after the oldest. */
static unsigned slot(const struct tc_retstack *rs, unsigned i)
{
	unsigned at = rs->oldest + i;
	return at < rs->depth ? at : at - rs->depth;
}

int tc_retstack_push(struct tc_retstack *rs, uint64_t address, int isa, int ns)
{
	struct tc_retstack_entry *e;
	int full = rs->n == rs->depth;
	if (full) {   /* the oldest entry goes: its slot takes the new one */
		rs->oldest = (uint8_t)slot(rs, 1);
		rs->n--;
	}
	e = &rs->entry[slot(rs, rs->n)];
	e->address = address;
	e->isa = (uint8_t)isa;
	e->ns = (uint8_t)ns;
	rs->n++;
	return full;
}

int tc_retstack_pop(struct tc_retstack *rs, struct tc_retstack_entry *top)
{
	if (rs->n == 0)
		return 0;
	rs->n--;
	*top = rs->entry[slot(rs, rs->n)];
	return 1;
}

/* The ring may start anywhere: only n says what it holds. */
void tc_retstack_reset(struct tc_retstack *rs)
{
	rs->n = 0;
}
