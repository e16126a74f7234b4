/* SPDX-License-Identifier: BSD-3-Clause */
/* html.c — the HTML certificate: one self-contained file (inline CSS and SVG, no script, nothing fetched): identity, score, per protocol a heat map of tag family × level, the defect classes, every failure's first divergence beside the trace bytes it is at. */
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

/* The code point of the k bytes (1..4) of a valid UTF-8 sequence. */
static unsigned long code_point(const unsigned char *p, size_t k)
{
	static const unsigned char lead_mask[5] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
	unsigned long c = p[0] & lead_mask[k];
	for (size_t i = 1; i < k; i++)
		c = (c << 6) | (p[i] & 0x3F);
	return c;
}

/* What HTML does not permit in text even as a reference: a control
 * character (C0 but line feed and tab, DEL, C1) and a noncharacter
 * (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF). */
static int not_html_text(unsigned long c)
{
	return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7F && c < 0xA0) || (c >= 0xFDD0 && c <= 0xFDEF) ||
	       (c & 0xFFFE) == 0xFFFE;
}

/* The one escape of text in the HTML certificate: '&', '<', '>', '"' and
 * '\'' as references; what HTML does not permit (not_html_text), or a byte
 * that is not valid UTF-8, as the text \xNN of each byte (as in the TAP
 * stream). */
static void h_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p);
	while (left > 0) {
		size_t k = tc_utf8_len(p, left);
		if (k == 0)
			fprintf(f, "\\x%02x", *p);
		else if (not_html_text(code_point(p, k)))
			for (size_t i = 0; i < k; i++)
				fprintf(f, "\\x%02x", p[i]);
		else if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else if (*p == '\'')
			fputs("&#39;", f);
		else
			fwrite(p, 1, k, f);
		k = k ? k : 1;
		p += k;
		left -= k;
	}
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#222}"
	"h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;"
	"vertical-align:top}th{background:#f3f3f3}"
	".score{font-size:1.3em}.warn{background:#fdd;border:1px solid #c00;padding:.5em}"
	"code,pre{font:12px/1.35 ui-monospace,monospace}pre{background:#f7f7f7;padding:.4em;overflow-x:auto}"
	"mark{background:#fc6;outline:1px solid #c60}.failure{border:1px solid #ddd;padding:.3em .8em;margin:.8em 0}"
	".side td{font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap}"
	".side .at{background:#fee}.legend span{display:inline-block;padding:0 .5em;margin-right:.4em}"
	".s-pass{background:#5b5}.s-alt{background:#9d9}.s-fail{background:#e55}.s-crash{background:#a2a;color:#fff}"
	".s-hang{background:#f93}.s-flood{background:#c96}.s-error{background:#999;color:#fff}"
	".s-unsupported{background:#ddd}.s-none{background:#fff}";

/* The state a cell of the heat map shows: its worst verdict. */
static const char *cell_state(const int *c)
{
	static const struct {
		int verdict;
		const char *state;
	} order[] = {
		{ tc_v_crash, "crash" }, { tc_v_hang, "hang" }, { tc_v_malformed, "error" }, { tc_v_error, "error" },
		{ tc_v_runner, "error" }, { tc_v_flood, "flood" }, { tc_v_fail, "fail" }, { tc_v_pass_alt, "alt" },
		{ tc_v_pass, "pass" }, { tc_v_unsupported, "unsupported" }, { tc_v_skipped, "unsupported" }
	};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		if (c[order[i].verdict])
			return order[i].state;
	return "none";
}

static const char *state_colour(const char *state)
{
	static const char *const names[] = { "pass", "alt", "fail", "crash", "hang", "flood", "error", "unsupported" };
	static const char *const colours[] = { "#55bb55", "#99dd99", "#ee5555", "#aa22aa", "#ff9933", "#cc9966",
					       "#999999", "#dddddd" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(state, names[i]))
			return colours[i];
	return "#ffffff";
}

static int cell_total(const int *c)
{
	int n = 0;
	for (int k = 0; k < tc_v_count; k++)
		n += c[k];
	return n;
}

/* The counts of a cell as data attributes, for a reader of the file. */
static void cell_data(FILE *f, const int *c)
{
	for (int k = 0; k < tc_v_count; k++)
		fprintf(f, " data-%s=\"%d\"", tc_verdict_names[k], c[k]);
}

static void header(FILE *f, const struct tc_report *r)
{
	const int *t = r->total;
	char text[1200];
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>tracecert certificate: ");
	h_text(f, r->adapter);
	fputc(' ', f);
	h_text(f, r->version);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>tracecert certificate: ", style);
	h_text(f, r->adapter);
	fputc(' ', f);
	h_text(f, r->version);
	fprintf(f, "</h1>\n");
	tc_report_not_isolated(r, text, sizeof text);
	if (text[0]) {
		fprintf(f, "<p class=\"warn\"><b>Not isolated</b>: ");
		h_text(f, text);
		fprintf(f, ".</p>\n");
	}
	fprintf(f, "<p class=\"score\">Score: <b id=\"score\" data-score=\"%.4f\">%.2f%%</b> of the supported vector "
		   "runs pass (<span id=\"passed\">%d</span> pass of <span id=\"counted\">%d</span>, "
		   "<span id=\"pass-alt\">%d</span> of them under an alternative reading; %d unsupported).</p>\n",
		r->score, 100.0 * r->score, t[tc_v_pass] + t[tc_v_pass_alt],
		r->ntasks - t[tc_v_unsupported] - t[tc_v_skipped], t[tc_v_pass_alt], t[tc_v_unsupported]);
	fprintf(f, "<p>The score is (pass + pass-alt) / (runs &#8722; unsupported &#8722; not-run): a pass under an "
		   "alternative reading the vector names counts as a pass.</p>\n");
}

static void identity_row(FILE *f, const char *key, const char *value)
{
	fprintf(f, "<tr><th>%s</th><td>", key);
	h_text(f, value);
	fprintf(f, "</td></tr>\n");
}

static void identity(FILE *f, const struct tc_report *r)
{
	char buf[1200];
	fprintf(f, "<table id=\"identity\">\n");
	identity_row(f, "tracecert", r->tool_version);
	fprintf(f, "<tr><th>date</th><td id=\"date\">");
	h_text(f, r->started);
	fprintf(f, "</td></tr>\n");
	identity_row(f, "adapter", r->adapter_path);
	snprintf(buf, sizeof buf, "%zu files; paths FNV-1a 64 %s; content FNV-1a 64 %s", r->nfiles, r->set_hash,
		 r->content_digest);
	identity_row(f, "vector set", buf);
	snprintf(buf, sizeof buf, "--level %s; --tags %s%s", r->levels == 1 ? "1" : r->levels == 4 ? "3" : "all",
		 r->tag_option && r->tag_option[0] ? r->tag_option : "(none)", r->shard_count ? "; a shard" : "");
	identity_row(f, "options", buf);
	snprintf(buf, sizeof buf, "%u s, %lu MB memory, %lu MB output, %lu processes, %lu items per run",
		 r->lim.timeout_s, r->lim.mem_mb, r->lim.out_mb, r->lim.procs, r->lim.items);
	identity_row(f, "limits", buf);
	snprintf(buf, sizeof buf, "%d runs in %.2f s", r->ntasks, r->seconds);
	identity_row(f, "runs", buf);
	tc_report_isolation(r, buf, sizeof buf);
	identity_row(f, "isolation", buf);
	fprintf(f, "</table>\n");
}

static void protocols(FILE *f, const struct tc_report *r)
{
	fprintf(f, "<h2>By protocol and level</h2>\n<table id=\"protocols\">\n<tr><th>protocol</th><th>score</th>"
		   "<th>level</th>");
	for (int k = 0; k < tc_v_count; k++)
		fprintf(f, "<th>%s</th>", tc_verdict_names[k]);
	fprintf(f, "</tr>\n");
	for (int p = 0; p < tc_proto_count; p++) {
		int sum[tc_v_count];
		if (!tc_report_protocol_sum(r, p, sum))
			continue;
		for (int l = 0; l < 2; l++) {
			const int *c = r->by_protocol[p][l];
			fprintf(f, "<tr class=\"protocol\" data-protocol=\"%s\" data-level=\"L%d\" data-score=\"%.4f\"",
				tc_report_protocol_name(p), l ? 3 : 1, tc_report_score(sum));
			cell_data(f, c);
			fprintf(f, "><td>%s</td><td>%.2f%%</td><td>L%d</td>", tc_report_protocol_name(p),
				100.0 * tc_report_score(sum), l ? 3 : 1);
			for (int k = 0; k < tc_v_count; k++)
				fprintf(f, "<td>%d</td>", c[k]);
			fprintf(f, "</tr>\n");
		}
	}
	fprintf(f, "</table>\n");
}

#define ROW_H 18
#define NAME_W 190
#define CELL_W 120

/* One cell of the heat map: a rectangle coloured by its worst verdict, its
 * passes over its runs, a tooltip with every count. */
static void svg_cell(FILE *f, const struct tc_tally *x, int level, int row)
{
	const int *c = x->count[level];
	const char *state = cell_state(c);
	int x0 = NAME_W + level * CELL_W, y0 = 20 + row * ROW_H;
	fprintf(f, "<g class=\"cell\" data-protocol=\"%s\" data-family=\"", tc_report_protocol_name(x->protocol));
	h_text(f, x->tag);
	fprintf(f, "\" data-level=\"L%d\" data-state=\"%s\"", level ? 3 : 1, state);
	cell_data(f, c);
	fprintf(f, "><title>");
	h_text(f, x->tag);
	fprintf(f, " L%d:", level ? 3 : 1);
	for (int k = 0; k < tc_v_count; k++)
		if (c[k])
			fprintf(f, " %d %s", c[k], tc_verdict_names[k]);
	fprintf(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\"/>", x0, y0,
		CELL_W - 2, ROW_H - 2, state_colour(state), strcmp(state, "none") ? "#fff" : "#ddd");
	if (cell_total(c))
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%d/%d %s</text>", x0 + 4, y0 + 12,
			c[tc_v_pass] + c[tc_v_pass_alt], cell_total(c) - c[tc_v_unsupported] - c[tc_v_skipped], state);
	fprintf(f, "</g>\n");
}

/* Per protocol: an SVG grid of its tag families (rows) by level (columns). */
static void heat_map(FILE *f, const struct tc_report *r)
{
	fprintf(f, "<h2>Heat map: tag family &#215; level</h2>\n<p class=\"legend\">Each cell shows its passes over "
		   "the runs that count, coloured by its worst verdict: <span class=\"s-pass\">pass</span>"
		   "<span class=\"s-alt\">pass-alt</span><span class=\"s-fail\">fail</span><span class=\"s-crash\">"
		   "crash</span><span class=\"s-hang\">hang</span><span class=\"s-flood\">flood</span>"
		   "<span class=\"s-error\">error</span><span class=\"s-unsupported\">unsupported</span>. A tag's "
		   "family is the tag less a final -N or -xN (maxspec-4: maxspec).</p>\n");
	for (size_t i = 0; i < r->nfamily;) {
		int p = r->family[i].protocol, rows = 0, sum[tc_v_count];
		size_t j = i;
		while (j < r->nfamily && r->family[j].protocol == p)
			j++;
		tc_report_protocol_sum(r, p, sum);
		fprintf(f, "<h3>%s: %.2f%%</h3>\n", tc_report_protocol_name(p), 100.0 * tc_report_score(sum));
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heatmap\" data-protocol=\"%s\" "
			   "width=\"%d\" height=\"%d\" role=\"img\">\n", tc_report_protocol_name(p), NAME_W + 2 * CELL_W,
			20 + (int)(j - i) * ROW_H + 4);
		fprintf(f, "<text x=\"%d\" y=\"14\" font-size=\"12\" font-weight=\"bold\">L1</text>"
			   "<text x=\"%d\" y=\"14\" font-size=\"12\" font-weight=\"bold\">L3</text>\n", NAME_W + 4,
			NAME_W + CELL_W + 4);
		for (; i < j; i++, rows++) {
			fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"12\">", 20 + rows * ROW_H + 12);
			h_text(f, r->family[i].tag);
			fprintf(f, "</text>\n");
			svg_cell(f, &r->family[i], 0, rows);
			svg_cell(f, &r->family[i], 1, rows);
		}
		fprintf(f, "</svg>\n");
	}
}

static void defect_classes(FILE *f, const struct tc_report *r)
{
	const int *count = r->defect_count;
	fprintf(f, "<h2>Defect classes</h2>\n<table id=\"defects\">\n<tr><th>class</th><th>runs</th>"
		   "<th>what it means</th></tr>\n");
	for (int k = 0; k < tc_d_count; k++)
		if (count[k])
			fprintf(f, "<tr class=\"defect\" data-class=\"%s\" data-runs=\"%d\"><td>%s</td><td>%d</td>"
				   "<td>%s</td></tr>\n", tc_defect_names[k], count[k], tc_defect_names[k], count[k],
				tc_defect_explanations[k]);
	fprintf(f, "</table>\n");
}

/* Expected and got side by side: the context lines of the expected side
 * with the divergence marked, what the adapter gave at that line, and the
 * L1 line that differs too (l1_expected, l1_got). */
static void side_by_side(FILE *f, const struct tc_diag_fields *d)
{
	const char *got = tc_diag_get(d, "got"), *exp = tc_diag_get(d, "expected");
	fprintf(f, "<table class=\"side\"><tr><th>expected</th><th>got</th></tr>\n");
	for (size_t i = 0; i < d->ncontext; i++) {
		int at = (int)i == d->context_at;
		fprintf(f, "<tr%s><td>", at ? " class=\"at\"" : "");
		h_text(f, d->context[i]);
		fprintf(f, "</td><td>");
		if (at)
			h_text(f, got);
		fprintf(f, "</td></tr>\n");
	}
	if (d->context_at < 0 && (exp || got)) {
		fprintf(f, "<tr class=\"at\"><td>");
		h_text(f, exp);
		fprintf(f, "</td><td>");
		h_text(f, got);
		fprintf(f, "</td></tr>\n");
	}
	if (tc_diag_get(d, "l1_expected")) {
		fprintf(f, "<tr class=\"at\"><td>L1 line ");
		h_text(f, tc_diag_get(d, "l1_line"));
		fprintf(f, ": ");
		h_text(f, tc_diag_get(d, "l1_expected"));
		fprintf(f, "</td><td>");
		h_text(f, tc_diag_get(d, "l1_got"));
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
}

/* The trace bytes around the divergence, 16 to a line with their offsets,
 * the packet's bytes marked. */
static void trace_bytes(FILE *f, const struct tc_report *r, const struct tc_task *t, const struct tc_diag_fields *d)
{
	const struct tc_vector *v = r->vectors ? r->vectors[t->vector] : NULL;
	unsigned long long off, from, to;
	size_t len;
	if (!tc_diag_trace_range(d, &off, &len))
		return;
	if (!v || !v->trace) {
		fprintf(f, "<p>At trace byte %llu (the trace bytes are not at hand here: a merged certificate; the "
			   "vector file has them).</p>\n", off);
		return;
	}
	if (off >= v->trace_len) {
		fprintf(f, "<p>At trace byte %llu, past the trace's %zu bytes.</p>\n", off, v->trace_len);
		return;
	}
	from = (off > 32 ? off - 32 : 0) & ~15ull;
	to = off + len + 32 < v->trace_len ? off + len + 32 : v->trace_len;
	fprintf(f, "<p>Trace bytes %llu&#8211;%llu of the packet at the divergence, marked:</p>\n<pre class=\"trace\" "
		   "data-offset=\"%llu\" data-length=\"%zu\">", off, off + len - 1, off, len);
	for (unsigned long long a = from; a < to; a++) {
		int in = a >= off && a < off + len;
		if ((a - from) % 16 == 0)
			fprintf(f, "%s%8llu ", a == from ? "" : "\n", a);
		fprintf(f, " %s%02x%s", in ? "<mark>" : "", v->trace[a], in ? "</mark>" : "");
	}
	fprintf(f, "</pre>\n");
}

static void one_failure(FILE *f, const struct tc_report *r, const struct tc_task *t, int cls)
{
	struct tc_diag_fields d;
	char cmd[3 * 4096];
	tc_diag_read(t, &d);
	tc_repro_command(cmd, sizeof cmd, r, t);
	fprintf(f, "<div class=\"failure\" data-class=\"%s\" data-level=\"L%d\" data-verdict=\"%s\">\n<h4>L%d ",
		cls >= 0 ? tc_defect_names[cls] : "alternative-reading", t->level, tc_verdict_names[t->verdict],
		t->level);
	h_text(f, r->paths[t->vector]);
	fprintf(f, " &#8212; %s</h4>\n<p>Vector: <code class=\"vector\">", tc_verdict_names[t->verdict]);
	h_text(f, r->paths[t->vector]);
	fprintf(f, "</code>");
	for (size_t i = 0; i < d.n; i++)
		if (strcmp(d.key[i], "expected") && strcmp(d.key[i], "got") && strncmp(d.key[i], "l1_", 3)) {
			fprintf(f, "; %s: ", d.key[i]);
			h_text(f, d.value[i]);
		}
	fprintf(f, "</p>\n");
	if (tc_diag_get(&d, "expected") || tc_diag_get(&d, "got"))
		side_by_side(f, &d);
	trace_bytes(f, r, t, &d);
	fprintf(f, "<p>Reproduce: <code class=\"reproduce\">");
	h_text(f, cmd);
	fprintf(f, "</code></p>\n</div>\n");
}

static void group_heading(FILE *f, const char *title)
{
	fprintf(f, "<h3>%s</h3>\n", title);
}

/* The report's failure groups, in their order. */
static void failures(FILE *f, const struct tc_report *r)
{
	fprintf(f, "<h2>Failures by cause (defect class, then vector)</h2>\n");
	tc_report_failures(f, r, group_heading, one_failure);
}

int tc_html_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen)
{
	header(f, r);
	identity(f, r);
	protocols(f, r);
	heat_map(f, r);
	defect_classes(f, r);
	failures(f, r);
	if (r->notes) {
		fprintf(f, "<h2>Notes (");
		h_text(f, r->notes_path);
		fprintf(f, ")</h2>\n<pre class=\"notes\">");
		h_text(f, r->notes);
		fprintf(f, "</pre>\n");
	}
	fprintf(f, "</body>\n</html>\n");
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	snprintf(err, errlen, "a write failed");
	return -1;
}
