/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/rvtrace_config.h — RISC-V processor trace 0.026 decoder configuration: the keys of
 * reference/rvtrace/CONFIG.md, the one key table and the discovery fields they derive from. */
#ifndef TRACECERT_RVTRACE_CONFIG_H
#define TRACECERT_RVTRACE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the decoder must be told because the byte stream does not say it:
 * Table 3.7's parameters (L214–241) and the project's choices
 * (reference/rvtrace/CONFIG.md, ERRATA.md). tc_rvtrace_config_default()
 * gives the defaults listed. Every field is a key of tc_rvtrace_keys. */
struct tc_rvtrace_config {
	int iaddress_width_p;  /* instruction address and tval width, 2..64, at most XLEN (L226) (default 32) */
	int iaddress_lsb_p;    /* packet addresses are shifted left by it, 0..3 (L225, L386) (default 0) */
	int context_width_p;   /* the sync packets' context field, 1..32 (L223, L383) (default 32) */
	int nocontext_p;       /* 1: sync packets have no context field (L227) (default 0) */
	int privilege_width_p; /* the privilege field, 1..4 (L229, L384) (default 2) */
	int ecause_width_p;    /* the ecause field, 1..16 (L224, L387) (default 5) */
	int notval_p;          /* 1: sync exception packets have no tval (L228, L389) (default 0) */
	int rv32;              /* 1: XLEN 32, 0: XLEN 64 (L267) (default 1) */
	int c_ext;             /* the hart has the C extension (L3) (default 1) */
	int full_address;      /* 1: format 2 carries a full address, format 1 is bad-mode (L376, RV-P4) (default 0) */
	int diff_sign;         /* 0: address = base + diff, 1: base - diff, trdb's (RV-X1; L3) (default 0) */
	int long_frames;       /* 1: a te_inst frame with N = 0 is the long form (RV-F4) (default 1) */
	int timer_width;       /* bits of trdb's timer value, 1..64 (RV-X3) (default 40) */
	uint32_t walk_limit;   /* L3: most instructions one packet may walk; 0 = 1048576 */
};

/* Sets the defaults listed above (cfg may be NULL). */
void tc_rvtrace_config_default(struct tc_rvtrace_config *cfg);

/* The one table of keys, in CONFIG.md's order. */
#define TC_RVTRACE_NKEYS 14
extern const struct tc_config_key tc_rvtrace_keys[TC_RVTRACE_NKEYS];
extern const int tc_rvtrace_nkeys;

/* The discovery fields (L249–273) as registers, each the value the list
 * gives (CONFIG.md "Discovery fields"). */
enum tc_rvtrace_reg {
	tc_rvtrace_reg_iaddress_width, tc_rvtrace_reg_iaddress_lsb, tc_rvtrace_reg_context_width,
	tc_rvtrace_reg_nocontext, tc_rvtrace_reg_privilege_width, tc_rvtrace_reg_ecause_width,
	tc_rvtrace_reg_notval, tc_rvtrace_reg_rv32, tc_rvtrace_reg_count
};
extern const struct tc_config_reg tc_rvtrace_regs[tc_rvtrace_reg_count];

/* 0, or -1 with err for a value out of its range or a combination the
 * decoder refuses (CONFIG.md "Combinations refused"). */
int tc_rvtrace_config_check(const struct tc_rvtrace_config *cfg, char *err, size_t errlen);
/* The keys the discovery fields given derive (bit r of given: regs[r]):
 * value[k] and bit k of *derived; -1 with err for a field whose value
 * gives no key value. notes is not written (no field has bits to ignore). */
int tc_rvtrace_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			     struct tc_config_notes *notes, char *err, size_t errlen);
/* The discovery fields of this configuration (the inverse of derive). */
void tc_rvtrace_config_to_regs(const struct tc_rvtrace_config *cfg, uint32_t regs[tc_rvtrace_reg_count]);

#ifdef __cplusplus
}
#endif

#endif
