/* SPDX-License-Identifier: BSD-3-Clause */
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
 * cannot start, a worker process that died before its run started): not
 * the adapter's fault, and never a pass. tc_v_malformed: what the run's
 * child sent broke the frame format (conformance/frame.h) or held an item
 * the child did not check, so none of it is trusted. */
enum tc_verdict {
	tc_v_pass, tc_v_fail, tc_v_crash, tc_v_hang, tc_v_flood, tc_v_error, tc_v_unsupported, tc_v_skipped,
	tc_v_pass_alt, tc_v_runner, tc_v_malformed, tc_v_count
};
extern const char *const tc_verdict_names[tc_v_count];

/* Passes, and runs that do not count against the adapter. */
int tc_verdict_is_good(int verdict);

#define TC_DIAG_SIZE 3072
#define TC_LINE_MAX 1024          /* the longest item text the worker formats (longer: cut) */

/* The walls a run's adapter ran behind, as the process that loads it
 * reported them before loading it (conformance/isolate.c); the certificate
 * counts the runs under each. */
enum tc_isolation {
	tc_iso_uid = 1,           /* an unprivileged uid and gid (nobody, 65534) dropped to from root: it
				   * cannot signal the runner, RLIMIT_NPROC binds, root's files are not its */
	tc_iso_pid = 2,           /* its own PID namespace with its own /proc: it sees and signals only the
				   * run's processes */
	tc_iso_hidden = 4,        /* its own mount namespace in which every vectors folder and the report
				   * folder is covered by an empty read-only tmpfs */
	tc_iso_guarded = 8,       /* what the walls add up to: it can neither signal the runner (nobody, or
				   * its own PID namespace) nor write the report folder (hidden, or closed
				   * to nobody), and it is not uid 0 (isolate.h, step 5). Without it the
				   * process refuses to load the adapter unless certify --no-isolation */
	tc_iso_all = 15
};
#define TC_ISO_NOTE_SIZE 480      /* why a wall is missing; for a process not guarded, what it could do */

/* The exit status of a process that loads the adapter when it refused to
 * (not tc_iso_guarded, and --no-isolation not given): nothing of the
 * adapter ran, and its 'M' frame says why. */
#define TC_CHILD_REFUSED 8

/* One (vector, level) task and its result. A worker process sends the
 * result to the runner as a frame (certify.c): no pointers. */
struct tc_task {
	int vector;               /* index in the list of vector files */
	int level;                /* 1 or 3 */
	int protocol;             /* the vector's (enum tc_protocol_id; tc_proto_none: unreadable) */
	int verdict;              /* enum tc_verdict */
	char diag[TC_DIAG_SIZE];  /* YAML lines (indented two spaces) for a failure; why, for unsupported */
	int started;              /* the adapter was loaded for it: isolation says how */
	unsigned isolation;       /* enum tc_isolation bits */
	char iso_note[TC_ISO_NOTE_SIZE];   /* why a wall is missing ("" when none is) */
};

/* Appends to t->diag (cut at its size). */
void tc_task_diag(struct tc_task *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends "  KEY: 'TEXT'\n", TEXT YAML-quoted (tc_yaml_text; cut at about
 * 600 bytes). */
void tc_task_diag_quoted(struct tc_task *t, const char *key, const char *s);
/* The one escape of text inside a YAML single-quoted scalar (the TAP
 * stream's YAML blocks): a quote doubled, a control character or a byte
 * that is not valid UTF-8 written \xNN (YAML reads it as those four
 * characters), so the text stays on its line. At most n - 1 bytes and a NUL
 * into dst, cut before a whole sequence; returns the length. */
size_t tc_yaml_text(char *dst, size_t n, const char *s);

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

/* What every process that loads the adapter is told besides its run's
 * inputs: where the adapter is and which folders to hide from it. */
struct tc_run_env {
	const char *adapter;      /* the shared object, an absolute path (realpath) */
	const char *shown;        /* the same as the user gave it, for messages */
	char **hide;              /* absolute folders (the vectors', the report's), none inside another */
	size_t nhide;
	const char *report;       /* the report folder, absolute (realpath), or NULL: none */
	int unguarded_ok;         /* --no-isolation: load the adapter even where it is not tc_iso_guarded */
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
	unsigned isolation;       /* the walls of the process that read the declaration (enum tc_isolation) */
	char iso_note[TC_ISO_NOTE_SIZE];
};

/* Loads the adapter in a child process (conformance/runchild.c, behind the
 * walls of isolate.c, under the limits and the deadline) and reads what it
 * declares into info. Returns 0; 1 when the child refused to load it (not
 * tc_iso_guarded: err says what the adapter could have done); or -1 with a
 * message in err: the adapter cannot be loaded, crashed, exited or hung
 * while loading, or declared something malformed. */
int tc_adapter_probe(const struct tc_run_env *env, const struct tc_limits *lim, struct tc_adapter_info *info,
		     char *err, size_t n);
/* tc_adapter_load (certify.h) with shown, the path as the user gave it, in
 * the messages. */
const struct tc_adapter *tc_adapter_load_as(const char *path, const char *shown, char *err, size_t n);

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
 * the limits: the child execs a fresh program image (runchild.c) that is
 * handed the run's inputs only (protocol, configuration, image, trace
 * bytes, the item limit; never an expected section), loads the adapter
 * behind the walls of isolate.c and sends back the raw items, which this
 * side checks (tc_item_check) and formats. Returns 1 when the child
 * finished normally and out holds its output (to be compared); otherwise 0
 * with t->verdict and t->diag set (crash, hang, flood, malformed,
 * adapter-error, runner-error). t->started, t->isolation and t->iso_note
 * say what the child reported. out is freed by tc_run_output_free either
 * way. started (or NULL) is told the child's process group as soon as it
 * exists, for whoever must be able to kill it; the group is gone when this
 * returns. */
int tc_sandbox_run(const struct tc_run_env *env, const struct tc_vector *v, struct tc_task *t,
		   const struct tc_limits *lim, struct tc_run_output *out, void (*started)(void *ctx, int pgid),
		   void *ctx);
void tc_run_output_free(struct tc_run_output *out);

/* A memory file of the frames every child that loads the adapter is handed
 * first (runchild.c): its limits and its parent ('l'), the adapter's paths
 * and the folders to hide ('a', 'n', 'h'); the caller adds its mode, its
 * inputs and the end ('z') and gives it to tc_child_start. The descriptor,
 * or -1 with why. */
int tc_run_inputs(const struct tc_run_env *env, const struct tc_limits *lim, char *why, size_t n);
/* n bytes (n > 0) as frames of type type of at most TC_FRAME_MAX bytes
 * each. 0, or -1 when a write failed. */
int tc_run_inputs_bytes(int fd, char type, const void *p, size_t n);
/* The isolation frame 'I' "BITS NOTE", which the child sends once, before
 * loading the adapter: *started set, the bits and the note (note_size
 * bytes) taken; 0, or -1 with why (a second one, a malformed one: the run
 * is malformed). */
struct tc_frame;
int tc_take_isolation(const struct tc_frame *f, int *started, unsigned *bits, char *note, size_t note_size,
		      char *why, size_t n);

/* What an item an adapter handed over must be before anything of it is
 * read beyond its header: not NULL, at the level the run asked for
 * (level_asked), of protocol p, of p's record size at that level, a kind in
 * range, an error class p names. 0, or -1 with why. Checked in the child
 * (for the adapter's message) and again by the worker (which trusts nothing
 * the child sends). */
int tc_item_check(const struct tc_protocol *p, int level_asked, int level, const struct tc_item *it, char *why,
		  size_t n);

/* ---- compare.c: an output against the vector ------------------------------ */

/* The verdict of a finished run (pass, pass-alt or fail), with the first
 * divergence in t->diag for a failure and the reading for a pass-alt. */
int tc_compare(struct tc_task *t, const struct tc_vector *v, const struct tc_run_output *out);

/* ---- The report: what TAP, JSON and Markdown print ------------------------ */

/* Why a run did not pass, as a class the certificates group failures by:
 * the verdict, and for a failed comparison the section compared. */
enum tc_defect {
	tc_d_l1_packets, tc_d_l1_error_offsets, tc_d_l1_error_classes, tc_d_l3_execution, tc_d_fail_other,
	tc_d_crash, tc_d_hang, tc_d_flood, tc_d_adapter_error, tc_d_malformed, tc_d_runner_error, tc_d_count,
	tc_d_none = -1            /* a pass, a pass-alt, unsupported or not run */
};
extern const char *const tc_defect_names[tc_d_count];
extern const char *const tc_defect_explanations[tc_d_count];

/* The runs of one group of failures as the certificates list them: of one
 * defect class, or (cls tc_d_none) the passes under an alternative reading;
 * in the plan's order (vector, then level). */
struct tc_failure_group {
	int cls;                  /* enum tc_defect, or tc_d_none */
	int nruns;
	const int *task;          /* nruns indices into the report's tasks */
};
/* What a certificate writer formats of the failure groups (through
 * tc_report_failures): a group's heading ("CLASS (N runs)", or "Passes
 * under an alternative reading (N runs, counted as passes)"), and each run
 * of it (cls: the group's, tc_d_none for a pass under an alternative
 * reading). */
struct tc_report;
typedef void tc_failure_heading_fn(FILE *f, const char *title);
typedef void tc_failure_run_fn(FILE *f, const struct tc_report *r, const struct tc_task *t, int cls);

/* Verdict counts of one feature tag, [level 1 / 3][verdict]; by_tag: over
 * every protocol (protocol -1); by_family: of one protocol's vectors, the
 * tag's family (tc_tag_family). */
struct tc_tally {
	char *tag;
	int protocol;
	int count[2][tc_v_count];
};

/* The version of the JSON certificate's layout ("format_version"); a new
 * number whenever a member changes meaning or goes. 2: identity (date,
 * options, limits, content digest), failures as fields, the score's rule. */
#define TC_CERT_FORMAT_VERSION 2

struct tc_report {
	const char *adapter;      /* name and version as the adapter gives them */
	const char *version;
	const struct tc_task *tasks;
	int ntasks;
	char *const *paths;       /* vector file of each task's index */
	char *const *tags;        /* the vector's tags, blank-separated */
	const struct tc_tally *tally;
	size_t ntally;
	const struct tc_tally *family;   /* by protocol, then tag family (tc_report_summarise) */
	size_t nfamily;
	int total[tc_v_count];
	double score;             /* passes over the runs that count */
	/* [enum tc_protocol_id][level 1 / 3][verdict]; tc_proto_none: vectors that could not be read */
	int by_protocol[tc_proto_count][2][tc_v_count];
	double seconds;
	int iso_runs;             /* runs that loaded the adapter */
	int iso_count[4];         /* of them, behind each wall: tc_iso_uid, tc_iso_pid, tc_iso_hidden, and
				   * tc_iso_guarded */
	const char *iso_note;     /* why a wall was missing in a run ("" when none was); what an adapter
				   * could do where it was not guarded */
	int isolated;             /* the declaration and every run that loaded the adapter were guarded;
				   * 0 only under --no-isolation (the certificate says so) */
	int declaration_guarded;  /* the process that read the adapter's declaration was */
	/* What makes runs parts of one certificate (--shard, --merge: merge.c) */
	const char *tool_version; /* tracecert's version ("0.1.0 (git 1a2b3c4)") */
	int levels;               /* the options' levels: bit 1 L1, bit 4 L3 */
	const char *tag_option;   /* the --tags names, comma-separated ("" none) */
	unsigned shard_index;     /* --shard I/N, or 0/0 */
	unsigned shard_count;
	size_t nfiles;            /* vector files listed, in every shard */
	char set_hash[17];        /* FNV-1a 64 of the listed paths (each with its NUL), hex: the vector set */
	const char *hidden_why;   /* a folder the runner could not hide, and why ("" none) */
	const char *decl_note;    /* the declaration's process: why a wall was missing ("" none) */
	const char *adapter_path; /* the --adapter given, for the commands that reproduce a failure */
	char started[32];         /* when the run started, UTC, "2026-12-02T15:04:05Z" (a merge: shard 1's) */
	struct tc_limits lim;     /* the per-run limits (certify.h) */
	char content_digest[17];  /* FNV-1a 64 of every listed file's bytes, in list order, hex */
	const struct tc_vector *const *vectors;   /* each path's vector as the run read it (NULL: not at
				   * hand, e.g. a merge): the HTML shows the trace bytes of a divergence */
	const char *notes_path;   /* a Markdown file appended to the certificates, or NULL */
	const char *notes;        /* its text (no NUL byte), notes_len bytes */
	size_t notes_len;
	/* The failures grouped once for every writer (tc_report_summarise): the runs of each defect
	 * class that has any, in the classes' order, then the passes under an alternative reading */
	int defect_count[tc_d_count];   /* runs of each class */
	struct tc_failure_group failure_group[tc_d_count + 1];
	size_t nfailure_groups;
};

/* The exit status of a run whose certificate was written (certify --help):
 * 0 every run passes or does not count; TC_EXIT_DECODER_FAILED a run the
 * decoder failed (fail, crash, hang, flood, adapter-error, malformed);
 * TC_EXIT_RUNNER_RUNS a run the runner could not run (runner-error: not
 * the decoder's doing), whatever else failed. 2: certify could not run. */
#define TC_EXIT_DECODER_FAILED 1
#define TC_EXIT_RUNNER_RUNS 3
int tc_report_exit_status(const struct tc_report *r);

/* One sentence on the walls of the report's runs (Markdown and stderr). */
void tc_report_isolation(const struct tc_report *r, char *buf, size_t n);
/* When r is not isolated: one sentence on the processes that were not
 * walled off, what the adapter could do there and that it could have
 * written the certificate itself, to follow "not isolated: " (the TAP
 * header, Markdown, stderr). "" when it is isolated. */
void tc_report_not_isolated(const struct tc_report *r, char *buf, size_t n);
/* The name of a protocol in the report ("unreadable" for tc_proto_none). */
const char *tc_report_protocol_name(int id);
/* The score of a verdict count: passes over the runs that count (not
 * unsupported, not skipped); 0 when none counts. */
double tc_report_score(const int *count);
/* sum[tc_v_count]: the verdicts of protocol id at both levels; returns
 * whether it has any run. */
int tc_report_protocol_sum(const struct tc_report *r, int id, int *sum);

/* The tallies by feature tag and by protocol and tag family that summarise
 * builds (certify.c). */
struct tc_tally_list {
	struct tc_tally *t;
	size_t n;
	size_t cap;
};
struct tc_tallies {
	struct tc_tally_list tag, family;
	int *failure_tasks;       /* the task indices the report's failure groups point into */
};
/* A tag's family: the tag less every final "-N" or "-xN" (N decimal digits,
 * x one lower-case letter): maxspec-4, regions-2, atom-f6 and K10-9 are of
 * maxspec, regions, atom and K10; a tag without such a suffix is its own.
 * At most n - 1 bytes and a NUL into dst. */
void tc_tag_family(char *dst, size_t n, const char *tag);
/* Totals, the matrices by protocol and by tag (into ts), the score, the
 * failures grouped by defect class (their indices in ts). 0, or -1 when
 * memory is short. */
int tc_report_summarise(struct tc_report *r, struct tc_tallies *ts);
void tc_tallies_free(struct tc_tallies *ts);
/* The counts of the runs behind each wall from each task and r->hidden_why,
 * r->decl_note and declaration_guarded; why one was missing. */
void tc_report_count_isolation(struct tc_report *r);

/* ---- diagread.c: a run's YAML lines read back, its defect class ----------- */

#define TC_DIAG_FIELDS 24
#define TC_DIAG_CONTEXT 8

/* The lines a run's t->diag holds ("  KEY: VALUE", a single-quoted VALUE
 * unquoted; the "context:" list), or, for an unsupported run, its reason as
 * the field "reason". The strings point into buf. */
struct tc_diag_fields {
	size_t n;
	const char *key[TC_DIAG_FIELDS];
	const char *value[TC_DIAG_FIELDS];
	size_t ncontext;
	const char *context[TC_DIAG_CONTEXT];   /* the expected lines around the divergence */
	int context_at;           /* the one marked ">> " (the divergence), or -1 */
	char buf[TC_DIAG_SIZE + 64];
};
void tc_diag_read(const struct tc_task *t, struct tc_diag_fields *d);
/* The value of key, or NULL. */
const char *tc_diag_get(const struct tc_diag_fields *d, const char *key);

int tc_defect_of(const struct tc_task *t, const struct tc_diag_fields *d);

/* The byte range of the trace the first divergence is at, read from the
 * first differing line (the expected one, else the one the adapter gave):
 * an L1 line "@OFFSET HEX ... text" gives its packet, up to the next
 * expected line's offset (else its hex bytes), an error line "CLASS OFFSET"
 * its byte. 1 with *offset and *len set, 0 when the
 * divergence names no offset (an L3 line, the end of output). */
int tc_diag_trace_range(const struct tc_diag_fields *d, unsigned long long *offset, size_t *len);

/* The content digest of a vector set (r->content_digest): FNV-1a 64 of
 * every file's bytes and length, in list order, 16 hex digits and a NUL. */
void tc_content_digest(char *const *paths, size_t n, char *hex);

/* The one command that reproduces a run (tracecert certify on its vector
 * file at its level), each word shell-quoted ('…', a quote as '\'', a
 * control character or a byte that is not UTF-8 as \xNN). */
void tc_repro_command(char *dst, size_t n, const struct tc_report *r, const struct tc_task *t);

/* junit.c: JUnit XML, one testcase per run (classname the level, name the
 * vector path), <skipped/> for unsupported and not-run, <failure> with the
 * first divergence for the adapter's verdicts, <error> for a runner-error;
 * every text escaped for XML 1.0 (a control character, a byte that is not
 * valid UTF-8 and U+FFFE/U+FFFF as the text \xNN). 0, or -1 with a
 * message in err. */
int tc_junit_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen);

/* tap.c: TAP version 13 with a YAML block per failing run; vector paths
 * escaped for a test line's description (TAP 13: '#' as "\#", '\' as "\\",
 * a control character or a byte that is not valid UTF-8 as \xNN) and for
 * YAML (tc_yaml_text). Returns 0, or -1 when a write failed. */
int tc_tap_write(FILE *f, const struct tc_report *r);

/* json.c: the JSON certificate, written front to back (never seeks).
 * markdown.c: the Markdown certificate. Each returns 0, or -1 with a
 * message in err (a write failed; the notes file cannot be read). */
int tc_json_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen);
int tc_markdown_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen);
/* html.c: the HTML certificate, one self-contained file (inline CSS and
 * SVG, no script, nothing fetched). 0, or -1 with err. */
int tc_html_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen);
/* The report's failure groups in their order: heading, then run for each
 * of its runs (certify.c). */
void tc_report_failures(FILE *f, const struct tc_report *r, tc_failure_heading_fn *heading, tc_failure_run_fn *run);
/* One line of the run's identity but tracecert's version and the date
 * (the vector set, the options, the limits) for the writers. */
void tc_report_identity(const struct tc_report *r, char *buf, size_t n);

#endif
