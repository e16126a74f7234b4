/* SPDX-License-Identifier: BSD-3-Clause */
/* opencsd_offsets.c — the OpenCSD adapter's 64-bit offsets over OpenCSD's 32-bit trace index (tests/opencsd-offsets.t). */
/*
 * OpenCSD's C API counts trace bytes in a 32-bit ocsd_trc_index_t; the
 * adapter gives it offsets modulo 2^32 and restores the high part
 * (oc_unwrap, conformance/adapters/opencsd_common.c). Tested here:
 *
 * 1. oc_unwrap's arithmetic on its own: below 4 GiB, across 2^32, far
 *    beyond it, and an index OpenCSD has not been given.
 * 2. The adapter on real OpenCSD, for every protocol it decodes, with the
 *    stream starting at a large offset: the adapter's sources are linked
 *    into this program, so the test can set the handle's byte count (fed)
 *    to BASE right after open(), as if
 *    BASE bytes had been fed before. OpenCSD then receives indexes that wrap
 *    past 2^32 inside the trace, and every L1 packet and L3 item must come
 *    back at its offset from a run started at 0, plus BASE, with everything
 *    else unchanged — fed whole, a byte at a time and in random chunks.
 *    What this does not do is push BASE bytes through OpenCSD first:
 *    nothing before BASE is decoded, OpenCSD starts at BASE in its initial
 *    state. So it tests the offsets across OpenCSD's wrapping index (what
 *    the adapter does with 64-bit offsets), not hours of decoding.
 *    The runs at 0 and at BASE must agree line for line: a vector on which
 *    OpenCSD reports nothing at a level is skipped there (no offset to
 *    compare).
 *
 * Usage: opencsd_offsets PATH...   (vector files or folders; TAP on stdout)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../adapters/opencsd_common.h"
#include "tap.h"
#include "vector.h"

#define GIB4 ((uint64_t)1 << 32)

/* Items of one run, as text lines, offsets less BASE (an item below BASE
 * is written as "below-base: LINE"). The run happens in a child process,
 * as certify runs an adapter: OpenCSD's last-error record
 * (ocsd_get_last_err, behind the L3 error items' offsets) is process-wide,
 * so an earlier run's error must not leak into the next one. */
struct sink {
	int fd;
	uint64_t base;
	const struct tc_protocol *proto;
};

static void put_line(const struct sink *s, uint64_t offset, const char *text)
{
	char line[1100];
	int n = snprintf(line, sizeof line, "%s%s\n", offset < s->base ? "below-base: " : "", text);
	if (n > 0 && write(s->fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
		_exit(3);
}

/* An item, its offset less BASE, in the protocol's text (through its
 * descriptor, as certify formats it). */
static void on_item(void *ctx, int level, const struct tc_item *item)
{
	const struct sink *s = ctx;
	union {
		struct tc_item h;
		struct tc_l3 l3;
		unsigned char bytes[1024];
	} copy;
	char buf[1024];
	if (item->size > sizeof copy || item->size < sizeof copy.h)
		_exit(4);
	memcpy(&copy, item, item->size);
	copy.h.offset -= s->base;
	if (level == tc_level_l3)
		tc_l3_format(buf, sizeof buf, &copy.l3, s->proto->error_names, s->proto->nerrors);
	else
		s->proto->format(buf, sizeof buf, level, &copy.h);
	put_line(s, item->offset, buf);
}

/* The child: decodes v at one level through the adapter as if `base` bytes
 * had been fed before it; chunk 0 feeds all at once, > 0 that many bytes at
 * a time, < 0 pseudo-random sizes (1..64) seeded by -chunk. Exit status 0,
 * or 3 when open, feed or finish failed. */
static void decode_child(const struct tc_vector *v, unsigned level, uint64_t base, long chunk, int fd)
{
	struct tc_adapter_open_args args;
	struct tc_adapter_region *regions = calloc((size_t)v->image.n + 1, sizeof *regions);
	const struct tc_adapter *ad = tracecert_adapter_v2();
	struct sink s = { fd, base, v->proto };
	struct oc_handle *h;
	char err[256] = "";
	uint32_t seed = chunk < 0 ? (uint32_t)-chunk : 0;
	size_t at = 0;
	int rc = 0;
	memset(&args, 0, sizeof args);
	if (!regions)
		_exit(3);
	for (int i = 0; i < v->image.n; i++) {
		regions[i].base = v->image.region[i].base;
		regions[i].size = v->image.region[i].size;
		regions[i].data = v->image.region[i].data;
	}
	args.abi_version = TC_ADAPTER_ABI_VERSION;
	args.protocol = v->proto->id;
	args.config = v->config;
	args.config_size = v->proto->config_size;
	args.regions = regions;
	args.nregions = (size_t)v->image.n;
	args.levels = level;
	args.ctx = &s;
	args.item = on_item;
	h = ad->open(&args, err, sizeof err);
	if (!h)
		_exit(3);
	h->fed = base;   /* as if base bytes had been fed */
	h->fed_end = base;
	while (at < v->trace_len && rc == 0) {
		size_t n = v->trace_len - at;
		if (chunk > 0 && (size_t)chunk < n) {
			n = (size_t)chunk;
		} else if (chunk < 0) {
			seed = seed * 1103515245u + 12345u;
			if (1 + (seed >> 16) % 64 < n)
				n = 1 + (seed >> 16) % 64;
		}
		rc = ad->feed(h, v->trace + at, n);
		at += n;
	}
	if (rc == 0)
		rc = ad->finish(h);
	ad->close(h);
	_exit(rc ? 3 : 0);
}

/* One run in a child; its lines in *out. Returns 0, or -1 (with a note)
 * when the child failed. */
static int run(const struct tc_vector *v, unsigned level, uint64_t base, long chunk, struct tc_lines *out)
{
	int fds[2], status = 0;
	char *text = NULL;
	size_t len = 0, cap = 0;
	pid_t pid;
	memset(out, 0, sizeof *out);
	if (pipe(fds) != 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		decode_child(v, level, base, chunk, fds[1]);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n;
		if (len + 4096 + 1 > cap) {
			char *t = realloc(text, cap = cap ? 2 * cap : 65536);
			if (!t)
				break;
			text = t;
		}
		n = read(fds[0], text + len, cap - len - 1);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		;
	for (char *line = text, *nl; text && line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (!nl)
			break;
		*nl = '\0';
		tc_lines_add(out, line);
	}
	free(text);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		note("    - \"base %llu chunk %ld: the decoding child %s %d\"\n", (unsigned long long)base, chunk,
		     WIFSIGNALED(status) ? "was killed by signal" : "exited with status",
		     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return -1;
	}
	return 0;
}

static unsigned count_below_base(const struct tc_lines *l)
{
	unsigned n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += strncmp(l->line[i], "below-base: ", 12) == 0;
	return n;
}

/* One vector at one level: every base and chunking against the run at 0. */
static void check_vector(const char *path, const struct tc_vector *v, unsigned level)
{
	const uint64_t half = v->trace_len / 2;
	const uint64_t bases[] = {
		GIB4 - v->trace_len,       /* the last byte at 2^32 - 1: nothing wraps */
		GIB4 - half,               /* 2^32 falls in the middle of the trace */
		GIB4 - 1,                  /* only the first byte below 2^32 */
		GIB4,                      /* the first byte at 4 GiB */
		7 * GIB4 - half,           /* high part 6 -> 7 in the middle */
		UINT64_MAX - v->trace_len, /* the end of the 64-bit range */
	};
	const long chunks[] = { 0, -7, 1 };   /* 1-byte feeding for the bases that wrap mid-trace only */
	struct tc_lines ref;
	int good = 1;
	if (run(v, level, 0, 0, &ref)) {
		ok(0, "%s L%u: decodes from offset 0", path, level == tc_level_l1 ? 1 : 3);
		tc_lines_free(&ref);
		return;
	}
	if (ref.n == 0) {   /* OpenCSD reports nothing (a defect of its own): no offset to compare */
		ok(1, "%s L%u # SKIP OpenCSD reports no item from offset 0", path, level == tc_level_l1 ? 1 : 3);
		tc_lines_free(&ref);
		return;
	}
	for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
		for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
			struct tc_lines got;
			if (chunks[c] == 1 && b != 1 && b != 4)
				continue;
			long at = -1;
			unsigned below = 0;
			if (run(v, level, bases[b], chunks[c], &got)) {
				good = 0;
			} else if ((below = count_below_base(&got)) > 0 || (at = tc_lines_diff(&ref, &got)) >= 0) {
				good = 0;
				note("    - base: %llu\n      chunk: %ld\n      below_base: %u\n", (unsigned long long)bases[b],
				     chunks[c], below);
				if (at < 0)
					at = tc_lines_diff(&ref, &got);
				note("      line: %ld\n      expected: '%s'\n      got: '%s'\n", at + 1,
				     (size_t)at < ref.n ? ref.line[at] : "(end)", (size_t)at < got.n ? got.line[at] : "(end)");
			}
			tc_lines_free(&got);
		}
	ok(good,
	   "%s L%u: %zu items at the same offsets + BASE, BASE = 2^32 - %zu, 2^32 - %llu, 2^32 - 1, 2^32, "
	   "7*2^32 - %llu, 2^64 - 1 - %zu; whole and random chunks (and 1-byte across 2^32 and 7*2^32)",
	   path, level == tc_level_l1 ? 1 : 3, ref.n, v->trace_len, (unsigned long long)half,
	   (unsigned long long)half, v->trace_len);
	tc_lines_free(&ref);
}

/* Whether the adapter declares the vector unsupported (its protocol, a tag). */
static int unsupported(const struct tc_vector *v)
{
	const struct tc_adapter *ad = tracecert_adapter_v2();
	const struct tc_adapter_protocol *p = NULL;
	for (size_t i = 0; i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == v->proto->id)
			p = &ad->protocols[i];
	if (!p)
		return 1;
	for (const char *const *t = p->unsupported_tags; t && *t; t++) {
		size_t n = strlen(*t);
		for (const char *p = strstr(v->tags, *t); p; p = strstr(p + 1, *t))
			if ((p == v->tags || p[-1] == ',' || p[-1] == ' ') && (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
				return 1;
	}
	return 0;
}

static void test_unwrap(void)
{
	static const struct {
		uint64_t end;
		uint32_t index;
		uint64_t want;
	} t[] = {
		{ 0, 0, OC_NO_OFFSET },                     /* nothing given yet */
		{ 1, 0, 0 },
		{ 100, 99, 99 },
		{ 100, 0, 0 },
		{ 100, 100, OC_NO_OFFSET },                 /* not given yet (below 4 GiB) */
		{ 100, 0xffffffffu, OC_NO_OFFSET },
		{ GIB4, 0xffffffffu, GIB4 - 1 },
		{ GIB4, 0, 0 },                             /* 4 GiB - 1 behind: still in range */
		{ GIB4 + 1, 0, GIB4 },
		{ GIB4 + 1, 0xffffffffu, GIB4 - 1 },
		{ GIB4 + 1, 1, 1 },
		{ GIB4 + 100, 50, GIB4 + 50 },
		{ GIB4 + 100, 0xfffffff0u, 0xfffffff0u },
		{ GIB4 + 100, 100, 100 },                   /* the oldest offset the window holds */
		{ GIB4 + 100, 99, GIB4 + 99 },
		{ 5 * GIB4 + 7, 3, 5 * GIB4 + 3 },
		{ 5 * GIB4 + 7, 7, 4 * GIB4 + 7 },
		{ 5 * GIB4 + 7, 0xffffffffu, 5 * GIB4 - 1 },
		{ UINT64_MAX, 0xfffffffeu, UINT64_MAX - 1 },
		{ UINT64_MAX, 0xffffffffu, UINT64_MAX - GIB4 },
	};
	int good = 1;
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		uint64_t got = oc_unwrap(t[i].end, t[i].index);
		if (got != t[i].want) {
			good = 0;
			note("    - \"end %#llx index %#x: %#llx, expected %#llx\"\n", (unsigned long long)t[i].end,
			     (unsigned)t[i].index, (unsigned long long)got, (unsigned long long)t[i].want);
		}
	}
	ok(good, "oc_unwrap: %zu cases below, across and far beyond 2^32", sizeof t / sizeof t[0]);
	ok(oc_index(GIB4 + 5) == 5 && oc_index(GIB4 - 1) == 0xffffffffu && oc_index(3) == 3,
	   "oc_index gives OpenCSD the offset modulo 2^32");
}

int main(int argc, char **argv)
{
	char **list = NULL, err[600];
	size_t n = 0;
	if (argc < 2) {
		fprintf(stderr, "usage: opencsd_offsets PATH...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "opencsd_offsets: %s\n", err);
			return 2;
		}
	test_unwrap();
	for (size_t i = 0; i < n; i++) {
		struct tc_vector v;
		char err[512];
		if (tc_vector_load(list[i], &v, err, sizeof err)) {
			ok(0, "%s: %s", list[i], err);
		} else {
			if (v.trace_len > 0 && !unsupported(&v)) {
				check_vector(list[i], &v, tc_level_l1);
				if (v.has[tc_sec_l3])
					check_vector(list[i], &v, tc_level_l3);
			}
			tc_vector_free(&v);
		}
		free(list[i]);
	}
	free(list);
	return tap_finish();
}
