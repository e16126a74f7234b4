# SPDX-License-Identifier: BSD-3-Clause
# tree.sh — what run.sh (sourced) asks git before it resumes or rechecks a run: whether the tree
# differs from the run's commit in what the verdicts depend on.

# measured_changes COMMIT: "STATUS<TAB>PATH" of every path the verdicts depend on that differs
# from COMMIT in the working tree (git diff's letters; ? untracked): reference/, vectors/,
# encoder/, conformance/ and the unit tests' arguments (tests/unit_*.t, read by suite.sh), but
# for the scripts and lists that only write or classify verdicts or count them, and the vectors'
# README files.
measured_changes() {
	set -- "$1" reference vectors encoder conformance ':(glob)tests/unit_*.t' \
		':(exclude)conformance/mutants/auto/tree.sh' ':(exclude)conformance/mutants/auto/progress.sh' \
		':(exclude)conformance/mutants/auto/run.sh' ':(exclude)conformance/mutants/auto/report.sh' \
		':(exclude)conformance/mutants/auto/keep.sh' ':(exclude)conformance/mutants/auto/equivalent.txt' \
		':(exclude)conformance/mutants/auto/unscored.txt' ':(exclude)conformance/mutants/auto/unreachable.txt' \
		':(exclude)conformance/mutants/auto/measured.md' ':(exclude)conformance/mutants/auto/runs' \
		':(exclude,glob)vectors/**/README.md'
	c=$1
	shift
	git diff --name-status "$c" -- "$@" || return 1
	git ls-files --others --exclude-standard -- "$@" | sed 's/^/?	/'
}
