/* SPDX-License-Identifier: BSD-3-Clause */
/* l3range.h — the L3 range being built, one walked instruction at a time, for an analyzer whose
 * walk gives instructions one by one (reference/L3FORMAT.md "range"): an instruction joins the open
 * range when it follows its last one in the same instruction set, else the range is delivered and a
 * new one starts; any other item delivers the open range first. Protocol-neutral: the caller names
 * its protocol id and says which instruction ends a range. */
#ifndef TC_L3RANGE_H
#define TC_L3RANGE_H

#include <stdint.h>

#include "tracecert/trace.h"

struct tc_l3range {
	int protocol;             /* enum tc_protocol_id, of every item made */
	void (*l3)(void *ctx, const struct tc_l3 *x);
	void *ctx;
	struct tc_l3 range;       /* the range being built */
	int open, ended;          /* ended: its last instruction ended it (its type and taken are set) */
	uint64_t next;            /* the address that follows its last instruction */
	uint64_t addr_mask;       /* the addresses' bits: an address space that wraps at 2^32 or 2^64 */
};

/* addr_bits: 32 or 64, the width of the caller's addresses (the one after the last address of a
 * 32-bit space is 0). */
void tc_l3range_init(struct tc_l3range *r, int protocol, unsigned addr_bits,
		     void (*l3)(void *ctx, const struct tc_l3 *x), void *ctx);

/* An item of the caller's protocol of that kind at that offset, every other field 0. */
void tc_l3range_blank(const struct tc_l3range *r, struct tc_l3 *x, int kind, uint64_t offset);

/* The open range, if any, delivered; a range its last instruction did not end has type other and
 * no taken. */
void tc_l3range_deliver(struct tc_l3range *r);

/* An item that is not an instruction: the open range goes first. */
void tc_l3range_emit(struct tc_l3range *r, const struct tc_l3 *x);

/* One walked instruction at address at (its record at offset, isa an enum tc_isa, size and type
 * those of struct tc_insn): it joins the open range or starts one (whose offset is then its
 * first instruction's). ends: it ends its range, which takes its type and, for a branch (direct or
 * indirect), taken E when it executed, else N. */
void tc_l3range_add(struct tc_l3range *r, uint64_t offset, uint64_t at, int isa, unsigned size, int type, int ends,
		    int executed);

/* The open range ends with its last instruction: its type and taken stay as they are when that
 * instruction ended it (tc_l3range_add), else they are other and no taken (ERRATA ETM2-P47). */
void tc_l3range_end(struct tc_l3range *r);

#endif
