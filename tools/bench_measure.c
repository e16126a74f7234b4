/* bench_measure.c — what `tracecert bench` measures: a protocol's workload from its encoder, decoders run through their adapters in child processes, run by run, and the pieces of a trace a crashing decoder survives. */
/* wait4 (a child's own resource usage) is a BSD/GNU call: glibc declares
 * it with _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_measure.h"

#define TEXT_BUFFER 65536       /* the L3 text goes here, from the start again when full */

/* ---- The workload ----------------------------------------------------------- */

/* The encoder's bench_config ("NAME=VALUE ...") over the protocol's defaults into cfg. */
static int bench_config(const struct tc_encoder *enc, const struct tc_protocol *p, void *cfg, char *err,
			size_t errlen)
{
	struct tc_config_builder b;
	char name[64], value[64];
	tc_config_builder_init(&b, p);
	for (const char *s = enc->bench_config ? enc->bench_config : ""; *s;) {
		size_t n = strcspn(s, " "), eq = strcspn(s, "=");
		if (n == 0) {
			s++;
			continue;
		}
		if (eq >= n || eq >= sizeof name || n - eq - 1 >= sizeof value) {
			snprintf(err, errlen, "encoder %s: bench_config '%.*s' is not NAME=VALUE", enc->protocol, (int)n, s);
			return -1;
		}
		snprintf(name, sizeof name, "%.*s", (int)eq, s);
		snprintf(value, sizeof value, "%.*s", (int)(n - eq - 1), s + eq + 1);
		if (tc_config_builder_set(&b, name, value, err, errlen))
			return -1;
		s += n;
	}
	p->config_default(cfg);
	return tc_config_builder_apply(&b, cfg, NULL, err, errlen);
}

int tc_bench_workload_make(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned long mb, char *err,
			   size_t errlen)
{
	struct tc_enc_request rq;
	void *cfg;
	int rc;
	memset(w, 0, sizeof *w);
	w->enc = enc;
	w->proto = tc_protocol_find(enc->protocol);
	if (!w->proto) {
		snprintf(err, errlen, "encoder %s: no such protocol in this build", enc->protocol);
		return -1;
	}
	cfg = calloc(1, w->proto->config_size);
	if (!cfg) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(&rq, 0, sizeof rq);
	rq.seed = TC_BENCH_SEED;
	rq.cfg = cfg;
	rq.steps = TC_BENCH_STEPS;
	rq.blocks = TC_BENCH_BLOCKS;
	rc = bench_config(enc, w->proto, cfg, err, errlen);
	if (rc == 0)
		rc = enc->generate(&rq, &w->v, err, errlen);
	free(cfg);
	if (rc)
		return -1;
	w->trace = w->v.trace;
	w->trace_len = w->v.trace_len;
	w->total = (size_t)mb << 20;
	return 0;
}

void tc_bench_workload_free(struct tc_bench_workload *w)
{
	tc_enc_result_free(&w->v);
}

int tc_bench_supports(const struct tc_adapter *ad, const struct tc_protocol *p, unsigned level)
{
	for (size_t i = 0; ad && i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == p->id)
			return (ad->protocols[i].levels & level) == level;
	return 0;
}

/* ---- One run ------------------------------------------------------------------ */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Where a run's items go: counted, and with text set the L3 items written
 * into the buffer. */
struct counter {
	const struct tc_protocol *proto;
	int text;
	uint64_t items;
	uint64_t insns;             /* instructions of the L3 ranges */
	char buf[TEXT_BUFFER];
	size_t used;
};

static void write_text(struct counter *k, const struct tc_l3 *x)
{
	size_t room = sizeof k->buf - k->used;
	int n = tc_l3_format(k->buf + k->used, room, x, k->proto->error_names, k->proto->nerrors);
	if (n >= 0 && (size_t)n >= room) {     /* full: from the start again, as a FILE's buffer is written out */
		k->used = 0;
		n = tc_l3_format(k->buf, sizeof k->buf, x, k->proto->error_names, k->proto->nerrors);
	}
	if (n > 0 && (size_t)n < sizeof k->buf - k->used)
		k->used += (size_t)n;
}

static void count_item(void *ctx, int level, const struct tc_item *item)
{
	struct counter *k = ctx;
	k->items++;
	if (level != tc_level_l3 || item->size < sizeof(struct tc_l3))
		return;
	if (item->kind == tc_l3_range)
		k->insns += ((const struct tc_l3 *)item)->count;
	if (k->text)
		write_text(k, (const struct tc_l3 *)item);
}

/* Opens an adapter on the workload's configuration and image at one level. */
static void *open_adapter(const struct tc_adapter *ad, const struct tc_bench_workload *w, unsigned level,
			  struct counter *k)
{
	struct tc_adapter_open_args a;
	struct tc_adapter_region r[TC_ENC_MAX_REGIONS];
	char err[256];
	memset(&a, 0, sizeof a);
	a.abi_version = TC_ADAPTER_ABI_VERSION;
	a.protocol = w->proto->id;
	a.config = w->v.cfg;
	a.config_size = w->proto->config_size;
	for (int i = 0; i < w->v.nregions; i++)
		r[i] = (struct tc_adapter_region){ w->v.region[i].base, w->v.region[i].len, w->v.region[i].bytes };
	a.regions = r;
	a.nregions = (size_t)w->v.nregions;
	a.levels = level;
	a.ctx = k;
	a.item = count_item;
	return ad->open(&a, err, sizeof err);
}

/* What one run measured. */
struct run_result {
	double seconds;
	uint64_t insns;
};

/* Feeds the workload's trace `total` bytes' worth through one side at one
 * level, in TC_BENCH_CHUNK-sized pieces. Returns 0, or -1 when the adapter
 * did not open. */
static int run_side(const struct tc_bench_side *s, const struct tc_bench_workload *w, unsigned level,
		    struct run_result *out)
{
	struct counter *k = calloc(1, sizeof *k);
	void *h;
	size_t fed = 0;
	double t0 = now_s();
	if (!k)
		return -1;
	k->proto = w->proto;
	k->text = s->text;
	h = open_adapter(s->ad, w, level, k);
	if (!h) {
		free(k);
		return -1;
	}
	while (fed < w->total) {
		size_t at = fed % w->trace_len, n = w->trace_len - at;
		if (n > TC_BENCH_CHUNK)
			n = TC_BENCH_CHUNK;
		if (n > w->total - fed)
			n = w->total - fed;
		s->ad->feed(h, w->trace + at, n);
		fed += n;
	}
	s->ad->finish(h);
	s->ad->close(h);
	out->seconds = now_s() - t0;
	out->insns = k->insns;
	free(k);
	return 0;
}

/* The figure of one run. */
static double figure(const struct run_result *r, const struct tc_bench_workload *w, enum tc_bench_unit unit)
{
	if (unit == tc_bench_mips)
		return r->insns / r->seconds / 1e6;
	return w->total / r->seconds / 1e6;
}

/* One run in a child process. Returns tc_bench_ok, tc_bench_failed, or the
 * signal number that killed the child. */
static int one_run(const struct tc_bench_side *s, const struct tc_bench_workload *w, unsigned level,
		   enum tc_bench_unit unit, double *value)
{
	struct run_result r = { 0, 0 };
	int fds[2], status = 0;
	pid_t pid;
	if (pipe(fds) != 0)
		return tc_bench_failed;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		if (run_side(s, w, level, &r) || r.seconds <= 0)
			_exit(1);
		_exit(write(fds[1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &r, sizeof r) != (ssize_t)sizeof r) {
		close(fds[0]);
		if (pid > 0)
			waitpid(pid, &status, 0);
		return pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : tc_bench_failed;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	*value = figure(&r, w, unit);
	return tc_bench_ok;
}

/* ---- Paired runs ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median, min and max of n values (sorted in place) into m[3]. */
static void spread(double *v, int n, double *m)
{
	if (n == 0)
		return;
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	m[0] = v[n / 2];
	m[1] = v[0];
	m[2] = v[n - 1];
}

/* A side's status before any run: installed and listing the protocol? */
static int side_status(const struct tc_bench_side *s, const struct tc_bench_workload *w, unsigned level)
{
	if (!s || !s->ad)
		return tc_bench_not_installed;
	return tc_bench_supports(s->ad, w->proto, level) ? tc_bench_ok : tc_bench_not_supported;
}

void tc_bench_measure_pair(const struct tc_bench_side *a, const struct tc_bench_side *b,
			   const struct tc_bench_workload *w, unsigned level, enum tc_bench_unit unit, int runs,
			   struct tc_bench_pair *p)
{
	double ra[TC_BENCH_MAX_RUNS], rb[TC_BENCH_MAX_RUNS], q[TC_BENCH_MAX_RUNS];
	int na = 0, nb = 0, nq = 0;
	if (runs > TC_BENCH_MAX_RUNS)
		runs = TC_BENCH_MAX_RUNS;
	memset(p, 0, sizeof *p);
	p->rc_a = side_status(a, w, level);
	p->rc_b = side_status(b, w, level);
	for (int i = 0; i < runs && (p->rc_a == tc_bench_ok || p->rc_b == tc_bench_ok); i++) {
		double x = 0, y = 0;
		int sa = tc_bench_failed, sb = tc_bench_failed;
		if (p->rc_a == tc_bench_ok) {
			sa = one_run(a, w, level, unit, &x);
			if (sa == tc_bench_ok)
				ra[na++] = x;
			else
				p->rc_a = sa;
		}
		if (p->rc_b == tc_bench_ok) {
			sb = one_run(b, w, level, unit, &y);
			if (sb == tc_bench_ok)
				rb[nb++] = y;
			else
				p->rc_b = sb;
		}
		if (sa == tc_bench_ok && sb == tc_bench_ok && y > 0)
			q[nq++] = x / y;
	}
	spread(ra, na, p->a);
	spread(rb, nb, p->b);
	spread(q, nq, p->ratio);
}

/* ---- Memory ------------------------------------------------------------------- */

long tc_bench_peak_rss(const struct tc_adapter *ad, const struct tc_bench_workload *w, unsigned long mb)
{
	struct tc_bench_side s = { ad, 0 };
	struct run_result r;
	struct rusage ru;
	int status;
	pid_t pid;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct tc_bench_workload big = *w;
		big.total = (size_t)mb << 20;
		_exit(run_side(&s, &big, tc_level_l3, &r) != 0);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	return ru.ru_maxrss;
}

/* ---- A workload a crashing decoder survives ----------------------------------- */

/* The trace cut at the encoder's sync points: each piece decodes on its own,
 * so pieces can be dropped and the rest still decodes. */
struct pieces {
	size_t *start;              /* n + 1 offsets; start[n] = trace length */
	size_t n;
	unsigned char *dropped;
};

static int cut_at_sync_points(const struct tc_bench_workload *w, struct pieces *pc)
{
	size_t max = w->v.trace_len + 1;
	pc->start = malloc((max + 1) * sizeof *pc->start);
	pc->dropped = calloc(max + 1, 1);
	if (!pc->start || !pc->dropped)
		return -1;
	pc->n = w->enc->sync_points(w->v.trace, w->v.trace_len, pc->start, max);
	if (pc->n == 0 || pc->n > max || pc->start[0] != 0)
		return -1;
	pc->start[pc->n] = w->v.trace_len;
	return 0;
}

static void pieces_free(struct pieces *pc)
{
	free(pc->start);
	free(pc->dropped);
}

/* Feeds the kept pieces, in order, again and again until the workload's
 * total went in (a crash may need the decoder's state from earlier passes),
 * writing each piece's index to fd before it. 0, or -1 when fd is closed. */
static int feed_pieces(const struct tc_adapter *ad, void *h, const struct tc_bench_workload *w,
		       const struct pieces *pc, int fd)
{
	size_t fed = 0;
	while (fed < w->total) {
		size_t before = fed;
		for (long k = 0; k < (long)pc->n && fed < w->total; k++) {
			if (pc->dropped[k])
				continue;
			if (write(fd, &k, sizeof k) != sizeof k)
				return -1;
			ad->feed(h, w->v.trace + pc->start[k], pc->start[k + 1] - pc->start[k]);
			fed += pc->start[k + 1] - pc->start[k];
		}
		if (fed == before)
			break;
	}
	return 0;
}

/* Runs the kept pieces through an adapter at L3 in a child (feed_pieces);
 * returns the index of the piece the child died in, or -1 when it
 * finished. */
static long first_crashing_piece(const struct tc_adapter *ad, const struct tc_bench_workload *w,
				 const struct pieces *pc)
{
	int fds[2], status = 0;
	long k, last = -1;
	pid_t pid;
	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct counter *c = calloc(1, sizeof *c);
		void *h = c ? open_adapter(ad, w, tc_level_l3, c) : NULL;
		close(fds[0]);
		if (!h)
			_exit(1);
		if (feed_pieces(ad, h, w, pc, fds[1]))
			_exit(1);
		ad->finish(h);
		ad->close(h);
		_exit(0);
	}
	close(fds[1]);
	while (pid > 0 && read(fds[0], &k, sizeof k) == sizeof k)
		last = k;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFSIGNALED(status))
		return -1;
	return last < 0 ? 0 : last;
}

/* The kept pieces, in order, into buf. */
static size_t join_kept(const struct tc_bench_workload *w, const struct pieces *pc, uint8_t *buf)
{
	size_t len = 0;
	for (size_t i = 0; i < pc->n; i++)
		if (!pc->dropped[i]) {
			memcpy(buf + len, w->v.trace + pc->start[i], pc->start[i + 1] - pc->start[i]);
			len += pc->start[i + 1] - pc->start[i];
		}
	return len;
}

long tc_bench_drop_crashing(const struct tc_adapter *ad, const struct tc_bench_workload *w,
			    struct tc_bench_workload *cut, uint8_t **buf, size_t *npieces)
{
	struct pieces pc = { NULL, 0, NULL };
	long dropped = 0, k;
	*buf = NULL;
	*cut = *w;
	if (!w->enc->sync_points)
		return -2;
	if (cut_at_sync_points(w, &pc)) {
		pieces_free(&pc);
		return -1;
	}
	*npieces = pc.n;
	while ((k = first_crashing_piece(ad, w, &pc)) >= 0 && dropped < 64) {
		pc.dropped[k] = 1;
		dropped++;
	}
	if (k >= 0 || !(*buf = malloc(w->v.trace_len))) {
		pieces_free(&pc);
		return -1;
	}
	cut->trace = *buf;
	cut->trace_len = join_kept(w, &pc, *buf);
	pieces_free(&pc);
	return cut->trace_len > 0 ? dropped : -1;
}
