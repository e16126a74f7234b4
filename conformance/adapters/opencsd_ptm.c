/* SPDX-License-Identifier: BSD-3-Clause */
/* opencsd_ptm.c — PFT/PTM on OpenCSD: its PTM decoder (OCSD_BUILTIN_DCD_PTM), mapped onto tc_ptm_packet (L1) and tc_l3 (L3).
 *
 * The plumbing (trees, image, monitor, datapath, offsets) is
 * opencsd_common.c's; this file is the PTM mapping. Every field comes from
 * OpenCSD's packet (ocsd_ptm_pkt, opencsd/ptm/trc_pkt_types_ptm.h) or
 * generic element (ocsd_generic_trace_elem); what it does not give is
 * listed here, printed as the record's 0, or declared unsupported.
 *
 * Configuration (struct tc_ptm_config -> ocsd_ptm_cfg)
 *   version -> ETMIDR minor revision (bits 7:4 of reg_idr 0x4100F3m0);
 *   cycle_accurate -> ETMCR[12]; branch_broadcast -> ETMCR[8];
 *   contextid_size -> ETMCR[15:14]; timestamps -> ETMCR[28];
 *   return_stack -> ETMCR[29]; vmid -> ETMCR[30]; ts_binary -> ETMCCER[28];
 *   ts64 -> ETMCCER[29]. Fixed: ETMCCER says timestamps, return stack and
 *   virtualisation are implemented, DMB/DSB are not waypoints (bit 24
 *   clear: reference/ptm/ERRATA.md PTM-P11); trace ID 0x10, ARMv7-A,
 *   Cortex-A profile. OpenCSD reads the ETMCCER timestamp bits only for
 *   PFTv1.1 (version=1; 48 bits with version=0). OpenCSD 1.3.3 decodes
 *   every timestamp as natural binary, ts_binary=0 or not (Gray 0x03 comes
 *   back as 0x3 in vectors/ptm/hdr/42-timestamp-64-gray-ca.tcv): vectors
 *   tagged gray are unsupported. walk_limit has no OpenCSD setting
 *   (vectors tagged walk-limit are unsupported).
 *
 * L1 (ocsd_ptm_pkt)
 *   - header: the first raw byte of the packet (the packet monitor).
 *   - addr, isa (curr_isa: ARM, Thumb-2, ThumbEE, Jazelle), ns and hyp
 *     (context.curr_NS / curr_Hyp: the state after the packet), the I-sync
 *     reason, the exception number (exception.number, Exception[8:0], when
 *     exception.bits.present), the context ID (context.ctxtID; in an I-sync
 *     when context.updated_c), the VMID (context.VMID), the timestamp
 *     (timestamp: OpenCSD's value after bit replacement and Gray decoding),
 *     the atoms (atom.En_bits oldest first, atom.num) and the cycle count
 *     (cycle_count when cc_valid).
 *   - Before the first I-sync OpenCSD's ISA is unknown: printed as arm
 *     (the record's 0).
 *   - Errors: PTM_PKT_RESERVED -> reserved-header; PTM_PKT_BAD_SEQUENCE of
 *     an A-sync -> bad-async, of anything else -> reserved-field;
 *     PTM_PKT_INCOMPLETE_EOT -> truncated (bytes still waiting for an
 *     A-sync are not an error). OpenCSD checks no reserved payload field,
 *     and after a bad packet it goes on with the next byte instead of
 *     searching for an A-sync. It reports no warnings (never scored).
 * L3 (ocsd_generic_trace_elem)
 *   - range: first = st_addr, last = en_addr - last_instr_sz, n =
 *     num_instr_range, isa a32 (ARM) or t32 (Thumb-2, ThumbEE), type from
 *     last_i_type (BR dir, BR_INDIRECT indir, ISB isb, else other), taken
 *     from last_instr_exec for those, '-' for other; a cycle count OpenCSD
 *     attaches (has_cc) follows as a cycle-count item.
 *   - TRACE_ON: trace-on, or overflow for trace_on_reason
 *     TRACE_ON_OVERFLOW; its cycle count (I-sync in cycle-accurate mode)
 *     follows the context item OpenCSD gives right after it, as the L3
 *     text orders an I-sync's items.
 *   - PE_CONTEXT: context only when it changes (FORMAT.md); el is 0 (OpenCSD's
 *     PTM context has no Hyp state: el_valid is 0), ns from security_level,
 *     sf from bits64, the context ID and VMID when valid, else 0.
 *   - EXCEPTION: type = exception_number, ret = en_addr when
 *     excep_ret_addr, else unknown; a cycle count follows.
 *   - EXCEPTION_RET: exception-return; EVENT (trigger): trigger;
 *     TIMESTAMP: timestamp with the cycle count when has_cc, else unknown;
 *     ADDR_NACC: no-image.
 *   - errors: OpenCSD's decoder answers a bad packet (PTM_PKT_RESERVED,
 *     PTM_PKT_BAD_SEQUENCE) with NO_SYNC; the error item has the class of
 *     that packet as at L1 and its offset (the L3 tree's packet monitor
 *     sees the packet before the decoder). A bad packet the decoder
 *     ignores (not yet synchronised) and a truncated packet at the end give
 *     no L3 error: OpenCSD's decoder reports none. A fatal datapath
 *     response is an error item classed from ocsd_get_last_err(): an
 *     unknown header is reserved-header, anything else reserved-field
 *     (OCSD_ERR_RET_STACK_OVERFLOW, an E atom on an indirect branch that
 *     finds OpenCSD's return stack empty, is one: the PTM classes have
 *     none of its own); the tree is then reset (opencsd_common.c).
 *   - offsets are OpenCSD's element indexes; an index that names no byte
 *     OpenCSD has been given takes the previous item's offset.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencsd_common.h"
#include "tracecert/ptm.h"

/* What the PTM mapping keeps between OpenCSD's callbacks (L3). */
struct ptm_state {
	uint64_t l3_index;                /* offset of the last L3 element */
	struct tc_context last_ctx;
	int last_ctx_valid;
	struct tc_l3 held_cc;             /* a TRACE_ON's cycle count, after its context */
	int held_cc_valid;
	int bad_class;                    /* the bad packet the decoder has been given last */
	uint64_t bad_offset;
	int bad_pending;
};

static struct ptm_state *st(const struct oc_handle *h)
{
	return h->state;
}

/* ---- configuration -------------------------------------------------------- */

static void make_config(const void *cfg, void *out)
{
	const struct tc_ptm_config *c = cfg;
	ocsd_ptm_cfg *r = out;
	uint32_t cid = c->contextid_size == 4 ? 3u : (uint32_t)c->contextid_size;
	r->reg_idr = 0x4100F300u | ((uint32_t)(c->version & 0xF) << 4);
	r->reg_ctrl = (c->branch_broadcast ? 1u << 8 : 0) | (c->cycle_accurate ? 1u << 12 : 0) | (cid << 14) |
		      (c->timestamps ? 1u << 28 : 0) | (c->return_stack ? 1u << 29 : 0) | (c->vmid ? 1u << 30 : 0);
	r->reg_ccer = (1u << 22)                  /* timestamps implemented */
		    | (1u << 23)                  /* return stack implemented */
		    | (1u << 26)                  /* virtualisation extensions */
		    | (c->ts_binary ? 1u << 28 : 0)
		    | (c->ts64 ? 1u << 29 : 0);
	r->reg_trc_id = OC_TRACE_ID;
	r->arch_ver = ARCH_V7;
	r->core_prof = profile_CortexA;
}

static int check(const void *cfg, unsigned levels, char *err, size_t errlen)
{
	const struct tc_ptm_config *c = cfg;
	(void)levels;   /* every configuration it takes decodes at both levels */
	if (c->version < 0 || c->version > 1) {
		snprintf(err, errlen, "version %d: OpenCSD's PTM decoder is given PFTv1.0 or v1.1", c->version);
		return -1;
	}
	if (c->contextid_size != 0 && c->contextid_size != 1 && c->contextid_size != 2 && c->contextid_size != 4) {
		snprintf(err, errlen, "contextid_size %d is not 0, 1, 2 or 4", c->contextid_size);
		return -1;
	}
	return 0;
}

/* ---- L1 ------------------------------------------------------------------- */

static uint8_t ptm_isa(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_thumb2: return tc_ptm_isa_thumb;
	case ocsd_isa_tee: return tc_ptm_isa_thumbee;
	case ocsd_isa_jazelle: return tc_ptm_isa_jazelle;
	default: return tc_ptm_isa_arm;   /* ARM, or unknown before the first I-sync */
	}
}

/* The error class of a bad packet, or 0 when the packet is not one. */
static int error_class(const ocsd_ptm_pkt *k)
{
	switch (k->type) {
	case PTM_PKT_RESERVED:
		return tc_ptm_err_reserved_header;
	case PTM_PKT_BAD_SEQUENCE:
		return k->err_type == PTM_PKT_A_SYNC ? tc_ptm_err_bad_async : tc_ptm_err_reserved_field;
	case PTM_PKT_INCOMPLETE_EOT:
		return k->err_type == PTM_PKT_NOTSYNC ? 0 : tc_ptm_err_truncated;   /* waiting for an A-sync: skipped */
	default:
		return 0;
	}
}

/* The kind and the fields of a packet that is not an error; 0, or -1 for a
 * packet that is no PTM packet (OpenCSD's markers: not reported). */
static int fill(struct tc_ptm_packet *p, const ocsd_ptm_pkt *k)
{
	switch (k->type) {
	case PTM_PKT_A_SYNC: p->h.kind = tc_ptm_pkt_async; return 0;
	case PTM_PKT_TRIGGER: p->h.kind = tc_ptm_pkt_trigger; return 0;
	case PTM_PKT_IGNORE: p->h.kind = tc_ptm_pkt_ignore; return 0;
	case PTM_PKT_EXCEPTION_RET: p->h.kind = tc_ptm_pkt_exception_return; return 0;
	case PTM_PKT_CONTEXT_ID:
		p->h.kind = tc_ptm_pkt_context_id;
		p->context_id = k->context.ctxtID;
		return 0;
	case PTM_PKT_VMID:
		p->h.kind = tc_ptm_pkt_vmid;
		p->vmid = k->context.VMID;
		return 0;
	case PTM_PKT_ATOM:
		p->h.kind = tc_ptm_pkt_atom;
		p->natoms = k->atom.num;
		p->atoms = k->atom.En_bits;
		return 0;
	case PTM_PKT_TIMESTAMP:
		p->h.kind = tc_ptm_pkt_timestamp;
		p->value = k->timestamp;
		return 0;
	case PTM_PKT_I_SYNC:
		p->h.kind = tc_ptm_pkt_isync;
		p->reason = (uint8_t)k->i_sync_reason;
		p->has_ctxid = (uint8_t)k->context.updated_c;
		p->context_id = k->context.updated_c ? k->context.ctxtID : 0;
		break;
	case PTM_PKT_BRANCH_ADDRESS:
		p->h.kind = tc_ptm_pkt_branch;
		p->has_exception = (uint8_t)k->exception.bits.present;
		p->exception = k->exception.bits.present ? k->exception.number : 0;
		break;
	case PTM_PKT_WPOINT_UPDATE:
		p->h.kind = tc_ptm_pkt_waypoint;
		p->address = (uint32_t)k->addr.val;
		p->isa = ptm_isa(k->curr_isa);
		return 0;
	default:
		return -1;   /* NOTSYNC, NOERROR, the interpreter's states */
	}
	/* I-sync and branch: address, instruction set and state after the packet */
	p->address = (uint32_t)k->addr.val;
	p->isa = ptm_isa(k->curr_isa);
	p->ns = (uint8_t)k->context.curr_NS;
	p->hyp = (uint8_t)k->context.curr_Hyp;
	return 0;
}

static ocsd_datapath_resp_t l1_packet(const void *ctx, const ocsd_datapath_op_t op, const ocsd_trc_index_t index,
				      const void *pkt_in)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	const ocsd_ptm_pkt *k = pkt_in;
	struct tc_ptm_packet p;
	int cls;
	if (op != OCSD_OP_DATA || !k)
		return OCSD_RESP_CONT;
	memset(&p, 0, sizeof p);   /* the adapter links no tracecert code: the header by hand */
	p.h.size = sizeof p;
	p.h.protocol = tc_proto_ptm;
	p.h.offset = oc_offset(h, index);
	p.header = oc_header(h, index);
	oc_debug_packet(h, p.h.offset, k, p.header);
	cls = error_class(k);
	if (cls) {
		p.h.kind = tc_ptm_pkt_error;
		p.error = (uint8_t)cls;
	} else if (fill(&p, k)) {
		return OCSD_RESP_CONT;
	}
	if (k->cc_valid && p.h.kind != tc_ptm_pkt_error) {
		p.has_cc = 1;
		p.cc = k->cycle_count;
	}
	oc_emit(h, tc_level_l1, &p.h);
	return OCSD_RESP_CONT;
}

/* ---- L3 ------------------------------------------------------------------- */

static void emit_l3(struct oc_handle *h, const struct tc_l3 *x)
{
	oc_emit(h, tc_level_l3, &x->h);
}

/* A TRACE_ON's cycle count goes out after the context that follows it. */
static void flush_cc(struct oc_handle *h)
{
	if (st(h)->held_cc_valid) {
		st(h)->held_cc_valid = 0;
		emit_l3(h, &st(h)->held_cc);
	}
}

static void init_l3(struct tc_l3 *x, uint64_t offset, int kind)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_ptm;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

/* An element's cycle count (has_cc) as the cycle-count item after it. */
static void cycle_count_after(struct oc_handle *h, const ocsd_generic_trace_elem *e, uint64_t offset)
{
	struct tc_l3 c;
	if (!e->has_cc)
		return;
	init_l3(&c, offset, tc_l3_cycle_count);
	c.count = e->cycle_count;
	emit_l3(h, &c);
}

/* The L3 tree's packet monitor: a bad packet the decoder is about to get. */
static void l3_monitor(struct oc_handle *h, uint64_t offset, const void *pkt)
{
	const ocsd_ptm_pkt *k = pkt;
	if (k->type != PTM_PKT_RESERVED && k->type != PTM_PKT_BAD_SEQUENCE)
		return;
	st(h)->bad_class = error_class(k);
	st(h)->bad_offset = offset;
	st(h)->bad_pending = 1;
}

/* NO_SYNC: after a bad packet, the error item of that packet. */
static void no_sync(struct oc_handle *h)
{
	struct tc_l3 x;
	flush_cc(h);
	st(h)->last_ctx_valid = 0;
	if (!st(h)->bad_pending)
		return;
	st(h)->bad_pending = 0;
	init_l3(&x, st(h)->bad_offset, tc_l3_error);
	x.error = (uint8_t)st(h)->bad_class;
	emit_l3(h, &x);
}

/* A fatal datapath response: an error item classed from OpenCSD's last
 * logged error (an unknown header is reserved-header, anything else
 * reserved-field). */
static void l3_fatal(struct oc_handle *h, uint64_t fallback)
{
	struct tc_l3 x;
	ocsd_trc_index_t index = 0;
	uint8_t chan = 0;
	char msg[256];
	ocsd_err_t code = ocsd_get_last_err(&index, &chan, msg, (int)sizeof msg);
	flush_cc(h);
	init_l3(&x, code == OCSD_OK ? fallback : oc_offset(h, index), tc_l3_error);
	x.error = code == OCSD_ERR_INVALID_PCKT_HDR ? tc_ptm_err_reserved_header : tc_ptm_err_reserved_field;
	if (h->debug)
		fprintf(stderr, "ocsd-l3-error code %d @%llu: %s\n", (int)code, (unsigned long long)x.h.offset, msg);
	st(h)->last_ctx_valid = 0;
	emit_l3(h, &x);
}

static uint8_t l3_isa(ocsd_isa isa)
{
	return isa == ocsd_isa_thumb2 || isa == ocsd_isa_tee ? tc_isa_t32 : tc_isa_a32;
}

static uint8_t insn_type(ocsd_instr_type t)
{
	switch (t) {
	case OCSD_INSTR_BR: return tc_insn_branch_dir;
	case OCSD_INSTR_BR_INDIRECT: return tc_insn_branch_indir;
	case OCSD_INSTR_ISB: return tc_insn_isb;
	default: return tc_insn_other;
	}
}

static void range(struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	x->first = e->st_addr;
	x->last = e->en_addr - e->last_instr_sz;
	x->count = e->num_instr_range;
	x->isa = l3_isa(e->isa);
	x->last_type = insn_type(e->last_i_type);
	if (x->last_type == tc_insn_other)
		x->taken = tc_taken_none;
	else
		x->taken = e->last_instr_exec ? tc_taken_e : tc_taken_n;
}

/* A context item when the context changed (FORMAT.md); returns whether. */
static int context(struct oc_handle *h, struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	x->ctx.el = (uint8_t)(e->context.el_valid ? e->context.exception_level : 0);
	x->ctx.ns = (uint8_t)(e->context.security_level == ocsd_sec_nonsecure);
	x->ctx.sf = (uint8_t)e->context.bits64;
	x->ctx.context_id = e->context.ctxt_id_valid ? e->context.context_id : 0;
	x->ctx.vmid = e->context.vmid_valid ? e->context.vmid : 0;
	if (st(h)->last_ctx_valid && !memcmp(&st(h)->last_ctx, &x->ctx, sizeof x->ctx))
		return 0;
	st(h)->last_ctx = x->ctx;
	st(h)->last_ctx_valid = 1;
	return 1;
}

/* TRACE_ON: trace-on or overflow; its cycle count is held for after the
 * context that follows. */
static void trace_on(struct oc_handle *h, struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	x->h.kind = e->trace_on_reason == TRACE_ON_OVERFLOW ? tc_l3_overflow : tc_l3_trace_on;
	emit_l3(h, x);
	if (e->has_cc) {
		init_l3(&st(h)->held_cc, x->h.offset, tc_l3_cycle_count);
		st(h)->held_cc.count = e->cycle_count;
		st(h)->held_cc_valid = 1;
	}
}

/* One element; returns 1 when x is to be emitted (then its cycle count). */
static int element(struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		x->h.kind = tc_l3_range;
		range(x, e);
		return 1;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		x->h.kind = tc_l3_exception;
		x->type = (uint16_t)e->exception_number;
		x->address = e->excep_ret_addr ? e->en_addr : 0;
		x->unknown = (uint8_t)!e->excep_ret_addr;
		return 1;
	case OCSD_GEN_TRC_ELEM_EXCEPTION_RET:
		x->h.kind = tc_l3_exception_return;
		return 1;
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		x->h.kind = tc_l3_timestamp;
		x->value = e->timestamp;
		x->count = e->has_cc ? e->cycle_count : 0;
		x->unknown = (uint8_t)!e->has_cc;
		return 2;   /* its count is its own */
	case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
		x->h.kind = tc_l3_cycle_count;
		x->count = e->cycle_count;
		return 2;
	case OCSD_GEN_TRC_ELEM_EVENT:
		x->h.kind = tc_l3_trigger;
		return e->trace_event.ev_type == EVENT_TRIGGER ? 2 : 0;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		x->h.kind = tc_l3_no_image;
		x->address = e->st_addr;
		x->isa = l3_isa(e->isa);
		return 2;
	default:
		return 0;   /* EO_TRACE, UNKNOWN, ADDR_UNKNOWN, SWTRACE, … */
	}
}

static ocsd_datapath_resp_t l3_elem(const void *ctx, const ocsd_trc_index_t index, const uint8_t chan,
				    const ocsd_generic_trace_elem *e)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	uint64_t off = oc_unwrap(h->fed_end, (uint32_t)index);
	struct tc_l3 x;
	int r;
	(void)chan;
	if (off != OC_NO_OFFSET)
		st(h)->l3_index = off;
	init_l3(&x, st(h)->l3_index, 0);
	oc_debug_elem(h, x.h.offset, index, e);
	if (e->elem_type == OCSD_GEN_TRC_ELEM_NO_SYNC) {
		no_sync(h);
		return OCSD_RESP_CONT;
	}
	if (e->elem_type == OCSD_GEN_TRC_ELEM_PE_CONTEXT) {
		x.h.kind = tc_l3_context;
		if (context(h, &x, e))
			emit_l3(h, &x);
		flush_cc(h);
		return OCSD_RESP_CONT;
	}
	flush_cc(h);
	if (e->elem_type == OCSD_GEN_TRC_ELEM_TRACE_ON) {
		trace_on(h, &x, e);
		return OCSD_RESP_CONT;
	}
	r = element(&x, e);
	if (r)
		emit_l3(h, &x);
	if (r == 1)
		cycle_count_after(h, e, x.h.offset);
	return OCSD_RESP_CONT;
}

/* ---- the protocol ------------------------------------------------------------ */

static void finish_l3(struct oc_handle *h)
{
	flush_cc(h);
}

/* Feature tags OpenCSD 1.3.x cannot decode. */
const char *const oc_ptm_unsupported[] = {
	"walk-limit",     /* no limit on the instructions one packet walks */
	"gray",           /* Gray-coded timestamps: 1.3.3 reads every timestamp as natural binary */
	NULL,
};

const struct oc_protocol oc_ptm = {
	.protocol = tc_proto_ptm,
	.decoder = OCSD_BUILTIN_DCD_PTM,
	.ocsd_protocol = OCSD_PROTOCOL_PTM,
	.config_size = sizeof(struct tc_ptm_config),
	.full_flags = 0,
	.state_size = sizeof(struct ptm_state),
	.check = check,
	.make_config = make_config,
	.ocsd_config_size = sizeof(ocsd_ptm_cfg),
	.l1_packet = l1_packet,
	.l3_elem = l3_elem,
	.l3_monitor = l3_monitor,
	.l3_fatal = l3_fatal,
	.finish_l1 = NULL,
	.finish_l3 = finish_l3,
	.free_state = NULL,
};
