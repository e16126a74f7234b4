/* SPDX-License-Identifier: BSD-3-Clause */
/* jmp.c — setjmp/longjmp: a return to a frame several calls up. */
#include <setjmp.h>

static jmp_buf env;
static volatile int depth;

static void dive(int n)
{
	depth++;
	if (n == 0)
		longjmp(env, depth);
	dive(n - 1);
	depth--;
}

int main(void)
{
	int rounds = 0, got;
	for (int i = 0; i < 3; i++) {
		got = setjmp(env);
		if (got == 0)
			dive(4 + i);
		rounds += got;
	}
	return rounds & 0x7f;
}
