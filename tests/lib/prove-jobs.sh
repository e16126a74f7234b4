#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# prove-jobs.sh — make check's test run: prove over the scripts with JOBS at once, each script's
# wall-clock and CPU time beside its result (--timer), which prints only a summary of a script
# that fails; then each failing script again alone, its TAP shown (the failing checks'
# diagnostics), so that a log of make check says why. The exit status is the first prove's.
#
#   prove-jobs.sh JOBS LOG SCRIPT...    (environment: TC_BUILD, PROVE)
#
# LOG keeps prove's output (the failing scripts are read from its summary), LOG.rc its exit status.
jobs=$1 log=$2
shift 2
{ "${PROVE:-prove}" -j"$jobs" --timer --exec sh "$@"; echo $? >"$log.rc"; } 2>&1 | tee "$log"
rc=$(cat "$log.rc")
[ $rc -eq 0 ] && exit 0
for t in $(sed -n 's/^\(tests\/[^ ]*\.t\) .*(Wstat: .*/\1/p' "$log"); do
	echo "######## $t again, alone: its TAP"
	sh "$t" 2>&1
done
exit $rc
