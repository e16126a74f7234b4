/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_resolve.c — ETE stage 2: speculation and transaction resolution (K10.5.3, K10.5.4). */
#include <stdlib.h>
#include <string.h>

#include "ete_internal.h"

/* ---- The queues (K10.5.6.3.6 ResolutionQueue, K10.5.6.3.7 TransactionQueue) */

static struct tc_ete_elem *queue_at(const struct tc_queue *q, uint32_t i)
{
	return &q->slot[(q->head + i) & (q->size - 1)];   /* size: a power of two */
}

/* Doubles the slots, the elements moved to the start in order. */
static int queue_grow(struct tc_queue *q)
{
	uint32_t size = q->size * 2;
	struct tc_ete_elem *slot = malloc((size_t)size * sizeof *slot);
	if (!slot)
		return -1;
	for (uint32_t i = 0; i < q->len; i++)
		slot[i] = *queue_at(q, i);
	free(q->slot);
	q->slot = slot;
	q->size = size;
	q->head = 0;
	return 0;
}

static void queue_put(struct tc_queue *q, const struct tc_ete_elem *e)
{
	*queue_at(q, q->len) = *e;
	q->len++;
}

/* queue_push when the queue holds `room` elements: at its capacity, an
 * overflow; else more slots first. Rare, so kept out of line: inlined, it
 * made every push save registers (callgrind: queue_push 22 -> 39
 * instructions). */
__attribute__((noinline)) static int queue_push_full(struct tc_queue *q, const struct tc_ete_elem *e)
{
	if (q->len == q->cap)
		return -tc_ete_err_queue_overflow;
	if (queue_grow(q))
		return -tc_ete_err_queue_overflow;   /* out of memory (FORMAT.md) */
	q->room = q->size < q->cap ? q->size : q->cap;
	queue_put(q, e);
	return 0;
}

static int queue_push(struct tc_queue *q, const struct tc_ete_elem *e)
{
	if (q->len == q->room)
		return queue_push_full(q, e);
	queue_put(q, e);
	return 0;
}

/* The front (oldest) element stays in its slot until queue_drop_front:
 * handing it on by pointer saves copying every element out of the queue. */
static const struct tc_ete_elem *queue_front(const struct tc_queue *q)
{
	return &q->slot[q->head];
}

static void queue_drop_front(struct tc_queue *q)
{
	q->head = (q->head + 1) & (q->size - 1);
	q->len--;
}

/* Slots are allocated as the queue fills (queue_grow), up to cap rounded
 * up to a power of two: memory follows the depth reached, not the
 * capacity allowed (1 << 24 elements is 1 GiB). */
#define TC_QUEUE_FIRST_SLOTS 64

static int queue_init(struct tc_queue *q, uint32_t cap)
{
	uint32_t size = 1;
	while (size < cap && size < TC_QUEUE_FIRST_SLOTS)
		size <<= 1;
	q->slot = malloc((size_t)size * sizeof *q->slot);   /* slots are written before they are read */
	q->cap = cap;
	q->size = size;
	q->room = size < cap ? size : cap;
	q->head = 0;
	q->len = 0;
	return q->slot ? 0 : -1;
}

/* P0 elements, counted by Commit and Cancel: Transaction Start is one only
 * when TRCIDR0.COMMTRANS == '0' (TC-S13). */
int tc_ete_is_p0(const struct tc_ete_config *cfg, int kind)
{
	switch (kind) {
	case tc_ete_elem_atom:
	case tc_ete_elem_exception:
	case tc_ete_elem_q:
	case tc_ete_elem_source_address:
		return 1;
	case tc_ete_elem_trans_start:
		return cfg->commtrans == 0;
	default:
		return 0;
	}
}

/* tc_ete_is_p0 as a bit per element kind, computed once (tc_stage2_init):
 * the test runs for every element. */
static uint32_t p0_kinds(const struct tc_ete_config *cfg)
{
	uint32_t m = 0;
	for (int k = 0; k < tc_ete_elem_count; k++)
		if (tc_ete_is_p0(cfg, k))
			m |= UINT32_C(1) << k;
	return m;
}

_Static_assert(tc_ete_elem_count <= 32, "p0_kinds has a bit per element kind");

static int is_p0(const struct tc_ete_stage2 *s, int kind)
{
	return (s->p0_kinds >> kind) & 1;
}

/* Elements that are not discarded by a Cancel (Table K10-2 "Keep" and
 * "Process", kept in place per TC-P11; TC-P1 for the later packets). */
static int kept_on_cancel(int kind)
{
	TC_CLAUSE_CASE(kind, "K10.5.3.4/TableK10-2");
	return kind == tc_ete_elem_cycle_count || kind == tc_ete_elem_event ||
	       kind == tc_ete_elem_trace_info || kind == tc_ete_elem_timestamp ||
	       kind == tc_ete_elem_ts_marker || kind == tc_ete_elem_instrumentation;
}

/* Elements that survive a Discard (K10.5.3.5.1; TC-P13). */
static int kept_on_discard(int kind)
{
	TC_CLAUSE_CASE(kind, "K10.5.3.5.1/ProcessDiscard.Back");
	return kind == tc_ete_elem_event || kind == tc_ete_elem_trace_info ||
	       kind == tc_ete_elem_timestamp || kind == tc_ete_elem_ts_marker ||
	       kind == tc_ete_elem_instrumentation;
}

/* Elements that survive a Transaction Failure (TC-S18). */
static int kept_on_failure(const struct tc_ete_stage2 *s, int kind)
{
	TC_CLAUSE_CASE(kind, "K10.5.4.4.1/ProcessTransactionFailure.TransactionQueue");
	if (kind == tc_ete_elem_cycle_count)
		return s->cfg->tf_keep_cc;
	return kind == tc_ete_elem_event || kind == tc_ete_elem_ts_marker ||
	       kind == tc_ete_elem_instrumentation;
}

/* K10.5.5.1.1 AnalyzeElement: the L2 output, on to stage 3. */
static void analyze_element(struct tc_ete_stage2 *s, const struct tc_ete_elem *e)
{
	if (s->analyze)   /* NULL when nobody reads L2 or L3 */
		s->analyze(s->analyze_ctx, e);
}

/* ---- K10.5.4 Transactions ---------------------------------------------- */

/* K10.5.4.1.1 ProcessTransaction */
static int process_transaction(struct tc_ete_stage2 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.4.1.1/ProcessTransaction");
	if (s->in_transaction)
		return queue_push(&s->tq, e);
	analyze_element(s, e);
	return 0;
}

/* K10.5.4.3.1 ProcessTransactionCommit: the held elements, in order. */
static void transaction_commit(struct tc_ete_stage2 *s)
{
	while (s->tq.len > 0) {
		analyze_element(s, queue_front(&s->tq));
		queue_drop_front(&s->tq);
	}
	s->in_transaction = 0;
}

/* K10.5.4.4.1 ProcessTransactionFailure, keeping Events (TC-S18). */
static void transaction_failure(struct tc_ete_stage2 *s)
{
	while (s->tq.len > 0) {
		const struct tc_ete_elem *e = queue_front(&s->tq);
		if (kept_on_failure(s, e->h.kind))
			analyze_element(s, e);
		queue_drop_front(&s->tq);
	}
	s->in_transaction = 0;
}

/* An element leaves the resolution queue front, resolved (ProcessCommit's
 * per-element step). Transaction elements act here, not when emitted
 * (TC-S17, TC-S19, TC-P14). */
static int pass_on(struct tc_ete_stage2 *s, const struct tc_ete_elem *e)
{
	int r = 0;
	switch (e->h.kind) {
	case tc_ete_elem_trans_start:
		TC_CLAUSE("K10.5.4.2.1/ProcessTransactionStart");
		r = process_transaction(s, e);
		s->in_transaction = 1;
		break;
	case tc_ete_elem_trans_commit:
		TC_CLAUSE("K10.5.4.3.1/ProcessTransactionCommit");
		transaction_commit(s);
		analyze_element(s, e);
		break;
	case tc_ete_elem_trans_failure:
		TC_CLAUSE("K10.5.4.4.1/ProcessTransactionFailure");
		transaction_failure(s);
		analyze_element(s, e);
		break;
	case tc_ete_elem_trace_info:
		r = process_transaction(s, e);
		if (e->in_tx)
			s->in_transaction = 1;
		break;
	default:
		r = process_transaction(s, e);
		break;
	}
	return r;
}

/* ---- K10.5.3 Speculation ----------------------------------------------- */

/* K10.5.3.3.1 ProcessCommit, repaired: a while loop (E-S2-3) and no second
 * AnalyzeElement (TC-S14). Unseen P0 elements are the oldest, so they are
 * resolved first (ResolutionQueue.Align). */
static int process_commit(struct tc_ete_stage2 *s, uint64_t count)
{
	TC_CLAUSE("K10.5.3.3.1/ProcessCommit");
	uint64_t i = 0;
	while (i < count) {
		const struct tc_ete_elem *e;
		int r;
		if (s->unseen > 0) {
			TC_CLAUSE("K10.5.3.3.1/ProcessCommit/Align");
			s->unseen--;
			i++;
			continue;
		}
		if (s->rq.len == 0)          /* stage 1 rejects this first (TC-S11) */
			return -tc_ete_err_commit_overrun;
		e = queue_front(&s->rq);     /* pass_on never touches the resolution queue */
		TC_CLAUSE_CASE(e->h.kind, "K10.5.3.3.1/ProcessCommit.Front");
		if (is_p0(s, e->h.kind))
			i++;
		r = pass_on(s, e);
		queue_drop_front(&s->rq);
		if (r)
			return r;
	}
	return 0;
}

/* K10.5.3.4.1 ProcessCancel, repaired (TC-S15, TC-P11): the count most
 * recent P0 elements and everything younger are cancelled; in that region
 * the Keep/Process elements stay in the queue in order, the rest go. Unseen
 * P0 elements are cancelled only once the queue holds none. */
static int process_cancel(struct tc_ete_stage2 *s, uint64_t count)
{
	TC_CLAUSE("K10.5.3.4.1/ProcessCancel");
	uint64_t i = 0;
	uint32_t cut = s->rq.len, w;
	while (i < count && cut > 0) {
		cut--;
		if (is_p0(s, queue_at(&s->rq, cut)->h.kind))
			i++;
	}
	if (i < count) {
		TC_CLAUSE("K10.5.3.4.1/ProcessCancel/Align");
		if (s->unseen < count - i)   /* stage 1 rejects this first (TC-S11) */
			return -tc_ete_err_cancel_overrun;
		s->unseen -= count - i;
	}
	w = cut;
	for (uint32_t r = cut; r < s->rq.len; r++) {
		struct tc_ete_elem *e = queue_at(&s->rq, r);
		if (kept_on_cancel(e->h.kind))
			*queue_at(&s->rq, w++) = *e;
	}
	s->rq.len = w;
	return 0;
}

/* K10.5.3.5.1 ProcessDiscard: every speculative element is cancelled; the
 * surviving kinds are passed on oldest first (TC-P13); the transaction ends
 * as if failed (TC-P15); the Discard itself is analysed (TC-S16). */
static void process_discard(struct tc_ete_stage2 *s, const struct tc_ete_elem *d)
{
	TC_CLAUSE("K10.5.3.5.1/ProcessDiscard");
	s->unseen = 0;
	transaction_failure(s);
	while (s->rq.len > 0) {
		const struct tc_ete_elem *e = queue_front(&s->rq);
		if (kept_on_discard(e->h.kind))
			analyze_element(s, e);
		queue_drop_front(&s->rq);
	}
	analyze_element(s, d);
}

/* K10.5.3.2.1 ProcessTraceInfo: the first Trace Info sets the number of
 * unseen P0 elements. The in_transaction start happens when the element
 * leaves the queue (TC-P14). */
static int process_trace_info(struct tc_ete_stage2 *s, const struct tc_ete_elem *e)
{
	TC_CLAUSE("K10.5.3.2.1/ProcessTraceInfo");
	if (!s->initialized) {
		TC_CLAUSE("K10.5.6.3.6/ResolutionQueue.Initialize");
		s->initialized = 1;
		s->unseen = e->spec;
	}
	return queue_push(&s->rq, e);
}

/* K10.5.3.1.1 Emit. Elements before the first Trace Info are dropped
 * (TC-P17). Transaction elements are stacked (TC-S17). */
int tc_stage2_emit(struct tc_ete_stage2 *s, const struct tc_ete_elem *e)
{
	if (!s->initialized && e->h.kind != tc_ete_elem_trace_info)
		return 0;
	TC_CLAUSE_CASE(e->h.kind, "K10.5.3.1.1/Emit");
	switch (e->h.kind) {
	case tc_ete_elem_trace_info:
		return process_trace_info(s, e);
	case tc_ete_elem_cancel:
		return process_cancel(s, e->count);
	case tc_ete_elem_commit:
		return process_commit(s, e->count);
	case tc_ete_elem_discard:
		process_discard(s, e);
		return 0;
	default:
		return queue_push(&s->rq, e);   /* K10.5.3.6.1 Stack */
	}
}

static uint64_t count_p0(const struct tc_ete_stage2 *s, const struct tc_queue *q)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < q->len; i++)
		n += (uint64_t)is_p0(s, queue_at(q, i)->h.kind);
	return n;
}

/* End of trace (TC-P16): what is older than the oldest uncommitted P0
 * element is resolved and passed on; the rest, and an open transaction, are
 * dropped and reported as one `unresolved` item. */
void tc_stage2_flush(struct tc_ete_stage2 *s, uint64_t offset)
{
	TC_CLAUSE("TC-P16/EndOfTrace");
	uint64_t dropped, p0;
	while (s->rq.len > 0 && !is_p0(s, queue_front(&s->rq)->h.kind)) {
		/* A full transaction queue drops the element; the transaction is
		 * open, so its contents are reported as unresolved below. */
		(void)pass_on(s, queue_front(&s->rq));
		queue_drop_front(&s->rq);
	}
	dropped = s->rq.len;
	p0 = count_p0(s, &s->rq);
	if (s->in_transaction) {
		dropped += s->tq.len;
		p0 += count_p0(s, &s->tq);
	}
	if (dropped > 0) {
		struct tc_ete_elem u;
		tc_ete_elem_init(&u, tc_ete_elem_unresolved, offset);
		u.count = p0;
		analyze_element(s, &u);
	}
	tc_stage2_reset(s);
}

void tc_stage2_reset(struct tc_ete_stage2 *s)
{
	s->rq.len = 0;
	s->rq.head = 0;
	s->tq.len = 0;
	s->tq.head = 0;
	s->initialized = 0;
	s->unseen = 0;
	s->in_transaction = 0;
}

int tc_stage2_init(struct tc_ete_stage2 *s, const struct tc_ete_config *cfg,
		   tc_analyze_fn analyze, void *ctx)
{
	uint32_t rq_cap = cfg->queue_cap ? cfg->queue_cap : 4 * (cfg->maxspec + 1) + 1024;
	uint32_t tq_cap = cfg->tx_cap ? cfg->tx_cap : 65536;
	memset(s, 0, sizeof *s);
	s->cfg = cfg;
	s->analyze = analyze;
	s->analyze_ctx = ctx;
	s->p0_kinds = p0_kinds(cfg);
	if (queue_init(&s->rq, rq_cap) || queue_init(&s->tq, tq_cap)) {
		tc_stage2_fini(s);
		return -1;
	}
	return 0;
}

void tc_stage2_fini(struct tc_ete_stage2 *s)
{
	free(s->rq.slot);
	free(s->tq.slot);
	s->rq.slot = NULL;
	s->tq.slot = NULL;
}
