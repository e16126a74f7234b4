/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_negative.c — negative vectors: a generated vector with ONE deliberate corruption, labelled
 * with the error class and offset a decoder must report.
 *
 * The truth comes from the encoder's own record of what it wrote, never from a decoder: the
 * L1 records its expected L1 is written from (enc_generate_packets), one per packet in stream
 * order, give every packet's offset, header, kind and (up to the next one) length. A corruption
 * is chosen only where its class follows with certainty from the packet layouts
 * (reference/ete/FORMAT.md, reference/ete/ERRATA.md):
 *
 *   reserved-header      a packet's header replaced by a header with no packet in the configuration
 *   exact-match-index    a packet's header replaced by 0x93, 0xA3 or 0xB3 (TC-S3, TC-S3b)
 *   truncated            the stream cut inside a packet (at least its header kept)
 *   sbz                  bit 7 of a long address's first payload byte (second too for IS0),
 *                        bit 2 or 3 of a context payload byte (TC-P8): the SBZ() calls of the text
 *                        (bits the text leaves unassigned give a warning instead, TC-R1)
 *   reserved-extension   a Discard's or Overflow's 03/05 replaced, or 00 xx inserted between packets
 *   bad-async            an A-sync's terminating 0x80 replaced, or a nonzero byte among its first
 *                        ten payload zeros (TC-P2)
 *
 * The expected L1 of the corrupted vector (FORMAT.md, "Error classes"), every line written
 * from a record by the protocol's L1 formatter (tc_ete_format_packet): the packets before the
 * offending one; "@OFF HH error class=C" (HH: the byte at OFF); for every class but truncated,
 * nothing until the next A-sync, searched in the raw bytes from OFF+1 (at least 11 zero bytes and
 * 0x80; it is reported at the first of those zeros), then the packets after it. Only an A-sync
 * that is one of the encoder's packets and is followed by a Trace Info is accepted as that
 * resynchronisation point: an error resets neither the address history, the context nor the
 * timestamp, a Trace Info resets them all, so from there on the decoder's state is the encoder's
 * again. (The decoder skips the Trace Info's depth comparison after an error, and the depth is
 * the encoder's anyway.) No [expect.l3]: the elements before the error still reach stage 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

static const char *const kind_names[tc_enc_neg_count] = {
	"any", "reserved-header", "truncated", "sbz", "reserved-extension", "bad-async", "exact-match-index"
};

static const int kind_error[tc_enc_neg_count] = {
	tc_ete_err_none, tc_ete_err_reserved_header, tc_ete_err_truncated, tc_ete_err_sbz,
	tc_ete_err_reserved_extension, tc_ete_err_bad_async, tc_ete_err_exact_match_index
};

const char *tc_enc_negative_kind_name(int kind)
{
	return kind >= 0 && kind < tc_enc_neg_count ? kind_names[kind] : NULL;
}

int tc_enc_negative_kind_parse(const char *name)
{
	for (int k = 0; name && k < tc_enc_neg_count; k++)
		if (!strcmp(name, kind_names[k]))
			return k;
	return -1;
}

/* ---- The packet record: the L1 records of the expected L1 ------------------------------- */

struct npkt {
	uint64_t off, len;
	unsigned header;
	int kind;                          /* enum tc_ete_pkt_kind */
	const struct tc_ete_packet *rec;   /* the record its expected L1 line is written from */
};

/* The packets of the records, each with its length; checks that the records are consistent
 * with the bytes (offsets increasing from 0, each header byte where the record says). */
static long split_packets(const struct tc_enc_vector *v, const struct tc_ete_packet *rec, size_t nrec,
			  struct npkt **out, char *err, size_t errlen)
{
	struct npkt *pk = nrec ? malloc(nrec * sizeof *pk) : NULL;
	long n = 0;
	if (!pk)
		goto bad;
	for (; (size_t)n < nrec; n++) {
		uint64_t off = rec[n].h.offset;
		pk[n].off = off;
		pk[n].header = rec[n].header;
		pk[n].kind = rec[n].h.kind;
		pk[n].rec = &rec[n];
		if (pk[n].kind >= tc_ete_pkt_count || off >= v->trace_len || v->trace[off] != pk[n].header ||
		    (n == 0 ? off != 0 : off <= pk[n - 1].off))
			goto bad;
		if (n > 0)
			pk[n - 1].len = off - pk[n - 1].off;
	}
	if (pk[0].kind != tc_ete_pkt_async)
		goto bad;
	pk[n - 1].len = v->trace_len - pk[n - 1].off;
	*out = pk;
	return n;
bad:
	snprintf(err, errlen, "encoder: its L1 record does not match its bytes (packet %ld)", n);
	free(pk);
	return -1;
}

/* ---- Corruptions --------------------------------------------------------------------------- */

struct plan {
	int kind;              /* enum tc_enc_negative_kind */
	long pkt;              /* the offending packet; insertion: the packet the bytes go before */
	uint64_t at;           /* the byte replaced, or where 00 VALUE is inserted */
	uint8_t value;
	uint8_t mask;          /* sbz: the bit set (value = old | mask) */
	int insert;
	uint64_t cut;          /* truncated: the new length */
};

/* Headers with no packet in configuration c (FORMAT.md's header table, ERRATA TC-S2, TC-P1);
 * 0x93, 0xA3, 0xB3 are exact-match-index, not here. */
static int reserved_headers(const struct tc_ete_config *c, uint8_t *h)
{
	int n = 0;
	h[n++] = 0x05, h[n++] = 0x07, h[n++] = 0x08;
	for (unsigned x = 0x20; x <= 0x2c; x++)
		h[n++] = (uint8_t)x;
	for (unsigned x = 0x40; x <= 0x6f; x++)
		h[n++] = (uint8_t)x;
	h[n++] = 0x84, h[n++] = 0x87;
	for (unsigned x = 0x89; x <= 0x8f; x++)
		h[n++] = (uint8_t)x;
	h[n++] = 0x94, h[n++] = 0x97, h[n++] = 0x98, h[n++] = 0x99, h[n++] = 0x9c, h[n++] = 0x9f;
	h[n++] = 0xa4, h[n++] = 0xa7, h[n++] = 0xa8, h[n++] = 0xa9, h[n++] = 0xad, h[n++] = 0xae;
	for (unsigned x = 0xba; x <= 0xbf; x++)
		h[n++] = (uint8_t)x;
	if (!c->ite)
		h[n++] = 0x09;
	if (!c->tsmark)
		h[n++] = 0x88;
	/* with commopt=1, 0x0C and 0x14-0x1F are cycle counts with a warning (ERRATA TC-R1) */
	return n;
}

/* A byte other than those in the list (1..255). */
static uint8_t byte_except(struct enc_rng *r, const uint8_t *no, int nno)
{
	for (;;) {
		uint8_t b = (uint8_t)(1 + enc_below(r, 255));
		int ok = 1;
		for (int i = 0; i < nno; i++)
			ok &= b != no[i];
		if (ok)
			return b;
	}
}

static int add(struct plan **c, long *n, long *cap, struct plan p)
{
	if (*n == *cap) {
		struct plan *nc;
		*cap = *cap ? 2 * *cap : 256;
		nc = realloc(*c, (size_t)*cap * sizeof **c);
		if (!nc)
			return -1;
		*c = nc;
	}
	(*c)[(*n)++] = p;
	return 0;
}

/* Every place a corruption of this kind can go (packet 0, the first A-sync, is never touched:
 * before it the decoder is not synchronised). */
static long candidates(const struct tc_enc_vector *v, const struct npkt *pk, long n, int kind, struct enc_rng *r,
		       struct plan **out)
{
	struct plan *c = NULL;
	long nc = 0, cap = 0;
	uint8_t res[128];
	int nres = reserved_headers(&v->cfg, res);
	static const uint8_t emi[3] = { 0x93, 0xa3, 0xb3 };
	static const uint8_t ext_ok[3] = { 0x00, 0x03, 0x05 };
	static const uint8_t async_end_ok[2] = { 0x00, 0x80 };
	for (long i = 1; i < n; i++) {
		const struct npkt *p = &pk[i];
		struct plan x;
		int rc = 0;
		memset(&x, 0, sizeof x);
		x.kind = kind;
		x.pkt = i;
		x.at = p->off;
		switch (kind) {
		case tc_enc_neg_reserved_header:
			x.value = res[enc_below(r, (unsigned)nres)];
			rc = add(&c, &nc, &cap, x);
			break;
		case tc_enc_neg_exact_match_index:
			x.value = emi[enc_below(r, 3)];
			rc = add(&c, &nc, &cap, x);
			break;
		case tc_enc_neg_truncated:
			if (p->len >= 2) {
				x.cut = p->off + 1 + enc_below(r, (unsigned)(p->len - 1));
				rc = add(&c, &nc, &cap, x);
			}
			break;
		case tc_enc_neg_sbz:
			switch (p->header) {
			case 0x9a: case 0x9d: case 0x82: case 0x85:                         /* IS0 long: b1<7>, b2<7> */
				x.at = p->off + 1 + enc_below(r, 2);
				x.mask = 0x80;
				break;
			case 0x9b: case 0x9e: case 0x83: case 0x86:                         /* IS1 long: b1<7> */
				x.at = p->off + 1;
				x.mask = 0x80;
				break;
			case 0x81:                                                          /* context payload<3:2> */
				x.at = p->off + 1;
				x.mask = v->cfg.rme || enc_chance(r, 50) ? 0x04 : 0x08;
				break;
			default:
				break;
			}
			if (x.mask && x.at < p->off + p->len && !(v->trace[x.at] & x.mask)) {
				x.value = v->trace[x.at] | x.mask;
				rc = add(&c, &nc, &cap, x);
			}
			break;
		case tc_enc_neg_reserved_extension:
			if ((p->kind == tc_ete_pkt_discard || p->kind == tc_ete_pkt_overflow) && p->len == 2) {
				x.at = p->off + 1;
				x.value = byte_except(r, ext_ok, 3);
				rc = add(&c, &nc, &cap, x);
			}
			x.at = p->off;             /* 00 VALUE inserted before this packet */
			x.insert = 1;
			x.value = byte_except(r, ext_ok, 3);
			rc |= add(&c, &nc, &cap, x);
			break;
		case tc_enc_neg_bad_async:
			if (p->kind == tc_ete_pkt_async && p->len >= 12) {
				x.at = p->off + p->len - 1;               /* the terminating 0x80 */
				x.value = byte_except(r, async_end_ok, 2);
				rc = add(&c, &nc, &cap, x);
				x.at = p->off + 2 + enc_below(r, 9);      /* fewer than ten zeros before it */
				x.value = (uint8_t)(1 + enc_below(r, 255));
				rc |= add(&c, &nc, &cap, x);
			}
			break;
		default:
			break;
		}
		if (rc) {
			free(c);
			return -1;
		}
	}
	*out = c;
	return nc;
}

/* The corrupted bytes. */
static uint8_t *apply(const struct tc_enc_vector *v, const struct plan *p, size_t *len)
{
	uint8_t *t = malloc(v->trace_len + 2);
	if (!t)
		return NULL;
	if (p->kind == tc_enc_neg_truncated) {
		memcpy(t, v->trace, p->cut);
		*len = p->cut;
	} else if (p->insert) {
		memcpy(t, v->trace, p->at);
		t[p->at] = 0x00;
		t[p->at + 1] = p->value;
		memcpy(t + p->at + 2, v->trace + p->at, v->trace_len - p->at);
		*len = v->trace_len + 2;
	} else {
		memcpy(t, v->trace, v->trace_len);
		t[p->at] = p->value;
		*len = v->trace_len;
	}
	return t;
}

/* An offset of the original stream in the corrupted one. */
static uint64_t moved(const struct plan *p, uint64_t off)
{
	return p->insert && off >= p->at ? off + 2 : off;
}

/* The resynchronisation search of FORMAT.md: from `from`, the first run of at least 11 zero
 * bytes (header and ten payload zeros, TC-P2) followed by 0x80. Returns the 0x80's offset and
 * sets *start to the run's first byte, or returns -1. */
static long long find_async(const uint8_t *t, size_t len, size_t from, size_t *start)
{
	size_t run = 0;
	for (size_t i = from; i < len; i++) {
		if (t[i] == 0x00) {
			if (run++ == 0)
				*start = i;
		} else if (t[i] == 0x80 && run >= 11) {
			return (long long)i;
		} else {
			run = 0;
		}
	}
	return -1;
}

static void put_packet_line(struct enc_buf *b, const struct tc_ete_packet *p)
{
	char line[512];
	tc_ete_format_packet(line, sizeof line, p);
	enc_buf_printf(b, "%s\n", line);
}

/* The expected L1 line of packet k at its offset in the corrupted stream. */
static void put_moved_packet_line(struct enc_buf *b, const struct plan *p, const struct npkt *k)
{
	struct tc_ete_packet x = *k->rec;
	x.h.offset = moved(p, k->off);
	put_packet_line(b, &x);
}

/* The truth of a corruption: expected L1 and [error]. Returns 1 when the plan is unusable (no
 * A-sync of the encoder's, followed by a Trace Info, to resynchronise at). */
static int truth(const struct npkt *pk, long n, const struct plan *p, const uint8_t *t, size_t tlen,
		 struct enc_buf *l1, struct enc_buf *errs, long *resync_pkt, uint64_t *resync_off)
{
	struct tc_ete_packet x;
	uint64_t erroff = p->insert ? p->at : pk[p->pkt].off;
	int error = kind_error[p->kind];
	for (long i = 0; i < p->pkt; i++)
		put_packet_line(l1, pk[i].rec);
	tc_ete_packet_init(&x, tc_ete_pkt_error, erroff);
	x.header = t[erroff];
	x.error = (uint8_t)error;
	put_packet_line(l1, &x);
	enc_buf_printf(errs, "%s %llu\n", tc_ete_error_name(error), (unsigned long long)erroff);
	*resync_pkt = -1;
	if (p->kind != tc_enc_neg_truncated) {
		size_t start = 0;
		long long end = find_async(t, tlen, (size_t)erroff + 1, &start);
		long j;
		if (end < 0)
			return 1;
		for (j = p->pkt; j < n; j++)
			if (pk[j].kind == tc_ete_pkt_async && moved(p, pk[j].off + pk[j].len - 1) == (uint64_t)end)
				break;
		if (j >= n - 1 || pk[j + 1].kind != tc_ete_pkt_trace_info)
			return 1;
		tc_ete_packet_init(&x, tc_ete_pkt_async, start);
		x.header = 0x00;
		put_packet_line(l1, &x);
		for (long i = j + 1; i < n; i++)
			put_moved_packet_line(l1, p, &pk[i]);
		*resync_pkt = j;
		*resync_off = start;
	}
	return 0;
}

static void describe(struct enc_buf *b, const struct tc_enc_vector *v, const struct npkt *pk, const struct plan *p,
		     uint64_t seed, long resync_pkt, uint64_t resync_off)
{
	const struct npkt *k = &pk[p->pkt];
	const char *kname = tc_ete_pkt_kind_name(k->kind);
	enc_buf_printf(b, "Negative vector (tracecert gen --negative) from the vector of encoder seed %llu,\n",
		       (unsigned long long)seed);
	switch (p->kind) {
	case tc_enc_neg_reserved_header:
	case tc_enc_neg_exact_match_index:
		enc_buf_printf(b, "%s: the header of the %s packet @%llu (%02x) replaced by %02x.\n", kind_names[p->kind],
			       kname, (unsigned long long)k->off, k->header, p->value);
		break;
	case tc_enc_neg_truncated:
		enc_buf_printf(b, "truncated: the stream cut after %llu of the %llu bytes of the %s packet @%llu.\n",
			       (unsigned long long)(p->cut - k->off), (unsigned long long)k->len, kname,
			       (unsigned long long)k->off);
		break;
	case tc_enc_neg_sbz:
		enc_buf_printf(b, "sbz: bit 0x%02x of byte @%llu (%02x -> %02x) set, in the %s packet @%llu (%02x).\n",
			       p->mask, (unsigned long long)p->at, v->trace[p->at], p->value, kname,
			       (unsigned long long)k->off, k->header);
		break;
	case tc_enc_neg_reserved_extension:
		if (p->insert)
			enc_buf_printf(b, "reserved-extension: 00 %02x inserted before the %s packet @%llu (later offsets +2).\n",
				       p->value, kname, (unsigned long long)k->off);
		else
			enc_buf_printf(b, "reserved-extension: the %s packet @%llu: 00 %02x -> 00 %02x.\n", kname,
				       (unsigned long long)k->off, v->trace[p->at], p->value);
		break;
	case tc_enc_neg_bad_async:
		enc_buf_printf(b, "bad-async: byte @%llu of the A-sync @%llu (%llu bytes) %02x -> %02x.\n",
			       (unsigned long long)p->at, (unsigned long long)k->off, (unsigned long long)k->len,
			       v->trace[p->at], p->value);
		break;
	default:
		break;
	}
	if (p->kind == tc_enc_neg_truncated)
		enc_buf_printf(b, "Expected (the encoder's record of its packets, never a decoder's output): the\n"
				  "packets before it, then the error at the cut packet's header.");
	else
		enc_buf_printf(b, "Expected (the encoder's record of its packets, never a decoder's output): the\n"
				  "packets before it, the error, nothing until the next A-sync (searched from one\n"
				  "byte after the error's offset: found @%llu, the A-sync packet @%llu), then its\n"
				  "Trace Info and everything after: the decoder's state is the encoder's again.",
			       (unsigned long long)resync_off, (unsigned long long)moved(p, pk[resync_pkt].off));
}

/* Applies one corruption of this kind to v, at a place chosen with r. Returns 0, 1 when the
 * vector offers no place for it, -1 on error. */
static int corrupt(struct tc_enc_vector *v, const struct tc_ete_packet *rec, size_t nrec, int kind,
		   struct enc_rng *r, uint64_t seed, char *err, size_t errlen)
{
	struct npkt *pk = NULL;
	struct plan *c = NULL;
	long n, nc, resync_pkt = -1;
	uint64_t resync_off = 0;
	int rc = 1;
	n = split_packets(v, rec, nrec, &pk, err, errlen);
	if (n < 0)
		return -1;
	nc = candidates(v, pk, n, kind, r, &c);
	if (nc < 0) {
		snprintf(err, errlen, "out of memory");
		free(pk);
		return -1;
	}
	for (long i = nc - 1; i > 0; i--) {   /* shuffle: every usable place equally likely */
		long j = (long)enc_below(r, (unsigned)(i + 1));
		struct plan tmp = c[i];
		c[i] = c[j];
		c[j] = tmp;
	}
	for (long i = 0; i < nc && rc == 1; i++) {
		struct enc_buf l1 = { NULL, 0, 0 }, errs = { NULL, 0, 0 }, note = { NULL, 0, 0 }, tags = { NULL, 0, 0 };
		size_t tlen = 0;
		uint8_t *t = apply(v, &c[i], &tlen);
		if (!t) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		if (truth(pk, n, &c[i], t, tlen, &l1, &errs, &resync_pkt, &resync_off)) {
			free(t);
			free(l1.p);
			free(errs.p);
			continue;
		}
		describe(&note, v, pk, &c[i], seed, resync_pkt, resync_off);
		enc_buf_printf(&tags, "gen neg %s%s", tc_ete_error_name(kind_error[kind]),
			       v->tags && !strncmp(v->tags, "gen", 3) ? v->tags + 3 : "");
		free(v->trace);
		free(v->l1);
		free(v->l3);
		free(v->tags);
		v->trace = t;
		v->trace_len = tlen;
		v->l1 = l1.p;
		v->l3 = NULL;
		v->error = errs.p;
		v->note = note.p;
		v->tags = tags.p;
		rc = 0;
	}
	free(c);
	free(pk);
	return rc;
}

int tc_enc_make_negative(const struct tc_enc_options *o, int kind, struct tc_enc_vector *v, char *err,
			 size_t errlen)
{
	struct enc_rng r;
	memset(v, 0, sizeof *v);
	if (!o || kind < 0 || kind >= tc_enc_neg_count) {
		snprintf(err, errlen, "unknown negative kind %d", kind);
		return -1;
	}
	enc_rng_init(&r, o->seed ^ UINT64_C(0x6e65676174697665), NULL, 0);   /* "negative": a stream of its own */
	if (kind == tc_enc_neg_any)
		kind = 1 + (int)enc_below(&r, tc_enc_neg_count - 1);
	for (unsigned attempt = 0; attempt < 200; attempt++) {
		struct tc_enc_options oo = *o;
		struct enc_rng d;
		struct tc_ete_packet *rec = NULL;
		size_t nrec = 0;
		int rc;
		enc_rng_init(&d, o->seed ^ (uint64_t)attempt << 32, NULL, 0);
		if (attempt)   /* a derived seed, small enough for `tracecert gen --seed` */
			oo.seed = (uint32_t)enc_next(&d);
		if (enc_generate_packets(&oo, v, &rec, &nrec, err, errlen))
			return -1;
		rc = corrupt(v, rec, nrec, kind, &r, oo.seed, err, errlen);
		free(rec);
		if (rc == 0)
			return 0;
		tc_enc_vector_free(v);
		if (rc < 0)
			return -1;
	}
	snprintf(err, errlen, "no place for a %s corruption in the vectors of 200 seeds derived from %llu",
		 kind_names[kind], (unsigned long long)o->seed);
	return -1;
}
