/* image.c — program image regions and a small bounds-checked ELF (32/64-bit LE) program-header reader.
 *
 * Why not libelf: the reader needs only the ELF header and the PT_LOAD
 * program headers; a hundred lines that check every offset against the file
 * size are easier to fuzz and to trust than an extra library, and keep the
 * reference free of dependencies. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/image.h"

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
	default: return "unknown error";
	}
}

/* Compares last addresses, so a region ending at 2^64 does not wrap
 * (found by fuzz/decode: fuzz/corpus/decode/image-overlap-region-ending-at-2e64.bin). */
static int overlaps(const struct tc_image *img, uint64_t base, uint64_t size)
{
	uint64_t last = base + (size - 1);
	for (int i = 0; i < img->n; i++) {
		const struct tc_image_region *r = &img->region[i];
		if (base <= r->base + (r->size - 1) && r->base <= last)
			return 1;
	}
	return 0;
}

int tc_image_add(struct tc_image *img, uint64_t base, const uint8_t *bytes, size_t len)
{
	struct tc_image_region *r;
	if (!img || (!bytes && len))
		return tc_image_err_invalid;
	if (len == 0)
		return tc_image_err_empty;
	if (base + (uint64_t)len - 1 < base)
		return tc_image_err_wrap;
	if (overlaps(img, base, len))
		return tc_image_err_overlap;
	if (img->n == TC_IMAGE_MAX_REGIONS)
		return tc_image_err_full;
	r = &img->region[img->n];
	r->data = malloc(len);
	if (!r->data)
		return tc_image_err_nomem;
	memcpy(r->data, bytes, len);
	r->base = base;
	r->size = len;
	img->n++;
	return tc_image_ok;
}

const uint8_t *tc_image_lookup(const struct tc_image *img, uint64_t address, size_t *avail)
{
	if (!img)
		return NULL;
	for (int i = 0; i < img->n; i++) {
		const struct tc_image_region *r = &img->region[i];
		if (address >= r->base && address - r->base < r->size) {
			if (avail)
				*avail = (size_t)(r->size - (address - r->base));
			return r->data + (address - r->base);
		}
	}
	return NULL;
}

void tc_image_free(struct tc_image *img)
{
	if (!img)
		return;
	for (int i = 0; i < img->n; i++)
		free(img->region[i].data);
	memset(img, 0, sizeof *img);
}

/* ---- Files ----------------------------------------------------------------- */

static int set_err(char *err, size_t errlen, int status, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return status;
}

/* Reads a whole file (or stdin for "-") into malloc'd memory. Returns NULL
 * with errno set. */
uint8_t *tc_image_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t got;
		if (n == cap) {
			uint8_t *nb;
			cap = cap ? 2 * cap : 65536;
			nb = realloc(buf, cap);
			if (!nb) {   /* out of memory: not covered by the tests */
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

int tc_image_load_raw(struct tc_image *img, const char *path, uint64_t base, char *err, size_t errlen)
{
	size_t len = 0;
	uint8_t *buf = tc_image_read_file(path, &len);
	int rc;
	if (!buf)
		return set_err(err, errlen, tc_image_err_io, "%s: cannot read file", path);
	rc = tc_image_add(img, base, buf, len);
	free(buf);
	if (rc)
		return set_err(err, errlen, rc, "%s: %s (base 0x%llx, %zu bytes)", path, tc_image_strerror(rc),
			       (unsigned long long)base, len);
	return tc_image_ok;
}

/* ---- ELF -------------------------------------------------------------------- */

static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

struct elf_layout {
	int is64;
	size_t ehsize;            /* minimum header size */
	size_t phentsize;         /* minimum program header size */
};

struct phdr {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

static void read_phdr(const struct elf_layout *l, const uint8_t *p, struct phdr *h)
{
	h->type = (uint32_t)le(p, 4);
	if (l->is64) {
		h->offset = le(p + 8, 8);
		h->vaddr = le(p + 16, 8);
		h->filesz = le(p + 32, 8);
	} else {
		h->offset = le(p + 4, 4);
		h->vaddr = le(p + 8, 4);
		h->filesz = le(p + 16, 4);
	}
}

/* Checks the ELF header; fills layout, phoff, phentsize, phnum. */
static int elf_header(const uint8_t *f, size_t len, struct elf_layout *l, uint64_t *phoff,
		      uint64_t *phentsize, uint64_t *phnum, char *err, size_t errlen)
{
	if (len < 16 || memcmp(f, "\177ELF", 4) != 0)
		return set_err(err, errlen, tc_image_err_elf, "offset 0: not an ELF file (bad magic)");
	if (f[4] != 1 && f[4] != 2)
		return set_err(err, errlen, tc_image_err_elf, "offset 4: EI_CLASS %u is neither 1 (32-bit) nor 2 (64-bit)", f[4]);
	if (f[5] != 1)
		return set_err(err, errlen, tc_image_err_elf, "offset 5: EI_DATA %u: only little-endian ELF is supported", f[5]);
	l->is64 = f[4] == 2;
	l->ehsize = l->is64 ? 64 : 52;
	l->phentsize = l->is64 ? 56 : 32;
	if (len < l->ehsize)
		return set_err(err, errlen, tc_image_err_elf, "offset %zu: file ends inside the ELF header (%zu bytes needed)", len, l->ehsize);
	*phoff = l->is64 ? le(f + 32, 8) : le(f + 28, 4);
	*phentsize = le(f + (l->is64 ? 54 : 42), 2);
	*phnum = le(f + (l->is64 ? 56 : 44), 2);
	if (*phnum == 0)
		return set_err(err, errlen, tc_image_err_elf, "e_phnum is 0: no program headers, nothing to load");
	if (*phentsize < l->phentsize)
		return set_err(err, errlen, tc_image_err_elf, "e_phentsize %llu is smaller than %zu", (unsigned long long)*phentsize, l->phentsize);
	if (*phoff > len || *phnum * *phentsize > len - *phoff)
		return set_err(err, errlen, tc_image_err_elf, "program headers at e_phoff 0x%llx (%llu x %llu bytes) extend beyond the file (%zu bytes)",
			       (unsigned long long)*phoff, (unsigned long long)*phnum, (unsigned long long)*phentsize, len);
	return tc_image_ok;
}

int tc_image_load_elf_mem(struct tc_image *img, const uint8_t *f, size_t len, char *err, size_t errlen)
{
	struct elf_layout l = { 0, 0, 0 };
	uint64_t phoff = 0, phentsize = 0, phnum = 0;
	struct tc_image tmp;
	int rc;
	if (!img || !f)
		return set_err(err, errlen, tc_image_err_invalid, "invalid argument");
	rc = elf_header(f, len, &l, &phoff, &phentsize, &phnum, err, errlen);
	if (rc)
		return rc;
	tmp = *img;   /* load into a copy so that a failure adds nothing */
	for (uint64_t i = 0; i < phnum; i++) {
		struct phdr h;
		uint64_t at = phoff + i * phentsize;
		read_phdr(&l, f + at, &h);
		if (h.type != 1 || h.filesz == 0)   /* PT_LOAD with file bytes only */
			continue;
		if (h.offset > len || h.filesz > len - h.offset) {
			rc = set_err(err, errlen, tc_image_err_elf, "program header %llu (offset 0x%llx): segment bytes 0x%llx+0x%llx extend beyond the file (%zu bytes)",
				     (unsigned long long)i, (unsigned long long)at, (unsigned long long)h.offset,
				     (unsigned long long)h.filesz, len);
			break;
		}
		rc = tc_image_add(&tmp, h.vaddr, f + h.offset, (size_t)h.filesz);
		if (rc) {
			set_err(err, errlen, rc, "program header %llu (offset 0x%llx): %s (vaddr 0x%llx, 0x%llx bytes)",
				(unsigned long long)i, (unsigned long long)at, tc_image_strerror(rc),
				(unsigned long long)h.vaddr, (unsigned long long)h.filesz);
			break;
		}
	}
	if (rc) {
		for (int i = img->n; i < tmp.n; i++)
			free(tmp.region[i].data);
		return rc;
	}
	if (tmp.n == img->n)
		return set_err(err, errlen, tc_image_err_elf, "no PT_LOAD segment with file bytes");
	*img = tmp;
	return tc_image_ok;
}

int tc_image_load_elf(struct tc_image *img, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	uint8_t *buf = tc_image_read_file(path, &len);
	int rc;
	if (!buf)
		return set_err(err, errlen, tc_image_err_io, "%s: cannot read file", path);
	rc = tc_image_load_elf_mem(img, buf, len, err, errlen);
	free(buf);
	return rc;
}
