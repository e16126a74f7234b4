/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: the RISC-V processor trace 0.026 stream through its descriptor, against an independent walk of its frames.
 *
 * Property: for every configuration the key table allows, any byte string
 * is decoded (fed in chunks from the input) without crash, hang, leak or
 * undefined behaviour, and
 *   1. frames (reference/rvtrace/ERRATA.md RV-F2, RV-F4, RV-F7, written here
 *      from the text alone): the packets and errors at L1 are one per frame,
 *      at the offsets of a walk that steps 1 + N bytes (N = byte 0 bits
 *      3:0), or 2 + M for a te_inst byte 0 with N = 0 and long_frames=1 (M
 *      = byte 1), each with its frame's byte 0; a frame cut by the end of
 *      the trace (a long form's byte 0 alone too) is the last item, error
 *      `truncated`, and no whole frame is `truncated`;
 *   2. warnings follow a packet of the same offset and byte 0, at most two;
 *   3. the descriptor: item_error is the record's class on errors only,
 *      item_is_warning on warnings only; skipped is 0 (no byte is outside a
 *      frame); after finish, feed and finish are refused and deliver
 *      nothing.
 *
 * Input: the configuration, one byte per key (fuzz.h tc_fuzz_proto_config),
 * one chunking byte (tc_fuzz_chunks_init), then the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/rvtrace.h"
#include "tracecert/rvtrace_config.h"

struct run {
	const struct tc_protocol *proto;
	const struct tc_rvtrace_config *cfg;
	const uint8_t *trace;
	size_t len;
	size_t next;              /* the walk: offset of the next frame */
	int ended;                /* the walk met a cut frame: nothing may follow */
	int finished;
	int warnings;             /* after the last packet */
	uint64_t last_off;
	uint8_t last_byte0;
};

/* The size of the frame at `at` by RV-F2 and RV-F4, or 0 when the trace ends before its end. */
static size_t frame_size(const struct run *r, size_t at)
{
	const uint8_t *b = r->trace + at;
	size_t left = r->len - at, size;
	unsigned n = b[0] & 0xf, type = (b[0] >> 4) & 3;
	if (n == 0 && type == tc_rvtrace_msg_inst && r->cfg->long_frames)
		size = left >= 2 ? 2 + (size_t)b[1] : 0;
	else
		size = 1 + (size_t)n;
	return size <= left ? size : 0;
}

static void on_packet(struct run *r, const struct tc_rvtrace_packet *p)
{
	size_t size;
	TC_FUZZ_CHECK(!r->ended && r->next < r->len, "an item @%llu after the last frame", (unsigned long long)p->h.offset);
	TC_FUZZ_CHECK(p->h.offset == r->next, "item @%llu, the frame starts @%zu", (unsigned long long)p->h.offset,
		      r->next);
	TC_FUZZ_CHECK(p->byte0 == r->trace[r->next], "byte 0 0x%02x, the frame's 0x%02x", p->byte0, r->trace[r->next]);
	size = frame_size(r, r->next);
	if (size == 0) {
		TC_FUZZ_CHECK(p->h.kind == tc_rvtrace_pkt_error && p->error == tc_rvtrace_err_truncated,
			      "a cut frame @%zu gives kind %u", r->next, p->h.kind);
		r->ended = 1;
	} else {
		TC_FUZZ_CHECK(p->h.kind != tc_rvtrace_pkt_error || p->error != tc_rvtrace_err_truncated,
			      "a whole frame @%zu of %zu bytes is truncated", r->next, size);
		r->next += size;
	}
	r->warnings = 0;
	r->last_off = p->h.offset;
	r->last_byte0 = p->byte0;
}

static void on_item(void *ctx, int level, const struct tc_item *it)
{
	struct run *r = ctx;
	const struct tc_rvtrace_packet *p = (const struct tc_rvtrace_packet *)it;
	TC_FUZZ_CHECK(!r->finished, "an item after finish");
	if (level != tc_level_l1)
		return;
	TC_FUZZ_CHECK(it->protocol == tc_proto_rvtrace && it->size == sizeof *p && it->kind < tc_rvtrace_pkt_count,
		      "record header");
	TC_FUZZ_CHECK(r->proto->item_error(level, it) == (it->kind == tc_rvtrace_pkt_error ? p->error : 0),
		      "item_error");
	TC_FUZZ_CHECK(r->proto->item_is_warning(level, it) == (it->kind == tc_rvtrace_pkt_warning), "item_is_warning");
	if (it->kind == tc_rvtrace_pkt_warning) {
		TC_FUZZ_CHECK(r->next > 0 && it->offset == r->last_off && p->byte0 == r->last_byte0 && ++r->warnings <= 2,
			      "warning @%llu after the packet @%llu", (unsigned long long)it->offset,
			      (unsigned long long)r->last_off);
		return;
	}
	on_packet(r, p);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find("rvtrace");
	struct tc_fuzz_in in = { data, size };
	struct tc_rvtrace_config cfg;
	struct tc_fuzz_chunks c;
	struct run r;
	struct tc_sink sink = { &r, tc_level_l1 | tc_level_l3, on_item };
	struct tc_image image;   /* empty */
	void *d;
	if (!proto || size < (size_t)proto->nkeys + 1)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	tc_fuzz_chunks_init(&c, tc_fuzz_u8(&in));
	memset(&r, 0, sizeof r);
	r.proto = proto;
	r.cfg = &cfg;
	r.trace = in.p;
	r.len = in.n;
	d = proto->alloc(&cfg, &sink);
	if (proto->config_check(&cfg, NULL, 0)) {
		TC_FUZZ_CHECK(d == NULL, "alloc accepted a configuration config_check refuses");
		return 0;
	}
	TC_FUZZ_CHECK(d != NULL, "alloc failed for a configuration config_check accepts");
	memset(&image, 0, sizeof image);
	TC_FUZZ_CHECK(proto->set_image(d, &image) == 0, "set_image");
	for (size_t i = 0; i < r.len;) {
		size_t n = tc_fuzz_chunk_next(&c, r.len - i);
		TC_FUZZ_CHECK(proto->feed(d, r.trace + i, n) == 0, "feed");
		TC_FUZZ_CHECK(proto->feed(d, r.trace + i + n, 0) == 0, "zero-length feed");
		i += n;
	}
	TC_FUZZ_CHECK(proto->finish(d) == 0, "finish");
	r.finished = 1;
	TC_FUZZ_CHECK(r.ended || r.next == r.len, "the items end @%zu of %zu bytes", r.next, r.len);
	TC_FUZZ_CHECK(proto->finish(d) != 0 && proto->feed(d, r.trace, r.len) != 0, "feed or finish after finish");
	TC_FUZZ_CHECK(proto->skipped(d) == 0, "skipped %llu", (unsigned long long)proto->skipped(d));
	proto->free(d);
	return 0;
}
