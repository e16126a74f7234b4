/* SPDX-License-Identifier: BSD-3-Clause */
/* vecwrite.c — the one writer of vector files (vectors/README.md): parts in order, whole vectors, generated vectors. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "vector.h"

/* What was written last (struct tc_vwriter.state). */
enum {
	part_none,          /* nothing: tc_vwrite_begin comes first */
	part_begin,         /* line one and perhaps the description */
	part_section,       /* any section after which text may not follow */
	part_packets,       /* an annotated [trace]: more packets may follow */
	part_image_lines,   /* an annotated [image …]: more lines may continue it */
	part_lines          /* an expect or error section: lines may follow */
};

/* ---- Text --------------------------------------------------------------------- */

static int failed(const struct tc_vwriter *w)
{
	return w->err[0] != '\0';
}

/* Keeps the first misuse. */
static void misuse(struct tc_vwriter *w, const char *fmt, ...)
{
	va_list ap;
	if (failed(w))
		return;
	va_start(ap, fmt);
	vsnprintf(w->err, sizeof w->err, fmt, ap);
	va_end(ap);
}

static void put(struct tc_vwriter *w, const char *s, size_t n)
{
	if (failed(w))
		return;
	if (w->cap - w->len <= n) {
		size_t cap = w->cap ? w->cap : 4096;
		char *p;
		while (cap - w->len <= n)
			cap *= 2;
		p = realloc(w->text, cap);
		if (!p) {
			misuse(w, "out of memory");
			return;
		}
		w->text = p;
		w->cap = cap;
	}
	memcpy(w->text + w->len, s, n);
	w->len += n;
	w->text[w->len] = '\0';
}

static void put_str(struct tc_vwriter *w, const char *s)
{
	put(w, s, strlen(s));
}

static void put_fmt(struct tc_vwriter *w, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof buf)
		misuse(w, "internal: a formatted part longer than %zu characters", sizeof buf - 1);
	else
		put(w, buf, (size_t)n);
}

/* Hex bytes, 32 to a line, lower case. */
static void put_hex_block(struct tc_vwriter *w, const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		char b[3] = { digits[p[i] >> 4], digits[p[i] & 15], (i % 32 == 31 || i + 1 == n) ? '\n' : ' ' };
		put(w, b, 3);
	}
}

/* Whether a part may come now; a misuse otherwise. */
static int may_write(struct tc_vwriter *w, const char *what)
{
	if (failed(w))
		return 0;
	if (w->state == part_none) {
		misuse(w, "%s before line one (tc_vwrite_begin)", what);
		return 0;
	}
	return 1;
}

/* Whether text has no line break; a misuse otherwise. */
static int one_line(struct tc_vwriter *w, const char *text, const char *what)
{
	if (text && strpbrk(text, "\r\n")) {
		misuse(w, "%s holds a line break: '%s'", what, text);
		return 0;
	}
	return 1;
}

/* ---- Parts -------------------------------------------------------------------- */

void tc_vwrite_begin(struct tc_vwriter *w)
{
	memset(w, 0, sizeof *w);
	put_str(w, "tracecert-vector 1\n");
	w->state = part_begin;
}

void tc_vwrite_comment(struct tc_vwriter *w, const char *text)
{
	if (!may_write(w, "a comment") || !text)
		return;
	if (w->state != part_begin) {
		misuse(w, "a comment after the first section (only the description, before it, is kept)");
		return;
	}
	while (*text) {
		size_t n = strcspn(text, "\n");
		put_str(w, n ? "# " : "#");
		put(w, text, n);
		put_str(w, "\n");
		text += n + (text[n] == '\n');
	}
}

/* Whether key k of p goes into [config] (tc_vwrite_config). */
static int key_written(const struct tc_protocol *p, int k, uint64_t value, int with_l3)
{
	const struct tc_config_key *key = &p->keys[k];
	if (key->need == tc_key_required)
		return 1;
	if (key->need == tc_key_required_l3 && with_l3)
		return 1;
	return value != key->def;
}

void tc_vwrite_config(struct tc_vwriter *w, const struct tc_protocol *p, const void *cfg, int with_l3)
{
	char why[200];
	if (!may_write(w, "[config]"))
		return;
	if (!p || !cfg) {
		misuse(w, "[config] without a protocol or a configuration");
		return;
	}
	if (p->config_check(cfg, why, sizeof why)) {
		misuse(w, "[config]: a configuration protocol %s refuses: %s", p->name, why);
		return;
	}
	put_fmt(w, "[config]\nprotocol=%s\n", p->name);
	for (int k = 0; k < p->nkeys; k++) {
		uint64_t value = tc_config_get(p, cfg, k);
		if (key_written(p, k, value, with_l3))
			put_fmt(w, "%s=%llu\n", p->keys[k].name, (unsigned long long)value);
	}
	w->state = part_section;
}

void tc_vwrite_tags(struct tc_vwriter *w, const char *tags)
{
	const char *s = tags ? tags + strspn(tags, " \t") : "";
	if (!may_write(w, "[tags]") || !one_line(w, tags, "[tags]"))
		return;
	if (strchr(s, '#') || *s == '[') {
		misuse(w, "[tags] would not read back: '%s' (no '#', no '[' first)", s);
		return;
	}
	put_str(w, "[tags]\n");
	put_str(w, s);
	put_str(w, "\n");
	w->state = part_section;
}

void tc_vwrite_trace(struct tc_vwriter *w, const uint8_t *bytes, size_t n)
{
	if (!may_write(w, "[trace]"))
		return;
	if (n == 0 || !bytes) {
		misuse(w, "[trace] without bytes");
		return;
	}
	put_str(w, "[trace]\n");
	put_hex_block(w, bytes, n);
	w->state = part_section;
}

/* n bytes (1 to 64) in upper-case hex, then, with a note, blanks to column 38
 * and "# note"; the line's end. */
static void put_annotated(struct tc_vwriter *w, const uint8_t *bytes, size_t n, const char *note)
{
	static const char digits[] = "0123456789ABCDEF";
	char hex[3 * 64] = "";
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		hex[len++] = digits[bytes[i] >> 4];
		hex[len++] = digits[bytes[i] & 15];
		hex[len++] = i + 1 < n ? ' ' : '\0';
	}
	put(w, hex, len - 1);
	if (note) {
		for (size_t col = len - 1; col < 37; col++)
			put_str(w, " ");
		put_str(w, " # ");
		put_str(w, note);
	}
	put_str(w, "\n");
}

void tc_vwrite_trace_packet(struct tc_vwriter *w, const uint8_t *bytes, size_t n, const char *note)
{
	if (!may_write(w, "a [trace] packet") || !one_line(w, note, "a packet's note"))
		return;
	if (n == 0 || !bytes || n > 64) {
		misuse(w, "a [trace] packet of %zu bytes (1 to 64)", n);
		return;
	}
	if (w->state != part_packets)
		put_str(w, "[trace]\n");
	put_annotated(w, bytes, n, note);
	w->state = part_packets;
}

void tc_vwrite_image_line(struct tc_vwriter *w, uint64_t address, const uint8_t *bytes, size_t n, const char *note)
{
	if (!may_write(w, "an [image] line") || !one_line(w, note, "an image line's note"))
		return;
	if (n == 0 || !bytes || n > 64 || address + n - 1 < address) {
		misuse(w, "an [image] line of %zu bytes at 0x%llx (1 to 64, below 2^64)", n, (unsigned long long)address);
		return;
	}
	if (w->state != part_image_lines || address != w->image_next)
		put_fmt(w, "[image base=0x%llx]\n", (unsigned long long)address);
	put_annotated(w, bytes, n, note);
	w->image_next = address + n;
	w->state = part_image_lines;
}

void tc_vwrite_image(struct tc_vwriter *w, uint64_t base, const uint8_t *bytes, size_t n)
{
	if (!may_write(w, "[image]"))
		return;
	if (n == 0 || !bytes) {
		misuse(w, "[image base=0x%llx] without bytes", (unsigned long long)base);
		return;
	}
	put_fmt(w, "[image base=0x%llx]\n", (unsigned long long)base);
	put_hex_block(w, bytes, n);
	w->state = part_section;
}

void tc_vwrite_image_file(struct tc_vwriter *w, const char *name, int elf, uint64_t base, const uint8_t *bytes,
			  size_t n)
{
	if (!may_write(w, "[image]"))
		return;
	if (!name || !*name || strcspn(name, " \t\r\n]#") != strlen(name)) {
		misuse(w, "[image]: the file name '%s' is empty or holds a blank, ']', '#' or a line break",
		       name ? name : "(null)");
		return;
	}
	if (n == 0 || !bytes) {
		misuse(w, "[image %s=%s] without bytes", elf ? "elf" : "file", name);
		return;
	}
	put_str(w, elf ? "[image elf=" : "[image file=");
	put_str(w, name);
	if (!elf)
		put_fmt(w, " base=0x%llx", (unsigned long long)base);
	put_fmt(w, " size=%zu crc32=0x%08x]\n", n, (unsigned)tc_vector_crc32(bytes, n));
	w->state = part_section;
}

static const char *const section_names[tc_sec_count] = {
	"expect.l1", "expect.s1", "expect.l2", "expect.l3", "error"
};

/* A reading ID: it fits struct tc_alt's reading, with no blank, ']' or '#'. */
static int reading_ok(const char *id)
{
	const struct tc_alt *alt = NULL;
	size_t n = strlen(id);
	return n > 0 && n < sizeof alt->reading && strcspn(id, " \t\r\n]#") == n;
}

void tc_vwrite_section(struct tc_vwriter *w, int sec, int strict, const char *reading)
{
	static const char *const stricts[] = { "", " strict=class", " strict=resync" };
	if (!may_write(w, "a section"))
		return;
	if (sec < 0 || sec >= tc_sec_count || strict < tc_strict_offset || strict > tc_strict_resync ||
	    (strict != tc_strict_offset && (sec != tc_sec_error || reading))) {
		misuse(w, "no such section (section %d, strict %d)", sec, strict);
		return;
	}
	if (reading && (sec == tc_sec_s1 || sec == tc_sec_l2 || !reading_ok(reading))) {
		misuse(w, "[%s reading=%s]: readings are for expect.l1, expect.l3 and error, IDs of 1 to 31 "
			  "characters without blanks", section_names[sec], reading);
		return;
	}
	if (reading)
		put_fmt(w, "[%s reading=%s]\n", section_names[sec], reading);
	else
		put_fmt(w, "[%s%s]\n", section_names[sec], sec == tc_sec_error ? stricts[strict] : "");
	w->state = part_lines;
}

void tc_vwrite_lines(struct tc_vwriter *w, const char *text)
{
	if (!may_write(w, "lines") || !text)
		return;
	if (w->state != part_lines) {
		misuse(w, "lines outside an expect or error section");
		return;
	}
	while (*text) {
		size_t n = strcspn(text, "\n");
		size_t lead = strspn(text, " \t");
		if (lead < n && text[lead] == '[') {
			misuse(w, "a line beginning with '[' would open a section: '%.*s'", (int)n, text);
			return;
		}
		if (lead < n) {
			put(w, text, n);
			put_str(w, "\n");
		}
		text += n + (text[n] == '\n');
	}
}

char *tc_vwrite_end(struct tc_vwriter *w, char *err, size_t errlen)
{
	char *text;
	if (w->state == part_none)
		misuse(w, "nothing written (tc_vwrite_begin)");
	put_str(w, "[end]\n");   /* the reader refuses a file without it: a cut file cannot pass */
	text = w->text;            /* after the last put: it may have moved the text */
	if (failed(w)) {
		snprintf(err, errlen, "%s", w->err);
		free(text);
		text = NULL;
	}
	memset(w, 0, sizeof *w);
	return text;
}

/* ---- Whole vectors ------------------------------------------------------------------ */

static void write_lines(struct tc_vwriter *w, const struct tc_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		tc_vwrite_lines(w, l->line[i]);
}

char *tc_vector_text(const struct tc_vector *v, char *err, size_t errlen)
{
	struct tc_vwriter w;
	tc_vwrite_begin(&w);
	tc_vwrite_comment(&w, v->comment);
	tc_vwrite_config(&w, v->proto, v->config, v->has[tc_sec_l3]);
	if (v->tags[0])
		tc_vwrite_tags(&w, v->tags);
	tc_vwrite_trace(&w, v->trace, v->trace_len);
	for (int i = 0; i < v->image.n; i++)
		tc_vwrite_image(&w, v->image.region[i].base, v->image.region[i].data, (size_t)v->image.region[i].size);
	for (int s = 0; s < tc_sec_count; s++) {
		if (!v->has[s])
			continue;
		tc_vwrite_section(&w, s, s == tc_sec_error ? v->error_strict : tc_strict_offset, NULL);
		write_lines(&w, &v->expect[s]);
	}
	for (int i = 0; i < v->nalts; i++) {
		tc_vwrite_section(&w, v->alt[i].sec, tc_strict_offset, v->alt[i].reading);
		write_lines(&w, &v->alt[i].lines);
	}
	return tc_vwrite_end(&w, err, errlen);
}

/* ---- Generated vectors --------------------------------------------------------------- */

static const char generated_words[] =
	"Generated by the tracecert encoder (encoder/): the expected L1 and L3 are the\n"
	"encoder's ground truth (what its trace-unit model wrote and what its execution\n"
	"model retired), never a decoder's output. Regenerate with `make vectors`.";

static char *description(const char *title, const char *note)
{
	size_t n = strlen(title) + sizeof generated_words + (note ? strlen(note) : 0) + 3;
	char *s = malloc(n);
	if (s)
		snprintf(s, n, "%s\n%s%s%s", title, generated_words, note && *note ? "\n" : "", note ? note : "");
	return s;
}

static int build_generated(const struct tc_enc_result *r, const char *title, struct tc_vector *v, char *err,
			   size_t errlen)
{
	v->proto = tc_protocol_find(r->protocol);
	if (!v->proto) {
		snprintf(err, errlen, "a generated vector of protocol '%s', which this build does not have",
			 r->protocol ? r->protocol : "(none)");
		return -1;
	}
	v->comment = description(title ? title : "generated", r->note);
	v->config = malloc(v->proto->config_size);
	v->trace = malloc(r->trace_len ? r->trace_len : 1);
	if (!v->comment || !v->config || !v->trace) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(v->config, r->cfg, v->proto->config_size);
	memcpy(v->trace, r->trace, r->trace_len);
	v->trace_len = r->trace_len;
	if (snprintf(v->tags, sizeof v->tags, "%s", r->tags ? r->tags : "") >= (int)sizeof v->tags) {
		snprintf(err, errlen, "the tags of a generated vector are longer than %zu characters", sizeof v->tags - 1);
		return -1;
	}
	for (int i = 0; i < r->nregions; i++) {
		if (tc_image_add_named(&v->image, r->region[i].base, r->region[i].bytes, r->region[i].len, NULL, err,
				       errlen))
			return -1;
		v->has_image = 1;
	}
	return 0;
}

int tc_vector_from_generated(const struct tc_enc_result *r, const char *title, struct tc_vector *v, char *err,
			     size_t errlen)
{
	memset(v, 0, sizeof *v);
	if (build_generated(r, title, v, err, errlen)) {
		tc_vector_free(v);
		return -1;
	}
	v->has[tc_sec_l1] = 1;
	tc_lines_add_text(&v->expect[tc_sec_l1], r->l1 ? r->l1 : "");
	if (r->error) {
		v->has[tc_sec_error] = 1;
		tc_lines_add_text(&v->expect[tc_sec_error], r->error);
	} else {
		v->has[tc_sec_l3] = 1;
		tc_lines_add_text(&v->expect[tc_sec_l3], r->l3 ? r->l3 : "");
	}
	return 0;
}

char *tc_vector_text_generated(const struct tc_enc_result *r, const char *title, char *err, size_t errlen)
{
	struct tc_vector v;
	char *text;
	if (tc_vector_from_generated(r, title, &v, err, errlen))
		return NULL;
	text = tc_vector_text(&v, err, errlen);
	tc_vector_free(&v);
	return text;
}

int tc_vector_save(const char *path, const char *text, char *err, size_t errlen)
{
	return tc_out_save(path, text, strlen(text), 0, err, errlen);
}
