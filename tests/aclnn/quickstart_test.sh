#!/usr/bin/env bash
# Builds tests/aclnn/quickstart against a CANN-shaped install, in a clean
# environment made only of the install's set_env.sh, runs it and checks its
# output (self {0..7} + 1.2 * other {1,1,1,2,2,2,3,3}); then runs it again
# under SIMNPU_PROFILE (what msprof sets) and checks that the operator's
# kernel is in the profile's op summary; and once more with the add captured
# into a task graph and the graph executed (same output).
# Usage: quickstart_test.sh <install> <source dir> <build dir>
set -euo pipefail
install="$1"
src="$2"
build="$3"
keep_path="/usr/local/bin:/usr/bin:/bin"
for tool in cmake g++ c++ ninja make; do
  p="$(command -v "$tool" 2>/dev/null)" || continue
  keep_path="$keep_path:$(dirname "$p")"
done
rm -rf "$build"
mkdir -p "$build"
env -i PATH="$keep_path" HOME="${HOME:-/tmp}" LANG=C bash -c "
  set -e
  source '$install/set_env.sh'
  cmake -S '$src' -B '$build' >'$build/configure.log' 2>&1 || { cat '$build/configure.log'; exit 1; }
  cmake --build '$build' >'$build/build.log' 2>&1 || { cat '$build/build.log'; exit 1; }
  '$build/quickstart' >'$build/out.txt' 2>&1
  '$build/quickstart' graph >'$build/out_graph.txt' 2>&1
"
cat "$build/out.txt"
expected="result[0] = 1.200000
result[1] = 2.200000
result[2] = 3.200000
result[3] = 5.400000
result[4] = 6.400000
result[5] = 7.400000
result[6] = 9.600000
result[7] = 10.600000"
if [ "$(cat "$build/out.txt")" != "$expected" ]; then
  echo "FAIL: unexpected output"
  exit 1
fi
if [ "$(cat "$build/out_graph.txt")" != "$expected" ]; then
  echo "FAIL: unexpected output with the add in a task graph:"
  cat "$build/out_graph.txt"
  exit 1
fi
rm -rf "$build/prof"
env -i PATH="$keep_path" HOME="${HOME:-/tmp}" LANG=C bash -c "
  set -e
  source '$install/set_env.sh'
  SIMNPU_PROFILE='$build/prof' SIMNPU_PROFILE_QUIET=1 '$build/quickstart' >/dev/null 2>&1
"
summary="$(ls "$build"/prof/PROF_*/mindstudio_profiler_output/op_summary_*.csv 2>/dev/null | head -1)"
if [ -z "$summary" ] || ! grep -q ',aclnn_add_f32,AI_CORE,' "$summary"; then
  echo "FAIL: aclnn_add_f32 is not in the profile's op summary (${summary:-no op_summary})"
  exit 1
fi
echo "PASS"
