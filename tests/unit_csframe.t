# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the CoreSight formatter deformatter (reference/csframe.c) and the encoder's formatter writer.
exec "${TC_BUILD:-build}/test/unit_csframe"
