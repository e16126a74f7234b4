/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_text.c — canonical text of RISC-V processor trace 0.026 packets (reference/rvtrace/FORMAT.md):
 * the writer and the one parser of L1. */
#include <stdio.h>
#include <string.h>

#include "tracecert/rvtrace.h"
#include "textscan.h"

static const char *const pkt_names[tc_rvtrace_pkt_count] = {
	"full-delta", "diff-delta", "addr-only", "sync-start", "sync-exception", "sync-context",
	"support", "message", "timer", "software", "error", "warning"
};

const char *const tc_rvtrace_error_names[tc_rvtrace_err_count] = {
	"none", "truncated", "short-frame", "bad-length", "reserved-subformat", "reserved-qual", "bad-mode",
	"no-base-address", "map-exhausted", "no-address", "unconsumed-map"
};

const char *const tc_rvtrace_warning_names[tc_rvtrace_warn_count] = { "none", "res0" };

static const char *const field_names[tc_rvtrace_wf_count] = { "none", "map", "pad" };

const char *tc_rvtrace_pkt_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_rvtrace_pkt_count) ? pkt_names[kind] : "?";
}

const char *tc_rvtrace_error_name(int error)
{
	return (error >= 0 && error < tc_rvtrace_err_count) ? tc_rvtrace_error_names[error] : "?";
}

const char *tc_rvtrace_warning_name(int warning)
{
	return (warning >= 0 && warning < tc_rvtrace_warn_count) ? tc_rvtrace_warning_names[warning] : "?";
}

const char *tc_rvtrace_warning_field_name(int field)
{
	return (field >= 0 && field < tc_rvtrace_wf_count) ? field_names[field] : "?";
}

/* A difference: signed hexadecimal, "-0x10" below zero. */
static void put_diff(struct tc_textout *t, int64_t d)
{
	if (d < 0)
		tc_textout_put(t, " diff=-0x%llx", (unsigned long long)(UINT64_C(0) - (uint64_t)d));
	else
		tc_textout_put(t, " diff=0x%llx", (unsigned long long)d);
}

static void put_delta(struct tc_textout *t, const struct tc_rvtrace_packet *p)
{
	tc_textout_put(t, " branches=%u map=0x%lx", p->branches, (unsigned long)p->map);
	if (p->branches == 0)   /* no address (RV-P3) */
		return;
	if (p->h.kind == tc_rvtrace_pkt_full_delta)
		tc_textout_put(t, " addr=0x%llx", (unsigned long long)p->address);
	else
		put_diff(t, p->diff);
}

static void put_sync(struct tc_textout *t, const struct tc_rvtrace_packet *p)
{
	if (p->has_context)
		tc_textout_put(t, " ctx=0x%lx", (unsigned long)p->context);
	tc_textout_put(t, " priv=%u", p->privilege);
	if (p->h.kind == tc_rvtrace_pkt_sync_context)
		return;
	tc_textout_put(t, " branch=%u addr=0x%llx", p->branch, (unsigned long long)p->address);
	if (p->h.kind != tc_rvtrace_pkt_sync_exception)
		return;
	tc_textout_put(t, " ecause=0x%x interrupt=%u", p->ecause, p->interrupt);
	if (p->has_tval)
		tc_textout_put(t, " tval=0x%llx", (unsigned long long)p->tval);
}

static void put_fields(struct tc_textout *t, const struct tc_rvtrace_packet *p)
{
	switch (p->h.kind) {
	case tc_rvtrace_pkt_full_delta:
	case tc_rvtrace_pkt_diff_delta: put_delta(t, p); break;
	case tc_rvtrace_pkt_addr_only:
		if (p->full)
			tc_textout_put(t, " addr=0x%llx", (unsigned long long)p->address);
		else
			put_diff(t, p->diff);
		break;
	case tc_rvtrace_pkt_sync_start:
	case tc_rvtrace_pkt_sync_exception:
	case tc_rvtrace_pkt_sync_context: put_sync(t, p); break;
	case tc_rvtrace_pkt_support: tc_textout_put(t, " enable=%u mode=%u qual=%u", p->enable, p->mode, p->qual); break;
	case tc_rvtrace_pkt_message: tc_textout_put(t, " control=0x%x type=%u", p->control, p->type); break;
	case tc_rvtrace_pkt_timer: tc_textout_put(t, " time=0x%llx", (unsigned long long)p->value); break;
	case tc_rvtrace_pkt_software: tc_textout_put(t, " value=0x%llx", (unsigned long long)p->value); break;
	case tc_rvtrace_pkt_error: tc_textout_put(t, " class=%s", tc_rvtrace_error_name(p->error)); break;
	case tc_rvtrace_pkt_warning:
		tc_textout_put(t, " class=%s field=%s bits=0x%llx", tc_rvtrace_warning_name(p->warning),
		    tc_rvtrace_warning_field_name(p->field), (unsigned long long)p->value);
		break;
	default: break;
	}
}

int tc_rvtrace_format_packet(char *buf, size_t size, const struct tc_rvtrace_packet *p)
{
	struct tc_textout t = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	if (!p)
		return 0;
	tc_textout_put(&t, "@%llu %02x %s", (unsigned long long)p->h.offset, p->byte0, tc_rvtrace_pkt_kind_name(p->h.kind));
	put_fields(&t, p);
	return (int)t.len;
}

/* ---- Parsing L1 (the one parser of what tc_rvtrace_format_packet writes) ------ */

static uint64_t scan_hex_key(struct tc_scan *s, const char *key, uint64_t max)
{
	tc_scan_lit(s, key);
	return tc_scan_hex(s, max);
}

static uint8_t scan_dec_key(struct tc_scan *s, const char *key, uint64_t max)
{
	tc_scan_lit(s, key);
	return (uint8_t)tc_scan_dec(s, max);
}

/* " diff=0xD" or " diff=-0xD" (D not 0 after '-'): −2^63 … 2^63 − 1. */
static int64_t scan_diff(struct tc_scan *s)
{
	uint64_t m;
	tc_scan_lit(s, " diff=");
	if (!tc_scan_next_is(s, "-")) {
		int64_t d = (int64_t)tc_scan_hex(s, INT64_MAX);
		return d;
	}
	if (tc_scan_next_is(s, "-0x0") && (s->p[4] == ' ' || s->p[4] == '\0'))
		return (int64_t)tc_scan_fail(s, "a difference (-0x0 is written 0x0)");
	tc_scan_lit(s, "-");
	m = tc_scan_hex(s, UINT64_C(1) << 63);
	return m == UINT64_C(1) << 63 ? INT64_MIN : -(int64_t)m;
}

/* The branch map: the `branches` valid bits (all 31 with branches = 0). */
static void scan_delta(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	unsigned valid;
	p->branches = scan_dec_key(s, " branches=", 31);
	valid = p->branches ? p->branches : 31;
	p->map = (uint32_t)scan_hex_key(s, " map=", (UINT64_C(1) << valid) - 1);
	if (p->branches == 0)
		return;
	if (p->h.kind == tc_rvtrace_pkt_full_delta)
		p->address = scan_hex_key(s, " addr=", UINT64_MAX);
	else
		p->diff = scan_diff(s);
}

static void scan_addr_only(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	if (tc_scan_next_is(s, " addr=")) {
		p->full = 1;
		p->address = scan_hex_key(s, " addr=", UINT64_MAX);
	} else if (tc_scan_next_is(s, " diff=")) {
		p->diff = scan_diff(s);
	} else {
		tc_scan_fail(s, "' addr=' or ' diff='");
	}
}

static void scan_sync(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	if (tc_scan_next_is(s, " ctx=")) {
		p->context = (uint32_t)scan_hex_key(s, " ctx=", UINT32_MAX);
		p->has_context = 1;
	}
	p->privilege = scan_dec_key(s, " priv=", 15);
	if (p->h.kind == tc_rvtrace_pkt_sync_context)
		return;
	p->branch = scan_dec_key(s, " branch=", 1);
	p->address = scan_hex_key(s, " addr=", UINT64_MAX);
	if (p->h.kind != tc_rvtrace_pkt_sync_exception)
		return;
	p->ecause = (uint16_t)scan_hex_key(s, " ecause=", 0xffff);
	p->interrupt = scan_dec_key(s, " interrupt=", 1);
	if (tc_scan_next_is(s, " tval=")) {
		p->tval = scan_hex_key(s, " tval=", UINT64_MAX);
		p->has_tval = 1;
	}
}

/* qual_status 2 is an error, never a support line (L399). */
static void scan_support(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	p->enable = scan_dec_key(s, " enable=", 1);
	p->mode = scan_dec_key(s, " mode=", 3);
	tc_scan_lit(s, " qual=");
	if (tc_scan_next_is(s, "2"))
		tc_scan_fail(s, "a qual_status of 0, 1 or 3 (2 is reserved)");
	p->qual = (uint8_t)tc_scan_dec(s, 3);
}

/* control_code 0x34 with support_type 0 is a support line (RV-F3). */
static void scan_message(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	p->control = (uint8_t)scan_hex_key(s, " control=", 0x3f);
	tc_scan_lit(s, " type=");
	if (p->control == 0x34 && tc_scan_next_is(s, "0") && (s->p[1] == ' ' || s->p[1] == '\0'))
		tc_scan_fail(s, "a support_type other than 0 with control=0x34 (that is a support line)");
	p->type = (uint8_t)tc_scan_dec(s, 15);
}

static void scan_warning(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	tc_scan_lit(s, " class=");
	p->warning = (uint8_t)tc_scan_name(s, tc_rvtrace_warning_names, 1, tc_rvtrace_warn_count, "a warning class");
	tc_scan_lit(s, " field=");
	p->field = (uint8_t)tc_scan_name(s, field_names, 1, tc_rvtrace_wf_count, "a warning field");
	p->value = scan_hex_key(s, " bits=", UINT64_MAX);
}

/* The fields of put_fields, in its order. */
static void scan_fields(struct tc_scan *s, struct tc_rvtrace_packet *p)
{
	switch (p->h.kind) {
	case tc_rvtrace_pkt_full_delta:
	case tc_rvtrace_pkt_diff_delta: scan_delta(s, p); break;
	case tc_rvtrace_pkt_addr_only: scan_addr_only(s, p); break;
	case tc_rvtrace_pkt_sync_start:
	case tc_rvtrace_pkt_sync_exception:
	case tc_rvtrace_pkt_sync_context: scan_sync(s, p); break;
	case tc_rvtrace_pkt_support: scan_support(s, p); break;
	case tc_rvtrace_pkt_message: scan_message(s, p); break;
	case tc_rvtrace_pkt_timer: p->value = scan_hex_key(s, " time=", UINT64_MAX); break;
	case tc_rvtrace_pkt_software: p->value = scan_hex_key(s, " value=", UINT64_MAX); break;
	case tc_rvtrace_pkt_error:
		tc_scan_lit(s, " class=");
		p->error = (uint8_t)tc_scan_name(s, tc_rvtrace_error_names, 1, tc_rvtrace_err_count, "an error class");
		break;
	case tc_rvtrace_pkt_warning: scan_warning(s, p); break;
	default: break;
	}
}

int tc_rvtrace_parse_packet_text(const char *line, struct tc_rvtrace_packet *p, char *err, size_t errlen)
{
	struct tc_scan s;
	int kind;
	tc_scan_init(&s, line, err, errlen);
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_rvtrace;
	tc_scan_lit(&s, "@");
	p->h.offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	p->byte0 = (uint8_t)tc_scan_hex2(&s);
	tc_scan_lit(&s, " ");
	kind = tc_scan_name(&s, pkt_names, 0, tc_rvtrace_pkt_count, "a packet kind");
	p->h.kind = (uint16_t)(kind < 0 ? 0 : kind);
	if (kind >= 0)
		scan_fields(&s, p);
	return tc_scan_end(&s);
}
