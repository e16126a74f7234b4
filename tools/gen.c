/* SPDX-License-Identifier: BSD-3-Clause */
/* gen.c — `tracecert gen`: generated vectors of any protocol's encoder, encoding coverage, and the set-cover seed search. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "gen.h"
#include "genexec.h"
#include "interrupt.h"
#include "outfile.h"
#include "progress.h"
#include "snapwrite.h"
#include "tracecert/encoder.h"
#include "tracecert/protocol.h"
#include "vector.h"

#define GEN_MAX_PROTOCOLS 8

/* The most bytes a seed list may hold, and the largest seed (as --seed). */
#define SEEDS_MAX_BYTES (16 << 20)
#define SEED_MAX 0xfffffffful

struct gen_opts {
	const struct tc_encoder *enc;      /* --protocol: its encoder (the first of a list) */
	const struct tc_protocol *proto;   /* and its descriptor */
	int proto_given;
	const struct tc_encoder *encs[GEN_MAX_PROTOCOLS];   /* --protocol P1,P2,...: vector i is encs[i % nencs]'s */
	int nencs;
	unsigned steps_arg, blocks_arg;    /* --steps, --blocks; 0: each encoder's default */
	struct tc_enc_request rq;
	void *cfg;                  /* the fixed configuration (--config), proto->config_size bytes */
	const char **config;        /* the --config arguments, applied once the protocol is known */
	int nconfig;
	uint64_t seed;
	unsigned long count;
	const char *out;
	const char *seeds_file;
	int coverage;
	unsigned long select;       /* candidates for the set-cover search; 0 = off */
	unsigned long extra;        /* plain random seeds added after the cover */
	int select_vectors;         /* --select-vectors: select and extra are the encoder's */
	int quiet;
	int negative;               /* --negative: one deliberate corruption per vector */
	const char *kind;           /* --kind NAME */
	int neg_kind;               /* its index in enc->negative_kinds */
	const char *snapshot_out;   /* --snapshot-out DIR */
	int snapshot_raw;           /* --snapshot-format source_data */
	struct tc_gen_exec exec;    /* --from-exec LOG --elf PROG: a real execution (tools/genexec.c) */
};

enum gen_option {
	opt_protocol = 1, opt_seed, opt_count, opt_seeds_file, opt_out, opt_steps, opt_blocks, opt_config,
	opt_coverage, opt_select, opt_extra, opt_select_vectors, opt_quiet, opt_snapshot_out, opt_snapshot_format, opt_negative, opt_kind,
	opt_from_exec, opt_elf, opt_exec_start, opt_note, opt_name
};

static const struct tc_cli_option gen_options[] = {
	{ "protocol", "P", opt_protocol, "the protocol whose encoder runs (default: the\n"
					 "first of the build; the encoders are listed below);\n"
					 "with --snapshot-out a comma-separated list of\n"
					 "them: vector i is made by the (i mod n)-th,\n"
					 "all in one snapshot (no --config, --coverage,\n"
					 "--select or --negative then)" },
	{ "seed", "N", opt_seed, "first seed (default 1)" },
	{ "count", "N", opt_count, "number of consecutive seeds (default 1)" },
	{ "seeds-file", "FILE", opt_seeds_file, "the seeds to generate, one a line ('#' comments)" },
	{ "out", "DIR", opt_out, "write DIR/gen-SEED.tcv (default: the vectors to\nstandard output)" },
	{ "steps", "N", opt_steps, "execution steps per vector, 1..100000 (default:\nthe encoder's)" },
	{ "blocks", "N", opt_blocks, "basic blocks per program, 4..4096 (default: the\nencoder's)" },
	{ "config", "NAME=VALUE", opt_config, "fix a configuration key or register of the\n"
					      "protocol (as for dump; no random configuration\nper seed then)" },
	{ "coverage", NULL, opt_coverage, "print how often the vectors use each variant of\n"
					  "the encoder's list; exit 1 if any is unused" },
	{ "select", "C", opt_select, "set-cover search: try seeds 1..C, pick greedily\n"
				     "seeds that cover every variant, print them (the\nseed list of vectors/PROTOCOL/gen)" },
	{ "extra", "N", opt_extra, "with --select: add N plain seeds after C" },
	{ "select-vectors", NULL, opt_select_vectors, "--select C --extra N with the encoder's own C\n"
						      "and N (below): the search of make vectors-select" },
	{ "quiet", NULL, opt_quiet, "no progress counter and no speed figures on standard error" },
	{ "snapshot-out", "DIR", opt_snapshot_out,
	  "also write the vectors (1 to 16) as a trace\n"
	  "snapshot directory: per vector a core whose memory\n"
	  "dumps hold its image and a trace source whose\n"
	  "registers give its configuration (trace ID 0x10,\n"
	  "0x11, ...), the traces interleaved in one\n"
	  "CoreSight formatted buffer (decode --snapshot DIR\n"
	  "gives each vector's expected L3; the vectors go to\n"
	  "standard output only with --out); any protocol\n"
	  "whose descriptor has a snapshot device type" },
	{ "snapshot-format", "coresight|source_data", opt_snapshot_format,
	  "one formatted buffer (the default) or one raw\nbuffer per source" },
	{ "negative", NULL, opt_negative, "write negative vectors, DIR/neg-SEED.tcv: the\n"
					  "vector of the seed with ONE deliberate corruption\n"
					  "chosen by the seed, an [error] section (CLASS\n"
					  "OFFSET) and the [expect.l1] the encoder knows from\n"
					  "its record of the packets it wrote; no\n"
					  "[expect.l3] (the encoders that make them: below)" },
	{ "kind", "KIND", opt_kind, "with --negative, the corruption (the encoder's\nkinds: below)" },
	{ "from-exec", "LOG", opt_from_exec, "a real execution instead of a random one: the\n"
					       "log of qemu-arm, qemu-aarch64 or qemu-riscv64\n"
					       "-singlestep -d exec,nochain -D LOG\n"
					       "(with --elf; --steps instructions of it, default\n"
					       "2000, traced by the protocol's trace-unit model;\n"
					       "the expected L3 from the log; --out DIR: DIR/NAME.tcv\n"
					       "and the image pages beside it)" },
	{ "elf", "PROG", opt_elf, "with --from-exec: the program the log ran" },
	{ "exec-start", "SYMBOL", opt_exec_start, "with --from-exec: the window starts at the log's\n"
						  "first line of SYMBOL (default main)" },
	{ "note", "TEXT", opt_note, "with --from-exec: a line for the vector's description" },
	{ "name", "NAME", opt_name, "with --from-exec: the vector's name (default: the\nELF file's)" },
	{ NULL, NULL, 0, NULL }
};

/* The protocols that have an encoder, separated by sep. */
static void encoder_list(char *buf, size_t size, const char *sep)
{
	buf[0] = '\0';
	for (int i = 0; tc_encoders[i]; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? sep : "", tc_encoders[i]->protocol);
}

static const struct tc_encoder *find_encoder(const char *name)
{
	for (int i = 0; name && tc_encoders[i]; i++)
		if (!strcmp(tc_encoders[i]->protocol, name))
			return tc_encoders[i];
	return NULL;
}

/* Each line of text, indented. */
static void print_indented(FILE *f, const char *indent, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		fprintf(f, "%s%.*s\n", indent, (int)n, text);
		text += n + (text[n] == '\n');
	}
}

/* One encoder: what it makes, its defaults, its negative vectors and their kinds. */
static void help_encoder(FILE *f, const struct tc_encoder *e)
{
	fprintf(f, "\n--protocol %s%s (variants: %s):\n  --steps %u --blocks %u unless given; --select-vectors:\n"
		"  --select %lu --extra %lu.\n", e->protocol, e == tc_encoders[0] ? ", the default" : "", e->variants_file,
		e->default_steps, e->default_blocks, e->select_candidates, e->select_extra);
	print_indented(f, "  ", e->doc);
	if (!e->negative) {
		fprintf(f, "  No negative vectors (--negative).\n");
		return;
	}
	fprintf(f, "  --negative: the [expect.l1] holds\n");
	print_indented(f, "    ", e->negative_doc);
	fprintf(f, "  --kind KIND, the corruption:\n");
	for (int k = 0; k < e->nnegative_kinds; k++) {
		const char *doc = e->negative_kinds[k].doc;
		size_t n = strcspn(doc, "\n");
		fprintf(f, "    %-19s %.*s\n", e->negative_kinds[k].name, (int)n, doc);
		if (doc[n])
			print_indented(f, "                        ", doc + n + 1);
	}
}

/* The help; with --protocol, only that encoder's part. */
static void help_gen(FILE *f, const struct tc_cli *c, const struct tc_encoder *only)
{
	char list[200];
	fprintf(f,
		"usage: tracecert gen [--protocol P] [--seed N] [--count N] [--seeds-file F]\n"
		"                     [--out DIR] [--steps N] [--blocks N] [--config K=V]...\n"
		"                     [--coverage] [--select CANDIDATES [--extra N] | --select-vectors]\n"
		"                     [--quiet]\n"
		"       tracecert gen --negative [--kind KIND] [--seed N] [--count N] [--out DIR]\n"
		"\n"
		"Runs the random encoder of a protocol: for each seed a random program in one or\n"
		"more image regions, an execution of it, the trace bytes chosen at random among\n"
		"all valid encodings, and the ground truth at L1 and L3, written as a .tcv vector\n"
		"(vectors/README.md) by the one vector writer (conformance/vecwrite.c).\n"
		"Two vectors or more (unless they go to standard output on a terminal),\n"
		"and the seeds of a --select search, are counted on stderr (on a terminal\n"
		"one line redrawn: done of the total, per second; elsewhere that line\n"
		"every 5 s; --quiet: none).\n"
		"\n"
		"Options:\n");
	tc_cli_print_options(f, c);
	encoder_list(list, sizeof list, ",");
	fprintf(f, "\nThe encoders of this build (--protocol %s)%s:\n", list, only ? ", --protocol given: its own" : "");
	for (int i = 0; tc_encoders[i]; i++)
		if (!only || tc_encoders[i] == only)
			help_encoder(f, tc_encoders[i]);
}

static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	unsigned long long v;
	if (!s || tc_cli_number(s, max, &v) || v < min)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

/* --seed, --count, --steps, --blocks, --select, --extra: a number in its range. */
static int set_number(struct gen_opts *o, const struct tc_cli *c, int id)
{
	unsigned long n, max = id == opt_steps ? 100000 : id == opt_blocks ? 4096 : 0xfffffffful;
	unsigned long min = id == opt_blocks ? 4 : (id == opt_seed || id == opt_extra) ? 0 : 1;
	if (parse_ulong(c->value, min, max, &n)) {
		tc_cli_usage_error(c, "--%s expects a number in %lu..%lu, got '%s'", c->option, min, max, c->value);
		return -1;
	}
	if (id == opt_seed)
		o->seed = n;
	else if (id == opt_count)
		o->count = n;
	else if (id == opt_steps)
		o->rq.steps = (unsigned)n;
	else if (id == opt_blocks)
		o->rq.blocks = (unsigned)n;
	else if (id == opt_select)
		o->select = n;
	else
		o->extra = n;
	return 0;
}

/* --protocol P or P1,P2,...: every name an encoder's. */
static int set_protocol(struct gen_opts *o, const struct tc_cli *c)
{
	char list[200], name[64];
	const char *at = c->value;
	o->proto_given = 1;
	o->nencs = 0;
	for (;;) {
		size_t n = strcspn(at, ",");
		snprintf(name, sizeof name, "%.*s", (int)n, at);
		if (o->nencs == GEN_MAX_PROTOCOLS) {
			tc_cli_usage_error(c, "--protocol takes at most %d protocols, got '%s'", GEN_MAX_PROTOCOLS, c->value);
			return -1;
		}
		o->encs[o->nencs] = find_encoder(name);
		if (!o->encs[o->nencs]) {
			encoder_list(list, sizeof list, ", ");
			tc_cli_usage_error(c, "unknown protocol '%s' (the encoders of this build: %s)", name, list);
			return -1;
		}
		o->nencs++;
		if (!at[n])
			break;
		at += n + 1;
	}
	o->enc = o->encs[0];
	return 0;
}

/* A list of protocols makes one mixed snapshot: only with --snapshot-out, and
 * without the options that take one protocol's configuration or variants. */
static int check_protocol_list(const struct gen_opts *o, const struct tc_cli *c)
{
	if (o->nencs < 2)
		return 0;
	if (!o->snapshot_out)
		return tc_cli_usage_error(c, "a list of protocols (--protocol %s,...) needs --snapshot-out",
					  o->encs[0]->protocol), -1;
	if (o->nconfig || o->coverage || o->select || o->select_vectors || o->negative)
		return tc_cli_usage_error(c, "a list of protocols does not go with --config, --coverage, --select, "
					  "--select-vectors or --negative"), -1;
	return 0;
}

/* --from-exec goes with --elf, --exec-start, --note, --name, --steps, --out,
 * --protocol, --quiet only, and needs an encoder with a from_exec model. */
static int check_exec(const struct gen_opts *o, const struct tc_cli *c)
{
	const struct tc_gen_exec *x = &o->exec;
	if (!x->log && (x->elf || x->start || x->note || x->name))
		return tc_cli_usage_error(c, "--elf, --exec-start, --note and --name need --from-exec"), -1;
	if (!x->log)
		return 0;
	if (!x->elf)
		return tc_cli_usage_error(c, "--from-exec needs --elf (the program the log ran)"), -1;
	if (o->nconfig || o->coverage || o->select || o->select_vectors || o->negative || o->snapshot_out ||
	    o->seeds_file || o->rq.blocks)
		return tc_cli_usage_error(c, "--from-exec does not go with --config, --coverage, --select, "
					  "--select-vectors, --negative, --snapshot-out, --seeds-file or --blocks"), -1;
	if (!o->enc->from_exec)
		return tc_cli_usage_error(c, "the %s encoder has no model of a real execution (--from-exec)",
					  o->enc->protocol), -1;
	return 0;
}

/* One option or operand; 0, or -1 after a usage error. */
static int take_argument(struct gen_opts *o, const struct tc_cli *c, int id)
{
	switch (id) {
	case opt_protocol: return set_protocol(o, c);
	case opt_out: o->out = c->value; return 0;
	case opt_seeds_file: o->seeds_file = c->value; return 0;
	case opt_config: o->config[o->nconfig++] = c->value; return tc_cli_config_shape(c, c->value);
	case opt_coverage: o->coverage = 1; return 0;
	case opt_select_vectors: o->select_vectors = 1; return 0;
	case opt_quiet: o->quiet = 1; return 0;
	case opt_negative: o->negative = 1; return 0;
	case opt_kind: o->kind = c->value; return 0;
	case opt_from_exec: o->exec.log = c->value; return 0;
	case opt_elf: o->exec.elf = c->value; return 0;
	case opt_exec_start: o->exec.start = c->value; return 0;
	case opt_note: o->exec.note = c->value; return 0;
	case opt_name: o->exec.name = c->value; return 0;
	case opt_snapshot_out: o->snapshot_out = c->value; return 0;
	case opt_snapshot_format:
		if (strcmp(c->value, "coresight") && strcmp(c->value, "source_data")) {
			tc_cli_usage_error(c, "--snapshot-format expects coresight or source_data, got '%s'", c->value);
			return -1;
		}
		o->snapshot_raw = !strcmp(c->value, "source_data");
		return 0;
	case TC_CLI_OPERAND:
		tc_cli_usage_error(c, "takes no operand, got '%s'", c->value);
		return -1;
	default: return set_number(o, c, id);
	}
}

/* The fixed configuration from the --config arguments, over the protocol's defaults. */
static int apply_config(struct gen_opts *o)
{
	struct tc_config_builder b;
	char err[300];
	tc_config_builder_init(&b, o->proto);
	for (int i = 0; i < o->nconfig; i++)
		if (tc_cli_config_set("gen", &b, o->config[i]))
			return -1;
	tc_config_default(o->proto, o->cfg);
	if (tc_config_builder_apply(&b, o->cfg, NULL, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
		return -1;
	}
	o->rq.random_config = o->nconfig == 0;
	o->rq.cfg = o->cfg;
	return 0;
}

/* --negative and --kind: an index of the encoder's negative kinds. */
static int resolve_kind(struct gen_opts *o, const struct tc_cli *c)
{
	if (o->kind && !o->negative)
		return tc_cli_usage_error(c, "--kind needs --negative"), -1;
	if (o->negative && !o->enc->negative)
		return tc_cli_usage_error(c, "the %s encoder makes no negative vectors (--negative)", o->enc->protocol), -1;
	if (o->negative && (o->select || o->select_vectors))
		return tc_cli_usage_error(c, "--select does not go with --negative"), -1;
	if (o->select_vectors && (o->select || o->extra))
		return tc_cli_usage_error(c, "--select-vectors does not go with --select or --extra"), -1;
	for (int k = 0; o->kind && k < o->enc->nnegative_kinds; k++)
		if (!strcmp(o->kind, o->enc->negative_kinds[k].name)) {
			o->neg_kind = k;
			return 0;
		}
	if (o->kind)
		return tc_cli_usage_error(c, "unknown --kind '%s' for protocol %s", o->kind, o->enc->protocol), -1;
	return 0;
}

/* The arguments into o: 0 to go on, 1 when --help or --version was answered, -1 after a usage error. */
static int parse_gen_args(int argc, char **argv, struct gen_opts *o)
{
	struct tc_cli c;
	int id;
	tc_cli_init(&c, "gen", gen_options, argc, argv);
	while ((id = tc_cli_next(&c)) != TC_CLI_END)
		if (id == TC_CLI_ERROR || take_argument(o, &c, id))
			return -1;
	if (c.help) {
		help_gen(stdout, &c, o->proto_given && o->nencs == 1 ? o->enc : NULL);
		return 1;
	}
	if (c.version) {
		tc_cli_print_version(stdout);
		return 1;
	}
	return check_protocol_list(o, &c) || check_exec(o, &c) ? -1 : resolve_kind(o, &c);
}

/* What the options leave to settle once all are known: the protocol, the
 * encoder's defaults, the fixed configuration. */
static int settle_options(struct gen_opts *o)
{
	o->proto = tc_protocol_find(o->enc->protocol);
	if (!o->proto) {
		fprintf(stderr, "tracecert gen: the %s encoder's protocol has no descriptor in this build\n",
			o->enc->protocol);
		return -1;
	}
	o->cfg = malloc(o->proto->config_size);
	if (!o->cfg) {
		fprintf(stderr, "tracecert gen: out of memory\n");
		return -1;
	}
	o->steps_arg = o->rq.steps;
	o->blocks_arg = o->rq.blocks;
	if (!o->rq.steps)
		o->rq.steps = o->enc->default_steps;
	if (!o->rq.blocks)
		o->rq.blocks = o->enc->default_blocks;
	if (o->select_vectors) {
		o->select = o->enc->select_candidates;
		o->extra = o->enc->select_extra;
	}
	return apply_config(o);
}

/* The whole seed list (at most SEEDS_MAX_BYTES) into *text, NUL-terminated;
 * -1 after a message naming the file and the reason. */
static int read_seeds_text(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	char *buf = NULL;
	size_t n = 0;
	int e = f ? 0 : errno;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode))
		e = EISDIR;
	else if (f && (buf = malloc(SEEDS_MAX_BYTES + 2)) != NULL) {
		n = fread(buf, 1, SEEDS_MAX_BYTES + 1, f);
		e = ferror(f) ? errno : 0;
	}
	if (f)
		fclose(f);
	if (!f || e || !buf) {
		fprintf(stderr, "tracecert gen: cannot read '%s': %s\n", path, strerror(f && !e ? ENOMEM : e));
	} else if (n > SEEDS_MAX_BYTES) {
		fprintf(stderr, "tracecert gen: %s: longer than %d bytes, the limit of a seed list\n", path, SEEDS_MAX_BYTES);
	} else if (memchr(buf, '\0', n)) {
		fprintf(stderr, "tracecert gen: %s: byte offset %zu: a NUL byte (a seed list is text)\n", path,
			(size_t)((char *)memchr(buf, '\0', n) - buf));
	} else {
		buf[n] = '\0';
		*text = buf;
		*len = n;
		return 0;
	}
	free(buf);
	return -1;
}

/* One line of a seed list: a seed number (0..SEED_MAX), blanks, a '#'
 * comment; 1 with *seed, 0 for a line without one, -1 after a message. */
static int seed_of_line(const char *path, long lineno, char *line, uint64_t *seed)
{
	unsigned long long v;
	char *p = line + strspn(line, " \t\r"), *end = p + strcspn(p, " \t\r#");
	char *rest = end + strspn(end, " \t\r");
	if (p == end && (*p == '#' || *p == '\0'))
		return 0;
	if (*rest == '#' || *rest == '\0')
		*end = '\0';   /* else the message shows the whole line */
	if (*end != '\0' || tc_cli_number(p, SEED_MAX, &v)) {
		fprintf(stderr, "tracecert gen: %s:%ld: expected a seed number in 0..%lu, got '%s'\n", path, lineno,
			(unsigned long)SEED_MAX, p);
		return -1;
	}
	*seed = v;
	return 1;
}

/* Reads the seeds of a seed list; returns how many, or -1. */
static long read_seeds(const char *path, uint64_t **out)
{
	char *text = NULL, *line;
	size_t len = 0;
	long n = 0, lineno = 0;
	uint64_t *s;
	int rc = 0;
	if (read_seeds_text(path, &text, &len))
		return -1;
	s = malloc((len / 2 + 1) * sizeof *s);   /* a seed takes a digit and a line break at least */
	for (line = text; s && rc >= 0 && line < text + len; lineno++) {
		char *eol = line + strcspn(line, "\n");
		int had_break = *eol == '\n';
		*eol = '\0';
		rc = seed_of_line(path, lineno + 1, line, &s[n]);
		n += rc > 0;
		line = eol + had_break;
	}
	free(text);
	if (s && rc >= 0 && n == 0) {
		fprintf(stderr, "tracecert gen: %s: no seed in it (a seed list selects nothing)\n", path);
		rc = -1;
	}
	if (!s || rc < 0) {
		if (!s)
			fprintf(stderr, "tracecert gen: %s: out of memory\n", path);
		free(s);
		return -1;
	}
	*out = s;
	return n;
}

static int write_vector(const struct gen_opts *o, const struct tc_enc_result *r, uint64_t seed)
{
	char title[96], path[1024], err[400];
	char *text;
	int rc = 0;
	snprintf(title, sizeof title, "%s %llu, %u steps, %u blocks", o->negative ? "negative vector, seed" : "encoder seed",
		 (unsigned long long)seed, o->rq.steps, o->rq.blocks);
	text = tc_vector_text_generated(r, title, err, sizeof err);
	if (!text) {
		fprintf(stderr, "tracecert gen: seed %llu: %s\n", (unsigned long long)seed, err);
		return -1;
	}
	if (o->out) {
		snprintf(path, sizeof path, "%s/%s-%06llu.tcv", o->out, o->negative ? "neg" : "gen",
			 (unsigned long long)seed);
		rc = tc_vector_save(path, text, err, sizeof err);
		if (rc)
			fprintf(stderr, "tracecert gen: %s\n", err);
	} else if (fputs(text, stdout) == EOF) {
		/* said here, with errno: a write this long bypasses the buffer, and the
		 * check after the command (tools/cli.c) would see only the error flag */
		fprintf(stderr, "tracecert gen: cannot write standard output: %s\n", strerror(errno));
		clearerr(stdout);
		rc = -1;
	}
	free(text);
	return rc;
}

/* Prints the coverage table; returns the number of unused variants. */
static int print_coverage(const struct tc_encoder *enc, const uint64_t *hits)
{
	int n = enc->variant_count(), unused = 0;
	for (int i = 0; i < n; i++) {
		printf("%-28s %llu\n", enc->variant_name(i), (unsigned long long)hits[i]);
		unused += hits[i] == 0;
	}
	printf("# variants used: %d/%d\n", n - unused, n);
	for (int i = 0; i < n; i++)
		if (!hits[i])
			printf("# unused: %s\n", enc->variant_name(i));
	return unused;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The progress counter of a run of n vectors or seeds (conformance/progress.h):
 * none under --quiet, for a single one, or when the vectors go to standard
 * output and that is a terminal (a counter redrawn among them would be torn). */
static void progress_begin(const struct gen_opts *o, struct tc_progress *p, long n, const char *unit)
{
	int to_terminal = !o->select && !o->out && !o->coverage && !o->snapshot_out && isatty(fileno(stdout));
	tc_progress_begin(p, o->quiet || n < 2 || to_terminal ? NULL : stderr, "gen", n > INT_MAX ? INT_MAX : (int)n);
	tc_progress_units(p, unit, NULL);
}

/* One more done: counted, the line written when one is due. */
static void progress_step(struct tc_progress *p)
{
	tc_progress_count(p, 0);
	tc_progress_tick(p);
}

/* Which variants each candidate seed 1..C uses: C rows of nv flags. */
static unsigned char *candidate_sets(struct gen_opts *o, int nv)
{
	unsigned char *sets = calloc(o->select, (size_t)nv);
	struct tc_progress prog;
	progress_begin(o, &prog, (long)o->select, "seeds");
	for (unsigned long s = 0; sets && s < o->select; s++) {
		struct tc_enc_result r;
		char err[300];
		o->rq.seed = s + 1;
		if (o->enc->generate(&o->rq, &r, err, sizeof err)) {
			tc_progress_end(&prog);
			fprintf(stderr, "tracecert gen: seed %lu: %s\n", s + 1, err);
			free(sets);
			return NULL;
		}
		for (int i = 0; i < nv; i++)
			sets[s * (unsigned long)nv + (unsigned long)i] = r.variants[i] > 0;
		tc_enc_result_free(&r);
		progress_step(&prog);
	}
	tc_progress_end(&prog);
	return sets;
}

/* Greedy set cover over candidate seeds 1..C: the seed adding most unused
 * variants, until none adds any. Prints the chosen seeds. */
static int select_seeds(struct gen_opts *o)
{
	int nv = o->enc->variant_count();
	unsigned char *sets = candidate_sets(o, nv);
	unsigned char *covered = calloc(1, (size_t)nv);
	int chosen = 0, missing = 0;
	if (!sets || !covered) {
		free(sets);
		free(covered);
		return 2;
	}
	printf("# vectors/%s/gen seed list: greedy set cover of %s over seeds 1..%lu\n", o->enc->protocol,
	       o->enc->variants_file, o->select);
	printf("# (tracecert gen --protocol %s --select %lu --extra %lu --steps %u --blocks %u), then %lu plain seeds.\n",
	       o->enc->protocol, o->select, o->extra, o->rq.steps, o->rq.blocks, o->extra);
	for (;;) {
		long best = -1, best_gain = 0;
		for (unsigned long s = 0; s < o->select; s++) {
			long gain = 0;
			for (int i = 0; i < nv; i++)
				gain += sets[s * (unsigned long)nv + (unsigned long)i] && !covered[i];
			if (gain > best_gain)
				best = (long)s, best_gain = gain;
		}
		if (best < 0)
			break;
		for (int i = 0; i < nv; i++)
			covered[i] |= sets[(unsigned long)best * (unsigned long)nv + (unsigned long)i];
		printf("%ld\n", best + 1);
		chosen++;
	}
	for (unsigned long s = 0; s < o->extra; s++)
		printf("%lu\n", o->select + 1 + s);
	for (int i = 0; i < nv; i++)
		if (!covered[i]) {
			printf("# not covered by any candidate: %s\n", o->enc->variant_name(i));
			missing++;
		}
	fprintf(stderr, "tracecert gen: %d seeds cover %d of %d variants; %lu plain seeds added\n", chosen, nv - missing,
		nv, o->extra);
	free(sets);
	free(covered);
	return missing ? 1 : 0;
}

/* The vectors --snapshot-out writes. */
struct snapshot_acc {
	struct tc_enc_result r[16];
	uint64_t seed[16];
	int n;
};

static int check_snapshot_args(const struct gen_opts *o, long n)
{
	if (o->snapshot_out && (o->negative || n < 1 || n > 16)) {
		fprintf(stderr, "tracecert gen: --snapshot-out takes 1 to 16 vectors (not %ld) and no --negative\n", n);
		return -1;
	}
	return 0;
}

/* Keys no register derives that differ from their default: a snapshot
 * cannot say them. */
static void note_underivable_keys(const struct snapshot_acc *acc)
{
	for (int i = 0; i < acc->n; i++) {
		const struct tc_protocol *p = tc_protocol_find(acc->r[i].protocol);
		for (int k = 0; p && k < p->nkeys; k++) {
			const struct tc_config_key *key = &p->keys[k];
			uint64_t value = tc_config_get(p, acc->r[i].cfg, k);
			if (!strncmp(key->source, "none", 4) && value != key->def)
				fprintf(stderr, "tracecert gen: seed %llu: %s=%llu has no register: decode the snapshot "
						"with --config %s=%llu\n", (unsigned long long)acc->seed[i], key->name,
					(unsigned long long)value, key->name, (unsigned long long)value);
		}
	}
}

/* Writes the snapshot (when asked) and frees the vectors kept for it. */
static int finish_snapshot(const struct gen_opts *o, struct snapshot_acc *acc, int rc)
{
	char err[600];
	if (rc == 0 && o->snapshot_out)
		note_underivable_keys(acc);
	if (rc == 0 && o->snapshot_out &&
	    tc_snapshot_write(o->snapshot_out, acc->r, acc->seed, acc->n, !o->snapshot_raw, acc->seed[0], err, sizeof err)) {
		fprintf(stderr, "tracecert gen: --snapshot-out: %s\n", err);
		rc = 2;
	}
	for (int i = 0; i < acc->n; i++)
		tc_enc_result_free(&acc->r[i]);
	return rc;
}

/* Generates (or corrupts) the vector of one seed into r: the i-th vector is
 * made by the (i mod n)-th encoder of --protocol's list, with its own
 * --steps and --blocks defaults. 0, or the encoder's failure with err. */
static int make_one(struct gen_opts *o, long i, struct tc_enc_result *r, char *err, size_t errlen)
{
	const struct tc_encoder *enc = o->nencs > 1 ? o->encs[i % o->nencs] : o->enc;
	o->rq.steps = o->steps_arg ? o->steps_arg : enc->default_steps;
	o->rq.blocks = o->blocks_arg ? o->blocks_arg : enc->default_blocks;
	return o->negative ? enc->negative(&o->rq, o->neg_kind, r, err, errlen) : enc->generate(&o->rq, r, err, errlen);
}

/* Generates the vectors of the seeds (seeds[] or o->seed on), writes them, counts the variants. */
static int run(struct gen_opts *o, const uint64_t *seeds, long n, uint64_t *hits, struct snapshot_acc *acc)
{
	unsigned long long bytes = 0;
	double t0 = now_s();
	int rc = 0;
	char err[300];
	struct tc_progress prog;
	progress_begin(o, &prog, n, "vectors");
	for (long i = 0; i < n && rc == 0; i++) {
		struct tc_enc_result r;
		if (tc_interrupt_signal()) {
			tc_progress_end(&prog);
			fprintf(stderr, "tracecert gen: interrupted by %s after %ld of %ld vectors%s\n", tc_interrupt_name(), i,
				n, o->out ? ", each file written whole" : "");
			return tc_interrupt_status();
		}
		o->rq.seed = seeds ? seeds[i] : o->seed + (uint64_t)i;
		if (make_one(o, i, &r, err, sizeof err)) {
			tc_progress_end(&prog);   /* the message after the counter's last line */
			fprintf(stderr, "tracecert gen: seed %llu: %s\n", (unsigned long long)o->rq.seed, err);
			return 2;
		}
		for (int k = 0; o->nencs < 2 && k < o->enc->variant_count(); k++)   /* a list: no --coverage */
			hits[k] += r.variants[k];
		bytes += r.trace_len;
		if ((!o->coverage && !o->snapshot_out) || o->out)
			rc = write_vector(o, &r, o->rq.seed) ? 2 : 0;
		if (o->snapshot_out) {
			acc->seed[acc->n] = o->rq.seed;
			acc->r[acc->n++] = r;
		} else {
			tc_enc_result_free(&r);
		}
		if (rc == 0)
			progress_step(&prog);
	}
	tc_progress_end(&prog);
	if (!o->quiet && rc == 0) {   /* after a write error: said, and no count of vectors that were not written */
		double dt = now_s() - t0;
		fprintf(stderr, "tracecert gen: %ld vectors, %llu trace bytes in %.3f s: %.0f vectors/s, %.2f MB/s\n", n,
			bytes, dt, dt > 0 ? n / dt : 0.0, dt > 0 ? bytes / dt / 1e6 : 0.0);
	}
	return rc;
}

static int generate_all(struct gen_opts *o)
{
	struct snapshot_acc acc;
	uint64_t *seeds = NULL, *hits;
	long n = (long)o->count;
	int rc;
	char err[600];
	if (o->out && mkdir(o->out, 0777) != 0 && errno != EEXIST) {   /* the folder, not its parents */
		fprintf(stderr, "tracecert gen: cannot create '%s': %s\n", o->out, strerror(errno));
		return 2;
	}
	if (o->out && tc_out_probe_dir(o->out, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: --out: %s\n", err);
		return 2;
	}
	tc_interrupt_catch();   /* each vector file is whole: stop between two */
	if (o->seeds_file && (n = read_seeds(o->seeds_file, &seeds)) < 0)
		return 2;
	hits = check_snapshot_args(o, n) ? NULL : calloc((size_t)o->enc->variant_count(), sizeof *hits);
	if (!hits) {
		free(seeds);
		return 2;
	}
	acc.n = 0;
	rc = run(o, seeds, n, hits, &acc);
	rc = finish_snapshot(o, &acc, rc);
	if (rc == 0 && o->coverage && print_coverage(o->enc, hits) > 0)
		rc = 1;
	free(hits);
	free(seeds);
	return rc;
}

/* --from-exec: one vector of a real execution (tools/genexec.c). */
static int run_exec(struct gen_opts *o)
{
	o->exec.enc = o->enc;
	o->exec.proto = o->proto;
	o->exec.out = o->out;
	o->exec.steps = o->steps_arg ? o->steps_arg : 2000;
	if (!o->exec.start)
		o->exec.start = "main";
	if (o->out && mkdir(o->out, 0777) != 0 && errno != EEXIST) {   /* the folder, not its parents */
		fprintf(stderr, "tracecert gen: cannot create '%s': %s\n", o->out, strerror(errno));
		return 2;
	}
	return tc_gen_exec(&o->exec) ? 2 : 0;
}

int tc_gen_main(int argc, char **argv)
{
	struct gen_opts o;
	int rc;
	memset(&o, 0, sizeof o);
	o.enc = tc_encoders[0];
	o.encs[0] = o.enc;
	o.nencs = 1;
	o.seed = 1;
	o.count = 1;
	o.config = calloc((size_t)argc, sizeof *o.config);
	if (!o.config)
		return 2;
	rc = parse_gen_args(argc, argv, &o);
	if (rc)
		rc = rc < 0 ? 2 : 0;
	else if (settle_options(&o))
		rc = 2;
	else if (o.exec.log)
		rc = run_exec(&o);
	else if (o.select)
		rc = select_seeds(&o);
	else
		rc = generate_all(&o);
	free(o.cfg);
	free(o.config);
	return rc;
}
