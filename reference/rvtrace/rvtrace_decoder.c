/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_decoder.c — the RISC-V processor trace 0.026 stream at L1 and L3 (rvtrace_analyze.c): frames cut by the end of a feed,
 * one frame held at most, errors, the next frame after an error (reference/rvtrace/ERRATA.md RV-F7,
 * RV-P8). The shared pktstream.c does not fit: rvtrace frames are length-delimited, up to 257 bytes,
 * with no synchronisation sequence. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rvtrace_internal.h"

struct tc_rvtrace_decoder {
	struct tc_rvtrace_config cfg;
	struct tc_rvtrace_sink sink;
	uint8_t frame[TC_RVTRACE_MAX_FRAME];
	size_t have;            /* bytes of the frame held */
	uint64_t offset;        /* stream offset of frame[0] */
	int finished;
	int fed;                /* a byte was fed: the image is fixed */
	struct rv_l3 l3;
};

struct tc_rvtrace_decoder *tc_rvtrace_alloc(const struct tc_rvtrace_config *cfg, const struct tc_rvtrace_sink *sink)
{
	struct tc_rvtrace_decoder *d;
	if (!cfg || tc_rvtrace_config_check(cfg, NULL, 0))
		return NULL;
	d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->cfg = *cfg;
	if (sink)
		d->sink = *sink;
	rv_l3_init(&d->l3, cfg);
	d->l3.ctx = d->sink.ctx;
	return d;
}

int tc_rvtrace_set_l3_sink(struct tc_rvtrace_decoder *d, void (*l3)(void *ctx, const struct tc_l3 *x))
{
	if (!d || d->fed || d->finished)
		return tc_rvtrace_invalid;
	d->l3.sink = l3;
	return tc_rvtrace_ok;
}

int tc_rvtrace_set_image(struct tc_rvtrace_decoder *d, const struct tc_image *image)
{
	if (!d || d->fed || d->finished)
		return tc_rvtrace_invalid;
	d->l3.image = image;
	return tc_rvtrace_ok;
}

static void emit_frame(struct tc_rvtrace_decoder *d, size_t len)
{
	struct tc_rvtrace_packet rec[TC_RVTRACE_MAX_RECORDS];
	int n = tc_rvtrace_parse_frame(&d->cfg, d->frame, len, d->offset, rec);
	for (int i = 0; i < n; i++) {
		if (d->sink.packet)
			d->sink.packet(d->sink.ctx, &rec[i]);
		if (d->l3.sink)
			rv_l3_packet(&d->l3, &rec[i]);
	}
	d->offset += len;
	d->have = 0;
}

int tc_rvtrace_feed(struct tc_rvtrace_decoder *d, const uint8_t *data, size_t len)
{
	if (!d || (!data && len > 0))
		return tc_rvtrace_invalid;
	if (d->finished)
		return tc_rvtrace_finished;
	if (len > 0)
		d->fed = 1;
	for (size_t i = 0; i < len;) {
		size_t size = tc_rvtrace_frame_size(&d->cfg, d->frame, d->have);
		size_t want = size ? size - d->have : 1;   /* unknown size: one byte more says it */
		size_t k = want < len - i ? want : len - i;
		memcpy(d->frame + d->have, data + i, k);
		d->have += k;
		i += k;
		size = tc_rvtrace_frame_size(&d->cfg, d->frame, d->have);
		if (size && d->have == size)
			emit_frame(d, size);
	}
	return tc_rvtrace_ok;
}

int tc_rvtrace_finish(struct tc_rvtrace_decoder *d)
{
	if (!d)
		return tc_rvtrace_invalid;
	if (d->finished)
		return tc_rvtrace_finished;
	d->finished = 1;
	if (d->have > 0) {   /* a frame cut by the end of the stream: truncated ends it (RV-F7) */
		emit_frame(d, d->have);
	}
	if (d->l3.sink)
		rv_l3_finish(&d->l3);
	return tc_rvtrace_ok;
}

void tc_rvtrace_free(struct tc_rvtrace_decoder *d)
{
	free(d);
}
