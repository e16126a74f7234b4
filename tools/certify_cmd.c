/* SPDX-License-Identifier: BSD-3-Clause */
/* certify_cmd.c — `tracecert certify`: its command line (tools/cli.h) into struct tc_certify_options (conformance/certify.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certify.h"
#include "certify_cmd.h"
#include "cli.h"

enum certify_option {
	opt_adapter = 1, opt_vectors, opt_level, opt_tags, opt_tap, opt_report, opt_jobs, opt_timeout, opt_memory,
	opt_output, opt_first_failure, opt_notes, opt_no_isolation, opt_shard, opt_junit, opt_merge, opt_quiet
};

static const struct tc_cli_option certify_options[] = {
	{ "adapter", "PATH.so", opt_adapter, "the adapter shared object (required)" },
	{ "vectors", "DIR", opt_vectors, "vector file or folder, may be repeated (default:\n"
					  "$TRACECERT_VECTORS, else the installed vectors);\n"
					  "a file reached twice (a folder given twice or inside\n"
					  "another, a link) or a link loop is an error" },
	{ "level", "1|3|all", opt_level, "levels to run (default: all the vectors and adapter have)" },
	{ "tags", "T1,T2", opt_tags, "only vectors carrying at least one of these tags (may be\n"
				    "repeated); a tag no vector carries is an error" },
	{ "tap", NULL, opt_tap, "print TAP version 13 with YAML diagnostics on stdout" },
	{ "report", "DIR", opt_report, "write DIR/certificate.md, certificate.json and\n"
					  "certificate.junit.xml" },
	{ "shard", "I/N", opt_shard, "run only shard I of N (1 <= I <= N <= 65536): the vector files\n"
				    "whose index in the sorted list is I - 1 modulo N" },
	{ "merge", NULL, opt_merge, "no run: combine the certificate.json files given as operands\n"
				    "(the N shards of one run, each once) into the report folder" },
	{ "junit", "FILE", opt_junit, "write JUnit XML to FILE (the report folder gets\n"
				      "certificate.junit.xml anyway)" },
	{ "jobs", "N", opt_jobs, "worker processes, 1..64 (default: 2)" },
	{ "timeout", "S", opt_timeout, "per-vector CPU and wall-clock limit in seconds (default: 10)" },
	{ "memory", "MB", opt_memory, "per-vector memory limit (default: 1024): the resident size of\n"
				      "all the run's processes, summed (proportional: a shared page\n"
				      "counts once; read every 20 ms), and the address space of\n"
				      "each (RLIMIT_AS; not in an ASan build)" },
	{ "output", "MB", opt_output, "per-vector limit on items, stdout and stderr (default: 64)" },
	{ "quiet", NULL, opt_quiet, "no progress counter on stderr (on a terminal one line\n"
				   "redrawn: runs done/total, failing so far, runs/s; elsewhere\n"
				   "that line every 5 s)" },
	{ "first-failure", NULL, opt_first_failure, "stop after the first failing comparison (for mutants)" },
	{ "notes", "FILE", opt_notes, "Markdown verdicts on the failure classes, appended to the\n"
				      "certificate (conformance/notes/*.md; text, at most 1 MiB)" },
	{ "no-isolation", NULL, opt_no_isolation, "run even where the adapter's process could signal the\n"
						   "runner or write the report folder (a hostile adapter\n"
						   "could forge the certificate): the certificate, the TAP\n"
						   "stream and the summary say the run was not isolated" },
	{ NULL, NULL, 0, NULL }
};

/* The parse: options, and the lists they make. */
struct certify_args {
	struct tc_certify_options o;
	const char **vectors;     /* argc entries at most */
	size_t nvectors;
	const char **merge;       /* --merge: the shard files (operands), argc entries at most */
	size_t nmerge;
	int merging;
	const char **tags;        /* pointing into tag_text */
	size_t ntags, tags_cap;
	char **tag_text;          /* each --tags value, copied to be split */
	size_t ntag_text;
};

static void help_certify(FILE *f, const struct tc_cli *c)
{
	fprintf(f,
		"usage: tracecert certify --adapter PATH.so [--vectors DIR]... [--level 1|3|all]\n"
		"                         [--tags TAG[,TAG...]] [--tap] [--report DIR] [--jobs N]\n"
		"                         [--timeout SECONDS] [--memory MB] [--output MB] [--notes FILE]\n"
		"                         [--shard I/N] [--junit FILE] [--no-isolation]\n"
		"       tracecert certify --merge SHARD.json... [--report DIR] [--junit FILE]\n"
		"\n"
		"Scores a decoder, wrapped as an adapter (conformance/include/tracecert/adapter.h),\n"
		"against the vectors of every protocol the adapter declares. The vectors are read once,\n"
		"before the adapter is loaded. The adapter is loaded only in fresh child processes that\n"
		"are given the run's inputs and never an expected output, each behind the walls the\n"
		"system permits (own PID and mount namespaces, the vectors and the report folder hidden,\n"
		"uid nobody when run as root; the certificate counts the runs behind each). Where they\n"
		"would leave the adapter able to signal the runner or write the report folder (a user\n"
		"other than root without user namespaces; a report folder that holds the adapter, run\n"
		"by a user other than root), certify refuses to load it (exit status 2) unless\n"
		"--no-isolation is given. Each vector and level runs in its own process group with CPU,\n"
		"wall-clock, memory (--memory), process (RLIMIT_NPROC 256) and output limits and is\n"
		"classified pass, fail (first divergence), crash (signal), hang (time limit), flood\n"
		"(output or item limit),\n"
		"adapter-error, runner-error (the runner could not run it: an unreadable vector file, a\n"
		"child it could not start), malformed (its messages broke the frame format or an item\n"
		"was not what it claimed), or unsupported (protocol, level or feature the adapter\n"
		"declares unsupported). A run the memory limit ends, or whose worker process dies while\n"
		"the adapter runs, is a crash too (its message says which).\n"
		"A failure's YAML block gives the level, the compared section, the first\n"
		"differing line (expected, got, context), the size of the whole difference\n"
		"(expected_lines, got_lines; missing_lines and extra_lines: the lines of each\n"
		"side the other lacks, in any order) and, when the error list differs and L1\n"
		"is compared too, the first differing L1 line (l1_line, l1_expected, l1_got).\n"
		"\n"
		"The report folder gets certificate.html (one self-contained file: the run's identity,\n"
		"the score, per protocol a heat map of tag family by level, the defect classes, every\n"
		"failure's first divergence expected beside got with the trace bytes of its packet\n"
		"marked and the command that reproduces it), certificate.md (a summary: scores, the\n"
		"families that do not pass, the defect classes, the failures grouped by class with\n"
		"their commands), certificate.json (format_version 2: identity, options and limits,\n"
		"every run, the failures as fields) and certificate.junit.xml (a testcase per vector\n"
		"and level: unsupported and not-run runs <skipped/>, a runner-error <error>, every\n"
		"other run that does not pass <failure> with the first divergence as its message).\n"
		"A long run shows its progress on stderr (on a terminal one line redrawn: runs done of\n"
		"the total, failing so far, runs/s; elsewhere that line every 5 s; --quiet: none).\n"
		"--shard I/N runs the vector files whose index in the sorted list of every file the\n"
		"--vectors paths hold (each path's files in byte order, the paths as given) is I - 1\n"
		"modulo N: each file in exactly one of the N shards. The selection is judged whole\n"
		"(--tags, the levels, the adapter); a shard that holds no run of it writes a\n"
		"certificate of no run. --merge reads the shards' certificate.json files, each shard\n"
		"once and none missing, of one vector set, adapter and version, tracecert version and\n"
		"options, and writes the certificate of the whole run, the same as one run without\n"
		"--shard writes (its seconds the shards' sum); anything else is an error naming the file\n"
		"and what differs.\n"
		"A --vectors path that holds no vector, or --tags that selects nothing, is an error\n"
		"(exit status 2) naming the option. Without --vectors, the vectors are those of the\n"
		"folder the environment variable TRACECERT_VECTORS names, else the vectors make install\n"
		"installed: %s.\n"
		"\n"
		"Options:\n", tc_cli_vectors_dir());
	tc_cli_print_options(f, c);
	fprintf(f, "Exit status (a CI can tell the decoder's result from the runner's trouble):\n"
		   "  0  every supported run passes (the certificate is written)\n"
		   "  1  the decoder failed runs: fail, crash, hang, flood, adapter-error or malformed\n"
		   "     (the certificate is written and says which)\n"
		   "  2  certify could not run or write: bad usage, a --vectors or --tags that selects\n"
		   "     nothing, a selection of which the adapter supports no run, an adapter that cannot\n"
		   "     be loaded, a run refused for want of isolation, a certificate that could not be\n"
		   "     written, shards --merge refuses (no certificate of this run)\n"
		   "  3  the runner could not run some runs (runner-error: a vector file it cannot read,\n"
		   "     a worker it cannot start; not the decoder's doing): the certificate is written,\n"
		   "     with those runs; 3 whatever else failed\n"
		   "  130, 143  interrupted by SIGINT, SIGTERM (no certificate)\n"
		   "--merge exits 0, 1 or 3 as the whole run would.\n");
}

/* A number in min..max, or a usage error naming the option. */
static int take_number(const struct tc_cli *c, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;
	const char *s = c->value;
	errno = 0;
	v = (*s >= '0' && *s <= '9') ? strtoul(s, &end, 10) : 0;
	if (*s < '0' || *s > '9' || *end || errno || v < min || v > max)
		return tc_cli_usage_error(c, "--%s expects a number in %lu..%lu, got '%s'", c->option, min, max, s),
		       -1;
	*out = v;
	return 0;
}

/* --tags T1,T2: every name non-empty; repeated --tags add to the list. */
static int take_tags(struct certify_args *a, const struct tc_cli *c)
{
	const char *val = c->value;
	char *copy, *save = NULL, **texts;
	if (!*val || strstr(val, ",,") || val[0] == ',' || val[strlen(val) - 1] == ',')
		return tc_cli_usage_error(c, "--tags expects TAG[,TAG...] without empty names, got '%s'", val), -1;
	texts = realloc(a->tag_text, (a->ntag_text + 1) * sizeof *texts);
	if (!texts)
		return -1;
	a->tag_text = texts;
	copy = strdup(val);
	if (!copy)
		return -1;
	a->tag_text[a->ntag_text++] = copy;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (a->ntags == a->tags_cap) {
			size_t cap = a->tags_cap ? 2 * a->tags_cap : 8;
			const char **n = realloc(a->tags, cap * sizeof *n);
			if (!n)
				return -1;
			a->tags = n;
			a->tags_cap = cap;
		}
		a->tags[a->ntags++] = t;
	}
	return 0;
}

static int take_level(struct certify_args *a, const struct tc_cli *c)
{
	if (!strcmp(c->value, "1"))
		a->o.levels = 1;
	else if (!strcmp(c->value, "3"))
		a->o.levels = 4;
	else if (!strcmp(c->value, "all"))
		a->o.levels = 5;
	else
		return tc_cli_usage_error(c, "--level expects 1, 3 or all, got '%s'", c->value), -1;
	return 0;
}

/* --shard I/N: two decimal numbers, 1 <= I <= N <= 65536. */
static int take_shard(struct certify_args *a, const struct tc_cli *c)
{
	const char *s = c->value, *slash = strchr(s, '/');
	unsigned long v[2];
	const char *part[2];
	size_t len[2];
	if (!slash)
		return tc_cli_usage_error(c, "--shard expects I/N (shard I of N, 1 <= I <= N), got '%s'", s), -1;
	part[0] = s;
	len[0] = (size_t)(slash - s);
	part[1] = slash + 1;
	len[1] = strlen(slash + 1);
	for (int k = 0; k < 2; k++) {
		v[k] = 0;
		if (len[k] == 0 || len[k] > 5 || strspn(part[k], "0123456789") < len[k])
			return tc_cli_usage_error(c, "--shard expects I/N with I and N decimal numbers, got '%s'", s), -1;
		for (size_t i = 0; i < len[k]; i++)
			v[k] = v[k] * 10 + (unsigned long)(part[k][i] - '0');
	}
	if (v[1] < 1 || v[1] > 65536)
		return tc_cli_usage_error(c, "--shard %s: N (the number of shards) must be in 1..65536", s), -1;
	if (v[0] < 1 || v[0] > v[1])
		return tc_cli_usage_error(c, "--shard %s: I (the shard) must be in 1..%lu (shards are numbered from 1)",
					  s, v[1]), -1;
	a->o.shard_index = (unsigned)v[0];
	a->o.shard_count = (unsigned)v[1];
	return 0;
}

/* One option or operand; 0, or -1 after a usage error. */
static int take_argument(struct certify_args *a, const struct tc_cli *c, int id)
{
	unsigned long v;
	switch (id) {
	case opt_adapter: a->o.adapter = c->value; return 0;
	case opt_vectors: a->vectors[a->nvectors++] = c->value; return 0;
	case opt_level: return take_level(a, c);
	case opt_tags: return take_tags(a, c);
	case opt_tap: a->o.tap = 1; return 0;
	case opt_quiet: a->o.quiet = 1; return 0;
	case opt_report: a->o.report = c->value; return 0;
	case opt_first_failure: a->o.first_failure = 1; return 0;
	case opt_notes: a->o.notes = c->value; return 0;
	case opt_no_isolation: a->o.no_isolation = 1; return 0;
	case opt_shard: return take_shard(a, c);
	case opt_junit: a->o.junit = c->value; return 0;
	case opt_merge: a->merging = 1; return 0;
	case opt_jobs:
		if (take_number(c, 1, 64, &v))
			return -1;
		a->o.jobs = (int)v;
		return 0;
	case opt_timeout:
		if (take_number(c, 1, 100000, &v))
			return -1;
		a->o.lim.timeout_s = (unsigned)v;
		return 0;
	case opt_memory: return take_number(c, 1, 1u << 20, &a->o.lim.mem_mb);
	case opt_output: return take_number(c, 1, 1u << 20, &a->o.lim.out_mb);
	default:                  /* TC_CLI_OPERAND: a shard file of --merge */
		a->merge[a->nmerge++] = c->value;
		return 0;
	}
}

/* Operands are --merge's shard files; --merge runs nothing, so it takes no
 * option of a run. 0, or -1 after a usage error. */
static int check_merge_args(struct certify_args *a, const struct tc_cli *c)
{
	const struct tc_certify_options *o = &a->o;
	if (!a->merging) {
		if (a->nmerge)
			return tc_cli_usage_error(c, "unexpected argument '%s' (shard files are given with --merge)",
						  a->merge[0]), -1;
		if (!o->adapter)
			return tc_cli_usage_error(c, "--adapter PATH.so is required"), -1;
		return 0;
	}
	if (a->nmerge == 0)
		return tc_cli_usage_error(c, "--merge expects the shard files: --merge A.json B.json ..."), -1;
	if (o->adapter || a->nvectors || a->ntags || o->shard_count || o->tap || o->notes || o->first_failure ||
	    o->no_isolation || o->levels != 5)
		return tc_cli_usage_error(c, "--merge takes only --report and --junit (the shards' runs decided "
					     "the rest)"), -1;
	if (!o->report && !o->junit)
		return tc_cli_usage_error(c, "--merge needs --report DIR or --junit FILE to write to"), -1;
	return 0;
}

/* Without --vectors: $TRACECERT_VECTORS when set and not empty, else the
 * installed vectors (DATADIR/tracecert/vectors, fixed by the build). */
static const char *default_vectors(void)
{
	const char *env = getenv("TRACECERT_VECTORS");
	return env && *env ? env : tc_cli_vectors_dir();
}

/* 0 to go on, 1 when --help or --version was answered, -1 after a usage error. */
static int parse_certify_args(int argc, char **argv, struct certify_args *a)
{
	struct tc_cli c;
	int id;
	tc_cli_init(&c, "certify", certify_options, argc, argv);
	while ((id = tc_cli_next(&c)) != TC_CLI_END)
		if (id == TC_CLI_ERROR || take_argument(a, &c, id))
			return -1;
	if (c.help) {
		help_certify(stdout, &c);
		return 1;
	}
	if (c.version) {
		tc_cli_print_version(stdout);
		return 1;
	}
	if (check_merge_args(a, &c))
		return -1;
	if (a->nvectors == 0 && !a->merging)
		a->vectors[a->nvectors++] = default_vectors();
	return 0;
}

static void certify_args_free(struct certify_args *a)
{
	for (size_t i = 0; i < a->ntag_text; i++)
		free(a->tag_text[i]);
	free(a->tag_text);
	free(a->tags);
	free(a->vectors);
	free(a->merge);
}

int tc_certify_main(int argc, char **argv)
{
	struct certify_args a;
	char version[160];
	int rc;
	memset(&a, 0, sizeof a);
	tc_certify_options_default(&a.o);
	tc_cli_version_text(version, sizeof version);
	a.o.tool_version = version;
	a.vectors = calloc((size_t)argc + 1, sizeof *a.vectors);
	a.merge = calloc((size_t)argc + 1, sizeof *a.merge);
	if (!a.vectors || !a.merge) {
		fprintf(stderr, "tracecert certify: out of memory\n");
		return 2;
	}
	rc = parse_certify_args(argc, argv, &a);
	if (rc == 0) {
		a.o.vectors = a.vectors;
		a.o.nvectors = a.nvectors;
		a.o.tags = a.tags;
		a.o.ntags = a.ntags;
		rc = a.merging ? tc_certify_merge(&a.o, a.merge, a.nmerge) : tc_certify(&a.o);
	} else {
		rc = rc < 0 ? 2 : 0;
	}
	certify_args_free(&a);
	return rc;
}
