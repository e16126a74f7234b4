/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_tfo.c — Trace FIFO Offsets: the value of Table 6-4 by its formula, the second nibble and the
 * gap nibble of a 4-bit port, a trigger on the TFO cycle, the skip of an unsynchronised decoder, the
 * count check, the TFO packet of Tables 6-6 to 6-8 with its Context ID, address and LSiP current
 * address (IHI 0014 §6.5.1-§6.5.5 L8842-9069, §6.1.7 L8562-8570; ERRATA ETM2-S3, S6, P10, P11,
 * P12, P13, P19, P24). */
#include <string.h>

#include "clause.h"
#include "etmv2_internal.h"

/* Table 6-4 (L8869-8881) and the formula (L8887-8889), ETM2-S3: TRACEPKT[7:4] = TFO[3:0],
 * [3] = !TFO[6], [2:1] = TFO[5:4], [0] = 1. -1: [0] = 0 (no TFO); -2: b0101 reserved; -3: b0111, a
 * cycle-accurate TD. */
int e2_tfo_decode(uint8_t v)
{
	TC_CLAUSE_CASE(v & 0xf, "6.5.1/Table6-4");
	if (!(v & 1))
		return -1;
	if ((v & 0xf) == 5)
		return -2;
	if ((v & 0xf) == 7)
		return -3;
	return (v >> 4) | ((v >> 1) & 3) << 4 | (((v >> 3) & 1) ^ 1) << 6;
}

/* ETM2-P10: the TFO item; an unsynchronised decoder synchronises on it, its value a skip. */
static struct e2_item *tfo_push(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	int hunt = !d->synced;
	if (hunt) {
		TC_CLAUSE("ETM2-P10/Hunt");
		d->synced = 1;
		d->half = 0;
		d->skip = 0;
		d->daddr_known = 0;
		d->bytes_read = 0;
		memset(&d->p, 0, sizeof d->p);
	}
	uint64_t seq = d->tail;
	struct e2_item *it = e2_push(d, tc_etmv2_tfo, rec, tc_etmv2_ps_td);
	if (!it)
		return NULL;
	it->has_group = 1;
	it->is_tfo = 1;
	it->tfo_hunt = (uint8_t)hunt;
	it->tfo_gap = (uint8_t)(!hunt && d->cfg.port_width == 4 && d->half);
	it->bytes_at = d->bytes_read;
	d->tfo_seq = seq;
	return it;
}

/* The value is known: tfo-past-fifo; the skip (2 x value nibbles on a 4-bit port, the gap nibble
 * among them: Table 6-5 L8951), or the gap nibble to come. */
static void value_done(struct tc_etmv2_decoder *d, struct e2_item *it, int v)
{
	it->r.tfo_value = (uint8_t)v;
	it->tfo_have_value = 1;
	if (d->cfg.fifo_depth && v > d->cfg.fifo_depth) {
		TC_CLAUSE("ETM2-P10/PastFifo");
		e2_error(d, tc_etmv2_err_tfo_past_fifo, it->r.h.offset);
		return;
	}
	if (it->tfo_hunt)
		d->skip = (uint32_t)(d->cfg.port_width == 4 ? 2 * v : v);
	else if (it->tfo_gap)
		d->gap_wait = 1;
}

/* A TD with TRACEPKT[0] = 1, or a TR whose replaced status is TD (§6.1.7 L8568, ETM2-P11). */
void e2_tfo_cycle(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec, int from_trigger)
{
	uint8_t lo = rec->pkt & 0xf;
	if (!from_trigger) {
		int v = e2_tfo_decode((uint8_t)rec->pkt);
		if (v == -3) {
			TC_CLAUSE("6.11/Wait");
			d->td_run = 0;
			return;
		}
		if (v == -2) {
			TC_CLAUSE("6.5.1/Reserved");
			e2_error(d, tc_etmv2_err_reserved_tfo, rec->offset);
			return;
		}
	}
	TC_CLAUSE("6.5.1");
	d->td_run = 0;
	struct e2_item *it = tfo_push(d, rec);
	if (!it)
		return;
	if (from_trigger) {
		TC_CLAUSE("6.1.7/Tfo");
		d->tfo_wait = d->cfg.port_width == 4 ? 3 : 2;
	} else if (d->cfg.port_width == 4) {
		d->tfo_lo = lo;
		d->tfo_wait = 1;
	} else {
		value_done(d, it, e2_tfo_decode((uint8_t)rec->pkt));
	}
}

/* A cycle that is not TR while a TFO value or its gap nibble is due: its TRACEPKT is that, not FIFO
 * data ("Trigger considerations" L8911-8919, L8946). 1 when TRACEPKT was taken. */
int e2_tfo_pending_cycle(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	if (!d->synced) {
		d->tfo_wait = d->gap_wait = 0;
		return 0;
	}
	uint8_t n = rec->pkt & 0xf;
	if (d->tfo_wait) {
		struct e2_item *it = e2_at(d, d->tfo_seq);
		int w = d->tfo_wait;
		d->tfo_wait = 0;
		if (w == 1) {
			value_done(d, it, e2_tfo_decode((uint8_t)(d->tfo_lo | n << 4)));
		} else if (w == 3) {
			if (e2_tfo_decode(n) < 0) {
				e2_error(d, tc_etmv2_err_reserved_tfo, it->r.h.offset);
				return 1;
			}
			d->tfo_lo = n;
			d->tfo_wait = 1;
		} else {
			int v = e2_tfo_decode((uint8_t)rec->pkt);
			if (v < 0)
				e2_error(d, tc_etmv2_err_reserved_tfo, it->r.h.offset);
			else
				value_done(d, it, v);
		}
		return 1;
	}
	if (d->gap_wait) {
		TC_CLAUSE("6.5.1/GapNibble");
		d->gap_wait = 0;
		if (n != 6)
			e2_warn(e2_at(d, d->tfo_seq), tc_etmv2_warn_ignored_field, tc_etmv2_wf_gap_nibble, n);
		return 1;
	}
	return 0;
}

/* The TFO packet is read: reason b00 implies the IE (ETM2-P13); another reason is an interruption
 * that makes the data address unknown (ETM2-P5, ETM1-P13). */
static void tfo_packet_done(struct tc_etmv2_decoder *d, struct e2_item *it, struct tc_etmv2_record *pk)
{
	it->r.implied = (uint8_t)(pk->reason == 0);
	if (pk->reason != 0)
		d->daddr_known = 0;
	it->group_done = 1;
	memset(&d->p, 0, sizeof d->p);
}

/* Tables 6-6, 6-7 (L8972-9016): b0RR00000 normal, b1RR00000 LSM in progress, others reserved; the
 * count check of a synchronised decoder (ETM2-P10). */
static void tfo_header(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b)
{
	TC_CLAUSE_CASE(b, "6.5.3/Table6-6");
	if (!it->tfo_hunt && d->bytes_read - it->bytes_at != it->r.tfo_value) {
		TC_CLAUSE("ETM2-P10/Mismatch");
		e2_error(d, tc_etmv2_err_tfo_mismatch, it->r.h.offset);
		return;
	}
	if (b & 0x1f) {
		e2_error(d, tc_etmv2_err_reserved_header, it->r.h.offset);
		return;
	}
	struct tc_etmv2_record *pk = e2_new_packet(d, it, tc_etmv2_tfo_packet);
	if (!pk)
		return;
	pk->reason = (uint8_t)(b >> 5 & 3);
	pk->lsip = (uint8_t)(b >> 7);
	pk->has_ctxid = (uint8_t)(d->cfg.contextid_size != 0);
	d->p.n = 0;
	d->p.raw = 0;
	d->p.left = d->cfg.contextid_size ? d->cfg.contextid_size : 4;
	d->p.seg = d->cfg.contextid_size ? e2_seg_tfo_ctxid : e2_seg_tfo_addr;
}

/* §6.5.4, §6.5.5 (L8985-9041), ETM2-P12: Context ID, the 4-byte address (bit 0 Thumb), least
 * significant byte first; LSiP: the current address compressed against the LSM's (ETM2-S6). */
void e2_tfo_byte(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b)
{
	if (it->npk == 0) {
		tfo_header(d, it, b);
		return;
	}
	struct tc_etmv2_record *pk = &it->pk[0];
	if (d->p.seg == e2_seg_tfo_cur) {
		struct tc_etmv2_record cur;
		memset(&cur, 0, sizeof cur);
		if (!e2_branch_byte(d, it, &cur, b))
			return;
		TC_CLAUSE("6.5.5");
		pk->has_cur = 1;
		pk->cur = cur.addr;
		pk->cur_isa = cur.isa;
		d->last_addr = cur.addr;
		d->last_isa = cur.isa;
		tfo_packet_done(d, it, pk);
		return;
	}
	d->p.raw |= (uint64_t)b << (8 * d->p.n++);
	if (--d->p.left)
		return;
	uint32_t v = (uint32_t)d->p.raw;
	d->p.n = 0;
	d->p.raw = 0;
	if (d->p.seg == e2_seg_tfo_ctxid) {
		pk->ctxid = v;
		d->p.left = 4;
		d->p.seg = e2_seg_tfo_addr;
		return;
	}
	TC_CLAUSE("6.5.4");
	pk->has_addr = 1;
	pk->addr = v & ~1u;
	pk->isa = (uint8_t)(v & 1);
	d->last_addr = pk->addr;
	d->last_isa = pk->isa;
	if (!pk->lsip) {
		tfo_packet_done(d, it, pk);
		return;
	}
	d->p.base = pk->addr;
	d->p.base_isa = pk->isa;
	d->p.seg = e2_seg_tfo_cur;
}
