# SPDX-License-Identifier: BSD-3-Clause
# tap.sh — sourced by the shell tests: a TAP version 13 stream of `check` results, a temporary
# folder removed on exit. After sourcing: check DESCRIPTION COMMAND... (the command must exit 0;
# a check that fails prints the first 20 lines of the command's output as TAP diagnostics), then
# `tap_done` at the end (prints the plan, exits 1 if any check failed).
n=0; fail=0
check() {
  n=$((n+1)); d="$1"; shift
  if "$@" >"$tmp/.check.out" 2>&1; then
    echo "ok $n - $d"
  else
    echo "not ok $n - $d"; fail=1
    sed -n '1,20s/^/# /p' "$tmp/.check.out"
  fi
}
tap_done() {
  echo "1..$n"
  exit $fail
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
# The protocols of the build (PROTOCOLS of GNUmakefile), and those of them with an encoder
tc_protocols() { sed -n 's/^PROTOCOLS := //p' GNUmakefile; }
# (encoder/P/*.c, less those with encoder/P/HELD: ENC_PROTOCOLS of GNUmakefile), each a blank-separated list.
tc_enc_protocols() { for p in $(tc_protocols); do [ -f encoder/$p/HELD ] && continue; ls encoder/$p/*.c >/dev/null 2>&1 && printf '%s\n' "$p"; done | tr '\n' ' ' | sed 's/ $//'; }
