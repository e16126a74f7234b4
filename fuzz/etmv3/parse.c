/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.c — fuzz harness: the ETMv3 reference decoder's L1 (packets) on arbitrary bytes and configurations, against an independent model of the stream.
 *
 * Property: for every configuration the key table allows, any byte string
 * is decoded (fed whole) without crash, hang, leak or undefined behaviour,
 * and
 *   1. the L1 records equal, one by one, those of fuzz/etmv3/l1model.c, a
 *      model written from IHI 0014 chapter 7, reference/etmv3/FORMAT.md and
 *      ERRATA.md alone: the same packets at the same offsets with the same
 *      header, kind and the fields the kind shows (instruction addresses
 *      after decompression in both compression schemes, instruction set,
 *      NS, Hyp, reason, LSiP data instruction, atoms with W, exception
 *      information in both forms, cycle counts, context ID, VMID, data
 *      addresses with BE, data values, tags, timestamps after bit
 *      replacement and Gray decoding), the same errors with the same class,
 *      the same warnings after their packet; and the same number of skipped
 *      bytes. The model's framing rules are listed at the top of l1model.c;
 *   2. every record: offset inside the trace; kind in range; an error class
 *      (1 … count-1, but the L3 class no-address) exactly on error records;
 *      a warning has the class and bits its field allows (FORMAT.md
 *      "Warnings"), after its packet (same offset and header); the header
 *      column is the byte at the offset;
 *   3. bounded output: packets and errors have strictly increasing offsets
 *      (at most len of them), and at most 11 warnings follow a packet;
 *   4. the API: configurations config_check refuses are refused by
 *      tc_etmv3_alloc; a zero-length feed is accepted; NULL data with a
 *      length and a NULL decoder are tc_etmv3_invalid; after finish, feed
 *      and finish return tc_etmv3_finished and deliver nothing.
 * Whole against chunked feeding is fuzz/stream.c's property (etmv3_stream).
 *
 * Input: the ETMv3 configuration, one byte per key (fuzz.h
 * tc_fuzz_proto_config: version, cycle_accurate, contextid_size,
 * data_address, data_value, data_only, branch_output, alt_branch,
 * thumb2_one, profile_m, timestamps, vmid, ts64, ts_binary), then the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "l1model.h"
#include "tracecert/etmv3.h"
#include "tracecert/etmv3_config.h"

/* An LSiP I-sync with cycle count in ETMv3.4 on ARMv7-M: cc-last,
 * isync-info, isync-info0, lsip-first, lsip-exc (byte 0), exc1, lsip-exc
 * (byte 1), exc2-id, exc2, exc2-last, lsip-exc (byte 2); exc0 only before
 * ETMv3.4, where no byte 1 or 2 follows. */
#define MAX_WARNINGS 11

/* The decoder's records of one input. Only the buffer outlives an input. */
static struct {
	struct tc_etmv3_packet *p;
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

static void keep(struct run *r, const struct tc_etmv3_packet *p)
{
	if (r->n == rec.cap) {
		rec.cap = rec.cap ? 2 * rec.cap : 1024;
		rec.p = realloc(rec.p, rec.cap * sizeof *rec.p);
		TC_FUZZ_CHECK(rec.p != NULL, "out of memory");
	}
	rec.p[r->n++] = *p;
}

/* The class and bits a warning of each field may have (FORMAT.md "Warnings"):
 * res0 with some of its unassigned bits, or ignored-field with the bits as read. */
static int warning_ok(const struct tc_etmv3_packet *p)
{
	static const struct {
		uint8_t cls;
		uint8_t mask;     /* the bits the field can hold */
		uint8_t exact;    /* ignored-field of a single fixed value: that value + 1, else 0 */
	} rule[tc_etmv3_wf_count] = {
		[tc_etmv3_wf_cc_last] = { tc_etmv3_warn_res0, 0xf0, 0 },
		[tc_etmv3_wf_isync_info] = { tc_etmv3_warn_res0, 0x96, 0 },
		[tc_etmv3_wf_isync_info0] = { tc_etmv3_warn_ignored_field, 0, 1 },
		[tc_etmv3_wf_exc0] = { tc_etmv3_warn_res0, 0xc0, 0 },
		[tc_etmv3_wf_exc1] = { tc_etmv3_warn_res0, 0x3f, 0 },
		[tc_etmv3_wf_exc2] = { tc_etmv3_warn_res0, 0x30, 0 },
		[tc_etmv3_wf_exc2_last] = { tc_etmv3_warn_ignored_field, 0x80, 0x81 },
		[tc_etmv3_wf_exc2_id] = { tc_etmv3_warn_ignored_field, 0, 1 },
		[tc_etmv3_wf_lsip_first] = { tc_etmv3_warn_ignored_field, 0, 1 },
		[tc_etmv3_wf_lsip_exc] = { tc_etmv3_warn_ignored_field, 0x3f, 0 },   /* byte 0 0x3e, 1 0x1f, 2 0x0f */
		[tc_etmv3_wf_daddr_last] = { tc_etmv3_warn_res0, 0xe0, 0 },
		[tc_etmv3_wf_data_size] = { tc_etmv3_warn_ignored_field, 0x0c, 0 },
		[tc_etmv3_wf_ts_last] = { tc_etmv3_warn_res0, 0xc0, 0 },
	};
	if (p->field <= tc_etmv3_wf_none || p->field >= tc_etmv3_wf_count || p->warning != rule[p->field].cls)
		return 0;
	if (rule[p->field].exact)
		return p->ts == (uint64_t)(rule[p->field].exact - 1);
	return p->ts != 0 && (p->ts & ~(uint64_t)rule[p->field].mask) == 0;
}

static void check_warning(struct run *r, const struct tc_etmv3_packet *p)
{
	TC_FUZZ_CHECK(r->have_packet && r->last_kind != tc_etmv3_pkt_error && r->last_kind != tc_etmv3_pkt_async,
		      "warning @%llu without a packet before it", (unsigned long long)p->h.offset);
	TC_FUZZ_CHECK(p->h.offset == r->last_off && p->header == r->last_header,
		      "warning @%llu header %02x after the packet @%llu header %02x", (unsigned long long)p->h.offset,
		      p->header, (unsigned long long)r->last_off, r->last_header);
	TC_FUZZ_CHECK(warning_ok(p), "warning @%llu class %u field %u bits 0x%llx", (unsigned long long)p->h.offset,
		      p->warning, p->field, (unsigned long long)p->ts);
	TC_FUZZ_CHECK(++r->warnings <= MAX_WARNINGS, "%d warnings after the packet @%llu", r->warnings,
		      (unsigned long long)p->h.offset);
}

static void on_packet(void *ctx, const struct tc_etmv3_packet *p)
{
	struct run *r = ctx;
	uint64_t off = p->h.offset;
	TC_FUZZ_CHECK(!r->finished, "a record after finish");
	TC_FUZZ_CHECK(p->h.size == sizeof *p && p->h.protocol == tc_proto_etmv3, "record @%llu: size %u protocol %u",
		      (unsigned long long)off, p->h.size, p->h.protocol);
	TC_FUZZ_CHECK(off < r->len && p->header == r->trace[off], "record @%llu header %02x (trace of %zu bytes)",
		      (unsigned long long)off, p->header, r->len);
	TC_FUZZ_CHECK(p->h.kind < tc_etmv3_pkt_count, "record @%llu kind %u", (unsigned long long)off, p->h.kind);
	TC_FUZZ_CHECK((p->h.kind == tc_etmv3_pkt_error) ==
			      (p->error > tc_etmv3_err_none && p->error < tc_etmv3_err_count &&
			       p->error != tc_etmv3_err_no_address),
		      "record @%llu kind %u error %u", (unsigned long long)off, p->h.kind, p->error);
	if (p->h.kind == tc_etmv3_pkt_warning) {
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
static uint64_t decode(const struct tc_etmv3_config *cfg, struct run *r)
{
	struct tc_etmv3_sink sink = { r, on_packet, NULL };
	struct tc_etmv3_decoder *d = tc_etmv3_alloc(cfg, &sink);
	uint64_t skipped;
	size_t n;
	TC_FUZZ_CHECK(d != NULL, "tc_etmv3_alloc refused a configuration tc_etmv3_config_check accepts");
	TC_FUZZ_CHECK(tc_etmv3_feed(d, r->trace, 0) == tc_etmv3_ok, "zero-length feed");
	TC_FUZZ_CHECK(tc_etmv3_feed(d, NULL, 1) == tc_etmv3_invalid, "NULL data");
	TC_FUZZ_CHECK(tc_etmv3_feed(d, r->trace, r->len) == tc_etmv3_ok, "feed");
	TC_FUZZ_CHECK(tc_etmv3_finish(d) == tc_etmv3_ok, "finish");
	r->finished = 1;
	n = r->n;
	TC_FUZZ_CHECK(tc_etmv3_finish(d) == tc_etmv3_finished, "second finish");
	TC_FUZZ_CHECK(tc_etmv3_feed(d, r->trace, r->len) == tc_etmv3_finished, "feed after finish");
	TC_FUZZ_CHECK(r->n == n, "records after finish");
	skipped = tc_etmv3_skipped(d);
	tc_etmv3_free(d);
	return skipped;
}

static void print_records(const char *who, const struct tc_etmv3_packet *p, size_t n, size_t from, size_t to)
{
	fprintf(stderr, "%s (%zu records):\n", who, n);
	for (size_t i = from; i < n && i < to; i++) {
		char line[TC_FUZZ_LINE];
		tc_etmv3_format_packet(line, sizeof line, &p[i]);
		fprintf(stderr, "  [%zu] %s\n", i, line);
	}
}

/* The decoder's records against the model's. */
static void compare(const struct run *r, const struct etmv3_model *m, uint64_t skipped)
{
	size_t i = 0;
	while (i < r->n && i < m->n && etmv3_model_same(&rec.p[i], &m->item[i]))
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
	const struct tc_protocol *proto = tc_protocol_find("etmv3");
	struct tc_fuzz_in in = { data, size };
	struct tc_etmv3_config cfg;
	struct etmv3_model m = { NULL, 0, 0, 0 };
	struct run r;
	uint64_t skipped;
	if (size < (size_t)proto->nkeys)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	if (tc_etmv3_config_check(&cfg, NULL, 0)) {
		TC_FUZZ_CHECK(tc_etmv3_alloc(&cfg, NULL) == NULL,
			      "tc_etmv3_alloc accepted a configuration tc_etmv3_config_check refuses");
		return 0;
	}
	TC_FUZZ_CHECK(tc_etmv3_feed(NULL, data, 1) == tc_etmv3_invalid && tc_etmv3_finish(NULL) == tc_etmv3_invalid,
		      "NULL decoder");
	memset(&r, 0, sizeof r);
	r.trace = in.p;
	r.len = in.n;
	skipped = decode(&cfg, &r);
	TC_FUZZ_CHECK(skipped <= r.len, "skipped %llu of %zu bytes", (unsigned long long)skipped, r.len);
	etmv3_model_run(&cfg, r.trace, r.len, &m);
	compare(&r, &m, skipped);
	etmv3_model_free(&m);
	return 0;
}
