/* SPDX-License-Identifier: BSD-3-Clause */
/* seeds.c — what the seed writers (fuzz/seedgen.c, fuzz/P/seedgen.c) share: a growing byte buffer, files, image regions in the harness layout (seeds.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seeds.h"

void tc_seed_put(struct tc_seed_buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("seedgen");
			exit(2);
		}
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

void tc_seed_put8(struct tc_seed_buf *b, uint8_t v)
{
	tc_seed_put(b, &v, 1);
}

void tc_seed_put16(struct tc_seed_buf *b, uint16_t v)
{
	tc_seed_put8(b, (uint8_t)v);
	tc_seed_put8(b, (uint8_t)(v >> 8));
}

int tc_seed_write(const char *dir, const char *name, const struct tc_seed_buf *b)
{
	char path[4096];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(b->p, 1, b->n, f) != b->n) {
		perror(path);
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

/* Raw regions (at most 7, each at most 65535 bytes, at an encodable base). */
int tc_seed_put_regions(struct tc_seed_buf *b, const struct tc_image *img, int n)
{
	int approx = 0;
	for (int i = 0; i < n; i++) {
		const struct tc_image_region *r = &img->region[i];
		size_t len = r->size > 0xffff ? 0xffff : (size_t)r->size;
		uint32_t sel = 0;
		if (len != r->size || tc_fuzz_base_encode(r->base, len, &sel))
			approx = 1;
		tc_seed_put16(b, (uint16_t)sel);
		tc_seed_put16(b, (uint16_t)(sel >> 16));
		tc_seed_put16(b, (uint16_t)len);
		tc_seed_put(b, r->data, len);
	}
	return approx || img->n > n;
}

/* Vectors often split one program into adjacent [image] sections: merge
 * contiguous regions (the image keeps them sorted by base) so that up to 7
 * fit the harness header. */
void tc_seed_merge_regions(const struct tc_image *in, struct tc_image *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < in->n;) {
		const struct tc_image_region *r = &in->region[i];
		uint64_t len = r->size;
		uint8_t *d;
		int j = i + 1;
		while (j < in->n && in->region[j - 1].base + in->region[j - 1].size == in->region[j].base)
			len += in->region[j++].size;
		d = malloc((size_t)len);
		if (!d) {
			perror("seedgen");
			exit(2);
		}
		for (uint64_t at = 0; i < j; at += in->region[i++].size)
			memcpy(d + at, in->region[i].data, (size_t)in->region[i].size);
		tc_image_add(out, r->base, d, (size_t)len);
		free(d);
	}
}

uint8_t tc_seed_name_byte(const char *s)
{
	return (uint8_t)tc_fuzz_hash_bytes((const uint8_t *)s, strlen(s));
}

void tc_seed_file_name(const char *vector_path, char *name, size_t size)
{
	snprintf(name, size, "%s", vector_path);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '_';
	snprintf(name + strlen(name) - (strlen(name) > 4 ? 4 : 0), 5, ".bin");
}
