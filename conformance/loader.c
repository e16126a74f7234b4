/* loader.c — loads an adapter shared object, checks its table (ABI v2; v1 is refused), and answers what it declares it supports. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "certify.h"
#include "runner.h"
#include "tracecert/adapter.h"

/* The entry point of the adapter ABI that is no longer supported. */
#define TC_ADAPTER_ENTRY_V1 "tracecert_adapter_v1"

int tc_has_tag(const char *tags, const char *tag)
{
	size_t n = strlen(tag);
	if (n == 0)
		return 0;
	for (const char *p = tags; (p = strstr(p, tag)) != NULL; p += n)
		if ((p == tags || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
			return 1;
	return 0;
}

static const struct tc_adapter_protocol *declared(const struct tc_adapter *ad, int protocol)
{
	for (size_t i = 0; i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == protocol)
			return &ad->protocols[i];
	return NULL;
}

const char *tc_adapter_unsupported(const struct tc_adapter *ad, const struct tc_vector *v, int level, char *why,
				   size_t n)
{
	const struct tc_adapter_protocol *p = declared(ad, v->proto->id);
	if (!p) {
		snprintf(why, n, "protocol %s", v->proto->name);
		return why;
	}
	if (!(p->levels & (level == 3 ? tc_level_l3 : tc_level_l1))) {
		snprintf(why, n, "%s at L%d", v->proto->name, level);
		return why;
	}
	for (const char *const *u = p->unsupported_tags; u && *u; u++) {
		if (tc_has_tag(v->tags, *u)) {
			snprintf(why, n, "feature %s", *u);
			return why;
		}
	}
	return NULL;
}

/* The entry point, or NULL with a message (naming the ABI v1 entry point
 * when the object has that one). */
static tc_adapter_entry_fn entry_point(void *so, const char *path)
{
	tc_adapter_entry_fn entry;
	*(void **)&entry = dlsym(so, TC_ADAPTER_ENTRY);
	if (entry)
		return entry;
	if (dlsym(so, TC_ADAPTER_ENTRY_V1))
		fprintf(stderr,
			"tracecert certify: adapter '%s' exports %s, the adapter ABI version 1, which this runner no "
			"longer supports (version 1 knew one protocol, and its item structs changed layout when items got the struct tc_item header); "
			"rebuild it against tracecert/adapter.h, ABI version %d (%s)\n",
			path, TC_ADAPTER_ENTRY_V1, TC_ADAPTER_ABI_VERSION, TC_ADAPTER_ENTRY);
	else
		fprintf(stderr, "tracecert certify: adapter '%s' has no symbol %s (adapter ABI version %d)\n", path,
			TC_ADAPTER_ENTRY, TC_ADAPTER_ABI_VERSION);
	return NULL;
}

/* The table's protocols: at least one, each with levels L1 and/or L3. */
static int check_protocols(const struct tc_adapter *ad, const char *path)
{
	const unsigned levels = tc_level_l1 | tc_level_l3;
	if (!ad->protocols || ad->nprotocols == 0) {
		fprintf(stderr, "tracecert certify: adapter '%s' declares no protocol\n", path);
		return -1;
	}
	for (size_t i = 0; i < ad->nprotocols; i++) {
		const struct tc_adapter_protocol *p = &ad->protocols[i];
		if (p->levels == 0 || (p->levels & ~levels)) {
			fprintf(stderr, "tracecert certify: adapter '%s' declares levels 0x%x for protocol %d; "
					"expected tc_level_l1 (0x%x) and/or tc_level_l3 (0x%x)\n",
				path, p->levels, p->protocol, (unsigned)tc_level_l1, (unsigned)tc_level_l3);
			return -1;
		}
		if (declared(ad, p->protocol) != p) {
			fprintf(stderr, "tracecert certify: adapter '%s' declares protocol %d twice\n", path, p->protocol);
			return -1;
		}
	}
	return 0;
}

/* Loads and checks an adapter; NULL with a message on failure. */
const struct tc_adapter *tc_adapter_load(const char *path)
{
	char full[4096];
	void *so;
	tc_adapter_entry_fn entry;
	const struct tc_adapter *ad;
	/* dlopen searches the library path for a bare name: make relative paths explicit */
	snprintf(full, sizeof full, "%s%s", strchr(path, '/') ? "" : "./", path);
	so = dlopen(full, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		fprintf(stderr, "tracecert certify: cannot load adapter '%s': %s\n", path, dlerror());
		return NULL;
	}
	if (!(entry = entry_point(so, path)))
		return NULL;
	ad = entry();
	if (!ad) {
		fprintf(stderr, "tracecert certify: adapter '%s': %s() returned NULL\n", path, TC_ADAPTER_ENTRY);
		return NULL;
	}
	if (ad->abi_version != TC_ADAPTER_ABI_VERSION) {
		fprintf(stderr, "tracecert certify: adapter '%s' has ABI version %u; this runner speaks %d\n", path,
			ad->abi_version, TC_ADAPTER_ABI_VERSION);
		return NULL;
	}
	if (!ad->open || !ad->feed || !ad->finish || !ad->close || !ad->name || !ad->version) {
		fprintf(stderr, "tracecert certify: adapter '%s' leaves a required function or name NULL\n", path);
		return NULL;
	}
	return check_protocols(ad, path) ? NULL : ad;
}
