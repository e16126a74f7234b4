# SPDX-License-Identifier: BSD-3-Clause
# fuzz/etmv2/fuzz.mk — ETMv2's own settings of the fuzz build (included by fuzz/fuzz.mk).

# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL), twice the protocol's share of
# each engine (FUZZ_SMOKE_PROTO); the decoder on records (parse) and through the descriptor with
# L3 (decode) get the most; the encoder's round trip (the shared fuzz/roundtrip.c) as ETMv1's.
FUZZ_SMOKE_TIMES += etmv2_parse:5:20 etmv2_decode:5:20 etmv2_diff:5:15 etmv2_stream:5:15 \
                    etmv2_l1text:5:10 etmv2_roundtrip:5:10

# P_asm (the shared fuzz/asm.c): the assembler on text, 5 s under each engine.
FUZZ_SMOKE_TIMES += etmv2_asm:5:5
