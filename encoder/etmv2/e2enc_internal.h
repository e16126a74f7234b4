/* SPDX-License-Identifier: BSD-3-Clause */
/* e2enc_internal.h — the ETMv2 encoder's state: the cycle model's FIFO and port, the TFO outputs,
 * the truth (encoder/etmv2/README.md). The program is the ETMv1 encoder's (e1enc_program.c, through
 * its API in ../etmv1/e1enc_internal.h). */
#ifndef E2ENC_INTERNAL_H
#define E2ENC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "../enc_common.h"
#include "../etmv1/e1enc_internal.h"
#include "tracecert/encoder.h"
#include "tracecert/etmv2.h"
#include "tracecert/trace.h"

#define E2E_FIFO_MAX 256    /* the ring; the model's depth is at most E2E_DEPTH_MAX */
#define E2E_DEPTH_MAX 95    /* bytes: every TFO value stays below 96 (Table 6-4, ETM2-S3, ETM2-E1) */
#define E2E_GROUP_BYTES 64
#define E2E_GROUP_PACKETS 8 /* ETM2-P21: a ninth packet in one group is an error */

/* The packets one cycle places in the FIFO (§6.3 L8626-8628): bytes, and each packet's L1 record. */
struct e2e_group {
	uint8_t b[E2E_GROUP_BYTES];
	int n;
	int last_header;         /* the byte index of the last header, whose C bit the next packet sets */
	struct tc_etmv2_record pk[E2E_GROUP_PACKETS];
	int npk;
};

/* One instruction as L3 sees it. */
struct e2e_insn {
	uint32_t addr;
	int type;                /* tc_insn_other, tc_insn_branch_dir, tc_insn_branch_indir */
	int executed;
	int thumb;               /* a Thumb instruction (§6.7.1 L9134) */
	int size;                /* bytes: 2 or 4; 0 for an A32 instruction's 4 */
	int first_half;          /* the first half of a Thumb BL pair: its own status, no L3 (ETM2-P27) */
};

/* What one cycle shows (e2e_cycle). */
struct e2e_cyc {
	int kind;                /* -1 a cycle with no item (WT or TD by the FIFO), tc_etmv2_ie/in (D added by
				  * the group), tc_etmv2_dw, tc_etmv2_tfo */
	int phantom;             /* enum tc_etmv2_phantom: the first of ins[] is the folded branch */
	struct e2e_group g;      /* the packets placed; for a TFO its TFO packet */
	int tfo_reason;
	uint32_t tfo_addr;
	/* L3, in this order: trace-on (a TFO with reason b01), context (a TFO's Context ID), the
	 * instructions, an exception, a Context ID packet's context */
	struct e2e_insn ins[2];
	int nins;
	int exc_type;            /* 0: none */
	uint32_t exc_ret;
	int ctx_packet;
};

/* The execution (e2enc_entry.c) */
struct e2e_exec {
	int block;          /* the block being run */
	int next;           /* its next instruction: 0..nother-1, or the terminator */
};

/* One instruction's outcome. */
struct e2e_op {
	struct e2e_insn in;
	uint32_t next;      /* where the program goes after it */
	int next_thumb;     /* in Thumb state */
	int ntransfers, size, load;
	int dual;           /* LDRD or STRD: two words, a 64-bit access (§6.4.3 L8794-8802) */
	int cprt;           /* a coprocessor register transfer executed: its words (1 or 2, L7903) */
	int refill;         /* pipeline refill cycles after a taken branch */
	int traced_target;  /* its branch address is traced: an indirect branch, or any taken one with
			     * branch_output (ETMCR[8], L3675) */
	int exc_type;       /* a non-cancelling exception it makes (Table 7-12's number; its branch to the
			     * vector is next, traced_target), returning to exc_ret; 0: none */
	uint32_t exc_ret;
	int may_overflow;   /* in an overflow run, a group that does not fit overflows the FIFO (ETM2-E23) */
};

/* Load misses outstanding (§6.4.3 L8748-8802): tags 0-3, their data due later, out of order
 * (ETM2-E7). */
struct e2e_miss {
	int used;
	int dual;           /* a 64-bit miss: two Load Miss Data packets, value then value2 (L8800) */
	uint32_t value, value2;
	int size;
	uint64_t due;       /* the cycle from which its data may come back */
};

struct e2e_run {
	struct e2e_exec x;
	struct e2e_miss miss[4];
};

struct e2e_byte {
	uint8_t byte;
	int owner;               /* the truth record whose group it is */
};

struct e2e {
	struct enc_rng rng;
	struct tc_etmv2_config cfg;
	struct e1e_program prog;
	unsigned depth;          /* FIFO bytes before the core is stalled (FIFOFULL) */
	unsigned tfo_limit;      /* the largest TFO value the model gives (fifo_depth when it is not 0) */
	/* the FIFO: bytes [head, tail) of ring[]; on a 4-bit port the head's low nibble out: half */
	struct e2e_byte ring[E2E_FIFO_MAX];
	unsigned head, tail;
	int half;
	/* TRACEPKT values that come before FIFO data (a TFO value after a trigger, its second nibble,
	 * the gap nibble: §6.5.1 L8905-8951) */
	uint8_t special[4];
	int nspecial;
	uint32_t last_addr;      /* the last branch or TFO address (§6.7.1 L9114) */
	int last_thumb;          /* it was a Thumb one: the state a shorter address is read in (ETM2-P6) */
	unsigned thumb_percent;  /* the program's runs of Thumb blocks (e1e_program_make); 0: A32 only */
	int overflow_mode;       /* an instruction's group that does not fit overflows the FIFO (§6.10) */
	int restart_pending;     /* overflowed: the next instruction comes after a reason-b10 TFO */
	uint32_t last_daddr;
	int daddr_full_done;     /* a full data address since trace was enabled and in this period */
	uint64_t daddr_full_at;  /* the cycle of the last full data address (§6.5.6 L9073) */
	uint64_t cycles;         /* cycles, written or left out by the capture */
	uint64_t since_sync;     /* cycles since the last TFO (§6.5.1 L8851) */
	unsigned sync_period;
	uint64_t trigger_at;
	int trigger_near_tfo;    /* the trigger is drawn at the first TFO: on it or on a cycle of its value */
	int triggered;
	int tracing;             /* TraceEnable active: TD has TRACEPKT[0] = 1 in cycle-accurate mode */
	int prev_td0;            /* the last record was a TD with TRACEPKT[0] = 0 (ETM2-P26) */
	int synced;              /* a TFO has been written: the decoder gives items */
	int drop_td;             /* the capture leaves out TD cycles with TRACEPKT[0] = 0 (ETMC-F3) */
	int lsip;                /* the TFO packet being made is an LSM in progress one (§6.5.5) */
	uint32_t lsip_cur;       /* its current instruction */
	uint32_t ctxid;
	uint32_t ctx_shown;
	int ctx_valid;
	unsigned irq_percent, abort_percent, off_percent, phantom_percent, ctx_percent, wait_percent;
	/* output */
	struct enc_buf trace;
	struct tc_etmv2_record *rec;
	size_t nrec, caprec;
	struct enc_buf l3;
	struct tc_l3 range;
	int range_open;
	uint32_t range_next;
	uint32_t *variants;
	int failed;
	uint64_t insn_at;        /* the record of the last cycle that traced an instruction */
	uint64_t tfo_at;         /* the record of the last TFO cycle */
};

/* e2enc_cycle.c */
void e2e_hit(struct e2e *e, const char *fmt, ...);
void e2e_header(struct e2e *e);
unsigned e2e_fifo_count(const struct e2e *e);
int e2e_idle(const struct e2e *e);
void e2e_cycle(struct e2e *e, struct e2e_cyc *c);
void e2e_wait(struct e2e *e);
void e2e_l3_flush(struct e2e *e);
char *e2e_l1_text(struct e2e *e);

/* e2enc_entry.c: the execution's steps, shared with e2enc_exec.c */
void e2e_run_op(struct e2e *e, struct e2e_run *r, const struct e2e_op *op, const struct e2e_op *branch);
void e2e_misses_home(struct e2e *e, struct e2e_run *r);
void e2e_drain_all(struct e2e *e);
void e2e_trace_on(struct e2e *e, uint32_t addr, int lsm, uint32_t lsm_addr);
void e2e_trace_restart(struct e2e *e, int reason, uint32_t addr, int lsm, uint32_t lsm_addr);
void e2e_trace_off(struct e2e *e, struct e2e_run *r, unsigned cycles);

/* e2enc_exec.c: a logged real execution (tc_encoder.from_exec) */
struct tc_exec;
struct tc_exec_marks;
int e2e_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		  size_t errlen);

/* e2enc_packet.c */
void e2e_group_branch(struct e2e *e, struct e2e_group *g, uint32_t addr, int exception);
void e2e_group_data(struct e2e *e, struct e2e_group *g, int first, uint32_t addr, uint32_t value, int size);
void e2e_group_not_traced(struct e2e *e, struct e2e_group *g);
void e2e_group_ctxid(struct e2e *e, struct e2e_group *g);
void e2e_group_miss(struct e2e *e, struct e2e_group *g, int first, int tag, uint32_t addr);
void e2e_group_miss_data(struct e2e *e, struct e2e_group *g, int tag, uint32_t value, int size);
void e2e_group_tfo(struct e2e *e, struct e2e_group *g, int reason, uint32_t addr);

#endif
