# fuzz/etmv3/fuzz.mk — ETMv3's own settings of the fuzz build (included by fuzz/fuzz.mk).

# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL), 60 s of each engine in all, the
# protocol's share (FUZZ_SMOKE_PROTO): the parser against its model and the L3 checks get more of it.
FUZZ_SMOKE_TIMES += etmv3_parse:12:10 etmv3_decode:12:10 etmv3_roundtrip:10:10 etmv3_diff:10:10 \
                    etmv3_stream:8:10 etmv3_l1text:8:10

# The L1 model (l1model.c, etmv3_parse's independent reading of the stream) is instrumented as the
# harnesses are: its edges are worth seeing, its comparisons not worth solving.
$(FUZZ_LF)/obj/fuzz/etmv3/l1model.o: FUZZ_LF_COV := $(FUZZ_LF_HARNESS_COV)
