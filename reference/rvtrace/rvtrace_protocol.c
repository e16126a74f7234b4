/* SPDX-License-Identifier: BSD-3-Clause */
/* rvtrace_protocol.c — RISC-V processor trace 0.026 as shared code sees it: the protocol descriptor
 * (tracecert/protocol.h) over the rvtrace decoder: L1 packets and the L3 walk of rvtrace_analyze.c
 * (reference/rvtrace/README.md). */
#include <stdlib.h>
#include <string.h>

#include "tracecert/protocol.h"
#include "tracecert/rvtrace.h"
#include "tracecert/rvtrace_config.h"

/* A decoder and the sink it forwards to. */
struct rvtrace_handle {
	struct tc_rvtrace_decoder *dec;
	struct tc_sink sink;
};

static void on_packet(void *ctx, const struct tc_rvtrace_packet *p)
{
	struct rvtrace_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l1, &p->h);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct rvtrace_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l3, &x->h);
}

static void *rvtrace_alloc_handle(const void *cfg, const struct tc_sink *sink)
{
	struct rvtrace_handle *h = calloc(1, sizeof *h);
	struct tc_rvtrace_sink s;   /* no speculation, no element stage: L1 and L3 */
	if (!h || !sink || !sink->item) {
		free(h);
		return NULL;
	}
	h->sink = *sink;
	memset(&s, 0, sizeof s);
	s.ctx = h;
	s.packet = (sink->levels & tc_level_l1) ? on_packet : NULL;
	h->dec = tc_rvtrace_alloc(cfg, &s);
	if (!h->dec) {
		free(h);
		return NULL;
	}
	if ((sink->levels & tc_level_l3) && tc_rvtrace_set_l3_sink(h->dec, on_l3) != 0) {
		tc_rvtrace_free(h->dec);
		free(h);
		return NULL;
	}
	return h;
}

static int rvtrace_set_image_handle(void *d, const struct tc_image *image)
{
	return d ? tc_rvtrace_set_image(((struct rvtrace_handle *)d)->dec, image) : -1;
}

static int rvtrace_feed_handle(void *d, const uint8_t *data, size_t len)
{
	return tc_rvtrace_feed(((struct rvtrace_handle *)d)->dec, data, len);
}

static int rvtrace_finish_handle(void *d)
{
	return tc_rvtrace_finish(((struct rvtrace_handle *)d)->dec);
}

static void rvtrace_free_handle(void *d)
{
	struct rvtrace_handle *h = d;
	if (!h)
		return;
	tc_rvtrace_free(h->dec);
	free(h);
}

/* No byte is skipped: frames start at byte 0 and follow one another (RV-F2, RV-F7). */
static uint64_t rvtrace_skipped_handle(const void *d)
{
	(void)d;
	return 0;
}

static int rvtrace_format(char *buf, size_t size, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return tc_rvtrace_format_packet(buf, size, (const struct tc_rvtrace_packet *)item);
	if (level == tc_level_l3)
		return tc_l3_format(buf, size, (const struct tc_l3 *)item, tc_rvtrace_error_names, tc_rvtrace_err_count);
	if (size > 0)
		buf[0] = '\0';
	return 0;   /* no s1 or L2 */
}

static int rvtrace_parse_l1(const char *line, struct tc_item *item, char *err, size_t errlen)
{
	return tc_rvtrace_parse_packet_text(line, (struct tc_rvtrace_packet *)item, err, errlen);
}

static int rvtrace_item_error(int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return item->kind == tc_rvtrace_pkt_error ? ((const struct tc_rvtrace_packet *)item)->error : 0;
	if (level == tc_level_l3)
		return item->kind == tc_l3_error ? ((const struct tc_l3 *)item)->error : 0;
	return 0;
}

static int rvtrace_item_is_warning(int level, const struct tc_item *item)
{
	return level == tc_level_l1 && item->kind == tc_rvtrace_pkt_warning;
}

static int config_check(const void *cfg, char *err, size_t errlen)
{
	return tc_rvtrace_config_check(cfg, err, errlen);
}

/* The discovery fields; rvtrace has no trace ID register (trace_id_reg -1, RV-X4). */
static void config_to_regs(const void *cfg, unsigned trace_id, uint32_t *regs)
{
	(void)trace_id;
	tc_rvtrace_config_to_regs(cfg, regs);
}

/* A snapshot's device type for an rvtrace source: no snapshot layout names one (OpenCSD and Arm DS
 * are Arm's), so this is the project's own word (reference/rvtrace/ERRATA.md RV-X4). */
static const char *const snapshot_types[] = { "RVTRACE0.026", NULL };

const struct tc_protocol tc_protocol_rvtrace = {
	.id = tc_proto_rvtrace,
	.name = "rvtrace",
	.title = "RISC-V processor trace 0.026-DRAFT (instruction trace, PULP framing)",
	.errata = "reference/rvtrace/ERRATA.md",
	.config_size = sizeof(struct tc_rvtrace_config),
	.keys = tc_rvtrace_keys,
	.nkeys = TC_RVTRACE_NKEYS,
	.regs = tc_rvtrace_regs,
	.nregs = tc_rvtrace_reg_count,
	.config_derive = tc_rvtrace_config_derive,
	.config_check = config_check,
	.config_to_regs = config_to_regs,
	.error_names = tc_rvtrace_error_names,
	.nerrors = tc_rvtrace_err_count,
	.warning_names = tc_rvtrace_warning_names,
	.nwarnings = tc_rvtrace_warn_count,
	.format = rvtrace_format,
	.parse_l1 = rvtrace_parse_l1,
	.item_error = rvtrace_item_error,
	.item_is_warning = rvtrace_item_is_warning,
	.l1_size = sizeof(struct tc_rvtrace_packet),
	.l1_kinds = tc_rvtrace_pkt_count,
	.alloc = rvtrace_alloc_handle,
	.set_image = rvtrace_set_image_handle,
	.feed = rvtrace_feed_handle,
	.finish = rvtrace_finish_handle,
	.free = rvtrace_free_handle,
	.skipped = rvtrace_skipped_handle,
	.snapshot_types = snapshot_types,
	.trace_id_reg = -1,
	.snapshot_required_regs = 1u << tc_rvtrace_reg_iaddress_width,   /* RV-X4 */
	.snapshot_core_type = "RV32GC",
	.clause_value = NULL,
};
