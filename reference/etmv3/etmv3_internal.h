/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_internal.h — private state of the ETMv3 reference decoder (parser, driver, analysis). */
#ifndef TC_ETMV3_INTERNAL_H
#define TC_ETMV3_INTERNAL_H

#include "tracecert/etmv3.h"
#include "clause.h"
#include "insn.h"

/* What the packets carry from one to the next: the last broadcast
 * instruction address with its instruction set, security and Hyp state
 * (§7.3.5 "Branch address compression", Table 7-13: the reference of a
 * compressed branch address and the missing components of a branch
 * packet), the last traced data address and its BE bit (§7.4.2), the
 * context, the timestamp (bit replacement). The driver saves it before each
 * packet and restores it when the packet fails. */
struct tc_etmv3_state {
	uint32_t address;
	uint32_t data_address;
	uint32_t context_id;
	uint32_t vmid;
	uint64_t timestamp;        /* natural binary, whatever the encoding on the wire */
	uint8_t isa;               /* enum tc_etmv3_isa */
	uint8_t ns;
	uint8_t hyp;
	uint8_t be;
};

/* Most warnings one packet carries: eleven, an LSiP I-sync with cycle count
 * in ETMv3.4 on ARMv7-M: cc-last, isync-info, isync-info0, lsip-first, then
 * per exception information byte lsip-exc (0), exc1 and lsip-exc (1),
 * exc2-id, exc2, exc2-last and lsip-exc (2); exc0 only before ETMv3.4, when
 * no byte 1 or 2 follows (vectors/etmv3/regress/eleven-warnings.tcv). */
#define TC_ETMV3_MAX_WARN 12

struct tc_etmv3_warn {
	uint8_t warning;           /* enum tc_etmv3_warning */
	uint8_t field;             /* enum tc_etmv3_warn_field */
	uint8_t bits;
};

/* Everything one packet produces. */
struct tc_etmv3_out {
	struct tc_etmv3_packet pkt;
	struct tc_etmv3_warn warn[TC_ETMV3_MAX_WARN];
	int nwarn;
};

/* Longest packet: an LSiP I-sync with cycle count: header, 5 cycle-count
 * bytes, 4 context ID bytes, information byte, 4 address bytes, 5 current
 * address bytes and 3 exception information bytes (23); a 64-bit timestamp
 * (10). */
#define TC_ETMV3_MAX_PACKET 24

/* Parses one packet at buf (len > 0 bytes available; buf[0] != 0) against
 * *st. Returns the bytes consumed (> 0); 0 when the bytes end inside the
 * packet; or -error (enum tc_etmv3_error). *st may be changed even on
 * failure: the caller restores it. */
int tc_etmv3_parse_packet(const struct tc_etmv3_config *cfg, struct tc_etmv3_state *st, const uint8_t *buf,
			  size_t len, uint64_t offset, struct tc_etmv3_out *out);

/* The error class of a header byte in this configuration (Tables 7-1, 7-2,
 * 7-3 and the versions and modes of FORMAT.md), 0 when it starts a packet. */
int tc_etmv3_header_error(const struct tc_etmv3_config *cfg, uint8_t header);

/* ---- L3: instructions over a program image ---------------------------------- */

/* Where the walk stands. */
struct tc_etmv3_cur {
	uint32_t address;
	uint8_t isa;               /* enum tc_etmv3_isa */
	uint8_t ns;
	uint8_t hyp;
	uint8_t valid;             /* the address is known */
};

/* The last instruction an atom traced, kept until nothing can cancel it
 * (ETM3-P16). */
struct tc_etmv3_last {
	uint32_t address;          /* the instruction */
	uint64_t prev_last;        /* the open range's last instruction before it */
	uint8_t isa;
	uint8_t in_range;          /* it is the open range's last instruction */
	uint8_t valid;
};

#define TC_ETMV3_ICACHE 8192       /* decoded instructions remembered (a power of two) */

/* One remembered decode (etmv3_analyze.c decode_cached). */
struct tc_etmv3_icache_slot {
	struct tc_insn insn;
	uint32_t address;
	uint8_t isa;               /* enum tc_isa */
	uint8_t valid;
};

struct tc_etmv3_analyzer {
	const struct tc_etmv3_config *cfg;
	const struct tc_etmv3_sink *sink;
	const struct tc_image *image;
	struct tc_etmv3_icache_slot icache[TC_ETMV3_ICACHE];   /* emptied by tc_etmv3_set_image */
	struct tc_etmv3_cur cur;
	int have_isync;            /* an I-sync since the start or the last error (ETM3-P5) */
	uint32_t context_id;
	uint32_t vmid;
	struct tc_context ctx_out; /* last context reported */
	int ctx_out_valid;
	uint64_t offset;           /* packet being analysed */
	struct tc_l3 range;        /* the range being built */
	int range_open;
	int range_ended;           /* it ends with a branch: delivered before anything else joins */
	uint64_t range_next;       /* address after its last instruction (2^32 past the top) */
	struct tc_etmv3_last last;
	int half_t32;              /* thumb2_one=0: the first of a 32-bit Thumb instruction's two atoms seen */
	int cc_ignored;            /* the most recent non-periodic I-sync's cycle count must be ignored (ETM3-P25) */
	int await_branch;          /* a taken indirect branch waits for its branch address packet (ETM3-P27) */
	int eret_held;             /* an exception return (A, R profile) held with the range being built (ETM3-X4) */
	uint64_t eret_offset;      /* its packet */
};

void tc_etmv3_analyze_init(struct tc_etmv3_analyzer *a, const struct tc_etmv3_config *cfg,
			   const struct tc_etmv3_sink *sink);
/* One L1 packet (errors included) in stream order. */
void tc_etmv3_analyze(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p);
/* End of trace: the open range is output. */
void tc_etmv3_analyze_flush(struct tc_etmv3_analyzer *a);

#endif
