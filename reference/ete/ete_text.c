/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_text.c — canonical text of ETE packets and elements (reference/ete/FORMAT.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/ete.h"
#include "insn.h"
#include "textscan.h"

const char *const tc_ete_error_names[tc_ete_err_count] = {
	"none", "reserved-header", "reserved-extension", "reserved-field", "sbz",
	"truncated", "field-overflow", "exact-match-index", "commit-overrun",
	"cancel-overrun", "bad-async", "spec-mismatch", "queue-overflow"
};

static const char *const pkt_names[tc_ete_pkt_count] = {
	"async", "discard", "overflow", "trace-info", "timestamp", "trace-on",
	"exception", "tx-start", "tx-commit", "cycle-count", "commit", "cancel",
	"mispredict", "ignore", "event", "context", "addr-ctx", "address", "q",
	"source-address", "atom", "ts-marker", "instrumentation", "error", "warning"
};

static const char *const elem_names[tc_ete_elem_count] = {
	"trace-info", "trace-on", "discard", "overflow", "timestamp",
	"cycle-count", "commit", "cancel", "mispredict", "atom", "q",
	"exception", "event", "context", "target-address", "source-address",
	"trans-start", "trans-commit", "trans-failure", "ts-marker",
	"instrumentation", "error", "unresolved"
};


const char *const tc_ete_warning_names[tc_ete_warn_count] = { "none", "res0", "ignored-field" };

static const char *const warning_field_names[tc_ete_wf_count] = {
	"none", "plctl", "info", "exception", "instrumentation", "cc-f2-f", "cc-f2-aaaa", "cc-f3-aa",
	"source-address"
};


const char *tc_ete_error_name(int error)
{
	return (error >= 0 && error < tc_ete_err_count) ? tc_ete_error_names[error] : "?";
}

void tc_ete_packet_init(struct tc_ete_packet *p, int kind, uint64_t offset)
{
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_ete;
	p->h.kind = (uint16_t)kind;
	p->h.offset = offset;
}

void tc_ete_elem_init(struct tc_ete_elem *e, int kind, uint64_t offset)
{
	memset(e, 0, sizeof *e);
	e->h.size = sizeof *e;
	e->h.protocol = tc_proto_ete;
	e->h.kind = (uint16_t)kind;
	e->h.offset = offset;
}

const char *tc_ete_warning_name(int warning)
{
	return (warning >= 0 && warning < tc_ete_warn_count) ? tc_ete_warning_names[warning] : "?";
}

const char *tc_ete_warning_field_name(int field)
{
	return (field >= 0 && field < tc_ete_wf_count) ? warning_field_names[field] : "?";
}

const char *tc_ete_pkt_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_ete_pkt_count) ? pkt_names[kind] : "?";
}

const char *tc_ete_elem_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_ete_elem_count) ? elem_names[kind] : "?";
}

/* An atom string; at most the 32 atoms the field holds (a packet has at
 * most 24; found by fuzz/format: fuzz/corpus/format/ubsan-put-atoms-natoms-33.bin). */
static void put_atoms(struct tc_textout *t, uint32_t atoms, int n)
{
	if (n == 0) {
		tc_textout_put(t, "-");
		return;
	}
	if (n > 32)
		n = 32;
	for (int i = 0; i < n; i++)
		tc_textout_put(t, "%c", (atoms >> i) & 1 ? 'E' : 'N');
}

/* The context; ` nse=1` only when FEAT_RME's NSE bit is set (rme=1, TC-P8). */
static void put_context(struct tc_textout *t, const struct tc_context *c)
{
	tc_textout_put(t, " el=%u ns=%u sf=%u ctxid=0x%lx vmid=0x%lx", c->el, c->ns, c->sf,
	    (unsigned long)c->context_id, (unsigned long)c->vmid);
	if (c->nse)
		tc_textout_put(t, " nse=%u", c->nse);
}

static void put_address(struct tc_textout *t, uint64_t address, int isa)
{
	tc_textout_put(t, " addr=0x%llx isa=%d", (unsigned long long)address, isa);
}

static void put_events(struct tc_textout *t, int mask)
{
	const char *sep = " events=";
	for (int i = 0; i < 4; i++) {
		if ((mask >> i) & 1) {
			tc_textout_put(t, "%s%d", sep, i);
			sep = ",";
		}
	}
}

static void put_exception_packet(struct tc_textout *t, const struct tc_ete_packet *p)
{
	tc_textout_put(t, " e=%u type=0x%x", p->e, p->type);
	if (p->has_address)
		put_address(t, p->address, p->isa);
	else
		tc_textout_put(t, " addr=unknown");
	if (p->has_context)
		put_context(t, &p->ctx);
}

static void put_packet_fields(struct tc_textout *t, const struct tc_ete_packet *p)
{
	switch (p->h.kind) {
	case tc_ete_pkt_trace_info:
		tc_textout_put(t, " cc=%u cct=%lu spec=%lu tx=%u", p->cc_enabled, (unsigned long)p->cct,
		    (unsigned long)p->spec, p->in_tx);
		if (p->has_wndw)
			tc_textout_put(t, " wndw=%lu", (unsigned long)p->wndw);
		break;
	case tc_ete_pkt_timestamp:
		tc_textout_put(t, " ts=0x%llx", (unsigned long long)p->value);
		if (p->has_cc)
			tc_textout_put(t, " cc=%llu", (unsigned long long)p->count);
		break;
	case tc_ete_pkt_exception:
		put_exception_packet(t, p);
		break;
	case tc_ete_pkt_cycle_count:
		tc_textout_put(t, " commit=%llu", (unsigned long long)p->commit);
		if (p->cc_unknown)
			tc_textout_put(t, " cc=unknown");
		else
			tc_textout_put(t, " cc=%llu", (unsigned long long)p->count);
		break;
	case tc_ete_pkt_commit:
		tc_textout_put(t, " n=%llu", (unsigned long long)p->count);
		break;
	case tc_ete_pkt_cancel:
		tc_textout_put(t, " atoms=");
		put_atoms(t, p->atoms, p->natoms);
		tc_textout_put(t, " n=%llu mispredict=%u", (unsigned long long)p->count, p->mispredict);
		break;
	case tc_ete_pkt_mispredict:
	case tc_ete_pkt_atom:
		tc_textout_put(t, " atoms=");
		put_atoms(t, p->atoms, p->natoms);
		break;
	case tc_ete_pkt_event:
		put_events(t, p->events);
		break;
	case tc_ete_pkt_context:
		put_context(t, &p->ctx);
		break;
	case tc_ete_pkt_addr_ctx:
		put_address(t, p->address, p->isa);
		put_context(t, &p->ctx);
		break;
	case tc_ete_pkt_address:
	case tc_ete_pkt_source_address:
		put_address(t, p->address, p->isa);
		break;
	case tc_ete_pkt_q:
		tc_textout_put(t, " type=0x%x", p->type);
		if (p->has_address)
			put_address(t, p->address, p->isa);
		tc_textout_put(t, " n=%llu", (unsigned long long)p->count);
		break;
	case tc_ete_pkt_instrumentation:
		tc_textout_put(t, " el=%u value=0x%llx", p->ctx.el, (unsigned long long)p->value);
		break;
	case tc_ete_pkt_error:
		tc_textout_put(t, " class=%s", tc_ete_error_name(p->error));
		break;
	case tc_ete_pkt_warning:
		tc_textout_put(t, " class=%s field=%s bits=0x%llx", tc_ete_warning_name(p->warning),
		    tc_ete_warning_field_name(p->field), (unsigned long long)p->value);
		break;
	default:
		break;
	}
}

int tc_ete_format_packet(char *buf, size_t size, const struct tc_ete_packet *p)
{
	struct tc_textout t = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	tc_textout_put(&t, "@%llu %02x %s", (unsigned long long)p->h.offset, p->header,
	    tc_ete_pkt_kind_name(p->h.kind));
	put_packet_fields(&t, p);
	return (int)t.len;
}

static void put_elem_fields(struct tc_textout *t, const struct tc_ete_elem *e)
{
	switch (e->h.kind) {
	case tc_ete_elem_trace_info:
		tc_textout_put(t, " cc=%u cct=%lu spec=%lu tx=%u", e->cc_enabled, (unsigned long)e->cct,
		    (unsigned long)e->spec, e->in_tx);
		break;
	case tc_ete_elem_timestamp:
		tc_textout_put(t, " ts=0x%llx", (unsigned long long)e->value);
		if (e->unknown)
			tc_textout_put(t, " cc=unknown");
		else
			tc_textout_put(t, " cc=%llu", (unsigned long long)e->count);
		break;
	case tc_ete_elem_cycle_count:
		if (e->unknown)
			tc_textout_put(t, " n=unknown");
		else
			tc_textout_put(t, " n=%llu", (unsigned long long)e->count);
		break;
	case tc_ete_elem_commit:
	case tc_ete_elem_cancel:
	case tc_ete_elem_q:
	case tc_ete_elem_event:
	case tc_ete_elem_unresolved:
		tc_textout_put(t, " n=%llu", (unsigned long long)e->count);
		break;
	case tc_ete_elem_atom:
		tc_textout_put(t, " %c", e->atom_e ? 'E' : 'N');
		break;
	case tc_ete_elem_exception:
		tc_textout_put(t, " type=0x%x addr=0x%llx", e->type, (unsigned long long)e->address);
		break;
	case tc_ete_elem_context:
		put_context(t, &e->ctx);
		break;
	case tc_ete_elem_target_address:
	case tc_ete_elem_source_address:
		put_address(t, e->address, e->isa);
		break;
	case tc_ete_elem_instrumentation:
		tc_textout_put(t, " el=%u value=0x%llx", e->ctx.el, (unsigned long long)e->value);
		break;
	case tc_ete_elem_error:
		tc_textout_put(t, " class=%s", tc_ete_error_name(e->error));
		break;
	default:
		break;
	}
}

int tc_ete_format_elem(char *buf, size_t size, const struct tc_ete_elem *e)
{
	struct tc_textout t = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	tc_textout_put(&t, "@%llu %s", (unsigned long long)e->h.offset, tc_ete_elem_kind_name(e->h.kind));
	put_elem_fields(&t, e);
	return (int)t.len;
}

/* L3 items are protocol-neutral: the one writer (reference/l3text.c) with
 * ETE's error class names. */
int tc_ete_format_l3(char *buf, size_t size, const struct tc_l3 *x)
{
	return tc_l3_format(buf, size, x, tc_ete_error_names, tc_ete_err_count);
}

/* ---- Parsing L1 (the one parser of what tc_ete_format_packet writes) -------- */

static uint8_t scan_bool(struct tc_scan *s, const char *key)
{
	tc_scan_lit(s, key);
	return (uint8_t)tc_scan_dec(s, 1);
}

static void scan_context(struct tc_scan *s, struct tc_context *c)
{
	tc_scan_lit(s, " el=");
	c->el = (uint8_t)tc_scan_dec(s, 3);
	c->ns = scan_bool(s, " ns=");
	c->sf = scan_bool(s, " sf=");
	tc_scan_lit(s, " ctxid=");
	c->context_id = (uint32_t)tc_scan_hex(s, UINT32_MAX);
	tc_scan_lit(s, " vmid=");
	c->vmid = (uint32_t)tc_scan_hex(s, UINT32_MAX);
	if (tc_scan_next_is(s, " nse="))
		c->nse = (uint8_t)tc_scan_lit(s, " nse=1");   /* the writer prints it only when set */
}

static void scan_address(struct tc_scan *s, struct tc_ete_packet *p)
{
	tc_scan_lit(s, " addr=");
	p->address = tc_scan_hex(s, UINT64_MAX);
	p->isa = scan_bool(s, " isa=");
}

static void scan_atoms(struct tc_scan *s, struct tc_ete_packet *p, int min)
{
	int n;
	tc_scan_lit(s, " atoms=");
	p->atoms = tc_scan_atoms(s, min, 32, &n);
	p->natoms = (uint8_t)n;
}

/* " events=I[,I…]", ascending event numbers 0..3; nothing for none. */
static void scan_events(struct tc_scan *s, struct tc_ete_packet *p)
{
	int last = -1;
	if (!tc_scan_next_is(s, " "))
		return;
	tc_scan_lit(s, " events=");
	for (;;) {
		const char *at = s->p;
		int i = (int)tc_scan_dec(s, 3);
		if (!s->bad && i <= last) {
			s->p = at;
			tc_scan_fail(s, "an event number above the one before it");
		}
		last = i;
		p->events |= (uint8_t)(1u << i);
		if (s->bad || *s->p != ',')
			break;
		s->p++;
	}
}

static void scan_trace_info(struct tc_scan *s, struct tc_ete_packet *p)
{
	p->cc_enabled = scan_bool(s, " cc=");
	tc_scan_lit(s, " cct=");
	p->cct = (uint32_t)tc_scan_dec(s, UINT32_MAX);
	tc_scan_lit(s, " spec=");
	p->spec = (uint32_t)tc_scan_dec(s, UINT32_MAX);
	p->in_tx = scan_bool(s, " tx=");
	if (tc_scan_next_is(s, " wndw=")) {
		tc_scan_lit(s, " wndw=");
		p->wndw = (uint32_t)tc_scan_dec(s, UINT32_MAX);
		p->has_wndw = 1;
	}
}

static void scan_exception(struct tc_scan *s, struct tc_ete_packet *p)
{
	static const char *const e_values[] = { "0", "1", "2" };
	tc_scan_lit(s, " e=");
	p->e = (uint8_t)tc_scan_name(s, e_values, 1, 3, "E");
	tc_scan_lit(s, " type=");
	p->type = (uint8_t)tc_scan_hex(s, UINT8_MAX);
	if (tc_scan_next_is(s, " addr=unknown")) {
		tc_scan_lit(s, " addr=unknown");
	} else {
		scan_address(s, p);
		p->has_address = 1;
	}
	if (tc_scan_next_is(s, " ")) {
		scan_context(s, &p->ctx);
		p->has_context = 1;
	}
}

static void scan_cycle_count(struct tc_scan *s, struct tc_ete_packet *p)
{
	tc_scan_lit(s, " commit=");
	p->commit = tc_scan_dec(s, UINT64_MAX);
	tc_scan_lit(s, " cc=");
	if (tc_scan_next_is(s, "unknown"))
		p->cc_unknown = (uint8_t)tc_scan_lit(s, "unknown");
	else
		p->count = tc_scan_dec(s, UINT64_MAX);
}

static void scan_q(struct tc_scan *s, struct tc_ete_packet *p)
{
	tc_scan_lit(s, " type=");
	p->type = (uint8_t)tc_scan_hex(s, UINT8_MAX);
	if (tc_scan_next_is(s, " addr=")) {
		scan_address(s, p);
		p->has_address = 1;
	}
	tc_scan_lit(s, " n=");
	p->count = tc_scan_dec(s, UINT64_MAX);
}

static void scan_warning(struct tc_scan *s, struct tc_ete_packet *p)
{
	tc_scan_lit(s, " class=");
	p->warning = (uint8_t)tc_scan_name(s, tc_ete_warning_names, 1, tc_ete_warn_count, "a warning class");
	tc_scan_lit(s, " field=");
	p->field = (uint8_t)tc_scan_name(s, warning_field_names, 1, tc_ete_wf_count, "a warning field");
	tc_scan_lit(s, " bits=");
	p->value = tc_scan_hex(s, UINT64_MAX);
}

/* The fields of put_packet_fields, in its order. */
static void scan_packet_fields(struct tc_scan *s, struct tc_ete_packet *p)
{
	switch (p->h.kind) {
	case tc_ete_pkt_trace_info:
		scan_trace_info(s, p);
		break;
	case tc_ete_pkt_timestamp:
		tc_scan_lit(s, " ts=");
		p->value = tc_scan_hex(s, UINT64_MAX);
		if (tc_scan_next_is(s, " cc=")) {
			tc_scan_lit(s, " cc=");
			p->count = tc_scan_dec(s, UINT64_MAX);
			p->has_cc = 1;
		}
		break;
	case tc_ete_pkt_exception:
		scan_exception(s, p);
		break;
	case tc_ete_pkt_cycle_count:
		scan_cycle_count(s, p);
		break;
	case tc_ete_pkt_commit:
		tc_scan_lit(s, " n=");
		p->count = tc_scan_dec(s, UINT64_MAX);
		break;
	case tc_ete_pkt_cancel:
		scan_atoms(s, p, 0);
		tc_scan_lit(s, " n=");
		p->count = tc_scan_dec(s, UINT64_MAX);
		p->mispredict = scan_bool(s, " mispredict=");
		break;
	case tc_ete_pkt_mispredict:
		scan_atoms(s, p, 0);
		break;
	case tc_ete_pkt_atom:
		scan_atoms(s, p, 1);
		break;
	case tc_ete_pkt_event:
		scan_events(s, p);
		break;
	case tc_ete_pkt_context:
		scan_context(s, &p->ctx);
		break;
	case tc_ete_pkt_addr_ctx:
		scan_address(s, p);
		scan_context(s, &p->ctx);
		break;
	case tc_ete_pkt_address:
	case tc_ete_pkt_source_address:
		scan_address(s, p);
		break;
	case tc_ete_pkt_q:
		scan_q(s, p);
		break;
	case tc_ete_pkt_instrumentation:
		tc_scan_lit(s, " el=");
		p->ctx.el = (uint8_t)tc_scan_dec(s, 3);
		tc_scan_lit(s, " value=");
		p->value = tc_scan_hex(s, UINT64_MAX);
		break;
	case tc_ete_pkt_error:
		tc_scan_lit(s, " class=");
		p->error = (uint8_t)tc_scan_name(s, tc_ete_error_names, 1, tc_ete_err_count, "an error class");
		break;
	case tc_ete_pkt_warning:
		scan_warning(s, p);
		break;
	default:
		break;
	}
}

int tc_ete_parse_packet_text(const char *line, struct tc_ete_packet *p, char *err, size_t errlen)
{
	struct tc_scan s;
	uint64_t offset;
	unsigned header;
	int kind;
	tc_scan_init(&s, line, err, errlen);
	tc_scan_lit(&s, "@");
	offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	header = tc_scan_hex2(&s);
	tc_scan_lit(&s, " ");
	kind = tc_scan_name(&s, pkt_names, 0, tc_ete_pkt_count, "a packet kind");
	tc_ete_packet_init(p, kind < 0 ? 0 : kind, offset);
	p->header = (uint8_t)header;
	scan_packet_fields(&s, p);
	return tc_scan_end(&s);
}
