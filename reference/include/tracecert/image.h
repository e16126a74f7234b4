/* tracecert/image.h — program images for instruction-level decode: raw regions and ELF files. */
#ifndef TRACECERT_IMAGE_H
#define TRACECERT_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most regions one image holds (an ELF file's PT_LOAD segments count each). */
#define TC_IMAGE_MAX_REGIONS 64

struct tc_image_region {
	uint64_t base;
	uint64_t size;
	uint8_t *data;            /* owned copy */
};

/* A set of non-overlapping regions. Zero-initialise before use. */
struct tc_image {
	struct tc_image_region region[TC_IMAGE_MAX_REGIONS];
	int n;
};

enum tc_image_status {
	tc_image_ok = 0,
	tc_image_err_invalid = -1,    /* NULL argument */
	tc_image_err_empty = -2,      /* zero-size region */
	tc_image_err_overlap = -3,    /* overlaps a region already loaded */
	tc_image_err_wrap = -4,       /* base + size beyond 2^64 */
	tc_image_err_full = -5,       /* more than TC_IMAGE_MAX_REGIONS */
	tc_image_err_nomem = -6,
	tc_image_err_io = -7,         /* cannot read the file */
	tc_image_err_elf = -8         /* malformed ELF; the message says where */
};

/* Copies len bytes as a region at base. */
int tc_image_add(struct tc_image *img, uint64_t base, const uint8_t *bytes, size_t len);

/* Loads a raw binary file at base. */
int tc_image_load_raw(struct tc_image *img, const char *path, uint64_t base, char *err, size_t errlen);

/* Loads the PT_LOAD segments (file-backed bytes) of an ELF file, 32- or
 * 64-bit, little endian, from memory or a file. On error nothing is added
 * and err names the field and offset that was wrong. */
int tc_image_load_elf_mem(struct tc_image *img, const uint8_t *file, size_t len, char *err, size_t errlen);
int tc_image_load_elf(struct tc_image *img, const char *path, char *err, size_t errlen);

/* The whole contents of a file ("-": standard input) in malloc'd memory
 * (free it), its length in *len; NULL with errno set when it cannot be read. */
uint8_t *tc_image_read_file(const char *path, size_t *len);

/* The bytes at address: a pointer into the containing region and, in
 * *avail, how many bytes remain in it; NULL when no region holds address. */
const uint8_t *tc_image_lookup(const struct tc_image *img, uint64_t address, size_t *avail);

void tc_image_free(struct tc_image *img);

const char *tc_image_strerror(int status);

#ifdef __cplusplus
}
#endif

#endif
