# SPDX-License-Identifier: BSD-3-Clause
# fuzz/rvtrace/fuzz.mk — RISC-V processor trace 0.026's own settings of the fuzz build (included by fuzz/fuzz.mk).

# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL), twice the protocol's share of
# each engine (FUZZ_SMOKE_PROTO); the frame parser and the stream's framing get the most.
FUZZ_SMOKE_TIMES += rvtrace_parse:5:20 rvtrace_decode:5:20 rvtrace_diff:5:15 rvtrace_stream:5:15 \
                    rvtrace_l1text:5:10 rvtrace_roundtrip:5:10

# P_asm (the shared fuzz/asm.c): the assembler on text, 5 s under each engine.
FUZZ_SMOKE_TIMES += rvtrace_asm:5:5
