/* tap.c — the certify run as TAP version 13, a YAML block for each run that does not pass. */
#include <stdio.h>

#include "runner.h"

/* The errata document of a protocol, where a vector's reading is named. */
static const char *errata_of(int protocol)
{
	const struct tc_protocol *p = tc_protocol_by_id(protocol);
	return p && p->errata ? p->errata : "its protocol's ERRATA.md";
}

static void tap_line(FILE *f, const struct tc_report *r, int i)
{
	const struct tc_task *t = &r->tasks[i];
	int good = tc_verdict_is_good(t->verdict);
	fprintf(f, "%s %d - L%d %s", good ? "ok" : "not ok", i + 1, t->level, r->paths[t->vector]);
	if (t->verdict == tc_v_pass_alt)
		fprintf(f, " # pass under an alternative reading (see the vector; %s)", errata_of(t->protocol));
	if (t->verdict == tc_v_unsupported)
		fprintf(f, " # SKIP unsupported by the adapter: %s", t->diag);
	if (t->verdict == tc_v_skipped)
		fprintf(f, " # SKIP not run (--first-failure)");
	fprintf(f, "\n");
	if (!good)
		fprintf(f, "  ---\n  verdict: %s\n  vector: '%s'\n  tags: '%s'\n  level: L%d\n%s  ...\n",
			tc_verdict_names[t->verdict], r->paths[t->vector], r->tags[t->vector], t->level, t->diag);
}

int tc_tap_write(FILE *f, const struct tc_report *r)
{
	char text[1200];
	fprintf(f, "TAP version 13\n1..%d\n", r->ntasks);
	tc_report_not_isolated(r, text, sizeof text);
	if (text[0])
		fprintf(f, "# not isolated: %s\n", text);
	for (int i = 0; i < r->ntasks && !ferror(f); i++)
		tap_line(f, r, i);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
