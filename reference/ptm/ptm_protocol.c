/* SPDX-License-Identifier: BSD-3-Clause */
/* ptm_protocol.c — PFT/PTM as shared code sees it: the protocol descriptor (tracecert/protocol.h) over the PTM decoder. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/ptm.h"
#include "tracecert/ptm_config.h"
#include "tracecert/protocol.h"

/* A decoder and the sink it forwards to. */
struct ptm_handle {
	struct tc_ptm_decoder *dec;
	struct tc_sink sink;
};

static void on_packet(void *ctx, const struct tc_ptm_packet *p)
{
	struct ptm_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l1, &p->h);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct ptm_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l3, &x->h);
}

static void *ptm_alloc(const void *cfg, const struct tc_sink *sink)
{
	struct ptm_handle *h = calloc(1, sizeof *h);
	struct tc_ptm_sink s;   /* PTM has no speculation: L1 and L3 only */
	if (!h || !sink || !sink->item) {
		free(h);
		return NULL;
	}
	h->sink = *sink;
	memset(&s, 0, sizeof s);
	s.ctx = h;
	s.packet = (sink->levels & tc_level_l1) ? on_packet : NULL;
	s.l3 = (sink->levels & tc_level_l3) ? on_l3 : NULL;
	h->dec = tc_ptm_alloc(cfg, &s);
	if (!h->dec) {
		free(h);
		return NULL;
	}
	return h;
}

static int ptm_set_image(void *d, const struct tc_image *image)
{
	return tc_ptm_set_image(((struct ptm_handle *)d)->dec, image);
}

static int ptm_feed(void *d, const uint8_t *data, size_t len)
{
	return tc_ptm_feed(((struct ptm_handle *)d)->dec, data, len);
}

static int ptm_finish(void *d)
{
	return tc_ptm_finish(((struct ptm_handle *)d)->dec);
}

static void ptm_free(void *d)
{
	struct ptm_handle *h = d;
	if (!h)
		return;
	tc_ptm_free(h->dec);
	free(h);
}

static uint64_t ptm_skipped(const void *d)
{
	return tc_ptm_skipped(((const struct ptm_handle *)d)->dec);
}

static int ptm_format(char *buf, size_t size, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return tc_ptm_format_packet(buf, size, (const struct tc_ptm_packet *)item);
	if (level == tc_level_l3)
		return tc_ptm_format_l3(buf, size, (const struct tc_l3 *)item);
	if (size > 0)
		buf[0] = '\0';
	return 0;   /* no s1 or L2 */
}

static int ptm_parse_l1(const char *line, struct tc_item *item, char *err, size_t errlen)
{
	return tc_ptm_parse_packet_text(line, (struct tc_ptm_packet *)item, err, errlen);
}

static int ptm_item_error(int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return item->kind == tc_ptm_pkt_error ? ((const struct tc_ptm_packet *)item)->error : 0;
	if (level == tc_level_l3)
		return item->kind == tc_l3_error ? ((const struct tc_l3 *)item)->error : 0;
	return 0;
}

static int ptm_item_is_warning(int level, const struct tc_item *item)
{
	return level == tc_level_l1 && item->kind == tc_ptm_pkt_warning;
}

static int config_check(const void *cfg, char *err, size_t errlen)
{
	return tc_ptm_config_check(cfg, err, errlen);
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

/* The names coverage/clauses/ptm.txt gives the values of its TC_CLAUSE_CASE
 * selectors: instruction set states (ISA_ARM …) and the fields a warning
 * names (FIELD_ATOM …, reference/ptm/FORMAT.md "Warnings"). */
static int clause_value(const char *name, long *value)
{
	for (int k = 0; k < tc_ptm_isa_count; k++)
		if (is_upper_name(name, "ISA_", tc_ptm_isa_name(k))) {
			*value = k;
			return 1;
		}
	for (int k = 1; k < tc_ptm_wf_count; k++)
		if (is_upper_name(name, "FIELD_", tc_ptm_warning_field_name(k))) {
			*value = k;
			return 1;
		}
	return 0;
}

static void config_to_regs(const void *cfg, unsigned trace_id, uint32_t *regs)
{
	tc_ptm_config_to_regs(cfg, trace_id, regs);
}

static const char *const snapshot_types[] = { "PTM1.0", "PTM1.1", "PFT1.0", "PFT1.1", NULL };

const struct tc_protocol tc_protocol_ptm = {
	.id = tc_proto_ptm,
	.name = "ptm",
	.title = "Arm PFT/PTM (ARM IHI 0035B)",
	.errata = "reference/ptm/ERRATA.md",
	.config_size = sizeof(struct tc_ptm_config),
	.keys = tc_ptm_keys,
	.nkeys = TC_PTM_NKEYS,
	.regs = tc_ptm_regs,
	.nregs = tc_ptm_reg_count,
	.config_derive = tc_ptm_config_derive,
	.config_check = config_check,
	.config_to_regs = config_to_regs,
	.error_names = tc_ptm_error_names,
	.nerrors = tc_ptm_err_count,
	.warning_names = tc_ptm_warning_names,
	.nwarnings = tc_ptm_warn_count,
	.format = ptm_format,
	.parse_l1 = ptm_parse_l1,
	.item_error = ptm_item_error,
	.item_is_warning = ptm_item_is_warning,
	.l1_size = sizeof(struct tc_ptm_packet),
	.l1_kinds = tc_ptm_pkt_count,
	.alloc = ptm_alloc,
	.set_image = ptm_set_image,
	.feed = ptm_feed,
	.finish = ptm_finish,
	.free = ptm_free,
	.skipped = ptm_skipped,
	.snapshot_types = snapshot_types,
	.trace_id_reg = tc_ptm_reg_etmtraceidr,
	.snapshot_required_regs = 1u << tc_ptm_reg_etmcr | 1u << tc_ptm_reg_etmidr | 1u << tc_ptm_reg_etmccer,
	.snapshot_core_type = "ARMv7-A",
	.clause_value = clause_value,
};
