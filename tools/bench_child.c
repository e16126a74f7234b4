/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_child.c — `tracecert bench`'s children: each loads an adapter (bench never does), does one job and sends its figures back as frames; bench applies a wall-clock deadline and says how each child ended. */
/* prctl, the close_range system call and wait4 (a child's own resource
 * usage) are Linux's and BSD's: glibc declares them with _GNU_SOURCE. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_child.h"
#include "certify.h"

#define FRAMES_FD 3               /* the child's descriptor for its frames */
#define WAIT_POLL_MS 5            /* how often bench looks for the child's exit where the kernel has no pidfd */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* ---- Outcomes ----------------------------------------------------------------- */

int tc_bench_outcome_bad(const struct tc_bench_outcome *o)
{
	return o->status != tc_bench_ok && o->status != tc_bench_not_installed && o->status != tc_bench_not_supported;
}

void tc_bench_outcome_cell(const struct tc_bench_outcome *o, const char *protocol, char *cell, size_t size)
{
	const char *load = o->loading ? "load: " : "";
	switch (o->status) {
	case tc_bench_not_installed: snprintf(cell, size, "not installed"); break;
	case tc_bench_not_supported: snprintf(cell, size, "%s not supported", protocol); break;
	case tc_bench_crashed: snprintf(cell, size, "%scrashed (signal %d)", load, o->code); break;
	case tc_bench_exited: snprintf(cell, size, "%sexited (status %d)", load, o->code); break;
	case tc_bench_timeout: snprintf(cell, size, "%stimed out (%d s)", load, o->code); break;
	case tc_bench_malformed: snprintf(cell, size, "%smalformed reply", load); break;
	case tc_bench_no_load: snprintf(cell, size, "cannot load"); break;
	default: snprintf(cell, size, "failed"); break;
	}
}

void tc_bench_outcome_text(const struct tc_bench_outcome *o, char *text, size_t size)
{
	const char *load = o->loading ? " while loading: in its constructor or entry point" : "";
	switch (o->status) {
	case tc_bench_crashed:
		snprintf(text, size, "crashed (signal %d, %s)%s", o->code, strsignal(o->code), load);
		break;
	case tc_bench_exited:
		snprintf(text, size, "ended its process (exit status %d)%s", o->code,
			 o->loading ? load : " without sending its figures");
		break;
	case tc_bench_timeout:
		snprintf(text, size, "still running after %d s of wall-clock time (killed)%s", o->code, load);
		break;
	case tc_bench_malformed: snprintf(text, size, "sent a malformed reply: %s%s", o->why, load); break;
	default: snprintf(text, size, "%s", o->why[0] ? o->why : "failed"); break;
	}
}

/* ---- In the child --------------------------------------------------------------- */

/* stdin, stdout and stderr /dev/null (nothing the adapter prints reaches
 * bench's output), the frames on FRAMES_FD, every other descriptor closed. */
static void set_descriptors(int frames_w)
{
	int fd = fcntl(frames_w, F_DUPFD, FRAMES_FD + 1);
	int devnull = open("/dev/null", O_RDWR);
	if (fd < 0 || devnull < 0 || dup2(devnull, 0) < 0 || dup2(devnull, 1) < 0 || dup2(devnull, 2) < 0 ||
	    dup2(fd, FRAMES_FD) < 0)
		_exit(5);
	if (syscall(SYS_close_range, FRAMES_FD + 1, ~0u, 0) != 0)
		for (long i = FRAMES_FD + 1, max = sysconf(_SC_OPEN_MAX); i < max && i < 65536; i++)
			close((int)i);
}

static void child_body(const char *path, pid_t parent, int frames_w, tc_bench_job job, void *arg)
{
	char err[1024];
	const struct tc_adapter *ad;
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(5);
	set_descriptors(frames_w);
	ad = tc_adapter_load(path, err, sizeof err);
	if (!ad) {
		tc_frame_write(FRAMES_FD, 'E', err, strnlen(err, TC_FRAME_MAX));
		_exit(4);
	}
	tc_frame_write(FRAMES_FD, 'L', "", 0);   /* loaded: what follows is the job's */
	job(ad, arg, FRAMES_FD);
	_exit(0);
}

/* ---- In bench --------------------------------------------------------------------- */

/* What bench reads of one child. */
struct reply {
	struct tc_frame_reader rd;
	size_t bytes;
	int loaded;               /* the 'L' frame came */
	int error;                /* an 'E' or 'F' frame came (o->why): its status */
	int complete;             /* take said the reply is whole */
	tc_bench_take take;
	void *ctx;
	struct tc_bench_outcome *o;
};

/* One frame: 'L' first, then 'E' (load error) or 'F' (open refused) ends
 * the reply, anything else is the job's. 0, or -1 with o->why. */
static int take_frame(struct reply *r, const struct tc_frame *f)
{
	char *why = r->o->why;
	size_t n = sizeof r->o->why;
	int k;
	if (r->error || r->complete) {
		snprintf(why, n, "a frame after the end of the reply");
		return -1;
	}
	if (f->type == 'E' && !r->loaded) {
		r->error = tc_bench_no_load;
		tc_text_clean(why, n, f->payload, f->len);
		return 0;
	}
	if (f->type == 'L' && !r->loaded && f->len == 0)
		return r->loaded = 1, 0;
	if (!r->loaded) {
		snprintf(why, n, "a frame of type '%c' before the adapter was loaded", f->type);
		return -1;
	}
	if (f->type == 'F') {
		r->error = tc_bench_failed;
		tc_text_clean(why, n, f->payload, f->len);
		return 0;
	}
	if ((k = r->take(r->ctx, f, why, n)) < 0)
		return -1;
	r->complete = k > 0;
	return 0;
}

/* One read of the frames: 1 data taken, 2 nothing now, 0 end of file, -1
 * malformed (o->why). */
static int read_reply(struct reply *r, int fd)
{
	struct tc_frame f;
	long n = tc_frame_fill(&r->rd, fd);
	int k;
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 2 : 0;
	if (n == 0)
		return 0;
	r->bytes += (size_t)n;
	if (r->bytes > TC_BENCH_REPLY_MAX) {
		snprintf(r->o->why, sizeof r->o->why, "more than %d bytes", TC_BENCH_REPLY_MAX);
		return -1;
	}
	while ((k = tc_frame_next(&r->rd, &f)) == 1)
		if (take_frame(r, &f))
			return -1;
	if (k < 0)
		snprintf(r->o->why, sizeof r->o->why, "bytes that are not a frame");
	return k < 0 ? -1 : 1;
}

/* Whether the child has exited; it is left a zombie, so that its process
 * group's id stays taken until bench has killed the group. */
static int exited(pid_t pid)
{
	siginfo_t si;
	memset(&si, 0, sizeof si);
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* After the child exited: what is left in the pipe. 1, or -1 malformed. */
static int drain(struct reply *r, int fd)
{
	int k;
	fcntl(fd, F_SETFL, O_NONBLOCK);
	while ((k = read_reply(r, fd)) == 1)
		;
	return k < 0 ? -1 : 1;
}

/* Reads the reply until the child exits (1) or the deadline passes (0) or
 * the reply is malformed (-1). pidfd (-1: the kernel has none) wakes bench
 * when the child exits with its descriptor still open elsewhere. */
static int watch(pid_t pid, int pidfd, int fd, double deadline, struct reply *r)
{
	int open = 1;
	for (;;) {
		struct pollfd p[2] = { { open ? fd : -1, POLLIN, 0 }, { pidfd, POLLIN, 0 } };
		int ms = (int)((deadline - now_s()) * 1000) + 1, k;
		if (exited(pid))
			return drain(r, fd);
		if (now_s() >= deadline)
			return 0;
		if (pidfd < 0 && ms > WAIT_POLL_MS)
			ms = WAIT_POLL_MS;
		if (poll(p, 2, ms) < 0 && errno != EINTR)
			return 0;
		if (open && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
			if ((k = read_reply(r, fd)) < 0)
				return -1;
			open = k > 0;
		}
	}
}

/* How the child ended, as an outcome (o->why may be set already). */
static void judge(struct reply *r, int watched, int status, unsigned timeout_s)
{
	struct tc_bench_outcome *o = r->o;
	o->loading = !r->loaded;
	if (watched == 0) {
		o->status = tc_bench_timeout;
		o->code = (int)timeout_s;
	} else if (watched < 0) {
		o->status = tc_bench_malformed;
	} else if (WIFSIGNALED(status)) {
		o->status = tc_bench_crashed;
		o->code = WTERMSIG(status);
	} else if (r->error) {
		o->status = r->error;
		o->loading = 0;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !r->complete) {
		o->status = tc_bench_exited;
		o->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	} else {
		o->status = tc_bench_ok;
	}
}

void tc_bench_child_run(const char *path, tc_bench_job job, void *arg, unsigned timeout_s, tc_bench_take take,
			void *ctx, struct tc_bench_outcome *o, struct rusage *ru)
{
	struct reply *r = calloc(1, sizeof *r);
	struct rusage own;
	int fds[2], status = 0, watched, pidfd;
	pid_t pid, parent = getpid();
	memset(o, 0, sizeof *o);
	fflush(NULL);
	if (!r || pipe(fds) != 0 || (pid = fork()) < 0) {
		o->status = tc_bench_failed;
		snprintf(o->why, sizeof o->why, "cannot start a child: %s", r ? strerror(errno) : "out of memory");
		free(r);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		child_body(path, parent, fds[1], job, arg);
	}
	setpgid(pid, pid);   /* both sides: the group exists before either goes on */
	close(fds[1]);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	r->take = take;
	r->ctx = ctx;
	r->o = o;
	watched = watch(pid, pidfd, fds[0], now_s() + timeout_s, r);
	kill(-pid, SIGKILL);   /* the group: what the child left in it, and the child if it still runs */
	kill(pid, SIGKILL);
	while (wait4(pid, &status, 0, ru ? ru : &own) < 0 && errno == EINTR)
		;
	if (pidfd >= 0)
		close(pidfd);
	close(fds[0]);
	judge(r, watched, status, timeout_s);
	free(r);
}
