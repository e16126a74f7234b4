/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_parse.c — PFT packets (ARM IHI 0035B §4.5, Table 4.1): one packet from bytes, resolved against LastState. */
#include <string.h>

#include "ptm_internal.h"

/* One packet being parsed: the configuration, LastState, the byte reader
 * and the packet's outputs. The first problem found is sticky: after it
 * every read returns 0 and consumes nothing. */
struct tc_ptm_parse {
	const struct tc_ptm_config *cfg;
	struct tc_ptm_state *st;
	const uint8_t *buf;
	size_t len;
	size_t pos;
	int need_more;
	int error;                 /* enum tc_ptm_error, first one wins */
	struct tc_ptm_out *out;
};

/* ---- Reading ------------------------------------------------------------- */

static void fail(struct tc_ptm_parse *p, int error)
{
	if (!p->error && !p->need_more)
		p->error = error;
}

static int failed(const struct tc_ptm_parse *p)
{
	return p->error || p->need_more;
}

static uint8_t read_byte(struct tc_ptm_parse *p)
{
	if (failed(p))
		return 0;
	if (p->len - p->pos < 1) {
		p->need_more = 1;
		return 0;
	}
	return p->buf[p->pos++];
}

static void add_warning(struct tc_ptm_parse *p, int warning, int field, unsigned bits)
{
	struct tc_ptm_out *out = p->out;
	if (out->nwarn < TC_PTM_MAX_WARN) {   /* always: no packet has more fields that warn */
		out->warn[out->nwarn].warning = (uint8_t)warning;
		out->warn[out->nwarn].field = (uint8_t)field;
		out->warn[out->nwarn].bits = (uint8_t)bits;
		out->nwarn++;
	}
}

/* A payload bit the text does not assign is ignored and reported
 * (reference/ete/ERRATA.md TC-R1; PTM-R1). */
static void res0(struct tc_ptm_parse *p, int field, unsigned bits)
{
	if (!bits || failed(p))
		return;
	TC_CLAUSE_CASE(field, "PTM-R1/Warning");
	add_warning(p, tc_ptm_warn_res0, field, bits);
}

/* A bit the layout fixes to a constant, found different from it: ignored
 * (the packet decodes as with the constant) and reported with the field as
 * read (TC-R1; PTM-R1; PTM-P25). The caller tests the constant. */
static void ignored_field(struct tc_ptm_parse *p, int field, unsigned bits)
{
	if (failed(p))
		return;
	TC_CLAUSE_CASE(field, "PTM-R1/IgnoredField");
	add_warning(p, tc_ptm_warn_ignored_field, field, bits);
}

static struct tc_ptm_packet *pkt(struct tc_ptm_parse *p)
{
	return &p->out->pkt;
}

/* ---- Cycle count (§4.5.4 "Branch address packet cycle count information
 * in cycle-accurate mode", PTM-P7): 1–5 bytes; the first carries count<3:0>
 * in bits 5:2 and its continuation bit in bit 6 (the layout of a
 * cycle-accurate atom header); bytes 2–4 carry 7 bits and a continuation
 * bit 7; byte 5 carries count<31:25>. ---------------------------------------- */

/* The count whose first byte was already read (an atom header, PTM-P6). */
static uint32_t cycle_count_rest(struct tc_ptm_parse *p, uint8_t first)
{
	uint32_t count = (first >> 2) & 0xf;
	int more = (first >> 6) & 1, n = 1;   /* bytes */
	for (; more && n < 5; n++) {
		uint8_t b = read_byte(p);
		count |= (uint32_t)(b & 0x7f) << (4 + 7 * (n - 1));
		more = (b >> 7) & 1;
		if (n == 4)
			res0(p, tc_ptm_wf_cc_last, b & 0x80);
	}
	TC_CLAUSE_CASE(n, "PTM-P7/CycleCountBytes");
	return count;
}

/* A cycle count after a payload (branch, I-sync, timestamp). */
static void cycle_count(struct tc_ptm_parse *p)
{
	uint8_t first = read_byte(p);
	TC_CLAUSE("PTM-P7/CycleCount");
	res0(p, tc_ptm_wf_cc_first, first & 0x83);
	pkt(p)->cc = cycle_count_rest(p, first);
	pkt(p)->has_cc = 1;
}

/* ---- Addresses (§4.5.4 Branch address packet; the byte layout is that of
 * IHI 0014 §7.3.5's alternative compression scheme, PTM-P3) -------------- */

/* The address section read so far. */
struct addr_bytes {
	uint8_t b[5];
	int n;                     /* address bytes, 1..5 */
	int info;                  /* an exception / information byte follows */
};

/* Reads address bytes after the first (already in a->b[0]) while the
 * continuation bit is set; byte 5 is always the last. */
static void address_bytes(struct tc_ptm_parse *p, struct addr_bytes *a)
{
	a->n = 1;
	a->info = 0;
	while (a->n < 5 && (a->b[a->n - 1] & 0x80)) {
		a->b[a->n] = read_byte(p);
		a->n++;
	}
	if (a->n == 5)
		a->info = (a->b[4] >> 6) & 1;
	else if (a->n > 1)
		a->info = (a->b[a->n - 1] >> 6) & 1;
	TC_CLAUSE_CASE(a->n, "PTM-P3/AddressBytes");
}

/* The instruction set a fifth address byte selects: bits 5:3 are 1xx
 * Jazelle, 01x Thumb, 001 ARM; 000 is reserved (IHI 0014 Table 7-8, PTM-P3). */
static int byte5_isa(struct tc_ptm_parse *p, uint8_t b5, int last_isa)
{
	TC_CLAUSE_CASE(b5, "PTM-P3/Byte5");
	if (b5 & 0x20)
		return tc_ptm_isa_jazelle;
	if (b5 & 0x10) {   /* Thumb alignment: ThumbEE stays ThumbEE without an AltISA bit (PTM-P4) */
		if (last_isa == tc_ptm_isa_thumbee) {
			TC_CLAUSE("PTM-P4/ThumbEEKept");
			return tc_ptm_isa_thumbee;
		}
		return tc_ptm_isa_thumb;
	}
	if (b5 & 0x08)
		return tc_ptm_isa_arm;
	fail(p, tc_ptm_err_reserved_field);
	return tc_ptm_isa_arm;
}

/* Applies an AltISA bit: Thumb and ThumbEE switch; AltISA with ARM or
 * Jazelle is reserved (IHI 0014 Table 7-11). */
static int apply_altisa(struct tc_ptm_parse *p, int isa, int alt)
{
	if (isa == tc_ptm_isa_thumb || isa == tc_ptm_isa_thumbee) {
		TC_CLAUSE_CASE(alt, "PTM-P3/AltISA");
		return alt ? tc_ptm_isa_thumbee : tc_ptm_isa_thumb;
	}
	if (alt) {
		TC_CLAUSE("PTM-P3/AltISA.Reserved");
		fail(p, tc_ptm_err_reserved_field);
	}
	return isa;
}

/* The address bits a section carries, replaced into the low bits of
 * LastState.address: byte 1 bits 6:1, bytes 2–4 bits 6:0 (5:0 for the
 * last of a shorter section), byte 5 A[31:29] (ARM), A[31:28] (Thumb),
 * A[31:27] (Jazelle); shifted by the instruction alignment. */
static uint32_t address_value(const struct addr_bytes *a, int isa, uint32_t last)
{
	int shift = isa == tc_ptm_isa_arm ? 2 : isa == tc_ptm_isa_jazelle ? 0 : 1;
	uint64_t v = (a->b[0] >> 1) & 0x3f;
	int nbits = 6;
	uint64_t mask;
	TC_CLAUSE_CASE(isa, "PTM-P3/AddressValue");
	for (int i = 1; i < a->n && i < 4; i++) {
		int w = (i == a->n - 1) ? 6 : 7;
		v |= (uint64_t)(a->b[i] & ((1u << w) - 1)) << nbits;
		nbits += w;
	}
	if (a->n == 5) {
		v |= (uint64_t)(a->b[4] & ((1u << (5 - shift)) - 1)) << nbits;
		nbits += 5 - shift;
	}
	nbits += shift;
	if (nbits >= 32)
		return (uint32_t)(v << shift);
	mask = (UINT64_C(1) << nbits) - 1;
	return (uint32_t)((last & ~mask) | ((v << shift) & mask));
}

/* ---- Packets --------------------------------------------------------------- */

/* §4.5.4 Branch address packet: 1–5 address bytes, 0–2 exception
 * information bytes, then in cycle-accurate mode 1–5 bytes of cycle count.
 * Exception information byte 0: bit 0 NS, bits 4:1 Exception[3:0], bit 6
 * AltISA, bit 7 another byte follows; byte 1: bits 4:0 Exception[8:4],
 * bit 5 Hyp (PTM-P3). A field of a byte not output is 0 (IHI 0014 §7.3.5). */
static void branch_packet(struct tc_ptm_parse *p, uint8_t header)
{
	struct tc_ptm_packet *k = pkt(p);
	struct tc_ptm_state *st = p->st;
	struct addr_bytes a;
	int isa = st->isa;
	a.b[0] = header;
	address_bytes(p, &a);
	if (a.n == 5) {
		res0(p, tc_ptm_wf_addr5, a.b[4] & 0x80);
		isa = byte5_isa(p, a.b[4], st->isa);
	}
	if (a.info) {
		uint8_t e0 = read_byte(p), e1 = 0;
		TC_CLAUSE("PTM-P3/ExceptionByte0");
		res0(p, tc_ptm_wf_exc0, e0 & 0x20);
		isa = apply_altisa(p, isa, (e0 >> 6) & 1);   /* before byte 1 is needed (PTM-P23) */
		if (e0 & 0x80) {
			TC_CLAUSE("PTM-P3/ExceptionByte1");
			e1 = read_byte(p);
			res0(p, tc_ptm_wf_exc1, e1 & 0xc0);
		}
		k->has_exception = 1;
		k->exception = (uint16_t)(((e0 >> 1) & 0xf) | (e1 & 0x1f) << 4);
		st->ns = e0 & 1;
		st->hyp = (e1 >> 5) & 1;
	}
	if (p->cfg->cycle_accurate)
		cycle_count(p);
	st->address = address_value(&a, isa, st->address);
	st->isa = (uint8_t)isa;
	k->h.kind = tc_ptm_pkt_branch;
	k->address = st->address;
	k->isa = st->isa;
	k->ns = st->ns;
	k->hyp = st->hyp;
}

/* Waypoint update packet (§4.5 Table 4.1: header 0x72, 1–5 bytes): the
 * address section of a branch address packet after the header, with an information byte (bit 6 AltISA) after
 * a fifth address byte whose bit 6 is set (PTM-S4); decompressed against
 * LastState, which it leaves unchanged (PTM-S3). Bit 0 of the first address
 * byte is where the branch header has its fixed 1: a 0 there is ignored
 * with an ignored-field warning (PTM-P25). */
static void waypoint_update_packet(struct tc_ptm_parse *p)
{
	struct tc_ptm_packet *k = pkt(p);
	struct addr_bytes a;
	int isa = p->st->isa;
	a.b[0] = read_byte(p);
	if (!(a.b[0] & 1))
		ignored_field(p, tc_ptm_wf_wpu_first, a.b[0] & 1);
	address_bytes(p, &a);
	if (a.n == 5) {
		res0(p, tc_ptm_wf_addr5, a.b[4] & 0x80);
		isa = byte5_isa(p, a.b[4], p->st->isa);
		if (a.info) {
			uint8_t info = read_byte(p);
			TC_CLAUSE("PTM-S4/WaypointUpdate.Info");
			res0(p, tc_ptm_wf_wp_info, info & 0xbf);
			isa = apply_altisa(p, isa, (info >> 6) & 1);
		}
	} else if (a.n > 1) {
		res0(p, tc_ptm_wf_addr_last, a.b[a.n - 1] & 0x40);
	}
	k->h.kind = tc_ptm_pkt_waypoint;
	k->address = address_value(&a, isa, p->st->address);
	k->isa = (uint8_t)isa;
}

/* Context ID bytes, little endian, as many as ETMCR ContextIDSize says. */
static uint32_t context_id_bytes(struct tc_ptm_parse *p)
{
	uint32_t v = 0;
	TC_CLAUSE_CASE(p->cfg->contextid_size, "PTM-P1/ContextIDBytes");
	for (int i = 0; i < p->cfg->contextid_size; i++)
		v |= (uint32_t)read_byte(p) << (8 * i);
	return v;
}

/* The instruction set an I-sync states: J (info bit 4), T (address bit 0),
 * AltISA (info bit 2); J=1 with AltISA=1 and J=0, T=0 with AltISA=1 are
 * reserved (IHI 0014 Table 7-22, PTM-P8). */
static int isync_isa(struct tc_ptm_parse *p, uint8_t info, uint8_t a0)
{
	int j = (info >> 4) & 1, alt = (info >> 2) & 1, t = a0 & 1;
	TC_CLAUSE_CASE(j << 2 | t << 1 | alt, "PTM-P8/IsyncISA");
	if (j) {
		if (alt)
			fail(p, tc_ptm_err_reserved_field);
		return tc_ptm_isa_jazelle;
	}
	if (!t) {
		if (alt)
			fail(p, tc_ptm_err_reserved_field);
		return tc_ptm_isa_arm;
	}
	return alt ? tc_ptm_isa_thumbee : tc_ptm_isa_thumb;
}

/* I-sync packet (§4.5 Table 4.1: header 0x08, 5–14 bytes): 4 address
 * bytes (bit 0 of the first is the Thumb bit), the information byte (bits 6:5 reason, 4 J, 3 NS, 2 AltISA, 1
 * Hyp, 0 the constant 1: a 0 is ignored with an ignored-field warning), a cycle count in cycle-accurate mode unless the reason is
 * periodic, then the context ID (PTM-P8). */
static void isync_packet(struct tc_ptm_parse *p)
{
	struct tc_ptm_packet *k = pkt(p);
	struct tc_ptm_state *st = p->st;
	uint8_t a[4], info;
	uint32_t address;
	int isa;
	for (int i = 0; i < 4; i++)
		a[i] = read_byte(p);
	info = read_byte(p);
	res0(p, tc_ptm_wf_isync_info, info & 0x80);
	if (!(info & 1))   /* IHI 0014 §7.11.2: "always set to 1"; not read (PTM-P8) */
		ignored_field(p, tc_ptm_wf_isync_info0, info & 1);
	isa = isync_isa(p, info, a[0]);
	address = (uint32_t)a[0] | (uint32_t)a[1] << 8 | (uint32_t)a[2] << 16 | (uint32_t)a[3] << 24;
	if (isa != tc_ptm_isa_jazelle)
		address &= ~UINT32_C(1);
	k->reason = (info >> 5) & 3;
	if (p->cfg->cycle_accurate) {
		TC_CLAUSE_CASE(k->reason, "PTM-P8/Isync.CycleCount");
		if (k->reason != 0)
			cycle_count(p);
	}
	if (p->cfg->contextid_size > 0) {
		st->context_id = context_id_bytes(p);
		k->has_ctxid = 1;
	}
	st->address = address;
	st->isa = (uint8_t)isa;
	st->ns = (info >> 3) & 1;
	st->hyp = (info >> 1) & 1;
	k->h.kind = tc_ptm_pkt_isync;
	k->address = address;
	k->isa = (uint8_t)isa;
	k->ns = st->ns;
	k->hyp = st->hyp;
	k->context_id = st->context_id;
}

/* Atom packet (§4.5 Table 4.1: header b1xxxxxx0, 0–4 bytes; §4.2 PFT
 * atoms; PTM-P6). Not cycle-accurate: the header holds 1–5 atoms, bit 1 the newest, a 0 bit an E atom: 1000 0x F0 (one; bit 2 not
 * assigned), 1000 1FF0, 1001 FFF0, 101F FFF0, 11FF FFF0. Cycle-accurate:
 * one atom in bit 1 and a cycle count whose first byte is the header. */
static void atom_packet(struct tc_ptm_parse *p, uint8_t header)
{
	struct tc_ptm_packet *k = pkt(p);
	int n;
	k->h.kind = tc_ptm_pkt_atom;
	if (p->cfg->cycle_accurate) {
		TC_CLAUSE("PTM-P6/AtomCycleAccurate");
		k->natoms = 1;
		k->atoms = !(header & 2);
		k->cc = cycle_count_rest(p, header);
		k->has_cc = 1;
		return;
	}
	TC_CLAUSE_CASE(header, "PTM-P6/Atom");
	if (header >= 0xc0)
		n = 5;
	else if (header >= 0xa0)
		n = 4;
	else if (header >= 0x90)
		n = 3;
	else
		n = (header & 0x08) ? 2 : 1;
	if (n == 1)
		res0(p, tc_ptm_wf_atom, header & 0x04);
	k->natoms = (uint8_t)n;
	for (int i = 0; i < n; i++)   /* atom i (oldest first) is bit n - i */
		if (!((header >> (n - i)) & 1))
			k->atoms |= UINT32_C(1) << i;
}

static uint64_t bin_to_gray(uint64_t v)
{
	return v ^ (v >> 1);
}

static uint64_t gray_to_bin(uint64_t g)
{
	for (int s = 1; s < 64; s <<= 1)
		g ^= g >> s;
	return g;
}

/* Timestamp packet (§4.5 Table 4.1: header b01000x10, 1–14 bytes): the
 * timestamp's low bits, 7 a byte with a continuation bit 7, at most 7 bytes (48 bits; the seventh carries bits
 * 47:42 in bits 5:0) or 9 (64 bits; the ninth carries bits 63:56), replacing
 * the low bits of the previous value, in natural binary or Gray code
 * (ETMCCER); then a cycle count in cycle-accurate mode (PTM-P9). */
static void timestamp_packet(struct tc_ptm_parse *p)
{
	struct tc_ptm_packet *k = pkt(p);
	int width = p->cfg->ts64 ? 64 : 48, maxb = p->cfg->ts64 ? 9 : 7, nbits = 0;
	uint64_t v = 0, prev = p->st->timestamp, mask;
	uint8_t b;
	int i = 0;
	TC_CLAUSE_CASE(p->cfg->ts64 << 1 | p->cfg->ts_binary, "PTM-P9/Timestamp");
	do {
		b = read_byte(p);
		i++;
		if (i == maxb) {
			int w = width - nbits;
			TC_CLAUSE("PTM-P9/Timestamp.LastByte");
			if (w < 8)
				res0(p, tc_ptm_wf_ts_last, b & ~((1u << w) - 1) & 0xff);
			v |= (uint64_t)(b & ((1u << w) - 1)) << nbits;
			nbits += w;
			break;
		}
		v |= (uint64_t)(b & 0x7f) << nbits;
		nbits += 7;
	} while (b & 0x80);
	mask = nbits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << nbits) - 1;
	if (!p->cfg->ts_binary)
		prev = bin_to_gray(prev);
	prev = (prev & ~mask) | (v & mask);
	if (!p->cfg->ts_binary)
		prev = gray_to_bin(prev);
	if (width < 64)
		prev &= (UINT64_C(1) << width) - 1;
	TC_CLAUSE_CASE(p->cfg->cycle_accurate, "PTM-P9/Timestamp.CycleCount");
	if (p->cfg->cycle_accurate)
		cycle_count(p);
	p->st->timestamp = prev;
	k->h.kind = tc_ptm_pkt_timestamp;
	k->value = prev;
}

/* ---- Table 4.1: the header dispatch ------------------------------------- */

int tc_ptm_header_valid(const struct tc_ptm_config *cfg, uint8_t h)
{
	if ((h & 1) || (h & 0x80))
		return 1;   /* branch address bCxxxxxx1, atom b1xxxxxx0 */
	switch (h) {
	case 0x00: case 0x08: case 0x0c: case 0x42: case 0x46:
	case 0x66: case 0x6e: case 0x72: case 0x76:
		return 1;
	case 0x3c:
		return cfg->version >= 1;   /* VMID: PFTv1.1 (PTM-P2) */
	default:
		return 0;
	}
}

static void dispatch(struct tc_ptm_parse *p, uint8_t h)
{
	struct tc_ptm_packet *k = pkt(p);
	TC_CLAUSE_CASE(h, "4.5/Table4.1");
	if (h & 1) {
		branch_packet(p, h);
		return;
	}
	if (h & 0x80) {
		atom_packet(p, h);
		return;
	}
	switch (h) {
	case 0x08: isync_packet(p); break;
	case 0x0c: k->h.kind = tc_ptm_pkt_trigger; break;           /* Trigger */
	case 0x3c:                                                  /* VMID, 1 byte */
		p->st->vmid = read_byte(p);
		k->h.kind = tc_ptm_pkt_vmid;
		k->vmid = p->st->vmid;
		break;
	case 0x42: case 0x46: timestamp_packet(p); break;
	case 0x66: k->h.kind = tc_ptm_pkt_ignore; break;            /* Ignore */
	case 0x6e:                                                  /* Context ID, ContextIDSize bytes */
		p->st->context_id = context_id_bytes(p);
		k->h.kind = tc_ptm_pkt_context_id;
		k->context_id = p->st->context_id;
		break;
	case 0x72: waypoint_update_packet(p); break;
	default: k->h.kind = tc_ptm_pkt_exception_return; break;   /* 0x76 Exception return */
	}
}

int tc_ptm_parse_packet(const struct tc_ptm_config *cfg, struct tc_ptm_state *st,
			const uint8_t *buf, size_t len, uint64_t offset, struct tc_ptm_out *out)
{
	struct tc_ptm_parse p;
	uint8_t h;
	memset(out, 0, sizeof *out);
	out->pkt.h.size = sizeof out->pkt;
	out->pkt.h.protocol = tc_proto_ptm;
	out->pkt.h.offset = offset;
	if (len == 0)
		return 0;
	p.cfg = cfg;
	p.st = st;
	p.buf = buf;
	p.len = len;
	p.pos = 0;
	p.need_more = 0;
	p.error = 0;
	p.out = out;
	h = read_byte(&p);
	out->pkt.header = h;
	if (!tc_ptm_header_valid(cfg, h)) {
		TC_CLAUSE_CASE(h, "4.5/Table4.1/Reserved");
		return -tc_ptm_err_reserved_header;
	}
	dispatch(&p, h);
	if (p.error)
		return -p.error;
	if (p.need_more)
		return 0;
	return (int)p.pos;
}
