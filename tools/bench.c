/* SPDX-License-Identifier: BSD-3-Clause */
/* bench.c — `tracecert bench`: throughput and memory figures of every protocol that has an encoder, the reference vs OpenCSD in the same run; its command line and its tables. Prints figures; never fails because a machine is slow, fails when the reference crashes, exits or hangs or an adapter cannot be loaded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "bench_measure.h"
#include "cli.h"

#define MAX_PROTOCOLS 16

struct bench_opts {
	const char *reference;
	const char *opencsd;
	const char *tool;
	const char *fuzz_dir;       /* the libFuzzer harnesses with sanitizers: DIR/<p>_parse */
	const char *fuzz_dir_fast;  /* and without */
	unsigned long mb;           /* --size */
	unsigned long mem_mb[2];    /* --memory-sizes; 0: --size and 8 times the first */
	int runs;
	unsigned timeout;           /* --timeout; 0: 60 s + 4 s per MiB fed */
	const char *only;           /* comma-separated sections, NULL = all */
	const struct tc_encoder *enc[MAX_PROTOCOLS];   /* --protocol; none given: every encoder */
	int nenc;
};

/* The decoders measured (each loaded only in bench's children), and
 * whether the reference failed or an adapter could not be loaded (exit status 1). */
struct bench_adapters {
	struct tc_bench_adapter ref;
	struct tc_bench_adapter oc;    /* path NULL: not installed */
	int bad;
};

static const char *const sections[] = { "throughput", "l1", "text", "memory", "cycles", "compression", "encoder",
					"runner", "fuzz", NULL };

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ---- Rows ------------------------------------------------------------------ */

/* A side that misbehaved in a row's runs: one line on standard error (a
 * failure to load was said once, before the runs). Exit status 1 when it is
 * the reference or an adapter that could not be loaded; the compared
 * decoder crashing, exiting or hanging on a workload is a finding about it,
 * shown in its cell, not a failure of bench. */
static void report(struct bench_adapters *d, const struct tc_bench_adapter *ad, const char *label,
		   const struct tc_bench_outcome *o)
{
	char text[600];
	if (!tc_bench_outcome_bad(o))
		return;
	if (ad == &d->ref || ad->load.status != tc_bench_ok)
		d->bad = 1;
	if (ad->load.status != tc_bench_ok)
		return;
	tc_bench_outcome_text(o, text, sizeof text);
	fflush(stdout);
	fprintf(stderr, "tracecert bench: --%s '%s': %s: %s\n", ad->option, ad->path, label, text);
}

/* A table row whose b column says b_unsupported (when not NULL) for a
 * protocol the b side does not list. */
static void row_saying(struct bench_adapters *d, const struct tc_bench_side *sa, const struct tc_bench_side *sb,
		       const char *protocol, const char *what, const struct tc_bench_pair *p, const char *b_unsupported)
{
	char label[64], cell[64];
	snprintf(label, sizeof label, "%s %s", protocol, what);
	if (p->oa.status == tc_bench_ok) {
		printf("%-34s %10.1f [%7.1f..%7.1f]", label, p->a[0], p->a[1], p->a[2]);
	} else {
		tc_bench_outcome_cell(&p->oa, protocol, cell, sizeof cell);
		printf("%-34s %30s", label, cell);
	}
	if (p->ob.status == tc_bench_ok && p->oa.status == tc_bench_ok)
		printf(" %10.1f [%7.1f..%7.1f] %6.2fx [%.2f..%.2f]\n", p->b[0], p->b[1], p->b[2], p->ratio[0],
		       p->ratio[1], p->ratio[2]);
	else if (p->ob.status == tc_bench_ok)
		printf(" %10.1f [%7.1f..%7.1f]\n", p->b[0], p->b[1], p->b[2]);
	else {
		tc_bench_outcome_cell(&p->ob, protocol, cell, sizeof cell);
		if (b_unsupported && p->ob.status == tc_bench_not_supported)
			snprintf(cell, sizeof cell, "%s", b_unsupported);
		printf(" %30s\n", cell);
	}
	report(d, sa->ad, label, &p->oa);
	report(d, sb->ad, label, &p->ob);
}

/* One table row: "PROTOCOL WHAT", a's figure, b's, the ratio; a side
 * without a figure says why (and report() says it on standard error). */
static void row(struct bench_adapters *d, const struct tc_bench_side *sa, const struct tc_bench_side *sb,
		const char *protocol, const char *what, const struct tc_bench_pair *p)
{
	row_saying(d, sa, sb, protocol, what, p, NULL);
}

/* OpenCSD crashed on the L3 workload: measure both decoders again on the
 * trace without the pieces it crashes in. */
static void l3_without_crashes(struct bench_adapters *d, const struct tc_bench_workload *w, int runs)
{
	struct tc_bench_side ref = { &d->ref, 0 }, oc = { &d->oc, 0 };
	struct tc_bench_workload cut;
	struct tc_bench_pair p;
	uint8_t *buf;
	size_t npieces = 0;
	long dropped = tc_bench_drop_crashing(&d->oc, w, &cut, &buf, &npieces);
	char what[64];
	if (dropped < 0) {
		printf("%s %-30s %s\n", w->proto->name, "L3 without crashing pieces",
		       dropped == -2 ? "the encoder gives no sync points to cut at"
				     : "OpenCSD still crashes (more than 64 pieces)");
		return;
	}
	tc_bench_measure_pair(&ref, &oc, &cut, tc_level_l3, tc_bench_mbs, runs, &p);
	snprintf(what, sizeof what, "L3, %ld of %zu pieces dropped", dropped, npieces);
	row(d, &ref, &oc, w->proto->name, what, &p);
	printf("%-34s (the trace without the pieces from one sync point to the next that OpenCSD\n"
	       "%-34s crashes in: %zu bytes, both decoders)\n", "", "", cut.trace_len);
	free(buf);
}

static void throughput_header(void)
{
	printf("%-34s %10s %19s %10s %19s %s\n", "MB/s (median [min..max])", "reference", "", "OpenCSD", "",
	       "ratio, run by run");
}

/* The L1 row, and with L3 the L3 row (and the row without crashing pieces). */
static void throughput(struct bench_adapters *d, const struct tc_bench_workload *w, int runs, int l3)
{
	struct tc_bench_side ref = { &d->ref, 0 }, oc = { &d->oc, 0 };
	struct tc_bench_pair p;
	tc_bench_measure_pair(&ref, &oc, w, tc_level_l1, tc_bench_mbs, runs, &p);
	row(d, &ref, &oc, w->proto->name, "L1 packets", &p);
	if (!l3)
		return;
	tc_bench_measure_pair(&ref, &oc, w, tc_level_l3, tc_bench_mbs, runs, &p);
	row(d, &ref, &oc, w->proto->name, "L3 instructions", &p);
	if (p.ob.status == tc_bench_crashed && !p.ob.loading)
		l3_without_crashes(d, w, runs);
}

static void text_header(void)
{
	printf("%-34s %10s %19s %10s %19s %s\n", "M instructions/s (median)", "text", "", "no text", "",
	       "ratio, run by run");
}

/* The reference at L3 with its items written as text, against the same
 * without text. */
static void text_output(struct bench_adapters *d, const struct tc_bench_workload *w, int runs)
{
	struct tc_bench_side text = { &d->ref, 1 }, plain = { &d->ref, 0 };
	struct tc_bench_pair p;
	tc_bench_measure_pair(&text, &plain, w, tc_level_l3, tc_bench_mips, runs, &p);
	row(d, &text, &plain, w->proto->name, "decode, L3 text", &p);
}

static void memory(struct bench_adapters *d, const struct tc_bench_workload *w, const struct bench_opts *o)
{
	char label[64], cell[64];
	unsigned long small_mb = o->mem_mb[0] ? o->mem_mb[0] : o->mb, big_mb = o->mem_mb[1] ? o->mem_mb[1] : 8 * small_mb;
	struct tc_bench_outcome os, ob;
	long small = tc_bench_peak_rss(&d->ref, w, small_mb, &os), big = small < 0 ? -1 : tc_bench_peak_rss(&d->ref, w, big_mb, &ob);
	snprintf(label, sizeof label, "%s reference peak RSS (L3)", w->proto->name);
	if (small < 0 || big < 0) {
		const struct tc_bench_outcome *bad = small < 0 ? &os : &ob;
		tc_bench_outcome_cell(bad, w->proto->name, cell, sizeof cell);
		printf("%-34s %s\n", label, cell);
		report(d, &d->ref, label, bad);
		return;
	}
	printf("%-34s %lu MiB: %ld KiB, %lu MiB: %ld KiB (%+.1f%%)\n", label, small_mb, small, big_mb, big,
	       small > 0 ? 100.0 * (double)(big - small) / (double)small : 0.0);
}

/* ---- Cycles: the per-cycle sample protocols, per port width ------------------------ */

/* The widths a sample file's header may give (reference/cyclecap.h), in bits. */
static const unsigned port_widths[] = { 4, 8, 16 };

static void cycles_header(unsigned long mb)
{
	printf("cycles: the per-cycle sample protocols (a trace of one record per captured core cycle),\n"
	       "each at every port width: its encoder's trace (seed %d, %d steps, %d blocks, its bench\n"
	       "configuration with the port width set), decoded whole again and again, a new decoder for each\n"
	       "time, until at least %lu MiB went in; the cycles are the records decoded.\n",
	       TC_BENCH_SEED, TC_BENCH_STEPS, TC_BENCH_BLOCKS, mb);
	printf("%-34s %10s %19s %10s %19s %s\n", "M cycles/s (median [min..max])", "reference", "", "OpenCSD", "",
	       "ratio, run by run");
}

/* The L1 and L3 rows of one protocol at one port width. */
static void cycles_rows(struct bench_adapters *d, const struct tc_bench_workload *w, int runs)
{
	static const unsigned levels[] = { tc_level_l1, tc_level_l3 };
	struct tc_bench_side ref = { &d->ref, 0 }, oc = { &d->oc, 0 };
	struct tc_bench_pair p;
	char what[64], none[64];
	snprintf(none, sizeof none, "no %s decoder", w->proto->name);
	for (int i = 0; i < 2; i++) {
		tc_bench_measure_pair(&ref, &oc, w, levels[i], tc_bench_mcps, runs, &p);
		snprintf(what, sizeof what, "L%d cycles, %u-bit port", levels[i] == tc_level_l1 ? 1 : 3, w->port_width);
		row_saying(d, &ref, &oc, w->proto->name, what, &p, none);
	}
}

/* The cycles table of every per-cycle sample protocol measured; 0, or 1
 * when a workload was not generated. */
static int cycles(const struct bench_opts *o, struct bench_adapters *d)
{
	int header = 0;
	for (int i = 0; i < o->nenc; i++) {
		const struct tc_protocol *p = tc_protocol_find(o->enc[i]->protocol);
		if (!p || !p->cycle_port_width_key)
			continue;
		for (size_t k = 0; k < sizeof port_widths / sizeof port_widths[0]; k++) {
			struct tc_bench_workload w;
			char err[300];
			if (tc_bench_workload_make_port(&w, o->enc[i], port_widths[k], o->mb, err, sizeof err)) {
				fprintf(stderr, "tracecert bench: %s %u-bit port workload: %s\n", o->enc[i]->protocol,
					port_widths[k], err);
				return 1;
			}
			w.timeout_s = o->timeout;
			if (!header++)
				cycles_header(o->mb);
			printf("cycles workload %s, %u-bit port: %zu-byte trace, %llu cycles, files decoded per run: %zu\n",
			       w.proto->name, w.port_width, w.trace_len,
			       (unsigned long long)(w.cycles / (w.total / w.trace_len)), w.total / w.trace_len);
			cycles_rows(d, &w, o->runs);
			tc_bench_workload_free(&w);
		}
	}
	return 0;
}

/* ---- Compression: every protocol's trace of the same instruction count ------------ */

#define SAME_COUNT_PERCENT 1    /* the step counts are searched until the counts are this close */
#define SAME_COUNT_ROUNDS 4     /* at most this many regenerations per protocol */

/* A protocol's workload for the compression table, with its step count
 * and what the encoder's L3 truth says of it. */
struct shaped {
	struct tc_bench_workload w;
	struct tc_bench_truth t;
	unsigned steps;
};

static int shaped_make(struct shaped *s, const struct tc_encoder *e, unsigned steps, unsigned long mb)
{
	char err[300];
	s->steps = steps;
	if (tc_bench_workload_make_steps(&s->w, e, steps, mb, err, sizeof err)) {
		fprintf(stderr, "tracecert bench: %s compression workload: %s\n", e->protocol, err);
		return -1;
	}
	tc_bench_truth_count(&s->w, &s->t);
	if (s->t.insns == 0 || s->t.unparsed) {
		fprintf(stderr, "tracecert bench: %s compression workload: the encoder's L3 truth has %llu instructions "
			"and %lu lines that are not L3 items\n", e->protocol, (unsigned long long)s->t.insns,
			s->t.unparsed);
		tc_bench_workload_free(&s->w);
		return -1;
	}
	return 0;
}

static int close_enough(uint64_t n, uint64_t target)
{
	uint64_t d = n > target ? n - target : target - n;
	return d * 100 <= target * SAME_COUNT_PERCENT;
}

/* Regenerates s with steps scaled by target / instructions until the
 * count is within SAME_COUNT_PERCENT of target (or the steps stop changing). */
static int shaped_fit(struct shaped *s, const struct tc_encoder *e, uint64_t target, unsigned long mb)
{
	for (int r = 0; r < SAME_COUNT_ROUNDS && !close_enough(s->t.insns, target); r++) {
		double want = (double)s->steps * (double)target / (double)s->t.insns;
		unsigned steps = want < 1 ? 1 : want > TC_BENCH_STEPS ? TC_BENCH_STEPS : (unsigned)(want + 0.5);
		if (steps == s->steps)
			break;
		tc_bench_workload_free(&s->w);
		if (shaped_make(s, e, steps, mb))
			return -1;
	}
	return 0;
}

/* "a64", "a32+t32": the ISAs of the ranges. */
static void isa_list(unsigned isas, char *out, size_t n)
{
	static const char *const names[tc_isa_count] = { "a64", "a32", "t32", "rv32", "rv64" };
	out[0] = '\0';
	for (int i = 0; i < tc_isa_count; i++)
		if (isas & (1u << i))
			snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? "+" : "", names[i]);
}

static void compression_header(uint64_t target, unsigned long mb)
{
	printf("compression: each encoder's trace of seed %d, %d blocks, its bench configuration and the steps\n"
	       "that bring the instructions of its L3 truth within %d%% of %llu (the fewest any protocol has at\n"
	       "%d steps): what a step is differs between the encoders (a retired instruction, a basic block).\n"
	       "Same instruction count, seed and block count, not the same program: each encoder makes\n"
	       "its own random program in its own ISA; no encoder takes a branch density, so the\n"
	       "branches per 1000 instructions are measured from its L3 truth, not set. The encoders\n"
	       "choose each packet's encoding at random among the valid ones: the bytes are those of\n"
	       "these traces, not the fewest a trace unit would emit. L3 M instructions/s: the reference\n"
	       "decoding the trace again and again until %lu MiB went in, median [min..max] of the runs.\n",
	       TC_BENCH_SEED, TC_BENCH_BLOCKS, SAME_COUNT_PERCENT, (unsigned long long)target, TC_BENCH_STEPS, mb);
	printf("%-22s %6s %-8s %12s %11s %9s %9s %10s %19s\n", "protocol", "steps", "isa", "instructions",
	       "trace bytes", "bits/insn", "br/kinsn", "L3 Minsn/s", "");
}

static void compression_row(struct bench_adapters *d, const struct shaped *s, int runs)
{
	struct tc_bench_side ref = { &d->ref, 0 }, none = { NULL, 0 };
	struct tc_bench_pair p;
	char label[64], isas[40], cell[64];
	snprintf(label, sizeof label, "%s compression", s->w.proto->name);
	isa_list(s->t.isas, isas, sizeof isas);
	printf("%-22s %6u %-8s %12llu %11zu %9.3f %9.1f", label, s->steps, isas, (unsigned long long)s->t.insns,
	       s->w.trace_len, 8.0 * (double)s->w.trace_len / (double)s->t.insns,
	       1000.0 * (double)s->t.branches / (double)s->t.insns);
	tc_bench_measure_pair(&ref, &none, &s->w, tc_level_l3, tc_bench_mips, runs, &p);
	if (p.oa.status == tc_bench_ok) {
		printf(" %10.1f [%7.1f..%7.1f]\n", p.a[0], p.a[1], p.a[2]);
	} else {
		tc_bench_outcome_cell(&p.oa, s->w.proto->name, cell, sizeof cell);
		printf(" %30s\n", cell);
	}
	report(d, &d->ref, label, &p.oa);
}

/* The compression table; 0, or 1 when a workload was not generated. */
static int compression(const struct bench_opts *o, struct bench_adapters *d)
{
	struct shaped s[MAX_PROTOCOLS];
	uint64_t target = 0;
	int n = 0, rc = 0;
	for (; n < o->nenc && rc == 0; n++) {
		rc = shaped_make(&s[n], o->enc[n], TC_BENCH_STEPS, o->mb);
		if (rc == 0 && (target == 0 || s[n].t.insns < target))
			target = s[n].t.insns;
	}
	if (rc)
		n--;
	for (int i = 0; i < n && rc == 0; i++)
		if (shaped_fit(&s[i], o->enc[i], target, o->mb)) {
			for (int k = i + 1; k < n; k++)
				tc_bench_workload_free(&s[k].w);
			n = i;
			rc = -1;
		}
	if (rc == 0) {
		compression_header(target, o->mb);
		for (int i = 0; i < n; i++)
			compression_row(d, &s[i], o->runs);
	}
	for (int i = 0; i < n; i++)
		tc_bench_workload_free(&s[i].w);
	return rc ? 1 : 0;
}

/* Vectors per second of an encoder at its defaults (gen's), random configurations: 2000 vectors at
 * the default --size of 64 MiB, in proportion to a smaller one (at least 20). */
static void encoder_speed(const struct tc_encoder *e, unsigned long mb)
{
	struct tc_enc_request rq;
	unsigned long long bytes = 0;
	int n = mb >= 64 ? 2000 : (int)(2000 * mb / 64) < 20 ? 20 : (int)(2000 * mb / 64);
	double t0 = now_s(), dt;
	char label[64];
	memset(&rq, 0, sizeof rq);
	rq.random_config = 1;
	rq.steps = e->default_steps;
	rq.blocks = e->default_blocks;
	for (int i = 0; i < n; i++) {
		struct tc_enc_result v;
		char err[128];
		rq.seed = (uint64_t)i + 1;
		if (e->generate(&rq, &v, err, sizeof err) == 0) {
			bytes += v.trace_len;
			tc_enc_result_free(&v);
		}
	}
	dt = now_s() - t0;
	snprintf(label, sizeof label, "%s encoder", e->protocol);
	printf("%-34s %10.0f vectors/s, %.2f MB/s of trace (%d vectors of %u steps)\n", label, n / dt,
	       bytes / dt / 1e6, n, e->default_steps);
}

/* ---- Runner and fuzz harnesses (every protocol's vectors) --------------------- */

/* Times `tracecert certify` over all vectors for one adapter; its summary
 * line is read from its standard error through a pipe (no file written). */
static void runner_speed(const char *tool, const char *adapter, const char *name)
{
	char cmd[2048], line[512], summary[512] = "";
	double t0 = now_s(), dt;
	FILE *p;
	snprintf(cmd, sizeof cmd, "'%s' certify --adapter '%s' --jobs 2 2>&1 >/dev/null", tool, adapter);
	fflush(NULL);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof line, p))
		if (strstr(line, "runs/s"))
			snprintf(summary, sizeof summary, "%s", strstr(line, "score") ? strstr(line, "score") : line);
	if (p)
		pclose(p);
	dt = now_s() - t0;
	printf("%-34s %10.2f s wall for all vectors (2 jobs); %s", name, dt, summary[0] ? summary : "(no summary)\n");
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

/* A protocol's parse harness in a folder of harnesses (fuzz/fuzz.mk names them <p>_parse). */
static void harness_path(char *out, size_t n, const char *dir, const char *protocol)
{
	snprintf(out, n, "%s/%s_parse", dir, protocol);
}

static void fuzz_speed(const char *dir, const char *protocol)
{
	char cmd[2048], harness[1024], label[64];
	harness_path(harness, sizeof harness, dir, protocol);
	snprintf(label, sizeof label, "%s parse fuzz harness", protocol);
	if (access(harness, X_OK) != 0) {
		printf("%-34s %s\n", label, "not built (make fuzz-build-libfuzzer; needs clang)");
		return;
	}
	snprintf(cmd, sizeof cmd, "'%s' -max_total_time=10 -print_final_stats=1 2>&1", harness);
	printf("%-34s %10.0f execs/s (libFuzzer, ASan+UBSan, 10 s, one core)\n", label, libfuzzer_rate(popen(cmd, "r")));
}

/* The build without sanitizers, the way to fuzz fastest on two cores: two
 * processes at once, fresh, inputs of at most 128 bytes; `runs` times, the
 * sum of the two each time. */
static void fuzz_speed_fast(const char *dir, const char *protocol, int runs)
{
	char cmd[2048], harness[1024], label[64];
	double sorted[TC_BENCH_MAX_RUNS];
	if (runs > TC_BENCH_MAX_RUNS)
		runs = TC_BENCH_MAX_RUNS;
	harness_path(harness, sizeof harness, dir, protocol);
	snprintf(label, sizeof label, "%s parse fuzz harness, no sanitizers", protocol);
	if (access(harness, X_OK) != 0) {
		printf("%-34s %s\n", label, "not built (make fuzz-build-libfuzzer FUZZ_LF_SAN=; needs clang)");
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
	       label, sorted[runs / 2], sorted[0], sorted[runs - 1], runs);
}

/* ---- The command line ------------------------------------------------------- */

enum bench_option {
	opt_reference = 1, opt_opencsd, opt_protocol, opt_size, opt_runs, opt_memory_sizes, opt_only, opt_tool,
	opt_fuzz_dir, opt_fuzz_dir_fast, opt_timeout
};

static const struct tc_cli_option bench_options[] = {
	{ "reference", "PATH.so", opt_reference, "the reference decoder's adapter (required;\nbuild/adapters/libtc_reference.so)" },
	{ "opencsd", "PATH.so", opt_opencsd, "the adapter measured against it, in the same runs\n(build/adapters/libtc_opencsd.so); without it:\nits column says 'not installed'" },
	{ "protocol", "P[,P...]", opt_protocol, "the protocols measured, may be repeated (default:\nevery protocol that has an encoder)" },
	{ "size", "MB", opt_size, "MiB of trace fed per run, 1..65536 (default 64);\nthe encoder section's 2000 vectors in proportion below 64" },
	{ "runs", "N", opt_runs, "runs per figure, 1..16 (default 3)" },
	{ "timeout", "S", opt_timeout, "wall-clock seconds each child (one run, or loading\nan adapter) may take, 1..86400 (default: 60, and\n4 more per MiB the run feeds)" },
	{ "memory-sizes", "MB[,MB]", opt_memory_sizes, "the two trace sizes of the memory figure, 1..65536\n(default: --size, and 8 times the first)" },
	{ "only", "SECTION[,...]", opt_only, "the sections to run: throughput, l1 (the L1 rows of\nthroughput alone), text, memory, cycles,\ncompression, encoder, runner, fuzz (default: all)" },
	{ "tool", "PATH", opt_tool, "tracecert, for the runner section (default\nbuild/tracecert)" },
	{ "fuzz-dir", "DIR", opt_fuzz_dir, "the libFuzzer harnesses with sanitizers, each\nprotocol's DIR/P_parse (default build/fuzz/libfuzzer)" },
	{ "fuzz-dir-fast", "DIR", opt_fuzz_dir_fast, "the ones without (default\nbuild/fuzz/libfuzzer-nosan)" },
	{ NULL, NULL, 0, NULL }
};

static void help_bench(FILE *f, const struct tc_cli *c)
{
	fprintf(f,
		"usage: tracecert bench --reference PATH.so [--opencsd PATH.so] [--protocol P[,P...]]...\n"
		"                       [--size MB] [--runs N] [--timeout S] [--memory-sizes MB,MB]\n"
		"                       [--tool PATH]\n"
		"                       [--fuzz-dir DIR] [--fuzz-dir-fast DIR]\n"
		"                       [--only throughput,l1,text,memory,cycles,compression,encoder,runner,fuzz]\n"
		"\n"
		"Throughput of the reference decoder and OpenCSD, both through their adapters, on\n"
		"the same encoder-generated trace per protocol (the protocol's encoder: seed %d,\n"
		"%d steps, %d blocks, the configuration the encoder names for it), measured in\n"
		"the same run: L1 (packets) and L3 (instructions, with the program image), MB/s\n"
		"of trace; decode with text output (the reference's L3 items written by the one\n"
		"L3 text writer into a buffer, against the same without text), millions of\n"
		"instructions per second; peak resident memory of the reference at two trace\n"
		"sizes; cycles: each per-cycle sample protocol's core cycles per second at L1\n"
		"and L3, at every port width (4, 8, 16 bits), its trace decoded whole again\n"
		"and again; compression: every protocol's trace of the same instruction count (its\n"
		"encoder's steps chosen for it), its bytes, trace bits per instruction and the\n"
		"reference's L3 instructions per second; encoder, runner and fuzz harness\n"
		"speed. Median of N runs with\n"
		"[min..max]; the two decoders run alternately, and the ratio is the median of\n"
		"the N run-by-run ratios (the machine's drift falls on both). A protocol the\n"
		"adapter does not list is reported as not supported. bench never loads an\n"
		"adapter itself: a child process loads it and says what it declares, and each\n"
		"run is a child that loads it, times open to close and sends its figures back.\n"
		"A side that crashes, exits, hangs past --timeout, sends a malformed reply or\n"
		"does not open, while loading or in a run, has that in its column and a line\n"
		"on standard error; the other side is still measured. When OpenCSD crashes at\n"
		"L3, both decoders are measured again on the trace without the pieces (from one\n"
		"synchronisation point to the next) it crashes in. Prints figures; never fails\n"
		"on a slow machine. Exit status 0 (the compared decoder failing in a run is a\n"
		"finding shown in its column); 1 when an adapter cannot be loaded, the\n"
		"reference crashed, exited, hung or failed, or a workload was not generated; 2 for a\n"
		"usage error.\n"
		"\n"
		"Options:\n",
		TC_BENCH_SEED, TC_BENCH_STEPS, TC_BENCH_BLOCKS);
	tc_cli_print_options(f, c);
	fprintf(f, "\nProtocols with an encoder in this build, and the configuration of their workload:\n");
	for (int i = 0; tc_encoders[i]; i++)
		fprintf(f, "  %-8s %s\n", tc_encoders[i]->protocol,
			tc_encoders[i]->bench_config && *tc_encoders[i]->bench_config ? tc_encoders[i]->bench_config
										 : "the defaults");
}

static const struct tc_encoder *find_encoder(const char *name, size_t len)
{
	for (int i = 0; tc_encoders[i]; i++)
		if (strlen(tc_encoders[i]->protocol) == len && !strncmp(tc_encoders[i]->protocol, name, len))
			return tc_encoders[i];
	return NULL;
}

/* The protocols with an encoder, ", "-separated, into list. */
static void encoder_list(char *list, size_t size)
{
	list[0] = '\0';
	for (int i = 0; tc_encoders[i]; i++)
		snprintf(list + strlen(list), size - strlen(list), "%s%s", i ? ", " : "", tc_encoders[i]->protocol);
}

/* --protocol P[,P...]: each protocol's encoder, once; an empty value is
 * not "every protocol". */
static int add_protocols(struct bench_opts *o, const struct tc_cli *c)
{
	char list[200];
	if (!*c->value) {
		encoder_list(list, sizeof list);
		tc_cli_usage_error(c, "--protocol: no protocol given (protocols with an encoder: %s)", list);
		return -1;
	}
	for (const char *p = c->value; *p;) {
		size_t n = strcspn(p, ",");
		const struct tc_encoder *e = find_encoder(p, n);
		int seen = 0;
		if (!e) {
			encoder_list(list, sizeof list);
			tc_cli_usage_error(c, "--protocol: no encoder for '%.*s' (protocols with an encoder: %s)",
					   (int)n, p, list);
			return -1;
		}
		for (int i = 0; i < o->nenc; i++)
			seen |= o->enc[i] == e;
		if (!seen && o->nenc < MAX_PROTOCOLS)
			o->enc[o->nenc++] = e;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* --only: every name one of sections[], at least one. */
static int check_sections(const struct tc_cli *c)
{
	if (!*c->value) {
		tc_cli_usage_error(c, "--only: no section given (throughput, l1, text, memory, cycles, compression, "
				      "encoder, runner, fuzz)");
		return -1;
	}
	for (const char *p = c->value; *p;) {
		size_t n = strcspn(p, ",");
		int ok = 0;
		for (int k = 0; sections[k]; k++)
			ok |= strlen(sections[k]) == n && !strncmp(p, sections[k], n);
		if (!ok) {
			tc_cli_usage_error(c, "--only: unknown section '%.*s' (throughput, l1, text, memory, cycles, "
					      "compression, encoder, runner, fuzz)", (int)n, p);
			return -1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* A decimal number in min..max at s, ending at the end or a comma (the
 * option's value is named in the message). */
static int number(const struct tc_cli *c, const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end = NULL;
	unsigned long v = 0;
	int ok = *s >= '0' && *s <= '9';
	if (ok) {
		errno = 0;
		v = strtoul(s, &end, 10);
		ok = errno == 0 && (*end == '\0' || *end == ',') && v >= min && v <= max;
	}
	if (!ok) {
		tc_cli_usage_error(c, "--%s expects a number in %lu..%lu, got '%s'", c->option, min, max, c->value);
		return -1;
	}
	*out = v;
	return 0;
}

/* The option's value: one number in min..max. */
static int single_number(const struct tc_cli *c, unsigned long min, unsigned long max, unsigned long *out)
{
	if (strchr(c->value, ',')) {
		tc_cli_usage_error(c, "--%s expects a number in %lu..%lu, got '%s'", c->option, min, max, c->value);
		return -1;
	}
	return number(c, c->value, min, max, out);
}

/* --memory-sizes MB[,MB]. */
static int memory_sizes(struct bench_opts *o, const struct tc_cli *c)
{
	const char *comma = strchr(c->value, ',');
	if (number(c, c->value, 1, 65536, &o->mem_mb[0]))
		return -1;
	return comma ? number(c, comma + 1, 1, 65536, &o->mem_mb[1]) : 0;
}

/* One option or operand; 0, or -1 after a usage error. */
static int take_argument(struct bench_opts *o, const struct tc_cli *c, int id)
{
	unsigned long n;
	switch (id) {
	case opt_reference: o->reference = c->value; return 0;
	case opt_opencsd: o->opencsd = c->value; return 0;
	case opt_tool: o->tool = c->value; return 0;
	case opt_fuzz_dir: o->fuzz_dir = c->value; return 0;
	case opt_fuzz_dir_fast: o->fuzz_dir_fast = c->value; return 0;
	case opt_protocol: return add_protocols(o, c);
	case opt_only: o->only = c->value; return check_sections(c);
	case opt_memory_sizes: return memory_sizes(o, c);
	case opt_size:
		if (single_number(c, 1, 65536, &n))
			return -1;
		o->mb = n;
		return 0;
	case opt_runs:
		if (single_number(c, 1, TC_BENCH_MAX_RUNS, &n))
			return -1;
		o->runs = (int)n;
		return 0;
	case opt_timeout:
		if (single_number(c, 1, 86400, &n))
			return -1;
		o->timeout = (unsigned)n;
		return 0;
	default:
		tc_cli_usage_error(c, "takes no operand, got '%s'", c->value);
		return -1;
	}
}

/* Whether a section runs. */
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

/* An adapter file: readable (else a message and -1: exit status 1 before
 * anything runs), then loaded in a child that says what it declares; a
 * failure there is said once here and in its column of every row. */
static int load(struct bench_adapters *d, struct tc_bench_adapter *a, const char *option, const char *path,
		unsigned timeout)
{
	char text[600];
	memset(a, 0, sizeof *a);
	a->option = option;
	a->path = path;
	if (!path)
		return 0;
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "tracecert bench: --%s '%s': %s\n", option, path, strerror(errno));
		return -1;
	}
	if (tc_bench_adapter_probe(a, timeout ? timeout : 60) == 0)
		return 0;
	d->bad = 1;
	tc_bench_outcome_text(&a->load, text, sizeof text);
	if (a->load.status == tc_bench_no_load)
		fprintf(stderr, "tracecert bench: --%s: %s\n", option, text);
	else
		fprintf(stderr, "tracecert bench: --%s '%s': %s\n", option, path, text);
	return 0;
}

/* ---- The sections --------------------------------------------------------------- */

static void print_workload(const struct tc_bench_workload *w)
{
	printf("workload %s: encoder seed %d, %d steps, %d blocks, config %s: %zu-byte trace fed %zu MiB in %d-byte chunks\n",
	       w->proto->name, TC_BENCH_SEED, TC_BENCH_STEPS, TC_BENCH_BLOCKS,
	       w->enc->bench_config && *w->enc->bench_config ? w->enc->bench_config : "the defaults", w->v.trace_len,
	       w->total >> 20, TC_BENCH_CHUNK);
}

/* The sections of every protocol's workload: throughput, text, memory. */
static void per_workload(const struct bench_opts *o, struct bench_adapters *d,
			 const struct tc_bench_workload *w, int nw)
{
	if (wanted(o, "throughput") || wanted(o, "l1")) {
		throughput_header();
		for (int i = 0; i < nw; i++)
			throughput(d, &w[i], o->runs, wanted(o, "throughput"));
	}
	if (wanted(o, "text")) {
		text_header();
		for (int i = 0; i < nw; i++)
			text_output(d, &w[i], o->runs);
	}
	if (wanted(o, "memory"))
		for (int i = 0; i < nw; i++)
			memory(d, &w[i], o);
}

static int run(const struct bench_opts *o, struct bench_adapters *d)
{
	struct tc_bench_workload w[MAX_PROTOCOLS];
	char err[300];
	int nw = 0, rc = 0;
	int workloads = wanted(o, "throughput") || wanted(o, "l1") || wanted(o, "text") || wanted(o, "memory");
	for (int i = 0; workloads && i < o->nenc && rc == 0; i++) {
		if (tc_bench_workload_make(&w[nw], o->enc[i], o->mb, err, sizeof err)) {
			fprintf(stderr, "tracecert bench: %s workload: %s\n", o->enc[i]->protocol, err);
			rc = 1;
		} else {
			w[nw].timeout_s = o->timeout;
			print_workload(&w[nw++]);
		}
	}
	if (rc == 0)
		per_workload(o, d, w, nw);
	for (int i = 0; i < nw; i++)
		tc_bench_workload_free(&w[i]);
	if (rc == 0 && wanted(o, "cycles"))
		rc = cycles(o, d);
	if (rc == 0 && wanted(o, "compression"))
		rc = compression(o, d);
	if (rc == 0 && wanted(o, "encoder"))
		for (int i = 0; i < o->nenc; i++)
			encoder_speed(o->enc[i], o->mb);
	if (rc == 0 && wanted(o, "runner")) {
		runner_speed(o->tool, o->reference, "runner, reference adapter");
		if (o->opencsd)
			runner_speed(o->tool, o->opencsd, "runner, OpenCSD adapter");
		else
			printf("%-34s %s\n", "runner, OpenCSD adapter", "not installed (apt-get install libopencsd-dev)");
	}
	if (rc == 0 && wanted(o, "fuzz")) {
		for (int i = 0; i < o->nenc; i++) {
			fuzz_speed(o->fuzz_dir, o->enc[i]->protocol);
			fuzz_speed_fast(o->fuzz_dir_fast, o->enc[i]->protocol, o->runs);
		}
	}
	return rc ? rc : d->bad;
}

int tc_bench_main(int argc, char **argv)
{
	struct bench_opts o = { NULL, NULL, "build/tracecert", "build/fuzz/libfuzzer",
				"build/fuzz/libfuzzer-nosan", 64, { 0, 0 }, 3, 0, NULL, { NULL }, 0 };
	struct bench_adapters d;
	struct tc_cli c;
	int id;
	tc_cli_init(&c, "bench", bench_options, argc, argv);
	while ((id = tc_cli_next(&c)) != TC_CLI_END)
		if (id == TC_CLI_ERROR || take_argument(&o, &c, id))
			return 2;
	if (c.help)
		return help_bench(stdout, &c), 0;
	if (c.version)
		return tc_cli_print_version(stdout), 0;
	if (!o.reference)
		return tc_cli_usage_error(&c, "--reference PATH.so is required");
	if (o.nenc == 0)              /* every protocol that has an encoder */
		for (; o.nenc < MAX_PROTOCOLS && tc_encoders[o.nenc]; o.nenc++)
			o.enc[o.nenc] = tc_encoders[o.nenc];
	memset(&d, 0, sizeof d);
	if (load(&d, &d.ref, "reference", o.reference, o.timeout) || load(&d, &d.oc, "opencsd", o.opencsd, o.timeout))
		return 1;
	return run(&o, &d);
}
