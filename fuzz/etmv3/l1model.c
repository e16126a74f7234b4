/* SPDX-License-Identifier: BSD-3-Clause */
/* l1model.c — the ETMv3 L1 stream as IHI 0014 chapter 7, reference/etmv3/FORMAT.md and ERRATA.md describe it, independently of reference/etmv3/ (fuzz/etmv3/parse.c compares the decoder with it).
 *
 * Framing rules (FORMAT.md "Error classes", ERRATA ETM3-P2, P5, P22):
 *  - bytes before the first A-sync are skipped; an A-sync is five or more
 *    0x00 (the header included) then 0x80, reported at its first zero;
 *  - in sync, packets follow one another; an error is reported at the first
 *    byte of the offending packet, and the search for the next A-sync starts
 *    at the byte after it (also after a packet cut off by the end of the
 *    stream: the bytes after its header are searched too);
 *  - a header's own verdict comes before its payload: no packet in any
 *    version (reserved-header), then none in the configured version
 *    (not-in-version), then one the configured mode never produces
 *    (bad-mode; data-only mode, a Context ID without context ID bytes);
 *  - a packet's error is the first problem met reading its bytes in order:
 *    a reserved value (reserved-field, bad-async) as soon as the byte holding
 *    it is read, the end of the stream (truncated) as soon as a byte the
 *    packet needs is missing;
 *  - the state (the last broadcast address, its instruction set, NS and Hyp,
 *    the last data address and BE, the last timestamp) starts all zero and
 *    changes only with an accepted packet (ETM3-P5);
 *  - a packet's warnings (ETM3-R1) follow it in the order of their bytes,
 *    those of one byte in the order of FORMAT.md's "Warnings" rows.
 */
#include <stdlib.h>
#include <string.h>

#include "l1model.h"

/* ETM3-P5: what packets are resolved against. */
struct state {
	uint32_t address;        /* the last broadcast instruction address */
	int isa;
	int ns;
	int hyp;
	uint32_t data_address;   /* the last traced data address */
	int be;                  /* BE of the last five-byte data address */
	uint64_t timestamp;
};

#define MODEL_WARNINGS 16

/* Reading one packet: the bytes, the packet's record and its warnings. */
struct reader {
	const struct tc_etmv3_config *cfg;
	const uint8_t *t;
	size_t len;
	size_t pos;
	struct tc_etmv3_packet pkt;
	uint8_t wclass[MODEL_WARNINGS];
	uint8_t wfield[MODEL_WARNINGS];
	uint8_t wbits[MODEL_WARNINGS];
	int nwarn;
};

enum { m_ok = 0, m_truncated = -1000 };   /* else minus the error class */

static int get(struct reader *r, uint8_t *b)
{
	if (r->pos >= r->len)
		return 0;
	*b = r->t[r->pos++];
	return 1;
}

static void add_warning(struct reader *r, int cls, int field, unsigned bits)
{
	if (r->nwarn < MODEL_WARNINGS) {
		r->wclass[r->nwarn] = (uint8_t)cls;
		r->wfield[r->nwarn] = (uint8_t)field;
		r->wbits[r->nwarn] = (uint8_t)bits;
		r->nwarn++;
	}
}

/* Unassigned bits found set: res0, the bits as found. */
static void warn_res0(struct reader *r, int field, unsigned bits)
{
	if (bits)
		add_warning(r, tc_etmv3_warn_res0, field, bits);
}

/* A bit a layout fixes to a constant, found different: ignored-field. */
static void warn_fixed(struct reader *r, int field, unsigned bits)
{
	add_warning(r, tc_etmv3_warn_ignored_field, field, bits);
}

/* ---- Cycle count (ETM3-P7): bytes 1-4 seven bits and bit 7 = another
 * byte follows; byte 5 count[31:28] in bits 3:0, always the last. ------------ */

static int cycle_count(struct reader *r, uint32_t *cc)
{
	uint32_t v = 0;
	for (int i = 0; i < 5; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		if (i == 4) {
			warn_res0(r, tc_etmv3_wf_cc_last, b & 0xf0);
			v |= (uint32_t)(b & 0x0f) << 28;
			break;
		}
		v |= (uint32_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	*cc = v;
	return m_ok;
}

/* contextid_size bytes, little endian (§7.3.6). */
static int context_id(struct reader *r, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < r->cfg->contextid_size; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		*v |= (uint32_t)b << (8 * i);
	}
	return m_ok;
}

/* ---- Instruction addresses (ETM3-P3, P4; Tables 7-6, 7-8, 7-11) ------------- */

struct addr {
	uint8_t b[5];
	int n;
};

/* Address bytes after b[0] while bit 7 says another follows; five at most. */
static int addr_bytes(struct reader *r, struct addr *a)
{
	a->n = 1;
	while (a->n < 5 && (a->b[a->n - 1] & 0x80)) {
		if (!get(r, &a->b[a->n]))
			return m_truncated;
		a->n++;
	}
	return m_ok;
}

/* A fifth byte 0X..... (Table 7-8), bits 5:3: 1xx Jazelle, 01x Thumb
 * (ThumbEE stays ThumbEE, ETM3-P4), 001 ARM, 000 reserved (-1). */
static int fifth_byte_isa(uint8_t b5, int last_isa)
{
	if (b5 & 0x20)
		return tc_etmv3_isa_jazelle;
	if (b5 & 0x10)
		return last_isa == tc_etmv3_isa_thumbee ? tc_etmv3_isa_thumbee : tc_etmv3_isa_thumb;
	if (b5 & 0x08)
		return tc_etmv3_isa_arm;
	return -1;
}

/* Table 7-11: with Thumb alignment AltISA chooses ThumbEE; with ARM or
 * Jazelle alignment AltISA = 1 is reserved (-1). */
static int with_altisa(int isa, int alt)
{
	if (isa == tc_etmv3_isa_thumb || isa == tc_etmv3_isa_thumbee)
		return alt ? tc_etmv3_isa_thumbee : tc_etmv3_isa_thumb;
	return alt ? -1 : isa;
}

/* Byte 1 A[5+s:s] (6 bits), bytes 2-4 7 bits each (6 for the last byte of a
 * shorter section in the alternative scheme), byte 5 the bits up to A[31];
 * s = 2 ARM, 1 Thumb and ThumbEE, 0 Jazelle. The bits replace the low bits
 * of the last address; the bits below the alignment are 0. */
static uint32_t address_of(const struct addr *a, int isa, uint32_t last, int alt)
{
	int s = isa == tc_etmv3_isa_arm ? 2 : isa == tc_etmv3_isa_jazelle ? 0 : 1;
	uint64_t v = (a->b[0] >> 1) & 0x3f, mask;
	int top = s + 6;   /* bits given, from bit 0 */
	for (int i = 1; i < a->n; i++) {
		int w = i == 4 ? 32 - top : (alt && i == a->n - 1) ? 6 : 7;
		v |= (uint64_t)(a->b[i] & ((1u << w) - 1)) << (top - s);
		top += w;
	}
	if (top >= 32)
		return (uint32_t)(v << s);
	mask = (UINT64_C(1) << top) - 1;
	return (uint32_t)((last & ~mask) | ((v << s) & mask));
}

/* What Exception information bytes 0-2 say (Table 7-10, Figure 7-25). */
struct exc {
	uint16_t exception;
	int cancel;
	int resume;
	int ns;
	int has_hyp;
	int hyp;
	int lsip;   /* of an LSiP current address: each byte's Exception, Can or Resume bits are ignored (lsip-exc) */
};

/* Byte 1 (`C 0 H Exception[8:4]`, bit 5 Hyp from ETMv3.5, ETM3-X3; bits 4:0
 * only on ARMv7-M, ETM3-P26); returns 1 when byte 2 follows. */
static int exception_byte1(struct reader *r, uint8_t b, struct exc *e)
{
	const struct tc_etmv3_config *c = r->cfg;
	unsigned unassigned = (c->version < 5 ? 0x20u : 0) | (c->profile_m ? 0 : 0x1fu);
	warn_res0(r, tc_etmv3_wf_exc1, b & unassigned);
	if (c->version >= 5) {
		e->has_hyp = 1;
		e->hyp = (b >> 5) & 1;
	}
	if (c->profile_m)
		e->exception |= (uint16_t)((b & 0x1f) << 4);
	if (e->lsip && c->profile_m && (b & 0x1f))
		warn_fixed(r, tc_etmv3_wf_lsip_exc, b & 0x1f);
	return (b >> 7) & 1;
}

/* Byte 2 (`0 1 SBZ SBZ Resume[3:0]`). */
static void exception_byte2(struct reader *r, uint8_t b, struct exc *e)
{
	warn_res0(r, tc_etmv3_wf_exc2, b & 0x30);
	if (b & 0x80)
		warn_fixed(r, tc_etmv3_wf_exc2_last, 0x80);
	e->resume = b & 0x0f;
	if (e->lsip && e->resume)
		warn_fixed(r, tc_etmv3_wf_lsip_exc, (unsigned)e->resume);
}

/* The Exception information bytes of a branch packet (or of an LSiP
 * current address, lsip = 1: only NS and AltISA are meant there, ETM3-P9:
 * every other field of its bytes is ignored, lsip-exc after the byte's own
 * warnings).
 * Byte 0 `Con AltISA Can Exception[3:0] NS`: Con reserved before ETMv3.4,
 * AltISA before ETMv3.3 (exc0). Con announces byte 1 or, with bit 6 set,
 * byte 2 (the note after Figure 7-25); byte 1's C announces byte 2, whose
 * bit 6 is a fixed 1 then (exc2-id). *isa is the alignment's, then AltISA's. */
static int exception_bytes(struct reader *r, int *isa, struct exc *e, int lsip)
{
	const struct tc_etmv3_config *c = r->cfg;
	unsigned unassigned = (c->version < 4 ? 0x80u : 0) | (c->version < 3 ? 0x40u : 0);
	uint8_t b0, b;
	memset(e, 0, sizeof *e);
	e->lsip = lsip;
	if (!get(r, &b0))
		return m_truncated;
	warn_res0(r, tc_etmv3_wf_exc0, b0 & unassigned);
	b0 &= (uint8_t)~unassigned;
	if ((*isa = with_altisa(*isa, (b0 >> 6) & 1)) < 0)
		return -tc_etmv3_err_reserved_field;
	if (lsip && (b0 & 0x3e))
		warn_fixed(r, tc_etmv3_wf_lsip_exc, b0 & 0x3e);
	e->cancel = (b0 >> 5) & 1;
	e->exception = (b0 >> 1) & 0x0f;
	e->ns = b0 & 1;
	if (!(b0 & 0x80))
		return m_ok;
	if (!get(r, &b))
		return m_truncated;
	if (!(b & 0x40)) {
		if (!exception_byte1(r, b, e))
			return m_ok;
		if (!get(r, &b))
			return m_truncated;
		if (!(b & 0x40))
			warn_fixed(r, tc_etmv3_wf_exc2_id, 0);
	}
	exception_byte2(r, b, e);
	return m_ok;
}

/* The exception-information flag of an address section: a fifth byte's bit
 * 6, or in the alternative scheme the last byte's of a section of 2-4 bytes
 * (Table 7-6); a one-byte section has none (ETM3-S4). */
static int section_has_info(const struct addr *a, int alt)
{
	if (a->n == 5)
		return (a->b[4] >> 6) & 1;
	return alt && a->n > 1 ? (a->b[a->n - 1] >> 6) & 1 : 0;
}

/* ---- Packets (Table 7-1) ------------------------------------------------------------ */

/* Branch address packet (§7.3.5, ETM3-P3, P4, P15, X3). */
static int branch(struct reader *r, struct state *st, uint8_t h)
{
	struct addr a;
	struct exc e;
	int isa = st->isa, alt = r->cfg->alt_branch, rc;
	a.b[0] = h;
	if ((rc = addr_bytes(r, &a)) != m_ok)
		return rc;
	if (a.n == 5 && (a.b[4] & 0x80)) {   /* b1CEEExxx: the deprecated ARM exception form, Table 7-9 */
		int eee = (a.b[4] >> 3) & 7;
		if (eee == 2 || eee == 3)
			return -tc_etmv3_err_reserved_field;
		isa = tc_etmv3_isa_arm;
		r->pkt.exc_form = tc_etmv3_exc_byte5;
		r->pkt.exception = (uint16_t)eee;
		r->pkt.cancel = (a.b[4] >> 6) & 1;
	} else if (a.n == 5 && (isa = fifth_byte_isa(a.b[4], st->isa)) < 0) {
		return -tc_etmv3_err_reserved_field;
	}
	if (r->pkt.exc_form == tc_etmv3_exc_none && section_has_info(&a, alt)) {
		if ((rc = exception_bytes(r, &isa, &e, 0)) != m_ok)
			return rc;
		r->pkt.exc_form = tc_etmv3_exc_bytes;
		r->pkt.exception = e.exception;
		r->pkt.cancel = (uint8_t)e.cancel;
		r->pkt.resume = (uint8_t)e.resume;
		st->ns = e.ns;
		if (e.has_hyp)
			st->hyp = e.hyp;
	}
	st->address = address_of(&a, isa, st->address, alt);
	st->isa = isa;
	r->pkt.h.kind = tc_etmv3_pkt_branch;
	r->pkt.address = st->address;
	r->pkt.isa = (uint8_t)isa;
	r->pkt.ns = (uint8_t)st->ns;
	r->pkt.hyp = (uint8_t)st->hyp;
	return m_ok;
}

/* The current address of an LSiP I-sync (ETM3-P9): a branch address section
 * against the data instruction, its first byte a branch header (bit 0 a
 * fixed 1), no deprecated exception form; an Exception information byte it
 * announces gives NS and AltISA. */
static int lsip_current(struct reader *r, struct state *st)
{
	struct addr a;
	struct exc e;
	int isa = st->isa, alt = r->cfg->alt_branch, rc;
	if (!get(r, &a.b[0]))
		return m_truncated;
	if (!(a.b[0] & 1))
		warn_fixed(r, tc_etmv3_wf_lsip_first, 0);
	if ((rc = addr_bytes(r, &a)) != m_ok)
		return rc;
	if (a.n == 5 && ((a.b[4] & 0x80) || (isa = fifth_byte_isa(a.b[4], st->isa)) < 0))
		return -tc_etmv3_err_reserved_field;
	if (section_has_info(&a, alt)) {
		if ((rc = exception_bytes(r, &isa, &e, 1)) != m_ok)
			return rc;
		st->ns = e.ns;
		if (e.has_hyp)
			st->hyp = e.hyp;
	}
	st->address = address_of(&a, isa, st->address, alt);
	st->isa = isa;
	return m_ok;
}

/* The I-sync's instruction set (Table 7-22, ETM3-S10) from J, AltISA and
 * the T bit (address bit 0); -1 reserved. */
static int isync_isa(int j, int alt, int t)
{
	if (j)
		return alt ? -1 : tc_etmv3_isa_jazelle;
	if (!t)
		return alt ? -1 : tc_etmv3_isa_arm;
	return alt ? tc_etmv3_isa_thumbee : tc_etmv3_isa_thumb;
}

/* The information byte (ETM3-P8, S9, X2): bit 7 LSiP, 6:5 reason, 4 J,
 * 3 NS, 2 AltISA (ETMv3.3), 1 Hyp (ETMv3.5), 0 a fixed 1; in data-only mode
 * only the reason and NS. Returns the byte with the unassigned bits clear. */
static uint8_t isync_info(struct reader *r, uint8_t info)
{
	const struct tc_etmv3_config *c = r->cfg;
	unsigned unassigned = c->data_only ? 0x96u : (c->version < 3 ? 0x04u : 0) | (c->version < 5 ? 0x02u : 0);
	warn_res0(r, tc_etmv3_wf_isync_info, info & unassigned);
	if (!(info & 1))
		warn_fixed(r, tc_etmv3_wf_isync_info0, 0);
	return (uint8_t)((info & ~unassigned) | 1);
}

/* The instruction address (4 bytes, little endian) and an LSiP current address. */
static int isync_address(struct reader *r, struct state *st, uint8_t info)
{
	int j = (info >> 4) & 1, alt = (info >> 2) & 1, isa = 0, rc;
	uint32_t address = 0;
	if (j && alt)
		return -tc_etmv3_err_reserved_field;
	for (int i = 0; i < 4; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		if (i == 0 && (isa = isync_isa(j, alt, b & 1)) < 0)
			return -tc_etmv3_err_reserved_field;
		address |= (uint32_t)b << (8 * i);
	}
	st->address = isa == tc_etmv3_isa_jazelle ? address : address & ~UINT32_C(1);
	st->isa = isa;
	r->pkt.has_address = 1;
	if (!(info & 0x80))
		return m_ok;
	r->pkt.lsip = 1;
	r->pkt.data_insn = st->address;
	r->pkt.data_isa = (uint8_t)isa;
	r->pkt.data_ns = (uint8_t)st->ns;
	r->pkt.data_hyp = (uint8_t)st->hyp;
	if ((rc = lsip_current(r, st)) != m_ok)
		return rc;
	return m_ok;
}

/* I-sync 08 and I-sync with cycle count 70 (§7.7.3, ETM3-P8): header;
 * [70: the cycle count]; the context ID; the information byte; unless
 * data-only, the instruction address and an LSiP current address. */
static int isync(struct reader *r, struct state *st, uint8_t h)
{
	uint8_t info;
	uint32_t v;
	int rc;
	if (h == 0x70) {
		if ((rc = cycle_count(r, &v)) != m_ok)
			return rc;
		r->pkt.has_cc = 1;
		r->pkt.cc = v;
	}
	if ((rc = context_id(r, &v)) != m_ok)
		return rc;
	r->pkt.has_ctxid = r->cfg->contextid_size > 0;
	r->pkt.context_id = v;
	if (!get(r, &info))
		return m_truncated;
	info = isync_info(r, info);
	r->pkt.reason = (info >> 5) & 3;
	st->ns = (info >> 3) & 1;
	st->hyp = (info >> 1) & 1;
	if (!r->cfg->data_only && (rc = isync_address(r, st, info)) != m_ok)
		return rc;
	r->pkt.h.kind = tc_etmv3_pkt_isync;
	r->pkt.address = r->pkt.has_address ? st->address : 0;
	r->pkt.isa = r->pkt.has_address ? (uint8_t)st->isa : 0;
	r->pkt.ns = (uint8_t)st->ns;
	r->pkt.hyp = (uint8_t)st->hyp;
	return m_ok;
}

/* ---- P-headers (Tables 7-2, 7-3; ETM3-P6, S2) ---------------------------------------- */

/* The format of a P-header: non-cycle-accurate 1 (b1NEEEE00), 2
 * (b1000FF10); cycle-accurate 0 (b10000000), 1 (b1N0EEE00 but 0x80), 2
 * (b1000FF10), 3 (b1E1WWW00), 4 (b10010F10); -1 reserved. */
static int pheader_format(const struct tc_etmv3_config *c, uint8_t h)
{
	if ((h & 0xf3) == 0x82)
		return 2;
	if (!c->cycle_accurate)
		return (h & 0x83) == 0x80 ? 1 : -1;
	if (h == 0x80)
		return 0;
	if ((h & 0xa3) == 0x80)
		return 1;
	if ((h & 0xa3) == 0xa0)
		return 3;
	if ((h & 0xfb) == 0x92)
		return 4;
	return -1;
}

static void put_atom(struct tc_etmv3_packet *p, int sym)   /* 'W', 'E', 'N' */
{
	if (sym == 'W')
		p->waits |= UINT32_C(1) << p->natoms;
	if (sym == 'E')
		p->atoms |= UINT32_C(1) << p->natoms;
	p->natoms++;
}

/* The atoms, oldest first. */
static void pheader(struct reader *r, uint8_t h)
{
	struct tc_etmv3_packet *p = &r->pkt;
	int ca = r->cfg->cycle_accurate, n;
	p->h.kind = tc_etmv3_pkt_atom;
	switch (pheader_format(r->cfg, h)) {
	case 0:
		put_atom(p, 'W');
		break;
	case 1:
		n = ca ? (h >> 2) & 7 : (h >> 2) & 0x0f;
		for (int i = 0; i < n; i++) {
			if (ca)
				put_atom(p, 'W');
			put_atom(p, 'E');
		}
		if (h & 0x40) {
			if (ca)
				put_atom(p, 'W');
			put_atom(p, 'N');
		}
		break;
	case 2:
		if (ca)
			put_atom(p, 'W');
		put_atom(p, (h & 0x08) ? 'N' : 'E');
		put_atom(p, (h & 0x04) ? 'N' : 'E');
		break;
	case 3:
		n = ((h >> 2) & 7) + 1;   /* ETM3-S2 */
		for (int i = 0; i < n; i++)
			put_atom(p, 'W');
		if (h & 0x40)
			put_atom(p, 'E');
		break;
	default:   /* 4 */
		put_atom(p, (h & 0x04) ? 'N' : 'E');
		break;
	}
}

/* ---- Data (§7.4, ETM3-P10) ------------------------------------------------------------- */

/* A data address: bytes 1-4 A[6:0], A[13:7], A[20:14], A[27:21] with bit 7
 * more; byte 5 A[31:28] in bits 3:0 and BE in bit 4, the last. */
static int data_address(struct reader *r, struct state *st)
{
	uint32_t v = 0, mask = 0;
	for (int i = 0; i < 5; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		if (i == 4) {
			warn_res0(r, tc_etmv3_wf_daddr_last, b & 0xe0);
			v |= (uint32_t)(b & 0x0f) << 28;
			mask = UINT32_MAX;
			st->be = (b >> 4) & 1;
			break;
		}
		v |= (uint32_t)(b & 0x7f) << (7 * i);
		mask |= UINT32_C(0x7f) << (7 * i);
		if (!(b & 0x80))
			break;
	}
	st->data_address = (st->data_address & ~mask) | v;
	r->pkt.has_address = 1;
	r->pkt.data_address = st->data_address;
	r->pkt.be = (uint8_t)st->be;
	return m_ok;
}

/* A value of SS bytes (Table 7-19: 0, 1, 2, 4), little endian. */
static int data_value(struct reader *r, int ss)
{
	int n = ss == 3 ? 4 : ss;
	r->pkt.value = 0;
	for (int i = 0; i < n; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		r->pkt.value |= (uint32_t)b << (8 * i);
	}
	r->pkt.has_value = 1;
	r->pkt.size = (uint8_t)n;
	return m_ok;
}

/* Normal data b00A0SS10: an address with data_address and A, a value with
 * data_value; SS without data_value is ignored (data-size). */
static int normal_data(struct reader *r, struct state *st, uint8_t h)
{
	int ss = (h >> 2) & 3, rc;
	if (ss && !r->cfg->data_value)
		warn_fixed(r, tc_etmv3_wf_data_size, h & 0x0c);
	if (r->cfg->data_address && (h & 0x20) && (rc = data_address(r, st)) != m_ok)
		return rc;
	if (r->cfg->data_value && (rc = data_value(r, ss)) != m_ok)
		return rc;
	r->pkt.h.kind = tc_etmv3_pkt_data;
	return m_ok;
}

/* Out-of-order data b0TT0SS00: always its SS bytes. */
static int ooo_data(struct reader *r, uint8_t h)
{
	int rc = data_value(r, (h >> 2) & 3);
	r->pkt.h.kind = tc_etmv3_pkt_ooo_data;
	r->pkt.tag = (h >> 5) & 3;
	return rc;
}

/* Out-of-order placeholder b01A1TT00, Value not traced b011A1010: an
 * address with data_address and the A bit. */
static int with_address(struct reader *r, struct state *st, int a_bit, int kind)
{
	r->pkt.h.kind = (uint16_t)kind;
	if (r->cfg->data_address && a_bit)
		return data_address(r, st);
	return m_ok;
}

/* ---- ETMv3.5 (ETM3-X1) ---------------------------------------------------------------- */

static uint64_t gray_of(uint64_t v)
{
	return v ^ (v >> 1);
}

static uint64_t binary_of(uint64_t g)
{
	uint64_t v = 0;
	for (; g; g >>= 1)
		v ^= g;
	return v;
}

/* Timestamp 42/46: 7 bits a byte, bit 7 more; the seventh byte of a 48-bit
 * timestamp holds bits 47:42, the ninth of a 64-bit one 63:56; the bits
 * replace the low bits of the last value (of its Gray code with
 * ts_binary 0); R is header bit 2. */
static int timestamp(struct reader *r, struct state *st, uint8_t h)
{
	int last_byte = r->cfg->ts64 ? 9 : 7, width = r->cfg->ts64 ? 64 : 48, nbits = 0;
	uint64_t v = 0, mask, prev = r->cfg->ts_binary ? st->timestamp : gray_of(st->timestamp);
	for (int i = 1;; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		if (i == last_byte) {
			int w = width - nbits;
			unsigned keep = (1u << w) - 1;
			warn_res0(r, tc_etmv3_wf_ts_last, b & ~keep & 0xff);
			v |= (uint64_t)(b & keep) << nbits;
			nbits += w;
			break;
		}
		v |= (uint64_t)(b & 0x7f) << nbits;
		nbits += 7;
		if (!(b & 0x80))
			break;
	}
	mask = nbits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << nbits) - 1;
	prev = (prev & ~mask) | (v & mask);
	st->timestamp = r->cfg->ts_binary ? prev : binary_of(prev);
	r->pkt.h.kind = tc_etmv3_pkt_timestamp;
	r->pkt.ts = st->timestamp;
	r->pkt.ts_r = (h >> 2) & 1;
	return m_ok;
}

/* ---- Headers ----------------------------------------------------------------------------- */

/* An A-sync met in sync: the header and more zeros, five in all at least,
 * then 0x80; else bad-async (ETM3-P2). */
static int async_in_sync(struct reader *r)
{
	uint8_t b;
	size_t zeros = 1;
	for (;;) {
		if (!get(r, &b))
			return m_truncated;
		if (b != 0x00)
			break;
		zeros++;
	}
	if (b != 0x80 || zeros < 5)
		return -tc_etmv3_err_bad_async;
	r->pkt.h.kind = tc_etmv3_pkt_async;
	return m_ok;
}

/* Table 7-1's reserved rows and the reserved P-headers (Tables 7-2, 7-3). */
static int reserved_header(const struct tc_etmv3_config *c, uint8_t h)
{
	if (h & 1)
		return 0;
	if (h & 0x80)
		return pheader_format(c, h) < 0;
	return (h & 0xf3) == 0x10 || ((h & 0xf3) == 0x30 && h != 0x3c) || (h & 0xd3) == 0x12 ||
	       ((h & 0xe3) == 0x42 && h != 0x42 && h != 0x46) || h == 0x72;
}

/* A header the configured version lacks (FORMAT.md "not-in-version"). */
static int not_in_version(const struct tc_etmv3_config *c, uint8_t h)
{
	if (h == 0x3c || h == 0x42 || h == 0x46)
		return c->version < 5;
	if (h == 0x76 || h == 0x7e)
		return c->version < 4;
	if (c->cycle_accurate && h == 0x80)
		return c->version != 0;
	if (c->cycle_accurate && (h == 0x92 || h == 0x96))
		return c->version < 3;
	return 0;
}

/* A packet the configured mode never produces (§7.4.10, §7.3.6). */
static int bad_mode(const struct tc_etmv3_config *c, uint8_t h)
{
	if (h == 0x6e)
		return c->contextid_size == 0;
	if (!c->data_only)
		return 0;
	return (h & 1) || (h & 0x80) || h == 0x04 || h == 0x70 || h == 0x50 || h == 0x62 || h == 0x76 || h == 0x7e;
}

/* One packet after its header's verdict; the state changes in *st. */
static int packet(struct reader *r, struct state *st, uint8_t h)
{
	uint32_t v;
	uint8_t b;
	int rc;
	if (h & 1)
		return branch(r, st, h);
	if (h & 0x80) {
		pheader(r, h);
		return m_ok;
	}
	if ((h & 0x93) == 0x00 && (h & 0x60))
		return ooo_data(r, h);
	if ((h & 0xd3) == 0x50 && (h & 0x0c)) {
		r->pkt.tag = (h >> 2) & 3;
		return with_address(r, st, (h >> 5) & 1, tc_etmv3_pkt_placeholder);
	}
	if ((h & 0xd3) == 0x02)
		return normal_data(r, st, h);
	switch (h) {
	case 0x00: return async_in_sync(r);
	case 0x04:
		if ((rc = cycle_count(r, &v)) != m_ok)
			return rc;
		r->pkt.h.kind = tc_etmv3_pkt_cycle_count;
		r->pkt.cc = v;
		return m_ok;
	case 0x08:
	case 0x70: return isync(r, st, h);
	case 0x0c: r->pkt.h.kind = tc_etmv3_pkt_trigger; return m_ok;
	case 0x50: r->pkt.h.kind = tc_etmv3_pkt_store_failed; return m_ok;
	case 0x62: r->pkt.h.kind = tc_etmv3_pkt_data_suppressed; return m_ok;
	case 0x66: r->pkt.h.kind = tc_etmv3_pkt_ignore; return m_ok;
	case 0x6a:
	case 0x7a: return with_address(r, st, (h >> 4) & 1, tc_etmv3_pkt_value_not_traced);
	case 0x6e:
		if ((rc = context_id(r, &v)) != m_ok)
			return rc;
		r->pkt.h.kind = tc_etmv3_pkt_context_id;
		r->pkt.context_id = v;
		return m_ok;
	case 0x76: r->pkt.h.kind = tc_etmv3_pkt_exception_exit; return m_ok;
	case 0x7e: r->pkt.h.kind = tc_etmv3_pkt_exception_entry; return m_ok;
	case 0x3c:
		if (!get(r, &b))
			return m_truncated;
		r->pkt.h.kind = tc_etmv3_pkt_vmid;
		r->pkt.vmid = b;
		return m_ok;
	default: return timestamp(r, st, h);   /* 42, 46: every other header is refused before */
	}
}

/* The header's verdict, then the packet. */
static int header_then_packet(struct reader *r, struct state *st, uint8_t h)
{
	if (reserved_header(r->cfg, h))
		return -tc_etmv3_err_reserved_header;
	if (not_in_version(r->cfg, h))
		return -tc_etmv3_err_not_in_version;
	if (bad_mode(r->cfg, h))
		return -tc_etmv3_err_bad_mode;
	return packet(r, st, h);
}

/* ---- The stream ----------------------------------------------------------------------- */

static void push(struct etmv3_model *m, const struct tc_etmv3_packet *p)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct tc_etmv3_packet *q = realloc(m->item, cap * sizeof *q);
		if (!q)
			abort();
		m->item = q;
		m->cap = cap;
	}
	m->item[m->n++] = *p;
}

static void blank(struct tc_etmv3_packet *p, int kind, uint64_t offset, uint8_t header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_etmv3;
	p->h.kind = (uint16_t)kind;
	p->h.offset = offset;
	p->header = header;
}

/* The next A-sync from `from`: its first zero in *at and its length; 0 if none. */
static int find_async(const uint8_t *t, size_t len, size_t from, size_t *at, size_t *n)
{
	size_t run = 0;
	for (size_t i = from; i < len; i++) {
		if (t[i] == 0x00) {
			run++;
		} else if (t[i] == 0x80 && run >= 5) {
			*at = i - run;
			*n = run + 1;
			return 1;
		} else {
			run = 0;
		}
	}
	return 0;
}

/* One packet at pos in sync: pushes it and its warnings, or its error;
 * returns the position after it, or 0 for an error (then the caller
 * searches from pos + 1). */
static size_t one_packet(const struct tc_etmv3_config *cfg, const uint8_t *t, size_t len, size_t pos,
			 struct state *st, struct etmv3_model *m)
{
	struct reader r;
	struct state next = *st;
	int rc;
	memset(&r, 0, sizeof r);
	r.cfg = cfg;
	r.t = t;
	r.len = len;
	r.pos = pos + 1;
	blank(&r.pkt, tc_etmv3_pkt_error, pos, t[pos]);
	rc = header_then_packet(&r, &next, t[pos]);
	if (rc != m_ok) {
		struct tc_etmv3_packet e;
		blank(&e, tc_etmv3_pkt_error, pos, t[pos]);
		e.error = (uint8_t)(rc == m_truncated ? tc_etmv3_err_truncated : -rc);
		push(m, &e);
		return 0;
	}
	*st = next;
	push(m, &r.pkt);
	for (int i = 0; i < r.nwarn; i++) {
		struct tc_etmv3_packet w;
		blank(&w, tc_etmv3_pkt_warning, pos, t[pos]);
		w.warning = r.wclass[i];
		w.field = r.wfield[i];
		w.ts = r.wbits[i];
		push(m, &w);
	}
	return r.pos;
}

void etmv3_model_run(const struct tc_etmv3_config *cfg, const uint8_t *t, size_t len, struct etmv3_model *m)
{
	struct state st;
	size_t pos = 0;
	int in_sync = 0;
	memset(&st, 0, sizeof st);
	m->n = 0;
	m->skipped = 0;
	while (pos < len) {
		if (!in_sync) {
			struct tc_etmv3_packet a;
			size_t at, n;
			if (!find_async(t, len, pos, &at, &n))
				break;
			m->skipped += at - pos;
			blank(&a, tc_etmv3_pkt_async, at, 0x00);
			push(m, &a);
			pos = at + n;
			in_sync = 1;
		} else {
			size_t next = one_packet(cfg, t, len, pos, &st, m);
			in_sync = next != 0;
			pos = next ? next : pos + 1;
		}
	}
	if (!in_sync)
		m->skipped += len - pos;
}

static int same_data_address(const struct tc_etmv3_packet *a, const struct tc_etmv3_packet *b)
{
	return a->has_address == b->has_address && (!a->has_address || (a->data_address == b->data_address && a->be == b->be));
}

static int same_value(const struct tc_etmv3_packet *a, const struct tc_etmv3_packet *b)
{
	return a->has_value == b->has_value && (!a->has_value || (a->value == b->value && a->size == b->size));
}

static int same_isync(const struct tc_etmv3_packet *a, const struct tc_etmv3_packet *b)
{
	return a->has_address == b->has_address && (!a->has_address || (a->address == b->address && a->isa == b->isa)) &&
	       a->reason == b->reason && a->ns == b->ns && a->hyp == b->hyp && a->lsip == b->lsip &&
	       (!a->lsip || (a->data_insn == b->data_insn && a->data_isa == b->data_isa && a->data_ns == b->data_ns &&
			     a->data_hyp == b->data_hyp)) &&
	       a->has_cc == b->has_cc && (!a->has_cc || a->cc == b->cc) && a->has_ctxid == b->has_ctxid &&
	       (!a->has_ctxid || a->context_id == b->context_id);
}

static int same_branch(const struct tc_etmv3_packet *a, const struct tc_etmv3_packet *b)
{
	return a->address == b->address && a->isa == b->isa && a->ns == b->ns && a->hyp == b->hyp &&
	       a->exc_form == b->exc_form &&
	       (a->exc_form == tc_etmv3_exc_none ||
		(a->exception == b->exception && a->cancel == b->cancel &&
		 (a->exc_form != tc_etmv3_exc_bytes || a->resume == b->resume)));
}

int etmv3_model_same(const struct tc_etmv3_packet *a, const struct tc_etmv3_packet *b)
{
	if (a->h.kind != b->h.kind || a->h.offset != b->h.offset || a->header != b->header)
		return 0;
	switch (a->h.kind) {
	case tc_etmv3_pkt_error: return a->error == b->error;
	case tc_etmv3_pkt_warning: return a->warning == b->warning && a->field == b->field && a->ts == b->ts;
	case tc_etmv3_pkt_cycle_count: return a->cc == b->cc;
	case tc_etmv3_pkt_isync: return same_isync(a, b);
	case tc_etmv3_pkt_branch: return same_branch(a, b);
	case tc_etmv3_pkt_atom: return a->natoms == b->natoms && a->atoms == b->atoms && a->waits == b->waits;
	case tc_etmv3_pkt_data: return same_data_address(a, b) && same_value(a, b);
	case tc_etmv3_pkt_ooo_data: return a->tag == b->tag && same_value(a, b);
	case tc_etmv3_pkt_placeholder: return a->tag == b->tag && same_data_address(a, b);
	case tc_etmv3_pkt_value_not_traced: return same_data_address(a, b);
	case tc_etmv3_pkt_context_id: return a->context_id == b->context_id;
	case tc_etmv3_pkt_vmid: return a->vmid == b->vmid;
	case tc_etmv3_pkt_timestamp: return a->ts == b->ts && a->ts_r == b->ts_r;
	default: return 1;
	}
}

void etmv3_model_free(struct etmv3_model *m)
{
	free(m->item);
	m->item = NULL;
	m->n = m->cap = 0;
}
