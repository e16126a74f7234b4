/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: the ETMv2 sample file through its descriptor, L1 and the L3
 * analyzer, against the same decoder at L1 alone and fed whole.
 *
 * Property: for every configuration the key table allows, any records over any image are decoded
 * (fed in chunks from the input) without crash, hang, leak or undefined behaviour, and
 *   1. the descriptor: items carry the protocol's id and record size, an L1 kind below l1_kinds and
 *      an L3 kind below tc_l3_kind_count; item_error is the class on errors only and item_is_warning
 *      on L1 warnings only; an L3 error names a class of the protocol's list; skipped is 0; after
 *      finish, feed and finish are refused and deliver nothing;
 *   2. levels: the L1 lines with L3 asked for too are those of L1 alone (L3 changes no L1 item);
 *   3. pieces: the L1 and L3 lines fed in chunks are those fed whole;
 *   4. text: every item formats to a line; an L3 line reads back (tc_l3_parse) and formats the same.
 *
 * Input: the configuration, one byte per key (fuzz.h tc_fuzz_proto_config); a flags byte: bits 2:0
 * raw regions (0-7); a chunking byte (tc_fuzz_chunks_init); the regions (tc_fuzz_read_regions);
 * the rest is the records after a header that agrees with the configuration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/etmv2.h"
#include "tracecert/etmv2_config.h"

#define MAX_FILE 4096

struct run {
	const struct tc_protocol *proto;
	int finished;
	uint64_t hash[2];         /* L1, L3 lines */
	int n[2];
};

static void check_l3_text(const struct tc_protocol *p, const char *line)
{
	struct tc_l3 x;
	char again[TC_FUZZ_LINE];
	memset(&x, 0, sizeof x);
	TC_FUZZ_CHECK(tc_l3_parse(line, &x, p->error_names, p->nerrors) == 0, "L3 '%s' does not read back", line);
	x.h.protocol = tc_proto_etmv2;
	tc_l3_format(again, sizeof again, &x, p->error_names, p->nerrors);
	TC_FUZZ_CHECK(!strcmp(line, again), "L3 '%s' reads back as '%s'", line, again);
}

static void on_item(void *ctx, int level, const struct tc_item *it)
{
	struct run *r = ctx;
	char line[TC_FUZZ_LINE];
	int l3 = level == tc_level_l3;
	TC_FUZZ_CHECK(!r->finished, "an item after finish");
	TC_FUZZ_CHECK(level == tc_level_l1 || l3, "level %d", level);
	TC_FUZZ_CHECK(it->protocol == tc_proto_etmv2, "protocol %u", it->protocol);
	if (l3) {
		const struct tc_l3 *x = (const struct tc_l3 *)it;
		TC_FUZZ_CHECK(it->size == sizeof *x && it->kind < tc_l3_kind_count, "L3 record header");
		TC_FUZZ_CHECK(r->proto->item_error(level, it) == (it->kind == tc_l3_error ? x->error : 0), "L3 item_error");
		if (it->kind == tc_l3_error)
			TC_FUZZ_CHECK(x->error > 0 && x->error < tc_etmv2_err_count, "L3 error class %u", x->error);
		TC_FUZZ_CHECK(!r->proto->item_is_warning(level, it), "an L3 warning");
	} else {
		const struct tc_etmv2_record *p = (const struct tc_etmv2_record *)it;
		TC_FUZZ_CHECK(it->size == r->proto->l1_size && it->kind < r->proto->l1_kinds, "L1 record header");
		TC_FUZZ_CHECK(r->proto->item_error(level, it) == (it->kind == tc_etmv2_error ? p->error : 0), "item_error");
		TC_FUZZ_CHECK(r->proto->item_is_warning(level, it) == (it->kind == tc_etmv2_warning), "item_is_warning");
	}
	int n = r->proto->format(line, sizeof line, level, it);
	TC_FUZZ_CHECK(n > 0 && (size_t)n < sizeof line, "line of %d bytes", n);
	if (l3)
		check_l3_text(r->proto, line);
	r->hash[l3] = r->hash[l3] * 1000003u ^ tc_fuzz_hash_bytes((const uint8_t *)line, strlen(line));
	r->n[l3]++;
}

/* One run through the descriptor; chunks NULL: fed whole. */
static void decode(const struct tc_protocol *proto, const struct tc_etmv2_config *cfg, const struct tc_image *img,
		   const uint8_t *file, size_t len, unsigned levels, struct tc_fuzz_chunks *chunks, struct run *r)
{
	struct tc_sink sink = { r, levels, on_item };
	memset(r, 0, sizeof *r);
	r->proto = proto;
	void *d = proto->alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "alloc failed for a configuration config_check accepts");
	TC_FUZZ_CHECK(proto->set_image(d, img) == 0, "set_image");
	for (size_t i = 0; i < len;) {
		size_t n = chunks ? tc_fuzz_chunk_next(chunks, len - i) : len;
		TC_FUZZ_CHECK(proto->feed(d, file + i, n) == 0, "feed");
		i += n;
	}
	TC_FUZZ_CHECK(proto->finish(d) == 0, "finish");
	r->finished = 1;
	TC_FUZZ_CHECK(proto->finish(d) != 0 && proto->feed(d, file, len) != 0, "feed or finish after finish");
	TC_FUZZ_CHECK(proto->skipped(d) == 0, "skipped");
	proto->free(d);
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
	struct tc_fuzz_chunks c;
	struct tc_image img;
	struct run whole, l1, pieces;
	static uint8_t file[16 + MAX_FILE];
	if (!proto || size < (size_t)proto->nkeys + 2)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	uint8_t flags = tc_fuzz_u8(&in);
	tc_fuzz_chunks_init(&c, tc_fuzz_u8(&in));
	if (proto->config_check(&cfg, NULL, 0)) {
		struct tc_sink sink = { NULL, tc_level_l1, on_item };
		TC_FUZZ_CHECK(proto->alloc(&cfg, &sink) == NULL, "alloc accepted a refused configuration");
		return 0;
	}
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, flags & 7, &img);
	tc_fuzz_check_image(&img);
	size_t n = in.n < MAX_FILE ? in.n : MAX_FILE;
	const uint8_t h[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 2, cfg.version, cfg.port_width, cfg.port_mode, cfg.half_rate };
	memcpy(file, h, 16);
	memcpy(file + 16, in.p, n);
	decode(proto, &cfg, &img, file, 16 + n, tc_level_l1 | tc_level_l3, NULL, &whole);
	decode(proto, &cfg, &img, file, 16 + n, tc_level_l1, NULL, &l1);
	TC_FUZZ_CHECK(l1.hash[0] == whole.hash[0] && l1.n[0] == whole.n[0], "L1 alone differs from L1 with L3");
	decode(proto, &cfg, &img, file, 16 + n, tc_level_l1 | tc_level_l3, &c, &pieces);
	TC_FUZZ_CHECK(pieces.hash[0] == whole.hash[0] && pieces.hash[1] == whole.hash[1] && pieces.n[0] == whole.n[0] &&
			      pieces.n[1] == whole.n[1],
		      "fed in chunks, the lines differ");
	tc_image_free(&img);
	return 0;
}
