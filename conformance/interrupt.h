/* SPDX-License-Identifier: BSD-3-Clause */
/* interrupt.h — SIGINT and SIGTERM as a flag the long-running commands check, and the stopping of the process groups they started. */
#ifndef TC_INTERRUPT_H
#define TC_INTERRUPT_H

#include <stddef.h>
#include <sys/types.h>

/* From now on SIGINT and SIGTERM only note the signal (tc_interrupt_signal):
 * the command stops at its next check, removes what it had not finished and
 * exits with tc_interrupt_status(). Installed whatever the disposition was
 * (a shell without job control starts background commands with SIGINT
 * ignored), and without SA_RESTART: a blocking wait returns EINTR. */
void tc_interrupt_catch(void);

/* SIGINT and SIGTERM back to their default action: for a child process,
 * which its parent stops by killing it. */
void tc_interrupt_default(void);

/* The signal noted (SIGINT or SIGTERM), or 0. */
int tc_interrupt_signal(void);

/* The exit status of a command stopped by the noted signal: 128 + its
 * number (130 for SIGINT, 143 for SIGTERM). */
int tc_interrupt_status(void);

/* "SIGINT", "SIGTERM" (or "a signal"). */
const char *tc_interrupt_name(void);

#endif
