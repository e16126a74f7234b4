/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_packets.c — the frames of the packets (ERRATA RV-F1…RV-F6, reference/rvtrace/FORMAT.md "The
 * bytes"): payloads least-significant bit first in table order (Tables 6.1–6.4, L364–399), an address
 * or full map kept to the fewest bits that copies of the frame's last bit restore (RV-F5), padding
 * with copies of the last field's last bit (RV-F6), the long form past 15 bytes (RV-F4); and the L1
 * line of each packet. */
#include <string.h>

#include "rvenc_internal.h"

struct bitw {
	uint8_t bit[8 * TC_RVTRACE_MAX_FRAME];
	unsigned n;        /* payload bits written */
	unsigned keep;     /* payload bits the frame must hold */
};

static void put(struct bitw *w, uint64_t v, unsigned width)
{
	for (unsigned i = 0; i < width; i++)
		w->bit[w->n++] = (uint8_t)((v >> (i < 64 ? i : 63)) & 1);
	w->keep = w->n;
}

static uint64_t low(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

/* The fewest low bits of the width-bit value v whose sign extension gives v (T7: at least one). */
static unsigned sign_bits(uint64_t v, unsigned width)
{
	v &= low(width);
	unsigned k = width;
	while (k > 1 && ((v >> (k - 1)) & 1) == ((v >> (k - 2)) & 1))
		k--;
	return k;
}

/* A field that may stop early (RV-F5): written whole, but the frame need hold only k of its bits. */
static void put_compressed(struct bitw *w, uint64_t v, unsigned width, unsigned *kept)
{
	unsigned at = w->n;
	*kept = sign_bits(v, width);
	put(w, v, width);
	w->keep = at + *kept;
}

static unsigned address_bits(const struct tc_rvtrace_config *cfg)
{
	return (unsigned)(cfg->iaddress_width_p - cfg->iaddress_lsb_p);
}

/* The bytes of one frame of message type `type` (RV-F2, RV-F4): returns byte 0. The payload
 * takes the fewest bytes that hold the bits it must keep, or f->bytes when more; the long form
 * past 15 bytes, or when f->long_form. */
static uint8_t frame(struct rvenc_ctx *c, struct bitw *w, int type, const struct rvenc_frame *f_size,
		     struct enc_buf *out)
{
	unsigned bytes = w->keep <= 2 ? 0 : (w->keep - 2 + 7) / 8;
	unsigned long_form, first, total;
	if (f_size->bytes > bytes)
		bytes = f_size->bytes;
	long_form = bytes > 15 || f_size->long_form;
	first = long_form ? 2 : 1;
	total = 8 * bytes + 2;
	uint8_t f[TC_RVTRACE_MAX_FRAME];
	uint8_t last = w->bit[w->n - 1];
	memset(f, 0, sizeof f);
	for (unsigned p = w->n; p < total; p++)   /* padding: copies of the last field's last bit (RV-F6) */
		w->bit[p] = last;
	f[0] = (uint8_t)((long_form ? 0 : bytes) | (unsigned)type << 4 | w->bit[0] << 6 | w->bit[1] << 7);
	if (long_form) {
		f[1] = (uint8_t)bytes;
		rvenc_hit(c, "frame-long");
	} else {
		rvenc_hit(c, "frame-n%u", bytes);
	}
	for (unsigned p = 2; p < total; p++)
		f[first + (p - 2) / 8] |= (uint8_t)(w->bit[p] << ((p - 2) % 8));
	enc_buf_put(out, f, first + bytes);
	return f[0];
}

static const char *length_class(unsigned branches)
{
	if (branches == 0) return "0";
	if (branches == 1) return "1";
	if (branches <= 9) return "2-9";
	if (branches <= 17) return "10-17";
	if (branches <= 25) return "18-25";
	return branches == 31 ? "31" : "26-30";
}

static unsigned map_length(unsigned branches)
{
	if (branches == 0 || branches >= 26) return 31;
	if (branches == 1) return 1;
	if (branches <= 9) return 9;
	return branches <= 17 ? 17 : 25;
}

/* The differential field of addr against the last reported address, by diff_sign (RV-P5, RV-X1). */
static uint64_t diff_field(const struct tc_rvtrace_config *cfg, const struct rvenc_base *b, uint64_t addr)
{
	uint64_t d = cfg->diff_sign ? b->addr - addr : addr - b->addr;
	return (d & low((unsigned)cfg->iaddress_width_p)) >> cfg->iaddress_lsb_p;
}

static int64_t diff_bytes(const struct tc_rvtrace_config *cfg, uint64_t field)
{
	unsigned a = address_bits(cfg);
	uint64_t sign = UINT64_C(1) << (a - 1);
	uint64_t u = ((field & low(a)) ^ sign) - sign;
	int64_t s;
	memcpy(&s, &u, sizeof s);
	return s * ((int64_t)1 << cfg->iaddress_lsb_p);
}

/* The address of formats 0–2: full or differential, fewer kept bits, full on a tie (T13);
 * force 0 full, 1 differential (the assembler: the line's), -1 the choice. */
static void put_address(struct rvenc_ctx *c, struct bitw *w, struct rvenc_pkt *k, struct rvenc_base *b, int force)
{
	const struct tc_rvtrace_config *cfg = c->cfg;
	unsigned a = address_bits(cfg), kept;
	uint64_t addr = k->p.address, full = (addr >> cfg->iaddress_lsb_p) & low(a), diff = 0;
	int use_diff = 0;
	if (!cfg->full_address && b->valid) {
		diff = diff_field(cfg, b, k->p.address);
		use_diff = sign_bits(diff, a) < sign_bits(full, a);
		if (k->p.h.kind == tc_rvtrace_pkt_addr_only)
			use_diff = 1;
	}
	if (force >= 0)
		use_diff = force;
	if (use_diff) {
		if (k->p.h.kind == tc_rvtrace_pkt_full_delta)
			k->p.h.kind = tc_rvtrace_pkt_diff_delta;
		k->p.diff = diff_bytes(cfg, diff);
		put_compressed(w, diff, a, &kept);
	} else {
		k->p.full = k->p.h.kind == tc_rvtrace_pkt_addr_only;
		k->p.address = full << cfg->iaddress_lsb_p;
		put_compressed(w, full, a, &kept);
	}
	rvenc_hit(c, "address-%s-%s", use_diff ? "diff" : "full", kept == a ? "whole" : "compressed");
	b->valid = 1;
	b->addr = addr;
}

static void write_inst(struct rvenc_ctx *c, struct bitw *w, struct rvenc_pkt *k, struct rvenc_base *b, int force)
{
	const struct tc_rvtrace_config *cfg = c->cfg;
	uint64_t addr = k->p.address;
	unsigned kept;
	switch (k->p.h.kind) {
	case tc_rvtrace_pkt_full_delta:
	case tc_rvtrace_pkt_diff_delta:   /* the assembler's format 1 (the encoder's is chosen in put_address) */
		put(w, 0, 2);
		put(w, k->p.branches, 5);
		rvenc_hit(c, "branches-%s", length_class(k->p.branches));
		if (k->p.branches == 0) {
			put_compressed(w, k->p.map, 31, &kept);
			rvenc_hit(c, "full-map-%s", kept == 31 ? "whole" : "compressed");
		} else {
			put(w, k->p.map, map_length(k->p.branches));
			put_address(c, w, k, b, force);
		}
		if (k->p.h.kind == tc_rvtrace_pkt_diff_delta)
			w->bit[0] = 1;   /* format 01 */
		break;
	case tc_rvtrace_pkt_addr_only:
		put(w, 2, 2);
		put_address(c, w, k, b, force);
		break;
	default: {   /* format 3 */
		int sub = k->p.h.kind - tc_rvtrace_pkt_sync_start;
		put(w, 3, 2);
		put(w, (uint64_t)sub, 2);
		if (!cfg->nocontext_p)
			put(w, k->p.context, (unsigned)cfg->context_width_p);
		put(w, k->p.privilege, (unsigned)cfg->privilege_width_p);
		if (sub == 2)
			break;
		put(w, k->p.branch, 1);
		put(w, addr >> cfg->iaddress_lsb_p, address_bits(cfg));
		b->valid = 1;
		b->addr = addr;
		if (sub == 1) {
			put(w, k->p.ecause, (unsigned)cfg->ecause_width_p);
			put(w, k->p.interrupt, 1);
			if (!cfg->notval_p)
				put(w, k->p.tval, (unsigned)cfg->iaddress_width_p);
		}
	}
	}
	rvenc_hit(c, "packet-%s", tc_rvtrace_pkt_kind_name(k->p.h.kind));
}

/* The payload of a message that is no itrace_status (RV-F3): its control_code and support_type; the
 * rest of it is the message's own, which the L1 text does not hold: padding (RV-P26). */
static void write_message(struct bitw *w, const struct rvenc_pkt *k)
{
	put(w, k->p.control, 6);
	put(w, k->p.type, 4);
}

/* trdb's timer (timer_width bits) and software (XLEN bits) messages (RV-X3): the value from payload
 * bit 0, kept to the fewest bits whose copies restore it past the frame's end (T6, RV-P26). Only the
 * assembler writes these three kinds: the random encoder counts no variant of them. */
static void write_value(struct rvenc_ctx *c, struct bitw *w, const struct rvenc_pkt *k)
{
	unsigned width = k->p.h.kind == tc_rvtrace_pkt_timer ? (unsigned)c->cfg->timer_width : c->cfg->rv32 ? 32u : 64u;
	unsigned kept;
	put_compressed(w, k->p.value, width, &kept);
}

/* The frame of one packet (a support packet or another message of type 0, a te_inst of formats 0–3,
 * a timer or a software message) into bytes; k->p's kind, address fields and byte 0 become those
 * written. */
void rvenc_packet_frame(struct rvenc_ctx *c, struct rvenc_pkt *k, struct rvenc_base *b, int force,
			const struct rvenc_frame *f, struct enc_buf *bytes)
{
	struct bitw w;
	w.n = w.keep = 0;
	k->p.h.offset = bytes->len;
	if (k->p.h.kind == tc_rvtrace_pkt_message) {
		write_message(&w, k);
		k->p.byte0 = frame(c, &w, tc_rvtrace_msg_support, f, bytes);
	} else if (k->p.h.kind == tc_rvtrace_pkt_timer || k->p.h.kind == tc_rvtrace_pkt_software) {
		write_value(c, &w, k);
		k->p.byte0 = frame(c, &w, k->p.h.kind == tc_rvtrace_pkt_timer ? tc_rvtrace_msg_timer : tc_rvtrace_msg_software,
				   f, bytes);
	} else if (k->p.h.kind == tc_rvtrace_pkt_support) {
		put(&w, 0x34, 6);
		put(&w, 0, 4);
		put(&w, k->p.enable, 1);
		put(&w, k->p.mode, 2);
		put(&w, k->p.qual, 2);
		rvenc_hit(c, "packet-support");
		k->p.byte0 = frame(c, &w, tc_rvtrace_msg_support, f, bytes);
	} else {
		write_inst(c, &w, k, b, force);
		k->p.byte0 = frame(c, &w, tc_rvtrace_msg_inst, f, bytes);
	}
}

int rvenc_packets_write(struct rvenc_ctx *c, struct rvenc_trace *t, struct enc_buf *bytes, struct enc_buf *l1)
{
	static const struct rvenc_frame fewest = { 0, 0 };
	struct rvenc_base b = { 0, 0 };
	char line[512];
	for (size_t i = 0; i < t->n; i++) {
		struct rvenc_pkt *k = &t->pkt[i];
		rvenc_packet_frame(c, k, &b, -1, &fewest, bytes);
		int n = tc_rvtrace_format_packet(line, sizeof line, &k->p);
		if (n < 0 || (size_t)n >= sizeof line)
			return -1;
		enc_buf_printf(l1, "%s\n", line);
	}
	return 0;
}
