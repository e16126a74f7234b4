/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/image.h — program images for instruction-level decode: any number of regions (copies, read-only file mappings, ELF segments).
 *
 * Two parts: the regions and their lookup (reference/image.c), all a decoder
 * uses, and loading files into regions (reference/image_file.c: raw
 * binaries, mappings, ELF), which the vector reader, the tools and snapshot
 * reading use. */
#ifndef TRACECERT_IMAGE_H
#define TRACECERT_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Not a limit of struct tc_image, which holds any number of regions: the
 * most regions a vector's [image] sections may give (conformance/vector.c),
 * the size of the region table certify hands an adapter for a vector. */
#define TC_IMAGE_MAX_REGIONS 64

struct tc_image_region {
	uint64_t base;
	uint64_t size;
	const uint8_t *data;      /* a copy, or a read-only mapping of a file: never written */
	const char *name;         /* where the bytes came from (a file name, an ELF segment, a snapshot
				   * dump), for messages; NULL for unnamed copies */
};

struct tc_image_block;        /* the copies and mappings the regions point into */

/* Regions sorted by base, none overlapping another. Zero-initialise before
 * use; tc_image_free releases everything. */
struct tc_image {
	struct tc_image_region *region;
	int n;
	int cap;
	struct tc_image_block *block;
	int nblocks;
	int capblocks;
};

enum tc_image_status {
	tc_image_ok = 0,
	tc_image_err_invalid = -1,    /* NULL argument */
	tc_image_err_empty = -2,      /* zero-size region */
	tc_image_err_overlap = -3,    /* overlaps a region already loaded */
	tc_image_err_wrap = -4,       /* base + size beyond 2^64 */
	tc_image_err_full = -5,       /* more regions than a vector may give (TC_IMAGE_MAX_REGIONS) */
	tc_image_err_nomem = -6,
	tc_image_err_io = -7,         /* cannot read the file, or the range is past its end */
	tc_image_err_elf = -8,        /* malformed ELF; the message says where */
	tc_image_err_not_elf = -9     /* no ELF magic at offset 0: not an ELF file at all (a raw binary?) */
};

/* ---- Regions (image.c) ---- */

/* Copies len bytes as a region at base. */
int tc_image_add(struct tc_image *img, uint64_t base, const uint8_t *bytes, size_t len);

/* The same with a name for messages; on error err says why, naming both
 * regions of an overlap. */
int tc_image_add_named(struct tc_image *img, uint64_t base, const uint8_t *bytes, size_t len, const char *name,
		       char *err, size_t errlen);

/* The bytes at address: a pointer into the containing region and, in
 * *avail, how many bytes remain in it; NULL when no region holds address.
 * A binary search over the sorted regions. */
const uint8_t *tc_image_lookup(const struct tc_image *img, uint64_t address, size_t *avail);

void tc_image_free(struct tc_image *img);

const char *tc_image_strerror(int status);

/* ---- Files (image_file.c) ---- */

/* Maps length bytes of a file from offset (length TC_IMAGE_TO_END: to the end
 * of the file) read-only at base: nothing is copied, so memory holds only
 * the pages decoding touches. A file that cannot be mapped (a pipe, standard
 * input "-") is read instead. name (NULL: path) names the region. The range
 * must lie inside the file. */
#define TC_IMAGE_TO_END UINT64_MAX
int tc_image_map_file(struct tc_image *img, const char *path, uint64_t offset, uint64_t length, uint64_t base,
		      const char *name, char *err, size_t errlen);

/* The same with length always a byte count, UINT64_MAX included (a file
 * never has that many bytes, so that range is past its end): for a length
 * the user gave. */
int tc_image_map_file_range(struct tc_image *img, const char *path, uint64_t offset, uint64_t length, uint64_t base,
			    const char *name, char *err, size_t errlen);

/* Maps a whole raw binary file at base (tc_image_map_file). */
int tc_image_load_raw(struct tc_image *img, const char *path, uint64_t base, char *err, size_t errlen);

/* Loads the PT_LOAD segments (file-backed bytes) of an ELF file, 32- or
 * 64-bit, little endian, from memory (copied) or a file (mapped). On error
 * nothing is added and err names the field and offset that was wrong;
 * tc_image_err_not_elf when the file does not start with the ELF magic. */
int tc_image_load_elf_mem(struct tc_image *img, const uint8_t *file, size_t len, char *err, size_t errlen);
int tc_image_load_elf(struct tc_image *img, const char *path, char *err, size_t errlen);

/* The e_machine and EI_CLASS (1: 32-bit, 2: 64-bit) of the ELF file at
 * path, its header checked as tc_image_load_elf checks it; 0, or an error
 * code with err naming the file and what was wrong. */
int tc_image_elf_machine(const char *path, unsigned *machine, int *elf_class, char *err, size_t errlen);

/* The most bytes tc_image_read_file reads: a file that cannot be mapped
 * (a pipe, a device such as /dev/zero, standard input) is read whole into
 * memory, and an endless one must end. */
#define TC_IMAGE_READ_MAX (256ul << 20)

/* The whole contents of a file ("-": standard input) in malloc'd memory
 * (free it), its length in *len; NULL with errno set when it cannot be read
 * (EFBIG: longer than TC_IMAGE_READ_MAX; EISDIR: a folder). */
uint8_t *tc_image_read_file(const char *path, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
