#!/usr/bin/env bash
# Builds and runs the managed-memory sample end to end.
#
#   ./run.sh            the managed-memory program (uvm_allocate)
#   ./run.sh explicit   the explicit-copy baseline (uvm_allocate_explicit)
#
# Steps: find the CANN (or simnpu) install and source its environment script;
# choose SOC_VERSION (asks the runtime) and ASCENDC_CMAKE_DIR; configure, build
# and install the CMake project into ./out; generate the input data; run the
# program from this directory; verify the result; print what unified memory did
# (simnpu writes its counters to the file named by SIMNPU_UVM_REPORT).
#
# Environment (all optional):
#   ASCEND_INSTALL_PATH, ASCEND_HOME_PATH  install roots tried first
#   SOC_VERSION + ASCENDC_CMAKE_DIR         used as given when both are set
#   SAMPLE_BUILD_JOBS                       parallel build jobs (default: nproc)
set -euo pipefail

SAMPLE_DIR="$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
SAMPLE_NAME="uvm_allocate"

usage() {
  echo "usage: $0 [managed|explicit] [--trace]"
  echo "  --trace  also record a profiling trace (simnpu: SIMNPU_PROFILE) into output/profile"
  echo "           and draw it as output/uvm_trace.png"
}

TRACE=0
ARGS=()
for arg in "$@"; do
  case "$arg" in
    --trace) TRACE=1 ;;
    *) ARGS+=("$arg") ;;
  esac
done
VARIANT="${ARGS[0]:-managed}"
case "$VARIANT" in
  managed) PROGRAM="uvm_allocate" ;;
  explicit) PROGRAM="uvm_allocate_explicit" ;;
  -h | --help)
    usage
    exit 0
    ;;
  *)
    usage >&2
    exit 1
    ;;
esac

fail() {
  echo "[ERROR]: $*" >&2
  exit 1
}

TMP_DIR=""
cleanup() {
  if [ -n "$TMP_DIR" ]; then rm -rf "$TMP_DIR"; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- the install
# <arch>-linux directory name of this machine.
arch_dir() {
  case "$(uname -m)" in
    x86_64 | amd64) echo "x86_64-linux" ;;
    aarch64 | arm64) echo "aarch64-linux" ;;
    *) echo "$(uname -m)-linux" ;;
  esac
}

# has_acl_layout ROOT: an include dir with acl/acl.h next to a library dir
# with libacl_rt.so. Sets ACL_INCLUDE_DIR and ACL_LIB_DIR.
has_acl_layout() {
  local root="$1" arch machine pair
  arch="$(arch_dir)"
  machine="$(uname -m)"
  for pair in "$root/include|$root/lib64" \
    "$root/$arch/include|$root/$arch/lib64" \
    "$root/$arch/include|$root/$arch/devlib" \
    "$root/$arch/include|$root/$arch/devlib/linux/$machine"; do
    if [ -f "${pair%%|*}/acl/acl.h" ] && [ -f "${pair#*|}/libacl_rt.so" ]; then
      ACL_INCLUDE_DIR="${pair%%|*}"
      ACL_LIB_DIR="${pair#*|}"
      return 0
    fi
  done
  return 1
}

# env_script ROOT: prints ROOT's environment script (set_env.sh preferred).
env_script() {
  if [ -f "$1/set_env.sh" ]; then
    echo "$1/set_env.sh"
  elif [ -f "$1/bin/setenv.bash" ]; then
    echo "$1/bin/setenv.bash"
  else
    return 1
  fi
}

# The first candidate with an environment script and an ACL layout wins: it
# becomes ASCEND_INSTALL_PATH / ASCEND_HOME_PATH and its script is sourced.
resolve_cann() {
  local candidate script checked=""
  for candidate in "${ASCEND_INSTALL_PATH:-}" "${ASCEND_HOME_PATH:-}" \
    "${HOME:-/nonexistent}/Ascend/cann" "${HOME:-/nonexistent}/Ascend/ascend-toolkit/latest" \
    /usr/local/Ascend/cann /usr/local/Ascend/ascend-toolkit/latest /opt/Ascend/cann; do
    [ -n "$candidate" ] || continue
    checked="$checked $candidate"
    [ -d "$candidate" ] || continue
    candidate="$(CDPATH='' cd -- "$candidate" && pwd)"
    script="$(env_script "$candidate")" || continue
    has_acl_layout "$candidate" || continue
    export ASCEND_INSTALL_PATH="$candidate"
    export ASCEND_HOME_PATH="$candidate"
    # shellcheck disable=SC1090
    if ! source "$script"; then
      fail "Failed to source $script"
    fi
    echo "[INFO]: using the CANN install at $ASCEND_INSTALL_PATH ($script)"
    return 0
  done
  echo "[ERROR]: Cannot find a usable CANN environment. Checked:$checked" >&2
  echo "[ERROR]: Set ASCEND_INSTALL_PATH to the install root (the directory with set_env.sh)." >&2
  exit 1
}

# ----------------------------------------------------- SOC_VERSION, cmake dir
# query_soc_name WORKDIR: builds scripts/soc_name.cpp against the install in
# WORKDIR and prints the SoC name it reports: the first output line made only
# of letters, digits, '_' and '-'.
query_soc_name() {
  local work="$1" helper output name
  helper="$work/soc_name"
  if ! g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -O2 -I"$ACL_INCLUDE_DIR" \
    "$SAMPLE_DIR/scripts/soc_name.cpp" -L"$ACL_LIB_DIR" -lacl_rt -Wl,-rpath,"$ACL_LIB_DIR" \
    -o "$helper" >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    fail "Cannot build the SoC query program against $ACL_LIB_DIR/libacl_rt.so"
  fi
  output="$("$helper" 2>&1)" || true
  name="$(printf '%s\n' "$output" | grep -m1 -E '^[A-Za-z0-9_-]+$' | tr -d '[:space:]')" || true
  if [ -z "$name" ]; then
    printf '%s\n' "$output" >&2
    fail "aclrtGetSocName() gave no SoC name; set SOC_VERSION and ASCENDC_CMAKE_DIR yourself."
  fi
  echo "$name"
}

# find_ascendc_cmake_dir ROOT: the first directory holding ascendc.cmake.
find_ascendc_cmake_dir() {
  local root="$1" arch dir
  arch="$(arch_dir)"
  for dir in "$root/$arch/tikcpp/ascendc_kernel_cmake" "$root/aarch64-linux/tikcpp/ascendc_kernel_cmake" \
    "$root/x86_64-linux/tikcpp/ascendc_kernel_cmake" "$root/tikcpp/ascendc_kernel_cmake"; do
    if [ -f "$dir/ascendc.cmake" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

detect_sample_env() {
  if [ -n "${SOC_VERSION:-}" ] && [ -n "${ASCENDC_CMAKE_DIR:-}" ]; then
    echo "[INFO]: keeping SOC_VERSION=$SOC_VERSION and ASCENDC_CMAKE_DIR=$ASCENDC_CMAKE_DIR"
  else
    TMP_DIR="$(mktemp -d "${TMPDIR:-/tmp}/uvm_sample.XXXXXX")"
    SOC_VERSION="$(query_soc_name "$TMP_DIR")"
    ASCENDC_CMAKE_DIR="$(find_ascendc_cmake_dir "$ASCEND_INSTALL_PATH")" ||
      fail "No ascendc.cmake (tikcpp/ascendc_kernel_cmake) in $ASCEND_INSTALL_PATH"
    echo "[INFO]: SOC_VERSION is set to $SOC_VERSION"
    echo "[INFO]: ASCENDC_CMAKE_DIR is set to $ASCENDC_CMAKE_DIR"
  fi
  [ -f "$ASCENDC_CMAKE_DIR/ascendc.cmake" ] || fail "$ASCENDC_CMAKE_DIR/ascendc.cmake does not exist"
  export SOC_VERSION ASCENDC_CMAKE_DIR
}

# ------------------------------------------------------------------- python
# A python3 with numpy: `python3` if it has numpy, else /usr/bin/python3.
pick_python() {
  local py
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c "import numpy" >/dev/null 2>&1; then
      PYTHON="$py"
      return 0
    fi
  done
  fail "No python3 with numpy found (tried python3 and /usr/bin/python3); install numpy >= 1.19 (pip install numpy, or apt install python3-numpy)."
}

# ---------------------------------------------------------------------- main
resolve_cann
detect_sample_env
export ASCEND_TOOLKIT_HOME="$ASCEND_INSTALL_PATH"
export ASCEND_HOME_PATH="$ASCEND_INSTALL_PATH"
pick_python

cd "$SAMPLE_DIR"
rm -rf build
cmake -B build -DSOC_VERSION="$SOC_VERSION" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_INSTALL_PREFIX="$SAMPLE_DIR/out" -DASCEND_CANN_PACKAGE_PATH="$ASCEND_INSTALL_PATH"
cmake --build build -j "${SAMPLE_BUILD_JOBS:-$(nproc)}"
cmake --install build

rm -rf input output
mkdir -p input output
"$PYTHON" scripts/gen_data.py

export LD_LIBRARY_PATH="$SAMPLE_DIR/out/lib:$SAMPLE_DIR/out/lib64:$ASCEND_INSTALL_PATH/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
REPORT="$SAMPLE_DIR/output/uvm_report.txt"
LOG="$SAMPLE_DIR/output/output_msg.txt"
if [ "$TRACE" = 1 ]; then
  export SIMNPU_PROFILE="$SAMPLE_DIR/output/profile" SIMNPU_PROFILE_QUIET=1
fi
if ! SIMNPU_UVM_REPORT="$REPORT" "./out/bin/$PROGRAM" | tee "$LOG"; then
  echo "[FAILURE] Run the $SAMPLE_NAME sample failed."
  exit 1
fi

if [ "$VARIANT" = "managed" ] && grep -qF "[SKIP]" "$LOG"; then
  echo "[SUCCESS] $SAMPLE_NAME sample skipped because the current SOC does not support UVM."
  exit 0
fi

md5sum output/*.bin
if ! "$PYTHON" scripts/verify_result.py output/output_z.bin output/golden.bin; then
  exit 1
fi

# What unified memory did, from the runtime's own counters.
echo
if [ -s "$REPORT" ]; then
  cat "$REPORT"
  echo
  "$PYTHON" scripts/uvm_summary.py "$REPORT" "$VARIANT" || true
else
  echo "[INFO]  No unified-memory report: the runtime did not write SIMNPU_UVM_REPORT (only simnpu does)."
fi

if [ "$TRACE" = 1 ]; then
  TRACE_JSON="$(ls -t output/profile/PROF_*/mindstudio_profiler_output/msprof_*.json 2>/dev/null | head -n 1)"
  PICTURE_SCRIPT="$ASCEND_INSTALL_PATH/tools/simnpu/simnpu_trace_picture.py"
  PICTURE_PY=""
  for py in "$PYTHON" python3 /usr/bin/python3; do
    if "$py" -c "import matplotlib" >/dev/null 2>&1; then PICTURE_PY="$py"; break; fi
  done
  if [ -z "$TRACE_JSON" ]; then
    echo "[INFO]  No trace: the runtime did not write one (only simnpu does)."
  elif [ ! -f "$PICTURE_SCRIPT" ] || [ -z "$PICTURE_PY" ]; then
    echo "[INFO]  Trace: $TRACE_JSON (no picture: needs $PICTURE_SCRIPT and python3-matplotlib)"
  else
    "$PICTURE_PY" "$PICTURE_SCRIPT" "$TRACE_JSON" -o output/uvm_trace.png --describe output/uvm_trace_lanes.json \
      --title "uvm_allocate: z = x + y over managed memory"
    echo "[INFO]  Trace: $TRACE_JSON (open it in https://ui.perfetto.dev); picture: output/uvm_trace.png"
  fi
fi
