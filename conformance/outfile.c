/* SPDX-License-Identifier: BSD-3-Clause */
/* outfile.c — files written whole or not at all: a temporary file beside the target, every write checked, renamed into place; folders built beside theirs and swapped in. */
#define _GNU_SOURCE 1       /* mkdtemp; renameat2 and RENAME_EXCHANGE (Linux 3.15, glibc 2.28) */
#include <fcntl.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* ---- Names ----------------------------------------------------------------------- */

/* "FOLDER/.NAME.SUFFIX" for path "FOLDER/NAME" (or ".NAME.SUFFIX" without
 * a folder); trailing slashes of path are ignored. malloc'd, or NULL. */
static char *beside(const char *path, const char *suffix)
{
	size_t len = strlen(path), base, n;
	char *s;
	while (len > 1 && path[len - 1] == '/')
		len--;
	base = len;
	while (base > 0 && path[base - 1] != '/')
		base--;
	n = len + strlen(suffix) + 3;
	s = malloc(n);
	if (s)
		snprintf(s, n, "%.*s.%.*s.%s", (int)base, path, (int)(len - base), path + base, suffix);
	return s;
}

static mode_t file_mode(void)
{
	mode_t mask = umask(022);
	umask(mask);
	return 0666 & ~mask;
}

/* ---- Files ----------------------------------------------------------------------- */

/* Every byte to fd; 0, or the errno of the write that failed. */
static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Fills the open temporary file: 0, or an errno value. The descriptor is closed either way. */
static int fill(int fd, const void *bytes, size_t n, int flags)
{
	int e = 0;
	if (fchmod(fd, file_mode()) != 0)
		e = errno;
	if (e == 0)
		e = write_all(fd, bytes, n);
	if (e == 0 && (flags & tc_out_sync) && fsync(fd) != 0 && errno != EINVAL)
		e = errno;   /* EINVAL: a file system that cannot sync */
	if (close(fd) != 0 && e == 0)
		e = errno;
	return e;
}

/* The staging itself: 0, or an errno value (nothing left behind). */
static int stage(struct tc_out_staged *s, const char *path, const void *bytes, size_t n, int flags)
{
	int fd, e;
	s->path = strdup(path);
	s->tmp = beside(path, "XXXXXX");
	if (!s->path || !s->tmp) {
		tc_out_discard(s);
		return ENOMEM;
	}
	fd = mkstemp(s->tmp);
	if (fd < 0) {
		e = errno;
		free(s->tmp);
		s->tmp = NULL;
		tc_out_discard(s);
		return e;
	}
	e = fill(fd, bytes, n, flags);
	if (e)
		tc_out_discard(s);
	return e;
}

int tc_out_stage(struct tc_out_staged *s, const char *path, const void *bytes, size_t n, int flags, char *err,
		 size_t errlen)
{
	int e = stage(s, path, bytes, n, flags);
	if (e)
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
	return e ? -1 : 0;
}

int tc_out_commit(struct tc_out_staged *s, char *err, size_t errlen)
{
	int rc = 0;
	if (!s->tmp || rename(s->tmp, s->path) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", s->path ? s->path : "(none)",
			 s->tmp ? strerror(errno) : "nothing staged");
		rc = -1;
	} else {
		free(s->tmp);
		s->tmp = NULL;
	}
	tc_out_discard(s);
	return rc;
}

void tc_out_discard(struct tc_out_staged *s)
{
	if (s->tmp)
		unlink(s->tmp);
	free(s->tmp);
	free(s->path);
	s->tmp = NULL;
	s->path = NULL;
}

int tc_out_save(const char *path, const void *bytes, size_t n, int flags, char *err, size_t errlen)
{
	struct tc_out_staged s;
	if (tc_out_stage(&s, path, bytes, n, flags, err, errlen))
		return -1;
	return tc_out_commit(&s, err, errlen);
}

/* ---- Text in memory ---------------------------------------------------------------- */

int tc_out_text_open(struct tc_out_text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	return t->f ? 0 : -1;
}

int tc_out_text_close(struct tc_out_text *t)
{
	int bad = ferror(t->f);
	if (fclose(t->f) != 0)
		bad = 1;
	t->f = NULL;
	if (bad || !t->buf) {
		tc_out_text_free(t);
		return -1;
	}
	return 0;
}

void tc_out_text_free(struct tc_out_text *t)
{
	if (t->f)
		fclose(t->f);
	free(t->buf);
	t->f = NULL;
	t->buf = NULL;
	t->len = 0;
}

/* ---- Standard output --------------------------------------------------------------- */

int tc_out_check_stdout(const char *cmd)
{
	int e;
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	e = errno;
	fprintf(stderr, "tracecert%s%s: cannot write standard output: %s\n", cmd ? " " : "", cmd ? cmd : "",
		e ? strerror(e) : "a write failed");
	return -1;
}

/* ---- Folders ------------------------------------------------------------------------ */

/* mkdir -p; 0, or an errno value. */
static int make_dirs(const char *dir)
{
	char *path = strdup(dir);
	int e = 0;
	if (!path)
		return ENOMEM;
	for (char *p = path + 1; *p && e == 0; p++) {
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0777) != 0 && errno != EEXIST)
				e = errno;
			*p = '/';
		}
	}
	if (e == 0 && mkdir(path, 0777) != 0 && errno != EEXIST)
		e = errno;
	free(path);
	return e;
}

int tc_out_probe_dir(const char *dir, char *err, size_t errlen)
{
	struct tc_out_staged s;
	size_t n = strlen(dir) + 32;
	char *probe = malloc(n);
	int e = probe ? make_dirs(dir) : ENOMEM;
	if (e) {
		snprintf(err, errlen, "cannot create the folder '%s': %s", dir, strerror(e));
		free(probe);
		return -1;
	}
	snprintf(probe, n, "%s/tracecert-probe", dir);
	e = stage(&s, probe, "x", 1, tc_out_sync);
	free(probe);
	if (e) {
		snprintf(err, errlen, "cannot write in the folder '%s': %s", dir, strerror(e));
		return -1;
	}
	tc_out_discard(&s);
	return 0;
}

/* Calls fn on every entry of dir but . and ..: 0, or the first errno value. */
static int each_entry(const char *dir, int (*fn)(const char *path))
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int e = 0;
	if (!d)
		return errno;
	while (e == 0 && (errno = 0, de = readdir(d)) != NULL) {
		size_t n = strlen(dir) + strlen(de->d_name) + 2;
		char *p;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = malloc(n);
		if (!p) {
			e = ENOMEM;
			break;
		}
		snprintf(p, n, "%s/%s", dir, de->d_name);
		e = fn(p);
		free(p);
	}
	if (e == 0 && errno != 0 && !de)
		e = errno;
	closedir(d);
	return e;
}

static int unlink_entry(const char *path)
{
	return unlink(path) == 0 ? 0 : errno;
}

static int must_be_file(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno;
	return S_ISDIR(st.st_mode) ? EISDIR : 0;
}

/* Removes a folder of files (no subfolders). 0, or an errno value. */
static int remove_flat(const char *dir)
{
	int e = each_entry(dir, unlink_entry);
	if (e == 0 && rmdir(dir) != 0)
		e = errno;
	return e;
}

int tc_out_dir_begin(struct tc_out_dir *d, const char *path, char *err, size_t errlen)
{
	d->path = strdup(path);
	d->tmp = beside(path, "XXXXXX");
	if (!d->path || !d->tmp || !mkdtemp(d->tmp)) {
		snprintf(err, errlen, "cannot create a folder beside '%s': %s", path,
			 d->path && d->tmp ? strerror(errno) : strerror(ENOMEM));
		free(d->tmp);
		d->tmp = NULL;
		tc_out_dir_discard(d);
		return -1;
	}
	return 0;
}

/* Whether the folder at path may be replaced: it holds marker (or nothing) and only files. */
static int replaceable(const char *path, const char *marker, char *err, size_t errlen)
{
	size_t n = strlen(path) + strlen(marker) + 2;
	char *m = malloc(n);
	struct stat st;
	int has_marker, e;
	if (!m)
		return snprintf(err, errlen, "cannot replace '%s': %s", path, strerror(ENOMEM)), 0;
	snprintf(m, n, "%s/%s", path, marker);
	has_marker = lstat(m, &st) == 0;
	free(m);
	if (!has_marker) {
		snprintf(err, errlen, "'%s' exists and holds other files (no %s): not replaced", path, marker);
		return 0;
	}
	e = each_entry(path, must_be_file);
	if (e)
		snprintf(err, errlen, "'%s' holds a folder or cannot be read (%s): not replaced", path, strerror(e));
	return e == 0;
}

int tc_out_exchange(const char *a, const char *b, char *err, size_t errlen)
{
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
		return 0;
	snprintf(err, errlen, "cannot exchange '%s' and '%s': %s", a, b, strerror(errno));
	return -1;
}

/* Puts d->tmp in place of the folder at path and removes the old one: one
 * exchange (tc_out_exchange), so that path names the old or the new folder
 * at every instant; where the file system cannot exchange, the old folder
 * is moved aside first. */
static int swap_in(struct tc_out_dir *d, char *err, size_t errlen)
{
	char *aside;
	int e = 0;
	if (tc_out_exchange(d->tmp, d->path, err, errlen) == 0) {
		remove_flat(d->tmp);   /* the old folder, now at the temporary name */
		return 0;
	}
	aside = beside(d->path, "old.XXXXXX");
	if (!aside || !mkdtemp(aside))
		e = aside ? errno : ENOMEM;
	else if (rename(d->path, aside) != 0)
		e = errno;
	else if (rename(d->tmp, d->path) != 0) {
		e = errno;
		rename(aside, d->path);   /* the old folder back in place */
	}
	if (e) {
		snprintf(err, errlen, "cannot replace '%s': %s", d->path, strerror(e));
		if (aside)
			rmdir(aside);
	} else {
		remove_flat(aside);
	}
	free(aside);
	return e ? -1 : 0;
}

int tc_out_dir_commit(struct tc_out_dir *d, const char *marker, char *err, size_t errlen)
{
	int rc = 0;
	if (rename(d->tmp, d->path) != 0) {
		if (errno == ENOTEMPTY || errno == EEXIST)
			rc = replaceable(d->path, marker, err, errlen) ? swap_in(d, err, errlen) : -1;
		else
			rc = -1, snprintf(err, errlen, "cannot create '%s': %s", d->path, strerror(errno));
	}
	if (rc == 0) {
		free(d->tmp);
		d->tmp = NULL;
	}
	tc_out_dir_discard(d);
	return rc;
}

void tc_out_dir_discard(struct tc_out_dir *d)
{
	if (d->tmp)
		remove_flat(d->tmp);
	free(d->tmp);
	free(d->path);
	d->tmp = NULL;
	d->path = NULL;
}

void tc_out_ignore_file_size_signal(void)
{
	signal(SIGXFSZ, SIG_IGN);
}
