/* SPDX-License-Identifier: BSD-3-Clause */
/* etmcr.c — the keys an ETM Control Register derives, their checks and the register they make again (etmcr.h;
 * ARM IHI 0014 Table 3-5, Table 3-6, Table 2-17). */
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

/* Key i of cfg through the table. */
static uint64_t key(const struct tc_config_key *keys, int i, const void *cfg)
{
	return tc_config_key_get(&keys[i], cfg);
}

static int fail_key(char *err, size_t errlen, const struct tc_config_key *keys, int i, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s%s", keys[i].name, why);
	return -1;
}

int tc_etmcr_check(const struct tc_config_key *keys, const struct tc_etmcr_keys *k, const void *cfg, char *err,
		   size_t errlen)
{
	const int bits[] = { k->half_rate, k->data_address, k->data_value, k->cprt, k->cycle_accurate, k->branch_output };
	uint64_t width = key(keys, k->port_width, cfg), ctx = key(keys, k->contextid_size, cfg);
	if (width != 4 && width != 8 && width != 16)
		return fail_key(err, errlen, keys, k->port_width, ": 4, 8 or 16");
	if (key(keys, k->port_mode, cfg) > 2)
		return fail_key(err, errlen, keys, k->port_mode, ": 0..2");
	if (ctx != 0 && ctx != 1 && ctx != 2 && ctx != 4)
		return fail_key(err, errlen, keys, k->contextid_size, ": 0, 1, 2 or 4");
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
		if (key(keys, bits[i], cfg) > 1)
			return fail(err, errlen, "a boolean key is not 0 or 1");
	if (key(keys, k->half_rate, cfg) && key(keys, k->port_mode, cfg) == 1) {
		if (err && errlen)
			snprintf(err, errlen, "%s=1 with %s=1: no such row in Table 2-17 (L2802)", keys[k->half_rate].name,
				 keys[k->port_mode].name);
		return -1;
	}
	return 0;
}

uint32_t tc_etmcr_value(const struct tc_config_key *keys, const struct tc_etmcr_keys *k, const void *cfg)
{
	uint64_t width = key(keys, k->port_width, cfg), ctx = key(keys, k->contextid_size, cfg);
	uint32_t size = width == 4 ? 0 : width == 8 ? 1 : 2;
	return (uint32_t)key(keys, k->cprt, cfg) << 1 | (uint32_t)key(keys, k->data_value, cfg) << 2 |
	       (uint32_t)key(keys, k->data_address, cfg) << 3 | size << 4 | (uint32_t)key(keys, k->branch_output, cfg) << 8 |
	       (uint32_t)key(keys, k->cycle_accurate, cfg) << 12 | (uint32_t)key(keys, k->half_rate, cfg) << 13 |
	       (uint32_t)(ctx == 4 ? 3 : ctx) << 14 | (uint32_t)key(keys, k->port_mode, cfg) << 16;
}
