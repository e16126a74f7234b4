# SPDX-License-Identifier: BSD-3-Clause
# Every input that ever crashed, hung or diverged (fuzz/corpus/*, vectors/*/regress/*.bin), replayed
# through its harness by the plain ASan+UBSan driver (no libFuzzer needed).
exec sh fuzz/regress.t
