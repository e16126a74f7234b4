/* SPDX-License-Identifier: BSD-3-Clause */
/* markdown.c — the Markdown certificate, a summary: score, identity, the table by protocol and level, the heat map of the tag families that do not pass, the defect classes, the failures grouped by cause with the command that reproduces each. */
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

/* The one escape of text that is not the certificate's own (what the
 * adapter gave, vector and notes paths) for Markdown: kept on one line (a
 * control character, line breaks included, or a byte that is not valid
 * UTF-8 written \xNN), so it never starts a line, and the characters that
 * make headings (a closing '#' too), quotes, tables, links, images,
 * emphasis, code, HTML and entities backslash-escaped. */
static void md_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p);
	while (left > 0) {
		size_t k = tc_utf8_len(p, left);
		if (k == 0 || *p < 0x20 || *p == 0x7F)
			fprintf(f, "\\x%02x", *p);
		else if (strchr("\\`*_[]<>|#!~&", *p))
			fprintf(f, "\\%c", *p);
		else
			fwrite(p, 1, k, f);
		k = k ? k : 1;
		p += k;
		left -= k;
	}
}

/* What the adapter ran behind (runner.h, enum tc_isolation). */
static void isolation(FILE *f, const struct tc_report *r)
{
	char text[1200];
	tc_report_isolation(r, text, sizeof text);
	fprintf(f, "Isolation: ");
	md_text(f, text);
	fprintf(f, ".\n\n");
}

/* Under --no-isolation where a process that loaded the adapter was not
 * guarded: a warning above the score, which could be the adapter's. */
static void not_isolated(FILE *f, const struct tc_report *r)
{
	char text[1200];
	tc_report_not_isolated(r, text, sizeof text);
	if (!text[0])
		return;
	fprintf(f, "**Not isolated**: ");
	md_text(f, text);
	fprintf(f, ".\n\n");
}

static void header(FILE *f, const struct tc_report *r)
{
	const int *t = r->total;
	char id[1200];
	fprintf(f, "# tracecert certificate: ");
	md_text(f, r->adapter);
	fputc(' ', f);
	md_text(f, r->version);
	fprintf(f, "\n\n");
	not_isolated(f, r);
	fprintf(f, "Score: **%.2f%%** of the supported vector runs pass (%d pass of %d, %d of them under an "
		"alternative reading; %d unsupported). %d runs in %.2f s.\n\n", 100.0 * r->score,
		t[tc_v_pass] + t[tc_v_pass_alt], r->ntasks - t[tc_v_unsupported] - t[tc_v_skipped], t[tc_v_pass_alt],
		t[tc_v_unsupported], r->ntasks, r->seconds);
	fprintf(f, "The score is (pass + pass-alt) / (runs − unsupported − not-run): a pass under an alternative "
		   "reading the vector names counts as a pass.\n\n");
	fprintf(f, "Date: %s\n\n", r->started);
	fprintf(f, "tracecert ");
	md_text(f, r->tool_version);
	fprintf(f, "; adapter ");
	md_text(f, r->adapter_path);
	tc_report_identity(r, id, sizeof id);
	fprintf(f, "; ");
	md_text(f, id);
	fprintf(f, ".\n\n");
	isolation(f, r);
	fprintf(f, "Details: certificate.html (heat map, every divergence beside the trace bytes it is at) and "
		   "certificate.json (every run, its fields).\n");
}

static void level_cell(FILE *f, const int *c)
{
	fprintf(f, " %d / %d / %d / %d / %d / %d / %d |", c[tc_v_pass] + c[tc_v_pass_alt], c[tc_v_fail], c[tc_v_crash],
		c[tc_v_hang], c[tc_v_flood], c[tc_v_error] + c[tc_v_runner] + c[tc_v_malformed], c[tc_v_unsupported]);
}

static void protocols(FILE *f, const struct tc_report *r)
{
	fprintf(f, "\n## By protocol and level (pass / fail / crash / hang / flood / error (adapter, runner or malformed) / "
		   "unsupported)\n\n");
	fprintf(f, "| protocol | score | L1 | L3 |\n|---|---|---|---|\n");
	for (int p = 0; p < tc_proto_count; p++) {
		int sum[tc_v_count];
		if (!tc_report_protocol_sum(r, p, sum))
			continue;
		fprintf(f, "| %s | %.2f%% |", tc_report_protocol_name(p), 100.0 * tc_report_score(sum));
		level_cell(f, r->by_protocol[p][0]);
		level_cell(f, r->by_protocol[p][1]);
		fprintf(f, "\n");
	}
}

/* Whether every run of a tally passes, or does not count. */
static int all_good(const struct tc_tally *x)
{
	for (int l = 0; l < 2; l++)
		for (int k = 0; k < tc_v_count; k++)
			if (x->count[l][k] && !tc_verdict_is_good(k))
				return 0;
	return 1;
}

/* The heat map as a table: the tag families of each protocol in which a
 * run does not pass (the HTML shows every family). */
static void heat_map(FILE *f, const struct tc_report *r)
{
	size_t good = 0;
	fprintf(f, "\n## Heat map: tag families with a run that does not pass (pass / fail / crash / hang / flood / error / "
		   "unsupported)\n\n");
	fprintf(f, "| protocol | family | L1 | L3 |\n|---|---|---|---|\n");
	for (size_t i = 0; i < r->nfamily; i++) {
		if (all_good(&r->family[i])) {
			good++;
			continue;
		}
		fprintf(f, "| %s | ", tc_report_protocol_name(r->family[i].protocol));
		md_text(f, r->family[i].tag);
		fprintf(f, " |");
		level_cell(f, r->family[i].count[0]);
		level_cell(f, r->family[i].count[1]);
		fprintf(f, "\n");
	}
	fprintf(f, "\n%zu of the %zu tag families (by protocol) pass in every run that counts.\n", good, r->nfamily);
}

static void defect_classes(FILE *f, const struct tc_report *r)
{
	fprintf(f, "\n## Defect classes\n\n| class | runs | what it means |\n|---|---|---|\n");
	for (int k = 0; k < tc_d_count; k++)
		if (r->defect_count[k])
			fprintf(f, "| %s | %d | %s |\n", tc_defect_names[k], r->defect_count[k], tc_defect_explanations[k]);
}

/* A code fence longer than any run of backticks in text (which holds
 * what the adapter handed over), so the text cannot close it. */
static void fence(FILE *f, const char *text)
{
	size_t longest = 0, run = 0;
	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	for (size_t i = 0; i < (longest < 3 ? 3 : longest + 1); i++)
		fputc('`', f);
}

/* A line of the diagnosis the summary leaves to the HTML and JSON: the
 * context list and the sizes of the whole difference. */
static int sizes_or_context(const char *line)
{
	static const char *const skip[] = { "  context:", "    - ", "  expected_lines: ", "  got_lines: ",
					    "  missing_lines: ", "  extra_lines: " };
	for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
		if (!strncmp(line, skip[i], strlen(skip[i])))
			return 1;
	return 0;
}

/* The first divergence (the diagnosis less what sizes_or_context leaves
 * out), then the command that reproduces the run. */
static void one_failure(FILE *f, const struct tc_report *r, const struct tc_task *t, int cls)
{
	char text[TC_DIAG_SIZE + 3 * 4096 + 32], cmd[3 * 4096];
	size_t at = 0;
	for (const char *p = t->diag; *p;) {
		size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
		if (!sizes_or_context(p) && at + n < sizeof text - 1) {
			memcpy(text + at, p, n);
			at += n;
		}
		p += n;
	}
	tc_repro_command(cmd, sizeof cmd, r, t);
	snprintf(text + at, sizeof text - at, "%s$ %s\n", at && text[at - 1] != '\n' ? "\n" : "", cmd);
	fprintf(f, "#### L%d ", t->level);
	md_text(f, r->paths[t->vector]);
	fprintf(f, " — %s\n\n",
		t->verdict == tc_v_pass_alt ? "pass under an alternative reading" : tc_verdict_names[t->verdict]);
	fence(f, text);
	fprintf(f, "\n%s", text);
	fence(f, text);
	fprintf(f, "\n\n");
	(void)cls;        /* the heading says it */
}

static void heading(FILE *f, const char *title)
{
	fprintf(f, "### %s\n\n", title);
}

/* The report's failure groups (by defect class, then vector; the passes
 * under an alternative reading last), each run with the command that
 * reproduces it. */
static void failures(FILE *f, const struct tc_report *r)
{
	fprintf(f, "\n## Failures by cause (defect class, then vector; the first divergence of each)\n\n");
	tc_report_failures(f, r, heading, one_failure);
}

int tc_markdown_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen)
{
	header(f, r);
	protocols(f, r);
	heat_map(f, r);
	defect_classes(f, r);
	failures(f, r);
	if (r->notes) {
		fprintf(f, "\n## Notes (");
		md_text(f, r->notes_path);
		fprintf(f, ")\n\n");
		fwrite(r->notes, 1, r->notes_len, f);
	}
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	snprintf(err, errlen, "a write failed");
	return -1;
}
