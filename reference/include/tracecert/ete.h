/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/ete.h — ETE reference decoder, stages 1 and 2 (Arm ARM K10.5.2–K10.5.4). */
#ifndef TRACECERT_ETE_H
#define TRACECERT_ETE_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"   /* struct tc_context, struct tc_l3 and its kinds (L3 is protocol-neutral) */

#ifdef __cplusplus
extern "C" {
#endif

/* Error classes (reference/ete/FORMAT.md "Error classes"). */
enum tc_ete_error {
	tc_ete_err_none = 0,
	tc_ete_err_reserved_header,
	tc_ete_err_reserved_extension,
	tc_ete_err_reserved_field,
	tc_ete_err_sbz,
	tc_ete_err_truncated,
	tc_ete_err_field_overflow,
	tc_ete_err_exact_match_index,
	tc_ete_err_commit_overrun,
	tc_ete_err_cancel_overrun,
	tc_ete_err_bad_async,
	tc_ete_err_spec_mismatch,
	tc_ete_err_queue_overflow,
	tc_ete_err_count
};

/* Warning classes (reference/ete/FORMAT.md "Warnings", ERRATA TC-R1): what the
 * text does not assign was set, and was ignored. Never an error; decoding
 * goes on with the state it would have had without the bits. */
enum tc_ete_warning {
	tc_ete_warn_none = 0,
	tc_ete_warn_res0,            /* a payload bit the text does not assign is 1 */
	tc_ete_warn_ignored_field,   /* a field the text does not read in this configuration differs
				      * from the constant the text uses in its place */
	tc_ete_warn_count
};

/* The fields a warning names (tc_ete_warning_field_name). */
enum tc_ete_warn_field {
	tc_ete_wf_none = 0,
	tc_ete_wf_plctl,             /* Trace Info PLCTL */
	tc_ete_wf_info,              /* Trace Info INFO */
	tc_ete_wf_exception,         /* Exception payload byte */
	tc_ete_wf_instrumentation,   /* Instrumentation EL byte (TC-P1) */
	tc_ete_wf_cc_f2_f,           /* Cycle Count format 2 header<0>, COMMOPT=1 */
	tc_ete_wf_cc_f2_aaaa,        /* Cycle Count format 2 payload<7:4>, COMMOPT=1 */
	tc_ete_wf_cc_f3_aa,          /* Cycle Count format 3 header<3:2>, COMMOPT=1 */
	tc_ete_wf_source_address,    /* bit 7 of a long Source Address's low bytes (TC-P9) */
	tc_ete_wf_count
};

/* Return codes of the API functions (caller errors only: decode errors are
 * reported in-band as error packets and elements). */
enum tc_ete_status {
	tc_ete_ok = 0,
	tc_ete_invalid = -1,   /* NULL argument or bad configuration */
	tc_ete_nomem = -2,     /* allocation failed */
	tc_ete_finished = -3   /* feed after tc_ete_finish */
};

/* Static trace-unit configuration (Table K10-1 and later-version options).
 * tc_ete_config_default() documents the defaults. */
struct tc_ete_config {
	uint32_t maxspec;     /* TRCIDR8.MAXSPEC, 0..TC_ETE_MAXSPEC_LIMIT */
	int commopt;          /* TRCIDR0.COMMOPT: 1 = cycle-count packets carry no commit */
	int commtrans;        /* TRCIDR0.COMMTRANS: 0 = Transaction Start is a P0 element */
	int tsmark;           /* 1: header 0x88 is a Timestamp Marker (ETE 1.1+) */
	int ite;              /* 1: header 0x09 is an Instrumentation packet (FEAT_ITE) */
	int rme;              /* 1: context payload bit 3 is NSE instead of SBZ */
	int tf_keep_cc;       /* 1: Transaction Failure keeps the transaction's cycle counts */
	uint32_t queue_cap;   /* resolution-queue capacity; 0 = 4*(maxspec+1)+1024 */
	uint32_t tx_cap;      /* transaction-queue capacity; 0 = 65536 */
	/* Stage 3 (instruction level) only: */
	int wfxmode;          /* TRCIDR2.WFXMODE: 1 = WFI/WFE are P0 instructions */
	int retstack;         /* return stack in use (TRCIDR0.RETSTACK and TRCCONFIGR.RS) */
	uint32_t walk_limit;  /* most instructions one element may walk; 0 = 1048576 */
};

#define TC_ETE_MAXSPEC_LIMIT 65535u

/* Sets every field to its default: maxspec 0, commopt 0, commtrans 0,
 * tsmark 0, ite 0, rme 0, tf_keep_cc 0, queue_cap 0, tx_cap 0 (automatic),
 * wfxmode 0, retstack 0, walk_limit 0 (automatic). */
void tc_ete_config_default(struct tc_ete_config *cfg);

/* Keys and registers by name: tracecert/ete_config.h and the shared
 * builder of tracecert/protocol.h. */


/* L1: packet kinds. */
enum tc_ete_pkt_kind {
	tc_ete_pkt_async, tc_ete_pkt_discard, tc_ete_pkt_overflow,
	tc_ete_pkt_trace_info, tc_ete_pkt_timestamp, tc_ete_pkt_trace_on,
	tc_ete_pkt_exception, tc_ete_pkt_tx_start, tc_ete_pkt_tx_commit,
	tc_ete_pkt_cycle_count, tc_ete_pkt_commit, tc_ete_pkt_cancel,
	tc_ete_pkt_mispredict, tc_ete_pkt_ignore, tc_ete_pkt_event,
	tc_ete_pkt_context, tc_ete_pkt_addr_ctx, tc_ete_pkt_address,
	tc_ete_pkt_q, tc_ete_pkt_source_address, tc_ete_pkt_atom,
	tc_ete_pkt_ts_marker, tc_ete_pkt_instrumentation, tc_ete_pkt_error,
	tc_ete_pkt_warning,   /* L1 only: follows the packet it is about (same offset and header) */
	tc_ete_pkt_count
};

/* One packet with its fields resolved against the parser state. Which
 * fields are meaningful depends on the kind (reference/ete/FORMAT.md, L1). */
struct tc_ete_packet {
	struct tc_item h;     /* h.kind: enum tc_ete_pkt_kind; h.offset: the header byte's */
	uint8_t header;
	uint8_t error;        /* enum tc_ete_error, kind == error */
	uint8_t natoms;       /* atom, mispredict, cancel */
	uint32_t atoms;       /* bit i = atom i, oldest first; 1 = E */
	uint64_t address;     /* exception, addr-ctx, address, q, source-address */
	uint8_t isa;          /* sub-ISA of address: 0 IS0, 1 IS1 */
	uint8_t has_address;  /* q: addressed type; exception: 0 = unknown */
	uint8_t has_context;  /* exception with a context address header */
	uint8_t e;            /* exception E field (1 or 2) */
	uint8_t type;         /* exception TYPE; q TYPE */
	uint8_t mispredict;   /* cancel format 1 M bit; formats 2, 3: 1 */
	uint8_t events;       /* event bit mask */
	uint8_t has_cc;       /* timestamp with cycle count */
	uint8_t cc_unknown;   /* cycle count F1 with U=1 */
	uint8_t cc_enabled;   /* trace info INFO<0> */
	uint8_t in_tx;        /* trace info INFO<6> */
	uint8_t has_wndw;     /* trace info WNDW section present */
	uint8_t warning;      /* enum tc_ete_warning, kind == warning */
	uint8_t field;        /* enum tc_ete_warn_field, kind == warning */
	struct tc_context ctx;
	uint64_t value;       /* timestamp, instrumentation value; warning: the bits */
	uint64_t count;       /* commit/cancel/q count; cycle count; timestamp cc */
	uint64_t commit;      /* cycle-count packet: elements committed */
	uint32_t cct;         /* trace info cycle count threshold */
	uint32_t spec;        /* trace info speculation depth */
	uint32_t wndw;        /* trace info WNDW */
};

/* s1/L2: element kinds (K10.5.6.1). */
enum tc_ete_elem_kind {
	tc_ete_elem_trace_info, tc_ete_elem_trace_on, tc_ete_elem_discard,
	tc_ete_elem_overflow, tc_ete_elem_timestamp, tc_ete_elem_cycle_count,
	tc_ete_elem_commit, tc_ete_elem_cancel, tc_ete_elem_mispredict,
	tc_ete_elem_atom, tc_ete_elem_q, tc_ete_elem_exception,
	tc_ete_elem_event, tc_ete_elem_context, tc_ete_elem_target_address,
	tc_ete_elem_source_address, tc_ete_elem_trans_start,
	tc_ete_elem_trans_commit, tc_ete_elem_trans_failure,
	tc_ete_elem_ts_marker, tc_ete_elem_instrumentation,
	tc_ete_elem_error, tc_ete_elem_unresolved,
	tc_ete_elem_count
};

/* One element. */
struct tc_ete_elem {
	struct tc_item h;     /* h.kind: enum tc_ete_elem_kind; h.offset: the packet that emitted it */
	uint64_t address;     /* target/source address; exception address */
	uint64_t value;       /* timestamp; instrumentation value */
	uint64_t count;       /* commit/cancel/q/cycle count; timestamp cc; event number; unresolved n */
	struct tc_context ctx;
	uint32_t cct;         /* trace info */
	uint32_t spec;        /* trace info */
	uint8_t isa;
	uint8_t atom_e;       /* atom: 1 = E, 0 = N */
	uint8_t type;         /* exception type */
	uint8_t unknown;      /* cycle count / timestamp cc unknown */
	uint8_t cc_enabled;   /* trace info */
	uint8_t in_tx;        /* trace info */
	uint8_t error;        /* enum tc_ete_error */
};

/* L3 items are struct tc_l3 (tracecert/trace.h); .error is an enum tc_ete_error. */


/* Output callbacks; any may be NULL. Called synchronously from feed/finish. */
struct tc_ete_sink {
	void *ctx;
	void (*packet)(void *ctx, const struct tc_ete_packet *p);   /* L1 */
	void (*s1)(void *ctx, const struct tc_ete_elem *e);         /* stage-1 Emit() stream */
	void (*l2)(void *ctx, const struct tc_ete_elem *e);         /* stage-2 output */
	void (*l3)(void *ctx, const struct tc_l3 *x);           /* stage-3 output (needs an image) */
};

struct tc_image;

struct tc_ete_decoder;

/* Allocates a decoder. Returns NULL for a NULL or invalid configuration or
 * when memory is short. Memory is fixed at this point: it depends on the
 * configuration, never on the trace length. */
struct tc_ete_decoder *tc_ete_alloc(const struct tc_ete_config *cfg, const struct tc_ete_sink *sink);

/* Feeds len bytes (any chunking gives the same output). Returns 0, or
 * tc_ete_invalid (NULL decoder, NULL data with len > 0), tc_ete_finished. */
int tc_ete_feed(struct tc_ete_decoder *d, const uint8_t *data, size_t len);

/* End of trace: a packet cut off is reported as truncated, stage 2 is
 * flushed (TC-P16). Returns 0, tc_ete_invalid or tc_ete_finished. */
int tc_ete_finish(struct tc_ete_decoder *d);

void tc_ete_free(struct tc_ete_decoder *d);

/* The program image stage 3 reads (K10.5.6.3.11 ProgramImage). The image
 * must outlive the decoder; NULL means no image (every address reports
 * no-image). Call before the first feed. The decoder remembers decoded
 * instructions: while it uses the image, regions may be added but not
 * freed or replaced (call tc_ete_set_image again after doing so). Returns
 * 0 or tc_ete_invalid. */
int tc_ete_set_image(struct tc_ete_decoder *d, const struct tc_image *image);

/* Bytes skipped before the first A-sync (and while resynchronising). */
uint64_t tc_ete_skipped(const struct tc_ete_decoder *d);

/* Text forms (reference/ete/FORMAT.md). Each writes at most size bytes including
 * the terminating NUL and returns the length it needed (like snprintf). */
int tc_ete_format_packet(char *buf, size_t size, const struct tc_ete_packet *p);
int tc_ete_format_elem(char *buf, size_t size, const struct tc_ete_elem *e);
int tc_ete_format_l3(char *buf, size_t size, const struct tc_l3 *x);
/* The one parser of the L1 text: reads one line exactly as
 * tc_ete_format_packet writes it (no comment, no line break, single blanks,
 * numbers without leading zeros; the values of reference/ete/FORMAT.md "L1":
 * booleans 0 or 1, el 0..3, e 1 or 2, 1..32 atoms, "-" for none in cancel and
 * mispredict, event numbers 0..3 ascending, error and warning classes other
 * than "none") into *p, made as tc_ete_packet_init makes it, with the fields
 * the line shows. Returns 0, or -1 with err saying "column C: expected …,
 * found '…'" (C from 1); *p then means nothing. */
int tc_ete_parse_packet_text(const char *line, struct tc_ete_packet *p, char *err, size_t errlen);
const char *tc_l3_kind_name(int kind);
const char *tc_ete_error_name(int error);
extern const char *const tc_ete_error_names[tc_ete_err_count];
extern const char *const tc_ete_warning_names[tc_ete_warn_count];
const char *tc_ete_warning_name(int warning);
/* A cleared packet or element of the given kind and offset, its item header
 * filled in (size, protocol). */
void tc_ete_packet_init(struct tc_ete_packet *p, int kind, uint64_t offset);
void tc_ete_elem_init(struct tc_ete_elem *e, int kind, uint64_t offset);
const char *tc_ete_warning_field_name(int field);
const char *tc_ete_pkt_kind_name(int kind);
const char *tc_ete_elem_kind_name(int kind);

#ifdef __cplusplus
}
#endif

#endif
