/* SPDX-License-Identifier: BSD-3-Clause */
/* rvenc_asm.c — the RISC-V trace assembler (tc_encoder.asm_*, tracecert asm): the frame of one L1
 * record through the encoder's own frame writer (rvenc_packet_frame of rvenc_packets.c). */
/* The line gives byte 0 of the frame, so the payload's length N (and the
 * long form, N = 0 with long_frames=1, whose length M the distance to the
 * next line's offset gives, the last one the fewest bytes) and the message
 * type; the kind gives the address form (full-delta or diff-delta, an
 * addr-only's addr= or diff=). A differential address is the line's
 * difference applied to the last reported address, as the decoder does
 * (RV-P5, RV-X1). The payload bits past what the fields need are their sign
 * copies, then padding with copies of the last field's last bit (RV-F5,
 * RV-F6): the encoder writes no other (reference/rvtrace/FORMAT.md
 * "Assembling"). A message of type 0 that is no itrace_status holds its
 * control_code and support_type, then padding; a timer or software message
 * its value, compressed as a field is (RV-P26). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rvenc_internal.h"
#include "tracecert/rvtrace_config.h"

struct rvenc_asm {
	struct tc_rvtrace_config cfg;
	struct rvenc_ctx c;
	struct rvenc_base base;
	struct enc_buf bytes;
};

void *rvenc_asm_open(const void *cfg)
{
	struct rvenc_asm *w;
	if (tc_rvtrace_config_check(cfg, NULL, 0))
		return NULL;
	w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	w->cfg = *(const struct tc_rvtrace_config *)cfg;
	w->c.cfg = &w->cfg;   /* no random choice and no variant counts: rng and variants NULL */
	return w;
}

void rvenc_asm_close(void *p)
{
	struct rvenc_asm *w = p;
	if (!w)
		return;
	free(w->bytes.p);
	free(w);
}

static uint64_t width_mask(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

/* The address a difference gives against the last reported one (diff_sign: base − address). */
static uint64_t diff_address(const struct rvenc_asm *w, int64_t diff)
{
	uint64_t d = (uint64_t)diff, a = w->cfg.diff_sign ? w->base.addr - d : w->base.addr + d;
	return a & width_mask((unsigned)w->cfg.iaddress_width_p);
}

/* The packet record of an item and its address form (-1: none); 0, or -1 after a message. */
static int packet_of(struct rvenc_asm *w, const struct tc_rvtrace_packet *p, struct rvenc_pkt *k, int *force,
		     char *err, size_t errlen)
{
	memset(k, 0, sizeof *k);
	k->p = *p;
	*force = -1;
	switch (p->h.kind) {
	case tc_rvtrace_pkt_full_delta:
	case tc_rvtrace_pkt_diff_delta:
	case tc_rvtrace_pkt_addr_only: {
		int diff = p->h.kind == tc_rvtrace_pkt_diff_delta || (p->h.kind == tc_rvtrace_pkt_addr_only && !p->full);
		if (p->h.kind != tc_rvtrace_pkt_addr_only && p->branches == 0)
			return 0;
		if (diff && !w->base.valid)
			w->base.valid = 1, w->base.addr = 0;   /* the field is the line's difference whatever the base */
		if (diff)
			k->p.address = diff_address(w, p->diff);
		*force = diff;
		return 0;
	}
	case tc_rvtrace_pkt_sync_start:
	case tc_rvtrace_pkt_sync_exception:
	case tc_rvtrace_pkt_sync_context:
	case tc_rvtrace_pkt_timer:
	case tc_rvtrace_pkt_software: {
		unsigned width = p->h.kind == tc_rvtrace_pkt_timer ? (unsigned)w->cfg.timer_width : w->cfg.rv32 ? 32u : 64u;
		if (p->value & ~width_mask(width)) {
			snprintf(err, errlen, "the %s message's value has more than its %u bits", tc_rvtrace_pkt_kind_name(p->h.kind),
				 width);
			return -1;
		}
		return 0;
	}
	case tc_rvtrace_pkt_support:
	case tc_rvtrace_pkt_message:
		return 0;
	case tc_rvtrace_pkt_error:
	case tc_rvtrace_pkt_warning:
		snprintf(err, errlen, "an %s item is no packet: asm writes packets only",
			 p->h.kind == tc_rvtrace_pkt_error ? "error" : "warning");
		return -1;
	default:
		snprintf(err, errlen, "an item of kind %d is no packet", (int)p->h.kind);
		return -1;
	}
}

long rvenc_asm_write(void *wp, const struct tc_item *item, size_t len, uint8_t *out, size_t cap, char *err,
		     size_t errlen)
{
	struct rvenc_asm *w = wp;
	const struct tc_rvtrace_packet *p = (const struct tc_rvtrace_packet *)item;
	struct rvenc_frame f = { (unsigned)(p->byte0 & 0x0f), 0 };
	struct rvenc_pkt k;
	int force;
	size_t n;
	if (packet_of(w, p, &k, &force, err, errlen))
		return -1;
	if (f.bytes == 0 && ((p->byte0 >> 4) & 3) == tc_rvtrace_msg_inst && w->cfg.long_frames) {
		f.long_form = 1;   /* RV-F4: byte 1 is M, the length less two */
		f.bytes = len >= 2 ? (unsigned)(len - 2) : 0;
		if (len > TC_RVTRACE_MAX_FRAME) {   /* M is one byte: no frame is longer */
			snprintf(err, errlen, "no %s frame is %zu bytes long (the distance to the next item's offset)",
				 tc_rvtrace_pkt_kind_name(p->h.kind), len);
			return -1;
		}
	}
	w->bytes.len = 0;
	rvenc_packet_frame(&w->c, &k, &w->base, force, &f, &w->bytes);
	n = w->bytes.len;
	if ((uint8_t)w->bytes.p[0] != p->byte0) {
		snprintf(err, errlen, "the frame's byte 0 is %02x, not %02x (the payload needs %zu bytes)",
			 (unsigned)(uint8_t)w->bytes.p[0], (unsigned)p->byte0, n - (f.long_form ? 2 : 1));
		return -1;
	}
	if (len && n != len) {
		snprintf(err, errlen, "no %s frame of these fields is %zu bytes long (the distance to the next item's offset)",
			 tc_rvtrace_pkt_kind_name(p->h.kind), len);
		return -1;
	}
	if (n > cap) {
		snprintf(err, errlen, "a frame of %zu bytes, more than %zu", n, cap);
		return -1;
	}
	memcpy(out, w->bytes.p, n);
	return (long)n;
}
