/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/trace.h — what every protocol shares: protocol ids, the item header, the protocol-neutral L3 items. */
#ifndef TRACECERT_TRACE_H
#define TRACECERT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Protocols. The numbers are part of the adapter ABI and of vector files'
 * meaning; they never change. */
enum tc_protocol_id {
	tc_proto_none = 0,    /* a protocol-neutral item (L3) */
	tc_proto_ete = 1,     /* Arm ETE (Arm ARM K10.5) */
	tc_proto_ptm = 2,     /* Arm PFT / PTM (ARM IHI 0035) */
	tc_proto_etmv3 = 3,   /* Arm ETMv3.0-3.5 (ARM IHI 0014) */
	tc_proto_rvtrace = 4, /* RISC-V processor trace 0.026 */
	tc_proto_etmv1 = 5,   /* Arm ETMv1 */
	tc_proto_etmv2 = 6,   /* Arm ETMv2 */
	tc_proto_count
};

/* Levels of output (DESIGN: L1 packets, s1 the stage-1 element stream, L2
 * resolved elements, L3 what executed). */
enum tc_level { tc_level_l1 = 1, tc_level_s1 = 2, tc_level_l2 = 4, tc_level_l3 = 8 };

/* The first member of every item that crosses an interface (a packet record,
 * an element, an L3 item). Shared code that does not know the item's
 * protocol forwards or skips it by its size. */
struct tc_item {
	uint32_t size;        /* bytes of the whole item, this header included */
	uint16_t protocol;    /* enum tc_protocol_id; tc_proto_none for L3 items */
	uint16_t kind;        /* the protocol's packet/element kind, or enum tc_l3_kind */
	uint64_t offset;      /* byte offset of the first byte of the packet the item comes from */
};

/* Instruction sets of L3 ranges. */
enum tc_isa { tc_isa_a64 = 0, tc_isa_a32 = 1, tc_isa_t32 = 2, tc_isa_rv32 = 3, tc_isa_rv64 = 4, tc_isa_count };

/* Instruction types: what a range's last instruction is (reference/L3FORMAT.md
 * `type=`), for every protocol: a protocol's branches and other waypoints
 * are `dir`/`indir`; `wfx`, `isb` and `tstart` are the instructions some
 * protocols trace as elements of their own (each protocol's FORMAT.md says
 * which it uses). */
enum tc_insn_type {
	tc_insn_other = 0,    /* not a P0 / waypoint instruction */
	tc_insn_branch_dir,   /* direct branch */
	tc_insn_branch_indir, /* indirect branch (any PC write that is not direct) */
	tc_insn_wfx,          /* WFI/WFE/WFIT/WFET, where the protocol (or its configuration) traces them */
	tc_insn_isb,          /* ISB, where the protocol traces it */
	tc_insn_tstart,       /* TSTART (transaction start), where the protocol traces transactions */
	tc_insn_type_count
};

/* Outcome of a range's last instruction. */
enum tc_taken { tc_taken_n = 0, tc_taken_e = 1, tc_taken_none = 2, tc_taken_unknown = 3 };

/* Execution context, as far as a protocol traces it. */
struct tc_context {
	uint32_t context_id;
	uint32_t vmid;
	uint8_t el;           /* privilege level 0..15 (L3FORMAT.md `el`): an Arm exception level 0..3 (a protocol
	                       * that traces only Hyp mode: 2 in Hyp, else 0), or a protocol's privilege field */
	uint8_t ns;           /* 1 = Non-secure */
	uint8_t sf;           /* 1 = AArch64 */
	uint8_t nse;          /* FEAT_RME NSE bit */
};

/* L3: what executed. The numbers are part of the adapter ABI and never
 * change; a new kind goes before tc_l3_kind_count. A warning (a bit the text leaves unassigned, ignored as Arm's RES0 rule
 * asks) is not an L3 item: it is about the bytes of one packet, so each
 * protocol reports it at L1 only, as its packet kind `warning` right after
 * the packet's line, and stages 2 and 3 see exactly what they would with the
 * bit clear (the rule of each protocol's errata document). Queued as an element it would take a
 * resolution-queue slot and break the stream order of L2/L3 offsets. */
enum tc_l3_kind {
	tc_l3_range, tc_l3_exception, tc_l3_context, tc_l3_trace_on,
	tc_l3_discard, tc_l3_overflow, tc_l3_no_image, tc_l3_walk_limit,
	tc_l3_timestamp, tc_l3_cycle_count, tc_l3_event,
	tc_l3_trans_start, tc_l3_trans_commit, tc_l3_trans_failure,
	tc_l3_ts_marker, tc_l3_instrumentation, tc_l3_unresolved,
	tc_l3_error,
	tc_l3_exception_return, /* an exception return was traced (a protocol with such a packet) */
	tc_l3_trigger,          /* a trigger packet */
	tc_l3_trace_off,        /* the trace unit says the trace ended: nothing is traced until the next trace-on */
	tc_l3_kind_count
};

/* One L3 item; which fields mean something depends on the kind
 * (reference/L3FORMAT.md). interrupt and has_tval took two bytes of what was the
 * struct's tail padding: on LP64 its size (80) is unchanged, and an adapter
 * built against the older header that zeroes its items reads as before (no
 * interrupt, no trap value). */
struct tc_l3 {
	struct tc_item h;     /* h.protocol is the protocol that produced it, for error names */
	uint64_t first;       /* range: first instruction's address */
	uint64_t last;        /* range: last instruction's address */
	uint64_t count;       /* range: instructions; event number; cycle count; unresolved n; ts cc */
	uint64_t address;     /* exception: preferred return address; no-image/walk-limit: address */
	uint64_t value;       /* timestamp; instrumentation value; exception: the trap value, with has_tval */
	struct tc_context ctx;
	uint16_t type;        /* exception type or number */
	uint8_t isa;          /* range, no-image: enum tc_isa */
	uint8_t last_type;    /* range: enum tc_insn_type of the last instruction */
	uint8_t taken;        /* range: enum tc_taken */
	uint8_t unknown;      /* exception: return address unknown; timestamp/cycle count: count unknown */
	uint8_t error;        /* the protocol's error class */
	uint8_t interrupt;    /* exception: 1 = an interrupt (asynchronous), 0 = an exception or not traced */
	uint8_t has_tval;     /* exception: 1 = the trace gives a trap value (`value`), 0 = it does not */
};

/* The L3 text (reference/L3FORMAT.md), one writer and one parser for
 * every protocol (reference/l3text.c). error_names[0..nerrors-1] are the
 * producing protocol's error class names.
 *
 * tc_l3_format writes at most size bytes including the NUL and returns the
 * length it needed (like snprintf). tc_l3_parse reads one line, with or
 * without its "@OFFSET " (no comment, single blanks) into *x; returns 0, or
 * -1 when the line is not an L3 item. */
int tc_l3_format(char *buf, size_t size, const struct tc_l3 *x, const char *const *error_names, int nerrors);
int tc_l3_parse(const char *line, struct tc_l3 *x, const char *const *error_names, int nerrors);
const char *tc_l3_kind_name(int kind);

#ifdef __cplusplus
}
#endif

#endif
