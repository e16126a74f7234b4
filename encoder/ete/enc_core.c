/* SPDX-License-Identifier: BSD-3-Clause */
/* enc_core.c — the ETE encoder's variant counters (the names of encoder/ete/variants.txt). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "enc_internal.h"

extern const char *const enc_ete_variant_names[];
extern const int enc_ete_variant_total;

int tc_enc_variant_count(void)
{
	return enc_ete_variant_total;
}

const char *tc_enc_variant_name(int i)
{
	return (i >= 0 && i < enc_ete_variant_total) ? enc_ete_variant_names[i] : NULL;
}

/* Counts one use of a variant; a name missing from variants.txt is a bug
 * of the encoder, reported at once. */
void enc_hit(struct enc *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	enc_variant_hit(enc_ete_variant_names, enc_ete_variant_total, e->variants, "encoder/ete/variants.txt", fmt, ap);
	va_end(ap);
}
