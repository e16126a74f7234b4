/* SPDX-License-Identifier: BSD-3-Clause */
/* unit_config.c — the shared configuration builder over ETE's and PTM's key and register tables, both ways; prints TAP. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#include "tracecert/ete_config.h"
#include "tracecert/protocol.h"
#include "tracecert/ptm_config.h"

/* A plain ETE 1.0 TRCIDR0: RES1, TRCBB, TRCCCI, NUMEVENT 3, TSSIZE 0b01000. */
#define IDR0_BASE 0x08000ca1u
#define DEVARCH_ETE(rev) (0x47705a13u | (uint32_t)(rev) << 16)

static const struct tc_protocol *ete, *ptm;

static void init(struct tc_config_builder *b)
{
	tc_config_builder_init(b, ete);
}

static int set(struct tc_config_builder *b, const char *name, const char *value, char *err, size_t errlen)
{
	return tc_config_builder_set(b, name, value, err, errlen);
}

static int setx(struct tc_config_builder *b, const char *name, uint32_t v)
{
	char value[16], err[300];
	snprintf(value, sizeof value, "0x%08x", v);
	return tc_config_builder_set(b, name, value, err, sizeof err);
}

/* Applies b over the defaults; *rc is the result, err its message. */
static struct tc_ete_config derive_rc(const struct tc_config_builder *b, struct tc_config_notes *notes, int *rc,
				      char *err, size_t errlen)
{
	struct tc_ete_config cfg;
	tc_ete_config_default(&cfg);
	*rc = tc_config_builder_apply(b, &cfg, notes, err, errlen);
	return cfg;
}

static struct tc_ete_config derive(const struct tc_config_builder *b, struct tc_config_notes *notes)
{
	char err[300];
	int rc;
	return derive_rc(b, notes, &rc, err, sizeof err);
}

/* Whether one of the notes contains text. */
static int noted(const struct tc_config_notes *n, const char *text)
{
	for (int i = 0; i < n->n; i++)
		if (strstr(n->note[i], text))
			return 1;
	return 0;
}

static int key(const char *name)
{
	return tc_config_key_find(ete, name);
}

static void test_table(void)
{
	struct tc_ete_config cfg;
	ok(ete && ptm && tc_protocol_by_id(tc_proto_ete) == ete && tc_protocol_by_id(tc_proto_ptm) == ptm &&
		   !tc_protocol_find("etm") && !tc_protocol_by_id(0), "descriptors by name and id");
	ok(ete->nkeys == 12 && ete->nkeys <= TC_CONFIG_KEYS_MAX && ete->keys == tc_ete_keys, "12 ETE keys in the table");
	ok(key("maxspec") == 0 && key("walk_limit") == ete->nkeys - 1, "keys found by name");
	ok(key("MAXSPEC") < 0 && key(NULL) < 0, "key names are exact");
	ok(tc_config_reg_find(ete, "trcidr0") == tc_ete_reg_trcidr0 &&
		   tc_config_reg_find(ete, "TRCTraceIDR") == tc_ete_reg_trctraceidr &&
		   tc_config_reg_find(ete, "TRCIDR0(0x1E0)") == tc_ete_reg_trcidr0,
	   "register names in any case, a (…) suffix ignored");
	ok(tc_config_reg_find(ete, "TRCIDR1") < 0 && tc_config_reg_find(ete, "TRCIDR0(") < 0,
	   "TRCIDR1 is not a register the configuration uses; an open suffix is no name");
	tc_ete_config_default(&cfg);
	tc_config_set(ete, &cfg, key("walk_limit"), 0xffffffffu);
	ok(cfg.walk_limit == 0xffffffffu && tc_config_get(ete, &cfg, key("walk_limit")) == 0xffffffffu,
	   "walk_limit takes 32 bits");
	for (int k = 0; k < ete->nkeys; k++)
		ok(ete->keys[k].doc && ete->keys[k].source && (ete->keys[k].stage == 1 || ete->keys[k].stage == 3),
		   "key %s has a doc line, a source and a stage", ete->keys[k].name);
}

static void test_idr0(void)
{
	struct tc_config_builder b;
	struct tc_config_notes notes;
	struct tc_ete_config cfg;
	init(&b);
	ok(setx(&b, "TRCIDR0", IDR0_BASE | 1u << 29) == 0, "TRCIDR0 with COMMOPT");
	cfg = derive(&b, &notes);
	ok(cfg.commopt == 1 && cfg.commtrans == 0 && cfg.tsmark == 0 && cfg.ite == 0, "COMMOPT [29] -> commopt=1");
	ok(noted(&notes, "64 bits"), "TSSIZE 0b01000: 64-bit timestamps, noted");
	init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 30);
	cfg = derive(&b, NULL);
	ok(cfg.commtrans == 1 && cfg.commopt == 0, "COMMTRANS [30] -> commtrans=1");
	init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 22);
	cfg = derive(&b, NULL);
	ok(cfg.ite == 1 && cfg.tsmark == 0, "ITE [22] -> ite=1");
	init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 23);
	cfg = derive(&b, &notes);
	ok(cfg.tsmark == 1 && !noted(&notes, "REVISION"), "TSMARK [23] without TRCDEVARCH -> tsmark=1");
	setx(&b, "TRCDEVARCH", DEVARCH_ETE(1));
	cfg = derive(&b, &notes);
	ok(cfg.tsmark == 1 && noted(&notes, "ETE 1.1"), "TSMARK with TRCDEVARCH.REVISION 1 (ETE 1.1) -> tsmark=1");
	setx(&b, "TRCDEVARCH", DEVARCH_ETE(0));
	cfg = derive(&b, &notes);
	ok(cfg.tsmark == 0 && noted(&notes, "REVISION 0"), "TSMARK with REVISION 0 (ETE 1.0) is ignored, with a note");
	init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 31);
	derive(&b, &notes);
	ok(noted(&notes, "RES0"), "TRCIDR0 bit 31 set: a note");
}

static void test_retstack(void)
{
	struct tc_config_builder b;
	struct tc_config_notes notes;
	struct tc_ete_config cfg;
	static const struct { uint32_t idr0_rs, cfg_rs, want; } cases[] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 1 } };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		init(&b);
		setx(&b, "TRCIDR0", IDR0_BASE | cases[i].idr0_rs << 9);
		setx(&b, "TRCCONFIGR", 0xc1u | cases[i].cfg_rs << 12);
		cfg = derive(&b, &notes);
		ok(cfg.retstack == (int)cases[i].want && ((tc_config_builder_covered(&b) >> key("retstack")) & 1),
		   "RETSTACK %u and RS %u -> retstack=%u", cases[i].idr0_rs, cases[i].cfg_rs, cases[i].want);
		if (!cases[i].idr0_rs && cases[i].cfg_rs)
			ok(noted(&notes, "RS"), "RS without RETSTACK: a note");
	}
	init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 9);
	cfg = derive(&b, NULL);
	ok(cfg.retstack == 0 && !((tc_config_builder_covered(&b) >> key("retstack")) & 1),
	   "TRCIDR0 alone does not derive retstack");
}

static void test_idr2_idr8(void)
{
	struct tc_config_builder b;
	struct tc_config_notes notes;
	struct tc_ete_config cfg;
	char err[300];
	int rc;
	init(&b);
	ok(setx(&b, "TRCIDR2", 0x80000488u | 8u << 25) == 0, "TRCIDR2 with WFXMODE and CCSIZE 8");
	cfg = derive(&b, &notes);
	ok(cfg.wfxmode == 1 && noted(&notes, "20 bits"), "WFXMODE [31] -> wfxmode=1; CCSIZE 8: a 20-bit cycle counter");
	setx(&b, "TRCIDR2", 0x00000488u);
	cfg = derive(&b, &notes);
	ok(cfg.wfxmode == 0 && noted(&notes, "12 bits"), "WFXMODE 0 -> wfxmode=0; CCSIZE 0: 12 bits");
	set(&b, "TRCIDR2", "0x12000488", err, sizeof err);
	derive_rc(&b, NULL, &rc, err, sizeof err);
	ok(rc == -1 && strstr(err, "CCSIZE"), "CCSIZE 9 is reserved: %s", err);
	init(&b);
	ok(set(&b, "TRCIDR8", "65535", err, sizeof err) == 0 && derive(&b, NULL).maxspec == 65535,
	   "TRCIDR8 65535 (decimal) -> maxspec=65535");
	set(&b, "TRCIDR8", "0x10000", err, sizeof err);
	derive_rc(&b, NULL, &rc, err, sizeof err);
	ok(rc == -1 && strstr(err, "MAXSPEC"), "TRCIDR8 0x10000 is more than the decoder takes: %s", err);
}

static void test_devarch_traceid(void)
{
	struct tc_config_builder b;
	struct tc_config_notes notes;
	char err[300];
	int rc;
	init(&b);
	set(&b, "TRCDEVARCH", "0x47734A13", err, sizeof err);
	derive_rc(&b, NULL, &rc, err, sizeof err);
	ok(rc == -1 && strstr(err, "not an ETE"), "an ETMv4 TRCDEVARCH (ARCHVER 4) is refused: %s", err);
	set(&b, "TRCDEVARCH", "0x47745A13", err, sizeof err);
	derive_rc(&b, NULL, &rc, err, sizeof err);
	ok(rc == -1 && strstr(err, "reserved"), "REVISION 4 is reserved: %s", err);
	for (int i = 0; i < 3; i++) {
		static const char *const other[] = { "0x46705A13", "0x47605A13", "0x47705A14" };
		set(&b, "TRCDEVARCH", other[i], err, sizeof err);
		derive_rc(&b, NULL, &rc, err, sizeof err);
		ok(rc == -1, "TRCDEVARCH %s (another architect, PRESENT 0, another part) is refused", other[i]);
	}
	ok(set(&b, "TRCDEVARCH", "0x47735A13", err, sizeof err) == 0, "REVISION 3 (ETE 1.3) is taken");
	ok(set(&b, "TRCTRACEIDR", "0x90", err, sizeof err) == 0, "TRCTRACEIDR 0x90");
	derive(&b, &notes);
	ok(noted(&notes, "ETE 1.3") && noted(&notes, "TRCTRACEIDR") && (b.reg[ete->trace_id_reg] & 0x7f) == 0x10,
	   "TRACEID [6:0] 0x10, RES0 bit 7 noted, ETE 1.3 noted");
	init(&b);
	derive(&b, &notes);
	ok(notes.n == 0, "no registers: no notes");
}

/* The register a refusal is about, among good ones given with it (snapshot errors name its line). */
static void test_refused_reg(void)
{
	struct tc_config_builder b;
	char err[300];
	int rc;
	init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE);
	setx(&b, "TRCIDR8", 4);
	setx(&b, "TRCDEVARCH", DEVARCH_ETE(1));
	ok(tc_config_builder_refused_reg(&b) == -1, "good registers: none refused");
	setx(&b, "TRCIDR2", 0x12000488u);
	derive_rc(&b, NULL, &rc, err, sizeof err);
	ok(rc == -1 && tc_config_builder_refused_reg(&b) == tc_ete_reg_trcidr2, "CCSIZE 9 among good registers: TRCIDR2 is the one refused");
	setx(&b, "TRCIDR2", 0x00000488u);
	setx(&b, "TRCIDR8", 0x10000u);
	ok(tc_config_builder_refused_reg(&b) == tc_ete_reg_trcidr8, "MAXSPEC 65536: TRCIDR8");
	setx(&b, "TRCIDR8", 4);
	setx(&b, "TRCDEVARCH", DEVARCH_ETE(4));
	ok(tc_config_builder_refused_reg(&b) == tc_ete_reg_trcdevarch, "REVISION 4: TRCDEVARCH");
	tc_config_builder_init(&b, ptm);
	tc_config_builder_set(&b, "ETMCR", "0x1000", err, sizeof err);
	tc_config_builder_set(&b, "ETMIDR", "0x41000320", err, sizeof err);
	ok(tc_config_builder_refused_reg(&b) == tc_config_reg_find(ptm, "ETMIDR"), "PTM: an ETMIDR minor version 2: ETMIDR");
}

static void test_values_and_names(void)
{
	struct tc_config_builder b;
	char err[300];
	init(&b);
	ok(set(&b, "TRCIDR7", "0", err, sizeof err) == -1 && strstr(err, "TRCIDR7"), "unknown name: %s", err);
	ok(set(&b, "cycle_accurate", "1", err, sizeof err) == -1 && strstr(err, "protocol ptm"),
	   "a key of another protocol names it: %s", err);
	ok(set(&b, "TRCIDR0", "0xzz", err, sizeof err) == -2 && strstr(err, "0xzz"), "0xzz does not parse: %s", err);
	ok(set(&b, "TRCIDR0", "0x", err, sizeof err) == -2, "0x alone does not parse");
	ok(set(&b, "TRCIDR0", "0x100000000", err, sizeof err) == -2, "33 bits do not fit");
	ok(set(&b, "TRCIDR0", "-1", err, sizeof err) == -2, "-1 does not parse");
	ok(set(&b, "TRCIDR0", " 0x1", err, sizeof err) == -2, "a leading blank does not parse");
	ok(set(&b, "TRCIDR0", "0x28000ea1x", err, sizeof err) == -2, "trailing text does not parse");
	ok(set(&b, "TRCIDR0", "0x28000EA1", err, sizeof err) == 0, "0x28000EA1 (upper-case hex) parses");
	ok(set(&b, "commopt", "2", err, sizeof err) == -2 && strstr(err, "commopt"), "commopt=2: %s", err);
	ok(set(&b, "commopt", "0x1", err, sizeof err) == -2, "keys are decimal");
	ok(set(&b, "maxspec", NULL, err, sizeof err) == -1 && set(&b, NULL, "1", NULL, 0) == -1, "no name or value");
	ok(b.reg_given == 1u << tc_ete_reg_trcidr0 && b.key_given == 0, "failed sets changed nothing");
}

/* The shared lookups and number parsers (reference/config.c, reference/protocol.c) at their edges. */
static void test_lookups_and_numbers(void)
{
	struct tc_config_builder b;
	char err[300];
	ok(tc_protocol_find(NULL) == NULL && tc_protocol_find("") == NULL && tc_protocol_by_id(-1) == NULL,
	   "no protocol for NULL, \"\" or id -1");
	ok(tc_config_key_find(NULL, "maxspec") == -1 && tc_config_key_find(ete, NULL) == -1 &&
	   tc_config_key_find(ete, "maxspec") >= 0, "key lookup: NULL protocol or name finds nothing");
	ok(tc_config_reg_find(NULL, "TRCIDR0") == -1 && tc_config_reg_find(ete, NULL) == -1,
	   "register lookup: NULL protocol or name finds nothing");
	ok(tc_config_reg_find(ete, "TRCIDR0(0x1E0") == -1 && tc_config_reg_find(ete, "TRCIDR0(0x1E0)") >= 0 &&
	   tc_config_reg_find(ete, "trcidr0") >= 0, "a register's (suffix) must be closed; any case");
	init(&b);
	ok(set(&b, "maxspec", "99999999999999999999999", err, sizeof err) == -2, "a decimal beyond 64 bits is refused");
	ok(set(&b, "maxspec", "", err, sizeof err) == -2 && set(&b, "maxspec", "+1", err, sizeof err) == -2,
	   "an empty or signed decimal is refused");
	ok(set(&b, "TRCIDR0", "99999999999999999999999", err, sizeof err) == -2 &&
	   set(&b, "TRCIDR0", "4294967296", err, sizeof err) == -2 && set(&b, "TRCIDR0", "4294967295", err, sizeof err) == 0,
	   "a decimal register value beyond 32 bits is refused, 2^32-1 accepted");
	ok(set(&b, "commopt", "1", NULL, 0) == 0 && set(&b, "commopt", "7", NULL, 0) == -2,
	   "no message buffer: the result alone");
}

static void test_refused_leaves_config(void)
{
	struct tc_config_builder b;
	struct tc_ete_config cfg, before;
	char err[300];
	int rc;
	init(&b);
	set(&b, "maxspec", "8", err, sizeof err);
	set(&b, "queue_cap", "8", err, sizeof err);
	cfg = derive_rc(&b, NULL, &rc, err, sizeof err);
	tc_ete_config_default(&before);
	ok(rc == -1 && strstr(err, "queue_cap") && !memcmp(&cfg, &before, sizeof cfg),
	   "queue_cap <= maxspec is refused, the configuration left as it was: %s", err);
}

static void test_precedence(void)
{
	struct tc_config_builder a, b;
	char err[300];
	init(&a);
	init(&b);
	set(&a, "maxspec", "3", err, sizeof err);
	set(&a, "TRCIDR8", "8", err, sizeof err);
	set(&b, "TRCIDR8", "8", err, sizeof err);
	set(&b, "maxspec", "3", err, sizeof err);
	ok(derive(&a, NULL).maxspec == 3 && derive(&b, NULL).maxspec == 3, "a key given overrides a derived one, either order");
	set(&a, "TRCIDR0", "0x28000EA1", err, sizeof err);
	set(&a, "commopt", "0", err, sizeof err);
	ok(derive(&a, NULL).commopt == 0, "commopt=0 overrides TRCIDR0.COMMOPT 1");
	ok(tc_config_builder_covered(&a) == (1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4),
	   "covered: maxspec, commopt, commtrans, tsmark, ite");
}

/* Inverse mapping both ways: config -> registers -> config, and registers -> config -> registers. */
static void test_inverse(void)
{
	int mismatches = 0, reg_mismatches = 0;
	for (unsigned bits = 0; bits < 64; bits++) {
		struct tc_ete_config cfg, back;
		struct tc_config_builder b;
		uint32_t regs[tc_ete_reg_count], again[tc_ete_reg_count];
		tc_ete_config_default(&cfg);
		cfg.commopt = bits & 1;
		cfg.commtrans = bits >> 1 & 1;
		cfg.tsmark = bits >> 2 & 1;
		cfg.ite = bits >> 3 & 1;
		cfg.wfxmode = bits >> 4 & 1;
		cfg.retstack = bits >> 5 & 1;
		cfg.maxspec = bits * 1000;
		tc_ete_config_to_regs(&cfg, 0x10 + bits, regs);
		init(&b);
		for (int r = 0; r < tc_ete_reg_count; r++)
			if (setx(&b, tc_ete_regs[r].name, regs[r]))
				mismatches++;
		back = derive(&b, NULL);
		if (memcmp(&cfg, &back, sizeof cfg) ||
		    tc_config_builder_covered(&b) != (1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 9 | 1u << 10))
			mismatches++;
		tc_ete_config_to_regs(&back, 0x10 + bits, again);
		if (memcmp(regs, again, sizeof regs))
			reg_mismatches++;
	}
	ok(mismatches == 0, "ETE: config -> registers -> config is the identity for 64 configurations");
	ok(reg_mismatches == 0, "ETE: registers -> config -> registers is the identity for them");
}

/* PTM: ETMCR, ETMIDR, ETMCCER both ways, and the refusals. */
static void test_ptm(void)
{
	int mismatches = 0;
	char err[300];
	int rc;
	struct tc_config_builder b;
	struct tc_ptm_config cfg;
	for (unsigned bits = 0; bits < 512; bits++) {
		struct tc_ptm_config want, got;
		uint32_t regs[tc_ptm_reg_count];
		static const int cid[4] = { 0, 1, 2, 4 };
		tc_ptm_config_default(&want);
		want.version = bits & 1;
		want.cycle_accurate = bits >> 1 & 1;
		want.branch_broadcast = bits >> 2 & 1;
		want.return_stack = bits >> 3 & 1;
		want.timestamps = bits >> 4 & 1;
		want.contextid_size = cid[bits >> 5 & 3];
		want.vmid = bits >> 7 & 1;
		want.ts64 = bits >> 8 & 1;
		want.ts_binary = !(bits & 1);
		tc_ptm_config_to_regs(&want, 0x12, regs);
		tc_config_builder_init(&b, ptm);
		for (int r = 0; r < tc_ptm_reg_count; r++) {
			char value[16];
			snprintf(value, sizeof value, "0x%08x", regs[r]);
			mismatches += tc_config_builder_set(&b, ptm->regs[r].name, value, err, sizeof err) != 0;
		}
		tc_ptm_config_default(&got);
		mismatches += tc_config_builder_apply(&b, &got, NULL, err, sizeof err) != 0 || memcmp(&want, &got, sizeof got);
	}
	ok(mismatches == 0, "PTM: config -> ETMCR/ETMIDR/ETMCCER -> config is the identity for 512 configurations");
	tc_config_builder_init(&b, ptm);
	tc_config_builder_set(&b, "ETMIDR", "0x411CF200", err, sizeof err);
	tc_ptm_config_default(&cfg);
	rc = tc_config_builder_apply(&b, &cfg, NULL, err, sizeof err);
	ok(rc == -1 && strstr(err, "PFT"), "ETMIDR of an ETMv3 (major 2) is refused for PTM: %s", err);
	tc_config_builder_init(&b, ptm);
	ok(tc_config_builder_set(&b, "maxspec", "1", err, sizeof err) == -1 && strstr(err, "protocol ete"),
	   "maxspec is ETE's, not PTM's: %s", err);
	tc_config_builder_set(&b, "contextid_size", "3", err, sizeof err);
	rc = tc_config_builder_apply(&b, &cfg, NULL, err, sizeof err);
	ok(rc == -1 && strstr(err, "contextid_size"), "contextid_size=3 is refused: %s", err);
}

/* A protocol whose registers are fields named by the text, with no
 * register file: every offset 0. */
static int no_offsets(const struct tc_protocol *p)
{
	for (int r = 0; r < p->nregs; r++)
		if (p->regs[r].offset != 0)
			return 0;
	return 1;
}

/* Every protocol through its descriptor: config_to_regs of the defaults
 * derives the defaults back, the trace ID lands in trace_id_reg, register
 * offsets are word-aligned and distinct. */
static void test_descriptor_to_regs(void)
{
	for (int i = 0; tc_protocols[i]; i++) {
		const struct tc_protocol *p = tc_protocols[i];
		unsigned char cfg[1024], back[1024];
		uint32_t regs[TC_CONFIG_REGS_MAX];
		struct tc_config_builder b;
		char err[300];
		int bad_offsets = 0, rc;
		if (p->config_size > sizeof cfg || p->nregs > TC_CONFIG_REGS_MAX) {
			ok(0, "%s: configuration of %zu bytes, %d registers fit the test", p->name, p->config_size, p->nregs);
			continue;
		}
		memset(cfg, 0, sizeof cfg);
		memset(back, 0, sizeof back);
		tc_config_default(p, cfg);
		tc_config_default(p, back);
		p->config_to_regs(cfg, 0x23, regs);
		tc_config_builder_init(&b, p);
		for (int r = 0; r < p->nregs; r++) {
			setx(&b, p->regs[r].name, regs[r]);
			bad_offsets += (p->regs[r].offset & 3) != 0;
			for (int q = 0; q < r; q++)
				bad_offsets += p->regs[q].offset == p->regs[r].offset;
		}
		rc = tc_config_builder_apply(&b, back, NULL, err, sizeof err);
		ok(rc == 0 && memcmp(cfg, back, p->config_size) == 0, "%s: the defaults' registers derive the defaults (%s)",
		   p->name, rc ? err : "ok");
		if (p->trace_id_reg >= 0)
			ok(p->trace_id_reg < p->nregs && (regs[p->trace_id_reg] & 0x7f) == 0x23, "%s: the trace ID is in %s[6:0]",
			   p->name, p->regs[p->trace_id_reg].name);
		else
			ok(p->trace_id_reg == -1, "%s: no trace ID register (trace_id_reg -1)", p->name);
		ok(bad_offsets == 0 || no_offsets(p), "%s: register offsets are word-aligned and distinct, or none has one",
		   p->name);
	}
}

/* Every key of every protocol through its table alone: the rows' fields
 * lie inside the struct, are integers of 1, 2, 4 or 8 bytes, do not
 * overlap and cover every byte of it (so each field is the key of one row);
 * tc_config_default gives each key its default; and tc_config_set then
 * tc_config_get gives back each of 0, 1, the default, max/2, a bit pattern
 * and max, changing no byte outside the key's field; a key given by name
 * through the builder lands there too. */
static int byte_of_some_key(const struct tc_protocol *p, size_t at)
{
	int n = 0;
	for (int k = 0; k < p->nkeys; k++)
		n += at >= p->keys[k].offset && at < p->keys[k].offset + p->keys[k].size;
	return n;
}

static int only_field_changed(const struct tc_config_key *key, const unsigned char *cfg, size_t size, unsigned char fill)
{
	for (size_t i = 0; i < size; i++)
		if ((i < key->offset || i >= key->offset + key->size) && cfg[i] != fill)
			return 0;
	return 1;
}

static void test_key_fields(const struct tc_protocol *p)
{
	size_t covered = 0, twice = 0;
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		size_t z = key->size;
		ok((z == 1 || z == 2 || z == 4 || z == 8) && key->offset % z == 0 && key->offset + z <= p->config_size &&
			   (z == 8 || key->max < (UINT64_C(1) << (8 * z))),
		   "%s.%s: a field of %zu bytes at offset %zu of the %zu-byte struct, wide enough for max %llu", p->name,
		   key->name, z, key->offset, p->config_size, (unsigned long long)key->max);
	}
	for (size_t i = 0; i < p->config_size; i++) {
		int n = byte_of_some_key(p, i);
		covered += n >= 1;
		twice += n > 1;
	}
	ok(covered == p->config_size && twice == 0, "%s: the keys' fields cover each of the %zu bytes of the struct once (%zu covered, %zu twice)",
	   p->name, p->config_size, covered, twice);
}

static void test_key_round_trips(const struct tc_protocol *p)
{
	unsigned char cfg[1024], base[1024];
	if (p->config_size > sizeof cfg) {
		ok(0, "%s: configuration of %zu bytes fits the test", p->name, p->config_size);
		return;
	}
	memset(base, 0x5a, sizeof base);
	tc_config_default(p, base);
	for (int k = 0; k < p->nkeys; k++)
		ok(tc_config_get(p, base, k) == p->keys[k].def, "%s.%s: tc_config_default gives the default %llu", p->name,
		   p->keys[k].name, (unsigned long long)p->keys[k].def);
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		uint64_t values[6] = { 0, 1, key->def, key->max / 2, UINT64_C(0xa5a5a5a5a5a5a5a5) & key->max, key->max };
		int good = 1;
		for (int i = 0; i < 6; i++) {
			uint64_t v = values[i] > key->max ? key->max : values[i];
			for (int fill = 0; fill < 2; fill++) {
				unsigned char f = fill ? 0xff : 0x00;
				memset(cfg, f, sizeof cfg);
				tc_config_set(p, cfg, k, v);
				good &= tc_config_get(p, cfg, k) == v && only_field_changed(key, cfg, p->config_size, f);
			}
		}
		ok(good, "%s.%s: set then get gives back 0, 1, the default, max/2, a bit pattern and max %llu, nothing else changed",
		   p->name, key->name, (unsigned long long)key->max);
	}
}

/* v when config_check accepts the defaults with key k = v; else the
 * largest value below max, not the default, that it accepts (a key whose
 * range's bounds the combinations refuse: a width above XLEN, below 1). */
static uint64_t accepted_value(const struct tc_protocol *p, int k, uint64_t v)
{
	unsigned char cfg[1024];
	const struct tc_config_key *key = &p->keys[k];
	tc_config_default(p, cfg);
	tc_config_set(p, cfg, k, v);
	if (!p->config_check(cfg, NULL, 0))
		return v;
	for (uint64_t w = key->max; w > 0 && key->max - w < 4096; w--) {
		if (w == key->def)
			continue;
		tc_config_default(p, cfg);
		tc_config_set(p, cfg, k, w);
		if (!p->config_check(cfg, NULL, 0))
			return w;
	}
	return v;
}

static void test_keys_by_name(const struct tc_protocol *p)
{
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		unsigned char cfg[1024], want[1024];
		struct tc_config_builder b;
		char value[32], err[300];
		uint64_t v = key->max == key->def ? 0 : key->max;
		int rc;
		if (p->config_size > sizeof cfg)
			continue;
		if (!strcmp(p->name, "ptm") && !strcmp(key->name, "contextid_size"))
			v = 2;            /* 4 is max; 3 the value config_check refuses */
		tc_config_default(p, cfg);
		v = accepted_value(p, k, v);
		memcpy(want, cfg, p->config_size);
		tc_config_set(p, want, k, v);
		snprintf(value, sizeof value, "%llu", (unsigned long long)v);
		tc_config_builder_init(&b, p);
		rc = tc_config_builder_set(&b, key->name, value, err, sizeof err);
		rc = rc ? rc : tc_config_builder_apply(&b, cfg, NULL, err, sizeof err);
		ok(rc == 0 && tc_config_get(p, cfg, k) == v && !memcmp(cfg, want, p->config_size),
		   "%s: --config %s=%s sets that key alone (%s)", p->name, key->name, value, rc ? err : "ok");
	}
}

static void test_every_key(void)
{
	for (int i = 0; tc_protocols[i]; i++) {
		test_key_fields(tc_protocols[i]);
		test_key_round_trips(tc_protocols[i]);
		test_keys_by_name(tc_protocols[i]);
	}
}

int main(void)
{
	ete = tc_protocol_find("ete");
	ptm = tc_protocol_find("ptm");
	test_table();
	test_idr0();
	test_retstack();
	test_idr2_idr8();
	test_devarch_traceid();
	test_refused_reg();
	test_values_and_names();
	test_lookups_and_numbers();
	test_refused_leaves_config();
	test_precedence();
	test_inverse();
	test_ptm();
	test_descriptor_to_regs();
	test_every_key();
	return tap_finish();
}
