# SPDX-License-Identifier: BSD-3-Clause
# fuzz/etmv3/fuzz.mk — ETMv3's own settings of the fuzz build (included by fuzz/fuzz.mk).

# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL), 120 s in all, twice the
# protocol's share of each engine (FUZZ_SMOKE_PROTO): libFuzzer's side of the smoke is the longer, so
# libFuzzer (ASan+UBSan) runs each harness 5 s, the seeds and a little more, and AFL++ (faster per
# input) takes the rest; the parser against its model and the L3 checks get the most.
FUZZ_SMOKE_TIMES += etmv3_parse:5:20 etmv3_decode:5:20 etmv3_roundtrip:5:15 etmv3_diff:5:15 \
                    etmv3_stream:5:10 etmv3_l1text:5:10

# The L1 model (l1model.c, etmv3_parse's independent reading of the stream) is instrumented as the
# harnesses are: its edges are worth seeing, its comparisons not worth solving.
$(FUZZ_LF)/obj/fuzz/etmv3/l1model.o: FUZZ_LF_COV := $(FUZZ_LF_HARNESS_COV)

# P_asm (the shared fuzz/asm.c): the assembler on text, 5 s under each engine.
FUZZ_SMOKE_TIMES += etmv3_asm:5:5
