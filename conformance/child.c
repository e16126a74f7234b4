/* child.c — a child process of the runner: its own process group under a subreaper, limits, a wall-clock deadline, frames and bounded output in, the whole group killed at the end. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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

/* ---- In the child --------------------------------------------------------- */

static void set_limit(int resource, unsigned long long v)
{
	struct rlimit r = { (rlim_t)v, (rlim_t)v };
	setrlimit(resource, &r);
}

/* CPU (soft: SIGXCPU, then SIGKILL a second later), memory (not in an ASan
 * build: child.h), processes of the user (the kernel does not hold root to
 * it), file size (output limit; SIGXFSZ), no core dumps. */
static void set_limits(const struct tc_limits *lim)
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

/* Descriptors: stdin /dev/null, stdout and stderr the output pipe, frames
 * on TC_CHILD_FRAMES_FD, nothing else (not the runner's pipes). */
static void set_descriptors(int frames_w, int output_w)
{
	/* first above the descriptors to be replaced, whatever numbers pipe() gave */
	int fd = fcntl(frames_w, F_DUPFD, TC_CHILD_FRAMES_FD + 1);
	int out = fcntl(output_w, F_DUPFD, TC_CHILD_FRAMES_FD + 1);
	int devnull = open("/dev/null", O_RDONLY);
	if (fd < 0 || out < 0 || devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 ||
	    dup2(fd, TC_CHILD_FRAMES_FD) < 0)
		_exit(5);
	if (syscall(SYS_close_range, TC_CHILD_FRAMES_FD + 1, ~0u, 0) != 0)
		for (long i = TC_CHILD_FRAMES_FD + 1, max = sysconf(_SC_OPEN_MAX); i < max && i < 65536; i++)
			close((int)i);
}

/* ---- Starting ------------------------------------------------------------- */

static int pidfd_of(pid_t pid)
{
	long fd = syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : (int)fd;
}

int tc_child_start(struct tc_child *c, const struct tc_limits *lim, void (*body)(void *arg), void *arg, char *why,
		   size_t n)
{
	int fr[2] = { -1, -1 }, out[2] = { -1, -1 };
	pid_t parent = getpid();
	c->pid = -1;
	c->frames = c->output = c->pidfd = -1;
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	fflush(NULL);
	if (pipe(fr) != 0 || pipe(out) != 0 || (c->pid = fork()) < 0) {
		snprintf(why, n, "runner could not start a child: %s", strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (fr[i] >= 0)
				close(fr[i]);
			if (out[i] >= 0)
				close(out[i]);
		}
		return -1;
	}
	if (c->pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(5);
		close(fr[0]);
		close(out[0]);
		set_descriptors(fr[1], out[1]);
		set_limits(lim);
		body(arg);
		_exit(5);
	}
	setpgid(c->pid, c->pid);   /* both sides: the group exists before either goes on */
	close(fr[1]);
	close(out[1]);
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
 * still running). */
static void kill_all(struct tc_child *c, int *status)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	while (waitpid(c->pid, status, 0) < 0 && errno == EINTR)
		;
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

/* The child's resident size in MiB (ASan build), or 0. */
static unsigned long rss_mb(pid_t pid)
{
	char path[64];
	unsigned long size = 0, rss = 0;
	FILE *f;
	snprintf(path, sizeof path, "/proc/%d/statm", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%lu %lu", &size, &rss) != 2)
		rss = 0;
	fclose(f);
	return (unsigned long)(((unsigned long long)rss * (unsigned long long)sysconf(_SC_PAGESIZE)) >> 20);
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
	double deadline = now_s() + lim->timeout_s, next_rss = 0;
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
		if (c->pidfd < 0 || TC_ASAN_BUILD)
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
		if (TC_ASAN_BUILD && lim->mem_mb && now_s() >= next_rss) {
			next_rss = now_s() + TC_CHILD_RSS_POLL_MS / 1000.0;
			if (rss_mb(c->pid) > lim->mem_mb) {
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
		kill_all(c, &status);
	} else {
		w->max_bytes = (unsigned long long)lim->out_mb << 20;
		w->fn = fn;
		w->ctx = ctx;
		w->end = end;
		end->how = tc_child_exited;
		done = watch(c, lim, w);
		kill_all(c, &status);
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
