/* ptm_decoder.c — PTM decoder driver: A-sync search, streaming with a small pending buffer, errors, L1 → L3. */
#include <stdlib.h>
#include <string.h>

#include "ptm_internal.h"
#include "tracecert/ptm_config.h"

/* A-sync (§4.5 Table 4.1: header 0x00, at least 5 bytes of payload): at
 * least five 0x00 bytes, the header included, then 0x80 (PTM-P10). */
#define TC_PTM_ASYNC_MIN_ZEROS 5

enum dec_state { st_search, st_sync, st_async_zeros };

struct tc_ptm_decoder {
	struct tc_ptm_config cfg;
	struct tc_ptm_sink sink;
	struct tc_ptm_state st;            /* LastState */
	struct tc_ptm_analyzer an;         /* L3 */
	enum dec_state state;
	uint64_t pos;                      /* offset of the next byte fed */
	uint8_t pend[TC_PTM_MAX_PACKET];   /* start of a packet cut by a chunk boundary */
	size_t npend;
	uint64_t pend_off;
	uint64_t zero_run;                 /* search: zeros in a row; A-sync: zeros so far */
	uint64_t run_start;                /* offset of the first of them */
	uint64_t search_start;
	uint64_t skipped;
	int finished;
	struct tc_ptm_out out;
};

static void feed_bytes(struct tc_ptm_decoder *d, const uint8_t *data, size_t len, uint64_t off);

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

/* Reports an error at offset and, when resync is set, searches for the
 * next A-sync from the byte after the offending packet's first. */
static void report_error(struct tc_ptm_decoder *d, int error, uint64_t offset, uint8_t header)
{
	struct tc_ptm_packet p;
	TC_CLAUSE("PTM-P22/Resync");
	blank_packet(&p, tc_ptm_pkt_error, offset, header);
	p.error = (uint8_t)error;
	send_packet(d, &p);
	d->state = st_search;
	d->zero_run = 0;
	d->search_start = offset + 1;
}

static void send_async(struct tc_ptm_decoder *d, uint64_t offset)
{
	struct tc_ptm_packet p;
	blank_packet(&p, tc_ptm_pkt_async, offset, 0x00);
	send_packet(d, &p);
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

static void accept_packet(struct tc_ptm_decoder *d)
{
	const struct tc_ptm_out *out = &d->out;
	if (out->async_start) {
		d->state = st_async_zeros;
		d->run_start = out->pkt.h.offset;
		d->zero_run = 1;
		return;
	}
	if (d->sink.packet)
		d->sink.packet(d->sink.ctx, &out->pkt);
	send_warnings(d, out);
	if (d->sink.l3)
		tc_ptm_analyze(&d->an, &out->pkt);
}

/* Search: skip to the end of the next A-sync (≥5 zeros, then 0x80). */
static size_t step_search(struct tc_ptm_decoder *d, const uint8_t *data, size_t len, uint64_t off)
{
	for (size_t i = 0; i < len; i++) {
		if (data[i] == 0x00) {
			if (d->zero_run++ == 0)
				d->run_start = off + i;
		} else if (data[i] == 0x80 && d->zero_run >= TC_PTM_ASYNC_MIN_ZEROS) {
			TC_CLAUSE("PTM-P10/AsyncSearch");
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

/* Inside an A-sync: count zeros until 0x80. */
static size_t step_async_zeros(struct tc_ptm_decoder *d, const uint8_t *data, size_t len)
{
	uint64_t start = d->run_start, zeros;
	size_t i = 0;
	while (i < len && data[i] == 0x00)
		i++;
	d->zero_run += i;
	if (i == len)
		return len;
	zeros = d->zero_run;
	if (data[i] == 0x80 && zeros >= TC_PTM_ASYNC_MIN_ZEROS) {
		TC_CLAUSE("PTM-P10/Async");
		d->state = st_sync;
		d->zero_run = 0;
		send_async(d, start);
		return i + 1;
	}
	/* bad-async: the search restarts at start+1, where `zeros - 1` zero
	 * bytes lead up to this byte, which the search then reads again. */
	TC_CLAUSE("PTM-P10/BadAsync");
	report_error(d, tc_ptm_err_bad_async, start, 0x00);
	d->zero_run = zeros - 1;
	d->run_start = start + 1;
	return i;
}

static void rescan_pending(struct tc_ptm_decoder *d)
{
	uint8_t tmp[TC_PTM_MAX_PACKET];
	size_t n = d->npend - 1;
	uint64_t off = d->pend_off + 1;
	memcpy(tmp, d->pend + 1, n);
	d->npend = 0;
	feed_bytes(d, tmp, n, off);
}

/* One packet on LastState; a packet that fails or is cut short leaves it
 * as it was. */
static int parse_packet(struct tc_ptm_decoder *d, const uint8_t *buf, size_t len, uint64_t off)
{
	struct tc_ptm_state saved = d->st;
	int r = tc_ptm_parse_packet(&d->cfg, &d->st, buf, len, off, &d->out);
	if (r <= 0)
		d->st = saved;
	return r;
}

/* In sync with part of a packet buffered: add one byte and retry. */
static size_t step_pending(struct tc_ptm_decoder *d, const uint8_t *data)
{
	int r;
	d->pend[d->npend++] = data[0];
	r = parse_packet(d, d->pend, d->npend, d->pend_off);
	if (r > 0) {
		d->npend = 0;
		accept_packet(d);
	} else if (r < 0 || d->npend == sizeof d->pend) {   /* the second cannot happen: packets are shorter */
		report_error(d, r < 0 ? -r : tc_ptm_err_truncated, d->pend_off, d->pend[0]);
		rescan_pending(d);
	}
	return 1;
}

static size_t step_sync(struct tc_ptm_decoder *d, const uint8_t *data, size_t len, uint64_t off)
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
		report_error(d, -r, off, data[0]);
		return 1;
	}
	if (len >= sizeof d->pend) {               /* cannot happen: packets are shorter */
		report_error(d, tc_ptm_err_truncated, off, data[0]);
		return 1;
	}
	memcpy(d->pend, data, len);
	d->npend = len;
	d->pend_off = off;
	return len;
}

static void feed_bytes(struct tc_ptm_decoder *d, const uint8_t *data, size_t len, uint64_t off)
{
	size_t i = 0;
	while (i < len) {
		size_t n;
		if (d->state == st_search)
			n = step_search(d, data + i, len - i, off + i);
		else if (d->state == st_async_zeros)
			n = step_async_zeros(d, data + i, len - i);
		else
			n = step_sync(d, data + i, len - i, off + i);
		i += n;
	}
}

/* End of the stream inside a packet: truncated; as after any error, the
 * bytes after its first are searched for an A-sync (FORMAT.md "Error
 * classes"), which may start packets cut off in turn. Inside an A-sync's
 * zeros nothing is left to find. */
static void finish_packets(struct tc_ptm_decoder *d)
{
	while (d->state == st_sync && d->npend > 0) {
		TC_CLAUSE("PTM-P22/Truncated");
		report_error(d, tc_ptm_err_truncated, d->pend_off, d->pend[0]);
		rescan_pending(d);
	}
	if (d->state == st_async_zeros) {
		TC_CLAUSE("PTM-P22/TruncatedAsync");
		report_error(d, tc_ptm_err_truncated, d->run_start, 0x00);
	}
}

int tc_ptm_feed(struct tc_ptm_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len > 0))
		return tc_ptm_invalid;
	if (d->finished)
		return tc_ptm_finished;
	feed_bytes(d, data, len, d->pos);
	d->pos += len;
	return tc_ptm_ok;
}

int tc_ptm_finish(struct tc_ptm_decoder *d)
{
	if (!d)
		return tc_ptm_invalid;
	if (d->finished)
		return tc_ptm_finished;
	finish_packets(d);
	if (d->state == st_search && d->pos > d->search_start)
		d->skipped += d->pos - d->search_start;
	if (d->sink.l3)
		tc_ptm_analyze_flush(&d->an);
	d->finished = 1;
	return tc_ptm_ok;
}

struct tc_ptm_decoder *tc_ptm_alloc(const struct tc_ptm_config *cfg, const struct tc_ptm_sink *sink)
{
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
	d->state = st_search;
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
	return d ? d->skipped : 0;
}
