/* certify.c — the conformance runner: scores an adapter against the vectors (TAP, certificate). */
#define _DEFAULT_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "certify.h"
#include "tracecert/adapter.h"
#include "vector.h"

/* Outcome classes of one vector at one level. */
/* v_runner: the runner itself could not run the task (a vector file it
 * cannot read, a child it cannot start, a worker process that died): not
 * the adapter's fault, and never a pass. */
enum verdict { v_pass, v_fail, v_crash, v_hang, v_flood, v_error, v_unsupported, v_skipped, v_pass_alt, v_runner,
	       v_count };
static const char *const verdict_names[v_count] = {
	"pass", "fail", "crash", "hang", "flood", "adapter-error", "unsupported", "not-run", "pass-alt", "runner-error"
};

#define DIAG_SIZE 3072

/* One (vector, level) task and its result; results live in shared memory
 * so that worker processes can fill them. */
struct task {
	int vector;               /* index in the list */
	int level;                /* 1 or 3 */
	int verdict;
	char diag[DIAG_SIZE];     /* YAML lines (indented two spaces) for a failure */
};

struct options {
	const char *adapter;
	const char *vectors[16];
	int nvectors;
	int levels;               /* bit 1: L1, bit 4: L3 */
	const char *tags[32];
	int ntags;
	int tap;
	const char *report;
	int jobs;
	unsigned timeout_s;
	unsigned long mem_mb;
	unsigned long out_mb;
	int first_failure;        /* stop scheduling after the first failing comparison */
	const char *notes;        /* a Markdown file of verdicts, appended to the certificate */
};

/* ---- Running one task in a child process -------------------------------- */

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

static int child_fd = -1;

static void child_line(const char *prefix, const char *text)
{
	char buf[600];
	int n = snprintf(buf, sizeof buf, "%s%s\n", prefix, text);
	write_all(child_fd, buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void child_packet(void *ctx, const struct tc_ete_packet *p)
{
	char buf[512];
	(void)ctx;
	tc_ete_format_packet(buf, sizeof buf, p);
	child_line("1 ", buf);
}

static void child_l3(void *ctx, const struct tc_l3 *x)
{
	char buf[512];
	(void)ctx;
	tc_ete_format_l3(buf, sizeof buf, x);
	child_line("3 ", buf);
}

static void set_limits(const struct options *o)
{
	struct rlimit cpu = { o->timeout_s, o->timeout_s + 1 };
	setrlimit(RLIMIT_CPU, &cpu);
	if (o->mem_mb && !getenv("ASAN_OPTIONS")) {   /* ASan cannot start under RLIMIT_AS */
		struct rlimit as = { o->mem_mb << 20, o->mem_mb << 20 };
		setrlimit(RLIMIT_AS, &as);
	}
}

/* The child: open, feed, finish, close; items go to fd as text lines. */
static void run_child(const struct tc_adapter *ad, const struct tc_vector *v, int level, int fd,
		      const struct options *o)
{
	struct tc_adapter_open_args args;
	struct tc_adapter_region regions[TC_IMAGE_MAX_REGIONS];
	char err[512] = "";
	void *h;
	child_fd = fd;
	set_limits(o);
	memset(&args, 0, sizeof args);
	for (int i = 0; i < v->image.n; i++) {
		regions[i].base = v->image.region[i].base;
		regions[i].size = v->image.region[i].size;
		regions[i].data = v->image.region[i].data;
	}
	args.abi_version = TC_ADAPTER_ABI_VERSION;
	args.protocol = tc_adapter_ete;
	args.ete = v->config;   /* ABI v1: ETE vectors only (unsupported() below) */
	args.regions = regions;
	args.nregions = (size_t)v->image.n;
	args.levels = level == 1 ? tc_adapter_l1 : tc_adapter_l3;
	args.cb.packet = child_packet;
	args.cb.l3 = child_l3;
	h = ad->open(&args, err, sizeof err);
	if (!h) {
		child_line("! open failed: ", err[0] ? err : "(no message)");
		_exit(4);
	}
	if (ad->feed(h, v->trace, v->trace_len) < 0) {
		child_line("! feed failed", "");
		_exit(4);
	}
	if (ad->finish(h) < 0) {
		child_line("! finish failed", "");
		_exit(4);
	}
	ad->close(h);
	child_line("! done", "");
	_exit(0);
}

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

/* Reads the child's output until EOF, the deadline, or too much output. */
static int read_child(int fd, pid_t pid, struct capture *c, const struct options *o)
{
	double deadline = now_s() + o->timeout_s;
	size_t max = o->out_mb << 20;
	char buf[65536];
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int ms = (int)((deadline - now_s()) * 1000);
		ssize_t n;
		if (ms <= 0) {
			kill(pid, SIGKILL);
			return v_hang;
		}
		if (poll(&p, 1, ms) <= 0)
			continue;
		n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return v_pass;   /* EOF: decided by the exit status */
		capture_add(c, buf, (size_t)n, max);
		if (c->flood) {
			kill(pid, SIGKILL);
			return v_flood;
		}
	}
}

static void diag(struct task *t, const char *fmt, ...)
{
	size_t n = strlen(t->diag);
	va_list ap;
	if (n + 1 >= sizeof t->diag)
		return;
	va_start(ap, fmt);
	vsnprintf(t->diag + n, sizeof t->diag - n, fmt, ap);
	va_end(ap);
}

/* YAML-safe single-quoted text. */
static void diag_quoted(struct task *t, const char *key, const char *s)
{
	char q[600];
	size_t o = 0;
	for (; *s && o + 3 < sizeof q; s++) {
		if (*s == '\'')
			q[o++] = '\'';
		q[o++] = *s;
	}
	q[o] = '\0';
	diag(t, "  %s: '%s'\n", key, q);
}

/* Splits the child's lines by level prefix into got[1] (L1) and got[3] (L3). */
static int split_output(const char *text, struct tc_lines *l1, struct tc_lines *l3, struct tc_lines *err,
			char *msg, size_t msglen)
{
	int done = 0;
	while (text && *text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		char line[600];
		snprintf(line, sizeof line, "%.*s", (int)len, text);
		if (line[0] == '1' && line[1] == ' ' && tc_line_is_warning(line + 2)) {
			/* warnings are never scored (FORMAT.md "Warnings") */
		} else if (line[0] == '1' && line[1] == ' ') {
			unsigned long long off;
			char cls[64];
			tc_lines_add(l1, line + 2);
			if (sscanf(line + 2, "@%llu %*s error class=%63s", &off, cls) == 2) {
				char e[128];
				snprintf(e, sizeof e, "%s %llu", cls, off);
				tc_lines_add(err, e);
			}
		} else if (line[0] == '3' && line[1] == ' ') {
			tc_lines_add(l3, line + 2);
		} else if (!strcmp(line, "! done")) {
			done = 1;
		} else if (line[0] == '!') {
			snprintf(msg, msglen, "%.*s", (int)(msglen - 1), line + 2);
		}
		text += len + (eol ? 1 : 0);
	}
	return done;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* How far apart two outputs are beyond their first difference: the lines
 * of each that the other lacks (missing_lines, extra_lines), counted as
 * multisets (sorted copies merged), so that one wrong line is told from a
 * run that lost sync. */
static void count_unmatched(const struct tc_lines *want, const struct tc_lines *got, size_t *missing, size_t *extra)
{
	char **a = malloc((want->n + 1) * sizeof *a), **b = malloc((got->n + 1) * sizeof *b);
	size_t i = 0, j = 0;
	*missing = *extra = 0;
	if (!a || !b) {
		free(a);
		free(b);
		*missing = want->n;
		*extra = got->n;
		return;
	}
	for (i = 0; i < want->n; i++)   /* (an empty list's line may be NULL: no memcpy) */
		a[i] = want->line[i];
	for (j = 0; j < got->n; j++)
		b[j] = got->line[j];
	i = j = 0;
	qsort(a, want->n, sizeof *a, cmp_line);
	qsort(b, got->n, sizeof *b, cmp_line);
	while (i < want->n || j < got->n) {
		int c = i == want->n ? 1 : j == got->n ? -1 : strcmp(a[i], b[j]);
		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			(*missing)++;
			i++;
		} else {
			(*extra)++;
			j++;
		}
	}
	free(a);
	free(b);
}

/* The first divergence with a few lines of context, and the size of the
 * whole difference. `section` is what was compared (the YAML block's
 * `level:` is the task's level). */
static void diag_divergence(struct task *t, const char *section, const struct tc_lines *want,
			    const struct tc_lines *got, long at)
{
	long from = at > 2 ? at - 2 : 0;
	size_t missing, extra;
	diag(t, "  section: %s\n  line: %ld\n", section, at + 1);
	diag_quoted(t, "expected", (size_t)at < want->n ? want->line[at] : "(end of output)");
	diag_quoted(t, "got", (size_t)at < got->n ? got->line[at] : "(end of output)");
	diag(t, "  context:\n");
	for (long i = from; i < at + 3 && (size_t)i < want->n; i++)
		diag(t, "    - '%s%s'\n", i == at ? ">> " : "", want->line[i]);
	count_unmatched(want, got, &missing, &extra);
	diag(t, "  expected_lines: %zu\n  got_lines: %zu\n  missing_lines: %zu\n  extra_lines: %zu\n", want->n, got->n,
	     missing, extra);
}

/* The expected lines of a section under a reading (NULL: the default). */
static const struct tc_lines *expected(const struct tc_vector *v, int sec, const char *reading)
{
	for (int i = 0; reading && i < v->nalts; i++)
		if (v->alt[i].sec == sec && !strcmp(v->alt[i].reading, reading))
			return &v->alt[i].lines;
	return &v->expect[sec];
}

static int has_section(const struct tc_vector *v, int sec, const char *reading)
{
	for (int i = 0; reading && i < v->nalts; i++)
		if (v->alt[i].sec == sec && !strcmp(v->alt[i].reading, reading))
			return 1;
	return v->has[sec];
}

/* "CLASS OFFSET" lines reduced to their classes. */
static void classes_only(const struct tc_lines *in, struct tc_lines *out)
{
	char cls[64];
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < in->n; i++)
		if (sscanf(in->line[i], "%63s", cls) == 1)
			tc_lines_add(out, cls);
}

/* L3: the shared normalisation of both sides. */
static int compare_l3(struct task *t, const struct tc_vector *v, const struct tc_lines *want_raw,
		      const struct tc_lines *l3, int report)
{
	struct tc_lines want, got;
	long at;
	tc_l3_normalise(want_raw, &v->image, &want);
	tc_l3_normalise(l3, &v->image, &got);
	at = tc_lines_diff(&want, &got);
	if (at >= 0 && report)
		diag_divergence(t, "l3 (normalised)", &want, &got, at);
	tc_lines_free(&want);
	tc_lines_free(&got);
	return at < 0;
}

/* When the errors already differ and L1 is compared for this vector: the
 * first L1 line that differs too, so that one run shows both (a wrong
 * error list would otherwise hide every L1 difference). */
static void also_l1(struct task *t, const struct tc_vector *v, const char *reading, const struct tc_lines *l1)
{
	const struct tc_lines *want = expected(v, tc_sec_l1, reading);
	long at = tc_lines_diff(want, l1);
	if (at < 0)
		return;
	diag(t, "  l1_line: %ld\n", at + 1);
	diag_quoted(t, "l1_expected", (size_t)at < want->n ? want->line[at] : "(end of output)");
	diag_quoted(t, "l1_got", (size_t)at < l1->n ? l1->line[at] : "(end of output)");
}

/* L1 of a negative vector: its errors as strictly as the vector says
 * ([error strict=…]); the whole L1 only with strict=resync. A positive
 * vector: its whole L1, and no error. */
static int compare_l1(struct task *t, const struct tc_vector *v, const char *reading, const struct tc_lines *l1,
		      const struct tc_lines *errs, int report)
{
	const struct tc_lines *want_err = expected(v, tc_sec_error, reading);
	int negative = has_section(v, tc_sec_error, reading) && want_err->n > 0;
	int l1_compared;
	long at;
	if (negative && v->error_strict == tc_strict_class) {
		struct tc_lines a, b;
		classes_only(want_err, &a);
		classes_only(errs, &b);
		at = tc_lines_diff(&a, &b);
		if (at >= 0 && report)
			diag_divergence(t, "l1 errors (class only)", &a, &b, at);
		tc_lines_free(&a);
		tc_lines_free(&b);
		return at < 0;
	}
	l1_compared = (!negative || v->error_strict == tc_strict_resync) && has_section(v, tc_sec_l1, reading);
	at = tc_lines_diff(want_err, errs);
	if (at >= 0) {
		if (report) {
			diag_divergence(t, "l1 errors (class offset)", want_err, errs, at);
			if (l1_compared)
				also_l1(t, v, reading, l1);
		}
		return 0;
	}
	if (l1_compared) {
		at = tc_lines_diff(expected(v, tc_sec_l1, reading), l1);
		if (at >= 0) {
			if (report)
				diag_divergence(t, "l1", expected(v, tc_sec_l1, reading), l1, at);
			return 0;
		}
	}
	return 1;
}

/* Compares one level's output with the vector: the default reading, then
 * each alternative reading the vector gives for that level. */
static int compare(struct task *t, const struct tc_vector *v, struct tc_lines *l1, struct tc_lines *l3,
		   struct tc_lines *errs)
{
	int level_sec = t->level == 3 ? tc_sec_l3 : tc_sec_l1;
	if (t->level == 3 ? compare_l3(t, v, &v->expect[tc_sec_l3], l3, 1) : compare_l1(t, v, NULL, l1, errs, 1))
		return v_pass;
	for (int i = 0; i < v->nalts; i++) {
		const char *r = v->alt[i].reading;
		int ok;
		if (v->alt[i].sec != level_sec && !(t->level == 1 && v->alt[i].sec == tc_sec_error))
			continue;
		ok = t->level == 3 ? compare_l3(t, v, &v->alt[i].lines, l3, 0) : compare_l1(t, v, r, l1, errs, 0);
		if (ok) {
			t->diag[0] = '\0';
			diag(t, "  reading: '%s'\n", r);
			return v_pass_alt;
		}
	}
	return v_fail;
}

static void run_task(const struct tc_adapter *ad, const struct tc_vector *v, struct task *t, const struct options *o)
{
	int fds[2], status = 0, r;
	pid_t pid;
	struct capture c = { NULL, 0, 0, 0 };
	struct tc_lines l1 = { 0 }, l3 = { 0 }, errs = { 0 };
	char msg[512] = "";
	fflush(NULL);
	if (pipe(fds) != 0 || (pid = fork()) < 0) {
		t->verdict = v_runner;
		diag(t, "  message: 'runner could not start a child: %s'\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		run_child(ad, v, t->level, fds[1], o);
	}
	close(fds[1]);
	r = read_child(fds[0], pid, &c, o);
	close(fds[0]);
	waitpid(pid, &status, 0);
	if (r == v_hang || r == v_flood) {
		t->verdict = r;
		diag(t, "  message: '%s'\n", r == v_hang ? "no end within the time limit (killed)" : "output over the size limit (killed)");
	} else if (WIFSIGNALED(status)) {
		t->verdict = WTERMSIG(status) == SIGXCPU ? v_hang : v_crash;
		diag(t, "  message: 'child killed by signal %d (%s)'\n", WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (!split_output(c.buf, &l1, &l3, &errs, msg, sizeof msg) || WEXITSTATUS(status) != 0) {
		t->verdict = v_error;
		diag_quoted(t, "message", msg[0] ? msg : "adapter ended without finishing");
	} else {
		t->verdict = compare(t, v, &l1, &l3, &errs);
	}
	free(c.buf);
	tc_lines_free(&l1);
	tc_lines_free(&l3);
	tc_lines_free(&errs);
}

/* ---- Tasks, tags, workers ------------------------------------------------------ */

static int has_tag(const char *tags, const char *tag)
{
	size_t n = strlen(tag);
	for (const char *p = tags; (p = strstr(p, tag)) != NULL; p += n)
		if ((p == tags || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

static int unsupported(const struct tc_adapter *ad, const struct tc_vector *v, int level)
{
	unsigned bit = level == 1 ? tc_adapter_l1 : tc_adapter_l3;
	if (!(ad->levels & bit) || !(ad->protocols & tc_adapter_ete) || v->proto->id != tc_proto_ete)
		return 1;
	for (const char *const *u = ad->unsupported_tags; u && *u; u++)
		if (has_tag(v->tags, *u))
			return 1;
	return 0;
}

/* Results in shared memory, and the next task to take (workers share it). */
struct board {
	atomic_int next;
	atomic_int stop;          /* --first-failure: a comparison failed */
	struct task tasks[];
};

static void run_worker(const struct tc_adapter *ad, char **paths, struct board *b, int ntasks,
		       const struct options *o)
{
	static struct task r;   /* 3 KB: off the stack */
	for (;;) {
		struct tc_vector v;
		char err[512];
		int i = atomic_fetch_add(&b->next, 1);
		if (i >= ntasks)
			break;
		if (atomic_load(&b->stop)) {
			b->tasks[i].verdict = v_skipped;
			b->tasks[i].diag[0] = '\0';
			continue;
		}
		/* the result is built here and stored whole when the task ends:
		 * until then the board says "not run" (plan_task), which is what
		 * a worker that dies mid-task leaves */
		r.vector = b->tasks[i].vector;
		r.level = b->tasks[i].level;
		r.verdict = v_pass;
		r.diag[0] = '\0';
		if (tc_vector_load(paths[r.vector], &v, err, sizeof err)) {
			char msg[600];
			snprintf(msg, sizeof msg, "vector file: %s", err);
			r.verdict = v_runner;
			diag_quoted(&r, "message", msg);
			b->tasks[i] = r;
			continue;
		}
		tc_vector_drop_warnings(&v);   /* adapters are never scored on warnings */
		if (unsupported(ad, &v, r.level))
			r.verdict = v_unsupported;
		else
			run_task(ad, &v, &r, o);
		tc_vector_free(&v);
		b->tasks[i] = r;
		if (o->first_failure && r.verdict == v_fail)
			atomic_store(&b->stop, 1);
	}
}

static size_t board_size(int ntasks)
{
	return sizeof(struct board) + (size_t)(ntasks ? ntasks : 1) * sizeof(struct task);
}

/* Runs every task on o->jobs worker processes, each taking the next task
 * when it is free; results in shared memory. Frees proto before the workers
 * start: every fork copies the page tables of private memory, and the task
 * list is 3 KB per task (60 MB for 10,000 vectors at two levels). */
static struct board *run_all(const struct tc_adapter *ad, char **paths, int ntasks, struct task *proto,
			     const struct options *o)
{
	struct board *b = mmap(NULL, board_size(ntasks), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int forked = 0;
	if (b == MAP_FAILED) {
		free(proto);
		return NULL;
	}
	atomic_init(&b->next, 0);
	atomic_init(&b->stop, 0);
	memcpy(b->tasks, proto, (size_t)ntasks * sizeof *proto);
	free(proto);
	fflush(NULL);
	for (int k = 0; k < o->jobs; k++) {
		pid_t pid = fork();
		if (pid == 0) {
			run_worker(ad, paths, b, ntasks, o);
			_exit(0);
		}
		if (pid < 0)
			break;
		forked++;
	}
	if (forked == 0)
		run_worker(ad, paths, b, ntasks, o);   /* no worker could start: run here */
	for (int status; wait(&status) > 0;)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			fprintf(stderr, "tracecert certify: a worker process died (%s %d); the task it was running and "
					"any it could not take are runner-errors (not run)\n",
				WIFSIGNALED(status) ? "signal" : "exit status",
				WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return b;
}

/* ---- Reports ------------------------------------------------------------------- */

struct tally {
	char tag[48];
	int count[2][v_count];    /* [level 1/3][verdict] */
};

static struct tally *tally_for(struct tally *t, int *n, int max, const char *tag)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(t[i].tag, tag))
			return &t[i];
	if (*n == max)
		return NULL;
	memset(&t[*n], 0, sizeof t[*n]);
	snprintf(t[*n].tag, sizeof t[*n].tag, "%s", tag);
	return &t[(*n)++];
}

static void print_tap(const struct task *tasks, int n, char **paths, char **tags)
{
	printf("TAP version 13\n1..%d\n", n);
	for (int i = 0; i < n; i++) {
		const struct task *t = &tasks[i];
		int good = t->verdict == v_pass || t->verdict == v_pass_alt || t->verdict == v_unsupported ||
			   t->verdict == v_skipped;
		printf("%s %d - L%d %s", good ? "ok" : "not ok", i + 1, t->level, paths[t->vector]);
		if (t->verdict == v_pass_alt)
			printf(" # pass under an alternative reading (see the vector; reference/ERRATA.md)");
		if (t->verdict == v_unsupported)
			printf(" # SKIP unsupported by the adapter");
		if (t->verdict == v_skipped)
			printf(" # SKIP not run (--first-failure)");
		printf("\n");
		if (!good) {
			printf("  ---\n  verdict: %s\n  vector: '%s'\n  tags: '%s'\n  level: L%d\n%s  ...\n",
			       verdict_names[t->verdict], paths[t->vector], tags[t->vector], t->level, t->diag);
		}
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void write_json(FILE *f, const struct tc_adapter *ad, const struct task *tasks, int n, char **paths,
		       const struct tally *tl, int ntl, const int *total, double score, double secs)
{
	fprintf(f, "{\n  \"adapter\": ");
	json_string(f, ad->name);
	fprintf(f, ",\n  \"adapter_version\": ");
	json_string(f, ad->version);
	fprintf(f, ",\n  \"score\": %.4f,\n  \"seconds\": %.3f,\n  \"totals\": {", score, secs);
	for (int k = 0; k < v_count; k++)
		fprintf(f, "%s\"%s\": %d", k ? ", " : "", verdict_names[k], total[k]);
	fprintf(f, "},\n  \"by_tag\": [\n");
	for (int i = 0; i < ntl; i++) {
		fprintf(f, "    {\"tag\": ");
		json_string(f, tl[i].tag);
		for (int lv = 0; lv < 2; lv++) {
			fprintf(f, ", \"L%d\": {", lv ? 3 : 1);
			for (int k = 0; k < v_count; k++)
				fprintf(f, "%s\"%s\": %d", k ? ", " : "", verdict_names[k], tl[i].count[lv][k]);
			fprintf(f, "}");
		}
		fprintf(f, "}%s\n", i + 1 < ntl ? "," : "");
	}
	fprintf(f, "  ],\n  \"failures\": [\n");
	for (int i = 0, first = 1; i < n; i++) {
		const struct task *t = &tasks[i];
		if (t->verdict == v_pass || t->verdict == v_pass_alt || t->verdict == v_unsupported ||
		    t->verdict == v_skipped)
			continue;
		fprintf(f, "%s    {\"vector\": ", first ? "" : ",\n");
		json_string(f, paths[t->vector]);
		fprintf(f, ", \"level\": \"L%d\", \"verdict\": \"%s\", \"detail\": ", t->level, verdict_names[t->verdict]);
		json_string(f, t->diag);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "\n  ]\n}\n");
}

static void write_markdown(FILE *f, const struct tc_adapter *ad, const struct task *tasks, int n, char **paths,
			   const struct tally *tl, int ntl, const int *total, double score, double secs)
{
	fprintf(f, "# tracecert certificate: %s %s\n\n", ad->name, ad->version);
	fprintf(f, "Score: **%.2f%%** of the supported vector runs pass (%d pass of %d, %d of them under an "
		"alternative reading; %d unsupported). %d runs in %.2f s.\n\n", 100.0 * score,
		total[v_pass] + total[v_pass_alt], n - total[v_unsupported], total[v_pass_alt], total[v_unsupported], n, secs);
	fprintf(f, "| verdict | runs |\n|---|---|\n");
	for (int k = 0; k < v_count; k++)
		fprintf(f, "| %s | %d |\n", verdict_names[k], total[k]);
	fprintf(f, "\n## By feature tag and level (pass / fail / crash / hang / flood / error (adapter or runner) / "
		   "unsupported)\n\n");
	fprintf(f, "| tag | L1 | L3 |\n|---|---|---|\n");
	for (int i = 0; i < ntl; i++) {
		fprintf(f, "| %s |", tl[i].tag);
		for (int lv = 0; lv < 2; lv++) {
			const int *c = tl[i].count[lv];
			fprintf(f, " %d / %d / %d / %d / %d / %d / %d |", c[v_pass] + c[v_pass_alt], c[v_fail], c[v_crash], c[v_hang],
				c[v_flood], c[v_error] + c[v_runner], c[v_unsupported]);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n## Failures (first divergence of each)\n\n");
	for (int i = 0; i < n; i++) {
		const struct task *t = &tasks[i];
		if (t->verdict == v_pass || t->verdict == v_unsupported || t->verdict == v_skipped)
			continue;
		if (t->verdict == v_pass_alt) {
			fprintf(f, "### L%d %s — pass under an alternative reading\n\n```\n%s```\n\n", t->level,
				paths[t->vector], t->diag);
			continue;
		}
		fprintf(f, "### L%d %s — %s\n\n```\n%s```\n\n", t->level, paths[t->vector], verdict_names[t->verdict], t->diag);
	}
}

/* mkdir -p */
static void make_dirs(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof path, "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0777);
			*p = '/';
		}
	}
	mkdir(path, 0777);
}

/* Appends the notes file (if any) to f; in JSON as one string. */
static void append_notes(FILE *f, const char *notes, int json)
{
	FILE *in;
	char line[1024];
	if (!notes)
		return;
	in = fopen(notes, "r");
	if (!in) {
		fprintf(stderr, "certify: cannot read notes '%s': %s\n", notes, strerror(errno));
		return;
	}
	if (!json)
		fprintf(f, "\n## Notes (%s)\n\n", notes);
	while (fgets(line, sizeof line, in)) {
		if (json) {
			for (char *p = line; *p; p++) {
				if (*p == '"' || *p == '\\')
					fputc('\\', f);
				if (*p == '\n')
					fputs("\\n", f);
				else if ((unsigned char)*p >= 0x20)
					fputc(*p, f);
			}
		} else {
			fputs(line, f);
		}
	}
	fclose(in);
}

static int write_reports(const char *dir, const struct tc_adapter *ad, const struct task *tasks, int n,
			 char **paths, char **tags, double secs, const char *notes)
{
	static struct tally tl[512];
	int ntl = 0, total[v_count] = { 0 };
	double score;
	char path[1024];
	FILE *f;
	for (int i = 0; i < n; i++) {
		const struct task *t = &tasks[i];
		char buf[512], *save = NULL;
		total[t->verdict]++;
		snprintf(buf, sizeof buf, "%s", tags[t->vector]);
		for (char *tag = strtok_r(buf, " ", &save); tag; tag = strtok_r(NULL, " ", &save)) {
			struct tally *x = tally_for(tl, &ntl, 512, tag);
			if (x)
				x->count[t->level == 3][t->verdict]++;
		}
	}
	score = n - total[v_unsupported] - total[v_skipped] > 0
		? (double)(total[v_pass] + total[v_pass_alt]) / (n - total[v_unsupported] - total[v_skipped]) : 0.0;
	fprintf(stderr, "certify: %s: %d pass, %d fail, %d crash, %d hang, %d flood, %d adapter-error, %d runner-error, %d unsupported; score %.2f%%; %.2f s, %.0f runs/s\n",
		ad->name, total[v_pass] + total[v_pass_alt], total[v_fail], total[v_crash], total[v_hang], total[v_flood],
		total[v_error], total[v_runner], total[v_unsupported], 100.0 * score, secs, secs > 0 ? n / secs : 0.0);
	if (total[v_pass_alt])
		fprintf(stderr, "certify: %d of the passes are under an alternative reading of the spec (listed in the certificate)\n",
			total[v_pass_alt]);
	for (int i = 0; i < n && total[v_skipped]; i++)
		if (tasks[i].verdict == v_fail) {
			fprintf(stderr, "certify: first failure: L%d %s (%d runs not run after it)\n", tasks[i].level,
				paths[tasks[i].vector], total[v_skipped]);
			break;
		}
	if (!dir)
		return total[v_pass] + total[v_pass_alt] + total[v_unsupported] + total[v_skipped] == n ? 0 : 1;
	make_dirs(dir);
	snprintf(path, sizeof path, "%s/certificate.json", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "certify: cannot write %s: %s\n", path, strerror(errno));
		return 2;
	}
	write_json(f, ad, tasks, n, paths, tl, ntl, total, score, secs);
	if (notes) {
		fseek(f, -3, SEEK_END);   /* back over "\n}\n" to add a member */
		fprintf(f, ",\n  \"notes\": \"");
		append_notes(f, notes, 1);
		fprintf(f, "\"\n}\n");
	}
	fclose(f);
	snprintf(path, sizeof path, "%s/certificate.md", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "certify: cannot write %s: %s\n", path, strerror(errno));
		return 2;
	}
	write_markdown(f, ad, tasks, n, paths, tl, ntl, total, score, secs);
	append_notes(f, notes, 0);
	fclose(f);
	fprintf(stderr, "certify: certificate written to %s/certificate.md and certificate.json\n", dir);
	return total[v_pass] + total[v_pass_alt] + total[v_unsupported] + total[v_skipped] == n ? 0 : 1;
}

/* ---- Command line ---------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tracecert certify --adapter PATH.so [--vectors DIR]... [--level 1|3|all]\n"
		"                         [--tags TAG[,TAG…]] [--tap] [--report DIR] [--jobs N]\n"
		"                         [--timeout SECONDS] [--memory MB] [--output MB]\n"
		"\n"
		"Scores a decoder, wrapped as an adapter (conformance/include/tracecert/adapter.h),\n"
		"against the vectors. Each vector and level runs in a child process with CPU,\n"
		"memory and output limits and is classified pass, fail (first divergence),\n"
		"crash (signal), hang (time limit), flood (output limit), adapter-error,\n"
		"runner-error (the runner could not run it: an unreadable vector file, a\n"
		"worker process that died), or unsupported (level or feature the adapter\n"
		"declares unsupported).\n"
		"A failure's YAML block gives the level, the compared section, the first\n"
		"differing line (expected, got, context), the size of the whole difference\n"
		"(expected_lines, got_lines; missing_lines and extra_lines: the lines of each\n"
		"side the other lacks, in any order) and, when the error list differs and L1\n"
		"is compared too, the first differing L1 line (l1_line, l1_expected, l1_got).\n"
		"\n"
		"Options:\n"
		"  --adapter PATH.so   the adapter shared object (required)\n"
		"  --vectors DIR       vector file or folder, may be repeated (default: vectors)\n"
		"  --level 1|3|all     levels to run (default: all the vectors and adapter have)\n"
		"  --tags T1,T2        only vectors carrying at least one of these tags\n"
		"  --tap               print TAP version 13 with YAML diagnostics on stdout\n"
		"  --report DIR        write DIR/certificate.md and DIR/certificate.json\n"
		"  --jobs N            worker processes (default: 2)\n"
		"  --timeout S         per-vector time limit in seconds (default: 10)\n"
		"  --memory MB         per-vector address-space limit, non-sanitized runs (default: 1024)\n"
		"  --output MB         per-vector output limit (default: 64)\n"
		"  --first-failure     stop after the first failing comparison (for mutants)\n"
		"  --notes FILE        Markdown verdicts on the failure classes, appended to the\n"
		"                      certificate (conformance/notes/*.md)\n"
		"Exit status: 0 when every supported run passes, 1 otherwise, 2 for bad usage.\n");
}

static int parse_uint(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;
	if (!s || *s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	unsigned long v;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--tap")) {
			o->tap = 1;
			continue;
		} else if (!strcmp(a, "--first-failure")) {
			o->first_failure = 1;
			continue;
		}
		if (a[0] == '-' && !val) {
			fprintf(stderr, "tracecert certify: %s needs a value\n", a);
			return -1;
		}
		if (!strcmp(a, "--adapter")) {
			o->adapter = val;
		} else if (!strcmp(a, "--vectors") && o->nvectors < 16) {
			o->vectors[o->nvectors++] = val;
		} else if (!strcmp(a, "--level")) {
			if (!strcmp(val, "1"))
				o->levels = 1;
			else if (!strcmp(val, "3"))
				o->levels = 4;
			else if (!strcmp(val, "all"))
				o->levels = 5;
			else {
				fprintf(stderr, "tracecert certify: --level expects 1, 3 or all, got '%s'\n", val);
				return -1;
			}
		} else if (!strcmp(a, "--tags")) {
			static char buf[1024];
			char *save = NULL;
			snprintf(buf, sizeof buf, "%s", val);
			for (char *t = strtok_r(buf, ",", &save); t && o->ntags < 32; t = strtok_r(NULL, ",", &save))
				o->tags[o->ntags++] = t;
		} else if (!strcmp(a, "--report")) {
			o->report = val;
		} else if (!strcmp(a, "--notes")) {
			o->notes = val;
		} else if (!strcmp(a, "--jobs") || !strcmp(a, "--timeout") || !strcmp(a, "--memory") ||
			   !strcmp(a, "--output")) {
			if (parse_uint(val, 1, 100000, &v)) {
				fprintf(stderr, "tracecert certify: %s expects a positive number, got '%s'\n", a, val);
				return -1;
			}
			if (a[2] == 'j')
				o->jobs = (int)(v > 64 ? 64 : v);
			else if (a[2] == 't')
				o->timeout_s = (unsigned)v;
			else if (a[2] == 'm')
				o->mem_mb = v;
			else
				o->out_mb = v;
		} else {
			fprintf(stderr, "tracecert certify: unknown option '%s' (see tracecert certify --help)\n", a);
			return -1;
		}
		i++;
	}
	if (!o->adapter) {
		fprintf(stderr, "tracecert certify: --adapter PATH.so is required (see tracecert certify --help)\n");
		return -1;
	}
	return 0;
}

/* Loads and checks an adapter; NULL with a message on failure. */
const struct tc_adapter *tc_adapter_load(const char *path)
{
	char full[4096];
	void *so;
	tc_adapter_entry_fn entry;
	const struct tc_adapter *ad;
	/* dlopen searches the library path for a bare name: make relative paths explicit */
	snprintf(full, sizeof full, "%s%s", strchr(path, '/') ? "" : "./", path);
	so = dlopen(full, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		fprintf(stderr, "tracecert certify: cannot load adapter '%s': %s\n", path, dlerror());
		return NULL;
	}
	*(void **)&entry = dlsym(so, TC_ADAPTER_ENTRY);
	if (!entry) {
		fprintf(stderr, "tracecert certify: adapter '%s' has no symbol %s\n", path, TC_ADAPTER_ENTRY);
		return NULL;
	}
	ad = entry();
	if (!ad) {
		fprintf(stderr, "tracecert certify: adapter '%s': %s() returned NULL\n", path, TC_ADAPTER_ENTRY);
		return NULL;
	}
	if (ad->abi_version != TC_ADAPTER_ABI_VERSION) {
		fprintf(stderr, "tracecert certify: adapter '%s' has ABI version %u; this runner speaks %u\n", path,
			ad->abi_version, TC_ADAPTER_ABI_VERSION);
		return NULL;
	}
	if (!ad->open || !ad->feed || !ad->finish || !ad->close || !ad->name || !ad->version) {
		fprintf(stderr, "tracecert certify: adapter '%s' leaves a required function or name NULL\n", path);
		return NULL;
	}
	return ad;
}

/* A planned task reads as an error until a worker stores its result: a
 * task nobody finished (its worker died) must not count as a pass. */
static void plan_task(struct task *t, int vector, int level)
{
	t->vector = vector;
	t->level = level;
	t->verdict = v_runner;
	snprintf(t->diag, sizeof t->diag,
		 "  message: 'not run: the certify worker process died before finishing it'\n");
}

/* Builds the task list: each vector at each level it has and the options ask for. */
static int plan(const struct options *o, char **paths, size_t npaths, char **tags, struct task **out)
{
	struct task *t = calloc(npaths * 2 + 1, sizeof *t);
	int n = 0;
	if (!t)
		return -1;
	for (size_t i = 0; i < npaths; i++) {
		struct tc_vector v;
		char err[512];
		int keep = o->ntags == 0;
		if (tc_vector_load(paths[i], &v, err, sizeof err)) {
			fprintf(stderr, "tracecert certify: %s: %s\n", paths[i], err);
			tags[i] = strdup("");
			plan_task(&t[n++], (int)i, 1);   /* the worker reports the runner-error */
			continue;
		}
		tags[i] = strdup(v.tags);
		for (int k = 0; k < o->ntags; k++)
			keep |= has_tag(v.tags, o->tags[k]);
		if (keep && (o->levels & 1) && (v.has[tc_sec_l1] || v.has[tc_sec_error]))
			plan_task(&t[n++], (int)i, 1);
		if (keep && (o->levels & 4) && v.has[tc_sec_l3])
			plan_task(&t[n++], (int)i, 3);
		tc_vector_free(&v);
	}
	*out = t;
	return n;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
}

/* Runs the planned tasks and reports; returns the exit status. */
static int certify(const struct options *o, const struct tc_adapter *ad, char **paths, size_t npaths)
{
	char **tags = calloc(npaths ? npaths : 1, sizeof *tags);
	struct task *proto = NULL;
	struct board *b;
	int n, rc = 2;
	double t0 = now_s();
	if (!tags)
		return 2;
	n = plan(o, paths, npaths, tags, &proto);
	if (n >= 0) {
		b = run_all(ad, paths, n, proto, o);   /* frees proto */
		proto = NULL;
		if (b) {
			if (o->tap)
				print_tap(b->tasks, n, paths, tags);
			rc = write_reports(o->report, ad, b->tasks, n, paths, tags, now_s() - t0, o->notes);
			munmap(b, board_size(n));
		} else {
			fprintf(stderr, "tracecert certify: cannot allocate shared memory for results\n");
		}
	}
	free(proto);
	free_list(tags, npaths);
	return rc;
}

int tc_certify_main(int argc, char **argv)
{
	struct options o;
	const struct tc_adapter *ad;
	char **paths = NULL;
	size_t npaths = 0;
	int rc = 2;
	memset(&o, 0, sizeof o);
	o.levels = 5;
	o.jobs = 2;
	o.timeout_s = 10;
	o.mem_mb = 1024;
	o.out_mb = 64;
	if (parse_args(argc, argv, &o))
		return 2;
	if (o.nvectors == 0)
		o.vectors[o.nvectors++] = "vectors";
	for (int i = 0; i < o.nvectors; i++) {
		if (tc_vector_list(o.vectors[i], &paths, &npaths) == 0) {
			fprintf(stderr, "tracecert certify: no vector files at '%s'\n", o.vectors[i]);
			free_list(paths, npaths);
			return 2;
		}
	}
	ad = tc_adapter_load(o.adapter);
	if (ad)
		rc = certify(&o, ad, paths, npaths);
	free_list(paths, npaths);
	return rc;
}
