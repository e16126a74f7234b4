# SPDX-License-Identifier: BSD-3-Clause
# Real executions (tracecert/execlog.h): the qemu-user log parser and its error paths (line number and
# byte offset), the classifier over a hand-made image and its refusals, the L3 of an execution, the pages,
# and each protocol's from_exec on a tiny hand-made log and image.
exec "${TC_BUILD:-build}/test/unit_execlog"
