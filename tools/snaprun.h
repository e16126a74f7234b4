/* snaprun.h — `tracecert dump|decode --snapshot DIR`: every ETE source of a snapshot directory, decoded with its registers and its core's memory. */
#ifndef TC_SNAPRUN_H
#define TC_SNAPRUN_H

#include "dump.h"

/* Checks the whole snapshot, then decodes each ETE source as a block headed
 * by a '#' line. overrides: --config keys and registers, applied over each
 * source's registers. cmd: "dump" or "decode" (for messages). Returns the
 * exit status: 0, 1 (the trace or its frames had errors), 2 (bad snapshot). */
int tc_snapshot_run(const char *dir, const char *cmd, const struct tc_ete_config_builder *overrides,
		    struct tc_printer *out);

#endif
