# SPDX-License-Identifier: BSD-3-Clause
# The framed messages between the certify processes (conformance/frame.c).
exec "${TC_BUILD:-build}/test/unit_frame"
