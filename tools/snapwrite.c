/* SPDX-License-Identifier: BSD-3-Clause */
/* snapwrite.c — generated vectors of any protocol written as a trace snapshot directory: snapshot.ini, per vector a core .ini with memory dumps and a trace source .ini with registers, trace.ini and the buffers (test data for the snapshot reader). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "snapwrite.h"
#include "tracecert/protocol.h"

/* One generated vector as a snapshot holds it: its protocol and names. */
struct source {
	const struct tc_enc_result *v;
	const struct tc_protocol *proto;
	char name[32];          /* the trace source device: upper-case protocol name, '_', index (P_1) */
	char ini[40];           /* its device file: protocol name, '_', index (p_1.ini) */
	unsigned trace_id;      /* 0x10 + index */
};

/* The files go to dir, the folder built beside the snapshot's place
 * (conformance/outfile.h: swapped in when every file is written). */
struct writer {
	const char *dir;
	char *err;
	size_t errlen;
	struct source src[16];
	int n;
	int coresight;
};

static int fail(struct writer *w, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->err, w->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* A text file of the snapshot, built in memory: its stream, or NULL. */
static FILE *create(struct writer *w, struct tc_out_text *t)
{
	if (tc_out_text_open(t) == 0)
		return t->f;
	fail(w, "cannot write the snapshot: out of memory");
	return NULL;
}

/* Writes the text to DIR/name (outfile.h: every write checked). */
static int done(struct writer *w, struct tc_out_text *t, const char *name)
{
	char path[4096];
	int rc;
	if (tc_out_text_close(t))
		return fail(w, "cannot write '%s/%s': out of memory", w->dir, name);
	snprintf(path, sizeof path, "%s/%s", w->dir, name);
	rc = tc_out_save(path, t->buf, t->len, 0, w->err, w->errlen);
	tc_out_text_free(t);
	return rc;
}

static int write_bytes(struct writer *w, const char *name, const uint8_t *p, size_t n)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", w->dir, name);
	return tc_out_save(path, p, n, 0, w->err, w->errlen);
}

static int write_snapshot_ini(struct writer *w, const uint64_t *seeds)
{
	struct tc_out_text t;
	FILE *f = create(w, &t);
	if (!f)
		return -1;
	fprintf(f, "; written by tracecert gen --snapshot-out\n[snapshot]\nversion=1.0\ndescription=tracecert gen, seeds");
	for (int i = 0; i < w->n; i++)
		fprintf(f, " %llu (%s)", (unsigned long long)seeds[i], w->src[i].proto->name);
	fprintf(f, "\n\n[device_list]\n");
	for (int i = 0; i < w->n; i++)
		fprintf(f, "device%d=cpu_%d.ini\ndevice%d=%s\n", 2 * i, i, 2 * i + 1, w->src[i].ini);
	fprintf(f, "\n[trace]\nmetadata=trace.ini\n");
	return done(w, &t, "snapshot.ini");
}

/* The core: its image in one file, one dump per region (offset, length). */
static int write_core(struct writer *w, const struct source *s, int i)
{
	const struct tc_enc_result *v = s->v;
	char name[64], mem[64];
	uint64_t at = 0;
	struct tc_out_text ft, mt;
	FILE *f, *m;
	snprintf(name, sizeof name, "cpu_%d.ini", i);
	snprintf(mem, sizeof mem, "cpu_%d_mem.bin", i);
	f = create(w, &ft);
	m = f ? create(w, &mt) : NULL;
	if (!m) {
		if (f)
			tc_out_text_free(&ft);
		return -1;
	}
	fprintf(f, "[device]\nname=cpu_%d\nclass=core\ntype=%s\n\n[regs]\nPC=0x%llx\n", i, s->proto->snapshot_core_type,
		(unsigned long long)(v->nregions ? v->region[0].base : 0));
	for (int r = 0; r < v->nregions; r++) {
		fprintf(f, "\n[dump%d]\nfile=%s\naddress=0x%llx\noffset=0x%llx\nlength=0x%zx\n", r, mem,
			(unsigned long long)v->region[r].base, (unsigned long long)at, v->region[r].len);
		fwrite(v->region[r].bytes, 1, v->region[r].len, m);
		at += v->region[r].len;
	}
	if (done(w, &mt, mem)) {
		tc_out_text_free(&ft);
		return -1;
	}
	return done(w, &ft, name);
}

/* The trace source: its protocol's first device type, every register of its
 * descriptor from the configuration (config_to_regs), at its offset. */
static int write_source(struct writer *w, const struct source *s)
{
	uint32_t regs[TC_CONFIG_REGS_MAX];
	const struct tc_protocol *p = s->proto;
	struct tc_out_text t;
	FILE *f = create(w, &t);
	if (!f)
		return -1;
	p->config_to_regs(s->v->cfg, s->trace_id, regs);
	fprintf(f, "[device]\nname=%s\nclass=trace_source\ntype=%s\n\n[regs]\n", s->name, p->snapshot_types[0]);
	for (int r = 0; r < p->nregs; r++)
		fprintf(f, "%s(0x%03x)=0x%08x\n", p->regs[r].name, p->regs[r].offset, regs[r]);
	return done(w, &t, s->ini);
}

/* A source's buffer: the one formatted buffer, or its own raw one. */
static void buffer_name(const struct writer *w, int i, char *buf, size_t size)
{
	if (w->coresight)
		snprintf(buf, size, "ETB_0");
	else
		snprintf(buf, size, "%.*s_buffer_%d", (int)strcspn(w->src[i].name, "_"), w->src[i].name, i);
}

static int write_trace_ini(struct writer *w)
{
	int nbuf = w->coresight ? 1 : w->n;
	char name[48];
	struct tc_out_text t;
	FILE *f = create(w, &t);
	if (!f)
		return -1;
	fprintf(f, "[trace_buffers]\nbuffers=");
	for (int i = 0; i < nbuf; i++)
		fprintf(f, "%sbuffer%d", i ? ", " : "", i);
	fprintf(f, "\n");
	for (int i = 0; i < nbuf; i++) {
		buffer_name(w, i, name, sizeof name);
		fprintf(f, "\n[buffer%d]\nname=%s\nfile=trace_%d.bin\nformat=%s\n", i, name, i,
			w->coresight ? "coresight" : "source_data");
	}
	fprintf(f, "\n[source_buffers]\n");
	for (int i = 0; i < w->n; i++) {
		buffer_name(w, i, name, sizeof name);
		fprintf(f, "%s=%s\n", w->src[i].name, name);
	}
	fprintf(f, "\n[core_trace_sources]\n");
	for (int i = 0; i < w->n; i++)
		fprintf(f, "cpu_%d=%s\n", i, w->src[i].name);
	return done(w, &t, "trace.ini");
}

static int write_buffers(struct writer *w, uint64_t seed)
{
	struct tc_enc_stream s[16];
	uint8_t *frames;
	size_t len = 0;
	char name[64];
	int rc;
	for (int i = 0; i < w->n && !w->coresight; i++) {
		snprintf(name, sizeof name, "trace_%d.bin", i);
		if (write_bytes(w, name, w->src[i].v->trace, w->src[i].v->trace_len))
			return -1;
	}
	if (!w->coresight)
		return 0;
	for (int i = 0; i < w->n; i++)
		s[i] = (struct tc_enc_stream){ w->src[i].trace_id, w->src[i].v->trace, w->src[i].v->trace_len };
	frames = tc_enc_csframe(s, w->n, seed, (int)(seed & 1), &len);
	if (!frames)
		return fail(w, "cannot format the buffer: out of memory");
	rc = write_bytes(w, "trace_0.bin", frames, len);
	free(frames);
	return rc;
}

/* Each vector's protocol, names and trace ID; -1 for a protocol a snapshot cannot hold. */
static int name_sources(struct writer *w, const struct tc_enc_result *v)
{
	for (int i = 0; i < w->n; i++) {
		struct source *s = &w->src[i];
		const struct tc_protocol *p = tc_protocol_find(v[i].protocol);
		if (!p || !p->snapshot_types || !p->snapshot_types[0] || !p->config_to_regs || p->trace_id_reg < 0 ||
		    !p->snapshot_core_type)
			return fail(w, "protocol %s has no snapshot device type, register mapping or trace ID register",
				    v[i].protocol);
		s->v = &v[i];
		s->proto = p;
		s->trace_id = 0x10u + (unsigned)i;
		snprintf(s->ini, sizeof s->ini, "%s_%d.ini", p->name, i);
		snprintf(s->name, sizeof s->name, "%s_%d", p->name, i);
		for (char *c = s->name; *c; c++)
			*c = (char)toupper((unsigned char)*c);
	}
	return 0;
}

/* Every file of the snapshot into w->dir. */
static int write_files(struct writer *w, const uint64_t *seeds, uint64_t seed)
{
	if (write_snapshot_ini(w, seeds) || write_trace_ini(w))
		return -1;
	for (int i = 0; i < w->n; i++)
		if (write_core(w, &w->src[i], i) || write_source(w, &w->src[i]))
			return -1;
	return write_buffers(w, seed);
}

int tc_snapshot_write(const char *dir, const struct tc_enc_result *v, const uint64_t *seeds, int n, int coresight,
		      uint64_t seed, char *err, size_t errlen)
{
	struct writer w;
	struct tc_out_dir d;
	memset(&w, 0, sizeof w);
	w.dir = dir;
	w.err = err;
	w.errlen = errlen;
	w.n = n;
	w.coresight = coresight;
	if (n < 1 || n > 16)
		return fail(&w, "a snapshot holds 1 to 16 generated sources, not %d", n);
	if (name_sources(&w, v))
		return -1;
	if (tc_out_dir_begin(&d, dir, err, errlen))
		return -1;
	w.dir = d.tmp;
	if (write_files(&w, seeds, seed)) {
		tc_out_dir_discard(&d);
		return -1;
	}
	return tc_out_dir_commit(&d, "snapshot.ini", err, errlen);
}
