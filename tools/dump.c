/* dump.c — `tracecert dump` / `decode`: decode a trace (file or standard input streamed in fixed chunks, hex text, a vector, a snapshot directory), and `tracecert config`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dump.h"
#include "snaprun.h"
#include "tracecert/image.h"
#include "vector.h"

#define CHUNK 65536

struct dump_opts {
	const char *cmd;                 /* "dump" or "decode" */
	int decode;
	struct tc_printer out;
	const struct tc_protocol *proto;   /* --protocol (default ete), or the vector's */
	int proto_given;
	const char **config_args;        /* --config NAME=VALUE, applied once the protocol is known */
	int nconfig;
	const char **image_args;         /* --image, argc entries at most */
	int nimage;
	int hex;
	int vector;
	const char *file;
	const char *snapshot;
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

/* ---- Help -------------------------------------------------------------------- */

void tc_print_config_keys(FILE *f, const struct tc_protocol *p, int stage)
{
	for (int k = 0; k < p->nkeys; k++) {
		const struct tc_config_key *key = &p->keys[k];
		char lhs[32];
		if ((key->stage == 3) != (stage == 1))
			continue;
		snprintf(lhs, sizeof lhs, "%s=%s", key->name, key->max == 1 ? "0|1" : "N");
		fprintf(f, "      %-18s %s, 0..%llu (default %llu)\n", lhs, key->doc, (unsigned long long)key->max,
			(unsigned long long)key->def);
		fprintf(f, "      %-18s   from: %s\n", "", key->source);
	}
}

void tc_print_config_registers(FILE *f, const struct tc_protocol *p)
{
	for (int r = 0; r < p->nregs; r++)
		fprintf(f, "      %-18s %s\n", p->regs[r].name, p->regs[r].doc);
}

/* Every protocol's keys of one stage, and (stage 0) its registers. */
static void print_all_keys(FILE *f, int stage)
{
	for (int i = 0; tc_protocols[i]; i++) {
		fprintf(f, "    --protocol %s (%s):\n", tc_protocols[i]->name, tc_protocols[i]->title);
		tc_print_config_keys(f, tc_protocols[i], stage);
		if (stage == 0 && tc_protocols[i]->nregs) {
			fprintf(f, "    Registers of %s:\n", tc_protocols[i]->name);
			tc_print_config_registers(f, tc_protocols[i]);
		}
	}
}

static void protocol_list(char *buf, size_t size)
{
	buf[0] = '\0';
	for (int i = 0; tc_protocols[i]; i++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? "|" : "", tc_protocols[i]->name);
}

static void usage_common(FILE *f)
{
	fprintf(f,
		"  --config NAME=VALUE   decoder configuration; may be repeated. NAME is a key\n"
		"                        (decimal value) or a trace unit register (32 bits, decimal\n"
		"                        or 0x hex) the keys are derived from; a key given overrides\n"
		"                        one derived, whatever the order. Keys, by protocol:\n");
	print_all_keys(f, 0);
}

static void usage_protocol(FILE *f)
{
	char list[100];
	protocol_list(list, sizeof list);
	fprintf(f, "  --protocol %-10s the trace protocol (default ete; a vector's own with --vector)\n", list);
}

static void usage_dump(FILE *f)
{
	fprintf(f,
		"usage: tracecert dump [--protocol P] [--config NAME=VALUE]... [--level 1|s1|2|all]\n"
		"                      [--hex] [--vector] FILE\n"
		"       tracecert dump [--config NAME=VALUE]... [--level 1|s1|2|all] --snapshot DIR\n"
		"\n"
		"Decodes FILE with the reference decoder and prints the canonical text of\n"
		"reference/FORMAT.md, one item per line, each with the byte offset of its\n"
		"packet. FILE '-' reads standard input; input is read in fixed chunks, so memory\n"
		"does not grow with its size. Bytes before the first A-sync are skipped (a '#'\n"
		"comment says how many). Errors are printed in-band as 'error class=NAME' items;\n"
		"the exit status is 1 when any error was found, 2 for bad usage or input.\n"
		"\n"
		"Options:\n");
	usage_protocol(f);
	usage_common(f);
	fprintf(f,
		"  --level 1|s1|2|all    what to print: packets (1, the default), stage-1\n"
		"                        elements (s1), resolved elements (2), or all three,\n"
		"                        each line prefixed by its level\n"
		"  --hex                 FILE is text: hex bytes, blanks and '#' comments\n"
		"  --vector              FILE is a .tcv vector: use its [config], [trace] and\n"
		"                        [image] sections (--config options override)\n"
		"  --snapshot DIR        a trace snapshot directory (snapshot.ini, device .ini files\n"
		"                        with registers, trace.ini and its buffers, raw or CoreSight\n"
		"                        formatted): every source of a protocol of this build (by its\n"
		"                        device type) is decoded with its registers\n"
		"                        as configuration (--config overrides), one block each headed\n"
		"                        by a '#' line naming the source, buffer and trace ID; other\n"
		"                        sources are listed as not decoded. The whole directory is\n"
		"                        checked first: an error names the file and line, exit 2\n"
		"  -h, --help            this text\n");
}

static void usage_decode(FILE *f)
{
	fprintf(f,
		"usage: tracecert decode [--protocol P] --image FILE[@ADDR]... [--config NAME=VALUE]...\n"
		"                        [--level 3|all] [--hex] [--vector] TRACE\n"
		"       tracecert decode [--config NAME=VALUE]... [--level 3|all] --snapshot DIR\n"
		"\n"
		"Decodes TRACE with the reference decoder down to what executed (L3,\n"
		"reference/FORMAT.md): instruction ranges, exceptions, context changes,\n"
		"gaps, timestamps, cycle counts, events, transactions. TRACE '-' reads standard\n"
		"input, in fixed chunks. The exit status is 1 when the trace had errors, 2 for\n"
		"bad usage or input.\n"
		"\n"
		"Options:\n"
		"  --image FILE@ADDR     a raw binary mapped at address ADDR (0x... or decimal)\n"
		"  --image FILE          an ELF file (32- or 64-bit, little endian): its PT_LOAD\n"
		"                        segments; may be repeated; regions must not overlap\n"
		"  --protocol P          as for dump\n"
		"  --config NAME=VALUE   as for dump (tracecert dump --help), plus the instruction-level keys:\n");
	print_all_keys(f, 1);
	fprintf(f,
		"  --level 3|all         L3 only (the default), or L1, s1, L2 and L3 prefixed\n"
		"  --hex, --vector       as for dump\n"
		"  --snapshot DIR        as for dump; the memory dumps of each source's core\n"
		"                        ([core_trace_sources]) are its image, mapped, not copied\n"
		"  -h, --help            this text\n");
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

/* Sets NAME=VALUE in b; a message and -1 when it is bad. */
static int set_config(const char *cmd, struct tc_config_builder *b, const char *arg)
{
	char name[64], err[300];
	const char *eq = strchr(arg, '=');
	int rc;
	if (!eq || eq == arg || eq - arg >= (long)sizeof name) {
		fprintf(stderr, "tracecert %s: --config expects NAME=VALUE, got '%s'\n", cmd, arg);
		return -1;
	}
	snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	rc = tc_config_builder_set(b, name, eq + 1, err, sizeof err);
	if (rc == -1)
		fprintf(stderr, "tracecert %s: %s (see tracecert config --protocol %s)\n", cmd, err, b->proto->name);
	else if (rc)
		fprintf(stderr, "tracecert %s: %s\n", cmd, err);
	return rc ? -1 : 0;
}

/* The --config options over the protocol finally decoded. */
static int build_config(const struct dump_opts *o, struct tc_config_builder *b)
{
	tc_config_builder_init(b, o->proto);
	for (int i = 0; i < o->nconfig; i++)
		if (set_config(o->cmd, b, o->config_args[i]))
			return -1;
	return 0;
}

static int add_config(struct dump_opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		fprintf(stderr, "tracecert %s: --config expects NAME=VALUE, got '%s'\n", o->cmd, arg);
		return -1;
	}
	o->config_args[o->nconfig++] = arg;
	return 0;
}

static int takes_value(const struct dump_opts *o, const char *a)
{
	return !strcmp(a, "--protocol") || !strcmp(a, "--config") || !strcmp(a, "--level") ||
	       !strcmp(a, "--snapshot") || (o->decode && !strcmp(a, "--image"));
}

/* One option with its value (argv[*i + 1]); returns 0 or -1. */
static int parse_valued(struct dump_opts *o, char **argv, int *i)
{
	const char *a = argv[*i], *v = argv[++*i];
	if (!strcmp(a, "--image")) {
		o->image_args[o->nimage++] = v;
	} else if (!strcmp(a, "--snapshot")) {
		o->snapshot = v;
	} else if (!strcmp(a, "--protocol")) {
		char list[100];
		o->proto = tc_protocol_find(v);
		o->proto_given = 1;
		if (!o->proto) {
			protocol_list(list, sizeof list);
			fprintf(stderr, "tracecert %s: unknown protocol '%s' (this build has: %s)\n", o->cmd, v, list);
			return -1;
		}
	} else if (!strcmp(a, "--config")) {
		return add_config(o, v);
	} else if (parse_level(v, o)) {
		fprintf(stderr, "tracecert %s: --level expects %s, got '%s'\n", o->cmd,
			o->decode ? "3 or all" : "1, s1, 2 or all", v);
		return -1;
	}
	return 0;
}

static int check_combination(const struct dump_opts *o)
{
	if (o->snapshot && (o->file || o->hex || o->vector || o->nimage)) {
		fprintf(stderr, "tracecert %s: --snapshot DIR takes no FILE, --hex, --vector or --image\n", o->cmd);
		return -1;
	}
	if (o->snapshot && o->proto_given) {
		fprintf(stderr, "tracecert %s: --snapshot DIR takes each source's protocol from its device type, not --protocol\n",
			o->cmd);
		return -1;
	}
	if (!o->snapshot && !o->file) {
		fprintf(stderr, "tracecert %s: no FILE given (see tracecert %s --help)\n", o->cmd, o->cmd);
		return -1;
	}
	if (o->hex && o->vector) {
		fprintf(stderr, "tracecert %s: --hex and --vector do not go together\n", o->cmd);
		return -1;
	}
	return 0;
}

static int parse_dump_args(int argc, char **argv, struct dump_opts *o)
{
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			if (o->decode)
				usage_decode(stdout);
			else
				usage_dump(stdout);
			exit(0);
		} else if (!strcmp(a, "--hex")) {
			o->hex = 1;
		} else if (!strcmp(a, "--vector")) {
			o->vector = 1;
		} else if (takes_value(o, a)) {
			if (i + 1 >= argc) {
				fprintf(stderr, "tracecert %s: %s needs a value\n", o->cmd, a);
				return -1;
			}
			if (parse_valued(o, argv, &i))
				return -1;
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "tracecert %s: unknown option '%s' (see tracecert %s --help)\n", o->cmd, a, o->cmd);
			return -1;
		} else if (o->file) {
			fprintf(stderr, "tracecert %s: more than one FILE ('%s' and '%s')\n", o->cmd, o->file, a);
			return -1;
		} else {
			o->file = a;
		}
	}
	return check_combination(o);
}

/* Loads each --image FILE[@ADDR] (raw files are mapped, not copied). */
static int load_images(const struct dump_opts *o, struct tc_image *img)
{
	for (int i = 0; i < o->nimage; i++) {
		char err[1200];
		const char *arg = o->image_args[i], *at = strrchr(arg, '@');
		int rc;
		if (at) {
			char *end, *path;
			unsigned long long base = strtoull(at + 1, &end, 0);
			if (at[1] == '\0' || *end != '\0') {
				fprintf(stderr, "tracecert decode: --image %s: '%s' is not an address\n", arg, at + 1);
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
			fprintf(stderr, "tracecert decode: --image %s: %s\n", arg, err);
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

static int input_open(struct input *in, const char *path, const char *cmd, int hex)
{
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

static int feed_file(const struct tc_protocol *p, void *d, struct input *in)
{
	static uint8_t buf[CHUNK];
	long n;
	while ((n = input_read(in, buf)) > 0)
		p->feed(d, buf, (size_t)n);
	return n < 0 ? -1 : 0;
}

static void feed_memory(const struct tc_protocol *p, void *d, const uint8_t *b, size_t len)
{
	for (size_t i = 0; i < len; i += CHUNK)
		p->feed(d, b + i, len - i < CHUNK ? len - i : CHUNK);
}

static void print_notes(const struct tc_config_notes *notes)
{
	for (int i = 0; i < notes->n; i++)
		printf("# note: %s\n", notes->note[i]);
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
	if (build_config(o, &b))
		return 2;
	if (tc_config_builder_apply(&b, cfg, &notes, err, sizeof err)) {
		fprintf(stderr, "tracecert %s: %s\n", o->cmd, err);
		return 2;
	}
	print_notes(&notes);
	o->out.proto = p;
	tc_printer_sink(&o->out, &sink);
	d = p->alloc(cfg, &sink);
	if (!d) {
		fprintf(stderr, "tracecert %s: out of memory\n", o->cmd);
		return 2;
	}
	p->set_image(d, img);
	if (o->vector)
		feed_memory(p, d, v->trace, v->trace_len);
	else if (feed_file(p, d, in))
		rc = 2;
	p->finish(d);
	if (p->skipped(d))
		printf("# skipped %llu bytes outside A-sync\n", (unsigned long long)p->skipped(d));
	p->free(d);
	return rc ? rc : o->out.errors ? 1 : 0;
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
		if (!in || input_open(in, o->file, o->cmd, o->hex) || hex_precheck(in))
			goto out;
	}
	cfg = malloc(o->proto->config_size);
	if (!cfg)
		goto out;
	if (o->vector)
		memcpy(cfg, v.config, o->proto->config_size);
	else
		o->proto->config_default(cfg);
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

int tc_dump_main(int argc, char **argv, int decode)
{
	struct dump_opts o;
	int rc;
	memset(&o, 0, sizeof o);
	o.cmd = decode ? "decode" : "dump";
	o.decode = decode;
	o.out.level_mask = decode ? tc_level_l3 : tc_level_l1;
	o.proto = tc_protocol_find("ete");
	o.image_args = calloc((size_t)argc, sizeof *o.image_args);
	o.config_args = calloc((size_t)argc, sizeof *o.config_args);
	if (!o.image_args || !o.config_args) {
		free(o.image_args);
		free(o.config_args);
		return 2;
	}
	if (parse_dump_args(argc, argv, &o))
		rc = 2;
	else if (o.snapshot)
		rc = tc_snapshot_run(o.snapshot, o.cmd, o.config_args, o.nconfig, &o.out);
	else
		rc = run_file(&o);
	free(o.image_args);
	free(o.config_args);
	return rc;
}

/* ---- tracecert config ---------------------------------------------------------------- */

static void usage_config(FILE *f)
{
	char list[100];
	protocol_list(list, sizeof list);
	fprintf(f,
		"usage: tracecert config [--protocol %s] [--markdown]\n"
		"       tracecert config [--protocol %s] NAME=VALUE...\n"
		"\n"
		"Without assignments: the protocol's configuration keys (the one table the command\n"
		"line, the vector reader and vectors/README.md use; --markdown prints it as the\n"
		"README's tables) and the trace unit registers they are derived from. With\n"
		"assignments (keys and registers, as for dump --config): the configuration they give,\n"
		"each key with where its value came from, and notes on the register fields. The\n"
		"protocol is ete unless --protocol says otherwise.\n", list, list);
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
	tc_print_config_keys(stdout, p, 0);
	tc_print_config_keys(stdout, p, 1);
	printf("Registers (NAME=VALUE, 32 bits, decimal or 0x hex):\n");
	tc_print_config_registers(stdout, p);
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
	p->config_default(cfg);
	if (tc_config_builder_apply(b, cfg, &notes, err, sizeof err)) {
		fprintf(stderr, "tracecert config: %s\n", err);
		free(cfg);
		return 2;
	}
	for (int k = 0; k < p->nkeys; k++) {
		const char *from = (b->key_given >> k) & 1 ? "given" : (covered >> k) & 1 ? p->keys[k].source : "default";
		printf("%s=%llu  # %s\n", p->keys[k].name, (unsigned long long)p->config_get_key(cfg, k), from);
	}
	if (p->trace_id_reg >= 0 && ((b->reg_given >> p->trace_id_reg) & 1))
		printf("# %s: trace ID 0x%02x\n", p->regs[p->trace_id_reg].name, (unsigned)(b->reg[p->trace_id_reg] & 0x7f));
	print_notes(&notes);
	free(cfg);
	return 0;
}

int tc_config_main(int argc, char **argv)
{
	struct tc_config_builder b;
	const struct tc_protocol *p = tc_protocol_find("ete");
	int markdown = 0, first = 2;
	if (argc > 3 && !strcmp(argv[2], "--protocol")) {
		p = tc_protocol_find(argv[3]);
		if (!p) {
			fprintf(stderr, "tracecert config: unknown protocol '%s' (see tracecert config --help)\n", argv[3]);
			return 2;
		}
		first = 4;
	}
	tc_config_builder_init(&b, p);
	for (int i = first; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage_config(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--markdown")) {
			markdown = 1;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "tracecert config: unknown option '%s' (see tracecert config --help)\n", argv[i]);
			return 2;
		} else if (set_config("config", &b, argv[i])) {
			return 2;
		}
	}
	if (b.key_given || b.reg_given)
		return print_derived(&b);
	if (markdown)
		print_markdown(p);
	else
		print_table(p);
	return 0;
}
