# coverage/coverage.mk — `make coverage` (coverage/README.md); GNUmakefile includes it.
#
# An instrumented build (gcc --coverage, -DTC_CLAUSE_TRACE) in $(COV_BUILD)
# runs the tests (test-run) and then every vector through build/clausecov.
# Results in $(COV_BUILD): html/index.html (lcov, with branches), <part>.info,
# spec-coverage.md and spec-coverage.html (spec clauses), summary.md.

# The thresholds, in percent, for every part: `make coverage` fails when a
# part's line or branch coverage is below them.
COV_MIN_LINES    := 95
COV_MIN_BRANCHES := 90

# The parts measured, each with its sources (the tests that exercise them are
# whatever test-run runs). To add one: COV_PARTS += NAME, COV_SRC_NAME := FILES.
COV_PARTS         := reference
COV_SRC_reference := $(REF_SRC)
ifneq ($(strip $(ENC_SRC)),)
COV_PARTS         += encoder
COV_SRC_encoder   := $(ENC_SRC)
endif

COV_BUILD := build/coverage
COV_FLAGS := --coverage -O0 -g -DTC_CLAUSE_TRACE

.PHONY: coverage coverage-clauses

# Markers and coverage/clauses.txt agree (no build needed).
coverage-clauses:
	coverage/check-clauses.sh coverage/clauses.txt $(filter-out coverage/%,$(foreach p,$(COV_PARTS),$(COV_SRC_$(p))))

coverage: coverage-clauses
	@if ! command -v lcov >/dev/null 2>&1 || ! command -v genhtml >/dev/null 2>&1; then \
	  echo "make coverage needs lcov (lcov and genhtml, 1.x) and gcov (part of gcc)."; \
	  echo "Install it with: apt-get install lcov"; \
	  exit 1; \
	fi
	@mkdir -p $(COV_BUILD)
	find $(COV_BUILD) -name '*.gcda' -delete
	rm -f $(COV_BUILD)/spec-summary.txt
	$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) BUILD=$(COV_BUILD) CFLAGS='$(COV_FLAGS)' \
	  REF_SRC='$(REF_SRC) coverage/clause_trace.c' test-run $(COV_BUILD)/clausecov
	@rc=0; \
	$(COV_BUILD)/clausecov --out $(COV_BUILD) --rel ../../ vectors/ete || rc=1; \
	coverage/report.sh $(COV_BUILD) $(COV_MIN_LINES) $(COV_MIN_BRANCHES) \
	  $(foreach p,$(COV_PARTS),--part $(p) $(filter-out coverage/%,$(COV_SRC_$(p)))) || rc=1; \
	echo "coverage: spec clauses: $(COV_BUILD)/spec-coverage.md, $(COV_BUILD)/spec-coverage.html"; \
	exit $$rc

# The spec-clause driver; only the coverage build links it (it needs
# coverage/clause_trace.c in the library).
$(BUILD)/clausecov: $(BUILD)/obj/coverage/clausecov.o $(CONF_OBJ) $(LIB)
	$(CC) $(ALLCFLAGS) $(LDFLAGS) -o $@ $^
