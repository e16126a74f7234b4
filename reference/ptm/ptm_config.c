/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_config.c — PTM decoder configuration: the key table, the register table and what the registers derive.
 *
 * Register fields (reference/ptm/ERRATA.md PTM-P1, PTM-P22):
 *   ETMCR       [8] branch output, [12] cycle accurate, [15:14] ContextIDSize,
 *               [28] timestamp enable, [29] return stack enable, [30] VMID enable
 *   ETMIDR      [11:8] major architecture version (3 for PFT), [7:4] minor (PFTv1.0, v1.1)
 *   ETMCCER     [28] timestamp encoding (1: binary), [29] timestamp size (1: 64 bits)
 *   ETMTRACEIDR [6:0] trace ID
 * Bits no text we hold assigns (reference/ptm/ERRATA.md PTM-P24) are ignored
 * with a note: ETMCR [31], ETMIDR [23:21] and [17], ETMTRACEIDR [31:7]. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tracecert/ptm_config.h"
#include "errtext.h"

/* The one list of keys: each row is a key of the table and names its field
 * of struct tc_ptm_config (tracecert/ptm.h, the ABI layout). The enum of
 * indices, the table and the check that every field is a key are made from
 * these rows. X(name, max, default, need, stage, source, doc). */
#define PTM_KEYS(X) \
	X(version, 1, 1, tc_key_required, 1, "ETMIDR[7:4] (minor PFT version)", \
	  "0: PFTv1.0 (no VMID packet), 1: PFTv1.1") \
	X(cycle_accurate, 1, 0, tc_key_required, 1, "ETMCR[12]", \
	  "cycle-accurate tracing: atoms, branches, I-syncs and timestamps carry cycle counts") \
	X(branch_broadcast, 1, 0, tc_key_required, 1, "ETMCR[8]", \
	  "branch broadcast: taken direct branches are traced by address too") \
	X(return_stack, 1, 0, tc_key_required, 1, "ETMCR[29]", "the return stack is enabled") \
	X(timestamps, 1, 0, tc_key_required, 1, "ETMCR[28]", "timestamps are enabled") \
	X(contextid_size, 4, 0, tc_key_required, 1, "ETMCR[15:14]", \
	  "bytes of context ID in I-sync and Context ID packets: 0, 1, 2 or 4") \
	X(vmid, 1, 0, tc_key_required, 1, "ETMCR[30]", "VMID tracing is enabled") \
	X(ts64, 1, 0, tc_key_required, 1, "ETMCCER[29]", "timestamps are 64 bits (0: 48 bits)") \
	X(ts_binary, 1, 1, tc_key_required, 1, "ETMCCER[28]", "timestamps are natural binary (0: Gray code)") \
	X(walk_limit, 0xffffffffu, 0, tc_key_optional, 3, "none: the reference's own bound", \
	  "most instructions one packet may walk; 0: 1048576 (L3)")

#define KEY_INDEX(name, ...) k_##name,
#define KEY_ROW(name, max, def, need, stage, source, doc) \
	{ #name, max, def, need, stage, source, doc, TC_CONFIG_FIELD(struct tc_ptm_config, name) },
#define KEY_BYTES(name, ...) sizeof(((struct tc_ptm_config *)0)->name) +

enum { PTM_KEYS(KEY_INDEX) k_count };

const struct tc_config_key tc_ptm_keys[TC_PTM_NKEYS] = { PTM_KEYS(KEY_ROW) };

const int tc_ptm_nkeys = TC_PTM_NKEYS;
_Static_assert(k_count == TC_PTM_NKEYS, "TC_PTM_NKEYS is the number of rows");
_Static_assert(PTM_KEYS(KEY_BYTES) 0 == sizeof(struct tc_ptm_config),
	       "every byte of struct tc_ptm_config is the field of a key (a field without a row, or padding)");

const struct tc_config_reg tc_ptm_regs[tc_ptm_reg_count] = {
	{ "ETMCR", 0x000, "branch output [8], cycle accurate [12], ContextIDSize [15:14], timestamp [28], return stack [29], VMID [30]" },
	{ "ETMIDR", 0x1e4, "major architecture version [11:8] (3: PFT), minor [7:4] (0: PFTv1.0, 1: PFTv1.1)" },
	{ "ETMCCER", 0x1e8, "timestamp encoding [28] (1: binary), timestamp size [29] (1: 64 bits)" },
	{ "ETMTRACEIDR", 0x200, "trace ID [6:0] (selects the source in a CoreSight formatted buffer)" },
};

void tc_ptm_config_default(struct tc_ptm_config *cfg)
{
	tc_config_keys_default(tc_ptm_keys, tc_ptm_nkeys, cfg, sizeof *cfg);
}

int tc_ptm_config_check(const struct tc_ptm_config *cfg, char *err, size_t errlen)
{
	for (int k = 0; k < tc_ptm_nkeys; k++) {
		uint64_t v = tc_config_key_get(&tc_ptm_keys[k], cfg);
		if (v > tc_ptm_keys[k].max)
			return tc_errtext(err, errlen, -1, "%s=%llu is out of range (0..%llu)", tc_ptm_keys[k].name,
				       (unsigned long long)v, (unsigned long long)tc_ptm_keys[k].max);
	}
	if (cfg->contextid_size == 3)
		return tc_errtext(err, errlen, -1, "contextid_size=3: a context ID is 0, 1, 2 or 4 bytes");
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

static void derive_etmcr(uint32_t v, uint64_t *value, uint32_t *derived)
{
	static const uint64_t cid_bytes[4] = { 0, 1, 2, 4 };
	derive_key(value, derived, k_branch_broadcast, field(v, 8, 8));
	derive_key(value, derived, k_cycle_accurate, field(v, 12, 12));
	derive_key(value, derived, k_contextid_size, cid_bytes[field(v, 15, 14)]);
	derive_key(value, derived, k_timestamps, field(v, 28, 28));
	derive_key(value, derived, k_return_stack, field(v, 29, 29));
	derive_key(value, derived, k_vmid, field(v, 30, 30));
}

/* PTM-P24: set bits that no text we hold assigns; each is a note, never a refusal. */
static void note_unassigned_bits(const uint32_t *regs, uint32_t given, struct tc_config_notes *notes)
{
	if (((given >> tc_ptm_reg_etmcr) & 1) && field(regs[tc_ptm_reg_etmcr], 31, 31))
		note(notes, "ETMCR bit 31 is reserved but set: ignored");
	if (((given >> tc_ptm_reg_etmidr) & 1) &&
	    (field(regs[tc_ptm_reg_etmidr], 23, 21) || field(regs[tc_ptm_reg_etmidr], 17, 17)))
		note(notes, "ETMIDR bits [23:21] or [17] are reserved but set: ignored");
}

int tc_ptm_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			 struct tc_config_notes *notes, char *err, size_t errlen)
{
	*derived = 0;
	if ((given >> tc_ptm_reg_etmidr) & 1) {
		uint32_t v = regs[tc_ptm_reg_etmidr];
		if (field(v, 11, 8) != 3)
			return tc_errtext(err, errlen, -1, "ETMIDR=0x%08x: major architecture version [11:8] is %u, not 3 (PFT)", v,
				       field(v, 11, 8));
		if (field(v, 7, 4) > 1)
			return tc_errtext(err, errlen, -1, "ETMIDR=0x%08x: minor version [7:4] %u is not PFTv1.0 or v1.1", v,
				       field(v, 7, 4));
		derive_key(value, derived, k_version, field(v, 7, 4));
	}
	if ((given >> tc_ptm_reg_etmcr) & 1)
		derive_etmcr(regs[tc_ptm_reg_etmcr], value, derived);
	if ((given >> tc_ptm_reg_etmccer) & 1) {
		derive_key(value, derived, k_ts_binary, field(regs[tc_ptm_reg_etmccer], 28, 28));
		derive_key(value, derived, k_ts64, field(regs[tc_ptm_reg_etmccer], 29, 29));
	}
	if (((given >> tc_ptm_reg_etmtraceidr) & 1) && field(regs[tc_ptm_reg_etmtraceidr], 31, 7))
		note(notes, "ETMTRACEIDR bits [31:7] are reserved but set: ignored");
	note_unassigned_bits(regs, given, notes);
	return 0;
}

void tc_ptm_config_to_regs(const struct tc_ptm_config *cfg, unsigned trace_id, uint32_t regs[tc_ptm_reg_count])
{
	uint32_t cid = cfg->contextid_size == 4 ? 3 : cfg->contextid_size == 2 ? 2 : cfg->contextid_size == 1 ? 1 : 0;
	regs[tc_ptm_reg_etmcr] = (uint32_t)(cfg->branch_broadcast != 0) << 8 | (uint32_t)(cfg->cycle_accurate != 0) << 12 | cid << 14 |
				 (uint32_t)(cfg->timestamps != 0) << 28 | (uint32_t)(cfg->return_stack != 0) << 29 |
				 (uint32_t)(cfg->vmid != 0) << 30;
	regs[tc_ptm_reg_etmidr] = 0x41u << 24 | 3u << 8 | (uint32_t)(cfg->version != 0) << 4;
	regs[tc_ptm_reg_etmccer] = (uint32_t)(cfg->ts_binary != 0) << 28 | (uint32_t)(cfg->ts64 != 0) << 29;
	regs[tc_ptm_reg_etmtraceidr] = trace_id & 0x7fu;
}
