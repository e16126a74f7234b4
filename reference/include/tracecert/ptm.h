/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/ptm.h — PFT/PTM reference decoder: packets (L1) and instructions (L3) (ARM IHI 0035B). */
#ifndef TRACECERT_PTM_H
#define TRACECERT_PTM_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Static trace-unit configuration: what the decoder must be told because
 * the byte stream does not say it. Register bits as the PTM programmers'
 * model names them (reference/ptm/ERRATA.md PTM-P1 for where each comes
 * from). tc_ptm_config_default() gives the defaults listed. */
struct tc_ptm_config {
	int version;           /* ETMIDR[7:4] minor revision of PFT: 0 = PFTv1.0, 1 = PFTv1.1 (default 1).
				* PFTv1.0 has no VMID packet: header 0x3C is reserved (PTM-P2) */
	int cycle_accurate;    /* ETMCR[12] cycle-accurate tracing: atoms, branch address packets,
				* I-syncs (reason != periodic) and timestamps carry a cycle count (default 0) */
	int branch_broadcast;  /* ETMCR[8] branch output: taken direct branches are traced by branch
				* address packets too; decoding does not change (default 0) */
	int return_stack;      /* ETMCR[29] return stack enabled (B.3.2 "if return stack is enabled") (default 0) */
	int timestamps;        /* ETMCR[28] timestamps enabled; the packet decodes either way (default 0) */
	int contextid_size;    /* ETMCR[15:14] ContextIDSize as bytes: 0, 1, 2 or 4 (default 0) */
	int vmid;              /* ETMCR[30] VMID tracing enabled; the packet decodes either way (default 0) */
	int ts64;              /* ETMCCER[29] timestamp size: 0 = 48 bits, 1 = 64 bits (default 0) */
	int ts_binary;         /* ETMCCER[28] timestamp encoding: 1 = natural binary, 0 = Gray code (default 1) */
	uint32_t walk_limit;   /* L3: most instructions one packet may walk; 0 = 1048576 */
};

/* Sets the defaults: version 1, everything else 0 except ts_binary 1. */
void tc_ptm_config_default(struct tc_ptm_config *cfg);

/* Keys and registers by name: tracecert/ptm_config.h and the shared
 * builder of tracecert/protocol.h. */

/* Error classes (reference/ptm/FORMAT.md "Error classes"). */
enum tc_ptm_error {
	tc_ptm_err_none = 0,
	tc_ptm_err_reserved_header,  /* a header byte with no packet (Table 4.1) */
	tc_ptm_err_reserved_field,   /* a reserved value inside a payload */
	tc_ptm_err_truncated,        /* the stream ends inside a packet */
	tc_ptm_err_bad_async,        /* 00 not followed by zeros up to 0x80 as an A-sync */
	tc_ptm_err_count
};

/* Warning classes (TC-R1 of reference/ete/ERRATA.md applied to PTM). */
enum tc_ptm_warning {
	tc_ptm_warn_none = 0,
	tc_ptm_warn_res0,            /* a payload bit the text does not assign is 1; it was ignored */
	tc_ptm_warn_ignored_field,   /* a bit the layout fixes to a constant differs from it; it was ignored
				      * (bits: the field as read) */
	tc_ptm_warn_count
};

/* The fields a warning names (reference/ptm/FORMAT.md "Warnings"). */
enum tc_ptm_warn_field {
	tc_ptm_wf_none = 0,
	tc_ptm_wf_atom,              /* one-atom header bit 2 */
	tc_ptm_wf_addr5,             /* bit 7 of a fifth address byte */
	tc_ptm_wf_addr_last,         /* waypoint update: bit 6 of a last address byte 2-4 */
	tc_ptm_wf_exc0,              /* exception information byte 0 bit 5 */
	tc_ptm_wf_exc1,              /* exception information byte 1 bits 7:6 */
	tc_ptm_wf_wp_info,           /* waypoint update information byte, all bits but 6 */
	tc_ptm_wf_isync_info,        /* I-sync information byte bit 7 */
	tc_ptm_wf_cc_first,          /* first cycle-count byte after a payload: bits 7, 1, 0 */
	tc_ptm_wf_cc_last,           /* fifth cycle-count byte bit 7 */
	tc_ptm_wf_ts_last,           /* seventh byte of a 48-bit timestamp, bits 7:6 */
	tc_ptm_wf_wpu_first,         /* waypoint update: bit 0 of the first address byte is 0
				      * (the branch header's fixed 1, ignored-field, PTM-P25) */
	tc_ptm_wf_isync_info0,       /* I-sync information byte bit 0 is 0 (IHI 0014: always 1;
				      * ignored-field, PTM-P8) */
	tc_ptm_wf_count
};

/* Instruction set states a PTM traces (I-sync and branch address packets). */
enum tc_ptm_isa { tc_ptm_isa_arm = 0, tc_ptm_isa_thumb, tc_ptm_isa_thumbee, tc_ptm_isa_jazelle, tc_ptm_isa_count };

/* Return codes of the API functions (caller errors only: decode errors are
 * reported in-band as error packets and L3 items). */
enum tc_ptm_status {
	tc_ptm_ok = 0,
	tc_ptm_invalid = -1,   /* NULL argument or bad configuration */
	tc_ptm_nomem = -2,
	tc_ptm_finished = -3   /* feed after tc_ptm_finish */
};

/* L1: packet kinds (IHI 0035B Table 4.1 "Packet formats"). */
enum tc_ptm_pkt_kind {
	tc_ptm_pkt_async, tc_ptm_pkt_isync, tc_ptm_pkt_atom, tc_ptm_pkt_branch,
	tc_ptm_pkt_waypoint, tc_ptm_pkt_trigger, tc_ptm_pkt_context_id, tc_ptm_pkt_vmid,
	tc_ptm_pkt_timestamp, tc_ptm_pkt_exception_return, tc_ptm_pkt_ignore,
	tc_ptm_pkt_error,
	tc_ptm_pkt_warning,    /* follows the packet it is about (same offset and header) */
	tc_ptm_pkt_count
};

/* One packet, fields resolved against the parser state (LastState). Which
 * fields mean something depends on the kind (reference/ptm/FORMAT.md). */
struct tc_ptm_packet {
	struct tc_item h;      /* size = sizeof, protocol = tc_proto_ptm, kind, offset of the header byte */
	uint8_t header;
	uint8_t error;         /* enum tc_ptm_error (kind error) */
	uint8_t warning;       /* enum tc_ptm_warning (kind warning) */
	uint8_t field;         /* enum tc_ptm_warn_field (kind warning) */
	uint8_t natoms;        /* atom */
	uint8_t isa;           /* isync, branch, waypoint: enum tc_ptm_isa */
	uint8_t ns;            /* isync, branch: Non-secure after the packet */
	uint8_t hyp;           /* isync, branch: Hyp mode after the packet */
	uint8_t reason;        /* isync: 0 periodic, 1 trace enabled, 2 restart after overflow, 3 debug exit */
	uint8_t has_exception; /* branch: exception information present */
	uint8_t has_cc;        /* a cycle count is present */
	uint8_t has_ctxid;     /* isync: context ID bytes present */
	uint16_t exception;    /* branch: Exception[8:0] */
	uint32_t atoms;        /* bit i = atom i, oldest first; 1 = E */
	uint32_t address;      /* isync, branch, waypoint */
	uint32_t context_id;   /* isync, context-id */
	uint32_t vmid;         /* vmid */
	uint32_t cc;           /* cycle count */
	uint64_t value;        /* timestamp; warning: the ignored bits */
};

/* Output callbacks; any may be NULL. Called synchronously from feed/finish. */
struct tc_ptm_sink {
	void *ctx;
	void (*packet)(void *ctx, const struct tc_ptm_packet *p);   /* L1 */
	void (*l3)(void *ctx, const struct tc_l3 *x);               /* L3 (needs an image) */
};

struct tc_image;
struct tc_ptm_decoder;

/* Allocates a decoder; NULL for a NULL or invalid configuration or when
 * memory is short. Memory is fixed: it never depends on the trace length. */
struct tc_ptm_decoder *tc_ptm_alloc(const struct tc_ptm_config *cfg, const struct tc_ptm_sink *sink);

/* Feeds len bytes; any chunking gives the same output. Returns 0,
 * tc_ptm_invalid (NULL decoder, NULL data with len > 0) or tc_ptm_finished. */
int tc_ptm_feed(struct tc_ptm_decoder *d, const uint8_t *data, size_t len);

/* End of trace: a packet cut off is reported as truncated; what L3 holds
 * is output. Returns 0, tc_ptm_invalid or tc_ptm_finished. */
int tc_ptm_finish(struct tc_ptm_decoder *d);

void tc_ptm_free(struct tc_ptm_decoder *d);

/* The program image L3 reads (must outlive the decoder; NULL: none).
 * Returns 0 or tc_ptm_invalid. */
int tc_ptm_set_image(struct tc_ptm_decoder *d, const struct tc_image *image);

/* Bytes skipped before the first A-sync and while resynchronising. */
uint64_t tc_ptm_skipped(const struct tc_ptm_decoder *d);

/* Text forms (reference/ptm/FORMAT.md; L3: the shared L3 text of
 * reference/L3FORMAT.md). Each writes at
 * most size bytes including the NUL and returns the length it needed. */
int tc_ptm_format_packet(char *buf, size_t size, const struct tc_ptm_packet *p);
int tc_ptm_format_l3(char *buf, size_t size, const struct tc_l3 *x);
/* The one parser of the L1 text: reads one line exactly as
 * tc_ptm_format_packet writes it (no comment, no line break, single blanks,
 * numbers without leading zeros; the values of reference/ptm/FORMAT.md "L1":
 * booleans 0 or 1, reason 0..3, exc up to 0x1ff, 1..32 atoms, error and
 * warning classes other than "none") into *p, zeroed but for the item header
 * (size, protocol, kind, offset) and the fields the line shows. Returns 0,
 * or -1 with err saying "column C: expected …, found '…'" (C from 1); *p
 * then means nothing. */
int tc_ptm_parse_packet_text(const char *line, struct tc_ptm_packet *p, char *err, size_t errlen);
const char *tc_ptm_pkt_kind_name(int kind);
const char *tc_ptm_error_name(int error);
extern const char *const tc_ptm_error_names[tc_ptm_err_count];
extern const char *const tc_ptm_warning_names[tc_ptm_warn_count];
const char *tc_ptm_warning_name(int warning);
const char *tc_ptm_warning_field_name(int field);
const char *tc_ptm_isa_name(int isa);
const char *tc_ptm_l3_kind_name(int kind);  /* the shared L3 kind names, exception-return and trigger included */

#ifdef __cplusplus
}
#endif

#endif
