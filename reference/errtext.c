/* SPDX-License-Identifier: BSD-3-Clause */
/* errtext.c — error messages into a caller's buffer (errtext.h). */
#include <stdarg.h>
#include <stdio.h>

#include "errtext.h"

int tc_errtext(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;
	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}
