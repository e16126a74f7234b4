/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_image.c — program images: regions (many, sorted, mapped from files), the ELF reader on real and malformed files, L3 normalisation; prints TAP. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tap.h"

#include "tracecert/image.h"
#include "vector.h"


static uint32_t word_at(const struct tc_image *img, uint64_t address)
{
	size_t avail = 0;
	const uint8_t *p = tc_image_lookup(img, address, &avail);
	if (!p || avail < 4)
		return 0;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_regions(void)
{
	struct tc_image img;
	static const uint8_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	size_t avail = 0;
	memset(&img, 0, sizeof img);
	ok(tc_image_add(&img, 0x1000, a, 8) == tc_image_ok, "add a region");
	ok(tc_image_add(&img, 0x1004, a, 8) == tc_image_err_overlap, "an overlapping region is refused");
	ok(tc_image_add(&img, 0x0ffc, a, 8) == tc_image_err_overlap, "overlap from below is refused");
	ok(tc_image_add(&img, 0x1007, a, 4) == tc_image_err_overlap, "a region starting at the last byte of another is refused");
	ok(tc_image_add(&img, 0x0ffd, a, 4) == tc_image_err_overlap, "a region ending at the first byte of another is refused");
	ok(tc_image_add(&img, 0x1008, a, 8) == tc_image_ok, "an adjacent region is fine");
	ok(tc_image_add(&img, 0x3000, a, 0) == tc_image_err_empty, "a zero-size region is refused");
	ok(tc_image_add(&img, UINT64_MAX - 3, a, 8) == tc_image_err_wrap, "a region past 2^64 is refused");
	ok(tc_image_add(NULL, 0, a, 8) == tc_image_err_invalid, "NULL image is invalid");
	ok(tc_image_lookup(&img, 0x1006, &avail) != NULL && avail == 2, "lookup in the middle: 2 bytes left in its region (regions do not join)");
	ok(tc_image_lookup(&img, 0x1010, &avail) == NULL, "lookup past the end finds nothing");
	ok(tc_image_lookup(&img, 0x0fff, &avail) == NULL, "lookup before the start finds nothing");
	ok(tc_image_lookup(NULL, 0x1000, &avail) == NULL, "lookup in a NULL image finds nothing");
	tc_image_free(&img);
	ok(img.n == 0, "free empties the image");
	/* a region ending exactly at 2^64 (fuzz finding, fixed in 7c8a76a: the end wrapped to 0) */
	ok(tc_image_add(&img, UINT64_MAX - 7, a, 8) == tc_image_ok, "a region ending at 2^64 is fine");
	ok(tc_image_add(&img, 0x1000, a, 8) == tc_image_ok, "a low region does not overlap it");
	ok(tc_image_add(&img, UINT64_MAX - 3, a, 4) == tc_image_err_overlap, "its last bytes do overlap it");
	ok(tc_image_lookup(&img, UINT64_MAX, &avail) != NULL && avail == 1, "the last byte of the address space is found");
	tc_image_free(&img);
}

static uint64_t next_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* Thousands of regions added in random order: no limit, kept sorted, and
 * lookup agrees with a linear search everywhere. */
static void test_many_regions(void)
{
	enum { N = 3000 };
	struct tc_image img;
	static uint64_t base[N];
	static int order[N];
	uint64_t seed = 42;
	int added = 0, sorted = 1, wrong = 0;
	uint8_t bytes[24];
	memset(&img, 0, sizeof img);
	for (int i = 0; i < N; i++) {
		base[i] = 0x10000 + (uint64_t)i * 64 + next_rand(&seed) % 16;   /* 16..48 bytes each, gaps between */
		order[i] = i;
	}
	for (int i = N - 1; i > 0; i--) {
		int j = (int)(next_rand(&seed) % (uint64_t)(i + 1)), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < N; i++) {
		memset(bytes, order[i] & 0xff, sizeof bytes);
		added += tc_image_add(&img, base[order[i]], bytes, 16 + (size_t)(order[i] % 2) * 8) == tc_image_ok;
	}
	ok(added == N && img.n == N, "%d regions added in random order (no fixed limit)", N);
	for (int i = 1; i < img.n; i++)
		sorted &= img.region[i - 1].base < img.region[i].base;
	ok(sorted, "regions are kept sorted by base");
	for (int k = 0; k < 20000; k++) {
		uint64_t a = 0xff00 + next_rand(&seed) % ((uint64_t)N * 64 + 512);
		size_t avail = 0, want_avail = 0;
		const uint8_t *want = NULL, *got = tc_image_lookup(&img, a, &avail);
		for (int i = 0; i < img.n; i++)
			if (a >= img.region[i].base && a - img.region[i].base < img.region[i].size) {
				want = img.region[i].data + (a - img.region[i].base);
				want_avail = (size_t)(img.region[i].size - (a - img.region[i].base));
			}
		wrong += got != want || (got && avail != want_avail);
	}
	ok(wrong == 0, "binary-search lookup agrees with a linear search at 20000 addresses");
	tc_image_free(&img);
}

static void test_named_overlap(void)
{
	struct tc_image img;
	static const uint8_t a[32];
	char err[400];
	memset(&img, 0, sizeof img);
	ok(tc_image_add_named(&img, 0x1000, a, 32, "first.bin", err, sizeof err) == tc_image_ok, "a named region");
	ok(tc_image_add_named(&img, 0x1010, a, 32, "second.bin", err, sizeof err) == tc_image_err_overlap &&
		   strstr(err, "second.bin [0x1010..0x102f] overlaps first.bin [0x1000..0x101f]"),
	   "an overlap names both regions and their ranges: %s", err);
	ok(tc_image_add_named(&img, 0xff0, a, 17, NULL, err, sizeof err) == tc_image_err_overlap &&
		   strstr(err, "overlaps first.bin"), "an unnamed region overlapping from below: %s", err);
	ok(img.n == 1 && !strcmp(img.region[0].name, "first.bin"), "nothing added by the failures; the name is kept");
	tc_image_free(&img);
}

static long max_rss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* File regions are mapped, not copied: a 256 MiB (sparse) file costs the
 * pages touched. Offsets and lengths select part of a file; a range past the
 * end of the file is refused, naming it. */
static void test_map_file(void)
{
	char path[] = "/tmp/tc-unit-image-XXXXXX", err[400];
	struct tc_image img;
	size_t avail = 0;
	const uint8_t *p;
	long before, after;
	int fd = mkstemp(path);
	static const uint8_t head[8] = { 0xd5, 0x03, 0x20, 0x1f, 1, 2, 3, 4 };
	memset(&img, 0, sizeof img);
	ok(fd >= 0 && write(fd, head, sizeof head) == (ssize_t)sizeof head && ftruncate(fd, 256l << 20) == 0,
	   "a 256 MiB sparse file");
	if (fd >= 0)
		close(fd);
	before = max_rss_kib();
	ok(tc_image_map_file(&img, path, 0, TC_IMAGE_TO_END, 0x40000000, NULL, err, sizeof err) == tc_image_ok, "mapped whole (%s)", err);
	p = tc_image_lookup(&img, 0x40000000 + (128l << 20), &avail);
	ok(p && p[0] == 0 && avail == (128ul << 20), "a byte in the middle reads as the file's");
	after = max_rss_kib();
	ok(after - before < 32 * 1024, "peak RSS grew by %ld KiB, not by the file's 256 MiB", after - before);
	ok(tc_image_map_file(&img, path, 4, 4, 0x1000, "dump1", err, sizeof err) == tc_image_ok &&
		   (p = tc_image_lookup(&img, 0x1000, &avail)) && p[0] == 1 && p[3] == 4 && avail == 4,
	   "offset 4 length 4 maps bytes 4..7 of the file");
	ok(tc_image_map_file(&img, path, 256l << 20, 1, 0x2000, "dump2", err, sizeof err) == tc_image_err_io &&
		   strstr(err, "dump2: offset 0x10000000 + length 0x1 is past the end of the file (268435456 bytes)"),
	   "a range past the end of the file: %s", err);
	ok(tc_image_map_file_range(&img, path, 0, UINT64_MAX, 0x2000, "dump5", err, sizeof err) == tc_image_err_io &&
		   strstr(err, "dump5: offset 0x0 + length 0xffffffffffffffff is past the end of the file (268435456 bytes)"),
	   "a given length of 2^64 - 1 is a length, past the end of the file: %s", err);
	ok(tc_image_map_file_range(&img, path, 8, 4, 0x3000, "dump6", err, sizeof err) == tc_image_ok &&
		   (p = tc_image_lookup(&img, 0x3000, &avail)) && avail == 4,
	   "a given length inside the file maps that many bytes");
	ok(tc_image_map_file(&img, path, 0, 0, 0x2000, "dump3", err, sizeof err) == tc_image_err_empty, "length 0 is empty");
	ok(tc_image_map_file(&img, path, 0, 16, 0x1002, "dump4", err, sizeof err) == tc_image_err_overlap &&
		   strstr(err, "dump4 [0x1002..0x1011] overlaps dump1 [0x1000..0x1003]"), "overlapping dumps: %s", err);
	ok(tc_image_map_file(&img, "/nonexistent/mem.bin", 0, TC_IMAGE_TO_END, 0, NULL, err, sizeof err) == tc_image_err_io &&
		   strstr(err, "/nonexistent/mem.bin: cannot open: No such file or directory"), "a missing file: %s", err);
	ok(img.n == 3, "failed maps added nothing");
	tc_image_free(&img);
	unlink(path);
}

/* Real ELF files made with binutils (reference/test/data/a64.s, a32.s;
 * ld -N -Ttext=…; see the .s files). */
static void test_real_elf(const char *dir)
{
	struct tc_image img;
	char path[512], err[256];
	memset(&img, 0, sizeof img);
	snprintf(path, sizeof path, "%s/a64.elf", dir);
	ok(tc_image_load_elf(&img, path, err, sizeof err) == tc_image_ok, "a64.elf loads (%s)", err);
	/* objdump: 400000 14000002 b; 400008 94000002 bl; 40000c d65f03c0 ret */
	ok(word_at(&img, 0x400000) == 0x14000002 && word_at(&img, 0x40000c) == 0xd65f03c0,
	   "a64.elf: B at 0x400000, RET at 0x40000c");
	snprintf(path, sizeof path, "%s/a32.elf", dir);
	ok(tc_image_load_elf(&img, path, err, sizeof err) == tc_image_ok, "a32.elf (32-bit) loads beside it");
	/* objdump: 8000 ea000000 b; 800c e12fff1e bx lr */
	ok(word_at(&img, 0x8000) == 0xea000000 && word_at(&img, 0x800c) == 0xe12fff1e, "a32.elf: B at 0x8000, BX LR at 0x800c");
	ok(tc_image_load_elf(&img, path, err, sizeof err) == tc_image_err_overlap && strstr(err, "overlaps"),
	   "loading a32.elf twice: overlap error naming the program header (%s)", err);
	ok(tc_image_load_elf(&img, "/nonexistent.elf", err, sizeof err) == tc_image_err_io, "a missing file is an I/O error");
	tc_image_free(&img);
	/* readelf -h: a64.elf Machine AArch64 (183), Class ELF64; a32.elf ARM (40), ELF32 */
	unsigned machine = 0;
	int elf_class = 0;
	err[0] = '\0';
	snprintf(path, sizeof path, "%s/a64.elf", dir);
	ok(tc_image_elf_machine(path, &machine, &elf_class, err, sizeof err) == 0 && machine == 183 && elf_class == 2,
	   "a64.elf: e_machine 183 (EM_AARCH64), ELFCLASS64 (%s)", err);
	snprintf(path, sizeof path, "%s/a32.elf", dir);
	ok(tc_image_elf_machine(path, &machine, &elf_class, err, sizeof err) == 0 && machine == 40 && elf_class == 1,
	   "a32.elf: e_machine 40 (EM_ARM), ELFCLASS32 (%s)", err);
	snprintf(path, sizeof path, "%s/a32.s", dir);
	ok(tc_image_elf_machine(path, &machine, &elf_class, err, sizeof err) == tc_image_err_not_elf &&
	   strstr(err, "a32.s: offset 0: not an ELF file"), "a text file: not an ELF file, named (%s)", err);
}

/* A minimal ELF64 with one PT_LOAD of 8 bytes at offset 0x78, vaddr 0x1000. */
static size_t make_elf64(uint8_t *f)
{
	memset(f, 0, 0x80);
	memcpy(f, "\177ELF", 4);
	f[4] = 2;                 /* ELFCLASS64 */
	f[5] = 1;                 /* little endian */
	f[6] = 1;
	f[32] = 0x40;             /* e_phoff */
	f[54] = 56;               /* e_phentsize */
	f[56] = 1;                /* e_phnum */
	f[0x40] = 1;              /* p_type PT_LOAD */
	f[0x40 + 8] = 0x78;       /* p_offset */
	f[0x40 + 17] = 0x10;      /* p_vaddr 0x1000 */
	f[0x40 + 32] = 8;         /* p_filesz */
	f[0x40 + 40] = 8;         /* p_memsz */
	memcpy(f + 0x78, "\x1f\x20\x03\xd5\xc0\x03\x5f\xd6", 8);   /* nop; ret */
	return 0x80;
}

static void test_malformed_elf(void)
{
	struct tc_image img;
	uint8_t f[0x100];
	char err[256];
	size_t n = make_elf64(f);
	memset(&img, 0, sizeof img);
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_ok && word_at(&img, 0x1004) == 0xd65f03c0,
	   "hand-made ELF64 loads: RET at 0x1004");
	tc_image_free(&img);
	ok(tc_image_load_elf_mem(&img, f, 10, err, sizeof err) == tc_image_err_elf, "10 bytes: %s", err);
	ok(tc_image_load_elf_mem(&img, f, 40, err, sizeof err) == tc_image_err_elf && strstr(err, "ELF header"),
	   "cut inside the header: %s", err);
	ok(tc_image_load_elf_mem(&img, f, 0x70, err, sizeof err) == tc_image_err_elf && strstr(err, "program headers"),
	   "cut inside the program headers: %s", err);
	ok(tc_image_load_elf_mem(&img, f, 0x7c, err, sizeof err) == tc_image_err_elf && strstr(err, "segment bytes"),
	   "cut inside the segment: %s", err);
	n = make_elf64(f);
	f[0x40 + 8] = 0xf0;       /* p_offset beyond the file */
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf, "p_offset past the end: %s", err);
	n = make_elf64(f);
	f[32] = 0xff;             /* e_phoff beyond the file */
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf, "e_phoff past the end: %s", err);
	n = make_elf64(f);
	f[0] = 0x7e;
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_not_elf && strstr(err, "magic"),
	   "bad magic: not an ELF file at all (%s)", err);
	n = make_elf64(f);
	f[5] = 2;
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf && strstr(err, "little-endian"), "big endian: %s", err);
	n = make_elf64(f);
	f[56] = 0;
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf && strstr(err, "e_phnum"), "no program headers: %s", err);
	n = make_elf64(f);
	f[0x40 + 32] = 0;         /* p_filesz 0: nothing to load */
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf && strstr(err, "no PT_LOAD"), "zero-size segment only: %s", err);
	n = make_elf64(f);
	f[54] = 20;
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf && strstr(err, "e_phentsize"), "short e_phentsize: %s", err);
	ok(img.n == 0, "failed loads added nothing");
}

static void add_lines(struct tc_lines *l, const char *const *lines)
{
	for (; *lines; lines++)
		tc_lines_add(l, *lines);
}

/* Normalises the two ranges a and b over an image of `code` at 0x8000;
 * returns the number of lines (1: merged). */
static size_t normalise_pair(const uint8_t *code, size_t len, const char *a, const char *b)
{
	const char *const in[] = { a, b, NULL };
	struct tc_lines l, got;
	struct tc_image img;
	size_t n;
	memset(&l, 0, sizeof l);
	memset(&img, 0, sizeof img);
	tc_image_add(&img, 0x8000, code, len);
	add_lines(&l, in);
	tc_l3_normalise(&l, &img, &got);
	n = got.n;
	tc_lines_free(&l);
	tc_lines_free(&got);
	tc_image_free(&img);
	return n;
}

/* The normalisation's own instruction sizes (conformance/l3norm.c), by hand. */
static void test_l3_normalise_sizes(void)
{
	/* 0xe000 (bits 15:11 = 0b11100: 16-bit B) then 0xe800 (0b11101: 32-bit) */
	static const uint8_t t32[8] = { 0x00, 0xe0, 0x00, 0xe8, 0x00, 0x00, 0x00, 0xbf };
	/* RV: 0x4501 (bits 1:0 = 01: compressed c.li) then a 32-bit addi (bits 1:0 = 11) */
	static const uint8_t rv[8] = { 0x01, 0x45, 0x13, 0x05, 0x10, 0x00, 0x01, 0x00 };
	ok(normalise_pair(t32, sizeof t32, "range first=0x8000 last=0x8000 n=1 isa=t32 type=other taken=-",
			  "range first=0x8002 last=0x8002 n=1 isa=t32 type=other taken=-") == 1,
	   "normalise: T32 0b11100 first halfword is 16 bits (next range at +2 merges)");
	ok(normalise_pair(t32, sizeof t32, "range first=0x8000 last=0x8000 n=1 isa=t32 type=other taken=-",
			  "range first=0x8004 last=0x8004 n=1 isa=t32 type=other taken=-") == 2,
	   "normalise: T32 0b11100 first halfword is not 32 bits (+4 does not merge)");
	ok(normalise_pair(t32, sizeof t32, "range first=0x8002 last=0x8002 n=1 isa=t32 type=other taken=-",
			  "range first=0x8006 last=0x8006 n=1 isa=t32 type=other taken=-") == 1,
	   "normalise: T32 0b11101 first halfword is 32 bits (+4 merges)");
	ok(normalise_pair(rv, sizeof rv, "range first=0x8000 last=0x8000 n=1 isa=rv64 type=other taken=-",
			  "range first=0x8002 last=0x8002 n=1 isa=rv64 type=other taken=-") == 1,
	   "normalise: RV compressed instruction is 16 bits");
	ok(normalise_pair(rv, sizeof rv, "range first=0x8002 last=0x8002 n=1 isa=rv32 type=other taken=-",
			  "range first=0x8006 last=0x8006 n=1 isa=rv32 type=other taken=-") == 1,
	   "normalise: RV bits 1:0 = 11 is 32 bits");
	ok(normalise_pair(rv, sizeof rv, "range first=0x8000 last=0x8000 n=1 isa=a32 type=other taken=-",
			  "range first=0x8004 last=0x8004 n=1 isa=t32 type=other taken=-") == 2,
	   "normalise: an instruction set change does not merge");
	ok(normalise_pair(rv, sizeof rv, "range first=0x9000 last=0x9000 n=1 isa=rv32 type=other taken=-",
			  "range first=0x9002 last=0x9002 n=1 isa=rv32 type=other taken=-") == 2,
	   "normalise: a last instruction outside the image has no size (no merge)");
}

/* The shared normalisation: hand cases. */
static void test_l3_normalise(void)
{
	static const char *const in[] = {
		"@20 range first=0x1000 last=0x1008 n=3 isa=a64 type=other taken=-",
		"@21 range first=0x100c last=0x1010 n=2 isa=a64 type=dir taken=N",   /* merges: contiguous */
		"@21 range first=0x1014 last=0x1014 n=1 isa=a64 type=other taken=-", /* no: previous ends with P0 */
		"@22 timestamp ts=0x5 cc=unknown",
		"@23 range first=0x1018 last=0x101c n=2 isa=a64 type=indir taken=E", /* no: something between */
		"@24 range first=0x2000 last=0x2000 n=1 isa=a64 type=other taken=-",
		"@24 range first=0x2008 last=0x2008 n=1 isa=a64 type=isb taken=E",   /* no: not contiguous */
		NULL
	};
	static const char *const want[] = {
		"range first=0x1000 last=0x1010 n=5 isa=a64 type=dir taken=N",
		"range first=0x1014 last=0x1014 n=1 isa=a64 type=other taken=-",
		"timestamp ts=0x5 cc=unknown",
		"range first=0x1018 last=0x101c n=2 isa=a64 type=indir taken=E",
		"range first=0x2000 last=0x2000 n=1 isa=a64 type=other taken=-",
		"range first=0x2008 last=0x2008 n=1 isa=a64 type=isb taken=E",
		NULL
	};
	/* T32: the size of the instruction at `last` comes from the image */
	static const uint8_t t32[8] = { 0x00, 0xbf, 0x00, 0xf0, 0x00, 0xf8, 0x00, 0xbf };  /* nop; bl; nop */
	static const char *const in_t[] = {
		"@5 range first=0x8000 last=0x8002 n=2 isa=t32 type=other taken=-",
		"@6 range first=0x8006 last=0x8006 n=1 isa=t32 type=other taken=-",
		NULL
	};
	struct tc_lines a, b, c, got, got_t, got_none;
	struct tc_image img;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&c, 0, sizeof c);
	memset(&img, 0, sizeof img);
	add_lines(&a, in);
	add_lines(&b, want);
	tc_l3_normalise(&a, NULL, &got);
	ok(tc_lines_diff(&got, &b) < 0, "normalise: merges only contiguous ranges after a non-P0 end");
	tc_image_add(&img, 0x8000, t32, sizeof t32);
	add_lines(&c, in_t);
	tc_l3_normalise(&c, &img, &got_t);
	ok(got_t.n == 1 && !strcmp(got_t.line[0], "range first=0x8000 last=0x8006 n=3 isa=t32 type=other taken=-"),
	   "normalise: T32 ranges merge over a 32-bit BL (size from the image)");
	tc_l3_normalise(&c, NULL, &got_none);
	ok(got_none.n == 2, "normalise: without an image T32 ranges are not merged");
	tc_lines_free(&a);
	tc_lines_free(&b);
	tc_lines_free(&c);
	tc_lines_free(&got);
	tc_lines_free(&got_t);
	tc_lines_free(&got_none);
	tc_image_free(&img);
	test_l3_normalise_sizes();
}

/* NULL arguments, every status's text, files read instead of mapped, ELF edge cases. */
static void test_api_edges(void)
{
	struct tc_image img;
	uint8_t f[0x100];
	char err[400];
	size_t avail = 0, n;
	int texts = 1;
	memset(&img, 0, sizeof img);
	for (int st = 0; st >= -10; st--)
		texts &= tc_image_strerror(st)[0] != '\0';
	ok(texts && !strcmp(tc_image_strerror(-10), "unknown error") && !strcmp(tc_image_strerror(tc_image_err_full), "too many regions"),
	   "every status has a text");
	ok(tc_image_add_named(NULL, 0, f, 1, "x", err, sizeof err) == tc_image_err_invalid &&
		   tc_image_add_named(&img, 0, NULL, 1, "x", err, sizeof err) == tc_image_err_invalid &&
		   tc_image_add(&img, 0, NULL, 0) == tc_image_err_empty, "NULL image or bytes: invalid; no bytes and no length: empty");
	ok(tc_image_map_file(NULL, "x", 0, 1, 0, NULL, err, sizeof err) == tc_image_err_invalid &&
		   tc_image_map_file(&img, NULL, 0, 1, 0, NULL, err, sizeof err) == tc_image_err_invalid &&
		   tc_image_load_elf(NULL, "x", err, sizeof err) == tc_image_err_invalid &&
		   tc_image_load_elf(&img, NULL, err, sizeof err) == tc_image_err_invalid &&
		   tc_image_load_elf_mem(&img, NULL, 0, err, sizeof err) == tc_image_err_invalid, "NULL arguments to the file loaders");
	ok(tc_image_lookup(&img, 0, &avail) == NULL, "lookup in an empty image");
	tc_image_free(NULL);
	ok(tc_image_map_file(&img, "/proc/self/cmdline", 0, TC_IMAGE_TO_END, 0x5000, NULL, err, sizeof err) == tc_image_ok &&
		   tc_image_lookup(&img, 0x5000, &avail) && avail > 0, "a file whose size is not known (/proc) is read instead of mapped (%s)", err);
	ok(tc_image_map_file(&img, "/dev/null", 0, TC_IMAGE_TO_END, 0x9000, NULL, err, sizeof err) == tc_image_err_empty,
	   "an empty device file is an empty region");
	ok(tc_image_load_elf(&img, "/nonexistent.elf", err, sizeof err) == tc_image_err_io && strstr(err, "cannot open"), "a missing ELF: %s", err);
	tc_image_free(&img);
	n = make_elf64(f);
	f[4] = 3;
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_elf && strstr(err, "EI_CLASS 3"), "EI_CLASS 3: %s", err);
	n = make_elf64(f);
	f[56] = 2;                            /* a second program header over the segment's bytes: type 0xd503201f, skipped */
	ok(tc_image_load_elf_mem(&img, f, 0x40 + 2 * 56, err, sizeof err) == tc_image_ok && img.n == 1,
	   "a header of another type is skipped (%s)", err);
	tc_image_free(&img);
}

/* An ELF64 with two PT_LOAD segments; overlap: the second starts inside the first. */
static size_t make_elf64_two(uint8_t *f, int overlap)
{
	memset(f, 0, 0x100);
	memcpy(f, "\177ELF", 4);
	f[4] = 2;
	f[5] = 1;
	f[6] = 1;
	f[32] = 0x40;
	f[54] = 56;
	f[56] = 3;                            /* three headers: PT_LOAD, PT_NOTE, PT_LOAD */
	for (int i = 0; i < 3; i++) {
		uint8_t *h = f + 0x40 + 56 * i;
		h[0] = i == 1 ? 4 : 1;
		h[8] = (uint8_t)(0xe8 + 8 * (i / 2));   /* p_offset 0xe8, 0xf0 */
		h[17] = 0x10;                          /* p_vaddr 0x1000 / 0x1004 or 0x1008 */
		h[16] = (uint8_t)(i == 2 ? (overlap ? 4 : 8) : 0);
		h[32] = 8;
	}
	return 0xf8;
}

static void test_elf_segments(void)
{
	struct tc_image img;
	uint8_t f[0x100];
	char err[400];
	size_t n;
	memset(&img, 0, sizeof img);
	n = make_elf64_two(f, 0);
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_ok && img.n == 2 && img.region[1].base == 0x1008 &&
		   strstr(img.region[1].name, "program header 2"), "two PT_LOADs around a PT_NOTE (%s)", err);
	tc_image_free(&img);
	n = make_elf64_two(f, 1);
	ok(tc_image_load_elf_mem(&img, f, n, err, sizeof err) == tc_image_err_overlap &&
		   strstr(err, "program header 2 (offset 0xb0) [0x1004..0x100b] overlaps ELF program header 0 (offset 0x40) [0x1000..0x1007]") &&
		   img.n == 0, "segments of one file that overlap: %s", err);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "reference/test/data";
	test_regions();
	test_many_regions();
	test_named_overlap();
	test_map_file();
	test_real_elf(dir);
	test_malformed_elf();
	test_api_edges();
	test_elf_segments();
	test_l3_normalise();
	return tap_finish();
}
