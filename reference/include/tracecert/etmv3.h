/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/etmv3.h — ETMv3 reference decoder: packets (L1) and instructions (L3) (ARM IHI 0014, chapter 7). */
#ifndef TRACECERT_ETMV3_H
#define TRACECERT_ETMV3_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Static trace-unit configuration: what the decoder must be told because
 * the byte stream does not say it. Register bits as IHI 0014 §3.5 names
 * them (reference/etmv3/CONFIG.md; reference/etmv3/ERRATA.md for every
 * decision). tc_etmv3_config_default() gives the defaults listed. */
struct tc_etmv3_config {
	int version;           /* ETMIDR[7:4] minor version of ETMv3: 0..5 for ETMv3.0..ETMv3.5 (default 5).
				* Packets and fields a version lacks are errors (class not-in-version) */
	int cycle_accurate;    /* ETMCR[12]: P-headers of Table 7-3 instead of Table 7-2 (default 0) */
	int contextid_size;    /* ETMCR[15:14] ContextIDSize as bytes: 0, 1, 2 or 4 (default 0) */
	int data_address;      /* ETMCR[3]: data addresses are traced (data access b10, b11) (default 0) */
	int data_value;        /* ETMCR[2]: data values are traced (data access b01, b11) (default 0) */
	int data_only;         /* ETMCR[20] data-only mode (ETMv3.1 and later): I-syncs carry no address,
				* no instruction trace (default 0) */
	int branch_output;     /* ETMCR[8]: every branch is traced by a branch address packet (default 0) */
	int alt_branch;        /* ETMIDR[20]: the alternative branch address compression scheme
				* (ETMv3.4 and later) (default 0) */
	int thumb2_one;        /* ETMIDR[18]: a 32-bit Thumb instruction is traced as one instruction;
				* 0: as two (default 1) */
	int profile_m;         /* the core is ARMv7-M (Table 7-17 exception numbers); no register says it
				* (default 0: A or R profile, Table 7-12) */
	int timestamps;        /* ETMCR[28] timestamps enabled (ETMv3.5); the packet decodes either way (default 0) */
	int vmid;              /* ETMCR[30] VMID tracing enabled (ETMv3.5); the packet decodes either way (default 0) */
	int ts64;              /* ETMCCER[29] timestamp size (ETMv3.5): 1 = 64 bits, 0 = 48 bits (default 0) */
	int ts_binary;         /* ETMCCER[28] timestamp encoding (ETMv3.5): 1 = natural binary, 0 = Gray (default 1) */
};

/* Sets the defaults listed above. */
void tc_etmv3_config_default(struct tc_etmv3_config *cfg);

/* Keys and registers by name: tracecert/etmv3_config.h and the shared
 * builder of tracecert/protocol.h. */

/* Error classes (reference/etmv3/FORMAT.md "Error classes"). */
enum tc_etmv3_error {
	tc_etmv3_err_none = 0,
	tc_etmv3_err_reserved_header,  /* a header byte with no packet in any version (Tables 7-1, 7-2, 7-3) */
	tc_etmv3_err_reserved_field,   /* a reserved value inside a payload */
	tc_etmv3_err_truncated,        /* the stream ends inside a packet */
	tc_etmv3_err_bad_async,        /* 00 not followed by zeros up to 0x80 as an A-sync */
	tc_etmv3_err_not_in_version,   /* a header or field the configured version does not have */
	tc_etmv3_err_bad_mode,         /* a packet the configured trace mode never produces */
	tc_etmv3_err_no_address,       /* L3: an E or N atom before the branch address packet of a taken
					* indirect branch (ETM3-P27) */
	tc_etmv3_err_count
};

/* Warning classes (TC-R1 of reference/ete/ERRATA.md applied to ETMv3). */
enum tc_etmv3_warning {
	tc_etmv3_warn_none = 0,
	tc_etmv3_warn_res0,            /* a payload bit the text does not assign is 1; it was ignored */
	tc_etmv3_warn_ignored_field,   /* a bit the layout fixes to a constant differs from it; ignored */
	tc_etmv3_warn_count
};

/* The fields a warning names (reference/etmv3/FORMAT.md "Warnings"). */
enum tc_etmv3_warn_field {
	tc_etmv3_wf_none = 0,
	tc_etmv3_wf_cc_last,           /* fifth cycle-count byte, bits 7:4 */
	tc_etmv3_wf_isync_info,        /* I-sync information byte: bits the configured version leaves reserved */
	tc_etmv3_wf_isync_info0,       /* I-sync information byte bit 0 is 0 (always 1, §7.11.2) */
	tc_etmv3_wf_exc0,              /* exception information byte 0: bits the configured version leaves reserved */
	tc_etmv3_wf_exc1,              /* exception information byte 1: SBZ bits */
	tc_etmv3_wf_exc2,              /* exception information byte 2: SBZ bits 5:4 */
	tc_etmv3_wf_exc2_last,         /* exception information byte 2 bit 7 is 1 (a fixed 0: the last byte) */
	tc_etmv3_wf_exc2_id,           /* the byte after byte 1 has bit 6 clear (byte 2's fixed 1) */
	tc_etmv3_wf_lsip_first,        /* LSiP current address: bit 0 of its first byte is 0 (a branch header's 1) */
	tc_etmv3_wf_lsip_exc,          /* LSiP current address: an exception or Can in its exception byte */
	tc_etmv3_wf_daddr_last,        /* fifth data-address byte: bits no text assigns */
	tc_etmv3_wf_data_size,         /* Normal data size bits with data value tracing off */
	tc_etmv3_wf_ts_last,           /* last timestamp byte: bits above the timestamp size */
	tc_etmv3_wf_count
};

/* Instruction set states (I-sync, branch address packets). */
enum tc_etmv3_isa { tc_etmv3_isa_arm = 0, tc_etmv3_isa_thumb, tc_etmv3_isa_thumbee, tc_etmv3_isa_jazelle,
		    tc_etmv3_isa_count };

/* How a branch address packet carries exception information. */
enum tc_etmv3_exc_form {
	tc_etmv3_exc_none = 0,         /* no exception information */
	tc_etmv3_exc_bytes,            /* Exception information bytes (Table 7-10, Figure 7-25) */
	tc_etmv3_exc_byte5             /* the deprecated ARM form in the fifth address byte (b1CEEExxx, Table 7-9) */
};

/* Return codes of the API functions (caller errors only: decode errors are
 * reported in-band as error packets and L3 items). */
enum tc_etmv3_status {
	tc_etmv3_ok = 0,
	tc_etmv3_invalid = -1,   /* NULL argument or bad configuration */
	tc_etmv3_nomem = -2,
	tc_etmv3_finished = -3   /* feed after tc_etmv3_finish */
};

/* L1: packet kinds (Table 7-1 "Header encodings"; ETMv3.5's timestamp and VMID). */
enum tc_etmv3_pkt_kind {
	tc_etmv3_pkt_async, tc_etmv3_pkt_cycle_count, tc_etmv3_pkt_isync, tc_etmv3_pkt_trigger,
	tc_etmv3_pkt_branch, tc_etmv3_pkt_atom,
	tc_etmv3_pkt_data, tc_etmv3_pkt_ooo_data, tc_etmv3_pkt_placeholder, tc_etmv3_pkt_value_not_traced,
	tc_etmv3_pkt_data_suppressed, tc_etmv3_pkt_store_failed,
	tc_etmv3_pkt_context_id, tc_etmv3_pkt_vmid, tc_etmv3_pkt_timestamp,
	tc_etmv3_pkt_exception_entry, tc_etmv3_pkt_exception_exit, tc_etmv3_pkt_ignore,
	tc_etmv3_pkt_error,
	tc_etmv3_pkt_warning,    /* follows the packet it is about (same offset and header) */
	tc_etmv3_pkt_count
};

/* Most atoms one P-header carries (format 1 without cycle accuracy: 15 E
 * and one N; with it, 7 (W E) and one (W N)). */
#define TC_ETMV3_MAX_ATOMS 16

/* One packet, fields resolved against the parser state (the last broadcast
 * instruction address and its instruction set, the last data address).
 * Which fields mean something depends on the kind (reference/etmv3/FORMAT.md). */
struct tc_etmv3_packet {
	struct tc_item h;      /* size = sizeof, protocol = tc_proto_etmv3, kind, offset of the header byte */
	uint8_t header;
	uint8_t error;         /* enum tc_etmv3_error (kind error) */
	uint8_t warning;       /* enum tc_etmv3_warning (kind warning) */
	uint8_t field;         /* enum tc_etmv3_warn_field (kind warning) */
	uint8_t natoms;        /* atom: symbols, 0..TC_ETMV3_MAX_ATOMS */
	uint8_t isa;           /* isync, branch: enum tc_etmv3_isa after the packet */
	uint8_t ns;            /* isync, branch: Non-secure after the packet */
	uint8_t hyp;           /* isync, branch: Hyp mode after the packet (ETMv3.5) */
	uint8_t reason;        /* isync: 0 periodic, 1 trace enabled, 2 restart after overflow, 3 debug exit */
	uint8_t lsip;          /* isync: a Load/Store in Progress I-sync (data_insn holds the data instruction) */
	uint8_t has_address;   /* isync: an instruction address is present (not data-only);
				* data, placeholder, value-not-traced: a data address is present */
	uint8_t has_cc;        /* isync: a cycle count is present (header 70) */
	uint8_t has_ctxid;     /* isync: context ID bytes present */
	uint8_t exc_form;      /* branch: enum tc_etmv3_exc_form */
	uint8_t cancel;        /* branch: Can (the most recently traced instruction is cancelled) */
	uint8_t resume;        /* branch: Resume[3:0] (ARMv7-M, ETMv3.4) */
	uint8_t be;            /* data, placeholder, value-not-traced with an address: the BE bit */
	uint8_t has_value;     /* data, ooo-data: a value is present */
	uint8_t size;          /* data, ooo-data: value bytes 0, 1, 2 or 4 (the SS field) */
	uint8_t tag;           /* ooo-data, placeholder: TT, 1..3 */
	uint8_t ts_r;          /* timestamp: R, the clock frequency changed */
	uint8_t data_isa;      /* isync with lsip: the data instruction's instruction set (information byte, T bit) */
	uint8_t data_ns;       /* isync with lsip: the data instruction's security state (the information byte's NS) */
	uint8_t data_hyp;      /* isync with lsip: the data instruction's Hyp state (the information byte's Hyp) */
	uint16_t exception;    /* branch: Exception[8:0] (exc_form bytes) or EEE (exc_form byte5) */
	uint32_t atoms;        /* atom: bit i = symbol i (oldest first) is E */
	uint32_t waits;        /* atom: bit i = symbol i is W (a cycle boundary); then bit i of atoms is 0 */
	uint32_t address;      /* isync (the instruction address; LSiP: the current one), branch */
	uint32_t data_insn;    /* isync with lsip: the data instruction's address */
	uint32_t data_address; /* data, placeholder, value-not-traced with has_address */
	uint32_t value;        /* data, ooo-data with has_value */
	uint32_t context_id;   /* isync, context-id */
	uint32_t vmid;         /* vmid */
	uint32_t cc;           /* cycle-count, isync with has_cc: 0 = the counter overflowed (§7.3.4) */
	uint64_t ts;           /* timestamp, after bit replacement and Gray decoding; warning: the ignored bits */
};

/* Output callbacks; any may be NULL. Called synchronously from feed/finish. */
struct tc_etmv3_sink {
	void *ctx;
	void (*packet)(void *ctx, const struct tc_etmv3_packet *p);   /* L1 */
	void (*l3)(void *ctx, const struct tc_l3 *x);                 /* L3 (needs an image) */
};

struct tc_image;
struct tc_etmv3_decoder;

/* Allocates a decoder; NULL for a NULL or invalid configuration or when
 * memory is short. Memory is fixed: it never depends on the trace length. */
struct tc_etmv3_decoder *tc_etmv3_alloc(const struct tc_etmv3_config *cfg, const struct tc_etmv3_sink *sink);

/* Feeds len bytes; any chunking gives the same output. Returns 0,
 * tc_etmv3_invalid (NULL decoder, NULL data with len > 0) or tc_etmv3_finished. */
int tc_etmv3_feed(struct tc_etmv3_decoder *d, const uint8_t *data, size_t len);

/* End of trace: a packet cut off is reported as truncated; what L3 holds
 * is output. Returns 0, tc_etmv3_invalid or tc_etmv3_finished. */
int tc_etmv3_finish(struct tc_etmv3_decoder *d);

void tc_etmv3_free(struct tc_etmv3_decoder *d);

/* The program image L3 reads (must outlive the decoder; NULL: none). Its
 * bytes must not change while it is set: the decoder remembers the
 * instructions it decoded from them, and forgets them when an image (the
 * same or another) is set again. Returns 0 or tc_etmv3_invalid. */
int tc_etmv3_set_image(struct tc_etmv3_decoder *d, const struct tc_image *image);

/* Bytes skipped before the first A-sync and while resynchronising. */
uint64_t tc_etmv3_skipped(const struct tc_etmv3_decoder *d);

/* Text forms (reference/etmv3/FORMAT.md; L3: the shared L3 text of
 * reference/L3FORMAT.md). Each writes at most size bytes including the NUL
 * and returns the length it needed. */
int tc_etmv3_format_packet(char *buf, size_t size, const struct tc_etmv3_packet *p);
int tc_etmv3_format_l3(char *buf, size_t size, const struct tc_l3 *x);
/* The one parser of the L1 text: reads one line exactly as
 * tc_etmv3_format_packet writes it into *p, zeroed but for the item header
 * and the fields the line shows. Returns 0, or -1 with err saying
 * "column C: expected …, found '…'" (C from 1). */
int tc_etmv3_parse_packet_text(const char *line, struct tc_etmv3_packet *p, char *err, size_t errlen);
const char *tc_etmv3_pkt_kind_name(int kind);
const char *tc_etmv3_error_name(int error);
extern const char *const tc_etmv3_error_names[tc_etmv3_err_count];
extern const char *const tc_etmv3_warning_names[tc_etmv3_warn_count];
const char *tc_etmv3_warning_name(int warning);
const char *tc_etmv3_warning_field_name(int field);
const char *tc_etmv3_isa_name(int isa);

#ifdef __cplusplus
}
#endif

#endif
