/* sandbox.c — runs an adapter over one vector in a child process with limits, and collects what it printed. */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"
#include "tracecert/adapter.h"

/* ---- The child -------------------------------------------------------------- */

/* The child writes one line per item: "1 TEXT" (L1), "3 TEXT" (L3),
 * "e CLASS OFFSET" (an L1 error, for the error list), and "! …" lines about
 * the run ("! done" after close()). Exit status 4: the adapter failed; 5:
 * the runner could not set the run up; 6: the adapter handed over a
 * malformed item. */
struct child {
	int fd;
	int level;                         /* tc_level_l1 or tc_level_l3: what this run asked for */
	const struct tc_protocol *proto;   /* the vector's */
};

/* Writes everything or dies (the parent treats a short output as a crash). */
static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3);
		s += w;
		n -= (size_t)w;
	}
}

static void child_line(const struct child *c, const char *prefix, const char *text)
{
	char buf[TC_LINE_MAX + 64];
	int n = snprintf(buf, sizeof buf, "%s%s\n", prefix, text);
	if (n < 0)
		_exit(3);
	if ((size_t)n >= sizeof buf) {   /* cut: still one line */
		n = (int)sizeof buf - 1;
		buf[n - 1] = '\n';
	}
	write_all(c->fd, buf, (size_t)n);
}

/* What an item must be before anything of it is read beyond its header:
 * the level asked for, the protocol opened, the size of that protocol's
 * record at that level, a kind in range, an error class the protocol
 * names. 0, or -1 with why. */
static int check_item(const struct child *c, int level, const struct tc_item *it, char *why, size_t n)
{
	size_t want = level == tc_level_l3 ? sizeof(struct tc_l3) : c->proto->l1_size;
	unsigned kinds = level == tc_level_l3 ? tc_l3_kind_count : (unsigned)c->proto->l1_kinds;
	int cls;
	if (!it) {
		snprintf(why, n, "a NULL item at level %d", level);
		return -1;
	}
	if (level != c->level) {
		snprintf(why, n, "an item at level %d in a run that asked for level %d (enum tc_level)", level, c->level);
		return -1;
	}
	if (it->protocol != c->proto->id) {
		snprintf(why, n, "protocol %u in a run of protocol %d (%s)", (unsigned)it->protocol, c->proto->id,
			 c->proto->name);
		return -1;
	}
	if (it->size != want) {
		snprintf(why, n, "size %u; a %s %s item is %zu bytes", (unsigned)it->size, c->proto->name,
			 level == tc_level_l3 ? "L3" : "L1", want);
		return -1;
	}
	if (it->kind >= kinds) {
		snprintf(why, n, "kind %u; %s %s kinds are 0..%u", (unsigned)it->kind, c->proto->name,
			 level == tc_level_l3 ? "L3" : "L1", kinds - 1);
		return -1;
	}
	cls = c->proto->item_error(level, it);
	if (cls < 0 || cls >= c->proto->nerrors) {
		snprintf(why, n, "error class %d; %s has classes 0..%d", cls, c->proto->name, c->proto->nerrors - 1);
		return -1;
	}
	return 0;
}

/* The runner's item callback: checked, then formatted through the
 * protocol's descriptor; warnings are dropped (never scored). */
static void child_item(void *ctx, int level, const struct tc_item *it)
{
	const struct child *c = ctx;
	char buf[TC_LINE_MAX], why[256];
	int cls;
	if (check_item(c, level, it, why, sizeof why)) {
		child_line(c, "! malformed item: ", why);
		_exit(6);
	}
	if (c->proto->item_is_warning(level, it))
		return;
	if (level == tc_level_l3) {
		tc_l3_format(buf, sizeof buf, (const struct tc_l3 *)it, c->proto->error_names, c->proto->nerrors);
		child_line(c, "3 ", buf);
		return;
	}
	c->proto->format(buf, sizeof buf, level, it);
	child_line(c, "1 ", buf);
	cls = c->proto->item_error(level, it);
	if (cls > 0) {
		snprintf(buf, sizeof buf, "%s %llu", c->proto->error_names[cls], (unsigned long long)it->offset);
		child_line(c, "e ", buf);
	}
}

/* Whether this runner is built with AddressSanitizer (then so is every
 * adapter it can load): ASan reserves terabytes of address space and cannot
 * run under RLIMIT_AS. Decided by the build, not by the environment. */
#if defined(__SANITIZE_ADDRESS__)
#define TC_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_ASAN_BUILD 1
#endif
#endif
#ifndef TC_ASAN_BUILD
#define TC_ASAN_BUILD 0
#endif

static void set_limits(const struct tc_limits *lim)
{
	struct rlimit cpu = { lim->timeout_s, lim->timeout_s + 1 };
	setrlimit(RLIMIT_CPU, &cpu);
	if (lim->mem_mb && !TC_ASAN_BUILD) {
		struct rlimit as = { lim->mem_mb << 20, lim->mem_mb << 20 };
		setrlimit(RLIMIT_AS, &as);
	}
}

/* The vector's image as the adapter's region table, as long as the vector's. */
static struct tc_adapter_region *region_table(const struct tc_vector *v)
{
	struct tc_adapter_region *r = calloc(v->image.n > 0 ? (size_t)v->image.n : 1, sizeof *r);
	for (int i = 0; r && i < v->image.n; i++) {
		r[i].base = v->image.region[i].base;
		r[i].size = v->image.region[i].size;
		r[i].data = v->image.region[i].data;
	}
	return r;
}

/* The child: open, feed, finish, close; items go to fd as text lines. */
static void run_child(const struct tc_adapter *ad, const struct tc_vector *v, int level, int fd,
		      const struct tc_limits *lim)
{
	struct tc_adapter_open_args args;
	struct child c = { fd, level == 3 ? tc_level_l3 : tc_level_l1, v->proto };
	char err[512] = "";
	void *h;
	set_limits(lim);
	memset(&args, 0, sizeof args);
	args.regions = region_table(v);
	if (!args.regions) {
		child_line(&c, "! runner: ", "out of memory for the image's region table");
		_exit(5);
	}
	args.abi_version = TC_ADAPTER_ABI_VERSION;
	args.protocol = v->proto->id;
	args.config = v->config;
	args.config_size = v->proto->config_size;
	args.nregions = (size_t)v->image.n;
	args.levels = (unsigned)c.level;
	args.ctx = &c;
	args.item = child_item;
	h = ad->open(&args, err, sizeof err);
	if (!h) {
		err[sizeof err - 1] = '\0';
		child_line(&c, "! open failed: ", err[0] ? err : "(no message)");
		_exit(4);
	}
	if (ad->feed(h, v->trace, v->trace_len) < 0) {
		child_line(&c, "! feed failed", "");
		_exit(4);
	}
	if (ad->finish(h) < 0) {
		child_line(&c, "! finish failed", "");
		_exit(4);
	}
	ad->close(h);
	child_line(&c, "! done", "");
	_exit(0);
}

/* ---- The parent ------------------------------------------------------------- */

/* Output collected from the child. */
struct capture {
	char *buf;
	size_t len;
	size_t cap;
	int flood;
};

static void capture_add(struct capture *c, const char *data, size_t n, size_t max)
{
	if (c->len + n > max) {
		c->flood = 1;
		return;
	}
	if (c->len + n + 1 > c->cap) {
		char *nb;
		size_t cap = c->cap ? c->cap : 65536;
		while (cap < c->len + n + 1)
			cap *= 2;
		nb = realloc(c->buf, cap);
		if (!nb) {
			c->flood = 1;
			return;
		}
		c->buf = nb;
		c->cap = cap;
	}
	memcpy(c->buf + c->len, data, n);
	c->len += n;
	c->buf[c->len] = '\0';
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads the child's output until EOF (returns tc_v_pass: the exit status
 * decides), the deadline (tc_v_hang) or too much output (tc_v_flood); the
 * child is killed in the last two cases. */
static int read_child(int fd, pid_t pid, struct capture *c, const struct tc_limits *lim)
{
	double deadline = now_s() + lim->timeout_s;
	size_t max = lim->out_mb << 20;
	char buf[65536];
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int ms = (int)((deadline - now_s()) * 1000);
		ssize_t n;
		if (ms <= 0) {
			kill(pid, SIGKILL);
			return tc_v_hang;
		}
		if (poll(&p, 1, ms) <= 0)
			continue;
		n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return tc_v_pass;
		capture_add(c, buf, (size_t)n, max);
		if (c->flood) {
			kill(pid, SIGKILL);
			return tc_v_flood;
		}
	}
}

/* One line of the child's output into out; "! done" sets *done, another "!"
 * line is the message. */
static void take_line(const char *line, struct tc_run_output *out, int *done, char *msg, size_t msglen)
{
	if (line[0] && line[1] == ' ' && (line[0] == '1' || line[0] == '3' || line[0] == 'e'))
		tc_lines_add(line[0] == '1' ? &out->l1 : line[0] == '3' ? &out->l3 : &out->errs, line + 2);
	else if (!strcmp(line, "! done"))
		*done = 1;
	else if (line[0] == '!')
		snprintf(msg, msglen, "%.*s", (int)(msglen - 1), line + 2);
}

/* Splits the child's lines by level prefix; returns whether it said done. */
static int split_output(const char *text, struct tc_run_output *out, char *msg, size_t msglen)
{
	int done = 0;
	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		char line[TC_LINE_MAX + 64];
		snprintf(line, sizeof line, "%.*s", (int)len, text);
		take_line(line, out, &done, msg, msglen);
		text += len + (eol ? 1 : 0);
	}
	return done;
}

/* The verdict of a child that ended: crash/hang by signal, adapter-error
 * or runner-error by its exit status and messages, or 1 (compare). */
static int classify(struct tc_task *t, int status, const struct capture *c, struct tc_run_output *out)
{
	char msg[512] = "";
	int done;
	if (WIFSIGNALED(status)) {
		t->verdict = WTERMSIG(status) == SIGXCPU ? tc_v_hang : tc_v_crash;
		tc_task_diag(t, "  message: 'child killed by signal %d (%s)'\n", WTERMSIG(status),
			     strsignal(WTERMSIG(status)));
		return 0;
	}
	done = split_output(c->buf, out, msg, sizeof msg);
	if (done && WEXITSTATUS(status) == 0)
		return 1;
	t->verdict = WEXITSTATUS(status) == 5 ? tc_v_runner : tc_v_error;   /* 6: a malformed item */
	tc_task_diag_quoted(t, "message", msg[0] ? msg : "adapter ended without finishing");
	return 0;
}

int tc_sandbox_run(const struct tc_adapter *ad, const struct tc_vector *v, struct tc_task *t,
		   const struct tc_limits *lim, struct tc_run_output *out)
{
	int fds[2], status = 0, r, ok = 0;
	pid_t pid;
	struct capture c = { NULL, 0, 0, 0 };
	memset(out, 0, sizeof *out);
	fflush(NULL);
	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		t->verdict = tc_v_runner;
		tc_task_diag(t, "  message: 'runner could not start a child: %s'\n", strerror(errno));
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(ad, v, t->level, fds[1], lim);
	}
	close(fds[1]);
	r = read_child(fds[0], pid, &c, lim);
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (r == tc_v_hang || r == tc_v_flood) {
		t->verdict = r;
		tc_task_diag(t, "  message: '%s'\n",
			     r == tc_v_hang ? "no end within the time limit (killed)" : "output over the size limit (killed)");
	} else {
		ok = classify(t, status, &c, out);
	}
	free(c.buf);
	return ok;
}

void tc_run_output_free(struct tc_run_output *out)
{
	tc_lines_free(&out->l1);
	tc_lines_free(&out->l3);
	tc_lines_free(&out->errs);
}
