/* SPDX-License-Identifier: BSD-3-Clause */
/* cli.c — the tracecert command line's shared parts: the command dispatcher, GNU long options over getopt_long, usage errors, help, the version, --protocol and --config through the protocol descriptors. */

/* getopt_long is a GNU/BSD extension: glibc declares it in <getopt.h> without
 * a feature macro, other C libraries only with _DEFAULT_SOURCE (or
 * _GNU_SOURCE). This is the one file that calls it. */
#define _DEFAULT_SOURCE

#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"

/* Written by GNUmakefile into $(BUILD)/gen/version.c. */
const char *tc_cli_version_number(void);
const char *tc_cli_version_git(void);

/* getopt_long's value for the option at index i of a command's table; short
 * options ('h') stay below it. */
#define OPTION_VAL_BASE 0x100
#define HELP_VAL 'h'
#define VERSION_VAL (OPTION_VAL_BASE - 1)

void tc_cli_version_text(char *buf, size_t n)
{
	if (tc_cli_version_git()[0])
		snprintf(buf, n, "%s (git %s)", tc_cli_version_number(), tc_cli_version_git());
	else
		snprintf(buf, n, "%s", tc_cli_version_number());
}

void tc_cli_print_version(FILE *f)
{
	if (tc_cli_version_git()[0])
		fprintf(f, "tracecert %s (git %s)\n", tc_cli_version_number(), tc_cli_version_git());
	else
		fprintf(f, "tracecert %s\n", tc_cli_version_number());
}

/* ---- Options ----------------------------------------------------------------- */

/* A parse of argv[1..argc) (getopt skips argv[0]). cmd NULL: the program's own options. */
static void init_parse(struct tc_cli *c, const char *cmd, const struct tc_cli_option *opts, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	c->cmd = cmd;
	c->opts = opts;
	c->argc = argc;
	c->argv = argv;
	optind = 0;               /* glibc: 0 starts a new scan */
	opterr = 0;               /* tc_cli_next prints its own messages */
}

void tc_cli_init(struct tc_cli *c, const char *cmd, const struct tc_cli_option *opts, int argc, char **argv)
{
	init_parse(c, cmd, opts, argc - 1, argv + 1);   /* the command is getopt's argv[0] */
}

int tc_cli_usage_error(const struct tc_cli *c, const char *fmt, ...)
{
	const char *see;
	va_list ap;
	fprintf(stderr, "tracecert%s%s: ", c->cmd ? " " : "", c->cmd ? c->cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	see = c->cmd && strcmp(c->cmd, "help") ? c->cmd : NULL;   /* help's help is the list */
	fprintf(stderr, " (see tracecert help%s%s)\n", see ? " " : "", see ? see : "");
	return 2;
}

static int count_options(const struct tc_cli_option *opts)
{
	int n = 0;
	while (opts[n].name)
		n++;
	return n;
}

/* getopt_long's table: the command's options, --help, --version, the end. */
static int long_options(const struct tc_cli_option *opts, struct option *lo)
{
	int n = count_options(opts);
	if (n > TC_CLI_OPTIONS_MAX)
		return -1;
	for (int i = 0; i < n; i++)
		lo[i] = (struct option){ opts[i].name, opts[i].arg ? required_argument : no_argument, NULL,
					 OPTION_VAL_BASE + i };
	lo[n] = (struct option){ "help", no_argument, NULL, HELP_VAL };
	lo[n + 1] = (struct option){ "version", no_argument, NULL, VERSION_VAL };
	lo[n + 2] = (struct option){ NULL, 0, NULL, 0 };
	return n + 2;
}

/* The names (of lo[0..n)) that `given` ("--lev" or "--lev=1") names exactly
 * or as a prefix, comma-separated into list; returns how many, or 1 for an
 * exact name (*exact its index). */
static int matching_options(const struct option *lo, int n, const char *given, char *list, size_t size, int *exact)
{
	size_t len = strcspn(given + 2, "=");
	int found = 0;
	list[0] = '\0';
	for (int i = 0; len > 0 && i < n; i++) {
		if (strncmp(lo[i].name, given + 2, len))
			continue;
		if (strlen(lo[i].name) == len) {
			*exact = i;
			return 1;
		}
		*exact = i;
		snprintf(list + strlen(list), size - strlen(list), "%s--%s", found ? ", " : "", lo[i].name);
		found++;
	}
	return found;
}

/* The message for an option getopt_long refused: v is ':' (no value
 * given) or '?' (unknown, ambiguous, or a value it does not take). */
static void refused(const struct tc_cli *c, const struct option *lo, int n, int v)
{
	const char *given = c->argv[optind - 1];
	char list[400];
	int found, at = -1;
	if (v == ':' && optopt >= OPTION_VAL_BASE && optopt - OPTION_VAL_BASE < n - 2) {
		at = optopt - OPTION_VAL_BASE;
		tc_cli_usage_error(c, "option '--%s' needs a value (%s)", c->opts[at].name, c->opts[at].arg);
		return;
	}
	/* getopt_long sets optopt to a refused short option's character (-h is
	 * the only valid one); to 0, 'h' (--help=x) or a value of ours at least
	 * VERSION_VAL for a long option. */
	if (optopt != 0 && optopt != HELP_VAL && optopt < VERSION_VAL) {
		tc_cli_usage_error(c, "unknown option '-%c'", (unsigned char)optopt);
		return;
	}
	found = matching_options(lo, n, given, list, sizeof list, &at);
	if (found == 0 && given[2] == '=')
		tc_cli_usage_error(c, "unknown option '%s'", given);
	else if (found == 0)
		tc_cli_usage_error(c, "unknown option '%.*s'", (int)strcspn(given, "="), given);
	else if (found > 1)
		tc_cli_usage_error(c, "option '%.*s' is ambiguous: %s", (int)strcspn(given, "="), given, list);
	else
		tc_cli_usage_error(c, "option '--%s' takes no value (got '%s')", lo[at].name, given);
}

/* getopt_long up to the next option of the command's table or operand;
 * --help and --version are noted on the way. */
static int next_option(struct tc_cli *c)
{
	struct option lo[TC_CLI_OPTIONS_MAX + 3];
	int n = long_options(c->opts, lo), v;
	if (n < 0) {
		tc_cli_usage_error(c, "internal error: more than %d options", TC_CLI_OPTIONS_MAX);
		return TC_CLI_ERROR;
	}
	do {
		/* '-': operands in order (code 1); ':': a missing value is ':', not '?' */
		v = getopt_long(c->argc, c->argv, "-:h", lo, NULL);
		c->help |= v == HELP_VAL;
		c->version |= v == VERSION_VAL;
	} while (v == HELP_VAL || v == VERSION_VAL);
	c->value = optarg;
	c->option = NULL;
	if (v == -1) {
		c->pos = optind;      /* the operands after "--", if any */
		return TC_CLI_END;
	}
	if (v == 1)
		return TC_CLI_OPERAND;
	if (v == ':' || v == '?') {
		refused(c, lo, n, v);
		return TC_CLI_ERROR;
	}
	c->option = lo[v - OPTION_VAL_BASE].name;
	return c->opts[v - OPTION_VAL_BASE].id;
}

int tc_cli_next(struct tc_cli *c)
{
	int r;
	if (c->pos == 0) {
		r = next_option(c);
		if (r != TC_CLI_END)
			return r;
	}
	if (c->pos < c->argc) {
		c->value = c->argv[c->pos++];
		c->option = NULL;
		return TC_CLI_OPERAND;
	}
	return TC_CLI_END;
}

/* "  --name ARG" then the doc, its lines in column 25. */
static void print_option(FILE *f, const char *lhs, const char *doc)
{
	int col = fprintf(f, "  %s", lhs);
	for (const char *line = doc; line;) {
		const char *nl = strchr(line, '\n');
		int len = nl ? (int)(nl - line) : (int)strlen(line);
		if (col > 22) {
			fprintf(f, "\n");
			col = 0;
		}
		fprintf(f, "%*s%.*s\n", 24 - col, "", len, line);
		col = 0;
		line = nl ? nl + 1 : NULL;
	}
}

void tc_cli_print_options(FILE *f, const struct tc_cli *c)
{
	char lhs[80];
	for (int i = 0; c->opts[i].name; i++) {
		snprintf(lhs, sizeof lhs, "--%s%s%s", c->opts[i].name, c->opts[i].arg ? " " : "",
			 c->opts[i].arg ? c->opts[i].arg : "");
		print_option(f, lhs, c->opts[i].doc);
	}
	snprintf(lhs, sizeof lhs, "this text (the same as tracecert help %s)", c->cmd);
	print_option(f, "-h, --help", lhs);
	print_option(f, "--version", "print tracecert's version");
}

int tc_cli_number(const char *s, unsigned long long max, unsigned long long *out)
{
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = hex ? s + 2 : s;
	unsigned base = hex ? 16 : 10;
	unsigned long long v = 0;
	if (!*d)
		return -1;
	for (; *d; d++) {
		int c = *d >= '0' && *d <= '9' ? *d - '0' : (*d | 0x20) >= 'a' && (*d | 0x20) <= 'f' ? (*d | 0x20) - 'a' + 10 : 99;
		if ((unsigned)c >= base || (unsigned)c > max || v > (max - (unsigned)c) / base)
			return -1;
		v = v * base + (unsigned)c;
	}
	*out = v;
	return 0;
}

/* ---- Protocols and configuration ----------------------------------------------- */

const struct tc_protocol *tc_cli_default_protocol(void)
{
	return tc_protocols[0];
}

void tc_cli_protocol_list(char *buf, size_t size)
{
	buf[0] = '\0';
	for (int i = 0; tc_protocols[i]; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? "|" : "", tc_protocols[i]->name);
}

void tc_cli_print_protocols(FILE *f)
{
	fprintf(f, "\nProtocols of this build (--protocol P):\n");
	for (int i = 0; tc_protocols[i]; i++)
		fprintf(f, "  %-8s %s%s\n", tc_protocols[i]->name, tc_protocols[i]->title,
			tc_protocols[i] == tc_cli_default_protocol() ? " (the default)" : "");
}

const struct tc_protocol *tc_cli_protocol(const struct tc_cli *c, const char *name)
{
	const struct tc_protocol *p = tc_protocol_find(name);
	char list[200];
	if (!p) {
		tc_cli_protocol_list(list, sizeof list);
		tc_cli_usage_error(c, "unknown protocol '%s' (this build has: %s)", name, list);
	}
	return p;
}

int tc_cli_config_shape(const struct tc_cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		tc_cli_usage_error(c, "--config expects NAME=VALUE, got '%s'", arg);
		return -1;
	}
	return 0;
}

int tc_cli_config_set(const char *cmd, struct tc_config_builder *b, const char *arg)
{
	char err[300];
	const char *eq = strchr(arg, '=');
	char *name;
	int rc;
	if (!eq || eq == arg) {
		fprintf(stderr, "tracecert %s: --config expects NAME=VALUE, got '%s'\n", cmd, arg);
		return -1;
	}
	name = strndup(arg, (size_t)(eq - arg));
	if (!name) {
		fprintf(stderr, "tracecert %s: out of memory\n", cmd);
		return -1;
	}
	rc = tc_config_builder_set(b, name, eq + 1, err, sizeof err);
	if (rc == -1)
		fprintf(stderr, "tracecert %s: %s (see tracecert config --protocol %s)\n", cmd, err, b->proto->name);
	else if (rc)
		fprintf(stderr, "tracecert %s: %s\n", cmd, err);
	free(name);
	return rc ? -1 : 0;
}

void tc_cli_print_config_keys(FILE *f, const struct tc_protocol *p, int stages)
{
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		char lhs[32];
		if (!(stages & (key->stage == 3 ? TC_CLI_KEYS_INSNS : TC_CLI_KEYS_PACKETS)))
			continue;
		snprintf(lhs, sizeof lhs, "%s=%s", key->name, key->max == 1 ? "0|1" : "N");
		fprintf(f, "      %-20s %s, 0..%llu (default %llu)\n", lhs, key->doc, (unsigned long long)key->max,
			(unsigned long long)key->def);
		fprintf(f, "      %-20s   from: %s\n", "", key->source);
	}
}

void tc_cli_print_config_registers(FILE *f, const struct tc_protocol *p)
{
	for (int r = 0; r < p->nregs; r++) {
		fprintf(f, "      %-20s %s\n", p->regs[r].name, p->regs[r].doc);
		if ((p->snapshot_required_regs >> r) & 1)
			fprintf(f, "      %-20s   required of a snapshot's trace source\n", "");
	}
}

void tc_cli_print_notes(FILE *f, const struct tc_config_notes *notes)
{
	for (int i = 0; i < notes->n; i++)
		fprintf(f, "# note: %s\n", notes->note[i]);
}

static void print_protocol_config(FILE *f, const struct tc_protocol *p, int stages)
{
	fprintf(f, "    --protocol %s (%s):\n", p->name, p->title);
	tc_cli_print_config_keys(f, p, stages);
	if (p->nregs) {
		fprintf(f, "    Registers of %s (32 bits, decimal or 0x hex):\n", p->name);
		tc_cli_print_config_registers(f, p);
	}
}

void tc_cli_print_config_help(FILE *f, const struct tc_protocol *p, int stages)
{
	fprintf(f,
		"\n"
		"Configuration (--config NAME=VALUE, may be repeated): NAME is a key (decimal\n"
		"value) or a trace unit register (32 bits, decimal or 0x hex) the keys are\n"
		"derived from; a key given overrides one derived, whatever the order.\n");
	if (p) {
		print_protocol_config(f, p, stages);
		return;
	}
	fprintf(f, "Keys and registers by protocol (--protocol P --help: one protocol's):\n");
	for (int i = 0; tc_protocols[i]; i++)
		print_protocol_config(f, tc_protocols[i], stages);
}

/* ---- Commands ---------------------------------------------------------------- */

static void print_commands(FILE *f, const struct tc_cli_command *commands)
{
	char list[200];
	tc_cli_protocol_list(list, sizeof list);
	fprintf(f,
		"usage: tracecert COMMAND [OPTION]... [ARGUMENT]...\n"
		"       tracecert help [--help | --version | COMMAND [OPTION]...]\n"
		"       tracecert --help | --version\n"
		"\n"
		"Conformance suite and reference decoder for processor trace protocols\n"
		"(this build: %s).\n"
		"\n"
		"Commands:\n", list);
	for (int i = 0; commands[i].name; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"  %-9s %s\n"
		"\n"
		"'tracecert help COMMAND' and 'tracecert COMMAND --help' print a command's help.\n"
		"Options follow GNU conventions: --NAME=VALUE or --NAME VALUE, a long option may\n"
		"be shortened to any unambiguous prefix, '--' ends the options (what follows is\n"
		"an operand, even when it begins with '-'); every command takes --help and\n"
		"--version. A usage error (unknown command or option, a missing or extra\n"
		"argument, a bad value) is one line on standard error naming the command, exit\n"
		"status 2.\n"
		"\n"
		"Options:\n",
		"help", "a command's help: tracecert help COMMAND [OPTION]...");
	print_option(f, "-h, --help", "this text (the same as tracecert help)");
	print_option(f, "--version", "print tracecert's version");
}

static const struct tc_cli_command *find_command(const struct tc_cli_command *commands, const char *name)
{
	for (int i = 0; commands[i].name; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int unknown_command(const char *name)
{
	fprintf(stderr, "tracecert: unknown command '%s' (see tracecert help)\n", name);
	return 2;
}

/* tracecert help [OPTION]... [COMMAND [ARG]...]: COMMAND's main with
 * "--help", help's own options (--help, --version; given before COMMAND)
 * and then ARGs. Without COMMAND, --version prints the version and
 * anything else the list of commands (help's own help). */
static int help_command(const struct tc_cli_command *commands, int argc, char **argv)
{
	static const struct tc_cli_option none[] = { { NULL, NULL, 0, NULL } };
	const struct tc_cli_command *cmd;
	struct tc_cli c;
	int first = 2, r;           /* argv[first]: COMMAND, when first < argc */
	char **args;
	int n = 0, rc;
	tc_cli_init(&c, "help", none, argc, argv);
	if (argc > 2 && argv[2][0] == '-' && argv[2][1] != '\0') {
		r = tc_cli_next(&c);
		if (r == TC_CLI_ERROR)
			return 2;
		/* c.argv is argv + 1: the operand read is argv[optind or c.pos], one past */
		first = r == TC_CLI_OPERAND ? (c.pos ? c.pos : optind) : argc;
	}
	if (first >= argc || !strcmp(argv[first], "help")) {
		if (c.version && !c.help)
			tc_cli_print_version(stdout);
		else
			print_commands(stdout, commands);
		return 0;
	}
	cmd = find_command(commands, argv[first]);
	if (!cmd)
		return unknown_command(argv[first]);
	args = calloc((size_t)argc + 4, sizeof *args);
	if (!args) {
		fprintf(stderr, "tracecert: out of memory\n");
		return 2;
	}
	args[n++] = argv[0];
	args[n++] = argv[first];
	args[n++] = "--help";
	if (c.version)
		args[n++] = "--version";
	for (int i = first + 1; i < argc; i++)
		args[n++] = argv[i];
	rc = cmd->main(n, args);
	free(args);
	return rc;
}

/* tracecert --help / --version: options alone, before any command. */
static int program_options(const struct tc_cli_command *commands, int argc, char **argv)
{
	static const struct tc_cli_option none[] = { { NULL, NULL, 0, NULL } };
	struct tc_cli c;
	int r;
	init_parse(&c, NULL, none, argc, argv);
	while ((r = tc_cli_next(&c)) != TC_CLI_END) {
		if (r == TC_CLI_ERROR)
			return 2;
		fprintf(stderr, "tracecert: unexpected argument '%s': the command comes first (see tracecert help)\n",
			c.value);
		return 2;
	}
	if (c.help)
		print_commands(stdout, commands);
	else if (c.version)
		tc_cli_print_version(stdout);
	else                      /* "tracecert --": no command */
		print_commands(stderr, commands);
	return c.help || c.version ? 0 : 2;
}

static int dispatch(const struct tc_cli_command *commands, int argc, char **argv)
{
	const struct tc_cli_command *cmd;
	if (argc < 2) {
		print_commands(stderr, commands);
		return 2;
	}
	if (argv[1][0] == '-' && argv[1][1] != '\0')
		return program_options(commands, argc, argv);
	if (!strcmp(argv[1], "help"))
		return help_command(commands, argc, argv);
	cmd = find_command(commands, argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	return cmd->main(argc, argv);
}

int tc_cli_dispatch(const struct tc_cli_command *commands, int argc, char **argv)
{
	int rc = dispatch(commands, argc, argv);
	const struct tc_cli_command *cmd = argc >= 2 ? find_command(commands, argv[1]) : NULL;
	/* output that did not all reach standard output (a full disk, /dev/full,
	 * the file-size limit) is a failure, whatever the command made of it */
	if (tc_out_check_stdout(cmd ? cmd->name : NULL) != 0 && rc < 2)
		rc = 2;
	return rc;
}
