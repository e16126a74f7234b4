/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_parse.c — ETE stage 1: parsing the byte stream into elements (K10.5.2). */
#include <string.h>

#include "ete_internal.h"

/* Everything one Parse_Trace turn works on: the configuration, a copy of
 * DSTATE.IA, the byte reader and the packet's outputs. */
struct tc_parse {
	const struct tc_ete_config *cfg;
	struct tc_ete_ia *ia;
	struct tc_reader r;
	struct tc_packet_out *out;
	uint64_t offset;
};

/* ---- K10.5.2.18.1 ReadAndConsume and the error helpers ---------------- */

static void fail(struct tc_parse *p, int error)
{
	if (!p->r.error && !p->r.need_more)
		p->r.error = error;
}

static int failed(const struct tc_parse *p)
{
	return p->r.error || p->r.need_more;
}

/* K10.5.6.3.5 SBZ */
static void sbz(struct tc_parse *p, uint64_t bits)
{
	TC_CLAUSE("K10.5.6.3.5/SBZ");
	if (bits)
		fail(p, tc_ete_err_sbz);
}

/* TC-R1: a field the text does not read (or does not assign) is ignored
 * and reported as a warning; decoding goes on as if it were not there. */
static void warn(struct tc_parse *p, int warning, int field, uint64_t bits)
{
	struct tc_packet_out *out = p->out;
	TC_CLAUSE("TC-R1/Warning");
	if (out->nwarn < TC_ETE_MAX_WARN) {   /* always: no packet warns more than twice */
		out->warn[out->nwarn].warning = (uint8_t)warning;
		out->warn[out->nwarn].field = (uint8_t)field;
		out->warn[out->nwarn].bits = (uint16_t)bits;
		out->nwarn++;
	}
}

/* Bits the text leaves unassigned (Arm's RES0 rule for readers, TC-R1). */
static void res0(struct tc_parse *p, int field, uint64_t bits)
{
	if (bits)
		warn(p, tc_ete_warn_res0, field, bits);
}

/* ReadAndConsume(8*n): n bytes, little endian (K10.5.6.4.1 POD). After any
 * problem it returns 0 and consumes nothing. */
static uint64_t read_bytes(struct tc_parse *p, int n)
{
	TC_CLAUSE("K10.5.2.18.1/ReadAndConsume", "K10.5.6.4.1/POD");
	uint64_t v = 0;
	if (failed(p))
		return 0;
	if (p->r.len - p->r.pos < (size_t)n) {
		p->r.need_more = 1;
		return 0;
	}
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p->r.buf[p->r.pos + i] << (8 * i);
	p->r.pos += n;
	return v;
}

static uint64_t set_bits(uint64_t v, int lo, int width, uint64_t bits)
{
	uint64_t mask = ((UINT64_C(1) << width) - 1) << lo;
	return (v & ~mask) | ((bits << lo) & mask);
}

/* K10.5.6.4.3 BitReplacement, repaired per TC-S10: the final byte fills
 * R<N-1:I>; bits of it beyond the field are a field overflow. */
static uint64_t bit_replacement(struct tc_parse *p, int n, uint64_t original)
{
	TC_CLAUSE("K10.5.6.4.3/BitReplacement");
	uint64_t r = original;
	uint64_t byte;
	int i = 0;
	do {
		byte = read_bytes(p, 1);
		r = set_bits(r, i, 7, byte & 0x7f);
		i += 7;
	} while ((byte & 0x80) && i < n - 8);
	if (byte & 0x80) {
		byte = read_bytes(p, 1);
		if (i + 8 <= n) {
			r = set_bits(r, i, 8, byte);
		} else {
			r = set_bits(r, i, n - i, byte);
			if (byte >> (n - i))
				fail(p, tc_ete_err_field_overflow);
		}
	}
	if (n < 64)
		r &= (UINT64_C(1) << n) - 1;
	return r;
}

/* K10.5.6.4.2 ULEB128 */
static uint64_t uleb128(struct tc_parse *p, int n)
{
	TC_CLAUSE("K10.5.6.4.2/ULEB128");
	return bit_replacement(p, n, 0);
}

/* ---- Emit towards stage 2, and the speculation depth ------------------ */

static struct tc_ete_elem *emit(struct tc_parse *p, int kind)
{
	struct tc_packet_out *out = p->out;
	struct tc_ete_elem *e;
	if (out->nemit >= TC_ETE_MAX_EMIT) {   /* cannot happen: bounded by Atom F6 */
		fail(p, tc_ete_err_queue_overflow);
		return &out->emit[TC_ETE_MAX_EMIT - 1];
	}
	/* an inline clear, cheaper than memset per element */
	static const struct tc_ete_elem zero = { .h = { sizeof(struct tc_ete_elem), tc_proto_ete, 0, 0 } };
	e = &out->emit[out->nemit++];
	*e = zero;
	e->h.kind = (uint16_t)kind;
	e->h.offset = p->offset;
	return e;
}

static void emit_count(struct tc_parse *p, int kind, uint64_t count)
{
	emit(p, kind)->count = count;
}

static void emit_context(struct tc_parse *p)
{
	emit(p, tc_ete_elem_context)->ctx = p->ia->ctx;
}

static void emit_address(struct tc_parse *p, int kind, struct tc_ahb_entry a)
{
	struct tc_ete_elem *e = emit(p, kind);
	e->address = a.address;
	e->isa = a.sub_isa;
}

/* K10.5.2.18.3 UpdateSpecDepth, for increments: the implicit commit once
 * the depth exceeds MAXSPEC. */
static void update_spec_depth(struct tc_parse *p, int64_t count)
{
	TC_CLAUSE("K10.5.2.18.3/UpdateSpecDepth");
	struct tc_ete_ia *ia = p->ia;
	ia->current_spec_depth += count;
	if (ia->current_spec_depth > (int64_t)p->cfg->maxspec) {
		emit_count(p, tc_ete_elem_commit,
			   (uint64_t)(ia->current_spec_depth - p->cfg->maxspec));
		ia->current_spec_depth = p->cfg->maxspec;
	}
}

/* UpdateSpecDepth(-count) for Commit and Cancel, with the lower bound the
 * text lacks (TC-S11). */
static void resolve_spec_depth(struct tc_parse *p, uint64_t count, int overrun)
{
	TC_CLAUSE("K10.5.2.18.3/UpdateSpecDepth(-count)");
	if (count > (uint64_t)p->ia->current_spec_depth) {
		fail(p, overrun);
		return;
	}
	p->ia->current_spec_depth -= (int64_t)count;
}

/* ---- K10.5.6.3.10 AddressHistoryBuffer -------------------------------- */

static void ahb_add(struct tc_ete_ia *ia, uint64_t address, int sub_isa)
{
	TC_CLAUSE("K10.5.6.3.10/AddressHistoryBuffer.Add", "K10.5.2.18.4/UpdateAddressHistoryBuffer");
	ia->ahb[2] = ia->ahb[1];
	ia->ahb[1] = ia->ahb[0];
	ia->ahb[0].address = address;
	ia->ahb[0].sub_isa = (uint8_t)sub_isa;
}

static void ahb_reset(struct tc_ete_ia *ia)
{
	TC_CLAUSE("K10.5.6.3.10/AddressHistoryBuffer.Reset");
	memset(ia->ahb, 0, sizeof ia->ahb);
}

/* Records AHB[0] as the packet's resolved address (L1). */
static void note_address(struct tc_parse *p)
{
	p->out->pkt.address = p->ia->ahb[0].address;
	p->out->pkt.isa = p->ia->ahb[0].sub_isa;
	p->out->pkt.has_address = 1;
}

/* ---- K10.5.2.14 Address and context ---------------------------------- */

/* Bit 7 of a long address's low bytes (bits: b1<7> as bit 7, b2<7> as bit
 * 15): SBZ() in LongAddressBytes (an error); in the Source Address forms,
 * which read data<6:0> only, bits the text does not assign (TC-P9, TC-R1: a
 * warning). */
static void long_address_bit7(struct tc_parse *p, int res0_field, uint64_t bits)
{
	if (res0_field)
		res0(p, res0_field, bits);
	else
		sbz(p, bits);
}

/* K10.5.2.14.2 LongAddressBytes + K10.5.2.14.3 LongAddressPacket: the
 * layout is chosen by header<2:0>; res0_field is tc_ete_wf_none for
 * LongAddressBytes itself, or the field named when bit 7 is ignored. */
static void long_address_bytes(struct tc_parse *p, uint8_t header, int res0_field)
{
	TC_CLAUSE_CASE(header & 7, "K10.5.2.14.2/LongAddressBytes", "K10.5.2.14.3/LongAddressPacket");
	struct tc_ahb_entry a = p->ia->ahb[0];
	uint64_t b1, b2, hi;
	switch (header & 7) {
	case 2: /* 32-bit IS0: address<63:32> unchanged */
		b1 = read_bytes(p, 1);
		b2 = read_bytes(p, 1);
		long_address_bit7(p, res0_field, (b1 & 0x80) | (b2 & 0x80) << 8);
		hi = read_bytes(p, 2);
		a.address = (a.address & ~UINT64_C(0xffffffff)) | hi << 16 |
			    (b2 & 0x7f) << 9 | (b1 & 0x7f) << 2;
		a.sub_isa = 0;
		break;
	case 3: /* 32-bit IS1 */
		b1 = read_bytes(p, 1);
		long_address_bit7(p, res0_field, b1 & 0x80);
		hi = read_bytes(p, 3);
		a.address = (a.address & ~UINT64_C(0xffffffff)) | hi << 8 | (b1 & 0x7f) << 1;
		a.sub_isa = 1;
		break;
	case 5: /* 64-bit IS0 */
		b1 = read_bytes(p, 1);
		b2 = read_bytes(p, 1);
		long_address_bit7(p, res0_field, (b1 & 0x80) | (b2 & 0x80) << 8);
		hi = read_bytes(p, 6);
		a.address = hi << 16 | (b2 & 0x7f) << 9 | (b1 & 0x7f) << 2;
		a.sub_isa = 0;
		break;
	default: /* 6: 64-bit IS1 (callers pass only 2, 3, 5, 6) */
		b1 = read_bytes(p, 1);
		long_address_bit7(p, res0_field, b1 & 0x80);
		hi = read_bytes(p, 7);
		a.address = hi << 8 | (b1 & 0x7f) << 1;
		a.sub_isa = 1;
		break;
	}
	ahb_add(p->ia, a.address, a.sub_isa);
}

/* K10.5.2.14.4 ShortAddressBytes + K10.5.2.14.5 ShortAddressPacket: bit
 * replacement of address<16:2> (IS0) or <15:1> (IS1) of AHB[0]. */
static void short_address_bytes(struct tc_parse *p, int sub_isa)
{
	TC_CLAUSE_CASE(sub_isa, "K10.5.2.14.4/ShortAddressBytes", "K10.5.2.14.5/ShortAddressPacket");
	uint64_t base = p->ia->ahb[0].address;
	uint64_t data;
	if (sub_isa == 0) {
		data = bit_replacement(p, 15, (base >> 2) & 0x7fff);
		ahb_add(p->ia, (base & ~UINT64_C(0x1ffff)) | data << 2, 0);
	} else {
		data = bit_replacement(p, 15, (base >> 1) & 0x7fff);
		ahb_add(p->ia, (base & ~UINT64_C(0xffff)) | data << 1, 1);
	}
}

/* K10.5.2.14.6 ExactMatchBytes + K10.5.2.14.7 ExactMatchPacket. */
static void exact_match_bytes(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE("K10.5.2.14.6/ExactMatchBytes", "K10.5.2.14.7/ExactMatchPacket");
	int q = header & 3;
	struct tc_ahb_entry entry;
	if (q == 3) {   /* TC-S3, TC-S3b: AddressHistoryBuffer.Get asserts n < 3 */
		fail(p, tc_ete_err_exact_match_index);
		return;
	}
	entry = p->ia->ahb[q];
	ahb_add(p->ia, entry.address, entry.sub_isa);
}

/* K10.5.2.14.9 ContextBytes + K10.5.2.14.10 ContextPacket (P='1'). */
static void context_bytes(struct tc_parse *p)
{
	uint64_t payload = read_bytes(p, 1);
	struct tc_context *c = &p->ia->ctx;
	TC_CLAUSE_CASE(payload >> 6, "K10.5.2.14.9/ContextBytes", "K10.5.2.14.10/ContextPacket");
	sbz(p, payload & (p->cfg->rme ? 0x4 : 0xc));   /* TC-P8 */
	if (payload & 0x40)
		c->vmid = (uint32_t)read_bytes(p, 4);       /* V: VMID first */
	if (payload & 0x80)
		c->context_id = (uint32_t)read_bytes(p, 4); /* C */
	c->el = payload & 3;
	c->ns = (payload >> 5) & 1;
	c->sf = (payload >> 4) & 1;
	c->nse = p->cfg->rme ? (payload >> 3) & 1 : 0;
}

/* K10.5.2.14.1 Parse_TargetAddressPacket (only the headers Parse_Trace
 * routes here after TC-S2). */
static void parse_target_address_packet(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header, "K10.5.2.14.1/Parse_TargetAddressPacket");
	if (header == 0x95 || header == 0x96)
		short_address_bytes(p, header == 0x96);
	else if (header <= 0x93)
		exact_match_bytes(p, header);
	else
		long_address_bytes(p, header, tc_ete_wf_none);
	p->out->pkt.h.kind = tc_ete_pkt_address;
	note_address(p);
	emit_address(p, tc_ete_elem_target_address, p->ia->ahb[0]);
}

/* K10.5.2.14.8 Parse_AddressWithContextPacket */
static void parse_address_with_context_packet(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE("K10.5.2.14.8/Parse_AddressWithContextPacket");
	long_address_bytes(p, header, tc_ete_wf_none);
	context_bytes(p);
	p->out->pkt.h.kind = tc_ete_pkt_addr_ctx;
	note_address(p);
	p->out->pkt.ctx = p->ia->ctx;   /* always there: has_context is the Exception's flag */
	emit_context(p);
	emit_address(p, tc_ete_elem_target_address, p->ia->ahb[0]);
}

/* K10.5.2.14.8 Parse_ContextPacket: P=0 repeats the current context. */
static void parse_context_packet(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header & 1, "K10.5.2.14.9/Parse_ContextPacket");
	if (header & 1)
		context_bytes(p);
	p->out->pkt.h.kind = tc_ete_pkt_context;
	p->out->pkt.ctx = p->ia->ctx;
	emit_context(p);
}

/* ---- K10.5.2.3–K10.5.2.7 Extension, Trace Info, Trace On -------------- */

/* K10.5.2.4.1 DiscardPacket */
static void discard_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.4.1/DiscardPacket");
	emit(p, tc_ete_elem_discard);
	if (p->ia->T)
		emit(p, tc_ete_elem_trans_failure);
	p->ia->current_spec_depth = 0;
	p->ia->T = 0;
}

/* K10.5.2.5.1 OverflowPacket */
static void overflow_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.5.1/OverflowPacket");
	emit(p, tc_ete_elem_discard);
	emit(p, tc_ete_elem_overflow);
	if (p->ia->T)
		emit(p, tc_ete_elem_trans_failure);
	p->ia->T = 0;
	p->ia->current_spec_depth = 0;
}

/* K10.5.2.3.1 Parse_ExtensionPacket. The A-sync's run of zeros has no
 * bound, so the caller counts it (out->async_start). */
static void parse_extension_packet(struct tc_parse *p)
{
	uint64_t extension = read_bytes(p, 1);
	if (failed(p))
		return;
	TC_CLAUSE_CASE(extension, "K10.5.2.3.1/Parse_ExtensionPacket");
	switch (extension) {
	case 0x00:
		p->out->pkt.h.kind = tc_ete_pkt_async;
		p->out->async_start = 1;
		break;
	case 0x03:
		p->out->pkt.h.kind = tc_ete_pkt_discard;
		discard_packet(p);
		break;
	case 0x05:
		p->out->pkt.h.kind = tc_ete_pkt_overflow;
		overflow_packet(p);
		break;
	default:
		fail(p, tc_ete_err_reserved_extension);
		break;
	}
}

/* K10.5.2.6.2 TraceInfoPacket, repaired per TC-S12 and checked per TC-P10.
 * Returns the Trace Info element, whose fields the L1 packet repeats. */
static const struct tc_ete_elem *trace_info_packet(struct tc_parse *p, uint64_t info, uint64_t spec,
						   uint64_t cyct)
{
	TC_CLAUSE("K10.5.2.6.2/TraceInfoPacket");
	struct tc_ete_ia *ia = p->ia;
	struct tc_ete_elem *e;
	if (spec > p->cfg->maxspec ||
	    (ia->have_trace_info && (int64_t)spec != ia->current_spec_depth))
		fail(p, tc_ete_err_spec_mismatch);
	ia->timestamp = 0;
	memset(&ia->ctx, 0, sizeof ia->ctx);   /* EL0, Secure, AArch32 */
	ahb_reset(ia);
	ia->cc_threshold = (info & 1) ? (uint32_t)cyct : 0;
	ia->current_spec_depth = (int64_t)spec;
	ia->T = (info >> 6) & 1;
	ia->have_trace_info = 1;
	e = emit(p, tc_ete_elem_trace_info);
	e->cc_enabled = info & 1;
	e->cct = ia->cc_threshold;
	e->spec = (uint32_t)spec;
	e->in_tx = (info >> 6) & 1;
	return e;
}

/* K10.5.2.6.1 Parse_TraceInfoPacket, with the sections of TC-P3. */
static void parse_trace_info_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.6.1/Parse_TraceInfoPacket");
	struct tc_ete_packet *pkt = &p->out->pkt;
	const struct tc_ete_elem *e;
	uint64_t info = 0, spec = 0, cyct = 0;
	uint64_t plctl = read_bytes(p, 1);
	res0(p, tc_ete_wf_plctl, plctl & 0xe2);      /* TC-P3, TC-R1 */
	if (plctl & 0x01) {
		info = read_bytes(p, 1);
		res0(p, tc_ete_wf_info, info & 0xbe);    /* TC-P3, TC-R1 */
	}
	if (plctl & 0x04)
		spec = uleb128(p, 32);
	if (plctl & 0x08)
		cyct = uleb128(p, 32);
	if (plctl & 0x10) {
		pkt->wndw = (uint32_t)uleb128(p, 32);
		pkt->has_wndw = 1;
	}
	e = trace_info_packet(p, info, spec, cyct);
	pkt->h.kind = tc_ete_pkt_trace_info;
	pkt->cc_enabled = e->cc_enabled;
	pkt->cct = e->cct;
	pkt->spec = e->spec;
	pkt->in_tx = e->in_tx;
}

/* ---- K10.5.2.16 Timestamps and cycle counts ---------------------------- */

/* K10.5.2.16.1 Parse_TimestampPacket + K10.5.2.16.3 TimestampPacket */
static void parse_timestamp_packet(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header & 1, "K10.5.2.16.1/Parse_TimestampPacket", "K10.5.2.16.3/TimestampPacket");
	struct tc_ete_packet *pkt = &p->out->pkt;
	struct tc_ete_elem *e;
	int n = header & 1;
	uint64_t ts = bit_replacement(p, 64, p->ia->timestamp);
	uint64_t count = n ? uleb128(p, 20) : 0;
	p->ia->timestamp = ts;
	e = emit(p, tc_ete_elem_timestamp);
	e->value = ts;
	e->count = count;
	e->unknown = !n;
	pkt->h.kind = tc_ete_pkt_timestamp;
	pkt->value = ts;
	pkt->count = count;
	pkt->has_cc = (uint8_t)n;
}

/* Commit part shared by the cycle-count formats (K10.5.2.16.4–6). */
static void cycle_count_commit(struct tc_parse *p, uint64_t commit)
{
	p->out->pkt.commit = commit;
	if (commit == 0)
		return;
	emit_count(p, tc_ete_elem_commit, commit);
	resolve_spec_depth(p, commit, tc_ete_err_commit_overrun);
}

static void cycle_count_value(struct tc_parse *p, uint64_t count, int unknown)
{
	struct tc_ete_elem *e = emit(p, tc_ete_elem_cycle_count);
	uint64_t value = unknown ? 0 : count + p->ia->cc_threshold;
	e->count = value;
	e->unknown = (uint8_t)unknown;
	p->out->pkt.h.kind = tc_ete_pkt_cycle_count;
	p->out->pkt.count = value;
	p->out->pkt.cc_unknown = (uint8_t)unknown;
}

/* K10.5.2.16.4 CycleCountFormat1Packet */
static void cycle_count_format1(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE("K10.5.2.16.4/CycleCountFormat1Packet");
	int u = header & 1;
	uint64_t commit = p->cfg->commopt ? 0 : uleb128(p, 32);
	uint64_t count = u ? 0 : uleb128(p, 20);
	cycle_count_commit(p, commit);
	cycle_count_value(p, count, u);
}

/* K10.5.2.16.5 CycleCountFormat2Packet, with the `- 15` of line 607 and
 * no commit in commit mode 1 (TC-S7). In commit mode 1 Parse_CycleCountPackets
 * reads neither F nor AAAA and passes '1' and '1111' instead (TC-R1). */
static void cycle_count_format2(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE("K10.5.2.16.5/CycleCountFormat2Packet");
	uint64_t payload = read_bytes(p, 1);
	uint64_t aaaa = payload >> 4, bbbb = payload & 0xf;
	int64_t commit = 0;
	if (p->cfg->commopt) {
		if (!(header & 1))
			warn(p, tc_ete_warn_ignored_field, tc_ete_wf_cc_f2_f, 0);
		if (aaaa != 0xf)
			warn(p, tc_ete_warn_ignored_field, tc_ete_wf_cc_f2_aaaa, aaaa);
	} else if (header & 1) {
		commit = (int64_t)p->cfg->maxspec + (int64_t)aaaa - 15;
	} else {
		commit = (int64_t)aaaa + 1;
	}
	if (commit > 0)
		cycle_count_commit(p, (uint64_t)commit);
	cycle_count_value(p, bbbb, 0);
}

/* K10.5.2.16.6 CycleCountFormat3Packet; AA is header<3:2>, which commit
 * mode 1 does not read (it passes '00', TC-P7, TC-R1). */
static void cycle_count_format3(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE("K10.5.2.16.6/CycleCountFormat3Packet");
	if (p->cfg->commopt && (header & 0xc))
		warn(p, tc_ete_warn_ignored_field, tc_ete_wf_cc_f3_aa, (header >> 2) & 3);
	if (!p->cfg->commopt)
		cycle_count_commit(p, ((header >> 2) & 3) + 1);
	cycle_count_value(p, header & 3, 0);
}

/* K10.5.2.16.2 Parse_CycleCountPackets */
static void parse_cycle_count_packets(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header, "K10.5.2.16.2/Parse_CycleCountPackets");
	if ((header & 0xfe) == 0x0e)
		cycle_count_format1(p, header);
	else if ((header & 0xfe) == 0x0c)
		cycle_count_format2(p, header);
	else
		cycle_count_format3(p, header);
}

/* ---- K10.5.2.8–K10.5.2.10 Speculation and atoms ------------------------ */

/* K10.5.2.18.2 HandleAtom; also records the atom for L1. */
static void handle_atom(struct tc_parse *p, int taken)
{
	TC_CLAUSE("K10.5.2.18.2/HandleAtom");
	struct tc_ete_packet *pkt = &p->out->pkt;
	emit(p, tc_ete_elem_atom)->atom_e = (uint8_t)taken;
	if (taken)
		pkt->atoms |= UINT32_C(1) << pkt->natoms;
	pkt->natoms++;
	update_spec_depth(p, 1);
}

/* The A field shared by Mispredict and Cancel format 2: 01 E, 10 EE, 11 N. */
static void handle_atoms_a2(struct tc_parse *p, int a)
{
	if (a == 1) {
		handle_atom(p, 1);
	} else if (a == 2) {
		handle_atom(p, 1);
		handle_atom(p, 1);
	} else if (a == 3) {
		handle_atom(p, 0);
	}
}

/* K10.5.2.8.1 Parse_CommitPacket + K10.5.2.8.2 CommitPacket */
static void parse_commit_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.8.1/Parse_CommitPacket", "K10.5.2.8.2/CommitPacket");
	uint64_t commit = uleb128(p, 32);
	emit_count(p, tc_ete_elem_commit, commit);
	resolve_spec_depth(p, commit, tc_ete_err_commit_overrun);
	p->out->pkt.h.kind = tc_ete_pkt_commit;
	p->out->pkt.count = commit;
}

static void cancel(struct tc_parse *p, uint64_t count, int mispredict)
{
	emit_count(p, tc_ete_elem_cancel, count);
	resolve_spec_depth(p, count, tc_ete_err_cancel_overrun);
	if (mispredict)
		emit(p, tc_ete_elem_mispredict);
	p->out->pkt.h.kind = tc_ete_pkt_cancel;
	p->out->pkt.count = count;
	p->out->pkt.mispredict = (uint8_t)mispredict;
}

/* K10.5.2.8.3 Parse_CancelPackets with K10.5.2.8.4–6 CancelFormat1/2/3Packet */
static void parse_cancel_packets(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header, "K10.5.2.8.3/Parse_CancelPackets");
	if ((header & 0xfe) == 0x2e) {          /* '0010111x' format 1 */
		TC_CLAUSE("K10.5.2.8.4/CancelFormat1Packet");
		cancel(p, uleb128(p, 32), header & 1);
	} else if ((header & 0xfc) == 0x34) {   /* '001101xx' format 2 */
		TC_CLAUSE_CASE(header & 3, "K10.5.2.8.5/CancelFormat2Packet");
		handle_atoms_a2(p, header & 3);
		cancel(p, 1, 1);
	} else {                                /* '00111xxx' format 3 */
		TC_CLAUSE("K10.5.2.8.6/CancelFormat3Packet");
		if (header & 1)
			handle_atom(p, 1);
		cancel(p, ((header >> 1) & 3) + 2, 1);
	}
}

/* K10.5.2.9.2 MispredictPacket: the Mispredict element follows the atoms
 * for every A (TC-S6). */
static void parse_mispredict_packet(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header & 3, "K10.5.2.9.1/Parse_MispredictPacket", "K10.5.2.9.2/MispredictPacket");
	handle_atoms_a2(p, header & 3);
	emit(p, tc_ete_elem_mispredict);
	p->out->pkt.h.kind = tc_ete_pkt_mispredict;
}

/* K10.5.2.10.1 Parse_AtomPackets with AtomFormat1…6Packet: each format as a
 * list of atoms, oldest first. */
static void atom_sequence(struct tc_parse *p, const char *atoms)
{
	for (; *atoms; atoms++)
		handle_atom(p, *atoms == 'E');
}

static void parse_atom_packets(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header, "K10.5.2.10.1/Parse_AtomPackets");
	static const char *const format4[4] = { "NEEE", "NNNN", "NENE", "ENEN" };
	static const char *const format5_2[4] = { "", "NNNNN", "NENEN", "ENENE" };
	p->out->pkt.h.kind = tc_ete_pkt_atom;
	if ((header & 0xfe) == 0xf6) {          /* '1111011x' format 1 */
		TC_CLAUSE("K10.5.2.10.2/AtomFormat1Packet");
		handle_atom(p, header & 1);
	} else if ((header & 0xfc) == 0xd8) {   /* '110110xx' format 2 */
		TC_CLAUSE("K10.5.2.10.3/AtomFormat2Packet");
		for (int i = 0; i < 2; i++)
			handle_atom(p, (header >> i) & 1);
	} else if ((header & 0xf8) == 0xf8) {   /* '11111xxx' format 3 */
		TC_CLAUSE("K10.5.2.10.4/AtomFormat3Packet");
		for (int i = 0; i < 3; i++)
			handle_atom(p, (header >> i) & 1);
	} else if ((header & 0xfc) == 0xdc) {   /* '110111xx' format 4 */
		TC_CLAUSE_CASE(header & 3, "K10.5.2.10.5/AtomFormat4Packet");
		atom_sequence(p, format4[header & 3]);
	} else if (header == 0xf5) {            /* '11110101' format 5.1 */
		TC_CLAUSE("K10.5.2.10.6/AtomFormat5_1Packet");
		atom_sequence(p, "NEEEE");
	} else if (header >= 0xd5 && header <= 0xd7) {   /* format 5.2 */
		TC_CLAUSE_CASE(header & 3, "K10.5.2.10.7/AtomFormat5_2Packet");
		atom_sequence(p, format5_2[header & 3]);
	} else {                                /* '11xxxxxx' format 6 */
		TC_CLAUSE("K10.5.2.10.8/AtomFormat6Packet");
		int count = header & 0x1f;
		for (int i = 0; i <= count + 2; i++)
			handle_atom(p, 1);
		handle_atom(p, !(header & 0x20));
	}
}

/* ---- K10.5.2.11 Q, K10.5.2.12 Source address --------------------------- */

/* K10.5.2.11.2 QPacket: Target Address for every addressed type (TC-S5). */
static void q_packet(struct tc_parse *p, int type, int addressed, uint64_t count)
{
	TC_CLAUSE("K10.5.2.11.2/QPacket");
	struct tc_ete_packet *pkt = &p->out->pkt;
	emit_count(p, tc_ete_elem_q, count);
	update_spec_depth(p, 1);
	if (addressed) {
		emit_address(p, tc_ete_elem_target_address, p->ia->ahb[0]);
		note_address(p);
	}
	pkt->h.kind = tc_ete_pkt_q;
	pkt->type = (uint8_t)type;
	pkt->count = count;
}

/* K10.5.2.11.1 Parse_QPacket, with AHB[0] read after the address bytes and
 * type 1111 carrying no count (TC-S4). */
static void parse_q_packet(struct tc_parse *p, uint8_t header)
{
	int type = header & 0xf;
	TC_CLAUSE_CASE(type, "K10.5.2.11.1/Parse_QPacket");
	switch (type) {
	case 0x0: case 0x1: case 0x2: case 0x3:   /* 0x3: exact-match-index (TC-S3b) */
		exact_match_bytes(p, header);
		q_packet(p, type, 1, uleb128(p, 32));
		break;
	case 0x5:
	case 0x6:
		short_address_bytes(p, type == 0x6);
		q_packet(p, type, 1, uleb128(p, 32));
		break;
	case 0xa:
	case 0xb:
		long_address_bytes(p, header, tc_ete_wf_none);
		q_packet(p, type, 1, uleb128(p, 32));
		break;
	case 0xc:
		q_packet(p, type, 0, uleb128(p, 32));
		break;
	case 0xf:
		q_packet(p, type, 0, 0);
		break;
	}
	/* No other type arrives: Parse_Trace rejects 0xA4, 0xA7-0xA9, 0xAD and
	 * 0xAE (reserved_header) before the dispatch. */
}

/* Source Address bytes (K10.5.2.12.1): the same layouts as the target
 * address forms; bit 7 of the low bytes is read by no arm (TC-P9, TC-R1);
 * the 0xB5 arm of TC-S1. */
static void source_address_bytes(struct tc_parse *p, uint8_t header)
{
	const int f = tc_ete_wf_source_address;
	switch (header) {
	case 0xb4: short_address_bytes(p, 0); break;
	case 0xb5: short_address_bytes(p, 1); break;   /* TC-S1 */
	case 0xb6: long_address_bytes(p, 0x02, f); break;
	case 0xb7: long_address_bytes(p, 0x03, f); break;
	case 0xb8: long_address_bytes(p, 0x05, f); break;
	case 0xb9: long_address_bytes(p, 0x06, f); break;
	default: exact_match_bytes(p, header); break;  /* B0–B3 */
	}
}

/* K10.5.2.12.1 Parse_SourceAddressPacket: Emit before UpdateSpecDepth (TC-S8). */
static void parse_source_address_packet(struct tc_parse *p, uint8_t header)
{
	TC_CLAUSE_CASE(header, "K10.5.2.12.1/Parse_SourceAddressPacket");
	source_address_bytes(p, header);
	p->out->pkt.h.kind = tc_ete_pkt_source_address;
	note_address(p);
	emit_address(p, tc_ete_elem_source_address, p->ia->ahb[0]);
	update_spec_depth(p, 1);
}

/* ---- K10.5.2.13 Exceptions --------------------------------------------- */

/* K10.5.2.13.2 ExceptionPacket, per TC-P5 and TC-P6. */
static void exception_packet(struct tc_parse *p, int e, int type, uint8_t ah)
{
	TC_CLAUSE_CASE(e, "K10.5.2.13.2/ExceptionPacket");
	struct tc_ahb_entry entry = p->ia->ahb[0];
	struct tc_ete_elem *x;
	if ((ah >> 4) == 0x8)
		emit_context(p);
	if (e == 2)
		emit_address(p, tc_ete_elem_target_address, entry);
	if (type == 0x18 || (type == 0 && p->ia->T))
		emit(p, tc_ete_elem_trans_failure);
	if (type != 0x18) {
		x = emit(p, tc_ete_elem_exception);
		x->type = (uint8_t)type;
		x->address = entry.address;
		update_spec_depth(p, 1);
	}
	if (type == 0 || type == 0x18)
		p->ia->T = 0;
}

/* The address "packet" embedded in an Exception packet (line 437). */
static void exception_address(struct tc_parse *p, uint8_t ah)
{
	TC_CLAUSE_CASE(ah, "K10.5.2.13.1/Parse_ExceptionPacket.AH");
	struct tc_ete_packet *pkt = &p->out->pkt;
	if (ah <= 0x93 && ah >= 0x90) {
		exact_match_bytes(p, ah);
	} else if (ah == 0x95 || ah == 0x96) {
		short_address_bytes(p, ah == 0x96);
	} else if (ah == 0x9a || ah == 0x9b || ah == 0x9d || ah == 0x9e) {
		long_address_bytes(p, ah, tc_ete_wf_none);
	} else if (ah == 0x82 || ah == 0x83 || ah == 0x85 || ah == 0x86) {
		long_address_bytes(p, ah, tc_ete_wf_none);
		context_bytes(p);
		pkt->ctx = p->ia->ctx;
		pkt->has_context = 1;
	} else if (ah == 0x70) {
		TC_CLAUSE("K10.5.2.18.5/UnknownAddressHistoryBuffer");
		ahb_add(p->ia, 0, 0);    /* K10.5.2.18.5 UnknownAddressHistoryBuffer */
		return;
	} else {
		fail(p, tc_ete_err_reserved_field);   /* TC-P4 */
		return;
	}
	note_address(p);
}

/* K10.5.2.13.1 Parse_ExceptionPacket */
static void parse_exception_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.13.1/Parse_ExceptionPacket");
	struct tc_ete_packet *pkt = &p->out->pkt;
	uint64_t payload = read_bytes(p, 1);
	int e = (int)(((payload >> 6) & 1) << 1 | (payload & 1));
	int type = (int)((payload >> 1) & 0x1f);
	uint8_t ah;
	res0(p, tc_ete_wf_exception, payload & 0x80);   /* TC-P4, TC-R1 */
	if (e != 1 && e != 2) {
		fail(p, tc_ete_err_reserved_field);
		return;
	}
	ah = (uint8_t)read_bytes(p, 1);
	exception_address(p, ah);
	exception_packet(p, e, type, ah);
	pkt->h.kind = tc_ete_pkt_exception;
	pkt->e = (uint8_t)e;
	pkt->type = (uint8_t)type;
}

/* ---- K10.5.2.15 Transactions, K10.5.2.17 Events, later packets --------- */

/* K10.5.2.15.1 TransactionStartPacket: comm_trans := COMMTRANS==0 (TC-S13). */
static void transaction_start_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.15.1/TransactionStartPacket");
	emit(p, tc_ete_elem_trans_start);
	p->ia->T = 1;
	if (p->cfg->commtrans == 0)
		update_spec_depth(p, 1);
	p->out->pkt.h.kind = tc_ete_pkt_tx_start;
}

/* K10.5.2.15.2 TransactionCommitPacket */
static void transaction_commit_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.15.2/TransactionCommitPacket");
	emit(p, tc_ete_elem_trans_commit);
	p->ia->T = 0;
	p->out->pkt.h.kind = tc_ete_pkt_tx_commit;
}

/* K10.5.2.17.2 EventTracingPacket (header 0x70 is the Ignore packet). */
static void parse_event_tracing_packet(struct tc_parse *p, uint8_t header)
{
	if (header == 0x70) {
		p->out->pkt.h.kind = tc_ete_pkt_ignore;
		return;
	}
	TC_CLAUSE("K10.5.2.17.1/Parse_EventTracingPacket", "K10.5.2.17.2/EventTracingPacket");
	for (int i = 0; i <= 3; i++)
		if ((header >> i) & 1)
			emit_count(p, tc_ete_elem_event, (uint64_t)i);
	p->out->pkt.h.kind = tc_ete_pkt_event;
	p->out->pkt.events = header & 0xf;
}

/* Instrumentation packet, FEAT_ITE (TC-P1): EL byte, 64-bit value. */
static void parse_instrumentation_packet(struct tc_parse *p)
{
	TC_CLAUSE("TC-P1/InstrumentationPacket");
	struct tc_ete_elem *e;
	uint64_t el = read_bytes(p, 1);
	uint64_t value = read_bytes(p, 8);
	res0(p, tc_ete_wf_instrumentation, el & 0xfc);   /* TC-P1, TC-R1 */
	e = emit(p, tc_ete_elem_instrumentation);
	e->ctx.el = el & 3;
	e->value = value;
	p->out->pkt.h.kind = tc_ete_pkt_instrumentation;
	p->out->pkt.ctx.el = el & 3;
	p->out->pkt.value = value;
}

static void trace_on_packet(struct tc_parse *p)
{
	TC_CLAUSE("K10.5.2.7.1/TraceOnPacket");
	emit(p, tc_ete_elem_trace_on);   /* K10.5.2.7.1 TraceOnPacket */
	p->out->pkt.h.kind = tc_ete_pkt_trace_on;
}

static void timestamp_marker_packet(struct tc_parse *p)
{
	TC_CLAUSE("TC-P1/TimestampMarkerPacket");
	emit(p, tc_ete_elem_ts_marker);  /* TC-P1 */
	p->out->pkt.h.kind = tc_ete_pkt_ts_marker;
}

/* ---- K10.5.2.2.1 Parse_Trace: the header dispatch ---------------------- */

/* Headers that are packets only in some configurations, or never (the
 * `otherwise ReservedEncoding()` of Parse_Trace after TC-S2, TC-P1). */
static int reserved_header(const struct tc_ete_config *cfg, uint8_t h)
{
	if (h == 0x09)
		return !cfg->ite;
	if (h == 0x88)
		return !cfg->tsmark;
	if (h == 0x05 || h == 0x07 || h == 0x08 || (h >= 0x20 && h <= 0x2c) ||
	    (h >= 0x40 && h <= 0x6f) || h == 0x84 || h == 0x87 ||
	    (h >= 0x89 && h <= 0x8f) || h == 0x94 || h == 0x97 || h == 0x98 ||
	    h == 0x99 || h == 0x9c || h == 0x9f || (h >= 0xba && h <= 0xbf))
		return 1;
	if ((h & 0xf0) == 0xa0)   /* reserved Q types (A3 is exact-match-index) */
		return h == 0xa4 || (h >= 0xa7 && h <= 0xa9) || h == 0xad || h == 0xae;
	return 0;
}

static void dispatch_low(struct tc_parse *p, uint8_t h)
{
	switch (h) {
	case 0x00: parse_extension_packet(p); break;
	case 0x01: parse_trace_info_packet(p); break;
	case 0x02: case 0x03: parse_timestamp_packet(p, h); break;
	case 0x04: trace_on_packet(p); break;
	case 0x06: parse_exception_packet(p); break;
	case 0x09: parse_instrumentation_packet(p); break;
	case 0x0a: transaction_start_packet(p); break;
	case 0x0b: transaction_commit_packet(p); break;
	case 0x2d: parse_commit_packet(p); break;
	default:
		/* here h >= 0x0c always: every lower header has a case above or is reserved */
		if (h >= 0x0c && h <= 0x1f)                 /* '0000110x' '0000111x' '0001xxxx' */
			parse_cycle_count_packets(p, h);
		else if ((h & 0xfc) == 0x30)                /* '001100xx' */
			parse_mispredict_packet(p, h);
		else                                        /* '0010111x' '001101xx' '00111xxx' */
			parse_cancel_packets(p, h);
		break;
	}
}

static void dispatch_high(struct tc_parse *p, uint8_t h)
{
	if (h >= 0xc0)                                  /* '11xxxxxx' */
		parse_atom_packets(p, h);
	else if (h >= 0xb0)                             /* '1011xxxx' source address */
		parse_source_address_packet(p, h);
	else if (h >= 0xa0)                             /* '1010xxxx' */
		parse_q_packet(p, h);
	else if (h >= 0x90)                             /* target address forms */
		parse_target_address_packet(p, h);
	else if (h == 0x88)
		timestamp_marker_packet(p);
	else if (h <= 0x81)                             /* '1000000x' */
		parse_context_packet(p, h);
	else                                            /* 82 83 85 86 */
		parse_address_with_context_packet(p, h);
}

static void parse_trace(struct tc_parse *p)
{
	uint8_t h = (uint8_t)read_bytes(p, 1);
	p->out->pkt.header = h;
	if (reserved_header(p->cfg, h)) {
		TC_CLAUSE("K10.5.2.2.1/Parse_Trace/ReservedEncoding");
		fail(p, tc_ete_err_reserved_header);
		return;
	}
	TC_CLAUSE_CASE(h, "K10.5.2.2.1/Parse_Trace");
	if (h >= 0x70 && h <= 0x7f)                     /* '01110000' '0111xxxx' */
		parse_event_tracing_packet(p, h);
	else if (h < 0x40)
		dispatch_low(p, h);
	else
		dispatch_high(p, h);
}

int tc_ete_parse_packet(const struct tc_ete_config *cfg, struct tc_ete_ia *ia,
			const uint8_t *buf, size_t len, uint64_t offset,
			struct tc_packet_out *out)
{
	struct tc_parse p;
	static const struct tc_ete_packet zero = { .h = { sizeof(struct tc_ete_packet), tc_proto_ete, 0, 0 } };
	out->pkt = zero;
	out->nemit = 0;
	out->nwarn = 0;
	out->async_start = 0;
	out->pkt.h.offset = offset;
	p.cfg = cfg;
	p.ia = ia;
	p.r.buf = buf;
	p.r.len = len;
	p.r.pos = 0;
	p.r.need_more = 0;
	p.r.error = 0;
	p.out = out;
	p.offset = offset;
	/* unreachable from ete_decoder.c, which never passes 0 bytes; kept for direct callers */
	if (len == 0)
		return 0;
	parse_trace(&p);
	if (p.r.error)
		return -p.r.error;
	if (p.r.need_more)
		return 0;
	return (int)p.r.pos;
}
