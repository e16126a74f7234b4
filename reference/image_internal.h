/* SPDX-License-Identifier: BSD-3-Clause */
/* image_internal.h — what the file loader (image_file.c) uses of the regions (image.c): checking, reserving and inserting a region, keeping the copy or mapping it points into. */
#ifndef TC_IMAGE_INTERNAL_H
#define TC_IMAGE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/image.h"

/* Writes the message (printf's fmt) into err when err and errlen are
 * given; returns status. */
int tc_image_set_err(char *err, size_t errlen, int status, const char *fmt, ...);

/* 0 when [base, base + size) can be added: not empty, not past 2^64, not
 * overlapping a region img holds; else the status, err naming both regions
 * of an overlap (name: the new region's, NULL for unnamed bytes). */
int tc_image_check_region(const struct tc_image *img, uint64_t base, uint64_t size, const char *name, char *err,
			  size_t errlen);

/* Room for extra more regions: 0, or -1 out of memory. */
int tc_image_reserve(struct tc_image *img, int extra);

/* Makes the image own a copy (malloc, mapped 0) or a mapping (mmap, mapped
 * 1) that regions point into; tc_image_free releases it. 0, or -1 out of
 * memory (the caller still owns it). */
int tc_image_keep_block(struct tc_image *img, void *addr, size_t len, int mapped);

/* Releases a copy or a mapping. */
void tc_image_release(void *addr, size_t len, int mapped);

/* Inserts a region checked by tc_image_check_region, room reserved; data
 * points into a block the image keeps; name is copied. 0, or -1 out of
 * memory for the name. */
int tc_image_insert(struct tc_image *img, uint64_t base, uint64_t size, const uint8_t *data, const char *name);

#endif
