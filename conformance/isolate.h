/* SPDX-License-Identifier: BSD-3-Clause */
/* isolate.h — the walls around the process that loads an adapter: an unprivileged uid, its own PID and mount namespaces, the vectors and the report hidden; whether they keep it from forging the run's outcome. */
#ifndef TC_ISOLATE_H
#define TC_ISOLATE_H

#include <stddef.h>

#include "runner.h"

/* The unprivileged user and group a child run as root drops to (nobody,
 * nogroup on Debian). */
#define TC_ISO_UID 65534
#define TC_ISO_GID 65534

/* What isolation achieved: enum tc_isolation bits (runner.h) and, when a
 * wall is missing, why (the first reason; for a process that is not
 * tc_iso_guarded, what it could do first). */
struct tc_iso {
	unsigned bits;
	char note[TC_ISO_NOTE_SIZE];
	char load[64];            /* where to load the adapter from when not its own path (a copy), or "" */
};

/* Puts the calling process (a fresh program image holding the run's inputs
 * only, single-threaded) behind every wall the system permits, in this
 * order, each tried and reported (none is required):
 *  1. new mount and PID namespaces (unshare; as a user other than root in
 *     a new user namespace too, mapping only its own uid and gid);
 *  2. every mount made private (nothing propagates out), then an empty
 *     read-only tmpfs mounted over each folder of hide (absolute paths);
 *  3. with a PID namespace, a fork: the first process of the namespace (its
 *     init, which only waits) mounts a /proc of the namespace and forks the
 *     process that returns from here; the caller waits for the namespace
 *     and ends the way the returning process ended (its exit status or
 *     signal), so its parent sees the run as if it were one process;
 *  4. root drops to TC_ISO_UID/TC_ISO_GID (setgroups, setresgid,
 *     setresuid); when that user cannot read the adapter (the shared
 *     object at adapter), root copies it first into a memory file, to be
 *     loaded from out->load (only when no copy can be made does it stay
 *     root, and say so); every
 *     capability is dropped (those of a user namespace too); no new
 *     privileges (PR_SET_NO_NEW_PRIVS); killed with its parent;
 *  5. the guard (tc_iso_guarded): the process, as it now is, can neither
 *     signal the runner (it runs as nobody, whom root's processes ignore,
 *     or in a PID namespace of its own, which names no process outside)
 *     nor write the report folder (report, an absolute path, or NULL for
 *     none: hidden from it, or closed to nobody); a process still uid 0
 *     is never guarded (root owns the report folder, its parents and the
 *     runner's files). Otherwise the note begins with what it could do.
 * Returns in the process that is to load the adapter, with what holds in
 * *out. The frames descriptor stays open in every process. */
void tc_isolate(char *const *hide, size_t nhide, const char *adapter, const char *report, struct tc_iso *out);

#endif
