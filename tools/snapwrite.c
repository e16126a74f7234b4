/* snapwrite.c — generated vectors written as a trace snapshot directory: snapshot.ini, a core .ini with memory dumps and an ETE .ini with registers per vector, trace.ini and the buffers (test data for the snapshot reader). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "snapwrite.h"
#include "tracecert/ete_config.h"

/* The files go to dir, the folder built beside the snapshot's place
 * (conformance/outfile.h: swapped in when every file is written). */
struct writer {
	const char *dir;
	char *err;
	size_t errlen;
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

static int write_snapshot_ini(struct writer *w, const uint64_t *seeds, int n)
{
	struct tc_out_text t;
	FILE *f = create(w, &t);
	if (!f)
		return -1;
	fprintf(f, "; written by tracecert gen --snapshot-out\n[snapshot]\nversion=1.0\ndescription=tracecert gen, seeds");
	for (int i = 0; i < n; i++)
		fprintf(f, " %llu", (unsigned long long)seeds[i]);
	fprintf(f, "\n\n[device_list]\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "device%d=cpu_%d.ini\ndevice%d=ete_%d.ini\n", 2 * i, i, 2 * i + 1, i);
	fprintf(f, "\n[trace]\nmetadata=trace.ini\n");
	return done(w, &t, "snapshot.ini");
}

/* The core: its image in one file, one dump per region (offset, length). */
static int write_core(struct writer *w, const struct tc_enc_result *v, int i)
{
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
	fprintf(f, "[device]\nname=cpu_%d\nclass=core\ntype=ARM-AA64\n\n[regs]\nPC(size:64)=0x%llx\n", i,
		(unsigned long long)(v->nregions ? v->region[0].base : 0));
	for (int r = 0; r < v->nregions; r++) {
		fprintf(f, "\n[dump%d]\nfile=%s\naddress=0x%llx\noffset=0x%llx\nlength=0x%zx\nspace=EL1N\n", r, mem,
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

/* The ETE source: registers from the configuration, plus two the configuration does not use. */
static int write_source(struct writer *w, const struct tc_enc_result *v, int i)
{
	uint32_t regs[tc_ete_reg_count];
	char name[64];
	struct tc_out_text t;
	FILE *f;
	snprintf(name, sizeof name, "ete_%d.ini", i);
	f = create(w, &t);
	if (!f)
		return -1;
	tc_ete_config_to_regs(v->cfg, 0x10u + (unsigned)i, regs);
	fprintf(f, "[device]\nname=ETE_%d\nclass=trace_source\ntype=ETE\n\n[regs]\n", i);
	for (int r = 0; r < tc_ete_reg_count; r++)
		fprintf(f, "%s(0x%03x)=0x%08x\n", tc_ete_regs[r].name, tc_ete_regs[r].offset, regs[r]);
	fprintf(f, "TRCIDR1(0x1e4)=0x4100fff0\nTRCAUTHSTATUS(0xfb8)=0xcc\n");
	return done(w, &t, name);
}

static int write_trace_ini(struct writer *w, int n, int coresight)
{
	struct tc_out_text t;
	FILE *f = create(w, &t);
	if (!f)
		return -1;
	fprintf(f, "[trace_buffers]\nbuffers=");
	for (int i = 0; i < (coresight ? 1 : n); i++)
		fprintf(f, "%sbuffer%d", i ? ", " : "", i);
	fprintf(f, "\n");
	for (int i = 0; i < (coresight ? 1 : n); i++)
		fprintf(f, "\n[buffer%d]\nname=%s_%d\nfile=trace_%d.bin\nformat=%s\n", i, coresight ? "ETB" : "ETE_buffer", i, i,
			coresight ? "coresight" : "source_data");
	fprintf(f, "\n[source_buffers]\n");
	for (int i = 0; i < n; i++)
		fprintf(f, coresight ? "ETE_%d=ETB_0\n" : "ETE_%d=ETE_buffer_%d\n", i, i);
	fprintf(f, "\n[core_trace_sources]\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "cpu_%d=ETE_%d\n", i, i);
	return done(w, &t, "trace.ini");
}

static int write_buffers(struct writer *w, const struct tc_enc_result *v, int n, int coresight, uint64_t seed)
{
	struct tc_enc_stream s[16];
	uint8_t *frames;
	size_t len = 0;
	char name[64];
	int rc;
	for (int i = 0; i < n && !coresight; i++) {
		snprintf(name, sizeof name, "trace_%d.bin", i);
		if (write_bytes(w, name, v[i].trace, v[i].trace_len))
			return -1;
	}
	if (!coresight)
		return 0;
	for (int i = 0; i < n; i++)
		s[i] = (struct tc_enc_stream){ 0x10u + (unsigned)i, v[i].trace, v[i].trace_len };
	frames = tc_enc_csframe(s, n, seed, (int)(seed & 1), &len);
	if (!frames)
		return fail(w, "cannot format the buffer: out of memory");
	rc = write_bytes(w, "trace_0.bin", frames, len);
	free(frames);
	return rc;
}

/* Every file of the snapshot into w->dir. */
static int write_files(struct writer *w, const struct tc_enc_result *v, const uint64_t *seeds, int n, int coresight,
		       uint64_t seed)
{
	if (write_snapshot_ini(w, seeds, n) || write_trace_ini(w, n, coresight))
		return -1;
	for (int i = 0; i < n; i++)
		if (write_core(w, &v[i], i) || write_source(w, &v[i], i))
			return -1;
	return write_buffers(w, v, n, coresight, seed);
}

int tc_snapshot_write(const char *dir, const struct tc_enc_result *v, const uint64_t *seeds, int n, int coresight,
		      uint64_t seed, char *err, size_t errlen)
{
	struct writer w = { dir, err, errlen };
	struct tc_out_dir d;
	if (n < 1 || n > 16)
		return fail(&w, "a snapshot holds 1 to 16 generated sources, not %d", n);
	for (int i = 0; i < n; i++)
		if (strcmp(v[i].protocol, "ete"))
			return fail(&w, "the snapshot writer writes ETE trace sources only, not %s", v[i].protocol);
	if (tc_out_dir_begin(&d, dir, err, errlen))
		return -1;
	w.dir = d.tmp;
	if (write_files(&w, v, seeds, n, coresight, seed)) {
		tc_out_dir_discard(&d);
		return -1;
	}
	return tc_out_dir_commit(&d, "snapshot.ini", err, errlen);
}
