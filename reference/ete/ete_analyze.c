/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_analyze.c — ETE stage 3: analysis of resolved elements against a program image (K10.5.5). */
#include <stdlib.h>
#include <string.h>

#include "ete_internal.h"
#include "tracecert/image.h"

#define DEFAULT_WALK_LIMIT 1048576u

/* ---- Output: an open range, and a short list of items that a Mispredict
 * may still amend (the range of the most recent branch). ------------------ */

static void flush_output(struct tc_ete_stage3 *s)
{
	/* sink->l3 is never NULL when nout > 0: stage 3 runs only for an L3 sink (send_l2) */
	for (int i = 0; i < s->nout; i++)
		if (s->sink->l3)
			s->sink->l3(s->sink->ctx, &s->out[i]);
	s->nout = 0;
	s->amend = -1;
}

static struct tc_l3 *new_item(struct tc_ete_stage3 *s, int kind)
{
	struct tc_l3 *x;
	if (s->nout == TC_L3_PENDING)
		flush_output(s);   /* a Mispredict this late can no longer amend the range */
	x = &s->out[s->nout++];
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_ete;
	x->h.kind = (uint16_t)kind;
	x->h.offset = s->offset;
	return x;
}

static int current_isa(const struct tc_reconstruct *st)
{
	if (st->ctx.sf)
		return tc_isa_a64;
	return st->sub_isa ? tc_isa_t32 : tc_isa_a32;
}

/* Ends the open range; taken describes its last instruction. */
static void close_range(struct tc_ete_stage3 *s, int last_type, int taken)
{
	struct tc_l3 *x;
	if (!s->range_open)
		return;
	s->range_open = 0;
	x = new_item(s, tc_l3_range);
	*x = s->range;
	x->last_type = (uint8_t)last_type;
	x->taken = (uint8_t)taken;
	/* the range of a branch ProcessBranchInstruction saw (E or N), which a
	 * Mispredict flips; a P0 instruction inside a Q (taken=?) is not one */
	if (taken == tc_taken_e || taken == tc_taken_n)
		s->amend = s->nout - 1;
}

/* K10.5.5.18.1 OutputInstruction: adds the instruction at the current
 * address to the open range. */
static inline void output_instruction(struct tc_ete_stage3 *s, const struct tc_insn *inst)
{
	TC_CLAUSE("K10.5.5.18.1/OutputInstruction");
	uint64_t at = s->cur.address;
	int isa = current_isa(&s->cur);
	(void)inst;
	/* an open range never changes ISA (branches, addresses, contexts close it); at jumps only on an AArch32 wrap */
	if (s->range_open && (s->range.isa != isa || at != s->range_next))
		close_range(s, tc_insn_other, tc_taken_none);
	if (!s->range_open) {
		memset(&s->range, 0, sizeof s->range);
		s->range.h.size = sizeof s->range;
		s->range.h.protocol = tc_proto_ete;
		s->range.h.kind = tc_l3_range;
		s->range.h.offset = s->offset;
		s->range.first = at;
		s->range.isa = (uint8_t)isa;
		s->range_open = 1;
	}
	s->range.last = at;
	s->range.count++;
	s->range_next = at + inst->size;
	s->inst_out_count++;
}

static void emit_simple(struct tc_ete_stage3 *s, int kind)
{
	close_range(s, tc_insn_other, tc_taken_none);
	new_item(s, kind);
}

/* ---- K10.5.6.3.8 ReturnStack ------------------------------------------------ */

/* ReturnStack.Push(addr, sub_isa): an entry holds no security state; on a
 * full stack the oldest entry is discarded (K10.5.5.3 RGMTBD, IMPGDD). */
static void return_stack_push(struct tc_ete_stage3 *s, uint64_t address, int sub_isa)
{
	TC_CLAUSE("K10.5.6.3.8/ReturnStack.Push");
	tc_retstack_push(&s->rs, address, sub_isa, 0);
}

static uint64_t mask_address(uint64_t address, int sixty_four_bit)
{
	return sixty_four_bit ? address : address & UINT64_C(0xffffffff);
}

/* K10.5.5.3.1 UpdateReturnStack: push only for a taken branch with link
 * (TC-S20). */
static void update_return_stack(struct tc_ete_stage3 *s, const struct tc_insn *inst, int taken)
{
	TC_CLAUSE("K10.5.5.3.1/UpdateReturnStack");
	if (!inst->is_link || !taken || !s->cfg->retstack)
		return;
	return_stack_push(s, mask_address(s->cur.address + inst->size, s->cur.ctx.sf), s->cur.sub_isa);
}

/* K10.5.5.18.2 CheckForReturnStackMatch: pops only when a taken indirect
 * branch is still waiting for its target (TC-S24). Then the reset that a
 * Trace On or Trace Info asked for happens (TC-S21). */
static void check_for_return_stack_match(struct tc_ete_stage3 *s)
{
	TC_CLAUSE("K10.5.5.18.2/CheckForReturnStackMatch");
	struct tc_retstack_entry top;
	/* an empty stack pops nothing: the branch still waits for its target */
	if (s->sync_state == TC_SYNC_CONTEXT && s->pop_pending && s->cfg->retstack && tc_retstack_pop(&s->rs, &top)) {
		TC_CLAUSE("K10.5.6.3.8/ReturnStack.Pop");
		s->cur.address = top.address;
		s->cur.sub_isa = top.isa;
		s->sync_state = TC_SYNC_FULL;
		s->pop_pending = 0;
	}
	if (s->return_stack_clear_pending) {
		TC_CLAUSE("K10.5.6.3.8/ReturnStack.Reset");
		tc_retstack_reset(&s->rs);
		s->return_stack_clear_pending = 0;
	}
}

/* ---- K10.5.5.18.3 UpdateBranchState, K10.5.5.18.4 ProcessBranchInstruction */

static struct tc_reconstruct update_branch_state(struct tc_ete_stage3 *s, const struct tc_insn *inst,
						  const struct tc_reconstruct *in, int taken)
{
	TC_CLAUSE("K10.5.5.18.3/UpdateBranchState");
	struct tc_reconstruct out = s->cur;
	out.address = in->address;
	out.ctx.sf = in->ctx.sf;
	out.sub_isa = in->sub_isa;
	if (taken) {
		if (inst->type == tc_insn_branch_indir) {
			s->sync_state = TC_SYNC_CONTEXT;   /* wait for the target (or a return-stack pop) */
			s->pop_pending = 1;                /* TC-S24 */
		} else {
			out.address = inst->type == tc_insn_branch_dir ? inst->target : out.address + inst->size;
			out.address = mask_address(out.address, in->ctx.sf);
			out.sub_isa = inst->next_isa == tc_isa_t32;
		}
	} else {
		out.address = mask_address(out.address + inst->size, out.ctx.sf);
	}
	return out;
}

static void process_branch_instruction(struct tc_ete_stage3 *s, const struct tc_insn *inst, int taken)
{
	TC_CLAUSE("K10.5.5.18.4/ProcessBranchInstruction");
	s->mr_state = s->cur;
	s->mr_inst = *inst;
	s->mr_taken = taken;
	s->mr_valid = 1;
	s->next = update_branch_state(s, inst, &s->cur, taken);
}

/* ---- K10.5.6.3.11 ProgramImage ---------------------------------------------- */

/* The cache, sized at the first decode to the image (a slot per 4 bytes of
 * code, a power of two from 64 to TC_INSN_CACHE_SIZE), so that a decoder of
 * a short trace over a small image allocates little. */
static void icache_alloc(struct tc_ete_stage3 *s)
{
	uint64_t bytes = 0;
	uint32_t size = 64;
	for (int i = 0; s->image && i < s->image->n; i++)
		bytes += s->image->region[i].size;
	while (size < TC_INSN_CACHE_SIZE && size < bytes / 4)
		size <<= 1;
	s->icache = calloc(size, sizeof *s->icache);
	s->icache_size = s->icache ? size : 0;
}

/* TRCIDR2.WFXMODE: WFI/WFE/WFIT/WFET are P0 instructions (InstType WFX,
 * K10.5.6.2.3) only when it is 1; the classifier's wfx_p0. */
static inline int wfx_is_p0(const struct tc_ete_config *cfg)
{
	return cfg->wfxmode != 0;
}

/* DecodeNextInst: the instruction at address, or 0 when the image does not
 * hold it. Successful decodes are remembered in a direct-mapped cache: the
 * result depends only on image bytes, which never change once added
 * (regions are copies, cannot overlap and are not removed while decoding;
 * tc_ete_set_image empties the cache). */
static inline int decode_inst(struct tc_ete_stage3 *s, int isa, uint64_t address, struct tc_insn *inst)
{
	size_t avail = 0;
	const uint8_t *bytes;
	struct tc_insn_cache_entry *c = NULL;
	if (!s->icache)
		icache_alloc(s);   /* may fail: then every instruction is decoded */
	if (s->icache) {
		/* A64 and A32 instructions are word aligned, T32 halfword aligned:
		 * one slot per possible instruction of an image up to the size */
		c = &s->icache[(address >> (isa == tc_isa_t32 ? 1 : 2)) & (s->icache_size - 1)];
		if (c->valid && c->address == address && c->isa == isa) {
			*inst = c->insn;
			return 1;
		}
	}
	bytes = tc_image_lookup(s->image, address, &avail);
	if (!bytes || tc_insn_decode(isa, address, bytes, avail, wfx_is_p0(s->cfg), inst) <= 0)
		return 0;
	if (c) {
		c->address = address;
		c->isa = (uint8_t)isa;
		c->valid = 1;
		c->insn = *inst;
	}
	return 1;
}

void tc_stage3_set_image(struct tc_ete_stage3 *s, const struct tc_image *image)
{
	s->image = image;
	free(s->icache);   /* sized again for the new image at the next decode */
	s->icache = NULL;
	s->icache_size = 0;
}

/* DecodeAvailable + DecodeNextInst at the current address. On failure a
 * no-image (or walk-limit) item is output and sync drops to CONTEXT, as the
 * pseudocode does for !DecodeAvailable(). */
static inline int decode_next(struct tc_ete_stage3 *s, struct tc_insn *inst, uint32_t *walked)
{
	TC_CLAUSE("K10.5.6.3.11/ProgramImage");
	uint32_t limit = s->cfg->walk_limit ? s->cfg->walk_limit : DEFAULT_WALK_LIMIT;
	int kind = tc_l3_no_image;
	if (*walked >= limit)
		kind = tc_l3_walk_limit;
	else if (decode_inst(s, current_isa(&s->cur), s->cur.address, inst)) {
		++*walked;
		return 1;
	}
	close_range(s, tc_insn_other, tc_taken_none);
	{
		TC_CLAUSE_CASE(kind, "TC-P23/DecodeAvailable=FALSE");
		struct tc_l3 *x = new_item(s, kind);
		x->address = s->cur.address;
		x->isa = (uint8_t)current_isa(&s->cur);
	}
	s->sync_state = TC_SYNC_CONTEXT;
	s->pop_pending = 0;
	return 0;
}

static int is_p0_type(int type)
{
	return type != tc_insn_other;
}

/* A P0 element starts: the range a Mispredict could amend is final. */
static void start_p0(struct tc_ete_stage3 *s)
{
	close_range(s, tc_insn_other, tc_taken_none);
	flush_output(s);
	check_for_return_stack_match(s);
}

/* The common start of AnalyzeAtom and AnalyzeSourceAddress: an address
 * without a context is stale after a P0 element. Returns whether the walk
 * can proceed (FULL_SYNC). */
static int start_p0_walk(struct tc_ete_stage3 *s)
{
	start_p0(s);
	if (s->sync_state == TC_SYNC_ADDRESS)
		s->sync_state = TC_SYNC_NOT;
	return s->sync_state == TC_SYNC_FULL;
}

/* ---- K10.5.5.4 – K10.5.5.17 Analyze* -------------------------------------------- */

/* K10.5.5.4.1 AnalyzeAtom */
static void analyze_atom(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.5.4.1/AnalyzeAtom");
	int taken = e->atom_e;
	uint32_t walked = 0;
	if (!start_p0_walk(s))
		return;
	for (;;) {
		struct tc_insn inst;
		if (!decode_next(s, &inst, &walked))
			return;
		TC_CLAUSE_CASE(inst.type, "K10.5.5.4.1/AnalyzeAtom.branchtype");
		if (!is_p0_type(inst.type)) {
			output_instruction(s, &inst);
			s->cur.address = mask_address(s->cur.address + inst.size, s->cur.ctx.sf);
			continue;
		}
		process_branch_instruction(s, &inst, taken);
		update_return_stack(s, &inst, taken);
		output_instruction(s, &inst);
		close_range(s, inst.type, taken ? tc_taken_e : tc_taken_n);
		s->cur = s->next;
		return;
	}
}

/* K10.5.6.3.12 ExceptionWithUnknownAddress (type 0x19 as published, E-47). */
static int exception_with_unknown_address(int type)
{
	TC_CLAUSE_CASE(type, "K10.5.6.3.12/ExceptionWithUnknownAddress");
	return type == 0x00 || type == 0x19;
}

/* K10.5.5.6.1 AnalyzeException: the instructions up to, not including, the
 * preferred return address; ADDRESS drops to NOT_SYNC (TC-S23). */
static void analyze_exception(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.5.6.1/AnalyzeException");
	uint64_t per = e->address;
	uint32_t walked = 0;
	struct tc_l3 *x;
	start_p0(s);
	if (s->sync_state == TC_SYNC_ADDRESS)
		s->sync_state = TC_SYNC_NOT;
	if (s->sync_state == TC_SYNC_FULL && !exception_with_unknown_address(e->type)) {
		while (s->cur.address < per) {
			struct tc_insn inst;
			if (!decode_next(s, &inst, &walked))
				break;
			if (is_p0_type(inst.type)) {
				process_branch_instruction(s, &inst, 0);
				update_return_stack(s, &inst, 0);
			}
			output_instruction(s, &inst);
			if (is_p0_type(inst.type))
				close_range(s, inst.type, tc_taken_n);
			s->cur.address = mask_address(s->cur.address + inst.size, s->cur.ctx.sf);
		}
	}
	close_range(s, tc_insn_other, tc_taken_none);
	x = new_item(s, tc_l3_exception);
	x->type = e->type;
	x->address = per;
	x->unknown = (uint8_t)exception_with_unknown_address(e->type);
}

/* K10.5.5.7.1 AnalyzeSourceAddress: up to and including the instruction at
 * the source address, which is taken; the walk stops there (TC-S22). If the
 * current address is already past it, the walk restarts at it (TC-P20). */
static void analyze_source_address(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.5.7.1/AnalyzeSourceAddress");
	uint64_t src = e->address;
	uint32_t walked = 0;
	if (!start_p0_walk(s))
		return;
	if (s->cur.address > src)
		s->cur.address = src;
	for (;;) {
		struct tc_insn inst;
		int at_src = s->cur.address == src;
		if (!decode_next(s, &inst, &walked))
			return;
		s->next = s->cur;
		s->next.address = mask_address(s->cur.address + inst.size, s->cur.ctx.sf);
		if (is_p0_type(inst.type)) {
			process_branch_instruction(s, &inst, at_src);
			update_return_stack(s, &inst, at_src);
		}
		output_instruction(s, &inst);
		if (is_p0_type(inst.type))
			close_range(s, inst.type, at_src ? tc_taken_e : tc_taken_n);
		s->cur = s->next;
		if (at_src || s->cur.address > src)
			break;
	}
	close_range(s, tc_insn_other, tc_taken_none);
}

/* K10.5.5.15.1 AnalyzeQ: count instructions, linearly; no count means wait
 * for an address. Unsynchronised, nothing can be walked (TC-S26). */
static void analyze_q(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.5.15.1/AnalyzeQ");
	uint32_t walked = 0;
	start_p0(s);
	if (e->count == 0) {
		s->sync_state = TC_SYNC_CONTEXT;
		s->pop_pending = 0;
		return;
	}
	if (s->sync_state != TC_SYNC_FULL)
		return;
	for (uint64_t i = 0; i < e->count; i++) {
		struct tc_insn inst;
		if (!decode_next(s, &inst, &walked))
			return;
		output_instruction(s, &inst);
		if (is_p0_type(inst.type))
			close_range(s, inst.type, tc_taken_unknown);
		s->cur.address = mask_address(s->cur.address + inst.size, s->cur.ctx.sf);
	}
	close_range(s, tc_insn_other, tc_taken_none);
}

/* K10.5.5.8.1 AnalyzeTargetAddress */
static void analyze_target_address(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE_CASE(s->sync_state, "K10.5.5.8.1/AnalyzeTargetAddress");
	close_range(s, tc_insn_other, tc_taken_none);
	s->cur.address = e->address;
	s->cur.sub_isa = e->isa;
	s->pop_pending = 0;
	if (s->sync_state == TC_SYNC_NOT)
		s->sync_state = TC_SYNC_ADDRESS;
	else if (s->sync_state == TC_SYNC_CONTEXT)
		s->sync_state = TC_SYNC_FULL;
}

/* K10.5.5.5.1 AnalyzeContext; the L3 item only when the context changes. */
static void analyze_context(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE_CASE(s->sync_state, "K10.5.5.5.1/AnalyzeContext");
	if (!s->ctx_out_valid || memcmp(&s->ctx_out, &e->ctx, sizeof e->ctx) != 0) {
		close_range(s, tc_insn_other, tc_taken_none);
		new_item(s, tc_l3_context)->ctx = e->ctx;
		s->ctx_out = e->ctx;
		s->ctx_out_valid = 1;
	}
	s->cur.ctx = e->ctx;
	if (s->sync_state == TC_SYNC_NOT)
		s->sync_state = TC_SYNC_CONTEXT;
	else if (s->sync_state == TC_SYNC_ADDRESS)
		s->sync_state = TC_SYNC_FULL;
}

/* K10.5.5.11.1 AnalyzeMispredict: flips the most recent branch and redoes
 * its state; a now-not-taken indirect branch no longer waits for a target
 * (TC-S25); nothing to flip when no branch was analysed since the last
 * loss of sync (TC-P19). The range of that branch is amended in place. */
static void analyze_mispredict(struct tc_ete_stage3 *s)
{
	TC_CLAUSE("K10.5.5.11.1/AnalyzeMispredict");
	if (!s->mr_valid)
		return;
	s->mr_taken = !s->mr_taken;
	s->cur = update_branch_state(s, &s->mr_inst, &s->mr_state, s->mr_taken);
	if (s->mr_inst.type == tc_insn_branch_indir && !s->mr_taken) {
		s->sync_state = TC_SYNC_FULL;
		s->pop_pending = 0;
	}
	if (s->amend >= 0)
		s->out[s->amend].taken = s->mr_taken ? tc_taken_e : tc_taken_n;
}

/* Trace On, Discard, Overflow, errors: synchronisation is lost. */
static void lose_sync(struct tc_ete_stage3 *s, int kind)
{
	emit_simple(s, kind);
	s->sync_state = TC_SYNC_NOT;
	s->pop_pending = 0;
	s->mr_valid = 0;
}

static void analyze_timestamp(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.5.16.1/AnalyzeTimestamp");
	struct tc_l3 *x;
	close_range(s, tc_insn_other, tc_taken_none);
	x = new_item(s, tc_l3_timestamp);
	x->value = e->value;
	x->count = e->count;
	x->unknown = e->unknown;
}

static void analyze_counted(struct tc_ete_stage3 *s, const struct tc_ete_elem *e, int kind)
{
	struct tc_l3 *x;
	close_range(s, tc_insn_other, tc_taken_none);
	x = new_item(s, kind);
	x->count = e->count;
	x->unknown = e->unknown;
	x->ctx.el = e->ctx.el;
	x->value = e->value;
	x->error = e->error;
}

/* K10.5.5.1.1 AnalyzeElement, with arms for the transaction elements
 * (TC-S19) and the later packets. */
void tc_stage3_analyze(struct tc_ete_stage3 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE_CASE(e->h.kind, "K10.5.5.1.1/AnalyzeElement");
	s->offset = e->h.offset;
	switch (e->h.kind) {
	case tc_ete_elem_target_address: analyze_target_address(s, e); break;
	case tc_ete_elem_context: analyze_context(s, e); break;
	case tc_ete_elem_mispredict: analyze_mispredict(s); break;
	case tc_ete_elem_atom: analyze_atom(s, e); break;
	case tc_ete_elem_exception: analyze_exception(s, e); break;
	case tc_ete_elem_q: analyze_q(s, e); break;
	case tc_ete_elem_source_address: analyze_source_address(s, e); break;
	case tc_ete_elem_trace_on:
		TC_CLAUSE("K10.5.5.10.1/AnalyzeTraceOn");
		s->return_stack_clear_pending = 1;   /* K10.5.5.10.1 AnalyzeTraceOn */
		lose_sync(s, tc_l3_trace_on);
		break;
	case tc_ete_elem_trace_info:             /* K10.5.5.9.1 AnalyzeTraceInfo */
		TC_CLAUSE("K10.5.5.9.1/AnalyzeTraceInfo");
		check_for_return_stack_match(s);
		s->return_stack_clear_pending = 1;
		break;
	case tc_ete_elem_discard: lose_sync(s, tc_l3_discard); break;      /* TC-S16 */
	case tc_ete_elem_overflow: lose_sync(s, tc_l3_overflow); break;
	case tc_ete_elem_error: lose_sync(s, tc_l3_error); s->out[s->nout - 1].error = e->error; break;
	case tc_ete_elem_timestamp: analyze_timestamp(s, e); break;
	case tc_ete_elem_cycle_count: analyze_counted(s, e, tc_l3_cycle_count); break;
	case tc_ete_elem_event: analyze_counted(s, e, tc_l3_event); break;
	case tc_ete_elem_unresolved: analyze_counted(s, e, tc_l3_unresolved); break;
	case tc_ete_elem_instrumentation: analyze_counted(s, e, tc_l3_instrumentation); break;
	case tc_ete_elem_ts_marker: emit_simple(s, tc_l3_ts_marker); break;
	case tc_ete_elem_trans_start: emit_simple(s, tc_l3_trans_start); break;
	case tc_ete_elem_trans_commit: emit_simple(s, tc_l3_trans_commit); break;
	case tc_ete_elem_trans_failure: emit_simple(s, tc_l3_trans_failure); break;
	default: break;   /* commit and cancel never leave stage 2 */
	}
}

/* End of trace: everything still held is output. */
void tc_stage3_flush(struct tc_ete_stage3 *s)
{
	close_range(s, tc_insn_other, tc_taken_none);
	flush_output(s);
}

/* Stage 3 runs only for an L3 sink (ete_decoder.c send_l2): without one,
 * no range opens and no item is made, so the pending list is not needed. */
int tc_stage3_init(struct tc_ete_stage3 *s, const struct tc_ete_config *cfg, const struct tc_ete_sink *sink)
{
	memset(s, 0, sizeof *s);
	s->cfg = cfg;
	s->sink = sink;
	s->sync_state = TC_SYNC_NOT;
	s->amend = -1;
	tc_retstack_init(&s->rs, TC_RETURN_STACK_DEPTH);   /* K10.5.5.3 RXSVZC: 15 entries */
	if (sink && sink->l3) {
		s->out = malloc(TC_L3_PENDING * sizeof *s->out);   /* new_item clears each item it hands out */
		if (!s->out)
			return -1;
	}
	return 0;
}

void tc_stage3_fini(struct tc_ete_stage3 *s)
{
	free(s->icache);
	free(s->out);
	s->icache = NULL;
	s->out = NULL;
}
