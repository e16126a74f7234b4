/* markdown.c — the Markdown certificate: score, verdict totals, matrices by protocol and by feature tag and level, every failure. */
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
	fprintf(f, "# tracecert certificate: ");
	md_text(f, r->adapter);
	fputc(' ', f);
	md_text(f, r->version);
	fprintf(f, "\n\n");
	not_isolated(f, r);
	fprintf(f, "Score: **%.2f%%** of the supported vector runs pass (%d pass of %d, %d of them under an "
		"alternative reading; %d unsupported). %d runs in %.2f s.\n\n", 100.0 * r->score,
		t[tc_v_pass] + t[tc_v_pass_alt], r->ntasks - t[tc_v_unsupported], t[tc_v_pass_alt], t[tc_v_unsupported],
		r->ntasks, r->seconds);
	isolation(f, r);
	fprintf(f, "| verdict | runs |\n|---|---|\n");
	for (int k = 0; k < tc_v_count; k++)
		fprintf(f, "| %s | %d |\n", tc_verdict_names[k], t[k]);
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

static void matrix(FILE *f, const struct tc_report *r)
{
	fprintf(f, "\n## By feature tag and level (pass / fail / crash / hang / flood / error (adapter, runner or malformed) / "
		   "unsupported)\n\n");
	fprintf(f, "| tag | L1 | L3 |\n|---|---|---|\n");
	for (size_t i = 0; i < r->ntally; i++) {
		fprintf(f, "| ");
		md_text(f, r->tally[i].tag);
		fprintf(f, " |");
		level_cell(f, r->tally[i].count[0]);
		level_cell(f, r->tally[i].count[1]);
		fprintf(f, "\n");
	}
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

static void failures(FILE *f, const struct tc_report *r)
{
	fprintf(f, "\n## Failures (first divergence of each)\n\n");
	for (int i = 0; i < r->ntasks; i++) {
		const struct tc_task *t = &r->tasks[i];
		if (t->verdict == tc_v_pass || t->verdict == tc_v_unsupported || t->verdict == tc_v_skipped)
			continue;
		fprintf(f, "### L%d ", t->level);
		md_text(f, r->paths[t->vector]);
		fprintf(f, " — %s\n\n",
			t->verdict == tc_v_pass_alt ? "pass under an alternative reading" : tc_verdict_names[t->verdict]);
		fence(f, t->diag);
		fprintf(f, "\n%s", t->diag);
		fence(f, t->diag);
		fprintf(f, "\n\n");
	}
}

int tc_markdown_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen)
{
	header(f, r);
	protocols(f, r);
	matrix(f, r);
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
