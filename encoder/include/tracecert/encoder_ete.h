/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/encoder_ete.h — the random ETE encoder: a trace-unit model that produces a program, an
 * execution of it, the byte stream, and the ground truth at L1 and L3. */
#ifndef TRACECERT_ENCODER_ETE_H
#define TRACECERT_ENCODER_ETE_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder.h"   /* struct tc_enc_region, TC_ENC_MAX_REGIONS, struct tc_enc_result */
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
	/* Caller-supplied random choices (the structure-aware fuzz harness
	 * fuzz/ete/roundtrip.c; tc_enc_request.entropy of tracecert/encoder.h
	 * through the encoder's entry): when entropy is not NULL, each random draw of the
	 * generation consumes the next byte of entropy[0..entropy_len-1], which
	 * perturbs that draw (XORed into splitmix64's input before the mix: a
	 * byte picks one of 256 well-spread values, 0 leaves the draw as the
	 * seed makes it, and the draws after it are the seed's own); once the
	 * bytes are used up, draws continue from splitmix64 seeded by seed.
	 * One byte a draw, not eight: a generation makes about 20 draws per
	 * block of the program, about 1000 in all for 60 steps of 32 blocks
	 * and 2500 for 200 steps of 64, so a few kilobytes steer all of it.
	 * NULL (the default) or
	 * entropy_len 0: the seed alone decides, as before. Only
	 * tc_enc_generate's draws use it (tc_enc_make_negative's choice of
	 * corruption does not). Not copied: the bytes must outlive the call. */
	const uint8_t *entropy;
	size_t entropy_len;
	/* Called with each record of the L1 truth as it is formatted into
	 * tc_enc_vector.l1, in order (reference/test/unit_l1text.c: the records
	 * the L1 parser must give back). NULL (the default): not called. */
	void (*l1_record)(void *ctx, const struct tc_ete_packet *p);
	void *l1_ctx;
};

void tc_enc_options_default(struct tc_enc_options *o);

/* A generated vector: configuration, program image, trace, truth. */
struct tc_enc_vector {
	struct tc_ete_config cfg;
	struct tc_enc_region region[TC_ENC_MAX_REGIONS];   /* the program image, by address: A64, A32 or
							     * T32 code (the execution-state and ISA of
							     * each region is in the trace) */
	int nregions;
	uint8_t *trace;
	size_t trace_len;
	char *l1;               /* expected L1 lines, '\n'-separated, FORMAT.md */
	char *l3;               /* expected L3 lines */
	char *tags;             /* feature tags */
	uint32_t *variants;     /* hit counts per variant (tc_enc_variant_count()) */
	char *error;            /* negative vector: the [error] lines (CLASS OFFSET); NULL otherwise */
	char *note;             /* negative vector: what was corrupted ('\n'-separated comment lines) */
};

/* Generates one vector. Returns 0, or -1 with a message in err for impossible
 * options (steps or blocks out of range, maxspec over 65535). */
int tc_enc_generate(const struct tc_enc_options *o, struct tc_enc_vector *v, char *err, size_t errlen);
void tc_enc_vector_free(struct tc_enc_vector *v);

/* Negative vectors: a generated vector with ONE deliberate corruption, and
 * the truth the encoder knows from its own record of the packets it wrote
 * (the L1 records its L1 lines are written from: offset, header, kind): the
 * expected L1 (the packets before the corrupted one, the error, then, for
 * every kind but truncation, the packets from the A-sync where the decoder
 * resynchronises, which is always followed by a Trace Info) and the error
 * (class and offset). No [expect.l3]: the elements before the error still
 * reach stage 2 and 3. */
enum tc_enc_negative_kind {
	tc_enc_neg_any = 0,              /* chosen by the seed */
	tc_enc_neg_reserved_header,      /* a packet's header replaced by a reserved one */
	tc_enc_neg_truncated,            /* the stream cut inside a packet */
	tc_enc_neg_sbz,                  /* an SBZ bit set (long address, context payload) */
	tc_enc_neg_reserved_extension,   /* 00 followed by a byte other than 00, 03, 05 */
	tc_enc_neg_bad_async,            /* an A-sync's zeros or terminating 0x80 corrupted */
	tc_enc_neg_exact_match_index,    /* a header replaced by 0x93, 0xA3 or 0xB3 */
	tc_enc_neg_count
};

/* Name of a kind ("any", "reserved-header", ...; the error class it
 * produces), NULL when out of range; and the kind of a name, or -1. */
const char *tc_enc_negative_kind_name(int kind);
int tc_enc_negative_kind_parse(const char *name);

/* Generates a negative vector from o->seed (the kind too, when kind is
 * tc_enc_neg_any). When the vector of o->seed offers no place for the
 * corruption (no later A-sync to resynchronise at), seeds derived from it
 * are tried; the note names the encoder seed used. Returns 0, or -1 with a
 * message in err. */
int tc_enc_make_negative(const struct tc_enc_options *o, int kind, struct tc_enc_vector *v, char *err,
			 size_t errlen);

/* The vector in the form every protocol's encoder gives (tracecert/encoder.h),
 * what the one .tcv writer takes (conformance/vector.h
 * tc_vector_text_generated): a view, r points into v (free v, never r). */
void tc_enc_vector_result(struct tc_enc_vector *v, struct tc_enc_result *r);

/* The encoding variants the encoder counts (encoder/ete/variants.txt, one name
 * per line), in that file's order. */
int tc_enc_variant_count(void);
const char *tc_enc_variant_name(int i);

/* ---- Packets one at a time ---------------------------------------------------
 * The encoder's packet layer on its own, for a program that lays out a trace of
 * its own design (tools/vecgen/ete_insn.c): each call writes one packet through
 * the same writers tc_enc_generate uses (bytes chosen among the valid encodings
 * of the same information by the seed, the trace unit's address history kept),
 * records its L1 line, and returns the packet's offset. No program, no
 * execution and no L3 truth: what the packets mean at L3 is the caller's to
 * say. tc_enc_packets_new returns NULL when memory is short. */
struct tc_enc_packets;
struct tc_enc_packets *tc_enc_packets_new(const struct tc_ete_config *cfg, uint64_t seed);
void tc_enc_packets_free(struct tc_enc_packets *w);
uint64_t tc_enc_packets_async(struct tc_enc_packets *w);
/* Trace Info: no cycle counting, speculation depth 0, not in a transaction. */
uint64_t tc_enc_packets_trace_info(struct tc_enc_packets *w);
uint64_t tc_enc_packets_trace_on(struct tc_enc_packets *w);
uint64_t tc_enc_packets_context(struct tc_enc_packets *w, const struct tc_context *c);
/* Target Address packet: isa 0 is IS0 (A64 or A32 by the context), 1 is IS1 (T32). */
uint64_t tc_enc_packets_address(struct tc_enc_packets *w, uint64_t address, int isa);
/* One atom (taken: E, else N) in an Atom packet of its own (format 1). */
uint64_t tc_enc_packets_atom(struct tc_enc_packets *w, int taken);
/* What was written: the bytes (*len of them) and the L1 lines ('\n'-separated). */
const uint8_t *tc_enc_packets_trace(const struct tc_enc_packets *w, size_t *len);
const char *tc_enc_packets_l1(const struct tc_enc_packets *w);

#ifdef __cplusplus
}
#endif

#endif
