/* SPDX-License-Identifier: BSD-3-Clause */
/* seedgen.c — the seed corpora of ETE's harnesses (fuzz/ete/): each ETE vector's [trace] behind the header that harness expects.
 *
 * Usage: seedgen ete_KIND OUTDIR PATH...
 *   PATH: .tcv files or folders searched recursively (conformance/vector.c).
 * Writes OUTDIR/<vector path with '/' → '_'>.bin, one per ETE vector
 * (OSS-Fuzz layout: build/fuzz/ete_KIND_seed_corpus/). The header carries
 * the vector's own configuration (fuzz_ete.h tc_fuzz_ete_config_encode)
 * and, for ete_decode, its image regions (ete_decode also gets the same
 * seed with the regions as an ELF file); a field the header cannot
 * represent exactly is approximated and counted in the summary. Automatic
 * queue sizes become the harnesses' cheap ones when the vector decodes the
 * same with them. ete_decode also gets one seed per ELF file in
 * reference/test/data (the ELF reader path), ete_format a few synthetic
 * seeds. ete_roundtrip takes no vectors: PATH is vectors/ete, whose
 * gen/seeds.txt gives one seed each (no entropy: that generated vector),
 * plus synthetic headers with pseudo-random entropy. The adapter
 * harness's seeds (every protocol's vectors) are fuzz/seedgen.c's.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_ete.h"
#include "seeds.h"
#include "vector.h"

/* Whether two configurations decode the vector to the same L1, s1, L2, L3. */
static int same_output(const struct tc_vector *v, const struct tc_ete_config *a, const struct tc_ete_config *b)
{
	struct tc_output x, y;
	int same = 1;
	if (tc_collect(v->proto, a, &v->image, v->trace, v->trace_len, 0, &x))
		return 0;
	if (tc_collect(v->proto, b, &v->image, v->trace, v->trace_len, 0, &y)) {
		tc_output_free(&x);
		return 0;
	}
	for (int i = 0; i < tc_sec_count; i++)
		if (tc_lines_diff(&x.level[i], &y.level[i]) >= 0)
			same = 0;
	tc_output_free(&x);
	tc_output_free(&y);
	return same;
}

/* The vector's configuration with the harness's cheap queue sizes (fuzz_ete.h)
 * in place of automatic ones when the decoded output is the same. */
static struct tc_ete_config cheap_config(const struct tc_vector *v)
{
	struct tc_ete_config c = *(const struct tc_ete_config *)v->config;
	if (c.queue_cap == 0) {
		struct tc_ete_config t = c;
		t.queue_cap = c.maxspec + 64;
		if (same_output(v, &c, &t))
			c = t;
	}
	if (c.tx_cap == 0) {
		struct tc_ete_config t = c;
		t.tx_cap = 64;
		if (same_output(v, &c, &t))
			c = t;
	}
	return c;
}

static int from_vector(const char *harness, const char *path, const struct tc_vector *v, struct tc_seed_buf *b)
{
	uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES];
	struct tc_ete_config cfg = cheap_config(v);
	int approx = tc_fuzz_ete_config_encode(&cfg, hdr) != 0, nreg;
	struct tc_image img;
	uint8_t walk = ((const struct tc_ete_config *)v->config)->walk_limit <= 255 ? (uint8_t)((const struct tc_ete_config *)v->config)->walk_limit : 0;
	if (((const struct tc_ete_config *)v->config)->walk_limit > 255)
		approx = 1;
	tc_seed_merge_regions(&v->image, &img);
	nreg = img.n < 7 ? img.n : 7;
	tc_seed_put(b, hdr, sizeof hdr);
	if (!strcmp(harness, "parse")) {
		tc_seed_put8(b, tc_seed_name_byte(path));
	} else if (!strcmp(harness, "diff")) {
		tc_seed_put8(b, 0);                                   /* adapter fed whole */
	} else if (!strcmp(harness, "decode")) {
		tc_seed_put8(b, (uint8_t)(0x80 | nreg));              /* regions, streaming check */
		tc_seed_put8(b, walk);
		tc_seed_put8(b, tc_seed_name_byte(path));
		approx |= tc_seed_put_regions(b, &img, nreg);
	} else {
		tc_image_free(&img);
		return -2;
	}
	tc_image_free(&img);
	tc_seed_put(b, v->trace, v->trace_len);
	return approx;
}

static void le_put(struct tc_seed_buf *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		tc_seed_put8(b, (uint8_t)(v >> (8 * i)));
}

/* An ELF file (little endian, 32- or 64-bit) with one PT_LOAD segment per
 * region (file bytes only), as tc_image_load_elf_mem reads it. */
static void put_elf(struct tc_seed_buf *b, const struct tc_image_region *r, int n, int is64)
{
	size_t eh = is64 ? 64 : 52, ph = is64 ? 56 : 32, off = eh + ph * (size_t)n;
	tc_seed_put(b, is64 ? "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0" : "\177ELF\1\1\1\0\0\0\0\0\0\0\0\0", 16);
	le_put(b, 2, 2);                          /* e_type EXEC */
	le_put(b, is64 ? 0xb7 : 0x28, 2);         /* e_machine AArch64 / ARM */
	le_put(b, 1, 4);                          /* e_version */
	le_put(b, n ? r[0].base : 0, is64 ? 8 : 4);   /* e_entry */
	le_put(b, eh, is64 ? 8 : 4);              /* e_phoff */
	le_put(b, 0, is64 ? 8 : 4);               /* e_shoff */
	le_put(b, 0, 4);                          /* e_flags */
	le_put(b, eh, 2);
	le_put(b, ph, 2);
	le_put(b, (uint64_t)n, 2);
	le_put(b, 0, 6);                          /* no sections */
	for (int i = 0; i < n; i++) {
		le_put(b, 1, 4);                  /* PT_LOAD */
		if (is64) {
			le_put(b, 5, 4);          /* p_flags R+X */
			le_put(b, off, 8);
			le_put(b, r[i].base, 8);
			le_put(b, r[i].base, 8);
			le_put(b, r[i].size, 8);
			le_put(b, r[i].size, 8);
			le_put(b, 4, 8);
		} else {
			le_put(b, off, 4);
			le_put(b, r[i].base, 4);
			le_put(b, r[i].base, 4);
			le_put(b, r[i].size, 4);
			le_put(b, r[i].size, 4);
			le_put(b, 5, 4);
			le_put(b, 4, 4);
		}
		off += (size_t)r[i].size;
	}
	for (int i = 0; i < n; i++)
		tc_seed_put(b, r[i].data, (size_t)r[i].size);
}

/* A decode seed whose image is the vector's regions as an ELF file. */
static int elf_from_vector(const char *path, const struct tc_vector *v, struct tc_seed_buf *b)
{
	uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES];
	struct tc_ete_config cfg = cheap_config(v);
	struct tc_seed_buf elf = { NULL, 0, 0 };
	int is64 = 0;
	if (v->image.n == 0)
		return -1;
	for (int i = 0; i < v->image.n; i++)
		if (v->image.region[i].base + v->image.region[i].size > UINT64_C(0x100000000) || (tc_seed_name_byte(path) & 1))
			is64 = 1;
	put_elf(&elf, v->image.region, v->image.n, is64);
	if (elf.n > 0xffff) {
		free(elf.p);
		return -1;
	}
	tc_fuzz_ete_config_encode(&cfg, hdr);
	tc_seed_put(b, hdr, sizeof hdr);
	tc_seed_put8(b, 0x80 | 8);                            /* no raw region, an ELF file, streaming check */
	tc_seed_put8(b, ((const struct tc_ete_config *)v->config)->walk_limit <= 255 ? (uint8_t)((const struct tc_ete_config *)v->config)->walk_limit : 0);
	tc_seed_put8(b, tc_seed_name_byte(path));
	tc_seed_put16(b, (uint16_t)elf.n);
	tc_seed_put(b, elf.p, elf.n);
	tc_seed_put(b, v->trace, v->trace_len);
	free(elf.p);
	return 0;
}

/* ELF edge cases for the reader: overlapping segments (one loaded, then an
 * error: nothing may be added), a segment past 2^64, too many segments, a
 * segment overlapping a raw region, a 32-bit file at the top of 4 GiB. */
static int elf_edge_seeds(const char *outdir)
{
	static const uint8_t nop[16] = { 0x1f, 0x20, 0x03, 0xd5, 0x1f, 0x20, 0x03, 0xd5,
					 0x1f, 0x20, 0x03, 0xd5, 0x1f, 0x20, 0x03, 0xd5 };
	struct tc_image_region r[65];
	struct { const char *name; int n, is64, raw; uint64_t base[3]; uint64_t size[3]; } e[] = {
		{ "elf-overlap-top.bin", 2, 1, 0, { UINT64_C(0xfffffffffffffff0), UINT64_C(0xfffffffffffffff8) }, { 16, 8 } },
		{ "elf-wrap.bin", 2, 1, 0, { 0x1000, UINT64_C(0xfffffffffffffff8) }, { 16, 16 } },
		{ "elf-raw-overlap.bin", 1, 1, 1, { 0x1008 }, { 16 } },
		{ "elf32-top.bin", 2, 0, 0, { 0xfffffff0, 0x1000 }, { 16, 16 } },
		{ "elf-many.bin", 65, 1, 0, { 0 }, { 0 } },
	};
	int written = 0;
	for (size_t k = 0; k < sizeof e / sizeof e[0]; k++) {
		struct tc_seed_buf b = { NULL, 0, 0 }, elf = { NULL, 0, 0 };
		for (int i = 0; i < e[k].n; i++) {
			r[i].base = e[k].n > 3 ? 0x1000 + 0x100 * (uint64_t)i : e[k].base[i];
			r[i].size = e[k].n > 3 ? 4 : e[k].size[i];
			r[i].data = (uint8_t *)nop;
		}
		put_elf(&elf, r, e[k].n, e[k].is64);
		tc_seed_put8(&b, 0);
		tc_seed_put8(&b, 0);
		tc_seed_put8(&b, 0);
		tc_seed_put8(&b, (uint8_t)(0x80 | 8 | (e[k].raw ? 1 : 0)));
		tc_seed_put8(&b, 0);
		tc_seed_put8(&b, 0x2f);
		if (e[k].raw) {               /* raw region [0x1000, 0x1010) */
			tc_seed_put16(&b, 0x1000);
			tc_seed_put16(&b, 0);
			tc_seed_put16(&b, 16);
			tc_seed_put(&b, nop, 16);
		}
		tc_seed_put16(&b, (uint16_t)elf.n);
		tc_seed_put(&b, elf.p, elf.n);
		tc_seed_put(&b, "\0\0\0\0\0\0\0\0\0\0\0\x80\x01\x00\x04\x81\x31\x9d\x00\x08\0\0\0\0\0\0\xf7\xf7", 28);
		written += tc_seed_write(outdir, e[k].name, &b) == 0;
		free(b.p);
		free(elf.p);
	}
	return written;
}

/* decode seeds that go through the ELF reader. */
static int elf_seeds(const char *outdir)
{
	static const struct {
		const char *file;
		const char *name;
		uint8_t ctx;            /* context payload: EL1, NS, SF */
		uint8_t addr[10];       /* target address packet */
		size_t addr_len;
	} elf[] = {
		{ "reference/test/data/a64.elf", "elf-a64.bin", 0x31,
		  { 0x9d, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00 }, 9 },   /* 0x400000 */
		{ "reference/test/data/a32.elf", "elf-a32.bin", 0x21, { 0x9a, 0x00, 0x40, 0x00, 0x00 }, 5 },   /* 0x8000 */
	};
	static const uint8_t async[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 };
	int written = 0;
	for (size_t i = 0; i < sizeof elf / sizeof elf[0]; i++) {
		struct tc_seed_buf b = { NULL, 0, 0 };
		uint8_t file[65535];
		FILE *f = fopen(elf[i].file, "rb");
		size_t n;
		if (!f)
			continue;
		n = fread(file, 1, sizeof file, f);
		fclose(f);
		tc_seed_put8(&b, 0);          /* configuration: all 0, maxspec 0 */
		tc_seed_put8(&b, 0);
		tc_seed_put8(&b, 0);
		tc_seed_put8(&b, 0x80 | 8);   /* no raw region, an ELF file, streaming check */
		tc_seed_put8(&b, 0);          /* walk_limit automatic */
		tc_seed_put8(&b, 0x2f);       /* chunking */
		tc_seed_put16(&b, (uint16_t)n);
		tc_seed_put(&b, file, n);
		tc_seed_put(&b, async, sizeof async);
		tc_seed_put(&b, "\x01\x00\x04\x81", 4);   /* Trace Info, Trace On, Context */
		tc_seed_put8(&b, elf[i].ctx);
		tc_seed_put(&b, elf[i].addr, elf[i].addr_len);
		tc_seed_put(&b, "\xf7\xf7\xf7\xf7\xf6", 5);   /* atoms E E E E N */
		if (tc_seed_write(outdir, elf[i].name, &b) == 0)
			written++;
		free(b.p);
	}
	return written;
}

static int format_seeds(const char *outdir)
{
	static const char *const cfg[] = { "maxspec\0" "16", "queue_cap\0" "4294967296", "walk_limit\0" "5",
					   "commopt\0" "1" };
	int written = 0;
	for (int sel = 0; sel < 3; sel++) {
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[32];
		uint8_t zero[96];
		memset(zero, 0, sizeof zero);
		tc_seed_put8(&b, (uint8_t)sel);
		tc_seed_put8(&b, 40);
		tc_seed_put(&b, zero, sizeof zero);
		snprintf(name, sizeof name, "struct-%d.bin", sel);
		written += tc_seed_write(outdir, name, &b) == 0;
		free(b.p);
	}
	for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[32];
		tc_seed_put8(&b, 3);
		tc_seed_put8(&b, 0);
		tc_seed_put(&b, cfg[i], strlen(cfg[i]) + 1 + strlen(cfg[i] + strlen(cfg[i]) + 1));
		snprintf(name, sizeof name, "config-%zu.bin", i);
		written += tc_seed_write(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* roundtrip: header cfg[3] flags steps blocks chunking seed[4], then entropy (fuzz/roundtrip.c). */
static void put_roundtrip_header(struct tc_seed_buf *b, const uint8_t cfg[3], uint8_t flags, uint8_t steps, uint8_t blocks,
				 uint8_t chunking, uint32_t seed)
{
	tc_seed_put(b, cfg, 3);
	tc_seed_put8(b, flags);
	tc_seed_put8(b, steps);
	tc_seed_put8(b, blocks);
	tc_seed_put8(b, chunking);
	tc_seed_put16(b, (uint16_t)seed);
	tc_seed_put16(b, (uint16_t)(seed >> 16));
}

/* One seed per line of the vectors/ete/gen seed list, with no entropy:
 * exactly the vector `make vectors` writes for it (random configuration,
 * 60 steps, 32 blocks), so the corpus starts with every encoder variant. */
static int roundtrip_gen_seeds(const char *outdir, const char *seeds_file)
{
	static const uint8_t cfg[3] = { 0, 0, 0 };
	char line[256];
	int written = 0;
	FILE *f = seeds_file ? fopen(seeds_file, "r") : NULL;
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[64];
		unsigned long seed;
		if (line[0] == '#' || sscanf(line, "%lu", &seed) != 1)
			continue;
		put_roundtrip_header(&b, cfg, 1, 0xf5 /* 60 steps */, 32 - 4, (uint8_t)(seed * 37), (uint32_t)seed);
		snprintf(name, sizeof name, "gen-%lu.bin", seed);
		written += tc_seed_write(outdir, name, &b) == 0;
		free(b.p);
	}
	fclose(f);
	return written;
}

/* Synthetic seeds: every header field varied, entropy of 0 to 2500
 * pseudo-random bytes (enough for every draw of a long run). */
static int roundtrip_random_seeds(const char *outdir)
{
	static const size_t lens[6] = { 0, 8, 64, 256, 1024, 2500 };
	uint64_t x = UINT64_C(0x726f756e64747269);   /* xorshift64 state */
	int written = 0;
	for (int i = 0; i < 36; i++) {
		struct tc_seed_buf b = { NULL, 0, 0 };
		uint8_t cfg[3], r[4];
		char name[64];
		for (int k = 0; k < 4; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			r[k] = (uint8_t)x;
		}
		cfg[0] = r[0];
		cfg[1] = (uint8_t)(r[1] & 0x3f);   /* maxspec 0..63 */
		cfg[2] = 0;
		put_roundtrip_header(&b, cfg, (uint8_t)(i & 7), r[2], r[3], (uint8_t)i, (uint32_t)(i + 1) * 7919u);
		for (size_t k = 0; k < lens[i % 6]; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			tc_seed_put8(&b, (uint8_t)(x >> 24));
		}
		snprintf(name, sizeof name, "random-%02d.bin", i);
		written += tc_seed_write(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* The seeds of ETE harness ete_KIND from every ETE vector under the paths. */
static int vector_seeds(const char *kind, const char *outdir, int argc, char **argv)
{
	char **list = NULL, err[600];
	size_t n = 0;
	int written = 0, approx = 0, bad = 0;
	for (int i = 3; i < argc; i++)
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "seedgen: %s\n", err);
			bad++;
		}
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[1024];
		int rc;
		if (tc_vector_load(list[i], &v, err, sizeof err)) {
			fprintf(stderr, "seedgen: %s: %s\n", list[i], err);
			bad++;
			free(list[i]);
			continue;
		}
		if (v.proto->id != tc_proto_ete) {
			tc_vector_free(&v);
			free(list[i]);
			continue;
		}
		rc = from_vector(kind, list[i], &v, &b);
		if (rc == -2) {
			fprintf(stderr, "seedgen: no ETE harness ete_%s\n", kind);
			exit(2);
		}
		if (rc && (approx < 3 || getenv("SEEDGEN_VERBOSE")))
			fprintf(stderr, "seedgen: %s: approximated (configuration, >7 separate image regions or an unencodable base)\n", list[i]);
		approx += rc;
		tc_seed_file_name(list[i], name, sizeof name);
		if (tc_seed_write(outdir, name, &b) == 0)
			written++;
		free(b.p);
		if (!strcmp(kind, "decode")) {
			struct tc_seed_buf e = { NULL, 0, 0 };
			if (elf_from_vector(list[i], &v, &e) == 0) {
				snprintf(name + strlen(name) - 4, 9, "-elf.bin");
				written += tc_seed_write(outdir, name, &e) == 0;
			}
			free(e.p);
		}
		tc_vector_free(&v);
		free(list[i]);
	}
	free(list);
	if (!strcmp(kind, "decode"))
		written += elf_seeds(outdir) + elf_edge_seeds(outdir);
	printf("seedgen: ete_%s: %d seeds in %s (%d with an approximated field, %d vectors unreadable)\n", kind,
	       written, outdir, approx, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *kind, *outdir;
	if (argc < 3 || strncmp(argv[1], "ete_", 4)) {
		fprintf(stderr, "usage: seedgen ete_KIND OUTDIR PATH...\n");
		return 2;
	}
	kind = argv[1] + 4;
	outdir = argv[2];
	mkdir(outdir, 0777);
	if (!strcmp(kind, "format")) {
		printf("seedgen: ete_format: %d synthetic seeds in %s\n", format_seeds(outdir), outdir);
		return 0;
	}
	if (!strcmp(kind, "roundtrip")) {   /* PATH: vectors/ete, whose gen/seeds.txt is the seed list */
		char seeds[4096];
		int gen, written;
		snprintf(seeds, sizeof seeds, "%s/gen/seeds.txt", argc > 3 ? argv[3] : "vectors/ete");
		gen = roundtrip_gen_seeds(outdir, seeds);
		written = roundtrip_random_seeds(outdir);
		printf("seedgen: ete_roundtrip: %d seeds of %s, %d synthetic seeds in %s\n", gen, seeds, written, outdir);
		return 0;
	}
	return vector_seeds(kind, outdir, argc, argv);
}
