/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_decoder.c — ETE decoder driver: synchronisation, streaming, errors, stage 1 → 2. */
#include <stdlib.h>
#include <string.h>

#include "ete_internal.h"
#include "tracecert/ete_config.h"

/* Longest packet: Exception with a 64-bit address and context (20 bytes). */
#define TC_ETE_MAX_PACKET 32
/* A-sync: header 00, at least 10 zero payload bytes, then 0x80 (TC-P2). */
#define TC_ETE_ASYNC_MIN_PAYLOAD_ZEROS 10
#define TC_ETE_ASYNC_MIN_ZEROS (TC_ETE_ASYNC_MIN_PAYLOAD_ZEROS + 1)

enum dec_state { st_search, st_sync, st_async_zeros };

struct tc_ete_decoder {
	struct tc_ete_config cfg;
	struct tc_ete_sink sink;
	struct tc_ete_ia ia;              /* DSTATE.IA */
	struct tc_ete_stage2 s2;
	struct tc_ete_stage3 s3;
	enum dec_state state;
	uint64_t pos;                     /* offset of the next byte fed */
	uint8_t pend[TC_ETE_MAX_PACKET];  /* start of a packet cut by a chunk boundary */
	size_t npend;
	uint64_t pend_off;
	uint64_t zero_run;                /* search: zeros in a row; A-sync: zeros after the header */
	uint64_t run_start;               /* offset of the first of them / of the A-sync header */
	uint64_t search_start;
	uint64_t skipped;
	int finished;
	struct tc_packet_out out;
};

static void feed_bytes(struct tc_ete_decoder *d, const uint8_t *data, size_t len, uint64_t off);

static void send_packet(struct tc_ete_decoder *d, const struct tc_ete_packet *p)
{
	if (d->sink.packet)
		d->sink.packet(d->sink.ctx, p);
}

static void send_s1(struct tc_ete_decoder *d, const struct tc_ete_elem *e)
{
	if (d->sink.s1)
		d->sink.s1(d->sink.ctx, e);
}

/* Stage 2's output: L2, then stage 3 when an L3 sink is attached. */
static void send_l2(void *ctx, const struct tc_ete_elem *e)
{
	struct tc_ete_decoder *d = ctx;
	if (d->sink.l2)
		d->sink.l2(d->sink.ctx, e);
	if (d->sink.l3)
		tc_stage3_analyze(&d->s3, e);
}

/* Reports an error at offset (L1, s1 and L2), flushes stage 2 and, when
 * resync is set, starts looking for the next A-sync. */
static void report_error(struct tc_ete_decoder *d, int error, uint64_t offset,
			 uint8_t header, int resync)
{
	struct tc_ete_packet p;
	struct tc_ete_elem e;
	tc_ete_packet_init(&p, tc_ete_pkt_error, offset);
	p.header = header;
	p.error = (uint8_t)error;
	send_packet(d, &p);
	tc_ete_elem_init(&e, tc_ete_elem_error, offset);
	e.error = (uint8_t)error;
	send_s1(d, &e);
	tc_stage2_flush(&d->s2, offset);
	send_l2(d, &e);
	if (resync) {
		d->state = st_search;
		d->zero_run = 0;
		d->search_start = offset + 1;
		d->ia.have_trace_info = 0;
	}
}

static void send_async(struct tc_ete_decoder *d, uint64_t offset)
{
	struct tc_ete_packet p;
	tc_ete_packet_init(&p, tc_ete_pkt_async, offset);
	p.header = 0x00;
	send_packet(d, &p);
}

/* The warnings of an accepted packet (TC-R1): L1 lines after the
 * packet's. Nothing else: the elements are those of the packet with the
 * ignored bits clear. */
static void send_warnings(struct tc_ete_decoder *d, const struct tc_packet_out *out)
{
	for (int i = 0; i < out->nwarn; i++) {
		struct tc_ete_packet p;
		tc_ete_packet_init(&p, tc_ete_pkt_warning, out->pkt.h.offset);
		p.header = out->pkt.header;
		p.warning = out->warn[i].warning;
		p.field = out->warn[i].field;
		p.value = out->warn[i].bits;
		send_packet(d, &p);
	}
}

/* A packet parsed (its state is already the decoder's): its elements go
 * to stage 2. */
static void accept_packet(struct tc_ete_decoder *d)
{
	const struct tc_packet_out *out = &d->out;
	if (out->async_start) {
		d->state = st_async_zeros;
		d->run_start = out->pkt.h.offset;
		d->zero_run = 1;
		return;
	}
	send_packet(d, &out->pkt);
	if (out->nwarn > 0)
		send_warnings(d, out);
	for (int i = 0; i < out->nemit; i++) {
		send_s1(d, &out->emit[i]);
		if (tc_stage2_emit(&d->s2, &out->emit[i]) < 0) {
			/* queue-overflow: a stage-2 error; parsing goes on (FORMAT.md) */
			report_error(d, tc_ete_err_queue_overflow, out->pkt.h.offset, out->pkt.header, 0);
			return;
		}
	}
}

/* Search mode: skip to the end of the next A-sync (≥11 zeros, then 0x80). */
static size_t step_search(struct tc_ete_decoder *d, const uint8_t *data, size_t len, uint64_t off)
{
	for (size_t i = 0; i < len; i++) {
		if (data[i] == 0x00) {
			if (d->zero_run++ == 0)
				d->run_start = off + i;
		} else if (data[i] == 0x80 && d->zero_run >= TC_ETE_ASYNC_MIN_ZEROS) {
			d->skipped += d->run_start - d->search_start;
			d->state = st_sync;
			d->zero_run = 0;
			send_async(d, d->run_start);
			return i + 1;
		} else {
			d->zero_run = 0;
		}
	}
	return len;
}

/* Inside an A-sync packet: count zeros until 0x80 (K10.5.2.3.1). */
static size_t step_async_zeros(struct tc_ete_decoder *d, const uint8_t *data, size_t len, uint64_t off)
{
	uint64_t start = d->run_start, zeros;
	size_t i = 0;
	(void)off;
	while (i < len && data[i] == 0x00)
		i++;
	d->zero_run += i;
	if (i == len)
		return len;
	zeros = d->zero_run;
	if (data[i] == 0x80 && zeros >= TC_ETE_ASYNC_MIN_PAYLOAD_ZEROS) {
		d->state = st_sync;
		d->zero_run = 0;
		send_async(d, start);
		return i + 1;
	}
	/* bad-async: resynchronise from start+1; the bytes from there to here
	 * are `zeros` zero bytes, which the search counts as a run. */
	report_error(d, tc_ete_err_bad_async, start, 0x00, 1);
	d->zero_run = zeros;
	d->run_start = start + 1;
	return i;
}

/* Resynchronisation after an error inside buffered bytes: rescan them. */
static void rescan_pending(struct tc_ete_decoder *d)
{
	uint8_t tmp[TC_ETE_MAX_PACKET];
	size_t n = d->npend - 1;
	uint64_t off = d->pend_off + 1;
	memcpy(tmp, d->pend + 1, n);
	d->npend = 0;
	feed_bytes(d, tmp, n, off);
}

/* One packet (tc_ete_parse_packet) on DSTATE.IA itself; a packet that
 * fails or is cut short leaves DSTATE.IA as it was. */
static int parse_packet(struct tc_ete_decoder *d, const uint8_t *buf, size_t len, uint64_t off)
{
	struct tc_ete_ia saved = d->ia;
	int r = tc_ete_parse_packet(&d->cfg, &d->ia, buf, len, off, &d->out);
	if (r <= 0)
		d->ia = saved;
	return r;
}

/* In sync, with part of a packet buffered: add one byte and retry. */
static size_t step_pending(struct tc_ete_decoder *d, const uint8_t *data)
{
	int r;
	d->pend[d->npend++] = data[0];
	r = parse_packet(d, d->pend, d->npend, d->pend_off);
	if (r > 0) {
		d->npend = 0;
		accept_packet(d);
	} else if (r < 0) {
		report_error(d, -r, d->pend_off, d->pend[0], 1);
		rescan_pending(d);
	} else if (d->npend == sizeof d->pend) {   /* cannot happen: packets are shorter */
		report_error(d, tc_ete_err_truncated, d->pend_off, d->pend[0], 1);
		rescan_pending(d);
	}
	return 1;
}

/* In sync: parse straight from the caller's buffer. */
static size_t step_sync(struct tc_ete_decoder *d, const uint8_t *data, size_t len, uint64_t off)
{
	int r;
	if (d->npend > 0)
		return step_pending(d, data);
	r = parse_packet(d, data, len, off);
	if (r > 0) {
		accept_packet(d);
		return (size_t)r;
	}
	if (r < 0) {
		report_error(d, -r, off, data[0], 1);
		return 1;
	}
	if (len >= sizeof d->pend) {               /* cannot happen: packets are shorter */
		report_error(d, tc_ete_err_truncated, off, data[0], 1);
		return 1;
	}
	memcpy(d->pend, data, len);
	d->npend = len;
	d->pend_off = off;
	return len;
}

static void feed_bytes(struct tc_ete_decoder *d, const uint8_t *data, size_t len, uint64_t off)
{
	size_t i = 0;
	while (i < len) {
		size_t n;
		if (d->state == st_search)
			n = step_search(d, data + i, len - i, off + i);
		else if (d->state == st_async_zeros)
			n = step_async_zeros(d, data + i, len - i, off + i);
		else
			n = step_sync(d, data + i, len - i, off + i);
		i += n;
	}
}

int tc_ete_feed(struct tc_ete_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len > 0))
		return tc_ete_invalid;
	if (d->finished)
		return tc_ete_finished;
	feed_bytes(d, data, len, d->pos);
	d->pos += len;
	return tc_ete_ok;
}

int tc_ete_finish(struct tc_ete_decoder *d)
{
	if (!d)
		return tc_ete_invalid;
	if (d->finished)
		return tc_ete_finished;
	if (d->state == st_sync && d->npend > 0)
		report_error(d, tc_ete_err_truncated, d->pend_off, d->pend[0], 1);
	else if (d->state == st_async_zeros)
		report_error(d, tc_ete_err_truncated, d->run_start, 0x00, 1);
	if (d->state == st_search)
		d->skipped += d->pos - d->search_start;
	tc_stage2_flush(&d->s2, d->pos);
	tc_stage3_flush(&d->s3);
	d->finished = 1;
	return tc_ete_ok;
}


struct tc_ete_decoder *tc_ete_alloc(const struct tc_ete_config *cfg, const struct tc_ete_sink *sink)
{
	struct tc_ete_decoder *d;
	if (!cfg || tc_ete_config_check(cfg, NULL, 0))
		return NULL;
	d = calloc(1, sizeof *d);   /* DSTATE.IA starts all zero (ERRATA TC-P29) */
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (sink)
		d->sink = *sink;
	if (tc_stage2_init(&d->s2, &d->cfg, d->sink.l2 || d->sink.l3 ? send_l2 : NULL, d)) {
		free(d);
		return NULL;
	}
	if (tc_stage3_init(&d->s3, &d->cfg, &d->sink)) {
		tc_stage2_fini(&d->s2);
		free(d);
		return NULL;
	}
	d->state = st_search;
	return d;
}

int tc_ete_set_image(struct tc_ete_decoder *d, const struct tc_image *image)
{
	if (!d)
		return tc_ete_invalid;
	tc_stage3_set_image(&d->s3, image);
	return tc_ete_ok;
}

void tc_ete_free(struct tc_ete_decoder *d)
{
	if (!d)
		return;
	tc_stage2_fini(&d->s2);
	tc_stage3_fini(&d->s3);
	free(d);
}

uint64_t tc_ete_skipped(const struct tc_ete_decoder *d)
{
	return d ? d->skipped : 0;
}
