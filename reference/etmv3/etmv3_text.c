/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_text.c — canonical text of ETMv3 packets (reference/etmv3/FORMAT.md): the writer and the one parser of L1. */
#include <stdio.h>
#include <string.h>

#include "tracecert/etmv3.h"
#include "textscan.h"

static const char *const pkt_names[tc_etmv3_pkt_count] = {
	"async", "cycle-count", "isync", "trigger", "branch", "atom",
	"data", "ooo-data", "placeholder", "value-not-traced", "data-suppressed", "store-failed",
	"context-id", "vmid", "timestamp", "exception-entry", "exception-exit", "ignore",
	"error", "warning"
};

const char *const tc_etmv3_error_names[tc_etmv3_err_count] = {
	"none", "reserved-header", "reserved-field", "truncated", "bad-async", "not-in-version", "bad-mode",
	"no-address"
};

const char *const tc_etmv3_warning_names[tc_etmv3_warn_count] = { "none", "res0", "ignored-field" };

static const char *const field_names[tc_etmv3_wf_count] = {
	"none", "cc-last", "isync-info", "isync-info0", "exc0", "exc1", "exc2", "exc2-last", "exc2-id",
	"lsip-first", "lsip-exc", "daddr-last", "data-size", "ts-last"
};

static const char *const isa_names[tc_etmv3_isa_count] = { "arm", "thumb", "thumbee", "jazelle" };

const char *tc_etmv3_pkt_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_etmv3_pkt_count) ? pkt_names[kind] : "?";
}

const char *tc_etmv3_error_name(int error)
{
	return (error >= 0 && error < tc_etmv3_err_count) ? tc_etmv3_error_names[error] : "?";
}

const char *tc_etmv3_warning_name(int warning)
{
	return (warning >= 0 && warning < tc_etmv3_warn_count) ? tc_etmv3_warning_names[warning] : "?";
}

const char *tc_etmv3_warning_field_name(int field)
{
	return (field >= 0 && field < tc_etmv3_wf_count) ? field_names[field] : "?";
}

const char *tc_etmv3_isa_name(int isa)
{
	return (isa >= 0 && isa < tc_etmv3_isa_count) ? isa_names[isa] : "?";
}

/* Atoms oldest first: W, E or N; "-" for none. */
static void put_atoms(struct tc_textout *t, const struct tc_etmv3_packet *p)
{
	int n = p->natoms > TC_ETMV3_MAX_ATOMS ? TC_ETMV3_MAX_ATOMS : p->natoms;
	if (n == 0)
		tc_textout_put(t, "-");
	for (int i = 0; i < n; i++)
		tc_textout_put(t, "%c", (p->waits >> i) & 1 ? 'W' : (p->atoms >> i) & 1 ? 'E' : 'N');
}

static void put_data_address(struct tc_textout *t, const struct tc_etmv3_packet *p)
{
	if (p->has_address)
		tc_textout_put(t, " addr=0x%lx be=%u", (unsigned long)p->data_address, p->be);
}

static void put_value(struct tc_textout *t, const struct tc_etmv3_packet *p)
{
	if (p->has_value)
		tc_textout_put(t, " value=0x%lx size=%u", (unsigned long)p->value, p->size);
}

static void put_isync(struct tc_textout *t, const struct tc_etmv3_packet *p)
{
	if (p->has_address)
		tc_textout_put(t, " addr=0x%lx isa=%s", (unsigned long)p->address, tc_etmv3_isa_name(p->isa));
	tc_textout_put(t, " reason=%u ns=%u hyp=%u", p->reason, p->ns, p->hyp);
	if (p->lsip)
		tc_textout_put(t, " lsip=0x%lx", (unsigned long)p->data_insn);
	if (p->has_cc)
		tc_textout_put(t, " cc=%lu", (unsigned long)p->cc);
	if (p->has_ctxid)
		tc_textout_put(t, " ctxid=0x%lx", (unsigned long)p->context_id);
}

static void put_branch(struct tc_textout *t, const struct tc_etmv3_packet *p)
{
	tc_textout_put(t, " addr=0x%lx isa=%s ns=%u hyp=%u", (unsigned long)p->address, tc_etmv3_isa_name(p->isa), p->ns,
	    p->hyp);
	if (p->exc_form == tc_etmv3_exc_bytes) {
		tc_textout_put(t, " exc=0x%x can=%u", p->exception, p->cancel);
		if (p->resume)
			tc_textout_put(t, " resume=%u", p->resume);
	} else if (p->exc_form == tc_etmv3_exc_byte5) {
		tc_textout_put(t, " exc5=0x%x can=%u", p->exception, p->cancel);
	}
}

static void put_fields(struct tc_textout *t, const struct tc_etmv3_packet *p)
{
	switch (p->h.kind) {
	case tc_etmv3_pkt_cycle_count: tc_textout_put(t, " cc=%lu", (unsigned long)p->cc); break;
	case tc_etmv3_pkt_isync: put_isync(t, p); break;
	case tc_etmv3_pkt_branch: put_branch(t, p); break;
	case tc_etmv3_pkt_atom:
		tc_textout_put(t, " atoms=");
		put_atoms(t, p);
		break;
	case tc_etmv3_pkt_data:
		put_data_address(t, p);
		put_value(t, p);
		break;
	case tc_etmv3_pkt_ooo_data:
		tc_textout_put(t, " tag=%u", p->tag);
		put_value(t, p);
		break;
	case tc_etmv3_pkt_placeholder:
		tc_textout_put(t, " tag=%u", p->tag);
		put_data_address(t, p);
		break;
	case tc_etmv3_pkt_value_not_traced: put_data_address(t, p); break;
	case tc_etmv3_pkt_context_id: tc_textout_put(t, " ctxid=0x%lx", (unsigned long)p->context_id); break;
	case tc_etmv3_pkt_vmid: tc_textout_put(t, " vmid=0x%lx", (unsigned long)p->vmid); break;
	case tc_etmv3_pkt_timestamp: tc_textout_put(t, " ts=0x%llx r=%u", (unsigned long long)p->ts, p->ts_r); break;
	case tc_etmv3_pkt_error: tc_textout_put(t, " class=%s", tc_etmv3_error_name(p->error)); break;
	case tc_etmv3_pkt_warning:
		tc_textout_put(t, " class=%s field=%s bits=0x%llx", tc_etmv3_warning_name(p->warning),
		    tc_etmv3_warning_field_name(p->field), (unsigned long long)p->ts);
		break;
	default: break;
	}
}

int tc_etmv3_format_packet(char *buf, size_t size, const struct tc_etmv3_packet *p)
{
	struct tc_textout t = { buf, size, 0 };
	if (size > 0)
		buf[0] = '\0';
	if (!p)
		return 0;
	tc_textout_put(&t, "@%llu %02x %s", (unsigned long long)p->h.offset, p->header, tc_etmv3_pkt_kind_name(p->h.kind));
	put_fields(&t, p);
	return (int)t.len;
}

/* ---- Parsing L1 (the one parser of what tc_etmv3_format_packet writes) ------ */

static uint8_t scan_bool(struct tc_scan *s, const char *key)
{
	tc_scan_lit(s, key);
	return (uint8_t)tc_scan_dec(s, 1);
}

static uint32_t scan_hex32(struct tc_scan *s, const char *key)
{
	tc_scan_lit(s, key);
	return (uint32_t)tc_scan_hex(s, UINT32_MAX);
}

/* A value size: 0, 1, 2 or 4 bytes (Table 7-19). */
static uint8_t scan_size(struct tc_scan *s)
{
	tc_scan_lit(s, " size=");
	if (tc_scan_next_is(s, "3"))
		return (uint8_t)tc_scan_fail(s, "a size of 0, 1, 2 or 4");
	return (uint8_t)tc_scan_dec(s, 4);
}

static void scan_data_address(struct tc_scan *s, struct tc_etmv3_packet *p)
{
	if (!tc_scan_next_is(s, " addr="))
		return;
	p->data_address = scan_hex32(s, " addr=");
	p->be = scan_bool(s, " be=");
	p->has_address = 1;
}

static void scan_value(struct tc_scan *s, struct tc_etmv3_packet *p, int required)
{
	if (!required && !tc_scan_next_is(s, " value="))
		return;
	p->value = scan_hex32(s, " value=");
	p->size = scan_size(s);
	p->has_value = 1;
}

static void scan_isync(struct tc_scan *s, struct tc_etmv3_packet *p)
{
	if (tc_scan_next_is(s, " addr=")) {
		p->address = scan_hex32(s, " addr=");
		tc_scan_lit(s, " isa=");
		p->isa = (uint8_t)tc_scan_name(s, isa_names, 0, tc_etmv3_isa_count, "an instruction set");
		p->has_address = 1;
	}
	tc_scan_lit(s, " reason=");
	p->reason = (uint8_t)tc_scan_dec(s, 3);
	p->ns = scan_bool(s, " ns=");
	p->hyp = scan_bool(s, " hyp=");
	if (p->has_address && tc_scan_next_is(s, " lsip=")) {
		p->data_insn = scan_hex32(s, " lsip=");
		p->lsip = 1;
	}
	if (tc_scan_next_is(s, " cc=")) {
		tc_scan_lit(s, " cc=");
		p->cc = (uint32_t)tc_scan_dec(s, UINT32_MAX);
		p->has_cc = 1;
	}
	if (tc_scan_next_is(s, " ctxid=")) {
		p->context_id = scan_hex32(s, " ctxid=");
		p->has_ctxid = 1;
	}
}

static void scan_branch(struct tc_scan *s, struct tc_etmv3_packet *p)
{
	p->address = scan_hex32(s, " addr=");
	tc_scan_lit(s, " isa=");
	p->isa = (uint8_t)tc_scan_name(s, isa_names, 0, tc_etmv3_isa_count, "an instruction set");
	p->ns = scan_bool(s, " ns=");
	p->hyp = scan_bool(s, " hyp=");
	if (tc_scan_next_is(s, " exc=")) {
		tc_scan_lit(s, " exc=");
		p->exception = (uint16_t)tc_scan_hex(s, 0x1ff);   /* Exception[8:0] */
		p->cancel = scan_bool(s, " can=");
		p->exc_form = tc_etmv3_exc_bytes;
		if (tc_scan_next_is(s, " resume=")) {
			tc_scan_lit(s, " resume=");
			if (tc_scan_next_is(s, "0"))
				tc_scan_fail(s, "a resume of 1 to 15 (0 is not shown)");
			p->resume = (uint8_t)tc_scan_dec(s, 15);
		}
	} else if (tc_scan_next_is(s, " exc5=")) {
		tc_scan_lit(s, " exc5=");
		p->exception = (uint16_t)tc_scan_hex(s, 7);   /* EEE, Table 7-9 */
		p->cancel = scan_bool(s, " can=");
		p->exc_form = tc_etmv3_exc_byte5;
	}
}

static void scan_warning(struct tc_scan *s, struct tc_etmv3_packet *p)
{
	tc_scan_lit(s, " class=");
	p->warning = (uint8_t)tc_scan_name(s, tc_etmv3_warning_names, 1, tc_etmv3_warn_count, "a warning class");
	tc_scan_lit(s, " field=");
	p->field = (uint8_t)tc_scan_name(s, field_names, 1, tc_etmv3_wf_count, "a warning field");
	tc_scan_lit(s, " bits=");
	p->ts = tc_scan_hex(s, 0xff);
}

static void scan_atoms(struct tc_scan *s, struct tc_etmv3_packet *p)
{
	int n;
	tc_scan_lit(s, " atoms=");
	p->atoms = tc_scan_atoms_w(s, 0, TC_ETMV3_MAX_ATOMS, &n, &p->waits);
	p->natoms = (uint8_t)n;
}

/* The fields of put_fields, in its order. */
static void scan_fields(struct tc_scan *s, struct tc_etmv3_packet *p)
{
	switch (p->h.kind) {
	case tc_etmv3_pkt_cycle_count:
		tc_scan_lit(s, " cc=");
		p->cc = (uint32_t)tc_scan_dec(s, UINT32_MAX);
		break;
	case tc_etmv3_pkt_isync: scan_isync(s, p); break;
	case tc_etmv3_pkt_branch: scan_branch(s, p); break;
	case tc_etmv3_pkt_atom: scan_atoms(s, p); break;
	case tc_etmv3_pkt_data:
		scan_data_address(s, p);
		scan_value(s, p, 0);
		break;
	case tc_etmv3_pkt_ooo_data:
		tc_scan_lit(s, " tag=");
		p->tag = (uint8_t)tc_scan_dec(s, 3);
		scan_value(s, p, 1);
		break;
	case tc_etmv3_pkt_placeholder:
		tc_scan_lit(s, " tag=");
		p->tag = (uint8_t)tc_scan_dec(s, 3);
		scan_data_address(s, p);
		break;
	case tc_etmv3_pkt_value_not_traced: scan_data_address(s, p); break;
	case tc_etmv3_pkt_context_id: p->context_id = scan_hex32(s, " ctxid="); break;
	case tc_etmv3_pkt_vmid: p->vmid = scan_hex32(s, " vmid="); break;
	case tc_etmv3_pkt_timestamp:
		tc_scan_lit(s, " ts=");
		p->ts = tc_scan_hex(s, UINT64_MAX);
		p->ts_r = scan_bool(s, " r=");
		break;
	case tc_etmv3_pkt_error:
		tc_scan_lit(s, " class=");
		p->error = (uint8_t)tc_scan_name(s, tc_etmv3_error_names, 1, tc_etmv3_err_count, "an error class");
		break;
	case tc_etmv3_pkt_warning: scan_warning(s, p); break;
	default: break;
	}
}

int tc_etmv3_parse_packet_text(const char *line, struct tc_etmv3_packet *p, char *err, size_t errlen)
{
	struct tc_scan s;
	int kind;
	tc_scan_init(&s, line, err, errlen);
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_etmv3;
	tc_scan_lit(&s, "@");
	p->h.offset = tc_scan_dec(&s, UINT64_MAX);
	tc_scan_lit(&s, " ");
	p->header = (uint8_t)tc_scan_hex2(&s);
	tc_scan_lit(&s, " ");
	kind = tc_scan_name(&s, pkt_names, 0, tc_etmv3_pkt_count, "a packet kind");
	p->h.kind = (uint16_t)(kind < 0 ? 0 : kind);
	scan_fields(&s, p);
	return tc_scan_end(&s);
}

/* The shared L3 text (reference/L3FORMAT.md), written by the one L3
 * writer of every protocol (reference/l3text.c) with ETMv3's error classes. */
int tc_etmv3_format_l3(char *buf, size_t size, const struct tc_l3 *x)
{
	if (size > 0)
		buf[0] = '\0';
	if (!x)
		return 0;
	return tc_l3_format(buf, size, x, tc_etmv3_error_names, tc_etmv3_err_count);
}
