/* SPDX-License-Identifier: BSD-3-Clause */
/* runchild.c — the process that loads an adapter for `certify`: a fresh program image (`tracecert` TC_CHILD_WORD, exec'd by child.c) that reads the run's inputs, goes behind the walls of isolate.c, loads the adapter and sends what it declares or decodes as frames. It never holds an expected output. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "certify.h"
#include "child.h"
#include "isolate.h"
#include "runner.h"
#include "tracecert/adapter.h"

/* ---- The inputs ---------------------------------------------------------------
 * Frames on TC_CHILD_INPUT_FD (written by the worker, sandbox.c, or the
 * runner, loader.c): 'l' "CPU_S MEMORY_MB OUTPUT_MB PROCS ITEMS PARENT"
 * (the limits, the process that started it), 'a' the adapter's absolute
 * path, 'n' the path as the user gave it, 'h' a folder to hide (any
 * number), 'w' the report folder (absolute; none: no report), 'u' (empty:
 * --no-isolation, load the adapter even where it is not guarded), then
 * 'm' "probe" or 'm' "run PROTOCOL LEVEL CONFIG_SIZE
 * TRACE_SIZE NREGIONS", for a run 'c'
 * the configuration's bytes, per region 'r' "BASE SIZE" and 'b' its bytes,
 * 't' the trace's bytes (bytes in frames of at most TC_FRAME_MAX), and 'z'
 * at the end. Every count and size is checked against what was declared. */

#define INPUT_BYTES_MAX (1ull << 32)   /* a trace or an image region (a vector file is at most 64 MiB) */

struct buf {
	uint8_t *p;
	size_t len;
	size_t size;              /* declared */
};

struct inputs {
	struct tc_limits lim;
	long parent;              /* 0: not yet said */
	char *adapter;
	char *shown;
	char **hide;
	size_t nhide;
	char *report;             /* NULL: no report folder */
	int unguarded_ok;         /* 'u' */
	int mode;                 /* 'p' probe, 'r' run, 0: not yet said */
	const struct tc_protocol *proto;
	int level;                /* tc_level_l1 or tc_level_l3 */
	struct buf config;
	struct buf trace;
	struct tc_adapter_region region[TC_IMAGE_MAX_REGIONS];
	struct buf rbuf[TC_IMAGE_MAX_REGIONS];
	int nregions;             /* declared */
	int nregions_got;
	int done;                 /* 'z' */
};

/* Why the inputs or the set-up failed: a message for the runner, exit 5
 * (nothing of the adapter has run: the runner's fault, a runner-error). */
static void setup_failed(const char *what)
{
	char msg[TC_LINE_MAX];
	snprintf(msg, sizeof msg, "the process that loads the adapter: %s", what);
	tc_frame_puts(TC_CHILD_FRAMES_FD, 'M', msg);
	_exit(5);
}

static char *text_of(const struct tc_frame *f)
{
	char *s = malloc(f->len + 1);
	if (s) {
		memcpy(s, f->payload, f->len);
		s[f->len] = '\0';
	}
	return s;
}

/* Room for a declared size (at most INPUT_BYTES_MAX). 0, or -1. */
static int buf_init(struct buf *b, unsigned long long size)
{
	b->len = 0;
	b->size = (size_t)size;
	b->p = size > INPUT_BYTES_MAX ? NULL : malloc(size ? (size_t)size : 1);
	return b->p ? 0 : -1;
}

static int buf_add(struct buf *b, const struct tc_frame *f)
{
	if (!b->p || f->len > b->size - b->len)
		return -1;
	memcpy(b->p + b->len, f->payload, f->len);
	b->len += f->len;
	return 0;
}

/* 'l' "CPU_S MEMORY_MB OUTPUT_MB PROCS ITEMS PARENT". */
static int take_limits(struct inputs *in, const struct tc_frame *f)
{
	char text[200], end;
	struct tc_limits *l = &in->lim;
	tc_text_clean(text, sizeof text, f->payload, f->len);
	if (sscanf(text, "%u %lu %lu %lu %lu %ld%c", &l->timeout_s, &l->mem_mb, &l->out_mb, &l->procs, &l->items,
		   &in->parent, &end) != 6 || in->parent <= 0)
		return -1;
	return 0;
}

/* 'm' "probe", or 'm' "run PROTOCOL LEVEL CONFIG_SIZE TRACE_SIZE NREGIONS". */
static int take_mode(struct inputs *in, const struct tc_frame *f)
{
	char text[200], end;
	int proto, level, nreg;
	unsigned long long csize, tsize;
	tc_text_clean(text, sizeof text, f->payload, f->len);
	if (!strcmp(text, "probe")) {
		in->mode = 'p';
		return 0;
	}
	if (sscanf(text, "run %d %d %llu %llu %d%c", &proto, &level, &csize, &tsize, &nreg, &end) != 5 ||
	    !(in->proto = tc_protocol_by_id(proto)) || (level != tc_level_l1 && level != tc_level_l3) ||
	    csize != in->proto->config_size || nreg < 0 || nreg > TC_IMAGE_MAX_REGIONS || buf_init(&in->config, csize) ||
	    buf_init(&in->trace, tsize))
		return -1;
	in->mode = 'r';
	in->level = level;
	in->nregions = nreg;
	return 0;
}

/* 'r' "BASE SIZE": the next region. */
static int take_region(struct inputs *in, const struct tc_frame *f)
{
	char text[80], end;
	unsigned long long base, size;
	tc_text_clean(text, sizeof text, f->payload, f->len);
	if (in->nregions_got == in->nregions || sscanf(text, "%llu %llu%c", &base, &size, &end) != 2 || size == 0 ||
	    buf_init(&in->rbuf[in->nregions_got], size))
		return -1;
	in->region[in->nregions_got].base = base;
	in->region[in->nregions_got++].size = size;
	return 0;
}

static int take_input(struct inputs *in, const struct tc_frame *f)
{
	char **h;
	switch (f->type) {
	case 'l': return take_limits(in, f);
	case 'a': free(in->adapter); return (in->adapter = text_of(f)) ? 0 : -1;
	case 'n': free(in->shown); return (in->shown = text_of(f)) ? 0 : -1;
	case 'h':
		if (!(h = realloc(in->hide, (in->nhide + 1) * sizeof *h)))
			return -1;
		in->hide = h;
		return (in->hide[in->nhide++] = text_of(f)) ? 0 : -1;
	case 'w': free(in->report); return (in->report = text_of(f)) ? 0 : -1;
	case 'u': in->unguarded_ok = 1; return 0;
	case 'm': return in->mode ? -1 : take_mode(in, f);
	case 'c': return in->mode == 'r' ? buf_add(&in->config, f) : -1;
	case 'r': return in->mode == 'r' ? take_region(in, f) : -1;
	case 'b': return in->nregions_got > 0 ? buf_add(&in->rbuf[in->nregions_got - 1], f) : -1;
	case 't': return in->mode == 'r' ? buf_add(&in->trace, f) : -1;
	case 'z': in->done = 1; return 0;
	default: return -1;
	}
}

/* Every declared byte and region given. */
static int inputs_complete(struct inputs *in)
{
	if (!in->parent || !in->adapter || !in->shown || !in->mode)
		return 0;
	if (in->mode == 'p')
		return 1;
	if (in->config.len != in->config.size || in->trace.len != in->trace.size || in->nregions_got != in->nregions)
		return 0;
	for (int i = 0; i < in->nregions; i++) {
		if (in->rbuf[i].len != in->rbuf[i].size)
			return 0;
		in->region[i].data = in->rbuf[i].p;
	}
	return 1;
}

static void read_inputs(struct inputs *in)
{
	struct tc_frame_reader *rd = calloc(1, sizeof *rd);
	struct tc_frame f;
	int got;
	if (!rd)
		setup_failed("out of memory for its inputs");
	while (!in->done) {
		while ((got = tc_frame_next(rd, &f)) == 0) {
			long n = tc_frame_fill(rd, TC_CHILD_INPUT_FD);
			if (n == 0 || (n < 0 && errno != EINTR))
				setup_failed("its inputs end before their end frame");
		}
		if (got < 0 || take_input(in, &f) != 0)
			setup_failed("its inputs are malformed or out of memory");
	}
	free(rd);
	close(TC_CHILD_INPUT_FD);
	if (!inputs_complete(in))
		setup_failed("its inputs are incomplete");
}

/* ---- Probe: what the adapter declares -----------------------------------------
 * Frames: 'N' name, 'V' version, then per protocol 'P' "ID LEVELS" and a 'U'
 * per unsupported tag, then 'D'; or 'E' and why it cannot load. Strings are
 * read at most TC_ADAPTER_TEXT_MAX bytes far. */

static void send_text(char type, const char *s)
{
	tc_frame_write(TC_CHILD_FRAMES_FD, type, s, strnlen(s, TC_ADAPTER_TEXT_MAX));
}

static void send_protocol(const struct tc_adapter_protocol *p)
{
	char buf[64];
	int k = 0;
	snprintf(buf, sizeof buf, "%d %u", p->protocol, p->levels);
	tc_frame_puts(TC_CHILD_FRAMES_FD, 'P', buf);
	for (const char *const *u = p->unsupported_tags; u && *u && k <= TC_ADAPTER_TAGS_MAX; u++, k++)
		send_text('U', *u);
}

static void probe(const struct inputs *in)
{
	char err[1024];
	const struct tc_adapter *ad = tc_adapter_load_as(in->adapter, in->shown, err, sizeof err);
	if (!ad) {
		tc_frame_puts(TC_CHILD_FRAMES_FD, 'E', err);
		_exit(4);
	}
	send_text('N', ad->name);
	send_text('V', ad->version);
	for (size_t i = 0; i < ad->nprotocols; i++)
		send_protocol(&ad->protocols[i]);
	tc_frame_puts(TC_CHILD_FRAMES_FD, 'D', "");
	_exit(0);
}

/* ---- Run: the adapter over the trace ---------------------------------------------
 * Frames: '1' or '3' an item's raw bytes (it->size of them: the worker
 * checks and formats them), 'M' a message about the run (why it failed),
 * 'F' the item flood, 'D' after close(). Exit status 0 after 'D'; 4: the
 * adapter failed; 6: a malformed item; 7: the item flood. Frames are
 * gathered and written OUT_BATCH bytes at a time (one write per item cost
 * more than the decoding); all are written before the process ends by
 * itself, and a run that ends otherwise is judged without its items. */

#define OUT_BATCH 16384

struct run {
	const struct inputs *in;
	unsigned long items;      /* item() calls so far, warnings included */
	size_t len;               /* bytes in out */
	char out[OUT_BATCH];
};

static void flush_frames(struct run *r)
{
	if (r->len > 0 && tc_frame_write_all(TC_CHILD_FRAMES_FD, r->out, r->len) != 0)
		_exit(3);
	r->len = 0;
}

static void send_frame(struct run *r, char type, const void *bytes, size_t len)
{
	long n;
	if (r->len + TC_FRAME_HEAD + len + 1 > sizeof r->out)
		flush_frames(r);
	if ((n = tc_frame_put(r->out + r->len, sizeof r->out - r->len, type, bytes, len)) < 0)
		_exit(3);
	r->len += (size_t)n;
}

/* A last frame, and every one before it written: the run ends here. */
static void send_last(struct run *r, char type, const char *text, int status)
{
	send_frame(r, type, text, strlen(text));
	flush_frames(r);
	_exit(status);
}

/* The item callback: counted, checked (the adapter's message comes from
 * here; the worker checks again), warnings dropped (never scored), the
 * rest sent raw. */
static void run_item(void *ctx, int level, const struct tc_item *it)
{
	struct run *r = ctx;
	char buf[TC_LINE_MAX], why[256];
	if (++r->items > r->in->lim.items) {
		snprintf(buf, sizeof buf, "more than %lu items (item() calls, warnings included)", r->in->lim.items);
		send_last(r, 'F', buf, 7);
	}
	if (tc_item_check(r->in->proto, r->in->level, level, it, why, sizeof why)) {
		snprintf(buf, sizeof buf, "malformed item: %s", why);
		send_last(r, 'M', buf, 6);
	}
	if (!r->in->proto->item_is_warning(level, it))
		send_frame(r, level == tc_level_l3 ? '3' : '1', it, it->size);
}

static void run_failed(struct run *r, const char *what, const char *text)
{
	char buf[TC_LINE_MAX];
	snprintf(buf, sizeof buf, "%s%s", what, text);
	send_last(r, 'M', buf, 4);
}

/* The trace goes to feed() in pieces of 1, 2, ..., TC_FEED_PIECE_MAX bytes in
 * turn (adapter.h: feed() may be called with any chunking), so a packet is cut
 * at many different points and a decoder that loses a packet's first bytes
 * when the rest comes in the next call fails the vector. */
static int feed_in_pieces(const struct tc_adapter *ad, void *h, const uint8_t *trace, size_t len)
{
	size_t done = 0, piece = 1;
	while (done < len) {
		size_t n = len - done < piece ? len - done : piece;
		if (ad->feed(h, trace + done, n) < 0)
			return -1;
		done += n;
		piece = piece == TC_FEED_PIECE_MAX ? 1 : piece + 1;
	}
	return 0;
}

static void run(const struct inputs *in)
{
	struct run *r = calloc(1, sizeof *r);
	struct tc_adapter_open_args args;
	char err[512] = "";
	const struct tc_adapter *ad = tc_adapter_load_as(in->adapter, in->shown, err, sizeof err);
	void *h;
	if (!r)
		setup_failed("out of memory for its frames");
	r->in = in;
	if (!ad)
		run_failed(r, "", err);
	memset(&args, 0, sizeof args);
	args.abi_version = TC_ADAPTER_ABI_VERSION;
	args.protocol = in->proto->id;
	args.config = in->config.p;
	args.config_size = in->config.len;
	args.regions = in->region;
	args.nregions = (size_t)in->nregions;
	args.levels = (unsigned)in->level;
	args.ctx = r;
	args.item = run_item;
	if (!(h = ad->open(&args, err, sizeof err))) {
		err[sizeof err - 1] = '\0';   /* whatever the adapter left in it */
		run_failed(r, "open failed: ", err[0] ? err : "(no message)");
	}
	if (feed_in_pieces(ad, h, in->trace.p, in->trace.len) < 0)
		run_failed(r, "feed failed", "");
	if (ad->finish(h) < 0)
		run_failed(r, "finish failed", "");
	ad->close(h);
	send_last(r, 'D', "", 0);
}

/* ---- The process ------------------------------------------------------------------ */

/* Whether this process can open the file at path: an adapter it cannot
 * open never runs, and loading it says why (a missing file, say). */
static int can_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

int tc_certify_child_main(void)
{
	struct inputs *in = calloc(1, sizeof *in);
	struct tc_iso iso;
	char msg[TC_LINE_MAX];
	if (!in)
		setup_failed("out of memory for its inputs");
	read_inputs(in);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != (pid_t)in->parent)
		_exit(5);   /* the process that started it is gone: nobody waits for this run */
	tc_child_set_limits(&in->lim);
	tc_isolate(in->hide, in->nhide, in->adapter, in->report, &iso);
	if (iso.load[0]) {   /* a copy nobody can open */
		free(in->adapter);
		if (!(in->adapter = strdup(iso.load)))
			setup_failed("out of memory");
	}
	if (!(iso.bits & tc_iso_guarded) && !in->unguarded_ok && can_open(in->adapter)) {
		/* nothing of the adapter has run: a process it could forge the outcome from never loads it */
		snprintf(msg, sizeof msg, "not isolated: %s", iso.note);
		tc_frame_puts(TC_CHILD_FRAMES_FD, 'M', msg);
		_exit(TC_CHILD_REFUSED);
	}
	/* the first frame of the adapter's process, before any of the adapter runs */
	snprintf(msg, sizeof msg, "%u %s", iso.bits, iso.note);
	tc_frame_puts(TC_CHILD_FRAMES_FD, 'I', msg);
	if (in->mode == 'p')
		probe(in);
	run(in);
	return 5;
}
