/* SPDX-License-Identifier: BSD-3-Clause */
/* nouserns.c — runs a command as UID:GID where no user namespace can be made: in a user namespace of its own (ids 0..65535 mapped to themselves) whose user.max_user_namespaces is 0, as in a container that forbids them. Needs root; exits with the command's status (128 + signal). */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Writes text to the file at path: 0, or -1 with a message. */
static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (n == (ssize_t)strlen(text))
		return 0;
	fprintf(stderr, "nouserns: %s: %s\n", path, strerror(e));
	return -1;
}

/* The child: its user namespace, its limit, the ids, the command. */
static void child(int ready, int mapped, unsigned long uid, unsigned long gid, char **cmd)
{
	char c;
	if (unshare(CLONE_NEWUSER) != 0) {
		fprintf(stderr, "nouserns: unshare(CLONE_NEWUSER): %s\n", strerror(errno));
		_exit(125);
	}
	if (write(ready, "x", 1) != 1 || read(mapped, &c, 1) != 1)
		_exit(125);   /* the parent said why */
	if (put("/proc/sys/user/max_user_namespaces", "0") != 0)
		_exit(125);
	if (setgroups(0, NULL) != 0 || setresgid((gid_t)gid, (gid_t)gid, (gid_t)gid) != 0 ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) != 0) {
		fprintf(stderr, "nouserns: cannot become %lu:%lu: %s\n", uid, gid, strerror(errno));
		_exit(125);
	}
	execvp(cmd[0], cmd);
	fprintf(stderr, "nouserns: %s: %s\n", cmd[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	int ready[2], mapped[2], st = 0;
	char path[64], c;
	pid_t pid;
	if (argc < 4) {
		fprintf(stderr, "usage: nouserns UID GID COMMAND [ARG]...\n");
		return 2;
	}
	if (pipe(ready) != 0 || pipe(mapped) != 0 || (pid = fork()) < 0) {
		perror("nouserns");
		return 125;
	}
	if (pid == 0) {
		close(ready[0]);
		close(mapped[1]);
		child(ready[1], mapped[0], strtoul(argv[1], NULL, 10), strtoul(argv[2], NULL, 10), argv + 3);
	}
	close(ready[1]);
	close(mapped[0]);
	if (read(ready[0], &c, 1) == 1) {
		snprintf(path, sizeof path, "/proc/%ld/uid_map", (long)pid);
		if (put(path, "0 0 65536\n") == 0) {
			snprintf(path, sizeof path, "/proc/%ld/gid_map", (long)pid);
			if (put(path, "0 0 65536\n") == 0 && write(mapped[1], "x", 1) != 1)
				perror("nouserns");
		}
	}
	close(mapped[1]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
