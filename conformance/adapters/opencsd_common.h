/* SPDX-License-Identifier: BSD-3-Clause */
/* opencsd_common.h — what the OpenCSD adapters of each protocol share (opencsd_common.c): the handle, the trees, offsets. */
#ifndef TC_OPENCSD_COMMON_H
#define TC_OPENCSD_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "tracecert/adapter.h"

#define OC_TRACE_ID 0x10

struct oc_handle;

/* One protocol on OpenCSD (conformance/adapters/opencsd_<protocol>.c). */
struct oc_protocol {
	int protocol;                       /* enum tc_protocol_id */
	const char *decoder;                /* OCSD_BUILTIN_DCD_… */
	ocsd_trace_protocol_t ocsd_protocol;   /* for OpenCSD's own packet strings (TC_OCSD_DEBUG) */
	size_t config_size;                 /* sizeof the tracecert configuration struct */
	unsigned full_flags;                /* decoder flags of the L3 tree beyond OCSD_CREATE_FLG_FULL_DECODER */
	size_t state_size;                  /* the protocol's own state in the handle, zeroed at open */
	/* Refuses a configuration OpenCSD cannot be given or decode at the
	 * levels asked (enum tc_level bits); 0, or -1 with err. */
	int (*check)(const void *cfg, unsigned levels, char *err, size_t errlen);
	/* The OpenCSD configuration struct for ocsd_dt_create_decoder. */
	void (*make_config)(const void *cfg, void *ocsd_cfg);
	size_t ocsd_config_size;
	/* The packet sink of the L1 tree (ctx: the handle). */
	FnDefPktDataIn l1_packet;
	/* The generic element sink of the L3 tree (ctx: the handle). */
	FnTraceElemIn l3_elem;
	/* Each packet the L3 tree's packet processor hands on, before its
	 * decoder sees it (NULL: no monitor on the L3 tree). */
	void (*l3_monitor)(struct oc_handle *h, uint64_t offset, const void *pkt);
	/* An L3 error item when a tree gave a fatal response at fallback. */
	void (*l3_fatal)(struct oc_handle *h, uint64_t fallback);
	/* End of trace, after OpenCSD's end of trace, per level (may be NULL). */
	void (*finish_l1)(struct oc_handle *h);
	void (*finish_l3)(struct oc_handle *h);
	/* Frees what the state holds (may be NULL). */
	void (*free_state)(struct oc_handle *h);
};

struct oc_handle {
	const struct oc_protocol *proto;
	void *ctx;                          /* the runner's item callback */
	void (*item)(void *ctx, int level, const struct tc_item *item);
	const void *cfg;                    /* a copy of the runner's configuration */
	unsigned levels;
	uint64_t fed;                       /* bytes fed so far (the next offset) */
	uint64_t fed_end;                   /* end of the bytes OpenCSD has been given (oc_unwrap) */
	dcd_tree_handle_t l1;
	dcd_tree_handle_t l3;
	/* the raw packet monitor: the first bytes of the last packet */
	uint8_t raw[64];
	uint32_t raw_len;
	uint64_t raw_index;
	int raw_valid;
	/* the image */
	struct tc_adapter_region *regions;
	size_t nregions;
	int debug;                          /* TC_OCSD_DEBUG set */
	unsigned long errors_logged;        /* messages OpenCSD's error logger has output (oc_open) */
	void *state;                        /* the protocol's own, proto->state_size bytes */
};

/* ---- offsets ----------------------------------------------------------------- */

/* An offset that no byte given to OpenCSD can have (oc_unwrap). */
#define OC_NO_OFFSET UINT64_MAX

/* The 64-bit offset of an index OpenCSD reports (the offset modulo 2^32),
 * when bytes [0, end) have been given to it: the last offset below end with
 * those low 32 bits, or OC_NO_OFFSET when there is none. */
uint64_t oc_unwrap(uint64_t end, uint32_t index);
/* The index OpenCSD is given for a byte: its offset modulo 2^32. */
ocsd_trc_index_t oc_index(uint64_t offset);
/* The offset of an index OpenCSD reports now (0 if it names no byte given). */
uint64_t oc_offset(const struct oc_handle *h, ocsd_trc_index_t index);

/* ---- output ------------------------------------------------------------------ */

/* Hands an item to the runner (level tc_level_l1 or tc_level_l3). */
void oc_emit(struct oc_handle *h, int level, const struct tc_item *item);
/* The header byte of the packet at index, from the raw monitor (0 if the
 * monitor has not seen it). */
uint8_t oc_header(const struct oc_handle *h, ocsd_trc_index_t index);
/* TC_OCSD_DEBUG: OpenCSD's own text of a packet and of an element. */
void oc_debug_packet(const struct oc_handle *h, uint64_t offset, const void *pkt, uint8_t header);
void oc_debug_elem(const struct oc_handle *h, uint64_t offset, ocsd_trc_index_t index,
		   const ocsd_generic_trace_elem *e);

/* Each protocol's file opencsd_<protocol>.c defines `const struct oc_protocol
 * oc_<protocol>` and the vector feature tags OpenCSD cannot decode, `const
 * char *const oc_<protocol>_unsupported[]` (NULL-terminated); the build
 * declares them and lists them in oc_protocols.h (tools/gen-protocols.sh). */

#endif
