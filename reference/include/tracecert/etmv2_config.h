/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/etmv2_config.h — the configuration of the ETMv2 reference decoder (reference/etmv1/CONFIG.md
 * "etmv2"). */
#ifndef TRACECERT_ETMV2_CONFIG_H
#define TRACECERT_ETMV2_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tc_etmv2_config {
	uint8_t version;           /* ETMv2 minor version 0..1 (ETM2-P1) */
	uint8_t port_mode;         /* 0 normal, 1 multiplexed, 2 demultiplexed (ETMC-F2) */
	uint8_t half_rate;         /* 0..1 */
	uint8_t contextid_size;    /* 0, 1, 2, 4: Context ID and TFO packets (L8828, L8993) */
	uint8_t data_address;      /* ETMCR[3] */
	uint8_t data_value;        /* ETMCR[2] */
	uint8_t cprt;              /* ETMCR[1] MonitorCPRT */
	uint8_t cycle_accurate;    /* ETMCR[12] */
	uint8_t branch_output;     /* ETMCR[8] */
	uint8_t hivecs;            /* vectors at 0xFFFF0000 (L3) */
	uint16_t port_width;       /* 4, 8, 16 (two bytes: the struct has no padding, every byte a key's) */
	uint16_t fifo_depth;       /* FIFO bytes, 0 when not known (ETM2-P10) */
};

/* The defaults of CONFIG.md "Keys", etmv2. */
void tc_etmv2_config_default(struct tc_etmv2_config *c);

/* 0 when the configuration is one CONFIG.md allows; else -1 with the reason in err. */
int tc_etmv2_config_check(const struct tc_etmv2_config *c, char *err, size_t errlen);

/* The key table (CONFIG.md "Keys"), its registers and what they derive (tracecert/protocol.h). */
#define TC_ETMV2_NKEYS 12
extern const struct tc_config_key tc_etmv2_keys[TC_ETMV2_NKEYS];
enum { tc_etmv2_reg_etmcr, tc_etmv2_reg_etmccr, tc_etmv2_reg_etmidr, tc_etmv2_reg_count };
extern const struct tc_config_reg tc_etmv2_regs[tc_etmv2_reg_count];
int tc_etmv2_config_derive(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			   struct tc_config_notes *notes, char *err, size_t errlen);
void tc_etmv2_config_to_regs(const struct tc_etmv2_config *c, uint32_t *regs);

#ifdef __cplusplus
}
#endif

#endif
