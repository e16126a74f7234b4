/* bad_adapter.c — deliberately misbehaving adapters: the runner must classify each and go on.
 * Built once per BAD_KIND: crash, hang, flood, abi (wrong version), nosym (no entry point),
 * openfail, feedfail, nofinish (exits in finish without saying done), abort (SIGABRT), wrong,
 * v1 (exports only the ABI v1 entry point), badsize / badproto / badkind (a malformed item),
 * ptmonly (declares PTM only). All but ptmonly declare ETE at L1 only.
 * Hostile ones (tests/hostile.t): ctor (crashes in its constructor), entryexit (exit(0) in the entry
 * point), closesleep (closes every descriptor and sleeps), daemon (a setsid() grandchild that
 * creates $TC_BAD_MARKER a second later), stdout (4 MiB of TAP-looking lines on stdout and
 * stderr), forge (writes forged frames to every descriptor, then exits 0), warnflood (endless
 * warning items, which the runner drops), noterm (name, version and open() error text without a
 * NUL terminator), markup (name and version with Markdown, control characters and invalid UTF-8),
 * hog (allocates and touches memory until malloc fails, then aborts). Every hostile kind fails
 * every vector it runs. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracecert/adapter.h"
#include "tracecert/ete.h"

#define KIND_CRASH 1
#define KIND_HANG 2
#define KIND_FLOOD 3
#define KIND_ABI 4
#define KIND_NOSYM 5
#define KIND_OPENFAIL 6
#define KIND_FEEDFAIL 7
#define KIND_NOFINISH 8
#define KIND_ABORT 9
#define KIND_WRONG 10
#define KIND_V1 11
#define KIND_BADSIZE 12
#define KIND_BADPROTO 13
#define KIND_BADKIND 14
#define KIND_PTMONLY 15
#define KIND_CTOR 16
#define KIND_ENTRYEXIT 17
#define KIND_CLOSESLEEP 18
#define KIND_DAEMON 19
#define KIND_STDOUT 20
#define KIND_FORGE 21
#define KIND_WARNFLOOD 22
#define KIND_NOTERM 23
#define KIND_MARKUP 24
#define KIND_HOG 25

#if BAD_KIND == KIND_CTOR
__attribute__((constructor)) static void crash_on_load(void)
{
	raise(SIGSEGV);
}
#endif

struct bad {
	void *ctx;
	void (*item)(void *ctx, int level, const struct tc_item *item);
	int said;   /* the one packet of 'wrong' and its kin is out (the runner feeds in pieces) */
};

static void *bad_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct bad *b;
	if (BAD_KIND == KIND_OPENFAIL) {
		snprintf(err, errlen, "this adapter refuses every vector");
		return NULL;
	}
	if (BAD_KIND == KIND_MARKUP && a->protocol == tc_proto_ete && a->levels == tc_level_l1 && a->nregions > 0) {
		snprintf(err, errlen, "```\n# Forged in a failure\n``` \xff");
		return NULL;
	}
	if (BAD_KIND == KIND_NOTERM) {
		memset(err, 'E', errlen);   /* no NUL anywhere */
		return NULL;
	}
	b = calloc(1, sizeof *b);
	if (b) {
		b->ctx = a->ctx;
		b->item = a->item;
	}
	return b;
}

/* One ETE A-sync at @0, made malformed as the kind asks. */
static void one_packet(struct bad *b)
{
	struct tc_ete_packet p;
	memset(&p, 0, sizeof p);
	p.h.size = sizeof p;
	p.h.protocol = tc_proto_ete;
	p.h.kind = tc_ete_pkt_async;
	if (BAD_KIND == KIND_BADSIZE)
		p.h.size = sizeof p - 8;
	if (BAD_KIND == KIND_BADPROTO)
		p.h.protocol = tc_proto_ptm;
	if (BAD_KIND == KIND_BADKIND)
		p.h.kind = 200;
	if (BAD_KIND == KIND_WARNFLOOD)
		p.h.kind = tc_ete_pkt_warning;
	b->item(b->ctx, tc_level_l1, &p.h);
}

/* A grandchild in its own session, outliving the run unless the runner
 * kills it: it creates $TC_BAD_MARKER after a second. */
static void daemonise(void)
{
	const char *marker = getenv("TC_BAD_MARKER");
	pid_t pid = fork();
	if (pid != 0)
		return;
	setsid();
	if (fork() != 0)
		_exit(0);
	sleep(1);
	if (marker)
		close(open(marker, O_WRONLY | O_CREAT, 0644));
	_exit(0);
}

/* Lines that would pass for TAP results and certify's summary if they
 * reached the runner's output. */
static void print_forged_lines(void)
{
	for (int i = 0; i < 4 * 16384; i++) {
		printf("ok %d - FORGED by the adapter\n", i + 1);
		fprintf(stderr, "certify: FORGED: 999 pass\n");
	}
	fflush(stdout);
}

/* Frames that would pass for results, a run's end and a process group,
 * written to every descriptor the process may have. */
static void write_forged_frames(void)
{
	static const char forged[] = "r0004 0 0\nD0000 \ns0001 1\n10012 @0 00 async\n";
	for (int fd = 0; fd < 1024; fd++)
		if (write(fd, forged, sizeof forged - 1) < 0)
			continue;
}

static void hog_memory(void)
{
	for (;;) {
		char *p = malloc(16 << 20);
		if (!p)
			abort();
		memset(p, 1, 16 << 20);
	}
}
static int bad_feed(void *h, const uint8_t *data, size_t len)
{
	struct bad *b = h;
	(void)data;
	(void)len;
	if (BAD_KIND == KIND_CRASH)
		raise(SIGSEGV);
	if (BAD_KIND == KIND_ABORT)
		abort();
	if (BAD_KIND == KIND_HANG)
		for (volatile int spin = 1; spin;)
			;
	if (BAD_KIND == KIND_FLOOD)
		for (;;)
			one_packet(b);
	if (BAD_KIND == KIND_FEEDFAIL)
		return -1;
	if (BAD_KIND == KIND_CLOSESLEEP) {
		for (int fd = 0; fd < 1024; fd++)
			close(fd);
		for (;;)
			sleep(1000);
	}
	if (BAD_KIND == KIND_DAEMON)
		daemonise();
	if (BAD_KIND == KIND_STDOUT)
		print_forged_lines();
	if (BAD_KIND == KIND_FORGE) {
		write_forged_frames();
		_exit(0);
	}
	if (BAD_KIND == KIND_WARNFLOOD)
		for (;;)
			one_packet(b);
	if (BAD_KIND == KIND_HOG)
		hog_memory();
	if (BAD_KIND == KIND_WRONG || BAD_KIND == KIND_BADSIZE || BAD_KIND == KIND_BADPROTO || BAD_KIND == KIND_BADKIND ||
	    BAD_KIND == KIND_DAEMON || BAD_KIND == KIND_STDOUT || BAD_KIND == KIND_MARKUP) {
		if (!b->said)
			one_packet(b);   /* one async at @0, whatever the vector */
		b->said = 1;
	}
	return 0;
}

static int bad_finish(void *h)
{
	(void)h;
	if (BAD_KIND == KIND_NOFINISH)
		_exit(0);
	return 0;
}

static void bad_close(void *h)
{
	free(h);
}

static const struct tc_adapter_protocol bad_protocols[] = {
	{ BAD_KIND == KIND_PTMONLY ? tc_proto_ptm : tc_proto_ete, tc_level_l1, NULL },
};

#if BAD_KIND == KIND_NOTERM
/* 300 bytes each, no NUL: a reader must stop on its own bound. */
#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
static const char bad_name[300] = "unterminated-" X100 X100 "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy";
static const char bad_version[300] = X100 X100 X100;
#elif BAD_KIND == KIND_MARKUP
static const char bad_name[] = "bad\n# Forged heading\n| a | b |\n```\n[link](http://x) \xff\xfe\"quoted\\";
static const char bad_version[] = "1\r\n## Score: **100.00%** \xc3\x28 `x`";
#else
static const char bad_name[] = "bad";
static const char bad_version[] = "0";
#endif

static const struct tc_adapter bad_adapter = {
	BAD_KIND == KIND_ABI ? TC_ADAPTER_ABI_VERSION + 1 : TC_ADAPTER_ABI_VERSION,
	bad_name, bad_version, bad_protocols, 1,
	bad_open, bad_feed, bad_finish, bad_close,
};

#if BAD_KIND == KIND_NOSYM
const struct tc_adapter *tracecert_adapter_v0(void);
const struct tc_adapter *tracecert_adapter_v0(void)
#elif BAD_KIND == KIND_V1
const struct tc_adapter *tracecert_adapter_v1(void);
const struct tc_adapter *tracecert_adapter_v1(void)
#else
const struct tc_adapter *tracecert_adapter_v2(void)
#endif
{
	if (BAD_KIND == KIND_ENTRYEXIT)
		exit(0);
	return &bad_adapter;
}
