/* SPDX-License-Identifier: BSD-3-Clause */
/* image.c — program images as a decoder holds them: any number of sorted regions, each a copy or a read-only file mapping, binary-searched by address.
 *
 * What a decoder under certification uses: the adapter (conformance/adapters/reference.c)
 * adds the regions certify hands it, looks addresses up and frees them. Loading files
 * (raw binaries, mappings, ELF segments) is image_file.c's, on the runner's and the
 * tools' side.
 *
 * Why mappings: a real capture has a hundred or more memory dumps whose
 * total size can exceed memory; a region that maps its file read-only costs
 * the pages decoding touches, not the file's size. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* munmap, strdup: also built with plain -std=c11 (tools/bench-floor.sh) */
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "image_internal.h"

/* A copy (malloc) or a mapping (mmap) that regions point into. */
struct tc_image_block {
	void *addr;
	size_t len;
	int mapped;
};

const char *tc_image_strerror(int status)
{
	switch (status) {
	case tc_image_ok: return "ok";
	case tc_image_err_invalid: return "invalid argument";
	case tc_image_err_empty: return "zero-size region";
	case tc_image_err_overlap: return "region overlaps another region";
	case tc_image_err_wrap: return "region extends beyond the 64-bit address space";
	case tc_image_err_full: return "too many regions";
	case tc_image_err_nomem: return "out of memory";
	case tc_image_err_io: return "cannot read file";
	case tc_image_err_elf: return "malformed ELF file";
	case tc_image_err_not_elf: return "not an ELF file";
	default: return "unknown error";
	}
}

/* A message into err, when given (image_internal.h). */
int tc_image_set_err(char *err, size_t errlen, int status, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return status;
}

/* ---- Regions ------------------------------------------------------------------ */

/* Room for `extra` more regions. */
int tc_image_reserve(struct tc_image *img, int extra)
{
	struct tc_image_region *r;
	int cap;
	if (extra <= img->cap - img->n)
		return 0;
	if (extra > (1 << 28) - img->n)
		return -1;
	cap = img->cap ? img->cap : 16;
	while (cap - img->n < extra)
		cap *= 2;
	r = realloc(img->region, (size_t)cap * sizeof *r);
	if (!r)
		return -1;
	img->region = r;
	img->cap = cap;
	return 0;
}

/* Keeps a copy or mapping; returns 0 or -1 (the caller then releases it). */
int tc_image_keep_block(struct tc_image *img, void *addr, size_t len, int mapped)
{
	if (img->nblocks == img->capblocks) {
		int cap = img->capblocks ? 2 * img->capblocks : 16;
		struct tc_image_block *b = cap > (1 << 28) ? NULL : realloc(img->block, (size_t)cap * sizeof *b);
		if (!b)
			return -1;
		img->block = b;
		img->capblocks = cap;
	}
	img->block[img->nblocks++] = (struct tc_image_block){ addr, len, mapped };
	return 0;
}

void tc_image_release(void *addr, size_t len, int mapped)
{
	if (mapped)
		munmap(addr, len);
	else
		free(addr);
}

/* Index of the first region whose base is above address. */
static int upper_bound(const struct tc_image *img, uint64_t address)
{
	int lo = 0, hi = img->n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (img->region[mid].base <= address)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The region overlapping [base, last], or NULL. Compares last addresses, so
 * a region ending at 2^64 does not wrap (found by fuzz/decode:
 * fuzz/corpus/decode/image-overlap-region-ending-at-2e64.bin). */
static const struct tc_image_region *overlapping(const struct tc_image *img, uint64_t base, uint64_t last)
{
	int i = upper_bound(img, last);
	if (i > 0) {
		const struct tc_image_region *r = &img->region[i - 1];
		if (base <= r->base + (r->size - 1))
			return r;
	}
	return NULL;
}

static const char *name_of(const char *name)
{
	return name ? name : "bytes";
}

/* Checks a new region; 0, or a status with err naming both regions of an overlap. */
int tc_image_check_region(const struct tc_image *img, uint64_t base, uint64_t size, const char *name, char *err,
			  size_t errlen)
{
	const struct tc_image_region *o;
	if (size == 0)
		return tc_image_set_err(err, errlen, tc_image_err_empty, "%s: zero-size region at 0x%llx", name_of(name),
					(unsigned long long)base);
	if (base + (size - 1) < base)
		return tc_image_set_err(err, errlen, tc_image_err_wrap, "%s [0x%llx, %llu bytes] extends beyond the 64-bit address space",
					name_of(name), (unsigned long long)base, (unsigned long long)size);
	o = overlapping(img, base, base + (size - 1));
	if (o)
		return tc_image_set_err(err, errlen, tc_image_err_overlap, "%s [0x%llx..0x%llx] overlaps %s [0x%llx..0x%llx]",
					name_of(name), (unsigned long long)base, (unsigned long long)(base + (size - 1)),
					name_of(o->name), (unsigned long long)o->base, (unsigned long long)(o->base + (o->size - 1)));
	return 0;
}

/* Inserts a checked region (room reserved). Returns 0 or -1 (no memory for the name). */
int tc_image_insert(struct tc_image *img, uint64_t base, uint64_t size, const uint8_t *data, const char *name)
{
	int i = upper_bound(img, base);
	char *copy = name ? strdup(name) : NULL;
	if (name && !copy)
		return -1;
	memmove(&img->region[i + 1], &img->region[i], (size_t)(img->n - i) * sizeof img->region[0]);
	img->region[i] = (struct tc_image_region){ base, size, data, copy };
	img->n++;
	return 0;
}

int tc_image_add_named(struct tc_image *img, uint64_t base, const uint8_t *bytes, size_t len, const char *name,
		       char *err, size_t errlen)
{
	uint8_t *copy;
	int rc;
	if (!img || (!bytes && len))
		return tc_image_set_err(err, errlen, tc_image_err_invalid, "invalid argument");
	rc = tc_image_check_region(img, base, len, name, err, errlen);
	if (rc)
		return rc;
	copy = malloc(len);
	if (!copy || tc_image_reserve(img, 1) || tc_image_keep_block(img, copy, len, 0)) {
		free(copy);
		return tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	}
	memcpy(copy, bytes, len);
	if (tc_image_insert(img, base, len, copy, name))
		return tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	return tc_image_ok;
}

int tc_image_add(struct tc_image *img, uint64_t base, const uint8_t *bytes, size_t len)
{
	return tc_image_add_named(img, base, bytes, len, NULL, NULL, 0);
}

const uint8_t *tc_image_lookup(const struct tc_image *img, uint64_t address, size_t *avail)
{
	const struct tc_image_region *r;
	int i;
	if (!img || img->n == 0)
		return NULL;
	i = upper_bound(img, address);
	if (i == 0)
		return NULL;
	r = &img->region[i - 1];
	if (address - r->base >= r->size)
		return NULL;
	if (avail)
		*avail = (size_t)(r->size - (address - r->base));
	return r->data + (address - r->base);
}

void tc_image_free(struct tc_image *img)
{
	if (!img)
		return;
	for (int i = 0; i < img->n; i++)
		free((char *)img->region[i].name);
	for (int i = 0; i < img->nblocks; i++)
		tc_image_release(img->block[i].addr, img->block[i].len, img->block[i].mapped);
	free(img->region);
	free(img->block);
	memset(img, 0, sizeof *img);
}
