/* SPDX-License-Identifier: BSD-3-Clause */
/* reference.c — the reference decoder as an adapter for every protocol of the build: the complete example of tracecert/adapter.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/adapter.h"
#include "tracecert/image.h"
#include "tracecert/protocol.h"
#include "tracecert/build.h"

/* One open decoder: the protocol's reference decoder, its image, and the runner's callback. */
struct ref_handle {
	const struct tc_protocol *proto;
	void *dec;
	struct tc_image image;
	void *ctx;
	void (*item)(void *ctx, int level, const struct tc_item *item);
};

/* The decoder's items go to the runner as they are: they are the
 * protocol's records (L1) and struct tc_l3 (L3), headers filled. */
static void on_item(void *ctx, int level, const struct tc_item *item)
{
	struct ref_handle *h = ctx;
	h->item(h->ctx, level, item);
}

static void ref_close(void *handle)
{
	struct ref_handle *h = handle;
	if (!h)
		return;
	if (h->dec)
		h->proto->free(h->dec);
	tc_image_free(&h->image);
	free(h);
}

/* Copies the runner's regions into an image the decoder reads. */
static int load_regions(struct ref_handle *h, const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	for (size_t i = 0; i < a->nregions; i++) {
		int rc = tc_image_add(&h->image, a->regions[i].base, a->regions[i].data, (size_t)a->regions[i].size);
		if (rc) {
			snprintf(err, errlen, "region %zu at 0x%llx: %s", i, (unsigned long long)a->regions[i].base,
				 tc_image_strerror(rc));
			return -1;
		}
	}
	return 0;
}

/* The protocol and its configuration: 0, or -1 with err. */
static int check_args(const struct tc_adapter_open_args *a, const struct tc_protocol *p, char *err, size_t errlen)
{
	if (!a || !p) {
		snprintf(err, errlen, "protocol %d is not one of this build", a ? a->protocol : -1);
		return -1;
	}
	if (!a->item || !a->config || a->config_size != p->config_size) {
		snprintf(err, errlen, "%s configuration of %zu bytes; this adapter was built with %zu", p->name,
			 a->config ? a->config_size : 0, p->config_size);
		return -1;
	}
	if (a->nregions > 0 && !a->regions) {
		snprintf(err, errlen, "no region table for %zu regions", a->nregions);
		return -1;
	}
	return p->config_check(a->config, err, errlen);
}

static void *ref_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	const struct tc_protocol *p = a ? tc_protocol_by_id(a->protocol) : NULL;
	struct ref_handle *h;
	struct tc_sink sink;
	if (check_args(a, p, err, errlen))
		return NULL;
	h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->proto = p;
	h->ctx = a->ctx;
	h->item = a->item;
	if (load_regions(h, a, err, errlen)) {
		ref_close(h);
		return NULL;
	}
	memset(&sink, 0, sizeof sink);
	sink.ctx = h;
	sink.levels = a->levels & (tc_level_l1 | tc_level_l3);
	sink.item = on_item;
	h->dec = p->alloc(a->config, &sink);
	if (!h->dec || p->set_image(h->dec, &h->image)) {
		snprintf(err, errlen, "%s: invalid configuration, or out of memory", p->name);
		ref_close(h);
		return NULL;
	}
	return h;
}

static int ref_feed(void *handle, const uint8_t *data, size_t len)
{
	struct ref_handle *h = handle;
	return h->proto->feed(h->dec, data, len);
}

static int ref_finish(void *handle)
{
	struct ref_handle *h = handle;
	return h->proto->finish(h->dec);
}

/* The protocols of the build (PROTOCOLS in GNUmakefile), every one at L1
 * and L3, and the version: tracecert/build.h, which the build generates
 * (tools/gen-protocols.sh --build-header) and `make install` installs. */
static const struct tc_adapter_protocol ref_protocols[] = TC_BUILD_PROTOCOL_TABLE;

static const struct tc_adapter reference_adapter = {
	TC_ADAPTER_ABI_VERSION,
	"reference",
	"tracecert " TC_BUILD_VERSION,
	ref_protocols,
	sizeof ref_protocols / sizeof ref_protocols[0],
	ref_open,
	ref_feed,
	ref_finish,
	ref_close,
};

const struct tc_adapter *tracecert_adapter_v2(void)
{
	return &reference_adapter;
}
