/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/encoder_rvtrace.h — the random RISC-V processor trace 0.026 encoder: a program, an execution,
 * the instruction-trace encoder of chapter 5 over its retired instructions, the bytes and the truth. */
/* It makes a random RV32 or RV64 program (with or without C) with its own
 * instruction encoder, runs it (branches, jal, jalr with and without an
 * auipc before it, returns, ecall and interrupts with their handler and
 * mret, privilege and context changes, qualification gaps), applies the
 * decisions of Figure 5.1 (reference/rvtrace/README.md "Encoder") to each
 * retired instruction and writes the frames of reference/rvtrace/FORMAT.md,
 * with the expected L1 and L3 text. */
#ifndef TRACECERT_ENCODER_RVTRACE_H
#define TRACECERT_ENCODER_RVTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder.h"   /* struct tc_enc_region, TC_ENC_MAX_REGIONS */
#include "tracecert/rvtrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to generate. rvenc_options_default() sets every field. */
struct rvenc_options {
	uint64_t seed;
	int random_config;             /* 1: the configuration is chosen from the seed */
	struct tc_rvtrace_config cfg;  /* used when random_config is 0 */
	unsigned steps;                /* retired instructions, 1..100000 */
	unsigned blocks;               /* basic blocks in the program, 4..4096 */
	const uint8_t *entropy;        /* perturbs the first entropy_len draws (tracecert/encoder.h) */
	size_t entropy_len;
};

void rvenc_options_default(struct rvenc_options *o);

/* A generated vector. */
struct rvenc_vector {
	struct tc_rvtrace_config cfg;
	struct tc_enc_region region[TC_ENC_MAX_REGIONS];
	int nregions;
	uint8_t *trace;
	size_t trace_len;
	char *l1;                      /* expected L1 lines (tc_rvtrace_format_packet) */
	char *l3;                      /* expected L3 lines (tc_l3_format) */
	char *tags;
	uint32_t *variants;            /* hits per variant (rvenc_variant_count()) */
	unsigned extra_packets;        /* packets sent only to avoid an early stop of the walk (RV-E1) */
	unsigned long qualified;       /* qualified instructions executed: the L3 ranges hold each once */
};

/* Generates one vector: 0, or -1 with a message in err. The same options give the same vector. */
int rvenc_generate(const struct rvenc_options *o, struct rvenc_vector *v, char *err, size_t errlen);
void rvenc_vector_free(struct rvenc_vector *v);

/* The variants of encoder/rvtrace/variants.txt, sorted by name. */
int rvenc_variant_count(void);
const char *rvenc_variant_name(int i);

/* The encoder's entry (tracecert/encoder.h); in tc_encoders[] once rvtrace is in PROTOCOLS. */
extern const struct tc_encoder tc_encoder_rvtrace;

#ifdef __cplusplus
}
#endif

#endif
