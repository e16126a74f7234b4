/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_internal.h — the state the ETMv2 modules share (reference/etmv1/README.md "Modules", etmv2). */
#ifndef TC_ETMV2_INTERNAL_H
#define TC_ETMV2_INTERNAL_H

#include "tracecert/etmv2.h"
#include "cyclecap.h"

#define E2_QUEUE 1024     /* items waiting for their group or to be written (ETM2-P21) */
#define E2_PACKETS 8      /* packets of one group (ETM2-P21) */

/* What the next byte of the group being read is (etmv2_parse.c, etmv2_tfo.c). */
enum e2_seg {
	e2_seg_header,    /* a packet's first byte: a header of Table 6-2 or a branch address */
	e2_seg_daddr,     /* data address bytes (ETM2-P5) */
	e2_seg_value,     /* data value bytes (Table 6-3) */
	e2_seg_ctxid,     /* Context ID bytes */
	e2_seg_branch,    /* branch address bytes after the first (ETM2-P6) */
	e2_seg_tfo_ctxid, /* TFO packet: Context ID (ETM2-P12) */
	e2_seg_tfo_addr,  /* TFO packet: the 4-byte address */
	e2_seg_tfo_cur    /* LSiP: the compressed current address */
};

struct e2_item {
	struct tc_etmv2_record r;
	struct tc_etmv2_record pk[E2_PACKETS];
	uint8_t npk;
	struct { uint8_t warning, field, bits; } warn[4];
	uint8_t nwarn;
	uint8_t has_group, group_done;
	uint8_t is_tfo;
	uint8_t tfo_hunt;         /* the TFO the decoder synchronises on: its value is a skip (ETM2-P10) */
	uint8_t tfo_gap;          /* 4-bit, synchronised: a nibble was held at the TFO: a gap nibble follows */
	uint8_t tfo_have_value;
	uint64_t bytes_at;        /* the decoder's byte count at the TFO cycle */
};

/* The group being read: the state of its current packet. */
struct e2_parse {
	uint8_t seg;              /* enum e2_seg */
	uint8_t more;             /* the C bit of the current header */
	uint8_t n;                /* bytes of the segment read */
	uint8_t left;             /* bytes of the segment still to come (value, Context ID, TFO address) */
	uint8_t next_value;       /* after the data address: 1 when a value follows */
	uint64_t raw;
	uint8_t base_isa;         /* a branch address: the state it is compressed in */
	uint32_t base;
};

struct tc_etmv2_decoder {
	struct tc_etmv2_config cfg;
	struct tc_etmv2_sink sink;
	struct tc_cyclecap cc;
	int finished;
	int synced;
	uint64_t epoch;           /* counts the losses of synchronisation */
	/* the items, oldest first: seq numbers head (next to write) .. tail; grp: the group being read */
	struct e2_item q[E2_QUEUE];
	uint64_t head, tail, grp;
	struct e2_parse p;
	uint32_t last_addr;       /* the last branch or TFO address (ETM2-P6) */
	uint8_t last_isa;
	uint32_t last_daddr;
	int daddr_known;          /* ETM2-P5 */
	uint64_t bytes_read;      /* FIFO bytes read since synchronisation */
	uint64_t last_byte_item;  /* seq of the item the last byte went to */
	int half;                 /* 4-bit: a low nibble is held */
	uint8_t half_val;
	uint64_t half_off;
	uint32_t skip;            /* FIFO data to drop before the TFO packet: nibbles (4-bit) or bytes */
	/* a TFO value still to come: 1 the upper nibble (4-bit); 2 the whole value on the next cycle
	 * (a trigger on the TFO cycle, 8 and 16 bits); 3 the lower nibble (the same on 4 bits) */
	int tfo_wait;
	uint8_t tfo_lo;
	int gap_wait;             /* the next cycle that is not TR holds the gap nibble */
	uint64_t tfo_seq;         /* the TFO item whose value is awaited */
	int td_run;               /* the previous cycle was a TD with TRACEPKT[0] = 0 */
	uint8_t cur_status;       /* the PIPESTAT of the record being read */
};

/* etmv2_cycle.c */
int e2_status_is_insn(int st);
int e2_status_has_data(int st);
void e2_status(struct tc_etmv2_decoder *d, int st, const struct tc_cyclecap_record *rec, int from_trigger);
void e2_cycle_data(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec);

/* etmv2_parse.c */
void e2_group_byte(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b);
int e2_branch_byte(struct tc_etmv2_decoder *d, struct e2_item *it, struct tc_etmv2_record *pk, uint8_t b);
void e2_packet_done(struct tc_etmv2_decoder *d, struct e2_item *it);
struct tc_etmv2_record *e2_new_packet(struct tc_etmv2_decoder *d, struct e2_item *it, int kind);

/* etmv2_tfo.c */
int e2_tfo_decode(uint8_t v);
void e2_tfo_cycle(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec, int from_trigger);
int e2_tfo_pending_cycle(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec);
void e2_tfo_byte(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b);

/* etmv2_decoder.c */
struct e2_item *e2_at(struct tc_etmv2_decoder *d, uint64_t seq);
struct e2_item *e2_push(struct tc_etmv2_decoder *d, int kind, const struct tc_cyclecap_record *rec, int status);
struct e2_item *e2_group_item(struct tc_etmv2_decoder *d);
void e2_warn(struct e2_item *it, int warning, int field, int bits);
void e2_error(struct tc_etmv2_decoder *d, int error, uint64_t off);
void e2_emit_simple(struct tc_etmv2_decoder *d, int kind, uint64_t off, int status);
void e2_unsync(struct tc_etmv2_decoder *d);

#endif
