/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/encoder_etmv3.h — the random ETMv3 encoder: a program, an execution, the trace, the L1 and L3 truth. */
/* An ETMv3 trace-unit model (ARM IHI 0014 chapter 7, as reference/etmv3/ERRATA.md
 * decides it): it makes a random A32/T32 program, runs it, and writes the byte
 * stream an ETMv3.0 .. ETMv3.5 macrocell would, with the ground truth. */
#ifndef TRACECERT_ENCODER_ETMV3_H
#define TRACECERT_ENCODER_ETMV3_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder.h"   /* struct tc_enc_region, TC_ENC_MAX_REGIONS */
#include "tracecert/etmv3.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to generate. tc_enc_etmv3_options_default() sets every field. */
struct tc_enc_etmv3_options {
	uint64_t seed;
	int random_config;            /* 1: every configuration field chosen from the seed */
	struct tc_etmv3_config cfg;   /* used when random_config is 0 (it must pass tc_etmv3_config_check) */
	unsigned steps;               /* execution steps (basic blocks run, mostly), 1..100000 */
	unsigned blocks;              /* basic blocks in the program, 4..4096 */
	/* Caller-supplied random choices (the structure-aware fuzz harness
	 * fuzz/roundtrip.c, through tc_enc_request.entropy of
	 * tracecert/encoder.h): each draw consumes the next byte, which
	 * perturbs it; after the last byte the seed alone decides. NULL or
	 * entropy_len 0 (the default): the seed alone. Not copied. */
	const uint8_t *entropy;
	size_t entropy_len;
	/* Called with each record of the L1 truth as it is formatted into
	 * tc_enc_etmv3_vector.l1, in order (reference/test/unit_l1text.c: the
	 * records the L1 parser must give back). NULL (the default): not called. */
	void (*l1_record)(void *ctx, const struct tc_etmv3_packet *p);
	void *l1_ctx;
};

void tc_enc_etmv3_options_default(struct tc_enc_etmv3_options *o);

/* A generated ETMv3 vector: configuration, program image, trace, truth. */
struct tc_enc_etmv3_vector {
	struct tc_etmv3_config cfg;
	struct tc_enc_region region[TC_ENC_MAX_REGIONS];   /* the program image: A32 or T32 code by region */
	int nregions;
	uint8_t *trace;
	size_t trace_len;
	char *l1;                     /* expected L1 lines, '\n'-separated (tc_etmv3_format_packet) */
	char *l3;                     /* expected L3 lines (tc_l3_format) */
	char *tags;                   /* feature tags, blank-separated */
	uint32_t *variants;           /* hit counts per variant (tc_enc_etmv3_variant_count()) */
};

/* Generates one vector. Returns 0, or -1 with a message in err (when err
 * is not NULL) for impossible options (NULL, steps or blocks out of range,
 * a fixed configuration the decoder refuses) or when memory is short. On
 * -1, *v holds nothing to free. The same options give the same vector. */
int tc_enc_etmv3_generate(const struct tc_enc_etmv3_options *o, struct tc_enc_etmv3_vector *v, char *err,
			  size_t errlen);
void tc_enc_etmv3_vector_free(struct tc_enc_etmv3_vector *v);

/* The encoding variants the ETMv3 encoder counts (encoder/etmv3/variants.txt,
 * one name per line), sorted by name. */
int tc_enc_etmv3_variant_count(void);
const char *tc_enc_etmv3_variant_name(int i);

#ifdef __cplusplus
}
#endif

#endif
