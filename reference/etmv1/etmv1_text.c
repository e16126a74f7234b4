/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_text.c — the ETMv1 L1 text (reference/etmv1/FORMAT.md "L1", "ETMv1 kinds"): the writer and
 * the one parser, through reference/textscan.c. */
#include <stdio.h>
#include <string.h>

#include "tracecert/etmv1.h"
#include "textscan.h"

static const char *const kind_names[tc_etmv1_kind_count] = {
	"ie", "in", "id", "be", "bd", "trigger", "trace-disabled", "unassigned", "gap", "error", "warning"
};

const char *const tc_etmv1_error_names[tc_etmv1_err_count] = {
	"none", "bad-header", "bad-record", "truncated", "unowned-packets", "bad-apo", "apo-mismatch",
	"unknown-length", "reserved-reason", "not-in-version", "too-many-pending", "jazelle"
};

const char *const tc_etmv1_warning_names[tc_etmv1_warn_count] = { "none", "res0", "ignored-field" };

static const char *const field_names[tc_etmv1_wf_count] = {
	"none", "arm-bit1", "addr5-bit7", "daddr-reason", "daddr5-bit7", "sync-nibble"
};

static const char *const isa_names[3] = { "arm", "thumb", "jazelle" };

const char *tc_etmv1_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_etmv1_kind_count) ? kind_names[kind] : "?";
}

static int is_insn(int kind)
{
	return kind <= tc_etmv1_bd;
}

static void put_data(struct tc_textout *t, const struct tc_etmv1_record *r)
{
	if (r->has_daddr) {
		if (r->daddr_unknown)
			tc_textout_put(t, " daddr=unknown");
		else
			tc_textout_put(t, " daddr=0x%lx", (unsigned long)r->daddr);
	}
	for (unsigned i = 0; i < r->nvalues && i < TC_ETMV1_MAX_VALUES; i++)
		tc_textout_put(t, " value=0x%llx size=%u", (unsigned long long)r->value[i], r->vsize[i]);
}

static void put_branch(struct tc_textout *t, const struct tc_etmv1_record *r)
{
	if (r->has_addr) {
		tc_textout_put(t, " addr=0x%lx isa=%s n=%u", (unsigned long)r->addr, isa_names[r->isa % 3], r->npkts);
		if (r->has_reason)
			tc_textout_put(t, " reason=%u", r->reason);
		if (r->has_j)
			tc_textout_put(t, " j=%u", r->j);
		if (r->has_ctxid)
			tc_textout_put(t, " ctxid=0x%lx", (unsigned long)r->ctxid);
	}
	if (r->apo == TC_ETMV1_APO_NONE)
		tc_textout_put(t, " apo=-");
	else
		tc_textout_put(t, " apo=%u", r->apo);
	if (r->abandoned)
		tc_textout_put(t, " abandoned=1");
}

int tc_etmv1_format(char *buf, size_t size, const struct tc_etmv1_record *r)
{
	struct tc_textout t = { buf, size, 0 };
	if (size)
		buf[0] = 0;
	tc_textout_put(&t, "@%llu ", (unsigned long long)r->h.offset);
	if (r->status == TC_ETMV1_STATUS_GAP)
		tc_textout_put(&t, "-");
	else
		tc_textout_put(&t, "%x", r->status & 0xf);
	tc_textout_put(&t, " %s", tc_etmv1_kind_name(r->h.kind));
	if (is_insn(r->h.kind)) {
		if (r->has_pkt)
			tc_textout_put(&t, " pkt=%llu", (unsigned long long)r->pkt);
		put_data(&t, r);
		if (r->h.kind == tc_etmv1_be || r->h.kind == tc_etmv1_bd)
			put_branch(&t, r);
		if (r->lost)
			tc_textout_put(&t, " lost=1");
	} else if (r->h.kind == tc_etmv1_unassigned) {
		tc_textout_put(&t, " n=%lu", (unsigned long)r->n);
	} else if (r->h.kind == tc_etmv1_error) {
		tc_textout_put(&t, " class=%s", r->error < tc_etmv1_err_count ? tc_etmv1_error_names[r->error] : "?");
	} else if (r->h.kind == tc_etmv1_warning) {
		tc_textout_put(&t, " class=%s field=%s bits=0x%x", r->warning < tc_etmv1_warn_count ? tc_etmv1_warning_names[r->warning] : "?",
			       r->field < tc_etmv1_wf_count ? field_names[r->field] : "?", r->bits);
	}
	return (int)t.len;
}

/* ---- The parser ----------------------------------------------------------- */

static void scan_data(struct tc_scan *s, struct tc_etmv1_record *r)
{
	if (tc_scan_next_is(s, " daddr=")) {
		tc_scan_lit(s, " daddr=");
		r->has_daddr = 1;
		if (tc_scan_next_is(s, "unknown")) {
			tc_scan_lit(s, "unknown");
			r->daddr_unknown = 1;
		} else {
			r->daddr = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		}
	}
	while (!s->bad && tc_scan_next_is(s, " value=")) {
		if (r->nvalues >= TC_ETMV1_MAX_VALUES) {
			tc_scan_fail(s, "at most 17 values");
			return;
		}
		tc_scan_lit(s, " value=");
		r->value[r->nvalues] = tc_scan_hex(s, UINT64_MAX);
		tc_scan_lit(s, " size=");
		r->vsize[r->nvalues++] = (uint8_t)tc_scan_dec(s, 8);
	}
}

static void scan_branch(struct tc_scan *s, struct tc_etmv1_record *r)
{
	if (tc_scan_next_is(s, " addr=")) {
		tc_scan_lit(s, " addr=");
		r->has_addr = 1;
		r->addr = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		tc_scan_lit(s, " isa=");
		int isa = tc_scan_name(s, isa_names, 0, 3, "isa");
		r->isa = (uint8_t)(isa < 0 ? 0 : isa);
		tc_scan_lit(s, " n=");
		r->npkts = (uint8_t)tc_scan_dec(s, 5);
		if (tc_scan_next_is(s, " reason=")) {
			tc_scan_lit(s, " reason=");
			r->has_reason = 1;
			r->reason = (uint8_t)tc_scan_dec(s, 7);
		}
		if (tc_scan_next_is(s, " j=")) {
			tc_scan_lit(s, " j=");
			r->has_j = 1;
			r->j = (uint8_t)tc_scan_dec(s, 1);
		}
		if (tc_scan_next_is(s, " ctxid=")) {
			tc_scan_lit(s, " ctxid=");
			r->has_ctxid = 1;
			r->ctxid = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		}
	}
	tc_scan_lit(s, " apo=");
	if (tc_scan_next_is(s, "-")) {
		tc_scan_lit(s, "-");
		r->apo = TC_ETMV1_APO_NONE;
	} else {
		r->apo = (uint8_t)tc_scan_dec(s, 15);
	}
	if (tc_scan_next_is(s, " abandoned=1")) {
		tc_scan_lit(s, " abandoned=1");
		r->abandoned = 1;
	}
}

static void scan_body(struct tc_scan *s, struct tc_etmv1_record *r)
{
	int k = r->h.kind;
	if (is_insn(k)) {
		if (tc_scan_next_is(s, " pkt=")) {
			tc_scan_lit(s, " pkt=");
			r->has_pkt = 1;
			r->pkt = tc_scan_dec(s, UINT64_MAX);
		}
		scan_data(s, r);
		if (k == tc_etmv1_be || k == tc_etmv1_bd)
			scan_branch(s, r);
		if (tc_scan_next_is(s, " lost=1")) {
			tc_scan_lit(s, " lost=1");
			r->lost = 1;
		}
	} else if (k == tc_etmv1_unassigned) {
		tc_scan_lit(s, " n=");
		r->n = (uint32_t)tc_scan_dec(s, UINT32_MAX);
	} else if (k == tc_etmv1_error) {
		tc_scan_lit(s, " class=");
		int e = tc_scan_name(s, tc_etmv1_error_names, 1, tc_etmv1_err_count, "error class");
		r->error = (uint8_t)(e < 0 ? 0 : e);
	} else if (k == tc_etmv1_warning) {
		tc_scan_lit(s, " class=");
		int w = tc_scan_name(s, tc_etmv1_warning_names, 1, tc_etmv1_warn_count, "warning class");
		tc_scan_lit(s, " field=");
		int f = tc_scan_name(s, field_names, 1, tc_etmv1_wf_count, "warning field");
		tc_scan_lit(s, " bits=");
		r->warning = (uint8_t)(w < 0 ? 0 : w);
		r->field = (uint8_t)(f < 0 ? 0 : f);
		r->bits = (uint8_t)tc_scan_hex(s, 0xff);
	}
}

int tc_etmv1_parse_text(const char *line, struct tc_etmv1_record *r, char *err, size_t errlen)
{
	struct tc_scan s;
	memset(r, 0, sizeof *r);
	r->h.size = sizeof *r;
	r->h.protocol = tc_proto_etmv1;
	tc_scan_init(&s, line, err, errlen);
	tc_scan_lit(&s, "@");
	r->h.offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	if (tc_scan_next_is(&s, "-")) {
		tc_scan_lit(&s, "-");
		r->status = TC_ETMV1_STATUS_GAP;
	} else {
		static const char *const digits[8] = { "0", "1", "2", "3", "4", "5", "6", "7" };
		int st = tc_scan_name(&s, digits, 0, 8, "PIPESTAT digit");
		r->status = (uint8_t)(st < 0 ? 0 : st);
	}
	tc_scan_lit(&s, " ");
	int k = tc_scan_name(&s, kind_names, 0, tc_etmv1_kind_count, "kind");
	r->h.kind = (uint16_t)(k < 0 ? 0 : k);
	if (!s.bad)
		scan_body(&s, r);
	return tc_scan_end(&s);
}
