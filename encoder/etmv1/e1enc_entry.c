/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_entry.c — the ETMv1 encoder: the execution of a random program through the cycle model, and
 * its entry in the table of encoders (tracecert/encoder.h): what `tracecert gen --protocol etmv1`
 * calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1enc_internal.h"
#include "tracecert/execlog.h"
#include "tracecert/protocol.h"

extern const char *const enc_etmv1_variant_names[];
extern const int enc_etmv1_variant_total;

static int variant_count(void)
{
	return enc_etmv1_variant_total;
}

static const char *variant_name(int i)
{
	return (i >= 0 && i < enc_etmv1_variant_total) ? enc_etmv1_variant_names[i] : NULL;
}

/* ---- The execution: one instruction at a time --------------------------------------------- */

struct e1e_exec {
	int block;          /* the block being run */
	int next;           /* its next instruction: 0..nother-1, or the terminator */
};

static uint32_t random_ctxid(struct e1e *e);

/* The handler's return, at the vector, to ret (bit 0 for Thumb): one BX Rm or MOV pc, Rm. */
static void handler_return(struct e1e *e, uint32_t vector, uint32_t ret)
{
	e1e_instruction(e, tc_etmv1_ps_be, vector, tc_insn_branch_indir, 1, 1, ret, 0);
}

/* An exception in a branch's APO cycle (ETM1-P19): its handler returns to the branch's target. */
static void pending_handler(struct e1e *e)
{
	if (!e->handler_pending)
		return;
	e->handler_pending = 0;
	handler_return(e, e->handler_vector, e->handler_ret);
}

static const char *const term_names[e1e_term_all] = { "b", "bl", "bcond", "bx", "mov pc", "blx imm", "blx rm",
						       "ldr pc", "pop pc" };

/* A load to the PC (ETM1-E3: it interworks, ARMv5T; the loaded word is the branch address): with
 * data tracing on BD with its data, else BE (§5.7.1 L8295-8312). */
static void load_pc(struct e1e *e, const struct e1e_block *k, struct e1e_insn *in)
{
	int size = 0;
	int n = k->thumb ? e1e_transfers_t16(e1e_half(&e->prog, in->addr), &size)
			 : e1e_transfers(e1e_word(&e->prog, in->addr), &size);
	if (e->cfg.data_value || e->cfg.data_address) {
		in->ps = tc_etmv1_ps_bd;
		e1e_data_step(e, in, n, size);
		e1e_hit(e, "bd %s%s", term_names[k->term], k->thumb ? " thumb" : "");
		return;
	}
	e1e_step(e, in);
}

/* The terminator at at of block k: its PIPESTATs (a Thumb BL or BLX pair two, ETM1-P25) and where
 * the execution goes; returns the next block. */
static int execute_term(struct e1e *e, const struct e1e_exec *x, const struct e1e_block *k, uint32_t at)
{
	int load = k->term == e1e_ldr_pc || k->term == e1e_pop_pc;
	int indirect = k->term == e1e_bx || k->term == e1e_mov_pc || k->term == e1e_blx_reg || load;
	int taken = k->term != e1e_bcond || enc_chance(&e->rng, 50);
	int to = indirect ? (int)enc_below(&e->rng, (unsigned)e->prog.nblocks) : k->target;
	if (k->term == e1e_mov_pc)
		to = e1e_block_of_isa(&e->prog, to, k->thumb);   /* MOV pc does not change the set (ARMv5T) */
	int pair = k->thumb && (k->term == e1e_bl || k->term == e1e_blx_imm);
	struct e1e_insn in = { .ps = tc_etmv1_ps_be, .addr = at, .thumb = k->thumb, .size = pair || !k->thumb ? 4 : 2,
			       .type = indirect ? tc_insn_branch_indir : tc_insn_branch_dir, .executed = 1,
			       .indirect = indirect, .target = e1e_code_addr(&e->prog, to), .may_abandon = 1 };
	if (!taken && x->block + 1 == e->prog.nblocks)
		taken = 1;   /* the last block's B<cond> would fall off the program: taken */
	e1e_hit(e, "term %s %s%s", k->thumb ? "thumb" : "arm", term_names[k->term],
		k->term != e1e_bcond ? "" : taken ? " taken" : " not taken");
	if (pair) {
		struct e1e_insn first = { .ps = tc_etmv1_ps_ie, .addr = at, .thumb = 1, .size = 2, .type = tc_insn_other,
					  .executed = 1, .first_half = 1 };
		e1e_step(e, &first);   /* ETM1-P25: the first half's IE walks nothing */
	}
	if (!taken) {
		in.ps = tc_etmv1_ps_in;   /* ETM1-P26: not executed */
		in.executed = 0;
		e1e_step(e, &in);
		return x->block + 1;
	}
	if (e->prog.block[to].thumb != k->thumb)
		e1e_hit(e, "interworking %s", k->thumb ? "thumb to arm" : "arm to thumb");
	if (load) {
		load_pc(e, k, &in);
		pending_handler(e);
	} else if (indirect || e->cfg.branch_output) {
		/* Table 5-1 BE (L7962); branch_output (ETMCR[8], L3675): every branch with its address */
		e1e_step(e, &in);
		pending_handler(e);
		if (!indirect)
			e1e_hit(e, "direct branch as be (branch_output)");
	} else {
		in.ps = tc_etmv1_ps_ie;   /* a direct branch: IE (L7958) */
		in.refill = 2;
		e1e_step(e, &in);
		pending_handler(e);   /* made BE for a full address or a Context ID (e1e_step) */
	}
	return to;
}

/* §4.5.3 (L7420-7446), ETM1-P17: the exceptions that do not cancel their instruction: an undefined
 * instruction (0x04), SVC (0x08), a data abort (0x10): its PIPESTAT is the BE to the vector (BD
 * when an aborted access's data is traced, §5.7.4 L8350-8354); L3 the instruction, then
 * `exception` returning to the next one. Returns 0 when the instruction takes none. */
static int trap(struct e1e *e, struct e1e_insn *in, uint32_t w, int ntransfers, int size)
{
	int kind = e1e_trap_kind(w, in->thumb);
	int traced = e->cfg.data_value || e->cfg.data_address;
	if (!kind && ntransfers && e->dabort_percent && enc_chance(&e->rng, e->dabort_percent))
		kind = 0xc;
	if (!kind || !in->executed)
		return 0;
	static const uint32_t offsets[] = { [0x9] = 0x04, [0xa] = 0x08, [0xc] = 0x10 };
	in->ps = kind == 0xc && traced ? tc_etmv1_ps_bd : tc_etmv1_ps_be;
	in->indirect = 1;
	in->target = e->prog.vector_base + offsets[kind];
	in->exc_type = kind;
	in->exc_ret = in->addr + (uint32_t)in->size;
	if (in->ps == tc_etmv1_ps_bd)
		e1e_data_step(e, in, ntransfers, size);
	else
		e1e_step(e, in);
	e1e_hit(e, "exception %s%s%s", kind == 0x9 ? "undefined" : kind == 0xa ? "svc" : "data abort",
		kind == 0xc ? (in->ps == tc_etmv1_ps_bd ? " bd" : " be") : "", in->thumb ? " thumb" : "");
	handler_return(e, in->target, in->exc_ret | (in->thumb ? 1u : 0u));
	return 1;
}

/* An instruction that is not its block's terminator: IE, IN (A32 only: Thumb has no condition
 * but B<cond>'s) or, a load or store with data tracing on, ID. */
static void execute_other(struct e1e *e, const struct e1e_block *k, uint32_t at)
{
	uint32_t w = k->thumb ? e1e_half(&e->prog, at) : e1e_word(&e->prog, at);
	int executed = k->thumb || w >> 28 == 14 || enc_chance(&e->rng, 60), size = 0;
	int n = k->thumb ? e1e_transfers_t16(w, &size) : e1e_transfers(w, &size);
	int words = k->thumb ? 0 : e1e_cprt_words(w);
	struct e1e_insn in = { .ps = executed ? tc_etmv1_ps_ie : tc_etmv1_ps_in, .addr = at, .thumb = k->thumb,
			       .size = k->thumb ? 2 : 4, .type = tc_insn_other, .executed = executed };
	if (trap(e, &in, w, n, size))
		return;
	if (k->thumb)
		e1e_hit(e, "thumb %s", n && (e->cfg.data_value || e->cfg.data_address) ? "id" : "ie");
	if (executed && n && (e->cfg.data_value || e->cfg.data_address)) {
		const char *name = e1e_transfer_name(w, k->thumb);
		if (name)
			e1e_hit(e, "id %s", name);
		in.ps = tc_etmv1_ps_id;
		e1e_data_step(e, &in, n, size);
		return;
	}
	if (executed && words && e->cfg.cprt) {
		in.ps = tc_etmv1_ps_id;   /* §4.11.3 (L7903): a CPRT's values, no address */
		in.cprt = 1;
		e1e_data_step(e, &in, words, 4);
		return;
	}
	e1e_step(e, &in);
}

/* §4.5.3 (L7398-7446), ETM1-P17: an IRQ, FIQ, prefetch abort or reset before the instruction at at
 * (never between a BL pair's halves, ETM1-E1): a BE to the vector on its PIPESTAT, which cancels
 * it. The handler returns to it; after a reset (ETM1-E5) it goes to a random block. Returns 1 when
 * the block was left. */
static int cancelling_exception(struct e1e *e, struct e1e_exec *x, const struct e1e_block *k, uint32_t at)
{
	static const uint8_t offsets[] = { [0x8] = 0x00, [0xb] = 0x0c, [0xe] = 0x18, [0xf] = 0x1c };
	static const char *const names[] = { [0x8] = "reset", [0xb] = "prefetch abort", [0xe] = "irq", [0xf] = "fiq" };
	int fiq = enc_chance(&e->rng, 30);
	int type = fiq ? 0xf : 0xe;
	if (enc_chance(&e->rng, 15))
		type = enc_chance(&e->rng, 70) ? 0xb : 0x8;
	uint32_t vector = e->prog.vector_base + offsets[type];
	uint32_t ret = at | (k->thumb ? 1u : 0u);
	e1e_exception(e, at, vector, type);
	e1e_hit(e, "exception %s hivecs%u", names[type], e->cfg.hivecs);
	if (k->thumb)
		e1e_hit(e, "exception from thumb");
	if (type != 0x8) {
		handler_return(e, vector, ret);
		return 0;
	}
	x->block = (int)enc_below(&e->rng, (unsigned)e->prog.nblocks);
	x->next = 0;
	handler_return(e, vector, e1e_code_addr(&e->prog, x->block));
	return 1;
}

/* Runs one instruction through the cycle model; returns 1 when it ended its block. */
static int execute_one(struct e1e *e, struct e1e_exec *x)
{
	const struct e1e_block *k = &e->prog.block[x->block];
	uint32_t at = k->start + (k->thumb ? 2u : 4u) * (uint32_t)x->next;
	if (e->ctx_change_percent && enc_chance(&e->rng, e->ctx_change_percent))
		e1e_context_change(e, random_ctxid(e));   /* §5.6.3 (L8266) */
	if (e->irq_percent && enc_chance(&e->rng, e->irq_percent))
		return cancelling_exception(e, x, k, at);
	if (at < k->term_addr) {
		execute_other(e, k, at);
		x->next++;
		return 0;
	}
	x->block = execute_term(e, x, k, at);
	x->next = 0;
	return 1;
}

static uint32_t random_ctxid(struct e1e *e)
{
	uint32_t v = (uint32_t)enc_next(&e->rng);
	return e->cfg.contextid_size >= 4 ? v : v & ((UINT32_C(1) << (8 * e->cfg.contextid_size)) - 1);
}

/* Table 2-17 (L2806-2814), ETMv1.2 and later (ETMCR[17:16], [13], Table 3-5 L3655, L3664): normal,
 * multiplexed or demultiplexed, half-rate clocking with normal or demultiplexed; the records are
 * core cycles whatever the mode (ERRATA ETMC-F2: the capture device reconstructs them), so the
 * cycle model is the same; the header names the mode. */
static void port_clocking(struct e1e *e)
{
	e->cfg.port_mode = (uint8_t)(enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 2));
	e->cfg.half_rate = (uint8_t)(e->cfg.port_mode != 1 && enc_chance(&e->rng, 30));
}

static void random_config(struct e1e *e)
{
	static const uint8_t widths[3] = { 4, 8, 16 };
	tc_etmv1_config_default(&e->cfg);
	e->cfg.version = (uint8_t)enc_below(&e->rng, 4);
	e->cfg.port_width = widths[enc_below(&e->rng, 3)];
	e->cfg.cycle_accurate = (uint8_t)enc_chance(&e->rng, 40);
	e->cfg.branch_output = (uint8_t)enc_chance(&e->rng, 30);
	e->cfg.hivecs = (uint8_t)enc_chance(&e->rng, 50);
	e->cfg.data_value = (uint8_t)enc_chance(&e->rng, 50);
	e->cfg.data_address = (uint8_t)enc_chance(&e->rng, 40);
	e->cfg.cprt = (uint8_t)enc_chance(&e->rng, 30);
	if (e->cfg.version >= 2) {
		static const uint8_t sizes[4] = { 0, 1, 2, 4 };
		e->cfg.contextid_size = sizes[enc_below(&e->rng, 4)];
		port_clocking(e);
	}
}

/* §4.8 (L7632-7638), ERRATA ETM1-E9: the core halts in debug state before the block x is at; the
 * instructions the debugger runs there are not traced; it resumes there, or, in three of ten, at
 * a random block (the debugger wrote the PC). */
static void debug_state(struct e1e *e, struct e1e_exec *x)
{
	unsigned cycles = 1 + enc_below(&e->rng, 20);
	if (enc_chance(&e->rng, 30)) {
		x->block = (int)enc_below(&e->rng, (unsigned)e->prog.nblocks);
		e1e_hit(e, "debug state resumes elsewhere");
	}
	x->next = 0;
	e1e_debug_state(e, cycles, e1e_code_addr(&e->prog, x->block));
}

static void tags(struct e1e *e, struct enc_buf *t)
{
	enc_buf_printf(t, "etmv1 v1.%u port%u%s%s", e->cfg.version, e->cfg.port_width,
		       e->cfg.cycle_accurate ? " cycle-accurate" : "", e->cfg.branch_output ? " branch-output" : "");
}

static int run(struct e1e *e, const struct tc_enc_request *rq)
{
	struct e1e_exec x = { 0, 0 };
	if (e1e_program_make(e, rq->blocks))
		return -1;
	e1e_header(e);
	x.block = (int)enc_below(&e->rng, (unsigned)e->prog.nblocks);
	e1e_cut_window_start(e);   /* unsynchronised until the first address is read */
	e1e_trace_on(e, e1e_code_addr(&e->prog, x.block));
	for (unsigned s = 0; s < rq->steps && !e->failed;) {
		int ended = execute_one(e, &x);
		s += (unsigned)ended;
		if (ended && s < rq->steps && e->off_percent && enc_chance(&e->rng, e->off_percent)) {
			/* TraceEnable off for a while (§5.8): the code run meanwhile is not traced; tracing
			 * resumes at a block with a b001 address (§5.8.1 L8375) */
			e1e_trace_off(e, 1 + enc_below(&e->rng, 20));
			if (enc_chance(&e->rng, 50))   /* another process ran meanwhile */
				e->ctxid = random_ctxid(e);
			x.block = (int)enc_below(&e->rng, (unsigned)e->prog.nblocks);
			x.next = 0;
			e1e_trace_on(e, e1e_code_addr(&e->prog, x.block));
		} else if (ended && s < rq->steps && e->debug_percent && enc_chance(&e->rng, e->debug_percent)) {
			debug_state(e, &x);
		}
	}
	/* §5.3.1 (L8038): a lone packet on 16 bits leaves only with a functional PIPESTAT */
	for (int guard = 0; e->cfg.port_width == 16 && guard < 100000 && !e->failed; guard++) {
		e1e_drain(e);
		if (e->head == e->tail)
			break;
		execute_one(e, &x);
	}
	e1e_drain(e);
	e1e_l3_flush(e);
	return e->failed ? -1 : 0;
}

static void release(struct e1e *e)
{
	e1e_program_free(&e->prog);
	free(e->trace.p);
	free(e->rec);
	free(e->done);
	free(e->l3.p);
	free(e->variants);
}

int e1e_generate_with(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen,
		      int (*finish)(struct e1e *e, struct tc_enc_result *r, void *ctx), void *ctx)
{
	memset(r, 0, sizeof *r);
	if (!rq || rq->steps < 1 || rq->steps > 100000 || rq->blocks < 4 || rq->blocks > 4096) {
		snprintf(err, errlen, "etmv1 encoder: --steps must be 1..100000 and --blocks 4..4096");
		return -1;
	}
	struct e1e *e = calloc(1, sizeof *e);
	if (!e) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	enc_rng_init(&e->rng, rq->seed, rq->entropy, rq->entropy_len);
	if (rq->random_config || !rq->cfg) {
		random_config(e);
	} else {
		e->cfg = *(const struct tc_etmv1_config *)rq->cfg;
		if (tc_etmv1_config_check(&e->cfg, err, errlen)) {
			free(e);
			return -1;
		}
	}
	/* Tables 2-19, 2-20: the FIFOs of ETM7 and ETM9 hold 9-45 bytes; the size is not fixed by the
	 * architecture (L4246), and in an eighth of the runs it is 96-256 packets (ERRATA ETM1-E7), where
	 * an APO of 15 comes about (§5.6.1 L8233) */
	e->fifo_depth = enc_chance(&e->rng, 12) ? 96 + enc_below(&e->rng, 161) : 6 + enc_below(&e->rng, 40);
	e->full_program = 1;
	e->thumb_percent = enc_chance(&e->rng, 50) ? 0 : 20 + enc_below(&e->rng, 60);
	e->ctxid = random_ctxid(e);
	e->off_percent = enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 4);
	e->irq_percent = enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 3);
	e->debug_percent = enc_chance(&e->rng, 75) ? 0 : 1 + enc_below(&e->rng, 3);
	e->ctx_change_percent = e->cfg.contextid_size && enc_chance(&e->rng, 50) ? 1 : 0;
	e->abandon_percent = e->irq_percent && !e->cfg.abandoned_discard ? 5 : 0;   /* ETM1-E5: the default reading */
	e->dabort_percent = enc_chance(&e->rng, 50) ? 0 : 3;
	e->overflow_mode = enc_chance(&e->rng, 25);
	e->gap_percent = enc_chance(&e->rng, 20) ? 50 : 0;
	e->drop_td = enc_chance(&e->rng, 25);   /* ETMC-F3: before the header, whose flag bit 0 says it */
	e->trigger_at = enc_chance(&e->rng, 50) ? 1 + enc_below(&e->rng, 20 * rq->steps) : UINT64_MAX;
	e->trigger_on_in = e->trigger_at != UINT64_MAX && enc_chance(&e->rng, 20);
	e->variants = calloc((size_t)enc_etmv1_variant_total + 1, sizeof *e->variants);
	struct enc_buf t = { 0 };
	if (!e->variants || run(e, rq)) {
		release(e);
		free(e);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	e1e_hit(e, "port%u", e->cfg.port_width);
	e1e_hit(e, "version 1.%u", e->cfg.version);
	if (e->cfg.version >= 2) {
		static const char *const modes[3] = { "normal", "multiplexed", "demultiplexed" };
		e1e_hit(e, "port mode %s%s", modes[e->cfg.port_mode], e->cfg.half_rate ? " half-rate" : "");
		if (e->cfg.half_rate && e->cfg.port_width == 4)
			e1e_hit(e, "port mode half-rate port4");
	}
	tags(e, &t);
	r->protocol = "etmv1";
	r->cfg = malloc(sizeof e->cfg);
	r->l1 = e1e_l1_text(e);
	r->l3 = e->l3.p ? e->l3.p : calloc(1, 1);
	r->tags = t.p;
	r->variants = e->variants;
	r->trace = (uint8_t *)e->trace.p;
	r->trace_len = e->trace.len;
	e1e_program_regions(&e->prog, r);
	if (r->cfg)
		memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	e->variants = NULL;
	e->trace.p = NULL;
	e->l3.p = NULL;
	int bad = !r->cfg || !r->l1 || !r->l3 || !r->tags || r->nregions != 2;
	if (!bad && finish && finish(e, r, ctx) < 0)
		bad = 1;
	release(e);
	free(e);
	if (bad) {
		tc_enc_result_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
{
	return e1e_generate_with(rq, r, err, errlen, NULL, NULL);
}

const struct tc_encoder tc_encoder_etmv1 = {
	.protocol = "etmv1",
	.doc = "A random ARMv4T/ARMv5TE A32 and Thumb program (data processing, some conditional;\n"
	       "loads and stores; B, BL, the Thumb BL pair, B<cond>, BX, BLX, MOV pc), an\n"
	       "execution of it with memory wait states, and the\n"
	       "ETMv1.0..1.3 cycle model: PIPESTAT per cycle, a FIFO that stalls the core when\n"
	       "full, drained at 4, 8 or 16 bits (16-bit rules of §5.3.1), TRACESYNC, branch\n"
	       "addresses of 1-5 packets with reason codes, the APO, periodic full addresses;\n"
	       "the per-cycle sample file and the ground truth at L1 and L3 (encoder/etmv1/).\n",
	.variants_file = "encoder/etmv1/variants.txt",
	.default_steps = 200,
	.default_blocks = 64,
	.select_candidates = 2000,
	.select_extra = 4,
	.generate = generate,
	.variant_count = variant_count,
	.variant_name = variant_name,
	.bench_config = "",
	.negative = e1e_negative,
	.negative_doc = "every item of the vector, then the error at the record after its last\n"
			"one: a record cut short (truncated) or one outside the table (bad-record);\n"
			"or, cut, the items up to the first incomplete one, then its truncated\n",
	.negative_kinds = e1e_negative_kinds,
	.nnegative_kinds = E1E_NEGATIVE_KINDS,
	.from_exec = e1e_from_exec,
	.exec_family = tc_exec_family_aarch32,
	.asm_open = e1e_asm_open,
	.asm_write = e1e_asm_write,
	.asm_close = e1e_asm_close,
	.asm_cycle = e1e_asm_cycle,
};
