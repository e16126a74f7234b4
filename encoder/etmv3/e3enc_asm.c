/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_asm.c — the ETMv3 assembler (tc_encoder.asm_*, tracecert asm): the packet of one L1 record
 * through the encoder's own writers of one encoding (e3e_put_*, e3e_pkt_* of e3enc_packets.c
 * where a packet has one encoding), with the lengths the trace asks for. */
/* The header column gives a P-header's format, a data packet's A bit and
 * size field, a timestamp's R bit. What the line does not show, the
 * packet's length (the distance to the next item's offset) decides: the
 * bytes of a branch address section, of a cycle count, of a timestamp, of a
 * data address, an A-sync's zeros, whether exception information has its
 * byte 1 (reference/etmv3/FORMAT.md "Assembling"). The last packet (len 0)
 * takes its shortest form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e3enc_internal.h"
#include "tracecert/etmv3_config.h"

struct e3e_asm {
	struct e3e e;
};

void *e3e_asm_open(const void *cfg)
{
	const struct tc_etmv3_config *c = cfg;
	struct e3e_asm *w;
	if (tc_etmv3_config_check(c, NULL, 0))
		return NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->e.cfg = *c;
	w->e.variants = calloc((size_t)tc_enc_etmv3_variant_count(), sizeof *w->e.variants);
	if (!w->e.variants) {
		free(w);
		return NULL;
	}
	return w;
}

void e3e_asm_close(void *p)
{
	struct e3e_asm *w = p;
	if (!w)
		return;
	free(w->e.trace.p);
	free(w->e.l1.p);
	free(w->e.l3.p);
	free(w->e.variants);
	free(w);
}

/* What an asm_write works on: the writer, the item, its length (0: the shortest) and the message. */
struct asm_call {
	struct e3e *e;
	const struct tc_etmv3_packet *p;
	long len;
	char *err;
	size_t errlen;
};

static int refuse(const struct asm_call *a, const char *what)
{
	snprintf(a->err, a->errlen, "%s", what);
	return -1;
}

/* ThumbEE needs the AltISA bit, which ETMv3.3 brings (§7.3.5): before it (version=3) no packet
 * gives that state. */
static int refuse_thumbee_version(const struct asm_call *a, enum tc_etmv3_isa isa)
{
	if (isa != tc_etmv3_isa_thumbee || a->e->cfg.version >= 3)
		return 0;
	return refuse(a, "isa=thumbee before ETMv3.3 (version=3): no AltISA bit gives ThumbEE");
}

static int refuse_len(const struct asm_call *a)
{
	snprintf(a->err, a->errlen, "no %s packet of these fields is %ld bytes long (the distance to the next item's offset)",
		 tc_etmv3_pkt_kind_name(a->p->h.kind), a->len);
	return -1;
}

/* An address the packet holds from bit shift up: a branch 2 in ARM state, 1 in Thumb and ThumbEE, 0
 * in Jazelle (§7.3.5); an I-sync 1, bit 0 is the T bit outside Jazelle state (§7.7.3). */
static int refuse_unaligned(const struct asm_call *a, const char *what, int shift)
{
	return enc_asm_unaligned(a->p->address, shift, what, tc_etmv3_isa_name(a->p->isa), a->err, a->errlen);
}

/* A field's length: the bytes left (rest) when given, else min; -1 outside min..max. */
static int field_len(long rest, int min, int max, int given)
{
	int k = given ? (int)rest : min;
	return k >= min && k <= max ? k : -1;
}

static int write_cycle_count(const struct asm_call *a)
{
	int k = field_len(a->len - 1, e3e_cc_min_bytes(a->p->cc), 5, a->len != 0);
	if (a->p->header != 0x04)
		return refuse(a, "the header is not the packet kind's (04)");
	if (k < 0)
		return refuse_len(a);
	e3e_put_cycle_count(a->e, a->p->cc, k);
	return 0;
}

/* The exception information of a branch item; 0 when it has none. */
static int branch_exception(const struct tc_etmv3_packet *p, struct e3e_exc *x)
{
	memset(x, 0, sizeof *x);
	if (p->exc_form == tc_etmv3_exc_none)
		return 0;
	x->can = p->cancel;
	x->ns = p->ns;
	x->hyp = p->hyp;
	if (p->exc_form == tc_etmv3_exc_byte5) {
		x->byte5 = 1;
		x->eee = p->exception;
	} else {
		x->type = p->exception;
		x->resume = p->resume;
	}
	return 1;
}

/* Branch address (§7.3.5): the section of the bytes left after the exception
 * information, which has byte 1 where the fields need it (or where the
 * section would be longer than five bytes). */
static int write_branch(const struct asm_call *a)
{
	const struct tc_etmv3_packet *p = a->p;
	struct e3e *e = a->e;
	struct e3e_exc x;
	int exc = branch_exception(p, &x), kmin = !exc ? 1 : x.byte5 || !e->cfg.alt_branch ? 5 : 2, k, b1 = 0;
	int kshort;
	if (refuse_unaligned(a, "a branch", p->isa == tc_etmv3_isa_arm ? 2 : p->isa == tc_etmv3_isa_jazelle ? 0 : 1))
		return -1;
	if (refuse_thumbee_version(a, p->isa))
		return -1;
	if ((!exc || x.byte5) && e3e_needs_altisa(e, p->isa)) {   /* AltISA is exception information byte 0's (§7.3.5) */
		return enc_asm_altisa_missing(tc_etmv3_isa_name(p->isa), tc_etmv3_isa_name(e->last.isa),
					      "a branch without exception information byte 0", a->err, a->errlen);
	}
	if (p->header & 0x80 && kmin < 2)
		kmin = 2;   /* the header's C bit: another byte follows (§7.3.5) */
	kshort = e3e_addr_min_bytes(e, p->address, p->isa, e->last.address, e->last.isa, kmin);
	long rest = a->len;
	if (exc && !x.byte5) {
		b1 = e3e_exc_byte1_needed(e, &x, e->last.hyp);
		rest -= 1 + b1 + (x.resume != 0);
		if (a->len && rest > 5 && !b1)
			b1 = 1, rest--;
	}
	k = field_len(rest, kshort, 5, a->len != 0);
	if (k < 0)
		return refuse_len(a);
	e3e_put_branch(e, p->address, p->isa, exc ? &x : NULL, k, b1);
	if (e->last.ns != p->ns || e->last.hyp != p->hyp)
		return refuse(a, "the packet does not give the item's ns and hyp (exception information states them)");
	return 0;
}

/* The lengths of an I-sync of `fixed` bytes besides its cycle count and
 * LSiP current address: the cycle count as short as it can be, the bytes
 * beyond go to it, then to the current address, then (change) to byte 1 of
 * its exception information; 0, or -1 when they do not fit. */
static int isync_lengths(const struct asm_call *a, long fixed, int change, int *cck, int *lk, int *b1)
{
	const struct tc_etmv3_packet *p = a->p;
	struct e3e *e = a->e;
	long rest;
	*cck = p->has_cc ? e3e_cc_min_bytes(p->cc) : 0;
	*lk = 0;
	*b1 = 0;
	if (p->lsip)
		*lk = e3e_addr_min_bytes(e, p->address, p->isa, p->data_insn, p->isa,
					 !change ? 1 : e->cfg.alt_branch ? 2 : 5);
	rest = a->len ? a->len - (fixed + *cck + *lk + change) : 0;
	while (rest > 0 && p->has_cc && *cck < 5)
		(*cck)++, rest--;
	while (rest > 0 && p->lsip && *lk < 5)
		(*lk)++, rest--;
	if (rest > 0 && change && e->cfg.version >= 5)
		*b1 = 1, rest--;
	return rest ? -1 : 0;
}

/* I-sync (§7.7.3): the trace unit's state is the item's. An LSiP I-sync
 * changes the security state (the information byte's NS is the other
 * one, ETM3-P9) only when the length does not fit a current address
 * without exception information. */
static int write_isync(const struct asm_call *a)
{
	const struct tc_etmv3_packet *p = a->p;
	struct e3e *e = a->e;
	struct e3e_isync s = { p->address, p->isa, p->reason, p->has_cc ? (int64_t)p->cc : -1, p->lsip, p->data_insn, p->ns };
	long fixed = 2 + e->cfg.contextid_size + (e->cfg.data_only ? 0 : 4);
	int cck, lk, b1 = 0;
	if (p->header != (p->has_cc ? 0x70 : 0x08) || p->has_address == e->cfg.data_only ||
	    p->has_ctxid != (e->cfg.contextid_size > 0))
		return refuse(a, "the header is not the item's (08, 70 with a cycle count) or the configuration gives another I-sync");
	if (p->has_address && refuse_thumbee_version(a, p->isa))
		return -1;
	if (p->has_address && refuse_unaligned(a, "an I-sync", p->isa == tc_etmv3_isa_jazelle ? 0 : 1))
		return -1;
	if (p->lsip && (p->data_insn & 1))   /* the decoder clears it: bit 0 of the address byte is the T bit (§7.7.3) */
		return refuse(a, "bit 0 of the LSiP data instruction's address is set: the address byte holds the T bit there");
	e->ns = p->ns;
	e->hyp = p->hyp;
	e->ctxid = p->context_id;
	if (isync_lengths(a, fixed, 0, &cck, &lk, &b1)) {
		if (!p->lsip || isync_lengths(a, fixed, 1, &cck, &lk, &b1))
			return refuse_len(a);
		e->ns = !p->ns;
	}
	e3e_put_isync(e, &s, cck, lk, b1);
	return 0;
}

static int write_timestamp(const struct asm_call *a)
{
	struct e3e *e = a->e;
	int maxb = e->cfg.ts64 ? 9 : 7;
	int k = field_len(a->len - 1, e3e_ts_min_bytes(e, e3e_ts_code(e, a->p->ts), e3e_ts_code(e, e->last.ts)), maxb,
			  a->len != 0);
	if (a->p->header != (a->p->ts_r ? 0x46 : 0x42))
		return refuse(a, "the header is not the item's (42, 46 with r=1)");
	if (!e->cfg.ts64 && a->p->ts >> 48)   /* 48 bits without ts64 (ETM3-X1): the decoder reads no more */
		return refuse(a, "the timestamp has 48 bits (ts64=0)");
	if (k < 0)
		return refuse_len(a);
	e3e_put_timestamp(e, a->p->ts, a->p->ts_r, k);
	return 0;
}

/* ---- Data packets (§7.4) -------------------------------------------------------- */

/* The SS field of a value of `size` bytes (Table 7-19); -1 for no such size. */
static int size_field(int size)
{
	static const int ss[5] = { 0, 1, 2, -1, 3 };
	return size >= 0 && size <= 4 ? ss[size] : -1;
}

/* The data packet of an item: kind, A bit, size field and tag from the header. */
static int data_packet(const struct asm_call *a, struct e3e_dpkt *d, int *ss)
{
	const struct tc_etmv3_packet *p = a->p;
	unsigned h = p->header;
	memset(d, 0, sizeof *d);
	d->addr = p->data_address;
	d->be = p->be;
	d->value = p->value;
	d->tag = p->tag;
	*ss = 0;
	switch (p->h.kind) {
	case tc_etmv3_pkt_data: d->kind = e3e_d_normal, d->a = (h >> 5) & 1, *ss = (int)(h >> 2) & 3; break;
	case tc_etmv3_pkt_placeholder: d->kind = e3e_d_placeholder, d->a = (h >> 5) & 1; break;
	case tc_etmv3_pkt_ooo_data: d->kind = e3e_d_ooo, *ss = (int)(h >> 2) & 3; break;
	case tc_etmv3_pkt_value_not_traced: d->kind = e3e_d_vnt, d->a = (h >> 4) & 1; break;
	case tc_etmv3_pkt_data_suppressed: d->kind = e3e_d_suppressed; break;
	default: d->kind = e3e_d_store_failed; break;
	}
	if (p->has_value && size_field(p->size) != *ss)
		return refuse(a, "the header's size field is not the value's size");
	return 0;
}

static int write_data(const struct asm_call *a)
{
	static const int bytes[4] = { 0, 1, 2, 4 };
	const struct tc_etmv3_packet *p = a->p;
	struct e3e *e = a->e;
	struct e3e_dpkt d;
	int ss, k = 0;
	if (data_packet(a, &d, &ss))
		return -1;
	if (p->has_address) {
		int vbytes = p->has_value ? bytes[ss] : 0;
		/* the BE bit a shorter address keeps is the reference's (§7.4.2) */
		int min = p->be == e->last.be ? e3e_daddr_min_bytes(e, d.addr, d.be) : 5;
		k = field_len(a->len - 1 - vbytes, min, 5, a->len != 0);
		if (k < 0)
			return refuse_len(a);
	}
	e3e_put_data(e, &d, ss, k);
	return 0;
}

/* ---- P-headers and the rest ------------------------------------------------------- */

static int write_atom(const struct asm_call *a)
{
	char pattern[24], want[TC_ETMV3_MAX_ATOMS + 1];
	const struct tc_etmv3_packet *p = a->p;
	int n = p->natoms < TC_ETMV3_MAX_ATOMS ? p->natoms : TC_ETMV3_MAX_ATOMS;
	if (!(p->header & 0x80))
		return refuse(a, "the header is no P-header (1xxxxxxx)");
	for (int i = 0; i < n; i++)
		want[i] = (p->waits >> i) & 1 ? 'W' : (p->atoms >> i) & 1 ? 'E' : 'N';
	want[n] = 0;
	e3e_header_pattern(a->e, p->header, pattern);
	if (strcmp(pattern, want))
		return refuse(a, "the header is no P-header of the item's atoms");
	e3e_put_pheader(a->e, p->header);
	return 0;
}

/* A packet of one encoding: its own packet writer (the L1 line it also writes is dropped). */
static int write_fixed(const struct asm_call *a)
{
	const struct tc_etmv3_packet *p = a->p;
	struct e3e *e = a->e;
	switch (p->h.kind) {
	case tc_etmv3_pkt_context_id:
		if (p->header != 0x6e || e->cfg.contextid_size == 0)
			return refuse(a, "the header is not the packet kind's (6e) or contextid_size is 0");
		e3e_pkt_context_id(e, p->context_id);
		break;
	case tc_etmv3_pkt_vmid:
		if (p->header != 0x3c || p->vmid > 0xff)
			return refuse(a, "the header is not the packet kind's (3c) or the VMID is more than 8 bits");
		e3e_pkt_vmid(e, p->vmid);
		break;
	default: {   /* the one-byte packets (Table 7-1): trigger 0c, ignore 66, exception exit 76, entry 7e */
		unsigned want = p->h.kind == tc_etmv3_pkt_trigger ? 0x0c : p->h.kind == tc_etmv3_pkt_ignore ? 0x66
				: p->h.kind == tc_etmv3_pkt_exception_exit ? 0x76 : 0x7e;
		if (p->header != want)
			return refuse(a, "the header is not the packet kind's");
		e3e_pkt_simple(e, want);
		break;
	}
	}
	e->l1.len = 0;
	return 0;
}

static int write_packet(const struct asm_call *a)
{
	const struct tc_etmv3_packet *p = a->p;
	switch (p->h.kind) {
	case tc_etmv3_pkt_async:
		if (p->header != 0x00 || (a->len && a->len < 6))
			return p->header ? refuse(a, "the header is not the packet kind's") : refuse_len(a);
		e3e_put_async(a->e, a->len ? (int)a->len - 1 : 5);
		return 0;
	case tc_etmv3_pkt_cycle_count: return write_cycle_count(a);
	case tc_etmv3_pkt_isync: return write_isync(a);
	case tc_etmv3_pkt_branch: return write_branch(a);
	case tc_etmv3_pkt_atom: return write_atom(a);
	case tc_etmv3_pkt_timestamp: return write_timestamp(a);
	case tc_etmv3_pkt_trigger:
	case tc_etmv3_pkt_ignore:
	case tc_etmv3_pkt_exception_entry:
	case tc_etmv3_pkt_exception_exit:
	case tc_etmv3_pkt_context_id:
	case tc_etmv3_pkt_vmid:
		return write_fixed(a);
	case tc_etmv3_pkt_error:
	case tc_etmv3_pkt_warning:
		snprintf(a->err, a->errlen, "an %s item is no packet: asm writes packets only",
			 p->h.kind == tc_etmv3_pkt_error ? "error" : "warning");
		return -1;
	default:
		return write_data(a);
	}
}

long e3e_asm_write(void *wp, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		   size_t errlen)
{
	struct e3e_asm *w = wp;
	struct asm_call a = { &w->e, (const struct tc_etmv3_packet *)item, (long)len, err, errlen };
	long n;
	w->e.trace.len = 0;
	if (write_packet(&a))
		return -1;
	n = enc_asm_packet_out(&w->e.trace, a.p->header, len, out, cap, err, errlen);
	return n == -2 ? refuse_len(&a) : n;
}
