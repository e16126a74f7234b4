/* SPDX-License-Identifier: BSD-3-Clause */
/* junit.c — the certify run as JUnit XML: a testcase per vector and level, unsupported runs skipped, the first divergence of each failure; valid XML 1.0 whatever an adapter printed. */
#include <stdio.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

/* Text as XML 1.0 character data or an attribute value (in_attr): the five
 * markup characters as entities, line breaks and tabs of an attribute as
 * character references (an attribute's value is normalised otherwise); a
 * character XML 1.0 does not permit even as a reference (a control
 * character but tab and line breaks, U+FFFE, U+FFFF) and a byte that is not
 * valid UTF-8 as the four characters \xNN, as the TAP stream writes them. */
static void xml_text(FILE *f, const char *s, int in_attr)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t left = strlen((const char *)p);
	while (left > 0) {
		size_t k = tc_utf8_len(p, left);
		int ctl = *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r';
		int nonchar = k == 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF);
		if (k == 0 || ctl || nonchar || *p == 0x7F)
			fprintf(f, "\\x%02x", *p);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else if (*p == '\'')
			fputs("&apos;", f);
		else if (in_attr && (*p == '\n' || *p == '\t' || *p == '\r'))
			fprintf(f, "&#%d;", *p);
		else
			fwrite(p, 1, k, f);
		k = k && !nonchar ? k : 1;
		p += k;
		left -= k;
	}
}

/* The failure's one-line message: the verdict and the first divergence
 * (the YAML lines of the diagnostics but the context list, joined by "; "),
 * cut at about 600 bytes. */
static void divergence(FILE *f, const struct tc_task *t)
{
	char msg[700];
	size_t o = (size_t)snprintf(msg, sizeof msg, "%s", tc_verdict_names[t->verdict]);
	for (const char *s = t->diag; *s && o < 600;) {
		size_t n = strcspn(s, "\n"), lead = strspn(s, " ");
		int item = s[lead] == '-' || !strncmp(s + lead, "context:", 8);
		if (!item && n > lead)
			o += (size_t)snprintf(msg + o, sizeof msg - o, "; %.*s", (int)(n - lead), s + lead);
		s += n + (s[n] == '\n');
	}
	xml_text(f, msg, 1);
}

static void testcase(FILE *f, const struct tc_report *r, const struct tc_task *t)
{
	fprintf(f, "    <testcase classname=\"L%d\" name=\"", t->level);
	xml_text(f, r->paths[t->vector], 1);
	fprintf(f, "\">");
	if (t->verdict == tc_v_unsupported || t->verdict == tc_v_skipped) {
		fprintf(f, "<skipped message=\"");
		xml_text(f, t->verdict == tc_v_skipped ? "not run (--first-failure)" : "unsupported by the adapter: ", 1);
		if (t->verdict == tc_v_unsupported)
			xml_text(f, t->diag, 1);
		fprintf(f, "\"/>");
	} else if (!tc_verdict_is_good(t->verdict)) {
		const char *el = t->verdict == tc_v_runner ? "error" : "failure";
		fprintf(f, "<%s type=\"%s\" message=\"", el, tc_verdict_names[t->verdict]);
		divergence(f, t);
		fprintf(f, "\">");
		xml_text(f, t->diag, 0);
		fprintf(f, "</%s>", el);
	}
	fprintf(f, "</testcase>\n");
}

static void property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "    <property name=\"%s\" value=\"", name);
	xml_text(f, value, 1);
	fprintf(f, "\"/>\n");
}

/* The run's identity as the suite's properties: tracecert's version, the
 * date, the vector set, the options, the limits, the score. */
static void properties(FILE *f, const struct tc_report *r)
{
	char buf[64];
	fprintf(f, "    <properties>\n");
	property(f, "tracecert_version", r->tool_version);
	property(f, "date", r->started);
	property(f, "adapter_path", r->adapter_path);
	snprintf(buf, sizeof buf, "%zu", r->nfiles);
	property(f, "vector_set.files", buf);
	property(f, "vector_set.hash", r->set_hash);
	property(f, "vector_set.content_digest", r->content_digest);
	property(f, "levels", r->levels == 1 ? "1" : r->levels == 4 ? "3" : "all");
	property(f, "tags", r->tag_option);
	snprintf(buf, sizeof buf, "%u s, %lu MB, %lu MB, %lu, %lu", r->lim.timeout_s, r->lim.mem_mb, r->lim.out_mb,
		 r->lim.procs, r->lim.items);
	property(f, "limits (time, memory, output, processes, items)", buf);
	snprintf(buf, sizeof buf, "%.4f", r->score);
	property(f, "score", buf);
	fprintf(f, "    </properties>\n");
}

int tc_junit_certificate(FILE *f, const struct tc_report *r, char *err, size_t errlen)
{
	const int *c = r->total;
	int skipped = c[tc_v_unsupported] + c[tc_v_skipped], errors = c[tc_v_runner];
	int failures = r->ntasks - skipped - errors - c[tc_v_pass] - c[tc_v_pass_alt];
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites name=\"tracecert certify\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n",
		r->ntasks, failures, errors, skipped);
	fprintf(f, "  <testsuite name=\"");
	xml_text(f, r->adapter, 1);
	fputc(' ', f);
	xml_text(f, r->version, 1);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n", r->ntasks, failures, errors,
		skipped);
	properties(f, r);
	for (int i = 0; i < r->ntasks && !ferror(f); i++)
		testcase(f, r, &r->tasks[i]);
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	if (fflush(f) == 0 && !ferror(f))
		return 0;
	snprintf(err, errlen, "a write failed");
	return -1;
}
