/* SPDX-License-Identifier: BSD-3-Clause */
/* l1model.h — an independent model of the ETMv3 L1 stream (packet boundaries, kinds, fields, errors, warnings, skipped bytes) for fuzz/etmv3/parse.c. */
#ifndef TC_FUZZ_ETMV3_L1MODEL_H
#define TC_FUZZ_ETMV3_L1MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "tracecert/etmv3.h"

/* What the L1 lines of a whole trace must be, written from IHI 0014
 * chapter 7, reference/etmv3/FORMAT.md and reference/etmv3/ERRATA.md
 * (ETM3-R1, S3, S9, S10, P2 … P10, P22, P24, P26, X1 … X3), not from the
 * decoder: the records of every packet, error and warning in order, and the
 * bytes skipped. Packets use the public record (tracecert/etmv3.h); fields a
 * kind does not show stay 0. */
struct etmv3_model {
	struct tc_etmv3_packet *item;
	size_t n;
	size_t cap;
	uint64_t skipped;
};

/* Runs the model over trace[0..len-1] (the framing rules: l1model.c). */
void etmv3_model_run(const struct tc_etmv3_config *cfg, const uint8_t *trace, size_t len, struct etmv3_model *m);

/* Whether two records of the same kind agree on every field that kind
 * shows (reference/etmv3/FORMAT.md "L1"), and for an LSiP I-sync on the
 * data instruction's state too (ERRATA ETM3-P18). */
int etmv3_model_same(const struct tc_etmv3_packet *a, const struct tc_etmv3_packet *b);

void etmv3_model_free(struct etmv3_model *m);

#endif
