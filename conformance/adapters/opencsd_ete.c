/* SPDX-License-Identifier: BSD-3-Clause */
/* opencsd_ete.c — ETE on OpenCSD: its ETMv4 decoder in ETE configuration, mapped onto tc_ete_packet (L1) and tc_l3 (L3).
 *
 * The plumbing (trees, image, monitor, datapath, offsets) is
 * opencsd_common.c's; this file is the ETE mapping.
 *
 * Which decoder
 *   OpenCSD 1.3.x decodes ETE with its ETMv4 instruction-trace packet
 *   processor and decoder: an ocsd_etmv4_cfg whose TRCIDR1 says
 *   architecture 5 (ETE) enables the ETE packets (transactions, source
 *   addresses, timestamp marker, PE reset / transaction failure). The
 *   builtin "ETE" decoder is not usable through the 1.3.x C API (attaching
 *   a packet sink returns OCSD_ERR_NO_PROTOCOL), so "ETMV4I" is created,
 *   at L3 with ETE_OPFLG_PKTDEC_SRCADDR_N_ATOMS, so that ranges end at
 *   every not-taken branch also with source addresses.
 *
 * Configuration (struct tc_ete_config -> ocsd_etmv4_cfg)
 *   maxspec -> TRCIDR8; commopt -> TRCIDR0.COMMOPT (bit 29); commtrans ->
 *   TRCIDR0.COMMTRANS (bit 30); retstack -> TRCIDR0.RETSTACK (bit 9) and
 *   TRCCONFIGR.RS (bit 12); wfxmode -> TRCIDR2.WFXMODE (bit 31); tsmark ->
 *   TRCIDR1 minor version 1 (OpenCSD 1.3.x accepts 0x88 for every ETE
 *   version anyway). Fixed: 64-bit addresses (IASIZE), 32-bit context ID
 *   and VMID, 20-bit cycle counter, 64-bit timestamps, Q elements supported
 *   and enabled, cycle counting / context ID / VMID / timestamps enabled in
 *   TRCCONFIGR, AArch64 Cortex-A PE (ARCH_AA64).
 *   No OpenCSD setting exists for ite (no FEAT_ITE packet in 1.3.x), rme
 *   (the NSE bit is always decoded, never checked), tf_keep_cc, queue_cap,
 *   tx_cap and walk_limit: see oc_ete_unsupported.
 *
 * Mapping decisions and what OpenCSD does not provide
 *   L1
 *   - Exception: OpenCSD reports the ETE Exception packet as two packets,
 *     the exception ("Ret Addr Follows") and an address packet; they are
 *     merged into one (deliver()). For TYPE 0 (PE reset) and 0x18
 *     (Transaction Failure) OpenCSD takes exactly one byte after the
 *     payload without reading it as an address header and sets the address
 *     to 0, IS0: printed as such.
 *   - Context fields: OpenCSD leaves them uninitialised until it has decoded
 *     a context payload, and never resets them at a Trace Info: fields it
 *     has not decoded yet print as 0 (set_ctx()).
 *   - Trace Info: WNDW is parsed and dropped by OpenCSD (never printed);
 *     cct/spec print as 0 when their section is absent (valid bits).
 *   - Cycle Count: format 1 with U=1 is reported by OpenCSD as a count of 0
 *     ("unknown CC marked as 0"): a format-1 count of 0 prints as unknown
 *     (a real count 0 with threshold 0 would too). Format 2 commit counts
 *     <= 0 (OpenCSD's signed MAXSPEC + AAAA - 15) print as commit=0.
 *   - Errors: reserved headers -> reserved-header (0x93/0xA3/0xB3 ->
 *     exact-match-index); bad sequences -> bad-async (A-sync),
 *     reserved-extension (00 xx), reserved-field (others); a packet cut off
 *     by the end of the trace -> truncated; an error right after an
 *     exception payload is the exception's (truncated, or its address
 *     header is reserved-field / exact-match-index). Bytes OpenCSD skips
 *     while unsynchronised are not reported. OpenCSD 1.3.x does not check
 *     commit/cancel overrun, spec mismatch, sbz, field overflow or most
 *     reserved fields, and after a bad packet it continues with the next
 *     byte instead of searching for an A-sync.
 *   L3
 *   - range: first = st_addr, last = en_addr - last_instr_sz, n =
 *     num_instr_range, type from last_i_type (BR dir, BR_INDIRECT indir,
 *     ISB isb, WFI_WFE wfx, else other), taken from last_instr_exec for
 *     waypoints, '-' otherwise. TSTART, an OpenCSD waypoint without an
 *     InstType, prints type=other with its atom's outcome.
 *   - I_RANGE_NOPATH (Q): OpenCSD gives first address and count only; last
 *     address and type are not provided (printed as first / other, taken
 *     '?'); a count of 0 prints nothing.
 *   - exception: type = exception_number, ret = en_addr (excep_ret_addr).
 *   - context: only when it changes (FORMAT.md); fields OpenCSD marks
 *     invalid print as 0.
 *   - timestamp / cycle-count: a count of 0 prints as unknown (OpenCSD's
 *     convention, and its timestamp element carries has_cc with 0 when the
 *     packet had no count); events: one item per bit of the event mask.
 *   - transactions: OpenCSD outputs a transaction's instructions as it goes
 *     and then MEMTRANS FAIL, documented as "operations since start of
 *     transaction have been unwound": items after a Transaction Start are
 *     held and dropped at a Failure, passed on at a Commit or end of trace.
 *   - NO_SYNC: overflow / discard items; a bad packet (and a fatal
 *     datapath response) gives an error item classed from
 *     ocsd_get_last_err() (l3_error()). ADDR_NACC -> no-image.
 *   - offsets are OpenCSD's element indexes, except I_RANGE_NOPATH's:
 *     OpenCSD 1.3.3 passes an uninitialised index with it (the root index
 *     of its Q stack element: values such as 3506308326 in a 33-byte
 *     trace), so it takes the previous item's offset, as does any index
 *     that names no byte OpenCSD has been given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencsd_common.h"
#include "tracecert/ete.h"

/* What the ETE mapping keeps between OpenCSD's callbacks. */
struct ete_state {
	/* L1 */
	struct tc_ete_packet held;        /* an Exception waiting for its address packet */
	int held_valid;
	int ctx_info_known;               /* OpenCSD has decoded EL/NS/SF (context payload) */
	int ctx_cid_known;                /* ... a context ID */
	int ctx_vmid_known;               /* ... a VMID */
	/* L3 */
	uint64_t l3_index;                /* offset of the last L3 element */
	struct tc_context last_ctx;
	int last_ctx_valid;
	struct tc_l3 *txbuf;              /* items since a Transaction Start */
	size_t txlen, txcap;
	int in_tx;
};

/* ---- configuration -------------------------------------------------------- */

static void make_config(const void *cfg, void *out)
{
	const struct tc_ete_config *c = cfg;
	ocsd_etmv4_cfg *r = out;
	r->reg_idr0 = (1u << 7)                    /* TRCCCI: cycle counting */
		    | (c->retstack ? 1u << 9 : 0)  /* RETSTACK */
		    | (3u << 10)                   /* NUMEVENT: 4 events */
		    | (3u << 15)                   /* QSUPP: Q elements with and without counts */
		    | (0x8u << 24)                 /* TSSIZE: 64 bits */
		    | (c->commopt ? 1u << 29 : 0)  /* COMMOPT */
		    | (c->commtrans ? 1u << 30 : 0); /* COMMTRANS */
	/* TRCIDR1: ETE (architecture 5), 5.0 or 5.1 (timestamp markers) */
	r->reg_idr1 = c->tsmark ? 0x4100F513u : 0x4100F503u;
	r->reg_idr2 = 0x8u                         /* IASIZE: 64-bit addresses */
		    | (0x4u << 5)                  /* CIDSIZE: 32 bits */
		    | (0x4u << 10)                 /* VMIDSIZE: 32 bits */
		    | (0x8u << 25)                 /* CCSIZE: 20 bits */
		    | (c->wfxmode ? 1u << 31 : 0); /* WFXMODE */
	r->reg_idr8 = c->maxspec;
	r->reg_configr = (1u << 4)                 /* CCI */
		       | (1u << 6)                 /* CID */
		       | (1u << 7)                 /* VMID */
		       | (1u << 11)                /* TS */
		       | (c->retstack ? 1u << 12 : 0) /* RS */
		       | (3u << 13);               /* QE */
	r->reg_traceidr = OC_TRACE_ID;
	r->arch_ver = ARCH_AA64;
	r->core_prof = profile_CortexA;
}

/* ---- L1 ------------------------------------------------------------------- */

static struct ete_state *st(const struct oc_handle *h)
{
	return h->state;
}

static void emit_packet(struct oc_handle *h, struct tc_ete_packet *p)
{
	oc_emit(h, tc_level_l1, &p->h);
}

/* The context OpenCSD carries in its packet structure. OpenCSD leaves these
 * fields uninitialised until it has decoded a context payload (and never
 * resets them at a Trace Info): parts it has not decoded yet are reported
 * as 0. */
static void set_ctx(struct oc_handle *h, struct tc_context *c, const etmv4_context_t *k)
{
	if (k->updated)
		st(h)->ctx_info_known = 1;
	if (k->updated_c)
		st(h)->ctx_cid_known = 1;
	if (k->updated_v)
		st(h)->ctx_vmid_known = 1;
	memset(c, 0, sizeof *c);
	if (st(h)->ctx_info_known) {
		c->el = (uint8_t)k->EL;
		c->ns = (uint8_t)k->NS;
		c->sf = (uint8_t)k->SF;
		c->nse = (uint8_t)k->NSE;
	}
	if (st(h)->ctx_cid_known)
		c->context_id = k->ctxtID;
	if (st(h)->ctx_vmid_known)
		c->vmid = k->VMID;
}

/* Flushes an Exception still waiting for its address: OpenCSD gave none. */
static void flush_held(struct oc_handle *h)
{
	if (st(h)->held_valid) {
		st(h)->held_valid = 0;
		emit_packet(h, &st(h)->held);
	}
}

/* OpenCSD reports an ETE Exception packet as two packets: the exception
 * (header 06 and its payload) and then the address packet that carries the
 * address header and the address (and, for 82/83/85/86, the context). The
 * canonical packet is one: the exception is held until the next OpenCSD
 * packet. An address packet completes it; an error packet there (the
 * address header was reserved, or cut off by the end of the trace) makes
 * the whole exception packet an error at the exception's offset; any other
 * packet means OpenCSD took the byte after the exception payload as a packet
 * of its own: the exception is reported without an address, then that
 * packet. */
static void deliver(struct oc_handle *h, struct tc_ete_packet *p, ocsd_etmv4_i_pkt_type type)
{
	if (st(h)->held_valid) {
		struct tc_ete_packet *x = &st(h)->held;
		if (p->h.kind == tc_ete_pkt_address || p->h.kind == tc_ete_pkt_addr_ctx) {
			x->has_address = 1;
			x->address = p->address;
			x->isa = p->isa;
			if (p->h.kind == tc_ete_pkt_addr_ctx) {
				x->has_context = 1;
				x->ctx = p->ctx;
			}
			flush_held(h);
			return;
		}
		if (p->h.kind == tc_ete_pkt_error) {
			x->h.kind = tc_ete_pkt_error;
			if (p->error == tc_ete_err_truncated)
				x->error = tc_ete_err_truncated;
			else if (p->header == 0x93)
				x->error = tc_ete_err_exact_match_index;
			else
				x->error = tc_ete_err_reserved_field;
			flush_held(h);
			return;
		}
		flush_held(h);
	}
	if (type == ETM4_PKT_I_EXCEPT) {
		st(h)->held = *p;
		st(h)->held_valid = 1;
		return;
	}
	emit_packet(h, p);
}

/* The error class closest to an OpenCSD bad packet. */
static int error_class(const ocsd_etmv4_i_pkt *k)
{
	switch (k->type) {
	case ETM4_PKT_I_INCOMPLETE_EOT:
		return tc_ete_err_truncated;
	case ETM4_PKT_I_RESERVED:
	case ETM4_PKT_I_RESERVED_CFG:
	case ETM4_PKT_I_BAD_TRACEMODE:
		return tc_ete_err_reserved_header;
	case ETM4_PKT_I_BAD_SEQUENCE:
		switch (k->err_type) {
		case ETM4_PKT_I_ASYNC:
			return tc_ete_err_bad_async;
		case ETM4_PKT_I_EXTENSION:
			return tc_ete_err_reserved_extension;
		case ETM4_PKT_I_Q:
			return tc_ete_err_reserved_header;
		case ETM4_PKT_I_EXCEPT:
			return tc_ete_err_reserved_field;
		default:
			return tc_ete_err_reserved_field;
		}
	default:
		return tc_ete_err_reserved_header;
	}
}

static ocsd_datapath_resp_t l1_packet(const void *ctx, const ocsd_datapath_op_t op, const ocsd_trc_index_t index,
				      const void *pkt_in)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	const ocsd_etmv4_i_pkt *k = pkt_in;
	struct tc_ete_packet p;
	if (op != OCSD_OP_DATA || !k)
		return OCSD_RESP_CONT;
	memset(&p, 0, sizeof p);   /* the adapter links no tracecert code: the header by hand */
	p.h.size = sizeof p;
	p.h.protocol = tc_proto_ete;
	p.h.offset = oc_offset(h, index);
	p.header = oc_header(h, index);
	oc_debug_packet(h, p.h.offset, k, p.header);
	switch (k->type) {
	case ETM4_PKT_I_NOTSYNC:
	case ETM4_PKT_I_NO_ERR_TYPE:
		return OCSD_RESP_CONT;
	case ETM4_PKT_I_INCOMPLETE_EOT:
		/* bytes still waiting for a sync point are skipped, not truncated */
		if (k->err_type == ETM4_PKT_I_NOTSYNC)
			return OCSD_RESP_CONT;
		p.h.kind = tc_ete_pkt_error;
		p.error = tc_ete_err_truncated;
		break;
	case ETM4_PKT_I_BAD_SEQUENCE:
	case ETM4_PKT_I_BAD_TRACEMODE:
	case ETM4_PKT_I_RESERVED:
	case ETM4_PKT_I_RESERVED_CFG:
		p.h.kind = tc_ete_pkt_error;
		p.error = (uint8_t)error_class(k);
		/* OpenCSD rejects 0x93, 0xA3, 0xB3 as reserved headers: they are
		 * the exact-match index 3 forms */
		if (p.error == tc_ete_err_reserved_header &&
		    (p.header == 0x93 || p.header == 0xA3 || p.header == 0xB3))
			p.error = tc_ete_err_exact_match_index;
		break;
	case ETM4_PKT_I_ASYNC:
		p.h.kind = tc_ete_pkt_async;
		break;
	case ETM4_PKT_I_DISCARD:
		p.h.kind = tc_ete_pkt_discard;
		break;
	case ETM4_PKT_I_OVERFLOW:
		p.h.kind = tc_ete_pkt_overflow;
		break;
	case ETM4_PKT_I_TRACE_INFO:
		p.h.kind = tc_ete_pkt_trace_info;
		p.cc_enabled = (uint8_t)k->trace_info.bits.cc_enabled;
		p.in_tx = (uint8_t)k->trace_info.bits.in_trans_state;
		/* the value fields keep the previous Trace Info's values when
		 * a section is absent: the valid bits say what this packet had */
		p.cct = p.cc_enabled && k->pkt_valid.bits.cc_thresh_valid ? k->cc_threshold : 0;
		p.spec = k->pkt_valid.bits.spec_depth_valid ? k->curr_spec_depth : 0;
		break;
	case ETM4_PKT_I_TIMESTAMP:
		p.h.kind = tc_ete_pkt_timestamp;
		p.value = k->ts.timestamp;
		p.has_cc = (uint8_t)(k->pkt_valid.bits.cc_valid != 0);
		p.count = k->cycle_count;
		break;
	case ETM4_PKT_I_TRACE_ON:
		p.h.kind = tc_ete_pkt_trace_on;
		break;
	case ETM4_PKT_I_EXCEPT:
	case ETE_PKT_I_PE_RESET:
	case ETE_PKT_I_TRANS_FAIL:
		/* ETM4_PKT_I_EXCEPT: "Ret Addr Follows", the address is the
		 * next OpenCSD packet (deliver() merges it). PE reset (TYPE 0)
		 * and Transaction Failure (TYPE 0x18): OpenCSD takes one byte
		 * after the payload without reading it as an address header
		 * and sets the address to 0, IS0: reported as it stands. */
		p.h.kind = tc_ete_pkt_exception;
		p.e = (uint8_t)k->exception_info.addr_interp;
		p.type = (uint8_t)k->exception_info.exceptionType;
		if (k->type != ETM4_PKT_I_EXCEPT) {
			p.has_address = 1;
			p.address = k->v_addr.val;
			p.isa = k->v_addr_ISA;
		}
		break;
	case ETE_PKT_I_TRANS_ST:
		p.h.kind = tc_ete_pkt_tx_start;
		break;
	case ETE_PKT_I_TRANS_COMMIT:
		p.h.kind = tc_ete_pkt_tx_commit;
		break;
	case ETM4_PKT_I_CCNT_F1:
	case ETM4_PKT_I_CCNT_F2:
	case ETM4_PKT_I_CCNT_F3:
		p.h.kind = tc_ete_pkt_cycle_count;
		/* OpenCSD computes format 2's MAXSPEC + AAAA - 15 as a signed
		 * value: zero or less commits nothing */
		p.commit = k->pkt_valid.bits.commit_elem_valid && (int32_t)k->commit_elements > 0 ? k->commit_elements : 0;
		p.count = k->cycle_count;
		/* OpenCSD marks the unknown count of format 1 (U=1) as 0 */
		p.cc_unknown = (uint8_t)(k->type == ETM4_PKT_I_CCNT_F1 && k->cycle_count == 0);
		break;
	case ETM4_PKT_I_COMMIT:
		p.h.kind = tc_ete_pkt_commit;
		p.count = k->commit_elements;
		break;
	case ETM4_PKT_I_CANCEL_F1:
	case ETM4_PKT_I_CANCEL_F1_MISPRED:
	case ETM4_PKT_I_CANCEL_F2:
	case ETM4_PKT_I_CANCEL_F3:
		p.h.kind = tc_ete_pkt_cancel;
		p.natoms = k->atom.num;
		p.atoms = k->atom.En_bits;
		p.count = k->cancel_elements;
		p.mispredict = (uint8_t)(k->type != ETM4_PKT_I_CANCEL_F1);
		break;
	case ETM4_PKT_I_MISPREDICT:
		p.h.kind = tc_ete_pkt_mispredict;
		p.natoms = k->atom.num;
		p.atoms = k->atom.En_bits;
		break;
	case ETM4_PKT_I_IGNORE:
		p.h.kind = tc_ete_pkt_ignore;
		break;
	case ETM4_PKT_I_EVENT:
		p.h.kind = tc_ete_pkt_event;
		p.events = k->event_val;
		break;
	case ETM4_PKT_I_CTXT:
		p.h.kind = tc_ete_pkt_context;
		set_ctx(h, &p.ctx, &k->context);
		break;
	case ETM4_PKT_I_ADDR_CTXT_L_32IS0:
	case ETM4_PKT_I_ADDR_CTXT_L_32IS1:
	case ETM4_PKT_I_ADDR_CTXT_L_64IS0:
	case ETM4_PKT_I_ADDR_CTXT_L_64IS1:
		p.h.kind = tc_ete_pkt_addr_ctx;
		p.address = k->v_addr.val;
		p.isa = k->v_addr_ISA;
		set_ctx(h, &p.ctx, &k->context);
		break;
	case ETM4_PKT_I_ADDR_MATCH:
	case ETM4_PKT_I_ADDR_S_IS0:
	case ETM4_PKT_I_ADDR_S_IS1:
	case ETM4_PKT_I_ADDR_L_32IS0:
	case ETM4_PKT_I_ADDR_L_32IS1:
	case ETM4_PKT_I_ADDR_L_64IS0:
	case ETM4_PKT_I_ADDR_L_64IS1:
		p.h.kind = tc_ete_pkt_address;
		p.address = k->v_addr.val;
		p.isa = k->v_addr_ISA;
		break;
	case ETM4_PKT_I_Q:
		p.h.kind = tc_ete_pkt_q;
		p.type = (uint8_t)k->Q_pkt.q_type;
		p.has_address = (uint8_t)k->Q_pkt.addr_present;
		if (p.has_address) {
			p.address = k->v_addr.val;
			p.isa = k->v_addr_ISA;
		}
		p.count = k->Q_pkt.count_present ? k->Q_pkt.q_count : 0;
		break;
	case ETE_PKT_I_SRC_ADDR_MATCH:
	case ETE_PKT_I_SRC_ADDR_S_IS0:
	case ETE_PKT_I_SRC_ADDR_S_IS1:
	case ETE_PKT_I_SRC_ADDR_L_32IS0:
	case ETE_PKT_I_SRC_ADDR_L_32IS1:
	case ETE_PKT_I_SRC_ADDR_L_64IS0:
	case ETE_PKT_I_SRC_ADDR_L_64IS1:
		p.h.kind = tc_ete_pkt_source_address;
		p.address = k->v_addr.val;
		p.isa = k->v_addr_ISA;
		break;
	case ETM4_PKT_I_ATOM_F1:
	case ETM4_PKT_I_ATOM_F2:
	case ETM4_PKT_I_ATOM_F3:
	case ETM4_PKT_I_ATOM_F4:
	case ETM4_PKT_I_ATOM_F5:
	case ETM4_PKT_I_ATOM_F6:
		p.h.kind = tc_ete_pkt_atom;
		p.natoms = k->atom.num;
		p.atoms = k->atom.En_bits;
		break;
	case ETE_PKT_I_TS_MARKER:
		p.h.kind = tc_ete_pkt_ts_marker;
		break;
	default:
		/* a packet type ETE does not define (ETMv4 data/conditional
		 * trace, return, commit window...): OpenCSD accepted a header
		 * ETE reserves */
		p.h.kind = tc_ete_pkt_error;
		p.error = tc_ete_err_reserved_header;
		break;
	}
	deliver(h, &p, k->type);
	return OCSD_RESP_CONT;
}

/* ---- L3 ------------------------------------------------------------------- */

static void emit_l3_now(struct oc_handle *h, const struct tc_l3 *x)
{
	oc_emit(h, tc_level_l3, &x->h);
}

static void tx_flush(struct oc_handle *h)
{
	for (size_t i = 0; i < st(h)->txlen; i++)
		emit_l3_now(h, &st(h)->txbuf[i]);
	st(h)->txlen = 0;
}

/* OpenCSD outputs the instructions of a transaction as it decodes them and
 * then a MEMTRANS element: COMMIT, or FAIL, documented as "operations since
 * start of transaction have been unwound". The canonical L3 reports what
 * executed without the unwound operations: the items after a Transaction
 * Start are held, passed on at its Commit (or at the end of the trace), and
 * dropped at its Failure. If memory runs short they are passed on at once. */
static void emit_l3(struct oc_handle *h, const struct tc_l3 *x)
{
	if (st(h)->in_tx) {
		if (st(h)->txlen == st(h)->txcap) {
			size_t cap = st(h)->txcap ? 2 * st(h)->txcap : 64;
			struct tc_l3 *b = realloc(st(h)->txbuf, cap * sizeof *b);
			if (!b) {
				tx_flush(h);
				emit_l3_now(h, x);
				return;
			}
			st(h)->txbuf = b;
			st(h)->txcap = cap;
		}
		st(h)->txbuf[st(h)->txlen++] = *x;
		return;
	}
	emit_l3_now(h, x);
}

static int isa_code(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_aarch64: return tc_isa_a64;
	case ocsd_isa_thumb2: return tc_isa_t32;
	default: return tc_isa_a32;
	}
}

static int insn_type(ocsd_instr_type t)
{
	switch (t) {
	case OCSD_INSTR_BR: return tc_insn_branch_dir;
	case OCSD_INSTR_BR_INDIRECT: return tc_insn_branch_indir;
	case OCSD_INSTR_ISB: return tc_insn_isb;
	case OCSD_INSTR_WFI_WFE: return tc_insn_wfx;
	case OCSD_INSTR_TSTART: return tc_insn_tstart;
	default: return tc_insn_other;
	}
}

/* An L3 error item for the error OpenCSD's decoder logged last (it resets
 * and waits for the next synchronisation after it). The class is the
 * closest one to the OpenCSD error code: a reserved or unknown packet is
 * reserved-header, a commit beyond the outstanding P0 elements is
 * commit-overrun, anything else (bad packet sequence...) reserved-field. */
static void l3_error(struct oc_handle *h, uint64_t fallback_index)
{
	struct tc_l3 x;
	ocsd_trc_index_t index = 0;
	uint8_t chan = 0;
	char msg[256];
	ocsd_err_t code = ocsd_get_last_err(&index, &chan, msg, (int)sizeof msg);
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_ete;
	x.h.kind = tc_l3_error;
	/* a commit overrun with an empty P0 stack is logged at index 0, which
	 * names no byte (OpenCSD has no element to take an index from) */
	if (code == OCSD_OK || (code == OCSD_ERR_COMMIT_PKT_OVERRUN && index == 0))
		x.h.offset = fallback_index;
	else
		x.h.offset = oc_offset(h, index);
	switch (code) {
	case OCSD_ERR_INVALID_PCKT_HDR:
	case OCSD_ERR_BAD_DECODE_PKT:
	case OCSD_ERR_UNSUPP_DECODE_PKT:
		x.error = tc_ete_err_reserved_header;
		break;
	case OCSD_ERR_COMMIT_PKT_OVERRUN:
		x.error = tc_ete_err_commit_overrun;
		break;
	default:
		x.error = tc_ete_err_reserved_field;
		break;
	}
	if (h->debug)
		fprintf(stderr, "ocsd-l3-error code %d @%llu: %s\n", (int)code, (unsigned long long)x.h.offset, msg);
	st(h)->last_ctx_valid = 0;
	emit_l3(h, &x);
}

static ocsd_datapath_resp_t l3_elem(const void *ctx, const ocsd_trc_index_t index, const uint8_t chan,
				    const ocsd_generic_trace_elem *e)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	struct tc_l3 x;
	uint64_t off = oc_unwrap(h->fed_end, (uint32_t)index);
	(void)chan;
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_ete;
	/* OpenCSD passes an uninitialised index with I_RANGE_NOPATH (the root
	 * index of its Q stack element): that one, and an index beyond the
	 * bytes given so far, are replaced by the last good one */
	if (off != OC_NO_OFFSET && e->elem_type != OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH)
		st(h)->l3_index = off;
	x.h.offset = st(h)->l3_index;
	oc_debug_elem(h, x.h.offset, index, e);
	switch (e->elem_type) {
	case OCSD_GEN_TRC_ELEM_INSTR_RANGE:
		x.h.kind = tc_l3_range;
		x.first = e->st_addr;
		x.last = e->en_addr - e->last_instr_sz;
		x.count = e->num_instr_range;
		x.isa = (uint8_t)isa_code(e->isa);
		x.last_type = (uint8_t)insn_type(e->last_i_type);
		/* OpenCSD's waypoints (P0 instructions) are the branches, ISB,
		 * WFI/WFE (with WFXMODE) and, for ETE, TSTART (type tstart,
		 * reference/ete/ERRATA.md TC-P27). */
		if (x.last_type == tc_insn_other)
			x.taken = tc_taken_none;
		else
			x.taken = e->last_instr_exec ? tc_taken_e : tc_taken_n;
		break;
	case OCSD_GEN_TRC_ELEM_I_RANGE_NOPATH:
		/* a Q element: OpenCSD gives the first address and the count,
		 * and as en_addr the address executed next - not the last
		 * instruction; it does not walk the range. The last address
		 * and the last InstType are not provided: printed as first
		 * and other, outcome '?'. A count of 0 executed nothing. */
		if (e->num_instr_range == 0)
			return OCSD_RESP_CONT;
		x.h.kind = tc_l3_range;
		x.first = e->st_addr;
		x.last = e->st_addr;
		x.count = e->num_instr_range;
		x.isa = (uint8_t)isa_code(e->isa);
		x.last_type = tc_insn_other;
		x.taken = tc_taken_unknown;
		break;
	case OCSD_GEN_TRC_ELEM_EXCEPTION:
		x.h.kind = tc_l3_exception;
		x.type = (uint8_t)e->exception_number;
		if (e->excep_ret_addr)
			x.address = e->en_addr;
		else
			x.unknown = 1;
		break;
	case OCSD_GEN_TRC_ELEM_PE_CONTEXT:
		x.h.kind = tc_l3_context;
		x.ctx.el = (uint8_t)(e->context.el_valid ? e->context.exception_level : 0);
		x.ctx.ns = (uint8_t)(e->context.security_level == ocsd_sec_nonsecure ||
				     e->context.security_level == ocsd_sec_realm);
		x.ctx.nse = (uint8_t)(e->context.security_level == ocsd_sec_root ||
				      e->context.security_level == ocsd_sec_realm);
		x.ctx.sf = (uint8_t)e->context.bits64;
		x.ctx.context_id = e->context.ctxt_id_valid ? e->context.context_id : 0;
		x.ctx.vmid = e->context.vmid_valid ? e->context.vmid : 0;
		/* FORMAT.md: a context item only when the context changes */
		if (st(h)->last_ctx_valid && !memcmp(&st(h)->last_ctx, &x.ctx, sizeof x.ctx))
			return OCSD_RESP_CONT;
		st(h)->last_ctx = x.ctx;
		st(h)->last_ctx_valid = 1;
		break;
	case OCSD_GEN_TRC_ELEM_TRACE_ON:
		x.h.kind = tc_l3_trace_on;
		break;
	case OCSD_GEN_TRC_ELEM_ADDR_NACC:
		x.h.kind = tc_l3_no_image;
		x.address = e->st_addr;
		x.isa = (uint8_t)isa_code(e->isa);
		break;
	case OCSD_GEN_TRC_ELEM_TIMESTAMP:
		/* OpenCSD sets has_cc with a count of 0 for a timestamp packet
		 * without a count when cycle counting is on, and marks an
		 * unknown count as 0: 0 prints as unknown */
		x.h.kind = tc_l3_timestamp;
		x.value = e->timestamp;
		if (e->has_cc && e->cycle_count != 0)
			x.count = e->cycle_count;
		else
			x.unknown = 1;
		break;
	case OCSD_GEN_TRC_ELEM_CYCLE_COUNT:
		/* "unknown CC marked as 0" (format 1, U=1) */
		x.h.kind = tc_l3_cycle_count;
		x.count = e->cycle_count;
		x.unknown = (uint8_t)(e->cycle_count == 0);
		break;
	case OCSD_GEN_TRC_ELEM_EVENT:
		/* ev_number is the packet's EVENT field, a mask of events 0-3:
		 * one item per event, ascending */
		if (e->trace_event.ev_type != EVENT_NUMBERED)
			return OCSD_RESP_CONT;
		x.h.kind = tc_l3_event;
		for (unsigned i = 0; i < 16; i++) {
			if ((e->trace_event.ev_number >> i) & 1) {
				x.count = i;
				emit_l3(h, &x);
			}
		}
		return OCSD_RESP_CONT;
	case OCSD_GEN_TRC_ELEM_MEMTRANS:
		switch (e->mem_trans) {
		case OCSD_MEM_TRANS_START:
			x.h.kind = tc_l3_trans_start;
			emit_l3(h, &x);
			st(h)->in_tx = 1;
			return OCSD_RESP_CONT;
		case OCSD_MEM_TRANS_COMMIT:
			x.h.kind = tc_l3_trans_commit;
			st(h)->in_tx = 0;
			tx_flush(h);
			break;
		case OCSD_MEM_TRANS_FAIL:
			x.h.kind = tc_l3_trans_failure;
			st(h)->in_tx = 0;
			st(h)->txlen = 0;
			break;
		default:
			return OCSD_RESP_CONT;
		}
		break;
	case OCSD_GEN_TRC_ELEM_SYNC_MARKER:
		if (e->sync_marker.type != ELEM_MARKER_TS)
			return OCSD_RESP_CONT;
		x.h.kind = tc_l3_ts_marker;
		break;
	case OCSD_GEN_TRC_ELEM_NO_SYNC:
		switch (e->unsync_eot_info) {
		case UNSYNC_OVERFLOW: x.h.kind = tc_l3_overflow; break;
		case UNSYNC_DISCARD: x.h.kind = tc_l3_discard; break;
		case UNSYNC_BAD_PACKET:
			l3_error(h, st(h)->l3_index);
			return OCSD_RESP_CONT;
		default: return OCSD_RESP_CONT;
		}
		st(h)->last_ctx_valid = 0;
		break;
	default:
		/* EO_TRACE, UNKNOWN, ADDR_UNKNOWN, EXCEPTION_RET, SWTRACE, CUSTOM */
		return OCSD_RESP_CONT;
	}
	emit_l3(h, &x);
	return OCSD_RESP_CONT;
}

/* ---- the protocol ------------------------------------------------------------ */

/* A configuration OpenCSD can be given. */
static int check(const void *cfg, unsigned levels, char *err, size_t errlen)
{
	const struct tc_ete_config *c = cfg;
	(void)levels;   /* every configuration it takes decodes at both levels */
	if (c->maxspec > TC_ETE_MAXSPEC_LIMIT) {
		snprintf(err, errlen, "maxspec out of range");
		return -1;
	}
	return 0;
}

static void finish_l1(struct oc_handle *h)
{
	flush_held(h);
}

static void finish_l3(struct oc_handle *h)
{
	st(h)->in_tx = 0;
	tx_flush(h);
}

static void free_state(struct oc_handle *h)
{
	free(st(h)->txbuf);
}

/* Feature tags OpenCSD 1.3.x cannot decode. */
const char *const oc_ete_unsupported[] = {
	"ite",            /* FEAT_ITE Instrumentation packet (header 0x09) */
	"instrumentation",
	"walk-limit",     /* no limit on the instructions one element walks */
	"queue-overflow", /* no resolution-queue capacity (queue_cap) */
	NULL,
};

const struct oc_protocol oc_ete = {
	.protocol = tc_proto_ete,
	.decoder = OCSD_BUILTIN_DCD_ETMV4I,
	.ocsd_protocol = OCSD_PROTOCOL_ETMV4I,
	.config_size = sizeof(struct tc_ete_config),
	.full_flags = ETE_OPFLG_PKTDEC_SRCADDR_N_ATOMS,
	.state_size = sizeof(struct ete_state),
	.check = check,
	.make_config = make_config,
	.ocsd_config_size = sizeof(ocsd_etmv4_cfg),
	.l1_packet = l1_packet,
	.l3_elem = l3_elem,
	.l3_monitor = NULL,
	.l3_fatal = l3_error,
	.finish_l1 = finish_l1,
	.finish_l3 = finish_l3,
	.free_state = free_state,
};
