/* SPDX-License-Identifier: BSD-3-Clause */
/* asmtext.c — the assembler of `tracecert asm` (tools/asm.c) and of the asm fuzz harness: L1 packet text
 * (as `dump` prints it; a per-cycle protocol's with `dump --cycles`'s cycle lines) into trace bytes,
 * through the protocol's L1 parser (tc_protocol.parse_l1), the cycle lines' parser
 * (reference/cyclecap.c) and the encoder's packet writers (tc_encoder.asm_*) or, for a per-cycle
 * protocol whose encoder has none, the sample file's own writer. Names no protocol. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyclecap.h"
#include "tracecert/asmtext.h"

#define ASM_PACKET_MAX 4096

/* The lines of the text, each with its line number: an L1 item, or (a per-cycle protocol) a cycle
 * line, the header or one record of the sample file (reference/cyclecap.h). */
struct asm_items {
	unsigned char *rec;       /* n records of proto->l1_size bytes */
	struct tc_cyclecap_line *cycle;   /* n entries: cycle[i] is line i's when is_cycle[i] */
	unsigned char *is_cycle;
	unsigned *line;
	size_t n, cap;
};

/* How the bytes are written: the encoder's assembler, or for a per-cycle protocol whose encoder has
 * none (ETMv2's) the sample file's own writer (reference/cyclecap.c). */
struct asm_writer {
	const struct tc_encoder *enc;
	void *w;
	struct tc_cyclecap_writer file;
	uint64_t *starts;         /* per-cycle: the offsets of the cycle lines written, ascending */
	size_t nstarts, capstarts;
};

/* Whether a cycle line written so far starts at off. */
static int line_started(const struct asm_writer *aw, uint64_t off)
{
	size_t lo = 0, hi = aw->nstarts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (aw->starts[mid] == off)
			return 1;
		if (aw->starts[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int line_start_add(struct asm_writer *aw, uint64_t off)
{
	if (aw->nstarts == aw->capstarts) {
		size_t cap = aw->capstarts ? 2 * aw->capstarts : 256;
		uint64_t *p = realloc(aw->starts, cap * sizeof *p);
		if (!p)
			return -1;
		aw->starts = p;
		aw->capstarts = cap;
	}
	aw->starts[aw->nstarts++] = off;
	return 0;
}

/* The line without its comment and trailing blanks (in place); its columns stay those of the file. */
static void strip_line(char *s)
{
	size_t n;
	char *hash = strchr(s, '#');
	if (hash)
		*hash = 0;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
}

static int items_grow(struct asm_items *it, size_t size)
{
	size_t cap = it->cap ? it->cap * 2 : 256;
	unsigned char *rec = realloc(it->rec, cap * size);
	struct tc_cyclecap_line *cycle;
	unsigned char *is_cycle;
	unsigned *lines;
	if (!rec)
		return -1;
	it->rec = rec;
	cycle = realloc(it->cycle, cap * sizeof *cycle);
	if (!cycle)
		return -1;
	it->cycle = cycle;
	is_cycle = realloc(it->is_cycle, cap);
	if (!is_cycle)
		return -1;
	it->is_cycle = is_cycle;
	lines = realloc(it->line, cap * sizeof *lines);
	if (!lines)
		return -1;
	it->line = lines;
	it->cap = cap;
	return 0;
}

static void *items_add(struct asm_items *it, size_t size, unsigned line)
{
	if (it->n == it->cap && items_grow(it, size))
		return NULL;
	it->line[it->n] = line;
	it->is_cycle[it->n] = 0;
	memset(&it->cycle[it->n], 0, sizeof it->cycle[it->n]);
	memset(it->rec + it->n * size, 0, size);
	return it->rec + it->n++ * size;
}

/* One line into the item just added: a cycle line (a per-cycle protocol) or an L1 item; 0, or -1
 * with err. */
static int parse_line(const struct tc_protocol *p, struct asm_items *it, const char *s, void *rec, char *err,
		      size_t errlen)
{
	if (p->sample) {
		int k = tc_cyclecap_parse_line(s, &it->cycle[it->n - 1], err, errlen);
		if (k <= 0) {
			it->is_cycle[it->n - 1] = k == 0;
			return k;
		}
	}
	return p->parse_l1(s, rec, err, errlen);
}

/* Every line of text into items; 0, or -1 with the message (and its line in *msg_line). */
static int read_items(const struct tc_protocol *p, const char *text, size_t len, struct asm_items *it,
		      unsigned *msg_line, char *msg, size_t msglen)
{
	char *buf = malloc(len + 1);
	unsigned line = 0;
	size_t at = 0;
	if (!buf)
		return snprintf(msg, msglen, "out of memory"), -1;
	while (at < len) {
		size_t end = at;
		void *rec;
		while (end < len && text[end] != '\n')
			end++;
		memcpy(buf, text + at, end - at);
		buf[end - at] = 0;
		line++;
		if (strlen(buf) < end - at) {   /* no line of dump's text holds one: refused, not read as the line's end */
			snprintf(msg, msglen, "column %zu: a NUL byte", strlen(buf) + 1);
			*msg_line = line;
			free(buf);
			return -1;
		}
		at = end + 1;
		strip_line(buf);
		if (!buf[0])
			continue;
		rec = items_add(it, p->l1_size, line);
		*msg_line = line;
		if (!rec) {
			snprintf(msg, msglen, "out of memory");
			*msg_line = 0;
			free(buf);
			return -1;
		}
		if (parse_line(p, it, buf, rec, msg, msglen)) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

/* Whether item i is a packet; 0, or -1 after a message. */
static int check_packet(const struct tc_protocol *p, const struct asm_items *it, size_t i, char *msg, size_t msglen)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	if (p->item_error(tc_level_l1, item) || p->item_is_warning(tc_level_l1, item)) {
		snprintf(msg, msglen, "an %s item is no packet: its bytes are not in the text (asm writes packets only)",
			 p->item_error(tc_level_l1, item) ? "error" : "warning");
		return -1;
	}
	return 0;
}

/* Whether line i stands where it must: a packet or a cycle line where the bytes written so far
 * end; a per-cycle protocol's L1 item on a record written before it. 0, or -1 after a message. */
static int check_offset(const struct tc_protocol *p, const struct asm_writer *aw, const struct asm_items *it,
			size_t i, uint64_t end, char *msg, size_t msglen)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	uint64_t off = it->is_cycle[i] ? it->cycle[i].r.offset : item->offset;
	if (p->sample && !it->is_cycle[i]) {
		if (line_started(aw, off))
			return 0;
		snprintf(msg, msglen, "the item is at byte offset %llu, where no line before it starts "
			 "(a per-cycle protocol's items stand on their records' lines)", (unsigned long long)off);
		return -1;
	}
	if (off != end) {
		snprintf(msg, msglen, "the %s is at byte offset %llu, but the %s before end at %llu%s",
			 p->sample ? "line" : "packet", (unsigned long long)off, p->sample ? "records" : "packets",
			 (unsigned long long)end,
			 off > end && !p->sample ? ": the bytes between are no packets (asm writes packets only)" : "");
		return -1;
	}
	return 0;
}

/* The writer for cfg: the encoder's assembler, or a per-cycle protocol's sample file writer (a
 * protocol whose encoder has no assembler, ETMv2); 0, or -1 after a message. */
static int writer_open(const struct tc_protocol *p, const struct tc_encoder *enc, const void *cfg,
		       struct asm_writer *aw, char *msg, size_t msglen)
{
	memset(aw, 0, sizeof *aw);
	aw->enc = enc;
	if (enc) {
		aw->w = enc->asm_open(cfg);
		if (!aw->w)
			return snprintf(msg, msglen, "the configuration has no assembler"), -1;
	} else if (!p->sample) {
		return snprintf(msg, msglen, "protocol '%s' has no assembler", p->name), -1;
	} else {
		const struct tc_sample_format *f = p->sample;
		struct tc_cyclecap_params params = { f->major, f->max_minor, f->status_bits, f->has_sync };
		tc_cyclecap_writer_init(&aw->file, &params);
	}
	return 0;
}

static void writer_close(struct asm_writer *aw)
{
	free(aw->starts);
	if (aw->enc && aw->enc->asm_close && aw->w)
		aw->enc->asm_close(aw->w);
}

/* The bytes of line i (len: the distance to the next line's offset, 0 for the last). */
static long write_line(struct asm_writer *aw, const struct tc_protocol *p, const struct asm_items *it, size_t i,
		       size_t len, uint8_t *out, size_t cap, char *err, size_t errlen)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	long got;
	if (!it->is_cycle[i])
		return aw->enc ? aw->enc->asm_write(aw->w, item, len, out, cap, err, errlen) : 0;
	if (aw->enc && aw->enc->asm_cycle)
		got = aw->enc->asm_cycle(aw->w, &it->cycle[i], out, cap, err, errlen);
	else if (aw->enc)
		return snprintf(err, errlen, "the encoder writes no cycle lines"), -1;
	else
		got = tc_cyclecap_writer_line(&aw->file, &it->cycle[i], out, cap, err, errlen);
	if (got > 0 && line_start_add(aw, it->cycle[i].r.offset))
		return snprintf(err, errlen, "out of memory"), -1;
	return got;
}

/* The distance from line i's offset to the next line's of its kind (packets; 0 for the last). */
static size_t next_distance(const struct tc_protocol *p, const struct asm_items *it, size_t i)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	const struct tc_item *next = i + 1 < it->n ? (const void *)(it->rec + (i + 1) * p->l1_size) : NULL;
	if (p->sample)
		return 0;
	return next && next->offset > item->offset ? (size_t)(next->offset - item->offset) : 0;
}

int tc_asm_text(const struct tc_protocol *p, const struct tc_encoder *enc, const void *cfg, const char *text,
		size_t len, uint8_t **out, size_t *outlen, unsigned *msg_line, char *msg, size_t msglen)
{
	struct asm_items it;
	struct asm_writer aw;
	unsigned char *bytes = NULL;
	size_t n = 0, cap = ASM_PACKET_MAX;
	int rc;
	memset(&it, 0, sizeof it);
	*msg_line = 0;
	*out = NULL;
	*outlen = 0;
	rc = read_items(p, text, len, &it, msg_line, msg, msglen);
	if (rc == 0) {
		*msg_line = 0;
		rc = writer_open(p, enc, cfg, &aw, msg, msglen);
		if (rc == 0) {
			bytes = malloc(cap);
			if (!bytes) {
				snprintf(msg, msglen, "out of memory");
				rc = -1;
			}
			for (size_t i = 0; rc == 0 && i < it.n; i++) {
				size_t l = next_distance(p, &it, i);
				long got;
				*msg_line = it.line[i];
				if ((!it.is_cycle[i] && !p->sample && check_packet(p, &it, i, msg, msglen)) ||
				    check_offset(p, &aw, &it, i, n, msg, msglen)) {
					rc = -1;
					break;
				}
				if (l >= ASM_PACKET_MAX) {   /* no packet of any protocol is that long */
					snprintf(msg, msglen, "no packet is %zu bytes long (the distance to the next item's offset)", l);
					rc = -1;
					break;
				}
				if (cap - n < ASM_PACKET_MAX) {
					size_t c2 = cap * 2;
					unsigned char *b2 = realloc(bytes, c2);
					if (!b2) {
						*msg_line = 0;
						snprintf(msg, msglen, "out of memory");
						rc = -1;
						break;
					}
					bytes = b2, cap = c2;
				}
				got = write_line(&aw, p, &it, i, l, bytes + n, cap - n, msg, msglen);
				if (got < 0)
					rc = -1;
				else
					n += (size_t)got;
			}
			writer_close(&aw);
		}
	}
	free(it.rec);
	free(it.cycle);
	free(it.is_cycle);
	free(it.line);
	if (rc) {
		free(bytes);
		return -1;
	}
	*msg_line = 0;
	*out = bytes;
	*outlen = n;
	return 0;
}
