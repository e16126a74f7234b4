/* SPDX-License-Identifier: BSD-3-Clause */
/* certfiles.h — the certificate files of a report folder: the folder checked before the run and the previous pair moved aside, the JSON and Markdown written as one pair, the previous pair put back or removed. */
#ifndef TC_CERTFILES_H
#define TC_CERTFILES_H

#include <sys/types.h>

#include "runner.h"

#define TC_CERTFILES_N 4          /* certificate.json, certificate.md, certificate.junit.xml, certificate.html */

/* A report folder and the certificate files an earlier run left there,
 * moved aside for the run (kept[i] non-empty: DIR/.certificate.json.kept-PID). */
struct tc_certfiles {
	const char *dir;          /* NULL: no report */
	char kept[TC_CERTFILES_N][4200];
	int created;              /* dir did not exist before this run */
	dev_t dev;                /* the folder prepared: the pair goes into it, never into another */
	ino_t ino;                /* that a path swapped in meanwhile names (st_dev, st_ino) */
};

/* Before the run: creates dir (and its parents), proves a file can be
 * written there, removes the moved-aside pairs of runs that are gone
 * (killed), and, holding the folder's lock, moves the certificate files
 * there aside: from now until this run writes its pair, the folder holds
 * no certificate, so a run that is killed (SIGKILL: no handler runs) leaves
 * none claiming to be its result. dir NULL: no report. 0, or -1 with a
 * message on stderr (then nothing was moved). */
int tc_certfiles_prepare(struct tc_certfiles *c, const char *dir);

/* After the run: renders both certificates, writes each to a temporary
 * file beside its place, then, holding a lock on the folder (flock), renames
 * both into place, so that runs into one folder leave one pair, and removes
 * the pair moved aside. A path that no longer names the folder prepared (a
 * parent renamed and another folder put in its place while the adapter
 * ran) is an error: nothing is renamed, and the certificate files that
 * folder holds are removed (they are not this run's). When SIGINT or SIGTERM came first (interrupt.h),
 * nothing is renamed and the moved-aside pair is removed
 * (tc_certfiles_drop_previous). Returns 0, 1 when interrupted (nothing
 * written), -1 after a message on stderr (the previous files are put back,
 * tc_certfiles_restore). */
int tc_certfiles_write(const struct tc_certfiles *c, const struct tc_report *r);

/* An interrupted run: removes the certificate files moved aside; says so on
 * stderr. */
void tc_certfiles_drop_previous(const struct tc_certfiles *c);

/* A run that ends without a certificate of its own for a reason of the
 * runner's (an adapter that cannot be loaded, a certificate that cannot be
 * written): puts the pair moved aside back where no other run has written
 * one meanwhile, and removes it otherwise. */
void tc_certfiles_restore(const struct tc_certfiles *c);

/* A run that ends before any vector ran: the pair moved aside put back
 * (tc_certfiles_restore) when keep, else removed (said on stderr: it would
 * pass for this run's result); then the folder removed when this run
 * created it and it is empty. */
void tc_certfiles_abandon(const struct tc_certfiles *c, int keep);

/* --junit FILE: the JUnit XML of r written whole to path (outfile.c), or
 * the file there left as it was. 0, or -1 after a message on stderr. */
int tc_certfiles_junit(const char *path, const struct tc_report *r);

#endif
