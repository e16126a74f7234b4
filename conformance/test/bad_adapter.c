/* SPDX-License-Identifier: BSD-3-Clause */
/* bad_adapter.c — deliberately misbehaving adapters: the runner must classify each and go on.
 * Built once per BAD_KIND: crash, hang, flood, abi (wrong version), nosym (no entry point),
 * openfail, feedfail, nofinish (exits in finish without saying done), abort (SIGABRT), wrong,
 * v1 (exports only the ABI v1 entry point), badsize / badproto / badkind (a malformed item),
 * ptmonly (declares PTM only). All but ptmonly declare ETE at L1 only.
 * Hostile ones (tests/hostile.t): ctor (crashes in its constructor), entryexit (exit(0) in the entry
 * point), closesleep (closes every descriptor and sleeps), daemon (a setsid() grandchild that
 * creates $TC_BAD_MARKER a second later), stdout (4 MiB of TAP-looking lines on stdout and
 * stderr), forge (writes forged frames to every descriptor, then exits 0), warnflood (endless
 * warning items, which the runner drops), noterm (name, version and open() error text without a
 * NUL terminator), markup (name and version with Markdown, control characters and invalid UTF-8; an open error with Markdown, XML markup, control characters, U+FFFE and invalid UTF-8),
 * hog (allocates and touches memory until malloc fails, then aborts), rewrite (rewrites every
 * *.tcv in $TC_BAD_VECTORS to expect its one A-sync, then reports it), killer (SIGKILL to each
 * ancestor that is tracecert — its parent up to the runner — then one A-sync), forkhog (four
 * children of 64 MiB each, touched, then one A-sync after 3 s), forkbomb (forks up to 300 children
 * that wait, then one A-sync), forgecert (as it is loaded, in every process that loads it: writes a
 * certificate pair scoring 100% into $TC_BAD_REPORT, makes that folder read-only and kills its
 * tracecert ancestors, as killer does), swap (as it is loaded: renames the folder above
 * $TC_BAD_REPORT aside and builds a new one at its path holding a forged pair, read-only). These
 * leave what they achieved in $TC_BAD_MARKER_DIR: "rewrote", "killed" (a line per process it
 * signalled), "forks" (how many forks succeeded), "forged", "swapped".
 * conformance/test/oracle_adapter.c is another. Every hostile kind fails every vector it runs. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
#define KIND_CTOR 16
#define KIND_ENTRYEXIT 17
#define KIND_CLOSESLEEP 18
#define KIND_DAEMON 19
#define KIND_STDOUT 20
#define KIND_FORGE 21
#define KIND_WARNFLOOD 22
#define KIND_NOTERM 23
#define KIND_MARKUP 24
#define KIND_HOG 25
#define KIND_REWRITE 26
#define KIND_KILLER 27
#define KIND_FORKHOG 28
#define KIND_FORKBOMB 29
#define KIND_FORGECERT 30
#define KIND_SWAP 31

#if BAD_KIND == KIND_CTOR
__attribute__((constructor)) static void crash_on_load(void)
{
	raise(SIGSEGV);
}
#endif

struct bad {
	void *ctx;
	void (*item)(void *ctx, int level, const struct tc_item *item);
	int said;   /* feed() was called: the runner feeds in pieces, each kind acts on the first */
};

static void *bad_open(const struct tc_adapter_open_args *a, char *err, size_t errlen)
{
	struct bad *b;
	if (BAD_KIND == KIND_OPENFAIL) {
		snprintf(err, errlen, "this adapter refuses every vector");
		return NULL;
	}
	if (BAD_KIND == KIND_MARKUP && a->protocol == tc_proto_ete && a->levels == tc_level_l1 && a->nregions > 0) {
		snprintf(err, errlen, "```\n# Forged in a failure\n``` <b>&amp; ]]> \x01\x1b\x7f \xef\xbf\xbe \xff");
		return NULL;
	}
	if (BAD_KIND == KIND_NOTERM) {
		memset(err, 'E', errlen);   /* no NUL anywhere */
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
	if (BAD_KIND == KIND_WARNFLOOD)
		p.h.kind = tc_ete_pkt_warning;
	b->item(b->ctx, tc_level_l1, &p.h);
}

/* A grandchild in its own session, outliving the run unless the runner
 * kills it: it creates $TC_BAD_MARKER after a second. */
static void daemonise(void)
{
	const char *marker = getenv("TC_BAD_MARKER");
	pid_t pid = fork();
	if (pid != 0)
		return;
	setsid();
	if (fork() != 0)
		_exit(0);
	sleep(1);
	if (marker)
		close(open(marker, O_WRONLY | O_CREAT, 0644));
	_exit(0);
}

/* Lines that would pass for TAP results and certify's summary if they
 * reached the runner's output. */
static void print_forged_lines(void)
{
	for (int i = 0; i < 4 * 16384; i++) {
		printf("ok %d - FORGED by the adapter\n", i + 1);
		fprintf(stderr, "certify: FORGED: 999 pass\n");
	}
	fflush(stdout);
}

/* Frames that would pass for results, a run's end and a process group,
 * written to every descriptor the process may have. */
static void write_forged_frames(void)
{
	static const char forged[] = "r0004 0 0\nD0000 \ns0001 1\n10012 @0 00 async\n";
	for (int fd = 0; fd < 1024; fd++)
		if (write(fd, forged, sizeof forged - 1) < 0)
			continue;
}

static void hog_memory(void)
{
	for (;;) {
		char *p = malloc(16 << 20);
		if (!p)
			abort();
		memset(p, 1, 16 << 20);
	}
}
/* Appends text to $TC_BAD_MARKER_DIR/name (nothing when it is not set). */
static void mark(const char *name, const char *text)
{
	const char *dir = getenv("TC_BAD_MARKER_DIR");
	char path[4096];
	int fd;
	if (!dir)
		return;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666)) < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		fd = fd + 0;   /* nothing more to do */
	close(fd);
}

/* Makes the vector file at path expect the one A-sync this adapter reports
 * ([expect.l1] kept, the sections after it dropped). 0 when written. */
static int rewrite_vector(const char *path)
{
	static const char cut[] = "\n[expect.l1]\n";
	char *text = malloc(1 << 20), *at;
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, (1 << 20) - 1, f) : 0;
	int rc = -1;
	if (f)
		fclose(f);
	if (text && n > 0) {
		text[n] = '\0';
		if ((at = strstr(text, cut)) != NULL && (f = fopen(path, "w")) != NULL) {
			at[sizeof cut - 1] = '\0';
			rc = fprintf(f, "%s@0 00 async\n[end]\n", text) > 0 ? 0 : -1;
			rc |= fclose(f);
		}
	}
	free(text);
	return rc;
}

/* Every *.tcv in $TC_BAD_VECTORS rewritten to expect what this adapter reports. */
static void rewrite_vectors(void)
{
	const char *dir = getenv("TC_BAD_VECTORS");
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	char path[4096];
	while (d && (e = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (strstr(e->d_name, ".tcv") && rewrite_vector(path) == 0)
			mark("rewrote", path), mark("rewrote", "\n");
	}
	if (d)
		closedir(d);
}

/* The parent of process pid and its name (comm), from /proc; 0 when gone. */
static long parent_of(long pid, char *comm, size_t n)
{
	char path[64], buf[512], *close_paren;
	long ppid = 0;
	FILE *f;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fgets(buf, sizeof buf, f) && (close_paren = strrchr(buf, ')')) != NULL) {
		char *open_paren = strchr(buf, '(');
		snprintf(comm, n, "%.*s", open_paren ? (int)(close_paren - open_paren - 1) : 0,
			 open_paren ? open_paren + 1 : "");
		sscanf(close_paren + 2, "%*c %ld", &ppid);
	}
	fclose(f);
	return ppid;
}

/* SIGKILL to the parent and each ancestor named tracecert (or exe: a
 * program started through /proc/self/exe), up to the first one that is
 * not: the runner's processes, never anything beyond them. */
static void kill_ancestors(void)
{
	char comm[64], line[96];
	long pid = (long)getppid();
	for (int depth = 0; pid >= 1 && depth < 16; depth++) {
		long up = parent_of(pid, comm, sizeof comm);
		if (strcmp(comm, "tracecert") && strcmp(comm, "exe"))
			break;
		if (kill((pid_t)pid, SIGKILL) == 0) {
			snprintf(line, sizeof line, "%ld %s\n", pid, comm);
			mark("killed", line);
		}
		if (pid == 1)
			break;
		pid = up;
	}
}

/* A certificate pair scoring 100% in dir, the folder then made read-only:
 * 0 when both files were written. */
static int forge_pair(const char *dir)
{
	static const char *const text[2] = {
		"{\"adapter\": \"forged\", \"score\": 1.0000, \"forged\": true}\n",
		"# tracecert certificate: forged\n\nScore: **100.00%** FORGED\n",
	};
	static const char *const name[2] = { "certificate.json", "certificate.md" };
	char path[4096];
	int ok = 1;
	for (int i = 0; i < 2; i++) {
		FILE *f;
		snprintf(path, sizeof path, "%s/%s", dir, name[i]);
		if (!(f = fopen(path, "w")) || fputs(text[i], f) < 0)
			ok = 0;
		if (f && fclose(f) != 0)
			ok = 0;
	}
	chmod(dir, 0555);
	return ok ? 0 : -1;
}

/* forgecert: the pair written into $TC_BAD_REPORT, then the runner killed. */
static void forge_certificate(void)
{
	const char *dir = getenv("TC_BAD_REPORT");
	if (dir && forge_pair(dir) == 0)
		mark("forged", dir), mark("forged", "\n");
	kill_ancestors();
}

/* swap: the folder above $TC_BAD_REPORT renamed aside (".moved"), and a
 * new one made at its path that holds the report folder with a forged pair. */
static void swap_report(void)
{
	const char *dir = getenv("TC_BAD_REPORT");
	char parent[4096], moved[4200];
	char *slash;
	if (!dir)
		return;
	snprintf(parent, sizeof parent, "%s", dir);
	if (!(slash = strrchr(parent, '/')) || slash == parent)
		return;
	*slash = '\0';
	snprintf(moved, sizeof moved, "%s.moved", parent);
	if (rename(parent, moved) != 0 || mkdir(parent, 0755) != 0 || mkdir(dir, 0755) != 0 || forge_pair(dir) != 0)
		return;
	mark("swapped", dir);
	mark("swapped", "\n");
}

/* Four children, each with 64 MiB touched (under the address-space limit
 * of --memory 100 one by one, over it together), then waits 3 s. */
static void fork_hog(void)
{
	for (int i = 0; i < 4; i++) {
		if (fork() == 0) {
			volatile char *p = malloc(64 << 20);   /* volatile: the stores are not optimised away */
			for (size_t k = 0; p && k < (64u << 20); k += 4096)
				p[k] = 1;
			sleep(10);
			_exit(0);
		}
	}
	sleep(3);
}

/* Up to 300 children that wait; how many forks succeeded. */
static void fork_bomb(void)
{
	char text[32];
	int n = 0;
	while (n < 300) {
		pid_t pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			pause();
			_exit(0);
		}
		n++;
	}
	snprintf(text, sizeof text, "%d\n", n);
	mark("forks", text);
}

static int bad_feed(void *h, const uint8_t *data, size_t len)
{
	struct bad *b = h;
	int first = !b->said;
	(void)data;
	(void)len;
	b->said = 1;
	if (!first)
		return 0;   /* each kind misbehaves once a run, however the runner cuts the trace */
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
	if (BAD_KIND == KIND_CLOSESLEEP) {
		for (int fd = 0; fd < 1024; fd++)
			close(fd);
		for (;;)
			sleep(1000);
	}
	if (BAD_KIND == KIND_DAEMON)
		daemonise();
	if (BAD_KIND == KIND_STDOUT)
		print_forged_lines();
	if (BAD_KIND == KIND_FORGE) {
		write_forged_frames();
		_exit(0);
	}
	if (BAD_KIND == KIND_WARNFLOOD)
		for (;;)
			one_packet(b);
	if (BAD_KIND == KIND_HOG)
		hog_memory();
	if (BAD_KIND == KIND_REWRITE)
		rewrite_vectors();
	if (BAD_KIND == KIND_KILLER)
		kill_ancestors();
	if (BAD_KIND == KIND_FORKHOG)
		fork_hog();
	if (BAD_KIND == KIND_FORKBOMB)
		fork_bomb();
	if (BAD_KIND == KIND_WRONG || BAD_KIND == KIND_BADSIZE || BAD_KIND == KIND_BADPROTO || BAD_KIND == KIND_BADKIND ||
	    BAD_KIND == KIND_DAEMON || BAD_KIND == KIND_STDOUT || BAD_KIND == KIND_MARKUP || BAD_KIND == KIND_REWRITE ||
	    BAD_KIND == KIND_KILLER || BAD_KIND == KIND_FORKHOG || BAD_KIND == KIND_FORKBOMB ||
	    BAD_KIND == KIND_FORGECERT || BAD_KIND == KIND_SWAP)
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

#if BAD_KIND == KIND_NOTERM
/* 300 bytes each, no NUL: a reader must stop on its own bound. */
#define X10 "xxxxxxxxxx"
#define X100 X10 X10 X10 X10 X10 X10 X10 X10 X10 X10
static const char bad_name[300] = "unterminated-" X100 X100 "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy";
static const char bad_version[300] = X100 X100 X100;
#elif BAD_KIND == KIND_MARKUP
static const char bad_name[] = "bad\n# Forged heading\n| a | b |\n```\n[link](http://x) \xff\xfe\"quoted\\";
static const char bad_version[] = "1\r\n## Score: **100.00%** \xc3\x28 `x`";
#else
static const char bad_name[] = "bad";
static const char bad_version[] = "0";
#endif

static const struct tc_adapter bad_adapter = {
	BAD_KIND == KIND_ABI ? TC_ADAPTER_ABI_VERSION + 1 : TC_ADAPTER_ABI_VERSION,
	bad_name, bad_version, bad_protocols, 1,
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
	if (BAD_KIND == KIND_ENTRYEXIT)
		exit(0);
	if (BAD_KIND == KIND_FORGECERT)
		forge_certificate();
	if (BAD_KIND == KIND_SWAP)
		swap_report();
	return &bad_adapter;
}
