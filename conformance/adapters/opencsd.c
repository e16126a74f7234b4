/* opencsd.c — OpenCSD (libopencsd 1.3.x, Debian libopencsd-dev) as a tracecert adapter.
 *
 * Only the installed OpenCSD C API is used (opencsd/c_api/opencsd_c_api.h,
 * -lopencsd_c_api -lopencsd); no OpenCSD source is part of tracecert.
 * TC_OCSD_DEBUG=1 in the environment prints OpenCSD's own packet and
 * element strings, memory requests and logged errors on stderr.
 *
 * How OpenCSD is driven
 *   OpenCSD 1.3.x decodes ETE with its ETMv4 instruction-trace packet
 *   processor and decoder: an ocsd_etmv4_cfg whose TRCIDR1 says
 *   architecture 5 (ETE) enables the ETE packets (transactions, source
 *   addresses, timestamp marker, PE reset / transaction failure). The
 *   builtin "ETE" decoder is not usable through the 1.3.x C API (attaching
 *   a packet sink returns OCSD_ERR_NO_PROTOCOL), so "ETMV4I" is created.
 *
 *   L1: a decode tree with the packet processor only
 *       (OCSD_CREATE_FLG_PACKET_PROC), the packet sink and the packet
 *       monitor (ocsd_dt_attach_packet_callback). The monitor hands over
 *       the raw bytes OpenCSD assigned to each packet: the header column is
 *       the first of them (ocsd_etmv4_i_pkt has no header field). Offsets
 *       are OpenCSD's packet indexes.
 *   L3: a second tree with the full decoder
 *       (+ ETE_OPFLG_PKTDEC_SRCADDR_N_ATOMS, so that ranges end at every
 *       not-taken branch also with source addresses), a callback memory
 *       accessor over the runner's regions (any security state / EL) and
 *       the generic element output. Datapath: OCSD_OP_DATA, OCSD_OP_FLUSH
 *       after a WAIT response, OCSD_OP_EOT in finish(); after a fatal
 *       response the tree is reset (OCSD_OP_RESET) and decoding resumes at
 *       the next A-sync.
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
 *   tx_cap and walk_limit: see unsupported_tags.
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
 *
 * Offsets beyond 4 GiB
 *   The installed C API's ocsd_trc_index_t is 32 bits (opencsd/ocsd_if_types.h:
 *   uint32_t unless ENABLE_LARGE_TRACE_SOURCES is defined, which nothing in
 *   Debian's libopencsd-dev 1.3.3 does; the library is built to match). The
 *   adapter hands OpenCSD the low 32 bits of each block's 64-bit offset;
 *   OpenCSD's index arithmetic (block index + bytes consumed) wraps the same
 *   way, so every index it reports is the true offset modulo 2^32. The high
 *   part is restored by oc_unwrap() against the end of the bytes OpenCSD has
 *   been given so far (h->fed_end, advanced at every ocsd_dt_process_data
 *   call): the offset is the last one at or before that end with those low
 *   32 bits. This is exact as long as what OpenCSD reports lags less than
 *   4 GiB behind the bytes it was given (a packet, or a P0 element waiting
 *   for its commit). conformance/test/opencsd_offsets.c tests it
 *   (tests/opencsd-offsets.t).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opencsd/c_api/opencsd_c_api.h>

#include "tracecert/adapter.h"

#define OC_TRACE_ID 0x10

/* InstType / ISA codes of FORMAT.md (reference/insn.h), repeated here: the
 * adapter only sees the public headers. */
enum { oc_isa_a64 = 0, oc_isa_a32 = 1, oc_isa_t32 = 2 };
enum { oc_insn_other = 0, oc_insn_dir, oc_insn_indir, oc_insn_wfx, oc_insn_isb, oc_insn_tstart };

struct oc_handle {
	struct tc_adapter_callbacks cb;
	struct tc_ete_config cfg;
	unsigned levels;
	uint64_t fed;                     /* bytes fed so far (the next offset) */
	uint64_t fed_end;                 /* end of the bytes OpenCSD has been given (oc_unwrap) */
	uint64_t l3_index;                /* index of the last L3 element */
	/* L1 */
	dcd_tree_handle_t l1;
	uint8_t raw[64];                  /* first bytes of the last monitored packet */
	uint32_t raw_len;
	uint64_t raw_index;
	int raw_valid;
	struct tc_ete_packet held;        /* an Exception waiting for its address packet */
	int held_valid;
	int ctx_info_known;               /* OpenCSD has decoded EL/NS/SF (context payload) */
	int ctx_cid_known;                /* ... a context ID */
	int ctx_vmid_known;               /* ... a VMID */
	/* L3 */
	dcd_tree_handle_t l3;
	struct tc_adapter_region *regions;
	size_t nregions;
	struct tc_context last_ctx;
	struct tc_l3 *txbuf;          /* items since a Transaction Start */
	size_t txlen, txcap;
	int in_tx;
	int last_ctx_valid;
	int debug;
};

/* ---- configuration -------------------------------------------------------- */

static void make_config(const struct tc_ete_config *c, ocsd_etmv4_cfg *r)
{
	memset(r, 0, sizeof *r);
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

/* ---- offsets -------------------------------------------------------------- */

/* An offset that no byte given to OpenCSD can have (oc_unwrap). */
#define OC_NO_OFFSET UINT64_MAX

/* The 64-bit offset of an index OpenCSD reports (the offset modulo 2^32),
 * when bytes [0, end) have been given to it: the last offset below end with
 * those low 32 bits, or OC_NO_OFFSET when there is none (an index at or
 * beyond end within the first 4 GiB: not a byte OpenCSD has seen). */
static uint64_t oc_unwrap(uint64_t end, uint32_t index)
{
	uint32_t lag;
	if (end == 0)
		return OC_NO_OFFSET;
	lag = (uint32_t)(end - 1) - index;   /* modulo 2^32 */
	return lag > end - 1 ? OC_NO_OFFSET : end - 1 - lag;
}

/* The index OpenCSD is given for a byte: its offset modulo 2^32. */
static ocsd_trc_index_t oc_index(uint64_t offset)
{
	return (ocsd_trc_index_t)(uint32_t)offset;
}

/* The offset of an index OpenCSD reports now (0 if it names no byte given). */
static uint64_t oc_offset(const struct oc_handle *h, ocsd_trc_index_t index)
{
	uint64_t off = oc_unwrap(h->fed_end, (uint32_t)index);
	return off == OC_NO_OFFSET ? 0 : off;
}

/* ---- L1 ------------------------------------------------------------------- */

static void emit_packet(struct oc_handle *h, struct tc_ete_packet *p)
{
	if (h->cb.packet)
		h->cb.packet(h->cb.ctx, p);
}

/* The context OpenCSD carries in its packet structure. OpenCSD leaves these
 * fields uninitialised until it has decoded a context payload (and never
 * resets them at a Trace Info): parts it has not decoded yet are reported
 * as 0. */
static void set_ctx(struct oc_handle *h, struct tc_context *c, const etmv4_context_t *k)
{
	if (k->updated)
		h->ctx_info_known = 1;
	if (k->updated_c)
		h->ctx_cid_known = 1;
	if (k->updated_v)
		h->ctx_vmid_known = 1;
	memset(c, 0, sizeof *c);
	if (h->ctx_info_known) {
		c->el = (uint8_t)k->EL;
		c->ns = (uint8_t)k->NS;
		c->sf = (uint8_t)k->SF;
		c->nse = (uint8_t)k->NSE;
	}
	if (h->ctx_cid_known)
		c->context_id = k->ctxtID;
	if (h->ctx_vmid_known)
		c->vmid = k->VMID;
}

/* Flushes an Exception still waiting for its address: OpenCSD gave none. */
static void flush_held(struct oc_handle *h)
{
	if (h->held_valid) {
		h->held_valid = 0;
		emit_packet(h, &h->held);
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
	if (h->held_valid) {
		struct tc_ete_packet *x = &h->held;
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
		h->held = *p;
		h->held_valid = 1;
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
	if (h->raw_valid && h->raw_index == index && h->raw_len > 0)
		p.header = h->raw[0];
	if (h->debug) {
		char buf[1024];
		ocsd_pkt_str(OCSD_PROTOCOL_ETMV4I, k, buf, (int)sizeof buf);
		fprintf(stderr, "ocsd-l1 @%llu [%u bytes, hdr %02x] %s\n", (unsigned long long)p.h.offset,
			h->raw_valid && h->raw_index == index ? h->raw_len : 0, p.header, buf);
	}
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

static void l1_monitor(const void *ctx, const ocsd_datapath_op_t op, const ocsd_trc_index_t index,
		       const void *pkt, const uint32_t size, const uint8_t *data)
{
	struct oc_handle *h = (struct oc_handle *)ctx;
	(void)pkt;
	if (op != OCSD_OP_DATA || !data || size == 0)
		return;
	h->raw_index = index;
	h->raw_len = size < sizeof h->raw ? size : (uint32_t)sizeof h->raw;
	memcpy(h->raw, data, h->raw_len);
	h->raw_valid = 1;
}

/* ---- L3 ------------------------------------------------------------------- */

static void emit_l3_now(struct oc_handle *h, const struct tc_l3 *x)
{
	if (h->cb.l3)
		h->cb.l3(h->cb.ctx, x);
}

static void tx_flush(struct oc_handle *h)
{
	for (size_t i = 0; i < h->txlen; i++)
		emit_l3_now(h, &h->txbuf[i]);
	h->txlen = 0;
}

/* OpenCSD outputs the instructions of a transaction as it decodes them and
 * then a MEMTRANS element: COMMIT, or FAIL, documented as "operations since
 * start of transaction have been unwound". The canonical L3 reports what
 * executed without the unwound operations: the items after a Transaction
 * Start are held, passed on at its Commit (or at the end of the trace), and
 * dropped at its Failure. If memory runs short they are passed on at once. */
static void emit_l3(struct oc_handle *h, const struct tc_l3 *x)
{
	if (h->in_tx) {
		if (h->txlen == h->txcap) {
			size_t cap = h->txcap ? 2 * h->txcap : 64;
			struct tc_l3 *b = realloc(h->txbuf, cap * sizeof *b);
			if (!b) {
				tx_flush(h);
				emit_l3_now(h, x);
				return;
			}
			h->txbuf = b;
			h->txcap = cap;
		}
		h->txbuf[h->txlen++] = *x;
		return;
	}
	emit_l3_now(h, x);
}

static int isa_code(ocsd_isa isa)
{
	switch (isa) {
	case ocsd_isa_aarch64: return oc_isa_a64;
	case ocsd_isa_thumb2: return oc_isa_t32;
	default: return oc_isa_a32;
	}
}

static int insn_type(ocsd_instr_type t)
{
	switch (t) {
	case OCSD_INSTR_BR: return oc_insn_dir;
	case OCSD_INSTR_BR_INDIRECT: return oc_insn_indir;
	case OCSD_INSTR_ISB: return oc_insn_isb;
	case OCSD_INSTR_WFI_WFE: return oc_insn_wfx;
	case OCSD_INSTR_TSTART: return oc_insn_tstart;
	default: return oc_insn_other;
	}
}

static uint32_t mem_read(const void *ctx, const ocsd_vaddr_t address, const ocsd_mem_space_acc_t space,
			 const uint32_t req, uint8_t *buf)
{
	const struct oc_handle *h = ctx;
	(void)space;
	if (h->debug)
		fprintf(stderr, "ocsd-mem 0x%llx %u space 0x%x\n", (unsigned long long)address, req, (unsigned)space);
	for (size_t i = 0; i < h->nregions; i++) {
		const struct tc_adapter_region *r = &h->regions[i];
		if (address >= r->base && address - r->base < r->size) {
			uint64_t avail = r->size - (address - r->base);
			uint32_t n = avail < req ? (uint32_t)avail : req;
			memcpy(buf, r->data + (address - r->base), n);
			return n;
		}
	}
	return 0;
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
	h->last_ctx_valid = 0;
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
		h->l3_index = off;
	x.h.offset = h->l3_index;
	if (h->debug) {
		char buf[1024];
		ocsd_gen_elem_str(e, buf, (int)sizeof buf);
		fprintf(stderr, "ocsd-l3 @%llu (index %llu) %s\n", (unsigned long long)x.h.offset,
			(unsigned long long)index, buf);
	}
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
		 * reference/ERRATA.md TC-P27). */
		if (x.last_type == oc_insn_other)
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
		x.last_type = oc_insn_other;
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
		if (h->last_ctx_valid && !memcmp(&h->last_ctx, &x.ctx, sizeof x.ctx))
			return OCSD_RESP_CONT;
		h->last_ctx = x.ctx;
		h->last_ctx_valid = 1;
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
			h->in_tx = 1;
			return OCSD_RESP_CONT;
		case OCSD_MEM_TRANS_COMMIT:
			x.h.kind = tc_l3_trans_commit;
			h->in_tx = 0;
			tx_flush(h);
			break;
		case OCSD_MEM_TRANS_FAIL:
			x.h.kind = tc_l3_trans_failure;
			h->in_tx = 0;
			h->txlen = 0;
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
			l3_error(h, h->l3_index);
			return OCSD_RESP_CONT;
		default: return OCSD_RESP_CONT;
		}
		h->last_ctx_valid = 0;
		break;
	default:
		/* EO_TRACE, UNKNOWN, ADDR_UNKNOWN, EXCEPTION_RET, SWTRACE, CUSTOM */
		return OCSD_RESP_CONT;
	}
	emit_l3(h, &x);
	return OCSD_RESP_CONT;
}

/* ---- the adapter ------------------------------------------------------------ */

static void oc_close(void *handle)
{
	struct oc_handle *h = handle;
	if (!h)
		return;
	if (h->l1)
		ocsd_destroy_dcd_tree(h->l1);
	if (h->l3)
		ocsd_destroy_dcd_tree(h->l3);
	free(h->regions);
	free(h->txbuf);
	free(h);
}

/* ocsd_dt_attach_packet_callback takes its function as a void pointer. */
static void *fn_ptr_sink(FnDefPktDataIn fn)
{
	void *p;
	memcpy(&p, &fn, sizeof p);
	return p;
}

static void *fn_ptr_mon(FnDefPktDataMon fn)
{
	void *p;
	memcpy(&p, &fn, sizeof p);
	return p;
}

static dcd_tree_handle_t make_tree(struct oc_handle *h, int full, char *err, size_t errlen)
{
	ocsd_etmv4_cfg cfg;
	unsigned char csid = 0;
	ocsd_err_t rc;
	dcd_tree_handle_t t = ocsd_create_dcd_tree(OCSD_TRC_SRC_SINGLE, 0);
	if (t == C_API_INVALID_TREE_HANDLE) {
		snprintf(err, errlen, "ocsd_create_dcd_tree failed");
		return NULL;
	}
	make_config(&h->cfg, &cfg);
	rc = ocsd_dt_create_decoder(t, OCSD_BUILTIN_DCD_ETMV4I,
				    full ? OCSD_CREATE_FLG_FULL_DECODER | ETE_OPFLG_PKTDEC_SRCADDR_N_ATOMS
					 : OCSD_CREATE_FLG_PACKET_PROC,
				    &cfg, &csid);
	if (rc == OCSD_OK && !full) {
		rc = ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_SINK, fn_ptr_sink(l1_packet), h);
		if (rc == OCSD_OK)
			rc = ocsd_dt_attach_packet_callback(t, csid, OCSD_C_API_CB_PKT_MON, fn_ptr_mon(l1_monitor), h);
	}
	if (rc == OCSD_OK && full) {
		rc = ocsd_dt_set_gen_elem_outfn(t, l3_elem, h);
		if (rc == OCSD_OK && h->nregions > 0) {
			for (size_t i = 0; i < h->nregions && rc == OCSD_OK; i++) {
				const struct tc_adapter_region *r = &h->regions[i];
				rc = ocsd_dt_add_callback_mem_acc(t, r->base, r->base + r->size - 1, OCSD_MEM_SPACE_ANY,
								  mem_read, h);
			}
		}
	}
	if (rc != OCSD_OK) {
		char msg[128];
		ocsd_err_str(rc, msg, (int)sizeof msg);
		snprintf(err, errlen, "OpenCSD: %s", msg);
		ocsd_destroy_dcd_tree(t);
		return NULL;
	}
	return t;
}

static void *oc_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct oc_handle *h;
	if (!a || a->protocol != tc_adapter_ete || !a->ete) {
		snprintf(err, errlen, "only the ETE protocol is supported");
		return NULL;
	}
	if (a->ete->maxspec > TC_ETE_MAXSPEC_LIMIT) {
		snprintf(err, errlen, "maxspec out of range");
		return NULL;
	}
	h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->cb = a->cb;
	h->cfg = *a->ete;
	h->levels = a->levels;
	h->debug = getenv("TC_OCSD_DEBUG") != NULL;
	if (a->nregions > 0) {
		h->regions = calloc(a->nregions, sizeof *h->regions);
		if (!h->regions) {
			snprintf(err, errlen, "out of memory");
			oc_close(h);
			return NULL;
		}
		for (size_t i = 0; i < a->nregions; i++)
			if (a->regions[i].size > 0)
				h->regions[h->nregions++] = a->regions[i];
	}
	/* errors are kept (ocsd_get_last_err) but printed only when debugging */
	ocsd_def_errlog_init(h->debug ? OCSD_ERR_SEV_INFO : OCSD_ERR_SEV_ERROR, h->debug);
	if (h->levels & tc_adapter_l1) {
		h->l1 = make_tree(h, 0, err, errlen);
		if (!h->l1) {
			oc_close(h);
			return NULL;
		}
	}
	if (h->levels & tc_adapter_l3) {
		h->l3 = make_tree(h, 1, err, errlen);
		if (!h->l3) {
			oc_close(h);
			return NULL;
		}
	}
	return h;
}

/* Pushes one block, whose first byte is at 64-bit offset `offset`, through
 * a tree: a WAIT response is answered with a FLUSH; a fatal response resets
 * the tree and skips the byte at fault. OpenCSD gets each piece's offset
 * modulo 2^32 (oc_index), h->fed_end the end of what it has been given. */
static int push(struct oc_handle *h, dcd_tree_handle_t t, uint64_t offset, const uint8_t *data, size_t len)
{
	size_t done = 0;
	unsigned stalled = 0;
	while (done < len) {
		uint32_t n = 0;
		uint32_t chunk = len - done > 0x10000000u ? 0x10000000u : (uint32_t)(len - done);
		ocsd_datapath_resp_t r;
		h->fed_end = offset + done + chunk;
		r = ocsd_dt_process_data(t, OCSD_OP_DATA, oc_index(offset + done), chunk, data + done, &n);
		done += n;
		if (h->debug)
			fprintf(stderr, "ocsd-resp %d (%u bytes at %llu)\n", (int)r, n, (unsigned long long)(offset + done));
		if (OCSD_DATA_RESP_IS_FATAL(r)) {
			/* OpenCSD gave up (e.g. "Address missing in Q packet"):
			 * the error is reported, the tree reset; decoding
			 * resumes at the next A-sync */
			if (t == h->l3)
				l3_error(h, offset + done);
			ocsd_dt_process_data(t, OCSD_OP_RESET, 0, 0, NULL, NULL);
			if (n == 0)
				done++;
			continue;
		}
		stalled = n == 0 ? stalled + 1 : 0;
		if (stalled > 64)
			return -1;   /* no progress */
		if (OCSD_DATA_RESP_IS_WAIT(r)) {
			r = ocsd_dt_process_data(t, OCSD_OP_FLUSH, 0, 0, NULL, NULL);
			if (OCSD_DATA_RESP_IS_FATAL(r))
				return -1;
		} else if (n == 0 && done < len) {
			return -1;   /* no progress without a reason */
		}
	}
	return 0;
}

static int oc_feed(void *handle, const uint8_t *data, size_t len)
{
	struct oc_handle *h = handle;
	int rc = 0;
	if (!h || (!data && len > 0))
		return -1;
	if (len == 0)
		return 0;
	if (h->l1 && push(h, h->l1, h->fed, data, len))
		rc = -1;
	if (h->l3 && push(h, h->l3, h->fed, data, len))
		rc = -1;
	h->fed += len;
	h->fed_end = h->fed;
	return rc;
}

static int finish_tree(dcd_tree_handle_t t)
{
	ocsd_datapath_resp_t r = ocsd_dt_process_data(t, OCSD_OP_EOT, 0, 0, NULL, NULL);
	return OCSD_DATA_RESP_IS_FATAL(r) ? -1 : 0;
}

static int oc_finish(void *handle)
{
	struct oc_handle *h = handle;
	int rc = 0;
	if (!h)
		return -1;
	if (h->l1) {
		if (finish_tree(h->l1))
			rc = -1;
		flush_held(h);
	}
	if (h->l3) {
		if (finish_tree(h->l3))
			rc = -1;
		h->in_tx = 0;
		tx_flush(h);
	}
	return rc;
}

/* Feature tags OpenCSD 1.3.x cannot decode. */
static const char *const oc_unsupported[] = {
	"ite",            /* FEAT_ITE Instrumentation packet (header 0x09) */
	"instrumentation",
	"walk-limit",     /* no limit on the instructions one element walks */
	"queue-overflow", /* no resolution-queue capacity (queue_cap) */
	NULL,
};

static const struct tc_adapter opencsd_adapter = {
	TC_ADAPTER_ABI_VERSION,
	"opencsd",
	"OpenCSD " OCSD_VER_STRING " (ETMV4I decoder, ETE configuration)",
	tc_adapter_ete,
	tc_adapter_l1 | tc_adapter_l3,
	oc_unsupported,
	oc_open,
	oc_feed,
	oc_finish,
	oc_close,
};

const struct tc_adapter *tracecert_adapter_v1(void)
{
	return &opencsd_adapter;
}
