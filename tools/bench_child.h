/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_child.h — `tracecert bench`'s children: each loads an adapter (bench never does), does one job and sends its figures back as frames; bench applies a wall-clock deadline and says how each child ended. */
#ifndef TC_BENCH_CHILD_H
#define TC_BENCH_CHILD_H

#include <stddef.h>
#include <sys/resource.h>

#include "frame.h"
#include "tracecert/adapter.h"

/* How a side of a measurement came out: figures, or why there are none. */
enum tc_bench_status {
	tc_bench_ok = 0,
	tc_bench_failed,          /* the adapter's open() refused the workload (why), or no child could start */
	tc_bench_crashed,         /* the child was killed by signal `code` */
	tc_bench_exited,          /* the child ended (exit status `code`) without its figures */
	tc_bench_timeout,         /* the child was still running at the deadline (`code` seconds): killed */
	tc_bench_malformed,       /* the child sent bytes that are not its figures (why) */
	tc_bench_no_load,         /* the adapter cannot be loaded: no such object, no entry point, bad table (why) */
	tc_bench_not_installed,   /* no adapter given */
	tc_bench_not_supported    /* the adapter does not list the protocol at the level */
};

struct tc_bench_outcome {
	int status;               /* enum tc_bench_status */
	int code;                 /* the signal, exit status or deadline */
	int loading;              /* it happened while the adapter loaded (constructor, entry point) */
	char why[400];            /* clean text (tc_text_clean) for failed, malformed, no_load */
};

/* Whether an outcome is the adapter's (or its child's) fault: every status
 * but ok, not installed and not supported. */
int tc_bench_outcome_bad(const struct tc_bench_outcome *o);

/* A short description for a table cell ("crashed (signal 11)", "timed out
 * (60 s)", "load: exited (status 0)"); protocol names an unsupported one. */
void tc_bench_outcome_cell(const struct tc_bench_outcome *o, const char *protocol, char *cell, size_t size);
/* The same at length for a message ("crashed (signal 11, Segmentation
 * fault) while loading: in its constructor or entry point"). */
void tc_bench_outcome_text(const struct tc_bench_outcome *o, char *text, size_t size);

/* A job run in the child, with the adapter the child loaded: it sends its
 * figures as frames on fd (tc_frame_write; 'E', 'L' and 'F' are the
 * runner's: 'F' with the reason when the adapter's open() refuses) and
 * returns; the child then exits 0. */
typedef void (*tc_bench_job)(const struct tc_adapter *ad, void *arg, int fd);
/* Called in bench for each frame of the job: 0 when it is one the job
 * sends, 1 when it is the last one (the reply is whole), or -1 with why (n
 * bytes): the reply is malformed. */
typedef int (*tc_bench_take)(void *ctx, const struct tc_frame *f, char *why, size_t n);

/* Forks a child in its own process group that dies with bench, with
 * /dev/null for stdin, stdout and stderr and no other descriptor but its
 * frames; it loads the adapter at path (tc_adapter_load: a load error is an
 * 'E' frame with the reason) and runs job. bench reads the frames (each to
 * take; at most TC_BENCH_REPLY_MAX bytes) until the child ends or
 * timeout_s seconds of wall-clock time pass, then kills the child's group
 * and reaps the child. o says how it went: ok only when the child exited 0
 * after a reply that take accepted whole; a child that exits 0 before its
 * last frame "exited (status 0)". ru (or NULL) gets the child's
 * resource usage. */
#define TC_BENCH_REPLY_MAX 65536
void tc_bench_child_run(const char *path, tc_bench_job job, void *arg, unsigned timeout_s, tc_bench_take take,
			void *ctx, struct tc_bench_outcome *o, struct rusage *ru);

#endif
