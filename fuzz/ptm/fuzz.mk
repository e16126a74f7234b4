# SPDX-License-Identifier: BSD-3-Clause
# fuzz/ptm/fuzz.mk — PTM's own settings of the fuzz build (included by fuzz/fuzz.mk).

# The L1 model (l1model.c, ptm_parse's independent reading of the stream) is instrumented as the
# harnesses are: its edges are worth seeing, its comparisons not worth solving.
$(FUZZ_LF)/obj/fuzz/ptm/l1model.o: FUZZ_LF_COV := $(FUZZ_LF_HARNESS_COV)
