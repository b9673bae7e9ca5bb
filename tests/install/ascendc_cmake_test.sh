#!/usr/bin/env bash
# ASCENDC_CMAKE_DIR discovery of the samples (acl-api.md §6.4) on the staged
# install: the first of <p>/<arch>-linux/tikcpp/ascendc_kernel_cmake, the other
# arch, <p>/tikcpp/ascendc_kernel_cmake holding ascendc.cmake. Skips (77) while
# ascendc.cmake is not installed.
# Usage: ascendc_cmake_test.sh <staged install prefix>
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=testlib.sh
source "$HERE/testlib.sh"
# shellcheck source=locate_cann.sh
source "$HERE/locate_cann.sh"

STAGE="${1:?usage: ascendc_cmake_test.sh <stage dir>}"
ARCH="$(simnpu_cann_arch_dir)"

if ! dir="$(simnpu_find_ascendc_cmake_dir "$STAGE")"; then
  echo "SKIP: no ascendc.cmake under $STAGE/{$ARCH,tikcpp}/... (ascendc.cmake is not installed yet)"
  exit 77
fi
t_eq "$STAGE/$ARCH/tikcpp/ascendc_kernel_cmake" "$dir" "ASCENDC_CMAKE_DIR is the arch-specific directory"
t_true "also reachable as <p>/tikcpp/ascendc_kernel_cmake/ascendc.cmake" \
  test -f "$STAGE/tikcpp/ascendc_kernel_cmake/ascendc.cmake"
t_done
