/* unit_config.c — the ETE configuration table and its derivation from trace unit registers, both ways; prints TAP. */
#include <stdio.h>
#include <string.h>

#include "tap.h"

#include "tracecert/ete_config.h"

/* A plain ETE 1.0 TRCIDR0: RES1, TRCBB, TRCCCI, NUMEVENT 3, TSSIZE 0b01000. */
#define IDR0_BASE 0x08000ca1u
#define DEVARCH_ETE(rev) (0x47705a13u | (uint32_t)(rev) << 16)

static int set(struct tc_ete_config_builder *b, const char *name, const char *value, char *err, size_t errlen)
{
	return tc_ete_builder_set(b, name, value, err, errlen);
}

static int setx(struct tc_ete_config_builder *b, const char *name, uint32_t v)
{
	char value[16], err[300];
	snprintf(value, sizeof value, "0x%08x", v);
	return tc_ete_builder_set(b, name, value, err, sizeof err);
}

/* Applies b over the defaults. */
static struct tc_ete_config derive(const struct tc_ete_config_builder *b, struct tc_ete_reg_info *info)
{
	struct tc_ete_config cfg;
	tc_ete_config_default(&cfg);
	tc_ete_builder_apply(b, &cfg, info);
	return cfg;
}

static void test_table(void)
{
	struct tc_ete_config cfg;
	char text[32];
	ok(tc_ete_nkeys == 12 && tc_ete_nkeys <= TC_ETE_KEYS_MAX, "12 keys in the table");
	ok(tc_ete_key_find("maxspec") == 0 && tc_ete_key_find("walk_limit") == tc_ete_nkeys - 1, "keys found by name");
	ok(tc_ete_key_find("MAXSPEC") < 0 && tc_ete_key_find(NULL) < 0, "key names are exact");
	ok(tc_ete_reg_find("trcidr0") == tc_ete_reg_trcidr0 && tc_ete_reg_find("TRCTraceIDR") == tc_ete_reg_trctraceidr,
	   "register names in any case");
	ok(tc_ete_reg_find("TRCIDR1") < 0, "TRCIDR1 is not a register the configuration uses");
	tc_ete_config_default(&cfg);
	ok(tc_ete_config_set(&cfg, "walk_limit", "4294967295") == 0 && cfg.walk_limit == 0xffffffffu,
	   "walk_limit takes 32 bits");
	ok(tc_ete_config_key_text(&cfg, tc_ete_key_find("walk_limit"), text, sizeof text) == 0 &&
		   !strcmp(text, "4294967295"), "key text of walk_limit");
	ok(tc_ete_config_key_text(&cfg, tc_ete_nkeys, text, sizeof text) == -1, "key text out of range");
	for (int k = 0; k < tc_ete_nkeys; k++)
		ok(tc_ete_keys[k].doc && tc_ete_keys[k].source && (tc_ete_keys[k].stage == 1 || tc_ete_keys[k].stage == 3),
		   "key %s has a doc line, a source and a stage", tc_ete_keys[k].name);
}

static void test_idr0(void)
{
	struct tc_ete_config_builder b;
	struct tc_ete_config cfg;
	struct tc_ete_reg_info info;
	tc_ete_builder_init(&b);
	ok(setx(&b, "TRCIDR0", IDR0_BASE | 1u << 29) == 0, "TRCIDR0 with COMMOPT");
	cfg = derive(&b, &info);
	ok(cfg.commopt == 1 && cfg.commtrans == 0 && cfg.tsmark == 0 && cfg.ite == 0, "COMMOPT [29] -> commopt=1");
	ok(info.tssize_bits == 64, "TSSIZE 0b01000: 64-bit timestamps");
	tc_ete_builder_init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 30);
	cfg = derive(&b, NULL);
	ok(cfg.commtrans == 1 && cfg.commopt == 0, "COMMTRANS [30] -> commtrans=1");
	tc_ete_builder_init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 22);
	cfg = derive(&b, NULL);
	ok(cfg.ite == 1 && cfg.tsmark == 0, "ITE [22] -> ite=1");
	tc_ete_builder_init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 23);
	cfg = derive(&b, &info);
	ok(cfg.tsmark == 1 && info.nnotes == 0, "TSMARK [23] without TRCDEVARCH -> tsmark=1");
	setx(&b, "TRCDEVARCH", DEVARCH_ETE(1));
	cfg = derive(&b, &info);
	ok(cfg.tsmark == 1 && info.revision == 1, "TSMARK with TRCDEVARCH.REVISION 1 (ETE 1.1) -> tsmark=1");
	setx(&b, "TRCDEVARCH", DEVARCH_ETE(0));
	cfg = derive(&b, &info);
	ok(cfg.tsmark == 0 && info.nnotes == 1 && strstr(info.note[0], "REVISION 0"),
	   "TSMARK with REVISION 0 (ETE 1.0) is ignored, with a note: %s", info.note[0]);
	tc_ete_builder_init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 31);
	cfg = derive(&b, &info);
	ok(info.nnotes == 1 && strstr(info.note[0], "RES0"), "TRCIDR0 bit 31 set: a note");
}

static void test_retstack(void)
{
	struct tc_ete_config_builder b;
	struct tc_ete_config cfg;
	struct tc_ete_reg_info info;
	static const struct { uint32_t idr0_rs, cfg_rs, want; } cases[] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 1 } };
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tc_ete_builder_init(&b);
		setx(&b, "TRCIDR0", IDR0_BASE | cases[i].idr0_rs << 9);
		setx(&b, "TRCCONFIGR", 0xc1u | cases[i].cfg_rs << 12);
		cfg = derive(&b, &info);
		ok(cfg.retstack == (int)cases[i].want && ((tc_ete_builder_covered(&b) >> tc_ete_key_find("retstack")) & 1),
		   "RETSTACK %u and RS %u -> retstack=%u", cases[i].idr0_rs, cases[i].cfg_rs, cases[i].want);
		if (!cases[i].idr0_rs && cases[i].cfg_rs)
			ok(info.nnotes == 1 && strstr(info.note[0], "RS"), "RS without RETSTACK: a note");
	}
	tc_ete_builder_init(&b);
	setx(&b, "TRCIDR0", IDR0_BASE | 1u << 9);
	cfg = derive(&b, NULL);
	ok(cfg.retstack == 0 && !((tc_ete_builder_covered(&b) >> tc_ete_key_find("retstack")) & 1),
	   "TRCIDR0 alone does not derive retstack");
}

static void test_idr2_idr8(void)
{
	struct tc_ete_config_builder b;
	struct tc_ete_config cfg;
	struct tc_ete_reg_info info;
	char err[300];
	tc_ete_builder_init(&b);
	ok(setx(&b, "TRCIDR2", 0x80000488u | 8u << 25) == 0, "TRCIDR2 with WFXMODE and CCSIZE 8");
	cfg = derive(&b, &info);
	ok(cfg.wfxmode == 1 && info.ccsize_bits == 20, "WFXMODE [31] -> wfxmode=1; CCSIZE 8: a 20-bit cycle counter");
	setx(&b, "TRCIDR2", 0x00000488u);
	cfg = derive(&b, &info);
	ok(cfg.wfxmode == 0 && info.ccsize_bits == 12, "WFXMODE 0 -> wfxmode=0; CCSIZE 0: 12 bits");
	ok(set(&b, "TRCIDR2", "0x12000488", err, sizeof err) == -2 && strstr(err, "CCSIZE"),
	   "CCSIZE 9 is reserved: %s", err);
	ok(set(&b, "TRCIDR8", "65535", err, sizeof err) == 0 && derive(&b, NULL).maxspec == 65535,
	   "TRCIDR8 65535 (decimal) -> maxspec=65535");
	ok(set(&b, "TRCIDR8", "0x10000", err, sizeof err) == -2 && strstr(err, "MAXSPEC"),
	   "TRCIDR8 0x10000 is more than the decoder takes: %s", err);
}

static void test_devarch_traceid(void)
{
	struct tc_ete_config_builder b;
	struct tc_ete_reg_info info;
	char err[300];
	tc_ete_builder_init(&b);
	ok(set(&b, "TRCDEVARCH", "0x47734A13", err, sizeof err) == -2 && strstr(err, "not an ETE"),
	   "an ETMv4 TRCDEVARCH (ARCHVER 4) is refused: %s", err);
	ok(set(&b, "TRCDEVARCH", "0x47745A13", err, sizeof err) == -2 && strstr(err, "reserved"),
	   "REVISION 4 is reserved: %s", err);
	ok(set(&b, "TRCDEVARCH", "0x47735A13", err, sizeof err) == 0, "REVISION 3 (ETE 1.3) is taken");
	ok(set(&b, "TRCTRACEIDR", "0x90", err, sizeof err) == 0, "TRCTRACEIDR 0x90");
	derive(&b, &info);
	ok(info.revision == 3 && info.trace_id == 0x10 && info.nnotes == 1, "TRACEID [6:0] 0x10, RES0 bit 7 noted");
	tc_ete_builder_init(&b);
	derive(&b, &info);
	ok(info.revision == -1 && info.trace_id == -1 && info.ccsize_bits == 0 && info.tssize_bits == 0,
	   "no registers: nothing known");
}

static void test_values_and_names(void)
{
	struct tc_ete_config_builder b;
	char err[300];
	tc_ete_builder_init(&b);
	ok(set(&b, "TRCIDR7", "0", err, sizeof err) == -1 && strstr(err, "TRCIDR7"), "unknown name: %s", err);
	ok(set(&b, "TRCIDR0", "0xzz", err, sizeof err) == -2 && strstr(err, "0xzz"), "0xzz does not parse: %s", err);
	ok(set(&b, "TRCIDR0", "0x", err, sizeof err) == -2, "0x alone does not parse");
	ok(set(&b, "TRCIDR0", "0x100000000", err, sizeof err) == -2, "33 bits do not fit");
	ok(set(&b, "TRCIDR0", "-1", err, sizeof err) == -2, "-1 does not parse");
	ok(set(&b, "TRCIDR0", " 0x1", err, sizeof err) == -2, "a leading blank does not parse");
	ok(set(&b, "TRCIDR0", "0x28000ea1x", err, sizeof err) == -2, "trailing text does not parse");
	ok(set(&b, "TRCIDR0", "0x06000EA1", err, sizeof err) == -2 && strstr(err, "TSSIZE"),
	   "TSSIZE 0b00110 (48 bits) is refused for ETE: %s", err);
	ok(set(&b, "TRCIDR0", "0x28000EA1", err, sizeof err) == 0, "0x28000EA1 (upper-case hex) parses");
	ok(set(&b, "commopt", "2", err, sizeof err) == -2 && strstr(err, "commopt"), "commopt=2: %s", err);
	ok(set(&b, "commopt", "0x1", err, sizeof err) == -2, "keys are decimal");
	ok(b.reg_given == 1u << tc_ete_reg_trcidr0 && b.key_given == 0, "failed sets changed nothing");
}

static void test_precedence(void)
{
	struct tc_ete_config_builder a, b;
	char err[300];
	tc_ete_builder_init(&a);
	tc_ete_builder_init(&b);
	set(&a, "maxspec", "3", err, sizeof err);
	set(&a, "TRCIDR8", "8", err, sizeof err);
	set(&b, "TRCIDR8", "8", err, sizeof err);
	set(&b, "maxspec", "3", err, sizeof err);
	ok(derive(&a, NULL).maxspec == 3 && derive(&b, NULL).maxspec == 3, "a key given overrides a derived one, either order");
	set(&a, "TRCIDR0", "0x28000EA1", err, sizeof err);
	set(&a, "commopt", "0", err, sizeof err);
	ok(derive(&a, NULL).commopt == 0, "commopt=0 overrides TRCIDR0.COMMOPT 1");
	ok(tc_ete_builder_covered(&a) == (1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4),
	   "covered: maxspec, commopt, commtrans, tsmark, ite");
}

/* Inverse mapping both ways: config -> registers -> config, and registers -> config -> registers. */
static void test_inverse(void)
{
	int mismatches = 0, reg_mismatches = 0;
	for (unsigned bits = 0; bits < 64; bits++) {
		struct tc_ete_config cfg, back;
		struct tc_ete_config_builder b;
		uint32_t regs[tc_ete_reg_count], again[tc_ete_reg_count];
		char err[300];
		tc_ete_config_default(&cfg);
		cfg.commopt = bits & 1;
		cfg.commtrans = bits >> 1 & 1;
		cfg.tsmark = bits >> 2 & 1;
		cfg.ite = bits >> 3 & 1;
		cfg.wfxmode = bits >> 4 & 1;
		cfg.retstack = bits >> 5 & 1;
		cfg.maxspec = bits * 1000;
		tc_ete_config_to_regs(&cfg, 0x10 + bits, regs);
		tc_ete_builder_init(&b);
		for (int r = 0; r < tc_ete_reg_count; r++)
			if (setx(&b, tc_ete_regs[r].name, regs[r]))
				mismatches++;
		back = derive(&b, NULL);
		if (memcmp(&cfg, &back, sizeof cfg) || tc_ete_builder_covered(&b) != (1u << 0 | 1u << 1 | 1u << 2 | 1u << 3 | 1u << 4 | 1u << 9 | 1u << 10))
			mismatches++;
		tc_ete_config_to_regs(&back, 0x10 + bits, again);
		if (memcmp(regs, again, sizeof regs))
			reg_mismatches++;
		(void)err;
	}
	ok(mismatches == 0, "config -> registers -> config is the identity for 64 configurations");
	ok(reg_mismatches == 0, "registers -> config -> registers is the identity for them");
}

static void test_api_edges(void)
{
	struct tc_ete_config cfg;
	struct tc_ete_config_builder b;
	char text[8];
	tc_ete_config_default(NULL);
	tc_ete_builder_init(NULL);
	tc_ete_config_default(&cfg);
	tc_ete_builder_init(&b);
	ok(tc_ete_config_set(&cfg, "maxspec", NULL) == -2 && tc_ete_config_set(&cfg, NULL, "1") == -1, "NULL key or value");
	ok(tc_ete_config_key_text(NULL, 0, text, sizeof text) == -1, "key text of no configuration");
	ok(tc_ete_builder_set(NULL, "maxspec", "1", NULL, 0) == -1 && tc_ete_builder_set(&b, "maxspec", NULL, NULL, 0) == -1 &&
		   tc_ete_builder_set(&b, NULL, "1", NULL, 0) == -1, "NULL builder, value or name (no message buffer)");
	ok(tc_ete_builder_set(&b, "TRCDEVARCH", "0x46705A13", NULL, 0) == -2 && tc_ete_builder_set(&b, "TRCDEVARCH", "0x47605A13", NULL, 0) == -2 &&
		   tc_ete_builder_set(&b, "TRCDEVARCH", "0x47705A14", NULL, 0) == -2, "TRCDEVARCH: another architect, PRESENT 0, another part");
	ok(tc_ete_reg_find(NULL) < 0, "no register name");
}

int main(void)
{
	test_table();
	test_idr0();
	test_retstack();
	test_idr2_idr8();
	test_devarch_traceid();
	test_values_and_names();
	test_precedence();
	test_inverse();
	test_api_edges();
	return tap_finish();
}
