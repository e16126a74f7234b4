#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# check-clauses.sh — one protocol's clause list (coverage/clauses/NAME.txt)
# and the TC_CLAUSE markers of that protocol's reference sources must list
# the same clauses (coverage/README.md).
# usage: coverage/check-clauses.sh CLAUSES SOURCE.c...
# A marked id that is not listed, a listed clause that is not marked, an id
# marked twice, a malformed line: each is reported; the exit status is 1.
if [ $# -lt 2 ]; then
	echo "usage: $0 CLAUSES SOURCE.c..." >&2
	exit 2
fi
list=$1
shift
for f in "$list" "$@"; do
	[ -r "$f" ] || { echo "check-clauses: cannot read '$f'" >&2; exit 2; }
done
# Markers: "plain ID FILE:LINE" or "case PREFIX FILE:LINE", one per string
# (ids hold no blanks).
grep -n 'TC_CLAUSE\(_CASE\)\{0,1\}(' "$@" /dev/null | awk '
{
	split($0, part, ":"); loc = part[1] ":" part[2]
	kind = ($0 ~ /TC_CLAUSE_CASE\(/) ? "case" : "plain"
	rest = $0
	while (match(rest, /"[^"]*"/)) {
		print kind, substr(rest, RSTART + 1, RLENGTH - 2), loc
		rest = substr(rest, RSTART + RLENGTH)
	}
}' > "${TMPDIR:-/tmp}/tc-markers.$$"
awk -v list="$list" '
function err(msg) { print "check-clauses: " msg > "/dev/stderr"; bad = 1 }
FNR == NR {                                   # the markers
	kind = $1; id = $2; loc = $3
	if (id in markloc)
		err(loc ": \"" id "\" is already marked at " markloc[id] " (one marker line per clause)")
	markloc[id] = loc; markkind[id] = kind; nmark++
	if (kind == "plain" && index(id, ":"))
		err(loc ": \"" id "\": a TC_CLAUSE id has no \":ARM\" (use TC_CLAUSE_CASE)")
	next
}
/^[ \t]*(#|$)/ { next }                       # the list
{
	n = split($0, f, / \| /)
	if (n != 3) { err(list ":" FNR ": expected ID | CHECK | TITLE"); next }
	id = f[1]; chk = f[2]
	if (chk !~ /^(L1|L2|L3|never)$/) err(list ":" FNR ": CHECK is L1, L2, L3 or never, not \"" chk "\"")
	if (f[3] ~ /^[ \t]*$/) err(list ":" FNR ": the title is empty")
	if (id in listed) err(list ":" FNR ": \"" id "\" is listed twice")
	listed[id] = FNR; nlist++
	c = index(id, ":")
	if (c) {
		prefix = substr(id, 1, c - 1); arm = substr(id, c + 1)
		armof[prefix]++; narm++
		armline[id] = FNR
		if (arm != "otherwise") {
			m = split(arm, item, ",")
			for (i = 1; i <= m; i++)
				if (item[i] !~ /^'\''[01x]+'\''$/ && item[i] !~ /^[A-Za-z][A-Za-z0-9_]*$/)
					err(list ":" FNR ": arm item \"" item[i] "\" is neither a quoted bit pattern nor a name")
		}
	}
}
END {
	for (id in listed) {
		c = index(id, ":")
		if (c) {
			prefix = substr(id, 1, c - 1)
			if (!(prefix in markkind)) err(list ":" listed[id] ": \"" id "\": no TC_CLAUSE_CASE marks \"" prefix "\"")
			else if (markkind[prefix] != "case") err(list ":" listed[id] ": \"" id "\": \"" prefix "\" is marked by TC_CLAUSE, not TC_CLAUSE_CASE (" markloc[prefix] ")")
		} else if (!(id in markkind)) {
			err(list ":" listed[id] ": \"" id "\" is listed but no TC_CLAUSE marks it")
		}
	}
	for (id in markkind) {
		if (markkind[id] == "plain" && !(id in listed))
			err(markloc[id] ": \"" id "\" is marked but not listed in " list)
		if (markkind[id] == "case" && !(id in listed) && !(id in armof))
			err(markloc[id] ": case \"" id "\" is marked but neither it nor an arm of it is listed in " list)
	}
	if (!bad)
		printf "check-clauses: %s: %d clauses (%d of them case arms), %d markers: list and code agree\n", list, nlist, narm, nmark
	exit bad
}' "${TMPDIR:-/tmp}/tc-markers.$$" "$list"
rc=$?
rm -f "${TMPDIR:-/tmp}/tc-markers.$$"
exit $rc
