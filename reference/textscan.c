/* SPDX-License-Identifier: BSD-3-Clause */
/* textscan.c — a cursor over one line of canonical text: strict tokens, and the column and what was expected at the first mismatch; the formatters' output buffer (textscan.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "textscan.h"

void tc_scan_init(struct tc_scan *s, const char *line, char *err, size_t errlen)
{
	s->line = line;
	s->p = line;
	s->bad = 0;
	s->err = err;
	s->errlen = errlen;
	if (err && errlen > 0)
		err[0] = '\0';
}

/* The mismatch at `at`: what stands there, up to the next blank after its
 * first character. */
static int fail_at(struct tc_scan *s, const char *at, const char *expected)
{
	if (s->bad)
		return 0;
	s->bad = 1;
	if (!s->err || s->errlen == 0)
		return 0;
	if (*at == '\0') {
		snprintf(s->err, s->errlen, "column %zu: expected %s, found end of line", (size_t)(at - s->line) + 1,
			 expected);
	} else {
		size_t n = 1 + strcspn(at + 1, " ");
		snprintf(s->err, s->errlen, "column %zu: expected %s, found '%.*s'", (size_t)(at - s->line) + 1,
			 expected, n > 40 ? 40 : (int)n, at);
	}
	return 0;
}

int tc_scan_fail(struct tc_scan *s, const char *expected)
{
	return fail_at(s, s->p, expected);
}

int tc_scan_next_is(const struct tc_scan *s, const char *lit)
{
	return !s->bad && !strncmp(s->p, lit, strlen(lit));
}

int tc_scan_lit(struct tc_scan *s, const char *lit)
{
	char quoted[64];
	const char *at = s->p;
	size_t n = strlen(lit);
	if (s->bad)
		return 0;
	if (!strncmp(s->p, lit, n)) {
		s->p += n;
		return 1;
	}
	if (lit[0] == ' ' && at[0] == ' ') {   /* the blank is there: point at the word after it */
		lit++;
		at++;
	}
	snprintf(quoted, sizeof quoted, "'%s'", lit);
	return fail_at(s, at, quoted);
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_digit(char c)
{
	if (is_digit(c))
		return c - '0';
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The digits at the cursor in base 10 or 16, no leading zero, at most max. */
static uint64_t take_number(struct tc_scan *s, const char *start, int base, uint64_t max, const char *what)
{
	char expected[96];
	const char *q = s->p;
	uint64_t v = 0;
	int over = 0, d;
	while ((d = base == 16 ? hex_digit(*q) : (is_digit(*q) ? *q - '0' : -1)) >= 0) {
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			over = 1;
		v = v * (uint64_t)base + (uint64_t)d;
		q++;
	}
	if (q == s->p || (*q != ' ' && *q != '\0' && *q != ','))
		return (uint64_t)fail_at(s, start, what);
	if (*s->p == '0' && q - s->p > 1) {
		snprintf(expected, sizeof expected, "%s without leading zeros", what);
		return (uint64_t)fail_at(s, start, expected);
	}
	if (over || v > max) {
		snprintf(expected, sizeof expected, base == 16 ? "%s at most 0x%llx" : "%s at most %llu", what,
			 (unsigned long long)max);
		return (uint64_t)fail_at(s, start, expected);
	}
	s->p = q;
	return v;
}

uint64_t tc_scan_dec(struct tc_scan *s, uint64_t max)
{
	if (s->bad)
		return 0;
	return take_number(s, s->p, 10, max, "a decimal number");
}

uint64_t tc_scan_hex(struct tc_scan *s, uint64_t max)
{
	const char *start = s->p;
	if (s->bad)
		return 0;
	if (strncmp(s->p, "0x", 2))
		return (uint64_t)fail_at(s, start, "a hexadecimal number (0x and lower-case digits)");
	s->p += 2;
	return take_number(s, start, 16, max, "a hexadecimal number (0x and lower-case digits)");
}

unsigned tc_scan_hex2(struct tc_scan *s)
{
	int hi, lo;
	if (s->bad)
		return 0;
	hi = hex_digit(s->p[0]);
	lo = hi < 0 ? -1 : hex_digit(s->p[1]);
	if (hi < 0 || lo < 0 || (s->p[2] != ' ' && s->p[2] != '\0'))
		return (unsigned)fail_at(s, s->p, "two lower-case hexadecimal digits (the header byte)");
	s->p += 2;
	return (unsigned)(hi << 4 | lo);
}

int tc_scan_name(struct tc_scan *s, const char *const *names, int first, int n, const char *what)
{
	char expected[512];
	size_t len, o;
	if (s->bad)
		return -1;
	len = strcspn(s->p, " ");
	for (int i = first; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(s->p, names[i], len)) {
			s->p += len;
			return i;
		}
	o = (size_t)snprintf(expected, sizeof expected, "%s (", what);
	for (int i = first; i < n && o < sizeof expected; i++)
		o += (size_t)snprintf(expected + o, sizeof expected - o, "%s%s", i > first ? "|" : "", names[i]);
	if (o < sizeof expected)
		snprintf(expected + o, sizeof expected - o, ")");
	fail_at(s, s->p, expected);
	return -1;
}

/* Atoms E and N, and W when waits is not NULL. */
static uint32_t scan_atom_letters(struct tc_scan *s, int min, int max, int *natoms, uint32_t *waits)
{
	char expected[96];
	uint32_t atoms = 0;
	int n = 0;
	*natoms = 0;
	if (waits)
		*waits = 0;
	if (s->bad)
		return 0;
	if (min == 0 && s->p[0] == '-' && (s->p[1] == ' ' || s->p[1] == '\0')) {
		s->p++;
		return 0;
	}
	while (n <= max && (s->p[n] == 'E' || s->p[n] == 'N' || (waits && s->p[n] == 'W'))) {
		if (n < 32 && s->p[n] == 'E')
			atoms |= 1u << n;
		if (n < 32 && s->p[n] == 'W')
			*waits |= 1u << n;
		n++;
	}
	if (n < (min ? min : 1) || n > max || (s->p[n] != ' ' && s->p[n] != '\0')) {
		snprintf(expected, sizeof expected, "%s%d to %d atoms (%s)", min == 0 ? "'-' or " : "",
			 min ? min : 1, max, waits ? "E, N or W" : "E or N");
		return (uint32_t)fail_at(s, s->p, expected);
	}
	s->p += n;
	*natoms = n;
	return atoms;
}

uint32_t tc_scan_atoms(struct tc_scan *s, int min, int max, int *natoms)
{
	return scan_atom_letters(s, min, max, natoms, NULL);
}

uint32_t tc_scan_atoms_w(struct tc_scan *s, int min, int max, int *natoms, uint32_t *waits)
{
	return scan_atom_letters(s, min, max, natoms, waits);
}

int tc_scan_end(struct tc_scan *s)
{
	if (!s->bad && *s->p != '\0')
		fail_at(s, s->p, "the end of the line");
	return s->bad ? -1 : 0;
}

void tc_textout_put(struct tc_textout *t, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *at = t->len < t->size ? t->buf + t->len : NULL;
	size_t room = t->len < t->size ? t->size - t->len : 0;
	va_start(ap, fmt);
	n = vsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len += (size_t)n;
}
