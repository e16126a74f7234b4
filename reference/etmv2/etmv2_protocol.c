/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv2_protocol.c — ETMv2 as shared code sees it: the protocol descriptor (tracecert/protocol.h)
 * over the ETMv2 decoder (L1, which needs no image: L9090) and the L3 analyzer
 * (reference/etmv2/README.md "Levels"). */
#include <stdlib.h>
#include <string.h>

#include "tracecert/etmv2.h"
#include "tracecert/etmv2_config.h"
#include "tracecert/protocol.h"

/* A decoder, the analyzer and the sink they forward to. */
struct etmv2_handle {
	struct tc_etmv2_decoder *dec;
	struct tc_etmv2_analyzer *l3;
	struct tc_sink sink;
};

static void on_item(void *ctx, const struct tc_etmv2_record *r)
{
	struct etmv2_handle *h = ctx;
	if (h->sink.levels & tc_level_l1)
		h->sink.item(h->sink.ctx, tc_level_l1, &r->h);
	if (h->l3)
		tc_etmv2_analyze(h->l3, r);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct etmv2_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l3, &x->h);
}

static void etmv2_free_handle(void *d)
{
	struct etmv2_handle *h = d;
	if (!h)
		return;
	tc_etmv2_free(h->dec);
	tc_etmv2_analyzer_free(h->l3);
	free(h);
}

static void *etmv2_alloc_handle(const void *cfg, const struct tc_sink *sink)
{
	struct etmv2_handle *h = calloc(1, sizeof *h);
	if (!h || !sink || !sink->item) {
		free(h);
		return NULL;
	}
	h->sink = *sink;
	if (sink->levels & tc_level_l3)
		h->l3 = tc_etmv2_analyzer_alloc(cfg, on_l3, h);
	struct tc_etmv2_sink s = { h, on_item };
	if (h->l3 || !(sink->levels & tc_level_l3))
		h->dec = tc_etmv2_alloc(cfg, &s);
	if (!h->dec) {
		etmv2_free_handle(h);
		return NULL;
	}
	return h;
}

static int etmv2_set_image_handle(void *d, const struct tc_image *image)
{
	struct etmv2_handle *h = d;
	if (!h)
		return -1;
	tc_etmv2_analyzer_set_image(h->l3, image);
	return 0;
}

static int etmv2_feed_handle(void *d, const uint8_t *data, size_t len)
{
	return tc_etmv2_feed(((struct etmv2_handle *)d)->dec, data, len);
}

static int etmv2_finish_handle(void *d)
{
	struct etmv2_handle *h = d;
	int r = tc_etmv2_finish(h->dec);
	tc_etmv2_analyze_flush(h->l3);
	return r;
}

/* The cycles before the first TFO are read for it, not skipped bytes of a byte stream (ERRATA
 * ETM2-P10, ETM2-P24): none is reported. */
static uint64_t etmv2_skipped_handle(const void *d)
{
	(void)d;
	return 0;
}

static int etmv2_format(char *buf, size_t size, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return tc_etmv2_format(buf, size, (const struct tc_etmv2_record *)item);
	if (level == tc_level_l3)
		return tc_etmv2_format_l3(buf, size, (const struct tc_l3 *)item);
	if (size > 0)
		buf[0] = '\0';
	return 0;   /* no s1 or L2 */
}

static int etmv2_parse_l1(const char *line, struct tc_item *item, char *err, size_t errlen)
{
	return tc_etmv2_parse_text(line, (struct tc_etmv2_record *)item, err, errlen);
}

static int etmv2_item_error(int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return item->kind == tc_etmv2_error ? ((const struct tc_etmv2_record *)item)->error : 0;
	if (level == tc_level_l3)
		return item->kind == tc_l3_error ? ((const struct tc_l3 *)item)->error : 0;
	return 0;
}

static int etmv2_item_is_warning(int level, const struct tc_item *item)
{
	return level == tc_level_l1 && item->kind == tc_etmv2_warning;
}

static int config_check(const void *cfg, char *err, size_t errlen)
{
	return tc_etmv2_config_check(cfg, err, errlen);
}

/* ETMv2 has no trace ID register (trace_id_reg -1). */
static void config_to_regs(const void *cfg, unsigned trace_id, uint32_t *regs)
{
	(void)trace_id;
	tc_etmv2_config_to_regs(cfg, regs);
}

/* No snapshot layout holds a per-cycle sample file (FORMAT.md "Sample file"): no device type. */
static const char *const snapshot_types[] = { NULL };

/* As the decoder's reader takes it (etmv2_decoder.c): major, minor at most, status bits, sync pin. */
static const struct tc_sample_format sample_format = { 2, 1, 4, 0 };

const struct tc_protocol tc_protocol_etmv2 = {
	.id = tc_proto_etmv2,
	.name = "etmv2",
	.title = "Arm ETMv2.0-2.1 (ARM IHI 0014, chapter 6)",
	.errata = "reference/etmv1/ERRATA.md",
	.config_size = sizeof(struct tc_etmv2_config),
	.keys = tc_etmv2_keys,
	.nkeys = TC_ETMV2_NKEYS,
	.regs = tc_etmv2_regs,
	.nregs = tc_etmv2_reg_count,
	.config_derive = tc_etmv2_config_derive,
	.config_check = config_check,
	.config_to_regs = config_to_regs,
	.error_names = tc_etmv2_error_names,
	.nerrors = tc_etmv2_err_count,
	.warning_names = tc_etmv2_warning_names,
	.nwarnings = tc_etmv2_warn_count,
	.format = etmv2_format,
	.parse_l1 = etmv2_parse_l1,
	.item_error = etmv2_item_error,
	.item_is_warning = etmv2_item_is_warning,
	.l1_size = sizeof(struct tc_etmv2_record),
	.l1_kinds = tc_etmv2_kind_count,
	.alloc = etmv2_alloc_handle,
	.set_image = etmv2_set_image_handle,
	.feed = etmv2_feed_handle,
	.finish = etmv2_finish_handle,
	.free = etmv2_free_handle,
	.skipped = etmv2_skipped_handle,
	.snapshot_types = snapshot_types,
	.trace_id_reg = -1,
	.snapshot_required_regs = 1u << tc_etmv2_reg_etmcr | 1u << tc_etmv2_reg_etmidr,
	.snapshot_core_type = "ARM1020E",
	.cycle_port_width_key = "port_width",
	.clause_value = NULL,
	.sample = &sample_format,
};
