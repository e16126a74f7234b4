# SPDX-License-Identifier: BSD-3-Clause
# Every protocol's L1 text parser (the descriptor's parse_l1) against its formatter, the vectors, the reference and the encoders.
exec "${TC_BUILD:-build}/test/unit_l1text" vectors
