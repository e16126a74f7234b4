/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/etmv1.h — ETMv1 reference decoder at L1 (ARM IHI 0014 chapter 5; reference/etmv1/FORMAT.md
 * "Sample file" and "L1", the decisions of reference/etmv1/ERRATA.md). */
#ifndef TRACECERT_ETMV1_H
#define TRACECERT_ETMV1_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"
#include "tracecert/image.h"
#include "tracecert/etmv1_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error classes (FORMAT.md "Error classes"; `jazelle` is L3 only). */
enum tc_etmv1_error {
	tc_etmv1_err_none = 0,
	tc_etmv1_err_bad_header,       /* ETMC-F5 */
	tc_etmv1_err_bad_record,       /* ETMC-F5 */
	tc_etmv1_err_truncated,        /* ETM1-P22 */
	tc_etmv1_err_unowned_packets,  /* ETM1-P3 */
	tc_etmv1_err_bad_apo,          /* TD in an APO cycle, ETM1-P6 */
	tc_etmv1_err_apo_mismatch,     /* ETM1-P8, ETM1-P28 */
	tc_etmv1_err_unknown_length,   /* LDC, STC: ETM1-P10 */
	tc_etmv1_err_reserved_reason,  /* Table 5-3 b101-b111 */
	tc_etmv1_err_not_in_version,   /* b100 before ETMv1.2, ETM1-P15 */
	tc_etmv1_err_too_many_pending, /* more than 1024 packets owed, ETM1-P29 */
	tc_etmv1_err_jazelle,          /* L3 only, ETM1-P23 */
	tc_etmv1_err_count
};

enum tc_etmv1_warning { tc_etmv1_warn_none = 0, tc_etmv1_warn_res0, tc_etmv1_warn_ignored_field, tc_etmv1_warn_count };

/* The fields a warning names (FORMAT.md "Warnings"). */
enum tc_etmv1_warn_field {
	tc_etmv1_wf_none = 0,
	tc_etmv1_wf_arm_bit1,      /* bit 1 of an ARM branch address, L8157 */
	tc_etmv1_wf_addr5_bit7,    /* bit 7 of a fifth branch-address packet before ETMv1.3, L8183 */
	tc_etmv1_wf_daddr_reason,  /* bits 6:4 of a fifth data-address packet, L8332 */
	tc_etmv1_wf_daddr5_bit7,   /* bit 7 of a fifth data-address packet */
	tc_etmv1_wf_sync_nibble,   /* TRACESYNC on no packet's first cycle, ETM1-P5 */
	tc_etmv1_wf_count
};

/* L1 kinds (FORMAT.md "ETMv1 kinds"). */
enum tc_etmv1_kind {
	tc_etmv1_ie, tc_etmv1_in, tc_etmv1_id, tc_etmv1_be, tc_etmv1_bd,
	tc_etmv1_trigger, tc_etmv1_trace_disabled, tc_etmv1_unassigned, tc_etmv1_gap,
	tc_etmv1_error, tc_etmv1_warning,
	tc_etmv1_kind_count
};

/* PIPESTAT codes, Table 5-1 (L7954-7972). */
enum tc_etmv1_pipestat {
	tc_etmv1_ps_ie = 0, tc_etmv1_ps_id = 1, tc_etmv1_ps_in = 2, tc_etmv1_ps_wt = 3,
	tc_etmv1_ps_be = 4, tc_etmv1_ps_bd = 5, tc_etmv1_ps_tr = 6, tc_etmv1_ps_td = 7
};

enum tc_etmv1_isa { tc_etmv1_isa_arm = 0, tc_etmv1_isa_thumb = 1, tc_etmv1_isa_jazelle = 2 };

#define TC_ETMV1_MAX_VALUES 17     /* an LDM of 16 registers; SWP's two */
#define TC_ETMV1_STATUS_GAP 0xff   /* S of a gap record: "-" */
#define TC_ETMV1_APO_NONE 0xff     /* apo=- (ETM1-P19) */

/* One L1 item. Which fields mean something depends on the kind. */
struct tc_etmv1_record {
	struct tc_item h;          /* size = sizeof, protocol = tc_proto_etmv1, kind, offset: the cycle's record */
	uint64_t pkt;              /* record of the first packet (has_pkt) */
	uint8_t status;            /* S: the PIPESTAT the item stands for, or TC_ETMV1_STATUS_GAP */
	uint8_t has_pkt;
	uint8_t has_daddr, daddr_unknown;
	uint32_t daddr;
	uint8_t nvalues;           /* value=… size=… pairs */
	uint8_t vsize[TC_ETMV1_MAX_VALUES];
	uint64_t value[TC_ETMV1_MAX_VALUES];
	uint8_t has_addr, isa, npkts, has_reason, reason, has_j, j, has_ctxid;
	uint32_t addr;
	uint32_t ctxid;
	uint8_t apo;               /* 0..15 or TC_ETMV1_APO_NONE (branches) */
	uint8_t abandoned, lost;
	uint32_t n;                /* unassigned: packets */
	uint8_t error;             /* enum tc_etmv1_error */
	uint8_t warning, field, bits;
};

/* ---- The walk L1 asks for value lengths (ETM1-P10) ---------------------- */

/* What the instruction of an item transfers: n values of size[i] bytes. */
struct tc_etmv1_transfers {
	int status;                /* 0 known; 1 no image at the address (or Jazelle); 2 length unknown (LDC, STC) */
	unsigned n;
	uint8_t size[TC_ETMV1_MAX_VALUES];
	int no_address;            /* a CPRT (MCR, MRC, MCRR, MRRC): no data address (L7903, ETM1-P52) */
};

/* The walk (etmv1_walk.c at L3, or a caller's). retire is called for every instruction item
 * (ie, in, id, be, bd) once all its packets are in, in cycle order; transfers is called for an
 * id or bd whose values are traced, after retire of every earlier instruction item, so the walk
 * knows its address. NULL: no image (ETM1-P10). */
struct tc_etmv1_walk {
	void *ctx;
	void (*retire)(void *ctx, const struct tc_etmv1_record *r);
	void (*transfers)(void *ctx, const struct tc_etmv1_record *r, struct tc_etmv1_transfers *t);
};

/* ---- The decoder (etmv1_decoder.c) --------------------------------------- */

struct tc_etmv1_sink {
	void *ctx;
	void (*item)(void *ctx, const struct tc_etmv1_record *r);
};

enum { tc_etmv1_invalid = -2, tc_etmv1_finished = -3 };

struct tc_etmv1_decoder;

/* NULL for a NULL or invalid configuration or when out of memory. walk may be NULL. */
struct tc_etmv1_decoder *tc_etmv1_alloc(const struct tc_etmv1_config *cfg, const struct tc_etmv1_sink *sink,
					const struct tc_etmv1_walk *walk);
/* Bytes of the sample file, in pieces of any size. 0, tc_etmv1_invalid or tc_etmv1_finished. */
int tc_etmv1_feed(struct tc_etmv1_decoder *d, const uint8_t *data, size_t len);
int tc_etmv1_finish(struct tc_etmv1_decoder *d);
void tc_etmv1_free(struct tc_etmv1_decoder *d);

/* ---- The L1 text (etmv1_text.c) ------------------------------------------- */

extern const char *const tc_etmv1_error_names[tc_etmv1_err_count];
extern const char *const tc_etmv1_warning_names[tc_etmv1_warn_count];
const char *tc_etmv1_kind_name(int kind);
/* Writes one line (no newline) like snprintf; returns the length it needed. */
int tc_etmv1_format(char *buf, size_t size, const struct tc_etmv1_record *r);
/* Reads one line as tc_etmv1_format writes it; 0, or -1 with the reason in err. */
int tc_etmv1_parse_text(const char *line, struct tc_etmv1_record *r, char *err, size_t errlen);

/* ---- The walk over an image (etmv1_walk.c) and L3 (etmv1_analyze.c) ------------ */

/* A walk for tc_etmv1_alloc over an image (set later; none: every value is ETM1-P10's no-image
 * case). NULL for an invalid configuration or when out of memory. */
struct tc_etmv1_imagewalk;
struct tc_etmv1_imagewalk *tc_etmv1_imagewalk_alloc(const struct tc_etmv1_config *cfg);
void tc_etmv1_imagewalk_set_image(struct tc_etmv1_imagewalk *w, const struct tc_image *img);
struct tc_etmv1_walk tc_etmv1_imagewalk_callbacks(struct tc_etmv1_imagewalk *w);
void tc_etmv1_imagewalk_free(struct tc_etmv1_imagewalk *w);

/* L3 from the L1 items in the order the decoder writes them (reference/etmv1/FORMAT.md "L3"). */
struct tc_etmv1_analyzer;
struct tc_etmv1_analyzer *tc_etmv1_analyzer_alloc(const struct tc_etmv1_config *cfg,
						  void (*l3)(void *ctx, const struct tc_l3 *x), void *ctx);
void tc_etmv1_analyzer_set_image(struct tc_etmv1_analyzer *a, const struct tc_image *img);
void tc_etmv1_analyze(struct tc_etmv1_analyzer *a, const struct tc_etmv1_record *r);
/* The range being built, at the end of the input. */
void tc_etmv1_analyze_flush(struct tc_etmv1_analyzer *a);
void tc_etmv1_analyzer_free(struct tc_etmv1_analyzer *a);
/* An L3 item as the shared L3 text writes it, with ETMv1's error names. */
int tc_etmv1_format_l3(char *buf, size_t size, const struct tc_l3 *x);

#ifdef __cplusplus
}
#endif

#endif
