/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_internal.h — the rvtrace encoder's parts: the program and its execution (rvenc_program.c, with
 * the instruction encoder rvenc_insn.c), Figure 5.1 over the retired instructions (rvenc_trace.c), the
 * frames (rvenc_packets.c), the L3 truth (rvenc_l3.c), the entry (rvenc_entry.c). */
#ifndef RVENC_INTERNAL_H
#define RVENC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "enc_common.h"
#include "tracecert/encoder_rvtrace.h"

/* ---- Instructions the encoder writes (its own encoder, rvenc_insn.c) ---- */
enum rvenc_op {
	rvop_addi, rvop_c_addi, rvop_c_nop, rvop_c_mv, rvop_lw,      /* ordinary (lw may fault) */
	rvop_auipc, rvop_lui, rvop_c_lui,                              /* pair writers (Table 3.2) */
	rvop_beq, rvop_bne, rvop_blt, rvop_bgeu, rvop_c_beqz, rvop_c_bnez,   /* conditional branches */
	rvop_jal, rvop_c_j, rvop_c_jal,                                /* direct jumps */
	rvop_jalr, rvop_c_jr, rvop_c_jalr,                             /* indirect jumps */
	rvop_ecall, rvop_mret,
	rvop_count
};
/* Writes the encoding of op into out (2 or 4 bytes); returns its size. */
int rvenc_insn_write(uint8_t *out, int op, int rd, int rs1, int rs2, int64_t imm);
int rvenc_insn_size(int op);

/* ---- Program ---- */
struct rvenc_insn {
	uint64_t addr;
	int op, rd, rs1, size;
	int target;            /* direct branch or jump: target block; auipc/lui: the block its jalr goes to */
};
struct rvenc_block {
	uint64_t start;
	int first, n;          /* its instructions: insn[first .. first + n - 1], the last the terminator */
};
struct rvenc_program {
	int rv64, c_ext;
	int quiet;             /* mostly branches; no interrupts, faults, notifications, context changes, gaps */
	uint64_t base, size;
	uint8_t *code;
	struct rvenc_insn *insn;
	int ninsn;
	struct rvenc_block *block;
	int nblocks;           /* the last is the trap handler */
};
int rvenc_program_make(struct rvenc_program *p, struct enc_rng *r, unsigned nblocks, int rv64, int c_ext,
		       uint64_t base, int quiet);
void rvenc_program_free(struct rvenc_program *p);

/* ---- Execution: the retired instructions (the ingress port split per instruction, L145) ---- */
enum rvenc_class { rvc_other, rvc_branch, rvc_jump, rvc_indirect, rvc_xret };
struct rvenc_retired {
	uint64_t addr, next;   /* its address; the next instruction in program flow */
	uint8_t size, cls, taken;
	uint8_t inferable;     /* rvc_indirect: rs1 was written by the instruction retired just before (RV-P12) */
	uint8_t pair_writer;   /* auipc/lui/c.lui */
	uint8_t qualified;
	uint8_t er;            /* retired with an exception or notification in its cycle (er_ccdn) */
	uint8_t exc_only_next; /* an exception or interrupt without retirement follows it (exc_only) */
	uint8_t trap_before;   /* the handler's first: the previous one was e_ccd */
	uint8_t interrupt;
	uint16_t cause;
	uint64_t tval;
	uint8_t priv;
	uint32_t context;
	uint8_t ctx_change;    /* 1: precise change at this one (Table 3.3 L179), 2: imprecise (L180) */
};
struct rvenc_run {
	struct rvenc_retired *rec;
	size_t n;
};
int rvenc_execute(const struct rvenc_program *p, struct enc_rng *r, const struct tc_rvtrace_config *cfg,
		  unsigned steps, struct rvenc_run *run);

/* ---- Trace ---- */
/* One packet the encoder sends, for record `at` (or after it: te_support). */
struct rvenc_pkt {
	struct tc_rvtrace_packet p;   /* the fields as L1 shows them */
	size_t at;                    /* the record it is sent for */
	int has_address;              /* reports the address of record at (formats 0–2 with an address, sync 0/1) */
	int walks;                    /* ends a walk at record at (has_address, or branches = 0) */
	int ret_known;                /* sync-exception: the return address is known (RV-P14) */
	uint64_t ret;
	uint64_t full_field, diff_field;   /* formats 0–2: the address fields before the choice */
	int reason_ended;             /* support after the end of qualification: 1 ended_rep, 3 ended_ntr */
};
struct rvenc_trace {
	struct rvenc_pkt *pkt;
	size_t n, cap;
	unsigned extra;               /* RV-E1 packets */
};
struct rvenc_ctx {
	const struct tc_rvtrace_config *cfg;
	struct enc_rng *rng;
	uint32_t *variants;
	unsigned resync_max;
};
void rvenc_hit(struct rvenc_ctx *c, const char *fmt, ...);
/* Figure 5.1 over the run, with the RV-E1 extra packets; 0 or -1 (memory). */
int rvenc_trace_encode(struct rvenc_ctx *c, const struct rvenc_run *run, struct rvenc_trace *t);
void rvenc_trace_free(struct rvenc_trace *t);
/* The frames of every packet (RV-F1…RV-F6) and the L1 lines; 0 or -1. */
int rvenc_packets_write(struct rvenc_ctx *c, struct rvenc_trace *t, struct enc_buf *bytes, struct enc_buf *l1);
/* The one writer of a packet's frame (rvenc_packets.c), for the random encoder and the assembler
 * (rvenc_asm.c): b is the last reported address (the differential base); force chooses the address
 * form (0 full, 1 differential, -1 the fewer bits); f the payload's bytes when more than the fewest
 * (bytes) and the long form (long_form, RV-F4). */
struct rvenc_base {
	int valid;
	uint64_t addr;
};
struct rvenc_frame {
	unsigned bytes;
	int long_form;
};
void rvenc_packet_frame(struct rvenc_ctx *c, struct rvenc_pkt *k, struct rvenc_base *b, int force,
			const struct rvenc_frame *f, struct enc_buf *bytes);

/* The assembler (rvenc_asm.c): tc_encoder.asm_open, asm_write, asm_close. */
struct tc_item;
void *rvenc_asm_open(const void *cfg);
long rvenc_asm_write(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		     size_t errlen);
void rvenc_asm_close(void *w);

/* The L3 truth of the run as the packets report it. */
void rvenc_l3_write(struct rvenc_ctx *c, const struct rvenc_run *run, const struct rvenc_trace *t,
		    struct enc_buf *l3);

/* ---- A logged execution (rvenc_exec.c): tc_encoder.from_exec ---- */
struct tc_exec;
struct tc_exec_marks;
struct tc_enc_result;
int rvenc_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		    size_t errlen);

#endif
