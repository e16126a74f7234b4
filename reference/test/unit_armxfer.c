/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_armxfer.c — unit tests of the A32/T32 data-transfer decoder
 * (armxfer.h); prints TAP. Usage: unit_armxfer DIR, where DIR holds a32.tsv
 * and t32.tsv (written by reference/test/armxfer/gen.sh from GNU as and
 * objdump; see there for the columns). Every row there is one test; the hand
 * cases below give their reasoning beside each vector. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "armxfer.h"
#include "tap.h"
#include "tracecert/trace.h"

/* Decodes from a heap copy of exactly `avail` bytes, so that ASan catches
 * any read beyond it. */
static int decode_exact(int isa, const uint8_t *b, size_t avail, struct tc_armxfer *out)
{
	uint8_t *copy = malloc(avail ? avail : 1);
	int r;
	if (!copy)
		abort();
	if (avail)
		memcpy(copy, b, avail);
	r = tc_armxfer_decode(isa, copy, avail, out);
	free(copy);
	return r;
}

struct expect {
	uint8_t bytes[4];
	int size;
	struct tc_armxfer want;
	char text[256];
};

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

static int kind_index(const char *s)
{
	for (int k = 0; k < tc_xfer_kinds; k++)
		if (!strcmp(s, tc_xfer_kind_name(k)))
			return k;
	return -1;
}

static int parse_line(char *line, struct expect *e)
{
	char *f[9];
	int kind;
	memset(e, 0, sizeof *e);
	if (split(line, f, 9) != 9)
		return 0;
	e->size = atoi(f[2]);
	kind = kind_index(f[3]);
	if (parse_hex_bytes(f[1], e->bytes) != e->size || kind < 0)
		return 0;
	e->want.size = (uint8_t)e->size;
	e->want.kind = (uint8_t)kind;
	e->want.count = (uint8_t)atoi(f[4]);
	e->want.bytes = (uint8_t)atoi(f[5]);
	e->want.writes_pc = (uint8_t)atoi(f[6]);
	e->want.is_cond = (uint8_t)atoi(f[7]);
	snprintf(e->text, sizeof e->text, "%s", f[8]);
	return 1;
}

static int check_field(const char *what, unsigned got, unsigned want)
{
	if (got == want)
		return 1;
	note("    - \"%s: got %u, want %u\"\n", what, got, want);
	return 0;
}

/* One decode of `avail` bytes (the instruction, then 0xff) against `want`. */
static int check_decode(int isa, const uint8_t *bytes, int size, size_t avail, const struct tc_armxfer *want)
{
	uint8_t buf[8];
	struct tc_armxfer x;
	int good = 1;
	memset(buf, 0xff, sizeof buf);
	memcpy(buf, bytes, (size_t)size);
	note("    - \"avail=%zu:\"\n", avail);
	good &= check_field("return", (unsigned)decode_exact(isa, buf, avail, &x), want->size);
	good &= check_field("size", x.size, want->size);
	good &= check_field("kind", x.kind, want->kind);
	good &= check_field("count", x.count, want->count);
	good &= check_field("bytes", x.bytes, want->bytes);
	good &= check_field("writes_pc", x.writes_pc, want->writes_pc);
	good &= check_field("is_cond", x.is_cond, want->is_cond);
	return good;
}

/* Exact and longer avail give `want`; every shorter one returns 0 with an
 * all-zero result. */
static int check_all_avail(int isa, const uint8_t *bytes, int size, const struct tc_armxfer *want)
{
	static const struct tc_armxfer zero;
	unsigned long mark = note_mark();
	int good = check_decode(isa, bytes, size, (size_t)size, want) && check_decode(isa, bytes, size, (size_t)size + 4, want);
	for (int avail = 0; avail < size && good; avail++)
		good = check_decode(isa, bytes, size, (size_t)avail, &zero);
	if (good)
		note_rewind(mark);
	return good;
}

static int run_file(const char *dir, const char *name, int isa)
{
	char path[1024];
	char line[1024];
	struct expect e;
	int rows = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/%s.tsv", dir, name);
	f = fopen(path, "r");
	ok(f != NULL, "open %s", path);
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#')
			continue;
		if (!parse_line(line, &e)) {
			ok(0, "%s: a well-formed row: %s", path, line);
			continue;
		}
		ok(check_all_avail(isa, e.bytes, e.size, &e.want), "%s %s: %s count=%u bytes=%u pc=%u cond=%u", name,
		   e.text, tc_xfer_kind_name(e.want.kind), e.want.count, e.want.bytes, e.want.writes_pc, e.want.is_cond);
		rows++;
	}
	fclose(f);
	return rows;
}

/* ---- Hand cases --------------------------------------------------------- */

struct hand {
	int isa;
	uint32_t op;            /* A32 word, or T32 halfword (or first << 16 | second) */
	int size;
	struct tc_armxfer want;
	const char *why;
};

#define X(sz, k, n, b, pc, c) { (sz), (k), (n), (b), (pc), (c) }

static const struct hand hands[] = {
	/* Empty register lists: UNPREDICTABLE in ARMv5TE; a load/store of no
	 * words (ETM1-P36), so no data value packets. */
	{ tc_isa_a32, 0xe8900000, 4, X(4, tc_xfer_load, 0, 0, 0, 0), "A32 LDMIA r0, {} (cond AL, 100 P0 U1 S0 W0 L1, list 0)" },
	{ tc_isa_a32, 0x092d0000, 4, X(4, tc_xfer_store, 0, 0, 0, 1), "A32 STMDBEQ sp!, {} (cond 0000)" },
	{ tc_isa_t32, 0xc800, 2, X(2, tc_xfer_load, 0, 0, 0, 0), "T32 LDMIA r0!, {} (1100 1 000 00000000)" },
	{ tc_isa_t32, 0xc000, 2, X(2, tc_xfer_store, 0, 0, 0, 0), "T32 STMIA r0!, {} (1100 0 000 00000000)" },
	{ tc_isa_t32, 0xbc00, 2, X(2, tc_xfer_load, 0, 0, 0, 0), "T32 POP {} (1011 110 0, list 0)" },
	{ tc_isa_t32, 0xb400, 2, X(2, tc_xfer_store, 0, 0, 0, 0), "T32 PUSH {} (1011 010 0, list 0)" },
	/* Unallocated in ARMv5TE: no transfer (ETM1-P36). */
	{ tc_isa_a32, 0xe6100010, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 cond 011 with bit 4 set: undefined" },
	{ tc_isa_a32, 0xe0b000b0, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 LDRH post-indexed with W=1 (LDRHT is ARMv6T2)" },
	{ tc_isa_a32, 0xe02000f0, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 STRD post-indexed with W=1" },
	{ tc_isa_a32, 0xe1c010d0, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 LDRD r1 (odd Rt): undefined" },
	{ tc_isa_a32, 0xec100000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 LDC with P=U=W=0, N=0 (1100 0001): undefined" },
	{ tc_isa_a32, 0xfc400000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 1111 1100 0100 (MCRR2 is ARMv6): undefined" },
	{ tc_isa_a32, 0xf7d0f010, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 PLD register form with bit 4 set: undefined" },
	{ tc_isa_a32, 0xf590f000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 1111 0101 1001 (PLD needs bits 22:20 = 101): undefined" },
	{ tc_isa_a32, 0xf5d0e000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 PLD pattern with bits 15:12 = 1110, not 1111" },
	{ tc_isa_a32, 0xf8900000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 1111 100 (an LDM's shape; RFE is ARMv6): undefined" },
	{ tc_isa_a32, 0xf4100000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 1111 0100 (an LDR's shape): undefined" },
	{ tc_isa_a32, 0xff000000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 1111 1111: undefined" },
	{ tc_isa_a32, 0xe1400190, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 SWPB shape with bits 11:8 = 0001: not SWP" },
	{ tc_isa_a32, 0xe1600090, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 SWP shape with bits 21:20 = 10: not SWP" },
	{ tc_isa_a32, 0xef000000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 SWI: no transfer (1111 in bits 27:24)" },
	{ tc_isa_a32, 0xee000000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 CDP: no transfer (bit 4 clear)" },
	{ tc_isa_t32, 0xde00, 2, X(2, tc_xfer_none, 0, 0, 0, 0), "T32 1101 1110: undefined (not conditional)" },
	{ tc_isa_t32, 0xdf00, 2, X(2, tc_xfer_none, 0, 0, 0, 0), "T32 SWI (1101 1111): not conditional" },
	{ tc_isa_t32, 0xb100, 2, X(2, tc_xfer_none, 0, 0, 0, 0), "T32 1011 0001 (CBZ is ARMv7)" },
	{ tc_isa_t32, 0xb600, 2, X(2, tc_xfer_none, 0, 0, 0, 0), "T32 1011 0110 (not PUSH: bits 10:9 = 11)" },
	{ tc_isa_t32, 0xbe00, 2, X(2, tc_xfer_none, 0, 0, 0, 0), "T32 BKPT (1011 1110)" },
	/* 32-bit T32 (first halfword 11101, 11110, 11111): no transfer in ARMv5TE
	 * even where Thumb-2 would make them loads. */
	{ tc_isa_t32, 0xf8d00000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "T32 f8d0 0000 (LDR.W in Thumb-2)" },
	{ tc_isa_t32, 0xe8900006, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "T32 e890 0006 (LDM.W in Thumb-2)" },
	{ tc_isa_t32, 0xf800f800, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "T32 f800 f800: a BL pair" },
	/* PC writes by loads whose text gen.sh cannot give (UNPREDICTABLE). */
	{ tc_isa_a32, 0xe1c4e0d0, 4, X(4, tc_xfer_load, 2, 4, 1, 0), "A32 LDRD lr, pc, [r4]: the second word to the PC" },
	{ tc_isa_a32, 0xe5d1f000, 4, X(4, tc_xfer_load, 1, 1, 1, 0), "A32 LDRB pc, [r1]" },
	{ tc_isa_a32, 0xe1d1f0b0, 4, X(4, tc_xfer_load, 1, 2, 1, 0), "A32 LDRH pc, [r1]" },
	{ tc_isa_a32, 0xe102f091, 4, X(4, tc_xfer_swap, 2, 4, 1, 0), "A32 SWP pc, r1, [r2]" },
	{ tc_isa_a32, 0xe1cfe0f0, 4, X(4, tc_xfer_store, 2, 4, 0, 0), "A32 STRD lr, pc, [pc]: a store never writes the PC" },
	/* MRRC/MCRR with cond 1111 is MRRC2 (ARMv6): none; cond 1111 MCR is MCR2. */
	{ tc_isa_a32, 0xfc500000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 1111 1100 0101: MRRC2 is ARMv6" },
	{ tc_isa_a32, 0xfe000010, 4, X(4, tc_xfer_mcr, 1, 4, 0, 0), "A32 MCR2 p0 (bit 4 set)" },
	{ tc_isa_a32, 0xfe000000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 CDP2 (bit 4 clear)" },
	{ tc_isa_a32, 0xfa000000, 4, X(4, tc_xfer_none, 0, 0, 0, 0), "A32 BLX imm" },
};

static void run_hands(void)
{
	for (size_t i = 0; i < sizeof hands / sizeof *hands; i++) {
		const struct hand *h = &hands[i];
		uint8_t b[4];
		if (h->isa == tc_isa_t32 && h->size == 4) {
			uint32_t v[2] = { h->op >> 16, h->op & 0xffffu };
			for (int k = 0; k < 2; k++) {
				b[2 * k] = (uint8_t)v[k];
				b[2 * k + 1] = (uint8_t)(v[k] >> 8);
			}
		} else
			for (int k = 0; k < 4; k++)
				b[k] = (uint8_t)(h->op >> (8 * k));
		ok(check_all_avail(h->isa, b, h->size, &h->want), "hand: %s", h->why);
	}
}

/* Another ISA decodes nothing; the kind names. */
static void run_misc(void)
{
	static const uint8_t word[4] = { 0, 0, 0x91, 0xe5 };
	struct tc_armxfer x;
	ok(tc_armxfer_decode(tc_isa_a64, word, 4, &x) == 0 && x.size == 0, "A64 is not decoded (returns 0)");
	ok(tc_armxfer_decode(tc_isa_rv32, word, 4, &x) == 0, "RV32 is not decoded (returns 0)");
	ok(tc_armxfer_decode(-1, word, 4, &x) == 0, "isa -1 is not decoded (returns 0)");
	ok(!strcmp(tc_xfer_kind_name(tc_xfer_none), "none") && !strcmp(tc_xfer_kind_name(tc_xfer_mcr), "mcr"),
	   "kind names at both ends");
	ok(!strcmp(tc_xfer_kind_name(-1), "?") && !strcmp(tc_xfer_kind_name(tc_xfer_kinds), "?"), "kind names outside the enum");
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "reference/test/armxfer";
	int a32 = run_file(dir, "a32", tc_isa_a32);
	int t32 = run_file(dir, "t32", tc_isa_t32);
	ok(a32 >= 100 && t32 >= 60, "the ground truth has its rows (a32 %d, t32 %d)", a32, t32);
	run_hands();
	run_misc();
	return tap_finish();
}
