#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# keep.sh PROTOCOL BUILD_DIR — keep a full automatic-mutant run of PROTOCOL as the protocol's
# last measured run: copy BUILD_DIR/mutants-auto/PROTOCOL/{run.txt,parts.txt,sites.tsv,
# verdicts.tsv} into conformance/mutants/auto/runs/PROTOCOL/ (replacing an earlier one), then
# write conformance/mutants/auto/measured.md again as report.sh's output over runs/.
# Refused: a sampled run (sample= not "all") or one of a subset (--ids), since their rates are
# not the protocol's; a run without verdicts. Exit 0 kept, 1 refused or failed, 2 bad usage.
set -u
if [ $# -ne 2 ]; then
	echo "usage: keep.sh PROTOCOL BUILD_DIR" >&2
	exit 2
fi
p=$1
src=$2/mutants-auto/$p
here=conformance/mutants/auto
for f in run.txt parts.txt sites.tsv verdicts.tsv; do
	if [ ! -s "$src/$f" ]; then
		echo "keep.sh: $src/$f: missing or empty (run make mutants-auto PROTOCOL=$p first)" >&2
		exit 1
	fi
done
if ! grep -qx 'sample=all' "$src/run.txt"; then
	echo "keep.sh: $src/run.txt: $(grep '^sample=' "$src/run.txt" || echo 'no sample= line'): a sampled run is not the protocol's measure; expected sample=all" >&2
	exit 1
fi
if grep -q '^ids=' "$src/run.txt"; then
	echo "keep.sh: $src/run.txt: a run of a subset (--ids) is not the protocol's measure" >&2
	exit 1
fi
mkdir -p "$here/runs/$p" || exit 1
for f in run.txt parts.txt sites.tsv verdicts.tsv; do
	cp "$src/$f" "$here/runs/$p/$f" || exit 1
done
sh "$here/report.sh" "$here/runs" >"$here/measured.md.new" && mv "$here/measured.md.new" "$here/measured.md" || exit 1
echo "keep.sh: kept $p's run of $(sed -n 's/^date=//p' "$src/run.txt") in $here/runs/$p; $here/measured.md written again" >&2
