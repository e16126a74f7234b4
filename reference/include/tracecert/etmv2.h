/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/etmv2.h — ETMv2 reference decoder at L1 (ARM IHI 0014 chapter 6; reference/etmv1/FORMAT.md
 * "Sample file", "L1" and "ETMv2 kinds", the decisions of reference/etmv1/ERRATA.md). */
#ifndef TRACECERT_ETMV2_H
#define TRACECERT_ETMV2_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"
#include "tracecert/image.h"
#include "tracecert/etmv2_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error classes (FORMAT.md "Error classes", those marked etmv2 or both). */
enum tc_etmv2_error {
	tc_etmv2_err_none = 0,
	tc_etmv2_err_bad_header,       /* ETMC-F5 */
	tc_etmv2_err_bad_record,       /* ETMC-F5 */
	tc_etmv2_err_truncated,        /* ETM2-P20 */
	tc_etmv2_err_unowned_packets,  /* ETM2-P2 */
	tc_etmv2_err_reserved_header,  /* Table 6-2, Table 6-6 */
	tc_etmv2_err_reserved_field,   /* Table 6-9, ETM2-P6 */
	tc_etmv2_err_reserved_tfo,     /* Table 6-4 b0101 */
	tc_etmv2_err_tfo_mismatch,     /* ETM2-P10 */
	tc_etmv2_err_tfo_past_fifo,    /* ETM2-P10 */
	tc_etmv2_err_bad_mode,         /* a Context ID packet with contextid_size=0, L8828 */
	tc_etmv2_err_too_many_pending, /* ETM2-P21 */
	tc_etmv2_err_count
};

enum tc_etmv2_warning { tc_etmv2_warn_none = 0, tc_etmv2_warn_res0, tc_etmv2_warn_ignored_field, tc_etmv2_warn_count };

/* The fields a warning names (FORMAT.md "Warnings"). */
enum tc_etmv2_warn_field {
	tc_etmv2_wf_none = 0,
	tc_etmv2_wf_daddr5_bit7,   /* bit 7 of a fifth data-address byte, ETM2-P5 */
	tc_etmv2_wf_daddr_last,    /* bits 6:4 of a fifth data-address byte, ETM2-P5 */
	tc_etmv2_wf_data_size,     /* SS not 0 with data_value=0, ETM2-P4 */
	tc_etmv2_wf_gap_nibble,    /* a gap nibble other than 0x6, L8929 */
	tc_etmv2_wf_idle_byte,     /* TRACEPKT[15:8] not 0x66 with one byte valid, L8586 */
	tc_etmv2_wf_count
};

/* L1 kinds (FORMAT.md "ETMv2 kinds"); the packet kinds (`+data` …) follow a cycle's line. */
enum tc_etmv2_kind {
	tc_etmv2_ie, tc_etmv2_de, tc_etmv2_in, tc_etmv2_dn, tc_etmv2_dw, tc_etmv2_tfo,
	tc_etmv2_trigger, tc_etmv2_trace_disabled, tc_etmv2_gap, tc_etmv2_error, tc_etmv2_warning,
	tc_etmv2_data, tc_etmv2_miss, tc_etmv2_miss_data, tc_etmv2_not_traced, tc_etmv2_context_id,
	tc_etmv2_branch, tc_etmv2_tfo_packet,
	tc_etmv2_kind_count
};

/* PIPESTAT codes, Table 6-1 (L8460-8490) read as ERRATA ETM2-S1. */
enum tc_etmv2_pipestat {
	tc_etmv2_ps_ie = 0, tc_etmv2_ps_de = 1, tc_etmv2_ps_in = 2, tc_etmv2_ps_dn = 3,
	tc_etmv2_ps_wt = 4, tc_etmv2_ps_dw = 5, tc_etmv2_ps_tr = 6, tc_etmv2_ps_td = 7,
	tc_etmv2_ps_ptie = 8, tc_etmv2_ps_ptde = 9, tc_etmv2_ps_ptin = 10, tc_etmv2_ps_ptdn = 11,
	tc_etmv2_ps_pnie = 12, tc_etmv2_ps_pnde = 13, tc_etmv2_ps_pnin = 14, tc_etmv2_ps_pndn = 15
};

enum tc_etmv2_isa { tc_etmv2_isa_arm = 0, tc_etmv2_isa_thumb = 1 };
enum tc_etmv2_phantom { tc_etmv2_phantom_none = 0, tc_etmv2_phantom_taken = 1, tc_etmv2_phantom_not_taken = 2 };

#define TC_ETMV2_STATUS_GAP 0xff   /* S of a gap record: "-" */

/* One L1 line: a cycle's item, or one of its packets (kinds tc_etmv2_data and later), at the
 * cycle's offset. Which fields mean something depends on the kind. */
struct tc_etmv2_record {
	struct tc_item h;          /* size = sizeof, protocol = tc_proto_etmv2, kind, offset: the cycle's record */
	uint64_t pkt;              /* record of the group's first byte (has_pkt) */
	uint8_t status;            /* S: the PIPESTAT the item stands for, or TC_ETMV2_STATUS_GAP */
	uint8_t has_pkt;
	uint8_t phantom;           /* enum tc_etmv2_phantom */
	uint8_t tfo_value;         /* tfo: 0..95; implied: reason b00 (ETM2-P13) */
	uint8_t implied;
	/* packets */
	uint8_t a, tag;            /* +data, +miss: the A bit; +miss, +miss-data: TT */
	uint8_t has_daddr, daddr_unknown;
	uint32_t daddr;
	uint8_t has_value, vsize;
	uint32_t value;
	uint8_t has_ctxid;
	uint32_t ctxid;
	uint8_t has_addr, isa, npkts, has_e, e;
	uint32_t addr;             /* +branch, +tfo-packet */
	uint8_t reason, lsip;      /* +tfo-packet */
	uint8_t has_cur, cur_isa;
	uint32_t cur;
	uint8_t error;             /* enum tc_etmv2_error */
	uint8_t warning, field, bits;
};

/* ---- The decoder (etmv2_decoder.c) --------------------------------------- */

struct tc_etmv2_sink {
	void *ctx;
	void (*item)(void *ctx, const struct tc_etmv2_record *r);
};

enum { tc_etmv2_invalid = -2, tc_etmv2_finished = -3 };

struct tc_etmv2_decoder;

/* NULL for a NULL or invalid configuration or when out of memory. ETMv2's L1 needs no image
 * (L9090). */
struct tc_etmv2_decoder *tc_etmv2_alloc(const struct tc_etmv2_config *cfg, const struct tc_etmv2_sink *sink);
/* Bytes of the sample file, in pieces of any size. 0, tc_etmv2_invalid or tc_etmv2_finished. */
int tc_etmv2_feed(struct tc_etmv2_decoder *d, const uint8_t *data, size_t len);
int tc_etmv2_finish(struct tc_etmv2_decoder *d);
void tc_etmv2_free(struct tc_etmv2_decoder *d);

/* ---- The L1 text (etmv2_text.c) ------------------------------------------- */

extern const char *const tc_etmv2_error_names[tc_etmv2_err_count];
extern const char *const tc_etmv2_warning_names[tc_etmv2_warn_count];
const char *tc_etmv2_kind_name(int kind);
/* Writes one line (no newline) like snprintf; returns the length it needed. */
int tc_etmv2_format(char *buf, size_t size, const struct tc_etmv2_record *r);
/* Reads one line as tc_etmv2_format writes it; 0, or -1 with the reason in err. */
int tc_etmv2_parse_text(const char *line, struct tc_etmv2_record *r, char *err, size_t errlen);

/* ---- L3 (etmv2_analyze.c) -------------------------------------------------- */

/* The L1 items, in order, walked over the image and written as the shared L3 items
 * (reference/etmv1/FORMAT.md "L3"). NULL for a NULL or invalid configuration. */
struct tc_etmv2_analyzer;
struct tc_etmv2_analyzer *tc_etmv2_analyzer_alloc(const struct tc_etmv2_config *cfg,
						  void (*l3)(void *ctx, const struct tc_l3 *x), void *ctx);
void tc_etmv2_analyzer_set_image(struct tc_etmv2_analyzer *a, const struct tc_image *img);
void tc_etmv2_analyze(struct tc_etmv2_analyzer *a, const struct tc_etmv2_record *r);
/* The end of the items: the range being built and the most recent instruction are written. */
void tc_etmv2_analyze_flush(struct tc_etmv2_analyzer *a);
void tc_etmv2_analyzer_free(struct tc_etmv2_analyzer *a);
/* One L3 line with ETMv2's error names (reference/l3text.c). */
int tc_etmv2_format_l3(char *buf, size_t size, const struct tc_l3 *x);

#ifdef __cplusplus
}
#endif

#endif
