/* SPDX-License-Identifier: BSD-3-Clause */
/* snapshot.c — trace snapshot directories: a strict INI parser and the directory's structure (devices, registers, memory dumps, trace buffers, links), checked whole before anything is decoded.
 *
 * The layout is the "Trace and Debug Snapshot" format OpenCSD's
 * trc_pkt_lister -ss_dir and Arm DS read (Arm's "Trace and Debug Snapshot
 * File Format" specification, which OpenCSD ships among its documents;
 * OpenCSD's snapshot reader was read for the key names, not copied):
 * snapshot.ini [device_list] (one .ini per device) and [trace] metadata=;
 * a device's [device] name/class/type, [regs] NAME(suffix)=VALUE and
 * [dumpN] file/address/length/offset/space; trace.ini [trace_buffers]
 * buffers=, one section per buffer (name, file, format), [source_buffers]
 * and [core_trace_sources]. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mmap, open, strdup, strcasecmp: also built with plain -std=c11 (tools/bench-floor.sh) */
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracecert/image.h"
#include "tracecert/snapshot.h"
#include "errtext.h"

/* Grows an array of elements of size sz to hold one more. */
static int grow(void **p, int *cap, int n, size_t sz)
{
	void *q;
	int c;
	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 8;
	if (c > (1 << 24))
		return -1;
	q = realloc(*p, (size_t)c * sz);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/* ---- INI ------------------------------------------------------------------------ */

struct ini_parser {
	struct tc_ini *ini;
	int lineno;
	char *err;
	size_t errlen;
};

static int ini_bad(struct ini_parser *p, const char *fmt, ...)
{
	char what[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return tc_errtext(p->err, p->errlen, -1, "%s:%d: %s", p->ini->path, p->lineno, what);
}

static char *trim(char *s)
{
	char *e;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

static char *unquote(char *s)
{
	size_t n = strlen(s);
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
		s[n - 1] = '\0';
		return s + 1;
	}
	return s;
}

static int add_section(struct ini_parser *p, char *body)
{
	struct tc_ini *ini = p->ini;
	char *close = strchr(body, ']');
	char *name;
	if (!close || *trim(close + 1))
		return ini_bad(p, "expected [section], got '%.60s'", body - 1);
	*close = '\0';
	name = trim(body);
	if (!*name)
		return ini_bad(p, "empty section name");
	if (tc_ini_find(ini, name))
		return ini_bad(p, "section [%s] given twice", name);
	if (grow((void **)&ini->section, &ini->cap, ini->n, sizeof *ini->section))
		return ini_bad(p, "out of memory");
	ini->section[ini->n] = (struct tc_ini_section){ strdup(name), p->lineno, NULL, 0, 0 };
	if (!ini->section[ini->n++].name)
		return ini_bad(p, "out of memory");
	return 0;
}

static int add_entry(struct ini_parser *p, char *line, char *eq)
{
	struct tc_ini_section *s;
	char *key, *value;
	if (p->ini->n == 0)
		return ini_bad(p, "'%.60s' comes before any [section]", line);
	s = &p->ini->section[p->ini->n - 1];
	*eq = '\0';
	key = trim(line);
	value = unquote(trim(eq + 1));
	if (!*key)
		return ini_bad(p, "expected key=value, the key is empty");
	if (tc_ini_get(s, key))
		return ini_bad(p, "key '%s' given twice in [%s]", key, s->name);
	if (grow((void **)&s->entry, &s->cap, s->n, sizeof *s->entry))
		return ini_bad(p, "out of memory");
	s->entry[s->n] = (struct tc_ini_entry){ strdup(key), strdup(value), p->lineno };
	if (!s->entry[s->n].key || !s->entry[s->n].value) {
		s->n++;
		return ini_bad(p, "out of memory");
	}
	s->n++;
	return 0;
}

static int parse_line(struct ini_parser *p, char *line)
{
	char *t, *eq;
	line[strcspn(line, ";#")] = '\0';
	t = trim(line);
	if (!*t)
		return 0;
	if (*t == '[')
		return add_section(p, t + 1);
	eq = strchr(t, '=');
	if (!eq)
		return ini_bad(p, "expected [section] or key=value, got '%.60s'", t);
	return add_entry(p, t, eq);
}

int tc_ini_parse(const char *text, size_t len, const char *path, struct tc_ini *ini, char *err, size_t errlen)
{
	struct ini_parser p = { ini, 0, err, errlen };
	char *line = NULL;
	int rc = 0;
	memset(ini, 0, sizeof *ini);
	ini->path = strdup(path ? path : "-");
	if (!ini->path)
		return tc_errtext(err, errlen, -1, "out of memory");
	for (size_t i = 0; rc == 0 && i < len;) {
		const char *eol = memchr(text + i, '\n', len - i);
		size_t n = eol ? (size_t)(eol - (text + i)) : len - i;
		p.lineno++;
		if (memchr(text + i, '\0', n))
			rc = ini_bad(&p, "a NUL byte (at byte offset %zu): not a text file", i + (size_t)((const char *)memchr(text + i, '\0', n) - (text + i)));
		else if (!(line = malloc(n + 1)))
			rc = ini_bad(&p, "out of memory");
		else {
			memcpy(line, text + i, n);
			line[n] = '\0';
			if (n && line[n - 1] == '\r')
				line[n - 1] = '\0';
			if (strchr(line, '\r'))   /* found by fuzz/snapini: fuzz/corpus/snapini/cr-inside-a-line.ini */
				rc = ini_bad(&p, "a carriage return inside the line (at byte offset %zu)", i + (size_t)(strchr(line, '\r') - line));
			else
				rc = parse_line(&p, line);
			free(line);
		}
		i += n + 1;
	}
	if (rc)
		tc_ini_free(ini);
	return rc;
}

int tc_ini_load(const char *path, struct tc_ini *ini, char *err, size_t errlen)
{
	size_t len = 0;
	uint8_t *text;
	struct stat st;
	int rc;
	memset(ini, 0, sizeof *ini);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return tc_errtext(err, errlen, -1, "%s: cannot read: %s", path, strerror(EISDIR));
	text = tc_image_read_file(path, &len);
	if (!text && errno == EFBIG)
		return tc_errtext(err, errlen, -1, "%s: cannot read: more than %lu bytes, the limit of a file read whole "
			       "(TC_IMAGE_READ_MAX)", path, (unsigned long)TC_IMAGE_READ_MAX);
	if (!text)
		return tc_errtext(err, errlen, -1, "%s: cannot read: %s", path, strerror(errno));
	rc = tc_ini_parse((const char *)text, len, path, ini, err, errlen);
	free(text);
	return rc;
}

void tc_ini_free(struct tc_ini *ini)
{
	for (int i = 0; i < ini->n; i++) {
		struct tc_ini_section *s = &ini->section[i];
		for (int j = 0; j < s->n; j++) {
			free(s->entry[j].key);
			free(s->entry[j].value);
		}
		free(s->entry);
		free(s->name);
	}
	free(ini->section);
	free(ini->path);
	memset(ini, 0, sizeof *ini);
}

const struct tc_ini_section *tc_ini_find(const struct tc_ini *ini, const char *section)
{
	for (int i = 0; i < ini->n; i++)
		if (!strcmp(ini->section[i].name, section))
			return &ini->section[i];
	return NULL;
}

const struct tc_ini_entry *tc_ini_get(const struct tc_ini_section *s, const char *key)
{
	for (int i = 0; s && i < s->n; i++)
		if (!strcmp(s->entry[i].key, key))
			return &s->entry[i];
	return NULL;
}

int tc_snapshot_number(const char *t, uint64_t *value)
{
	int hex = t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
	const char *d = hex ? t + 2 : t;
	char *end;
	unsigned long long v;
	if (!(hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)))
		return -1;
	errno = 0;
	v = strtoull(d, &end, hex ? 16 : 10);
	if (errno || *end)
		return -1;
	*value = v;
	return 0;
}

/* ---- Snapshot directories ---------------------------------------------------------- */

/* file resolved against the folder of the .ini that names it. */
static char *resolve(const char *ini_path, const char *file)
{
	const char *slash = strrchr(ini_path, '/');
	size_t dir = slash ? (size_t)(slash - ini_path) : 1;
	char *out;
	if (file[0] == '/' || !slash)
		return strdup(file);
	out = malloc(dir + strlen(file) + 2);
	if (out)
		sprintf(out, "%.*s/%s", (int)dir, ini_path, file);
	return out;
}

/* A file must open for reading. */
static int check_opens(const char *path, const char *where, int line, const char *what, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	int e = errno;
	if (fd >= 0) {
		int dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
		close(fd);
		if (!dir)
			return 0;
		e = EISDIR;
	}
	return tc_errtext(err, errlen, -1, "%s:%d: %s '%s': cannot open: %s", where, line, what, path, strerror(e));
}

/* A required key of a section. */
static const struct tc_ini_entry *need(const struct tc_ini *ini, const struct tc_ini_section *s, const char *key,
				       char *err, size_t errlen)
{
	const struct tc_ini_entry *e = tc_ini_get(s, key);
	if (!e || !*e->value)
		tc_errtext(err, errlen, -1, "%s:%d: [%s] has no %s=", ini->path, s->line, s->name, key);
	return e && *e->value ? e : NULL;
}

static int add_reg(struct tc_snap_device *d, const struct tc_ini *ini, const struct tc_ini_entry *e, char *err,
		   size_t errlen)
{
	size_t n = strcspn(e->key, "(");
	struct tc_snap_reg *r;
	if (e->key[n] && (e->key[strlen(e->key) - 1] != ')' || n == 0))
		return tc_errtext(err, errlen, -1, "%s:%d: register name '%s': expected NAME or NAME(suffix)", ini->path, e->line, e->key);
	for (int i = 0; i < d->nregs; i++)   /* TRCIDR0(0x1e0) and trcidr0 are one register */
		if (strlen(d->reg[i].name) == n && !strncasecmp(d->reg[i].name, e->key, n))
			return tc_errtext(err, errlen, -1, "%s:%d: register %s is given twice, at lines %d and %d (a name with or without a "
				       "(suffix), in any case, is one register)", ini->path, e->line, d->reg[i].name,
				       d->reg[i].line, e->line);
	r = realloc(d->reg, (size_t)(d->nregs + 1) * sizeof *r);
	if (!r)
		return tc_errtext(err, errlen, -1, "out of memory");
	d->reg = r;
	r[d->nregs] = (struct tc_snap_reg){ strndup(e->key, n), strdup(e->value), e->line };
	if (!r[d->nregs++].name || !r[d->nregs - 1].value)
		return tc_errtext(err, errlen, -1, "out of memory");
	return 0;
}

static int dump_number(const struct tc_ini *ini, const struct tc_ini_entry *e, uint64_t *v, char *err, size_t errlen)
{
	if (tc_snapshot_number(e->value, v))
		return tc_errtext(err, errlen, -1, "%s:%d: %s='%s' is not a number (decimal or 0x hex)", ini->path, e->line, e->key,
			       e->value);
	return 0;
}

static int dump_entry(struct tc_snap_dump *dump, const struct tc_ini *ini, const struct tc_ini_entry *e, char *err,
		      size_t errlen)
{
	if (!strcmp(e->key, "address"))
		return dump_number(ini, e, &dump->address, err, errlen);
	if (!strcmp(e->key, "offset"))
		return dump_number(ini, e, &dump->offset, err, errlen);
	if (!strcmp(e->key, "length")) {
		dump->has_length = 1;
		return dump_number(ini, e, &dump->length, err, errlen);
	}
	if (!strcmp(e->key, "space"))
		return (dump->space = strdup(e->value)) ? 0 : tc_errtext(err, errlen, -1, "out of memory");
	if (!strcmp(e->key, "file"))
		return 0;
	return tc_errtext(err, errlen, -1, "%s:%d: unknown key '%s' in [%s] (expected file, address, length, offset, space)",
		       ini->path, e->line, e->key, dump->section);
}

static int add_dump(struct tc_snap_device *d, const struct tc_ini *ini, const struct tc_ini_section *s, char *err,
		    size_t errlen)
{
	const struct tc_ini_entry *file = need(ini, s, "file", err, errlen);
	struct tc_snap_dump *dump, *arr;
	if (!file || !need(ini, s, "address", err, errlen))
		return -1;
	arr = realloc(d->dump, (size_t)(d->ndumps + 1) * sizeof *arr);
	if (!arr)
		return tc_errtext(err, errlen, -1, "out of memory");
	d->dump = arr;
	dump = &arr[d->ndumps++];
	memset(dump, 0, sizeof *dump);
	dump->line = s->line;
	dump->section = strdup(s->name);
	dump->file = resolve(ini->path, file->value);
	if (!dump->section || !dump->file)
		return tc_errtext(err, errlen, -1, "out of memory");
	for (int i = 0; i < s->n; i++)
		if (dump_entry(dump, ini, &s->entry[i], err, errlen))
			return -1;
	return check_opens(dump->file, ini->path, file->line, "dump file", err, errlen);
}

static int device_header(struct tc_snap_device *d, const struct tc_ini *ini, char *err, size_t errlen)
{
	const struct tc_ini_section *s = tc_ini_find(ini, "device");
	const struct tc_ini_entry *name, *cls, *type;
	if (!s)
		return tc_errtext(err, errlen, -1, "%s: no [device] section (name, class, type)", ini->path);
	name = need(ini, s, "name", err, errlen);
	cls = name ? need(ini, s, "class", err, errlen) : NULL;
	type = cls ? need(ini, s, "type", err, errlen) : NULL;
	if (!type)
		return -1;
	d->name = strdup(name->value);
	d->class_ = strdup(cls->value);
	d->type = strdup(type->value);
	return d->name && d->class_ && d->type ? 0 : tc_errtext(err, errlen, -1, "out of memory");
}

static int load_device(struct tc_snapshot *ss, const char *path, const struct tc_ini_entry *listed, const char *list,
		       char *err, size_t errlen)
{
	struct tc_ini ini;
	struct tc_snap_device *d, *arr;
	const struct tc_ini_section *regs;
	int rc;
	if (tc_ini_load(path, &ini, err, errlen)) {
		char inner[600];
		snprintf(inner, sizeof inner, "%s", err);
		return tc_errtext(err, errlen, -1, "%s:%d: device file: %s", list, listed->line, inner);
	}
	arr = realloc(ss->device, (size_t)(ss->ndevices + 1) * sizeof *arr);
	rc = arr ? 0 : tc_errtext(err, errlen, -1, "out of memory");
	if (arr) {
		ss->device = arr;
		d = &arr[ss->ndevices++];
		memset(d, 0, sizeof *d);
		d->ini = strdup(path);
		rc = device_header(d, &ini, err, errlen);
		if (!rc && tc_snapshot_device(ss, d->name) != d)
			rc = tc_errtext(err, errlen, -1, "%s: device name '%s' is used twice", path, d->name);
		regs = tc_ini_find(&ini, "regs");
		for (int i = 0; !rc && regs && i < regs->n; i++)
			rc = add_reg(d, &ini, &regs->entry[i], err, errlen);
		for (int i = 0; !rc && i < ini.n; i++)
			if (!strncmp(ini.section[i].name, "dump", 4))
				rc = add_dump(d, &ini, &ini.section[i], err, errlen);
	}
	tc_ini_free(&ini);
	return rc;
}

static int load_buffer(struct tc_snapshot *ss, const struct tc_ini *ini, const char *id, int line, char *err,
		       size_t errlen)
{
	const struct tc_ini_section *s = tc_ini_find(ini, id);
	const struct tc_ini_entry *name, *file, *format;
	struct tc_snap_buffer *b;
	if (!s)
		return tc_errtext(err, errlen, -1, "%s:%d: buffer '%s' has no [%s] section", ini->path, line, id, id);
	if (!(name = need(ini, s, "name", err, errlen)) || !(file = need(ini, s, "file", err, errlen)) ||
	    !(format = need(ini, s, "format", err, errlen)))
		return -1;
	if (strcmp(format->value, "coresight") && strcmp(format->value, "source_data"))
		return tc_errtext(err, errlen, -1, "%s:%d: unknown buffer format '%s' (expected coresight or source_data)", ini->path,
			       format->line, format->value);
	if (tc_snapshot_buffer(ss, name->value))
		return tc_errtext(err, errlen, -1, "%s:%d: buffer name '%s' is used twice", ini->path, name->line, name->value);
	b = realloc(ss->buffer, (size_t)(ss->nbuffers + 1) * sizeof *b);
	if (!b)
		return tc_errtext(err, errlen, -1, "out of memory");
	ss->buffer = b;
	b = &b[ss->nbuffers++];
	*b = (struct tc_snap_buffer){ strdup(id), strdup(name->value), resolve(ini->path, file->value),
				      !strcmp(format->value, "coresight"), s->line };
	if (!b->id || !b->name || !b->file)
		return tc_errtext(err, errlen, -1, "out of memory");
	return check_opens(b->file, ini->path, file->line, "buffer file", err, errlen);
}

static int load_buffers(struct tc_snapshot *ss, const struct tc_ini *ini, char *err, size_t errlen)
{
	const struct tc_ini_section *s = tc_ini_find(ini, "trace_buffers");
	const struct tc_ini_entry *list = s ? need(ini, s, "buffers", err, errlen) : NULL;
	char *copy, *save = NULL;
	int rc = 0;
	if (!s)
		return tc_errtext(err, errlen, -1, "%s: no [trace_buffers] section", ini->path);
	if (!list)
		return -1;
	copy = strdup(list->value);
	if (!copy)
		return tc_errtext(err, errlen, -1, "out of memory");
	for (char *id = strtok_r(copy, ",", &save); !rc && id; id = strtok_r(NULL, ",", &save)) {
		id = trim(id);
		rc = *id ? load_buffer(ss, ini, id, list->line, err, errlen)
			 : tc_errtext(err, errlen, -1, "%s:%d: an empty buffer name in buffers=", ini->path, list->line);
	}
	free(copy);
	return rc;
}

/* [source_buffers] or [core_trace_sources]: each side must name a device (buffer_to: the right side a buffer). */
static int load_links(const struct tc_snapshot *ss, const struct tc_ini *ini, const char *section, int buffer_to,
		      struct tc_snap_link **out, int *n, char *err, size_t errlen)
{
	const struct tc_ini_section *s = tc_ini_find(ini, section);
	for (int i = 0; s && i < s->n; i++) {
		const struct tc_ini_entry *e = &s->entry[i];
		struct tc_snap_link *l;
		if (!tc_snapshot_device(ss, e->key))
			return tc_errtext(err, errlen, -1, "%s:%d: [%s] names device '%s', which no device file defines", ini->path,
				       e->line, section, e->key);
		if (buffer_to ? !tc_snapshot_buffer(ss, e->value) : !tc_snapshot_device(ss, e->value))
			return tc_errtext(err, errlen, -1, "%s:%d: [%s] names %s '%s', which does not exist", ini->path, e->line,
				       section, buffer_to ? "buffer" : "device", e->value);
		l = realloc(*out, (size_t)(*n + 1) * sizeof *l);
		if (!l)
			return tc_errtext(err, errlen, -1, "out of memory");
		*out = l;
		l[*n] = (struct tc_snap_link){ strdup(e->key), strdup(e->value), e->line };
		if (!l[(*n)++].from || !l[*n - 1].to)
			return tc_errtext(err, errlen, -1, "out of memory");
	}
	return 0;
}

static int load_trace(struct tc_snapshot *ss, char *err, size_t errlen)
{
	struct tc_ini ini;
	int rc;
	if (tc_ini_load(ss->trace_ini, &ini, err, errlen))
		return -1;
	rc = load_buffers(ss, &ini, err, errlen);
	if (!rc)
		rc = load_links(ss, &ini, "source_buffers", 1, &ss->source_buffer, &ss->nsource_buffers, err, errlen);
	if (!rc)
		rc = load_links(ss, &ini, "core_trace_sources", 0, &ss->core_source, &ss->ncore_sources, err, errlen);
	tc_ini_free(&ini);
	return rc;
}

static int load_list(struct tc_snapshot *ss, const struct tc_ini *ini, char *err, size_t errlen)
{
	const struct tc_ini_section *list = tc_ini_find(ini, "device_list");
	const struct tc_ini_section *trace = tc_ini_find(ini, "trace");
	const struct tc_ini_entry *meta = trace ? tc_ini_get(trace, "metadata") : NULL;
	if (!list)
		return tc_errtext(err, errlen, -1, "%s: no [device_list] section", ini->path);
	if (!meta || !*meta->value)
		return tc_errtext(err, errlen, -1, "%s: no [trace] section with metadata= (the trace buffers' file)", ini->path);
	for (int i = 0; i < list->n; i++) {
		char *path = resolve(ini->path, list->entry[i].value);
		int rc = path ? load_device(ss, path, &list->entry[i], ini->path, err, errlen) : tc_errtext(err, errlen, -1, "out of memory");
		free(path);
		if (rc)
			return rc;
	}
	ss->trace_ini = resolve(ini->path, meta->value);
	if (!ss->trace_ini)
		return tc_errtext(err, errlen, -1, "out of memory");
	return check_opens(ss->trace_ini, ini->path, meta->line, "trace metadata", err, errlen);
}

int tc_snapshot_load(const char *dir, struct tc_snapshot *ss, char *err, size_t errlen)
{
	struct tc_ini ini;
	char *path;
	int rc;
	memset(ss, 0, sizeof *ss);
	ss->dir = strdup(dir);
	path = malloc(strlen(dir) + sizeof "/snapshot.ini");
	if (!ss->dir || !path) {
		free(path);
		tc_snapshot_free(ss);
		return tc_errtext(err, errlen, -1, "out of memory");
	}
	sprintf(path, "%s/snapshot.ini", dir);
	rc = tc_ini_load(path, &ini, err, errlen);
	free(path);
	if (!rc) {
		rc = load_list(ss, &ini, err, errlen);
		tc_ini_free(&ini);
	}
	if (!rc)
		rc = load_trace(ss, err, errlen);
	if (rc)
		tc_snapshot_free(ss);
	return rc;
}

static void free_links(struct tc_snap_link *l, int n)
{
	for (int i = 0; i < n; i++) {
		free(l[i].from);
		free(l[i].to);
	}
	free(l);
}

static void free_device(struct tc_snap_device *d)
{
	for (int j = 0; j < d->nregs; j++) {
		free(d->reg[j].name);
		free(d->reg[j].value);
	}
	for (int j = 0; j < d->ndumps; j++) {
		free(d->dump[j].section);
		free(d->dump[j].file);
		free(d->dump[j].space);
	}
	free(d->reg);
	free(d->dump);
	free(d->ini);
	free(d->name);
	free(d->class_);
	free(d->type);
}

void tc_snapshot_free(struct tc_snapshot *ss)
{
	for (int i = 0; i < ss->ndevices; i++)
		free_device(&ss->device[i]);
	for (int i = 0; i < ss->nbuffers; i++) {
		free(ss->buffer[i].id);
		free(ss->buffer[i].name);
		free(ss->buffer[i].file);
	}
	free_links(ss->source_buffer, ss->nsource_buffers);
	free_links(ss->core_source, ss->ncore_sources);
	free(ss->device);
	free(ss->buffer);
	free(ss->dir);
	free(ss->trace_ini);
	memset(ss, 0, sizeof *ss);
}

const struct tc_snap_device *tc_snapshot_device(const struct tc_snapshot *ss, const char *name)
{
	for (int i = 0; i < ss->ndevices; i++)
		if (ss->device[i].name && !strcmp(ss->device[i].name, name))
			return &ss->device[i];
	return NULL;
}

const struct tc_snap_buffer *tc_snapshot_buffer(const struct tc_snapshot *ss, const char *name)
{
	for (int i = 0; i < ss->nbuffers; i++)
		if (ss->buffer[i].name && !strcmp(ss->buffer[i].name, name))
			return &ss->buffer[i];
	return NULL;
}

const struct tc_snap_buffer *tc_snapshot_source_buffer(const struct tc_snapshot *ss, const char *source)
{
	for (int i = 0; i < ss->nsource_buffers; i++)
		if (!strcmp(ss->source_buffer[i].from, source))
			return tc_snapshot_buffer(ss, ss->source_buffer[i].to);
	return NULL;
}

const struct tc_snap_device *tc_snapshot_source_core(const struct tc_snapshot *ss, const char *source)
{
	for (int i = 0; i < ss->ncore_sources; i++)
		if (!strcmp(ss->core_source[i].to, source))
			return tc_snapshot_device(ss, ss->core_source[i].from);
	return NULL;
}
