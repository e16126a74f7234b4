/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_internal.h — private state of the random PFT/PTM encoder (a PTM trace-unit model). */
/* Independence: the encoder shares with the reference decoder only the public
 * packet and L3 structs and their text writers (tracecert/ptm.h
 * tc_ptm_format_packet, tracecert/trace.h tc_l3_format). Its LastState, its
 * return stack, its address compression and its execution model are its own;
 * the L3 truth is what that execution traced. */
#ifndef TC_PTMENC_INTERNAL_H
#define TC_PTMENC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder_ptm.h"
#include "enc_common.h"

/* The return stack: 15 entries, a push onto a full stack drops the oldest
 * (reference/ptm/ERRATA.md PTM-P13: a decoder and the trace unit must agree). */
#define PE_RS_DEPTH 15
/* Atoms held back until their packet is written (a non-cycle-accurate atom
 * packet holds 1 to 5). */
#define PE_MAX_ATOMS 5
#define PE_MAX_CALLS 64

/* LastState as the trace unit knows every decoder holds it: the reference
 * of address compression (§4.5.4: "the address in the last branch address
 * packet or I-sync packet"), of NS/Hyp in packets without exception
 * information, and of timestamp bit replacement. */
struct pe_last {
	uint32_t address;
	int isa;                   /* enum tc_ptm_isa */
	int ns;
	int hyp;
	uint32_t ctxid;
	uint32_t vmid;
	uint64_t ts;               /* natural binary */
};

struct pe_rs_entry {
	uint32_t address;
	int isa;                   /* enum tc_ptm_isa */
	int ns;
};

/* An atom waiting for its packet, with the L3 items its waypoint gives
 * (a range, split in two where the walk runs across 2^32). */
struct pe_atom {
	int taken;
	struct tc_l3 item[2];
	int nitems;
	size_t mark_first;         /* a logged execution: the instructions it traces (pe.marks) */
	size_t mark_count;
};

/* Exception information of a branch address packet (§4.5.4). */
struct pe_exc {
	unsigned type;             /* Exception[8:0]; 0: a state change only */
	int ns;
	int hyp;
};

struct pe {
	struct enc_rng rng;
	struct tc_ptm_config cfg;
	struct enc_program prog;
	uint8_t *cond;             /* per block: its A32 terminator was made conditional (ptmenc_program.c) */
	struct enc_buf trace;
	struct enc_buf l1;
	void (*l1_record)(void *ctx, const struct tc_ptm_packet *p);   /* tc_enc_ptm_options.l1_record */
	void *l1_ctx;
	struct enc_buf l3;
	uint32_t *variants;
	struct pe_last last;
	struct pe_atom atoms[PE_MAX_ATOMS];
	int natoms;
	/* The execution, and the analysis a decoder makes of it: */
	uint64_t walk;             /* CurrentState: the first instruction not yet traced (model address) */
	int ee;                    /* T32 code runs in ThumbEE state (decoded as T32, PTM-P12) */
	int use_thumbee;           /* this execution enters ThumbEE state at times */
	int ns;
	int hyp;
	uint32_t ctxid;
	uint32_t vmid;
	struct tc_context reported;  /* the last context an L3 item gave */
	int reported_valid;
	struct pe_rs_entry rs[PE_RS_DEPTH];
	int rs_n;
	uint64_t calls[PE_MAX_CALLS];   /* the program's own call stack (model return addresses) */
	int call_depth;
	uint64_t ts_clock;
	unsigned burst;            /* blocks left to run back to back */
	unsigned burst_bias;       /* percent of conditional branches taken in a burst */
	unsigned loop_left;        /* iterations left in the current loop block */
	/* A logged execution (ptmenc_exec.c; NULL in a random one): per
	 * instruction, the offset of the packet that traced it; the next atom
	 * traces the mark_count instructions from mark_first. */
	uint64_t *marks;
	size_t mark_first;
	size_t mark_count;
};

/* ---- Variants (ptmenc_core.c) ------------------------------------------- */
/* Counts one use of a variant of encoder/ptm/variants.txt; a name missing
 * from it is a bug of the encoder, reported at once (abort). */
void pe_hit(struct pe *e, const char *fmt, ...);

/* Whether every field of a fixed configuration has a value the encoder knows. */
int pe_config_valid(const struct tc_ptm_config *c);

/* ---- Program (ptmenc_program.c) ------------------------------------------ */
/* Makes some A32 terminators conditional (BL, BX, BLX, LDM/LDR/MOV to PC). */
int pe_program_conditions(struct pe *e);
/* enum tc_ptm_isa of the code at a model address. */
int pe_isa_at(const struct pe *e, uint64_t a);
/* The address the trace shows: 32 bits. */
uint32_t pe_vis(const struct pe *e, uint64_t a);
/* The block whose terminator is the next waypoint at or after a (WFI is
 * not a waypoint, PTM-P11), or -1 outside the code. */
int pe_next_waypoint(const struct pe *e, uint64_t a);
/* Whether the instructions from a through b run across 2^32. */
int pe_crosses(uint64_t a, uint64_t b);

/* ---- Packets (ptmenc_packets.c): each writes its bytes and its L1 line
 * and updates LastState; each returns the packet's offset. Atoms held
 * back are written first. ------------------------------------------------- */
uint64_t pe_pkt_async(struct pe *e);
uint64_t pe_pkt_isync(struct pe *e, uint32_t address, int isa, int reason, uint32_t cc);
uint64_t pe_pkt_branch(struct pe *e, uint32_t address, int isa, const struct pe_exc *exc, uint32_t cc);
/* Whether a branch address packet without exception information can state
 * isa: a fifth byte selecting Thumb keeps LastState's ThumbEE (PTM-P4), so
 * Thumb after ThumbEE and ThumbEE after Thumb need the AltISA bit. */
int pe_plain_branch_states(const struct pe *e, int isa);
uint64_t pe_pkt_waypoint(struct pe *e, uint32_t address, int isa);
uint64_t pe_pkt_context_id(struct pe *e, uint32_t ctxid);
uint64_t pe_pkt_vmid(struct pe *e, uint32_t vmid);
uint64_t pe_pkt_timestamp(struct pe *e, uint64_t ts, uint32_t cc);
uint64_t pe_pkt_simple(struct pe *e, int kind);   /* trigger, ignore, exception return */
/* Adds an atom; in cycle-accurate mode it is written at once with cc. */
void pe_atom(struct pe *e, int taken, const struct tc_l3 *item, int nitems, uint32_t cc);
void pe_flush_atoms(struct pe *e);
/* A random cycle count (cycle-accurate mode). */
uint32_t pe_random_cc(struct pe *e);

/* The byte layouts behind the packets above, without a random choice: the one
 * writer of each packet form, used by them and by the assembler
 * (ptmenc_asm.c, tc_encoder.write_l1). k is a section's length in bytes. */
void pe_put_byte(struct pe *e, unsigned byte);
int pe_cc_min_bytes(uint32_t c);
void pe_put_cc(struct pe *e, uint32_t c, int k);                 /* k 1..5 */
void pe_put_address(struct pe *e, uint32_t a, int isa, int k, int flag);   /* k 1..5 */
void pe_put_le(struct pe *e, uint32_t v, int n);
void pe_put_async(struct pe *e, int zeros);
/* The header, address and information byte; the cycle count and context ID follow. */
void pe_put_isync(struct pe *e, uint32_t address, int isa, int reason, int ns, int hyp);
void pe_put_exception(struct pe *e, const struct pe_exc *x, int isa, int two);
void pe_put_waypoint(struct pe *e, uint32_t address, int isa, int k, int info);
void pe_put_context_id(struct pe *e, uint32_t ctxid);
void pe_put_vmid(struct pe *e, uint32_t vmid);
unsigned pe_simple_header(int kind);
void pe_put_simple(struct pe *e, int kind);
/* A timestamp's value as the packet carries it (Gray code or binary), and its k bytes of at most maxb. */
uint64_t pe_ts_code(const struct pe *e, uint64_t ts);
void pe_put_ts(struct pe *e, uint64_t g, int maxb, int k);
/* The shortest forms LastState allows: address section (at least min bytes;
 * altisa: exception information follows), timestamp bytes after pg. */
int pe_addr_min_bytes(const struct pe *e, uint32_t a, int isa, int min, int altisa);
int pe_ts_min_bytes(uint64_t g, uint64_t pg, int maxb);
/* The header of n atoms (bit i of taken: atom i, oldest first, E), not cycle-accurate. */
unsigned pe_atom_header(int n, uint32_t taken);
/* A cycle-accurate atom packet with a k-byte cycle count; returns its header. */
unsigned pe_put_atom_ca(struct pe *e, int taken, uint32_t cc, int k);

/* ---- The assembler (ptmenc_asm.c): tc_encoder.asm_open, asm_write, asm_close */
void *pe_asm_open(const void *cfg);
long pe_asm_write(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		  size_t errlen);
void pe_asm_close(void *w);

/* ---- L3 truth (ptmenc_trace.c) -------------------------------------------- */
void pe_l3(struct pe *e, const struct tc_l3 *x);
void pe_item(struct tc_l3 *x, int kind, uint64_t offset);

/* ---- The execution (ptmenc_trace.c) ---------------------------------------- */
void pe_start(struct pe *e);
void pe_step(struct pe *e);
void pe_finish(struct pe *e);

/* ---- A logged execution (ptmenc_exec.c): tc_encoder.from_exec ---------------------------- */
struct tc_exec;
struct tc_exec_marks;
int pe_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		 size_t errlen);

#endif
