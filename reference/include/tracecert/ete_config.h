/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/ete_config.h — ETE decoder configuration: the one key table, and the configuration derived from the trace unit's registers. */
#ifndef TRACECERT_ETE_CONFIG_H
#define TRACECERT_ETE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/ete.h"
#include "tracecert/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The one table of ETE configuration keys (maxspec, commopt, …, in the
 * order of struct tc_ete_config's use), and the registers they derive from;
 * shared code reaches them through the protocol descriptor (tracecert/protocol.h,
 * tc_protocol_find("ete")). reference/ete/CONFIG.md gives each field's source. */
#define TC_ETE_NKEYS 12
extern const struct tc_config_key tc_ete_keys[TC_ETE_NKEYS];
extern const int tc_ete_nkeys;

enum tc_ete_reg {
	tc_ete_reg_trcidr0, tc_ete_reg_trcidr2, tc_ete_reg_trcidr8,
	tc_ete_reg_trcconfigr, tc_ete_reg_trcdevarch, tc_ete_reg_trctraceidr,
	tc_ete_reg_count
};
extern const struct tc_config_reg tc_ete_regs[tc_ete_reg_count];

/* Key k of a configuration: tc_config_get and tc_config_set of
 * tracecert/protocol.h, by the table. */

/* The keys the registers given derive (the descriptor's config_derive):
 * value[k] and bit k of *derived for each, a note for each field ignored
 * or worth saying (timestamp and cycle counter sizes, ETE revision). A
 * register whose fields are unusable (a reserved encoding, a value the
 * decoder cannot take) is -1 with err naming the field. */
int tc_ete_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			 struct tc_config_notes *notes, char *err, size_t errlen);

/* A combination the decoder refuses (tc_ete_alloc returns NULL): 0, or -1
 * with err. */
int tc_ete_config_check(const struct tc_ete_config *cfg, char *err, size_t errlen);

/* The inverse mapping: register values of a trace unit that has this
 * configuration (deriving from them gives cfg back for every derived key),
 * with trace ID trace_id. For test data (snapshot writer). */
void tc_ete_config_to_regs(const struct tc_ete_config *cfg, unsigned trace_id, uint32_t regs[tc_ete_reg_count]);

#ifdef __cplusplus
}
#endif

#endif
