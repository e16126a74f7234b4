/* SPDX-License-Identifier: BSD-3-Clause */
/* interrupt.c — SIGINT and SIGTERM as a flag the long-running commands check, and the stopping of the process groups they started. */
#define _DEFAULT_SOURCE 1
#include <signal.h>
#include <string.h>

#include "interrupt.h"

/* The one global of the project: a signal handler can only hand over what it
 * saw through a volatile sig_atomic_t object of static storage (C11 7.14.1.1).
 * It holds the signal noted, 0 before any. */
static volatile sig_atomic_t noted;

static void note(int sig)
{
	noted = sig;
}

static void set_action(int sig, void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;   /* no SA_RESTART */
	sigaction(sig, &sa, NULL);
}

void tc_interrupt_catch(void)
{
	set_action(SIGINT, note);
	set_action(SIGTERM, note);
}

void tc_interrupt_default(void)
{
	set_action(SIGINT, SIG_DFL);
	set_action(SIGTERM, SIG_DFL);
}

int tc_interrupt_signal(void)
{
	return noted;
}

int tc_interrupt_status(void)
{
	return noted ? 128 + noted : 0;
}

const char *tc_interrupt_name(void)
{
	return noted == SIGINT ? "SIGINT" : noted == SIGTERM ? "SIGTERM" : "a signal";
}

