/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_internal.h — the ETMv1 encoder's state: the program, the cycle model's FIFO, the truth (encoder/etmv1/README.md). */
#ifndef E1ENC_INTERNAL_H
#define E1ENC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../enc_common.h"
#include "tracecert/encoder.h"
#include "tracecert/etmv1.h"
#include "tracecert/trace.h"

/* The terminators of an ARMv4T/ARMv5TE block (e1enc_program.c): the first e1e_term_count in both
 * instruction sets (B, BL: in Thumb the BL pair; B<cond>, BX Rm, MOV pc, Rm), then the ARMv5T ones
 * a program with Thumb code also has (BLX to the other set, BLX Rm), then the loads to the PC of
 * every program (LDR pc, LDMIA Rn or POP with the PC; in Thumb both POP {..., pc}). */
enum e1e_term { e1e_b, e1e_bl, e1e_bcond, e1e_bx, e1e_mov_pc, e1e_term_count,
		e1e_blx_imm = e1e_term_count, e1e_blx_reg, e1e_ldr_pc, e1e_pop_pc, e1e_term_all };

struct e1e_block {
	uint32_t start;          /* first instruction */
	uint32_t term_addr;      /* the terminator */
	int term;                /* enum e1e_term */
	int target;              /* direct branches: the target block */
	int thumb;               /* Thumb code (16-bit instructions; the BL and BLX pairs 32) */
};

struct e1e_program {
	uint8_t vectors[32];     /* the vector page at 0 or 0xFFFF0000 (hivecs): IRQ and FIQ handlers */
	uint32_t vector_base;
	int thumb;               /* the program has Thumb blocks (the vector page's handlers are BX Rm) */
	uint32_t base;
	uint8_t *code;           /* little-endian A32 words */
	size_t size;
	struct e1e_block *block;
	int nblocks;
};

/* One packet in the FIFO (§5.3, §5.5.4). */
struct e1e_packet {
	uint8_t byte;
	uint8_t sync;            /* the first packet of a branch address: TRACESYNC (L8010) */
	int owner;               /* the truth record it belongs to */
};

#define E1E_FIFO_MAX 4096

struct e1e {
	struct enc_rng rng;
	struct tc_etmv1_config cfg;
	unsigned fifo_depth;     /* packets before the core is stalled (FIFOFULL) */
	int full_program;        /* e1e_program_make: the ETMv1 encoder's program (below); 0: the A32 one
				  * of data processing, loads and stores (LDR/STR/H/B/SB/SH, LDM/STM) and
				  * the five terminators of e1e_term_count, as the ETMv2 encoder uses */
	unsigned thumb_percent;  /* runs of Thumb blocks; 0: A32 only. With full_program 0 the Thumb
				  * blocks have the five terminators too (the ETMv2 encoder's) */
	int traps;               /* full_program 0: SWI, undefined instructions, LDRD, STRD and the
				  * coprocessor register transfers too (the ETMv2 encoder's) */
	struct e1e_program prog;
	/* the FIFO: packets [head, tail) of ring[], the head's low nibble out on a 4-bit port */
	struct e1e_packet ring[E1E_FIFO_MAX];
	unsigned head, tail;
	int half;
	uint32_t last_addr;      /* the last branch address put in the FIFO (§5.5.4 L8171) */
	uint32_t last_daddr;     /* the last data address put in the FIFO (§5.7.5 L8358) */
	int daddr_full_done;     /* a full data address has been output since trace was enabled */
	uint64_t daddr_full_at;  /* the cycle of the last one (§5.7.5 L8364: the sync period) */
	uint64_t since_full;     /* cycles since the last five-packet address (§5.6.2) */
	uint64_t cycles;         /* records written */
	uint64_t trigger_at;     /* the trigger: the first cycle from this one that is not TD */
	int triggered;
	int trigger_on_in;       /* the trigger waits for the first IN cycle from trigger_at */
	unsigned off_percent;    /* the chance of trace being disabled after each block, per run */
	unsigned debug_percent;  /* the chance of debug state after each block, per run (ETM1-E9) */
	int disabled;
	unsigned gap_percent;    /* the chance of a gap record among a trace-off's TD cycles (ETMC-F4) */
	int drop_td;             /* the capture leaves out TD cycles with TRACEPKT[0] = 0 (ETMC-F3) */
	uint32_t ctxid;          /* the current Context ID (contextid_size bytes) */
	uint32_t ctx_shown;      /* the last one traced, and whether one was (L3 `context` on a change) */
	int ctx_valid;            /* TraceEnable inactive: TD with TRACEPKT[0] = 0 */
	int ctx_pending;          /* the Context ID changed while tracing: the next branch carries it */
	unsigned ctx_change_percent; /* the chance of a change before each instruction, per run */
	unsigned irq_percent;    /* the chance of an interrupt before each instruction, per run */
	unsigned abandon_percent; /* the chance of one in a taken branch's APO cycles (ETM1-P19) */
	unsigned dabort_percent; /* the chance of a data abort on a load or store, per run */
	int overflow_mode;       /* an ID whose packets do not fit overflows the FIFO (§5.9), no stall */
	int last_daddr_pkts;     /* the packets of the last data address put in the FIFO */
	int handler_pending;     /* an exception in an APO cycle: its handler returns to handler_ret */
	uint32_t handler_vector, handler_ret;
	/* output */
	struct enc_buf trace;
	struct tc_etmv1_record *rec;   /* the L1 truth, in cycle order */
	uint64_t *done;          /* per record: the record that completes it (e1e_done) */
	/* the stretches no cut may fall in (e1e_cut_window_start): [from, restart's record] */
#define E1E_CUT_WINDOWS 256
	uint64_t cut_window[E1E_CUT_WINDOWS][2];
	int ncut_windows, cut_open, cut_unsafe;
	uint64_t cut_from;
	size_t nrec, caprec;
	struct enc_buf l3;
	struct tc_l3 range;
	int range_open;
	uint32_t range_next;
	uint32_t *variants;
	int failed;              /* out of memory */
};

/* e1enc_program.c */
int e1e_program_make(struct e1e *e, unsigned nblocks);
void e1e_program_regions(struct e1e_program *p, struct tc_enc_result *r);
void e1e_program_free(struct e1e_program *p);
uint32_t e1e_word(const struct e1e_program *p, uint32_t at);
uint32_t e1e_half(const struct e1e_program *p, uint32_t at);
int e1e_block_at(const struct e1e_program *p, uint32_t at);
int e1e_transfers(uint32_t w, int *size);
int e1e_transfers_t16(uint32_t hw, int *size);
int e1e_cprt_words(uint32_t w);
int e1e_trap_kind(uint32_t w, int thumb);
const char *e1e_transfer_name(uint32_t w, int thumb);
uint32_t e1e_code_addr(const struct e1e_program *p, int block);
int e1e_block_of_isa(const struct e1e_program *p, int from, int thumb);

/* e1enc_cycle.c */
void e1e_hit(struct e1e *e, const char *fmt, ...);
int e1e_trigger_now(struct e1e *e, int ps, int apo);
uint64_t e1e_offset(const struct e1e *e);
void e1e_header(struct e1e *e);
/* One instruction: waits, then its functional cycle (IE, IN, BE); a BE's address and its two APO
 * cycles; refill is the pipeline's cycles after a taken branch that gives no BE. */
void e1e_instruction(struct e1e *e, int ps, uint32_t addr, int type, int executed, int branch_to_trace,
		     uint32_t target, int refill);
/* One instruction of either instruction set (e1e_instruction is one A32 instruction of these). */
struct e1e_insn {
	int ps;                  /* its functional PIPESTAT: IE, IN or BE */
	uint32_t addr;
	int thumb;               /* a T32 instruction */
	int size;                /* 2 or 4 bytes */
	int type;                /* enum tc_insn_type */
	int executed;
	int indirect;            /* BE: an indirect branch (the periodic full address may come on it) */
	uint32_t target;         /* BE: the branch address, bit 0 set for Thumb (§5.5.2 L8155) */
	int refill;              /* pipeline cycles after it that give no BE */
	int first_half;          /* the first half of a Thumb BL or BLX pair: no L3 (ETM1-P25) */
	int cprt;                /* an ID: a coprocessor register transfer (values, no address) */
	int may_abandon;         /* BE, BD: an interrupt may strike in its APO cycles (ETM1-P19) */
	int exc_type;            /* an exception that does not cancel it (Table 7-12's numbers), or 0 */
	uint32_t exc_ret;        /* its return address: the next instruction's */
};
void e1e_step(struct e1e *e, const struct e1e_insn *in);
void e1e_data_step(struct e1e *e, const struct e1e_insn *in, int ntransfers, int size);
void e1e_trace_on(struct e1e *e, uint32_t addr);
void e1e_context_change(struct e1e *e, uint32_t ctxid);
void e1e_exception(struct e1e *e, uint32_t ret, uint32_t vector, int type);
void e1e_data_instruction(struct e1e *e, uint32_t addr, int ntransfers, int size);
void e1e_drain(struct e1e *e);
void e1e_trace_off(struct e1e *e, unsigned cycles);
void e1e_debug_state(struct e1e *e, unsigned cycles, uint32_t addr);
int e1e_fifo_stuck(const struct e1e *e);
void e1e_l3_flush(struct e1e *e);
void e1e_order_records(struct e1e *e);
void e1e_done(struct e1e *e, int at, uint64_t offset);
void e1e_cut_window_start(struct e1e *e);
void e1e_cut_window_end(struct e1e *e, uint64_t restart_offset);
/* e1enc_entry.c: the vector of rq, then finish (when not NULL) with the model's state */
int e1e_generate_with(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen,
		      int (*finish)(struct e1e *e, struct tc_enc_result *r, void *ctx), void *ctx);
char *e1e_l1_text(struct e1e *e);

/* e1enc_exec.c: a logged real execution (tc_encoder.from_exec) */
struct tc_exec;
struct tc_exec_marks;
int e1e_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		  size_t errlen);
int e1e_exec_a32_only(const struct tc_exec *x, const char *model, char *err, size_t errlen);

/* e1enc_negative.c: tc_encoder.negative and its kinds (tracecert gen --negative) */
int e1e_negative(const struct tc_enc_request *rq, int kind, struct tc_enc_result *r, char *err, size_t errlen);
#define E1E_NEGATIVE_KINDS 4   /* any, truncated, bad-record, cut */
extern const struct tc_enc_kind e1e_negative_kinds[];

/* e1enc_asm.c: tc_encoder.asm_open, asm_write, asm_close, asm_cycle (tracecert asm). */
struct tc_cyclecap_line;
void *e1e_asm_open(const void *cfg);
long e1e_asm_write(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err, size_t errlen);
void e1e_asm_close(void *w);
long e1e_asm_cycle(void *w, const struct tc_cyclecap_line *line, uint8_t *out, size_t cap, char *err, size_t errlen);

#endif
