/* tracecert.c — the command-line program: dump (and, later, decode, gen, certify, bench). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracecert/ete.h"
#include "tracecert/image.h"
#include "bench.h"
#include "certify.h"
#include "gen.h"
#include "vector.h"

#define TRACECERT_VERSION "0.1.0"

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: tracecert COMMAND [OPTIONS]\n"
		"\n"
		"Conformance suite and reference decoder for processor trace protocols.\n"
		"\n"
		"Commands:\n"
		"  dump      decode a trace with the reference decoder and print packets (L1),\n"
		"            stage-1 elements (s1) or resolved elements (L2)\n"
		"  certify   score a decoder adapter against the vectors (TAP, certificate)\n"
		"  decode    instruction-level decode (L3) with a program image\n"
		"  gen       generate vectors with the random encoder; encoding coverage\n"
		"  bench     throughput and memory figures, reference vs OpenCSD\n"
		"\n"
		"Options:\n"
		"  -h, --help     this text; 'tracecert COMMAND --help' for a command\n"
		"  --version      print the version\n");
}

static void usage_dump(FILE *f)
{
	fprintf(f,
		"usage: tracecert dump [--protocol ete] [--config KEY=VALUE]... [--level 1|s1|2|all]\n"
		"                      [--hex] [--vector] FILE\n"
		"\n"
		"Decodes FILE with the reference decoder and prints the canonical text of\n"
		"reference/FORMAT.md, one item per line, each with the byte offset of its\n"
		"packet. FILE '-' reads standard input. Bytes before the first A-sync are\n"
		"skipped (a '#' comment says how many). Errors are printed in-band as\n"
		"'error class=NAME' items; the exit status is 1 when any error was found.\n"
		"\n"
		"Options:\n"
		"  --protocol ete        the trace protocol (only ete so far; the default)\n"
		"  --config KEY=VALUE    decoder configuration; may be repeated. Keys (default):\n"
		"      maxspec=N         TRCIDR8.MAXSPEC, maximum speculation depth, 0..65535 (0)\n"
		"      commopt=0|1       TRCIDR0.COMMOPT, commit mode (0)\n"
		"      commtrans=0|1     TRCIDR0.COMMTRANS; 0 = Transaction Start is a P0 element (0)\n"
		"      tsmark=0|1        header 0x88 is a Timestamp Marker, ETE 1.1+ (0)\n"
		"      ite=0|1           header 0x09 is an Instrumentation packet, FEAT_ITE (0)\n"
		"      rme=0|1           context payload bit 3 is NSE, FEAT_RME (0)\n"
		"      tf_keep_cc=0|1    keep a failed transaction's cycle counts (0)\n"
		"      queue_cap=N       stage-2 queue capacity (4*(maxspec+1)+1024)\n"
		"      tx_cap=N          transaction queue capacity (65536)\n"
		"  --level 1|s1|2|all    what to print: packets (1, the default), stage-1\n"
		"                        elements (s1), resolved elements (2), or all three,\n"
		"                        each line prefixed by its level\n"
		"  --hex                 FILE is text: hex bytes, blanks and '#' comments\n"
		"  --vector              FILE is a .tcv vector: use its [config], [trace] and\n"
		"                        [image] sections (--config options override)\n"
		"  -h, --help            this text\n");
}

static void usage_decode(FILE *f)
{
	fprintf(f,
		"usage: tracecert decode [--protocol ete] --image FILE[@ADDR]... [--config KEY=VALUE]...\n"
		"                        [--level 3|all] [--hex] [--vector] TRACE\n"
		"\n"
		"Decodes TRACE with the reference decoder down to what executed (L3,\n"
		"reference/FORMAT.md): instruction ranges, exceptions, context changes,\n"
		"gaps, timestamps, cycle counts, events, transactions. The exit status is 1\n"
		"when the trace had errors, 2 for bad usage.\n"
		"\n"
		"Options:\n"
		"  --image FILE@ADDR     a raw binary loaded at address ADDR (0x… or decimal)\n"
		"  --image FILE          an ELF file (32- or 64-bit, little endian): its PT_LOAD\n"
		"                        segments; may be repeated; regions must not overlap\n"
		"  --config KEY=VALUE    as for dump (tracecert dump --help), plus:\n"
		"      wfxmode=0|1       TRCIDR2.WFXMODE: WFI/WFE are P0 instructions (0)\n"
		"      retstack=0|1      the trace unit uses its return stack (0)\n"
		"      walk_limit=N      most instructions one element may walk (1048576)\n"
		"  --level 3|all         L3 only (the default), or L1, s1, L2 and L3 prefixed\n"
		"  --hex, --vector       as for dump\n"
		"  -h, --help            this text\n");
}

struct dump_opts {
	struct tc_ete_config cfg;
	int decode;             /* the decode command */
	int level_mask;         /* 1 = L1, 2 = s1, 4 = L2, 8 = L3 */
	struct tc_image image;
	char *image_args[TC_IMAGE_MAX_REGIONS];
	int nimage;
	int prefix;
	int hex;
	int vector;
	const char *file;
	int errors;
	char *config_args[64];
	int nconfig;
};

static void out_packet(void *ctx, const struct tc_ete_packet *p)
{
	struct dump_opts *o = ctx;
	char buf[512];
	if (p->kind == tc_ete_pkt_error)
		o->errors++;
	if (!(o->level_mask & 1)) {
		if (p->kind == tc_ete_pkt_warning) {   /* L1 only: shown as a comment at other levels */
			tc_ete_format_packet(buf, sizeof buf, p);
			printf("# %s\n", buf);
		}
		return;
	}
	tc_ete_format_packet(buf, sizeof buf, p);
	printf("%s%s\n", o->prefix ? "L1 " : "", buf);
}

static void out_s1(void *ctx, const struct tc_ete_elem *e)
{
	struct dump_opts *o = ctx;
	char buf[512];
	if (!(o->level_mask & 2))
		return;
	tc_ete_format_elem(buf, sizeof buf, e);
	printf("%s%s\n", o->prefix ? "s1 " : "", buf);
}

static void out_l3(void *ctx, const struct tc_ete_l3 *x)
{
	struct dump_opts *o = ctx;
	char buf[512];
	tc_ete_format_l3(buf, sizeof buf, x);
	printf("%s%s\n", o->prefix ? "L3 " : "", buf);
}

static void out_l2(void *ctx, const struct tc_ete_elem *e)
{
	struct dump_opts *o = ctx;
	char buf[512];
	if (!(o->level_mask & 4))
		return;
	tc_ete_format_elem(buf, sizeof buf, e);
	printf("%s%s\n", o->prefix ? "L2 " : "", buf);
}

/* Converts hex text with '#' comments into bytes, in place. Returns the new
 * length, or -1 with the offending character's position in *bad. */
static long hex_to_bytes(uint8_t *buf, size_t len, size_t *bad)
{
	size_t o = 0;
	int hi = -1, comment = 0;
	for (size_t i = 0; i < len; i++) {
		int c = buf[i], v;
		if (c == '\n')
			comment = 0;
		if (comment || c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '#') {
			comment = 1;
			continue;
		}
		v = (c >= '0' && c <= '9') ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
		if (v < 0) {
			*bad = i;
			return -1;
		}
		if (hi < 0) {
			hi = v;
		} else {
			buf[o++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	if (hi >= 0) {
		*bad = len;
		return -1;
	}
	return (long)o;
}

static int parse_level(const char *s, struct dump_opts *o)
{
	if (o->decode) {
		if (!strcmp(s, "3") || !strcmp(s, "l3") || !strcmp(s, "L3"))
			o->level_mask = 8;
		else if (!strcmp(s, "all"))
			o->level_mask = 15, o->prefix = 1;
		else
			return -1;
		return 0;
	}
	if (!strcmp(s, "1") || !strcmp(s, "l1") || !strcmp(s, "L1"))
		o->level_mask = 1;
	else if (!strcmp(s, "s1"))
		o->level_mask = 2;
	else if (!strcmp(s, "2") || !strcmp(s, "l2") || !strcmp(s, "L2"))
		o->level_mask = 4;
	else if (!strcmp(s, "all"))
		o->level_mask = 7, o->prefix = 1;
	else
		return -1;
	return 0;
}

static int apply_config(struct tc_ete_config *cfg, char *arg)
{
	char *eq = strchr(arg, '=');
	int rc;
	if (!eq) {
		fprintf(stderr, "tracecert: --config expects KEY=VALUE, got '%s'\n", arg);
		return -1;
	}
	*eq = '\0';
	rc = tc_ete_config_set(cfg, arg, eq + 1);
	if (rc == -1)
		fprintf(stderr, "tracecert: unknown config key '%s' (see tracecert dump --help)\n", arg);
	else if (rc < 0)
		fprintf(stderr, "tracecert: bad value '%s' for config key '%s'\n", eq + 1, arg);
	*eq = '=';
	return rc < 0 ? -1 : 0;
}

static int parse_dump_args(int argc, char **argv, struct dump_opts *o)
{
	const char *cmd = o->decode ? "decode" : "dump";
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
		} else if ((!strcmp(a, "--protocol") || !strcmp(a, "--config") || !strcmp(a, "--level") ||
			    (o->decode && !strcmp(a, "--image"))) && i + 1 >= argc) {
			fprintf(stderr, "tracecert %s: %s needs a value\n", cmd, a);
			return -1;
		} else if (o->decode && !strcmp(a, "--image")) {
			if (o->nimage == TC_IMAGE_MAX_REGIONS) {
				fprintf(stderr, "tracecert decode: too many --image options\n");
				return -1;
			}
			o->image_args[o->nimage++] = argv[++i];
		} else if (!strcmp(a, "--protocol")) {
			if (strcmp(argv[++i], "ete")) {
				fprintf(stderr, "tracecert %s: unsupported protocol '%s' (supported: ete)\n", cmd, argv[i]);
				return -1;
			}
		} else if (!strcmp(a, "--config")) {
			if (o->nconfig == 64) {
				fprintf(stderr, "tracecert %s: too many --config options\n", cmd);
				return -1;
			}
			o->config_args[o->nconfig++] = argv[++i];
		} else if (!strcmp(a, "--level")) {
			if (parse_level(argv[++i], o)) {
				fprintf(stderr, "tracecert %s: --level expects %s, got '%s'\n", cmd,
					o->decode ? "3 or all" : "1, s1, 2 or all", argv[i]);
				return -1;
			}
		} else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "tracecert %s: unknown option '%s' (see tracecert %s --help)\n", cmd, a, cmd);
			return -1;
		} else if (o->file) {
			fprintf(stderr, "tracecert %s: more than one FILE ('%s' and '%s')\n", cmd, o->file, a);
			return -1;
		} else {
			o->file = a;
		}
	}
	if (!o->file) {
		fprintf(stderr, "tracecert %s: no FILE given (see tracecert %s --help)\n", cmd, cmd);
		return -1;
	}
	return 0;
}

/* Loads each --image FILE[@ADDR] into o->image. */
static int load_images(struct dump_opts *o)
{
	for (int i = 0; i < o->nimage; i++) {
		char path[4096], err[600];
		char *arg = o->image_args[i], *at = strrchr(arg, '@');
		int rc;
		if (at) {
			char *end;
			unsigned long long base = strtoull(at + 1, &end, 0);
			if (at[1] == '\0' || *end != '\0') {
				fprintf(stderr, "tracecert decode: --image %s: '%s' is not an address\n", arg, at + 1);
				return -1;
			}
			snprintf(path, sizeof path, "%.*s", (int)(at - arg), arg);
			rc = tc_image_load_raw(&o->image, path, base, err, sizeof err);
		} else {
			rc = tc_image_load_elf(&o->image, arg, err, sizeof err);
		}
		if (rc) {
			fprintf(stderr, "tracecert decode: --image %s: %s\n", arg, err);
			return -1;
		}
	}
	return 0;
}

/* Loads the trace named by the options: raw bytes, hex text, or a vector. */
static uint8_t *load_trace(struct dump_opts *o, size_t *len)
{
	uint8_t *buf;
	if (o->vector) {
		struct tc_vector v;
		char err[512];
		if (tc_vector_load(o->file, &v, err, sizeof err)) {
			fprintf(stderr, "tracecert dump: %s: %s\n", o->file, err);
			return NULL;
		}
		o->cfg = v.ete;
		buf = v.trace;
		*len = v.trace_len;
		v.trace = NULL;
		if (v.has_image && o->image.n == 0) {
			o->image = v.image;             /* the vector's image moves to the options */
			memset(&v.image, 0, sizeof v.image);
		}
		tc_vector_free(&v);
		return buf;
	}
	buf = tc_image_read_file(o->file, len);
	if (!buf) {
		fprintf(stderr, "tracecert dump: cannot read '%s': %s\n", o->file, strerror(errno));
		return NULL;
	}
	if (o->hex) {
		size_t bad = 0;
		long n = hex_to_bytes(buf, *len, &bad);
		if (n < 0) {
			fprintf(stderr, "tracecert dump: %s: byte %zu: expected a hex digit, blank or '#' comment%s\n",
				o->file, bad, bad == *len ? " (odd number of hex digits)" : "");
			free(buf);
			return NULL;
		}
		*len = (size_t)n;
	}
	return buf;
}

static int cmd_dump(int argc, char **argv, int decode)
{
	static struct dump_opts o;
	struct tc_ete_sink sink;
	struct tc_ete_decoder *d;
	uint8_t *trace;
	size_t len = 0;
	memset(&o, 0, sizeof o);
	tc_ete_config_default(&o.cfg);
	o.decode = decode;
	o.level_mask = decode ? 8 : 1;
	if (parse_dump_args(argc, argv, &o))
		return 2;
	if (load_images(&o)) {
		tc_image_free(&o.image);
		return 2;
	}
	trace = load_trace(&o, &len);
	if (!trace) {
		tc_image_free(&o.image);
		return 2;
	}
	for (int i = 0; i < o.nconfig; i++) {
		if (apply_config(&o.cfg, o.config_args[i])) {
			free(trace);
			return 2;
		}
	}
	sink.ctx = &o;
	sink.packet = out_packet;
	sink.s1 = out_s1;
	sink.l2 = out_l2;
	sink.l3 = (o.level_mask & 8) ? out_l3 : NULL;
	d = tc_ete_alloc(&o.cfg, &sink);
	if (!d) {
		fprintf(stderr, "tracecert: invalid configuration (queue_cap must exceed maxspec)\n");
		free(trace);
		tc_image_free(&o.image);
		return 2;
	}
	tc_ete_set_image(d, &o.image);
	tc_ete_feed(d, trace, len);
	tc_ete_finish(d);
	if (tc_ete_skipped(d))
		printf("# skipped %llu bytes outside A-sync\n", (unsigned long long)tc_ete_skipped(d));
	tc_ete_free(d);
	free(trace);
	tc_image_free(&o.image);
	return o.errors ? 1 : 0;
}

static int not_yet(const char *cmd, int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("tracecert %s: not yet available in this version (%s).\n", cmd, TRACECERT_VERSION);
			return 0;
		}
	}
	printf("tracecert %s: not yet available in this version (%s); nothing was run.\n", cmd,
	       TRACECERT_VERSION);
	return strcmp(cmd, "certify") ? 2 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tracecert %s\n", TRACECERT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "dump"))
		return cmd_dump(argc, argv, 0);
	if (!strcmp(argv[1], "decode"))
		return cmd_dump(argc, argv, 1);
	if (!strcmp(argv[1], "certify"))
		return tc_certify_main(argc, argv);
	if (!strcmp(argv[1], "gen"))
		return tc_gen_main(argc, argv);
	if (!strcmp(argv[1], "bench"))
		return tc_bench_main(argc, argv);
	if (
	    !strcmp(argv[1], "bench"))
		return not_yet(argv[1], argc, argv);
	fprintf(stderr, "tracecert: unknown command '%s' (see tracecert --help)\n", argv[1]);
	return 2;
}
