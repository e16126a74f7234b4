/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/encoder_ptm.h — the random PFT/PTM encoder: a program, an execution, the trace, the L1 and L3 truth. */
/* A PTM trace-unit model: it makes a random A32/T32 program, runs it, and
 * writes the byte stream a PTM would, with the ground truth. */
#ifndef TRACECERT_ENCODER_PTM_H
#define TRACECERT_ENCODER_PTM_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder.h"   /* struct tc_enc_region, TC_ENC_MAX_REGIONS */
#include "tracecert/ptm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What to generate. tc_enc_ptm_options_default() sets every field. */
struct tc_enc_ptm_options {
	uint64_t seed;
	int random_config;          /* 1: every configuration field chosen from the seed */
	struct tc_ptm_config cfg;   /* used when random_config is 0 (walk_limit is ignored) */
	unsigned steps;             /* execution steps (waypoints reached, mostly), 1..100000 */
	unsigned blocks;            /* basic blocks in the program, 4..4096 */
	/* Caller-supplied random choices (the structure-aware fuzz harness
	 * fuzz/roundtrip.c, through tc_enc_request.entropy of
	 * tracecert/encoder.h): each draw consumes the next byte, which perturbs
	 * it; after the last byte the seed alone decides. NULL or entropy_len 0
	 * (the default): the seed alone. Not copied. */
	const uint8_t *entropy;
	size_t entropy_len;
	/* Called with each record of the L1 truth as it is formatted into
	 * tc_enc_ptm_vector.l1, in order (reference/test/unit_l1text.c: the
	 * records the L1 parser must give back). NULL (the default): not called. */
	void (*l1_record)(void *ctx, const struct tc_ptm_packet *p);
	void *l1_ctx;
};

void tc_enc_ptm_options_default(struct tc_enc_ptm_options *o);

/* A generated PTM vector: configuration, program image, trace, truth. */
struct tc_enc_ptm_vector {
	struct tc_ptm_config cfg;
	struct tc_enc_region region[TC_ENC_MAX_REGIONS];   /* the program image: A32 or T32 code by region */
	int nregions;
	uint8_t *trace;
	size_t trace_len;
	char *l1;                   /* expected L1 lines, '\n'-separated (tc_ptm_format_packet) */
	char *l3;                   /* expected L3 lines (tc_l3_format) */
	char *tags;                 /* feature tags, blank-separated */
	uint32_t *variants;         /* hit counts per variant (tc_enc_ptm_variant_count()) */
};

/* Generates one vector. Returns 0, or -1 with a message in err (when err
 * is not NULL) for impossible options (NULL, steps or blocks out of range,
 * an invalid fixed configuration) or when memory is short. On -1, *v holds
 * nothing to free. The same options give the same vector. */
int tc_enc_ptm_generate(const struct tc_enc_ptm_options *o, struct tc_enc_ptm_vector *v, char *err,
			size_t errlen);
void tc_enc_ptm_vector_free(struct tc_enc_ptm_vector *v);

/* The encoding variants the PTM encoder counts (encoder/ptm/variants.txt,
 * one name per line), sorted by name. */
int tc_enc_ptm_variant_count(void);
const char *tc_enc_ptm_variant_name(int i);

/* ---- Packets one at a time ---------------------------------------------------
 * The encoder's packet layer on its own, for a program that lays out a trace of
 * its own design (tools/vecgen/ptm_insn.c): each call writes one packet through
 * the writers tc_enc_ptm_generate uses (bytes chosen among the valid encodings by
 * the seed, address compression against the encoder's own LastState), records
 * its L1 line and returns the packet's offset. No program, no execution, no L3
 * truth. cfg must be valid and not cycle-accurate; the trace unit is in Secure
 * state, not Hyp, context ID 0. tc_enc_ptm_packets_new returns NULL when cfg is
 * refused or memory is short. */
struct tc_enc_ptm_packets;
struct tc_enc_ptm_packets *tc_enc_ptm_packets_new(const struct tc_ptm_config *cfg, uint64_t seed);
void tc_enc_ptm_packets_free(struct tc_enc_ptm_packets *w);
uint64_t tc_enc_ptm_packets_async(struct tc_enc_ptm_packets *w);
/* I-sync at address in isa (enum tc_ptm_isa) for reason (0 periodic, 1 trace enabled, …). */
uint64_t tc_enc_ptm_packets_isync(struct tc_enc_ptm_packets *w, uint32_t address, int isa, int reason);
/* Branch address packet without exception information. */
uint64_t tc_enc_ptm_packets_branch(struct tc_enc_ptm_packets *w, uint32_t address, int isa);
/* One atom (taken: E, else N) in an atom packet of its own. */
uint64_t tc_enc_ptm_packets_atom(struct tc_enc_ptm_packets *w, int taken);
/* What was written: the bytes (*len of them) and the L1 lines ('\n'-separated). */
const uint8_t *tc_enc_ptm_packets_trace(const struct tc_enc_ptm_packets *w, size_t *len);
const char *tc_enc_ptm_packets_l1(const struct tc_enc_ptm_packets *w);

#ifdef __cplusplus
}
#endif

#endif
