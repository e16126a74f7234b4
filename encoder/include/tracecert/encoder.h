/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/encoder.h — what every protocol's random encoder shares: image regions, a generated
 * vector, the encoder descriptor and the table of encoders, the CoreSight formatter writer. */
/* Each protocol's encoder has its own header beside this one
 * (tracecert/encoder_<protocol>.h); `tracecert gen` reaches them only
 * through struct tc_encoder. */
#ifndef TRACECERT_ENCODER_H
#define TRACECERT_ENCODER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One region of a generated program image. */
struct tc_enc_region {
	uint64_t base;
	uint8_t *bytes;
	size_t len;
};

#define TC_ENC_MAX_REGIONS 4

/* What to generate: the options every encoder takes. */
struct tc_enc_request {
	uint64_t seed;
	int random_config;          /* 1: the configuration is chosen from the seed; 0: cfg */
	const void *cfg;            /* with random_config 0: the protocol's configuration struct
				     * (tc_protocol.config_size bytes, tracecert/protocol.h) */
	unsigned steps;             /* execution steps, 1..100000 */
	unsigned blocks;            /* basic blocks in the program, 4..4096 */
	/* Caller-supplied random choices (the structure-aware fuzz harnesses,
	 * fuzz/roundtrip.c): each random draw of the generation consumes the
	 * next byte of entropy[0..entropy_len-1], which perturbs it; after the
	 * last byte the seed alone decides. NULL or entropy_len 0: the seed
	 * alone (bytes 0 give the seed's vector too). Not copied; read only
	 * during generate or negative. */
	const uint8_t *entropy;
	size_t entropy_len;
};

/* A generated vector, as every encoder gives it. */
struct tc_enc_result {
	const char *protocol;       /* the protocol's name (tc_protocol_find) */
	void *cfg;                  /* malloc'd: the protocol's configuration struct */
	struct tc_enc_region region[TC_ENC_MAX_REGIONS];   /* the program image */
	int nregions;
	uint8_t *trace;
	size_t trace_len;
	char *l1;                   /* expected L1 lines, '\n'-separated */
	char *l3;                   /* expected L3 lines; NULL for a negative vector */
	char *tags;                 /* feature tags, blank-separated */
	uint32_t *variants;         /* hits per variant (the encoder's variant_count() of them) */
	char *error;                /* negative vector: the [error] lines (CLASS OFFSET); NULL otherwise */
	char *note;                 /* negative vector: what was corrupted ('\n'-separated); NULL otherwise */
};

/* Frees what a result holds (NULL is allowed) and zeroes it. */
void tc_enc_result_free(struct tc_enc_result *r);

/* One kind of negative vector: its name (--kind) and one help line. */
struct tc_enc_kind {
	const char *name;
	const char *doc;
};

struct tc_exec;           /* tracecert/execlog.h */
struct tc_item;           /* tracecert/trace.h */
struct tc_exec_marks;
struct tc_cyclecap_line;   /* reference/cyclecap.h */

/* A protocol's encoder: what `tracecert gen` reaches it through. */
struct tc_encoder {
	const char *protocol;       /* the protocol's name, as in tracecert/protocol.h */
	const char *doc;            /* what it generates: lines for gen --help, each ending in '\n' */
	const char *variants_file;  /* the checked-in list of variants it counts */
	unsigned default_steps;     /* gen's --steps and --blocks when not given (and those of */
	unsigned default_blocks;    /* vectors/<protocol>/gen: make vectors, vectors-check) */
	/* The set-cover search of the seed list vectors/<protocol>/gen/seeds.txt
	 * (make vectors-select, gen --select-vectors): candidate seeds
	 * 1..select_candidates, then select_extra plain seeds after them. */
	unsigned long select_candidates;
	unsigned long select_extra;
	/* Generates the vector of rq; the same request gives the same vector.
	 * Returns 0, or -1 with a message in err (*r then holds nothing to free). */
	int (*generate)(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen);
	int (*variant_count)(void);
	const char *(*variant_name)(int i);
	/* Negative vectors (tracecert gen --negative): the vector of rq with one
	 * deliberate corruption of the kind given (an index of negative_kinds;
	 * 0 is "any": chosen by the seed). NULL, and no kinds, when the encoder
	 * makes none. Returns as generate. */
	int (*negative)(const struct tc_enc_request *rq, int kind, struct tc_enc_result *r, char *err, size_t errlen);
	const char *negative_doc;   /* what the [expect.l1] of a negative vector holds: lines for
				     * gen --help, each ending in '\n' */
	const struct tc_enc_kind *negative_kinds;
	int nnegative_kinds;
	/* `tracecert bench`'s workload: the configuration keys it fixes over the
	 * protocol's defaults ("NAME=VALUE NAME=VALUE", the names of the
	 * protocol's key table; "" for the defaults alone). */
	const char *bench_config;
	/* The offsets where a trace this encoder wrote can be cut so that each
	 * piece decodes on its own (the protocol's synchronisation sequence
	 * starts there): at most max of them, ascending, into at; returns how
	 * many it found (more than max: the first max are written). bench
	 * measures a decoder that crashes on the workload again on the pieces
	 * it does not crash in. NULL: the protocol's traces are not cut. */
	size_t (*sync_points)(const uint8_t *trace, size_t len, size_t *at, size_t max);
	/* A real execution through the protocol's trace-unit model (tracecert
	 * gen --from-exec, tracecert/execlog.h): the trace of the instructions
	 * of x, its L1 truth, the model's own L3 (r->l3; the vector's expected
	 * L3 is tc_exec_l3 of the log, with the offsets written into m, whose
	 * arrays the caller allocated), the configuration (the protocol's
	 * defaults) and tags; no image regions (the caller writes the pages).
	 * Returns as generate. NULL: the protocol has no such model. */
	int (*from_exec)(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
			 size_t errlen);
	/* The instruction-set family from_exec traces (enum tc_exec_family of
	 * tracecert/execlog.h): the form gen --from-exec reads the log in and
	 * the --elf program's e_machine must have. */
	int exec_family;
	/* Whether generate refuses a configuration the protocol's config_check
	 * accepts (one the encoder does not model): non-zero, with a message in
	 * err when err is not NULL. NULL: the encoder takes every configuration
	 * config_check accepts. */
	int (*config_refused)(const void *cfg, char *err, size_t errlen);
	/* The assembler (tracecert asm, tools/asm.c): the packet bytes of L1
	 * items (the protocol's records, as its parse_l1 gives them), written
	 * by the same packet writers generate uses, so that each packet form
	 * has one writer. asm_open returns a writer for cfg (the protocol's
	 * configuration; NULL when refused or memory is short) that keeps
	 * what the next packets depend on (LastState). asm_write writes the
	 * packet of one item, in the order of the trace, into out (cap bytes)
	 * and returns its length, or -1 with err. len is the packet's length in
	 * the trace: the L1 text does not say how long a compressed address, a
	 * cycle count or an A-sync is, so the caller gives the distance to the
	 * next item's offset, and 0 for the last item (the shortest encoding
	 * LastState allows). An item that is no packet (an error, a warning) and
	 * one no encoding of len bytes has are refused. NULL: no assembler. */
	void *(*asm_open)(const void *cfg);
	long (*asm_write)(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
			  size_t errlen);
	void (*asm_close)(void *w);
	/* A per-cycle protocol's assembler (tc_protocol.sample not NULL: its
	 * input is a sample file): the bytes of one cycle line of the text (the
	 * header or one record, reference/cyclecap.h's cycle text, which `dump
	 * --cycles` prints) into out, or -1 with err; asm_write then takes the
	 * L1 items of the text, which hold no bytes of their own (it returns 0:
	 * their cycles' lines hold them). NULL for a byte-stream protocol. */
	long (*asm_cycle)(void *w, const struct tc_cyclecap_line *line, uint8_t *out, size_t cap, char *err,
			  size_t errlen);
};

/* A sync_points for a protocol whose synchronisation sequence is at least
 * min_zeros bytes 0x00 then 0x80 (an A-sync of that shape): the offset of
 * each such sequence's first zero, and 0 (a generated trace starts with one). */
size_t tc_enc_sync_points_zeros(const uint8_t *trace, size_t len, size_t min_zeros, size_t *at, size_t max);

/* The encoders of this build, one per protocol of PROTOCOLS in GNUmakefile
 * (tools/gen-protocols.sh --encoders), in that order, NULL-terminated. */
extern const struct tc_encoder *const tc_encoders[];

/* One source's bytes for the CoreSight formatter writer. */
struct tc_enc_stream {
	unsigned id;            /* trace ID, 0x01..0x6F */
	const uint8_t *bytes;
	size_t len;
};

/* The CoreSight trace formatter (reference/include/tracecert/csframe.h has
 * the rules; reference/csframe.c is the one parser): interleaves the streams
 * in runs of pseudo-random length chosen by seed into 16-byte frames, using
 * every form the parser must take: an ID change taking effect at once and
 * after the next byte, an ID in byte 14, repeated IDs, data in even bytes
 * (bit 0 in byte 15); pads the last frame with ID 0x00 data; with fsync,
 * frame synchronization packets (FF FF FF 7F) before the first frame and
 * between some frames. Returns malloc'd bytes, their count in *len; NULL
 * for an ID out of range or when memory is short. */
uint8_t *tc_enc_csframe(const struct tc_enc_stream *streams, int n, uint64_t seed, int fsync, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
