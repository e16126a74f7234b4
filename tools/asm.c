/* SPDX-License-Identifier: BSD-3-Clause */
/* asm.c — `tracecert asm`: L1 packet text (as `dump` prints it) into trace bytes, through the protocol's
 * L1 parser (tc_protocol.parse_l1) and its encoder's packet writers (tc_encoder.asm_*). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "cli.h"
#include "outfile.h"
#include "tracecert/asmtext.h"
#include "tracecert/encoder.h"

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

/* The whole of f into *text; 0, or -1 after a message. */
static int read_text(const char *path, FILE *f, char **text, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *t = malloc(cap);
	while (t && (got = fread(t + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *t2 = realloc(t, cap * 2);
			if (!t2)
				free(t);
			t = t2;
			cap *= 2;
		}
	}
	if (!t) {
		fprintf(stderr, "tracecert asm: out of memory\n");
		return -1;
	}
	if (ferror(f)) {
		fprintf(stderr, "tracecert asm: cannot read '%s': %s\n", path, strerror(errno));
		free(t);
		return -1;
	}
	*text = t;
	*len = n;
	return 0;
}

static int assemble(const struct asm_opts *o, const void *cfg, const char *text, size_t len, uint8_t **bytes,
		    size_t *n)
{
	char msg[400];
	unsigned line;
	if (tc_asm_text(o->proto, asm_encoder(o->proto), cfg, text, len, bytes, n, &line, msg, sizeof msg) == 0)
		return 0;
	if (line)
		fprintf(stderr, "tracecert asm: %s:%u: %s\n", o->file, line, msg);
	else
		fprintf(stderr, "tracecert asm: %s\n", msg);
	return -1;
}

static int run(const struct asm_opts *o)
{
	uint8_t *bytes = NULL;
	char *text = NULL;
	size_t n = 0, len = 0;
	void *cfg = malloc(o->proto->config_size);
	FILE *f = !strcmp(o->file, "-") ? stdin : fopen(o->file, "r");
	int rc = 2;
	if (!f)
		fprintf(stderr, "tracecert asm: cannot read '%s': %s\n", o->file, strerror(errno));
	if (f && cfg && make_config(o, cfg) == 0 && read_text(o->file, f, &text, &len) == 0 &&
	    assemble(o, cfg, text, len, &bytes, &n) == 0 && write_out(o->output, bytes, n) == 0)
		rc = 0;
	if (f && f != stdin)
		fclose(f);
	free(bytes);
	free(text);
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
