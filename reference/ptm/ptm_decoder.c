/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_decoder.c — PTM decoder: the packet stream (A-sync search, streaming, errors) and L1 → L3. */
#include <stdlib.h>
#include <string.h>

#include "pktstream.h"
#include "ptm_internal.h"
#include "tracecert/ptm_config.h"

/* A-sync (§4.5 Table 4.1: header 0x00, at least 5 bytes of payload): at
 * least five 0x00 bytes, the header included, then 0x80 (PTM-P10). */
#define TC_PTM_ASYNC_MIN_ZEROS 5

_Static_assert(TC_PTM_MAX_PACKET <= TC_PKTSTREAM_MAX_PACKET, "the stream buffers a whole packet");

struct tc_ptm_decoder {
	struct tc_ptm_config cfg;
	struct tc_ptm_sink sink;
	struct tc_ptm_state st;            /* LastState */
	struct tc_ptm_state saved;         /* before the packet being parsed */
	struct tc_ptm_analyzer an;         /* L3 */
	struct tc_pktstream stream;
	struct tc_ptm_out out;
	int finished;
};

/* L1 to the sink, and to the analysis when an L3 sink is attached. */
static void send_packet(struct tc_ptm_decoder *d, const struct tc_ptm_packet *p)
{
	if (d->sink.packet)
		d->sink.packet(d->sink.ctx, p);
	if (d->sink.l3)
		tc_ptm_analyze(&d->an, p);
}

static void blank_packet(struct tc_ptm_packet *p, int kind, uint64_t offset, uint8_t header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_ptm;
	p->h.kind = (uint16_t)kind;
	p->h.offset = offset;
	p->header = header;
}

/* The warnings of an accepted packet: L1 lines after the packet's. */
static void send_warnings(struct tc_ptm_decoder *d, const struct tc_ptm_out *out)
{
	if (!d->sink.packet)
		return;
	for (int i = 0; i < out->nwarn; i++) {
		struct tc_ptm_packet p;
		blank_packet(&p, tc_ptm_pkt_warning, out->pkt.h.offset, out->pkt.header);
		p.warning = out->warn[i].warning;
		p.field = out->warn[i].field;
		p.value = out->warn[i].bits;
		d->sink.packet(d->sink.ctx, &p);
	}
}

/* ---- The stream's callbacks ------------------------------------------------- */

/* One packet on LastState; a packet that fails or is cut short leaves it
 * as it was. */
static int on_parse(void *ctx, const uint8_t *buf, size_t len, uint64_t off)
{
	struct tc_ptm_decoder *d = ctx;
	int r;
	d->saved = d->st;
	r = tc_ptm_parse_packet(&d->cfg, &d->st, buf, len, off, &d->out);
	if (r <= 0)
		d->st = d->saved;
	return r;
}

static void on_accept(void *ctx)
{
	struct tc_ptm_decoder *d = ctx;
	if (d->sink.packet)
		d->sink.packet(d->sink.ctx, &d->out.pkt);
	send_warnings(d, &d->out);
	if (d->sink.l3)
		tc_ptm_analyze(&d->an, &d->out.pkt);
}

static void on_async(void *ctx, uint64_t offset, int searched)
{
	struct tc_ptm_decoder *d = ctx;
	struct tc_ptm_packet p;
	if (searched) {
		TC_CLAUSE("PTM-P10/AsyncSearch");
	} else {
		TC_CLAUSE("PTM-P10/Async");
	}
	blank_packet(&p, tc_ptm_pkt_async, offset, 0x00);
	send_packet(d, &p);
}

/* Reports an error; the stream then searches for the next A-sync from the
 * byte after the offending packet's first (PTM-P22). */
static void on_error(void *ctx, int why, int error, uint64_t offset, uint8_t header)
{
	struct tc_ptm_decoder *d = ctx;
	struct tc_ptm_packet p;
	TC_CLAUSE("PTM-P22/Resync");
	blank_packet(&p, tc_ptm_pkt_error, offset, header);
	switch (why) {
	case tc_pktstream_packet: p.error = (uint8_t)error; break;
	case tc_pktstream_bad_async:
		TC_CLAUSE("PTM-P10/BadAsync");
		p.error = tc_ptm_err_bad_async;
		break;
	case tc_pktstream_truncated:
		TC_CLAUSE("PTM-P22/Truncated");
		p.error = tc_ptm_err_truncated;
		break;
	default:
		TC_CLAUSE("PTM-P22/TruncatedAsync");
		p.error = tc_ptm_err_truncated;
		break;
	}
	send_packet(d, &p);
}

/* ---- API ----------------------------------------------------------------------- */

int tc_ptm_feed(struct tc_ptm_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len > 0))
		return tc_ptm_invalid;
	if (d->finished)
		return tc_ptm_finished;
	tc_pktstream_feed(&d->stream, data, len);
	return tc_ptm_ok;
}

int tc_ptm_finish(struct tc_ptm_decoder *d)
{
	if (!d)
		return tc_ptm_invalid;
	if (d->finished)
		return tc_ptm_finished;
	tc_pktstream_finish(&d->stream);
	if (d->sink.l3)
		tc_ptm_analyze_flush(&d->an);
	d->finished = 1;
	return tc_ptm_ok;
}

struct tc_ptm_decoder *tc_ptm_alloc(const struct tc_ptm_config *cfg, const struct tc_ptm_sink *sink)
{
	struct tc_pktstream_ops ops = { NULL, on_parse, on_accept, on_async, on_error };
	struct tc_ptm_decoder *d;
	if (!cfg || tc_ptm_config_check(cfg, NULL, 0))
		return NULL;
	d = calloc(1, sizeof *d);   /* LastState starts all zero: address 0, ARM, Secure (PTM-P5) */
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (sink)
		d->sink = *sink;
	tc_ptm_analyze_init(&d->an, &d->cfg, &d->sink);
	ops.ctx = d;
	tc_pktstream_init(&d->stream, &ops, TC_PTM_ASYNC_MIN_ZEROS);
	return d;
}

int tc_ptm_set_image(struct tc_ptm_decoder *d, const struct tc_image *image)
{
	if (!d)
		return tc_ptm_invalid;
	d->an.image = image;
	return tc_ptm_ok;
}

void tc_ptm_free(struct tc_ptm_decoder *d)
{
	free(d);
}

uint64_t tc_ptm_skipped(const struct tc_ptm_decoder *d)
{
	return d ? tc_pktstream_skipped(&d->stream) : 0;
}
