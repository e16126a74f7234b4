/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_config.c — the ETMv2 keys and their checks (reference/etmv1/CONFIG.md "Keys", etmv2; ERRATA
 * ETM2-P1, ETM2-P10). */
#include <stdio.h>

#include "clause.h"
#include "etmcr.h"
#include "tracecert/etmv2_config.h"
#include "tracecert/protocol.h"

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

/* ---- The key table (CONFIG.md "Keys", etmv2), its registers and what they derive ---------- */

/* The one list of keys, in CONFIG.md's order; each row names its field of struct tc_etmv2_config.
 * X(name, max, default, need, stage, source, doc). A key with values that are not 0 … max says so in
 * its doc, and tc_etmv2_config_check refuses the others. */
#define ETMV2_KEYS(X) \
	X(version, 1, 0, tc_key_required, 1, "ETMIDR[7:4], with ETMIDR[11:8] = b0001 (Table 3-46 L5183-5188)", \
	  "ETMv2 minor version: 0 ETMv2.0, 1 ETMv2.1 (ERRATA ETM2-P1)") \
	X(port_width, 16, 8, tc_key_required, 1, "ETMCR[6:4]: b000 4, b001 8, b010 16 (Table 3-6 L3731-3745)", \
	  "TRACEPKT pins: 4, 8 or 16; must equal the sample file's header") \
	X(port_mode, 2, 0, tc_key_required, 1, "ETMCR[17:16] (Table 3-5 L3655)", \
	  "how the port was clocked: 0 normal, 1 multiplexed, 2 demultiplexed (ERRATA ETMC-F2); must equal the header") \
	X(half_rate, 1, 0, tc_key_required, 1, "ETMCR[13] (Table 3-5 L3664)", "half-rate clocking; must equal the header") \
	X(contextid_size, 4, 0, tc_key_required, 1, "ETMCR[15:14]: b00 0, b01 1, b10 2, b11 4 (Table 3-5 L3663)", \
	  "Context ID bytes of Context ID packets and TFO packets: 0, 1, 2 or 4 (§6.4.5 L8828, L8993-8995)") \
	X(data_address, 1, 0, tc_key_required, 1, "ETMCR[3] (Table 3-5 L3683-3688)", "data addresses are traced") \
	X(data_value, 1, 0, tc_key_required, 1, "ETMCR[2] (Table 3-5 L3683-3688)", \
	  "data values are traced (their sizes are in the packets, Table 6-3)") \
	X(cprt, 1, 0, tc_key_required, 1, "ETMCR[1] MonitorCPRT (Table 3-5 L3689)", \
	  "coprocessor register transfers are traced") \
	X(cycle_accurate, 1, 0, tc_key_required, 1, "ETMCR[12] (Table 3-5 L3666)", \
	  "cycle-accurate tracing: TD cycles while tracing have TRACEPKT[0] = 1 (§6.11 L9288-9295)") \
	X(branch_output, 1, 0, tc_key_required, 1, "ETMCR[8] (Table 3-5 L3675)", \
	  "every branch, direct ones too, has its address") \
	X(hivecs, 1, 0, tc_key_required_l3, 3, "none: the core's HIVECS input (§4.5.3 L7383-7398)", \
	  "the exception vectors are at 0xFFFF0000 (0: at 0) (L3)") \
	X(fifo_depth, 4096, 0, tc_key_required, 1, "none: no register gives the FIFO's size (ERRATA ETM2-P10)", \
	  "the FIFO's size in bytes, 0 when not known; a TFO value above it is tfo-past-fifo (§6.5.1 L8860)")

#define KEY_INDEX(name, ...) k_##name,
#define KEY_ROW(name, max, def, need, stage, source, doc) \
	{ #name, max, def, need, stage, source, doc, TC_CONFIG_FIELD(struct tc_etmv2_config, name) },

enum { ETMV2_KEYS(KEY_INDEX) k_count };

const struct tc_config_key tc_etmv2_keys[TC_ETMV2_NKEYS] = { ETMV2_KEYS(KEY_ROW) };

#define KEY_BYTES(name, ...) sizeof(((struct tc_etmv2_config *)0)->name) +

_Static_assert(k_count == TC_ETMV2_NKEYS, "TC_ETMV2_NKEYS is the number of rows");
_Static_assert(ETMV2_KEYS(KEY_BYTES) 0 == sizeof(struct tc_etmv2_config),
	       "every byte of struct tc_etmv2_config is the field of a key");

/* CONFIG.md "Registers": ETMv2 registers are numbered (Table 3-3 L3359-3421); the offsets are
 * 4 × the number (L5070). */
const struct tc_config_reg tc_etmv2_regs[tc_etmv2_reg_count] = {
	{ "ETMCR", 0x000, TC_ETMCR_DOC },
	{ "ETMCCR", 0x004, "[31] ETM ID Register present (1 for ETMv2)" },
	{ "ETMIDR", 0x1e4, "[11:8] major version (b0001 for ETMv2), [7:4] minor version" },
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

/* CONFIG.md "Keys", etmv2: each key's range, then the refused combination of Table 2-17 (L2802). */
int tc_etmv2_config_check(const struct tc_etmv2_config *c, char *err, size_t errlen)
{
	TC_CLAUSE("ETM2-P1");
	if (!c)
		return fail(err, errlen, "no configuration");
	if (c->version > 1)
		return fail(err, errlen, "version: 0..1");
	if (tc_etmcr_check(tc_etmv2_keys, &etmcr_keys, c, err, errlen))
		return -1;
	if (c->hivecs > 1)
		return fail(err, errlen, "a boolean key is not 0 or 1");
	if (c->fifo_depth > 4096)
		return fail(err, errlen, "fifo_depth: 0..4096");
	return 0;
}

/* ETMIDR (Table 3-46 L5183-5198): [11:8] must be b0001 (ETMv2); [7:4] the minor version 0 or 1. */
static int derive_etmidr(uint32_t id, uint64_t *value, uint32_t *derived, char *err, size_t errlen)
{
	unsigned major = (id >> 8) & 0xf, minor = (id >> 4) & 0xf;
	if (major != 1)
		return fail(err, errlen, "ETMIDR[11:8] is not b0001: not an ETMv2 (b0010 is ETMv3: --protocol etmv3)");
	if (minor > 1)
		return fail(err, errlen, "ETMIDR[7:4]: ETMv2 minor versions are 0 and 1 (ERRATA ETM2-P1)");
	put(value, derived, k_version, minor);
	return 0;
}

int tc_etmv2_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			   struct tc_config_notes *notes, char *err, size_t errlen)
{
	(void)notes;
	TC_CLAUSE("ETM2-P1/Registers");
	*derived = 0;
	if ((given >> tc_etmv2_reg_etmccr) & 1 && !(regs[tc_etmv2_reg_etmccr] >> 31))
		return fail(err, errlen, "ETMCCR[31] = 0: the ETM has no ID register: ETMv1 (--protocol etmv1)");
	if ((given >> tc_etmv2_reg_etmcr) & 1 &&
	    tc_etmcr_derive(regs[tc_etmv2_reg_etmcr], &etmcr_keys, value, derived, err, errlen))
		return -1;
	if ((given >> tc_etmv2_reg_etmidr) & 1 && derive_etmidr(regs[tc_etmv2_reg_etmidr], value, derived, err, errlen))
		return -1;
	return 0;
}

void tc_etmv2_config_to_regs(const struct tc_etmv2_config *c, uint32_t *regs)
{
	regs[tc_etmv2_reg_etmcr] = tc_etmcr_value(tc_etmv2_keys, &etmcr_keys, c);
	regs[tc_etmv2_reg_etmccr] = UINT32_C(1) << 31;
	regs[tc_etmv2_reg_etmidr] = UINT32_C(0x41002000) | 1u << 8 | (uint32_t)c->version << 4;
}
