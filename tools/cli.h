/* SPDX-License-Identifier: BSD-3-Clause */
/* cli.h — the tracecert command line's shared parts: the command table and its dispatcher, GNU long options (getopt_long) with usage errors that name the command, help printing, the version, and --protocol / --config through the protocol descriptors. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <stdio.h>

#include "tracecert/protocol.h"

/* ---- Commands ---------------------------------------------------------------- */

/* One command of tracecert. main receives the whole command line: argv[0]
 * is the program, argv[1] the command's name, its options from argv[2]. */
struct tc_cli_command {
	const char *name;
	const char *summary;      /* one line for `tracecert --help` */
	int (*main)(int argc, char **argv);
};

/* Runs tracecert's command line over a table ending with {NULL}:
 *   tracecert COMMAND [ARG]...      the command's main
 *   tracecert help COMMAND [ARG]... the command's main with --help (the same text)
 *   tracecert help | --help | -h    the list of commands (standard output, 0)
 *   tracecert --version             the version
 *   tracecert                       the list on standard error, 2
 * An unknown command or option is a usage error (2). Returns the exit status. */
int tc_cli_dispatch(const struct tc_cli_command *commands, int argc, char **argv);

/* "tracecert 0.1.0 (git DESCRIBE)": the number from the VERSION file, the
 * `git describe --always --dirty` of the source tree when it was built in a
 * git work tree (GNUmakefile writes both into $(BUILD)/gen/version.c). */
void tc_cli_print_version(FILE *f);
/* The same without "tracecert " and the line break, into buf (n bytes). */
void tc_cli_version_text(char *buf, size_t n);
/* The folder of the installed vectors, DATADIR/tracecert/vectors: certify's
 * default (GNUmakefile writes it into $(BUILD)/gen/paths.c from DATADIR). */
const char *tc_cli_vectors_dir(void);

/* ---- Options -----------------------------------------------------------------
 *
 * A command's parse (tools/config_cmd.c is a short example):
 *
 *	static const struct tc_cli_option options[] = {
 *		{ "seed", "N", opt_seed, "first seed (default 1)" },
 *		{ "quiet", NULL, opt_quiet, "no speed figures on stderr" },
 *		{ NULL, NULL, 0, NULL }
 *	};
 *	tc_cli_init(&c, "gen", options, argc, argv);
 *	while ((id = tc_cli_next(&c)) != TC_CLI_END)
 *		if (id == TC_CLI_ERROR || take_argument(&o, &c, id))   // c.value; operands: TC_CLI_OPERAND
 *			return 2;
 *	if (c.help)
 *		return help(stdout, &c), 0;       // its text, tc_cli_print_options(f, &c), …
 *	if (c.version)
 *		return tc_cli_print_version(stdout), 0;
 *
 * Other usage errors (a bad value, a missing or extra operand, options that
 * do not go together) go through tc_cli_usage_error, exit status 2. */

/* One long option of a command, given as --NAME, --NAME=VALUE or --NAME
 * VALUE (an unambiguous prefix of NAME is accepted too). A command's table
 * ends with {NULL}; --help (-h) and --version are added to every table. */
struct tc_cli_option {
	const char *name;         /* without the leading "--" */
	const char *arg;          /* the value's name in the help ("FILE"); NULL: takes no value */
	int id;                   /* what tc_cli_next returns for it; > 0, distinct */
	const char *doc;          /* the help text; each '\n' starts another line in the same column */
};

#define TC_CLI_OPTIONS_MAX 40

/* What tc_cli_next returns besides an option's id. */
enum {
	TC_CLI_END = 0,           /* no more arguments */
	TC_CLI_OPERAND = -1,      /* an operand (a FILE, NAME=VALUE …) in value */
	TC_CLI_ERROR = -2         /* a usage error, already printed: exit with 2 */
};

/* The parse of one command's arguments. Options and operands come in the
 * order given (whatever POSIXLY_CORRECT says); after "--" everything is an
 * operand. --help and --version only set help and version, so the command
 * can finish the parse (--protocol narrows the help) and print them after
 * it: a usage error wins over them. */
struct tc_cli {
	const char *cmd;          /* "dump": for messages */
	const struct tc_cli_option *opts;
	int argc;                 /* the command's arguments: argv[0] is the command */
	char **argv;
	int pos;                  /* operands after "--": next index, 0 before */
	int help;                 /* --help or -h was given */
	int version;              /* --version was given */
	const char *value;        /* the option's value (NULL without) or the operand */
	const char *option;       /* the option's name in full ("level" for --lev), for messages */
};

/* argc, argv as the command's main received them (argv[1] is the command). */
void tc_cli_init(struct tc_cli *c, const char *cmd, const struct tc_cli_option *opts, int argc, char **argv);

/* The next option (its id, value in c->value), operand (TC_CLI_OPERAND),
 * TC_CLI_END, or TC_CLI_ERROR after a message naming the command and the
 * option: unknown, ambiguous, missing its value, or given a value it does
 * not take. */
int tc_cli_next(struct tc_cli *c);

/* Prints "tracecert CMD: MESSAGE (see tracecert help CMD)" on standard
 * error; returns 2, the exit status of a usage error. */
int tc_cli_usage_error(const struct tc_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The lines of a command's options: its table, then -h/--help and --version. */
void tc_cli_print_options(FILE *f, const struct tc_cli *c);

/* A number of the command line or a file a command reads: decimal or 0x
 * hex digits only (no sign, no blank, no octal), at most max. 0, or -1. */
int tc_cli_number(const char *s, unsigned long long max, unsigned long long *out);

/* ---- Protocols and configuration ----------------------------------------------- */

/* The protocol a command uses when none is given: the first of the build's
 * (PROTOCOLS in GNUmakefile). */
const struct tc_protocol *tc_cli_default_protocol(void);

/* The names of this build's protocols joined by '|', for help and messages. */
void tc_cli_protocol_list(char *buf, size_t size);

/* The help's list of the protocols of this build, the default marked. */
void tc_cli_print_protocols(FILE *f);

/* --protocol NAME: the descriptor, or NULL after a usage error naming the
 * protocols this build has. */
const struct tc_protocol *tc_cli_protocol(const struct tc_cli *c, const char *name);

/* Whether arg has the shape NAME=VALUE (a usage error when not). 0 or -1. */
int tc_cli_config_shape(const struct tc_cli *c, const char *arg);

/* Sets --config NAME=VALUE in b (the key table of b->proto); 0, or -1
 * after a message: a name another protocol owns says which protocol has it,
 * an unknown name points at `tracecert config --protocol P`. cmd names the
 * command in the message. */
int tc_cli_config_set(const char *cmd, struct tc_config_builder *b, const char *arg);

/* Which keys a help lists (struct tc_config_key's stage). */
enum {
	TC_CLI_KEYS_PACKETS = 1,  /* stage 1: packets and resolution */
	TC_CLI_KEYS_INSNS = 2,    /* stage 3: instruction level */
	TC_CLI_KEYS_ALL = 3
};

/* The configuration keys of one stage of a protocol, two lines each, and
 * its registers, one line each. */
void tc_cli_print_config_keys(FILE *f, const struct tc_protocol *p, int stages);
void tc_cli_print_config_registers(FILE *f, const struct tc_protocol *p);

/* "# note: …" lines: what the registers said beyond the keys. */
void tc_cli_print_notes(FILE *f, const struct tc_config_notes *notes);

/* The help's section on --config: the keys of p (NULL: of every protocol
 * of the build, each under its name) of the stages asked, and the registers. */
void tc_cli_print_config_help(FILE *f, const struct tc_protocol *p, int stages);

#endif
