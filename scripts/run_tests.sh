#!/usr/bin/env bash
# Builds and runs every test: the full suite in a debug build, then again
# under AddressSanitizer + UndefinedBehaviorSanitizer and under
# ThreadSanitizer (tests that drive separately built programs against the
# staged install are not instrumented and run only in the debug build).
#   SIMNPU_TEST_SANITIZERS=0   skip the sanitizer builds
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$repo/scripts/setup.sh"
cd "$repo"
jobs=2

run_preset() {
  local preset="$1"; shift
  echo "[simnpu] === $preset: configure and build ==="
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "[simnpu] === $preset: test ==="
  ctest --preset "$preset" -j "$jobs" "$@"
}

start=$(date +%s)
run_preset debug
if [ "${SIMNPU_TEST_SANITIZERS:-1}" != 0 ]; then
  run_preset asan-ubsan -LE "install|sample|stage"
  run_preset tsan -LE "install|sample|stage"
fi
echo "[simnpu] all tests passed in $(( $(date +%s) - start )) s"
