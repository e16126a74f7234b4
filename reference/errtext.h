/* SPDX-License-Identifier: BSD-3-Clause */
/* errtext.h — the one writer of the reference's error messages into a caller's buffer
 * (internal: configuration tables, snapshot reader). */
#ifndef TRACECERT_ERRTEXT_H
#define TRACECERT_ERRTEXT_H

#include <stddef.h>

/* Formats the message into err (at most errlen bytes, always terminated) when err is not NULL
 * and errlen is not 0; returns rc, so that a caller can write `return tc_errtext(...)`. */
int tc_errtext(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
