/* ete_config.c — ETE decoder configuration: the key table, tc_ete_config_set, and derivation from trace unit registers.
 *
 * Register fields (reference/CONFIG.md gives the document and section of each):
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

enum key_type { key_flag, key_u32 };

/* Where each key lives in struct tc_ete_config (same order as tc_ete_keys). */
static const struct {
	size_t offset;
	int type;
} key_field[] = {
	{ offsetof(struct tc_ete_config, maxspec), key_u32 },
	{ offsetof(struct tc_ete_config, commopt), key_flag },
	{ offsetof(struct tc_ete_config, commtrans), key_flag },
	{ offsetof(struct tc_ete_config, tsmark), key_flag },
	{ offsetof(struct tc_ete_config, ite), key_flag },
	{ offsetof(struct tc_ete_config, rme), key_flag },
	{ offsetof(struct tc_ete_config, tf_keep_cc), key_flag },
	{ offsetof(struct tc_ete_config, queue_cap), key_u32 },
	{ offsetof(struct tc_ete_config, tx_cap), key_u32 },
	{ offsetof(struct tc_ete_config, wfxmode), key_flag },
	{ offsetof(struct tc_ete_config, retstack), key_flag },
	{ offsetof(struct tc_ete_config, walk_limit), key_u32 },
};

enum { k_maxspec, k_commopt, k_commtrans, k_tsmark, k_ite, k_rme, k_tf_keep_cc, k_queue_cap, k_tx_cap,
       k_wfxmode, k_retstack, k_walk_limit, k_count };

const struct tc_ete_key tc_ete_keys[] = {
	{ "maxspec", TC_ETE_MAXSPEC_LIMIT, 0, tc_ete_key_required, 1, "TRCIDR8.MAXSPEC",
	  "maximum speculation depth" },
	{ "commopt", 1, 0, tc_ete_key_required, 1, "TRCIDR0.COMMOPT",
	  "commit mode; 1: cycle-count packets carry no commit" },
	{ "commtrans", 1, 0, tc_ete_key_required, 1, "TRCIDR0.COMMTRANS",
	  "0: Transaction Start is a P0 element" },
	{ "tsmark", 1, 0, tc_ete_key_required, 1, "TRCIDR0.TSMARK (ETE 1.1+ by TRCDEVARCH.REVISION)",
	  "header 0x88 is a Timestamp Marker" },
	{ "ite", 1, 0, tc_ete_key_required, 1, "TRCIDR0.ITE",
	  "header 0x09 is an Instrumentation packet (FEAT_ITE)" },
	{ "rme", 1, 0, tc_ete_key_required, 1, "none: no trace unit register tells FEAT_RME",
	  "context payload bit 3 is NSE (FEAT_RME) instead of SBZ" },
	{ "tf_keep_cc", 1, 0, tc_ete_key_required, 1, "none: a decoder's choice (K10.5.4.4)",
	  "on Transaction Failure keep the transaction's Cycle Count elements" },
	{ "queue_cap", 1ul << 24, 0, tc_ete_key_optional, 1, "none: the reference's own bound",
	  "stage-2 queue capacity; 0: 4*(maxspec+1)+1024" },
	{ "tx_cap", 1ul << 24, 0, tc_ete_key_optional, 1, "none: the reference's own bound",
	  "transaction queue capacity; 0: 65536" },
	{ "wfxmode", 1, 0, tc_ete_key_required_l3, 3, "TRCIDR2.WFXMODE",
	  "WFI/WFE/WFIT/WFET are P0 instructions (stage 3)" },
	{ "retstack", 1, 0, tc_ete_key_required_l3, 3, "TRCIDR0.RETSTACK and TRCCONFIGR.RS",
	  "the trace unit uses its return stack (stage 3)" },
	{ "walk_limit", 0xfffffffful, 0, tc_ete_key_optional, 3, "none: the reference's own bound",
	  "most instructions one element may walk; 0: 1048576 (stage 3)" },
};

const int tc_ete_nkeys = (int)(sizeof tc_ete_keys / sizeof tc_ete_keys[0]);

const struct tc_ete_reg_desc tc_ete_regs[tc_ete_reg_count] = {
	{ "TRCIDR0", "RETSTACK [9], ITE [22], TSMARK [23], TSSIZE [28:24] (must be 0b01000), COMMOPT [29], COMMTRANS [30]" },
	{ "TRCIDR2", "CCSIZE [28:25] (0..8: 12..20 bits), WFXMODE [31]" },
	{ "TRCIDR8", "MAXSPEC [31:0] (at most 65535 here)" },
	{ "TRCCONFIGR", "RS [12]" },
	{ "TRCDEVARCH", "must be an ETE: ARCHITECT 0x23B, PRESENT 1, ARCHVER 5, ARCHPART 0xA13; REVISION [19:16] 0..3" },
	{ "TRCTRACEIDR", "TRACEID [6:0] (selects the source in a CoreSight formatted buffer)" },
};

int tc_ete_key_find(const char *name)
{
	for (int i = 0; name && i < tc_ete_nkeys; i++)
		if (!strcmp(name, tc_ete_keys[i].name))
			return i;
	return -1;
}

int tc_ete_reg_find(const char *name)
{
	for (int i = 0; name && i < tc_ete_reg_count; i++)
		if (!strcasecmp(name, tc_ete_regs[i].name))
			return i;
	return -1;
}

static int set_err(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* ---- Keys ------------------------------------------------------------------ */

void tc_ete_config_default(struct tc_ete_config *cfg)
{
	if (!cfg)
		return;
	memset(cfg, 0, sizeof *cfg);
	for (int i = 0; i < tc_ete_nkeys; i++) {
		char *field = (char *)cfg + key_field[i].offset;
		if (key_field[i].type == key_flag)
			*(int *)field = (int)tc_ete_keys[i].def;
		else
			*(uint32_t *)field = (uint32_t)tc_ete_keys[i].def;
	}
}

/* Parses a decimal value in [0, max]. */
static int parse_decimal(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

static void store_key(struct tc_ete_config *cfg, int k, unsigned long v)
{
	char *field = (char *)cfg + key_field[k].offset;
	if (key_field[k].type == key_flag)
		*(int *)field = (int)v;
	else
		*(uint32_t *)field = (uint32_t)v;
}

int tc_ete_config_key_text(const struct tc_ete_config *cfg, int k, char *buf, size_t size)
{
	const char *field;
	if (!cfg || k < 0 || k >= tc_ete_nkeys)
		return -1;
	field = (const char *)cfg + key_field[k].offset;
	if (key_field[k].type == key_flag)
		snprintf(buf, size, "%d", *(const int *)field);
	else
		snprintf(buf, size, "%lu", (unsigned long)*(const uint32_t *)field);
	return 0;
}

int tc_ete_config_set(struct tc_ete_config *cfg, const char *key, const char *value)
{
	unsigned long v;
	int k = tc_ete_key_find(key);
	if (!cfg || k < 0)
		return -1;
	if (parse_decimal(value, tc_ete_keys[k].max, &v))
		return -2;
	store_key(cfg, k, v);
	return 0;
}

/* ---- Registers --------------------------------------------------------------- */

static uint32_t field(uint32_t reg, int hi, int lo)
{
	return (reg >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

/* A register value: 32 bits, decimal or 0x hex. */
static int parse_register(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return -1;
	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno || *end != '\0' || v > 0xffffffffull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Fields that make a register unusable on its own. */
static int check_register(int r, uint32_t v, char *err, size_t errlen)
{
	const char *n = tc_ete_regs[r].name;
	switch (r) {
	case tc_ete_reg_trcidr0:
		if (field(v, 28, 24) != 8)
			return set_err(err, errlen, -2, "%s=0x%08x: TSSIZE [28:24] is 0x%x, expected 0b01000 (ETE has 64-bit timestamps only)",
				       n, v, field(v, 28, 24));
		break;
	case tc_ete_reg_trcidr2:
		if (field(v, 28, 25) > 8)
			return set_err(err, errlen, -2, "%s=0x%08x: CCSIZE [28:25] is 0x%x, a reserved value (0..8: 12..20 bits)",
				       n, v, field(v, 28, 25));
		break;
	case tc_ete_reg_trcidr8:
		if (v > TC_ETE_MAXSPEC_LIMIT)
			return set_err(err, errlen, -2, "%s=0x%08x: MAXSPEC %u is more than this decoder takes (%u)", n, v, v,
				       TC_ETE_MAXSPEC_LIMIT);
		break;
	case tc_ete_reg_trcdevarch:
		if (field(v, 31, 21) != 0x23b || field(v, 20, 20) != 1 || field(v, 15, 12) != 5 || field(v, 11, 0) != 0xa13)
			return set_err(err, errlen, -2, "%s=0x%08x: not an ETE trace unit (expected ARCHITECT 0x23B, PRESENT 1, ARCHVER 5, ARCHPART 0xA13)",
				       n, v);
		if (field(v, 19, 16) > 3)
			return set_err(err, errlen, -2, "%s=0x%08x: REVISION %u is reserved (0..3: ETE 1.0..1.3)", n, v,
				       field(v, 19, 16));
		break;
	default:
		break;
	}
	return 0;
}

void tc_ete_builder_init(struct tc_ete_config_builder *b)
{
	if (b)
		memset(b, 0, sizeof *b);
}

int tc_ete_builder_set(struct tc_ete_config_builder *b, const char *name, const char *value, char *err,
		       size_t errlen)
{
	int k = tc_ete_key_find(name), r = tc_ete_reg_find(name);
	unsigned long v;
	uint32_t rv;
	if (!b || !value)
		return set_err(err, errlen, -1, "no name or value");
	if (k >= 0) {
		if (parse_decimal(value, tc_ete_keys[k].max, &v))
			return set_err(err, errlen, -2, "bad value '%s' for config key '%s' (decimal 0..%lu)", value, name,
				       tc_ete_keys[k].max);
		b->key[k] = v;
		b->key_given |= 1u << k;
		return 0;
	}
	if (r < 0)
		return set_err(err, errlen, -1, "unknown config key or register '%s'", name ? name : "");
	if (parse_register(value, &rv))
		return set_err(err, errlen, -2, "bad value '%s' for register %s (a 32-bit number, decimal or 0x hex)", value,
			       tc_ete_regs[r].name);
	if (check_register(r, rv, err, errlen))
		return -2;
	b->reg[r] = rv;
	b->reg_given |= 1u << r;
	return 0;
}

static int has(const struct tc_ete_config_builder *b, int r)
{
	return (b->reg_given >> r) & 1;
}

uint32_t tc_ete_builder_covered(const struct tc_ete_config_builder *b)
{
	uint32_t c = b->key_given;
	if (has(b, tc_ete_reg_trcidr8))
		c |= 1u << k_maxspec;
	if (has(b, tc_ete_reg_trcidr0))
		c |= 1u << k_commopt | 1u << k_commtrans | 1u << k_tsmark | 1u << k_ite;
	if (has(b, tc_ete_reg_trcidr0) && has(b, tc_ete_reg_trcconfigr))
		c |= 1u << k_retstack;
	if (has(b, tc_ete_reg_trcidr2))
		c |= 1u << k_wfxmode;
	return c;
}

static void note(struct tc_ete_reg_info *info, const char *fmt, ...)
{
	va_list ap;
	if (info->nnotes == TC_ETE_MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(info->note[info->nnotes++], sizeof info->note[0], fmt, ap);
	va_end(ap);
}

/* TSMARK exists from ETE 1.1 (TRCDEVARCH.REVISION 1); without TRCDEVARCH the bit is taken as it is. */
static int derive_tsmark(const struct tc_ete_config_builder *b, struct tc_ete_reg_info *info)
{
	uint32_t tsmark = field(b->reg[tc_ete_reg_trcidr0], 23, 23);
	if (tsmark && has(b, tc_ete_reg_trcdevarch) && field(b->reg[tc_ete_reg_trcdevarch], 19, 16) == 0) {
		note(info, "TRCIDR0.TSMARK is set but TRCDEVARCH.REVISION 0 is ETE 1.0 (no Timestamp Marker): tsmark=0");
		return 0;
	}
	return (int)tsmark;
}

static void derive_idr0(const struct tc_ete_config_builder *b, struct tc_ete_config *cfg, struct tc_ete_reg_info *info)
{
	uint32_t v = b->reg[tc_ete_reg_trcidr0];
	cfg->commopt = (int)field(v, 29, 29);
	cfg->commtrans = (int)field(v, 30, 30);
	cfg->ite = (int)field(v, 22, 22);
	cfg->tsmark = derive_tsmark(b, info);
	info->tssize_bits = 64;
	if (field(v, 31, 31))
		note(info, "TRCIDR0 bit 31 is RES0 but set: ignored");
	if (!has(b, tc_ete_reg_trcconfigr))
		return;
	cfg->retstack = field(v, 9, 9) && field(b->reg[tc_ete_reg_trcconfigr], 12, 12);
	if (!field(v, 9, 9) && field(b->reg[tc_ete_reg_trcconfigr], 12, 12))
		note(info, "TRCCONFIGR.RS is set but TRCIDR0.RETSTACK says no return stack: retstack=0");
}

int tc_ete_builder_apply(const struct tc_ete_config_builder *b, struct tc_ete_config *cfg,
			 struct tc_ete_reg_info *info)
{
	struct tc_ete_reg_info local;
	if (!info)
		info = &local;
	memset(info, 0, sizeof *info);
	info->revision = has(b, tc_ete_reg_trcdevarch) ? (int)field(b->reg[tc_ete_reg_trcdevarch], 19, 16) : -1;
	info->trace_id = has(b, tc_ete_reg_trctraceidr) ? (int)field(b->reg[tc_ete_reg_trctraceidr], 6, 0) : -1;
	if (has(b, tc_ete_reg_trctraceidr) && field(b->reg[tc_ete_reg_trctraceidr], 31, 7))
		note(info, "TRCTRACEIDR bits [31:7] are RES0 but set: ignored");
	if (has(b, tc_ete_reg_trcidr8))
		cfg->maxspec = b->reg[tc_ete_reg_trcidr8];
	if (has(b, tc_ete_reg_trcidr0))
		derive_idr0(b, cfg, info);
	if (has(b, tc_ete_reg_trcidr2)) {
		cfg->wfxmode = (int)field(b->reg[tc_ete_reg_trcidr2], 31, 31);
		info->ccsize_bits = 12 + field(b->reg[tc_ete_reg_trcidr2], 28, 25);
	}
	for (int k = 0; k < tc_ete_nkeys; k++)
		if ((b->key_given >> k) & 1)
			store_key(cfg, k, b->key[k]);
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
