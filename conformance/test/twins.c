/* SPDX-License-Identifier: BSD-3-Clause */
/* twins.c — the RES0 rule (each protocol's ERRATA.md: a bit the text leaves unassigned is
 * ignored, with a warning) as a property of every vector: set such a bit and the decode is the
 * same, plus one warning. Prints TAP (version 13).
 *
 * For each vector that decodes without error, every packet of its [expect.l1] whose layout has
 * an ignored field gets a twin: the same trace with that field changed (one twin per packet and
 * field). The twin's s1, L2, L3 and errors must equal the reference's output for the
 * original trace, and its L1 too once the one new warning line is taken out: that line must
 * follow the packet's own line, with the class, field and bits that the protocol's twin rules
 * (twins_<protocol>.c, found in twin_rules_table by the vector's protocol) write from the packet
 * layouts of its FORMAT.md and ERRATA.md, not taken from the decoder. The packets are found
 * from the vector's expected L1: offset, header and kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twins.h"

enum { rule_max = 16 };   /* protocols with twin rules (twin_rules_table) */

/* What one protocol's vectors gave. */
struct rule_totals {
	int positive;           /* vectors that decode without error and have [expect.l1] */
	int covered;            /* of them, vectors with at least one twin */
	int twins;
	int per_field[twin_max_fields];
};

struct totals {
	struct rule_totals rules[rule_max];
	int nrules;             /* of twin_rules_table */
	int failed;             /* vectors that failed */
};

void twin_add(struct twin_list *l, size_t at, unsigned value, const char *cls, const char *field, unsigned bits)
{
	if (l->n < twin_max_per_packet)
		l->twin[l->n] = (struct twin){ at, (uint8_t)value, cls, field, bits };
	l->n++;   /* beyond the list: the driver reports the rules' fault */
}

int twin_packet_byte(const struct tc_vector *v, const struct twin_packet *p, size_t i)
{
	if (i >= p->len || p->off + i >= v->trace_len)
		return -1;
	return v->trace[p->off + i];
}

uint64_t twin_config_key(const struct tc_vector *v, const char *name)
{
	int k = tc_config_key_find(v->proto, name);
	return k < 0 ? 0 : tc_config_get(v->proto, v->config, k);
}

/* The rules of a protocol, by its name, or -1. */
static int rules_index(const char *protocol)
{
	for (int r = 0; twin_rules_table[r]; r++)
		if (!strcmp(twin_rules_table[r]->protocol, protocol))
			return r;
	return -1;
}

static int field_index(const struct twin_rules *rules, const char *field)
{
	for (int i = 0; i < rules->nfields; i++)
		if (!strcmp(field, rules->fields[i]))
			return i;
	return -1;
}

/* The packets of the expected L1, in order, with their lengths; -1 (and a
 * diagnostic) when a line is not L1 (the protocol's parser says why). */
static long find_packets(const struct tc_vector *v, struct twin_packet *out, size_t max)
{
	const struct tc_lines *l = &v->expect[tc_sec_l1];
	size_t n = 0;
	if (v->proto->l1_size > sizeof out->rec) {
		printf("  # the L1 record of %s is over %d bytes\n", v->proto->name, twin_record_max);
		return -1;
	}
	for (size_t i = 0; i < l->n && n < max; i++) {
		struct twin_packet p;
		char err[512];
		memset(&p, 0, sizeof p);
		if (v->proto->parse_l1(l->line[i], &p.rec.h, err, sizeof err)) {
			printf("  # [expect.l1] line %zu, '%s': %s\n", i + 1, l->line[i], err);
			return -1;
		}
		p.off = p.rec.h.offset;
		if (v->proto->item_is_warning(tc_level_l1, &p.rec.h) || p.off >= v->trace_len)
			continue;
		p.header = v->trace[p.off];
		p.line = i;
		if (n > 0 && out[n - 1].off == p.off)
			continue;
		if (n > 0)
			out[n - 1].len = (size_t)(p.off - out[n - 1].off);
		out[n++] = p;
	}
	if (n > 0)
		out[n - 1].len = v->trace_len - (size_t)out[n - 1].off;
	return (long)n;
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
static void restore_header(struct tc_lines *l1, const struct twin_packet *p, const struct twin *t)
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

/* Compares the twin's output at every level with the original's: the L1 warning
 * l1_warning must be there, after a line of its packet (prefix where), and is taken
 * out before L1 is compared. Prints a diagnostic and returns 1 when they differ. */
static int compare_levels(const struct tc_output *orig, struct tc_output *got, const struct twin_packet *p,
			  const struct twin *t, const char *l1_warning, const char *where)
{
	for (int s = 0; s < tc_sec_count; s++) {
		size_t at = 0;
		if (s == tc_sec_l1 && !remove_line(&got->level[s], l1_warning, &at)) {
			printf("  # twin @%zu=%02x: no '%s' in L1\n", t->at, t->value, l1_warning);
			return 1;
		}
		if (s == tc_sec_l1 && (at == 0 || strncmp(got->level[s].line[at - 1], where, strlen(where)))) {
			printf("  # twin @%zu=%02x: the L1 warning does not follow its packet\n", t->at, t->value);
			return 1;
		}
		if (s == tc_sec_l1)
			restore_header(&got->level[s], p, t);
		if (tc_lines_diff(&orig->level[s], &got->level[s]) >= 0) {
			printf("  # twin @%zu=%02x (%s): level %d differs beyond its warning\n", t->at, t->value,
			       t->field, s);
			return 1;
		}
	}
	return 0;
}

/* Checks one twin; prints a diagnostic and returns 1 when it fails. The twin's output, less
 * its new L1 warning, must be the original's at every level (stage 3 runs with or without an
 * image); the warning follows the packet's line (or a warning of the same packet). */
static int check_twin(const struct tc_vector *v, const struct tc_output *orig, const struct twin_packet *p,
		      const struct twin *t)
{
	struct tc_output got;
	uint8_t *tr = malloc(v->trace_len);
	char l1_warning[160], where[48];
	int bad;
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
	bad = compare_levels(orig, &got, p, t, l1_warning, where);
	tc_output_free(&got);
	free(tr);
	return bad;
}

/* Makes and checks the twins of one packet; returns 1 when one failed. */
static int packet_twins(const struct twin_rules *rules, const struct tc_vector *v, const struct tc_output *orig,
			const struct twin_packet *p, struct rule_totals *tot, int *twins)
{
	struct twin_list list;
	int bad = 0;
	list.n = 0;
	rules->packet_twins(v, p, &list);
	if (list.n > twin_max_per_packet) {
		printf("  # packet @%llu: %d twins, more than %d\n", p->off, list.n, (int)twin_max_per_packet);
		return 1;
	}
	for (int k = 0; k < list.n; k++) {
		int f = field_index(rules, list.twin[k].field);
		if (f < 0) {
			printf("  # twin @%zu: field '%s' is not in the %s rules' list\n", list.twin[k].at,
			       list.twin[k].field, rules->protocol);
			bad = 1;
			continue;
		}
		(*twins)++;
		tot->per_field[f]++;
		bad |= check_twin(v, orig, p, &list.twin[k]);
	}
	return bad;
}

/* The twins of every packet of a loaded positive vector; prints its TAP line. */
static void run_twins(const struct twin_rules *rules, const struct tc_vector *v, const struct tc_output *orig,
		      const char *path, int num, struct totals *tot, struct rule_totals *rt)
{
	struct twin_packet *pk = calloc(v->expect[tc_sec_l1].n + 1, sizeof *pk);
	long np = pk ? find_packets(v, pk, v->expect[tc_sec_l1].n + 1) : 0;
	int bad = pk && np >= 0 ? 0 : 1, twins = 0;
	for (long i = 0; i < np; i++)
		bad |= packet_twins(rules, v, orig, &pk[i], rt, &twins);
	printf("%s %d - %s (%d twins)\n", bad ? "not ok" : "ok", num, path, twins);
	tot->failed += bad;
	rt->twins += twins;
	rt->positive++;
	rt->covered += twins > 0;
	free(pk);
}

static void run_vector(const char *path, int num, struct totals *tot)
{
	struct tc_vector v;
	struct tc_output orig;
	char err[512];
	int r;
	if (tc_vector_load(path, &v, err, sizeof err)) {
		printf("not ok %d - %s\n  ---\n  message: '%s'\n  ...\n", num, path, err);
		tot->failed++;
		return;
	}
	r = rules_index(v.proto->name);
	if (r < 0) {
		printf("ok %d - %s # SKIP no twin rules for protocol %s\n", num, path, v.proto->name);
	} else if (v.has[tc_sec_error] || !v.has[tc_sec_l1] ||
		   tc_collect(v.proto, v.config, &v.image, v.trace, v.trace_len, 0, &orig)) {
		printf("ok %d - %s # SKIP negative, no [expect.l1], or no decoder\n", num, path);
	} else {
		run_twins(twin_rules_table[r], &v, &orig, path, num, tot, &tot->rules[r]);
		tc_output_free(&orig);
	}
	tc_vector_free(&v);
}

/* One TAP line per protocol: every field of its rules got a twin (skipped for a protocol
 * with no positive vector among the paths). Returns how many failed. */
static int report_fields(const struct totals *tot, int first)
{
	int failed = 0;
	for (int r = 0; r < tot->nrules; r++) {
		const struct twin_rules *rules = twin_rules_table[r];
		const struct rule_totals *rt = &tot->rules[r];
		int missing = 0;
		if (rt->positive == 0) {
			printf("ok %d - %s: every ignored field has a twin # SKIP no positive %s vector\n", first + r,
			       rules->protocol, rules->protocol);
			continue;
		}
		printf("# %s: %d twins in %d of %d positive vectors:", rules->protocol, rt->twins, rt->covered,
		       rt->positive);
		for (int f = 0; f < rules->nfields; f++) {
			printf(" %s %d", rules->fields[f], rt->per_field[f]);
			missing += rt->per_field[f] == 0;
		}
		printf("\n%s %d - %s: every ignored field has a twin\n", missing ? "not ok" : "ok", first + r,
		       rules->protocol);
		failed += missing > 0;
	}
	return failed;
}

int main(int argc, char **argv)
{
	struct totals tot;
	char **list = NULL, err[600];
	size_t n = 0;
	int missing;
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc < 2 ? stderr : stdout,
			"usage: twins PATH...\n"
			"For every positive vector under each PATH, sets the bits the text leaves unassigned\n"
			"in each packet that has some (each protocol's ERRATA.md) and checks that the decode is the\n"
			"same plus one warning. Prints TAP; fails when a field of a protocol with positive\n"
			"vectors never got a twin.\n");
		return argc < 2 ? 2 : 0;
	}
	memset(&tot, 0, sizeof tot);
	for (; twin_rules_table[tot.nrules]; tot.nrules++) {
		const struct twin_rules *rules = twin_rules_table[tot.nrules];
		if (tot.nrules == rule_max) {
			fprintf(stderr, "twins: more than %d protocols have twin rules\n", (int)rule_max);
			return 2;
		}
		if (rules->nfields > twin_max_fields) {
			fprintf(stderr, "twins: the %s rules name more than %d fields\n", rules->protocol,
				(int)twin_max_fields);
			return 2;
		}
	}
	for (int i = 1; i < argc; i++) {
		if (tc_vector_list(argv[i], &list, &n, err, sizeof err) == 0) {
			fprintf(stderr, "twins: %s\n", err);
			return 2;
		}
	}
	printf("TAP version 13\n1..%zu\n", n + (size_t)tot.nrules);
	for (size_t i = 0; i < n; i++) {
		run_vector(list[i], (int)i + 1, &tot);
		free(list[i]);
	}
	free(list);
	missing = report_fields(&tot, (int)n + 1);
	return tot.failed || missing ? 1 : 0;
}
