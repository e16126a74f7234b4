/* SPDX-License-Identifier: BSD-3-Clause */
/* rvinsn.h — RISC-V instruction classification for instruction trace, protocol-neutral: RV32I/RV64I
 * with or without the C extension, as the RISC-V unprivileged ISA (20191213) gives the base encodings
 * (chapter 2 "RV32I", chapter 5 "RV64I", §1.5 "Base Instruction-Length Encoding", chapter 16 "C").
 * The decisions where that classification meets a trace protocol are the errata decisions
 * RV-P12 (the pairs of Table 3.2) and RV-P18 (the classes). */
#ifndef TC_RVINSN_H
#define TC_RVINSN_H

#include <stddef.h>
#include <stdint.h>

/* What an instruction does to the flow of control (RV-P18). */
enum tc_rvinsn_class {
	tc_rvinsn_other = 0,  /* executes in sequence (incl. wfi, fence, csr*, mnret, HINTs but c.lui's) */
	tc_rvinsn_branch,     /* beq bne blt bge bltu bgeu, c.beqz c.bnez: target */
	tc_rvinsn_jump,       /* jal, c.j, c.jal (RV32 only): target, rd the link (0: none) */
	tc_rvinsn_indirect,   /* jalr, c.jr, c.jalr: rs1, imm (the offset), rd the link (0: none) */
	tc_rvinsn_xret,       /* mret, sret, uret, dret */
	tc_rvinsn_trap,       /* ecall, ebreak, c.ebreak */
	tc_rvinsn_upper,      /* auipc, lui, c.lui (rd = x0 too, a HINT): rd and value, for Table 3.2's pairs */
	tc_rvinsn_reserved,   /* an encoding the base and C reserve (RV-P18): size says its length */
	tc_rvinsn_long,       /* a 48-bit or longer encoding: size its length, 0 for the ≥192-bit ones */
	tc_rvinsn_truncated,  /* fewer bytes than the length encoding says: size the length wanted */
	tc_rvinsn_class_count
};

struct tc_rvinsn {
	uint32_t raw;         /* the instruction: a 16-bit one in bits 15:0 (long: its first 32 bits, or 16) */
	uint8_t cls;          /* enum tc_rvinsn_class */
	uint8_t size;         /* bytes: 2, 4, or a long encoding's length (6, 8, 10…22; 0 unknown) */
	uint8_t rd;           /* jump, indirect: the link register; upper: the register written */
	uint8_t rs1;          /* indirect: the register holding the base */
	int64_t imm;          /* indirect: the offset added to rs1 */
	uint64_t target;      /* branch, jump: the target, modulo 2^XLEN */
	uint64_t value;       /* upper: what rd holds after it (auipc: address + offset), modulo 2^XLEN */
};

/* Classifies the instruction at `address` from the `avail` bytes at b (little endian); xlen is 32 or
 * 64; c_ext: the C extension is implemented (0: a 16-bit encoding is class other, RV-P18). Never reads
 * beyond avail. Returns out->cls. */
int tc_rvinsn_decode(int xlen, int c_ext, uint64_t address, const uint8_t *b, size_t avail,
		     struct tc_rvinsn *out);

/* Table 3.2 of RISC-V processor trace 0.026 (L163–171) read as ERRATA RV-P12: an indirect jump whose
 * rs1 (not x0) was written by `prev`, an upper-immediate instruction executed immediately before it,
 * has the inferable target (prev's value + the jump's offset) with bit 0 cleared, modulo 2^XLEN.
 * Returns 1 and *target, or 0 (not such a pair; prev may be NULL). */
int tc_rvinsn_pair_target(int xlen, const struct tc_rvinsn *prev, const struct tc_rvinsn *jump, uint64_t *target);

const char *tc_rvinsn_class_name(int cls);

#endif
