#!/usr/bin/env bash
# The one command that runs the simnpu benchmarks (see bench/README.md):
#
#   1. builds simnpu as a release (RelWithDebInfo, no sanitizers, no tests)
#      into its own build folder and installs it into a prefix inside it;
#   2. builds bench/project (the benchmark kernels and host programs) against
#      that install with the installed ascendc.cmake, as a CANN user would;
#   3. runs the machine limits first, then every benchmark, and prints the
#      table (markdown) and writes the JSON, markdown and raw log.
#
# Usage: bench/run.sh [RESULTS.json] [--quick] [--update-readme] [--no-build] [--only step,step]
#   RESULTS.json      where to write the JSON (default bench/results/<UTC timestamp>.json;
#                     the .md table and the .log of raw output go next to it)
#   --quick           fewer samples and sizes (a smoke run)
#   --update-readme   also rewrite the "Latest results" sections of bench/README.md and README.md
#   --no-build        reuse the existing build (after a first full run)
#   --only a,b        run only these steps (names as printed, e.g. limits,launch)
# Environment: SIMNPU_BENCH_BUILD_DIR (default <repo>/build/bench-release),
#              SIMNPU_BENCH_JOBS (parallel build jobs, default 2).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$(cd "$here/.." && pwd)"
build="${SIMNPU_BENCH_BUILD_DIR:-$src/build/bench-release}"
jobs="${SIMNPU_BENCH_JOBS:-2}"
prefix="$build/bench-prefix"
project="$build/bench-project"

out=""
py_args=()
do_build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) py_args+=(--quick) ;;
    --update-readme) py_args+=(--readme "$here/README.md" --readme "$src/README.md") ;;
    --no-build) do_build=0 ;;
    --only) shift; py_args+=(--only "$1") ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) out="$1" ;;
  esac
  shift
done
[ -n "$out" ] && py_args+=(--out "$out")

for v in $(env | sed -n 's/^\(SIMNPU_[A-Z0-9_]*\)=.*/\1/p'); do
  echo "run.sh: note: $v=${!v} is set in the environment and applies to every benchmark" >&2
done

start=$(date +%s)
if [ "$do_build" = 1 ]; then
  echo "[run.sh] release build of simnpu in $build" >&2
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIMNPU_SANITIZE= \
    -DSIMNPU_BUILD_TESTS=OFF -DSIMNPU_BUILD_BENCH=ON -DSIMNPU_WERROR=OFF >/dev/null
  ninja -C "$build" -j"$jobs" >"$build/bench-build.log" 2>&1 || { tail -30 "$build/bench-build.log" >&2; exit 1; }
  rm -rf "$prefix"
  cmake --install "$build" --prefix "$prefix" >/dev/null
fi

# Everything below sees simnpu exactly as a CANN user does.
# shellcheck disable=SC1091
source "$prefix/set_env.sh"
export ASCENDC_CMAKE_DIR="$ASCEND_HOME_PATH/tikcpp/ascendc_kernel_cmake"
export SOC_VERSION="${SOC_VERSION:-Ascend910B1}"
if [ "$do_build" = 1 ]; then
  echo "[run.sh] benchmark project against $prefix" >&2
  cmake -S "$here/project" -B "$project" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/bench-project.log" 2>&1 \
    || { tail -30 "$build/bench-project.log" >&2; exit 1; }
  ninja -C "$project" -j"$jobs" >>"$build/bench-project.log" 2>&1 || { tail -30 "$build/bench-project.log" >&2; exit 1; }
  echo "[run.sh] built in $(( $(date +%s) - start )) s" >&2
fi

rc=0
python3 "$here/bench.py" \
  --limits "$build/bench/simnpu_bench_limits" \
  --acl "$project/bench_acl" \
  --baseline "$project/bench_baseline" \
  --vector "$project/bench_vector" \
  --cube "$project/bench_cube" \
  --adv "$project/bench_adv" \
  --graph "$project/bench_graph" \
  --aclnn "$project/bench_aclnn" \
  --ipc "$build/bench/simnpu_bench_ipc" \
  --project-build "$project" \
  "${py_args[@]}" || rc=$?
echo "[run.sh] finished in $(( $(date +%s) - start )) s" >&2
exit $rc
