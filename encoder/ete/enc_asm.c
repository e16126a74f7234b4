/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_asm.c — the ETE assembler (tc_encoder.asm_*, tracecert asm): the packet of one L1 record
 * through the encoder's own writers of one encoding (enc_put_* of enc_packets.c), with the
 * form the header names and the lengths the trace asks for. */
/* The L1 line shows the header, so the address form of a target address,
 * Q or Source Address packet, the atom, cancel and cycle-count format, the
 * context packet's P bit are the header's. What it does not show comes from
 * the packet's length (the distance to the next item's offset): the bytes
 * of each ULEB128 or bit-replacement field, short address 1 or 2 bytes,
 * the A-sync's zeros, an Exception's address form, optional sections of
 * Trace Info and of a context payload. Where fields share the length, the
 * first field in the order of reference/ete/FORMAT.md "Assembling" takes
 * the bytes beyond the shortest packet. The last packet (len 0) takes its
 * shortest form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"
#include "tracecert/ete_config.h"

struct enc_asm {
	struct enc e;
};

void *enc_asm_open(const void *cfg)
{
	const struct tc_ete_config *c = cfg;
	struct enc_asm *w;
	if (tc_ete_config_check(c, NULL, 0))
		return NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->e.cfg = *c;
	w->e.variants = calloc((size_t)tc_enc_variant_count(), sizeof *w->e.variants);
	if (!w->e.variants) {
		free(w);
		return NULL;
	}
	return w;
}

void enc_asm_close(void *p)
{
	struct enc_asm *w = p;
	if (!w)
		return;
	free(w->e.trace.p);
	free(w->e.variants);
	free(w);
}

/* What an asm_write works on: the writer, the item, its length (0: the shortest) and the message. */
struct asm_call {
	struct enc *e;
	const struct tc_ete_packet *p;
	long len;
	char *err;
	size_t errlen;
};

static int refuse(const struct asm_call *a, const char *what)
{
	snprintf(a->err, a->errlen, "%s", what);
	return -1;
}

static int refuse_len(const struct asm_call *a)
{
	snprintf(a->err, a->errlen, "no %s packet of these fields is %ld bytes long (the distance to the next item's offset)",
		 tc_ete_pkt_kind_name(a->p->h.kind), a->len);
	return -1;
}

/* Spreads rest bytes over the fields k[0..n-1], each up to max[i], in that order; 0, or -1 when they do not fit. */
static int spread(int *k, const int *max, int n, long rest)
{
	for (int i = 0; i < n && rest > 0; i++) {
		long add = max[i] - k[i] < rest ? max[i] - k[i] : rest;
		k[i] += (int)add;
		rest -= add;
	}
	return rest == 0 ? 0 : -1;
}

/* The bytes beyond the shortest packet of min bytes: 0 for the last packet, -1 when shorter. */
static long beyond(const struct asm_call *a, long min)
{
	return a->len ? a->len - min : 0;
}

/* ---- Addresses ------------------------------------------------------------------ */

static int payload_bytes(int form)
{
	static const int n[] = { 0, 1, 2, 4, 8 };
	return n[form];
}

/* Whether a form carries address a of sub-ISA isa against AHB[0]
 * (K10.5.2.14.2 LongAddressBytes, K10.5.2.14.4 ShortAddressBytes). */
static int form_reaches(const struct enc *e, int form, uint64_t a, int isa)
{
	int lo = isa ? 1 : 2;
	uint64_t base = e->ahb[0].address;
	if (a & ((UINT64_C(1) << lo) - 1))
		return 0;
	switch (form) {
	case af_short1: return a >> (lo + 7) == base >> (lo + 7);
	case af_short2: return a >> (lo + 15) == base >> (lo + 15);
	case af_long32: return a >> 32 == base >> 32;
	default: return 1;
	}
}

/* The entry of the address history that holds (a, isa), the youngest; -1 when none. */
static int exact_entry(const struct enc *e, uint64_t a, int isa)
{
	for (int q = 0; q < 3; q++)
		if (e->ahb[q].address == a && e->ahb[q].isa == isa)
			return q;
	return -1;
}

/* The address of a header that names its form (target address, Q, Source
 * Address): *form, *q; 0, or -1 after a message. short is the short form's
 * header: one byte or two by the bytes left (avail; -1: the shortest that reaches). */
static int header_form(const struct asm_call *a, int form, int q, long avail, int *formp)
{
	const struct tc_ete_packet *p = a->p;
	if (form == af_exact) {
		if (q > 2 || a->e->ahb[q].address != p->address || a->e->ahb[q].isa != p->isa) {
			snprintf(a->err, a->errlen, "the address history's entry %d is not addr=0x%llx isa=%d", q,
				 (unsigned long long)p->address, p->isa);
			return -1;
		}
	} else if (form == af_short1) {
		form = avail >= 2 || (avail < 0 && !form_reaches(a->e, af_short1, p->address, p->isa)) ? af_short2
												       : af_short1;
	}
	if (!form_reaches(a->e, form, p->address, p->isa)) {
		snprintf(a->err, a->errlen, "the header's address form cannot carry addr=0x%llx from 0x%llx",
			 (unsigned long long)p->address, (unsigned long long)a->e->ahb[0].address);
		return -1;
	}
	*formp = form;
	return 0;
}

/* The form of a target address header (K10.5.2.14.1): 0x90-0x92 exact, 0x95/0x96 short,
 * 0x9a/0x9b 32-bit, 0x9d/0x9e 64-bit; the sub-ISA the header gives in *isa (-1: the entry's). */
static int target_form(unsigned h, int *q, int *isa)
{
	*q = (int)(h & 3);
	*isa = -1;
	if (h >= 0x90 && h <= 0x92)
		return af_exact;
	*isa = (h & 7) == 3 || (h & 7) == 6 ? 1 : 0;
	switch (h) {
	case 0x95: case 0x96: return af_short1;
	case 0x9a: case 0x9b: return af_long32;
	case 0x9d: case 0x9e: return af_long64;
	default: return -1;
	}
}

static int write_address(const struct asm_call *a)
{
	int q, isa, form = target_form(a->p->header, &q, &isa);
	if (form < 0 || (isa >= 0 && isa != a->p->isa))
		return refuse(a, "the header is no target address form of the item's sub-ISA");
	if (header_form(a, form, q, a->len ? a->len - 1 : -1, &form))
		return -1;
	enc_put_address(a->e, form, q, a->p->address, a->p->isa);
	return 0;
}

static int write_source(const struct asm_call *a)
{
	/* K10.5.2.12.1: B0-B2 exact, B4/B5 short, B6/B7 32-bit, B8/B9 64-bit (IS0, IS1) */
	static const int forms[10] = { af_exact, af_exact, af_exact, -1, af_short1, af_short1,
				       af_long32, af_long32, af_long64, af_long64 };
	unsigned h = a->p->header;
	int q = (int)(h & 3), form = h >= 0xb0 && h <= 0xb9 ? forms[h - 0xb0] : -1;
	int isa = form == af_exact ? a->p->isa : (int)((h - 0xb0) & 1);
	if (form < 0 || isa != a->p->isa)
		return refuse(a, "the header is no source address form of the item's sub-ISA");
	if (header_form(a, form, q, a->len ? a->len - 1 : -1, &form))
		return -1;
	enc_put_source(a->e, form, q, a->p->address, a->p->isa);
	return 0;
}

/* ---- Context ------------------------------------------------------------------- */

/* The V and C sections of a context payload of `bytes` bytes (-1: the
 * fewest): those whose value changes, then VMID, then the context ID. */
static int context_sections(const struct asm_call *a, const struct tc_context *c, long bytes, int *v, int *cid)
{
	*v = c->vmid != a->e->ctx.vmid;
	*cid = c->context_id != a->e->ctx.context_id;
	if (c->nse && !a->e->cfg.rme)
		return refuse(a, "nse=1 without FEAT_RME (rme=1): the payload's bit 3 is SBZ");
	if (bytes < 0)
		return 0;
	if (bytes == 5 && !*v && !*cid)
		*v = 1;
	else if (bytes == 9)
		*v = *cid = 1;
	return bytes == 1 + 4 * (*v + *cid) ? 0 : refuse_len(a);
}

static int write_context(const struct asm_call *a)
{
	int v, cid;
	if (a->p->header == 0x80) {
		if (memcmp(&a->p->ctx, &a->e->ctx, sizeof a->p->ctx))
			return refuse(a, "header 80 repeats the current context: the item's context is another");
		enc_put_context(a->e, NULL, 0, 0);
		return 0;
	}
	if (a->p->header != 0x81)
		return refuse(a, "the header is no context packet's (80, 81)");
	if (context_sections(a, &a->p->ctx, a->len ? a->len - 1 : -1, &v, &cid))
		return -1;
	enc_put_context(a->e, &a->p->ctx, v, cid);
	return 0;
}

static int write_addr_ctx(const struct asm_call *a)
{
	unsigned h = a->p->header;
	int long32 = h == 0x82 || h == 0x83, isa = h == 0x83 || h == 0x86, v, cid;
	int form = long32 ? af_long32 : af_long64;
	if ((h != 0x82 && h != 0x83 && h != 0x85 && h != 0x86) || isa != a->p->isa)
		return refuse(a, "the header is no address with context form of the item's sub-ISA");
	if (!form_reaches(a->e, form, a->p->address, isa))
		return refuse(a, "a 32-bit address with context cannot carry the item's address<63:32>");
	if (context_sections(a, &a->p->ctx, a->len ? a->len - 1 - payload_bytes(form) : -1, &v, &cid))
		return -1;
	enc_put_addr_ctx(a->e, long32, a->p->address, isa, &a->p->ctx, v, cid);
	return 0;
}

/* Whether a context payload of `bytes` bytes can carry c: 1, 5 or 9, with the sections of the values that change. */
static long sections_need(const struct enc *e, const struct tc_context *c)
{
	return 1 + 4 * ((c->vmid != e->ctx.vmid) + (c->context_id != e->ctx.context_id));
}

static int sections_fit(const struct enc *e, const struct tc_context *c, long bytes)
{
	return bytes >= sections_need(e, c) && bytes <= 9 && (bytes - 1) % 4 == 0;
}

/* An Exception's address (K10.5.2.13.1): the form of `bytes` address bytes, its header included (-1: the shortest). */
static int exception_form(const struct asm_call *a, long bytes, struct enc_exc_address *x)
{
	const struct tc_ete_packet *p = a->p;
	static const int forms[] = { af_exact, af_short1, af_short2, af_long32, af_long64 };
	x->address = p->address;
	x->isa = p->isa;
	x->form = -1;
	if (!p->has_address)
		return bytes < 0 || bytes == 1 ? 0 : refuse_len(a);
	/* no form holds bits 1:0 of an IS0 address, bit 0 of an IS1 one (K10.5.2.14.2) */
	if (enc_asm_unaligned(p->address, p->isa ? 1 : 2, "an exception", p->isa ? "IS1" : "IS0", a->err, a->errlen))
		return -1;
	if (p->has_context) {
		/* 32-bit where it reaches and leaves the context payload no section of a value that stays;
		 * else 64-bit where the payload fits; else 32-bit with such sections */
		int r32 = form_reaches(a->e, af_long32, p->address, p->isa);
		long c32 = bytes - 1 - payload_bytes(af_long32), c64 = bytes - 1 - payload_bytes(af_long64);
		x->ctx = &p->ctx;
		x->form = r32 && (bytes < 0 || sections_need(a->e, &p->ctx) == c32) ? af_long32
			  : bytes < 0 || sections_fit(a->e, &p->ctx, c64) || !r32 ? af_long64 : af_long32;
		return context_sections(a, &p->ctx, bytes < 0 ? -1 : bytes - 1 - payload_bytes(x->form), &x->v, &x->cid);
	}
	for (int i = 0; i < 5; i++) {
		int f = forms[i];
		if (bytes >= 0 && bytes != 1 + payload_bytes(f))
			continue;
		if (f == af_exact ? (x->q = exact_entry(a->e, p->address, p->isa)) >= 0 : form_reaches(a->e, f, p->address, p->isa)) {
			x->form = f;
			return 0;
		}
	}
	return refuse_len(a);
}

static int write_exception(const struct asm_call *a)
{
	struct enc_exc_address x = { -1, 0, 0, 0, NULL, 0, 0 };
	if ((a->p->e != 1 && a->p->e != 2) || a->p->type > 0x1f)
		return refuse(a, "no exception packet has these fields (e: 1 or 2, type: 5 bits)");
	if (exception_form(a, a->len ? a->len - 2 : -1, &x))
		return -1;
	enc_put_exception(a->e, a->p->e, a->p->type, &x);
	return 0;
}

/* ---- Trace Info, timestamps, cycle counts, commits, Q ------------------------------- */

static int write_trace_info(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	struct enc_trace_info t = { 0, p->cc_enabled, p->in_tx, p->spec, p->cct, p->wndw, 0, 0, 0 };
	int k[5], max[5];
	long rest;
	if (!p->cc_enabled && p->cct)
		return refuse(a, "cct is 0 when cc=0 (K10.5.2.6.2)");
	t.plctl = (p->cc_enabled || p->in_tx ? 0x01u : 0) | (p->spec ? 0x04u : 0) | (p->cct ? 0x08u : 0) |
		  (p->has_wndw ? 0x10u : 0);
	rest = beyond(a, 2 + (t.plctl & 1) + (p->spec ? enc_cont_min_bytes(p->spec, 32) : 0) +
			  (p->cct ? enc_cont_min_bytes(p->cct, 32) : 0) +
			  (p->has_wndw ? enc_cont_min_bytes(p->wndw, 32) : 0));
	/* the optional sections first (INFO, CYCT when cc=1, SPEC), one byte each */
	if (rest > 0 && !(t.plctl & 0x01))
		t.plctl |= 0x01, rest--;
	if (rest > 0 && p->cc_enabled && !(t.plctl & 0x08))
		t.plctl |= 0x08, rest--;
	if (rest > 0 && !(t.plctl & 0x04))
		t.plctl |= 0x04, rest--;
	k[0] = enc_cont_min_bytes(p->spec, 32), k[1] = enc_cont_min_bytes(p->cct, 32), k[2] = enc_cont_min_bytes(p->wndw, 32);
	max[0] = t.plctl & 0x04 ? enc_cont_max_bytes(32) : k[0];
	max[1] = t.plctl & 0x08 ? enc_cont_max_bytes(32) : k[1];
	max[2] = t.plctl & 0x10 ? enc_cont_max_bytes(32) : k[2];
	if (rest < 0 || spread(k, max, 3, rest))
		return refuse_len(a);
	t.spec_k = k[0], t.cct_k = k[1], t.wndw_k = k[2];
	enc_put_trace_info(a->e, &t);
	return 0;
}

static int write_timestamp(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	int with_cc = a->p->header == 0x03, k[2], max[2] = { 9, enc_cont_max_bytes(20) };
	long rest;
	if (with_cc != p->has_cc || p->count >> 20)
		return refuse(a, "the header is no timestamp packet of the item's cc (02: none, 03: a 20-bit count)");
	k[0] = enc_ts_min_bytes(a->e, p->value);
	k[1] = with_cc ? enc_cont_min_bytes(p->count, 20) : 0;
	if (!with_cc)
		max[1] = 0;
	rest = beyond(a, 1 + k[0] + k[1]);
	if (rest < 0 || spread(k, max, 2, rest))
		return refuse_len(a);
	enc_put_timestamp(a->e, p->value, k[0], with_cc, (uint32_t)p->count, k[1]);
	return 0;
}

/* The count a cycle-count packet carries: the item's less the threshold (K10.5.2.16.4); -1 when none. */
static long long cc_payload(const struct asm_call *a, unsigned limit)
{
	const struct tc_ete_packet *p = a->p;
	if (p->cc_unknown || p->count < a->e->cc_threshold || p->count - a->e->cc_threshold >= limit)
		return -1;
	return (long long)(p->count - a->e->cc_threshold);
}

static int write_cc_format1(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	int unknown = a->p->header & 1, commopt = a->e->cfg.commopt;
	long long count = unknown ? 0 : cc_payload(a, 1u << 20);
	int k[2] = { commopt ? 0 : enc_cont_min_bytes(p->commit, 32), unknown ? 0 : enc_cont_min_bytes((uint64_t)count, 20) };
	int max[2] = { commopt ? 0 : enc_cont_max_bytes(32), unknown ? 0 : enc_cont_max_bytes(20) };
	long rest = beyond(a, 1 + k[0] + k[1]);
	if (unknown != p->cc_unknown || count < 0 || (commopt && p->commit) || p->commit >> 32)
		return refuse(a, "the header is no format 1 cycle count of the item's fields (0e: a count, 0f: unknown)");
	if (rest < 0 || spread(k, max, 2, rest))
		return refuse_len(a);
	enc_put_cc_format1(a->e, unknown, p->commit, k[0], (uint32_t)count, k[1]);
	return 0;
}

/* Format 2 (K10.5.2.16.5): AAAA from the commit, per F and the commit mode (TC-S7, TC-R1). */
static int write_cc_format2(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	int f = a->p->header & 1;
	long long big = (long long)a->e->cfg.maxspec - 15, aaaa;
	long long count = cc_payload(a, 16);
	if (a->e->cfg.commopt)
		aaaa = f && !p->commit ? 0xf : -1;
	else if (!f)
		aaaa = p->commit >= 1 && p->commit <= 16 ? (long long)p->commit - 1 : -1;
	else if (p->commit)
		aaaa = (long long)p->commit - big;
	else
		aaaa = big <= 0 ? -big : -1;       /* commit 0: MAXSPEC + AAAA - 15 = 0 exactly (FORMAT.md) */
	if (count < 0 || aaaa < 0 || aaaa > 15)
		return refuse(a, "the header is no format 2 cycle count of the item's commit and count");
	enc_put_cc_format2(a->e, f, (unsigned)aaaa, (unsigned)count);
	return 0;
}

static int write_cc_format3(const struct asm_call *a)
{
	unsigned h = a->p->header;
	uint64_t commit = a->e->cfg.commopt ? 0 : ((h >> 2) & 3) + 1;
	if (cc_payload(a, 4) != (long long)(h & 3) || a->p->commit != commit || (a->e->cfg.commopt && (h & 0xc)))
		return refuse(a, "the header is no format 3 cycle count of the item's commit and count");
	enc_put_header(a->e, h);
	return 0;
}

static int write_cycle_count(const struct asm_call *a)
{
	unsigned h = a->p->header;
	if ((h & 0xfe) == 0x0e)
		return write_cc_format1(a);
	if ((h & 0xfe) == 0x0c)
		return write_cc_format2(a);
	if (h >= 0x10 && h <= 0x1f)
		return write_cc_format3(a);
	return refuse(a, "the header is no cycle count packet's (0c-0f, 10-1f)");
}

/* A packet of the header and one ULEB128 of 32 bits (Commit, Cancel format 1). */
static int write_uleb_packet(const struct asm_call *a, uint64_t v)
{
	int k = enc_cont_min_bytes(v, 32), max = enc_cont_max_bytes(32);
	long rest = beyond(a, 1 + k);
	if (v >> 32 || rest < 0 || spread(&k, &max, 1, rest))
		return refuse_len(a);
	enc_put_uleb_packet(a->e, a->p->header, v, 32, k);
	return 0;
}

static int write_q(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	int type = p->header & 0xf, q = type & 3, form = -1, abytes = 0, k, max;
	long rest;
	if (type != p->type || p->count >> 32)
		return refuse(a, "the header is not the item's Q type");
	if (type <= 2)
		form = af_exact;
	else if (type == 5 || type == 6)
		form = af_short1;
	else if (type == 0xa || type == 0xb)
		form = af_long32;
	else if (type != 0xc && type != 0xf)
		return refuse(a, "the Q type is reserved");
	if (form >= 0 && form != af_exact && p->isa != (type == 6 || type == 0xb))
		return refuse(a, "the Q type is no address form of the item's sub-ISA");
	if (form >= 0 && !p->has_address)
		return refuse(a, "the Q type carries an address");
	/* the address as short as reaches; the bytes beyond go to the count */
	if (form >= 0 && header_form(a, form, q, -1, &form))
		return -1;
	abytes = form >= 0 ? payload_bytes(form) : 0;
	k = type == 0xf ? 0 : enc_cont_min_bytes(p->count, 32);
	max = type == 0xf ? 0 : enc_cont_max_bytes(32);
	rest = beyond(a, 1 + abytes + k);
	if (rest > max - k && form == af_short1)
		form = af_short2, rest--;
	if (rest < 0 || spread(&k, &max, 1, rest))
		return refuse_len(a);
	enc_put_q(a->e, type, form, q, p->address, p->isa, (uint32_t)p->count, k);
	return 0;
}

/* ---- Atoms, cancel, mispredict ------------------------------------------------------ */

static int write_atom(const struct asm_call *a)
{
	struct enc_atom_choice c[ENC_ATOM_CHOICES];
	struct enc *e = a->e;
	int n, ok = 0;
	if (a->p->natoms < 1 || a->p->natoms > ENC_MAX_PENDING)
		return refuse(a, "no atom packet has these atoms");
	for (int i = 0; i < a->p->natoms; i++)
		e->pending[i] = (a->p->atoms >> i) & 1 ? 'E' : 'N';
	e->npending = a->p->natoms;
	n = enc_atom_choices(e, c);
	e->npending = 0;
	for (int i = 0; i < n; i++)
		ok |= c[i].header == a->p->header && c[i].n == a->p->natoms;
	if (!ok)
		return refuse(a, "the header is no atom format of the item's atoms");
	enc_put_header(e, a->p->header);
	return 0;
}

/* The A field of Mispredict and Cancel format 2 for the atoms: 00 none, 01 E, 10 EE, 11 N; -1 none fits. */
static int field_a(const struct tc_ete_packet *p)
{
	if (p->natoms == 0)
		return 0;
	if (p->natoms == 1)
		return p->atoms & 1 ? 1 : 3;
	return p->natoms == 2 && (p->atoms & 3) == 3 ? 2 : -1;
}

static int write_cancel(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	unsigned h = p->header;
	int want = -1;
	if ((h & 0xfe) == 0x2e)
		return (h & 1) == p->mispredict && !p->natoms ? write_uleb_packet(a, p->count)
							       : refuse(a, "the header is no format 1 cancel of the item's fields");
	if ((h & 0xfc) == 0x34 && p->count == 1 && p->mispredict && field_a(p) >= 0)
		want = 0x34 | field_a(p);
	else if ((h & 0xf8) == 0x38 && p->count >= 2 && p->count <= 5 && p->mispredict &&
		 (p->natoms == 0 || (p->natoms == 1 && (p->atoms & 1))))
		want = 0x38 | (int)(p->count - 2) << 1 | p->natoms;
	if (want != (int)h)
		return refuse(a, "the header is no cancel format of the item's atoms, n and mispredict");
	enc_put_header(a->e, h);
	return 0;
}

static int write_mispredict(const struct asm_call *a)
{
	if (field_a(a->p) < 0 || a->p->header != (0x30u | (unsigned)field_a(a->p)))
		return refuse(a, "the header is no mispredict of the item's atoms");
	enc_put_header(a->e, a->p->header);
	return 0;
}

/* ---- The packet of one item ----------------------------------------------------------- */

/* Packets that are their header alone, and the header each must be (0: any the kind allows). */
static int write_header_only(const struct asm_call *a, unsigned want)
{
	if (a->p->header != want)
		return refuse(a, "the header is not the packet kind's");
	enc_put_header(a->e, want);
	return 0;
}

static int write_extension(const struct asm_call *a, unsigned ext)
{
	if (a->p->header != 0x00)
		return refuse(a, "the header is not the packet kind's");
	enc_put_extension(a->e, ext);
	return 0;
}

static int write_async(const struct asm_call *a)
{
	if (a->p->header != 0x00 || (a->len && a->len < 12))
		return a->p->header ? refuse(a, "the header is not the packet kind's") : refuse_len(a);
	enc_put_async(a->e, a->len ? (int)a->len - 2 : 10);
	return 0;
}

static int write_packet(const struct asm_call *a)
{
	const struct tc_ete_packet *p = a->p;
	switch (p->h.kind) {
	case tc_ete_pkt_async: return write_async(a);
	case tc_ete_pkt_discard: return write_extension(a, 0x03);
	case tc_ete_pkt_overflow: return write_extension(a, 0x05);
	case tc_ete_pkt_trace_info: return write_trace_info(a);
	case tc_ete_pkt_timestamp: return write_timestamp(a);
	case tc_ete_pkt_trace_on: return write_header_only(a, 0x04);
	case tc_ete_pkt_exception: return write_exception(a);
	case tc_ete_pkt_tx_start: return write_header_only(a, 0x0a);
	case tc_ete_pkt_tx_commit: return write_header_only(a, 0x0b);
	case tc_ete_pkt_cycle_count: return write_cycle_count(a);
	case tc_ete_pkt_commit:
		return p->header == 0x2d ? write_uleb_packet(a, p->count) : refuse(a, "the header is not the packet kind's");
	case tc_ete_pkt_cancel: return write_cancel(a);
	case tc_ete_pkt_mispredict: return write_mispredict(a);
	case tc_ete_pkt_ignore: return write_header_only(a, 0x70);
	case tc_ete_pkt_event: return p->events ? write_header_only(a, 0x70u | p->events) : refuse(a, "an event packet has an event");
	case tc_ete_pkt_context: return write_context(a);
	case tc_ete_pkt_addr_ctx: return write_addr_ctx(a);
	case tc_ete_pkt_address: return write_address(a);
	case tc_ete_pkt_q: return write_q(a);
	case tc_ete_pkt_source_address: return write_source(a);
	case tc_ete_pkt_atom: return write_atom(a);
	case tc_ete_pkt_ts_marker: return write_header_only(a, 0x88);
	case tc_ete_pkt_instrumentation:
		if (p->ctx.el > 3)
			return refuse(a, "el is 0..3");
		enc_put_instrumentation(a->e, p->ctx.el, p->value);
		return 0;
	default:
		snprintf(a->err, a->errlen, "an %s item is no packet: asm writes packets only",
			 p->h.kind == tc_ete_pkt_error ? "error" : "warning");
		return -1;
	}
}

long enc_asm_write(void *wp, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		   size_t errlen)
{
	struct enc_asm *w = wp;
	struct asm_call a = { &w->e, (const struct tc_ete_packet *)item, (long)len, err, errlen };
	long n;
	w->e.trace.len = 0;
	if (write_packet(&a))
		return -1;
	n = enc_asm_packet_out(&w->e.trace, a.p->header, len, out, cap, err, errlen);
	return n == -2 ? refuse_len(&a) : n;
}
