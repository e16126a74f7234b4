/* sandbox.c — runs an adapter over one vector in a child process (conformance/child.c) that loads it, and takes back what it decoded as frames. */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "runner.h"
#include "tracecert/adapter.h"

/* ---- The child -------------------------------------------------------------- */

/* The child sends one frame per item: '1' TEXT (L1), '3' TEXT (L3), 'e'
 * "CLASS OFFSET" (an L1 error, for the error list); 'M' a message about the
 * run (why it failed), 'F' the item flood, 'D' after close(). Exit status 0
 * after 'D'; 4: the adapter failed; 6: a malformed item; 7: the item flood.
 * The child is the adapter's: the runner trusts none of it but the frames'
 * text, cleaned, as the adapter's output. */
struct child {
	const struct tc_adapter_info *info;
	const struct tc_vector *v;
	const struct tc_limits *lim;
	int level;                         /* tc_level_l1 or tc_level_l3: what this run asked for */
	const struct tc_protocol *proto;   /* the vector's */
	unsigned long items;               /* item() calls so far, warnings included */
};

/* A frame, or the end (the runner reads a short output as a crash). */
static void send_frame(char type, const char *text)
{
	if (tc_frame_write(TC_CHILD_FRAMES_FD, type, text, strnlen(text, TC_FRAME_MAX)) != 0)
		_exit(3);
}

/* What an item must be before anything of it is read beyond its header:
 * the level asked for, the protocol opened, the size of that protocol's
 * record at that level, a kind in range, an error class the protocol
 * names. 0, or -1 with why. */
static int check_item(const struct child *c, int level, const struct tc_item *it, char *why, size_t n)
{
	size_t want = level == tc_level_l3 ? sizeof(struct tc_l3) : c->proto->l1_size;
	unsigned kinds = level == tc_level_l3 ? tc_l3_kind_count : (unsigned)c->proto->l1_kinds;
	int cls;
	if (!it) {
		snprintf(why, n, "a NULL item at level %d", level);
		return -1;
	}
	if (level != c->level) {
		snprintf(why, n, "an item at level %d in a run that asked for level %d (enum tc_level)", level, c->level);
		return -1;
	}
	if (it->protocol != c->proto->id) {
		snprintf(why, n, "protocol %u in a run of protocol %d (%s)", (unsigned)it->protocol, c->proto->id,
			 c->proto->name);
		return -1;
	}
	if (it->size != want) {
		snprintf(why, n, "size %u; a %s %s item is %zu bytes", (unsigned)it->size, c->proto->name,
			 level == tc_level_l3 ? "L3" : "L1", want);
		return -1;
	}
	if (it->kind >= kinds) {
		snprintf(why, n, "kind %u; %s %s kinds are 0..%u", (unsigned)it->kind, c->proto->name,
			 level == tc_level_l3 ? "L3" : "L1", kinds - 1);
		return -1;
	}
	cls = c->proto->item_error(level, it);
	if (cls < 0 || cls >= c->proto->nerrors) {
		snprintf(why, n, "error class %d; %s has classes 0..%d", cls, c->proto->name, c->proto->nerrors - 1);
		return -1;
	}
	return 0;
}

/* The runner's item callback: counted, checked, then formatted through the
 * protocol's descriptor; warnings are dropped (never scored). */
static void child_item(void *ctx, int level, const struct tc_item *it)
{
	struct child *c = ctx;
	char buf[TC_LINE_MAX], why[256];
	int cls;
	if (++c->items > c->lim->items) {
		snprintf(buf, sizeof buf, "more than %lu items (item() calls, warnings included)", c->lim->items);
		send_frame('F', buf);
		_exit(7);
	}
	if (check_item(c, level, it, why, sizeof why)) {
		snprintf(buf, sizeof buf, "malformed item: %s", why);
		send_frame('M', buf);
		_exit(6);
	}
	if (c->proto->item_is_warning(level, it))
		return;
	if (level == tc_level_l3) {
		tc_l3_format(buf, sizeof buf, (const struct tc_l3 *)it, c->proto->error_names, c->proto->nerrors);
		send_frame('3', buf);
		return;
	}
	c->proto->format(buf, sizeof buf, level, it);
	send_frame('1', buf);
	cls = c->proto->item_error(level, it);
	if (cls > 0) {
		snprintf(buf, sizeof buf, "%s %llu", c->proto->error_names[cls], (unsigned long long)it->offset);
		send_frame('e', buf);
	}
}

/* The vector's image as the adapter's region table, as long as the vector's. */
static struct tc_adapter_region *region_table(const struct tc_vector *v)
{
	struct tc_adapter_region *r = calloc(v->image.n > 0 ? (size_t)v->image.n : 1, sizeof *r);
	for (int i = 0; r && i < v->image.n; i++) {
		r[i].base = v->image.region[i].base;
		r[i].size = v->image.region[i].size;
		r[i].data = v->image.region[i].data;
	}
	return r;
}

static void fail(const char *what, const char *text)
{
	char buf[TC_LINE_MAX];
	snprintf(buf, sizeof buf, "%s%s", what, text);
	send_frame('M', buf);
	_exit(4);
}

/* The trace goes to feed() in pieces of 1, 2, ..., TC_FEED_PIECE_MAX bytes in
 * turn (adapter.h: feed() may be called with any chunking), so a packet is cut
 * at many different points and a decoder that loses a packet's first bytes
 * when the rest comes in the next call fails the vector. */
static int feed_in_pieces(const struct tc_adapter *ad, void *h, const uint8_t *trace, size_t len)
{
	size_t done = 0, piece = 1;
	while (done < len) {
		size_t n = len - done < piece ? len - done : piece;
		if (ad->feed(h, trace + done, n) < 0)
			return -1;
		done += n;
		piece = piece == TC_FEED_PIECE_MAX ? 1 : piece + 1;
	}
	return 0;
}

/* The child: load, open, feed, finish, close. */
static void run_child(void *arg)
{
	struct child *c = arg;
	const struct tc_vector *v = c->v;
	struct tc_adapter_open_args args;
	char err[512] = "";
	const struct tc_adapter *ad = tc_adapter_load(c->info->path, err, sizeof err);
	void *h;
	if (!ad)
		fail("", err);
	memset(&args, 0, sizeof args);
	if (!(args.regions = region_table(v)))
		fail("", "out of memory for the image's region table");
	args.abi_version = TC_ADAPTER_ABI_VERSION;
	args.protocol = v->proto->id;
	args.config = v->config;
	args.config_size = v->proto->config_size;
	args.nregions = (size_t)v->image.n;
	args.levels = (unsigned)c->level;
	args.ctx = c;
	args.item = child_item;
	if (!(h = ad->open(&args, err, sizeof err))) {
		err[sizeof err - 1] = '\0';   /* whatever the adapter left in it */
		fail("open failed: ", err[0] ? err : "(no message)");
	}
	if (feed_in_pieces(ad, h, v->trace, v->trace_len) < 0)
		fail("feed failed", "");
	if (ad->finish(h) < 0)
		fail("finish failed", "");
	ad->close(h);
	send_frame('D', "");
	_exit(0);
}

/* ---- The runner's side ------------------------------------------------------- */

/* What the frames said. */
struct taken {
	struct tc_run_output *out;
	const struct tc_limits *lim;
	unsigned long lines;
	int done;
	int flood;                /* an 'F' frame */
	char msg[TC_LINE_MAX];    /* the last 'M' or 'F' frame */
};

static int take_run_frame(void *ctx, const struct tc_frame *f, char *why, size_t n)
{
	struct taken *k = ctx;
	char line[TC_LINE_MAX];
	tc_text_clean(line, sizeof line, f->payload, f->len);
	if (k->done || (++k->lines > k->lim->items && f->type != 'F')) {
		snprintf(why, n, k->done ? "a frame after the end of the run" : "more than %lu item frames",
			 k->lim->items);
		return -1;
	}
	switch (f->type) {
	case '1': tc_lines_add(&k->out->l1, line); return 0;
	case '3': tc_lines_add(&k->out->l3, line); return 0;
	case 'e': tc_lines_add(&k->out->errs, line); return 0;
	case 'M': snprintf(k->msg, sizeof k->msg, "%s", line); return 0;
	case 'F': snprintf(k->msg, sizeof k->msg, "%s", line); k->flood = 1; return 0;
	case 'D': k->done = 1; return 0;
	default: snprintf(why, n, "a frame of unknown type '%c'", f->type); return -1;
	}
}

/* How much the child wrote to stdout and stderr, when it wrote any: its
 * text never reaches the TAP stream or the certificates. */
static void diag_output(struct tc_task *t, const struct tc_child_end *e)
{
	if (e->output_bytes > 0)
		tc_task_diag(t, "  output_bytes: %llu\n", e->output_bytes);
}

/* A run that did not end normally: its verdict and why. */
static void classify_abnormal(struct tc_task *t, const struct tc_child_end *e, const struct taken *k,
			      const struct tc_limits *lim)
{
	int st = e->status;
	char msg[TC_LINE_MAX + 64];
	if (e->how == tc_child_deadline) {
		t->verdict = tc_v_hang;
		snprintf(msg, sizeof msg, "no end within %u s of wall-clock time (killed)", lim->timeout_s);
	} else if (e->how == tc_child_flood || k->flood || e->how == tc_child_memory) {
		t->verdict = e->how == tc_child_memory ? tc_v_crash : tc_v_flood;
		snprintf(msg, sizeof msg, "%s", e->how == tc_child_memory ? "resident memory over the limit (killed)"
					 : k->flood ? k->msg : "output over the size limit (killed)");
	} else if (e->how == tc_child_malformed) {
		t->verdict = tc_v_malformed;
		snprintf(msg, sizeof msg, "the run's messages are malformed: %s (none trusted)", e->why);
	} else if (e->how == tc_child_lost) {
		t->verdict = tc_v_runner;
		snprintf(msg, sizeof msg, "runner could not watch the child: %s", e->why);
	} else if (WIFSIGNALED(st)) {
		t->verdict = WTERMSIG(st) == SIGXCPU ? tc_v_hang : tc_v_crash;
		snprintf(msg, sizeof msg, "child killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	} else {
		t->verdict = tc_v_error;
		snprintf(msg, sizeof msg, "%s", k->msg[0] ? k->msg : "adapter ended without finishing");
	}
	tc_task_diag_quoted(t, "message", msg);
	diag_output(t, e);
}

int tc_sandbox_run(const struct tc_adapter_info *ad, const struct tc_vector *v, struct tc_task *t,
		   const struct tc_limits *lim, struct tc_run_output *out, void (*started)(void *ctx, int pgid),
		   void *ctx)
{
	struct child c = { ad, v, lim, t->level == 3 ? tc_level_l3 : tc_level_l1, v->proto, 0 };
	struct taken k;
	struct tc_child ch;
	struct tc_child_end e;
	char why[256];
	memset(out, 0, sizeof *out);
	memset(&k, 0, sizeof k);
	k.out = out;
	k.lim = lim;
	if (tc_child_start(&ch, lim, run_child, &c, why, sizeof why)) {
		t->verdict = tc_v_runner;
		tc_task_diag_quoted(t, "message", why);
		return 0;
	}
	if (started)
		started(ctx, (int)ch.pid);
	tc_child_finish(&ch, lim, take_run_frame, &k, &e);
	if (e.how == tc_child_exited && WIFEXITED(e.status) && WEXITSTATUS(e.status) == 0 && k.done)
		return 1;
	classify_abnormal(t, &e, &k, lim);
	return 0;
}

void tc_run_output_free(struct tc_run_output *out)
{
	tc_lines_free(&out->l1);
	tc_lines_free(&out->l3);
	tc_lines_free(&out->errs);
}
