/* bad_adapter.c — deliberately misbehaving adapters: the runner must classify each and go on.
 * Built once per BAD_KIND: crash, hang, flood, abi (wrong version), nosym (no entry point),
 * openfail, feedfail, nofinish (exits in finish without saying done), abort (SIGABRT), wrong,
 * v1 (exports only the ABI v1 entry point), badsize / badproto / badkind (a malformed item),
 * ptmonly (declares PTM only). All but ptmonly declare ETE at L1 only. */
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

struct bad {
	void *ctx;
	void (*item)(void *ctx, int level, const struct tc_item *item);
};

static void *bad_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct bad *b;
	if (BAD_KIND == KIND_OPENFAIL) {
		snprintf(err, errlen, "this adapter refuses every vector");
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
	b->item(b->ctx, tc_level_l1, &p.h);
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
	if (BAD_KIND == KIND_WRONG || BAD_KIND == KIND_BADSIZE || BAD_KIND == KIND_BADPROTO || BAD_KIND == KIND_BADKIND)
		one_packet(b);   /* one async at @0, whatever the vector */
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

static const struct tc_adapter bad_adapter = {
	BAD_KIND == KIND_ABI ? TC_ADAPTER_ABI_VERSION + 1 : TC_ADAPTER_ABI_VERSION,
	"bad", "0", bad_protocols, 1,
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
	return &bad_adapter;
}
