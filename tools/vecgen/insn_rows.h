/* SPDX-License-Identifier: BSD-3-Clause */
/* insn_rows.h — the instruction tables of reference/test/insn (a64.tsv, a32.tsv, t32.tsv) as rows, for the
 * programs that turn them into vectors (tools/vecgen/<p>_insn.c). */
#ifndef TC_VECGEN_INSN_ROWS_H
#define TC_VECGEN_INSN_ROWS_H

#include <stddef.h>
#include <stdint.h>

/* One row of a table: an instruction as the GNU assembler encoded it and the
 * classification written by hand beside it in the .S source (gen.sh). Nothing
 * here comes from a decoder. */
struct insn_row {
	uint32_t offset;          /* in the assembled section (BLX from T32 depends on it modulo 4) */
	uint8_t bytes[4];         /* memory order */
	int size;                 /* 2 or 4 */
	int type;                 /* enum tc_insn_type; wfx is what it is with wfxmode=1 */
	int link;
	int cond;
	int isa;                  /* enum tc_isa: the table's */
	int next_isa;             /* enum tc_isa after the branch is taken */
	int has_target;           /* direct branches */
	int64_t target;           /* the target minus the instruction's address */
	char source[128];         /* "a64.S:12 b . + 0x40": the .S line */
};

struct insn_table {
	struct insn_row *row;
	size_t n;
	int isa;                  /* enum tc_isa */
};

/* Reads DIR/NAME.tsv (name: "a64", "a32" or "t32"). Returns 0, or -1 with a
 * message naming the file, the line and what was expected in err. */
int insn_table_load(const char *dir, const char *name, struct insn_table *t, char *err, size_t errlen);
void insn_table_free(struct insn_table *t);

/* The name a table gives a type ("other", "dir", …) and an ISA ("a64", …). */
const char *insn_row_type_word(int type);
const char *insn_row_isa_word(int isa);

#endif
