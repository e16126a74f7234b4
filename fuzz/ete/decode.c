/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: ETE stages 1–3 (instruction level) with a program image taken from the input, and the ELF reader.
 *
 * Property: for every configuration, program image and trace, decoding to
 * L3 gives no crash, hang, leak or undefined behaviour, and
 *   1. image: tc_image_add and tc_image_load_elf_mem keep their contract
 *      (on error nothing is added; regions non-empty, non-overlapping, not
 *      wrapping, found by tc_image_lookup; an ELF segment is at most the
 *      file's size);
 *   2. every L3 range is n ≥ 1 instructions whose first and last addresses
 *      are in the image, contiguous: last − first = 4(n−1) for A64/A32 and
 *      between 2(n−1) and 4(n−1) for T32 (mod 2^64); enumerated fields in
 *      range; offsets non-decreasing and at most the trace length;
 *   3. bounded output: at most (L2 + 1)·(image bytes / 2 + 4) L3 items (a
 *      walk outputs at most one range per instruction plus a fixed few items
 *      per element);
 *   4. streaming (flag bit 7): L3 is the same fed whole and in chunks.
 *
 * Input: bytes 0–2 the configuration (fuzz_ete.h tc_fuzz_ete_config); byte 3 flags:
 * bits 2:0 number of raw regions (0–7), bit 3 an ELF file follows them,
 * bit 4 no image at all (tc_ete_set_image(NULL)), bit 7 streaming check;
 * byte 4 walk_limit (0: automatic); byte 5 chunking (tc_fuzz_chunks_init);
 * then the raw regions (fuzz.h tc_fuzz_read_regions), then, with bit 2, an
 * ELF file (u16 length, bytes) loaded with tc_image_load_elf_mem into the
 * same image; the rest is the trace.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz_ete.h"
#include "insn.h"   /* tc_isa_name, tc_insn_type_name: the enumerations L3 uses */

#define HDR (TC_FUZZ_ETE_CFG_BYTES + 3)

struct run {
	const struct tc_image *image;
	size_t len;
	uint64_t l2;
	struct tc_fuzz_hash l3;
	uint64_t last_off;
	int verbose;
};

static void on_l2(void *ctx, const struct tc_ete_elem *e)
{
	struct run *r = ctx;
	(void)e;
	r->l2++;
}

static void check_range(const struct run *r, const struct tc_l3 *x)
{
	uint64_t span = x->last - x->first, n = x->count;
	TC_FUZZ_CHECK(n >= 1, "range @%llu with n=0", (unsigned long long)x->h.offset);
	TC_FUZZ_CHECK(strcmp(tc_isa_name(x->isa), "?") && strcmp(tc_insn_type_name(x->last_type), "?") && x->taken <= 3,
		      "range @%llu: isa %u type %u taken %u", (unsigned long long)x->h.offset, x->isa, x->last_type,
		      x->taken);
	if (x->isa != tc_isa_t32)
		TC_FUZZ_CHECK(span == 4 * (n - 1), "range @%llu first=0x%llx last=0x%llx n=%llu (4-byte ISA)",
			      (unsigned long long)x->h.offset, (unsigned long long)x->first,
			      (unsigned long long)x->last, (unsigned long long)n);
	else
		TC_FUZZ_CHECK(span >= 2 * (n - 1) && span <= 4 * (n - 1),
			      "range @%llu first=0x%llx last=0x%llx n=%llu (T32)", (unsigned long long)x->h.offset,
			      (unsigned long long)x->first, (unsigned long long)x->last, (unsigned long long)n);
	TC_FUZZ_CHECK(tc_image_lookup(r->image, x->first, NULL) && tc_image_lookup(r->image, x->last, NULL),
		      "range @%llu first=0x%llx last=0x%llx outside the image", (unsigned long long)x->h.offset,
		      (unsigned long long)x->first, (unsigned long long)x->last);
}

/* Every field of an L3 item into the run's hash, a word at a time. Not
 * its text: formatting each item was ~40% of this harness's time (4debf21), and the
 * format harness checks for any struct that the line fits TC_FUZZ_LINE.
 * Fields the text omits for a kind are compared too (stricter). */
static void hash_l3(struct tc_fuzz_hash *h, const struct tc_l3 *x)
{
	const uint64_t w[] = {
		x->h.offset, x->first, x->last, x->count, x->address, x->value,
		(uint64_t)x->ctx.context_id << 32 | x->ctx.vmid,
		(uint64_t)x->ctx.el | (uint64_t)x->ctx.ns << 8 | (uint64_t)x->ctx.sf << 16 | (uint64_t)x->ctx.nse << 24 |
			(uint64_t)x->h.kind << 32 | (uint64_t)x->isa << 40 | (uint64_t)x->last_type << 48 |
			(uint64_t)x->taken << 56,
		(uint64_t)x->type | (uint64_t)x->unknown << 8 | (uint64_t)x->error << 16,
	};
	uint64_t v = h->h ? h->h : UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
		v ^= w[i];
		v *= UINT64_C(0x100000001b3);
		v ^= v >> 29;
	}
	h->h = v;
	h->n++;
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct run *r = ctx;
	TC_FUZZ_CHECK(x->h.kind < tc_l3_kind_count, "L3 kind %u", x->h.kind);
	TC_FUZZ_CHECK(x->h.offset <= r->len && x->h.offset >= r->last_off, "L3 offset %llu after %llu, trace length %zu",
		      (unsigned long long)x->h.offset, (unsigned long long)r->last_off, r->len);
	TC_FUZZ_CHECK((x->h.kind == tc_l3_error) == (x->error != tc_ete_err_none && x->error < tc_ete_err_count),
		      "L3 @%llu kind %u error %u", (unsigned long long)x->h.offset, x->h.kind, x->error);
	if (x->h.kind == tc_l3_range)
		check_range(r, x);
	if (x->h.kind == tc_l3_no_image || x->h.kind == tc_l3_walk_limit)
		TC_FUZZ_CHECK(strcmp(tc_isa_name(x->isa), "?"), "no-image isa %u", x->isa);
	r->last_off = x->h.offset;
	hash_l3(&r->l3, x);
	if (r->verbose) {
		char buf[TC_FUZZ_LINE];
		tc_ete_format_l3(buf, sizeof buf, x);
		fprintf(stderr, "  L3 %s\n", buf);
	}
}

static void decode(const struct tc_ete_config *cfg, const struct tc_image *image, int set_null, const uint8_t *trace,
		   struct run *r, int seed)
{
	struct tc_ete_sink sink = { r, NULL, NULL, on_l2, on_l3 };
	struct tc_ete_decoder *d = tc_ete_alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "tc_ete_alloc failed");
	TC_FUZZ_CHECK(tc_ete_set_image(d, set_null ? NULL : image) == tc_ete_ok, "set_image");
	if (seed < 0) {
		tc_ete_feed(d, trace, r->len);
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, (uint8_t)seed);
		while (i < r->len) {
			size_t n = tc_fuzz_chunk_next(&c, r->len - i);
			tc_ete_feed(d, trace + i, n);
			i += n;
		}
	}
	TC_FUZZ_CHECK(tc_ete_finish(d) == tc_ete_ok, "finish");
	tc_ete_free(d);
}

/* The ELF part: loads into img; checks the reader's contract. */
static void load_elf(struct tc_fuzz_in *in, struct tc_image *img)
{
	uint16_t want = tc_fuzz_u16(in);
	size_t len;
	const uint8_t *f = tc_fuzz_bytes(in, want, &len);
	char err[256];
	int before = img->n, rc;
	err[0] = '\0';
	rc = tc_image_load_elf_mem(img, f, len, err, sizeof err);
	if (rc) {
		TC_FUZZ_CHECK(img->n == before, "ELF load failed (%d) but the image went from %d to %d regions", rc,
			      before, img->n);
		TC_FUZZ_CHECK(err[0] != '\0' && strlen(err) < sizeof err, "ELF load failed (%d) without a message", rc);
		TC_FUZZ_CHECK(rc == tc_image_err_elf || rc == tc_image_err_not_elf || rc == tc_image_err_overlap || rc == tc_image_err_wrap ||
				      rc == tc_image_err_full || rc == tc_image_err_invalid,
			      "ELF load: unexpected status %d (%s)", rc, err);
		return;
	}
	TC_FUZZ_CHECK(img->n > before, "ELF load succeeded without adding a region");
	for (int i = 0; i < img->n; i++)   /* raw regions hold at most 0xffff bytes; ELF segments lie in the file */
		TC_FUZZ_CHECK(img->region[i].size <= (len > 0xffff ? len : 0xffff), "a region of %llu bytes from a %zu-byte ELF file",
			      (unsigned long long)img->region[i].size, len);
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
	struct tc_image img;
	struct tc_fuzz_in in;
	struct run whole, chunked;
	uint8_t flags, seed;
	size_t image_bytes;
	uint64_t bound;
	if (size < HDR)
		return 0;
	tc_fuzz_ete_config(data, &cfg);
	flags = data[TC_FUZZ_ETE_CFG_BYTES];
	cfg.walk_limit = data[TC_FUZZ_ETE_CFG_BYTES + 1];
	seed = data[TC_FUZZ_ETE_CFG_BYTES + 2];
	in.p = data + HDR;
	in.n = size - HDR;
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, flags & 7, &img);
	if (flags & 8)
		load_elf(&in, &img);
	tc_fuzz_check_image(&img);
	image_bytes = 0;
	for (int i = 0; i < img.n; i++)
		image_bytes += img.region[i].size;

	tc_fuzz_ete_fit_caps(&cfg, in.n);
	memset(&whole, 0, sizeof whole);
	whole.image = &img;
	whole.len = in.n;
	chunked = whole;
	decode(&cfg, &img, flags & 0x10, in.p, &whole, -1);
	bound = (whole.l2 + 1) * (image_bytes / 2 + 4);
	TC_FUZZ_CHECK(whole.l3.n <= bound, "%llu L3 items from %llu L2 elements and %zu image bytes",
		      (unsigned long long)whole.l3.n, (unsigned long long)whole.l2, image_bytes);
	if (flags & 0x80) {
		decode(&cfg, &img, flags & 0x10, in.p, &chunked, seed);
		if (whole.l3.h != chunked.l3.h || whole.l3.n != chunked.l3.n || whole.l2 != chunked.l2) {
			struct run a = whole, b = chunked;
			fprintf(stderr, "whole:\n");
			a.verbose = 1;
			a.last_off = 0;
			decode(&cfg, &img, flags & 0x10, in.p, &a, -1);
			fprintf(stderr, "chunked, chunk byte 0x%02x:\n", seed);
			b.verbose = 1;
			b.last_off = 0;
			decode(&cfg, &img, flags & 0x10, in.p, &b, seed);
			TC_FUZZ_CHECK(0, "streaming: L3 differs whole/chunked (%llu/%llu lines, L2 %llu/%llu)",
				      (unsigned long long)whole.l3.n, (unsigned long long)chunked.l3.n,
				      (unsigned long long)whole.l2, (unsigned long long)chunked.l2);
		}
	}
	tc_image_free(&img);
	return 0;
}
