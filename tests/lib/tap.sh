# tap.sh — sourced by the shell tests: a TAP version 13 stream of `check` results, a temporary
# folder removed on exit. After sourcing: check DESCRIPTION COMMAND... (the command must
# succeed), then `tap_done` at the end (prints the plan, exits 1 if any check failed).
n=0; fail=0
check() {
  n=$((n+1)); d="$1"; shift
  if "$@" >/dev/null 2>&1; then echo "ok $n - $d"; else echo "not ok $n - $d"; fail=1; fi
}
tap_done() {
  echo "1..$n"
  exit $fail
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "TAP version 13"
