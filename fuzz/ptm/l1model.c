/* SPDX-License-Identifier: BSD-3-Clause */
/* l1model.c — the PTM L1 stream as reference/ptm/FORMAT.md and ERRATA.md describe it, independently of reference/ptm/ (fuzz/ptm/parse.c compares the decoder with it).
 *
 * Framing rules (FORMAT.md "Error classes", ERRATA PTM-P5, P10):
 *  - bytes before the first A-sync are skipped; an A-sync is five or more
 *    0x00 then 0x80, reported at its first zero;
 *  - in sync, packets follow one another; an error is reported at the first
 *    byte of the offending packet, and the search for the next A-sync starts
 *    at the byte after it (also after a packet cut off by the end of the
 *    stream: the bytes after its header are searched too);
 *  - a packet's error is the first problem met reading its bytes in order:
 *    a reserved value (reserved-field, bad-async) as soon as the byte holding
 *    it is read, the end of the stream (truncated) as soon as a byte the
 *    packet needs is missing;
 *  - LastState (address, instruction set, NS, Hyp, context ID, timestamp)
 *    starts all zero and changes only with an accepted packet;
 *  - a packet's warnings (PTM-R1) follow it in the order of their bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "l1model.h"

/* LastState (PTM-P5). */
struct last {
	uint32_t address;
	uint32_t context_id;
	uint64_t timestamp;
	int isa;
	int ns;
	int hyp;
};

/* Reading one packet: the bytes, the packet's record and its warnings. */
struct reader {
	const struct tc_ptm_config *cfg;
	const uint8_t *t;
	size_t len;
	size_t pos;
	struct tc_ptm_packet pkt;
	uint8_t wclass[8];
	uint8_t wfield[8];
	uint8_t wbits[8];
	int nwarn;
};

enum { m_ok = 0, m_truncated = -1000 };   /* else -error */

static int get(struct reader *r, uint8_t *b)
{
	if (r->pos >= r->len)
		return 0;
	*b = r->t[r->pos++];
	return 1;
}

static void add_warning(struct reader *r, int cls, int field, unsigned bits)
{
	if (r->nwarn < 8) {
		r->wclass[r->nwarn] = (uint8_t)cls;
		r->wfield[r->nwarn] = (uint8_t)field;
		r->wbits[r->nwarn] = (uint8_t)bits;
		r->nwarn++;
	}
}

/* Unassigned bits found set: res0, the bits as found. */
static void warn(struct reader *r, int field, unsigned bits)
{
	if (bits)
		add_warning(r, tc_ptm_warn_res0, field, bits);
}

/* ---- Cycle count (PTM-P7): byte 1 bits 5:2 count[3:0], bit 6 more;
 * bytes 2-4 seven bits and bit 7 more; byte 5 count[31:25]. ---------------- */

static int cc_rest(struct reader *r, uint8_t first)
{
	uint32_t v = (first >> 2) & 0xf;
	int more = (first >> 6) & 1;
	for (int i = 1; more && i < 5; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		v |= (uint32_t)(b & 0x7f) << (4 + 7 * (i - 1));
		more = b >> 7;
		if (i == 4)
			warn(r, tc_ptm_wf_cc_last, b & 0x80);
	}
	r->pkt.cc = v;
	r->pkt.has_cc = 1;
	return m_ok;
}

/* A cycle count after a payload: its first byte's bits 7, 1, 0 are unassigned. */
static int cc_after_payload(struct reader *r)
{
	uint8_t first;
	if (!r->cfg->cycle_accurate)
		return m_ok;
	if (!get(r, &first))
		return m_truncated;
	warn(r, tc_ptm_wf_cc_first, first & 0x83);
	return cc_rest(r, first);
}

/* ---- Addresses (PTM-P3) ----------------------------------------------------------- */

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

/* A fifth byte's bits 5:3: 1xx Jazelle, 01x Thumb (ThumbEE stays ThumbEE,
 * PTM-P4), 001 ARM, 000 reserved. */
static int fifth_byte_isa(uint8_t b5, int last_isa)
{
	if (b5 & 0x20)
		return tc_ptm_isa_jazelle;
	if (b5 & 0x10)
		return last_isa == tc_ptm_isa_thumbee ? tc_ptm_isa_thumbee : tc_ptm_isa_thumb;
	if (b5 & 0x08)
		return tc_ptm_isa_arm;
	return -1;
}

/* AltISA: Thumb with it is ThumbEE, without it Thumb; with ARM or Jazelle
 * it is reserved (-1). */
static int with_altisa(int isa, int alt)
{
	if (isa == tc_ptm_isa_thumb || isa == tc_ptm_isa_thumbee)
		return alt ? tc_ptm_isa_thumbee : tc_ptm_isa_thumb;
	return alt ? -1 : isa;
}

/* Byte 1 A[5+s:s] (6 bits), bytes 2-4 7 bits each (6 for the last byte of
 * a shorter section), byte 5 the bits up to A[31]; s = 2 ARM, 1 Thumb and
 * ThumbEE, 0 Jazelle. The bits replace the low bits of the last address. */
static uint32_t address_of(const struct addr *a, int isa, uint32_t last)
{
	int s = isa == tc_ptm_isa_arm ? 2 : isa == tc_ptm_isa_jazelle ? 0 : 1;
	uint64_t v = (a->b[0] >> 1) & 0x3f, mask;
	int top = s + 6;   /* bits given, from bit 0 */
	for (int i = 1; i < a->n; i++) {
		int w = i == 4 ? 32 - top : i == a->n - 1 ? 6 : 7;
		v |= (uint64_t)(a->b[i] & ((1u << w) - 1)) << (top - s);
		top += w;
	}
	if (top >= 32)
		return (uint32_t)(v << s);
	mask = (UINT64_C(1) << top) - 1;
	return (uint32_t)((last & ~mask) | ((v << s) & mask));
}

/* ---- Packets (Table 4.1 and the ERRATA layouts) ----------------------------------- */

/* Branch address packet (§4.5.4, PTM-P3, P4). */
static int branch(struct reader *r, struct last *st, uint8_t h)
{
	struct addr a;
	int isa = st->isa, info = 0, rc;
	a.b[0] = h;
	if ((rc = addr_bytes(r, &a)) != m_ok)
		return rc;
	if (a.n == 5) {
		warn(r, tc_ptm_wf_addr5, a.b[4] & 0x80);
		if ((isa = fifth_byte_isa(a.b[4], st->isa)) < 0)
			return -tc_ptm_err_reserved_field;
		info = (a.b[4] >> 6) & 1;
	} else if (a.n > 1) {
		info = (a.b[a.n - 1] >> 6) & 1;
	}
	if (info) {
		uint8_t e0, e1 = 0;
		if (!get(r, &e0))
			return m_truncated;
		warn(r, tc_ptm_wf_exc0, e0 & 0x20);
		if ((isa = with_altisa(isa, (e0 >> 6) & 1)) < 0)
			return -tc_ptm_err_reserved_field;
		if ((e0 & 0x80) && !get(r, &e1))
			return m_truncated;
		warn(r, tc_ptm_wf_exc1, e1 & 0xc0);
		r->pkt.has_exception = 1;
		r->pkt.exception = (uint16_t)(((e0 >> 1) & 0xf) | (e1 & 0x1f) << 4);
		st->ns = e0 & 1;
		st->hyp = (e1 >> 5) & 1;   /* 0 when byte 1 is absent */
	}
	if ((rc = cc_after_payload(r)) != m_ok)
		return rc;
	st->address = address_of(&a, isa, st->address);
	st->isa = isa;
	r->pkt.h.kind = tc_ptm_pkt_branch;
	r->pkt.address = st->address;
	r->pkt.isa = (uint8_t)isa;
	r->pkt.ns = (uint8_t)st->ns;
	r->pkt.hyp = (uint8_t)st->hyp;
	return m_ok;
}

/* Waypoint update (PTM-S3, S4): an address section against LastState, an
 * information byte after a fifth byte with bit 6; LastState unchanged. The
 * first byte has the branch header's layout `C A A A A A A 1`: its bit 0 is
 * the constant 1, and a 0 there changes nothing but gives an ignored-field
 * warning with the bit as read, 0 (PTM-P25). */
static int waypoint(struct reader *r, const struct last *st)
{
	struct addr a;
	int isa = st->isa, rc;
	if (!get(r, &a.b[0]))
		return m_truncated;
	if ((a.b[0] & 0x01) == 0)
		add_warning(r, tc_ptm_warn_ignored_field, tc_ptm_wf_wpu_first, 0);
	if ((rc = addr_bytes(r, &a)) != m_ok)
		return rc;
	if (a.n == 5) {
		warn(r, tc_ptm_wf_addr5, a.b[4] & 0x80);
		if ((isa = fifth_byte_isa(a.b[4], st->isa)) < 0)
			return -tc_ptm_err_reserved_field;
		if (a.b[4] & 0x40) {
			uint8_t info;
			if (!get(r, &info))
				return m_truncated;
			warn(r, tc_ptm_wf_wp_info, info & 0xbf);
			if ((isa = with_altisa(isa, (info >> 6) & 1)) < 0)
				return -tc_ptm_err_reserved_field;
		}
	} else if (a.n > 1) {
		warn(r, tc_ptm_wf_addr_last, a.b[a.n - 1] & 0x40);
	}
	r->pkt.h.kind = tc_ptm_pkt_waypoint;
	r->pkt.address = address_of(&a, isa, st->address);
	r->pkt.isa = (uint8_t)isa;
	return m_ok;
}

/* contextid_size bytes, little endian. */
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

/* The I-sync's instruction set (IHI 0014 Table 7-22, PTM-P8); -1 reserved. */
static int isync_isa(uint8_t info, uint8_t a0)
{
	int j = (info >> 4) & 1, alt = (info >> 2) & 1;
	if (j)
		return alt ? -1 : tc_ptm_isa_jazelle;
	if (!(a0 & 1))
		return alt ? -1 : tc_ptm_isa_arm;
	return alt ? tc_ptm_isa_thumbee : tc_ptm_isa_thumb;
}

/* I-sync (PTM-P8): address bytes 0-3, information byte, cycle count
 * (cycle-accurate, reason not periodic), context ID. */
static int isync(struct reader *r, struct last *st)
{
	uint8_t a[4], info;
	uint32_t address = 0;
	int isa, rc;
	for (int i = 0; i < 4; i++) {
		if (!get(r, &a[i]))
			return m_truncated;
		address |= (uint32_t)a[i] << (8 * i);
	}
	if (!get(r, &info))
		return m_truncated;
	warn(r, tc_ptm_wf_isync_info, info & 0x80);
	if ((info & 0x01) == 0)   /* "always 1" (IHI 0014): not read, ignored-field, the bit as read (PTM-P8) */
		add_warning(r, tc_ptm_warn_ignored_field, tc_ptm_wf_isync_info0, 0);
	if ((isa = isync_isa(info, a[0])) < 0)
		return -tc_ptm_err_reserved_field;
	r->pkt.reason = (info >> 5) & 3;
	if (r->pkt.reason != 0 && (rc = cc_after_payload(r)) != m_ok)
		return rc;
	if (r->cfg->contextid_size > 0) {
		if ((rc = context_id(r, &st->context_id)) != m_ok)
			return rc;
		r->pkt.has_ctxid = 1;
		r->pkt.context_id = st->context_id;
	}
	st->address = isa == tc_ptm_isa_jazelle ? address : address & ~UINT32_C(1);
	st->isa = isa;
	st->ns = (info >> 3) & 1;
	st->hyp = (info >> 1) & 1;
	r->pkt.h.kind = tc_ptm_pkt_isync;
	r->pkt.address = st->address;
	r->pkt.isa = (uint8_t)isa;
	r->pkt.ns = (uint8_t)st->ns;
	r->pkt.hyp = (uint8_t)st->hyp;
	return m_ok;
}

/* Atom (PTM-P6): 1000 0xF0, 1000 1FF0, 1001 FFF0, 101F FFF0, 11FF FFF0, the
 * highest F the oldest, F = 0 an E atom; cycle-accurate: one atom in bit 1
 * and a cycle count whose first byte is the header. */
static int atom(struct reader *r, uint8_t h)
{
	int n;
	r->pkt.h.kind = tc_ptm_pkt_atom;
	if (r->cfg->cycle_accurate) {
		r->pkt.natoms = 1;
		r->pkt.atoms = (h & 2) ? 0 : 1;
		return cc_rest(r, h);
	}
	n = h >= 0xc0 ? 5 : h >= 0xa0 ? 4 : h >= 0x90 ? 3 : (h & 0x08) ? 2 : 1;
	if (n == 1)
		warn(r, tc_ptm_wf_atom, h & 0x04);
	r->pkt.natoms = (uint8_t)n;
	for (int i = 0; i < n; i++)
		if (!(h & (1u << (n - i))))
			r->pkt.atoms |= UINT32_C(1) << i;
	return m_ok;
}

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

/* Timestamp (PTM-P9): 7 bits a byte, bit 7 more; the seventh byte of a
 * 48-bit timestamp holds bits 47:42, the ninth of a 64-bit one 63:56; the
 * bits replace the low bits of the last value (of its Gray code with
 * ts_binary 0); then a cycle count. */
static int timestamp(struct reader *r, struct last *st)
{
	int last_byte = r->cfg->ts64 ? 9 : 7, width = r->cfg->ts64 ? 64 : 48, nbits = 0, rc;
	uint64_t v = 0, mask, prev = r->cfg->ts_binary ? st->timestamp : gray_of(st->timestamp);
	for (int i = 1;; i++) {
		uint8_t b;
		if (!get(r, &b))
			return m_truncated;
		if (i == last_byte) {
			int w = width - nbits;
			unsigned keep = (1u << w) - 1;
			warn(r, tc_ptm_wf_ts_last, b & ~keep & 0xff);
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
	if ((rc = cc_after_payload(r)) != m_ok)
		return rc;
	st->timestamp = r->cfg->ts_binary ? prev : binary_of(prev);
	r->pkt.h.kind = tc_ptm_pkt_timestamp;
	r->pkt.value = st->timestamp;
	return m_ok;
}

/* An A-sync met in sync: the header and more zeros, five in all at least,
 * then 0x80; else bad-async (PTM-P10). */
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
		return -tc_ptm_err_bad_async;
	r->pkt.h.kind = tc_ptm_pkt_async;
	return m_ok;
}

/* Table 4.1, one header; LastState changes in *st. */
static int packet(struct reader *r, struct last *st, uint8_t h)
{
	uint8_t b;
	if (h & 1)
		return branch(r, st, h);
	if (h & 0x80)
		return atom(r, h);
	switch (h) {
	case 0x00: return async_in_sync(r);
	case 0x08: return isync(r, st);
	case 0x0c: r->pkt.h.kind = tc_ptm_pkt_trigger; return m_ok;
	case 0x42: case 0x46: return timestamp(r, st);
	case 0x66: r->pkt.h.kind = tc_ptm_pkt_ignore; return m_ok;
	case 0x72: return waypoint(r, st);
	case 0x76: r->pkt.h.kind = tc_ptm_pkt_exception_return; return m_ok;
	case 0x6e:
		r->pkt.h.kind = tc_ptm_pkt_context_id;
		if (context_id(r, &st->context_id) != m_ok)
			return m_truncated;
		r->pkt.context_id = st->context_id;
		return m_ok;
	case 0x3c:   /* VMID: PFTv1.1 only (PTM-P2) */
		if (r->cfg->version < 1)
			return -tc_ptm_err_reserved_header;
		if (!get(r, &b))
			return m_truncated;
		r->pkt.h.kind = tc_ptm_pkt_vmid;
		r->pkt.vmid = b;
		return m_ok;
	default:
		return -tc_ptm_err_reserved_header;
	}
}

/* ---- The stream ----------------------------------------------------------------------- */

static void push(struct ptm_model *m, const struct tc_ptm_packet *p)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct tc_ptm_packet *q = realloc(m->item, cap * sizeof *q);
		if (!q)
			abort();
		m->item = q;
		m->cap = cap;
	}
	m->item[m->n++] = *p;
}

static void blank(struct tc_ptm_packet *p, int kind, uint64_t offset, uint8_t header)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_ptm;
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
static size_t one_packet(const struct tc_ptm_config *cfg, const uint8_t *t, size_t len, size_t pos,
			 struct last *st, struct ptm_model *m)
{
	struct reader r;
	struct last next = *st;
	int rc;
	memset(&r, 0, sizeof r);
	r.cfg = cfg;
	r.t = t;
	r.len = len;
	r.pos = pos + 1;
	blank(&r.pkt, tc_ptm_pkt_error, pos, t[pos]);
	rc = packet(&r, &next, t[pos]);
	if (rc != m_ok) {
		struct tc_ptm_packet e;
		blank(&e, tc_ptm_pkt_error, pos, t[pos]);
		e.error = (uint8_t)(rc == m_truncated ? tc_ptm_err_truncated : -rc);
		push(m, &e);
		return 0;
	}
	*st = next;
	push(m, &r.pkt);
	for (int i = 0; i < r.nwarn; i++) {
		struct tc_ptm_packet w;
		blank(&w, tc_ptm_pkt_warning, pos, t[pos]);
		w.warning = r.wclass[i];
		w.field = r.wfield[i];
		w.value = r.wbits[i];
		push(m, &w);
	}
	return r.pos;
}

void ptm_model_run(const struct tc_ptm_config *cfg, const uint8_t *t, size_t len, struct ptm_model *m)
{
	struct last st;
	size_t pos = 0;
	int in_sync = 0;
	memset(&st, 0, sizeof st);
	m->n = 0;
	m->skipped = 0;
	while (pos < len) {
		if (!in_sync) {
			struct tc_ptm_packet a;
			size_t at, n;
			if (!find_async(t, len, pos, &at, &n))
				break;
			m->skipped += at - pos;
			blank(&a, tc_ptm_pkt_async, at, 0x00);
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

int ptm_model_same(const struct tc_ptm_packet *a, const struct tc_ptm_packet *b)
{
	if (a->h.kind != b->h.kind || a->h.offset != b->h.offset || a->header != b->header)
		return 0;
	switch (a->h.kind) {
	case tc_ptm_pkt_error: return a->error == b->error;
	case tc_ptm_pkt_warning: return a->warning == b->warning && a->field == b->field && a->value == b->value;
	case tc_ptm_pkt_isync:
		return a->address == b->address && a->isa == b->isa && a->reason == b->reason && a->ns == b->ns &&
		       a->hyp == b->hyp && a->has_cc == b->has_cc && (!a->has_cc || a->cc == b->cc) &&
		       a->has_ctxid == b->has_ctxid && (!a->has_ctxid || a->context_id == b->context_id);
	case tc_ptm_pkt_atom:
		return a->natoms == b->natoms && a->atoms == b->atoms && a->has_cc == b->has_cc &&
		       (!a->has_cc || a->cc == b->cc);
	case tc_ptm_pkt_branch:
		return a->address == b->address && a->isa == b->isa && a->ns == b->ns && a->hyp == b->hyp &&
		       a->has_exception == b->has_exception && (!a->has_exception || a->exception == b->exception) &&
		       a->has_cc == b->has_cc && (!a->has_cc || a->cc == b->cc);
	case tc_ptm_pkt_waypoint: return a->address == b->address && a->isa == b->isa;
	case tc_ptm_pkt_context_id: return a->context_id == b->context_id;
	case tc_ptm_pkt_vmid: return a->vmid == b->vmid;
	case tc_ptm_pkt_timestamp:
		return a->value == b->value && a->has_cc == b->has_cc && (!a->has_cc || a->cc == b->cc);
	default: return 1;
	}
}

void ptm_model_free(struct ptm_model *m)
{
	free(m->item);
	m->item = NULL;
	m->n = m->cap = 0;
}
