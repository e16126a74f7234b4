/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_config.c — ETE decoder configuration: the key table, the register table and what registers derive (tracecert/protocol.h builder).
 *
 * Register fields (reference/ete/CONFIG.md gives the document and section of each):
 *   TRCIDR0  RETSTACK [9], ITE [22], TSMARK [23], TSSIZE [28:24], COMMOPT [29], COMMTRANS [30]
 *   TRCIDR2  CCSIZE [28:25], WFXMODE [31]
 *   TRCIDR8  MAXSPEC [31:0]
 *   TRCCONFIGR  RS [12]
 *   TRCDEVARCH  ARCHITECT [31:21], PRESENT [20], REVISION [19:16], ARCHVER [15:12], ARCHPART [11:0]
 *   TRCTRACEIDR TRACEID [6:0] */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mmap, open, strdup, strcasecmp: also built with plain -std=c11 (tools/bench-floor.sh) */
#endif
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tracecert/ete_config.h"
#include "errtext.h"

/* The one list of keys: each row is a key of the table and names its field
 * of struct tc_ete_config (tracecert/ete.h, the ABI layout). The enum of
 * indices, the table and the check that every field is a key are made from
 * these rows. X(name, max, default, need, stage, source, doc). */
#define ETE_KEYS(X) \
	X(maxspec, TC_ETE_MAXSPEC_LIMIT, 0, tc_key_required, 1, "TRCIDR8.MAXSPEC", \
	  "maximum speculation depth") \
	X(commopt, 1, 0, tc_key_required, 1, "TRCIDR0.COMMOPT", \
	  "commit mode; 1: cycle-count packets carry no commit") \
	X(commtrans, 1, 0, tc_key_required, 1, "TRCIDR0.COMMTRANS", \
	  "0: Transaction Start is a P0 element") \
	X(tsmark, 1, 0, tc_key_required, 1, "TRCIDR0.TSMARK (ETE 1.1+ by TRCDEVARCH.REVISION)", \
	  "header 0x88 is a Timestamp Marker") \
	X(ite, 1, 0, tc_key_required, 1, "TRCIDR0.ITE", \
	  "header 0x09 is an Instrumentation packet (FEAT_ITE)") \
	X(rme, 1, 0, tc_key_required, 1, "none: no trace unit register tells FEAT_RME", \
	  "context payload bit 3 is NSE (FEAT_RME) instead of SBZ") \
	X(tf_keep_cc, 1, 0, tc_key_required, 1, "none: a decoder's choice (K10.5.4.4)", \
	  "on Transaction Failure keep the transaction's Cycle Count elements") \
	X(queue_cap, 1ul << 24, 0, tc_key_optional, 1, "none: the reference's own bound", \
	  "stage-2 queue capacity; 0: 4*(maxspec+1)+1024") \
	X(tx_cap, 1ul << 24, 0, tc_key_optional, 1, "none: the reference's own bound", \
	  "transaction queue capacity; 0: 65536") \
	X(wfxmode, 1, 0, tc_key_required_l3, 3, "TRCIDR2.WFXMODE", \
	  "WFI/WFE/WFIT/WFET are P0 instructions (stage 3)") \
	X(retstack, 1, 0, tc_key_required_l3, 3, "TRCIDR0.RETSTACK and TRCCONFIGR.RS", \
	  "the trace unit uses its return stack (stage 3)") \
	X(walk_limit, 0xfffffffful, 0, tc_key_optional, 3, "none: the reference's own bound", \
	  "most instructions one element may walk; 0: 1048576 (stage 3)")

#define KEY_INDEX(name, ...) k_##name,
#define KEY_ROW(name, max, def, need, stage, source, doc) \
	{ #name, max, def, need, stage, source, doc, TC_CONFIG_FIELD(struct tc_ete_config, name) },
#define KEY_BYTES(name, ...) sizeof(((struct tc_ete_config *)0)->name) +

enum { ETE_KEYS(KEY_INDEX) k_count };

const struct tc_config_key tc_ete_keys[TC_ETE_NKEYS] = { ETE_KEYS(KEY_ROW) };

const int tc_ete_nkeys = TC_ETE_NKEYS;
_Static_assert(k_count == TC_ETE_NKEYS, "TC_ETE_NKEYS is the number of rows");
_Static_assert(ETE_KEYS(KEY_BYTES) 0 == sizeof(struct tc_ete_config),
	       "every byte of struct tc_ete_config is the field of a key (a field without a row, or padding)");

const struct tc_config_reg tc_ete_regs[tc_ete_reg_count] = {
	{ "TRCIDR0", 0x1e0, "RETSTACK [9], ITE [22], TSMARK [23], TSSIZE [28:24] (must be 0b01000), COMMOPT [29], COMMTRANS [30]" },
	{ "TRCIDR2", 0x1e8, "CCSIZE [28:25] (0..8: 12..20 bits), WFXMODE [31]" },
	{ "TRCIDR8", 0x180, "MAXSPEC [31:0] (at most 65535 here)" },
	{ "TRCCONFIGR", 0x010, "RS [12]" },
	{ "TRCDEVARCH", 0xfbc, "must be an ETE: ARCHITECT 0x23B, PRESENT 1, ARCHVER 5, ARCHPART 0xA13; REVISION [19:16] 0..3" },
	{ "TRCTRACEIDR", 0x040, "TRACEID [6:0] (selects the source in a CoreSight formatted buffer)" },
};

/* ---- Keys ------------------------------------------------------------------ */

void tc_ete_config_default(struct tc_ete_config *cfg)
{
	tc_config_keys_default(tc_ete_keys, tc_ete_nkeys, cfg, sizeof *cfg);
}

int tc_ete_config_check(const struct tc_ete_config *cfg, char *err, size_t errlen)
{
	for (int k = 0; k < tc_ete_nkeys; k++) {
		uint64_t v = tc_config_key_get(&tc_ete_keys[k], cfg);
		if (v > tc_ete_keys[k].max)
			return tc_errtext(err, errlen, -1, "%s=%llu is out of range (0..%llu)", tc_ete_keys[k].name,
				       (unsigned long long)v, (unsigned long long)tc_ete_keys[k].max);
	}
	if (cfg->queue_cap != 0 && cfg->queue_cap <= cfg->maxspec)
		return tc_errtext(err, errlen, -1, "queue_cap=%lu must be more than maxspec=%lu (or 0: automatic)",
			       (unsigned long)cfg->queue_cap, (unsigned long)cfg->maxspec);
	return 0;
}

/* ---- Registers --------------------------------------------------------------- */

static uint32_t field(uint32_t reg, int hi, int lo)
{
	return (reg >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

/* Fields that make a register unusable on its own. */
static int check_register(int r, uint32_t v, char *err, size_t errlen)
{
	const char *n = tc_ete_regs[r].name;
	switch (r) {
	case tc_ete_reg_trcidr0:
		if (field(v, 28, 24) != 8)
			return tc_errtext(err, errlen, -2, "%s=0x%08x: TSSIZE [28:24] is 0x%x, expected 0b01000 (ETE has 64-bit timestamps only)",
				       n, v, field(v, 28, 24));
		break;
	case tc_ete_reg_trcidr2:
		if (field(v, 28, 25) > 8)
			return tc_errtext(err, errlen, -2, "%s=0x%08x: CCSIZE [28:25] is 0x%x, a reserved value (0..8: 12..20 bits)",
				       n, v, field(v, 28, 25));
		break;
	case tc_ete_reg_trcidr8:
		if (v > TC_ETE_MAXSPEC_LIMIT)
			return tc_errtext(err, errlen, -2, "%s=0x%08x: MAXSPEC %u is more than this decoder takes (%u)", n, v, v,
				       TC_ETE_MAXSPEC_LIMIT);
		break;
	case tc_ete_reg_trcdevarch:
		if (field(v, 31, 21) != 0x23b || field(v, 20, 20) != 1 || field(v, 15, 12) != 5 || field(v, 11, 0) != 0xa13)
			return tc_errtext(err, errlen, -2, "%s=0x%08x: not an ETE trace unit (expected ARCHITECT 0x23B, PRESENT 1, ARCHVER 5, ARCHPART 0xA13)",
				       n, v);
		if (field(v, 19, 16) > 3)
			return tc_errtext(err, errlen, -2, "%s=0x%08x: REVISION %u is reserved (0..3: ETE 1.0..1.3)", n, v,
				       field(v, 19, 16));
		break;
	default:
		break;
	}
	return 0;
}

static int has(uint32_t given, int r)
{
	return (given >> r) & 1;
}

static void note(struct tc_config_notes *notes, const char *fmt, ...)
{
	va_list ap;
	if (notes->n == TC_CONFIG_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(notes->note[notes->n++], sizeof notes->note[0], fmt, ap);
	va_end(ap);
}

static void derive_key(uint64_t *value, uint32_t *derived, int k, uint64_t v)
{
	value[k] = v;
	*derived |= UINT32_C(1) << k;
}

/* TSMARK exists from ETE 1.1 (TRCDEVARCH.REVISION 1); without TRCDEVARCH the bit is taken as it is. */
static uint64_t derive_tsmark(const uint32_t *regs, uint32_t given, struct tc_config_notes *notes)
{
	uint32_t tsmark = field(regs[tc_ete_reg_trcidr0], 23, 23);
	if (tsmark && has(given, tc_ete_reg_trcdevarch) && field(regs[tc_ete_reg_trcdevarch], 19, 16) == 0) {
		note(notes, "TRCIDR0.TSMARK is set but TRCDEVARCH.REVISION 0 is ETE 1.0 (no Timestamp Marker): tsmark=0");
		return 0;
	}
	return tsmark;
}

static void derive_idr0(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			struct tc_config_notes *notes)
{
	uint32_t v = regs[tc_ete_reg_trcidr0];
	derive_key(value, derived, k_commopt, field(v, 29, 29));
	derive_key(value, derived, k_commtrans, field(v, 30, 30));
	derive_key(value, derived, k_ite, field(v, 22, 22));
	derive_key(value, derived, k_tsmark, derive_tsmark(regs, given, notes));
	note(notes, "timestamps are 64 bits (TRCIDR0.TSSIZE)");
	if (field(v, 31, 31))
		note(notes, "TRCIDR0 bit 31 is RES0 but set: ignored");
	if (!has(given, tc_ete_reg_trcconfigr))
		return;
	derive_key(value, derived, k_retstack, field(v, 9, 9) && field(regs[tc_ete_reg_trcconfigr], 12, 12));
	if (!field(v, 9, 9) && field(regs[tc_ete_reg_trcconfigr], 12, 12))
		note(notes, "TRCCONFIGR.RS is set but TRCIDR0.RETSTACK says no return stack: retstack=0");
}

int tc_ete_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			 struct tc_config_notes *notes, char *err, size_t errlen)
{
	*derived = 0;
	for (int r = 0; r < tc_ete_reg_count; r++)
		if (has(given, r) && check_register(r, regs[r], err, errlen))
			return -1;
	if (has(given, tc_ete_reg_trcdevarch))
		note(notes, "ETE 1.%u (TRCDEVARCH.REVISION)", field(regs[tc_ete_reg_trcdevarch], 19, 16));
	if (has(given, tc_ete_reg_trctraceidr) && field(regs[tc_ete_reg_trctraceidr], 31, 7))
		note(notes, "TRCTRACEIDR bits [31:7] are RES0 but set: ignored");
	if (has(given, tc_ete_reg_trcidr8))
		derive_key(value, derived, k_maxspec, regs[tc_ete_reg_trcidr8]);
	if (has(given, tc_ete_reg_trcidr0))
		derive_idr0(regs, given, value, derived, notes);
	if (has(given, tc_ete_reg_trcidr2)) {
		derive_key(value, derived, k_wfxmode, field(regs[tc_ete_reg_trcidr2], 31, 31));
		note(notes, "the cycle counter is %u bits (TRCIDR2.CCSIZE)", 12 + field(regs[tc_ete_reg_trcidr2], 28, 25));
	}
	return 0;
}

void tc_ete_config_to_regs(const struct tc_ete_config *cfg, unsigned trace_id, uint32_t regs[tc_ete_reg_count])
{
	/* TRCIDR0: RES1 [0], TRCBB [5], TRCCCI [7], RETSTACK [9], NUMEVENT [11:10] = 3 (four events), TSSIZE 0b01000 */
	regs[tc_ete_reg_trcidr0] = 1u | 1u << 5 | 1u << 7 | 1u << 9 | 3u << 10 | 8u << 24 |
				   (uint32_t)(cfg->ite != 0) << 22 | (uint32_t)(cfg->tsmark != 0) << 23 |
				   (uint32_t)(cfg->commopt != 0) << 29 | (uint32_t)(cfg->commtrans != 0) << 30;
	/* TRCIDR2: IASIZE 0b01000 (64-bit), CIDSIZE and VMIDSIZE 0b00100 (32-bit), CCSIZE 0 (12 bits) */
	regs[tc_ete_reg_trcidr2] = 8u | 4u << 5 | 4u << 10 | (uint32_t)(cfg->wfxmode != 0) << 31;
	regs[tc_ete_reg_trcidr8] = cfg->maxspec;
	/* TRCCONFIGR: RES1 [0], CID [6], VMID [7], TS [11], RS [12] */
	regs[tc_ete_reg_trcconfigr] = 1u | 1u << 6 | 1u << 7 | 1u << 11 | (uint32_t)(cfg->retstack != 0) << 12;
	/* TRCDEVARCH: ETE; REVISION 1 (ETE 1.1) when Timestamp Markers are in use, else 0 */
	regs[tc_ete_reg_trcdevarch] = 0x23bu << 21 | 1u << 20 | (uint32_t)(cfg->tsmark != 0) << 16 | 5u << 12 | 0xa13u;
	regs[tc_ete_reg_trctraceidr] = trace_id & 0x7fu;
}
