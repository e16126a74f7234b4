/* SPDX-License-Identifier: BSD-3-Clause */
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

/* --max-bytes: the most bytes read of one trace input (FILE, or each buffer
 * of a snapshot). Given, it bounds every input (0: none). Not given, a
 * regular file has no bound (its size is known and it ends), and an input
 * whose end is not known (a pipe, standard input, a character device such
 * as /dev/zero) stops at TC_STREAM_MAX_BYTES, so an endless producer ends
 * with an error naming the limit instead of running for ever. */
#define TC_STREAM_MAX_BYTES (1ull << 30)
struct tc_max_bytes {
	unsigned long long n;     /* 0: no limit */
	int given;
};

/* The bound of one input (0: none); regular: it is a regular file. */
unsigned long long tc_max_bytes_for(const struct tc_max_bytes *m, int regular);

/* "PATH: more than LIMIT bytes, the limit (...)", with the file's size
 * when known (size > 0), into buf; and as "tracecert CMD: …" on standard
 * error. */
void tc_max_bytes_message(char *buf, size_t n, const char *path, unsigned long long limit, unsigned long long size);
void tc_max_bytes_report(const char *cmd, const char *path, unsigned long long limit, unsigned long long size);

#endif
