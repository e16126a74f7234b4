/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_frame.c — RISC-V processor trace 0.026 frames from bytes: byte 0, the long form, the payload
 * bit reader, the sign extension past the frame's end, padding (reference/rvtrace/ERRATA.md RV-F1…RV-F7;
 * the text's own encapsulation, Figure 6.1, L355–362, is lost). */
#include <stddef.h>
#include <stdint.h>

#include "clause.h"
#include "rvtrace_internal.h"

/* Byte 0: bits [3:0] N, [5:4] the message type, [7:6] payload bits 0–1 (RV-F2, T1, T2). A te_inst
 * frame with N = 0 is the long form when long_frames=1: byte 1 is M, the bytes after it (RV-F4). */
size_t tc_rvtrace_frame_size(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t have)
{
	TC_CLAUSE("RV-F2", "RV-F4");
	if (!b || have == 0)
		return 0;
	if ((b[0] & 0x0f) == 0 && ((b[0] >> 4) & 3) == tc_rvtrace_msg_inst && cfg && cfg->long_frames)
		return have < 2 ? 0 : 2 + (size_t)b[1];
	return 1 + (size_t)(b[0] & 0x0f);
}

void rv_bits_init(struct rv_bits *r, const uint8_t *b, size_t len, int long_form)
{
	r->b = b;
	r->first = long_form ? 2 : 1;
	r->nbits = len > r->first ? (uint32_t)(8 * (len - r->first) + 2) : 2;
	r->pos = 0;
	r->past_end = 0;
}

/* Payload bit p: bit 6 + p of byte 0 for p < 2; else bit (p − 2) mod 8 of byte first + ⌊(p − 2)/8⌋
 * (RV-F2's "bit (p+6) mod 8 of byte ⌊(p+6)/8⌋" for first = 1; RV-F4's for first = 2). */
unsigned rv_bit(const struct rv_bits *r, uint32_t p)
{
	size_t i;
	if (p < 2)
		return (r->b[0] >> (6 + p)) & 1u;
	i = r->first * 8 + (p - 2);
	return (r->b[i / 8] >> (i % 8)) & 1u;
}

/* Least-significant bit first (RV-F1, T5). */
static uint64_t gather(const struct rv_bits *r, uint32_t from, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)rv_bit(r, from + i) << i;
	return v;
}

int rv_take(struct rv_bits *r, unsigned width, uint64_t *v)
{
	TC_CLAUSE("RV-F5");
	if (width > r->nbits - r->pos)
		return -1;
	*v = gather(r, r->pos, width);
	r->pos += width;
	return 0;
}

int rv_take_ext(struct rv_bits *r, unsigned width, uint64_t *v)
{
	unsigned have = r->nbits - r->pos;
	TC_CLAUSE("T6");
	if (have == 0)
		return -1;
	if (have >= width)
		return rv_take(r, width, v);
	*v = gather(r, r->pos, have);
	if (rv_bit(r, r->nbits - 1))   /* the frame's last bit, copied up to the field's width */
		*v |= (width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1) & ~((UINT64_C(1) << have) - 1);
	r->pos = r->nbits;
	r->past_end = 1;
	return 0;
}

int rv_padding_odd(const struct rv_bits *r, uint64_t *bits)
{
	unsigned last, zeros = 1, copies = 1;
	TC_CLAUSE("RV-F6");
	if (r->past_end || r->pos >= r->nbits)
		return 0;
	last = r->pos > 0 ? rv_bit(r, r->pos - 1) : 0;
	*bits = 0;
	for (uint32_t p = r->pos; p < r->nbits; p++) {
		unsigned b = rv_bit(r, p);
		zeros &= b == 0;
		copies &= b == last;
		if (p - r->pos < 64)
			*bits |= (uint64_t)b << (p - r->pos);
	}
	return !zeros && !copies;
}
