/* adapter.c — fuzz harness for any decoder wrapped as a tracecert adapter (TC_FUZZ_ADAPTER=path/to/adapter.so).
 *
 * Property: the adapter (conformance/include/tracecert/adapter.h) takes any
 * configuration, program image, chunking and byte string without crashing
 * or hanging — libFuzzer/AFL++ catch those in process, and the sanitizers
 * catch memory errors in the adapter when it is built with them (see
 * fuzz/README.md) — and its output is bounded, as certify requires: at most
 * 64·(len+1) L1 packets and 64·(len+1)·(image bytes/2 + 8) L3 items. Every
 * item goes through the canonical formatter, as certify does with adapter
 * output. Open, feed and finish may fail (a per-vector "adapter error",
 * never a finding); after a failed feed the harness still calls finish and
 * close.
 *
 * Input: bytes 0–2 the configuration (fuzz.h tc_fuzz_config); byte 3
 * flags: bit 0 ask for L1, bit 1 ask for L3 (neither: what the adapter
 * supports), bits 4:2 number of image regions, 0–7 (fuzz.h
 * tc_fuzz_read_regions); byte 4 walk_limit; byte 5 chunking
 * (tc_fuzz_chunks_init); then the regions, then the trace.
 */
#define _DEFAULT_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tracecert/adapter.h"

#define HDR (TC_FUZZ_CFG_BYTES + 3)

static const struct tc_adapter *adapter;

struct run {
	uint64_t l1, l3, l1_limit, l3_limit;
	unsigned levels;
};

/* Each item: the level asked for, ETE's record of that level (the checks
 * certify makes before formatting), then the canonical text. */
static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct run *r = ctx;
	char buf[TC_FUZZ_LINE];
	int l3 = level == tc_level_l3;
	TC_FUZZ_CHECK((level == tc_level_l1 || l3) && (r->levels & (unsigned)level), "adapter %s: an item at level %d",
		      adapter->name, level);
	TC_FUZZ_CHECK(item->protocol == tc_proto_ete &&
		      item->size == (l3 ? sizeof(struct tc_l3) : sizeof(struct tc_ete_packet)) &&
		      item->kind < (l3 ? tc_l3_kind_count : tc_ete_pkt_count),
		      "adapter %s: malformed L%d item (protocol %u, size %u, kind %u)", adapter->name, l3 ? 3 : 1,
		      (unsigned)item->protocol, (unsigned)item->size, (unsigned)item->kind);
	if (l3) {
		r->l3++;
		TC_FUZZ_CHECK(r->l3 <= r->l3_limit, "adapter %s: flood: more than %llu L3 items", adapter->name,
			      (unsigned long long)r->l3_limit);
		tc_ete_format_l3(buf, sizeof buf, (const struct tc_l3 *)item);
	} else {
		r->l1++;
		TC_FUZZ_CHECK(r->l1 <= r->l1_limit, "adapter %s: flood: more than %llu L1 packets", adapter->name,
			      (unsigned long long)r->l1_limit);
		tc_ete_format_packet(buf, sizeof buf, (const struct tc_ete_packet *)item);
	}
}

/* The levels the adapter declares for ETE (0: none). */
static unsigned ete_levels(const struct tc_adapter *ad)
{
	for (size_t i = 0; ad->protocols && i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == tc_proto_ete)
			return ad->protocols[i].levels & (tc_level_l1 | tc_level_l3);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("TC_FUZZ_ADAPTER");
	void *so;
	tc_adapter_entry_fn entry;
	(void)argc;
	(void)argv;
	if (!path || !*path) {
		if (tc_fuzz_regress_mode)
			path = "build/adapters/libtc_reference.so";
		else {
			fprintf(stderr, "adapter: set TC_FUZZ_ADAPTER to the adapter .so to fuzz, e.g.\n"
					"  TC_FUZZ_ADAPTER=build/adapters/libtc_reference.so %s\n",
				argv && *argv && **argv ? (*argv)[0] : "adapter");
			exit(1);
		}
	}
	so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	entry = so ? (tc_adapter_entry_fn)(uintptr_t)dlsym(so, TC_ADAPTER_ENTRY) : NULL;
	adapter = entry ? entry() : NULL;
	if (!adapter || adapter->abi_version != TC_ADAPTER_ABI_VERSION || !ete_levels(adapter)) {
		fprintf(stderr, "adapter: cannot use %s: %s\n", path,
			!so ? dlerror() : !entry ? "no " TC_ADAPTER_ENTRY : !adapter ? "entry returned NULL"
			: adapter->abi_version != TC_ADAPTER_ABI_VERSION ? "ABI version mismatch" : "no ETE support");
		adapter = NULL;
		if (tc_fuzz_regress_mode)
			return -1;
		exit(1);
	}
	if (!tc_fuzz_regress_mode)
		fprintf(stderr, "adapter: fuzzing %s (%s %s)\n", path, adapter->name, adapter->version);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tc_ete_config cfg;
	struct tc_image img;
	struct tc_adapter_region regions[TC_IMAGE_MAX_REGIONS];
	struct tc_adapter_open_args a;
	struct tc_fuzz_in in;
	struct run r;
	uint64_t image_bytes = 0;
	uint8_t flags;
	char err[256];
	void *h;
	int rc;
	if (size < HDR || !adapter)
		return 0;
	tc_fuzz_config(data, &cfg);
	flags = data[TC_FUZZ_CFG_BYTES];
	cfg.walk_limit = data[TC_FUZZ_CFG_BYTES + 1];
	in.p = data + HDR;
	in.n = size - HDR;
	memset(&img, 0, sizeof img);
	tc_fuzz_read_regions(&in, (flags >> 2) & 7, &img);
	for (int i = 0; i < img.n; i++) {
		regions[i].base = img.region[i].base;
		regions[i].size = img.region[i].size;
		regions[i].data = img.region[i].data;
		image_bytes += img.region[i].size;
	}

	memset(&r, 0, sizeof r);
	r.l1_limit = 64 * ((uint64_t)in.n + 1);
	r.l3_limit = r.l1_limit * (image_bytes / 2 + 8);
	memset(&a, 0, sizeof a);
	a.abi_version = TC_ADAPTER_ABI_VERSION;
	a.protocol = tc_proto_ete;
	a.config = &cfg;
	a.config_size = sizeof cfg;
	a.regions = img.n ? regions : NULL;
	a.nregions = (size_t)img.n;
	a.levels = (flags & 1 ? tc_level_l1 : 0) | (flags & 2 ? tc_level_l3 : 0);
	a.levels &= ete_levels(adapter);
	if (!a.levels)
		a.levels = ete_levels(adapter);
	r.levels = a.levels;
	a.ctx = &r;
	a.item = on_item;
	err[0] = '\0';
	h = adapter->open(&a, err, sizeof err);
	if (h) {
		struct tc_fuzz_chunks c;
		size_t i = 0;
		tc_fuzz_chunks_init(&c, data[TC_FUZZ_CFG_BYTES + 2]);
		rc = 0;
		while (i < in.n && rc >= 0) {
			size_t n = tc_fuzz_chunk_next(&c, in.n - i);
			rc = adapter->feed(h, in.p + i, n);
			i += n;
		}
		adapter->finish(h);
		adapter->close(h);
	}
	tc_image_free(&img);
	return 0;
}
