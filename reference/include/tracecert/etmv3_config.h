/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/etmv3_config.h — ETMv3 decoder configuration: the one key table and the registers it is derived from. */
#ifndef TRACECERT_ETMV3_CONFIG_H
#define TRACECERT_ETMV3_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/protocol.h"
#include "tracecert/etmv3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one table of ETMv3 configuration keys and the registers they derive
 * from; shared code reaches them through the protocol descriptor
 * (tc_protocol_find("etmv3")). */
#define TC_ETMV3_NKEYS 14
extern const struct tc_config_key tc_etmv3_keys[TC_ETMV3_NKEYS];
extern const int tc_etmv3_nkeys;

enum tc_etmv3_reg { tc_etmv3_reg_etmcr, tc_etmv3_reg_etmidr, tc_etmv3_reg_etmccer, tc_etmv3_reg_etmtraceidr,
		    tc_etmv3_reg_count };
extern const struct tc_config_reg tc_etmv3_regs[tc_etmv3_reg_count];

/* 0, or -1 with err for a combination the decoder refuses. */
int tc_etmv3_config_check(const struct tc_etmv3_config *cfg, char *err, size_t errlen);
/* The keys the registers given derive (the descriptor's config_derive). */
int tc_etmv3_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			   struct tc_config_notes *notes, char *err, size_t errlen);
/* Register values of a trace unit with this configuration and trace ID (test data). */
void tc_etmv3_config_to_regs(const struct tc_etmv3_config *cfg, unsigned trace_id,
			     uint32_t regs[tc_etmv3_reg_count]);

#ifdef __cplusplus
}
#endif

#endif
