/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_internal.h — private state of the ETE reference decoder (stage 1 and 2). */
#ifndef TC_ETE_INTERNAL_H
#define TC_ETE_INTERNAL_H

#include "tracecert/ete.h"
#include "insn.h"
#include "retstack.h"
#include "clause.h"

/* K10.5.6.3.9 AddressHistoryBufferEntry */
struct tc_ahb_entry {
	uint64_t address;
	uint8_t sub_isa;           /* 0 = IS0, 1 = IS1 */
};

/* K10.5.2.1.1 InstructionParserState (DSTATE.IA) but its static state
 * (max_spec_depth, commit_mode, comm_trans: struct tc_ete_config), plus
 * have_trace_info (TC-P10), which the text does not declare. Small: saved before each packet and
 * restored when the packet fails, so a failed packet leaves it untouched. */
struct tc_ete_ia {
	uint64_t timestamp;
	struct tc_ahb_entry ahb[3];   /* [0] most recent */
	struct tc_context ctx;
	int64_t current_spec_depth;
	int T;
	uint32_t cc_threshold;
	int have_trace_info;          /* a Trace Info seen since synchronisation (TC-P10) */
};

/* Largest number of elements one packet can emit: Atom format 6 with
 * COUNT=20 gives 24 atoms, each possibly followed by an implicit commit. */
#define TC_ETE_MAX_EMIT 64

/* Byte reader over one candidate packet (K10.5.2.18.1 ReadAndConsume).
 * The first problem found is sticky: after it every read returns zeros. */
struct tc_reader {
	const uint8_t *buf;
	size_t len;
	size_t pos;
	int need_more;                /* ran out of bytes */
	int error;                    /* enum tc_ete_error, first one wins */
};

/* Most warnings one packet can carry: a Trace Info's PLCTL and INFO, or a
 * format 2 Cycle Count's F and AAAA (TC-R1). */
#define TC_ETE_MAX_WARN 2

/* One ignored field (TC-R1). */
struct tc_warn {
	uint8_t warning;              /* enum tc_ete_warning */
	uint8_t field;                /* enum tc_ete_warn_field */
	uint16_t bits;                /* the bits as read */
};

/* Everything one packet produces. */
struct tc_packet_out {
	struct tc_ete_packet pkt;
	struct tc_ete_elem emit[TC_ETE_MAX_EMIT];
	int nemit;
	struct tc_warn warn[TC_ETE_MAX_WARN];
	int nwarn;
	int async_start;              /* 00 00 seen: the caller counts the zero run */
};

/* Stage-1 entry point for one packet (K10.5.2.2.1 Parse_Trace, one turn of
 * its loop). Updates *ia (the caller restores it when the packet fails).
 * Returns the number of bytes consumed
 * (> 0) on success; 0 when the bytes end inside the packet; or -error. */
int tc_ete_parse_packet(const struct tc_ete_config *cfg, struct tc_ete_ia *ia,
			const uint8_t *buf, size_t len, uint64_t offset,
			struct tc_packet_out *out);

/* Stage 2 (K10.5.3, K10.5.4). */
struct tc_queue {
	struct tc_ete_elem *slot;
	uint32_t cap;                 /* capacity (queue_cap / tx_cap) */
	uint32_t size;                /* slots allocated (a power of two): grows with len, up to cap rounded up */
	uint32_t room;                /* the smaller of size and cap: one compare on the push fast path */
	uint32_t head;                /* index of the front (oldest) */
	uint32_t len;
};

/* Where stage 2 hands resolved elements (K10.5.5.1.1 AnalyzeElement). */
typedef void (*tc_analyze_fn)(void *ctx, const struct tc_ete_elem *e);

struct tc_ete_stage2 {
	const struct tc_ete_config *cfg;
	tc_analyze_fn analyze;        /* NULL: the output goes nowhere */
	void *analyze_ctx;
	uint32_t p0_kinds;            /* bit k: tc_ete_is_p0(cfg, k) */
	struct tc_queue rq;           /* ResolutionQueue */
	struct tc_queue tq;           /* TransactionQueue */
	int initialized;              /* ResolutionQueue.Uninitialized() is !initialized */
	uint64_t unseen;              /* unseen P0 elements not yet Align()ed */
	int in_transaction;
};

int tc_stage2_init(struct tc_ete_stage2 *s, const struct tc_ete_config *cfg, tc_analyze_fn analyze, void *ctx);
void tc_stage2_fini(struct tc_ete_stage2 *s);
/* K10.5.3.1.1 Emit. Returns 0 or -tc_ete_err_queue_overflow. */
int tc_stage2_emit(struct tc_ete_stage2 *s, const struct tc_ete_elem *e);
/* End of trace or error: flush what is resolved, drop the rest (TC-P16),
 * return to the uninitialised state. */
void tc_stage2_flush(struct tc_ete_stage2 *s, uint64_t offset);
void tc_stage2_reset(struct tc_ete_stage2 *s);
int tc_ete_is_p0(const struct tc_ete_config *cfg, int kind);

/* Stage 3 (K10.5.5). */
enum tc_sync_state { TC_SYNC_NOT, TC_SYNC_CONTEXT, TC_SYNC_ADDRESS, TC_SYNC_FULL };

/* K10.5.5.2.1 ReconstructState (sixty_four_bit is ctx.sf). */
struct tc_reconstruct {
	uint64_t address;
	struct tc_context ctx;
	uint8_t sub_isa;
};

#define TC_RETURN_STACK_DEPTH 15   /* K10.5.5.3 RXSVZC */
#define TC_INSN_CACHE_SIZE 16384    /* most decoded instructions remembered (a power of two) */

/* One remembered DecodeNextInst result (ete_analyze.c decode_inst). */
struct tc_insn_cache_entry {
	uint64_t address;
	struct tc_insn insn;
	uint8_t isa;
	uint8_t valid;
};
#define TC_L3_PENDING 256          /* items a Mispredict may still amend behind */

struct tc_ete_stage3 {
	const struct tc_ete_config *cfg;
	const struct tc_ete_sink *sink;
	const struct tc_image *image;
	int sync_state;                       /* enum tc_sync_state */
	struct tc_reconstruct cur;            /* current_analyzer_state */
	struct tc_reconstruct next;           /* next_analyzer_state */
	struct tc_reconstruct mr_state;       /* most_recent_branch_state */
	struct tc_insn mr_inst;               /* most_recent_branch_decoded_inst */
	int mr_taken;                         /* most_recent_branch_was_taken */
	int mr_valid;                         /* a branch was analysed since sync (TC-P19) */
	struct tc_retstack rs;                /* K10.5.6.3.8 ReturnStack: address and sub_isa (isa), no ns */
	int return_stack_clear_pending;
	int pop_pending;                      /* TC-S24 */
	uint64_t inst_out_count;
	uint64_t offset;                      /* element being analysed */
	struct tc_l3 range;               /* the open range */
	int range_open;
	uint64_t range_next;                  /* address after its last instruction */
	struct tc_l3 *out;                /* items not yet delivered (TC_L3_PENDING; only with an L3 sink) */
	int nout;
	int amend;                            /* index in out of the last branch's range, or -1 */
	struct tc_context ctx_out;        /* last context reported */
	int ctx_out_valid;
	struct tc_insn_cache_entry *icache;   /* allocated at the first decode */
	uint32_t icache_size;                 /* slots (a power of two) */
};

/* Returns 0, or -1 when out of memory. */
int tc_stage3_init(struct tc_ete_stage3 *s, const struct tc_ete_config *cfg, const struct tc_ete_sink *sink);
void tc_stage3_analyze(struct tc_ete_stage3 *s, const struct tc_ete_elem *e);
void tc_stage3_flush(struct tc_ete_stage3 *s);
void tc_stage3_set_image(struct tc_ete_stage3 *s, const struct tc_image *image);
void tc_stage3_fini(struct tc_ete_stage3 *s);

#endif
