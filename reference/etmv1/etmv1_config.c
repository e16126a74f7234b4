/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_config.c — the ETMv1 keys and their checks (reference/etmv1/CONFIG.md "Keys"; ERRATA ETM1-P1). */
#include <stdio.h>

#include "clause.h"
#include "etmcr.h"
#include "tracecert/etmv1_config.h"
#include "tracecert/protocol.h"

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

/* ---- The key table (CONFIG.md "Keys", etmv1), its registers and what they derive ---------- */

/* The one list of keys, in CONFIG.md's order; each row names its field of struct tc_etmv1_config.
 * X(name, max, default, need, stage, source, doc). A key with values that are not 0 … max says so in
 * its doc, and tc_etmv1_config_check refuses the others. */
#define ETMV1_KEYS(X) \
	X(version, 3, 3, tc_key_required, 1, "ETMCCR[30:28], the protocol number, through Table 1-1 (L897-929)", \
	  "ETMv1 minor version: 0 … 3 are ETMv1.0 … 1.3 (reason codes, Context ID, the J bit: ERRATA ETM1-P1)") \
	X(port_width, 16, 8, tc_key_required, 1, "ETMCR[6:4]: b000 4, b001 8, b010 16 (Table 3-6 L3731-3745)", \
	  "TRACEPKT pins: 4, 8 or 16; must equal the sample file's header") \
	X(port_mode, 2, 0, tc_key_required, 1, "ETMCR[17:16] (ETMv1.2 and later; Table 3-5 L3655)", \
	  "how the port was clocked: 0 normal, 1 multiplexed, 2 demultiplexed (ERRATA ETMC-F2); must equal the header") \
	X(half_rate, 1, 0, tc_key_required, 1, "ETMCR[13] (ETMv1.2 and later; Table 3-5 L3664)", \
	  "half-rate clocking; must equal the header") \
	X(contextid_size, 4, 0, tc_key_required, 1, "ETMCR[15:14]: b00 0, b01 1, b10 2, b11 4 (Table 3-5 L3663)", \
	  "Context ID bytes after a five-packet address whose reason is not b000: 0, 1, 2 or 4 (§5.6.3 L8262-8268)") \
	X(data_address, 1, 0, tc_key_required, 1, "ETMCR[3] (Table 3-5 L3683-3688)", "data addresses are traced") \
	X(data_value, 1, 0, tc_key_required, 1, "ETMCR[2] (Table 3-5 L3683-3688)", \
	  "data values are traced; their lengths come from the image (ERRATA ETM1-P10)") \
	X(cprt, 1, 0, tc_key_required, 1, "ETMCR[1] MonitorCPRT (Table 3-5 L3689)", \
	  "coprocessor register transfers are traced: their values, no address (§4.11.3 L7903)") \
	X(cycle_accurate, 1, 0, tc_key_required, 1, "ETMCR[12] (Table 3-5 L3666)", \
	  "cycle-accurate tracing: TD cycles while tracing have TRACEPKT[0] = 1 (§5.10 L8420)") \
	X(branch_output, 1, 0, tc_key_required, 1, "ETMCR[8] (Table 3-5 L3675)", \
	  "every branch, direct ones too, is BE with its address (Table 5-1 L7962)") \
	X(hivecs, 1, 0, tc_key_required_l3, 3, "none: the core's HIVECS input (§4.5.3 L7383-7398)", \
	  "the exception vectors are at 0xFFFF0000 (0: at 0) (L3)") \
	X(abandoned_discard, 1, 0, tc_key_optional, 3, "none: a reading of the text (ERRATA ETM1-P19)", \
	  "the reading ETM1-P19-discard of an abandoned branch at L3 (0: the default reading)")

#define KEY_INDEX(name, ...) k_##name,
#define KEY_ROW(name, max, def, need, stage, source, doc) \
	{ #name, max, def, need, stage, source, doc, TC_CONFIG_FIELD(struct tc_etmv1_config, name) },
#define KEY_BYTES(name, ...) sizeof(((struct tc_etmv1_config *)0)->name) +

enum { ETMV1_KEYS(KEY_INDEX) k_count };

const struct tc_config_key tc_etmv1_keys[TC_ETMV1_NKEYS] = { ETMV1_KEYS(KEY_ROW) };

_Static_assert(k_count == TC_ETMV1_NKEYS, "TC_ETMV1_NKEYS is the number of rows");
_Static_assert(ETMV1_KEYS(KEY_BYTES) 0 == sizeof(struct tc_etmv1_config),
	       "every byte of struct tc_etmv1_config is the field of a key");

/* CONFIG.md "Registers": ETMv1 registers are numbered (Table 3-3 L3359-3421); the offsets are
 * 4 × the number (L5070). */
const struct tc_config_reg tc_etmv1_regs[tc_etmv1_reg_count] = {
	{ "ETMCR", 0x000, TC_ETMCR_DOC },
	{ "ETMCCR", 0x004, "[31] ETM ID Register present (0 for ETMv1), [30:28] protocol version (Table 1-1)" },
};

static void put(uint64_t *value, uint32_t *derived, int k, uint64_t v)
{
	value[k] = v;
	*derived |= UINT32_C(1) << k;
}

/* ETMCR (Table 3-5, Table 3-6), the layout shared with the chapter's other protocols (etmcr.h): a
 * reserved port size or port mode is refused. */
static const struct tc_etmcr_keys etmcr_keys = {
	.cprt = k_cprt, .data_value = k_data_value, .data_address = k_data_address, .port_width = k_port_width,
	.branch_output = k_branch_output, .cycle_accurate = k_cycle_accurate, .half_rate = k_half_rate,
	.contextid_size = k_contextid_size, .port_mode = k_port_mode,
};

/* CONFIG.md "Keys": each key's range, then the refused combinations (ETM1-P1; Table 3-5's
 * ETMv1.2 fields, Table 2-17 L2802-2814). */
int tc_etmv1_config_check(const struct tc_etmv1_config *c, char *err, size_t errlen)
{
	TC_CLAUSE("ETM1-P1");
	if (!c)
		return fail(err, errlen, "no configuration");
	if (c->version > 3)
		return fail(err, errlen, "version: 0..3");
	if (tc_etmcr_check(tc_etmv1_keys, &etmcr_keys, c, err, errlen))
		return -1;
	if (c->hivecs > 1 || c->abandoned_discard > 1)
		return fail(err, errlen, "a boolean key is not 0 or 1");
	if (c->version < 2 && (c->contextid_size || c->port_mode || c->half_rate))
		return fail(err, errlen, "contextid_size, port_mode and half_rate are ETMv1.2 fields (Table 3-5)");
	return 0;
}

/* ETMCCR: [31] = 1 is an ETMv2 or later; [30:28] by Table 1-1 (L897-929, CONFIG.md). */
static int derive_etmccr(uint32_t ccr, uint64_t *value, uint32_t *derived, char *err, size_t errlen)
{
	static const int8_t version[8] = { 0, 1, 2, 3, 2, 3, -1, 3 };
	if (ccr >> 31)
		return fail(err, errlen, "ETMCCR[31] = 1: the ETM has an ID register (ETMv2 or later), not ETMv1");
	int v = version[(ccr >> 28) & 7];
	if (v < 0)
		return fail(err, errlen, "ETMCCR[30:28] = 6: no ETM of Table 1-1 has it");
	put(value, derived, k_version, (uint64_t)v);
	return 0;
}

int tc_etmv1_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			   struct tc_config_notes *notes, char *err, size_t errlen)
{
	(void)notes;
	TC_CLAUSE("ETM1-P1/Registers");
	*derived = 0;
	if ((given >> tc_etmv1_reg_etmcr) & 1 &&
	    tc_etmcr_derive(regs[tc_etmv1_reg_etmcr], &etmcr_keys, value, derived, err, errlen))
		return -1;
	if ((given >> tc_etmv1_reg_etmccr) & 1 && derive_etmccr(regs[tc_etmv1_reg_etmccr], value, derived, err, errlen))
		return -1;
	return 0;
}

void tc_etmv1_config_to_regs(const struct tc_etmv1_config *c, uint32_t *regs)
{
	regs[tc_etmv1_reg_etmcr] = tc_etmcr_value(tc_etmv1_keys, &etmcr_keys, c);
	regs[tc_etmv1_reg_etmccr] = (uint32_t)c->version << 28;
}
