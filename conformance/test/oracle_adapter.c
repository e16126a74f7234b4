/* SPDX-License-Identifier: BSD-3-Clause */
/* oracle_adapter.c — a hostile adapter that decodes nothing and tries to copy the expected answers into its results (tests/hostile.t).
 *
 * It declares ETE at L1. For each run it looks for the vector's expected L1 lines:
 *  1. in memory: args->ctx taken for the runner's item context of a runner that
 *     forks the adapter's process from the one holding the vector (that context
 *     began with the adapter's declaration and the struct tc_vector; every pointer
 *     is checked readable before it is followed);
 *  2. on disk: every *.tcv in $TC_BAD_VECTORS whose [trace] bytes are the ones
 *     fed, its [expect.l1] lines normalised as the vector reader does; first it
 *     tries to uncover that folder: umount2() of what covers it, then the same in
 *     a user and mount namespace of its own (where it would hold every capability).
 * Whatever it finds it writes as text frames (conformance/frame.h) straight to
 * descriptor 3, the runner's frames, then a frame saying the run is done, and
 * exits 0. In $TC_BAD_MARKER_DIR (when set) it creates "ran" on every run and
 * "found" when it found expected lines. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "tracecert/adapter.h"
#include "tracecert/protocol.h"
#include "vector.h"

#define FRAMES_FD 3
#define MAX_LINES 4096

struct oracle {
	const void *ctx;
	char *line[MAX_LINES];
	int n;
	uint8_t *trace;   /* what feed() was given, in the runner's pieces */
	size_t trace_len;
};

/* Whether n bytes at p can be read (write() of them to /dev/null fails with
 * EFAULT otherwise), without touching them. */
static int readable(const void *p, size_t n)
{
	int fd = open("/dev/null", O_WRONLY);
	int ok = fd >= 0 && p && write(fd, p, n) == (ssize_t)n;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* A NUL-terminated string at p of at most 4000 bytes, all readable. */
static int readable_string(const char *p)
{
	for (size_t i = 0; i < 4000; i++) {
		if (!readable(p + i, 1))
			return 0;
		if (p[i] == '\0')
			return 1;
	}
	return 0;
}

static void add_line(struct oracle *o, const char *s)
{
	if (o->n < MAX_LINES && s[0])
		o->line[o->n++] = strdup(s);
}

/* 1. The vector behind args->ctx, if there is one. */
static void from_memory(struct oracle *o)
{
	const struct tc_vector *const *slot = o->ctx;
	const struct tc_vector *v;
	const struct tc_lines *l;
	if (!readable(slot, 2 * sizeof *slot) || !readable(v = slot[1], sizeof *v) ||
	    !readable(v->proto, sizeof *v->proto) || v->proto->id != tc_proto_ete)
		return;
	l = &v->expect[tc_sec_l1];
	if (l->n > MAX_LINES || !readable(l->line, l->n * sizeof *l->line))
		return;
	for (size_t i = 0; i < l->n; i++)
		if (readable_string(l->line[i]))
			add_line(o, l->line[i]);
}

/* The line without its comment, blanks collapsed (the vector reader's rule). */
static void normalise(const char *s, char *out)
{
	size_t o = 0;
	int blank = 0;
	for (; *s && *s != '#' && *s != '\n'; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\r') {
			blank = 1;
			continue;
		}
		if (blank && o > 0)
			out[o++] = ' ';
		blank = 0;
		out[o++] = *s;
	}
	out[o] = '\0';
}

/* The bytes of a [trace] line into t (at most max in all). */
static size_t hex_line(const char *s, uint8_t *t, size_t k, size_t max)
{
	unsigned v;
	int used;
	while (*s && *s != '#' && k < max && sscanf(s, " %2x%n", &v, &used) == 1) {
		t[k++] = (uint8_t)v;
		s += used;
	}
	return k;
}

/* What covers dir taken away, if the process may: directly, then in new
 * user and mount namespaces (the mounts it inherits there are its own
 * copies). */
static void uncover(const char *dir)
{
	if (!dir || umount2(dir, MNT_DETACH) == 0)
		return;
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0)
		umount2(dir, MNT_DETACH);
}

/* 2. The vector file in dir whose trace is data, if one is readable. */
static void from_disk(struct oracle *o, const char *dir, const uint8_t *data, size_t len)
{
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	uint8_t *t = malloc(len + 1);
	char line[8192], norm[8192], path[4096];
	while (d && t && o->n == 0 && (e = readdir(d)) != NULL) {
		FILE *f;
		size_t k = 0;
		int sec = 0;   /* 1: [trace], 2: [expect.l1] */
		if (!strstr(e->d_name, ".tcv"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof line, f)) {
			if (line[0] == '[')
				sec = !strncmp(line, "[trace]", 7) ? 1 : !strncmp(line, "[expect.l1]", 11) ? 2 : 0;
			else if (sec == 1)
				k = hex_line(line, t, k, len + 1);
			else if (sec == 2 && k == len && !memcmp(t, data, len)) {
				normalise(line, norm);
				add_line(o, norm);
			}
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	free(t);
}

static void mark(const char *name)
{
	const char *dir = getenv("TC_BAD_MARKER_DIR");
	char path[4096];
	if (!dir)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	close(open(path, O_WRONLY | O_CREAT, 0644));
}

/* A text frame as such runners read them: type, four digits, a blank, the text, a newline. */
static void frame(char type, const char *text)
{
	char buf[5000];
	int n = snprintf(buf, sizeof buf, "%c%04zu %s\n", type, strlen(text), text);
	if (n > 0 && write(FRAMES_FD, buf, (size_t)n) < 0)
		_exit(3);
}

static void *oracle_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct oracle *o = calloc(1, sizeof *o);
	(void)err;
	(void)errlen;
	if (o)
		o->ctx = a->ctx;
	return o;
}

/* The trace comes in pieces: kept whole for finish(), which looks it up. */
static int oracle_feed(void *h, const uint8_t *data, size_t len)
{
	struct oracle *o = h;
	uint8_t *t = realloc(o->trace, o->trace_len + len + 1);
	if (!t)
		return -1;
	memcpy(t + o->trace_len, data, len);
	o->trace = t;
	o->trace_len += len;
	return 0;
}

static int oracle_finish(void *h)
{
	struct oracle *o = h;
	mark("ran");
	from_memory(o);
	if (o->n == 0) {
		uncover(getenv("TC_BAD_VECTORS"));
		from_disk(o, getenv("TC_BAD_VECTORS"), o->trace, o->trace_len);
	}
	if (o->n > 0)
		mark("found");
	for (int i = 0; i < o->n; i++)
		frame('1', o->line[i]);
	frame('D', "");
	_exit(0);
}

static void oracle_close(void *h)
{
	struct oracle *o = h;
	if (o)
		free(o->trace);
	free(o);
}

static const struct tc_adapter_protocol oracle_protocols[] = { { tc_proto_ete, tc_level_l1, NULL } };

static const struct tc_adapter oracle_adapter = {
	TC_ADAPTER_ABI_VERSION, "oracle", "0", oracle_protocols, 1,
	oracle_open, oracle_feed, oracle_finish, oracle_close,
};

const struct tc_adapter *tracecert_adapter_v2(void)
{
	return &oracle_adapter;
}
