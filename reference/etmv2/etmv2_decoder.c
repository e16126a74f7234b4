/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_decoder.c — the ETMv2 driver: records from reference/cyclecap.c, items in cycle order once
 * their groups are read, errors and resynchronisation at the next TFO, `truncated` at the end or a
 * gap (reference/etmv1/FORMAT.md "L1", "Error classes"; ERRATA ETMC-F3, F4, F8, ETM1-P33, ETM2-P11,
 * P17, P20, P21, P22, P23). */
#include <stdlib.h>
#include <string.h>

#include "clause.h"
#include "etmv2_internal.h"

struct e2_item *e2_at(struct tc_etmv2_decoder *d, uint64_t seq)
{
	return &d->q[seq % E2_QUEUE];
}

static void emit(struct tc_etmv2_decoder *d, const struct tc_etmv2_record *r)
{
	if (d->sink.item)
		d->sink.item(d->sink.ctx, r);
}

/* An item, its packets in FIFO order, then its warnings (ETM2-P22). */
static void emit_item(struct tc_etmv2_decoder *d, const struct e2_item *it)
{
	emit(d, &it->r);
	for (int i = 0; i < it->npk; i++)
		emit(d, &it->pk[i]);
	for (int i = 0; i < it->nwarn; i++) {
		struct tc_etmv2_record w;
		memset(&w, 0, sizeof w);
		w.h = (struct tc_item){ sizeof w, tc_proto_etmv2, tc_etmv2_warning, it->r.h.offset };
		w.status = it->r.status;
		w.warning = it->warn[i].warning;
		w.field = it->warn[i].field;
		w.bits = it->warn[i].bits;
		emit(d, &w);
	}
}

static int complete(const struct e2_item *it)
{
	return !it->has_group || it->group_done;
}

static void emit_ready(struct tc_etmv2_decoder *d)
{
	while (d->head < d->tail && complete(e2_at(d, d->head)))
		emit_item(d, e2_at(d, d->head++));
}

void e2_warn(struct e2_item *it, int warning, int field, int bits)
{
	if (it->nwarn < 4) {
		it->warn[it->nwarn].warning = (uint8_t)warning;
		it->warn[it->nwarn].field = (uint8_t)field;
		it->warn[it->nwarn++].bits = (uint8_t)bits;
	}
}

/* The item whose group is read next (ETM2-P2: groups in the order of their cycles); NULL: none
 * announced is unread. */
struct e2_item *e2_group_item(struct tc_etmv2_decoder *d)
{
	if (d->grp < d->head)
		d->grp = d->head;
	while (d->grp < d->tail && complete(e2_at(d, d->grp)))
		d->grp++;
	return d->grp < d->tail ? e2_at(d, d->grp) : NULL;
}

/* A new item at the tail; NULL after too-many-pending (ETM2-P21). */
struct e2_item *e2_push(struct tc_etmv2_decoder *d, int kind, const struct tc_cyclecap_record *rec, int status)
{
	if (d->tail - d->head >= E2_QUEUE) {
		TC_CLAUSE("ETM2-P21/Queue");
		e2_error(d, tc_etmv2_err_too_many_pending, rec->offset);
		return NULL;
	}
	struct e2_item *it = e2_at(d, d->tail++);
	memset(it, 0, sizeof *it);
	it->r.h = (struct tc_item){ sizeof it->r, tc_proto_etmv2, (uint16_t)kind, rec->offset };
	it->r.status = (uint8_t)status;
	return it;
}

void e2_emit_simple(struct tc_etmv2_decoder *d, int kind, uint64_t off, int status)
{
	struct tc_etmv2_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv2, (uint16_t)kind, off };
	r.status = (uint8_t)status;
	emit(d, &r);
}

void e2_unsync(struct tc_etmv2_decoder *d)
{
	d->synced = 0;
	d->epoch++;
	d->head = d->tail;
	d->grp = d->tail;
	memset(&d->p, 0, sizeof d->p);
	d->half = 0;
	d->skip = 0;
	d->tfo_wait = 0;
	d->gap_wait = 0;
	d->td_run = 0;
	d->daddr_known = 0;
}

/* S of an error: the PIPESTAT of the item at its record, else the record being read (ETM1-P33). */
static uint8_t error_status(struct tc_etmv2_decoder *d, uint64_t off)
{
	for (uint64_t s = d->head; s < d->tail; s++)
		if (e2_at(d, s)->r.h.offset == off && e2_at(d, s)->r.h.kind != tc_etmv2_trigger)
			return e2_at(d, s)->r.status;
	return d->cur_status;
}

/* ETM1-P33 as ETMv2's (ETM2-P23): the complete items of earlier cycles, then the error; the items
 * still waiting are dropped and the decoder is unsynchronised until the next TFO. */
void e2_error(struct tc_etmv2_decoder *d, int error, uint64_t off)
{
	while (d->synced && d->head < d->tail && complete(e2_at(d, d->head)) && e2_at(d, d->head)->r.h.offset < off)
		emit_item(d, e2_at(d, d->head++));
	struct tc_etmv2_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv2, tc_etmv2_error, off };
	r.error = (uint8_t)error;
	r.status = error_status(d, off);
	e2_unsync(d);
	emit(d, &r);
}

/* §6.1.7 (L8562), ETMC-F8, ETM2-P11: a trigger; the replaced status on TRACEPKT[3:0] is the cycle's,
 * with no FIFO data; a replaced TD is the TFO cycle, its value on the next cycles. */
static void trigger(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	TC_CLAUSE("6.1.7");
	if (d->synced)
		e2_push(d, tc_etmv2_trigger, rec, tc_etmv2_ps_tr);
	else
		e2_emit_simple(d, tc_etmv2_trigger, rec->offset, tc_etmv2_ps_tr);
	if (d->synced || (rec->pkt & 0xf) == tc_etmv2_ps_td)
		e2_status(d, rec->pkt & 0xf, rec, 1);
}

static void cycle(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	int st = rec->status;
	d->cur_status = (uint8_t)st;
	if (st == tc_etmv2_ps_tr) {
		trigger(d, rec);
		return;
	}
	if (e2_tfo_pending_cycle(d, rec)) {
		if (st != tc_etmv2_ps_td)
			e2_status(d, st, rec, 0);
		return;
	}
	uint64_t epoch = d->epoch;
	e2_status(d, st, rec, 0);
	if (st != tc_etmv2_ps_td && d->epoch == epoch)
		e2_cycle_data(d, rec);
}

/* ETM2-P20: what the end of the file or a gap record finds incomplete: truncated at the first
 * incomplete item's cycle. 1 when an error was given. */
static int end_checks(struct tc_etmv2_decoder *d)
{
	if (!d->synced)
		return 0;
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e2_item *it = e2_at(d, s);
		if (!complete(it)) {
			TC_CLAUSE("ETM2-P20");
			e2_error(d, tc_etmv2_err_truncated, it->r.h.offset);
			return 1;
		}
	}
	emit_ready(d);
	return 0;
}

static void record(struct tc_etmv2_decoder *d, const struct tc_cyclecap_record *rec)
{
	if (rec->gap) {
		TC_CLAUSE("ETMC-F4");
		d->cur_status = TC_ETMV2_STATUS_GAP;
		end_checks(d);
		e2_unsync(d);
		e2_emit_simple(d, tc_etmv2_gap, rec->offset, TC_ETMV2_STATUS_GAP);
		return;
	}
	cycle(d, rec);
	if (d->synced)
		emit_ready(d);
}

/* ---- The API ------------------------------------------------------------------- */

struct tc_etmv2_decoder *tc_etmv2_alloc(const struct tc_etmv2_config *cfg, const struct tc_etmv2_sink *sink)
{
	if (!cfg || tc_etmv2_config_check(cfg, NULL, 0) != 0)
		return NULL;
	struct tc_etmv2_decoder *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (sink)
		d->sink = *sink;
	struct tc_cyclecap_params p = { 2, 1, 4, 0 };
	tc_cyclecap_init(&d->cc, &p);
	return d;
}

void tc_etmv2_free(struct tc_etmv2_decoder *d)
{
	free(d);
}

static void fatal_header(void *ctx)
{
	struct tc_etmv2_decoder *d = ctx;
	struct tc_etmv2_record r;
	memset(&r, 0, sizeof r);
	r.h = (struct tc_item){ sizeof r, tc_proto_etmv2, tc_etmv2_error, 0 };
	r.error = tc_etmv2_err_bad_header;
	emit(d, &r);
}

/* FORMAT.md "Header": version, port width, mode and half-rate must equal the keys (ETMC-F5). */
static int header_agrees(void *ctx, const struct tc_cyclecap_header *h)
{
	const struct tc_etmv2_decoder *d = ctx;
	return h->minor == d->cfg.version && h->port_width == d->cfg.port_width && h->port_mode == d->cfg.port_mode &&
	       h->half_rate == d->cfg.half_rate;
}

static void record_error(void *ctx, int err, uint64_t off)
{
	struct tc_etmv2_decoder *d = ctx;
	d->cur_status = 0;
	e2_error(d, err == tc_cyclecap_bad_record ? tc_etmv2_err_bad_record : tc_etmv2_err_truncated, off);
}

static void record_cb(void *ctx, const struct tc_cyclecap_record *rec)
{
	record(ctx, rec);
}

static int end_checks_cb(void *ctx)
{
	return end_checks(ctx);
}

static struct tc_cyclecap_driver driver(struct tc_etmv2_decoder *d)
{
	return (struct tc_cyclecap_driver){ d, header_agrees, fatal_header, record_cb, record_error, end_checks_cb };
}

int tc_etmv2_feed(struct tc_etmv2_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len))
		return tc_etmv2_invalid;
	if (d->finished)
		return tc_etmv2_finished;
	struct tc_cyclecap_driver drv = driver(d);
	tc_cyclecap_drive(&d->cc, &drv, data, len);
	return 0;
}

/* ETM1-P33: one truncated at the end: the first incomplete item's, else the partial record's
 * (tc_cyclecap_drive_finish; ETMC-F9: an empty file gives no item). */
int tc_etmv2_finish(struct tc_etmv2_decoder *d)
{
	if (!d)
		return tc_etmv2_invalid;
	if (d->finished)
		return tc_etmv2_finished;
	d->finished = 1;
	struct tc_cyclecap_driver drv = driver(d);
	tc_cyclecap_drive_finish(&d->cc, &drv);
	return 0;
}
