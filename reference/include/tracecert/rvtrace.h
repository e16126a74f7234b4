/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/rvtrace.h — RISC-V processor trace 0.026 reference decoder: frames and packets (L1)
 * (RISC-V Processor Trace 0.026-DRAFT chapter 6; the framing of reference/rvtrace/ERRATA.md RV-F1…RV-F7). */
#ifndef TRACECERT_RVTRACE_H
#define TRACECERT_RVTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"
#include "tracecert/image.h"
#include "tracecert/rvtrace_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error classes (reference/rvtrace/FORMAT.md "Error classes"): the L1
 * classes, then those of the L3 walk, which L1 never gives. */
enum tc_rvtrace_error {
	tc_rvtrace_err_none = 0,
	tc_rvtrace_err_truncated,          /* the stream ends inside a frame */
	tc_rvtrace_err_short_frame,        /* the frame ends before a field that must be whole, or before an
					    * address's (a full map's) first bit; te_inst N = 0 with long_frames=0 */
	tc_rvtrace_err_bad_length,         /* a long form whose M is below 16 (RV-F4) */
	tc_rvtrace_err_reserved_subformat, /* format 3 subformat 3 (L382) */
	tc_rvtrace_err_reserved_qual,      /* te_support qual_status 2 (L399) */
	tc_rvtrace_err_bad_mode,           /* format 1 with full_address=1 (L376, RV-P4) */
	tc_rvtrace_err_no_base_address,    /* L3: a difference with no reported address (RV-P5) */
	tc_rvtrace_err_map_exhausted,      /* L3: a conditional branch with no map bit left */
	tc_rvtrace_err_no_address,         /* L3: an uninferable jump in a packet with no address */
	tc_rvtrace_err_unconsumed_map,     /* L3: map bits left at an uninferable jump's target */
	tc_rvtrace_err_count
};

/* Warning classes (RV-R1: a bit no source assigns is ignored). */
enum tc_rvtrace_warning { tc_rvtrace_warn_none = 0, tc_rvtrace_warn_res0, tc_rvtrace_warn_count };

/* The fields a warning names (FORMAT.md "Warnings"). */
enum tc_rvtrace_warn_field {
	tc_rvtrace_wf_none = 0,
	tc_rvtrace_wf_map,                 /* the branch map's bits above the `branches` valid ones (L368) */
	tc_rvtrace_wf_pad,                 /* the frame bits after the payload's last field (RV-F6) */
	tc_rvtrace_wf_count
};

/* L1: packet kinds (FORMAT.md "L1: packets"). */
enum tc_rvtrace_pkt_kind {
	tc_rvtrace_pkt_full_delta,     /* te_inst format 0 (Table 6.1) */
	tc_rvtrace_pkt_diff_delta,     /* te_inst format 1 (Table 6.1) */
	tc_rvtrace_pkt_addr_only,      /* te_inst format 2 (Table 6.2) */
	tc_rvtrace_pkt_sync_start,     /* te_inst format 3 subformat 0 (Table 6.3) */
	tc_rvtrace_pkt_sync_exception, /* format 3 subformat 1 */
	tc_rvtrace_pkt_sync_context,   /* format 3 subformat 2 */
	tc_rvtrace_pkt_support,        /* message type 0, control_code 0x34, support_type 0 (Table 6.4) */
	tc_rvtrace_pkt_message,        /* message type 0, another control_code or support_type (RV-F3) */
	tc_rvtrace_pkt_timer,          /* message type 1, trdb's timer (RV-X3) */
	tc_rvtrace_pkt_software,       /* message type 3, trdb's software message (RV-X3) */
	tc_rvtrace_pkt_error,
	tc_rvtrace_pkt_warning,        /* follows the packet it is about (same offset and byte 0) */
	tc_rvtrace_pkt_count
};

/* Message types of byte 0 bits [5:4] (RV-F2, RV-F3, T4). */
enum tc_rvtrace_msg { tc_rvtrace_msg_support = 0, tc_rvtrace_msg_timer = 1, tc_rvtrace_msg_inst = 2,
		      tc_rvtrace_msg_software = 3 };

/* The longest frame: a long form, byte 0, byte 1 = M = 255, 255 bytes (RV-F4). */
#define TC_RVTRACE_MAX_FRAME 257

/* One packet as traced (L1 resolves nothing: FORMAT.md). Which fields mean
 * something depends on the kind. */
struct tc_rvtrace_packet {
	struct tc_item h;      /* size = sizeof, protocol = tc_proto_rvtrace, kind, offset of byte 0 */
	uint8_t byte0;         /* byte 0 of the frame */
	uint8_t error;         /* enum tc_rvtrace_error (kind error) */
	uint8_t warning;       /* enum tc_rvtrace_warning (kind warning) */
	uint8_t field;         /* enum tc_rvtrace_warn_field (kind warning) */
	uint8_t branches;      /* full-delta, diff-delta: the branches field, 0..31 */
	uint8_t full;          /* addr-only: 1 the address is full (full_address=1, `addr`), 0 a difference */
	uint8_t has_context;   /* sync: the context field is present (nocontext_p = 0) */
	uint8_t has_tval;      /* sync-exception: the tval field is present (notval_p = 0) */
	uint8_t privilege;     /* sync: the privilege field, 0..15 */
	uint8_t branch;        /* sync-start, sync-exception: the branch bit */
	uint8_t interrupt;     /* sync-exception */
	uint8_t enable;        /* support */
	uint8_t mode;          /* support: encoder_mode, 0..3 (RV-P7) */
	uint8_t qual;          /* support: qual_status 0, 1 or 3 */
	uint8_t control;       /* message: control_code, 0..0x3f */
	uint8_t type;          /* message: support_type, 0..15 */
	uint16_t ecause;       /* sync-exception: 0..0xffff */
	uint32_t map;          /* full-delta, diff-delta: the valid bits of the branch map, bit 0 the oldest,
				* 1 not taken (all 31 with branches = 0) */
	uint32_t context;      /* sync with has_context */
	uint64_t address;      /* full-delta, sync-start, sync-exception, addr-only with full: a byte address
				* (the field shifted left by iaddress_lsb_p, L386) */
	int64_t diff;          /* diff-delta, addr-only without full: the field as a signed number times
				* 2^iaddress_lsb_p (RV-P5) */
	uint64_t tval;         /* sync-exception with has_tval */
	uint64_t value;        /* timer, software: the value; warning: the bits, bit 0 the first */
};

/* Return codes of the API functions (caller errors only: decode errors are
 * reported in-band as error packets). */
enum tc_rvtrace_status {
	tc_rvtrace_ok = 0,
	tc_rvtrace_invalid = -1,   /* NULL argument or bad configuration */
	tc_rvtrace_nomem = -2,
	tc_rvtrace_finished = -3   /* feed after tc_rvtrace_finish */
};

/* ---- Frames and packets (rvtrace_frame.c, rvtrace_parse.c) ---------------- */

/* The number of bytes of the frame whose first `have` bytes are at b
 * (RV-F2, RV-F4): 1 + N, or 2 + M for a long form; 0 when have bytes do not
 * say yet (none, or a long form's byte 0 alone). */
size_t tc_rvtrace_frame_size(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t have);

/* Most records one frame gives: its packet (or error) and two warnings. */
#define TC_RVTRACE_MAX_RECORDS 3

/* Decodes the whole frame b[0..len-1] (len = tc_rvtrace_frame_size) whose
 * byte 0 is at stream offset `offset` into out[]: the packet or an error,
 * then its warnings (map, pad). Returns the number of records, 1..3. cfg
 * must pass tc_rvtrace_config_check. */
int tc_rvtrace_parse_frame(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t len, uint64_t offset,
			   struct tc_rvtrace_packet out[TC_RVTRACE_MAX_RECORDS]);

/* ---- The stream (rvtrace_decoder.c) ---------------------------------------- */

/* Output callback (may be NULL); called synchronously from feed/finish. */
struct tc_rvtrace_sink {
	void *ctx;
	void (*packet)(void *ctx, const struct tc_rvtrace_packet *p);   /* L1 */
};

struct tc_rvtrace_decoder;

/* Allocates a decoder; NULL for a NULL or invalid configuration or when
 * memory is short. Memory is fixed: one frame at most is held. */
struct tc_rvtrace_decoder *tc_rvtrace_alloc(const struct tc_rvtrace_config *cfg, const struct tc_rvtrace_sink *sink);
/* Feeds len bytes; any chunking gives the same output. Returns 0,
 * tc_rvtrace_invalid (NULL decoder, NULL data with len > 0) or tc_rvtrace_finished. */
int tc_rvtrace_feed(struct tc_rvtrace_decoder *d, const uint8_t *data, size_t len);
/* End of trace: a frame cut off is reported as truncated (RV-F7). Returns
 * 0, tc_rvtrace_invalid or tc_rvtrace_finished. */
int tc_rvtrace_finish(struct tc_rvtrace_decoder *d);
void tc_rvtrace_free(struct tc_rvtrace_decoder *d);
/* The program image of L3 (ERRATA RV-P18, RV-P19): the decoder keeps the pointer, the caller the
 * image, which must outlive the decoder or the next call; NULL: every walk gives no-image. Set before
 * the first feed. Returns 0 or tc_rvtrace_invalid (NULL decoder, or the trace already fed). */
int tc_rvtrace_set_image(struct tc_rvtrace_decoder *d, const struct tc_image *image);
/* The L3 output (rvtrace_analyze.c), called with the sink's ctx, synchronously from feed/finish; NULL:
 * no L3 (the default). A function of its own, not a member of struct tc_rvtrace_sink, so that the
 * sink's initialisers written for L1 stay whole. Set before the first feed. Returns 0 or
 * tc_rvtrace_invalid (NULL decoder, or the trace already fed). */
int tc_rvtrace_set_l3_sink(struct tc_rvtrace_decoder *d, void (*l3)(void *ctx, const struct tc_l3 *x));

/* ---- Text (rvtrace_text.c, FORMAT.md) --------------------------------------- */

/* Writes the L1 line of p: at most size bytes including the NUL; returns
 * the length it needed. */
int tc_rvtrace_format_packet(char *buf, size_t size, const struct tc_rvtrace_packet *p);
/* The one parser of the L1 text: reads one line exactly as
 * tc_rvtrace_format_packet writes it into *p, zeroed but for the item
 * header and the fields the line shows. Returns 0, or -1 with err saying
 * "column C: expected …, found '…'" (C from 1). */
int tc_rvtrace_parse_packet_text(const char *line, struct tc_rvtrace_packet *p, char *err, size_t errlen);
const char *tc_rvtrace_pkt_kind_name(int kind);
extern const char *const tc_rvtrace_error_names[tc_rvtrace_err_count];
extern const char *const tc_rvtrace_warning_names[tc_rvtrace_warn_count];
const char *tc_rvtrace_error_name(int error);
const char *tc_rvtrace_warning_name(int warning);
const char *tc_rvtrace_warning_field_name(int field);

#ifdef __cplusplus
}
#endif

#endif
