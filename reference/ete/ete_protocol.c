/* SPDX-License-Identifier: BSD-3-Clause */
/* ete_protocol.c — ETE as shared code sees it: the protocol descriptor (tracecert/protocol.h) over the ETE decoder. */
#include <stdlib.h>
#include <string.h>

#include <ctype.h>

#include "ete_internal.h"
#include "tracecert/ete.h"
#include "tracecert/ete_config.h"
#include "tracecert/protocol.h"

/* A decoder and the sink it forwards to. */
struct ete_handle {
	struct tc_ete_decoder *dec;
	struct tc_sink sink;
};

static void on_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct ete_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l1, &p->h);
}

static void on_s1(void *ctx, const struct tc_ete_elem *e)
{
	struct ete_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_s1, &e->h);
}

static void on_l2(void *ctx, const struct tc_ete_elem *e)
{
	struct ete_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l2, &e->h);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct ete_handle *h = ctx;
	h->sink.item(h->sink.ctx, tc_level_l3, &x->h);
}

static void *ete_alloc(const void *cfg, const struct tc_sink *sink)
{
	struct ete_handle *h = calloc(1, sizeof *h);
	struct tc_ete_sink s;
	if (!h || !sink || !sink->item) {
		free(h);
		return NULL;
	}
	h->sink = *sink;
	memset(&s, 0, sizeof s);
	s.ctx = h;
	s.packet = (sink->levels & tc_level_l1) ? on_packet : NULL;
	s.s1 = (sink->levels & tc_level_s1) ? on_s1 : NULL;
	s.l2 = (sink->levels & tc_level_l2) ? on_l2 : NULL;
	s.l3 = (sink->levels & tc_level_l3) ? on_l3 : NULL;
	h->dec = tc_ete_alloc(cfg, &s);
	if (!h->dec) {
		free(h);
		return NULL;
	}
	return h;
}

static int ete_set_image(void *d, const struct tc_image *image)
{
	return tc_ete_set_image(((struct ete_handle *)d)->dec, image);
}

static int ete_feed(void *d, const uint8_t *data, size_t len)
{
	return tc_ete_feed(((struct ete_handle *)d)->dec, data, len);
}

static int ete_finish(void *d)
{
	return tc_ete_finish(((struct ete_handle *)d)->dec);
}

static void ete_free(void *d)
{
	struct ete_handle *h = d;
	if (!h)
		return;
	tc_ete_free(h->dec);
	free(h);
}

static uint64_t ete_skipped(const void *d)
{
	return tc_ete_skipped(((const struct ete_handle *)d)->dec);
}

static int ete_format(char *buf, size_t size, int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return tc_ete_format_packet(buf, size, (const struct tc_ete_packet *)item);
	if (level == tc_level_l3)
		return tc_ete_format_l3(buf, size, (const struct tc_l3 *)item);
	return tc_ete_format_elem(buf, size, (const struct tc_ete_elem *)item);
}

static int ete_parse_l1(const char *line, struct tc_item *item, char *err, size_t errlen)
{
	return tc_ete_parse_packet_text(line, (struct tc_ete_packet *)item, err, errlen);
}

static int ete_item_error(int level, const struct tc_item *item)
{
	if (level == tc_level_l1)
		return item->kind == tc_ete_pkt_error ? ((const struct tc_ete_packet *)item)->error : 0;
	if (level == tc_level_l3)
		return item->kind == tc_l3_error ? ((const struct tc_l3 *)item)->error : 0;
	return item->kind == tc_ete_elem_error ? ((const struct tc_ete_elem *)item)->error : 0;
}

static int ete_item_is_warning(int level, const struct tc_item *item)
{
	return level == tc_level_l1 && item->kind == tc_ete_pkt_warning;
}

static int config_check(const void *cfg, char *err, size_t errlen)
{
	return tc_ete_config_check(cfg, err, errlen);
}

/* "ELEM_" + an element kind's name in upper case, '-' as '_' ("ELEM_TRACE_INFO"). */
static int is_elem_name(const char *name, const char *kind)
{
	if (strncmp(name, "ELEM_", 5) != 0)
		return 0;
	for (name += 5; *kind; kind++, name++)
		if (*name != (*kind == '-' ? '_' : toupper((unsigned char)*kind)))
			return 0;
	return *name == '\0';
}

/* The names coverage/clauses/ete.txt gives the values of its TC_CLAUSE_CASE
 * selectors: the stage-3 synchronisation states, the sub-ISAs of an address
 * packet and the stage-1 element kinds, as the K10.5 pseudocode names them. */
static int clause_value(const char *name, long *value)
{
	static const struct {
		const char *name;
		long value;
	} fixed[] = {
		{ "NOT_SYNC_STATE", TC_SYNC_NOT }, { "CONTEXT_STATE", TC_SYNC_CONTEXT },
		{ "ADDRESS_STATE", TC_SYNC_ADDRESS }, { "FULL_SYNC_STATE", TC_SYNC_FULL },
		{ "IS0", 0 }, { "IS1", 1 },
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (!strcmp(name, fixed[i].name)) {
			*value = fixed[i].value;
			return 1;
		}
	for (int k = 0; k < tc_ete_elem_count; k++)
		if (is_elem_name(name, tc_ete_elem_kind_name(k))) {
			*value = k;
			return 1;
		}
	return 0;
}

static void config_to_regs(const void *cfg, unsigned trace_id, uint32_t *regs)
{
	tc_ete_config_to_regs(cfg, trace_id, regs);
}

static const char *const snapshot_types[] = { "ETE", NULL };

const struct tc_protocol tc_protocol_ete = {
	.id = tc_proto_ete,
	.name = "ete",
	.title = "Arm ETE (Arm ARM K10.5)",
	.errata = "reference/ete/ERRATA.md",
	.config_size = sizeof(struct tc_ete_config),
	.keys = tc_ete_keys,
	.nkeys = TC_ETE_NKEYS,
	.regs = tc_ete_regs,
	.nregs = tc_ete_reg_count,
	.config_derive = tc_ete_config_derive,
	.config_check = config_check,
	.config_to_regs = config_to_regs,
	.error_names = tc_ete_error_names,
	.nerrors = tc_ete_err_count,
	.warning_names = tc_ete_warning_names,
	.nwarnings = tc_ete_warn_count,
	.format = ete_format,
	.parse_l1 = ete_parse_l1,
	.item_error = ete_item_error,
	.item_is_warning = ete_item_is_warning,
	.l1_size = sizeof(struct tc_ete_packet),
	.l1_kinds = tc_ete_pkt_count,
	.alloc = ete_alloc,
	.set_image = ete_set_image,
	.feed = ete_feed,
	.finish = ete_finish,
	.free = ete_free,
	.skipped = ete_skipped,
	.snapshot_types = snapshot_types,
	.trace_id_reg = tc_ete_reg_trctraceidr,
	/* Without TRCIDR0 the packets cannot be read: COMMOPT changes what a
	 * Cycle Count format 2 packet means (K10.5.2.16.2), ITE and TSMARK
	 * whether headers 0x09 and 0x88 are packets (TC-P1), COMMTRANS whether
	 * Transaction Start is P0 (TC-S13); without TRCIDR8 the speculation
	 * depth that commits resolve against (K10.5.2.1 RHDJJV, MAXSPEC) is
	 * unknown. TRCIDR2.WFXMODE and TRCCONFIGR.RS matter at stage 3 only and
	 * default with a '#' line; TRCDEVARCH only gates TSMARK. */
	.snapshot_required_regs = 1u << tc_ete_reg_trcidr0 | 1u << tc_ete_reg_trcidr8,
	.snapshot_core_type = "ARM-AA64",
	.clause_value = clause_value,
};
