/* ptm_vectest.c — runs vectors/ptm .tcv files through the PTM reference decoder (whole, 1-byte, random chunks); prints TAP. */
/* A small local reader, to be replaced by the shared protocol-neutral one:
 * sections [config], [tags], [trace], [image base=ADDR], [expect.l1],
 * [expect.l3], [error] (vectors/README.md). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tracecert/image.h"
#include "tracecert/ptm.h"

#define MAX_TEXT 65536

/* Lines of one level, normalised: comments dropped, blanks collapsed. */
struct lines {
	char text[MAX_TEXT];
	size_t len;
	int present;
};

struct vector {
	struct tc_ptm_config cfg;
	int keys_seen;                 /* bit i: tc_ptm_config_keys[i] given */
	int protocol_ok;
	uint8_t *trace;
	size_t ntrace;
	struct tc_image image;
	struct lines l1, l3, err;
	char problem[256];
};

static void add_line(struct lines *l, const char *s)
{
	size_t n = strlen(s);
	if (l->len + n + 2 > sizeof l->text)
		return;
	memcpy(l->text + l->len, s, n);
	l->len += n;
	l->text[l->len++] = '\n';
	l->text[l->len] = '\0';
}

/* Drops a comment, trims, collapses runs of blanks. */
static void normalise(const char *in, char *out, size_t size)
{
	size_t o = 0;
	int blank = 0;
	for (; *in && *in != '#' && *in != '\n' && *in != '\r'; in++) {
		if (*in == ' ' || *in == '\t') {
			blank = o > 0;
			continue;
		}
		if (blank && o + 1 < size)
			out[o++] = ' ';
		blank = 0;
		if (o + 1 < size)
			out[o++] = *in;
	}
	out[o] = '\0';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex bytes of one line into *buf. Returns -1 on a stray character. */
static int add_hex(const char *s, uint8_t **buf, size_t *n)
{
	int hi = -1;
	for (; *s && *s != '#'; s++) {
		int v = hexval((unsigned char)*s);
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			continue;
		if (v < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		*buf = realloc(*buf, *n + 1);
		if (!*buf)
			return -1;
		(*buf)[(*n)++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 ? 0 : -1;
}

static void config_line(struct vector *v, const char *s)
{
	char key[64];
	const char *eq = strchr(s, '=');
	if (!eq || (size_t)(eq - s) >= sizeof key) {
		snprintf(v->problem, sizeof v->problem, "bad [config] line '%.160s'", s);
		return;
	}
	memcpy(key, s, (size_t)(eq - s));
	key[eq - s] = '\0';
	if (!strcmp(key, "protocol")) {
		v->protocol_ok = !strcmp(eq + 1, "ptm");
		return;
	}
	for (int i = 0; tc_ptm_config_keys[i]; i++)
		if (!strcmp(key, tc_ptm_config_keys[i]))
			v->keys_seen |= 1 << i;
	if (tc_ptm_config_set(&v->cfg, key, eq + 1))
		snprintf(v->problem, sizeof v->problem, "bad config key or value '%.160s'", s);
}

enum section { sec_none, sec_config, sec_tags, sec_trace, sec_image, sec_l1, sec_l3, sec_error, sec_other };

/* One image section's bytes, added when the next section starts. */
struct pending_image {
	uint8_t *bytes;
	size_t n;
	uint64_t base;
	int open;
};

static void flush_image(struct vector *v, struct pending_image *im)
{
	if (im->open && im->n > 0 && tc_image_add(&v->image, im->base, im->bytes, im->n) != tc_image_ok)
		snprintf(v->problem, sizeof v->problem, "bad image at 0x%llx", (unsigned long long)im->base);
	free(im->bytes);
	memset(im, 0, sizeof *im);
}

static enum section section_of(struct vector *v, const char *s, struct pending_image *im)
{
	flush_image(v, im);
	if (!strcmp(s, "[config]"))
		return sec_config;
	if (!strcmp(s, "[tags]"))
		return sec_tags;
	if (!strcmp(s, "[trace]"))
		return sec_trace;
	if (!strncmp(s, "[image base=", 12)) {
		im->base = strtoull(s + 12, NULL, 0);
		im->open = 1;
		return sec_image;
	}
	if (!strcmp(s, "[expect.l1]")) {
		v->l1.present = 1;
		return sec_l1;
	}
	if (!strcmp(s, "[expect.l3]")) {
		v->l3.present = 1;
		return sec_l3;
	}
	if (!strcmp(s, "[error]")) {
		v->err.present = 1;
		return sec_error;
	}
	snprintf(v->problem, sizeof v->problem, "unknown section %.160s", s);
	return sec_other;
}

static void body_line(struct vector *v, enum section sec, const char *raw, const char *s, struct pending_image *im)
{
	switch (sec) {
	case sec_config: config_line(v, s); break;
	case sec_trace:
		if (add_hex(raw, &v->trace, &v->ntrace))
			snprintf(v->problem, sizeof v->problem, "bad hex in [trace]: %.160s", s);
		break;
	case sec_image:
		if (add_hex(raw, &im->bytes, &im->n))
			snprintf(v->problem, sizeof v->problem, "bad hex in [image]: %.160s", s);
		break;
	case sec_l1: add_line(&v->l1, s); break;
	case sec_l3: add_line(&v->l3, s); break;
	case sec_error: add_line(&v->err, s); break;
	default: break;
	}
}

static int read_vector(const char *path, struct vector *v)
{
	FILE *f = fopen(path, "r");
	char raw[1024], s[1024];
	enum section sec = sec_none;
	struct pending_image im;
	int first = 1;
	memset(&im, 0, sizeof im);
	tc_ptm_config_default(&v->cfg);
	if (!f) {
		snprintf(v->problem, sizeof v->problem, "cannot open");
		return -1;
	}
	while (fgets(raw, sizeof raw, f)) {
		normalise(raw, s, sizeof s);
		if (first) {
			if (strcmp(s, "tracecert-vector 1"))
				snprintf(v->problem, sizeof v->problem, "line one is not 'tracecert-vector 1'");
			first = 0;
			continue;
		}
		if (!s[0])
			continue;
		if (s[0] == '[')
			sec = section_of(v, s, &im);
		else
			body_line(v, sec, raw, s, &im);
	}
	flush_image(v, &im);
	fclose(f);
	if (!v->problem[0] && !v->protocol_ok)
		snprintf(v->problem, sizeof v->problem, "[config] has no protocol=ptm");
	for (int i = 0; !v->problem[0] && tc_ptm_config_keys[i]; i++)
		if (!(v->keys_seen & (1 << i)))
			snprintf(v->problem, sizeof v->problem, "[config] lacks %.160s", tc_ptm_config_keys[i]);
	if (!v->problem[0] && v->l3.present && v->image.n == 0)
		snprintf(v->problem, sizeof v->problem, "[expect.l3] without an [image]");
	return v->problem[0] ? -1 : 0;
}

/* ---- Running the decoder --------------------------------------------------- */

struct output {
	struct lines l1, l3, err;
};

static void on_packet(void *ctx, const struct tc_ptm_packet *p)
{
	struct output *o = ctx;
	char buf[256], line[256];
	tc_ptm_format_packet(buf, sizeof buf, p);
	normalise(buf, line, sizeof line);
	add_line(&o->l1, line);
	if (p->h.kind == tc_ptm_pkt_error) {
		snprintf(line, sizeof line, "%s %llu", tc_ptm_error_name(p->error), (unsigned long long)p->h.offset);
		add_line(&o->err, line);
	}
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct output *o = ctx;
	char buf[256], line[256];
	tc_ptm_format_l3(buf, sizeof buf, x);
	normalise(buf, line, sizeof line);
	add_line(&o->l3, line);
}

/* mode 0: whole; 1: one byte at a time; 2: pseudo-random chunks. */
static int run(const struct vector *v, int mode, struct output *o)
{
	struct tc_ptm_sink sink = { o, on_packet, v->l3.present ? on_l3 : NULL };
	struct tc_ptm_decoder *d = tc_ptm_alloc(&v->cfg, &sink);
	uint32_t seed = 12345u + (uint32_t)v->ntrace;
	size_t at = 0;
	memset(o, 0, sizeof *o);
	if (!d)
		return -1;
	tc_ptm_set_image(d, v->image.n ? &v->image : NULL);
	while (at < v->ntrace) {
		size_t n = v->ntrace - at;
		if (mode == 1)
			n = 1;
		else if (mode == 2) {
			seed = seed * 1103515245u + 12345u;
			n = 1 + (seed >> 16) % 7;
			if (n > v->ntrace - at)
				n = v->ntrace - at;
		}
		tc_ptm_feed(d, v->trace + at, n);
		at += n;
	}
	tc_ptm_finish(d);
	tc_ptm_free(d);
	return 0;
}

static int test_num;
static int failures;

static void first_difference(const char *what, const char *want, const char *got)
{
	int line = 1;
	const char *w0 = want;
	while (*want && *want == *got) {
		if (*want == '\n')
			line++;
		want++;
		got++;
	}
	while (want > w0 && want[-1] != '\n') {   /* back to the start of the line */
		want--;
		got--;
	}
	printf("  # %s differs at line %d\n  # expected: %.*s\n  # got:      %.*s\n", what, line,
	       (int)strcspn(want, "\n"), want, (int)strcspn(got, "\n"), got);
}

static int same(const char *what, const struct lines *want, const struct lines *got)
{
	if (!strcmp(want->text, got->text))
		return 1;
	first_difference(what, want->text, got->text);
	return 0;
}

static void check_vector(const char *path)
{
	struct vector *v = calloc(1, sizeof *v);
	struct output *o = calloc(3, sizeof *o);
	static const char *const modes[3] = { "whole", "1-byte", "random chunks" };
	int good;
	if (!v || !o) {
		printf("not ok %d - %s: out of memory\n", ++test_num, path);
		free(v);
		free(o);
		return;
	}
	if (read_vector(path, v)) {
		printf("not ok %d - %s: %s\n", ++test_num, path, v->problem);
		failures++;
	} else {
		for (int m = 0; m < 3; m++) {
			good = run(v, m, &o[m]) == 0;
			if (good && v->l1.present)
				good = same("L1", &v->l1, &o[m].l1);
			if (good && v->l3.present)
				good = same("L3", &v->l3, &o[m].l3);
			if (good)
				good = same("errors", &v->err, &o[m].err);
			if (!good)
				failures++;
			printf("%s %d - %s (%s)\n", good ? "ok" : "not ok", ++test_num, path, modes[m]);
		}
	}
	tc_image_free(&v->image);
	free(v->trace);
	free(v);
	free(o);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const char *path, char ***list, size_t *n)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	if (stat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		size_t len = strlen(path);
		if (len > 4 && !strcmp(path + len - 4, ".tcv")) {
			*list = realloc(*list, (*n + 1) * sizeof **list);
			(*list)[(*n)++] = strdup(path);
		}
		return;
	}
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) != NULL) {
		char sub[4096];
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
		collect(sub, list, n);
	}
	closedir(dir);
}

int main(int argc, char **argv)
{
	char **list = NULL;
	size_t n = 0;
	for (int i = 1; i < argc; i++)
		collect(argv[i], &list, &n);
	if (list)
		qsort(list, n, sizeof *list, cmp_str);
	printf("TAP version 13\n");
	for (size_t i = 0; i < n; i++) {
		check_vector(list[i]);
		free(list[i]);
	}
	free(list);
	if (n == 0) {
		printf("not ok %d - no vectors found\n", ++test_num);
		failures++;
	}
	printf("1..%d\n", test_num);
	return failures > 0;
}
