#!/usr/bin/env bash
# Drives the kernel test project (project/) against a CANN install the way a
# CANN user does, with only what the install's set_env.sh and the samples'
# SOC query provide:
#   - a clean environment (PATH, HOME, LANG), then `source <install>/set_env.sh`
#   - SOC_VERSION: build a helper that prints aclrtGetSocName() with g++
#     against <install>/lib64/libacl_rt.so, run it with stdout+stderr merged
#     and take the first line matching ^[A-Za-z0-9_-]+$ (acl-api.md §6.4)
#   - ASCENDC_CMAKE_DIR: the first of <p>/<arch>-linux/tikcpp/ascendc_kernel_cmake,
#     the other arch, <p>/tikcpp/ascendc_kernel_cmake holding ascendc.cmake
#
# Usage:
#   kernel_project.sh build <install> <project src> <build dir> [generator]
#       configure (in place, so later runs are incremental), build and install
#       (to <build dir>/out, CMAKE_INSTALL_PREFIX of the project)
#   kernel_project.sh run <install> <build dir> <program> <case>
#       run <build dir>/<program> <case> with the working directory <build dir>
#       (the fatbin is loaded from the relative path ./out/fatbin/...) and, as
#       the samples' run.sh do, <build dir>/out/lib and out/lib64 on LD_LIBRARY_PATH
set -uo pipefail

mode="${1:?usage: kernel_project.sh build|run ...}"
install="${2:?missing install directory}"

# a clean user environment plus set_env.sh
clean_env() {
  local keep_path="/usr/local/bin:/usr/bin:/bin"
  # the compiler and cmake of this machine may live elsewhere
  for tool in cmake g++ c++ ninja python3; do
    local p
    p="$(command -v "$tool" 2>/dev/null)" || continue
    keep_path="$keep_path:$(dirname "$p")"
  done
  env -i PATH="$keep_path" HOME="${HOME:-/tmp}" LANG=C "$@"
}

user_shell() {  # user_shell <script>: run bash with set_env.sh sourced
  clean_env bash -c "set -e; source \"$install/set_env.sh\"; $1"
}

case "$mode" in
build)
  src="${3:?missing project source}"
  build="${4:?missing build dir}"
  generator="${5:-Ninja}"
  mkdir -p "$build/soc_query"
  cat >"$build/soc_query/get_soc_version.cpp" <<'EOF'
#include <cstdio>
#include "acl/acl.h"
int main()
{
    const char* name = aclrtGetSocName();
    if (name == nullptr) {
        return 1;
    }
    std::printf("%s\n", name);
    return 0;
}
EOF
  user_shell "
    q=\"$build/soc_query\"
    g++ -std=c++17 -I\"\$ASCEND_HOME_PATH/include\" \"\$q/get_soc_version.cpp\" \
        -L\"\$ASCEND_HOME_PATH/lib64\" -lacl_rt -o \"\$q/get_soc_version\"
    SOC_VERSION=\$(\"\$q/get_soc_version\" 2>&1 | grep -m1 -E '^[A-Za-z0-9_-]+\$' || true)
    if [ -z \"\$SOC_VERSION\" ]; then echo 'SOC query failed' >&2; exit 1; fi
    export SOC_VERSION
    arch=\$(uname -m)-linux
    other=x86_64-linux; [ \"\$arch\" = x86_64-linux ] && other=aarch64-linux
    ASCENDC_CMAKE_DIR=
    for d in \"\$ASCEND_HOME_PATH/\$arch/tikcpp/ascendc_kernel_cmake\" \
             \"\$ASCEND_HOME_PATH/\$other/tikcpp/ascendc_kernel_cmake\" \
             \"\$ASCEND_HOME_PATH/tikcpp/ascendc_kernel_cmake\"; do
      if [ -f \"\$d/ascendc.cmake\" ]; then ASCENDC_CMAKE_DIR=\$d; break; fi
    done
    if [ -z \"\$ASCENDC_CMAKE_DIR\" ]; then echo 'ascendc.cmake not found' >&2; exit 1; fi
    export ASCENDC_CMAKE_DIR
    echo \"SOC_VERSION=\$SOC_VERSION ASCENDC_CMAKE_DIR=\$ASCENDC_CMAKE_DIR\"
    cmake -S \"$src\" -B \"$build\" -G \"$generator\" -DASCEND_CANN_PACKAGE_PATH=\"\$ASCEND_HOME_PATH\"
    cmake --build \"$build\" -j2
    cmake --install \"$build\" >/dev/null
  "
  ;;
run)
  build="${3:?missing build dir}"
  program="${4:?missing program}"
  name="${5:?missing case}"
  if [ ! -x "$build/$program" ]; then
    echo "$build/$program was not built (kernel_project_build failed?)" >&2
    exit 1
  fi
  # as the samples' run.sh: the installed kernel libraries next to the CANN ones
  user_shell "cd \"$build\" && export LD_LIBRARY_PATH=\"\$LD_LIBRARY_PATH:$build/out/lib:$build/out/lib64\" &&
              exec ./\"$program\" \"$name\""
  ;;
*)
  echo "unknown mode $mode" >&2
  exit 2
  ;;
esac
