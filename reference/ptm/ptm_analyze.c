/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_analyze.c — PTM L3: the decompression operations of ARM IHI 0035B App. B.3.2 over a program image. */
#include <string.h>

#include "ptm_internal.h"
#include "tracecert/image.h"

#define DEFAULT_WALK_LIMIT 1048576u

/* ---- Output ------------------------------------------------------------------ */

static void deliver(struct tc_ptm_analyzer *a, const struct tc_l3 *x)
{
	if (a->sink->l3)   /* always: the analysis runs only for an L3 sink (ptm_decoder.c) */
		a->sink->l3(a->sink->ctx, x);
}

static void blank_item(struct tc_ptm_analyzer *a, struct tc_l3 *x, int kind)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_ptm;
	x->h.kind = (uint16_t)kind;
	x->h.offset = a->offset;
}

/* Ends the open range; last_type and taken describe its last instruction. */
static void close_range(struct tc_ptm_analyzer *a, int last_type, int taken)
{
	if (!a->range_open)
		return;
	a->range_open = 0;
	a->range.last_type = (uint8_t)last_type;
	a->range.taken = (uint8_t)taken;
	deliver(a, &a->range);
}

/* An item that is not an instruction: the open range ends first. */
static void emit(struct tc_ptm_analyzer *a, struct tc_l3 *x)
{
	close_range(a, tc_insn_other, tc_taken_none);
	deliver(a, x);
}

static void emit_simple(struct tc_ptm_analyzer *a, int kind)
{
	struct tc_l3 x;
	blank_item(a, &x, kind);
	emit(a, &x);
}

static void emit_count(struct tc_ptm_analyzer *a, int kind, uint64_t count)
{
	struct tc_l3 x;
	blank_item(a, &x, kind);
	x.count = count;
	emit(a, &x);
}

static int l3_isa(int isa)
{
	return isa == tc_ptm_isa_arm ? tc_isa_a32 : tc_isa_t32;   /* ThumbEE as T32 (PTM-P12) */
}

/* "Output an instruction object including information from CurrentState":
 * the instruction at CurrentState.address joins the open range. */
static void output_instruction(struct tc_ptm_analyzer *a, const struct tc_insn *inst)
{
	int isa = l3_isa(a->cur.isa);
	uint32_t at = a->cur.address;
	if (a->range_open && (a->range.isa != isa || at != a->range_next))
		close_range(a, tc_insn_other, tc_taken_none);
	if (!a->range_open) {
		blank_item(a, &a->range, tc_l3_range);
		a->range.first = at;
		a->range.isa = (uint8_t)isa;
		a->range_open = 1;
	}
	a->range.last = at;
	a->range.count++;
	a->range_next = (uint64_t)at + inst->size;
}

/* The context as L3 reports it; an item only when it changes. */
static void report_context(struct tc_ptm_analyzer *a)
{
	struct tc_context c;
	struct tc_l3 x;
	memset(&c, 0, sizeof c);
	c.context_id = a->context_id;
	c.vmid = a->vmid;
	c.ns = a->cur.ns;
	c.el = a->cur.hyp ? 2 : 0;   /* trace.h: PTM reports Hyp as EL2, else 0 */
	if (a->ctx_out_valid && !memcmp(&c, &a->ctx_out, sizeof c))
		return;
	TC_CLAUSE("PTM-P19/Context");
	a->ctx_out = c;
	a->ctx_out_valid = 1;
	blank_item(a, &x, tc_l3_context);
	x.ctx = c;
	emit(a, &x);
}

/* ---- decode_instr (App. B.3.2) ----------------------------------------------- */

/* Waypoints: every branch, direct or indirect (any write of the PC), and
 * ISB (§4.2: "the E/N atom used to trace ISBs"); PTM-P11. */
static int is_waypoint(const struct tc_insn *inst)
{
	return inst->type == tc_insn_branch_dir || inst->type == tc_insn_branch_indir ||
	       inst->type == tc_insn_isb;
}

/* decode_instr(CurrentState); on failure a no-image (or walk-limit) item
 * and CurrentState is lost until the next address (PTM-P14). */
static int decode_instr(struct tc_ptm_analyzer *a, struct tc_insn *inst, uint32_t *walked)
{
	uint32_t limit = a->cfg->walk_limit ? a->cfg->walk_limit : DEFAULT_WALK_LIMIT;
	size_t avail = 0;
	const uint8_t *bytes = NULL;
	int kind = tc_l3_walk_limit;
	struct tc_l3 x;
	if (*walked < limit) {
		kind = tc_l3_no_image;
		bytes = tc_image_lookup(a->image, a->cur.address, &avail);
		if (bytes && tc_insn_decode(l3_isa(a->cur.isa), a->cur.address, bytes, avail, 0, inst) > 0) {
			TC_CLAUSE_CASE(inst->type, "B.3.2/decode_instr");
			++*walked;
			return 1;
		}
	}
	TC_CLAUSE_CASE(kind, "PTM-P14/decode_instr");
	blank_item(a, &x, kind);
	x.address = a->cur.address;
	x.isa = (uint8_t)l3_isa(a->cur.isa);
	emit(a, &x);
	a->cur.valid = 0;
	return 0;
}

/* Whether CurrentState can be walked: known, and not Jazelle (PTM-P12). */
static int can_walk(const struct tc_ptm_analyzer *a)
{
	if (!a->have_isync || !a->cur.valid)
		return 0;
	if (a->cur.isa == tc_ptm_isa_jazelle) {
		TC_CLAUSE("PTM-P12/Jazelle");
		return 0;
	}
	return 1;
}

/* ---- Return stack (App. B.3.2; depth and overflow: PTM-P13) ------------------- */

/* Pushes a return address with the instruction set and security state of
 * the branch with link (lines 23, 65); on a full stack the oldest entry
 * goes (PTM-P13). */
static void push_return(struct tc_ptm_analyzer *a, uint32_t address, int isa, int ns)
{
	if (!a->cfg->return_stack)
		return;
	TC_CLAUSE("B.3.2/ReturnStack.Push");
	if (tc_retstack_push(&a->rs, address, isa, ns)) {
		TC_CLAUSE("PTM-P13/ReturnStack.Full");
	}
}

/* Pops the address, instruction set and security state into CurrentState
 * (line 63); with nothing to pop the target is unknown (PTM-S2). */
static void pop_return(struct tc_ptm_analyzer *a)
{
	struct tc_retstack_entry top;
	if (!a->cfg->return_stack || !tc_retstack_pop(&a->rs, &top)) {
		TC_CLAUSE_CASE(a->cfg->return_stack, "PTM-S2/NoPop");
		a->cur.valid = 0;
		return;
	}
	TC_CLAUSE("B.3.2/ReturnStack.Pop");
	a->cur.address = (uint32_t)top.address;
	a->cur.isa = top.isa;
	if (a->cur.ns != top.ns) {
		a->cur.ns = top.ns;
		report_context(a);
	}
}

/* ---- The operations ------------------------------------------------------------ */

/* Walks from CurrentState to the next waypoint, outputting the others
 * ("the result of the condition code check is unknown"). Returns 1 with
 * the waypoint in *inst (not yet output), 0 when CurrentState was lost. */
static int walk_to_waypoint(struct tc_ptm_analyzer *a, struct tc_insn *inst)
{
	uint32_t walked = 0;
	for (;;) {
		if (!decode_instr(a, inst, &walked))
			return 0;
		if (is_waypoint(inst))
			return 1;
		output_instruction(a, inst);
		a->cur.address += inst->size;
	}
}

/* decode_instr's "branch target address and instruction set state" of a
 * direct branch: BLX (immediate) switches between ARM and Thumb; a branch
 * in ThumbEE stays in ThumbEE (PTM-P12). */
static int direct_target_isa(int isa, const struct tc_insn *inst)
{
	TC_CLAUSE_CASE(inst->next_isa != l3_isa(isa), "B.3.2/decode_instr.TargetISA");
	if (inst->next_isa == tc_isa_a32)
		return tc_ptm_isa_arm;
	return isa == tc_ptm_isa_arm ? tc_ptm_isa_thumb : isa;
}

/* A waypoint with atom value taken: output, then CurrentState goes to the
 * target (direct branches; ISB and not-taken: the next instruction). */
static void take_waypoint(struct tc_ptm_analyzer *a, const struct tc_insn *inst, int taken)
{
	uint32_t next = a->cur.address + inst->size;
	int isa = a->cur.isa, ns = a->cur.ns;
	output_instruction(a, inst);
	close_range(a, inst->type, taken ? tc_taken_e : tc_taken_n);
	if (!taken) {
		TC_CLAUSE("B.3.2/analyze_atomheader.N");
		a->cur.address = next;
		return;
	}
	TC_CLAUSE_CASE(inst->type, "B.3.2/analyze_atomheader.E");
	if (inst->type == tc_insn_isb) {
		a->cur.address = next;
		return;
	}
	if (inst->type == tc_insn_branch_dir) {
		a->cur.address = (uint32_t)inst->target;
		a->cur.isa = (uint8_t)direct_target_isa(a->cur.isa, inst);
	} else {
		pop_return(a);   /* indirect: only the return stack knows the target */
	}
	if (inst->is_link)
		push_return(a, next, isa, ns);
}

/* analyze_atomheader(): each atom walks to its waypoint. */
static void analyze_atomheader(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	TC_CLAUSE("B.3.2/analyze_atomheader");
	for (int i = 0; i < p->natoms && can_walk(a); i++) {
		struct tc_insn inst;
		if (!walk_to_waypoint(a, &inst))
			break;
		take_waypoint(a, &inst, (p->atoms >> i) & 1);
	}
}

/* The state a branch address packet or I-sync gives CurrentState. */
static void set_current(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	a->cur.address = p->address;
	a->cur.isa = p->isa;
	a->cur.ns = p->ns;
	a->cur.hyp = p->hyp;
	a->cur.valid = 1;
}

/* branch_no_excp(): walk to the waypoint, which the packet says was
 * taken (an implied E atom, §4.5.4); its target is the packet's address;
 * a branch with link pushes (step 6.2). Step 1 stores the target in a
 * temporary, not CurrentState (PTM-S1). */
static void branch_no_excp(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	struct tc_insn inst;
	TC_CLAUSE_CASE(p->has_exception, "B.3.2/branch_no_excp");
	if (can_walk(a) && walk_to_waypoint(a, &inst)) {
		uint32_t next = a->cur.address + inst.size;
		output_instruction(a, &inst);
		close_range(a, inst.type, tc_taken_e);
		if (inst.is_link) {
			TC_CLAUSE("B.3.2/branch_no_excp.6.2");
			push_return(a, next, a->cur.isa, a->cur.ns);
		}
	}
	set_current(a, p);
	report_context(a);
}

/* branch_with_excp(): an exception item, whose preferred return address
 * is where the analysis stands (after the waypoint update that precedes an
 * exception, §2.1.2; PTM-P15); then CurrentState goes to the target. */
static void branch_with_excp(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE_CASE(a->cur.valid, "B.3.2/branch_with_excp");
	blank_item(a, &x, tc_l3_exception);
	x.type = p->exception;
	x.address = a->cur.address;
	x.unknown = !a->cur.valid;
	emit(a, &x);
	set_current(a, p);
	report_context(a);
}

/* analyze_waypoint_update(), repaired (PTM-S3): the instructions from
 * CurrentState up to, not including, the waypoint address, stopping before
 * a waypoint instruction, whose atom comes later; CurrentState stays at
 * the first instruction not output; LastState does not change. */
static void analyze_waypoint_update(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	uint32_t walked = 0;
	TC_CLAUSE("B.3.2/analyze_waypoint_update");
	while (can_walk(a) && a->cur.address < p->address) {
		struct tc_insn inst;
		if (!decode_instr(a, &inst, &walked))
			break;
		if (is_waypoint(&inst)) {
			TC_CLAUSE("PTM-S3/analyze_waypoint_update.Waypoint");
			break;
		}
		output_instruction(a, &inst);
		a->cur.address += inst.size;
	}
	close_range(a, tc_insn_other, tc_taken_none);
}

/* I-sync: CurrentState from the packet; a discontinuity (reason other than
 * periodic) is reported and clears the return stack (PTM-P16). */
static void analyze_isync(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	TC_CLAUSE_CASE(p->reason, "PTM-P16/Isync");
	if (p->reason == 2)
		emit_simple(a, tc_l3_overflow);
	else if (p->reason != 0)
		emit_simple(a, tc_l3_trace_on);
	if (p->reason != 0)
		tc_retstack_reset(&a->rs);
	close_range(a, tc_insn_other, tc_taken_none);
	a->have_isync = 1;
	if (p->has_ctxid)
		a->context_id = p->context_id;
	set_current(a, p);
	report_context(a);
}

static void analyze_error(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE("PTM-P5/Error");
	blank_item(a, &x, tc_l3_error);
	x.error = p->error;
	emit(a, &x);
	a->have_isync = 0;
	a->cur.valid = 0;
	tc_retstack_reset(&a->rs);   /* PTM-P13: an error empties it */
}

static void analyze_timestamp(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	struct tc_l3 x;
	TC_CLAUSE("PTM-P17/Timestamp");
	blank_item(a, &x, tc_l3_timestamp);
	x.value = p->value;
	x.count = p->cc;
	x.unknown = !p->has_cc;
	emit(a, &x);
}

/* Packets that walk instructions do so only after an I-sync (PTM-P5). */
static void analyze_flow(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	if (!a->have_isync) {
		TC_CLAUSE("PTM-P5/BeforeIsync");
		return;
	}
	switch (p->h.kind) {
	case tc_ptm_pkt_atom: analyze_atomheader(a, p); break;
	case tc_ptm_pkt_waypoint: analyze_waypoint_update(a, p); break;
	default:
		if (p->has_exception && p->exception != 0)
			branch_with_excp(a, p);
		else
			branch_no_excp(a, p);
		break;
	}
}

/* analyze_cid(): the context ID of LastState and CurrentState. */
static void analyze_cid(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	TC_CLAUSE("B.3.2/analyze_cid");
	a->context_id = p->context_id;
	report_context(a);
}

/* analyze_vmid(): the VMID of LastState and CurrentState. */
static void analyze_vmid(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	TC_CLAUSE("B.3.2/analyze_vmid");
	a->vmid = p->vmid;
	report_context(a);
}

/* analyze_eret(): an exception return event object. */
static void analyze_eret(struct tc_ptm_analyzer *a)
{
	TC_CLAUSE("B.3.2/analyze_eret");
	emit_simple(a, tc_l3_exception_return);
}

static void analyze_trigger(struct tc_ptm_analyzer *a)
{
	TC_CLAUSE("PTM-P17/Trigger");
	emit_simple(a, tc_l3_trigger);
}

/* The cycle count of an atom, branch or I-sync packet: after the packet's
 * instructions (PTM-P17). */
static void analyze_cycle_count(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	TC_CLAUSE("PTM-P17/CycleCount");
	emit_count(a, tc_l3_cycle_count, p->cc);
}

void tc_ptm_analyze(struct tc_ptm_analyzer *a, const struct tc_ptm_packet *p)
{
	a->offset = p->h.offset;
	switch (p->h.kind) {
	case tc_ptm_pkt_isync: analyze_isync(a, p); break;
	case tc_ptm_pkt_atom:
	case tc_ptm_pkt_branch:
	case tc_ptm_pkt_waypoint: analyze_flow(a, p); break;
	case tc_ptm_pkt_context_id: analyze_cid(a, p); break;
	case tc_ptm_pkt_vmid: analyze_vmid(a, p); break;
	case tc_ptm_pkt_timestamp: analyze_timestamp(a, p); break;
	case tc_ptm_pkt_exception_return: analyze_eret(a); break;
	case tc_ptm_pkt_trigger: analyze_trigger(a); break;
	case tc_ptm_pkt_error: analyze_error(a, p); break;
	default: break;   /* A-sync, Ignore, warnings */
	}
	if (p->h.kind != tc_ptm_pkt_timestamp && p->h.kind != tc_ptm_pkt_error && p->has_cc)
		analyze_cycle_count(a, p);
}

void tc_ptm_analyze_flush(struct tc_ptm_analyzer *a)
{
	close_range(a, tc_insn_other, tc_taken_none);
}

void tc_ptm_analyze_init(struct tc_ptm_analyzer *a, const struct tc_ptm_config *cfg,
			 const struct tc_ptm_sink *sink)
{
	memset(a, 0, sizeof *a);
	a->cfg = cfg;
	a->sink = sink;
	tc_retstack_init(&a->rs, TC_PTM_RETURN_STACK_DEPTH);   /* PTM-P13: 15 entries */
}
