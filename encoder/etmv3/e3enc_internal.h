/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_internal.h — private state of the random ETMv3 encoder (an ETMv3 trace-unit model). */
/* Independence: the encoder shares with the reference decoder only the public
 * packet and L3 structs and their text writers (tracecert/etmv3.h
 * tc_etmv3_format_packet, tracecert/trace.h tc_l3_format). Its compression
 * references, its packet layouts and its execution model are its own; the L3
 * truth is what that execution traced, grouped as reference/etmv3/FORMAT.md
 * "L3" and reference/L3FORMAT.md say. */
#ifndef TC_E3ENC_INTERNAL_H
#define TC_E3ENC_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder_etmv3.h"
#include "enc_common.h"

#define E3E_MAX_ATOMS 48    /* atoms waiting for their P-headers */
#define E3E_MAX_DATA 96     /* data packets waiting for the P-header of their instruction */
#define E3E_MAX_CALLS 64
#define E3E_MAX_FRAMES 8

/* What the trace unit knows every decoder holds: the last broadcast
 * instruction address with its instruction set, security and Hyp state
 * (§7.3.5 "the last branch address that it has output"; Table 7-13), the
 * context, the last traced data address and BE bit (§7.4.2), the timestamp
 * (natural binary). */
struct e3e_last {
	uint32_t address;
	int isa;                   /* enum tc_etmv3_isa */
	int ns;
	int hyp;
	uint32_t ctxid;
	uint32_t vmid;
	uint32_t daddr;
	int be;
	int dsync;                 /* the next data address is output whole (§7.7.4 D-sync) */
	uint64_t ts;
};

/* What an atom stands for at L3. */
enum e3e_atom_kind {
	e3e_atom_insn,             /* an instruction (its E or N is the instruction's) */
	e3e_atom_half,             /* the first atom of a 32-bit Thumb instruction traced as two (ETM3-P13) */
	e3e_atom_bytecode          /* a Java bytecode (Jazelle state: no L3, ETM3-P12) */
};

/* An E or N atom waiting for its P-header. */
struct e3e_atom {
	uint8_t e;                 /* 1 E, 0 N */
	uint8_t kind;              /* enum e3e_atom_kind */
	uint8_t isa;               /* enum tc_isa of the instruction */
	uint8_t type;              /* enum tc_insn_type: a branch ends the range */
	uint8_t size;
	uint32_t addr;             /* the address the trace shows */
	int ndata;                 /* data packets written after the P-header that holds it */
	uint32_t seq;              /* a logged execution's instruction (index + 1; 0: none), e3enc_exec.c */
};

/* A data packet (§7.4). */
enum e3e_dkind { e3e_d_normal, e3e_d_placeholder, e3e_d_ooo, e3e_d_vnt, e3e_d_suppressed, e3e_d_store_failed };

struct e3e_dpkt {
	int kind;                  /* enum e3e_dkind */
	int a;                     /* the header's A bit */
	uint32_t addr;
	int be;
	uint32_t value;
	int size;                  /* value bytes: 0, 1, 2 or 4 */
	int tag;                   /* placeholder, out-of-order data: 1..3 */
};

/* Exception information of a branch packet (§7.3.5, Table 7-10, Figure 7-25). */
struct e3e_exc {
	unsigned type;             /* Exception[8:0]; 0: none (a state change or a resumption) */
	int can;
	unsigned resume;           /* Resume[3:0] (ARMv7-M) */
	int ns;                    /* the security state after the branch */
	int hyp;                   /* Hyp mode after the branch (ETMv3.5) */
	int byte5;                 /* the deprecated fifth-byte form (b1CEEExxx, Table 7-9) */
	unsigned eee;              /* its EEE */
};

/* The range being built and the context last reported: the L3 truth is
 * written in the order a decoder following reference/etmv3/FORMAT.md "L3"
 * gives it (a range is output when an item or an instruction that does not
 * continue it comes; a Can bit removes the last instruction an atom traced). */
struct e3e_l3 {
	struct tc_l3 range;
	int open;
	int ended;                 /* it ends with a branch */
	uint64_t next;             /* the address after its last instruction (2^32 past the top) */
	uint64_t prev_last;        /* the range's last instruction before the last one traced */
	uint32_t last_addr;        /* the last instruction an atom traced */
	int last_valid;
	int last_in_range;
	int eret_held;             /* A and R profile: the exception return of the range's last instruction (ETM3-X4) */
	uint64_t eret_offset;
	struct tc_context reported;
	int reported_valid;
};

/* An exception taken and not yet returned from. */
struct e3e_frame {
	uint64_t ret;              /* the return address (model) */
	int state;                 /* enum tc_etmv3_isa returned to */
	int ns;
	int hyp;
	unsigned resume;           /* ARMv7-M: the instruction was paused after this many transfers */
};

struct e3e {
	struct enc_rng rng;
	struct tc_etmv3_config cfg;
	struct enc_program prog;
	uint8_t *cond;             /* per block: its A32 terminator was made conditional (e3enc_program.c) */
	uint8_t *bxj;              /* per block: its A32 BX became BXJ (enters Jazelle state at times) */
	struct enc_buf trace;
	struct enc_buf l1;
	void (*l1_record)(void *ctx, const struct tc_etmv3_packet *p);   /* tc_enc_etmv3_options.l1_record */
	void *l1_ctx;
	struct enc_buf l3;
	uint32_t *variants;
	struct e3e_last last;
	struct e3e_atom atoms[E3E_MAX_ATOMS];
	int natoms;
	struct e3e_dpkt data[E3E_MAX_DATA];
	int ndata;
	struct e3e_l3 t;
	/* The execution: */
	int itrace;                /* instruction trace (0 in data-only mode) */
	int dtrace;                /* data trace: data addresses or values are traced */
	uint64_t pc;               /* the next instruction (model address) */
	int state;                 /* enum tc_etmv3_isa */
	int ns;
	int hyp;
	uint32_t ctxid;
	uint32_t vmid;
	int use_thumbee;
	int use_jazelle;
	int traced_isa[4];         /* an I-sync or branch packet gave this enum tc_etmv3_isa (the vector's tags) */
	uint32_t jz_pc;            /* Jazelle state: the next bytecode */
	int jz_atoms;              /* bytecodes traced since the trace last gave a Jazelle address */
	int walk_unknown;          /* a decoder's walk has no address (an exception then has ret=unknown) */
	uint64_t calls[E3E_MAX_CALLS];   /* the program's own call stack (model return addresses) */
	int call_depth;
	struct e3e_frame frames[E3E_MAX_FRAMES];
	int nframes;
	int cc_owed;               /* cycle-accurate: a Non-periodic I-sync still needs its Cycle count packet */
	int cc_ignored;            /* the counts of the most recent Non-periodic I-sync must be ignored (ETM3-P25) */
	int cc_reason;             /* the reason of that I-sync */
	unsigned burst;
	unsigned burst_bias;
	unsigned loop_left;
	uint64_t ts_clock;
	/* Data trace: */
	uint32_t data_base;        /* the data the program's loads and stores reach */
	uint32_t sp;               /* the stack (POP, exception stack push and pop) */
	int be;                    /* the data endianness (BE-8 transfers) */
	int suppress;              /* data packets still suppressed after a Data suppressed packet */
	int ooo_tag[4];            /* an Out-of-order placeholder of tag 1..3 waits for its data */
	uint32_t ooo_value[4];
	uint64_t resume_at;        /* ARMv7-M: the paused instruction the exception return resumes */
	int resume_skip;           /* its transfers done before the pause (0: none waiting) */
	int overflow;              /* an overflow comes next: the branch packet of the last branch was lost */
	int branch_owed;           /* a taken indirect branch's atom is written, its branch address packet not yet */
	uint32_t branch_owed_at;
	int jz_steps;              /* Jazelle state: steps left before the way back */
	uint64_t *seq_off;         /* a logged execution: where each instruction's P-header went (e3enc_exec.c) */
};

/* ---- Variants and configuration (e3enc_core.c) --------------------------------- */
/* Counts one use of a variant of encoder/etmv3/variants.txt; a name missing
 * from it is a bug of the encoder, reported at once (abort). */
void e3e_hit(struct e3e *e, const char *fmt, ...);
/* A length between min and max: mostly min, as a trace unit would, sometimes
 * longer (still valid). */
int e3e_length(struct e3e *e, int min, int max);

/* ---- Program (e3enc_program.c) -------------------------------------------------- */
/* Rewrites some instructions of the shared program: A32 terminators made
 * conditional, BX made BXJ, STR made STREX. */
int e3e_program_passes(struct e3e *e);
/* The facts about the instruction at a model address. */
struct e3e_insn {
	uint64_t at;
	int size;
	int block;
	int term;                  /* it is its block's terminator */
	int t32;                   /* T32 code (else A32) */
	int cond;                  /* A32 condition field (14: always) */
	int transfers;             /* data transfers (0: not a data instruction) */
	int store;                 /* a store */
	int strex;                 /* a store exclusive (may fail) */
};
void e3e_insn_at(const struct e3e *e, uint64_t at, struct e3e_insn *i);
/* enum tc_etmv3_isa of the code at a model address (ARM or Thumb). */
int e3e_code_isa(const struct e3e *e, uint64_t a);
uint32_t e3e_vis(uint64_t a);

/* ---- Packets (e3enc_packets.c): each writes its bytes and its L1 line, updates
 * the compression references and returns the packet's offset; atoms waiting
 * are written first. --------------------------------------------------------------- */
uint64_t e3e_pkt_async(struct e3e *e);
/* The writers of one encoding (the random packets below and the assembler,
 * e3enc_asm.c, call them, so that each layout has one writer): the bytes and
 * the compression references they change; k is a field's length in bytes. */
struct e3e_isync;
struct e3e_exc;
struct e3e_dpkt;
int e3e_cc_min_bytes(uint32_t c);
void e3e_put_cc(struct e3e *e, uint32_t c, int k);
int e3e_addr_min_bytes(const struct e3e *e, uint32_t a, int isa, uint32_t ref, int ref_isa, int kmin);
void e3e_put_section(struct e3e *e, uint32_t a, int isa, int k, int flag, int byte5);
int e3e_exc_byte1_needed(const struct e3e *e, const struct e3e_exc *x, int last_hyp);
int e3e_put_exception(struct e3e *e, const struct e3e_exc *x, int isa, int b1);
uint64_t e3e_put_branch(struct e3e *e, uint32_t address, int isa, const struct e3e_exc *x, int k, int b1);
uint64_t e3e_put_isync(struct e3e *e, const struct e3e_isync *s, int cc_k, int lsip_k, int lsip_b1);
int e3e_ts_min_bytes(const struct e3e *e, uint64_t g, uint64_t pg);
uint64_t e3e_ts_code(const struct e3e *e, uint64_t ts);
uint64_t e3e_put_timestamp(struct e3e *e, uint64_t ts, int r, int k);
int e3e_daddr_min_bytes(const struct e3e *e, uint32_t a, int be);
void e3e_put_daddr(struct e3e *e, uint32_t a, int be, int k);
void e3e_put_data(struct e3e *e, const struct e3e_dpkt *d, int ss, int k);
/* The atoms a P-header holds, oldest first (W, E, N), into out (24 bytes). */
void e3e_header_pattern(const struct e3e *e, unsigned h, char *out);
uint64_t e3e_put_pheader(struct e3e *e, unsigned h);
uint64_t e3e_put_async(struct e3e *e, int zeros);
uint64_t e3e_put_cycle_count(struct e3e *e, uint32_t cc, int k);

/* The assembler (e3enc_asm.c): tc_encoder.asm_open, asm_write, asm_close. */
struct tc_item;
void *e3e_asm_open(const void *cfg);
long e3e_asm_write(void *w, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		   size_t errlen);
void e3e_asm_close(void *w);
/* I-sync: reason, cycle count (cc >= 0: header 70), LSiP (data_insn: the
 * data instruction's address, address the current one; lsip_ns: the
 * security state of the current instruction). */
struct e3e_isync {
	uint32_t address;
	int isa;
	int reason;
	int64_t cc;                /* -1: none */
	int lsip;
	uint32_t data_insn;
	int lsip_ns;
};
uint64_t e3e_pkt_isync(struct e3e *e, const struct e3e_isync *s);
/* Branch address packet; x NULL: no exception information. */
uint64_t e3e_pkt_branch(struct e3e *e, uint32_t address, int isa, const struct e3e_exc *x);
/* Whether a branch packet to isa needs exception information to state it
 * (changes to and from ThumbEE, Table 7-14). */
int e3e_needs_altisa(const struct e3e *e, int isa);
uint64_t e3e_pkt_cycle_count(struct e3e *e, uint32_t cc);
uint64_t e3e_pkt_context_id(struct e3e *e, uint32_t ctxid);
uint64_t e3e_pkt_vmid(struct e3e *e, uint32_t vmid);
uint64_t e3e_pkt_timestamp(struct e3e *e, uint64_t ts, int r, int whole);
uint64_t e3e_pkt_simple(struct e3e *e, unsigned header);   /* trigger, ignore, exception entry and exit */
/* A data packet: written after the P-header of the last atom waiting, or at once. */
void e3e_data(struct e3e *e, const struct e3e_dpkt *d);
/* Adds an atom (written in a P-header later). */
void e3e_atom(struct e3e *e, const struct e3e_atom *a);
void e3e_flush_atoms(struct e3e *e);
/* Cycle-accurate: a P-header of W atoms only (cycles without instructions). */
void e3e_waits(struct e3e *e);
/* A random cycle count. */
uint32_t e3e_random_cc(struct e3e *e);

/* ---- L3 truth (e3enc_l3.c) --------------------------------------------------------- */
void e3e_item(struct tc_l3 *x, int kind, uint64_t offset);
/* An item that is not an instruction: the range being built goes first. */
void e3e_l3_emit(struct e3e *e, const struct tc_l3 *x);
void e3e_l3_simple(struct e3e *e, int kind, uint64_t offset);
/* The instruction an E or N atom at offset traced. */
void e3e_l3_insn(struct e3e *e, uint64_t offset, const struct e3e_atom *a);
/* A Can bit: the last instruction traced is removed (ETM3-P16). */
void e3e_l3_cancel(struct e3e *e);
/* An Exception return packet at offset (ETM3-X4): at once on an ARMv7-M core;
 * on an A or R profile core held with the range of the instruction it marks,
 * output after it, dropped with it by a Can bit. */
void e3e_l3_exception_return(struct e3e *e, uint64_t offset);
/* The range being built is output (an I-sync, the end). */
void e3e_l3_deliver(struct e3e *e);
/* A context item when the context a decoder knows changed (ETM3-P19). */
void e3e_l3_context(struct e3e *e, uint64_t offset);
void e3e_l3_forget_last(struct e3e *e);

/* ---- Data trace (e3enc_data.c) ------------------------------------------------------ */
/* The data packets of a data instruction that executed (after its atoms);
 * to_pc: its last transfer loads the PC (loaded_pc, with the T bit). */
void e3e_data_insn(struct e3e *e, const struct e3e_insn *i, int to_pc, uint32_t loaded_pc);
/* count transfers of a multiple load from transfer skip on (ARMv7-M: an
 * instruction paused for continuation, and its resumption). */
void e3e_data_partial(struct e3e *e, const struct e3e_insn *i, uint32_t loaded_pc, int skip, int count);
/* ARMv7-M exception entry and exit with their stack push and pop (§7.5.3). */
void e3e_data_stack(struct e3e *e, int push);
/* An Out-of-order data packet for a placeholder still waiting, at times. */
void e3e_data_ooo_returns(struct e3e *e);
/* After a trace gap the first data address is whole (§7.7.4). */
void e3e_data_gap(struct e3e *e);

/* ---- A logged execution (e3enc_exec.c): tc_encoder.from_exec ---------------------------- */
struct tc_exec;
struct tc_exec_marks;
struct tc_enc_result;
int e3e_from_exec(const struct tc_exec *x, struct tc_enc_result *r, struct tc_exec_marks *m, char *err,
		  size_t errlen);

/* ---- The execution (e3enc_trace.c) ------------------------------------------------------ */
void e3e_start(struct e3e *e);
void e3e_step(struct e3e *e);
void e3e_finish(struct e3e *e);

#endif
