/* SPDX-License-Identifier: BSD-3-Clause */
/* child.h — a child process of the runner in its own process group, under limits, talking only through frames. */
#ifndef TC_CHILD_H
#define TC_CHILD_H

#include <stddef.h>
#include <sys/types.h>

#include "certify.h"
#include "frame.h"

/* The child's descriptor for its frames, and the one it reads its inputs
 * from (frames too, in a memory file the worker wrote: sandbox.c); its
 * stdout and stderr go to the output pipe, its stdin is /dev/null, every
 * other descriptor is closed. */
#define TC_CHILD_FRAMES_FD 3
#define TC_CHILD_INPUT_FD 4

/* Whether this runner is built with AddressSanitizer (then so is every
 * adapter it can load): ASan reserves terabytes of address space and cannot
 * run under RLIMIT_AS, so an ASan build sets no RLIMIT_AS. Decided by the
 * build, not by the environment. Both builds poll the resident size of all
 * the run's processes, summed, every TC_CHILD_RSS_POLL_MS (child.c). */
#if defined(__SANITIZE_ADDRESS__)
#define TC_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TC_ASAN_BUILD 1
#endif
#endif
#ifndef TC_ASAN_BUILD
#define TC_ASAN_BUILD 0
#endif
#define TC_CHILD_RSS_POLL_MS 20

/* How a child's run ended. */
enum tc_child_how {
	tc_child_exited,          /* by itself: status says how */
	tc_child_deadline,        /* still running at the wall-clock deadline (killed) */
	tc_child_flood,           /* frames and output over the output limit (killed) */
	tc_child_malformed,       /* bytes that are not a frame, or a frame its reader refused (killed) */
	tc_child_memory,          /* the run's processes' resident size, summed, over the limit (killed) */
	tc_child_lost             /* the runner could not start or watch it */
};

#define TC_CHILD_OUTPUT_KEPT 400  /* bytes of the child's stdout and stderr kept for the report */

struct tc_child_end {
	int how;                  /* enum tc_child_how */
	int status;               /* waitpid() status when how is tc_child_exited */
	char why[256];            /* for malformed and lost: what was wrong */
	unsigned long long frame_bytes;
	unsigned long long output_bytes;
	unsigned long rss_mb;     /* tc_child_memory: the sum that was over the limit */
	int nprocs;               /* tc_child_memory: of how many processes */
	unsigned long peak_mb;    /* the largest resident size of one of the run's processes that were
				   * reaped in turn (ru_maxrss of wait4) */
	char output[TC_CHILD_OUTPUT_KEPT];   /* the first bytes of stdout and stderr, clean text (for the
					      * runner's messages; never the TAP stream or a certificate) */
};

/* Called for each frame the child sends: 0 to go on, -1 (with why, n
 * bytes) to refuse it: the run is then malformed. */
typedef int (*tc_child_frame_fn)(void *ctx, const struct tc_frame *f, char *why, size_t n);

/* The live child: its process group (its pid), its pipes. */
struct tc_child {
	pid_t pid;
	int frames;               /* read ends */
	int output;
	int pidfd;                /* -1: the kernel has no pidfd_open; polled */
};

/* Starts a child process of this program (/proc/self/exe) TC_CHILD_WORD
 * with input (a file of frames, read from its start: tc_run_inputs) as its
 * TC_CHILD_INPUT_FD: its own process group, the caller a subreaper
 * (orphaned descendants come back to it). The child itself, before anything
 * of the adapter runs, makes sure it dies with the caller and sets the
 * limits its inputs carry (tc_child_set_limits). Returns 0, or -1 with why. */
int tc_child_start(struct tc_child *c, const struct tc_limits *lim, int input, char *why, size_t n);

/* In the child: limits on CPU (RLIMIT_CPU: SIGXCPU, then SIGKILL a second
 * later), memory (RLIMIT_AS, but in an ASan build), processes
 * (RLIMIT_NPROC), file size (RLIMIT_FSIZE: the output limit) and core
 * dumps (none). */
void tc_child_set_limits(const struct tc_limits *lim);

/* Reads the child's frames (each to fn) and output until it exits, the
 * deadline passes or a limit is hit (the memory limit: the proportional
 * resident sizes of the caller's descendants, summed, read from /proc every
 * TC_CHILD_RSS_POLL_MS from the start); then kills its process group, and every
 * descendant that left the group, and reaps them all. The caller's other
 * children are taken for descendants: call it from a process whose only
 * children are runs. end says how it ended. */
void tc_child_finish(struct tc_child *c, const struct tc_limits *lim, tc_child_frame_fn fn, void *ctx,
		     struct tc_child_end *end);

/* Kills and reaps every child of the caller (as a subreaper: descendants
 * of runs whose parents died), from /proc/self/task/PID/children. */
void tc_child_reap_leftovers(void);

#endif
