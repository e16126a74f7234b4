/* enc_core.c — the encoder's random numbers, growable buffers and variant counters. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

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

/* ---- Variants: the names of encoder/ete/variants.txt (embedded at build time
 * as enc_ete_variant_names, sorted) -------------------------------------------- */

extern const char *const enc_ete_variant_names[];
extern const int enc_ete_variant_total;

int tc_enc_variant_count(void)
{
	return enc_ete_variant_total;
}

const char *tc_enc_variant_name(int i)
{
	return (i >= 0 && i < enc_ete_variant_total) ? enc_ete_variant_names[i] : NULL;
}

static int find_variant(const char *name)
{
	int lo = 0, hi = enc_ete_variant_total - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(name, enc_ete_variant_names[mid]);
		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/* Counts one use of a variant; a name missing from variants.txt is a bug
 * of the encoder, reported at once. */
void enc_hit(struct enc *e, const char *fmt, ...)
{
	char name[64];
	va_list ap;
	int i;
	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	i = find_variant(name);
	if (i < 0) {
		fprintf(stderr, "tracecert encoder: variant '%s' is not in encoder/ete/variants.txt\n", name);
		abort();
	}
	e->variants[i]++;
}
