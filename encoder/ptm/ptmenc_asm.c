/* SPDX-License-Identifier: BSD-3-Clause */
/* ptmenc_asm.c — the PTM assembler (tc_encoder.asm_*, tracecert asm): the packet of one L1 record
 * through the encoder's own byte layouts (ptmenc_packets.c), with the lengths the trace asks for. */
/* A packet's length in the trace decides what its L1 line does not show:
 * the bytes of an address section (1-5), of a cycle count (1-5), of a
 * timestamp, whether exception information has one byte or two, the zeros
 * of an A-sync, a waypoint update's information byte. Where two of them
 * share the length (a branch with exception information and a cycle count,
 * a timestamp with a cycle count), the address section and the timestamp
 * take the shortest form LastState allows, and what is left goes to
 * exception information's second byte, then the cycle count, then the
 * address or timestamp (reference/ptm/FORMAT.md "Assembling"). The last
 * packet (len 0) takes its shortest form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptmenc_internal.h"

struct pe_asm {
	struct pe e;
};

void *pe_asm_open(const void *cfg)
{
	const struct tc_ptm_config *c = cfg;
	struct pe_asm *w;
	if (!pe_config_valid(c))
		return NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->e.cfg = *c;
	return w;
}

void pe_asm_close(void *p)
{
	struct pe_asm *w = p;
	if (!w)
		return;
	free(w->e.trace.p);
	free(w);
}

/* A length the packet's form cannot have. */
static int refuse_len(char *err, size_t errlen, const char *what, size_t len)
{
	snprintf(err, errlen, "no %s packet is %zu bytes long (the distance to the next item's offset)", what, len);
	return -1;
}

/* An address the packet holds from bit shift up: a branch or waypoint update 2 in ARM state, 1 in
 * Thumb and ThumbEE (PTM-P3); an I-sync 1, bit 0 is the T bit (PTM-P8). */
static int refuse_unaligned(const struct tc_ptm_packet *p, const char *what, int shift, char *err, size_t errlen)
{
	return enc_asm_unaligned(p->address, shift, what, tc_ptm_isa_name(p->isa), err, errlen);
}

/* Thumb and ThumbEE share the address alignment and byte 5's selector; only an AltISA bit (exception
 * information's, a waypoint update's information byte) switches between them (PTM-P3, PTM-P4). */
static int refuse_altisa(const struct pe *e, const struct tc_ptm_packet *p, const char *what, char *err, size_t errlen)
{
	return enc_asm_altisa_missing(tc_ptm_isa_name(p->isa), tc_ptm_isa_name(e->last.isa), what, err, errlen);
}

/* A cycle count of k bytes (0: the shortest), or -1. */
static int cc_len(uint32_t cc, long k)
{
	int min = pe_cc_min_bytes(cc);
	if (k == 0)
		return min;
	return k >= min && k <= 5 ? (int)k : -1;
}

static int write_isync(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	int n = e->cfg.contextid_size, k = 0;
	if (refuse_unaligned(p, "an I-sync", 1, err, errlen))
		return -1;
	if (p->has_cc) {
		k = cc_len(p->cc, len ? (long)len - 6 - n : 0);
		if (k < 0)
			return refuse_len(err, errlen, "isync", len);
	} else if (len && len != (size_t)(6 + n)) {
		return refuse_len(err, errlen, "isync", len);
	}
	pe_put_isync(e, p->address, p->isa, p->reason, p->ns, p->hyp);
	if (p->has_cc)
		pe_put_cc(e, p->cc, k);
	pe_put_le(e, p->context_id, n);
	e->last.address = p->address;
	e->last.isa = p->isa;
	return 0;
}

static int write_atom(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	if (p->has_cc) {
		int k = cc_len(p->cc, (long)len);
		if (k < 0 || p->natoms != 1)
			return refuse_len(err, errlen, "atom", len);
		pe_put_atom_ca(e, p->atoms & 1, p->cc, k);
		return 0;
	}
	if (len > 1 || p->natoms < 1 || p->natoms > PE_MAX_ATOMS)
		return refuse_len(err, errlen, "atom", len);
	pe_put_byte(e, pe_atom_header(p->natoms, p->atoms));
	return 0;
}

/* The address bytes of a branch of len bytes (0: the shortest), with
 * *two (exception information in two bytes) and *cck (cycle count bytes);
 * -1 when no split fits. The address section is as short as LastState and
 * the header (bit 7: more address bytes) allow; bytes beyond the shortest
 * packet go to exception information's second byte first, then to the
 * cycle count, then to the address. */
static int branch_split(const struct pe *e, const struct tc_ptm_packet *p, size_t len, int *two, int *cck)
{
	int exc = p->has_exception, more = (p->header & 0x80) != 0;
	int k = pe_addr_min_bytes(e, p->address, p->isa, exc || more ? 2 : 1, exc);
	long rest;
	*two = exc && ((p->exception >> 4) != 0 || p->hyp);
	*cck = p->has_cc ? pe_cc_min_bytes(p->cc) : 0;
	if (!more && k > 1)
		return -1;
	if (len == 0)
		return k;
	rest = (long)len - k - (exc ? 1 + *two : 0) - *cck;
	if (rest < 0)
		return -1;
	if (rest > 0 && exc && !*two)
		*two = 1, rest--;
	while (rest > 0 && p->has_cc && *cck < 5)
		(*cck)++, rest--;
	k += (int)rest;
	return k <= 5 && (more || k == 1) ? k : -1;
}

static int write_branch(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	int two, cck, k = branch_split(e, p, len, &two, &cck);
	if (refuse_unaligned(p, "a branch", p->isa == tc_ptm_isa_arm ? 2 : 1, err, errlen))
		return -1;
	if (!p->has_exception && !pe_plain_branch_states(e, p->isa))
		return refuse_altisa(e, p, "a branch without exception information", err, errlen);
	if (k < 0)
		return refuse_len(err, errlen, "branch", len);
	pe_put_address(e, p->address, p->isa, k, p->has_exception);
	if (p->has_exception) {
		struct pe_exc x = { p->exception, p->ns, p->hyp };
		pe_put_exception(e, &x, p->isa, two);
	}
	if (p->has_cc)
		pe_put_cc(e, p->cc, cck);
	e->last.address = p->address;
	e->last.isa = p->isa;
	return 0;
}

static int write_waypoint(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	int k = len ? (int)len - 1 : pe_addr_min_bytes(e, p->address, p->isa, 1, 0), info = 0;
	if (len == 7 || (len == 0 && !pe_plain_branch_states(e, p->isa)))
		k = 5, info = 1;
	if (refuse_unaligned(p, "a waypoint", p->isa == tc_ptm_isa_arm ? 2 : 1, err, errlen))
		return -1;
	if (!info && !pe_plain_branch_states(e, p->isa))
		return refuse_altisa(e, p, "a waypoint update without its information byte", err, errlen);
	if (k < 1 || k > 5)
		return refuse_len(err, errlen, "waypoint", len);
	pe_put_waypoint(e, p->address, p->isa, k, info);
	return 0;
}

/* The timestamp bytes as few as LastState allows; bytes beyond the
 * shortest packet go to the cycle count first, then to the timestamp. */
static int write_timestamp(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	int maxb = e->cfg.ts64 ? 9 : 7, cck = p->has_cc ? pe_cc_min_bytes(p->cc) : 0;
	uint64_t g = pe_ts_code(e, p->value);
	int k = pe_ts_min_bytes(g, pe_ts_code(e, e->last.ts), maxb);
	long rest = len ? (long)len - 1 - k - cck : 0;
	if (!e->cfg.ts64 && p->value >> 48) {   /* 48 bits without ts64 (PTM-P9): the decoder reads no more */
		snprintf(err, errlen, "ts=0x%llx: the timestamp has 48 bits (ts64=0)", (unsigned long long)p->value);
		return -1;
	}
	while (rest > 0 && p->has_cc && cck < 5)
		cck++, rest--;
	if (rest < 0 || k + rest > maxb)
		return refuse_len(err, errlen, "timestamp", len);
	k += (int)rest;
	pe_put_byte(e, (p->header & 0x04) ? 0x46 : 0x42);   /* b01000x10; any other header is refused below */
	pe_put_ts(e, g, maxb, k);
	if (p->has_cc)
		pe_put_cc(e, p->cc, cck);
	e->last.ts = p->value;
	return 0;
}

/* The packets of a fixed length: A-sync (five or more zeros), trigger,
 * ignore, exception return, context ID, VMID. */
static int write_fixed(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	const char *name = tc_ptm_pkt_kind_name(p->h.kind);
	size_t want = p->h.kind == tc_ptm_pkt_context_id ? 1 + (size_t)e->cfg.contextid_size
		    : p->h.kind == tc_ptm_pkt_vmid ? 2 : 1;
	if (p->h.kind == tc_ptm_pkt_async) {
		if (len && len < 6)
			return refuse_len(err, errlen, name, len);
		pe_put_async(e, len ? (int)len - 1 : 5);
		return 0;
	}
	if (len && len != want)
		return refuse_len(err, errlen, name, len);
	if (p->h.kind == tc_ptm_pkt_context_id)
		pe_put_context_id(e, p->context_id);
	else if (p->h.kind == tc_ptm_pkt_vmid)
		pe_put_vmid(e, p->vmid);
	else
		pe_put_simple(e, p->h.kind);
	return 0;
}

/* Whether the packet has a cycle count is the configuration's: with cycle_accurate, a branch, an atom,
 * a timestamp and an I-sync other than a periodic one (reason 0) have one, and nothing else has
 * (PTM-P6, PTM-P7, PTM-P8, PTM-P9); a line that says otherwise would be read back as another. */
static int refuse_cc(const struct pe *e, const struct tc_ptm_packet *p, char *err, size_t errlen)
{
	int kind = p->h.kind, want = e->cfg.cycle_accurate &&
		(kind == tc_ptm_pkt_branch || kind == tc_ptm_pkt_atom || kind == tc_ptm_pkt_timestamp ||
		 (kind == tc_ptm_pkt_isync && p->reason != 0));
	if (p->has_cc == want)
		return 0;
	snprintf(err, errlen, want ? "no cc=: with cycle_accurate=%d this packet has a cycle count"
				   : "cc=: with cycle_accurate=%d this packet has no cycle count", e->cfg.cycle_accurate);
	return -1;
}

static int write_packet(struct pe *e, const struct tc_ptm_packet *p, size_t len, char *err, size_t errlen)
{
	if (p->h.kind != tc_ptm_pkt_error && p->h.kind != tc_ptm_pkt_warning && refuse_cc(e, p, err, errlen))
		return -1;
	switch (p->h.kind) {
	case tc_ptm_pkt_isync: return write_isync(e, p, len, err, errlen);
	case tc_ptm_pkt_atom: return write_atom(e, p, len, err, errlen);
	case tc_ptm_pkt_branch: return write_branch(e, p, len, err, errlen);
	case tc_ptm_pkt_waypoint: return write_waypoint(e, p, len, err, errlen);
	case tc_ptm_pkt_timestamp: return write_timestamp(e, p, len, err, errlen);
	case tc_ptm_pkt_error:
	case tc_ptm_pkt_warning:
		snprintf(err, errlen, "an %s item is no packet: asm writes packets only",
			 p->h.kind == tc_ptm_pkt_error ? "error" : "warning");
		return -1;
	default: return write_fixed(e, p, len, err, errlen);
	}
}

long pe_asm_write(void *wp, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		  size_t errlen)
{
	struct pe_asm *w = wp;
	const struct tc_ptm_packet *p = (const struct tc_ptm_packet *)item;
	if (p->h.kind != tc_ptm_pkt_error && p->h.kind != tc_ptm_pkt_warning && p->isa == tc_ptm_isa_jazelle) {
		snprintf(err, errlen, "isa=jazelle: the encoder writes no Jazelle state");
		return -1;
	}
	w->e.trace.len = 0;
	if (write_packet(&w->e, p, len, err, errlen))
		return -1;
	/* write_packet has checked the length (0: none asked); the header and the room are checked here. */
	return enc_asm_packet_out(&w->e.trace, p->header, 0, out, cap, err, errlen);
}

