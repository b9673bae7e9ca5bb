#!/usr/bin/env bash
# The staged install is found by the CANN samples' discovery rules
# (locate_cann.sh: acl-api.md §6.3, §6.4) through ASCEND_INSTALL_PATH and
# through ASCEND_HOME_PATH, and the samples' environment patterns (§6.7 A, B,
# C) work on it under their shell options.
# Usage: locate_test.sh <staged install prefix>
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=testlib.sh
source "$HERE/testlib.sh"
LOCATE="$HERE/locate_cann.sh"

STAGE="${1:?usage: locate_test.sh <stage dir>}"
STAGE="$(cd "$STAGE" && pwd)"
R="$(cd -P "$STAGE" && pwd -P)"
t_workdir
mkdir -p "$WORK/home"

# locate [VAR=value...]: runs locate_cann.sh as a program in a clean
# environment limited to the env candidates; prints its KEY=value lines.
locate() {
  env -i HOME="$WORK/home" PATH=/usr/bin:/bin SIMNPU_LOCATE_ONLY_ENV=1 "$@" bash "$LOCATE" 2>&1
}
get() { grep -m1 "^$1=" | cut -d= -f2-; }

# Preconditions the rules need: headers and library in place.
t_true "include/acl/acl.h installed" test -f "$STAGE/include/acl/acl.h"
t_true "lib64/libacl_rt.so installed" test -f "$STAGE/lib64/libacl_rt.so"

out="$(locate ASCEND_INSTALL_PATH="$STAGE")"
t_eq "$STAGE" "$(get CANN_ROOT <<<"$out")" "found via ASCEND_INSTALL_PATH"
t_eq "$STAGE/set_env.sh" "$(get CANN_SETENV <<<"$out")" "set_env.sh preferred"
t_eq "$STAGE/include" "$(get CANN_INCLUDE_DIR <<<"$out")" "include dir is <p>/include"
t_eq "$STAGE/lib64" "$(get CANN_LIB_DIR <<<"$out")" "lib dir is <p>/lib64"

out="$(locate ASCEND_HOME_PATH="$STAGE")"
t_eq "$STAGE" "$(get CANN_ROOT <<<"$out")" "found via ASCEND_HOME_PATH"

out="$(locate ASCEND_INSTALL_PATH="$WORK/nothing" ASCEND_HOME_PATH="$STAGE")"
t_eq "$STAGE" "$(get CANN_ROOT <<<"$out")" "unusable ASCEND_INSTALL_PATH skipped, ASCEND_HOME_PATH used"

# Without the default locations, nothing else is found.
out="$(locate)"
case "$out" in *"Cannot find a usable CANN environment"*) t_ok "no candidates: not found" ;;
  *) t_fail "no candidates: unexpected output: $out" ;; esac

# Rules on synthetic trees: a setenv file alone is not enough; the arch
# layout with only bin/setenv.bash qualifies.
mkdir -p "$WORK/only_env" && touch "$WORK/only_env/set_env.sh"
out="$(locate ASCEND_INSTALL_PATH="$WORK/only_env" ASCEND_HOME_PATH="$STAGE")"
t_eq "$STAGE" "$(get CANN_ROOT <<<"$out")" "set_env.sh without an ACL layout does not qualify"
A="$WORK/arch_only"
mkdir -p "$A/bin" "$A/$(uname -m)-linux/include/acl" "$A/$(uname -m)-linux/lib64"
touch "$A/bin/setenv.bash" "$A/$(uname -m)-linux/include/acl/acl.h" "$A/$(uname -m)-linux/lib64/libacl_rt.so"
out="$(locate ASCEND_INSTALL_PATH="$A")"
t_eq "$A" "$(get CANN_ROOT <<<"$out")" "arch layout + bin/setenv.bash qualifies"
t_eq "$A/bin/setenv.bash" "$(get CANN_SETENV <<<"$out")" "bin/setenv.bash used when set_env.sh is absent"
t_eq "$A/$(uname -m)-linux/lib64" "$(get CANN_LIB_DIR <<<"$out")" "arch lib dir"

# Pattern A (resolve_cann_env): locate, export both paths, source the file,
# all under set -euo pipefail; then echo a few variables as run.sh files do.
out="$(env -i HOME="$WORK/home" PATH=/usr/bin:/bin ASCEND_HOME_PATH="$STAGE" SIMNPU_LOCATE_ONLY_ENV=1 bash -c "
set -euo pipefail
source '$LOCATE'
simnpu_locate_cann
export ASCEND_INSTALL_PATH=\"\$CANN_ROOT\" ASCEND_HOME_PATH=\"\$CANN_ROOT\"
source \"\$CANN_SETENV\"
echo \"status=\$? home=\$ASCEND_HOME_PATH ld=\$LD_LIBRARY_PATH\"
" 2>&1)"
t_eq "status=0 home=$R ld=$R/lib64" "$out" "pattern A under set -euo pipefail"

# Pattern B: set_env.sh, then \${ASCEND_HOME_PATH}/bin/setenv.bash, strict mode.
out="$(env -i HOME="$WORK/home" PATH=/usr/bin:/bin bash -c "
set -euo pipefail
source '$STAGE/set_env.sh'
source \"\${ASCEND_HOME_PATH}/bin/setenv.bash\"
echo \"ok \$ASCEND_TOOLKIT_HOME\"
" 2>&1)"
t_eq "ok $R" "$out" "pattern B: \${ASCEND_HOME_PATH}/bin/setenv.bash"

# Pattern C: \$ASCEND_INSTALL_PATH/bin/setenv.bash with set -e (and set -u).
for opts in "set -e" "set -eu"; do
  out="$(env -i HOME="$WORK/home" PATH=/usr/bin:/bin ASCEND_INSTALL_PATH="$STAGE" bash -c "
$opts
source \$ASCEND_INSTALL_PATH/bin/setenv.bash
echo \"ok \$ASCEND_INSTALL_PATH \$ASCEND_HOME_PATH\"
" 2>&1)"
  t_eq "ok $STAGE $R" "$out" "pattern C [$opts]: \$ASCEND_INSTALL_PATH/bin/setenv.bash"
done

t_done
