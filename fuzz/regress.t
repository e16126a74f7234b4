# SPDX-License-Identifier: BSD-3-Clause
# The fuzz regression corpus (fuzz/corpus/*/, vectors/*/regress/*.bin) through every harness, without libFuzzer.
# Needs ${TC_BUILD}/fuzz/regress (make fuzz-regress, or $(FUZZ_REGRESS) in the tests prerequisites).
b=${TC_BUILD:-build}
pick() { for f in "$@"; do [ -f "$f" ] && { echo "$f"; return; }; done; echo "$1"; }
: "${TC_FUZZ_ADAPTER:=$(pick "$b/adapters/libtc_reference.so" build/adapters/libtc_reference.so)}"
: "${TC_DIFF_ADAPTER:=$(pick "$b/adapters/libtc_opencsd.so" build/adapters/libtc_opencsd.so)}"
export TC_FUZZ_ADAPTER TC_DIFF_ADAPTER
exec "${TC_FUZZ_REGRESS:-$b/fuzz/regress}" --root .
