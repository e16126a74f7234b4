/* tracecert/encoder.h — the random ETE encoder: a trace-unit model that produces a program, an
 * execution of it, the byte stream, and the ground truth at L1 and L3. */
#ifndef TRACECERT_ENCODER_H
#define TRACECERT_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/ete.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to generate. tc_enc_options_default() sets every field. */
struct tc_enc_options {
	uint64_t seed;
	int random_config;      /* 1: maxspec, commopt, commtrans, retstack, wfxmode chosen from the seed */
	struct tc_ete_config cfg;   /* used when random_config is 0 */
	unsigned steps;         /* execution steps (blocks executed), 1..100000 */
	unsigned blocks;        /* basic blocks in the program, 4..4096 */
};

void tc_enc_options_default(struct tc_enc_options *o);

/* A generated vector: configuration, program image, trace, truth. */
struct tc_enc_vector {
	struct tc_ete_config cfg;
	uint64_t image_base;
	uint8_t *image;
	size_t image_len;
	uint8_t *trace;
	size_t trace_len;
	char *l1;               /* expected L1 lines, '\n'-separated, FORMAT.md */
	char *l3;               /* expected L3 lines */
	char *tags;             /* feature tags */
	uint32_t *variants;     /* hit counts per variant (tc_enc_variant_count()) */
};

/* Generates one vector. Returns 0, or -1 with a message in err for impossible
 * options (steps or blocks out of range, maxspec over 65535). */
int tc_enc_generate(const struct tc_enc_options *o, struct tc_enc_vector *v, char *err, size_t errlen);
void tc_enc_vector_free(struct tc_enc_vector *v);

/* The vector as .tcv text (vectors/README.md), malloc'd; title goes into
 * the leading comment. NULL when memory is short. */
char *tc_enc_tcv_text(const struct tc_enc_vector *v, const char *title);

/* The encoding variants the encoder counts (encoder/variants.txt, one name
 * per line), in that file's order. */
int tc_enc_variant_count(void);
const char *tc_enc_variant_name(int i);

#ifdef __cplusplus
}
#endif

#endif
