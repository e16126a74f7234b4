/* SPDX-License-Identifier: BSD-3-Clause */
/* csframe.c — fuzz harness: the CoreSight formatter deformatter (reference/csframe.c) on arbitrary bytes.
 *
 * Why: a snapshot's formatted buffer is untrusted input; every byte goes
 * through the deformatter before the decoder sees any.
 *
 * Property: any byte string is deformatted without crash, hang, leak or
 * undefined behaviour, and
 *   1. streaming: fed whole and fed in chunks (sizes from the input) it
 *      gives the same bytes for every ID, in the same order, and the same
 *      errors at the same offsets;
 *   2. accounting: 16 bytes per frame plus 4 per frame sync plus the bytes
 *      of an unfinished frame make the input; data bytes delivered plus
 *      bytes dropped are 7..15 per frame (the odd bytes are always data,
 *      the even ones data or IDs); every data call carries 1..15 bytes
 *      of an ID 0x01..0x7C; the seen-ID bits are exactly the IDs delivered;
 *   3. errors lie inside the buffer; at most one per ID byte plus one for
 *      an unfinished frame.
 *
 * Input: byte 0 the chunking (tc_fuzz_chunks_init), then the buffer.
 */
#include <string.h>

#include "fuzz.h"
#include "tracecert/csframe.h"

struct run {
	struct tc_fuzz_hash per_id[128];
	struct tc_fuzz_hash errors;
	uint64_t delivered;
	uint8_t ids[16];
	size_t len;
};

static void on_data(void *ctx, unsigned id, const uint8_t *bytes, size_t len)
{
	struct run *r = ctx;
	TC_FUZZ_CHECK(id >= 1 && id <= 0x7c, "data for ID 0x%x", id);
	TC_FUZZ_CHECK(len >= 1 && len <= 15, "a data call of %zu bytes", len);
	for (size_t i = 0; i < len; i++)
		r->per_id[id].h = r->per_id[id].h * 1099511628211ull ^ bytes[i];
	r->per_id[id].n += len;
	r->delivered += len;
	r->ids[id >> 3] |= (uint8_t)(1u << (id & 7));
}

static void on_error(void *ctx, uint64_t offset, const char *msg)
{
	struct run *r = ctx;
	TC_FUZZ_CHECK(offset < r->len, "an error at %llu in a %zu-byte buffer", (unsigned long long)offset, r->len);
	TC_FUZZ_CHECK(msg && msg[0] && strlen(msg) < 200, "an error without a short message");
	r->errors.h = r->errors.h * 1099511628211ull ^ offset ^ tc_fuzz_hash_bytes((const uint8_t *)msg, strlen(msg));
	r->errors.n++;
}

static struct tc_csframe deformat(const uint8_t *p, size_t len, int chunked, uint8_t seed, struct run *r)
{
	struct tc_csframe_sink sink = { r, on_data, on_error };
	struct tc_csframe d;
	struct tc_fuzz_chunks c;
	memset(r, 0, sizeof *r);
	r->len = len;
	tc_csframe_init(&d, &sink);
	tc_fuzz_chunks_init(&c, seed);
	for (size_t i = 0; i < len;) {
		size_t n = chunked ? tc_fuzz_chunk_next(&c, len - i) : len - i;
		tc_csframe_feed(&d, p + i, n);
		i += n;
	}
	tc_csframe_finish(&d);
	return d;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run whole, chunked;
	struct tc_csframe a, b;
	if (size < 1)
		return 0;
	a = deformat(data + 1, size - 1, 0, data[0], &whole);
	b = deformat(data + 1, size - 1, 1, data[0], &chunked);
	TC_FUZZ_CHECK(!memcmp(whole.per_id, chunked.per_id, sizeof whole.per_id), "chunking changed the bytes of an ID");
	TC_FUZZ_CHECK(whole.errors.h == chunked.errors.h && whole.errors.n == chunked.errors.n, "chunking changed the errors");
	TC_FUZZ_CHECK(a.frames == b.frames && a.syncs == b.syncs && a.dropped == b.dropped, "chunking changed the counts");
	TC_FUZZ_CHECK(a.frames * 16 + a.syncs * 4 + a.have == size - 1, "%llu frames, %llu syncs and %u bytes held for %zu bytes",
		      (unsigned long long)a.frames, (unsigned long long)a.syncs, a.have, size - 1);
	TC_FUZZ_CHECK(whole.delivered + a.dropped <= a.frames * 15 && whole.delivered + a.dropped >= a.frames * 7,
		      "%llu delivered + %llu dropped for %llu frames",
		      (unsigned long long)whole.delivered, (unsigned long long)a.dropped, (unsigned long long)a.frames);
	TC_FUZZ_CHECK(!memcmp(a.seen, whole.ids, sizeof a.seen), "the seen-ID bits differ from the IDs delivered");
	TC_FUZZ_CHECK(a.errors == whole.errors.n && a.errors <= a.frames * 8 + 1, "%llu errors", (unsigned long long)a.errors);
	return 0;
}
