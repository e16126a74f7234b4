/* SPDX-License-Identifier: BSD-3-Clause */
/* twins_etmv3.c — ETMv3's twin rules: every warning field of reference/etmv3/FORMAT.md
 * "Warnings" (ERRATA ETM3-R1), found from the byte layouts of reference/etmv3/ERRATA.md: ETM3-P3
 * (branch address, exception information bytes, Figure 7-25), ETM3-P7 (cycle count), ETM3-P8
 * (I-sync), ETM3-P9 (LSiP current address), ETM3-P10 (data address, Normal data), ETM3-X1
 * (timestamp), ETM3-X2 and ETM3-X3 (the Hyp bits of ETMv3.5), ETM3-P26 (byte 1 off ARMv7-M).
 * Each twin sets every bit of one field that is clear in the original (res0), or breaks a
 * constant the layout fixes where the original keeps it (ignored-field), so it adds exactly one
 * warning. Which bits are reserved follows the configuration: `version`, `profile_m`,
 * `data_only`, `data_value`, `data_address`, `alt_branch`, `contextid_size`, `ts64`. */
#include "tracecert/etmv3.h"

#include "twins.h"

static const char *const etmv3_fields[] = {
	"cc-last", "isync-info", "isync-info0", "exc0", "exc1", "exc2-id", "exc2", "exc2-last",
	"lsip-first", "lsip-exc", "daddr-last", "data-size", "ts-last"
};

static int version(const struct tc_vector *v)
{
	return (int)twin_config_key(v, "version");
}

/* Sets the bits of field at byte index i of the packet when none of them is set (res0). */
static void twin_if_clear(const struct tc_vector *v, const struct twin_packet *p, size_t i, const char *field,
			  unsigned bits, struct twin_list *out)
{
	int b = twin_packet_byte(v, p, i);
	if (bits && b >= 0 && !((unsigned)b & bits))
		twin_add(out, p->off + i, (unsigned)b | bits, "res0", field, bits);
}

/* A section of 1–5 bytes whose bytes 1–4 say with bit 7 that another follows and whose fifth
 * is always the last: the cycle count (ETM3-P7) and the data address (ETM3-P10). Returns the
 * index after it, or 0 when the packet is shorter; *fifth: the fifth byte's index, or 0. */
static size_t five_byte_section(const struct tc_vector *v, const struct twin_packet *p, size_t first,
				size_t *fifth)
{
	size_t n = 1;
	int b = twin_packet_byte(v, p, first);
	while (b >= 0 && n < 5 && (b & 0x80)) {
		b = twin_packet_byte(v, p, first + n);
		n++;
	}
	if (b < 0)
		return 0;
	*fifth = n == 5 ? first + 4 : 0;
	return first + n;
}

/* A cycle count at index first (ETM3-P7): byte 5 carries count[31:28] in bits 3:0, its bits
 * 7:4 no text assigns (row cc-last). Returns the index after it, or 0. */
static size_t cycle_count_twins(const struct tc_vector *v, const struct twin_packet *p, size_t first,
				struct twin_list *out)
{
	size_t fifth, end = five_byte_section(v, p, first, &fifth);
	if (end && fifth)
		twin_if_clear(v, p, fifth, "cc-last", 0xf0, out);
	return end;
}

/* A data address at index first (ETM3-P10): byte 5 is A[31:28] in bits 3:0, BE in bit 4,
 * bits 7:5 not assigned (row daddr-last). */
static void data_address_twins(const struct tc_vector *v, const struct twin_packet *p, size_t first,
			       struct twin_list *out)
{
	size_t fifth;
	if (five_byte_section(v, p, first, &fifth) && fifth)
		twin_if_clear(v, p, fifth, "daddr-last", 0xe0, out);
}

/* A branch address section (ETM3-P3) from index first: 1–5 bytes, each of bytes 1–4 followed
 * by another while its bit 7 (C) is set, byte 5 always the last (Table 7-8). An exception
 * information byte follows a fifth byte `0 1 …` and, in the alternative scheme, a last byte of
 * 2–4 whose bit 6 (X) is set (Table 7-6); a fifth byte `1 C E E E …` is the deprecated form,
 * the last byte of the packet; in byte 1 alone, bit 6 is an address bit. */
struct address_section {
	size_t end;             /* index after the section */
	int exception;          /* an exception information byte follows */
};

static int address_section(const struct tc_vector *v, const struct twin_packet *p, size_t first,
			   struct address_section *a)
{
	size_t n = 1;
	int b = twin_packet_byte(v, p, first);
	while (b >= 0 && n < 5 && (b & 0x80)) {
		b = twin_packet_byte(v, p, first + n);
		n++;
	}
	if (b < 0)
		return -1;
	a->end = first + n;
	if (n == 5)
		a->exception = (b & 0xc0) == 0x40;
	else
		a->exception = n > 1 && twin_config_key(v, "alt_branch") && (b & 0x40);
	return 0;
}

/* Exception information byte 2 at index i (Figure 7-25: `0 1 SBZ SBZ Resume[3:0]`): bits 5:4
 * SBZ (row exc2); bit 7, a fixed 0 as the last byte of its section, set (row exc2-last). */
static void exception_byte2_twins(const struct tc_vector *v, const struct twin_packet *p, size_t i,
				  struct twin_list *out)
{
	int b = twin_packet_byte(v, p, i);
	if (b < 0)
		return;
	twin_if_clear(v, p, i, "exc2", 0x30, out);
	if (!(b & 0x80))
		twin_add(out, p->off + i, (unsigned)b | 0x80, "ignored-field", "exc2-last", 0x80);
}

/* Exception information bytes from index i (Table 7-10, Figure 7-25). Byte 0 `Con AltISA Can
 * Exception[3:0] NS`: Con is reserved before ETMv3.4, AltISA before ETMv3.3 ("Must be ignored",
 * row exc0); from ETMv3.4 Con = 1 announces byte 1 (bit 6 = 0: `C 0 Hyp/SBZ Exception[8:4]`)
 * or byte 2 (bit 6 = 1). Byte 1's bit 5 is SBZ before ETMv3.5 (ETM3-X3) and its Exception[8:4]
 * is not assigned off ARMv7-M (ETM3-P26): row exc1. After a byte 1 with C = 1 only byte 2
 * comes, whose bit 6 is its fixed 1: cleared, row exc2-id. */
static void exception_twins(const struct tc_vector *v, const struct twin_packet *p, size_t i,
			    struct twin_list *out)
{
	int ver = version(v), e0 = twin_packet_byte(v, p, i), b;
	unsigned exc1 = (ver < 5 ? 0x20u : 0) | (twin_config_key(v, "profile_m") ? 0 : 0x1fu);
	if (e0 < 0)
		return;
	twin_if_clear(v, p, i, "exc0", (ver < 4 ? 0x80u : 0) | (ver < 3 ? 0x40u : 0), out);
	if (ver < 4 || !(e0 & 0x80))
		return;
	b = twin_packet_byte(v, p, i + 1);
	if (b < 0)
		return;
	if (b & 0x40) {
		exception_byte2_twins(v, p, i + 1, out);
		return;
	}
	twin_if_clear(v, p, i + 1, "exc1", exc1, out);
	if (!(b & 0x80))
		return;
	b = twin_packet_byte(v, p, i + 2);
	if (b >= 0 && (b & 0x40))
		twin_add(out, p->off + i + 2, (unsigned)b & ~0x40u, "ignored-field", "exc2-id", 0);
	exception_byte2_twins(v, p, i + 2, out);
}

/* Branch address packet (ETM3-P3): the address section from the header, then the exception
 * information bytes it announces. */
static void branch_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	struct address_section a;
	if (address_section(v, p, 0, &a) == 0 && a.exception)
		exception_twins(v, p, a.end, out);
}

/* An LSiP I-sync's current address from index first (ETM3-P9): a branch address section
 * whose first byte is laid out as a branch header, bit 0 the constant 1 (row lsip-first,
 * cleared); an exception information byte it announces means NS (and AltISA) only, an
 * exception number or Can there (bits 5:1) is ignored (row lsip-exc, bits as read). */
static void lsip_twins(const struct tc_vector *v, const struct twin_packet *p, size_t first,
		       struct twin_list *out)
{
	struct address_section a;
	int b = twin_packet_byte(v, p, first), e;
	if (b < 0 || address_section(v, p, first, &a))
		return;
	if (b & 0x01)
		twin_add(out, p->off + first, (unsigned)b & 0xfe, "ignored-field", "lsip-first", 0);
	if (!a.exception)
		return;
	e = twin_packet_byte(v, p, a.end);
	if (e >= 0 && !(e & 0x3e))
		twin_add(out, p->off + a.end, (unsigned)e | 0x3e, "ignored-field", "lsip-exc", 0x3e);
}

/* I-sync (ETM3-P8): header 08 or 70; [70: a cycle count]; contextid_size bytes of context ID;
 * the information byte (bit 7 LSiP, 6:5 reason, 4 J, 3 NS, 2 AltISA from ETMv3.3, 1 Hyp from
 * ETMv3.5 (ETM3-X2), 0 the constant 1); unless data-only, the address (4 bytes) and, for an
 * LSiP I-sync, the current address. A data-only I-sync has the reason and NS only (row
 * isync-info: bits 7, 4, 2, 1). */
static void isync_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int ver = version(v), data_only = twin_config_key(v, "data_only") != 0, info;
	size_t i = 1;
	unsigned reserved = data_only ? 0x96u : (ver < 3 ? 0x04u : 0) | (ver < 5 ? 0x02u : 0);
	if (p->header == 0x70 && !(i = cycle_count_twins(v, p, 1, out)))
		return;
	i += (size_t)twin_config_key(v, "contextid_size");
	info = twin_packet_byte(v, p, i);
	if (info < 0)
		return;
	twin_if_clear(v, p, i, "isync-info", reserved, out);
	if (info & 0x01)   /* row isync-info0: "always set to 1" (§7.11.2), cleared */
		twin_add(out, p->off + i, (unsigned)info & 0xfe, "ignored-field", "isync-info0", 0);
	if (!data_only && (info & 0x80))
		lsip_twins(v, p, i + 5, out);
}

/* Normal data `b00A0SS10` (ETM3-P10): a data address when data_address=1 and A = 1, then a
 * value only with data_value=1; without value tracing a nonzero SS is ignored-field, bits the
 * header's bits 3:2 (row data-size): the twin gives SS = 01. */
static void data_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	if (twin_config_key(v, "data_address") && (p->header & 0x20))
		data_address_twins(v, p, 1, out);
	if (!twin_config_key(v, "data_value") && !(p->header & 0x0c))
		twin_add(out, p->off, p->header | 0x04, "ignored-field", "data-size", 0x04);
}

/* Timestamp 42, 46 (ETM3-X1): 7 bits a byte with bit 7 = another follows; a 48-bit
 * timestamp's seventh byte holds bits 47:42 in bits 5:0, bits 7:6 above the size (row
 * ts-last); a 64-bit one's ninth byte uses all eight bits. */
static void timestamp_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	size_t i = 1;
	int b = twin_packet_byte(v, p, i);
	if (twin_config_key(v, "ts64"))
		return;
	while (b >= 0 && i < 7 && (b & 0x80))
		b = twin_packet_byte(v, p, ++i);
	if (b >= 0 && i == 7)
		twin_if_clear(v, p, 7, "ts-last", 0xc0, out);
}

static void etmv3_packet_twins(const struct tc_vector *v, const struct twin_packet *p, struct twin_list *out)
{
	int kind = p->rec.h.kind, address = twin_config_key(v, "data_address") != 0;   /* enum tc_etmv3_pkt_kind */
	if (kind == tc_etmv3_pkt_branch)
		branch_twins(v, p, out);
	else if (kind == tc_etmv3_pkt_isync)
		isync_twins(v, p, out);
	else if (kind == tc_etmv3_pkt_cycle_count)
		cycle_count_twins(v, p, 1, out);
	else if (kind == tc_etmv3_pkt_data)
		data_twins(v, p, out);
	else if (kind == tc_etmv3_pkt_placeholder && address && (p->header & 0x20))   /* `b01A1TT00` */
		data_address_twins(v, p, 1, out);
	else if (kind == tc_etmv3_pkt_value_not_traced && address && (p->header & 0x10))   /* `b011A1010` */
		data_address_twins(v, p, 1, out);
	else if (kind == tc_etmv3_pkt_timestamp)
		timestamp_twins(v, p, out);
}

const struct twin_rules twin_rules_etmv3 = {
	"etmv3", etmv3_fields, (int)(sizeof etmv3_fields / sizeof etmv3_fields[0]), etmv3_packet_twins
};
