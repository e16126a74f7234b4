/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_sync.c — the Address Packet Offset and synchronisation: the two APO cycles and their bits,
 * the abandoned branch, the APO check, the unsynchronised search for a branch whose APO designates a
 * five-packet address (IHI 0014 §5.6.1 L8227-8243, §5.6.2, §5.8.1 L8375; ERRATA ETM1-S1, ETM1-P6…P9,
 * P19). */
#include <stdlib.h>
#include <string.h>

#include "clause.h"
#include "etmv1_internal.h"

/* ETM1-P8: a synchronised decoder checks an APO below 15 against its own count, once the branch's
 * address is read (a b010 restart's is not checked: ETM1-P18, ETM1-P34). */
void e1_check_apo(struct tc_etmv1_decoder *d, struct e1_item *it)
{
	struct tc_etmv1_record *r = &it->r;
	if (!d->synced || !it->need_addr || !r->has_addr || it->apo_left || it->apo_checked)
		return;
	it->apo_checked = 1;
	if (it->sync_start || r->apo == TC_ETMV1_APO_NONE || r->apo == 15 || (r->npkts == 5 && r->reason == 2))
		return;
	TC_CLAUSE("ETM1-P8");
	if (r->apo != it->apo_expected)
		e1_error(d, tc_etmv1_err_apo_mismatch, r->h.offset);
}

void e1_apo_done(struct tc_etmv1_decoder *d, struct e1_item *it)
{
	d->apo_item = NULL;
	e1_check_apo(d, it);
}

/* §5.6.1 (L8231-8243), ETM1-S1, ETM1-P6: an APO cycle. PIPESTAT[1:0] (b000-b011) are APO bits, low
 * two first; BE or BD is a new branch that abandons this one (ETM1-P19); TR carries the bits on
 * TRACEPKT[1:0]; TD is bad-apo. */
void e1_apo_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	struct e1_item *it = d->apo_item;
	int st = rec->status;
	TC_CLAUSE_CASE(st, "5.6.1/APO");
	if (st == tc_etmv1_ps_td) {
		e1_error(d, tc_etmv1_err_bad_apo, rec->offset);
		return;
	}
	if (st == tc_etmv1_ps_be || st == tc_etmv1_ps_bd) {
		TC_CLAUSE("ETM1-P19");
		it->r.abandoned = 1;
		it->r.apo = TC_ETMV1_APO_NONE;
		it->apo_left = 0;
		it->apo_checked = 1;
		d->apo_item = NULL;
		e1_functional(d, st, rec);
		return;
	}
	int bits = st & 3;
	if (st == tc_etmv1_ps_tr) {
		TC_CLAUSE("ETM1-P20/APO");
		if (!e1_push(d, tc_etmv1_trigger, rec, tc_etmv1_ps_tr))
			return;
		bits = rec->pkt & 3;
	}
	it->r.apo |= (uint8_t)(bits << (2 * (2 - it->apo_left)));
	if (--it->apo_left == 0)
		e1_apo_done(d, it);
	if (d->synced && st != tc_etmv1_ps_tr && e1_cycle_carries(d, st, e1_demand_open(d)))
		e1_cycle_packets(d, rec, st);
}

/* ---- Unsynchronised (ETM1-P9) ----------------------------------------------- */

static int carries_unsync(int st)
{
	return st != tc_etmv1_ps_td && st != tc_etmv1_ps_tr;
}

static void emit_trigger_of(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	if (rec->status == tc_etmv1_ps_tr)
		e1_emit_simple(d, tc_etmv1_trigger, rec->offset, tc_etmv1_ps_tr);
}

/* The APO of the candidate hunt[0] from hunt[1], hunt[2]: 0..15, -1 no candidate, -2 wait. */
static int probe_apo(const struct tc_etmv1_decoder *d)
{
	int apo = 0;
	for (int i = 1; i <= 2; i++) {
		if (i >= d->nhunt)
			return -2;
		int st = d->hunt[i].status;
		if (st == tc_etmv1_ps_td || st == tc_etmv1_ps_be || st == tc_etmv1_ps_bd)
			return -1;
		int bits = st == tc_etmv1_ps_tr ? d->hunt[i].pkt & 3 : st & 3;
		apo |= bits << (2 * (i - 1));
	}
	return apo;
}

/* Reads the packets of hunt[] from cycle i on, the address's own: 1 five packets, 0 wait, -1 fewer. */
static int probe_address(const struct tc_etmv1_decoder *d, int i)
{
	int npkts = 0, half = -1;
	for (; i < d->nhunt; i++) {
		const struct tc_cyclecap_record *r = &d->hunt[i];
		if (!carries_unsync(r->status))
			continue;
		int lanes = d->cfg.port_width == 16 ? 2 : 1;
		for (int l = 0; l < lanes; l++) {
			int byte;
			if (d->cfg.port_width == 4) {
				if (half < 0) {
					half = r->pkt & 0xf;
					continue;
				}
				byte = half | (r->pkt & 0xf) << 4;
				half = -1;
			} else {
				byte = (r->pkt >> (8 * l)) & 0xff;
			}
			if (++npkts == 5)
				return 1;
			if (!(byte & 0x80))
				return -1;
		}
	}
	return 0;
}

/* ETM1-P7, P9: the candidate's address starts at the (APO + 1)-th packet with TRACESYNC from its own
 * cycle. 1 synchronise (APO in *apo), 0 wait, -1 the candidate fails. */
static int probe(const struct tc_etmv1_decoder *d, int *apo)
{
	int a = probe_apo(d);
	if (a == -2)
		return 0;
	if (a < 0 || a == 15) {
		TC_CLAUSE("ETM1-P7/APO15");
		return -1;
	}
	int seen = 0;
	for (int i = 0; i < d->nhunt; i++) {
		if (!carries_unsync(d->hunt[i].status) || !d->hunt[i].sync)
			continue;
		if (++seen == a + 1) {
			*apo = a;
			return probe_address(d, i);
		}
	}
	return 0;
}

/* Drops the candidate and the cycles up to the next BE or BD (their triggers are written). */
static void drop_candidate(struct tc_etmv1_decoder *d)
{
	int i = 1;
	while (i < d->nhunt && d->hunt[i].status != tc_etmv1_ps_be && d->hunt[i].status != tc_etmv1_ps_bd)
		i++;
	for (int k = 0; k < i; k++)
		emit_trigger_of(d, &d->hunt[k]);
	memmove(d->hunt, d->hunt + i, (size_t)(d->nhunt - i) * sizeof d->hunt[0]);
	d->nhunt -= i;
}

void e1_hunt_flush(struct tc_etmv1_decoder *d)
{
	for (int k = 0; k < d->nhunt; k++)
		emit_trigger_of(d, &d->hunt[k]);
	d->nhunt = 0;
}

/* Synchronised at hunt[0]: the held cycles again, as a synchronised decoder reads them. */
static void replay(struct tc_etmv1_decoder *d, int apo)
{
	int n = d->nhunt;
	struct tc_cyclecap_record *tmp = malloc((size_t)n * sizeof *tmp);
	if (!tmp) {
		e1_hunt_flush(d);
		return;
	}
	memcpy(tmp, d->hunt, (size_t)n * sizeof *tmp);
	d->nhunt = 0;
	TC_CLAUSE("ETM1-P9");
	d->synced = 1;
	d->replay_pending = 1;
	d->sync_apo = (uint8_t)apo;
	d->daddr_known = 0;
	for (int i = 0; i < n; i++)
		e1_cycle(d, &tmp[i]);
	free(tmp);
}

void e1_unassigned_report(struct tc_etmv1_decoder *d, int at_sync)
{
	int per = d->cfg.port_width == 4 ? 2 : 1;
	struct tc_etmv1_record r;
	if (d->unassigned_n == 0 && (!at_sync || d->unassigned_split)) {
		d->unassigned_open = !at_sync;
		return;
	}
	memset(&r, 0, sizeof r);
	/* at its first packet, or at the last item reported if that is later (an early packet, ETM1-P3,
	 * before the ID whose value had no image): ETM1-P39 */
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv1, tc_etmv1_unassigned,
				d->unassigned_off > d->last_item_off ? d->unassigned_off : d->last_item_off };
	d->last_item_off = r.h.offset;
	r.status = d->unassigned_seen ? d->unassigned_seen - 1 : 0;
	r.n = d->unassigned_n / (uint32_t)per;
	d->unassigned_open = !at_sync;
	d->unassigned_split = !at_sync;
	d->unassigned_n = 0;
	d->unassigned_seen = 0;
	if (d->sink.item)
		d->sink.item(d->sink.ctx, &r);
}

/* ETM1-P10: the packets after a value with no image, up to the next TRACESYNC. */
static void count_unassigned(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	if (!d->unassigned_open || !carries_unsync(rec->status))
		return;
	if (rec->sync) {
		e1_unassigned_report(d, 1);
		return;
	}
	if (d->unassigned_n == 0) {
		d->unassigned_off = rec->offset;
		d->unassigned_seen = rec->status + 1;
	}
	d->unassigned_n += d->cfg.port_width == 16 ? 2 : 1;
}

void e1_unsync_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	count_unassigned(d, rec);
	if (d->nhunt == 0) {
		if (rec->status != tc_etmv1_ps_be && rec->status != tc_etmv1_ps_bd) {
			emit_trigger_of(d, rec);
			return;
		}
	}
	if (d->nhunt == E1_HUNT)
		drop_candidate(d);
	if (d->nhunt == 0 && rec->status != tc_etmv1_ps_be && rec->status != tc_etmv1_ps_bd) {
		emit_trigger_of(d, rec);
		return;
	}
	d->hunt[d->nhunt++] = *rec;
	for (;;) {
		int apo = 0;
		int p = probe(d, &apo);
		if (p == 1) {
			replay(d, apo);
			return;
		}
		if (p == 0)
			return;
		drop_candidate(d);
		if (d->nhunt == 0)
			return;
	}
}
