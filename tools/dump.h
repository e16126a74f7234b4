/* dump.h — `tracecert dump` and `tracecert decode`, and `tracecert config`. */
#ifndef TC_DUMP_H
#define TC_DUMP_H

#include <stdio.h>

#include "tracecert/protocol.h"

/* argv[1] is "dump" (decode 0) or "decode" (decode 1); returns the exit status. */
int tc_dump_main(int argc, char **argv, int decode);

/* argv[1] is "config"; returns the exit status. */
int tc_config_main(int argc, char **argv);

/* A protocol's configuration keys that a command takes, one line each
 * (stage: 0 = packets and resolution, 1 = instruction level), and its
 * registers. */
void tc_print_config_keys(FILE *f, const struct tc_protocol *p, int stage);
void tc_print_config_registers(FILE *f, const struct tc_protocol *p);

/* Output of one decoder run: a sink that prints the canonical text of the
 * protocol, and the error count. level_mask: enum tc_level bits. */
struct tc_printer {
	const struct tc_protocol *proto;
	int level_mask;
	int prefix;               /* prefix each line with its level */
	unsigned long errors;
};

void tc_printer_sink(struct tc_printer *p, struct tc_sink *sink);

#endif
