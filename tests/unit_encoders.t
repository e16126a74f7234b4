# SPDX-License-Identifier: BSD-3-Clause
# The table of encoders (tracecert/encoder.h, tc_encoders[] from PROTOCOLS) through its interface: one
# encoder per protocol, the fields gen prints, determinism, fixed configurations, refusals, negative vectors.
exec "${TC_BUILD:-build}/test/unit_encoders"
