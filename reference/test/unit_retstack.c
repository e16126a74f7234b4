/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_retstack.c — the shared return stack (reference/retstack.c) at its edges: empty, full, reset, depth 1 and the maximum; prints TAP. */
#include <stdint.h>
#include <string.h>

#include "tap.h"

#include "retstack.h"

/* Pushes address base+i (isa i&3, ns i&1) for i in 0..count-1; returns how
 * many pushes said they discarded an entry. */
static int push_run(struct tc_retstack *rs, uint64_t base, int count)
{
	int discarded = 0;
	for (int i = 0; i < count; i++)
		discarded += tc_retstack_push(rs, base + (uint64_t)i, i & 3, i & 1);
	return discarded;
}

/* Pops count entries and checks they are base+first, base+first-1, … with
 * the isa and ns push_run gave them. */
static int pops_are(struct tc_retstack *rs, uint64_t base, int first, int count)
{
	for (int k = 0; k < count; k++) {
		struct tc_retstack_entry top;
		int i = first - k;
		if (!tc_retstack_pop(rs, &top)) {
			note("    - \"pop %d: the stack is empty\"\n", k);
			return 0;
		}
		if (top.address != base + (uint64_t)i || top.isa != (i & 3) || top.ns != (i & 1)) {
			note("    - \"pop %d: address 0x%llx isa %u ns %u, expected 0x%llx isa %d ns %d\"\n", k,
			     (unsigned long long)top.address, top.isa, top.ns, (unsigned long long)(base + (uint64_t)i),
			     i & 3, i & 1);
			return 0;
		}
	}
	return 1;
}

/* A pop of an empty stack says so and leaves *top as it was. */
static int empty_pop(struct tc_retstack *rs)
{
	struct tc_retstack_entry top = { 0x1234, 7, 1 };
	return tc_retstack_is_empty(rs) && tc_retstack_pop(rs, &top) == 0 && top.address == 0x1234 &&
	       top.isa == 7 && top.ns == 1 && tc_retstack_is_empty(rs);
}

static void test_init(void)
{
	struct tc_retstack rs;
	ok(tc_retstack_init(&rs, 1) == 0 && rs.depth == 1, "init: depth 1 is accepted");
	ok(tc_retstack_init(&rs, TC_RETSTACK_MAX_DEPTH) == 0 && rs.depth == TC_RETSTACK_MAX_DEPTH,
	   "init: depth TC_RETSTACK_MAX_DEPTH (%d) is accepted", TC_RETSTACK_MAX_DEPTH);
	ok(tc_retstack_init(&rs, 0) == -1 && rs.depth == 1 && tc_retstack_is_empty(&rs),
	   "init: depth 0 is refused, leaving an empty stack of depth 1");
	ok(tc_retstack_init(&rs, -3) == -1 && rs.depth == 1, "init: a negative depth is refused");
	ok(tc_retstack_init(&rs, TC_RETSTACK_MAX_DEPTH + 1) == -1 && rs.depth == 1,
	   "init: depth TC_RETSTACK_MAX_DEPTH + 1 is refused");
	memset(&rs, 0xa5, sizeof rs);
	ok(tc_retstack_init(&rs, 15) == 0 && empty_pop(&rs), "init: whatever the memory held, the stack is empty");
	memset(&rs, 0xa5, sizeof rs);
	tc_retstack_init(&rs, 3);
	ok(push_run(&rs, 0x500, 4) == 1 && rs.oldest < 3 && pops_are(&rs, 0x500, 3, 3) && empty_pop(&rs),
	   "init: whatever the memory held, the ring starts inside its depth");
}

static void test_empty(void)
{
	struct tc_retstack rs;
	tc_retstack_init(&rs, 15);
	ok(empty_pop(&rs), "empty: a pop returns 0 and leaves its output alone");
	push_run(&rs, 0x1000, 2);
	ok(pops_are(&rs, 0x1000, 1, 2) && empty_pop(&rs), "empty: two pushes, two pops (newest first), then empty again");
}

/* A stack of depth d filled with d + extra entries keeps the newest d. */
static void test_full(int d, int extra)
{
	struct tc_retstack rs;
	int discarded;
	tc_retstack_init(&rs, d);
	discarded = push_run(&rs, 0x40000, d);
	ok(discarded == 0 && rs.n == d, "depth %d: %d pushes fill it, none discards", d, d);
	discarded = push_run(&rs, 0x40000 + (uint64_t)d, extra);
	ok(discarded == extra && rs.n == d, "depth %d: each of %d pushes onto the full stack discards one entry", d, extra);
	ok(pops_are(&rs, 0x40000 + (uint64_t)d, extra - 1, extra < d ? extra : d) &&
	   (extra >= d || pops_are(&rs, 0x40000, d - 1, d - extra)) && empty_pop(&rs),
	   "depth %d: the pops give the newest %d entries, newest first; the oldest %d are gone", d, d, extra);
}

static void test_reset(void)
{
	struct tc_retstack rs;
	tc_retstack_init(&rs, 15);
	push_run(&rs, 0x2000, 20);    /* wrapped around its storage */
	tc_retstack_reset(&rs);
	ok(empty_pop(&rs) && rs.depth == 15, "reset: a full, wrapped stack is empty, its depth kept");
	ok(push_run(&rs, 0x3000, 15) == 0 && tc_retstack_push(&rs, 0x3000 + 15, 15 & 3, 15 & 1) == 1,
	   "reset: it fills again to its depth before a push discards");
	ok(pops_are(&rs, 0x3000, 15, 15) && empty_pop(&rs), "reset: the pops give the entries pushed since");
	tc_retstack_reset(&rs);
	ok(empty_pop(&rs), "reset: an empty stack stays empty");
}

/* Pops in the middle of filling: pushes after a pop reuse its slot, and the
 * stack is full again only at depth entries. */
static void test_interleaved(void)
{
	struct tc_retstack rs;
	struct tc_retstack_entry top;
	tc_retstack_init(&rs, 3);
	push_run(&rs, 0x10, 3);                  /* 0x10 0x11 0x12 */
	tc_retstack_pop(&rs, &top);              /* 0x10 0x11 */
	ok(top.address == 0x12 && tc_retstack_push(&rs, 0x20, 1, 0) == 0,
	   "interleaved: after a pop, one push fits without discarding");
	ok(tc_retstack_push(&rs, 0x21, 0, 1) == 1, "interleaved: the next push discards the oldest (0x10)");
	ok(tc_retstack_pop(&rs, &top) && top.address == 0x21 && top.isa == 0 && top.ns == 1 &&
	   tc_retstack_pop(&rs, &top) && top.address == 0x20 && top.isa == 1 && top.ns == 0 &&
	   tc_retstack_pop(&rs, &top) && top.address == 0x11 && empty_pop(&rs),
	   "interleaved: pops give 0x21, 0x20, 0x11, then nothing");
}

/* The full 64-bit address and each isa and ns value survive a push and a pop. */
static void test_fields(void)
{
	struct tc_retstack rs;
	struct tc_retstack_entry top;
	tc_retstack_init(&rs, 2);
	tc_retstack_push(&rs, UINT64_C(0xffffffffffffffff), 255, 1);
	ok(tc_retstack_pop(&rs, &top) && top.address == UINT64_C(0xffffffffffffffff) && top.isa == 255 && top.ns == 1,
	   "fields: address 2^64-1, isa 255, ns 1 come back");
	tc_retstack_push(&rs, 0, 0, 0);
	ok(tc_retstack_pop(&rs, &top) && top.address == 0 && top.isa == 0 && top.ns == 0,
	   "fields: address 0, isa 0, ns 0 come back");
}

/* Against a model written the plain way (an array, the oldest at 0, shifted
 * down when full), random pushes, pops and resets at every depth. */
static void test_model(void)
{
	uint64_t s = 0x9e3779b97f4a7c15u;
	int bad = 0;
	for (int d = 1; d <= TC_RETSTACK_MAX_DEPTH && !bad; d++) {
		struct tc_retstack rs;
		uint64_t model[TC_RETSTACK_MAX_DEPTH];
		int n = 0;
		tc_retstack_init(&rs, d);
		for (int step = 0; step < 4000 && !bad; step++) {
			struct tc_retstack_entry top;
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			unsigned op = (unsigned)(s % 100);
			if (op < 60) {
				int full = n == d, r = tc_retstack_push(&rs, s, (int)(s >> 8) & 3, (int)(s >> 10) & 1);
				if (full) {
					memmove(model, model + 1, (size_t)(d - 1) * sizeof model[0]);
					n--;
				}
				model[n++] = s;
				bad = r != full;
			} else if (op < 98) {
				int r = tc_retstack_pop(&rs, &top);
				bad = r != (n > 0) || (n > 0 && (top.address != model[n - 1] ||
							  top.isa != ((model[n - 1] >> 8) & 3) ||
							  top.ns != ((model[n - 1] >> 10) & 1)));
				n -= n > 0;
			} else {
				tc_retstack_reset(&rs);
				n = 0;
			}
			bad |= rs.n != n;
			if (bad)
				note("    - \"depth %d, step %d (op %u): differs from the model\"\n", d, step, op);
		}
	}
	ok(!bad, "model: 4000 random pushes, pops and resets at every depth 1..%d agree with a plain array",
	   TC_RETSTACK_MAX_DEPTH);
}

int main(void)
{
	test_init();
	test_empty();
	test_full(1, 1);
	test_full(1, 5);
	test_full(15, 1);
	test_full(15, 40);
	test_full(TC_RETSTACK_MAX_DEPTH, 3);
	test_full(TC_RETSTACK_MAX_DEPTH, 2 * TC_RETSTACK_MAX_DEPTH + 5);
	test_reset();
	test_interleaved();
	test_fields();
	test_model();
	return tap_finish();
}
