/* SPDX-License-Identifier: BSD-3-Clause */
/* e2enc_packet.c — the ETMv2 packets a cycle places in the FIFO, with their L1 records: branch
 * addresses (§6.7.1 L9112-9197, Table 6-9), Normal data (Table 6-2, Table 6-3, §6.4.2 L8717-8744),
 * data addresses (§6.8.3 L9238-9247), Value Not Traced (§6.4.4), Context ID (§6.4.5), Load Miss
 * Occurred and Load Miss Data (§6.4.3), the TFO packet (§6.5.3-§6.5.4 L8968-9016). The C bit of a
 * header is set when another packet follows in the group (§6.4.1 L8696). */
#include <string.h>

#include "e2enc_internal.h"

static void put(struct e2e *e, struct e2e_group *g, uint8_t b)
{
	if (g->n >= E2E_GROUP_BYTES) {
		e->failed = 1;   /* never: a group is at most a few packets */
		return;
	}
	g->b[g->n++] = b;
}

/* A new packet: the previous header's C bit is set (it is not the last any more). */
static struct tc_etmv2_record *packet(struct e2e *e, struct e2e_group *g, int kind)
{
	if (g->npk >= E2E_GROUP_PACKETS) {
		e->failed = 1;
		return NULL;
	}
	if (g->npk && g->last_header >= 0)
		g->b[g->last_header] |= 0x80;
	struct tc_etmv2_record *pk = &g->pk[g->npk++];
	memset(pk, 0, sizeof *pk);
	pk->h.size = sizeof *pk;
	pk->h.protocol = tc_proto_etmv2;
	pk->h.kind = (uint16_t)kind;
	return pk;
}

static void header(struct e2e *e, struct e2e_group *g, uint8_t b)
{
	g->last_header = g->n;
	put(e, g, b);
}

static void little_endian(struct e2e *e, struct e2e_group *g, uint32_t v, int bytes)
{
	for (int k = 0; k < bytes; k++)
		put(e, g, (uint8_t)(v >> (8 * k)));
}

/* The fewest bytes of a branch address that give addr against the last one (L9116) in its shifted
 * form (ETM2-P6: ARM bits 7:2, 14:2, 21:2, 28:2 for 1-4 bytes; Thumb 6:1, 13:1, 20:1, 27:1); five
 * when the instruction set changes, which only the fifth byte says (L9140). */
static int branch_bytes(const struct e2e *e, uint32_t addr, int thumb)
{
	if (thumb != e->last_thumb)
		return 5;
	for (int n = 1; n <= 4; n++)
		if (((addr ^ e->last_addr) >> (7 * n + (thumb ? 0 : 1))) == 0)
			return n;
	return 5;
}

/* Byte k of the branch address of addr in n bytes (§6.7.1 L9132-9138, ETM2-S4): an ARM address
 * shifted right by two, a Thumb one by one, a 1 added below, cut into 7-bit pieces with the continue
 * bit; the fifth byte ARM b0E001XXX, Thumb b0001XXXX (Table 6-9). */
static uint8_t branch_byte(uint32_t addr, int thumb, int exception, int k, int n)
{
	uint64_t raw = thumb ? (uint64_t)(addr >> 1) << 1 | 1 : (uint64_t)(addr >> 2) << 1 | 1;
	uint8_t b;
	if (k < 4)
		b = (uint8_t)((raw >> (7 * k)) & 0x7f);
	else if (thumb)
		b = (uint8_t)(((addr >> 28) & 0xf) | 0x10);
	else
		b = (uint8_t)(((addr >> 29) & 7) | 0x08 | (exception ? 0x40 : 0));
	return (uint8_t)(b | (k < n - 1 ? 0x80 : 0));
}

/* A branch address, bit 0 of addr set for a Thumb one. An exception's address is a full ARM one,
 * E = 1 for a cancelling exception (L9174-9178: no E bit for Thumb, the vectors are ARM). Always
 * the group's last packet. */
void e2e_group_branch(struct e2e *e, struct e2e_group *g, uint32_t addr, int exception)
{
	int thumb = (int)(addr & 1) && !exception;
	uint32_t a = addr & ~UINT32_C(1);
	int n = exception ? 5 : branch_bytes(e, a, thumb);
	if (!exception && n < 5 && enc_chance(&e->rng, 10)) {
		n += 1 + (int)enc_below(&e->rng, (unsigned)(5 - n));   /* a longer address is as valid */
		e2e_hit(e, "branch address longer than needed");
	}
	struct tc_etmv2_record *pk = packet(e, g, tc_etmv2_branch);
	if (!pk)
		return;
	for (int k = 0; k < n; k++)
		put(e, g, branch_byte(a, thumb, exception, k, n));
	g->last_header = -1;
	pk->has_addr = 1;
	pk->addr = thumb ? a : a & ~UINT32_C(3);
	pk->isa = thumb ? tc_etmv2_isa_thumb : tc_etmv2_isa_arm;
	pk->npkts = (uint8_t)n;
	if (n == 5 && !thumb) {
		pk->has_e = 1;
		pk->e = (uint8_t)(exception != 0);
	}
	if (thumb != e->last_thumb)
		e2e_hit(e, "interworking %s", thumb ? "arm to thumb" : "thumb to arm");
	e->last_addr = a;
	e->last_thumb = thumb;
	if (thumb)
		e2e_hit(e, "thumb branch address %s", n == 5 ? "5 bytes" : "1-4 bytes");
	else
		e2e_hit(e, "branch address %d bytes", n);
}

static int daddr_bytes(uint32_t a, uint32_t last)
{
	for (int n = 1; n <= 4; n++)
		if (((a ^ last) >> (7 * n)) == 0)
			return n;
	return 5;
}

/* §6.8.3 (L9238-9247), ETM2-P5: 1-5 bytes compressed against the last data address; a full one
 * first after trace is enabled and once each synchronisation period (§6.5.6 L9073, ETM2-E13). */
static void data_address(struct e2e *e, struct e2e_group *g, struct tc_etmv2_record *pk, uint32_t a)
{
	int full = !e->daddr_full_done || e->cycles - e->daddr_full_at >= e->sync_period;
	int n = full ? 5 : daddr_bytes(a, e->last_daddr);
	if (n < 5 && enc_chance(&e->rng, 10))
		n += 1 + (int)enc_below(&e->rng, (unsigned)(5 - n));
	for (int k = 0; k < n; k++) {
		uint8_t b = k < 4 ? (uint8_t)(((a >> (7 * k)) & 0x7f) | (k < n - 1 ? 0x80 : 0)) : (uint8_t)((a >> 28) & 0xf);
		put(e, g, b);
	}
	pk->has_daddr = 1;
	pk->daddr = a;
	e->last_daddr = a;
	if (n == 5) {
		e->daddr_full_done = 1;
		e->daddr_full_at = e->cycles;
	}
	e2e_hit(e, "data address %d bytes", n);
}

/* Table 6-3 (L8708-8715): the fewest bytes that hold the value (ETM2-E9). */
static int ss_of(uint32_t v)
{
	return v == 0 ? 0 : v < 256 ? 1 : v < 65536 ? 2 : 3;
}

static void data_value(struct e2e *e, struct e2e_group *g, struct tc_etmv2_record *pk, uint32_t v, int ss)
{
	static const char *const names[4] = { "0", "1", "2", "4" };
	int bytes = ss == 3 ? 4 : ss;
	little_endian(e, g, v, bytes);
	pk->has_value = 1;
	pk->value = v;
	pk->vsize = (uint8_t)bytes;
	e2e_hit(e, "data value ss %s bytes", names[ss]);
}

/* Normal data (bC0A0SS10, §6.4.2): the address when data addresses are traced and A = 1 (the first
 * transfer of an instruction), then the value when values are traced. */
void e2e_group_data(struct e2e *e, struct e2e_group *g, int first, uint32_t addr, uint32_t value, int size)
{
	struct tc_etmv2_record *pk = packet(e, g, tc_etmv2_data);
	if (!pk)
		return;
	uint32_t v = size == 4 ? value : value & ((UINT32_C(1) << (8 * size)) - 1);
	int ss = e->cfg.data_value ? ss_of(v) : 0;
	header(e, g, (uint8_t)((first ? 0x20 : 0) | ss << 2 | 0x02));
	pk->a = (uint8_t)(first != 0);
	if (first && e->cfg.data_address)
		data_address(e, g, pk, addr);
	if (e->cfg.data_value)
		data_value(e, g, pk, v, ss);
}

/* Value Not Traced (bC1101010, §6.4.4 L8806-8813): a transfer of a partly traced LSM. */
void e2e_group_not_traced(struct e2e *e, struct e2e_group *g)
{
	if (!packet(e, g, tc_etmv2_not_traced))
		return;
	header(e, g, 0x6a);
	e2e_hit(e, "value not traced");
}

/* Context ID (bC1101110, §6.4.5 L8822-8832): contextid_size bytes, least significant first (ETM2-P4). */
void e2e_group_ctxid(struct e2e *e, struct e2e_group *g)
{
	struct tc_etmv2_record *pk = packet(e, g, tc_etmv2_context_id);
	if (!pk)
		return;
	header(e, g, 0x6e);
	little_endian(e, g, e->ctxid, e->cfg.contextid_size);
	pk->has_ctxid = 1;
	pk->ctxid = e->ctxid;
	e2e_hit(e, "context id packet %u bytes", e->cfg.contextid_size);
}

/* Load Miss Occurred (bC1A1TT00, §6.4.3 L8752-8760): the tag, the address as Normal data's; the
 * second packet of a 64-bit miss (first 0) has A = 0 and no address (L8796). */
void e2e_group_miss(struct e2e *e, struct e2e_group *g, int first, int tag, uint32_t addr)
{
	struct tc_etmv2_record *pk = packet(e, g, tc_etmv2_miss);
	if (!pk)
		return;
	header(e, g, (uint8_t)(0x40 | (first ? 0x20 : 0) | 0x10 | tag << 2));
	pk->a = (uint8_t)(first != 0);
	pk->tag = (uint8_t)tag;
	if (first && e->cfg.data_address)
		data_address(e, g, pk, addr);
	e2e_hit(e, "load miss occurred");
}

/* Load Miss Data (bCTT0SS00, §6.4.3 L8764-8774): the tag and the value, no address. */
void e2e_group_miss_data(struct e2e *e, struct e2e_group *g, int tag, uint32_t value, int size)
{
	struct tc_etmv2_record *pk = packet(e, g, tc_etmv2_miss_data);
	if (!pk)
		return;
	uint32_t v = size == 4 ? value : value & ((UINT32_C(1) << (8 * size)) - 1);
	int ss = ss_of(v);
	header(e, g, (uint8_t)(tag << 5 | ss << 2));
	pk->tag = (uint8_t)tag;
	data_value(e, g, pk, v, ss);
	e2e_hit(e, "load miss data");
}

/* The TFO packet (Table 6-6 b0RR00000, §6.5.4): the header with the reason, the Context ID
 * (contextid_size bytes), the 4-byte address, bit 0 the Thumb bit, least significant byte first
 * (ETM2-P12). */
void e2e_group_tfo(struct e2e *e, struct e2e_group *g, int reason, uint32_t addr)
{
	struct tc_etmv2_record *pk = packet(e, g, tc_etmv2_tfo_packet);
	if (!pk)
		return;
	put(e, g, (uint8_t)(reason << 5 | (e->lsip ? 0x80 : 0)));
	g->last_header = -1;
	little_endian(e, g, e->ctxid, e->cfg.contextid_size);
	little_endian(e, g, addr, 4);
	pk->reason = (uint8_t)reason;
	pk->has_ctxid = (uint8_t)(e->cfg.contextid_size != 0);
	pk->ctxid = e->cfg.contextid_size ? e->ctxid : 0;
	pk->has_addr = 1;
	pk->addr = addr & ~UINT32_C(1);
	pk->isa = addr & 1 ? tc_etmv2_isa_thumb : tc_etmv2_isa_arm;
	e->last_addr = addr & ~UINT32_C(1);
	e->last_thumb = (int)(addr & 1);
	if (addr & 1)
		e2e_hit(e, "tfo thumb address");
	if (e->cfg.contextid_size)
		e2e_hit(e, "tfo packet context id %u bytes", e->cfg.contextid_size);
	if (!e->lsip)
		return;
	/* §6.5.5 (L9018-9041), ETM2-S6, ETM2-P25: LSM in progress: after the LSM's address the current
	 * instruction's, 1-5 bytes compressed against it as a branch address */
	int thumb = (int)(e->lsip_cur & 1);
	uint32_t cur = e->lsip_cur & ~UINT32_C(1);
	int n = branch_bytes(e, cur, thumb);
	for (int i = 0; i < n; i++)
		put(e, g, branch_byte(cur, thumb, 0, i, n));
	pk->lsip = 1;
	pk->has_cur = 1;
	pk->cur = cur;
	pk->cur_isa = thumb ? tc_etmv2_isa_thumb : tc_etmv2_isa_arm;
	e->last_addr = cur;
	e->last_thumb = thumb;
	e2e_hit(e, "tfo lsm in progress");
}
