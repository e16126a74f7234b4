# SPDX-License-Identifier: BSD-3-Clause
# fuzz/oss-fuzz.mk — the harnesses built as OSS-Fuzz / ClusterFuzzLite fuzz targets (oss-fuzz/build.sh runs
# it; fuzz/README.md "OSS-Fuzz and ClusterFuzzLite"). Included by fuzz/fuzz.mk, whose lists it uses:
# FUZZ_ALL (every harness), fuzz_src / fuzz_proto_def / fuzz_links (each harness's source, defines and
# extra sources), so that a protocol added to PROTOCOLS is built here with no edit.
#
# make fuzz-list        one line per harness: NAME, source, its defines, what it links beyond the
#                       reference and the helpers (tab-separated)
# make oss-fuzz-build   in the environment OSS-Fuzz sets (CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE,
#                       OUT, WORK): every harness as $(OUT)/NAME (compiled with $(CC) $(CFLAGS), linked with
#                       $(CXX) $(CXXFLAGS) ... $(LIB_FUZZING_ENGINE)), $(OUT)/NAME_seed_corpus.zip (make
#                       fuzz-seeds' corpus and fuzz/corpus/NAME/), $(OUT)/NAME.options, $(OUT)/NAME.dict
#                       (when the harness has one: run.sh dict), the adapters in $(OUT)/lib/
# make oss-fuzz-check   oss-fuzz/check.sh: oss-fuzz/build.sh in temporary OUT, SRC and WORK, then every
#                       target a few seconds on its seed corpus (make fuzz-smoke runs it)
#
# The adapters: the adapter harness fuzzes $(OUT)/lib/tc_fuzz_adapter.so (OSS_FUZZ_ADAPTER, a decoder's
# adapter .so, built with $(CC) $(CFLAGS) for coverage; default: the reference adapter built here), the
# P_diff harnesses compare with $(OUT)/lib/tc_diff_adapter.so (OSS_FUZZ_DIFF_ADAPTER; default OpenCSD's,
# built here when libopencsd-dev is installed, for the protocols it has an adapter for). No environment
# variable can be set on OSS-Fuzz: those harnesses are compiled with TC_FUZZ_ADAPTER_BESIDE /
# TC_DIFF_ADAPTER_BESIDE, the path from the executable's folder. The executables carry an RPATH of
# $ORIGIN/lib, where the adapters' own libraries are copied (all but the C and C++ runtimes).
# Without a diff adapter the P_diff harnesses are skipped, and oss-fuzz-build says so.

OUT                   ?= $(FUZZ_OUT)/oss-fuzz/out
LIB_FUZZING_ENGINE    ?= -fsanitize=fuzzer
OSS_FUZZ_ADAPTER      ?=
OSS_FUZZ_DIFF_ADAPTER ?=
# Objects in WORK when OSS-Fuzz gives one (its scratch folder), else in the fuzz build folder.
FUZZ_OSS := $(if $(WORK),$(WORK)/tracecert-obj,$(FUZZ_OUT)/oss-fuzz/obj)
# Not -Werror: the compiler is OSS-Fuzz's (newer clang, warnings this tree has not met yet).
FUZZ_OSS_CFLAGS = $(FUZZ_CPPFLAGS) -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L $(CFLAGS) -fPIC $(FUZZ_DEPFLAGS)

# The diff adapter and the P_diff harnesses it serves: a given one serves every protocol; OpenCSD's the
# protocols with an OpenCSD adapter (OPENCSD_PROTOCOLS, GNUmakefile).
FUZZ_OSS_DIFF_SO := $(or $(OSS_FUZZ_DIFF_ADAPTER),$(if $(filter yes,$(OPENCSD_OK)),$(FUZZ_OSS)/libtc_opencsd.so))
FUZZ_OSS_DIFFS   := $(if $(OSS_FUZZ_DIFF_ADAPTER),$(FUZZ_DIFFS),$(if $(FUZZ_OSS_DIFF_SO),$(filter $(OPENCSD_PROTOCOLS:%=%_diff),$(FUZZ_DIFFS))))
FUZZ_OSS_SKIPPED := $(filter-out $(FUZZ_OSS_DIFFS),$(FUZZ_DIFFS))
FUZZ_OSS_HARNESSES := $(filter-out $(FUZZ_OSS_SKIPPED),$(FUZZ_ALL))
FUZZ_OSS_SKIP_WHY := $(if $(FUZZ_OSS_DIFF_SO),OpenCSD has no adapter for their protocol,no diff adapter: libopencsd-dev is not installed and OSS_FUZZ_DIFF_ADAPTER is not set)
FUZZ_OSS_FUZZ_SO := $(or $(OSS_FUZZ_ADAPTER),$(FUZZ_OSS)/libtc_reference.so)

FUZZ_OSS_OBJ := $(FUZZ_REF_SRC:%.c=$(FUZZ_OSS)/%.o) $(FUZZ_COMMON_SRC:%.c=$(FUZZ_OSS)/%.o)
$(FUZZ_OSS)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_OSS_CFLAGS) $(FUZZ_OSS_DEF) -c $< -o $@
$(FUZZ_OSS)/fuzz/adapter.o: FUZZ_OSS_DEF := -DTC_FUZZ_ADAPTER_BESIDE='"lib/tc_fuzz_adapter.so"'

# A protocol's harness: the object named after the harness, from its source (fuzz_src) with its defines.
$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(FUZZ_OSS)/harness/$h.o: $(call fuzz_src,$h)))
$(FUZZ_PROTO_HARNESSES:%=$(FUZZ_OSS)/harness/%.o): $(FUZZ_OSS)/harness/%.o:
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_OSS_CFLAGS) $(call fuzz_proto_def,$*) $(FUZZ_OSS_DEF) -c $(call fuzz_src,$*) -o $@
$(FUZZ_DIFFS:%=$(FUZZ_OSS)/harness/%.o): FUZZ_OSS_DEF := -DTC_DIFF_ADAPTER_BESIDE='"lib/tc_diff_adapter.so"'

# The coverage callbacks are exported to the adapters (instrumented with $(CFLAGS) too), as FUZZ_EXPORT
# does for make fuzz; a dynamic list, which every GNU ld and lld take (not the harness's copy of the
# reference: an ODR violation beside the adapter's own).
$(FUZZ_OSS)/export.list: fuzz/oss-fuzz.mk
	@mkdir -p $(dir $@)
	printf '{\n  __sanitizer_cov_*;\n  __sancov_*;\n  __afl_*;\n  __cmplog_*;\n};\n' > $@
FUZZ_OSS_LINK = $(CXX) $(CXXFLAGS) -Wl,--dynamic-list=$(FUZZ_OSS)/export.list -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/lib'
$(FUZZ_HARNESSES:%=$(OUT)/%): $(OUT)/%: $(FUZZ_OSS)/fuzz/%.o $(FUZZ_OSS_OBJ) $(FUZZ_OSS)/export.list
	@mkdir -p $(dir $@)
	$(FUZZ_OSS_LINK) -o $@ $(filter %.o,$^) $(LIB_FUZZING_ENGINE) -ldl
$(FUZZ_PROTO_HARNESSES:%=$(OUT)/%): $(OUT)/%: $(FUZZ_OSS)/harness/%.o $(FUZZ_OSS_OBJ) $(FUZZ_OSS)/export.list
	@mkdir -p $(dir $@)
	$(FUZZ_OSS_LINK) -o $@ $(filter %.o,$^) $(LIB_FUZZING_ENGINE) -ldl
$(foreach h,$(FUZZ_PROTO_HARNESSES),$(eval $(OUT)/$h: $(patsubst %.c,$(FUZZ_OSS)/%.o,$(call fuzz_links,$h))))

# The adapters built here, with the harnesses' flags: the reference (every protocol of the build) and OpenCSD's.
$(FUZZ_OSS)/conformance/adapters/reference.o: $(BUILD_H)
$(FUZZ_OSS)/conformance/adapters/reference.o: FUZZ_OSS_DEF := -I$(BUILD)/gen/include
$(FUZZ_OSS)/libtc_reference.so: $(FUZZ_OSS)/conformance/adapters/reference.o $(FUZZ_REF_SRC:%.c=$(FUZZ_OSS)/%.o)
	$(CC) $(CFLAGS) -shared -o $@ $^
FUZZ_OSS_OPENCSD_OBJ := $(addprefix $(FUZZ_OSS)/conformance/adapters/opencsd_,$(addsuffix .o,common $(OPENCSD_PROTOCOLS)))
$(FUZZ_OSS_OPENCSD_OBJ): $(OPENCSD_H)
$(FUZZ_OSS_OPENCSD_OBJ): FUZZ_OSS_DEF := -I$(BUILD)/gen/opencsd -D_DEFAULT_SOURCE -fvisibility=hidden
$(FUZZ_OSS)/libtc_opencsd.so: $(FUZZ_OSS_OPENCSD_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-rpath,'$$ORIGIN' -o $@ $^ -lopencsd_c_api -lopencsd

# An adapter in $(OUT)/lib/ with the libraries it needs there too (the runner image has only $(OUT)),
# but the C and C++ runtimes and the loader.
fuzz_oss_install_so = mkdir -p $(OUT)/lib && cp $1 $2 && \
	ldd $1 | awk '$$2 == "=>" && $$3 ~ /^\// { print $$3 }' | while read -r lib; do \
	  case $${lib\#\#*/} in libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libstdc++.so*|libgcc_s.so*|ld-linux*) ;; \
	  *) cp -L "$$lib" $(OUT)/lib/ ;; esac; done
$(OUT)/lib/tc_fuzz_adapter.so: $(FUZZ_OSS_FUZZ_SO)
	$(call fuzz_oss_install_so,$<,$@)
$(OUT)/lib/tc_diff_adapter.so: $(FUZZ_OSS_DIFF_SO)
	$(call fuzz_oss_install_so,$<,$@)

# NAME_seed_corpus.zip: the seeds of make fuzz-seeds and the regression corpus fuzz/corpus/NAME/
# (named regress-FILE), flat, as OSS-Fuzz unpacks them.
$(FUZZ_OSS_HARNESSES:%=$(OUT)/%_seed_corpus.zip): $(OUT)/%_seed_corpus.zip: $(FUZZ_OUT)/%_seed_corpus/.stamp
	@mkdir -p $(dir $@)
	rm -rf $(FUZZ_OSS)/seeds/$* $@ && mkdir -p $(FUZZ_OSS)/seeds/$*
	find $(FUZZ_OUT)/$*_seed_corpus -maxdepth 1 -type f ! -name '.*' -exec cp {} $(FUZZ_OSS)/seeds/$*/ \;
	for f in fuzz/corpus/$*/*; do [ ! -f "$$f" ] || cp "$$f" "$(FUZZ_OSS)/seeds/$*/regress-$${f##*/}"; done
	cd $(FUZZ_OSS)/seeds/$* && zip -q -X $(abspath $@) *

# NAME.options: the libFuzzer settings make fuzz uses (run.sh: -max_len=4096, the harness's dictionary,
# copied to NAME.dict) and ASan's allocator_may_return_null (harnesses try allocations that may fail).
$(FUZZ_OSS_HARNESSES:%=$(OUT)/%.options): $(OUT)/%.options: fuzz/oss-fuzz.mk fuzz/run.sh
	@mkdir -p $(dir $@)
	d=$$($(FUZZ_RUN) dict $*) && { [ -z "$$d" ] || cp "$$d" $(OUT)/$*.dict; } && \
	{ echo '[libfuzzer]'; echo 'max_len = 4096'; [ -z "$$d" ] || echo 'dict = $*.dict'; \
	  echo; echo '[asan]'; echo 'allocator_may_return_null = 1'; } > $@

FUZZ_OSS_TARGETS := $(FUZZ_OSS_HARNESSES:%=$(OUT)/%) $(FUZZ_OSS_HARNESSES:%=$(OUT)/%_seed_corpus.zip) \
		    $(FUZZ_OSS_HARNESSES:%=$(OUT)/%.options) $(OUT)/lib/tc_fuzz_adapter.so \
		    $(if $(FUZZ_OSS_DIFFS),$(OUT)/lib/tc_diff_adapter.so)

.PHONY: fuzz-list oss-fuzz-build oss-fuzz-skipped oss-fuzz-check
fuzz-list:
	@$(foreach h,$(FUZZ_ALL),printf '%s\t%s\t%s\t%s\n' '$h' '$(if $(filter $h,$(FUZZ_HARNESSES)),fuzz/$h.c,$(call fuzz_src,$h))' \
	  "$(if $(filter $h,$(FUZZ_PROTO_HARNESSES)),$(subst ",\",$(call fuzz_proto_def,$h)))" '$(strip $(call fuzz_links,$h))';)

# The harnesses oss-fuzz-build leaves out, each with the reason (none when every one is built).
oss-fuzz-skipped:
	@$(foreach h,$(FUZZ_OSS_SKIPPED),echo '$h: $(FUZZ_OSS_SKIP_WHY)';)

oss-fuzz-build: $(FUZZ_OSS_TARGETS)
	@echo "oss-fuzz-build: $(words $(FUZZ_OSS_HARNESSES)) fuzz targets in $(OUT): $(FUZZ_OSS_HARNESSES)"
	@$(if $(FUZZ_OSS_SKIPPED),echo "oss-fuzz-build: SKIPPED $(FUZZ_OSS_SKIPPED): $(FUZZ_OSS_SKIP_WHY)")

oss-fuzz-check:
	@BUILD='$(BUILD)' FUZZ_OUT='$(FUZZ_OUT)' MAKE='$(MAKE)' sh oss-fuzz/check.sh
-include $(wildcard $(FUZZ_OSS)/*.d $(FUZZ_OSS)/*/*.d $(FUZZ_OSS)/*/*/*.d $(FUZZ_OSS)/*/*/*/*.d)
