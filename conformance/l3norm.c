/* SPDX-License-Identifier: BSD-3-Clause */
/* l3norm.c — the one L3 normalisation used for comparisons (reference/L3FORMAT.md "Normalisation for comparison").
 *
 * Two ranges that a decoder may emit as one or as two (the first ends with
 * an instruction that is not a waypoint, taken=-, and the second starts at
 * the next instruction in the same instruction set) are merged into one.
 * Lines are read and written by the one L3 text parser and writer
 * (tracecert/trace.h: tc_l3_parse, tc_l3_format). The size of the last
 * instruction comes from this file's own rule on the image's bytes, not
 * from the reference decoder's instruction decoder: a fault there must not
 * change how another decoder's output is compared. */
#include <string.h>

#include "vector.h"

/* Size in bytes of the instruction at address in instruction set isa, from
 * its first halfword where the size depends on it; 0 when the image does not
 * hold it.
 *   A64, A32: always 4 bytes.
 *   T32: a first halfword whose bits [15:11] are 0b11101, 0b11110 or
 *        0b11111 starts a 32-bit instruction; any other is a 16-bit one
 *        (Arm ARM, T32 instruction set encoding).
 *   RV32, RV64: bits [1:0] of the first halfword other than 0b11 mark a
 *        16-bit compressed instruction, 0b11 a 32-bit one (RISC-V
 *        unprivileged ISA, "Base Instruction-Length Encoding"; longer
 *        encodings are reserved there and not traced). */
static int insn_size(const struct tc_image *image, int isa, uint64_t address)
{
	size_t avail = 0;
	const uint8_t *bytes;
	unsigned halfword;
	if (isa == tc_isa_a64 || isa == tc_isa_a32)
		return 4;
	bytes = tc_image_lookup(image, address, &avail);
	if (!bytes || avail < 2)
		return 0;
	halfword = (unsigned)bytes[0] | (unsigned)bytes[1] << 8;
	if (isa == tc_isa_t32)
		return (halfword >> 11) >= 0x1d ? 4 : 2;
	if (isa == tc_isa_rv32 || isa == tc_isa_rv64)
		return (halfword & 3) == 3 ? 4 : 2;
	return 0;
}

/* b continues a: a ends with an instruction that is not a waypoint, in the
 * same instruction set, and b starts right after it. */
static int continues(const struct tc_image *image, const struct tc_l3 *a, const struct tc_l3 *b)
{
	int size;
	if (a->taken != tc_taken_none || a->isa != b->isa)
		return 0;
	size = insn_size(image, a->isa, a->last);
	return size > 0 && b->first == a->last + (uint64_t)size;
}

/* The line without its "@OFFSET " (offsets are not compared). */
static const char *strip_offset(const char *line)
{
	if (line[0] != '@')
		return line;
	line += strcspn(line, " ");
	return *line ? line + 1 : line;
}

/* A range line (parsed into *x), or 0 for any other line. */
static int parse_range(const char *line, struct tc_l3 *x)
{
	return tc_l3_parse(line, x, NULL, 0) == 0 && x->h.kind == tc_l3_range;
}

static void add_range(struct tc_lines *out, struct tc_l3 *x)
{
	char buf[512];
	x->h.offset = 0;
	tc_l3_format(buf, sizeof buf, x, NULL, 0);
	tc_lines_add(out, strip_offset(buf));
}

void tc_l3_normalise(const struct tc_lines *in, const struct tc_image *image, struct tc_lines *out)
{
	struct tc_l3 held, next;
	int holding = 0;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < in->n; i++) {
		const char *line = strip_offset(in->line[i]);
		if (parse_range(line, &next)) {
			if (holding && continues(image, &held, &next)) {
				held.last = next.last;
				held.count += next.count;
				held.last_type = next.last_type;
				held.taken = next.taken;
				continue;
			}
			if (holding)
				add_range(out, &held);
			held = next;
			holding = 1;
			continue;
		}
		if (holding) {
			add_range(out, &held);
			holding = 0;
		}
		tc_lines_add(out, line);
	}
	if (holding)
		add_range(out, &held);
}
