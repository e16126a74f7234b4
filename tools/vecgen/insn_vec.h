/* SPDX-License-Identifier: BSD-3-Clause */
/* insn_vec.h — what the instruction-table vector programs (tools/vecgen/<p>_insn.c) share: a vector
 * being laid out (packet notes, annotated image lines, expected L3 lines with their reasons, the
 * layout's checks) and its writing through the one .tcv writer. Names no protocol. */
#ifndef TC_VECGEN_INSN_VEC_H
#define TC_VECGEN_INSN_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "insn_rows.h"
#include "tracecert/protocol.h"
#include "tracecert/trace.h"

/* A growable text. */
struct insn_text {
	char *p;
	size_t len, cap;
};
void insn_text_printf(struct insn_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void insn_text_free(struct insn_text *t);

/* A packet of the trace: where it starts and the note beside it. */
struct insn_pkt {
	uint64_t off;
	char note[200];
};

/* An instruction of the image: a table row at an address. */
struct insn_img {
	uint64_t address;
	const struct insn_row *row;
	int n;                    /* bytes of the row placed: its size, or fewer (an image cut inside it) */
	char note[200];
};

/* A vector being laid out. The trace bytes and the L1 lines are the
 * protocol's encoder's (insn_vec_write takes them); the rest is kept here. */
struct insn_vec {
	char name[64];
	int protocol;             /* enum tc_protocol_id, for the L3 items */
	struct insn_text head;    /* the description */
	struct insn_pkt *pkt;
	size_t npkt, pkt_cap;
	struct insn_img *img;
	size_t nimg, img_cap;
	struct insn_text l3;      /* [expect.l3] lines, each with its reason */
	char err[400];            /* the first problem of the layout ("" while none) */
};

void insn_vec_init(struct insn_vec *v, const char *name, int protocol);
void insn_vec_free(struct insn_vec *v);
/* Keeps the first problem (a bug of the layout, not of any decoder). */
void insn_vec_fail(struct insn_vec *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The packet the encoder just wrote at off, with its note. */
void insn_vec_packet(struct insn_vec *v, uint64_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Puts row at address (checked: no overlap with what is there). */
void insn_vec_place(struct insn_vec *v, uint64_t address, const struct insn_row *row, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Puts the first n bytes of row at address: the image ends inside the instruction. */
void insn_vec_place_part(struct insn_vec *v, uint64_t address, const struct insn_row *row, int n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Puts row at address as insn_vec_place; a 16-bit T32 row with the first halfword of pad (a
 * 32-bit T32 row) after it: the image holds the four bytes a decoder may fetch before it
 * decodes a T32 instruction, and still no whole instruction at address + 2. */
void insn_vec_place_alone(struct insn_vec *v, uint64_t address, const struct insn_row *row, const struct insn_row *pad,
			  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The row placed whole at address, or NULL. */
const struct insn_row *insn_vec_row_at(const struct insn_vec *v, uint64_t address);
/* Whether the image holds every byte of an instruction of isa at address (T32: its size
 * from its first halfword, bits 15:11 = 11101, 11110 or 11111 a 32-bit one). */
int insn_vec_holds(const struct insn_vec *v, uint64_t address, int isa);

/* Expected L3 lines (through the one L3 text writer, tc_l3_format), each
 * followed by "# why". */
void insn_vec_l3_item(struct insn_vec *v, uint64_t off, int kind, const char *why);
void insn_vec_l3_context(struct insn_vec *v, uint64_t off, const struct tc_context *c, const char *why);
void insn_vec_l3_range(struct insn_vec *v, uint64_t off, uint64_t first, uint64_t last, uint64_t n, int isa,
		       int type, int taken, const char *why);
/* An exception item: its type and its return address. */
void insn_vec_l3_exception(struct insn_vec *v, uint64_t off, unsigned type, uint64_t ret, const char *why);
/* A no-image item: the walk reached address, where the image holds no whole
 * instruction of isa (checked): nothing, or only some of its bytes. */
void insn_vec_l3_no_image(struct insn_vec *v, uint64_t off, uint64_t address, int isa, const char *why);

/* Writes DIR/NAME: the description, [config] (with the keys of [expect.l3]),
 * tags, the trace as its packets with their notes, the image by address,
 * [expect.l1] (l1: the encoder's lines) and [expect.l3]. Returns 0, or -1
 * with the reason in v->err. */
int insn_vec_write(struct insn_vec *v, const char *dir, const struct tc_protocol *p, const void *cfg,
		   const char *tags, const uint8_t *trace, size_t trace_len, const char *l1);

/* The direct branch's target, made absolute from the table's relative one
 * at address (AArch32 addresses are 32 bits: it wraps there). */
uint64_t insn_row_target(const struct insn_row *r, uint64_t address);
/* The next instruction's address (AArch32: modulo 2^32). */
uint64_t insn_row_next(const struct insn_row *r, uint64_t address);

#endif
