/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_cycle.c — the ETMv1 cycle model: PIPESTAT per cycle, the FIFO and its drain at 4, 8 or 16
 * bits, branch addresses and the APO, the sample file, the L1 and L3 truth (ARM IHI 0014 chapter 5;
 * reference/etmv1/FORMAT.md, ERRATA.md). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cyclecap.h"
#include "e1enc_internal.h"

extern const char *const enc_etmv1_variant_names[];
extern const int enc_etmv1_variant_total;

void e1e_hit(struct e1e *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enc_variant_hit(enc_etmv1_variant_names, enc_etmv1_variant_total, e->variants, "encoder/etmv1/variants.txt",
			fmt, ap);
	va_end(ap);
}

/* ---- The sample file (FORMAT.md "Sample file") --------------------------------------------- */

static size_t record_size(const struct e1e *e)
{
	return e->cfg.port_width == 16 ? 3 : 2;
}

/* The offset of the next record (ETMC-F6). */
uint64_t e1e_offset(const struct e1e *e)
{
	return e->trace.len;
}

void e1e_header(struct e1e *e)
{
	struct tc_cyclecap_header hd = { 1, 1, e->cfg.version, e->cfg.port_width, e->cfg.port_mode, e->cfg.half_rate,
					 (uint8_t)(e->drop_td ? 1 : 0) };   /* FORMAT.md "Header" byte 10 bit 0 */
	uint8_t h[TC_CYCLECAP_HEADER];
	tc_cyclecap_put_header(&hd, h);   /* the sample file's one writer (reference/cyclecap.c) */
	enc_buf_put(&e->trace, h, sizeof h);
}

/* ---- The truth ------------------------------------------------------------------------------- */

static int new_record(struct e1e *e, int kind, int status)
{
	if (e->nrec == e->caprec) {
		size_t cap = e->caprec ? 2 * e->caprec : 256;
		struct tc_etmv1_record *p = realloc(e->rec, cap * sizeof *p);
		uint64_t *d = p ? realloc(e->done, cap * sizeof *d) : NULL;
		if (p)
			e->rec = p;
		if (!d) {
			e->failed = 1;
			return -1;
		}
		e->done = d;
		e->caprec = cap;
	}
	e->done[e->nrec] = e1e_offset(e);
	struct tc_etmv1_record *r = &e->rec[e->nrec];
	memset(r, 0, sizeof *r);
	r->h.size = sizeof *r;
	r->h.protocol = tc_proto_etmv1;
	r->h.kind = (uint16_t)kind;
	r->h.offset = e1e_offset(e);
	r->status = (uint8_t)status;
	return (int)e->nrec++;
}

/* The records in cycle order: an ID's record, made before its wait cycles, may precede a trigger's
 * on one of them; the order of records at one offset stays (a trigger before its status's). */
static int record_after(const struct tc_etmv1_record *a, const struct tc_etmv1_record *b)
{
	if (a->h.offset != b->h.offset)
		return a->h.offset > b->h.offset;
	return b->h.kind == tc_etmv1_trigger && a->h.kind != tc_etmv1_trigger;   /* ETMC-F8 */
}

void e1e_order_records(struct e1e *e)
{
	for (size_t i = 1; i < e->nrec; i++) {
		struct tc_etmv1_record r = e->rec[i];
		uint64_t d = e->done[i];
		size_t j = i;
		for (; j > 0 && record_after(&e->rec[j - 1], &r); j--) {
			e->rec[j] = e->rec[j - 1];
			e->done[j] = e->done[j - 1];
		}
		e->rec[j] = r;
		e->done[j] = d;
	}
}

char *e1e_l1_text(struct e1e *e)
{
	struct enc_buf b = { 0 };
	char line[512];
	e1e_order_records(e);
	for (size_t i = 0; i < e->nrec; i++) {
		tc_etmv1_format(line, sizeof line, &e->rec[i]);
		enc_buf_printf(&b, "%s\n", line);
	}
	if (!b.p)
		enc_buf_printf(&b, "%s", "");
	return b.p;
}

static void l3_item(struct e1e *e, const struct tc_l3 *x)
{
	char line[256];
	tc_etmv1_format_l3(line, sizeof line, x);
	enc_buf_printf(&e->l3, "%s\n", line);
}

void e1e_l3_flush(struct e1e *e)
{
	if (e->range_open)
		l3_item(e, &e->range);
	e->range_open = 0;
}

static void l3_simple(struct e1e *e, int kind, uint64_t offset)
{
	struct tc_l3 x;
	e1e_l3_flush(e);
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_etmv1;
	x.h.kind = (uint16_t)kind;
	x.h.offset = offset;
	l3_item(e, &x);
}

/* FORMAT.md "L3": the instruction joins the range (a new one after a branch, when it does not
 * follow the last, or in the other instruction set); a branch, executed or not, ends it (ETM1-P26). */
static void l3_insn(struct e1e *e, uint64_t offset, const struct e1e_insn *in)
{
	int isa = in->thumb ? tc_isa_t32 : tc_isa_a32;
	if (e->range_open && (in->addr != e->range_next || e->range.isa != isa))
		e1e_l3_flush(e);
	if (!e->range_open) {
		memset(&e->range, 0, sizeof e->range);
		e->range.h.size = sizeof e->range;
		e->range.h.protocol = tc_proto_etmv1;
		e->range.h.kind = tc_l3_range;
		e->range.h.offset = offset;
		e->range.first = in->addr;
		e->range.isa = (uint8_t)isa;
		e->range.last_type = tc_insn_other;
		e->range.taken = tc_taken_none;
		e->range_open = 1;
	}
	e->range.last = in->addr;
	e->range.count++;
	e->range_next = in->addr + (uint32_t)in->size;
	if (in->type == tc_insn_branch_dir || in->type == tc_insn_branch_indir) {
		e->range.last_type = (uint8_t)in->type;
		e->range.taken = in->executed ? tc_taken_e : tc_taken_n;
		e1e_l3_flush(e);
	}
}

/* L3 `exception` (FORMAT.md "L3", ETM1-P17): its type and return address. */
static void l3_exception(struct e1e *e, uint64_t offset, int type, uint32_t ret)
{
	struct tc_l3 x;
	e1e_l3_flush(e);
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_etmv1;
	x.h.kind = tc_l3_exception;
	x.h.offset = offset;
	x.type = (uint16_t)type;
	x.address = ret;
	l3_item(e, &x);
}

/* ---- The FIFO and the port (§5.2 L7996-8008, §5.3 L8016-8028, §5.3.1 L8036-8049) --------------- */

static unsigned fifo_count(const struct e1e *e)
{
	return e->tail - e->head;
}

static const struct e1e_packet *fifo_at(const struct e1e *e, unsigned i)
{
	return &e->ring[(e->head + i) % E1E_FIFO_MAX];
}

static void push(struct e1e *e, uint8_t byte, int sync, int owner)
{
	if (fifo_count(e) >= E1E_FIFO_MAX) {
		e->failed = 1;   /* never: the core stalls long before (e1e_instruction) */
		return;
	}
	struct e1e_packet *p = &e->ring[e->tail++ % E1E_FIFO_MAX];
	p->byte = byte;
	p->sync = (uint8_t)sync;
	p->owner = owner;
}

/* The packet at the head starts to leave on the record at offset: its owner's pkt= (FORMAT.md). */
static void first_out(struct e1e *e, const struct e1e_packet *p, uint64_t offset)
{
	struct tc_etmv1_record *r = &e->rec[p->owner];
	if (!r->has_pkt) {
		r->has_pkt = 1;
		r->pkt = offset;
	}
}

/* The record at offset completes item at (its last packet, its second APO cycle): a capture cut
 * after it holds the whole item (e1enc_negative.c). */
void e1e_done(struct e1e *e, int at, uint64_t offset)
{
	if (at >= 0 && (size_t)at < e->nrec && e->done[at] < offset)
		e->done[at] = offset;
}

/* A stretch where a capture cut would find the decoder unsynchronised or holding a byte it cannot
 * place (a gap record, a 16-bit empty byte: until the restart is complete): no cut there. */
void e1e_cut_window_start(struct e1e *e)
{
	if (!e->cut_open)
		e->cut_from = e1e_offset(e);
	e->cut_open = 1;
}

void e1e_cut_window_end(struct e1e *e, uint64_t restart_offset)
{
	if (!e->cut_open)
		return;
	e->cut_open = 0;
	if (e->ncut_windows >= E1E_CUT_WINDOWS) {
		e->cut_unsafe = 1;
		return;
	}
	e->cut_window[e->ncut_windows][0] = e->cut_from;
	e->cut_window[e->ncut_windows++][1] = restart_offset;
}

/* TRACEPKT and TRACESYNC of a cycle that drains the FIFO (ETM1-P2: every cycle but TD and TR
 * while packets are owed). On 16 bits the second byte only when the packet is not a branch
 * address's first (L8040); [15:8] unused is written 0 (L8006: UNKNOWN). */
static void drain(struct e1e *e, uint8_t *pkt, int *sync)
{
	uint64_t off = e1e_offset(e);
	const struct e1e_packet *p = fifo_at(e, 0);
	if (!fifo_count(e))
		return;
	if (e->cfg.port_width == 4) {
		if (!e->half) {
			first_out(e, p, off);
			pkt[0] = p->byte & 0xf;
			*sync = p->sync;
			e->half = 1;
		} else {
			pkt[0] = p->byte >> 4;
			e->half = 0;
			e1e_done(e, p->owner, off);
			e->head++;
		}
		return;
	}
	first_out(e, p, off);
	pkt[0] = p->byte;
	*sync = p->sync;
	e1e_done(e, p->owner, off);
	e->head++;
	if (e->cfg.port_width == 16 && fifo_count(e) && !fifo_at(e, 0)->sync) {
		first_out(e, fifo_at(e, 0), off);
		pkt[1] = fifo_at(e, 0)->byte;
		e1e_done(e, fifo_at(e, 0)->owner, off);
		e->head++;
		e1e_hit(e, "port16 two packets");
	} else if (e->cfg.port_width == 16) {
		e1e_hit(e, "port16 one packet");
	}
}

/* §5.1.1 (L7986), ETMC-F8: whether this cycle, of status ps, is the trigger's (the first cycle from
 * trigger_at that is not TD); then its `trigger` item, before the replaced status's own. */
int e1e_trigger_now(struct e1e *e, int ps, int apo)
{
	if (e->triggered || e->cycles < e->trigger_at || ps == tc_etmv1_ps_td)
		return 0;
	if (e->trigger_on_in && (apo || ps != tc_etmv1_ps_in))
		return 0;   /* a trigger condition met by an instruction that failed its condition */
	e->triggered = 1;
	if (new_record(e, tc_etmv1_trigger, tc_etmv1_ps_tr) >= 0)
		e1e_hit(e, "trigger on %s", apo ? "apo" : ps == tc_etmv1_ps_wt ? "wt" : ps == tc_etmv1_ps_be ? "be" :
					     ps == tc_etmv1_ps_ie ? "ie" : ps == tc_etmv1_ps_in ? "in" : "apo");
	l3_simple(e, tc_l3_trigger, e1e_offset(e));
	return 1;
}

/* Writes one cycle's record with PIPESTAT ps; drains unless ps is TD. trig: the cycle is the
 * trigger's (e1e_trigger_now): TR with ps on TRACEPKT[2:0], and the FIFO stops (L7986). */
static void put_cycle_as(struct e1e *e, int ps, int trig)
{
	uint8_t b[3] = { 0 }, pkt[2] = { 0, 0 };
	struct tc_cyclecap_record rec;
	int sync = 0;
	if (trig) {
		pkt[0] = (uint8_t)ps;
		ps = tc_etmv1_ps_tr;
	} else if (ps == tc_etmv1_ps_td) {
		/* §5.10 (L8420): TRACEPKT[0] high on TD while tracing in cycle-accurate mode; low when
		 * TraceEnable is inactive (Table 5-2 TD, L8141) */
		pkt[0] = e->cfg.cycle_accurate && !e->disabled ? 1 : 0;
	} else {
		drain(e, pkt, &sync);
	}
	memset(&rec, 0, sizeof rec);
	rec.status = (uint8_t)ps;
	rec.sync = (uint8_t)sync;
	rec.pkt = (uint16_t)(pkt[0] | pkt[1] << 8);
	tc_cyclecap_put_record(&rec, e->cfg.port_width, b);   /* the sample file's one writer */
	if (sync)
		e1e_hit(e, "tracesync port%u", e->cfg.port_width);
	if (ps == tc_etmv1_ps_td && !pkt[0] && e->drop_td) {
		/* §4.4.2 (L7316-7324), ETMC-F3: a cycle the capture device need not keep */
		e1e_hit(e, "capture without td cycles");
		e->since_full++;
		e->cycles++;
		return;
	}
	enc_buf_put(&e->trace, b, record_size(e));
	e->since_full++;
	e->cycles++;
}

/* A cycle that is not an instruction's: the trigger may fall on it. */
static void put_cycle(struct e1e *e, int ps)
{
	put_cycle_as(e, ps, e1e_trigger_now(e, ps, 0));
}

/* Whether a WT cycle cannot carry what the FIFO holds: empty, or on 16 bits fewer than two packets
 * a WT may carry ("a single packet is output only if the PIPESTAT is not WT", L8038). */
int e1e_fifo_stuck(const struct e1e *e)
{
	if (!fifo_count(e))
		return 1;
	if (e->cfg.port_width != 16)
		return 0;
	return fifo_count(e) < 2 || fifo_at(e, 1)->sync;
}

/* A cycle with no functional status: WT when it drains, else TD (Table 5-1 L7961, L7972). */
static void wait_cycle(struct e1e *e)
{
	if (e1e_fifo_stuck(e)) {
		put_cycle(e, tc_etmv1_ps_td);
		e1e_hit(e, "pipestat td%s", e->cfg.cycle_accurate ? " cycle-accurate" : "");
	} else {
		put_cycle(e, tc_etmv1_ps_wt);
		e1e_hit(e, "pipestat wt");
	}
}

/* ---- Branch addresses (§5.5.4 L8163-8192, §5.5.5 L8204-8217, §5.6.1 L8227-8243) -------------- */

/* The fewest packets that give addr against the last address output (L8171). */
static int packets_needed(uint32_t addr, uint32_t last)
{
	for (int n = 1; n <= 4; n++)
		if (((addr ^ last) >> (7 * n)) == 0)
			return n;
	return 5;
}

/* The TRACESYNCs still to come before a branch put in the FIFO now: the APO (L8233); 15 when there
 * are 15 or more ("reserved to indicate that the offset is too large to be encoded", ETM1-P7). */
static int apo_now(const struct e1e *e)
{
	int n = 0;
	for (unsigned i = 0; i < fifo_count(e); i++)
		n += fifo_at(e, i)->sync && !(i == 0 && e->half);
	return n > 15 ? 15 : n;
}

/* §5.6.3 (L8262-8268), ETM1-P16: the Context ID after a five-packet address whose reason is not
 * b000, from ETMv1.2, contextid_size bytes least significant first, contiguous with the address;
 * L3 `context` when it differs from the last one traced. */
static void push_ctxid(struct e1e *e, int owner)
{
	struct tc_etmv1_record *r = &e->rec[owner];
	for (unsigned k = 0; k < e->cfg.contextid_size; k++)
		push(e, (uint8_t)(e->ctxid >> (8 * k)), 0, owner);
	r->has_ctxid = 1;
	r->ctxid = e->ctxid;
	e->ctx_pending = 0;
	e1e_hit(e, "context id %u bytes", e->cfg.contextid_size);
	if (!e->ctx_valid || e->ctx_shown != e->ctxid) {
		struct tc_l3 x;
		e1e_l3_flush(e);
		memset(&x, 0, sizeof x);
		x.h.size = sizeof x;
		x.h.protocol = tc_proto_etmv1;
		x.h.kind = tc_l3_context;
		x.h.offset = r->h.offset;
		x.ctx.context_id = e->ctxid;
		l3_item(e, &x);
		e->ctx_shown = e->ctxid;
		e->ctx_valid = 1;
	}
}

/* Puts the branch address of record owner in the FIFO: n packets, the fifth with reason. */
static void push_address(struct e1e *e, int owner, uint32_t addr, int n, int reason)
{
	struct tc_etmv1_record *r = &e->rec[owner];
	for (int k = 0; k < n; k++) {
		uint8_t byte;
		if (k < 4)
			byte = (uint8_t)(((addr >> (7 * k)) & 0x7f) | (k < n - 1 ? 0x80 : 0));
		else
			byte = (uint8_t)(((addr >> 28) & 0xf) | reason << 4);   /* J = 0 (bit 7) */
		push(e, byte, k == 0, owner);
	}
	r->has_addr = 1;
	r->addr = addr & 1 ? addr & ~UINT32_C(1) : addr & ~UINT32_C(3);   /* §5.5.2 (L8155-8157) */
	r->isa = addr & 1 ? tc_etmv1_isa_thumb : tc_etmv1_isa_arm;
	if (addr & 1 && n < 3)
		e1e_hit(e, "thumb address %d packets", n);
	else if (addr & 1)
		e1e_hit(e, "thumb address 3-5 packets");
	r->npkts = (uint8_t)n;
	if (n == 5) {
		r->has_reason = 1;
		r->reason = (uint8_t)reason;
		r->has_j = e->cfg.version >= 3;
		e->since_full = 0;
		e1e_hit(e, "reason %d v1.%u", reason, e->cfg.version);
	}
	e->last_addr = addr;
	e1e_hit(e, "address %d packets", n);
	if (n == 5 && reason != 0 && e->cfg.version >= 2 && e->cfg.contextid_size)
		push_ctxid(e, owner);
}

/* The two APO cycles after a BE (§5.6.1 L8231, ETM1-S1: PIPESTAT[1:0], low bits first). */
static void apo_cycles(struct e1e *e, int at, int apo)
{
	put_cycle_as(e, apo & 3, e1e_trigger_now(e, apo & 3, 1));
	e1e_done(e, at, e1e_offset(e));
	put_cycle_as(e, (apo >> 2) & 3, e1e_trigger_now(e, (apo >> 2) & 3, 1));
	e1e_hit(e, "apo %s", apo == 0 ? "0" : apo < 15 ? "1-14" : "15");   /* 15: too large to encode (L8233) */
}

/* §5.6.1 (L8239), §4.5.3 (L7406-7408), ETM1-P19: an IRQ or FIQ strikes a branch's target before it
 * runs, in the branch's APO cycle k (0 or 1): a BE to the vector there abandons the branch (its
 * item `abandoned=1 apo=-`); L3 `exception` whose return is the branch's target (the default
 * reading of ETM1-P19); the handler's return is the execution's (e1e_handler_pending). */
static void abandon(struct e1e *e, int at, const struct e1e_insn *in, int k)
{
	int fiq = enc_chance(&e->rng, 30);
	uint32_t vector = e->prog.vector_base + (fiq ? 0x1c : 0x18);
	e->rec[at].abandoned = 1;
	e->rec[at].apo = TC_ETMV1_APO_NONE;
	int be = new_record(e, tc_etmv1_be, tc_etmv1_ps_be);
	if (be < 0)
		return;
	l3_exception(e, e->rec[be].h.offset, fiq ? 0xf : 0xe, in->target & ~UINT32_C(1));
	int apo = apo_now(e);
	e->rec[be].apo = (uint8_t)apo;
	if (e->ctx_pending)
		push_address(e, be, vector, 5, 4);   /* L8266, ETM1-E4 */
	else
		push_address(e, be, vector, packets_needed(vector, e->last_addr), 0);
	put_cycle_as(e, tc_etmv1_ps_be, 0);   /* no trigger here: a TR in an APO cycle holds APO bits (L8243) */
	e1e_hit(e, "pipestat be");
	e1e_hit(e, "be abandoned in apo cycle %d", k + 1);
	apo_cycles(e, be, apo);
	e->handler_pending = 1;
	e->handler_vector = vector;
	e->handler_ret = in->target;
}

/* The APO cycles of a BE or BD, or the BE that abandons it in one of them (ETM1-P19). */
static void branch_apo(struct e1e *e, int at, const struct e1e_insn *in, int apo)
{
	if (!in->may_abandon || !e->abandon_percent || !enc_chance(&e->rng, e->abandon_percent)) {
		apo_cycles(e, at, apo);
		return;
	}
	int k = (int)enc_below(&e->rng, 2);
	if (k == 1)
		put_cycle_as(e, apo & 3, e1e_trigger_now(e, apo & 3, 1));
	abandon(e, at, in, k);
}

/* §5.8.1 (L8375): trace enabled: a BE with a five-packet address, reason b001, standing for no
 * instruction (ETM1-P15); after an overflow the same with b010 (§5.9 L8398-8403). */
static void restart(struct e1e *e, uint32_t addr, int reason)
{
	int at = new_record(e, tc_etmv1_be, tc_etmv1_ps_be);
	if (at < 0)
		return;
	l3_simple(e, reason == 2 ? tc_l3_overflow : tc_l3_trace_on, e->rec[at].h.offset);
	if (addr & 1 && reason == 1)
		e1e_hit(e, "trace on thumb");
	int apo = apo_now(e);
	e->rec[at].apo = (uint8_t)apo;
	push_address(e, at, addr, 5, reason);
	put_cycle_as(e, tc_etmv1_ps_be, 0);
	e1e_hit(e, "pipestat be");
	apo_cycles(e, at, apo);
	e1e_cut_window_end(e, e->rec[at].h.offset);
}

void e1e_trace_on(struct e1e *e, uint32_t addr)
{
	restart(e, addr, 1);
}

/* §5.9 (L8404-8408), ETM1-P19, ERRATA ETM1-E8: the b010 BE after an overflow is speculative; a
 * second b010 BE, to the same address, in its first or second APO cycle overwrites its APO: the
 * first is abandoned (`abandoned=1 apo=-`), both are `overflow` at L3 (ETM1-P15), the trace goes
 * on from the second's address. */
static void speculative_restart(struct e1e *e, uint32_t addr)
{
	int at = new_record(e, tc_etmv1_be, tc_etmv1_ps_be);
	if (at < 0)
		return;
	l3_simple(e, tc_l3_overflow, e->rec[at].h.offset);
	int apo = apo_now(e);
	push_address(e, at, addr, 5, 2);
	put_cycle_as(e, tc_etmv1_ps_be, 0);
	int k = (int)enc_below(&e->rng, 2);
	if (k == 1)
		put_cycle_as(e, apo & 3, e1e_trigger_now(e, apo & 3, 1));
	e->rec[at].abandoned = 1;
	e->rec[at].apo = TC_ETMV1_APO_NONE;
	e1e_hit(e, "overflow speculative be apo cycle %d", k + 1);
	restart(e, addr, 2);
}

/* §5.6.3 (L8266): the Context ID changes while tracing (the program wrote it, ETM1-E4); the next
 * taken branch carries the new one after a five-packet address with reason b100. */
void e1e_context_change(struct e1e *e, uint32_t ctxid)
{
	if (ctxid == e->ctxid)
		return;
	e->ctxid = ctxid;
	e->ctx_pending = 1;
}

/* §5.6.2 (L8249-8254): whether this branch's address is the periodic full one; a direct branch
 * becomes a BE for it after 512 more cycles. */
static int periodic_due(const struct e1e *e, int indirect)
{
	return e->since_full >= 1024 && (indirect || e->since_full >= 1024 + 512);
}

void e1e_instruction(struct e1e *e, int ps, uint32_t addr, int type, int executed, int indirect,
		     uint32_t target, int refill)
{
	struct e1e_insn in = { .ps = ps, .addr = addr, .size = 4, .type = type, .executed = executed,
			       .indirect = indirect, .target = target, .refill = refill };
	e1e_step(e, &in);
}

/* The core stalls while the FIFO could not take an instruction's packets (FIFOFULL). */
static void stall_while_full(struct e1e *e)
{
	while (fifo_count(e) + 5 > e->fifo_depth && !e1e_fifo_stuck(e)) {
		e1e_hit(e, "fifofull stall");
		wait_cycle(e);
	}
}

static void branch_apo(struct e1e *e, int at, const struct e1e_insn *in, int apo);

/* The branch address of a BE or BD (record at, status ps), its cycle and its two APO cycles: the
 * periodic full address when due, sometimes more packets than needed. */
static void branch_cycle(struct e1e *e, int at, const struct e1e_insn *in, int ps, int trig)
{
	int apo = apo_now(e);
	int n = packets_needed(in->target, e->last_addr), reason = 0;
	if (e->ctx_pending) {
		n = 5;   /* §5.6.3 (L8266), ETM1-E4: the new Context ID after a b100 address */
		reason = 4;
		e1e_hit(e, "context id change on %s branch", in->indirect ? "indirect" : "direct");
	} else if (periodic_due(e, 1)) {
		n = 5;
		reason = e->cfg.version >= 2 ? 4 : 0;   /* Table 5-3: b100 from ETMv1.2, b000 before (L8258) */
		e1e_hit(e, "periodic full address");
	} else if (n < 5 && enc_chance(&e->rng, 10)) {
		n += 1 + (int)enc_below(&e->rng, (unsigned)(5 - n));   /* a longer address is as valid */
		e1e_hit(e, "address longer than needed");
	}
	e->rec[at].apo = (uint8_t)apo;
	push_address(e, at, in->target, n, reason);
	put_cycle_as(e, ps, trig);
	e1e_hit(e, "pipestat %s", ps == tc_etmv1_ps_bd ? "bd" : "be");
	branch_apo(e, at, in, apo);
}

void e1e_step(struct e1e *e, const struct e1e_insn *in)
{
	int ps = in->ps;
	stall_while_full(e);
	unsigned waits = enc_chance(&e->rng, 25) ? 1 + enc_below(&e->rng, 3) : 0;
	for (unsigned i = 0; i < waits; i++)
		wait_cycle(e);
	if (in->executed && in->type == tc_insn_branch_dir && !in->indirect && e->ctx_pending) {
		ps = tc_etmv1_ps_be;   /* L8266: "the next branch … (whether direct or indirect)" */
	} else if (in->executed && in->type == tc_insn_branch_dir && !in->indirect && periodic_due(e, 0)) {
		ps = tc_etmv1_ps_be;
		e1e_hit(e, "periodic direct branch as be");
	}
	int kind = ps == tc_etmv1_ps_ie ? tc_etmv1_ie : ps == tc_etmv1_ps_in ? tc_etmv1_in : tc_etmv1_be;
	int trig = e1e_trigger_now(e, ps, 0);
	int at = new_record(e, kind, ps);
	if (at < 0)
		return;
	if (!in->first_half)
		l3_insn(e, e->rec[at].h.offset, in);
	if (in->exc_type)
		l3_exception(e, e->rec[at].h.offset, in->exc_type, in->exc_ret);
	if (ps != tc_etmv1_ps_be) {
		put_cycle_as(e, ps, trig);
		e1e_hit(e, "pipestat %s", ps == tc_etmv1_ps_ie ? "ie" : "in");
		for (int i = 0; i < in->refill; i++)
			wait_cycle(e);
		return;
	}
	branch_cycle(e, at, in, ps, trig);
}

/* §4.5.3 (L7398-7412), ETM1-P17: an interrupt taken before the instruction at ret: a BE to the
 * vector on that instruction's PIPESTAT, which cancels it; L3 `exception` with `ret` its address. */
void e1e_exception(struct e1e *e, uint32_t ret, uint32_t vector, int type)
{
	int trig = e1e_trigger_now(e, tc_etmv1_ps_be, 0);
	int at = new_record(e, tc_etmv1_be, tc_etmv1_ps_be);
	if (at < 0)
		return;
	l3_exception(e, e->rec[at].h.offset, type, ret);
	int apo = apo_now(e);
	e->rec[at].apo = (uint8_t)apo;
	if (e->ctx_pending) {
		push_address(e, at, vector, 5, 4);   /* L8266, ETM1-E4 */
		e1e_hit(e, "context id change on exception");
	} else {
		push_address(e, at, vector, packets_needed(vector, e->last_addr), 0);
	}
	put_cycle_as(e, tc_etmv1_ps_be, trig);
	e1e_hit(e, "pipestat be");
	apo_cycles(e, at, apo);
}

/* §5.7.5 (L8358-8367), ETM1-P13: a data address compressed against the last one; a full one (five
 * packets, the fifth's reason bits b000, L8332) first after trace is enabled and when none was
 * output in the synchronisation period that ends with this cycle (1024 cycles, ETM1-S6). */
static void push_daddr(struct e1e *e, int owner, uint32_t a)
{
	int sync = e->daddr_full_done && e->cycles - e->daddr_full_at >= 1024;
	int n = e->daddr_full_done && !sync ? packets_needed(a, e->last_daddr) : 5;
	if (sync)
		e1e_hit(e, "data address sync period");
	if (n < 4 && enc_chance(&e->rng, 10))   /* longer, at most 4: a full one comes by the rules above */
		n += 1 + (int)enc_below(&e->rng, (unsigned)(4 - n));
	for (int k = 0; k < n; k++) {
		uint8_t byte = k < 4 ? (uint8_t)(((a >> (7 * k)) & 0x7f) | (k < n - 1 ? 0x80 : 0)) : (uint8_t)((a >> 28) & 0xf);
		push(e, byte, 0, owner);
	}
	e->rec[owner].has_daddr = 1;
	e->rec[owner].daddr = a;
	e->last_daddr = a;
	e->last_daddr_pkts = n;
	e->daddr_full_done = 1;
	if (n == 5)
		e->daddr_full_at = e->cycles;
	e1e_hit(e, "data address %d packets", n);
}

/* Each transfer's value, least significant byte first (ETM1-P12); a load to the PC's last word is
 * the branch address (pc, ETM1-E3). */
static void push_values(struct e1e *e, int owner, int ntransfers, int size, const uint32_t *pc)
{
	struct tc_etmv1_record *r = &e->rec[owner];
	for (int i = 0; i < ntransfers && i < TC_ETMV1_MAX_VALUES; i++) {
		uint64_t v = enc_next(&e->rng) & (size == 4 ? 0xffffffffu : size == 2 ? 0xffffu : 0xffu);
		if (pc && i == ntransfers - 1)
			v = *pc;
		for (int k = 0; k < size; k++)
			push(e, (uint8_t)(v >> (8 * k)), 0, owner);
		r->value[r->nvalues] = v;
		r->vsize[r->nvalues++] = (uint8_t)size;
	}
}

/* The data packets of an ID or BD (Table 5-2 L8128-8139, §5.7.3 L8328-8346): the address, then
 * the values; a CPRT's values alone, whatever data_value says (§4.11.3 L7903, ETM1-P31). */
static void push_data(struct e1e *e, int owner, const struct e1e_insn *in, int ntransfers, int size)
{
	if (in->cprt) {
		push_values(e, owner, ntransfers, size, NULL);
		e1e_hit(e, "cprt %d words", ntransfers);
		return;
	}
	uint32_t a = (enc_chance(&e->rng, 90) ? (e->last_daddr & ~UINT32_C(0xfff)) | enc_below(&e->rng, 0x1000)
					     : (uint32_t)enc_next(&e->rng)) & ~(uint32_t)(size - 1);
	if (e->cfg.data_address)
		push_daddr(e, owner, a);
	if (!e->cfg.data_value)
		return;
	/* a load to the PC's last word is its branch address; an aborted access's values are random */
	push_values(e, owner, ntransfers, size,
		    in->ps == tc_etmv1_ps_bd && in->type == tc_insn_branch_indir ? &in->target : NULL);
	e1e_hit(e, "data value %s", ntransfers > 1 ? "ldm/stm" : size == 1 ? "byte" : size == 2 ? "halfword" : "word");
}

void e1e_data_instruction(struct e1e *e, uint32_t addr, int ntransfers, int size)
{
	struct e1e_insn in = { .ps = tc_etmv1_ps_id, .addr = addr, .size = 4, .type = tc_insn_other, .executed = 1 };
	e1e_data_step(e, &in, ntransfers, size);
}

/* An executed load or store with data tracing on, or a CPRT with cprt=1: ID (Table 5-1 L7959); a
 * load to the PC: BD, its data then its branch address (L7970, §5.7.3 L8344). Its data packets
 * enter the FIFO at its functional cycle, or, when the FIFO is empty at its first wait cycle, from
 * there as early packets (L8026, ETM1-P3). */
/* The ID's record after only its first k packets entered the FIFO (ETM1-P18: `lost=1` with what
 * came of it): a data address cut short is none, and its values are not sized; value bytes past
 * the k-th are not known. */
static void cut_record(struct e1e *e, int at, unsigned k)
{
	struct tc_etmv1_record *r = &e->rec[at];
	unsigned nd = e->cfg.data_address ? (unsigned)e->last_daddr_pkts : 0, b = 0;
	r->lost = 1;
	if (k < nd) {
		r->has_daddr = 0;
		r->daddr = 0;
		r->nvalues = 0;
		memset(r->value, 0, sizeof r->value);
		e1e_hit(e, "overflow data address cut");
		return;
	}
	for (unsigned i = 0; i < r->nvalues; i++)
		for (unsigned j = 0; j < r->vsize[i]; j++, b++)
			if (b >= k - nd)
				r->value[i] &= ~((uint64_t)0xff << (8 * j));
	e1e_hit(e, "overflow value cut");
}

/* §5.9 (L8398-8410): the ID's packets do not fit: of the `start + total` packets the FIFO would
 * hold, those past its depth are lost (at least one of the ID's goes in, on 16 bits an even number
 * into an empty FIFO, so that no lone byte is left to a WT, ETM1-E6); the ID's PIPESTAT, WT while
 * the FIFO drains, then the restart with a b010 address at the next instruction. 0: it fits. */
static int overflow(struct e1e *e, int at, const struct e1e_insn *in, unsigned start, int trig)
{
	unsigned total = fifo_count(e) - start, k;
	if (!e->overflow_mode || in->cprt || fifo_count(e) <= e->fifo_depth || total < 2)
		return 0;
	k = e->fifo_depth > start ? e->fifo_depth - start : 1;
	if (k >= total)
		k = total - 1;
	if (e->cfg.port_width == 16 && (start || (k &= ~1u) < 2))
		return 0;
	e->tail -= total - k;
	cut_record(e, at, k);
	e1e_cut_window_start(e);   /* the loss shows only at the restart (ETM1-P18) */
	put_cycle_as(e, tc_etmv1_ps_id, trig);
	e1e_hit(e, "pipestat id");
	while (fifo_count(e) && !e1e_fifo_stuck(e))
		wait_cycle(e);
	uint32_t next = (in->addr + (uint32_t)in->size) | (in->thumb ? 1u : 0u);
	if (enc_chance(&e->rng, 30))
		speculative_restart(e, next);
	else
		restart(e, next, 2);
	e->daddr_full_done = 0;   /* ETM1-P13: an interruption */
	e1e_hit(e, "overflow port%u", e->cfg.port_width);
	return 1;
}

void e1e_data_step(struct e1e *e, const struct e1e_insn *in, int ntransfers, int size)
{
	int bd = in->ps == tc_etmv1_ps_bd;
	if (!e->overflow_mode || bd || in->cprt)
		stall_while_full(e);
	unsigned waits = enc_chance(&e->rng, 40) ? 1 + enc_below(&e->rng, 3) : 0;
	int early = waits && !fifo_count(e) && enc_chance(&e->rng, 50);
	int at = new_record(e, bd ? tc_etmv1_bd : tc_etmv1_id, in->ps);
	if (at < 0)
		return;
	if (early)
		push_data(e, at, in, ntransfers, size);
	for (unsigned i = 0; i < waits; i++)
		wait_cycle(e);
	/* on 16 bits a WT carries two packets or none (L8038): the early ones left in pairs */
	if (early && e->rec[at].has_pkt)
		e1e_hit(e, "early packets port%u%s", e->cfg.port_width, bd ? " bd" : "");
	int trig = e1e_trigger_now(e, in->ps, 0);
	unsigned start = fifo_count(e);
	e->rec[at].h.offset = e1e_offset(e);
	if (!early)
		push_data(e, at, in, ntransfers, size);
	l3_insn(e, e->rec[at].h.offset, in);
	if (!bd && !early && overflow(e, at, in, start, trig))
		return;
	if (in->exc_type)
		l3_exception(e, e->rec[at].h.offset, in->exc_type, in->exc_ret);
	if (bd) {
		branch_cycle(e, at, in, in->ps, trig);
		return;
	}
	put_cycle_as(e, tc_etmv1_ps_id, trig);
	e1e_hit(e, "pipestat id");
}

/* §5.8.2 (L8381-8386): trace disabled: the FIFO drains on WT cycles (on 16 bits a last lone packet
 * with an empty byte, L8045: the next packet is the restart's, with TRACESYNC), then TD with
 * TRACEPKT[0] = 0 for the cycles given; in cycle-accurate mode the first is a `trace-disabled`
 * item (ETM1-P21). The restart is e1e_trace_on's (after debug state e1e_debug_state's). */
/* FORMAT.md "Sample file", ETMC-F4, ERRATA ETM1-E10: the capture lost cycles here (a gap record,
 * status byte 0x80), placed only among the TD cycles after the FIFO drained, where nothing is
 * incomplete (ETM1-P22: no `truncated`); L1 `gap`, nothing at L3; the decoder is unsynchronised
 * until the restart's five-packet address, and the TD cycles between give nothing. */
static void gap_record(struct e1e *e)
{
	uint8_t b[3] = { 0x80, 0, 0 };
	int at = new_record(e, tc_etmv1_gap, TC_ETMV1_STATUS_GAP);
	if (at < 0)
		return;
	e1e_cut_window_start(e);
	enc_buf_put(&e->trace, b, record_size(e));
	e->since_full++;
	e->cycles++;
	e1e_hit(e, "gap record%s", e->cfg.cycle_accurate ? " cycle-accurate" : "");
}

static void stop_tracing(struct e1e *e, unsigned cycles)
{
	int empty_byte = 0;
	while (fifo_count(e)) {
		if (!e1e_fifo_stuck(e)) {
			wait_cycle(e);
			continue;
		}
		/* 16 bits: one packet on [7:0] and the empty byte (UNKNOWN, L8006) on [15:8] */
		uint8_t b[3] = { tc_etmv1_ps_wt, 0, (uint8_t)enc_below(&e->rng, 256) };
		const struct e1e_packet *p = fifo_at(e, 0);
		if (e1e_trigger_now(e, tc_etmv1_ps_wt, 0)) {
			b[0] = tc_etmv1_ps_tr;
			b[1] = tc_etmv1_ps_wt;
			b[2] = 0;
		} else {
			first_out(e, p, e1e_offset(e));
			b[0] = (uint8_t)(tc_etmv1_ps_wt | (p->sync ? 0x10 : 0));
			b[1] = p->byte;
			e1e_done(e, p->owner, e1e_offset(e));
			e1e_cut_window_start(e);
			e->head++;
			empty_byte = 1;
			e1e_hit(e, "port16 empty byte");
		}
		enc_buf_put(&e->trace, b, record_size(e));
		e->since_full++;
		e->cycles++;
	}
	e->disabled = 1;
	/* no gap after an empty byte: the decoder holds it as early until a TRACESYNC (ETM1-P4) */
	unsigned gap_at = cycles >= 2 && !empty_byte && e->gap_percent && enc_chance(&e->rng, e->gap_percent)
				  ? 1 + enc_below(&e->rng, cycles - 1) : cycles;
	for (unsigned i = 0; i < cycles; i++) {
		if (i == 0 && e->cfg.cycle_accurate && !e->drop_td)
			new_record(e, tc_etmv1_trace_disabled, tc_etmv1_ps_td);
		if (i == gap_at)
			gap_record(e);
		else
			put_cycle(e, tc_etmv1_ps_td);
	}
	e->disabled = 0;
	e->daddr_full_done = 0;   /* ETM1-P13: an interruption */
}

void e1e_trace_off(struct e1e *e, unsigned cycles)
{
	stop_tracing(e, cycles);
	e1e_hit(e, "trace disabled%s", e->cfg.cycle_accurate ? " cycle-accurate" : "");
}

/* §4.8 (L7634-7638), ERRATA ETM1-E9: the core enters debug state: tracing stops and the FIFO drains
 * until empty (on 16 bits with the empty byte of L8048), then TD cycles with TRACEPKT[0] = 0
 * (cycle-accurate tracing is disabled, §5.10 L8426: in cycle-accurate mode the first is a
 * `trace-disabled` item, ETM1-P21); at the exit tracing restarts at addr with reason b011 (Table 5-3
 * L8213; L3 `trace-on`, ETM1-P15). */
void e1e_debug_state(struct e1e *e, unsigned cycles, uint32_t addr)
{
	stop_tracing(e, cycles);
	e1e_hit(e, "debug state%s", e->cfg.cycle_accurate ? " cycle-accurate" : "");
	restart(e, addr, 3);
}

/* The end of the run: WT cycles while packets are owed. */
void e1e_drain(struct e1e *e)
{
	while (!e1e_fifo_stuck(e))
		wait_cycle(e);
}
