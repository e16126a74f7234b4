/* SPDX-License-Identifier: BSD-3-Clause */
/* cyclecap_decode.c — the body of a per-cycle sample file protocol's decode harness
 * (cyclecap_decode.h: the property and the input). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclecap_decode.h"
#include "fuzz.h"

#define MAX_FILE 4096
#define CONFIG_MAX 256   /* bytes of the protocol's configuration struct */

struct run {
	const struct tc_fuzz_cyclecap *params;
	const struct tc_protocol *proto;
	int finished;
	uint64_t hash[2];         /* L1, L3 lines */
	int n[2];
};

static void check_l3_text(const struct tc_fuzz_cyclecap *params, const struct tc_protocol *p, const char *line)
{
	struct tc_l3 x;
	char again[TC_FUZZ_LINE];
	memset(&x, 0, sizeof x);
	TC_FUZZ_CHECK(tc_l3_parse(line, &x, p->error_names, p->nerrors) == 0, "L3 '%s' does not read back", line);
	x.h.protocol = (uint16_t)params->id;
	tc_l3_format(again, sizeof again, &x, p->error_names, p->nerrors);
	TC_FUZZ_CHECK(!strcmp(line, again), "L3 '%s' reads back as '%s'", line, again);
}

static void on_item(void *ctx, int level, const struct tc_item *it)
{
	struct run *r = ctx;
	const struct tc_fuzz_cyclecap *params = r->params;
	char line[TC_FUZZ_LINE];
	int l3 = level == tc_level_l3;
	TC_FUZZ_CHECK(!r->finished, "an item after finish");
	TC_FUZZ_CHECK(level == tc_level_l1 || l3, "level %d", level);
	TC_FUZZ_CHECK(it->protocol == params->id, "protocol %u", it->protocol);
	if (l3) {
		const struct tc_l3 *x = (const struct tc_l3 *)it;
		TC_FUZZ_CHECK(it->size == sizeof *x && it->kind < tc_l3_kind_count, "L3 record header");
		TC_FUZZ_CHECK(r->proto->item_error(level, it) == (it->kind == tc_l3_error ? x->error : 0), "L3 item_error");
		if (it->kind == tc_l3_error)
			TC_FUZZ_CHECK(x->error > 0 && x->error < params->nerrors, "L3 error class %u", x->error);
		TC_FUZZ_CHECK(!r->proto->item_is_warning(level, it), "an L3 warning");
	} else {
		TC_FUZZ_CHECK(it->size == r->proto->l1_size && it->kind < r->proto->l1_kinds, "L1 record header");
		TC_FUZZ_CHECK(r->proto->item_error(level, it) == (it->kind == params->error_kind ? params->l1_error(it) : 0),
			      "item_error");
		TC_FUZZ_CHECK(r->proto->item_is_warning(level, it) == (it->kind == params->warning_kind), "item_is_warning");
	}
	int n = r->proto->format(line, sizeof line, level, it);
	TC_FUZZ_CHECK(n > 0 && (size_t)n < sizeof line, "line of %d bytes", n);
	if (l3)
		check_l3_text(params, r->proto, line);
	r->hash[l3] = r->hash[l3] * 1000003u ^ tc_fuzz_hash_bytes((const uint8_t *)line, strlen(line));
	r->n[l3]++;
}

/* One run through the descriptor; chunks NULL: fed whole. */
static void decode(const struct tc_fuzz_cyclecap *params, const struct tc_protocol *proto, const void *cfg,
		   const struct tc_image *img, const uint8_t *file, size_t len, unsigned levels,
		   struct tc_fuzz_chunks *chunks, struct run *r)
{
	struct tc_sink sink = { r, levels, on_item };
	memset(r, 0, sizeof *r);
	r->params = params;
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

/* Key `name` of cfg, a header byte the file must agree on (FORMAT.md "Header" of the protocol). */
static uint8_t header_key(const struct tc_protocol *proto, const void *cfg, const char *name)
{
	int k = tc_config_key_find(proto, name);
	TC_FUZZ_CHECK(k >= 0, "%s has no key %s", proto->name, name);
	return (uint8_t)tc_config_get(proto, cfg, k);
}

/* The sample file: "ETMC", revision 1, the major version, then the keys the header repeats. */
static void write_header(const struct tc_fuzz_cyclecap *params, const struct tc_protocol *proto, const void *cfg,
			 uint8_t *h)
{
	const uint8_t head[16] = { 0x45, 0x54, 0x4d, 0x43, 1, params->major, header_key(proto, cfg, "version"),
				   header_key(proto, cfg, "port_width"), header_key(proto, cfg, "port_mode"),
				   header_key(proto, cfg, "half_rate") };
	memcpy(h, head, sizeof head);
}

int tc_fuzz_cyclecap_decode(const struct tc_fuzz_cyclecap *params, const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find(params->protocol);
	struct tc_fuzz_in in = { data, size };
	union {
		max_align_t align;
		uint8_t bytes[CONFIG_MAX];
	} cfg;
	struct tc_fuzz_chunks c;
	struct tc_image img;
	struct run whole, l1, pieces;
	static uint8_t file[16 + MAX_FILE];
	if (!proto || size < (size_t)proto->nkeys + 2)
		return 0;
	TC_FUZZ_CHECK(proto->config_size <= sizeof cfg.bytes, "%s: configuration of %zu bytes", proto->name,
		      proto->config_size);
	tc_fuzz_proto_config(proto, &in, cfg.bytes);
	uint8_t flags = tc_fuzz_u8(&in);
	tc_fuzz_chunks_init(&c, tc_fuzz_u8(&in));
	if (proto->config_check(cfg.bytes, NULL, 0)) {
		struct tc_sink sink = { NULL, tc_level_l1, on_item };
		TC_FUZZ_CHECK(proto->alloc(cfg.bytes, &sink) == NULL, "alloc accepted a refused configuration");
		return 0;
	}
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, flags & 7, &img);
	tc_fuzz_check_image(&img);
	size_t n = in.n < MAX_FILE ? in.n : MAX_FILE;
	write_header(params, proto, cfg.bytes, file);
	memcpy(file + 16, in.p, n);
	decode(params, proto, cfg.bytes, &img, file, 16 + n, tc_level_l1 | tc_level_l3, NULL, &whole);
	decode(params, proto, cfg.bytes, &img, file, 16 + n, tc_level_l1, NULL, &l1);
	TC_FUZZ_CHECK(l1.hash[0] == whole.hash[0] && l1.n[0] == whole.n[0], "L1 alone differs from L1 with L3");
	decode(params, proto, cfg.bytes, &img, file, 16 + n, tc_level_l1 | tc_level_l3, &c, &pieces);
	TC_FUZZ_CHECK(pieces.hash[0] == whole.hash[0] && pieces.hash[1] == whole.hash[1] && pieces.n[0] == whole.n[0] &&
			      pieces.n[1] == whole.n[1],
		      "fed in chunks, the lines differ");
	tc_image_free(&img);
	return 0;
}
