/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_internal.h — private state of the random ETE encoder (trace-unit model).
 *
 * Independence: the encoder shares with the reference decoder only the public
 * element/packet structs and the text formatting (tracecert/ete.h: the L1
 * records through tc_ete_format_packet, the L3 items of tracecert/trace.h
 * through tc_ete_format_l3, the one L3 writer of reference/l3text.c). It has its
 * own instruction encoder, its own model of the trace unit's address history,
 * context, timestamp and speculation depth, and its own execution model; the
 * L3 truth is what that execution retired. */
#ifndef TC_ENC_INTERNAL_H
#define TC_ENC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder_ete.h"
#include "enc_common.h"

/* ---- The encoder -------------------------------------------------------------- */
struct enc_ahb {
	uint64_t address;
	int isa;
};

#define ENC_RS_DEPTH 15
#define ENC_MAX_PENDING 64

struct enc {
	struct enc_rng rng;
	struct tc_ete_config cfg;
	struct enc_program prog;
	struct enc_buf trace;       /* bytes */
	struct enc_buf l1;          /* expected L1 */
	void (*l1_record)(void *ctx, const struct tc_ete_packet *p);   /* tc_enc_options.l1_record */
	void *l1_ctx;
	struct enc_buf packets;     /* the L1 records (struct tc_ete_packet) the lines of l1 are written
				     * from, kept only for enc_generate_packets (keep_packets) */
	int keep_packets;
	struct enc_buf l3;          /* expected L3 (committed) */
	struct enc_buf l3_tx;       /* L3 items held while in a transaction */
	struct enc_buf l3_tx_events;/* the items among them a failure keeps (enc_l3) */
	uint32_t *variants;
	/* The trace unit's stage-1 view (what a decoder's DSTATE.IA will hold). */
	struct enc_ahb ahb[3];
	struct tc_context ctx;
	uint64_t timestamp;
	uint32_t cc_threshold;
	int cc_enabled;
	int64_t depth;              /* outstanding speculative P0 elements */
	int T;                      /* in transaction (stage 1) */
	/* Atoms not yet packed, oldest first, with the L3 range item each will
	 * produce once its packet (and so its offset) is known (h.size 0: none,
	 * an atom on a wrong path). */
	char pending[ENC_MAX_PENDING];
	struct tc_l3 pending_l3[ENC_MAX_PENDING];
	char pending_tx[ENC_MAX_PENDING];
	int npending;
	/* A logged execution (enc_exec.c; NULL in a random one): per
	 * instruction, the offset of the packet that traced it; the next atom
	 * traces the mark_count instructions from mark_first. */
	uint64_t *marks;
	size_t mark_first;
	size_t mark_count;
	size_t pending_mark_first[ENC_MAX_PENDING];
	size_t pending_mark_count[ENC_MAX_PENDING];
	/* The analyzer's view (L3): */
	uint64_t pc;                /* next instruction to execute */
	int synced;                 /* the analyzer has context and address */
	struct tc_context ctx_reported;
	int ctx_reported_valid;
	struct enc_ahb rs[ENC_RS_DEPTH];    /* the return stack as the analyzer will hold it (address, sub-ISA) */
	int rs_n;
	int rs_reset_pending;
	struct enc_ahb rs_tx[ENC_RS_DEPTH]; /* return stack saved at transaction start */
	int rs_tx_n;
	int rs_tx_reset;
	int in_tx;                  /* elements are held by stage 2 */
	uint64_t tx_resume;         /* where execution resumes after a failure */
	int tail_unsafe;            /* a Remove-kind element after the last P0 */
	uint64_t last_branch_target;/* pc right after the last taken branch / address */
	int at_branch_target;       /* no instruction executed since */
	int call_depth;
	uint64_t calls[64];         /* the program's own call stack (BL return addresses) */
	int need_p0;                /* a return-stack pop waits for the next P0 element */
	int since_p0;               /* an element whose loss would change L3 follows the last P0 */
	uint64_t ts_value;          /* the timestamp clock */
	int T_speculative;          /* a Transaction Start on the current wrong path */
	int burst;                  /* blocks left to run back to back (long atom runs) */
	unsigned burst_bias;        /* percent of conditional branches taken in a burst */
	unsigned loop_left;         /* iterations left in the current loop block */
};

/* The writers of one encoding of a packet (enc_packets.c): the bytes, and the
 * stage-1 view (address history, context, timestamp, cycle-count threshold)
 * they change; no L1, L3 or random choice. The random packets below and the
 * assembler (enc_asm.c) call them, so that each layout has one writer. Each
 * returns the packet's offset; k and *_k are a field's length in bytes. */
enum enc_addr_form { af_exact, af_short1, af_short2, af_long32, af_long64 };

struct enc_trace_info {
	unsigned plctl;             /* the sections: INFO 0x01, SPEC 0x04, CYCT 0x08, WNDW 0x10 */
	int cc, tx;
	uint32_t spec, cct, wndw;
	int spec_k, cct_k, wndw_k;
};

/* An Exception packet's address: form -1 (0x70, unknown), an address form
 * of entry q, or (ctx) a long form with the context payload (v, cid: its sections). */
struct enc_exc_address {
	int form, q;
	uint64_t address;
	int isa;
	const struct tc_context *ctx;
	int v, cid;
};

#define ENC_ATOM_CHOICES 40
struct enc_atom_choice {
	unsigned header;
	int n;
	const char *name;
};

int enc_cont_max_bytes(int n);
int enc_cont_min_bytes(uint64_t v, int n);
int enc_ts_min_bytes(const struct enc *e, uint64_t value);
unsigned enc_address_header(int form, int q, int isa);
unsigned enc_source_header(int form, int q, int isa);
int enc_atom_choices(const struct enc *e, struct enc_atom_choice *c);
void enc_put_address_payload(struct enc *e, int form, uint64_t a, int isa);
void enc_address_history(struct enc *e, int form, int q, uint64_t a, int isa);
void enc_put_context_payload(struct enc *e, const struct tc_context *c, int v, int cid);
uint64_t enc_put_header(struct enc *e, unsigned header);
uint64_t enc_put_async(struct enc *e, int zeros);
uint64_t enc_put_extension(struct enc *e, unsigned ext);
uint64_t enc_put_trace_info(struct enc *e, const struct enc_trace_info *t);
uint64_t enc_put_context(struct enc *e, const struct tc_context *c, int v, int cid);
uint64_t enc_put_address(struct enc *e, int form, int q, uint64_t a, int isa);
uint64_t enc_put_addr_ctx(struct enc *e, int long32, uint64_t a, int isa, const struct tc_context *c, int v,
			  int cid);
uint64_t enc_put_exception(struct enc *e, int eform, int type, const struct enc_exc_address *x);
uint64_t enc_put_uleb_packet(struct enc *e, unsigned header, uint64_t v, int n, int k);
uint64_t enc_put_cc_format1(struct enc *e, int unknown, uint64_t commit, int commit_k, uint32_t count, int count_k);
uint64_t enc_put_cc_format2(struct enc *e, int f, unsigned aaaa, unsigned bbbb);
uint64_t enc_put_timestamp(struct enc *e, uint64_t value, int k, int with_cc, uint32_t cc, int cck);
uint64_t enc_put_q(struct enc *e, int type, int form, int q, uint64_t next, int isa, uint32_t count, int count_k);
uint64_t enc_put_source(struct enc *e, int form, int q, uint64_t a, int isa);
uint64_t enc_put_instrumentation(struct enc *e, int el, uint64_t value);

/* The assembler (enc_asm.c): tc_encoder.asm_open, asm_write, asm_close. */
struct tc_item;
void *enc_asm_open(const void *cfg);
long enc_asm_write(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		   size_t errlen);
void enc_asm_close(void *w);

/* Packets (enc_packets.c): each writes bytes, the expected L1 line, and
 * updates the trace unit's stage-1 view. */
void enc_pkt_async(struct enc *e);
void enc_pkt_trace_info(struct enc *e, int cc, uint32_t cct, uint32_t spec, int tx);
void enc_pkt_trace_on(struct enc *e);
void enc_pkt_context(struct enc *e, const struct tc_context *c);
void enc_pkt_address(struct enc *e, uint64_t address, int isa);
void enc_pkt_addr_ctx(struct enc *e, uint64_t address, int isa, const struct tc_context *c);
void enc_atom(struct enc *e, int taken, const struct tc_l3 *l3);
void enc_flush_atoms(struct enc *e);
void enc_pkt_exception(struct enc *e, int form, int type, uint64_t per, int isa, int unknown,
		       const struct tc_context *c);
void enc_commit(struct enc *e, int64_t n);
void enc_cancel_mispredict(struct enc *e, int k);
void enc_cancel_plain(struct enc *e, int k);
void enc_pkt_timestamp(struct enc *e, uint64_t value, int with_cc, uint32_t cc);
void enc_pkt_cycle_count_only(struct enc *e, uint32_t count, int unknown);
void enc_pkt_event(struct enc *e, int mask);
void enc_pkt_ignore(struct enc *e);
void enc_pkt_q(struct enc *e, int type, uint32_t count, uint64_t next, int isa);
void enc_pkt_source(struct enc *e, uint64_t address, int isa);
void enc_pkt_ts_marker(struct enc *e);
void enc_pkt_instrumentation(struct enc *e, int el, uint64_t value);
void enc_pkt_tx_start(struct enc *e);
void enc_pkt_tx_commit(struct enc *e);
void enc_pkt_discard(struct enc *e);
void enc_pkt_overflow(struct enc *e);

/* tc_enc_generate, also handing over the L1 records its expected L1 is
 * written from, one per line in stream order (*pkts: malloc'd, *npkts of
 * them; the negative vectors' truth, enc_negative.c). */
int enc_generate_packets(const struct tc_enc_options *o, struct tc_enc_vector *v, struct tc_ete_packet **pkts,
			 size_t *npkts, char *err, size_t errlen);

/* Variants (enc_variants.c). */
void enc_hit(struct enc *e, const char *fmt, ...);

/* The L3 truth (enc_trace.c): items of tracecert/trace.h, each written by
 * the one L3 writer (tc_ete_format_l3) to the output or, in a transaction
 * (in_tx), held until it resolves. kept: the element survives a
 * Transaction Failure (ERRATA TC-S18: events, timestamp markers,
 * instrumentation, and cycle counts when tf_keep_cc is 1). enc_l3 holds
 * it while the encoder is in a transaction; enc_l3_simple writes an item
 * that has no fields. */
void enc_l3_item(struct tc_l3 *x, int kind, uint64_t offset);
void enc_l3(struct enc *e, int kept, const struct tc_l3 *x);
void enc_l3_simple(struct enc *e, int kept, int kind, uint64_t offset);
void enc_l3_write(struct enc *e, int in_tx, int kept, const struct tc_l3 *x);

/* A logged execution (enc_exec.c): tc_encoder.from_exec. */
struct tc_exec;
struct tc_exec_marks;
int enc_ete_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		      size_t errlen);

#endif
