/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_trace.c — the instruction-trace encoder: the decisions of Figure 5.1 (0.026 L347, lost in the
 * extraction; ERRATA RV-X2, reference/rvtrace/README.md "Encoder from the ingress port") for each
 * retired instruction, and the extra packets of ERRATA RV-E1. */
#include <stdlib.h>
#include <string.h>

#include "rvenc_internal.h"

static struct rvenc_pkt *emit(struct rvenc_trace *t, int kind, size_t at)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		void *n = realloc(t->pkt, cap * sizeof *t->pkt);
		if (!n)
			return NULL;
		t->pkt = n;
		t->cap = cap;
	}
	struct rvenc_pkt *k = &t->pkt[t->n++];
	memset(k, 0, sizeof *k);
	k->p.h.size = sizeof k->p;
	k->p.h.protocol = tc_proto_rvtrace;
	k->p.h.kind = (uint16_t)kind;
	k->at = at;
	return k;
}

/* The encoder's state between instructions. */
struct fig51 {
	uint32_t map;
	unsigned count;          /* branches in the map */
	unsigned resync;         /* qualified instructions since the last sync (the counter counts cycles) */
	int cci_pending;
	size_t last_walk_end;    /* record of the last packet that ended a walk; SIZE_MAX none */
	const uint8_t *force;    /* RV-E1: a packet at these records */
	uint8_t *uninferable;    /* per record: enum jump_kind, nonzero an uninferable discontinuity for Figure 5.1 */
};

/* What a jump is to the two sides: jump_reported_pair is a jalr that RV-E2 makes uninferable for Figure
 * 5.1 (updiscon: a packet follows it) although the decoder infers it by RV-P12 (its auipc was the last
 * instruction a packet reported): its target is known to the decoder (RV-E5). */
enum jump_kind { jump_inferable, jump_uninferable, jump_reported_pair };

/* te_support (Table 6.4 L391–399): when tracing starts and after the last qualified instruction (RV-E3). */
static int support(struct rvenc_ctx *c, struct rvenc_trace *t, size_t at, int enable, int qual)
{
	struct rvenc_pkt *k = emit(t, tc_rvtrace_pkt_support, at);
	if (!k)
		return -1;
	k->p.enable = (uint8_t)enable;
	k->p.qual = (uint8_t)qual;
	rvenc_hit(c, "support-enable%d-qual%d", enable, qual);
	return 0;
}

/* Sync 00 or 01 at record i (Table 6.3): the branch bit holds this instruction's outcome (L385). */
static int sync_packet(struct rvenc_ctx *c, struct rvenc_trace *t, const struct rvenc_run *run, size_t i, int sub,
		       struct fig51 *s, int positioned)
{
	const struct rvenc_retired *x = &run->rec[i];
	struct rvenc_pkt *k = emit(t, sub ? tc_rvtrace_pkt_sync_exception : tc_rvtrace_pkt_sync_start, i);
	if (!k)
		return -1;
	k->p.has_context = (uint8_t)!c->cfg->nocontext_p;
	k->p.context = c->cfg->nocontext_p ? 0 : x->context;
	k->p.privilege = x->priv;
	k->p.branch = (uint8_t)(x->cls == rvc_branch && !x->taken);
	k->p.address = x->addr;
	k->has_address = k->walks = 1;
	if (sub) {
		const struct rvenc_retired *prev = i ? &run->rec[i - 1] : NULL;
		k->p.ecause = x->cause;
		k->p.interrupt = x->interrupt;
		k->p.has_tval = (uint8_t)!c->cfg->notval_p;
		k->p.tval = c->cfg->notval_p ? 0 : x->tval;
		k->ret = prev ? prev->next : 0;
		k->ret_known = positioned && prev && prev->qualified && s->uninferable[i - 1] != jump_uninferable;   /* RV-E5 */
		rvenc_hit(c, "sync-exception-%s", x->interrupt ? "interrupt" : "exception");
	}
	if (x->cls == rvc_branch)
		rvenc_hit(c, "sync-branch-bit-%d", k->p.branch);
	if (x->cls == rvc_indirect || x->cls == rvc_xret)
		s->uninferable[i] = jump_uninferable;   /* a jump at a sync packet's address (RV-P12) */
	s->resync = 0;
	s->cci_pending = 0;
	s->last_walk_end = i;
	return 0;
}

/* Format 0/1 (the writer chooses) or 2 at record i, with the map (Tables 6.1, 6.2). */
static int address_packet(struct rvenc_trace *t, const struct rvenc_run *run, size_t i, struct fig51 *s)
{
	struct rvenc_pkt *k = emit(t, s->count ? tc_rvtrace_pkt_full_delta : tc_rvtrace_pkt_addr_only, i);
	if (!k)
		return -1;
	k->p.branches = (uint8_t)s->count;
	k->p.map = s->map;
	k->p.address = run->rec[i].addr;
	k->has_address = k->walks = 1;
	s->count = 0;
	s->map = 0;
	s->last_walk_end = i;
	return 0;
}

static int full_map_packet(struct rvenc_trace *t, size_t i, struct fig51 *s)
{
	struct rvenc_pkt *k = emit(t, tc_rvtrace_pkt_full_delta, i);
	if (!k)
		return -1;
	k->p.branches = 0;
	k->p.map = s->map;
	k->walks = 1;
	s->count = 0;
	s->map = 0;
	s->last_walk_end = i;
	return 0;
}

static int changes_priv(const struct rvenc_retired *a, const struct rvenc_retired *b)
{
	return a->priv != b->priv || b->ctx_change == 1;
}

/* What the jump of record i is (RV-P12, RV-X2, RV-E2, RV-E5): inferable for both sides when its auipc
 * retired just before it, qualified and unreported; a reported pair when that auipc was the
 * instruction the last packet reported; uninferable else. */
static uint8_t updiscon(const struct rvenc_run *run, size_t i, const struct fig51 *s)
{
	const struct rvenc_retired *x = &run->rec[i];
	if (x->cls == rvc_xret)
		return jump_uninferable;
	if (x->cls != rvc_indirect)
		return jump_inferable;
	if (!x->inferable || i == 0 || !run->rec[i - 1].qualified)
		return jump_uninferable;
	return s->last_walk_end == i - 1 ? jump_reported_pair : jump_inferable;
}

/* One qualified instruction: Figure 5.1's decisions in order (README "Encoder", items 2–7). */
static int step(struct rvenc_ctx *c, struct rvenc_trace *t, const struct rvenc_run *run, size_t i, struct fig51 *s)
{
	const struct rvenc_retired *x = &run->rec[i];
	const struct rvenc_retired *prev = i ? &run->rec[i - 1] : NULL;
	const struct rvenc_retired *next = i + 1 < run->n ? &run->rec[i + 1] : NULL;
	int first = !prev || !prev->qualified;
	int next_unq = !next || !next->qualified;
	int next_ppch = next && !next_unq && !next->trap_before && changes_priv(x, next);
	int due;
	s->uninferable[i] = updiscon(run, i, s);
	if (first && support(c, t, i, 1, 0))
		return -1;
	if (x->ctx_change == 2)
		s->cci_pending = 1;
	s->resync++;   /* counts qualified instructions (RV-E4, L129) */
	due = s->resync > c->resync_max;
	if (x->trap_before || first || changes_priv(prev, x) || (due && s->count == 0)) {
		int sub = x->trap_before ? 1 : 0;
		if (!sub)
			rvenc_hit(c, "sync-start-%s", first ? "first" : changes_priv(prev, x) ?
				  (prev->priv != x->priv ? "ppch" : "precise-context") : "resync");
		if (sync_packet(c, t, run, i, sub, s, !first))
			return -1;
		if (s->uninferable[i] == jump_inferable)
			s->uninferable[i] = updiscon(run, i, s);
		return next_unq ? support(c, t, i, 1, 3) : 0;
	}
	if (x->cls == rvc_branch) {
		s->map |= (uint32_t)!x->taken << s->count;
		s->count++;
	}
	int other = (prev && s->uninferable[i - 1]) || (due && s->count > 0) || x->er || x->exc_only_next ||
		    (next_ppch && s->count > 0);
	if (other || next_unq || s->force[i]) {
		if (prev && s->uninferable[i - 1]) rvenc_hit(c, "reason-updiscon");
		if (due && s->count > 0) rvenc_hit(c, "reason-resync-br");
		if (x->er) rvenc_hit(c, "reason-er-ccdn");
		if (x->exc_only_next) rvenc_hit(c, "reason-exc-only");
		if (next_ppch && s->count > 0) rvenc_hit(c, "reason-ppch-br");
		if (next_unq) rvenc_hit(c, "reason-unqualified");
		if (s->force[i] && !other && !next_unq) {
			rvenc_hit(c, "reason-extra-RV-E1");
			t->extra++;
		}
		if (address_packet(t, run, i, s))
			return -1;
		return next_unq ? support(c, t, i, 1, other ? 3 : 1) : 0;
	}
	if (s->count == 31) {
		rvenc_hit(c, "reason-full-map");
		return full_map_packet(t, i, s);
	}
	if (s->cci_pending) {
		struct rvenc_pkt *k = emit(t, tc_rvtrace_pkt_sync_context, i);
		if (!k)
			return -1;
		k->p.has_context = (uint8_t)!c->cfg->nocontext_p;
		k->p.context = x->context;
		k->p.privilege = x->priv;
		s->cci_pending = 0;
		rvenc_hit(c, "sync-context");
	}
	return 0;
}

static int one_pass(struct rvenc_ctx *c, const struct rvenc_run *run, struct rvenc_trace *t, const uint8_t *force,
		    uint8_t *uninferable)
{
	struct fig51 s;
	memset(&s, 0, sizeof s);
	s.last_walk_end = SIZE_MAX;
	s.force = force;
	s.uninferable = uninferable;
	t->n = 0;
	t->extra = 0;
	for (size_t i = 0; i < run->n; i++)
		if (run->rec[i].qualified && step(c, t, run, i, &s))
			return -1;
	return 0;
}

/* RV-E1: the first record of the packet's walk where the decoder's stop rule (RV-P13; RV-P11 for a
 * sync 00 with a position) would end it before the packet's own record; SIZE_MAX when none. */
static size_t early_stop(const struct rvenc_run *run, const struct rvenc_trace *t, size_t pk, size_t from)
{
	const struct rvenc_pkt *k = &t->pkt[pk];
	unsigned total = k->p.h.kind == tc_rvtrace_pkt_addr_only ? 0 : k->p.branches, seen = 0;
	int sync = k->p.h.kind == tc_rvtrace_pkt_sync_start;
	for (size_t r = from; r < k->at; r++) {
		seen += run->rec[r].cls == rvc_branch;
		if (run->rec[r].addr == run->rec[k->at].addr && (sync || seen == total))
			return r;
	}
	return SIZE_MAX;
}

static size_t find_ambiguity(const struct rvenc_run *run, const struct rvenc_trace *t)
{
	size_t from = SIZE_MAX, hit;
	for (size_t pk = 0; pk < t->n; pk++) {
		const struct rvenc_pkt *k = &t->pkt[pk];
		int kind = k->p.h.kind;
		if (kind == tc_rvtrace_pkt_support && k->p.qual) {
			from = SIZE_MAX;   /* the trace ended: the next sync has no position (RV-P17) */
			continue;
		}
		if (!k->walks)
			continue;
		if (from != SIZE_MAX && kind != tc_rvtrace_pkt_sync_exception && k->has_address &&
		    (hit = early_stop(run, t, pk, from)) != SIZE_MAX)
			return hit;
		from = k->at + 1;
	}
	return SIZE_MAX;
}

int rvenc_trace_encode(struct rvenc_ctx *c, const struct rvenc_run *run, struct rvenc_trace *t)
{
	uint8_t *force = calloc(run->n + 1, 1), *uninf = calloc(run->n + 1, 1);
	int rc = -1;
	memset(t, 0, sizeof *t);
	if (!force || !uninf)
		goto out;
	uint32_t *saved = c->variants;
	for (;;) {
		size_t at;
		c->variants = NULL;   /* counted on the final pass only */
		if (one_pass(c, run, t, force, uninf))
			goto out;
		at = find_ambiguity(run, t);
		if (at == SIZE_MAX)
			break;
		force[at] = 1;   /* RV-E1 */
	}
	c->variants = saved;
	rc = one_pass(c, run, t, force, uninf);
out:
	free(force);
	free(uninf);
	return rc;
}

void rvenc_trace_free(struct rvenc_trace *t)
{
	free(t->pkt);
	memset(t, 0, sizeof *t);
}
