/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_l3.c — the ETMv3 encoder's L3 truth: what the execution traced, as ranges and items in the order of reference/etmv3/FORMAT.md "L3". */
/* An instruction traced joins the range being built when it is the next in
 * address order in the same instruction set and the range does not end in
 * a branch; any other item is written after that range (FORMAT.md "L3": "a
 * range ends at every branch instruction … and at every instruction that a
 * packet other than an atom ends the walk at"). The range is held until then
 * so that a Can bit can still remove its last instruction (ETM3-P16). */
#include <string.h>

#include "e3enc_internal.h"

void e3e_item(struct tc_l3 *x, int kind, uint64_t offset)
{
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	x->h.protocol = tc_proto_etmv3;
	x->h.kind = (uint16_t)kind;
	x->h.offset = offset;
}

static void put(struct e3e *e, const struct tc_l3 *x)
{
	char buf[256];
	tc_l3_format(buf, sizeof buf, x, NULL, 0);   /* the encoder never writes an error */
	enc_buf_printf(&e->l3, "%s\n", buf);
}

void e3e_l3_deliver(struct e3e *e)
{
	struct e3e_l3 *t = &e->t;
	if (!t->open)
		return;
	if (!t->ended) {
		t->range.last_type = tc_insn_other;
		t->range.taken = tc_taken_none;
	}
	put(e, &t->range);
	t->open = 0;
	t->ended = 0;
	t->last_in_range = 0;
	if (t->eret_held) {
		struct tc_l3 x;
		e3e_item(&x, tc_l3_exception_return, t->eret_offset);
		t->eret_held = 0;
		put(e, &x);
	}
}

void e3e_l3_emit(struct e3e *e, const struct tc_l3 *x)
{
	e3e_l3_deliver(e);
	put(e, x);
}

void e3e_l3_simple(struct e3e *e, int kind, uint64_t offset)
{
	struct tc_l3 x;
	e3e_item(&x, kind, offset);
	e3e_l3_emit(e, &x);
}

void e3e_l3_insn(struct e3e *e, uint64_t offset, const struct e3e_atom *a)
{
	struct e3e_l3 *t = &e->t;
	if (t->open && (t->ended || t->range.isa != a->isa || a->addr != t->next))
		e3e_l3_deliver(e);
	if (!t->open) {
		e3e_item(&t->range, tc_l3_range, offset);
		t->range.first = a->addr;
		t->range.isa = a->isa;
		t->open = 1;
	}
	t->prev_last = t->range.last;
	t->last_addr = a->addr;
	t->last_valid = 1;
	t->last_in_range = 1;
	t->range.last = a->addr;
	t->range.count++;
	t->next = (uint64_t)a->addr + a->size;
	if (a->type == tc_insn_branch_dir || a->type == tc_insn_branch_indir) {
		t->range.last_type = a->type;
		t->range.taken = a->e ? tc_taken_e : tc_taken_n;
		t->ended = 1;
	}
}

void e3e_l3_cancel(struct e3e *e)
{
	struct e3e_l3 *t = &e->t;
	if (!t->last_valid)
		return;
	if (t->last_in_range)
		t->eret_held = 0;   /* the cancelled instruction's return (ETM3-X4) */
	if (t->last_in_range && t->open) {
		if (t->range.count <= 1) {
			t->open = 0;
		} else {
			t->range.count--;
			t->range.last = t->prev_last;
			t->next = t->last_addr;
		}
		t->ended = 0;
	}
	t->last_valid = 0;
}

void e3e_l3_exception_return(struct e3e *e, uint64_t offset)
{
	struct e3e_l3 *t = &e->t;
	if (!e->cfg.profile_m && t->last_valid && t->last_in_range && t->open) {
		t->eret_held = 1;
		t->eret_offset = offset;
		return;
	}
	e3e_l3_simple(e, tc_l3_exception_return, offset);
	if (e->cfg.profile_m)
		e3e_l3_forget_last(e);   /* a Can after it cancels the return packet, not the instruction (§7.5.4) */
}

void e3e_l3_forget_last(struct e3e *e)
{
	e->t.last_valid = 0;
}

/* The context a decoder knows: the context ID and VMID of the last packets
 * that gave them, NS and Hyp of the last I-sync or branch packet (Hyp mode
 * as el=2, ETM3-P19). */
void e3e_l3_context(struct e3e *e, uint64_t offset)
{
	struct tc_context c;
	struct tc_l3 x;
	memset(&c, 0, sizeof c);
	c.context_id = e->last.ctxid;
	c.vmid = e->last.vmid;
	c.ns = (uint8_t)e->last.ns;
	c.el = e->last.hyp ? 2 : 0;
	if (e->t.reported_valid && !memcmp(&c, &e->t.reported, sizeof c))
		return;
	e->t.reported = c;
	e->t.reported_valid = 1;
	e3e_item(&x, tc_l3_context, offset);
	x.ctx = c;
	e3e_l3_emit(e, &x);
}
