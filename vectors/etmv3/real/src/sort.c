/* SPDX-License-Identifier: BSD-3-Clause */
/* sort.c — qsort with a comparison callback (indirect calls from the C library into the program). */
#include <stdlib.h>

static int by_value(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	int v[12] = { 42, 7, 19, 3, 88, 61, 5, 27, 13, 70, 2, 34 };
	int sum = 0;
	qsort(v, 12, sizeof v[0], by_value);
	for (int i = 0; i < 12; i++)
		sum += v[i] * (i + 1);
	return sum & 0x7f;
}
