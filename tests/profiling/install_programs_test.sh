#!/usr/bin/env bash
# Builds install_user_prog.cpp against the staged install with the link line
# of the CANN profiling/adump samples and runs it; then checks its trace has
# the msproftx and mstx events.
# usage: install_programs_test.sh STAGE SOURCE WORK
set -uo pipefail
STAGE="${1:?}"
SRC="${2:?}"
WORK="${3:?}"
command -v g++ >/dev/null 2>&1 || { echo "SKIP: no g++"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
ARCH="$(uname -m)-linux"
if ! g++ -std=c++17 -O1 -Wall -Wextra -Werror -I"$STAGE/include" -I"$STAGE/$ARCH/pkg_inc" "$SRC" -o prog \
    -L"$STAGE/lib64" -lascendcl -lmsprofiler -lprofapi -lascend_dump -lc_sec -ldl -lpthread; then
  echo "FAIL - the program does not build against the install"
  exit 1
fi
# mstx needs its injection library (msprof sets this for programs it runs).
if ! LD_LIBRARY_PATH="$STAGE/lib64" MSTX_INJECTION_PATH="$STAGE/lib64/libprofapi.so" ./prog; then
  echo "FAIL - the program failed"
  exit 1
fi
TRACE="$(ls output/PROF_*/mindstudio_profiler_output/msprof_*.json 2>/dev/null | head -n 1)"
[ -n "$TRACE" ] || { echo "FAIL - no trace under ./output"; exit 1; }
for name in '"name":"step"' '"name":"mstx range"' '"name":"mstx mark"' '"name":"step start"'; do
  grep -qF "$name" "$TRACE" || { echo "FAIL - $name missing from $TRACE"; exit 1; }
done
echo "ok - built, ran, trace has msproftx and mstx events"
