/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.c — fuzz harness: one RISC-V processor trace 0.026 frame (rvtrace_parse.c) on arbitrary bytes and configurations.
 *
 * Property: for every configuration the key table allows, any frame is
 * parsed without crash, hang or undefined behaviour, and
 *   1. framing (reference/rvtrace/ERRATA.md RV-F2, RV-F4, written here from
 *      the text alone): tc_rvtrace_frame_size of the whole frame is 1 + N
 *      (N = byte 0 bits 3:0), or, for a te_inst byte 0 with N = 0 and
 *      long_frames=1, 2 + M (M = byte 1), and 0 for that byte 0 alone;
 *   2. records: 1 to TC_RVTRACE_MAX_RECORDS; the first is the packet or an
 *      error, the rest warnings; every one has the protocol's id, the
 *      record's size, the frame's offset and byte 0; an error class is
 *      1 … count-1 and never an L3 class, and an error record is alone;
 *      a warning is `res0` with the field `map` or `pad`, `map` first, and
 *      never after a `message` (FORMAT.md "Warnings");
 *   3. kinds by message type (RV-F3, RV-X3): type 1 a timer, type 3 a
 *      software message, type 0 support or message, type 2 a te_inst kind;
 *      an error record for a cut frame (shorter than its size) is
 *      `truncated`, and `truncated` is only given for one;
 *   4. text: every record formats to a line that the L1 parser reads back
 *      into a record that formats to the same line.
 *
 * Input: the configuration, one byte per key (fuzz.h tc_fuzz_proto_config),
 * then the frame (at most TC_RVTRACE_MAX_FRAME bytes; a shorter input than
 * its size is a cut frame).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/rvtrace.h"
#include "tracecert/rvtrace_config.h"

/* The frame size by RV-F2 and RV-F4: 0 when the bytes held do not say. */
static size_t model_size(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t have)
{
	unsigned n, type;
	if (have == 0)
		return 0;
	n = b[0] & 0xf;
	type = (b[0] >> 4) & 3;
	if (n == 0 && type == tc_rvtrace_msg_inst && cfg->long_frames)
		return have >= 2 ? 2 + (size_t)b[1] : 0;
	return 1 + (size_t)n;
}

static int kind_fits_type(int kind, unsigned type)
{
	switch (type) {
	case tc_rvtrace_msg_support:
		return kind == tc_rvtrace_pkt_support || kind == tc_rvtrace_pkt_message;
	case tc_rvtrace_msg_timer:
		return kind == tc_rvtrace_pkt_timer;
	case tc_rvtrace_msg_software:
		return kind == tc_rvtrace_pkt_software;
	default:
		return kind >= tc_rvtrace_pkt_full_delta && kind <= tc_rvtrace_pkt_sync_context;
	}
}

/* The record formats, parses back and formats to the same line. */
static void check_text(const struct tc_rvtrace_packet *p)
{
	char line[TC_FUZZ_LINE], again[TC_FUZZ_LINE], err[160];
	struct tc_rvtrace_packet q;
	int n = tc_rvtrace_format_packet(line, sizeof line, p);
	TC_FUZZ_CHECK(n > 0 && (size_t)n < sizeof line && strlen(line) == (size_t)n, "line of %d bytes", n);
	memset(&q, 0, sizeof q);
	q.h = p->h;
	TC_FUZZ_CHECK(tc_rvtrace_parse_packet_text(line, &q, err, sizeof err) == 0, "'%s' does not read back: %s", line,
		      err);
	tc_rvtrace_format_packet(again, sizeof again, &q);
	TC_FUZZ_CHECK(!strcmp(line, again), "'%s' reads back as '%s'", line, again);
}

static void check_record(const struct tc_rvtrace_packet *p, const uint8_t *b, uint64_t offset)
{
	TC_FUZZ_CHECK(p->h.protocol == tc_proto_rvtrace && p->h.size == sizeof *p, "record header");
	TC_FUZZ_CHECK(p->h.offset == offset && p->byte0 == b[0], "record offset or byte 0");
	TC_FUZZ_CHECK(p->h.kind < tc_rvtrace_pkt_count, "kind %u", p->h.kind);
	check_text(p);
}

static void check_frame(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t len)
{
	struct tc_rvtrace_packet rec[TC_RVTRACE_MAX_RECORDS];
	uint64_t offset = len * 7u;   /* any offset: the records carry it */
	size_t size = model_size(cfg, b, len);
	int cut = size == 0 || len < size;
	int n;
	TC_FUZZ_CHECK(tc_rvtrace_frame_size(cfg, b, len) == size, "frame size %zu, the framing says %zu",
		      tc_rvtrace_frame_size(cfg, b, len), size);
	if (size && len > size)
		len = size;
	memset(rec, 0xa5, sizeof rec);
	n = tc_rvtrace_parse_frame(cfg, b, len, offset, rec);
	TC_FUZZ_CHECK(n >= 1 && n <= TC_RVTRACE_MAX_RECORDS, "%d records", n);
	for (int i = 0; i < n; i++)
		check_record(&rec[i], b, offset);
	if (rec[0].h.kind == tc_rvtrace_pkt_error) {
		TC_FUZZ_CHECK(n == 1, "an error with %d records", n);
		TC_FUZZ_CHECK(rec[0].error > tc_rvtrace_err_none && rec[0].error < tc_rvtrace_err_no_base_address,
			      "L1 error class %u", rec[0].error);
		TC_FUZZ_CHECK((rec[0].error == tc_rvtrace_err_truncated) == cut, "truncated %u for a frame %s",
			      rec[0].error, cut ? "cut" : "whole");
		return;
	}
	TC_FUZZ_CHECK(!cut, "a cut frame gives kind %u", rec[0].h.kind);
	TC_FUZZ_CHECK(kind_fits_type(rec[0].h.kind, (b[0] >> 4) & 3), "kind %u for message type %u", rec[0].h.kind,
		      (b[0] >> 4) & 3);
	for (int i = 1; i < n; i++) {
		TC_FUZZ_CHECK(rec[i].h.kind == tc_rvtrace_pkt_warning && rec[i].warning == tc_rvtrace_warn_res0,
			      "record %d is no res0 warning", i);
		TC_FUZZ_CHECK(rec[i].field == tc_rvtrace_wf_map || rec[i].field == tc_rvtrace_wf_pad, "field %u",
			      rec[i].field);
		TC_FUZZ_CHECK(rec[0].h.kind != tc_rvtrace_pkt_message, "a warning after a message");
	}
	TC_FUZZ_CHECK(n < 3 || (rec[1].field == tc_rvtrace_wf_map && rec[2].field == tc_rvtrace_wf_pad),
		      "warnings out of payload order");
	TC_FUZZ_CHECK(n < 2 || rec[1].field != tc_rvtrace_wf_map || rec[0].h.kind <= tc_rvtrace_pkt_diff_delta,
		      "a map warning after kind %u", rec[0].h.kind);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find("rvtrace");
	struct tc_fuzz_in in = { data, size };
	struct tc_rvtrace_config cfg;
	uint8_t frame[TC_RVTRACE_MAX_FRAME];
	size_t len;
	if (!proto || size < (size_t)proto->nkeys + 1)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	if (tc_rvtrace_config_check(&cfg, NULL, 0)) {
		TC_FUZZ_CHECK(tc_rvtrace_alloc(&cfg, NULL) == NULL, "alloc accepted a configuration config_check refuses");
		return 0;
	}
	len = in.n < sizeof frame ? in.n : sizeof frame;
	if (len == 0)
		return 0;
	memcpy(frame, in.p, len);
	check_frame(&cfg, frame, len);
	return 0;
}
