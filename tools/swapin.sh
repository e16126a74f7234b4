#!/bin/sh
# swapin.sh — puts the files of a folder that `make vectors` built in full into their place.
# usage: tools/swapin.sh NEW DEST [--prune PATTERN]
# Each file of NEW is renamed over its namesake in DEST (mv within one file system: one rename(2)
# each), so at every moment DEST holds the old or the new version of each file, whole; an
# interruption leaves no vector missing. Then, with --prune, the files of DEST matching PATTERN that
# NEW did not hold (vectors no longer generated) are removed, and NEW (then empty) is removed.
# NEW must be on DEST's file system: the GNUmakefile builds it beside DEST.
set -eu
new=$1 dest=$2 prune=
if [ $# -ge 4 ] && [ "$3" = --prune ]; then prune=$4; fi
[ -d "$new" ] || { echo "swapin.sh: '$new' is not a folder" >&2; exit 2; }
mkdir -p "$dest"
stale=
if [ -n "$prune" ]; then
	for f in "$dest"/$prune; do
		[ -e "$f" ] || continue
		[ -e "$new/${f##*/}" ] || stale="$stale ${f##*/}"
	done
fi
for f in "$new"/* "$new"/.[!.]*; do
	[ -e "$f" ] || continue
	mv -f "$f" "$dest/"
done
for s in $stale; do
	rm -f "$dest/$s"
done
rmdir "$new"
