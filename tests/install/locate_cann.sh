#!/usr/bin/env bash
# Finds a CANN (or simnpu) install the way the CANN samples' shell helpers do
# (acl-api.md §6.3 candidate and layout rules, §6.4 extra layouts and
# ASCENDC_CMAKE_DIR discovery), so tests can check our install against them.
#
# Sourced (bash, safe under set -euo pipefail), it defines:
#   simnpu_cann_candidates          prints the candidate roots, one per line, in order
#   simnpu_cann_acl_layout P        0 if P has an ACL layout; sets CANN_INCLUDE_DIR, CANN_LIB_DIR
#   simnpu_cann_setenv_file P       prints P/set_env.sh (preferred) or P/bin/setenv.bash; 1 if neither
#   simnpu_locate_cann              first qualifying candidate: sets CANN_ROOT, CANN_SETENV,
#                                   CANN_INCLUDE_DIR, CANN_LIB_DIR; 1 (and CANN_CHECKED) if none
#   simnpu_find_ascendc_cmake_dir P prints the first <dir> holding ascendc.cmake; 1 if none
# Run as a program, it prints KEY=value lines for the install it finds
# (ASCENDC_CMAKE_DIR only when found) and exits 1 when none qualifies.
#
# SIMNPU_LOCATE_ONLY_ENV=1 limits the candidates to $ASCEND_INSTALL_PATH and
# $ASCEND_HOME_PATH (tests use it so installs on the host cannot interfere).

# x86_64-linux / aarch64-linux from the machine name.
simnpu_cann_arch_dir() {
  local m
  m="$(uname -m)"
  case "$m" in
    x86_64 | amd64) echo "x86_64-linux" ;;
    aarch64 | arm64) echo "aarch64-linux" ;;
    *) echo "$m-linux" ;;
  esac
}

simnpu_cann_candidates() {
  local c
  for c in "${ASCEND_INSTALL_PATH:-}" "${ASCEND_HOME_PATH:-}"; do
    if [ -n "$c" ]; then printf '%s\n' "$c"; fi
  done
  if [ "${SIMNPU_LOCATE_ONLY_ENV:-0}" = "1" ]; then return 0; fi
  if [ -n "${HOME:-}" ]; then
    printf '%s\n' "$HOME/Ascend/cann" "$HOME/Ascend/ascend-toolkit/latest"
  fi
  printf '%s\n' /usr/local/Ascend/cann /usr/local/Ascend/ascend-toolkit/latest /opt/Ascend/cann
}

# Include dir with acl/acl.h paired with a lib dir with libacl_rt.so: the §6.3
# pairs first, then the §6.4 extras (both arch directories).
simnpu_cann_acl_layout() {
  local p="$1" arch machine pair inc lib a
  arch="$(simnpu_cann_arch_dir)"
  machine="$(uname -m)"
  local -a pairs=(
    "$p/include|$p/lib64"
    "$p/$arch/include|$p/$arch/lib64"
    "$p/$arch/include|$p/$arch/devlib"
    "$p/$arch/include|$p/$arch/devlib/linux/$machine"
  )
  for a in aarch64-linux x86_64-linux; do
    pairs+=("$p/$a/include|$p/$a/devlib/linux/$machine" "$p/$a/include|$p/$a/lib64")
  done
  for pair in "${pairs[@]}"; do
    inc="${pair%%|*}"
    lib="${pair#*|}"
    if [ -f "$inc/acl/acl.h" ] && [ -f "$lib/libacl_rt.so" ]; then
      CANN_INCLUDE_DIR="$inc"
      CANN_LIB_DIR="$lib"
      return 0
    fi
  done
  return 1
}

simnpu_cann_setenv_file() {
  local p="$1"
  if [ -f "$p/set_env.sh" ]; then
    printf '%s\n' "$p/set_env.sh"
  elif [ -f "$p/bin/setenv.bash" ]; then
    printf '%s\n' "$p/bin/setenv.bash"
  else
    return 1
  fi
}

simnpu_locate_cann() {
  local c setenv
  CANN_CHECKED=""
  while IFS= read -r c; do
    CANN_CHECKED="${CANN_CHECKED}${CANN_CHECKED:+ }$c"
    [ -d "$c" ] || continue
    setenv="$(simnpu_cann_setenv_file "$c")" || continue
    simnpu_cann_acl_layout "$c" || continue
    CANN_ROOT="$c"
    CANN_SETENV="$setenv"
    return 0
  done < <(simnpu_cann_candidates)
  return 1
}

simnpu_find_ascendc_cmake_dir() {
  local p="$1" arch d
  arch="$(simnpu_cann_arch_dir)"
  for d in "$p/$arch/tikcpp/ascendc_kernel_cmake" "$p/aarch64-linux/tikcpp/ascendc_kernel_cmake" \
    "$p/x86_64-linux/tikcpp/ascendc_kernel_cmake" "$p/tikcpp/ascendc_kernel_cmake"; do
    if [ -f "$d/ascendc.cmake" ]; then
      printf '%s\n' "$d"
      return 0
    fi
  done
  return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  if ! simnpu_locate_cann; then
    echo "[ERROR]: Cannot find a usable CANN environment. Checked: ${CANN_CHECKED}" >&2
    exit 1
  fi
  echo "CANN_ROOT=$CANN_ROOT"
  echo "CANN_SETENV=$CANN_SETENV"
  echo "CANN_INCLUDE_DIR=$CANN_INCLUDE_DIR"
  echo "CANN_LIB_DIR=$CANN_LIB_DIR"
  if d="$(simnpu_find_ascendc_cmake_dir "$CANN_ROOT")"; then
    echo "ASCENDC_CMAKE_DIR=$d"
  fi
fi
