/* SPDX-License-Identifier: BSD-3-Clause */
/* pktstream.h — the byte-stream driver of the protocols whose A-sync is five or more 0x00 then 0x80:
 * the A-sync search, packets cut by the end of a feed, errors and resynchronisation. */
#ifndef TC_PKTSTREAM_H
#define TC_PKTSTREAM_H

#include <stddef.h>
#include <stdint.h>

/* Longest packet any protocol using the driver has (bytes, header included). */
#define TC_PKTSTREAM_MAX_PACKET 32

/* Why the driver reports an error. */
enum tc_pktstream_why {
	tc_pktstream_packet = 0,   /* parse() refused the packet (its error class is given) */
	tc_pktstream_bad_async,    /* 00 in sync not followed by zeros up to 0x80, or too few zeros */
	tc_pktstream_truncated,    /* the stream ends inside a packet */
	tc_pktstream_truncated_async   /* the stream ends inside an A-sync's zeros */
};

/* What a protocol gives the driver. Every callback gets ctx. */
struct tc_pktstream_ops {
	void *ctx;
	/* Parses one packet at buf (len > 0 bytes; buf[0] is not 0x00, the A-sync
	 * header the driver reads itself). Returns the bytes consumed (> 0), 0
	 * when the bytes end inside the packet, or -error (the protocol's error
	 * class, > 0). The protocol's state must be as before the call unless
	 * it returns > 0. */
	int (*parse)(void *ctx, const uint8_t *buf, size_t len, uint64_t offset);
	/* The packet parse() just consumed. */
	void (*accept)(void *ctx);
	/* An A-sync whose first zero is at offset; searched: found by the
	 * search (at the start or after an error), not met in sync. */
	void (*async)(void *ctx, uint64_t offset, int searched);
	/* An error at offset (the first byte of the offending packet, header the
	 * byte there); error is parse()'s class for tc_pktstream_packet, else 0.
	 * The driver then searches for an A-sync from offset + 1. */
	void (*error)(void *ctx, int why, int error, uint64_t offset, uint8_t header);
};

enum tc_pktstream_state { tc_pktstream_search, tc_pktstream_sync, tc_pktstream_async_zeros };

struct tc_pktstream {
	struct tc_pktstream_ops ops;
	int min_zeros;                         /* zeros an A-sync needs before 0x80, the header included */
	enum tc_pktstream_state state;
	uint64_t pos;                          /* offset of the next byte fed */
	uint8_t pend[TC_PKTSTREAM_MAX_PACKET]; /* start of a packet cut by the end of a feed */
	size_t npend;
	uint64_t pend_off;
	uint64_t zero_run;                     /* search: zeros in a row; A-sync: zeros so far */
	uint64_t run_start;                    /* offset of the first of them */
	uint64_t search_start;
	uint64_t skipped;
};

void tc_pktstream_init(struct tc_pktstream *s, const struct tc_pktstream_ops *ops, int min_zeros);
/* Feeds len bytes; any chunking gives the same callbacks. */
void tc_pktstream_feed(struct tc_pktstream *s, const uint8_t *data, size_t len);
/* End of the stream: a packet or A-sync cut off is reported as truncated
 * (and the bytes after its first searched, as after any error). */
void tc_pktstream_finish(struct tc_pktstream *s);
/* Bytes skipped before the first A-sync and while resynchronising
 * (complete after tc_pktstream_finish). */
uint64_t tc_pktstream_skipped(const struct tc_pktstream *s);

#endif
