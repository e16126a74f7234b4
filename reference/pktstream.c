/* SPDX-License-Identifier: BSD-3-Clause */
/* pktstream.c — the byte-stream driver shared by the protocols whose A-sync is five or more 0x00 then 0x80. */
#include <string.h>

#include "pktstream.h"

static void feed_bytes(struct tc_pktstream *s, const uint8_t *data, size_t len, uint64_t off);

/* Reports an error at offset and searches for the next A-sync from the byte
 * after the offending packet's first. */
static void report_error(struct tc_pktstream *s, int why, int error, uint64_t offset, uint8_t header)
{
	s->ops.error(s->ops.ctx, why, error, offset, header);
	s->state = tc_pktstream_search;
	s->zero_run = 0;
	s->search_start = offset + 1;
}

/* Search: skip to the end of the next A-sync (min_zeros or more zeros, then 0x80). */
static size_t step_search(struct tc_pktstream *s, const uint8_t *data, size_t len, uint64_t off)
{
	for (size_t i = 0; i < len; i++) {
		if (data[i] == 0x00) {
			if (s->zero_run++ == 0)
				s->run_start = off + i;
		} else if (data[i] == 0x80 && s->zero_run >= (uint64_t)s->min_zeros) {
			s->skipped += s->run_start - s->search_start;
			s->state = tc_pktstream_sync;
			s->zero_run = 0;
			s->ops.async(s->ops.ctx, s->run_start, 1);
			return i + 1;
		} else {
			s->zero_run = 0;
		}
	}
	return len;
}

/* Inside an A-sync met in sync: count zeros until 0x80. */
static size_t step_async_zeros(struct tc_pktstream *s, const uint8_t *data, size_t len)
{
	uint64_t start = s->run_start, zeros;
	size_t i = 0;
	while (i < len && data[i] == 0x00)
		i++;
	s->zero_run += i;
	if (i == len)
		return len;
	zeros = s->zero_run;
	if (data[i] == 0x80 && zeros >= (uint64_t)s->min_zeros) {
		s->state = tc_pktstream_sync;
		s->zero_run = 0;
		s->ops.async(s->ops.ctx, start, 0);
		return i + 1;
	}
	/* bad A-sync: the search restarts at start+1, where `zeros - 1` zero
	 * bytes lead up to this byte, which the search then reads again. */
	report_error(s, tc_pktstream_bad_async, 0, start, 0x00);
	s->zero_run = zeros - 1;
	s->run_start = start + 1;
	return i;
}

/* After an error in a buffered packet: search the bytes after its first. */
static void rescan_pending(struct tc_pktstream *s)
{
	uint8_t tmp[TC_PKTSTREAM_MAX_PACKET];
	size_t n = s->npend - 1;
	uint64_t off = s->pend_off + 1;
	memcpy(tmp, s->pend + 1, n);
	s->npend = 0;
	feed_bytes(s, tmp, n, off);
}

/* In sync with part of a packet buffered: add one byte and retry. */
static size_t step_pending(struct tc_pktstream *s, const uint8_t *data)
{
	int r;
	s->pend[s->npend++] = data[0];
	r = s->ops.parse(s->ops.ctx, s->pend, s->npend, s->pend_off);
	if (r > 0) {
		s->npend = 0;
		s->ops.accept(s->ops.ctx);
	} else if (r < 0) {
		report_error(s, tc_pktstream_packet, -r, s->pend_off, s->pend[0]);
		rescan_pending(s);
	} else if (s->npend == sizeof s->pend) {   /* cannot happen: every packet is shorter */
		report_error(s, tc_pktstream_truncated, 0, s->pend_off, s->pend[0]);
		rescan_pending(s);
	}
	return 1;
}

static size_t step_sync(struct tc_pktstream *s, const uint8_t *data, size_t len, uint64_t off)
{
	int r;
	if (s->npend > 0)
		return step_pending(s, data);
	if (data[0] == 0x00) {   /* an A-sync's first zero: its header */
		s->state = tc_pktstream_async_zeros;
		s->run_start = off;
		s->zero_run = 1;
		return 1;
	}
	r = s->ops.parse(s->ops.ctx, data, len, off);
	if (r > 0) {
		s->ops.accept(s->ops.ctx);
		return (size_t)r;
	}
	if (r < 0) {
		report_error(s, tc_pktstream_packet, -r, off, data[0]);
		return 1;
	}
	if (len >= sizeof s->pend) {   /* cannot happen: every packet is shorter */
		report_error(s, tc_pktstream_truncated, 0, off, data[0]);
		return 1;
	}
	memcpy(s->pend, data, len);
	s->npend = len;
	s->pend_off = off;
	return len;
}

static void feed_bytes(struct tc_pktstream *s, const uint8_t *data, size_t len, uint64_t off)
{
	size_t i = 0;
	while (i < len) {
		size_t n;
		if (s->state == tc_pktstream_search)
			n = step_search(s, data + i, len - i, off + i);
		else if (s->state == tc_pktstream_async_zeros)
			n = step_async_zeros(s, data + i, len - i);
		else
			n = step_sync(s, data + i, len - i, off + i);
		i += n;
	}
}

void tc_pktstream_init(struct tc_pktstream *s, const struct tc_pktstream_ops *ops, int min_zeros)
{
	memset(s, 0, sizeof *s);
	s->ops = *ops;
	s->min_zeros = min_zeros;
	s->state = tc_pktstream_search;
}

void tc_pktstream_feed(struct tc_pktstream *s, const uint8_t *data, size_t len)
{
	feed_bytes(s, data, len, s->pos);
	s->pos += len;
}

/* The end inside a packet: truncated; as after any error the bytes after
 * its first are searched for an A-sync, which may start packets cut off in
 * turn. Inside an A-sync's zeros nothing is left to find. */
void tc_pktstream_finish(struct tc_pktstream *s)
{
	while (s->state == tc_pktstream_sync && s->npend > 0) {
		report_error(s, tc_pktstream_truncated, 0, s->pend_off, s->pend[0]);
		rescan_pending(s);
	}
	if (s->state == tc_pktstream_async_zeros)
		report_error(s, tc_pktstream_truncated_async, 0, s->run_start, 0x00);
	if (s->state == tc_pktstream_search && s->pos > s->search_start)
		s->skipped += s->pos - s->search_start;
	s->search_start = s->pos;   /* counted once, however often finish is called */
}

uint64_t tc_pktstream_skipped(const struct tc_pktstream *s)
{
	return s->skipped;
}
