/* SPDX-License-Identifier: BSD-3-Clause */
/* l1model.h — an independent model of the PTM L1 stream (packet boundaries, kinds, fields, errors, warnings, skipped bytes) for fuzz/ptm/parse.c. */
#ifndef TC_FUZZ_PTM_L1MODEL_H
#define TC_FUZZ_PTM_L1MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/ptm.h"

/* What the L1 lines of a whole trace must be, written from
 * reference/ptm/FORMAT.md and reference/ptm/ERRATA.md alone (PTM-P3 …
 * P10, P18, S4, R1), not from the decoder: the records of every packet,
 * error and warning in order, and the bytes skipped. Packets use the public
 * record (tracecert/ptm.h); fields a kind does not show stay 0. */
struct ptm_model {
	struct tc_ptm_packet *item;
	size_t n;
	size_t cap;
	uint64_t skipped;
};

/* Runs the model over trace[0..len-1]. The rules it follows beyond the
 * packet layouts (the harness's property comment lists them). */
void ptm_model_run(const struct tc_ptm_config *cfg, const uint8_t *trace, size_t len, struct ptm_model *m);

/* Whether two records of the same kind agree on every field that kind
 * shows (reference/ptm/FORMAT.md "L1"). */
int ptm_model_same(const struct tc_ptm_packet *a, const struct tc_ptm_packet *b);

void ptm_model_free(struct ptm_model *m);

#endif
