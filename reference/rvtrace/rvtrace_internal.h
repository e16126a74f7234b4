/* rvtrace_internal.h — what the rvtrace modules share: the payload bit reader of a frame (rvtrace_frame.c). */
#ifndef TC_RVTRACE_INTERNAL_H
#define TC_RVTRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/rvtrace.h"

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

#endif
