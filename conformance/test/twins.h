/* SPDX-License-Identifier: BSD-3-Clause */
/* twins.h — the RES0 twins property test (conformance/test/twins.c): what a protocol's twin
 * rules (conformance/test/twins_<protocol>.c) are given and what they give back. */
#ifndef TC_TWINS_H
#define TC_TWINS_H

#include <stddef.h>
#include <stdint.h>

#include "vector.h"

/* One twin: a byte of the trace replaced, and the warning line it must give
 * (`warning class=CLS field=FIELD bits=0xBITS`, written from the layouts). */
struct twin {
	size_t at;
	uint8_t value;
	const char *cls;
	const char *field;
	unsigned bits;
};

enum { twin_max_per_packet = 8, twin_max_fields = 16 };

enum { twin_record_max = 256 };

/* One packet of the vector's expected L1: its line read by the protocol's
 * L1 parser (the descriptor's parse_l1) into the protocol's L1 record, its
 * offset and header byte (the byte at the offset, which the line's header
 * column gives), and its length up to the next packet (or the end of the
 * trace). */
struct twin_packet {
	unsigned long long off;
	size_t len;
	unsigned header;
	size_t line;            /* index in the expected L1 */
	union {
		struct tc_item h;
		uint64_t align[twin_record_max / 8];
	} rec;                  /* the protocol's L1 record (tracecert/<p>.h) */
};

/* The twins of one packet. */
struct twin_list {
	struct twin twin[twin_max_per_packet];
	int n;
};

/* Appends a twin (the list holds twin_max_per_packet; more are a fault of
 * the rules, which the driver reports). */
void twin_add(struct twin_list *l, size_t at, unsigned value, const char *cls, const char *field, unsigned bits);

/* The byte at index i of packet p (0: the header), or -1 when the packet is
 * shorter. */
int twin_packet_byte(const struct tc_vector *v, const struct twin_packet *p, size_t i);

/* The value of a configuration key of the vector's protocol, by name
 * (through the protocol descriptor); 0 when the protocol has no such key. */
uint64_t twin_config_key(const struct tc_vector *v, const char *name);

/* One protocol's twin rules, written from its packet layouts. */
struct twin_rules {
	const char *protocol;             /* struct tc_protocol's name */
	const char *const *fields;        /* every field a twin names; each must get one */
	int nfields;                      /* at most twin_max_fields */
	/* Appends the twins of packet p of vector v: one for each ignored field
	 * the packet has that is clear, so that the twin adds one warning. */
	void (*packet_twins)(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out);
};

/* Every protocol's rules, `const struct twin_rules twin_rules_<protocol>` in
 * twins_<protocol>.c, for the protocols of PROTOCOLS that have that file
 * (the GNUmakefile generates the table: tools/gen-protocols.sh --table),
 * NULL-terminated. */
extern const struct twin_rules *const twin_rules_table[];

#endif
