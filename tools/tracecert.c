/* tracecert.c — the command-line program: dispatches to dump, decode, config, certify, gen and bench. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "certify.h"
#include "dump.h"
#include "gen.h"

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
		"  decode    instruction-level decode (L3) with a program image\n"
		"  config    the configuration keys and registers; the configuration registers give\n"
		"  certify   score a decoder adapter against the vectors (TAP, certificate)\n"
		"  gen       generate vectors with the random encoder; encoding coverage\n"
		"  bench     throughput and memory figures, reference vs OpenCSD\n"
		"\n"
		"Options:\n"
		"  -h, --help     this text; 'tracecert COMMAND --help' for a command\n"
		"  --version      print the version\n");
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
		return tc_dump_main(argc, argv, 0);
	if (!strcmp(argv[1], "decode"))
		return tc_dump_main(argc, argv, 1);
	if (!strcmp(argv[1], "config"))
		return tc_config_main(argc, argv);
	if (!strcmp(argv[1], "certify"))
		return tc_certify_main(argc, argv);
	if (!strcmp(argv[1], "gen"))
		return tc_gen_main(argc, argv);
	if (!strcmp(argv[1], "bench"))
		return tc_bench_main(argc, argv);
	fprintf(stderr, "tracecert: unknown command '%s' (see tracecert --help)\n", argv[1]);
	return 2;
}
