/* SPDX-License-Identifier: BSD-3-Clause */
/* twins_ete.c — ETE's twin rules: the fields of reference/ete/FORMAT.md "Warnings" (ERRATA TC-R1),
 * written from the packet layouts of reference/ete/FORMAT.md and reference/ete/ERRATA.md. */
#include "tracecert/ete.h"
#include "twins.h"

static const char *const ete_fields[] = {
	"plctl", "info", "exception", "instrumentation", "cc-f2-f", "cc-f2-aaaa", "cc-f3-aa", "source-address"
};

/* Trace Info: PLCTL<7>, <6:5>, <1> (TC-P3); INFO<4> when PLCTL<0> says INFO follows. */
static void trace_info_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int plctl = twin_packet_byte(v, p, 1), info = twin_packet_byte(v, p, 2);
	if (plctl < 0)
		return;
	if (!(plctl & 0xe2))
		twin_add(out, p->off + 1, (unsigned)plctl | 0x20, "res0", "plctl", 0x20);
	if ((plctl & 1) && info >= 0 && !(info & 0xbe))
		twin_add(out, p->off + 2, (unsigned)info | 0x10, "res0", "info", 0x10);
}

/* Cycle Count with COMMOPT=1 (TC-S7, TC-P7): format 2's header<0> when 0 (the text
 * uses '1') and payload<7:4> when not 1111; format 3's header<3:2> when not 00. */
static void cycle_count_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int payload = twin_packet_byte(v, p, 1);
	if (!twin_config_key(v, "commopt"))
		return;
	if (p->header == 0x0d && p->len == 2) {
		twin_add(out, p->off, 0x0c, "ignored-field", "cc-f2-f", 0);
		if ((payload >> 4) == 0xf)
			twin_add(out, p->off + 1, ((unsigned)payload & 0x0f) | 0x50, "ignored-field", "cc-f2-aaaa", 0x5);
	} else if (p->header >= 0x10 && p->header <= 0x13) {
		twin_add(out, p->off, p->header | 0x08, "ignored-field", "cc-f3-aa", 2);
	}
}

/* Only fields that are clear (as the text substitutes them), so the twin adds one warning. */
static void ete_packet_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int b1 = twin_packet_byte(v, p, 1), kind = p->rec.h.kind;   /* enum tc_ete_pkt_kind */
	if (kind == tc_ete_pkt_trace_info)
		trace_info_twins(v, p, out);
	else if (kind == tc_ete_pkt_exception && b1 >= 0 && !(b1 & 0x80))   /* E<7> */
		twin_add(out, p->off + 1, (unsigned)b1 | 0x80, "res0", "exception", 0x80);
	else if (kind == tc_ete_pkt_instrumentation && b1 >= 0 && !(b1 & 0xfc))
		twin_add(out, p->off + 1, (unsigned)b1 | 0x04, "res0", "instrumentation", 0x04);
	else if (kind == tc_ete_pkt_source_address && p->header >= 0xb6 && p->header <= 0xb9 && b1 >= 0 &&
		 !(b1 & 0x80))   /* TC-P9: bit 7 of the low byte */
		twin_add(out, p->off + 1, (unsigned)b1 | 0x80, "res0", "source-address", 0x80);
	else if (kind == tc_ete_pkt_cycle_count)
		cycle_count_twins(v, p, out);
}

const struct twin_rules twin_rules_ete = {
	"ete", ete_fields, (int)(sizeof ete_fields / sizeof ete_fields[0]), ete_packet_twins
};
