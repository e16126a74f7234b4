# SPDX-License-Identifier: BSD-3-Clause
# Every vector under vectors/ (every protocol) through its reference decoder: whole, one byte at a
# time and in random chunks, each section compared (build/test/vectest).
exec "${TC_BUILD:-build}/test/vectest" vectors
