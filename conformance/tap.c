/* SPDX-License-Identifier: BSD-3-Clause */
/* tap.c — the certify run as TAP version 13, a YAML block for each run that does not pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

/* Text in a test line's description, which must stay one line and end at
 * the directive: '#' written "\#" and '\' "\\" (TAP 13), a control
 * character or a byte that is not valid UTF-8 as \xNN. */
static void tap_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);
	while (left > 0) {
		size_t k = tc_utf8_len(p, left);
		if (k == 0 || *p < 0x20 || *p == 0x7F)
			fprintf(f, "\\x%02x", *p);
		else if (*p == '#' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else
			fwrite(p, 1, k, f);
		k = k ? k : 1;
		p += k;
		left -= k;
	}
}

/* "  KEY: 'TEXT'" in a YAML block, TEXT escaped by tc_yaml_text. */
static void yaml_line(FILE *f, const char *key, const char *s)
{
	size_t n = 4 * strlen(s) + 1;
	char *q = malloc(n);
	if (q)
		tc_yaml_text(q, n, s);
	fprintf(f, "  %s: '%s'\n", key, q ? q : "(out of memory)");
	free(q);
}

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
	fprintf(f, "%s %d - L%d ", good ? "ok" : "not ok", i + 1, t->level);
	tap_text(f, r->paths[t->vector]);
	if (t->verdict == tc_v_pass_alt)
		fprintf(f, " # pass under an alternative reading (see the vector; %s)", errata_of(t->protocol));
	if (t->verdict == tc_v_unsupported) {
		fprintf(f, " # SKIP unsupported by the adapter: ");
		tap_text(f, t->diag);
	}
	if (t->verdict == tc_v_skipped)
		fprintf(f, " # SKIP not run (--first-failure)");
	fprintf(f, "\n");
	if (!good) {
		fprintf(f, "  ---\n  verdict: %s\n", tc_verdict_names[t->verdict]);
		yaml_line(f, "vector", r->paths[t->vector]);
		yaml_line(f, "tags", r->tags[t->vector]);
		fprintf(f, "  level: L%d\n%s  ...\n", t->level, t->diag);
	}
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
