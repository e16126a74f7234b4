/* SPDX-License-Identifier: BSD-3-Clause */
/* loader.c — loads an adapter shared object and checks its table (ABI v2; v1 is refused): in the process that runs it, or for the runner in a child (runchild.c) that reports what the adapter declares. */
#include <dlfcn.h>
#include <signal.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "certify.h"
#include "child.h"
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

/* A tag ending in "-l3" names a feature of a vector's L3 section only. */
static int tag_is_l3(const char *tag)
{
	size_t n = strlen(tag);
	return n > 3 && !strcmp(tag + n - 3, "-l3");
}

static const struct tc_adapter_decl *declared(const struct tc_adapter_info *ad, int protocol)
{
	for (int i = 0; i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == protocol)
			return &ad->protocols[i];
	return NULL;
}

const char *tc_adapter_unsupported(const struct tc_adapter_info *ad, const struct tc_vector *v, int level, char *why,
				   size_t n)
{
	const struct tc_adapter_decl *p = declared(ad, v->proto->id);
	if (!p) {
		snprintf(why, n, "protocol %s", v->proto->name);
		return why;
	}
	if (!(p->levels & (level == 3 ? tc_level_l3 : tc_level_l1))) {
		snprintf(why, n, "%s at L%d", v->proto->name, level);
		return why;
	}
	for (int i = 0; i < p->ntags; i++) {
		if (level != 3 && tag_is_l3(p->tags[i]))
			continue;   /* a feature of the vector's L3 section only (vectors/README.md) */
		if (tc_has_tag(v->tags, p->tags[i])) {
			snprintf(why, n, "feature %s", p->tags[i]);
			return why;
		}
	}
	return NULL;
}

/* ---- Loading in this process ------------------------------------------------ */

/* The entry point, or NULL with a message (naming the ABI v1 entry point
 * when the object has that one). */
static tc_adapter_entry_fn entry_point(void *so, const char *path, char *err, size_t n)
{
	tc_adapter_entry_fn entry;
	*(void **)&entry = dlsym(so, TC_ADAPTER_ENTRY);
	if (entry)
		return entry;
	if (dlsym(so, TC_ADAPTER_ENTRY_V1))
		snprintf(err, n,
			 "adapter '%s' exports %s, the adapter ABI version 1, which this runner no longer supports "
			 "(version 1 knew one protocol, and its item structs changed layout when items got the struct "
			 "tc_item header); rebuild it against tracecert/adapter.h, ABI version %d (%s)",
			 path, TC_ADAPTER_ENTRY_V1, TC_ADAPTER_ABI_VERSION, TC_ADAPTER_ENTRY);
	else
		snprintf(err, n, "adapter '%s' has no symbol %s (adapter ABI version %d)", path, TC_ADAPTER_ENTRY,
			 TC_ADAPTER_ABI_VERSION);
	return NULL;
}

static const struct tc_adapter_protocol *table_entry(const struct tc_adapter *ad, int protocol)
{
	for (size_t i = 0; i < ad->nprotocols; i++)
		if (ad->protocols[i].protocol == protocol)
			return &ad->protocols[i];
	return NULL;
}

/* The table's protocols: at least one, at most one entry per protocol of
 * this build, each with levels L1 and/or L3. */
static int check_protocols(const struct tc_adapter *ad, const char *path, char *err, size_t n)
{
	const unsigned levels = tc_level_l1 | tc_level_l3;
	if (!ad->protocols || ad->nprotocols == 0 || ad->nprotocols > TC_ADAPTER_PROTOCOLS_MAX) {
		snprintf(err, n, "adapter '%s' declares %zu protocols (1..%d)", path, ad->protocols ? ad->nprotocols : 0,
			 TC_ADAPTER_PROTOCOLS_MAX);
		return -1;
	}
	for (size_t i = 0; i < ad->nprotocols; i++) {
		const struct tc_adapter_protocol *p = &ad->protocols[i];
		if (p->levels == 0 || (p->levels & ~levels)) {
			snprintf(err, n, "adapter '%s' declares levels 0x%x for protocol %d; expected tc_level_l1 (0x%x) "
					 "and/or tc_level_l3 (0x%x)",
				 path, p->levels, p->protocol, (unsigned)tc_level_l1, (unsigned)tc_level_l3);
			return -1;
		}
		if (table_entry(ad, p->protocol) != p) {
			snprintf(err, n, "adapter '%s' declares protocol %d twice", path, p->protocol);
			return -1;
		}
	}
	return 0;
}

const struct tc_adapter *tc_adapter_load(const char *path, char *err, size_t n)
{
	return tc_adapter_load_as(path, path, err, n);
}

const struct tc_adapter *tc_adapter_load_as(const char *load, const char *path, char *err, size_t n)
{
	char full[4096];
	void *so;
	tc_adapter_entry_fn entry;
	const struct tc_adapter *ad;
	/* dlopen searches the library path for a bare name: make relative paths explicit */
	snprintf(full, sizeof full, "%s%s", strchr(load, '/') ? "" : "./", load);
	so = dlopen(full, RTLD_NOW | RTLD_LOCAL);
	if (!so) {
		snprintf(err, n, "cannot load adapter '%s': %s", path, dlerror());
		return NULL;
	}
	if (!(entry = entry_point(so, path, err, n)))
		return NULL;
	ad = entry();
	if (!ad) {
		snprintf(err, n, "adapter '%s': %s() returned NULL", path, TC_ADAPTER_ENTRY);
		return NULL;
	}
	if (ad->abi_version != TC_ADAPTER_ABI_VERSION) {
		snprintf(err, n, "adapter '%s' has ABI version %u; this runner speaks %d", path, ad->abi_version,
			 TC_ADAPTER_ABI_VERSION);
		return NULL;
	}
	if (!ad->open || !ad->feed || !ad->finish || !ad->close || !ad->name || !ad->version) {
		snprintf(err, n, "adapter '%s' leaves a required function or name NULL", path);
		return NULL;
	}
	return check_protocols(ad, path, err, n) ? NULL : ad;
}

/* ---- The declaration, read from a child (runchild.c) ---------------------------- */

/* What the runner reads of the declaration. */
struct probe {
	struct tc_adapter_info *info;
	char error[1024];         /* an 'E' frame */
	char setup[TC_LINE_MAX];  /* an 'M' frame before the isolation frame: the child's set-up failed */
	int started;              /* the isolation frame came: the adapter is being loaded */
	unsigned isolation;
	char iso_note[TC_ISO_NOTE_SIZE];
	int done;
};

/* A tag name: 1..TC_ADAPTER_TEXT_MAX bytes, no blank (tags are
 * blank-separated); other bytes cleaned. */
static int take_tag(struct tc_adapter_decl *d, const struct tc_frame *f, char *why, size_t n)
{
	if (d->ntags == TC_ADAPTER_TAGS_MAX) {
		snprintf(why, n, "more than %d unsupported tags for protocol %d", TC_ADAPTER_TAGS_MAX, d->protocol);
		return -1;
	}
	if (f->len == 0 || memchr(f->payload, ' ', f->len)) {
		snprintf(why, n, "an unsupported tag that is empty or holds a blank");
		return -1;
	}
	tc_text_clean(d->tags[d->ntags++], sizeof d->tags[0], f->payload, f->len);
	return 0;
}

/* 'P' "ID LEVELS": a protocol of this build, levels L1 and/or L3, not twice. */
static int take_protocol(struct tc_adapter_info *ad, const struct tc_frame *f, char *why, size_t n)
{
	char buf[64];
	int id;
	unsigned levels;
	char end;
	tc_text_clean(buf, sizeof buf, f->payload, f->len);
	if (sscanf(buf, "%d %u%c", &id, &levels, &end) != 2 || ad->nprotocols == TC_ADAPTER_PROTOCOLS_MAX ||
	    declared(ad, id) || levels == 0 || (levels & ~(unsigned)(tc_level_l1 | tc_level_l3))) {
		snprintf(why, n, "a protocol entry that is malformed or repeated ('%s')", buf);
		return -1;
	}
	memset(&ad->protocols[ad->nprotocols], 0, sizeof ad->protocols[0]);
	ad->protocols[ad->nprotocols].protocol = id;
	ad->protocols[ad->nprotocols++].levels = levels;
	return 0;
}

static int take_probe_frame(void *ctx, const struct tc_frame *f, char *why, size_t n)
{
	struct probe *p = ctx;
	struct tc_adapter_info *ad = p->info;
	if (p->done) {
		snprintf(why, n, "a frame after the end of the declaration");
		return -1;
	}
	if (f->type == 'I')
		return tc_take_isolation(f, &p->started, &p->isolation, p->iso_note, sizeof p->iso_note, why, n);
	if (!p->started && f->type == 'M') {
		tc_text_clean(p->setup, sizeof p->setup, f->payload, f->len);
		return 0;
	}
	if (!p->started) {
		snprintf(why, n, "a frame of type '%c' before the isolation frame", f->type);
		return -1;
	}
	switch (f->type) {
	case 'N': tc_text_clean(ad->name, sizeof ad->name, f->payload, f->len); return 0;
	case 'V': tc_text_clean(ad->version, sizeof ad->version, f->payload, f->len); return 0;
	case 'P': return take_protocol(ad, f, why, n);
	case 'U':
		if (ad->nprotocols > 0)
			return take_tag(&ad->protocols[ad->nprotocols - 1], f, why, n);
		break;
	case 'E': tc_text_clean(p->error, sizeof p->error, f->payload, f->len); return 0;
	case 'D': p->done = 1; return 0;
	default: break;
	}
	snprintf(why, n, "a frame of type '%c' out of place", f->type);
	return -1;
}

/* Why a declaration was not read, from how the child ended. */
static void probe_failure(const char *path, const struct probe *p, const struct tc_child_end *e,
			  const struct tc_limits *lim, char *err, size_t n)
{
	int st = e->status;
	if (!p->started)
		snprintf(err, n, "the process that would load adapter '%s' could not be set up: %s", path,
			 p->setup[0] ? p->setup : e->how == tc_child_deadline ? "it did not start in time"
			 : e->how == tc_child_exited && WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) : "it ended early");
	else if (p->error[0] && e->how == tc_child_exited)
		snprintf(err, n, "%s", p->error);
	else if (e->how == tc_child_deadline)
		snprintf(err, n, "adapter '%s' did not load within %u s (its constructor or entry point hangs)", path,
			 lim->timeout_s);
	else if (e->how == tc_child_flood || e->how == tc_child_malformed)
		snprintf(err, n, "adapter '%s' sent a malformed declaration while loading: %s", path,
			 e->how == tc_child_flood ? "over the output limit" : e->why);
	else if (e->how == tc_child_exited && WIFSIGNALED(st))
		snprintf(err, n, "adapter '%s' crashed while loading (signal %d, %s): in its constructor or entry point",
			 path, WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (e->how == tc_child_exited)
		snprintf(err, n, "adapter '%s' ended the process loading it (exit status %d) before declaring what it "
				 "decodes: its constructor or entry point exits",
			 path, WEXITSTATUS(st));
	else
		snprintf(err, n, "adapter '%s' could not be loaded: %s", path, e->why[0] ? e->why : "memory limit");
	if (e->output_bytes > 0 && strlen(err) + 40 < n)
		snprintf(err + strlen(err), n - strlen(err), "; its output began: '%.*s'", (int)(n - strlen(err) - 40),
			 e->output);
}

int tc_adapter_probe(const struct tc_run_env *env, const struct tc_limits *lim, struct tc_adapter_info *info,
		     char *err, size_t n)
{
	struct tc_child c;
	struct tc_child_end e;
	struct probe *p = calloc(1, sizeof *p);
	int in = -1, rc = -1;
	memset(info, 0, sizeof *info);
	info->path = env->shown;
	if (!p) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	p->info = info;
	if ((in = tc_run_inputs(env, lim, err, n)) < 0)
		goto out;
	if (tc_frame_puts(in, 'm', "probe") != 0 || tc_frame_puts(in, 'z', "") != 0) {
		snprintf(err, n, "runner could not write the inputs of a child");
		goto out;
	}
	if (tc_child_start(&c, lim, in, err, n))
		goto out;
	tc_child_finish(&c, lim, take_probe_frame, p, &e);
	info->isolation = p->isolation;
	snprintf(info->iso_note, sizeof info->iso_note, "%s", p->iso_note);
	if (e.how == tc_child_exited && WIFEXITED(e.status) && WEXITSTATUS(e.status) == 0 && p->done &&
	    info->nprotocols > 0) {
		rc = 0;
	} else if (!p->started && p->setup[0] && e.how == tc_child_exited && WIFEXITED(e.status) &&
		   WEXITSTATUS(e.status) == TC_CHILD_REFUSED) {
		snprintf(err, n, "%s", p->setup);   /* "not isolated: ..." */
		rc = 1;
	} else {
		probe_failure(env->shown, p, &e, lim, err, n);
	}
out:
	if (in >= 0)
		close(in);
	free(p);
	return rc;
}
