#!/usr/bin/env bash
# The SOC query of the CANN samples (acl-api.md §6.4, §9 item 14) against the
# staged install: build a helper that only calls aclrtGetSocName() with the
# samples' exact g++ command, run it with stdout and stderr merged, take the
# first line matching ^[A-Za-z0-9_-]+$. Default SOC Ascend910B1; SIMNPU_SOC
# selects another; runtime log chatter on stdout must not come first.
# Usage: soc_query_test.sh <staged install prefix>
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=testlib.sh
source "$HERE/testlib.sh"
# shellcheck source=locate_cann.sh
source "$HERE/locate_cann.sh"

STAGE="${1:?usage: soc_query_test.sh <stage dir>}"
t_workdir

if ! command -v g++ >/dev/null 2>&1; then
  echo "SKIP: g++ not found"
  exit 77
fi

export ASCEND_INSTALL_PATH="$STAGE"
unset ASCEND_HOME_PATH
if ! SIMNPU_LOCATE_ONLY_ENV=1 simnpu_locate_cann; then
  t_fail "the staged install is not a usable CANN root (checked: $CANN_CHECKED)"
  t_done
fi
INC="$CANN_INCLUDE_DIR"
LIB="$CANN_LIB_DIR"

cat >"$WORK/get_soc_version.cpp" <<'EOF'
#include <cstdio>
#include "acl/acl.h"

int main() {
  const char* name = aclrtGetSocName();
  if (name == nullptr || name[0] == '\0') {
    std::fprintf(stderr, "[ERROR] aclrtGetSocName returned no name\n");
    return 1;
  }
  std::printf("%s\n", name);
  return 0;
}
EOF
if ! g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -O2 -I"$INC" "$WORK/get_soc_version.cpp" \
  -L"$LIB" -lacl_rt -Wl,-rpath,"$LIB" -o "$WORK/get_soc_version" >"$WORK/build.log" 2>&1; then
  cat "$WORK/build.log"
  if grep -q "undefined reference to .aclrtGetSocName" "$WORK/build.log"; then
    t_fail "libacl_rt.so does not export aclrtGetSocName yet"
  else
    t_fail "the get_soc_version helper does not build against the install"
  fi
  t_done
fi
t_ok "helper builds with the samples' g++ command"

# soc [VAR=value...]: the name the samples' script would extract.
soc() {
  env -i HOME="$WORK" PATH=/usr/bin:/bin ASCEND_PROCESS_LOG_PATH="$WORK/log" "$@" \
    "$WORK/get_soc_version" >"$WORK/run.out" 2>&1
  echo "rc=$?" >>"$WORK/run.out"
  grep -m1 -E '^[A-Za-z0-9_-]+$' "$WORK/run.out" | tr -d '[:space:]'
}

t_eq "Ascend910B1" "$(soc)" "default SOC"
t_true "helper exit status 0" grep -qx "rc=0" "$WORK/run.out"
t_eq "Ascend910A" "$(soc SIMNPU_SOC=Ascend910A)" "SIMNPU_SOC=Ascend910A"
t_eq "Ascend950DT_95A1" "$(soc SIMNPU_SOC=Ascend950DT_95A1)" "mixed-case 950 name kept exactly"
t_eq "Ascend910B4-1" "$(soc SIMNPU_SOC=Ascend910B4-1)" "name with '-'"
t_eq "Ascend910B1" "$(soc ASCEND_LOG_PRINT_TO_STDOUT=1 ASCEND_GLOBAL_LOG_LEVEL=0)" \
  "debug logs on stdout do not come before the name"
t_eq "Ascend910B1" "$(soc ASCEND_SLOG_PRINT_TO_STDOUT=1 ASCEND_GLOBAL_LOG_LEVEL=0)" \
  "same with the deprecated stdout switch"
t_eq "" "$(soc SIMNPU_SOC=NotAnAscendChip)" "unknown SIMNPU_SOC gives no name line"
if grep -qx "rc=0" "$WORK/run.out"; then
  t_fail "unknown SIMNPU_SOC: helper should fail (aclrtGetSocName NULL), output: $(cat "$WORK/run.out")"
else
  t_ok "unknown SIMNPU_SOC: helper fails"
fi

t_done
