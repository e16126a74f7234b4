/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_internal.h — what the rvtrace modules share: the payload bit reader of a frame (rvtrace_frame.c). */
#ifndef TC_RVTRACE_INTERNAL_H
#define TC_RVTRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/image.h"
#include "tracecert/rvtrace.h"
#include "rvinsn.h"

/* The payload of one whole frame, read least-significant bit first (RV-F1,
 * RV-F2): bits 0 and 1 are byte 0's bits 6 and 7, the rest start at byte
 * `first` (1, or 2 in a long form). nbits = 8 × (bytes after `first` − 1) + 2.
 * pos is the next bit to take; past_end is set once a field ran past the
 * frame's end (its top bits were copies of the last bit: no padding). */
struct rv_bits {
	const uint8_t *b;
	size_t first;
	uint32_t nbits;
	uint32_t pos;
	int past_end;
};

/* The reader over frame b[0..len-1]; long_form: byte 1 is M (RV-F4). */
void rv_bits_init(struct rv_bits *r, const uint8_t *b, size_t len, int long_form);
/* Payload bit p (p < nbits). */
unsigned rv_bit(const struct rv_bits *r, uint32_t p);
/* A field that must lie whole in the frame (RV-F5): 0 and *v, or -1 when
 * the frame ends first (nothing is taken). width 0..64. */
int rv_take(struct rv_bits *r, unsigned width, uint64_t *v);
/* A field that may stop early (RV-F5): at least its first bit in the frame;
 * the bits past the end are copies of the frame's last payload bit. 0 and
 * *v (width bits), or -1 with no bit in the frame. width 1..64. */
int rv_take_ext(struct rv_bits *r, unsigned width, uint64_t *v);
/* The padding after the last field (RV-F6): 1 and its first 64 bits in
 * *bits when it is neither all 0 nor all copies of the bit before it
 * (the last field's last bit), else 0. */
int rv_padding_odd(const struct rv_bits *r, uint64_t *bits);

/* ---- L3 (rvtrace_analyze.c) ---- */

/* The state of the walk: the last reported instruction and where control goes after it, the base of
 * differential addresses, privilege and context, the range being built. */
struct rv_l3 {
	struct tc_rvtrace_config cfg;
	const struct tc_image *image;   /* NULL: every walk is no-image */
	void (*sink)(void *ctx, const struct tc_l3 *x);
	void *ctx;
	uint64_t offset;                /* the packet being analysed */
	int have_pos;                   /* a last reported instruction is known (RV-P9) */
	uint64_t last;                  /* its address */
	int updiscon;                   /* it was an uninferable jump or trap return: next unknown */
	uint64_t next;                  /* its successor in execution */
	int ended;                      /* te_support ended the trace (RV-P17) */
	int have_base;                  /* the base of differential addresses (RV-P5) */
	uint64_t base;
	int have_ctx;                   /* privilege and context known (RV-P9) */
	unsigned priv;
	uint32_t context;
	int have_prev;                  /* the instruction executed last, for Table 3.2's pairs (RV-P12) */
	struct tc_rvinsn prev;
	uint64_t rfirst, rlast, rn;     /* the open range */
};

void rv_l3_init(struct rv_l3 *a, const struct tc_rvtrace_config *cfg);
/* One L1 record (packet, error or warning), in stream order. */
void rv_l3_packet(struct rv_l3 *a, const struct tc_rvtrace_packet *p);
/* The end of the trace: the open range is given. */
void rv_l3_finish(struct rv_l3 *a);

#endif
