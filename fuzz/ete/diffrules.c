/* SPDX-License-Identifier: BSD-3-Clause */
/* diffrules.c — what the differential harness (fuzz/diff.c, ete_diff) knows of ETE: its input header, the documented divergences. */
#include <stdio.h>
#include <string.h>

#include "diff.h"
#include "fuzz_ete.h"

/* Keyed by adapter name; the last two are given by explain_in_context. */
static const struct tc_diff_explained explained[] = {
	/* reference/ete/ERRATA.md TC-P18: the queue bound is the reference's own option */
	{ NULL, "error", "class=queue-overflow", NULL, 0, "queue-overflow: reference queue_cap (ERRATA TC-P18)" },
	/* conformance/adapters/opencsd_ete.c, "Mapping decisions and what OpenCSD does not provide" */
	{ "opencsd", "error", "class=commit-overrun", NULL, 0, "opencsd: commit-overrun not checked (stage-1 class)" },
	{ "opencsd", "error", "class=cancel-overrun", NULL, 0, "opencsd: cancel-overrun not checked (stage-1 class)" },
	{ "opencsd", "error", "class=spec-mismatch", NULL, 0, "opencsd: spec-mismatch not checked (stage-1 class)" },
	{ "opencsd", "error", "class=reserved-field", NULL, 0, "opencsd: most reserved-field checks absent" },
	{ "opencsd", "error", "class=sbz", NULL, 0, "opencsd: most sbz checks absent" },
	{ "opencsd", "error", "class=field-overflow", NULL, 0, "opencsd: field-overflow checks absent" },
	{ "opencsd", "trace-info", " wndw=", NULL, 0, "opencsd: Trace Info WNDW not parsed" },
	{ "opencsd", "cycle-count", " cc=0", " cc=unknown", 1, "opencsd: a format-1 count of 0 prints as unknown" },
	/* opencsd_ete.c l1_packet, ETE_PKT_I_PE_RESET / ETE_PKT_I_TRANS_FAIL: one byte
	 * taken after the payload, not read as an address header; address 0 */
	{ "opencsd", "exception", " type=0x0 ", " type=0x0 addr=0x0 isa=0", 0, "opencsd: PE reset address not read" },
	{ "opencsd", "exception", " type=0x18 ", " type=0x18 addr=0x0 isa=0", 0,
	  "opencsd: Transaction Failure address not read" },
	{ NULL, "", NULL, NULL, 0, "address before the first Trace Info: UNKNOWN in K10 (ERRATA TC-P29)" },
	{ NULL, "", NULL, NULL, 0, "format 2 cycle count under COMMOPT=1 committing MAXSPEC (ERRATA TC-S7-literal)" },
};

#define NEXPLAINED ((int)(sizeof explained / sizeof explained[0]))
#define BEFORE_TRACE_INFO (NEXPLAINED - 2)
#define TC_S7_LITERAL (NEXPLAINED - 1)

/* ETE's 3-byte header (fuzz_ete.h); ite and rme forced to 0: OpenCSD
 * cannot be told them. */
static void read_config(struct tc_fuzz_in *in, void *cfg)
{
	uint8_t hdr[TC_FUZZ_ETE_CFG_BYTES];
	for (int i = 0; i < TC_FUZZ_ETE_CFG_BYTES; i++)
		hdr[i] = tc_fuzz_u8(in);
	tc_fuzz_ete_config(hdr, cfg);
	((struct tc_ete_config *)cfg)->ite = 0;
	((struct tc_ete_config *)cfg)->rme = 0;
}

static void fit_config(void *cfg, size_t len)
{
	tc_fuzz_ete_fit_caps(cfg, len);   /* same decoding, smaller allocation */
}

/* An address before the reference's first Trace Info (same offset and
 * kind, the reference line has an address): the address history is
 * UNKNOWN there (TC-P29). */
static int before_trace_info(const struct tc_diff_lines *ref, size_t at, const char *r, const char *a)
{
	size_t rk = 0, ak = 0;
	const char *rkind = tc_diff_token(r, 2, &rk), *akind = tc_diff_token(a, 2, &ak);
	if (!rkind || !akind || rk != ak || memcmp(rkind, akind, rk) || !strstr(r, "addr="))
		return 0;
	for (size_t i = 0; i < at; i++)
		if (tc_diff_kind_is(tc_diff_line_at(ref, i), "trace-info"))
			return 0;
	return 1;
}

/* A format 2 cycle count (0x0C/0x0D) under COMMOPT=1 that the adapter
 * decodes as committing MAXSPEC, with the same count: the alternative
 * reading TC-S7-literal, CycleCountFormat2Packet('1', '1111', BBBB). */
static int tc_s7_literal(const char *r, const char *a, const struct tc_ete_config *cfg)
{
	size_t rh = 0, k = 0;
	const char *rhdr = tc_diff_token(r, 1, &rh), *rc, *ac;
	char want[64];
	if (!cfg->commopt || !rhdr || rh != 2 || (strncmp(rhdr, "0c", 2) && strncmp(rhdr, "0d", 2)) ||
	    !tc_diff_kind_is(r, "cycle-count") || !tc_diff_kind_is(a, "cycle-count"))
		return 0;
	rc = tc_diff_token(r, 3, &k);
	ac = tc_diff_token(a, 3, &k);
	/* "commit=N cc=…": the reading commits MAXSPEC + 15 - 15, the count is the same */
	snprintf(want, sizeof want, "commit=%u ", cfg->maxspec);
	return rc && ac && !strncmp(rc, "commit=0 ", 9) && !strncmp(ac, want, strlen(want)) &&
	       !strcmp(rc + 9, ac + strlen(want));
}

static int explain_in_context(const struct tc_diff_lines *ref, size_t at, const char *r, const char *a,
			      const void *cfg, const uint8_t *trace, size_t len, const char *adapter)
{
	(void)trace;
	(void)len;
	(void)adapter;
	if (!r || !a || tc_diff_line_offset(r) != tc_diff_line_offset(a))
		return -1;
	if (before_trace_info(ref, at, r, a))
		return BEFORE_TRACE_INFO;
	if (tc_s7_literal(r, a, cfg))
		return TC_S7_LITERAL;
	return -1;
}

/* One cause (a context value carried or reset differently) gave a new
 * signature for every combination of values (24 candidates, 22 signatures
 * in run B of conformance/notes/diff-triage-2026-11-22.md, all the same
 * OpenCSD defect). */
static const char *const context_fields[] = { "el", "ns", "sf", "ctxid", "vmid", "nse", NULL };

const struct tc_diff_rules tc_diff_rules_ete = {
	.protocol = "ete",
	.read_config = read_config,
	.fit_config = fit_config,
	.explained = explained,
	.nexplained = NEXPLAINED,
	.explain_in_context = explain_in_context,
	.sync_kind = "async",
	.context_fields = context_fields,
	.spec = "K10.5.2 (reference/ete/FORMAT.md, reference/ete/ERRATA.md)",
};
