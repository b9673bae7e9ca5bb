#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang and runs each one on its seed
# corpus (fuzz/corpus/<harness>), never writing into the committed corpus.
#
#   fuzz/run.sh [--seconds S] [--runs N] [--jobs J] [--harness NAME]... [BUILD_DIR]
#     --seconds S   stop each harness after S seconds (CI: a few seconds each)
#     --runs N      stop each harness after N executions (the long form:
#                   --runs 1000000, run by hand at a quiet moment, with nice)
#     --harness NAME  run only this harness (repeatable; default: all of them)
#   Default: --seconds 10, build in build/fuzz. Prints, per harness, the
#   executions done; exits non-zero when a harness finds a crash, a leak or
#   a sanitizer report (the reproducer is left in BUILD_DIR/findings/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seconds=10
runs=""
jobs=2
build=""
harnesses=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) shift; seconds="$1" ;;
    --runs) shift; runs="$1" ;;
    --jobs) shift; jobs="$1" ;;
    --harness) shift; harnesses+=("$1") ;;
    -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) build="$1" ;;
  esac
  shift
done
build="${build:-$here/../build/fuzz}"
command -v clang++ >/dev/null || { echo "fuzz/run.sh: clang++ not found (scripts/setup.sh installs clang)" >&2; exit 1; }
mkdir -p "$build"
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log" 2>&1 ||
  { tail -20 "$build/configure.log" >&2; exit 1; }
ninja -C "$build" -j"$jobs" >"$build/build.log" 2>&1 || { tail -30 "$build/build.log" >&2; exit 1; }

[ ${#harnesses[@]} -gt 0 ] || harnesses=(fuzz_binary_load fuzz_kernel_args fuzz_init_config fuzz_ipc_keys)
status=0
mkdir -p "$build/findings"
for h in "${harnesses[@]}"; do
  [ -x "$build/$h" ] || { echo "fuzz/run.sh: no harness $h" >&2; exit 1; }
  work="$build/corpus/$h"
  rm -rf "$work"
  mkdir -p "$work"
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  log="$build/$h.log"
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$build/$h" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$build/findings/$h-" -print_final_stats=1 "$work" "$here/corpus/$h" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    echo "[fuzz] $h: ${execs:-?} executions in ${secs:-?} s, no finding"
  else
    echo "[fuzz] $h: FINDING (see $log and $build/findings/)" >&2
    tail -30 "$log" >&2
    status=1
  fi
done
exit $status
