/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_packet.c — the contents of ETMv1 packets: branch addresses of 1-5 packets with the fifth
 * packet's reason code and J bit, Context ID, data addresses, data values (IHI 0014 §5.5.2, §5.5.4,
 * §5.5.5, §5.6.3, §5.7.3, §5.7.5; ERRATA ETM1-P12…P16). */
#include "clause.h"
#include "etmv1_internal.h"

/* §5.5.4 (L8169-8183), ETM1-P14: packet k (1-4) gives A[7k-1:7k-7] and bit 7 "more"; the fifth gives
 * A[31:28] in bits 3:0, the reason in 6:4 and (ETMv1.3) J in bit 7. Returns 1 when the address is
 * complete. The address replaces the low bits of the last branch address (L8171, L8192). */
static uint32_t replace_bits(uint32_t base, uint32_t raw, int npkts)
{
	if (npkts >= 5)
		return raw;
	uint32_t mask = (UINT32_C(1) << (7 * npkts)) - 1;
	return (base & ~mask) | (raw & mask);
}

/* §5.5.2 (L8155-8157): bit 0 = Thumb; in ARM state bit 1 "must ignore" (ETM1-P14); ETM1-P23: J.
 * ETM1-P40: J is only in a fifth packet, and a branch into or out of Jazelle state is always five
 * packets (L8432), so a shorter address keeps the state of the last five-packet one; in Jazelle
 * state bit 0 is the bytecode address's (§5.5.3 L8161). */
static void branch_target(struct tc_etmv1_decoder *d, struct e1_item *it, uint32_t full)
{
	struct tc_etmv1_record *r = &it->r;
	TC_CLAUSE("5.5.2");
	r->has_addr = 1;
	if (r->has_j)
		d->jazelle_state = r->j;
	if (d->jazelle_state) {
		r->isa = tc_etmv1_isa_jazelle;
		r->addr = full;
	} else if (full & 1) {
		r->isa = tc_etmv1_isa_thumb;
		r->addr = full & ~UINT32_C(1);
	} else {
		r->isa = tc_etmv1_isa_arm;
		if (full & 2)
			e1_warn(it, tc_etmv1_warn_res0, tc_etmv1_wf_arm_bit1, 0x2);
		r->addr = full & ~UINT32_C(3);
	}
	d->last_addr = full;
}

/* Table 5-3 (L8206-8217), ETM1-P15: 0 or the error of the reason. */
static int reason_check(const struct tc_etmv1_decoder *d, int reason)
{
	TC_CLAUSE_CASE(reason, "5.5.5/Table5-3");
	if (reason >= 5)
		return tc_etmv1_err_reserved_reason;
	if (reason == 4 && d->cfg.version < 2)
		return tc_etmv1_err_not_in_version;
	return 0;
}

/* §5.5.5 (L8204): the fifth packet. Returns an error class or 0. */
static int fifth_packet(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte)
{
	struct tc_etmv1_record *r = &it->r;
	TC_CLAUSE("5.5.5");
	it->addr_raw = (it->addr_raw & 0x0fffffff) | ((uint32_t)(byte & 0xf) << 28);
	r->has_reason = 1;
	r->reason = (byte >> 4) & 7;
	if (d->cfg.version >= 3) {
		r->has_j = 1;
		r->j = byte >> 7;
	} else if (byte & 0x80) {
		e1_warn(it, tc_etmv1_warn_ignored_field, tc_etmv1_wf_addr5_bit7, 0x80);
	}
	return reason_check(d, r->reason);
}

/* §5.6.3 (L8262-8268), ETM1-P16: the Context ID bytes after a five-packet address whose reason is
 * not b000, from ETMv1.2, when contextid_size is not 0. */
static void after_address(struct tc_etmv1_decoder *d, struct e1_item *it)
{
	struct tc_etmv1_record *r = &it->r;
	if (r->npkts == 5 && r->reason != 0 && r->reason != 4) {
		TC_CLAUSE("ETM1-P13/Interruption");
		d->daddr_known = 0;
	}
	if (r->npkts == 5 && r->reason != 0 && d->cfg.version >= 2 && d->cfg.contextid_size) {
		TC_CLAUSE("5.6.3");
		it->seg = e1_seg_ctxid;
		it->ctx_left = d->cfg.contextid_size;
		r->has_ctxid = 1;
		return;
	}
	it->seg = e1_seg_done;
}

/* One branch-address packet. Returns -1 when more follow, 0 when the address is complete, or an
 * error class. */
int e1_addr_byte(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte)
{
	struct tc_etmv1_record *r = &it->r;
	int k = ++r->npkts;
	TC_CLAUSE("5.5.4");
	if (k < 5) {
		it->addr_raw |= (uint32_t)(byte & 0x7f) << (7 * (k - 1));
		if (byte & 0x80)
			return -1;
	}
	int err = k == 5 ? fifth_packet(d, it, byte) : 0;
	branch_target(d, it, replace_bits(d->last_addr, it->addr_raw, k));
	after_address(d, it);
	return err;
}

/* §5.7.5 (L8358-8367), ETM1-P13: one data-address packet; 1 when the address is complete. */
int e1_daddr_byte(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte)
{
	struct tc_etmv1_record *r = &it->r;
	int k = ++it->daddr_pkts;
	TC_CLAUSE("5.7.5");
	if (k < 5) {
		it->daddr_raw |= (uint32_t)(byte & 0x7f) << (7 * (k - 1));
		if (byte & 0x80)
			return 0;
	} else {
		it->daddr_raw |= (uint32_t)(byte & 0xf) << 28;
		if (byte & 0x70)   /* L8332: "The reason code is always b000" */
			e1_warn(it, tc_etmv1_warn_ignored_field, tc_etmv1_wf_daddr_reason, byte & 0x70);
		if (byte & 0x80)
			e1_warn(it, tc_etmv1_warn_ignored_field, tc_etmv1_wf_daddr5_bit7, 0x80);
	}
	r->has_daddr = 1;
	if (k == 5) {
		d->daddr_known = 1;
		d->last_daddr = it->daddr_raw;
	} else if (d->daddr_known) {
		d->last_daddr = replace_bits(d->last_daddr, it->daddr_raw, k);
	}
	r->daddr_unknown = !d->daddr_known;
	r->daddr = d->daddr_known ? d->last_daddr : 0;
	return 1;
}

/* Table 5-2 (L8133-8135), ETM1-P12: value bytes least significant first, one value per transfer. */
void e1_value_byte(struct e1_item *it, uint8_t byte)
{
	struct tc_etmv1_record *r = &it->r;
	TC_CLAUSE("ETM1-P12");
	r->value[it->vidx] |= (uint64_t)byte << (8 * it->vbyte);
	if (++it->vbyte >= r->vsize[it->vidx]) {
		it->vbyte = 0;
		it->vidx++;
	}
	while (it->vidx < r->nvalues && r->vsize[it->vidx] == 0)
		it->vidx++;
	if (it->vidx >= r->nvalues)
		it->seg = it->need_addr ? e1_seg_addr : e1_seg_done;
}

/* ETM1-P16: Context ID bytes least significant first. */
void e1_ctxid_byte(struct e1_item *it, uint8_t byte)
{
	it->r.ctxid |= (uint32_t)byte << (8 * it->ctx_got++);
	if (--it->ctx_left == 0)
		it->seg = e1_seg_done;
}
