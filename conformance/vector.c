/* SPDX-License-Identifier: BSD-3-Clause */
/* vector.c — vector file reader, line normalisation, and collecting reference output as text. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vector.h"

/* ---- Lines --------------------------------------------------------------- */

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "tracecert: out of memory\n");
		exit(2);
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xrealloc(NULL, n), s, n);
}

void tc_lines_add(struct tc_lines *l, const char *text)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->line = xrealloc(l->line, l->cap * sizeof *l->line);
	}
	l->line[l->n++] = xstrdup(text);
}

/* Copies one line (len bytes of s) into out, which holds len + 1 bytes,
 * without its comment and with runs of blanks collapsed to one space. */
static void normalise(const char *s, size_t len, char *out)
{
	size_t o = 0;
	int blank = 0;
	for (size_t i = 0; i < len && s[i] != '#'; i++) {
		if (isspace((unsigned char)s[i])) {
			blank = 1;
			continue;
		}
		if (blank && o > 0)
			out[o++] = ' ';
		blank = 0;
		out[o++] = s[i];
	}
	out[o] = '\0';
}

/* The normalised copy of a NUL-terminated line (malloc'd). */
static char *normalised(const char *s)
{
	size_t len = strlen(s);
	char *out = xrealloc(NULL, len + 1);
	normalise(s, len, out);
	return out;
}

void tc_lines_add_text(struct tc_lines *l, const char *text)
{
	while (*text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		char *buf = xrealloc(NULL, len + 1);
		normalise(text, len, buf);
		if (buf[0])
			tc_lines_add(l, buf);
		free(buf);
		text += len + (eol ? 1 : 0);
	}
}

void tc_lines_free(struct tc_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof *l);
}

/* One of the first three tokens is "warning": "@OFF HH warning …" (L1),
 * "@OFF warning …" (s1, L2, L3), "warning …" (offset stripped). */
int tc_line_is_warning(const char *line)
{
	const char *p = line;
	for (int i = 0; i < 3 && *p; i++) {
		size_t n = strcspn(p, " ");
		if (n == 7 && !strncmp(p, "warning", 7))
			return 1;
		p += n;
		p += strspn(p, " ");
	}
	return 0;
}

void tc_lines_drop_warnings(struct tc_lines *l)
{
	size_t w = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (tc_line_is_warning(l->line[i]))
			free(l->line[i]);
		else
			l->line[w++] = l->line[i];
	}
	l->n = w;
}

void tc_vector_drop_warnings(struct tc_vector *v)
{
	for (int s = 0; s < tc_sec_count; s++)
		tc_lines_drop_warnings(&v->expect[s]);
	for (int i = 0; i < v->nalts; i++)
		tc_lines_drop_warnings(&v->alt[i].lines);
}

long tc_lines_diff(const struct tc_lines *a, const struct tc_lines *b)
{
	size_t n = a->n < b->n ? a->n : b->n;
	for (size_t i = 0; i < n; i++)
		if (strcmp(a->line[i], b->line[i]))
			return (long)i;
	return a->n == b->n ? -1 : (long)n;
}

/* ---- Vector files ---------------------------------------------------------- */

static const char *const section_names[tc_sec_count] = {
	"[expect.l1]", "[expect.s1]", "[expect.l2]", "[expect.l3]", "[error]"
};

/* The reader's place: no section yet, a section of the vector, or past [end]. */
enum {
	in_none = -1, in_config = -2, in_tags = -3, in_trace = -4, in_image_hex = -5, in_after_end = -6
};

/* Bytes that grow by doubling: reading hex stays linear in its length. */
struct bytes {
	uint8_t *p;
	size_t len;
	size_t cap;
};

static void bytes_push(struct bytes *b, uint8_t byte)
{
	if (b->len == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->p = xrealloc(b->p, b->cap);
	}
	b->p[b->len++] = byte;
}

struct reader {
	struct tc_vector *v;
	int section;          /* in_* above, else tc_sec_*, or 100 + the index of an alternative reading */
	int any_section;      /* a section was opened: '#' lines no longer describe the vector */
	int seen_line[3];     /* the line of [config], [tags], [trace] (0: not given): each comes once */
	size_t comment_len;   /* strlen(v->comment) */
	struct tc_config_builder config;   /* keys and registers of [config], once protocol= named the protocol */
	const char *dir;      /* folder of the vector file, for [image file=…] */
	int strict;           /* image files must be regular files (tc_vector_load_strict) */
	struct bytes trace;
	uint64_t image_base;
	struct bytes image;
	char *err;
	size_t errlen;
	long lineno;
};

static int bad(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, r->errlen, "line %ld: ", r->lineno);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < r->errlen)
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
}

/* Appends the hex bytes of line to buf. */
static int read_hex_line(struct reader *r, const char *line, struct bytes *buf, const char *what)
{
	int hi = -1;
	for (const char *s = line; *s && *s != '#'; s++) {
		int h;
		if (isspace((unsigned char)*s))
			continue;
		h = hexval((unsigned char)*s);
		if (h < 0)
			return bad(r, "expected hex bytes in %s, got '%c'", what, *s);
		if (hi < 0) {
			hi = h;
			continue;
		}
		bytes_push(buf, (uint8_t)(hi << 4 | h));
		hi = -1;
	}
	if (hi >= 0)
		return bad(r, "odd number of hex digits in %s", what);
	return 0;
}

/* Ends an [image base=…] hex section: its bytes become a region. */
static int end_image_section(struct reader *r)
{
	char name[64], err[400];
	int rc;
	if (r->section != in_image_hex)
		return 0;
	r->section = in_none;
	snprintf(name, sizeof name, "[image base=0x%llx]", (unsigned long long)r->image_base);
	rc = tc_image_add_named(&r->v->image, r->image_base, r->image.p, r->image.len, name, err, sizeof err);
	free(r->image.p);
	memset(&r->image, 0, sizeof r->image);
	if (rc)
		return bad(r, "%s", err);
	return 0;
}

/* Value of `name=` in an [image …] header (malloc'd), or NULL if absent. */
static char *image_attr(const char *header, const char *name)
{
	char key[16], *value;
	const char *at;
	size_t n;
	snprintf(key, sizeof key, " %s=", name);
	at = strstr(header, key);
	if (!at)
		return NULL;
	at += strlen(key);
	n = strcspn(at, " ]");
	value = xrealloc(NULL, n + 1);
	memcpy(value, at, n);
	value[n] = '\0';
	return value;
}

/* An address: decimal or 0x hex, no sign, at most 64 bits. */
static int parse_address(const char *s, uint64_t *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	uint64_t v = 0;
	unsigned base = hex ? 16 : 10;
	if (!*digits)
		return -1;
	for (const char *d = digits; *d; d++) {
		int h = hexval((unsigned char)*d);
		if (h < 0 || (unsigned)h >= base || v > (UINT64_MAX - (uint64_t)h) / base)
			return -1;
		v = v * base + (uint64_t)h;
	}
	*out = v;
	return 0;
}

/* What a file that is not a regular file is, for messages. */
static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ?
	       "a character device" : S_ISBLK(m) ? "a block device" : "not a file";
}

/* Opens path to read it, without blocking in open() (a FIFO with no writer
 * would), and checks what it is: a regular file, or, strict 0, anything but
 * a FIFO or a socket (which can block a reader for ever; a folder is left
 * to the reader's "Is a directory"). Returns the descriptor, blocking again,
 * or -1 with err ("cannot open 'PATH': REASON", "cannot read 'PATH': not a
 * regular file (a FIFO)"). */
static int open_checked(const char *path, int strict, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
	} else if (strict ? !S_ISREG(st.st_mode) : S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "cannot read '%s': not a regular file (%s)", path, file_kind(st.st_mode));
	} else {
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	}
	close(fd);
	return -1;
}

/* The file name of an [image file=…] or [image elf=…] beside the vector (malloc'd). */
static char *beside(const struct reader *r, const char *file)
{
	size_t n = strlen(r->dir) + strlen(file) + 2;
	char *path = xrealloc(NULL, n);
	snprintf(path, n, "%s/%s", r->dir, file);
	return path;
}

uint32_t tc_vector_crc32(const uint8_t *p, size_t n)
{
	uint32_t table[256], crc = 0xFFFFFFFFu;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	for (size_t i = 0; i < n; i++)
		crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
	return crc ^ 0xFFFFFFFFu;
}

/* What an [image file=…] or [image elf=…] header says of its file. */
struct image_file {
	const char *name;         /* as the header gives it */
	int elf;
	uint64_t base;            /* file=: where it is loaded */
	int has_size, has_crc;
	uint64_t size;
	uint32_t crc;
};

/* The file read whole, checked against size= and crc32=, then loaded from
 * memory: the bytes checked are the bytes loaded. */
static int load_checked_file(struct reader *r, const struct image_file *f, const char *path)
{
	char err[1200];
	size_t len = 0;
	uint8_t *bytes = tc_image_read_file(path, &len);
	uint32_t crc;
	int rc;
	if (!bytes)
		return bad(r, "[image %s=%s]: cannot read '%s': %s", f->elf ? "elf" : "file", f->name, path, strerror(errno));
	if (f->has_size && len != f->size) {
		free(bytes);
		return bad(r, "[image %s=%s]: '%s' holds %zu bytes, the vector says size=%llu (cut short or not this "
			      "vector's file)", f->elf ? "elf" : "file", f->name, path, len, (unsigned long long)f->size);
	}
	crc = tc_vector_crc32(bytes, len);
	if (f->has_crc && crc != f->crc) {
		free(bytes);
		return bad(r, "[image %s=%s]: '%s' (%zu bytes) has crc32=0x%08x, the vector says crc32=0x%08x (not this "
			      "vector's file)", f->elf ? "elf" : "file", f->name, path, len, (unsigned)crc, (unsigned)f->crc);
	}
	if (f->elf)
		rc = tc_image_load_elf_mem(&r->v->image, bytes, len, err, sizeof err);
	else
		rc = tc_image_add_named(&r->v->image, f->base, bytes, len, path, err, sizeof err);
	free(bytes);
	return rc ? bad(r, "%s: %s", path, err) : 0;
}

/* Loads [image elf=NAME] or [image file=NAME base=ADDR]: mapped, or read
 * and checked when the header gives size= or crc32=. */
static int load_image_file(struct reader *r, const struct image_file *f)
{
	char err[1200];
	char *path = beside(r, f->name);
	int rc = 0, fd = open_checked(path, r->strict, err, sizeof err);
	if (fd < 0) {
		free(path);
		return bad(r, "[image]: %s", err);
	}
	close(fd);   /* the image reader opens it again by its name (for its messages) */
	if (f->has_size || f->has_crc)
		rc = load_checked_file(r, f, path);
	else if (f->elf)
		rc = tc_image_load_elf(&r->v->image, path, err, sizeof err) ? bad(r, "%s", err) : 0;
	else
		rc = tc_image_load_raw(&r->v->image, path, f->base, err, sizeof err) ? bad(r, "%s", err) : 0;
	free(path);
	if (rc == 0)
		r->section = in_none;
	return rc;
}

/* Every attribute of an [image …] header is one of base, file, elf, size
 * and crc32, given once, as NAME=VALUE with a value. */
static int check_image_attrs(struct reader *r, const char *header)
{
	static const char *const known[] = { "base", "file", "elf", "size", "crc32" };
	int seen[5] = { 0 };
	const char *p = header + strlen("[image");
	for (;;) {
		size_t n, eq;
		int k = 0;
		p += strspn(p, " ");
		if (*p == ']' || !*p)
			return 0;
		n = strcspn(p, " ]");
		eq = strcspn(p, "=");
		while (k < 5 && !(strlen(known[k]) == eq && !strncmp(p, known[k], eq)))
			k++;
		if (eq + 1 >= n || k == 5 || seen[k]++)
			return bad(r, "[image]: '%.*s' is not one of base=, file=, elf=, size=, crc32= (each once, with a "
				      "value)", (int)n, p);
		p += n;
	}
}

/* size=N and crc32=0xHHHHHHHH of a file=/elf= header into f. */
static int image_file_checks(struct reader *r, const char *size, const char *crc, struct image_file *f)
{
	uint64_t v = 0;
	if (size && parse_address(size, &f->size))
		return bad(r, "[image]: size '%s' is not a number (decimal or 0x hex, at most 64 bits)", size);
	if (crc && (parse_address(crc, &v) || v > 0xFFFFFFFFu || strncmp(crc, "0x", 2)))
		return bad(r, "[image]: crc32 '%s' is not 0x and at most 8 hex digits", crc);
	f->has_size = size != NULL;
	f->has_crc = crc != NULL;
	f->crc = (uint32_t)v;
	return 0;
}

/* [image base=ADDR] (hex follows), [image file=NAME base=ADDR] (raw binary)
 * or [image elf=NAME], file names relative to the vector's folder; a file
 * may carry size=N and crc32=0xHHHHHHHH, checked when it is read. */
static int start_image_section(struct reader *r, const char *header)
{
	char *base = image_attr(header, "base"), *elf = image_attr(header, "elf"), *file = image_attr(header, "file");
	char *size = image_attr(header, "size"), *crc = image_attr(header, "crc32");
	struct image_file f;
	uint64_t addr = 0;
	int rc = check_image_attrs(r, header);
	memset(&f, 0, sizeof f);
	r->v->has_image = 1;
	if (rc)
		;
	else if (base && parse_address(base, &addr))
		rc = bad(r, "[image]: base '%s' is not a number (decimal or 0x hex, at most 64 bits)", base);
	else if ((size || crc) && !elf && !file)
		rc = bad(r, "[image]: size= and crc32= belong to file=NAME or elf=NAME");
	else if (elf && (file || base))
		rc = bad(r, "[image elf=%s]: an ELF file says where it loads (no base= or file=)", elf);
	else if (elf || (file && base)) {
		f.name = elf ? elf : file;
		f.elf = elf != NULL;
		f.base = addr;
		rc = image_file_checks(r, size, crc, &f);
		if (rc == 0)
			rc = load_image_file(r, &f);
	} else if (file)
		rc = bad(r, "[image file=%s] needs base=ADDR", file);
	else if (base) {
		r->section = in_image_hex;
		r->image_base = addr;
	} else
		rc = bad(r, "[image] expects base=ADDR (hex follows), file=NAME base=ADDR, or elf=NAME");
	free(base);
	free(elf);
	free(file);
	free(size);
	free(crc);
	return rc;
}

/* protocol=NAME: one of the protocols of this build. */
static int set_protocol(struct reader *r, const char *name)
{
	const struct tc_protocol *p = tc_protocol_find(name);
	char list[200] = "";
	if (r->v->proto)
		return bad(r, "a second protocol= line");
	if (!p) {
		for (int i = 0; tc_protocols[i]; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", tc_protocols[i]->name);
		return bad(r, "unknown protocol '%s' (this build has: %s)", name, list);
	}
	r->v->proto = p;
	r->v->config = xrealloc(NULL, p->config_size);
	tc_config_default(p, r->v->config);
	tc_config_builder_init(&r->config, p);
	return 0;
}

static int config_entry(struct reader *r, char *buf)
{
	char err[300], *eq = strchr(buf, '=');
	if (!eq)
		return bad(r, "expected key=value in [config], got '%s'", buf);
	*eq = '\0';
	if (!strcmp(buf, "protocol"))
		return set_protocol(r, eq + 1);
	if (!r->v->proto)
		return bad(r, "[config] gives '%s' before protocol= (protocol= comes first: it decides the keys)", buf);
	if (tc_config_builder_set(&r->config, buf, eq + 1, err, sizeof err))
		return bad(r, "%s", err);
	return 0;
}

static int read_config_line(struct reader *r, const char *line)
{
	char *buf = normalised(line);
	int rc = buf[0] ? config_entry(r, buf) : 0;
	free(buf);
	return rc;
}

/* "[expect.l1 reading=ID]" / "[error reading=ID]": an alternative reading. */
static int start_alt_section(struct reader *r, const char *name, const char *attr)
{
	static const char *const secs[] = { "[expect.l1", "[expect.l3", "[error" };
	static const int sec_ids[] = { tc_sec_l1, tc_sec_l3, tc_sec_error };
	struct tc_alt *a;
	size_t n = strcspn(attr, "]");
	if (r->v->nalts == TC_MAX_ALTS)
		return bad(r, "more than %d alternative-reading sections", TC_MAX_ALTS);
	a = &r->v->alt[r->v->nalts];
	a->sec = -1;
	for (int i = 0; i < 3; i++)
		if (!strncmp(name, secs[i], strlen(secs[i])) && name[strlen(secs[i])] == ' ')
			a->sec = sec_ids[i];
	if (a->sec < 0 || n == 0 || n >= sizeof a->reading || attr[n] != ']' || attr[n + 1] != '\0')
		return bad(r, "expected [expect.l1 reading=ID], [expect.l3 reading=ID] or [error reading=ID], got '%s'", name);
	snprintf(a->reading, sizeof a->reading, "%.*s", (int)n, attr);
	for (int i = 0; i < r->v->nalts; i++)
		if (r->v->alt[i].sec == a->sec && !strcmp(r->v->alt[i].reading, a->reading))
			return bad(r, "section %s given twice", name);
	r->section = 100 + r->v->nalts++;
	return 0;
}

/* "[error strict=class|offset|resync]" */
static int start_error_strict(struct reader *r, const char *name, const char *attr)
{
	if (!strcmp(attr, "class]"))
		r->v->error_strict = tc_strict_class;
	else if (!strcmp(attr, "offset]"))
		r->v->error_strict = tc_strict_offset;
	else if (!strcmp(attr, "resync]"))
		r->v->error_strict = tc_strict_resync;
	else
		return bad(r, "expected [error strict=class|offset|resync], got '%s'", name);
	if (r->v->has[tc_sec_error])
		return bad(r, "section [error] given twice");
	r->v->has[tc_sec_error] = 1;
	r->section = tc_sec_error;
	return 0;
}

/* [config], [tags], [trace] and [end]: each once. */
static int start_plain_section(struct reader *r, const char *name)
{
	static const char *const names[3] = { "[config]", "[tags]", "[trace]" };
	static const int states[3] = { in_config, in_tags, in_trace };
	if (!strcmp(name, "[end]")) {
		r->section = in_after_end;
		return 0;
	}
	for (int i = 0; i < 3; i++) {
		if (strcmp(name, names[i]))
			continue;
		if (r->seen_line[i])
			return bad(r, "section %s given twice (first on line %d)", name, r->seen_line[i]);
		r->seen_line[i] = (int)r->lineno;
		r->section = states[i];
		return 0;
	}
	for (int i = 0; i < tc_sec_count; i++) {
		if (!strcmp(name, section_names[i])) {
			if (r->v->has[i])
				return bad(r, "section %s given twice", name);
			r->section = i;
			r->v->has[i] = 1;
			return 0;
		}
	}
	return bad(r, "unknown section '%s' (expected [config], [tags], [trace], [image …], [expect.l1], [expect.s1], "
		      "[expect.l2], [expect.l3], [error] or [end])", name);
}

static int start_named_section(struct reader *r, const char *name)
{
	const char *attr;
	if (!strncmp(name, "[image ", 7) || !strcmp(name, "[image]"))
		return start_image_section(r, name);
	if ((attr = strstr(name, " reading=")) != NULL)
		return start_alt_section(r, name, attr + 9);
	if (!strncmp(name, "[error strict=", 14))
		return start_error_strict(r, name, name + 14);
	return start_plain_section(r, name);
}

static int start_section(struct reader *r, const char *line)
{
	char *name;
	int rc;
	if (end_image_section(r))
		return -1;
	r->any_section = 1;
	name = normalised(line);
	rc = start_named_section(r, name);
	free(name);
	return rc;
}

/* A '#' line before the first section: a line of the description, without
 * the '#', one blank after it and the line break. */
static int add_description(struct reader *r, const char *text)
{
	size_t have = r->comment_len;
	size_t n;
	if (*text == ' ')
		text++;
	n = strlen(text);
	while (n > 0 && isspace((unsigned char)text[n - 1]))
		n--;
	r->v->comment = xrealloc(r->v->comment, have + n + 2);
	if (have)
		r->v->comment[have++] = '\n';
	memcpy(r->v->comment + have, text, n);
	r->v->comment[have + n] = '\0';
	r->comment_len = have + n;
	return 0;
}

/* [tags]: the words of every line, joined by one blank. */
static int add_tags(struct reader *r, const char *line)
{
	char *buf = normalised(line);
	size_t n = strlen(r->v->tags), add = strlen(buf);
	int rc = 0;
	if (add > 0 && n + (n ? 1 : 0) + add >= sizeof r->v->tags)
		rc = bad(r, "[tags] longer than %zu characters", sizeof r->v->tags - 1);
	else if (add > 0) {
		if (n)
			r->v->tags[n++] = ' ';
		memcpy(r->v->tags + n, buf, add + 1);
	}
	free(buf);
	return rc;
}

static int read_line(struct reader *r, const char *line)
{
	const char *s = line;
	while (isspace((unsigned char)*s))
		s++;
	if (r->section == in_after_end)
		return bad(r, "text after [end] ([end] is the last line of a vector)");
	if (*s == '[')
		return start_section(r, s);
	if (r->section == in_config)
		return read_config_line(r, line);
	if (r->section == in_trace)
		return read_hex_line(r, line, &r->trace, "[trace]");
	if (r->section == in_image_hex)
		return read_hex_line(r, line, &r->image, "[image]");
	if (r->section == in_tags)
		return add_tags(r, s);
	if (r->section >= 100) {
		tc_lines_add_text(&r->v->alt[r->section - 100].lines, line);
		return 0;
	}
	if (r->section >= 0) {
		tc_lines_add_text(&r->v->expect[r->section], line);
		return 0;
	}
	if (*s == '#' && r->section == in_none && !r->any_section)
		return add_description(r, s + 1);
	if (*s == '#' || *s == '\0')
		return 0;
	return bad(r, "text outside any section");
}

/* Every key given, directly or by a register (no implicit defaults); then the configuration. */
static int check_config(struct reader *r)
{
	const struct tc_protocol *p = r->v->proto;
	uint32_t covered = tc_config_builder_covered(&r->config);
	char err[300];
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		int needed = key->need == tc_key_required || (key->need == tc_key_required_l3 && r->v->has[tc_sec_l3]);
		if (needed && !((covered >> k) & 1) && !strncmp(key->source, "none", 4))
			return bad(r, "[config] does not give '%s'%s (every key must be given; no register derives it)",
				   key->name, key->need == tc_key_required_l3 ? ", needed with [expect.l3]" : "");
		if (needed && !((covered >> k) & 1))
			return bad(r, "[config] does not give '%s'%s (every key must be given, directly or by %s)",
				   key->name, key->need == tc_key_required_l3 ? ", needed with [expect.l3]" : "",
				   key->source);
	}
	if (tc_config_builder_apply(&r->config, r->v->config, NULL, err, sizeof err))
		return bad(r, "[config]: %s", err);
	return 0;
}

static int check_complete(struct reader *r)
{
	int any = 0;
	if (r->section != in_after_end)
		return bad(r, "no [end] line: the file is cut short (every vector ends with the line [end])");
	if (!r->v->proto)
		return bad(r, "[config] has no protocol= line");
	if (check_config(r))
		return -1;
	if (r->v->image.n > TC_IMAGE_MAX_REGIONS)
		return bad(r, "the [image] sections give %d regions; a vector may give at most %d", r->v->image.n,
			   TC_IMAGE_MAX_REGIONS);
	if (r->v->has[tc_sec_l3]) {
		if (!r->v->has_image)
			return bad(r, "[expect.l3] needs an [image …] section");
	}
	if (r->v->trace_len == 0)
		return bad(r, "no [trace] bytes");
	for (int i = 0; i < tc_sec_count; i++)
		any |= r->v->has[i];
	if (!any)
		return bad(r, "no expect or [error] section");
	return 0;
}

/* The folder of path (malloc'd): "." when it names none. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;
	char *dir = xrealloc(NULL, n + 1);
	memcpy(dir, slash ? (n ? path : "/") : ".", n ? n : 1);
	dir[n ? n : 1] = '\0';
	return dir;
}

static int read_vector(FILE *f, const char *dir, int strict, struct tc_vector *v, char *err, size_t errlen);

/* tc_vector_load and tc_vector_load_strict. */
static int load_file(const char *path, int strict, struct tc_vector *v, char *err, size_t errlen)
{
	struct stat st;
	char *dir;
	FILE *f;
	int rc, fd = open_checked(path, strict, err, errlen);
	memset(v, 0, sizeof *v);
	if (fd < 0)
		return -1;
	if (!(f = fdopen(fd, "rb"))) {
		snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(EISDIR));
		fclose(f);
		return -1;
	}
	dir = folder_of(path);
	rc = read_vector(f, dir, strict, v, err, errlen);
	free(dir);
	fclose(f);
	return rc;
}

int tc_vector_load(const char *path, struct tc_vector *v, char *err, size_t errlen)
{
	return load_file(path, 0, v, err, errlen);
}

int tc_vector_load_strict(const char *path, struct tc_vector *v, char *err, size_t errlen)
{
	return load_file(path, 1, v, err, errlen);
}

int tc_text_read(FILE *f, size_t max, const char *what, char **text, size_t *len, char *err, size_t errlen)
{
	size_t cap = 4096, n = 0, got;
	char *buf = xrealloc(NULL, cap);
	do {
		if (cap - n < 2) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got > 0 && n <= max);
	buf[n] = '\0';
	if (ferror(f))
		snprintf(err, errlen, "cannot read: %s", strerror(errno));
	else if (n > max)
		snprintf(err, errlen, "byte %lu: the file is longer than %lu bytes, the limit of %s", (unsigned long)max,
			 (unsigned long)max, what);
	if (ferror(f) || n > max) {
		free(buf);
		return -1;
	}
	*text = buf;
	*len = n;
	return 0;
}

char *tc_text_line(char **at, char *end)
{
	char *line = *at, *eol;
	size_t n;
	if (line >= end)
		return NULL;
	eol = memchr(line, '\n', (size_t)(end - line));
	n = eol ? (size_t)(eol - line) : (size_t)(end - line);
	*at = line + n + (eol != NULL);
	line[n] = '\0';
	if (n > 0 && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return line;
}

/* Line one: exactly `tracecert-vector 1`. */
static int check_version(struct reader *r, const char *line)
{
	static const char magic[] = "tracecert-vector ";
	if (!strcmp(line, "tracecert-vector 1"))
		return 0;
	if (!strncmp(line, magic, strlen(magic)))
		return bad(r, "'%.40s': this reader reads version 1 only (line one is exactly 'tracecert-vector 1')", line);
	return bad(r, "expected 'tracecert-vector 1' on line one (not a vector file)");
}

/* Reads each line of text (len bytes): NUL bytes refused, CR LF read as LF,
 * the last line ended by a line break. */
static int read_lines(struct reader *r, char *text, size_t len)
{
	size_t i = 0;
	int rc = 0;
	while (rc == 0 && i < len) {
		char *eol = memchr(text + i, '\n', len - i);
		size_t n = eol ? (size_t)(eol - (text + i)) : len - i;
		char *nul = memchr(text + i, '\0', n);
		r->lineno++;
		if (nul)
			return bad(r, "a NUL byte (byte offset %zu): a vector file is text", (size_t)(nul - text));
		if (!eol)
			return bad(r, "the last line has no line break: the file is cut short");
		text[i + n] = '\0';
		if (n > 0 && text[i + n - 1] == '\r')
			text[i + n - 1] = '\0';
		rc = r->lineno == 1 ? check_version(r, text + i) : read_line(r, text + i);
		i += n + 1;
	}
	if (rc == 0 && r->lineno == 0) {   /* no line to name: the caller names the file */
		snprintf(r->err, r->errlen, "empty file: expected 'tracecert-vector 1' on line one");
		rc = -1;
	}
	return rc;
}

int tc_vector_read(FILE *f, const char *dir, struct tc_vector *v, char *err, size_t errlen)
{
	return read_vector(f, dir, 0, v, err, errlen);
}

static int read_vector(FILE *f, const char *dir, int strict, struct tc_vector *v, char *err, size_t errlen)
{
	struct reader r;
	char *text = NULL;
	size_t len = 0;
	int rc;
	memset(v, 0, sizeof *v);
	memset(&r, 0, sizeof r);
	r.v = v;
	r.section = in_none;
	r.err = err;
	r.errlen = errlen;
	r.dir = dir;
	r.strict = strict;
	rc = tc_text_read(f, TC_VECTOR_MAX_BYTES, "a vector file", &text, &len, err, errlen);
	if (rc == 0)
		rc = read_lines(&r, text, len);
	free(text);
	v->trace = r.trace.p;
	v->trace_len = r.trace.len;
	if (rc == 0)
		rc = end_image_section(&r);
	free(r.image.p);
	if (rc == 0)
		rc = check_complete(&r);
	if (rc)
		tc_vector_free(v);
	return rc;
}

void tc_vector_free(struct tc_vector *v)
{
	free(v->comment);
	free(v->trace);
	free(v->config);
	tc_image_free(&v->image);
	for (int i = 0; i < tc_sec_count; i++)
		tc_lines_free(&v->expect[i]);
	for (int i = 0; i < v->nalts; i++)
		tc_lines_free(&v->alt[i].lines);
	memset(v, 0, sizeof *v);
}

/* ---- Listing vector files ------------------------------------------------------ */

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A walk of one path: the folders it is inside (to find a loop), the list it adds to. */
struct walk {
	char ***list;
	size_t *n;
	struct stat *inside;      /* the folders from the path down to the one read now */
	const char **inside_path; /* and their names */
	int depth;
	char *err;
	size_t errlen;
	int failed;
};

static int walk_error(struct walk *w, const char *fmt, ...)
{
	va_list ap;
	if (!w->failed) {
		va_start(ap, fmt);
		vsnprintf(w->err, w->errlen, fmt, ap);
		va_end(ap);
	}
	w->failed = 1;
	return -1;
}

static void walk_add(struct walk *w, const char *path)
{
	*w->list = xrealloc(*w->list, (*w->n + 1) * sizeof **w->list);
	(*w->list)[(*w->n)++] = xstrdup(path);
}

static int walk_path(struct walk *w, const char *path);

/* The entries of the folder at path (st: its status), depth first. */
static int walk_folder(struct walk *w, const char *path, const struct stat *st)
{
	DIR *dir;
	struct dirent *de;
	for (int i = 0; i < w->depth; i++)
		if (w->inside[i].st_dev == st->st_dev && w->inside[i].st_ino == st->st_ino)
			return walk_error(w, "'%s' leads back to '%s', a folder it is inside (a symbolic link loop)",
					  path, w->inside_path[i]);
	if (!(dir = opendir(path)))
		return walk_error(w, "cannot read '%s': %s", path, strerror(errno));
	w->inside = xrealloc(w->inside, (size_t)(w->depth + 1) * sizeof *w->inside);
	w->inside_path = xrealloc(w->inside_path, (size_t)(w->depth + 1) * sizeof *w->inside_path);
	w->inside_path[w->depth] = path;
	w->inside[w->depth++] = *st;
	for (errno = 0; !w->failed && (de = readdir(dir)) != NULL; errno = 0) {
		size_t len = strlen(path) + strlen(de->d_name) + 2;
		char *sub;
		if (de->d_name[0] == '.')
			continue;
		sub = xrealloc(NULL, len);
		snprintf(sub, len, "%s/%s", path, de->d_name);
		walk_path(w, sub);
		free(sub);
	}
	if (!w->failed && errno)
		walk_error(w, "cannot read '%s': %s", path, strerror(errno));
	w->depth--;
	closedir(dir);
	return w->failed ? -1 : 0;
}

/* A file given is listed whatever its name; inside a folder, the .tcv files
 * and the folders, whatever their names (a folder named x.tcv is walked
 * into), symbolic links followed. A vector is a regular file: a FIFO, a
 * socket or a device given or named *.tcv is an error naming it (reading a
 * FIFO would wait for a writer for ever). */
static int walk_path(struct walk *w, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return walk_error(w, "cannot read '%s': %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return walk_folder(w, path, &st);
	if (w->depth > 0 && !has_suffix(path, ".tcv"))
		return 0;
	if (!S_ISREG(st.st_mode))
		return walk_error(w, "'%s' is not a regular file (%s): a vector file is a regular file", path,
				  file_kind(st.st_mode));
	walk_add(w, path);
	return 0;
}

/* One file of a list, for finding the same file listed twice. */
struct file_id {
	dev_t dev;
	ino_t ino;
	size_t index;
};

static int cmp_file_id(const void *a, const void *b)
{
	const struct file_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* An error when two entries of list are the same file. */
static int check_distinct(char **list, size_t n, char *err, size_t errlen)
{
	struct file_id *id = xrealloc(NULL, (n ? n : 1) * sizeof *id);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct stat st;
		if (stat(list[i], &st) != 0) {
			snprintf(err, errlen, "cannot read '%s': %s", list[i], strerror(errno));
			rc = -1;
		} else {
			id[i] = (struct file_id){ st.st_dev, st.st_ino, i };
		}
	}
	if (rc == 0)
		qsort(id, n, sizeof *id, cmp_file_id);
	for (size_t i = 1; i < n && rc == 0; i++) {
		const char *a = list[id[i - 1].index], *b = list[id[i].index];
		if (id[i].dev != id[i - 1].dev || id[i].ino != id[i - 1].ino)
			continue;
		if (!strcmp(a, b))
			snprintf(err, errlen, "'%s' is listed twice (each vector counts once: give each file or folder "
				 "once, and no folder inside another)", a);
		else
			snprintf(err, errlen, "'%s' and '%s' are the same file (each vector counts once: give each file "
				 "or folder once, and no folder inside another)", a, b);
		rc = -1;
	}
	free(id);
	return rc;
}

size_t tc_vector_list(const char *path, char ***list, size_t *n, char *err, size_t errlen)
{
	struct walk w = { list, n, NULL, NULL, 0, err, errlen, 0 };
	size_t before = *n;
	walk_path(&w, path);
	free(w.inside);
	free(w.inside_path);
	if (w.failed)
		return 0;
	if (*n == before) {
		snprintf(err, errlen, "no vector files (*.tcv) at '%s'", path);
		return 0;
	}
	qsort(*list + before, *n - before, sizeof **list, cmp_str);
	return check_distinct(*list, *n, err, errlen) ? 0 : *n - before;
}

/* ---- Collecting the reference decoder's output ------------------------------ */

static int level_section(int level)
{
	switch (level) {
	case tc_level_l1: return tc_sec_l1;
	case tc_level_s1: return tc_sec_s1;
	case tc_level_l2: return tc_sec_l2;
	default: return tc_sec_l3;
	}
}

struct collector {
	const struct tc_protocol *proto;
	struct tc_output *out;
};

static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct collector *c = ctx;
	char buf[512];
	int error;
	if (level == tc_level_l3)
		tc_l3_format(buf, sizeof buf, (const struct tc_l3 *)item, c->proto->error_names, c->proto->nerrors);
	else
		c->proto->format(buf, sizeof buf, level, item);
	tc_lines_add(&c->out->level[level_section(level)], buf);
	error = level == tc_level_l1 ? c->proto->item_error(level, item) : 0;
	if (error > 0 && error < c->proto->nerrors) {
		snprintf(buf, sizeof buf, "%s %llu", c->proto->error_names[error], (unsigned long long)item->offset);
		tc_lines_add(&c->out->level[tc_sec_error], buf);
	}
}

int tc_collect(const struct tc_protocol *proto, const void *cfg, const struct tc_image *image,
	       const uint8_t *trace, size_t len, long chunk, struct tc_output *out)
{
	struct collector c = { proto, out };
	struct tc_sink sink = { &c, tc_level_l1 | tc_level_s1 | tc_level_l2 | tc_level_l3, on_item };
	void *d;
	uint32_t seed = chunk < 0 ? (uint32_t)-chunk : 1;
	size_t i = 0;
	memset(out, 0, sizeof *out);
	d = proto->alloc(cfg, &sink);
	if (!d)
		return -1;
	proto->set_image(d, image);
	while (i < len) {
		size_t n = len - i;
		if (chunk > 0 && (size_t)chunk < n)
			n = (size_t)chunk;
		if (chunk < 0) {
			seed = seed * 1103515245u + 12345u;
			if ((seed >> 16) % 40 + 1 < n)
				n = (seed >> 16) % 40 + 1;
		}
		proto->feed(d, trace + i, n);
		i += n;
	}
	proto->finish(d);
	proto->free(d);
	return 0;
}

void tc_output_free(struct tc_output *out)
{
	for (int i = 0; i < tc_sec_count; i++)
		tc_lines_free(&out->level[i]);
}
