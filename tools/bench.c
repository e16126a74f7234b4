/* bench.c — `tracecert bench`: throughput and memory figures, reference vs OpenCSD in the same run.
 * Prints figures; never fails because a machine is slow. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "certify.h"
#include "tracecert/adapter.h"
#include "tracecert/encoder_ete.h"

#define CHUNK 65536
#define MAX_RUNS 16   /* --runs beyond this count as this many */

struct bench_opts {
	const char *reference;
	const char *opencsd;
	const char *tool;
	const char *fuzz_parse;
	const char *fuzz_parse_fast;
	unsigned long mb;
	unsigned long big_mb;
	int runs;
	const char *only;           /* comma-separated sections, NULL = all */
};

struct workload {
	struct tc_enc_vector v;     /* one long generated trace: configuration and image */
	const uint8_t *trace;       /* the bytes fed repeatedly: v.trace, or a part of it */
	size_t trace_len;
	size_t total;               /* bytes to feed */
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static uint64_t items;

static void count_item(void *ctx, int level, const struct tc_item *item)
{
	(void)ctx;
	(void)level;
	(void)item;
	items++;
}

/* Opens an adapter on the workload's configuration and image at one level. */
static void *open_adapter(const struct tc_adapter *ad, const struct workload *w, unsigned level)
{
	struct tc_adapter_open_args a;
	struct tc_adapter_region r[TC_ENC_MAX_REGIONS];
	char err[256];
	memset(&a, 0, sizeof a);
	a.abi_version = TC_ADAPTER_ABI_VERSION;
	a.protocol = tc_proto_ete;
	a.config = &w->v.cfg;
	a.config_size = sizeof w->v.cfg;
	for (int i = 0; i < w->v.nregions; i++)
		r[i] = (struct tc_adapter_region){ w->v.region[i].base, w->v.region[i].len, w->v.region[i].bytes };
	a.regions = r;
	a.nregions = (size_t)w->v.nregions;
	a.levels = level;
	a.item = count_item;
	return ad->open(&a, err, sizeof err);
}

/* Feeds the workload's trace `total` bytes' worth through an adapter at one
 * level, in CHUNK-sized pieces. Returns seconds, or a negative value. */
static double run_adapter(const struct tc_adapter *ad, const struct workload *w, unsigned level)
{
	void *h;
	size_t fed = 0;
	double t0 = now_s();
	h = open_adapter(ad, w, level);
	if (!h)
		return -1;
	while (fed < w->total) {
		size_t at = fed % w->trace_len, n = w->trace_len - at;
		if (n > CHUNK)
			n = CHUNK;
		if (n > w->total - fed)
			n = w->total - fed;
		ad->feed(h, w->trace + at, n);
		fed += n;
	}
	ad->finish(h);
	ad->close(h);
	return now_s() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* MB/s of one run, measured in a child process so that a decoder that
 * crashes is reported, not fatal. Returns 0, -1 when the adapter failed,
 * or the signal number that killed the child. */
static int one_run(const struct tc_adapter *ad, const struct workload *w, unsigned level, double *mbs)
{
	double t = 0;
	int fds[2], status = 0;
	pid_t pid;
	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		t = run_adapter(ad, w, level);
		if (t <= 0)
			_exit(1);
		t = w->total / t / 1e6;
		_exit(write(fds[1], &t, sizeof t) == (ssize_t)sizeof t ? 0 : 1);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &t, sizeof t) != (ssize_t)sizeof t) {
		close(fds[0]);
		if (pid > 0)
			waitpid(pid, &status, 0);
		return pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : -1;
	}
	close(fds[0]);
	waitpid(pid, &status, 0);
	*mbs = t;
	return 0;
}

/* Median, min and max of n values (sorted in place) into m[3]. */
static void spread(double *v, int n, double *m)
{
	qsort(v, (size_t)n, sizeof v[0], cmp_double);
	m[0] = v[n / 2];
	m[1] = v[0];
	m[2] = v[n - 1];
}

/* One row's measurements: each figure's median, min and max, and the
 * status of each side (one_run's; 1000: not installed). */
struct pair {
	double r[3], c[3], ratio[3];
	int rc_ref, rc_oc;
};

/* The reference and OpenCSD (oc may be NULL) alternately, run by run, so
 * that the machine's drift (this VM's speed wanders by a third within
 * minutes) falls on both alike; the ratio is the median of the runs'
 * ratios. OpenCSD is not run again once it has crashed or failed. */
static void measure_pair(const struct tc_adapter *ref, const struct tc_adapter *oc, const struct workload *w,
			 unsigned level, int runs, struct pair *p)
{
	double r[MAX_RUNS], c[MAX_RUNS], q[MAX_RUNS];
	int nr = 0, nc = 0, nq = 0;
	if (runs > MAX_RUNS)
		runs = MAX_RUNS;
	memset(p, 0, sizeof *p);
	p->rc_oc = oc ? 0 : 1000;
	for (int i = 0; i < runs; i++) {
		double a = 0, b = 0;
		int ra = one_run(ref, w, level, &a), rb = 1;
		if (ra == 0)
			r[nr++] = a;
		else
			p->rc_ref = ra;
		if (p->rc_oc == 0) {
			rb = one_run(oc, w, level, &b);
			if (rb == 0)
				c[nc++] = b;
			else
				p->rc_oc = rb;
		}
		if (ra == 0 && rb == 0 && b > 0)
			q[nq++] = a / b;
	}
	if (p->rc_ref == 0)
		spread(r, nr, p->r);
	if (p->rc_oc == 0)
		spread(c, nc, p->c);
	if (p->rc_ref == 0 && p->rc_oc == 0)
		spread(q, nq, p->ratio);
}

/* Peak resident memory (KiB) of a child decoding `mb` MiB at L3. */
static long peak_rss(const struct tc_adapter *ad, struct workload *w, unsigned long mb)
{
	struct rusage ru;
	int status;
	pid_t pid;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		w->total = (size_t)mb << 20;
		_exit(run_adapter(ad, w, tc_level_l3) < 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return -1;
	return ru.ru_maxrss;
}

/* ---- A workload a crashing decoder survives ---------------------------- */

/* The trace cut at every A-sync (eleven or more zeros, then 0x80): each
 * piece starts with an A-sync and a Trace Info, so pieces can be dropped
 * and the rest still decodes. */
struct segments {
	size_t *start;              /* n + 1 offsets; start[n] = trace length */
	size_t n;
	unsigned char *dropped;
};

static int cut_at_async(const uint8_t *t, size_t len, struct segments *sg)
{
	size_t zeros = 0;
	sg->n = 0;
	sg->start = malloc((len / 12 + 2) * sizeof *sg->start);
	sg->dropped = calloc(len / 12 + 2, 1);
	if (!sg->start || !sg->dropped)
		return -1;
	sg->start[sg->n++] = 0;
	for (size_t i = 0; i < len; i++) {
		if (t[i] == 0) {
			zeros++;
		} else {
			if (t[i] == 0x80 && zeros >= 11 && i - zeros > sg->start[sg->n - 1])
				sg->start[sg->n++] = i - zeros;
			zeros = 0;
		}
	}
	sg->start[sg->n] = len;
	return 0;
}

/* Runs the kept segments, in order, through an adapter at L3 in a child;
 * returns the index of the segment the child died in, or -1 when it
 * finished. Before each segment the child writes its index to a pipe. */
static long first_crashing_segment(const struct tc_adapter *ad, const struct workload *w, const struct segments *sg)
{
	int fds[2], status = 0;
	long k, last = -1;
	pid_t pid;
	if (pipe(fds) != 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		void *h = open_adapter(ad, w, tc_level_l3);
		close(fds[0]);
		if (!h)
			_exit(1);
		for (k = 0; k < (long)sg->n; k++) {
			if (sg->dropped[k])
				continue;
			if (write(fds[1], &k, sizeof k) != sizeof k)
				_exit(1);
			ad->feed(h, w->v.trace + sg->start[k], sg->start[k + 1] - sg->start[k]);
		}
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

/* The L3 workload for a decoder that crashes on the generated trace: the
 * trace without the A-sync segments it crashes in (found one at a time, at
 * most 64). Both decoders are then measured on these same bytes. Returns
 * how many segments were dropped, or -1 when that did not help. */
static long drop_crashing_segments(const struct tc_adapter *ad, struct workload *w, uint8_t **buf, size_t *nseg)
{
	struct segments sg;
	long dropped = 0, k;
	size_t len = 0;
	*buf = NULL;
	if (cut_at_async(w->v.trace, w->v.trace_len, &sg))
		return -1;
	*nseg = sg.n;
	while ((k = first_crashing_segment(ad, w, &sg)) >= 0 && dropped < 64) {
		sg.dropped[k] = 1;
		dropped++;
	}
	if (k >= 0 || !(*buf = malloc(w->v.trace_len))) {
		free(sg.start);
		free(sg.dropped);
		return -1;
	}
	for (size_t i = 0; i < sg.n; i++)
		if (!sg.dropped[i]) {
			memcpy(*buf + len, w->v.trace + sg.start[i], sg.start[i + 1] - sg.start[i]);
			len += sg.start[i + 1] - sg.start[i];
		}
	w->trace = *buf;
	w->trace_len = len;
	free(sg.start);
	free(sg.dropped);
	return dropped;
}

/* One table row. */
static void row(const char *what, const struct pair *p)
{
	char cell[64];
	if (p->rc_ref == 0)
		printf("%-34s %10.1f [%7.1f..%7.1f]", what, p->r[0], p->r[1], p->r[2]);
	else
		printf("%-34s %30s", what, "failed");
	if (p->rc_oc == 0 && p->rc_ref == 0)
		printf(" %10.1f [%7.1f..%7.1f] %6.2fx [%.2f..%.2f]\n", p->c[0], p->c[1], p->c[2], p->ratio[0],
		       p->ratio[1], p->ratio[2]);
	else if (p->rc_oc == 0)
		printf(" %10.1f [%7.1f..%7.1f]\n", p->c[0], p->c[1], p->c[2]);
	else {
		snprintf(cell, sizeof cell, p->rc_oc == 1000 ? "not installed" : p->rc_oc > 0 ? "crashed (signal %d)" : "failed",
			 p->rc_oc);
		printf(" %30s\n", cell);
	}
}

/* OpenCSD crashed on the L3 workload: measure both decoders again on the
 * trace without the A-sync segments it crashes in. */
static void l3_without_crashes(const struct tc_adapter *ref, const struct tc_adapter *oc, struct workload *w, int runs)
{
	struct workload cut = *w;
	struct pair p;
	uint8_t *buf;
	size_t nseg = 0;
	long dropped = drop_crashing_segments(oc, &cut, &buf, &nseg);
	char what[64];
	if (dropped < 0) {
		printf("%-34s %s\n", "L3 without crashing segments", "OpenCSD still crashes (more than 64 segments)");
		return;
	}
	measure_pair(ref, oc, &cut, tc_level_l3, runs, &p);
	snprintf(what, sizeof what, "L3, %ld of %zu segments dropped", dropped, nseg);
	row(what, &p);
	printf("%-34s (the trace without the A-sync segments OpenCSD crashes in: %zu bytes, both decoders)\n", "",
	       cut.trace_len);
	free(buf);
}

static void encoder_speed(void)
{
	struct tc_enc_options o;
	unsigned long long bytes = 0;
	int n = 2000;
	double t0 = now_s(), dt;
	tc_enc_options_default(&o);
	o.steps = 60;
	o.blocks = 32;
	for (int i = 0; i < n; i++) {
		struct tc_enc_vector v;
		char err[128];
		o.seed = (uint64_t)i + 1;
		if (tc_enc_generate(&o, &v, err, sizeof err) == 0) {
			bytes += v.trace_len;
			tc_enc_vector_free(&v);
		}
	}
	dt = now_s() - t0;
	printf("%-34s %10.0f vectors/s, %.2f MB/s of trace (%d vectors of 60 steps)\n", "encoder", n / dt,
	       bytes / dt / 1e6, n);
}

/* Times `tracecert certify` over all vectors for one adapter. */
static void runner_speed(const char *tool, const char *adapter, const char *name)
{
	char cmd[2048];
	double t0 = now_s(), dt;
	int rc;
	snprintf(cmd, sizeof cmd, "'%s' certify --adapter '%s' --jobs 2 >/dev/null 2>/tmp/tc-bench-certify.txt", tool, adapter);
	rc = system(cmd);
	dt = now_s() - t0;
	(void)rc;
	printf("%-34s %10.2f s wall for all vectors (2 jobs); ", name, dt);
	{
		FILE *f = fopen("/tmp/tc-bench-certify.txt", "r");
		char line[512];
		while (f && fgets(line, sizeof line, f))
			if (strstr(line, "runs/s"))
				printf("%s", strstr(line, "score") ? strstr(line, "score") : line);
		if (f)
			fclose(f);
	}
}

/* The execs/s a libFuzzer run printed on the stream (its final stats). */
static double libfuzzer_rate(FILE *p)
{
	char line[512];
	double best = 0;
	while (p && fgets(line, sizeof line, p)) {
		const char *s = strstr(line, "exec/s: ");
		if (s && atof(s + 8) > best)
			best = atof(s + 8);
		s = strstr(line, "stat::average_exec_per_sec:");
		if (s)
			best = atof(s + 27);
	}
	if (p)
		pclose(p);
	return best;
}

static void fuzz_speed(const char *harness)
{
	char cmd[2048];
	if (!harness || access(harness, X_OK) != 0) {
		printf("%-34s %s\n", "parse fuzz harness", "not built (make fuzz-build-libfuzzer; needs clang)");
		return;
	}
	snprintf(cmd, sizeof cmd, "'%s' -max_total_time=10 -print_final_stats=1 2>&1", harness);
	printf("%-34s %10.0f execs/s (libFuzzer, ASan+UBSan, 10 s, one core)\n", "parse fuzz harness",
	       libfuzzer_rate(popen(cmd, "r")));
}

/* The build without sanitizers, the way to fuzz fastest on two cores: two
 * processes at once, fresh, inputs of at most 128 bytes; `runs` times, the
 * sum of the two each time. */
static void fuzz_speed_fast(const char *harness, int runs)
{
	char cmd[2048];
	double sorted[MAX_RUNS];
	if (runs > MAX_RUNS)
		runs = MAX_RUNS;
	if (!harness || access(harness, X_OK) != 0) {
		printf("%-34s %s\n", "parse fuzz harness, no sanitizers",
		       "not built (make fuzz-build-libfuzzer FUZZ_LF_SAN=; needs clang)");
		return;
	}
	snprintf(cmd, sizeof cmd, "'%s' -max_total_time=10 -max_len=128 -print_final_stats=1 2>&1", harness);
	for (int r = 0; r < runs; r++) {
		FILE *a, *b;
		fflush(NULL);
		a = popen(cmd, "r");
		b = popen(cmd, "r");
		sorted[r] = libfuzzer_rate(a);
		sorted[r] += libfuzzer_rate(b);
	}
	qsort(sorted, (size_t)runs, sizeof sorted[0], cmp_double);
	printf("%-34s %10.0f execs/s [%.0f..%.0f] (libFuzzer, 2 processes, -max_len=128, fresh, 10 s; %d runs)\n",
	       "parse fuzz harness, no sanitizers", sorted[runs / 2], sorted[0], sorted[runs - 1], runs);
}

/* Whether a section (throughput, l1, memory, encoder, runner, fuzz) runs. */
static int wanted(const struct bench_opts *o, const char *section)
{
	const char *p = o->only;
	size_t n = strlen(section);
	if (!p)
		return 1;
	while ((p = strstr(p, section)) != NULL) {
		if ((p == o->only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tracecert bench --reference PATH.so [--opencsd PATH.so] [--size MB] [--runs N]\n"
		"                       [--memory-sizes MB,MB] [--tool PATH] [--fuzz-parse PATH]\n"
		"                       [--fuzz-parse-fast PATH]\n"
		"                       [--only throughput,l1,memory,encoder,runner,fuzz]\n"
		"\n"
		"Throughput of the reference decoder and OpenCSD, both through their adapters, on the\n"
		"same encoder-generated trace, measured in the same run: L1 (packets; the reference\n"
		"also resolves speculation, stage 2) and L3 (instructions, with the program image);\n"
		"peak resident memory of the reference at two trace sizes; encoder, runner and fuzz\n"
		"harness speed. Median of N runs with [min..max]; the two decoders run alternately,\n"
		"and the ratio is the median of the N run-by-run ratios (the machine's drift falls on\n"
		"both). Prints figures; never fails on a slow machine. When OpenCSD crashes at L3,\n"
		"both decoders are measured again on the trace without the A-sync segments it\n"
		"crashes in. --only runs some sections (l1: the L1 row of throughput alone).\n");
}

int tc_bench_main(int argc, char **argv)
{
	struct bench_opts o = { NULL, NULL, "build/tracecert", "build/fuzz/libfuzzer/parse",
				 "build/fuzz/libfuzzer-nosan/parse", 64, 512, 3, NULL };
	struct tc_enc_options eo;
	struct workload w;
	const struct tc_adapter *ref, *oc = NULL;
	char err[128];
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!v) {
			fprintf(stderr, "tracecert bench: %s needs a value (see tracecert bench --help)\n", a);
			return 2;
		}
		i++;
		if (!strcmp(a, "--reference"))
			o.reference = v;
		else if (!strcmp(a, "--opencsd"))
			o.opencsd = v;
		else if (!strcmp(a, "--tool"))
			o.tool = v;
		else if (!strcmp(a, "--fuzz-parse"))
			o.fuzz_parse = v;
		else if (!strcmp(a, "--fuzz-parse-fast"))
			o.fuzz_parse_fast = v;
		else if (!strcmp(a, "--size"))
			o.mb = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--only")) {
			o.only = v;
			for (const char *p = v; *p;) {
				size_t n = strcspn(p, ",");
				static const char *const names[] = { "throughput", "l1", "memory", "encoder", "runner", "fuzz" };
				int ok = 0;
				for (int k = 0; k < 6; k++)
					ok |= strlen(names[k]) == n && !strncmp(p, names[k], n);
				if (!ok) {
					fprintf(stderr, "tracecert bench: --only: unknown section '%.*s' (throughput, l1, memory, encoder, runner, fuzz)\n",
						(int)n, p);
					return 2;
				}
				p += n + (p[n] == ',');
			}
		} else if (!strcmp(a, "--runs"))
			o.runs = atoi(v);
		else if (!strcmp(a, "--memory-sizes")) {
			o.mb = strtoul(v, NULL, 10);
			o.big_mb = strchr(v, ',') ? strtoul(strchr(v, ',') + 1, NULL, 10) : o.mb * 8;
		} else {
			fprintf(stderr, "tracecert bench: unknown option '%s' (see tracecert bench --help)\n", a);
			return 2;
		}
	}
	if (!o.reference || o.mb == 0 || o.runs < 1) {
		fprintf(stderr, "tracecert bench: --reference PATH.so is required; --size and --runs must be positive\n");
		return 2;
	}
	ref = tc_adapter_load(o.reference, err, sizeof err);
	if (!ref) {
		fprintf(stderr, "tracecert bench: %s\n", err);
		return 2;
	}
	if (o.opencsd && access(o.opencsd, R_OK) == 0 && !(oc = tc_adapter_load(o.opencsd, err, sizeof err)))
		fprintf(stderr, "tracecert bench: %s\n", err);
	tc_enc_options_default(&eo);
	eo.seed = 42;
	eo.steps = 100000;
	eo.blocks = 4096;
	eo.random_config = 0;
	eo.cfg.maxspec = 8;
	eo.cfg.retstack = 1;
	if (tc_enc_generate(&eo, &w.v, err, sizeof err)) {
		fprintf(stderr, "tracecert bench: %s\n", err);
		return 2;
	}
	w.trace = w.v.trace;
	w.trace_len = w.v.trace_len;
	w.total = (size_t)o.mb << 20;
	printf("workload: encoder seed 42, %zu-byte trace (A64, maxspec 8, return stack) fed %lu MiB in %d-byte chunks\n",
	       w.v.trace_len, o.mb, CHUNK);
	if (wanted(&o, "throughput") || wanted(&o, "l1")) {
		struct pair p;
		printf("%-34s %10s %19s %10s %19s %s\n", "MB/s (median [min..max])", "reference", "", "OpenCSD", "",
		       "ratio, run by run");
		measure_pair(ref, oc, &w, tc_level_l1, o.runs, &p);
		row("L1 packets (+ stage 2 reference)", &p);
	}
	if (wanted(&o, "throughput")) {
		struct pair p;
		measure_pair(ref, oc, &w, tc_level_l3, o.runs, &p);
		row("L3 instructions", &p);
		if (oc && p.rc_oc > 0 && p.rc_oc != 1000)
			l3_without_crashes(ref, oc, &w, o.runs);
	}
	if (wanted(&o, "memory")) {
		long small = peak_rss(ref, &w, o.mb), big = peak_rss(ref, &w, o.big_mb);
		printf("%-34s %lu MiB: %ld KiB, %lu MiB: %ld KiB (%+.1f%%)\n", "reference peak RSS (L3)", o.mb, small, o.big_mb,
		       big, small > 0 ? 100.0 * (double)(big - small) / (double)small : 0.0);
	}
	if (wanted(&o, "encoder"))
		encoder_speed();
	if (wanted(&o, "runner")) {
		runner_speed(o.tool, o.reference, "runner, reference adapter");
		if (oc)
			runner_speed(o.tool, o.opencsd, "runner, OpenCSD adapter");
		else
			printf("%-34s %s\n", "runner, OpenCSD adapter", "not installed (apt-get install libopencsd-dev)");
	}
	if (wanted(&o, "fuzz")) {
		fuzz_speed(o.fuzz_parse);
		fuzz_speed_fast(o.fuzz_parse_fast, o.runs);
	}
	tc_enc_vector_free(&w.v);
	return 0;
}
