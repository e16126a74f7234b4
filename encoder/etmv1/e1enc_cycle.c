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
		if (!p) {
			e->failed = 1;
			return -1;
		}
		e->rec = p;
		e->caprec = cap;
	}
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

static void order_records(struct e1e *e)
{
	for (size_t i = 1; i < e->nrec; i++) {
		struct tc_etmv1_record r = e->rec[i];
		size_t j = i;
		for (; j > 0 && record_after(&e->rec[j - 1], &r); j--)
			e->rec[j] = e->rec[j - 1];
		e->rec[j] = r;
	}
}

char *e1e_l1_text(struct e1e *e)
{
	struct enc_buf b = { 0 };
	char line[512];
	order_records(e);
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

/* FORMAT.md "L3": the instruction joins the range (a new one after a branch, or when it does not
 * follow the last); a branch, executed or not, ends it (ETM1-P26). */
static void l3_instruction(struct e1e *e, uint64_t offset, uint32_t addr, int type, int executed)
{
	if (e->range_open && addr != e->range_next)
		e1e_l3_flush(e);
	if (!e->range_open) {
		memset(&e->range, 0, sizeof e->range);
		e->range.h.size = sizeof e->range;
		e->range.h.protocol = tc_proto_etmv1;
		e->range.h.kind = tc_l3_range;
		e->range.h.offset = offset;
		e->range.first = addr;
		e->range.isa = tc_isa_a32;
		e->range.last_type = tc_insn_other;
		e->range.taken = tc_taken_none;
		e->range_open = 1;
	}
	e->range.last = addr;
	e->range.count++;
	e->range_next = addr + 4;
	if (type == tc_insn_branch_dir || type == tc_insn_branch_indir) {
		e->range.last_type = (uint8_t)type;
		e->range.taken = executed ? tc_taken_e : tc_taken_n;
		e1e_l3_flush(e);
	}
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
			e->head++;
		}
		return;
	}
	first_out(e, p, off);
	pkt[0] = p->byte;
	*sync = p->sync;
	e->head++;
	if (e->cfg.port_width == 16 && fifo_count(e) && !fifo_at(e, 0)->sync) {
		first_out(e, fifo_at(e, 0), off);
		pkt[1] = fifo_at(e, 0)->byte;
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

/* The TRACESYNCs still to come before a branch put in the FIFO now: the APO (L8233), capped at 15. */
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
	r->addr = addr & ~UINT32_C(3);
	r->isa = tc_etmv1_isa_arm;
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
static void apo_cycles(struct e1e *e, int apo)
{
	put_cycle_as(e, apo & 3, e1e_trigger_now(e, apo & 3, 1));
	put_cycle_as(e, (apo >> 2) & 3, e1e_trigger_now(e, (apo >> 2) & 3, 1));
	e1e_hit(e, "apo %s", apo == 0 ? "0" : "1-15");   /* 15, the cap (ETM1-P7): variants.txt */
}

/* §5.8.1 (L8375): trace enabled: a BE with a five-packet address, reason b001, standing for no
 * instruction (ETM1-P15). */
void e1e_trace_on(struct e1e *e, uint32_t addr)
{
	int at = new_record(e, tc_etmv1_be, tc_etmv1_ps_be);
	if (at < 0)
		return;
	l3_simple(e, tc_l3_trace_on, e->rec[at].h.offset);
	int apo = apo_now(e);
	e->rec[at].apo = (uint8_t)apo;
	push_address(e, at, addr, 5, 1);
	put_cycle_as(e, tc_etmv1_ps_be, 0);
	e1e_hit(e, "pipestat be");
	apo_cycles(e, apo);
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
	while (fifo_count(e) + 5 > e->fifo_depth && !e1e_fifo_stuck(e)) {
		e1e_hit(e, "fifofull stall");
		wait_cycle(e);
	}
	unsigned waits = enc_chance(&e->rng, 25) ? 1 + enc_below(&e->rng, 3) : 0;
	for (unsigned i = 0; i < waits; i++)
		wait_cycle(e);
	if (executed && type == tc_insn_branch_dir && !indirect && periodic_due(e, 0)) {
		ps = tc_etmv1_ps_be;
		e1e_hit(e, "periodic direct branch as be");
	}
	int kind = ps == tc_etmv1_ps_ie ? tc_etmv1_ie : ps == tc_etmv1_ps_in ? tc_etmv1_in : tc_etmv1_be;
	int trig = e1e_trigger_now(e, ps, 0);
	int at = new_record(e, kind, ps);
	if (at < 0)
		return;
	l3_instruction(e, e->rec[at].h.offset, addr, type, executed);
	if (ps != tc_etmv1_ps_be) {
		put_cycle_as(e, ps, trig);
		e1e_hit(e, "pipestat %s", ps == tc_etmv1_ps_ie ? "ie" : "in");
		for (int i = 0; i < refill; i++)
			wait_cycle(e);
		return;
	}
	int apo = apo_now(e);
	int n = packets_needed(target, e->last_addr), reason = 0;
	if (periodic_due(e, 1)) {
		n = 5;
		reason = e->cfg.version >= 2 ? 4 : 0;   /* Table 5-3: b100 from ETMv1.2, b000 before (L8258) */
		e1e_hit(e, "periodic full address");
	} else if (n < 5 && enc_chance(&e->rng, 10)) {
		n += 1 + (int)enc_below(&e->rng, (unsigned)(5 - n));   /* a longer address is as valid */
		e1e_hit(e, "address longer than needed");
	}
	e->rec[at].apo = (uint8_t)apo;
	push_address(e, at, target, n, reason);
	put_cycle_as(e, tc_etmv1_ps_be, trig);
	e1e_hit(e, "pipestat be");
	apo_cycles(e, apo);
}

/* §4.5.3 (L7398-7412), ETM1-P17: an interrupt taken before the instruction at ret: a BE to the
 * vector on that instruction's PIPESTAT, which cancels it; L3 `exception` with `ret` its address. */
void e1e_exception(struct e1e *e, uint32_t ret, uint32_t vector, int type)
{
	int trig = e1e_trigger_now(e, tc_etmv1_ps_be, 0);
	int at = new_record(e, tc_etmv1_be, tc_etmv1_ps_be);
	if (at < 0)
		return;
	struct tc_l3 x;
	e1e_l3_flush(e);
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_etmv1;
	x.h.kind = tc_l3_exception;
	x.h.offset = e->rec[at].h.offset;
	x.type = (uint16_t)type;
	x.address = ret;
	l3_item(e, &x);
	int apo = apo_now(e);
	e->rec[at].apo = (uint8_t)apo;
	push_address(e, at, vector, packets_needed(vector, e->last_addr), 0);
	put_cycle_as(e, tc_etmv1_ps_be, trig);
	e1e_hit(e, "pipestat be");
	apo_cycles(e, apo);
}

/* §5.7.5 (L8358-8367), ETM1-P13: a data address compressed against the last one, a full one (five
 * packets, the fifth's reason bits b000, L8332) first after trace is enabled. */
static void push_daddr(struct e1e *e, int owner, uint32_t a)
{
	int n = e->daddr_full_done ? packets_needed(a, e->last_daddr) : 5;
	if (n < 5 && enc_chance(&e->rng, 10))
		n += 1 + (int)enc_below(&e->rng, (unsigned)(5 - n));
	for (int k = 0; k < n; k++) {
		uint8_t byte = k < 4 ? (uint8_t)(((a >> (7 * k)) & 0x7f) | (k < n - 1 ? 0x80 : 0)) : (uint8_t)((a >> 28) & 0xf);
		push(e, byte, 0, owner);
	}
	e->rec[owner].has_daddr = 1;
	e->rec[owner].daddr = a;
	e->last_daddr = a;
	e->daddr_full_done = 1;
	e1e_hit(e, "data address %d packets", n);
}

/* The data packets of an ID (Table 5-2 L8128-8135, §5.7.3 L8328-8346): the address, then each
 * transfer's value, least significant byte first (ETM1-P12). */
static void push_data(struct e1e *e, int owner, int ntransfers, int size)
{
	struct tc_etmv1_record *r = &e->rec[owner];
	uint32_t a = (enc_chance(&e->rng, 70) ? (e->last_daddr & ~UINT32_C(0xfff)) | enc_below(&e->rng, 0x1000)
					     : (uint32_t)enc_next(&e->rng)) & ~(uint32_t)(size - 1);
	if (e->cfg.data_address)
		push_daddr(e, owner, a);
	if (!e->cfg.data_value)
		return;
	for (int i = 0; i < ntransfers && i < TC_ETMV1_MAX_VALUES; i++) {
		uint64_t v = enc_next(&e->rng) & (size == 4 ? 0xffffffffu : size == 2 ? 0xffffu : 0xffu);
		for (int k = 0; k < size; k++)
			push(e, (uint8_t)(v >> (8 * k)), 0, owner);
		r->value[r->nvalues] = v;
		r->vsize[r->nvalues++] = (uint8_t)size;
	}
	e1e_hit(e, "data value %s", ntransfers > 1 ? "ldm/stm" : size == 1 ? "byte" : size == 2 ? "halfword" : "word");
}

/* An executed load or store with data tracing on: ID (Table 5-1 L7959). Its packets enter the FIFO
 * at its functional cycle, or, when the FIFO is empty at its first wait cycle, from there as early
 * packets (L8026, ETM1-P3). */
void e1e_data_instruction(struct e1e *e, uint32_t addr, int ntransfers, int size)
{
	while (fifo_count(e) + 5 > e->fifo_depth && !e1e_fifo_stuck(e)) {
		e1e_hit(e, "fifofull stall");
		wait_cycle(e);
	}
	unsigned waits = enc_chance(&e->rng, 40) ? 1 + enc_below(&e->rng, 3) : 0;
	int early = waits && !fifo_count(e) && e->cfg.port_width != 16 && enc_chance(&e->rng, 50);
	int at = new_record(e, tc_etmv1_id, tc_etmv1_ps_id);
	if (at < 0)
		return;
	if (early) {
		push_data(e, at, ntransfers, size);
		e1e_hit(e, "early packets port%u", e->cfg.port_width);
	}
	for (unsigned i = 0; i < waits; i++)
		wait_cycle(e);
	int trig = e1e_trigger_now(e, tc_etmv1_ps_id, 0);
	e->rec[at].h.offset = e1e_offset(e);
	if (!early)
		push_data(e, at, ntransfers, size);
	l3_instruction(e, e->rec[at].h.offset, addr, tc_insn_other, 1);
	put_cycle_as(e, tc_etmv1_ps_id, trig);
	e1e_hit(e, "pipestat id");
}

/* §5.8.2 (L8381-8386): trace disabled: the FIFO drains on WT cycles (on 16 bits a last lone packet
 * with an empty byte, L8045: the next packet is the restart's, with TRACESYNC), then TD with
 * TRACEPKT[0] = 0 for the cycles given; in cycle-accurate mode the first is a `trace-disabled`
 * item (ETM1-P21). The restart is e1e_trace_on's. */
void e1e_trace_off(struct e1e *e, unsigned cycles)
{
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
			e->head++;
			e1e_hit(e, "port16 empty byte");
		}
		enc_buf_put(&e->trace, b, record_size(e));
		e->since_full++;
		e->cycles++;
	}
	e->disabled = 1;
	for (unsigned i = 0; i < cycles; i++) {
		if (i == 0 && e->cfg.cycle_accurate && !e->drop_td)
			new_record(e, tc_etmv1_trace_disabled, tc_etmv1_ps_td);
		put_cycle(e, tc_etmv1_ps_td);
	}
	e->disabled = 0;
	e->daddr_full_done = 0;   /* ETM1-P13: an interruption */
	e1e_hit(e, "trace disabled%s", e->cfg.cycle_accurate ? " cycle-accurate" : "");
}

/* The end of the run: WT cycles while packets are owed. */
void e1e_drain(struct e1e *e)
{
	while (!e1e_fifo_stuck(e))
		wait_cycle(e);
}
