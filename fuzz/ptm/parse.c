/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.c — fuzz harness: the PTM reference decoder's L1 (packets) on arbitrary bytes and configurations, against an independent model of the stream.
 *
 * Property: for every configuration the key table allows, any byte string
 * is decoded (fed whole) without crash, hang, leak or undefined behaviour,
 * and
 *   1. the L1 records equal, one by one, those of fuzz/ptm/l1model.c, a
 *      model written from reference/ptm/FORMAT.md and ERRATA.md alone:
 *      the same packets at the same offsets with the same header, kind and
 *      the fields the kind shows (addresses after decompression, instruction
 *      set, NS, Hyp, reason, atoms, exception, cycle counts, context ID,
 *      VMID, timestamps after bit replacement and Gray decoding), the same
 *      errors with the same class, the same warnings after their packet;
 *      and the same number of skipped bytes. The model's framing rules are
 *      listed at the top of l1model.c;
 *   2. every record: offset inside the trace, non-decreasing; kind in
 *      range; an error class (1 … count-1) exactly on error records; a
 *      warning is class res0 with a field in range and non-zero bits, after
 *      its packet (same offset and header); the header column is the byte
 *      at the offset;
 *   3. bounded output: packets and errors have strictly increasing offsets
 *      (at most len of them), and at most 5 warnings follow a packet;
 *   4. the API: configurations config_check refuses are refused by
 *      tc_ptm_alloc; a zero-length feed is accepted; NULL data with a length
 *      and a NULL decoder are tc_ptm_invalid; after finish, feed and finish
 *      return tc_ptm_finished and deliver nothing.
 * Whole against chunked feeding is fuzz/stream.c's property (ptm_stream).
 *
 * Input: the PTM configuration, one byte per key (fuzz.h
 * tc_fuzz_proto_config), then the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "l1model.h"
#include "tracecert/ptm.h"
#include "tracecert/ptm_config.h"

#define MAX_WARNINGS 5   /* a branch: addr5, exc0, exc1, cc-first, cc-last */

/* The decoder's records of one input. Only the buffer outlives an input. */
static struct {
	struct tc_ptm_packet *p;
	size_t cap;
} rec;

struct run {
	const uint8_t *trace;
	size_t len;
	size_t n;                 /* records */
	int finished;
	int have_packet;          /* a packet or error was seen */
	uint64_t last_off;        /* of the last packet or error */
	uint8_t last_header;
	int last_kind;
	int warnings;             /* after the last packet */
};

static void keep(struct run *r, const struct tc_ptm_packet *p)
{
	if (r->n == rec.cap) {
		rec.cap = rec.cap ? 2 * rec.cap : 1024;
		rec.p = realloc(rec.p, rec.cap * sizeof *rec.p);
		TC_FUZZ_CHECK(rec.p != NULL, "out of memory");
	}
	rec.p[r->n++] = *p;
}

static void check_warning(struct run *r, const struct tc_ptm_packet *p)
{
	TC_FUZZ_CHECK(r->have_packet && r->last_kind != tc_ptm_pkt_error && r->last_kind != tc_ptm_pkt_async,
		      "warning @%llu without a packet before it", (unsigned long long)p->h.offset);
	TC_FUZZ_CHECK(p->h.offset == r->last_off && p->header == r->last_header,
		      "warning @%llu header %02x after the packet @%llu header %02x", (unsigned long long)p->h.offset,
		      p->header, (unsigned long long)r->last_off, r->last_header);
	TC_FUZZ_CHECK((p->warning == tc_ptm_warn_res0 && p->field > tc_ptm_wf_none && p->field < tc_ptm_wf_count &&
		       p->field != tc_ptm_wf_wpu_first && p->field != tc_ptm_wf_isync_info0 && p->value != 0 &&
		       p->value <= 0xff) ||
			      (p->warning == tc_ptm_warn_ignored_field &&
			       (p->field == tc_ptm_wf_wpu_first || p->field == tc_ptm_wf_isync_info0) && p->value == 0),
		      "warning @%llu class %u field %u bits 0x%llx", (unsigned long long)p->h.offset, p->warning,
		      p->field, (unsigned long long)p->value);
	TC_FUZZ_CHECK(++r->warnings <= MAX_WARNINGS, "%d warnings after the packet @%llu", r->warnings,
		      (unsigned long long)p->h.offset);
}

static void on_packet(void *ctx, const struct tc_ptm_packet *p)
{
	struct run *r = ctx;
	uint64_t off = p->h.offset;
	TC_FUZZ_CHECK(!r->finished, "a record after finish");
	TC_FUZZ_CHECK(p->h.size == sizeof *p && p->h.protocol == tc_proto_ptm, "record @%llu: size %u protocol %u",
		      (unsigned long long)off, p->h.size, p->h.protocol);
	TC_FUZZ_CHECK(off < r->len && p->header == r->trace[off], "record @%llu header %02x (trace of %zu bytes)",
		      (unsigned long long)off, p->header, r->len);
	TC_FUZZ_CHECK(p->h.kind < tc_ptm_pkt_count, "record @%llu kind %u", (unsigned long long)off, p->h.kind);
	TC_FUZZ_CHECK((p->h.kind == tc_ptm_pkt_error) == (p->error > tc_ptm_err_none && p->error < tc_ptm_err_count),
		      "record @%llu kind %u error %u", (unsigned long long)off, p->h.kind, p->error);
	if (p->h.kind == tc_ptm_pkt_warning) {
		check_warning(r, p);
	} else {
		TC_FUZZ_CHECK(!r->have_packet || off > r->last_off, "packet @%llu after the one @%llu",
			      (unsigned long long)off, (unsigned long long)r->last_off);
		r->have_packet = 1;
		r->last_off = off;
		r->last_header = p->header;
		r->last_kind = p->h.kind;
		r->warnings = 0;
	}
	keep(r, p);
}

/* Decodes the trace fed whole; returns the bytes skipped. */
static uint64_t decode(const struct tc_ptm_config *cfg, struct run *r)
{
	struct tc_ptm_sink sink = { r, on_packet, NULL };
	struct tc_ptm_decoder *d = tc_ptm_alloc(cfg, &sink);
	uint64_t skipped;
	size_t n;
	TC_FUZZ_CHECK(d != NULL, "tc_ptm_alloc refused a configuration tc_ptm_config_check accepts");
	TC_FUZZ_CHECK(tc_ptm_feed(d, r->trace, 0) == tc_ptm_ok, "zero-length feed");
	TC_FUZZ_CHECK(tc_ptm_feed(d, NULL, 1) == tc_ptm_invalid, "NULL data");
	TC_FUZZ_CHECK(tc_ptm_feed(d, r->trace, r->len) == tc_ptm_ok, "feed");
	TC_FUZZ_CHECK(tc_ptm_finish(d) == tc_ptm_ok, "finish");
	r->finished = 1;
	n = r->n;
	TC_FUZZ_CHECK(tc_ptm_finish(d) == tc_ptm_finished, "second finish");
	TC_FUZZ_CHECK(tc_ptm_feed(d, r->trace, r->len) == tc_ptm_finished, "feed after finish");
	TC_FUZZ_CHECK(r->n == n, "records after finish");
	skipped = tc_ptm_skipped(d);
	tc_ptm_free(d);
	return skipped;
}

static void print_records(const char *who, const struct tc_ptm_packet *p, size_t n, size_t from, size_t to)
{
	fprintf(stderr, "%s (%zu records):\n", who, n);
	for (size_t i = from; i < n && i < to; i++) {
		char line[TC_FUZZ_LINE];
		tc_ptm_format_packet(line, sizeof line, &p[i]);
		fprintf(stderr, "  [%zu] %s\n", i, line);
	}
}

/* The decoder's records against the model's. */
static void compare(const struct run *r, const struct ptm_model *m, uint64_t skipped)
{
	size_t i = 0;
	while (i < r->n && i < m->n && ptm_model_same(&rec.p[i], &m->item[i]))
		i++;
	if (i == r->n && i == m->n && skipped == m->skipped)
		return;
	print_records("decoder", rec.p, r->n, i > 3 ? i - 3 : 0, i + 3);
	print_records("model", m->item, m->n, i > 3 ? i - 3 : 0, i + 3);
	TC_FUZZ_CHECK(0, "L1 differs from the model at record %zu (decoder %zu records, model %zu; skipped %llu, model %llu)",
		      i, r->n, m->n, (unsigned long long)skipped, (unsigned long long)m->skipped);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find("ptm");
	struct tc_fuzz_in in = { data, size };
	struct tc_ptm_config cfg;
	struct ptm_model m = { NULL, 0, 0, 0 };
	struct run r;
	uint64_t skipped;
	if (size < (size_t)proto->nkeys)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	if (tc_ptm_config_check(&cfg, NULL, 0)) {
		TC_FUZZ_CHECK(tc_ptm_alloc(&cfg, NULL) == NULL, "tc_ptm_alloc accepted a configuration config_check refuses");
		return 0;
	}
	TC_FUZZ_CHECK(tc_ptm_feed(NULL, data, 1) == tc_ptm_invalid && tc_ptm_finish(NULL) == tc_ptm_invalid,
		      "NULL decoder");
	memset(&r, 0, sizeof r);
	r.trace = in.p;
	r.len = in.n;
	skipped = decode(&cfg, &r);
	TC_FUZZ_CHECK(skipped <= r.len, "skipped %llu of %zu bytes", (unsigned long long)skipped, r.len);
	ptm_model_run(&cfg, r.trace, r.len, &m);
	compare(&r, &m, skipped);
	ptm_model_free(&m);
	return 0;
}
