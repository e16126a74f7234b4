/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_analyze.c — ETMv3 L3: instruction tracing (ARM IHI 0014 §7.3) followed over a program image. */
#include <string.h>

#include "etmv3_internal.h"
#include "tracecert/image.h"

/* ---- Output ------------------------------------------------------------------ */

static void deliver(struct tc_etmv3_analyzer *a, const struct tc_l3 *x)
{
	if (a->sink->l3)   /* always: the analysis runs only for an L3 sink (etmv3_decoder.c) */
		a->sink->l3(a->sink->ctx, x);
}

static void blank_item(struct tc_etmv3_analyzer *a, struct tc_l3 *x, int kind)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_etmv3;
	x->h.kind = (uint16_t)kind;
	x->h.offset = a->offset;
}

/* Outputs the range being built; nothing can retract its instructions after
 * this (ETM3-P16). */
static void deliver_range(struct tc_etmv3_analyzer *a)
{
	if (!a->range_open)
		return;
	if (!a->range_ended) {
		a->range.last_type = tc_insn_other;
		a->range.taken = tc_taken_none;
	}
	deliver(a, &a->range);
	a->range_open = 0;
	a->range_ended = 0;
	a->last.in_range = 0;
	if (a->eret_held) {   /* the exception return of the range's last instruction (ETM3-X4) */
		struct tc_l3 x;
		blank_item(a, &x, tc_l3_exception_return);
		x.h.offset = a->eret_offset;
		a->eret_held = 0;
		deliver(a, &x);
	}
}

/* An item that is not an instruction: the range being built goes first. */
static void emit(struct tc_etmv3_analyzer *a, struct tc_l3 *x)
{
	deliver_range(a);
	deliver(a, x);
}

static void emit_simple(struct tc_etmv3_analyzer *a, int kind)
{
	struct tc_l3 x;
	blank_item(a, &x, kind);
	emit(a, &x);
}

static int l3_isa(int isa)
{
	return isa == tc_etmv3_isa_arm ? tc_isa_a32 : tc_isa_t32;   /* ThumbEE as T32 (ETM3-P12) */
}

/* The instruction at the current address joins the range being built; it
 * becomes the last instruction traced (the one a Can bit cancels). */
static void output_instruction(struct tc_etmv3_analyzer *a, const struct tc_insn *inst)
{
	int isa = l3_isa(a->cur.isa);
	uint32_t at = a->cur.address;
	if (a->range_open && (a->range_ended || a->range.isa != isa || at != a->range_next))
		deliver_range(a);
	if (!a->range_open) {
		blank_item(a, &a->range, tc_l3_range);
		a->range.first = at;
		a->range.isa = (uint8_t)isa;
		a->range_open = 1;
	}
	a->last.address = at;
	a->last.prev_last = a->range.last;
	a->last.isa = a->cur.isa;
	a->last.in_range = 1;
	a->last.valid = 1;
	a->range.last = at;
	a->range.count++;
	a->range_next = (uint64_t)at + inst->size;
}

/* The range ends with a branch, E or N: it is delivered before anything
 * else joins it (kept until then so that a Can bit can still remove it). */
static void end_range(struct tc_etmv3_analyzer *a, int type, int taken)
{
	a->range.last_type = (uint8_t)type;
	a->range.taken = (uint8_t)taken;
	a->range_ended = 1;
}

/* The context as L3 reports it; an item only when it changes. */
static void report_context(struct tc_etmv3_analyzer *a)
{
	struct tc_context c;
	struct tc_l3 x;
	memset(&c, 0, sizeof c);
	c.context_id = a->context_id;
	c.vmid = a->vmid;
	c.ns = a->cur.ns;
	c.el = a->cur.hyp ? 2 : 0;   /* trace.h: Hyp mode as EL2, else 0 */
	if (a->ctx_out_valid && !memcmp(&c, &a->ctx_out, sizeof c))
		return;
	TC_CLAUSE("ETM3-P19/Context");
	a->ctx_out = c;
	a->ctx_out_valid = 1;
	blank_item(a, &x, tc_l3_context);
	x.ctx = c;
	emit(a, &x);
}

/* ---- Following instructions (§7.3.1, §7.3.5) --------------------------------- */

/* Whether the walk can go on: an I-sync seen, the address known, and not
 * Jazelle (ETM3-P12). */
static int can_walk(const struct tc_etmv3_analyzer *a)
{
	if (!a->have_isync || !a->cur.valid)
		return 0;
	if (a->cur.isa == tc_etmv3_isa_jazelle) {
		TC_CLAUSE("ETM3-P12/Jazelle");
		return 0;
	}
	return 1;
}

/* The instruction at an address, 0 when the image does not hold it.
 * Successful decodes are remembered in a direct-mapped cache: the result
 * depends only on the image bytes, which do not change while decoding
 * (regions cannot overlap nor be removed; tc_etmv3_set_image empties it). */
static int decode_cached(struct tc_etmv3_analyzer *a, int isa, uint32_t address, struct tc_insn *inst)
{
	struct tc_etmv3_icache_slot *c = &a->icache[(address >> 1) & (TC_ETMV3_ICACHE - 1)];
	size_t avail = 0;
	const uint8_t *bytes;
	if (c->valid && c->address == address && c->isa == isa) {
		*inst = c->insn;
		return 1;
	}
	bytes = tc_image_lookup(a->image, address, &avail);
	if (!bytes || tc_insn_decode(isa, address, bytes, avail, 0, inst) <= 0)
		return 0;
	c->insn = *inst;
	c->address = address;
	c->isa = (uint8_t)isa;
	c->valid = 1;
	return 1;
}

/* The instruction at the current address; without image bytes a no-image
 * item, and the address is unknown until the next one (ETM3-P14). */
static int decode_instr(struct tc_etmv3_analyzer *a, struct tc_insn *inst)
{
	struct tc_l3 x;
	if (decode_cached(a, l3_isa(a->cur.isa), a->cur.address, inst)) {
		TC_CLAUSE_CASE(inst->type, "7.3.1/Instruction");
		return 1;
	}
	TC_CLAUSE("ETM3-P14/NoImage");
	blank_item(a, &x, tc_l3_no_image);
	x.address = a->cur.address;
	x.isa = (uint8_t)l3_isa(a->cur.isa);
	emit(a, &x);
	a->cur.valid = 0;
	return 0;
}

/* The instruction set a direct branch goes to: BLX (immediate) switches
 * between ARM and Thumb; a branch in ThumbEE stays in ThumbEE (ETM3-P12). */
static int direct_target_isa(int isa, const struct tc_insn *inst)
{
	TC_CLAUSE_CASE(inst->next_isa != l3_isa(isa), "7.3.5/DirectTargetISA");
	if (inst->next_isa == tc_isa_a32)
		return tc_etmv3_isa_arm;
	return isa == tc_etmv3_isa_arm ? tc_etmv3_isa_thumb : isa;
}

static int is_branch(const struct tc_insn *inst)
{
	return inst->type == tc_insn_branch_dir || inst->type == tc_insn_branch_indir;
}

/* A 32-bit Thumb instruction traced as two instructions (ETMIDR[18] = 0,
 * §3.5.18): the first of its two atoms only counts (ETM3-P13); it is then
 * the most recently traced instruction, which a Can bit cancels: the
 * 32-bit instruction, in no range yet (ETM3-P16). */
static int first_half(struct tc_etmv3_analyzer *a, const struct tc_insn *inst)
{
	if (a->cfg->thumb2_one || a->cur.isa == tc_etmv3_isa_arm || inst->size != 4)
		return 0;
	TC_CLAUSE_CASE(a->half_t32, "ETM3-P13/Thumb2AsTwo");
	a->half_t32 = !a->half_t32;
	if (a->half_t32) {
		a->last.address = a->cur.address;
		a->last.isa = a->cur.isa;
		a->last.in_range = 0;
		a->last.valid = 1;
	}
	return a->half_t32;
}

/* One E or N atom: the instruction at the current address executed (E:
 * passed its condition code test; N: failed it, §7.3.1). A branch ends the
 * range; taken, a direct branch goes to its target and an indirect one
 * waits for its branch address packet (§7.3.5); otherwise the next
 * instruction. whole: the atom stands for the whole instruction even when
 * a 32-bit Thumb instruction takes two atoms (an LSiP's implied E). */
static void atom(struct tc_etmv3_analyzer *a, int taken, int whole)
{
	struct tc_insn inst;
	uint32_t next;
	if (!decode_instr(a, &inst) || (!whole && first_half(a, &inst)))
		return;
	next = a->cur.address + inst.size;
	output_instruction(a, &inst);
	if (!is_branch(&inst) || !taken) {
		TC_CLAUSE_CASE(is_branch(&inst), "7.3.1/Atom.Next");
		if (is_branch(&inst))
			end_range(a, inst.type, tc_taken_n);
		a->cur.address = next;
		return;
	}
	end_range(a, inst.type, tc_taken_e);
	if (inst.type == tc_insn_branch_dir) {
		TC_CLAUSE("7.3.1/Atom.DirectBranch");
		a->cur.address = (uint32_t)inst.target;
		a->cur.isa = (uint8_t)direct_target_isa(a->cur.isa, &inst);
	} else {
		TC_CLAUSE("7.3.1/Atom.IndirectBranch");
		a->cur.valid = 0;   /* until the branch address packet */
		a->await_branch = 1;
	}
}

/* An E or N atom while a taken indirect branch waits for its branch address
 * packet: the packet "must be output" before the instructions after the
 * branch are traced (§7.3.5, unless a FIFO overflow prevents it, which an
 * I-sync then says). An error item; the walk waits for the next address
 * (ETM3-P27). */
static void atom_without_address(struct tc_etmv3_analyzer *a)
{
	struct tc_l3 x;
	TC_CLAUSE("ETM3-P27/NoAddress");
	blank_item(a, &x, tc_l3_error);
	x.error = tc_etmv3_err_no_address;
	emit(a, &x);
	a->await_branch = 0;
}

/* An E or N atom in Jazelle state is a bytecode the walk does not follow
 * (ETM3-P12): the walk no longer knows its address ("the walk waits for the
 * next address": an exception after it has ret=unknown, ETM3-P15), and the
 * most recently traced instruction is the bytecode, not one a Can bit
 * could remove from a range (Table 7-10, ETM3-P16). */
static void bytecode_atom(struct tc_etmv3_analyzer *a)
{
	TC_CLAUSE("ETM3-P12/Bytecode");
	a->cur.valid = 0;
	a->last.valid = 0;
}

/* A P-header: each E or N atom is one instruction; W atoms are cycle
 * boundaries and walk nothing. */
static void analyze_atoms(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	TC_CLAUSE("7.3.1/Pheader");
	for (int i = 0; i < p->natoms && i < TC_ETMV3_MAX_ATOMS; i++) {
		if ((p->waits >> i) & 1)
			continue;
		if (a->await_branch) {
			atom_without_address(a);
			break;
		}
		if (a->cur.valid && a->cur.isa == tc_etmv3_isa_jazelle)
			bytecode_atom(a);
		if (!can_walk(a))
			break;
		atom(a, (p->atoms >> i) & 1, 0);
	}
}

/* ---- Branch address packets (§7.3.5) ------------------------------------------ */

/* Can = 1: "the most recently traced instruction has been canceled and
 * must be discarded" (Table 7-10). It is removed from the range being built
 * when no item has followed it (ETM3-P16), and the walk stands at it again:
 * it did not execute. */
static void cancel_last(struct tc_etmv3_analyzer *a)
{
	if (!a->last.valid) {
		TC_CLAUSE("ETM3-P16/Cancel.Nothing");
		return;
	}
	TC_CLAUSE_CASE(a->last.in_range, "ETM3-P16/Cancel");
	if (a->last.in_range)
		a->eret_held = 0;   /* the return was the cancelled instruction's (ETM3-X4) */
	if (a->last.in_range && a->range_open) {
		if (a->range.count <= 1) {
			a->range_open = 0;
		} else {
			a->range.count--;
			a->range.last = a->last.prev_last;
			a->range_next = a->last.address;
		}
		a->range_ended = 0;
	}
	a->cur.address = a->last.address;
	a->cur.isa = a->last.isa;
	a->cur.valid = 1;
	a->last.valid = 0;
	a->half_t32 = 0;
	a->await_branch = 0;
}

/* The exception type an L3 item gives (ETM3-P15): Exception[8:0] of the
 * exception information bytes as traced; the deprecated fifth-byte form's
 * EEE (Table 7-9) as the Table 7-12 code it names, and EEE = 000 by the
 * vector offset its address gives (reset, undefined, SVC, aborts). */
static unsigned exception_type(const struct tc_etmv3_packet *p)
{
	static const uint16_t eee_code[8] = { 0, 0xe, 0, 0, 0x5, 0xf, 0x4, 0x1 };
	static const uint16_t vector_code[5] = { 0x8, 0x9, 0xa, 0xb, 0xc };
	if (p->exc_form == tc_etmv3_exc_bytes)
		return p->exception;
	TC_CLAUSE_CASE(p->exception & 7, "ETM3-P15/Byte5Type");
	if ((p->exception & 7) != 0)
		return eee_code[p->exception & 7];
	if ((p->address & 0x1f) <= 0x10)   /* an ARM address (Table 7-8): word aligned */
		return vector_code[(p->address & 0x1f) >> 2];
	return 0;
}

/* Whether the packet traces an exception (a nonzero Exception field, or the
 * deprecated fifth-byte form). */
static int has_exception(const struct tc_etmv3_packet *p)
{
	return p->exc_form == tc_etmv3_exc_byte5 || (p->exc_form == tc_etmv3_exc_bytes && p->exception != 0);
}

/* The walk stands where the packet says (§7.3.5); a halting-debug exception's
 * address is not valid (Table 7-12 b0001 on A and R profile cores). */
static void set_current(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	a->cur.address = p->address;
	a->cur.isa = p->isa;
	a->cur.ns = p->ns;
	a->cur.hyp = p->hyp;
	a->cur.valid = 1;
	a->half_t32 = 0;
	a->await_branch = 0;
}

/* A branch address packet: Can first, then an exception item whose return
 * address is where the walk stands (ETM3-P15), then the walk goes to the
 * packet's address. */
static void analyze_branch(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	if (!a->have_isync) {
		TC_CLAUSE("ETM3-P5/BeforeIsync");
		return;
	}
	if (p->cancel)
		cancel_last(a);
	if (has_exception(p)) {
		struct tc_l3 x;
		TC_CLAUSE_CASE(a->cur.valid, "7.3.5/ExceptionBranch");
		blank_item(a, &x, tc_l3_exception);
		x.type = (uint16_t)exception_type(p);
		x.address = a->cur.address;
		x.unknown = !a->cur.valid;
		emit(a, &x);
		a->last.valid = 0;
	} else {
		TC_CLAUSE("7.3.5/Branch");
	}
	set_current(a, p);
	if (has_exception(p) && !a->cfg->profile_m && exception_type(p) == 1) {
		TC_CLAUSE("7.3.5/HaltingDebug");
		a->cur.valid = 0;
	}
	report_context(a);
}

/* A cycle count (§7.3.4): 0 is an overflowed counter, a gap of unknown
 * length; the count of the most recent non-periodic I-sync (in its packet,
 * header 70, or a Cycle count packet after it) is unknown where the text
 * says it must be ignored (ETM3-P25). */
static void analyze_cycle_count(struct tc_etmv3_analyzer *a, uint32_t cc)
{
	struct tc_l3 x;
	TC_CLAUSE_CASE((cc == 0) | a->cc_ignored << 1, "7.3.4/CycleCount");
	blank_item(a, &x, tc_l3_cycle_count);
	x.count = cc;
	x.unknown = cc == 0 || a->cc_ignored;
	emit(a, &x);
}

/* "In ETMv3.0, the cycle count output following overflow or entry to debug
 * state must be ignored ... In ETMv3.5, the trace is not cycle-accurate
 * through overflow" (§7.3.4, IHI 0014Q §7.3.4): reasons 2 and 3 in
 * ETMv3.0, reason 2 in ETMv3.5. */
static int count_ignored(const struct tc_etmv3_config *cfg, int reason)
{
	if (cfg->version == 0)
		return reason == 2 || reason == 3;
	return cfg->version >= 5 && reason == 2;
}

/* ---- I-sync (§7.7.3) ------------------------------------------------------------ */

/* LSiP: "execution of the instruction at this address is implied, as if an
 * E atom was traced after this address and before the current instruction
 * address", in the state the information byte and the address's T bit give
 * (the current address can change the instruction set and, with an
 * Exception information byte, the security state, §7.7.3); then the walk
 * stands at the current address. The instruction executed: a 32-bit Thumb
 * one is output whole with thumb2_one=0 too (ETM3-P13). */
static void lsip_data_instruction(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	TC_CLAUSE("7.7.3/LSiP.ImpliedE");
	a->cur.address = p->data_insn;
	a->cur.isa = p->data_isa;
	a->cur.ns = p->data_ns;
	a->cur.hyp = p->data_hyp;
	a->cur.valid = 1;
	report_context(a);
	if (can_walk(a))
		atom(a, 1, 1);
}

static void analyze_isync(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	TC_CLAUSE_CASE(p->reason, "7.7.3/Table7-23");
	if (p->reason != 0)
		a->cc_ignored = count_ignored(a->cfg, p->reason);
	if (p->reason == 2)
		emit_simple(a, tc_l3_overflow);
	else if (p->reason != 0)
		emit_simple(a, tc_l3_trace_on);
	deliver_range(a);
	a->have_isync = 1;
	a->last.valid = 0;
	if (p->has_ctxid)
		a->context_id = p->context_id;
	if (p->lsip)
		lsip_data_instruction(a, p);
	set_current(a, p);
	a->cur.valid = p->has_address;   /* data-only I-syncs carry no address */
	report_context(a);
	if (p->has_cc)
		analyze_cycle_count(a, p->cc);
}

/* ---- The other packets -------------------------------------------------------- */

static void analyze_error(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE("ETM3-P22/Error.L3");
	blank_item(a, &x, tc_l3_error);
	x.error = p->error;
	emit(a, &x);
	a->have_isync = 0;
	a->cur.valid = 0;
	a->last.valid = 0;
	a->half_t32 = 0;
	a->cc_ignored = 0;
	a->await_branch = 0;
	a->eret_held = 0;
}

static void analyze_timestamp(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE("ETM3-X1/Timestamp.L3");
	blank_item(a, &x, tc_l3_timestamp);
	x.value = p->ts;
	x.unknown = 1;   /* an ETMv3.5 timestamp carries no cycle count */
	emit(a, &x);
}

/* Exception exit (76). ARMv7-M: it follows the returning instruction's
 * P-header and means that instruction completed; a later Can cancels the
 * return packet, not the instruction (§7.5.4). A and R profile (ETMv3.5):
 * it marks the most recently traced instruction as an exception return,
 * which a later exception can still cancel (IHI 0014Q §7.6): the item is
 * held with that instruction's range and goes with it (ETM3-X4). */
static void analyze_exception_exit(struct tc_etmv3_analyzer *a)
{
	TC_CLAUSE_CASE(a->cfg->profile_m, "ETM3-X4/ExceptionExit");
	if (!a->cfg->profile_m && a->last.valid && a->last.in_range && a->range_open) {
		a->eret_held = 1;
		a->eret_offset = a->offset;
		return;
	}
	emit_simple(a, tc_l3_exception_return);
	if (a->cfg->profile_m)
		a->last.valid = 0;
}

void tc_etmv3_analyze(struct tc_etmv3_analyzer *a, const struct tc_etmv3_packet *p)
{
	a->offset = p->h.offset;
	switch (p->h.kind) {
	case tc_etmv3_pkt_isync: analyze_isync(a, p); break;
	case tc_etmv3_pkt_atom:
		if (a->have_isync)
			analyze_atoms(a, p);
		break;
	case tc_etmv3_pkt_branch: analyze_branch(a, p); break;
	case tc_etmv3_pkt_cycle_count: analyze_cycle_count(a, p->cc); break;
	case tc_etmv3_pkt_context_id:
		a->context_id = p->context_id;
		report_context(a);
		break;
	case tc_etmv3_pkt_vmid:
		a->vmid = p->vmid;
		report_context(a);
		break;
	case tc_etmv3_pkt_timestamp: analyze_timestamp(a, p); break;
	case tc_etmv3_pkt_exception_exit: analyze_exception_exit(a); break;
	case tc_etmv3_pkt_trigger: emit_simple(a, tc_l3_trigger); break;
	case tc_etmv3_pkt_error: analyze_error(a, p); break;
	default: break;   /* A-sync, data trace, exception entry, ignore, warnings: L1 only */
	}
}

void tc_etmv3_analyze_flush(struct tc_etmv3_analyzer *a)
{
	deliver_range(a);
}

void tc_etmv3_analyze_init(struct tc_etmv3_analyzer *a, const struct tc_etmv3_config *cfg,
			   const struct tc_etmv3_sink *sink)
{
	memset(a, 0, sizeof *a);
	a->cfg = cfg;
	a->sink = sink;
}
