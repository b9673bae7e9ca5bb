#!/usr/bin/env bash
# The main job: build and install simnpu, then build and run the
# managed-memory sample end to end against the install, the way a CANN user
# would (set_env.sh, SOC query, ascendc.cmake, -lacl_rt).
#   SIMNPU_PREFIX   install prefix (default: <repo>/out/cann)
#   any SIMNPU_* / ASCEND_* variable is passed through (e.g. SIMNPU_SOC=Ascend910A);
#   SOC_VERSION and ASCENDC_CMAKE_DIR are not (the sample asks this install)
# Builds in build/sample.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="${SIMNPU_PREFIX:-$repo/out/cann}"
# Its own build folder: build/release belongs to the `release` preset, and
# this configuration (no tests, no benchmarks) would stick in its cache.
build="$repo/build/sample"

"$repo/scripts/setup.sh"
jobs="$(nproc)"
cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DSIMNPU_BUILD_TESTS=OFF -DSIMNPU_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$jobs"
cmake --install "$build" --prefix "$prefix" >/dev/null
echo "[simnpu] installed to $prefix"

# Run the sample from a scratch copy so the source tree stays clean.
work="$repo/out/sample_run"
rm -rf "$work"
mkdir -p "$work"
cp -a "$repo/samples/." "$work/"
export ASCEND_INSTALL_PATH="$prefix"
# run.sh keeps SOC_VERSION and ASCENDC_CMAKE_DIR when both are set (as a
# CANN user's shell may have them); the main job must use the fresh install
# and the SOC its runtime reports, so drop them.
unset SOC_VERSION ASCENDC_CMAKE_DIR
exec bash "$work/managed_memory/uvm_allocate/run.sh"
