# SPDX-License-Identifier: BSD-3-Clause
# Unit tests of the snapshot INI parser and directory reader (reference/snapshot.c).
exec "${TC_BUILD:-build}/test/unit_snapshot"
