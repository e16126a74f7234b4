# SPDX-License-Identifier: BSD-3-Clause
# fuzz/ete/fuzz.mk — ETE's own settings of the fuzz build (included by fuzz/fuzz.mk).

# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL); ete_stream, whose checks
# ete_parse makes for ETE and more, gets a short run of its own.
FUZZ_SMOKE_TIMES += ete_parse:30:15 ete_decode:30:15 ete_diff:15:10 ete_format:10:5 ete_roundtrip:15:10 \
                    ete_stream:10:5 ete_l1text:10:5

# The ETE stages 1-2 (packet parser, stream driver, resolution) get no comparison and no
# indirect-call hooks: their comparisons are on header bytes (256 values, all in the
# dictionary), small payload fields and decoder state, and their indirect calls are the same
# few sink callbacks for every input. These hooks were half of a libFuzzer parse run (perf);
# without them the parse harness runs 2.1-2.9x faster (no sanitizers; 1.3-1.7x with
# ASan+UBSan; 4 paired runs of a plain timing driver over the instrumented objects and 2,657
# corpus inputs) and reaches the same coverage in the same number of runs (fresh,
# -runs=600000, seeds 1-3: cov 558/564/556 against 558/564/565 with them). The instruction
# decoder, the ELF reader and stage 3 (addresses against the image) keep them: there they
# solve opcode masks and magic values.
$(FUZZ_LF)/obj/reference/ete/ete_parse.o $(FUZZ_LF)/obj/reference/ete/ete_decoder.o $(FUZZ_LF)/obj/reference/ete/ete_resolve.o: \
	FUZZ_LF_COV := -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp,indirect-calls

# P_asm (the shared fuzz/asm.c): the assembler on text, 5 s under each engine.
FUZZ_SMOKE_TIMES += ete_asm:5:5
