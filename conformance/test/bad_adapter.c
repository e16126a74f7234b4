/* bad_adapter.c — deliberately misbehaving adapters: the runner must classify each and go on.
 * Built once per BAD_KIND: crash, hang, flood, abi (wrong version), nosym (no entry point),
 * openfail, feedfail, nofinish (exits in finish without saying done), abort (SIGABRT), wrong. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracecert/adapter.h"

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

struct bad {
	struct tc_adapter_callbacks cb;
};

static void *bad_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct bad *b;
	if (BAD_KIND == KIND_OPENFAIL) {
		snprintf(err, errlen, "this adapter refuses every vector");
		return NULL;
	}
	b = calloc(1, sizeof *b);
	if (b)
		b->cb = a->cb;
	return b;
}

static int bad_feed(void *h, const uint8_t *data, size_t len)
{
	struct bad *b = h;
	struct tc_ete_packet p;
	(void)data;
	(void)len;
	memset(&p, 0, sizeof p);
	p.h.kind = tc_ete_pkt_async;
	if (BAD_KIND == KIND_CRASH)
		raise(SIGSEGV);
	if (BAD_KIND == KIND_ABORT)
		abort();
	if (BAD_KIND == KIND_HANG)
		for (volatile int spin = 1; spin;)
			;
	if (BAD_KIND == KIND_FLOOD)
		for (;;)
			if (b->cb.packet)
				b->cb.packet(b->cb.ctx, &p);
	if (BAD_KIND == KIND_FEEDFAIL)
		return -1;
	if (BAD_KIND == KIND_WRONG && b->cb.packet)
		b->cb.packet(b->cb.ctx, &p);   /* one async at @0, whatever the vector */
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

static const struct tc_adapter bad_adapter = {
	BAD_KIND == KIND_ABI ? TC_ADAPTER_ABI_VERSION + 1 : TC_ADAPTER_ABI_VERSION,
	"bad", "0", tc_adapter_ete, tc_adapter_l1, NULL,
	bad_open, bad_feed, bad_finish, bad_close,
};

#if BAD_KIND == KIND_NOSYM
const struct tc_adapter *tracecert_adapter_v0(void)
#else
const struct tc_adapter *tracecert_adapter_v1(void)
#endif
{
	return &bad_adapter;
}
