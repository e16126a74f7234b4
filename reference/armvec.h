/* SPDX-License-Identifier: BSD-3-Clause */
/* armvec.h — the exception vector table of the ARM cores that a per-cycle ETM traces (ARMv4T, ARMv5TE):
 * eight words at 0 or, with HIVECS high, at 0xFFFF0000 (ARM IHI 0014 §4.5.3 L7383-7390), numbered
 * as Table 7-12 numbers the exceptions (L10110-10117). A branch to one of them is how the trace
 * shows an exception; each protocol says which of its branches count and what it cancels. */
#ifndef TC_ARMVEC_H
#define TC_ARMVEC_H

#include <stdint.h>

/* The slot 0 … 7 of addr in the table, at 0x00-0x1C or, when hivecs, 0xFFFF0000-0xFFFF001C (L7385,
 * L7389); -1 when addr is no word of it. */
int tc_armvec_slot(uint32_t addr, int hivecs);

/* The exception of slot k (0 … 7) by Table 7-12's number: b1000 reset, b1001 Undefined Instruction,
 * b1010 SVC, b1011 prefetch abort, b1100 data abort, b1110 IRQ, b1111 FIQ (L10110-10117); 0 for
 * slot 5 (0x14), which no exception has. */
uint16_t tc_armvec_type(int slot);

#endif
