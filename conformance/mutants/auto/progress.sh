# SPDX-License-Identifier: BSD-3-Clause
# progress.sh — the progress counter of run.sh (sourced), the shell form of conformance/progress.c:
# on stderr, on a terminal one line redrawn every second, elsewhere that line every PROGRESS_S
# seconds (default 5); the last count on a line of its own at the end; nothing when quiet. The
# line: "mutants-auto: PROTOCOL: 12/40 mutants, 2 surviving, 0.4 mutants/s" — the mutants judged (their
# OUT/P/mN/verdict written by one.sh) of those sampled, of them the ones that survived the
# vectors and the whole suite, the mutants judged per second since the start (of a resumed run:
# those judged since it was resumed).

# progress_count DIR: "DONE SURVIVING" from the verdict files DIR/m*/verdict.
progress_count() {
	cat "$1"/m*/verdict 2>/dev/null | awk -F'\t' '{ n++ } $1 == "survived" { s++ } END { print n + 0, s + 0 }'
}

# progress_line LABEL DONE TOTAL SURVIVING SECONDS [BEFORE]: the line; BEFORE: the mutants judged
# before the start (a resumed run), not counted in the rate.
progress_line() {
	awk -v l="$1" -v d="$2" -v t="$3" -v s="$4" -v e="$5" -v b="${6:-0}" \
		'BEGIN { printf "mutants-auto: %s: %d/%d mutants, %d surviving, %.1f mutants/s\n", l, d, t, s, (e > 0 ? (d - b) / e : 0) }'
}

# progress_show LABEL DIR TOTAL START END: the line of DIR now (START: date +%s when it began),
# redrawn on a terminal; END 1: the last one, its line ended.
progress_show() {
	set -- "$1" "$2" "$3" "$4" "$5" $(progress_count "$2")
	progress_text=$(progress_line "$1" "$6" "$3" "$7" $(($(date +%s) - $4)) "${progress_before:-0}")
	if [ -t 2 ]; then
		printf '\r\033[K%s' "$progress_text" >&2
		[ "$5" = 1 ] && printf '\n' >&2
	else
		printf '%s\n' "$progress_text" >&2
	fi
	return 0
}

# progress_watch LABEL DIR TOTAL START: a line every second on a terminal, every PROGRESS_S
# seconds elsewhere, until every mutant is judged (or the caller kills it).
progress_watch() {
	progress_every=${PROGRESS_S:-5}
	[ -t 2 ] && progress_every=1
	while :; do
		sleep "$progress_every"
		set -- "$1" "$2" "$3" "$4" $(progress_count "$2")
		[ "$5" -ge "$3" ] && return 0   # the last line is progress_stop's
		progress_show "$1" "$2" "$3" "$4" 0
	done
}

# progress_start LABEL DIR TOTAL QUIET: the watcher in the background (its PID in progress_pid),
# none when QUIET is 1; the mutants DIR holds judged already in progress_before.
progress_start() {
	progress_pid= progress_start_s=$(date +%s)
	set -- "$1" "$2" "$3" "$4" $(progress_count "$2")
	progress_before=$5
	[ "$4" = 1 ] && return 0
	progress_watch "$1" "$2" "$3" "$progress_start_s" &
	progress_pid=$!
}

# progress_stop LABEL DIR TOTAL QUIET: the watcher ended, the last count written.
progress_stop() {
	[ "$4" = 1 ] && return 0
	[ -n "$progress_pid" ] && { kill "$progress_pid" 2>/dev/null; wait "$progress_pid" 2>/dev/null; }
	progress_pid=
	progress_show "$1" "$2" "$3" "$progress_start_s" 1
}
