/* SPDX-License-Identifier: BSD-3-Clause */
/* fsize_guard.c — linked only into the coverage build (coverage/coverage.mk):
 * keeps a process that runs under a file-size limit (RLIMIT_FSIZE, sh's
 * `ulimit -f`) from rewriting the build's .gcda files.
 *
 * libgcov merges a process's counters into each .gcda at exit by reading it
 * and writing it again from its start. Under a file-size limit the writes
 * past the limit fail (EFBIG: "Error writing"), so the file is left with its
 * head in the new layout (libgcov 12 writes an all-zero counter array in
 * short form, so the layout follows which counters are zero) and its tail
 * in the old one; every later process then reads it as "Merge mismatch for
 * function N" and adds nothing to it. Such a process's counts go instead to
 * a tree of their own ($TC_COV_FSIZE_DIR, by GCOV_PREFIX) that the report
 * does not read, and its gcov messages to $TC_COV_FSIZE_DIR/gcov-errors.log
 * (both read at exit, after this constructor). Without TC_COV_FSIZE_DIR
 * (a coverage binary run by hand) nothing changes. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

/* The symbol coverage.mk names in -Wl,-u so that the linker takes this
 * file's object from the library into every program linked with it. */
void tc_cov_fsize_guard(void);
void tc_cov_fsize_guard(void)
{
}

__attribute__((constructor)) static void redirect_when_limited(void)
{
	const char *dir = getenv("TC_COV_FSIZE_DIR");
	struct rlimit lim;
	char log[4096];
	if (!dir || !dir[0] || getrlimit(RLIMIT_FSIZE, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY)
		return;
	snprintf(log, sizeof log, "%s/gcov-errors.log", dir);
	setenv("GCOV_PREFIX", dir, 1);
	setenv("GCOV_ERROR_FILE", log, 1);
}
