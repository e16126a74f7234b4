/* SPDX-License-Identifier: BSD-3-Clause */
/* clausecov.c — spec-clause coverage of the vectors (coverage/README.md).
 *
 * For one protocol: runs every vector separately through the protocol's
 * reference decoder (its descriptor, tracecert/protocol.h) built with
 * -DTC_CLAUSE_TRACE, records which clauses of coverage/clauses/NAME.txt each
 * one reaches, and writes spec-coverage-NAME.md and .html: every clause,
 * its section, its hit count and the vectors that reach it. A hit counts for
 * a vector only when the vector checks the level that observes the clause
 * (the CHECK column). Exit status 1 when a clause is not covered, when a
 * `never` clause is hit, or when the code hits an id or a case value that
 * the list does not have. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "outfile.h"
#include "vector.h"
#include "insn.h"
#include "clause_trace.h"

enum check { chk_l1, chk_l2, chk_l3, chk_never };
static const char *const check_names[] = { "L1", "L2", "L3", "never" };

/* One matcher of an arm: a bit pattern or a named value. */
struct item {
	int is_bits;
	int width;                /* bits */
	unsigned long care, want; /* bit pattern: value & care == want */
	long value;               /* named value */
};

struct clause {
	char *id;
	char *prefix;             /* arms: the case prefix; else NULL */
	int otherwise;
	struct item *item;
	int nitem;
	enum check check;
	char *title;
	int line;
	unsigned long hits;       /* from vectors that check the level */
	int *vec;                 /* those vectors (indexes), ascending */
	int nvec, capvec;
	int unchecked;            /* vectors that reach it without checking its level */
	int hit_this;             /* scratch: reached by the current vector */
};

struct run {
	const struct tc_protocol *proto;
	const char *list;         /* the clause list's path */
	struct clause *c;
	int n;
	char **vector;            /* paths */
	int nvector;
	int cur;                  /* vector being run */
	int checks[3];            /* levels the current vector checks */
	int errors;
	int nchecking[3];         /* vectors checking each level */
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		fprintf(stderr, "clausecov: out of memory\n");
		exit(2);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

static char *trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* ---- Named values of the case selectors ----------------------------------- */

/* "no-image" -> "L3_NO_IMAGE" */
static void upper_name(char *out, size_t size, const char *prefix, const char *name)
{
	size_t n = (size_t)snprintf(out, size, "%s", prefix);
	for (; *name && n + 1 < size; name++)
		out[n++] = *name == '-' ? '_' : (char)toupper((unsigned char)*name);
	out[n] = '\0';
}

/* The shared names (instruction types of reference/insn.h, the L3 kinds of
 * tracecert/trace.h), then the protocol's own (its descriptor's clause_value). */
static int named_value(const struct tc_protocol *proto, const char *name, long *value)
{
	static const struct { const char *name; long value; } fixed[] = {
		{ "InstType_OTHER", tc_insn_other }, { "InstType_BRANCH_DIR", tc_insn_branch_dir },
		{ "InstType_BRANCH_INDIR", tc_insn_branch_indir }, { "InstType_WFX", tc_insn_wfx },
		{ "InstType_ISB", tc_insn_isb }, { "InstType_TSTART", tc_insn_tstart },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		if (!strcmp(name, fixed[i].name)) {
			*value = fixed[i].value;
			return 1;
		}
	for (int k = 0; k < tc_l3_kind_count; k++) {
		upper_name(buf, sizeof buf, "L3_", tc_l3_kind_name(k));
		if (!strcmp(name, buf)) {
			*value = k;
			return 1;
		}
	}
	return proto->clause_value && proto->clause_value(name, value);
}

static int item_matches(const struct item *it, long value)
{
	if (!it->is_bits)
		return value == it->value;
	if (value < 0 || (it->width < 63 && (unsigned long)value >> it->width))
		return 0;
	return ((unsigned long)value & it->care) == it->want;
}

/* ---- The list --------------------------------------------------------------- */

static int parse_arm(const struct tc_protocol *proto, struct clause *c, char *arm, char *err, size_t errlen)
{
	char *save = NULL;
	if (!strcmp(arm, "otherwise")) {
		c->otherwise = 1;
		return 0;
	}
	for (char *tok = strtok_r(arm, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct item it;
		size_t n = strlen(tok);
		memset(&it, 0, sizeof it);
		if (tok[0] == '\'' && n >= 3 && tok[n - 1] == '\'') {
			it.is_bits = 1;
			it.width = (int)n - 2;
			for (size_t i = 1; i + 1 < n; i++) {
				it.care <<= 1;
				it.want <<= 1;
				if (tok[i] == '0' || tok[i] == '1') {
					it.care |= 1;
					it.want |= (unsigned long)(tok[i] - '0');
				} else if (tok[i] != 'x') {
					snprintf(err, errlen, "bad bit pattern %s", tok);
					return -1;
				}
			}
		} else if (!named_value(proto, tok, &it.value)) {
			snprintf(err, errlen, "'%s' is not a known value name", tok);
			return -1;
		}
		c->item = xrealloc(c->item, (size_t)(c->nitem + 1) * sizeof *c->item);
		c->item[c->nitem++] = it;
	}
	return 0;
}

/* The clause list whole (tc_text_read: lines of any length), NUL bytes
 * refused; NULL after a message. */
static char *read_list(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL, why[300];
	if (!f) {
		fprintf(stderr, "clausecov: cannot read '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	if (tc_text_read(f, TC_VECTOR_MAX_BYTES, "a clause list", &text, len, why, sizeof why) != 0) {
		fprintf(stderr, "clausecov: '%s': %s\n", path, why);
	} else if (memchr(text, '\0', *len)) {
		fprintf(stderr, "clausecov: %s: byte offset %zu: a NUL byte (a clause list is text)\n", path,
			(size_t)((char *)memchr(text, '\0', *len) - text));
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

static int load_list(struct run *run, const char *path)
{
	size_t len = 0;
	char *text = read_list(path, &len), *at = text, *buf, err[256];
	int line = 0, bad = 0;
	if (!text)
		return -1;
	while ((buf = tc_text_line(&at, text + len)) != NULL) {
		char *s = trim(buf), *bar1, *bar2, *colon;
		struct clause c;
		line++;
		if (!*s || *s == '#')
			continue;
		bar1 = strstr(s, " | ");
		bar2 = bar1 ? strstr(bar1 + 3, " | ") : NULL;
		if (!bar2) {
			fprintf(stderr, "%s:%d: expected ID | CHECK | TITLE\n", path, line);
			bad = 1;
			continue;
		}
		*bar1 = *bar2 = '\0';
		memset(&c, 0, sizeof c);
		c.line = line;
		c.id = xstrdup(trim(s));
		c.title = xstrdup(trim(bar2 + 3));
		c.check = chk_never + 1;
		for (int k = 0; k <= chk_never; k++)
			if (!strcmp(trim(bar1 + 3), check_names[k]))
				c.check = (enum check)k;
		if (c.check > chk_never) {
			fprintf(stderr, "%s:%d: CHECK is L1, L2, L3 or never\n", path, line);
			bad = 1;
		}
		colon = strchr(c.id, ':');
		if (colon) {
			char *arm = xstrdup(colon + 1);
			c.prefix = xstrdup(c.id);
			c.prefix[colon - c.id] = '\0';
			if (parse_arm(run->proto, &c, arm, err, sizeof err)) {
				fprintf(stderr, "%s:%d: %s\n", path, line, err);
				bad = 1;
			}
			free(arm);
		}
		run->c = xrealloc(run->c, (size_t)(run->n + 1) * sizeof *run->c);
		run->c[run->n++] = c;
	}
	free(text);
	return bad ? -1 : 0;
}

static struct clause *find(struct run *run, const char *id)
{
	for (int i = 0; i < run->n; i++)
		if (!strcmp(run->c[i].id, id))
			return &run->c[i];
	return NULL;
}

/* ---- Running the vectors ---------------------------------------------------- */

static void error(struct run *run, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "clausecov: %s: ", run->vector[run->cur]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	run->errors++;
}

static void hit(struct run *run, struct clause *c, unsigned long count)
{
	if (c->check == chk_never) {
		if (!c->hit_this)
			c->unchecked++;
		c->hit_this = 1;
		error(run, "reaches %s, which the list says no input can reach", c->id);
		return;
	}
	if (!run->checks[c->check]) {
		if (!c->hit_this)
			c->unchecked++;
		c->hit_this = 1;
		return;
	}
	c->hits += count;
	if (!c->hit_this) {
		if (c->nvec == c->capvec) {
			c->capvec = c->capvec ? 2 * c->capvec : 8;
			c->vec = xrealloc(c->vec, (size_t)c->capvec * sizeof *c->vec);
		}
		c->vec[c->nvec++] = run->cur;
	}
	c->hit_this = 1;
}

static void visit(void *ctx, const char *id, int is_case, long value, unsigned long count)
{
	struct run *run = ctx;
	struct clause *c = find(run, id), *arm = NULL, *otherwise = NULL;
	int has_arms = 0;
	if (!is_case) {
		if (!c)
			error(run, "the code marks \"%s\", which %s does not list", id, run->list);
		else
			hit(run, c, count);
		return;
	}
	if (c)
		hit(run, c, count);
	for (int i = 0; i < run->n && !arm; i++) {
		struct clause *a = &run->c[i];
		if (!a->prefix || strcmp(a->prefix, id) != 0)
			continue;
		has_arms = 1;
		if (a->otherwise && !otherwise)
			otherwise = a;
		for (int k = 0; k < a->nitem && !arm; k++)
			if (item_matches(&a->item[k], value))
				arm = a;
	}
	if (!arm)
		arm = otherwise;
	if (arm)
		hit(run, arm, count);
	else if (has_arms)
		error(run, "case \"%s\" has value %ld (0x%lx), which matches no listed arm", id, value,
		      (unsigned long)value);
	else if (!c)
		error(run, "the code marks case \"%s\", which %s does not list", id, run->list);
}

static int run_vector(struct run *run)
{
	struct tc_vector v;
	struct tc_output out;
	char err[512];
	if (tc_vector_load(run->vector[run->cur], &v, err, sizeof err)) {
		fprintf(stderr, "clausecov: %s: %s\n", run->vector[run->cur], err);
		run->errors++;
		return -1;
	}
	if (v.proto != run->proto) {
		error(run, "a vector of protocol %s, but the clauses are those of %s", v.proto->name, run->proto->name);
		tc_vector_free(&v);
		return -1;
	}
	run->checks[chk_l1] = v.has[tc_sec_l1] || v.has[tc_sec_s1] || v.has[tc_sec_error];
	run->checks[chk_l2] = v.has[tc_sec_l2];
	run->checks[chk_l3] = v.has[tc_sec_l3];
	for (int k = 0; k < 3; k++)
		run->nchecking[k] += run->checks[k];
	for (int i = 0; i < run->n; i++)
		run->c[i].hit_this = 0;
	tc_clause_trace_reset();
	if (tc_collect(v.proto, v.config, &v.image, v.trace, v.trace_len, 0, &out)) {
		fprintf(stderr, "clausecov: %s: the decoder rejected the configuration\n", run->vector[run->cur]);
		run->errors++;
		tc_vector_free(&v);
		return -1;
	}
	tc_clause_trace_visit(visit, run);
	tc_output_free(&out);
	tc_vector_free(&v);
	return 0;
}

/* ---- Reports ---------------------------------------------------------------- */

static const char *section_of(const struct clause *c, char *buf, size_t size)
{
	size_t n = strcspn(c->id, "/");
	snprintf(buf, size, "%.*s", (int)n, c->id);
	return buf;
}

/* Vector path as shown: without the leading "vectors/NAME/". */
static const char *short_name(const struct run *run, const char *path)
{
	char folder[64];
	const char *p;
	snprintf(folder, sizeof folder, "vectors/%s/", run->proto->name);
	p = strstr(path, folder);
	return p ? p + strlen(folder) : path;
}

static int covered(const struct clause *c)
{
	return c->check == chk_never ? c->nvec == 0 && c->unchecked == 0 : c->nvec > 0;
}

static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

struct totals {
	int total, covered, never, never_reached, uncovered;
};

static struct totals count_totals(const struct run *run)
{
	struct totals t = { 0, 0, 0, 0, 0 };
	for (int i = 0; i < run->n; i++) {
		const struct clause *c = &run->c[i];
		if (c->check == chk_never) {
			t.never++;
			t.never_reached += !covered(c);
			continue;
		}
		t.total++;
		if (covered(c))
			t.covered++;
		else
			t.uncovered++;
	}
	return t;
}

#define MD_VECTORS 6   /* vectors named per clause in the Markdown report */

static int write_md(const struct run *run, FILE *f, const char *rel)
{
	struct totals t = count_totals(run);
	char sec[64];
	fprintf(f, "# Spec-clause coverage of the %s vectors\n\n", run->proto->title);
	fprintf(f, "Generated by `make coverage` (coverage/clausecov.c) from %s and the\n"
		   "TC_CLAUSE markers of the protocol's reference sources; see coverage/README.md.\n\n", run->list);
	fprintf(f, "**%d/%d clauses covered**, %d uncovered; %d clauses that no input can reach "
		   "(`never`), %d of them reached. %d vectors: %d check L1/s1/errors, "
		   "%d check L2, %d check L3. A hit counts only for a vector that checks the "
		   "level of the clause (column *check*); *unchecked* counts the other vectors "
		   "that reach it.\n\n", t.covered, t.total, t.uncovered, t.never, t.never_reached, run->nvector,
		run->nchecking[0], run->nchecking[1], run->nchecking[2]);
	if (t.uncovered || t.never_reached) {
		fprintf(f, "## Uncovered, or reached though `never`\n\n");
		for (int i = 0; i < run->n; i++)
			if (!covered(&run->c[i])) {
				fprintf(f, "- `%s` — ", run->c[i].id);
				md_escape(f, run->c[i].title);
				fprintf(f, "\n");
			}
		fprintf(f, "\n");
	}
	fprintf(f, "## Clauses\n\n| clause | section | check | hits | vectors | unchecked | what |\n"
		   "|---|---|---|---:|---|---:|---|\n");
	for (int i = 0; i < run->n; i++) {
		const struct clause *c = &run->c[i];
		fprintf(f, "| %s`%s` | %s | %s | %lu | ",
			covered(c) ? "" : c->check == chk_never ? "**REACHED** " : "**UNCOVERED** ", c->id,
			section_of(c, sec, sizeof sec), check_names[c->check], c->hits);
		if (c->nvec > 0)
			fprintf(f, "%d: ", c->nvec);
		/* hand-written vectors first, generated ones (gen/) after them */
		for (int pass = 0, shown = 0; pass < 2; pass++)
			for (int k = 0; k < c->nvec && shown < MD_VECTORS; k++) {
				const char *v = run->vector[c->vec[k]];
				if ((strstr(v, "/gen/") != NULL) != pass)
					continue;
				fprintf(f, "%s[%s](%s%s)", shown++ ? ", " : "", short_name(run, v), rel, v);
			}
		if (c->nvec > MD_VECTORS)
			fprintf(f, ", … (+%d)", c->nvec - MD_VECTORS);
		fprintf(f, " | %d | ", c->unchecked);
		md_escape(f, c->title);
		fprintf(f, " |\n");
	}
	return 0;
}

static int write_html(const struct run *run, FILE *f, const char *rel)
{
	struct totals t = count_totals(run);
	char sec[64];
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>tracecert: %s spec-clause coverage</title>\n"
		   "<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
		   "td,th{border:1px solid #ccc;padding:2px 6px;vertical-align:top;font-size:90%%}"
		   "tr.un{background:#fdd}tr.never{color:#777}td.n{text-align:right}code{font-size:95%%}"
		   "summary{cursor:pointer}</style></head><body>\n", run->proto->name);
	fprintf(f, "<h1>Spec-clause coverage of the ");
	html_escape(f, run->proto->title);
	fprintf(f, " vectors</h1>\n<p><b>%d/%d clauses covered</b>, "
		   "%d uncovered; %d clauses that no input can reach (<i>never</i>), %d of them "
		   "reached. %d vectors: %d check L1/s1/errors, %d check L2, %d check L3. A hit "
		   "counts only for a vector that checks the level of the clause; <i>unchecked</i> "
		   "counts the other vectors that reach it. Generated by <code>make coverage</code> "
		   "from %s and the TC_CLAUSE markers of the protocol's reference sources.</p>\n",
		t.covered, t.total, t.uncovered, t.never, t.never_reached, run->nvector, run->nchecking[0],
		run->nchecking[1], run->nchecking[2], run->list);
	fprintf(f, "<table>\n<tr><th>clause</th><th>section</th><th>check</th><th>hits</th>"
		   "<th>vectors</th><th>unchecked</th><th>what</th></tr>\n");
	for (int i = 0; i < run->n; i++) {
		const struct clause *c = &run->c[i];
		fprintf(f, "<tr id=\"c%d\" class=\"%s\"><td><code>", i,
			!covered(c) ? "un" : c->check == chk_never ? "never" : "ok");
		html_escape(f, c->id);
		fprintf(f, "</code></td><td>%s</td><td>%s</td><td class=\"n\">%lu</td><td>",
			section_of(c, sec, sizeof sec), check_names[c->check], c->hits);
		if (c->nvec > 0) {
			fprintf(f, "<details><summary>%d vector%s</summary>", c->nvec, c->nvec == 1 ? "" : "s");
			for (int pass = 0, shown = 0; pass < 2; pass++)   /* gen/ last */
				for (int k = 0; k < c->nvec; k++) {
					const char *v = run->vector[c->vec[k]];
					if ((strstr(v, "/gen/") != NULL) != pass)
						continue;
					fprintf(f, "%s<a href=\"%s", shown++ ? "<br>" : "", rel);
					html_escape(f, v);
					fprintf(f, "\">");
					html_escape(f, short_name(run, v));
					fprintf(f, "</a>");
				}
			fprintf(f, "</details>");
		} else {
			fprintf(f, "%s", c->check == chk_never ? "–" : "<b>none</b>");
		}
		fprintf(f, "</td><td class=\"n\">%d</td><td>", c->unchecked);
		html_escape(f, c->title);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n</body></html>\n");
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: clausecov --protocol NAME [--list CLAUSES] [--out DIR] [--rel PREFIX] PATH...\n"
		   "Runs every .tcv vector under each PATH (each on its own; all of protocol NAME)\n"
		   "through that protocol's reference decoder built with -DTC_CLAUSE_TRACE and\n"
		   "reports which clauses of CLAUSES (default coverage/clauses/NAME.txt) each\n"
		   "reaches. With --out, writes DIR/spec-coverage-NAME.md, DIR/spec-coverage-NAME.html\n"
		   "and DIR/spec-summary-NAME.txt; vector links are PREFIX + path (default: none).\n"
		   "Exit status 1 when a clause is uncovered, a `never` clause is reached, or the\n"
		   "code and the list disagree; 2 for bad usage or an unreadable list.\n");
}

typedef int (*report_fn)(const struct run *run, FILE *f, const char *rel);

/* Writes OUT/NAME through fn, built in memory and saved whole
 * (conformance/outfile.h). Counts a failure in run->errors. */
static void save_report(struct run *run, const char *out, const char *name, report_fn fn, const char *rel,
			const struct totals *t)
{
	char path[4096], err[600] = "out of memory";
	struct tc_out_text text;
	int rc = -1;
	snprintf(path, sizeof path, "%s/%s", out, name);
	if (tc_out_text_open(&text) == 0) {
		if (fn)
			fn(run, text.f, rel);
		else
			fprintf(text.f, "clauses_covered=%d\nclauses_total=%d\nclauses_never=%d\nvectors=%d\n", t->covered,
				t->total, t->never, run->nvector);
		if (tc_out_text_close(&text) == 0)
			rc = tc_out_save(path, text.buf, text.len, 0, err, sizeof err);
		tc_out_text_free(&text);
	}
	if (rc != 0) {
		fprintf(stderr, "clausecov: %s\n", strstr(err, path) ? err : path);
		run->errors++;
	}
}

/* The three reports of --out. */
static void write_reports(struct run *run, const char *out, const char *rel, const struct totals *t)
{
	char name[256], err[600];
	const char *p = run->proto->name;
	if (tc_out_probe_dir(out, err, sizeof err)) {
		fprintf(stderr, "clausecov: --out: %s\n", err);
		run->errors++;
		return;
	}
	snprintf(name, sizeof name, "spec-coverage-%s.md", p);
	save_report(run, out, name, write_md, rel, t);
	snprintf(name, sizeof name, "spec-coverage-%s.html", p);
	save_report(run, out, name, write_html, rel, t);
	snprintf(name, sizeof name, "spec-summary-%s.txt", p);
	save_report(run, out, name, NULL, rel, t);
}

int main(int argc, char **argv)
{
	static struct run run;
	const char *list = NULL, *out = NULL, *rel = "", *name = NULL;
	char default_list[256], err[600];
	int i = 1;
	struct totals t;
	size_t n = 0;
	tc_out_ignore_file_size_signal();
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--protocol") && i + 1 < argc) {
			name = argv[++i];
		} else if (!strcmp(argv[i], "--list") && i + 1 < argc) {
			list = argv[++i];
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--rel") && i + 1 < argc) {
			rel = argv[++i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (i == argc || !name) {
		usage(stderr);
		return 2;
	}
	run.proto = tc_protocol_find(name);
	if (!run.proto) {
		fprintf(stderr, "clausecov: unknown protocol '%s'\n", name);
		return 2;
	}
	if (!list) {
		snprintf(default_list, sizeof default_list, "coverage/clauses/%s.txt", run.proto->name);
		list = default_list;
	}
	run.list = list;
	if (load_list(&run, list))
		return 2;
	for (; i < argc; i++)
		if (tc_vector_list(argv[i], &run.vector, &n, err, sizeof err) == 0) {
			fprintf(stderr, "clausecov: %s\n", err);
			return 2;
		}
	run.nvector = (int)n;
	for (run.cur = 0; run.cur < run.nvector; run.cur++)
		run_vector(&run);
	t = count_totals(&run);
	if (out)
		write_reports(&run, out, rel, &t);
	printf("spec clauses (%s): %d/%d covered by %d vectors (%d uncovered); %d `never` clauses, %d of them reached\n",
	       run.proto->name, t.covered, t.total, run.nvector, t.uncovered, t.never, t.never_reached);
	for (int k = 0; k < run.n; k++)
		if (!covered(&run.c[k]) && run.c[k].check != chk_never)
			printf("  UNCOVERED %s (%s; reached unchecked by %d) — %s\n", run.c[k].id,
			       check_names[run.c[k].check], run.c[k].unchecked, run.c[k].title);
		else if (!covered(&run.c[k]))
			printf("  REACHED, though listed as never: %s — %s\n", run.c[k].id, run.c[k].title);
	if (run.errors)
		printf("clausecov: %d errors (above, on stderr)\n", run.errors);
	return t.uncovered || run.errors ? 1 : 0;
}
