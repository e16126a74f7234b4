# SPDX-License-Identifier: BSD-3-Clause
# The one .tcv writer (conformance/vecwrite.c): its layout against text written by hand, every misuse it
# refuses, and the reader's rules: description, tags, lines of any length, NUL bytes, sections given twice,
# the version line, the [end] line, and a vector cut at every byte offset (none reads).
exec "${TC_BUILD:-build}/test/unit_vecwrite"
