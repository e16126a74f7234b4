/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_config.c — RISC-V processor trace 0.026 decoder configuration: the key table, the discovery
 * fields as registers and what they derive, the refused combinations (Table 3.7 L214–241, §3.1.4
 * L243–273; reference/rvtrace/CONFIG.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "clause.h"
#include "tracecert/rvtrace_config.h"
#include "errtext.h"

/* The one list of keys, in CONFIG.md's order; each row names its field of struct
 * tc_rvtrace_config. X(name, max, default, need, stage, source, doc). A key whose range starts above
 * 0 says so in its doc, and tc_rvtrace_config_check refuses the values below (the shared row has no
 * minimum). */
#define RVTRACE_KEYS(X) \
	X(iaddress_width_p, 64, 32, tc_key_required, 1, "discovery `IADDRESS_WIDTH` + 1 (L263)", \
	  "width of instruction addresses and of tval, \"the same as XLEN\" (Table 3.7 L226); 2 … 64 and at most XLEN, 0 and 1 refused") \
	X(iaddress_lsb_p, 3, 0, tc_key_required, 1, "discovery `IADDRESS_LSB` (L262), the value itself", \
	  "LSB of the instruction address: packet addresses are shifted left by it (Table 3.7 L225, L386)") \
	X(context_width_p, 32, 32, tc_key_required, 1, "discovery `CONTEXT_WIDTH` + 1 (L253)", \
	  "width of the context field of sync packets (Table 3.7 L223, L383); 1 … 32, 0 refused") \
	X(nocontext_p, 1, 0, tc_key_required, 1, "discovery `NOCONTEXT` (L264)", \
	  "1: sync packets have no context field (Table 3.7 L227, L383)") \
	X(privilege_width_p, 4, 2, tc_key_required, 1, "discovery `PRIVILEGE_WIDTH` + 1 (L266)", \
	  "width of the privilege field (Table 3.7 L229, L384); 1 … 4, 0 refused") \
	X(ecause_width_p, 16, 5, tc_key_required, 1, "discovery `ECAUSE_WIDTH` + 1 (L256)", \
	  "width of the ecause field of sync exception packets (Table 3.7 L224, L387); 1 … 16, 0 refused") \
	X(notval_p, 1, 0, tc_key_required, 1, "discovery `NOTVAL` (L265)", \
	  "1: sync exception packets have no tval field (Table 3.7 L228, L389)") \
	X(rv32, 1, 1, tc_key_required, 1, "discovery `RV32` (L267)", \
	  "1: RV32 (XLEN 32), 0: RV64 (XLEN 64): the instruction set of the image, the width of trdb's software message") \
	X(c_ext, 1, 1, tc_key_required_l3, 3, "none: the hart's ISA (misa), which the text's parameters do not give", \
	  "the hart has the C extension: 16-bit instructions are decoded (L3)") \
	X(full_address, 1, 0, tc_key_required, 1, "none: the text names the mode, not a parameter", \
	  "1: the encoder \"has been configured to only use full-address\" (L376): format 2 carries a full address, format 1 is `bad-mode` (ERRATA RV-P4)") \
	X(diff_sign, 1, 0, tc_key_required_l3, 3, "none: an ambiguity of the text (L367, L376)", \
	  "the differential address is 0: this minus the last reported (later versions), 1: the last reported minus this (trdb) (ERRATA RV-X1)") \
	X(long_frames, 1, 1, tc_key_required, 1, "none: the project's extension of the framing", \
	  "1: a te_inst frame with N = 0 is the long form, whose byte 1 counts the bytes after it (ERRATA RV-F4); 0: trdb's framing only") \
	X(timer_width, 64, 40, tc_key_required, 1, "none: trdb's `TIMELEN`", \
	  "bits of the value of trdb's timer message (ERRATA RV-X3); 1 … 64, 0 refused") \
	X(walk_limit, 0xffffffffu, 0, tc_key_optional, 3, "none: the reference's own bound", \
	  "most instructions one packet may walk; 0: 1048576 (L3)")

#define KEY_INDEX(name, ...) k_##name,
#define KEY_ROW(name, max, def, need, stage, source, doc) \
	{ #name, max, def, need, stage, source, doc, TC_CONFIG_FIELD(struct tc_rvtrace_config, name) },
#define KEY_BYTES(name, ...) sizeof(((struct tc_rvtrace_config *)0)->name) +

enum { RVTRACE_KEYS(KEY_INDEX) k_count };

const struct tc_config_key tc_rvtrace_keys[TC_RVTRACE_NKEYS] = { RVTRACE_KEYS(KEY_ROW) };

const int tc_rvtrace_nkeys = TC_RVTRACE_NKEYS;
_Static_assert(k_count == TC_RVTRACE_NKEYS, "TC_RVTRACE_NKEYS is the number of rows");
_Static_assert(RVTRACE_KEYS(KEY_BYTES) 0 == sizeof(struct tc_rvtrace_config),
	       "every byte of struct tc_rvtrace_config is the field of a key (a field without a row, or padding)");

/* The discovery fields (L249–273) have no register file (L245–247): offset 0 for each. */
const struct tc_config_reg tc_rvtrace_regs[tc_rvtrace_reg_count] = {
	{ "IADDRESS_WIDTH", 0, "the discovery field: instruction address width − 1 (L263)" },
	{ "IADDRESS_LSB", 0, "the discovery field: LSB of the instruction address (L262)" },
	{ "CONTEXT_WIDTH", 0, "the discovery field: context width − 1 (L253)" },
	{ "NOCONTEXT", 0, "the discovery field: context ignored when 1 (L264)" },
	{ "PRIVILEGE_WIDTH", 0, "the discovery field: privilege width − 1 (L266)" },
	{ "ECAUSE_WIDTH", 0, "the discovery field: ecause width − 1 (L256)" },
	{ "NOTVAL", 0, "the discovery field: trap value ignored when 1 (L265)" },
	{ "RV32", 0, "the discovery field: RV32 when 1 (L267)" },
};

/* Each register's key and the amount the field is below it (value + 1 widths). */
static const struct { int key; unsigned plus; } reg_key[tc_rvtrace_reg_count] = {
	{ k_iaddress_width_p, 1 }, { k_iaddress_lsb_p, 0 }, { k_context_width_p, 1 }, { k_nocontext_p, 0 },
	{ k_privilege_width_p, 1 }, { k_ecause_width_p, 1 }, { k_notval_p, 0 }, { k_rv32, 0 },
};

void tc_rvtrace_config_default(struct tc_rvtrace_config *cfg)
{
	if (cfg)
		tc_config_keys_default(tc_rvtrace_keys, tc_rvtrace_nkeys, cfg, sizeof *cfg);
}

/* The minimum of each key whose range starts above 0 (CONFIG.md "Keys"). */
static const struct { int key; uint64_t min; } key_min[] = {
	{ k_iaddress_width_p, 2 }, { k_context_width_p, 1 }, { k_privilege_width_p, 1 }, { k_ecause_width_p, 1 },
	{ k_timer_width, 1 },
};

int tc_rvtrace_config_check(const struct tc_rvtrace_config *cfg, char *err, size_t errlen)
{
	int xlen;
	TC_CLAUSE("Table3.7");
	if (!cfg)
		return tc_errtext(err, errlen, -1, "no configuration");
	for (int k = 0; k < tc_rvtrace_nkeys; k++) {
		uint64_t v = tc_config_key_get(&tc_rvtrace_keys[k], cfg);
		if (v > tc_rvtrace_keys[k].max)
			return tc_errtext(err, errlen, -1, "%s=%llu is out of range (0..%llu)", tc_rvtrace_keys[k].name,
				       (unsigned long long)v, (unsigned long long)tc_rvtrace_keys[k].max);
	}
	for (size_t i = 0; i < sizeof key_min / sizeof key_min[0]; i++) {
		const struct tc_config_key *key = &tc_rvtrace_keys[key_min[i].key];
		uint64_t v = tc_config_key_get(key, cfg);
		if (v < key_min[i].min)
			return tc_errtext(err, errlen, -1, "%s=%llu is below its minimum %llu", key->name,
				       (unsigned long long)v, (unsigned long long)key_min[i].min);
	}
	xlen = cfg->rv32 ? 32 : 64;
	if (cfg->iaddress_width_p > xlen)   /* L226 "the same as XLEN"; RV128 out of scope (RV-S12) */
		return tc_errtext(err, errlen, -1, "iaddress_width_p=%d is above XLEN (%d with rv32=%d)", cfg->iaddress_width_p,
			       xlen, cfg->rv32);
	if (cfg->iaddress_lsb_p >= cfg->iaddress_width_p)
		return tc_errtext(err, errlen, -1, "iaddress_lsb_p=%d is not below iaddress_width_p=%d: an address needs a bit",
			       cfg->iaddress_lsb_p, cfg->iaddress_width_p);
	return 0;
}

/* ---- Discovery fields ------------------------------------------------------------ */

int tc_rvtrace_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			     struct tc_config_notes *notes, char *err, size_t errlen)
{
	(void)notes;
	TC_CLAUSE("L249");
	*derived = 0;
	for (int r = 0; r < tc_rvtrace_reg_count; r++) {
		const struct tc_config_key *key = &tc_rvtrace_keys[reg_key[r].key];
		uint64_t v;
		if (!((given >> r) & 1))
			continue;
		v = (uint64_t)regs[r] + reg_key[r].plus;
		if (v > key->max)
			return tc_errtext(err, errlen, -1, "%s=%lu gives %s=%llu, above its maximum %llu", tc_rvtrace_regs[r].name,
				       (unsigned long)regs[r], key->name, (unsigned long long)v,
				       (unsigned long long)key->max);
		value[reg_key[r].key] = v;
		*derived |= UINT32_C(1) << reg_key[r].key;
	}
	return 0;
}

void tc_rvtrace_config_to_regs(const struct tc_rvtrace_config *cfg, uint32_t regs[tc_rvtrace_reg_count])
{
	for (int r = 0; r < tc_rvtrace_reg_count; r++) {
		uint64_t v = tc_config_key_get(&tc_rvtrace_keys[reg_key[r].key], cfg);
		regs[r] = v >= reg_key[r].plus ? (uint32_t)(v - reg_key[r].plus) : 0;
	}
}
