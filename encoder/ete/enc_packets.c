/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_packets.c — the encoder's packet layer: writes ETE packets choosing at random among the valid
 * encodings of the same information, and records the expected L1 line of each. Its model of the
 * trace unit (address history, context, timestamp, speculation depth) is its own. */
#include <string.h>

#include "enc_internal.h"

/* ---- Bytes and L1 lines ---------------------------------------------------- */

static void put(struct enc *e, const uint8_t *b, size_t n)
{
	enc_buf_put(&e->trace, b, n);
}

static void put1(struct enc *e, unsigned byte)
{
	uint8_t b = (uint8_t)byte;
	put(e, &b, 1);
}

static void put_le(struct enc *e, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		put1(e, (unsigned)(v >> (8 * i)) & 0xff);
}

/* Pending atoms go out in atom packets before the next packet. */
static void flush_atoms(struct enc *e)
{
	if (e->npending)
		enc_flush_atoms(e);
}

/* Starts a packet: flushes pending atoms first, returns its offset. */
static uint64_t begin(struct enc *e, unsigned header)
{
	uint64_t off;
	flush_atoms(e);
	off = e->trace.len;
	put1(e, header);
	enc_hit(e, "hdr-%02x", header & 0xff);
	return off;
}

/* The expected L1 line of a packet, written from its record by the
 * protocol's L1 formatter; the record is kept too when asked. */
static void l1(struct enc *e, const struct tc_ete_packet *p)
{
	char buf[512];
	if (e->l1_record)
		e->l1_record(e->l1_ctx, p);
	tc_ete_format_packet(buf, sizeof buf, p);
	enc_buf_printf(&e->l1, "%s\n", buf);
	if (e->keep_packets)
		enc_buf_put(&e->packets, p, sizeof *p);
}

static void pkt_init(struct tc_ete_packet *p, uint64_t off, unsigned header, int kind)
{
	tc_ete_packet_init(p, kind, off);
	p->header = (uint8_t)header;
}

/* ---- Continuation encodings ------------------------------------------------- */

/* Bytes a ULEB128/bit-replacement field of n bits can take at most: 7-bit
 * groups while fewer than n-8 bits are filled, then one final byte. */
static int max_bytes(int n)
{
	int i = 0, k = 0;
	do {
		i += 7;
		k++;
	} while (i < n - 8);
	return k + 1;
}

/* Writes v (n-bit field) in k bytes (k between the minimum and max_bytes). */
static void put_cont(struct enc *e, uint64_t v, int n, int k)
{
	int maxb = max_bytes(n);
	for (int i = 0; i < k; i++) {
		uint64_t part = v >> (7 * i);
		if (i == k - 1)
			put1(e, i == maxb - 1 ? (unsigned)(part & 0xff) : (unsigned)(part & 0x7f));
		else
			put1(e, (unsigned)(part & 0x7f) | 0x80);
	}
}

static int min_bytes(uint64_t v, int n)
{
	int maxb = max_bytes(n);
	for (int k = 1; k < maxb; k++)
		if (v >> (7 * k) == 0)
			return k;
	return maxb;
}

int enc_cont_max_bytes(int n)
{
	return max_bytes(n);
}

int enc_cont_min_bytes(uint64_t v, int n)
{
	return min_bytes(v, n);
}

/* The length of a ULEB128 of an n-bit field, sometimes longer than needed (still valid). */
static int uleb_len(struct enc *e, uint64_t v, int n)
{
	int k = min_bytes(v, n), maxb = max_bytes(n);
	if (k < maxb && enc_chance(&e->rng, 15))
		k += 1 + (int)enc_below(&e->rng, (unsigned)(maxb - k));
	enc_hit(e, "uleb%d-len%d", n, k);
	return k;
}

/* ---- Speculation depth: the trace unit's count, with the implicit commit of
 * K10.5.2.18.3 when MAXSPEC is exceeded. ------------------------------------ */

static void spec_add(struct enc *e, int64_t n)
{
	e->depth += n;
	if (e->depth > (int64_t)e->cfg.maxspec) {
		e->depth = e->cfg.maxspec;
		enc_hit(e, "implicit-commit");
	}
}

/* ---- Address history ------------------------------------------------------------ */

static void ahb_add(struct enc *e, uint64_t address, int isa)
{
	e->ahb[2] = e->ahb[1];
	e->ahb[1] = e->ahb[0];
	e->ahb[0].address = address;
	e->ahb[0].isa = isa;
}


/* Picks a valid form for an address of sub-ISA isa against the history:
 * exact match, short (1 or 2 bytes of bit replacement), 32-bit or 64-bit. */
static int choose_form(struct enc *e, uint64_t a, int isa, int *q)
{
	int forms[8], n = 0, lo = isa ? 1 : 2;   /* IS0 fields start at bit 2, IS1 at bit 1 */
	uint64_t base = e->ahb[0].address;
	for (int i = 0; i < 3; i++) {
		if (e->ahb[i].address == a && e->ahb[i].isa == isa) {
			*q = i;
			forms[n++] = af_exact;
			break;
		}
	}
	if (a >> (lo + 7) == base >> (lo + 7))
		forms[n++] = af_short1;
	if (a >> (lo + 15) == base >> (lo + 15))
		forms[n++] = af_short2;
	if (a >> 32 == base >> 32)
		forms[n++] = af_long32;
	forms[n++] = af_long64;
	return forms[enc_below(&e->rng, (unsigned)n)];
}

/* The payload of an address in a given form (the header is the caller's). */
void enc_put_address_payload(struct enc *e, int form, uint64_t a, int isa)
{
	int lo = isa ? 1 : 2;
	switch (form) {
	case af_short1:
		put1(e, (unsigned)(a >> lo) & 0x7f);
		break;
	case af_short2:
		put1(e, ((unsigned)(a >> lo) & 0x7f) | 0x80);
		put1(e, (unsigned)(a >> (lo + 7)) & 0xff);
		break;
	case af_long32:
		put1(e, (unsigned)(a >> lo) & 0x7f);
		if (isa) {
			put_le(e, (a >> 8) & 0xffffff, 3);
		} else {
			put1(e, (unsigned)(a >> 9) & 0x7f);
			put_le(e, (a >> 16) & 0xffff, 2);
		}
		break;
	case af_long64:
		put1(e, (unsigned)(a >> lo) & 0x7f);
		if (isa) {
			put_le(e, a >> 8, 7);
		} else {
			put1(e, (unsigned)(a >> 9) & 0x7f);
			put_le(e, a >> 16, 6);
		}
		break;
	default:
		break;
	}
}

static const char *const form_names[] = { "exact", "short1", "short2", "long32", "long64" };

/* Header of a target-address packet (also an exception's address header). */
unsigned enc_address_header(int form, int q, int isa)
{
	static const unsigned hdr[2][5] = { { 0x90, 0x95, 0x95, 0x9a, 0x9d }, { 0x90, 0x96, 0x96, 0x9b, 0x9e } };
	return form == af_exact ? 0x90u + (unsigned)q : hdr[isa][form];
}

/* Updates the history for an address written in a form. */
void enc_address_history(struct enc *e, int form, int q, uint64_t a, int isa)
{
	if (form == af_exact) {
		struct enc_ahb x = e->ahb[q];
		ahb_add(e, x.address, x.isa);
	} else {
		ahb_add(e, a, isa);
	}
}


/* ---- Packets ------------------------------------------------------------------------ */

uint64_t enc_put_async(struct enc *e, int zeros)
{
	uint64_t off = begin(e, 0x00);
	for (int i = 0; i < zeros; i++)
		put1(e, 0);
	put1(e, 0x80);
	return off;
}

void enc_pkt_async(struct enc *e)
{
	struct tc_ete_packet p;
	int zeros;
	flush_atoms(e);   /* before the choices below: the random sequence of the vectors */
	zeros = 10 + (enc_chance(&e->rng, 10) ? (int)enc_below(&e->rng, 6) : 0);
	uint64_t off = enc_put_async(e, zeros);
	enc_hit(e, zeros > 10 ? "async-long" : "async");
	pkt_init(&p, off, 0x00, tc_ete_pkt_async);
	l1(e, &p);
}

/* Trace Info in the sections of t->plctl (TC-P3: INFO 0x01, SPEC 0x04, CYCT
 * 0x08, WNDW 0x10), each ULEB128 in its k bytes; resets the stage-1 view
 * (K10.5.2.6.2 TraceInfoPacket). */
uint64_t enc_put_trace_info(struct enc *e, const struct enc_trace_info *t)
{
	uint64_t off = begin(e, 0x01);
	put1(e, t->plctl);
	if (t->plctl & 0x01)
		put1(e, (t->cc ? 1u : 0) | (t->tx ? 0x40u : 0));
	if (t->plctl & 0x04)
		put_cont(e, t->spec, 32, t->spec_k);
	if (t->plctl & 0x08)
		put_cont(e, t->cct, 32, t->cct_k);
	if (t->plctl & 0x10)
		put_cont(e, t->wndw, 32, t->wndw_k);
	memset(e->ahb, 0, sizeof e->ahb);
	memset(&e->ctx, 0, sizeof e->ctx);
	e->timestamp = 0;
	e->cc_enabled = t->cc;
	e->cc_threshold = t->cc && (t->plctl & 0x08) ? t->cct : 0;
	e->depth = t->spec;
	e->T = t->tx;
	return off;
}

/* Trace Info: sections chosen at random among those that carry the values. */
void enc_pkt_trace_info(struct enc *e, int cc, uint32_t cct, uint32_t spec, int tx)
{
	struct tc_ete_packet p;
	struct enc_trace_info t = { 0, cc, tx, spec, cct, 0, 0, 0, 0 };
	int info, spec_s, cyct_s;
	uint64_t off;
	flush_atoms(e);   /* before the choices below: the random sequence of the vectors */
	info = cc || tx || enc_chance(&e->rng, 30);
	spec_s = spec || enc_chance(&e->rng, 20);
	cyct_s = cc && (cct || enc_chance(&e->rng, 50));
	t.plctl = (info ? 1u : 0) | (spec_s ? 4u : 0) | (cyct_s ? 8u : 0);
	if (spec_s)
		t.spec_k = uleb_len(e, spec, 32);
	if (cyct_s)
		t.cct_k = uleb_len(e, cct, 32);
	off = enc_put_trace_info(e, &t);
	enc_hit(e, "tinfo-plctl-%x", t.plctl);
	if (tx)
		enc_hit(e, "tinfo-tx");
	if (spec)
		enc_hit(e, "tinfo-spec-nonzero");
	pkt_init(&p, off, 0x01, tc_ete_pkt_trace_info);
	p.cc_enabled = (uint8_t)cc;
	p.cct = e->cc_threshold;
	p.spec = spec;
	p.in_tx = (uint8_t)tx;
	l1(e, &p);
}

/* A packet that is its header alone (Trace On, events, Ignore, transactions, TS marker, the
 * atom and the cancel formats whose header carries their fields). */
uint64_t enc_put_header(struct enc *e, unsigned header)
{
	return begin(e, header);
}

void enc_pkt_trace_on(struct enc *e)
{
	struct tc_ete_packet p;
	pkt_init(&p, enc_put_header(e, 0x04), 0x04, tc_ete_pkt_trace_on);
	l1(e, &p);
	e->since_p0 = 1;
}

/* The context payload byte (K10.5.2.14.9 ContextBytes: EL, SF, NS, NSE when
 * FEAT_RME, V, C) and the VMID and context ID sections v and cid ask for;
 * the context becomes the stage-1 view's. */
void enc_put_context_payload(struct enc *e, const struct tc_context *c, int v, int cid)
{
	put1(e, (unsigned)(c->el & 3) | (unsigned)c->sf << 4 | (unsigned)(c->nse & 1) << 3 | (unsigned)c->ns << 5 |
		    (unsigned)v << 6 | (unsigned)cid << 7);
	if (v)
		put_le(e, c->vmid, 4);
	if (cid)
		put_le(e, c->context_id, 4);
	e->ctx = *c;
}

/* The sections of a context payload, chosen at random among those that carry the values. */
static void context_sections(struct enc *e, const struct tc_context *c, int *v, int *cid)
{
	*v = c->vmid != e->ctx.vmid || enc_chance(&e->rng, 25);
	*cid = c->context_id != e->ctx.context_id || enc_chance(&e->rng, 25);
	enc_hit(e, "ctx-payload-v%d-c%d", *v, *cid);
}

/* Context: 0x80 (the context unchanged) when c is NULL, else 0x81 and the payload. */
uint64_t enc_put_context(struct enc *e, const struct tc_context *c, int v, int cid)
{
	uint64_t off = begin(e, c ? 0x81 : 0x80);
	if (c)
		enc_put_context_payload(e, c, v, cid);
	return off;
}

void enc_pkt_context(struct enc *e, const struct tc_context *c)
{
	struct tc_ete_packet p;
	int same = !memcmp(c, &e->ctx, sizeof *c);
	unsigned header = same && enc_chance(&e->rng, 60) ? 0x80 : 0x81;
	uint64_t off;
	int v = 0, cid = 0;
	flush_atoms(e);
	if (header == 0x81)
		context_sections(e, c, &v, &cid);
	off = enc_put_context(e, header == 0x81 ? c : NULL, v, cid);
	pkt_init(&p, off, header, tc_ete_pkt_context);
	p.ctx = e->ctx;
	l1(e, &p);
	e->since_p0 = 1;
}

/* A target address packet of a form (q: the exact match's entry). */
uint64_t enc_put_address(struct enc *e, int form, int q, uint64_t a, int isa)
{
	uint64_t off = begin(e, enc_address_header(form, q, isa));
	enc_put_address_payload(e, form, a, isa);
	enc_address_history(e, form, q, a, isa);
	return off;
}

void enc_pkt_address(struct enc *e, uint64_t a, int isa)
{
	struct tc_ete_packet p;
	int q = 0, form = choose_form(e, a, isa, &q);
	unsigned header = enc_address_header(form, q, isa);
	uint64_t off = enc_put_address(e, form, q, a, isa);
	if (form == af_exact)
		enc_hit(e, "addr-exact-%d", q);
	else
		enc_hit(e, "addr-%s-is%d", form_names[form], isa);
	pkt_init(&p, off, header, tc_ete_pkt_address);
	p.address = a;
	p.isa = (uint8_t)e->ahb[0].isa;
	p.has_address = 1;
	l1(e, &p);
}

/* Address with context: a 32-bit (long32) or 64-bit long address, then the context payload. */
uint64_t enc_put_addr_ctx(struct enc *e, int long32, uint64_t a, int isa, const struct tc_context *c, int v,
			  int cid)
{
	uint64_t off = begin(e, (long32 ? 0x82u : 0x85u) + (unsigned)isa);
	enc_put_address_payload(e, long32 ? af_long32 : af_long64, a, isa);
	ahb_add(e, a, isa);
	enc_put_context_payload(e, c, v, cid);
	return off;
}

void enc_pkt_addr_ctx(struct enc *e, uint64_t a, int isa, const struct tc_context *c)
{
	struct tc_ete_packet p;
	int long32 = a >> 32 == e->ahb[0].address >> 32 && enc_chance(&e->rng, 50), v, cid;
	unsigned header = (long32 ? 0x82u : 0x85u) + (unsigned)isa;
	uint64_t off;
	flush_atoms(e);
	context_sections(e, c, &v, &cid);
	off = enc_put_addr_ctx(e, long32, a, isa, c, v, cid);
	enc_hit(e, "addr-ctx-%s-is%d", long32 ? "long32" : "long64", isa);
	e->since_p0 = 1;
	pkt_init(&p, off, header, tc_ete_pkt_addr_ctx);
	p.address = a;
	p.isa = (uint8_t)isa;
	p.has_address = 1;
	p.ctx = e->ctx;
	l1(e, &p);
}

/* ---- Atoms -------------------------------------------------------------------------- */

/* Queues an atom; l3 is the range item the atom produces at L3 (its
 * offset is the atom packet's, set when packed), or NULL for an atom on a
 * wrong path. */
void enc_atom(struct enc *e, int taken, const struct tc_l3 *l3)
{
	if (e->npending == ENC_MAX_PENDING)
		enc_flush_atoms(e);
	e->pending[e->npending] = taken ? 'E' : 'N';
	if (l3)
		e->pending_l3[e->npending] = *l3;
	else
		memset(&e->pending_l3[e->npending], 0, sizeof e->pending_l3[0]);
	e->pending_tx[e->npending] = (char)e->in_tx;
	e->pending_mark_first[e->npending] = e->mark_first;
	e->pending_mark_count[e->npending] = e->mark_count;
	e->mark_count = 0;
	e->npending++;
	spec_add(e, 1);
	e->since_p0 = 0;
}

/* The L3 items of the first n pending atoms, now packed at offset off. */
static void atoms_truth(struct enc *e, int from, int n, uint64_t off)
{
	for (int i = from; i < from + n; i++) {
		for (size_t k = 0; e->marks && k < e->pending_mark_count[i]; k++)
			e->marks[e->pending_mark_first[i] + k] = off;
		if (!e->pending_l3[i].h.size)
			continue;
		e->pending_l3[i].h.offset = off;
		enc_l3_write(e, e->pending_tx[i], 0, &e->pending_l3[i]);
	}
}

static void drop_pending(struct enc *e, int n)
{
	memmove(e->pending, e->pending + n, (size_t)(e->npending - n));
	memmove(e->pending_l3, e->pending_l3 + n, (size_t)(e->npending - n) * sizeof e->pending_l3[0]);
	memmove(e->pending_tx, e->pending_tx + n, (size_t)(e->npending - n));
	memmove(e->pending_mark_first, e->pending_mark_first + n, (size_t)(e->npending - n) * sizeof(size_t));
	memmove(e->pending_mark_count, e->pending_mark_count + n, (size_t)(e->npending - n) * sizeof(size_t));
	e->npending -= n;
}

static int prefix_is(const struct enc *e, const char *s)
{
	size_t n = strlen(s);
	return (size_t)e->npending >= n && !memcmp(e->pending, s, n);
}

/* Longest F6 run at the front: COUNT+3 E atoms then E or N (4..24 atoms). */
static int f6_length(const struct enc *e)
{
	int run = 0;
	while (run < e->npending && run < 23 && e->pending[run] == 'E')
		run++;
	if (run < 3)
		return 0;
	return run < e->npending ? run + 1 : run;   /* the atom after the E run ends it */
}

/* Every format that encodes a prefix of the pending atoms (at most ENC_ATOM_CHOICES). */
int enc_atom_choices(const struct enc *e, struct enc_atom_choice *c)
{
	static const char *const f4[4] = { "NEEE", "NNNN", "NENE", "ENEN" };
	static const char *const f52[3] = { "NNNNN", "NENEN", "ENENE" };
	const char *a = e->pending;
	int k = 0, f6 = f6_length(e);
	c[k++] = (struct enc_atom_choice){ 0xf6u | (a[0] == 'E'), 1, "atom-f1" };
	if (e->npending >= 2)
		c[k++] = (struct enc_atom_choice){ 0xd8u | (a[0] == 'E') | (a[1] == 'E') << 1, 2, "atom-f2" };
	if (e->npending >= 3)
		c[k++] = (struct enc_atom_choice){ 0xf8u | (a[0] == 'E') | (a[1] == 'E') << 1 | (a[2] == 'E') << 2, 3, "atom-f3" };
	for (int i = 0; i < 4; i++)
		if (prefix_is(e, f4[i]))
			c[k++] = (struct enc_atom_choice){ 0xdcu + (unsigned)i, 4, "atom-f4" };
	if (prefix_is(e, "NEEEE"))
		c[k++] = (struct enc_atom_choice){ 0xf5, 5, "atom-f5-1" };
	for (int i = 0; i < 3; i++)
		if (prefix_is(e, f52[i]))
			c[k++] = (struct enc_atom_choice){ 0xd5u + (unsigned)i, 5, "atom-f5-2" };
	for (int len = 4; len <= f6; len++) {   /* f6 <= 24: COUNT = len - 4 <= 20 */
		int last_n = e->pending[len - 1] == 'N';
		c[k++] = (struct enc_atom_choice){ 0xc0u | (unsigned)last_n << 5 | (unsigned)(len - 4), len, "atom-f6" };
	}
	return k;
}

void enc_flush_atoms(struct enc *e)
{
	while (e->npending > 0) {
		struct enc_atom_choice c[ENC_ATOM_CHOICES];
		struct tc_ete_packet p;
		int k = enc_atom_choices(e, c), longest = 0;
		struct enc_atom_choice pick;
		for (int i = 1; i < k; i++)
			if (c[i].n > c[longest].n)
				longest = i;
		/* half the time the longest format: long runs get their own headers */
		pick = enc_chance(&e->rng, 50) ? c[longest] : c[enc_below(&e->rng, (unsigned)k)];
		uint64_t off = e->trace.len;
		put1(e, pick.header);
		enc_hit(e, "hdr-%02x", pick.header);
		enc_hit(e, "%s", pick.name);
		pkt_init(&p, off, pick.header, tc_ete_pkt_atom);
		for (int i = 0; i < pick.n; i++)
			p.atoms |= (uint32_t)(e->pending[i] == 'E') << i;
		p.natoms = (uint8_t)pick.n;
		l1(e, &p);
		atoms_truth(e, 0, pick.n, off);
		drop_pending(e, pick.n);
	}
}

/* ---- Exceptions ------------------------------------------------------------------------ */

/* Exception packet: E form 1 (address = preferred return address) or 2
 * (also a target address); the address header is an address form, 0x70
 * (unknown) or a long form with a context (c != NULL). */
uint64_t enc_put_exception(struct enc *e, int eform, int type, const struct enc_exc_address *x)
{
	uint64_t off = begin(e, 0x06);
	put1(e, (eform == 1 ? 1u : 0x40u) | (unsigned)type << 1);
	if (x->form < 0) {
		put1(e, 0x70);
		ahb_add(e, 0, 0);
	} else if (x->ctx) {
		put1(e, (x->form == af_long32 ? 0x82u : 0x85u) + (unsigned)x->isa);
		enc_put_address_payload(e, x->form, x->address, x->isa);
		ahb_add(e, x->address, x->isa);
		enc_put_context_payload(e, x->ctx, x->v, x->cid);
	} else {
		put1(e, enc_address_header(x->form, x->q, x->isa));
		enc_put_address_payload(e, x->form, x->address, x->isa);
		enc_address_history(e, x->form, x->q, x->address, x->isa);
	}
	return off;
}

void enc_pkt_exception(struct enc *e, int form, int type, uint64_t per, int isa, int unknown,
		       const struct tc_context *c)
{
	struct tc_ete_packet p;
	struct enc_exc_address x = { -1, 0, per, isa, NULL, 0, 0 };
	uint64_t off;
	unsigned ah = 0x70;
	flush_atoms(e);   /* before the choices below: the random sequence of the vectors */
	if (unknown) {
		enc_hit(e, "exc-ah-unknown");
	} else if (c) {
		int long32 = per >> 32 == e->ahb[0].address >> 32 && enc_chance(&e->rng, 50);
		x.form = long32 ? af_long32 : af_long64;
		x.ctx = c;
		ah = (long32 ? 0x82u : 0x85u) + (unsigned)isa;
		context_sections(e, c, &x.v, &x.cid);
		enc_hit(e, "exc-ah-ctx-%s-is%d", long32 ? "long32" : "long64", isa);
	} else {
		x.form = choose_form(e, per, isa, &x.q);
		ah = enc_address_header(x.form, x.q, isa);
		enc_hit(e, x.form == af_exact ? "exc-ah-exact" : "exc-ah-%s-is%d", form_names[x.form], isa);
	}
	off = enc_put_exception(e, form, type, &x);
	pkt_init(&p, off, 0x06, tc_ete_pkt_exception);
	if (c && !unknown) {
		p.has_context = 1;
		p.ctx = e->ctx;
	}
	enc_hit(e, "hdr-ah-%02x", ah);
	enc_hit(e, "exc-e%d", form);
	e->since_p0 = type == 0x18;
	enc_hit(e, "exc-type-%02x", type);
	if (type != 0x18)
		spec_add(e, 1);
	if (type == 0 || type == 0x18)
		e->T = 0;
	p.e = (uint8_t)form;
	p.type = (uint8_t)type;
	p.has_address = (uint8_t)!unknown;
	p.address = unknown ? 0 : e->ahb[0].address;
	p.isa = (uint8_t)e->ahb[0].isa;
	l1(e, &p);
}

/* ---- Commit, cancel, cycle counts ------------------------------------------------------- */

/* A packet of a header and one ULEB128 field of n bits in k bytes (Commit 0x2d,
 * Cancel format 1 0x2e/0x2f: K10.5.2.8.1, K10.5.2.8.4). */
uint64_t enc_put_uleb_packet(struct enc *e, unsigned header, uint64_t v, int n, int k)
{
	uint64_t off = begin(e, header);
	put_cont(e, v, n, k);
	return off;
}

static void pkt_commit_plain(struct enc *e, int64_t n)
{
	struct tc_ete_packet p;
	uint64_t off;
	flush_atoms(e);
	off = enc_put_uleb_packet(e, 0x2d, (uint64_t)n, 32, uleb_len(e, (uint64_t)n, 32));
	pkt_init(&p, off, 0x2d, tc_ete_pkt_commit);
	p.count = (uint64_t)n;
	l1(e, &p);
	enc_hit(e, "commit-packet");
}

/* The cycle-count element every CC packet carries, as L3 truth; a
 * Transaction Failure keeps it only with tf_keep_cc (ERRATA TC-S18). */
static void cycle_count_truth(struct enc *e, uint64_t off, uint32_t value, int unknown)
{
	struct tc_l3 x;
	enc_l3_item(&x, tc_l3_cycle_count, off);
	x.count = value;
	x.unknown = (uint8_t)unknown;
	enc_l3(e, e->cfg.tf_keep_cc, &x);
}

static void pkt_cycle_count(struct enc *e, uint64_t off, unsigned header, int64_t commit, uint32_t count, int unknown)
{
	struct tc_ete_packet p;
	uint32_t value = unknown ? 0 : count + e->cc_threshold;
	pkt_init(&p, off, header, tc_ete_pkt_cycle_count);
	p.commit = (uint64_t)commit;
	p.count = value;
	p.cc_unknown = (uint8_t)unknown;
	l1(e, &p);
	cycle_count_truth(e, off, value, unknown);
	e->since_p0 = 1;   /* a Discard would drop this Cycle Count (TC-P13) */
	if (commit > 0)
		e->depth -= commit;
}

/* Cycle Count format 1: optional commit (commit mode 0), count or unknown. */
/* Cycle Count format 1 (K10.5.2.16.4): COMMIT (commit mode 0) in commit_k
 * bytes, then COUNT (unless unknown) in count_k bytes. */
uint64_t enc_put_cc_format1(struct enc *e, int unknown, uint64_t commit, int commit_k, uint32_t count, int count_k)
{
	uint64_t off = begin(e, unknown ? 0x0f : 0x0e);
	if (!e->cfg.commopt)
		put_cont(e, commit, 32, commit_k);
	if (!unknown)
		put_cont(e, count, 20, count_k);
	return off;
}

static void cc_format1(struct enc *e, int64_t commit, uint32_t count, int unknown)
{
	int commit_k = 0, count_k = 0;
	uint64_t off;
	flush_atoms(e);
	if (!e->cfg.commopt)
		commit_k = uleb_len(e, (uint64_t)commit, 32);
	if (!unknown)
		count_k = uleb_len(e, count, 20);
	off = enc_put_cc_format1(e, unknown, (uint64_t)commit, commit_k, count, count_k);
	enc_hit(e, "cc-f1-%s-%s", e->cfg.commopt ? "m1" : (commit ? "commit" : "nocommit"), unknown ? "unknown" : "count");
	pkt_cycle_count(e, off, unknown ? 0x0f : 0x0e, commit, count, unknown);
}

/* Cycle Count format 2 (K10.5.2.16.5): header 0x0c | F, payload AAAA:BBBB. */
uint64_t enc_put_cc_format2(struct enc *e, int f, unsigned aaaa, unsigned bbbb)
{
	uint64_t off = begin(e, 0x0cu | (unsigned)f);
	put1(e, (aaaa & 0xf) << 4 | (bbbb & 0xf));
	return off;
}

/* Commits n elements with a Commit packet or, when cycle counting is on in
 * commit mode 0, a cycle-count packet whose commit field says n. */
void enc_commit(struct enc *e, int64_t n)
{
	int64_t big = (int64_t)e->cfg.maxspec - 15;
	unsigned r;
	if (n <= 0)
		return;
	if (!e->cc_enabled || e->cfg.commopt || enc_chance(&e->rng, 40)) {
		pkt_commit_plain(e, n);
		e->depth -= n;
		return;
	}
	r = enc_below(&e->rng, 4);
	if (r == 0 && n <= 4) {                                   /* F3: AA+1 */
		unsigned bb = enc_below(&e->rng, 4), header = 0x10u | (unsigned)(n - 1) << 2 | bb;
		uint64_t off = begin(e, header);
		enc_hit(e, "cc-f3-commit");
		pkt_cycle_count(e, off, header, n, bb, 0);
	} else if (r == 1 && n <= 16) {                           /* F2 F=0: AAAA+1 */
		unsigned bbbb = enc_below(&e->rng, 16);
		uint64_t off = enc_put_cc_format2(e, 0, (unsigned)(n - 1), bbbb);
		enc_hit(e, "cc-f2-small");
		pkt_cycle_count(e, off, 0x0c, n, bbbb, 0);
	} else if (r == 2 && n >= big && n <= big + 15) {         /* F2 F=1: MAXSPEC+AAAA-15 */
		unsigned bbbb = enc_below(&e->rng, 16);
		uint64_t off = enc_put_cc_format2(e, 1, (unsigned)(n - big), bbbb);
		enc_hit(e, "cc-f2-large");
		pkt_cycle_count(e, off, 0x0d, n, bbbb, 0);
	} else {
		uint32_t count = enc_below(&e->rng, 2000);
		cc_format1(e, n, count, enc_chance(&e->rng, 10));
	}
}

/* A cycle count that commits nothing. */
void enc_pkt_cycle_count_only(struct enc *e, uint32_t count, int unknown)
{
	int64_t big = (int64_t)e->cfg.maxspec - 15;
	if (!unknown && e->cfg.commopt && count < 4 && enc_chance(&e->rng, 30)) {
		unsigned header = 0x10u | count;                       /* F3 in commit mode 1 */
		uint64_t off = begin(e, header);
		enc_hit(e, "cc-f3-m1");
		pkt_cycle_count(e, off, header, 0, count, 0);
	} else if (!unknown && count < 16 && (e->cfg.commopt || big <= 0) && enc_chance(&e->rng, 40)) {
		/* commit mode 1: AAAA as the text substitutes it, '1111' (ERRATA TC-R1) */
		int64_t aaaa = e->cfg.commopt ? 0xf : (int64_t)enc_below(&e->rng, (unsigned)(1 - big));
		uint64_t off = enc_put_cc_format2(e, 1, (unsigned)aaaa, count);      /* F2 with no commit */
		enc_hit(e, e->cfg.commopt ? "cc-f2-m1" : "cc-f2-large-zero");
		pkt_cycle_count(e, off, 0x0d, 0, count, 0);
	} else {
		cc_format1(e, 0, count, unknown);
	}
}

/* Cancels the k youngest P0 elements (the wrong path) and flips the most
 * recent real branch: Mispredict (k = 0), Cancel format 2 (k = 1),
 * format 3 (k = 2..5) or format 1, packing pending atoms where a format
 * carries them. */
void enc_cancel_mispredict(struct enc *e, int k)
{
	struct tc_ete_packet p;
	unsigned header;
	uint64_t off;
	int carry = 0, a = 0, np = e->npending;
	const char *pend = e->pending;
	if (k == 0 && np >= 1 && enc_chance(&e->rng, 70)) {
		/* Mispredict with atoms: 01 E, 10 E E, 11 N */
		if (np >= 2 && pend[np - 2] == 'E' && pend[np - 1] == 'E' && enc_chance(&e->rng, 50))
			a = 2, carry = 2;
		else
			a = pend[np - 1] == 'E' ? 1 : 3, carry = 1;
	} else if (k == 1 && np >= 1 && enc_chance(&e->rng, 70)) {
		if (np >= 2 && pend[np - 2] == 'E' && pend[np - 1] == 'E')
			a = 2, carry = 2;
		else
			a = pend[np - 1] == 'E' ? 1 : 3, carry = 1;
	} else if (k >= 2 && k <= 5 && np >= 1 && pend[np - 1] == 'E' && enc_chance(&e->rng, 60)) {
		a = 1, carry = 1;
	}
	/* the older pending atoms go out in atom packets first */
	if (np > carry) {
		int keep = carry;
		char save[2], save_tx[2];
		struct tc_l3 save_l3[2];
		for (int i = 0; i < keep; i++) {
			save[i] = pend[np - keep + i];
			save_tx[i] = e->pending_tx[np - keep + i];
			save_l3[i] = e->pending_l3[np - keep + i];
		}
		e->npending = np - keep;
		enc_flush_atoms(e);
		for (int i = 0; i < keep; i++) {
			e->pending[i] = save[i];
			e->pending_tx[i] = save_tx[i];
			e->pending_l3[i] = save_l3[i];
		}
		e->npending = keep;
		np = keep;
	}
	off = e->trace.len;
	if (k == 0) {
		header = 0x30u | (unsigned)a;
		put1(e, header);
		pkt_init(&p, off, header, tc_ete_pkt_mispredict);
		enc_hit(e, "mispredict-a%d", a);
	} else if (k == 1 && (carry || enc_chance(&e->rng, 40))) {
		header = 0x34u | (unsigned)a;
		put1(e, header);
		pkt_init(&p, off, header, tc_ete_pkt_cancel);
		enc_hit(e, "cancel-f2-a%d", a);
	} else if (k >= 2 && k <= 5 && (carry || enc_chance(&e->rng, 50))) {
		header = 0x38u | (unsigned)(k - 2) << 1 | (unsigned)carry;
		put1(e, header);
		pkt_init(&p, off, header, tc_ete_pkt_cancel);
		enc_hit(e, "cancel-f3-a%d", carry);
	} else {
		header = 0x2f;   /* the layout of enc_put_uleb_packet; its header is counted below */
		put1(e, header);
		put_cont(e, (uint64_t)k, 32, uleb_len(e, (uint64_t)k, 32));
		pkt_init(&p, off, header, tc_ete_pkt_cancel);
		enc_hit(e, "cancel-f1-m1");
	}
	enc_hit(e, "hdr-%02x", header);
	for (int i = 0; i < carry; i++)
		p.atoms |= (uint32_t)(pend[i] == 'E') << i;
	p.natoms = (uint8_t)carry;
	p.count = (uint64_t)k;
	p.mispredict = 1;
	l1(e, &p);
	atoms_truth(e, 0, carry, off);
	e->npending = 0;
	e->depth -= k;
	e->since_p0 = 1;   /* the Mispredict element */
}

/* Cancels the k youngest P0 elements without a Mispredict (Cancel format 1, M=0). */
void enc_cancel_plain(struct enc *e, int k)
{
	struct tc_ete_packet p;
	uint64_t off;
	flush_atoms(e);
	off = enc_put_uleb_packet(e, 0x2e, (uint64_t)k, 32, uleb_len(e, (uint64_t)k, 32));
	pkt_init(&p, off, 0x2e, tc_ete_pkt_cancel);
	p.count = (uint64_t)k;
	l1(e, &p);
	enc_hit(e, "cancel-f1-m0");
	e->depth -= k;
}

/* ---- Timestamps, events, Q, source address, transactions, discard -------------------- */

/* The fewest bytes of a timestamp's bit replacement of the last one (K10.5.6.4.3). */
int enc_ts_min_bytes(const struct enc *e, uint64_t value)
{
	for (int i = 1; i < 9; i++)
		if (value >> (7 * i) == e->timestamp >> (7 * i))
			return i;
	return 9;
}

/* Timestamp (K10.5.2.16.1): the value in k bytes of bit replacement, then
 * (header 0x03) the cycle count in cck bytes. */
uint64_t enc_put_timestamp(struct enc *e, uint64_t value, int k, int with_cc, uint32_t cc, int cck)
{
	uint64_t off = begin(e, with_cc ? 0x03 : 0x02);
	put_cont(e, value, 64, k);
	if (with_cc)
		put_cont(e, cc, 20, cck);
	e->timestamp = value;
	return off;
}

void enc_pkt_timestamp(struct enc *e, uint64_t value, int with_cc, uint32_t cc)
{
	struct tc_ete_packet p;
	struct tc_l3 x;
	unsigned header = with_cc ? 0x03 : 0x02;
	uint64_t off;
	int k, cck = 0;
	flush_atoms(e);   /* before the choices below: the random sequence of the vectors */
	k = enc_ts_min_bytes(e, value);
	if (k < 9 && enc_chance(&e->rng, 20))
		k += 1 + (int)enc_below(&e->rng, (unsigned)(9 - k));
	enc_hit(e, "ts-len%d", k);
	if (with_cc)
		cck = uleb_len(e, cc, 20);
	off = enc_put_timestamp(e, value, k, with_cc, cc, cck);
	pkt_init(&p, off, header, tc_ete_pkt_timestamp);
	p.value = value;
	p.count = cc;
	p.has_cc = (uint8_t)with_cc;
	l1(e, &p);
	enc_l3_item(&x, tc_l3_timestamp, off);
	x.value = value;
	x.count = with_cc ? cc : 0;
	x.unknown = (uint8_t)!with_cc;
	enc_l3(e, 0, &x);
}

void enc_pkt_event(struct enc *e, int mask)
{
	struct tc_ete_packet p;
	uint64_t off = begin(e, 0x70u | (unsigned)mask);
	pkt_init(&p, off, 0x70u | (unsigned)mask, tc_ete_pkt_event);
	p.events = (uint8_t)mask;
	l1(e, &p);
	for (int i = 0; i < 4; i++)
		if ((mask >> i) & 1) {
			struct tc_l3 x;
			enc_l3_item(&x, tc_l3_event, off);
			x.count = (uint64_t)i;
			enc_l3(e, 1, &x);
		}
}

void enc_pkt_ignore(struct enc *e)
{
	struct tc_ete_packet p;
	pkt_init(&p, begin(e, 0x70), 0x70, tc_ete_pkt_ignore);
	l1(e, &p);
}

/* Q: type 0xc (count only), 0xf (no count), or an address form of `next`
 * (the address after the counted instructions) with the count. */
/* Q (K10.5.2.11.1): header 0xa0 | type, the address of a form (types 0-2
 * exact match of entry q, 5/6 short, 0xa/0xb 32-bit long), the count
 * (but for type 0xf) in count_k bytes. */
uint64_t enc_put_q(struct enc *e, int type, int form, int q, uint64_t next, int isa, uint32_t count, int count_k)
{
	uint64_t off = begin(e, 0xa0u | (unsigned)type);
	if (type != 0xc && type != 0xf) {
		enc_put_address_payload(e, form, next, isa);
		enc_address_history(e, form, q, next, isa);
	}
	if (type != 0xf)
		put_cont(e, count, 32, count_k);
	return off;
}

void enc_pkt_q(struct enc *e, int type, uint32_t count, uint64_t next, int isa)
{
	struct tc_ete_packet p;
	int q = 0, form = af_long64;
	unsigned header;
	uint64_t off;
	if (type < 0) {   /* an addressed type: exact, short or 32-bit long (no 64-bit Q form) */
		form = choose_form(e, next, isa, &q);
		if (form == af_long64 || (form == af_short2 && enc_chance(&e->rng, 30)))
			form = next >> 32 == e->ahb[0].address >> 32 ? af_long32 : -1;
		if (form < 0)
			type = 0xc;
	}
	if (type < 0) {
		static const unsigned qt[2][4] = { { 0, 5, 5, 0xa }, { 0, 6, 6, 0xb } };
		type = form == af_exact ? q : (int)qt[isa][form];
	}
	header = 0xa0u | (unsigned)type;
	flush_atoms(e);
	off = enc_put_q(e, type, form, q, next, isa, count, type != 0xf ? uleb_len(e, count, 32) : 0);
	pkt_init(&p, off, header, tc_ete_pkt_q);
	if (type != 0xc && type != 0xf) {
		p.has_address = 1;
		p.address = next;
		p.isa = (uint8_t)e->ahb[0].isa;
	}
	enc_hit(e, "q-type-%x", type);
	spec_add(e, 1);
	e->since_p0 = 0;
	p.type = (uint8_t)type;
	p.count = type == 0xf ? 0 : count;
	l1(e, &p);
}

/* The header of a Source Address packet of a form (K10.5.2.12.1). */
unsigned enc_source_header(int form, int q, int isa)
{
	static const unsigned hdr[2][5] = { { 0xb0, 0xb4, 0xb4, 0xb6, 0xb8 }, { 0xb0, 0xb5, 0xb5, 0xb7, 0xb9 } };
	return form == af_exact ? 0xb0u + (unsigned)q : hdr[isa][form];
}

uint64_t enc_put_source(struct enc *e, int form, int q, uint64_t a, int isa)
{
	uint64_t off = begin(e, enc_source_header(form, q, isa));
	enc_put_address_payload(e, form, a, isa);
	enc_address_history(e, form, q, a, isa);
	return off;
}

void enc_pkt_source(struct enc *e, uint64_t a, int isa)
{
	struct tc_ete_packet p;
	int q = 0, form = choose_form(e, a, isa, &q);
	unsigned header = enc_source_header(form, q, isa);
	uint64_t off = enc_put_source(e, form, q, a, isa);
	if (form == af_exact)
		enc_hit(e, "src-exact-%d", q);
	else
		enc_hit(e, "src-%s-is%d", form_names[form], isa);
	spec_add(e, 1);
	e->since_p0 = 0;
	pkt_init(&p, off, header, tc_ete_pkt_source_address);
	p.address = a;
	p.isa = (uint8_t)e->ahb[0].isa;
	p.has_address = 1;
	l1(e, &p);
}

void enc_pkt_ts_marker(struct enc *e)
{
	struct tc_ete_packet p;
	uint64_t off = begin(e, 0x88);
	pkt_init(&p, off, 0x88, tc_ete_pkt_ts_marker);
	l1(e, &p);
	enc_l3_simple(e, 1, tc_l3_ts_marker, off);
}

/* Instrumentation (TC-P1): the EL byte and the 64-bit value. */
uint64_t enc_put_instrumentation(struct enc *e, int el, uint64_t value)
{
	uint64_t off = begin(e, 0x09);
	put1(e, (unsigned)el);
	put_le(e, value, 8);
	return off;
}

void enc_pkt_instrumentation(struct enc *e, int el, uint64_t value)
{
	struct tc_ete_packet p;
	struct tc_l3 x;
	uint64_t off = enc_put_instrumentation(e, el, value);
	pkt_init(&p, off, 0x09, tc_ete_pkt_instrumentation);
	p.ctx.el = (uint8_t)el;
	p.value = value;
	l1(e, &p);
	enc_l3_item(&x, tc_l3_instrumentation, off);
	x.ctx.el = (uint8_t)el;
	x.value = value;
	enc_l3(e, 1, &x);
}

void enc_pkt_tx_start(struct enc *e)
{
	struct tc_ete_packet p;
	pkt_init(&p, begin(e, 0x0a), 0x0a, tc_ete_pkt_tx_start);
	l1(e, &p);
	e->T = 1;
	if (e->cfg.commtrans == 0)
		spec_add(e, 1);
	enc_hit(e, "tx-start-commtrans%d", e->cfg.commtrans);
	e->since_p0 = 1;
}

void enc_pkt_tx_commit(struct enc *e)
{
	struct tc_ete_packet p;
	pkt_init(&p, begin(e, 0x0b), 0x0b, tc_ete_pkt_tx_commit);
	l1(e, &p);
	e->T = 0;
	e->since_p0 = 1;
}

/* An extension packet: 00 then the extension byte (K10.5.2.3.1). */
uint64_t enc_put_extension(struct enc *e, unsigned ext)
{
	uint64_t off = begin(e, 0x00);
	put1(e, ext);
	return off;
}

/* Discard (00 03) and Overflow (00 05): speculation and the transaction end. */
static void pkt_extension(struct enc *e, unsigned ext, int kind)
{
	struct tc_ete_packet p;
	uint64_t off = enc_put_extension(e, ext);
	pkt_init(&p, off, 0x00, kind);
	l1(e, &p);
	e->depth = 0;
	e->T = 0;
}

void enc_pkt_discard(struct enc *e)
{
	pkt_extension(e, 0x03, tc_ete_pkt_discard);
}

void enc_pkt_overflow(struct enc *e)
{
	pkt_extension(e, 0x05, tc_ete_pkt_overflow);
}
