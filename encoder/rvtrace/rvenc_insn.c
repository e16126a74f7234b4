/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_insn.c — the encoder's own RISC-V instruction encoder (RV32I/RV64I base formats and the C
 * extension's CR, CI, CB, CJ formats of the unprivileged ISA): what the random program is written in.
 * It shares nothing with the reference's classifier (reference/insn.c). */
#include <stdint.h>

#include "rvenc_internal.h"

static uint32_t bits(int64_t v, int hi, int lo)
{
	return (uint32_t)(((uint64_t)v >> lo) & ((UINT64_C(1) << (hi - lo + 1)) - 1));
}

static uint32_t i_type(int64_t imm, int rs1, int f3, int rd, uint32_t opc)
{
	return bits(imm, 11, 0) << 20 | (uint32_t)rs1 << 15 | (uint32_t)f3 << 12 | (uint32_t)rd << 7 | opc;
}

static uint32_t b_type(int64_t imm, int rs2, int rs1, int f3)
{
	return bits(imm, 12, 12) << 31 | bits(imm, 10, 5) << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 |
	       (uint32_t)f3 << 12 | bits(imm, 4, 1) << 8 | bits(imm, 11, 11) << 7 | 0x63;
}

static uint32_t j_type(int64_t imm, int rd)
{
	return bits(imm, 20, 20) << 31 | bits(imm, 10, 1) << 21 | bits(imm, 11, 11) << 20 | bits(imm, 19, 12) << 12 |
	       (uint32_t)rd << 7 | 0x6f;
}

/* CJ: offset[11|4|9:8|10|6|7|3:1|5] in bits 12:2. */
static uint32_t cj_type(int f3, int64_t imm)
{
	return (uint32_t)f3 << 13 | bits(imm, 11, 11) << 12 | bits(imm, 4, 4) << 11 | bits(imm, 9, 8) << 9 |
	       bits(imm, 10, 10) << 8 | bits(imm, 6, 6) << 7 | bits(imm, 7, 7) << 6 | bits(imm, 3, 1) << 3 |
	       bits(imm, 5, 5) << 2 | 1;
}

/* CB: offset[8|4:3] rs1' offset[7:6|2:1|5]; rs1' is x8..x15 (its low 3 bits). */
static uint32_t cb_type(int f3, int rs1, int64_t imm)
{
	return (uint32_t)f3 << 13 | bits(imm, 8, 8) << 12 | bits(imm, 4, 3) << 10 | bits(rs1 - 8, 2, 0) << 7 |
	       bits(imm, 7, 6) << 5 | bits(imm, 2, 1) << 3 | bits(imm, 5, 5) << 2 | 1;
}

static uint32_t encode32(int op, int rd, int rs1, int rs2, int64_t imm)
{
	switch (op) {
	case rvop_addi: return i_type(imm, rs1, 0, rd, 0x13);
	case rvop_lw: return i_type(imm, rs1, 2, rd, 0x03);
	case rvop_auipc: return bits(imm, 19, 0) << 12 | (uint32_t)rd << 7 | 0x17;
	case rvop_lui: return bits(imm, 19, 0) << 12 | (uint32_t)rd << 7 | 0x37;
	case rvop_beq: return b_type(imm, rs2, rs1, 0);
	case rvop_bne: return b_type(imm, rs2, rs1, 1);
	case rvop_blt: return b_type(imm, rs2, rs1, 4);
	case rvop_bgeu: return b_type(imm, rs2, rs1, 7);
	case rvop_jal: return j_type(imm, rd);
	case rvop_jalr: return i_type(imm, rs1, 0, rd, 0x67);
	case rvop_ecall: return 0x00000073;
	default: return 0x30200073;   /* mret */
	}
}

static uint32_t encode16(int op, int rd, int rs1, int rs2, int64_t imm)
{
	switch (op) {
	case rvop_c_addi: return bits(imm, 5, 5) << 12 | (uint32_t)rd << 7 | bits(imm, 4, 0) << 2 | 1;
	case rvop_c_nop: return 0x0001;
	case rvop_c_mv: return 0x8002 | (uint32_t)rd << 7 | (uint32_t)rs2 << 2;
	case rvop_c_lui: return 3u << 13 | bits(imm, 5, 5) << 12 | (uint32_t)rd << 7 | bits(imm, 4, 0) << 2 | 1;
	case rvop_c_beqz: return cb_type(6, rs1, imm);
	case rvop_c_bnez: return cb_type(7, rs1, imm);
	case rvop_c_j: return cj_type(5, imm);
	case rvop_c_jal: return cj_type(1, imm);
	case rvop_c_jr: return 0x8002 | (uint32_t)rs1 << 7;
	default: return 0x9002 | (uint32_t)rs1 << 7;   /* c.jalr */
	}
}

int rvenc_insn_size(int op)
{
	switch (op) {
	case rvop_c_addi: case rvop_c_nop: case rvop_c_mv: case rvop_c_lui: case rvop_c_beqz: case rvop_c_bnez:
	case rvop_c_j: case rvop_c_jal: case rvop_c_jr: case rvop_c_jalr:
		return 2;
	default:
		return 4;
	}
}

int rvenc_insn_write(uint8_t *out, int op, int rd, int rs1, int rs2, int64_t imm)
{
	int size = rvenc_insn_size(op);
	uint32_t w = size == 2 ? encode16(op, rd, rs1, rs2, imm) : encode32(op, rd, rs1, rs2, imm);
	for (int i = 0; i < size; i++)
		out[i] = (uint8_t)(w >> (8 * i));
	return size;
}
