/* SPDX-License-Identifier: BSD-3-Clause */
/* config_cmd.c — `tracecert config`: a protocol's configuration keys and registers (text or the Markdown tables of vectors/README.md), or the configuration that keys and registers given as NAME=VALUE make. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config_cmd.h"

enum config_option { opt_protocol = 1, opt_markdown };

static const struct tc_cli_option config_options[] = {
	{ "protocol", "P", opt_protocol, "the protocol whose keys and registers these are\n(default: the first of the build, listed below)" },
	{ "markdown", NULL, opt_markdown, "print the table as the Markdown of the protocol's\nreference/<protocol>/CONFIG.md" },
	{ NULL, NULL, 0, NULL }
};

struct config_opts {
	const struct tc_protocol *proto;
	int proto_given;
	int markdown;
	const char **assign;      /* NAME=VALUE operands, applied once the protocol is known */
	int nassign;
};

static void help_config(FILE *f, const struct tc_cli *c, const struct tc_protocol *proto)
{
	fprintf(f,
		"usage: tracecert config [--protocol P] [--markdown]\n"
		"       tracecert config [--protocol P] NAME=VALUE...\n"
		"\n"
		"Without assignments: the protocol's configuration keys (the one table the command\n"
		"line, the vector reader and reference/<protocol>/CONFIG.md use; --markdown prints\n"
		"it as that page's tables) and the trace unit registers they are derived from. With\n"
		"assignments (keys and registers, as for dump --config): the configuration they give,\n"
		"each key with where its value came from, and notes on the register fields.\n"
		"\n"
		"Options:\n");
	tc_cli_print_options(f, c);
	tc_cli_print_protocols(f);
	tc_cli_print_config_help(f, proto, TC_CLI_KEYS_ALL);
}

static const char *need_name(int need)
{
	return need == tc_key_required ? "required" : need == tc_key_required_l3 ? "with [expect.l3]" : "optional";
}

static void print_markdown(const struct tc_protocol *p)
{
	printf("| key | meaning | values | default | in a vector | derived from |\n|---|---|---|---|---|---|\n");
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		printf("| `%s` | %s | 0 … %llu | %llu | %s | %s |\n", key->name, key->doc, (unsigned long long)key->max,
		       (unsigned long long)key->def, need_name(key->need), key->source);
	}
	printf("\n| register | fields used |\n|---|---|\n");
	for (int r = 0; r < p->nregs; r++)
		printf("| `%s` | %s |\n", p->regs[r].name, p->regs[r].doc);
}

static void print_table(const struct tc_protocol *p)
{
	printf("Configuration keys of %s (NAME=VALUE):\n", p->name);
	tc_cli_print_config_keys(stdout, p, TC_CLI_KEYS_PACKETS);
	tc_cli_print_config_keys(stdout, p, TC_CLI_KEYS_INSNS);
	printf("Registers (NAME=VALUE, 32 bits, decimal or 0x hex):\n");
	tc_cli_print_config_registers(stdout, p);
}

/* The configuration that keys and registers give. */
static int print_derived(const struct tc_config_builder *b)
{
	const struct tc_protocol *p = b->proto;
	struct tc_config_notes notes;
	uint32_t covered = tc_config_builder_covered(b);
	char err[300];
	void *cfg = malloc(p->config_size);
	if (!cfg)
		return 2;
	tc_config_default(p, cfg);
	if (tc_config_builder_apply(b, cfg, &notes, err, sizeof err)) {
		fprintf(stderr, "tracecert config: %s\n", err);
		free(cfg);
		return 2;
	}
	for (int k = 0; k < p->nkeys; k++) {
		const char *from = (b->key_given >> k) & 1 ? "given" : (covered >> k) & 1 ? p->keys[k].source : "default";
		printf("%s=%llu  # %s\n", p->keys[k].name, (unsigned long long)tc_config_get(p, cfg, k), from);
	}
	if (p->trace_id_reg >= 0 && ((b->reg_given >> p->trace_id_reg) & 1))
		printf("# %s: trace ID 0x%02x\n", p->regs[p->trace_id_reg].name, (unsigned)(b->reg[p->trace_id_reg] & 0x7f));
	tc_cli_print_notes(stdout, &notes);
	free(cfg);
	return 0;
}

/* One option or operand; 0, or -1 after a usage error. */
static int take_argument(struct config_opts *o, const struct tc_cli *c, int id)
{
	switch (id) {
	case opt_protocol:
		o->proto = tc_cli_protocol(c, c->value);
		o->proto_given = 1;
		return o->proto ? 0 : -1;
	case opt_markdown:
		o->markdown = 1;
		return 0;
	default:                  /* TC_CLI_OPERAND */
		if (!strchr(c->value, '=') || c->value[0] == '=') {
			tc_cli_usage_error(c, "expected NAME=VALUE, got '%s'", c->value);
			return -1;
		}
		o->assign[o->nassign++] = c->value;
		return 0;
	}
}

/* The arguments into o: 0 to go on, 1 when --help or --version was answered, -1 after a usage error. */
static int parse_config_args(int argc, char **argv, struct config_opts *o)
{
	struct tc_cli c;
	int id;
	tc_cli_init(&c, "config", config_options, argc, argv);
	while ((id = tc_cli_next(&c)) != TC_CLI_END)
		if (id == TC_CLI_ERROR || take_argument(o, &c, id))
			return -1;
	if (c.help) {
		help_config(stdout, &c, o->proto_given ? o->proto : NULL);
		return 1;
	}
	if (c.version) {
		tc_cli_print_version(stdout);
		return 1;
	}
	if (o->markdown && o->nassign) {
		tc_cli_usage_error(&c, "--markdown prints the key table; it takes no NAME=VALUE");
		return -1;
	}
	return 0;
}

/* The table, or the configuration of the assignments. */
static int run_config(const struct config_opts *o)
{
	struct tc_config_builder b;
	tc_config_builder_init(&b, o->proto);
	for (int i = 0; i < o->nassign; i++)
		if (tc_cli_config_set("config", &b, o->assign[i]))
			return 2;
	if (o->nassign)
		return print_derived(&b);
	if (o->markdown)
		print_markdown(o->proto);
	else
		print_table(o->proto);
	return 0;
}

int tc_config_main(int argc, char **argv)
{
	struct config_opts o;
	int rc;
	memset(&o, 0, sizeof o);
	o.proto = tc_cli_default_protocol();
	o.assign = calloc((size_t)argc, sizeof *o.assign);
	if (!o.assign)
		return 2;
	rc = parse_config_args(argc, argv, &o);
	if (rc)
		rc = rc < 0 ? 2 : 0;
	else
		rc = run_config(&o);
	free(o.assign);
	return rc;
}
