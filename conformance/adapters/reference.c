/* reference.c — the reference decoder as an adapter: the complete example of tracecert/adapter.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/adapter.h"
#include "tracecert/image.h"

/* One open decoder: the reference decoder, its image, and the runner's callbacks. */
struct ref_handle {
	struct tc_ete_decoder *dec;
	struct tc_image image;
	struct tc_adapter_callbacks cb;
};

static void on_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct ref_handle *h = ctx;
	if (h->cb.packet)
		h->cb.packet(h->cb.ctx, p);
}

static void on_l3(void *ctx, const struct tc_l3 *x)
{
	struct ref_handle *h = ctx;
	if (h->cb.l3)
		h->cb.l3(h->cb.ctx, x);
}

static void ref_close(void *handle)
{
	struct ref_handle *h = handle;
	if (!h)
		return;
	tc_ete_free(h->dec);
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

static void *ref_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct ref_handle *h;
	struct tc_ete_sink sink;
	if (!a || a->protocol != tc_adapter_ete || !a->ete) {
		snprintf(err, errlen, "only the ETE protocol is supported");
		return NULL;
	}
	h = calloc(1, sizeof *h);
	if (!h) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	h->cb = a->cb;
	if (load_regions(h, a, err, errlen)) {
		ref_close(h);
		return NULL;
	}
	memset(&sink, 0, sizeof sink);
	sink.ctx = h;
	sink.packet = (a->levels & tc_adapter_l1) ? on_packet : NULL;
	sink.l3 = (a->levels & tc_adapter_l3) ? on_l3 : NULL;
	h->dec = tc_ete_alloc(a->ete, &sink);
	if (!h->dec) {
		snprintf(err, errlen, "invalid configuration");
		ref_close(h);
		return NULL;
	}
	tc_ete_set_image(h->dec, &h->image);
	return h;
}

static int ref_feed(void *handle, const uint8_t *data, size_t len)
{
	struct ref_handle *h = handle;
	return tc_ete_feed(h->dec, data, len);
}

static int ref_finish(void *handle)
{
	struct ref_handle *h = handle;
	return tc_ete_finish(h->dec);
}

static const struct tc_adapter reference_adapter = {
	TC_ADAPTER_ABI_VERSION,
	"reference",
	"tracecert 0.1.0",
	tc_adapter_ete,
	tc_adapter_l1 | tc_adapter_l3,
	NULL,
	ref_open,
	ref_feed,
	ref_finish,
	ref_close,
};

const struct tc_adapter *tracecert_adapter_v1(void)
{
	return &reference_adapter;
}
