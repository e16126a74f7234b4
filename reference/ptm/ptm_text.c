/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_text.c — canonical text of PTM packets and L3 items (reference/ptm/FORMAT.md), and configuration keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/ptm.h"
#include "textscan.h"

static const char *const pkt_names[tc_ptm_pkt_count] = {
	"async", "isync", "atom", "branch", "waypoint", "trigger", "context-id", "vmid",
	"timestamp", "exception-return", "ignore", "error", "warning"
};

const char *const tc_ptm_error_names[tc_ptm_err_count] = {
	"none", "reserved-header", "reserved-field", "truncated", "bad-async"
};

const char *const tc_ptm_warning_names[tc_ptm_warn_count] = { "none", "res0", "ignored-field" };

static const char *const field_names[tc_ptm_wf_count] = {
	"none", "atom", "addr5", "addr-last", "exc0", "exc1", "wp-info", "isync-info",
	"cc-first", "cc-last", "ts-last", "wpu-first", "isync-info0"
};

static const char *const isa_names[tc_ptm_isa_count] = { "arm", "thumb", "thumbee", "jazelle" };

const char *tc_ptm_pkt_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_ptm_pkt_count) ? pkt_names[kind] : "?";
}

const char *tc_ptm_error_name(int error)
{
	return (error >= 0 && error < tc_ptm_err_count) ? tc_ptm_error_names[error] : "?";
}

const char *tc_ptm_warning_name(int warning)
{
	return (warning >= 0 && warning < tc_ptm_warn_count) ? tc_ptm_warning_names[warning] : "?";
}

const char *tc_ptm_warning_field_name(int field)
{
	return (field >= 0 && field < tc_ptm_wf_count) ? field_names[field] : "?";
}

const char *tc_ptm_isa_name(int isa)
{
	return (isa >= 0 && isa < tc_ptm_isa_count) ? isa_names[isa] : "?";
}

const char *tc_ptm_l3_kind_name(int kind)
{
	return tc_l3_kind_name(kind);   /* the shared names (reference/l3text.c) */
}

static void put_atoms(struct tc_textout *t, uint32_t atoms, int n)
{
	if (n > 32)
		n = 32;
	for (int i = 0; i < n; i++)
		tc_textout_put(t, "%c", (atoms >> i) & 1 ? 'E' : 'N');
}

static void put_cc(struct tc_textout *t, const struct tc_ptm_packet *p)
{
	if (p->has_cc)
		tc_textout_put(t, " cc=%lu", (unsigned long)p->cc);
}

static void put_fields(struct tc_textout *t, const struct tc_ptm_packet *p)
{
	switch (p->h.kind) {
	case tc_ptm_pkt_isync:
		tc_textout_put(t, " addr=0x%lx isa=%s reason=%u ns=%u hyp=%u", (unsigned long)p->address,
		    tc_ptm_isa_name(p->isa), p->reason, p->ns, p->hyp);
		put_cc(t, p);
		if (p->has_ctxid)
			tc_textout_put(t, " ctxid=0x%lx", (unsigned long)p->context_id);
		break;
	case tc_ptm_pkt_atom:
		tc_textout_put(t, " atoms=");
		put_atoms(t, p->atoms, p->natoms);
		put_cc(t, p);
		break;
	case tc_ptm_pkt_branch:
		tc_textout_put(t, " addr=0x%lx isa=%s ns=%u hyp=%u", (unsigned long)p->address,
		    tc_ptm_isa_name(p->isa), p->ns, p->hyp);
		if (p->has_exception)
			tc_textout_put(t, " exc=0x%x", p->exception);
		put_cc(t, p);
		break;
	case tc_ptm_pkt_waypoint:
		tc_textout_put(t, " addr=0x%lx isa=%s", (unsigned long)p->address, tc_ptm_isa_name(p->isa));
		break;
	case tc_ptm_pkt_context_id:
		tc_textout_put(t, " ctxid=0x%lx", (unsigned long)p->context_id);
		break;
	case tc_ptm_pkt_vmid:
		tc_textout_put(t, " vmid=0x%lx", (unsigned long)p->vmid);
		break;
	case tc_ptm_pkt_timestamp:
		tc_textout_put(t, " ts=0x%llx", (unsigned long long)p->value);
		put_cc(t, p);
		break;
	case tc_ptm_pkt_error:
		tc_textout_put(t, " class=%s", tc_ptm_error_name(p->error));
		break;
	case tc_ptm_pkt_warning:
		tc_textout_put(t, " class=%s field=%s bits=0x%llx", tc_ptm_warning_name(p->warning),
		    tc_ptm_warning_field_name(p->field), (unsigned long long)p->value);
		break;
	default:
		break;
	}
}

int tc_ptm_format_packet(char *buf, size_t size, const struct tc_ptm_packet *p)
{
	struct tc_textout t = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	if (!p)
		return 0;
	tc_textout_put(&t, "@%llu %02x %s", (unsigned long long)p->h.offset, p->header, tc_ptm_pkt_kind_name(p->h.kind));
	put_fields(&t, p);
	return (int)t.len;
}

/* ---- Parsing L1 (the one parser of what tc_ptm_format_packet writes) -------- */

static uint8_t scan_bool(struct tc_scan *s, const char *key)
{
	tc_scan_lit(s, key);
	return (uint8_t)tc_scan_dec(s, 1);
}

/* " addr=0xA isa=I" */
static void scan_address(struct tc_scan *s, struct tc_ptm_packet *p)
{
	tc_scan_lit(s, " addr=");
	p->address = (uint32_t)tc_scan_hex(s, UINT32_MAX);
	tc_scan_lit(s, " isa=");
	p->isa = (uint8_t)tc_scan_name(s, isa_names, 0, tc_ptm_isa_count, "an instruction set");
}

/* put_cc: " cc=N" when there is one. */
static void scan_cc(struct tc_scan *s, struct tc_ptm_packet *p)
{
	if (!tc_scan_next_is(s, " cc="))
		return;
	tc_scan_lit(s, " cc=");
	p->cc = (uint32_t)tc_scan_dec(s, UINT32_MAX);
	p->has_cc = 1;
}

static void scan_isync(struct tc_scan *s, struct tc_ptm_packet *p)
{
	scan_address(s, p);
	tc_scan_lit(s, " reason=");
	p->reason = (uint8_t)tc_scan_dec(s, 3);
	p->ns = scan_bool(s, " ns=");
	p->hyp = scan_bool(s, " hyp=");
	scan_cc(s, p);
	if (tc_scan_next_is(s, " ctxid=")) {
		tc_scan_lit(s, " ctxid=");
		p->context_id = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		p->has_ctxid = 1;
	}
}

static void scan_branch(struct tc_scan *s, struct tc_ptm_packet *p)
{
	scan_address(s, p);
	p->ns = scan_bool(s, " ns=");
	p->hyp = scan_bool(s, " hyp=");
	if (tc_scan_next_is(s, " exc=")) {
		tc_scan_lit(s, " exc=");
		p->exception = (uint16_t)tc_scan_hex(s, 0x1ff);   /* Exception[8:0] */
		p->has_exception = 1;
	}
	scan_cc(s, p);
}

static void scan_warning(struct tc_scan *s, struct tc_ptm_packet *p)
{
	tc_scan_lit(s, " class=");
	p->warning = (uint8_t)tc_scan_name(s, tc_ptm_warning_names, 1, tc_ptm_warn_count, "a warning class");
	tc_scan_lit(s, " field=");
	p->field = (uint8_t)tc_scan_name(s, field_names, 1, tc_ptm_wf_count, "a warning field");
	tc_scan_lit(s, " bits=");
	p->value = tc_scan_hex(s, UINT64_MAX);
}

/* The fields of put_fields, in its order. */
static void scan_fields(struct tc_scan *s, struct tc_ptm_packet *p)
{
	int n;
	switch (p->h.kind) {
	case tc_ptm_pkt_isync:
		scan_isync(s, p);
		break;
	case tc_ptm_pkt_atom:
		tc_scan_lit(s, " atoms=");
		p->atoms = tc_scan_atoms(s, 1, 32, &n);
		p->natoms = (uint8_t)n;
		scan_cc(s, p);
		break;
	case tc_ptm_pkt_branch:
		scan_branch(s, p);
		break;
	case tc_ptm_pkt_waypoint:
		scan_address(s, p);
		break;
	case tc_ptm_pkt_context_id:
		tc_scan_lit(s, " ctxid=");
		p->context_id = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		break;
	case tc_ptm_pkt_vmid:
		tc_scan_lit(s, " vmid=");
		p->vmid = (uint32_t)tc_scan_hex(s, UINT32_MAX);
		break;
	case tc_ptm_pkt_timestamp:
		tc_scan_lit(s, " ts=");
		p->value = tc_scan_hex(s, UINT64_MAX);
		scan_cc(s, p);
		break;
	case tc_ptm_pkt_error:
		tc_scan_lit(s, " class=");
		p->error = (uint8_t)tc_scan_name(s, tc_ptm_error_names, 1, tc_ptm_err_count, "an error class");
		break;
	case tc_ptm_pkt_warning:
		scan_warning(s, p);
		break;
	default:
		break;
	}
}

int tc_ptm_parse_packet_text(const char *line, struct tc_ptm_packet *p, char *err, size_t errlen)
{
	struct tc_scan s;
	int kind;
	tc_scan_init(&s, line, err, errlen);
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_ptm;
	tc_scan_lit(&s, "@");
	p->h.offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	p->header = (uint8_t)tc_scan_hex2(&s);
	tc_scan_lit(&s, " ");
	kind = tc_scan_name(&s, pkt_names, 0, tc_ptm_pkt_count, "a packet kind");
	p->h.kind = (uint16_t)(kind < 0 ? 0 : kind);
	scan_fields(&s, p);
	return tc_scan_end(&s);
}

/* The shared L3 text (reference/L3FORMAT.md), written by the one L3
 * writer of every protocol (reference/l3text.c) with PTM's error classes;
 * exception-return and trigger are kinds of its own. Exception types are
 * Exception[8:0], nine bits: ETE's writer (an 8-bit type) would cut them
 * (vectors/ptm/regress/exception-type-9-bits.tcv). */
int tc_ptm_format_l3(char *buf, size_t size, const struct tc_l3 *x)
{
	if (size > 0)
		buf[0] = '\0';
	if (!x)
		return 0;
	return tc_l3_format(buf, size, x, tc_ptm_error_names, tc_ptm_err_count);
}

