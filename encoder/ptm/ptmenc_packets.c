/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_packets.c — the PTM encoder's packet layer: every PFT packet, every valid encoding, its L1 record. */
/* Layouts: IHI 0035B §4.5 Table 4.1 and §4.5.4 as reference/ptm/ERRATA.md
 * (PTM-P3..P10, PTM-S4) decides them. Each writer chooses at random among
 * the valid encodings of the same information and records the expected L1
 * line from what it wrote; its LastState (the compression reference) is its
 * own. */
#include <string.h>

#include "ptmenc_internal.h"

/* ---- Bytes and L1 lines ------------------------------------------------------ */

static void put1(struct pe *e, unsigned byte)
{
	uint8_t b = (uint8_t)byte;
	enc_buf_put(&e->trace, &b, 1);
}

void pe_put_byte(struct pe *e, unsigned byte)
{
	put1(e, byte);
}

/* Where the next packet starts: atoms held back are written first. */
static uint64_t begin(struct pe *e)
{
	if (e->natoms)
		pe_flush_atoms(e);
	return e->trace.len;
}

static void pkt_init(struct tc_ptm_packet *p, int kind, uint64_t offset, unsigned header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_ptm;
	p->h.kind = (uint16_t)kind;
	p->h.offset = offset;
	p->header = (uint8_t)header;
}

static void l1(struct pe *e, const struct tc_ptm_packet *p)
{
	char buf[256];
	if (e->l1_record)
		e->l1_record(e->l1_ctx, p);
	tc_ptm_format_packet(buf, sizeof buf, p);
	enc_buf_printf(&e->l1, "%s\n", buf);
}

static const char *isa_word(int isa)
{
	return isa == tc_ptm_isa_arm ? "arm" : isa == tc_ptm_isa_thumb ? "thumb" : "thumbee";
}

/* Thumb and ThumbEE share the alignment and byte 5's selector. */
static int thumbish(int isa)
{
	return isa != tc_ptm_isa_arm;
}

int pe_plain_branch_states(const struct pe *e, int isa)
{
	return !thumbish(isa) || (e->last.isa == tc_ptm_isa_thumbee) == (isa == tc_ptm_isa_thumbee);
}

/* A length between the shortest valid one and the longest: mostly the
 * shortest, as a trace unit would, sometimes longer (still valid). */
static int choose_length(struct pe *e, int min, int max)
{
	if (min >= max || enc_chance(&e->rng, 75))
		return min;
	return min + 1 + (int)enc_below(&e->rng, (unsigned)(max - min));
}

/* ---- Cycle counts (PTM-P7): 1-5 bytes; the first carries count[3:0] in
 * bits 5:2 and a continuation bit 6; bytes 2-4 seven bits and a
 * continuation bit 7; byte 5 count[31:25]. ------------------------------------- */

int pe_cc_min_bytes(uint32_t c)
{
	int k = 1;
	for (int bits = 4; k < 5 && (c >> bits) != 0; bits += 7)
		k++;
	return k;
}

/* The bytes after the first (k in all). */
static void put_cc_rest(struct pe *e, uint32_t c, int k)
{
	for (int i = 1; i < k; i++) {
		if (i == 4)
			put1(e, (c >> 25) & 0x7f);
		else
			put1(e, ((c >> (4 + 7 * (i - 1))) & 0x7f) | (i < k - 1 ? 0x80u : 0));
	}
}

void pe_put_cc(struct pe *e, uint32_t c, int k)
{
	put1(e, (c & 0xf) << 2 | (k > 1 ? 0x40u : 0));
	put_cc_rest(e, c, k);
}

/* A cycle count after a payload (branch, I-sync, timestamp). */
static void put_cc(struct pe *e, uint32_t c, const char *what)
{
	int k = choose_length(e, pe_cc_min_bytes(c), 5);
	pe_put_cc(e, c, k);
	pe_hit(e, "cc-%s-len%d", what, k);
}

uint32_t pe_random_cc(struct pe *e)
{
	switch (enc_below(&e->rng, 6)) {
	case 0: case 1: return enc_below(&e->rng, 1u << 4);
	case 2: return enc_below(&e->rng, 1u << 11);
	case 3: return enc_below(&e->rng, 1u << 18);
	case 4: return enc_below(&e->rng, 1u << 25);
	default: return (uint32_t)enc_next(&e->rng);
	}
}

/* ---- Addresses (§4.5.4; PTM-P3): byte 1 (the header) C A..A 1, bytes 2-4
 * C + 7 bits, or, the last of a shorter section, 0 X + 6 bits; byte 5
 * 0 X + the instruction set selector and the top address bits. ------------- */

/* Address bits (from bit 0) a section of k bytes gives: the rest come from
 * LastState.address. */
static int addr_cover(int isa, int k)
{
	static const int arm[6] = { 0, 8, 14, 21, 28, 32 }, thumb[6] = { 0, 7, 13, 20, 27, 32 };
	return isa == tc_ptm_isa_arm ? arm[k] : thumb[k];
}

/* The compression rule: k bytes (k < 5) are valid when the instruction set
 * is LastState's (only byte 5 states one; with exception information its
 * AltISA bit tells Thumb from ThumbEE, so the alignment is enough) and the
 * address bits above what they carry equal LastState.address's. */
int pe_addr_min_bytes(const struct pe *e, uint32_t a, int isa, int min, int altisa)
{
	for (int k = min; k < 5; k++) {
		int cover = addr_cover(isa, k);
		int same = altisa ? thumbish(isa) == thumbish(e->last.isa) : isa == e->last.isa;
		if (same && (a >> cover) == (e->last.address >> cover))
			return k;
	}
	return 5;
}

/* Writes a k-byte address section; flag is bit 6 of its last byte (k > 1:
 * exception information, or a waypoint update's information byte, follows). */
void pe_put_address(struct pe *e, uint32_t a, int isa, int k, int flag)
{
	uint32_t v = a >> (isa == tc_ptm_isa_arm ? 2 : 1);
	put1(e, 0x01 | (v & 0x3f) << 1 | (k > 1 ? 0x80u : 0));
	v >>= 6;
	for (int i = 1; i < k && i < 4; i++) {
		if (i == k - 1) {
			put1(e, (v & 0x3f) | (flag ? 0x40u : 0));
		} else {
			put1(e, 0x80 | (v & 0x7f));
			v >>= 7;
		}
	}
	if (k == 5)
		put1(e, (flag ? 0x40u : 0) | (isa == tc_ptm_isa_arm ? 0x08 | (v & 7) : 0x10 | (v & 0xf)));
}

/* ---- Packets ---------------------------------------------------------------- */

void pe_put_async(struct pe *e, int zeros)
{
	for (int i = 0; i < zeros; i++)
		put1(e, 0x00);
	put1(e, 0x80);
}

uint64_t pe_pkt_async(struct pe *e)
{
	uint64_t off = begin(e);
	int zeros = enc_chance(&e->rng, 80) ? 5 : 6 + (int)enc_below(&e->rng, 8);
	struct tc_ptm_packet p;
	pe_put_async(e, zeros);
	pkt_init(&p, tc_ptm_pkt_async, off, 0x00);
	l1(e, &p);
	pe_hit(e, zeros == 5 ? "async" : "async-long");
	return off;
}

void pe_put_le(struct pe *e, uint32_t v, int n)
{
	for (int i = 0; i < n; i++)
		put1(e, (v >> (8 * i)) & 0xff);
}

static void isync_variants(struct pe *e, int isa, int reason)
{
	pe_hit(e, "isync-reason-%d", reason);
	pe_hit(e, "isync-%s", isa_word(isa));
	pe_hit(e, "isync-ctxid-%d", e->cfg.contextid_size);
	if (e->ns || e->hyp)
		pe_hit(e, e->hyp ? "isync-hyp" : "isync-ns");
	if (e->cfg.cycle_accurate && reason == 0)
		pe_hit(e, "isync-ca-periodic");
}

void pe_put_isync(struct pe *e, uint32_t address, int isa, int reason, int ns, int hyp)
{
	int thumb = thumbish(isa), alt = isa == tc_ptm_isa_thumbee;
	put1(e, 0x08);
	pe_put_le(e, address | (uint32_t)thumb, 4);
	put1(e, (unsigned)reason << 5 | (unsigned)ns << 3 | (unsigned)alt << 2 | (unsigned)hyp << 1 | 1);
}

/* I-sync (PTM-P8): address with the T bit, information byte (reason, NS,
 * Hyp, bit 0 set as IHI 0014 has it), a cycle count (cycle-accurate,
 * reason not periodic), the context ID. */
uint64_t pe_pkt_isync(struct pe *e, uint32_t address, int isa, int reason, uint32_t cc)
{
	uint64_t off = begin(e);
	struct tc_ptm_packet p;
	pe_put_isync(e, address, isa, reason, e->ns, e->hyp);
	pkt_init(&p, tc_ptm_pkt_isync, off, 0x08);
	if (e->cfg.cycle_accurate && reason != 0) {
		put_cc(e, cc, "isync");
		p.has_cc = 1;
		p.cc = cc;
	}
	pe_put_le(e, e->ctxid, e->cfg.contextid_size);
	e->last.address = address;
	e->last.isa = isa;
	e->last.ns = e->ns;
	e->last.hyp = e->hyp;
	if (e->cfg.contextid_size > 0) {
		e->last.ctxid = e->ctxid;
		p.has_ctxid = 1;
		p.context_id = e->ctxid;
	}
	p.address = address;
	p.isa = (uint8_t)isa;
	p.reason = (uint8_t)reason;
	p.ns = (uint8_t)e->ns;
	p.hyp = (uint8_t)e->hyp;
	l1(e, &p);
	isync_variants(e, isa, reason);
	return off;
}

/* Exception information (PTM-P3): byte 0 C AltISA - E[3:0] NS; byte 1
 * - - Hyp E[8:4]. One byte only when E[8:4] and Hyp are 0 (a field of a
 * byte not output is 0). AltISA: ThumbEE rather than Thumb. */
void pe_put_exception(struct pe *e, const struct pe_exc *x, int isa, int two)
{
	unsigned alt = isa == tc_ptm_isa_thumbee;
	put1(e, (two ? 0x80u : 0) | alt << 6 | (x->type & 0xf) << 1 | (unsigned)x->ns);
	if (two)
		put1(e, (unsigned)x->hyp << 5 | ((x->type >> 4) & 0x1f));
}

static void put_exception(struct pe *e, const struct pe_exc *x, int isa)
{
	int two = (x->type >> 4) != 0 || x->hyp || enc_chance(&e->rng, 30);
	pe_put_exception(e, x, isa, two);
	pe_hit(e, "exc-bytes-%d", two ? 2 : 1);
}

/* Branch address packet (§4.5.4): an address section of 1-5 bytes (2-5
 * with exception information), exception information, a cycle count in
 * cycle-accurate mode. */
uint64_t pe_pkt_branch(struct pe *e, uint32_t address, int isa, const struct pe_exc *x, uint32_t cc)
{
	uint64_t off = begin(e);
	struct tc_ptm_packet p;
	int min = pe_addr_min_bytes(e, address, isa, x ? 2 : 1, x != NULL), k = choose_length(e, min, 5);
	pe_put_address(e, address, isa, k, x != NULL);
	pkt_init(&p, tc_ptm_pkt_branch, off, e->trace.p[off] & 0xff);
	if (x) {
		put_exception(e, x, isa);
		if (isa == tc_ptm_isa_thumbee || (e->last.isa == tc_ptm_isa_thumbee && isa == tc_ptm_isa_thumb))
			pe_hit(e, isa == tc_ptm_isa_thumbee ? "exc-altisa" : "thumbee-left");
		e->last.ns = x->ns;
		e->last.hyp = x->hyp;
		p.has_exception = 1;
		p.exception = (uint16_t)x->type;
	}
	if (e->cfg.cycle_accurate) {
		put_cc(e, cc, "branch");
		p.has_cc = 1;
		p.cc = cc;
	}
	if (!x && k == 5 && isa == tc_ptm_isa_thumbee)
		pe_hit(e, "thumbee-kept-5byte");
	e->last.address = address;
	e->last.isa = isa;
	p.address = address;
	p.isa = (uint8_t)isa;
	p.ns = (uint8_t)e->last.ns;
	p.hyp = (uint8_t)e->last.hyp;
	l1(e, &p);
	pe_hit(e, x ? "branch-exc-%s-len%d" : "branch-%s-len%d", isa_word(isa), k);
	if (k > min)
		pe_hit(e, "branch-longer");
	return off;
}

/* Waypoint update (PTM-S3, PTM-S4): header 0x72, an address section of 1-5
 * bytes compressed against LastState, after a fifth byte with bit 6 set an
 * information byte (bit 6 AltISA: needed where LastState's Thumb or
 * ThumbEE is not the waypoint's, PTM-P4). LastState does not change. */
void pe_put_waypoint(struct pe *e, uint32_t address, int isa, int k, int info)
{
	put1(e, 0x72);
	pe_put_address(e, address, isa, k, info);
	if (info)
		put1(e, isa == tc_ptm_isa_thumbee ? 0x40 : 0x00);
}

uint64_t pe_pkt_waypoint(struct pe *e, uint32_t address, int isa)
{
	uint64_t off = begin(e);
	struct tc_ptm_packet p;
	int k = choose_length(e, pe_addr_min_bytes(e, address, isa, 1, 0), 5);
	int info = k == 5 && (!pe_plain_branch_states(e, isa) || enc_chance(&e->rng, 30));
	pe_put_waypoint(e, address, isa, k, info);
	if (info)
		pe_hit(e, "wpu-info");
	pkt_init(&p, tc_ptm_pkt_waypoint, off, 0x72);
	p.address = address;
	p.isa = (uint8_t)isa;
	l1(e, &p);
	pe_hit(e, "wpu-%s-len%d", isa_word(isa), k);
	return off;
}

void pe_put_context_id(struct pe *e, uint32_t ctxid)
{
	put1(e, 0x6e);
	pe_put_le(e, ctxid, e->cfg.contextid_size);
}

void pe_put_vmid(struct pe *e, uint32_t vmid)
{
	put1(e, 0x3c);
	put1(e, vmid & 0xff);
}

void pe_put_simple(struct pe *e, int kind)
{
	put1(e, pe_simple_header(kind));
}

uint64_t pe_pkt_context_id(struct pe *e, uint32_t ctxid)
{
	uint64_t off = begin(e);
	struct tc_ptm_packet p;
	pe_put_context_id(e, ctxid);
	e->last.ctxid = ctxid;
	pkt_init(&p, tc_ptm_pkt_context_id, off, 0x6e);
	p.context_id = ctxid;
	l1(e, &p);
	pe_hit(e, "ctxid-packet-%d", e->cfg.contextid_size);
	return off;
}

uint64_t pe_pkt_vmid(struct pe *e, uint32_t vmid)
{
	uint64_t off = begin(e);
	struct tc_ptm_packet p;
	pe_put_vmid(e, vmid);
	e->last.vmid = vmid & 0xff;
	pkt_init(&p, tc_ptm_pkt_vmid, off, 0x3c);
	p.vmid = vmid & 0xff;
	l1(e, &p);
	pe_hit(e, "hdr-3c");
	return off;
}

static uint64_t gray(uint64_t v)
{
	return v ^ (v >> 1);
}

uint64_t pe_ts_code(const struct pe *e, uint64_t ts)
{
	return e->cfg.ts_binary ? ts : gray(ts);
}

/* Timestamp (PTM-P9): the low bits of the value (of its Gray code with
 * ts_binary 0) that differ from the previous one, 7 a byte with a
 * continuation bit, the last byte of the longest form 6 (48-bit) or 8
 * (64-bit) bits; then a cycle count in cycle-accurate mode. */
/* The timestamp bytes (of its Gray code, or of the binary value) that
 * replace the low bits of the previous one: k of at most maxb. */
int pe_ts_min_bytes(uint64_t g, uint64_t pg, int maxb)
{
	for (int i = 1; i < maxb; i++)
		if ((g >> (7 * i)) == (pg >> (7 * i)))
			return i;
	return maxb;
}

static int put_ts_bytes(struct pe *e, uint64_t g, uint64_t pg, int maxb)
{
	int k = choose_length(e, pe_ts_min_bytes(g, pg, maxb), maxb);
	pe_put_ts(e, g, maxb, k);
	return k;
}

void pe_put_ts(struct pe *e, uint64_t g, int maxb, int k)
{
	for (int i = 0; i < k; i++) {
		if (i == maxb - 1)
			put1(e, (unsigned)(g >> (7 * i)) & (e->cfg.ts64 ? 0xffu : 0x3fu));
		else
			put1(e, (unsigned)((g >> (7 * i)) & 0x7f) | (i < k - 1 ? 0x80u : 0));
	}
}

uint64_t pe_pkt_timestamp(struct pe *e, uint64_t ts, uint32_t cc)
{
	int maxb = e->cfg.ts64 ? 9 : 7, k;
	uint64_t g = pe_ts_code(e, ts), pg = pe_ts_code(e, e->last.ts);
	unsigned header = enc_chance(&e->rng, 50) ? 0x42 : 0x46;
	uint64_t off = begin(e);
	struct tc_ptm_packet p;
	put1(e, header);
	k = put_ts_bytes(e, g, pg, maxb);
	pkt_init(&p, tc_ptm_pkt_timestamp, off, header);
	if (e->cfg.cycle_accurate) {
		put_cc(e, cc, "timestamp");
		p.has_cc = 1;
		p.cc = cc;
	}
	e->last.ts = ts;
	p.value = ts;
	l1(e, &p);
	pe_hit(e, "hdr-%02x", header);
	pe_hit(e, "ts-%s-%d-len%d", e->cfg.ts_binary ? "bin" : "gray", e->cfg.ts64 ? 64 : 48, k);
	return off;
}

unsigned pe_simple_header(int kind)
{
	return kind == tc_ptm_pkt_trigger ? 0x0c : kind == tc_ptm_pkt_ignore ? 0x66 : 0x76;
}

uint64_t pe_pkt_simple(struct pe *e, int kind)
{
	uint64_t off = begin(e);
	unsigned header = pe_simple_header(kind);
	struct tc_ptm_packet p;
	pe_put_simple(e, kind);
	pkt_init(&p, kind, off, header);
	l1(e, &p);
	pe_hit(e, "hdr-%02x", header);
	return off;
}

/* ---- Atoms (§4.2; PTM-P6) ----------------------------------------------------- */

/* The header of n atoms (not cycle-accurate): 1000 0xF0, 1000 1FF0,
 * 1001 FFF0, 101F FFF0, 11FF FFF0; F = 1 for an N atom, the oldest atom in
 * the highest F bit. */
unsigned pe_atom_header(int n, uint32_t taken)
{
	static const unsigned base[6] = { 0, 0x80, 0x88, 0x90, 0xa0, 0xc0 };
	unsigned h = base[n];
	for (int i = 0; i < n; i++)
		if (!(taken >> i & 1))
			h |= 1u << (n - i);
	return h;
}

/* The L3 items of the atoms just written, at the packet's offset. */
static void atom_items(struct pe *e, uint64_t off)
{
	for (int i = 0; i < e->natoms; i++) {
		for (int j = 0; j < e->atoms[i].nitems; j++) {
			e->atoms[i].item[j].h.offset = off;
			pe_l3(e, &e->atoms[i].item[j]);
		}
		for (size_t k = 0; e->marks && k < e->atoms[i].mark_count; k++)
			e->marks[e->atoms[i].mark_first + k] = off;
	}
	e->natoms = 0;
}

void pe_flush_atoms(struct pe *e)
{
	uint64_t off = e->trace.len;
	unsigned header;
	struct tc_ptm_packet p;
	if (e->natoms == 0)
		return;
	pkt_init(&p, tc_ptm_pkt_atom, off, 0);
	p.natoms = (uint8_t)e->natoms;
	for (int i = 0; i < e->natoms; i++)
		p.atoms |= (uint32_t)(e->atoms[i].taken != 0) << i;
	header = pe_atom_header(e->natoms, p.atoms);
	put1(e, header);
	p.header = (uint8_t)header;
	l1(e, &p);
	pe_hit(e, "atom-hdr-%02x", header);
	atom_items(e, off);
}

unsigned pe_put_atom_ca(struct pe *e, int taken, uint32_t cc, int k)
{
	unsigned header = 0x80 | (taken ? 0u : 0x02u) | (cc & 0xf) << 2 | (k > 1 ? 0x40u : 0);
	put1(e, header);
	put_cc_rest(e, cc, k);
	return header;
}

/* Cycle-accurate: one atom a packet, bit 1 (1 = N), its cycle count's first
 * byte merged into the header. */
static void atom_ca(struct pe *e, uint32_t cc)
{
	uint64_t off = e->trace.len;
	int taken = e->atoms[0].taken, k = choose_length(e, pe_cc_min_bytes(cc), 5);
	unsigned header = pe_put_atom_ca(e, taken, cc, k);
	struct tc_ptm_packet p;
	struct tc_l3 x;
	pkt_init(&p, tc_ptm_pkt_atom, off, header);
	p.natoms = 1;
	p.atoms = taken != 0;
	p.has_cc = 1;
	p.cc = cc;
	l1(e, &p);
	pe_hit(e, "atom-ca-hdr-%02x", header);
	pe_hit(e, "cc-atom-len%d", k);
	atom_items(e, off);
	pe_item(&x, tc_l3_cycle_count, off);
	x.count = cc;
	pe_l3(e, &x);
}

void pe_atom(struct pe *e, int taken, const struct tc_l3 *item, int nitems, uint32_t cc)
{
	struct pe_atom *a;
	if (e->natoms == PE_MAX_ATOMS)   /* never: full queues are written below */
		pe_flush_atoms(e);
	a = &e->atoms[e->natoms++];
	a->taken = taken;
	a->nitems = nitems;
	memcpy(a->item, item, (size_t)nitems * sizeof *item);
	a->mark_first = e->mark_first;
	a->mark_count = e->mark_count;
	e->mark_count = 0;
	if (e->cfg.cycle_accurate)
		atom_ca(e, cc);
	else if (e->natoms == PE_MAX_ATOMS || enc_chance(&e->rng, 30))
		pe_flush_atoms(e);
}
