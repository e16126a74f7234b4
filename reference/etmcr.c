/* SPDX-License-Identifier: BSD-3-Clause */
/* etmcr.c — the keys an ETM Control Register derives (etmcr.h; ARM IHI 0014 Table 3-5, Table 3-6). */
#include <stdio.h>

#include "etmcr.h"

static int fail(char *err, size_t errlen, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	return -1;
}

static void put(uint64_t *value, uint32_t *derived, int k, uint64_t v)
{
	value[k] = v;
	*derived |= UINT32_C(1) << k;
}

/* ETMCR (Table 3-5, Table 3-6): a reserved port size or port mode is refused. */
int tc_etmcr_derive(uint32_t cr, const struct tc_etmcr_keys *k, uint64_t *value, uint32_t *derived, char *err,
		    size_t errlen)
{
	static const uint8_t width[3] = { 4, 8, 16 };
	static const uint8_t ctx[4] = { 0, 1, 2, 4 };
	unsigned size = (cr >> 4) & 7, mode = (cr >> 16) & 3;
	if (size > 2)
		return fail(err, errlen, "ETMCR[6:4] port size: b011 … b111 are reserved where [6:4] alone is the size "
					 "(Table 3-6 L3742, note c L3757)");
	if (mode == 3)
		return fail(err, errlen, "ETMCR[17:16] port mode b11 is in no table (Table 3-5)");
	put(value, derived, k->cprt, (cr >> 1) & 1);
	put(value, derived, k->data_value, (cr >> 2) & 1);
	put(value, derived, k->data_address, (cr >> 3) & 1);
	put(value, derived, k->port_width, width[size]);
	put(value, derived, k->branch_output, (cr >> 8) & 1);
	put(value, derived, k->cycle_accurate, (cr >> 12) & 1);
	put(value, derived, k->half_rate, (cr >> 13) & 1);
	put(value, derived, k->contextid_size, ctx[(cr >> 14) & 3]);
	put(value, derived, k->port_mode, mode);
	return 0;
}
