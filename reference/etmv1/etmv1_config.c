/* etmv1_config.c — the ETMv1 keys and their checks (reference/etmv1/CONFIG.md "Keys"; ERRATA ETM1-P1). */
#include <stdio.h>

#include "clause.h"
#include "tracecert/etmv1_config.h"

void tc_etmv1_config_default(struct tc_etmv1_config *c)
{
	*c = (struct tc_etmv1_config){ .version = 3, .port_width = 8 };
}

static int fail(char *err, size_t errlen, const char *why)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	return -1;
}

/* CONFIG.md "Keys": each key's range, then the refused combinations (ETM1-P1; Table 3-5's
 * ETMv1.2 fields, Table 2-17 L2802-2814). */
int tc_etmv1_config_check(const struct tc_etmv1_config *c, char *err, size_t errlen)
{
	TC_CLAUSE("ETM1-P1");
	if (!c)
		return fail(err, errlen, "no configuration");
	if (c->version > 3)
		return fail(err, errlen, "version: 0..3");
	if (c->port_width != 4 && c->port_width != 8 && c->port_width != 16)
		return fail(err, errlen, "port_width: 4, 8 or 16");
	if (c->port_mode > 2)
		return fail(err, errlen, "port_mode: 0..2");
	if (c->contextid_size != 0 && c->contextid_size != 1 && c->contextid_size != 2 && c->contextid_size != 4)
		return fail(err, errlen, "contextid_size: 0, 1, 2 or 4");
	if (c->half_rate > 1 || c->data_address > 1 || c->data_value > 1 || c->cprt > 1 || c->cycle_accurate > 1 ||
	    c->branch_output > 1 || c->hivecs > 1 || c->abandoned_discard > 1)
		return fail(err, errlen, "a boolean key is not 0 or 1");
	if (c->version < 2 && (c->contextid_size || c->port_mode || c->half_rate))
		return fail(err, errlen, "contextid_size, port_mode and half_rate are ETMv1.2 fields (Table 3-5)");
	if (c->half_rate && c->port_mode == 1)
		return fail(err, errlen, "half_rate=1 with port_mode=1: no such row in Table 2-17 (L2802)");
	return 0;
}
