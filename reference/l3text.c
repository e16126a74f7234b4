/* SPDX-License-Identifier: BSD-3-Clause */
/* l3text.c — the one writer and parser of the L3 text (reference/L3FORMAT.md), for every protocol. */
#include <string.h>

#include "tracecert/trace.h"
#include "insn.h"

/* The largest `el` of a context line (L3FORMAT.md): a privilege field of up to 4 bits. */
#define TC_L3_EL_MAX 15

static const char *const kind_names[tc_l3_kind_count] = {
	"range", "exception", "context", "trace-on", "discard", "overflow", "no-image",
	"walk-limit", "timestamp", "cycle-count", "event", "trans-start", "trans-commit",
	"trans-failure", "ts-marker", "instrumentation", "unresolved", "error",
	"exception-return", "trigger", "trace-off"
};

const char *tc_l3_kind_name(int kind)
{
	return (kind >= 0 && kind < tc_l3_kind_count) ? kind_names[kind] : "?";
}

/* ---- Writing: no printf on this path (it is decode's hot path) ------------ */

/* An output buffer that counts what would have been written, like snprintf. */
struct out {
	char *buf;
	size_t size;
	size_t len;
};

/* The ISA names of `range`, `no-image` and `walk-limit` (L3FORMAT.md), for the writer and the parser:
 * every enum tc_isa (the classifiers' own tables, insn.c and rvinsn.c, need not know one another's). */
static const char *const isa_names[tc_isa_count] = { "a64", "a32", "t32", "rv32", "rv64" };

static const char *isa_name(int isa)
{
	return (isa >= 0 && isa < tc_isa_count) ? isa_names[isa] : "?";
}

static void put_char(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_str(struct out *o, const char *s)
{
	while (*s)
		put_char(o, *s++);
}

static void put_dec(struct out *o, uint64_t v)
{
	char d[20];
	int n = 0;
	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n > 0)
		put_char(o, d[--n]);
}

/* 0x…, lower case, no leading zeros (0x0 for zero). */
static void put_hex(struct out *o, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char d[16];
	int n = 0;
	put_str(o, "0x");
	do {
		d[n++] = digits[v & 15];
		v >>= 4;
	} while (v);
	while (n > 0)
		put_char(o, d[--n]);
}

static void put_key_dec(struct out *o, const char *key, uint64_t v)
{
	put_str(o, key);
	put_dec(o, v);
}

static void put_key_hex(struct out *o, const char *key, uint64_t v)
{
	put_str(o, key);
	put_hex(o, v);
}

static void put_count_or_unknown(struct out *o, const char *key, int unknown, uint64_t v)
{
	put_str(o, key);
	if (unknown)
		put_str(o, "unknown");
	else
		put_dec(o, v);
}

static void put_context(struct out *o, const struct tc_context *c)
{
	put_key_dec(o, " el=", c->el);
	put_key_dec(o, " ns=", c->ns);
	put_key_dec(o, " sf=", c->sf);
	put_key_hex(o, " ctxid=", c->context_id);
	put_key_hex(o, " vmid=", c->vmid);
	if (c->nse)   /* FEAT_RME's NSE bit, only when set */
		put_key_dec(o, " nse=", c->nse);
}

/* type, ret, then interrupt=1 only when set and tval= only when traced (L3FORMAT.md). */
static void put_exception(struct out *o, const struct tc_l3 *x)
{
	put_key_hex(o, " type=", x->type);
	if (x->unknown)
		put_str(o, " ret=unknown");
	else
		put_key_hex(o, " ret=", x->address);
	if (x->interrupt)
		put_str(o, " interrupt=1");
	if (x->has_tval)
		put_key_hex(o, " tval=", x->value);
}

static void put_range(struct out *o, const struct tc_l3 *x)
{
	static const char taken[4] = { 'N', 'E', '-', '?' };
	put_key_hex(o, " first=", x->first);
	put_key_hex(o, " last=", x->last);
	put_key_dec(o, " n=", x->count);
	put_str(o, " isa=");
	put_str(o, isa_name(x->isa));
	put_str(o, " type=");
	put_str(o, tc_insn_type_name(x->last_type));
	put_str(o, " taken=");
	put_char(o, taken[x->taken & 3]);
}

static void put_fields(struct out *o, const struct tc_l3 *x, const char *const *error_names, int nerrors)
{
	switch (x->h.kind) {
	case tc_l3_range:
		put_range(o, x);
		break;
	case tc_l3_exception:
		put_exception(o, x);
		break;
	case tc_l3_context:
		put_context(o, &x->ctx);
		break;
	case tc_l3_no_image:
	case tc_l3_walk_limit:
		put_key_hex(o, " addr=", x->address);
		put_str(o, " isa=");
		put_str(o, isa_name(x->isa));
		break;
	case tc_l3_timestamp:
		put_key_hex(o, " ts=", x->value);
		put_count_or_unknown(o, " cc=", x->unknown, x->count);
		break;
	case tc_l3_cycle_count:
		put_count_or_unknown(o, " n=", x->unknown, x->count);
		break;
	case tc_l3_event:
	case tc_l3_unresolved:
		put_key_dec(o, " n=", x->count);
		break;
	case tc_l3_instrumentation:
		put_key_dec(o, " el=", x->ctx.el);
		put_key_hex(o, " value=", x->value);
		break;
	case tc_l3_error:
		put_str(o, " class=");
		put_str(o, x->error < nerrors && error_names ? error_names[x->error] : "?");
		break;
	default:
		break;
	}
}

int tc_l3_format(char *buf, size_t size, const struct tc_l3 *x, const char *const *error_names, int nerrors)
{
	struct out o = { buf, size, 0 };
	put_char(&o, '@');
	put_dec(&o, x->h.offset);
	put_char(&o, ' ');
	put_str(&o, tc_l3_kind_name(x->h.kind));
	put_fields(&o, x, error_names, nerrors);
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

/* ---- Parsing ---------------------------------------------------------------- */

/* A cursor over one line of text. */
struct in {
	const char *p;
	int bad;
};

static int take(struct in *in, const char *s)
{
	size_t n = strlen(s);
	if (in->bad || strncmp(in->p, s, n)) {
		in->bad = 1;
		return 0;
	}
	in->p += n;
	return 1;
}

static uint64_t take_dec(struct in *in)
{
	uint64_t v = 0;
	int digits = 0;
	while (!in->bad && *in->p >= '0' && *in->p <= '9') {
		unsigned d = (unsigned)(*in->p++ - '0');
		if (v > (UINT64_MAX - d) / 10)
			in->bad = 1;
		v = v * 10 + d;
		digits++;
	}
	if (!digits)
		in->bad = 1;
	return v;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static uint64_t take_hex(struct in *in)
{
	uint64_t v = 0;
	int digits = 0, d;
	if (!take(in, "0x"))
		return 0;
	while (!in->bad && (d = hex_digit(*in->p)) >= 0) {
		if (v >> 60)
			in->bad = 1;
		v = v << 4 | (uint64_t)d;
		in->p++;
		digits++;
	}
	if (!digits)
		in->bad = 1;
	return v;
}

/* Takes one of names[0..n-1] followed by a blank or the end; its index, or -1. */
static int take_name(struct in *in, const char *const *names, int n)
{
	size_t len = strcspn(in->p, " ");
	for (int i = 0; !in->bad && i < n; i++) {
		if (names[i] && strlen(names[i]) == len && !strncmp(in->p, names[i], len)) {
			in->p += len;
			return i;
		}
	}
	in->bad = 1;
	return -1;
}

static int take_count_or_unknown(struct in *in, const char *key, uint64_t *v)
{
	take(in, key);
	if (!in->bad && !strncmp(in->p, "unknown", 7)) {
		in->p += 7;
		return 1;
	}
	*v = take_dec(in);
	return 0;
}

static uint8_t take_small(struct in *in, const char *key, unsigned max)
{
	uint64_t v;
	take(in, key);
	v = take_dec(in);
	if (v > max)
		in->bad = 1;
	return (uint8_t)v;
}

static void parse_context(struct in *in, struct tc_context *c)
{
	uint64_t v;
	c->el = take_small(in, " el=", TC_L3_EL_MAX);
	c->ns = take_small(in, " ns=", 1);
	c->sf = take_small(in, " sf=", 1);
	take(in, " ctxid=");
	v = take_hex(in);
	c->context_id = (uint32_t)v;
	in->bad |= v > UINT32_MAX;
	take(in, " vmid=");
	v = take_hex(in);
	c->vmid = (uint32_t)v;
	in->bad |= v > UINT32_MAX;
	if (!in->bad && !strncmp(in->p, " nse=", 5))   /* written only when set */
		c->nse = (uint8_t)take(in, " nse=1");
}

/* The optional fields come in the writer's order, each only in the form it writes: interrupt=1
 * (never =0), tval=0x… (absent: not traced). */
static void parse_exception(struct in *in, struct tc_l3 *x)
{
	uint64_t type;
	take(in, " type=");
	type = take_hex(in);
	x->type = (uint16_t)type;
	in->bad |= type > UINT16_MAX;
	take(in, " ret=");
	if (!in->bad && !strncmp(in->p, "unknown", 7))
		in->p += 7, x->unknown = 1;
	else
		x->address = take_hex(in);
	if (!in->bad && !strncmp(in->p, " interrupt=", 11))
		x->interrupt = (uint8_t)take(in, " interrupt=1");
	if (!in->bad && !strncmp(in->p, " tval=", 6)) {
		take(in, " tval=");
		x->value = take_hex(in);
		x->has_tval = 1;
	}
}

static int isa_index(struct in *in)
{
	return take_name(in, isa_names, tc_isa_count);
}

static void parse_range(struct in *in, struct tc_l3 *x)
{
	static const char *const types[] = { "other", "dir", "indir", "wfx", "isb", "tstart" };
	static const char *const taken[] = { "N", "E", "-", "?" };
	take(in, " first=");
	x->first = take_hex(in);
	take(in, " last=");
	x->last = take_hex(in);
	take(in, " n=");
	x->count = take_dec(in);
	take(in, " isa=");
	x->isa = (uint8_t)isa_index(in);
	take(in, " type=");
	x->last_type = (uint8_t)take_name(in, types, (int)(sizeof types / sizeof types[0]));
	take(in, " taken=");
	x->taken = (uint8_t)take_name(in, taken, 4);
}

static void parse_fields(struct in *in, struct tc_l3 *x, const char *const *error_names, int nerrors)
{
	switch (x->h.kind) {
	case tc_l3_range:
		parse_range(in, x);
		break;
	case tc_l3_exception:
		parse_exception(in, x);
		break;
	case tc_l3_context:
		parse_context(in, &x->ctx);
		break;
	case tc_l3_no_image:
	case tc_l3_walk_limit:
		take(in, " addr=");
		x->address = take_hex(in);
		take(in, " isa=");
		x->isa = (uint8_t)isa_index(in);
		break;
	case tc_l3_timestamp:
		take(in, " ts=");
		x->value = take_hex(in);
		x->unknown = (uint8_t)take_count_or_unknown(in, " cc=", &x->count);
		break;
	case tc_l3_cycle_count:
		x->unknown = (uint8_t)take_count_or_unknown(in, " n=", &x->count);
		break;
	case tc_l3_event:
	case tc_l3_unresolved:
		take(in, " n=");
		x->count = take_dec(in);
		break;
	case tc_l3_instrumentation:
		x->ctx.el = take_small(in, " el=", 3);
		take(in, " value=");
		x->value = take_hex(in);
		break;
	case tc_l3_error:
		take(in, " class=");
		x->error = (uint8_t)take_name(in, error_names, nerrors);
		break;
	default:
		break;
	}
}

int tc_l3_parse(const char *line, struct tc_l3 *x, const char *const *error_names, int nerrors)
{
	struct in in = { line, 0 };
	memset(x, 0, sizeof *x);
	x->h.size = sizeof *x;
	if (*in.p == '@') {
		in.p++;
		x->h.offset = take_dec(&in);
		take(&in, " ");
	}
	x->h.kind = (uint16_t)take_name(&in, kind_names, tc_l3_kind_count);
	parse_fields(&in, x, error_names, nerrors);
	if (!in.bad && *in.p != '\0')
		in.bad = 1;
	return in.bad ? -1 : 0;
}
