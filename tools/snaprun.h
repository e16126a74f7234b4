/* SPDX-License-Identifier: BSD-3-Clause */
/* snaprun.h — `tracecert dump|decode --snapshot DIR`: every trace source of a snapshot directory, decoded with its registers and its core's memory. */
#ifndef TC_SNAPRUN_H
#define TC_SNAPRUN_H

#include "dump.h"

/* Checks the whole snapshot, then decodes each source of a protocol of this
 * build (its device type: the descriptor's snapshot_types) as a block headed
 * by a '#' line. overrides: --config NAME=VALUE, each applied over the
 * registers of the sources whose protocol has NAME (a name no source's
 * protocol has is an error). A bad snapshot: a file that does not parse or
 * open, a source without a register its protocol requires
 * (snapshot_required_regs) or whose registers its protocol refuses, a
 * source of a formatted buffer without a usable trace ID or with one another
 * source of the buffer has, no source to decode (none of this build's
 * protocols has a buffer), a regular buffer file larger than --max-bytes. cmd: "dump" or "decode" (for messages).
 * max_bytes: the most bytes read of each buffer (--max-bytes, the bound
 * tc_max_bytes_for gives), more is an error (exit status 2). Returns
 * the exit status: 0, 1 (the trace or its frames had errors), 2 (bad
 * snapshot). */
int tc_snapshot_run(const char *dir, const char *cmd, const char *const *overrides, int noverrides,
		    const struct tc_max_bytes *max_bytes, struct tc_printer *out);

#endif
