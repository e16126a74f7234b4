# SPDX-License-Identifier: BSD-3-Clause
# fuzz/fuzz.mk — fuzzing targets (fuzz/README.md). Included at the end of GNUmakefile:
#
#     include fuzz/fuzz.mk
#
# make fuzz HARNESS=P_parse TIME=60     libFuzzer (clang, ASan+UBSan), dictionary and seed corpus; prints execs/s, coverage;
#                                       JOBS=2 runs two processes on the shared corpus (one per core), execs/s summed;
#                                       FUZZ_LF_SAN= builds without sanitizers (in $(FUZZ_OUT)/libfuzzer-nosan)
# make fuzz-afl HARNESS=P_parse TIME=60 AFL++ (afl-clang-fast, libFuzzer harness through libAFLDriver); prints execs/s;
#                                       JOBS=2 runs a main and a secondary instance (one per core), execs/s summed
# make fuzz-smoke                       every harness briefly under both (about 7 minutes on 2 cores, builds included) + fuzz-regress;
#                                       a finding fails it and leaves the reproducer in $(FUZZ_OUT)/findings/
# make fuzz-regress                     replays fuzz/corpus/<harness>/* and vectors/<p>/regress/*.bin (gcc, ASan+UBSan), TAP
# make fuzz-seeds                       the seed corpora $(FUZZ_OUT)/<harness>_seed_corpus/ from vectors/<p>/ (adapter: vectors/)
# make fuzz-harnesses                   the list of harnesses
# make fuzz-list / oss-fuzz-build / oss-fuzz-check   each harness's source and flags / OSS-Fuzz targets in OUT / their check (fuzz/oss-fuzz.mk)
#
# Harnesses: adapter csframe snapini (no protocol), and per protocol P of PROTOCOLS (FUZZ_PROTO_HARNESSES) the
# harnesses of fuzz/P/ (P_parse, P_decode …) and the shared P_stream, P_diff, P_l1text and, for a protocol
# with an encoder, P_roundtrip (make fuzz-harnesses lists them). Variables: HARNESS (default: the first protocol's P_parse), TIME (seconds), FUZZ_OUT (default
# $(BUILD)/fuzz), FUZZ_CLANG, FUZZ_AFL_CC, FUZZ_REGRESS_CC, FUZZ_AFL_SAN (e.g. -fsanitize=address,undefined; that
# build goes to $(FUZZ_OUT)/afl-san), FUZZ_LF_SAN, FUZZ_ARGS (extra libFuzzer arguments), JOBS (processes or
# instances), TC_DIFF_ADAPTER, TC_FUZZ_ADAPTER.

BUILD           ?= build
FUZZ_OUT        ?= $(BUILD)/fuzz
# Harnesses that name no protocol: fuzz/NAME.c (corpus fuzz/corpus/NAME/, dictionary fuzz/NAME.dict if any).
FUZZ_HARNESSES  := adapter csframe snapini
# A protocol's harnesses, for every protocol P of PROTOCOLS: P_NAME for every fuzz/P/NAME.c that defines
# LLVMFuzzerTestOneInput (corpus fuzz/corpus/P_NAME/, dictionary fuzz/P/NAME.dict if any), then P_stream,
# P_diff and P_l1text: the shared fuzz/stream.c (whole against chunked through the protocol's descriptor),
# fuzz/diff.c (the reference against an adapter) and fuzz/l1text.c (the L1 text parser against its
# formatter) built for P, which need nothing more (dictionary fuzz/P/parse.dict; P_l1text none).
# A protocol with an encoder (ENC_PROTOCOLS, GNUmakefile) has P_roundtrip too: the shared fuzz/roundtrip.c
# (the encoder's truth against the reference, through both descriptors) built for P, unless fuzz/P/roundtrip.c
# is a round-trip harness of its own (FUZZ_RT_SHARED: the protocols that take the shared one).
# The other files of fuzz/P/ are the protocol's helpers (linked into every harness), its seed writer
# seedgen.c and its differential rules diffrules.c.
FUZZ_PROTO_FILES := $(sort $(wildcard $(PROTOCOLS:%=fuzz/%/*.c)))
FUZZ_PROTO_HARNESS_SRC := $(if $(FUZZ_PROTO_FILES),$(shell grep -l LLVMFuzzerTestOneInput $(FUZZ_PROTO_FILES)))
FUZZ_RT_SHARED := $(foreach p,$(ENC_PROTOCOLS),$(if $(wildcard fuzz/$(p)/roundtrip.c),,$(p)_roundtrip))
FUZZ_PROTO_HARNESSES := $(foreach p,$(PROTOCOLS),$(sort $(patsubst fuzz/$(p)/%.c,$(p)_%,$(filter fuzz/$(p)/%,$(FUZZ_PROTO_HARNESS_SRC))) \
			  $(filter $(p)_roundtrip,$(FUZZ_RT_SHARED))) $(p)_stream $(p)_diff $(p)_l1text $(p)_asm)
FUZZ_PROTO_HELPERS := $(filter-out $(FUZZ_PROTO_HARNESS_SRC) %/seedgen.c %/diffrules.c,$(FUZZ_PROTO_FILES))
FUZZ_ALL        := $(FUZZ_HARNESSES) $(FUZZ_PROTO_HARNESSES)
# The protocol of harness P_NAME, and its source (fuzz/NAME.c for the shared ones).
fuzz_proto = $(firstword $(subst _, ,$1))
fuzz_src   = $(if $(filter %_stream %_diff %_l1text %_asm $(FUZZ_RT_SHARED),$1),fuzz/$(lastword $(subst _, ,$1)).c,fuzz/$(subst _,/,$1).c)
# make fuzz-smoke: seconds under libFuzzer and AFL++ (HARNESS:LF:AFL) of the harnesses that have their own
# (a protocol's fuzz/P/fuzz.mk adds its own); each protocol's other harnesses share FUZZ_SMOKE_PROTO seconds
# under each engine (fuzz/run.sh).
FUZZ_SMOKE_TIMES := adapter:15:10 csframe:10:5 snapini:10:5
FUZZ_SMOKE_PROTO := 60
HARNESS         ?= $(firstword $(PROTOCOLS))_parse
TIME            ?= 60
FUZZ_CLANG      ?= clang
FUZZ_AFL_CC     ?= afl-clang-fast
FUZZ_REGRESS_CC ?= gcc
FUZZ_AFL_SAN    ?=
FUZZ_LF_SAN     ?= -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_ARGS       ?=

# Every protocol's reference decoder and the protocol list GNUmakefile generates (PROTOCOLS).
FUZZ_REF_SRC  := $(REF_SRC) $(BUILD)/gen/protocols.c
# The shared bodies of protocol harnesses: a protocol's fuzz/P/NAME.c gives its values and calls one
# (fuzz/cyclecap_decode.c: P_decode of a per-cycle sample file protocol).
FUZZ_BODY_SRC   := fuzz/cyclecap_decode.c
# Helpers every harness links: fuzz/fuzz_common.c, the shared harness bodies and every protocol's helpers.
FUZZ_COMMON_SRC := fuzz/fuzz_common.c $(FUZZ_BODY_SRC) $(FUZZ_PROTO_HELPERS)
# P_roundtrip also links the encoders (the encoder's shared sources, every protocol's encoder/P/ and the
# variant lists GNUmakefile generates: an encoder may use another's parts through its header, as the
# library libtcenc.a holds them all; the harness runs P's alone) and the line lists and L3
# normalisation of conformance/.
fuzz_rt_src   = $(sort $(wildcard encoder/*.c) $(ENC_PROTO_SRC)) $(ENC_VARIANTS) \
		conformance/vector.c conformance/vecwrite.c conformance/outfile.c conformance/l3norm.c
FUZZ_RT_SRC   := $(sort $(foreach h,$(filter %_roundtrip %_asm,$(FUZZ_PROTO_HARNESSES)),$(call fuzz_rt_src,$(call fuzz_proto,$h))))
FUZZ_GEN      := $(FUZZ_OUT)/gen
# P_diff: the vector writer (its candidate files) and every protocol's differential rules
# (fuzz/P/diffrules.c, optional) in the table $(FUZZ_GEN)/diffrules.c.
FUZZ_DIFF_RULES := $(sort $(wildcard fuzz/*/diffrules.c))
FUZZ_DIFF_SRC := fuzz/difflines.c conformance/vector.c conformance/vecwrite.c conformance/outfile.c $(FUZZ_DIFF_RULES) $(FUZZ_GEN)/diffrules.c
FUZZ_DIFFS    := $(filter %_diff,$(FUZZ_PROTO_HARNESSES))
FUZZ_CPPFLAGS := -Ireference/include -Ireference -Iconformance/include -Iconformance -Iencoder/include -Iencoder -Ifuzz -I$(FUZZ_GEN)
FUZZ_CFLAGS_W := -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
# What a protocol harness links beyond the reference and the helpers: its encoder (P_roundtrip),
# the differential parts (P_diff).
fuzz_links = $(if $(filter %_roundtrip %_asm,$1),$(call fuzz_rt_src,$(call fuzz_proto,$1)))$(if $(filter %_diff,$1), $(FUZZ_DIFF_SRC))
# Header dependencies: the compiler writes them (-MMD -MP) next to each object (FUZZ_DEP_FILES, at the end).
# clang writes the .d file after the object, so the libFuzzer and AFL++ rules touch the object last:
# an object older than its .d file (a prerequisite) would be built again by every make.
FUZZ_DEPFLAGS := -MMD -MP
# What a protocol harness's object is compiled with: the protocol's name (the shared harnesses read it) and,
# for the shared P_roundtrip, its encoder's descriptor (tracecert/encoder.h: tc_encoder_P, the name
# tools/gen-protocols.sh --encoders gives it).
fuzz_proto_def = -DTC_FUZZ_PROTOCOL='"$(call fuzz_proto,$1)"'$(if $(filter $1,$(FUZZ_RT_SHARED) $(ENC_PROTOCOLS:%=%_asm)), \
		 -DTC_FUZZ_ENCODER=tc_encoder_$(call fuzz_proto,$1))
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
# The harness helpers (hashing, input layout) give no useful coverage feedback: not instrumented
# (a protocol's fuzz/P/fuzz.mk may instrument one of its own, as FUZZ_LF_HARNESS_COV; the shared
# harness bodies are instrumented as the harnesses are, below).
$(filter-out $(FUZZ_BODY_SRC:%.c=$(FUZZ_LF)/obj/%.o),$(FUZZ_COMMON_SRC:%.c=$(FUZZ_LF)/obj/%.o)) $(FUZZ_LF)/obj/conformance/vector.o $(FUZZ_LF)/obj/conformance/l3norm.o \
$(FUZZ_LF)/obj/conformance/vecwrite.o $(FUZZ_LF)/obj/conformance/outfile.o $(FUZZ_LF)/obj/fuzz/difflines.o $(FUZZ_DIFF_RULES:%.c=$(FUZZ_LF)/obj/%.o): FUZZ_LF_COV :=
# The harnesses' own checks are edges worth seeing but not comparisons worth solving: no
# comparison hooks there (they were a fifth of the parse harness's hook calls).
FUZZ_LF_HARNESS_COV := -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
$(FUZZ_HARNESSES:%=$(FUZZ_LF)/obj/fuzz/%.o) $(FUZZ_PROTO_HARNESSES:%=$(FUZZ_LF)/obj/fuzz/harness/%.o) \
$(FUZZ_BODY_SRC:%.c=$(FUZZ_LF)/obj/%.o): FUZZ_LF_COV := $(FUZZ_LF_HARNESS_COV)

$(FUZZ_LF)/obj/%.o: %.c $(FUZZ_LF)/obj/%.d
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_LF_FLAGS) $(FUZZ_LF_COV) $(FUZZ_DEPFLAGS) -c $< -o $@
	@touch $@

$(addprefix $(FUZZ_LF)/,$(FUZZ_HARNESSES)): $(FUZZ_LF)/%: $(FUZZ_LF)/obj/fuzz/%.o $(FUZZ_LF_OBJ)
	$(FUZZ_CLANG) $(FUZZ_LF_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl

# Protocol harnesses: the object is named after the harness (fuzz/stream.c and fuzz/diff.c are built
# once per protocol); each object's source and each harness's own links, harness by harness.
$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(FUZZ_LF)/obj/fuzz/harness/$h.o: $(call fuzz_src,$h)))
$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_LF)/obj/fuzz/harness/%.o): $(FUZZ_LF)/obj/fuzz/harness/%.o: $(FUZZ_LF)/obj/fuzz/harness/%.d
	@mkdir -p $(dir $@)
	$(FUZZ_CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_LF_FLAGS) $(FUZZ_LF_COV) $(FUZZ_DEPFLAGS) $(call fuzz_proto_def,$*) -c $(call fuzz_src,$*) -o $@
	@touch $@

$(addprefix $(FUZZ_LF)/,$(FUZZ_PROTO_HARNESSES)): $(FUZZ_LF)/%: $(FUZZ_LF)/obj/fuzz/harness/%.o $(FUZZ_LF_OBJ)
	$(FUZZ_CLANG) $(FUZZ_LF_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl
# P_roundtrip: the encoder is instrumented too (its branches are the structure the input steers).
$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(FUZZ_LF)/$h: $(patsubst %.c,$(FUZZ_LF)/obj/%.o,$(call fuzz_links,$h))))

# The reference as an adapter built for fuzzing (instrumented), the default TC_FUZZ_ADAPTER of make fuzz.
$(FUZZ_LF)/libtc_reference.so: $(FUZZ_LF)/obj/conformance/adapters/reference.o $(FUZZ_REF_SRC:%.c=$(FUZZ_LF)/obj/%.o)
	$(FUZZ_CLANG) $(FUZZ_LF_FLAGS) -shared -o $@ $^

# ---- AFL++ build (afl-clang-fast) ----------------------------------------------------------
FUZZ_AFL       := $(FUZZ_OUT)/afl$(if $(strip $(FUZZ_AFL_SAN)),-san)
FUZZ_AFL_FLAGS := -O2 -g -fPIC $(FUZZ_AFL_SAN)
FUZZ_AFL_OBJ   := $(FUZZ_REF_SRC:%.c=$(FUZZ_AFL)/obj/%.o) $(FUZZ_COMMON_SRC:%.c=$(FUZZ_AFL)/obj/%.o)

$(FUZZ_AFL)/obj/%.o: %.c $(FUZZ_AFL)/obj/%.d
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_AFL_FLAGS) $(FUZZ_DEPFLAGS) -c $< -o $@
	@touch $@

$(addprefix $(FUZZ_AFL)/,$(FUZZ_HARNESSES)): $(FUZZ_AFL)/%: $(FUZZ_AFL)/obj/fuzz/%.o $(FUZZ_AFL_OBJ)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_AFL_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl

$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(FUZZ_AFL)/obj/fuzz/harness/$h.o: $(call fuzz_src,$h)))
$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_AFL)/obj/fuzz/harness/%.o): $(FUZZ_AFL)/obj/fuzz/harness/%.o: $(FUZZ_AFL)/obj/fuzz/harness/%.d
	@mkdir -p $(dir $@)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_AFL_FLAGS) $(FUZZ_DEPFLAGS) $(call fuzz_proto_def,$*) -c $(call fuzz_src,$*) -o $@
	@touch $@

$(addprefix $(FUZZ_AFL)/,$(FUZZ_PROTO_HARNESSES)): $(FUZZ_AFL)/%: $(FUZZ_AFL)/obj/fuzz/harness/%.o $(FUZZ_AFL_OBJ)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_AFL_FLAGS) -fsanitize=fuzzer $(FUZZ_EXPORT) -o $@ $^ -ldl
$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(FUZZ_AFL)/$h: $(patsubst %.c,$(FUZZ_AFL)/obj/%.o,$(call fuzz_links,$h))))

$(FUZZ_AFL)/libtc_reference.so: $(FUZZ_AFL)/obj/conformance/adapters/reference.o $(FUZZ_REF_SRC:%.c=$(FUZZ_AFL)/obj/%.o)
	AFL_QUIET=1 $(FUZZ_AFL_CC) $(FUZZ_AFL_FLAGS) -shared -o $@ $^

# ---- Plain-main regression driver (gcc, ASan+UBSan) ---------------------------------------------
FUZZ_RG       := $(FUZZ_OUT)/regress-obj
FUZZ_RG_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_REGRESS  := $(FUZZ_OUT)/regress

# Each harness's entry points are renamed so that all of them link into one program.
$(FUZZ_HARNESSES:%=$(FUZZ_RG)/fuzz/%.o): $(FUZZ_RG)/fuzz/%.o: fuzz/%.c $(FUZZ_RG)/fuzz/%.d
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_RG_FLAGS) $(FUZZ_DEPFLAGS) \
	  -DLLVMFuzzerTestOneInput=tc_fuzz_one_$* -DLLVMFuzzerInitialize=tc_fuzz_init_$* -c $< -o $@

$(FUZZ_RG)/%.o: %.c $(FUZZ_RG)/%.d
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_RG_FLAGS) $(FUZZ_DEPFLAGS) -c $< -o $@

$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(FUZZ_RG)/fuzz/harness/$h.o: $(call fuzz_src,$h)))
$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_RG)/fuzz/harness/%.o): $(FUZZ_RG)/fuzz/harness/%.o: $(FUZZ_RG)/fuzz/harness/%.d
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) $(FUZZ_RG_FLAGS) $(FUZZ_DEPFLAGS) $(call fuzz_proto_def,$*) \
	  -DLLVMFuzzerTestOneInput=tc_fuzz_one_$* -DLLVMFuzzerInitialize=tc_fuzz_init_$* -c $(call fuzz_src,$*) -o $@

# The driver's table of harnesses (regress_main.c), from FUZZ_ALL.
$(FUZZ_GEN)/harnesses.h: fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	{ echo '/* generated from FUZZ_HARNESSES and FUZZ_PROTO_HARNESSES of fuzz/fuzz.mk: do not edit */'; \
	  echo '#define TC_FUZZ_HARNESS_LIST(X) $(foreach h,$(FUZZ_ALL),X($h))'; } > $@
$(FUZZ_RG)/fuzz/regress_main.o: $(FUZZ_GEN)/harnesses.h

# Every harness and what each links, each object once.
FUZZ_RG_LINKED := $(sort $(FUZZ_COMMON_SRC) $(FUZZ_REF_SRC) $(FUZZ_RT_SRC) $(FUZZ_DIFF_SRC))
$(FUZZ_REGRESS): $(FUZZ_HARNESSES:%=$(FUZZ_RG)/fuzz/%.o) $(FUZZ_RG)/fuzz/regress_main.o \
		 $(FUZZ_PROTO_HARNESSES:%=$(FUZZ_RG)/fuzz/harness/%.o) $(FUZZ_RG_LINKED:%.c=$(FUZZ_RG)/%.o)
	$(FUZZ_REGRESS_CC) $(FUZZ_RG_FLAGS) -o $@ $^ -ldl

# The adapters the regression driver loads (P_diff: OpenCSD when installed; adapter: the reference).
FUZZ_REGRESS_SOS := $(BUILD)/adapters/libtc_reference.so $(if $(filter yes,$(OPENCSD_OK)),$(BUILD)/adapters/libtc_opencsd.so)

# ---- Seed corpora (OSS-Fuzz layout: $(FUZZ_OUT)/<harness>_seed_corpus/) -------------------------------
# fuzz/seedgen.c writes the seeds of the harnesses that name no protocol and of every protocol
# harness in the layouts of fuzz.h; a protocol whose harnesses have layouts of their own has its
# own writer, fuzz/P/seedgen.c ($(FUZZ_OUT)/P/seedgen). Both share fuzz/seeds.c.
FUZZ_SEED_SRC := fuzz/seeds.c $(FUZZ_COMMON_SRC) conformance/vector.c $(FUZZ_REF_SRC)
FUZZ_SEEDGEN  := $(FUZZ_OUT)/seedgen
FUZZ_PROTO_SEEDGENS := $(patsubst fuzz/%/seedgen.c,$(FUZZ_OUT)/%/seedgen,$(wildcard $(PROTOCOLS:%=fuzz/%/seedgen.c)))
FUZZ_SG       := $(FUZZ_OUT)/seedgen-obj
$(FUZZ_SG)/%.o: %.c $(FUZZ_SG)/%.d
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS_W) -O1 -g $(FUZZ_DEPFLAGS) -c $< -o $@
$(FUZZ_SEEDGEN): $(FUZZ_SG)/fuzz/seedgen.o $(FUZZ_SEED_SRC:%.c=$(FUZZ_SG)/%.o)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) -o $@ $^
$(FUZZ_PROTO_SEEDGENS): $(FUZZ_OUT)/%/seedgen: $(FUZZ_SG)/fuzz/%/seedgen.o $(FUZZ_SEED_SRC:%.c=$(FUZZ_SG)/%.o)
	@mkdir -p $(dir $@)
	$(FUZZ_REGRESS_CC) -o $@ $^
# The writer of harness P_NAME's seeds: the protocol's own (fuzz/P/seedgen.c) when it has one, but for
# P_stream, whose input is the shared layout of fuzz.h whatever the protocol, and P_l1text, whose seeds are
# the vectors' L1 lines (the shared writer).
fuzz_seedgen = $(if $(and $(filter-out %_stream %_l1text %_asm,$1),$(wildcard fuzz/$(call fuzz_proto,$1)/seedgen.c)),$(FUZZ_OUT)/$(call fuzz_proto,$1)/seedgen,$(FUZZ_SEEDGEN))

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

# Then the OSS-Fuzz build and its targets (oss-fuzz-check, fuzz/oss-fuzz.mk): about 3 minutes more.
fuzz-smoke:
	@$(FUZZ_RUN) smoke $(if $(filter yes,$(OPENCSD_OK)),$(BUILD)/adapters/libtc_opencsd.so)
	@$(MAKE) --no-print-directory oss-fuzz-check

fuzz-help:
	@sed -n '2,22p' fuzz/fuzz.mk | sed 's/^# \{0,1\}//'

# Every object's .d file, in each build; an object without its .d file is built again (the empty
# rule stands for the missing file).
FUZZ_ALL_SRC  := $(sort $(FUZZ_REF_SRC) $(FUZZ_COMMON_SRC) $(FUZZ_RT_SRC) $(FUZZ_DIFF_SRC) $(FUZZ_SEED_SRC) \
		 $(FUZZ_HARNESSES:%=fuzz/%.c) fuzz/regress_main.c fuzz/seedgen.c $(wildcard fuzz/*/seedgen.c) \
		 conformance/adapters/reference.c)
FUZZ_DEP_FILES := $(foreach d,$(FUZZ_LF)/obj $(FUZZ_AFL)/obj $(FUZZ_RG) $(FUZZ_SG),\
		  $(FUZZ_ALL_SRC:%.c=$d/%.d) $(FUZZ_PROTO_HARNESSES:%=$d/fuzz/harness/%.d))
$(FUZZ_DEP_FILES): ;
# A shared P_roundtrip's object whose .d file, written when fuzz/P/roundtrip.c was its source, still names
# that file: the missing file stands for nothing, so the object is built once more (from fuzz/roundtrip.c).
$(FUZZ_RT_SHARED:%_roundtrip=fuzz/%/roundtrip.c): ;
-include $(wildcard $(FUZZ_DEP_FILES))

# A protocol's own settings of the fuzz build (make fuzz-smoke's seconds for its harnesses, the
# instrumentation of its parts): fuzz/P/fuzz.mk, for every protocol P that has one.
include $(wildcard $(PROTOCOLS:%=fuzz/%/fuzz.mk))

# The reference adapter's protocol table and version: tracecert/build.h (GNUmakefile generates it).
FUZZ_REF_ADAPTER_OBJS := $(FUZZ_LF)/obj/conformance/adapters/reference.o $(FUZZ_AFL)/obj/conformance/adapters/reference.o
$(FUZZ_REF_ADAPTER_OBJS): $(BUILD_H)
$(FUZZ_REF_ADAPTER_OBJS): FUZZ_CPPFLAGS += -I$(BUILD)/gen/include

# The harnesses as OSS-Fuzz / ClusterFuzzLite fuzz targets (make fuzz-list, oss-fuzz-build, oss-fuzz-check).
include fuzz/oss-fuzz.mk
