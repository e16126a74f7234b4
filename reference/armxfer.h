/* SPDX-License-Identifier: BSD-3-Clause */
/* armxfer.h — the data transfers of an ARMv4T/ARMv5TE A32 or T32 instruction:
 * what a data trace (ETMv1 Table 5-2 L8133–8135, ETMv2 the same) sizes its
 * data values by (ERRATA ETM1-P10, ETM1-P36). Protocol neutral. */
#ifndef TC_ARMXFER_H
#define TC_ARMXFER_H

#include <stddef.h>
#include <stdint.h>

/* What an instruction does to memory (or to a coprocessor register). */
enum tc_xfer_kind {
	tc_xfer_none,      /* no data transfer (also every unallocated encoding) */
	tc_xfer_load,      /* LDR*, LDRD, LDM, POP */
	tc_xfer_store,     /* STR*, STRD, STM, PUSH */
	tc_xfer_swap,      /* SWP, SWPB: a load, then a store of the same size */
	tc_xfer_preload,   /* PLD: a hint, no transfer (count 0) */
	tc_xfer_ldc,       /* LDC, LDC2: length known to the coprocessor only (count 0) */
	tc_xfer_stc,       /* STC, STC2: likewise */
	tc_xfer_mrc,       /* MRC, MRC2, MRRC: coprocessor to ARM register, no address */
	tc_xfer_mcr,       /* MCR, MCR2, MCRR: ARM register to coprocessor, no address */
	tc_xfer_kinds
};

struct tc_armxfer {
	uint8_t size;       /* instruction bytes: 4, or 2 for a 16-bit T32 one */
	uint8_t kind;       /* enum tc_xfer_kind */
	uint8_t count;      /* number of transfers (LDM/STM/PUSH/POP: registers in the list) */
	uint8_t bytes;      /* bytes of each transfer: 1, 2 or 4; 0 when count is 0 */
	uint8_t writes_pc;  /* a load whose destination (or register list) includes the PC */
	uint8_t is_cond;    /* A32 cond not AL (and not 1111); T32 B<c> */
};

/* Decodes the instruction at `bytes` (little endian, `avail` of them) for
 * isa 1 (A32) or 2 (T32), the values of enum tc_isa. T32 sizes follow
 * insn.c: a first halfword with bits 15:11 = 11101, 11110 or 11111 makes a
 * 32-bit instruction (the BL/BLX pair in ARMv5TE), with no transfer.
 * Returns the size (> 0), or 0 when avail is too short for it or isa is
 * neither; never reads beyond avail. */
int tc_armxfer_decode(int isa, const uint8_t *bytes, size_t avail, struct tc_armxfer *out);

/* "none", "load", … for enum tc_xfer_kind; "?" outside it. */
const char *tc_xfer_kind_name(int kind);

#endif
