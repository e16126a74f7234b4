/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: the ETMv3 reference decoder to the instruction level (L3) with a program image taken from the input.
 *
 * Property: for every configuration, program image and trace, decoding to
 * L3 gives no crash, hang, leak or undefined behaviour, and every L3 item
 * is what reference/etmv3/FORMAT.md "L3" says the packets give:
 *   1. image: tc_image_add keeps its contract (fuzz_common.c);
 *   2. provenance: a range carries the offset of an atom packet or LSiP
 *      I-sync (the packet whose atom put its first instruction in it) at or
 *      before the packet being analysed; an exception-return the offset of
 *      the most recent exception-exit packet, or of the one before when its
 *      item is still held (on A and R profile cores it is held with its
 *      instruction's range and follows that range, ERRATA ETM3-X4, so a
 *      later exception-exit packet that cannot join that range delivers it
 *      first; on ARMv7-M it comes from its own packet), in stream order,
 *      at most one per exception-exit packet; every other item
 *      the offset of the L1 record being analysed (warnings excepted), of a
 *      kind that packet's kind gives: exception from a branch address packet
 *      with an exception (a nonzero Exception field or the fifth-byte form);
 *      overflow / trace-on from an I-sync of reason 2 / 1 or 3; context from
 *      an I-sync, a branch address, Context ID or VMID packet; no-image from
 *      an atom packet or LSiP I-sync; error from an L1 error (its class) or
 *      an atom packet (no-address, ETM3-P27); cycle-count from a Cycle count
 *      packet or an I-sync with one; timestamp and trigger from their own;
 *   3. counts per packet: exactly one error item per L1 error, one
 *      timestamp (the value, cc=unknown), trigger, overflow or trace-on per
 *      such packet, one cycle-count item per packet with a count (the count;
 *      unknown exactly for 0 and where ETM3-P25 says the count must be
 *      ignored: the most recent non-periodic I-sync's of reason 2 or 3 in
 *      ETMv3.0, of reason 2 in ETMv3.5), after every other item of the
 *      packet; one exception per exception packet after an I-sync, none
 *      before, its type Exception[8:0] or, for the fifth-byte form, the code
 *      ETM3-P15 gives EEE or the vector offset; at most one exception-return
 *      per exception-exit packet; at most 40 items per packet;
 *   4. walking: no range or no-image item before the first I-sync or
 *      between an error and the next I-sync (ETM3-P5, P22): a range's
 *      packet comes after the last error and at or after the first I-sync
 *      since; the ranges hold at most one instruction per E or N atom and
 *      LSiP I-sync (ETM3-P13: two atoms for one instruction at most);
 *   5. every range: a32 or t32, n >= 1 instructions walked from first by
 *      their sizes (reference/insn.c, the classifier of stage 3) to last,
 *      all in the image, below 2^32; no branch but the last; the last a
 *      branch (type dir or indir) with taken E or N exactly when the range
 *      says so, else type other and taken none; a no-image item names an
 *      address where the image holds no whole instruction, in a32 or t32;
 *   6. context items only on a change, el 0 or 2, sf and nse 0, with the
 *      context ID and VMID the packets gave last (I-sync, Context ID, VMID);
 *      the one of a branch address packet has its NS and Hyp, an I-sync's
 *      last one the I-sync's (an LSiP I-sync's earlier one the data
 *      instruction's, ETM3-P18);
 *   7. streaming (flag bit 7): the same L1 and L3 fed whole and in chunks.
 *
 * Input: the ETMv3 configuration, one byte per key (fuzz.h
 * tc_fuzz_proto_config); a flags byte: bits 2:0 raw regions (0–7), bit 4
 * no image at all (tc_etmv3_set_image(NULL)), bit 7 the streaming check; a
 * chunking byte (tc_fuzz_chunks_init); the regions (fuzz.h
 * tc_fuzz_read_regions); the rest is the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "insn.h"   /* tc_insn_decode: sizes and branches of the instructions in a range */
#include "tracecert/etmv3.h"
#include "tracecert/etmv3_config.h"

#define MAX_L3_PER_PACKET 40

/* The L1 record whose L3 items are arriving, and what they were so far. */
struct packet {
	struct tc_etmv3_packet p;
	int valid;
	int walking;              /* an I-sync since the last error */
	int walking_before;       /* so before this packet, since walk_from_before */
	uint64_t walk_from_before;
	int items;
	int count[tc_l3_kind_count];
	int context_items;
	struct tc_context last_context;
};

/* Offsets of the atom packets and LSiP I-syncs, in stream order (a range's
 * packet). Only the buffer outlives an input. */
static struct {
	uint64_t *off;
	size_t cap;
} walkers;

struct run {
	const struct tc_image *image;
	const struct tc_etmv3_config *cfg;
	size_t len;
	int walking;              /* an I-sync since the start or the last error */
	uint64_t walk_from;       /* the offset of that I-sync */
	int cc_ignored;           /* ETM3-P25: the most recent non-periodic I-sync's count is ignored */
	struct packet cur;
	size_t nwalkers;
	uint64_t instructions;    /* in the ranges delivered */
	uint64_t atoms;           /* E and N atoms and LSiP I-syncs seen */
	int exit_seen;            /* an exception-exit packet, at exit_offset */
	uint64_t exit_offset;
	int exit_delivered;       /* its exception-return item came */
	int exit_before_pending;  /* the one before, at exit_before, whose item has not come */
	uint64_t exit_before;
	int last_was_range;       /* the item before is a range */
	uint32_t context_id;      /* as the packets gave them */
	uint32_t vmid;
	struct tc_context ctx;    /* the last context item */
	int have_ctx;
	struct tc_fuzz_hash l1, l3;
	int verbose;
};

static void hash_words(struct tc_fuzz_hash *h, const uint64_t *w, size_t n)
{
	uint64_t v = h->h ? h->h : UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < n; i++) {
		v ^= w[i];
		v *= UINT64_C(0x100000001b3);
		v ^= v >> 29;
	}
	h->h = v;
	h->n++;
}

static void hash_packet(struct tc_fuzz_hash *h, const struct tc_etmv3_packet *p)
{
	const uint64_t w[] = {
		p->h.offset,
		(uint64_t)p->h.kind << 32 | (uint64_t)p->header << 24 | (uint64_t)p->error << 16 |
			(uint64_t)p->field << 8 | p->natoms,
		(uint64_t)p->isa << 48 | (uint64_t)p->ns << 40 | (uint64_t)p->hyp << 32 | (uint64_t)p->reason << 24 |
			(uint64_t)p->lsip << 16 | (uint64_t)p->has_address << 8 | (uint64_t)p->has_cc << 4 | p->has_ctxid,
		(uint64_t)p->exc_form << 48 | (uint64_t)p->cancel << 40 | (uint64_t)p->resume << 32 |
			(uint64_t)p->be << 24 | (uint64_t)p->has_value << 16 | (uint64_t)p->size << 8 | p->tag,
		(uint64_t)p->ts_r << 32 | (uint64_t)p->data_isa << 16 | (uint64_t)p->data_ns << 8 | p->data_hyp,
		(uint64_t)p->exception << 32 | p->atoms, (uint64_t)p->waits << 32 | p->address,
		(uint64_t)p->data_insn << 32 | p->data_address, (uint64_t)p->value << 32 | p->context_id,
		(uint64_t)p->vmid << 32 | p->cc, p->ts,
	};
	hash_words(h, w, sizeof w / sizeof w[0]);
}

static void hash_l3(struct tc_fuzz_hash *h, const struct tc_l3 *x)
{
	const uint64_t w[] = {
		x->h.offset, x->first, x->last, x->count, x->address, x->value,
		(uint64_t)x->ctx.context_id << 32 | x->ctx.vmid,
		(uint64_t)x->ctx.el | (uint64_t)x->ctx.ns << 8 | (uint64_t)x->ctx.sf << 16 | (uint64_t)x->ctx.nse << 24 |
			(uint64_t)x->h.kind << 32 | (uint64_t)x->isa << 40 | (uint64_t)x->last_type << 48 |
			(uint64_t)x->taken << 56,
		(uint64_t)x->type | (uint64_t)x->unknown << 16 | (uint64_t)x->error << 24,
	};
	hash_words(h, w, sizeof w / sizeof w[0]);
}

static int is_branch_type(int type)
{
	return type == tc_insn_branch_dir || type == tc_insn_branch_indir;
}

/* A branch address packet that traces an exception (ETM3-P15). */
static int is_exception_packet(const struct tc_etmv3_packet *p)
{
	return p->h.kind == tc_etmv3_pkt_branch &&
	       (p->exc_form == tc_etmv3_exc_byte5 || (p->exc_form == tc_etmv3_exc_bytes && p->exception != 0));
}

/* The exception type ETM3-P15 gives a packet: Exception[8:0] as traced; for
 * the fifth-byte form the Table 7-12 code its EEE names, for EEE = 000 the
 * one its vector offset names (the address modulo 32, the vector table's
 * alignment), any other offset 0. */
static unsigned expected_type(const struct tc_etmv3_packet *p)
{
	static const uint16_t by_eee[8] = { 0, 0xe, 0, 0, 0x5, 0xf, 0x4, 0x1 };
	static const uint16_t by_offset[5] = { 0x8, 0x9, 0xa, 0xb, 0xc };
	uint32_t off = p->address & 0x1f;
	if (p->exc_form == tc_etmv3_exc_bytes)
		return p->exception;
	if (p->exception & 7)
		return by_eee[p->exception & 7];
	return off <= 0x10 && off % 4 == 0 ? by_offset[off / 4] : 0;
}

/* ---- Checks when a packet's L3 items are complete ------------------------- */

static int expect_count(const struct packet *c, int kind)
{
	const struct tc_etmv3_packet *p = &c->p;
	switch (kind) {
	case tc_l3_timestamp: return p->h.kind == tc_etmv3_pkt_timestamp;
	case tc_l3_trigger: return p->h.kind == tc_etmv3_pkt_trigger;
	case tc_l3_overflow: return p->h.kind == tc_etmv3_pkt_isync && p->reason == 2;
	case tc_l3_trace_on: return p->h.kind == tc_etmv3_pkt_isync && (p->reason == 1 || p->reason == 3);
	case tc_l3_cycle_count:
		return p->h.kind == tc_etmv3_pkt_cycle_count || (p->h.kind == tc_etmv3_pkt_isync && p->has_cc);
	case tc_l3_exception: return is_exception_packet(p) && c->walking;
	default: return -1;   /* not a fixed count */
	}
}

static void end_packet(struct run *r)
{
	struct packet *c = &r->cur;
	static const int fixed[] = { tc_l3_timestamp, tc_l3_trigger, tc_l3_overflow, tc_l3_trace_on,
				     tc_l3_cycle_count, tc_l3_exception };
	if (!c->valid)
		return;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		TC_FUZZ_CHECK(c->count[fixed[i]] == expect_count(c, fixed[i]),
			      "packet @%llu (%s): %d %s items, %d expected", (unsigned long long)c->p.h.offset,
			      tc_etmv3_pkt_kind_name(c->p.h.kind), c->count[fixed[i]], tc_l3_kind_name(fixed[i]),
			      expect_count(c, fixed[i]));
	if (c->p.h.kind == tc_etmv3_pkt_error)
		TC_FUZZ_CHECK(c->count[tc_l3_error] == 1, "error packet @%llu: %d error items",
			      (unsigned long long)c->p.h.offset, c->count[tc_l3_error]);
	else
		TC_FUZZ_CHECK(c->count[tc_l3_error] <= (c->p.h.kind == tc_etmv3_pkt_atom),
			      "packet @%llu (%s): %d error items", (unsigned long long)c->p.h.offset,
			      tc_etmv3_pkt_kind_name(c->p.h.kind), c->count[tc_l3_error]);
	if (c->context_items && c->p.h.kind == tc_etmv3_pkt_isync)   /* the I-sync's own state is the last */
		TC_FUZZ_CHECK(c->last_context.ns == c->p.ns && c->last_context.el == (c->p.hyp ? 2 : 0),
			      "I-sync @%llu: its last context ns %u el %u, the packet ns %u hyp %u",
			      (unsigned long long)c->p.h.offset, c->last_context.ns, c->last_context.el, c->p.ns,
			      c->p.hyp);
}

/* ---- L1 --------------------------------------------------------------------------- */

static void note_walker(struct run *r, uint64_t off)
{
	if (r->nwalkers == walkers.cap) {
		walkers.cap = walkers.cap ? 2 * walkers.cap : 1024;
		walkers.off = realloc(walkers.off, walkers.cap * sizeof *walkers.off);
		TC_FUZZ_CHECK(walkers.off != NULL, "out of memory");
	}
	walkers.off[r->nwalkers++] = off;
}

static int is_walker(const struct run *r, uint64_t off)
{
	size_t lo = 0, hi = r->nwalkers;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (walkers.off[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nwalkers && walkers.off[lo] == off;
}

/* ETM3-P25: reasons 2 and 3 in ETMv3.0, reason 2 in ETMv3.5. */
static int count_ignored(const struct tc_etmv3_config *cfg, int reason)
{
	return cfg->version == 0 ? reason == 2 || reason == 3 : cfg->version == 5 && reason == 2;
}

static void note_packet(struct run *r, const struct tc_etmv3_packet *p)
{
	int en = 0;
	if (p->h.kind == tc_etmv3_pkt_isync) {
		if (!r->walking)
			r->walk_from = p->h.offset;
		r->walking = 1;
		if (p->reason != 0)
			r->cc_ignored = count_ignored(r->cfg, p->reason);
		if (p->has_ctxid)
			r->context_id = p->context_id;
		if (p->lsip) {
			note_walker(r, p->h.offset);
			r->atoms++;
		}
	}
	if (p->h.kind == tc_etmv3_pkt_error) {
		r->walking = 0;
		r->cc_ignored = 0;
	}
	if (p->h.kind == tc_etmv3_pkt_atom) {
		note_walker(r, p->h.offset);
		for (int i = 0; i < p->natoms && i < 32; i++)
			en += !((p->waits >> i) & 1);
		r->atoms += (uint64_t)en;
	}
	if (p->h.kind == tc_etmv3_pkt_context_id)
		r->context_id = p->context_id;
	if (p->h.kind == tc_etmv3_pkt_vmid)
		r->vmid = p->vmid;
	if (p->h.kind == tc_etmv3_pkt_exception_exit) {
		r->exit_before_pending = r->exit_seen && !r->exit_delivered;
		r->exit_before = r->exit_offset;
		r->exit_seen = 1;
		r->exit_offset = p->h.offset;
		r->exit_delivered = 0;
	}
}

static void on_packet(void *ctx, const struct tc_etmv3_packet *p)
{
	struct run *r = ctx;
	hash_packet(&r->l1, p);
	if (p->h.kind == tc_etmv3_pkt_warning)
		return;
	end_packet(r);
	memset(&r->cur, 0, sizeof r->cur);
	r->cur.p = *p;
	r->cur.valid = 1;
	r->cur.walking_before = r->walking;
	r->cur.walk_from_before = r->walk_from;
	note_packet(r, p);
	r->cur.walking = r->walking;
}

/* ---- L3 ---------------------------------------------------------------------------- */

/* Whether an item of this kind may come from the current packet (ranges
 * and exception-return items: check_offset). */
static int kind_allowed(const struct packet *c, int kind)
{
	int k = c->p.h.kind, lsip = k == tc_etmv3_pkt_isync && c->p.lsip;
	switch (kind) {
	case tc_l3_no_image: return (k == tc_etmv3_pkt_atom || lsip) && c->walking;
	case tc_l3_exception: return is_exception_packet(&c->p) && c->walking;
	case tc_l3_context:
		return k == tc_etmv3_pkt_isync || k == tc_etmv3_pkt_branch || k == tc_etmv3_pkt_context_id ||
		       k == tc_etmv3_pkt_vmid;
	case tc_l3_error: return k == tc_etmv3_pkt_error || k == tc_etmv3_pkt_atom;
	case tc_l3_overflow:
	case tc_l3_trace_on:
	case tc_l3_timestamp:
	case tc_l3_trigger:
	case tc_l3_cycle_count: return expect_count(c, kind) == 1;
	default: return 0;   /* walk-limit and the kinds of other protocols */
	}
}

/* The offset an item carries, by kind. */
static void check_offset(struct run *r, const struct tc_l3 *x)
{
	struct packet *c = &r->cur;
	unsigned long long off = (unsigned long long)x->h.offset;
	if (x->h.kind == tc_l3_range) {
		TC_FUZZ_CHECK(is_walker(r, x->h.offset) && x->h.offset <= c->p.h.offset,
			      "range @%llu: no atom packet or LSiP I-sync there (analysing @%llu)", off,
			      (unsigned long long)c->p.h.offset);
		/* an error packet delivers the range before it first */
		TC_FUZZ_CHECK((c->walking_before && x->h.offset >= c->walk_from_before) ||
				      (r->walking && x->h.offset >= r->walk_from),
			      "range @%llu while not walking or from before the I-sync @%llu", off,
			      (unsigned long long)r->walk_from);
		return;
	}
	if (x->h.kind == tc_l3_exception_return) {
		int own = c->p.h.kind == tc_etmv3_pkt_exception_exit && x->h.offset == c->p.h.offset;
		int last = r->exit_seen && x->h.offset == r->exit_offset && !r->exit_delivered;
		int before = r->exit_before_pending && x->h.offset == r->exit_before;
		TC_FUZZ_CHECK(last || before,
			      "exception-return @%llu: not the item of the last exception-exit packet or of the one "
			      "before it held with its range, or a second one, or out of order", off);
		TC_FUZZ_CHECK(own || (!r->cfg->profile_m && r->last_was_range),
			      "exception-return @%llu while analysing @%llu, not after its range", off,
			      (unsigned long long)c->p.h.offset);
		r->exit_before_pending = 0;   /* in stream order: the one before cannot follow */
		if (last)
			r->exit_delivered = 1;
		return;
	}
	TC_FUZZ_CHECK(x->h.offset == c->p.h.offset, "L3 %s @%llu, the packet analysed is @%llu",
		      tc_l3_kind_name(x->h.kind), off, (unsigned long long)c->p.h.offset);
	TC_FUZZ_CHECK(kind_allowed(c, x->h.kind), "L3 %s @%llu from a %s packet (walking %d)",
		      tc_l3_kind_name(x->h.kind), off, tc_etmv3_pkt_kind_name(c->p.h.kind), c->walking);
}

/* A range: its instructions walked from first by their sizes. */
static void check_range(struct run *r, const struct tc_l3 *x)
{
	uint64_t at = x->first;
	struct tc_insn inst;
	memset(&inst, 0, sizeof inst);
	TC_FUZZ_CHECK((x->isa == tc_isa_a32 || x->isa == tc_isa_t32) && x->count >= 1 && x->last >= x->first &&
			      x->last < UINT64_C(0x100000000),
		      "range @%llu: isa %u first 0x%llx last 0x%llx n=%llu", (unsigned long long)x->h.offset, x->isa,
		      (unsigned long long)x->first, (unsigned long long)x->last, (unsigned long long)x->count);
	for (uint64_t i = 0; i < x->count; i++) {
		size_t avail = 0;
		const uint8_t *b = tc_image_lookup(r->image, at, &avail);
		int size = b ? tc_insn_decode(x->isa, at, b, avail, 0, &inst) : 0;
		TC_FUZZ_CHECK(size > 0, "range @%llu first 0x%llx n=%llu: instruction %llu at 0x%llx is not in the image",
			      (unsigned long long)x->h.offset, (unsigned long long)x->first,
			      (unsigned long long)x->count, (unsigned long long)i, (unsigned long long)at);
		if (i + 1 == x->count)
			break;
		TC_FUZZ_CHECK(!is_branch_type(inst.type), "range @%llu first 0x%llx: a branch at 0x%llx before its end",
			      (unsigned long long)x->h.offset, (unsigned long long)x->first, (unsigned long long)at);
		at += (uint64_t)size;
	}
	TC_FUZZ_CHECK(at == x->last, "range @%llu first 0x%llx n=%llu ends at 0x%llx, not 0x%llx",
		      (unsigned long long)x->h.offset, (unsigned long long)x->first, (unsigned long long)x->count,
		      (unsigned long long)at, (unsigned long long)x->last);
	if (is_branch_type(x->last_type))
		TC_FUZZ_CHECK(inst.type == x->last_type && (x->taken == tc_taken_e || x->taken == tc_taken_n),
			      "range @%llu last 0x%llx: type %u taken %u, the instruction is of type %u",
			      (unsigned long long)x->h.offset, (unsigned long long)x->last, x->last_type, x->taken,
			      inst.type);
	else
		TC_FUZZ_CHECK(x->last_type == tc_insn_other && x->taken == tc_taken_none && !is_branch_type(inst.type),
			      "range @%llu last 0x%llx: type %u taken %u, the instruction is of type %u",
			      (unsigned long long)x->h.offset, (unsigned long long)x->last, x->last_type, x->taken,
			      inst.type);
	r->instructions += x->count;
	TC_FUZZ_CHECK(r->instructions <= r->atoms, "%llu instructions in ranges for %llu E/N atoms and LSiP I-syncs",
		      (unsigned long long)r->instructions, (unsigned long long)r->atoms);
}

static void check_context(struct run *r, const struct tc_l3 *x)
{
	const struct tc_etmv3_packet *p = &r->cur.p;
	const struct tc_context *c = &x->ctx;
	unsigned long long off = (unsigned long long)x->h.offset;
	TC_FUZZ_CHECK((c->el == 0 || c->el == 2) && c->ns <= 1 && c->sf == 0 && c->nse == 0,
		      "context @%llu: el %u ns %u sf %u nse %u", off, c->el, c->ns, c->sf, c->nse);
	TC_FUZZ_CHECK(!r->have_ctx || memcmp(c, &r->ctx, sizeof *c), "context @%llu does not change the context", off);
	TC_FUZZ_CHECK(c->context_id == r->context_id && c->vmid == r->vmid,
		      "context @%llu: context ID 0x%x VMID 0x%x, the packets gave 0x%x and 0x%x", off, c->context_id,
		      c->vmid, r->context_id, r->vmid);
	if (p->h.kind == tc_etmv3_pkt_branch)
		TC_FUZZ_CHECK(c->ns == p->ns && c->el == (p->hyp ? 2 : 0),
			      "context @%llu: ns %u el %u, the packet ns %u hyp %u", off, c->ns, c->el, p->ns, p->hyp);
	if (p->h.kind == tc_etmv3_pkt_isync && p->lsip && r->cur.context_items == 0 && !(c->ns == p->ns && c->el == (p->hyp ? 2 : 0)))
		TC_FUZZ_CHECK(c->ns == p->data_ns && c->el == (p->data_hyp ? 2 : 0),
			      "context @%llu: ns %u el %u, neither the data instruction's nor the current address's", off,
			      c->ns, c->el);
	r->ctx = *c;
	r->have_ctx = 1;
	r->cur.context_items++;
	r->cur.last_context = *c;
}

/* A no-image item: the image holds no whole instruction at the address. */
static void check_no_image(const struct run *r, const struct tc_l3 *x)
{
	size_t avail = 0;
	const uint8_t *b = tc_image_lookup(r->image, x->address, &avail);
	struct tc_insn inst;
	TC_FUZZ_CHECK(x->isa == tc_isa_a32 || x->isa == tc_isa_t32, "no-image @%llu isa %u",
		      (unsigned long long)x->h.offset, x->isa);
	TC_FUZZ_CHECK(x->address < UINT64_C(0x100000000) &&
			      (!b || tc_insn_decode(x->isa, x->address, b, avail, 0, &inst) == 0),
		      "no-image @%llu at 0x%llx, where the image has an instruction", (unsigned long long)x->h.offset,
		      (unsigned long long)x->address);
}

/* The values an item repeats from its packet. */
static void check_values(const struct run *r, const struct tc_l3 *x)
{
	const struct tc_etmv3_packet *p = &r->cur.p;
	unsigned long long off = (unsigned long long)x->h.offset;
	switch (x->h.kind) {
	case tc_l3_error:
		TC_FUZZ_CHECK(p->h.kind == tc_etmv3_pkt_error ? x->error == p->error : x->error == tc_etmv3_err_no_address,
			      "error item @%llu class %u from a %s packet (class %u)", off, x->error,
			      tc_etmv3_pkt_kind_name(p->h.kind), p->error);
		break;
	case tc_l3_exception:
		TC_FUZZ_CHECK(x->type == expected_type(p) && (x->unknown || x->address < UINT64_C(0x100000000)),
			      "exception @%llu type 0x%x ret 0x%llx, the packet's type 0x%x", off, x->type,
			      (unsigned long long)x->address, expected_type(p));
		break;
	case tc_l3_timestamp:
		TC_FUZZ_CHECK(x->value == p->ts && x->unknown == 1, "timestamp @%llu ts 0x%llx unknown %u; the packet's 0x%llx",
			      off, (unsigned long long)x->value, x->unknown, (unsigned long long)p->ts);
		break;
	case tc_l3_cycle_count:
		TC_FUZZ_CHECK(x->count == p->cc && x->unknown == (p->cc == 0 || r->cc_ignored),
			      "cycle-count @%llu %llu unknown %u; the packet's %u, ignored %d", off,
			      (unsigned long long)x->count, x->unknown, p->cc, r->cc_ignored);
		break;
	default:
		break;
	}
	if (x->h.kind != tc_l3_error)
		TC_FUZZ_CHECK(x->error == 0, "%s item @%llu with error class %u", tc_l3_kind_name(x->h.kind), off, x->error);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct run *r = ctx;
	struct packet *c = &r->cur;
	TC_FUZZ_CHECK(x->h.size == sizeof *x && x->h.protocol == tc_proto_etmv3 && x->h.kind < tc_l3_kind_count,
		      "L3 item: size %u protocol %u kind %u", x->h.size, x->h.protocol, x->h.kind);
	TC_FUZZ_CHECK(c->valid, "L3 %s @%llu before any packet", tc_l3_kind_name(x->h.kind),
		      (unsigned long long)x->h.offset);
	check_offset(r, x);
	TC_FUZZ_CHECK(c->count[tc_l3_cycle_count] == 0, "L3 %s @%llu after the packet's cycle count",
		      tc_l3_kind_name(x->h.kind), (unsigned long long)x->h.offset);
	TC_FUZZ_CHECK(++c->items <= MAX_L3_PER_PACKET, "more than %d L3 items while analysing the packet @%llu",
		      MAX_L3_PER_PACKET, (unsigned long long)c->p.h.offset);
	if (x->h.kind != tc_l3_range && x->h.kind != tc_l3_exception_return)
		c->count[x->h.kind]++;
	check_values(r, x);
	if (x->h.kind == tc_l3_range)
		check_range(r, x);
	if (x->h.kind == tc_l3_context)
		check_context(r, x);
	if (x->h.kind == tc_l3_no_image)
		check_no_image(r, x);
	r->last_was_range = x->h.kind == tc_l3_range;
	hash_l3(&r->l3, x);
	if (r->verbose) {
		char buf[TC_FUZZ_LINE];
		tc_etmv3_format_l3(buf, sizeof buf, x);
		fprintf(stderr, "  L3 %s\n", buf);
	}
}

/* ---- Decoding ---------------------------------------------------------------------------- */

static void decode(const struct tc_etmv3_config *cfg, const struct tc_image *image, const uint8_t *trace,
		   struct run *r, int seed)
{
	struct tc_etmv3_sink sink = { r, on_packet, on_l3 };
	struct tc_etmv3_decoder *d = tc_etmv3_alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "tc_etmv3_alloc refused a configuration tc_etmv3_config_check accepts");
	TC_FUZZ_CHECK(tc_etmv3_set_image(d, image) == tc_etmv3_ok, "set_image");
	if (seed < 0) {
		TC_FUZZ_CHECK(tc_etmv3_feed(d, trace, r->len) == tc_etmv3_ok, "feed");
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, (uint8_t)seed);
		while (i < r->len) {
			size_t n = tc_fuzz_chunk_next(&c, r->len - i);
			TC_FUZZ_CHECK(tc_etmv3_feed(d, trace + i, n) == tc_etmv3_ok, "feed");
			i += n;
		}
	}
	TC_FUZZ_CHECK(tc_etmv3_finish(d) == tc_etmv3_ok, "finish");
	end_packet(r);
	tc_etmv3_free(d);
}

static void reset(struct run *r, const struct tc_etmv3_config *cfg, const struct tc_image *image, size_t len)
{
	memset(r, 0, sizeof *r);
	r->cfg = cfg;
	r->image = image;
	r->len = len;
}

/* Whole against chunked: prints both, then fails. */
static void streaming(const struct tc_etmv3_config *cfg, const struct tc_image *image, const uint8_t *trace,
		      const struct run *whole, uint8_t seed)
{
	struct run chunked;
	reset(&chunked, cfg, image, whole->len);
	decode(cfg, image, trace, &chunked, seed);
	if (whole->l1.h == chunked.l1.h && whole->l1.n == chunked.l1.n && whole->l3.h == chunked.l3.h &&
	    whole->l3.n == chunked.l3.n)
		return;
	fprintf(stderr, "whole:\n");
	reset(&chunked, cfg, image, whole->len);
	chunked.verbose = 1;
	decode(cfg, image, trace, &chunked, -1);
	fprintf(stderr, "chunked, chunk byte 0x%02x:\n", seed);
	reset(&chunked, cfg, image, whole->len);
	chunked.verbose = 1;
	decode(cfg, image, trace, &chunked, seed);
	TC_FUZZ_CHECK(0, "streaming: whole and chunked differ (L1 %llu/%llu records, L3 %llu/%llu items)",
		      (unsigned long long)whole->l1.n, (unsigned long long)chunked.l1.n,
		      (unsigned long long)whole->l3.n, (unsigned long long)chunked.l3.n);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct tc_protocol *proto = tc_protocol_find("etmv3");
	struct tc_fuzz_in in = { data, size };
	struct tc_etmv3_config cfg;
	struct tc_image img;
	struct run whole;
	uint8_t flags, seed;
	if (size < (size_t)proto->nkeys + 2)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	flags = tc_fuzz_u8(&in);
	seed = tc_fuzz_u8(&in);
	if (tc_etmv3_config_check(&cfg, NULL, 0))
		return 0;   /* refusals: fuzz/etmv3/parse.c */
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, flags & 7, &img);
	tc_fuzz_check_image(&img);
	reset(&whole, &cfg, (flags & 0x10) ? NULL : &img, in.n);
	decode(&cfg, whole.image, in.p, &whole, -1);
	if (flags & 0x80)
		streaming(&cfg, whole.image, in.p, &whole, seed);
	tc_image_free(&img);
	return 0;
}
