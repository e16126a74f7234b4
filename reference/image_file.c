/* SPDX-License-Identifier: BSD-3-Clause */
/* image_file.c — program images from files: raw binaries mapped read-only (or read, for pipes and standard input), whole files read, and a small bounds-checked ELF (32/64-bit LE) program-header reader; the regions themselves are image.c's.
 *
 * Used by the vector reader (conformance/vector.c), the tools and snapshot
 * reading, never by a decoder under certification, which is handed regions.
 *
 * Why not libelf: the reader needs only the ELF header and the PT_LOAD
 * program headers; a hundred lines that check every offset against the file
 * size are easier to fuzz and to trust than an extra library, and keep the
 * reference free of dependencies. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mmap, open, fileno: also built with plain -std=c11 (tools/bench-floor.sh) */
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image_internal.h"

/* ---- Files ----------------------------------------------------------------- */

/* Reads f to its end, at most TC_IMAGE_READ_MAX bytes, into malloc'd memory.
 * Returns NULL with errno set. */
static uint8_t *read_stream(FILE *f, size_t *len)
{
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got = 1;
	while (got > 0 && n <= TC_IMAGE_READ_MAX) {
		if (n == cap) {
			uint8_t *nb;
			cap = cap ? 2 * cap : 65536;
			cap = cap > TC_IMAGE_READ_MAX + 1 ? TC_IMAGE_READ_MAX + 1 : cap;
			nb = realloc(buf, cap);
			if (!nb) {   /* out of memory: not covered by the tests */
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	}
	if (ferror(f) || n > TC_IMAGE_READ_MAX) {
		int e = ferror(f) ? errno : EFBIG;
		free(buf);
		errno = e ? e : EIO;
		return NULL;
	}
	*len = n;
	return buf ? buf : malloc(1);
}

/* Reads a whole file (or stdin for "-") into malloc'd memory. Returns NULL
 * with errno set. */
uint8_t *tc_image_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	struct stat st;
	uint8_t *buf = NULL;
	int e;
	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
		errno = EISDIR;
	else
		buf = read_stream(f, len);
	e = errno;
	if (f != stdin)
		fclose(f);
	errno = e;
	return buf;
}

/* An open file: a mapping of a regular file, or its bytes read (pipes, "-"). */
struct file_view {
	const uint8_t *p;
	size_t len;
	void *addr;               /* what to release */
	size_t addr_len;
	int mapped;
};

static int open_view(const char *path, struct file_view *v, char *err, size_t errlen)
{
	struct stat st;
	int fd;
	memset(v, 0, sizeof *v);
	fd = strcmp(path, "-") ? open(path, O_RDONLY) : -1;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size <= SIZE_MAX) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		close(fd);
		if (m == MAP_FAILED)
			return tc_image_set_err(err, errlen, tc_image_err_io, "%s: cannot map: %s", path, strerror(errno));
		*v = (struct file_view){ m, (size_t)st.st_size, m, (size_t)st.st_size, 1 };
		return 0;
	}
	if (fd < 0 && strcmp(path, "-"))
		return tc_image_set_err(err, errlen, tc_image_err_io, "%s: cannot open: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	v->addr = tc_image_read_file(path, &v->len);
	if (!v->addr && errno == EFBIG)
		return tc_image_set_err(err, errlen, tc_image_err_io, "%s: cannot read: more than %lu bytes, the limit of a file "
					"read whole (TC_IMAGE_READ_MAX: a pipe, a device or standard input)", path,
					(unsigned long)TC_IMAGE_READ_MAX);
	if (!v->addr)
		return tc_image_set_err(err, errlen, tc_image_err_io, "%s: cannot read: %s", path, strerror(errno));
	v->p = v->addr;
	v->addr_len = v->len;
	return 0;
}

static void close_view(struct file_view *v)
{
	if (v->addr)
		tc_image_release(v->addr, v->addr_len, v->mapped);
	memset(v, 0, sizeof *v);
}

/* Maps a file's bytes from offset: length of them when has_length, else
 * the rest of the file. */
static int map_file(struct tc_image *img, const char *path, uint64_t offset, int has_length, uint64_t length,
		    uint64_t base, const char *name, char *err, size_t errlen)
{
	struct file_view v;
	const char *n = name ? name : path;
	int rc;
	if (!img || !path)
		return tc_image_set_err(err, errlen, tc_image_err_invalid, "invalid argument");
	rc = open_view(path, &v, err, errlen);
	if (rc)
		return rc;
	if (!has_length && offset > v.len) {
		rc = tc_image_set_err(err, errlen, tc_image_err_io, "%s: offset 0x%llx is past the end of the file (%zu bytes, 0x%zx)", n,
			     (unsigned long long)offset, v.len, v.len);
	} else if (offset > v.len || (has_length && length > v.len - offset)) {
		rc = tc_image_set_err(err, errlen, tc_image_err_io, "%s: offset 0x%llx + length 0x%llx is past the end of the file (%zu bytes)",
				      n, (unsigned long long)offset, (unsigned long long)(has_length ? length : 0), v.len);
	} else {
		if (!has_length)
			length = v.len - offset;
		rc = tc_image_check_region(img, base, length, n, err, errlen);
	}
	if (!rc && (tc_image_reserve(img, 1) || tc_image_keep_block(img, v.addr, v.addr_len, v.mapped)))
		rc = tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	else if (!rc) {
		const uint8_t *data = v.p + offset;
		memset(&v, 0, sizeof v);            /* the image releases it now */
		if (tc_image_insert(img, base, length, data, n))
			rc = tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	}
	close_view(&v);
	return rc;
}

int tc_image_map_file(struct tc_image *img, const char *path, uint64_t offset, uint64_t length, uint64_t base,
		      const char *name, char *err, size_t errlen)
{
	return map_file(img, path, offset, length != TC_IMAGE_TO_END, length, base, name, err, errlen);
}

int tc_image_map_file_range(struct tc_image *img, const char *path, uint64_t offset, uint64_t length, uint64_t base,
			    const char *name, char *err, size_t errlen)
{
	return map_file(img, path, offset, 1, length, base, name, err, errlen);
}

int tc_image_load_raw(struct tc_image *img, const char *path, uint64_t base, char *err, size_t errlen)
{
	return tc_image_map_file(img, path, 0, TC_IMAGE_TO_END, base, NULL, err, errlen);
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
	uint64_t index, at;       /* program header number and its file offset, for messages */
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
	if (len < 4 || memcmp(f, "\177ELF", 4) != 0)
		return tc_image_set_err(err, errlen, tc_image_err_not_elf, "offset 0: not an ELF file (bad magic)");
	if (len < 16)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "offset %zu: file ends inside e_ident (16 bytes needed)", len);
	if (f[4] != 1 && f[4] != 2)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "offset 4: EI_CLASS %u is neither 1 (32-bit) nor 2 (64-bit)", f[4]);
	if (f[5] != 1)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "offset 5: EI_DATA %u: only little-endian ELF is supported", f[5]);
	l->is64 = f[4] == 2;
	l->ehsize = l->is64 ? 64 : 52;
	l->phentsize = l->is64 ? 56 : 32;
	if (len < l->ehsize)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "offset %zu: file ends inside the ELF header (%zu bytes needed)", len, l->ehsize);
	*phoff = l->is64 ? le(f + 32, 8) : le(f + 28, 4);
	*phentsize = le(f + (l->is64 ? 54 : 42), 2);
	*phnum = le(f + (l->is64 ? 56 : 44), 2);
	if (*phnum == 0)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "e_phnum is 0: no program headers, nothing to load");
	if (*phentsize < l->phentsize)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "e_phentsize %llu is smaller than %zu", (unsigned long long)*phentsize, l->phentsize);
	if (*phoff > len || *phnum * *phentsize > len - *phoff)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "program headers at e_phoff 0x%llx (%llu x %llu bytes) extend beyond the file (%zu bytes)",
					(unsigned long long)*phoff, (unsigned long long)*phnum, (unsigned long long)*phentsize, len);
	return tc_image_ok;
}

/* The PT_LOAD segments with file bytes, each inside the file: *n of them in
 * *seg (malloc'd, the caller frees it). */
static int elf_segments(const uint8_t *f, size_t len, struct phdr **seg, int *n, char *err, size_t errlen)
{
	struct elf_layout l = { 0, 0, 0 };
	uint64_t phoff = 0, phentsize = 0, phnum = 0;
	int rc = elf_header(f, len, &l, &phoff, &phentsize, &phnum, err, errlen);
	*n = 0;
	*seg = NULL;
	if (rc)
		return rc;
	*seg = calloc((size_t)phnum, sizeof **seg);   /* phnum < 65536 */
	if (!*seg)
		return tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	for (uint64_t i = 0; i < phnum; i++) {
		struct phdr h;
		h.index = i;
		h.at = phoff + i * phentsize;
		read_phdr(&l, f + h.at, &h);
		if (h.type != 1 || h.filesz == 0)   /* PT_LOAD with file bytes only */
			continue;
		if (h.offset > len || h.filesz > len - h.offset)
			return tc_image_set_err(err, errlen, tc_image_err_elf, "program header %llu (offset 0x%llx): segment bytes 0x%llx+0x%llx extend beyond the file (%zu bytes)",
						(unsigned long long)i, (unsigned long long)h.at, (unsigned long long)h.offset,
						(unsigned long long)h.filesz, len);
		(*seg)[(*n)++] = h;
	}
	if (*n == 0)
		return tc_image_set_err(err, errlen, tc_image_err_elf, "no PT_LOAD segment with file bytes");
	return 0;
}

static int cmp_vaddr(const void *a, const void *b)
{
	const struct phdr *x = a, *y = b;
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static void segment_name(char *buf, size_t size, const char *file, const struct phdr *h)
{
	snprintf(buf, size, "%s program header %llu (offset 0x%llx)", file, (unsigned long long)h->index,
		 (unsigned long long)h->at);
}

/* Checks every segment against the image and against each other (sorted by vaddr). */
static int elf_check(const struct tc_image *img, struct phdr *seg, int n, const char *file, char *err, size_t errlen)
{
	char name[600], prev[600];
	qsort(seg, (size_t)n, sizeof *seg, cmp_vaddr);
	for (int i = 0; i < n; i++) {
		int rc;
		segment_name(name, sizeof name, file, &seg[i]);
		rc = tc_image_check_region(img, seg[i].vaddr, seg[i].filesz, name, err, errlen);
		if (rc)
			return rc;
		if (i > 0 && seg[i].vaddr <= seg[i - 1].vaddr + (seg[i - 1].filesz - 1)) {
			segment_name(prev, sizeof prev, file, &seg[i - 1]);
			return tc_image_set_err(err, errlen, tc_image_err_overlap, "%s [0x%llx..0x%llx] overlaps %s [0x%llx..0x%llx]",
						name, (unsigned long long)seg[i].vaddr,
						(unsigned long long)(seg[i].vaddr + (seg[i].filesz - 1)), prev,
						(unsigned long long)seg[i - 1].vaddr,
						(unsigned long long)(seg[i - 1].vaddr + (seg[i - 1].filesz - 1)));
		}
	}
	return 0;
}

/* Adds the checked segments; copy: each segment copied, else pointing into f. */
static int elf_commit(struct tc_image *img, const uint8_t *f, const struct phdr *seg, int n, int copy,
		      const char *file)
{
	char name[600];
	if (tc_image_reserve(img, n))
		return -1;
	for (int i = 0; i < n; i++) {
		const uint8_t *data = f + seg[i].offset;
		if (copy) {
			uint8_t *c = malloc((size_t)seg[i].filesz);
			if (!c || tc_image_keep_block(img, c, (size_t)seg[i].filesz, 0)) {
				free(c);
				return -1;
			}
			memcpy(c, data, (size_t)seg[i].filesz);
			data = c;
		}
		segment_name(name, sizeof name, file, &seg[i]);
		if (tc_image_insert(img, seg[i].vaddr, seg[i].filesz, data, name))
			return -1;
	}
	return 0;
}

/* Loads f (len bytes); copy: segments copied (f is the caller's memory),
 * else the regions point into f (a mapping the caller gives the image). */
static int load_elf(struct tc_image *img, const uint8_t *f, size_t len, int copy, const char *file, char *err,
		    size_t errlen)
{
	struct phdr *seg = NULL;
	int n = 0, rc;
	if (!img || !f)
		return tc_image_set_err(err, errlen, tc_image_err_invalid, "invalid argument");
	rc = elf_segments(f, len, &seg, &n, err, errlen);
	if (!rc)
		rc = elf_check(img, seg, n, file, err, errlen);
	if (!rc && elf_commit(img, f, seg, n, copy, file))
		rc = tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	free(seg);
	return rc;
}

int tc_image_load_elf_mem(struct tc_image *img, const uint8_t *f, size_t len, char *err, size_t errlen)
{
	return load_elf(img, f, len, 1, "ELF", err, errlen);
}

int tc_image_load_elf(struct tc_image *img, const char *path, char *err, size_t errlen)
{
	struct file_view v;
	char msg[900];
	int rc;
	if (!img || !path)
		return tc_image_set_err(err, errlen, tc_image_err_invalid, "invalid argument");
	rc = open_view(path, &v, err, errlen);
	if (rc)
		return rc;
	if (tc_image_keep_block(img, v.addr, v.addr_len, v.mapped)) {
		close_view(&v);
		return tc_image_set_err(err, errlen, tc_image_err_nomem, "out of memory");
	}
	rc = load_elf(img, v.p, v.len, 0, path, msg, sizeof msg);
	if (rc) {
		img->nblocks--;                     /* nothing points into it */
		close_view(&v);
		return tc_image_set_err(err, errlen, rc, "%s%s%s", rc == tc_image_err_elf ? path : "",
					rc == tc_image_err_elf ? ": " : "", msg);
	}
	return 0;
}

int tc_image_elf_machine(const char *path, unsigned *machine, int *elf_class, char *err, size_t errlen)
{
	struct file_view v;
	struct elf_layout l = { 0, 0, 0 };
	uint64_t phoff = 0, phentsize = 0, phnum = 0;
	char msg[900];
	int rc;
	if (!path || !machine || !elf_class)
		return tc_image_set_err(err, errlen, tc_image_err_invalid, "invalid argument");
	rc = open_view(path, &v, err, errlen);
	if (rc)
		return rc;
	rc = elf_header(v.p, v.len, &l, &phoff, &phentsize, &phnum, msg, sizeof msg);
	if (!rc) {
		*machine = (unsigned)le(v.p + 18, 2);   /* e_machine, after e_ident and e_type */
		*elf_class = v.p[4];
	}
	close_view(&v);
	return rc ? tc_image_set_err(err, errlen, rc, "%s: %s", path, msg) : 0;
}
