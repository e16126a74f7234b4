/* tracecert/ete_config.h — ETE decoder configuration: the one key table, and the configuration derived from the trace unit's registers. */
#ifndef TRACECERT_ETE_CONFIG_H
#define TRACECERT_ETE_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/ete.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which vectors must give a key in [config] (vectors/README.md). */
enum tc_ete_key_need {
	tc_ete_key_required = 0,  /* every vector */
	tc_ete_key_required_l3,   /* vectors with [expect.l3] */
	tc_ete_key_optional       /* the default applies when absent */
};

/* One configuration key of struct tc_ete_config. The table tc_ete_keys is
 * the only list of keys: the command-line help, the vector reader and the
 * documentation (tracecert config --markdown) are made from it. */
struct tc_ete_key {
	const char *name;         /* as on the command line and in [config] */
	unsigned long max;        /* decimal values 0..max */
	unsigned long def;        /* default */
	int need;                 /* enum tc_ete_key_need */
	int stage;                /* 1: stages 1-2 (dump); 3: stage 3 only (decode) */
	const char *source;       /* the register field it is derived from, or why none is */
	const char *doc;          /* one line */
};

#define TC_ETE_KEYS_MAX 16
extern const struct tc_ete_key tc_ete_keys[];
extern const int tc_ete_nkeys;

/* Index of a key in tc_ete_keys, or -1. */
int tc_ete_key_find(const char *name);

/* The value of key k of cfg as decimal text; 0, or -1 when k is out of range. */
int tc_ete_config_key_text(const struct tc_ete_config *cfg, int k, char *buf, size_t size);

/* The trace unit registers a configuration is derived from. */
enum tc_ete_reg {
	tc_ete_reg_trcidr0, tc_ete_reg_trcidr2, tc_ete_reg_trcidr8,
	tc_ete_reg_trcconfigr, tc_ete_reg_trcdevarch, tc_ete_reg_trctraceidr,
	tc_ete_reg_count
};

struct tc_ete_reg_desc {
	const char *name;         /* upper case, as in a snapshot's [regs] */
	const char *doc;          /* the fields used, one line */
};

extern const struct tc_ete_reg_desc tc_ete_regs[tc_ete_reg_count];

/* Index of a register (name in any case), or -1. */
int tc_ete_reg_find(const char *name);

/* What the registers say beyond the configuration (not used by the decoder yet). */
#define TC_ETE_MAX_NOTES 4
struct tc_ete_reg_info {
	unsigned ccsize_bits;     /* TRCIDR2.CCSIZE: cycle counter width 12..20 bits; 0 = TRCIDR2 not given */
	unsigned tssize_bits;     /* TRCIDR0.TSSIZE: timestamp width (64); 0 = TRCIDR0 not given */
	int revision;             /* TRCDEVARCH.REVISION (0 = ETE 1.0, 1 = 1.1 ...); -1 = not given */
	int trace_id;             /* TRCTRACEIDR.TRACEID; -1 = not given */
	int nnotes;
	char note[TC_ETE_MAX_NOTES][200];   /* fields ignored: RES0 bits set, a field the revision lacks */
};

/* Keys and registers gathered in any order. tc_ete_builder_apply writes, over
 * the caller's configuration, first what the registers derive and then the
 * keys given: an explicit key overrides a derived one whatever the order. */
struct tc_ete_config_builder {
	unsigned long key[TC_ETE_KEYS_MAX];
	uint32_t key_given;       /* bit i: tc_ete_keys[i] given */
	uint32_t reg[tc_ete_reg_count];
	uint32_t reg_given;       /* bit r: register r given */
};

void tc_ete_builder_init(struct tc_ete_config_builder *b);

/* Sets a key (decimal, in its range) or a register (32 bits, decimal or
 * 0x hex) by name. A register whose fields alone are unusable (a reserved
 * encoding, a value the decoder cannot take) is refused here. Returns 0,
 * -1 for an unknown name, -2 for a bad value; err says why. */
int tc_ete_builder_set(struct tc_ete_config_builder *b, const char *name, const char *value, char *err,
		       size_t errlen);

/* Keys given or derivable from the registers given (bit i = tc_ete_keys[i]). */
uint32_t tc_ete_builder_covered(const struct tc_ete_config_builder *b);

/* Writes the fields derived from the registers, then the keys given, over
 * *cfg (a base the caller set: defaults, or a vector's configuration). info
 * (may be NULL) receives the other register fields and notes. Returns 0. */
int tc_ete_builder_apply(const struct tc_ete_config_builder *b, struct tc_ete_config *cfg,
			 struct tc_ete_reg_info *info);

/* The inverse mapping: register values of a trace unit that has this
 * configuration (tc_ete_builder_apply of them gives cfg back for every
 * derived key), with trace ID trace_id. For test data (snapshot writer). */
void tc_ete_config_to_regs(const struct tc_ete_config *cfg, unsigned trace_id, uint32_t regs[tc_ete_reg_count]);

#ifdef __cplusplus
}
#endif

#endif
