/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_parse.c — the packets of a FIFO group: Table 6-2's headers, Normal data with SS values,
 * data addresses, Load Miss Occurred and Load Miss Data with their tags, Value Not Traced, Context ID,
 * branch addresses of Table 6-9 with E; a group ends at a branch address or a header with C = 0
 * (IHI 0014 §6.3 L8626-8628, §6.4 L8636-8832, §6.7.1 L9112-9197, §6.8.3 L9238-9247; ERRATA ETM2-S4,
 * S11, P3, P4, P5, P6, P21). */
#include <string.h>

#include "clause.h"
#include "etmv2_internal.h"

/* Table 6-2's packets, by their first byte (FORMAT.md "ETMv2 headers"). */
enum e2_header { h_branch, h_normal, h_vnt, h_ctxid, h_miss, h_miss_data, h_reserved };

static int classify(uint8_t b)
{
	TC_CLAUSE_CASE(b, "6.4.1/Table6-2");
	if (b & 1)
		return h_branch;                               /* cxxxxxx1 (ETM2-S11) */
	if ((b & 3) == 2) {
		if (!(b & 0x40))
			return (b & 0x10) ? h_reserved : h_normal; /* bX0X1XX10 ; bC0A0SS10 */
		if (!(b & 0x20) || (b & 0x10) || !(b & 0x08))
			return h_reserved;                         /* bX10XXX10, bX111XX10, bX1100X10 */
		return (b & 0x04) ? h_ctxid : h_vnt;           /* bC1101110 ; bC1101010 */
	}
	if (b & 0x10)
		return (b & 0x40) ? h_miss : h_reserved;       /* bC1A1TT00 ; bX0X1XX00 */
	return h_miss_data;                                /* bCTT0SS00 */
}

/* Table 6-3 (L8708-8715): SS b00 0 bytes, b01 1, b10 2, b11 4. */
static uint8_t ss_bytes(int ss)
{
	return (uint8_t)(ss == 3 ? 4 : ss);
}

struct tc_etmv2_record *e2_new_packet(struct tc_etmv2_decoder *d, struct e2_item *it, int kind)
{
	if (it->npk >= E2_PACKETS) {
		TC_CLAUSE("ETM2-P21/Packets");
		e2_error(d, tc_etmv2_err_too_many_pending, it->r.h.offset);
		return NULL;
	}
	struct tc_etmv2_record *pk = &it->pk[it->npk++];
	memset(pk, 0, sizeof *pk);
	pk->h = (struct tc_item){ sizeof *pk, tc_proto_etmv2, (uint16_t)kind, it->r.h.offset };
	pk->status = it->r.status;
	return pk;
}

static struct tc_etmv2_record *cur_packet(struct e2_item *it)
{
	return &it->pk[it->npk - 1];
}

/* The end of a packet: the group goes on when its C bit was 1 (ETM2-P3). */
void e2_packet_done(struct tc_etmv2_decoder *d, struct e2_item *it)
{
	if (d->p.more) {
		d->p.seg = e2_seg_header;
		return;
	}
	it->group_done = 1;
	memset(&d->p, 0, sizeof d->p);
}

/* What follows a data header: the address (data_address=1 and A = 1), then the value (data_value=1);
 * SS not 0 with data_value=0 is a warning (ETM2-P4). */
static void data_fields(struct tc_etmv2_decoder *d, struct e2_item *it, struct tc_etmv2_record *pk, int addr, int ss)
{
	int value = ss >= 0 && d->cfg.data_value;
	if (ss > 0 && !d->cfg.data_value) {
		TC_CLAUSE("ETM2-P4/DataSize");
		e2_warn(it, tc_etmv2_warn_ignored_field, tc_etmv2_wf_data_size, ss);
	}
	if (value) {
		pk->has_value = 1;
		pk->vsize = ss_bytes(ss);
	}
	d->p.n = 0;
	d->p.raw = 0;
	d->p.left = value ? ss_bytes(ss) : 0;
	d->p.next_value = (uint8_t)value;
	if (addr && d->cfg.data_address) {
		pk->has_daddr = 1;
		d->p.seg = e2_seg_daddr;
	} else if (d->p.left) {
		d->p.seg = e2_seg_value;
	} else {
		e2_packet_done(d, it);
	}
}

static void start_branch(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b)
{
	TC_CLAUSE("6.7.1");
	struct tc_etmv2_record *pk = e2_new_packet(d, it, tc_etmv2_branch);
	if (!pk)
		return;
	d->p.more = 0;
	d->p.n = 0;
	d->p.raw = 0;
	d->p.base = d->last_addr;
	d->p.base_isa = d->last_isa;
	d->p.seg = e2_seg_branch;
	if (e2_branch_byte(d, it, pk, b)) {
		d->last_addr = pk->addr;
		d->last_isa = pk->isa;
		e2_packet_done(d, it);
	}
}

/* A packet's first byte (Table 6-2, ETM2-P4). */
static void header(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b)
{
	int h = classify(b);
	if (h == h_branch) {
		start_branch(d, it, b);
		return;
	}
	if (h == h_reserved) {
		TC_CLAUSE("6.4.1/Reserved");
		e2_error(d, tc_etmv2_err_reserved_header, it->r.h.offset);
		return;
	}
	static const uint8_t kinds[] = { 0, tc_etmv2_data, tc_etmv2_not_traced, tc_etmv2_context_id, tc_etmv2_miss,
					 tc_etmv2_miss_data };
	struct tc_etmv2_record *pk = e2_new_packet(d, it, kinds[h]);
	if (!pk)
		return;
	d->p.more = (uint8_t)(b >> 7);
	switch (h) {
	case h_normal:
		TC_CLAUSE("6.4.2");
		pk->a = (uint8_t)(b >> 5 & 1);
		data_fields(d, it, pk, pk->a, b >> 2 & 3);
		break;
	case h_miss:
		TC_CLAUSE("6.4.3/Occurred");
		pk->a = (uint8_t)(b >> 5 & 1);
		pk->tag = (uint8_t)(b >> 2 & 3);
		data_fields(d, it, pk, pk->a, -1);
		break;
	case h_miss_data:
		TC_CLAUSE("6.4.3/Data");
		pk->tag = (uint8_t)(b >> 5 & 3);
		data_fields(d, it, pk, 0, b >> 2 & 3);
		break;
	case h_vnt:
		TC_CLAUSE("6.4.4");
		e2_packet_done(d, it);
		break;
	default:
		TC_CLAUSE("6.4.5");
		if (!d->cfg.contextid_size) {
			e2_error(d, tc_etmv2_err_bad_mode, it->r.h.offset);
			return;
		}
		pk->has_ctxid = 1;
		d->p.n = 0;
		d->p.raw = 0;
		d->p.left = d->cfg.contextid_size;
		d->p.seg = e2_seg_ctxid;
		break;
	}
}

/* §6.4.2 (L8736), §6.8.3, ETM2-P5: 1-5 bytes, bit 7 set when more follow; the fifth holds A[31:28]
 * in bits 3:0, bits 6:4 res0, bit 7 read as 0. Compressed against the last data address, unknown
 * until a full one (ETM1-P13). */
static void daddr_byte(struct tc_etmv2_decoder *d, struct e2_item *it, struct tc_etmv2_record *pk, uint8_t b)
{
	int i = d->p.n++;
	int last = i == 4 || !(b & 0x80);
	if (i < 4) {
		d->p.raw |= (uint64_t)(b & 0x7f) << (7 * i);
	} else {
		TC_CLAUSE("ETM2-P5");
		d->p.raw |= (uint64_t)(b & 0xf) << 28;
		if (b & 0x70)
			e2_warn(it, tc_etmv2_warn_res0, tc_etmv2_wf_daddr_last, b & 0x70);
		if (b & 0x80)
			e2_warn(it, tc_etmv2_warn_ignored_field, tc_etmv2_wf_daddr5_bit7, 0x80);
	}
	if (!last)
		return;
	uint32_t mask = d->p.n >= 5 ? 0xffffffffu : (uint32_t)((1ull << (7 * d->p.n)) - 1);
	d->last_daddr = (d->last_daddr & ~mask) | ((uint32_t)d->p.raw & mask);
	if (d->p.n >= 5)
		d->daddr_known = 1;
	pk->daddr = d->last_daddr;
	pk->daddr_unknown = (uint8_t)!d->daddr_known;
	d->p.n = 0;
	d->p.raw = 0;
	if (d->p.left)
		d->p.seg = e2_seg_value;
	else
		e2_packet_done(d, it);
}

/* Least significant byte first (ETM2-P4); 1 when the last byte came. */
static int le_byte(struct tc_etmv2_decoder *d, uint8_t b)
{
	d->p.raw |= (uint64_t)b << (8 * d->p.n++);
	return --d->p.left == 0;
}

/* §6.7.1 (L9132-9138), Table 6-9, ETM2-S4, ETM2-P6: 1-5 bytes; the fifth sets the state (ARM
 * b0E001XXX, Thumb b0001XXXX, others reserved); fewer replace the low bits of the base in its
 * state's shifted form. 1 when the address is complete (pk->addr, isa, npkts, e). */
int e2_branch_byte(struct tc_etmv2_decoder *d, struct e2_item *it, struct tc_etmv2_record *pk, uint8_t b)
{
	int i = d->p.n++;
	d->p.raw |= (uint64_t)(b & 0x7f) << (7 * i);
	if (i < 4 && (b & 0x80))
		return 0;
	pk->has_addr = 1;
	pk->npkts = d->p.n;
	if (i == 4) {
		TC_CLAUSE_CASE(b, "6.7.1/Table6-9");
		if ((b & 0xb8) == 0x08) {
			pk->isa = tc_etmv2_isa_arm;
			pk->has_e = 1;
			pk->e = (uint8_t)(b >> 6 & 1);
			pk->addr = (uint32_t)((d->p.raw >> 1) << 2);
		} else if ((b & 0xf0) == 0x10) {
			pk->isa = tc_etmv2_isa_thumb;
			pk->addr = (uint32_t)d->p.raw & ~1u;
		} else {
			e2_error(d, tc_etmv2_err_reserved_field, it->r.h.offset);
			return 0;
		}
		return 1;
	}
	int n = d->p.n;
	pk->isa = d->p.base_isa;
	if (pk->isa == tc_etmv2_isa_arm) {
		uint32_t mask = (uint32_t)((1ull << (7 * n + 1)) - 1) & ~3u;
		pk->addr = (d->p.base & ~mask) | ((uint32_t)((d->p.raw >> 1) << 2) & mask);
	} else {
		uint32_t mask = (uint32_t)((1ull << (7 * n)) - 1) & ~1u;
		pk->addr = (d->p.base & ~mask) | ((uint32_t)d->p.raw & mask);
	}
	return 1;
}

/* One byte of the group of it (ETM2-P3): a TFO's group is its TFO packet (etmv2_tfo.c). */
void e2_group_byte(struct tc_etmv2_decoder *d, struct e2_item *it, uint8_t b)
{
	if (it->is_tfo) {
		e2_tfo_byte(d, it, b);
		d->bytes_read++;
		return;
	}
	d->bytes_read++;
	if (d->p.seg == e2_seg_header) {
		header(d, it, b);
		return;
	}
	struct tc_etmv2_record *pk = cur_packet(it);
	switch (d->p.seg) {
	case e2_seg_daddr:
		daddr_byte(d, it, pk, b);
		break;
	case e2_seg_value:
		if (le_byte(d, b)) {
			pk->value = (uint32_t)d->p.raw;
			e2_packet_done(d, it);
		}
		break;
	case e2_seg_ctxid:
		if (le_byte(d, b)) {
			pk->ctxid = (uint32_t)d->p.raw;
			e2_packet_done(d, it);
		}
		break;
	case e2_seg_branch:
		if (e2_branch_byte(d, it, pk, b)) {
			d->last_addr = pk->addr;
			d->last_isa = pk->isa;
			e2_packet_done(d, it);
		}
		break;
	default:
		break;
	}
}
