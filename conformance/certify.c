/* SPDX-License-Identifier: BSD-3-Clause */
/* certify.c — `tracecert certify`: options, the plan of (vector, level) runs, the worker processes, the reports. */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "certfiles.h"
#include "certify.h"
#include "interrupt.h"
#include "progress.h"
#include "isolate.h"
#include "child.h"
#include "frame.h"
#include "runner.h"
#include "tracecert/adapter.h"

#define NOTES_MAX (1u << 20)

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_word(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	return !x || !y ? (x != NULL) - (y != NULL) : strcmp(x, y);
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
}

/* ---- Tasks and workers ----------------------------------------------------------- */

/* A worker process: it never loads the adapter (each run does, in its own
 * child: sandbox.c), takes tasks from the runner and sends results back
 * over a socket as frames (frame.h): runner → worker 't' "INDEX"; worker →
 * runner 's' "PGID" when a run's child starts and 'r' "INDEX VERDICT\nDIAG"
 * when the task ends. No memory is shared. */
struct worker {
	pid_t pid;                /* also its process group */
	int sock;                 /* -1 once it is gone */
	int task;                 /* the task it runs, -1: none */
	pid_t run;                /* the process group of its current run, 0: none */
	unsigned gen;             /* how many workers this slot has had */
	struct tc_frame_reader rd;
};

/* The live child process groups of the runner: each worker and its current
 * run. pool_kill ends them all (a worker's run child also dies with its
 * worker: PR_SET_PDEATHSIG), which is what a signal handler must do. */
struct pool {
	struct worker w[64];
	int n;
	int next;                 /* the next task to hand out */
	int stop;                 /* --first-failure: a comparison failed */
	int first_failure;        /* the option: stop handing out tasks after a failure */
	struct tc_progress prog;  /* the counter on stderr (--quiet: none) */
};

/* A vector file as the plan read it, once: every run of it uses this
 * content, whatever happens to the file meanwhile (an adapter that rewrites
 * the vectors changes nothing); its image is a copy, not a mapping of a
 * file that could change. */
struct held {
	struct tc_vector v;
	int ok;                   /* read; else err says why (a runner-error) */
	char err[600];
};

/* What a worker knows: the options, the vectors as read, the adapter. */
struct worker_ctx {
	const struct tc_adapter_info *ad;
	const struct tc_run_env *env;
	const struct held *vecs;
	const struct tc_certify_options *o;
	int sock;
};

/* One task in the worker: the run made on the vector as the plan read it,
 * the output compared. */
static void run_one(const struct worker_ctx *w, struct tc_task *r, void (*started)(void *, int))
{
	const struct held *h = &w->vecs[r->vector];
	struct tc_run_output out;
	char err[512];
	memset(&out, 0, sizeof out);
	if (!h->ok) {
		char msg[700];
		snprintf(msg, sizeof msg, "vector file: %s", h->err);
		r->verdict = tc_v_runner;
		tc_task_diag_quoted(r, "message", msg);
		return;
	}
	if (tc_adapter_unsupported(w->ad, &h->v, r->level, err, sizeof err)) {
		r->verdict = tc_v_unsupported;
		tc_task_diag(r, "%s", err);   /* why, for the TAP SKIP line */
	} else if (tc_sandbox_run(w->env, &h->v, r, &w->o->lim, &out, started, (void *)w)) {
		r->verdict = tc_compare(r, &h->v, &out);
	}
	tc_run_output_free(&out);
}

/* Tells the runner the process group of the run that starts. */
static void tell_run_started(void *ctx, int pgid)
{
	const struct worker_ctx *w = ctx;
	char buf[32];
	snprintf(buf, sizeof buf, "%d", pgid);
	tc_frame_puts(w->sock, 's', buf);
}

static void send_result(int sock, int index, const struct tc_task *r)
{
	char buf[TC_FRAME_MAX];
	int n = snprintf(buf, sizeof buf, "%d %d %d %u %s\n%s", index, r->verdict, r->started, r->isolation, r->iso_note,
			 r->diag);
	if (n < 0 || tc_frame_write(sock, 'r', buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1) != 0)
		_exit(3);   /* the runner is gone or the frame cannot be sent: the task reads "not run" */
}

/* The worker: a task per 't' frame until the runner closes the socket. */
static void worker_main(struct worker_ctx *w, const struct tc_task *plan, int ntasks)
{
	struct tc_frame_reader *rd = calloc(1, sizeof *rd);
	struct tc_task *r = malloc(sizeof *r);   /* 3 KB: off the stack */
	struct tc_frame f;
	int got;
	if (!rd || !r)
		_exit(2);
	for (;;) {
		while ((got = tc_frame_next(rd, &f)) == 0) {
			long n = tc_frame_fill(rd, w->sock);
			if (n == 0 || (n < 0 && errno != EINTR))
				_exit(0);   /* the runner closed the socket: no more tasks */
		}
		char text[32];
		int i;
		tc_text_clean(text, sizeof text, f.payload, f.len);
		if (got < 0 || f.type != 't' || sscanf(text, "%d", &i) != 1 || i < 0 || i >= ntasks)
			_exit(2);
		*r = plan[i];
		r->verdict = tc_v_pass;
		r->diag[0] = '\0';
		r->started = 0;
		r->isolation = 0;
		r->iso_note[0] = '\0';
		run_one(w, r, tell_run_started);
		send_result(w->sock, i, r);
	}
}

/* Starts a worker in slot k of the pool (its own process group, killed
 * with the runner); 0, or -1. */
static int start_worker(struct pool *p, int k, struct worker_ctx *wc, const struct tc_task *plan, int ntasks)
{
	int sv[2];
	unsigned gen;
	pid_t pid, runner = getpid();
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return -1;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);               /* its own group: stopped with its runs on SIGINT/SIGTERM (pool_kill) */
		tc_interrupt_default();
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != runner)
			_exit(2);
		for (int j = 0; j < p->n; j++)
			if (p->w[j].sock >= 0)
				close(p->w[j].sock);   /* the other workers' sockets */
		close(sv[0]);
		wc->sock = sv[1];
		worker_main(wc, plan, ntasks);
	}
	setpgid(pid, pid);
	close(sv[1]);
	gen = p->w[k].gen + 1;
	memset(&p->w[k], 0, sizeof p->w[k]);
	p->w[k].gen = gen;
	p->w[k].pid = pid;
	p->w[k].sock = sv[0];
	p->w[k].task = -1;
	if (k == p->n)
		p->n++;
	return 0;
}

/* Kills every live child process group: each worker and its current run. */
static void pool_kill(struct pool *p)
{
	for (int k = 0; k < p->n; k++) {
		if (p->w[k].sock < 0)
			continue;
		if (p->w[k].run > 0)
			kill(-p->w[k].run, SIGKILL);
		kill(-p->w[k].pid, SIGKILL);
	}
}

/* A worker that is gone: its socket closed, the process reaped; its exit
 * status, or -1 when it did not exit by itself with status 0. */
static int worker_reap(struct worker *w, char *how, size_t n)
{
	int status = 0;
	close(w->sock);
	w->sock = -1;
	w->run = 0;
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status))
		snprintf(how, n, "signal %d, %s", WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(how, n, "exit status %d", WEXITSTATUS(status));
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* A worker that ended when told to (no task left). */
static void worker_done(struct worker *w)
{
	char how[80];
	if (worker_reap(w, how, sizeof how) != 0)
		fprintf(stderr, "tracecert certify: a worker process ended with %s after its last task\n", how);
}

static void dispatch(struct pool *p, struct worker *w, int ntasks);

/* A worker that died (or sent what a worker never sends) while it held a
 * task: the task gets its verdict — a crash, the adapter's doing, when its
 * run had started (the adapter's process is the only one there that is
 * not the runner's own), a runner-error otherwise — and a new worker takes
 * its place and goes on with the next task. Each death ends one task, so
 * the restarts end. */
static void worker_died(struct pool *p, int k, struct worker_ctx *wc, struct tc_task *tasks, int ntasks,
			const char *what)
{
	struct worker *w = &p->w[k];
	int task = w->task, ran = w->run > 0;
	char how[80], msg[300];
	worker_reap(w, how, sizeof how);
	if (task < 0)
		return;
	tasks[task].verdict = ran ? tc_v_crash : tc_v_runner;
	tc_progress_count(&p->prog, 1);
	snprintf(msg, sizeof msg, "the certify worker process running it %s (%s)%s; a new worker goes on", what, how,
		 ran ? " while the adapter's process ran: the adapter's doing" : " before the adapter's process started");
	tasks[task].diag[0] = '\0';
	tc_task_diag_quoted(&tasks[task], "message", msg);
	fprintf(stderr, "tracecert certify: a worker process %s (%s) during a run (task %d: %s); a new worker goes on\n",
		what, how, task + 1, tc_verdict_names[tasks[task].verdict]);
	if (p->stop || tc_interrupt_signal() || start_worker(p, k, wc, tasks, ntasks) != 0) {
		if (!p->stop && !tc_interrupt_signal())
			fprintf(stderr, "tracecert certify: cannot start a worker process: %s\n", strerror(errno));
		return;
	}
	dispatch(p, &p->w[k], ntasks);
}

/* Hands the worker its next task, or closes its socket when there is none. */
static void dispatch(struct pool *p, struct worker *w, int ntasks)
{
	char buf[32];
	w->task = -1;
	if (p->next < ntasks && !p->stop) {
		snprintf(buf, sizeof buf, "%d", p->next);
		if (tc_frame_send(w->sock, 't', buf, strlen(buf)) == 0) {
			w->task = p->next++;
			return;
		}
	}
	worker_done(w);
}

/* A result frame: "INDEX VERDICT STARTED ISOLATION NOTE\nDIAG", the index
 * the worker was given, a verdict in range, the diagnostics and the note
 * within their sizes. 0, or -1. */
static int take_result(struct pool *p, struct worker *w, const struct tc_frame *f, struct tc_task *tasks)
{
	char head[TC_ISO_NOTE_SIZE + 64];
	const char *nl = memchr(f->payload, '\n', f->len);
	size_t hl = nl ? (size_t)(nl - f->payload) : 0, dl;
	int i, verdict, started, at = 0;
	unsigned iso;
	if (!nl || hl >= sizeof head || (dl = f->len - hl - 1) >= TC_DIAG_SIZE)
		return -1;
	memcpy(head, f->payload, hl);
	head[hl] = '\0';
	if (sscanf(head, "%d %d %d %u %n", &i, &verdict, &started, &iso, &at) != 4 || at == 0 || i != w->task ||
	    verdict < 0 || verdict >= tc_v_count || started < 0 || started > 1 || iso > tc_iso_all ||
	    strlen(head + at) >= TC_ISO_NOTE_SIZE)
		return -1;
	tasks[i].verdict = verdict;
	tasks[i].started = started;
	tasks[i].isolation = iso;
	snprintf(tasks[i].iso_note, sizeof tasks[i].iso_note, "%s", head + at);
	memcpy(tasks[i].diag, nl + 1, dl);
	tasks[i].diag[dl] = '\0';
	w->run = 0;
	tc_progress_count(&p->prog, !tc_verdict_is_good(verdict));
	if (p->first_failure && verdict == tc_v_fail)
		p->stop = 1;
	return 0;
}

/* Reads what worker k sent; its next task after a result. */
static void from_worker(struct pool *p, int k, struct worker_ctx *wc, struct tc_task *tasks, int ntasks)
{
	struct worker *w = &p->w[k];
	struct tc_frame f;
	int got;
	long n = tc_frame_fill(&w->rd, w->sock);
	if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
		worker_died(p, k, wc, tasks, ntasks, "died");
		return;
	}
	while ((got = tc_frame_next(&w->rd, &f)) == 1) {
		char pg[32];
		if (f.type == 's' && w->task >= 0) {
			tc_text_clean(pg, sizeof pg, f.payload, f.len);
			w->run = (pid_t)atoi(pg);
		} else if (f.type != 'r' || w->task < 0 || take_result(p, w, &f, tasks) != 0) {
			got = -1;
			break;
		} else {
			dispatch(p, w, ntasks);
			if (w->sock < 0)
				return;
		}
	}
	if (got < 0) {
		kill(-w->pid, SIGKILL);
		worker_died(p, k, wc, tasks, ntasks, "sent a malformed message");
	}
}

/* SIGINT or SIGTERM (interrupt.h): every worker and its run killed and
 * reaped, quietly (the run ends without a certificate). */
static void pool_stop(struct pool *p)
{
	pool_kill(p);
	for (int k = 0; k < p->n; k++) {
		if (p->w[k].sock < 0)
			continue;
		close(p->w[k].sock);
		p->w[k].sock = -1;
		while (waitpid(p->w[k].pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

/* Whether a worker is left; waits for the next message of any (and looks
 * at the signal flag at least every 100 ms). */
static int serve(struct pool *p, struct worker_ctx *wc, struct tc_task *tasks, int ntasks)
{
	struct pollfd pf[64];
	unsigned gen[64];
	int live = 0;
	if (tc_interrupt_signal()) {
		pool_stop(p);
		return 0;
	}
	for (int k = 0; k < p->n; k++) {
		pf[k].fd = p->w[k].sock;
		pf[k].events = POLLIN;
		pf[k].revents = 0;
		gen[k] = p->w[k].gen;
		live += p->w[k].sock >= 0;
	}
	if (live == 0)
		return 0;
	if (poll(pf, (nfds_t)p->n, 100) < 0) {
		if (errno == EINTR)
			return 1;
		fprintf(stderr, "tracecert certify: poll: %s; stopping every worker\n", strerror(errno));
		pool_kill(p);
		for (int k = 0; k < p->n; k++)
			if (p->w[k].sock >= 0)
				worker_done(&p->w[k]);
		return 0;
	}
	for (int k = 0; k < p->n; k++)
		if (p->w[k].sock >= 0 && gen[k] == p->w[k].gen && pf[k].revents)   /* not a worker started since */
			from_worker(p, k, wc, tasks, ntasks);
	tc_progress_tick(&p->prog);
	return 1;
}

/* Runs every task on o->jobs worker processes, each given the next task
 * when it is free; results come back through the workers' sockets into
 * tasks. A task no worker finished keeps its "not run" runner-error; a
 * task not handed out after --first-failure stopped the run is skipped. */
static void run_all(const struct tc_adapter_info *ad, const struct tc_run_env *env, const struct held *vecs,
		    int ntasks, struct tc_task *tasks, const struct tc_certify_options *o)
{
	struct pool *p = calloc(1, sizeof *p);
	struct worker_ctx wc = { ad, env, vecs, o, -1 };
	if (!p) {
		fprintf(stderr, "tracecert certify: out of memory for the workers\n");
		return;
	}
	p->first_failure = o->first_failure;
	tc_progress_begin(&p->prog, o->quiet ? NULL : stderr, "certify", ntasks);
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (int k = 0; k < o->jobs && k < 64 && !tc_interrupt_signal(); k++)
		if (start_worker(p, p->n, &wc, tasks, ntasks) != 0)
			fprintf(stderr, "tracecert certify: cannot start a worker process: %s\n", strerror(errno));
	for (int k = 0; k < p->n; k++)
		dispatch(p, &p->w[k], ntasks);
	while (serve(p, &wc, tasks, ntasks))
		;
	tc_progress_end(&p->prog);
	tc_child_reap_leftovers();   /* what a run left behind when its worker died */
	for (int i = p->next; p->stop && i < ntasks; i++) {
		tasks[i].verdict = tc_v_skipped;
		tasks[i].diag[0] = '\0';
	}
	free(p);
}

/* ---- The plan -------------------------------------------------------------------- */

/* A planned task reads as an error until a worker sends its result: a
 * task nobody finished (its worker died) must not count as a pass. */
static void plan_task(struct tc_task *t, int vector, int level, int protocol)
{
	t->vector = vector;
	t->level = level;
	t->protocol = protocol;
	t->verdict = tc_v_runner;
	snprintf(t->diag, sizeof t->diag,
		 "  message: 'not run: the certify worker process died before finishing it'\n");
}

static int selected(const struct tc_certify_options *o, const struct tc_vector *v)
{
	if (o->ntags == 0)
		return 1;
	for (size_t k = 0; k < o->ntags; k++)
		if (tc_has_tag(v->tags, o->tags[k]))
			return 1;
	return 0;
}

/* The vector's image as copies (a region of [image file=…] is a mapping of
 * a file, which could change on disk during the run). 0, or -1. */
static int hold_image(struct tc_vector *v)
{
	struct tc_image copy;
	memset(&copy, 0, sizeof copy);
	for (int i = 0; i < v->image.n; i++)
		if (tc_image_add(&copy, v->image.region[i].base, v->image.region[i].data,
				 (size_t)v->image.region[i].size) != tc_image_ok) {
			tc_image_free(&copy);
			return -1;
		}
	tc_image_free(&v->image);
	v->image = copy;
	return 0;
}

/* Reads each vector file once (regular files only), into vecs[i]: what
 * every run of it uses. */
static void read_vectors(char **paths, size_t npaths, struct held *vecs)
{
	for (size_t i = 0; i < npaths; i++) {
		struct held *h = &vecs[i];
		if (tc_vector_load_strict(paths[i], &h->v, h->err, sizeof h->err)) {
			fprintf(stderr, "tracecert certify: %s: %s\n", paths[i], h->err);
			continue;
		}
		if (hold_image(&h->v)) {
			snprintf(h->err, sizeof h->err, "out of memory for a copy of its image");
			tc_vector_free(&h->v);
			continue;
		}
		tc_vector_drop_warnings(&h->v);   /* adapters are never scored on warnings */
		h->ok = 1;
	}
}

/* Whether vector file i (its index in the sorted list of every file the
 * --vectors paths hold) is in the shard --shard asks for: i mod N is I - 1,
 * so every file is in exactly one of the N shards whatever N is. */
static int in_shard(const struct tc_certify_options *o, size_t i)
{
	return o->shard_count == 0 || i % o->shard_count == o->shard_index - 1;
}

/* The tasks of the shard --shard asks for, kept in place (in order);
 * their number. The selection was judged whole: an empty shard of a
 * selection that is not empty is a run of nothing (its certificate merges
 * with the others'). */
static int keep_shard(const struct tc_certify_options *o, struct tc_task *tasks, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (in_shard(o, (size_t)tasks[i].vector))
			tasks[k++] = tasks[i];
	if (k == 0 && o->shard_count)
		fprintf(stderr, "certify: --shard %u/%u holds none of the %d runs selected; its certificate has no run\n",
			o->shard_index, o->shard_count, n);
	return k;
}

/* Builds the task list: each vector at each level it has and the options
 * ask for; tags[i] gets each vector's tags. Returns the number of tasks, or
 * -1 when memory is short. */
static int plan(const struct tc_certify_options *o, const struct held *vecs, size_t npaths, char **tags,
		struct tc_task **out)
{
	struct tc_task *t = calloc(npaths * 2 + 1, sizeof *t);
	int n = 0;
	if (!t)
		return -1;
	for (size_t i = 0; i < npaths; i++) {
		const struct tc_vector *v = &vecs[i].v;
		if (!vecs[i].ok) {
			tags[i] = strdup("");
			plan_task(&t[n++], (int)i, 1, tc_proto_none);   /* the worker reports the runner-error */
		} else {
			tags[i] = strdup(v->tags);
			if (selected(o, v) && (o->levels & 1) && (v->has[tc_sec_l1] || v->has[tc_sec_error]))
				plan_task(&t[n++], (int)i, 1, v->proto->id);
			if (selected(o, v) && (o->levels & 4) && v->has[tc_sec_l3])
				plan_task(&t[n++], (int)i, 3, v->proto->id);
		}
		if (!tags[i]) {
			free(t);
			return -1;
		}
	}
	*out = t;
	return n;
}

/* The distinct tags of the vectors read (tags[0..n)), sorted, blank-separated
 * (malloc'd), or NULL when memory is short. */
static char *tags_present(char **tags, size_t n)
{
	char **word = NULL, *out;
	size_t nw = 0, len = 1, w = 0;
	for (size_t i = 0; i < n; i++)
		for (const char *s = tags[i]; *s; s += strspn(s, " "), nw++)
			s += strcspn(s, " ");
	word = calloc(nw ? nw : 1, sizeof *word);
	for (size_t i = 0; word && i < n; i++)
		for (const char *s = tags[i]; *s; s += strspn(s, " ")) {
			size_t k = strcspn(s, " ");
			word[w++] = strndup(s, k);
			len += k + 1;
			s += k;
		}
	out = word ? malloc(len) : NULL;
	if (out) {
		out[0] = '\0';
		qsort(word, w, sizeof *word, cmp_word);
		for (size_t i = 0; i < w; i++)
			if (word[i] && (i == 0 || !word[i - 1] || strcmp(word[i], word[i - 1])))
				strcat(strcat(out, out[0] ? " " : ""), word[i]);
	}
	free_list(word, w);
	return out;
}

/* Every --tags name must select a vector: a name no vector read carries (a
 * typo) is an error naming it and the tags there are. 0, or -1 (printed). */
static int check_tags(const struct tc_certify_options *o, char **tags, size_t npaths)
{
	for (size_t k = 0; k < o->ntags; k++) {
		size_t i = 0;
		char *present;
		while (i < npaths && !tc_has_tag(tags[i], o->tags[k]))
			i++;
		if (i < npaths)
			continue;
		present = tags_present(tags, npaths);
		fprintf(stderr, "tracecert certify: --tags %s selects nothing: no vector of the %zu read carries it; "
				"their tags: %s\n", o->tags[k], npaths, present ? present : "(out of memory)");
		free(present);
		return -1;
	}
	return 0;
}

/* ---- Reports ----------------------------------------------------------------------- */

static struct tc_tally *tally_for(struct tc_tally_list *ts, const char *tag, int protocol)
{
	for (size_t i = 0; i < ts->n; i++)
		if (ts->t[i].protocol == protocol && !strcmp(ts->t[i].tag, tag))
			return &ts->t[i];
	if (ts->n == ts->cap) {
		size_t cap = ts->cap ? 2 * ts->cap : 64;
		struct tc_tally *t = realloc(ts->t, cap * sizeof *t);
		if (!t)
			return NULL;
		ts->t = t;
		ts->cap = cap;
	}
	memset(&ts->t[ts->n], 0, sizeof ts->t[ts->n]);
	ts->t[ts->n].protocol = protocol;
	ts->t[ts->n].tag = strdup(tag);
	return ts->t[ts->n].tag ? &ts->t[ts->n++] : NULL;
}

static void tally_list_free(struct tc_tally_list *ts)
{
	for (size_t i = 0; i < ts->n; i++)
		free(ts->t[i].tag);
	free(ts->t);
}

void tc_tallies_free(struct tc_tallies *ts)
{
	tally_list_free(&ts->tag);
	tally_list_free(&ts->family);
	free(ts->failure_tasks);
}

void tc_tag_family(char *dst, size_t n, const char *tag)
{
	size_t len = strlen(tag);
	for (;;) {
		size_t d = len;
		while (d > 0 && tag[d - 1] >= '0' && tag[d - 1] <= '9')
			d--;
		if (d == len)
			break;
		if (d > 1 && tag[d - 1] >= 'a' && tag[d - 1] <= 'z' && tag[d - 2] == '-')
			d--;
		if (d < 2 || tag[d - 1] != '-')
			break;
		len = d - 1;
	}
	snprintf(dst, n, "%.*s", (int)len, tag);
}

static int by_protocol_then_tag(const void *a, const void *b)
{
	const struct tc_tally *x = a, *y = b;
	return x->protocol != y->protocol ? (x->protocol > y->protocol) - (x->protocol < y->protocol)
					  : strcmp(x->tag, y->tag);
}

const char *tc_report_protocol_name(int id)
{
	const struct tc_protocol *p = tc_protocol_by_id(id);
	return p ? p->name : "unreadable";
}

int tc_report_protocol_sum(const struct tc_report *r, int id, int *sum)
{
	int any = 0;
	for (int k = 0; k < tc_v_count; k++) {
		sum[k] = r->by_protocol[id][0][k] + r->by_protocol[id][1][k];
		any |= sum[k];
	}
	return any;
}

double tc_report_score(const int *count)
{
	int counted = 0;
	for (int k = 0; k < tc_v_count; k++)
		counted += k == tc_v_unsupported || k == tc_v_skipped ? 0 : count[k];
	return counted > 0 ? (double)(count[tc_v_pass] + count[tc_v_pass_alt]) / counted : 0.0;
}

/* One tag of a run counted, by tag and by its protocol's tag family. 0, or -1. */
static int count_tag(struct tc_tallies *ts, const struct tc_task *t, const char *tag)
{
	char fam[256];
	struct tc_tally *x = tally_for(&ts->tag, tag, -1), *y;
	tc_tag_family(fam, sizeof fam, tag);
	y = tally_for(&ts->family, fam, t->protocol);
	if (!x || !y)
		return -1;
	x->count[t->level == 3][t->verdict]++;
	y->count[t->level == 3][t->verdict]++;
	return 0;
}

/* The failure groups of r (its defect_count, failure_group) from each
 * run's defect class (diagread.c): the classes that have runs in the
 * classes' order, then the passes under an alternative reading, each
 * group's runs in the plan's order; the indices in ts. 0, or -1. */
static int group_failures(struct tc_report *r, struct tc_tallies *ts)
{
	int *cls = malloc(((size_t)r->ntasks + 1) * sizeof *cls), at = 0;
	ts->failure_tasks = malloc(((size_t)r->ntasks + 1) * sizeof *ts->failure_tasks);
	if (!cls || !ts->failure_tasks) {
		free(cls);
		return -1;
	}
	memset(r->defect_count, 0, sizeof r->defect_count);
	for (int i = 0; i < r->ntasks; i++) {
		struct tc_diag_fields d;
		tc_diag_read(&r->tasks[i], &d);
		cls[i] = tc_defect_of(&r->tasks[i], &d);
		if (cls[i] >= 0)
			r->defect_count[cls[i]]++;
	}
	r->nfailure_groups = 0;
	for (int k = 0; k <= tc_d_count; k++) {
		struct tc_failure_group *g = &r->failure_group[r->nfailure_groups];
		g->cls = k < tc_d_count ? k : tc_d_none;
		g->task = ts->failure_tasks + at;
		g->nruns = 0;
		for (int i = 0; i < r->ntasks; i++)
			if (k < tc_d_count ? cls[i] == k : r->tasks[i].verdict == tc_v_pass_alt)
				ts->failure_tasks[at + g->nruns++] = i;
		at += g->nruns;
		r->nfailure_groups += g->nruns > 0;
	}
	free(cls);
	return 0;
}

void tc_report_failures(FILE *f, const struct tc_report *r, tc_failure_heading_fn *heading, tc_failure_run_fn *run)
{
	for (size_t k = 0; k < r->nfailure_groups; k++) {
		const struct tc_failure_group *g = &r->failure_group[k];
		char title[128];
		if (g->cls >= 0)
			snprintf(title, sizeof title, "%s (%d runs)", tc_defect_names[g->cls], g->nruns);
		else
			snprintf(title, sizeof title, "Passes under an alternative reading (%d runs, counted as passes)",
				 g->nruns);
		heading(f, title);
		for (int i = 0; i < g->nruns; i++)
			run(f, r, &r->tasks[g->task[i]], g->cls);
	}
}

int tc_report_summarise(struct tc_report *r, struct tc_tallies *ts)
{
	for (int i = 0; i < r->ntasks; i++) {
		const struct tc_task *t = &r->tasks[i];
		const char *s = r->tags[t->vector];
		r->total[t->verdict]++;
		if (t->protocol >= 0 && t->protocol < tc_proto_count)
			r->by_protocol[t->protocol][t->level == 3][t->verdict]++;
		while (*s) {
			size_t n = strcspn(s, " ");
			char tag[256];
			snprintf(tag, sizeof tag, "%.*s", (int)n, s);
			s += n + strspn(s + n, " ");
			if (n > 0 && count_tag(ts, t, tag) != 0)
				return -1;
		}
	}
	if (ts->family.n)
		qsort(ts->family.t, ts->family.n, sizeof *ts->family.t, by_protocol_then_tag);
	r->tally = ts->tag.t;
	r->ntally = ts->tag.n;
	r->family = ts->family.t;
	r->nfamily = ts->family.n;
	r->score = tc_report_score(r->total);
	return group_failures(r, ts);
}

static void print_summary(const struct tc_report *r)
{
	const int *t = r->total;
	char iso[1200];
	fprintf(stderr, "certify: %s: %d pass, %d fail, %d crash, %d hang, %d flood, %d adapter-error, %d runner-error, "
			"%d unsupported, %d malformed; score %.2f%%; %.2f s, %.0f runs/s\n",
		r->adapter, t[tc_v_pass] + t[tc_v_pass_alt], t[tc_v_fail], t[tc_v_crash], t[tc_v_hang], t[tc_v_flood],
		t[tc_v_error], t[tc_v_runner], t[tc_v_unsupported], t[tc_v_malformed], 100.0 * r->score, r->seconds,
		r->seconds > 0 ? r->ntasks / r->seconds : 0.0);
	if (t[tc_v_pass_alt])
		fprintf(stderr, "certify: %d of the passes are under an alternative reading of the spec (listed in the "
				"certificate)\n", t[tc_v_pass_alt]);
	tc_report_isolation(r, iso, sizeof iso);
	fprintf(stderr, "certify: isolation: %s\n", iso);
	tc_report_not_isolated(r, iso, sizeof iso);
	if (iso[0])
		fprintf(stderr, "certify: not isolated: %s\n", iso);
	for (int i = 0; i < r->ntasks && t[tc_v_skipped]; i++)
		if (r->tasks[i].verdict == tc_v_fail) {
			fprintf(stderr, "certify: first failure: L%d %s (%d runs not run after it)\n", r->tasks[i].level,
				r->paths[r->tasks[i].vector], t[tc_v_skipped]);
			break;
		}
}

/* SIGINT or SIGTERM (interrupt.h) stopped the run: no certificate from it,
 * and the one an earlier run left is removed. Returns the exit status. */
static int interrupted(const struct tc_certfiles *cf)
{
	fprintf(stderr, "tracecert certify: interrupted by %s: no certificate written\n", tc_interrupt_name());
	tc_certfiles_drop_previous(cf);
	return tc_interrupt_status();
}

/* The summary on stderr, the certificates in the report folder (if any).
 * Returns the exit status: tc_report_exit_status, 2 when a certificate
 * could not be written, 128 + the signal
 * when SIGINT or SIGTERM came before the certificates were in place. */
int tc_report_exit_status(const struct tc_report *r)
{
	int good = 0;
	for (int k = 0; k < tc_v_count; k++)
		good += tc_verdict_is_good(k) ? r->total[k] : 0;
	if (r->total[tc_v_runner])
		return TC_EXIT_RUNNER_RUNS;
	return good == r->ntasks ? 0 : TC_EXIT_DECODER_FAILED;
}

static int write_reports(const struct tc_certfiles *cf, struct tc_report *r, const char *junit)
{
	int rc;
	print_summary(r);
	rc = tc_certfiles_write(cf, r);
	if (rc == 1)
		return interrupted(cf);
	if (rc != 0)
		return 2;
	if (cf->dir)
		fprintf(stderr, "certify: certificate written to %s/certificate.html, certificate.md, certificate.json "
				"and certificate.junit.xml\n", cf->dir);
	if (junit && tc_certfiles_junit(junit, r) != 0)
		return 2;
	return tc_report_exit_status(r);
}

/* The offset of the first byte that is not text (a control character but
 * tab, line feed and carriage return, or not UTF-8), or n when all are. */
static size_t not_text_at(const char *buf, size_t n)
{
	const unsigned char *p = (const unsigned char *)buf;
	size_t i = 0;
	while (i < n) {
		size_t len = tc_utf8_len(p + i, n - i);
		if (len == 0 || p[i] == 0x7f || (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r'))
			return i;
		i += len;
	}
	return n;
}

/* Reads the notes file: text (UTF-8, no control character but tab and line
 * breaks) of at most NOTES_MAX bytes. Returns 0, or -1 with a message on
 * stderr. */
static int read_notes(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(NOTES_MAX + 1);
	size_t n = 0;
	int rc = -1;
	if (!f || !buf) {
		fprintf(stderr, "tracecert certify: cannot read notes '%s': %s\n", path, strerror(errno));
	} else {
		n = fread(buf, 1, NOTES_MAX + 1, f);
		if (ferror(f))
			fprintf(stderr, "tracecert certify: cannot read notes '%s': %s\n", path, strerror(errno));
		else if (n > NOTES_MAX)
			fprintf(stderr, "tracecert certify: notes '%s' are longer than %u bytes\n", path, NOTES_MAX);
		else if (not_text_at(buf, n) < n)
			fprintf(stderr, "tracecert certify: notes '%s' are not text: byte offset %zu is 0x%02x (text is "
					"UTF-8 without control characters but tab and line breaks)\n", path,
				not_text_at(buf, n), (unsigned char)buf[not_text_at(buf, n)]);
		else
			rc = 0;
	}
	if (f)
		fclose(f);
	if (rc != 0) {
		free(buf);
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
}

/* ---- The command --------------------------------------------------------------- */

/* ---- What no adapter may see --------------------------------------------------- */

/* The folders each run's process hides from the adapter (isolate.c). */
struct hidden {
	char **dir;
	size_t n;
	char why[400];            /* a folder that cannot be hidden, and why ("" when none) */
	char *report;             /* the report folder's real path (NULL: none) */
};

/* Adds the real path of folder (when it has one) to h. */
static void hide_add(struct hidden *h, const char *folder)
{
	char *real = realpath(folder, NULL), **d;
	if (!real)
		return;
	if (!(d = realloc(h->dir, (h->n + 1) * sizeof *d))) {
		free(real);
		return;
	}
	h->dir = d;
	h->dir[h->n++] = real;
}

/* Whether path is folder or inside it. */
static int inside(const char *path, const char *folder)
{
	size_t n = strlen(folder);
	return !strncmp(path, folder, n) && (path[n] == '\0' || path[n] == '/' || (n == 1 && folder[0] == '/'));
}

/* The folder of every vector file, every --vectors folder and the report
 * folder, as real paths, none inside another; a folder that holds the
 * adapter (which is to be loaded) or is "/" cannot be hidden: left out, and
 * h->why says so. */
static void hide_list(const struct tc_certify_options *o, char **paths, size_t npaths, const char *adapter,
		      struct hidden *h)
{
	struct stat st;
	size_t k = 0;
	for (size_t i = 0; i < npaths; i++) {
		char *dir = strdup(paths[i]), *slash = dir ? strrchr(dir, '/') : NULL;
		if (dir)
			hide_add(h, slash ? (slash == dir ? "/" : (*slash = '\0', dir)) : ".");
		free(dir);
	}
	for (size_t i = 0; i < o->nvectors; i++)
		if (stat(o->vectors[i], &st) == 0 && S_ISDIR(st.st_mode))
			hide_add(h, o->vectors[i]);
	if (o->report)
		hide_add(h, o->report);
	qsort(h->dir, h->n, sizeof *h->dir, cmp_word);
	for (size_t i = 0; i < h->n; i++) {
		if (!strcmp(h->dir[i], "/") || inside(adapter, h->dir[i])) {
			if (!h->why[0])
				snprintf(h->why, sizeof h->why, "'%s' is not hidden: it holds %s", h->dir[i],
					 strcmp(h->dir[i], "/") ? "the adapter" : "everything");
			free(h->dir[i]);
		} else if (k > 0 && inside(h->dir[i], h->dir[k - 1])) {
			free(h->dir[i]);
		} else {
			h->dir[k++] = h->dir[i];
		}
	}
	h->n = k;
}

/* ---- The command --------------------------------------------------------------- */

/* The counts of the runs behind each wall (from each task), and why one was
 * missing: what an adapter could do where it was not guarded first (the
 * declaration's process, then the runs'), else the runner's own reason (a
 * folder it could not hide), else a run's. */
void tc_report_count_isolation(struct tc_report *r)
{
	const char *unguarded = r->declaration_guarded ? NULL : r->decl_note;
	r->iso_note = r->hidden_why;
	r->isolated = !unguarded;
	r->iso_runs = 0;
	memset(r->iso_count, 0, sizeof r->iso_count);
	for (int i = 0; i < r->ntasks; i++) {
		const struct tc_task *t = &r->tasks[i];
		if (!t->started)
			continue;
		r->iso_runs++;
		r->iso_count[0] += (t->isolation & tc_iso_uid) != 0;
		r->iso_count[1] += (t->isolation & tc_iso_pid) != 0;
		r->iso_count[2] += (t->isolation & tc_iso_hidden) && !r->hidden_why[0];
		r->iso_count[3] += (t->isolation & tc_iso_guarded) != 0;
		if (!(t->isolation & tc_iso_guarded)) {
			r->isolated = 0;
			unguarded = unguarded ? unguarded : t->iso_note;
		}
		if (!r->iso_note[0] && t->iso_note[0])
			r->iso_note = t->iso_note;
	}
	if (unguarded)
		r->iso_note = unguarded;
}

/* The walls of the report's runs: the declaration's process as ad says,
 * the folders h could not hide. */
static void count_isolation(struct tc_report *r, const struct hidden *h, const struct tc_adapter_info *ad)
{
	r->hidden_why = h->why;
	r->declaration_guarded = (ad->isolation & tc_iso_guarded) != 0;
	r->decl_note = ad->iso_note;
	tc_report_count_isolation(r);
}

void tc_report_not_isolated(const struct tc_report *r, char *buf, size_t n)
{
	if (r->isolated)
		snprintf(buf, n, "%s", "");
	else
		snprintf(buf, n, "--no-isolation, and %d of the %d runs that loaded the adapter%s were not walled "
			 "off: %s; the adapter could have forged this result", r->iso_runs - r->iso_count[3],
			 r->iso_runs, r->declaration_guarded ? "" : " (and the process that read its declaration)",
			 r->iso_note);
}

void tc_report_identity(const struct tc_report *r, char *buf, size_t n)
{
	snprintf(buf, n, "vector set: %zu files, paths %s, content %s (FNV-1a 64); --level %s; --tags %s; "
		 "limits: %u s, %lu MB memory, %lu MB output, %lu processes, %lu items per run",
		 r->nfiles, r->set_hash, r->content_digest,
		 r->levels == 1 ? "1" : r->levels == 4 ? "3" : "all",
		 r->tag_option && r->tag_option[0] ? r->tag_option : "(none)", r->lim.timeout_s, r->lim.mem_mb,
		 r->lim.out_mb, r->lim.procs, r->lim.items);
}

void tc_report_isolation(const struct tc_report *r, char *buf, size_t n)
{
	int k = snprintf(buf, n, "of the %d runs that loaded the adapter, %d ran as uid %d (nobody) instead of the "
			 "runner's, %d in a PID namespace of their own, %d with the vectors and the report folder "
			 "hidden, %d where it could neither signal the runner nor write the report folder",
			 r->iso_runs, r->iso_count[0], TC_ISO_UID, r->iso_count[1], r->iso_count[2], r->iso_count[3]);
	if (r->iso_note && r->iso_note[0] && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, " (%s)", r->iso_note);
}

/* The shared parts of every child that loads the adapter: its real path,
 * the folders it hides. */
static void run_env(const struct tc_certify_options *o, char **paths, size_t npaths, struct tc_run_env *env,
		    struct hidden *h, char *real, size_t n)
{
	char *r = realpath(o->adapter, NULL);
	snprintf(real, n, "%s", r ? r : o->adapter);   /* none: loading says why */
	free(r);
	hide_list(o, paths, npaths, real, h);
	h->report = o->report ? realpath(o->report, NULL) : NULL;   /* prepared: it exists */
	env->adapter = real;
	env->shown = o->adapter;
	env->hide = h->dir;
	env->nhide = h->n;
	env->report = h->report ? h->report : o->report;
	env->unguarded_ok = o->no_isolation;
}

/* The child that was to read the adapter's declaration refused to load it
 * (why: "not isolated: ..."): said, with what to do; the certificate an
 * earlier run left is removed (it would pass for this run's). */
static void refused(const struct tc_certify_options *o, const struct tc_certfiles *cf, const struct hidden *h,
		    const char *why)
{
	fprintf(stderr, "tracecert certify: refused to load adapter '%s': %s%s%s; from there a hostile adapter could "
			"forge the run's outcome (kill the runner, write the certificate)\n", o->adapter, why,
		h->why[0] ? "; " : "", h->why);
	fprintf(stderr, "tracecert certify: to wall it off, run certify as root (the adapter then runs as uid %d, "
			"nobody) or as a user who may create user namespaces (sysctl user.max_user_namespaces above 0; "
			"in a container, a seccomp profile that permits unshare), with a --report folder that does not "
			"hold the adapter; or give --no-isolation to run it anyway (the certificate then says the run "
			"was not isolated)\n", TC_ISO_UID);
	tc_certfiles_abandon(cf, 0);
}

/* What the adapter declares, as "P at L1 and L3, Q at L1" (in buf). */
static void declared_text(const struct tc_adapter_info *ad, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < ad->nprotocols && k < n; i++) {
		unsigned lv = ad->protocols[i].levels;
		int m = snprintf(buf + k, n - k, "%s%s at %s", i ? ", " : "", tc_report_protocol_name(ad->protocols[i].protocol),
				 lv == (tc_level_l1 | tc_level_l3) ? "L1 and L3" : lv == tc_level_l3 ? "L3" : "L1");
		k += m > 0 ? (size_t)m : 0;
	}
}

/* A selection of runs the adapter supports none of (every vector read, and
 * unsupported at each level asked: its protocol, the level, a feature
 * tag) selects nothing: an error naming the adapter, what it declares and
 * why the first run is unsupported. 0 when some run is supported or a
 * vector could not be read (its runner-error is a result), else -1. */
static int check_supported(const struct tc_certify_options *o, const struct tc_adapter_info *ad,
			   const struct held *vecs, const struct tc_task *tasks, int n, char **paths)
{
	char why[512], first[512] = "", decl[600];
	int at = -1;
	for (int i = 0; i < n; i++) {
		const struct held *h = &vecs[tasks[i].vector];
		if (!h->ok || !tc_adapter_unsupported(ad, &h->v, tasks[i].level, why, sizeof why))
			return 0;
		if (at < 0) {
			at = i;
			snprintf(first, sizeof first, "%s", why);
		}
	}
	declared_text(ad, decl, sizeof decl);
	fprintf(stderr, "tracecert certify: nothing to run: adapter '%s' (%s) declares %s and supports none of the %d "
			"runs selected (%s%s%s); the first, L%d %s, is unsupported: %s\n", o->adapter, ad->name, decl, n,
		o->levels == 5 ? "every level" : o->levels == 1 ? "--level 1" : "--level 3", o->ntags ? ", --tags" : "",
		o->ntags ? " given" : "", tasks[at].level, paths[tasks[at].vector], first);
	return -1;
}

/* FNV-1a 64 (its published offset basis and prime) of every path with its
 * NUL: what shards of one vector set share. */
static void set_hash(char *const *paths, size_t n, char *hex)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		for (const unsigned char *p = (const unsigned char *)paths[i];; p++) {
			h = (h ^ *p) * 0x100000001b3ull;
			if (!*p)
				break;
		}
	snprintf(hex, 17, "%016llx", h);
}

/* The time now, UTC, ISO 8601 to the second. */
static void started_now(char *buf, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, n, "unknown");
}

/* FNV-1a 64 of every file's bytes in list order, each file's length first
 * (8 bytes, little-endian), so that the digest changes with any byte of the
 * set; an unreadable file folds in its path's length only. */
void tc_content_digest(char *const *paths, size_t n, char *hex)
{
	unsigned long long h = 0xcbf29ce484222325ull;
	unsigned char buf[65536];
	for (size_t i = 0; i < n; i++) {
		FILE *f = fopen(paths[i], "rb");
		unsigned long long len = 0;
		size_t k;
		unsigned char le[8];
		while (f && (k = fread(buf, 1, sizeof buf, f)) > 0) {
			len += k;
			for (size_t j = 0; j < k; j++)
				h = (h ^ buf[j]) * 0x100000001b3ull;
		}
		if (f)
			fclose(f);
		for (int b = 0; b < 8; b++)
			le[b] = (unsigned char)(len >> (8 * b));
		for (int b = 0; b < 8; b++)
			h = (h ^ le[b]) * 0x100000001b3ull;
	}
	snprintf(hex, 17, "%016llx", h);
}

/* What makes shards parts of one run: the options, the vector set. The
 * --tags names are joined into a buffer the report keeps (freed by the
 * caller: r->tag_option). */
static void describe_run(const struct tc_certify_options *o, char **paths, size_t npaths, struct tc_report *r)
{
	size_t len = 1;
	char *t;
	for (size_t k = 0; k < o->ntags; k++)
		len += strlen(o->tags[k]) + 1;
	t = malloc(len);
	if (t) {
		t[0] = '\0';
		for (size_t k = 0; k < o->ntags; k++)
			strcat(strcat(t, k ? "," : ""), o->tags[k]);
	}
	r->tool_version = o->tool_version ? o->tool_version : "";
	r->levels = o->levels;
	r->tag_option = t;
	r->shard_index = o->shard_index;
	r->shard_count = o->shard_count;
	r->nfiles = npaths;
	set_hash(paths, npaths, r->set_hash);
	r->lim = o->lim;
	r->adapter_path = o->adapter;
}

/* Reports the run: TAP, certificates. Returns the exit status. */
static int report(const struct tc_certify_options *o, struct tc_certfiles *cf, struct tc_report *r,
		  const struct hidden *h, const struct tc_adapter_info *ad, double t0)
{
	struct tc_tallies ts;
	int rc = 2;
	memset(&ts, 0, sizeof ts);
	r->seconds = now_s() - t0;
	count_isolation(r, h, ad);
	if (tc_interrupt_signal()) {
		rc = interrupted(cf);   /* the results are partial: no TAP, no certificate */
	} else if (tc_report_summarise(r, &ts)) {
		fprintf(stderr, "tracecert certify: out of memory\n");
		tc_certfiles_restore(cf);
	} else if (o->tap && tc_tap_write(stdout, r)) {
		fprintf(stderr, "tracecert certify: cannot write the TAP stream: %s\n", strerror(errno));
		tc_certfiles_restore(cf);
	} else {
		r->seconds = now_s() - t0;
		rc = write_reports(cf, r, o->junit);
	}
	tc_tallies_free(&ts);
	return rc;
}

/* The plan made, the report folder prepared, the adapter's declaration read
 * (in a child), the tasks run; returns the exit status. */
static int certify(const struct tc_certify_options *o, struct tc_certfiles *cf, struct tc_adapter_info *ad,
		   char **paths, size_t npaths, struct tc_report *r)
{
	char **tags = calloc(npaths ? npaths : 1, sizeof *tags), real[PATH_MAX + 1], err[1024];
	struct held *vecs = calloc(npaths ? npaths : 1, sizeof *vecs);
	struct tc_task *tasks = NULL;
	struct hidden h;
	struct tc_run_env env;
	int n = -1, rc = 2;
	const struct tc_vector **vp = calloc(npaths ? npaths : 1, sizeof *vp);
	double t0 = now_s();
	memset(&h, 0, sizeof h);
	started_now(r->started, sizeof r->started);
	if (tags && vecs && vp) {
		read_vectors(paths, npaths, vecs);   /* once: every run uses what is read here */
		tc_content_digest(paths, npaths, r->content_digest);   /* before any adapter is loaded */
		for (size_t i = 0; i < npaths; i++)
			vp[i] = vecs[i].ok ? &vecs[i].v : NULL;
		r->vectors = vp;
		n = plan(o, vecs, npaths, tags, &tasks);
	}
	if (n < 0)
		fprintf(stderr, "tracecert certify: out of memory\n");
	else if (check_tags(o, tags, npaths) != 0)
		;   /* said */
	else if (n == 0)
		fprintf(stderr, "tracecert certify: nothing to run: no vector of the %zu read %s\n", npaths,
			o->ntags ? "carries one of the --tags at the levels asked" : "has a section of the levels asked");
	else if (tc_certfiles_prepare(cf, o->report) == 0) {   /* an unwritable report folder: before any run */
		run_env(o, paths, npaths, &env, &h, real, sizeof real);
		prctl(PR_SET_DUMPABLE, 0);   /* no process of the user reads the expected sections out of this one */
		int probed = tc_adapter_probe(&env, &o->lim, ad, err, sizeof err);
		if (probed == 1) {
			refused(o, cf, &h, err);
		} else if (probed != 0) {
			fprintf(stderr, "tracecert certify: %s\n", err);
			tc_certfiles_restore(cf);
		} else if (check_supported(o, ad, vecs, tasks, n, paths) != 0) {
			tc_certfiles_abandon(cf, 1);
		} else {
			r->adapter = ad->name;
			r->version = ad->version;
			describe_run(o, paths, npaths, r);
			n = keep_shard(o, tasks, n);
			run_all(ad, &env, vecs, n, tasks, o);
			r->tasks = tasks;
			r->ntasks = n;
			r->paths = paths;
			r->tags = tags;
			rc = report(o, cf, r, &h, ad, t0);
		}
	}
	for (size_t i = 0; vecs && i < npaths; i++)
		if (vecs[i].ok)
			tc_vector_free(&vecs[i].v);
	free(vecs);
	free(vp);
	r->vectors = NULL;
	free_list(h.dir, h.n);
	free(h.report);
	free(tasks);
	free_list(tags, npaths);
	return rc;
}

/* The vector files of every o->vectors, each file once. 0, or -1 (message
 * printed): a path that cannot be read or holds no vector, a symbolic link
 * loop, a file reached twice. */
static int list_vectors(const struct tc_certify_options *o, char ***paths, size_t *npaths)
{
	char err[1200];
	for (size_t i = 0; i < o->nvectors; i++) {
		if (tc_vector_list(o->vectors[i], paths, npaths, err, sizeof err) == 0) {
			fprintf(stderr, "tracecert certify: --vectors %s: %s\n", o->vectors[i], err);
			return -1;
		}
	}
	return 0;
}

void tc_certify_options_default(struct tc_certify_options *o)
{
	memset(o, 0, sizeof *o);
	o->levels = 5;
	o->jobs = 2;
	o->lim.timeout_s = 10;
	o->lim.mem_mb = 1024;
	o->lim.out_mb = 64;
	o->lim.procs = 256;
	o->lim.items = 1ul << 21;
}

int tc_certify(const struct tc_certify_options *o)
{
	struct tc_report r;
	struct tc_certfiles cf;
	struct tc_adapter_info *ad = calloc(1, sizeof *ad);
	char **paths = NULL, *notes = NULL;
	size_t npaths = 0;
	int rc = 2;
	memset(&r, 0, sizeof r);
	memset(&cf, 0, sizeof cf);   /* no report folder until the plan is made (certify()) */
	tc_interrupt_catch();
	if (!ad)
		fprintf(stderr, "tracecert certify: out of memory\n");
	else if (list_vectors(o, &paths, &npaths) == 0 &&
		 (!o->notes || read_notes(o->notes, &notes, &r.notes_len) == 0)) {
		r.notes_path = o->notes;
		r.notes = notes;
		rc = certify(o, &cf, ad, paths, npaths, &r);
	}
	free(ad);
	free(notes);
	free((char *)r.tag_option);
	free_list(paths, npaths);
	return rc;
}
