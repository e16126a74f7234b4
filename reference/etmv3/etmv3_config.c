/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_config.c — ETMv3 decoder configuration: the key table, the register table and what the registers derive.
 *
 * Register fields (IHI 0014 §3.5.1 Table 3-5, §3.5.18 Table 3-46, §3.5.19
 * Table 3-48; ETMv3.5's from IHI 0014Q; reference/etmv3/ERRATA.md ETM3-P1):
 *   ETMCR       [2] data value, [3] data address (data access [3:2]), [8] branch output,
 *               [12] cycle accurate, [15:14] ContextIDSize, [20] data-only mode (v3.1),
 *               [28] timestamp enable (v3.5), [30] VMID enable (v3.5)
 *   ETMIDR      [11:8] major architecture version (2: ETMv3), [7:4] minor (3.0..3.5),
 *               [18] 32-bit Thumb traced as one instruction (v3.2), [20] alternative
 *               branch packet encoding (v3.4)
 *   ETMCCER     [28] timestamp encoding (1: binary), [29] timestamp size (1: 64 bits) (v3.5)
 *   ETMTRACEIDR [6:0] trace ID
 * The core profile (ARMv7-M or not) is in no trace-unit register: a key only. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tracecert/etmv3_config.h"
#include "errtext.h"

/* The one list of keys: each row is a key of the table and names its field
 * of struct tc_etmv3_config (tracecert/etmv3.h, the ABI layout). The enum of
 * indices, the table and the check that every field is a key are made from
 * these rows (as every protocol's: reference/ptm/ptm_config.c).
 * X(name, max, default, need, stage, source, doc). */
#define ETMV3_KEYS(X) \
	X(version, 5, 5, tc_key_required, 1, "ETMIDR[7:4] (minor ETMv3 version)", \
	  "0..5: ETMv3.0 .. ETMv3.5 (packets and fields a version lacks are errors)") \
	X(cycle_accurate, 1, 0, tc_key_required, 1, "ETMCR[12]", \
	  "cycle-accurate tracing: the P-headers of Table 7-3 (W atoms)") \
	X(contextid_size, 4, 0, tc_key_required, 1, "ETMCR[15:14]", \
	  "bytes of context ID in I-sync and Context ID packets: 0, 1, 2 or 4") \
	X(data_address, 1, 0, tc_key_required, 1, "ETMCR[3]", "data addresses are traced (data access b10 or b11)") \
	X(data_value, 1, 0, tc_key_required, 1, "ETMCR[2]", "data values are traced (data access b01 or b11)") \
	X(data_only, 1, 0, tc_key_required, 1, "ETMCR[20]", \
	  "data-only mode (ETMv3.1 and later): I-syncs carry no instruction address") \
	X(branch_output, 1, 0, tc_key_required, 1, "ETMCR[8]", \
	  "branch output: every branch is traced by a branch address packet") \
	X(alt_branch, 1, 0, tc_key_required, 1, "ETMIDR[20]", \
	  "the alternative branch address compression scheme (ETMv3.4 and later)") \
	X(thumb2_one, 1, 1, tc_key_required, 1, "ETMIDR[18]", \
	  "a 32-bit Thumb instruction is traced as one instruction (0: as two)") \
	X(profile_m, 1, 0, tc_key_required, 1, "none: the core's architecture profile", \
	  "the core is ARMv7-M: exception numbers of Table 7-17 (0: A or R profile, Table 7-12)") \
	X(timestamps, 1, 0, tc_key_required, 1, "ETMCR[28]", "timestamps are enabled (ETMv3.5)") \
	X(vmid, 1, 0, tc_key_required, 1, "ETMCR[30]", "VMID tracing is enabled (ETMv3.5)") \
	X(ts64, 1, 0, tc_key_required, 1, "ETMCCER[29]", "timestamps are 64 bits (0: 48 bits) (ETMv3.5)") \
	X(ts_binary, 1, 1, tc_key_required, 1, "ETMCCER[28]", \
	  "timestamps are natural binary (0: Gray code) (ETMv3.5)")

#define KEY_INDEX(name, ...) k_##name,
#define KEY_ROW(name, max, def, need, stage, source, doc) \
	{ #name, max, def, need, stage, source, doc, TC_CONFIG_FIELD(struct tc_etmv3_config, name) },
#define KEY_BYTES(name, ...) sizeof(((struct tc_etmv3_config *)0)->name) +

enum { ETMV3_KEYS(KEY_INDEX) k_count };

const struct tc_config_key tc_etmv3_keys[TC_ETMV3_NKEYS] = { ETMV3_KEYS(KEY_ROW) };

const int tc_etmv3_nkeys = TC_ETMV3_NKEYS;
_Static_assert(k_count == TC_ETMV3_NKEYS, "TC_ETMV3_NKEYS is the number of rows");
_Static_assert(ETMV3_KEYS(KEY_BYTES) 0 == sizeof(struct tc_etmv3_config),
	       "every byte of struct tc_etmv3_config is the field of a key (a field without a row, or padding)");

const struct tc_config_reg tc_etmv3_regs[tc_etmv3_reg_count] = {
	{ "ETMCR", 0x000,
	  "data access [3:2], branch output [8], cycle accurate [12], ContextIDSize [15:14], data-only [20], "
	  "timestamp [28], VMID [30]" },
	{ "ETMIDR", 0x1e4,
	  "major architecture version [11:8] (2: ETMv3), minor [7:4], 32-bit Thumb as one [18], "
	  "alternative branch encoding [20]" },
	{ "ETMCCER", 0x1e8, "timestamp encoding [28] (1: binary), timestamp size [29] (1: 64 bits)" },
	{ "ETMTRACEIDR", 0x200, "trace ID [6:0] (selects the source in a CoreSight formatted buffer)" },
};

void tc_etmv3_config_default(struct tc_etmv3_config *cfg)
{
	if (cfg)
		tc_config_keys_default(tc_etmv3_keys, tc_etmv3_nkeys, cfg, sizeof *cfg);
}

/* A key that needs a later version than the one configured (ETM3-P1). */
static int needs_version(const struct tc_etmv3_config *cfg, int k, int version, char *err, size_t errlen)
{
	if (!tc_config_key_get(&tc_etmv3_keys[k], cfg) || cfg->version >= version)
		return 0;
	return tc_errtext(err, errlen, -1, "%s=1 needs version=%d (ETMv3.%d) or later; version=%d", tc_etmv3_keys[k].name,
		       version, version, cfg->version);
}

int tc_etmv3_config_check(const struct tc_etmv3_config *cfg, char *err, size_t errlen)
{
	for (int k = 0; k < tc_etmv3_nkeys; k++) {
		uint64_t v = tc_config_key_get(&tc_etmv3_keys[k], cfg);
		if (v > tc_etmv3_keys[k].max)
			return tc_errtext(err, errlen, -1, "%s=%llu is out of range (0..%llu)", tc_etmv3_keys[k].name,
				       (unsigned long long)v, (unsigned long long)tc_etmv3_keys[k].max);
	}
	if (cfg->contextid_size == 3)
		return tc_errtext(err, errlen, -1, "contextid_size=3: a context ID is 0, 1, 2 or 4 bytes");
	if (needs_version(cfg, k_data_only, 1, err, errlen) || needs_version(cfg, k_alt_branch, 4, err, errlen) ||
	    needs_version(cfg, k_timestamps, 5, err, errlen) || needs_version(cfg, k_vmid, 5, err, errlen))
		return -1;
	return 0;
}

/* ---- Registers --------------------------------------------------------------- */

static uint32_t field(uint32_t reg, int hi, int lo)
{
	return (reg >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static void derive_key(uint64_t *value, uint32_t *derived, int k, uint64_t v)
{
	value[k] = v;
	*derived |= UINT32_C(1) << k;
}

static void note(struct tc_config_notes *notes, const char *text)
{
	if (notes->n < TC_CONFIG_NOTES)
		snprintf(notes->note[notes->n++], sizeof notes->note[0], "%s", text);
}

static int given_reg(uint32_t given, int r)
{
	return (given >> r) & 1;
}

/* The minor version ETMIDR gives, or -1 without ETMIDR. */
static int derive_etmidr(uint32_t v, uint64_t *value, uint32_t *derived, struct tc_config_notes *notes, char *err,
			 size_t errlen)
{
	int minor = (int)field(v, 7, 4);
	if (field(v, 11, 8) != 2)
		return tc_errtext(err, errlen, -1, "ETMIDR=0x%08x: major architecture version [11:8] is %u, not 2 (ETMv3)", v,
			       field(v, 11, 8));
	if (minor > 5)
		return tc_errtext(err, errlen, -1, "ETMIDR=0x%08x: minor version [7:4] %d is not ETMv3.0 .. ETMv3.5", v, minor);
	derive_key(value, derived, k_version, (uint64_t)minor);
	if (minor >= 2)
		derive_key(value, derived, k_thumb2_one, field(v, 18, 18));
	else if (field(v, 18, 18))
		note(notes, "ETMIDR bit 18 (32-bit Thumb traced as one) is reserved before ETMv3.2 but set: ignored");
	if (minor >= 4)
		derive_key(value, derived, k_alt_branch, field(v, 20, 20));
	else if (field(v, 20, 20))
		note(notes, "ETMIDR bit 20 (alternative branch encoding) is reserved before ETMv3.4 but set: ignored");
	if (field(v, 23, 21) || field(v, 17, 17))
		note(notes, "ETMIDR bits [23:21] or [17] are reserved but set: ignored");
	return minor;
}

static void derive_etmcr(uint32_t v, int minor, uint64_t *value, uint32_t *derived, struct tc_config_notes *notes)
{
	static const uint64_t cid_bytes[4] = { 0, 1, 2, 4 };
	derive_key(value, derived, k_data_value, field(v, 2, 2));
	derive_key(value, derived, k_data_address, field(v, 3, 3));
	derive_key(value, derived, k_branch_output, field(v, 8, 8));
	derive_key(value, derived, k_cycle_accurate, field(v, 12, 12));
	derive_key(value, derived, k_contextid_size, cid_bytes[field(v, 15, 14)]);
	if (minor != 0)   /* ETMv3.1 and later, or a version given by key */
		derive_key(value, derived, k_data_only, field(v, 20, 20));
	else if (field(v, 20, 20))
		note(notes, "ETMCR bit 20 (data-only mode) is reserved in ETMv3.0 but set: ignored");
	if (minor == 5 || minor < 0) {
		derive_key(value, derived, k_timestamps, field(v, 28, 28));
		derive_key(value, derived, k_vmid, field(v, 30, 30));
	} else if (field(v, 28, 28) || field(v, 30, 30)) {
		note(notes, "ETMCR bits 28 and 30 (timestamp, VMID) are ETMv3.5 fields but set: ignored");
	}
	if (field(v, 31, 31) || field(v, 29, 29))
		note(notes, "ETMCR bits 31 or 29 are reserved but set: ignored");
}

int tc_etmv3_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			   struct tc_config_notes *notes, char *err, size_t errlen)
{
	int minor = -1;
	*derived = 0;
	if (given_reg(given, tc_etmv3_reg_etmidr)) {
		minor = derive_etmidr(regs[tc_etmv3_reg_etmidr], value, derived, notes, err, errlen);
		if (minor < 0)
			return -1;
	}
	if (given_reg(given, tc_etmv3_reg_etmcr))
		derive_etmcr(regs[tc_etmv3_reg_etmcr], minor, value, derived, notes);
	if (given_reg(given, tc_etmv3_reg_etmccer)) {
		derive_key(value, derived, k_ts_binary, field(regs[tc_etmv3_reg_etmccer], 28, 28));
		derive_key(value, derived, k_ts64, field(regs[tc_etmv3_reg_etmccer], 29, 29));
	}
	if (given_reg(given, tc_etmv3_reg_etmtraceidr) && field(regs[tc_etmv3_reg_etmtraceidr], 31, 7))
		note(notes, "ETMTRACEIDR bits [31:7] are reserved but set: ignored");
	return 0;
}

void tc_etmv3_config_to_regs(const struct tc_etmv3_config *cfg, unsigned trace_id,
			     uint32_t regs[tc_etmv3_reg_count])
{
	uint32_t cid = cfg->contextid_size == 4 ? 3 : cfg->contextid_size == 2 ? 2 : cfg->contextid_size == 1 ? 1 : 0;
	regs[tc_etmv3_reg_etmcr] = (uint32_t)(cfg->data_value != 0) << 2 | (uint32_t)(cfg->data_address != 0) << 3 |
				   (uint32_t)(cfg->branch_output != 0) << 8 | (uint32_t)(cfg->cycle_accurate != 0) << 12 |
				   cid << 14 | (uint32_t)(cfg->data_only != 0) << 20 |
				   (uint32_t)(cfg->timestamps != 0) << 28 | (uint32_t)(cfg->vmid != 0) << 30;
	regs[tc_etmv3_reg_etmidr] = 0x41u << 24 | 0xfu << 12 | 2u << 8 | ((uint32_t)cfg->version & 0xfu) << 4;
	if (cfg->version >= 2)   /* the fields exist from ETMv3.2 and ETMv3.4 (Table 3-46) */
		regs[tc_etmv3_reg_etmidr] |= (uint32_t)(cfg->thumb2_one != 0) << 18;
	if (cfg->version >= 4)
		regs[tc_etmv3_reg_etmidr] |= (uint32_t)(cfg->alt_branch != 0) << 20;
	regs[tc_etmv3_reg_etmccer] = (uint32_t)(cfg->ts_binary != 0) << 28 | (uint32_t)(cfg->ts64 != 0) << 29;
	regs[tc_etmv3_reg_etmtraceidr] = trace_id & 0x7fu;
}
