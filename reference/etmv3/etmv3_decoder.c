/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_decoder.c — ETMv3 decoder: the packet stream (A-sync search, streaming, errors) and L1 → L3. */
#include <stdlib.h>
#include <string.h>

#include "etmv3_internal.h"
#include "pktstream.h"
#include "tracecert/etmv3_config.h"

/* A-sync (§7.7.2): five or more 0x00, then 0x80 (47 or more zero bits then
 * a 1; the input is byte aligned, ETM3-P2). */
#define TC_ETMV3_ASYNC_MIN_ZEROS 5

_Static_assert(TC_ETMV3_MAX_PACKET <= TC_PKTSTREAM_MAX_PACKET, "the stream buffers a whole packet");

struct tc_etmv3_decoder {
	struct tc_etmv3_config cfg;
	struct tc_etmv3_sink sink;
	struct tc_etmv3_state st;          /* the packets' state (ETM3-P5: all zero at the start) */
	struct tc_etmv3_state saved;       /* before the packet being parsed */
	struct tc_etmv3_analyzer an;       /* L3 */
	struct tc_pktstream stream;
	struct tc_etmv3_out out;
	int finished;
};

/* L1 to the sink, and to the analysis when an L3 sink is attached. */
static void send_packet(struct tc_etmv3_decoder *d, const struct tc_etmv3_packet *p)
{
	if (d->sink.packet)
		d->sink.packet(d->sink.ctx, p);
	if (d->sink.l3)
		tc_etmv3_analyze(&d->an, p);
}

static void blank_packet(struct tc_etmv3_packet *p, int kind, uint64_t offset, uint8_t header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_etmv3;
	p->h.kind = (uint16_t)kind;
	p->h.offset = offset;
	p->header = header;
}

/* The warnings of an accepted packet: L1 lines after the packet's. */
static void send_warnings(struct tc_etmv3_decoder *d, const struct tc_etmv3_out *out)
{
	if (!d->sink.packet)
		return;
	for (int i = 0; i < out->nwarn; i++) {
		struct tc_etmv3_packet p;
		blank_packet(&p, tc_etmv3_pkt_warning, out->pkt.h.offset, out->pkt.header);
		p.warning = out->warn[i].warning;
		p.field = out->warn[i].field;
		p.ts = out->warn[i].bits;
		d->sink.packet(d->sink.ctx, &p);
	}
}

/* ---- The stream's callbacks ------------------------------------------------- */

/* One packet on the state; a packet that fails or is cut short leaves it
 * as it was. */
static int on_parse(void *ctx, const uint8_t *buf, size_t len, uint64_t off)
{
	struct tc_etmv3_decoder *d = ctx;
	int r;
	d->saved = d->st;
	r = tc_etmv3_parse_packet(&d->cfg, &d->st, buf, len, off, &d->out);
	if (r <= 0)
		d->st = d->saved;
	return r;
}

static void on_accept(void *ctx)
{
	struct tc_etmv3_decoder *d = ctx;
	if (d->sink.packet)
		d->sink.packet(d->sink.ctx, &d->out.pkt);
	send_warnings(d, &d->out);
	if (d->sink.l3)
		tc_etmv3_analyze(&d->an, &d->out.pkt);
}

static void on_async(void *ctx, uint64_t offset, int searched)
{
	struct tc_etmv3_decoder *d = ctx;
	struct tc_etmv3_packet p;
	(void)searched;   /* the same A-sync either way; the coverage build tells them apart */
	TC_CLAUSE_CASE(searched, "7.7.2/Async");
	blank_packet(&p, tc_etmv3_pkt_async, offset, 0x00);
	send_packet(d, &p);
}

/* An error, then the search for the next A-sync from the byte after the
 * offending packet's first (ETM3-P22). */
static void on_error(void *ctx, int why, int error, uint64_t offset, uint8_t header)
{
	struct tc_etmv3_decoder *d = ctx;
	struct tc_etmv3_packet p;
	TC_CLAUSE_CASE(why, "ETM3-P22/Error");
	blank_packet(&p, tc_etmv3_pkt_error, offset, header);
	if (why == tc_pktstream_packet)
		p.error = (uint8_t)error;
	else if (why == tc_pktstream_bad_async)
		p.error = tc_etmv3_err_bad_async;
	else
		p.error = tc_etmv3_err_truncated;
	send_packet(d, &p);
}

/* ---- API ----------------------------------------------------------------------- */

int tc_etmv3_feed(struct tc_etmv3_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len > 0))
		return tc_etmv3_invalid;
	if (d->finished)
		return tc_etmv3_finished;
	tc_pktstream_feed(&d->stream, data, len);
	return tc_etmv3_ok;
}

int tc_etmv3_finish(struct tc_etmv3_decoder *d)
{
	if (!d)
		return tc_etmv3_invalid;
	if (d->finished)
		return tc_etmv3_finished;
	tc_pktstream_finish(&d->stream);
	if (d->sink.l3)
		tc_etmv3_analyze_flush(&d->an);
	d->finished = 1;
	return tc_etmv3_ok;
}

struct tc_etmv3_decoder *tc_etmv3_alloc(const struct tc_etmv3_config *cfg, const struct tc_etmv3_sink *sink)
{
	struct tc_pktstream_ops ops = { NULL, on_parse, on_accept, on_async, on_error };
	struct tc_etmv3_decoder *d;
	if (!cfg || tc_etmv3_config_check(cfg, NULL, 0))
		return NULL;
	d = calloc(1, sizeof *d);   /* the state starts all zero: address 0, ARM, Secure (ETM3-P5) */
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (sink)
		d->sink = *sink;
	tc_etmv3_analyze_init(&d->an, &d->cfg, &d->sink);
	ops.ctx = d;
	tc_pktstream_init(&d->stream, &ops, TC_ETMV3_ASYNC_MIN_ZEROS);
	return d;
}

int tc_etmv3_set_image(struct tc_etmv3_decoder *d, const struct tc_image *image)
{
	if (!d)
		return tc_etmv3_invalid;
	d->an.image = image;
	memset(d->an.icache, 0, sizeof d->an.icache);
	return tc_etmv3_ok;
}

void tc_etmv3_free(struct tc_etmv3_decoder *d)
{
	free(d);
}

uint64_t tc_etmv3_skipped(const struct tc_etmv3_decoder *d)
{
	return d ? tc_pktstream_skipped(&d->stream) : 0;
}
