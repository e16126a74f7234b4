/* SPDX-License-Identifier: BSD-3-Clause */
/* cyclecap.c — the per-cycle sample file reader (the "Sample file" of the per-cycle protocols' FORMAT.md: the
 * header, the records, the gap record; ERRATA ETMC-F1, F3, F4, F5). */
#include <string.h>

#include "cyclecap.h"

void tc_cyclecap_init(struct tc_cyclecap *c, const struct tc_cyclecap_params *p)
{
	memset(c, 0, sizeof *c);
	c->params = *p;
}

/* ETMC-F5: every header byte FORMAT.md "Header" allows; 1 when the header is good. */
static int header_valid(const struct tc_cyclecap *c, const uint8_t *b)
{
	if (memcmp(b, "ETMC", 4) != 0 || b[4] != 1 || b[5] != c->params.major || b[6] > c->params.max_minor)
		return 0;
	if (b[7] != 4 && b[7] != 8 && b[7] != 16)
		return 0;
	if (b[8] > 2 || b[9] > 1 || (b[10] & 0xfe) != 0)
		return 0;
	for (int i = 11; i < TC_CYCLECAP_HEADER; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/* FORMAT.md "Records": 2 bytes a record for a 4- or 8-bit port, 3 for a 16-bit port. */
static size_t record_size_of(uint8_t port_width)
{
	return port_width == 16 ? 3 : 2;
}

static void header_take(struct tc_cyclecap *c)
{
	const uint8_t *b = c->buf;
	c->header = (struct tc_cyclecap_header){ b[4], b[5], b[6], b[7], b[8], b[9], b[10] };
	c->record_size = record_size_of(b[7]);
	c->header_ok = 1;
	c->offset = TC_CYCLECAP_HEADER;
	c->have = 0;
}

/* ETMC-F4, F5: the gap record and the bits a record may not have. 1 when the record is good. */
static int record_decode(const struct tc_cyclecap *c, const uint8_t *b, struct tc_cyclecap_record *r)
{
	uint8_t st = b[0];
	uint16_t pkt = (uint16_t)(b[1] | (c->record_size == 3 ? b[2] << 8 : 0));
	memset(r, 0, sizeof *r);
	r->offset = c->offset;
	if (st == 0x80) {
		r->gap = 1;
		return pkt == 0;
	}
	if ((st & 0xe0) != 0 || (c->params.status_bits == 3 && (st & 0x08)) || (!c->params.has_sync && (st & 0x10)))
		return 0;
	if (c->header.port_width == 4 && (pkt & 0xf0) != 0)
		return 0;
	r->status = st & 0x0f;
	r->sync = (st >> 4) & 1;
	r->pkt = pkt;
	return 1;
}

int tc_cyclecap_next(struct tc_cyclecap *c, const uint8_t **data, size_t *len, struct tc_cyclecap_record *r,
		     int *err, uint64_t *err_offset)
{
	while (*len > 0) {
		if (c->dead) {
			*data += *len;
			*len = 0;
			return 0;
		}
		size_t want = c->header_ok ? c->record_size : TC_CYCLECAP_HEADER;
		size_t n = want - c->have < *len ? want - c->have : *len;
		memcpy(c->buf + c->have, *data, n);
		c->have += n;
		*data += n;
		*len -= n;
		if (c->have < want)
			return 0;
		if (!c->header_ok) {
			if (!header_valid(c, c->buf)) {
				c->dead = 1;
				*err = tc_cyclecap_bad_header;
				*err_offset = 0;
				return -1;
			}
			header_take(c);
			continue;
		}
		int good = record_decode(c, c->buf, r);
		c->offset += c->record_size;
		c->have = 0;
		if (good)
			return 1;
		*err = tc_cyclecap_bad_record;
		*err_offset = r->offset;
		return -1;
	}
	return 0;
}

int tc_cyclecap_finish(struct tc_cyclecap *c, int *err, uint64_t *err_offset)
{
	if (c->dead)
		return 0;
	if (!c->header_ok) {
		*err = tc_cyclecap_bad_header;
		*err_offset = 0;
		c->dead = 1;
		return -1;
	}
	if (c->have > 0) {
		*err = tc_cyclecap_truncated;
		*err_offset = c->offset;
		c->have = 0;
		return -1;
	}
	return 0;
}

/* ---- The driver ------------------------------------------------------------------ */

static void drive_fatal(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv)
{
	c->dead = 1;
	drv->bad_header(drv->ctx);
}

int tc_cyclecap_drive(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv, const uint8_t *data, size_t len)
{
	if (c->finished)
		return -1;
	while (len > 0 && !c->dead) {
		struct tc_cyclecap_record rec;
		int err;
		uint64_t off;
		int k = tc_cyclecap_next(c, &data, &len, &rec, &err, &off);
		if (c->header_ok && !c->header_checked) {
			c->header_checked = 1;
			if (!drv->header_agrees(drv->ctx, &c->header)) {
				drive_fatal(c, drv);
				break;
			}
		}
		if (k == 1)
			drv->record(drv->ctx, &rec);
		else if (k < 0 && err == tc_cyclecap_bad_header)
			drive_fatal(c, drv);
		else if (k < 0)
			drv->record_error(drv->ctx, err, off);
	}
	return 0;
}

int tc_cyclecap_drive_finish(struct tc_cyclecap *c, const struct tc_cyclecap_driver *drv)
{
	if (c->finished)
		return -1;
	c->finished = 1;
	if (c->dead)
		return 0;
	if (!c->header_ok && c->have == 0)
		return 0;   /* ETMC-F9: no byte at all: no item */
	int err;
	uint64_t off;
	int cut = tc_cyclecap_finish(c, &err, &off);
	if (cut < 0 && err == tc_cyclecap_bad_header) {
		drv->bad_header(drv->ctx);
		return 0;
	}
	int gave = drv->end_checks ? drv->end_checks(drv->ctx) : 0;
	if (!gave && cut < 0)
		drv->record_error(drv->ctx, err, off);
	return 0;
}

long long tc_cyclecap_record_count(const uint8_t *file, size_t len)
{
	if (len < TC_CYCLECAP_HEADER || memcmp(file, "ETMC", 4) != 0 || (file[7] != 4 && file[7] != 8 && file[7] != 16))
		return -1;
	return (long long)((len - TC_CYCLECAP_HEADER) / record_size_of(file[7]));
}
