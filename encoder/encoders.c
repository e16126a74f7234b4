/* SPDX-License-Identifier: BSD-3-Clause */
/* encoders.c — what every protocol's encoder shares at its entry: freeing a generated vector, finding its synchronisation points (tracecert/encoder.h). */
#include <stdlib.h>
#include <string.h>

#include "tracecert/encoder.h"

void tc_enc_result_free(struct tc_enc_result *r)
{
	if (!r)
		return;
	free(r->cfg);
	for (int i = 0; i < r->nregions; i++)
		free(r->region[i].bytes);
	free(r->trace);
	free(r->l1);
	free(r->l3);
	free(r->tags);
	free(r->variants);
	free(r->error);
	free(r->note);
	memset(r, 0, sizeof *r);
}

size_t tc_enc_sync_points_zeros(const uint8_t *trace, size_t len, size_t min_zeros, size_t *at, size_t max)
{
	size_t zeros = 0, n = 0, last = 0;
	if (max > 0)
		at[0] = 0;
	n = 1;
	for (size_t i = 0; i < len; i++) {
		if (trace[i] == 0) {
			zeros++;
			continue;
		}
		if (trace[i] == 0x80 && zeros >= min_zeros && i - zeros > last) {
			last = i - zeros;
			if (n < max)
				at[n] = last;
			n++;
		}
		zeros = 0;
	}
	return n;
}
