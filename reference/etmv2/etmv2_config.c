/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_config.c — the ETMv2 keys and their checks (reference/etmv1/CONFIG.md "Keys", etmv2; ERRATA
 * ETM2-P1, ETM2-P10). */
#include <stdio.h>

#include "clause.h"
#include "tracecert/etmv2_config.h"

void tc_etmv2_config_default(struct tc_etmv2_config *c)
{
	*c = (struct tc_etmv2_config){ .version = 0, .port_width = 8 };
}

static int fail(char *err, size_t errlen, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	return -1;
}

/* CONFIG.md "Keys", etmv2: each key's range, then the refused combination of Table 2-17 (L2802). */
int tc_etmv2_config_check(const struct tc_etmv2_config *c, char *err, size_t errlen)
{
	TC_CLAUSE("ETM2-P1");
	if (!c)
		return fail(err, errlen, "no configuration");
	if (c->version > 1)
		return fail(err, errlen, "version: 0..1");
	if (c->port_width != 4 && c->port_width != 8 && c->port_width != 16)
		return fail(err, errlen, "port_width: 4, 8 or 16");
	if (c->port_mode > 2)
		return fail(err, errlen, "port_mode: 0..2");
	if (c->contextid_size != 0 && c->contextid_size != 1 && c->contextid_size != 2 && c->contextid_size != 4)
		return fail(err, errlen, "contextid_size: 0, 1, 2 or 4");
	if (c->half_rate > 1 || c->data_address > 1 || c->data_value > 1 || c->cprt > 1 || c->cycle_accurate > 1 ||
	    c->branch_output > 1 || c->hivecs > 1)
		return fail(err, errlen, "a boolean key is not 0 or 1");
	if (c->fifo_depth > 4096)
		return fail(err, errlen, "fifo_depth: 0..4096");
	if (c->half_rate && c->port_mode == 1)
		return fail(err, errlen, "half_rate=1 with port_mode=1: no such row in Table 2-17 (L2802)");
	return 0;
}
