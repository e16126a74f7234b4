/* SPDX-License-Identifier: BSD-3-Clause */
/* seedgen.c — seed corpora for the fuzz harnesses in the layouts of fuzz.h: each vector's [trace] behind the header that harness expects.
 *
 * Usage: seedgen HARNESS OUTDIR PATH...
 *   PATH: .tcv files or folders searched recursively (conformance/vector.c).
 * Writes OUTDIR/<vector path with '/' → '_'>.bin, one per vector (OSS-Fuzz
 * layout: build/fuzz/HARNESS_seed_corpus/), the configuration encoded
 * through the descriptor's key table (fuzz.h tc_fuzz_proto_config_encode);
 * a key the layout cannot represent exactly is approximated and counted.
 *
 * A protocol's harnesses P_stream, P_parse, P_decode, P_diff (fuzz/fuzz.mk
 * FUZZ_PROTO_HARNESSES): PATH is vectors/P; one seed per vector of protocol
 * P in the layout of fuzz.h "A protocol's harnesses". P_asm: the vector's configuration, then the
 * text asm takes (its cycle lines, then its L1 lines). P_l1text: one seed per
 * vector of P, its L1 lines (the text fuzz/l1text.c parses). P_roundtrip: one seed
 * per line of PATH/gen/seeds.txt (seeds 1-64 when there is none) with no
 * entropy, plus synthetic headers with entropy. adapter: every vector of
 * every protocol behind its protocol byte; csframe: synthetic frames;
 * snapini: the .ini files of the folders given. A protocol whose harnesses
 * have layouts of their own writes their seeds with fuzz/P/seedgen.c.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cyclecap.h"
#include "seeds.h"
#include "vector.h"

/* ---- A protocol's harnesses P_KIND (the layouts of fuzz.h) ------------------ */

/* P_l1text: the vector's L1 lines ([expect.l1] and its alternative readings), one a line. */
static void put_l1_lines(const struct tc_vector *v, struct tc_seed_buf *b)
{
	for (int a = -1; a < v->nalts; a++) {
		const struct tc_lines *l = a < 0 ? &v->expect[tc_sec_l1] : &v->alt[a].lines;
		if (a >= 0 && v->alt[a].sec != tc_sec_l1)
			continue;
		for (size_t i = 0; i < l->n; i++) {
			tc_seed_put(b, l->line[i], strlen(l->line[i]));
			tc_seed_put8(b, '\n');
		}
	}
}

/* P_asm: a per-cycle protocol's cycle lines of the trace (reference/cyclecap.h, as dump --cycles
 * writes them), before its L1 lines; each line ended by '\n'. */
static void put_cycle_line(void *ctx, const struct tc_cyclecap_line *l)
{
	char line[200];
	int n = tc_cyclecap_format_line(line, sizeof line, l);
	tc_seed_put(ctx, line, (size_t)n);
	tc_seed_put8(ctx, '\n');
}

static void put_cycle_lines(const struct tc_vector *v, struct tc_seed_buf *b)
{
	const struct tc_sample_format *f = v->proto->sample;
	struct tc_cyclecap_params params = { f->major, f->max_minor, f->status_bits, f->has_sync };
	struct tc_cyclecap_echo e;
	size_t at = 0;
	tc_cyclecap_echo_init(&e, &params, put_cycle_line, b);
	while (at < v->trace_len)
		at += tc_cyclecap_echo_step(&e, v->trace + at, v->trace_len - at);
	tc_cyclecap_echo_finish(&e);
}

/* P_stream, P_diff, P_decode, P_parse: the vector's configuration, then per
 * kind the chunking byte; the adapter's chunking (0: whole); flags,
 * chunking and image regions; nothing. P_l1text: the L1 lines alone. */
static int proto_from_vector(const char *kind, const char *path, const struct tc_vector *v, struct tc_seed_buf *b)
{
	uint8_t keys[TC_CONFIG_KEYS_MAX];
	int approx;
	if (!strcmp(kind, "l1text")) {
		put_l1_lines(v, b);
		return 0;
	}
	approx = tc_fuzz_proto_config_encode(v->proto, v->config, keys) != 0;
	tc_seed_put(b, keys, (size_t)v->proto->nkeys);
	if (!strcmp(kind, "asm")) {   /* the text asm takes: the L1 lines, after a sample file's cycle lines */
		if (v->proto->sample)
			put_cycle_lines(v, b);
		put_l1_lines(v, b);
		return approx;
	}
	if (!strcmp(kind, "stream")) {
		tc_seed_put8(b, tc_seed_name_byte(path));
	} else if (!strcmp(kind, "diff")) {
		tc_seed_put8(b, 0);   /* the adapter fed whole */
	} else if (!strcmp(kind, "decode")) {
		struct tc_image img;
		int nreg;
		tc_seed_merge_regions(&v->image, &img);
		nreg = img.n < 7 ? img.n : 7;
		tc_seed_put8(b, (uint8_t)(0x80 | nreg));   /* regions, streaming check */
		tc_seed_put8(b, tc_seed_name_byte(path));
		approx |= tc_seed_put_regions(b, &img, nreg);
		tc_image_free(&img);
	} else if (strcmp(kind, "parse")) {
		return -2;
	}
	tc_seed_put(b, v->trace, v->trace_len);
	return approx;
}

/* P_roundtrip: keys[nkeys] flags steps blocks chunking seed[4], then entropy. */
static void put_proto_roundtrip_header(struct tc_seed_buf *b, const uint8_t *keys, int nkeys, uint8_t flags, uint8_t steps,
				       uint8_t blocks, uint8_t chunking, uint32_t seed)
{
	tc_seed_put(b, keys, (size_t)nkeys);
	tc_seed_put8(b, flags);
	tc_seed_put8(b, steps);
	tc_seed_put8(b, blocks);
	tc_seed_put8(b, chunking);
	tc_seed_put16(b, (uint16_t)seed);
	tc_seed_put16(b, (uint16_t)(seed >> 16));
}

/* The seeds of dir/gen/seeds.txt, else 1-64, with no entropy: the encoder's
 * random configuration, 60 steps, 32 blocks (as `make vectors` does). */
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
	tc_config_default(proto, cfg);
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
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[64];
		put_proto_roundtrip_header(&b, keys, proto->nkeys, 1, 0xf5 /* 60 steps */, 32 - 4,
					   (uint8_t)(seeds[i] * 37), (uint32_t)seeds[i]);
		snprintf(name, sizeof name, "gen-%lu.bin", seeds[i]);
		written += tc_seed_write(outdir, name, &b) == 0;
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
		struct tc_seed_buf b = { NULL, 0, 0 };
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
			tc_seed_put8(&b, (uint8_t)(x >> 24));
		}
		snprintf(name, sizeof name, "random-%02d.bin", i);
		written += tc_seed_write(outdir, name, &b) == 0;
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
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[1024];
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
			tc_seed_file_name(list[i], name, sizeof name);
			written += tc_seed_write(outdir, name, &b) == 0;
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

/* ---- adapter: every protocol's vectors ------------------------------------------ */

/* Index of p in tc_protocols[] (the adapter harness's protocol byte). */
static int protocol_index(const struct tc_protocol *p)
{
	int i = 0;
	while (tc_protocols[i] && tc_protocols[i] != p)
		i++;
	return i;
}

/* protocol[1] keys[n] flags[1] chunking[1] regions… trace (fuzz/adapter.c). */
static int adapter_from_vector(const char *path, const struct tc_vector *v, struct tc_seed_buf *b)
{
	uint8_t keys[TC_CONFIG_KEYS_MAX];
	int approx = tc_fuzz_proto_config_encode(v->proto, v->config, keys) != 0, nreg;
	struct tc_image img;
	tc_seed_merge_regions(&v->image, &img);
	nreg = img.n < 7 ? img.n : 7;
	tc_seed_put8(b, (uint8_t)protocol_index(v->proto));
	tc_seed_put(b, keys, (size_t)v->proto->nkeys);
	tc_seed_put8(b, (uint8_t)(1 | (v->has[tc_sec_l3] ? 2 : 0) | nreg << 2));   /* L1, L3 if expected, regions */
	tc_seed_put8(b, tc_seed_name_byte(path));
	approx |= tc_seed_put_regions(b, &img, nreg);
	tc_image_free(&img);
	tc_seed_put(b, v->trace, v->trace_len);
	return approx;
}

static int adapter_seeds(const char *outdir, int argc, char **argv)
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
		if (tc_vector_load(list[i], &v, err, sizeof err)) {
			fprintf(stderr, "seedgen: %s: %s\n", list[i], err);
			bad++;
		} else {
			approx += adapter_from_vector(list[i], &v, &b);
			tc_seed_file_name(list[i], name, sizeof name);
			written += tc_seed_write(outdir, name, &b) == 0;
			tc_vector_free(&v);
		}
		free(b.p);
		free(list[i]);
	}
	free(list);
	printf("seedgen: adapter: %d seeds in %s (%d with an approximated field, %d vectors unreadable)\n", written,
	       outdir, approx, bad);
	return bad ? 1 : 0;
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
		struct tc_seed_buf b = { NULL, 0, 0 };
		char name[32];
		tc_seed_put8(&b, (uint8_t)(k * 0x45 + 3));
		tc_seed_put(&b, frames, sizeof frames - k * 20);
		snprintf(name, sizeof name, "frames-%u.bin", k);
		written += tc_seed_write(outdir, name, &b) == 0;
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
			struct tc_seed_buf b = { NULL, 0, 0 };
			if (len < 5 || strcmp(de->d_name + len - 4, ".ini"))
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i], de->d_name);
			text = tc_image_read_file(path, &n);
			if (!text)
				continue;
			tc_seed_put(&b, text, n);
			written += tc_seed_write(outdir, de->d_name, &b) == 0;
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
	if (argc < 3) {
		fprintf(stderr, "usage: seedgen HARNESS OUTDIR PATH...\n");
		return 2;
	}
	harness = argv[1];
	outdir = argv[2];
	mkdir(outdir, 0777);
	if (!strcmp(harness, "adapter"))   /* PATH...: vectors of any protocol */
		return adapter_seeds(outdir, argc, argv);
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
	fprintf(stderr, "seedgen: unknown harness '%s'\n", harness);
	return 2;
}
