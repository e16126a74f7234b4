/* SPDX-License-Identifier: BSD-3-Clause */
/* asm.c — `tracecert asm`: L1 packet text (as `dump` prints it) into trace bytes, through the protocol's
 * L1 parser (tc_protocol.parse_l1) and its encoder's packet writers (tc_encoder.asm_*). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "cli.h"
#include "cyclecap.h"
#include "outfile.h"
#include "tracecert/encoder.h"

#define ASM_PACKET_MAX 4096

enum asm_option { opt_protocol = 1, opt_config, opt_output };

static const struct tc_cli_option asm_options[] = {
	{ "protocol", "P", opt_protocol, "the trace protocol (default: the first of the build);\nit must have an assembler (below)" },
	{ "config", "NAME=VALUE", opt_config, "configuration: a key or a register, as for dump\n(the packets' sizes depend on it); may be repeated" },
	{ "output", "OUT", opt_output, "write the bytes to OUT (default: standard output)" },
	{ NULL, NULL, 0, NULL }
};

struct asm_opts {
	const struct tc_protocol *proto;
	const char **config_args;
	int nconfig;
	const char *file;
	const char *output;
};

/* The lines of the text, each with its line number: an L1 item, or (a per-cycle protocol) a cycle
 * line, the header or one record of the sample file (reference/cyclecap.h). */
struct asm_items {
	unsigned char *rec;       /* n records of proto->l1_size bytes */
	struct tc_cyclecap_line *cycle;   /* n entries: cycle[i] is line i's when is_cycle[i] */
	unsigned char *is_cycle;
	unsigned *line;
	size_t n, cap;
};

/* How the bytes are written: the encoder's assembler, or for a per-cycle protocol whose encoder has
 * none (no encoder yet) the sample file's own writer (reference/cyclecap.c). */
struct asm_writer {
	const struct tc_encoder *enc;
	void *w;
	struct tc_cyclecap_writer file;
	uint64_t *starts;         /* per-cycle: the offsets of the cycle lines written, ascending */
	size_t nstarts, capstarts;
};

/* Whether a cycle line written so far starts at off. */
static int line_started(const struct asm_writer *aw, uint64_t off)
{
	size_t lo = 0, hi = aw->nstarts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (aw->starts[mid] == off)
			return 1;
		if (aw->starts[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int line_start_add(struct asm_writer *aw, uint64_t off)
{
	if (aw->nstarts == aw->capstarts) {
		size_t cap = aw->capstarts ? 2 * aw->capstarts : 256;
		uint64_t *p = realloc(aw->starts, cap * sizeof *p);
		if (!p)
			return -1;
		aw->starts = p;
		aw->capstarts = cap;
	}
	aw->starts[aw->nstarts++] = off;
	return 0;
}

static const struct tc_encoder *asm_encoder(const struct tc_protocol *p)
{
	for (int i = 0; tc_encoders[i]; i++)
		if (!strcmp(tc_encoders[i]->protocol, p->name) && tc_encoders[i]->asm_write)
			return tc_encoders[i];
	return NULL;
}

/* Whether asm writes p: its encoder's assembler, or its sample file's writer. */
static int has_assembler(const struct tc_protocol *p)
{
	return asm_encoder(p) != NULL || p->sample != NULL;
}

/* The protocols with an assembler, joined by sep. */
static void assembler_list(char *buf, size_t n, const char *sep)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; tc_protocols[i] && used < n; i++)
		if (has_assembler(tc_protocols[i]))
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? sep : "", tc_protocols[i]->name);
}

static void help_asm(FILE *f, const struct tc_cli *c, const struct tc_protocol *proto)
{
	char list[200];
	fprintf(f,
		"usage: tracecert asm [--protocol P] [--config NAME=VALUE]... [--output OUT] FILE\n"
		"\n"
		"Writes the trace bytes of FILE's packets (FILE '-': standard input): L1 lines exactly\n"
		"as `tracecert dump` prints them (\"@12 b0 atom atoms=NEEE\"), '#' comments and blank\n"
		"lines allowed, so that asm of dump's output gives back the trace. Each line's @OFFSET\n"
		"must be where the packets before it end: the distance to the next line's offset is\n"
		"the packet's length, which chooses what the line does not show (the bytes of a\n"
		"compressed address, of a cycle count, the zeros of an A-sync); the last packet takes\n"
		"its shortest form. Items that are no packets (error, warning) and gaps between the\n"
		"offsets (bytes skipped before synchronisation) are refused: their bytes are not in\n"
		"the text. An error names FILE:LINE, then the column and what was expected there;\n"
		"exit status 2, nothing written.\n"
		"\n"
		"A protocol whose input is a per-cycle sample file takes the text\n"
		"`tracecert dump --cycles` prints: a sample-header line and one cycle line\n"
		"per record (\"@18 cycle 0 pkt=0xa0\"), and \"@OFF bytes HH ...\" lines for bytes\n"
		"the reader takes no record of, which hold the bytes; the L1 items between them\n"
		"(errors and warnings too) hold none and must stand on a line written before\n"
		"them (the L1 text alone does not hold the records: the protocol's FORMAT.md).\n"
		"\n"
		"Options:\n");
	tc_cli_print_options(f, c);
	assembler_list(list, sizeof list, " ");
	fprintf(f, "\nProtocols with an assembler: %s\n", list);
	tc_cli_print_config_help(f, proto, TC_CLI_KEYS_PACKETS);
}

static int take_argument(struct asm_opts *o, const struct tc_cli *c, int id)
{
	switch (id) {
	case opt_protocol:
		o->proto = tc_cli_protocol(c, c->value);
		return o->proto ? 0 : -1;
	case opt_config:
		if (tc_cli_config_shape(c, c->value))
			return -1;
		o->config_args[o->nconfig++] = c->value;
		return 0;
	case opt_output:
		o->output = c->value;
		return 0;
	default:                  /* TC_CLI_OPERAND */
		if (o->file) {
			tc_cli_usage_error(c, "more than one FILE ('%s' and '%s')", o->file, c->value);
			return -1;
		}
		o->file = c->value;
		return 0;
	}
}

/* 0 to go on, 1 when --help or --version was answered, -1 after a usage error. */
static int parse_args(int argc, char **argv, struct asm_opts *o)
{
	struct tc_cli c;
	int id;
	tc_cli_init(&c, "asm", asm_options, argc, argv);
	while ((id = tc_cli_next(&c)) != TC_CLI_END)
		if (id == TC_CLI_ERROR || take_argument(o, &c, id))
			return -1;
	if (c.help)
		return help_asm(stdout, &c, o->proto), 1;
	if (c.version)
		return tc_cli_print_version(stdout), 1;
	if (!o->file) {
		tc_cli_usage_error(&c, "no FILE given");
		return -1;
	}
	if (!has_assembler(o->proto)) {
		char list[200];
		assembler_list(list, sizeof list, ", ");
		tc_cli_usage_error(&c, "protocol '%s' has no assembler (these have one: %s)", o->proto->name, list);
		return -1;
	}
	return 0;
}

static int make_config(const struct asm_opts *o, void *cfg)
{
	struct tc_config_builder b;
	char err[300];
	tc_config_builder_init(&b, o->proto);
	for (int i = 0; i < o->nconfig; i++)
		if (tc_cli_config_set("asm", &b, o->config_args[i]))
			return -1;
	tc_config_default(o->proto, cfg);
	if (tc_config_builder_apply(&b, cfg, NULL, err, sizeof err)) {
		fprintf(stderr, "tracecert asm: %s\n", err);
		return -1;
	}
	return 0;
}

/* The line without its comment and trailing blanks (in place); its columns stay those of the file. */
static void strip_line(char *s)
{
	size_t n;
	char *hash = strchr(s, '#');
	if (hash)
		*hash = 0;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = 0;
}

static int items_grow(struct asm_items *it, size_t size)
{
	size_t cap = it->cap ? it->cap * 2 : 256;
	unsigned char *rec = realloc(it->rec, cap * size);
	struct tc_cyclecap_line *cycle;
	unsigned char *is_cycle;
	unsigned *lines;
	if (!rec)
		return -1;
	it->rec = rec;
	cycle = realloc(it->cycle, cap * sizeof *cycle);
	if (!cycle)
		return -1;
	it->cycle = cycle;
	is_cycle = realloc(it->is_cycle, cap);
	if (!is_cycle)
		return -1;
	it->is_cycle = is_cycle;
	lines = realloc(it->line, cap * sizeof *lines);
	if (!lines)
		return -1;
	it->line = lines;
	it->cap = cap;
	return 0;
}

static void *items_add(struct asm_items *it, size_t size, unsigned line)
{
	if (it->n == it->cap && items_grow(it, size))
		return NULL;
	it->line[it->n] = line;
	it->is_cycle[it->n] = 0;
	memset(&it->cycle[it->n], 0, sizeof it->cycle[it->n]);
	memset(it->rec + it->n * size, 0, size);
	return it->rec + it->n++ * size;
}

/* One line into the item just added: a cycle line (a per-cycle protocol) or an L1 item; 0, or -1
 * with err. */
static int parse_line(const struct tc_protocol *p, struct asm_items *it, const char *s, void *rec, char *err,
		      size_t errlen)
{
	if (p->sample) {
		int k = tc_cyclecap_parse_line(s, &it->cycle[it->n - 1], err, errlen);
		if (k <= 0) {
			it->is_cycle[it->n - 1] = k == 0;
			return k;
		}
	}
	return p->parse_l1(s, rec, err, errlen);
}

/* Every line of f into items; 0, or -1 after a message. */
static int read_items(const struct tc_protocol *p, const char *path, FILE *f, struct asm_items *it)
{
	char *buf = NULL, err[300];
	size_t bufcap = 0;
	unsigned line = 0;
	int rc = 0;
	while (rc == 0 && getline(&buf, &bufcap, f) >= 0) {
		void *rec;
		line++;
		strip_line(buf);
		if (!buf[0])
			continue;
		rec = items_add(it, p->l1_size, line);
		if (!rec) {
			fprintf(stderr, "tracecert asm: out of memory\n");
			rc = -1;
		} else if (parse_line(p, it, buf, rec, err, sizeof err)) {
			fprintf(stderr, "tracecert asm: %s:%u: %s\n", path, line, err);
			rc = -1;
		}
	}
	if (rc == 0 && ferror(f)) {
		fprintf(stderr, "tracecert asm: cannot read '%s': %s\n", path, strerror(errno));
		rc = -1;
	}
	free(buf);
	return rc;
}

/* Whether item i is a packet; 0, or -1 after a message. */
static int check_packet(const struct tc_protocol *p, const char *path, const struct asm_items *it, size_t i)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	if (p->item_error(tc_level_l1, item) || p->item_is_warning(tc_level_l1, item)) {
		fprintf(stderr, "tracecert asm: %s:%u: an %s item is no packet: its bytes are not in the text (asm writes packets only)\n",
			path, it->line[i], p->item_error(tc_level_l1, item) ? "error" : "warning");
		return -1;
	}
	return 0;
}

/* Whether line i stands where it must: a packet or a cycle line where the bytes written so far
 * end; a per-cycle protocol's L1 item on a record written before it. 0, or -1 after a message. */
static int check_offset(const struct tc_protocol *p, const struct asm_writer *aw, const char *path,
			const struct asm_items *it, size_t i, uint64_t end)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	uint64_t off = it->is_cycle[i] ? it->cycle[i].r.offset : item->offset;
	if (p->sample && !it->is_cycle[i]) {
		if (line_started(aw, off))
			return 0;
		fprintf(stderr, "tracecert asm: %s:%u: the item is at byte offset %llu, where no line before it starts "
			"(a per-cycle protocol's items stand on their records' lines)\n", path, it->line[i],
			(unsigned long long)off);
		return -1;
	}
	if (off != end) {
		fprintf(stderr, "tracecert asm: %s:%u: the %s is at byte offset %llu, but the %s before end at %llu%s\n",
			path, it->line[i], p->sample ? "line" : "packet", (unsigned long long)off,
			p->sample ? "records" : "packets", (unsigned long long)end,
			off > end && !p->sample ? ": the bytes between are no packets (asm writes packets only)" : "");
		return -1;
	}
	return 0;
}

/* The writer for cfg; 0, or -1 after a message. */
static int writer_open(const struct tc_protocol *p, const void *cfg, struct asm_writer *aw)
{
	memset(aw, 0, sizeof *aw);
	aw->enc = asm_encoder(p);
	if (aw->enc) {
		aw->w = aw->enc->asm_open(cfg);
		if (!aw->w) {
			fprintf(stderr, "tracecert asm: the configuration has no assembler\n");
			return -1;
		}
	} else {
		const struct tc_sample_format *f = p->sample;
		struct tc_cyclecap_params params = { f->major, f->max_minor, f->status_bits, f->has_sync };
		tc_cyclecap_writer_init(&aw->file, &params);
	}
	return 0;
}

static void writer_close(struct asm_writer *aw)
{
	free(aw->starts);
	if (aw->enc && aw->enc->asm_close && aw->w)
		aw->enc->asm_close(aw->w);
}

/* The bytes of line i (len: the distance to the next line's offset, 0 for the last). */
static long write_line(struct asm_writer *aw, const struct tc_protocol *p, const struct asm_items *it, size_t i,
		       size_t len, uint8_t *out, size_t cap, char *err, size_t errlen)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	long got;
	if (!it->is_cycle[i])
		return aw->enc ? aw->enc->asm_write(aw->w, item, len, out, cap, err, errlen) : 0;
	if (aw->enc && aw->enc->asm_cycle)
		got = aw->enc->asm_cycle(aw->w, &it->cycle[i], out, cap, err, errlen);
	else if (aw->enc)
		return snprintf(err, errlen, "the encoder writes no cycle lines"), -1;
	else
		got = tc_cyclecap_writer_line(&aw->file, &it->cycle[i], out, cap, err, errlen);
	if (got > 0 && line_start_add(aw, it->cycle[i].r.offset))
		return snprintf(err, errlen, "out of memory"), -1;
	return got;
}

/* The distance from line i's offset to the next line's of its kind (packets; 0 for the last). */
static size_t next_distance(const struct tc_protocol *p, const struct asm_items *it, size_t i)
{
	const struct tc_item *item = (const void *)(it->rec + i * p->l1_size);
	const struct tc_item *next = i + 1 < it->n ? (const void *)(it->rec + (i + 1) * p->l1_size) : NULL;
	if (p->sample)
		return 0;
	return next && next->offset > item->offset ? (size_t)(next->offset - item->offset) : 0;
}

/* The bytes of every item into *out; 0, or -1 after a message. */
static int assemble(const struct tc_protocol *p, const void *cfg, const char *path, const struct asm_items *it,
		    unsigned char **out, size_t *outlen)
{
	struct asm_writer aw;
	unsigned char *bytes = malloc(ASM_PACKET_MAX);
	size_t n = 0, cap = ASM_PACKET_MAX;
	char err[300];
	int rc = writer_open(p, cfg, &aw);
	if (rc == 0 && !bytes) {
		fprintf(stderr, "tracecert asm: out of memory\n");
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < it->n; i++) {
		size_t len = next_distance(p, it, i);
		long got;
		if ((!it->is_cycle[i] && !p->sample && check_packet(p, path, it, i)) ||
		    check_offset(p, &aw, path, it, i, n)) {
			rc = -1;
			break;
		}
		if (cap - n < ASM_PACKET_MAX || cap - n < len) {
			size_t c2 = cap * 2 + len;
			unsigned char *b2 = realloc(bytes, c2);
			if (!b2) {
				fprintf(stderr, "tracecert asm: out of memory\n");
				rc = -1;
				break;
			}
			bytes = b2, cap = c2;
		}
		got = write_line(&aw, p, it, i, len, bytes + n, cap - n, err, sizeof err);
		if (got < 0) {
			fprintf(stderr, "tracecert asm: %s:%u: %s\n", path, it->line[i], err);
			rc = -1;
		} else {
			n += (size_t)got;
		}
	}
	writer_close(&aw);
	if (rc)
		free(bytes), bytes = NULL;
	*out = bytes;
	*outlen = n;
	return rc;
}

static int write_out(const char *output, const unsigned char *bytes, size_t n)
{
	char err[400];
	if (!output) {
		if (n && fwrite(bytes, 1, n, stdout) != n) {
			fprintf(stderr, "tracecert asm: standard output: %s\n", strerror(errno));
			return -1;
		}
		return fflush(stdout) ? -1 : 0;
	}
	if (tc_out_save(output, bytes, n, 0, err, sizeof err)) {
		fprintf(stderr, "tracecert asm: %s\n", err);
		return -1;
	}
	return 0;
}

static int run(const struct asm_opts *o)
{
	struct asm_items it = { 0 };
	unsigned char *bytes = NULL;
	size_t n = 0;
	void *cfg = malloc(o->proto->config_size);
	FILE *f = !strcmp(o->file, "-") ? stdin : fopen(o->file, "r");
	int rc = 2;
	if (!f)
		fprintf(stderr, "tracecert asm: cannot read '%s': %s\n", o->file, strerror(errno));
	if (f && cfg && make_config(o, cfg) == 0 && read_items(o->proto, o->file, f, &it) == 0 &&
	    assemble(o->proto, cfg, o->file, &it, &bytes, &n) == 0 &&
	    write_out(o->output, bytes, n) == 0)
		rc = 0;
	if (f && f != stdin)
		fclose(f);
	free(bytes);
	free(it.rec);
	free(it.cycle);
	free(it.is_cycle);
	free(it.line);
	free(cfg);
	return rc;
}

int tc_asm_main(int argc, char **argv)
{
	struct asm_opts o = { 0 };
	int rc;
	o.proto = tc_cli_default_protocol();
	o.config_args = calloc((size_t)argc, sizeof *o.config_args);
	if (!o.config_args)
		return 2;
	rc = parse_args(argc, argv, &o);
	if (rc == 0)
		rc = run(&o);
	else
		rc = rc > 0 ? 0 : 2;
	free(o.config_args);
	return rc;
}
