/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_common.h — what every protocol's random encoder shares: random numbers, buffers, programs. */
/* encoder/common.c and encoder/program.c (random A64/A32/T32 programs);
 * nothing here knows a trace protocol. */
#ifndef TC_ENC_COMMON_H
#define TC_ENC_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "tracecert/encoder.h"

/* ---- Random numbers (splitmix64): deterministic per seed and entropy ----- */
struct enc_rng {
	uint64_t s;                 /* splitmix64 state */
	const uint8_t *entropy;     /* caller's bytes not used yet (tc_enc_options.entropy), or NULL */
	size_t left;                /* how many */
};
/* A generator seeded by seed; entropy (len bytes, may be NULL) perturbs
 * the first len draws, one byte each (a fuzzer's bytes steering an encoder). */
void enc_rng_init(struct enc_rng *r, uint64_t seed, const uint8_t *entropy, size_t len);
uint64_t enc_next(struct enc_rng *r);
unsigned enc_below(struct enc_rng *r, unsigned n);        /* 0..n-1, n > 0 */
int enc_chance(struct enc_rng *r, unsigned percent);

/* ---- Variant lists: a protocol's variants.txt, embedded sorted ----------- */
/* The index of name among the n sorted names, or -1. */
int enc_variant_find(const char *const *names, int n, const char *name);
/* Counts one use of the variant the format names in counts (parallel to
 * names); a name missing from the list (the file list names) is a bug of
 * the encoder: reported, then abort(). */
void enc_variant_hit(const char *const *names, int n, uint32_t *counts, const char *list, const char *fmt,
		     va_list ap);

/* ---- Growable text and bytes ---------------------------------------------- */
struct enc_buf {
	char *p;
	size_t len;
	size_t cap;
};
void enc_buf_put(struct enc_buf *b, const void *data, size_t n);
void enc_buf_printf(struct enc_buf *b, const char *fmt, ...);
/* b's bytes handed to the caller (to free), or an empty string when it holds none; b is empty after. */
char *enc_buf_take(struct enc_buf *b);

/* ---- The assemblers (tc_encoder.asm_write) ------------------------------ */
/* The one packet an assembler's writers put in b, handed out to out (cap
 * bytes): its first byte must be header and, when len is not 0, its length
 * len (the distance to the next item's offset). Returns its length; -1 with
 * err when its first byte is not header or it is longer than cap; -2 (err
 * untouched) when its length is not len, which the caller says in its
 * protocol's words. */
long enc_asm_packet_out(const struct enc_buf *b, unsigned header, size_t len, uint8_t *out, size_t cap, char *err,
			size_t errlen);

/* An address whose bits below shift (1 or 2) the packet does not hold, so that it would be read
 * back as another: -1 with err ("addr=…: WHAT address in STATE state has bit 0 clear"); else 0. */
int enc_asm_unaligned(uint64_t address, int shift, const char *what, const char *state, char *err, size_t errlen);

/* A switch between Thumb and ThumbEE, from state last to state isa, written by a packet WHAT, which
 * holds no AltISA bit (the only field telling the two apart): -1 with err, always. */
int enc_asm_altisa_missing(const char *isa, const char *last, const char *what, char *err, size_t errlen);

/* ---- Program: basic blocks in one or more image regions, each region of
 * one instruction set (A64, A32 or T32) ----------------------------------- */
enum enc_isa { enc_a64, enc_a32, enc_t32 };

enum enc_term {
	/* A64 */
	term_b, term_bl, term_bcond, term_cbz, term_tbz, term_br, term_blr, term_ret,
	term_retaa, term_braa, term_blraa, term_eret, term_isb, term_wfi,
	/* AArch32 (term_b, term_bl, term_bcond, term_cbz, term_isb and term_wfi too) */
	term_b_w,       /* T32 B.W (32-bit) */
	term_bcond_w,   /* T32 B<c>.W (32-bit) */
	term_blx_imm,   /* BLX (immediate): a call into the other instruction set */
	term_bx_lr,     /* BX LR: a return */
	term_pop_pc,    /* POP {..., PC}: a return */
	term_bx,        /* BX Rm */
	term_blx_reg,   /* BLX Rm */
	term_ldr_pc,    /* LDR PC, [Rn, #imm] */
	term_mov_pc,    /* MOV PC, Rm */
	term_count
};

/* How a terminator moves the PC. */
enum enc_flow {
	flow_jump,      /* direct, unconditional */
	flow_call,      /* direct, with link */
	flow_cond,      /* direct, conditional */
	flow_return,    /* indirect, to a return address */
	flow_indirect,  /* indirect */
	flow_icall,     /* indirect, with link */
	flow_fall       /* ISB, WFI: on to the next instruction */
};

struct enc_term_info {
	const char *type;       /* the L3 InstType: "dir", "indir", "isb", "wfx" */
	int flow;               /* enum enc_flow */
};
const struct enc_term_info *enc_term_info(int term);

struct enc_block {
	uint64_t start;         /* first instruction */
	uint64_t term_addr;     /* the terminator */
	int nother;             /* non-P0 instructions before it */
	unsigned wide;          /* T32: bit i set when ordinary instruction i is 32-bit */
	int term;               /* enum enc_term */
	int term_size;          /* the terminator's size in bytes (2 or 4) */
	int target;             /* direct branches: target block */
	int isa;                /* enum enc_isa (its region's) */
	int region;
};

#define ENC_MAX_BLOCKS 4096
#define ENC_MAX_REGIONS TC_ENC_MAX_REGIONS

struct enc_region {
	uint64_t base;
	uint8_t *code;
	uint8_t *insn_size;     /* per halfword: size of the instruction starting there, 0 elsewhere */
	size_t size;
	int isa;                /* enum enc_isa */
	int first;              /* its blocks: block[first .. first + nblocks - 1] */
	int nblocks;
};

struct enc_program {
	struct enc_region region[ENC_MAX_REGIONS];   /* by address */
	int nregions;
	struct enc_block *block;                     /* by address, nblocks of them (malloc'd) */
	int nblocks;
};

/* Instruction sets of a program: A64 only, AArch32 only (A32 and/or T32),
 * or both (the execution switches at exceptions and trace-on gaps); T32
 * only (a core that has no other instruction set, as ARMv7-M). */
enum enc_mix { mix_a64, mix_aarch32, mix_both, mix_t32 };

int enc_program_make(struct enc_program *p, struct enc_rng *r, unsigned nblocks, int mix);
void enc_program_free(struct enc_program *p);
/* Index of the block starting at address, or -1. */
int enc_block_at(const struct enc_program *p, uint64_t address);
/* Block whose instructions (others or terminator) contain address, or -1. */
int enc_block_containing(const struct enc_program *p, uint64_t address);
/* Instruction set of the region holding address (enum enc_isa), or -1. */
int enc_isa_at(const struct enc_program *p, uint64_t address);
/* Size of the instruction starting at address, 0 if none starts there. */
int enc_insn_size(const struct enc_program *p, uint64_t address);
/* Instructions from first through last (inclusive), in address order. */
uint64_t enc_insn_count(const struct enc_program *p, uint64_t first, uint64_t last);
/* The instruction before the one at address; the k-th (from 0) from first. */
uint64_t enc_insn_prev(const struct enc_program *p, uint64_t address);
uint64_t enc_insn_nth(const struct enc_program *p, uint64_t first, uint64_t k);
/* A random block of execution state group (0 AArch64, 1 AArch32, -1 any). */
int enc_random_block(const struct enc_program *p, struct enc_rng *r, int group);
/* Whether the program has blocks of both execution states. */
int enc_program_mixed(const struct enc_program *p);
/* The address the trace shows for a (model) address: AArch32 addresses are
 * 32-bit, so code across 2^32 continues at 0. */
uint64_t enc_visible(const struct enc_program *p, uint64_t address);
/* Moves the code into image regions at their visible addresses (a region
 * across 2^32 becomes two); returns how many. */
int enc_program_image(struct enc_program *p, struct tc_enc_region *out);

#endif
