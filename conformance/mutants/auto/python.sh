#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# python.sh — prints a python3 that has libclang's bindings (clang.cindex): PYTHON if set,
# else python3, else /usr/bin/python3 (Debian's, where apt-get puts python3-clang). Exit
# status 2 and a line saying how to get them when none has.
for py in ${PYTHON:-} python3 /usr/bin/python3; do
	if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import clang.cindex' >/dev/null 2>&1; then
		command -v "$py"
		exit 0
	fi
done
echo "mutants-auto: no python3 with clang.cindex: apt-get install python3-clang (libclang 14)" >&2
exit 2
