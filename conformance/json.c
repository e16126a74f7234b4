/* SPDX-License-Identifier: BSD-3-Clause */
/* json.c — the JSON certificate, written by a streaming writer that never seeks (valid UTF-8 whatever the input). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

/* ---- The writer --------------------------------------------------------------- */

#define JW_DEPTH 16

/* A JSON document written front to back. Containers are laid out one
 * member per line, indented, or inline ("{"a": 1, "b": 2}"). Errors are
 * sticky: ferror() of the stream, or nesting beyond JW_DEPTH. */
struct jw {
	FILE *f;
	int depth;
	int bad;
	unsigned char inl[JW_DEPTH];    /* the container at each depth is inline */
	unsigned char count[JW_DEPTH];  /* a member has been written at each depth */
};

static void jw_indent(struct jw *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* n bytes as the inside of a JSON string: escapes for quotes, backslashes
 * and control characters, U+FFFD for each byte that is not valid UTF-8. */
static void jw_chars(struct jw *j, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	while (n > 0) {
		size_t len = tc_utf8_len(p, n);
		if (len == 0) {
			fputs("\\ufffd", j->f);
			len = 1;
		} else if (*p == '"' || *p == '\\') {
			fprintf(j->f, "\\%c", *p);
		} else if (*p == '\n') {
			fputs("\\n", j->f);
		} else if (*p < 0x20 || *p == 0x7F) {
			fprintf(j->f, "\\u%04x", *p);
		} else {
			fwrite(p, 1, len, j->f);
		}
		p += len;
		n -= len;
	}
}

/* The separator and the key of the next member (key NULL in an array or at
 * the top). */
static void jw_key(struct jw *j, const char *key)
{
	int d = j->depth - 1;
	if (d >= 0) {
		if (j->count[d])
			fputc(',', j->f);
		if (j->inl[d]) {
			if (j->count[d])
				fputc(' ', j->f);
		} else {
			jw_indent(j);
		}
		j->count[d] = 1;
	}
	if (key) {
		fputc('"', j->f);
		jw_chars(j, key, strlen(key));
		fputs("\": ", j->f);
	}
}

/* Opens an object ('{') or array ('[') as the next member. */
static void jw_open(struct jw *j, const char *key, char bracket, int inl)
{
	jw_key(j, key);
	fputc(bracket, j->f);
	if (j->depth == JW_DEPTH) {
		j->bad = 1;
		return;
	}
	j->inl[j->depth] = (unsigned char)(inl || (j->depth > 0 && j->inl[j->depth - 1]));
	j->count[j->depth] = 0;
	j->depth++;
}

static void jw_close(struct jw *j, char bracket)
{
	if (j->depth == 0) {
		j->bad = 1;
		return;
	}
	j->depth--;
	if (j->count[j->depth] && !j->inl[j->depth])
		jw_indent(j);
	fputc(bracket, j->f);
}

static void jw_string_n(struct jw *j, const char *key, const char *s, size_t n)
{
	jw_key(j, key);
	fputc('"', j->f);
	jw_chars(j, s, n);
	fputc('"', j->f);
}

static void jw_string(struct jw *j, const char *key, const char *s)
{
	jw_string_n(j, key, s ? s : "", s ? strlen(s) : 0);
}

static void jw_int(struct jw *j, const char *key, long long v)
{
	jw_key(j, key);
	fprintf(j->f, "%lld", v);
}

/* A fixed-point number with `decimals` digits after the point. */
static void jw_fixed(struct jw *j, const char *key, double v, int decimals)
{
	jw_key(j, key);
	fprintf(j->f, "%.*f", decimals, v);
}

/* Ends the document: 0, or -1 when a write failed or the nesting was wrong. */
static int jw_end(struct jw *j)
{
	fputc('\n', j->f);
	if (fflush(j->f) != 0 || ferror(j->f) || j->depth != 0)
		j->bad = 1;
	return j->bad ? -1 : 0;
}

/* ---- The certificate ------------------------------------------------------------ */

static void verdict_counts(struct jw *j, const char *key, const int *count)
{
	jw_open(j, key, '{', 1);
	for (int k = 0; k < tc_v_count; k++)
		jw_int(j, tc_verdict_names[k], count[k]);
	jw_close(j, '}');
}

/* Verdict counts and score of each protocol that has runs. */
static void by_protocol(struct jw *j, const struct tc_report *r)
{
	jw_open(j, "by_protocol", '[', 0);
	for (int p = 0; p < tc_proto_count; p++) {
		int sum[tc_v_count];
		if (!tc_report_protocol_sum(r, p, sum))
			continue;
		jw_open(j, NULL, '{', 1);
		jw_string(j, "protocol", tc_report_protocol_name(p));
		jw_fixed(j, "score", tc_report_score(sum), 4);
		verdict_counts(j, "L1", r->by_protocol[p][0]);
		verdict_counts(j, "L3", r->by_protocol[p][1]);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

static void by_tag(struct jw *j, const struct tc_report *r)
{
	jw_open(j, "by_tag", '[', 0);
	for (size_t i = 0; i < r->ntally; i++) {
		jw_open(j, NULL, '{', 1);
		jw_string(j, "tag", r->tally[i].tag);
		verdict_counts(j, "L1", r->tally[i].count[0]);
		verdict_counts(j, "L3", r->tally[i].count[1]);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

/* The heat map: each protocol's tag families (tc_tag_family), by level. */
static void by_family(struct jw *j, const struct tc_report *r)
{
	jw_open(j, "by_family", '[', 0);
	for (size_t i = 0; i < r->nfamily; i++) {
		jw_open(j, NULL, '{', 1);
		jw_string(j, "protocol", tc_report_protocol_name(r->family[i].protocol));
		jw_string(j, "family", r->family[i].tag);
		verdict_counts(j, "L1", r->family[i].count[0]);
		verdict_counts(j, "L3", r->family[i].count[1]);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

/* The runs that loaded the adapter and, of them, those behind each wall
 * (runner.h, enum tc_isolation); why one was missing. */
static void isolation(struct jw *j, const struct tc_report *r)
{
	jw_open(j, "isolation", '{', 1);
	jw_int(j, "runs", r->iso_runs);
	jw_int(j, "unprivileged_uid", r->iso_count[0]);
	jw_int(j, "pid_namespace", r->iso_count[1]);
	jw_int(j, "inputs_hidden", r->iso_count[2]);
	jw_int(j, "guarded", r->iso_count[3]);
	jw_string(j, "missing", r->iso_note);
	jw_close(j, '}');
}

static void jw_bool(struct jw *j, const char *key, int v);

/* The fields of a run's diagnosis (diagread.c): numbers as numbers, the
 * context as a list. */
static void detail_fields(struct jw *j, const struct tc_task *t)
{
	struct tc_diag_fields d;
	tc_diag_read(t, &d);
	for (size_t i = 0; i < d.n; i++) {
		const char *v = d.value[i];
		if (v[0] && strspn(v, "0123456789") == strlen(v) && strlen(v) < 16)
			jw_int(j, d.key[i], atoll(v));
		else
			jw_string(j, d.key[i], v);
	}
	if (d.ncontext) {
		jw_open(j, "context", '[', 1);
		for (size_t i = 0; i < d.ncontext; i++)
			jw_string(j, NULL, d.context[i]);
		jw_close(j, ']');
		jw_int(j, "context_at", d.context_at);
	}
}

/* Every run that does not pass (key "failures"), or every pass under an
 * alternative reading (alt set, key "alternative_readings"), with its
 * defect class, its diagnosis as fields and the command that reproduces it. */
static void failures(struct jw *j, const struct tc_report *r, int alt)
{
	char level[8], cmd[3 * 4096];
	jw_open(j, alt ? "alternative_readings" : "failures", '[', 0);
	for (int i = 0; i < r->ntasks; i++) {
		const struct tc_task *t = &r->tasks[i];
		struct tc_diag_fields d;
		int cls;
		if (alt ? t->verdict != tc_v_pass_alt : tc_verdict_is_good(t->verdict))
			continue;
		tc_diag_read(t, &d);
		cls = tc_defect_of(t, &d);
		snprintf(level, sizeof level, "L%d", t->level);
		tc_repro_command(cmd, sizeof cmd, r, t);
		jw_open(j, NULL, '{', 1);
		jw_string(j, "vector", r->paths[t->vector]);
		jw_string(j, "level", level);
		jw_string(j, "protocol", tc_report_protocol_name(t->protocol));
		jw_string(j, "verdict", tc_verdict_names[t->verdict]);
		jw_string(j, "class", cls >= 0 ? tc_defect_names[cls] : "alternative-reading");
		jw_open(j, "detail", '{', 1);
		detail_fields(j, t);
		jw_close(j, '}');
		jw_string(j, "reproduce", cmd);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

/* One entry per defect class that has runs: its count and what it means. */
static void defect_classes(struct jw *j, const struct tc_report *r)
{
	const int *count = r->defect_count;
	jw_open(j, "defect_classes", '[', 0);
	for (int k = 0; k < tc_d_count; k++) {
		if (!count[k])
			continue;
		jw_open(j, NULL, '{', 1);
		jw_string(j, "class", tc_defect_names[k]);
		jw_int(j, "runs", count[k]);
		jw_string(j, "explanation", tc_defect_explanations[k]);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

/* How the score adds up: what counts, what passes. */
static void score_rule(struct jw *j, const struct tc_report *r)
{
	const int *t = r->total;
	int counted = r->ntasks - t[tc_v_unsupported] - t[tc_v_skipped];
	jw_open(j, "score_rule", '{', 1);
	jw_string(j, "rule", "score = (pass + pass-alt) / (runs - unsupported - not-run); a pass-alt is a pass "
			     "under an alternative reading the vector names, and counts as a pass");
	jw_int(j, "pass", t[tc_v_pass]);
	jw_int(j, "pass_alt", t[tc_v_pass_alt]);
	jw_int(j, "passed", t[tc_v_pass] + t[tc_v_pass_alt]);
	jw_int(j, "counted", counted);
	jw_int(j, "runs", r->ntasks);
	jw_int(j, "unsupported", t[tc_v_unsupported]);
	jw_int(j, "not_run", t[tc_v_skipped]);
	jw_close(j, '}');
}

/* The options that shape the run, its limits included. */
static void options(struct jw *j, const struct tc_report *r)
{
	jw_open(j, "limits", '{', 1);
	jw_int(j, "timeout_s", r->lim.timeout_s);
	jw_int(j, "memory_mb", (long long)r->lim.mem_mb);
	jw_int(j, "output_mb", (long long)r->lim.out_mb);
	jw_int(j, "processes", (long long)r->lim.procs);
	jw_int(j, "items", (long long)r->lim.items);
	jw_close(j, '}');
}

static void jw_bool(struct jw *j, const char *key, int v)
{
	jw_key(j, key);
	fputs(v ? "true" : "false", j->f);
}

/* What makes shards parts of one run (merge.c checks them): tracecert's
 * version, the options, the shard, the vector set; the walls of the
 * declaration's process and the folders not hidden. */
static void run_identity(struct jw *j, const struct tc_report *r)
{
	jw_string(j, "tracecert_version", r->tool_version);
	jw_string(j, "levels", r->levels == 1 ? "1" : r->levels == 4 ? "3" : "all");
	jw_string(j, "tags", r->tag_option);
	jw_open(j, "shard", '{', 1);
	jw_int(j, "index", r->shard_index);
	jw_int(j, "count", r->shard_count);
	jw_close(j, '}');
	options(j, r);
	jw_open(j, "vector_set", '{', 1);
	jw_int(j, "files", (long long)r->nfiles);
	jw_string(j, "hash", r->set_hash);
	jw_string(j, "content_digest", r->content_digest);
	jw_close(j, '}');
	jw_open(j, "declaration", '{', 1);
	jw_bool(j, "guarded", r->declaration_guarded);
	jw_string(j, "missing", r->decl_note);
	jw_close(j, '}');
	jw_string(j, "not_hidden", r->hidden_why);
}

/* Every run, in the plan's order (the vector's index in the sorted list,
 * then the level): what --merge rebuilds a certificate from. */
static void runs(struct jw *j, const struct tc_report *r)
{
	char level[8];
	jw_open(j, "runs", '[', 0);
	for (int i = 0; i < r->ntasks; i++) {
		const struct tc_task *t = &r->tasks[i];
		snprintf(level, sizeof level, "L%d", t->level);
		jw_open(j, NULL, '{', 1);
		jw_int(j, "index", t->vector);
		jw_string(j, "vector", r->paths[t->vector]);
		jw_string(j, "level", level);
		jw_string(j, "protocol", tc_report_protocol_name(t->protocol));
		jw_string(j, "tags", r->tags[t->vector]);
		jw_string(j, "verdict", tc_verdict_names[t->verdict]);
		jw_bool(j, "started", t->started);
		jw_int(j, "isolation", t->isolation);
		jw_string(j, "isolation_missing", t->iso_note);
		jw_string(j, "detail", t->diag);
		jw_close(j, '}');
	}
	jw_close(j, ']');
}

int tc_json_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen)
{
	struct jw j;
	memset(&j, 0, sizeof j);
	j.f = f;
	jw_open(&j, NULL, '{', 0);
	jw_int(&j, "format_version", TC_CERT_FORMAT_VERSION);
	jw_string(&j, "adapter", r->adapter);
	jw_string(&j, "adapter_path", r->adapter_path);
	jw_string(&j, "date", r->started);
	jw_string(&j, "adapter_version", r->version);
	run_identity(&j, r);
	jw_bool(&j, "isolated", r->isolated);
	jw_fixed(&j, "score", r->score, 4);
	jw_fixed(&j, "seconds", r->seconds, 3);
	isolation(&j, r);
	score_rule(&j, r);
	verdict_counts(&j, "totals", r->total);
	by_protocol(&j, r);
	by_tag(&j, r);
	by_family(&j, r);
	defect_classes(&j, r);
	failures(&j, r, 0);
	failures(&j, r, 1);
	if (r->notes) {
		jw_string(&j, "notes_file", r->notes_path);
		jw_string_n(&j, "notes", r->notes, r->notes_len);
	}
	runs(&j, r);
	jw_close(&j, '}');
	if (jw_end(&j) == 0)
		return 0;
	snprintf(err, errlen, "a write failed");
	return -1;
}
