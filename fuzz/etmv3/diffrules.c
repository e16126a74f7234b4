/* SPDX-License-Identifier: BSD-3-Clause */
/* diffrules.c — what the differential harness (fuzz/diff.c, etmv3_diff) knows of ETMv3: the documented divergences of OpenCSD's ETMv3 decoder, each recognised exactly. */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "tracecert/etmv3.h"

/* The classes of conformance/notes/opencsd.md "ETMv3" (and the adapter's
 * limits, conformance/adapters/opencsd_etmv3.c) for OpenCSD, ETM3-P5 for
 * any decoder; all given by explain_in_context. Each names the packet it
 * explains by the two lines and, where the lines do not say it, by the
 * packet's bytes: the cause it documents, and nothing else. Two forms:
 * at one offset (the reference's line against OpenCSD's), and "after": the
 * packet before the reference's line is one both decoders printed alike,
 * and OpenCSD's packet took more bytes than the reference's (its next line
 * comes later, or none does), for the reason the packet's bytes give. */
enum {
	e_version, e_pheader_f2, e_cut_off, e_lsip, e_exc1_hyp, e_jazelle_bit0, e_ts64_ninth, e_alt_byte5,
	e_data_address, e_no_value_bytes, e_vnt_a_bit, e_unchecked, e_data_mode, e_ts_r, e_ctxid0_payload,
	e_async_long, e_async_search, e_zeros_at_end, e_exc0_reserved, e_exc2_continues, e_data_only_packets, e_data_only_info,
	e_ss_without_value, e_thumbee, e_before_isync, e_count
};

static const struct tc_diff_explained explained[e_count] = {
	[e_version] = { "opencsd", "", NULL, NULL, 0,
			"opencsd: no version check: 3C, 42, 46 before ETMv3.5, 76, 7E before ETMv3.4, cycle-accurate 92, 96 "
			"before ETMv3.3 decoded as packets; cycle-accurate 80 invalid in every version (opencsd.md ETMv3; "
			"ERRATA ETM3-P1)" },
	[e_pheader_f2] = { "opencsd", "", NULL, NULL, 0,
			   "opencsd: reserved P-headers decoded: b1xxxxx10 without cycle accuracy as format 2; with it "
			   "b1x00FF10 as format 2 and b1x01xF10 as format 4 (opencsd.md ETMv3; IHI 0014 Tables 7-2, 7-3)" },
	[e_cut_off] = { "opencsd", "", NULL, NULL, 0,
			"opencsd: a packet cut off by the end of the trace handed on as a complete one of its type "
			"(opencsd.md ETMv3; ERRATA ETM3-P22)" },
	[e_lsip] = { "opencsd", "", NULL, NULL, 0,
		     "opencsd: an LSiP I-sync's current address not read (reserved-field at the I-sync) or its LSiP "
		     "form lost (opencsd.md ETMv3; ERRATA ETM3-P9)" },
	[e_exc1_hyp] = { "opencsd", "", NULL, NULL, 0,
			 "opencsd: exception information byte 1 bit 5 read as Hyp before ETMv3.5 (opencsd.md ETMv3; "
			 "ERRATA ETM3-X3)" },
	[e_jazelle_bit0] = { "opencsd", "", NULL, NULL, 0,
			     "opencsd: a Jazelle I-sync loses address bit 0 (opencsd.md ETMv3; ERRATA ETM3-S10)" },
	[e_ts64_ninth] = { "opencsd", "", NULL, NULL, 0,
			   "opencsd: a timestamp whose last byte (the seventh of 48 bits, the ninth of 64) has bit 7 "
			   "set takes the next byte into it (opencsd.md ETMv3; ERRATA ETM3-X1)" },
	[e_alt_byte5] = { "opencsd", "", NULL, NULL, 0,
			  "opencsd: in the alternative scheme a branch address in the fifth-byte exception form does "
			  "not end at its fifth byte (opencsd.md ETMv3; IHI 0014 Table 7-8)" },
	[e_data_address] = { "opencsd", "", NULL, NULL, 0,
			     "opencsd: no data address reaches the packet (addr=0x0 be=0); Normal data reads one byte "
			     "of address and its value after it; a fifth address byte with bit 7 set does not end the "
			     "address (opencsd.md ETMv3; ERRATA ETM3-P10)" },
	[e_no_value_bytes] = { "opencsd", "", NULL, NULL, 0,
			       "opencsd: a Normal data packet with an address and no value bytes never ends "
			       "(opencsd.md ETMv3; ERRATA ETM3-P10)" },
	[e_vnt_a_bit] = { "opencsd", "", NULL, NULL, 0,
			  "opencsd: Value not traced takes its A bit from bit 5: 6A reads a byte of address "
			  "(opencsd.md ETMv3; IHI 0014 §7.4.5)" },
	[e_unchecked] = { "opencsd", "", NULL, NULL, 0,
			  "opencsd: reserved values not checked: AltISA with ARM or Jazelle alignment, a fifth branch "
			  "address byte b01000xxx, EEE b010 and b011 of the fifth-byte form, an I-sync's J = 1 with "
			  "AltISA = 1 and J = 0, T = 0 with AltISA = 1 (opencsd.md ETMv3; IHI 0014 Tables 7-8, 7-9, "
			  "7-11, 7-22)" },
	[e_data_mode] = { "opencsd", "", NULL, NULL, 0,
			  "opencsd: a data packet its data access setting does not produce is bad-mode (any with "
			  "address and value tracing off; Out-of-order data and Store failed with value tracing off); "
			  "the reference decodes it: CPRT tracing (ETMCR[1], no key) traces data too, IHI 0014 §7.4 "
			  "(opencsd.md ETMv3)" },
	[e_ts_r] = { "opencsd", "", NULL, NULL, 0,
		     "opencsd: the timestamp's R bit is not in OpenCSD's packet, r=0 (opencsd.md ETMv3; "
		     "conformance/adapters/opencsd_etmv3.c)" },
	[e_ctxid0_payload] = { "opencsd", "", NULL, NULL, 0,
			       "opencsd: a Context ID packet with ContextIDSize b00 takes the next byte as its payload "
			       "(opencsd.md ETMv3; IHI 0014 §7.3.6)" },
	[e_async_long] = { "opencsd", "", NULL, NULL, 0,
			   "opencsd: in sync, an A-sync of more than five zeros is a bad-async per extra zero "
			   "(opencsd.md ETMv3; ERRATA ETM3-P2)" },
	[e_async_search] = { "opencsd", "", NULL, NULL, 0,
			     "ambiguity: an A-sync found by the search with more than five zeros, at its first zero for "
			     "the reference (ERRATA ETM3-P2), at the fifth zero before its 0x80 for OpenCSD (opencsd.md "
			     "ETMv3)" },
	[e_zeros_at_end] = { "opencsd", "", NULL, NULL, 0,
			     "opencsd: in sync, zeros cut off by the end of the trace come back as A-syncs and "
			     "bad-asyncs, not truncated (opencsd.md ETMv3; ERRATA ETM3-P2, P22)" },
	[e_exc0_reserved] = { "opencsd", "", NULL, NULL, 0,
			      "opencsd: exception information byte 0's bits reserved in the configured version read: "
			      "Con before ETMv3.4 (the packet takes another byte), AltISA before ETMv3.3 (opencsd.md "
			      "ETMv3; IHI 0014 Table 7-10)" },
	[e_exc2_continues] = { "opencsd", "", NULL, NULL, 0,
			       "opencsd: an exception information byte 2 with bit 7 set does not end the packet "
			       "(opencsd.md ETMv3; IHI 0014 Figure 7-25)" },
	[e_data_only_packets] = { "opencsd", "", NULL, NULL, 0,
				  "opencsd: packets data-only mode never produces are decoded in it (opencsd.md ETMv3; "
				  "IHI 0014 §7.4.10)" },
	[e_data_only_info] = { "opencsd", "", NULL, NULL, 0,
			       "opencsd: a data-only I-sync's information byte read as a full one: bit 1 as Hyp, bit 7 "
			       "as LSiP with addresses after it (opencsd.md ETMv3; IHI 0014 §7.7.3, FORMAT.md isync-info)" },
	[e_ss_without_value] = { "opencsd", "", NULL, NULL, 0,
				 "opencsd: Normal data takes SS value bytes with value tracing off (opencsd.md ETMv3; "
				 "ERRATA ETM3-P10)" },
	[e_thumbee] = { "opencsd", "", NULL, NULL, 0,
			"ambiguity: Thumb and ThumbEE change only by an AltISA bit for the reference (ERRATA ETM3-P4): "
			"a five-byte address with Thumb alignment and no exception byte keeps ThumbEE, the AltISA bit "
			"of an alternative-scheme packet without a fifth byte applies; OpenCSD does neither "
			"(opencsd.md ETMv3)" },
	[e_before_isync] = { NULL, "", NULL, NULL, 0,
			     "address before the first I-sync: compressed against an unknown one (ERRATA ETM3-P5)" },
};

/* Where a divergence is: the two lines (either may be NULL), the reference
 * line before them, the trace, and for lines at one offset that offset and
 * header. */
struct where {
	const struct tc_etmv3_config *c;
	const struct tc_diff_lines *ref;
	size_t at;
	const char *r, *a, *prev;
	const uint8_t *t;
	size_t len;
	size_t off;
	int h;
};

/* ---- Lines ------------------------------------------------------------------ */

/* The header byte a line shows (token 1), or -1. */
static int line_header(const char *line)
{
	size_t n = 0;
	const char *t = tc_diff_token(line, 1, &n);
	char buf[3];
	if (!t || n != 2)
		return -1;
	memcpy(buf, t, 2);
	buf[2] = '\0';
	return (int)strtol(buf, NULL, 16);
}

/* The value of key= (0x hexadecimal, else decimal); 0 when absent. */
static int field_value(const char *line, const char *key, uint64_t *v)
{
	size_t n = 0;
	const char *t = tc_diff_field(line, key, strlen(key), &n);
	char buf[32];
	if (!t || n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, t, n);
	buf[n] = '\0';
	*v = strtoull(buf, NULL, 0);
	return 1;
}

static int has_field(const char *line, const char *key)
{
	size_t n = 0;
	return line && tc_diff_field(line, key, strlen(key), &n) != NULL;
}

static int field_is(const char *line, const char *key, const char *value)
{
	size_t n = 0;
	const char *t = line ? tc_diff_field(line, key, strlen(key), &n) : NULL;
	return t && n == strlen(value) && !memcmp(t, value, n);
}

static int is_error(const char *line, const char *cls)
{
	return line && tc_diff_kind_is(line, "error") && field_is(line, "class", cls);
}

static int kind_is(const char *line, const char *kind)
{
	return line && kind && tc_diff_kind_is(line, kind);
}

/* Whether the token is one of keys ("key=value"). */
static int token_has_key(const char *t, size_t n, const char *const *keys)
{
	for (; *keys; keys++) {
		size_t k = strlen(*keys);
		if (n > k && t[k] == '=' && !strncmp(t, *keys, k))
			return 1;
	}
	return 0;
}

/* Whether the two lines have the same tokens in the same order but the
 * values of the fields named in keys (NULL-terminated), which either line
 * may also lack. */
static int same_but(const char *r, const char *a, const char *const *keys)
{
	int i = 0, j = 0;
	for (;;) {
		size_t rn = 0, an = 0;
		const char *rt = tc_diff_token(r, i, &rn), *at = tc_diff_token(a, j, &an);
		if (rt && token_has_key(rt, rn, keys)) {
			i++;
			if (at && token_has_key(at, an, keys) && !strncmp(rt, at, strcspn(rt, "=") + 1))
				j++;
			continue;
		}
		if (at && token_has_key(at, an, keys)) {
			j++;
			continue;
		}
		if (!rt || !at)
			return !rt && !at;
		if (rn != an || memcmp(rt, at, rn))
			return 0;
		i++;
		j++;
	}
}

/* The instruction set a line shows (isa=), or -1. */
static int line_isa(const char *line)
{
	static const char *const names[] = { "arm", "thumb", "thumbee", "jazelle" };
	for (int i = 0; i < 4; i++)
		if (field_is(line, "isa", names[i]))
			return i;
	return -1;
}

/* The reference's instruction set before its line at: the last I-sync's
 * or branch packet's (ARM before any, ERRATA ETM3-P5). */
static int isa_before(const struct tc_diff_lines *ref, size_t at)
{
	while (at-- > 0) {
		const char *l = tc_diff_line_at(ref, at);
		int isa = (kind_is(l, "isync") || kind_is(l, "branch")) ? line_isa(l) : -1;
		if (isa >= 0)
			return isa;
	}
	return tc_etmv3_isa_arm;
}

/* Where the reference's packet at line i ends: the next line's offset, or
 * the end of the trace (in sync, packets follow one another). */
static size_t packet_end(const struct tc_diff_lines *ref, size_t i, size_t len)
{
	const char *next = tc_diff_line_at(ref, i + 1);
	size_t end = next ? (size_t)tc_diff_line_offset(next) : len;
	return end < len ? end : len;
}

/* ---- Headers and bytes (IHI 0014 Table 7-1, reference/etmv3/FORMAT.md) ---- */

static int is_ooo_data(int h)
{
	return (h & 0x93) == 0x00 && (h & 0x60);
}

static int is_normal_data(int h)
{
	return (h & 0xd3) == 0x02;
}

/* The kind a header starts (the L1 text's name), in any configuration. */
static const char *header_kind(int h)
{
	if (h & 1)
		return "branch";
	if (h & 0x80)
		return "atom";
	if (is_ooo_data(h))
		return "ooo-data";
	if ((h & 0xd3) == 0x50 && (h & 0x0c))
		return "placeholder";
	if (is_normal_data(h))
		return "data";
	switch (h) {
	case 0x00: return "async";
	case 0x04: return "cycle-count";
	case 0x08:
	case 0x70: return "isync";
	case 0x0c: return "trigger";
	case 0x3c: return "vmid";
	case 0x42:
	case 0x46: return "timestamp";
	case 0x50: return "store-failed";
	case 0x62: return "data-suppressed";
	case 0x66: return "ignore";
	case 0x6a:
	case 0x7a: return "value-not-traced";
	case 0x6e: return "context-id";
	case 0x76: return "exception-exit";
	case 0x7e: return "exception-entry";
	default: return NULL;
	}
}

static int is_data_kind(int h)
{
	const char *k = header_kind(h);
	return k && (!strcmp(k, "data") || !strcmp(k, "ooo-data") || !strcmp(k, "placeholder") ||
		     !strcmp(k, "value-not-traced") || !strcmp(k, "store-failed") || !strcmp(k, "data-suppressed"));
}

/* The position of the I-sync's information byte (ERRATA ETM3-P8: [70: the
 * cycle count, 1-5 bytes], the context ID, the information byte); 0 past
 * the end. */
static size_t isync_info_at(const struct tc_etmv3_config *c, const uint8_t *t, size_t len, size_t off)
{
	size_t i = off + 1;
	if (t[off] == 0x70)
		for (int k = 0; k < 5 && i < len; k++)
			if (!(t[i++] & 0x80) || k == 4)
				break;
	i += (size_t)c->contextid_size;
	return i < len ? i : 0;
}

/* A branch packet's bytes as the reference reads them (ERRATA ETM3-P3,
 * Table 7-10, Figure 7-25): the address bytes, the alignment's instruction
 * set (the fifth byte's, else the last broadcast one), where exception
 * information bytes 0, 1 and 2 are (0: absent). */
struct branch_bytes {
	int n;
	int isa;
	int byte5_form;
	size_t e0, e1, e2;
};

static int branch_bytes(const struct tc_etmv3_config *c, const uint8_t *t, size_t len, size_t off, int last_isa,
			struct branch_bytes *b)
{
	size_t i = off;
	int info = 0;
	memset(b, 0, sizeof *b);
	b->isa = last_isa;
	while (i < len && b->n < 5 && (b->n == 0 || (t[i - 1] & 0x80)))
		b->n++, i++;
	if (b->n == 5) {
		uint8_t b5 = t[off + 4];
		b->byte5_form = (b5 >> 7) & 1;
		if (!b->byte5_form) {
			b->isa = (b5 & 0x20) ? tc_etmv3_isa_jazelle : (b5 & 0x10) ? tc_etmv3_isa_thumb : tc_etmv3_isa_arm;
			info = (b5 >> 6) & 1;
		}
	} else if (b->n > 1 && c->alt_branch && (i < len || !(t[i - 1] & 0x80))) {
		info = (t[i - 1] >> 6) & 1;
	}
	if (!info || i >= len)
		return b->n > 0;
	b->e0 = i++;
	if (c->version < 4 || !(t[b->e0] & 0x80) || i >= len)
		return 1;
	if (!(t[i] & 0x40)) {
		b->e1 = i++;
		if (!(t[b->e1] & 0x80) || i >= len)
			return 1;
	}
	b->e2 = i;
	return 1;
}

/* ---- At one offset ------------------------------------------------------------ */

/* A header the configured version lacks, decoded by OpenCSD as the packet
 * it is in later versions; cycle-accurate 80, which OpenCSD finds invalid
 * in every version, ETMv3.0's W included. */
static int version_class(const struct where *w)
{
	const struct tc_etmv3_config *c = w->c;
	if (c->cycle_accurate && w->h == 0x80)
		return is_error(w->a, "reserved-header") &&
		       (c->version == 0 ? kind_is(w->r, "atom") && field_is(w->r, "atoms", "W")
					: is_error(w->r, "not-in-version"));
	if (!is_error(w->r, "not-in-version"))
		return 0;
	if (w->h == 0x92 || w->h == 0x96)
		return c->cycle_accurate && kind_is(w->a, "atom") && field_is(w->a, "atoms", w->h == 0x92 ? "E" : "N");
	return kind_is(w->a, header_kind(w->h));
}

/* Reserved P-headers ending b10 read as another format (as probed,
 * 2026-12-01): without cycle accuracy Table 7-2's b1001xx10, b101xxx10,
 * b11xxxx10 as format 2 (bit 3 the first atom, bit 2 the second, 1 = N);
 * with it Table 7-3's b10011x10 and b11xxxx10 with bit 5 clear, b1x00FF10 as
 * format 2 (a W, then bits 3 and 2), b1x01xF10 as format 4 (bit 2). */
static int pheader_f2_class(const struct where *w)
{
	int h = w->h;
	char want[4] = { 'W', (h & 0x08) ? 'N' : 'E', (h & 0x04) ? 'N' : 'E', '\0' };
	if ((h & 0x83) != 0x82 || (h & 0xf3) == 0x82 || !is_error(w->r, "reserved-header") || !kind_is(w->a, "atom"))
		return 0;
	if (!w->c->cycle_accurate)
		return field_is(w->a, "atoms", want + 1);
	if (h & 0x20)
		return 0;   /* b101xxx10, b111xxx10: reserved for OpenCSD too */
	return (h & 0x10) ? field_is(w->a, "atoms", (h & 0x04) ? "N" : "E") : field_is(w->a, "atoms", want);
}

/* A packet the reference finds cut off by the end of the trace, handed on
 * by OpenCSD as one of its header's kind. */
static int cut_off_class(const struct where *w)
{
	return w->h != 0x00 && is_error(w->r, "truncated") && kind_is(w->a, header_kind(w->h));
}

/* An LSiP current address (after the information byte and the four bytes
 * of the data instruction's address) in the deprecated fifth-byte
 * exception form, b1CEEExxx as its fifth byte: the reference's
 * reserved-field (§7.7.3, ERRATA ETM3-P9). */
static int lsip_byte5_form(const uint8_t *t, size_t len, size_t info)
{
	size_t i = info + 5;
	int n = 0;
	while (i < len && n < 5 && (n == 0 || (t[i - 1] & 0x80)))
		n++, i++;
	return n == 5 && (t[i - 1] & 0x80);
}

/* An LSiP I-sync (information byte bit 7, not data-only): OpenCSD's
 * reserved-field where the reference decodes it or finds it cut off, or
 * OpenCSD's line without its data instruction, also where the reference
 * finds the current address in the fifth-byte exception form. */
static int lsip_class(const struct where *w)
{
	static const char *const keys[] = { "lsip", NULL };
	size_t info = isync_info_at(w->c, w->t, w->len, w->off);
	if ((w->h != 0x08 && w->h != 0x70) || w->c->data_only || !info || !(w->t[info] & 0x80))
		return 0;
	if (is_error(w->a, "reserved-field"))
		return (kind_is(w->r, "isync") && has_field(w->r, "lsip")) || is_error(w->r, "truncated");
	if (is_error(w->r, "reserved-field"))
		return kind_is(w->a, "isync") && !has_field(w->a, "lsip") && lsip_byte5_form(w->t, w->len, info);
	return kind_is(w->r, "isync") && kind_is(w->a, "isync") && has_field(w->r, "lsip") && !has_field(w->a, "lsip") &&
	       same_but(w->r, w->a, keys);
}

/* A Jazelle I-sync: the same line with address bit 0 clear. */
static int jazelle_bit0_class(const struct where *w)
{
	static const char *const keys[] = { "addr", NULL };
	uint64_t ra = 0, aa = 0;
	return kind_is(w->r, "isync") && line_isa(w->r) == tc_etmv3_isa_jazelle && field_value(w->r, "addr", &ra) &&
	       field_value(w->a, "addr", &aa) && (ra & 1) && aa == (ra & ~UINT64_C(1)) && same_but(w->r, w->a, keys);
}

/* A timestamp at off whose payload bytes all have bit 7 set up to the
 * last it can have (ERRATA ETM3-X1: the seventh of 48 bits, the ninth of 64). */
static int ts_last_more(const struct tc_etmv3_config *c, const uint8_t *t, size_t len, size_t off)
{
	size_t n = c->ts64 ? 9 : 7;
	if ((t[off] != 0x42 && t[off] != 0x46) || off + n >= len)
		return 0;
	for (size_t i = off + 1; i <= off + n; i++)
		if (!(t[i] & 0x80))
			return 0;
	return 1;
}

static int ts64_ninth_class(const struct where *w)
{
	return kind_is(w->r, "timestamp") && kind_is(w->a, "timestamp") && ts_last_more(w->c, w->t, w->len, w->off);
}

/* The address bytes of a data address at t[i] (ERRATA ETM3-P10: 1-5, bit 7
 * of bytes 1-4 "more"). */
static size_t data_address_bytes(const uint8_t *t, size_t len, size_t i)
{
	size_t n = 0;
	while (i + n < len && n < 5)
		if (!(t[i + n++] & 0x80))
			break;
	return n;
}

/* A data address OpenCSD gives as 0 (BE 0): placeholder and Value not
 * traced differ in nothing else; Normal data's value OpenCSD takes from the
 * bytes after the first address byte, as many as the value has, and its
 * size counts the address bytes too (the adapter's size is the bytes OpenCSD
 * framed less those its address used: none). */
static int data_address_class(const struct where *w)
{
	static const char *const address[] = { "addr", "be", NULL };
	static const char *const with_value[] = { "addr", "be", "value", "size", NULL };
	uint64_t rsize = 0, asize = 0, aval = 0, want = 0;
	size_t n = data_address_bytes(w->t, w->len, w->off + 1);
	if (!has_field(w->r, "addr") || !kind_is(w->a, header_kind(w->h)))
		return 0;
	if (n == 5 && (w->t[w->off + 5] & 0x80))   /* the fifth byte's bit 7 (daddr-last): OpenCSD reads on */
		return 1;
	if (!has_field(w->a, "addr") || !field_is(w->a, "addr", "0x0") || !field_is(w->a, "be", "0"))
		return 0;
	if (!kind_is(w->r, "data") || !has_field(w->r, "value"))
		return same_but(w->r, w->a, address);
	if (!same_but(w->r, w->a, with_value) || !field_value(w->r, "size", &rsize) || !field_value(w->a, "size", &asize) ||
	    !field_value(w->a, "value", &aval))
		return 0;
	for (uint64_t i = 0; i < rsize && w->off + 2 + i < w->len; i++)
		want |= (uint64_t)w->t[w->off + 2 + i] << (8 * i);
	return asize == rsize + n && aval == want;
}

/* Normal data with an address and no value bytes (value tracing off, or SS
 * = 00): OpenCSD's line has neither its address nor a value. */
static int no_value_bytes_class(const struct where *w)
{
	return kind_is(w->r, "data") && has_field(w->r, "addr") && (!has_field(w->r, "value") || field_is(w->r, "size", "0")) &&
	       kind_is(w->a, "data") && !has_field(w->a, "addr") && !has_field(w->a, "value");
}

/* 6A (A = bit 4 = 0) with address tracing on: OpenCSD reads an address. */
static int vnt_a_bit_class(const struct where *w)
{
	return w->c->data_address && w->h == 0x6a && kind_is(w->r, "value-not-traced") && !has_field(w->r, "addr") &&
	       kind_is(w->a, "value-not-traced") && has_field(w->a, "addr");
}

/* The reference's reserved-field of a branch packet whose exception byte 0
 * has AltISA = 1 with ARM or Jazelle alignment, or whose fifth byte is
 * b01000xxx, which OpenCSD decodes as a branch; of an I-sync with J = 1 and
 * AltISA = 1, an I-sync for OpenCSD. */
static int unchecked_class(const struct where *w)
{
	struct branch_bytes b;
	size_t info;
	if (!is_error(w->r, "reserved-field"))
		return 0;
	if ((w->h == 0x08 || w->h == 0x70) && kind_is(w->a, "isync")) {
		info = isync_info_at(w->c, w->t, w->len, w->off);
		if (w->c->version < 3 || w->c->data_only || !info)
			return 0;
		return (w->t[info] & 0x14) == 0x14 ||
		       ((w->t[info] & 0x14) == 0x04 && info + 1 < w->len && !(w->t[info + 1] & 1));
	}
	if (!(w->h & 1) || !kind_is(w->a, "branch") ||
	    !branch_bytes(w->c, w->t, w->len, w->off, isa_before(w->ref, w->at), &b))
		return 0;
	if (b.byte5_form)
		return ((w->t[w->off + 4] >> 4) & 3) == 1;   /* EEE = b010, b011 */
	if (b.n == 5 && !b.byte5_form && !(w->t[w->off + 4] & 0x38))
		return (w->t[w->off + 4] & 0x40) != 0;   /* b01000xxx (b00000xxx OpenCSD reports) */
	return w->c->version >= 3 && b.e0 && (w->t[b.e0] & 0x40) &&
	       (b.isa == tc_etmv3_isa_arm || b.isa == tc_etmv3_isa_jazelle);
}

/* A data packet OpenCSD's data access setting does not produce, OpenCSD's
 * bad-mode: with address and value tracing off any, with value tracing off
 * Out-of-order data and Store failed (as probed, 2026-12-01). The reference
 * decodes it (or finds it cut off). */
static int data_mode_class(const struct where *w)
{
	const struct tc_etmv3_config *c = w->c;
	int refused = (!c->data_address && !c->data_value && is_data_kind(w->h)) ||
		      (!c->data_value && (is_ooo_data(w->h) || w->h == 0x50));
	return refused && is_error(w->a, "bad-mode") && (kind_is(w->r, header_kind(w->h)) || is_error(w->r, "truncated"));
}

static int ts_r_class(const struct where *w)
{
	static const char *const keys[] = { "r", NULL };
	return kind_is(w->r, "timestamp") && field_is(w->r, "r", "1") && field_is(w->a, "r", "0") &&
	       same_but(w->r, w->a, keys);
}

/* In sync, an A-sync of six or more zeros: OpenCSD's bad-async. */
static int async_long_class(const struct where *w)
{
	size_t z = 0;
	while (w->off + z < w->len && w->t[w->off + z] == 0x00)
		z++;
	return kind_is(w->r, "async") && is_error(w->a, "bad-async") && z >= 6 && w->off + z < w->len &&
	       w->t[w->off + z] == 0x80 && w->prev;   /* after an error OpenCSD decodes on, in sync */
}

/* In sync, zeros to the end of the trace: the reference's truncated,
 * OpenCSD's A-sync or bad-async. */
static int zeros_at_end_class(const struct where *w)
{
	if (!is_error(w->r, "truncated") || !(kind_is(w->a, "async") || is_error(w->a, "bad-async")))
		return 0;
	for (size_t i = w->off; i < w->len; i++)
		if (w->t[i] != 0x00)
			return 0;
	return 1;
}

/* A branch packet with exception byte 0's Con set before ETMv3.4: OpenCSD
 * reads on (its branch line differs, or is cut off). */
static int con_byte(const struct tc_etmv3_config *c, const struct tc_diff_lines *ref, size_t i, const uint8_t *t,
		    size_t len)
{
	const char *l = tc_diff_line_at(ref, i);
	struct branch_bytes b;
	return c->version < 4 && kind_is(l, "branch") && has_field(l, "exc") &&
	       branch_bytes(c, t, len, (size_t)tc_diff_line_offset(l), isa_before(ref, i), &b) && b.e0 &&
	       (t[b.e0] & 0x80);
}

/* Con before ETMv3.4 (above), or AltISA = 1 before ETMv3.3 with Thumb
 * alignment: OpenCSD's thumbee where the reference ignores the bit. */
static int exc0_reserved_class(const struct where *w)
{
	static const char *const keys[] = { "isa", NULL };
	struct branch_bytes b;
	if (!kind_is(w->a, "branch"))
		return 0;
	if (con_byte(w->c, w->ref, w->at, w->t, w->len))
		return 1;
	return w->c->version < 3 && kind_is(w->r, "branch") && line_isa(w->r) == tc_etmv3_isa_thumb &&
	       line_isa(w->a) == tc_etmv3_isa_thumbee && same_but(w->r, w->a, keys) &&
	       branch_bytes(w->c, w->t, w->len, w->off, isa_before(w->ref, w->at), &b) && b.e0 && (w->t[b.e0] & 0x40);
}

/* A branch packet whose exception byte 2 has bit 7 set (the reference's
 * exc2-last warning): OpenCSD reads on. */
static int exc2_byte(const struct tc_etmv3_config *c, const struct tc_diff_lines *ref, size_t i, const uint8_t *t,
		     size_t len)
{
	const char *l = tc_diff_line_at(ref, i);
	struct branch_bytes b;
	return kind_is(l, "branch") && branch_bytes(c, t, len, (size_t)tc_diff_line_offset(l), isa_before(ref, i), &b) &&
	       b.e2 && b.e2 + 1 == packet_end(ref, i, len) && (t[b.e2] & 0x80);
}

static int exc2_continues_class(const struct where *w)
{
	return kind_is(w->a, "branch") && exc2_byte(w->c, w->ref, w->at, w->t, w->len);
}

/* In data-only mode, a header §7.4.10 excludes (the reference's bad-mode)
 * that OpenCSD decodes as its packet: an I-sync with cycle count (70) as
 * an I-sync, which OpenCSD may then find malformed (reserved-field), and a
 * branch packet, which OpenCSD finds malformed when its fifth address byte
 * is a reserved b0x000xxx (Table 7-8). */
static int data_only_packets_class(const struct where *w)
{
	int h = w->h;
	struct branch_bytes b;
	if (!w->c->data_only || !is_error(w->r, "bad-mode") || h == 0x6e)
		return 0;
	if (kind_is(w->a, header_kind(h)) || (h == 0x70 && is_error(w->a, "reserved-field")))
		return 1;
	return (h & 1) && is_error(w->a, "reserved-field") &&
	       branch_bytes(w->c, w->t, w->len, w->off, isa_before(w->ref, w->at), &b) && b.n == 5 && !b.byte5_form &&
	       !(w->t[w->off + 4] & 0x38);
}

/* A Context ID header with ContextIDSize b00 as the trace's last byte: the
 * reference's bad-mode, OpenCSD's Context ID packet whose payload byte
 * (the class "takes the next byte as its payload") the trace cut off,
 * handed on as complete (the class of cut_off_class). */
static int ctxid0_at_end_class(const struct where *w)
{
	return w->h == 0x6e && w->c->contextid_size == 0 && w->off + 1 == w->len && is_error(w->r, "bad-mode") &&
	       kind_is(w->a, "context-id");
}

/* A data-only I-sync whose information byte has bit 7 (LSiP) or bit 1
 * (Hyp) set, which data-only mode does not assign (the reference's
 * isync-info warning): OpenCSD's I-sync line differs (Hyp; the
 * addresses of an LSiP form). */
static int data_only_info_byte(const struct tc_etmv3_config *c, const uint8_t *t, size_t len, size_t off, int bits)
{
	size_t info = isync_info_at(c, t, len, off);
	return c->data_only && (t[off] == 0x08 || t[off] == 0x70) && info && (t[info] & bits);
}

static int data_only_info_class(const struct where *w)
{
	static const char *const keys[] = { "hyp", NULL };
	if (!kind_is(w->r, "isync") || !kind_is(w->a, "isync"))
		return 0;
	if (data_only_info_byte(w->c, w->t, w->len, w->off, 0x80))
		return 1;
	return w->c->version == 5 && data_only_info_byte(w->c, w->t, w->len, w->off, 0x02) &&
	       field_is(w->r, "hyp", "0") && field_is(w->a, "hyp", "1") && same_but(w->r, w->a, keys);
}

/* A branch line that differs in Hyp, the instruction set or both, each for
 * its documented reason, and in nothing else:
 *  - Hyp: before ETMv3.5 the reference's is always 0; OpenCSD's hyp=1 is the
 *    packet's byte 1 bit 5 (OpenCSD reads no I-sync Hyp bit before ETMv3.5:
 *    the adapter sets ETMCCER[26] with version 5 only);
 *  - Thumb and ThumbEE (ETM3-P4): the reference keeps ThumbEE through a
 *    five-byte address with Thumb alignment and no exception byte, and
 *    applies the AltISA bit of an alternative-scheme exception packet
 *    without a fifth byte to the Thumb alignment; OpenCSD does neither. */
static int branch_state_class(const struct where *w)
{
	const char *keys[3] = { NULL, NULL, NULL };
	struct branch_bytes b;
	int last = isa_before(w->ref, w->at), ri = line_isa(w->r), ai = line_isa(w->a), hyp, thumbee, k = 0;
	int swapped = (ri == tc_etmv3_isa_thumbee && ai == tc_etmv3_isa_thumb) ||
		      (ri == tc_etmv3_isa_thumb && ai == tc_etmv3_isa_thumbee);
	if (!kind_is(w->r, "branch") || !kind_is(w->a, "branch") || !branch_bytes(w->c, w->t, w->len, w->off, last, &b))
		return -1;
	hyp = w->c->version < 5 && field_is(w->r, "hyp", "0") && field_is(w->a, "hyp", "1") && b.e1 &&
	      (w->t[b.e1] & 0x20);
	thumbee = swapped && ((w->c->alt_branch && b.n < 5 && b.e0 && ((w->t[b.e0] >> 6) & 1) == (ri == tc_etmv3_isa_thumbee) &&
			       (last == tc_etmv3_isa_thumb || last == tc_etmv3_isa_thumbee)) ||
			      (b.n == 5 && !b.byte5_form && !b.e0 && (w->t[w->off + 4] & 0x30) == 0x10 &&
			       last == tc_etmv3_isa_thumbee && ri == tc_etmv3_isa_thumbee));
	if (hyp)
		keys[k++] = "hyp";
	if (thumbee)
		keys[k++] = "isa";
	if (!k || !same_but(w->r, w->a, keys))
		return -1;
	return hyp ? e_exc1_hyp : e_thumbee;
}

/* A branch packet of fewer than five address bytes before the reference's
 * first I-sync (same offset and kind): its address is compressed against
 * an unknown one (ETM3-P5). */
static int before_isync_class(const struct where *w)
{
	struct branch_bytes b;
	for (size_t i = 0; i < w->at; i++)
		if (kind_is(tc_diff_line_at(w->ref, i), "isync"))
			return 0;
	return kind_is(w->r, "branch") && kind_is(w->a, "branch") &&
	       branch_bytes(w->c, w->t, w->len, w->off, tc_etmv3_isa_arm, &b) && b.n < 5;
}

static int at_one_offset(const struct where *w)
{
	static int (*const opencsd[])(const struct where *) = {
		[e_version] = version_class, [e_pheader_f2] = pheader_f2_class, [e_data_mode] = data_mode_class,
		[e_lsip] = lsip_class, [e_zeros_at_end] = zeros_at_end_class, [e_cut_off] = cut_off_class,
		[e_jazelle_bit0] = jazelle_bit0_class, [e_ts64_ninth] = ts64_ninth_class,
		[e_data_address] = data_address_class, [e_no_value_bytes] = no_value_bytes_class,
		[e_vnt_a_bit] = vnt_a_bit_class, [e_unchecked] = unchecked_class, [e_ts_r] = ts_r_class,
		[e_async_long] = async_long_class, [e_exc0_reserved] = exc0_reserved_class,
		[e_exc2_continues] = exc2_continues_class, [e_data_only_packets] = data_only_packets_class,
		[e_data_only_info] = data_only_info_class, [e_ctxid0_payload] = ctxid0_at_end_class,
	};
	for (int i = 0; i < (int)(sizeof opencsd / sizeof opencsd[0]); i++)
		if (opencsd[i] && opencsd[i](w))
			return i;
	if (w->c->alt_branch && kind_is(w->r, "branch") && has_field(w->r, "exc5") && kind_is(w->a, "branch"))
		return e_alt_byte5;
	return branch_state_class(w);
}

/* ---- At different offsets --------------------------------------------------------- */

/* Searching (at the start, or after an error), an A-sync of z > 5 zeros:
 * the reference's at its first zero, OpenCSD's z - 5 bytes later. */
static int async_search(const struct where *w)
{
	size_t z = 0;
	while (w->off + z < w->len && w->t[w->off + z] == 0x00)
		z++;
	return kind_is(w->r, "async") && kind_is(w->a, "async") && (!w->prev || kind_is(w->prev, "error")) && z > 5 &&
	       w->off + z < w->len && w->t[w->off + z] == 0x80 && tc_diff_line_offset(w->a) == w->off + z - 5;
}

/* ---- After a packet both printed alike ------------------------------------------- */

/* The packet before the reference's line, which OpenCSD printed alike and
 * made longer: why, by its bytes. */
static int after_packet(const struct where *w)
{
	const struct tc_etmv3_config *c = w->c;
	size_t p = (size_t)tc_diff_line_offset(w->prev), i = w->at - 1;
	int h = w->t[p];
	if (is_error(w->prev, "bad-mode") && h == 0x6e)   /* OpenCSD decodes on from the byte after the payload */
		return c->contextid_size == 0 && kind_is(w->r, "async") && tc_diff_line_offset(w->r) == p + 1 &&
				       (!w->a || tc_diff_line_offset(w->a) >= p + 2)
			       ? e_ctxid0_payload
			       : -1;
	if (kind_is(w->prev, "error"))
		return -1;   /* the reference searches for an A-sync: OpenCSD decodes on (not explained) */
	if (kind_is(w->prev, "timestamp") && ts_last_more(c, w->t, w->len, p))
		return e_ts64_ninth;
	if (c->alt_branch && kind_is(w->prev, "branch") && has_field(w->prev, "exc5") && tc_diff_line_offset(w->r) == p + 5)
		return e_alt_byte5;
	if (con_byte(c, w->ref, i, w->t, w->len))
		return e_exc0_reserved;
	if (exc2_byte(c, w->ref, i, w->t, w->len))
		return e_exc2_continues;
	if (kind_is(w->prev, "data") && !c->data_value && is_normal_data(h) && ((h >> 2) & 3))
		return e_ss_without_value;
	if (kind_is(w->prev, "isync") && data_only_info_byte(c, w->t, w->len, p, 0x80))
		return e_data_only_info;
	return -1;
}

static int explain_in_context(const struct tc_diff_lines *ref, size_t at, const char *r, const char *a,
			      const void *cfg, const uint8_t *trace, size_t len, const char *adapter)
{
	struct where w;
	memset(&w, 0, sizeof w);
	w.c = cfg;
	w.ref = ref;
	w.at = at;
	w.r = r;
	w.a = a;
	w.prev = at > 0 ? tc_diff_line_at(ref, at - 1) : NULL;
	w.t = trace;
	w.len = len;
	if (!r || tc_diff_line_offset(r) >= len)
		return -1;
	w.off = (size_t)tc_diff_line_offset(r);
	w.h = trace[w.off];
	if (line_header(r) != w.h)
		return -1;
	if (a && tc_diff_line_offset(a) == w.off && line_header(a) == w.h) {
		if (before_isync_class(&w))
			return e_before_isync;
		return strcmp(adapter, "opencsd") ? -1 : at_one_offset(&w);
	}
	if (strcmp(adapter, "opencsd") || (a && tc_diff_line_offset(a) <= w.off))
		return -1;
	if (async_search(&w))
		return e_async_search;
	if (!w.prev || tc_diff_line_offset(w.prev) >= len)
		return -1;
	return after_packet(&w);
}

/* One byte per key (fuzz.h tc_fuzz_proto_config); ts_binary forced to 1:
 * OpenCSD 1.3.3 decodes every timestamp as natural binary (the adapter
 * declares Gray-coded timestamps unsupported, tag gray). */
static void read_config(struct tc_fuzz_in *in, void *cfg)
{
	tc_fuzz_proto_config(tc_protocol_find("etmv3"), in, cfg);
	((struct tc_etmv3_config *)cfg)->ts_binary = 1;
}

/* NS, Hyp, context ID and VMID are parts of one context. */
static const char *const context_fields[] = { "ns", "hyp", "ctxid", "vmid", NULL };

const struct tc_diff_rules tc_diff_rules_etmv3 = {
	.protocol = "etmv3",
	.read_config = read_config,
	.explained = explained,
	.nexplained = e_count,
	.explain_in_context = explain_in_context,
	.sync_kind = "async",
	.context_fields = context_fields,
	.spec = "IHI 0014 chapter 7 (reference/etmv3/FORMAT.md, reference/etmv3/ERRATA.md)",
};
