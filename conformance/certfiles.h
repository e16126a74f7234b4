/* certfiles.h — the certificate files of a report folder: the folder checked before the run, the JSON and Markdown written as one pair, the previous pair removed when a run is interrupted. */
#ifndef TC_CERTFILES_H
#define TC_CERTFILES_H

#include <sys/types.h>

#include "runner.h"

#define TC_CERTFILES_N 2          /* certificate.json, certificate.md */

/* A report folder and the certificate files it held when the run began. */
struct tc_certfiles {
	const char *dir;          /* NULL: no report */
	struct {
		int present;
		dev_t dev;
		ino_t ino;
	} before[TC_CERTFILES_N];
};

/* Before the run: creates dir (and its parents), proves a file can be
 * written there and notes the certificate files it holds. dir NULL: no
 * report. 0, or -1 with a message on stderr. */
int tc_certfiles_prepare(struct tc_certfiles *c, const char *dir);

/* After the run: renders both certificates, writes each to a temporary
 * file beside its place, then, holding a lock on the folder (flock), renames
 * both into place, so that runs into one folder leave one pair. When
 * SIGINT or SIGTERM came first (interrupt.h), nothing is renamed and the
 * previous pair is removed (tc_certfiles_drop_previous). Returns 0, 1 when
 * interrupted (nothing written), -1 after a message on stderr (the
 * previous files are left as they were). */
int tc_certfiles_write(const struct tc_certfiles *c, const struct tc_report *r);

/* An interrupted run: removes the certificate files that were there when
 * the run began, unless another run has replaced them since; says so on
 * stderr. */
void tc_certfiles_drop_previous(const struct tc_certfiles *c);

#endif
