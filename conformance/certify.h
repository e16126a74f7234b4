/* SPDX-License-Identifier: BSD-3-Clause */
/* certify.h — the conformance runner behind `tracecert certify` (tools/certify_cmd.c parses its command line). */
#ifndef TC_CERTIFY_H
#define TC_CERTIFY_H

#include <stddef.h>

struct tc_adapter;

/* dlopen()s an adapter in this process and checks its entry point, ABI
 * version and table; NULL with a message in err (n bytes) on failure. The
 * adapter's constructors and entry point run in the caller: `tracecert
 * certify` and `tracecert bench` call it only in their children. */
const struct tc_adapter *tc_adapter_load(const char *path, char *err, size_t n);

/* The program image of the process that loads an adapter for certify is
 * `tracecert` itself (/proc/self/exe, exec'd by conformance/child.c) with
 * this one argument, which no user types: main() hands it to
 * tc_certify_child_main (conformance/runchild.c) before any command. It
 * reads its inputs as frames on descriptor 4, writes frames on 3, and
 * returns only when its inputs are wrong. */
#define TC_CHILD_WORD "--certify-child-process"
int tc_certify_child_main(void);

/* Limits on one run in its child process. */
struct tc_limits {
	unsigned timeout_s;       /* CPU and wall-clock seconds */
	unsigned long mem_mb;     /* the run's processes' resident size, summed; and each one's address
				   * space (RLIMIT_AS, not in an ASan build); 0: none */
	unsigned long out_mb;     /* bytes of output: frames and stdout/stderr together; also the file size */
	unsigned long procs;      /* RLIMIT_NPROC (the kernel counts every process of the user the adapter
				   * runs as: root is exempt, so a child started as root drops to nobody); 0: none */
	unsigned long items;      /* items one run may hand over (warnings included); more is a flood */
};

/* What to certify. The strings are the caller's. */
struct tc_certify_options {
	const char *adapter;      /* the adapter shared object */
	const char *const *vectors;   /* vector files or folders */
	size_t nvectors;
	int levels;               /* bit 1: L1, bit 4: L3 */
	const char *const *tags;  /* only vectors carrying one of them; none: every vector */
	size_t ntags;
	int tap;                  /* TAP version 13 on standard output */
	const char *report;       /* folder of certificate.md and certificate.json, or NULL */
	int jobs;                 /* worker processes, 1..64 */
	struct tc_limits lim;
	int first_failure;        /* stop scheduling after the first failing comparison */
	const char *notes;        /* a Markdown file of verdicts, appended to the certificate */
	unsigned shard_index;     /* --shard I/N: run only the vectors whose index in the sorted list (each
				   * --vectors path's files in byte order, the paths in the order given)
				   * is I - 1 modulo N; 0 (shard_count 0): every vector */
	unsigned shard_count;
	const char *junit;        /* a JUnit XML file to write, or NULL (the report folder gets
				   * certificate.junit.xml whatever this says) */
	const char *tool_version; /* tracecert's version, which the JSON certificate records */
	int quiet;                /* no progress counter on stderr (conformance/progress.h) */
	int no_isolation;         /* load the adapter even where it could signal the runner or write the
				   * report folder (conformance/isolate.h); the certificate says so */
};

/* Levels 1 and 3, 2 workers, 10 s, 1024 MB, 64 MB of output; no vectors. */
void tc_certify_options_default(struct tc_certify_options *o);

/* Runs every vector through the adapter, prints the summary (and TAP), writes
 * the report. Returns the exit status: 0 when every supported run passes, 1
 * otherwise, 2 when it could not run (message on stderr): among others, when
 * the adapter supports none of the runs selected, and when the walls the
 * system permits would leave the adapter able to signal the runner or
 * write the report folder and no_isolation is not set. */
int tc_certify(const struct tc_certify_options *o);

/* --merge: reads the JSON certificates of the shards of one run (files,
 * n of them), checks they are the N shards of one vector set, adapter,
 * version and options, each once, and writes the certificate of the whole
 * run as tc_certify would (o->report, o->junit). Returns the exit status
 * tc_certify would have, or 2 with a message naming the file and what
 * differs. */
int tc_certify_merge(const struct tc_certify_options *o, const char *const *files, size_t n);

#endif
