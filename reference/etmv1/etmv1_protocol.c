/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv1_protocol.c — ETMv1 as shared code sees it: the protocol descriptor (tracecert/protocol.h)
 * over the ETMv1 decoder (L1), the image walk it sizes data values by (ERRATA ETM1-P10) and the L3
 * analyzer (reference/etmv1/README.md "Levels"). */
#include <stdlib.h>
#include <string.h>

#include "tracecert/etmv1.h"
#include "tracecert/etmv1_config.h"
#include "tracecert/protocol.h"

/* A decoder, its walk, the analyzer and the sink they forward to. */
struct etmv1_handle {
	struct tc_etmv1_decoder *dec;
	struct tc_etmv1_imagewalk *walk;
	struct tc_etmv1_analyzer *l3;
	struct tc_sink sink;
};

static void on_item(void *ctx, const struct tc_etmv1_record *r)
{
	struct etmv1_handle *h = ctx;
	if (h->sink.levels & tc_level_l1)
		h->sink.item(h->sink.ctx, tc_level_l1, &r->h);
	if (h->l3)
		tc_etmv1_analyze(h->l3, r);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct etmv1_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l3, &x->h);
}

static void etmv1_free_handle(void *d)
{
	struct etmv1_handle *h = d;
	if (!h)
		return;
	tc_etmv1_free(h->dec);
	tc_etmv1_imagewalk_free(h->walk);
	tc_etmv1_analyzer_free(h->l3);
	free(h);
}

static void *etmv1_alloc_handle(const void *cfg, const struct tc_sink *sink)
{
	struct etmv1_handle *h = calloc(1, sizeof *h);
	if (!h || !sink || !sink->item) {
		free(h);
		return NULL;
	}
	h->sink = *sink;
	h->walk = tc_etmv1_imagewalk_alloc(cfg);
	if (h->walk && (sink->levels & tc_level_l3))
		h->l3 = tc_etmv1_analyzer_alloc(cfg, on_l3, h);
	struct tc_etmv1_walk walk = tc_etmv1_imagewalk_callbacks(h->walk);
	struct tc_etmv1_sink s = { h, on_item };
	if (h->walk && (h->l3 || !(sink->levels & tc_level_l3)))
		h->dec = tc_etmv1_alloc(cfg, &s, &walk);
	if (!h->dec) {
		etmv1_free_handle(h);
		return NULL;
	}
	return h;
}

static int etmv1_set_image_handle(void *d, const struct tc_image *image)
{
	struct etmv1_handle *h = d;
	if (!h)
		return -1;
	tc_etmv1_imagewalk_set_image(h->walk, image);
	tc_etmv1_analyzer_set_image(h->l3, image);
	return 0;
}

static int etmv1_feed_handle(void *d, const uint8_t *data, size_t len)
{
	return tc_etmv1_feed(((struct etmv1_handle *)d)->dec, data, len);
}

static int etmv1_finish_handle(void *d)
{
	struct etmv1_handle *h = d;
	int r = tc_etmv1_finish(h->dec);
	tc_etmv1_analyze_flush(h->l3);
	return r;
}

/* The cycles before synchronisation are held and dropped, not skipped bytes of a byte stream
 * (ERRATA ETM1-P9, ETM1-P35): none is reported. */
static uint64_t etmv1_skipped_handle(const void *d)
{
	(void)d;
	return 0;
}

static int etmv1_format(char *buf, size_t size, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return tc_etmv1_format(buf, size, (const struct tc_etmv1_record *)item);
	if (level == tc_level_l3)
		return tc_etmv1_format_l3(buf, size, (const struct tc_l3 *)item);
	if (size > 0)
		buf[0] = '\0';
	return 0;   /* no s1 or L2 */
}

static int etmv1_parse_l1(const char *line, struct tc_item *item, char *err, size_t errlen)
{
	return tc_etmv1_parse_text(line, (struct tc_etmv1_record *)item, err, errlen);
}

static int etmv1_item_error(int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return item->kind == tc_etmv1_error ? ((const struct tc_etmv1_record *)item)->error : 0;
	if (level == tc_level_l3)
		return item->kind == tc_l3_error ? ((const struct tc_l3 *)item)->error : 0;
	return 0;
}

static int etmv1_item_is_warning(int level, const struct tc_item *item)
{
	return level == tc_level_l1 && item->kind == tc_etmv1_warning;
}

static int config_check(const void *cfg, char *err, size_t errlen)
{
	return tc_etmv1_config_check(cfg, err, errlen);
}

/* ETMv1 has no trace ID register (trace_id_reg -1). */
static void config_to_regs(const void *cfg, unsigned trace_id, uint32_t *regs)
{
	(void)trace_id;
	tc_etmv1_config_to_regs(cfg, regs);
}

/* No snapshot layout holds a per-cycle sample file (FORMAT.md "Sample file"): no device type. */
static const char *const snapshot_types[] = { NULL };

/* As the decoder's reader takes it (etmv1_decoder.c): major, minor at most, status bits, sync pin. */
static const struct tc_sample_format sample_format = { 1, 3, 3, 1 };

const struct tc_protocol tc_protocol_etmv1 = {
	.id = tc_proto_etmv1,
	.name = "etmv1",
	.title = "Arm ETMv1.0-1.3 (ARM IHI 0014, chapter 5)",
	.errata = "reference/etmv1/ERRATA.md",
	.config_size = sizeof(struct tc_etmv1_config),
	.keys = tc_etmv1_keys,
	.nkeys = TC_ETMV1_NKEYS,
	.regs = tc_etmv1_regs,
	.nregs = tc_etmv1_reg_count,
	.config_derive = tc_etmv1_config_derive,
	.config_check = config_check,
	.config_to_regs = config_to_regs,
	.error_names = tc_etmv1_error_names,
	.nerrors = tc_etmv1_err_count,
	.warning_names = tc_etmv1_warning_names,
	.nwarnings = tc_etmv1_warn_count,
	.format = etmv1_format,
	.parse_l1 = etmv1_parse_l1,
	.item_error = etmv1_item_error,
	.item_is_warning = etmv1_item_is_warning,
	.l1_size = sizeof(struct tc_etmv1_record),
	.l1_kinds = tc_etmv1_kind_count,
	.alloc = etmv1_alloc_handle,
	.set_image = etmv1_set_image_handle,
	.feed = etmv1_feed_handle,
	.finish = etmv1_finish_handle,
	.free = etmv1_free_handle,
	.skipped = etmv1_skipped_handle,
	.snapshot_types = snapshot_types,
	.trace_id_reg = -1,
	.snapshot_required_regs = 1u << tc_etmv1_reg_etmcr | 1u << tc_etmv1_reg_etmccr,
	.snapshot_core_type = "ARM9TDMI",
	.cycle_port_width_key = "port_width",
	.clause_value = NULL,
	.sample = &sample_format,
};
