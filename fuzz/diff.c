/* SPDX-License-Identifier: BSD-3-Clause */
/* diff.c — differential fuzz harness, built once per protocol P (P_diff): the reference decoder against an adapter (OpenCSD by default) at L1.
 *
 * Everything protocol-specific comes from the descriptor (tracecert/protocol.h:
 * the configuration, the reference decoder, the L1 record's size, kinds and
 * text) and from the protocol's rules (diff.h, fuzz/P/diffrules.c: its
 * input header, the documented divergences); the protocol is
 * TC_FUZZ_PROTOCOL, set by fuzz/fuzz.mk.
 *
 * Property (of the harness, the only thing that aborts): the reference
 * decodes any input its configuration check accepts within the parse
 * harnesses' output bounds, and the adapter run is isolated: it runs in a
 * forked child per input with a time limit and an output limit, so an
 * adapter crash, hang or flood is recorded as a finding file and fuzzing
 * goes on. The children are forked by a small zygote process started at
 * init (forking the fuzzer itself per input was ~10 ms), one ahead, so that
 * the fork overlaps the reference's decoding; input and output travel
 * through shared memory.
 *
 * What it looks for (recorded, never fatal): inputs where the two L1
 * outputs (formatted packet lines, warnings left out, same configuration)
 * differ in a way no documented ambiguity explains. Each new divergence
 * signature (the kinds and differing fields of the first differing line)
 * is written once as a candidate vector, $TC_DIFF_FINDINGS/P-diff-<hash>.tcv,
 * through the one vector writer (conformance/vecwrite.c): configuration,
 * trace, both outputs in the description, no expect section (a human
 * decides the expected output from the spec). Adapter crashes, hangs and
 * floods are written as P-diff-crash-<hash>.bin, -hang-, -flood- (harness
 * inputs; replay with this harness). Writing is rate-limited (a burst of
 * 20, then one file a second, at most 500 per process); P-diff-summary.txt
 * counts everything.
 *
 * Environment: TC_DIFF_ADAPTER (default build/adapters/libtc_opencsd.so, or the
 * TC_DIFF_ADAPTER_BESIDE path from the executable's folder when the build defines it: OSS-Fuzz),
 * TC_DIFF_FINDINGS (default fuzz/findings), TC_DIFF_SUMMARY (the summary's
 * file name), TC_DIFF_TIMEOUT (seconds per input, default 5),
 * TC_DIFF_PERSIST (inputs per adapter process, default 1: a fresh child per
 * input; N > 1 is faster, and an input whose process crashes is re-run
 * alone in a fresh one before it is recorded as a crash, or as
 * P-diff-flaky-<hash>.bin when it does not crash alone), TC_DIFF_WRITE=1
 * (the regression driver writes finding files too).
 *
 * Input: the configuration (the rules' read_config, else one byte per key
 * of the descriptor, fuzz.h tc_fuzz_proto_config), then one byte: bit 7
 * feeds the adapter in chunks (bits 6:0 are the chunking,
 * tc_fuzz_chunks_init), then the trace.
 */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diff.h"
#include "tracecert/adapter.h"
#include "vector.h"

#ifndef TC_FUZZ_PROTOCOL
#error "TC_FUZZ_PROTOCOL names the protocol (fuzz/fuzz.mk)"
#endif

#define SHM_SIZE (16u << 20)
#define SHM_INPUT (1u << 20)   /* larger traces go to a child forked directly */
#define MAX_SIGS 4096
#define MAX_FILES 500
#define MAX_SHOWN 400

#define CONFIG_MAX 1024   /* bytes of a protocol's configuration struct */

/* A protocol without rules of its own (diff.h): compared line for line,
 * its configuration one byte per key. */
static const struct tc_diff_rules no_rules = { TC_FUZZ_PROTOCOL, NULL, NULL, NULL, 0, NULL, NULL, NULL,
					       "the protocol's FORMAT.md and ERRATA.md" };

/* ---- State set at init (the adapter; the shared buffer) ---------------------- */

static const struct tc_protocol *proto;
static const struct tc_diff_rules *rules;
static const struct tc_adapter *adapter;
static const char *adapter_path;
static const char *findings = "fuzz/findings";
static char summary_name[128];   /* TC_DIFF_SUMMARY (one per process of a JOBS run), else P-diff-summary.txt */
static int write_when_replaying;   /* TC_DIFF_WRITE=1: the regress driver writes candidates too (tests) */
static unsigned timeout_s = 5;
static unsigned persist = 1;   /* inputs per worker process (TC_DIFF_PERSIST) */

/* Shared with the children: the input (written by the harness) and the
 * adapter's output lines (written by the child). */
struct shm {
	volatile int32_t done;            /* the child finished the run */
	int32_t open_ok, feed_rc, finish_rc;
	uint32_t flood;
	int32_t chunk_seed;               /* < 0: feed whole */
	volatile uint32_t busy;           /* a worker is inside request busy_seq */
	volatile uint32_t busy_seq;
	volatile uint32_t zygote_eof;
	uint64_t nlines;
	uint64_t used;
	uint64_t limit_lines;
	uint64_t input_len;
	union {
		max_align_t align;
		uint8_t bytes[CONFIG_MAX];
	} cfg;
	char err[256];
	uint8_t input[SHM_INPUT];
	char text[];
};

static struct shm *shm;
static const uint8_t *direct_trace;   /* the trace when it does not fit shm->input */

/* The zygote: a small process forked at init, before the fuzzer loads its
 * corpus, that forks one child per input. Forking the fuzzer itself (ASan,
 * hundreds of MB mapped) cost ~10 ms per input. */
static pid_t zygote = -1;
static int zy_cmd = -1, zy_resp = -1;
static uint32_t zy_count;

/* Only the de-duplication of finding files survives between inputs: it
 * decides what is written for a human, never what the harness checks. */
static struct {
	uint64_t inputs, refused, agree, explained, divergent, crash, hang, flood, flaky, adapter_error, files, dropped;
	uint64_t sig[MAX_SIGS];
	char *sig_text[MAX_SIGS];
	uint64_t sig_count[MAX_SIGS];
	int nsig;
	double tokens;
	time_t last;
	uint64_t per_reason[TC_DIFF_EXPLAINED_MAX];
} st;

/* ---- The reference side (in process) ------------------------------------------- */

struct ref_run {
	struct tc_diff_lines out;
	uint64_t last_off;
	size_t len;
};

static void ref_item(void *ctx, int level, const struct tc_item *item)
{
	struct ref_run *r = ctx;
	char buf[TC_FUZZ_LINE];
	int n;
	if (level != tc_level_l1 || proto->item_is_warning(level, item))
		return;   /* warnings are never scored (certify) */
	n = proto->format(buf, sizeof buf, level, item);
	TC_FUZZ_CHECK(n > 0 && n < TC_FUZZ_LINE, "reference line of %d bytes", n);
	TC_FUZZ_CHECK(item->offset < r->len && item->offset >= r->last_off, "reference packet offset %llu",
		      (unsigned long long)item->offset);
	r->last_off = item->offset;
	tc_diff_lines_add(&r->out, buf, (size_t)n);
}

/* ---- The adapter side (in a child) ------------------------------------------------ */

/* Ends the child: an adapter error (counted, not a finding). */
_Noreturn static void child_adapter_error(const char *what, int level)
{
	snprintf(shm->err, sizeof shm->err, "%s (level %d)", what, level);
	shm->feed_rc = -1;
	shm->done = 1;
	_exit(0);
}

/* An L1 item of the adapter: the protocol's packet record (the checks
 * certify makes before formatting; anything else ends the child as an
 * adapter error). */
static void child_item(void *ctx, int level, const struct tc_item *item)
{
	char buf[TC_FUZZ_LINE];
	int n;
	(void)ctx;
	if (level != tc_level_l1 || !item || item->protocol != (unsigned)proto->id || item->size != proto->l1_size ||
	    item->kind >= (unsigned)proto->l1_kinds)
		child_adapter_error("malformed item", level);
	if (proto->item_is_warning(level, item))
		return;   /* never scored */
	if (shm->nlines >= shm->limit_lines) {
		shm->flood = 1;
		_exit(3);   /* the adapter may never stop: end the child here */
	}
	n = proto->format(buf, sizeof buf, level, item);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof buf)
		n = (int)sizeof buf - 1;
	if (shm->used + (size_t)n + 1 > SHM_SIZE - sizeof *shm) {   /* the text area */
		shm->flood = 1;
		_exit(3);
	}
	memcpy(shm->text + shm->used, buf, (size_t)n);
	shm->used += (size_t)n;
	shm->text[shm->used++] = '\n';
	shm->nlines++;
}

/* One adapter run on the input in shm. */
static void run_input(void)
{
	const uint8_t *trace = direct_trace ? direct_trace : shm->input;
	size_t len = (size_t)shm->input_len;
	int chunk_seed = shm->chunk_seed;
	struct tc_adapter_open_args a;
	void *h;
	alarm(timeout_s);
	memset(&a, 0, sizeof a);
	a.abi_version = TC_ADAPTER_ABI_VERSION;
	a.protocol = proto->id;
	a.config = shm->cfg.bytes;
	a.config_size = proto->config_size;
	a.levels = tc_level_l1;
	a.item = child_item;
	h = adapter->open(&a, shm->err, sizeof shm->err);
	if (h) {
		shm->open_ok = 1;
		if (chunk_seed < 0) {
			shm->feed_rc = adapter->feed(h, trace, len);
		} else {
			struct tc_fuzz_chunks c;
			size_t i = 0;
			tc_fuzz_chunks_init(&c, (uint8_t)chunk_seed);
			while (i < len && shm->feed_rc >= 0) {
				size_t n = tc_fuzz_chunk_next(&c, len - i);
				shm->feed_rc = adapter->feed(h, trace + i, n);
				i += n;
			}
		}
		if (shm->feed_rc >= 0)
			shm->finish_rc = adapter->finish(h);
		adapter->close(h);
	}
	alarm(0);
	shm->done = 1;
}

static void default_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGALRM, SIGTRAP, SIGPIPE };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		signal(sigs[i], SIG_DFL);
}

static size_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* A worker: takes up to `persist` requests (a sequence number each; the
 * input is in shm), runs each and answers {seq, 0}. If it dies inside a
 * request, the zygote answers {seq, wait status} for it. */
_Noreturn static void worker_main(int cmd, int resp)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	default_signals();
	for (unsigned i = 0; i < persist; i++) {
		uint32_t msg[2];
		if (read_full(cmd, &msg[0], sizeof msg[0]) != sizeof msg[0]) {
			shm->zygote_eof = 1;   /* the harness is gone */
			_exit(0);
		}
		shm->busy_seq = msg[0];
		shm->busy = 1;
		run_input();
		msg[1] = 0;
		shm->busy = 0;
		if (write(resp, msg, sizeof msg) != (ssize_t)sizeof msg)
			_exit(0);
	}
	_exit(0);
}

/* The zygote: keeps one worker forked ahead (the fork overlaps the
 * reference's decoding), answers for a worker that died in a request. */
_Noreturn static void zygote_main(int cmd, int resp)
{
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	for (;;) {
		int status = 0;
		pid_t pid;
		shm->busy = 0;
		pid = fork();
		if (pid == 0)
			worker_main(cmd, resp);
		if (pid < 0)
			_exit(1);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (shm->zygote_eof)
			_exit(0);
		if (shm->busy) {
			uint32_t msg[2] = { shm->busy_seq, (uint32_t)status };
			if (write(resp, msg, sizeof msg) != (ssize_t)sizeof msg)
				_exit(0);
		}
	}
}

static void zygote_stop(void)
{
	if (zygote > 0) {
		close(zy_cmd);
		close(zy_resp);
		kill(zygote, SIGKILL);
		while (waitpid(zygote, NULL, 0) < 0 && errno == EINTR)
			;
	}
	zygote = -1;
}

static void zygote_start(void)
{
	int cmd[2], resp[2];
	if (pipe(cmd) || pipe(resp))
		return;
	shm->zygote_eof = 0;
	fflush(NULL);
	zygote = fork();
	if (zygote == 0) {
		close(cmd[1]);
		close(resp[0]);
		zygote_main(cmd[0], resp[1]);
	}
	close(cmd[0]);
	close(resp[1]);
	if (zygote < 0) {
		close(cmd[1]);
		close(resp[0]);
		return;
	}
	zy_cmd = cmd[1];
	zy_resp = resp[0];
}

/* Runs the adapter on the input in shm in a worker; the wait status of a
 * worker that died in it, else 0. */
static int run_child(void)
{
	int status = 0;
	pid_t pid;
	if (!direct_trace) {
		for (int attempt = 0; attempt < 2; attempt++) {
			/* unique across processes forked from one template (AFL++, the regression driver) */
			uint32_t seq = (uint32_t)getpid() << 12 ^ ++zy_count, msg[2];
			if (zygote <= 0)
				zygote_start();
			if (zygote > 0 && write(zy_cmd, &seq, sizeof seq) == (ssize_t)sizeof seq) {
				while (read_full(zy_resp, msg, sizeof msg) == sizeof msg)
					if (msg[0] == seq)   /* else a reply to a process killed while waiting */
						return (int)msg[1];
			}
			zygote_stop();   /* gone: start another (forked from here, slower) */
		}
	}
	fflush(NULL);
	pid = fork();
	TC_FUZZ_CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		default_signals();
		run_input();
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		TC_FUZZ_CHECK(errno == EINTR, "waitpid: %s", strerror(errno));
	return status;
}

/* ---- Finding files ------------------------------------------------------------------ */

static int may_write(void)
{
	time_t now = time(NULL);
	if ((tc_fuzz_regress_mode && !write_when_replaying) || st.files >= MAX_FILES)
		return 0;
	if (st.last == 0)
		st.tokens = 20;
	else
		st.tokens += (double)(now - st.last);
	if (st.tokens > 20)
		st.tokens = 20;
	st.last = now;
	if (st.tokens < 1) {
		st.dropped++;
		return 0;
	}
	st.tokens -= 1;
	st.files++;
	return 1;
}

static FILE *open_finding(const char *kind, uint64_t hash, const char *ext, char *path, size_t pathlen)
{
	FILE *f;
	mkdir(findings, 0777);
	snprintf(path, pathlen, "%s/%s_diff%s%s-%016llx.%s", findings, proto->name, kind[0] ? "-" : "", kind,
		 (unsigned long long)hash, ext);
	f = fopen(path, "wb");
	if (!f)
		fprintf(stderr, "diff: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

static void write_summary(void)
{
	char path[1024];
	FILE *f;
	if (tc_fuzz_regress_mode)
		return;
	mkdir(findings, 0777);
	snprintf(path, sizeof path, "%s/%s", findings, summary_name);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "protocol %s; adapter: %s (%s %s)\n", proto->name, adapter_path, adapter->name, adapter->version);
	fprintf(f, "inputs %llu: refused configuration %llu, agree %llu, explained %llu, divergent %llu (%d signatures), adapter crash %llu, "
		   "hang %llu, flood %llu, flaky %llu, adapter-error %llu; files written %llu, not written (rate limit) %llu\n",
		(unsigned long long)st.inputs, (unsigned long long)st.refused, (unsigned long long)st.agree,
		(unsigned long long)st.explained, (unsigned long long)st.divergent, st.nsig, (unsigned long long)st.crash,
		(unsigned long long)st.hang, (unsigned long long)st.flood, (unsigned long long)st.flaky, (unsigned long long)st.adapter_error,
		(unsigned long long)st.files, (unsigned long long)st.dropped);
	fprintf(f, "explained divergences by reason:\n");
	for (int i = 0; i < rules->nexplained; i++)
		if (st.per_reason[i])
			fprintf(f, "  %8llu  %s\n", (unsigned long long)st.per_reason[i], rules->explained[i].why);
	fprintf(f, "divergence signatures (diff.c signature()), inputs:\n");
	for (int i = 0; i < st.nsig; i++)
		fprintf(f, "  %8llu  %s\n", (unsigned long long)st.sig_count[i], st.sig_text[i]);
	fclose(f);
}

static void record_bin(const char *kind, const uint8_t *data, size_t size, const char *detail)
{
	char path[1024];
	uint64_t hash = tc_fuzz_hash_bytes(data, size);
	FILE *f;
	fprintf(stderr, "diff: adapter %s (%s)%s\n", kind, detail, tc_fuzz_regress_mode ? "" : "; input saved");
	if (!may_write())
		return;
	f = open_finding(kind, hash, "bin", path, sizeof path);
	if (!f)
		return;
	fwrite(data, 1, size, f);
	fclose(f);
	fprintf(stderr, "diff: wrote %s\n", path);
	write_summary();
}

/* The lines of one side into the description, the one at `at` marked ">>"
 * (an excerpt of MAX_SHOWN lines around it when there are more). */
static void describe_lines(FILE *f, const char *who, const struct tc_diff_lines *l, size_t at)
{
	size_t from = 0, to = l->n;
	if (l->n > MAX_SHOWN) {
		from = at > MAX_SHOWN / 2 ? at - MAX_SHOWN / 2 : 0;
		to = from + MAX_SHOWN < l->n ? from + MAX_SHOWN : l->n;
	}
	fprintf(f, "%s L1 (%zu lines%s):\n", who, l->n, from > 0 || to < l->n ? ", an excerpt" : "");
	if (from > 0)
		fprintf(f, "  ... %zu lines\n", from);
	for (size_t i = from; i < to; i++)
		fprintf(f, "%s %s\n", i == at ? ">>" : "  ", tc_diff_line_at(l, i));
	if (to < l->n)
		fprintf(f, "  ... %zu lines\n", l->n - to);
}

/* The description of a candidate: what disagrees, how to decide, both outputs. */
static char *candidate_description(size_t hdr_len, const uint8_t *data, const struct tc_diff_lines *ref,
				   const struct tc_diff_lines *ad, size_t at, const char *sig)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);
	if (!f)
		return NULL;
	fprintf(f, "CANDIDATE from fuzz/diff.c (%s_diff), not a vector yet: the reference and the adapter\n", proto->name);
	fprintf(f, "%s (%s) disagree at L1 line %zu:\n", adapter->name, adapter->version, at + 1);
	fprintf(f, "  reference: %s\n", tc_diff_line_at(ref, at) ? tc_diff_line_at(ref, at) : "(end of output)");
	fprintf(f, "  adapter:   %s\n", tc_diff_line_at(ad, at) ? tc_diff_line_at(ad, at) : "(end of output)");
	fprintf(f, "signature: %s\n", sig);
	fprintf(f, "Harness input: the %zu header bytes", hdr_len);
	for (size_t i = 0; i < hdr_len; i++)
		fprintf(f, " %02x", data[i]);
	fprintf(f, ", then the trace below.\n");
	fprintf(f, "To turn it into a vector: decide from %s what each packet is,\n", rules->spec);
	fprintf(f, "write [expect.l1] (or [error]) by hand with the reasoning as comments, and move\n");
	fprintf(f, "it to vectors/%s/regress/. Never copy either output below as expected.\n", proto->name);
	describe_lines(f, "reference", ref, at);
	describe_lines(f, "adapter", ad, at);
	fclose(f);
	return text;
}

/* A candidate vector through the vector writer: the configuration the
 * harness ran (queue capacities and every key off its default included),
 * the trace, the outputs in the description. */
static void write_candidate(const void *cfg, const uint8_t *data, size_t size, size_t hdr_len, const uint8_t *trace,
			    size_t len, const struct tc_diff_lines *ref, const struct tc_diff_lines *ad, size_t at,
			    const char *sig)
{
	char path[1024], err[512];
	char *description = candidate_description(hdr_len, data, ref, ad, at, sig), *text;
	struct tc_vwriter w;
	tc_vwrite_begin(&w);
	tc_vwrite_comment(&w, description ? description : "CANDIDATE from fuzz/diff.c (out of memory for the rest)");
	tc_vwrite_config(&w, proto, cfg, 0);
	tc_vwrite_tags(&w, "fuzz diff");
	if (len)
		tc_vwrite_trace(&w, trace, len);
	free(description);
	text = tc_vwrite_end(&w, err, sizeof err);
	mkdir(findings, 0777);
	snprintf(path, sizeof path, "%s/%s_diff-%016llx.tcv", findings, proto->name,
		 (unsigned long long)tc_fuzz_hash_bytes(data, size));
	if (!text || tc_vector_save(path, text, err, sizeof err)) {
		fprintf(stderr, "diff: cannot write the candidate %s: %s\n", path, err);
		free(text);
		return;
	}
	free(text);
	fprintf(stderr, "diff: new divergence %s: wrote %s\n", sig, path);
}

/* ---- Comparison ---------------------------------------------------------------------- */

/* Appends to out the keys of a whose value differs in b (or, with
 * only_missing, the keys of a that b lacks). */
static void add_fields(char *out, size_t outsz, const char *a, const char *b, int only_missing)
{
	size_t len;
	const char *t;
	for (int i = 3; (t = tc_diff_token(a, i, &len)) != NULL; i++) {
		size_t klen = strcspn(t, "= "), va, vb = 0;
		const char *x, *y;
		if (klen >= len)
			continue;
		x = t + klen + 1;
		va = len - klen - 1;
		y = tc_diff_field(b, t, klen, &vb);
		if (y && (only_missing || (va == vb && !memcmp(x, y, va))))
			continue;
		snprintf(out + strlen(out), outsz - strlen(out), "%s%.*s", out[strlen(out) - 1] == ':' ? "" : ",",
			 (int)klen, t);
	}
}

/* "kind" or "error[class]" of a line, for signatures. */
static void describe(char *out, size_t outsz, const char *line)
{
	size_t k = 0, v = 0;
	const char *kind = line ? tc_diff_token(line, 2, &k) : NULL, *cls;
	if (!kind) {
		snprintf(out, outsz, "start");
		return;
	}
	cls = tc_diff_field(line, "class", 5, &v);
	if (cls)
		snprintf(out, outsz, "%.*s[%.*s]", (int)k, kind, (int)v, cls);
	else
		snprintf(out, outsz, "%.*s", (int)k, kind);
}

/* Whether the n characters at f name one of the rules' context fields. */
static int context_field(const char *f, size_t n)
{
	for (int i = 0; rules->context_fields && rules->context_fields[i]; i++)
		if (strlen(rules->context_fields[i]) == n && !strncmp(rules->context_fields[i], f, n))
			return 1;
	return 0;
}

/* A list of differing fields ("kind/kind:f1,f2") that are all context
 * fields of the rules becomes "kind/kind:context": one cause (a context
 * value carried or reset differently) gives one signature, not one for
 * every combination of values. */
static void only_context_fields(char *sig, size_t sigsz)
{
	char *list = strchr(sig, ':');
	const char *f;
	if (!list || !list[1] || !rules->context_fields)
		return;
	for (f = list + 1; *f;) {
		size_t n = strcspn(f, ",");
		if (!context_field(f, n))
			return;
		f += n + (f[n] == ',');
	}
	snprintf(list + 1, sigsz - (size_t)(list + 1 - sig), "context");
}

/* Signature of the first divergence, by cause where the streams fall out
 * of step (prev is the last line both have):
 *   reference-ended-first after P, adapter-ended-first after P,
 *   reference-resyncs-later after P (the reference skips to a later A-sync
 *   where the adapter goes on decoding), adapter-extra:K, reference-extra:K
 *   (one side has an item at an offset the other skips);
 * else, at the same offset: "refkind/adkind:fields that differ". */
static void signature(char *out, size_t outsz, const char *ref, const char *ad, const char *prev)
{
	char p[64], a[64], r[64];
	size_t rk = 0, ak = 0, rh = 0, ah = 0;
	const char *rkind, *akind, *rhdr, *ahdr;
	describe(p, sizeof p, prev);
	describe(r, sizeof r, ref);   /* "kind" or "error[class]" */
	describe(a, sizeof a, ad);
	if (!ref || !ad) {
		snprintf(out, outsz, "%s-ended-first after %s", ref ? "adapter" : "reference", p);
		return;
	}
	if (tc_diff_line_offset(ref) != tc_diff_line_offset(ad)) {
		if (rules->sync_kind && tc_diff_kind_is(ref, rules->sync_kind) && tc_diff_line_offset(ref) > tc_diff_line_offset(ad))
			snprintf(out, outsz, "reference-resyncs-later after %s", p);
		else if (tc_diff_line_offset(ad) < tc_diff_line_offset(ref))
			snprintf(out, outsz, "adapter-extra:%s", a);
		else
			snprintf(out, outsz, "reference-extra:%s", r);
		return;
	}
	rkind = tc_diff_token(ref, 2, &rk);
	akind = tc_diff_token(ad, 2, &ak);
	rhdr = tc_diff_token(ref, 1, &rh);
	ahdr = tc_diff_token(ad, 1, &ah);
	snprintf(out, outsz, "%s/%s:", r, a);
	if (rh != ah || memcmp(rhdr, ahdr, rh))
		snprintf(out + strlen(out), outsz - strlen(out), "header");
	if (rk == ak && !memcmp(rkind, akind, rk)) {
		add_fields(out, outsz, ref, ad, 0);
		add_fields(out, outsz, ad, ref, 1);
		only_context_fields(out, outsz);
	}
}

/* The index of the rules' explanation of reference line ref against
 * adapter line ad by kind, or -1. */
static int explain(const char *ref, const char *ad)
{
	size_t rk = 0;
	const char *rkind = ref ? tc_diff_token(ref, 2, &rk) : NULL;
	if (!rkind)
		return -1;
	for (int i = 0; i < rules->nexplained; i++) {
		const struct tc_diff_explained *e = &rules->explained[i];
		if (e->adapter && strcmp(e->adapter, adapter->name))
			continue;
		if (strlen(e->ref_kind) != rk || strncmp(rkind, e->ref_kind, rk))
			continue;
		if (e->ref_has && !strstr(ref, e->ref_has))
			continue;
		if (e->ad_has && (!ad || !strstr(ad, e->ad_has)))
			continue;
		return i;
	}
	return -1;
}

static void record_signature(const char *sig, int *is_new)
{
	uint64_t h = tc_fuzz_hash_bytes((const uint8_t *)sig, strlen(sig));
	for (int i = 0; i < st.nsig; i++)
		if (st.sig[i] == h) {
			st.sig_count[i]++;
			*is_new = 0;
			return;
		}
	*is_new = 1;
	if (st.nsig < MAX_SIGS) {
		st.sig[st.nsig] = h;
		st.sig_text[st.nsig] = strdup(sig);
		st.sig_count[st.nsig] = 1;
		st.nsig++;
	}
}

static void forget_signature(const char *sig)
{
	uint64_t h = tc_fuzz_hash_bytes((const uint8_t *)sig, strlen(sig));
	if (st.nsig > 0 && st.sig[st.nsig - 1] == h) {
		st.nsig--;
		free(st.sig_text[st.nsig]);
	}
}

/* ---- Entry points ------------------------------------------------------------------------- */

static void at_exit(void)
{
	if (!adapter || tc_fuzz_regress_mode)
		return;
	write_summary();
	fprintf(stderr, "diff: %llu inputs: refused configuration %llu, agree %llu, explained %llu, divergent %llu "
			"(%d signatures), adapter crash %llu, hang %llu, flood %llu, adapter-error %llu; %llu finding files in %s\n",
		(unsigned long long)st.inputs, (unsigned long long)st.refused, (unsigned long long)st.agree,
		(unsigned long long)st.explained, (unsigned long long)st.divergent, st.nsig, (unsigned long long)st.crash,
		(unsigned long long)st.hang, (unsigned long long)st.flood, (unsigned long long)st.adapter_error,
		(unsigned long long)st.files, findings);
}

/* Whether the adapter declares the protocol at L1. */
static int adapter_has_l1(const struct tc_adapter *ad)
{
	for (size_t i = 0; ad->protocols && i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == proto->id)
			return (ad->protocols[i].levels & tc_level_l1) != 0;
	return 0;
}

/* The protocol's rules, or none. */
static const struct tc_diff_rules *find_rules(void)
{
	for (int i = 0; tc_diff_rules_table[i]; i++)
		if (!strcmp(tc_diff_rules_table[i]->protocol, proto->name))
			return tc_diff_rules_table[i];
	return &no_rules;
}

/* Fails init: in the regression driver the harness is skipped, else the process ends. */
static int init_failed(void)
{
	adapter = NULL;
	if (tc_fuzz_regress_mode)
		return -1;
	exit(1);
}

/* Without TC_DIFF_ADAPTER: TC_DIFF_ADAPTER_BESIDE (a path from the executable's folder) when the
 * build defines it (an OSS-Fuzz build, fuzz/oss-fuzz.mk), else OpenCSD's adapter of the build. */
static const char *default_adapter_path(void)
{
#ifdef TC_DIFF_ADAPTER_BESIDE
	static char beside[4096];
	const char *path = tc_fuzz_beside_exe(TC_DIFF_ADAPTER_BESIDE, beside, sizeof beside);
	if (path)
		return path;
#endif
	return "build/adapters/libtc_opencsd.so";
}

static void read_environment(void)
{
	const char *env;
	adapter_path = getenv("TC_DIFF_ADAPTER");
	if (!adapter_path || !*adapter_path)
		adapter_path = default_adapter_path();
	if ((env = getenv("TC_DIFF_FINDINGS")) && *env)
		findings = env;
	write_when_replaying = (env = getenv("TC_DIFF_WRITE")) && !strcmp(env, "1");
	snprintf(summary_name, sizeof summary_name, "%s_diff-summary.txt", proto->name);
	if ((env = getenv("TC_DIFF_SUMMARY")) && *env && !strchr(env, '/'))
		snprintf(summary_name, sizeof summary_name, "%s", env);
	if ((env = getenv("TC_DIFF_TIMEOUT")) && atoi(env) > 0)
		timeout_s = (unsigned)atoi(env);
	if ((env = getenv("TC_DIFF_PERSIST")) && atoi(env) > 0)
		persist = (unsigned)atoi(env);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	void *so;
	tc_adapter_entry_fn entry;
	(void)argc;
	(void)argv;
	proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	if (!proto || proto->config_size > CONFIG_MAX) {
		fprintf(stderr, "diff: protocol '%s' %s\n", TC_FUZZ_PROTOCOL,
			proto ? "has a configuration larger than CONFIG_MAX" : "is not in this build");
		return init_failed();
	}
	rules = find_rules();
	if (rules->nexplained > TC_DIFF_EXPLAINED_MAX) {
		fprintf(stderr, "diff: %s: more than %d explanations\n", proto->name, TC_DIFF_EXPLAINED_MAX);
		return init_failed();
	}
	read_environment();
	so = dlopen(adapter_path, RTLD_NOW | RTLD_LOCAL);
	entry = so ? (tc_adapter_entry_fn)(uintptr_t)dlsym(so, TC_ADAPTER_ENTRY) : NULL;
	adapter = entry ? entry() : NULL;
	if (adapter && adapter->abi_version == TC_ADAPTER_ABI_VERSION && !adapter_has_l1(adapter)) {
		/* An adapter that does not decode the protocol (one OpenCSD has no decoder of): there is
		 * nothing to compare it with, so every input passes; said once, not a failure. */
		fprintf(stderr, "diff: adapter %s (%s) has no L1 support for protocol %s: nothing to compare, every input passes\n",
			adapter_path, adapter->name, proto->name);
		adapter = NULL;
		return 0;
	}
	if (!adapter || adapter->abi_version != TC_ADAPTER_ABI_VERSION) {
		fprintf(stderr, "diff: cannot use adapter %s: %s\n", adapter_path,
			!so ? dlerror() : !entry ? "no " TC_ADAPTER_ENTRY : !adapter ? "entry returned NULL"
			: "ABI version mismatch");
		fprintf(stderr, "diff: set TC_DIFF_ADAPTER to an adapter .so (make %s builds OpenCSD's)\n",
			"build/adapters/libtc_opencsd.so");
		return init_failed();
	}
	shm = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		perror("diff: mmap");
		return init_failed();
	}
	signal(SIGPIPE, SIG_IGN);   /* a dead zygote is noticed by write() */
	zygote_start();
	if (!tc_fuzz_regress_mode) {
		fprintf(stderr, "diff: protocol %s, adapter %s (%s %s); findings in %s\n", proto->name, adapter_path,
			adapter->name, adapter->version, findings);
		atexit(at_exit);
	}
	return 0;
}

/* The configuration from the head of the input (the rules' layout, else one byte per key). */
static void read_config(struct tc_fuzz_in *in, void *cfg)
{
	if (rules->read_config)
		rules->read_config(in, cfg);
	else
		tc_fuzz_proto_config(proto, in, cfg);
}

/* The reference's L1 lines of the trace; 0, or -1 when the protocol
 * refuses the configuration. */
static int run_reference(const void *cfg, const uint8_t *trace, size_t len, struct ref_run *ref)
{
	union {
		max_align_t align;
		uint8_t bytes[CONFIG_MAX];
	} fitted;
	struct tc_sink sink;
	char why[200];
	void *d;
	if (proto->config_check(cfg, why, sizeof why))
		return -1;
	memcpy(fitted.bytes, cfg, proto->config_size);
	if (rules->fit_config)
		rules->fit_config(fitted.bytes, len);
	memset(ref, 0, sizeof *ref);
	ref->len = len;
	memset(&sink, 0, sizeof sink);
	sink.ctx = ref;
	sink.levels = tc_level_l1;
	sink.item = ref_item;
	d = proto->alloc(fitted.bytes, &sink);
	TC_FUZZ_CHECK(d != NULL, "%s: alloc of a configuration config_check accepts", proto->name);
	proto->feed(d, trace, len);
	proto->finish(d);
	proto->free(d);
	TC_FUZZ_CHECK(ref->out.n <= 2 * len + 1, "reference: %zu packets from %zu bytes", ref->out.n, len);
	return 0;
}

/* The adapter's run in a worker (shm); classifies crash, hang, flood and
 * adapter error. Returns 1 when there is output to compare. */
static int run_adapter(const void *cfg, int chunk_seed, const uint8_t *data, size_t size, const uint8_t *trace,
		       size_t len)
{
	int status;
	shm->done = 0;
	shm->open_ok = shm->feed_rc = shm->finish_rc = 0;
	shm->flood = 0;
	shm->nlines = shm->used = 0;
	shm->err[0] = '\0';
	shm->limit_lines = 64 * (uint64_t)len + 64;
	memcpy(shm->cfg.bytes, cfg, proto->config_size);
	shm->chunk_seed = chunk_seed;
	shm->input_len = len;
	direct_trace = NULL;
	if (len <= SHM_INPUT)
		memcpy(shm->input, trace, len);
	else
		direct_trace = trace;
	status = run_child();
	if (persist > 1 && (WIFSIGNALED(status) || (status && !shm->done && !shm->flood))) {
		/* a worker that ran other inputs before: does this one crash alone? */
		int again;
		shm->done = 0;
		shm->open_ok = shm->feed_rc = shm->finish_rc = 0;
		shm->nlines = shm->used = 0;
		again = run_child();
		if (!WIFSIGNALED(again) && shm->done) {
			st.flaky++;
			record_bin("flaky", data, size, "crashed after earlier inputs in the same worker, not alone");
			return 0;
		}
		status = again;
	}
	if (shm->flood) {
		st.flood++;
		record_bin("flood", data, size, "output over the limit");
		return 0;
	}
	if (WIFSIGNALED(status) || !shm->done) {
		char what[64];
		int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		if (sig == SIGALRM || sig == SIGXCPU) {
			st.hang++;
			snprintf(what, sizeof what, "no end within %u s", timeout_s);
			record_bin("hang", data, size, what);
		} else {
			st.crash++;
			if (sig)
				snprintf(what, sizeof what, "signal %d", sig);
			else
				snprintf(what, sizeof what, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			record_bin("crash", data, size, what);
		}
		return 0;
	}
	if (!shm->open_ok || shm->feed_rc < 0 || shm->finish_rc < 0) {   /* refused configuration, failed feed */
		st.adapter_error++;
		return 0;
	}
	return 1;
}

/* The adapter's lines from the shared text area. */
static void read_adapter_lines(struct tc_diff_lines *ad)
{
	memset(ad, 0, sizeof *ad);
	for (size_t i = 0; i < shm->used;) {
		char *nl = memchr(shm->text + i, '\n', shm->used - i);
		TC_FUZZ_CHECK(nl != NULL, "child output not line-terminated");
		tc_diff_lines_add(ad, shm->text + i, (size_t)(nl - (shm->text + i)));
		i = (size_t)(nl - shm->text) + 1;
	}
	TC_FUZZ_CHECK(ad->n == shm->nlines, "child wrote %llu lines, %zu read", (unsigned long long)shm->nlines, ad->n);
}

/* What one input's comparison needs to record a candidate. */
struct input {
	const void *cfg;
	const uint8_t *data, *trace;
	size_t size, hdr_len, len;
};

/* A divergence no rule explains: counted, written once per signature. */
static void record_divergence(const struct input *in, const struct tc_diff_lines *ref, const struct tc_diff_lines *ad,
			      size_t at)
{
	char sig[256];
	int is_new;
	signature(sig, sizeof sig, tc_diff_line_at(ref, at), tc_diff_line_at(ad, at),
		  at > 0 ? tc_diff_line_at(ref, at - 1) : NULL);
	st.divergent++;
	if (tc_fuzz_regress_mode)
		fprintf(stderr, "diff: line %zu divergent: %s\n", at + 1, sig);
	record_signature(sig, &is_new);
	if (!is_new)
		return;
	if (may_write()) {
		write_candidate(in->cfg, in->data, in->size, in->hdr_len, in->trace, in->len, ref, ad, at, sig);
		write_summary();
	} else {
		forget_signature(sig);   /* written when the rate allows */
	}
}

/* Compares the two sides line by line up to the first divergence. */
static void compare(const struct input *in, const struct tc_diff_lines *ref, const struct tc_diff_lines *ad)
{
	size_t at;
	int skipped = 0;
	for (at = 0; at < ref->n || at < ad->n; at++) {
		const char *r = tc_diff_line_at(ref, at), *a = tc_diff_line_at(ad, at);
		int why;
		if (r && a && !strcmp(r, a))
			continue;
		why = explain(r, a);
		if (why < 0 && rules->explain_in_context)
			why = rules->explain_in_context(ref, at, r, a, in->cfg, in->trace, in->len, adapter->name);
		if (why >= 0) {
			st.per_reason[why]++;
			if (rules->explained[why].skip) {
				skipped = 1;
				continue;
			}
			st.explained++;
			if (tc_fuzz_regress_mode)
				fprintf(stderr, "diff: line %zu explained: %s\n", at + 1, rules->explained[why].why);
			return;
		}
		record_divergence(in, ref, ad, at);
		return;
	}
	if (skipped)
		st.explained++;
	else
		st.agree++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	union {
		max_align_t align;
		uint8_t bytes[CONFIG_MAX];
	} cfg;
	struct tc_fuzz_in in = { data, size };
	struct input input;
	struct ref_run ref;
	struct tc_diff_lines ad;
	int chunk_seed;
	uint8_t chunking;
	if (!adapter)
		return 0;
	memset(&cfg, 0, sizeof cfg);
	read_config(&in, cfg.bytes);
	if (in.n < 1)
		return 0;
	chunking = tc_fuzz_u8(&in);
	chunk_seed = chunking & 0x80 ? chunking & 0x7f : -1;
	input.cfg = cfg.bytes;
	input.data = data;
	input.size = size;
	input.hdr_len = size - in.n;
	input.trace = in.p;
	input.len = in.n;
	st.inputs++;
	if (run_reference(cfg.bytes, input.trace, input.len, &ref)) {
		st.refused++;
		return 0;
	}
	if (run_adapter(cfg.bytes, chunk_seed, data, size, input.trace, input.len)) {
		read_adapter_lines(&ad);
		compare(&input, &ref.out, &ad);
		tc_diff_lines_free(&ad);
	}
	tc_diff_lines_free(&ref.out);
	return 0;
}
