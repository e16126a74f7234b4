/* SPDX-License-Identifier: BSD-3-Clause */
/* merge.c — `tracecert certify --merge`: the JSON certificates of the N shards of one run (--shard I/N) read back and written as the certificate of the whole run. */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certfiles.h"
#include "certify.h"
#include "interrupt.h"
#include "jsonread.h"
#include "runner.h"
#include "tracecert/protocol.h"

#define SHARD_FILE_MAX (256u << 20)

/* One shard file, read. */
struct shard {
	const char *file;
	struct tc_jv doc;
	unsigned index, count;    /* 0/0 (a run without --shard) reads as 1/1 */
};

/* The merged run: every shard's runs in the plan's order. */
struct merged {
	struct tc_task *tasks;
	int ntasks;
	char **paths;             /* by vector index (nfiles), NULL where no run names it */
	char **tags;
	size_t nfiles;
	double seconds;
};

static int merge_error(const char *file, const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "tracecert certify: --merge %s: ", file);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return -1;
}

/* The whole file, at most SHARD_FILE_MAX bytes (malloc'd, *n bytes), or NULL after a message. */
static char *read_whole(const char *file, size_t *n)
{
	FILE *f = fopen(file, "rb");
	char *buf = NULL;
	size_t cap = 0, got = 0;
	while (f) {
		if (got == cap) {
			char *nb = cap < SHARD_FILE_MAX + 1 ? realloc(buf, cap ? 2 * cap : 65536) : NULL;
			if (!nb)
				break;
			buf = nb;
			cap = cap ? 2 * cap : 65536;
		}
		size_t k = fread(buf + got, 1, cap - got, f);
		got += k;
		if (k == 0)
			break;
	}
	if (!f || ferror(f) || got > SHARD_FILE_MAX || (got == cap && !feof(f))) {
		fprintf(stderr, "tracecert certify: --merge %s: cannot read it: %s\n", file,
			!f || ferror(f) ? strerror(errno) : "longer than 256 MiB or out of memory");
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	*n = got;
	return buf;
}

/* The string member key of o ("" when there is none: then *ok is 0). */
static const char *str_of(const struct tc_jv *o, const char *key, int *ok)
{
	const struct tc_jv *v = tc_json_get(o, key);
	if (v && v->type == tc_j_string)
		return v->s;
	*ok = 0;
	return "";
}

/* The number member key of o, an integer in 0..max (else *ok is 0). */
static long num_of(const struct tc_jv *o, const char *key, long max, int *ok)
{
	const struct tc_jv *v = tc_json_get(o, key);
	if (v && v->type == tc_j_number && v->num >= 0 && v->num <= max && v->num == (double)(long)v->num)
		return (long)v->num;
	*ok = 0;
	return 0;
}

static int bool_of(const struct tc_jv *o, const char *key, int *ok)
{
	const struct tc_jv *v = tc_json_get(o, key);
	if (v && v->type == tc_j_bool)
		return v->num != 0;
	*ok = 0;
	return 0;
}

/* Reads and parses a shard file: a JSON certificate with its shard. 0, or -1 after a message. */
static int read_shard(const char *file, struct shard *s)
{
	char err[200];
	size_t n;
	char *text = read_whole(file, &n);
	int ok = 1;
	memset(s, 0, sizeof *s);
	s->file = file;
	if (!text)
		return -1;
	if (tc_json_parse(text, n, &s->doc, err, sizeof err) != 0) {
		free(text);
		return merge_error(file, "not JSON: %s%s", err, "");
	}
	free(text);
	const struct tc_jv *sh = tc_json_get(&s->doc, "shard");
	s->index = (unsigned)num_of(sh, "index", 65536, &ok);
	s->count = (unsigned)num_of(sh, "count", 65536, &ok);
	if (!ok || !tc_json_get(&s->doc, "runs") || tc_json_get(&s->doc, "runs")->type != tc_j_array)
		return merge_error(file, "not a certificate of tracecert certify with its runs (no %s%s)",
				   ok ? "\"runs\" list" : "\"shard\" index and count", "");
	if (s->count == 0 && s->index == 0)
		s->index = s->count = 1;
	if (s->index < 1 || s->index > s->count)
		return merge_error(file, "its shard %s is not one of %s", "(index out of range)", "1..N");
	return 0;
}

/* What must be the same in every shard of one run, as "KEY" or "OBJECT.KEY". */
static const char *const same_keys[] = {
	"format_version", "adapter", "adapter_version", "adapter_path", "tracecert_version", "levels", "tags",
	"vector_set.files", "vector_set.hash", "vector_set.content_digest", "limits.timeout_s", "limits.memory_mb",
	"limits.output_mb", "limits.processes", "limits.items", "notes", "notes_file", NULL
};

/* The text of a member named by same_keys in doc ("(none)" when absent). */
static void member_text(const struct tc_jv *doc, const char *name, char *buf, size_t n)
{
	const char *dot = strchr(name, '.');
	char head[32];
	const struct tc_jv *v = doc;
	if (dot) {
		snprintf(head, sizeof head, "%.*s", (int)(dot - name), name);
		v = tc_json_get(v, head);
		name = dot + 1;
	}
	v = tc_json_get(v, name);
	if (!v)
		snprintf(buf, n, "(none)");
	else
		snprintf(buf, n, "%s%.200s%s", v->type == tc_j_string ? "'" : "", v->s ? v->s : "?",
			 v->type == tc_j_string ? "'" : "");
}

/* Every shard against the first: the same run, the same N, each shard once, none missing. 0, or -1. */
static int check_shards(const struct shard *s, size_t n)
{
	char a[260], b[260], what[600];
	unsigned char *seen = calloc(s[0].count + 1, 1);
	int rc = 0;
	if (!seen)
		return merge_error(s[0].file, "%s%s", "out of memory", "");
	for (size_t i = 0; i < n && rc == 0; i++) {
		for (int k = 0; same_keys[k] && rc == 0; k++) {
			member_text(&s[0].doc, same_keys[k], a, sizeof a);
			member_text(&s[i].doc, same_keys[k], b, sizeof b);
			if (strcmp(a, b)) {
				snprintf(what, sizeof what, "is not a shard of the run %s is: its %s is %s, not %s", s[0].file,
					 same_keys[k], b, a);
				rc = merge_error(s[i].file, "%s%s", what, "");
			}
		}
		if (rc == 0 && s[i].count != s[0].count) {
			snprintf(what, sizeof what, "is shard %u/%u, %s is of %u shards", s[i].index, s[i].count, s[0].file,
				 s[0].count);
			rc = merge_error(s[i].file, "%s%s", what, "");
		} else if (rc == 0 && seen[s[i].index]) {
			size_t j = 0;
			while (s[j].index != s[i].index)
				j++;
			snprintf(what, sizeof what, "shard %u/%u is given twice (%s too): the runs would overlap",
				 s[i].index, s[i].count, s[j].file);
			rc = merge_error(s[i].file, "%s%s", what, "");
		} else if (rc == 0) {
			seen[s[i].index] = 1;
		}
	}
	for (unsigned k = 1; rc == 0 && k <= s[0].count; k++)
		if (!seen[k]) {
			snprintf(what, sizeof what, "shard %u/%u is missing (%zu file%s given)", k, s[0].count, n,
				 n == 1 ? "" : "s");
			rc = merge_error(s[0].file, "%s%s", what, "");
		}
	free(seen);
	return rc;
}

static int verdict_id(const char *name)
{
	for (int k = 0; k < tc_v_count; k++)
		if (!strcmp(tc_verdict_names[k], name))
			return k;
	return -1;
}

static int protocol_id(const char *name)
{
	const struct tc_protocol *p = tc_protocol_find(name);
	return p ? (int)p->id : !strcmp(name, "unreadable") ? tc_proto_none : -1;
}

/* One run of shard s into t, its path and tags into m. 0, or -1 after a message. */
static int take_run(const struct shard *s, const struct tc_jv *run, struct merged *m, struct tc_task *t)
{
	int ok = 1;
	long index = num_of(run, "index", (long)m->nfiles - 1, &ok);
	const char *level = str_of(run, "level", &ok), *path = str_of(run, "vector", &ok);
	const char *tags = str_of(run, "tags", &ok), *verdict = str_of(run, "verdict", &ok);
	const char *proto = str_of(run, "protocol", &ok), *note = str_of(run, "isolation_missing", &ok);
	const char *diag = str_of(run, "detail", &ok);
	char where[40];
	memset(t, 0, sizeof *t);
	t->vector = (int)index;
	t->level = !strcmp(level, "L1") ? 1 : !strcmp(level, "L3") ? 3 : 0;
	t->verdict = verdict_id(verdict);
	t->protocol = protocol_id(proto);
	t->started = bool_of(run, "started", &ok);
	t->isolation = (unsigned)num_of(run, "isolation", tc_iso_all, &ok);
	if (!ok || !t->level || t->verdict < 0 || t->protocol < 0 || strlen(diag) >= sizeof t->diag ||
	    strlen(note) >= sizeof t->iso_note)
		return merge_error(s->file, "a run that is not what certify writes: %s (%s)", path, "index, vector, level, "
				   "protocol, tags, verdict, started, isolation, isolation_missing, detail");
	if ((unsigned long)index % s->count != s->index - 1) {
		snprintf(where, sizeof where, "%u/%u", s->index, s->count);
		return merge_error(s->file, "its run of %s is not of its shard %s", path, where);
	}
	if (m->paths[index] && strcmp(m->paths[index], path))
		return merge_error(s->file, "names vector %s and %s by one index", path, m->paths[index]);
	if (!m->paths[index] && (!(m->paths[index] = strdup(path)) || !(m->tags[index] = strdup(tags))))
		return merge_error(s->file, "%s%s", "out of memory", "");
	snprintf(t->diag, sizeof t->diag, "%s", diag);
	snprintf(t->iso_note, sizeof t->iso_note, "%s", note);
	return 0;
}

static int cmp_task(const void *a, const void *b)
{
	const struct tc_task *x = a, *y = b;
	return x->vector != y->vector ? (x->vector > y->vector) - (x->vector < y->vector) : x->level - y->level;
}

/* Every shard's runs, in the plan's order (vector index, then level). 0, or -1 after a message. */
static int gather(const struct shard *s, size_t n, struct merged *m)
{
	size_t total = 0;
	int ok = 1;
	m->nfiles = (size_t)num_of(tc_json_get(&s[0].doc, "vector_set"), "files", 1L << 30, &ok);
	for (size_t i = 0; i < n; i++)
		total += tc_json_get(&s[i].doc, "runs")->n;
	if (!ok || total > (1u << 30))
		return merge_error(s[0].file, "%s%s", "no vector_set.files count, or too many runs", "");
	m->tasks = calloc(total ? total : 1, sizeof *m->tasks);
	m->paths = calloc(m->nfiles ? m->nfiles : 1, sizeof *m->paths);
	m->tags = calloc(m->nfiles ? m->nfiles : 1, sizeof *m->tags);
	if (!m->tasks || !m->paths || !m->tags)
		return merge_error(s[0].file, "%s%s", "out of memory", "");
	for (size_t i = 0; i < n; i++) {
		const struct tc_jv *runs = tc_json_get(&s[i].doc, "runs"), *sec = tc_json_get(&s[i].doc, "seconds");
		for (size_t k = 0; k < runs->n; k++)
			if (take_run(&s[i], &runs->item[k], m, &m->tasks[m->ntasks++]))
				return -1;
		m->seconds += sec && sec->type == tc_j_number ? sec->num : 0;
	}
	qsort(m->tasks, (size_t)m->ntasks, sizeof *m->tasks, cmp_task);
	for (int i = 1; i < m->ntasks; i++)
		if (!cmp_task(&m->tasks[i - 1], &m->tasks[i]))
			return merge_error(s[0].file, "the run L%s of %s is in two shards", m->tasks[i].level == 1 ? "1" : "3",
					   m->paths[m->tasks[i].vector]);
	return 0;
}

/* The per-run limits the shards share (check_shards compared them). */
static void take_limits(const struct tc_jv *l, struct tc_limits *lim)
{
	int ok = 1;
	lim->timeout_s = (unsigned)num_of(l, "timeout_s", 100000, &ok);
	lim->mem_mb = (unsigned long)num_of(l, "memory_mb", 1L << 20, &ok);
	lim->out_mb = (unsigned long)num_of(l, "output_mb", 1L << 20, &ok);
	lim->procs = (unsigned long)num_of(l, "processes", 1L << 30, &ok);
	lim->items = (unsigned long)num_of(l, "items", 1L << 40, &ok);
}

/* The report of the whole run from the shards (first: the run's identity)
 * and their runs; the walls of the declaration's process are the first
 * unguarded shard's, else the first's. */
static void build_report(const struct shard *s, size_t n, struct merged *m, struct tc_report *r)
{
	int ok = 1;
	const struct tc_jv *doc = &s[0].doc, *notes = tc_json_get(doc, "notes");
	const char *lv = str_of(doc, "levels", &ok);
	memset(r, 0, sizeof *r);
	r->adapter = str_of(doc, "adapter", &ok);
	r->version = str_of(doc, "adapter_version", &ok);
	r->tool_version = str_of(doc, "tracecert_version", &ok);
	r->adapter_path = str_of(doc, "adapter_path", &ok);
	snprintf(r->started, sizeof r->started, "%s", str_of(doc, "date", &ok));
	snprintf(r->content_digest, sizeof r->content_digest, "%s",
		 str_of(tc_json_get(doc, "vector_set"), "content_digest", &ok));
	take_limits(tc_json_get(doc, "limits"), &r->lim);
	r->levels = !strcmp(lv, "1") ? 1 : !strcmp(lv, "3") ? 4 : 5;
	r->tag_option = str_of(doc, "tags", &ok);
	r->nfiles = m->nfiles;
	snprintf(r->set_hash, sizeof r->set_hash, "%s", str_of(tc_json_get(doc, "vector_set"), "hash", &ok));
	r->hidden_why = str_of(doc, "not_hidden", &ok);
	r->declaration_guarded = 1;
	r->decl_note = str_of(tc_json_get(doc, "declaration"), "missing", &ok);
	for (size_t i = 0; i < n && r->declaration_guarded; i++) {
		const struct tc_jv *d = tc_json_get(&s[i].doc, "declaration");
		if (!bool_of(d, "guarded", &ok)) {
			r->declaration_guarded = 0;
			r->decl_note = str_of(d, "missing", &ok);
		}
	}
	if (notes && notes->type == tc_j_string) {
		r->notes = notes->s;
		r->notes_len = strlen(notes->s);
		r->notes_path = str_of(doc, "notes_file", &ok);
	}
	r->tasks = m->tasks;
	r->ntasks = m->ntasks;
	r->paths = m->paths;
	r->tags = m->tags;
	r->seconds = m->seconds;
}

/* The vectors of the failing runs, read again for the trace bytes the HTML
 * certificate shows; none (the HTML says they are not at hand) when the
 * files are not those the shards ran: a content digest that differs. A set
 * of which a file has no run in any shard (its path is not in the shards)
 * cannot be digested: its failing vectors are read as they are. */
struct traces {
	struct tc_vector *v;
	const struct tc_vector **at;
	size_t n;
};

static void load_traces(const struct merged *m, struct tc_report *r, struct traces *tr)
{
	char digest[17], err[600];
	int whole = 1;
	for (size_t i = 0; i < m->nfiles; i++)
		whole &= m->paths[i] != NULL;
	if (whole) {
		tc_content_digest(m->paths, m->nfiles, digest);
		if (strcmp(digest, r->content_digest))
			return;
	}
	tr->v = calloc(m->nfiles ? m->nfiles : 1, sizeof *tr->v);
	tr->at = calloc(m->nfiles ? m->nfiles : 1, sizeof *tr->at);
	if (!tr->v || !tr->at)
		return;
	tr->n = m->nfiles;
	for (int i = 0; i < m->ntasks; i++) {
		int k = m->tasks[i].vector;
		if (tc_verdict_is_good(m->tasks[i].verdict) || tr->at[k])
			continue;
		if (tc_vector_load_strict(m->paths[k], &tr->v[k], err, sizeof err) == 0)
			tr->at[k] = &tr->v[k];
	}
	r->vectors = tr->at;
}

static void traces_free(struct traces *tr)
{
	for (size_t i = 0; tr->at && i < tr->n; i++)
		if (tr->at[i])
			tc_vector_free(&tr->v[i]);
	free(tr->v);
	free(tr->at);
}

/* The merged report written as certify writes a run's. The exit status. */
static int write_merged(const struct tc_certify_options *o, struct tc_report *r)
{
	struct tc_tallies ts;
	struct tc_certfiles cf;
	int rc = 2;
	memset(&cf, 0, sizeof cf);
	memset(&ts, 0, sizeof ts);
	tc_report_count_isolation(r);
	if (tc_report_summarise(r, &ts) != 0) {
		fprintf(stderr, "tracecert certify: out of memory\n");
	} else if (tc_certfiles_prepare(&cf, o->report) == 0) {
		int w = tc_certfiles_write(&cf, r);
		if (w == 0 && (!o->junit || tc_certfiles_junit(o->junit, r) == 0)) {
			fprintf(stderr, "certify: merged %d runs of %s: score %.2f%%\n", r->ntasks, r->adapter,
				100.0 * r->score);
			rc = tc_report_exit_status(r);
		} else if (w == 1) {
			rc = tc_interrupt_status();
		}
	}
	tc_tallies_free(&ts);
	return rc;
}

int tc_certify_merge(const struct tc_certify_options *o, const char *const *files, size_t n)
{
	struct shard *s = calloc(n, sizeof *s);
	struct merged m;
	struct tc_report r;
	size_t nread = 0;
	int rc = 2;
	memset(&m, 0, sizeof m);
	if (!s) {
		fprintf(stderr, "tracecert certify: out of memory\n");
		return 2;
	}
	tc_interrupt_catch();
	while (nread < n && read_shard(files[nread], &s[nread]) == 0)
		nread++;
	if (nread == n && check_shards(s, n) == 0 && gather(s, n, &m) == 0) {
		struct traces tr = { NULL, NULL, 0 };
		build_report(s, n, &m, &r);
		load_traces(&m, &r, &tr);
		rc = write_merged(o, &r);
		traces_free(&tr);
	}
	for (size_t i = 0; i < n; i++)
		tc_json_free(&s[i].doc);
	for (size_t i = 0; i < m.nfiles && m.paths; i++) {
		free(m.paths[i]);
		free(m.tags[i]);
	}
	free(m.paths);
	free(m.tags);
	free(m.tasks);
	free(s);
	return rc;
}
