/* SPDX-License-Identifier: BSD-3-Clause */
/* progress.c — the progress of a long run on stderr: on a terminal one line redrawn in place (done/total, failures so far, rate), elsewhere a line every few seconds; nothing when quiet. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void tc_progress_begin(struct tc_progress *p, FILE *f, const char *what, int total)
{
	memset(p, 0, sizeof *p);
	p->f = f;
	p->what = what;
	p->tty = f && isatty(fileno(f));
	p->total = total;
	p->t0 = p->last = mono_s();
	tc_progress_units(p, "runs", "failing");
}

void tc_progress_units(struct tc_progress *p, const char *unit, const char *failed_word)
{
	p->unit = unit;
	p->failed_word = failed_word;
}

void tc_progress_count(struct tc_progress *p, int failed)
{
	p->done++;
	p->failed += failed != 0;
}

void tc_progress_line(const struct tc_progress *p, double now, char *buf, size_t n)
{
	double s = now - p->t0;
	char failed[64] = "";
	if (p->failed_word)
		snprintf(failed, sizeof failed, " %d %s,", p->failed, p->failed_word);
	snprintf(buf, n, "%s: %d/%d %s,%s %.1f %s/s", p->what, p->done, p->total, p->unit, failed,
		 s > 0 ? p->done / s : 0.0, p->unit);
}

void tc_progress_tick(struct tc_progress *p)
{
	char line[160];
	double now;
	if (!p->f)
		return;
	now = mono_s();
	if (now - p->last < (p->tty ? TC_PROGRESS_TTY_S : TC_PROGRESS_LOG_S))
		return;
	p->last = now;
	tc_progress_line(p, now, line, sizeof line);
	if (p->tty) {
		fprintf(p->f, "\r\033[K%s", line);   /* carriage return, erase to the end of the line */
	} else {
		fprintf(p->f, "%s\n", line);
	}
	fflush(p->f);
}

void tc_progress_end(struct tc_progress *p)
{
	char line[160];
	if (!p->f || !p->tty)
		return;
	tc_progress_line(p, mono_s(), line, sizeof line);
	fprintf(p->f, "\r\033[K%s\n", line);   /* the last count stays, on its own line */
	fflush(p->f);
}
