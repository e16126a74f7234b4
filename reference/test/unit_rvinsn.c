/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_rvinsn.c — unit tests of the RISC-V instruction classifier (reference/rvinsn.h); prints TAP.
 * Usage: unit_rvinsn DIR, where DIR holds rv64.tsv and rv32.tsv (written by
 * reference/test/insn/rvgen.sh from objdump's disassembly; see there for the columns). Every row is
 * one test, decoded at the section's address 0 and again at an address where targets and auipc
 * values wrap at 2^XLEN; then hand cases for what the assembler does not write (reserved encodings,
 * long and truncated ones) and the pairs of Table 3.2 (ERRATA RV-P12, RV-P18). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvinsn.h"
#include "tap.h"

/* Decodes from a heap copy of exactly `avail` bytes, so that ASan catches any read beyond it. */
static int decode_exact(int xlen, int c_ext, uint64_t addr, const uint8_t *b, size_t avail, struct tc_rvinsn *out)
{
	uint8_t *copy = malloc(avail ? avail : 1);
	int r;
	if (!copy)
		abort();
	if (avail)
		memcpy(copy, b, avail);
	r = tc_rvinsn_decode(xlen, c_ext, addr, copy, avail, out);
	free(copy);
	return r;
}

static uint64_t xmask(int xlen)
{
	return xlen == 32 ? 0xffffffffu : ~(uint64_t)0;
}

/* ---- One .tsv row ------------------------------------------------------------------ */

struct row {
	uint64_t offset;
	uint8_t bytes[4];
	int size;
	int cls;
	int rd, rs1;          /* -1: "-" */
	long imm;             /* jalr offset */
	int has_imm, has_target, has_uimm;
	uint64_t target;      /* objdump's, at section address 0 */
	uint64_t uimm;
	char text[128];
};

static int class_index(const char *s)
{
	for (int i = 0; i < tc_rvinsn_class_count; i++)
		if (!strcmp(s, tc_rvinsn_class_name(i)))
			return i;
	return -1;
}

static int parse_bytes(const char *s, uint8_t *b)
{
	size_t n = strlen(s);
	if (n != 4 && n != 8)
		return 0;
	for (size_t i = 0; i < n / 2; i++) {
		char two[3] = { s[2 * i], s[2 * i + 1], 0 };
		char *end;
		b[i] = (uint8_t)strtoul(two, &end, 16);
		if (*end)
			return 0;
	}
	return (int)(n / 2);
}

static int parse_opt(const char *s, int base, long *v)
{
	char *end;
	if (!strcmp(s, "-"))
		return 0;
	*v = strtol(s, &end, base);
	return *end ? -1 : 1;
}

static int parse_opt_u(const char *s, uint64_t *v)
{
	char *end;
	if (!strcmp(s, "-"))
		return 0;
	*v = strtoull(s, &end, 16);
	return *end ? -1 : 1;
}

/* Splits a tab-separated line of 10 columns; 0 on a malformed row. */
static int parse_row(char *line, struct row *r)
{
	char *col[10];
	long v;
	int n = 0;
	line[strcspn(line, "\n")] = 0;
	for (char *p = line; n < 10; n++) {
		col[n] = p;
		p = strchr(p, '\t');
		if (!p) {
			n++;
			break;
		}
		*p++ = 0;
	}
	if (n != 10)
		return 0;
	memset(r, 0, sizeof *r);
	r->offset = strtoull(col[0], NULL, 16);
	r->size = atoi(col[2]);
	r->cls = class_index(col[3]);
	if (parse_bytes(col[1], r->bytes) != r->size || r->cls < 0)
		return 0;
	r->rd = parse_opt(col[4], 10, &v) > 0 ? (int)v : -1;
	r->rs1 = parse_opt(col[5], 10, &v) > 0 ? (int)v : -1;
	r->has_imm = parse_opt(col[6], 10, &r->imm);
	r->has_target = parse_opt_u(col[7], &r->target);
	r->has_uimm = parse_opt_u(col[8] + (strncmp(col[8], "0x", 2) ? 0 : 2), &r->uimm);
	snprintf(r->text, sizeof r->text, "%s", col[9]);
	return r->has_imm >= 0 && r->has_target >= 0 && r->has_uimm >= 0;
}

/* What rd holds after lui, auipc or c.lui at `addr` (the immediate as objdump prints it: the 20 bits
 * of the value's bits 31:12, sign-extended from bit 31 in RV64). */
static uint64_t upper_value(int xlen, const struct row *r, uint64_t addr)
{
	uint64_t v = (uint64_t)(int64_t)(int32_t)(uint32_t)(r->uimm << 12);
	if (!strncmp(r->text, "auipc", 5))
		v += addr;
	return v & xmask(xlen);
}

static int check_fields(int xlen, const struct row *r, uint64_t base, const struct tc_rvinsn *in)
{
	uint64_t addr = (base + r->offset) & xmask(xlen);
	int good = in->cls == r->cls && in->size == r->size;
	if (r->cls == tc_rvinsn_jump || r->cls == tc_rvinsn_indirect || r->cls == tc_rvinsn_upper)
		good = good && in->rd == r->rd;
	if (r->cls == tc_rvinsn_indirect)
		good = good && in->rs1 == r->rs1 && in->imm == r->imm;
	if (r->has_target)
		good = good && in->target == ((base + r->target) & xmask(xlen));
	if (r->has_uimm)
		good = good && in->value == upper_value(xlen, r, addr);
	if (!good)
		note("got class %s size %u rd %u rs1 %u imm %lld target 0x%llx value 0x%llx", tc_rvinsn_class_name(in->cls),
		     in->size, in->rd, in->rs1, (long long)in->imm, (unsigned long long)in->target,
		     (unsigned long long)in->value);
	return good;
}

/* One row: at address 0 and at `high`, all bytes; the same bytes less one are truncated. */
static void check_row(int xlen, const struct row *r, uint64_t high, const char *name)
{
	struct tc_rvinsn in;
	int good;
	decode_exact(xlen, 1, r->offset, r->bytes, (size_t)r->size, &in);
	good = check_fields(xlen, r, 0, &in);
	decode_exact(xlen, 1, (high + r->offset) & xmask(xlen), r->bytes, (size_t)r->size, &in);
	good = check_fields(xlen, r, high, &in) && good;
	decode_exact(xlen, 1, r->offset, r->bytes, (size_t)r->size - 1, &in);
	if (in.cls != tc_rvinsn_truncated || in.size != (r->size == 2 ? 2 : 4)) {
		note("with %d bytes: class %s size %u", r->size - 1, tc_rvinsn_class_name(in.cls), in.size);
		good = 0;
	}
	ok(good, "%s %04llx %s: %s", name, (unsigned long long)r->offset, r->text, tc_rvinsn_class_name(r->cls));
}

static int run_file(const char *dir, const char *name, int xlen, uint64_t high)
{
	char path[4096], line[512];
	struct row r;
	int rows = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s.tsv", dir, name);
	f = fopen(path, "r");
	ok(f != NULL, "%s opens", path);
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		if (!parse_row(line, &r)) {
			ok(0, "%s: malformed row %s", path, line);
			continue;
		}
		check_row(xlen, &r, high, name);
		rows++;
	}
	fclose(f);
	return rows;
}

/* ---- Hand cases ------------------------------------------------------------------- */

static void expect(int xlen, int c_ext, uint32_t insn, size_t avail, int cls, unsigned size, const char *what)
{
	uint8_t b[8] = { (uint8_t)insn, (uint8_t)(insn >> 8), (uint8_t)(insn >> 16), (uint8_t)(insn >> 24),
			 (uint8_t)(insn >> 16), (uint8_t)(insn >> 24), (uint8_t)insn, (uint8_t)(insn >> 8) };
	struct tc_rvinsn in;
	int got = decode_exact(xlen, c_ext, 0x1000, b, avail, &in);
	if (got != cls || in.cls != cls || in.size != size)
		note("got %s size %u", tc_rvinsn_class_name(got), in.size);
	ok(got == cls && in.cls == cls && in.size == size, "rv%d c_ext=%d 0x%x (%zu bytes): %s, size %u — %s", xlen,
	   c_ext, insn, avail, tc_rvinsn_class_name(cls), size, what);
}

/* The encodings the C chapter and the base reserve (RV-P18), each built from its fields. */
static void reserved_cases(void)
{
	expect(64, 1, 0x0000, 2, tc_rvinsn_reserved, 2, "0x0000, the defined illegal instruction");
	expect(32, 1, 0x0004, 2, tc_rvinsn_reserved, 2, "c.addi4spn with nzuimm = 0 (000 00000000 001 00)");
	expect(64, 1, 0x8000, 2, tc_rvinsn_reserved, 2, "quadrant 0 funct3 100 (Zcb's c.lbu x8,0(x8))");
	expect(32, 1, 0x9c41, 2, tc_rvinsn_reserved, 2, "100 1 11 000 10 000 01 (Zcb's c.mul x8,x8)");
	expect(64, 1, 0x9c61, 2, tc_rvinsn_reserved, 2, "100 1 11 000 11 000 01 (Zcb's c.zext.b… space)");
	expect(64, 1, 0x9c41, 2, tc_rvinsn_reserved, 2, "100 1 11 000 10 000 01 in RV64 too");
	expect(32, 1, 0x9c01, 2, tc_rvinsn_reserved, 2, "c.subw's encoding in RV32");
	expect(32, 1, 0x9c21, 2, tc_rvinsn_reserved, 2, "c.addw's encoding in RV32");
	expect(64, 1, 0x9c01, 2, tc_rvinsn_other, 2, "c.subw x8,x8 in RV64");
	expect(64, 1, 0x6101, 2, tc_rvinsn_reserved, 2, "c.addi16sp with nzimm = 0 (011 0 00010 00000 01)");
	expect(64, 1, 0x6501, 2, tc_rvinsn_reserved, 2, "c.lui x10 with nzimm = 0 (011 0 01010 00000 01)");
	expect(32, 1, 0x6001, 2, tc_rvinsn_reserved, 2, "c.lui x0 with nzimm = 0");
	expect(64, 1, 0x4002, 2, tc_rvinsn_reserved, 2, "c.lwsp with rd = 0");
	expect(64, 1, 0x6002, 2, tc_rvinsn_reserved, 2, "c.ldsp with rd = 0 (RV64)");
	expect(32, 1, 0x6002, 2, tc_rvinsn_other, 2, "c.flwsp f0,0(sp) (RV32: the same bits)");
	expect(64, 1, 0x8002, 2, tc_rvinsn_reserved, 2, "c.jr with rs1 = 0");
	expect(64, 1, 0x2001, 2, tc_rvinsn_reserved, 2, "c.addiw with rd = 0 (RV64)");
	expect(32, 1, 0x2001, 2, tc_rvinsn_jump, 2, "c.jal . (RV32: the same bits)");
	expect(32, 1, 0x9001, 2, tc_rvinsn_reserved, 2, "c.srli x8,32 in RV32 (shamt[5] = 1)");
	expect(32, 1, 0x9401, 2, tc_rvinsn_reserved, 2, "c.srai x8,32 in RV32 (shamt[5] = 1)");
	expect(64, 1, 0x9001, 2, tc_rvinsn_other, 2, "c.srli x8,32 in RV64");
	expect(32, 1, 0x1502, 2, tc_rvinsn_reserved, 2, "c.slli x10,32 in RV32 (shamt[5] = 1)");
	expect(64, 1, 0x1502, 2, tc_rvinsn_other, 2, "c.slli x10,32 in RV64");
	expect(64, 1, 0x00002063, 4, tc_rvinsn_reserved, 4, "BRANCH with funct3 010");
	expect(32, 1, 0x00003063, 4, tc_rvinsn_reserved, 4, "BRANCH with funct3 011");
	expect(64, 1, 0x00001067, 4, tc_rvinsn_reserved, 4, "JALR with funct3 001");
	expect(32, 1, 0x00007067, 4, tc_rvinsn_reserved, 4, "JALR with funct3 111");
	expect(64, 1, 0x8400, 2, tc_rvinsn_reserved, 2, "quadrant 0 funct3 100 with bit 10 set (Zcb's c.lbu space)");
	expect(32, 1, 0x0010, 2, tc_rvinsn_reserved, 2, "c.addi4spn x12,sp with nzuimm = 0 (000 00000000 100 00)");
}

static void other_cases(void)
{
	expect(64, 1, 0x70200073, 4, tc_rvinsn_other, 4, "mnret (Smrnmi; gas 2.40 has no mnemonic)");
	expect(32, 1, 0x30200173, 4, tc_rvinsn_other, 4, "mret's bits with rd = 2: not mret");
	expect(64, 1, 0x30208073, 4, tc_rvinsn_other, 4, "mret's bits with rs1 = 1: not mret");
	expect(64, 1, 0x00000173, 4, tc_rvinsn_other, 4, "ecall's bits with rd = 2: not ecall");
	expect(64, 0, 0x8082, 2, tc_rvinsn_other, 2, "c.jr x1 with c_ext=0: a 16-bit encoding, not decoded");
	expect(32, 0, 0x2001, 2, tc_rvinsn_other, 2, "c.jal with c_ext=0");
	expect(64, 0, 0x00008067, 4, tc_rvinsn_indirect, 4, "jalr x0,0(x1) with c_ext=0");
	expect(64, 1, 0x2465, 2, tc_rvinsn_other, 2, "c.jal 0x2a8's bits in RV64: c.addiw x8,25");
	expect(64, 1, 0x9441, 2, tc_rvinsn_other, 2, "c.srai x8,48 in RV64 (100 1 01 000 10000 01)");
	expect(64, 1, 0x9c81, 2, tc_rvinsn_other, 2, "c.subw x9,x8 in RV64 (rd' odd: 100 1 11 001 00 000 01)");
	expect(64, 1, 0x1000, 2, tc_rvinsn_other, 2, "c.addi4spn x8,sp,32 (nzuimm[5] alone: bit 12)");
	expect(64, 1, 0x0020, 2, tc_rvinsn_other, 2, "c.addi4spn x8,sp,8 (nzuimm[3] alone: bit 5)");
}

/* raw holds the instruction's own bytes only (rvinsn.h: a 16-bit one in bits 15:0, and never a byte
 * beyond avail): the bytes after them in the buffer are set, so a read past either shows. */
static void raw_case(uint32_t first, size_t avail, uint32_t want, const char *what)
{
	uint8_t b[8] = { (uint8_t)first, (uint8_t)(first >> 8), (uint8_t)(first >> 16), (uint8_t)(first >> 24),
			 0x5a, 0x5a, 0x5a, 0x5a };
	struct tc_rvinsn in;
	tc_rvinsn_decode(64, 1, 0x1000, b, avail, &in);
	if (in.raw != want)
		note("got raw 0x%x", (unsigned)in.raw);
	ok(in.raw == want, "raw of %s: 0x%x", what, (unsigned)want);
}

static void raw_cases(void)
{
	raw_case(0xa5a50001, 4, 0x0001, "c.nop with 4 bytes available");
	raw_case(0x00000013, 4, 0x00000013, "addi x0,x0,0 with 4 bytes available");
	raw_case(0xa5a55013, 3, 0x5013, "a 32-bit encoding with 3 bytes available (truncated)");
	raw_case(0xa5a55013, 2, 0x5013, "a 32-bit encoding with 2 bytes available (truncated)");
}

/* §1.5's length encoding: 48-bit xx011111, 64-bit x0111111, (80+16·nnn)-bit xnnnxxxxx1111111. */
static void length_cases(void)
{
	expect(64, 1, 0x001f, 6, tc_rvinsn_long, 6, "48-bit (bits 5:0 011111)");
	expect(64, 1, 0x005f, 6, tc_rvinsn_long, 6, "48-bit with bit 6 set");
	expect(64, 1, 0x001f, 5, tc_rvinsn_truncated, 6, "48-bit with 5 bytes");
	expect(32, 0, 0x003f, 8, tc_rvinsn_long, 8, "64-bit (bits 6:0 0111111), c_ext=0 too");
	expect(32, 1, 0x003f, 7, tc_rvinsn_truncated, 8, "64-bit with 7 bytes");
	expect(64, 1, 0x007f, 8, tc_rvinsn_truncated, 10, "80-bit (nnn = 000) with 8 bytes");
	expect(64, 1, 0x607f, 8, tc_rvinsn_truncated, 22, "176-bit (nnn = 110) with 8 bytes");
	expect(64, 1, 0x707f, 2, tc_rvinsn_long, 0, "nnn = 111, reserved for ≥ 192 bits: no length");
	expect(32, 1, 0xffffffff, 4, tc_rvinsn_long, 0, "0xffffffff: nnn = 111");
	expect(64, 1, 0x0013, 0, tc_rvinsn_truncated, 2, "no byte");
	expect(64, 1, 0x0013, 1, tc_rvinsn_truncated, 2, "one byte");
	expect(32, 1, 0x00000013, 2, tc_rvinsn_truncated, 4, "a 32-bit nop with 2 bytes");
	expect(32, 1, 0x00000013, 3, tc_rvinsn_truncated, 4, "a 32-bit nop with 3 bytes");
	expect(32, 1, 0x0001, 1, tc_rvinsn_truncated, 2, "c.nop with 1 byte");
}

/* A pair of Table 3.2 (RV-P12) from bytes: prev at addr, the jump after it. The expected targets are
 * objdump's own comments on the jalr of these bytes (riscv64-linux-gnu-objdump 2.40, which follows
 * the lui/auipc into the jalr), with bit 0 cleared as jalr clears it. */
static void pair(int xlen, uint64_t addr, uint32_t prev, uint32_t jump, int want, uint64_t target, const char *what)
{
	struct tc_rvinsn p, j;
	uint8_t b[8];
	uint64_t got = 0;
	int r;
	for (int i = 0; i < 4; i++) {
		b[i] = (uint8_t)(prev >> (8 * i));
		b[4 + i] = (uint8_t)(jump >> (8 * i));
	}
	tc_rvinsn_decode(xlen, 1, addr, b, 4, &p);
	tc_rvinsn_decode(xlen, 1, addr + p.size, b + p.size, 4, &j);
	r = tc_rvinsn_pair_target(xlen, &p, &j, &got);
	if (r != want || (want && got != target))
		note("got %d 0x%llx", r, (unsigned long long)got);
	ok(r == want && (!want || got == target), "rv%d pair %s", xlen, what);
}

static void pair_cases(void)
{
	struct tc_rvinsn j;
	uint64_t t = 0;
	static const uint8_t jr_x1[2] = { 0x82, 0x80 };
	pair(32, 0, 0x12345297, 0x010280e7, 1, 0x12345010, "auipc x5,0x12345; jalr x1,16(x5): 0x12345010");
	pair(32, 8, 0xfffff337, 0x7ff30067, 1, 0xfffff7fe, "lui x6,0xfffff; jalr x0,2047(x6): 0xfffff7ff, bit 0 cleared");
	pair(32, 0x10, 0x800003b7, 0xffd38067, 1, 0x7ffffffc, "lui x7,0x80000; jalr x0,-3(x7): 0x7ffffffd, bit 0 cleared");
	pair(64, 0x10, 0x800003b7, 0xffd38067, 1, 0xffffffff7ffffffcull,
	     "lui x7,0x80000 sign-extends in RV64: 0xffffffff7ffffffd, bit 0 cleared");
	pair(32, 0x18, 0x85027501, 0, 1, 0xfffe0000, "c.lui x10,0xfffe0; c.jr x10: 0xfffe0000");
	pair(64, 0x18, 0x85027501, 0, 1, 0xfffffffffffe0000ull, "c.lui x10,0xfffe0; c.jr x10 (RV64)");
	pair(32, 0x1c, 0x90826085, 0, 1, 0x1000, "c.lui x1,0x1; c.jalr x1: 0x1000");
	pair(32, 0xfffff000u, 0x00001297, 0x004280e7, 1, 4, "auipc x5,0x1 at 0xfffff000; jalr x1,4(x5): wraps to 4");
	pair(64, 0xfffffffffffff000ull, 0x00001297, 0x004280e7, 1, 4, "the same at 2^64 - 0x1000");
	pair(32, 0, 0x12345297, 0x010300e7, 0, 0, "auipc x5; jalr x1,16(x6): another register");
	pair(32, 0, 0x00001017, 0x00000067, 0, 0, "auipc x0,0x1; jalr x0,0(x0): rs1 = x0 is never a pair");
	pair(32, 0, 0x00158293, 0x010280e7, 0, 0, "addi x5,x11,1; jalr x1,16(x5): not an upper immediate");
	pair(32, 0, 0x12345297, 0x12345297, 0, 0, "auipc; auipc: no jump");
	tc_rvinsn_decode(64, 1, 0, jr_x1, 2, &j);
	ok(tc_rvinsn_pair_target(64, NULL, &j, &t) == 0, "no previous instruction: no pair");
	ok(!strcmp(tc_rvinsn_class_name(tc_rvinsn_class_count), "?") && !strcmp(tc_rvinsn_class_name(-1), "?"),
	   "class names out of range are ?");
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "reference/test/insn";
	int n64 = run_file(dir, "rv64", 64, 0xfffffffffffff000ull);
	int n32 = run_file(dir, "rv32", 32, 0xfffff000u);
	ok(n64 > 100 && n32 > 100, "both tables have rows (%d, %d)", n64, n32);
	reserved_cases();
	other_cases();
	length_cases();
	raw_cases();
	pair_cases();
	return tap_finish();
}
