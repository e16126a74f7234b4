/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_protocol.c — ETMv3 as shared code sees it: the protocol descriptor (tracecert/protocol.h) over the ETMv3 decoder. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/etmv3.h"
#include "tracecert/etmv3_config.h"
#include "tracecert/protocol.h"

/* A decoder and the sink it forwards to. */
struct etmv3_handle {
	struct tc_etmv3_decoder *dec;
	struct tc_sink sink;
};

static void on_packet(void *ctx, const struct tc_etmv3_packet *p)
{
	struct etmv3_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l1, &p->h);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct etmv3_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l3, &x->h);
}

static void *etmv3_alloc_handle(const void *cfg, const struct tc_sink *sink)
{
	struct etmv3_handle *h = calloc(1, sizeof *h);
	struct tc_etmv3_sink s;   /* ETMv3 has no speculation: L1 and L3 only */
	if (!h || !sink || !sink->item) {
		free(h);
		return NULL;
	}
	h->sink = *sink;
	memset(&s, 0, sizeof s);
	s.ctx = h;
	s.packet = (sink->levels & tc_level_l1) ? on_packet : NULL;
	s.l3 = (sink->levels & tc_level_l3) ? on_l3 : NULL;
	h->dec = tc_etmv3_alloc(cfg, &s);
	if (!h->dec) {
		free(h);
		return NULL;
	}
	return h;
}

static int etmv3_set_image_handle(void *d, const struct tc_image *image)
{
	return tc_etmv3_set_image(((struct etmv3_handle *)d)->dec, image);
}

static int etmv3_feed_handle(void *d, const uint8_t *data, size_t len)
{
	return tc_etmv3_feed(((struct etmv3_handle *)d)->dec, data, len);
}

static int etmv3_finish_handle(void *d)
{
	return tc_etmv3_finish(((struct etmv3_handle *)d)->dec);
}

static void etmv3_free_handle(void *d)
{
	struct etmv3_handle *h = d;
	if (!h)
		return;
	tc_etmv3_free(h->dec);
	free(h);
}

static uint64_t etmv3_skipped_handle(const void *d)
{
	return tc_etmv3_skipped(((const struct etmv3_handle *)d)->dec);
}

static int etmv3_format(char *buf, size_t size, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return tc_etmv3_format_packet(buf, size, (const struct tc_etmv3_packet *)item);
	if (level == tc_level_l3)
		return tc_etmv3_format_l3(buf, size, (const struct tc_l3 *)item);
	if (size > 0)
		buf[0] = '\0';
	return 0;   /* no s1 or L2 */
}

static int etmv3_parse_l1(const char *line, struct tc_item *item, char *err, size_t errlen)
{
	return tc_etmv3_parse_packet_text(line, (struct tc_etmv3_packet *)item, err, errlen);
}

static int etmv3_item_error(int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return item->kind == tc_etmv3_pkt_error ? ((const struct tc_etmv3_packet *)item)->error : 0;
	if (level == tc_level_l3)
		return item->kind == tc_l3_error ? ((const struct tc_l3 *)item)->error : 0;
	return 0;
}

static int etmv3_item_is_warning(int level, const struct tc_item *item)
{
	return level == tc_level_l1 && item->kind == tc_etmv3_pkt_warning;
}

static int config_check(const void *cfg, char *err, size_t errlen)
{
	return tc_etmv3_config_check(cfg, err, errlen);
}

/* PREFIX + a name in upper case, '-' as '_' ("FIELD_" + "addr-last": "FIELD_ADDR_LAST"). */
static int is_upper_name(const char *name, const char *prefix, const char *lower)
{
	size_t n = strlen(prefix);
	if (strncmp(name, prefix, n) != 0)
		return 0;
	for (name += n; *lower; lower++, name++)
		if (*name != (*lower == '-' ? '_' : toupper((unsigned char)*lower)))
			return 0;
	return *name == '\0';
}

/* The names coverage/clauses/etmv3.txt gives the values of its TC_CLAUSE_CASE
 * selectors: instruction set states (ISA_ARM …) and the fields a warning
 * names (FIELD_CC_LAST …, reference/etmv3/FORMAT.md "Warnings"). */
static int clause_value(const char *name, long *value)
{
	for (int k = 0; k < tc_etmv3_isa_count; k++)
		if (is_upper_name(name, "ISA_", tc_etmv3_isa_name(k))) {
			*value = k;
			return 1;
		}
	for (int k = 1; k < tc_etmv3_wf_count; k++)
		if (is_upper_name(name, "FIELD_", tc_etmv3_warning_field_name(k))) {
			*value = k;
			return 1;
		}
	return 0;
}

static void config_to_regs(const void *cfg, unsigned trace_id, uint32_t *regs)
{
	tc_etmv3_config_to_regs(cfg, trace_id, regs);
}

/* The device types of OpenCSD's and Arm DS's snapshot directories for ETMv3 sources. */
static const char *const snapshot_types[] = { "ETM3", "ETM3.0", "ETM3.1", "ETM3.2", "ETM3.3", "ETM3.4", "ETM3.5", NULL };

const struct tc_protocol tc_protocol_etmv3 = {
	.id = tc_proto_etmv3,
	.name = "etmv3",
	.title = "Arm ETMv3.0-3.5 (ARM IHI 0014, chapter 7)",
	.errata = "reference/etmv3/ERRATA.md",
	.config_size = sizeof(struct tc_etmv3_config),
	.keys = tc_etmv3_keys,
	.nkeys = TC_ETMV3_NKEYS,
	.regs = tc_etmv3_regs,
	.nregs = tc_etmv3_reg_count,
	.config_derive = tc_etmv3_config_derive,
	.config_check = config_check,
	.config_to_regs = config_to_regs,
	.error_names = tc_etmv3_error_names,
	.nerrors = tc_etmv3_err_count,
	.warning_names = tc_etmv3_warning_names,
	.nwarnings = tc_etmv3_warn_count,
	.format = etmv3_format,
	.parse_l1 = etmv3_parse_l1,
	.item_error = etmv3_item_error,
	.item_is_warning = etmv3_item_is_warning,
	.l1_size = sizeof(struct tc_etmv3_packet),
	.l1_kinds = tc_etmv3_pkt_count,
	.alloc = etmv3_alloc_handle,
	.set_image = etmv3_set_image_handle,
	.feed = etmv3_feed_handle,
	.finish = etmv3_finish_handle,
	.free = etmv3_free_handle,
	.skipped = etmv3_skipped_handle,
	.snapshot_types = snapshot_types,
	.trace_id_reg = tc_etmv3_reg_etmtraceidr,
	.snapshot_required_regs = 1u << tc_etmv3_reg_etmcr | 1u << tc_etmv3_reg_etmidr,
	.snapshot_core_type = "ARMv7-A",
	.clause_value = clause_value,
};
