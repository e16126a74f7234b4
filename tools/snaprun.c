/* SPDX-License-Identifier: BSD-3-Clause */
/* snaprun.c — decoding a trace snapshot directory: a plan checked whole (configuration from each source's registers, its buffer and trace ID, its core's memory dumps mapped), then one block per source, buffers streamed (through the CoreSight deformatter when formatted). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "snaprun.h"
#include "tracecert/csframe.h"
#include "tracecert/image.h"
#include "tracecert/snapshot.h"

#define CHUNK 65536

/* One trace source of the snapshot and how it will be decoded. */
struct source {
	const struct tc_snap_device *dev;
	const struct tc_snap_buffer *buf;     /* NULL: not decoded (skip says why) */
	const struct tc_snap_device *core;
	struct tc_image *image;               /* the core's memory, NULL without a core */
	const struct tc_protocol *proto;     /* by the device's type */
	void *cfg;                            /* proto->config_size bytes */
	struct tc_config_notes notes;
	int trace_id;                         /* -1: no trace ID register given */
	uint32_t defaulted;                   /* keys neither in the registers nor in --config */
	char unknown[400];                    /* registers the configuration does not use */
	char skip[200];
};

struct plan {
	struct tc_snapshot ss;
	struct source *src;
	int n;
	int decoded;                          /* sources of a protocol of this build */
	struct tc_image *images;              /* one per device (cores only used) */
	const char *cmd;
	const struct tc_max_bytes *max_bytes; /* --max-bytes: most bytes read of a buffer */
	const char *const *over;              /* --config NAME=VALUE */
	int nover;
	char types[200];                      /* the device types this build decodes */
	char err[1200];
};

/* The protocol a trace source's device type names, or NULL. */
static const struct tc_protocol *source_protocol(const struct tc_snap_device *d)
{
	for (int i = 0; tc_protocols[i]; i++)
		for (int t = 0; tc_protocols[i]->snapshot_types && tc_protocols[i]->snapshot_types[t]; t++)
			if (!strcasecmp(d->type, tc_protocols[i]->snapshot_types[t]))
				return tc_protocols[i];
	return NULL;
}

static void append(char *list, size_t size, const char *name)
{
	size_t n = strlen(list);
	snprintf(list + n, size - n, "%s%s", n ? ", " : "", name);
}

/* One register of the source: a configuration register, or another that must still be a number. */
static int source_reg(struct tc_config_builder *b, const struct tc_snap_reg *r, char *err, size_t errlen)
{
	uint64_t v;
	if (tc_config_reg_find(b->proto, r->name) >= 0)
		return tc_config_builder_set(b, r->name, r->value, err, errlen);
	if (tc_snapshot_number(r->value, &v)) {
		snprintf(err, errlen, "register %s: '%s' is not a number (decimal or 0x hex)", r->name, r->value);
		return -2;
	}
	return 0;
}

/* --config NAME=VALUE over a source's configuration: the names its protocol has. */
static int apply_overrides(struct plan *p, struct source *s, struct tc_config_builder *b)
{
	char name[64], err[400];
	for (int i = 0; i < p->nover; i++) {
		const char *eq = strchr(p->over[i], '=');
		snprintf(name, sizeof name, "%.*s", (int)(eq - p->over[i]), p->over[i]);
		if (tc_config_key_find(s->proto, name) < 0 && tc_config_reg_find(s->proto, name) < 0)
			continue;
		if (tc_config_builder_set(b, name, eq + 1, err, sizeof err)) {
			snprintf(p->err, sizeof p->err, "--config %s: %s", p->over[i], err);
			return -1;
		}
	}
	return 0;
}

/* A register the protocol needs in every snapshot (snapshot_required_regs)
 * that neither the device file nor --config gives. */
static int check_required_regs(struct plan *p, const struct source *s, uint32_t given)
{
	uint32_t missing = s->proto->snapshot_required_regs & ~given;
	for (int r = 0; r < s->proto->nregs; r++)
		if ((missing >> r) & 1) {
			snprintf(p->err, sizeof p->err,
				 "%s: %s source '%s' has no register %s, which decoding needs (%s): give it in [regs] or as --config %s=VALUE",
				 s->dev->ini, s->dev->type, s->dev->name, s->proto->regs[r].name, s->proto->regs[r].doc,
				 s->proto->regs[r].name);
			return -1;
		}
	return 0;
}

/* The line of the device file that gives register r, or 0. */
static int reg_line(const struct source *s, int r)
{
	for (int i = 0; r >= 0 && i < s->dev->nregs; i++)
		if (tc_config_reg_find(s->proto, s->dev->reg[i].name) == r)
			return s->dev->reg[i].line;
	return 0;
}

/* The source's registers refused (err): FILE:LINE of the register refused. */
static void refused(struct plan *p, const struct source *s, const struct tc_config_builder *b, const char *err)
{
	int line = reg_line(s, tc_config_builder_refused_reg(b));
	if (line)
		snprintf(p->err, sizeof p->err, "%s:%d: source %s: %s", s->dev->ini, line, s->dev->name, err);
	else
		snprintf(p->err, sizeof p->err, "%s: source %s: %s", s->dev->ini, s->dev->name, err);
}

/* The configuration from the source's registers, then --config. */
static int configure(struct plan *p, struct source *s)
{
	struct tc_config_builder b, o;
	char err[400];
	tc_config_builder_init(&b, s->proto);
	tc_config_builder_init(&o, s->proto);
	for (int i = 0; i < s->dev->nregs; i++) {
		const struct tc_snap_reg *r = &s->dev->reg[i];
		if (source_reg(&b, r, err, sizeof err)) {
			snprintf(p->err, sizeof p->err, "%s:%d: %s", s->dev->ini, r->line, err);
			return -1;
		}
		if (tc_config_reg_find(s->proto, r->name) < 0)
			append(s->unknown, sizeof s->unknown, r->name);
	}
	s->trace_id = s->proto->trace_id_reg >= 0 && ((b.reg_given >> s->proto->trace_id_reg) & 1) ?
		      (int)(b.reg[s->proto->trace_id_reg] & 0x7f) : -1;
	s->cfg = malloc(s->proto->config_size);
	if (!s->cfg || apply_overrides(p, s, &o))
		return -1;
	if (tc_snapshot_source_buffer(&p->ss, s->dev->name) && check_required_regs(p, s, b.reg_given | o.reg_given))
		return -1;                      /* a source without a buffer is not decoded: it needs none */
	tc_config_default(s->proto, s->cfg);
	if (tc_config_builder_apply(&b, s->cfg, &s->notes, err, sizeof err)) {
		refused(p, s, &b, err);
		return -1;
	}
	if (tc_config_builder_apply(&o, s->cfg, NULL, err, sizeof err)) {
		snprintf(p->err, sizeof p->err, "--config over source %s (%s): %s", s->dev->name, s->dev->ini, err);
		return -1;
	}
	s->defaulted = ~(tc_config_builder_covered(&b) | tc_config_builder_covered(&o));
	return 0;
}

/* Maps every dump of a core once. */
static struct tc_image *core_image(struct plan *p, const struct tc_snap_device *core)
{
	struct tc_image *img = &p->images[core - p->ss.device];
	if (img->n || !core->ndumps)
		return img;
	for (int i = 0; i < core->ndumps; i++) {
		const struct tc_snap_dump *d = &core->dump[i];
		char name[700], err[1000];
		snprintf(name, sizeof name, "%s:%d [%s] %s", core->ini, d->line, d->section, d->file);
		if (d->has_length ? tc_image_map_file_range(img, d->file, d->offset, d->length, d->address, name, err, sizeof err)
				  : tc_image_map_file(img, d->file, d->offset, TC_IMAGE_TO_END, d->address, name, err, sizeof err)) {
			snprintf(p->err, sizeof p->err, "%s", err);
			return NULL;
		}
	}
	return img;
}

static int plan_source(struct plan *p, struct source *s)
{
	if (configure(p, s))
		return -1;
	s->buf = tc_snapshot_source_buffer(&p->ss, s->dev->name);
	if (!s->buf) {
		snprintf(s->skip, sizeof s->skip, "no buffer ([source_buffers] has no entry for it)");
		return 0;
	}
	if (s->buf->coresight && (s->trace_id <= 0 || s->trace_id >= 0x70)) {
		const char *reg = s->proto->trace_id_reg >= 0 ? s->proto->regs[s->proto->trace_id_reg].name : "trace ID register";
		if (s->trace_id < 0)
			snprintf(p->err, sizeof p->err, "%s: %s source '%s' is in the CoreSight formatted buffer '%s' but has no %s to select its bytes",
				 s->dev->ini, s->dev->type, s->dev->name, s->buf->name, reg);
		else
			snprintf(p->err, sizeof p->err, "%s: %s source '%s': %s.TRACEID 0x%02x is reserved (0x00, 0x70-0x7F), it cannot select bytes in buffer '%s'",
				 s->dev->ini, s->dev->type, s->dev->name, reg, (unsigned)s->trace_id, s->buf->name);
		return -1;
	}
	s->core = tc_snapshot_source_core(&p->ss, s->dev->name);
	if (s->core && !(s->image = core_image(p, s->core)))
		return -1;
	return 0;
}

/* The message for a --config name no decoded source's protocol has: the
 * protocol that has it, if any, and the protocols of the sources. */
static void unused_override(struct plan *p, const char *over, const char *name)
{
	const struct tc_protocol *owner = tc_config_owner(NULL, name);
	char list[200] = "";
	size_t len = 0;
	for (int j = 0; j < p->n; j++) {
		const struct tc_protocol *q = p->src[j].proto;
		int seen = 0;
		for (int k = 0; k < j && q; k++)
			seen |= p->src[k].proto == q;
		if (q && !seen && len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "", q->name);
	}
	if (owner)
		snprintf(p->err, sizeof p->err,
			 "--config %s: '%s' is a config key or register of protocol %s, which no trace source of the snapshot uses (their protocols: %s)",
			 over, name, owner->name, list);
	else
		snprintf(p->err, sizeof p->err, "--config %s: no protocol has a key or register '%s' (the snapshot's sources: %s)",
			 over, name, list);
}

/* Every --config name belongs to the protocol of some source the snapshot decodes. */
static int check_overrides(struct plan *p)
{
	char name[64];
	for (int i = 0; i < p->nover; i++) {
		const char *eq = strchr(p->over[i], '=');
		int used = 0;
		snprintf(name, sizeof name, "%.*s", (int)(eq - p->over[i]), p->over[i]);
		for (int j = 0; j < p->n; j++)
			used |= p->src[j].proto && (tc_config_key_find(p->src[j].proto, name) >= 0 ||
						    tc_config_reg_find(p->src[j].proto, name) >= 0);
		if (!used) {
			unused_override(p, p->over[i], name);
			return -1;
		}
	}
	return 0;
}

/* Two sources decoded from one CoreSight formatted buffer need different trace IDs. */
static int check_trace_ids(struct plan *p)
{
	for (int i = 0; i < p->n; i++)
		for (int j = 0; j < i; j++) {
			const struct source *a = &p->src[j], *b = &p->src[i];
			if (!a->buf || a->buf != b->buf || !a->buf->coresight || a->trace_id != b->trace_id)
				continue;
			snprintf(p->err, sizeof p->err,
				 "%s: %s source '%s' has trace ID 0x%02x, as source '%s' (%s) in the same CoreSight formatted buffer '%s': their bytes cannot be told apart",
				 b->dev->ini, b->dev->type, b->dev->name, (unsigned)b->trace_id, a->dev->name, a->dev->ini, a->buf->name);
			return -1;
		}
	return 0;
}

/* At least one source is decoded: a snapshot whose sources of this build's
 * protocols have no buffer has nothing to decode. */
static int check_something_decoded(struct plan *p)
{
	char names[300] = "";
	for (int i = 0; i < p->n; i++) {
		if (p->src[i].proto && p->src[i].buf)
			return 0;
		if (p->src[i].proto)
			append(names, sizeof names, p->src[i].dev->name);
	}
	snprintf(p->err, sizeof p->err,
		 "%s: nothing to decode: [source_buffers] links no trace source of a protocol of this build to a buffer (%s)",
		 p->ss.trace_ini, names);
	return -1;
}

/* Each buffer a source is decoded from, before any output: it can be
 * read (tc_snapshot_load opened it) and, a regular file, is no larger than
 * --max-bytes allows. */
static int check_buffers(struct plan *p)
{
	for (int i = 0; i < p->n; i++) {
		const struct source *s = &p->src[i];
		unsigned long long limit;
		struct stat st;
		if (!s->buf)
			continue;
		if (stat(s->buf->file, &st)) {
			snprintf(p->err, sizeof p->err, "cannot read '%s': %s", s->buf->file, strerror(errno));
			return -1;
		}
		limit = tc_max_bytes_for(p->max_bytes, S_ISREG(st.st_mode));
		if (S_ISREG(st.st_mode) && limit && (unsigned long long)st.st_size > limit) {
			tc_max_bytes_message(p->err, sizeof p->err, s->buf->file, limit, (unsigned long long)st.st_size);
			return -1;
		}
	}
	return 0;
}

/* Reads and checks everything before any output. */
static int make_plan(struct plan *p, const char *dir)
{
	if (tc_snapshot_load(dir, &p->ss, p->err, sizeof p->err))
		return -1;
	p->src = calloc((size_t)p->ss.ndevices + 1, sizeof *p->src);
	p->images = calloc((size_t)p->ss.ndevices + 1, sizeof *p->images);
	if (!p->src || !p->images) {
		snprintf(p->err, sizeof p->err, "out of memory");
		return -1;
	}
	for (int i = 0; i < p->ss.ndevices; i++) {
		const struct tc_snap_device *d = &p->ss.device[i];
		struct source *s = &p->src[p->n];
		if (strcasecmp(d->class_, "trace_source"))
			continue;
		s->dev = d;
		s->proto = source_protocol(d);
		p->n++;
		if (!s->proto)
			snprintf(s->skip, sizeof s->skip, "type %s", d->type);
		else
			p->decoded++;
	}
	if (!p->decoded) {
		snprintf(p->err, sizeof p->err, "%s: no trace source of a protocol this build decodes (types: %s)", dir,
			 p->types);
		return -1;
	}
	if (check_overrides(p))
		return -1;
	for (int i = 0; i < p->n; i++)
		if (p->src[i].proto && plan_source(p, &p->src[i]))
			return -1;
	if (check_something_decoded(p) || check_trace_ids(p) || check_buffers(p))
		return -1;
	for (int i = 0; i < p->ss.ndevices; i++)   /* every dump is checked, used or not */
		if (!core_image(p, &p->ss.device[i]))
			return -1;
	return 0;
}

static void free_plan(struct plan *p)
{
	for (int i = 0; p->images && i < p->ss.ndevices; i++)
		tc_image_free(&p->images[i]);
	for (int i = 0; p->src && i < p->n; i++)
		free(p->src[i].cfg);
	free(p->images);
	free(p->src);
	tc_snapshot_free(&p->ss);
}

/* ---- Decoding ------------------------------------------------------------------------ */

struct feed {
	const struct tc_protocol *proto;
	void *d;
	unsigned id;
	unsigned long frame_errors;
};

static void on_data(void *ctx, unsigned id, const uint8_t *bytes, size_t len)
{
	struct feed *f = ctx;
	if (id == f->id)
		f->proto->feed(f->d, bytes, len);
}

static void on_frame_error(void *ctx, uint64_t offset, const char *msg)
{
	struct feed *f = ctx;
	f->frame_errors++;
	printf("# buffer error @%llu: %s\n", (unsigned long long)offset, msg);
}

/* Streams the source's buffer into the decoder, at most its --max-bytes
 * bound (tc_max_bytes_for); 0, or -1 on a read error or past the limit (reported). */
static int stream_buffer(const struct plan *p, const struct source *s, struct feed *f, struct tc_csframe *cs)
{
	uint8_t *buf = malloc(CHUNK);
	FILE *in = buf ? fopen(s->buf->file, "rb") : NULL;
	unsigned long long total = 0, limit;
	struct stat st;
	size_t n;
	int rc = 0;
	if (!in || fstat(fileno(in), &st)) {
		fprintf(stderr, "tracecert %s: cannot read '%s': %s\n", p->cmd, s->buf->file,
			buf ? strerror(errno) : "out of memory");
		if (in)
			fclose(in);
		free(buf);
		return -1;
	}
	limit = tc_max_bytes_for(p->max_bytes, S_ISREG(st.st_mode));
	while (rc == 0 && (n = fread(buf, 1, CHUNK, in)) > 0) {
		total += n;
		if (limit && total > limit) {
			tc_max_bytes_report(p->cmd, s->buf->file, limit, 0);
			rc = -1;
		} else if (s->buf->coresight) {
			tc_csframe_feed(cs, buf, n);
		} else {
			f->proto->feed(f->d, buf, n);
		}
	}
	if (rc == 0 && ferror(in)) {
		fprintf(stderr, "tracecert %s: cannot read '%s': %s\n", p->cmd, s->buf->file, strerror(errno));
		rc = -1;
	}
	fclose(in);
	free(buf);
	if (rc)
		return -1;
	if (s->buf->coresight)
		tc_csframe_finish(cs);
	return 0;
}

static void print_header(const struct source *s)
{
	char keys[300] = "";
	printf("# source %s (%s): buffer %s (%s", s->dev->name, s->dev->type, s->buf->name,
	       s->buf->coresight ? "coresight" : "source_data");
	if (s->trace_id >= 0)
		printf(", trace ID 0x%02x", (unsigned)s->trace_id);
	printf("), core %s\n", s->core ? s->core->name : "none (no memory image)");
	tc_cli_print_notes(stdout, &s->notes);
	if (s->unknown[0])
		printf("# registers not used for the configuration: %s\n", s->unknown);
	for (int k = 0; k < s->proto->nkeys; k++)
		if (((s->defaulted >> k) & 1) && s->proto->keys[k].need != tc_key_optional)
			append(keys, sizeof keys, s->proto->keys[k].name);
	if (keys[0])
		printf("# keys no register or --config gave (defaults): %s\n", keys);
}

static int decode_source(const struct plan *p, const struct source *s, struct tc_printer *out)
{
	struct tc_sink sink;
	struct feed f = { s->proto, NULL, (unsigned)s->trace_id, 0 };
	char err[300];
	struct tc_csframe_sink cs_sink = { &f, on_data, on_frame_error };
	struct tc_csframe cs;
	int rc;
	print_header(s);
	out->proto = s->proto;
	tc_printer_sink(out, &sink);
	f.d = s->proto->alloc(s->cfg, &sink);
	if (!f.d) {
		if (s->proto->config_check(s->cfg, err, sizeof err) == 0)
			snprintf(err, sizeof err, "out of memory");
		fprintf(stderr, "tracecert %s: source %s: %s\n", p->cmd, s->dev->name, err);
		return 2;
	}
	s->proto->set_image(f.d, s->image);
	tc_csframe_init(&cs, &cs_sink);
	rc = stream_buffer(p, s, &f, &cs);
	s->proto->finish(f.d);
	if (s->proto->skipped(f.d))
		printf("# skipped %llu bytes outside A-sync\n", (unsigned long long)s->proto->skipped(f.d));
	if (s->buf->coresight && !tc_csframe_seen(&cs, f.id))
		printf("# trace ID 0x%02x never occurs in buffer %s\n", f.id, s->buf->name);
	s->proto->free(f.d);
	out->errors += f.frame_errors;
	return rc ? 2 : 0;
}

int tc_snapshot_run(const char *dir, const char *cmd, const char *const *overrides, int noverrides,
		    const struct tc_max_bytes *max_bytes, struct tc_printer *out)
{
	struct plan p;
	int rc = 0;
	memset(&p, 0, sizeof p);
	p.cmd = cmd;
	p.max_bytes = max_bytes;
	p.over = overrides;
	p.nover = noverrides;
	for (int i = 0; tc_protocols[i]; i++)
		for (int t = 0; tc_protocols[i]->snapshot_types && tc_protocols[i]->snapshot_types[t]; t++)
			append(p.types, sizeof p.types, tc_protocols[i]->snapshot_types[t]);
	if (make_plan(&p, dir)) {
		fprintf(stderr, "tracecert %s: %s\n", cmd, p.err);
		free_plan(&p);
		return 2;
	}
	for (int i = 0; i < p.n && rc != 2; i++) {
		const struct source *s = &p.src[i];
		if (s->skip[0])
			printf("# source %s: not decoded: %s\n", s->dev->name, s->skip);
		else
			rc = decode_source(&p, s, out);
	}
	free_plan(&p);
	return rc ? rc : out->errors ? 1 : 0;
}
