/* SPDX-License-Identifier: BSD-3-Clause */
/* progress.h — the progress of a long run on stderr: on a terminal one line redrawn in place (done/total, failures so far, rate), elsewhere a line every few seconds; nothing when quiet. */
#ifndef TC_PROGRESS_H
#define TC_PROGRESS_H

#include <stdio.h>

struct tc_progress {
	FILE *f;                  /* NULL: quiet */
	const char *what;         /* the command ("certify") */
	const char *unit;         /* what is counted ("runs", tc_progress_begin's) */
	const char *failed_word;  /* the failures ("failing"); NULL: the line counts none */
	int tty;                  /* f is a terminal: redraw one line */
	int total, done, failed;
	double t0;                /* when the run began (CLOCK_MONOTONIC seconds) */
	double last;              /* when the last line was written */
};

/* Seconds between two lines: on a terminal, and elsewhere. */
#define TC_PROGRESS_TTY_S 0.2
#define TC_PROGRESS_LOG_S 5.0

/* f (stderr) or NULL for quiet; total: the runs to come. */
void tc_progress_begin(struct tc_progress *p, FILE *f, const char *what, int total);
/* What the line counts, after tc_progress_begin: unit ("vectors") and the
 * word of the failures ("surviving"), or NULL when the run has none to count
 * (it stops at the first). */
void tc_progress_units(struct tc_progress *p, const char *unit, const char *failed_word);
/* One run finished; failed: it counts against the decoder. */
void tc_progress_count(struct tc_progress *p, int failed);
/* Writes a line when one is due (the caller calls it at least every few
 * tenths of a second while the run goes on). */
void tc_progress_tick(struct tc_progress *p);
/* The end: the terminal's line cleared (the summary follows). */
void tc_progress_end(struct tc_progress *p);
/* The line itself, "certify: 12/340 runs, 2 failing, 35.1 runs/s" (what a
 * tick writes; "gen: 12/340 vectors, 35.1 vectors/s" without failures). */
void tc_progress_line(const struct tc_progress *p, double now, char *buf, size_t n);

#endif
