/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_text.c — the ETMv2 L1 text (reference/etmv1/FORMAT.md "L1", "ETMv2 kinds"): the writer and the
 * one parser, through reference/textscan.c. */
#include <stdio.h>
#include <string.h>

#include "tracecert/etmv2.h"
#include "textscan.h"

static const char *const kind_names[tc_etmv2_kind_count] = {
	"ie", "de", "in", "dn", "dw", "tfo", "trigger", "trace-disabled", "gap", "error", "warning",
	"+data", "+miss", "+miss-data", "+not-traced", "+context-id", "+branch", "+tfo-packet"
};

const char *const tc_etmv2_error_names[tc_etmv2_err_count] = {
	"none", "bad-header", "bad-record", "truncated", "unowned-packets", "reserved-header", "reserved-field",
	"reserved-tfo", "tfo-mismatch", "tfo-past-fifo", "bad-mode", "too-many-pending"
};

const char *const tc_etmv2_warning_names[tc_etmv2_warn_count] = { "none", "res0", "ignored-field" };

static const char *const field_names[tc_etmv2_wf_count] = {
	"none", "daddr5-bit7", "daddr-last", "data-size", "gap-nibble", "idle-byte"
};

static const char *const isa_names[2] = { "arm", "thumb" };
static const char *const phantom_names[3] = { "", "E", "N" };

const char *tc_etmv2_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_etmv2_kind_count) ? kind_names[kind] : "?";
}

static void put_daddr(struct tc_textout *t, const struct tc_etmv2_record *r)
{
	if (!r->has_daddr)
		return;
	if (r->daddr_unknown)
		tc_textout_put(t, " addr=unknown");
	else
		tc_textout_put(t, " addr=0x%lx", (unsigned long)r->daddr);
}

static void put_value(struct tc_textout *t, const struct tc_etmv2_record *r)
{
	if (r->has_value)
		tc_textout_put(t, " value=0x%lx size=%u", (unsigned long)r->value, r->vsize);
}

static void put_packet(struct tc_textout *t, const struct tc_etmv2_record *r)
{
	switch (r->h.kind) {
	case tc_etmv2_data:
		tc_textout_put(t, " a=%u", r->a);
		put_daddr(t, r);
		put_value(t, r);
		break;
	case tc_etmv2_miss:
		tc_textout_put(t, " tag=%u a=%u", r->tag, r->a);
		put_daddr(t, r);
		break;
	case tc_etmv2_miss_data:
		tc_textout_put(t, " tag=%u", r->tag);
		put_value(t, r);
		break;
	case tc_etmv2_context_id:
		tc_textout_put(t, " ctxid=0x%lx", (unsigned long)r->ctxid);
		break;
	case tc_etmv2_branch:
		tc_textout_put(t, " addr=0x%lx isa=%s n=%u", (unsigned long)r->addr, isa_names[r->isa & 1], r->npkts);
		if (r->has_e)
			tc_textout_put(t, " e=%u", r->e);
		break;
	case tc_etmv2_tfo_packet:
		tc_textout_put(t, " reason=%u lsip=%u", r->reason, r->lsip);
		if (r->has_ctxid)
			tc_textout_put(t, " ctxid=0x%lx", (unsigned long)r->ctxid);
		tc_textout_put(t, " addr=0x%lx isa=%s", (unsigned long)r->addr, isa_names[r->isa & 1]);
		if (r->has_cur)
			tc_textout_put(t, " cur=0x%lx cur-isa=%s", (unsigned long)r->cur, isa_names[r->cur_isa & 1]);
		break;
	default:
		break;
	}
}

static void put_item(struct tc_textout *t, const struct tc_etmv2_record *r)
{
	int k = r->h.kind;
	if (k <= tc_etmv2_dn && r->phantom)
		tc_textout_put(t, " phantom=%s", phantom_names[r->phantom % 3]);
	if (k == tc_etmv2_tfo)
		tc_textout_put(t, " value=%u", r->tfo_value);
	if (k <= tc_etmv2_tfo && r->has_pkt)
		tc_textout_put(t, " pkt=%llu", (unsigned long long)r->pkt);
	if (k == tc_etmv2_tfo && r->implied)
		tc_textout_put(t, " implied=ie");
	if (k == tc_etmv2_error)
		tc_textout_put(t, " class=%s", r->error < tc_etmv2_err_count ? tc_etmv2_error_names[r->error] : "?");
	if (k == tc_etmv2_warning)
		tc_textout_put(t, " class=%s field=%s bits=0x%x", r->warning < tc_etmv2_warn_count ? tc_etmv2_warning_names[r->warning] : "?",
			       r->field < tc_etmv2_wf_count ? field_names[r->field] : "?", r->bits);
}

int tc_etmv2_format(char *buf, size_t size, const struct tc_etmv2_record *r)
{
	struct tc_textout t = { buf, size, 0 };
	if (size)
		buf[0] = 0;
	tc_textout_put(&t, "@%llu ", (unsigned long long)r->h.offset);
	if (r->status == TC_ETMV2_STATUS_GAP)
		tc_textout_put(&t, "-");
	else
		tc_textout_put(&t, "%x", r->status & 0xf);
	tc_textout_put(&t, " %s", tc_etmv2_kind_name(r->h.kind));
	if (r->h.kind >= tc_etmv2_data)
		put_packet(&t, r);
	else
		put_item(&t, r);
	return (int)t.len;
}

/* ---- The parser ----------------------------------------------------------- */

static int opt(struct tc_scan *s, const char *lit)
{
	if (!tc_scan_next_is(s, lit))
		return 0;
	tc_scan_lit(s, lit);
	return 1;
}

static uint8_t scan_isa(struct tc_scan *s)
{
	int isa = tc_scan_name(s, isa_names, 0, 2, "isa");
	return (uint8_t)(isa < 0 ? 0 : isa);
}

static void scan_daddr(struct tc_scan *s, struct tc_etmv2_record *r)
{
	if (!opt(s, " addr="))
		return;
	r->has_daddr = 1;
	if (opt(s, "unknown"))
		r->daddr_unknown = 1;
	else
		r->daddr = (uint32_t)tc_scan_hex(s, UINT32_MAX);
}

static void scan_value(struct tc_scan *s, struct tc_etmv2_record *r)
{
	if (!opt(s, " value="))
		return;
	r->has_value = 1;
	r->value = (uint32_t)tc_scan_hex(s, UINT32_MAX);
	tc_scan_lit(s, " size=");
	r->vsize = (uint8_t)tc_scan_dec(s, 4);
}

static void scan_tfo_packet(struct tc_scan *s, struct tc_etmv2_record *r)
{
	tc_scan_lit(s, " reason=");
	r->reason = (uint8_t)tc_scan_dec(s, 3);
	tc_scan_lit(s, " lsip=");
	r->lsip = (uint8_t)tc_scan_dec(s, 1);
	if (opt(s, " ctxid=")) {
		r->has_ctxid = 1;
		r->ctxid = (uint32_t)tc_scan_hex(s, UINT32_MAX);
	}
	tc_scan_lit(s, " addr=");
	r->has_addr = 1;
	r->addr = (uint32_t)tc_scan_hex(s, UINT32_MAX);
	tc_scan_lit(s, " isa=");
	r->isa = scan_isa(s);
	if (opt(s, " cur=")) {
		r->has_cur = 1;
		r->cur = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		tc_scan_lit(s, " cur-isa=");
		r->cur_isa = scan_isa(s);
	}
}

static void scan_packet(struct tc_scan *s, struct tc_etmv2_record *r)
{
	switch (r->h.kind) {
	case tc_etmv2_data:
		tc_scan_lit(s, " a=");
		r->a = (uint8_t)tc_scan_dec(s, 1);
		scan_daddr(s, r);
		scan_value(s, r);
		break;
	case tc_etmv2_miss:
		tc_scan_lit(s, " tag=");
		r->tag = (uint8_t)tc_scan_dec(s, 3);
		tc_scan_lit(s, " a=");
		r->a = (uint8_t)tc_scan_dec(s, 1);
		scan_daddr(s, r);
		break;
	case tc_etmv2_miss_data:
		tc_scan_lit(s, " tag=");
		r->tag = (uint8_t)tc_scan_dec(s, 3);
		scan_value(s, r);
		break;
	case tc_etmv2_context_id:
		tc_scan_lit(s, " ctxid=");
		r->has_ctxid = 1;
		r->ctxid = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		break;
	case tc_etmv2_branch:
		tc_scan_lit(s, " addr=");
		r->has_addr = 1;
		r->addr = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		tc_scan_lit(s, " isa=");
		r->isa = scan_isa(s);
		tc_scan_lit(s, " n=");
		r->npkts = (uint8_t)tc_scan_dec(s, 5);
		if (opt(s, " e=")) {
			r->has_e = 1;
			r->e = (uint8_t)tc_scan_dec(s, 1);
		}
		break;
	case tc_etmv2_tfo_packet:
		scan_tfo_packet(s, r);
		break;
	default:
		break;
	}
}

static void scan_item(struct tc_scan *s, struct tc_etmv2_record *r)
{
	int k = r->h.kind;
	if (k <= tc_etmv2_dn && opt(s, " phantom=")) {
		int p = tc_scan_name(s, phantom_names, 1, 3, "phantom");
		r->phantom = (uint8_t)(p < 0 ? 0 : p);
	}
	if (k == tc_etmv2_tfo) {
		tc_scan_lit(s, " value=");
		r->tfo_value = (uint8_t)tc_scan_dec(s, 95);
	}
	if (k <= tc_etmv2_tfo && opt(s, " pkt=")) {
		r->has_pkt = 1;
		r->pkt = tc_scan_dec(s, UINT64_MAX);
	}
	if (k == tc_etmv2_tfo && opt(s, " implied=ie"))
		r->implied = 1;
	if (k == tc_etmv2_error) {
		tc_scan_lit(s, " class=");
		int e = tc_scan_name(s, tc_etmv2_error_names, 1, tc_etmv2_err_count, "error class");
		r->error = (uint8_t)(e < 0 ? 0 : e);
	}
	if (k == tc_etmv2_warning) {
		tc_scan_lit(s, " class=");
		int w = tc_scan_name(s, tc_etmv2_warning_names, 1, tc_etmv2_warn_count, "warning class");
		tc_scan_lit(s, " field=");
		int f = tc_scan_name(s, field_names, 1, tc_etmv2_wf_count, "warning field");
		tc_scan_lit(s, " bits=");
		r->warning = (uint8_t)(w < 0 ? 0 : w);
		r->field = (uint8_t)(f < 0 ? 0 : f);
		r->bits = (uint8_t)tc_scan_hex(s, 0xff);
	}
}

int tc_etmv2_parse_text(const char *line, struct tc_etmv2_record *r, char *err, size_t errlen)
{
	static const char *const digits[16] = { "0", "1", "2", "3", "4", "5", "6", "7",
						"8", "9", "a", "b", "c", "d", "e", "f" };
	struct tc_scan s;
	memset(r, 0, sizeof *r);
	r->h.size = sizeof *r;
	r->h.protocol = tc_proto_etmv2;
	tc_scan_init(&s, line, err, errlen);
	tc_scan_lit(&s, "@");
	r->h.offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	if (opt(&s, "-")) {
		r->status = TC_ETMV2_STATUS_GAP;
	} else {
		int st = tc_scan_name(&s, digits, 0, 16, "PIPESTAT digit");
		r->status = (uint8_t)(st < 0 ? 0 : st);
	}
	tc_scan_lit(&s, " ");
	int k = tc_scan_name(&s, kind_names, 0, tc_etmv2_kind_count, "kind");
	r->h.kind = (uint16_t)(k < 0 ? 0 : k);
	if (s.bad)
		return tc_scan_end(&s);
	if (k >= tc_etmv2_data)
		scan_packet(&s, r);
	else
		scan_item(&s, r);
	return tc_scan_end(&s);
}
