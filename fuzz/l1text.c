/* SPDX-License-Identifier: BSD-3-Clause */
/* l1text.c — fuzz harness for any protocol, through its descriptor: the L1 text parser (parse_l1) on arbitrary text, against the formatter beside it.
 *
 * Built once per protocol: fuzz.mk compiles it with TC_FUZZ_PROTOCOL set to
 * the protocol's name (harness P_l1text); it reaches the protocol only
 * through tracecert/protocol.h (parse_l1, format, l1_size, l1_kinds,
 * item_error, nerrors). The input is text: each line (up to a '\n', cut at
 * a NUL byte) is given to the parser. Property, for every line x:
 *   1. no crash, hang, leak or undefined behaviour;
 *   2. refused: the message is "column C: expected …" with C from 1 to
 *      strlen(x) + 1;
 *   3. accepted: the record is the protocol's (h.size == l1_size, h.protocol
 *      its id, h.kind < l1_kinds, an error class below nerrors), it formats
 *      to fewer than TC_FUZZ_LINE characters, and the parser being strict,
 *      format(parse(x)) is x byte for byte; parsing that text again gives
 *      the same record, byte for byte (the parser zeroes what the line does
 *      not show, padding included), and the same text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

#ifndef TC_FUZZ_PROTOCOL
#error "TC_FUZZ_PROTOCOL names the protocol (fuzz/fuzz.mk)"
#endif

#define RECORD_MAX 1024

union record {
	struct tc_item h;
	uint64_t align[RECORD_MAX / 8];
};

/* A refusal names a column inside the line, or just past its end. */
static void check_refusal(const char *line, const char *err)
{
	unsigned long col = 0;
	const char *p = err + 7;
	TC_FUZZ_CHECK(!strncmp(err, "column ", 7) && *p >= '1' && *p <= '9', "refusal of '%s': '%s'", line, err);
	while (*p >= '0' && *p <= '9' && col < 1000000)
		col = col * 10 + (unsigned long)(*p++ - '0');
	TC_FUZZ_CHECK(col >= 1 && col <= strlen(line) + 1 && !strncmp(p, ": expected ", 11),
		      "refusal of '%s' (%zu characters): '%s'", line, strlen(line), err);
}

static void check_record(const struct tc_protocol *proto, const char *line, const struct tc_item *r)
{
	int error = proto->item_error(tc_level_l1, r);
	TC_FUZZ_CHECK(r->size == proto->l1_size && r->protocol == proto->id && r->kind < proto->l1_kinds,
		      "'%s': record size %u, protocol %u, kind %u", line, (unsigned)r->size, (unsigned)r->protocol,
		      (unsigned)r->kind);
	TC_FUZZ_CHECK(error >= 0 && error < proto->nerrors, "'%s': error class %d", line, error);
}

static void one_line(const struct tc_protocol *proto, const char *line)
{
	union record a, b;
	char err[1024], text[TC_FUZZ_LINE], again[TC_FUZZ_LINE];
	int n;
	memset(err, 0, sizeof err);
	if (proto->parse_l1(line, &a.h, err, sizeof err)) {
		check_refusal(line, err);
		return;
	}
	check_record(proto, line, &a.h);
	n = proto->format(text, sizeof text, tc_level_l1, &a.h);
	TC_FUZZ_CHECK(n > 0 && n < TC_FUZZ_LINE, "'%s' formats to %d characters", line, n);
	TC_FUZZ_CHECK(!strcmp(text, line), "'%s' is accepted but formats as '%s'", line, text);
	memset(&b, 0xa5, sizeof b);
	TC_FUZZ_CHECK(proto->parse_l1(text, &b.h, err, sizeof err) == 0, "'%s' refused again: %s", text, err);
	TC_FUZZ_CHECK(!memcmp(&a, &b, proto->l1_size), "'%s' parses to another record the second time", text);
	proto->format(again, sizeof again, tc_level_l1, &b.h);
	TC_FUZZ_CHECK(!strcmp(again, text), "'%s' formats as '%s' the second time", text, again);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const struct tc_protocol *proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	(void)argc;
	(void)argv;
	if (!proto || !proto->parse_l1 || proto->l1_size > sizeof(union record)) {
		fprintf(stderr, "l1text: protocol '%s' is not in this build, has no parse_l1 or an L1 record over %d bytes\n",
			TC_FUZZ_PROTOCOL, RECORD_MAX);
		return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find(TC_FUZZ_PROTOCOL);
	char *line = malloc(size + 1);
	size_t start = 0;
	TC_FUZZ_CHECK(line != NULL, "out of memory");
	if (!proto || proto->l1_size > sizeof(union record)) {
		free(line);
		return 0;
	}
	while (start <= size) {
		const uint8_t *nl = start < size ? memchr(data + start, '\n', size - start) : NULL;
		size_t len = nl ? (size_t)(nl - (data + start)) : size - start;
		if (len > 0)
			memcpy(line, data + start, len);
		line[len] = '\0';
		one_line(proto, line);
		start += len + 1;
	}
	free(line);
	return 0;
}
