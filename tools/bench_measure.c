/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_measure.c — what `tracecert bench` measures: a protocol's workload from its encoder, decoders run through their adapters in child processes (each loads the adapter: bench never does), run by run, and the pieces of a trace a crashing decoder survives. */
/* MAP_ANONYMOUS is a BSD/GNU flag: glibc declares it with _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench_measure.h"
#include "cyclecap.h"

#define TEXT_BUFFER 65536       /* the L3 text goes here, from the start again when full */

/* ---- The workload ----------------------------------------------------------- */

/* Keys "NAME=VALUE NAME=VALUE" (an encoder's bench_config, or bench's own) into b. */
static int set_keys(struct tc_config_builder *b, const struct tc_encoder *enc, const char *keys, char *err,
		    size_t errlen)
{
	char name[64], value[64];
	for (const char *s = keys; *s;) {
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
		if (tc_config_builder_set(b, name, value, err, errlen))
			return -1;
		s += n;
	}
	return 0;
}

/* The encoder's bench_config, then the keys of more ("" for none; they win), over the
 * protocol's defaults into cfg. */
static int bench_config(const struct tc_encoder *enc, const struct tc_protocol *p, const char *more, void *cfg,
			char *err, size_t errlen)
{
	struct tc_config_builder b;
	tc_config_builder_init(&b, p);
	if (set_keys(&b, enc, enc->bench_config ? enc->bench_config : "", err, errlen) ||
	    set_keys(&b, enc, more, err, errlen))
		return -1;
	tc_config_default(p, cfg);
	return tc_config_builder_apply(&b, cfg, NULL, err, errlen);
}

int tc_bench_workload_make(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned long mb, char *err,
			   size_t errlen)
{
	return tc_bench_workload_make_steps(w, enc, TC_BENCH_STEPS, mb, err, errlen);
}

/* The workload of enc at steps with the keys of more over its bench configuration. */
static int workload_make(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned steps, const char *more,
			 unsigned long mb, char *err, size_t errlen)
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
	rq.steps = steps;
	rq.blocks = TC_BENCH_BLOCKS;
	rc = bench_config(enc, w->proto, more, cfg, err, errlen);
	if (rc == 0)
		rc = enc->generate(&rq, &w->v, err, errlen);
	free(cfg);
	if (rc)
		return -1;
	w->trace = w->v.trace;
	w->trace_len = w->v.trace_len;
	w->total = (size_t)mb << 20;
	w->whole_files = w->proto->cycle_port_width_key != NULL;
	return 0;
}

int tc_bench_workload_make_steps(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned steps,
				 unsigned long mb, char *err, size_t errlen)
{
	return workload_make(w, enc, steps, "", mb, err, errlen);
}

int tc_bench_workload_make_port(struct tc_bench_workload *w, const struct tc_encoder *enc, unsigned port_width,
				unsigned long mb, char *err, size_t errlen)
{
	const struct tc_protocol *p = tc_protocol_find(enc->protocol);
	char keys[96];
	long long records;
	size_t files;
	if (!p || !p->cycle_port_width_key) {
		snprintf(err, errlen, "%s is not a per-cycle sample protocol", enc->protocol);
		return -1;
	}
	snprintf(keys, sizeof keys, "%s=%u", p->cycle_port_width_key, port_width);
	if (workload_make(w, enc, TC_BENCH_STEPS, keys, mb, err, errlen))
		return -1;
	records = tc_cyclecap_record_count(w->trace, w->trace_len);
	if (records <= 0) {
		snprintf(err, errlen, "encoder %s: its %zu-byte trace is not a sample file with records", enc->protocol,
			 w->trace_len);
		tc_bench_workload_free(w);
		return -1;
	}
	files = (w->total + w->trace_len - 1) / w->trace_len;
	w->port_width = port_width;
	w->total = files * w->trace_len;
	w->cycles = (uint64_t)records * files;
	return 0;
}

void tc_bench_workload_free(struct tc_bench_workload *w)
{
	tc_enc_result_free(&w->v);
}

/* One line of the L3 truth (at most 511 bytes of it) into t. */
static void truth_line(const char *line, size_t n, const struct tc_protocol *p, struct tc_bench_truth *t)
{
	char buf[512];
	struct tc_l3 x;
	if (n == 0)
		return;
	snprintf(buf, sizeof buf, "%.*s", (int)n, line);
	if (n >= sizeof buf || tc_l3_parse(buf, &x, p->error_names, p->nerrors) != 0) {
		t->unparsed++;
		return;
	}
	if (x.h.kind != tc_l3_range)
		return;
	t->insns += x.count;
	t->branches += x.last_type == tc_insn_branch_dir || x.last_type == tc_insn_branch_indir;
	if (x.isa < tc_isa_count)
		t->isas |= 1u << x.isa;
}

void tc_bench_truth_count(const struct tc_bench_workload *w, struct tc_bench_truth *t)
{
	memset(t, 0, sizeof *t);
	for (const char *s = w->v.l3 ? w->v.l3 : ""; *s;) {
		size_t n = strcspn(s, "\n");
		truth_line(s, n, w->proto, t);
		s += n + (s[n] == '\n');
	}
}

/* The deadline of a child that feeds w: --timeout, or 60 s and 4 s per MiB. */
static unsigned deadline_of(const struct tc_bench_workload *w)
{
	return w->timeout_s ? w->timeout_s : 60 + 4 * (unsigned)(w->total >> 20);
}

/* ---- The adapters' declarations ------------------------------------------------ */

int tc_bench_supports(const struct tc_bench_adapter *a, const struct tc_protocol *p, unsigned level)
{
	for (int i = 0; a && i < a->nprotocols; i++)
		if (a->protocol[i] == p->id)
			return (a->levels[i] & level) == level;
	return 0;
}

/* In the child: the loaded adapter's table, a 'P' frame per protocol, then 'D'. */
static void declare_job(const struct tc_adapter *ad, void *arg, int fd)
{
	char buf[64];
	(void)arg;
	for (size_t i = 0; i < ad->nprotocols && i < TC_BENCH_PROTOCOLS_MAX; i++) {
		snprintf(buf, sizeof buf, "%d %u", ad->protocols[i].protocol, ad->protocols[i].levels);
		tc_frame_puts(fd, 'P', buf);
	}
	tc_frame_puts(fd, 'D', "");
}

/* A decimal number of at most 9 digits at *s, then *s past it; -1 when none. */
static long small_number(const char **s)
{
	long v = 0;
	int n = 0;
	for (; **s >= '0' && **s <= '9' && n < 9; (*s)++, n++)
		v = v * 10 + (**s - '0');
	return n ? v : -1;
}

/* In bench: 'P' "ID LEVELS" (a protocol once, levels L1 and/or L3), 'D' last. */
static int take_declaration(void *ctx, const struct tc_frame *f, char *why, size_t n)
{
	struct tc_bench_adapter *a = ctx;
	char buf[32];
	const char *s = buf;
	long id, levels;
	if (f->type == 'D' && f->len == 0)
		return a->nprotocols > 0 ? 1 : (snprintf(why, n, "no protocol declared"), -1);
	tc_text_clean(buf, sizeof buf, f->payload, f->len);
	id = f->type == 'P' && f->len < sizeof buf ? small_number(&s) : -1;
	levels = id >= 0 && *s++ == ' ' ? small_number(&s) : -1;
	if (levels <= 0 || *s || (levels & ~(long)(tc_level_l1 | tc_level_l3)) ||
	    a->nprotocols == TC_BENCH_PROTOCOLS_MAX) {
		snprintf(why, n, "a frame that is not a protocol's declaration ('%c' '%s')", f->type, buf);
		return -1;
	}
	for (int i = 0; i < a->nprotocols; i++)
		if (a->protocol[i] == id) {
			snprintf(why, n, "protocol %ld declared twice", id);
			return -1;
		}
	a->protocol[a->nprotocols] = (int)id;
	a->levels[a->nprotocols++] = (unsigned)levels;
	return 0;
}

int tc_bench_adapter_probe(struct tc_bench_adapter *a, unsigned timeout_s)
{
	a->nprotocols = 0;
	tc_bench_child_run(a->path, declare_job, NULL, timeout_s, take_declaration, a, &a->load, NULL);
	return a->load.status == tc_bench_ok ? 0 : -1;
}

/* ---- One run (in the child) -------------------------------------------------------- */

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

/* Opens an adapter on the workload's configuration and image at one level;
 * NULL with its reason in err (errlen bytes, NUL-terminated here whatever
 * the adapter wrote). */
static void *open_adapter(const struct tc_adapter *ad, const struct tc_bench_workload *w, unsigned level,
			  struct counter *k, char *err, size_t errlen)
{
	struct tc_adapter_open_args a;
	struct tc_adapter_region r[TC_ENC_MAX_REGIONS];
	void *h;
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
	memset(err, 0, errlen);
	h = ad->open(&a, err, errlen - 1);
	err[errlen - 1] = '\0';
	if (!h && !err[0])
		snprintf(err, errlen, "its open() returned NULL");
	return h;
}

/* A workload of whole files: the decoder of the file fed so far finished
 * and closed, and a new one opened for the next (NULL with err when it
 * does not open). */
static void *reopen(const struct tc_adapter *ad, void *h, const struct tc_bench_workload *w, unsigned level,
		    struct counter *k, char *err, size_t errlen)
{
	ad->finish(h);
	ad->close(h);
	return open_adapter(ad, w, level, k, err, errlen);
}

/* What one run measured. */
struct run_result {
	double seconds;
	uint64_t insns;
};

/* Feeds the workload's trace `total` bytes' worth through the adapter at
 * one level, in TC_BENCH_CHUNK-sized pieces, timing open to close (the
 * adapter was loaded before). Returns 0, or -1 with err when it did not
 * open. */
static int run_side(const struct tc_adapter *ad, int text, const struct tc_bench_workload *w, unsigned level,
		    struct run_result *out, char *err, size_t errlen)
{
	struct counter *k = calloc(1, sizeof *k);
	void *h;
	size_t fed = 0;
	double t0 = now_s();
	if (!k)
		return snprintf(err, errlen, "out of memory"), -1;
	k->proto = w->proto;
	k->text = text;
	h = open_adapter(ad, w, level, k, err, errlen);
	if (!h) {
		free(k);
		return -1;
	}
	while (h && fed < w->total) {
		size_t at = fed % w->trace_len, n = w->trace_len - at;
		if (n > TC_BENCH_CHUNK)
			n = TC_BENCH_CHUNK;
		if (n > w->total - fed)
			n = w->total - fed;
		if (at == 0 && fed > 0 && w->whole_files)
			h = reopen(ad, h, w, level, k, err, errlen);
		if (h)
			ad->feed(h, w->trace + at, n);
		fed += n;
	}
	if (!h) {
		free(k);
		return -1;
	}
	ad->finish(h);
	ad->close(h);
	out->seconds = now_s() - t0;
	out->insns = k->insns;
	free(k);
	return 0;
}

/* A run: the side's text setting, the workload and the level. */
struct run_job {
	int text;
	const struct tc_bench_workload *w;
	unsigned level;
};

/* In the child: the run, then 'R' "SECONDS INSTRUCTIONS", or 'F' and why
 * the adapter did not open. */
static void run_job(const struct tc_adapter *ad, void *arg, int fd)
{
	const struct run_job *j = arg;
	struct run_result r = { 0, 0 };
	char err[256], buf[96];
	if (run_side(ad, j->text, j->w, j->level, &r, err, sizeof err)) {
		tc_frame_write(fd, 'F', err, strlen(err));
		return;
	}
	snprintf(buf, sizeof buf, "%.9e %llu", r.seconds, (unsigned long long)r.insns);
	tc_frame_puts(fd, 'R', buf);
}

/* ---- One run (in bench) ------------------------------------------------------------- */

/* In bench: 'R' "SECONDS INSTRUCTIONS", seconds a finite number above 0. */
static int take_result(void *ctx, const struct tc_frame *f, char *why, size_t n)
{
	struct run_result *r = ctx;
	char buf[96], *end = NULL;
	unsigned long long insns = 0;
	double seconds = -1;
	int ok = f->type == 'R' && f->len < sizeof buf;
	tc_text_clean(buf, sizeof buf, f->payload, f->len);
	if (ok) {
		errno = 0;
		seconds = strtod(buf, &end);
		ok = end != buf && *end == ' ' && isfinite(seconds) && seconds > 0;
	}
	if (ok) {
		const char *digits = end + 1;
		insns = strtoull(digits, &end, 10);
		ok = *digits >= '0' && *digits <= '9' && *end == '\0' && errno == 0;
	}
	if (!ok) {
		snprintf(why, n, "a frame that is not a run's figures ('%c' '%s')", f->type, buf);
		return -1;
	}
	r->seconds = seconds;
	r->insns = insns;
	return 1;
}

/* The figure of one run. */
static double figure(const struct run_result *r, const struct tc_bench_workload *w, enum tc_bench_unit unit)
{
	if (unit == tc_bench_mips)
		return r->insns / r->seconds / 1e6;
	if (unit == tc_bench_mcps)
		return w->cycles / r->seconds / 1e6;
	return w->total / r->seconds / 1e6;
}

/* One run in a child that loads the side's adapter; o says how it went,
 * *value is the figure when it is ok. ru (or NULL): the child's usage. */
static void one_run(const struct tc_bench_side *s, const struct tc_bench_workload *w, unsigned level,
		    enum tc_bench_unit unit, double *value, struct tc_bench_outcome *o, struct rusage *ru)
{
	struct run_result r = { 0, 0 };
	struct run_job j = { s->text, w, level };
	tc_bench_child_run(s->ad->path, run_job, &j, deadline_of(w), take_result, &r, o, ru);
	if (o->status == tc_bench_ok)
		*value = figure(&r, w, unit);
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

/* A side's outcome before any run: installed, loaded, listing the protocol? */
static void side_status(const struct tc_bench_side *s, const struct tc_bench_workload *w, unsigned level,
			struct tc_bench_outcome *o)
{
	memset(o, 0, sizeof *o);
	if (!s || !s->ad || !s->ad->path)
		o->status = tc_bench_not_installed;
	else if (s->ad->load.status != tc_bench_ok)
		*o = s->ad->load;
	else if (!tc_bench_supports(s->ad, w->proto, level))
		o->status = tc_bench_not_supported;
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
	side_status(a, w, level, &p->oa);
	side_status(b, w, level, &p->ob);
	for (int i = 0; i < runs && (p->oa.status == tc_bench_ok || p->ob.status == tc_bench_ok); i++) {
		double x = 0, y = 0;
		int a_ran = p->oa.status == tc_bench_ok, b_ran = p->ob.status == tc_bench_ok;
		if (a_ran) {
			one_run(a, w, level, unit, &x, &p->oa, NULL);
			if (p->oa.status == tc_bench_ok)
				ra[na++] = x;
		}
		if (b_ran) {
			one_run(b, w, level, unit, &y, &p->ob, NULL);
			if (p->ob.status == tc_bench_ok)
				rb[nb++] = y;
		}
		if (a_ran && b_ran && p->oa.status == tc_bench_ok && p->ob.status == tc_bench_ok && y > 0)
			q[nq++] = x / y;
	}
	spread(ra, na, p->a);
	spread(rb, nb, p->b);
	spread(q, nq, p->ratio);
}

/* ---- Memory ------------------------------------------------------------------- */

long tc_bench_peak_rss(const struct tc_bench_adapter *ad, const struct tc_bench_workload *w, unsigned long mb,
		       struct tc_bench_outcome *o)
{
	struct tc_bench_side s = { ad, 0 };
	struct tc_bench_workload big = *w;
	struct rusage ru;
	double value = 0;
	big.total = (size_t)mb << 20;
	side_status(&s, &big, tc_level_l3, o);
	if (o->status != tc_bench_ok)
		return -1;
	one_run(&s, &big, tc_level_l3, tc_bench_mbs, &value, o, &ru);
	return o->status == tc_bench_ok ? ru.ru_maxrss : -1;
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
 * storing each piece's index in *at before feeding it. */
static void feed_pieces(const struct tc_adapter *ad, void *h, const struct tc_bench_workload *w,
			const struct pieces *pc, volatile long *at)
{
	size_t fed = 0;
	while (fed < w->total) {
		size_t before = fed;
		for (long k = 0; k < (long)pc->n && fed < w->total; k++) {
			if (pc->dropped[k])
				continue;
			*at = k;
			ad->feed(h, w->v.trace + pc->start[k], pc->start[k + 1] - pc->start[k]);
			fed += pc->start[k + 1] - pc->start[k];
		}
		if (fed == before)
			break;
	}
}

/* The search's run: the workload, the pieces, and a page shared with bench
 * where the child keeps the index of the piece it feeds. */
struct piece_job {
	const struct tc_bench_workload *w;
	const struct pieces *pc;
	volatile long *at;
};

/* In the child: the kept pieces at L3, then 'R' "done" (or 'F'). */
static void piece_job(const struct tc_adapter *ad, void *arg, int fd)
{
	const struct piece_job *j = arg;
	struct counter *c = calloc(1, sizeof *c);
	char err[256];
	void *h = c ? open_adapter(ad, j->w, tc_level_l3, c, err, sizeof err) : NULL;
	if (!h) {
		tc_frame_write(fd, 'F', err, c ? strlen(err) : 0);
		return;
	}
	feed_pieces(ad, h, j->w, j->pc, j->at);
	ad->finish(h);
	ad->close(h);
	tc_frame_puts(fd, 'R', "done");
}

static int take_done(void *ctx, const struct tc_frame *f, char *why, size_t n)
{
	(void)ctx;
	if (f->type == 'R' && f->len == 4 && !memcmp(f->payload, "done", 4))
		return 1;
	snprintf(why, n, "a frame that is not the end of the crash search's run ('%c')", f->type);
	return -1;
}

/* Runs the kept pieces through an adapter at L3 in a child (piece_job);
 * returns the index of the piece the child died in by a signal, or -1 when
 * it did not crash (or left an index that is no kept piece). */
static long first_crashing_piece(const struct tc_bench_adapter *ad, const struct tc_bench_workload *w,
				 const struct pieces *pc)
{
	struct tc_bench_outcome o;
	struct piece_job j = { w, pc, NULL };
	long k;
	void *page = mmap(NULL, sizeof(long), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return -1;
	j.at = page;
	*j.at = -1;
	tc_bench_child_run(ad->path, piece_job, &j, deadline_of(w), take_done, NULL, &o, NULL);
	k = *j.at;   /* written by the child: checked against the pieces, nothing else trusted */
	munmap(page, sizeof(long));
	if (o.status != tc_bench_crashed || o.loading)
		return -1;
	for (long i = 0; k == -1 && i < (long)pc->n; i++)   /* before the first piece: the first kept one */
		k = pc->dropped[i] ? -1 : i;
	return k >= 0 && k < (long)pc->n && !pc->dropped[k] ? k : -1;
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

long tc_bench_drop_crashing(const struct tc_bench_adapter *ad, const struct tc_bench_workload *w,
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
