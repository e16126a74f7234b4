#!/bin/sh
# swapin.sh — puts a folder that `make vectors` built in full in place of the one it replaces, whole.
# usage: SWAPDIR=PROGRAM tools/swapin.sh NEW DEST [--prune PATTERN]
# NEW is first completed with what DEST keeps: every file or folder of DEST that NEW does not hold is
# copied into it, except, with --prune, those matching PATTERN (vectors no longer generated). Then
# PROGRAM (build/swapdir: renameat2 RENAME_EXCHANGE) exchanges NEW and DEST in one step, and the old
# folder, now at NEW's name, is removed. So at every instant DEST is the old folder or the new one,
# each complete: an interruption before the exchange leaves the old one, after it the new one (and
# the old one under NEW's name, a '.' folder every vector lister skips, which the next run removes).
# NEW must be on DEST's file system: the GNUmakefile builds it beside DEST. A DEST that does not
# exist is NEW renamed.
set -eu
new=$1 dest=$2 prune=
if [ $# -ge 4 ] && [ "$3" = --prune ]; then prune=$4; fi
swapdir=${SWAPDIR:?swapin.sh: SWAPDIR names the program that exchanges two folders (build/swapdir)}
[ -d "$new" ] || { echo "swapin.sh: '$new' is not a folder" >&2; exit 2; }
if [ ! -e "$dest" ]; then
	mv "$new" "$dest"
	exit 0
fi
for f in "$dest"/* "$dest"/.[!.]* "$dest"/..?*; do
	[ -e "$f" ] || continue
	name=${f##*/}
	[ -e "$new/$name" ] && continue
	# shellcheck disable=SC2254 # PATTERN is a pattern
	if [ -n "$prune" ]; then case $name in $prune) continue ;; esac; fi
	cp -pR "$f" "$new/$name"
done
"$swapdir" "$new" "$dest"
rm -rf "$new"
