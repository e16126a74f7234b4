/* diff.c — differential fuzz harness: the reference decoder against an adapter (OpenCSD by default) at L1.
 *
 * Property (of the harness, the only thing that aborts): the reference
 * decodes any input within the parse harness's output bounds, and the
 * adapter run is isolated: it runs in a forked child per input with a time
 * limit and an output limit, so an adapter crash, hang or flood is recorded
 * as a finding file and fuzzing goes on. The children are forked by a small
 * zygote process started at init (forking the fuzzer itself per input was
 * ~10 ms), one ahead, so that the fork overlaps the reference's decoding;
 * input and output travel through shared memory.
 *
 * What it looks for (recorded, never fatal): inputs where the two L1
 * outputs (formatted packet lines, same configuration) differ in a way no
 * documented ambiguity explains. Each new divergence signature (the kinds
 * and differing fields of the first differing line) is written once as a
 * candidate vector, $TC_DIFF_FINDINGS/diff-<hash>.tcv: configuration, trace
 * hex and both outputs as comments, no expect section (a human decides the
 * expected output from the spec). Adapter crashes, hangs and floods are
 * written as diff-crash-<hash>.bin, diff-hang-<hash>.bin,
 * diff-flood-<hash>.bin (harness inputs; replay with this harness). Writing
 * is rate-limited (a burst of 20, then one file a second, at most 500 per
 * process); diff-summary.txt counts everything.
 *
 * Environment: TC_DIFF_ADAPTER (default build/adapters/libtc_opencsd.so),
 * TC_DIFF_FINDINGS (default fuzz/findings), TC_DIFF_TIMEOUT (seconds per
 * input, default 5), TC_DIFF_PERSIST (inputs per adapter process, default 1:
 * a fresh child per input; N > 1 is faster, and an input whose process
 * crashes is re-run alone in a fresh one before it is recorded as a crash,
 * or as diff-flaky-<hash>.bin when it does not crash alone).
 *
 * Input: bytes 0–2 the configuration (fuzz.h tc_fuzz_config; ite and rme
 * are forced to 0: an adapter cannot be told them through ABI v1 options
 * OpenCSD understands), byte 3: bit 7 feeds the adapter in chunks (bits 6:0
 * are the chunking, tc_fuzz_chunks_init), then the trace.
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

#include "fuzz.h"
#include "tracecert/adapter.h"

#define SHM_SIZE (16u << 20)
#define SHM_INPUT (1u << 20)   /* larger traces go to a child forked directly */
#define MAX_SIGS 4096
#define MAX_FILES 500
#define MAX_SHOWN 400

/* ---- Divergences that documented ambiguities explain ------------------------
 * Keyed by adapter name. A reason ends the comparison of this input unless
 * `skip` is set (the streams stay in step: compare the following lines). */
struct explained {
	const char *adapter;       /* tc_adapter.name; NULL for any adapter */
	const char *ref_kind;      /* kind token of the reference line */
	const char *ref_has;       /* substring the reference line contains (or NULL) */
	const char *ad_has;        /* substring the adapter line contains (or NULL) */
	int skip;
	const char *why;
};

static const struct explained explanations[] = {
	/* reference/ete/ERRATA.md TC-P18: the queue bound is the reference's own option */
	{ NULL, "error", "class=queue-overflow", NULL, 0, "queue-overflow: reference queue_cap (ERRATA TC-P18)" },
	/* conformance/adapters/opencsd_ete.c, "Mapping decisions and what OpenCSD does not provide" */
	{ "opencsd", "error", "class=commit-overrun", NULL, 0, "opencsd: commit-overrun not checked (stage-1 class)" },
	{ "opencsd", "error", "class=cancel-overrun", NULL, 0, "opencsd: cancel-overrun not checked (stage-1 class)" },
	{ "opencsd", "error", "class=spec-mismatch", NULL, 0, "opencsd: spec-mismatch not checked (stage-1 class)" },
	{ "opencsd", "error", "class=reserved-field", NULL, 0, "opencsd: most reserved-field checks absent" },
	{ "opencsd", "error", "class=sbz", NULL, 0, "opencsd: most sbz checks absent" },
	{ "opencsd", "error", "class=field-overflow", NULL, 0, "opencsd: field-overflow checks absent" },
	{ "opencsd", "trace-info", " wndw=", NULL, 0, "opencsd: Trace Info WNDW not parsed" },
	{ "opencsd", "cycle-count", " cc=0", " cc=unknown", 1, "opencsd: a format-1 count of 0 prints as unknown" },
	/* opencsd_ete.c l1_packet, ETE_PKT_I_PE_RESET / ETE_PKT_I_TRANS_FAIL: one byte
	 * taken after the payload, not read as an address header; address 0 */
	{ "opencsd", "exception", " type=0x0 ", " type=0x0 addr=0x0 isa=0", 0, "opencsd: PE reset address not read" },
	{ "opencsd", "exception", " type=0x18 ", " type=0x18 addr=0x0 isa=0", 0,
	  "opencsd: Transaction Failure address not read" },
	/* Checked in code (explain_in_context), not by kind: */
	{ NULL, "", NULL, NULL, 0, "address before the first Trace Info: UNKNOWN in K10 (ERRATA TC-P29)" },
	{ NULL, "", NULL, NULL, 0, "format 2 cycle count under COMMOPT=1 committing MAXSPEC (ERRATA TC-S7-literal)" },
};

/* the last two entries */
#define EXPLAIN_BEFORE_TRACE_INFO ((int)(sizeof explanations / sizeof explanations[0]) - 2)
#define EXPLAIN_TC_S7_LITERAL ((int)(sizeof explanations / sizeof explanations[0]) - 1)

/* ---- State set at init (the adapter; the shared buffer) ---------------------- */

static const struct tc_adapter *adapter;
static const char *adapter_path;
static const char *findings = "fuzz/findings";
static const char *summary_name = "diff-summary.txt";   /* TC_DIFF_SUMMARY: one per process of a JOBS run */
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
	struct tc_ete_config cfg;
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
	uint64_t inputs, agree, explained, divergent, crash, hang, flood, flaky, adapter_error, files, dropped;
	uint64_t sig[MAX_SIGS];
	char *sig_text[MAX_SIGS];
	uint64_t sig_count[MAX_SIGS];
	int nsig;
	double tokens;
	time_t last;
	uint64_t per_reason[sizeof explanations / sizeof explanations[0]];
} st;

/* ---- Lines -------------------------------------------------------------------- */

struct lines {
	char *buf;
	size_t len, cap;
	size_t *off;
	size_t n, ncap;
};

static void lines_add(struct lines *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		l->cap = (l->len + n + 1) * 2 + 4096;
		l->buf = realloc(l->buf, l->cap);
		TC_FUZZ_CHECK(l->buf != NULL, "out of memory");
	}
	if (l->n == l->ncap) {
		l->ncap = l->ncap * 2 + 64;
		l->off = realloc(l->off, l->ncap * sizeof *l->off);
		TC_FUZZ_CHECK(l->off != NULL, "out of memory");
	}
	l->off[l->n++] = l->len;
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len++] = '\0';
}

static void lines_free(struct lines *l)
{
	free(l->buf);
	free(l->off);
	memset(l, 0, sizeof *l);
}

static const char *line_at(const struct lines *l, size_t i)
{
	return i < l->n ? l->buf + l->off[i] : NULL;
}

/* ---- The reference side (in process) ------------------------------------------- */

struct ref_run {
	struct lines out;
	uint64_t last_off;
	size_t len;
};

static void ref_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct ref_run *r = ctx;
	char buf[TC_FUZZ_LINE];
	int n;
	if (p->h.kind == tc_ete_pkt_warning)
		return;   /* never scored (reference/ete/FORMAT.md "Warnings") */
	n = tc_ete_format_packet(buf, sizeof buf, p);
	TC_FUZZ_CHECK(n > 0 && n < TC_FUZZ_LINE, "reference line of %d bytes", n);
	TC_FUZZ_CHECK(p->h.offset < r->len && p->h.offset >= r->last_off, "reference packet offset %llu",
		      (unsigned long long)p->h.offset);
	r->last_off = p->h.offset;
	lines_add(&r->out, buf, (size_t)n);
}

/* ---- The adapter side (in a child) ------------------------------------------------ */

/* An L1 item of the adapter: ETE's packet record (the checks certify makes
 * before formatting; anything else ends the child as an adapter error). */
static void child_item(void *ctx, int level, const struct tc_item *item)
{
	const struct tc_ete_packet *p = (const struct tc_ete_packet *)item;
	char buf[TC_FUZZ_LINE];
	int n;
	(void)ctx;
	if (level != tc_level_l1 || !item || item->protocol != tc_proto_ete || item->size != sizeof *p ||
	    item->kind >= tc_ete_pkt_count) {
		snprintf(shm->err, sizeof shm->err, "malformed item (level %d)", level);
		shm->feed_rc = -1;   /* counted as an adapter error */
		shm->done = 1;
		_exit(0);
	}
	if (shm->nlines >= shm->limit_lines) {
		shm->flood = 1;
		_exit(3);   /* the adapter may never stop: end the child here */
	}
	n = tc_ete_format_packet(buf, sizeof buf, p);
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
	const struct tc_ete_config *cfg = &shm->cfg;
	const uint8_t *trace = direct_trace ? direct_trace : shm->input;
	size_t len = (size_t)shm->input_len;
	int chunk_seed = shm->chunk_seed;
	struct tc_adapter_open_args a;
	void *h;
	alarm(timeout_s);
	memset(&a, 0, sizeof a);
	a.abi_version = TC_ADAPTER_ABI_VERSION;
	a.protocol = tc_proto_ete;
	a.config = cfg;
	a.config_size = sizeof *cfg;
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
	snprintf(path, pathlen, "%s/diff%s%s-%016llx.%s", findings, kind[0] ? "-" : "", kind,
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
	fprintf(f, "adapter: %s (%s %s)\n", adapter_path, adapter->name, adapter->version);
	fprintf(f, "inputs %llu: agree %llu, explained %llu, divergent %llu (%d signatures), adapter crash %llu, "
		   "hang %llu, flood %llu, flaky %llu, adapter-error %llu; files written %llu, not written (rate limit) %llu\n",
		(unsigned long long)st.inputs, (unsigned long long)st.agree, (unsigned long long)st.explained,
		(unsigned long long)st.divergent, st.nsig, (unsigned long long)st.crash, (unsigned long long)st.hang,
		(unsigned long long)st.flood, (unsigned long long)st.flaky, (unsigned long long)st.adapter_error,
		(unsigned long long)st.files, (unsigned long long)st.dropped);
	fprintf(f, "explained divergences by reason:\n");
	for (size_t i = 0; i < sizeof explanations / sizeof explanations[0]; i++)
		if (st.per_reason[i])
			fprintf(f, "  %8llu  %s\n", (unsigned long long)st.per_reason[i], explanations[i].why);
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

static void write_lines(FILE *f, const char *who, const struct lines *l, size_t at)
{
	size_t from = 0, to = l->n;
	if (l->n > MAX_SHOWN) {
		from = at > MAX_SHOWN / 2 ? at - MAX_SHOWN / 2 : 0;
		to = from + MAX_SHOWN < l->n ? from + MAX_SHOWN : l->n;
	}
	fprintf(f, "# %s L1 (%zu lines%s):\n", who, l->n, from > 0 || to < l->n ? ", an excerpt" : "");
	if (from > 0)
		fprintf(f, "#   ... %zu lines\n", from);
	for (size_t i = from; i < to; i++)
		fprintf(f, "# %s %s\n", i == at ? ">>" : "  ", line_at(l, i));
	if (to < l->n)
		fprintf(f, "#   ... %zu lines\n", l->n - to);
}

static void write_candidate(const struct tc_ete_config *cfg, const uint8_t *data, size_t size, const uint8_t *trace,
			    size_t len, const struct lines *ref, const struct lines *ad, size_t at, const char *sig)
{
	char path[1024];
	uint64_t hash = tc_fuzz_hash_bytes(data, size);
	FILE *f = open_finding("", hash, "tcv", path, sizeof path);
	if (!f)
		return;
	fprintf(f, "tracecert-vector 1\n");
	fprintf(f, "# CANDIDATE from fuzz/diff.c, not a vector yet: the reference and the adapter\n");
	fprintf(f, "# %s (%s) disagree at L1 line %zu:\n", adapter->name, adapter->version, at + 1);
	fprintf(f, "#   reference: %s\n", line_at(ref, at) ? line_at(ref, at) : "(end of output)");
	fprintf(f, "#   adapter:   %s\n", line_at(ad, at) ? line_at(ad, at) : "(end of output)");
	fprintf(f, "# signature: %s\n", sig);
	fprintf(f, "# Harness input: the 4 header bytes %02x %02x %02x %02x, then the trace below.\n", data[0],
		data[1], data[2], data[3]);
	fprintf(f, "# To turn it into a vector: decide from K10.5.2 what each packet is, write\n");
	fprintf(f, "# [expect.l1] (or [error]) by hand with the reasoning as comments, and move\n");
	fprintf(f, "# it to vectors/ete/regress/. Never copy either output below as expected.\n");
	fprintf(f, "[config]\nprotocol=ete\nmaxspec=%u\ncommopt=%d\ncommtrans=%d\ntsmark=%d\nite=%d\nrme=%d\n"
		   "tf_keep_cc=%d\n",
		cfg->maxspec, cfg->commopt, cfg->commtrans, cfg->tsmark, cfg->ite, cfg->rme, cfg->tf_keep_cc);
	/* the capacities of the harness's configuration (fuzz.h; a missing key
	 * is the vector default): a full queue is a queue-overflow line */
	if (cfg->queue_cap)
		fprintf(f, "queue_cap=%u\n", cfg->queue_cap);
	if (cfg->tx_cap)
		fprintf(f, "tx_cap=%u\n", cfg->tx_cap);
	fprintf(f, "[tags]\nfuzz diff\n[trace]\n");
	for (size_t i = 0; i < len; i += 16) {
		for (size_t j = i; j < i + 16 && j < len; j++)
			fprintf(f, "%02X ", trace[j]);
		fprintf(f, "  # @%zu\n", i);
	}
	write_lines(f, "reference", ref, at);
	write_lines(f, "adapter", ad, at);
	fclose(f);
	fprintf(stderr, "diff: new divergence %s: wrote %s\n", sig, path);
}

/* ---- Comparison ---------------------------------------------------------------------- */

/* The n-th blank-separated token of s, as a pointer and length. */
static const char *token(const char *s, int n, size_t *len)
{
	for (int i = 0; s && *s; i++) {
		size_t k;
		while (*s == ' ')
			s++;
		k = strcspn(s, " ");
		if (i == n) {
			*len = k;
			return k ? s : NULL;
		}
		s += k;
	}
	*len = 0;
	return NULL;
}

/* Value of key= in line (from token 3 on), or NULL. */
static const char *field(const char *line, const char *key, size_t klen, size_t *vlen)
{
	size_t len;
	const char *t;
	for (int i = 3; (t = token(line, i, &len)) != NULL; i++) {
		if (len > klen && t[klen] == '=' && !strncmp(t, key, klen)) {
			*vlen = len - klen - 1;
			return t + klen + 1;
		}
	}
	return NULL;
}

/* Appends to out the keys of a whose value differs in b (or, with
 * only_missing, the keys of a that b lacks). */
static void add_fields(char *out, size_t outsz, const char *a, const char *b, int only_missing)
{
	size_t len;
	const char *t;
	for (int i = 3; (t = token(a, i, &len)) != NULL; i++) {
		size_t klen = strcspn(t, "= "), va, vb = 0;
		const char *x, *y;
		if (klen >= len)
			continue;
		x = t + klen + 1;
		va = len - klen - 1;
		y = field(b, t, klen, &vb);
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
	const char *kind = line ? token(line, 2, &k) : NULL, *cls;
	if (!kind) {
		snprintf(out, outsz, "start");
		return;
	}
	cls = field(line, "class", 5, &v);
	if (cls)
		snprintf(out, outsz, "%.*s[%.*s]", (int)k, kind, (int)v, cls);
	else
		snprintf(out, outsz, "%.*s", (int)k, kind);
}

static uint64_t line_offset(const char *line)
{
	return line && line[0] == '@' ? strtoull(line + 1, NULL, 10) : 0;
}

/* A list of differing fields ("kind/kind:f1,f2") that are all fields of
 * the context (el, ns, sf, ctxid, vmid, nse) becomes "kind/kind:context":
 * one cause (a context value carried or reset differently) gave a new
 * signature for every combination of values (24 candidates, 22 signatures
 * in run B of conformance/notes/diff-triage-2026-11-22.md, all the same
 * OpenCSD defect). */
static void only_context_fields(char *sig, size_t sigsz)
{
	static const char *const ctx[] = { "el", "ns", "sf", "ctxid", "vmid", "nse" };
	char *list = strchr(sig, ':');
	const char *f;
	if (!list || !list[1])
		return;
	for (f = list + 1; *f;) {
		size_t n = strcspn(f, ","), i;
		for (i = 0; i < sizeof ctx / sizeof ctx[0]; i++)
			if (strlen(ctx[i]) == n && !strncmp(f, ctx[i], n))
				break;
		if (i == sizeof ctx / sizeof ctx[0])
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
	describe(r, sizeof r, ref);
	describe(a, sizeof a, ad);
	if (!ref || !ad) {
		snprintf(out, outsz, "%s-ended-first after %s", ref ? "adapter" : "reference", p);
		return;
	}
	if (line_offset(ref) != line_offset(ad)) {
		if (!strcmp(r, "async") && line_offset(ref) > line_offset(ad))
			snprintf(out, outsz, "reference-resyncs-later after %s", p);
		else if (line_offset(ad) < line_offset(ref))
			snprintf(out, outsz, "adapter-extra:%s", a);
		else
			snprintf(out, outsz, "reference-extra:%s", r);
		return;
	}
	rkind = token(ref, 2, &rk);
	akind = token(ad, 2, &ak);
	rhdr = token(ref, 1, &rh);
	ahdr = token(ad, 1, &ah);
	snprintf(out, outsz, "%s/%s:", r, a);
	if (rh != ah || memcmp(rhdr, ahdr, rh))
		snprintf(out + strlen(out), outsz - strlen(out), "header");
	if (rk == ak && !memcmp(rkind, akind, rk)) {
		add_fields(out, outsz, ref, ad, 0);
		add_fields(out, outsz, ad, ref, 1);
		only_context_fields(out, outsz);
	}
}

static int explain(const char *ref, const char *ad)
{
	size_t rk = 0;
	const char *rkind = ref ? token(ref, 2, &rk) : NULL;
	if (!rkind)
		return -1;
	for (size_t i = 0; i < sizeof explanations / sizeof explanations[0]; i++) {
		const struct explained *e = &explanations[i];
		if (e->adapter && strcmp(e->adapter, adapter->name))
			continue;
		if (strlen(e->ref_kind) != rk || strncmp(rkind, e->ref_kind, rk))
			continue;
		if (e->ref_has && !strstr(ref, e->ref_has))
			continue;
		if (e->ad_has && (!ad || !strstr(ad, e->ad_has)))
			continue;
		return (int)i;
	}
	return -1;
}

/* The rest of a line from its n-th token on (NULL when it has fewer). */
static const char *from_token(const char *line, int n)
{
	size_t k = 0;
	return token(line, n, &k);
}

/* Divergences explained by where they happen rather than by kind: an
 * address before the reference's first Trace Info (the address history is
 * UNKNOWN there, TC-P29: same offset and kind, the reference line has an
 * address), and a format 2 cycle count under COMMOPT=1 that the adapter
 * decodes as committing MAXSPEC, with the same count (the alternative
 * reading TC-S7-literal: CycleCountFormat2Packet('1', '1111', BBBB)).
 * Returns the explanation's index or -1. */
static int explain_in_context(const struct lines *ref, size_t at, const char *r, const char *a,
			      const struct tc_ete_config *cfg)
{
	size_t rk = 0, ak = 0, rh = 0;
	const char *rkind, *akind, *rhdr;
	if (!r || !a || line_offset(r) != line_offset(a))
		return -1;
	rkind = token(r, 2, &rk);
	akind = token(a, 2, &ak);
	rhdr = token(r, 1, &rh);
	if (!rkind || !akind || !rhdr)
		return -1;
	if (rk == ak && !memcmp(rkind, akind, rk) && strstr(r, "addr=")) {
		for (size_t i = 0; i < at; i++) {
			size_t k = 0;
			const char *kind = token(line_at(ref, i), 2, &k);
			if (kind && k == 10 && !memcmp(kind, "trace-info", 10))
				return -1;
		}
		return EXPLAIN_BEFORE_TRACE_INFO;
	}
	if (cfg->commopt && rh == 2 && (!strncmp(rhdr, "0c", 2) || !strncmp(rhdr, "0d", 2)) &&
	    rk == 11 && !memcmp(rkind, "cycle-count", 11) && ak == 11 && !memcmp(akind, "cycle-count", 11)) {
		const char *rc = from_token(r, 3), *ac = from_token(a, 3);
		char want[64];
		/* "commit=N cc=…": the reading commits MAXSPEC + 15 - 15, the count is the same */
		snprintf(want, sizeof want, "commit=%u ", cfg->maxspec);
		if (rc && ac && !strncmp(rc, "commit=0 ", 9) && !strncmp(ac, want, strlen(want)) &&
		    !strcmp(rc + 9, ac + strlen(want)))
			return EXPLAIN_TC_S7_LITERAL;
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
	fprintf(stderr, "diff: %llu inputs: agree %llu, explained %llu, divergent %llu (%d signatures), adapter crash %llu, "
			"hang %llu, flood %llu, adapter-error %llu; %llu finding files in %s\n",
		(unsigned long long)st.inputs, (unsigned long long)st.agree, (unsigned long long)st.explained,
		(unsigned long long)st.divergent, st.nsig, (unsigned long long)st.crash, (unsigned long long)st.hang,
		(unsigned long long)st.flood, (unsigned long long)st.adapter_error, (unsigned long long)st.files,
		findings);
}

/* Whether the adapter declares ETE at L1. */
static int ete_l1(const struct tc_adapter *ad)
{
	for (size_t i = 0; ad->protocols && i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == tc_proto_ete)
			return (ad->protocols[i].levels & tc_level_l1) != 0;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env;
	void *so;
	tc_adapter_entry_fn entry;
	(void)argc;
	(void)argv;
	adapter_path = getenv("TC_DIFF_ADAPTER");
	if (!adapter_path || !*adapter_path)
		adapter_path = "build/adapters/libtc_opencsd.so";
	if ((env = getenv("TC_DIFF_FINDINGS")) && *env)
		findings = env;
	write_when_replaying = (env = getenv("TC_DIFF_WRITE")) && !strcmp(env, "1");
	if ((env = getenv("TC_DIFF_SUMMARY")) && *env && !strchr(env, '/'))
		summary_name = env;
	if ((env = getenv("TC_DIFF_TIMEOUT")) && atoi(env) > 0)
		timeout_s = (unsigned)atoi(env);
	if ((env = getenv("TC_DIFF_PERSIST")) && atoi(env) > 0)
		persist = (unsigned)atoi(env);
	so = dlopen(adapter_path, RTLD_NOW | RTLD_LOCAL);
	entry = so ? (tc_adapter_entry_fn)(uintptr_t)dlsym(so, TC_ADAPTER_ENTRY) : NULL;
	adapter = entry ? entry() : NULL;
	if (!adapter || adapter->abi_version != TC_ADAPTER_ABI_VERSION || !ete_l1(adapter)) {
		fprintf(stderr, "diff: cannot use adapter %s: %s\n", adapter_path,
			!so ? dlerror() : !entry ? "no " TC_ADAPTER_ENTRY : !adapter ? "entry returned NULL"
			: adapter->abi_version != TC_ADAPTER_ABI_VERSION ? "ABI version mismatch"
			: "no ETE L1 support");
		fprintf(stderr, "diff: set TC_DIFF_ADAPTER to an adapter .so (make %s builds OpenCSD's)\n",
			"build/adapters/libtc_opencsd.so");
		adapter = NULL;
		if (tc_fuzz_regress_mode)
			return -1;
		exit(1);
	}
	shm = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		perror("diff: mmap");
		adapter = NULL;
		if (tc_fuzz_regress_mode)
			return -1;
		exit(1);
	}
	signal(SIGPIPE, SIG_IGN);   /* a dead zygote is noticed by write() */
	zygote_start();
	if (!tc_fuzz_regress_mode) {
		fprintf(stderr, "diff: adapter %s (%s %s); findings in %s\n", adapter_path, adapter->name,
			adapter->version, findings);
		atexit(at_exit);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_ete_config cfg, fitted;
	struct tc_ete_sink sink;
	struct ref_run ref;
	struct lines ad;
	struct tc_ete_decoder *d;
	const uint8_t *trace;
	size_t len, at;
	int status = 0, chunk_seed, skipped = 0;
	if (size < TC_FUZZ_CFG_BYTES + 1 || !adapter)
		return 0;
	tc_fuzz_config(data, &cfg);
	cfg.ite = 0;
	cfg.rme = 0;
	chunk_seed = data[TC_FUZZ_CFG_BYTES] & 0x80 ? data[TC_FUZZ_CFG_BYTES] & 0x7f : -1;
	trace = data + TC_FUZZ_CFG_BYTES + 1;
	len = size - TC_FUZZ_CFG_BYTES - 1;
	fitted = cfg;
	tc_fuzz_fit_caps(&fitted, len);   /* same decoding, smaller allocation */
	st.inputs++;

	/* the reference, in process */
	memset(&ref, 0, sizeof ref);
	ref.len = len;
	memset(&sink, 0, sizeof sink);
	sink.ctx = &ref;
	sink.packet = ref_packet;
	d = tc_ete_alloc(&fitted, &sink);
	TC_FUZZ_CHECK(d != NULL, "tc_ete_alloc");
	tc_ete_feed(d, trace, len);
	tc_ete_finish(d);
	tc_ete_free(d);
	TC_FUZZ_CHECK(ref.out.n <= 2 * len + 1, "reference: %zu packets from %zu bytes", ref.out.n, len);

	/* the adapter, in a child */
	shm->done = 0;
	shm->open_ok = shm->feed_rc = shm->finish_rc = 0;
	shm->flood = 0;
	shm->nlines = shm->used = 0;
	shm->err[0] = '\0';
	shm->limit_lines = 64 * (uint64_t)len + 64;
	shm->cfg = cfg;
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
			lines_free(&ref.out);
			return 0;
		}
		status = again;
	}
	if (shm->flood) {
		st.flood++;
		record_bin("flood", data, size, "output over the limit");
		lines_free(&ref.out);
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
		lines_free(&ref.out);
		return 0;
	}
	if (!shm->open_ok || shm->feed_rc < 0 || shm->finish_rc < 0) {   /* refused configuration, failed feed */
		st.adapter_error++;
		lines_free(&ref.out);
		return 0;
	}

	/* compare */
	memset(&ad, 0, sizeof ad);
	for (size_t i = 0; i < shm->used;) {
		char *nl = memchr(shm->text + i, '\n', shm->used - i);
		TC_FUZZ_CHECK(nl != NULL, "child output not line-terminated");
		lines_add(&ad, shm->text + i, (size_t)(nl - (shm->text + i)));
		i = (size_t)(nl - shm->text) + 1;
	}
	TC_FUZZ_CHECK(ad.n == shm->nlines, "child wrote %llu lines, %zu read", (unsigned long long)shm->nlines, ad.n);
	for (at = 0; at < ref.out.n || at < ad.n; at++) {
		const char *r = line_at(&ref.out, at), *a = line_at(&ad, at);
		int why;
		if (r && a && !strcmp(r, a))
			continue;
		why = explain(r, a);
		if (why < 0)
			why = explain_in_context(&ref.out, at, r, a, &shm->cfg);
		if (why >= 0) {
			st.per_reason[why]++;
			if (explanations[why].skip) {
				skipped = 1;
				continue;
			}
			st.explained++;
			if (tc_fuzz_regress_mode)
				fprintf(stderr, "diff: line %zu explained: %s\n", at + 1, explanations[why].why);
			break;
		}
		{
			char sig[256];
			int is_new;
			signature(sig, sizeof sig, r, a, at > 0 ? line_at(&ref.out, at - 1) : NULL);
			st.divergent++;
			if (tc_fuzz_regress_mode)
				fprintf(stderr, "diff: line %zu divergent: %s\n", at + 1, sig);
			record_signature(sig, &is_new);
			if (is_new) {
				if (may_write()) {
					write_candidate(&cfg, data, size, trace, len, &ref.out, &ad, at, sig);
					write_summary();
				} else {
					forget_signature(sig);   /* written when the rate allows */
				}
			}
		}
		break;
	}
	if (at == ref.out.n && at == ad.n) {
		if (skipped)
			st.explained++;
		else
			st.agree++;
	}
	lines_free(&ref.out);
	lines_free(&ad);
	return 0;
}
