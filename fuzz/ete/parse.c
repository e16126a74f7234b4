/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.c — fuzz harness: ETE stages 1–2 (packets, speculation, transactions) on arbitrary bytes.
 *
 * Property: for every decoder configuration, any byte string is decoded
 * without crash, hang, leak or undefined behaviour, and
 *   1. streaming: the trace fed whole and fed in chunks (sizes from the
 *      input) gives the same L1, s1 and L2 output — the same formatted lines
 *      (ete.h: "any chunking gives the same output") — and the same
 *      skipped-byte count; the chunked run is first fed k = 0…3 bytes 0xFF
 *      (from the input), which cannot be part of an A-sync: bytes before the
 *      first A-sync are skipped (FORMAT.md), so the output must be the same
 *      with every offset k larger, and k more bytes skipped;
 *   2. bounded output: at most 2·len+1 packets (one per header byte, plus a
 *      queue-overflow error at the same offset), at most 64 s1 elements per
 *      packet, at most s1+L1+1 L2 elements (L2 is s1 elements plus one
 *      `unresolved` per flush);
 *   3. L1 offsets are inside the trace and non-decreasing, the header column
 *      is the byte at the offset, kinds and error classes are in range (an
 *      error class exactly on error packets); s1 and L2 offsets are
 *      non-decreasing and at most len; commit and cancel never reach L2;
 *   4. (every L1 line formats to less than TC_FUZZ_LINE bytes: the format
 *      harness checks that for any packet struct, so it is not formatted
 *      here; formatting every line was 40% of this harness's time, 6d436a1)
 *   5. the API: a zero-length feed is accepted, feed/finish after finish
 *      return tc_ete_finished.
 *
 * Speed: the whole run records every item as raw struct bytes; the chunked
 * run compares its items with them and formats both sides only when the
 * bytes differ (the formatted lines decide). Formatting every s1/L2 element
 * twice cost more than decoding (up to ~70 items per trace byte).
 *
 * Input: bytes 0–2 the configuration (fuzz_ete.h tc_fuzz_ete_config; queue
 * capacities the trace cannot fill are lowered, tc_fuzz_ete_fit_caps), byte 3
 * the chunking (tc_fuzz_chunks_init; bits 4:3 are also k), then the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_ete.h"

#define MAX_EMIT_PER_PACKET 64   /* TC_ETE_MAX_EMIT of reference/ete/ete_internal.h */

static const char *const level_name[3] = { "L1", "s1", "L2" };
static const size_t item_size[3] = { sizeof(struct tc_ete_packet), sizeof(struct tc_ete_elem),
				     sizeof(struct tc_ete_elem) };

/* The whole run's items as raw bytes. Only the buffer outlives an input;
 * n is reset by every whole run. */
static struct {
	uint8_t *p;
	size_t cap;   /* bytes */
	size_t n;     /* items recorded for this input */
} rec[3];

struct run {
	const uint8_t *trace;
	size_t len;
	int compare;              /* 0: record (whole run), 1: compare (chunked run) */
	unsigned shift;           /* bytes 0xFF fed before the trace (chunked run) */
	size_t n[3];              /* items per level */
	uint64_t last_off[3];
	int mismatch;             /* the first differing level + 1 */
	size_t mismatch_at;
	int verbose;              /* print the lines (for a failure report) */
};

static int format_item(int level, const void *item, char *buf)
{
	int n = level == 0 ? tc_ete_format_packet(buf, TC_FUZZ_LINE, item) : tc_ete_format_elem(buf, TC_FUZZ_LINE, item);
	TC_FUZZ_CHECK(n > 0 && n < TC_FUZZ_LINE, "%s line of %d bytes", level_name[level], n);
	TC_FUZZ_CHECK(strlen(buf) == (size_t)n, "formatter returned %d for a line of %zu bytes", n, strlen(buf));
	return n;
}

/* Records or compares one item. */
static void item(struct run *r, int level, const void *it)
{
	size_t i = r->n[level]++, sz = item_size[level];
	uint8_t tmp[sizeof(struct tc_ete_packet) > sizeof(struct tc_ete_elem) ? sizeof(struct tc_ete_packet)
									       : sizeof(struct tc_ete_elem)];
	struct tc_item h;
	if (r->verbose) {
		char buf[TC_FUZZ_LINE];
		format_item(level, it, buf);
		fprintf(stderr, "  %s %s\n", level_name[level], buf);
		return;
	}
	if (!r->compare) {
		if ((i + 1) * sz > rec[level].cap) {
			rec[level].cap = (i + 1) * sz * 2 + 4096;
			rec[level].p = realloc(rec[level].p, rec[level].cap);
			TC_FUZZ_CHECK(rec[level].p != NULL, "out of memory");
		}
		memcpy(rec[level].p + i * sz, it, sz);
		rec[level].n = i + 1;
		return;
	}
	if (r->mismatch)
		return;
	/* compared with the offset unshifted: both structs start with their item header */
	memcpy(tmp, it, sz);
	memcpy(&h, tmp, sizeof h);
	h.offset -= r->shift;
	memcpy(tmp, &h, sizeof h);
	it = tmp;
	if (i < rec[level].n && memcmp(rec[level].p + i * sz, tmp, sz) == 0)
		return;
	{
		char a[TC_FUZZ_LINE], b[TC_FUZZ_LINE];
		format_item(level, it, b);
		if (i < rec[level].n) {
			format_item(level, rec[level].p + i * sz, a);
			if (!strcmp(a, b))
				return;   /* a field the text does not show */
		}
		r->mismatch = level + 1;
		r->mismatch_at = i;
	}
}

static void on_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct run *r = ctx;
	TC_FUZZ_CHECK(p->h.offset >= r->shift && p->h.offset - r->shift < r->len,
		      "packet offset %llu, trace length %zu after %u skipped bytes", (unsigned long long)p->h.offset,
		      r->len, r->shift);
	TC_FUZZ_CHECK(p->h.offset >= r->last_off[0], "packet offset %llu after %llu", (unsigned long long)p->h.offset,
		      (unsigned long long)r->last_off[0]);
	TC_FUZZ_CHECK(p->header == r->trace[p->h.offset - r->shift], "packet @%llu header %02x, byte there %02x",
		      (unsigned long long)p->h.offset, p->header, r->trace[p->h.offset - r->shift]);
	TC_FUZZ_CHECK(p->h.kind < tc_ete_pkt_count, "packet kind %u", p->h.kind);
	TC_FUZZ_CHECK((p->h.kind == tc_ete_pkt_error) == (p->error != tc_ete_err_none && p->error < tc_ete_err_count),
		      "packet @%llu kind %u error %u", (unsigned long long)p->h.offset, p->h.kind, p->error);
	r->last_off[0] = p->h.offset;
	item(r, 0, p);
}

static void check_elem(struct run *r, int level, const struct tc_ete_elem *e)
{
	TC_FUZZ_CHECK(e->h.offset >= r->shift && e->h.offset - r->shift <= r->len,
		      "%s element offset %llu, trace length %zu after %u skipped bytes", level_name[level],
		      (unsigned long long)e->h.offset, r->len, r->shift);
	TC_FUZZ_CHECK(e->h.offset >= r->last_off[level], "%s element offset %llu after %llu", level_name[level],
		      (unsigned long long)e->h.offset, (unsigned long long)r->last_off[level]);
	TC_FUZZ_CHECK(e->h.kind < tc_ete_elem_count, "element kind %u", e->h.kind);
	TC_FUZZ_CHECK((e->h.kind == tc_ete_elem_error) == (e->error != tc_ete_err_none && e->error < tc_ete_err_count),
		      "element @%llu kind %u error %u", (unsigned long long)e->h.offset, e->h.kind, e->error);
	r->last_off[level] = e->h.offset;
	item(r, level, e);
}

static void on_s1(void *ctx, const struct tc_ete_elem *e)
{
	check_elem(ctx, 1, e);
}

static void on_l2(void *ctx, const struct tc_ete_elem *e)
{
	TC_FUZZ_CHECK(e->h.kind != tc_ete_elem_commit && e->h.kind != tc_ete_elem_cancel,
		      "L2 element @%llu is a %s (commit and cancel never leave stage 2)",
		      (unsigned long long)e->h.offset, tc_ete_elem_kind_name(e->h.kind));
	check_elem(ctx, 2, e);
}

/* Decodes the trace whole (seed < 0) or in chunks; returns skipped bytes. */
static uint64_t decode(const struct tc_ete_config *cfg, struct run *r, int seed)
{
	struct tc_ete_sink sink = { r, on_packet, on_s1, on_l2, NULL };
	struct tc_ete_decoder *d = tc_ete_alloc(cfg, &sink);
	uint64_t skipped;
	TC_FUZZ_CHECK(d != NULL, "tc_ete_alloc failed for maxspec %u queue_cap %u tx_cap %u", cfg->maxspec,
		      cfg->queue_cap, cfg->tx_cap);
	if (seed < 0) {
		TC_FUZZ_CHECK(tc_ete_feed(d, r->trace, r->len) == tc_ete_ok, "feed");
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		static const uint8_t ff[3] = { 0xff, 0xff, 0xff };
		tc_fuzz_chunks_init(&c, (uint8_t)seed);
		TC_FUZZ_CHECK(tc_ete_feed(d, r->trace, 0) == tc_ete_ok, "zero-length feed");
		TC_FUZZ_CHECK(tc_ete_feed(d, ff, r->shift) == tc_ete_ok, "feed");
		while (i < r->len) {
			size_t n = tc_fuzz_chunk_next(&c, r->len - i);
			TC_FUZZ_CHECK(tc_ete_feed(d, r->trace + i, n) == tc_ete_ok, "feed");
			i += n;
		}
	}
	TC_FUZZ_CHECK(tc_ete_finish(d) == tc_ete_ok, "finish");
	TC_FUZZ_CHECK(tc_ete_finish(d) == tc_ete_finished, "second finish");
	TC_FUZZ_CHECK(tc_ete_feed(d, r->trace, r->len) == tc_ete_finished, "feed after finish");
	skipped = tc_ete_skipped(d);
	tc_ete_free(d);
	return skipped;
}

static void reset(struct run *r, int compare, int verbose, unsigned shift)
{
	r->shift = shift;
	memset(r->n, 0, sizeof r->n);
	memset(r->last_off, 0, sizeof r->last_off);
	r->compare = compare;
	r->verbose = verbose;
	r->mismatch = 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_ete_config cfg;
	struct run r;
	size_t n_whole[3];
	uint64_t skip_whole, skip_chunked;
	uint8_t seed;
	unsigned shift;
	if (size < TC_FUZZ_ETE_CFG_BYTES + 1)
		return 0;
	tc_fuzz_ete_config(data, &cfg);
	seed = data[TC_FUZZ_ETE_CFG_BYTES];
	shift = (seed >> 3) & 3;
	memset(&r, 0, sizeof r);
	r.trace = data + TC_FUZZ_ETE_CFG_BYTES + 1;
	r.len = size - TC_FUZZ_ETE_CFG_BYTES - 1;
	tc_fuzz_ete_fit_caps(&cfg, r.len);

	reset(&r, 0, 0, 0);
	for (int k = 0; k < 3; k++)
		rec[k].n = 0;
	skip_whole = decode(&cfg, &r, -1);
	memcpy(n_whole, r.n, sizeof n_whole);
	TC_FUZZ_CHECK(r.n[0] <= 2 * r.len + 1, "%zu packets from %zu bytes", r.n[0], r.len);
	TC_FUZZ_CHECK(r.n[1] <= MAX_EMIT_PER_PACKET * r.n[0], "%zu s1 elements from %zu packets", r.n[1], r.n[0]);
	TC_FUZZ_CHECK(r.n[2] <= r.n[1] + r.n[0] + 1, "%zu L2 elements from %zu s1 elements, %zu packets", r.n[2],
		      r.n[1], r.n[0]);
	TC_FUZZ_CHECK(skip_whole <= r.len, "skipped %llu of %zu bytes", (unsigned long long)skip_whole, r.len);

	reset(&r, 1, 0, shift);
	skip_chunked = decode(&cfg, &r, seed);
	if (r.mismatch || memcmp(r.n, n_whole, sizeof n_whole) != 0 || skip_whole + shift != skip_chunked) {
		int level = r.mismatch ? r.mismatch - 1 : -1;
		size_t at = r.mismatch_at;
		size_t n_chunked[3];
		memcpy(n_chunked, r.n, sizeof n_chunked);
		fprintf(stderr, "whole (skipped %llu):\n", (unsigned long long)skip_whole);
		reset(&r, 0, 1, 0);
		decode(&cfg, &r, -1);
		fprintf(stderr, "chunked, chunk byte 0x%02x, after %u bytes 0xff (skipped %llu):\n", seed, shift,
			(unsigned long long)skip_chunked);
		reset(&r, 1, 1, shift);
		decode(&cfg, &r, seed);
		TC_FUZZ_CHECK(0, "streaming: whole and chunked output differ (first at %s item %zu; L1 %zu/%zu lines, "
				 "s1 %zu/%zu, L2 %zu/%zu, skipped %llu/%llu)",
			      level >= 0 ? level_name[level] : "-", level >= 0 ? at : 0, n_whole[0], n_chunked[0],
			      n_whole[1], n_chunked[1], n_whole[2], n_chunked[2], (unsigned long long)skip_whole,
			      (unsigned long long)skip_chunked);
	}
	return 0;
}
