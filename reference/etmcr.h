/* SPDX-License-Identifier: BSD-3-Clause */
/* etmcr.h — the configuration keys an ETM Control Register derives, in the layout whose port size is
 * bits [6:4] alone (ARM IHI 0014 Table 3-5 L3630, Table 3-6 and its note a, L3729, L3756): the
 * protocols of the same chapter 3 share it; each names the index of every key in its own table. */
#ifndef TC_ETMCR_H
#define TC_ETMCR_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/protocol.h"

/* The index of each key ETMCR gives in the caller's key table. */
struct tc_etmcr_keys {
	int cprt;             /* [1] MonitorCPRT (Table 3-5 L3689) */
	int data_value;       /* [2] (L3683-3688) */
	int data_address;     /* [3] */
	int port_width;       /* [6:4]: b000 4, b001 8, b010 16 (Table 3-6 L3731-3745) */
	int branch_output;    /* [8] (L3675) */
	int cycle_accurate;   /* [12] (L3666) */
	int half_rate;        /* [13] (L3664) */
	int contextid_size;   /* [15:14]: b00 0, b01 1, b10 2, b11 4 (L3663) */
	int port_mode;        /* [17:16] (L3655) */
};

/* The fields of ETMCR that tc_etmcr_derive reads: the doc of its row in a protocol's register table
 * (struct tc_config_reg, the row of offset 0x000). */
#define TC_ETMCR_DOC \
	"[1] MonitorCPRT, [3:2] data access, [6:4] port size, [8] branch output, [12] cycle-accurate, " \
	"[13] half-rate, [15:14] ContextIDsize, [17:16] port mode"

/* value[k] and bit k of *derived for each key of k from the register cr. A reserved port size or port
 * mode is refused: -1 with err naming the field, nothing written. */
int tc_etmcr_derive(uint32_t cr, const struct tc_etmcr_keys *k, uint64_t *value, uint32_t *derived, char *err,
		    size_t errlen);

/* The keys ETMCR holds in cfg, read through the protocol's key table (keys, the indices of k): the
 * port width 4, 8 or 16 (Table 3-6 L3731-3745), the port mode 0..2 (Table 2-17 L2806-2814), the
 * Context ID size 0, 1, 2 or 4 (L3663), the single-bit fields 0 or 1, and no half-rate clocking of a
 * multiplexed port (no such row in Table 2-17, L2802). 0, or -1 with err naming the first key out of
 * place (by its table's name). */
int tc_etmcr_check(const struct tc_config_key *keys, const struct tc_etmcr_keys *k, const void *cfg, char *err,
		   size_t errlen);

/* The ETMCR value whose fields are those keys' values in cfg (what tc_etmcr_derive turns back into
 * them; the other bits 0). */
uint32_t tc_etmcr_value(const struct tc_config_key *keys, const struct tc_etmcr_keys *k, const void *cfg);

#endif
