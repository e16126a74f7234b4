/* SPDX-License-Identifier: BSD-3-Clause */
/* textscan.h — a cursor over one line of canonical text, for the L1 parsers of the protocols' text modules (reference/<p>/<p>_text.c), and the output buffer their formatters write into. */
#ifndef TC_TEXTSCAN_H
#define TC_TEXTSCAN_H

#include <stddef.h>
#include <stdint.h>

/* The cursor. Every function takes exactly what the formatters write
 * (reference/L3FORMAT.md and each protocol's FORMAT.md, "Numbers"): decimal without leading zeros,
 * hexadecimal as 0x and lower-case digits without leading zeros, single
 * blanks. The first mismatch stops the scan: every later call does nothing
 * and returns 0, and err holds "column C: expected WHAT, found 'TOKEN'"
 * (C counts from 1; TOKEN runs to the next blank, or is "end of line"). */
struct tc_scan {
	const char *line;
	const char *p;
	int bad;
	char *err;
	size_t errlen;
};

void tc_scan_init(struct tc_scan *s, const char *line, char *err, size_t errlen);

/* Records a mismatch at the cursor (the first one only). Returns 0. */
int tc_scan_fail(struct tc_scan *s, const char *expected);

/* Whether lit comes next (the cursor does not move, nothing is recorded). */
int tc_scan_next_is(const struct tc_scan *s, const char *lit);

/* Takes lit exactly; 1, or 0 after recording the mismatch. */
int tc_scan_lit(struct tc_scan *s, const char *lit);

/* A decimal number 0..max. */
uint64_t tc_scan_dec(struct tc_scan *s, uint64_t max);

/* A hexadecimal number 0x0..max. */
uint64_t tc_scan_hex(struct tc_scan *s, uint64_t max);

/* Exactly two lower-case hexadecimal digits (an L1 header column). */
unsigned tc_scan_hex2(struct tc_scan *s);

/* One of names[first..n-1] ended by a blank or the end of the line; its
 * index, or -1 after recording "WHAT (name|name|…)". */
int tc_scan_name(struct tc_scan *s, const char *const *names, int first, int n, const char *what);

/* An atom string of min..max letters E (bit i set) and N, oldest first, or
 * "-" for none when min is 0; the number of atoms in *natoms. */
uint32_t tc_scan_atoms(struct tc_scan *s, int min, int max, int *natoms);

/* The same with W (a cycle boundary: bit i of *waits set, bit i of the
 * result clear) allowed among E and N. */
uint32_t tc_scan_atoms_w(struct tc_scan *s, int min, int max, int *natoms, uint32_t *waits);

/* The end of the line. Returns 0 when the whole line was taken, else -1
 * (err says where and why). */
int tc_scan_end(struct tc_scan *s);

/* The formatters' output buffer: text goes to buf while it fits (always
 * NUL-terminated when size > 0, as vsnprintf leaves it), and len counts
 * what the whole text would take, so that a caller can tell a cut line. */
struct tc_textout {
	char *buf;
	size_t size;
	size_t len;
};

/* Appends printf-style text. */
void tc_textout_put(struct tc_textout *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
