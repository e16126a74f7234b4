/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz.h — shared helpers of the fuzz harnesses in fuzz/: checks, input layout, hashing.
 *
 * Every harness input starts with the configuration of its protocol (one
 * byte per key of the descriptor's table, tc_fuzz_proto_config, or the
 * protocol's own header: fuzz/P/fuzz_P.h), followed by bytes the harness
 * documents; everything is derived from the input, so a corpus file replays
 * the same way under libFuzzer, AFL++ and the plain regression driver
 * (fuzz/regress_main.c). No state survives between inputs except what only
 * affects files written for a human (the diff harness's de-duplication).
 */
#ifndef TC_FUZZ_H
#define TC_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/image.h"
#include "tracecert/protocol.h"

/* Aborts with file, line and message whatever NDEBUG says. */
#define TC_FUZZ_CHECK(cond, ...)                                              \
	do {                                                                  \
		if (!(cond))                                                  \
			tc_fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__); \
	} while (0)

_Noreturn void tc_fuzz_fail(const char *file, int line, const char *expr, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* Set by the plain regression driver: harnesses write no finding files and
 * a missing adapter makes their init fail instead of exiting. */
extern int tc_fuzz_regress_mode;

/* The file NAME in the folder of the running executable (/proc/self/exe), written to buf;
 * NULL when that folder cannot be found or the path does not fit. The adapter and diff
 * harnesses of an OSS-Fuzz build find their adapter there (fuzz/oss-fuzz.mk: lib/ beside them),
 * where no environment variable can be set. */
const char *tc_fuzz_beside_exe(const char *name, char *buf, size_t size);

/* ---- Input reader: reads past the end give zeros ---------------------- */

struct tc_fuzz_in {
	const uint8_t *p;
	size_t n;
};

uint8_t tc_fuzz_u8(struct tc_fuzz_in *in);
uint16_t tc_fuzz_u16(struct tc_fuzz_in *in);   /* little endian */
uint32_t tc_fuzz_u32(struct tc_fuzz_in *in);
/* Up to want bytes (fewer at the end of the input); *got says how many. */
const uint8_t *tc_fuzz_bytes(struct tc_fuzz_in *in, size_t want, size_t *got);

/* ---- A protocol's configuration from the input (harnesses P_NAME) ---- */

/* One byte per key of proto->keys (proto->nkeys bytes, in table order),
 * applied over tc_config_default with tc_config_set. For a key whose max is
 * below 255 the value is b % (max + 1), every value of its range, the ones
 * config_check refuses included (a harness then checks that alloc refuses
 * the configuration too). Otherwise b < 0xe0 is the value b and b >= 0xe0
 * one of 32 boundary values: max, max - 1, and 2^k and 2^k - 1 for k =
 * 8..22, each cut to max. cfg holds proto->config_size bytes. */
void tc_fuzz_proto_config(const struct tc_protocol *proto, struct tc_fuzz_in *in, void *cfg);

/* The inverse, for seed corpora: writes proto->nkeys bytes; 0 when cfg is
 * represented exactly, -1 when some key was approximated. */
int tc_fuzz_proto_config_encode(const struct tc_protocol *proto, const void *cfg, uint8_t *out);

/* A protocol's harnesses (fuzz/fuzz.mk FUZZ_PROTO_HARNESSES) and their
 * inputs, keys[n] being the n = proto->nkeys configuration bytes above
 * (fuzz/seedgen.c writes these layouts):
 *   P_stream     keys[n] chunking[1] trace                       (fuzz/stream.c)
 *   P_parse      keys[n] trace                                   (fuzz/P/parse.c)
 *   P_decode     keys[n] flags[1] chunking[1] regions… trace     (fuzz/P/decode.c)
 *   P_roundtrip  keys[n] flags[1] steps[1] blocks[1] chunking[1] seed[4] entropy
 *                                                                (fuzz/roundtrip.c)
 *   P_l1text     L1 text lines, no configuration                 (fuzz/l1text.c) */

/* ---- Program images from the input (decode and adapter harnesses) ----- */

/* A region is: base selector (u32), length (u16, cut to what is left),
 * bytes. Selector bits 31:30 choose, v = bits 29:0, w = bits 28:0:
 *   0 → v; 1 → v << 20;
 *   2 → 0xffff000000000000 + (w << 12), or with bit 29 0xffff800000000000 + (w << 12);
 *   3 → 2^64 − len − w, or with bit 29 2^32 − len − w (w = 0: the region
 *       ends exactly at the top of the 64- or 32-bit space); without bit 29
 *       and with bit 28, 2^64 − len + (w & 0x0fffffff): past the top (wraps). */
uint64_t tc_fuzz_base(uint32_t sel, size_t len);
int tc_fuzz_base_encode(uint64_t base, size_t len, uint32_t *sel);

/* Reads nregions regions into img with tc_image_add, checking its contract
 * (on error nothing is added). Returns the number of image bytes read. */
size_t tc_fuzz_read_regions(struct tc_fuzz_in *in, int nregions, struct tc_image *img);

/* Checks the image invariants: 0 ≤ n ≤ cap, regions sorted by base, no
 * empty or overlapping or wrapping region, lookup() agrees with every region. */
void tc_fuzz_check_image(const struct tc_image *img);

/* ---- Chunking ---------------------------------------------------------- */

/* Chunk sizes from one input byte: bits 2:0 pick the largest chunk (1, 2,
 * 3, 5, 8, 16, 40, 256), bits 7:3 seed the sequence. */
struct tc_fuzz_chunks {
	uint32_t state;
	uint32_t max;
};

void tc_fuzz_chunks_init(struct tc_fuzz_chunks *c, uint8_t seed);
size_t tc_fuzz_chunk_next(struct tc_fuzz_chunks *c, size_t remaining);

/* ---- Formatted lines, hashing ------------------------------------------- */

#define TC_FUZZ_LINE 512   /* longest formatted item a harness accepts */

/* A running hash of a stream of items (decode.c hash_l3). */
struct tc_fuzz_hash {
	uint64_t h;
	uint64_t n;              /* items */
};

uint64_t tc_fuzz_hash_bytes(const uint8_t *p, size_t n);

#endif
