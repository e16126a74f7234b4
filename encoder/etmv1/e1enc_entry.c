/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_entry.c — the ETMv1 encoder: the execution of a random program through the cycle model, and
 * its entry in the table of encoders (tracecert/encoder.h): what `tracecert gen --protocol etmv1`
 * calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1enc_internal.h"
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

/* Runs one instruction through the cycle model; returns 1 when it ended its block. */
static int execute_one(struct e1e *e, struct e1e_exec *x)
{
	const struct e1e_block *k = &e->prog.block[x->block];
	uint32_t at = k->start + 4 * (uint32_t)x->next;
	if (e->irq_percent && enc_chance(&e->rng, e->irq_percent)) {
		/* an IRQ or FIQ before this instruction: the handler's return comes back to it */
		int fiq = enc_chance(&e->rng, 30);
		uint32_t vector = e->prog.vector_base + (fiq ? 0x1c : 0x18);
		e1e_exception(e, at, vector, fiq ? 0xf : 0xe);
		e1e_hit(e, "exception %s hivecs%u", fiq ? "fiq" : "irq", e->cfg.hivecs);
		e1e_instruction(e, tc_etmv1_ps_be, vector, tc_insn_branch_indir, 1, 1, at, 0);
		return 0;
	}
	if (at < k->term_addr) {
		uint32_t w = e1e_word(&e->prog, at), cond = w >> 28;
		int executed = cond == 14 || enc_chance(&e->rng, 60), size = 0;
		int n = e1e_transfers(w, &size);
		x->next++;
		if (executed && n && (e->cfg.data_value || e->cfg.data_address)) {
			e1e_data_instruction(e, at, n, size);
			return 0;
		}
		x->next--;
		e1e_instruction(e, executed ? tc_etmv1_ps_ie : tc_etmv1_ps_in, at, tc_insn_other, executed, 0, 0, 0);
		x->next++;
		return 0;
	}
	int indirect = k->term == e1e_bx || k->term == e1e_mov_pc;
	int taken = k->term != e1e_bcond || enc_chance(&e->rng, 50);
	int to = indirect ? (int)enc_below(&e->rng, (unsigned)e->prog.nblocks) : k->target;
	uint32_t target = e->prog.block[to].start;
	int type = indirect ? tc_insn_branch_indir : tc_insn_branch_dir;
	if (!taken && x->block + 1 == e->prog.nblocks)
		taken = 1;   /* the last block's B<cond> would fall off the program: taken */
	if (!taken) {
		e1e_instruction(e, tc_etmv1_ps_in, at, type, 0, 0, 0, 0);   /* ETM1-P26: not executed */
		to = x->block + 1;
	} else if (indirect || e->cfg.branch_output) {
		/* Table 5-1 BE (L7962); branch_output (ETMCR[8], L3675): every branch with its address */
		e1e_instruction(e, tc_etmv1_ps_be, at, type, 1, indirect, target, 0);
		if (!indirect)
			e1e_hit(e, "direct branch as be (branch_output)");
	} else {
		e1e_instruction(e, tc_etmv1_ps_ie, at, type, 1, 0, target, 2);   /* a direct branch: IE (L7958) */
	}
	x->block = to;
	x->next = 0;
	return 1;
}

static uint32_t random_ctxid(struct e1e *e)
{
	uint32_t v = (uint32_t)enc_next(&e->rng);
	return e->cfg.contextid_size >= 4 ? v : v & ((UINT32_C(1) << (8 * e->cfg.contextid_size)) - 1);
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
	if (e->cfg.version >= 2) {
		static const uint8_t sizes[4] = { 0, 1, 2, 4 };
		e->cfg.contextid_size = sizes[enc_below(&e->rng, 4)];
	}
}

/* The configurations the model does not make yet (README.md "Not done"). */
static int refused(const void *cfg, char *err, size_t errlen)
{
	const struct tc_etmv1_config *c = cfg;
	if (c->cprt) {
		if (err && errlen)
			snprintf(err, errlen, "etmv1 encoder: CPRT is not modelled yet (cprt must be 0)");
		return 1;
	}
	return 0;
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
	e1e_trace_on(e, e->prog.block[x.block].start);
	for (unsigned s = 0; s < rq->steps && !e->failed;) {
		int ended = execute_one(e, &x);
		s += (unsigned)ended;
		if (ended && s < rq->steps && e->off_percent && enc_chance(&e->rng, e->off_percent)) {
			/* TraceEnable off for a while (§5.8): the code run meanwhile is not traced; tracing
			 * resumes at a block with a b001 address (§5.8.1 L8375) */
			e1e_trace_off(e, 1 + enc_below(&e->rng, 20));
			if (enc_chance(&e->rng, 50))   /* another process ran meanwhile */
				e->ctxid = random_ctxid(e);
	e->drop_td = enc_chance(&e->rng, 25);
			x.block = (int)enc_below(&e->rng, (unsigned)e->prog.nblocks);
			x.next = 0;
			e1e_trace_on(e, e->prog.block[x.block].start);
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
	free(e->l3.p);
	free(e->variants);
}

static int generate(const struct tc_enc_request *rq, struct tc_enc_result *r, char *err, size_t errlen)
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
		if (tc_etmv1_config_check(&e->cfg, err, errlen) || refused(&e->cfg, err, errlen)) {
			free(e);
			return -1;
		}
	}
	e->fifo_depth = 6 + enc_below(&e->rng, 27);
	e->ctxid = random_ctxid(e);
	e->off_percent = enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 4);
	e->irq_percent = enc_chance(&e->rng, 50) ? 0 : 1 + enc_below(&e->rng, 3);
	e->trigger_at = enc_chance(&e->rng, 50) ? 1 + enc_below(&e->rng, 20 * rq->steps) : UINT64_MAX;
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
	tags(e, &t);
	r->protocol = "etmv1";
	r->cfg = malloc(sizeof e->cfg);
	r->l1 = e1e_l1_text(e);
	r->l3 = e->l3.p ? e->l3.p : calloc(1, 1);
	r->tags = t.p;
	r->variants = e->variants;
	r->trace = (uint8_t *)e->trace.p;
	r->trace_len = e->trace.len;
	r->region[0].base = e->prog.base;
	r->region[0].bytes = e->prog.code;
	r->region[0].len = e->prog.size;
	r->nregions = 1;
	r->region[1].base = e->prog.vector_base;
	r->region[1].bytes = malloc(sizeof e->prog.vectors);
	r->region[1].len = sizeof e->prog.vectors;
	if (r->region[1].bytes) {
		memcpy(r->region[1].bytes, e->prog.vectors, sizeof e->prog.vectors);
		r->nregions = 2;
	}
	if (r->cfg)
		memcpy(r->cfg, &e->cfg, sizeof e->cfg);
	e->prog.code = NULL;
	e->variants = NULL;
	e->trace.p = NULL;
	e->l3.p = NULL;
	release(e);
	free(e);
	if (!r->cfg || !r->l1 || !r->l3 || !r->tags || r->nregions != 2) {
		tc_enc_result_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

const struct tc_encoder tc_encoder_etmv1 = {
	.protocol = "etmv1",
	.doc = "A random ARMv4T/ARMv5TE A32 program (data processing, some conditional; B, BL,\n"
	       "B<cond>, BX, MOV pc), an execution of it with memory wait states, and the\n"
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
	.config_refused = refused,
	.asm_open = e1e_asm_open,
	.asm_write = e1e_asm_write,
	.asm_close = e1e_asm_close,
	.asm_cycle = e1e_asm_cycle,
};
