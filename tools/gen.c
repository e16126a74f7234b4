/* gen.c — `tracecert gen`: generated vectors, encoding coverage, and the set-cover seed search. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gen.h"
#include "snapwrite.h"
#include "tracecert/encoder.h"
#include "tracecert/ete_config.h"

struct gen_opts {
	struct tc_enc_options enc;
	uint64_t seed;
	unsigned long count;
	const char *out;
	const char *seeds_file;
	int coverage;
	unsigned long select;       /* candidates for the set-cover search; 0 = off */
	unsigned long extra;        /* plain random seeds added after the cover */
	int quiet;
	int negative;               /* --negative: one deliberate corruption per vector */
	int neg_kind;               /* --kind: enum tc_enc_negative_kind */
	struct tc_config_builder config;   /* --config keys and registers */
	const char *snapshot_out;   /* --snapshot-out DIR */
	int snapshot_raw;           /* --snapshot-format source_data */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tracecert gen [--seed N] [--count N] [--seeds-file FILE] [--out DIR]\n"
		"                     [--steps N] [--blocks N] [--config KEY=VALUE]... [--coverage]\n"
		"                     [--select CANDIDATES [--extra N]] [--quiet]\n"
		"       tracecert gen --negative [--kind KIND] [--seed N] [--count N] [--out DIR] ...\n"
		"\n"
		"Runs the random ETE encoder (encoder/): for each seed a random program (A64, A32\n"
		"and T32 code in one or more image regions), an execution of it (interworking,\n"
		"AArch64 <-> AArch32 at exceptions and trace gaps), the trace bytes chosen at\n"
		"random among all valid encodings, and the ground truth at L1 and L3, written\n"
		"as a .tcv vector (vectors/README.md).\n"
		"\n"
		"Options:\n"
		"  --seed N            first seed (default 1)\n"
		"  --count N           number of consecutive seeds (default 1)\n"
		"  --seeds-file FILE   the seeds to generate, one per line ('#' comments)\n"
		"  --out DIR           write DIR/gen-SEED.tcv (default: the vectors to stdout)\n"
		"  --steps N           execution steps per vector, 1..100000 (default 60)\n"
		"  --blocks N          basic blocks per program, 4..4096 (default 32)\n"
		"  --config K=V        fix a decoder configuration key or register (as for dump;\n"
		"                      disables the per-seed random configuration)\n"
		"  --coverage          print, for every variant of encoder/variants.txt, how often the\n"
		"                      generated vectors use it; exit 1 if any is unused\n"
		"  --select C          set-cover search: try seeds 1..C, pick greedily the seeds that\n"
		"                      cover every variant, print them (the seed list of vectors/ete/gen)\n"
		"  --extra N           with --select: add N plain seeds after C\n"
		"  --quiet             no speed figures on stderr\n"
		"  --snapshot-out DIR  also write the vectors (1 to 16) as a trace snapshot directory:\n"
		"                      per vector a core whose memory dumps hold its image and an ETE\n"
		"                      source whose registers give its configuration (trace ID 0x10,\n"
		"                      0x11, ...), the traces interleaved in one CoreSight formatted\n"
		"                      buffer (tracecert decode --snapshot DIR reproduces each vector's\n"
		"                      expected L3; the vectors go to stdout only with --out)\n"
		"  --snapshot-format coresight|source_data\n"
		"                      one formatted buffer (the default) or one raw buffer per source\n"
		"\n"
		"Negative vectors:\n"
		"  --negative          write negative vectors, DIR/neg-SEED.tcv: the vector of the seed\n"
		"                      with ONE deliberate corruption chosen by the seed, and an [error]\n"
		"                      section (CLASS OFFSET) with the [expect.l1] the encoder knows from\n"
		"                      its own record of the packets it wrote: the packets before the\n"
		"                      corrupted one, the error line, then (but for truncated) the packets\n"
		"                      from the next A-sync + Trace Info, where the decoder resynchronises.\n"
		"                      No [expect.l3]. When the seed's vector has no A-sync after any place\n"
		"                      for the corruption, seeds derived from it are tried (the vector's\n"
		"                      comment names the encoder seed used).\n"
		"  --kind KIND         with --negative, the corruption (default any: chosen by the seed):\n"
		"                        reserved-header     a header replaced by a reserved one\n"
		"                        exact-match-index   a header replaced by 0x93, 0xA3 or 0xB3\n"
		"                        truncated           the stream cut inside a packet\n"
		"                        sbz                 an SBZ bit set: long address payload bit 7,\n"
		"                                            context payload bit 2/3, Trace Info INFO<5:1>\n"
		"                        reserved-extension  a Discard/Overflow's 03/05 replaced, or 00 xx\n"
		"                                            inserted between packets\n"
		"                        bad-async           an A-sync's 0x80 or one of its first ten zeros\n"
		"                                            replaced\n");
}

static int parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;
	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int set_config(struct gen_opts *o, const char *arg)
{
	char name[64], err[300];
	const char *eq = strchr(arg, '=');
	int rc;
	if (!eq || eq == arg || eq - arg >= (long)sizeof name) {
		fprintf(stderr, "tracecert gen: --config expects NAME=VALUE, got '%s'\n", arg);
		return -1;
	}
	snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	rc = tc_config_builder_set(&o->config, name, eq + 1, err, sizeof err);
	if (rc)
		fprintf(stderr, "tracecert gen: %s%s\n", err, rc == -1 ? " (see tracecert config)" : "");
	o->enc.random_config = 0;
	return rc ? -1 : 0;
}

static int parse_args(int argc, char **argv, struct gen_opts *o)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		unsigned long n = 0;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--coverage")) {
			o->coverage = 1;
			continue;
		} else if (!strcmp(a, "--quiet")) {
			o->quiet = 1;
			continue;
		} else if (!strcmp(a, "--negative")) {
			o->negative = 1;
			continue;
		}
		if (strcmp(a, "--out") && strcmp(a, "--seeds-file") && strcmp(a, "--config") && strcmp(a, "--seed") &&
		    strcmp(a, "--count") && strcmp(a, "--steps") && strcmp(a, "--blocks") && strcmp(a, "--select") &&
		    strcmp(a, "--extra") && strcmp(a, "--kind") && strcmp(a, "--snapshot-out") &&
		    strcmp(a, "--snapshot-format")) {
			fprintf(stderr, "tracecert gen: unknown option '%s' (see tracecert gen --help)\n", a);
			return -1;
		}
		if (!v) {
			fprintf(stderr, "tracecert gen: %s needs a value (see tracecert gen --help)\n", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--kind")) {
			o->neg_kind = tc_enc_negative_kind_parse(v);
			if (o->neg_kind < 0) {
				fprintf(stderr, "tracecert gen: unknown --kind '%s' (see tracecert gen --help)\n", v);
				return -1;
			}
		} else if (!strcmp(a, "--snapshot-out")) {
			o->snapshot_out = v;
		} else if (!strcmp(a, "--snapshot-format")) {
			if (strcmp(v, "coresight") && strcmp(v, "source_data")) {
				fprintf(stderr, "tracecert gen: --snapshot-format expects coresight or source_data, got '%s'\n", v);
				return -1;
			}
			o->snapshot_raw = !strcmp(v, "source_data");
		} else if (!strcmp(a, "--out") || !strcmp(a, "--seeds-file")) {
			*(a[2] == 'o' ? &o->out : &o->seeds_file) = v;
		} else if (!strcmp(a, "--config")) {
			if (set_config(o, v))
				return -1;
		} else if (!strcmp(a, "--seed") || !strcmp(a, "--count") || !strcmp(a, "--steps") ||
			   !strcmp(a, "--blocks") || !strcmp(a, "--select") || !strcmp(a, "--extra")) {
			unsigned long max = !strcmp(a, "--steps") ? 100000 : !strcmp(a, "--blocks") ? 4096 : 0xfffffffful;
			unsigned long min = !strcmp(a, "--blocks") ? 4 : (!strcmp(a, "--seed") || !strcmp(a, "--extra")) ? 0 : 1;
			if (parse_ulong(v, min, max, &n)) {
				fprintf(stderr, "tracecert gen: %s expects a number in %lu..%lu, got '%s'\n", a, min, max, v);
				return -1;
			}
			if (a[2] == 's' && a[3] == 'e' && a[4] == 'e')
				o->seed = n;
			else if (a[2] == 'c')
				o->count = n;
			else if (a[2] == 's' && a[3] == 't')
				o->enc.steps = (unsigned)n;
			else if (a[2] == 'b')
				o->enc.blocks = (unsigned)n;
			else if (a[2] == 's')
				o->select = n;
			else
				o->extra = n;
		} else {
			fprintf(stderr, "tracecert gen: unknown option '%s' (see tracecert gen --help)\n", a);
			return -1;
		}
	}
	return 0;
}

/* Reads the seeds of a seed list; returns how many, or -1. */
static long read_seeds(const char *path, uint64_t **out)
{
	FILE *f = fopen(path, "r");
	char line[256];
	long n = 0, cap = 0, lineno = 0;
	uint64_t *s = NULL;
	if (!f) {
		fprintf(stderr, "tracecert gen: cannot read '%s': %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		char *p = line, *end;
		unsigned long long v;
		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || *p == '\0')
			continue;
		v = strtoull(p, &end, 10);
		if (end == p || (*end != '\n' && *end != '\0' && *end != ' ' && *end != '#')) {
			fprintf(stderr, "tracecert gen: %s:%ld: expected a seed number\n", path, lineno);
			fclose(f);
			free(s);
			return -1;
		}
		if (n == cap) {
			uint64_t *ns;
			cap = cap ? 2 * cap : 256;
			ns = realloc(s, (size_t)cap * sizeof *s);
			if (!ns) {
				fclose(f);
				free(s);
				return -1;
			}
			s = ns;
		}
		s[n++] = v;
	}
	fclose(f);
	*out = s;
	return n;
}

static int write_vector(const struct gen_opts *o, const struct tc_enc_vector *v, uint64_t seed)
{
	char title[96], path[1024];
	char *text;
	FILE *f = stdout;
	if (o->negative)
		snprintf(title, sizeof title, "negative vector, seed %llu, %u steps, %u blocks", (unsigned long long)seed,
			 o->enc.steps, o->enc.blocks);
	else
		snprintf(title, sizeof title, "encoder seed %llu, %u steps, %u blocks", (unsigned long long)seed,
			 o->enc.steps, o->enc.blocks);
	text = tc_enc_tcv_text(v, title);
	if (!text)
		return -1;
	if (o->out) {
		snprintf(path, sizeof path, "%s/%s-%06llu.tcv", o->out, o->negative ? "neg" : "gen",
			 (unsigned long long)seed);
		f = fopen(path, "w");
		if (!f) {
			fprintf(stderr, "tracecert gen: cannot write '%s': %s\n", path, strerror(errno));
			free(text);
			return -1;
		}
	}
	fputs(text, f);
	if (f != stdout)
		fclose(f);
	free(text);
	return 0;
}

/* Prints the coverage table; returns the number of unused variants. */
static int print_coverage(const uint64_t *hits)
{
	int n = tc_enc_variant_count(), unused = 0;
	for (int i = 0; i < n; i++) {
		printf("%-28s %llu\n", tc_enc_variant_name(i), (unsigned long long)hits[i]);
		unused += hits[i] == 0;
	}
	printf("# variants used: %d/%d\n", n - unused, n);
	for (int i = 0; i < n; i++)
		if (!hits[i])
			printf("# unused: %s\n", tc_enc_variant_name(i));
	return unused;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Greedy set cover over candidate seeds 1..C: the seed adding most unused
 * variants, until none adds any. Prints the chosen seeds. */
static int select_seeds(struct gen_opts *o)
{
	int nv = tc_enc_variant_count();
	unsigned char *sets = calloc(o->select, (size_t)nv);
	unsigned char *covered = calloc(1, (size_t)nv);
	int chosen = 0, missing = 0;
	if (!sets || !covered)
		return 2;
	for (unsigned long s = 0; s < o->select; s++) {
		struct tc_enc_vector v;
		char err[128];
		o->enc.seed = s + 1;
		if (tc_enc_generate(&o->enc, &v, err, sizeof err)) {
			fprintf(stderr, "tracecert gen: %s\n", err);
			return 2;
		}
		for (int i = 0; i < nv; i++)
			sets[s * (unsigned long)nv + (unsigned long)i] = v.variants[i] > 0;
		tc_enc_vector_free(&v);
	}
	printf("# vectors/ete/gen seed list: greedy set cover of encoder/variants.txt over seeds 1..%lu\n", o->select);
	printf("# (tracecert gen --select %lu --extra %lu --steps %u --blocks %u), then %lu plain seeds.\n", o->select,
	       o->extra, o->enc.steps, o->enc.blocks, o->extra);
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
			printf("# not covered by any candidate: %s\n", tc_enc_variant_name(i));
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
	struct tc_enc_vector v[16];
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

/* Writes the snapshot (when asked) and frees the vectors kept for it. */
static int finish_snapshot(const struct gen_opts *o, struct snapshot_acc *acc, int rc)
{
	char err[600];
	for (int i = 0; rc == 0 && i < acc->n; i++)
		if (acc->v[i].cfg.rme || acc->v[i].cfg.tf_keep_cc)
			fprintf(stderr, "tracecert gen: seed %llu: rme and tf_keep_cc have no register: decode the snapshot with --config\n",
				(unsigned long long)acc->seed[i]);
	if (rc == 0 && o->snapshot_out &&
	    tc_snapshot_write(o->snapshot_out, acc->v, acc->seed, acc->n, !o->snapshot_raw, acc->seed[0], err, sizeof err)) {
		fprintf(stderr, "tracecert gen: --snapshot-out: %s\n", err);
		rc = 2;
	}
	for (int i = 0; i < acc->n; i++)
		tc_enc_vector_free(&acc->v[i]);
	return rc;
}

int tc_gen_main(int argc, char **argv)
{
	static struct snapshot_acc acc;
	struct gen_opts o;
	uint64_t *seeds = NULL, *hits;
	long n;
	int rc = 0;
	char err[300];
	unsigned long long bytes = 0;
	double t0;
	memset(&o, 0, sizeof o);
	tc_enc_options_default(&o.enc);
	o.enc.steps = 60;
	o.enc.blocks = 32;
	o.seed = 1;
	o.count = 1;
	tc_config_builder_init(&o.config, tc_protocol_find("ete"));   /* the encoder is ETE's */
	if (parse_args(argc, argv, &o))
		return 2;
	if (tc_config_builder_apply(&o.config, &o.enc.cfg, NULL, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
		return 2;
	}
	if (o.neg_kind && !o.negative) {
		fprintf(stderr, "tracecert gen: --kind needs --negative\n");
		return 2;
	}
	if (o.negative && o.select) {
		fprintf(stderr, "tracecert gen: --select does not go with --negative\n");
		return 2;
	}
	if (o.select)
		return select_seeds(&o);
	if (o.out && mkdir(o.out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "tracecert gen: cannot create '%s': %s\n", o.out, strerror(errno));
		return 2;
	}
	if (o.seeds_file) {
		n = read_seeds(o.seeds_file, &seeds);
		if (n < 0)
			return 2;
	} else {
		n = (long)o.count;
	}
	hits = check_snapshot_args(&o, n) ? NULL : calloc((size_t)tc_enc_variant_count(), sizeof *hits);
	if (!hits) {
		free(seeds);
		return 2;
	}
	acc.n = 0;
	t0 = now_s();
	for (long i = 0; i < n && rc == 0; i++) {
		struct tc_enc_vector v;
		char err[128];
		o.enc.seed = seeds ? seeds[i] : o.seed + (uint64_t)i;
		if (o.negative ? tc_enc_make_negative(&o.enc, o.neg_kind, &v, err, sizeof err)
			       : tc_enc_generate(&o.enc, &v, err, sizeof err)) {
			fprintf(stderr, "tracecert gen: %s\n", err);
			rc = 2;
			break;
		}
		for (int k = 0; k < tc_enc_variant_count(); k++)
			hits[k] += v.variants[k];
		bytes += v.trace_len;
		if ((!o.coverage && !o.snapshot_out) || o.out)
			rc = write_vector(&o, &v, o.enc.seed) ? 2 : 0;
		if (o.snapshot_out) {
			acc.seed[acc.n] = o.enc.seed;
			acc.v[acc.n++] = v;
		} else {
			tc_enc_vector_free(&v);
		}
	}
	rc = finish_snapshot(&o, &acc, rc);
	if (!o.quiet) {
		double dt = now_s() - t0;
		fprintf(stderr, "tracecert gen: %ld vectors, %llu trace bytes in %.3f s: %.0f vectors/s, %.2f MB/s\n", n,
			bytes, dt, dt > 0 ? n / dt : 0.0, dt > 0 ? bytes / dt / 1e6 : 0.0);
	}
	if (rc == 0 && o.coverage && print_coverage(hits) > 0)
		rc = 1;
	free(hits);
	free(seeds);
	return rc;
}
