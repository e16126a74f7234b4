/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_analyze.c — L3: the walk over the image from the last reported instruction (RISC-V processor
 * trace 0.026 chapters 2 and 3, L96–129, L139–181, Table 3.2 L163–171; the branch map L368–370; the
 * sync packets Table 6.3 L380–389; te_support Table 6.4 L395–399), as reference/rvtrace/ERRATA.md
 * RV-P5, RV-P8…RV-P19, RV-P21, RV-S14 and RV-X1 read them. */
#include <string.h>

#include "clause.h"
#include "rvtrace_internal.h"

#define DEFAULT_WALK_LIMIT 1048576u

/* ERRATA RV-P22: between two map bits a walk's next step is fixed by its instruction address and
 * by the upper instruction of a pair (RV-P12) that retired just before it, if any: none, or the
 * instruction 2 or 4 bytes before it (an upper instruction falls through). So a walk that takes more
 * steps than three times the image's halfwords without taking a map bit is in a loop it never
 * leaves: walk-limit at once. */
static uint64_t loop_bound(const struct tc_image *image)
{
	uint64_t halfwords = 0;
	for (int i = 0; image && i < image->n; i++)
		halfwords += image->region[i].size / 2 + 1;
	return 3 * halfwords + 2;
}

static int xlen_of(const struct rv_l3 *a)
{
	return a->cfg.rv32 ? 32 : 64;
}

/* Addresses, of packets and of the walk alike, are modulo 2^iaddress_width_p, zero-extended to XLEN
 * (RV-P5, RV-S12: iaddress_width_p is at most XLEN). */
static uint64_t amask(const struct rv_l3 *a)
{
	return a->cfg.iaddress_width_p >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << a->cfg.iaddress_width_p) - 1;
}

void rv_l3_init(struct rv_l3 *a, const struct tc_rvtrace_config *cfg)
{
	memset(a, 0, sizeof *a);
	a->cfg = *cfg;
}

/* ---- Items ---------------------------------------------------------------------------- */

static void emit(struct rv_l3 *a, struct tc_l3 *x, int kind)
{
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_rvtrace;
	x->h.kind = (uint16_t)kind;
	x->h.offset = a->offset;
	if (a->sink)
		a->sink(a->ctx, x);
}

static void emit_simple(struct rv_l3 *a, int kind)
{
	struct tc_l3 x;
	memset(&x, 0, sizeof x);
	emit(a, &x, kind);
}

static void close_range(struct rv_l3 *a, int type, int taken)
{
	struct tc_l3 x;
	if (!a->rn)
		return;
	memset(&x, 0, sizeof x);
	x.first = a->rfirst;
	x.last = a->rlast;
	x.count = a->rn;
	x.isa = a->cfg.rv32 ? tc_isa_rv32 : tc_isa_rv64;
	x.last_type = (uint8_t)type;
	x.taken = (uint8_t)taken;
	a->rn = 0;
	emit(a, &x, tc_l3_range);
}

static void add_to_range(struct rv_l3 *a, uint64_t pc)
{
	if (!a->rn)
		a->rfirst = pc;
	a->rlast = pc;
	a->rn++;
}

/* The position is lost (RV-P8, RV-P19): nothing is walked until the next sync 00 or 01. */
static void lose_position(struct rv_l3 *a)
{
	close_range(a, tc_insn_other, tc_taken_none);
	a->have_pos = 0;
	a->have_prev = 0;
}

static void l3_error(struct rv_l3 *a, int error)
{
	struct tc_l3 x;
	lose_position(a);
	memset(&x, 0, sizeof x);
	x.error = (uint8_t)error;
	emit(a, &x, tc_l3_error);
}

static void no_image(struct rv_l3 *a, int kind, uint64_t pc)
{
	struct tc_l3 x;
	lose_position(a);
	memset(&x, 0, sizeof x);
	x.address = pc;
	x.isa = a->cfg.rv32 ? tc_isa_rv32 : tc_isa_rv64;
	emit(a, &x, kind);
}

/* A `context` item when privilege or context changed, or none was known (RV-P9, RV-P16). */
static void set_context(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	struct tc_l3 x;
	uint32_t ctx = p->has_context ? p->context : 0;
	if (a->have_ctx && a->priv == p->privilege && a->context == ctx)
		return;
	TC_CLAUSE("RV-P10/context");
	close_range(a, tc_insn_other, tc_taken_none);
	a->have_ctx = 1;
	a->priv = p->privilege;
	a->context = ctx;
	memset(&x, 0, sizeof x);
	x.ctx.el = p->privilege;
	x.ctx.context_id = ctx;
	emit(a, &x, tc_l3_context);
}

/* ---- One instruction ------------------------------------------------------------------- */

/* What executing one instruction did (RV-P12, RV-P13, RV-P18). */
enum step { step_seq, step_jumped, step_uninferable, step_stop };

/* Decodes the instruction at pc; 0, or -1 after a no-image item (no bytes, a truncated or a long
 * encoding of no length: RV-P19, RV-P18). */
static int fetch(struct rv_l3 *a, uint64_t pc, struct tc_rvinsn *in)
{
	size_t avail = 0;
	const uint8_t *b = a->image ? tc_image_lookup(a->image, pc, &avail) : NULL;
	if (!b) {
		TC_CLAUSE("RV-P19");
		no_image(a, tc_l3_no_image, pc);
		return -1;
	}
	tc_rvinsn_decode(xlen_of(a), a->cfg.c_ext, pc, b, avail, in);
	if (in->cls == tc_rvinsn_truncated || in->size == 0) {
		no_image(a, tc_l3_no_image, pc);
		return -1;
	}
	return 0;
}

/* Executes the instruction `in` at pc: adds it to the range, ends the range where RV-P18 says, sets
 * *next. taken is the branch outcome (a map bit or the sync's branch bit: 1 not taken, L369, L385). */
static enum step execute(struct rv_l3 *a, uint64_t pc, const struct tc_rvinsn *in, int not_taken, uint64_t *next)
{
	uint64_t t;
	int pair = a->have_prev && tc_rvinsn_pair_target(xlen_of(a), &a->prev, in, &t);
	add_to_range(a, pc);
	a->prev = *in;
	a->have_prev = 1;
	*next = (pc + in->size) & amask(a);
	switch (in->cls) {
	case tc_rvinsn_branch:
		TC_CLAUSE("L369");
		close_range(a, tc_insn_branch_dir, not_taken ? tc_taken_n : tc_taken_e);
		if (!not_taken)
			*next = in->target & amask(a);
		return not_taken ? step_seq : step_jumped;
	case tc_rvinsn_jump:
		TC_CLAUSE("Table3.2/jal");
		close_range(a, tc_insn_branch_dir, tc_taken_e);
		*next = in->target & amask(a);
		return step_jumped;
	case tc_rvinsn_indirect:
		close_range(a, tc_insn_branch_indir, tc_taken_e);
		if (pair) {   /* RV-P12: an inferable pair */
			TC_CLAUSE("Table3.2/pair");   /* RV-P12 */
			*next = t & amask(a);
			return step_jumped;
		}
		TC_CLAUSE("L110");   /* 2.1.2 Unpredictable PC Discontinuity */
		return step_uninferable;
	case tc_rvinsn_xret:
		TC_CLAUSE("RV-P15");
		close_range(a, tc_insn_branch_indir, tc_taken_e);
		emit_simple(a, tc_l3_exception_return);
		return step_uninferable;
	default:
		return step_seq;   /* other, trap, upper, reserved, long (RV-P18) */
	}
}

/* ---- The walks ------------------------------------------------------------------------- */

/* The last reported instruction is now pc; its successor next, or unknown after an uninferable jump. */
static void reported(struct rv_l3 *a, uint64_t pc, enum step s, uint64_t next)
{
	a->have_pos = 1;
	a->last = pc;
	a->updiscon = s == step_uninferable;
	a->next = next;
}

/* RV-P13: formats 0, 1 and 2. has_addr 0: branches = 0, the walk ends once all 31 bits are taken.
 * Returns after the walk's items. */
/* L368-370: the walk of a branch map, oldest first, to the packet's address. */
static void walk_map(struct rv_l3 *a, int has_addr, uint64_t addr, uint32_t map, unsigned nbits)
{
	uint64_t pc = a->updiscon ? addr : a->next, next;
	unsigned used = 0;
	int at_target = a->updiscon;   /* after an uninferable jump the target must be the last (RV-P13) */
	uint32_t limit = a->cfg.walk_limit ? a->cfg.walk_limit : DEFAULT_WALK_LIMIT;
	struct tc_rvinsn in;
	TC_CLAUSE("RV-P13");
	if (a->updiscon && !has_addr) {
		TC_CLAUSE("RV-P13/no-address");
		l3_error(a, tc_rvtrace_err_no_address);
		return;
	}
	uint64_t bound = loop_bound(a->image), since = 0;
	for (uint32_t n = 0;; n++) {
		int not_taken = 0;
		enum step s;
		if (n >= limit) {
			TC_CLAUSE("RV-P19/walk-limit");
			no_image(a, tc_l3_walk_limit, pc);
			return;
		}
		if (since++ >= bound) {
			TC_CLAUSE("RV-P22");
			no_image(a, tc_l3_walk_limit, pc);
			return;
		}
		if (fetch(a, pc, &in))
			return;
		if (in.cls == tc_rvinsn_branch) {
			if (used == nbits) {
				TC_CLAUSE("RV-P13/map-exhausted");
				l3_error(a, tc_rvtrace_err_map_exhausted);
				return;
			}
			not_taken = (int)(map >> used++ & 1);
			since = 0;
		}
		s = execute(a, pc, &in, not_taken, &next);
		if (used == nbits && !has_addr && in.cls == tc_rvinsn_branch) {
			TC_CLAUSE("L368/full-map");   /* branches = 0: the walk ends at the 31st branch */
			close_range(a, tc_insn_other, tc_taken_none);
			reported(a, pc, s, next);
			return;
		}
		if (used == nbits && has_addr && pc == addr) {
			TC_CLAUSE("L370");   /* every valid bit taken, at the packet's address */
			close_range(a, tc_insn_other, tc_taken_none);
			reported(a, pc, s, next);
			return;
		}
		if (at_target) {   /* bits left at the uninferable jump's target */
			TC_CLAUSE("RV-P13/unconsumed-map");
			l3_error(a, tc_rvtrace_err_unconsumed_map);
			return;
		}
		if (s == step_uninferable) {
			if (!has_addr) {
				TC_CLAUSE("RV-P13/no-address-walk");
				l3_error(a, tc_rvtrace_err_no_address);
				return;
			}
			next = addr;
			at_target = 1;
			a->have_prev = 0;
		}
		pc = next;
	}
}

/* RV-P11: a sync 00 with a position walks, with no map bit, up to the instruction before its
 * address, or up to an uninferable jump (whose target is the address). */
static void walk_to_sync(struct rv_l3 *a, uint64_t addr)
{
	uint64_t pc = a->next, next;
	uint32_t limit = a->cfg.walk_limit ? a->cfg.walk_limit : DEFAULT_WALK_LIMIT;
	struct tc_rvinsn in;
	TC_CLAUSE("RV-P11");
	if (a->updiscon)
		return;
	uint64_t bound = loop_bound(a->image);
	for (uint32_t n = 0; pc != addr; n++) {
		if (n >= limit || n >= bound) {   /* RV-P22 */
			no_image(a, tc_l3_walk_limit, pc);
			return;
		}
		if (fetch(a, pc, &in))
			return;
		if (in.cls == tc_rvinsn_branch) {
			TC_CLAUSE("RV-P11/map-exhausted");
			l3_error(a, tc_rvtrace_err_map_exhausted);
			return;
		}
		if (execute(a, pc, &in, 0, &next) == step_uninferable)
			break;
		pc = next;
	}
	close_range(a, tc_insn_other, tc_taken_none);
}

/* RV-P10: the instruction at a sync's address starts a new range; a branch's outcome is the branch
 * bit; a jalr there is uninferable (RV-P12). */
/* L385: the sync packet's branch bit is the outcome of a branch at its address. */
static void sync_at(struct rv_l3 *a, uint64_t addr, int branch_bit)
{
	struct tc_rvinsn in;
	uint64_t next;
	enum step s;
	TC_CLAUSE("RV-P10", "L385");
	a->have_prev = 0;
	if (fetch(a, addr, &in))
		return;
	s = execute(a, addr, &in, branch_bit, &next);
	close_range(a, tc_insn_other, tc_taken_none);
	reported(a, addr, s, next);
}

/* ---- Packets --------------------------------------------------------------------------- */

/* The address of formats 0, 1, 2 (RV-P5, RV-X1): 0 and *addr, or -1 (no-base-address). */
/* L367: the differential address against the last reported one, either sign (RV-X1). */
static int packet_address(struct rv_l3 *a, const struct tc_rvtrace_packet *p, uint64_t *addr)
{
	if (p->h.kind == tc_rvtrace_pkt_full_delta || (p->h.kind == tc_rvtrace_pkt_addr_only && p->full)) {
		TC_CLAUSE("L367");
		*addr = p->address & amask(a);
		return 0;
	}
	if (!a->have_base)
		return -1;
	TC_CLAUSE("RV-X1");
	*addr = (a->cfg.diff_sign ? a->base - (uint64_t)p->diff : a->base + (uint64_t)p->diff) & amask(a);
	return 0;
}

static void te_inst_delta(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	uint64_t addr = 0;
	int has_addr = p->h.kind == tc_rvtrace_pkt_addr_only || p->branches != 0;
	unsigned nbits = p->h.kind == tc_rvtrace_pkt_addr_only ? 0 : (p->branches ? p->branches : 31);
	if (has_addr) {
		if (packet_address(a, p, &addr)) {
			TC_CLAUSE("RV-P5");
			l3_error(a, tc_rvtrace_err_no_base_address);
			return;
		}
		a->have_base = 1;
		a->base = addr;
	}
	if (!a->have_pos || a->ended) {
		TC_CLAUSE("RV-P9");   /* RV-P17 too: nothing to walk from */
		return;
	}
	walk_map(a, has_addr, addr, p->map, nbits);
}

/* RV-P14: a sync 01's exception item, its return address from the last reported instruction. */
static void exception_item(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE("RV-P14");
	memset(&x, 0, sizeof x);
	x.type = p->ecause;
	x.unknown = !a->have_pos || a->ended || a->updiscon;
	x.address = x.unknown ? 0 : a->next;
	TC_CLAUSE("RV-P23");   /* Table 6.3 L388 interrupt, L389 tval (none with notval_p = 1, L228) */
	x.interrupt = p->interrupt;
	x.has_tval = p->has_tval;
	x.value = p->has_tval ? p->tval : 0;
	emit(a, &x, tc_l3_exception);
}

static void sync_packet(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	uint64_t addr = p->address & amask(a);
	if (p->h.kind == tc_rvtrace_pkt_sync_start && a->have_pos && !a->ended)
		walk_to_sync(a, addr);   /* RV-P11 */
	if (a->ended) {
		TC_CLAUSE("RV-P17/trace-on");
		emit_simple(a, tc_l3_trace_on);
		a->ended = 0;
		a->have_pos = 0;
	}
	if (p->h.kind == tc_rvtrace_pkt_sync_exception)
		exception_item(a, p);
	set_context(a, p);
	a->have_base = 1;
	a->base = addr;
	sync_at(a, addr, p->branch);
}

/* RV-P17: te_support ends the trace with enable = 0 (L396) or qualification ended (L399); the
 * ending is a trace-off item, once, when there was a trace to end (RV-P24). */
static void support(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	if (p->enable && p->qual == 0)
		return;
	TC_CLAUSE("RV-P17");
	close_range(a, tc_insn_other, tc_taken_none);
	if (a->have_pos && !a->ended) {
		TC_CLAUSE("RV-P24");
		a->ended = 1;
		emit_simple(a, tc_l3_trace_off);
	}
}

static void timer(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE("RV-X3/timestamp");
	close_range(a, tc_insn_other, tc_taken_none);
	memset(&x, 0, sizeof x);
	x.value = p->value;
	x.unknown = 1;   /* RV-X3: no cycle count */
	emit(a, &x, tc_l3_timestamp);
}

void rv_l3_packet(struct rv_l3 *a, const struct tc_rvtrace_packet *p)
{
	a->offset = p->h.offset;
	switch (p->h.kind) {
	case tc_rvtrace_pkt_full_delta:
	case tc_rvtrace_pkt_diff_delta:
	case tc_rvtrace_pkt_addr_only:
		te_inst_delta(a, p);
		break;
	case tc_rvtrace_pkt_sync_start:
	case tc_rvtrace_pkt_sync_exception:
		sync_packet(a, p);
		break;
	case tc_rvtrace_pkt_sync_context:   /* no walk, no position */
		TC_CLAUSE("RV-P16");
		set_context(a, p);
		break;
	case tc_rvtrace_pkt_support:
		support(a, p);
		break;
	case tc_rvtrace_pkt_timer:
		timer(a, p);
		break;
	case tc_rvtrace_pkt_error:   /* the same error, position and base lost */
		TC_CLAUSE("RV-P8");
		l3_error(a, p->error);
		a->have_base = 0;
		break;
	default:
		break;   /* message, software, warning: no L3 item */
	}
}

void rv_l3_finish(struct rv_l3 *a)
{
	close_range(a, tc_insn_other, tc_taken_none);
}
