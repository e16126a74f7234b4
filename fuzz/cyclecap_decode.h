/* SPDX-License-Identifier: BSD-3-Clause */
/* cyclecap_decode.h — the body of the decode harness of a protocol whose trace is a per-cycle sample
 * file (reference/cyclecap.h): the file through the protocol's descriptor, L1 (with the image walk
 * where the protocol has one) and L3, against the same decoder at L1 alone and fed whole.
 *
 * Property: for every configuration the key table allows, any records over any image are decoded
 * (fed in chunks from the input) without crash, hang, leak or undefined behaviour, and
 *   1. the descriptor: items carry the protocol's id and record size, an L1 kind below l1_kinds and
 *      an L3 kind below tc_l3_kind_count; item_error is the class on errors only and item_is_warning
 *      on L1 warnings only; an L3 error names a class of the protocol's list; skipped is 0; after
 *      finish, feed and finish are refused and deliver nothing;
 *   2. levels: the L1 lines with L3 asked for too are those of L1 alone (L3 changes no L1 item);
 *   3. pieces: the L1 and L3 lines fed in chunks are those fed whole;
 *   4. text: every item formats to a line; an L3 line reads back (tc_l3_parse) and formats the same.
 *
 * Input: the configuration, one byte per key (fuzz.h tc_fuzz_proto_config); a flags byte: bits 2:0
 * raw regions (0-7); a chunking byte (tc_fuzz_chunks_init); the regions (tc_fuzz_read_regions);
 * the rest is the records after a header that agrees with the configuration (its keys version,
 * port_width, port_mode and half_rate, the header's bytes 6..9). */
#ifndef TC_FUZZ_CYCLECAP_DECODE_H
#define TC_FUZZ_CYCLECAP_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"

/* What the harness of one protocol knows of it. */
struct tc_fuzz_cyclecap {
	const char *protocol;   /* its word of PROTOCOLS (tc_protocol_find) */
	int id;                 /* its enum tc_protocol_id: every item's protocol */
	uint8_t major;          /* the header's byte 5, the major version the file is of */
	int error_kind;         /* the L1 kinds of an error and of a warning */
	int warning_kind;
	int nerrors;            /* the classes of its error list: an L3 error is 1 … nerrors-1 */
	/* The error class an L1 record of the error kind carries. */
	int (*l1_error)(const struct tc_item *it);
};

/* LLVMFuzzerTestOneInput of the protocol p describes. */
int tc_fuzz_cyclecap_decode(const struct tc_fuzz_cyclecap *p, const uint8_t *data, size_t size);

#endif
