/* seedgen.c — seed corpora for the fuzz harnesses from the vectors: each vector's [trace] behind the header that harness expects.
 *
 * Usage: seedgen HARNESS OUTDIR PATH...
 *   PATH: .tcv files or folders searched recursively (conformance/vector.c).
 * Writes OUTDIR/<vector path with '/' → '_'>.bin, one per vector (OSS-Fuzz
 * layout: build/fuzz/HARNESS_seed_corpus/). The header carries the vector's
 * own configuration (fuzz.h tc_fuzz_config_encode) and, for decode and
 * adapter, its image regions (decode also gets the same seed with the
 * regions as an ELF file); a field the header cannot represent exactly is
 * approximated and counted in the summary. Automatic queue sizes become the
 * harnesses' cheap ones when the vector decodes the same with them. decode also gets one seed per
 * ELF file in reference/test/data (the ELF reader path), format a few
 * synthetic seeds. roundtrip takes no vectors: PATH is the seed list of
 * vectors/ete/gen (one seed each, no entropy: that generated vector), plus
 * synthetic headers with pseudo-random entropy.
 *
 * A protocol's harnesses P_stream, P_parse, P_decode (fuzz/fuzz.mk
 * FUZZ_PROTO_HARNESSES): PATH is vectors/P; one seed per vector of protocol
 * P in the layout of fuzz.h "A protocol's harnesses", the configuration
 * through the descriptor's keys. P_roundtrip: one seed per line of
 * PATH/gen/seeds.txt (seeds 1-64 when there is none) with no entropy, plus
 * synthetic headers with entropy.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "vector.h"

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *p, size_t n)
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

static void put8(struct buf *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put16(struct buf *b, uint16_t v)
{
	put8(b, (uint8_t)v);
	put8(b, (uint8_t)(v >> 8));
}

static int write_file(const char *dir, const char *name, const struct buf *b)
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
static int put_regions(struct buf *b, const struct tc_image *img, int n)
{
	int approx = 0;
	for (int i = 0; i < n; i++) {
		const struct tc_image_region *r = &img->region[i];
		size_t len = r->size > 0xffff ? 0xffff : (size_t)r->size;
		uint32_t sel = 0;
		if (len != r->size || tc_fuzz_base_encode(r->base, len, &sel))
			approx = 1;
		put16(b, (uint16_t)sel);
		put16(b, (uint16_t)(sel >> 16));
		put16(b, (uint16_t)len);
		put(b, r->data, len);
	}
	return approx || img->n > n;
}

/* Vectors often split one program into adjacent [image] sections: merge
 * contiguous regions (the image keeps them sorted by base) so that up to 7
 * fit the harness header. */
static void merge_regions(const struct tc_image *in, struct tc_image *out)
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

static uint8_t name_byte(const char *s)
{
	return (uint8_t)tc_fuzz_hash_bytes((const uint8_t *)s, strlen(s));
}

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

/* The vector's configuration with the harness's cheap queue sizes (fuzz.h)
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

static int from_vector(const char *harness, const char *path, const struct tc_vector *v, struct buf *b)
{
	uint8_t hdr[TC_FUZZ_CFG_BYTES];
	struct tc_ete_config cfg = cheap_config(v);
	int approx = tc_fuzz_config_encode(&cfg, hdr) != 0, nreg;
	struct tc_image img;
	uint8_t walk = ((const struct tc_ete_config *)v->config)->walk_limit <= 255 ? (uint8_t)((const struct tc_ete_config *)v->config)->walk_limit : 0;
	if (((const struct tc_ete_config *)v->config)->walk_limit > 255)
		approx = 1;
	merge_regions(&v->image, &img);
	nreg = img.n < 7 ? img.n : 7;
	put(b, hdr, sizeof hdr);
	if (!strcmp(harness, "parse")) {
		put8(b, name_byte(path));
	} else if (!strcmp(harness, "diff")) {
		put8(b, 0);                                   /* adapter fed whole */
	} else if (!strcmp(harness, "decode")) {
		put8(b, (uint8_t)(0x80 | nreg));              /* regions, streaming check */
		put8(b, walk);
		put8(b, name_byte(path));
		approx |= put_regions(b, &img, nreg);
	} else if (!strcmp(harness, "adapter")) {
		put8(b, (uint8_t)(1 | (v->has[tc_sec_l3] ? 2 : 0) | nreg << 2));
		put8(b, walk);
		put8(b, name_byte(path));
		approx |= put_regions(b, &img, nreg);
	} else {
		tc_image_free(&img);
		return -2;
	}
	tc_image_free(&img);
	put(b, v->trace, v->trace_len);
	return approx;
}

/* ---- A protocol's harnesses P_KIND (the layouts of fuzz.h) ------------------ */

/* P_stream, P_parse, P_decode: the vector's configuration, then per kind
 * the chunking byte; flags, chunking and image regions; nothing. */
static int proto_from_vector(const char *kind, const char *path, const struct tc_vector *v, struct buf *b)
{
	uint8_t keys[TC_CONFIG_KEYS_MAX];
	int approx = tc_fuzz_proto_config_encode(v->proto, v->config, keys) != 0;
	put(b, keys, (size_t)v->proto->nkeys);
	if (!strcmp(kind, "stream")) {
		put8(b, name_byte(path));
	} else if (!strcmp(kind, "decode")) {
		struct tc_image img;
		int nreg;
		merge_regions(&v->image, &img);
		nreg = img.n < 7 ? img.n : 7;
		put8(b, (uint8_t)(0x80 | nreg));   /* regions, streaming check */
		put8(b, name_byte(path));
		approx |= put_regions(b, &img, nreg);
		tc_image_free(&img);
	} else if (strcmp(kind, "parse")) {
		return -2;
	}
	put(b, v->trace, v->trace_len);
	return approx;
}

/* P_roundtrip: keys[nkeys] flags steps blocks chunking seed[4], then entropy. */
static void put_proto_roundtrip_header(struct buf *b, const uint8_t *keys, int nkeys, uint8_t flags, uint8_t steps,
				       uint8_t blocks, uint8_t chunking, uint32_t seed)
{
	put(b, keys, (size_t)nkeys);
	put8(b, flags);
	put8(b, steps);
	put8(b, blocks);
	put8(b, chunking);
	put16(b, (uint16_t)seed);
	put16(b, (uint16_t)(seed >> 16));
}

/* The seeds of dir/gen/seeds.txt, else 1-64, with no entropy: the encoder's
 * random configuration, 60 steps, 32 blocks (as `make vectors` for ETE). */
static int proto_roundtrip_gen_seeds(const struct tc_protocol *proto, const char *outdir, const char *dir)
{
	uint8_t keys[TC_CONFIG_KEYS_MAX];
	unsigned long seeds[4096];
	char path[4096], line[256];
	int n = 0, written = 0;
	void *cfg = calloc(1, proto->config_size);
	FILE *f;
	if (!cfg)
		return 0;
	proto->config_default(cfg);
	tc_fuzz_proto_config_encode(proto, cfg, keys);
	free(cfg);
	snprintf(path, sizeof path, "%s/gen/seeds.txt", dir);
	f = fopen(path, "r");
	while (f && n < 4096 && fgets(line, sizeof line, f))
		if (line[0] != '#' && sscanf(line, "%lu", &seeds[n]) == 1)
			n++;
	if (f)
		fclose(f);
	if (n == 0)
		for (; n < 64; n++)
			seeds[n] = (unsigned long)n + 1;
	for (int i = 0; i < n; i++) {
		struct buf b = { NULL, 0, 0 };
		char name[64];
		put_proto_roundtrip_header(&b, keys, proto->nkeys, 1, 0xf5 /* 60 steps */, 32 - 4,
					   (uint8_t)(seeds[i] * 37), (uint32_t)seeds[i]);
		snprintf(name, sizeof name, "gen-%lu.bin", seeds[i]);
		written += write_file(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* Synthetic ones: every header byte varied, 0 to 2500 bytes of entropy. */
static int proto_roundtrip_random_seeds(const struct tc_protocol *proto, const char *outdir)
{
	static const size_t lens[6] = { 0, 8, 64, 256, 1024, 2500 };
	uint64_t x = UINT64_C(0x726f756e64747269);   /* xorshift64 state */
	int written = 0;
	for (int i = 0; i < 36; i++) {
		struct buf b = { NULL, 0, 0 };
		uint8_t keys[TC_CONFIG_KEYS_MAX], r[3];
		char name[64];
		for (int k = 0; k < proto->nkeys + 3; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (k < proto->nkeys)
				keys[k] = (uint8_t)x;
			else
				r[k - proto->nkeys] = (uint8_t)x;
		}
		put_proto_roundtrip_header(&b, keys, proto->nkeys, (uint8_t)(i & 7), r[0], r[1], r[2],
					   (uint32_t)(i + 1) * 7919u);
		for (size_t k = 0; k < lens[i % 6]; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			put8(&b, (uint8_t)(x >> 24));
		}
		snprintf(name, sizeof name, "random-%02d.bin", i);
		written += write_file(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* Every vector of proto under the paths, in the layout of kind. */
static int proto_vector_seeds(const struct tc_protocol *proto, const char *kind, const char *outdir, int argc,
			      char **argv, int *approx, int *bad)
{
	char **list = NULL, err[600];
	size_t n = 0;
	int written = 0;
	for (int i = 3; i < argc; i++)
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "seedgen: %s\n", err);
			(*bad)++;
		}
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		struct buf b = { NULL, 0, 0 };
		char err[512], name[1024];
		int rc = -3;
		if (tc_vector_load(list[i], &v, err, sizeof err)) {
			fprintf(stderr, "seedgen: %s: %s\n", list[i], err);
			++*bad;
		} else {
			if (v.proto == proto)
				rc = proto_from_vector(kind, list[i], &v, &b);
			tc_vector_free(&v);
		}
		if (rc == -2) {
			fprintf(stderr, "seedgen: unknown harness kind '%s'\n", kind);
			exit(2);
		}
		if (rc >= 0) {
			*approx += rc;
			snprintf(name, sizeof name, "%s", list[i]);
			for (char *c = name; *c; c++)
				if (*c == '/')
					*c = '_';
			snprintf(name + strlen(name) - (strlen(name) > 4 ? 4 : 0), 5, ".bin");
			written += write_file(outdir, name, &b) == 0;
		}
		free(b.p);
		free(list[i]);
	}
	free(list);
	return written;
}

/* HARNESS is P_KIND: the seeds of a protocol's harness. */
static int proto_seeds(const char *harness, const char *outdir, int argc, char **argv)
{
	char proto_name[64];
	const char *kind = strchr(harness, '_') + 1;
	const struct tc_protocol *proto;
	int approx = 0, bad = 0, written;
	snprintf(proto_name, sizeof proto_name, "%.*s", (int)(kind - 1 - harness), harness);
	proto = tc_protocol_find(proto_name);
	if (!proto) {
		fprintf(stderr, "seedgen: '%s': no protocol '%s' in this build\n", harness, proto_name);
		return 2;
	}
	if (!strcmp(kind, "roundtrip")) {
		int gen = proto_roundtrip_gen_seeds(proto, outdir, argc > 3 ? argv[3] : ".");
		written = proto_roundtrip_random_seeds(proto, outdir);
		printf("seedgen: %s: %d seeds of the encoder without entropy, %d synthetic seeds in %s\n", harness, gen,
		       written, outdir);
		return 0;
	}
	written = proto_vector_seeds(proto, kind, outdir, argc, argv, &approx, &bad);
	printf("seedgen: %s: %d seeds in %s (%d with an approximated field, %d vectors unreadable)\n", harness, written,
	       outdir, approx, bad);
	return bad ? 1 : 0;
}

static void le_put(struct buf *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		put8(b, (uint8_t)(v >> (8 * i)));
}

/* An ELF file (little endian, 32- or 64-bit) with one PT_LOAD segment per
 * region (file bytes only), as tc_image_load_elf_mem reads it. */
static void put_elf(struct buf *b, const struct tc_image_region *r, int n, int is64)
{
	size_t eh = is64 ? 64 : 52, ph = is64 ? 56 : 32, off = eh + ph * (size_t)n;
	put(b, is64 ? "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0" : "\177ELF\1\1\1\0\0\0\0\0\0\0\0\0", 16);
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
		put(b, r[i].data, (size_t)r[i].size);
}

/* A decode seed whose image is the vector's regions as an ELF file. */
static int elf_from_vector(const char *path, const struct tc_vector *v, struct buf *b)
{
	uint8_t hdr[TC_FUZZ_CFG_BYTES];
	struct tc_ete_config cfg = cheap_config(v);
	struct buf elf = { NULL, 0, 0 };
	int is64 = 0;
	if (v->image.n == 0)
		return -1;
	for (int i = 0; i < v->image.n; i++)
		if (v->image.region[i].base + v->image.region[i].size > UINT64_C(0x100000000) || (name_byte(path) & 1))
			is64 = 1;
	put_elf(&elf, v->image.region, v->image.n, is64);
	if (elf.n > 0xffff) {
		free(elf.p);
		return -1;
	}
	tc_fuzz_config_encode(&cfg, hdr);
	put(b, hdr, sizeof hdr);
	put8(b, 0x80 | 8);                            /* no raw region, an ELF file, streaming check */
	put8(b, ((const struct tc_ete_config *)v->config)->walk_limit <= 255 ? (uint8_t)((const struct tc_ete_config *)v->config)->walk_limit : 0);
	put8(b, name_byte(path));
	put16(b, (uint16_t)elf.n);
	put(b, elf.p, elf.n);
	put(b, v->trace, v->trace_len);
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
		struct buf b = { NULL, 0, 0 }, elf = { NULL, 0, 0 };
		for (int i = 0; i < e[k].n; i++) {
			r[i].base = e[k].n > 3 ? 0x1000 + 0x100 * (uint64_t)i : e[k].base[i];
			r[i].size = e[k].n > 3 ? 4 : e[k].size[i];
			r[i].data = (uint8_t *)nop;
		}
		put_elf(&elf, r, e[k].n, e[k].is64);
		put8(&b, 0);
		put8(&b, 0);
		put8(&b, 0);
		put8(&b, (uint8_t)(0x80 | 8 | (e[k].raw ? 1 : 0)));
		put8(&b, 0);
		put8(&b, 0x2f);
		if (e[k].raw) {               /* raw region [0x1000, 0x1010) */
			put16(&b, 0x1000);
			put16(&b, 0);
			put16(&b, 16);
			put(&b, nop, 16);
		}
		put16(&b, (uint16_t)elf.n);
		put(&b, elf.p, elf.n);
		put(&b, "\0\0\0\0\0\0\0\0\0\0\0\x80\x01\x00\x04\x81\x31\x9d\x00\x08\0\0\0\0\0\0\xf7\xf7", 28);
		written += write_file(outdir, e[k].name, &b) == 0;
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
		struct buf b = { NULL, 0, 0 };
		uint8_t file[65535];
		FILE *f = fopen(elf[i].file, "rb");
		size_t n;
		if (!f)
			continue;
		n = fread(file, 1, sizeof file, f);
		fclose(f);
		put8(&b, 0);          /* configuration: all 0, maxspec 0 */
		put8(&b, 0);
		put8(&b, 0);
		put8(&b, 0x80 | 8);   /* no raw region, an ELF file, streaming check */
		put8(&b, 0);          /* walk_limit automatic */
		put8(&b, 0x2f);       /* chunking */
		put16(&b, (uint16_t)n);
		put(&b, file, n);
		put(&b, async, sizeof async);
		put(&b, "\x01\x00\x04\x81", 4);   /* Trace Info, Trace On, Context */
		put8(&b, elf[i].ctx);
		put(&b, elf[i].addr, elf[i].addr_len);
		put(&b, "\xf7\xf7\xf7\xf7\xf6", 5);   /* atoms E E E E N */
		if (write_file(outdir, elf[i].name, &b) == 0)
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
		struct buf b = { NULL, 0, 0 };
		char name[32];
		uint8_t zero[96];
		memset(zero, 0, sizeof zero);
		put8(&b, (uint8_t)sel);
		put8(&b, 40);
		put(&b, zero, sizeof zero);
		snprintf(name, sizeof name, "struct-%d.bin", sel);
		written += write_file(outdir, name, &b) == 0;
		free(b.p);
	}
	for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++) {
		struct buf b = { NULL, 0, 0 };
		char name[32];
		put8(&b, 3);
		put8(&b, 0);
		put(&b, cfg[i], strlen(cfg[i]) + 1 + strlen(cfg[i] + strlen(cfg[i]) + 1));
		snprintf(name, sizeof name, "config-%zu.bin", i);
		written += write_file(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* roundtrip: header cfg[3] flags steps blocks chunking seed[4], then entropy (fuzz/roundtrip.c). */
static void put_roundtrip_header(struct buf *b, const uint8_t cfg[3], uint8_t flags, uint8_t steps, uint8_t blocks,
				 uint8_t chunking, uint32_t seed)
{
	put(b, cfg, 3);
	put8(b, flags);
	put8(b, steps);
	put8(b, blocks);
	put8(b, chunking);
	put16(b, (uint16_t)seed);
	put16(b, (uint16_t)(seed >> 16));
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
		struct buf b = { NULL, 0, 0 };
		char name[64];
		unsigned long seed;
		if (line[0] == '#' || sscanf(line, "%lu", &seed) != 1)
			continue;
		put_roundtrip_header(&b, cfg, 1, 0xf5 /* 60 steps */, 32 - 4, (uint8_t)(seed * 37), (uint32_t)seed);
		snprintf(name, sizeof name, "gen-%lu.bin", seed);
		written += write_file(outdir, name, &b) == 0;
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
		struct buf b = { NULL, 0, 0 };
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
			put8(&b, (uint8_t)(x >> 24));
		}
		snprintf(name, sizeof name, "random-%02d.bin", i);
		written += write_file(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* csframe: byte 0 the chunking, then formatted frames (as tests unit_csframe builds by hand). */
static int csframe_seeds(const char *outdir)
{
	static const uint8_t frames[] = {
		0xff, 0xff, 0xff, 0x7f,
		0x21, 0xaa, 0x54, 0x66, 0x41, 0x77, 0x02, 0x99, 0x01, 0x12, 0xfb, 0x34, 0x21, 0x31, 0x41, 0x86,
		0x08, 0x01, 0x0a, 0x03, 0x0c, 0x05, 0x0e, 0x07, 0x10, 0x09, 0x12, 0x0b, 0x14, 0x0d, 0x16, 0x01,
		0xff, 0xff, 0xff, 0x7f,
		0x23, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x00,
		0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00,
	};
	int written = 0;
	for (unsigned k = 0; k < 4; k++) {
		struct buf b = { NULL, 0, 0 };
		char name[32];
		put8(&b, (uint8_t)(k * 0x45 + 3));
		put(&b, frames, sizeof frames - k * 20);
		snprintf(name, sizeof name, "frames-%u.bin", k);
		written += write_file(outdir, name, &b) == 0;
		free(b.p);
	}
	return written;
}

/* snapini: every .ini file of the given folders, as it is. */
static int snapini_seeds(const char *outdir, int argc, char **argv)
{
	int written = 0;
	for (int i = 3; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *de;
		while (d && (de = readdir(d)) != NULL) {
			char path[4096];
			size_t len = strlen(de->d_name), n = 0;
			uint8_t *text;
			struct buf b = { NULL, 0, 0 };
			if (len < 5 || strcmp(de->d_name + len - 4, ".ini"))
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
			text = tc_image_read_file(path, &n);
			if (!text)
				continue;
			put(&b, text, n);
			written += write_file(outdir, de->d_name, &b) == 0;
			free(b.p);
			free(text);
		}
		if (d)
			closedir(d);
	}
	return written;
}

int main(int argc, char **argv)
{
	const char *harness, *outdir;
	char **list = NULL, err[600];
	size_t n = 0;
	int written = 0, approx = 0, bad = 0;
	if (argc < 3) {
		fprintf(stderr, "usage: seedgen HARNESS OUTDIR PATH...\n");
		return 2;
	}
	harness = argv[1];
	outdir = argv[2];
	mkdir(outdir, 0777);
	if (!strcmp(harness, "format")) {
		written = format_seeds(outdir);
		printf("seedgen: format: %d synthetic seeds in %s\n", written, outdir);
		return 0;
	}
	if (!strcmp(harness, "csframe")) {
		printf("seedgen: csframe: %d synthetic seeds in %s\n", csframe_seeds(outdir), outdir);
		return 0;
	}
	if (!strcmp(harness, "snapini")) {   /* PATH...: folders of .ini files */
		printf("seedgen: snapini: %d .ini files in %s\n", snapini_seeds(outdir, argc, argv), outdir);
		return 0;
	}
	if (strchr(harness, '_'))   /* a protocol's harness P_KIND; PATH: vectors/P */
		return proto_seeds(harness, outdir, argc, argv);
	if (!strcmp(harness, "roundtrip")) {   /* PATH: the seed list of vectors/ete/gen */
		int gen = roundtrip_gen_seeds(outdir, argc > 3 ? argv[3] : NULL);
		written = roundtrip_random_seeds(outdir);
		printf("seedgen: roundtrip: %d seeds of %s, %d synthetic seeds in %s\n", gen,
		       argc > 3 ? argv[3] : "(no seed list)", written, outdir);
		return 0;
	}
	for (int i = 3; i < argc; i++)
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "seedgen: %s\n", err);
			return 2;
		}
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		struct buf b = { NULL, 0, 0 };
		char err[512], name[1024];
		int rc;
		if (tc_vector_load(list[i], &v, err, sizeof err)) {
			fprintf(stderr, "seedgen: %s: %s\n", list[i], err);
			bad++;
			free(list[i]);
			continue;
		}
		if (v.proto->id != tc_proto_ete) {   /* the harnesses are ETE's */
			tc_vector_free(&v);
			free(list[i]);
			continue;
		}
		rc = from_vector(harness, list[i], &v, &b);
		if (rc == -2) {
			fprintf(stderr, "seedgen: unknown harness '%s'\n", harness);
			return 2;
		}
		if (rc && (approx < 3 || getenv("SEEDGEN_VERBOSE")))
			fprintf(stderr, "seedgen: %s: approximated (configuration, >7 separate image regions or an unencodable base)\n", list[i]);
		approx += rc;
		snprintf(name, sizeof name, "%s", list[i]);
		for (char *c = name; *c; c++)
			if (*c == '/')
				*c = '_';
		snprintf(name + strlen(name) - (strlen(name) > 4 ? 4 : 0), 5, ".bin");
		if (write_file(outdir, name, &b) == 0)
			written++;
		free(b.p);
		if (!strcmp(harness, "decode")) {
			struct buf e = { NULL, 0, 0 };
			if (elf_from_vector(list[i], &v, &e) == 0) {
				snprintf(name + strlen(name) - 4, 9, "-elf.bin");
				written += write_file(outdir, name, &e) == 0;
			}
			free(e.p);
		}
		tc_vector_free(&v);
		free(list[i]);
	}
	free(list);
	if (!strcmp(harness, "decode"))
		written += elf_seeds(outdir) + elf_edge_seeds(outdir);
	printf("seedgen: %s: %d seeds in %s (%d with an approximated field, %d vectors unreadable)\n", harness,
	       written, outdir, approx, bad);
	return bad ? 1 : 0;
}
