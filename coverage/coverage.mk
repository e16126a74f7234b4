# SPDX-License-Identifier: BSD-3-Clause
# coverage/coverage.mk — `make coverage` (coverage/README.md); GNUmakefile includes it.
#
# An instrumented build (gcc --coverage, -DTC_CLAUSE_TRACE) in $(COV_BUILD)
# runs the tests (test-run) and then, for every protocol of PROTOCOLS, every
# vector of vectors/<p> through build/coverage/clausecov against
# coverage/clauses/<p>.txt. Results in $(COV_BUILD): html/index.html (lcov,
# with branches), <part>.info, spec-coverage-<p>.md and .html (spec clauses),
# summary.md.

# The thresholds, in percent, for every part: `make coverage` fails when a
# part's line or branch coverage is below them.
COV_MIN_LINES    := 95
COV_MIN_BRANCHES := 90

# A protocol's reference sources, where its spec-clause markers are:
# reference/<p>/*.c (the shared ones at the top of reference/ hold no markers).
cov_protocol_src = $(sort $(wildcard reference/$(1)/*.c))

# The parts measured, each with its sources (the tests that exercise them are
# whatever test-run runs). To add one: COV_PARTS += NAME, COV_SRC_NAME := FILES.
# `reference` and `encoder` are the shared sources at the top of those folders;
# each protocol's folders (reference/<p>/, encoder/<p>/) are measured as parts
# reference-<p> and encoder-<p>.
COV_PARTS         := reference
COV_SRC_reference := $(REF_SHARED_SRC)
ifneq ($(strip $(ENC_SHARED_SRC)),)
COV_PARTS         += encoder
COV_SRC_encoder   := $(ENC_SHARED_SRC)
endif
define cov_protocol_parts
ifneq ($$(wildcard reference/$(1)/*.c),)
COV_PARTS += reference-$(1)
COV_SRC_reference-$(1) := $$(sort $$(wildcard reference/$(1)/*.c))
endif
ifneq ($$(wildcard encoder/$(1)/*.c),)
COV_PARTS += encoder-$(1)
COV_SRC_encoder-$(1) := $$(sort $$(wildcard encoder/$(1)/*.c))
endif
endef
$(foreach p,$(PROTOCOLS),$(eval $(call cov_protocol_parts,$(p))))

COV_BUILD := build/coverage
COV_FLAGS := --coverage -O0 -g -DTC_CLAUSE_TRACE
# gcov's own messages (libgcov writes them to stderr, where the tests read the
# tools' messages) go to this file instead; make coverage lists the files they
# name at its end (a .gcda that could not be merged: its figures are lower
# bounds).
COV_GCOV_LOG := $(abspath $(COV_BUILD))/gcov-errors.log
# A process under a file-size limit (tests/outputs.t's `ulimit -f` runs) cannot
# write a .gcda whole and leaves it unreadable to every later merge
# (coverage/fsize_guard.c): its counts go to this tree, which the report does
# not read, and its gcov messages to gcov-errors.log there. The guard is in
# the library; -u takes it into every program linked with the library.
COV_FSIZE_DIR := $(abspath $(COV_BUILD))/fsize-limited
COV_REF_SRC   := coverage/clause_trace.c coverage/fsize_guard.c
COV_LDFLAGS   := -Wl,-u,tc_cov_fsize_guard

.PHONY: coverage coverage-clauses

# Each protocol's list and the markers of its sources agree, and no shared
# reference source holds a marker (no build needed).
COV_SHARED_SRC := $(filter-out $(foreach p,$(PROTOCOLS),$(call cov_protocol_src,$(p))),$(wildcard reference/*.c))
coverage-clauses:
	@rc=0; \
	$(foreach p,$(PROTOCOLS),coverage/check-clauses.sh coverage/clauses/$(p).txt $(call cov_protocol_src,$(p)) || rc=1;) \
	shared=$$(grep -l 'TC_CLAUSE' $(COV_SHARED_SRC) /dev/null); \
	if [ -n "$$shared" ]; then \
	  echo "coverage-clauses: spec-clause markers in shared sources (a marker belongs to one protocol's files): $$shared"; rc=1; \
	fi; \
	exit $$rc

coverage: coverage-clauses
	@if ! command -v lcov >/dev/null 2>&1 || ! command -v genhtml >/dev/null 2>&1; then \
	  echo "make coverage needs lcov (lcov and genhtml, 1.x) and gcov (part of gcc)."; \
	  echo "Install it with: apt-get install lcov"; \
	  exit 1; \
	fi
	@mkdir -p $(COV_BUILD)
	find $(COV_BUILD) -name '*.gcda' -delete
	rm -rf $(COV_BUILD)/spec-summary-*.txt $(COV_GCOV_LOG) $(COV_FSIZE_DIR)
	mkdir -p $(COV_FSIZE_DIR)
	GCOV_ERROR_FILE=$(COV_GCOV_LOG) TC_COV_FSIZE_DIR=$(COV_FSIZE_DIR) $(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) \
	  BUILD=$(COV_BUILD) CFLAGS='$(COV_FLAGS)' LDFLAGS='$(COV_LDFLAGS)' \
	  REF_SRC='$(REF_SRC) $(COV_REF_SRC)' test-run $(COV_BUILD)/clausecov $(COV_BUILD)/swapdir
	@rc=0; \
	for p in $(PROTOCOLS); do \
	  GCOV_ERROR_FILE=$(COV_GCOV_LOG) TC_COV_FSIZE_DIR=$(COV_FSIZE_DIR) $(COV_BUILD)/clausecov --protocol $$p --out $(COV_BUILD) --rel ../../ vectors/$$p || rc=1; \
	done; \
	SWAPDIR=$(COV_BUILD)/swapdir coverage/report.sh $(COV_BUILD) $(COV_MIN_LINES) $(COV_MIN_BRANCHES) \
	  $(foreach p,$(COV_PARTS),--part $(p) $(filter-out coverage/%,$(COV_SRC_$(p)))) || rc=1; \
	echo "coverage: spec clauses: $(foreach p,$(PROTOCOLS),$(COV_BUILD)/spec-coverage-$(p).md)"; \
	if [ -s $(COV_GCOV_LOG) ]; then \
	  echo "coverage: gcov could not merge the counts of some runs into these files (its messages: $(COV_GCOV_LOG)); their figures are lower bounds:"; \
	  grep -o 'profiling error:[^:]*\.gcda' $(COV_GCOV_LOG) | sed 's/^profiling error://' | sort | uniq -c; \
	fi; \
	exit $$rc

# The spec-clause driver; only the coverage build links it (it needs
# coverage/clause_trace.c in the library).
$(BUILD)/clausecov: $(BUILD)/obj/coverage/clausecov.o $(CONF_OBJ) $(LIB)
	$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $^
