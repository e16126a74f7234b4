/* SPDX-License-Identifier: BSD-3-Clause */
/* adapter.c — fuzz harness for any decoder wrapped as a tracecert adapter (TC_FUZZ_ADAPTER=path/to/adapter.so, or an adapter linked in), every protocol it declares.
 *
 * Property: the adapter (conformance/include/tracecert/adapter.h) takes any
 * configuration, program image, chunking and byte string of any protocol
 * it declares without crashing or hanging — libFuzzer/AFL++ catch those in
 * process, and the sanitizers catch memory errors in the adapter when it is
 * built with them (see fuzz/README.md) — and its output is bounded, as
 * certify requires: at most 64·(len+1) L1 packets and 64·(len+1)·(image
 * bytes/2 + 8) L3 items. Every item is of a level asked for, carries the
 * protocol's id, the record size and a kind below the count the descriptor
 * gives (tracecert/protocol.h l1_size, l1_kinds; L3: struct tc_l3) and an
 * error class the protocol has, and goes through the canonical formatter,
 * as certify does with adapter output (conformance/sandbox.c). Open, feed and finish may fail (a per-vector "adapter
 * error", never a finding); after a failed feed the harness still calls
 * finish and close.
 *
 * Input: byte 0 the protocol: tc_protocols[b % count], or the next one in
 * that table the adapter declares; then its configuration, one byte per
 * key (fuzz.h tc_fuzz_proto_config; walk_limit is a key); one byte of
 * flags: bit 0 ask for L1, bit 1 ask for L3 (neither: what the adapter
 * supports), bits 4:2 number of image regions, 0–7 (fuzz.h
 * tc_fuzz_read_regions); one byte of chunking (tc_fuzz_chunks_init); then
 * the regions, then the trace.
 */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/adapter.h"

#define CONFIG_MAX 1024   /* bytes of a protocol's configuration struct */

/* Set at init; nothing else survives between inputs. */
static const struct tc_adapter *adapter;

struct run {
	const struct tc_protocol *proto;
	uint64_t l1, l3, l1_limit, l3_limit;
	unsigned levels;
};

/* Whether an item is a well-formed record of its level (the checks
 * certify makes before formatting). */
static int well_formed(const struct run *r, int level, const struct tc_item *item)
{
	size_t want = level == tc_level_l3 ? sizeof(struct tc_l3) : r->proto->l1_size;
	unsigned kinds = level == tc_level_l3 ? tc_l3_kind_count : (unsigned)r->proto->l1_kinds;
	int cls;
	if (item->protocol != (unsigned)r->proto->id || item->size != want || item->kind >= kinds)
		return 0;
	cls = r->proto->item_error(level, item);
	return cls >= 0 && cls < r->proto->nerrors;
}

/* Each item: a level asked for, a well-formed record, then the canonical text. */
static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct run *r = ctx;
	char buf[TC_FUZZ_LINE];
	int l3 = level == tc_level_l3;
	TC_FUZZ_CHECK((level == tc_level_l1 || l3) && (r->levels & (unsigned)level), "adapter %s: an item at level %d",
		      adapter->name, level);
	TC_FUZZ_CHECK(item && well_formed(r, level, item),
		      "adapter %s: malformed %s L%d item (protocol %u, size %u, kind %u)", adapter->name, r->proto->name,
		      l3 ? 3 : 1, item ? (unsigned)item->protocol : 0, item ? (unsigned)item->size : 0,
		      item ? (unsigned)item->kind : 0);
	if (l3) {
		r->l3++;
		TC_FUZZ_CHECK(r->l3 <= r->l3_limit, "adapter %s: flood: more than %llu L3 items", adapter->name,
			      (unsigned long long)r->l3_limit);
		tc_l3_format(buf, sizeof buf, (const struct tc_l3 *)item, r->proto->error_names, r->proto->nerrors);
	} else {
		r->l1++;
		TC_FUZZ_CHECK(r->l1 <= r->l1_limit, "adapter %s: flood: more than %llu L1 packets", adapter->name,
			      (unsigned long long)r->l1_limit);
		r->proto->format(buf, sizeof buf, level, item);
	}
}

/* The levels the adapter declares for protocol id (0: none). */
static unsigned declared_levels(const struct tc_adapter *ad, int id)
{
	for (size_t i = 0; ad->protocols && i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == id)
			return ad->protocols[i].levels & (tc_level_l1 | tc_level_l3);
	return 0;
}

/* tc_protocols[b % count], or the next one the adapter declares; NULL when it declares none. */
static const struct tc_protocol *pick_protocol(uint8_t b)
{
	int count = 0;
	while (tc_protocols[count])
		count++;
	for (int i = 0; i < count; i++) {
		const struct tc_protocol *p = tc_protocols[(b + i) % count];
		if (declared_levels(adapter, p->id))
			return p;
	}
	return NULL;
}

/* An adapter linked into the fuzz executable itself: the installed harness (libtcfuzz.a, make install)
 * linked with a decoder's own adapter objects, which define tracecert_adapter_v2. A weak reference:
 * NULL in the harnesses of this tree, which load an adapter .so. */
#ifdef __GNUC__
extern const struct tc_adapter *tracecert_adapter_v2(void) __attribute__((weak));
#define LINKED_ADAPTER tracecert_adapter_v2
#else
#define LINKED_ADAPTER ((tc_adapter_entry_fn)0)
#endif

/* Without TC_FUZZ_ADAPTER: TC_FUZZ_ADAPTER_BESIDE (a path from the executable's folder, e.g.
 * "lib/tc_fuzz_adapter.so") when the build defines it (an OSS-Fuzz build, fuzz/oss-fuzz.mk), else none. */
static const char *default_path(void)
{
#ifdef TC_FUZZ_ADAPTER_BESIDE
	static char beside[4096];
	return tc_fuzz_beside_exe(TC_FUZZ_ADAPTER_BESIDE, beside, sizeof beside);
#else
	return NULL;
#endif
}

/* Fails init: in the regression driver the harness is skipped, else the process ends. */
static int init_failed(void)
{
	adapter = NULL;
	if (tc_fuzz_regress_mode)
		return -1;
	exit(1);
}

/* The adapter linked in (LINKED_ADAPTER): taken as TC_FUZZ_ADAPTER's would be. */
static int use_linked_adapter(void)
{
	tc_adapter_entry_fn entry = LINKED_ADAPTER;
	adapter = entry();
	if (!adapter || adapter->abi_version != TC_ADAPTER_ABI_VERSION || !pick_protocol(0)) {
		fprintf(stderr, "adapter: cannot use the adapter linked in: %s\n",
			!adapter ? "entry returned NULL" : adapter->abi_version != TC_ADAPTER_ABI_VERSION
			? "ABI version mismatch" : "it declares no protocol of this build");
		return init_failed();
	}
	fprintf(stderr, "adapter: fuzzing the adapter linked in (%s %s)\n", adapter->name, adapter->version);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("TC_FUZZ_ADAPTER");
	void *so;
	tc_adapter_entry_fn entry;
	(void)argc;
	if ((!path || !*path) && !tc_fuzz_regress_mode && LINKED_ADAPTER)
		return use_linked_adapter();
	if (!path || !*path) {
		if (tc_fuzz_regress_mode)
			path = "build/adapters/libtc_reference.so";
		else if (!(path = default_path())) {
			fprintf(stderr, "adapter: set TC_FUZZ_ADAPTER to the adapter .so to fuzz, e.g.\n"
					"  TC_FUZZ_ADAPTER=build/adapters/libtc_reference.so %s\n",
				argv && *argv && **argv ? (*argv)[0] : "adapter");
			exit(1);
		}
	}
	so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	entry = so ? (tc_adapter_entry_fn)(uintptr_t)dlsym(so, TC_ADAPTER_ENTRY) : NULL;
	adapter = entry ? entry() : NULL;
	if (!adapter || adapter->abi_version != TC_ADAPTER_ABI_VERSION || !pick_protocol(0)) {
		fprintf(stderr, "adapter: cannot use %s: %s\n", path,
			!so ? dlerror() : !entry ? "no " TC_ADAPTER_ENTRY : !adapter ? "entry returned NULL"
			: adapter->abi_version != TC_ADAPTER_ABI_VERSION ? "ABI version mismatch"
			: "it declares no protocol of this build");
		return init_failed();
	}
	if (!tc_fuzz_regress_mode)
		fprintf(stderr, "adapter: fuzzing %s (%s %s)\n", path, adapter->name, adapter->version);
	return 0;
}

/* The image regions of the input, as the ABI passes them; their bytes in total. */
static uint64_t to_regions(const struct tc_image *img, struct tc_adapter_region *regions)
{
	uint64_t bytes = 0;
	for (int i = 0; i < img->n; i++) {
		regions[i].base = img->region[i].base;
		regions[i].size = img->region[i].size;
		regions[i].data = img->region[i].data;
		bytes += img->region[i].size;
	}
	return bytes;
}

/* Feeds the trace in chunks, then finish and close. */
static void run_adapter(void *h, const struct tc_fuzz_in *trace, uint8_t chunking)
{
	struct tc_fuzz_chunks c;
	size_t i = 0;
	int rc = 0;
	tc_fuzz_chunks_init(&c, chunking);
	while (i < trace->n && rc >= 0) {
		size_t n = tc_fuzz_chunk_next(&c, trace->n - i);
		rc = adapter->feed(h, trace->p + i, n);
		i += n;
	}
	adapter->finish(h);
	adapter->close(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	union {
		max_align_t align;
		uint8_t bytes[CONFIG_MAX];
	} cfg;
	struct tc_image img;
	struct tc_adapter_region regions[TC_IMAGE_MAX_REGIONS];
	struct tc_adapter_open_args a;
	struct tc_fuzz_in in = { data, size };
	struct run r;
	unsigned declared;
	uint8_t flags, chunking;
	char err[256];
	void *h;
	if (size < 1 || !adapter)
		return 0;
	memset(&r, 0, sizeof r);
	r.proto = pick_protocol(tc_fuzz_u8(&in));
	TC_FUZZ_CHECK(r.proto->config_size <= sizeof cfg.bytes, "%s: configuration of %zu bytes", r.proto->name,
		      r.proto->config_size);
	tc_fuzz_proto_config(r.proto, &in, cfg.bytes);
	flags = tc_fuzz_u8(&in);
	chunking = tc_fuzz_u8(&in);
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, (flags >> 2) & 7, &img);

	r.l1_limit = 64 * ((uint64_t)in.n + 1);
	r.l3_limit = r.l1_limit * (to_regions(&img, regions) / 2 + 8);
	declared = declared_levels(adapter, r.proto->id);
	memset(&a, 0, sizeof a);
	a.abi_version = TC_ADAPTER_ABI_VERSION;
	a.protocol = r.proto->id;
	a.config = cfg.bytes;
	a.config_size = r.proto->config_size;
	a.regions = img.n ? regions : NULL;
	a.nregions = (size_t)img.n;
	a.levels = ((flags & 1 ? tc_level_l1 : 0) | (flags & 2 ? tc_level_l3 : 0)) & declared;
	if (!a.levels)
		a.levels = declared;
	r.levels = a.levels;
	a.ctx = &r;
	a.item = on_item;
	err[0] = '\0';
	h = adapter->open(&a, err, sizeof err);
	if (h)
		run_adapter(h, &in, chunking);
	tc_image_free(&img);
	return 0;
}
