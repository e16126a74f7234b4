/* SPDX-License-Identifier: BSD-3-Clause */
/* etmv3_parse.c — ETMv3 packets (ARM IHI 0014 §7.2–7.5, Table 7-1): one packet from bytes, resolved against the parser state. */
#include <string.h>

#include "etmv3_internal.h"

/* One packet being parsed: the configuration, the state, the byte reader
 * and the packet's outputs. The first problem found is sticky: after it
 * every read returns 0 and consumes nothing. */
struct etmv3_parse {
	const struct tc_etmv3_config *cfg;
	struct tc_etmv3_state *st;
	const uint8_t *buf;
	size_t len;
	size_t pos;
	int need_more;
	int error;                 /* enum tc_etmv3_error, first one wins */
	struct tc_etmv3_out *out;
};

/* ---- Reading ------------------------------------------------------------- */

static void fail(struct etmv3_parse *p, int error)
{
	if (!p->error && !p->need_more)
		p->error = error;
}

static int failed(const struct etmv3_parse *p)
{
	return p->error || p->need_more;
}

static uint8_t read_byte(struct etmv3_parse *p)
{
	if (failed(p))
		return 0;
	if (p->len - p->pos < 1) {
		p->need_more = 1;
		return 0;
	}
	return p->buf[p->pos++];
}

static void add_warning(struct etmv3_parse *p, int warning, int field, unsigned bits)
{
	struct tc_etmv3_out *out = p->out;
	if (out->nwarn < TC_ETMV3_MAX_WARN) {   /* always: no packet has more fields that warn */
		out->warn[out->nwarn].warning = (uint8_t)warning;
		out->warn[out->nwarn].field = (uint8_t)field;
		out->warn[out->nwarn].bits = (uint8_t)bits;
		out->nwarn++;
	}
}

/* A payload bit the text does not assign, or leaves reserved in the
 * configured version ("can be ignored", §7.2; "Must be ignored", Table
 * 7-10), is ignored and reported (reference/ete/ERRATA.md TC-R1; ETM3-R1). */
static void res0(struct etmv3_parse *p, int field, unsigned bits)
{
	if (!bits || failed(p))
		return;
	TC_CLAUSE_CASE(field, "ETM3-R1/Warning");
	add_warning(p, tc_etmv3_warn_res0, field, bits);
}

/* A bit the layout fixes to a constant, found different from it: ignored
 * (the packet decodes as with the constant) and reported with the bits as
 * read in their places (ETM3-R1). The caller tests the constant. */
static void ignored_field(struct etmv3_parse *p, int field, unsigned bits)
{
	if (failed(p))
		return;
	TC_CLAUSE_CASE(field, "ETM3-R1/IgnoredField");
	add_warning(p, tc_etmv3_warn_ignored_field, field, bits);
}

static struct tc_etmv3_packet *pkt(struct etmv3_parse *p)
{
	return &p->out->pkt;
}

static uint32_t le_bytes(struct etmv3_parse *p, int n)
{
	uint32_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint32_t)read_byte(p) << (8 * i);
	return v;
}

/* ---- Cycle count (§7.3.4, Figure 7-1; ETM3-P7): 1–5 bytes, bytes 1–4
 * carrying 7 bits each and bit 7 "another byte follows", byte 5 count[31:28]
 * in bits 3:0 ("up to 32 bits"). ---------------------------------------------- */

static uint32_t cycle_count(struct etmv3_parse *p)
{
	uint32_t count = 0;
	int n = 0;
	uint8_t b;
	do {
		b = read_byte(p);
		if (n == 4) {
			res0(p, tc_etmv3_wf_cc_last, b & 0xf0);
			count |= (uint32_t)(b & 0x0f) << 28;
			n++;
			break;
		}
		count |= (uint32_t)(b & 0x7f) << (7 * n);
		n++;
	} while (b & 0x80);
	TC_CLAUSE_CASE(n, "7.3.4/CycleCountBytes");
	return count;
}

/* ---- Branch addresses (§7.3.5: Tables 7-6, 7-7, 7-8, 7-10, 7-11, 7-13,
 * Figure 7-25; ETM3-P3) ------------------------------------------------------- */

/* An address section: 1–5 bytes, the first of which is in b[0]. */
struct addr_bytes {
	uint8_t b[5];
	int n;                     /* address bytes, 1..5 */
	int exc;                   /* exception information bytes follow */
	int byte5_exception;       /* the fifth byte is the deprecated b1CEEExxx form */
};

/* Reads address bytes after the first while bit 7 says another follows;
 * the fifth is always the last (§7.3.5 "Branch packets summary"). Which
 * byte announces exception information depends on the scheme: the fifth
 * byte's bits 7:6 (Table 7-7; both schemes), or, in the alternative scheme,
 * bit 6 of a last byte 2–4 (Table 7-6). */
static void address_bytes(struct etmv3_parse *p, struct addr_bytes *a)
{
	a->n = 1;
	a->exc = 0;
	a->byte5_exception = 0;
	while (a->n < 5 && (a->b[a->n - 1] & 0x80)) {
		a->b[a->n] = read_byte(p);
		a->n++;
	}
	if (a->n == 5) {
		TC_CLAUSE_CASE(a->b[4] >> 6, "7.3.5/Table7-7");
		a->byte5_exception = (a->b[4] >> 7) & 1;
		a->exc = !a->byte5_exception && ((a->b[4] >> 6) & 1);
		if (!a->byte5_exception && !(a->b[4] & 0x38))
			fail(p, tc_etmv3_err_reserved_field);   /* b00000xxx, b01000xxx: before the byte it announces */
	} else if (a->n > 1 && p->cfg->alt_branch) {
		TC_CLAUSE_CASE((a->b[a->n - 1] >> 6) & 1, "7.3.5/Table7-6");
		a->exc = (a->b[a->n - 1] >> 6) & 1;
	}
	TC_CLAUSE_CASE(a->n, "7.3.5/AddressBytes");
}

/* The instruction set a fifth address byte selects (Table 7-8):
 * b001xxxxx Jazelle, b0001xxxx Thumb, b00001xxx ARM (bit 6 aside),
 * b00000xxx reserved; the deprecated b1CEEExxx form is ARM. A Thumb
 * alignment keeps ThumbEE: only an AltISA bit changes between the two
 * (Table 7-13, Table 7-14; ETM3-P4). */
static int byte5_isa(const struct addr_bytes *a, int last_isa)
{
	uint8_t b5 = a->b[4];
	if (a->byte5_exception)
		return tc_etmv3_isa_arm;
	TC_CLAUSE_CASE(b5 & 0x38, "7.3.5/Table7-8");
	if (b5 & 0x20)
		return tc_etmv3_isa_jazelle;
	if (b5 & 0x10)
		return last_isa == tc_etmv3_isa_thumbee ? tc_etmv3_isa_thumbee : tc_etmv3_isa_thumb;
	return tc_etmv3_isa_arm;   /* b00001xxx; b00000xxx failed in address_bytes */
}

/* The address bits a section carries, replaced into the low bits of the
 * previous address (§7.3.5 "the new address value replaces the appropriate
 * bits"): byte 1 bits 6:1; bytes 2–4 bits 6:0, or 5:0 for the last byte of
 * a shorter section in the alternative scheme; byte 5 A[31:29] (ARM),
 * A[31:28] (Thumb), A[31:27] (Jazelle); shifted by the alignment. */
static uint32_t address_value(const struct etmv3_parse *p, const struct addr_bytes *a, int isa, uint32_t last)
{
	int shift = isa == tc_etmv3_isa_arm ? 2 : isa == tc_etmv3_isa_jazelle ? 0 : 1;
	uint64_t v = (a->b[0] >> 1) & 0x3f, mask;
	int nbits = 6;
	for (int i = 1; i < a->n && i < 4; i++) {
		int w = (i == a->n - 1 && p->cfg->alt_branch) ? 6 : 7;
		v |= (uint64_t)(a->b[i] & ((1u << w) - 1)) << nbits;
		nbits += w;
	}
	if (a->n == 5) {
		v |= (uint64_t)(a->b[4] & ((1u << (5 - shift)) - 1)) << nbits;
		nbits += 5 - shift;
	}
	nbits += shift;
	if (nbits >= 32)
		return (uint32_t)(v << shift);
	mask = (UINT64_C(1) << nbits) - 1;
	return (uint32_t)((last & ~mask) | ((v << shift) & mask));
}

/* Applies an AltISA bit (ETMv3.3 and later, Table 7-11): Thumb alignment
 * gives Thumb or ThumbEE; AltISA = 1 with ARM or Jazelle is reserved. */
static int apply_altisa(struct etmv3_parse *p, int isa, int alt)
{
	if (isa == tc_etmv3_isa_thumb || isa == tc_etmv3_isa_thumbee) {
		TC_CLAUSE_CASE(alt, "7.3.5/Table7-11");
		return alt ? tc_etmv3_isa_thumbee : tc_etmv3_isa_thumb;
	}
	if (alt) {
		TC_CLAUSE("7.3.5/Table7-11.Reserved");
		fail(p, tc_etmv3_err_reserved_field);
	}
	return isa;
}

/* The exception information of a branch packet, as its bytes give it. */
struct exc_info {
	int alt;
	int cancel;
	int ns;
	int hyp;
	int has_hyp;               /* byte 1 was output in ETMv3.5 */
	unsigned exception;        /* Exception[8:0] */
	unsigned resume;
	int lsip;                  /* the bytes of an LSiP current address: only NS and AltISA are meant (ETM3-P9) */
};

/* Exception information byte 2 (Figure 7-25): bit 7 a fixed 0 (the last
 * byte), bit 6 the fixed 1 that tells it from byte 1, bits 5:4 SBZ,
 * Resume[3:0]. id_known: the byte was told from byte 1 by its bit 6. */
static void exception_byte2(struct etmv3_parse *p, uint8_t b, int id_known, struct exc_info *e)
{
	TC_CLAUSE("7.3.5/ExceptionByte2");
	if (!id_known && !(b & 0x40))
		ignored_field(p, tc_etmv3_wf_exc2_id, b & 0x40);
	res0(p, tc_etmv3_wf_exc2, b & 0x30);
	if (b & 0x80)
		ignored_field(p, tc_etmv3_wf_exc2_last, b & 0x80);
	e->resume = b & 0x0f;
	if (e->lsip && e->resume)
		ignored_field(p, tc_etmv3_wf_lsip_exc, e->resume);
}

/* Exception information byte 1 (Figure 7-25): bit 7 C (byte 2 follows),
 * bit 6 a 0 (tells it from byte 2), bit 5 SBZ before ETMv3.5 and Hyp from it
 * (ETM3-X3), Exception[8:4] in bits 4:0. */
static void exception_byte1(struct etmv3_parse *p, uint8_t b, struct exc_info *e)
{
	/* Bit 5 is SBZ before ETMv3.5; Exception[8:4] exists on ARMv7-M cores only
	 * ("branch packets only include a maximum of one Exception information
	 * byte, and the exception is described by the Exception[3:0] field" for
	 * other cores, §7.3.5; ETM3-P26). */
	unsigned reserved = (p->cfg->version < 5 ? 0x20u : 0u) | (p->cfg->profile_m ? 0u : 0x1fu);
	TC_CLAUSE("7.3.5/ExceptionByte1");
	if (p->cfg->version >= 5) {
		e->hyp = (b >> 5) & 1;
		e->has_hyp = 1;
	}
	res0(p, tc_etmv3_wf_exc1, b & reserved);
	if (p->cfg->profile_m)
		e->exception |= (unsigned)(b & 0x1f) << 4;
	if (e->lsip && p->cfg->profile_m && (b & 0x1f))
		ignored_field(p, tc_etmv3_wf_lsip_exc, b & 0x1f);
	if (b & 0x80)
		exception_byte2(p, read_byte(p), 0, e);
}

/* Exception information byte 0 (Table 7-10): bit 7 Con (ETMv3.4; reserved
 * before: ignored), bit 6 AltISA (ETMv3.3; reserved before: ignored), bit 5
 * Can, bits 4:1 Exception[3:0], bit 0 NS; then with Con the next byte, byte
 * 1 or byte 2 by its bit 6 (the note after Table 7-17). A field of a byte
 * not output is 0. *isa is the address section's instruction set, to which
 * the AltISA bit applies as soon as byte 0 is read: a reserved AltISA is
 * the packet's first problem even when the byte Con announces is missing
 * (FORMAT.md "Error classes"). */
static void exception_bytes(struct etmv3_parse *p, struct exc_info *e, int *isa, int lsip)
{
	uint8_t b0 = read_byte(p);
	unsigned reserved = (p->cfg->version < 4 ? 0x80u : 0u) | (p->cfg->version < 3 ? 0x40u : 0u);
	int con = (b0 >> 7) & 1;
	memset(e, 0, sizeof *e);
	e->lsip = lsip;
	TC_CLAUSE("7.3.5/ExceptionByte0");
	res0(p, tc_etmv3_wf_exc0, b0 & reserved);   /* the field's bits, one warning */
	if (p->cfg->version < 4)
		con = 0;
	if (p->cfg->version >= 3)
		e->alt = (b0 >> 6) & 1;
	e->cancel = (b0 >> 5) & 1;
	e->exception = (b0 >> 1) & 0xf;
	e->ns = b0 & 1;
	if (p->cfg->version >= 3 && !failed(p))
		*isa = apply_altisa(p, *isa, e->alt);
	if (lsip && (b0 & 0x3e))   /* Can and Exception[3:0], in their places */
		ignored_field(p, tc_etmv3_wf_lsip_exc, b0 & 0x3e);
	if (con) {
		uint8_t b = read_byte(p);
		if (b & 0x40)
			exception_byte2(p, b, 1, e);
		else
			exception_byte1(p, b, e);
	}
}

/* The instruction set an address section states: its fifth byte's, or the
 * last address's (Table 7-13). */
static int section_isa(const struct etmv3_parse *p, const struct addr_bytes *a)
{
	return a->n == 5 ? byte5_isa(a, p->st->isa) : p->st->isa;
}

/* §7.3.5 Branch packets: an address section, then Exception information
 * bytes when it says so, or the deprecated exception form of the fifth
 * byte. Missing components are those of the previous address (Table 7-13). */
static void branch_packet(struct etmv3_parse *p, uint8_t header)
{
	struct tc_etmv3_packet *k = pkt(p);
	struct tc_etmv3_state *st = p->st;
	struct addr_bytes a;
	struct exc_info e;
	int isa;
	a.b[0] = header;
	address_bytes(p, &a);
	isa = section_isa(p, &a);
	if (a.exc) {
		exception_bytes(p, &e, &isa, 0);
		k->exc_form = tc_etmv3_exc_bytes;
		k->exception = (uint16_t)e.exception;
		k->cancel = (uint8_t)e.cancel;
		k->resume = (uint8_t)e.resume;
		st->ns = (uint8_t)e.ns;
		if (e.has_hyp)
			st->hyp = (uint8_t)e.hyp;
	} else {
		if (a.byte5_exception) {
			TC_CLAUSE_CASE((a.b[4] >> 3) & 7, "7.3.5/Table7-9");
			k->exc_form = tc_etmv3_exc_byte5;
			k->cancel = (a.b[4] >> 6) & 1;
			k->exception = (a.b[4] >> 3) & 7;
			if (k->exception == 2 || k->exception == 3)   /* b010, b011: Reserved */
				fail(p, tc_etmv3_err_reserved_field);
		}
	}
	st->address = address_value(p, &a, isa, st->address);
	st->isa = (uint8_t)isa;
	k->h.kind = tc_etmv3_pkt_branch;
	k->address = st->address;
	k->isa = st->isa;
	k->ns = st->ns;
	k->hyp = st->hyp;
}

/* ---- I-sync (§7.7.3, Figures 7-42 to 7-46; ETM3-P8) ---------------------- */

/* The instruction set an I-sync states (Table 7-22): J (information bit 4),
 * T (address bit 0, in byte0, the address's first byte), AltISA
 * (information bit 2, ETMv3.3 and later); J = 0, T = 0, AltISA = 1 and
 * J = 1, AltISA = 1 are reserved. Called as soon as byte0 is read (a
 * reserved combination is the packet's first problem even when the rest of
 * the address is missing, FORMAT.md "Error classes"); J = 1 with AltISA = 1
 * fails before byte0 is read (isync_packet). */
static int isync_isa(struct etmv3_parse *p, uint8_t info, uint8_t byte0)
{
	int j = (info >> 4) & 1, alt = p->cfg->version >= 3 ? (info >> 2) & 1 : 0, t = byte0 & 1;
	TC_CLAUSE_CASE(j << 2 | t << 1 | alt, "7.7.3/Table7-22");
	if (j) {
		if (alt)
			fail(p, tc_etmv3_err_reserved_field);
		return tc_etmv3_isa_jazelle;
	}
	if (!t) {
		if (alt)
			fail(p, tc_etmv3_err_reserved_field);
		return tc_etmv3_isa_arm;
	}
	return alt ? tc_etmv3_isa_thumbee : tc_etmv3_isa_thumb;
}

/* The information byte: bit 7 LSiP, bits 6:5 reason, bit 4 J, bit 3 NS,
 * bit 2 AltISA (ETMv3.3), bit 1 Hyp (ETMv3.5, ETM3-X2), bit 0 always 1
 * (§7.11.2): a 0 is ignored with a warning. In data-only mode only the
 * reason and NS are given (§7.7.3 "Data-only I-sync packet"). */
static void isync_info_warnings(struct etmv3_parse *p, uint8_t info)
{
	unsigned reserved;
	if (p->cfg->data_only)
		reserved = 0x96;
	else
		reserved = (p->cfg->version < 3 ? 0x04u : 0u) | (p->cfg->version < 5 ? 0x02u : 0u);
	res0(p, tc_etmv3_wf_isync_info, info & reserved);
	if (!(info & 1))
		ignored_field(p, tc_etmv3_wf_isync_info0, info & 1);
}

/* The compressed current instruction address of an LSiP I-sync: a branch
 * address section compressed against the data instruction's address, the
 * exception vector format not used, an exception information byte only to
 * change the security state (§7.7.3 "Load/Store in Progress"; ETM3-P9): an
 * exception number, Can or Resume in any of its bytes is ignored, one
 * lsip-exc warning per byte (exception_bytes). */
static void lsip_current(struct etmv3_parse *p, struct tc_etmv3_packet *k)
{
	struct tc_etmv3_state *st = p->st;
	struct addr_bytes a;
	struct exc_info e;
	int isa;
	a.b[0] = read_byte(p);
	TC_CLAUSE("7.7.3/LSiP");
	if (!failed(p) && !(a.b[0] & 1))
		ignored_field(p, tc_etmv3_wf_lsip_first, a.b[0] & 1);
	address_bytes(p, &a);
	if (a.byte5_exception) {
		fail(p, tc_etmv3_err_reserved_field);   /* "The exception vector format is not used" */
		return;
	}
	isa = section_isa(p, &a);
	if (a.exc) {
		exception_bytes(p, &e, &isa, 1);
		st->ns = (uint8_t)e.ns;
		if (e.has_hyp)
			st->hyp = (uint8_t)e.hyp;
	}
	st->address = address_value(p, &a, isa, st->address);
	st->isa = (uint8_t)isa;
	k->lsip = 1;
}

/* I-sync (08) and I-sync with cycle count (70): [cycle count,] context ID
 * (ContextIDSize bytes, little endian), the information byte, then the
 * instruction address (4 bytes, little endian, bit 0 the T bit) unless in
 * data-only mode; an LSiP I-sync's address is the data instruction's,
 * followed by the compressed current address. */
static void isync_packet(struct etmv3_parse *p, int with_cc)
{
	struct tc_etmv3_packet *k = pkt(p);
	struct tc_etmv3_state *st = p->st;
	uint8_t info;
	TC_CLAUSE_CASE(with_cc << 1 | p->cfg->data_only, "7.7.3/Isync");
	k->h.kind = tc_etmv3_pkt_isync;
	if (with_cc) {
		k->cc = cycle_count(p);
		k->has_cc = 1;
	}
	if (p->cfg->contextid_size > 0) {
		st->context_id = le_bytes(p, p->cfg->contextid_size);
		k->has_ctxid = 1;
	}
	info = read_byte(p);
	isync_info_warnings(p, info);
	k->reason = (info >> 5) & 3;
	st->ns = (info >> 3) & 1;
	if (p->cfg->version >= 5 && !p->cfg->data_only)   /* a data-only I-sync has no Hyp bit: res0 */
		st->hyp = (info >> 1) & 1;
	if (!p->cfg->data_only) {
		uint32_t address;
		int isa;
		if ((info & 0x10) && (info & 0x04) && p->cfg->version >= 3)
			fail(p, tc_etmv3_err_reserved_field);   /* J = 1, AltISA = 1, whatever T says */
		address = read_byte(p);
		isa = isync_isa(p, info, (uint8_t)address);
		address |= le_bytes(p, 3) << 8;
		if (isa != tc_etmv3_isa_jazelle)
			address &= ~UINT32_C(1);
		st->address = address;
		st->isa = (uint8_t)isa;
		k->has_address = 1;
		if (info & 0x80) {
			k->data_insn = address;
			k->data_isa = (uint8_t)isa;   /* the current address may change them (ETM3-P9) */
			k->data_ns = st->ns;
			k->data_hyp = st->hyp;
			lsip_current(p, k);
		}
	}
	k->address = st->address;
	k->isa = st->isa;
	k->ns = st->ns;
	k->hyp = st->hyp;
	k->context_id = st->context_id;
}

/* ---- P-headers (§7.3.1, Tables 7-2 and 7-3; ETM3-P6) ---------------------- */

static void add_atoms(struct tc_etmv3_packet *k, int n, int e)
{
	for (int i = 0; i < n; i++) {
		if (e)
			k->atoms |= UINT32_C(1) << k->natoms;
		k->natoms++;
	}
}

static void add_wait(struct tc_etmv3_packet *k)
{
	k->waits |= UINT32_C(1) << k->natoms;
	k->natoms++;
}

/* Format 2 (both modes): bit 3 the first atom, bit 2 the second, 1 = N. */
static void format2_atoms(struct tc_etmv3_packet *k, uint8_t h)
{
	add_atoms(k, 1, !((h >> 3) & 1));
	add_atoms(k, 1, !((h >> 2) & 1));
}

/* Table 7-2 (not cycle-accurate): format 1 b1NEEEE00, EEEE E atoms then
 * an N if bit 6; format 2 b1000FF10. */
static void pheader_plain(struct tc_etmv3_packet *k, uint8_t h)
{
	if ((h & 0x03) == 0x00) {
		TC_CLAUSE("7.3.1/Table7-2.Format1");
		add_atoms(k, (h >> 2) & 0xf, 1);
		if (h & 0x40)
			add_atoms(k, 1, 0);
	} else {
		TC_CLAUSE("7.3.1/Table7-2.Format2");
		format2_atoms(k, h);
	}
}

/* Table 7-3 (cycle-accurate): format 0 b10000000 (W, ETMv3.0), format 1
 * b1N0EEE00 (EEE × WE, then WN if bit 6), format 2 b1000FF10 (W then two
 * atoms), format 3 b1E1WWW00 (WWW + 1 W, then E if bit 6: ETM3-S2), format 4
 * b10010F10 (one atom, no W; ETMv3.3). */
static void pheader_cycle_accurate(struct tc_etmv3_packet *k, uint8_t h)
{
	if (h == 0x80) {
		TC_CLAUSE("7.3.1/Table7-3.Format0");
		add_wait(k);
	} else if ((h & 0xa3) == 0x80) {
		TC_CLAUSE("7.3.1/Table7-3.Format1");
		for (int i = 0; i < ((h >> 2) & 7); i++) {
			add_wait(k);
			add_atoms(k, 1, 1);
		}
		if (h & 0x40) {
			add_wait(k);
			add_atoms(k, 1, 0);
		}
	} else if ((h & 0xf3) == 0x82) {
		TC_CLAUSE("7.3.1/Table7-3.Format2");
		add_wait(k);
		format2_atoms(k, h);
	} else if ((h & 0xa3) == 0xa0) {
		TC_CLAUSE("7.3.1/Table7-3.Format3");
		for (int i = 0; i <= ((h >> 2) & 7); i++)
			add_wait(k);
		if (h & 0x40)
			add_atoms(k, 1, 1);
	} else {
		TC_CLAUSE("7.3.1/Table7-3.Format4");
		add_atoms(k, 1, !((h >> 2) & 1));
	}
}

/* ---- Data packets (§7.4; ETM3-P10) ------------------------------------------ */

/* A data address: 1–5 bytes, bit 7 of bytes 1–4 "another byte follows",
 * bytes 1–4 A[6:0], A[13:7], A[20:14], A[27:21]; byte 5 A[31:28] in bits 3:0
 * and the BE bit in bit 4 (ETM3-P10); compressed against the last traced
 * data address, whose BE bit a shorter address keeps (§7.4.2). */
static void data_address(struct etmv3_parse *p, struct tc_etmv3_packet *k)
{
	struct tc_etmv3_state *st = p->st;
	uint32_t v = 0, mask;
	int n = 0, nbits = 0;
	uint8_t b;
	do {
		b = read_byte(p);
		if (n == 4) {
			TC_CLAUSE("7.4.2/DataAddress.Byte5");
			res0(p, tc_etmv3_wf_daddr_last, b & 0xe0);
			v |= (uint32_t)(b & 0x0f) << 28;
			nbits = 32;
			st->be = (b >> 4) & 1;
			n++;
			break;
		}
		v |= (uint32_t)(b & 0x7f) << nbits;
		nbits += 7;
		n++;
	} while (b & 0x80);
	TC_CLAUSE_CASE(n, "7.4.2/DataAddressBytes");
	mask = nbits >= 32 ? 0xffffffffu : (UINT32_C(1) << nbits) - 1;
	st->data_address = (st->data_address & ~mask) | (v & mask);
	k->has_address = 1;
	k->data_address = st->data_address;
	k->be = st->be;
}

/* Value bytes by the size field SS (Table 7-19): 0, 1, 2 or 4, little endian. */
static void data_value(struct etmv3_parse *p, struct tc_etmv3_packet *k, unsigned ss)
{
	static const uint8_t bytes[4] = { 0, 1, 2, 4 };
	k->size = bytes[ss];
	k->value = le_bytes(p, k->size);
	k->has_value = 1;
}

/* Normal data b00A0SS10 (§7.4.2): the address when address tracing is on
 * and A is 1 (otherwise A is ignored), the value when value tracing is on. */
static void normal_data_packet(struct etmv3_parse *p, uint8_t h)
{
	struct tc_etmv3_packet *k = pkt(p);
	unsigned ss = (h >> 2) & 3;
	k->h.kind = tc_etmv3_pkt_data;
	TC_CLAUSE_CASE((h >> 5) & 1, "7.4.2/NormalData");
	if (!p->cfg->data_value && ss)   /* the header's bits: before the address's warnings (FORMAT.md "Warnings") */
		ignored_field(p, tc_etmv3_wf_data_size, h & 0x0c);
	if (p->cfg->data_address && (h & 0x20))
		data_address(p, k);
	if (p->cfg->data_value)
		data_value(p, k, ss);
}

/* Out-of-order data b0TT0SS00 (§7.4.3): tag TT, a value of SS bytes, never
 * an address. */
static void ooo_data_packet(struct etmv3_parse *p, uint8_t h)
{
	struct tc_etmv3_packet *k = pkt(p);
	TC_CLAUSE("7.4.3/OutOfOrderData");
	k->h.kind = tc_etmv3_pkt_ooo_data;
	k->tag = (h >> 5) & 3;
	data_value(p, k, (h >> 2) & 3);
}

/* Out-of-order placeholder b01A1TT00 (§7.4.3): tag TT, the address when
 * address tracing is on and A is 1. */
static void placeholder_packet(struct etmv3_parse *p, uint8_t h)
{
	struct tc_etmv3_packet *k = pkt(p);
	TC_CLAUSE("7.4.3/Placeholder");
	k->h.kind = tc_etmv3_pkt_placeholder;
	k->tag = (h >> 2) & 3;
	if (p->cfg->data_address && (h & 0x20))
		data_address(p, k);
}

/* Value not traced b011A1010 (§7.4.5): the address when address tracing is
 * on and A is 1. */
static void value_not_traced_packet(struct etmv3_parse *p, uint8_t h)
{
	struct tc_etmv3_packet *k = pkt(p);
	TC_CLAUSE("7.4.5/ValueNotTraced");
	k->h.kind = tc_etmv3_pkt_value_not_traced;
	if (p->cfg->data_address && (h & 0x10))
		data_address(p, k);
}

/* ---- ETMv3.5: VMID and timestamp (ETM3-X1) ----------------------------- */

static uint64_t bin_to_gray(uint64_t v)
{
	return v ^ (v >> 1);
}

static uint64_t gray_to_bin(uint64_t g)
{
	for (int s = 1; s < 64; s <<= 1)
		g ^= g >> s;
	return g;
}

/* Timestamp b01000R10 (IHI 0014Q §7.7.4): R, the clock changed; the value's
 * low bits, 7 a byte with bit 7 "another byte follows", at most 7 bytes (48
 * bits, the seventh carrying bits 47:42) or 9 (64 bits, the ninth bits
 * 63:56) as ETMCCER says; they replace the low bits of the previous value,
 * of its Gray code when the encoding is Gray (IHI 0014Q §7.7.3). */
static void timestamp_packet(struct etmv3_parse *p, uint8_t h)
{
	struct tc_etmv3_packet *k = pkt(p);
	int width = p->cfg->ts64 ? 64 : 48, maxb = p->cfg->ts64 ? 9 : 7, nbits = 0, i = 0;
	uint64_t v = 0, prev = p->st->timestamp, mask;
	uint8_t b;
	TC_CLAUSE_CASE(p->cfg->ts64 << 1 | p->cfg->ts_binary, "ETM3-X1/Timestamp");
	do {
		b = read_byte(p);
		i++;
		if (i == maxb) {
			int w = width - nbits;
			if (w < 8)
				res0(p, tc_etmv3_wf_ts_last, b & ~((1u << w) - 1) & 0xff);
			v |= (uint64_t)(b & ((1u << w) - 1)) << nbits;
			nbits += w;
			break;
		}
		v |= (uint64_t)(b & 0x7f) << nbits;
		nbits += 7;
	} while (b & 0x80);
	mask = nbits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << nbits) - 1;
	if (!p->cfg->ts_binary)
		prev = bin_to_gray(prev);
	prev = (prev & ~mask) | (v & mask);
	if (!p->cfg->ts_binary)
		prev = gray_to_bin(prev);   /* below 2^width: so are v, the previous value and their Gray codes */
	p->st->timestamp = prev;
	k->h.kind = tc_etmv3_pkt_timestamp;
	k->ts = prev;
	k->ts_r = (h >> 2) & 1;
}

/* ---- Table 7-1: the header dispatch --------------------------------------- */

/* P-headers by mode and version (Tables 7-2, 7-3). */
static int pheader_error(const struct tc_etmv3_config *cfg, uint8_t h)
{
	if ((h & 0x03) == 0x00) {   /* b1xxxxx00 */
		if (cfg->cycle_accurate && h == 0x80 && cfg->version != 0)
			return tc_etmv3_err_not_in_version;   /* format 0: ETMv3.0 only */
		return 0;
	}
	if ((h & 0xf3) == 0x82)     /* b1000FF10: format 2 */
		return 0;
	if (cfg->cycle_accurate && (h & 0xfb) == 0x92)   /* format 4: ETMv3.3 and later */
		return cfg->version >= 3 ? 0 : tc_etmv3_err_not_in_version;
	return tc_etmv3_err_reserved_header;
}

/* Headers below 0x80 by value (Table 7-1; ETMv3.5's 3C, 42, 46). */
static int low_header_error(const struct tc_etmv3_config *cfg, uint8_t h)
{
	if ((h & 0x03) == 0x00) {   /* b0xxxxx00 */
		if ((h & 0x70) == 0x10 || ((h & 0x70) == 0x30 && h != 0x3c))
			return tc_etmv3_err_reserved_header;   /* b0001xx00, b0011xx00 */
		if (h == 0x3c)
			return cfg->version >= 5 ? 0 : tc_etmv3_err_not_in_version;
		return 0;
	}
	if ((h & 0x50) == 0x10)   /* b00x1xx10 */
		return tc_etmv3_err_reserved_header;
	if ((h & 0x60) == 0x40) {   /* b010xxx10 */
		if (h == 0x42 || h == 0x46)
			return cfg->version >= 5 ? 0 : tc_etmv3_err_not_in_version;
		return tc_etmv3_err_reserved_header;
	}
	if (h == 0x72)
		return tc_etmv3_err_reserved_header;
	if (h == 0x76 || h == 0x7e)
		return cfg->version >= 4 ? 0 : tc_etmv3_err_not_in_version;
	return 0;
}

/* What data-only mode never produces (§7.4.10): P-headers, branches, cycle
 * counts, data suppressed, store failed, exception entry and exit; a
 * Context ID packet without context ID tracing (§7.3.6). */
static int mode_error(const struct tc_etmv3_config *cfg, uint8_t h)
{
	if (h == 0x6e && cfg->contextid_size == 0)
		return tc_etmv3_err_bad_mode;
	if (!cfg->data_only)
		return 0;
	if ((h & 1) || (h & 0x80))
		return tc_etmv3_err_bad_mode;
	switch (h) {
	case 0x04: case 0x70: case 0x62: case 0x50: case 0x76: case 0x7e:
		return tc_etmv3_err_bad_mode;
	default:
		return 0;
	}
}

int tc_etmv3_header_error(const struct tc_etmv3_config *cfg, uint8_t h)
{
	int e;
	if (h & 1)
		e = 0;   /* branch address bCxxxxxx1 */
	else if (h & 0x80)
		e = pheader_error(cfg, h);
	else
		e = low_header_error(cfg, h);
	return e ? e : mode_error(cfg, h);
}

static void simple(struct etmv3_parse *p, int kind)
{
	pkt(p)->h.kind = (uint16_t)kind;
}

/* Headers with bits 1:0 = 00 below 0x80: b0TT0SS00 out-of-order data (TT
 * not 0), b01A1TT00 placeholders (TT not 0), and the single values. */
static void dispatch_00(struct etmv3_parse *p, uint8_t h)
{
	switch (h) {
	case 0x04:
		pkt(p)->cc = cycle_count(p);
		simple(p, tc_etmv3_pkt_cycle_count);
		return;
	case 0x08: isync_packet(p, 0); return;
	case 0x0c: simple(p, tc_etmv3_pkt_trigger); return;
	case 0x3c:
		p->st->vmid = read_byte(p);
		pkt(p)->vmid = p->st->vmid;
		simple(p, tc_etmv3_pkt_vmid);
		return;
	case 0x50: simple(p, tc_etmv3_pkt_store_failed); return;
	case 0x70: isync_packet(p, 1); return;
	default: break;
	}
	if ((h & 0x10) && (h & 0x40))   /* b01x1TT00 */
		placeholder_packet(p, h);
	else
		ooo_data_packet(p, h);
}

/* Headers with bits 1:0 = 10 below 0x80. */
static void dispatch_10(struct etmv3_parse *p, uint8_t h)
{
	switch (h) {
	case 0x42: case 0x46: timestamp_packet(p, h); return;
	case 0x62: simple(p, tc_etmv3_pkt_data_suppressed); return;
	case 0x66: simple(p, tc_etmv3_pkt_ignore); return;
	case 0x6a: case 0x7a: value_not_traced_packet(p, h); return;
	case 0x6e:
		p->st->context_id = le_bytes(p, p->cfg->contextid_size);
		pkt(p)->context_id = p->st->context_id;
		simple(p, tc_etmv3_pkt_context_id);
		return;
	case 0x76: simple(p, tc_etmv3_pkt_exception_exit); return;
	case 0x7e: simple(p, tc_etmv3_pkt_exception_entry); return;
	default: normal_data_packet(p, h); return;
	}
}

static void dispatch(struct etmv3_parse *p, uint8_t h)
{
	TC_CLAUSE_CASE(h, "7.2/Table7-1");
	if (h & 1) {
		branch_packet(p, h);
	} else if (h & 0x80) {
		simple(p, tc_etmv3_pkt_atom);
		if (p->cfg->cycle_accurate)
			pheader_cycle_accurate(pkt(p), h);
		else
			pheader_plain(pkt(p), h);
	} else if ((h & 3) == 0) {
		dispatch_00(p, h);
	} else {
		dispatch_10(p, h);
	}
}

int tc_etmv3_parse_packet(const struct tc_etmv3_config *cfg, struct tc_etmv3_state *st, const uint8_t *buf,
			  size_t len, uint64_t offset, struct tc_etmv3_out *out)
{
	static const struct tc_etmv3_out empty;   /* copied, not memset: gcc makes that memset a rep stosq, slower than a packet */
	struct etmv3_parse p;
	int e;
	uint8_t h;
	*out = empty;
	out->pkt.h.size = sizeof out->pkt;
	out->pkt.h.protocol = tc_proto_etmv3;
	out->pkt.h.offset = offset;
	if (len == 0)
		return 0;
	memset(&p, 0, sizeof p);
	p.cfg = cfg;
	p.st = st;
	p.buf = buf;
	p.len = len;
	p.out = out;
	h = read_byte(&p);
	out->pkt.header = h;
	e = tc_etmv3_header_error(cfg, h);
	if (e) {
		TC_CLAUSE_CASE(e, "7.2/Table7-1.Refused");
		return -e;
	}
	dispatch(&p, h);
	if (p.error)
		return -p.error;
	if (p.need_more)
		return 0;
	return (int)p.pos;
}
