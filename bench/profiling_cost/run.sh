#!/usr/bin/env bash
# Profiling cost benchmark (issue 12, item 4): launch throughput and latency
# of an empty kernel with the profiling sites compiled out, compiled in but
# off, and on (SIMNPU_PROFILE recording everything), measured in the same
# run with the variants interleaved, as ratios of their medians.
#
#   bench/profiling_cost/run.sh [--rounds N] [--no-build] [--out FILE.json]
#                               [--before-lib DIR] [--instructions]
#
# Builds (unless --no-build): the regular benchmark build of bench/run.sh
# (build/bench-release: release install + bench/project) if it is missing,
# and a second release build of libacl_rt.so with -DSIMNPU_TRACE_SITES=OFF
# in build/bench-nosites. The same bench_acl binary then runs against either
# library through LD_LIBRARY_PATH. Not part of CI (it builds simnpu twice).
# --before-lib DIR adds the off and on rows of another libacl_rt.so (say, the
# main branch's before a change) to the same interleaved rounds.
# --instructions adds the instructions per launch of each variant, counted
# under callgrind (valgrind; independent of the machine's load).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$(cd "$here/../.." && pwd)"
build="${SIMNPU_BENCH_BUILD_DIR:-$src/build/bench-release}"
nosites="${SIMNPU_BENCH_NOSITES_DIR:-$src/build/bench-nosites}"
jobs="${SIMNPU_BENCH_JOBS:-2}"
rounds=5
do_build=1
out=""
before=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) shift; rounds="$1" ;;
    --no-build) do_build=0 ;;
    --out) shift; out="$1" ;;
    --before-lib) shift; before=(--before-lib "$1") ;;
    --instructions) extra+=(--instructions) ;;
    -h | --help) sed -n '2,19p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
if [ "$do_build" = 1 ]; then
  if [ ! -x "$build/bench-project/bench_acl" ]; then
    echo "[profiling_cost] building the regular benchmarks (bench/run.sh --only limits)" >&2
    # (the limits step may time out on a busy machine; only the build matters here)
    "$src/bench/run.sh" --only limits >/dev/null || true
    [ -x "$build/bench-project/bench_acl" ] || { echo "[profiling_cost] bench_acl was not built" >&2; exit 1; }
  fi
  echo "[profiling_cost] release build with the profiling sites compiled out in $nosites" >&2
  cmake -S "$src" -B "$nosites" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSIMNPU_SANITIZE= \
    -DSIMNPU_BUILD_TESTS=OFF -DSIMNPU_BUILD_BENCH=OFF -DSIMNPU_WERROR=OFF -DSIMNPU_TRACE_SITES=OFF >/dev/null
  ninja -C "$nosites" -j"$jobs" acl_rt >"$nosites/build.log" 2>&1 || { tail -30 "$nosites/build.log" >&2; exit 1; }
fi
# shellcheck disable=SC1091
source "$build/bench-prefix/set_env.sh"
[ -n "$out" ] || out="$src/bench/results/profiling_cost_$(date -u +%Y%m%dT%H%M%SZ).json"
exec python3 "$here/profiling_cost.py" --bench "$build/bench-project/bench_acl" \
  --installed-lib "$build/bench-prefix/lib64" --nosites-lib "$nosites/src" --rounds "$rounds" --out "$out" "${before[@]}" "${extra[@]}"
