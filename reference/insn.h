/* SPDX-License-Identifier: BSD-3-Clause */
/* insn.h — instruction classification for stage 3 (K10.5.6.2.3 InstType, K10.5.5.18.5 DecodedInst). */
#ifndef TC_INSN_H
#define TC_INSN_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"   /* enum tc_isa; enum tc_insn_type (K10.5.6.2.3 InstType and TC-P27) */

/* K10.5.5.18.5 DecodedInst, with the branch target made absolute. */
struct tc_insn {
	uint32_t opcode;          /* the instruction (T32 32-bit: first halfword in bits 31:16) */
	uint8_t type;             /* enum tc_insn_type */
	uint8_t is_link;          /* branch with link (BL, BLR, BLX, BLRAA…) */
	uint8_t is_cond;          /* conditional (B.cond, CBZ, TBZ, A32 cond != AL, T32 B<c>…) */
	uint8_t size;             /* bytes: 4, or 2 for 16-bit T32 */
	uint8_t next_isa;         /* enum tc_isa after a taken branch (BLX imm switches A32/T32) */
	uint64_t target;          /* direct branches: the target address; else 0 */
};

/* Classifies the instruction at `address` from `avail` bytes (little endian).
 * wfx_p0: whether WFI/WFE/WFIT/WFET are P0 (branch-like) instructions of the
 * protocol's trace: non-zero, they classify as tc_insn_wfx; zero, as
 * tc_insn_other (each protocol maps its own setting onto it).
 * Returns the instruction size in bytes (> 0), or 0 if avail is too short
 * for it (a T32 32-bit instruction with only 2 bytes, fewer than 2/4 bytes).
 * Never reads beyond avail. Unallocated or unrecognised encodings classify
 * as tc_insn_other. For AArch32 the target is computed with the PC offset
 * (+8 A32, +4 T32, Align(PC,4) for BLX imm from T32) and masked to 32 bits. */
int tc_insn_decode(int isa, uint64_t address, const uint8_t *bytes, size_t avail, int wfx_p0,
		   struct tc_insn *out);

const char *tc_insn_type_name(int type);
const char *tc_isa_name(int isa);

#endif
