# Tiny assertion helpers for the install tests (bash). Source it, call the
# checks, end with t_done (exit 0 if all passed, 1 otherwise).
T_FAILS=0
T_CHECKS=0

t_ok() { T_CHECKS=$((T_CHECKS + 1)); echo "ok   - $*"; }
t_fail() { T_CHECKS=$((T_CHECKS + 1)); T_FAILS=$((T_FAILS + 1)); echo "FAIL - $*"; }

# t_eq EXPECTED ACTUAL WHAT
t_eq() {
  if [ "$1" = "$2" ]; then t_ok "$3"; else t_fail "$3: expected '$1', got '$2'"; fi
}

# t_true WHAT CMD...: passes when CMD succeeds.
t_true() {
  local what="$1"
  shift
  if "$@"; then t_ok "$what"; else t_fail "$what"; fi
}

t_done() {
  echo "# $T_CHECKS checks, $T_FAILS failed"
  if [ "$T_FAILS" -eq 0 ]; then exit 0; fi
  exit 1
}

# t_workdir: sets WORK to a fresh temporary directory that is removed at exit.
t_workdir() {
  WORK="$(mktemp -d /tmp/simnpu_install_test.XXXXXX)"
  trap 'rm -rf "$WORK"' EXIT
}
