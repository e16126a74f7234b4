/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert/protocol.h — a protocol as shared code sees it: its configuration keys and registers, its names, its reference decoder. */
#ifndef TRACECERT_PROTOCOL_H
#define TRACECERT_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/trace.h"
#include "tracecert/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a decoder delivers what it produces. item() is called for every
 * level in `levels` (enum tc_level bits), synchronously from feed/finish.
 * L1, s1 and L2 items are the protocol's own records (tracecert/<p>.h),
 * L3 items are struct tc_l3; every one starts with struct tc_item. */
struct tc_sink {
	void *ctx;
	unsigned levels;
	void (*item)(void *ctx, int level, const struct tc_item *item);
};

/* Which vectors must give a configuration key in [config] (vectors/README.md). */
enum tc_key_need {
	tc_key_required = 0,      /* every vector */
	tc_key_required_l3,       /* vectors with [expect.l3] */
	tc_key_optional           /* the default applies when absent */
};

/* One configuration key. A protocol's table of keys is the only list of
 * them: the command line, its help, the vector reader, the documentation
 * and the reading and writing of the configuration struct (offset, size:
 * tc_config_get, tc_config_set) are made from it. Values are unsigned
 * integers 0..max. */
struct tc_config_key {
	const char *name;         /* as on the command line and in [config] */
	uint64_t max;
	uint64_t def;             /* default */
	int need;                 /* enum tc_key_need */
	int stage;                /* 1: packets and resolution (dump); 3: instruction level only (decode) */
	const char *source;       /* the register field it is derived from, or why none is */
	const char *doc;          /* one line */
	/* Its field of the protocol's configuration struct: an unsigned
	 * integer, or an int (which holds 0..max alike), of 1, 2, 4 or 8 bytes
	 * (TC_CONFIG_FIELD). */
	size_t offset;
	size_t size;
};

/* The offset and size of a key's field, the last two members of its row:
 * TC_CONFIG_FIELD(struct tc_x_config, name). */
#define TC_CONFIG_FIELD(type, field) offsetof(type, field), sizeof(((type *)0)->field)

/* One trace unit register a configuration can be derived from. */
struct tc_config_reg {
	const char *name;         /* upper case, as in a snapshot's [regs] */
	unsigned offset;          /* in the trace unit's register file (a snapshot's NAME(0xOFFSET)) */
	const char *doc;          /* the fields used, one line */
};

#define TC_CONFIG_KEYS_MAX 32
#define TC_CONFIG_REGS_MAX 16

/* Keys and registers gathered in any order (tracecert config, --config,
 * [config], a snapshot's [regs]); tc_config_apply writes the defaults, then
 * what the registers derive, then the keys given: an explicit key overrides
 * a derived one whatever the order. reference/config.c. */
struct tc_config_builder {
	const struct tc_protocol *proto;
	uint64_t key[TC_CONFIG_KEYS_MAX];
	uint32_t key_given;       /* bit k: proto->keys[k] given */
	uint32_t reg[TC_CONFIG_REGS_MAX];
	uint32_t reg_given;       /* bit r: proto->regs[r] given */
};

/* What the registers say beyond the keys (notes on ignored fields, sizes). */
#define TC_CONFIG_NOTES 4
struct tc_config_notes {
	int n;
	char note[TC_CONFIG_NOTES][200];
};

/* The sample file of a per-cycle protocol (struct tc_protocol.sample). */
struct tc_sample_format {
	uint8_t major;            /* header byte 5 */
	uint8_t max_minor;        /* header byte 6 at most this */
	uint8_t status_bits;      /* 3: a status byte's bit 3 is no status bit; 4: bits 3:0 are the status */
	uint8_t has_sync;         /* 1: bit 4 is a sync pin */
};

struct tc_protocol {
	int id;                   /* enum tc_protocol_id */
	const char *name;         /* its word of PROTOCOLS: [config] protocol=, --protocol */
	const char *title;        /* its full name and the document it follows (help, certificates) */
	/* The document of its errata: every departure from the published text
	 * and every ambiguity a vector's alternative reading names
	 * ("reference/<name>/ERRATA.md"). */
	const char *errata;

	/* Configuration: a struct of config_size bytes whose fields are the
	 * keys (each row's offset and size); shared code reads and writes it
	 * through the table only (tc_config_get, tc_config_set,
	 * tc_config_default). */
	size_t config_size;
	const struct tc_config_key *keys;
	int nkeys;
	const struct tc_config_reg *regs;
	int nregs;
	/* The keys derived from the registers given (bit r of given: regs[r]):
	 * value[k] and bit k of *derived for each; a note for each field ignored.
	 * Returns 0, or -1 with err naming the register field that is unusable.
	 * A refusal is about one register's own fields: derived from that
	 * register alone, it is refused too (tc_config_builder_refused_reg). */
	int (*config_derive)(const uint32_t *regs, uint32_t given, uint64_t *value, uint32_t *derived,
			     struct tc_config_notes *notes, char *err, size_t errlen);
	/* A combination of values the decoder refuses; 0, or -1 with err. */
	int (*config_check)(const void *cfg, char *err, size_t errlen);
	/* Register values (regs[nregs], in the order of regs) that config_derive
	 * turns back into cfg's keys, with trace_id in trace_id_reg (a
	 * snapshot's writer). Keys no register holds are not represented. */
	void (*config_to_regs)(const void *cfg, unsigned trace_id, uint32_t *regs);

	/* Names of error and warning classes (index 0: "none"). */
	const char *const *error_names;
	int nerrors;
	const char *const *warning_names;
	int nwarnings;

	/* Text of this protocol's L1, s1 and L2 items (the protocol's FORMAT.md;
	 * L3 items: tc_l3_format with error_names). Like snprintf. */
	int (*format)(char *buf, size_t size, int level, const struct tc_item *item);
	/* The parser of the L1 text, in the same module as format (one author
	 * per format): one line exactly as format writes it at L1 (no comment,
	 * no line break, single blanks) into *item, a record of l1_size bytes,
	 * zeroed but for what the line shows. Returns 0, or -1 with err saying
	 * "column C: expected …, found '…'" (C from 1; a caller adds its file
	 * and line). format(parse(line)) is line, byte for byte. */
	int (*parse_l1)(const char *line, struct tc_item *item, char *err, size_t errlen);
	/* The error class of an item (0 when it is not an error), and whether it
	 * is a warning (never scored). */
	int (*item_error)(int level, const struct tc_item *item);
	int (*item_is_warning)(int level, const struct tc_item *item);
	/* This protocol's L1 record: its size (item.size) and how many kinds it
	 * has (item.kind < l1_kinds). Shared code checks an item it did not
	 * make (an adapter's) against them before formatting it. */
	size_t l1_size;
	int l1_kinds;

	/* The reference decoder. alloc returns NULL for a configuration that
	 * config_check refuses, or when memory is short. */
	void *(*alloc)(const void *cfg, const struct tc_sink *sink);
	int (*set_image)(void *dec, const struct tc_image *image);
	int (*feed)(void *dec, const uint8_t *data, size_t len);
	int (*finish)(void *dec);
	void (*free)(void *dec);
	uint64_t (*skipped)(const void *dec);   /* bytes skipped before synchronisation */

	/* The register holding the trace ID (bits 6:0) that selects this source
	 * in a CoreSight formatted buffer, or -1. */
	int trace_id_reg;
	/* The device types of a trace snapshot's [device] type= that are this
	 * protocol, as the snapshot writes them, NULL-terminated. */
	const char *const *snapshot_types;
	/* The registers (bit r: regs[r]) a trace source of a snapshot must
	 * give, in its device file or as --config NAME=VALUE, when it is
	 * decoded (it has a buffer): without them the packets cannot be
	 * delimited or resolved (tools/snaprun.c refuses the snapshot, naming
	 * the file, the register and regs[r].doc). 0: none. */
	uint32_t snapshot_required_regs;
	/* The core type= a snapshot writer gives the core a source of this
	 * protocol traces ("ARM-AA64"); readers take any. */
	const char *snapshot_core_type;

	/* A per-cycle sample protocol (its trace is a sample file of one record
	 * per captured core cycle, not a byte stream: the "Sample file" of its
	 * FORMAT.md): the configuration key that holds the trace port's width in
	 * bits (4, 8 or 16; tracecert bench measures cycles per second at each).
	 * NULL: the trace is a byte stream. */
	const char *cycle_port_width_key;

	/* Spec-clause coverage (coverage/README.md): the value of a name that an
	 * arm of coverage/clauses/<name>.txt gives for a TC_CLAUSE_CASE selector
	 * of this protocol (an element kind, a state). Returns 1 and sets *value,
	 * or 0 for a name it does not have. NULL: the arms use bit patterns and
	 * the shared names only (instruction types, L3 kinds). */
	int (*clause_value)(const char *name, long *value);
	/* A protocol whose input is a per-cycle sample file (the per-cycle
	 * protocols' FORMAT.md "Sample file"; reference/cyclecap.h reads and
	 * writes it): what its header and records allow, read by `dump
	 * --cycles` and `asm`. NULL: the input is a byte stream. */
	const struct tc_sample_format *sample;
};

/* The protocols of this build (PROTOCOLS in GNUmakefile), NULL-terminated. */
extern const struct tc_protocol *const tc_protocols[];

/* By name (its word of PROTOCOLS), or NULL. */
const struct tc_protocol *tc_protocol_find(const char *name);
/* By id (enum tc_protocol_id), or NULL. */
const struct tc_protocol *tc_protocol_by_id(int id);

/* ---- Configuration from keys and registers (reference/config.c) ---------- */

/* Key k of cfg (a struct of p->config_size bytes), by its row's offset and
 * size; 0 for a k that is no key. */
uint64_t tc_config_get(const struct tc_protocol *p, const void *cfg, int k);
/* Sets key k of cfg to value (already in the key's range); a k that is no
 * key changes nothing. */
void tc_config_set(const struct tc_protocol *p, void *cfg, int k, uint64_t value);
/* Every byte of cfg 0, then every key its default. */
void tc_config_default(const struct tc_protocol *p, void *cfg);
/* The same by a table, for a protocol's own code (tc_x_config_default). */
uint64_t tc_config_key_get(const struct tc_config_key *key, const void *cfg);
void tc_config_key_set(const struct tc_config_key *key, void *cfg, uint64_t value);
void tc_config_keys_default(const struct tc_config_key *keys, int nkeys, void *cfg, size_t size);

void tc_config_builder_init(struct tc_config_builder *b, const struct tc_protocol *proto);
/* Sets a key (decimal, in its range) or a register (32 bits, decimal or 0x
 * hex; a "(…)" suffix after the name is ignored) by name, in any case.
 * Returns 0, -1 for a name the protocol does not have, -2 for a bad value;
 * err says why (for -1, naming the protocol that has the key, if any). */
int tc_config_builder_set(struct tc_config_builder *b, const char *name, const char *value, char *err,
			  size_t errlen);
/* Keys given or derivable from the registers given (bit k = keys[k]). */
uint32_t tc_config_builder_covered(const struct tc_config_builder *b);
/* Writes the keys derived from the registers, then the keys given, over cfg
 * (a base the caller set: tc_config_default, or a vector's configuration), then
 * checks it. Returns 0, or -1 with err, cfg unchanged. notes may be NULL. */
int tc_config_builder_apply(const struct tc_config_builder *b, void *cfg, struct tc_config_notes *notes, char *err,
			    size_t errlen);
/* After tc_config_builder_apply refused b's registers: the register
 * (index into proto->regs) that config_derive refuses on its own, the
 * first in table order, or -1 when none does. */
int tc_config_builder_refused_reg(const struct tc_config_builder *b);
/* Index of a key or a register by name, or -1. */
int tc_config_key_find(const struct tc_protocol *p, const char *name);
int tc_config_reg_find(const struct tc_protocol *p, const char *name);
/* The first protocol of tc_protocols[] other than self (which may be NULL)
 * that has a key or register of this name, or NULL: for messages. */
const struct tc_protocol *tc_config_owner(const struct tc_protocol *self, const char *name);

#ifdef __cplusplus
}
#endif

#endif
