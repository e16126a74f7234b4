/* SPDX-License-Identifier: BSD-3-Clause */
/* config.c — a protocol's configuration from keys and trace unit registers, given in any order (tracecert/protocol.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* strcasecmp: also built with plain -std=c11 (tools/bench-floor.sh) */
#endif
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tracecert/protocol.h"
#include "errtext.h"

/* ---- A configuration struct through its key table ------------------------- */

/* A field is an unsigned integer or an int of key->size bytes: read and
 * written as the unsigned type of that width (an int holding 0..max has the
 * same bytes). */
uint64_t tc_config_key_get(const struct tc_config_key *key, const void *cfg)
{
	const unsigned char *field = (const unsigned char *)cfg + key->offset;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	switch (key->size) {
	case 1: memcpy(&u8, field, 1); return u8;
	case 2: memcpy(&u16, field, 2); return u16;
	case 4: memcpy(&u32, field, 4); return u32;
	case 8: memcpy(&u64, field, 8); return u64;
	default: return 0;       /* no such row: TC_CONFIG_FIELD gives the sizes of integers */
	}
}

void tc_config_key_set(const struct tc_config_key *key, void *cfg, uint64_t value)
{
	unsigned char *field = (unsigned char *)cfg + key->offset;
	uint8_t u8 = (uint8_t)value;
	uint16_t u16 = (uint16_t)value;
	uint32_t u32 = (uint32_t)value;
	switch (key->size) {
	case 1: memcpy(field, &u8, 1); break;
	case 2: memcpy(field, &u16, 2); break;
	case 4: memcpy(field, &u32, 4); break;
	case 8: memcpy(field, &value, 8); break;
	default: break;
	}
}

void tc_config_keys_default(const struct tc_config_key *keys, int nkeys, void *cfg, size_t size)
{
	if (!cfg)
		return;
	memset(cfg, 0, size);
	for (int k = 0; k < nkeys; k++)
		tc_config_key_set(&keys[k], cfg, keys[k].def);
}

uint64_t tc_config_get(const struct tc_protocol *p, const void *cfg, int k)
{
	return k >= 0 && k < p->nkeys ? tc_config_key_get(&p->keys[k], cfg) : 0;
}

void tc_config_set(const struct tc_protocol *p, void *cfg, int k, uint64_t value)
{
	if (k >= 0 && k < p->nkeys)
		tc_config_key_set(&p->keys[k], cfg, value);
}

void tc_config_default(const struct tc_protocol *p, void *cfg)
{
	tc_config_keys_default(p->keys, p->nkeys, cfg, p->config_size);
}

/* ---- Names ------------------------------------------------------------------ */

int tc_config_key_find(const struct tc_protocol *p, const char *name)
{
	for (int i = 0; p && name && i < p->nkeys; i++)
		if (!strcmp(name, p->keys[i].name))
			return i;
	return -1;
}

/* A register name, in any case, with an optional "(…)" suffix after it, as
 * snapshot files write them: TRCIDR0(0x1E0). */
int tc_config_reg_find(const struct tc_protocol *p, const char *name)
{
	size_t len;
	if (!p || !name)
		return -1;
	len = strcspn(name, "(");
	if (name[len] == '(' && name[strlen(name) - 1] != ')')
		return -1;
	for (int i = 0; i < p->nregs; i++)
		if (strlen(p->regs[i].name) == len && !strncasecmp(name, p->regs[i].name, len))
			return i;
	return -1;
}

void tc_config_builder_init(struct tc_config_builder *b, const struct tc_protocol *proto)
{
	memset(b, 0, sizeof *b);
	b->proto = proto;
}

/* A decimal value in [0, max]. */
static int parse_decimal(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

/* A register value: 32 bits, decimal or 0x hex. */
static int parse_register(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	if (!(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return -1;
	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno || *end != '\0' || v > 0xffffffffull)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

const struct tc_protocol *tc_config_owner(const struct tc_protocol *self, const char *name)
{
	for (int i = 0; tc_protocols[i]; i++)
		if (tc_protocols[i] != self &&
		    (tc_config_key_find(tc_protocols[i], name) >= 0 || tc_config_reg_find(tc_protocols[i], name) >= 0))
			return tc_protocols[i];
	return NULL;
}

int tc_config_builder_set(struct tc_config_builder *b, const char *name, const char *value, char *err,
			  size_t errlen)
{
	const struct tc_protocol *p = b->proto, *other;
	int k = tc_config_key_find(p, name), r = tc_config_reg_find(p, name);
	uint64_t v;
	uint32_t rv;
	if (!name || !value)
		return tc_errtext(err, errlen, -1, "no name or value");
	if (k >= 0) {
		if (parse_decimal(value, p->keys[k].max, &v))
			return tc_errtext(err, errlen, -2, "bad value '%s' for config key '%s' (decimal 0..%llu)", value, name,
				       (unsigned long long)p->keys[k].max);
		b->key[k] = v;
		b->key_given |= UINT32_C(1) << k;
		return 0;
	}
	if (r < 0) {
		other = tc_config_owner(p, name);
		if (other)
			return tc_errtext(err, errlen, -1, "'%s' is a config key or register of protocol %s, not of %s", name,
				       other->name, p->name);
		return tc_errtext(err, errlen, -1, "unknown config key or register '%s' for protocol %s", name, p->name);
	}
	if (parse_register(value, &rv))
		return tc_errtext(err, errlen, -2, "bad value '%s' for register %s (a 32-bit number, decimal or 0x hex)", value,
			       p->regs[r].name);
	b->reg[r] = rv;
	b->reg_given |= UINT32_C(1) << r;
	return 0;
}

/* What the registers given derive (values, the keys they cover). */
static int derive(const struct tc_config_builder *b, uint64_t *value, uint32_t *derived, struct tc_config_notes *notes,
		  char *err, size_t errlen)
{
	*derived = 0;
	if (!b->reg_given || !b->proto->config_derive)
		return 0;
	return b->proto->config_derive(b->reg, b->reg_given, value, derived, notes, err, errlen);
}

int tc_config_builder_refused_reg(const struct tc_config_builder *b)
{
	for (int r = 0; r < b->proto->nregs; r++) {
		struct tc_config_builder one = *b;
		uint64_t value[TC_CONFIG_KEYS_MAX];
		uint32_t derived;
		struct tc_config_notes notes;
		if (!((b->reg_given >> r) & 1))
			continue;
		one.reg_given = UINT32_C(1) << r;
		memset(&notes, 0, sizeof notes);
		if (derive(&one, value, &derived, &notes, NULL, 0))
			return r;
	}
	return -1;
}

uint32_t tc_config_builder_covered(const struct tc_config_builder *b)
{
	uint64_t value[TC_CONFIG_KEYS_MAX];
	uint32_t derived;
	struct tc_config_notes notes;
	memset(&notes, 0, sizeof notes);
	if (derive(b, value, &derived, &notes, NULL, 0))
		derived = 0;
	return b->key_given | derived;
}

int tc_config_builder_apply(const struct tc_config_builder *b, void *cfg, struct tc_config_notes *notes, char *err,
			    size_t errlen)
{
	const struct tc_protocol *p = b->proto;
	uint64_t value[TC_CONFIG_KEYS_MAX];
	uint32_t derived;
	struct tc_config_notes local;
	void *saved;
	if (!notes)
		notes = &local;
	memset(notes, 0, sizeof *notes);
	if (derive(b, value, &derived, notes, err, errlen))
		return -1;
	saved = malloc(p->config_size);   /* a refused configuration leaves cfg as it was */
	if (!saved)
		return tc_errtext(err, errlen, -1, "out of memory");
	memcpy(saved, cfg, p->config_size);
	for (int k = 0; k < p->nkeys; k++) {
		if ((b->key_given >> k) & 1)
			tc_config_set(p, cfg, k, b->key[k]);
		else if ((derived >> k) & 1)
			tc_config_set(p, cfg, k, value[k]);
	}
	if (p->config_check && p->config_check(cfg, err, errlen)) {
		memcpy(cfg, saved, p->config_size);
		free(saved);
		return -1;
	}
	free(saved);
	return 0;
}
