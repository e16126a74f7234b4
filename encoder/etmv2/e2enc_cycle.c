/* SPDX-License-Identifier: BSD-3-Clause */
/* e2enc_cycle.c — the ETMv2 cycle model: PIPESTAT per cycle with D when a group is placed, the FIFO
 * and its drain at 4, 8 or 16 bits, TFO values with the second nibble and the gap nibble, the
 * trigger, the sample file, the L1 and L3 truth (ARM IHI 0014 chapter 6; reference/etmv1/FORMAT.md,
 * ERRATA.md). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "e2enc_internal.h"

extern const char *const enc_etmv2_variant_names[];
extern const int enc_etmv2_variant_total;

void e2e_hit(struct e2e *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enc_variant_hit(enc_etmv2_variant_names, enc_etmv2_variant_total, e->variants, "encoder/etmv2/variants.txt",
			fmt, ap);
	va_end(ap);
}

/* ---- The sample file (FORMAT.md "Sample file") --------------------------------------------- */

static size_t record_size(const struct e2e *e)
{
	return e->cfg.port_width == 16 ? 3 : 2;
}

void e2e_header(struct e2e *e)
{
	uint8_t h[16] = { 0x45, 0x54, 0x4d, 0x43, 1, 2 };
	h[6] = e->cfg.version;
	h[7] = (uint8_t)e->cfg.port_width;
	h[8] = e->cfg.port_mode;
	h[9] = e->cfg.half_rate;
	h[10] = (uint8_t)(e->drop_td ? 1 : 0);   /* FORMAT.md "Header" byte 10 bit 0 */
	enc_buf_put(&e->trace, h, sizeof h);
}

/* ---- The truth ------------------------------------------------------------------------------- */

static int new_record(struct e2e *e, int kind, int status)
{
	if (e->nrec == e->caprec) {
		size_t cap = e->caprec ? 2 * e->caprec : 256;
		struct tc_etmv2_record *p = realloc(e->rec, cap * sizeof *p);
		if (!p) {
			e->failed = 1;
			return -1;
		}
		e->rec = p;
		e->caprec = cap;
	}
	struct tc_etmv2_record *r = &e->rec[e->nrec];
	memset(r, 0, sizeof *r);
	r->h.size = sizeof *r;
	r->h.protocol = tc_proto_etmv2;
	r->h.kind = (uint16_t)kind;
	r->h.offset = e->trace.len;
	r->status = (uint8_t)status;
	return (int)e->nrec++;
}

char *e2e_l1_text(struct e2e *e)
{
	struct enc_buf b = { 0 };
	char line[512];
	for (size_t i = 0; i < e->nrec; i++) {
		tc_etmv2_format(line, sizeof line, &e->rec[i]);
		enc_buf_printf(&b, "%s\n", line);
	}
	if (!b.p)
		enc_buf_printf(&b, "%s", "");
	return b.p;
}

static void l3_item(struct e2e *e, const struct tc_l3 *x)
{
	char line[256];
	tc_etmv2_format_l3(line, sizeof line, x);
	enc_buf_printf(&e->l3, "%s\n", line);
}

void e2e_l3_flush(struct e2e *e)
{
	if (e->range_open)
		l3_item(e, &e->range);
	e->range_open = 0;
}

static void l3_blank(struct tc_l3 *x, int kind, uint64_t offset)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_etmv2;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

/* An item that is no instruction: the range being built goes first. */
static void l3_simple(struct e2e *e, int kind, uint64_t offset)
{
	struct tc_l3 x;
	e2e_l3_flush(e);
	l3_blank(&x, kind, offset);
	l3_item(e, &x);
}

/* FORMAT.md "L3": the instruction joins the range (a new one when it does not follow the last or is
 * of the other instruction set); a branch, executed or not, ends it. The first half of a Thumb BL
 * pair is none: the pair is one 32-bit instruction at its address (ETM2-P27). */
static void l3_instruction(struct e2e *e, uint64_t offset, const struct e2e_insn *in)
{
	int isa = in->thumb ? tc_isa_t32 : tc_isa_a32;
	if (in->first_half)
		return;
	if (e->range_open && (in->addr != e->range_next || e->range.isa != isa))
		e2e_l3_flush(e);
	if (!e->range_open) {
		l3_blank(&e->range, tc_l3_range, offset);
		e->range.first = in->addr;
		e->range.isa = (uint8_t)isa;
		e->range.last_type = tc_insn_other;
		e->range.taken = tc_taken_none;
		e->range_open = 1;
	}
	e->range.last = in->addr;
	e->range.count++;
	e->range_next = in->addr + (uint32_t)(in->size ? in->size : 4);
	if (in->type == tc_insn_branch_dir || in->type == tc_insn_branch_indir) {
		e->range.last_type = (uint8_t)in->type;
		e->range.taken = in->executed ? tc_taken_e : tc_taken_n;
		e2e_l3_flush(e);
	}
}

/* `context` when the Context ID traced differs from the last one (FORMAT.md "L3"). */
static void l3_context(struct e2e *e, uint64_t offset)
{
	struct tc_l3 x;
	if (e->ctx_valid && e->ctx_shown == e->ctxid)
		return;
	e2e_l3_flush(e);
	l3_blank(&x, tc_l3_context, offset);
	x.ctx.context_id = e->ctxid;
	l3_item(e, &x);
	e->ctx_shown = e->ctxid;
	e->ctx_valid = 1;
	e2e_hit(e, "context change");
}

/* The L3 items of a cycle in the analyzer's order (ETM2-P27, P28): a restart, the TFO's Context ID,
 * the instructions, an exception, a Context ID packet's context. */
static void l3_cycle(struct e2e *e, const struct e2e_cyc *c, uint64_t offset)
{
	if (c->kind == tc_etmv2_tfo && c->tfo_reason != 0)
		l3_simple(e, c->tfo_reason == 2 ? tc_l3_overflow : tc_l3_trace_on, offset);
	if (c->kind == tc_etmv2_tfo && e->cfg.contextid_size)
		l3_context(e, offset);
	for (int i = 0; i < c->nins; i++)
		l3_instruction(e, offset, &c->ins[i]);
	if (c->exc_type) {
		struct tc_l3 x;
		e2e_l3_flush(e);
		l3_blank(&x, tc_l3_exception, offset);
		x.type = (uint16_t)c->exc_type;
		x.address = c->exc_ret;
		l3_item(e, &x);
	}
	if (c->ctx_packet)
		l3_context(e, offset);
}

/* ---- The FIFO and the port (§6.2 L8574-8586, §6.3 L8615-8634) ------------------------------ */

unsigned e2e_fifo_count(const struct e2e *e)
{
	return e->tail - e->head;
}

/* Nothing is owed on the port: the FIFO is empty and no TFO nibble is to come. */
int e2e_idle(const struct e2e *e)
{
	return e2e_fifo_count(e) == 0 && e->nspecial == 0;
}

static void push(struct e2e *e, uint8_t byte, int owner)
{
	if (e2e_fifo_count(e) >= E2E_FIFO_MAX) {
		e->failed = 1;   /* never: the core stalls long before */
		return;
	}
	struct e2e_byte *p = &e->ring[e->tail++ % E2E_FIFO_MAX];
	p->byte = byte;
	p->owner = owner;
}

/* The head byte starts to leave on the record at offset: its owner's pkt= (FORMAT.md "L1"). */
static void first_out(struct e2e *e, uint64_t offset)
{
	struct tc_etmv2_record *r = &e->rec[e->ring[e->head % E2E_FIFO_MAX].owner];
	if (!r->has_pkt) {
		r->has_pkt = 1;
		r->pkt = offset;
	}
}

/* ETM2-P2: a cycle that is not TD or TR outputs FIFO data while the FIFO holds any: a nibble, low
 * first (4-bit), a byte (8-bit), or two bytes with 0x66 in [15:8] when only one is left (16-bit,
 * L8586); [15:8] is 0 on the other cycles (ETM2-E11). */
static void drain(struct e2e *e, uint8_t *pkt)
{
	uint64_t off = e->trace.len;
	if (!e2e_fifo_count(e))
		return;
	uint8_t b = e->ring[e->head % E2E_FIFO_MAX].byte;
	if (e->cfg.port_width == 4) {
		if (!e->half) {
			first_out(e, off);
			pkt[0] = b & 0xf;
			e->half = 1;
		} else {
			pkt[0] = b >> 4;
			e->half = 0;
			e->head++;
		}
		return;
	}
	first_out(e, off);
	pkt[0] = b;
	e->head++;
	if (e->cfg.port_width != 16)
		return;
	if (e2e_fifo_count(e)) {
		first_out(e, off);
		pkt[1] = e->ring[e->head % E2E_FIFO_MAX].byte;
		e->head++;
		e2e_hit(e, "port16 two bytes");
	} else {
		pkt[1] = 0x66;
		e2e_hit(e, "port16 idle byte");
	}
}

/* Table 6-4 by its formula (L8887-8889, ETM2-S3): TRACEPKT[7:4] = TFO[3:0], [3] = !TFO[6],
 * [2:1] = TFO[5:4], [0] = 1. */
static uint8_t tfo_encoding(unsigned v)
{
	return (uint8_t)((v & 0xf) << 4 | (((v >> 6) & 1) ^ 1) << 3 | ((v >> 4) & 3) << 1 | 1);
}

static void special_push(struct e2e *e, uint8_t v)
{
	if (e->nspecial < (int)sizeof e->special)
		e->special[e->nspecial++] = v;
}

static uint8_t special_pop(struct e2e *e)
{
	uint8_t v = e->special[0];
	memmove(e->special, e->special + 1, sizeof e->special - 1);
	e->nspecial--;
	return v;
}

/* The TFO value's outputs after its cycle: on a 4-bit port its second nibble, then the gap nibble
 * when the TFO fell mid-byte (L8925-8951); after a trigger on the TFO cycle the whole value comes
 * later (L8915-8919). */
static void tfo_value_out(struct e2e *e, unsigned value, int trig, uint8_t *pkt)
{
	uint8_t enc = tfo_encoding(value);
	int gap = e->cfg.port_width == 4 && e->half;
	if (e->cfg.port_width == 4) {
		if (trig)
			special_push(e, enc & 0xf);
		else
			pkt[0] = enc & 0xf;
		special_push(e, enc >> 4);
		if (gap) {
			special_push(e, 0x6);
			e2e_hit(e, "tfo gap nibble");
		}
	} else if (trig) {
		special_push(e, enc);
	} else {
		pkt[0] = enc;
	}
	static const char *const rows[6] = { "0-15", "16-31", "32-47", "48-63", "64-79", "80-95" };
	e2e_hit(e, "tfo value %s", rows[value / 16 < 6 ? value / 16 : 5]);
}

static void put_record(struct e2e *e, int status, const uint8_t *pkt)
{
	uint8_t b[3] = { (uint8_t)status, pkt[0], pkt[1] };
	e->cycles++;
	e->since_sync++;
	if (status == tc_etmv2_ps_td && !(pkt[0] & 1) && e->drop_td) {
		/* §4.4.2 (L7316-7324), ETMC-F3: a cycle the capture device need not keep */
		e2e_hit(e, "capture without td cycles");
		e->prev_td0 = 1;
		return;
	}
	e->prev_td0 = status == tc_etmv2_ps_td && !(pkt[0] & 1);
	enc_buf_put(&e->trace, b, record_size(e));
}

static const char *status_name(int st)
{
	static const char *const names[16] = { "ie", "de", "in", "dn", "wt", "dw", "tr", "td",
					       "ptie", "ptde", "ptin", "ptdn", "pnie", "pnde", "pnin", "pndn" };
	return names[st & 15];
}

/* Where a trigger falls, for its variant (§6.1.7 L8562-8570, "Trigger considerations" L8911-8923). */
static const char *trigger_place(const struct e2e *e, const struct e2e_cyc *c, int st)
{
	if (c->kind == tc_etmv2_tfo)
		return "tfo";
	if (e->nspecial)
		return "tfo nibble";
	if (st >= 8)
		return "phantom";
	if (st < 4)
		return "instruction";
	return status_name(st);
}

/* The status a cycle shows before a trigger replaces it (Table 6-1, ETM2-S1). */
static int cycle_status(const struct e2e *e, const struct e2e_cyc *c)
{
	int d = c->g.n > 0;
	if (c->kind == tc_etmv2_tfo)
		return tc_etmv2_ps_td;
	if (c->kind == tc_etmv2_dw)
		return tc_etmv2_ps_dw;
	if (c->kind < 0)
		return e2e_fifo_count(e) ? tc_etmv2_ps_wt : tc_etmv2_ps_td;
	int st = (c->kind == tc_etmv2_in ? tc_etmv2_ps_in : tc_etmv2_ps_ie) | d;
	if (c->phantom == tc_etmv2_phantom_taken)
		st |= 8;
	else if (c->phantom == tc_etmv2_phantom_not_taken)
		st |= 12;
	return st;
}

/* The item of the cycle and its packets, at the cycle's record; its index, or -1 for none. */
static int cycle_records(struct e2e *e, const struct e2e_cyc *c, int st, unsigned tfo_value)
{
	if (c->kind < 0)
		return -1;
	int kind = c->kind == tc_etmv2_tfo || c->kind == tc_etmv2_dw ? c->kind : (c->kind == tc_etmv2_in) ? (c->g.n ? tc_etmv2_dn : tc_etmv2_in)
						  : (c->g.n ? tc_etmv2_de : tc_etmv2_ie);
	int at = new_record(e, kind, st);
	if (at < 0)
		return -1;
	e->rec[at].phantom = (uint8_t)c->phantom;
	if (kind == tc_etmv2_tfo) {
		e->rec[at].tfo_value = (uint8_t)tfo_value;
		e->rec[at].implied = (uint8_t)(c->tfo_reason == 0);
	}
	for (int i = 0; i < c->g.npk; i++) {
		int p = new_record(e, tc_etmv2_ie, st);
		if (p < 0)
			return -1;
		uint64_t off = e->rec[p].h.offset;
		e->rec[p] = c->g.pk[i];
		e->rec[p].h.offset = off;
		e->rec[p].status = (uint8_t)st;
	}
	return at;
}

/* One cycle (Table 6-1, §6.1.7, §6.3, §6.5.1): the trigger when it is due (TR with the replaced
 * status on TRACEPKT[3:0], a non-TFO TD shown as WT, the FIFO stopped: L8562-8570); the cycle's
 * item and packets; its group into the FIFO; then TRACEPKT: a TFO value or a nibble owed, else
 * FIFO data unless the cycle is TD. */
void e2e_cycle(struct e2e *e, struct e2e_cyc *c)
{
	uint8_t pkt[2] = { 0, 0 };
	uint64_t offset = e->trace.len;
	int st = cycle_status(e, c);
	if (c->kind == tc_etmv2_tfo && e->trigger_near_tfo && e->trigger_at == UINT64_MAX)
		e->trigger_at = e->cycles + enc_below(&e->rng, 3);   /* on the TFO or a cycle of its value */
	int trig = !e->triggered && e->cycles >= e->trigger_at;
	unsigned tfo_value = e2e_fifo_count(e);
	if (trig) {
		e->triggered = 1;
		new_record(e, tc_etmv2_trigger, tc_etmv2_ps_tr);
		l3_simple(e, tc_l3_trigger, offset);
		e2e_hit(e, "trigger on %s", trigger_place(e, c, st));
	}
	int owner = cycle_records(e, c, st, tfo_value);
	if (c->kind == tc_etmv2_tfo) {
		e->synced = 1;
		e->tfo_at = offset;
	}
	if (c->nins)
		e->insn_at = offset;
	l3_cycle(e, c, offset);
	for (int i = 0; i < c->g.n && owner >= 0; i++)
		push(e, c->g.b[i], owner);
	int shown = st;
	if (trig) {
		pkt[0] = (uint8_t)(st == tc_etmv2_ps_td && c->kind != tc_etmv2_tfo ? tc_etmv2_ps_wt : st);
		shown = tc_etmv2_ps_tr;
		if (c->kind == tc_etmv2_tfo)
			tfo_value_out(e, tfo_value, 1, pkt);
	} else if (e->nspecial) {
		pkt[0] = special_pop(e);
	} else if (c->kind == tc_etmv2_tfo) {
		tfo_value_out(e, tfo_value, 0, pkt);
	} else if (st == tc_etmv2_ps_td) {
		/* §6.11 (L9288-9295), Table 6-4 b0111: TD while tracing in cycle-accurate mode */
		pkt[0] = e->cfg.cycle_accurate && e->tracing ? 0x07 : 0;
		if (e->cfg.cycle_accurate && !e->tracing && !e->prev_td0 && e->synced && !e->drop_td) {
			/* ETM2-P26, ETM1-P21: the first TD with TRACEPKT[0] = 0 of a run */
			new_record(e, tc_etmv2_trace_disabled, tc_etmv2_ps_td);
			e2e_hit(e, "trace disabled cycle-accurate");
		}
	} else {
		drain(e, pkt);
	}
	if (!trig)
		e2e_hit(e, "pipestat %s", status_name(st));
	put_record(e, shown, pkt);
}

/* A cycle with no instruction and no packets: WT while the FIFO holds bytes, else TD (Table 6-1); a
 * cycle of a TFO value's second nibble or gap nibble is WT, the TFO packet being in the FIFO (ETM2-E5). */
void e2e_wait(struct e2e *e)
{
	struct e2e_cyc c;
	memset(&c, 0, sizeof c);
	c.kind = -1;
	e2e_cycle(e, &c);
}
