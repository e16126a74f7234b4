/* SPDX-License-Identifier: BSD-3-Clause */
/* stream.c — fuzz harness for any protocol, through its descriptor: stages 1–2 fed whole and in chunks on arbitrary bytes and configurations.
 *
 * Built once per protocol: fuzz.mk compiles it with TC_FUZZ_PROTOCOL set to
 * the protocol's name (harness P_stream); it reaches the protocol only
 * through tracecert/protocol.h (keys, alloc/feed/finish/skipped, format,
 * item_error). Property: for every configuration the key table allows, any
 * byte string is decoded without crash, hang, leak or undefined behaviour,
 * and
 *   1. configuration: alloc refuses exactly the configurations config_check
 *      refuses;
 *   2. streaming: the trace fed whole and fed in chunks (sizes from the
 *      input, with zero-length feeds between them) gives the same items at
 *      every level the protocol emits below L3 (L1, s1, L2) — the same
 *      formatted lines — and the same skipped-byte count ("any chunking
 *      gives the same output"); the chunked run is first fed k = 0…3 bytes
 *      0xFF (from the input): bytes before the first synchronisation are
 *      skipped (vectors/README.md: every vector starts with a full
 *      synchronisation), and 0xFF starts none in the protocols of this
 *      build that search for one (their A-sync is zeros, then 0x80; a protocol
 *      whose synchronisation can start with 0xFF needs another byte here),
 *      so the output must be the same with every offset k larger, and k
 *      more bytes skipped. Only a protocol that skips such bytes gets them:
 *      three bytes 0xFF decoded alone must give no item and 3 skipped bytes
 *      (ff_prefix_skipped), else k is 0 (a protocol whose first byte is
 *      already a packet, with no synchronisation sequence to search for);
 *   3. items: each carries the protocol's id and a size at least that of
 *      the item header; L1 offsets are inside the trace, s1/L2 offsets at
 *      most its length; offsets are non-decreasing per level; error classes
 *      are below the protocol's nerrors, and a warning is no error;
 *   4. text: every item of the whole run formats to a line of 1 to
 *      TC_FUZZ_LINE - 1 characters, the length returned;
 *   5. bounded output: at most 64 items per trace byte, plus 64, per level
 *      (a protocol that emits more per byte is a runaway);
 *   6. the API: a zero-length feed is accepted; after finish, feed and
 *      finish are refused (a non-zero status) and deliver nothing; at most
 *      len bytes are skipped.
 *
 * Items are recorded as raw bytes (their header's size); the chunked run
 * compares raw bytes and formats both sides only when they differ (the
 * formatted line decides: a field the text does not show may differ).
 *
 * Input: proto->nkeys bytes of configuration (fuzz.h
 * tc_fuzz_proto_config), one chunking byte (tc_fuzz_chunks_init; bits 4:3
 * are also k), then the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#ifndef TC_FUZZ_PROTOCOL
#error "TC_FUZZ_PROTOCOL names the protocol (fuzz/fuzz.mk)"
#endif

#define LEVELS 3               /* L1, s1, L2: the levels below L3 */
#define ITEM_MAX 4096          /* largest item size accepted */
#define ITEMS_PER_BYTE 64

static const char *const level_name[LEVELS] = { "L1", "s1", "L2" };
static const int level_bit[LEVELS] = { tc_level_l1, tc_level_s1, tc_level_l2 };

/* The whole run's items, raw, one after the other. Only the buffers
 * outlive an input; n and used are reset by every whole run. */
static struct {
	uint8_t *p;
	size_t cap;    /* bytes */
	size_t used;   /* bytes */
	size_t n;      /* items */
} rec[LEVELS];

struct run {
	const struct tc_protocol *proto;
	size_t len;
	int compare;                 /* 0: record (whole run), 1: compare (chunked run) */
	int finished;                /* finish returned: nothing may arrive now */
	unsigned shift;              /* bytes 0xFF fed before the trace */
	size_t n[LEVELS];            /* items per level */
	size_t at[LEVELS];           /* compare: read position in rec[] */
	uint64_t last_off[LEVELS];
	int mismatch;                /* the first differing level + 1 */
	size_t mismatch_at;
	int verbose;                 /* print the lines (a failure report) */
};

static int level_index(int level)
{
	for (int i = 0; i < LEVELS; i++)
		if (level_bit[i] == level)
			return i;
	return -1;
}

static int format_item(const struct run *r, int li, const struct tc_item *it, char *buf)
{
	int n = r->proto->format(buf, TC_FUZZ_LINE, level_bit[li], it);
	TC_FUZZ_CHECK(n > 0 && n < TC_FUZZ_LINE, "%s line of %d bytes (kind %u @%llu)", level_name[li], n, it->kind,
		      (unsigned long long)it->offset);
	TC_FUZZ_CHECK(strlen(buf) == (size_t)n, "format returned %d for a line of %zu bytes", n, strlen(buf));
	return n;
}

/* Items start at multiples of 16 bytes in rec[] (they hold 64-bit fields). */
static size_t padded(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

static void record(int li, const struct tc_item *it)
{
	size_t need = rec[li].used + padded(it->size);
	if (need > rec[li].cap) {
		rec[li].cap = need * 2 + 4096;
		rec[li].p = realloc(rec[li].p, rec[li].cap);
		TC_FUZZ_CHECK(rec[li].p != NULL, "out of memory");
	}
	memcpy(rec[li].p + rec[li].used, it, it->size);
	rec[li].used = need;
	rec[li].n++;
}

/* The chunked run's item against the whole run's, offset unshifted. */
static void compare(struct run *r, int li, const struct tc_item *it, size_t i)
{
	_Alignas(16) uint8_t tmp[ITEM_MAX];
	struct tc_item h;
	const struct tc_item *want = NULL;
	char a[TC_FUZZ_LINE], b[TC_FUZZ_LINE];
	if (r->mismatch)
		return;
	memcpy(tmp, it, it->size);
	memcpy(&h, tmp, sizeof h);
	h.offset -= r->shift;
	memcpy(tmp, &h, sizeof h);
	if (i < rec[li].n) {
		want = (const struct tc_item *)(rec[li].p + r->at[li]);
		r->at[li] += padded(want->size);
		if (want->size == it->size && !memcmp(want, tmp, it->size))
			return;
	}
	format_item(r, li, (const struct tc_item *)tmp, b);
	if (want) {
		format_item(r, li, want, a);
		if (!strcmp(a, b))
			return;   /* a field the text does not show */
	}
	r->mismatch = li + 1;
	r->mismatch_at = i;
}

static void check_item(struct run *r, int li, const struct tc_item *it)
{
	const struct tc_protocol *p = r->proto;
	int err = p->item_error(level_bit[li], it);
	uint64_t off = it->offset;
	TC_FUZZ_CHECK(!r->finished, "%s item delivered after finish", level_name[li]);
	TC_FUZZ_CHECK(it->protocol == p->id, "%s item of protocol %u from protocol %d", level_name[li], it->protocol,
		      p->id);
	TC_FUZZ_CHECK(it->size >= sizeof *it && it->size <= ITEM_MAX, "%s item of %u bytes", level_name[li], it->size);
	TC_FUZZ_CHECK(off >= r->shift && (li == 0 ? off - r->shift < r->len : off - r->shift <= r->len),
		      "%s item offset %llu, trace length %zu after %u bytes 0xff", level_name[li],
		      (unsigned long long)off, r->len, r->shift);
	TC_FUZZ_CHECK(off >= r->last_off[li], "%s item offset %llu after %llu", level_name[li],
		      (unsigned long long)off, (unsigned long long)r->last_off[li]);
	TC_FUZZ_CHECK(err >= 0 && err < p->nerrors, "%s item @%llu: error class %d of %d", level_name[li],
		      (unsigned long long)off, err, p->nerrors);
	TC_FUZZ_CHECK(!(err && p->item_is_warning(level_bit[li], it)), "%s item @%llu is an error and a warning",
		      level_name[li], (unsigned long long)off);
	r->last_off[li] = off;
}

static void on_item(void *ctx, int level, const struct tc_item *it)
{
	struct run *r = ctx;
	int li = level_index(level);
	size_t i;
	TC_FUZZ_CHECK(li >= 0, "an item of level %d, not asked for", level);
	check_item(r, li, it);
	i = r->n[li]++;
	if (r->verbose) {
		char buf[TC_FUZZ_LINE];
		format_item(r, li, it, buf);
		fprintf(stderr, "  %s %s\n", level_name[li], buf);
	} else if (r->compare) {
		compare(r, li, it, i);
	} else {
		char buf[TC_FUZZ_LINE];
		format_item(r, li, it, buf);
		record(li, it);
	}
}

static void feed_checked(const struct tc_protocol *proto, void *d, const uint8_t *p, size_t n)
{
	int rc = proto->feed(d, p, n);
	TC_FUZZ_CHECK(rc == 0, "feed of %zu bytes returned %d", n, rc);
}

static void feed(const struct run *r, void *d, const uint8_t *p, size_t n)
{
	feed_checked(r->proto, d, p, n);
}

/* Decodes the trace whole (seed < 0) or in chunks; returns skipped bytes. */
static uint64_t decode(const void *cfg, const uint8_t *trace, struct run *r, int seed)
{
	static const uint8_t ff[3] = { 0xff, 0xff, 0xff };
	struct tc_sink sink = { r, tc_level_l1 | tc_level_s1 | tc_level_l2, on_item };
	void *d = r->proto->alloc(cfg, &sink);
	size_t before[LEVELS];
	uint64_t skipped;
	TC_FUZZ_CHECK(d != NULL, "alloc failed for a configuration config_check accepts");
	if (seed < 0) {
		feed(r, d, trace, r->len);
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, (uint8_t)seed);
		feed(r, d, trace, 0);
		feed(r, d, ff, r->shift);
		while (i < r->len) {
			size_t n = tc_fuzz_chunk_next(&c, r->len - i);
			feed(r, d, trace + i, n);
			feed(r, d, trace + i + n, 0);
			i += n;
		}
	}
	TC_FUZZ_CHECK(r->proto->finish(d) == 0, "finish");
	r->finished = 1;
	memcpy(before, r->n, sizeof before);
	TC_FUZZ_CHECK(r->proto->finish(d) != 0, "a second finish was accepted");
	TC_FUZZ_CHECK(r->proto->feed(d, trace, r->len) != 0, "a feed after finish was accepted");
	TC_FUZZ_CHECK(!memcmp(before, r->n, sizeof before), "items delivered after finish");
	skipped = r->proto->skipped(d);
	r->proto->free(d);
	return skipped;
}

static void count_item(void *ctx, int level, const struct tc_item *it)
{
	(void)level;
	(void)it;
	++*(size_t *)ctx;
}

/* Whether the protocol skips bytes 0xFF before its first synchronisation:
 * three of them decoded alone give no item and 3 skipped bytes. */
static int ff_prefix_skipped(const struct tc_protocol *proto, const void *cfg)
{
	static const uint8_t ff[3] = { 0xff, 0xff, 0xff };
	size_t items = 0;
	struct tc_sink sink = { &items, tc_level_l1 | tc_level_s1 | tc_level_l2, count_item };
	void *d = proto->alloc(cfg, &sink);
	uint64_t skipped;
	TC_FUZZ_CHECK(d != NULL, "alloc failed for a configuration config_check accepts");
	feed_checked(proto, d, ff, sizeof ff);
	TC_FUZZ_CHECK(proto->finish(d) == 0, "finish");
	skipped = proto->skipped(d);
	proto->free(d);
	return items == 0 && skipped == sizeof ff;
}

static void reset(struct run *r, int compare, int verbose, unsigned shift)
{
	r->shift = shift;
	r->compare = compare;
	r->verbose = verbose;
	r->finished = 0;
	r->mismatch = 0;
	memset(r->n, 0, sizeof r->n);
	memset(r->at, 0, sizeof r->at);
	memset(r->last_off, 0, sizeof r->last_off);
}

/* Prints both runs' lines, then fails. */
static _Noreturn void report(const void *cfg, const uint8_t *trace, struct run *r, uint8_t seed,
			     const size_t *n_whole, uint64_t skip_whole, uint64_t skip_chunked)
{
	int li = r->mismatch ? r->mismatch - 1 : -1;
	size_t at = r->mismatch_at, n_chunked[LEVELS];
	unsigned shift = r->shift;
	memcpy(n_chunked, r->n, sizeof n_chunked);
	fprintf(stderr, "whole (skipped %llu):\n", (unsigned long long)skip_whole);
	reset(r, 0, 1, 0);
	decode(cfg, trace, r, -1);
	fprintf(stderr, "chunked, chunk byte 0x%02x, after %u bytes 0xff (skipped %llu):\n", seed, shift,
		(unsigned long long)skip_chunked);
	reset(r, 1, 1, shift);
	decode(cfg, trace, r, seed);
	TC_FUZZ_CHECK(0, "streaming: whole and chunked output differ (first at %s item %zu; L1 %zu/%zu, s1 %zu/%zu, "
			 "L2 %zu/%zu items, skipped %llu/%llu)",
		      li >= 0 ? level_name[li] : "-", li >= 0 ? at : 0, n_whole[0], n_chunked[0], n_whole[1],
		      n_chunked[1], n_whole[2], n_chunked[2], (unsigned long long)skip_whole,
		      (unsigned long long)skip_chunked);
	abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!tc_protocol_find(TC_FUZZ_PROTOCOL)) {
		fprintf(stderr, "stream: protocol '%s' is not in this build\n", TC_FUZZ_PROTOCOL);
		return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	struct tc_fuzz_in in = { data, size };
	struct run r;
	size_t n_whole[LEVELS];
	uint64_t skip_whole, skip_chunked;
	uint8_t seed;
	void *cfg;
	if (!proto || size < (size_t)proto->nkeys + 1)
		return 0;
	cfg = calloc(1, proto->config_size);
	TC_FUZZ_CHECK(cfg != NULL, "out of memory");
	tc_fuzz_proto_config(proto, &in, cfg);
	seed = tc_fuzz_u8(&in);
	memset(&r, 0, sizeof r);
	r.proto = proto;
	r.len = in.n;
	if (proto->config_check(cfg, NULL, 0)) {
		struct tc_sink sink = { &r, tc_level_l1, on_item };
		void *d = proto->alloc(cfg, &sink);
		TC_FUZZ_CHECK(d == NULL, "alloc accepted a configuration config_check refuses");
		free(cfg);
		return 0;
	}
	reset(&r, 0, 0, 0);
	for (int k = 0; k < LEVELS; k++)
		rec[k].n = rec[k].used = 0;
	skip_whole = decode(cfg, in.p, &r, -1);
	memcpy(n_whole, r.n, sizeof n_whole);
	for (int k = 0; k < LEVELS; k++)
		TC_FUZZ_CHECK(r.n[k] <= ITEMS_PER_BYTE * (r.len + 1), "%zu %s items from %zu bytes", r.n[k],
			      level_name[k], r.len);
	TC_FUZZ_CHECK(skip_whole <= r.len, "skipped %llu of %zu bytes", (unsigned long long)skip_whole, r.len);

	reset(&r, 1, 0, ff_prefix_skipped(proto, cfg) ? (seed >> 3) & 3 : 0);
	skip_chunked = decode(cfg, in.p, &r, seed);
	if (r.mismatch || memcmp(r.n, n_whole, sizeof n_whole) != 0 || skip_whole + r.shift != skip_chunked)
		report(cfg, in.p, &r, seed, n_whole, skip_whole, skip_chunked);
	free(cfg);
	return 0;
}
