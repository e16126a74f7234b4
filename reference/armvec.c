/* SPDX-License-Identifier: BSD-3-Clause */
/* armvec.c — the ARMv4T/ARMv5TE exception vector table (armvec.h; ARM IHI 0014 §4.5.3, Table 7-12). */
#include "armvec.h"

int tc_armvec_slot(uint32_t addr, int hivecs)
{
	uint32_t base = hivecs ? 0xffff0000u : 0;
	if (addr < base || addr - base > 0x1c || (addr & 3))
		return -1;
	return (int)((addr - base) >> 2);
}

uint16_t tc_armvec_type(int slot)
{
	static const uint16_t types[8] = { 0x8, 0x9, 0xa, 0xb, 0xc, 0, 0xe, 0xf };
	return slot >= 0 && slot < 8 ? types[slot] : 0;
}
