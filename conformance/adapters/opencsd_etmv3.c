/* SPDX-License-Identifier: BSD-3-Clause */
/* opencsd_etmv3.c — ETMv3 on OpenCSD: its ETMv3 decoder (OCSD_BUILTIN_DCD_ETMV3), mapped onto tc_etmv3_packet (L1) and tc_l3 (L3).
 *
 * The plumbing (trees, image, monitor, datapath, offsets) is
 * opencsd_common.c's; this file is the ETMv3 mapping. Every field comes
 * from OpenCSD's packet (ocsd_etmv3_pkt, opencsd/etmv3/trc_pkt_types_etmv3.h),
 * its generic element (ocsd_generic_trace_elem) or the bytes OpenCSD framed
 * as the packet (the packet monitor); what it does not give is listed here,
 * printed as the record's 0, or declared unsupported.
 *
 * Configuration (struct tc_etmv3_config -> ocsd_etmv3_cfg; register bits as
 * reference/etmv3/CONFIG.md gives them, built here from the struct)
 *   reg_idr: 0x4100F200 (ETMv3, Arm) | version in [7:4]; thumb2_one ->
 *   ETMIDR[18] (from version 2), alt_branch -> ETMIDR[20] (from version 4).
 *   reg_ctrl: data_value -> ETMCR[2], data_address -> [3], branch_output ->
 *   [8], cycle_accurate -> [12], contextid_size -> [15:14] (0, 1, 2, 4 bytes
 *   as b00..b11), data_only -> [20], timestamps -> [28], vmid -> [30].
 *   reg_ccer: ts64 -> ETMCCER[29], ts_binary -> [28]; with version 5 also
 *   [22] (timestamps implemented) and [26] (virtualisation extensions:
 *   OpenCSD reads the I-sync's Hyp bit only then, as the reference reads it
 *   only in ETMv3.5, ERRATA ETM3-X2). Trace ID 0x10; ARMv7, core profile
 *   Cortex-M with profile_m=1, else Cortex-A.
 *   OpenCSD 1.3.3 reads neither ETMIDR[18] nor ETMCCER[28], its full decoder
 *   takes no data trace configuration (data_value, data_address or
 *   data_only: check() refuses such an L3 run, naming the tag) and its
 *   instruction decoder has no Jazelle or ThumbEE: vectors tagged
 *   thumb2-two, gray, data-l3, jazelle-l3 or thumbee-l3 are unsupported
 *   (oc_etmv3_unsupported says why, tag by tag). branch_output needs no
 *   OpenCSD setting: its decoder follows every branch packet it gets.
 *
 * L1 (ocsd_etmv3_pkt)
 *   - header: the first raw byte of the packet (the packet monitor).
 *   - isync (I_SYNC, I_SYNC_CYCLE): addr and isa (curr_isa: ARM, Thumb-2,
 *     ThumbEE, Jazelle) unless isync_info.no_address (data-only); reason
 *     (isync_info.reason), ns and hyp (context.curr_NS / curr_Hyp), cc when
 *     isync_info.has_cycle_count, ctxid when context.updated_c. No lsip:
 *     for an LSiP I-sync OpenCSD 1.3.3 reads the current address into addr
 *     over the data instruction's address (the data address writer below)
 *     and never sets isync_info.has_LSipAddress, so its packet keeps only
 *     the current address, printed as addr.
 *   - branch: addr, isa, ns, hyp (the state after the packet); when
 *     exception.bits.present the exception number (exception.number), can
 *     (exception.bits.cancel) and resume (exception.bits.cm_resume). The
 *     form is OpenCSD's: it gives the deprecated fifth-byte form (Table 7-9)
 *     the exception type of its EEE (Reset, IRQ, reserved, reserved,
 *     Jazelle, FIQ, asynchronous abort, debug halt for 0..7), which is never
 *     the type it gives the same number in exception information bytes
 *     (Table 7-12, and every A/R number and v7-M number below 8): a number
 *     below 8 whose type is that of Table 7-9 is printed exc5=, any other
 *     exc= (byte5_form()).
 *   - atom (P_HDR): atom.En_bits oldest first, atom.num; in cycle-accurate
 *     mode the W atoms from OpenCSD's P-header format (p_hdr_fmt) and its
 *     count of W (cycle_count): format 1 a W before each atom, format 2 one
 *     W before its atoms, format 3 cycle_count W before its atom, format 4
 *     none (Table 7-3).
 *   - data (NORM_DATA), placeholder (OOO_ADDR_PLC), value-not-traced:
 *     addr and be (data.be) when data.update_addr. OpenCSD 1.3.3 writes a
 *     data address it reads into the packet's addr, the instruction
 *     address (EtmV3TrcPacket::UpdateDataAddress sets addr.val and
 *     addr.pkt_bits and the flag data.update_addr; data.addr, which its
 *     header calls the current data address, is never written and stays
 *     0): the address is taken from addr, which holds OpenCSD's result,
 *     the bits it read over those of the last address it kept there. data
 *     and ooo-data: value (data.value) when data.update_dval and, for
 *     Normal data, data_value=1 (OpenCSD sets a value 0 for a packet
 *     without value bytes); size: the bytes OpenCSD framed as the value,
 *     the packet's length (the monitor) less the header and the address
 *     bytes OpenCSD read (addr.pkt_bits: 7 bits a byte, 4 in a fifth).
 *     ooo-data and placeholder: tag (data.ooo_tag).
 *   - context-id (context.ctxtID), vmid (context.VMID), timestamp
 *     (timestamp: OpenCSD's value after bit replacement); OpenCSD's packet
 *     has no R bit (the clock frequency changed): printed as r=0.
 *   - Before the first I-sync OpenCSD's ISA is unknown: printed as arm
 *     (the record's 0).
 *   - Errors: ETM3_PKT_RESERVED -> reserved-header; ETM3_PKT_BAD_SEQUENCE
 *     of an A-sync -> bad-async, of anything else -> reserved-field;
 *     ETM3_PKT_BAD_TRACEMODE (a data packet without data trace) ->
 *     bad-mode; ETM3_PKT_INCOMPLETE_EOT -> truncated (bytes still waiting
 *     for an A-sync are not an error; OpenCSD 1.3.3 sets neither for a
 *     packet cut off by the end of the trace: it hands the bytes it has on
 *     with the packet's own type). A packet OpenCSD logged an error for at
 *     its index but handed on with its own type is an error packet too
 *     (logged_error(): an invalid header reserved-header, a malformed
 *     packet reserved-field, a malformed Context ID bad-mode). OpenCSD has
 *     no not-in-version check (3C, 42, 46, 76, 7E are decoded in every
 *     version) and goes on with the next byte after a bad packet instead
 *     of searching for an A-sync. It reports no warnings (never scored).
 * L3 (ocsd_generic_trace_elem)
 *   - range: first = st_addr, last = en_addr - last_instr_sz, n =
 *     num_instr_range, isa a32 (ARM) or t32 (Thumb-2, ThumbEE), type from
 *     last_i_type (BR dir, BR_INDIRECT indir, else other), taken from
 *     last_instr_exec for branches, '-' for other; an element of no
 *     instructions gives no item (range()). OpenCSD's cycle count
 *     on a range (has_cc) is the P-header's W atoms, which give no L3 item
 *     (reference/etmv3/FORMAT.md): not output; so is a CYCLE_COUNT element
 *     OpenCSD makes of a P-header (the L3 tree's packet monitor says which
 *     packet an element comes from); one from a Cycle Count packet is a
 *     cycle-count item.
 *   - TRACE_ON: trace-on, or overflow for TRACE_ON_OVERFLOW.
 *   - PE_CONTEXT: context only when it changes (against the last context
 *     output, errors or not: reference/etmv3/FORMAT.md); el 2 when OpenCSD gives
 *     EL2 (Hyp), else 0; ns from security_level; the context ID and VMID
 *     when valid, else 0. An I-sync's cycle count (has_cc on its context
 *     element) follows it as a cycle-count item. A context element that
 *     comes right before an EXCEPTION of the same packet goes out after the
 *     exception, as the L3 text orders a branch packet's items.
 *   - EXCEPTION: type = exception_number, ret = en_addr when
 *     excep_ret_addr, else unknown. OpenCSD's exception-entry marker
 *     (excep_data_marker: the v7-M exception entry packet 7E) gives no
 *     item, as the packet gives none in the L3 text.
 *   - EXCEPTION_RET: exception-return; EVENT (trigger): trigger;
 *     TIMESTAMP: timestamp with the cycle count when has_cc, else unknown;
 *     ADDR_NACC: no-image; ADDR_UNKNOWN: error no-address, but after an
 *     ADDR_NACC or before the first TRACE_ON of a synchronisation
 *     (address_unknown()).
 *   - errors: OpenCSD's decoder answers a bad packet with a fatal datapath
 *     response: the error item has the class of the bad packet the L3
 *     tree's packet monitor saw last (as at L1), at its offset; without one,
 *     the class from ocsd_get_last_err() (an unknown header reserved-header,
 *     anything else reserved-field); the tree is then reset
 *     (opencsd_common.c). A packet cut off at the end and a packet OpenCSD
 *     only logged an error for give no L3 error: its decoder decodes them.
 *   - offsets are OpenCSD's element indexes; an index that names no byte
 *     OpenCSD has been given takes the previous item's offset.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencsd_common.h"
#include "tracecert/etmv3.h"

/* What the ETMv3 mapping keeps between OpenCSD's callbacks (L3). */
struct etmv3_state {
	uint64_t l3_index;                /* offset of the last L3 element */
	struct tc_context last_ctx;
	int last_ctx_valid;
	struct tc_l3 held_ctx;            /* a context, until we know no exception of its packet follows */
	struct tc_l3 held_cc;             /* the cycle count of the held context (an I-sync's) */
	int held_ctx_valid;
	int held_cc_valid;
	ocsd_etmv3_pkt_type last_type;    /* the packet the decoder has been given last */
	uint64_t last_offset;
	int bad_class;                    /* the bad packet the decoder has been given last */
	uint64_t bad_offset;
	int bad_pending;
	unsigned long errors_seen;        /* h->errors_logged when logged_error() last asked OpenCSD */
	int synced;                       /* a TRACE_ON since the start or the last NO_SYNC */
	int after_nacc;                   /* an ADDR_NACC and no range or TRACE_ON since */
};

static struct etmv3_state *st(const struct oc_handle *h)
{
	return h->state;
}

static const struct tc_etmv3_config *config(const struct oc_handle *h)
{
	return h->cfg;
}

/* ---- configuration -------------------------------------------------------- */

static void make_config(const void *cfg, void *out)
{
	const struct tc_etmv3_config *c = cfg;
	ocsd_etmv3_cfg *r = out;
	uint32_t cid = c->contextid_size == 4 ? 3u : (uint32_t)c->contextid_size;
	r->reg_idr = 0x4100F200u | ((uint32_t)(c->version & 0xF) << 4);
	if (c->version >= 2 && c->thumb2_one)
		r->reg_idr |= 1u << 18;
	if (c->version >= 4 && c->alt_branch)
		r->reg_idr |= 1u << 20;
	r->reg_ctrl = (c->data_value ? 1u << 2 : 0) | (c->data_address ? 1u << 3 : 0) |
		      (c->branch_output ? 1u << 8 : 0) | (c->cycle_accurate ? 1u << 12 : 0) | (cid << 14) |
		      (c->data_only ? 1u << 20 : 0) | (c->timestamps ? 1u << 28 : 0) | (c->vmid ? 1u << 30 : 0);
	r->reg_ccer = (c->ts_binary ? 1u << 28 : 0) | (c->ts64 ? 1u << 29 : 0);
	if (c->version == 5)
		r->reg_ccer |= (1u << 22)    /* timestamps implemented */
			     | (1u << 26);   /* virtualisation extensions (Hyp) */
	r->reg_trc_id = OC_TRACE_ID;
	r->arch_ver = ARCH_V7;
	r->core_prof = c->profile_m ? profile_CortexM : profile_CortexA;
}

static int check(const void *cfg, unsigned levels, char *err, size_t errlen)
{
	const struct tc_etmv3_config *c = cfg;
	if (c->version < 0 || c->version > 5) {
		snprintf(err, errlen, "version %d: OpenCSD's ETMv3 decoder is given ETMv3.0 to ETMv3.5", c->version);
		return -1;
	}
	if (c->contextid_size != 0 && c->contextid_size != 1 && c->contextid_size != 2 && c->contextid_size != 4) {
		snprintf(err, errlen, "contextid_size %d is not 0, 1, 2 or 4", c->contextid_size);
		return -1;
	}
	if ((levels & tc_level_l3) && (c->data_value || c->data_address || c->data_only)) {
		/* ocsd_dt_create_decoder succeeds, but the decoder logs
		 * OCSD_ERR_HW_CFG_UNSUPP and stays unconfigured: every packet is
		 * then a fatal OCSD_ERR_NOT_INIT */
		snprintf(err, errlen, "OpenCSD's ETMv3 decoder does not decode data trace (data_value, data_address or "
			 "data_only set): L3 is unsupported (tag data-l3)");
		return -1;
	}
	return 0;
}

/* ---- L1 ------------------------------------------------------------------- */

static uint8_t etmv3_isa(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_thumb2: return tc_etmv3_isa_thumb;
	case ocsd_isa_tee: return tc_etmv3_isa_thumbee;
	case ocsd_isa_jazelle: return tc_etmv3_isa_jazelle;
	default: return tc_etmv3_isa_arm;   /* ARM, or unknown before the first I-sync */
	}
}

/* The error class of a packet that OpenCSD logged an error for while
 * framing it (ocsd_get_last_err names its index) but handed on with its own
 * type: a P-header that is none of the formats of its trace mode
 * (OCSD_ERR_INVALID_PCKT_HDR: reserved-header; the packet has no atoms), a
 * packet whose bytes do not fit its layout (OCSD_ERR_BAD_PACKET_SEQ:
 * reserved-field; e.g. a fifth branch address byte of no instruction set),
 * but a Context ID packet with ContextIDSize b00, which OpenCSD finds
 * malformed (payload bytes where it expects none): bad-mode (§7.3.6 "never
 * generated"). 0 when it logged none. OpenCSD is asked only when it has
 * logged a message since the last time (h->errors_logged: the error of a
 * packet is logged before the packet is handed on). */
static int logged_error(struct oc_handle *h, const ocsd_etmv3_pkt *k, ocsd_trc_index_t index)
{
	ocsd_trc_index_t at = 0;
	uint8_t chan = 0;
	char msg[128];
	ocsd_err_t code;
	if (h->errors_logged == st(h)->errors_seen)
		return 0;
	st(h)->errors_seen = h->errors_logged;
	code = ocsd_get_last_err(&at, &chan, msg, (int)sizeof msg);
	if (at != index)
		return 0;
	if (code == OCSD_ERR_INVALID_PCKT_HDR)
		return tc_etmv3_err_reserved_header;
	if (code != OCSD_ERR_BAD_PACKET_SEQ)
		return 0;
	return k->type == ETM3_PKT_CONTEXT_ID ? tc_etmv3_err_bad_mode : tc_etmv3_err_reserved_field;
}

/* The error class of a bad packet, or 0 when the packet is not one. */
static int error_class(const ocsd_etmv3_pkt *k)
{
	switch (k->type) {
	case ETM3_PKT_RESERVED:
		return tc_etmv3_err_reserved_header;
	case ETM3_PKT_BAD_SEQUENCE:
		return k->err_type == ETM3_PKT_A_SYNC ? tc_etmv3_err_bad_async : tc_etmv3_err_reserved_field;
	case ETM3_PKT_BAD_TRACEMODE:
		return tc_etmv3_err_bad_mode;
	case ETM3_PKT_INCOMPLETE_EOT:
		return k->err_type == ETM3_PKT_NOTSYNC ? 0 : tc_etmv3_err_truncated;   /* waiting for an A-sync: skipped */
	default:
		return 0;
	}
}

/* Whether OpenCSD gave the exception the type of the deprecated fifth-byte
 * form (Table 7-9: EEE 0..7 are reset, IRQ, reserved, reserved, Jazelle,
 * FIQ, asynchronous data abort, debug halt), which it never gives a number
 * read from exception information bytes. */
static int byte5_form(const ocsd_etmv3_excep *e)
{
	static const ocsd_armv7_exception eee_type[8] = { Excp_Reset, Excp_IRQ, Excp_Reserved, Excp_Reserved,
							   Excp_Jazelle, Excp_FIQ, Excp_AsyncDAbort, Excp_DebugHalt };
	return e->number < 8 && e->type == eee_type[e->number];
}

/* Atoms oldest first, with the W atoms of a cycle-accurate P-header
 * (OpenCSD's format and W count, Table 7-3). */
static void add_symbol(struct tc_etmv3_packet *p, int wait, int exec)
{
	if (p->natoms >= TC_ETMV3_MAX_ATOMS)
		return;
	if (wait)
		p->waits |= UINT32_C(1) << p->natoms;
	else if (exec)
		p->atoms |= UINT32_C(1) << p->natoms;
	p->natoms++;
}

static void fill_atoms(struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k, int cycle_accurate)
{
	unsigned n = k->atom.num;
	int fmt = cycle_accurate ? k->p_hdr_fmt : 0;
	if (fmt == 2)
		add_symbol(p, 1, 0);
	if (fmt == 3)
		for (uint32_t i = 0; i < k->cycle_count && i < TC_ETMV3_MAX_ATOMS; i++)
			add_symbol(p, 1, 0);
	for (unsigned i = 0; i < n && i < 32; i++) {
		if (fmt == 1)
			add_symbol(p, 1, 0);
		add_symbol(p, 0, (k->atom.En_bits >> i) & 1);
	}
}

/* The bytes of a data address OpenCSD read, from the bits it reports (in
 * addr: OpenCSD 1.3.3 writes data addresses there, the header comment). */
static unsigned data_address_bytes(const ocsd_etmv3_pkt *k)
{
	return k->data.update_addr ? ((unsigned)k->addr.pkt_bits + 6) / 7 : 0;
}

static void fill_data_address(struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k)
{
	if (!k->data.update_addr)
		return;
	p->has_address = 1;
	p->data_address = (uint32_t)k->addr.val;
	p->be = (uint8_t)k->data.be;
}

static void fill_value(struct oc_handle *h, struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k)
{
	unsigned framed = h->raw_valid ? h->raw_len : 0;
	unsigned used = 1 + data_address_bytes(k);
	p->has_value = 1;
	p->value = k->data.value;
	p->size = (uint8_t)(framed > used ? framed - used : 0);
}

static void fill_isync(struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k)
{
	p->h.kind = tc_etmv3_pkt_isync;
	p->has_address = (uint8_t)!k->isync_info.no_address;
	if (p->has_address) {
		p->isa = etmv3_isa(k->curr_isa);
		p->address = (uint32_t)k->addr.val;
	}
	p->reason = (uint8_t)k->isync_info.reason;
	p->ns = (uint8_t)k->context.curr_NS;
	p->hyp = (uint8_t)k->context.curr_Hyp;
	p->has_cc = (uint8_t)k->isync_info.has_cycle_count;
	p->cc = p->has_cc ? k->cycle_count : 0;
	p->has_ctxid = (uint8_t)k->context.updated_c;
	p->context_id = k->context.updated_c ? k->context.ctxtID : 0;
}

static void fill_branch(struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k)
{
	p->h.kind = tc_etmv3_pkt_branch;
	p->address = (uint32_t)k->addr.val;
	p->isa = etmv3_isa(k->curr_isa);
	p->ns = (uint8_t)k->context.curr_NS;
	p->hyp = (uint8_t)k->context.curr_Hyp;
	if (!k->exception.bits.present)
		return;
	p->exc_form = byte5_form(&k->exception) ? tc_etmv3_exc_byte5 : tc_etmv3_exc_bytes;
	p->exception = k->exception.number;
	p->cancel = (uint8_t)k->exception.bits.cancel;
	p->resume = (uint8_t)k->exception.bits.cm_resume;
}

/* The kind and the fields of a data trace packet; 0, or -1 when it is none. */
static int fill_data(struct oc_handle *h, struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k)
{
	switch (k->type) {
	case ETM3_PKT_NORM_DATA:
		p->h.kind = tc_etmv3_pkt_data;
		fill_data_address(p, k);
		if (k->data.update_dval && config(h)->data_value)
			fill_value(h, p, k);
		return 0;
	case ETM3_PKT_OOO_DATA:
		p->h.kind = tc_etmv3_pkt_ooo_data;
		p->tag = (uint8_t)k->data.ooo_tag;
		fill_value(h, p, k);
		return 0;
	case ETM3_PKT_OOO_ADDR_PLC:
		p->h.kind = tc_etmv3_pkt_placeholder;
		p->tag = (uint8_t)k->data.ooo_tag;
		fill_data_address(p, k);
		return 0;
	case ETM3_PKT_VAL_NOT_TRACED:
		p->h.kind = tc_etmv3_pkt_value_not_traced;
		fill_data_address(p, k);
		return 0;
	case ETM3_PKT_DATA_SUPPRESSED: p->h.kind = tc_etmv3_pkt_data_suppressed; return 0;
	case ETM3_PKT_STORE_FAIL: p->h.kind = tc_etmv3_pkt_store_failed; return 0;
	default: return -1;
	}
}

/* The kind and the fields of a packet that is not an error; 0, or -1 for a
 * packet that is no ETMv3 packet (OpenCSD's markers: not reported). */
static int fill(struct oc_handle *h, struct tc_etmv3_packet *p, const ocsd_etmv3_pkt *k)
{
	switch (k->type) {
	case ETM3_PKT_A_SYNC: p->h.kind = tc_etmv3_pkt_async; return 0;
	case ETM3_PKT_TRIGGER: p->h.kind = tc_etmv3_pkt_trigger; return 0;
	case ETM3_PKT_IGNORE: p->h.kind = tc_etmv3_pkt_ignore; return 0;
	case ETM3_PKT_EXCEPTION_ENTRY: p->h.kind = tc_etmv3_pkt_exception_entry; return 0;
	case ETM3_PKT_EXCEPTION_EXIT: p->h.kind = tc_etmv3_pkt_exception_exit; return 0;
	case ETM3_PKT_CYCLE_COUNT:
		p->h.kind = tc_etmv3_pkt_cycle_count;
		p->cc = k->cycle_count;
		return 0;
	case ETM3_PKT_CONTEXT_ID:
		p->h.kind = tc_etmv3_pkt_context_id;
		p->context_id = k->context.ctxtID;
		return 0;
	case ETM3_PKT_VMID:
		p->h.kind = tc_etmv3_pkt_vmid;
		p->vmid = k->context.VMID;
		return 0;
	case ETM3_PKT_TIMESTAMP:
		p->h.kind = tc_etmv3_pkt_timestamp;
		p->ts = k->timestamp;
		return 0;
	case ETM3_PKT_P_HDR:
		p->h.kind = tc_etmv3_pkt_atom;
		fill_atoms(p, k, config(h)->cycle_accurate);
		return 0;
	case ETM3_PKT_I_SYNC:
	case ETM3_PKT_I_SYNC_CYCLE:
		fill_isync(p, k);
		return 0;
	case ETM3_PKT_BRANCH_ADDRESS:
		fill_branch(p, k);
		return 0;
	default:
		return fill_data(h, p, k);   /* or NOTSYNC, NOERROR, the interpreter's states */
	}
}

static ocsd_datapath_resp_t l1_packet(const void *ctx, const ocsd_datapath_op_t op, const ocsd_trc_index_t index,
				      const void *pkt_in)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	const ocsd_etmv3_pkt *k = pkt_in;
	struct tc_etmv3_packet p;
	int cls;
	if (op != OCSD_OP_DATA || !k)
		return OCSD_RESP_CONT;
	memset(&p, 0, sizeof p);   /* the adapter links no tracecert code: the header by hand */
	p.h.size = sizeof p;
	p.h.protocol = tc_proto_etmv3;
	p.h.offset = oc_offset(h, index);
	p.header = oc_header(h, index);
	oc_debug_packet(h, p.h.offset, k, p.header);
	cls = error_class(k);
	if (!cls)
		cls = logged_error(h, k, index);
	if (cls) {
		p.h.kind = tc_etmv3_pkt_error;
		p.error = (uint8_t)cls;
	} else if (fill(h, &p, k)) {
		return OCSD_RESP_CONT;
	}
	oc_emit(h, tc_level_l1, &p.h);
	return OCSD_RESP_CONT;
}

/* ---- L3 ------------------------------------------------------------------- */

static void emit_l3(struct oc_handle *h, const struct tc_l3 *x)
{
	oc_emit(h, tc_level_l3, &x->h);
}

static void init_l3(struct tc_l3 *x, uint64_t offset, int kind)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_etmv3;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

/* The held context (and its I-sync's cycle count) goes out. */
static void flush_ctx(struct oc_handle *h)
{
	if (st(h)->held_ctx_valid) {
		st(h)->held_ctx_valid = 0;
		emit_l3(h, &st(h)->held_ctx);
	}
	if (st(h)->held_cc_valid) {
		st(h)->held_cc_valid = 0;
		emit_l3(h, &st(h)->held_cc);
	}
}

/* The L3 tree's packet monitor: which packet the decoder is about to get,
 * and whether it is a bad one. */
static void l3_monitor(struct oc_handle *h, uint64_t offset, const void *pkt)
{
	const ocsd_etmv3_pkt *k = pkt;
	int cls = error_class(k);
	st(h)->last_type = k->type;
	st(h)->last_offset = offset;
	if (!cls || k->type == ETM3_PKT_INCOMPLETE_EOT)
		return;
	st(h)->bad_class = cls;
	st(h)->bad_offset = offset;
	st(h)->bad_pending = 1;
}

/* A fatal datapath response: an error item of the bad packet the decoder
 * was given, or classed from OpenCSD's last logged error (an unknown header
 * is reserved-header, anything else reserved-field). */
static void l3_fatal(struct oc_handle *h, uint64_t fallback)
{
	struct tc_l3 x;
	ocsd_trc_index_t index = 0;
	uint8_t chan = 0;
	char msg[256];
	ocsd_err_t code = ocsd_get_last_err(&index, &chan, msg, (int)sizeof msg);
	flush_ctx(h);
	if (st(h)->bad_pending) {
		init_l3(&x, st(h)->bad_offset, tc_l3_error);
		x.error = (uint8_t)st(h)->bad_class;
	} else {
		init_l3(&x, code == OCSD_OK ? fallback : oc_offset(h, index), tc_l3_error);
		x.error = code == OCSD_ERR_INVALID_PCKT_HDR ? tc_etmv3_err_reserved_header : tc_etmv3_err_reserved_field;
	}
	if (h->debug)
		fprintf(stderr, "ocsd-l3-error code %d @%llu: %s\n", (int)code, (unsigned long long)x.h.offset, msg);
	st(h)->bad_pending = 0;
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
	default: return tc_insn_other;
	}
}

/* An INSTR_RANGE element as a range item. OpenCSD 1.3.3 also gives
 * range elements of no instructions (num_instr_range 0) for a P-header
 * without atoms (80 outside cycle-accurate mode: vectors/etmv3/gen/
 * gen-003004.tcv @33 and @64), their addresses those of no instruction
 * it traced (a range before it, or bytes that differ from run to run).
 * Such an element says that nothing executed, and an L3 range is N
 * instructions from first to last, the address of the last one
 * (reference/L3FORMAT.md): it gives no item (returns 0), as the P-header
 * gives none in the reference (reference/etmv3/FORMAT.md "L3"). */
static int range(struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	if (e->num_instr_range == 0)
		return 0;
	x->first = e->st_addr;
	x->last = e->en_addr - e->last_instr_sz;
	x->count = e->num_instr_range;
	x->isa = l3_isa(e->isa);
	x->last_type = insn_type(e->last_i_type);
	if (x->last_type == tc_insn_other)
		x->taken = tc_taken_none;
	else
		x->taken = e->last_instr_exec ? tc_taken_e : tc_taken_n;
	return 1;
}

/* A context item when the context changed (FORMAT.md); held until the next
 * element says whether an exception of the same packet follows. Its cycle
 * count (an I-sync's) follows it. */
static void context(struct oc_handle *h, struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	int el2 = e->context.el_valid && e->context.exception_level == ocsd_EL2;
	flush_ctx(h);
	x->ctx.el = el2 ? 2 : 0;
	x->ctx.ns = (uint8_t)(e->context.security_level == ocsd_sec_nonsecure);
	x->ctx.sf = (uint8_t)e->context.bits64;
	x->ctx.context_id = e->context.ctxt_id_valid ? e->context.context_id : 0;
	x->ctx.vmid = e->context.vmid_valid ? e->context.vmid : 0;
	if (!st(h)->last_ctx_valid || memcmp(&st(h)->last_ctx, &x->ctx, sizeof x->ctx)) {
		st(h)->last_ctx = x->ctx;
		st(h)->last_ctx_valid = 1;
		st(h)->held_ctx = *x;
		st(h)->held_ctx_valid = 1;
	}
	if (e->has_cc) {
		init_l3(&st(h)->held_cc, x->h.offset, tc_l3_cycle_count);
		st(h)->held_cc.count = e->cycle_count;
		st(h)->held_cc_valid = 1;
	}
}

/* Whether a CYCLE_COUNT element comes from a Cycle Count packet (not the W
 * atoms of a P-header). */
static int from_cycle_count_packet(const struct oc_handle *h, uint64_t offset)
{
	return st(h)->last_offset == offset && st(h)->last_type == ETM3_PKT_CYCLE_COUNT;
}

/* OpenCSD's ADDR_UNKNOWN ("address currently unknown - need address packet
 * update"): the first atom its decoder meets without an address. After a
 * taken indirect branch whose branch address packet has not come, that is
 * the L3 error no-address (reference/etmv3/ERRATA.md ETM3-P27). OpenCSD
 * gives the element in two more cases that are not that error: the first
 * atom after an inaccessible address (ADDR_NACC: the walk waits for an
 * address, with no item, ETM3-P14) and, in cycle-accurate mode, a P-header
 * before the first I-sync since the start or a loss of synchronisation
 * (NO_SYNC; atoms before the first I-sync are not walked, ETM3-P5): those
 * give no item. Returns 1 when x is to be emitted. */
static int address_unknown(struct oc_handle *h, struct tc_l3 *x)
{
	if (!st(h)->synced || st(h)->after_nacc)
		return 0;
	x->h.kind = tc_l3_error;
	x->error = tc_etmv3_err_no_address;
	return 1;
}

/* One element; returns 1 when x is to be emitted. */
static int element(struct oc_handle *h, struct tc_l3 *x, const ocsd_generic_trace_elem *e)
{
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		x->h.kind = tc_l3_range;
		if (e->num_instr_range)
			st(h)->after_nacc = 0;
		return range(x, e);
	case OCSD_GEN_TRC_ELEM_ADDR_UNKNOWN:
		return address_unknown(h, x);
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		if (e->excep_data_marker)
			return 0;
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
		return 1;
	case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
		x->h.kind = tc_l3_cycle_count;
		x->count = e->cycle_count;
		return from_cycle_count_packet(h, x->h.offset);
	case OCSD_GEN_TRC_ELEM_EVENT:
		x->h.kind = tc_l3_trigger;
		return e->trace_event.ev_type == EVENT_TRIGGER;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		st(h)->after_nacc = 1;
		x->h.kind = tc_l3_no_image;
		x->address = e->st_addr;
		x->isa = l3_isa(e->isa);
		return 1;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		st(h)->synced = 1;
		st(h)->after_nacc = 0;
		x->h.kind = e->trace_on_reason == TRACE_ON_OVERFLOW ? tc_l3_overflow : tc_l3_trace_on;
		return 1;
	default:
		return 0;   /* NO_SYNC, EO_TRACE, UNKNOWN, … */
	}
}

static ocsd_datapath_resp_t l3_elem(const void *ctx, const ocsd_trc_index_t index, const uint8_t chan,
				    const ocsd_generic_trace_elem *e)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	uint64_t off = oc_unwrap(h->fed_end, (uint32_t)index);
	struct tc_l3 x;
	(void)chan;
	if (off != OC_NO_OFFSET)
		st(h)->l3_index = off;
	init_l3(&x, st(h)->l3_index, 0);
	oc_debug_elem(h, x.h.offset, index, e);
	if (e->elem_type == OCSD_GEN_TRC_ELEM_NO_SYNC) {
		st(h)->synced = 0;
		flush_ctx(h);
		return OCSD_RESP_CONT;
	}
	if (e->elem_type == OCSD_GEN_TRC_ELEM_PE_CONTEXT) {
		x.h.kind = tc_l3_context;
		context(h, &x, e);
		return OCSD_RESP_CONT;
	}
	if (!element(h, &x, e))
		return OCSD_RESP_CONT;
	/* a branch packet's exception goes before its context */
	if (x.h.kind != tc_l3_exception || !st(h)->held_ctx_valid || st(h)->held_ctx.h.offset != x.h.offset)
		flush_ctx(h);
	emit_l3(h, &x);
	flush_ctx(h);
	return OCSD_RESP_CONT;
}

/* ---- the protocol ------------------------------------------------------------ */

static void finish_l3(struct oc_handle *h)
{
	flush_ctx(h);
}

/* Feature tags OpenCSD 1.3.3 cannot decode, one reason each. A tag marks a
 * whole vector (both levels): the -l3 tags are for vectors whose L3 needs the
 * feature, so that the L1 of the same packets stays scored in vectors
 * without them. */
const char *const oc_etmv3_unsupported[] = {
	/* data trace (ETMCR[2], [3] or [20]) at L3: the decoder logs
	 * OCSD_ERR_HW_CFG_UNSUPP ("data trace decode not yet supported") and
	 * stays unconfigured; check() refuses such a run */
	"data-l3",
	/* Jazelle and ThumbEE code at L3: OpenCSD's instruction decoder has
	 * neither (ocsd_isa_jazelle, ocsd_isa_tee: "unsupported"); its ETMv3
	 * decoder walks them anyway from an instruction record it never filled
	 * (valgrind: conditional jumps on uninitialised values in
	 * TrcIDecode::DecodeInstruction), giving ranges of 0 instructions at
	 * address 0 and the bytes walked as A32 */
	"jazelle-l3",
	"thumbee-l3",
	/* ETMIDR[18] = 0, a 32-bit Thumb instruction traced as two: not read,
	 * every atom is one instruction */
	"thumb2-two",
	/* Gray-coded timestamps (ETMCCER[28] = 0): not read, every timestamp
	 * is natural binary */
	"gray",
	NULL,
};

const struct oc_protocol oc_etmv3 = {
	.protocol = tc_proto_etmv3,
	.decoder = OCSD_BUILTIN_DCD_ETMV3,
	.ocsd_protocol = OCSD_PROTOCOL_ETMV3,
	.config_size = sizeof(struct tc_etmv3_config),
	.full_flags = 0,
	.state_size = sizeof(struct etmv3_state),
	.check = check,
	.make_config = make_config,
	.ocsd_config_size = sizeof(ocsd_etmv3_cfg),
	.l1_packet = l1_packet,
	.l3_elem = l3_elem,
	.l3_monitor = l3_monitor,
	.l3_fatal = l3_fatal,
	.finish_l1 = NULL,
	.finish_l3 = finish_l3,
	.free_state = NULL,
};
