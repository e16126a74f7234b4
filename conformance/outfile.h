/* SPDX-License-Identifier: BSD-3-Clause */
/* outfile.h — files written whole or not at all: a temporary file beside the target, every write checked, renamed into place; folders built beside theirs and swapped in. */
#ifndef TC_OUTFILE_H
#define TC_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* Every writer of a file goes through this module. A failure leaves the
 * file that was there before (or none) and gives err as
 * "cannot write 'PATH': REASON" (REASON: strerror(errno), e.g. "No space
 * left on device", "File too large" at RLIMIT_FSIZE). The caller prefixes
 * the command. */

enum {
	tc_out_sync = 1           /* fsync the file before it is renamed into place */
};

/* A file written beside its place, not yet renamed into it. */
struct tc_out_staged {
	char *path;               /* where it goes (malloc'd) */
	char *tmp;                /* the complete temporary file beside it; NULL once committed or discarded */
};

/* Writes n bytes to a new temporary file in the folder of path (".NAME.XXXXXX",
 * mode 0666 less the umask): every write checked, fsync'd with tc_out_sync,
 * closed. 0, or -1 with err (nothing left behind). */
int tc_out_stage(struct tc_out_staged *s, const char *path, const void *bytes, size_t n, int flags, char *err,
		 size_t errlen);
/* Renames the staged file into place. 0, or -1 with err (the temporary file removed). */
int tc_out_commit(struct tc_out_staged *s, char *err, size_t errlen);
/* Removes the staged file (if any) and frees s. */
void tc_out_discard(struct tc_out_staged *s);

/* tc_out_stage then tc_out_commit: path holds the n bytes, or what it held before. */
int tc_out_save(const char *path, const void *bytes, size_t n, int flags, char *err, size_t errlen);

/* Text built by a stdio writer in memory (open_memstream), to be saved whole. */
struct tc_out_text {
	FILE *f;                  /* the writer's stream, until tc_out_text_close */
	char *buf;                /* the text after tc_out_text_close (malloc'd) */
	size_t len;
};

/* 0, or -1 (out of memory). */
int tc_out_text_open(struct tc_out_text *t);
/* Closes the stream; t->buf and t->len hold the text. 0, or -1 (out of
 * memory, or the writer's stream failed). */
int tc_out_text_close(struct tc_out_text *t);
void tc_out_text_free(struct tc_out_text *t);

/* Flushes standard output and checks it. 0, or -1 after "tracecert CMD:
 * cannot write standard output: REASON" on stderr (cmd NULL: "tracecert:"). */
int tc_out_check_stdout(const char *cmd);

/* Creates dir and its parents, and proves a file can be written in it (a
 * byte written, synced and removed). 0, or -1 with err naming the folder. */
int tc_out_probe_dir(const char *dir, char *err, size_t errlen);

/* A folder built beside its place (".NAME.XXXXXX") and swapped in whole. */
struct tc_out_dir {
	char *path;               /* where it goes (malloc'd) */
	char *tmp;                /* the folder being filled; NULL once committed or discarded */
};

/* Creates the temporary folder. 0, or -1 with err. */
int tc_out_dir_begin(struct tc_out_dir *d, const char *path, char *err, size_t errlen);
/* Puts the filled folder in place. A folder already at path is replaced
 * only when it is empty or holds a file named marker (a previous output
 * of the same kind), and only holds files; otherwise it is left, with an
 * error. 0, or -1 with err (the temporary folder removed). */
int tc_out_dir_commit(struct tc_out_dir *d, const char *marker, char *err, size_t errlen);
/* Removes the temporary folder (if any) and its files, and frees d. */
void tc_out_dir_discard(struct tc_out_dir *d);

/* Exchanges the names a and b (two folders, or files) at once:
 * renameat2(RENAME_EXCHANGE), so that each name holds one of the two at
 * every instant. Both must be on one file system. 0, or -1 with err
 * ("cannot exchange 'A' and 'B': REASON"; EINVAL where the file system
 * cannot exchange). */
int tc_out_exchange(const char *a, const char *b, char *err, size_t errlen);

/* A process that writes files ignores SIGXFSZ: a write beyond RLIMIT_FSIZE
 * then fails with EFBIG and is reported like any failed write, instead of
 * killing the process with a file cut short. */
void tc_out_ignore_file_size_signal(void);

#endif
