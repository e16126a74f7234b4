/* SPDX-License-Identifier: BSD-3-Clause */
/* child.c — a child process of the runner: a fresh program image in its own process group under a subreaper, limits, a wall-clock deadline, the run's summed resident size, frames and bounded output in, the whole group killed at the end. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

#define LEFTOVER_ROUNDS 1000      /* rounds of killing descendants before giving up */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- In the child (runchild.c, before anything of the adapter runs) ---------- */

static void set_limit(int resource, unsigned long long v)
{
	struct rlimit r = { (rlim_t)v, (rlim_t)v };
	setrlimit(resource, &r);
}

void tc_child_set_limits(const struct tc_limits *lim)
{
	struct rlimit cpu = { lim->timeout_s, (rlim_t)lim->timeout_s + 1 };
	setrlimit(RLIMIT_CPU, &cpu);
	if (lim->mem_mb && !TC_ASAN_BUILD)
		set_limit(RLIMIT_AS, (unsigned long long)lim->mem_mb << 20);
	if (lim->procs)
		set_limit(RLIMIT_NPROC, lim->procs);
	set_limit(RLIMIT_FSIZE, (unsigned long long)lim->out_mb << 20);
	set_limit(RLIMIT_CORE, 0);
}

/* ---- Starting ------------------------------------------------------------- */

static int pidfd_of(pid_t pid)
{
	long fd = syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : (int)fd;
}

/* fd moved to a number above the child's fixed ones (the file actions
 * below may then take them in any order); -1 on failure. */
static int above_fixed(int fd)
{
	int up = fd < 0 ? -1 : fcntl(fd, F_DUPFD_CLOEXEC, TC_CHILD_INPUT_FD + 1);
	if (fd >= 0)
		close(fd);
	return up;
}

/* posix_spawn of /proc/self/exe TC_CHILD_WORD: stdin /dev/null, stdout and
 * stderr the output pipe, frames on TC_CHILD_FRAMES_FD, the inputs on
 * TC_CHILD_INPUT_FD, every other descriptor closed, its own process group.
 * glibc spawns without copying this process's memory (CLONE_VM|CLONE_VFORK):
 * nothing of it reaches the child, and the copy costs nothing. */
static int spawn(pid_t *pid, int frames_w, int output_w, int input)
{
	char word[] = TC_CHILD_WORD, name[] = "tracecert";
	char *argv[] = { name, word, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc;
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		return rc;
	if ((rc = posix_spawnattr_init(&at)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		return rc;
	}
	rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, output_w, 1);
	rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, output_w, 2);
	rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, frames_w, TC_CHILD_FRAMES_FD);
	rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, input, TC_CHILD_INPUT_FD);
	rc = rc ? rc : posix_spawn_file_actions_addclosefrom_np(&fa, TC_CHILD_INPUT_FD + 1);
	rc = rc ? rc : posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	rc = rc ? rc : posix_spawnattr_setpgroup(&at, 0);
	rc = rc ? rc : posix_spawn(pid, "/proc/self/exe", &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return rc;
}

int tc_child_start(struct tc_child *c, const struct tc_limits *lim, int input, char *why, size_t n)
{
	int fr[2] = { -1, -1 }, out[2] = { -1, -1 }, in = -1, rc = 0;
	(void)lim;                /* the child sets its limits itself (its inputs carry them) */
	c->pid = -1;
	c->frames = c->output = c->pidfd = -1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (pipe2(fr, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || lseek(input, 0, SEEK_SET) != 0 ||
	    (fr[1] = above_fixed(fr[1])) < 0 || (out[1] = above_fixed(out[1])) < 0 ||
	    (in = fcntl(input, F_DUPFD_CLOEXEC, TC_CHILD_INPUT_FD + 1)) < 0)
		rc = errno;
	else
		rc = spawn(&c->pid, fr[1], out[1], in);
	if (in >= 0)
		close(in);
	if (fr[1] >= 0)
		close(fr[1]);
	if (out[1] >= 0)
		close(out[1]);
	if (rc != 0) {
		snprintf(why, n, "runner could not start a child: %s", strerror(rc));
		if (fr[0] >= 0)
			close(fr[0]);
		if (out[0] >= 0)
			close(out[0]);
		c->pid = -1;
		return -1;
	}
	setpgid(c->pid, c->pid);   /* both sides: the group exists before either goes on (EACCES once it runs) */
	c->frames = fr[0];
	c->output = out[0];
	c->pidfd = pidfd_of(c->pid);
	return 0;
}

/* ---- Ending --------------------------------------------------------------- */

/* The caller's children (as a subreaper: the run's descendants whose parents
 * died) from /proc; at most max, returns how many (-1: cannot tell). */
static int list_children(pid_t *pids, int max)
{
	char path[64], buf[4096];
	FILE *f;
	size_t n;
	int k = 0;
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
	if (!(f = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *p = buf, *end; k < max; p = end) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		pids[k++] = (pid_t)v;
	}
	return k;
}

void tc_child_reap_leftovers(void)
{
	pid_t pids[256];
	int k;
	for (int round = 0; round < LEFTOVER_ROUNDS && (k = list_children(pids, 256)) > 0; round++) {
		for (int i = 0; i < k; i++)
			kill(pids[i], SIGKILL);
		for (int i = 0; i < k; i++)
			while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
				;
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* Kills the child's group and every descendant that left it, and reaps
 * them all; *status gets the child's exit status (a signal 9 when it was
 * still running), *peak_mb its ru_maxrss (its own and that of the
 * descendants it reaped). */
static void kill_all(struct tc_child *c, int *status, unsigned long *peak_mb)
{
	struct rusage ru;
	memset(&ru, 0, sizeof ru);
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	while (wait4(c->pid, status, 0, &ru) < 0 && errno == EINTR)
		;
	*peak_mb = (unsigned long)ru.ru_maxrss >> 10;
	tc_child_reap_leftovers();
}

/* What the watch loop keeps. */
struct watch {
	struct tc_frame_reader rd;
	unsigned long long max_bytes;
	tc_child_frame_fn fn;
	void *ctx;
	struct tc_child_end *end;
	size_t kept;
};

/* Takes every whole frame read so far; -1 when one is malformed. */
static int take_frames(struct watch *w)
{
	struct tc_frame f;
	int r;
	while ((r = tc_frame_next(&w->rd, &f)) == 1)
		if (w->fn(w->ctx, &f, w->end->why, sizeof w->end->why) != 0)
			return -1;
	if (r < 0)
		snprintf(w->end->why, sizeof w->end->why, "bytes that are not a frame");
	return r < 0 ? -1 : 0;
}

/* One read of the frames pipe: 1 data taken, 2 nothing now, 0 end of
 * file, -1 the run is over (malformed, flood; end->how set). */
static int read_frames(struct watch *w, int fd)
{
	long n = tc_frame_fill(&w->rd, fd);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 2 : 0;
	if (n == 0)
		return 0;
	w->end->frame_bytes += (unsigned long long)n;
	if (w->end->frame_bytes + w->end->output_bytes > w->max_bytes) {
		w->end->how = tc_child_flood;
		return -1;
	}
	if (take_frames(w)) {
		w->end->how = tc_child_malformed;
		return -1;
	}
	return 1;
}

/* One read of the output pipe: the first bytes kept, the rest counted.
 * Returns as read_frames does. */
static int read_output(struct watch *w, int fd)
{
	char buf[16384];
	ssize_t n = read(fd, buf, sizeof buf);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 2 : 0;
	if (n == 0)
		return 0;
	w->end->output_bytes += (unsigned long long)n;
	if (w->kept + 1 < sizeof w->end->output) {
		size_t take = (size_t)n < sizeof w->end->output - 1 - w->kept ? (size_t)n : sizeof w->end->output - 1 - w->kept;
		memcpy(w->end->output + w->kept, buf, take);   /* raw here; cleaned at the end */
		w->kept += take;
	}
	if (w->end->frame_bytes + w->end->output_bytes > w->max_bytes) {
		w->end->how = tc_child_flood;
		return -1;
	}
	return 1;
}

/* The memory process pid holds in KiB, or 0 (gone): its proportional
 * resident size (Pss of /proc/PID/smaps_rollup: a page shared by k
 * processes counts 1/k in each, so forked children that share their
 * parent's pages are not counted many times), or, on a kernel without
 * smaps_rollup, its resident size (statm). */
static unsigned long rss_kb(long pid)
{
	char path[64], buf[2048], *pss;
	unsigned long size = 0, rss = 0;
	FILE *f;
	size_t n;
	snprintf(path, sizeof path, "/proc/%ld/smaps_rollup", pid);
	if ((f = fopen(path, "r")) != NULL) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		pss = strstr(buf, "\nPss:");
		return pss ? strtoul(pss + 5, NULL, 10) : 0;
	}
	snprintf(path, sizeof path, "/proc/%ld/statm", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%lu %lu", &size, &rss) != 2)
		rss = 0;
	fclose(f);
	return (unsigned long)(((unsigned long long)rss * (unsigned long long)sysconf(_SC_PAGESIZE)) >> 10);
}

/* Appends the children of every thread of pid to kids[*n..max). */
static void children_of(long pid, long *kids, int *n, int max)
{
	char path[64], buf[4096];
	DIR *d;
	struct dirent *e;
	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)) != NULL && *n < max) {
		FILE *f;
		size_t got;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%.20s/children", pid, e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		got = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[got] = '\0';
		for (char *p = buf, *end; *n < max; p = end) {
			long v = strtol(p, &end, 10);
			if (end == p)
				break;
			kids[(*n)++] = v;
		}
	}
	closedir(d);
}

#define TREE_MAX 4096             /* processes of a run counted (RLIMIT_NPROC is 256 by default) */

/* The memory of every descendant of this process (rss_kb), summed, in MiB:
 * the run's processes, wherever they went (setsid, a double fork, a PID
 * namespace: every one is a descendant of the caller, which is a
 * subreaper). *nprocs: how many. */
static unsigned long tree_rss_mb(int *nprocs)
{
	long *kids = malloc(TREE_MAX * sizeof *kids);
	unsigned long long kb = 0;
	int n = 0;
	if (!kids)
		return 0;
	children_of((long)getpid(), kids, &n, TREE_MAX);
	for (int i = 0; i < n; i++) {
		kb += rss_kb(kids[i]);
		children_of(kids[i], kids, &n, TREE_MAX);
	}
	free(kids);
	*nprocs = n;
	return (unsigned long)(kb >> 10);
}

/* Whether the child has exited; it is left a zombie (its pid, the group's
 * id, stays taken until kill_all has killed the group). */
static int exited(struct tc_child *c)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == c->pid;
}

/* Polls the pipes and the child until it exits (returns 1) or the
 * run is over (0, end->how set). */
static int watch(struct tc_child *c, const struct tc_limits *lim, struct watch *w)
{
	double deadline = now_s() + lim->timeout_s, next_rss = now_s() + TC_CHILD_RSS_POLL_MS / 1000.0;
	int open_frames = 1, open_output = 1;
	for (;;) {
		struct pollfd p[3] = { { c->frames, POLLIN, 0 }, { c->output, POLLIN, 0 }, { c->pidfd, POLLIN, 0 } };
		int ms = (int)((deadline - now_s()) * 1000) + 1, r;
		if (exited(c))
			return 1;
		if (now_s() >= deadline) {
			w->end->how = tc_child_deadline;
			return 0;
		}
		if (c->pidfd < 0 || lim->mem_mb)
			ms = ms < TC_CHILD_RSS_POLL_MS ? ms : TC_CHILD_RSS_POLL_MS;
		p[0].fd = open_frames ? c->frames : -1;
		p[1].fd = open_output ? c->output : -1;
		if (poll(p, 3, ms) < 0 && errno != EINTR) {
			snprintf(w->end->why, sizeof w->end->why, "poll: %s", strerror(errno));
			w->end->how = tc_child_lost;
			return 0;
		}
		if (open_frames && (p[0].revents & (POLLIN | POLLHUP | POLLERR)) && (r = read_frames(w, c->frames)) <= 0) {
			if (r < 0)
				return 0;
			open_frames = 0;
		}
		if (open_output && (p[1].revents & (POLLIN | POLLHUP | POLLERR)) && (r = read_output(w, c->output)) <= 0) {
			if (r < 0)
				return 0;
			open_output = 0;
		}
		if (lim->mem_mb && now_s() >= next_rss) {
			next_rss = now_s() + TC_CHILD_RSS_POLL_MS / 1000.0;
			if ((w->end->rss_mb = tree_rss_mb(&w->end->nprocs)) > lim->mem_mb) {
				w->end->how = tc_child_memory;
				return 0;
			}
		}
	}
}

/* After the child exited by itself and every process of the run is dead:
 * what is left in the pipes (at most a pipe's buffer each). */
static void drain(struct tc_child *c, struct watch *w)
{
	fcntl(c->frames, F_SETFL, O_NONBLOCK);
	fcntl(c->output, F_SETFL, O_NONBLOCK);
	while (read_frames(w, c->frames) == 1)
		;
	while (w->end->how == tc_child_exited && read_output(w, c->output) == 1)
		;
}

void tc_child_finish(struct tc_child *c, const struct tc_limits *lim, tc_child_frame_fn fn, void *ctx,
		     struct tc_child_end *end)
{
	struct watch *w = calloc(1, sizeof *w);
	int status = 0, done;
	memset(end, 0, sizeof *end);
	if (!w) {
		end->how = tc_child_lost;
		snprintf(end->why, sizeof end->why, "out of memory");
		kill_all(c, &status, &end->peak_mb);
	} else {
		w->max_bytes = (unsigned long long)lim->out_mb << 20;
		w->fn = fn;
		w->ctx = ctx;
		w->end = end;
		end->how = tc_child_exited;
		done = watch(c, lim, w);
		kill_all(c, &status, &end->peak_mb);
		if (done)
			drain(c, w);
		end->status = status;
		tc_text_clean(end->output, sizeof end->output, end->output, w->kept);
	}
	close(c->frames);
	close(c->output);
	if (c->pidfd >= 0)
		close(c->pidfd);
	free(w);
}
