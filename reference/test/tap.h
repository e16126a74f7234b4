/* SPDX-License-Identifier: BSD-3-Clause */
/* tap.h — the small TAP (version 13, YAML diagnostics) printer shared by the unit tests. */
#ifndef TC_TAP_H
#define TC_TAP_H

/* One test: "ok N - description" or "not ok N - description", followed for a
 * failure by the notes collected since the previous test as a YAML block. */
void ok(int cond, const char *fmt, ...);
/* Adds a line to the diagnostics of the next ok(). */
void note(const char *fmt, ...);
/* A position in the notes, and going back to it (dropping later notes). */
unsigned long note_mark(void);
void note_rewind(unsigned long mark);
/* Prints the plan; returns the exit status (1 if any test failed). */
int tap_finish(void);

#endif
