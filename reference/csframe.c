/* SPDX-License-Identifier: BSD-3-Clause */
/* csframe.c — CoreSight trace formatter deformatter: 16-byte frames to per-trace-ID byte streams, streaming and fuzz-safe.
 *
 * Sources, as checked (the CoreSight Architecture Specification, Arm IHI
 * 0029, chapter "Trace Formatter", defines the protocol; the statements
 * below were read in Arm documents that restate it):
 * - CoreSight Components TRM (DDI 0314H) 8.12.1 and 9.6.1: when the source
 *   changes, flag bit F (bit 0 of the byte) is 1 for an ID, 0 for data; the
 *   byte after an ID is always data, and its bit at the end of the frame
 *   says whether it belongs to the new ID (clear) or the previous ID (set);
 *   a formatter repeats the current ID when it has not changed for eight
 *   frames.
 * - STM32 reference manuals' TPIU chapters (RM0390 33.17.3-4, RM0365
 *   33.15.3-4, citing IHI 0029): a frame is 16 bytes, seven data bytes,
 *   eight mixed-use bytes (bit 0: 0 data, 1 ID; bits 7:1 data or the new ID)
 *   and one byte of auxiliary bits, one per mixed-use byte (data: bit 0 of
 *   the data; ID: when the change takes effect); the frame synchronization
 *   packet is 0x7FFFFFFF, LSB first (FF FF FF 7F), output between frames,
 *   and cannot occur elsewhere while ID 0x7F is unused; the halfword
 *   synchronization 0x7FFF of continuous mode is not handled here (its FF
 *   reads as the reserved ID 0x7F and is reported).
 * - TMC TRM (DDI 0461) 2.2.3: at the end of capture a formatter pads with
 *   data 0x00 under ID 0x00 up to a whole number of frames.
 * - ETM TRM DDI 0459, 3.4.13 Trace ID Register: trace ID values 0x00 and
 *   0x70-0x7F are reserved for trace sources; of those the frames use 0x00
 *   (null) and 0x7D (trigger); 0x7E and 0x7F are reserved here. IDs
 *   0x70-0x7C are passed on like any other (a snapshot refuses them as a
 *   source's TRCTRACEIDR).
 * One reading: an ID in byte 14 has no next byte in its frame; it applies
 * from the next frame and its auxiliary bit (bit 7) is ignored. */
#include <stdio.h>
#include <string.h>

#include "tracecert/csframe.h"

#define ID_NULL 0x00u
#define ID_TRIGGER 0x7du

void tc_csframe_init(struct tc_csframe *d, const struct tc_csframe_sink *sink)
{
	memset(d, 0, sizeof *d);
	if (sink)
		d->sink = *sink;
	d->id = -1;
}

int tc_csframe_seen(const struct tc_csframe *d, unsigned id)
{
	return id < 128 && ((d->seen[id >> 3] >> (id & 7)) & 1);
}

static void error(struct tc_csframe *d, uint64_t offset, const char *msg)
{
	d->errors++;
	if (d->sink.error)
		d->sink.error(d->sink.ctx, offset, msg);
}

/* Bytes of one frame for one ID, passed on together. */
struct run {
	int id;
	uint8_t b[TC_CSFRAME_SIZE];
	size_t n;
};

static void flush(struct tc_csframe *d, struct run *r)
{
	if (r->n && d->sink.data)
		d->sink.data(d->sink.ctx, (unsigned)r->id, r->b, r->n);
	r->n = 0;
}

/* One data byte under ID id. */
static void emit(struct tc_csframe *d, struct run *r, int id, uint8_t byte)
{
	if (id < 0 || (unsigned)id == ID_NULL || (unsigned)id >= ID_TRIGGER) {
		d->dropped++;
		return;
	}
	if (r->id != id)
		flush(d, r);
	r->id = id;
	r->b[r->n++] = byte;
	d->seen[id >> 3] |= (uint8_t)(1u << (id & 7));
}

/* An ID byte at frame position i: reserved IDs are reported. */
static int new_id(struct tc_csframe *d, unsigned i)
{
	int id = d->frame[i] >> 1;
	if (id > (int)ID_TRIGGER) {
		char msg[96];
		snprintf(msg, sizeof msg, "frame byte %u: ID 0x%02x is reserved (0x7E, 0x7F); its data is dropped", i, id);
		error(d, d->offset + i, msg);
	}
	return id;
}

static void unpack(struct tc_csframe *d)
{
	const uint8_t *f = d->frame;
	struct run r = { -1, { 0 }, 0 };
	for (unsigned i = 0; i < TC_CSFRAME_SIZE - 1; i++) {
		unsigned aux = (f[15] >> (i / 2)) & 1;
		if (i % 2 == 1) {
			emit(d, &r, d->id, f[i]);
		} else if (!(f[i] & 1)) {
			emit(d, &r, d->id, (uint8_t)((f[i] & 0xfe) | aux));
		} else if (i < 14 && aux) {
			int id = new_id(d, i);
			emit(d, &r, d->id, f[i + 1]);   /* the next byte is still the old ID's */
			d->id = id;
			i++;
		} else {
			d->id = new_id(d, i);
		}
	}
	flush(d, &r);
	d->frames++;
}

static int is_sync(const uint8_t *p)
{
	return p[0] == 0xff && p[1] == 0xff && p[2] == 0xff && p[3] == 0x7f;
}

void tc_csframe_feed(struct tc_csframe *d, const uint8_t *bytes, size_t len)
{
	if (!d || !bytes || d->finished)
		return;
	for (size_t i = 0; i < len; i++) {
		d->frame[d->have++] = bytes[i];
		if (d->have == 4 && is_sync(d->frame)) {
			d->syncs++;
			d->offset += 4;
			d->have = 0;
		} else if (d->have == TC_CSFRAME_SIZE) {
			unpack(d);
			d->offset += TC_CSFRAME_SIZE;
			d->have = 0;
		}
	}
}

void tc_csframe_finish(struct tc_csframe *d)
{
	if (!d || d->finished)
		return;
	d->finished = 1;
	if (d->have) {
		char msg[96];
		snprintf(msg, sizeof msg, "the buffer ends %u bytes into a frame (frames are 16 bytes)", d->have);
		error(d, d->offset, msg);
	}
}
