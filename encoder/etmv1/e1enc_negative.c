/* SPDX-License-Identifier: BSD-3-Clause */
/* e1enc_negative.c — ETMv1 negative vectors (tracecert gen --negative --protocol etmv1): the vector
 * of a seed with one deliberate corruption after its last record, where the truth of every cycle
 * before it stands: a record cut short (`truncated`) or one outside the record table (`bad-record`);
 * or the capture cut while an item is incomplete (`cut`: the items up to it, then `truncated`)
 * (reference/etmv1/FORMAT.md "Sample file", ERRATA ETM1-P22, ETM1-P33, ETMC-F5, ETM1-E11). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1enc_internal.h"

extern const struct tc_encoder tc_encoder_etmv1;

enum { neg_any, neg_truncated, neg_bad_record, neg_cut, neg_count };

static const char *const neg_class[neg_count] = { "any", "truncated", "bad-record", "truncated" };

const struct tc_enc_kind e1e_negative_kinds[neg_count] = {
	{ "any", "chosen by the seed (the default)" },
	{ "truncated", "the capture ends inside a record after the last one" },
	{ "bad-record", "a record outside the table after the last one (ETMC-F5)" },
	{ "cut", "the capture cut at a record while an item is incomplete (truncated)" },
};
_Static_assert(neg_count == E1E_NEGATIVE_KINDS, "e1enc_internal.h counts the kinds");

/* A status byte that no record has: bits 7:5 not 0 (but the gap record's 0x80), or bit 3 set. */
static uint8_t bad_status(struct enc_rng *r)
{
	if (enc_chance(r, 50))
		return (uint8_t)(0x08 | enc_below(r, 8) | (enc_below(r, 2) << 4));
	uint8_t b = (uint8_t)((1 + enc_below(r, 7)) << 5 | enc_below(r, 32));
	return b == 0x80 ? 0xa0 : b;
}

/* The corruption's bytes after the trace: n of them into out; returns n. */
static size_t corruption(struct enc_rng *r, int kind, unsigned size, uint8_t *out)
{
	if (kind == neg_truncated) {
		size_t n = 1 + enc_below(r, size - 1);   /* 1 .. size-1 bytes of a record */
		out[0] = (uint8_t)tc_etmv1_ps_td;
		for (size_t i = 1; i < n; i++)
			out[i] = 0;
		return n;
	}
	out[0] = bad_status(r);
	for (unsigned i = 1; i < size; i++)
		out[i] = (uint8_t)enc_below(r, size == 2 && i == 1 ? 16 : 256);
	return size;
}

static int append(char **text, const char *line)
{
	size_t a = *text ? strlen(*text) : 0, b = strlen(line);
	char *p = realloc(*text, a + b + 2);
	if (!p)
		return -1;
	memcpy(p + a, line, b);
	p[a + b] = '\n';
	p[a + b + 1] = 0;
	*text = p;
	return 0;
}

/* A cut after the first k bytes: the items whose records are in, up to the first one not complete
 * by then (ETM1-P33), then the error: `truncated` at that item (S its status), else `unowned-packets`
 * at the first early packet held (S = 3, WT); 0 when the cut breaks nothing. */
struct cut {
	struct enc_rng *rng;
	uint64_t at;           /* the cut: the file's length */
	char line[256];        /* the error's L1 line */
	char cls[64];
};

static uint64_t window_done(const struct e1e *e, uint64_t restart)
{
	for (size_t i = 0; i < e->nrec; i++)
		if (e->rec[i].h.offset == restart && e->rec[i].h.kind == tc_etmv1_be)
			return e->done[i];
	return UINT64_MAX;
}

static int cut_allowed(const struct e1e *e, uint64_t k)
{
	for (int w = 0; w < e->ncut_windows; w++)
		if (k > e->cut_window[w][0] && k <= window_done(e, e->cut_window[w][1]))
			return 0;
	return !(e->cut_open && k > e->cut_from);
}

/* The L1 text of a cut at k into b: 1 when it gives an error (written to c), else 0. */
static int cut_text(const struct e1e *e, uint64_t k, struct enc_buf *b, struct cut *c)
{
	struct tc_etmv1_record x;
	char line[512];
	size_t i = 0;
	memset(&x, 0, sizeof x);
	x.h.size = sizeof x;
	x.h.protocol = tc_proto_etmv1;
	x.h.kind = tc_etmv1_error;
	for (; i < e->nrec && e->rec[i].h.offset < k && e->done[i] < k; i++) {
		tc_etmv1_format(line, sizeof line, &e->rec[i]);
		enc_buf_printf(b, "%s\n", line);
	}
	if (i < e->nrec && e->rec[i].h.offset < k) {
		x.h.offset = e->rec[i].h.offset;
		x.status = e->rec[i].status;
		x.error = tc_etmv1_err_truncated;
	} else {
		uint64_t early = UINT64_MAX;
		for (size_t j = i; j < e->nrec; j++)
			if (e->rec[j].has_pkt && e->rec[j].pkt < k && e->rec[j].pkt < early)
				early = e->rec[j].pkt;
		if (early == UINT64_MAX)
			return 0;
		x.h.offset = early;
		x.status = tc_etmv1_ps_wt;
		x.error = tc_etmv1_err_unowned_packets;
	}
	tc_etmv1_format(c->line, sizeof c->line, &x);
	enc_buf_printf(b, "%s\n", c->line);
	snprintf(c->cls, sizeof c->cls, "%s %llu", x.error == tc_etmv1_err_truncated ? "truncated" : "unowned-packets",
		 (unsigned long long)x.h.offset);
	return 1;
}

static int finish_cut(struct e1e *e, struct tc_enc_result *r, void *ctx)
{
	struct cut *c = ctx;
	uint64_t size = e->cfg.port_width == 16 ? 3 : 2, n = (r->trace_len - 16) / size;
	e1e_order_records(e);
	c->at = 0;
	if (e->cut_unsafe || n < 2)
		return 0;
	for (int tries = 0; tries < 200; tries++) {
		uint64_t k = 16 + size * (1 + enc_below(c->rng, (unsigned)(n - 1)));
		struct enc_buf b = { 0 };
		if (!cut_allowed(e, k) || !cut_text(e, k, &b, c)) {
			free(b.p);
			continue;
		}
		if (!b.p)
			return -1;
		free(r->l1);
		r->l1 = b.p;
		r->trace_len = k;
		c->at = k;
		return 0;
	}
	return 0;
}

static int negative_cut(const struct tc_enc_request *rq, struct enc_rng *rng, struct tc_enc_result *r, char *err,
			size_t errlen)
{
	struct cut c = { .rng = rng };
	char note[512];
	if (e1e_generate_with(rq, r, err, errlen, finish_cut, &c))
		return -1;
	if (!c.at)
		return 1;   /* no place: the caller makes another kind */
	snprintf(note, sizeof note,
		 "Negative vector (tracecert gen --negative) from the vector of encoder seed %llu,\n"
		 "cut: the capture ends after its first %llu bytes, while an item is incomplete.\n"
		 "Expected (the encoder's truth, never a decoder's output): the items of the records\n"
		 "kept up to the first one not complete (its last packet or APO cycle cut off), then\n"
		 "the error (ERRATA ETM1-P22, ETM1-P33, ETM1-E11).",
		 (unsigned long long)rq->seed, (unsigned long long)c.at);
	free(r->l3);
	r->l3 = NULL;
	r->note = strdup(note);
	if (!r->note || append(&r->error, c.cls)) {
		tc_enc_result_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int e1e_negative(const struct tc_enc_request *rq, int kind, struct tc_enc_result *r, char *err, size_t errlen)
{
	struct enc_rng rng;
	uint8_t extra[3];
	char line[256], note[512];
	if (kind < 0 || kind >= neg_count) {
		snprintf(err, errlen, "unknown negative kind %d", kind);
		return -1;
	}
	enc_rng_init(&rng, rq->seed ^ UINT64_C(0x6e65676174697665), NULL, 0);   /* "negative": a stream of its own */
	if (kind == neg_any)
		kind = 1 + (int)enc_below(&rng, neg_count - 1);
	if (kind == neg_cut) {
		int rc = negative_cut(rq, &rng, r, err, errlen);
		if (rc <= 0)
			return rc;
		tc_enc_result_free(r);
		kind = neg_truncated;   /* no place for a cut: a record cut short after the last */
	}
	if (tc_encoder_etmv1.generate(rq, r, err, errlen))   /* the vector itself (e1enc_entry.c) */
		return -1;
	unsigned size = ((const struct tc_etmv1_config *)r->cfg)->port_width == 16 ? 3 : 2;
	uint64_t at = r->trace_len;
	size_t n = corruption(&rng, kind, size, extra);
	uint8_t *t = realloc(r->trace, r->trace_len + n);
	struct tc_etmv1_record e;
	memset(&e, 0, sizeof e);
	e.h.size = sizeof e;
	e.h.protocol = tc_proto_etmv1;
	e.h.kind = tc_etmv1_error;
	e.h.offset = at;
	e.status = 0;   /* ETM1-P33: S is 0 for a bad-record and a partial record */
	e.error = (uint8_t)(kind == neg_truncated ? tc_etmv1_err_truncated : tc_etmv1_err_bad_record);
	tc_etmv1_format(line, sizeof line, &e);
	if (t) {
		memcpy(t + r->trace_len, extra, n);
		r->trace = t;
		r->trace_len += n;
	}
	snprintf(note, sizeof note,
		 "Negative vector (tracecert gen --negative) from the vector of encoder seed %llu,\n"
		 "%s, %zu byte%s after its last record, @%llu (status byte %02x).\n"
		 "Expected (the encoder's truth, never a decoder's output): every item of the vector,\n"
		 "then the error at that record (ERRATA ETM1-P22, ETM1-P33, ETMC-F5, ETM1-E11).",
		 (unsigned long long)rq->seed, kind == neg_truncated ? "truncated: a record cut short" : "bad-record: a record outside the table",
		 n, n == 1 ? "" : "s", (unsigned long long)at, extra[0]);
	free(r->l3);
	r->l3 = NULL;
	char cls[64];
	snprintf(cls, sizeof cls, "%s %llu", neg_class[kind], (unsigned long long)at);
	r->note = strdup(note);
	if (!t || !r->note || append(&r->l1, line) || append(&r->error, cls)) {
		tc_enc_result_free(r);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}
