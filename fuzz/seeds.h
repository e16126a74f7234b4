/* SPDX-License-Identifier: BSD-3-Clause */
/* seeds.h — what the seed writers share (fuzz/seeds.c): a growing byte buffer, seed files, image regions in the layout of fuzz.h. */
#ifndef TC_FUZZ_SEEDS_H
#define TC_FUZZ_SEEDS_H

#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"

/* A seed being written; exits the program (status 2) when memory is short. */
struct tc_seed_buf {
	uint8_t *p;
	size_t n, cap;
};

void tc_seed_put(struct tc_seed_buf *b, const void *p, size_t n);
void tc_seed_put8(struct tc_seed_buf *b, uint8_t v);
void tc_seed_put16(struct tc_seed_buf *b, uint16_t v);   /* little endian */

/* Writes dir/name; 0, or -1 after a message. */
int tc_seed_write(const char *dir, const char *name, const struct tc_seed_buf *b);

/* The first n regions of img in the layout of tc_fuzz_read_regions (each
 * at most 65535 bytes, at an encodable base); 1 when something was
 * approximated or left out, else 0. */
int tc_seed_put_regions(struct tc_seed_buf *b, const struct tc_image *img, int n);

/* Vectors often split one program into adjacent [image] sections: out gets
 * the regions of in with contiguous ones merged, so that up to 7 fit a
 * harness's header. */
void tc_seed_merge_regions(const struct tc_image *in, struct tc_image *out);

/* A byte derived from a name (a vector's path): a chunking seed that
 * differs from one vector to the next and stays the same run after run. */
uint8_t tc_seed_name_byte(const char *s);

/* The seed file's name for a vector: its path with '/' as '_', ".tcv" as ".bin". */
void tc_seed_file_name(const char *vector_path, char *name, size_t size);

#endif
