/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.c — fuzz harness: the ETMv2 L1 decoder (reference/etmv2/) on a sample file whose header
 * agrees with the configuration, and arbitrary records.
 *
 * Property: for every configuration the key table allows, any records are decoded without crash,
 * hang, leak or undefined behaviour, and
 *   1. records (reference/etmv2/FORMAT.md "Records", written here from the format alone): every
 *      item's offset is a record's, 16 + k × the record size (2 bytes, 3 on a 16-bit port), within
 *      the file; the header agrees, so no item is `bad-header`;
 *   2. items: the protocol's id, the record's size, a kind below tc_etmv2_kind_count; an error class
 *      1 … count-1 and never `bad-header`; S is a PIPESTAT 0 … 15 but for a gap ("-"); a warning
 *      follows an item of its offset;
 *   3. text: every item formats to a line the L1 parser reads back into one that formats the same;
 *   4. pieces: fed one record at a time, or in two pieces cut at any byte, the lines are the same as
 *      fed whole.
 *
 * Input: the configuration, one byte per key (fuzz.h tc_fuzz_proto_config), one byte choosing the
 * cut, then the records. ETMv2's L1 needs no image (L9090).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/etmv2.h"
#include "tracecert/etmv2_config.h"

#define MAX_FILE 4096

struct run {
	size_t len;               /* the file's bytes */
	size_t rsize;             /* its record size */
	uint64_t hash;
	uint64_t last_off;
	int items;
};

static void check_text(const struct tc_etmv2_record *r, char *line, size_t size)
{
	char again[TC_FUZZ_LINE], err[160];
	struct tc_etmv2_record q;
	int n = tc_etmv2_format(line, size, r);
	TC_FUZZ_CHECK(n > 0 && (size_t)n < size && strlen(line) == (size_t)n, "line of %d bytes", n);
	memset(&q, 0, sizeof q);
	TC_FUZZ_CHECK(tc_etmv2_parse_text(line, &q, err, sizeof err) == 0, "'%s' does not read back: %s", line, err);
	tc_etmv2_format(again, sizeof again, &q);
	TC_FUZZ_CHECK(!strcmp(line, again), "'%s' reads back as '%s'", line, again);
}

static void on_item(void *ctx, const struct tc_etmv2_record *r)
{
	struct run *run = ctx;
	char line[TC_FUZZ_LINE];
	uint64_t off = r->h.offset;
	TC_FUZZ_CHECK(r->h.protocol == tc_proto_etmv2 && r->h.size == sizeof *r && r->h.kind < tc_etmv2_kind_count,
		      "record header");
	TC_FUZZ_CHECK(off >= 16 && off < run->len && (off - 16) % run->rsize == 0, "offset %llu is no record's",
		      (unsigned long long)off);
	if (r->h.kind == tc_etmv2_error)
		TC_FUZZ_CHECK(r->error > 0 && r->error < tc_etmv2_err_count && r->error != tc_etmv2_err_bad_header,
			      "error class %u", r->error);
	if (r->h.kind == tc_etmv2_gap)
		TC_FUZZ_CHECK(r->status == TC_ETMV2_STATUS_GAP, "a gap's S %u", r->status);
	else
		TC_FUZZ_CHECK(r->status <= 15, "S %u", r->status);
	if (r->h.kind == tc_etmv2_warning)
		TC_FUZZ_CHECK(run->items > 0 && off == run->last_off, "warning @%llu after @%llu", (unsigned long long)off,
			      (unsigned long long)run->last_off);
	check_text(r, line, sizeof line);
	run->hash = run->hash * 1000003u ^ tc_fuzz_hash_bytes((const uint8_t *)line, strlen(line));
	run->last_off = off;
	run->items++;
}

/* The hash of the lines of file fed in pieces: whole (step 0), one record a time, or cut at `cut`. */
static uint64_t decode(const struct tc_etmv2_config *cfg, const uint8_t *file, size_t len, size_t step, size_t cut)
{
	struct run run = { len, cfg->port_width == 16 ? 3 : 2, 0, 0, 0 };
	struct tc_etmv2_sink sink = { &run, on_item };
	struct tc_etmv2_decoder *d = tc_etmv2_alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "alloc failed for a configuration config_check accepts");
	if (step) {
		for (size_t at = 0; at < len; at += step)
			TC_FUZZ_CHECK(tc_etmv2_feed(d, file + at, len - at < step ? len - at : step) == 0, "feed");
	} else if (cut) {
		TC_FUZZ_CHECK(tc_etmv2_feed(d, file, cut) == 0 && tc_etmv2_feed(d, file + cut, len - cut) == 0, "feed");
	} else {
		TC_FUZZ_CHECK(tc_etmv2_feed(d, file, len) == 0, "feed");
	}
	TC_FUZZ_CHECK(tc_etmv2_finish(d) == 0, "finish");
	TC_FUZZ_CHECK(tc_etmv2_finish(d) == tc_etmv2_finished && tc_etmv2_feed(d, file, 1) == tc_etmv2_finished,
		      "feed or finish after finish");
	tc_etmv2_free(d);
	return run.hash ^ (uint64_t)run.items << 48;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find("etmv2");
	struct tc_fuzz_in in = { data, size };
	struct tc_etmv2_config cfg;
	static uint8_t file[16 + MAX_FILE];
	if (!proto || size < (size_t)proto->nkeys + 1)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	uint8_t cut = tc_fuzz_u8(&in);
	if (tc_etmv2_config_check(&cfg, NULL, 0)) {
		struct tc_etmv2_sink sink = { NULL, NULL };
		TC_FUZZ_CHECK(tc_etmv2_alloc(&cfg, &sink) == NULL, "alloc accepted a refused configuration");
		return 0;
	}
	size_t n = in.n < MAX_FILE ? in.n : MAX_FILE;
	const uint8_t h[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 2, cfg.version, cfg.port_width, cfg.port_mode, cfg.half_rate };
	memcpy(file, h, 16);
	memcpy(file + 16, in.p, n);
	size_t len = 16 + n;
	uint64_t whole = decode(&cfg, file, len, 0, 0);
	size_t rsize = cfg.port_width == 16 ? 3 : 2;
	TC_FUZZ_CHECK(decode(&cfg, file, len, rsize, 0) == whole, "fed a record at a time, the lines differ");
	size_t at = 1 + cut % (len - 1);
	TC_FUZZ_CHECK(decode(&cfg, file, len, 0, at) == whole, "cut at byte %zu, the lines differ", at);
	return 0;
}
