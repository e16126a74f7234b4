# SPDX-License-Identifier: BSD-3-Clause
# fuzz/etmv1/fuzz.mk — ETMv1's own settings of the fuzz build (included by fuzz/fuzz.mk).

# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL), twice the protocol's share of
# each engine (FUZZ_SMOKE_PROTO); the decoder on records (parse) and through the descriptor with the
# image walk and L3 (decode) get the most; the encoder's round trip (the shared fuzz/roundtrip.c) as
# rvtrace's.
FUZZ_SMOKE_TIMES += etmv1_parse:5:20 etmv1_decode:5:20 etmv1_diff:5:15 etmv1_stream:5:15 \
                    etmv1_l1text:5:10 etmv1_roundtrip:5:10

# P_asm (the shared fuzz/asm.c): the assembler on text, 5 s under each engine.
FUZZ_SMOKE_TIMES += etmv1_asm:5:5
