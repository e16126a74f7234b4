#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# spdx.sh — the licence identifier of every source file: the SPDX tag of BSD-3-Clause (LICENSE) in
# one of its first five lines (an assembler file: its last five), written in the file's own
# comment syntax.
#
#   spdx.sh --check [DIR]   list the source files of DIR (default: the tree this script is in) that
#                           lack it, one path a line relative to DIR; exit 1 when there is one
#   spdx.sh --apply [DIR]   add it to each of them, as its first line (after a #! line; an assembler
#                           file's last line: their lines are cited as FILE:LINE); list them
#   spdx.sh --list [DIR]    list every file counted as source, with the comment syntax it gets
#
# Source: what people write and the build runs — C (.c .h), assembler (.S .s .inc: the leader of the
# file's first comment line, @ // or #, else /* */, which GNU as reads on every target), shell,
# make, Python, YAML, the pkg-config template (.in), Dockerfile, GNUmakefile, and every file without
# an extension whose first line is #!. Not source, left alone: data and documents — vectors (.tcv),
# images and corpora (.bin .elf, fuzz/corpus/), tables (.tsv .txt .ini .dict), patches (.patch:
# the mutants' and floor builds' diffs, whose text patch(1) reads), Markdown, VERSION, LICENSE,
# NEWS — and the folders .git and build* (in a git work tree, what .gitignore ignores too). A
# source file with another SPDX-License-Identifier is reported and never changed (exit 1).
set -eu
ID='SPDX-License-Identifier: BSD-3-Clause'
usage() { echo "usage: $0 --check|--apply|--list [DIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
mode=$1
case $mode in --check|--apply|--list) ;; *) usage ;; esac
dir=${2:-$(dirname "$0")/..}
[ -d "$dir" ] || { echo "$0: $dir is not a folder" >&2; exit 2; }
cd "$dir"

# comment_style FILE: sets style to c (a /* */ line), hash (#), at (@), slashes (//), or to nothing
# when FILE is not source.
comment_style() {
	style=
	case ${1##*/} in
	*.c|*.h) style=c ;;
	*.S|*.s|*.inc)
		read -r first < "$1" || :
		case $first in
		'@'*) style=at ;; '//'*) style=slashes ;; '#'*) style=hash ;; *) style=c ;;
		esac ;;
	*.sh|*.t|*.mk|*.py|*.bash|*.yml|*.yaml|*.in|Dockerfile|GNUmakefile) style=hash ;;
	*.*|VERSION|LICENSE|NEWS) ;;
	*)	read -r first < "$1" || :
		case $first in '#!'*) style=hash ;; esac ;;
	esac
}

# The candidate files, sorted, relative to DIR: in a git work tree whose top DIR is, its files and
# those git does not ignore (.gitignore); elsewhere (a release tarball, a copy) every file.
files() {
	if command -v git > /dev/null 2>&1 && top=$(git rev-parse --show-toplevel 2> /dev/null) &&
	   [ "$top" = "$(pwd -P)" ]; then
		git ls-files --cached --others --exclude-standard
	else
		find . \( -path ./.git -o -path './build*' \) -prune -o -type f -print | sed 's|^\./||'
	fi | grep -v -e '^\.git/' -e '^build' -e '^fuzz/corpus/' | LC_ALL=C sort -u
}

# ID_LINE: a comment line (any of the syntaxes above) that is this tag and nothing else; TAG_LINE:
# a comment line that starts an SPDX tag, of any licence.
ID_LINE='^[[:space:]]*(#|//|@|/[*])[[:space:]]*SPDX-License-Identifier: BSD-3-Clause[[:space:]]*([*]/)?[[:space:]]*$'
TAG_LINE='^[[:space:]]*(#|//|@|/[*])[[:space:]]*SPDX-License-Identifier:'
# The state of each source file (one awk over them all): has (the identifier, a line of its own, in
# its first or last five lines), other (another SPDX tag there) or lacks (an empty file too); input
# STYLE<TAB>PATH, output STATE<TAB>STYLE<TAB>PATH.
id_states() {
	cut -f2 "$1" | tr '\n' '\0' | xargs -0 awk -v idline="$ID_LINE" -v tag="$TAG_LINE" '
		function done_file() {
			if (f == "") return
			st = (first_id && (first_id <= 5 || last_id > n - 5)) ? "has" : \
			     (first_other && (first_other <= 5 || last_other > n - 5)) ? "other" : "lacks"
			print st "\t" f
		}
		FNR == 1 { done_file(); f = FILENAME; first_id = last_id = first_other = last_other = 0 }
		{ n = FNR }
		$0 ~ idline { if (!first_id) first_id = FNR; last_id = FNR; next }
		$0 ~ tag { if (!first_other) first_other = FNR; last_other = FNR }
		END { done_file() }' |
	awk -F '\t' 'NR == FNR { state[$2] = $1; next } { print ($2 in state ? state[$2] : "lacks") "\t" $1 "\t" $2 }' - "$1"
}

# add_id FILE STYLE: the identifier as the first line, or the second after a #! line; in an
# assembler file (.S .s .inc) as the last line, so that no instruction's line moves: the tables'
# rows (reference/test/*/*.tsv) and the vectors made from them cite them as FILE:LINE.
add_id() {
	case $2 in
	c) line="/* $ID */" ;; hash) line="# $ID" ;; at) line="@ $ID" ;; slashes) line="// $ID" ;;
	esac
	tmpf=$(mktemp)
	case $1 in
	*.S|*.s|*.inc)
		{ cat "$1"; [ ! -s "$1" ] || [ -z "$(tail -c 1 "$1")" ] || echo; printf '%s\n' "$line"; } > "$tmpf" ;;
	*)	if [ "$(head -c 2 "$1")" = '#!' ]; then
			{ sed -n '1p' "$1"; printf '%s\n' "$line"; sed '1d' "$1"; } > "$tmpf"
		else
			{ printf '%s\n' "$line"; cat "$1"; } > "$tmpf"
		fi ;;
	esac
	cat "$tmpf" > "$1"        # the file keeps its mode
	rm -f "$tmpf"
}

list="${TMPDIR:-/tmp}/spdx.$$"
trap 'rm -f "$list"' EXIT
files | while IFS= read -r f; do
	[ -f "$f" ] || continue           # a tracked file deleted from the work tree
	comment_style "$f"
	[ -z "$style" ] || printf '%s\t%s\n' "$style" "$f"
done > "$list"
if [ "$mode" = --list ]; then
	cat "$list"
	exit 0
fi
[ -s "$list" ] || exit 0
rc=0
id_states "$list" | LC_ALL=C sort -t "$(printf '\t')" -k3 > "$list.states"
trap 'rm -f "$list" "$list.states"' EXIT
while IFS="$(printf '\t')" read -r state style f; do
	case $state in
	has) continue ;;
	other) echo "$0: $f: another SPDX-License-Identifier; not changed" >&2; rc=1; continue ;;
	esac
	echo "$f"
	if [ "$mode" = --apply ]; then
		add_id "$f" "$style"
	else
		rc=1
	fi
done < "$list.states"
exit $rc
