/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.c — fuzz harness: the PTM reference decoder to the instruction level (L3) with a program image taken from the input.
 *
 * Property: for every configuration, program image and trace, decoding to
 * L3 gives no crash, hang, leak or undefined behaviour, and every L3 item
 * is what reference/ptm/FORMAT.md "L3" says the packet it comes from gives:
 *   1. image: tc_image_add keeps its contract (fuzz_common.c);
 *   2. provenance: every L3 item carries the offset of the L1 record being
 *      analysed (the last packet or error; warnings excepted), and its kind is
 *      one that packet's kind gives (FORMAT.md "How the PTM's packets map
 *      onto it"): ranges, no-image and walk-limit from atoms, branch address
 *      packets without exception and waypoint updates; exception from a
 *      branch address packet with a non-zero Exception; overflow / trace-on
 *      from an I-sync of reason 2 / 1 or 3; context from I-sync, branch
 *      address, Context ID, VMID and atoms (a return stack entry's security
 *      state, PTM-S2); timestamp, trigger, exception-return, error from
 *      their own packets; cycle-count from a packet with a cycle count;
 *   3. counts per packet: exactly one error item per L1 error (same class),
 *      one timestamp (same value and cycle count), trigger, exception-return,
 *      overflow or trace-on per such packet, one cycle-count item per packet
 *      with a count (same value, after everything else of the packet,
 *      PTM-P17), one exception (same type) per exception packet after an
 *      I-sync; at most one range ending in a waypoint per atom, in atom order
 *      with taken = the atom, at most one (taken=E) per branch address
 *      packet, none for a waypoint update; at most 24 items per packet (five
 *      atoms, each walk at most two ranges — split at 2^32, PTM-P20 — a
 *      no-image and a context, plus overflow/trace-on, context and cycle
 *      count);
 *   4. walking: no range, no-image or walk-limit before the first I-sync
 *      or between an error and the next I-sync (PTM-P5);
 *   5. every range: a32 or t32, n >= 1 instructions walked from first by
 *      their sizes (reference/insn.c, the instruction classifier of stage
 *      3) to last, all in the image, below 2^32 (PTM-P20), none but the last a
 *      waypoint (PTM-P11); the last a waypoint of type dir/indir/isb with
 *      taken E or N exactly when the range says so, else type other and
 *      taken none; a no-image item names an address where the image holds
 *      no whole instruction;
 *   6. context items only on a change, el 0 or 2, sf and nse 0; the one of
 *      an I-sync or branch address packet has its NS and Hyp, the one of a
 *      Context ID / VMID packet its value;
 *   7. streaming (flag bit 7): the same L1 and L3 fed whole and in chunks.
 *
 * Input: the PTM configuration, one byte per key (fuzz.h
 * tc_fuzz_proto_config; walk_limit is one of them); a flags byte: bits 2:0
 * raw regions (0–7), bit 4 no image at all (tc_ptm_set_image(NULL)),
 * bit 7 the streaming check; a chunking byte (tc_fuzz_chunks_init); the
 * regions (fuzz.h tc_fuzz_read_regions); the rest is the trace.
 */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "insn.h"   /* tc_insn_decode: sizes and waypoints of the instructions in a range */
#include "tracecert/ptm.h"
#include "tracecert/ptm_config.h"

#define MAX_L3_PER_PACKET 24

/* The L1 record whose L3 items are arriving, and what they were so far. */
struct packet {
	struct tc_ptm_packet p;
	int valid;
	int walking;              /* ranges may come from it (an I-sync since the last error) */
	int items;
	int waypoints;            /* ranges ending in a waypoint */
	int count[tc_l3_kind_count];
};

struct run {
	const struct tc_image *image;
	size_t len;
	int walking;              /* an I-sync since the start or the last error */
	struct packet cur;
	uint64_t packets;
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

static void hash_packet(struct tc_fuzz_hash *h, const struct tc_ptm_packet *p)
{
	const uint64_t w[] = {
		p->h.offset, (uint64_t)p->h.kind << 32 | (uint64_t)p->header << 24 | (uint64_t)p->error << 16 |
				     (uint64_t)p->field << 8 | p->natoms,
		(uint64_t)p->isa << 40 | (uint64_t)p->ns << 32 | (uint64_t)p->hyp << 24 | (uint64_t)p->reason << 16 |
			(uint64_t)p->has_exception << 8 | (uint64_t)p->has_cc << 4 | p->has_ctxid,
		(uint64_t)p->exception << 32 | p->atoms, (uint64_t)p->address << 32 | p->context_id,
		(uint64_t)p->vmid << 32 | p->cc, p->value,
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
		(uint64_t)x->type | (uint64_t)x->unknown << 8 | (uint64_t)x->error << 16,
	};
	hash_words(h, w, sizeof w / sizeof w[0]);
}

static int is_waypoint_type(int type)
{
	return type == tc_insn_branch_dir || type == tc_insn_branch_indir || type == tc_insn_isb;
}

/* ---- Checks when a packet's L3 items are complete ------------------------- */

static int expect_count(const struct packet *c, int kind)
{
	const struct tc_ptm_packet *p = &c->p;
	switch (kind) {
	case tc_l3_error: return p->h.kind == tc_ptm_pkt_error;
	case tc_l3_timestamp: return p->h.kind == tc_ptm_pkt_timestamp;
	case tc_l3_trigger: return p->h.kind == tc_ptm_pkt_trigger;
	case tc_l3_exception_return: return p->h.kind == tc_ptm_pkt_exception_return;
	case tc_l3_overflow: return p->h.kind == tc_ptm_pkt_isync && p->reason == 2;
	case tc_l3_trace_on: return p->h.kind == tc_ptm_pkt_isync && (p->reason == 1 || p->reason == 3);
	case tc_l3_cycle_count:
		return p->has_cc && p->h.kind != tc_ptm_pkt_timestamp && p->h.kind != tc_ptm_pkt_error;
	default: return -1;   /* not a fixed count */
	}
}

static void end_packet(struct run *r)
{
	struct packet *c = &r->cur;
	static const int fixed[] = { tc_l3_error, tc_l3_timestamp, tc_l3_trigger, tc_l3_exception_return,
				     tc_l3_overflow, tc_l3_trace_on, tc_l3_cycle_count };
	if (!c->valid)
		return;
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		TC_FUZZ_CHECK(c->count[fixed[i]] == expect_count(c, fixed[i]),
			      "packet @%llu (%s): %d %s items, %d expected", (unsigned long long)c->p.h.offset,
			      tc_ptm_pkt_kind_name(c->p.h.kind), c->count[fixed[i]], tc_l3_kind_name(fixed[i]),
			      expect_count(c, fixed[i]));
	if (c->p.h.kind == tc_ptm_pkt_branch && c->p.has_exception && c->p.exception != 0)
		TC_FUZZ_CHECK(c->count[tc_l3_exception] == (c->walking ? 1 : 0),
			      "exception packet @%llu: %d exception items", (unsigned long long)c->p.h.offset,
			      c->count[tc_l3_exception]);
}

/* ---- L1 --------------------------------------------------------------------------- */

static void on_packet(void *ctx, const struct tc_ptm_packet *p)
{
	struct run *r = ctx;
	hash_packet(&r->l1, p);
	if (p->h.kind == tc_ptm_pkt_warning)
		return;
	end_packet(r);
	memset(&r->cur, 0, sizeof r->cur);
	r->cur.p = *p;
	r->cur.valid = 1;
	r->packets++;
	if (p->h.kind == tc_ptm_pkt_isync)
		r->walking = 1;
	if (p->h.kind == tc_ptm_pkt_error)
		r->walking = 0;
	r->cur.walking = r->walking;
}

/* ---- L3 ---------------------------------------------------------------------------- */

/* Whether an L3 item of this kind may come from the current packet. */
static int kind_allowed(const struct packet *c, int kind)
{
	int k = c->p.h.kind, exc = k == tc_ptm_pkt_branch && c->p.has_exception && c->p.exception != 0;
	int flow = k == tc_ptm_pkt_atom || (k == tc_ptm_pkt_branch && !exc) || k == tc_ptm_pkt_waypoint;
	switch (kind) {
	case tc_l3_range:
	case tc_l3_no_image:
	case tc_l3_walk_limit: return flow && c->walking;
	case tc_l3_exception: return exc;
	case tc_l3_context:
		return k == tc_ptm_pkt_isync || k == tc_ptm_pkt_branch || k == tc_ptm_pkt_context_id ||
		       k == tc_ptm_pkt_vmid || k == tc_ptm_pkt_atom;
	case tc_l3_overflow:
	case tc_l3_trace_on: return k == tc_ptm_pkt_isync;
	case tc_l3_timestamp:
	case tc_l3_trigger:
	case tc_l3_exception_return:
	case tc_l3_error:
	case tc_l3_cycle_count: return expect_count(c, kind) == 1;
	default: return 0;
	}
}

/* A range: its instructions walked from first by their sizes. */
static void check_range(const struct run *r, const struct tc_l3 *x)
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
		TC_FUZZ_CHECK(!is_waypoint_type(inst.type), "range @%llu first 0x%llx: a waypoint at 0x%llx before its end",
			      (unsigned long long)x->h.offset, (unsigned long long)x->first, (unsigned long long)at);
		at += (uint64_t)size;
	}
	TC_FUZZ_CHECK(at == x->last, "range @%llu first 0x%llx n=%llu ends at 0x%llx, not 0x%llx",
		      (unsigned long long)x->h.offset, (unsigned long long)x->first, (unsigned long long)x->count,
		      (unsigned long long)at, (unsigned long long)x->last);
	if (is_waypoint_type(x->last_type))
		TC_FUZZ_CHECK(inst.type == x->last_type && (x->taken == tc_taken_e || x->taken == tc_taken_n),
			      "range @%llu last 0x%llx: type %u taken %u, the instruction is of type %u",
			      (unsigned long long)x->h.offset, (unsigned long long)x->last, x->last_type, x->taken,
			      inst.type);
	else
		TC_FUZZ_CHECK(x->last_type == tc_insn_other && x->taken == tc_taken_none && !is_waypoint_type(inst.type),
			      "range @%llu last 0x%llx: type %u taken %u, the instruction is of type %u",
			      (unsigned long long)x->h.offset, (unsigned long long)x->last, x->last_type, x->taken,
			      inst.type);
}

/* A range ending in a waypoint: the next atom of an atom packet, or the
 * E a branch address packet implies; none from a waypoint update. */
static void check_waypoint_range(struct packet *c, const struct tc_l3 *x)
{
	int want;
	if (!is_waypoint_type(x->last_type))
		return;
	TC_FUZZ_CHECK(c->p.h.kind != tc_ptm_pkt_waypoint, "waypoint update @%llu gave a range ending in a waypoint",
		      (unsigned long long)x->h.offset);
	if (c->p.h.kind == tc_ptm_pkt_atom) {
		TC_FUZZ_CHECK(c->waypoints < c->p.natoms, "atom packet @%llu of %u atoms: waypoint range %d",
			      (unsigned long long)x->h.offset, c->p.natoms, c->waypoints + 1);
		want = (c->p.atoms >> c->waypoints) & 1 ? tc_taken_e : tc_taken_n;
	} else {
		TC_FUZZ_CHECK(c->waypoints == 0, "branch packet @%llu: a second waypoint range",
			      (unsigned long long)x->h.offset);
		want = tc_taken_e;
	}
	TC_FUZZ_CHECK(x->taken == want, "packet @%llu waypoint range %d: taken %u, the packet says %d",
		      (unsigned long long)x->h.offset, c->waypoints + 1, x->taken, want);
	c->waypoints++;
}

static void check_context(struct run *r, const struct tc_l3 *x)
{
	const struct tc_ptm_packet *p = &r->cur.p;
	const struct tc_context *c = &x->ctx;
	TC_FUZZ_CHECK((c->el == 0 || c->el == 2) && c->ns <= 1 && c->sf == 0 && c->nse == 0,
		      "context @%llu: el %u ns %u sf %u nse %u", (unsigned long long)x->h.offset, c->el, c->ns, c->sf,
		      c->nse);
	TC_FUZZ_CHECK(!r->have_ctx || memcmp(c, &r->ctx, sizeof *c), "context @%llu does not change the context",
		      (unsigned long long)x->h.offset);
	if (p->h.kind == tc_ptm_pkt_isync || p->h.kind == tc_ptm_pkt_branch)
		TC_FUZZ_CHECK(c->ns == p->ns && c->el == (p->hyp ? 2 : 0), "context @%llu: ns %u el %u, the packet ns %u hyp %u",
			      (unsigned long long)x->h.offset, c->ns, c->el, p->ns, p->hyp);
	if ((p->h.kind == tc_ptm_pkt_isync && p->has_ctxid) || p->h.kind == tc_ptm_pkt_context_id)
		TC_FUZZ_CHECK(c->context_id == p->context_id, "context @%llu: context ID 0x%x, the packet's 0x%x",
			      (unsigned long long)x->h.offset, c->context_id, p->context_id);
	if (p->h.kind == tc_ptm_pkt_vmid)
		TC_FUZZ_CHECK(c->vmid == p->vmid, "context @%llu: VMID 0x%x, the packet's 0x%x",
			      (unsigned long long)x->h.offset, c->vmid, p->vmid);
	r->ctx = *c;
	r->have_ctx = 1;
}

/* A no-image item: the image holds no whole instruction at the address. */
static void check_no_image(const struct run *r, const struct tc_l3 *x)
{
	size_t avail = 0;
	const uint8_t *b = tc_image_lookup(r->image, x->address, &avail);
	struct tc_insn inst;
	TC_FUZZ_CHECK(x->isa == tc_isa_a32 || x->isa == tc_isa_t32, "no-image @%llu isa %u",
		      (unsigned long long)x->h.offset, x->isa);
	TC_FUZZ_CHECK(!b || tc_insn_decode(x->isa, x->address, b, avail, 0, &inst) == 0,
		      "no-image @%llu at 0x%llx, where the image has an instruction", (unsigned long long)x->h.offset,
		      (unsigned long long)x->address);
}

/* The values an item repeats from its packet. */
static void check_values(const struct packet *c, const struct tc_l3 *x)
{
	const struct tc_ptm_packet *p = &c->p;
	unsigned long long off = (unsigned long long)x->h.offset;
	switch (x->h.kind) {
	case tc_l3_error:
		TC_FUZZ_CHECK(x->error == p->error, "error item @%llu class %u, the packet's %u", off, x->error, p->error);
		break;
	case tc_l3_exception:
		TC_FUZZ_CHECK(x->type == p->exception && x->type <= 0x1ff, "exception @%llu type 0x%x, the packet's 0x%x",
			      off, x->type, p->exception);
		break;
	case tc_l3_timestamp:
		TC_FUZZ_CHECK(x->value == p->value && x->unknown == !p->has_cc && (!p->has_cc || x->count == p->cc),
			      "timestamp @%llu ts 0x%llx cc %llu unknown %u; the packet ts 0x%llx cc %u (%u)", off,
			      (unsigned long long)x->value, (unsigned long long)x->count, x->unknown,
			      (unsigned long long)p->value, p->cc, p->has_cc);
		break;
	case tc_l3_cycle_count:
		TC_FUZZ_CHECK(x->count == p->cc, "cycle-count @%llu %llu, the packet's %u", off,
			      (unsigned long long)x->count, p->cc);
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
	TC_FUZZ_CHECK(x->h.size == sizeof *x && x->h.protocol == tc_proto_ptm && x->h.kind < tc_l3_kind_count,
		      "L3 item: size %u protocol %u kind %u", x->h.size, x->h.protocol, x->h.kind);
	TC_FUZZ_CHECK(c->valid && x->h.offset == c->p.h.offset, "L3 %s @%llu, the packet analysed is @%llu",
		      tc_l3_kind_name(x->h.kind), (unsigned long long)x->h.offset,
		      (unsigned long long)c->p.h.offset);
	TC_FUZZ_CHECK(kind_allowed(c, x->h.kind), "L3 %s @%llu from a %s packet (walking %d)",
		      tc_l3_kind_name(x->h.kind), (unsigned long long)x->h.offset, tc_ptm_pkt_kind_name(c->p.h.kind),
		      c->walking);
	TC_FUZZ_CHECK(c->count[tc_l3_cycle_count] == 0, "L3 %s @%llu after the packet's cycle count",
		      tc_l3_kind_name(x->h.kind), (unsigned long long)x->h.offset);
	TC_FUZZ_CHECK(++c->items <= MAX_L3_PER_PACKET, "more than %d L3 items from the packet @%llu",
		      MAX_L3_PER_PACKET, (unsigned long long)x->h.offset);
	c->count[x->h.kind]++;
	check_values(c, x);
	if (x->h.kind == tc_l3_range) {
		check_range(r, x);
		check_waypoint_range(c, x);
	}
	if (x->h.kind == tc_l3_context)
		check_context(r, x);
	if (x->h.kind == tc_l3_no_image)
		check_no_image(r, x);
	hash_l3(&r->l3, x);
	if (r->verbose) {
		char buf[TC_FUZZ_LINE];
		tc_ptm_format_l3(buf, sizeof buf, x);
		fprintf(stderr, "  L3 %s\n", buf);
	}
}

/* ---- Decoding ---------------------------------------------------------------------------- */

static void decode(const struct tc_ptm_config *cfg, const struct tc_image *image, const uint8_t *trace,
		   struct run *r, int seed)
{
	struct tc_ptm_sink sink = { r, on_packet, on_l3 };
	struct tc_ptm_decoder *d = tc_ptm_alloc(cfg, &sink);
	TC_FUZZ_CHECK(d != NULL, "tc_ptm_alloc refused a configuration tc_ptm_config_check accepts");
	TC_FUZZ_CHECK(tc_ptm_set_image(d, image) == tc_ptm_ok, "set_image");
	if (seed < 0) {
		TC_FUZZ_CHECK(tc_ptm_feed(d, trace, r->len) == tc_ptm_ok, "feed");
	} else {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, (uint8_t)seed);
		while (i < r->len) {
			size_t n = tc_fuzz_chunk_next(&c, r->len - i);
			TC_FUZZ_CHECK(tc_ptm_feed(d, trace + i, n) == tc_ptm_ok, "feed");
			i += n;
		}
	}
	TC_FUZZ_CHECK(tc_ptm_finish(d) == tc_ptm_ok, "finish");
	end_packet(r);
	tc_ptm_free(d);
}

static void reset(struct run *r, const struct tc_image *image, size_t len)
{
	memset(r, 0, sizeof *r);
	r->image = image;
	r->len = len;
}

/* Whole against chunked: prints both, then fails. */
static void streaming(const struct tc_ptm_config *cfg, const struct tc_image *image, const uint8_t *trace,
		      const struct run *whole, uint8_t seed)
{
	struct run chunked;
	reset(&chunked, image, whole->len);
	decode(cfg, image, trace, &chunked, seed);
	if (whole->l1.h == chunked.l1.h && whole->l1.n == chunked.l1.n && whole->l3.h == chunked.l3.h &&
	    whole->l3.n == chunked.l3.n)
		return;
	fprintf(stderr, "whole:\n");
	reset(&chunked, image, whole->len);
	chunked.verbose = 1;
	decode(cfg, image, trace, &chunked, -1);
	fprintf(stderr, "chunked, chunk byte 0x%02x:\n", seed);
	reset(&chunked, image, whole->len);
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
	const struct tc_protocol *proto = tc_protocol_find("ptm");
	struct tc_fuzz_in in = { data, size };
	struct tc_ptm_config cfg;
	struct tc_image img;
	struct run whole;
	uint8_t flags, seed;
	if (size < (size_t)proto->nkeys + 2)
		return 0;
	tc_fuzz_proto_config(proto, &in, &cfg);
	flags = tc_fuzz_u8(&in);
	seed = tc_fuzz_u8(&in);
	if (tc_ptm_config_check(&cfg, NULL, 0))
		return 0;   /* refusals: fuzz/ptm/parse.c */
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, flags & 7, &img);
	tc_fuzz_check_image(&img);
	reset(&whole, (flags & 0x10) ? NULL : &img, in.n);
	decode(&cfg, whole.image, in.p, &whole, -1);
	if (flags & 0x80)
		streaming(&cfg, whole.image, in.p, &whole, seed);
	tc_image_free(&img);
	return 0;
}
