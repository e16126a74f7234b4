/* SPDX-License-Identifier: BSD-3-Clause */
/* diagread.c — a run's diagnosis read back: the fields of its YAML lines, its defect class, the trace bytes its divergence names, the command that reproduces it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "runner.h"

const char *const tc_defect_names[tc_d_count] = {
	"l1-packets", "l1-error-offsets", "l1-error-classes", "l3-execution", "fail-other",
	"crash", "hang", "flood", "adapter-error", "malformed", "runner-error"
};

const char *const tc_defect_explanations[tc_d_count] = {
	"The packets (L1) differ from the expected ones: a packet decoded with other fields, one missed, or one "
	"invented.",
	"The errors differ: the decoder reports another error list (class and byte offset) than the stream holds, "
	"or none where it holds one.",
	"The error classes differ (the vector compares classes only): the decoder names another kind of error "
	"than the stream holds.",
	"The executed instructions (L3, normalised) differ: another address, instruction class, exception or "
	"context than the program and the trace give.",
	"The output differs in a section not named above.",
	"The decoder's process died on a signal (or the memory limit, or its worker died while it ran).",
	"The decoder ran past the time limit.",
	"The decoder handed over more output or items than the limit.",
	"The decoder refused the vector or failed (an error return from its adapter).",
	"What the decoder's process sent broke the frame format or held an item that is not what it claims.",
	"The runner could not run the vector (not the decoder's fault)."
};

/* The line at *p (to its '\n' or end) copied into the buffer at *w, NUL
 * ended; *p moves past it. */
static char *take_line(const char **p, char **w)
{
	const char *e = strchr(*p, '\n');
	size_t n = e ? (size_t)(e - *p) : strlen(*p);
	char *out = *w;
	memcpy(out, *p, n);
	out[n] = '\0';
	*w += n + 1;
	*p += n + (e != NULL);
	return out;
}

/* A YAML scalar as tc_yaml_text writes it: '…' with '' for a quote, or
 * plain. Unquoted in place. */
static char *unquote(char *v)
{
	char *r, *w;
	size_t n = strlen(v);
	if (n < 2 || v[0] != '\'' || v[n - 1] != '\'')
		return v;
	v[n - 1] = '\0';
	for (r = w = v + 1; *r; r++) {
		*w++ = *r;
		if (r[0] == '\'' && r[1] == '\'')
			r++;
	}
	*w = '\0';
	return v + 1;
}

void tc_diag_read(const struct tc_task *t, struct tc_diag_fields *d)
{
	const char *p = t->diag;
	char *w = d->buf;
	d->n = 0;
	d->ncontext = 0;
	d->context_at = -1;
	if (t->verdict == tc_v_unsupported || strncmp(p, "  ", 2) != 0) {
		snprintf(d->buf, sizeof d->buf, "%s", p);
		if (d->buf[0]) {
			d->key[0] = "reason";
			d->value[0] = d->buf;
			d->n = 1;
		}
		return;
	}
	while (*p) {
		char *line = take_line(&p, &w), *colon;
		if (!strncmp(line, "    - ", 6)) {
			char *c = unquote(line + 6);
			if (!strncmp(c, ">> ", 3)) {
				c += 3;
				d->context_at = (int)d->ncontext;
			}
			if (d->ncontext < TC_DIAG_CONTEXT)
				d->context[d->ncontext++] = c;
			continue;
		}
		colon = strstr(line, ": ");
		if (strncmp(line, "  ", 2) || line[2] == ' ' || !colon || d->n == TC_DIAG_FIELDS)
			continue;   /* "  context:" itself, or what no writer of diag lines writes */
		*colon = '\0';
		d->key[d->n] = line + 2;
		d->value[d->n++] = unquote(colon + 2);
	}
}

const char *tc_diag_get(const struct tc_diag_fields *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->key[i], key))
			return d->value[i];
	return NULL;
}

int tc_defect_of(const struct tc_task *t, const struct tc_diag_fields *d)
{
	const char *sec = tc_diag_get(d, "section");
	switch (t->verdict) {
	case tc_v_fail:
		if (!sec)
			return tc_d_fail_other;
		if (!strcmp(sec, "l1"))
			return tc_d_l1_packets;
		if (!strcmp(sec, "l1 errors (class offset)"))
			return tc_d_l1_error_offsets;
		if (!strcmp(sec, "l1 errors (class only)"))
			return tc_d_l1_error_classes;
		return !strncmp(sec, "l3", 2) ? tc_d_l3_execution : tc_d_fail_other;
	case tc_v_crash: return tc_d_crash;
	case tc_v_hang: return tc_d_hang;
	case tc_v_flood: return tc_d_flood;
	case tc_v_error: return tc_d_adapter_error;
	case tc_v_malformed: return tc_d_malformed;
	case tc_v_runner: return tc_d_runner_error;
	default: return tc_d_none;
	}
}

static int hex_byte(const char *s, size_t n)
{
	return n == 2 && strspn(s, "0123456789abcdefABCDEF") >= 2;
}

/* "@OFFSET HEX HEX ... text": the offset and the number of byte tokens. */
static int l1_range(const char *s, unsigned long long *offset, size_t *len)
{
	char *end;
	if (s[0] != '@' || s[1] < '0' || s[1] > '9')
		return 0;
	*offset = strtoull(s + 1, &end, 10);
	*len = 0;
	for (s = end; *s == ' ';) {
		size_t k = strcspn(s + 1, " ");
		if (!hex_byte(s + 1, k))
			break;
		(*len)++;
		s += 1 + k;
	}
	if (*len == 0)
		*len = 1;
	return 1;
}

/* "CLASS OFFSET": the offset, one byte. */
static int error_range(const char *s, unsigned long long *offset, size_t *len)
{
	const char *sp = strrchr(s, ' ');
	char *end;
	if (!sp || sp[1] < '0' || sp[1] > '9')
		return 0;
	*offset = strtoull(sp + 1, &end, 10);
	*len = 1;
	return *end == '\0';
}

/* An L1 divergence's packet ends where the next expected line's begins:
 * the line after the marked one in the context, when it starts later. */
static void packet_end(const struct tc_diag_fields *d, unsigned long long offset, size_t *len)
{
	unsigned long long next;
	size_t n;
	if (d->context_at < 0 || (size_t)d->context_at + 1 >= d->ncontext)
		return;
	if (l1_range(d->context[d->context_at + 1], &next, &n) && next > offset && next - offset < 4096)
		*len = (size_t)(next - offset);
}

int tc_diag_trace_range(const struct tc_diag_fields *d, unsigned long long *offset, size_t *len)
{
	const char *sec = tc_diag_get(d, "section");
	const char *keys[2][2] = { { "expected", "got" }, { "l1_expected", "l1_got" } };
	for (int k = 0; k < 2; k++) {
		int errors = k == 0 && sec && !strncmp(sec, "l1 errors", 9);
		if (k == 0 && (!sec || !strncmp(sec, "l3", 2)))
			continue;
		for (int side = 0; side < 2; side++) {
			const char *v = tc_diag_get(d, keys[k][side]);
			if (v && errors && error_range(v, offset, len))
				return 1;
			if (v && !errors && l1_range(v, offset, len)) {
				if (k == 0 && side == 0)
					packet_end(d, *offset, len);
				return 1;
			}
		}
	}
	return 0;
}

/* s shell-quoted at the end of dst (n bytes in all). */
static void shell_word(char *dst, size_t n, const char *s)
{
	size_t at = strlen(dst);
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s);
	int plain = left > 0 && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=,:")
				== left;
	if (plain) {
		snprintf(dst + at, n - at, "%s", s);
		return;
	}
	at += (size_t)snprintf(dst + at, n - at, "'");
	while (left > 0 && at + 8 < n) {
		size_t k = tc_utf8_len(p, left);
		if (k == 0 || *p < 0x20 || *p == 0x7F)
			at += (size_t)snprintf(dst + at, n - at, "\\x%02x", *p);
		else if (*p == '\'')
			at += (size_t)snprintf(dst + at, n - at, "'\\''");
		else
			at += (size_t)snprintf(dst + at, n - at, "%.*s", (int)k, (const char *)p);
		k = k ? k : 1;
		p += k;
		left -= k;
	}
	snprintf(dst + at, n - at, "'");
}

void tc_repro_command(char *dst, size_t n, const struct tc_report *r, const struct tc_task *t)
{
	snprintf(dst, n, "tracecert certify --adapter ");
	shell_word(dst, n, r->adapter_path && r->adapter_path[0] ? r->adapter_path : "ADAPTER.so");
	snprintf(dst + strlen(dst), n - strlen(dst), " --vectors ");
	shell_word(dst, n, r->paths[t->vector]);
	snprintf(dst + strlen(dst), n - strlen(dst), " --level %d", t->level);
}
