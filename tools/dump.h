/* dump.h — `tracecert dump` and `tracecert decode`, and `tracecert config`. */
#ifndef TC_DUMP_H
#define TC_DUMP_H

#include <stdio.h>

#include "tracecert/ete.h"
#include "tracecert/ete_config.h"

/* argv[1] is "dump" (decode 0) or "decode" (decode 1); returns the exit status. */
int tc_dump_main(int argc, char **argv, int decode);

/* argv[1] is "config"; returns the exit status. */
int tc_config_main(int argc, char **argv);

/* The configuration keys of tc_ete_keys that a command takes, one line each
 * (stage: 0 = stages 1-2, 1 = stage 3), and the registers. */
void tc_print_config_keys(FILE *f, int stage);
void tc_print_config_registers(FILE *f);

/* Output of one decoder run: sinks that print the canonical text, and the
 * error count. level_mask: 1 = L1, 2 = s1, 4 = L2, 8 = L3. */
struct tc_printer {
	int level_mask;
	int prefix;               /* prefix each line with its level */
	unsigned long errors;
};

void tc_printer_sink(struct tc_printer *p, struct tc_ete_sink *sink);

#endif
