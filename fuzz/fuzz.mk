# fuzz/fuzz.mk — fuzzing targets (fuzz/README.md). Included at the end of GNUmakefile:
#
#     include fuzz/fuzz.mk
#
# make fuzz HARNESS=ete_parse TIME=60   libFuzzer (clang, ASan+UBSan), dictionary and seed corpus; prints execs/s, coverage;
#                                       JOBS=2 runs two processes on the shared corpus (one per core), execs/s summed;
#                                       FUZZ_LF_SAN= builds without sanitizers (in $(FUZZ_OUT)/libfuzzer-nosan)
# make fuzz-afl HARNESS=ete_parse TIME=60 AFL++ (afl-clang-fast, libFuzzer harness through libAFLDriver); prints execs/s;
#                                       JOBS=2 runs a main and a secondary instance (one per core), execs/s summed
# make fuzz-smoke                       every harness briefly under both (about 4.5 minutes on 2 cores) + fuzz-regress;
#                                       a finding fails it and leaves the reproducer in $(FUZZ_OUT)/findings/
# make fuzz-regress                     replays fuzz/corpus/<harness>/* and vectors/<p>/regress/*.bin (gcc, ASan+UBSan), TAP
# make fuzz-seeds                       the seed corpora $(FUZZ_OUT)/<harness>_seed_corpus/ from vectors/<p>/ (adapter: vectors/)
# make fuzz-harnesses                   the list of harnesses
#
# Harnesses: adapter csframe snapini (no protocol), and per protocol P (FUZZ_PROTO_HARNESSES) the harnesses of
# fuzz/P/ (ete_parse ete_decode ete_format ete_roundtrip; ptm_parse ptm_decode ptm_roundtrip) and the shared
# P_stream, P_diff and P_l1text. Variables: HARNESS, TIME (seconds), FUZZ_OUT (default
# $(BUILD)/fuzz), FUZZ_CLANG, FUZZ_AFL_CC, FUZZ_REGRESS_CC, FUZZ_AFL_SAN (e.g. -fsanitize=address,undefined; that
# build goes to $(FUZZ_OUT)/afl-san), FUZZ_LF_SAN, FUZZ_ARGS (extra libFuzzer arguments), JOBS (processes or
# instances), TC_DIFF_ADAPTER, TC_FUZZ_ADAPTER.

BUILD           ?= build
FUZZ_OUT        ?= $(BUILD)/fuzz
# Harnesses that name no protocol: fuzz/NAME.c (corpus fuzz/corpus/NAME/, dictionary fuzz/NAME.dict if any).
FUZZ_HARNESSES  := adapter csframe snapini
# A protocol's harnesses, one line per protocol folder: P_NAME is fuzz/P/NAME.c (corpus fuzz/corpus/P_NAME/,
# dictionary fuzz/P/NAME.dict if any), except P_stream, P_diff and P_l1text: the shared fuzz/stream.c (whole
# against chunked through the protocol's descriptor), fuzz/diff.c (the reference against an adapter) and
# fuzz/l1text.c (the L1 text parser against its formatter) built for P, which need nothing more
# (dictionary fuzz/P/parse.dict; P_l1text none).
FUZZ_PROTO_HARNESSES := ete_parse ete_decode ete_diff ete_format ete_roundtrip ete_l1text
FUZZ_PROTO_HARNESSES += ptm_stream ptm_parse ptm_decode ptm_roundtrip ptm_diff ptm_l1text
FUZZ_ALL        := $(FUZZ_HARNESSES) $(FUZZ_PROTO_HARNESSES)
# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL) of the harnesses that have their own;
# each protocol's other harnesses share FUZZ_SMOKE_PROTO seconds under each engine (fuzz/run.sh).
FUZZ_SMOKE_TIMES := adapter:15:10 csframe:10:5 snapini:10:5 \
                    ete_parse:30:15 ete_decode:30:15 ete_diff:15:10 ete_format:10:5 ete_roundtrip:15:10 ete_l1text:10:5
FUZZ_SMOKE_PROTO := 60
HARNESS         ?= ete_parse
TIME            ?= 60
FUZZ_CLANG      ?= clang
FUZZ_AFL_CC     ?= afl-clang-fast
FUZZ_REGRESS_CC ?= gcc
FUZZ_AFL_SAN    ?=
FUZZ_LF_SAN     ?= -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_ARGS       ?=

# Every protocol's reference decoder and the protocol list GNUmakefile generates (PROTOCOLS).
FUZZ_REF_SRC  := $(REF_SRC) $(BUILD)/gen/protocols.c
# Helpers every harness links: fuzz/fuzz_common.c, and a protocol's own fuzz/P/fuzz_P.c.
FUZZ_COMMON_SRC := fuzz/fuzz_common.c $(sort $(wildcard fuzz/*/fuzz_*.c))
# The round-trip harness also links the encoder (its sources and the variant list GNUmakefile
# generates) and the line lists and L3 normalisation of conformance/.
FUZZ_ENC_SRC  := $(sort $(wildcard encoder/*.c encoder/ete/*.c)) $(BUILD)/gen/enc_ete_variants.c
FUZZ_RT_SRC   := $(FUZZ_ENC_SRC) conformance/vector.c conformance/vecwrite.c conformance/outfile.c conformance/l3norm.c
FUZZ_ENC_HDRS := $(wildcard encoder/*.h encoder/*/*.h encoder/include/tracecert/*.h)
# The PTM encoder (ptm_roundtrip); the PTM L1 model (ptm_parse).
FUZZ_PTM_ENC_SRC := $(sort $(wildcard encoder/ptm/*.c)) $(BUILD)/gen/enc_ptm_variants.c
FUZZ_PTM_MODEL   := fuzz/ptm/l1model.c
FUZZ_GEN      := $(FUZZ_OUT)/gen
# P_diff: the vector writer (its candidate files) and every protocol's differential rules
# (fuzz/P/diffrules.c, optional) in the table $(FUZZ_GEN)/diffrules.c.
FUZZ_DIFF_RULES := $(sort $(wildcard fuzz/*/diffrules.c))
FUZZ_DIFF_SRC := fuzz/difflines.c conformance/vector.c conformance/vecwrite.c conformance/outfile.c $(FUZZ_DIFF_RULES) $(FUZZ_GEN)/diffrules.c
FUZZ_DIFFS    := $(filter %_diff,$(FUZZ_PROTO_HARNESSES))
FUZZ_CPPFLAGS := -Ireference/include -Ireference -Iconformance/include -Iconformance -Iencoder/include -Iencoder -Ifuzz -I$(FUZZ_GEN)
FUZZ_CFLAGS_W := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
FUZZ_HEADERS  := $(wildcard reference/*.h reference/*/*.h reference/include/tracecert/*.h conformance/*.h conformance/include/tracecert/*.h fuzz/*.h fuzz/*/*.h)
FUZZ_PROTO_SRC := fuzz/stream.c fuzz/diff.c fuzz/l1text.c $(wildcard fuzz/*/*.c)
# The protocol of harness P_NAME, and its source.
fuzz_proto = $(firstword $(subst _, ,$1))
fuzz_src   = $(if $(filter %_stream %_diff %_l1text,$1),fuzz/$(lastword $(subst _, ,$1)).c,fuzz/$(subst _,/,$1).c)
# What a protocol harness's object is compiled with: the protocol's name (fuzz/stream.c and fuzz/diff.c read it).
fuzz_proto_def = -DTC_FUZZ_PROTOCOL='"$(call fuzz_proto,$1)"'
# An instrumented adapter .so (TC_FUZZ_ADAPTER) resolves the coverage runtime from the harness
# executable: export those symbols only (-rdynamic would also export the harness's copy of the
# reference, an ODR violation next to the adapter's own copy).
FUZZ_EXPORT   := -Wl,--export-dynamic-symbol=__sanitizer_cov_* -Wl,--export-dynamic-symbol=__sancov_* -Wl,--export-dynamic-symbol=__afl_* \
                 -Wl,--export-dynamic-symbol=__cmplog_*
FUZZ_RUN       = FUZZ_OUT=$(FUZZ_OUT) FUZZ_LF_DIR=$(FUZZ_LF) FUZZ_AFL_DIR=$(FUZZ_AFL) MAKE="$(MAKE)" FUZZ_HARNESSES="$(FUZZ_ALL)" \
                 FUZZ_SMOKE_TIMES="$(FUZZ_SMOKE_TIMES)" FUZZ_SMOKE_PROTO="$(FUZZ_SMOKE_PROTO)" sh fuzz/run.sh

# The table of differential rules (fuzz/diff.h): every protocol folder with a diffrules.c.
$(FUZZ_GEN)/diffrules.c: fuzz/fuzz.mk $(FUZZ_DIFF_RULES)
	@mkdir -p $(dir $@)
	{ echo '/* generated from the fuzz/P/diffrules.c files by fuzz/fuzz.mk: do not edit */'; \
	  echo '#include <stddef.h>'; echo '#include "diff.h"'; \
	  for p in $(patsubst fuzz/%/diffrules.c,%,$(FUZZ_DIFF_RULES)); do echo "extern const struct tc_diff_rules tc_diff_rules_$$p;"; done; \
	  echo 'const struct tc_diff_rules *const tc_diff_rules_table[] = {'; \
	  for p in $(patsubst fuzz/%/diffrules.c,%,$(FUZZ_DIFF_RULES)); do echo "	&tc_diff_rules_$$p,"; done; \
	  echo '	NULL'; echo '};'; } > $@

# ---- libFuzzer build (clang) ------------------------------------------------------------
# Without sanitizers (FUZZ_LF_SAN= on the command line: throughput runs) the build has a folder of
# its own, so that objects built with and without them never mix.
FUZZ_LF       := $(FUZZ_OUT)/libfuzzer$(if $(strip $(FUZZ_LF_SAN)),,-nosan)
FUZZ_LF_FLAGS := $(if $(strip $(FUZZ_LF_SAN)),-O1,-O2) -g -fno-omit-frame-pointer -fPIC $(FUZZ_LF_SAN)
FUZZ_LF_OBJ   := $(FUZZ_REF_SRC:%.c=$(FUZZ_LF)/obj/%.o) $(FUZZ_COMMON_SRC:%.c=$(FUZZ_LF)/obj/%.o)

FUZZ_LF_COV   := -fsanitize=fuzzer-no-link
# The harness helpers (hashing, input layout) give no useful coverage feedback: not instrumented.
$(FUZZ_COMMON_SRC:%.c=$(FUZZ_LF)/obj/%.o) $(FUZZ_LF)/obj/conformance/vector.o $(FUZZ_LF)/obj/conformance/l3norm.o \
$(FUZZ_LF)/obj/conformance/vecwrite.o $(FUZZ_LF)/obj/conformance/outfile.o $(FUZZ_LF)/obj/fuzz/difflines.o $(FUZZ_DIFF_RULES:%.c=$(FUZZ_LF)/obj/%.o): FUZZ_LF_COV :=
# The harnesses' own checks are edges worth seeing but not comparisons worth solving: no
# comparison hooks there (they were a fifth of the parse harness's hook calls).
$(FUZZ_HARNESSES:%=$(FUZZ_LF)/obj/fuzz/%.o) $(FUZZ_PROTO_HARNESSES:%=$(FUZZ_LF)/obj/fuzz/harness/%.o) \
$(FUZZ_PTM_MODEL:%.c=$(FUZZ_LF)/obj/%.o): FUZZ_LF_COV := -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
# Likewise the ETE stages 1-2 (packet parser, stream driver, resolution): their comparisons are
# on header bytes (256 values, all in the dictionary), small payload fields and decoder state,
# and their indirect calls are the same few sink callbacks for every input. These hooks were
# half of a libFuzzer parse run (perf); without them the parse harness runs 2.1-2.9x faster
# (no sanitizers; 1.3-1.7x with ASan+UBSan; 4 paired runs of a plain timing driver over the
# instrumented objects and 2,657 corpus inputs) and reaches the
# same coverage in the same number of runs (fresh, -runs=600000, seeds 1-3: cov 558/564/556
# against 558/564/565 with them). The instruction decoder, the ELF reader and stage 3
# (addresses against the image) keep them: there they solve opcode masks and magic values.
$(FUZZ_LF)/obj/reference/ete/ete_parse.o $(FUZZ_LF)/obj/reference/ete/ete_decoder.o $(FUZZ_LF)/obj/reference/ete/ete_resolve.o: \
	FUZZ_LF_COV := -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp,indirect-calls

$(FUZZ_LF)/obj/%.o: %.c $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_LF_FLAGS) $(FUZZ_LF_COV) -c $< -o $@

$(addprefix $(FUZZ_LF)/,$(FUZZ_HARNESSES)): $(FUZZ_LF)/%: $(FUZZ_LF)/obj/fuzz/%.o $(FUZZ_LF_OBJ)
	$(FUZZ_CLANG) $(FUZZ_LF_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl

# Protocol harnesses: the object is named after the harness (fuzz/stream.c and fuzz/diff.c are built
# once per protocol).
$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_LF)/obj/fuzz/harness/%.o): $(FUZZ_LF)/obj/fuzz/harness/%.o: $(FUZZ_PROTO_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_LF_FLAGS) $(FUZZ_LF_COV) $(call fuzz_proto_def,$*) -c $(call fuzz_src,$*) -o $@

$(addprefix $(FUZZ_LF)/,$(FUZZ_PROTO_HARNESSES)): $(FUZZ_LF)/%: $(FUZZ_LF)/obj/fuzz/harness/%.o $(FUZZ_LF_OBJ)
	$(FUZZ_CLANG) $(FUZZ_LF_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl
$(FUZZ_LF)/ptm_parse: $(FUZZ_PTM_MODEL:%.c=$(FUZZ_LF)/obj/%.o)
$(FUZZ_LF)/ptm_roundtrip: $(FUZZ_ENC_SRC:%.c=$(FUZZ_LF)/obj/%.o) $(FUZZ_PTM_ENC_SRC:%.c=$(FUZZ_LF)/obj/%.o)
$(FUZZ_DIFFS:%=$(FUZZ_LF)/%): $(FUZZ_DIFF_SRC:%.c=$(FUZZ_LF)/obj/%.o)
# ete_roundtrip: the encoder is instrumented too (its branches are the structure the input steers).
$(FUZZ_LF)/ete_roundtrip: $(FUZZ_RT_SRC:%.c=$(FUZZ_LF)/obj/%.o)
$(FUZZ_ENC_SRC:%.c=$(FUZZ_LF)/obj/%.o) $(FUZZ_PTM_ENC_SRC:%.c=$(FUZZ_LF)/obj/%.o) \
$(FUZZ_LF)/obj/fuzz/harness/ptm_roundtrip.o $(FUZZ_LF)/obj/fuzz/harness/ete_roundtrip.o: $(FUZZ_ENC_HDRS)

# The reference as an adapter built for fuzzing (instrumented), the default TC_FUZZ_ADAPTER of make fuzz.
$(FUZZ_LF)/libtc_reference.so: $(FUZZ_LF)/obj/conformance/adapters/reference.o $(FUZZ_REF_SRC:%.c=$(FUZZ_LF)/obj/%.o)
	$(FUZZ_CLANG) $(FUZZ_LF_FLAGS) -shared -o $@ $^

# ---- AFL++ build (afl-clang-fast) ----------------------------------------------------------
FUZZ_AFL       := $(FUZZ_OUT)/afl$(if $(strip $(FUZZ_AFL_SAN)),-san)
FUZZ_AFL_FLAGS := -O2 -g -fPIC $(FUZZ_AFL_SAN)
FUZZ_AFL_OBJ   := $(FUZZ_REF_SRC:%.c=$(FUZZ_AFL)/obj/%.o) $(FUZZ_COMMON_SRC:%.c=$(FUZZ_AFL)/obj/%.o)

$(FUZZ_AFL)/obj/%.o: %.c $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_AFL_FLAGS) -c $< -o $@

$(addprefix $(FUZZ_AFL)/,$(FUZZ_HARNESSES)): $(FUZZ_AFL)/%: $(FUZZ_AFL)/obj/fuzz/%.o $(FUZZ_AFL_OBJ)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_AFL_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl

$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_AFL)/obj/fuzz/harness/%.o): $(FUZZ_AFL)/obj/fuzz/harness/%.o: $(FUZZ_PROTO_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_AFL_FLAGS) $(call fuzz_proto_def,$*) -c $(call fuzz_src,$*) -o $@

$(addprefix $(FUZZ_AFL)/,$(FUZZ_PROTO_HARNESSES)): $(FUZZ_AFL)/%: $(FUZZ_AFL)/obj/fuzz/harness/%.o $(FUZZ_AFL_OBJ)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_AFL_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl
$(FUZZ_AFL)/ptm_parse: $(FUZZ_PTM_MODEL:%.c=$(FUZZ_AFL)/obj/%.o)
$(FUZZ_AFL)/ptm_roundtrip: $(FUZZ_ENC_SRC:%.c=$(FUZZ_AFL)/obj/%.o) $(FUZZ_PTM_ENC_SRC:%.c=$(FUZZ_AFL)/obj/%.o)
$(FUZZ_DIFFS:%=$(FUZZ_AFL)/%): $(FUZZ_DIFF_SRC:%.c=$(FUZZ_AFL)/obj/%.o)
$(FUZZ_AFL)/ete_roundtrip: $(FUZZ_RT_SRC:%.c=$(FUZZ_AFL)/obj/%.o)
$(FUZZ_ENC_SRC:%.c=$(FUZZ_AFL)/obj/%.o) $(FUZZ_PTM_ENC_SRC:%.c=$(FUZZ_AFL)/obj/%.o) \
$(FUZZ_AFL)/obj/fuzz/harness/ptm_roundtrip.o $(FUZZ_AFL)/obj/fuzz/harness/ete_roundtrip.o: $(FUZZ_ENC_HDRS)

$(FUZZ_AFL)/libtc_reference.so: $(FUZZ_AFL)/obj/conformance/adapters/reference.o $(FUZZ_REF_SRC:%.c=$(FUZZ_AFL)/obj/%.o)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_AFL_FLAGS) -shared -o $@ $^

# ---- Plain-main regression driver (gcc, ASan+UBSan) ---------------------------------------------
FUZZ_RG       := $(FUZZ_OUT)/regress-obj
FUZZ_RG_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_REGRESS  := $(FUZZ_OUT)/regress

# Each harness's entry points are renamed so that all of them link into one program.
$(FUZZ_HARNESSES:%=$(FUZZ_RG)/fuzz/%.o): $(FUZZ_RG)/fuzz/%.o: fuzz/%.c $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_RG_FLAGS) \
	  -DLLVMFuzzerTestOneInput=tc_fuzz_one_$* -DLLVMFuzzerInitialize=tc_fuzz_init_$* -c $< -o $@

$(FUZZ_RG)/%.o: %.c $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_RG_FLAGS) -c $< -o $@

$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_RG)/fuzz/harness/%.o): $(FUZZ_RG)/fuzz/harness/%.o: $(FUZZ_PROTO_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_RG_FLAGS) $(call fuzz_proto_def,$*) \
	  -DLLVMFuzzerTestOneInput=tc_fuzz_one_$* -DLLVMFuzzerInitialize=tc_fuzz_init_$* -c $(call fuzz_src,$*) -o $@

# The driver's table of harnesses (regress_main.c), from FUZZ_ALL.
$(FUZZ_GEN)/harnesses.h: fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	{ echo '/* generated from FUZZ_HARNESSES and FUZZ_PROTO_HARNESSES of fuzz/fuzz.mk: do not edit */'; \
	  echo '#define TC_FUZZ_HARNESS_LIST(X) $(foreach h,$(FUZZ_ALL),X($h))'; } > $@
$(FUZZ_RG)/fuzz/regress_main.o: $(FUZZ_GEN)/harnesses.h

# Every harness and what each links, each object once.
FUZZ_RG_LINKED := $(sort $(FUZZ_COMMON_SRC) $(FUZZ_PTM_MODEL) $(FUZZ_REF_SRC) $(FUZZ_RT_SRC) $(FUZZ_PTM_ENC_SRC) $(FUZZ_DIFF_SRC))
$(FUZZ_REGRESS): $(FUZZ_HARNESSES:%=$(FUZZ_RG)/fuzz/%.o) $(FUZZ_RG)/fuzz/regress_main.o \
		 $(FUZZ_PROTO_HARNESSES:%=$(FUZZ_RG)/fuzz/harness/%.o) $(FUZZ_RG_LINKED:%.c=$(FUZZ_RG)/%.o)
	$(FUZZ_REGRESS_CC) $(FUZZ_RG_FLAGS) -o $@ $^ -ldl
$(FUZZ_ENC_SRC:%.c=$(FUZZ_RG)/%.o) $(FUZZ_PTM_ENC_SRC:%.c=$(FUZZ_RG)/%.o) $(FUZZ_RG)/fuzz/harness/ete_roundtrip.o \
$(FUZZ_RG)/fuzz/harness/ptm_roundtrip.o: $(FUZZ_ENC_HDRS)

# The adapters the regression driver loads (P_diff: OpenCSD when installed; adapter: the reference).
FUZZ_REGRESS_SOS := $(BUILD)/adapters/libtc_reference.so $(if $(filter yes,$(OPENCSD_OK)),$(BUILD)/adapters/libtc_opencsd.so)

# ---- Seed corpora (OSS-Fuzz layout: $(FUZZ_OUT)/<harness>_seed_corpus/) -------------------------------
# fuzz/seedgen.c writes the seeds of the harnesses that name no protocol and of every protocol
# harness in the layouts of fuzz.h; a protocol whose harnesses have layouts of their own has its
# own writer, fuzz/P/seedgen.c ($(FUZZ_OUT)/P/seedgen). Both share fuzz/seeds.c.
FUZZ_SEED_SRC := fuzz/seeds.c $(FUZZ_COMMON_SRC) conformance/vector.c $(FUZZ_REF_SRC)
FUZZ_SEEDGEN  := $(FUZZ_OUT)/seedgen
FUZZ_PROTO_SEEDGENS := $(patsubst fuzz/%/seedgen.c,$(FUZZ_OUT)/%/seedgen,$(wildcard fuzz/*/seedgen.c))
$(FUZZ_SEEDGEN): fuzz/seedgen.c $(FUZZ_SEED_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) -O1 -g -o $@ fuzz/seedgen.c $(FUZZ_SEED_SRC)
$(FUZZ_PROTO_SEEDGENS): $(FUZZ_OUT)/%/seedgen: fuzz/%/seedgen.c $(FUZZ_SEED_SRC) $(FUZZ_HEADERS)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) -O1 -g -o $@ $< $(FUZZ_SEED_SRC)
# The writer of harness P_NAME's seeds (P_l1text: the shared one, whose seeds are L1 lines).
fuzz_seedgen = $(if $(and $(wildcard fuzz/$(call fuzz_proto,$1)/seedgen.c),$(filter-out %_l1text,$1)),$(FUZZ_OUT)/$(call fuzz_proto,$1)/seedgen,$(FUZZ_SEEDGEN))

# adapter: every vector of every protocol; csframe: synthetic frames; snapini: the .ini files of
# the hand-written snapshot in tests/data.
$(FUZZ_OUT)/adapter_seed_corpus/.stamp: $(FUZZ_SEEDGEN) $(shell find vectors -name '*.tcv' 2>/dev/null)
	rm -rf $(dir $@)
	$(FUZZ_SEEDGEN) adapter $(dir $@) vectors
	@touch $@

$(FUZZ_OUT)/csframe_seed_corpus/.stamp: $(FUZZ_SEEDGEN)
	rm -rf $(dir $@)
	$(FUZZ_SEEDGEN) csframe $(dir $@)
	@touch $@

$(FUZZ_OUT)/snapini_seed_corpus/.stamp: $(FUZZ_SEEDGEN) $(wildcard tests/data/snap-mixed/*.ini)
	rm -rf $(dir $@)
	$(FUZZ_SEEDGEN) snapini $(dir $@) tests/data/snap-mixed
	@touch $@

# A protocol's harnesses: seeds from vectors/P (P_roundtrip: vectors/P/gen/seeds.txt when there is one,
# and synthetic ones).
$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_OUT)/%_seed_corpus/.stamp): $(FUZZ_OUT)/%_seed_corpus/.stamp: $(FUZZ_SEEDGEN) \
		$(FUZZ_PROTO_SEEDGENS) \
		$(shell find $(addprefix vectors/,$(sort $(foreach h,$(FUZZ_PROTO_HARNESSES),$(call fuzz_proto,$h)))) -name '*.tcv' -o -name seeds.txt 2>/dev/null)
	rm -rf $(dir $@)
	$(call fuzz_seedgen,$*) $* $(dir $@) vectors/$(call fuzz_proto,$*)
	@touch $@

FUZZ_SEEDS := $(foreach h,$(FUZZ_ALL),$(FUZZ_OUT)/$(h)_seed_corpus/.stamp)

# ---- Targets -------------------------------------------------------------------------------------------
.PHONY: fuzz fuzz-afl fuzz-smoke fuzz-regress fuzz-seeds fuzz-build-libfuzzer fuzz-build-afl fuzz-help fuzz-harnesses

fuzz-seeds: $(FUZZ_SEEDS)

fuzz-build-libfuzzer: $(addprefix $(FUZZ_LF)/,$(FUZZ_ALL)) $(FUZZ_LF)/libtc_reference.so $(FUZZ_SEEDS)
fuzz-build-afl: $(addprefix $(FUZZ_AFL)/,$(FUZZ_ALL)) $(FUZZ_AFL)/libtc_reference.so $(FUZZ_SEEDS)

fuzz-harnesses:
	@echo $(FUZZ_ALL)

fuzz:
	@$(FUZZ_RUN) check-args '$(HARNESS)' '$(TIME)' '$(JOBS)'
	@$(FUZZ_RUN) need libfuzzer
	@$(MAKE) --no-print-directory $(FUZZ_LF)/$(HARNESS) $(FUZZ_OUT)/$(HARNESS)_seed_corpus/.stamp \
	  $(if $(filter adapter,$(HARNESS)),$(FUZZ_LF)/libtc_reference.so) \
	  $(if $(and $(filter %_diff,$(HARNESS)),$(filter yes,$(OPENCSD_OK))),$(BUILD)/adapters/libtc_opencsd.so)
	@FUZZ_LF_JOBS='$(JOBS)' $(FUZZ_RUN) libfuzzer $(HARNESS) $(TIME) $(FUZZ_ARGS)

fuzz-afl:
	@$(FUZZ_RUN) check-args '$(HARNESS)' '$(TIME)' '$(JOBS)'
	@$(FUZZ_RUN) need afl
	@$(MAKE) --no-print-directory $(FUZZ_AFL)/$(HARNESS) $(FUZZ_OUT)/$(HARNESS)_seed_corpus/.stamp \
	  $(if $(filter adapter,$(HARNESS)),$(FUZZ_AFL)/libtc_reference.so) \
	  $(if $(and $(filter %_diff,$(HARNESS)),$(filter yes,$(OPENCSD_OK))),$(BUILD)/adapters/libtc_opencsd.so)
	@$(FUZZ_RUN) afl $(HARNESS) $(TIME) $(JOBS)

fuzz-regress: $(FUZZ_REGRESS) $(FUZZ_REGRESS_SOS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  TC_BUILD=$(BUILD) TC_FUZZ_REGRESS=$(FUZZ_REGRESS) sh fuzz/regress.t

fuzz-smoke:
	@$(FUZZ_RUN) smoke $(if $(filter yes,$(OPENCSD_OK)),$(BUILD)/adapters/libtc_opencsd.so)

fuzz-help:
	@sed -n '2,21p' fuzz/fuzz.mk | sed 's/^# \{0,1\}//'

# The reference adapter's protocol table and version: tracecert/build.h (GNUmakefile generates it).
FUZZ_REF_ADAPTER_OBJS := $(FUZZ_LF)/obj/conformance/adapters/reference.o $(FUZZ_AFL)/obj/conformance/adapters/reference.o
$(FUZZ_REF_ADAPTER_OBJS): $(BUILD_H)
$(FUZZ_REF_ADAPTER_OBJS): FUZZ_CPPFLAGS += -I$(BUILD)/gen/include
