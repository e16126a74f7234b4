#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# swapin.sh — puts folders that `make vectors` built in full in place of those they replace, whole.
# usage: SWAPDIR=PROGRAM tools/swapin.sh NEW DEST [--prune PATTERN] [--and NEW DEST [--prune PATTERN]]...
# Each NEW is first completed with what its DEST keeps: every file or folder of DEST that NEW does not
# hold is copied into it, except, with --prune, those matching PATTERN (vectors no longer generated).
# Then PROGRAM (build/swapdir: renameat2 RENAME_EXCHANGE) exchanges each NEW and DEST in one step, the
# pairs given with --and one right after the other in one process that blocks every signal it can
# (a pair of folders made from one run of a program, such as a protocol's neg and warn vectors, is never
# left half new by SIGINT or SIGTERM), and the old folders, now at the NEW names, are removed. So at
# every instant each DEST is the old folder or the new one, each complete: an interruption before the
# exchange leaves the old ones, after it the new ones (and the old ones under the NEW names, '.'
# folders every vector lister skips, which the next run removes). Each NEW must be on its DEST's file
# system: the GNUmakefile builds it beside DEST. A DEST that does not exist is made empty first.
set -eu
swapdir=${SWAPDIR:?swapin.sh: SWAPDIR names the program that exchanges two folders (build/swapdir)}
pairs=
# complete_from NEW DEST PRUNE: NEW given what DEST keeps.
complete_from() {
	[ -d "$1" ] || { echo "swapin.sh: '$1' is not a folder" >&2; exit 2; }
	[ -e "$2" ] || mkdir "$2"
	for f in "$2"/* "$2"/.[!.]* "$2"/..?*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		[ -e "$1/$name" ] && continue
		# shellcheck disable=SC2254 # PATTERN is a pattern
		if [ -n "$3" ]; then case $name in $3) continue ;; esac; fi
		cp -pR "$f" "$1/$name"
	done
}
while [ $# -ge 2 ]; do
	new=$1 dest=$2 prune=
	shift 2
	if [ $# -ge 2 ] && [ "$1" = --prune ]; then prune=$2; shift 2; fi
	complete_from "$new" "$dest" "$prune"
	pairs="$pairs $new $dest"
	if [ $# -ge 1 ] && [ "$1" = --and ]; then shift; elif [ $# -ne 0 ]; then
		echo "swapin.sh: unexpected '$1' (usage: NEW DEST [--prune PATTERN] [--and NEW DEST ...])" >&2; exit 2
	fi
done
[ -n "$pairs" ] || { echo "swapin.sh: usage: NEW DEST [--prune PATTERN] [--and NEW DEST ...]" >&2; exit 2; }
# shellcheck disable=SC2086 # the pairs are paths the GNUmakefile gives, without blanks
"$swapdir" $pairs
# shellcheck disable=SC2086
set -- $pairs
while [ $# -ge 2 ]; do rm -rf "$1"; shift 2; done
