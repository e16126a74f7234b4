/* SPDX-License-Identifier: BSD-3-Clause */
/* maxrss.c — runs a command and prints its peak resident set size in KiB (getrusage of the child); exits with its status. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;
	if (argc < 2) {
		fprintf(stderr, "usage: maxrss COMMAND [ARG]...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("maxrss: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("maxrss: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || getrusage(RUSAGE_CHILDREN, &ru) != 0) {
		perror("maxrss: wait");
		return 2;
	}
	fprintf(stderr, "%ld\n", ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
