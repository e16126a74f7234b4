/* json.c — the JSON certificate, written by a streaming writer that never seeks (valid UTF-8 whatever the input). */
#include <stdio.h>
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

static void failures(struct jw *j, const struct tc_report *r)
{
	char level[8];
	jw_open(j, "failures", '[', 0);
	for (int i = 0; i < r->ntasks; i++) {
		const struct tc_task *t = &r->tasks[i];
		if (tc_verdict_is_good(t->verdict))
			continue;
		snprintf(level, sizeof level, "L%d", t->level);
		jw_open(j, NULL, '{', 1);
		jw_string(j, "vector", r->paths[t->vector]);
		jw_string(j, "level", level);
		jw_string(j, "verdict", tc_verdict_names[t->verdict]);
		jw_string(j, "detail", t->diag);
		jw_close(j, '}');
	}
	jw_close(j, ']');
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
	jw_open(j, "vector_set", '{', 1);
	jw_int(j, "files", (long long)r->nfiles);
	jw_string(j, "hash", r->set_hash);
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
	jw_string(&j, "adapter", r->adapter);
	jw_string(&j, "adapter_version", r->version);
	run_identity(&j, r);
	jw_bool(&j, "isolated", r->isolated);
	jw_fixed(&j, "score", r->score, 4);
	jw_fixed(&j, "seconds", r->seconds, 3);
	isolation(&j, r);
	verdict_counts(&j, "totals", r->total);
	by_protocol(&j, r);
	by_tag(&j, r);
	failures(&j, r);
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
