/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_insn.c — unit tests of the stage-3 instruction classifier (insn.h); prints TAP.
 * Usage: unit_insn DIR, where DIR holds a64.tsv, a32.tsv and t32.tsv (written
 * by reference/test/insn/gen.sh from a real assembler's output; see there for
 * the columns). Every instruction there is one test. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "insn.h"
#include "tap.h"



/* Decodes from a heap copy of exactly `avail` bytes, so that ASan catches
 * any read beyond it. */
static int decode_exact(int isa, uint64_t addr, const uint8_t *b, size_t avail, int wfx_p0, struct tc_insn *out)
{
	uint8_t *copy = malloc(avail ? avail : 1);
	int r;
	if (!copy)
		abort();
	if (avail)
		memcpy(copy, b, avail);
	r = tc_insn_decode(isa, addr, copy, avail, wfx_p0, out);
	free(copy);
	return r;
}

/* ---- One .tsv line ------------------------------------------------------ */

struct expect {
	uint64_t offset;
	uint8_t bytes[4];
	int size;
	int type;
	int link;
	int cond;
	int next_isa;
	int has_target;
	int64_t rel;
	char source[256];
};

static int name_index(const char *s, const char *(*name)(int), int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, name(i)))
			return i;
	return -1;
}

static int parse_hex_bytes(const char *s, uint8_t *b)
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

static int parse_target(const char *s, struct expect *e)
{
	char *end;
	unsigned long long v;
	e->has_target = strcmp(s, "-") != 0;
	if (!e->has_target)
		return 1;
	if (s[0] != '+' && s[0] != '-')
		return 0;
	v = strtoull(s + 1, &end, 16);
	if (*end || v > 0x10000000u)
		return 0;
	e->rel = s[0] == '-' ? -(int64_t)v : (int64_t)v;
	return 1;
}

/* Splits a line at tabs into at most `max` fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	line[strcspn(line, "\r\n")] = '\0';
	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

static int parse_line(char *line, struct expect *e)
{
	char *f[9];
	char *end;
	memset(e, 0, sizeof *e);
	if (split(line, f, 9) != 9)
		return 0;
	e->offset = strtoull(f[0], &end, 16);
	if (*end || parse_hex_bytes(f[1], e->bytes) != atoi(f[2]))
		return 0;
	e->size = atoi(f[2]);
	e->type = name_index(f[3], tc_insn_type_name, tc_insn_tstart + 1);
	e->link = atoi(f[4]);
	e->cond = atoi(f[5]);
	e->next_isa = name_index(f[6], tc_isa_name, 3);
	snprintf(e->source, sizeof e->source, "%s", f[8]);
	return e->type >= 0 && e->next_isa >= 0 && parse_target(f[7], e);
}

/* ---- Checking one instruction ------------------------------------------- */

static uint32_t expected_opcode(int isa, const struct expect *e)
{
	const uint8_t *b = e->bytes;
	uint32_t h0 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
	uint32_t h1 = e->size == 4 ? ((uint32_t)b[2] | (uint32_t)b[3] << 8) : 0;
	if (e->size == 2)
		return h0;
	return isa == tc_isa_t32 ? h0 << 16 | h1 : h0 | h1 << 16;
}

static int check_field(const char *what, unsigned long long got, unsigned long long want)
{
	if (got == want)
		return 1;
	note("    - \"%s: got 0x%llx, want 0x%llx\"\n", what, got, want);
	return 0;
}

/* One decode at `base + offset` against the expectation. */
static int check_at(int isa, const struct expect *e, uint64_t base, int wfx_p0, size_t avail)
{
	struct tc_insn in;
	uint8_t buf[8] = { 0 };
	uint64_t addr = base + e->offset;
	uint64_t mask = isa == tc_isa_a64 ? ~UINT64_C(0) : UINT64_C(0xffffffff);
	int as_other = e->type == tc_insn_other || (e->type == tc_insn_wfx && !wfx_p0);
	int good = 1;
	size_t mark = note_mark();
	memcpy(buf, e->bytes, (size_t)e->size);
	memset(buf + e->size, 0xff, sizeof buf - (size_t)e->size);
	note("    - \"at 0x%llx wfx_p0=%d avail=%zu:\"\n", (unsigned long long)addr, wfx_p0, avail);
	good &= check_field("return", (unsigned long long)decode_exact(isa, addr, buf, avail, wfx_p0, &in), (unsigned)e->size);
	good &= check_field("size", in.size, (unsigned)e->size);
	good &= check_field("opcode", in.opcode, expected_opcode(isa, e));
	good &= check_field("type", in.type, as_other ? tc_insn_other : (unsigned)e->type);
	good &= check_field("is_link", in.is_link, as_other ? 0 : (unsigned)e->link);
	good &= check_field("is_cond", in.is_cond, as_other ? 0 : (unsigned)e->cond);
	good &= check_field("next_isa", in.next_isa, as_other ? (unsigned)isa : (unsigned)e->next_isa);
	good &= check_field("target", in.target, e->has_target ? (addr + (uint64_t)e->rel) & mask : 0);
	if (good)
		note_rewind(mark);   /* this decode was right: drop its notes */
	return good;
}

/* Every decode of one instruction: two bases (the second wraps the targets
 * past 2^32 or 2^64), wfx_p0 0 and 1, avail exact and longer, and every
 * shorter avail returning 0. */
static void check_insn(int isa, const struct expect *e)
{
	static const uint64_t bases64[] = { 0x400000, UINT64_C(0xfffffffffff00000) };
	static const uint64_t bases32[] = { 0x8000, 0xffff0000 };
	const uint64_t *bases = isa == tc_isa_a64 ? bases64 : bases32;
	struct tc_insn in;
	int good = 1;
	for (int b = 0; b < 2 && good; b++)
		for (int w = 0; w < 2 && good; w++)
			good = check_at(isa, e, bases[b], w, (size_t)e->size) && check_at(isa, e, bases[b], w, (size_t)e->size + 4);
	for (size_t avail = 0; avail < (size_t)e->size && good; avail++)
		if (decode_exact(isa, 0x1000, e->bytes, avail, 1, &in) != 0) {
			note("    - \"avail=%zu does not return 0\"\n", avail);
			good = 0;
		}
	ok(good, "%s %s %s", tc_isa_name(isa), e->source, tc_insn_type_name(e->type));
}

struct counts {
	int total;
	int p0;
};

static struct counts run_file(const char *dir, int isa)
{
	char path[1024];
	char line[1024];
	struct counts c = { 0, 0 };
	FILE *f;
	int lineno = 0;
	snprintf(path, sizeof path, "%s/%s.tsv", dir, tc_isa_name(isa));
	f = fopen(path, "r");
	ok(f != NULL, "open %s", path);
	if (!f)
		return c;
	while (fgets(line, sizeof line, f)) {
		struct expect e;
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (!parse_line(line, &e)) {
			ok(0, "%s:%d parses", path, lineno);
			continue;
		}
		check_insn(isa, &e);
		c.total++;
		c.p0 += e.type != tc_insn_other;
	}
	fclose(f);
	ok(c.total >= 100, "%s: %d instructions read (at least 100)", path, c.total);
	return c;
}

/* ---- Hand-made cases ---------------------------------------------------- */

static void test_short_avail(void)
{
	static const uint8_t nop64[4] = { 0x1f, 0x20, 0x03, 0xd5 };
	static const uint8_t nop32[4] = { 0x00, 0xf0, 0x20, 0xe3 };
	static const uint8_t bl32[4] = { 0x00, 0xf0, 0x03, 0xf8 };   /* T32 BL: F000 F803 */
	static const uint8_t bx16[4] = { 0x70, 0x47, 0x70, 0x47 };   /* T32 BX LR, twice */
	struct tc_insn in;
	int good = 1;
	for (size_t n = 0; n < 4; n++) {
		good &= decode_exact(tc_isa_a64, 0, nop64, n, 1, &in) == 0 && in.size == 0;
		good &= decode_exact(tc_isa_a32, 0, nop32, n, 1, &in) == 0 && in.size == 0;
	}
	ok(good, "A64 and A32 with avail 0..3 return 0 and clear out");
	ok(decode_exact(tc_isa_a64, 0, nop64, 4, 1, &in) == 4 && decode_exact(tc_isa_a32, 0, nop32, 4, 1, &in) == 4,
	   "A64 and A32 with avail 4 return 4");
	ok(decode_exact(tc_isa_t32, 0, bx16, 0, 1, &in) == 0 && decode_exact(tc_isa_t32, 0, bx16, 1, 1, &in) == 0,
	   "T32 with avail 0 and 1 returns 0");
	ok(decode_exact(tc_isa_t32, 0, bx16, 2, 1, &in) == 2 && in.type == tc_insn_branch_indir,
	   "T32 16-bit BX LR with avail 2 returns 2, indirect");
	ok(decode_exact(tc_isa_t32, 0, bx16, 3, 1, &in) == 2 && in.opcode == 0x4770,
	   "T32 16-bit with avail 3 reads one halfword");
	ok(decode_exact(tc_isa_t32, 0, bl32, 2, 1, &in) == 0 && in.type == tc_insn_other && in.size == 0,
	   "T32 32-bit BL split at avail 2 returns 0");
	ok(decode_exact(tc_isa_t32, 0, bl32, 3, 1, &in) == 0, "T32 32-bit BL with avail 3 returns 0");
	ok(decode_exact(tc_isa_t32, 2, bl32, 4, 1, &in) == 4 && in.type == tc_insn_branch_dir && in.is_link &&
		   in.opcode == 0xf000f803 && in.target == 0xc,
	   "T32 32-bit BL at 2 with avail 4: BL to 0xc, opcode F000F803");
}

static void test_wfx_p0(void)
{
	static const struct {
		int isa;
		uint8_t b[4];
		int size;
		int cond;
		const char *name;
	} w[] = {
		{ tc_isa_a64, { 0x7f, 0x20, 0x03, 0xd5 }, 4, 0, "A64 WFI" },
		{ tc_isa_a64, { 0x5f, 0x20, 0x03, 0xd5 }, 4, 0, "A64 WFE" },
		{ tc_isa_a64, { 0x20, 0x10, 0x03, 0xd5 }, 4, 0, "A64 WFIT X0" },
		{ tc_isa_a64, { 0x1f, 0x10, 0x03, 0xd5 }, 4, 0, "A64 WFET XZR" },
		{ tc_isa_a32, { 0x03, 0xf0, 0x20, 0xe3 }, 4, 0, "A32 WFI" },
		{ tc_isa_a32, { 0x02, 0xf0, 0x20, 0x13 }, 4, 1, "A32 WFENE" },
		{ tc_isa_t32, { 0x30, 0xbf, 0, 0 }, 2, 0, "T32 WFI" },
		{ tc_isa_t32, { 0x20, 0xbf, 0, 0 }, 2, 0, "T32 WFE" },
		{ tc_isa_t32, { 0xaf, 0xf3, 0x03, 0x80 }, 4, 0, "T32 WFI.W" },
		{ tc_isa_t32, { 0xaf, 0xf3, 0x02, 0x80 }, 4, 0, "T32 WFE.W" },
	};
	for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
		struct tc_insn a, b;
		int ra = tc_insn_decode(w[i].isa, 0x1000, w[i].b, (size_t)w[i].size, 1, &a);
		int rb = tc_insn_decode(w[i].isa, 0x1000, w[i].b, (size_t)w[i].size, 0, &b);
		ok(ra == w[i].size && a.type == tc_insn_wfx && a.is_cond == w[i].cond && rb == w[i].size &&
			   b.type == tc_insn_other && !b.is_cond && !b.is_link && !b.target,
		   "%s: wfx with wfx_p0=1, other with wfx_p0=0", w[i].name);
	}
	{
		struct tc_insn a;
		static const uint8_t isb[4] = { 0xdf, 0x3f, 0x03, 0xd5 };
		ok(tc_insn_decode(tc_isa_a64, 0, isb, 4, 0, &a) == 4 && a.type == tc_insn_isb,
		   "A64 ISB is isb whatever wfx_p0");
	}
}

static void test_arguments(void)
{
	static const uint8_t b[4] = { 0x10, 0x00, 0x00, 0x14 };
	struct tc_insn in;
	memset(&in, 0xaa, sizeof in);
	ok(tc_insn_decode(tc_isa_a64, 0, NULL, 4, 1, &in) == 0 && in.size == 0, "NULL bytes returns 0");
	ok(tc_insn_decode(tc_isa_a64, 0, b, 4, 1, NULL) == 0, "NULL out returns 0");
	ok(tc_insn_decode(3, 0, b, 4, 1, &in) == 0 && tc_insn_decode(-1, 0, b, 4, 1, &in) == 0,
	   "unknown isa returns 0");
	ok(tc_insn_decode(tc_isa_a64, 0, b, 4, 7, &in) == 4 && in.type == tc_insn_branch_dir && in.target == 0x40,
	   "any non-zero wfx_p0 is 1; B +0x40");
	ok(!strcmp(tc_insn_type_name(tc_insn_other), "other") && !strcmp(tc_insn_type_name(tc_insn_branch_dir), "dir") &&
		   !strcmp(tc_insn_type_name(tc_insn_branch_indir), "indir") && !strcmp(tc_insn_type_name(tc_insn_wfx), "wfx") &&
		   !strcmp(tc_insn_type_name(tc_insn_isb), "isb") &&
		   !strcmp(tc_insn_type_name(tc_insn_tstart), "tstart") && !strcmp(tc_insn_type_name(6), "?") &&
		   !strcmp(tc_insn_type_name(-1), "?"),
	   "tc_insn_type_name");
	ok(!strcmp(tc_isa_name(tc_isa_a64), "a64") && !strcmp(tc_isa_name(tc_isa_a32), "a32") &&
		   !strcmp(tc_isa_name(tc_isa_t32), "t32") && !strcmp(tc_isa_name(3), "?") && !strcmp(tc_isa_name(-1), "?"),
	   "tc_isa_name");
}

/* A32/T32 addresses above 2^32 still give 32-bit targets. */
static void test_address_width(void)
{
	static const uint8_t b32[4] = { 0xfe, 0xff, 0xff, 0xea };  /* A32 B . */
	static const uint8_t t16[2] = { 0xfe, 0xe7 };              /* T32 B.N . */
	static const uint8_t a64[4] = { 0x00, 0x00, 0x00, 0x16 };  /* A64 B . - 0x8000000 */
	struct tc_insn in;
	ok(tc_insn_decode(tc_isa_a32, UINT64_C(0x123456789abc), b32, 4, 1, &in) == 4 && in.target == 0x56789abc,
	   "A32 target is masked to 32 bits");
	ok(tc_insn_decode(tc_isa_t32, UINT64_C(0xffffffffffffffe), t16, 2, 1, &in) == 2 && in.target == 0xfffffffe,
	   "T32 target is masked to 32 bits");
	ok(tc_insn_decode(tc_isa_a64, 0x4000000, a64, 4, 1, &in) == 4 && in.target == UINT64_C(0xfffffffffc000000),
	   "A64 target wraps modulo 2^64");
}

/* Invariants over pseudo-random words (and every T32 first halfword), run
 * under UBSan/ASan by make check: sizes, types in range, `other` has no flags,
 * only direct branches have a target, AArch32 targets fit in 32 bits. */
static uint32_t rng_state = 0x2545f491;

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static int invariant(int isa, uint32_t word, uint64_t addr)
{
	uint8_t b[4] = { (uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24) };
	struct tc_insn in;
	int r = decode_exact(isa, addr, b, 4, (int)(word & 1), &in);
	if (r != (isa == tc_isa_t32 ? ((word & 0xf800) >= 0xe800 ? 4 : 2) : 4) || r != in.size)
		return 0;
	if (in.type > tc_insn_tstart || in.is_link > 1 || in.is_cond > 1 || in.next_isa > tc_isa_t32)
		return 0;
	if (in.type == tc_insn_other && (in.is_link || in.is_cond || in.target || in.next_isa != isa))
		return 0;
	if (in.type != tc_insn_branch_dir && in.target)
		return 0;
	return isa == tc_isa_a64 || in.target <= 0xffffffffu;
}

static void test_invariants(void)
{
	int good = 1;
	for (uint32_t hw = 0; hw < 0x10000; hw++)
		good &= invariant(tc_isa_t32, hw | rng() << 16, 0xfffffff0);
	ok(good, "invariants hold for every T32 first halfword");
	for (int isa = tc_isa_a64; isa <= tc_isa_t32; isa++) {
		good = 1;
		for (int i = 0; i < 200000; i++)
			good &= invariant(isa, rng(), (uint64_t)rng() << 32 | rng());
		ok(good, "invariants hold for 200000 random %s words", tc_isa_name(isa));
	}
}

/* B<c>.W T3's offset, S:J2:J1:imm6:imm11:'0' sign-extended from 21 bits, taken bit by bit: BHI.W
 * (cond 1000, so op<25> = 1 next to S = 0) with J2 = J1 = 0 and imm11 = 0x400 (its top bit next to
 * J2): offset +0x800, the target 0x8000 + 4 + 0x800. */
static void test_t32_cond_offset(void)
{
	static const uint8_t bhi[4] = { 0x00, 0xf2, 0x00, 0x84 };   /* hw1 0xf200, hw2 0x8400 */
	struct tc_insn in;
	ok(tc_insn_decode(tc_isa_t32, 0x8000, bhi, 4, 0, &in) == 4 && in.type == tc_insn_branch_dir && in.is_cond == 1 &&
	   in.target == 0x8804,
	   "T32 BHI.W +0x800: S, cond<3>, J2 and imm11<10> each in its place");
}

int main(int argc, char **argv)
{
	struct counts c[3];
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR (the directory of a64.tsv, a32.tsv, t32.tsv)\n", argv[0]);
		return 2;
	}
	for (int isa = tc_isa_a64; isa <= tc_isa_t32; isa++)
		c[isa] = run_file(argv[1], isa);
	for (int isa = tc_isa_a64; isa <= tc_isa_t32; isa++)
		printf("# %s: %d instructions, %d P0, %d other\n", tc_isa_name(isa), c[isa].total, c[isa].p0,
		       c[isa].total - c[isa].p0);
	test_short_avail();
	test_wfx_p0();
	test_arguments();
	test_address_width();
	test_invariants();
	test_t32_cond_offset();
	return tap_finish();
}
