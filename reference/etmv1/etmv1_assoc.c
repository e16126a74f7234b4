/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_assoc.c — which instruction a packet belongs to: the demands of ID, BD and BE in PIPESTAT
 * order, early packets on WT, the value lengths from the walk (IHI 0014 §5.3 L8016-8028, §5.3.2,
 * §5.4 Table 5-2 L8128-8143; ERRATA ETM1-P2, P3, P10, P11, P18, P28, P29, P31, P53). */
#include <string.h>

#include "clause.h"
#include "etmv1_internal.h"

static struct e1_item *at(struct tc_etmv1_decoder *d, uint64_t seq)
{
	return &d->q[seq % E1_QUEUE];
}

void e1_warn(struct e1_item *it, int warning, int field, int bits)
{
	if (it->nwarn < 4) {
		it->warn[it->nwarn].warning = (uint8_t)warning;
		it->warn[it->nwarn].field = (uint8_t)field;
		it->warn[it->nwarn++].bits = (uint8_t)bits;
	}
}

/* A new item at the tail; NULL after too-many-pending (ETM1-P29). */
struct e1_item *e1_push(struct tc_etmv1_decoder *d, int kind, const struct tc_cyclecap_record *rec, int status)
{
	if (d->tail - d->head >= E1_QUEUE) {
		TC_CLAUSE("ETM1-P29/Queue");
		e1_error(d, tc_etmv1_err_too_many_pending, rec->offset);
		return NULL;
	}
	struct e1_item *it = at(d, d->tail++);
	memset(it, 0, sizeof *it);
	it->r.h.size = sizeof it->r;
	it->r.h.protocol = tc_proto_etmv1;
	it->r.h.kind = (uint16_t)kind;
	it->r.h.offset = rec->offset;
	it->r.status = (uint8_t)status;
	it->seg = e1_seg_done;
	return it;
}

/* Table 5-2 (L8128-8143), ETM1-P2, P11: what an instruction of this PIPESTAT owes: the data address
 * (data_address), the values (data_value, or cprt: ETM1-P31), then for BE and BD the branch
 * address. */
static void demand(struct tc_etmv1_decoder *d, struct e1_item *it, int st)
{
	int data = st == tc_etmv1_ps_id || st == tc_etmv1_ps_bd;
	TC_CLAUSE_CASE(st, "5.4/Table5-2");
	it->need_daddr = (uint8_t)(data && d->cfg.data_address);
	it->need_value = (uint8_t)(data && (d->cfg.data_value || d->cfg.cprt));
	it->need_addr = (uint8_t)(st == tc_etmv1_ps_be || st == tc_etmv1_ps_bd);
	it->seg = it->need_daddr ? e1_seg_daddr : it->need_value ? e1_seg_value : it->need_addr ? e1_seg_addr : e1_seg_done;
	if (it->need_addr)
		it->r.apo = 0;
}

static const uint8_t kind_of[6] = { tc_etmv1_ie, tc_etmv1_id, tc_etmv1_in, 0, tc_etmv1_be, tc_etmv1_bd };

/* Addresses still to start before a new branch's: the decoder's APO count (ETM1-P8). */
static int addresses_ahead(struct tc_etmv1_decoder *d)
{
	int n = 0;
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it->need_addr && !it->addr_started)
			n++;
	}
	/* ETM1-P50: a 4-bit port's low nibble held with TRACESYNC is the first packet of the first
	 * address not started: its TRACESYNC came before this cycle, so the APO does not count it */
	if (d->half && d->half_sync && n > 0) {
		TC_CLAUSE("ETM1-P50");
		n--;
	}
	return n;
}

static void feed_early(struct tc_etmv1_decoder *d)
{
	int n = d->nearly;
	uint8_t b[E1_EARLY], s[E1_EARLY];
	uint64_t o[E1_EARLY];
	memcpy(b, d->early, (size_t)n);
	memcpy(s, d->early_sync, (size_t)n);
	memcpy(o, d->early_off, (size_t)n * sizeof o[0]);
	d->nearly = 0;
	d->early_lone = 0;
	for (int i = 0; i < n; i++) {
		/* ETM1-P53: an early packet found the owner's value without an image (ETM1-P10): the
		 * packets held after it are the run's too, up to one with TRACESYNC (ETM1-P32) */
		if (!d->synced) {
			if (!d->unassigned_open)
				break;
			if (s[i]) {
				e1_unassigned_report(d, 1);
				break;
			}
			TC_CLAUSE("ETM1-P53/Held");
		}
		e1_packet(d, b[i], s[i], o[i]);
	}
}

/* An IE, IN, ID, BE or BD: its item, its demand, the early packets it takes (ETM1-P3). */
struct e1_item *e1_add_insn(struct tc_etmv1_decoder *d, int st, const struct tc_cyclecap_record *rec)
{
	if ((st == tc_etmv1_ps_ie || st == tc_etmv1_ps_in) && d->nearly > 0) {
		TC_CLAUSE("ETM1-P3/Unowned");
		e1_error(d, tc_etmv1_err_unowned_packets, d->early_off[0]);
		return NULL;
	}
	int ahead = addresses_ahead(d);
	struct e1_item *it = e1_push(d, kind_of[st], rec, st);
	if (!it)
		return NULL;
	demand(d, it, st);
	it->apo_expected = (uint8_t)(ahead > 15 ? 15 : ahead);
	if (d->replay_pending && it->need_addr) {
		it->sync_start = 1;
		it->skip_syncs = (uint8_t)(d->sync_apo + 1);
		it->seg = e1_seg_addr;   /* its own data came before the address, unread (ETM1-P9) */
		it->need_daddr = it->need_value = 0;
		d->replay_pending = 0;
	}
	e1_advance(d);
	if (d->early_lone && d->nearly == 1 && it->seg == e1_seg_addr) {
		TC_CLAUSE("ETM1-P4/EmptyBranch");   /* the next packet is an address's first: TRACESYNC */
		d->nearly = 0;
		d->early_lone = 0;
	}
	if (d->nearly > 0)
		feed_early(d);
	return it;
}

/* The walk sizes the values (ETM1-P10) once every earlier instruction is retired. 0, or an error. */
static int size_values(struct tc_etmv1_decoder *d, struct e1_item *it)
{
	struct tc_etmv1_transfers t;
	memset(&t, 0, sizeof t);
	t.status = 1;
	TC_CLAUSE("ETM1-P10");
	if (d->has_walk && d->walk.transfers)
		d->walk.transfers(d->walk.ctx, &it->r, &t);
	if (t.status == 2)
		return tc_etmv1_err_unknown_length;
	if (t.status != 0)
		return -1;
	it->sized = 1;
	it->r.nvalues = (uint8_t)(t.n > TC_ETMV1_MAX_VALUES ? TC_ETMV1_MAX_VALUES : t.n);
	unsigned total = 0;
	for (unsigned i = 0; i < it->r.nvalues; i++)
		total += it->r.vsize[i] = t.size[i];
	if (total == 0)
		it->seg = it->need_addr ? e1_seg_addr : e1_seg_done;
	return 0;
}

/* Retires, in order, the instructions whose packets are all in (the walk's retire). */
void e1_advance(struct tc_etmv1_decoder *d)
{
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it->r.h.kind > tc_etmv1_bd)
			continue;
		if (it->seg != e1_seg_done)
			return;
		if (!it->retired) {
			it->retired = 1;
			if (d->has_walk && d->walk.retire)
				d->walk.retire(d->walk.ctx, &it->r);
		}
	}
}

/* ETM1-P52: with cprt=1 an ID may be a CPRT, which has no data address (§4.11.3 L7903): before its
 * data address would be read, the walk says whether the instruction is one; if so the address is
 * not owed. */
/* Whether cprt_address may still ask the walk about this item. */
static int cprt_askable(const struct tc_etmv1_decoder *d, const struct e1_item *it)
{
	return d->cfg.cprt && !it->cprt_checked && it->daddr_pkts == 0 && d->has_walk && d->walk.transfers;
}

static void cprt_address(struct tc_etmv1_decoder *d, struct e1_item *it)
{
	struct tc_etmv1_transfers t;
	if (!cprt_askable(d, it))
		return;
	it->cprt_checked = 1;
	e1_advance(d);
	memset(&t, 0, sizeof t);
	t.status = 1;
	d->walk.transfers(d->walk.ctx, &it->r, &t);
	if (t.status != 0 || !t.no_address)
		return;
	TC_CLAUSE("ETM1-P52");
	it->need_daddr = 0;
	it->seg = it->need_value ? e1_seg_value : it->need_addr ? e1_seg_addr : e1_seg_done;
}

/* The first instruction still owed packets, with its values sized when they come next; NULL when
 * none (or after an error). */
/* The first item that may still owe packets. The items before it owe none: they are not IE/ID/BE/BD,
 * or they are done, and an item never leaves that state (demand() sets what an item owes right after
 * e1_push), so the searches below start there, not at the queue's head: without it a queue held by
 * its head item (up to E1_QUEUE) is searched whole for every packet. */
static uint64_t first_open(struct tc_etmv1_decoder *d)
{
	if (d->open_from < d->head || d->open_from > d->tail)
		d->open_from = d->head;
	while (d->open_from < d->tail) {
		const struct e1_item *it = at(d, d->open_from);
		if (it->r.h.kind <= tc_etmv1_bd && it->seg != e1_seg_done)
			break;
		d->open_from++;
	}
	return d->open_from;
}

struct e1_item *e1_head_demand(struct tc_etmv1_decoder *d)
{
	for (uint64_t s = first_open(d); s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it->r.h.kind > tc_etmv1_bd || it->seg == e1_seg_done)
			continue;
		if (it->seg == e1_seg_daddr && it->daddr_pkts == 0)
			cprt_address(d, it);
		if (it->seg == e1_seg_done)
			continue;
		if (it->seg == e1_seg_value && !it->sized) {
			e1_advance(d);
			int e = size_values(d, it);
			if (e > 0) {
				e1_error(d, e, it->r.h.offset);
				return NULL;
			}
			if (e < 0) {
				TC_CLAUSE("ETM1-P10/NoImage");
				it->seg = it->need_addr ? e1_seg_addr : e1_seg_done;
				e1_error(d, -1, it->r.h.offset);
				return NULL;
			}
			if (it->seg == e1_seg_done)
				continue;
		}
		return it;
	}
	return NULL;
}

/* ETM1-P51: the head's values are sized (and a CPRT's address dropped, ETM1-P52) before the answer:
 * a value of no bytes is no packet to come. Without an image the error comes here, and the
 * cycle's packets are read as unassigned (ETM1-P32). */
/* Whether the first instruction still owed packets is one e1_head_demand settles without an error:
 * its CPRT address to ask about (ETM1-P52) or its values, which the walk can size. */
static int head_settles(struct tc_etmv1_decoder *d)
{
	for (uint64_t s = first_open(d); s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it->r.h.kind > tc_etmv1_bd || it->seg == e1_seg_done)
			continue;
		if (it->seg == e1_seg_daddr)
			return cprt_askable(d, it);
		if (it->seg != e1_seg_value || it->sized)
			return 0;
		struct tc_etmv1_transfers t;
		memset(&t, 0, sizeof t);
		t.status = 1;
		e1_advance(d);
		if (d->has_walk && d->walk.transfers)
			d->walk.transfers(d->walk.ctx, &it->r, &t);
		return t.status == 0;
	}
	return 0;
}

/* ETM1-P51 at the end of the capture: the demands the walk settles are settled (a value of no bytes
 * completes its instruction); one whose length is unknown stays open (ETM1-P22: truncated). */
void e1_settle_at_end(struct tc_etmv1_decoder *d)
{
	const struct e1_item *last = NULL;
	int last_seg = -1;
	while (d->synced && !d->half && !d->cur_addr && head_settles(d)) {
		const struct e1_item *it = e1_head_demand(d);
		/* each round settles the head or stops: the same item at the same segment is no progress */
		if (!it || (it == last && (int)it->seg == last_seg))
			return;
		last = it;
		last_seg = it->seg;
	}
}

int e1_demand_open(struct tc_etmv1_decoder *d)
{
	if (d->half || d->cur_addr)
		return 1;
	TC_CLAUSE("ETM1-P51");
	if (e1_head_demand(d))
		return 1;
	return !d->synced;
}

/* ETM1-P4: whether the next packet owed is the first of a branch address. */
int e1_next_is_addr_start(struct tc_etmv1_decoder *d)
{
	if (d->cur_addr)
		return 0;
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it->r.h.kind <= tc_etmv1_bd && it->seg != e1_seg_done)
			return it->seg == e1_seg_addr && !it->addr_started;
	}
	return 0;
}

static void mark_pkt(struct e1_item *it, uint64_t off)
{
	if (!it->r.has_pkt) {
		it->r.has_pkt = 1;
		it->r.pkt = off;
	}
}

/* ETM1-P18: the address of a b010 branch read ahead of open demands closes them as lost. */
static void close_lost(struct tc_etmv1_decoder *d, struct e1_item *upto)
{
	TC_CLAUSE("ETM1-P18");
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it == upto)
			break;
		if (it->r.h.kind <= tc_etmv1_bd && it->seg != e1_seg_done) {
			it->seg = e1_seg_done;
			it->r.lost = 1;
		}
	}
	d->nearly = 0;
}

static void addr_packet(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte)
{
	int e = e1_addr_byte(d, it, byte);
	if (e < 0)
		return;
	d->cur_addr = NULL;
	if (it->spec) {
		if (it->r.reason != 2 || it->r.npkts != 5) {
			TC_CLAUSE("ETM1-P28/ReadAhead");
			e1_error(d, tc_etmv1_err_apo_mismatch, it->r.h.offset);
			return;
		}
		close_lost(d, it);
	}
	if (e > 0) {
		e1_error(d, e, it->r.h.offset);
		return;
	}
	e1_check_apo(d, it);
}

/* The first branch still waiting for its address's first packet. */
static struct e1_item *first_unstarted_branch(struct tc_etmv1_decoder *d)
{
	for (uint64_t s = d->head; s < d->tail; s++) {
		struct e1_item *it = at(d, s);
		if (it->need_addr && !it->addr_started && it->seg != e1_seg_done)
			return it;
	}
	return NULL;
}

static void start_addr(struct tc_etmv1_decoder *d, struct e1_item *it, uint8_t byte, uint64_t off)
{
	it->addr_started = 1;
	it->seg = e1_seg_addr;
	mark_pkt(it, off);
	d->cur_addr = it;
	addr_packet(d, it, byte);
}

/* A packet with TRACESYNC (L8010): the first of a branch address (ETM1-P7, P18, P28). */
static void sync_packet(struct tc_etmv1_decoder *d, struct e1_item *h, uint8_t byte, uint64_t off)
{
	if (h->skip_syncs) {
		if (--h->skip_syncs)
			return;
		start_addr(d, h, byte, off);
		return;
	}
	if (h->seg == e1_seg_addr && !h->addr_started) {
		start_addr(d, h, byte, off);
		return;
	}
	struct e1_item *b = first_unstarted_branch(d);
	if (!b) {
		TC_CLAUSE("ETM1-P28/NoBranch");
		e1_error(d, tc_etmv1_err_apo_mismatch, off);
		return;
	}
	b->spec = 1;   /* read ahead: only a b010 restart may do so (ETM1-P18) */
	start_addr(d, b, byte, off);
}

static void early_packet(struct tc_etmv1_decoder *d, uint8_t byte, int sync, uint64_t off)
{
	if (sync && d->early_lone && d->nearly == 1) {
		TC_CLAUSE("ETM1-P4/EmptyByte");
		d->nearly = 0;
	}
	if (d->nearly >= E1_EARLY) {
		TC_CLAUSE("ETM1-P29/Early");
		e1_error(d, tc_etmv1_err_too_many_pending, off);
		return;
	}
	TC_CLAUSE("ETM1-P3");
	d->early[d->nearly] = byte;
	d->early_sync[d->nearly] = (uint8_t)sync;
	d->early_off[d->nearly++] = off;
	d->early_lone = 0;
}

/* One whole packet read from the port (ETM1-P2: demands are met in PIPESTAT order). */
void e1_packet(struct tc_etmv1_decoder *d, uint8_t byte, int sync, uint64_t off)
{
	if (d->cur_addr && !sync) {
		addr_packet(d, d->cur_addr, byte);
		return;
	}
	struct e1_item *h = e1_head_demand(d);
	if (!d->synced) {
		if (d->unassigned_open) {   /* the packet whose value had no image (ETM1-P10) */
			if (d->unassigned_n == 0) {
				d->unassigned_off = off;
				d->unassigned_seen = d->cur_status + 1;
			}
			d->unassigned_n += d->cfg.port_width == 4 ? 2 : 1;
		}
		return;
	}
	if (!h) {
		early_packet(d, byte, sync, off);
		return;
	}
	if (h->skip_syncs && !sync)
		return;                      /* before the synchronising address (ETM1-P9) */
	if (sync) {
		if (d->cur_addr) {           /* an address cut short by the next one */
			TC_CLAUSE("ETM1-P28/AddressCut");
			e1_error(d, tc_etmv1_err_apo_mismatch, off);
			return;
		}
		sync_packet(d, h, byte, off);
		return;
	}
	mark_pkt(h, off);
	switch (h->seg) {
	case e1_seg_daddr:
		if (e1_daddr_byte(d, h, byte))
			h->seg = h->need_value ? e1_seg_value : h->need_addr ? e1_seg_addr : e1_seg_done;
		break;
	case e1_seg_value:
		e1_value_byte(h, byte);
		break;
	case e1_seg_ctxid:
		e1_ctxid_byte(h, byte);
		break;
	default:   /* a branch address's first packet without TRACESYNC */
		TC_CLAUSE("ETM1-P28/NoSync");
		e1_error(d, tc_etmv1_err_apo_mismatch, off);
		return;
	}
	if (h->seg == e1_seg_done)
		e1_check_apo(d, h);
}
