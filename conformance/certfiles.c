/* SPDX-License-Identifier: BSD-3-Clause */
/* certfiles.c — the certificate files of a report folder: the folder checked before the run and the previous pair moved aside, the JSON and Markdown written as one pair, the previous pair put back or removed. */
#define _DEFAULT_SOURCE 1   /* flock */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "certfiles.h"
#include "interrupt.h"
#include "outfile.h"

typedef int (*writer_fn)(FILE *f, const struct tc_report *r, char *err, size_t errlen);

static const char *const file_names[TC_CERTFILES_N] = { "certificate.json", "certificate.md",
							  "certificate.junit.xml", "certificate.html" };
static const writer_fn writers[TC_CERTFILES_N] = { tc_json_certificate, tc_markdown_certificate,
						   tc_junit_certificate, tc_html_certificate };

/* DIR/NAME, malloc'd, or NULL. */
static char *path_of(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* An exclusive lock on the folder (released by closing the descriptor):
 * the descriptor, or -1 with errno. EINTR: a signal came while waiting. */
static int lock_folder(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* The PID of a moved-aside file's name (".certificate.json.kept-PID"), or 0. */
static long kept_pid(const char *name)
{
	const char *k;
	char *end;
	long pid;
	for (int i = 0; i < TC_CERTFILES_N; i++) {
		size_t n = strlen(file_names[i]);
		if (name[0] != '.' || strncmp(name + 1, file_names[i], n) || strncmp(name + 1 + n, ".kept-", 6))
			continue;
		k = name + 1 + n + 6;
		pid = strtol(k, &end, 10);
		return *k >= '1' && *k <= '9' && !*end && pid > 0 ? pid : 0;
	}
	return 0;
}

/* Removes the pairs moved aside by runs that are gone (killed before they
 * could put them back or remove them). */
static void drop_orphans(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		long pid = kept_pid(e->d_name);
		char *p;
		if (pid == 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH || !(p = path_of(dir, e->d_name)))
			continue;
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
}

int tc_certfiles_prepare(struct tc_certfiles *c, const char *dir)
{
	char err[600];
	int fd, rc = 0;
	struct stat self;
	memset(c, 0, sizeof *c);
	c->dir = dir;
	if (!dir)
		return 0;
	c->created = lstat(dir, &self) != 0 && errno == ENOENT;
	if (tc_out_probe_dir(dir, err, sizeof err)) {
		fprintf(stderr, "tracecert certify: --report: %s\n", err);
		return -1;
	}
	drop_orphans(dir);
	fd = lock_folder(dir);
	if (fd < 0 || fstat(fd, &self) != 0) {
		fprintf(stderr, "tracecert certify: --report: cannot open the folder '%s': %s\n", dir, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	c->dev = self.st_dev;
	c->ino = self.st_ino;
	for (int i = 0; i < TC_CERTFILES_N && rc == 0; i++) {
		char *p = path_of(dir, file_names[i]);
		struct stat st;
		snprintf(c->kept[i], sizeof c->kept[i], "%s/.%s.kept-%ld", dir, file_names[i], (long)getpid());
		int there = p && lstat(p, &st) == 0;
		if (there && rename(p, c->kept[i]) != 0) {
			fprintf(stderr, "tracecert certify: --report: cannot move %s, left by an earlier run, aside: %s\n",
				p, strerror(errno));
			c->kept[i][0] = '\0';
			rc = -1;
		} else if (!there) {
			c->kept[i][0] = '\0';   /* nothing there */
		}
		free(p);
	}
	close(fd);
	if (rc != 0)
		tc_certfiles_restore(c);
	return rc;
}

/* Removes the files moved aside (the folder locked by the caller). */
static void drop_kept(const struct tc_certfiles *c, int say)
{
	for (int i = 0; i < TC_CERTFILES_N; i++) {
		if (!c->kept[i][0])
			continue;
		if (unlink(c->kept[i]) != 0 && errno != ENOENT)
			fprintf(stderr, "tracecert certify: cannot remove %s/%s, left by an earlier run: %s\n", c->dir,
				file_names[i], strerror(errno));
		else if (say)
			fprintf(stderr, "tracecert certify: removed %s/%s, left by an earlier run\n", c->dir, file_names[i]);
	}
}

void tc_certfiles_drop_previous(const struct tc_certfiles *c)
{
	int fd;
	if (!c->dir)
		return;
	fd = lock_folder(c->dir);   /* without the lock (a second signal): remove all the same */
	drop_kept(c, 1);
	if (fd >= 0)
		close(fd);
}

/* Puts each file moved aside back where no certificate is (the folder
 * locked by the caller); removes the others. */
static void put_back(const struct tc_certfiles *c)
{
	for (int i = 0; i < TC_CERTFILES_N; i++) {
		char *p = path_of(c->dir, file_names[i]);
		struct stat st;
		if (c->kept[i][0] && p && lstat(p, &st) != 0 && errno == ENOENT)
			rename(c->kept[i], p);
		else if (c->kept[i][0])
			unlink(c->kept[i]);
		free(p);
	}
}

void tc_certfiles_restore(const struct tc_certfiles *c)
{
	int fd;
	if (!c->dir)
		return;
	fd = lock_folder(c->dir);
	put_back(c);
	if (fd >= 0)
		close(fd);
}

void tc_certfiles_abandon(const struct tc_certfiles *c, int keep)
{
	if (!c->dir)
		return;
	if (keep)
		tc_certfiles_restore(c);
	else
		tc_certfiles_drop_previous(c);
	if (c->created)
		rmdir(c->dir);   /* only when empty */
}

/* Removes the certificate files of a folder that is not the one prepared
 * (another's, whoever put them there; a folder of the runner's own user
 * made read-only is made writable for it), said on stderr. */
static void remove_foreign(const struct tc_certfiles *c)
{
	for (int i = 0; i < TC_CERTFILES_N; i++) {
		char *p = path_of(c->dir, file_names[i]);
		int gone = p && unlink(p) == 0;
		if (p && !gone && errno == EACCES && chmod(c->dir, 0700) == 0)
			gone = unlink(p) == 0;
		if (gone)
			fprintf(stderr, "tracecert certify: removed %s, which is not this run's\n", p);
		else if (p && errno != ENOENT)
			fprintf(stderr, "tracecert certify: cannot remove %s, which is not this run's: %s\n", p,
				strerror(errno));
		free(p);
	}
}

/* Whether the folder open at fd (-1: the path opened here) is the one
 * prepared. When it is not: said, and its certificate files removed. */
static int same_folder(const struct tc_certfiles *c, int fd)
{
	struct stat st;
	int own = fd < 0 ? open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : fd;
	int same = own >= 0 && fstat(own, &st) == 0 && st.st_dev == c->dev && st.st_ino == c->ino;
	if (fd < 0 && own >= 0)
		close(own);
	if (same)
		return 1;
	fprintf(stderr, "tracecert certify: '%s' is no longer the report folder this run prepared (it, or a folder "
			"above it, was moved while the adapter ran): no certificate written\n", c->dir);
	remove_foreign(c);
	return 0;
}

/* Renders certificate i of r in memory and stages it beside its place. 0, or -1 after a message. */
static int stage_one(const struct tc_certfiles *c, int i, const struct tc_report *r, struct tc_out_staged *s)
{
	struct tc_out_text t;
	char err[600];
	char *path = path_of(c->dir, file_names[i]);
	int rc = -1;
	if (!path || tc_out_text_open(&t) != 0) {
		fprintf(stderr, "tracecert certify: cannot write %s/%s: out of memory\n", c->dir, file_names[i]);
		free(path);
		return -1;
	}
	if (writers[i](t.f, r, err, sizeof err) != 0 || tc_out_text_close(&t) != 0)
		fprintf(stderr, "tracecert certify: cannot write %s: rendering it in memory failed (out of memory)\n", path);
	else if (tc_out_stage(s, path, t.buf, t.len, tc_out_sync, err, sizeof err) != 0)
		fprintf(stderr, "tracecert certify: %s\n", err);
	else
		rc = 0;
	tc_out_text_free(&t);
	free(path);
	return rc;
}

/* Renames the staged files into place; a set cut by a failed rename loses
 * its new files renamed before it too. 0, or -1 after a message. */
static int commit_pair(const struct tc_certfiles *c, struct tc_out_staged *s)
{
	char err[600];
	int i = 0;
	while (i < TC_CERTFILES_N && tc_out_commit(&s[i], err, sizeof err) == 0)
		i++;
	if (i == TC_CERTFILES_N)
		return 0;
	while (i-- > 0) {
		char *p = path_of(c->dir, file_names[i]);
		if (p)
			unlink(p);
		free(p);
	}
	fprintf(stderr, "tracecert certify: %s\n", err);
	return -1;
}

static void discard_all(struct tc_out_staged *s)
{
	for (int i = 0; i < TC_CERTFILES_N; i++)
		tc_out_discard(&s[i]);
}

int tc_certfiles_write(const struct tc_certfiles *c, const struct tc_report *r)
{
	struct tc_out_staged s[TC_CERTFILES_N];
	int fd, rc;
	memset(s, 0, sizeof s);
	if (!c->dir)
		return 0;
	if (!same_folder(c, -1))
		return -1;   /* the pair moved aside is in the folder prepared, wherever it went */
	for (int i = 0; i < TC_CERTFILES_N; i++)
		if (stage_one(c, i, r, &s[i])) {
			discard_all(s);
			tc_certfiles_restore(c);
			return -1;
		}
	fd = lock_folder(c->dir);
	if (fd < 0 && errno != EINTR) {
		fprintf(stderr, "tracecert certify: cannot lock the folder '%s': %s\n", c->dir, strerror(errno));
		put_back(c);
		rc = -1;
	} else if (tc_interrupt_signal()) {
		drop_kept(c, 1);
		rc = 1;
	} else if (fd >= 0 && !same_folder(c, fd)) {
		rc = -1;
	} else if ((rc = commit_pair(c, s)) == 0) {
		drop_kept(c, 0);
	} else {
		put_back(c);
	}
	discard_all(s);
	if (fd >= 0)
		close(fd);
	return rc;
}

int tc_certfiles_junit(const char *path, const struct tc_report *r)
{
	struct tc_out_text t;
	char err[600];
	int rc = -1;
	if (tc_out_text_open(&t) != 0) {
		fprintf(stderr, "tracecert certify: cannot write %s: out of memory\n", path);
		return -1;
	}
	if (tc_junit_certificate(t.f, r, err, sizeof err) != 0 || tc_out_text_close(&t) != 0)
		fprintf(stderr, "tracecert certify: cannot write %s: rendering it in memory failed (out of memory)\n", path);
	else if (tc_out_save(path, t.buf, t.len, tc_out_sync, err, sizeof err) != 0)
		fprintf(stderr, "tracecert certify: %s\n", err);
	else
		rc = 0;
	tc_out_text_free(&t);
	return rc;
}
