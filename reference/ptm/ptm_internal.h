/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_internal.h — private state of the PFT/PTM reference decoder (parser, driver, analysis). */
#ifndef TC_PTM_INTERNAL_H
#define TC_PTM_INTERNAL_H

#include "tracecert/ptm.h"
#include "clause.h"
#include "insn.h"
#include "retstack.h"

/* LastState of IHI 0035B App. B.3.2 as far as the packets carry it: the
 * reference for address decompression (§4.5.4 "compared with the address
 * in the last branch address packet or I-sync packet"), the security and
 * Hyp state, the context, the timestamp for bit replacement. Small: the
 * driver saves it before each packet and restores it when the packet
 * fails, so a failed packet leaves it untouched. */
struct tc_ptm_state {
	uint32_t address;
	uint32_t context_id;
	uint32_t vmid;
	uint64_t timestamp;        /* natural binary, whatever the encoding on the wire */
	uint8_t isa;               /* enum tc_ptm_isa */
	uint8_t ns;
	uint8_t hyp;
};

/* Most warnings one packet carries: a branch address packet's fifth byte,
 * two exception bytes and two cycle-count bytes. */
#define TC_PTM_MAX_WARN 6

struct tc_ptm_warn {
	uint8_t warning;           /* enum tc_ptm_warning */
	uint8_t field;             /* enum tc_ptm_warn_field */
	uint8_t bits;
};

/* Everything one packet produces. */
struct tc_ptm_out {
	struct tc_ptm_packet pkt;
	struct tc_ptm_warn warn[TC_PTM_MAX_WARN];
	int nwarn;
};

/* Longest packet: I-sync with a 5-byte cycle count and 4 context ID bytes
 * (15), or a 64-bit timestamp with a 5-byte cycle count (15). */
#define TC_PTM_MAX_PACKET 16

/* Parses one packet at buf (len > 0 bytes available; buf[0] is not 0x00, the
 * A-sync header, which the byte stream reads itself: reference/pktstream.c) against *st. Returns
 * the bytes consumed (> 0); 0 when the bytes end inside the packet; or
 * -error (enum tc_ptm_error). *st may be changed even on failure: the
 * caller restores it. */
int tc_ptm_parse_packet(const struct tc_ptm_config *cfg, struct tc_ptm_state *st,
			const uint8_t *buf, size_t len, uint64_t offset, struct tc_ptm_out *out);

/* Whether a header byte starts a packet in this configuration (Table 4.1). */
int tc_ptm_header_valid(const struct tc_ptm_config *cfg, uint8_t header);

/* ---- L3: the App. B.3.2 operations over a program image ------------------ */

/* CurrentState of App. B.3.2. */
struct tc_ptm_cur {
	uint32_t address;
	uint8_t isa;               /* enum tc_ptm_isa */
	uint8_t ns;
	uint8_t hyp;
	uint8_t valid;             /* the address is known */
};

/* Return stack depth: the text gives none (PTM-P13). */
#define TC_PTM_RETURN_STACK_DEPTH 15

struct tc_ptm_analyzer {
	const struct tc_ptm_config *cfg;
	const struct tc_ptm_sink *sink;
	const struct tc_image *image;
	struct tc_ptm_cur cur;
	int have_isync;            /* an I-sync since the start or the last error (PTM-P5) */
	uint32_t context_id;
	uint32_t vmid;
	struct tc_context ctx_out; /* last context reported */
	int ctx_out_valid;
	struct tc_retstack rs;     /* entries: address, instruction set (isa), security state (ns) */
	uint64_t offset;           /* packet being analysed */
	struct tc_l3 range;        /* the open range */
	int range_open;
	uint64_t range_next;       /* address after its last instruction: 2^32 after 0xfffffffe/c, so a walk
	                            * that runs on at 0 starts a new range (ranges are in address order, PTM-P20) */
};

void tc_ptm_analyze_init(struct tc_ptm_analyzer *a, const struct tc_ptm_config *cfg,
			 const struct tc_ptm_sink *sink);
/* One L1 packet (errors included) in stream order. */
void tc_ptm_analyze(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p);
/* End of trace: the open range is output. */
void tc_ptm_analyze_flush(struct tc_ptm_analyzer *a);

#endif
