/* SPDX-License-Identifier: BSD-3-Clause */
/* genexec.h — `tracecert gen --from-exec`: a real execution as a vector (tools/genexec.c). */
#ifndef TC_GENEXEC_H
#define TC_GENEXEC_H

#include "tracecert/encoder.h"
#include "tracecert/protocol.h"

struct tc_gen_exec {
	const struct tc_encoder *enc;      /* its from_exec is not NULL */
	const struct tc_protocol *proto;
	const char *log;                   /* --from-exec */
	const char *elf;                   /* --elf */
	const char *start;                 /* --exec-start: the window starts at the first line of this symbol */
	const char *note;                  /* --note: a line for the vector's description */
	const char *name;                  /* --name: the vector's file name (default: the ELF's) */
	const char *out;                   /* --out DIR, or NULL: the vector to standard output */
	unsigned steps;                    /* the window: instructions */
};

/* Writes the vector; 0, or -1 after a message on standard error. */
int tc_gen_exec(const struct tc_gen_exec *a);

#endif
