/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/ptm_config.h — PTM decoder configuration: the one key table and the registers it is derived from. */
#ifndef TRACECERT_PTM_CONFIG_H
#define TRACECERT_PTM_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/protocol.h"
#include "tracecert/ptm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one table of PTM configuration keys and the registers they derive
 * from; shared code reaches them through the protocol descriptor
 * (tc_protocol_find("ptm")). */
#define TC_PTM_NKEYS 10
extern const struct tc_config_key tc_ptm_keys[TC_PTM_NKEYS];
extern const int tc_ptm_nkeys;

enum tc_ptm_reg { tc_ptm_reg_etmcr, tc_ptm_reg_etmidr, tc_ptm_reg_etmccer, tc_ptm_reg_etmtraceidr, tc_ptm_reg_count };
extern const struct tc_config_reg tc_ptm_regs[tc_ptm_reg_count];

/* 0, or -1 with err for a combination the decoder refuses (contextid_size 3). */
int tc_ptm_config_check(const struct tc_ptm_config *cfg, char *err, size_t errlen);
/* The keys the registers given derive (the descriptor's config_derive). */
int tc_ptm_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			 struct tc_config_notes *notes, char *err, size_t errlen);
/* Register values of a trace unit with this configuration and trace ID (test data). */
void tc_ptm_config_to_regs(const struct tc_ptm_config *cfg, unsigned trace_id, uint32_t regs[tc_ptm_reg_count]);

#ifdef __cplusplus
}
#endif

#endif
