/* gen.c — `tracecert gen`: generated vectors of any protocol's encoder, encoding coverage, and the set-cover seed search. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "gen.h"
#include "snapwrite.h"
#include "tracecert/encoder.h"
#include "tracecert/protocol.h"
#include "vector.h"

struct gen_opts {
	const struct tc_encoder *enc;      /* --protocol: its encoder */
	const struct tc_protocol *proto;   /* and its descriptor */
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
	int quiet;
	int negative;               /* --negative: one deliberate corruption per vector */
	const char *kind;           /* --kind NAME */
	int neg_kind;               /* its index in enc->negative_kinds */
	const char *snapshot_out;   /* --snapshot-out DIR */
	int snapshot_raw;           /* --snapshot-format source_data */
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

static void usage_encoders(FILE *f)
{
	for (int i = 0; tc_encoders[i]; i++) {
		const struct tc_encoder *e = tc_encoders[i];
		fprintf(f, "\n--protocol %s (default --steps %u --blocks %u; variants: %s):\n", e->protocol,
			e->default_steps, e->default_blocks, e->variants_file);
		print_indented(f, "  ", e->doc);
	}
}

static void usage_kinds(FILE *f)
{
	for (int i = 0; tc_encoders[i]; i++) {
		const struct tc_encoder *e = tc_encoders[i];
		if (!e->negative) {
			fprintf(f, "                      (--protocol %s makes no negative vectors)\n", e->protocol);
			continue;
		}
		fprintf(f, "                      --protocol %s:\n", e->protocol);
		print_indented(f, "                        ", e->negative_doc);
		fprintf(f, "  --kind KIND         with --negative --protocol %s, the corruption:\n", e->protocol);
		for (int k = 0; k < e->nnegative_kinds; k++) {
			const char *doc = e->negative_kinds[k].doc;
			size_t n = strcspn(doc, "\n");
			fprintf(f, "                        %-19s %.*s\n", e->negative_kinds[k].name, (int)n, doc);
			if (doc[n])
				print_indented(f, "                                            ", doc + n + 1);
		}
	}
}

static void usage(FILE *f)
{
	char list[200];
	encoder_list(list, sizeof list, "|");
	fprintf(f,
		"usage: tracecert gen [--protocol P] [--seed N] [--count N] [--seeds-file FILE] [--out DIR]\n"
		"                     [--steps N] [--blocks N] [--config KEY=VALUE]... [--coverage]\n"
		"                     [--select CANDIDATES [--extra N]] [--quiet]\n"
		"       tracecert gen --negative [--kind KIND] [--seed N] [--count N] [--out DIR] ...\n"
		"\n"
		"Runs the random encoder of a protocol: for each seed a random program in one or\n"
		"more image regions, an execution of it, the trace bytes chosen at random among\n"
		"all valid encodings, and the ground truth at L1 and L3, written as a .tcv vector\n"
		"(vectors/README.md) by the one vector writer (conformance/vecwrite.c).\n"
		"\n"
		"Options:\n"
		"  --protocol %-8s the protocol whose encoder runs (default %s); an unknown\n"
		"                      one is refused with the list\n"
		"  --seed N            first seed (default 1)\n"
		"  --count N           number of consecutive seeds (default 1)\n"
		"  --seeds-file FILE   the seeds to generate, one per line ('#' comments)\n"
		"  --out DIR           write DIR/gen-SEED.tcv (default: the vectors to stdout)\n"
		"  --steps N           execution steps per vector, 1..100000 (default: the encoder's)\n"
		"  --blocks N          basic blocks per program, 4..4096 (default: the encoder's)\n"
		"  --config K=V        fix a decoder configuration key or register of the protocol\n"
		"                      (as for dump; disables the per-seed random configuration)\n"
		"  --coverage          print, for every variant of the encoder's variant list, how\n"
		"                      often the generated vectors use it; exit 1 if any is unused\n"
		"  --select C          set-cover search: try seeds 1..C, pick greedily the seeds that\n"
		"                      cover every variant, print them (the seed list of\n"
		"                      vectors/PROTOCOL/gen)\n"
		"  --extra N           with --select: add N plain seeds after C\n"
		"  --quiet             no speed figures on stderr\n"
		"  --snapshot-out DIR  also write the vectors (1 to 16) as a trace snapshot directory:\n"
		"                      per vector a core whose memory dumps hold its image and a\n"
		"                      trace source whose registers give its configuration (trace ID\n"
		"                      0x10, 0x11, ...), the traces interleaved in one CoreSight\n"
		"                      formatted buffer (tracecert decode --snapshot DIR reproduces\n"
		"                      each vector's expected L3; the vectors go to stdout only with\n"
		"                      --out); only for a protocol tools/snapwrite.c writes\n"
		"  --snapshot-format coresight|source_data\n"
		"                      one formatted buffer (the default) or one raw buffer per source\n"
		"\n"
		"Negative vectors:\n"
		"  --negative          write negative vectors, DIR/neg-SEED.tcv: the vector of the seed\n"
		"                      with ONE deliberate corruption chosen by the seed, an [error]\n"
		"                      section (CLASS OFFSET) and the [expect.l1] the encoder knows from\n"
		"                      its own record of the packets it wrote; no [expect.l3]\n",
		list, tc_encoders[0]->protocol);
	usage_kinds(f);
	fprintf(f, "\nThe encoders:\n");
	usage_encoders(f);
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

/* --seed, --count, --steps, --blocks, --select, --extra: a number in its range. */
static int set_number(struct gen_opts *o, const char *a, const char *v)
{
	unsigned long n, max = 0xfffffffful, min = 1;
	if (!strcmp(a, "--steps"))
		max = 100000;
	else if (!strcmp(a, "--blocks"))
		min = 4, max = 4096;
	else if (!strcmp(a, "--seed") || !strcmp(a, "--extra"))
		min = 0;
	if (parse_ulong(v, min, max, &n)) {
		fprintf(stderr, "tracecert gen: %s expects a number in %lu..%lu, got '%s'\n", a, min, max, v);
		return -1;
	}
	if (!strcmp(a, "--seed"))
		o->seed = n;
	else if (!strcmp(a, "--count"))
		o->count = n;
	else if (!strcmp(a, "--steps"))
		o->rq.steps = (unsigned)n;
	else if (!strcmp(a, "--blocks"))
		o->rq.blocks = (unsigned)n;
	else if (!strcmp(a, "--select"))
		o->select = n;
	else
		o->extra = n;
	return 0;
}

static int set_protocol(struct gen_opts *o, const char *v)
{
	char list[200];
	o->enc = find_encoder(v);
	if (o->enc)
		return 0;
	encoder_list(list, sizeof list, ", ");
	fprintf(stderr, "tracecert gen: unknown protocol '%s' (the encoders of this build: %s)\n", v, list);
	return -1;
}

/* An option with a value. */
static int set_option(struct gen_opts *o, const char *a, const char *v)
{
	if (!strcmp(a, "--protocol"))
		return set_protocol(o, v);
	if (!strcmp(a, "--kind"))
		o->kind = v;
	else if (!strcmp(a, "--snapshot-out"))
		o->snapshot_out = v;
	else if (!strcmp(a, "--snapshot-format")) {
		if (strcmp(v, "coresight") && strcmp(v, "source_data")) {
			fprintf(stderr, "tracecert gen: --snapshot-format expects coresight or source_data, got '%s'\n", v);
			return -1;
		}
		o->snapshot_raw = !strcmp(v, "source_data");
	} else if (!strcmp(a, "--out"))
		o->out = v;
	else if (!strcmp(a, "--seeds-file"))
		o->seeds_file = v;
	else if (!strcmp(a, "--config"))
		o->config[o->nconfig++] = v;
	else
		return set_number(o, a, v);
	return 0;
}

static int takes_value(const char *a)
{
	static const char *const names[] = { "--protocol", "--out", "--seeds-file", "--config", "--seed", "--count",
					     "--steps", "--blocks", "--select", "--extra", "--kind",
					     "--snapshot-out", "--snapshot-format" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcmp(a, names[i]))
			return 1;
	return 0;
}

static int parse_args(int argc, char **argv, struct gen_opts *o)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--coverage")) {
			o->coverage = 1;
		} else if (!strcmp(a, "--quiet")) {
			o->quiet = 1;
		} else if (!strcmp(a, "--negative")) {
			o->negative = 1;
		} else if (!takes_value(a)) {
			fprintf(stderr, "tracecert gen: unknown option '%s' (see tracecert gen --help)\n", a);
			return -1;
		} else if (!v) {
			fprintf(stderr, "tracecert gen: %s needs a value (see tracecert gen --help)\n", a);
			return -1;
		} else if (set_option(o, a, argv[++i])) {
			return -1;
		}
	}
	return 0;
}

/* The fixed configuration from the --config arguments, over the protocol's defaults. */
static int apply_config(struct gen_opts *o)
{
	struct tc_config_builder b;
	char name[64], err[300];
	tc_config_builder_init(&b, o->proto);
	for (int i = 0; i < o->nconfig; i++) {
		const char *arg = o->config[i], *eq = strchr(arg, '=');
		int rc;
		if (!eq || eq == arg || eq - arg >= (long)sizeof name) {
			fprintf(stderr, "tracecert gen: --config expects NAME=VALUE, got '%s'\n", arg);
			return -1;
		}
		snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
		rc = tc_config_builder_set(&b, name, eq + 1, err, sizeof err);
		if (rc) {
			fprintf(stderr, "tracecert gen: %s%s\n", err, rc == -1 ? " (see tracecert config)" : "");
			return -1;
		}
	}
	o->proto->config_default(o->cfg);
	if (tc_config_builder_apply(&b, o->cfg, NULL, err, sizeof err)) {
		fprintf(stderr, "tracecert gen: %s\n", err);
		return -1;
	}
	o->rq.random_config = o->nconfig == 0;
	o->rq.cfg = o->cfg;
	return 0;
}

/* --kind: an index of the encoder's negative kinds. */
static int resolve_kind(struct gen_opts *o)
{
	if (o->kind && !o->negative) {
		fprintf(stderr, "tracecert gen: --kind needs --negative\n");
		return -1;
	}
	if (o->negative && !o->enc->negative) {
		fprintf(stderr, "tracecert gen: the %s encoder makes no negative vectors (--negative)\n", o->enc->protocol);
		return -1;
	}
	if (o->negative && o->select) {
		fprintf(stderr, "tracecert gen: --select does not go with --negative\n");
		return -1;
	}
	for (int k = 0; o->kind && k < o->enc->nnegative_kinds; k++)
		if (!strcmp(o->kind, o->enc->negative_kinds[k].name)) {
			o->neg_kind = k;
			return 0;
		}
	if (o->kind) {
		fprintf(stderr, "tracecert gen: unknown --kind '%s' (see tracecert gen --help)\n", o->kind);
		return -1;
	}
	return 0;
}

/* Everything parse_args leaves to be settled once every option is known. */
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
	if (!o->rq.steps)
		o->rq.steps = o->enc->default_steps;
	if (!o->rq.blocks)
		o->rq.blocks = o->enc->default_blocks;
	return apply_config(o) || resolve_kind(o) ? -1 : 0;
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
	} else {
		fputs(text, stdout);
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

/* Which variants each candidate seed 1..C uses: C rows of nv flags. */
static unsigned char *candidate_sets(struct gen_opts *o, int nv)
{
	unsigned char *sets = calloc(o->select, (size_t)nv);
	for (unsigned long s = 0; sets && s < o->select; s++) {
		struct tc_enc_result r;
		char err[300];
		o->rq.seed = s + 1;
		if (o->enc->generate(&o->rq, &r, err, sizeof err)) {
			fprintf(stderr, "tracecert gen: seed %lu: %s\n", s + 1, err);
			free(sets);
			return NULL;
		}
		for (int i = 0; i < nv; i++)
			sets[s * (unsigned long)nv + (unsigned long)i] = r.variants[i] > 0;
		tc_enc_result_free(&r);
	}
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
static void note_underivable_keys(const struct gen_opts *o, const struct snapshot_acc *acc)
{
	for (int i = 0; i < acc->n; i++)
		for (int k = 0; k < o->proto->nkeys; k++) {
			const struct tc_config_key *key = &o->proto->keys[k];
			uint64_t value = o->proto->config_get_key(acc->r[i].cfg, k);
			if (!strncmp(key->source, "none", 4) && value != key->def)
				fprintf(stderr, "tracecert gen: seed %llu: %s=%llu has no register: decode the snapshot "
						"with --config %s=%llu\n", (unsigned long long)acc->seed[i], key->name,
					(unsigned long long)value, key->name, (unsigned long long)value);
		}
}

/* Writes the snapshot (when asked) and frees the vectors kept for it. */
static int finish_snapshot(const struct gen_opts *o, struct snapshot_acc *acc, int rc)
{
	char err[600];
	if (rc == 0 && o->snapshot_out)
		note_underivable_keys(o, acc);
	if (rc == 0 && o->snapshot_out &&
	    tc_snapshot_write(o->snapshot_out, acc->r, acc->seed, acc->n, !o->snapshot_raw, acc->seed[0], err, sizeof err)) {
		fprintf(stderr, "tracecert gen: --snapshot-out: %s\n", err);
		rc = 2;
	}
	for (int i = 0; i < acc->n; i++)
		tc_enc_result_free(&acc->r[i]);
	return rc;
}

/* Generates (or corrupts) the vector of one seed into r. */
static int make_one(struct gen_opts *o, struct tc_enc_result *r)
{
	char err[300];
	int rc = o->negative ? o->enc->negative(&o->rq, o->neg_kind, r, err, sizeof err)
			     : o->enc->generate(&o->rq, r, err, sizeof err);
	if (rc)
		fprintf(stderr, "tracecert gen: seed %llu: %s\n", (unsigned long long)o->rq.seed, err);
	return rc;
}

/* Generates the vectors of the seeds (seeds[] or o->seed on), writes them, counts the variants. */
static int run(struct gen_opts *o, const uint64_t *seeds, long n, uint64_t *hits, struct snapshot_acc *acc)
{
	unsigned long long bytes = 0;
	double t0 = now_s();
	int rc = 0;
	for (long i = 0; i < n && rc == 0; i++) {
		struct tc_enc_result r;
		o->rq.seed = seeds ? seeds[i] : o->seed + (uint64_t)i;
		if (make_one(o, &r))
			return 2;
		for (int k = 0; k < o->enc->variant_count(); k++)
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
	}
	if (!o->quiet) {
		double dt = now_s() - t0;
		fprintf(stderr, "tracecert gen: %ld vectors, %llu trace bytes in %.3f s: %.0f vectors/s, %.2f MB/s\n", n,
			bytes, dt, dt > 0 ? n / dt : 0.0, dt > 0 ? bytes / dt / 1e6 : 0.0);
	}
	return rc;
}

static int generate_all(struct gen_opts *o)
{
	static struct snapshot_acc acc;
	uint64_t *seeds = NULL, *hits;
	long n = (long)o->count;
	int rc;
	if (o->out && mkdir(o->out, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "tracecert gen: cannot create '%s': %s\n", o->out, strerror(errno));
		return 2;
	}
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

int tc_gen_main(int argc, char **argv)
{
	struct gen_opts o;
	int rc;
	memset(&o, 0, sizeof o);
	o.enc = tc_encoders[0];
	o.seed = 1;
	o.count = 1;
	o.config = calloc((size_t)argc, sizeof *o.config);
	if (!o.config)
		return 2;
	if (parse_args(argc, argv, &o) || settle_options(&o))
		rc = 2;
	else if (o.select)
		rc = select_seeds(&o);
	else
		rc = generate_all(&o);
	free(o.cfg);
	free(o.config);
	return rc;
}
