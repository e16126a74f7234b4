/* SPDX-License-Identifier: BSD-3-Clause */
/* snapwrite.h — writes generated vectors as a trace snapshot directory (`tracecert gen --snapshot-out`). */
#ifndef TC_SNAPWRITE_H
#define TC_SNAPWRITE_H

#include <stdint.h>

#include "tracecert/encoder.h"

/* One core and one trace source per generated vector, of the vector's
 * protocol (its descriptor, tracecert/protocol.h): the core (type
 * snapshot_core_type) has memory dumps holding the vector's image; the
 * source, named by protocol and index (P_0, P_1 for protocol p; files
 * p_0.ini, p_1.ini), has the first of the protocol's snapshot_types and every
 * register of its table, derived from the configuration by config_to_regs
 * with trace ID 0x10 + i. The traces go into one CoreSight formatted buffer
 * (coresight 1; interleaving and frame syncs chosen by seed) or one
 * source_data buffer each. Vectors of several protocols may be mixed. At
 * most 16 vectors. The folder is built beside dir and swapped in whole
 * (conformance/outfile.h); a folder already at dir is replaced only when it
 * holds a snapshot.ini (an earlier snapshot) or nothing. Returns 0, or -1
 * with a message in err (dir as it was). */
int tc_snapshot_write(const char *dir, const struct tc_enc_result *v, const uint64_t *seeds, int n, int coresight,
		      uint64_t seed, char *err, size_t errlen);

#endif
