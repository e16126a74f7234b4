/* dump.h — `tracecert dump` and `tracecert decode`, and the printer of decoded items they and --snapshot share. */
#ifndef TC_DUMP_H
#define TC_DUMP_H

#include "tracecert/protocol.h"

/* argv[1] is "dump" or "decode"; returns the exit status. */
int tc_dump_main(int argc, char **argv);
int tc_decode_main(int argc, char **argv);

/* Output of one decoder run: a sink that prints the canonical text of the
 * protocol, the error count, and the L3 no-image items (the first one's
 * address and byte offset). level_mask: enum tc_level bits. */
struct tc_printer {
	const struct tc_protocol *proto;
	int level_mask;
	int prefix;               /* prefix each line with its level */
	unsigned long errors;
	unsigned long no_image;   /* L3 no-image items printed */
	uint64_t no_image_addr;   /* the first one's address */
	uint64_t no_image_offset; /* and the byte offset of its packet */
};

void tc_printer_sink(struct tc_printer *p, struct tc_sink *sink);

#endif
