/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_l1text.c — every protocol's L1 text parser (the descriptor's parse_l1, beside its formatter): round trips both ways, and the refusals; prints TAP. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "tracecert/encoder_ete.h"
#include "tracecert/encoder_etmv3.h"
#include "tracecert/encoder_ptm.h"
#include "tracecert/ete.h"
#include "tracecert/etmv3.h"
#include "tracecert/protocol.h"
#include "tracecert/ptm.h"
#include "tracecert/rvtrace.h"
#include "tracecert/etmv1.h"
#include "tracecert/etmv2.h"
#include "vector.h"

/* A record of any protocol. */
#define RECORD_MAX 256
union record {
	struct tc_item h;
	struct tc_ete_packet ete;
	struct tc_ptm_packet ptm;
	struct tc_etmv3_packet etmv3;
	struct tc_rvtrace_packet rvtrace;
	struct tc_etmv1_record etmv1;
	struct tc_etmv2_record etmv2;
	unsigned char bytes[RECORD_MAX];
};

/* ---- Field compares --------------------------------------------------------
 * Records have padding (a uint8_t before a uint32_t …), so they are compared
 * field by field: every field the kind's text shows must be equal, and every
 * field it does not show must be 0 in the parsed record (the parser sets
 * nothing it did not read). Returns the name of the first field that
 * differs, or NULL. Written from each protocol's FORMAT.md "L1" table. */

#define FIELD(cond, name)                                                                                          \
	do {                                                                                                       \
		if (!(cond))                                                                                       \
			return name;                                                                               \
	} while (0)
/* Field f of want and got: equal when shown, 0 in got when not. */
#define SHOWN(shown, f) FIELD((shown) ? got->f == want->f : got->f == 0, #f)

static const char *same_header(const struct tc_item *want, const struct tc_item *got)
{
	FIELD(got->size == want->size, "h.size");
	FIELD(got->protocol == want->protocol, "h.protocol");
	FIELD(got->kind == want->kind, "h.kind");
	FIELD(got->offset == want->offset, "h.offset");
	return NULL;
}

/* The context of context, addr-ctx and some exception packets; an
 * instrumentation packet shows el alone. */
static const char *same_ete_context(const struct tc_context *want, const struct tc_context *got, int shown,
				    int el_shown)
{
	SHOWN(shown || el_shown, el);
	SHOWN(shown, ns);
	SHOWN(shown, sf);
	SHOWN(shown, context_id);
	SHOWN(shown, vmid);
	SHOWN(shown, nse);
	return NULL;
}

static const char *same_ete(const struct tc_item *wi, const struct tc_item *gi)
{
	const struct tc_ete_packet *want = (const void *)wi, *got = (const void *)gi;
	int k = want->h.kind;
	int addr = k == tc_ete_pkt_addr_ctx || k == tc_ete_pkt_address || k == tc_ete_pkt_source_address ||
		   ((k == tc_ete_pkt_exception || k == tc_ete_pkt_q) && want->has_address);
	int ctx = k == tc_ete_pkt_context || k == tc_ete_pkt_addr_ctx || (k == tc_ete_pkt_exception && want->has_context);
	int atoms = k == tc_ete_pkt_atom || k == tc_ete_pkt_cancel || k == tc_ete_pkt_mispredict;
	int info = k == tc_ete_pkt_trace_info;
	const char *bad = same_header(wi, gi);
	if (bad)
		return bad;
	FIELD(got->header == want->header, "header");
	SHOWN(k == tc_ete_pkt_error, error);
	SHOWN(atoms, natoms);
	SHOWN(atoms, atoms);
	SHOWN(addr, address);
	SHOWN(addr, isa);
	SHOWN(k == tc_ete_pkt_exception || k == tc_ete_pkt_q, has_address);
	SHOWN(k == tc_ete_pkt_exception, has_context);
	SHOWN(k == tc_ete_pkt_exception, e);
	SHOWN(k == tc_ete_pkt_exception || k == tc_ete_pkt_q, type);
	SHOWN(k == tc_ete_pkt_cancel, mispredict);
	SHOWN(k == tc_ete_pkt_event, events);
	SHOWN(k == tc_ete_pkt_timestamp, has_cc);
	SHOWN(k == tc_ete_pkt_cycle_count, cc_unknown);
	SHOWN(info, cc_enabled);
	SHOWN(info, in_tx);
	SHOWN(info, has_wndw);
	SHOWN(k == tc_ete_pkt_warning, warning);
	SHOWN(k == tc_ete_pkt_warning, field);
	bad = same_ete_context(&want->ctx, &got->ctx, ctx, k == tc_ete_pkt_instrumentation);
	if (bad)
		return bad;
	SHOWN(k == tc_ete_pkt_timestamp || k == tc_ete_pkt_instrumentation || k == tc_ete_pkt_warning, value);
	SHOWN(k == tc_ete_pkt_commit || k == tc_ete_pkt_cancel || k == tc_ete_pkt_q ||
		      (k == tc_ete_pkt_cycle_count && !want->cc_unknown) || (k == tc_ete_pkt_timestamp && want->has_cc),
	      count);
	SHOWN(k == tc_ete_pkt_cycle_count, commit);
	SHOWN(info, cct);
	SHOWN(info, spec);
	SHOWN(info && want->has_wndw, wndw);
	return NULL;
}

static const char *same_ptm(const struct tc_item *wi, const struct tc_item *gi)
{
	const struct tc_ptm_packet *want = (const void *)wi, *got = (const void *)gi;
	int k = want->h.kind;
	int isync = k == tc_ptm_pkt_isync, branch = k == tc_ptm_pkt_branch;
	int addr = isync || branch || k == tc_ptm_pkt_waypoint;
	int cc = isync || branch || k == tc_ptm_pkt_atom || k == tc_ptm_pkt_timestamp;
	const char *bad = same_header(wi, gi);
	if (bad)
		return bad;
	FIELD(got->header == want->header, "header");
	SHOWN(k == tc_ptm_pkt_error, error);
	SHOWN(k == tc_ptm_pkt_warning, warning);
	SHOWN(k == tc_ptm_pkt_warning, field);
	SHOWN(k == tc_ptm_pkt_atom, natoms);
	SHOWN(k == tc_ptm_pkt_atom, atoms);
	SHOWN(addr, isa);
	SHOWN(isync || branch, ns);
	SHOWN(isync || branch, hyp);
	SHOWN(isync, reason);
	SHOWN(branch, has_exception);
	SHOWN(branch && want->has_exception, exception);
	SHOWN(cc, has_cc);
	SHOWN(cc && want->has_cc, cc);
	SHOWN(isync, has_ctxid);
	SHOWN(addr, address);
	SHOWN(k == tc_ptm_pkt_context_id || (isync && want->has_ctxid), context_id);
	SHOWN(k == tc_ptm_pkt_vmid, vmid);
	SHOWN(k == tc_ptm_pkt_timestamp || k == tc_ptm_pkt_warning, value);
	return NULL;
}

static const char *same_etmv3(const struct tc_item *wi, const struct tc_item *gi)
{
	const struct tc_etmv3_packet *want = (const void *)wi, *got = (const void *)gi;
	int k = want->h.kind;
	int isync = k == tc_etmv3_pkt_isync, branch = k == tc_etmv3_pkt_branch;
	int iaddr = branch || (isync && want->has_address);
	int daddr = k == tc_etmv3_pkt_data || k == tc_etmv3_pkt_placeholder || k == tc_etmv3_pkt_value_not_traced;
	int value = k == tc_etmv3_pkt_data || k == tc_etmv3_pkt_ooo_data;
	const char *bad = same_header(wi, gi);
	if (bad)
		return bad;
	FIELD(got->header == want->header, "header");
	SHOWN(k == tc_etmv3_pkt_error, error);
	SHOWN(k == tc_etmv3_pkt_warning, warning);
	SHOWN(k == tc_etmv3_pkt_warning, field);
	SHOWN(k == tc_etmv3_pkt_atom, natoms);
	SHOWN(k == tc_etmv3_pkt_atom, atoms);
	SHOWN(k == tc_etmv3_pkt_atom, waits);
	SHOWN(iaddr, isa);
	SHOWN(isync || branch, ns);
	SHOWN(isync || branch, hyp);
	SHOWN(isync, reason);
	SHOWN(isync && want->has_address, lsip);
	SHOWN(isync || daddr, has_address);
	SHOWN(isync, has_cc);
	SHOWN(isync, has_ctxid);
	SHOWN(branch, exc_form);
	SHOWN(branch && want->exc_form, cancel);
	SHOWN(branch && want->exc_form == tc_etmv3_exc_bytes, resume);
	SHOWN(daddr && want->has_address, be);
	SHOWN(value, has_value);
	SHOWN(value && want->has_value, size);
	SHOWN(k == tc_etmv3_pkt_ooo_data || k == tc_etmv3_pkt_placeholder, tag);
	SHOWN(k == tc_etmv3_pkt_timestamp, ts_r);
	SHOWN(branch && want->exc_form, exception);
	SHOWN(k == tc_etmv3_pkt_atom, atoms);
	SHOWN(iaddr, address);
	SHOWN(isync && want->lsip, data_insn);
	SHOWN(daddr && want->has_address, data_address);
	SHOWN(value && want->has_value, value);
	SHOWN(k == tc_etmv3_pkt_context_id || (isync && want->has_ctxid), context_id);
	SHOWN(k == tc_etmv3_pkt_vmid, vmid);
	SHOWN(k == tc_etmv3_pkt_cycle_count || (isync && want->has_cc), cc);
	SHOWN(k == tc_etmv3_pkt_timestamp || k == tc_etmv3_pkt_warning, ts);
	return NULL;
}

/* reference/rvtrace/FORMAT.md "L1: packets": a delta's address with branches
 * ≠ 0 only (RV-P3), addr-only's addr or diff by `full`, a sync's context
 * when present, sync-exception's tval when present. */
static const char *same_rvtrace(const struct tc_item *wi, const struct tc_item *gi)
{
	const struct tc_rvtrace_packet *want = (const void *)wi, *got = (const void *)gi;
	int k = want->h.kind;
	int delta = k == tc_rvtrace_pkt_full_delta || k == tc_rvtrace_pkt_diff_delta;
	int sync = k == tc_rvtrace_pkt_sync_start || k == tc_rvtrace_pkt_sync_exception || k == tc_rvtrace_pkt_sync_context;
	int syncaddr = k == tc_rvtrace_pkt_sync_start || k == tc_rvtrace_pkt_sync_exception;
	int exc = k == tc_rvtrace_pkt_sync_exception;
	int addr_only = k == tc_rvtrace_pkt_addr_only;
	const char *bad = same_header(wi, gi);
	if (bad)
		return bad;
	FIELD(got->byte0 == want->byte0, "byte0");
	SHOWN(k == tc_rvtrace_pkt_error, error);
	SHOWN(k == tc_rvtrace_pkt_warning, warning);
	SHOWN(k == tc_rvtrace_pkt_warning, field);
	SHOWN(delta, branches);
	SHOWN(delta, map);
	SHOWN(addr_only, full);
	SHOWN(sync, has_context);
	SHOWN(sync && want->has_context, context);
	SHOWN(sync, privilege);
	SHOWN(syncaddr, branch);
	SHOWN(exc, interrupt);
	SHOWN(exc, ecause);
	SHOWN(exc, has_tval);
	SHOWN(exc && want->has_tval, tval);
	SHOWN(k == tc_rvtrace_pkt_support, enable);
	SHOWN(k == tc_rvtrace_pkt_support, mode);
	SHOWN(k == tc_rvtrace_pkt_support, qual);
	SHOWN(k == tc_rvtrace_pkt_message, control);
	SHOWN(k == tc_rvtrace_pkt_message, type);
	SHOWN(syncaddr || (k == tc_rvtrace_pkt_full_delta && want->branches) || (addr_only && want->full), address);
	SHOWN((k == tc_rvtrace_pkt_diff_delta && want->branches) || (addr_only && !want->full), diff);
	SHOWN(k == tc_rvtrace_pkt_timer || k == tc_rvtrace_pkt_software || k == tc_rvtrace_pkt_warning, value);
	return NULL;
}

/* reference/etmv1/FORMAT.md "ETMv1 kinds": an instruction's pkt when it has one, its data fields
 * (a daddr, known or unknown; value and size pairs), a branch's address fields when it has an
 * address (reason, j and ctxid when present) and its apo, abandoned and lost; unassigned's n,
 * error's class, warning's class, field and bits. S is every item's. */
static const char *same_etmv1(const struct tc_item *wi, const struct tc_item *gi)
{
	const struct tc_etmv1_record *want = (const void *)wi, *got = (const void *)gi;
	int k = want->h.kind;
	int insn = k <= tc_etmv1_bd, branch = k == tc_etmv1_be || k == tc_etmv1_bd;
	int addr = branch && want->has_addr;
	const char *bad = same_header(wi, gi);
	if (bad)
		return bad;
	FIELD(got->status == want->status, "status");
	SHOWN(insn, has_pkt);
	SHOWN(insn && want->has_pkt, pkt);
	SHOWN(insn, has_daddr);
	SHOWN(insn && want->has_daddr, daddr_unknown);
	SHOWN(insn && want->has_daddr && !want->daddr_unknown, daddr);
	SHOWN(insn, nvalues);
	for (int i = 0; i < TC_ETMV1_MAX_VALUES; i++) {
		SHOWN(insn && i < want->nvalues, vsize[i]);
		SHOWN(insn && i < want->nvalues, value[i]);
	}
	SHOWN(branch, has_addr);
	SHOWN(addr, isa);
	SHOWN(addr, npkts);
	SHOWN(addr, addr);
	SHOWN(addr, has_reason);
	SHOWN(addr && want->has_reason, reason);
	SHOWN(addr, has_j);
	SHOWN(addr && want->has_j, j);
	SHOWN(addr, has_ctxid);
	SHOWN(addr && want->has_ctxid, ctxid);
	SHOWN(branch, apo);
	SHOWN(branch, abandoned);
	SHOWN(insn, lost);
	SHOWN(k == tc_etmv1_unassigned, n);
	SHOWN(k == tc_etmv1_error, error);
	SHOWN(k == tc_etmv1_warning, warning);
	SHOWN(k == tc_etmv1_warning, field);
	SHOWN(k == tc_etmv1_warning, bits);
	return NULL;
}

/* reference/etmv1/FORMAT.md "ETMv2 kinds": a cycle item's phantom (ie … dn) and pkt when it has
 * one, a TFO's value and implied; +data a, the data address (known or unknown) and the value with
 * its size when present; +miss tag, a and address; +miss-data tag and value; +context-id ctxid;
 * +branch addr, isa, n and e when present; +tfo-packet reason, lsip, ctxid when present, addr,
 * isa and the current address when present; error's class, warning's class, field and bits. S is
 * every line's. */
static const char *same_etmv2(const struct tc_item *wi, const struct tc_item *gi)
{
	const struct tc_etmv2_record *want = (const void *)wi, *got = (const void *)gi;
	int k = want->h.kind;
	int cycle = k <= tc_etmv2_tfo, data = k == tc_etmv2_data, miss = k == tc_etmv2_miss;
	int daddr = (data || miss) && want->has_daddr, value = (data || k == tc_etmv2_miss_data) && want->has_value;
	int branch = k == tc_etmv2_branch, tfop = k == tc_etmv2_tfo_packet;
	const char *bad = same_header(wi, gi);
	if (bad)
		return bad;
	FIELD(got->status == want->status, "status");
	SHOWN(k <= tc_etmv2_dn, phantom);
	SHOWN(cycle, has_pkt);
	SHOWN(cycle && want->has_pkt, pkt);
	SHOWN(k == tc_etmv2_tfo, tfo_value);
	SHOWN(k == tc_etmv2_tfo, implied);
	SHOWN(data || miss, a);
	SHOWN(miss || k == tc_etmv2_miss_data, tag);
	SHOWN(data || miss, has_daddr);
	SHOWN(daddr, daddr_unknown);
	SHOWN(daddr && !want->daddr_unknown, daddr);
	SHOWN(data || k == tc_etmv2_miss_data, has_value);
	SHOWN(value, vsize);
	SHOWN(value, value);
	SHOWN(k == tc_etmv2_context_id || tfop, has_ctxid);
	SHOWN(k == tc_etmv2_context_id || (tfop && want->has_ctxid), ctxid);
	SHOWN(branch || tfop, has_addr);
	SHOWN(branch || tfop, addr);
	SHOWN(branch || tfop, isa);
	SHOWN(branch, npkts);
	SHOWN(branch, has_e);
	SHOWN(branch && want->has_e, e);
	SHOWN(tfop, reason);
	SHOWN(tfop, lsip);
	SHOWN(tfop, has_cur);
	SHOWN(tfop && want->has_cur, cur);
	SHOWN(tfop && want->has_cur, cur_isa);
	SHOWN(k == tc_etmv2_error, error);
	SHOWN(k == tc_etmv2_warning, warning);
	SHOWN(k == tc_etmv2_warning, field);
	SHOWN(k == tc_etmv2_warning, bits);
	return NULL;
}

/* The field compare of each protocol; a protocol of the build without one
 * fails test_compares_cover_protocols. */
static const struct {
	const char *protocol;
	const char *(*same)(const struct tc_item *want, const struct tc_item *got);
} compares[] = { { "ete", same_ete }, { "ptm", same_ptm }, { "etmv3", same_etmv3 }, { "rvtrace", same_rvtrace },
		{ "etmv1", same_etmv1 }, { "etmv2", same_etmv2 } };

static const char *(*compare_of(const struct tc_protocol *p))(const struct tc_item *, const struct tc_item *)
{
	for (size_t i = 0; i < sizeof compares / sizeof compares[0]; i++)
		if (!strcmp(compares[i].protocol, p->name))
			return compares[i].same;
	return NULL;
}

static void test_compares_cover_protocols(void)
{
	int good = 0, n = 0;
	for (const struct tc_protocol *const *p = tc_protocols; *p; p++, n++) {
		if (compare_of(*p) && (*p)->parse_l1 && (*p)->l1_size <= RECORD_MAX)
			good++;
		else
			note("%s: no field compare here, no parse_l1, or an L1 record over %d bytes\n", (*p)->name,
			     RECORD_MAX);
	}
	ok(n > 0 && good == n, "every protocol of the build has an L1 parser and a field compare here (%d/%d)", good, n);
}

/* ---- The round trip of one record: parse(format(r)) == r -------------------- */

struct trip {
	const struct tc_protocol *proto;
	const char *(*same)(const struct tc_item *, const struct tc_item *);
	long records;
	long good;
	int kinds[64];            /* records of each kind */
	char where[160];          /* the source of the next records (for notes) */
	char first[1400];         /* the first failure */
};

static void trip_one(struct trip *t, const struct tc_item *r)
{
	union record got;
	char line[512], again[512], err[256];
	const char *bad = NULL;
	t->records++;
	if (r->kind < 64)
		t->kinds[r->kind]++;
	t->proto->format(line, sizeof line, tc_level_l1, r);
	if (t->proto->parse_l1(line, &got.h, err, sizeof err) != 0) {
		bad = err;
	} else {
		t->proto->format(again, sizeof again, tc_level_l1, &got.h);
		if (strcmp(again, line))
			bad = "the parsed record formats differently";
		else
			bad = t->same(r, &got.h);
	}
	if (!bad)
		t->good++;
	else if (!t->first[0])
		snprintf(t->first, sizeof t->first, "%s: '%s': %s\n", t->where, line, bad);
}

/* Every kind of the protocol's L1 was met (but those listed in `absent`). */
static int all_kinds(const struct trip *t, const int *absent, int nabsent)
{
	int missing = 0;
	for (int k = 0; k < t->proto->l1_kinds && k < 64; k++) {
		int excused = 0;
		for (int i = 0; i < nabsent; i++)
			excused |= absent[i] == k;
		if (!t->kinds[k] && !excused) {
			note("%s: no record of kind %d\n", t->proto->name, k);
			missing++;
		}
	}
	return missing == 0;
}

/* ---- (a) Every [expect.l1] line: format(parse(line)) == line ----------------- */

struct line_totals {
	long lines, good, errors, warnings;
	char first[1400];         /* the first failure */
};

static void line_trip(const struct tc_protocol *p, const char *path, const char *line, struct line_totals *t)
{
	union record r;
	char buf[512], err[256];
	t->lines++;
	if (p->parse_l1(line, &r.h, err, sizeof err) != 0) {
		if (!t->first[0])
			snprintf(t->first, sizeof t->first, "%s: '%s': %s\n", path, line, err);
		return;
	}
	p->format(buf, sizeof buf, tc_level_l1, &r.h);
	if (strcmp(buf, line)) {
		if (!t->first[0])
			snprintf(t->first, sizeof t->first, "%s: '%s' parses and prints as '%s'\n", path, line, buf);
		return;
	}
	t->good++;
	t->errors += p->item_error(tc_level_l1, &r.h) != 0;
	t->warnings += p->item_is_warning(tc_level_l1, &r.h) != 0;
}

static void lines_trip(const struct tc_vector *v, const char *path, const struct tc_lines *l, struct line_totals *t)
{
	for (size_t i = 0; i < l->n; i++)
		line_trip(v->proto, path, l->line[i], &t[v->proto->id]);
}

/* ---- (b) The reference's records of every vector ------------------------------ */

static void on_item(void *ctx, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		trip_one(ctx, item);
}

static void decode_trip(const struct tc_vector *v, const char *path, struct trip *t)
{
	struct tc_sink sink = { t, tc_level_l1, on_item };
	void *dec = v->proto->alloc(v->config, &sink);
	snprintf(t->where, sizeof t->where, "%s (reference)", path);
	if (!dec) {
		snprintf(t->first, sizeof t->first, "%s: the reference refuses the configuration\n", path);
		t->records++;
		return;
	}
	v->proto->feed(dec, v->trace, v->trace_len);
	v->proto->finish(dec);
	v->proto->free(dec);
}

static struct trip *trip_of(struct trip *trips, int ntrips, const struct tc_protocol *p)
{
	for (int i = 0; i < ntrips; i++)
		if (trips[i].proto == p)
			return &trips[i];
	return NULL;
}

static void test_vectors(const char *dir)
{
	char **list = NULL, err[600];
	size_t n = 0, nvec[8] = { 0 };
	struct line_totals lt[8];
	struct trip trips[8];
	int ntrips = 0;
	memset(lt, 0, sizeof lt);
	memset(trips, 0, sizeof trips);
	for (const struct tc_protocol *const *p = tc_protocols; *p && ntrips < 8; p++, ntrips++) {
		trips[ntrips].proto = *p;
		trips[ntrips].same = compare_of(*p);
	}
	ok(tc_vector_list(dir, &list, &n, err, sizeof err) > 0, "the vectors under %s are listed (%s)", dir, n ? "" : err);
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		struct trip *t;
		if (tc_vector_load(list[i], &v, err, sizeof err) == 0) {
			t = trip_of(trips, ntrips, v.proto);
			if (v.proto->id < 8 && t && t->same) {
				nvec[v.proto->id]++;
				lines_trip(&v, list[i], &v.expect[tc_sec_l1], lt);
				for (int a = 0; a < v.nalts; a++)
					if (v.alt[a].sec == tc_sec_l1)
						lines_trip(&v, list[i], &v.alt[a].lines, lt);
				decode_trip(&v, list[i], t);
			}
			tc_vector_free(&v);
		} else {
			ok(0, "%s: %s", list[i], err);
		}
		free(list[i]);
	}
	free(list);
	for (int i = 0; i < ntrips; i++) {
		const struct tc_protocol *p = trips[i].proto;
		const struct line_totals *l = &lt[p->id < 8 ? p->id : 0];
		note("%s", l->first);
		ok(l->lines > 200 && l->good == l->lines && l->errors > 10 && l->warnings > 10,
		   "%s: every [expect.l1] line of %zu vectors parses and prints back byte for byte (%ld/%ld; %ld errors, "
		   "%ld warnings)",
		   p->name, nvec[p->id < 8 ? p->id : 0], l->good, l->lines, l->errors, l->warnings);
		note("%s", trips[i].first);
		ok(trips[i].records > 200 && trips[i].good == trips[i].records,
		   "%s: every L1 record the reference decodes from the vectors: parse(format(r)) == r, text and fields "
		   "(%ld/%ld)",
		   p->name, trips[i].good, trips[i].records);
	}
}

/* ---- (b) The encoders' L1 truth ----------------------------------------------
 * The records each encoder formats into its expected L1 (tc_enc_options.l1_record),
 * over a number of seeds with a random configuration each. The lines the
 * records format to must be the truth the encoder gives, so the records are
 * all of it. */

struct truth {
	struct trip trip;
	char *text;               /* the records, formatted, '\n'-separated */
	size_t len, cap;
};

static void truth_add(struct truth *t, const struct tc_item *r)
{
	char line[512];
	int n = t->trip.proto->format(line, sizeof line, tc_level_l1, r);
	if (t->len + (size_t)n + 2 > t->cap) {
		t->cap = 2 * (t->len + (size_t)n + 2) + 4096;
		t->text = realloc(t->text, t->cap);
		if (!t->text)
			abort();
	}
	memcpy(t->text + t->len, line, (size_t)n);
	t->len += (size_t)n;
	t->text[t->len++] = '\n';
	t->text[t->len] = '\0';
	trip_one(&t->trip, r);
}

static void on_ete_record(void *ctx, const struct tc_ete_packet *p)
{
	truth_add(ctx, &p->h);
}

static void on_ptm_record(void *ctx, const struct tc_ptm_packet *p)
{
	truth_add(ctx, &p->h);
}

static void on_etmv3_record(void *ctx, const struct tc_etmv3_packet *p)
{
	truth_add(ctx, &p->h);
}

/* The truth of one seed: 1 when the records are all of it. */
static int ete_seed(struct truth *t, uint64_t seed)
{
	struct tc_enc_options o;
	struct tc_enc_vector v;
	char err[256];
	int same;
	tc_enc_options_default(&o);
	o.seed = seed;
	o.l1_record = on_ete_record;
	o.l1_ctx = t;
	t->len = 0;
	if (tc_enc_generate(&o, &v, err, sizeof err)) {
		note("ete seed %llu: %s\n", (unsigned long long)seed, err);
		return 0;
	}
	same = t->text && !strcmp(t->text, v.l1);
	tc_enc_vector_free(&v);
	return same;
}

static int ptm_seed(struct truth *t, uint64_t seed)
{
	struct tc_enc_ptm_options o;
	struct tc_enc_ptm_vector v;
	char err[256];
	int same;
	tc_enc_ptm_options_default(&o);
	o.seed = seed;
	o.l1_record = on_ptm_record;
	o.l1_ctx = t;
	t->len = 0;
	if (tc_enc_ptm_generate(&o, &v, err, sizeof err)) {
		note("ptm seed %llu: %s\n", (unsigned long long)seed, err);
		return 0;
	}
	same = t->text && !strcmp(t->text, v.l1);
	tc_enc_ptm_vector_free(&v);
	return same;
}

static int etmv3_seed(struct truth *t, uint64_t seed)
{
	struct tc_enc_etmv3_options o;
	struct tc_enc_etmv3_vector v;
	char err[256];
	int same;
	tc_enc_etmv3_options_default(&o);
	o.seed = seed;
	o.l1_record = on_etmv3_record;
	o.l1_ctx = t;
	t->len = 0;
	if (tc_enc_etmv3_generate(&o, &v, err, sizeof err)) {
		note("etmv3 seed %llu: %s\n", (unsigned long long)seed, err);
		return 0;
	}
	same = t->text && !strcmp(t->text, v.l1);
	tc_enc_etmv3_vector_free(&v);
	return same;
}

static void test_encoder(const char *name, int (*one)(struct truth *, uint64_t), int seeds, const int *absent,
			 int nabsent)
{
	struct truth t;
	int whole = 0;
	memset(&t, 0, sizeof t);
	t.trip.proto = tc_protocol_find(name);
	t.trip.same = t.trip.proto ? compare_of(t.trip.proto) : NULL;
	if (!t.trip.proto || !t.trip.same) {
		ok(0, "%s: in the build, with a field compare", name);
		return;
	}
	for (int s = 1; s <= seeds; s++) {
		snprintf(t.trip.where, sizeof t.trip.where, "%s encoder seed %d", name, s);
		whole += one(&t, (uint64_t)s);
	}
	free(t.text);
	note("%s", t.trip.first);
	ok(whole == seeds, "%s: the records the encoder reports are its whole L1 truth (%d/%d seeds)", name, whole,
	   seeds);
	ok(t.trip.records > 1000 && t.trip.good == t.trip.records && all_kinds(&t.trip, absent, nabsent),
	   "%s: every L1 record of the encoder's truth, %d seeds: parse(format(r)) == r, text and fields (%ld/%ld), "
	   "every kind it writes",
	   name, seeds, t.trip.good, t.trip.records);
}

/* ---- (c) Lines that are not L1, each with its message --------------------------
 * The column and what was expected there, worked out by hand from each
 * protocol's FORMAT.md "L1" (columns count from 1). */
static const struct {
	const char *protocol;
	const char *line;
	const char *message;
} refusals[] = {
	{ "ete", "", "column 1: expected '@', found end of line" },
	{ "ete", "12 01 trace-info", "column 1: expected '@', found '12'" },
	{ "ete", "@012 04 trace-on", "column 2: expected a decimal number without leading zeros, found '012'" },
	{ "ete", "@18446744073709551616 04 trace-on",
	  "column 2: expected a decimal number at most 18446744073709551615, found '18446744073709551616'" },
	{ "ete", "@5 4 trace-on", "column 4: expected two lower-case hexadecimal digits (the header byte), found '4'" },
	{ "ete", "@5 0C cycle-count commit=0 cc=5",
	  "column 4: expected two lower-case hexadecimal digits (the header byte), found '0C'" },
	{ "ete", "@5  04 trace-on", "column 4: expected two lower-case hexadecimal digits (the header byte), found ' 04'" },
	{ "ete", "@5 04 trace_on",
	  "column 7: expected a packet kind (async|discard|overflow|trace-info|timestamp|trace-on|exception|tx-start|"
	  "tx-commit|cycle-count|commit|cancel|mispredict|ignore|event|context|addr-ctx|address|q|source-address|atom|"
	  "ts-marker|instrumentation|error|warning), found 'trace_on'" },
	{ "ete", "@5 04 trace-on ", "column 15: expected the end of the line, found ' '" },
	{ "ete", "@1 04 trace-on # comment", "column 15: expected the end of the line, found ' #'" },
	{ "ete", "@12 01 trace-info cc=1 cct=4 spec=0", "column 36: expected ' tx=', found end of line" },
	{ "ete", "@12 01 trace-info cc=2 cct=0 spec=0 tx=0", "column 22: expected a decimal number at most 1, found '2'" },
	{ "ete", "@12 01 trace-info cc=0 cct=0 spec=0 tx=0 wndw=", "column 47: expected a decimal number, found end of line" },
	{ "ete", "@12 01 trace-info cct=0 cc=0 spec=0 tx=0", "column 19: expected 'cc=', found 'cct=0'" },
	{ "ete", "@3 f7 atom atoms=", "column 18: expected 1 to 32 atoms (E or N), found end of line" },
	{ "ete", "@3 f7 atom atoms=-", "column 18: expected 1 to 32 atoms (E or N), found '-'" },
	{ "ete", "@3 f7 atom atoms=EEX", "column 18: expected 1 to 32 atoms (E or N), found 'EEX'" },
	{ "ete", "@3 f7 atom atoms=EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE",
	  "column 18: expected 1 to 32 atoms (E or N), found 'EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE'" },
	{ "ete", "@3 30 mispredict atoms=x", "column 24: expected '-' or 1 to 32 atoms (E or N), found 'x'" },
	{ "ete", "@7 71 event events=1,0", "column 22: expected an event number above the one before it, found '0'" },
	{ "ete", "@7 71 event events=4", "column 20: expected a decimal number at most 3, found '4'" },
	{ "ete", "@7 71 event events=", "column 20: expected a decimal number, found end of line" },
	{ "ete", "@9 06 exception e=3 type=0x1 addr=unknown", "column 19: expected E (1|2), found '3'" },
	{ "ete", "@9 06 exception e=1 type=0x01 addr=unknown",
	  "column 26: expected a hexadecimal number (0x and lower-case digits) without leading zeros, found '0x01'" },
	{ "ete", "@9 06 exception e=1 type=0x1F addr=unknown",
	  "column 26: expected a hexadecimal number (0x and lower-case digits), found '0x1F'" },
	{ "ete", "@9 06 exception e=1 type=0x100 addr=unknown",
	  "column 26: expected a hexadecimal number (0x and lower-case digits) at most 0xff, found '0x100'" },
	{ "ete", "@9 06 exception e=1 type=1 addr=unknown",
	  "column 26: expected a hexadecimal number (0x and lower-case digits), found '1'" },
	{ "ete", "@4 80 context el=4 ns=0 sf=1 ctxid=0x0 vmid=0x0",
	  "column 18: expected a decimal number at most 3, found '4'" },
	{ "ete", "@4 80 context el=1 ns=0 sf=1 ctxid=0x0 vmid=0x0 nse=0",
	  "column 49: expected 'nse=1', found 'nse=0'" },
	{ "ete", "@4 80 context el=1 ns=0 sf=1 ctxid=0x100000000 vmid=0x0",
	  "column 36: expected a hexadecimal number (0x and lower-case digits) at most 0xffffffff, found '0x100000000'" },
	{ "ete", "@5 00 error class=none",
	  "column 19: expected an error class (reserved-header|reserved-extension|reserved-field|sbz|truncated|"
	  "field-overflow|exact-match-index|commit-overrun|cancel-overrun|bad-async|spec-mismatch|queue-overflow), "
	  "found 'none'" },
	{ "ete", "@14 0c warning class=res0 field=none bits=0x0",
	  "column 33: expected a warning field (plctl|info|exception|instrumentation|cc-f2-f|cc-f2-aaaa|cc-f3-aa|"
	  "source-address), found 'none'" },
	{ "ete", "@14 0c warning class=ignored field=plctl bits=0x0",
	  "column 22: expected a warning class (res0|ignored-field), found 'ignored'" },
	{ "ete", "@2 0c cycle-count commit=1 cc=unknowns", "column 38: expected the end of the line, found 's'" },
	{ "ete", "@6 a0 q type=0x0 addr=0x10 n=1", "column 28: expected 'isa=', found 'n=1'" },
	{ "ptm", "@0 08 isync addr=0x0 isa=arm reason=4 ns=0 hyp=0",
	  "column 37: expected a decimal number at most 3, found '4'" },
	{ "ptm", "@0 08 isync addr=0x0 isa=a32 reason=1 ns=0 hyp=0",
	  "column 26: expected an instruction set (arm|thumb|thumbee|jazelle), found 'a32'" },
	{ "ptm", "@0 08 isync addr=0x0 isa=arm reason=1 ns=0 hyp=0 ctxid=0x1 cc=3",
	  "column 59: expected the end of the line, found ' cc=3'" },
	{ "ptm", "@5 81 branch addr=0x100000000 isa=arm ns=0 hyp=0",
	  "column 19: expected a hexadecimal number (0x and lower-case digits) at most 0xffffffff, found '0x100000000'" },
	{ "ptm", "@5 81 branch addr=0x10 isa=arm ns=0 hyp=0 exc=0x200",
	  "column 47: expected a hexadecimal number (0x and lower-case digits) at most 0x1ff, found '0x200'" },
	{ "ptm", "@3 84 atom atoms=", "column 18: expected 1 to 32 atoms (E or N), found end of line" },
	{ "ptm", "@3 84 atom atoms=E cc=", "column 23: expected a decimal number, found end of line" },
	{ "ptm", "@1 66 ignore x", "column 13: expected the end of the line, found ' x'" },
	{ "ptm", "@12 00 error class=none",
	  "column 20: expected an error class (reserved-header|reserved-field|truncated|bad-async), found 'none'" },
	{ "ptm", "@7 72 warning class=res0 field=isync-info bits=0x80 extra",
	  "column 52: expected the end of the line, found ' extra'" },
	{ "ptm", "@7 72 warning class=res0 field=bogus bits=0x1",
	  "column 32: expected a warning field (atom|addr5|addr-last|exc0|exc1|wp-info|isync-info|cc-first|cc-last|"
	  "ts-last|wpu-first|isync-info0), found 'bogus'" },
	{ "ptm", "@4 3c vmid vmid=0X1", "column 17: expected a hexadecimal number (0x and lower-case digits), found '0X1'" },
	{ "ptm", "@4 6e context-id ctxid=0x", "column 24: expected a hexadecimal number (0x and lower-case digits), found '0x'" },
	{ "ptm", "@4 6e contextid ctxid=0x1",
	  "column 7: expected a packet kind (async|isync|atom|branch|waypoint|trigger|context-id|vmid|timestamp|"
	  "exception-return|ignore|error|warning), found 'contextid'" },
	{ "etmv3", "@0 80 atom atoms=WX", "column 18: expected '-' or 1 to 16 atoms (E, N or W), found 'WX'" },
	{ "etmv3", "@0 2e data value=0x1 size=3", "column 27: expected a size of 0, 1, 2 or 4, found '3'" },
	{ "etmv3", "@0 03 branch addr=0x0 isa=arm ns=0 hyp=0 exc=0x1 can=0 resume=0",
	  "column 63: expected a resume of 1 to 15 (0 is not shown), found '0'" },
	{ "etmv3", "@0 03 branch addr=0x0 isa=arm ns=0 hyp=0 exc5=0x8 can=0",
	  "column 47: expected a hexadecimal number (0x and lower-case digits) at most 0x7, found '0x8'" },
	{ "etmv3", "@0 20 ooo-data tag=1", "column 21: expected ' value=', found end of line" },
};

static void test_refusals(void)
{
	int n = (int)(sizeof refusals / sizeof refusals[0]), good = 0;
	for (int i = 0; i < n; i++) {
		const struct tc_protocol *p = tc_protocol_find(refusals[i].protocol);
		union record r;
		char err[1024] = "(none)";
		if (p && p->parse_l1(refusals[i].line, &r.h, err, sizeof err) == -1 && !strcmp(err, refusals[i].message))
			good++;
		else
			note("%s '%s': got '%s'\n", refusals[i].protocol, refusals[i].line, err);
	}
	ok(good == n, "lines that are not L1 are refused with the column and what was expected (%d/%d)", good, n);
}

/* ---- Lines at the edges of every range FORMAT.md gives are L1 ------------------ */
static const struct {
	const char *protocol;
	const char *line;
} edges[] = {
	{ "ete", "@18446744073709551615 ff trace-info cc=1 cct=4294967295 spec=4294967295 tx=1 wndw=4294967295" },
	{ "ete", "@0 01 trace-info cc=0 cct=0 spec=0 tx=0" },
	{ "ete", "@0 03 timestamp ts=0xffffffffffffffff cc=18446744073709551615" },
	{ "ete", "@0 06 exception e=2 type=0xff addr=0xffffffffffffffff isa=1 el=3 ns=1 sf=1 ctxid=0xffffffff "
		 "vmid=0xffffffff nse=1" },
	{ "ete", "@0 06 exception e=1 type=0x0 addr=unknown el=0 ns=0 sf=0 ctxid=0x0 vmid=0x0" },
	{ "ete", "@0 0c cycle-count commit=18446744073709551615 cc=18446744073709551615" },
	{ "ete", "@0 2e cancel atoms=- n=18446744073709551615 mispredict=0" },
	{ "ete", "@0 fe atom atoms=EEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE" },
	{ "ete", "@0 7f event events=0,1,2,3" },
	{ "ete", "@0 70 event" },
	{ "ete", "@0 09 instrumentation el=3 value=0xffffffffffffffff" },
	{ "ete", "@0 a0 q type=0xff addr=0x0 isa=0 n=0" },
	{ "ete", "@0 0c warning class=ignored-field field=source-address bits=0xffffffffffffffff" },
	{ "ete", "@0 00 error class=queue-overflow" },
	{ "ptm", "@18446744073709551615 08 isync addr=0xffffffff isa=jazelle reason=3 ns=1 hyp=1 cc=4294967295 "
		 "ctxid=0xffffffff" },
	{ "ptm", "@0 ff branch addr=0xffffffff isa=arm ns=1 hyp=1 exc=0x0 cc=0" },
	{ "ptm", "@0 fe atom atoms=NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN cc=4294967295" },
	{ "ptm", "@0 3c vmid vmid=0xffffffff" },
	{ "ptm", "@0 46 timestamp ts=0xffffffffffffffff cc=4294967295" },
	{ "ptm", "@0 72 warning class=ignored-field field=isync-info0 bits=0xffffffffffffffff" },
	{ "ptm", "@0 0c trigger" },
	{ "ptm", "@0 76 exception-return" },
	{ "etmv3", "@18446744073709551615 70 isync addr=0xffffffff isa=jazelle reason=3 ns=1 hyp=1 lsip=0xffffffff "
		   "cc=4294967295 ctxid=0xffffffff" },
	{ "etmv3", "@0 08 isync reason=0 ns=0 hyp=0" },
	{ "etmv3", "@0 ff branch addr=0xffffffff isa=thumbee ns=1 hyp=1 exc=0x1ff can=1 resume=15" },
	{ "etmv3", "@0 ff branch addr=0x0 isa=arm ns=0 hyp=0 exc5=0x7 can=1" },
	{ "etmv3", "@0 fc atom atoms=EEEEEEEEEEEEEEEN" },
	{ "etmv3", "@0 80 atom atoms=-" },
	{ "etmv3", "@0 c8 atom atoms=WEWEWN" },
	{ "etmv3", "@0 04 cycle-count cc=4294967295" },
	{ "etmv3", "@0 2e data addr=0xffffffff be=1 value=0xffffffff size=4" },
	{ "etmv3", "@0 02 data" },
	{ "etmv3", "@0 6c ooo-data tag=3 value=0x0 size=0" },
	{ "etmv3", "@0 7c placeholder tag=3 addr=0x0 be=0" },
	{ "etmv3", "@0 6a value-not-traced" },
	{ "etmv3", "@0 3c vmid vmid=0xff" },
	{ "etmv3", "@0 46 timestamp ts=0xffffffffffffffff r=1" },
	{ "etmv3", "@0 2e warning class=ignored-field field=data-size bits=0xff" },
	{ "etmv3", "@0 00 error class=bad-mode" },
};

static void test_edges(void)
{
	int n = (int)(sizeof edges / sizeof edges[0]), good = 0;
	for (int i = 0; i < n; i++) {
		const struct tc_protocol *p = tc_protocol_find(edges[i].protocol);
		union record r;
		char err[512] = "", buf[512] = "";
		if (p && p->parse_l1(edges[i].line, &r.h, err, sizeof err) == 0)
			p->format(buf, sizeof buf, tc_level_l1, &r.h);
		if (!strcmp(buf, edges[i].line))
			good++;
		else
			note("%s '%s': %s%s\n", edges[i].protocol, edges[i].line, err, buf);
	}
	ok(good == n, "lines with every value at the ends of its range parse and print back (%d/%d)", good, n);
}

/* ---- Lines and the records they stand for, written by hand ------------------- */

static void test_known_records(void)
{
	union record want[12], got;
	const char *lines[12];
	const char *(*same[12])(const struct tc_item *, const struct tc_item *);
	const char *proto[12];
	int n = 0, good = 0;
	memset(want, 0, sizeof want);
	/* Trace Info: cc=1 cct=4 spec=3 tx=1 and a WNDW section of 9. */
	tc_ete_packet_init(&want[n].ete, tc_ete_pkt_trace_info, 12);
	want[n].ete.header = 0x01, want[n].ete.cc_enabled = 1, want[n].ete.cct = 4, want[n].ete.spec = 3;
	want[n].ete.in_tx = 1, want[n].ete.has_wndw = 1, want[n].ete.wndw = 9;
	lines[n] = "@12 01 trace-info cc=1 cct=4 spec=3 tx=1 wndw=9", same[n] = same_ete, proto[n++] = "ete";
	/* Exception with an address and a context. */
	tc_ete_packet_init(&want[n].ete, tc_ete_pkt_exception, 9);
	want[n].ete.header = 0x06, want[n].ete.e = 2, want[n].ete.type = 0x1e, want[n].ete.has_address = 1;
	want[n].ete.address = 0x400, want[n].ete.isa = 1, want[n].ete.has_context = 1;
	want[n].ete.ctx = (struct tc_context){ .el = 2, .ns = 1, .sf = 1, .context_id = 0xab, .vmid = 3, .nse = 1 };
	lines[n] = "@9 06 exception e=2 type=0x1e addr=0x400 isa=1 el=2 ns=1 sf=1 ctxid=0xab vmid=0x3 nse=1";
	same[n] = same_ete, proto[n++] = "ete";
	/* Cancel: atoms E N E (bits 0 and 2), 7 cancelled, mispredict. */
	tc_ete_packet_init(&want[n].ete, tc_ete_pkt_cancel, 3);
	want[n].ete.header = 0x2e, want[n].ete.natoms = 3, want[n].ete.atoms = 0x5, want[n].ete.count = 7;
	want[n].ete.mispredict = 1;
	lines[n] = "@3 2e cancel atoms=ENE n=7 mispredict=1", same[n] = same_ete, proto[n++] = "ete";
	/* Events 0 and 3: mask 0x9. */
	tc_ete_packet_init(&want[n].ete, tc_ete_pkt_event, 7);
	want[n].ete.header = 0x79, want[n].ete.events = 0x9;
	lines[n] = "@7 79 event events=0,3", same[n] = same_ete, proto[n++] = "ete";
	/* Cycle count, unknown count, 2 committed. */
	tc_ete_packet_init(&want[n].ete, tc_ete_pkt_cycle_count, 2);
	want[n].ete.header = 0x0e, want[n].ete.commit = 2, want[n].ete.cc_unknown = 1;
	lines[n] = "@2 0e cycle-count commit=2 cc=unknown", same[n] = same_ete, proto[n++] = "ete";
	/* PTM I-sync with a cycle count and a context ID. */
	want[n].ptm.h = (struct tc_item){ sizeof(struct tc_ptm_packet), tc_proto_ptm, tc_ptm_pkt_isync, 0 };
	want[n].ptm.header = 0x08, want[n].ptm.address = 0x8000, want[n].ptm.isa = tc_ptm_isa_thumb;
	want[n].ptm.reason = 2, want[n].ptm.ns = 1, want[n].ptm.has_cc = 1, want[n].ptm.cc = 17;
	want[n].ptm.has_ctxid = 1, want[n].ptm.context_id = 0xff;
	lines[n] = "@0 08 isync addr=0x8000 isa=thumb reason=2 ns=1 hyp=0 cc=17 ctxid=0xff";
	same[n] = same_ptm, proto[n++] = "ptm";
	/* PTM branch with exception information and a cycle count. */
	want[n].ptm.h = (struct tc_item){ sizeof(struct tc_ptm_packet), tc_proto_ptm, tc_ptm_pkt_branch, 5 };
	want[n].ptm.header = 0x81, want[n].ptm.address = 0x10, want[n].ptm.isa = tc_ptm_isa_thumbee;
	want[n].ptm.hyp = 1, want[n].ptm.has_exception = 1, want[n].ptm.exception = 0x1ff;
	want[n].ptm.has_cc = 1, want[n].ptm.cc = 3;
	lines[n] = "@5 81 branch addr=0x10 isa=thumbee ns=0 hyp=1 exc=0x1ff cc=3", same[n] = same_ptm, proto[n++] = "ptm";
	/* PTM atoms N N E (bit 2). */
	want[n].ptm.h = (struct tc_item){ sizeof(struct tc_ptm_packet), tc_proto_ptm, tc_ptm_pkt_atom, 3 };
	want[n].ptm.header = 0x84, want[n].ptm.natoms = 3, want[n].ptm.atoms = 0x4, want[n].ptm.has_cc = 1;
	want[n].ptm.cc = 4;
	lines[n] = "@3 84 atom atoms=NNE cc=4", same[n] = same_ptm, proto[n++] = "ptm";
	/* ETMv3 LSiP I-sync: the current address 0x1004, the data instruction at 0x1000. */
	want[n].etmv3.h = (struct tc_item){ sizeof(struct tc_etmv3_packet), tc_proto_etmv3, tc_etmv3_pkt_isync, 6 };
	want[n].etmv3.header = 0x70, want[n].etmv3.address = 0x1004, want[n].etmv3.isa = tc_etmv3_isa_thumb;
	want[n].etmv3.reason = 1, want[n].etmv3.has_address = 1, want[n].etmv3.lsip = 1;
	want[n].etmv3.data_insn = 0x1000, want[n].etmv3.has_cc = 1, want[n].etmv3.cc = 9;
	lines[n] = "@6 70 isync addr=0x1004 isa=thumb reason=1 ns=0 hyp=0 lsip=0x1000 cc=9";
	same[n] = same_etmv3, proto[n++] = "etmv3";
	/* ETMv3 cycle-accurate atoms W E W N (waits bits 0 and 2, E bit 1). */
	want[n].etmv3.h = (struct tc_item){ sizeof(struct tc_etmv3_packet), tc_proto_etmv3, tc_etmv3_pkt_atom, 7 };
	want[n].etmv3.header = 0xc4, want[n].etmv3.natoms = 4, want[n].etmv3.atoms = 0x2, want[n].etmv3.waits = 0x5;
	lines[n] = "@7 c4 atom atoms=WEWN", same[n] = same_etmv3, proto[n++] = "etmv3";
	/* ETMv3 branch with an ARMv7-M exception, cancelled, resume 2. */
	want[n].etmv3.h = (struct tc_item){ sizeof(struct tc_etmv3_packet), tc_proto_etmv3, tc_etmv3_pkt_branch, 8 };
	want[n].etmv3.header = 0x81, want[n].etmv3.address = 0x200, want[n].etmv3.isa = tc_etmv3_isa_thumb;
	want[n].etmv3.exc_form = tc_etmv3_exc_bytes, want[n].etmv3.exception = 0x18, want[n].etmv3.cancel = 1;
	want[n].etmv3.resume = 2;
	lines[n] = "@8 81 branch addr=0x200 isa=thumb ns=0 hyp=0 exc=0x18 can=1 resume=2";
	same[n] = same_etmv3, proto[n++] = "etmv3";
	/* ETMv3 Normal data with a data address and a two-byte value. */
	want[n].etmv3.h = (struct tc_item){ sizeof(struct tc_etmv3_packet), tc_proto_etmv3, tc_etmv3_pkt_data, 9 };
	want[n].etmv3.header = 0x2a, want[n].etmv3.has_address = 1, want[n].etmv3.data_address = 0x4000;
	want[n].etmv3.be = 1, want[n].etmv3.has_value = 1, want[n].etmv3.value = 0xbeef, want[n].etmv3.size = 2;
	lines[n] = "@9 2a data addr=0x4000 be=1 value=0xbeef size=2", same[n] = same_etmv3, proto[n++] = "etmv3";
	for (int i = 0; i < n; i++) {
		const struct tc_protocol *p = tc_protocol_find(proto[i]);
		char err[256] = "";
		const char *bad = "does not parse";
		if (p && p->parse_l1(lines[i], &got.h, err, sizeof err) == 0)
			bad = same[i](&want[i].h, &got.h);
		if (!bad)
			good++;
		else
			note("'%s': %s %s\n", lines[i], bad, err);
	}
	ok(good == n, "lines of FORMAT.md's kinds parse into the records they stand for, field by field (%d/%d)", good, n);
}

int main(int argc, char **argv)
{
	/* The kinds the encoders never write: errors and warnings (a positive
	 * vector has none), ETE's Ignore packets. */
	static const int ete_absent[] = { tc_ete_pkt_ignore, tc_ete_pkt_error, tc_ete_pkt_warning };
	static const int ptm_absent[] = { tc_ptm_pkt_error, tc_ptm_pkt_warning };
	static const int etmv3_absent[] = { tc_etmv3_pkt_error, tc_etmv3_pkt_warning };
	test_compares_cover_protocols();
	test_known_records();
	test_edges();
	test_refusals();
	test_vectors(argc > 1 ? argv[1] : "vectors");
	test_encoder("ete", ete_seed, 200, ete_absent, (int)(sizeof ete_absent / sizeof ete_absent[0]));
	test_encoder("ptm", ptm_seed, 200, ptm_absent, (int)(sizeof ptm_absent / sizeof ptm_absent[0]));
	test_encoder("etmv3", etmv3_seed, 200, etmv3_absent, (int)(sizeof etmv3_absent / sizeof etmv3_absent[0]));
	return tap_finish();
}
