/* SPDX-License-Identifier: BSD-3-Clause */
/* e3enc_data.c — the ETMv3 encoder's data trace: the transfers of the program's loads and stores as data packets (IHI 0014 §7.4). */
/* The program's data instructions (encoder/program.c LDR/STR immediate, the
 * STREX of e3enc_program.c, POP and LDR to the PC) reach a data area and
 * the stack; the model chooses the addresses and values. Which packets a
 * transfer gives follows §7.4: a Normal data packet, or an Out-of-order
 * placeholder whose value comes later (§7.4.3), Value not traced for a
 * transfer of a multiple load the filter leaves out (§7.4.4, §7.4.5),
 * Store failed after a failed STREX (§7.4.7), Data suppressed in place of
 * the first packet lost to a full FIFO (§7.4.6); neither in data-only mode,
 * which produces none of them (§7.4.10). Data trace is L1 only
 * (ETM3-P11, ETM3-P20): it gives no L3 item. */
#include <string.h>

#include "e3enc_internal.h"

static uint32_t random_value(struct e3e *e)
{
	switch (enc_below(&e->rng, 5)) {
	case 0: return 0;
	case 1: return enc_below(&e->rng, 0x100);
	case 2: return enc_below(&e->rng, 0x10000);
	default: return (uint32_t)enc_next(&e->rng);
	}
}

/* The address of a single transfer: mostly near the last one (a few low
 * bits change), sometimes anywhere in the data area or beyond. */
static uint32_t random_address(struct e3e *e)
{
	uint32_t a;
	switch (enc_below(&e->rng, 6)) {
	case 0: case 1: a = (e->last.daddr & ~UINT32_C(0x7f)) | (enc_below(&e->rng, 0x80) & ~UINT32_C(3)); break;
	case 2: case 3: a = e->data_base + (enc_below(&e->rng, 0x4000) & ~UINT32_C(3)); break;
	case 4: a = e->data_base + (enc_below(&e->rng, 0x400000) & ~UINT32_C(3)); break;
	default: a = (uint32_t)enc_next(&e->rng) & ~UINT32_C(3); break;
	}
	return a;
}

/* A data packet, or none while data is suppressed (§7.4.6: "Subsequent data
 * packets are deleted entirely"). */
static void emit(struct e3e *e, const struct e3e_dpkt *d)
{
	if (e->suppress > 0) {
		e->suppress--;
		if (e->suppress == 0 && e->cfg.version <= 2)
			e->last.dsync = 1;   /* ETMv3.2 and earlier: a D-sync after data suppression */
		e3e_hit(e, "data-deleted");
		return;
	}
	e3e_data(e, d);
}

/* The first data packet lost to a full FIFO is a Data suppressed packet
 * (not in data-only mode, §7.4.10); the next few are deleted. */
static int start_suppression(struct e3e *e)
{
	struct e3e_dpkt d;
	if (e->cfg.data_only || e->suppress > 0 || !enc_chance(&e->rng, 2))
		return 0;
	memset(&d, 0, sizeof d);
	d.kind = e3e_d_suppressed;
	e3e_data(e, &d);
	e->suppress = 1 + (int)enc_below(&e->rng, 6);
	return 1;
}

static void normal(struct e3e *e, int a, uint32_t addr, uint32_t value)
{
	struct e3e_dpkt d;
	memset(&d, 0, sizeof d);
	d.kind = e3e_d_normal;
	d.a = a;
	d.addr = addr;
	d.be = e->be;
	d.value = value;
	emit(e, &d);
}

/* The A bit of the first packet of an instruction: 1 (an address follows
 * when address tracing is on); with address tracing off it may be either
 * ("The A bit can be set to 1 even if address tracing is disabled"). */
static int first_a(struct e3e *e)
{
	return e->cfg.data_address || enc_chance(&e->rng, 50);
}

/* A free tag for an Out-of-order placeholder, or 0. */
static int free_tag(struct e3e *e)
{
	int t = 1 + (int)enc_below(&e->rng, 3);
	return e->ooo_tag[t] ? 0 : t;
}

/* One transfer of a load or store: Normal data, a placeholder (a load
 * whose value returns later, with data value tracing), or a failed STREX's
 * Normal data with value 0 then Store failed. */
static void single(struct e3e *e, const struct e3e_insn *i)
{
	uint32_t addr = random_address(e), value = random_value(e);
	int tag = !i->store && e->cfg.data_value && enc_chance(&e->rng, 20) ? free_tag(e) : 0;
	struct e3e_dpkt d;
	if (start_suppression(e))
		return;
	if (tag) {
		memset(&d, 0, sizeof d);
		d.kind = e3e_d_placeholder;
		d.a = first_a(e);
		d.addr = addr;
		d.be = e->be;
		d.tag = tag;
		emit(e, &d);
		e->ooo_tag[tag] = 1;
		e->ooo_value[tag] = value;
		return;
	}
	if (i->strex && e->cfg.data_value && !e->cfg.data_only && enc_chance(&e->rng, 40) && e->suppress == 0) {
		normal(e, first_a(e), addr, 0);   /* "The data value traced is 0" */
		memset(&d, 0, sizeof d);
		d.kind = e3e_d_store_failed;
		e3e_data(e, &d);
		return;
	}
	normal(e, first_a(e), addr, value);
}

/* A multiple load from the stack (POP): transfers from skip on, at
 * consecutive addresses, the last one the PC (loaded_pc). From the first
 * traced transfer (the filter may start later, §7.4.4) one packet a
 * transfer: Normal data (an address only with the first) or Value not
 * traced; some cores load the PC first, and the transfer after it then
 * carries its address (not sequential). */
static void multiple(struct e3e *e, const struct e3e_insn *i, uint32_t loaded_pc, int skip, int count)
{
	int n = i->transfers, first = skip, pc_first = 0;
	uint32_t base = e->sp;
	if (first == 0 && count == n && n > 2 && enc_chance(&e->rng, 20)) {
		first = 1 + (int)enc_below(&e->rng, (unsigned)(n - 1));
		e3e_hit(e, "data-lsm-partial");
	}
	if (skip == 0 && count == n && n > 2 && enc_chance(&e->rng, 15))
		pc_first = 1;
	if (start_suppression(e))
		return;
	for (int k = 0; k < count && first + k < n; k++) {
		int t = pc_first ? (k == 0 ? n - 1 : first + k - 1) : first + k;
		uint32_t addr = base + 4 * (uint32_t)t, value = t == n - 1 ? loaded_pc : random_value(e);
		int noncontiguous = pc_first && k == 1;
		if (k > 0 && enc_chance(&e->rng, 15)) {   /* a transfer the filter leaves out */
			struct e3e_dpkt d;
			memset(&d, 0, sizeof d);
			d.kind = e3e_d_vnt;
			d.a = noncontiguous ? first_a(e) : !e->cfg.data_address && enc_chance(&e->rng, 30);
			d.addr = addr;
			d.be = e->be;
			emit(e, &d);
			continue;
		}
		if (noncontiguous)
			e3e_hit(e, "data-lsm-pc-first");
		normal(e, k == 0 || noncontiguous ? first_a(e) : 0, addr, value);
	}
}

void e3e_data_insn(struct e3e *e, const struct e3e_insn *i, int to_pc, uint32_t loaded_pc)
{
	if (!e->dtrace || i->transfers == 0)
		return;
	if (enc_chance(&e->rng, 2)) {
		e->be = !e->be;   /* SETEND: the next transfers are of the other endianness */
		e3e_hit(e, "data-setend");
	}
	if (i->transfers > 1)
		multiple(e, i, loaded_pc, 0, i->transfers);
	else if (to_pc)
		normal(e, first_a(e), random_address(e), loaded_pc);   /* LDR PC */
	else
		single(e, i);
}

void e3e_data_partial(struct e3e *e, const struct e3e_insn *i, uint32_t loaded_pc, int skip, int count)
{
	if (e->dtrace)
		multiple(e, i, loaded_pc, skip, count);
}

/* The eight registers an ARMv7-M core pushes on exception entry or pops on
 * exit, traced as an STM or LDM (§7.5.3). */
void e3e_data_stack(struct e3e *e, int push)
{
	if (push)
		e->sp -= 32;
	for (int k = 0; k < 8; k++)
		normal(e, k == 0 ? first_a(e) : 0, e->sp + 4 * (uint32_t)k, random_value(e));
	if (!push)
		e->sp += 32;
	e3e_hit(e, push ? "data-stack-push" : "data-stack-pop");
}

void e3e_data_ooo_returns(struct e3e *e)
{
	for (int t = 1; t <= 3; t++) {
		struct e3e_dpkt d;
		if (!e->ooo_tag[t] || !enc_chance(&e->rng, 50) || e->suppress > 0)
			continue;
		memset(&d, 0, sizeof d);
		d.kind = e3e_d_ooo;
		d.tag = t;
		d.value = e->ooo_value[t];
		e3e_data(e, &d);
		e->ooo_tag[t] = 0;
	}
}

void e3e_data_gap(struct e3e *e)
{
	e->last.dsync = 1;
	for (int t = 1; t <= 3; t++)
		if (e->ooo_tag[t]) {
			e->ooo_tag[t] = 0;   /* "Out-of-order data might be missing following overflow" */
			e3e_hit(e, "ooo-lost");
		}
}
