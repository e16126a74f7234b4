/* twins.c — the RES0 rule (ERRATA TC-R1) as a property of every vector: set a bit the text
 * leaves unassigned and the decode is the same, plus one warning. Prints TAP (version 13).
 *
 * For each vector that decodes without error, every packet of its [expect.l1] whose layout has
 * an ignored field gets a twin: the same trace with that field changed (one twin per packet and
 * field). The twin's s1, L2, L3 and errors must equal the reference's output for the
 * original trace, and its L1 too once the one new warning line is taken out: that line must
 * follow the packet's own line, with the class, field and bits written below from the packet
 * layouts (reference/ete/FORMAT.md, reference/ete/ERRATA.md), not taken from the decoder. The
 * packets are found from the vector's expected L1: offset, header and kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/ete.h"
#include "vector.h"

/* One twin: a byte of the trace replaced, and the warning it must give. */
struct twin {
	size_t at;
	uint8_t value;
	const char *cls;
	const char *field;
	unsigned bits;
};

enum { max_twins = 4 };

struct packet {
	unsigned long long off;
	size_t len;
	unsigned header;
	char kind[32];
	size_t line;            /* index in the expected L1 */
};

struct totals {
	int vectors;            /* vectors with at least one twin */
	int twins;
	int failed;
	int per_field[16];
};

static const char *const field_names[] = {
	"plctl", "info", "exception", "instrumentation", "cc-f2-f", "cc-f2-aaaa", "cc-f3-aa", "source-address"
};
enum { nfields = (int)(sizeof field_names / sizeof field_names[0]) };

static void add_twin(struct twin *t, int *n, size_t at, unsigned value, const char *cls, const char *field,
		     unsigned bits)
{
	if (*n < max_twins)
		t[(*n)++] = (struct twin){ at, (uint8_t)value, cls, field, bits };
}

/* The twins of one packet (tr: the trace, p: its offset, length, header and kind). */
static int packet_twins(const struct tc_vector *v, const uint8_t *tr, const struct packet *p, struct twin *t)
{
	int n = 0;
	size_t o = (size_t)p->off;
	/* only fields that are clear (as the text substitutes them), so the twin adds one warning */
	if (!strcmp(p->kind, "trace-info") && p->len >= 2) {
		if (!(tr[o + 1] & 0xe2))
			add_twin(t, &n, o + 1, tr[o + 1] | 0x20, "res0", "plctl", 0x20);
		if ((tr[o + 1] & 1) && p->len >= 3 && !(tr[o + 2] & 0xbe))
			add_twin(t, &n, o + 2, tr[o + 2] | 0x10, "res0", "info", 0x10);
	} else if (!strcmp(p->kind, "exception") && p->len >= 2 && !(tr[o + 1] & 0x80)) {
		add_twin(t, &n, o + 1, tr[o + 1] | 0x80, "res0", "exception", 0x80);
	} else if (!strcmp(p->kind, "instrumentation") && p->len >= 2 && !(tr[o + 1] & 0xfc)) {
		add_twin(t, &n, o + 1, tr[o + 1] | 0x04, "res0", "instrumentation", 0x04);
	} else if (!strcmp(p->kind, "source-address") && p->header >= 0xb6 && p->header <= 0xb9 && p->len >= 2 &&
		   !(tr[o + 1] & 0x80)) {
		add_twin(t, &n, o + 1, tr[o + 1] | 0x80, "res0", "source-address", 0x80);
	} else if (!strcmp(p->kind, "cycle-count") && ((const struct tc_ete_config *)v->config)->commopt) {
		if (p->header == 0x0d && p->len == 2) {
			add_twin(t, &n, o, 0x0c, "ignored-field", "cc-f2-f", 0);
			if ((tr[o + 1] >> 4) == 0xf)
				add_twin(t, &n, o + 1, (tr[o + 1] & 0x0f) | 0x50, "ignored-field", "cc-f2-aaaa", 0x5);
		} else if (p->header >= 0x10 && p->header <= 0x13) {
			add_twin(t, &n, o, p->header | 0x08, "ignored-field", "cc-f3-aa", 2);
		}
	}
	return n;
}

/* The packets of the expected L1, in order, with their lengths. */
static size_t find_packets(const struct tc_vector *v, struct packet *out, size_t max)
{
	const struct tc_lines *l = &v->expect[tc_sec_l1];
	size_t n = 0;
	for (size_t i = 0; i < l->n && n < max; i++) {
		struct packet p;
		memset(&p, 0, sizeof p);
		if (sscanf(l->line[i], "@%llu %2x %31s", &p.off, &p.header, p.kind) != 3 ||
		    !strcmp(p.kind, "warning") || p.off >= v->trace_len)
			continue;
		p.line = i;
		if (n > 0 && out[n - 1].off == p.off)
			continue;
		if (n > 0)
			out[n - 1].len = (size_t)(p.off - out[n - 1].off);
		out[n++] = p;
	}
	if (n > 0)
		out[n - 1].len = v->trace_len - (size_t)out[n - 1].off;
	return n;
}

/* Removes the first line equal to text; returns whether there was one (its index in *at). */
static int remove_line(struct tc_lines *l, const char *text, size_t *at)
{
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->line[i], text))
			continue;
		free(l->line[i]);
		memmove(&l->line[i], &l->line[i + 1], (l->n - i - 1) * sizeof *l->line);
		l->n--;
		*at = i;
		return 1;
	}
	return 0;
}

/* The L1 line of the twin's packet with its original header byte back. */
static void restore_header(struct tc_lines *l1, const struct packet *p, const struct twin *t)
{
	char from[48], to[48];
	if (t->at != p->off)
		return;
	snprintf(from, sizeof from, "@%llu %02x ", p->off, t->value);
	snprintf(to, sizeof to, "@%llu %02x ", p->off, p->header);
	for (size_t i = 0; i < l1->n; i++)
		if (!strncmp(l1->line[i], from, strlen(from)))
			memcpy(l1->line[i], to, strlen(to));
}

/* Checks one twin; prints a diagnostic and returns 1 when it fails. The twin's output, less
 * its new L1 warning, must be the original's at every level (stage 3 runs with or without an
 * image); the warning follows the packet's line (or a warning of the same packet). */
static int check_twin(const struct tc_vector *v, const struct tc_output *orig, const struct packet *p,
		      const struct twin *t)
{
	struct tc_output got;
	uint8_t *tr = malloc(v->trace_len);
	char l1_warning[160], where[48];
	int bad = 0;
	if (!tr)
		return 1;
	memcpy(tr, v->trace, v->trace_len);
	tr[t->at] = t->value;
	if (tc_collect(v->proto, v->config, &v->image, tr, v->trace_len, 0, &got)) {
		free(tr);
		return 1;
	}
	snprintf(l1_warning, sizeof l1_warning, "@%llu %02x warning class=%s field=%s bits=0x%x", p->off,
		 t->at == p->off ? t->value : p->header, t->cls, t->field, t->bits);
	snprintf(where, sizeof where, "@%llu ", p->off);
	for (int s = 0; s < tc_sec_count && !bad; s++) {
		size_t at = 0;
		int want = s == tc_sec_l1;
		int found = want && remove_line(&got.level[s], l1_warning, &at);
		if (want && !found) {
			printf("  # twin @%zu=%02x: no '%s' in L1\n", t->at, t->value, l1_warning);
			bad = 1;
		} else if (s == tc_sec_l1 && (at == 0 || strncmp(got.level[s].line[at - 1], where, strlen(where)))) {
			printf("  # twin @%zu=%02x: the L1 warning does not follow its packet\n", t->at, t->value);
			bad = 1;
		} else {
			if (s == tc_sec_l1)
				restore_header(&got.level[s], p, t);
			if (tc_lines_diff(&orig->level[s], &got.level[s]) >= 0) {
				printf("  # twin @%zu=%02x (%s): level %d differs beyond its warning\n", t->at,
				       t->value, t->field, s);
				bad = 1;
			}
		}
	}
	tc_output_free(&got);
	free(tr);
	return bad;
}

static int field_index(const char *field)
{
	for (int i = 0; i < nfields; i++)
		if (!strcmp(field, field_names[i]))
			return i;
	return 0;
}

static void run_vector(const char *path, int num, struct totals *tot)
{
	struct tc_vector v;
	struct tc_output orig;
	struct packet *pk;
	char err[512];
	size_t np;
	int bad = 0, twins = 0;
	if (tc_vector_load(path, &v, err, sizeof err)) {
		printf("not ok %d - %s\n  ---\n  message: '%s'\n  ...\n", num, path, err);
		tot->failed++;
		return;
	}
	if (v.proto->id != tc_proto_ete) {   /* the packet layouts below are ETE's */
		printf("ok %d - %s # SKIP not an ETE vector\n", num, path);
		tc_vector_free(&v);
		return;
	}
	if (v.has[tc_sec_error] || !v.has[tc_sec_l1] || tc_collect(v.proto, v.config, &v.image, v.trace, v.trace_len, 0, &orig)) {
		printf("ok %d - %s # SKIP negative, no [expect.l1], or no decoder\n", num, path);
		tc_vector_free(&v);
		return;
	}
	pk = calloc(v.expect[tc_sec_l1].n + 1, sizeof *pk);
	np = pk ? find_packets(&v, pk, v.expect[tc_sec_l1].n + 1) : 0;
	for (size_t i = 0; i < np; i++) {
		struct twin t[max_twins];
		int n = packet_twins(&v, v.trace, &pk[i], t);
		for (int k = 0; k < n; k++) {
			twins++;
			tot->per_field[field_index(t[k].field)]++;
			bad |= check_twin(&v, &orig, &pk[i], &t[k]);
		}
	}
	printf("%s %d - %s (%d twins)\n", bad ? "not ok" : "ok", num, path, twins);
	tot->failed += bad;
	tot->twins += twins;
	tot->vectors += twins > 0;
	free(pk);
	tc_output_free(&orig);
	tc_vector_free(&v);
}

int main(int argc, char **argv)
{
	struct totals tot;
	char **list = NULL, err[600];
	size_t n = 0;
	int missing = 0;
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: twins PATH...\n"
			"For every positive vector under each PATH, sets the bits the text leaves unassigned\n"
			"in each packet that has some (ERRATA TC-R1) and checks that the decode is the same\n"
			"plus one warning. Prints TAP; fails when a field never got a twin.\n");
		return argc < 2 ? 2 : 0;
	}
	memset(&tot, 0, sizeof tot);
	for (int i = 1; i < argc; i++) {
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "twins: %s\n", err);
			return 2;
		}
	}
	printf("TAP version 13\n1..%zu\n", n + 1);
	for (size_t i = 0; i < n; i++) {
		run_vector(list[i], (int)i + 1, &tot);
		free(list[i]);
	}
	free(list);
	printf("# %d twins in %d vectors:", tot.twins, tot.vectors);
	for (int f = 0; f < nfields; f++) {
		printf(" %s %d", field_names[f], tot.per_field[f]);
		missing += tot.per_field[f] == 0;
	}
	printf("\n%s %zu - every ignored field has a twin\n", missing ? "not ok" : "ok", n + 1);
	return tot.failed || missing ? 1 : 0;
}
