/* loader.c — loads an adapter shared object, checks its table, and answers what it declares it supports. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "certify.h"
#include "runner.h"
#include "tracecert/adapter.h"

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

int tc_adapter_unsupported(const struct tc_adapter *ad, const struct tc_vector *v, int level)
{
	unsigned bit = level == 1 ? tc_adapter_l1 : tc_adapter_l3;
	if (!(ad->levels & bit) || !(ad->protocols & tc_adapter_ete) || v->proto->id != tc_proto_ete)
		return 1;
	for (const char *const *u = ad->unsupported_tags; u && *u; u++)
		if (tc_has_tag(v->tags, *u))
			return 1;
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
	*(void **)&entry = dlsym(so, TC_ADAPTER_ENTRY);
	if (!entry) {
		fprintf(stderr, "tracecert certify: adapter '%s' has no symbol %s\n", path, TC_ADAPTER_ENTRY);
		return NULL;
	}
	ad = entry();
	if (!ad) {
		fprintf(stderr, "tracecert certify: adapter '%s': %s() returned NULL\n", path, TC_ADAPTER_ENTRY);
		return NULL;
	}
	if (ad->abi_version != TC_ADAPTER_ABI_VERSION) {
		fprintf(stderr, "tracecert certify: adapter '%s' has ABI version %u; this runner speaks %u\n", path,
			ad->abi_version, TC_ADAPTER_ABI_VERSION);
		return NULL;
	}
	if (!ad->open || !ad->feed || !ad->finish || !ad->close || !ad->name || !ad->version) {
		fprintf(stderr, "tracecert certify: adapter '%s' leaves a required function or name NULL\n", path);
		return NULL;
	}
	return ad;
}
