/* SPDX-License-Identifier: BSD-3-Clause */
/* tracecert.c — the command-line program: the table of commands (tools/cli.c dispatches, prints the list and the version). */
#include <string.h>

#include "asm.h"
#include "bench.h"
#include "certify.h"
#include "certify_cmd.h"
#include "cli.h"
#include "config_cmd.h"
#include "dump.h"
#include "gen.h"
#include "outfile.h"

int main(int argc, char **argv)
{
	static const struct tc_cli_command commands[] = {
		{ "dump", "decode a trace: packets (L1), stage-1 (s1) or resolved (L2) items", tc_dump_main },
		{ "decode", "instruction-level decode (L3) with a program image", tc_decode_main },
		{ "config", "a protocol's configuration keys; what registers and keys give", tc_config_main },
		{ "certify", "score a decoder adapter against the vectors (TAP, certificate)", tc_certify_main },
		{ "asm", "assemble L1 packet text (as dump prints it) into trace bytes", tc_asm_main },
		{ "gen", "generate vectors with the random encoder; encoding coverage", tc_gen_main },
		{ "bench", "throughput and memory figures, reference vs OpenCSD", tc_bench_main },
		{ NULL, NULL, NULL }
	};
	if (argc == 2 && !strcmp(argv[1], TC_CHILD_WORD))
		return tc_certify_child_main();   /* certify's process that loads an adapter (certify.h) */
	tc_out_ignore_file_size_signal();   /* a write beyond RLIMIT_FSIZE fails with EFBIG, reported */
	return tc_cli_dispatch(commands, argc, argv);
}
