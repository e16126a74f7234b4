# SPDX-License-Identifier: BSD-3-Clause
# Code, documents and vectors cite a specification by document and section ("K10.5.2.8.5
# CancelFormat2Packet()", "IHI 0035B §4.5.4"), never by something a user of a clone or an installed
# copy does not have: a path outside the repository (../shared/…), the project's undistributed
# notes ("notes §3.4", "(notes §1)", "research notes", "reconstruction notes") or its design
# documents (DESIGN.md, STYLE.md). Every text file of the tree is searched but build/, .git and this
# script.
. tests/lib/tap.sh
# no_pointers PATTERN: no line of the tree's text files matches the extended regular expression
# (those that do are printed).
no_pointers() {
  ! find . \( -path ./build -o -path ./.git -o -path ./tests/citations.t \) -prune -o -type f -print0 |
    xargs -0 grep -I -n -E -- "$1"
}
# catches PATTERN LINE: the pattern matches the line.
catches() { printf '%s\n' "$2" | grep -q -E -- "$1"; }
check "the tree has text files to search" sh -c "test \$(find . -path ./build -prune -o -name '*.md' -print | wc -l) -gt 10"
# Each pattern (NAME, an extended regular expression, a line it must catch, tab-separated) is first
# shown to catch its line, so that a pattern that matches nothing cannot pass.
while IFS='	' read -r name pattern sample; do
  check "the pattern for $name catches its example" catches "$pattern" "$sample"
  check "no file points at what users lack: $name" no_pointers "$pattern"
done <<'EOF'
a path to ../shared	\.\./shared	see ../shared/spec/ete-trace-decompressor-K10.5.txt
a path into shared/notes or shared/spec	\bshared/(notes|spec)/	in /work/shared/notes/ete-errata.md
a section of the notes	\bnotes §	reassembled as in the notes §3.4
a parenthesised pointer to the notes	\(notes §	without declaring (notes §1)
research, reconstruction or the project's notes	\b(research|reconstruction|project.s) notes\b	read (research notes: capture formats)
something not distributed	\bnot distributed\b	the reconstruction notes of that appendix (not distributed)
the design documents	\b(DESIGN|STYLE)\.md\b	| reason | DESIGN.md |
EOF
tap_done
