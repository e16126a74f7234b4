/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_internal.h — the state the ETMv1 modules share (reference/etmv1/README.md "Modules"). */
#ifndef TC_ETMV1_INTERNAL_H
#define TC_ETMV1_INTERNAL_H

#include "tracecert/etmv1.h"
#include "cyclecap.h"
#include "insn.h"
#include "tracecert/image.h"

#define E1_QUEUE 1024     /* items owed packets or waiting to be written (ETM1-P29) */
#define E1_EARLY 1024     /* early packets held (ETM1-P29) */
#define E1_HUNT 4096      /* cycles held while a candidate branch is probed (ETM1-P9) */

/* The segments of an instruction's demand, in the order of ETM1-P2 and ETM1-P11. */
enum e1_seg { e1_seg_daddr, e1_seg_value, e1_seg_addr, e1_seg_ctxid, e1_seg_done };

struct e1_item {
	struct tc_etmv1_record r;
	struct { uint8_t warning, field, bits; } warn[4];
	uint8_t nwarn;
	uint8_t seg;              /* enum e1_seg: the next segment owed */
	uint8_t need_daddr, need_value, need_addr;
	uint8_t sized;            /* values sized by the walk */
	uint8_t cprt_checked;     /* the walk asked whether it is a CPRT, which has no address (ETM1-P52) */
	uint8_t vidx, vbyte;      /* the value being read, its next byte */
	uint8_t daddr_pkts;
	uint32_t daddr_raw;
	uint8_t addr_started;
	uint32_t addr_raw;
	uint8_t ctx_left, ctx_got;
	uint8_t apo_left;         /* APO cycles still to come (2, 1, 0) */
	uint8_t apo_expected;     /* the decoder's count of addresses ahead at the branch's cycle (ETM1-P8) */
	uint8_t skip_syncs;       /* the synchronising branch: TRACESYNC packets until its address (ETM1-P9) */
	uint8_t sync_start;       /* 1: the branch the decoder synchronised on */
	uint8_t spec;             /* 1: its address came before earlier demands were met (ETM1-P18) */
	uint8_t retired;
	uint8_t apo_checked;
};

struct tc_etmv1_decoder {
	struct tc_etmv1_config cfg;
	struct tc_etmv1_sink sink;
	struct tc_etmv1_walk walk;
	int has_walk;
	struct tc_cyclecap cc;
	int header_checked, dead, finished;
	int synced;
	/* the items, oldest first: seq numbers head (next to write) .. tail */
	struct e1_item q[E1_QUEUE];
	uint64_t head, tail;
	uint64_t open_from;        /* no item before it owes a packet (e1_head_demand starts there) */
	struct e1_item *cur_addr; /* the branch whose address is being read */
	uint32_t last_addr;       /* the last branch address (ETM1-P14) */
	int jazelle_state;        /* ETMv1.3: the last five-packet address had J = 1 (ETM1-P40) */
	uint32_t last_daddr;
	int daddr_known;          /* ETM1-P13 */
	uint8_t early[E1_EARLY];
	uint8_t early_sync[E1_EARLY];
	uint64_t early_off[E1_EARLY];
	int nearly;
	int early_lone;           /* 16-bit: the one early byte is a WT cycle's [15:8] (ETM1-P4) */
	int half;                 /* 4-bit: a low nibble is held */
	uint8_t half_val, half_sync;
	uint64_t half_off;
	struct e1_item *apo_item; /* the branch whose APO cycles are running */
	int td_run;               /* the previous cycle was a TD with TRACEPKT[0] = 0 */
	uint8_t sync_apo;         /* the APO of the branch synchronised on, for the replay */
	int replay_pending;
	/* unsynchronised: the cycles from the oldest candidate branch on */
	struct tc_cyclecap_record *hunt;
	int nhunt;
	/* ETM1-P10: after a value with no image, the packets up to the next TRACESYNC */
	int unassigned_open;
	uint32_t unassigned_n;    /* bytes, or nibbles on a 4-bit port */
	uint64_t unassigned_off;
	int unassigned_seen;
	int unassigned_split;     /* a part of the run was reported before another item (ETM1-P39) */
	uint64_t last_item_off;   /* the offset of the last item reported (ETM1-P39) */
	uint8_t cur_status;       /* the status byte's PIPESTAT of the record being read */
};

/* etmv1_cycle.c */
int e1_status_is_insn(int st);
int e1_cycle_carries(const struct tc_etmv1_decoder *d, int st, int demand_open);
void e1_cycle_packets(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec, int st);

/* etmv1_assoc.c */
struct e1_item *e1_push(struct tc_etmv1_decoder *d, int kind, const struct tc_cyclecap_record *rec, int status);
struct e1_item *e1_add_insn(struct tc_etmv1_decoder *d, int st, const struct tc_cyclecap_record *rec);
int e1_demand_open(struct tc_etmv1_decoder *d);
void e1_settle_at_end(struct tc_etmv1_decoder *d);
struct e1_item *e1_head_demand(struct tc_etmv1_decoder *d);
int e1_next_is_addr_start(struct tc_etmv1_decoder *d);
void e1_packet(struct tc_etmv1_decoder *d, uint8_t byte, int sync, uint64_t off);
void e1_warn(struct e1_item *it, int warning, int field, int bits);
void e1_advance(struct tc_etmv1_decoder *d);

/* etmv1_packet.c */
int e1_addr_byte(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte);
int e1_daddr_byte(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte);
void e1_value_byte(struct e1_item *it, uint8_t byte);
void e1_ctxid_byte(struct e1_item *it, uint8_t byte);

/* etmv1_sync.c */
void e1_apo_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec);
void e1_apo_done(struct tc_etmv1_decoder *d, struct e1_item *it);
void e1_check_apo(struct tc_etmv1_decoder *d, struct e1_item *it);
void e1_unsync_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec);
void e1_hunt_flush(struct tc_etmv1_decoder *d);

/* etmv1_decoder.c */
void e1_error(struct tc_etmv1_decoder *d, int error, uint64_t off);
void e1_emit_ready(struct tc_etmv1_decoder *d);
/* The open unassigned run as an item: at_sync, the TRACESYNC that ends it; else another item is
 * about to be reported, and the packets so far are reported first (ETM1-P39). */
void e1_unassigned_report(struct tc_etmv1_decoder *d, int at_sync);
void e1_emit_simple(struct tc_etmv1_decoder *d, int kind, uint64_t off, int status);
void e1_synced_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec);
void e1_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec);
void e1_unsync(struct tc_etmv1_decoder *d);
void e1_functional(struct tc_etmv1_decoder *d, int st, const struct tc_cyclecap_record *rec);

/* etmv1_walk.c: the walk over the image (ETM1-P10, P17, P19, P23, P25, P26, P37, P38). */
struct e1_walk {
	struct tc_etmv1_config cfg;
	const struct tc_image *img;
	uint32_t pc;
	uint8_t isa;              /* enum tc_etmv1_isa */
	uint8_t valid;            /* pc is the next instruction's address */
	uint8_t half;             /* the first PIPESTAT of a Thumb BL pair was seen (ETM1-P25) */
	uint8_t after_abandon;    /* the default reading of ETM1-P19: the next branch is no instruction */
	uint32_t abandoned_addr;
	uint8_t jazelle;          /* in Jazelle state: nothing walks (ETM1-P23) */
	uint8_t ctx_valid;
	uint32_t ctxid;
};

/* What one L1 item walked, in the order L3 gives it: trace-on or overflow; the instruction (or
 * no-image at its address); the exception; the context; Jazelle's stop. */
struct e1_step {
	uint8_t trace_on, overflow;
	uint8_t insn, executed, ends, isa;   /* isa: enum tc_isa */
	uint32_t at;
	struct tc_insn in;
	uint8_t no_image;
	uint8_t exception, ret_unknown;
	uint16_t type;
	uint32_t ret;
	uint8_t context;
	uint8_t jazelle;
};

void e1_walk_init(struct e1_walk *w, const struct tc_etmv1_config *cfg);
void e1_walk_step(struct e1_walk *w, const struct tc_etmv1_record *r, struct e1_step *s);
void e1_walk_transfers(const struct e1_walk *w, struct tc_etmv1_transfers *t);

#endif
