/* SPDX-License-Identifier: BSD-3-Clause */
/* fmt.c — formatted output: a system call (write), then snprintf's conversions. */
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char buf[96];
	int n;
	write(1, "go\n", 3);
	n = snprintf(buf, sizeof buf, "%d %x %-6s|%05u %c", -42, 0xbeefu, "ab", 7u, 'z');
	write(1, buf, (size_t)n);
	return n;
}
