/* SPDX-License-Identifier: BSD-3-Clause */
/* asm.c — fuzz harness for any protocol with an assembler (tracecert asm): arbitrary text into the assembler, and the round trip of what it writes.
 *
 * Built once per protocol: fuzz.mk compiles it with TC_FUZZ_PROTOCOL set to
 * the protocol's name (harness P_asm) and, for a protocol with an encoder,
 * TC_FUZZ_ENCODER to its encoder's descriptor; it reaches them only through
 * tracecert/protocol.h, tracecert/encoder.h and the assembler of
 * tracecert/asmtext.h (tc_asm_text, the one `tracecert asm` calls; a
 * per-cycle protocol without an encoder: the sample file's writer). The
 * input is the configuration, one byte per key (tc_fuzz_proto_config), then
 * the text. Property:
 *   1. no crash, hang, leak or undefined behaviour, whatever the text;
 *   2. refused: a message, and its line (0, or one of the text's lines);
 *   3. accepted, bytes B: the text `dump` prints of B (its L1 lines, every
 *      item; a per-cycle protocol's with the cycle lines of `dump --cycles`,
 *      each item after its record's line) assembles again, to B byte for
 *      byte — for a byte-stream protocol when that text holds all of B (no
 *      error or warning item, no byte skipped before synchronisation: those
 *      bytes are not in the text, and asm refuses such items).
 * A configuration the protocol refuses is not run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclecap.h"
#include "fuzz.h"
#include "tracecert/asmtext.h"

#ifndef TC_FUZZ_PROTOCOL
#error "TC_FUZZ_PROTOCOL names the protocol (fuzz/fuzz.mk)"
#endif

#ifdef TC_FUZZ_ENCODER
extern const struct tc_encoder TC_FUZZ_ENCODER;
static const struct tc_encoder *assembler(void)
{
	return TC_FUZZ_ENCODER.asm_write ? &TC_FUZZ_ENCODER : NULL;
}
#else
static const struct tc_encoder *assembler(void)
{
	return NULL;
}
#endif

/* The text dump prints, and whether it holds every byte. */
struct dump_text {
	const struct tc_protocol *proto;
	char *p;
	size_t len, cap;
	int unclean;              /* an error or warning item */
};

static void text_put(struct dump_text *t, const char *s)
{
	size_t n = strlen(s);
	if (t->len + n + 2 > t->cap) {
		size_t cap = (t->cap + n + 2) * 2;
		char *p = realloc(t->p, cap);
		TC_FUZZ_CHECK(p != NULL, "out of memory");
		t->p = p;
		t->cap = cap;
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len++] = '\n';
}

static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct dump_text *t = ctx;
	char line[TC_FUZZ_LINE];
	if (level != tc_level_l1)
		return;
	if (t->proto->item_error(level, item) || t->proto->item_is_warning(level, item))
		t->unclean = 1;
	t->proto->format(line, sizeof line, level, item);
	text_put(t, line);
}

static void on_cycle_line(void *ctx, const struct tc_cyclecap_line *l)
{
	char line[200];
	tc_cyclecap_format_line(line, sizeof line, l);
	text_put(ctx, line);
}

/* The decoder over b (record by record after each record's cycle line for a per-cycle protocol). */
static void dump_bytes(const struct tc_protocol *proto, const void *cfg, const uint8_t *b, size_t n, struct dump_text *t)
{
	struct tc_sink sink = { t, tc_level_l1, on_item };
	void *d = proto->alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "the decoder refuses a configuration the assembler took");
	if (proto->sample) {
		const struct tc_sample_format *f = proto->sample;
		struct tc_cyclecap_params params = { f->major, f->max_minor, f->status_bits, f->has_sync };
		struct tc_cyclecap_echo e;
		size_t at = 0;
		tc_cyclecap_echo_init(&e, &params, on_cycle_line, t);
		while (at < n) {
			size_t took = tc_cyclecap_echo_step(&e, b + at, n - at);
			proto->feed(d, b + at, took);
			at += took;
		}
		tc_cyclecap_echo_finish(&e);
	} else {
		proto->feed(d, b, n);
	}
	proto->finish(d);
	if (proto->skipped(d))
		t->unclean = 1;
	proto->free(d);
}

static unsigned count_lines(const uint8_t *text, size_t len)
{
	unsigned n = 1;
	for (size_t i = 0; i < len; i++)
		n += text[i] == '\n';
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const struct tc_protocol *proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	(void)argc;
	(void)argv;
	if (!proto || (!assembler() && !proto->sample)) {
		fprintf(stderr, "asm: protocol '%s' is not in this build or has no assembler\n", TC_FUZZ_PROTOCOL);
		return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	struct tc_fuzz_in in = { data, size };
	struct dump_text t;
	uint8_t *b = NULL, *b2 = NULL;
	size_t n = 0, n2 = 0, got;
	const uint8_t *text;
	unsigned line = 0;
	char msg[600];
	void *cfg;
	if (!proto || (!assembler() && !proto->sample))
		return 0;
	cfg = malloc(proto->config_size);
	TC_FUZZ_CHECK(cfg != NULL, "out of memory");
	tc_fuzz_proto_config(proto, &in, cfg);
	text = tc_fuzz_bytes(&in, size, &got);
	if (proto->config_check(cfg, NULL, 0) ||
	    tc_asm_text(proto, assembler(), cfg, (const char *)text, got, &b, &n, &line, msg, sizeof msg)) {
		TC_FUZZ_CHECK(proto->config_check(cfg, NULL, 0) || (msg[0] && line <= count_lines(text, got)),
			      "a refusal with message '%s' at line %u of %u", msg, line, count_lines(text, got));
		free(cfg);
		return 0;
	}
	memset(&t, 0, sizeof t);
	t.proto = proto;
	dump_bytes(proto, cfg, b, n, &t);
	if (proto->sample || !t.unclean) {
		int rc = tc_asm_text(proto, assembler(), cfg, t.p ? t.p : "", t.len, &b2, &n2, &line, msg, sizeof msg);
		TC_FUZZ_CHECK(rc == 0, "asm of dump of asm refused at line %u: %s\n%.*s", line, msg, (int)t.len,
			      t.p ? t.p : "");
		TC_FUZZ_CHECK(n2 == n && (n == 0 || !memcmp(b, b2, n)),
			      "asm of dump of asm gives %zu bytes, not the same %zu\n%.*s", n2, n, (int)t.len, t.p ? t.p : "");
	}
	free(b2);
	free(b);
	free(t.p);
	free(cfg);
	return 0;
}
