/* SPDX-License-Identifier: BSD-3-Clause */
/* diffrules.c — what the differential harness (fuzz/diff.c, ptm_diff) knows of PFT/PTM: its configuration, the documented divergences. */
#include <string.h>

#include "diff.h"
#include "tracecert/ptm.h"

/* OpenCSD's PTM decoder: the classes of conformance/notes/opencsd.md
 * "PFT/PTM" and the limits conformance/adapters/opencsd_ptm.c declares;
 * for any decoder, the ambiguity PTM-P5. The last three are given by
 * explain_in_context. */
static const struct tc_diff_explained explained[] = {
	{ "opencsd", "error", "class=reserved-field", NULL, 0,
	  "opencsd: reserved payload values not checked (opencsd.md PTM L1; ERRATA PTM-R1)" },
	{ "opencsd", "isync", " isa=jazelle ", NULL, 0, "opencsd: the I-sync J bit not read (opencsd.md PTM L1; ERRATA PTM-P8)" },
	{ "opencsd", "error", "class=reserved-header", " vmid vmid=", 0,
	  "opencsd: header 0x3C read as VMID on PFTv1.0 (opencsd.md PTM L1; ERRATA PTM-P2)" },
	{ "opencsd", "branch", " hyp=0", " hyp=1", 0,
	  "opencsd: exception information without byte 1 keeps the previous Hyp bit (opencsd.md PTM L1; ERRATA PTM-P3)" },
	{ NULL, "", NULL, NULL, 0,
	  "opencsd: a waypoint update changes the address the next branch is compressed against (opencsd.md PTM L1; "
	  "ERRATA PTM-S3)" },
	{ NULL, "", NULL, NULL, 0,
	  "opencsd: timestamps of 48 bits on PFTv1.0, ETMCCER read only for PFTv1.1 (conformance/adapters/opencsd_ptm.c)" },
	{ NULL, "", NULL, NULL, 0, "address before the first I-sync: compressed against an unknown one (ERRATA PTM-P5)" },
};

#define NEXPLAINED ((int)(sizeof explained / sizeof explained[0]))
#define AFTER_WAYPOINT (NEXPLAINED - 3)
#define TIMESTAMP_V10 (NEXPLAINED - 2)
#define BEFORE_ISYNC (NEXPLAINED - 1)

/* One byte per key (fuzz.h tc_fuzz_proto_config); ts_binary forced to 1:
 * OpenCSD 1.3.3 decodes every timestamp as natural binary (the adapter
 * declares Gray-coded timestamps unsupported). */
static void read_config(struct tc_fuzz_in *in, void *cfg)
{
	tc_fuzz_proto_config(tc_protocol_find("ptm"), in, cfg);
	((struct tc_ptm_config *)cfg)->ts_binary = 1;
}

/* Whether the addresses (addr=) of two lines differ. */
static int addr_differs(const char *r, const char *a)
{
	size_t rn = 0, an = 0;
	const char *rv = tc_diff_field(r, "addr", 4, &rn), *av = tc_diff_field(a, "addr", 4, &an);
	return rv && av && (rn != an || memcmp(rv, av, rn));
}

/* A branch or waypoint update whose address differs after a waypoint
 * update, with no branch address or I-sync packet between them (§4.5.4
 * compares with "the last branch address packet or I-sync packet"). */
static int after_waypoint(const struct tc_diff_lines *ref, size_t at, const char *r, const char *a)
{
	if (!((tc_diff_kind_is(r, "branch") && tc_diff_kind_is(a, "branch")) ||
	      (tc_diff_kind_is(r, "waypoint") && tc_diff_kind_is(a, "waypoint"))) || !addr_differs(r, a))
		return 0;
	while (at-- > 0) {
		const char *line = tc_diff_line_at(ref, at);
		if (tc_diff_kind_is(line, "waypoint"))
			return 1;
		if (tc_diff_kind_is(line, "branch") || tc_diff_kind_is(line, "isync"))
			return 0;
	}
	return 0;
}

/* A line of the same kind with an address before the reference's first
 * I-sync: LastState is UNKNOWN there, and so is an address compressed
 * against it (PTM-P5; the reference resolves it against zero). */
static int before_isync(const struct tc_diff_lines *ref, size_t at, const char *r, const char *a)
{
	size_t rk = 0, ak = 0;
	const char *rkind = tc_diff_token(r, 2, &rk), *akind = tc_diff_token(a, 2, &ak);
	if (!rkind || !akind || rk != ak || memcmp(rkind, akind, rk) || !strstr(r, "addr="))
		return 0;
	for (size_t i = 0; i <= at; i++)
		if (tc_diff_kind_is(tc_diff_line_at(ref, i), "isync"))
			return 0;
	return 1;
}

static int explain_in_context(const struct tc_diff_lines *ref, size_t at, const char *r, const char *a,
			      const void *cfg, const uint8_t *trace, size_t len, const char *adapter)
{
	(void)trace;
	(void)len;
	const struct tc_ptm_config *c = cfg;
	if (!r || !a || tc_diff_line_offset(r) != tc_diff_line_offset(a))
		return -1;
	if (before_isync(ref, at, r, a))
		return BEFORE_ISYNC;
	if (strcmp(adapter, "opencsd"))
		return -1;
	if (after_waypoint(ref, at, r, a))
		return AFTER_WAYPOINT;
	if (c->version == 0 && c->ts64 && tc_diff_kind_is(r, "timestamp") && tc_diff_kind_is(a, "timestamp"))
		return TIMESTAMP_V10;
	return -1;
}

static const char *const context_fields[] = { "ns", "hyp", "ctxid", "vmid", NULL };

const struct tc_diff_rules tc_diff_rules_ptm = {
	.protocol = "ptm",
	.read_config = read_config,
	.explained = explained,
	.nexplained = NEXPLAINED,
	.explain_in_context = explain_in_context,
	.sync_kind = "async",
	.context_fields = context_fields,
	.spec = "IHI 0035B (reference/ptm/FORMAT.md, reference/ptm/ERRATA.md)",
};
