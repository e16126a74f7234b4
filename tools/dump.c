/* SPDX-License-Identifier: BSD-3-Clause */
/* dump.c — `tracecert dump` / `decode`: decode a trace (file or standard input streamed in fixed chunks, hex text, a vector, a snapshot directory). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cyclecap.h"
#include "dump.h"
#include "snaprun.h"
#include "tracecert/image.h"
#include "vector.h"

#define CHUNK 65536

struct dump_opts {
	const char *cmd;                 /* "dump" or "decode" */
	int decode;
	struct tc_printer out;
	const struct tc_protocol *proto;   /* --protocol (default: the build's first), or the vector's */
	int proto_given;
	const char **config_args;        /* --config NAME=VALUE, applied once the protocol is known */
	int nconfig;
	const char **image_args;         /* --image, argc entries at most */
	int nimage;
	int hex;
	int vector;
	int cycles;                      /* --cycles: the sample file's cycle lines among the L1 items */
	const char *file;
	const char *snapshot;
	struct tc_max_bytes max_bytes;   /* --max-bytes */
};

/* ---- Printing ---------------------------------------------------------------- */

static const char *level_prefix(int level)
{
	switch (level) {
	case tc_level_l1: return "L1 ";
	case tc_level_s1: return "s1 ";
	case tc_level_l2: return "L2 ";
	default: return "L3 ";
	}
}

static void out_item(void *ctx, int level, const struct tc_item *item)
{
	struct tc_printer *o = ctx;
	const struct tc_protocol *p = o->proto;
	char buf[512];
	if (level == tc_level_l1 && p->item_error(level, item))
		o->errors++;
	if (!(o->level_mask & level)) {
		if (level == tc_level_l1 && p->item_is_warning(level, item)) {   /* L1 only: a comment at other levels */
			p->format(buf, sizeof buf, level, item);
			printf("# %s\n", buf);
		}
		return;
	}
	if (level == tc_level_l3 && item->kind == tc_l3_no_image && o->no_image++ == 0) {
		o->no_image_addr = ((const struct tc_l3 *)item)->address;
		o->no_image_offset = item->offset;
	}
	if (level == tc_level_l3)
		tc_l3_format(buf, sizeof buf, (const struct tc_l3 *)item, p->error_names, p->nerrors);
	else
		p->format(buf, sizeof buf, level, item);
	if (o->prefix)
		fputs(level_prefix(level), stdout);
	fputs(buf, stdout);
	putchar('\n');
}

/* L1 always (errors are counted there), s1 and L2 when printed, L3 when printed. */
void tc_printer_sink(struct tc_printer *p, struct tc_sink *sink)
{
	sink->ctx = p;
	sink->levels = tc_level_l1 | (unsigned)(p->level_mask & (tc_level_s1 | tc_level_l2 | tc_level_l3));
	sink->item = out_item;
}

unsigned long long tc_max_bytes_for(const struct tc_max_bytes *m, int regular)
{
	if (m->given)
		return m->n;
	return regular ? 0 : TC_STREAM_MAX_BYTES;
}

void tc_max_bytes_message(char *buf, size_t n, const char *path, unsigned long long limit, unsigned long long size)
{
	if (size)
		snprintf(buf, n, "%s: %llu bytes, more than %llu, the limit (--max-bytes N; 0: no limit)", path, size, limit);
	else
		snprintf(buf, n, "%s: more than %llu bytes, the limit (--max-bytes N; 0: no limit)", path, limit);
}

void tc_max_bytes_report(const char *cmd, const char *path, unsigned long long limit, unsigned long long size)
{
	char msg[1200];
	tc_max_bytes_message(msg, sizeof msg, path, limit, size);
	fprintf(stderr, "tracecert %s: %s\n", cmd, msg);
}

/* ---- Help -------------------------------------------------------------------- */

enum dump_option { opt_protocol = 1, opt_config, opt_level, opt_hex, opt_vector, opt_snapshot, opt_image, opt_max_bytes,
		   opt_cycles };

/* The help of the options dump and decode share. */
static const char protocol_doc[] = "the trace protocol (default: the first of the build,\nlisted below); with --vector the vector's own, which P\nmust then name";
static const char config_doc[] = "decoder configuration: a key or a register (below);\nmay be repeated";
static const char hex_doc[] = "FILE is text: hex bytes, blanks and '#' comments";
static const char vector_doc[] = "FILE is a .tcv vector: use its protocol, [config],\n[trace] and [image] sections (--config overrides)";
static const char max_bytes_doc[] = "read at most N bytes of FILE, or of each trace buffer\nof a snapshot (decimal or 0x hex; 0: no limit): more\n"
	"is an error naming the limit, exit 2; a regular file\nlarger than N is refused before anything is decoded.\n"
	"Default: no limit for a regular file (its size is\nknown), 1 GiB (1073741824) for an input whose end is\n"
	"not known (standard input, a pipe, a device such as\n/dev/zero), so an endless one stops";

static const struct tc_cli_option dump_options[] = {
	{ "protocol", "P", opt_protocol, protocol_doc },
	{ "config", "NAME=VALUE", opt_config, config_doc },
	{ "level", "1|s1|2|all", opt_level,
	  "what to print: packets (1, the default), stage-1\nelements (s1), resolved elements (2), or all three,\n"
	  "each line prefixed by its level" },
	{ "hex", NULL, opt_hex, hex_doc },
	{ "vector", NULL, opt_vector, vector_doc },
	{ "max-bytes", "N", opt_max_bytes, max_bytes_doc },
	{ "cycles", NULL, opt_cycles,
	  "a protocol whose input is a per-cycle sample file, at\nL1: before the items, a line for\n"
	  "the header and one per record (\"@18 cycle 0 pkt=0xa0\"),\nwhich the L1 text does not hold; `tracecert asm`\n"
	  "writes the file back from them" },
	{ "snapshot", "DIR", opt_snapshot,
	  "a trace snapshot directory (snapshot.ini, device .ini\nfiles with registers, trace.ini and its buffers, raw or\n"
	  "CoreSight formatted): every source of a protocol of this\nbuild (by its device type) is decoded with its registers\n"
	  "as configuration (--config overrides), one block each\nheaded by a '#' line naming the source, buffer and trace\n"
	  "ID; other sources are listed as not decoded. The whole\ndirectory is checked first: an error names the file and\n"
	  "line, exit 2 (also: a source without a register its\nprotocol requires, listed below; two sources of one\nformatted buffer with one trace ID)" },
	{ NULL, NULL, 0, NULL }
};

static const struct tc_cli_option decode_options[] = {
	{ "image", "FILE[@ADDR]", opt_image,
	  "FILE@ADDR: a raw binary mapped at address ADDR (0x... or\ndecimal); FILE: an ELF file (32- or 64-bit, little\n"
	  "endian), its PT_LOAD segments. May be repeated; regions\nmust not overlap" },
	{ "protocol", "P", opt_protocol, protocol_doc },
	{ "config", "NAME=VALUE", opt_config, config_doc },
	{ "level", "3|all", opt_level, "L3 only (the default), or L1, s1, L2 and L3, each line\nprefixed by its level" },
	{ "hex", NULL, opt_hex, hex_doc },
	{ "vector", NULL, opt_vector, vector_doc },
	{ "max-bytes", "N", opt_max_bytes, max_bytes_doc },
	{ "snapshot", "DIR", opt_snapshot,
	  "as for dump (tracecert help dump); the memory dumps of\neach source's core ([core_trace_sources]) are its image,\n"
	  "mapped, not copied" },
	{ NULL, NULL, 0, NULL }
};

static void help_dump(FILE *f, const struct tc_cli *c, const struct tc_protocol *proto)
{
	fprintf(f,
		"usage: tracecert dump [--protocol P] [--config NAME=VALUE]... [--level 1|s1|2|all]\n"
		"                      [--hex | --vector] FILE\n"
		"       tracecert dump [--config NAME=VALUE]... [--level 1|s1|2|all] --snapshot DIR\n"
		"\n"
		"Decodes FILE with the reference decoder and prints the canonical text of its\n"
		"protocol (reference/<protocol>/FORMAT.md), one item per line, each with the\n"
		"byte offset of its packet. FILE '-' reads standard input; input is read in fixed chunks, so memory\n"
		"does not grow with its size. Bytes before the first A-sync are skipped (a '#'\n"
		"comment says how many). Errors are printed in-band as 'error class=NAME' items;\n"
		"the exit status is 1 when any error was found, 2 for bad usage or input.\n"
		"\n"
		"Options:\n");
	tc_cli_print_options(f, c);
	tc_cli_print_protocols(f);
	tc_cli_print_config_help(f, proto, TC_CLI_KEYS_PACKETS);
	fprintf(f, "The instruction-level keys are in tracecert help decode.\n");
}

static void help_decode(FILE *f, const struct tc_cli *c, const struct tc_protocol *proto)
{
	fprintf(f,
		"usage: tracecert decode [--protocol P] --image FILE[@ADDR]... [--config NAME=VALUE]...\n"
		"                        [--level 3|all] [--hex | --vector] TRACE\n"
		"       tracecert decode [--config NAME=VALUE]... [--level 3|all] --snapshot DIR\n"
		"\n"
		"Decodes TRACE with the reference decoder down to what executed (L3, the text\n"
		"every protocol shares: reference/L3FORMAT.md): instruction ranges, exceptions,\n"
		"context changes, gaps, timestamps, cycle counts, events, transactions. TRACE\n"
		"'-' reads standard input, in fixed chunks. A vector's [image] sections are its\n"
		"image unless --image is given. Where the image holds no instruction at an\n"
		"address the trace goes to, a 'no-image addr=...' item says so in-band and the\n"
		"decode goes on at the next address.\n"
		"\n"
		"Exit status: 0 when the trace decoded without error and the image held every\n"
		"address it went to; 1 when the trace had errors ('error class=...' items) or\n"
		"the image lacked an address ('no-image' items; one line on standard error names\n"
		"the first and its byte offset); 2 for bad usage or input (nothing decoded).\n"
		"\n"
		"Options:\n");
	tc_cli_print_options(f, c);
	tc_cli_print_protocols(f);
	tc_cli_print_config_help(f, proto, TC_CLI_KEYS_ALL);
}

/* ---- Arguments -------------------------------------------------------------------- */

static int parse_level(const char *s, struct dump_opts *o)
{
	if (o->decode) {
		if (!strcmp(s, "3") || !strcmp(s, "l3") || !strcmp(s, "L3"))
			o->out.level_mask = 8;
		else if (!strcmp(s, "all"))
			o->out.level_mask = 15, o->out.prefix = 1;
		else
			return -1;
		return 0;
	}
	if (!strcmp(s, "1") || !strcmp(s, "l1") || !strcmp(s, "L1"))
		o->out.level_mask = 1;
	else if (!strcmp(s, "s1"))
		o->out.level_mask = 2;
	else if (!strcmp(s, "2") || !strcmp(s, "l2") || !strcmp(s, "L2"))
		o->out.level_mask = 4;
	else if (!strcmp(s, "all"))
		o->out.level_mask = 7, o->out.prefix = 1;
	else
		return -1;
	return 0;
}

/* The --config options over the protocol finally decoded. */
static int build_config(const struct dump_opts *o, struct tc_config_builder *b)
{
	tc_config_builder_init(b, o->proto);
	for (int i = 0; i < o->nconfig; i++)
		if (tc_cli_config_set(o->cmd, b, o->config_args[i]))
			return -1;
	return 0;
}

/* One option or operand; 0, or -1 after a usage error. */
static int take_argument(struct dump_opts *o, const struct tc_cli *c, int id)
{
	const char *v = c->value;
	switch (id) {
	case opt_image:
		o->image_args[o->nimage++] = v;
		return 0;
	case opt_snapshot:
		o->snapshot = v;
		return 0;
	case opt_hex:
		o->hex = 1;
		return 0;
	case opt_vector:
		o->vector = 1;
		return 0;
	case opt_cycles:
		o->cycles = 1;
		return 0;
	case opt_max_bytes:
		if (tc_cli_number(v, ~0ull, &o->max_bytes.n) == 0) {
			o->max_bytes.given = 1;
			return 0;
		}
		tc_cli_usage_error(c, "--max-bytes expects a number (decimal or 0x hex, 0: no limit), got '%s'", v);
		return -1;
	case opt_protocol:
		o->proto = tc_cli_protocol(c, v);
		o->proto_given = 1;
		return o->proto ? 0 : -1;
	case opt_config:
		if (tc_cli_config_shape(c, v))
			return -1;
		o->config_args[o->nconfig++] = v;
		return 0;
	case opt_level:
		if (parse_level(v, o) == 0)
			return 0;
		tc_cli_usage_error(c, "--%s expects %s, got '%s'", c->option, o->decode ? "3 or all" : "1, s1, 2 or all", v);
		return -1;
	default:                  /* TC_CLI_OPERAND */
		if (o->file) {
			tc_cli_usage_error(c, "more than one FILE ('%s' and '%s')", o->file, v);
			return -1;
		}
		o->file = v;
		return 0;
	}
}

static int check_combination(const struct dump_opts *o, const struct tc_cli *c)
{
	if (o->snapshot && (o->file || o->hex || o->vector || o->nimage)) {
		tc_cli_usage_error(c, "--snapshot DIR takes no FILE, --hex, --vector or --image");
		return -1;
	}
	if (o->snapshot && o->proto_given) {
		tc_cli_usage_error(c, "--snapshot DIR takes each source's protocol from its device type, not --protocol");
		return -1;
	}
	if (!o->snapshot && !o->file) {
		tc_cli_usage_error(c, "no FILE given");
		return -1;
	}
	if (o->cycles && (o->snapshot || o->out.level_mask != tc_level_l1)) {
		tc_cli_usage_error(c, "--cycles goes with a FILE at --level 1 only");
		return -1;
	}
	if (o->hex && o->vector) {
		tc_cli_usage_error(c, "--hex and --vector do not go together");
		return -1;
	}
	return 0;
}

/* The arguments into o: 0 to decode, 1 when --help or --version was
 * answered, -1 after a usage error. */
static int parse_dump_args(int argc, char **argv, struct dump_opts *o)
{
	struct tc_cli c;
	int id;
	tc_cli_init(&c, o->cmd, o->decode ? decode_options : dump_options, argc, argv);
	while ((id = tc_cli_next(&c)) != TC_CLI_END)
		if (id == TC_CLI_ERROR || take_argument(o, &c, id))
			return -1;
	if (c.help) {
		if (o->decode)
			help_decode(stdout, &c, o->proto_given ? o->proto : NULL);
		else
			help_dump(stdout, &c, o->proto_given ? o->proto : NULL);
		return 1;
	}
	if (c.version) {
		tc_cli_print_version(stdout);
		return 1;
	}
	return check_combination(o, &c);
}

/* Loads each --image FILE[@ADDR] (raw files are mapped, not copied). */
static int load_images(const struct dump_opts *o, struct tc_image *img)
{
	for (int i = 0; i < o->nimage; i++) {
		char err[1200];
		const char *arg = o->image_args[i], *at = strrchr(arg, '@');
		int rc;
		if (at) {
			char *path;
			unsigned long long base;
			if (tc_cli_number(at + 1, ~0ull, &base)) {
				fprintf(stderr, "tracecert decode: --image %s: '%s' is not an address (decimal or 0x hex, "
						"at most 64 bits)\n", arg, at + 1);
				return -1;
			}
			path = strndup(arg, (size_t)(at - arg));
			if (!path)
				return -1;
			rc = tc_image_load_raw(img, path, base, err, sizeof err);
			free(path);
		} else {
			rc = tc_image_load_elf(img, arg, err, sizeof err);
		}
		if (rc) {
			fprintf(stderr, "tracecert decode: --image %s: %s%s\n", arg, err,
				rc == tc_image_err_not_elf ? "; a raw binary needs its load address: --image FILE@ADDR" : "");
			return -1;
		}
	}
	return 0;
}

/* ---- Streamed input ------------------------------------------------------------------ */

/* A trace file or standard input read in fixed chunks, raw or hex text. */
struct input {
	FILE *f;
	const char *path;
	const char *cmd;
	int hex;
	int hi;                 /* hex: pending high nibble, -1 none */
	int comment;            /* hex: inside a '#' comment */
	uint64_t pos;           /* bytes of the file read so far */
	uint64_t max;           /* the most bytes read (--max-bytes); 0: no limit */
	uint8_t raw[CHUNK];
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Converts n bytes of hex text from in->raw into out; returns the bytes
 * written or -1 with a message naming the byte offset. */
static long hex_convert(struct input *in, size_t n, uint8_t *out)
{
	long o = 0;
	for (size_t i = 0; i < n; i++) {
		int c = in->raw[i], v;
		if (c == '\n')
			in->comment = 0;
		if (in->comment || c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '#') {
			in->comment = 1;
			continue;
		}
		v = hexval(c);
		if (v < 0) {
			fprintf(stderr, "tracecert %s: %s: byte %llu: expected a hex digit, blank or '#' comment\n", in->cmd,
				in->path, (unsigned long long)(in->pos - n + i));
			return -1;
		}
		if (in->hi < 0) {
			in->hi = v;
		} else {
			out[o++] = (uint8_t)(in->hi << 4 | v);
			in->hi = -1;
		}
	}
	return o;
}

static int input_open(struct input *in, const char *path, const char *cmd, int hex, const struct tc_max_bytes *max)
{
	struct stat st;
	in->path = path;
	in->cmd = cmd;
	in->hex = hex;
	in->hi = -1;
	in->comment = 0;
	in->pos = 0;
	in->f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!in->f) {
		fprintf(stderr, "tracecert %s: cannot read '%s': %s\n", cmd, path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(in->f), &st)) {
		fprintf(stderr, "tracecert %s: cannot read '%s': %s\n", cmd, path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tracecert %s: cannot read '%s': %s\n", cmd, path, strerror(EISDIR));
		return -1;
	}
	in->max = tc_max_bytes_for(max, S_ISREG(st.st_mode));
	if (S_ISREG(st.st_mode) && in->max && (unsigned long long)st.st_size > in->max) {   /* before anything is decoded */
		tc_max_bytes_report(cmd, path, in->max, (unsigned long long)st.st_size);
		return -1;
	}
	return 0;
}

static void input_close(struct input *in)
{
	if (in->f && in->f != stdin)
		fclose(in->f);
	in->f = NULL;
}

/* Up to CHUNK trace bytes into out: the count, 0 at the end, -1 on an error (reported). */
static long input_read(struct input *in, uint8_t *out)
{
	for (;;) {
		size_t n = fread(in->hex ? in->raw : out, 1, CHUNK, in->f);
		long got;
		if (n == 0 && ferror(in->f)) {
			fprintf(stderr, "tracecert %s: cannot read '%s': %s\n", in->cmd, in->path, strerror(errno));
			return -1;
		}
		in->pos += n;
		if (in->max && in->pos > in->max) {
			tc_max_bytes_report(in->cmd, in->path, in->max, 0);
			return -1;
		}
		if (n == 0 && in->hex && in->hi >= 0) {
			fprintf(stderr, "tracecert %s: %s: byte %llu: expected a hex digit, blank or '#' comment (odd number of hex digits)\n",
				in->cmd, in->path, (unsigned long long)in->pos);
			return -1;
		}
		if (!in->hex || n == 0)
			return (long)n;
		got = hex_convert(in, n, out);
		if (got != 0)
			return got;
	}
}

/* Hex text in a regular file is checked whole before anything is decoded. */
static int hex_precheck(struct input *in)
{
	static uint8_t scratch[CHUNK];
	struct stat st;
	long n;
	if (!in->hex || fstat(fileno(in->f), &st) || !S_ISREG(st.st_mode))
		return 0;
	while ((n = input_read(in, scratch)) > 0)
		;
	if (n < 0)
		return -1;
	rewind(in->f);
	in->hi = -1;
	in->comment = 0;
	in->pos = 0;
	return 0;
}

/* ---- Decoding ------------------------------------------------------------------------ */

/* --cycles: the sample file's cycle lines (reference/cyclecap.h), each before the bytes that complete
 * its record go to the decoder, so each L1 item follows the line of its record. */
struct cycle_echo {
	int on;
	struct tc_cyclecap_echo e;
};

static void echo_line(void *ctx, const struct tc_cyclecap_line *l)
{
	char buf[200];
	(void)ctx;
	tc_cyclecap_format_line(buf, sizeof buf, l);
	puts(buf);
}

/* Feeds b to the decoder, with --cycles record by record after each one's line. */
static void feed(const struct tc_protocol *p, void *d, struct cycle_echo *e, const uint8_t *b, size_t len)
{
	if (!e->on) {
		p->feed(d, b, len);
		return;
	}
	while (len > 0) {
		size_t n = tc_cyclecap_echo_step(&e->e, b, len);
		p->feed(d, b, n);
		b += n;
		len -= n;
	}
}

/* The end of the input: a partial header or record's bytes. */
static void echo_finish(struct cycle_echo *e)
{
	if (e->on)
		tc_cyclecap_echo_finish(&e->e);
}

static int feed_file(const struct tc_protocol *p, void *d, struct cycle_echo *e, struct input *in)
{
	static uint8_t buf[CHUNK];
	long n;
	while ((n = input_read(in, buf)) > 0)
		feed(p, d, e, buf, (size_t)n);
	return n < 0 ? -1 : 0;
}

static void feed_memory(const struct tc_protocol *p, void *d, struct cycle_echo *e, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i += CHUNK)
		feed(p, d, e, b + i, len - i < CHUNK ? len - i : CHUNK);
}

/* --cycles for o->proto: 0, or -1 after a message when its input is no sample file. */
static int echo_init(const struct dump_opts *o, struct cycle_echo *e)
{
	const struct tc_sample_format *f = o->proto->sample;
	memset(e, 0, sizeof *e);
	if (!o->cycles)
		return 0;
	if (!f) {
		fprintf(stderr, "tracecert %s: --cycles: the input of protocol '%s' is a byte stream, not a sample file\n",
			o->cmd, o->proto->name);
		return -1;
	}
	struct tc_cyclecap_params params = { f->major, f->max_minor, f->status_bits, f->has_sync };
	tc_cyclecap_echo_init(&e->e, &params, echo_line, NULL);
	e->on = 1;
	return 0;
}

/* The vector's protocol, configuration, trace and (without --image) image. */
static int load_vector(struct dump_opts *o, struct tc_vector *v, struct tc_image *img)
{
	char err[512];
	if (tc_vector_load(o->file, v, err, sizeof err)) {
		fprintf(stderr, "tracecert %s: %s: %s\n", o->cmd, o->file, err);
		return -1;
	}
	if (o->proto_given && o->proto != v->proto) {
		fprintf(stderr, "tracecert %s: %s is a %s vector, not %s\n", o->cmd, o->file, v->proto->name, o->proto->name);
		return -1;
	}
	o->proto = v->proto;
	if (v->has_image && o->nimage == 0) {
		tc_image_free(img);
		*img = v->image;            /* the vector's image moves to the caller */
		memset(&v->image, 0, sizeof v->image);
	}
	return 0;
}

/* The image lacked an address the trace needs (the L3 no-image items say
 * each one in-band): one line on standard error with the first. */
static void report_no_image(const struct dump_opts *o)
{
	const struct tc_printer *p = &o->out;
	fprintf(stderr, "tracecert %s: %s: byte offset %llu: no image holds address 0x%llx, where the trace goes "
		"(%lu no-image item%s); give the program that is there: --image FILE@ADDR (a raw binary) or "
		"--image FILE (an ELF file)\n", o->cmd, o->file, (unsigned long long)p->no_image_offset,
		(unsigned long long)p->no_image_addr, p->no_image, p->no_image == 1 ? "" : "s");
}

/* Runs the decoder of o->proto with configuration cfg over the input. */
static int run_decoder(struct dump_opts *o, void *cfg, struct tc_image *img, struct tc_vector *v, struct input *in)
{
	const struct tc_protocol *p = o->proto;
	struct tc_config_builder b;
	struct tc_config_notes notes;
	struct tc_sink sink;
	char err[300];
	void *d;
	int rc = 0;
	struct cycle_echo echo;
	if (build_config(o, &b) || echo_init(o, &echo))
		return 2;
	if (tc_config_builder_apply(&b, cfg, &notes, err, sizeof err)) {
		fprintf(stderr, "tracecert %s: %s\n", o->cmd, err);
		return 2;
	}
	tc_cli_print_notes(stdout, &notes);
	o->out.proto = p;
	tc_printer_sink(&o->out, &sink);
	d = p->alloc(cfg, &sink);
	if (!d) {
		fprintf(stderr, "tracecert %s: out of memory\n", o->cmd);
		return 2;
	}
	p->set_image(d, img);
	if (o->vector)
		feed_memory(p, d, &echo, v->trace, v->trace_len);
	else if (feed_file(p, d, &echo, in))
		rc = 2;
	echo_finish(&echo);
	p->finish(d);
	if (p->skipped(d))
		printf("# skipped %llu bytes outside A-sync\n", (unsigned long long)p->skipped(d));
	p->free(d);
	if (!rc && o->out.no_image)
		report_no_image(o);
	return rc ? rc : o->out.errors || o->out.no_image ? 1 : 0;
}

static int run_file(struct dump_opts *o)
{
	struct tc_image img;
	struct tc_vector v;
	void *cfg = NULL;
	struct input *in = NULL;
	int rc = 2;
	memset(&img, 0, sizeof img);
	memset(&v, 0, sizeof v);
	if (load_images(o, &img))
		goto out;
	if (o->vector) {
		if (load_vector(o, &v, &img))
			goto out;
	} else {
		in = malloc(sizeof *in);
		if (!in || input_open(in, o->file, o->cmd, o->hex, &o->max_bytes) || hex_precheck(in))
			goto out;
	}
	cfg = malloc(o->proto->config_size);
	if (!cfg)
		goto out;
	if (o->vector)
		memcpy(cfg, v.config, o->proto->config_size);
	else
		tc_config_default(o->proto, cfg);
	rc = run_decoder(o, cfg, &img, &v, in);
out:
	if (in)
		input_close(in);
	free(in);
	free(cfg);
	tc_vector_free(&v);
	tc_image_free(&img);
	return rc;
}

/* dump (decode 0) or decode (decode 1). */
static int dump_or_decode(int argc, char **argv, int decode)
{
	struct dump_opts o;
	int rc;
	memset(&o, 0, sizeof o);
	o.cmd = decode ? "decode" : "dump";
	o.decode = decode;
	o.out.level_mask = decode ? tc_level_l3 : tc_level_l1;
	o.proto = tc_cli_default_protocol();
	o.image_args = calloc((size_t)argc, sizeof *o.image_args);
	o.config_args = calloc((size_t)argc, sizeof *o.config_args);
	if (!o.image_args || !o.config_args) {
		free(o.image_args);
		free(o.config_args);
		return 2;
	}
	rc = parse_dump_args(argc, argv, &o);
	if (rc)
		rc = rc < 0 ? 2 : 0;
	else if (o.snapshot)
		rc = tc_snapshot_run(o.snapshot, o.cmd, o.config_args, o.nconfig, &o.max_bytes, &o.out);
	else
		rc = run_file(&o);
	free(o.image_args);
	free(o.config_args);
	return rc;
}

int tc_dump_main(int argc, char **argv)
{
	return dump_or_decode(argc, argv, 0);
}

int tc_decode_main(int argc, char **argv)
{
	return dump_or_decode(argc, argv, 1);
}
