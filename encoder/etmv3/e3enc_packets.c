/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_packets.c — the ETMv3 encoder's packet layer: every ETMv3 packet, every valid encoding, its L1 record. */
/* Layouts: ARM IHI 0014 §7.2–7.8 (Table 7-1) as reference/etmv3/ERRATA.md
 * decides what the lost figures hold (ETM3-P3, P7, P8, P9, P10, X1). Each
 * writer chooses at random among the valid encodings of the same
 * information and records the expected L1 line from what it wrote; its
 * compression references (struct e3e_last) are its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e3enc_internal.h"

/* ---- Bytes and L1 lines ------------------------------------------------------ */

static void put1(struct e3e *e, unsigned byte)
{
	uint8_t b = (uint8_t)byte;
	enc_buf_put(&e->trace, &b, 1);
}

/* Where the next packet starts: atoms waiting are written first. */
static uint64_t begin(struct e3e *e)
{
	if (e->natoms)
		e3e_flush_atoms(e);
	return e->trace.len;
}

static void pkt_init(struct tc_etmv3_packet *p, int kind, uint64_t offset, unsigned header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_etmv3;
	p->h.kind = (uint16_t)kind;
	p->h.offset = offset;
	p->header = (uint8_t)header;
}

static void l1(struct e3e *e, const struct tc_etmv3_packet *p)
{
	char buf[256];
	if (e->l1_record)
		e->l1_record(e->l1_ctx, p);
	tc_etmv3_format_packet(buf, sizeof buf, p);
	enc_buf_printf(&e->l1, "%s\n", buf);
}

static const char *isa_word(int isa)
{
	static const char *const w[4] = { "arm", "thumb", "thumbee", "jazelle" };
	return w[isa & 3];
}

static void put_le(struct e3e *e, uint32_t v, int n)
{
	for (int i = 0; i < n; i++)
		put1(e, (v >> (8 * i)) & 0xff);
}

/* ---- Cycle counts (§7.3.4; ETM3-P7): bytes 1-4 count[6:0], [13:7],
 * [20:14], [27:21] with bit 7 "another byte follows", byte 5 count[31:28];
 * missing high-order bits are 0, so any length from the shortest is valid. */

int e3e_cc_min_bytes(uint32_t c)
{
	int k = 1;
	while (k < 5 && (c >> (7 * k)) != 0)
		k++;
	return k;
}

/* A cycle count in k bytes (k from e3e_cc_min_bytes to 5). */
void e3e_put_cc(struct e3e *e, uint32_t c, int k)
{
	for (int i = 0; i < k; i++) {
		if (i == 4)
			put1(e, (c >> 28) & 0x0f);
		else
			put1(e, ((c >> (7 * i)) & 0x7f) | (i < k - 1 ? 0x80u : 0));
	}
}

/* A cycle count's random length. */
static int cc_len(struct e3e *e, uint32_t c, const char *what)
{
	int k = e3e_length(e, e3e_cc_min_bytes(c), 5);
	e3e_hit(e, "cc-%s-len%d", what, k);
	if (c == 0)
		e3e_hit(e, "cc-zero");
	return k;
}

uint32_t e3e_random_cc(struct e3e *e)
{
	switch (enc_below(&e->rng, 8)) {
	case 0: return 0;   /* the counter overflowed (§7.3.4) */
	case 1: case 2: return 1 + enc_below(&e->rng, 127);
	case 3: return enc_below(&e->rng, 1u << 14);
	case 4: return enc_below(&e->rng, 1u << 21);
	case 5: return enc_below(&e->rng, 1u << 28);
	default: return (uint32_t)enc_next(&e->rng);
	}
}

/* Cycle count packet (§7.3.4): 04, then the count in k bytes. */
uint64_t e3e_put_cycle_count(struct e3e *e, uint32_t cc, int k)
{
	uint64_t off = begin(e);
	put1(e, 0x04);
	e3e_put_cc(e, cc, k);
	return off;
}

uint64_t e3e_pkt_cycle_count(struct e3e *e, uint32_t cc)
{
	uint64_t off = begin(e);
	struct tc_etmv3_packet p;
	e3e_put_cycle_count(e, cc, cc_len(e, cc, "packet"));
	pkt_init(&p, tc_etmv3_pkt_cycle_count, off, 0x04);
	p.cc = cc;
	l1(e, &p);
	return off;
}

/* ---- Instruction addresses (§7.3.5, ETM3-P3): byte 1 C A..A 1, bytes 2-4 C
 * + 7 bits or, the last byte of a shorter section in the alternative scheme,
 * 0 X + 6 bits (Table 7-6); byte 5 as Table 7-8. The bits replace the low
 * bits of the last broadcast address, shifted by the instruction set's
 * alignment. ------------------------------------------------------------------ */

static int isa_shift(int isa)
{
	return isa == tc_etmv3_isa_arm ? 2 : isa == tc_etmv3_isa_jazelle ? 0 : 1;
}

/* Address bits (from bit 0) a section of k < 5 bytes gives. */
static int addr_cover(const struct e3e *e, int isa, int k)
{
	int bits = e->cfg.alt_branch && k > 1 ? 6 + 7 * (k - 2) + 6 : 6 + 7 * (k - 1);
	return bits + isa_shift(isa);
}

/* The shortest valid section from kmin bytes: fewer than 5 only in the
 * instruction set of the reference (a state change takes all five, Table
 * 7-14; a section without a fifth byte states none) and with the bits
 * above what it carries those of the reference address. */
int e3e_addr_min_bytes(const struct e3e *e, uint32_t a, int isa, uint32_t ref, int ref_isa, int kmin)
{
	for (int k = kmin; k < 5; k++) {
		int cover = addr_cover(e, isa, k);
		if (isa == ref_isa && (a >> cover) == (ref >> cover))
			return k;
	}
	return 5;
}

/* Writes a k-byte section; flag: exception information follows (bit 6 of a
 * fifth byte, or of the last byte in the alternative scheme); byte5 >= 0:
 * the deprecated exception form's C and EEE (bits 6:3) in a fifth ARM byte. */
void e3e_put_section(struct e3e *e, uint32_t a, int isa, int k, int flag, int byte5)
{
	uint32_t v = a >> isa_shift(isa);
	put1(e, 0x01 | (v & 0x3f) << 1 | (k > 1 ? 0x80u : 0));
	v >>= 6;
	for (int i = 1; i < k && i < 4; i++) {
		if (i == k - 1 && e->cfg.alt_branch) {
			put1(e, (v & 0x3f) | (flag ? 0x40u : 0));
			v >>= 6;
		} else {
			put1(e, (v & 0x7f) | (i < k - 1 ? 0x80u : 0));
			v >>= 7;
		}
	}
	if (k < 5)
		return;
	if (byte5 >= 0)
		put1(e, 0x80 | (unsigned)byte5 | (v & 7));
	else if (isa == tc_etmv3_isa_arm)
		put1(e, (flag ? 0x40u : 0) | 0x08 | (v & 7));
	else if (isa == tc_etmv3_isa_jazelle)
		put1(e, (flag ? 0x40u : 0) | 0x20 | (v & 0x1f));
	else
		put1(e, (flag ? 0x40u : 0) | 0x10 | (v & 0x0f));
}

int e3e_needs_altisa(const struct e3e *e, int isa)
{
	return (isa == tc_etmv3_isa_thumbee) != (e->last.isa == tc_etmv3_isa_thumbee) &&
	       (isa == tc_etmv3_isa_thumbee || isa == tc_etmv3_isa_thumb);
}

/* Exception information bytes (Table 7-10, Figure 7-25): byte 0 Con AltISA
 * Can Exception[3:0] NS; byte 1 C 0 Hyp Exception[8:4]; byte 2 0 1 SBZ SBZ
 * Resume[3:0]. Byte 1 only with Exception[8:4] (ARMv7-M numbers above 15)
 * or, in ETMv3.5, to give the Hyp state (ETM3-X3; required when it
 * changes); byte 2 only with Resume; "the ETM only outputs the bytes that
 * contain nonzero information" (§7.3.5 Extended exception handling). On
 * cores other than ARMv7-M, Exception[8:4] is not assigned: byte 1 bits
 * 4:0 are written 0 (ETM3-P26). */
/* Whether byte 1 is written: with Exception[8:4], when the Hyp state
 * changes from last_hyp, and at random in ETMv3.5 otherwise. */
static int exc_byte1(struct e3e *e, const struct e3e_exc *x, int last_hyp)
{
	int v5 = e->cfg.version >= 5, m = e->cfg.profile_m;
	unsigned high = m ? (x->type >> 4) & 0x1f : 0;
	return high != 0 || (v5 && !m && (x->hyp != last_hyp || enc_chance(&e->rng, 25)));
}

/* The exception information bytes, byte 1 when b1 (e3e_exc_byte1_needed or
 * more); returns whether the Hyp bit was given (byte 1 in ETMv3.5). */
int e3e_put_exception(struct e3e *e, const struct e3e_exc *x, int isa, int b1)
{
	int v5 = e->cfg.version >= 5, m = e->cfg.profile_m;
	unsigned high = m ? (x->type >> 4) & 0x1f : 0;
	int b2 = x->resume != 0;
	unsigned alt = e->cfg.version >= 3 && isa == tc_etmv3_isa_thumbee;
	put1(e, (b1 || b2 ? 0x80u : 0) | alt << 6 | (unsigned)x->can << 5 | (x->type & 0xf) << 1 | (unsigned)x->ns);
	if (b1)
		put1(e, (b2 ? 0x80u : 0) | (v5 && x->hyp ? 0x20u : 0) | high);
	if (b2)
		put1(e, 0x40 | (x->resume & 0xf));
	return b1 && v5;
}

/* Whether byte 1 must be written: Exception[8:4] (ARMv7-M) or a Hyp state other than last_hyp (ETMv3.5). */
int e3e_exc_byte1_needed(const struct e3e *e, const struct e3e_exc *x, int last_hyp)
{
	int v5 = e->cfg.version >= 5, m = e->cfg.profile_m;
	return (m && ((x->type >> 4) & 0x1f)) || (v5 && !m && x->hyp != last_hyp);
}


/* Branch address packet (§7.3.5): the address section against the last
 * broadcast address, then exception information: after all five bytes in
 * the original scheme, after 2-5 in the alternative one (Table 7-5), or the
 * deprecated fifth-byte form. */
/* The branch address packet of a k-byte section and (x) its exception
 * information, byte 1 when b1; the references become the packet's. */
uint64_t e3e_put_branch(struct e3e *e, uint32_t address, int isa, const struct e3e_exc *x, int k, int b1)
{
	uint64_t off = begin(e);
	e3e_put_section(e, address, isa, k, x && !x->byte5, x && x->byte5 ? (int)((unsigned)x->can << 6 | x->eee << 3) : -1);
	if (x && !x->byte5) {
		if (e3e_put_exception(e, x, isa, b1))
			e->last.hyp = x->hyp;
		e->last.ns = x->ns;
	}
	e->last.address = address;
	e->last.isa = isa;
	return off;
}

uint64_t e3e_pkt_branch(struct e3e *e, uint32_t address, int isa, const struct e3e_exc *x)
{
	uint64_t off = begin(e);
	struct tc_etmv3_packet p;
	int kmin = !x ? 1 : x->byte5 || !e->cfg.alt_branch ? 5 : 2, k, b1 = 0, kshort;
	kshort = e3e_addr_min_bytes(e, address, isa, e->last.address, e->last.isa, kmin);
	k = e3e_length(e, kshort, 5);
	if (x && !x->byte5) {
		b1 = exc_byte1(e, x, e->last.hyp);
		e3e_hit(e, "exc-bytes-0%s%s", b1 ? "1" : "", x->resume ? "2" : "");
	}
	e3e_put_branch(e, address, isa, x, k, b1);
	pkt_init(&p, tc_etmv3_pkt_branch, off, e->trace.p[off] & 0xffu);
	if (x && x->byte5) {
		p.exc_form = tc_etmv3_exc_byte5;
		p.exception = (uint16_t)x->eee;
		p.cancel = (uint8_t)x->can;
		e3e_hit(e, "branch-exc5-eee%u", x->eee);
	} else if (x) {
		p.exc_form = tc_etmv3_exc_bytes;
		p.exception = (uint16_t)x->type;
		p.cancel = (uint8_t)x->can;
		p.resume = (uint8_t)x->resume;
		e3e_hit(e, "branch-exc-%s-len%d", e->cfg.alt_branch ? "alt" : "orig", k);
	} else {
		e3e_hit(e, "branch-%s-%s-len%d", e->cfg.alt_branch ? "alt" : "orig", isa_word(isa), k);
	}
	if (k > kshort)
		e3e_hit(e, "branch-longer");
	e->traced_isa[isa & 3] = 1;
	e->branch_owed = 0;
	p.address = address;
	p.isa = (uint8_t)isa;
	p.ns = (uint8_t)e->last.ns;
	p.hyp = (uint8_t)e->last.hyp;
	l1(e, &p);
	return off;
}

/* ---- Synchronisation (§7.7) ---------------------------------------------------- */

/* A-sync (§7.7.2): zeros 0x00 then 0x80. */
uint64_t e3e_put_async(struct e3e *e, int zeros)
{
	uint64_t off = begin(e);
	for (int i = 0; i < zeros; i++)
		put1(e, 0x00);
	put1(e, 0x80);
	return off;
}

uint64_t e3e_pkt_async(struct e3e *e)
{
	uint64_t off = begin(e);
	int zeros = enc_chance(&e->rng, 80) ? 5 : 6 + (int)enc_below(&e->rng, 8);
	struct tc_etmv3_packet p;
	e3e_put_async(e, zeros);
	pkt_init(&p, tc_etmv3_pkt_async, off, 0x00);
	l1(e, &p);
	e3e_hit(e, zeros == 5 ? "async" : "async-long");
	return off;
}

/* The information byte (§7.7.3, ETM3-P8): bit 7 LSiP, 6:5 reason, 4 J, 3
 * NS, 2 AltISA (ETMv3.3), 1 Hyp (ETMv3.5, ETM3-X2), 0 always 1 (§7.11.2);
 * a data-only I-sync gives the reason and NS only. */
static unsigned isync_info(const struct e3e *e, const struct e3e_isync *s)
{
	unsigned info = (unsigned)s->reason << 5 | (unsigned)e->ns << 3 | 1;
	if (e->cfg.data_only)
		return info;
	info |= (unsigned)s->lsip << 7 | (s->isa == tc_etmv3_isa_jazelle ? 0x10u : 0);
	if (e->cfg.version >= 3 && s->isa == tc_etmv3_isa_thumbee)
		info |= 0x04;
	if (e->cfg.version >= 5 && e->hyp)
		info |= 0x02;
	return info;
}

/* The LSiP current address (§7.7.3, ETM3-P9): a branch address section of
 * k bytes against the data instruction's address; exception information
 * (byte 1 when b1) only to change the security state (its exception, Can
 * and Resume 0). */
static void put_lsip_current(struct e3e *e, const struct e3e_isync *s, int k, int b1)
{
	int change = s->lsip_ns != e->ns;
	struct e3e_exc x;
	e3e_put_section(e, s->address, s->isa, k, change, -1);
	if (change) {
		memset(&x, 0, sizeof x);
		x.ns = s->lsip_ns;
		x.hyp = e->hyp;
		e3e_put_exception(e, &x, s->isa, b1);
	}
}

/* The LSiP current address's random length and byte 1 (put_lsip_current). */
static void lsip_choices(struct e3e *e, const struct e3e_isync *s, int *k, int *b1)
{
	int change = s->lsip_ns != e->ns, kmin = !change ? 1 : e->cfg.alt_branch ? 2 : 5;
	struct e3e_exc x;
	*k = e3e_length(e, e3e_addr_min_bytes(e, s->address, s->isa, s->data_insn, s->isa, kmin), 5);
	*b1 = 0;
	e3e_hit(e, "isync-lsip-len%d", *k);
	if (change) {
		memset(&x, 0, sizeof x);
		x.ns = s->lsip_ns;
		x.hyp = e->hyp;
		*b1 = exc_byte1(e, &x, e->cfg.version >= 5 ? e->hyp : e->last.hyp);   /* Hyp as the I-sync gives it */
		e3e_hit(e, "exc-bytes-0%s", *b1 ? "1" : "");
		e3e_hit(e, "isync-lsip-ns");
	}
}

static void isync_variants(struct e3e *e, const struct e3e_isync *s)
{
	e3e_hit(e, "isync-reason-%d", s->reason);
	e3e_hit(e, "isync-ctxid-%d", e->cfg.contextid_size);
	if (e->cfg.data_only) {
		e3e_hit(e, "isync-data-only");
		return;
	}
	e3e_hit(e, "isync-%s", isa_word(s->isa));
	if (e->ns)
		e3e_hit(e, "isync-ns");
	if (e->hyp && e->cfg.version >= 5)
		e3e_hit(e, "isync-hyp");
	if (s->cc >= 0)
		e3e_hit(e, s->lsip ? "isync-lsip-cc" : "isync-cc");
	else if (s->lsip)
		e3e_hit(e, "isync-lsip");
}

/* I-sync (§7.7.3, ETM3-P8): header 08 or 70 (with a cycle count), the
 * cycle count, the context ID, the information byte, the instruction
 * address (4 bytes, bit 0 the T bit; a Jazelle address as it is), an LSiP
 * I-sync's current address. The ns and hyp of the trace unit are those of
 * the instruction at the address given. */
/* The I-sync of the trace unit's state (e->ns, e->hyp, e->ctxid) with a
 * cycle count of cc_k bytes and an LSiP current address of lsip_k bytes
 * (byte 1 of its exception information when lsip_b1); the references
 * become the packet's. */
uint64_t e3e_put_isync(struct e3e *e, const struct e3e_isync *s, int cc_k, int lsip_k, int lsip_b1)
{
	uint64_t off = begin(e);
	uint32_t at = s->lsip ? s->data_insn : s->address;
	put1(e, s->cc >= 0 ? 0x70 : 0x08);
	if (s->cc >= 0)
		e3e_put_cc(e, (uint32_t)s->cc, cc_k);
	put_le(e, e->ctxid, e->cfg.contextid_size);
	put1(e, isync_info(e, s));
	e->last.ns = e->ns;
	if (e->cfg.version >= 5)
		e->last.hyp = e->cfg.data_only ? 0 : e->hyp;
	if (!e->cfg.data_only) {
		int thumb = s->isa == tc_etmv3_isa_thumb || s->isa == tc_etmv3_isa_thumbee;
		put_le(e, at | (uint32_t)thumb, 4);
		if (s->lsip) {
			put_lsip_current(e, s, lsip_k, lsip_b1);
			e->last.ns = s->lsip_ns;
		}
		e->last.address = s->address;
		e->last.isa = s->isa;
	}
	if (e->cfg.contextid_size > 0)
		e->last.ctxid = e->ctxid;
	return off;
}

uint64_t e3e_pkt_isync(struct e3e *e, const struct e3e_isync *s)
{
	uint64_t off = begin(e);
	unsigned header = s->cc >= 0 ? 0x70 : 0x08;
	struct tc_etmv3_packet p;
	int cc_k = 0, lsip_k = 0, lsip_b1 = 0;
	pkt_init(&p, tc_etmv3_pkt_isync, off, header);
	e->branch_owed = 0;   /* the I-sync after an overflow that lost the branch packet ("unless prevented by a FIFO overflow") */
	if (s->cc >= 0) {
		cc_k = cc_len(e, (uint32_t)s->cc, "isync");
		p.has_cc = 1;
		p.cc = (uint32_t)s->cc;
	}
	isync_variants(e, s);
	if (!e->cfg.data_only && s->lsip)
		lsip_choices(e, s, &lsip_k, &lsip_b1);
	e3e_put_isync(e, s, cc_k, lsip_k, lsip_b1);
	if (!e->cfg.data_only) {
		e->traced_isa[s->isa & 3] = 1;
		p.has_address = 1;
		p.address = s->address;
		p.isa = (uint8_t)s->isa;
		p.lsip = (uint8_t)s->lsip;
		p.data_insn = s->lsip ? s->data_insn : 0;
	} else {
		p.address = e->last.address;
		p.isa = (uint8_t)e->last.isa;
	}
	if (e->cfg.contextid_size > 0) {
		e->last.ctxid = e->ctxid;
		p.has_ctxid = 1;
		p.context_id = e->ctxid;
	}
	p.reason = (uint8_t)s->reason;
	p.ns = (uint8_t)e->last.ns;
	p.hyp = (uint8_t)e->last.hyp;
	l1(e, &p);
	return off;
}

/* ---- Context, VMID, timestamps, single bytes ---------------------------------- */

uint64_t e3e_pkt_context_id(struct e3e *e, uint32_t ctxid)
{
	uint64_t off = begin(e);
	struct tc_etmv3_packet p;
	put1(e, 0x6e);
	put_le(e, ctxid, e->cfg.contextid_size);
	e->last.ctxid = ctxid;
	pkt_init(&p, tc_etmv3_pkt_context_id, off, 0x6e);
	p.context_id = ctxid;
	l1(e, &p);
	e3e_hit(e, "ctxid-packet-%d", e->cfg.contextid_size);
	return off;
}

uint64_t e3e_pkt_vmid(struct e3e *e, uint32_t vmid)
{
	uint64_t off = begin(e);
	struct tc_etmv3_packet p;
	put1(e, 0x3c);
	put1(e, vmid & 0xff);
	e->last.vmid = vmid & 0xff;
	pkt_init(&p, tc_etmv3_pkt_vmid, off, 0x3c);
	p.vmid = vmid & 0xff;
	l1(e, &p);
	e3e_hit(e, "hdr-3c");
	return off;
}

static uint64_t gray(uint64_t v)
{
	return v ^ (v >> 1);
}

/* The timestamp bytes (ETM3-X1) replacing the low bits of the previous
 * value (of its Gray code with ETMCCER[28] = 0): 7 a byte with bit 7
 * "another byte follows"; the last byte of the longest form (7 for 48 bits,
 * 9 for 64) carries the 6 or 8 bits left. Any length from the shortest that
 * covers every changed bit. */
int e3e_ts_min_bytes(const struct e3e *e, uint64_t g, uint64_t pg)
{
	int maxb = e->cfg.ts64 ? 9 : 7;
	for (int i = 1; i < maxb; i++)
		if ((g >> (7 * i)) == (pg >> (7 * i)))
			return i;
	return maxb;
}

/* The code the timestamp bytes carry: the value, or its Gray code with ETMCCER[28] = 0. */
uint64_t e3e_ts_code(const struct e3e *e, uint64_t ts)
{
	return e->cfg.ts_binary ? ts : gray(ts);
}

/* Timestamp (IHI 0014Q §7.7.4): header 42, or 46 when the clock frequency
 * changed (R), then k bytes of the code; the reference becomes ts. */
uint64_t e3e_put_timestamp(struct e3e *e, uint64_t ts, int r, int k)
{
	int maxb = e->cfg.ts64 ? 9 : 7;
	uint64_t off = begin(e), g = e3e_ts_code(e, ts);
	put1(e, r ? 0x46 : 0x42);
	for (int i = 0; i < k; i++) {
		if (i == maxb - 1)
			put1(e, (unsigned)(g >> (7 * i)) & (e->cfg.ts64 ? 0xffu : 0x3fu));
		else
			put1(e, (unsigned)((g >> (7 * i)) & 0x7f) | (i < k - 1 ? 0x80u : 0));
	}
	e->last.ts = ts;
	return off;
}

/* A random length from the shortest; whole: every byte (a T-sync, IHI 0014Q §7.10.2). */
uint64_t e3e_pkt_timestamp(struct e3e *e, uint64_t ts, int r, int whole)
{
	int maxb = e->cfg.ts64 ? 9 : 7, k;
	unsigned header = r ? 0x46 : 0x42;
	uint64_t off = begin(e);
	struct tc_etmv3_packet p;
	k = whole ? maxb : e3e_length(e, e3e_ts_min_bytes(e, e3e_ts_code(e, ts), e3e_ts_code(e, e->last.ts)), maxb);
	e3e_put_timestamp(e, ts, r, k);
	pkt_init(&p, tc_etmv3_pkt_timestamp, off, header);
	p.ts = ts;
	p.ts_r = (uint8_t)r;
	l1(e, &p);
	e3e_hit(e, "hdr-%02x", header);
	e3e_hit(e, "ts-%s-%d-len%d", e->cfg.ts_binary ? "bin" : "gray", e->cfg.ts64 ? 64 : 48, k);
	return off;
}

static int simple_kind(unsigned header)
{
	switch (header) {
	case 0x0c: return tc_etmv3_pkt_trigger;
	case 0x66: return tc_etmv3_pkt_ignore;
	case 0x76: return tc_etmv3_pkt_exception_exit;
	default: return tc_etmv3_pkt_exception_entry;   /* 7e */
	}
}

uint64_t e3e_pkt_simple(struct e3e *e, unsigned header)
{
	uint64_t off = begin(e);
	struct tc_etmv3_packet p;
	put1(e, header);
	pkt_init(&p, simple_kind(header), off, header);
	l1(e, &p);
	e3e_hit(e, "hdr-%02x", header);
	return off;
}

/* ---- Data packets (§7.4; ETM3-P10) ------------------------------------------------ */

/* A data address of 1-5 bytes against the last traced one: bytes 1-4
 * A[6:0] … A[27:21] with bit 7 "more follow", byte 5 A[31:28] and BE (bit
 * 4). Fewer than five only with the bits not output and BE those of the
 * reference, and not as a D-sync. */
int e3e_daddr_min_bytes(const struct e3e *e, uint32_t a, int be)
{
	if (!e->last.dsync && be == e->last.be)
		for (int i = 1; i < 5; i++)
			if ((a >> (7 * i)) == (e->last.daddr >> (7 * i)))
				return i;
	return 5;
}

/* A data address in k bytes; the references become it. */
void e3e_put_daddr(struct e3e *e, uint32_t a, int be, int k)
{
	for (int i = 0; i < k; i++) {
		if (i == 4)
			put1(e, ((a >> 28) & 0x0f) | (unsigned)be << 4);
		else
			put1(e, ((a >> (7 * i)) & 0x7f) | (i < k - 1 ? 0x80u : 0));
	}
	if (k == 5)
		e->last.be = be;
	e->last.dsync = 0;
	e->last.daddr = a;
}

static int daddr_choice(struct e3e *e, uint32_t a, int be)
{
	int min = e3e_daddr_min_bytes(e, a, be), k = e3e_length(e, min, 5);
	if (k == 5 && be != e->last.be)
		e3e_hit(e, "data-be-change");
	if (e->last.dsync)
		e3e_hit(e, "data-dsync");
	e3e_hit(e, "data-addr-len%d", k);
	if (k > min)
		e3e_hit(e, "data-addr-longer");
	return k;
}

/* The size field of a value (Table 7-19): its bytes, the fewest that hold
 * it or more ("No compression done"). */
static int value_size(struct e3e *e, uint32_t v, int *ss)
{
	static const int bytes[4] = { 0, 1, 2, 4 };
	int min = v == 0 ? 0 : v < 0x100 ? 1 : v < 0x10000 ? 2 : 3;
	*ss = e3e_length(e, min, 3);
	if (*ss > min)
		e3e_hit(e, "data-value-longer");
	return bytes[*ss];
}

/* A data address's random length (its L1 fields in p: the BE bit a shorter address keeps is the reference's). */
static int daddr_len(struct e3e *e, struct tc_etmv3_packet *p, const struct e3e_dpkt *d)
{
	int k = daddr_choice(e, d->addr, d->be);
	p->has_address = 1;
	p->data_address = d->addr;
	p->be = (uint8_t)(k == 5 ? d->be : e->last.be);
	return k;
}

/* Whether a data packet's header A bit gives an address (address tracing on). */
static int has_daddr(const struct e3e *e, const struct e3e_dpkt *d)
{
	return e->cfg.data_address && d->a;
}

/* The data packet d with the value's size field ss (Table 7-19) and an
 * address of k bytes (the layouts of §7.4.2, §7.4.3, §7.4.5 below). */
void e3e_put_data(struct e3e *e, const struct e3e_dpkt *d, int ss, int k)
{
	static const int bytes[4] = { 0, 1, 2, 4 };
	switch (d->kind) {
	case e3e_d_normal: put1(e, 0x02 | (unsigned)d->a << 5 | (unsigned)ss << 2); break;
	case e3e_d_placeholder: put1(e, 0x50 | (unsigned)d->a << 5 | (unsigned)d->tag << 2); break;
	case e3e_d_ooo: put1(e, (unsigned)d->tag << 5 | (unsigned)ss << 2); break;
	case e3e_d_vnt: put1(e, 0x6a | (unsigned)d->a << 4); break;
	case e3e_d_suppressed: put1(e, 0x62); return;
	default: put1(e, 0x50); return;   /* store failed */
	}
	if (d->kind != e3e_d_ooo && has_daddr(e, d))
		e3e_put_daddr(e, d->addr, d->be, k);
	if (d->kind == e3e_d_ooo || (d->kind == e3e_d_normal && e->cfg.data_value))
		put_le(e, d->value, bytes[ss]);
}

/* Normal data b00A0SS10 (§7.4.2): the address when address tracing is on
 * and A is 1 (an A bit with address tracing off is ignored), the value when
 * value tracing is on (the size bits 0 otherwise). */
static void normal_data(struct e3e *e, const struct e3e_dpkt *d)
{
	uint64_t off = e->trace.len;
	struct tc_etmv3_packet p;
	int ss = 0, size = e->cfg.data_value ? value_size(e, d->value, &ss) : 0, k = 0;
	unsigned header = 0x02 | (unsigned)d->a << 5 | (unsigned)ss << 2;
	pkt_init(&p, tc_etmv3_pkt_data, off, header);
	if (has_daddr(e, d))
		k = daddr_len(e, &p, d);
	else
		e3e_hit(e, d->a ? "data-a-ignored" : "data-no-address");
	e3e_put_data(e, d, ss, k);
	if (e->cfg.data_value) {
		p.has_value = 1;
		p.value = d->value;
		p.size = (uint8_t)size;
		e3e_hit(e, "data-value-size%d", size);
	}
	l1(e, &p);
}

/* Out-of-order placeholder b01A1TT00 (§7.4.3). */
static void placeholder(struct e3e *e, const struct e3e_dpkt *d)
{
	uint64_t off = e->trace.len;
	struct tc_etmv3_packet p;
	unsigned header = 0x50 | (unsigned)d->a << 5 | (unsigned)d->tag << 2;
	int k = 0;
	pkt_init(&p, tc_etmv3_pkt_placeholder, off, header);
	p.tag = (uint8_t)d->tag;
	if (has_daddr(e, d))
		k = daddr_len(e, &p, d);
	e3e_put_data(e, d, 0, k);
	l1(e, &p);
	e3e_hit(e, "placeholder-tag%d", d->tag);
	e3e_hit(e, has_daddr(e, d) ? "placeholder-addr" : "placeholder-no-address");
}

/* Out-of-order data b0TT0SS00 (§7.4.3): never an address. */
static void ooo_data(struct e3e *e, const struct e3e_dpkt *d)
{
	uint64_t off = e->trace.len;
	struct tc_etmv3_packet p;
	int ss, size = value_size(e, d->value, &ss);
	unsigned header = (unsigned)d->tag << 5 | (unsigned)ss << 2;
	e3e_put_data(e, d, ss, 0);
	pkt_init(&p, tc_etmv3_pkt_ooo_data, off, header);
	p.tag = (uint8_t)d->tag;
	p.has_value = 1;
	p.value = d->value;
	p.size = (uint8_t)size;
	l1(e, &p);
	e3e_hit(e, "ooo-data-tag%d-size%d", d->tag, size);
}

/* Value not traced b011A1010 (§7.4.5). */
static void value_not_traced(struct e3e *e, const struct e3e_dpkt *d)
{
	uint64_t off = e->trace.len;
	struct tc_etmv3_packet p;
	unsigned header = 0x6a | (unsigned)d->a << 4;
	int k = 0;
	pkt_init(&p, tc_etmv3_pkt_value_not_traced, off, header);
	if (has_daddr(e, d))
		k = daddr_len(e, &p, d);
	e3e_put_data(e, d, 0, k);
	l1(e, &p);
	e3e_hit(e, has_daddr(e, d) ? "vnt-addr" : d->a ? "vnt-a-ignored" : "vnt");
}

static void single(struct e3e *e, unsigned header, int kind, const char *variant)
{
	struct tc_etmv3_packet p;
	pkt_init(&p, kind, e->trace.len, header);
	put1(e, header);
	l1(e, &p);
	e3e_hit(e, "%s", variant);
}

static void write_data(struct e3e *e, const struct e3e_dpkt *d)
{
	switch (d->kind) {
	case e3e_d_normal: normal_data(e, d); break;
	case e3e_d_placeholder: placeholder(e, d); break;
	case e3e_d_ooo: ooo_data(e, d); break;
	case e3e_d_vnt: value_not_traced(e, d); break;
	case e3e_d_suppressed: single(e, 0x62, tc_etmv3_pkt_data_suppressed, "data-suppressed"); break;
	default: single(e, 0x50, tc_etmv3_pkt_store_failed, "store-failed"); break;
	}
}

void e3e_data(struct e3e *e, const struct e3e_dpkt *d)
{
	if (e->natoms == 0 || e->ndata == E3E_MAX_DATA) {
		begin(e);
		write_data(e, d);
		return;
	}
	e->data[e->ndata++] = *d;
	e->atoms[e->natoms - 1].ndata++;
}

/* ---- P-headers (§7.3.1, Tables 7-2 and 7-3; ETM3-P6) -------------------------------- */

/* How many of the waiting atoms from the first one P-header may hold: the
 * data packets of a data instruction follow the P-header of its atom and
 * come before the next data instruction's atom ("Normal data packets
 * correspond to the most recently-traced data instruction", §7.4.2). */
static int header_limit(const struct e3e *e)
{
	int seen = 0;
	for (int i = 0; i < e->natoms; i++)
		if (e->atoms[i].ndata && seen++)
			return i;
	return e->natoms;
}

/* E atoms at the start, at most max. */
static int leading_e(const struct e3e *e, int max)
{
	int n = 0;
	while (n < max && n < e->natoms && e->atoms[n].e)
		n++;
	return n;
}

static int atom_bit(const struct e3e *e, int i)
{
	return e->atoms[i].e ? 0 : 1;   /* format 2 and 4: 1 = N */
}

/* Format 1 taking k E atoms and, when they are all the leading E atoms and
 * an N follows, the N: returns the atoms taken. */
static int format1_atoms(struct e3e *e, int maxe, int limit, int *with_n)
{
	int lead = leading_e(e, maxe < limit ? maxe : limit), k = lead;
	if (lead > 1 && enc_chance(&e->rng, 30))
		k = 1 + (int)enc_below(&e->rng, (unsigned)lead);
	*with_n = k == lead && k < limit && k < e->natoms && !e->atoms[k].e && (k == 0 || enc_chance(&e->rng, 75));
	return k + *with_n;
}

/* Not cycle-accurate (Table 7-2): format 1 b1NEEEE00 (0-15 E then 0-1 N),
 * format 2 b1000FF10 (two atoms, bit 3 the first). Returns the atoms taken. */
static int plain_header(struct e3e *e, int limit, unsigned *h, const char **name)
{
	int with_n, n;
	if (limit >= 2 && enc_chance(&e->rng, 25)) {
		*h = 0x82 | (unsigned)atom_bit(e, 0) << 3 | (unsigned)atom_bit(e, 1) << 2;
		*name = "f2";
		return 2;
	}
	n = format1_atoms(e, 15, limit, &with_n);
	*h = 0x80 | (unsigned)with_n << 6 | (unsigned)(n - with_n) << 2;
	*name = "f1";
	return n;
}

/* Cycle-accurate (Table 7-3): format 1 b1N0EEE00 (0-7 × WE, 0-1 × WN),
 * format 2 b1000FF10 (W and two atoms), format 3 b1E1WWW00 (1-8 W, then an
 * E), format 4 b10010F10 (one atom without W, ETMv3.3). */
static int ca_header(struct e3e *e, int limit, unsigned *h, const char **name)
{
	unsigned r = enc_below(&e->rng, 100);
	int with_n, n;
	if (r < 15 && e->cfg.version >= 3) {
		*h = 0x92 | (unsigned)atom_bit(e, 0) << 2;
		*name = "ca-f4";
		return 1;
	}
	if (r < 40 && limit >= 2) {
		*h = 0x82 | (unsigned)atom_bit(e, 0) << 3 | (unsigned)atom_bit(e, 1) << 2;
		*name = "ca-f2";
		return 2;
	}
	if (r < 60 && e->atoms[0].e) {
		*h = 0xe0 | enc_below(&e->rng, 8) << 2;
		*name = "ca-f3";
		return 1;
	}
	n = format1_atoms(e, 7, limit, &with_n);
	*h = 0x80 | (unsigned)with_n << 6 | (unsigned)(n - with_n) << 2;
	*name = "ca-f1";
	return n;
}

static void record_atoms(struct tc_etmv3_packet *p, const char *pattern)
{
	for (int i = 0; pattern[i]; i++) {
		if (pattern[i] == 'W')
			p->waits |= UINT32_C(1) << p->natoms;
		else if (pattern[i] == 'E')
			p->atoms |= UINT32_C(1) << p->natoms;
		p->natoms++;
	}
}

/* The atoms a header holds, oldest first, as Tables 7-2 and 7-3 give them
 * (W for cycle boundaries): the encoder's own expansion of what it wrote. */
void e3e_header_pattern(const struct e3e *e, unsigned h, char *out)
{
	int n = 0;
	if (!e->cfg.cycle_accurate && (h & 3) == 0) {
		for (unsigned i = 0; i < ((h >> 2) & 0xf); i++)
			out[n++] = 'E';
		if (h & 0x40)
			out[n++] = 'N';
	} else if ((h & 0xf3) == 0x82) {
		if (e->cfg.cycle_accurate)
			out[n++] = 'W';
		out[n++] = h & 0x08 ? 'N' : 'E';
		out[n++] = h & 0x04 ? 'N' : 'E';
	} else if ((h & 0xfb) == 0x92) {
		out[n++] = h & 0x04 ? 'N' : 'E';
	} else if (h == 0x80) {
		out[n++] = 'W';
	} else if ((h & 0xa3) == 0xa0) {
		for (unsigned i = 0; i <= ((h >> 2) & 7); i++)
			out[n++] = 'W';
		if (h & 0x40)
			out[n++] = 'E';
	} else {
		for (unsigned i = 0; i < ((h >> 2) & 7); i++) {
			out[n++] = 'W';
			out[n++] = 'E';
		}
		if (h & 0x40) {
			out[n++] = 'W';
			out[n++] = 'N';
		}
	}
	out[n] = '\0';
}

/* A P-header h (its atoms: e3e_header_pattern). */
uint64_t e3e_put_pheader(struct e3e *e, unsigned h)
{
	uint64_t off = e->trace.len;
	put1(e, h);
	return off;
}

/* Writes one P-header and returns its offset and pattern. */
static uint64_t write_header(struct e3e *e, unsigned h, const char *name)
{
	uint64_t off = e->trace.len;
	struct tc_etmv3_packet p;
	char pattern[24];
	e3e_put_pheader(e, h);
	pkt_init(&p, tc_etmv3_pkt_atom, off, h);
	e3e_header_pattern(e, h, pattern);
	record_atoms(&p, pattern);
	l1(e, &p);
	e3e_hit(e, "pheader-%s-%s", name, pattern[0] ? pattern : "none");
	return off;
}

/* A P-header of W atoms only: format 0 (ETMv3.0) or format 3 without its E. */
static void waits_header(struct e3e *e)
{
	if (e->cfg.version == 0 && enc_chance(&e->rng, 40))
		write_header(e, 0x80, "ca-f0");
	else
		write_header(e, 0xa0 | enc_below(&e->rng, 8) << 2, "ca-f3");
}

void e3e_waits(struct e3e *e)
{
	if (!e->cfg.cycle_accurate || !e->itrace)
		return;
	begin(e);
	waits_header(e);
}

/* Writes the first n waiting atoms' header h, their L3, then their data. */
static void take_atoms(struct e3e *e, unsigned h, const char *name, int n)
{
	uint64_t off = write_header(e, h, name);
	int nd = 0, with_data = -1;
	for (int i = 0; i < n; i++) {
		if (e->atoms[i].kind == e3e_atom_insn)
			e3e_l3_insn(e, off, &e->atoms[i]);
		if (e->seq_off && e->atoms[i].seq)
			e->seq_off[e->atoms[i].seq - 1] = off;
		else if (e->atoms[i].kind == e3e_atom_bytecode)
			e3e_l3_forget_last(e);   /* the most recently traced instruction is a bytecode */
		if (e->atoms[i].ndata)
			with_data = i;
		nd += e->atoms[i].ndata;
	}
	if (with_data >= 0)
		e3e_hit(e, with_data < n - 1 ? "data-after-atoms" : "data-after-header");
	memmove(e->atoms, e->atoms + n, (size_t)(e->natoms - n) * sizeof e->atoms[0]);
	e->natoms -= n;
	for (int i = 0; i < nd; i++)
		write_data(e, &e->data[i]);
	memmove(e->data, e->data + nd, (size_t)(e->ndata - nd) * sizeof e->data[0]);
	e->ndata -= nd;
}

void e3e_flush_atoms(struct e3e *e)
{
	while (e->natoms > 0) {
		unsigned h;
		const char *name;
		int n, limit = header_limit(e);
		if (e->cfg.cycle_accurate && enc_chance(&e->rng, 8))
			waits_header(e);
		if (!e->cfg.cycle_accurate && enc_chance(&e->rng, 2))
			write_header(e, 0x80, "f1");   /* no atom: "Any P-headers that unpack to the correct set" */
		n = e->cfg.cycle_accurate ? ca_header(e, limit, &h, &name) : plain_header(e, limit, &h, &name);
		take_atoms(e, h, name, n);
	}
}

/* No E or N atom comes between a taken indirect branch and its branch
 * address packet: "a Branch address packet must be output" (§7.3.5), and
 * such an atom is the decoder's no-address error (ETM3-P27), which the
 * encoder never writes. One would be a defect of the model: reported at
 * once. */
static void check_branch_owed(struct e3e *e, const struct e3e_atom *a)
{
	if (e->branch_owed) {
		fprintf(stderr, "tracecert encoder: etmv3: an atom after the taken indirect branch at 0x%x before its "
			"branch address packet (ETM3-P27)\n", (unsigned)e->branch_owed_at);
		abort();
	}
	if (a->kind == e3e_atom_insn && a->type == tc_insn_branch_indir && a->e) {
		e->branch_owed = 1;
		e->branch_owed_at = a->addr;
	}
}

void e3e_atom(struct e3e *e, const struct e3e_atom *a)
{
	check_branch_owed(e, a);
	if (e->natoms == E3E_MAX_ATOMS)
		e3e_flush_atoms(e);
	e->atoms[e->natoms] = *a;
	e->atoms[e->natoms].ndata = 0;
	e->natoms++;
	if (e->natoms >= 32 || enc_chance(&e->rng, 4))
		e3e_flush_atoms(e);
}
