/* SPDX-License-Identifier: BSD-3-Clause */
/* tap.c — the small TAP printer shared by the unit tests (tap.h). */
#include <stdarg.h>
#include <stdio.h>

#include "tap.h"

static int test_no;
static int test_failed;
static char diag[4096];
static size_t diag_len;

void note(const char *fmt, ...)
{
	va_list ap;
	int n;
	if (diag_len >= sizeof diag)
		return;
	va_start(ap, fmt);
	n = vsnprintf(diag + diag_len, sizeof diag - diag_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		diag_len += (size_t)n;
}

unsigned long note_mark(void)
{
	return (unsigned long)diag_len;
}

void note_rewind(unsigned long mark)
{
	if (mark < diag_len) {
		diag_len = mark;
		diag[diag_len] = '\0';
	}
}

void ok(int cond, const char *fmt, ...)
{
	va_list ap;
	if (test_no == 0)
		printf("TAP version 13\n");
	test_no++;
	printf("%s %d - ", cond ? "ok" : "not ok", test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		test_failed++;
		if (diag_len)
			printf("  ---\n  failures:\n%s  ...\n", diag);
	}
	diag_len = 0;
	diag[0] = '\0';
}

int tap_finish(void)
{
	if (test_no == 0)
		printf("TAP version 13\n");
	printf("1..%d\n", test_no);
	return test_failed ? 1 : 0;
}
