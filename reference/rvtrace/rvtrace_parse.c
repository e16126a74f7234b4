/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_parse.c — one RISC-V processor trace 0.026 packet from a whole frame: te_inst formats 0–3
 * with the sync subformats (Tables 6.1–6.3, L364–389), te_support (Table 6.4, L391–399), trdb's timer
 * and software messages (RV-X3); the error classes and the map and pad warnings of
 * reference/rvtrace/FORMAT.md. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "clause.h"
#include "rvtrace_internal.h"

/* What one frame gives: its packet, then its warnings. */
struct frame_out {
	struct tc_rvtrace_packet *rec;
	int n;
	uint8_t byte0;
	uint64_t offset;
};

static struct tc_rvtrace_packet *add_record(struct frame_out *o, int kind)
{
	struct tc_rvtrace_packet *p = &o->rec[o->n++];
	memset(p, 0, sizeof *p);
	p->h.size = sizeof *p;
	p->h.protocol = tc_proto_rvtrace;
	p->h.kind = (uint16_t)kind;
	p->h.offset = o->offset;
	p->byte0 = o->byte0;
	return p;
}

/* An error replaces the frame's packet and its warnings (RV-P8). Returns -1. */
static int fail(struct frame_out *o, int error)
{
	o->n = 0;
	add_record(o, tc_rvtrace_pkt_error)->error = (uint8_t)error;
	return -1;
}

static void warn(struct frame_out *o, int field, uint64_t bits)
{
	struct tc_rvtrace_packet *w = add_record(o, tc_rvtrace_pkt_warning);
	w->warning = tc_rvtrace_warn_res0;
	w->field = (uint8_t)field;
	w->value = bits;
}

static uint64_t low_bits(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

/* The A-bit field of an address: iaddress_width_p − iaddress_lsb_p (RV-P1; L370, L376, L386). */
static unsigned address_bits(const struct tc_rvtrace_config *cfg)
{
	return (unsigned)(cfg->iaddress_width_p - cfg->iaddress_lsb_p);
}

/* A full address: the field shifted left by iaddress_lsb_p (L386). */
static uint64_t byte_address(const struct tc_rvtrace_config *cfg, uint64_t field)
{
	return field << cfg->iaddress_lsb_p;
}

/* A difference: the A-bit field as a two's-complement number, in units of 2^iaddress_lsb_p bytes
 * (RV-P5). The product lies in −2^(w−1) … 2^(w−1) − 1, w = iaddress_width_p ≤ 64. */
static int64_t byte_difference(const struct tc_rvtrace_config *cfg, uint64_t field)
{
	unsigned a = address_bits(cfg);
	uint64_t sign = UINT64_C(1) << (a - 1);
	uint64_t u = ((field & low_bits(a)) ^ sign) - sign;
	int64_t s;
	memcpy(&s, &u, sizeof s);
	return s * ((int64_t)1 << cfg->iaddress_lsb_p);
}

/* The branch-map length of each value of `branches` (Table 6.1, L368; RV-P2). */
static unsigned map_length(unsigned branches)
{
	TC_CLAUSE("L368", "RV-P2");
	if (branches == 0 || branches >= 26)
		return 31;
	if (branches == 1)
		return 1;
	if (branches <= 9)
		return 9;
	if (branches <= 17)
		return 17;
	return 25;
}

/* Formats 0 and 1 (Table 6.1): branches, the map, the address (absent with branches = 0: RV-P3). */
static int parse_delta(const struct tc_rvtrace_config *cfg, struct rv_bits *r, struct frame_out *o, int format)
{
	uint64_t branches, map, field;
	struct tc_rvtrace_packet *p;
	unsigned len;
	TC_CLAUSE("Table6.1");
	if (format == 1 && cfg->full_address) {
		TC_CLAUSE("RV-P4");
		return fail(o, tc_rvtrace_err_bad_mode);
	}
	if (rv_take(r, 5, &branches))
		return fail(o, tc_rvtrace_err_short_frame);
	len = map_length((unsigned)branches);
	p = add_record(o, format == 0 ? tc_rvtrace_pkt_full_delta : tc_rvtrace_pkt_diff_delta);
	p->branches = (uint8_t)branches;
	if (branches == 0) {
		TC_CLAUSE("RV-P3");
		if (rv_take_ext(r, 31, &map))   /* a full map may be compressed (RV-F5, T8) */
			return fail(o, tc_rvtrace_err_short_frame);
		p->map = (uint32_t)map;
		return 0;
	}
	if (rv_take(r, len, &map))
		return fail(o, tc_rvtrace_err_short_frame);
	p->map = (uint32_t)(map & low_bits((unsigned)branches));
	if (rv_take_ext(r, address_bits(cfg), &field))
		return fail(o, tc_rvtrace_err_short_frame);
	if (format == 0)
		p->address = byte_address(cfg, field);
	else
		p->diff = byte_difference(cfg, field);
	if (map >> branches) {   /* bits of the map above the valid ones: unassigned (RV-R1) */
		TC_CLAUSE("RV-R1");
		warn(o, tc_rvtrace_wf_map, map >> branches);
	}
	return 0;
}

/* Format 2 (Table 6.2): the address, differential unless full_address (L376, RV-P4). */
static int parse_addr_only(const struct tc_rvtrace_config *cfg, struct rv_bits *r, struct frame_out *o)
{
	uint64_t field;
	struct tc_rvtrace_packet *p;
	TC_CLAUSE("Table6.2", "L376");
	if (rv_take_ext(r, address_bits(cfg), &field))
		return fail(o, tc_rvtrace_err_short_frame);
	p = add_record(o, tc_rvtrace_pkt_addr_only);
	p->full = (uint8_t)(cfg->full_address != 0);
	if (p->full)
		p->address = byte_address(cfg, field);
	else
		p->diff = byte_difference(cfg, field);
	return 0;
}

/* Subformat 01's fields after the address: ecause, interrupt, tval (L387–389; RV-P1). */
static int parse_exception_fields(const struct tc_rvtrace_config *cfg, struct rv_bits *r, struct tc_rvtrace_packet *p)
{
	uint64_t v;
	if (rv_take(r, (unsigned)cfg->ecause_width_p, &v))
		return -1;
	p->ecause = (uint16_t)v;
	if (rv_take(r, 1, &v))
		return -1;
	p->interrupt = (uint8_t)v;
	if (cfg->notval_p)
		return 0;
	if (rv_take(r, (unsigned)cfg->iaddress_width_p, &p->tval))
		return -1;
	p->has_tval = 1;
	return 0;
}

/* Format 3 (Table 6.3, L380–389): every field whole (RV-F5, T10). */
static int parse_sync(const struct tc_rvtrace_config *cfg, struct rv_bits *r, struct frame_out *o)
{
	static const int kinds[3] = { tc_rvtrace_pkt_sync_start, tc_rvtrace_pkt_sync_exception,
				      tc_rvtrace_pkt_sync_context };
	uint64_t sub, v;
	struct tc_rvtrace_packet *p;
	TC_CLAUSE("Table6.3");
	if (rv_take(r, 2, &sub))
		return fail(o, tc_rvtrace_err_short_frame);
	TC_CLAUSE_CASE(sub, "L382");
	if (sub == 3)
		return fail(o, tc_rvtrace_err_reserved_subformat);
	p = add_record(o, kinds[sub]);
	if (!cfg->nocontext_p) {   /* L383 */
		if (rv_take(r, (unsigned)cfg->context_width_p, &v))
			return fail(o, tc_rvtrace_err_short_frame);
		p->context = (uint32_t)v;
		p->has_context = 1;
	}
	if (rv_take(r, (unsigned)cfg->privilege_width_p, &v))   /* L384 */
		return fail(o, tc_rvtrace_err_short_frame);
	p->privilege = (uint8_t)v;
	if (sub == 2)   /* no branch, address, ecause, interrupt, tval (L382, RV-S8) */
		return 0;
	if (rv_take(r, 1, &v))   /* L385 */
		return fail(o, tc_rvtrace_err_short_frame);
	p->branch = (uint8_t)v;
	if (rv_take(r, address_bits(cfg), &v))   /* L386 */
		return fail(o, tc_rvtrace_err_short_frame);
	p->address = byte_address(cfg, v);
	if (sub == 1 && parse_exception_fields(cfg, r, p))
		return fail(o, tc_rvtrace_err_short_frame);
	return 0;
}

/* Message type 0 (Table 6.4 after msg_type, RV-F3): control_code, support_type, enable, encoder_mode,
 * qual_status; another control_code or support_type is a message not interpreted. */
static int parse_support(struct rv_bits *r, struct frame_out *o)
{
	uint64_t control, type, enable, mode, qual;
	struct tc_rvtrace_packet *p;
	TC_CLAUSE("Table6.4", "RV-F3");
	if (rv_take(r, 6, &control) || rv_take(r, 4, &type))
		return fail(o, tc_rvtrace_err_short_frame);
	if (control != 0x34 || type != 0) {
		p = add_record(o, tc_rvtrace_pkt_message);
		p->control = (uint8_t)control;
		p->type = (uint8_t)type;
		r->pos = r->nbits;   /* the rest is the message's own: not padding */
		return 0;
	}
	if (rv_take(r, 1, &enable) || rv_take(r, 2, &mode) || rv_take(r, 2, &qual))
		return fail(o, tc_rvtrace_err_short_frame);
	if (qual == 2) {   /* L399 "10: Reserved" (RV-P6) */
		TC_CLAUSE("L399", "RV-P6");
		return fail(o, tc_rvtrace_err_reserved_qual);
	}
	p = add_record(o, tc_rvtrace_pkt_support);
	p->enable = (uint8_t)enable;
	p->mode = (uint8_t)mode;
	p->qual = (uint8_t)qual;
	return 0;
}

/* trdb's timer (timer_width bits) and software (XLEN bits) messages, from payload bit 0, extended
 * past the frame's end as trdb's reader does (RV-X3, T6, T15). */
static void parse_value(const struct tc_rvtrace_config *cfg, struct rv_bits *r, struct frame_out *o, int kind)
{
	unsigned width = kind == tc_rvtrace_pkt_timer ? (unsigned)cfg->timer_width : cfg->rv32 ? 32u : 64u;
	TC_CLAUSE("RV-X3");
	rv_take_ext(r, width, &add_record(o, kind)->value);   /* 2 bits are always there: it cannot fail */
}

static int parse_inst(const struct tc_rvtrace_config *cfg, struct rv_bits *r, struct frame_out *o)
{
	uint64_t format;
	rv_take(r, 2, &format);   /* byte 0 bits [7:6]: always in the frame */
	TC_CLAUSE_CASE(format, "format");
	switch (format) {
	case 0:
	case 1: return parse_delta(cfg, r, o, (int)format);
	case 2: return parse_addr_only(cfg, r, o);
	default: return parse_sync(cfg, r, o);
	}
}

int tc_rvtrace_parse_frame(const struct tc_rvtrace_config *cfg, const uint8_t *b, size_t len, uint64_t offset,
			   struct tc_rvtrace_packet out[TC_RVTRACE_MAX_RECORDS])
{
	struct frame_out o = { out, 0, len ? b[0] : 0, offset };
	struct rv_bits r;
	size_t size = tc_rvtrace_frame_size(cfg, b, len);
	int type, long_form;
	uint64_t pad;
	if (size == 0 || len < size) {
		TC_CLAUSE("RV-F7");
		fail(&o, tc_rvtrace_err_truncated);
		return o.n;
	}
	type = (b[0] >> 4) & 3;
	long_form = size != 1 + (size_t)(b[0] & 0x0f);
	if (long_form && b[1] < 16) {   /* a payload that fits has the short form only (RV-F4) */
		fail(&o, tc_rvtrace_err_bad_length);
		return o.n;
	}
	rv_bits_init(&r, b, size, long_form);
	TC_CLAUSE_CASE(type, "msg_type");
	switch (type) {
	case tc_rvtrace_msg_support: if (parse_support(&r, &o)) return o.n; break;
	case tc_rvtrace_msg_inst: if (parse_inst(cfg, &r, &o)) return o.n; break;
	default: parse_value(cfg, &r, &o, type == tc_rvtrace_msg_timer ? tc_rvtrace_pkt_timer : tc_rvtrace_pkt_software);
	}
	if (rv_padding_odd(&r, &pad))
		warn(&o, tc_rvtrace_wf_pad, pad);
	return o.n;
}
