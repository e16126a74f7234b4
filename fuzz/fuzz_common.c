/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_common.c — helpers shared by the fuzz harnesses (fuzz.h): checks, input layout, hashing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

int tc_fuzz_regress_mode;

const char *tc_fuzz_beside_exe(const char *name, char *buf, size_t size)
{
	ssize_t n = size > 1 ? readlink("/proc/self/exe", buf, size - 1) : -1;
	char *slash;
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash || (size_t)(slash + 1 - buf) + strlen(name) + 1 > size)
		return NULL;
	strcpy(slash + 1, name);
	return buf;
}

void tc_fuzz_fail(const char *file, int line, const char *expr, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s:%d: check failed: %s: ", file, line, expr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
	abort();
}

/* ---- reader ---------------------------------------------------------------- */

uint8_t tc_fuzz_u8(struct tc_fuzz_in *in)
{
	uint8_t v = 0;
	if (in->n > 0) {
		v = in->p[0];
		in->p++;
		in->n--;
	}
	return v;
}

uint16_t tc_fuzz_u16(struct tc_fuzz_in *in)
{
	uint16_t lo = tc_fuzz_u8(in);
	return (uint16_t)(lo | (uint16_t)tc_fuzz_u8(in) << 8);
}

uint32_t tc_fuzz_u32(struct tc_fuzz_in *in)
{
	uint32_t lo = tc_fuzz_u16(in);
	return lo | (uint32_t)tc_fuzz_u16(in) << 16;
}

const uint8_t *tc_fuzz_bytes(struct tc_fuzz_in *in, size_t want, size_t *got)
{
	const uint8_t *p = in->p;
	size_t n = want < in->n ? want : in->n;
	in->p += n;
	in->n -= n;
	*got = n;
	return p;
}

/* ---- a protocol's configuration ------------------------------------------------- */

/* Boundary value i (0..31) of a key whose largest value is max. */
static uint64_t boundary_value(unsigned i, uint64_t max)
{
	uint64_t v;
	if (i == 31)
		return max;
	if (i == 30)
		return max - 1;
	v = (UINT64_C(1) << (8 + i / 2)) - (i & 1);
	return v < max ? v : max;
}

static uint64_t key_value(uint8_t b, uint64_t max)
{
	if (max < 255)
		return b % (max + 1);
	return b < 0xe0 ? b : boundary_value(b & 0x1fu, max);
}

void tc_fuzz_proto_config(const struct tc_protocol *proto, struct tc_fuzz_in *in, void *cfg)
{
	tc_config_default(proto, cfg);
	for (int k = 0; k < proto->nkeys; k++)
		tc_config_set(proto, cfg, k, key_value(tc_fuzz_u8(in), proto->keys[k].max));
}

/* The byte that gives v for a key of largest value max, or -1. */
static int key_byte(uint64_t v, uint64_t max)
{
	if (max < 255)
		return v <= max ? (int)v : -1;
	if (v < 0xe0)
		return (int)v;
	for (unsigned i = 0; i < 32; i++)
		if (boundary_value(i, max) == v)
			return (int)(0xe0 + i);
	return -1;
}

int tc_fuzz_proto_config_encode(const struct tc_protocol *proto, const void *cfg, uint8_t *out)
{
	int exact = 1;
	for (int k = 0; k < proto->nkeys; k++) {
		int b = key_byte(tc_config_get(proto, cfg, k), proto->keys[k].max);
		exact &= b >= 0;
		out[k] = (uint8_t)(b >= 0 ? b : 0xff);   /* 0xff: the boundary value max */
	}
	return exact ? 0 : -1;
}

/* ---- images ------------------------------------------------------------------- */

uint64_t tc_fuzz_base(uint32_t sel, size_t len)
{
	uint64_t v = sel & 0x3fffffff, w = sel & 0x1fffffff;
	int hi = (sel >> 29) & 1;
	switch (sel >> 30) {
	case 0: return v;
	case 1: return v << 20;
	case 2: return (hi ? UINT64_C(0xffff800000000000) : UINT64_C(0xffff000000000000)) + (w << 12);
	default:
		if (!hi && (w & 0x10000000))   /* past the top: the region wraps (tc_image_err_wrap) */
			return (uint64_t)0 - (uint64_t)len + (w & 0x0fffffff);
		return (hi ? UINT64_C(0x100000000) : 0) - (uint64_t)len - w;
	}
}

int tc_fuzz_base_encode(uint64_t base, size_t len, uint32_t *sel)
{
	uint64_t top = (uint64_t)0 - (uint64_t)len - base;
	uint64_t top32 = UINT64_C(0x100000000) - (uint64_t)len - base;
	if (base < 0x40000000)
		*sel = (uint32_t)base;
	else if ((base & 0xfffff) == 0 && (base >> 20) < 0x40000000)
		*sel = (uint32_t)(0x40000000 | base >> 20);
	else if (base >= UINT64_C(0xffff800000000000) && (base & 0xfff) == 0 &&
		 ((base - UINT64_C(0xffff800000000000)) >> 12) < 0x20000000)
		*sel = (uint32_t)(0xa0000000 | (base - UINT64_C(0xffff800000000000)) >> 12);
	else if (base >= UINT64_C(0xffff000000000000) && (base & 0xfff) == 0 &&
		 ((base - UINT64_C(0xffff000000000000)) >> 12) < 0x20000000)
		*sel = (uint32_t)(0x80000000 | (base - UINT64_C(0xffff000000000000)) >> 12);
	else if (top < 0x10000000)
		*sel = (uint32_t)(0xc0000000 | top);
	else if (base < UINT64_C(0x100000000) && top32 < 0x20000000)
		*sel = (uint32_t)(0xe0000000 | top32);
	else
		return -1;
	return 0;
}

size_t tc_fuzz_read_regions(struct tc_fuzz_in *in, int nregions, struct tc_image *img)
{
	size_t total = 0;
	for (int i = 0; i < nregions; i++) {
		uint32_t sel = tc_fuzz_u32(in);
		uint16_t want = tc_fuzz_u16(in);
		size_t len;
		const uint8_t *bytes = tc_fuzz_bytes(in, want, &len);
		uint64_t base = tc_fuzz_base(sel, len);
		int before = img->n;
		int rc = tc_image_add(img, base, bytes, len);
		TC_FUZZ_CHECK(rc == 0 ? img->n == before + 1 : img->n == before,
			      "tc_image_add returned %d and changed n from %d to %d", rc, before, img->n);
		TC_FUZZ_CHECK(rc == 0 || rc == tc_image_err_empty || rc == tc_image_err_overlap ||
				      rc == tc_image_err_wrap || rc == tc_image_err_full,
			      "tc_image_add: unexpected status %d", rc);
		TC_FUZZ_CHECK((rc == tc_image_err_empty) == (len == 0), "tc_image_add: len %zu gave %d", len, rc);
		total += len;
	}
	return total;
}

void tc_fuzz_check_image(const struct tc_image *img)
{
	TC_FUZZ_CHECK(img->n >= 0 && img->n <= img->cap, "image has %d regions (room for %d)", img->n, img->cap);
	for (int i = 0; i < img->n; i++) {
		const struct tc_image_region *r = &img->region[i];
		const uint8_t *p;
		size_t avail = 0;
		TC_FUZZ_CHECK(r->size > 0 && r->data, "region %d is empty", i);
		TC_FUZZ_CHECK(r->base + (r->size - 1) >= r->base, "region %d wraps", i);
		if (i > 0) {   /* sorted by base and disjoint: each starts after the previous one ends */
			const struct tc_image_region *o = &img->region[i - 1];
			TC_FUZZ_CHECK(o->base + (o->size - 1) < r->base, "regions %d and %d overlap or are out of order", i - 1, i);
		}
		p = tc_image_lookup(img, r->base, &avail);
		TC_FUZZ_CHECK(p == r->data && avail == r->size, "lookup of region %d's base", i);
		p = tc_image_lookup(img, r->base + (r->size - 1), &avail);
		TC_FUZZ_CHECK(p == r->data + (r->size - 1) && avail == 1, "lookup of region %d's last byte", i);
	}
}

/* ---- chunking ------------------------------------------------------------------ */

void tc_fuzz_chunks_init(struct tc_fuzz_chunks *c, uint8_t seed)
{
	static const uint32_t max[8] = { 1, 2, 3, 5, 8, 16, 40, 256 };
	c->max = max[seed & 7];
	c->state = (uint32_t)(seed >> 3) * 2654435761u + 1;
}

size_t tc_fuzz_chunk_next(struct tc_fuzz_chunks *c, size_t remaining)
{
	size_t n;
	c->state = c->state * 1103515245u + 12345u;
	n = 1 + (c->state >> 16) % c->max;
	return n < remaining ? n : remaining;
}

/* ---- hashing (FNV-1a, 64 bits) ---------------------------------------------------- */

uint64_t tc_fuzz_hash_bytes(const uint8_t *p, size_t n)
{
	uint64_t x = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < n; i++) {
		x ^= p[i];
		x *= UINT64_C(0x100000001b3);
	}
	return x;
}
