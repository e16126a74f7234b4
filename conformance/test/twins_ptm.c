/* SPDX-License-Identifier: BSD-3-Clause */
/* twins_ptm.c — PFT/PTM's twin rules: every warning field of the PTM-R1 table
 * (reference/ptm/ERRATA.md), with the field names and bits of reference/ptm/FORMAT.md
 * "Warnings", found from the byte layouts of PTM-P3 (branch address), PTM-S4 (waypoint
 * update), PTM-P6 (atom), PTM-P7 (cycle count), PTM-P8 (I-sync) and PTM-P9 (timestamp).
 * Each twin sets every bit of one field that is clear in the original (res0), or clears a
 * bit the layout fixes to 1 where the original has it set (ignored-field, PTM-P25), so it
 * adds exactly one warning. */
#include "tracecert/ptm.h"

#include "twins.h"

static const char *const ptm_fields[] = {
	"atom", "addr5", "addr-last", "exc0", "exc1", "wp-info", "isync-info", "cc-first", "cc-last", "ts-last",
	"wpu-first", "isync-info0"
};

/* Sets the bits of field at byte index i of the packet when none of them is set. */
static void twin_if_clear(const struct tc_vector *v, const struct twin_packet *p, size_t i, const char *field,
			  unsigned bits, struct twin_list *out)
{
	int b = twin_packet_byte(v, p, i);
	if (b >= 0 && !((unsigned)b & bits))
		twin_add(out, p->off + i, (unsigned)b | bits, "res0", field, bits);
}

/* A cycle count whose first byte is at index first (PTM-P7): byte 1 bits 5:2 count[3:0],
 * bit 6 another byte; bytes 2–4 7 bits and continuation bit 7; byte 5 count[31:25].
 * in_header: the first byte is a cycle-accurate atom header (PTM-P6), whose bits 7 and 0
 * are the header's and bit 1 the atom: no cc-first there. */
static void cycle_count_twins(const struct tc_vector *v, const struct twin_packet *p, size_t first, int in_header,
			      struct twin_list *out)
{
	int b = twin_packet_byte(v, p, first);
	if (b < 0)
		return;
	if (!in_header)   /* PTM-R1 row cc-first: bits 7, 1, 0 of a first cycle-count byte */
		twin_if_clear(v, p, first, "cc-first", 0x83, out);
	if (!(b & 0x40))
		return;
	for (size_t i = 1; i < 4; i++) {   /* bytes 2–4: bit 7 says another follows */
		b = twin_packet_byte(v, p, first + i);
		if (b < 0 || !(b & 0x80))
			return;
	}
	twin_if_clear(v, p, first + 4, "cc-last", 0x80, out);   /* PTM-R1 row cc-last: bit 7 of a fifth */
}

/* An address section (PTM-P3) starting at index first: 1–5 bytes, each of bytes 1–4
 * followed by another while its bit 7 (C) is set, byte 5 always the last. */
struct address_section {
	int n;                  /* bytes, 1..5 */
	int info;               /* bit 6 (X) of the last byte of 2–5: information follows */
};

static int address_section(const struct tc_vector *v, const struct twin_packet *p, size_t first,
			   struct address_section *a)
{
	int b = twin_packet_byte(v, p, first);
	a->n = 1;
	while (b >= 0 && a->n < 5 && (b & 0x80)) {
		b = twin_packet_byte(v, p, first + (size_t)a->n);
		a->n++;
	}
	if (b < 0)
		return -1;
	a->info = a->n > 1 && (b & 0x40);   /* in byte 1, bit 6 is an address bit */
	return 0;
}

/* Branch address packet (PTM-P3): header `C A A A A A A 1`, bytes 2–5; exception byte 0
 * `C AltISA - E[3:0] NS`, byte 1 `- - Hyp E[8:4]`; then a cycle count in cycle-accurate mode. */
static void branch_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	struct address_section a;
	size_t i;
	if (address_section(v, p, 0, &a))
		return;
	if (a.n == 5)   /* PTM-R1 row addr5: byte 5 is `0 X` + ISA selector */
		twin_if_clear(v, p, 4, "addr5", 0x80, out);
	i = (size_t)a.n;
	if (a.info) {
		int e0 = twin_packet_byte(v, p, i);
		if (e0 < 0)
			return;
		twin_if_clear(v, p, i, "exc0", 0x20, out);   /* PTM-R1 row exc0: byte 0 bit 5 */
		i++;
		if (e0 & 0x80) {
			twin_if_clear(v, p, i, "exc1", 0xc0, out);   /* PTM-R1 row exc1: byte 1 bits 7:6 */
			i++;
		}
	}
	if (twin_config_key(v, "cycle_accurate"))
		cycle_count_twins(v, p, i, 0, out);
}

/* Waypoint update (PTM-S4): header 72, the address section of a branch packet without
 * exception information, and after a fifth address byte with bit 6 set one information
 * byte whose bit 6 is AltISA. */
static void waypoint_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	struct address_section a;
	int first = twin_packet_byte(v, p, 1);
	if (address_section(v, p, 1, &a))
		return;
	/* PTM-P25, row wpu-first: the first address byte is laid out as a branch header
	 * `C A A A A A A 1`; its bit 0 cleared, the twin gives ignored-field with the bit as read, 0 */
	if (first & 0x01)
		twin_add(out, p->off + 1, (unsigned)first & 0xfe, "ignored-field", "wpu-first", 0);
	if (a.n == 5) {
		twin_if_clear(v, p, 5, "addr5", 0x80, out);   /* PTM-R1 row addr5 */
		if (a.info)   /* PTM-R1 row wp-info: all but bit 6 */
			twin_if_clear(v, p, 6, "wp-info", 0xbf, out);
	} else if (a.n > 1) {   /* PTM-R1 row addr-last: bit 6 of a last byte 2–4 */
		twin_if_clear(v, p, (size_t)a.n, "addr-last", 0x40, out);
	}
}

/* I-sync (PTM-P8): header 08, address bytes 0–3, the information byte (bits 6:5 reason,
 * 4 J, 3 NS, 2 AltISA, 1 Hyp, 0 the constant 1, not read), a cycle count in cycle-accurate mode
 * unless the reason is 0 (periodic), then the context ID. */
static void isync_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int info = twin_packet_byte(v, p, 5);
	if (info < 0)
		return;
	twin_if_clear(v, p, 5, "isync-info", 0x80, out);   /* PTM-R1 row isync-info: bit 7 */
	if (info & 0x01)   /* PTM-R1 row isync-info0: bit 0, "always 1" (IHI 0014), cleared: ignored-field, 0 */
		twin_add(out, p->off + 5, (unsigned)info & 0xfe, "ignored-field", "isync-info0", 0);
	if (twin_config_key(v, "cycle_accurate") && ((info >> 5) & 3) != 0)
		cycle_count_twins(v, p, 6, 0, out);
}

/* Atom (PTM-P6): not cycle-accurate, the one-atom header `1000 0xF0` (80–86) leaves bit 2
 * unassigned; cycle-accurate, the header is the first byte of a cycle count. */
static void atom_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	if (twin_config_key(v, "cycle_accurate"))
		cycle_count_twins(v, p, 0, 1, out);
	else if ((p->header & 0xf9) == 0x80)   /* PTM-R1 row atom: bit 2 of a one-atom header */
		twin_if_clear(v, p, 0, "atom", 0x04, out);
}

/* Timestamp (PTM-P9): headers 42, 46; 7 bits a byte with continuation bit 7, at most 7
 * bytes (48 bits, the seventh holding bits 47:42 in bits 5:0) or 9 (64 bits); then a
 * cycle count in cycle-accurate mode. */
static void timestamp_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int ts64 = twin_config_key(v, "ts64") != 0;
	size_t last = ts64 ? 9 : 7, i = 1;
	int b = twin_packet_byte(v, p, i);
	while (b >= 0 && i < last && (b & 0x80)) {
		i++;
		b = twin_packet_byte(v, p, i);
	}
	if (b < 0)
		return;
	if (!ts64 && i == last)   /* PTM-R1 row ts-last: bits 7:6 of a 48-bit timestamp's seventh byte */
		twin_if_clear(v, p, i, "ts-last", 0xc0, out);
	if (twin_config_key(v, "cycle_accurate"))
		cycle_count_twins(v, p, i + 1, 0, out);
}

static void ptm_packet_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int kind = p->rec.h.kind;   /* enum tc_ptm_pkt_kind */
	if (kind == tc_ptm_pkt_branch)
		branch_twins(v, p, out);
	else if (kind == tc_ptm_pkt_waypoint)
		waypoint_twins(v, p, out);
	else if (kind == tc_ptm_pkt_isync)
		isync_twins(v, p, out);
	else if (kind == tc_ptm_pkt_atom)
		atom_twins(v, p, out);
	else if (kind == tc_ptm_pkt_timestamp)
		timestamp_twins(v, p, out);
}

const struct twin_rules twin_rules_ptm = {
	"ptm", ptm_fields, (int)(sizeof ptm_fields / sizeof ptm_fields[0]), ptm_packet_twins
};
