#!/bin/sh
# suite-certificate.sh BUILD_DIR — the certificate of the suite itself (Markdown on stdout): how many
# vectors it has per folder and its mutant kill rate (from BUILD_DIR/certify/suite/mutants.txt,
# written by conformance/mutants/run.sh), so a reader can judge how much a pass means.
build=${1:-build}
echo "# tracecert certificate of the suite itself"
echo
echo "## Vectors"
echo
echo "| folder | vectors |"
echo "|---|---|"
for d in vectors/*/*/; do   # every protocol's folders
	printf '| %s | %s |\n' "${d%/}" "$(ls "$d"*.tcv 2>/dev/null | wc -l)"
done
echo
echo "## Mutant kill rate"
echo
echo "Each mutant is one realistic decoder fault applied to a copy of the reference"
echo "(conformance/mutants/); it counts as killed only by a failing comparison while"
echo "it still passes other vectors. Runs stop at the first kill (\`make mutants\` runs"
echo "every vector)."
echo
if [ -f "$build/certify/suite/mutants.txt" ]; then
	echo '```'
	cat "$build/certify/suite/mutants.txt"
	echo '```'
else
	echo "(no kill table: run make certify)"
fi
