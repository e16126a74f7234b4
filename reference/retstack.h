/* SPDX-License-Identifier: BSD-3-Clause */
/* retstack.h — the trace analyzer's return stack, for every protocol whose trace unit predicts returns.
 *
 * What the texts share: a push on a taken branch with link, a pop of the
 * newest entry for the target of an indirect branch the trace left out, a
 * push onto a full stack discarding the oldest entry, a reset emptying it.
 * What differs between protocols is passed in by the caller, which cites
 * its text where it calls:
 *   - the depth (tc_retstack_init), 1..TC_RETSTACK_MAX_DEPTH;
 *   - what an entry holds beside the address: the instruction set as the
 *     protocol numbers it, and a security state for a protocol whose entries
 *     carry one (0 for one whose do not);
 *   - when a push, pop or reset happens, and what an empty stack's pop means
 *     (tc_retstack_pop says that nothing was popped; the caller decides). */
#ifndef TC_RETSTACK_H
#define TC_RETSTACK_H

#include <stdint.h>

/* The deepest stack a decoder may ask for. Storage is fixed (no allocation,
 * nothing to free): every depth a text or a known decoder uses (15; 16) fits
 * with room for an alternative reading that asks for a deeper one. */
#define TC_RETSTACK_MAX_DEPTH 64

struct tc_retstack_entry {
	uint64_t address;     /* the return address */
	uint8_t isa;          /* the instruction set to return in, as the protocol numbers it */
	uint8_t ns;           /* the security state to return in; 0 where entries carry none */
};

/* A ring of depth entries: the oldest at index oldest, the newest n - 1 after it. */
struct tc_retstack {
	struct tc_retstack_entry entry[TC_RETSTACK_MAX_DEPTH];
	uint8_t depth;        /* entries it holds at most */
	uint8_t n;            /* entries it holds */
	uint8_t oldest;       /* index of the oldest entry (when n > 0) */
};

/* An empty stack of depth entries. Returns 0, or -1 when depth is outside
 * 1..TC_RETSTACK_MAX_DEPTH (then the stack is empty with depth 1). */
int tc_retstack_init(struct tc_retstack *rs, int depth);

/* Pushes an entry. On a full stack the oldest entry is discarded first;
 * returns 1 then, 0 otherwise. */
int tc_retstack_push(struct tc_retstack *rs, uint64_t address, int isa, int ns);

/* Pops the newest entry into *top and returns 1; returns 0 and leaves *top
 * alone when the stack is empty. */
int tc_retstack_pop(struct tc_retstack *rs, struct tc_retstack_entry *top);

/* Empties the stack (the depth stays). */
void tc_retstack_reset(struct tc_retstack *rs);

static inline int tc_retstack_is_empty(const struct tc_retstack *rs)
{
	return rs->n == 0;
}

#endif
