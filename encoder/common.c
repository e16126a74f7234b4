/* SPDX-License-Identifier: BSD-3-Clause */
/* common.c — what every protocol's random encoder shares: random numbers, growable buffers, variant lists (enc_common.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_common.h"

void enc_rng_init(struct enc_rng *r, uint64_t seed, const uint8_t *entropy, size_t len)
{
	r->s = seed;
	r->entropy = entropy;
	r->left = entropy ? len : 0;
}

/* The next byte of the caller's entropy, 0 when there is none left (a
 * draw then is exactly the seed's). */
static uint64_t entropy_byte(struct enc_rng *r)
{
	if (r->left == 0)
		return 0;
	r->left--;
	return *r->entropy++;
}

/* splitmix64; an entropy byte is XORed into this draw's input to the mix
 * (a bijection: the 256 byte values give 256 distinct draws), not into
 * the state, so the draws after it are the seed's own. */
uint64_t enc_next(struct enc_rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15)) ^ entropy_byte(r);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

unsigned enc_below(struct enc_rng *r, unsigned n)
{
	return n ? (unsigned)(enc_next(r) % n) : 0;
}

int enc_chance(struct enc_rng *r, unsigned percent)
{
	return enc_below(r, 100) < percent;
}

static void grow(struct enc_buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 1024;
	char *p;
	while (cap < need)
		cap *= 2;
	if (cap == b->cap)
		return;
	p = realloc(b->p, cap);
	if (!p) {
		fprintf(stderr, "tracecert encoder: out of memory\n");
		abort();
	}
	b->p = p;
	b->cap = cap;
}

void enc_buf_put(struct enc_buf *b, const void *data, size_t n)
{
	grow(b, b->len + n + 1);
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = '\0';
}

char *enc_buf_take(struct enc_buf *b)
{
	char *p = b->p ? b->p : calloc(1, 1);
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

void enc_buf_printf(struct enc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	grow(b, b->len + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* ---- Variant lists: the sorted names of a protocol's variants.txt --------- */

int enc_variant_find(const char *const *names, int n, const char *name)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(name, names[mid]);
		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

void enc_variant_hit(const char *const *names, int n, uint32_t *counts, const char *list, const char *fmt,
		     va_list ap)
{
	char name[64];
	int i;
	vsnprintf(name, sizeof name, fmt, ap);
	i = enc_variant_find(names, n, name);
	if (i < 0) {
		fprintf(stderr, "tracecert encoder: variant '%s' is not in %s\n", name, list);
		abort();
	}
	counts[i]++;
}

int enc_asm_unaligned(uint64_t address, int shift, const char *what, const char *state, char *err, size_t errlen)
{
	if (!(address & ((UINT64_C(1) << shift) - 1)))
		return 0;
	snprintf(err, errlen, "addr=0x%llx: %s address in %s state has %s clear", (unsigned long long)address, what, state,
		 shift == 2 ? "bits 1:0" : "bit 0");
	return -1;
}

int enc_asm_altisa_missing(const char *isa, const char *last, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "isa=%s after %s: %s has no AltISA bit to switch between Thumb and ThumbEE", isa, last, what);
	return -1;
}

long enc_asm_packet_out(const struct enc_buf *b, unsigned header, size_t len, uint8_t *out, size_t cap, char *err,
			size_t errlen)
{
	size_t n = b->len;
	if (n && (uint8_t)b->p[0] != header) {
		snprintf(err, errlen, "the packet's header is %02x, not %02x", (unsigned)(uint8_t)b->p[0], header);
		return -1;
	}
	if (len && n != len)
		return -2;
	if (n > cap) {
		snprintf(err, errlen, "a packet of %zu bytes, more than %zu", n, cap);
		return -1;
	}
	memcpy(out, b->p, n);
	return (long)n;
}
