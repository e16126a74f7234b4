/* l3norm.c — the one L3 normalisation used for comparisons (reference/FORMAT.md "L3"). */
#include <stdio.h>
#include <string.h>

#include "insn.h"
#include "vector.h"

struct range {
	unsigned long long first, last, n;
	char isa[8], type[8], taken[4];
};

static int isa_code(const char *isa)
{
	if (!strcmp(isa, "a64"))
		return tc_isa_a64;
	if (!strcmp(isa, "a32"))
		return tc_isa_a32;
	if (!strcmp(isa, "t32"))
		return tc_isa_t32;
	return -1;
}

/* Parses "range first=… last=… n=… isa=… type=… taken=…". */
static int parse_range(const char *s, struct range *r)
{
	return sscanf(s, "range first=0x%llx last=0x%llx n=%llu isa=%7s type=%7s taken=%3s", &r->first,
		      &r->last, &r->n, r->isa, r->type, r->taken) == 6;
}

static void format_range(const struct range *r, char *buf, size_t size)
{
	snprintf(buf, size, "range first=0x%llx last=0x%llx n=%llu isa=%s type=%s taken=%s", r->first, r->last,
		 r->n, r->isa, r->type, r->taken);
}

/* Size of the instruction at address (4 for A64/A32; T32 from the image). */
static int insn_size(const struct tc_image *image, int isa, unsigned long long address)
{
	struct tc_insn inst;
	size_t avail = 0;
	const uint8_t *bytes;
	if (isa != tc_isa_t32)
		return 4;
	bytes = tc_image_lookup(image, address, &avail);
	if (!bytes)
		return 0;
	return tc_insn_decode(isa, address, bytes, avail, 0, &inst);
}

/* b continues a: a ends with a non-P0 instruction, same ISA, contiguous. */
static int continues(const struct tc_image *image, const struct range *a, const struct range *b)
{
	int size;
	if (strcmp(a->taken, "-") || strcmp(a->isa, b->isa))
		return 0;
	size = insn_size(image, isa_code(a->isa), a->last);
	return size > 0 && b->first == a->last + (unsigned long long)size;
}

static const char *strip_offset(const char *line)
{
	if (line[0] != '@')
		return line;
	line += strcspn(line, " ");
	return *line ? line + 1 : line;
}

void tc_l3_normalise(const struct tc_lines *in, const struct tc_image *image, struct tc_lines *out)
{
	struct range held, next;
	int holding = 0;
	char buf[512];
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < in->n; i++) {
		const char *line = strip_offset(in->line[i]);
		if (parse_range(line, &next)) {
			if (holding && continues(image, &held, &next)) {
				held.last = next.last;
				held.n += next.n;
				memcpy(held.type, next.type, sizeof held.type);
				memcpy(held.taken, next.taken, sizeof held.taken);
				continue;
			}
			if (holding) {
				format_range(&held, buf, sizeof buf);
				tc_lines_add(out, buf);
			}
			held = next;
			holding = 1;
			continue;
		}
		if (holding) {
			format_range(&held, buf, sizeof buf);
			tc_lines_add(out, buf);
			holding = 0;
		}
		tc_lines_add(out, line);
	}
	if (holding) {
		format_range(&held, buf, sizeof buf);
		tc_lines_add(out, buf);
	}
}
