/* runner.h — the parts of `tracecert certify` and what they share: verdicts, tasks, limits, the report. */
#ifndef TC_RUNNER_H
#define TC_RUNNER_H

#include <stddef.h>
#include <stdio.h>

#include "tracecert/protocol.h"
#include "certify.h"
#include "vector.h"

struct tc_adapter;

/* Outcome classes of one vector at one level. tc_v_runner: the runner
 * itself could not run the task (a vector file it cannot read, a child it
 * cannot start, a worker process that died): not the adapter's fault, and
 * never a pass. tc_v_malformed: what the run's child sent broke the frame
 * format (conformance/frame.h), so none of it is trusted. */
enum tc_verdict {
	tc_v_pass, tc_v_fail, tc_v_crash, tc_v_hang, tc_v_flood, tc_v_error, tc_v_unsupported, tc_v_skipped,
	tc_v_pass_alt, tc_v_runner, tc_v_malformed, tc_v_count
};
extern const char *const tc_verdict_names[tc_v_count];

/* Passes, and runs that do not count against the adapter. */
int tc_verdict_is_good(int verdict);

#define TC_DIAG_SIZE 3072
#define TC_LINE_MAX 1024          /* the longest item text the child writes (longer: cut) */

/* One (vector, level) task and its result. A worker process sends the
 * result to the runner as a frame (certify.c): no pointers. */
struct tc_task {
	int vector;               /* index in the list of vector files */
	int level;                /* 1 or 3 */
	int protocol;             /* the vector's (enum tc_protocol_id; tc_proto_none: unreadable) */
	int verdict;              /* enum tc_verdict */
	char diag[TC_DIAG_SIZE];  /* YAML lines (indented two spaces) for a failure; why, for unsupported */
};

/* Appends to t->diag (cut at its size). */
void tc_task_diag(struct tc_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends "  KEY: 'TEXT'\n", TEXT YAML-quoted (cut at about 600 bytes). */
void tc_task_diag_quoted(struct tc_task *t, const char *key, const char *s);

/* ---- loader.c: what an adapter declares -------------------------------------- */

#define TC_ADAPTER_TEXT_MAX 128    /* bytes of a name, version or tag the runner takes */
#define TC_ADAPTER_TAGS_MAX 64     /* unsupported tags per protocol */
#define TC_ADAPTER_PROTOCOLS_MAX 16

/* One protocol of the declaration. */
struct tc_adapter_decl {
	int protocol;
	unsigned levels;
	int ntags;
	char tags[TC_ADAPTER_TAGS_MAX][TC_ADAPTER_TEXT_MAX];
};

/* What an adapter declares, as the runner copied it from the child that
 * loaded the adapter: every string bounded, NUL-terminated, valid UTF-8
 * without control characters (tc_text_clean). */
struct tc_adapter_info {
	const char *path;         /* the shared object (the caller's string) */
	char name[TC_ADAPTER_TEXT_MAX];
	char version[TC_ADAPTER_TEXT_MAX];
	struct tc_adapter_decl protocols[TC_ADAPTER_PROTOCOLS_MAX];
	int nprotocols;
};

/* Loads the adapter in a child process (tc_adapter_load there, under the
 * limits and the deadline) and reads what it declares into info. Returns 0,
 * or -1 with a message in err: the adapter cannot be loaded, crashed, exited
 * or hung while loading, or declared something malformed. */
int tc_adapter_probe(const char *path, const struct tc_limits *lim, struct tc_adapter_info *info, char *err,
		     size_t n);

/* Whether tags (blank-separated) holds tag. */
int tc_has_tag(const char *tags, const char *tag);
/* Whether the adapter leaves the vector's protocol or the level (1 or 3)
 * out, or declares one of the vector's feature tags unsupported: NULL when
 * it supports the run, else why not (in why, n bytes). */
const char *tc_adapter_unsupported(const struct tc_adapter_info *ad, const struct tc_vector *v, int level, char *why,
				   size_t n);

/* ---- sandbox.c: one run of the adapter in a child process ----------------- */

/* What a child that ran to its end reported, as text lines. */
struct tc_run_output {
	struct tc_lines l1;       /* L1 lines, warnings dropped */
	struct tc_lines l3;       /* L3 lines */
	struct tc_lines errs;     /* "CLASS OFFSET" of every L1 error */
};

/* Runs the adapter over the vector at t->level in a child process under
 * the limits (the child loads the adapter; the caller never does). Returns
 * 1 when the child finished normally and out holds its output (to be
 * compared); otherwise 0 with t->verdict and t->diag set (crash, hang,
 * flood, malformed, adapter-error, runner-error). out is freed by
 * tc_run_output_free either way. started (or NULL) is told the child's
 * process group as soon as it exists, for whoever must be able to kill it;
 * the group is gone when this returns. */
int tc_sandbox_run(const struct tc_adapter_info *ad, const struct tc_vector *v, struct tc_task *t,
		   const struct tc_limits *lim, struct tc_run_output *out, void (*started)(void *ctx, int pgid),
		   void *ctx);
void tc_run_output_free(struct tc_run_output *out);

/* ---- compare.c: an output against the vector ------------------------------ */

/* The verdict of a finished run (pass, pass-alt or fail), with the first
 * divergence in t->diag for a failure and the reading for a pass-alt. */
int tc_compare(struct tc_task *t, const struct tc_vector *v, const struct tc_run_output *out);

/* ---- The report: what TAP, JSON and Markdown print ------------------------ */

/* Verdict counts of one feature tag, [level 1 / 3][verdict]. */
struct tc_tally {
	char *tag;
	int count[2][tc_v_count];
};

struct tc_report {
	const char *adapter;      /* name and version as the adapter gives them */
	const char *version;
	const struct tc_task *tasks;
	int ntasks;
	char *const *paths;       /* vector file of each task's index */
	char *const *tags;        /* the vector's tags, blank-separated */
	const struct tc_tally *tally;
	size_t ntally;
	int total[tc_v_count];
	double score;             /* passes over the runs that count */
	/* [enum tc_protocol_id][level 1 / 3][verdict]; tc_proto_none: vectors that could not be read */
	int by_protocol[tc_proto_count][2][tc_v_count];
	double seconds;
	const char *notes_path;   /* a Markdown file appended to the certificates, or NULL */
	const char *notes;        /* its text (no NUL byte), notes_len bytes */
	size_t notes_len;
};

/* The name of a protocol in the report ("unreadable" for tc_proto_none). */
const char *tc_report_protocol_name(int id);
/* The score of a verdict count: passes over the runs that count (not
 * unsupported, not skipped); 0 when none counts. */
double tc_report_score(const int *count);
/* sum[tc_v_count]: the verdicts of protocol id at both levels; returns
 * whether it has any run. */
int tc_report_protocol_sum(const struct tc_report *r, int id, int *sum);

/* tap.c: TAP version 13 with a YAML block per failing run. Returns 0, or -1
 * when a write failed. */
int tc_tap_write(FILE *f, const struct tc_report *r);

/* json.c: the JSON certificate, written front to back (never seeks).
 * markdown.c: the Markdown certificate. Each returns 0, or -1 with a
 * message in err (a write failed; the notes file cannot be read). */
int tc_json_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen);
int tc_markdown_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen);

#endif
