# SPDX-License-Identifier: BSD-3-Clause
# reference/ete/ERRATA.md TC-R1 and reference/ptm/ERRATA.md PTM-R1 on every positive vector of every
# protocol with twin rules (conformance/test/twins_<p>.c): each packet with a field the text leaves
# unassigned (or does not read in its configuration) decodes the same with that field set, plus one
# warning.
exec "${TC_BUILD:-build}/test/twins" vectors
