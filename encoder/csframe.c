/* SPDX-License-Identifier: BSD-3-Clause */
/* csframe.c — the CoreSight trace formatter writer: interleaves trace streams by trace ID into 16-byte frames (test data for reference/csframe.c and snapshots). */
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder.h"

/* The bytes to place, one per item, in stream order; past the end, null padding. */
struct items {
	uint8_t *id;
	uint8_t *byte;
	size_t n;
	size_t next;
};

struct out {
	uint8_t *p;
	size_t n, cap;
};

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int put(struct out *o, const uint8_t *b, size_t n)
{
	if (o->cap - o->n < n) {
		size_t cap = o->cap ? 2 * o->cap : 4096;
		uint8_t *p;
		while (cap - o->n < n)
			cap *= 2;
		p = realloc(o->p, cap);
		if (!p)
			return -1;
		o->p = p;
		o->cap = cap;
	}
	memcpy(o->p + o->n, b, n);
	o->n += n;
	return 0;
}

static unsigned id_at(const struct items *it, size_t k)
{
	return k < it->n ? it->id[k] : 0;
}

static uint8_t byte_at(const struct items *it, size_t k)
{
	return k < it->n ? it->byte[k] : 0;
}

/* The streams' bytes interleaved in runs of 1..64. */
static int interleave(const struct tc_enc_stream *s, int n, uint64_t *seed, struct items *it)
{
	size_t total = 0, pos[16] = { 0 };
	for (int k = 0; k < n; k++)
		total += s[k].len;
	it->id = malloc(total + 1);
	it->byte = malloc(total + 1);
	if (!it->id || !it->byte)
		return -1;
	while (it->n < total) {
		int k = (int)(rnd(seed) % (uint64_t)n);
		size_t run = 1 + rnd(seed) % 64;
		for (; run && pos[k] < s[k].len; run--) {
			it->id[it->n] = (uint8_t)s[k].id;
			it->byte[it->n++] = s[k].bytes[pos[k]++];
		}
	}
	return 0;
}

/* Fills byte pair (p, p+1), p even < 14; returns the items consumed. */
static size_t pair(uint8_t *f, unsigned p, int *cur, const struct items *it, uint64_t *seed)
{
	size_t a = it->next;
	unsigned ida = id_at(it, a), idb = id_at(it, a + 1);
	if ((int)ida != *cur) {                      /* new ID at once, its first byte next */
		f[p] = (uint8_t)(ida << 1 | 1);
		f[p + 1] = byte_at(it, a);
		*cur = (int)ida;
		return 1;
	}
	if ((int)idb != *cur || rnd(seed) % 8 == 0) {  /* new (or repeated) ID after the next byte */
		f[p] = (uint8_t)(idb << 1 | 1);
		f[15] |= (uint8_t)(1u << (p / 2));
		f[p + 1] = byte_at(it, a);
		*cur = (int)idb;
		return 1;
	}
	f[p] = byte_at(it, a) & 0xfe;                /* two data bytes, bit 0 of the first in byte 15 */
	f[15] |= (uint8_t)((byte_at(it, a) & 1u) << (p / 2));
	f[p + 1] = byte_at(it, a + 1);
	return 2;
}

static void frame(uint8_t *f, int *cur, struct items *it, uint64_t *seed)
{
	unsigned id14;
	memset(f, 0, 16);
	for (unsigned p = 0; p < 14; p += 2)
		it->next += pair(f, p, cur, it, seed);
	id14 = id_at(it, it->next);
	if ((int)id14 != *cur) {                     /* byte 14: an ID for the next frame */
		f[14] = (uint8_t)(id14 << 1 | 1);
		*cur = (int)id14;
	} else {
		f[14] = byte_at(it, it->next) & 0xfe;
		f[15] |= (uint8_t)((byte_at(it, it->next) & 1u) << 7);
		it->next++;
	}
}

uint8_t *tc_enc_csframe(const struct tc_enc_stream *streams, int n, uint64_t seed, int fsync, size_t *len)
{
	static const uint8_t sync[4] = { 0xff, 0xff, 0xff, 0x7f };
	struct items it;
	struct out o = { NULL, 0, 0 };
	int cur = -1, rc = 0;
	memset(&it, 0, sizeof it);
	if (n < 1 || n > 16 || !len)
		return NULL;
	for (int k = 0; k < n; k++)
		if (streams[k].id < 1 || streams[k].id > 0x6f || (!streams[k].bytes && streams[k].len))
			return NULL;
	rc = interleave(streams, n, &seed, &it);
	while (rc == 0 && it.next < it.n) {
		uint8_t f[16];
		if (fsync && (o.n == 0 || rnd(&seed) % 8 == 0))
			rc = put(&o, sync, sizeof sync);
		frame(f, &cur, &it, &seed);
		if (rc == 0)
			rc = put(&o, f, sizeof f);
	}
	free(it.id);
	free(it.byte);
	if (rc) {
		free(o.p);
		return NULL;
	}
	*len = o.n;
	return o.p ? o.p : malloc(1);
}
