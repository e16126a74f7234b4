# The one .tcv writer (conformance/vecwrite.c): its layout against text written by hand, every misuse it
# refuses, and the reader's description, tag-length and line-length rules.
exec "${TC_BUILD:-build}/test/unit_vecwrite"
