/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/csframe.h — CoreSight trace formatter frames: a streaming, protocol-neutral deformatter that splits a formatted buffer by trace ID. */
#ifndef TRACECERT_CSFRAME_H
#define TRACECERT_CSFRAME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rules (reference/csframe.c has the reasons and sources):
 * - a frame is 16 bytes; bytes 0, 2, ..., 14 are ID-or-data, bytes 1, 3,
 *   ..., 13 data, byte 15 holds one bit per even byte (bit k for byte 2k);
 * - an even byte with bit 0 set is an ID change, ID = bits 7:1; its byte-15
 *   bit 0 makes the new ID apply to the next byte, 1 only after it (the
 *   next byte is the old ID's); an ID in byte 14 applies from the next frame;
 * - an even byte with bit 0 clear is data, its bit 0 taken from byte 15;
 * - ID 0x00 is null (padding: dropped), 0x7D the trigger (dropped),
 *   0x7E and 0x7F reserved (an error; their data dropped); data before the
 *   first ID is dropped;
 * - a frame synchronization packet FF FF FF 7F where a frame may start is
 *   skipped; a buffer that ends inside a frame is an error. */
#define TC_CSFRAME_SIZE 16

struct tc_csframe_sink {
	void *ctx;
	/* len (1..15) bytes of the source with trace ID id, in stream order. */
	void (*data)(void *ctx, unsigned id, const uint8_t *bytes, size_t len);
	/* A rule broken: the byte offset in the formatted buffer and what was expected. May be NULL. */
	void (*error)(void *ctx, uint64_t offset, const char *msg);
};

struct tc_csframe {
	struct tc_csframe_sink sink;
	uint8_t frame[TC_CSFRAME_SIZE];
	unsigned have;            /* bytes of the current frame (or sync) held */
	int id;                   /* the ID in effect; -1 before the first */
	uint64_t offset;          /* buffer offset of frame[0] */
	uint64_t frames;          /* frames unpacked */
	uint64_t syncs;           /* frame synchronization packets skipped */
	uint64_t dropped;         /* data bytes dropped: before the first ID, null, trigger, reserved IDs */
	uint64_t errors;
	uint8_t seen[16];         /* bit id: the ID carried data */
	int finished;
};

void tc_csframe_init(struct tc_csframe *d, const struct tc_csframe_sink *sink);

/* Feeds len bytes of the formatted buffer; any chunking gives the same calls
 * (data runs may split differently, never the bytes or their order). */
void tc_csframe_feed(struct tc_csframe *d, const uint8_t *bytes, size_t len);

/* End of the buffer: a partial frame is reported as an error. */
void tc_csframe_finish(struct tc_csframe *d);

/* Whether ID id (0..127) carried data so far. */
int tc_csframe_seen(const struct tc_csframe *d, unsigned id);

#ifdef __cplusplus
}
#endif

#endif
