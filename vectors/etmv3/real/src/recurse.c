/* SPDX-License-Identifier: BSD-3-Clause */
/* recurse.c — recursion: returns through a deep call stack (Fibonacci, Ackermann). */
static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int ack(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

int main(void)
{
	volatile int a = 9, b = 2;
	return (fib(a) + ack(b, 2)) & 0x7f;
}
