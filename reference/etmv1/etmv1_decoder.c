/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_decoder.c — the ETMv1 driver: records from reference/cyclecap.c, items in cycle order once
 * complete, errors and resynchronisation, `truncated` at the end or a gap (reference/etmv1/FORMAT.md
 * "L1", "Error classes"; ERRATA ETMC-F3, F4, F8, ETM1-P20, P21, P22, P30, P33). */
#include <stdlib.h>
#include <string.h>

#include "clause.h"
#include "etmv1_internal.h"

static struct e1_item *at(struct tc_etmv1_decoder *d, uint64_t seq)
{
	return &d->q[seq % E1_QUEUE];
}

static void emit(struct tc_etmv1_decoder *d, const struct tc_etmv1_record *r)
{
	if (d->unassigned_open)
		e1_unassigned_report(d, 0);   /* ETM1-P39: items in offset order */
	d->last_item_off = r->h.offset;
	if (d->sink.item)
		d->sink.item(d->sink.ctx, r);
}

static void emit_item(struct tc_etmv1_decoder *d, const struct e1_item *it)
{
	emit(d, &it->r);
	for (int i = 0; i < it->nwarn; i++) {
		struct tc_etmv1_record w;
		memset(&w, 0, sizeof w);
		w.h = (struct tc_item){ sizeof w, tc_proto_etmv1, tc_etmv1_warning, it->r.h.offset };
		w.status = it->r.status;
		w.warning = it->warn[i].warning;
		w.field = it->warn[i].field;
		w.bits = it->warn[i].bits;
		emit(d, &w);
	}
}

static int complete(const struct e1_item *it)
{
	return it->r.h.kind > tc_etmv1_bd || (it->seg == e1_seg_done && it->apo_left == 0);
}

/* The complete items at the head, in cycle order; none after the oldest early packet still held,
 * whose error (unowned-packets, at that packet) may yet come (FORMAT.md "L1": items in the order of
 * their cycles). */
void e1_emit_ready(struct tc_etmv1_decoder *d)
{
	while (d->head < d->tail && complete(at(d, d->head)) &&
	       (d->nearly == 0 || at(d, d->head)->r.h.offset <= d->early_off[0]))
		emit_item(d, at(d, d->head++));
}

/* An item complete when made (trigger, gap, error): behind the items still waiting. */
void e1_emit_simple(struct tc_etmv1_decoder *d, int kind, uint64_t off, int status)
{
	struct tc_etmv1_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv1, (uint16_t)kind, off };
	r.status = (uint8_t)status;
	emit(d, &r);
}

void e1_unsync(struct tc_etmv1_decoder *d)
{
	d->synced = 0;
	d->head = d->tail;
	d->cur_addr = NULL;
	d->apo_item = NULL;
	d->nearly = 0;
	d->early_lone = 0;
	d->half = 0;
	d->td_run = 0;
	d->daddr_known = 0;
	d->jazelle_state = 0;
	d->replay_pending = 0;
}

/* S of an error: the PIPESTAT of the item at its record, an early packet's WT, else the record
 * being read (0 for a record not read whole: FORMAT.md). */
static uint8_t error_status(struct tc_etmv1_decoder *d, uint64_t off)
{
	for (uint64_t s = d->head; s < d->tail; s++)
		if (at(d, s)->r.h.offset == off && at(d, s)->r.h.kind <= tc_etmv1_bd)
			return at(d, s)->r.status;
	for (int i = 0; i < d->nearly; i++)
		if (d->early_off[i] == off)
			return tc_etmv1_ps_wt;
	return d->cur_status;
}

/* ETM1-P33: an error writes the complete items of earlier cycles, then itself; the items still
 * waiting are dropped and the decoder is unsynchronised. error -1: the value of the item at off
 * has no image (ETM1-P10): the item is written without its values, and the packets up to the next
 * TRACESYNC become one `unassigned` item. */
void e1_error(struct tc_etmv1_decoder *d, int error, uint64_t off)
{
	if (!d->synced)
		return;
	while (d->head < d->tail && complete(at(d, d->head)) && at(d, d->head)->r.h.offset < off)
		emit_item(d, at(d, d->head++));
	if (error < 0) {
		if (d->head < d->tail && at(d, d->head)->r.h.offset == off)
			emit_item(d, at(d, d->head));
		d->unassigned_open = 1;
		d->unassigned_n = 0;
		d->unassigned_seen = 0;
		d->unassigned_split = 0;
		e1_unsync(d);
		return;
	}
	struct tc_etmv1_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv1, tc_etmv1_error, off };
	r.error = (uint8_t)error;
	r.status = error_status(d, off);
	e1_unsync(d);
	emit(d, &r);
}

/* An IE, IN, ID, BE or BD with its packets this cycle (ETM1-P2). */
void e1_functional(struct tc_etmv1_decoder *d, int st, const struct tc_cyclecap_record *rec)
{
	struct e1_item *it = e1_add_insn(d, st, rec);
	if (it && !d->synced && d->unassigned_open) {
		/* ETM1-P53: its early packets began a run with no image (ETM1-P32): its own cycle is
		 * counted, as when the run begins on it */
		TC_CLAUSE("ETM1-P53");
		e1_cycle_packets(d, rec, st);
		return;
	}
	if (!it || !d->synced)
		return;
	if (it->need_addr) {
		it->apo_left = 2;
		d->apo_item = it;
	}
	if (e1_cycle_carries(d, st, e1_demand_open(d)))
		e1_cycle_packets(d, rec, st);
}

/* §5.1.1 (L7986), ETMC-F8, ETM1-P20, P30: a trigger; the replaced status on TRACEPKT[2:0] is the
 * cycle's, with no FIFO data. A replaced TD or TR gives nothing more (ETM1-P30). */
static void trigger(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	int real = rec->pkt & 7;
	TC_CLAUSE("5.1.1");
	if (!e1_push(d, tc_etmv1_trigger, rec, tc_etmv1_ps_tr))
		return;
	if (!e1_status_is_insn(real))
		return;
	struct e1_item *it = e1_add_insn(d, real, rec);
	if (it && d->synced && it->need_addr) {
		it->apo_left = 2;
		d->apo_item = it;
	}
}

/* §5.10 (L8420), ETM1-P21: in cycle-accurate mode the first TD with TRACEPKT[0] = 0 of a run. */
static void trace_disabled(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	int off = d->cfg.cycle_accurate && !(rec->pkt & 1);
	TC_CLAUSE("ETM1-P21");
	if (off && !d->td_run)
		e1_push(d, tc_etmv1_trace_disabled, rec, tc_etmv1_ps_td);
	d->td_run = off;
}

void e1_synced_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	int st = rec->status;
	if (d->apo_item) {
		d->td_run = 0;
		e1_apo_cycle(d, rec);
	} else if (st == tc_etmv1_ps_td) {
		trace_disabled(d, rec);
	} else {
		d->td_run = 0;
		if (st == tc_etmv1_ps_tr)
			trigger(d, rec);
		else if (st == tc_etmv1_ps_wt)
			e1_cycle_packets(d, rec, st);
		else
			e1_functional(d, st, rec);
	}
	if (d->synced)
		e1_advance(d);
}

/* ETM1-P22: what the end of the file or a gap record finds incomplete: truncated at the first
 * incomplete item's cycle; early packets left: unowned-packets (ETM1-P3). 1 when an error was given. */
static int end_checks(struct tc_etmv1_decoder *d)
{
	if (!d->synced)
		return 0;
	e1_settle_at_end(d);   /* ETM1-P51: a last value of no bytes is no packet to come */
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (!complete(it)) {
			TC_CLAUSE("ETM1-P22");
			e1_error(d, tc_etmv1_err_truncated, it->r.h.offset);
			return 1;
		}
	}
	if (d->half) {
		e1_error(d, tc_etmv1_err_truncated, d->half_off);
		return 1;
	}
	if (d->nearly) {
		e1_error(d, tc_etmv1_err_unowned_packets, d->early_off[0]);
		return 1;
	}
	e1_emit_ready(d);
	return 0;
}

void e1_cycle(struct tc_etmv1_decoder *d, const struct tc_cyclecap_record *rec)
{
	d->cur_status = rec->status;
	if (rec->gap) {
		TC_CLAUSE("ETMC-F4");
		end_checks(d);
		e1_unsync(d);
		e1_hunt_flush(d);
		if (d->unassigned_open)
			e1_unassigned_report(d, 0);   /* ETM1-P39: the run's packets so far, before the gap */
		d->unassigned_open = 0;
		e1_emit_simple(d, tc_etmv1_gap, rec->offset, TC_ETMV1_STATUS_GAP);
		return;
	}
	if (d->synced)
		e1_synced_cycle(d, rec);
	else
		e1_unsync_cycle(d, rec);
	if (d->synced)
		e1_emit_ready(d);
}

/* ---- The API ------------------------------------------------------------------- */

struct tc_etmv1_decoder *tc_etmv1_alloc(const struct tc_etmv1_config *cfg, const struct tc_etmv1_sink *sink,
					const struct tc_etmv1_walk *walk)
{
	if (!cfg || tc_etmv1_config_check(cfg, NULL, 0) != 0)
		return NULL;
	struct tc_etmv1_decoder *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->hunt = malloc(E1_HUNT * sizeof d->hunt[0]);
	if (!d->hunt) {
		free(d);
		return NULL;
	}
	d->cfg = *cfg;
	if (sink)
		d->sink = *sink;
	if (walk) {
		d->walk = *walk;
		d->has_walk = 1;
	}
	struct tc_cyclecap_params p = { 1, 3, 3, 1 };
	tc_cyclecap_init(&d->cc, &p);
	return d;
}

void tc_etmv1_free(struct tc_etmv1_decoder *d)
{
	if (d) {
		free(d->hunt);
		free(d);
	}
}

static void fatal_header(void *ctx)
{
	struct tc_etmv1_decoder *d = ctx;
	d->dead = 1;
	struct tc_etmv1_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv1, tc_etmv1_error, 0 };
	r.error = tc_etmv1_err_bad_header;
	emit(d, &r);
}

/* FORMAT.md "Header": version, port width, mode and half-rate must equal the keys (ETMC-F5). */
static int header_agrees(void *ctx, const struct tc_cyclecap_header *h)
{
	const struct tc_etmv1_decoder *d = ctx;
	return h->minor == d->cfg.version && h->port_width == d->cfg.port_width && h->port_mode == d->cfg.port_mode &&
	       h->half_rate == d->cfg.half_rate;
}

static void record_error(void *ctx, int err, uint64_t off)
{
	struct tc_etmv1_decoder *d = ctx;
	struct tc_etmv1_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv1, tc_etmv1_error, off };
	d->cur_status = 0;
	r.error = (uint8_t)(err == tc_cyclecap_bad_header ? tc_etmv1_err_bad_header :
			    err == tc_cyclecap_bad_record ? tc_etmv1_err_bad_record : tc_etmv1_err_truncated);
	if (d->synced) {
		e1_error(d, r.error, off);
		return;
	}
	e1_hunt_flush(d);
	emit(d, &r);
}

static void record(void *ctx, const struct tc_cyclecap_record *rec)
{
	e1_cycle(ctx, rec);
}

static int end_checks_cb(void *ctx)
{
	return end_checks(ctx);
}

static struct tc_cyclecap_driver driver(struct tc_etmv1_decoder *d)
{
	return (struct tc_cyclecap_driver){ d, header_agrees, fatal_header, record, record_error, end_checks_cb };
}

int tc_etmv1_feed(struct tc_etmv1_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len))
		return tc_etmv1_invalid;
	if (d->finished)
		return tc_etmv1_finished;
	struct tc_cyclecap_driver drv = driver(d);
	tc_cyclecap_drive(&d->cc, &drv, data, len);
	return 0;
}

int tc_etmv1_finish(struct tc_etmv1_decoder *d)
{
	if (!d)
		return tc_etmv1_invalid;
	if (d->finished)
		return tc_etmv1_finished;
	d->finished = 1;
	if (!d->dead && !d->cc.header_ok && d->cc.have == 0)
		TC_CLAUSE("ETMC-F9");   /* no byte at all: no item (the driver gives none) */
	struct tc_cyclecap_driver drv = driver(d);
	tc_cyclecap_drive_finish(&d->cc, &drv);
	e1_hunt_flush(d);
	return 0;
}
