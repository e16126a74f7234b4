/* SPDX-License-Identifier: BSD-3-Clause */
/* sandbox.c — runs an adapter over one vector in a child process (conformance/child.c, runchild.c) that is handed the run's inputs only and loads the adapter; the raw items it sends back are checked and formatted here. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/mman.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "runner.h"
#include "tracecert/adapter.h"

/* ---- Items ---------------------------------------------------------------------- */

int tc_item_check(const struct tc_protocol *p, int level_asked, int level, const struct tc_item *it, char *why,
		  size_t n)
{
	size_t want = level == tc_level_l3 ? sizeof(struct tc_l3) : p->l1_size;
	unsigned kinds = level == tc_level_l3 ? tc_l3_kind_count : (unsigned)p->l1_kinds;
	int cls;
	if (!it) {
		snprintf(why, n, "a NULL item at level %d", level);
		return -1;
	}
	if (level != level_asked) {
		snprintf(why, n, "an item at level %d in a run that asked for level %d (enum tc_level)", level,
			 level_asked);
		return -1;
	}
	if (it->protocol != p->id) {
		snprintf(why, n, "protocol %u in a run of protocol %d (%s)", (unsigned)it->protocol, p->id, p->name);
		return -1;
	}
	if (it->size != want) {
		snprintf(why, n, "size %u; a %s %s item is %zu bytes", (unsigned)it->size, p->name,
			 level == tc_level_l3 ? "L3" : "L1", want);
		return -1;
	}
	if (it->kind >= kinds) {
		snprintf(why, n, "kind %u; %s %s kinds are 0..%u", (unsigned)it->kind, p->name,
			 level == tc_level_l3 ? "L3" : "L1", kinds - 1);
		return -1;
	}
	cls = p->item_error(level, it);
	if (cls < 0 || cls >= p->nerrors) {
		snprintf(why, n, "error class %d; %s has classes 0..%d", cls, p->name, p->nerrors - 1);
		return -1;
	}
	return 0;
}

/* ---- The inputs of a child (runchild.c) ------------------------------------------ */

int tc_run_inputs_bytes(int fd, char type, const void *p, size_t n)
{
	const char *b = p;
	do {
		size_t k = n < TC_FRAME_MAX ? n : TC_FRAME_MAX;
		if (tc_frame_write(fd, type, b, k) != 0)
			return -1;
		b += k;
		n -= k;
	} while (n > 0);
	return 0;
}

int tc_run_inputs(const struct tc_run_env *env, const struct tc_limits *lim, char *why, size_t n)
{
	int fd = memfd_create("tracecert-inputs", MFD_CLOEXEC);
	FILE *tmp = NULL;
	char limits[160];
	int ok;
	if (fd < 0 && (tmp = tmpfile()) != NULL) {
		fd = fcntl(fileno(tmp), F_DUPFD_CLOEXEC, 0);
		fclose(tmp);
	}
	if (fd < 0) {
		snprintf(why, n, "runner could not make the inputs of a child: %s", strerror(errno));
		return -1;
	}
	snprintf(limits, sizeof limits, "%u %lu %lu %lu %lu %ld", lim->timeout_s, lim->mem_mb, lim->out_mb, lim->procs,
		 lim->items, (long)getpid());
	ok = tc_frame_puts(fd, 'l', limits) == 0 && tc_frame_puts(fd, 'a', env->adapter) == 0 &&
	     tc_frame_puts(fd, 'n', env->shown) == 0;
	for (size_t i = 0; ok && i < env->nhide; i++)
		ok = tc_frame_puts(fd, 'h', env->hide[i]) == 0;
	if (ok && env->report)
		ok = tc_frame_puts(fd, 'w', env->report) == 0;
	if (ok && env->unguarded_ok)
		ok = tc_frame_puts(fd, 'u', "") == 0;
	if (!ok) {
		snprintf(why, n, "runner could not write the inputs of a child: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The run's inputs: the limits, the vector's protocol, configuration, image
 * and trace, the level; never an expected section. fd, or -1 with why. */
static int run_inputs(const struct tc_run_env *env, const struct tc_vector *v, int level,
		      const struct tc_limits *lim, char *why, size_t n)
{
	char head[200];
	int fd = tc_run_inputs(env, lim, why, n), ok;
	if (fd < 0)
		return -1;
	snprintf(head, sizeof head, "run %d %d %zu %zu %d", v->proto->id, level, v->proto->config_size, v->trace_len,
		 v->image.n);
	ok = tc_frame_puts(fd, 'm', head) == 0 && tc_run_inputs_bytes(fd, 'c', v->config, v->proto->config_size) == 0;
	for (int i = 0; ok && i < v->image.n; i++) {
		snprintf(head, sizeof head, "%llu %llu", (unsigned long long)v->image.region[i].base,
			 (unsigned long long)v->image.region[i].size);
		ok = tc_frame_puts(fd, 'r', head) == 0 &&
		     tc_run_inputs_bytes(fd, 'b', v->image.region[i].data, (size_t)v->image.region[i].size) == 0;
	}
	ok = ok && (v->trace_len == 0 || tc_run_inputs_bytes(fd, 't', v->trace, v->trace_len) == 0) &&
	     tc_frame_puts(fd, 'z', "") == 0;
	if (!ok) {
		snprintf(why, n, "runner could not write the inputs of a child: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* ---- The runner's side ------------------------------------------------------- */

/* What the frames said. */
struct taken {
	struct tc_run_output *out;
	const struct tc_limits *lim;
	const struct tc_protocol *proto;
	int level;                /* tc_level_l1 or tc_level_l3: what the run asked for */
	struct tc_task *t;        /* started, isolation, iso_note */
	unsigned long lines;
	int done;
	int flood;                /* an 'F' frame */
	char msg[TC_LINE_MAX];    /* the last 'M' or 'F' frame */
};

/* 'I' "BITS NOTE": the walls, sent once, first, before the adapter is loaded. */
int tc_take_isolation(const struct tc_frame *f, int *started, unsigned *bits, char *note, size_t note_size,
		      char *why, size_t n)
{
	char text[TC_ISO_NOTE_SIZE + 32], *rest;
	unsigned long b;
	tc_text_clean(text, sizeof text, f->payload, f->len);
	b = strtoul(text, &rest, 10);
	if (*started || rest == text || text[0] < '0' || text[0] > '9' || b > tc_iso_all || (*rest && *rest != ' ')) {
		snprintf(why, n, *started ? "a second isolation frame" : "a malformed isolation frame");
		return -1;
	}
	*started = 1;
	*bits = (unsigned)b;
	snprintf(note, note_size, "%s", *rest ? rest + 1 : "");
	return 0;
}

/* A raw item ('1' or '3'): checked as the child checked it (the child is
 * the adapter's: a frame may be forged), then formatted here. */
static int take_item(struct taken *k, int level, const struct tc_frame *f, char *why, size_t n)
{
	union {
		struct tc_item h;
		max_align_t align;
		unsigned char b[TC_FRAME_MAX];
	} u;
	char line[TC_LINE_MAX], bad[256];
	int cls;
	if (f->len < sizeof u.h) {
		snprintf(why, n, "an item frame of %zu bytes", f->len);
		return -1;
	}
	memcpy(u.b, f->payload, f->len);
	if (u.h.size != f->len || tc_item_check(k->proto, k->level, level, &u.h, bad, sizeof bad)) {
		snprintf(why, n, "an item the run's process did not check: %s",
			 u.h.size != f->len ? "its size is not its frame's" : bad);
		return -1;
	}
	if (k->proto->item_is_warning(level, &u.h))
		return 0;   /* never scored */
	if (level == tc_level_l3) {
		tc_l3_format(line, sizeof line, (const struct tc_l3 *)(const void *)u.b, k->proto->error_names,
			     k->proto->nerrors);
		tc_lines_add(&k->out->l3, line);
		return 0;
	}
	k->proto->format(line, sizeof line, level, &u.h);
	tc_lines_add(&k->out->l1, line);
	if ((cls = k->proto->item_error(level, &u.h)) > 0) {
		snprintf(line, sizeof line, "%s %llu", k->proto->error_names[cls], (unsigned long long)u.h.offset);
		tc_lines_add(&k->out->errs, line);
	}
	return 0;
}

static int take_run_frame(void *ctx, const struct tc_frame *f, char *why, size_t n)
{
	struct taken *k = ctx;
	char line[TC_LINE_MAX];
	if (k->done || (++k->lines > k->lim->items && f->type != 'F')) {
		snprintf(why, n, k->done ? "a frame after the end of the run" : "more than %lu item frames",
			 k->lim->items);
		return -1;
	}
	if (f->type == 'I')
		return tc_take_isolation(f, &k->t->started, &k->t->isolation, k->t->iso_note, sizeof k->t->iso_note,
					 why, n);
	if (!k->t->started && f->type != 'M') {
		snprintf(why, n, "a frame of type '%c' before the isolation frame", f->type);
		return -1;
	}
	switch (f->type) {
	case '1': return take_item(k, tc_level_l1, f, why, n);
	case '3': return take_item(k, tc_level_l3, f, why, n);
	case 'M': tc_text_clean(k->msg, sizeof k->msg, f->payload, f->len); return 0;
	case 'F': tc_text_clean(k->msg, sizeof k->msg, f->payload, f->len); k->flood = 1; return 0;
	case 'D': k->done = 1; return 0;
	default:
		tc_text_clean(line, 8, &f->type, 1);
		snprintf(why, n, "a frame of unknown type '%s'", line);
		return -1;
	}
}

/* How much the child wrote to stdout and stderr, when it wrote any: its
 * text never reaches the TAP stream or the certificates. */
static void diag_output(struct tc_task *t, const struct tc_child_end *e)
{
	if (e->output_bytes > 0)
		tc_task_diag(t, "  output_bytes: %llu\n", e->output_bytes);
}

/* A run whose adapter was never loaded (no isolation frame): the runner
 * could not set up its process. Why. */
static void setup_failure(char *msg, size_t n, const struct tc_child_end *e, const struct taken *k,
			  const struct tc_limits *lim)
{
	int st = e->status;
	if (k->msg[0] && e->how == tc_child_exited)
		snprintf(msg, n, "%s", k->msg);
	else if (e->how == tc_child_deadline)
		snprintf(msg, n, "the process that loads the adapter did not start within %u s", lim->timeout_s);
	else if (e->how == tc_child_memory)
		snprintf(msg, n, "the process that loads the adapter did not start within --memory %lu MiB",
			 lim->mem_mb);
	else if (e->how == tc_child_exited && WIFSIGNALED(st))
		snprintf(msg, n, "the process that loads the adapter was killed by signal %d (%s) before loading it",
			 WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (e->how == tc_child_exited)
		snprintf(msg, n, "the process that loads the adapter ended (exit status %d) before loading it",
			 WEXITSTATUS(st));
	else
		snprintf(msg, n, "runner could not start or watch the child: %s", e->why[0] ? e->why : "output limit");
}

/* A run killed by a signal: which, and, when its largest process came near
 * --memory, the limit it most likely met (RLIMIT_AS makes an allocation past
 * it fail; the adapter may then abort or crash). */
static void signal_message(char *msg, size_t n, const struct tc_child_end *e, const struct tc_limits *lim)
{
	int sig = WTERMSIG(e->status);
	int k = snprintf(msg, n, "child killed by signal %d (%s)", sig, strsignal(sig));
	if (!TC_ASAN_BUILD && lim->mem_mb && e->peak_mb * 2 >= lim->mem_mb && k > 0 && (size_t)k < n)
		snprintf(msg + k, n - (size_t)k, "; its largest process reached %lu MiB resident, near --memory %lu "
			 "MiB, each process's address-space limit (RLIMIT_AS: an allocation past it fails)",
			 e->peak_mb, lim->mem_mb);
}

/* A run that did not end normally: its verdict and why. */
static void classify_abnormal(struct tc_task *t, const struct tc_child_end *e, const struct taken *k,
			      const struct tc_limits *lim)
{
	int st = e->status;
	char msg[TC_LINE_MAX + 256];
	if (!t->started) {
		t->verdict = tc_v_runner;
		setup_failure(msg, sizeof msg, e, k, lim);
	} else if (e->how == tc_child_deadline) {
		t->verdict = tc_v_hang;
		snprintf(msg, sizeof msg, "no end within %u s of wall-clock time (killed)", lim->timeout_s);
	} else if (e->how == tc_child_memory) {
		t->verdict = tc_v_crash;
		snprintf(msg, sizeof msg, "resident memory of the run's %d processes, %lu MiB summed, over --memory "
			 "%lu MiB (killed)", e->nprocs, e->rss_mb, lim->mem_mb);
	} else if (e->how == tc_child_flood || k->flood) {
		t->verdict = tc_v_flood;
		snprintf(msg, sizeof msg, "%s", k->flood ? k->msg : "output over the size limit (killed)");
	} else if (e->how == tc_child_malformed) {
		t->verdict = tc_v_malformed;
		snprintf(msg, sizeof msg, "the run's messages are malformed: %s (none trusted)", e->why);
	} else if (e->how == tc_child_lost) {
		t->verdict = tc_v_runner;
		snprintf(msg, sizeof msg, "runner could not watch the child: %s", e->why);
	} else if (WIFSIGNALED(st)) {
		t->verdict = WTERMSIG(st) == SIGXCPU ? tc_v_hang : tc_v_crash;
		signal_message(msg, sizeof msg, e, lim);
	} else {
		t->verdict = tc_v_error;
		snprintf(msg, sizeof msg, "%s", k->msg[0] ? k->msg : "adapter ended without finishing");
	}
	tc_task_diag_quoted(t, "message", msg);
	diag_output(t, e);
}

int tc_sandbox_run(const struct tc_run_env *env, const struct tc_vector *v, struct tc_task *t,
		   const struct tc_limits *lim, struct tc_run_output *out, void (*started)(void *ctx, int pgid),
		   void *ctx)
{
	struct taken k;
	struct tc_child ch;
	struct tc_child_end e;
	char why[256];
	int in;
	memset(out, 0, sizeof *out);
	memset(&k, 0, sizeof k);
	k.out = out;
	k.lim = lim;
	k.proto = v->proto;
	k.level = t->level == 3 ? tc_level_l3 : tc_level_l1;
	k.t = t;
	t->started = 0;
	t->isolation = 0;
	t->iso_note[0] = '\0';
	if ((in = run_inputs(env, v, k.level, lim, why, sizeof why)) < 0 ||
	    tc_child_start(&ch, lim, in, why, sizeof why)) {
		if (in >= 0)
			close(in);
		t->verdict = tc_v_runner;
		tc_task_diag_quoted(t, "message", why);
		return 0;
	}
	close(in);
	if (started)
		started(ctx, (int)ch.pid);
	tc_child_finish(&ch, lim, take_run_frame, &k, &e);
	if (e.how == tc_child_exited && WIFEXITED(e.status) && WEXITSTATUS(e.status) == 0 && k.done)
		return 1;
	classify_abnormal(t, &e, &k, lim);
	return 0;
}

void tc_run_output_free(struct tc_run_output *out)
{
	tc_lines_free(&out->l1);
	tc_lines_free(&out->l3);
	tc_lines_free(&out->errs);
}
