/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_cycle.c — one ETMv1 cycle: which cycles carry a packet and on which byte lanes, TRACESYNC
 * on the packet it marks (IHI 0014 §5.1 Table 5-1 L7954-7972, §5.2 L7996-8010, §5.3.1 L8036-8049;
 * ERRATA ETMC-F7, ETM1-P2, P4, P5). */
#include "clause.h"
#include "etmv1_internal.h"

int e1_status_is_insn(int st)
{
	return st == tc_etmv1_ps_ie || st == tc_etmv1_ps_id || st == tc_etmv1_ps_in || st == tc_etmv1_ps_be ||
	       st == tc_etmv1_ps_bd;
}

/* ETM1-P2: WT always carries; IE, IN, ID, BE, BD and APO cycles (st < 6 here) carry when a demand is
 * open; TD and TR never. */
int e1_cycle_carries(const struct tc_etmv1_decoder *d, int st, int demand_open)
{
	(void)d;
	TC_CLAUSE_CASE(st, "5.1/Table5-1");
	if (st == tc_etmv1_ps_wt)
		return 1;
	if (st == tc_etmv1_ps_tr || st == tc_etmv1_ps_td)
		return 0;
	return demand_open;
}

static void sync_warning(struct tc_etmv1_decoder *d)
{
	/* ETM1-P5: TRACESYNC on a second nibble is ignored; the warning goes with the item being read. */
	struct e1_item *it = d->cur_addr ? d->cur_addr : e1_head_demand(d);
	if (it)
		e1_warn(it, tc_etmv1_warn_ignored_field, tc_etmv1_wf_sync_nibble, 0x10);
}

/* §5.2 (L7998), ETMC-F7: a 4-bit port's packet is two carrying cycles, low nibble first. */
static void nibble(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	TC_CLAUSE("5.2/4bit");
	if (!d->half) {
		d->half = 1;
		d->half_val = rec->pkt & 0xf;
		d->half_sync = rec->sync;
		d->half_off = rec->offset;
		return;
	}
	d->half = 0;
	if (rec->sync)
		sync_warning(d);
	e1_packet(d, (uint8_t)(d->half_val | (rec->pkt & 0xf) << 4), d->half_sync, d->half_off);
}

/* §5.3.1 (L8036-8049), ETM1-P4: [7:0] first; [15:8] when a demand is still open and its next packet
 * is not a branch address's first, or on WT as an early packet (a lone byte the next TRACESYNC may
 * show to be the empty byte). */
static void two_lanes(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec, int st)
{
	TC_CLAUSE("5.3.1");
	e1_packet(d, (uint8_t)(rec->pkt & 0xff), rec->sync, rec->offset);
	if (!d->synced)
		return;
	int open = e1_demand_open(d);
	if (open && !e1_next_is_addr_start(d)) {
		e1_packet(d, (uint8_t)(rec->pkt >> 8), 0, rec->offset);
	} else if (!open && st == tc_etmv1_ps_wt) {
		int before = d->nearly;
		e1_packet(d, (uint8_t)(rec->pkt >> 8), 0, rec->offset);
		if (before == 0 && d->nearly == 1)
			d->early_lone = 1;
	}
}

/* The packets of a cycle that carries (e1_cycle_carries). */
void e1_cycle_packets(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec, int st)
{
	if (d->cfg.port_width == 4)
		nibble(d, rec);
	else if (d->cfg.port_width == 16)
		two_lanes(d, rec, st);
	else
		e1_packet(d, (uint8_t)rec->pkt, rec->sync, rec->offset);
}
