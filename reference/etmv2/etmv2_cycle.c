/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_cycle.c — one ETMv2 cycle: the PIPESTAT of Table 6-1 (phantoms read as ERRATA ETM2-S1), which
 * cycles carry FIFO data and on which byte lanes, the 16-bit idle byte (IHI 0014 §6.1 L8460-8556,
 * §6.2 L8574-8586, §6.3 L8615-8634; ERRATA ETMC-F7, ETM1-P21, ETM2-S1, P2, P8, P9). */
#include "clause.h"
#include "etmv2_internal.h"

/* b0000-b0011 and b1000-b1111: an instruction (the second of a phantom pair: ETM2-P8). */
int e2_status_is_insn(int st)
{
	return st < 4 || st >= 8;
}

/* §6.1.3 (L8592): a mnemonic with D placed a group on the FIFO: DE, DN, DW and the phantoms' D. */
int e2_status_has_data(int st)
{
	return st == tc_etmv2_ps_dw || (e2_status_is_insn(st) && (st & 1));
}

static const uint8_t kind_of[4] = { tc_etmv2_ie, tc_etmv2_de, tc_etmv2_in, tc_etmv2_dn };

/* ETM1-P21 (ETMv2 the same, Table 6-4 L8873): in cycle-accurate mode the first TD with
 * TRACEPKT[0] = 0 of a run. */
static void trace_disabled(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	int off = d->cfg.cycle_accurate && !(rec->pkt & 1);
	if (off && !d->td_run && d->synced) {
		TC_CLAUSE("6.11");
		e2_push(d, tc_etmv2_trace_disabled, rec, tc_etmv2_ps_td);
	}
	d->td_run = off;
}

/* The item of a status st (the record's, or the one a trigger replaced: from_trigger). A TD that
 * is a TFO goes to etmv2_tfo.c; WT and a replaced TR give nothing. */
void e2_status(struct tc_etmv2_decoder *d, int st, const struct tc_cyclecap_record *rec, int from_trigger)
{
	TC_CLAUSE_CASE(st, "6.1/Table6-1");
	if (st != tc_etmv2_ps_td)
		d->td_run = 0;
	if (st == tc_etmv2_ps_td) {
		if (from_trigger || (rec->pkt & 1))
			e2_tfo_cycle(d, rec, from_trigger);
		else
			trace_disabled(d, rec);
		return;
	}
	if (!d->synced || st == tc_etmv2_ps_wt || st == tc_etmv2_ps_tr)
		return;
	int kind = st == tc_etmv2_ps_dw ? tc_etmv2_dw : kind_of[st & 3];
	struct e2_item *it = e2_push(d, kind, rec, st);
	if (!it)
		return;
	if (st >= 8) {
		TC_CLAUSE("6.1.2");
		it->r.phantom = (uint8_t)(st & 4 ? tc_etmv2_phantom_not_taken : tc_etmv2_phantom_taken);
	}
	it->has_group = (uint8_t)e2_status_has_data(st);
}

/* ETM2-P2: FIFO data are on the pins while an announced group (this cycle's included) is unread. */
static int byte_due(struct tc_etmv2_decoder *d)
{
	return d->synced && e2_group_item(d) != NULL;
}

static void one_byte(struct tc_etmv2_decoder *d, uint8_t b, uint64_t off)
{
	struct e2_item *it = e2_group_item(d);
	if (!it)
		return;
	if (d->skip) {
		d->skip--;
		d->last_byte_item = d->grp;
		return;
	}
	if (!it->r.has_pkt) {
		it->r.has_pkt = 1;
		it->r.pkt = off;
	}
	d->last_byte_item = d->grp;
	e2_group_byte(d, it, b);
}

/* §6.2 (L8578), ETMC-F7: a byte over two carrying cycles, [3:0] then [7:4]; a skip counts nibbles
 * (ETM2-P10). */
static void nibble(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	TC_CLAUSE("6.2/4bit");
	if (d->skip) {
		d->skip--;
		return;
	}
	if (!d->half) {
		d->half = 1;
		d->half_val = rec->pkt & 0xf;
		d->half_off = rec->offset;
		return;
	}
	d->half = 0;
	one_byte(d, (uint8_t)(d->half_val | (rec->pkt & 0xf) << 4), d->half_off);
}

/* §6.2 (L8586), ETM2-P2: [7:0] first, [15:8] when a byte is still due, else the idle byte 0x66. */
static void two_lanes(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	uint64_t epoch = d->epoch;
	one_byte(d, (uint8_t)rec->pkt, rec->offset);
	if (d->epoch != epoch || !d->synced)
		return;
	uint8_t hi = (uint8_t)(rec->pkt >> 8);
	if (byte_due(d)) {
		one_byte(d, hi, rec->offset);
	} else if (hi != 0x66) {
		TC_CLAUSE("6.2/IdleByte");
		if (d->last_byte_item >= d->head && d->last_byte_item < d->tail)
			e2_warn(e2_at(d, d->last_byte_item), tc_etmv2_warn_ignored_field, tc_etmv2_wf_idle_byte, hi);
	}
}

/* The TRACEPKT of a cycle that is not TR, TD or a TFO value's: FIFO data when a byte is due; on a WT
 * with none, unowned-packets (ETM2-P2). */
void e2_cycle_data(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	if (!d->synced)
		return;
	if (!byte_due(d)) {
		if (rec->status == tc_etmv2_ps_wt) {
			TC_CLAUSE("ETM2-P2/Unowned");
			e2_error(d, tc_etmv2_err_unowned_packets, rec->offset);
		}
		return;
	}
	TC_CLAUSE("6.3");
	if (d->cfg.port_width == 4)
		nibble(d, rec);
	else if (d->cfg.port_width == 16)
		two_lanes(d, rec);
	else
		one_byte(d, (uint8_t)rec->pkt, rec->offset);
}
