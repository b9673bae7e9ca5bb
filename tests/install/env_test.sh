#!/usr/bin/env bash
# <p>/set_env.sh and <p>/bin/setenv.bash: sourceable under `set -euo pipefail`,
# `set -e`, `set -u` and no options; the variables they export; LD_LIBRARY_PATH
# and PATH without duplicates on repeated sourcing; presets they keep or
# replace; symlinked, relative, relocated and executed use; dash.
# Usage: env_test.sh <staged install prefix>
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=testlib.sh
source "$HERE/testlib.sh"

STAGE="${1:?usage: env_test.sh <stage dir>}"
ARCH="${SIMNPU_ARCH_DIR:-$(uname -m)-linux}"
R="$(cd -P "$STAGE" && pwd -P)"
t_workdir
mkdir -p "$WORK/home"
BASEPATH=/usr/bin:/bin
VARS="ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME ASCEND_INSTALL_PATH ASCEND_AICPU_PATH ASCEND_OPP_PATH TOOLCHAIN_HOME LD_LIBRARY_PATH PATH PYTHONPATH CMAKE_PREFIX_PATH"

# probe OPTIONS SCRIPT [VAR=value...]: sources SCRIPT in a clean bash with the
# given option line active, then prints status=, each variable (or <unset>),
# funcs= (helpers left behind) and opts= ($- afterwards). The source's own
# stdout/stderr go to $WORK/src.out / src.err.
probe() {
  local opts="$1" script="$2"
  shift 2
  env -i HOME="$WORK/home" PATH="$BASEPATH" "$@" bash -c "
$opts
source '$script' >'$WORK/src.out' 2>'$WORK/src.err'
echo \"status=\$?\"
for v in $VARS; do echo \"\$v=\${!v-<unset>}\"; done
echo \"funcs=\$(declare -F | grep -c _simnpu || true)\"
echo \"opts=\$-\"
echo \"pipefail=\$(set -o | grep -c 'pipefail.*on' || true)\"
echo end
"
}

# get KEY < probe output
get() { grep -m1 "^$1=" | cut -d= -f2-; }

for script in "$R/set_env.sh" "$R/bin/setenv.bash"; do
  name="${script#"$R"/}"
  for opts in "set -euo pipefail" "set -e" "set -u" ":" "set -euo pipefail; IFS=:"; do
    out="$(probe "$opts" "$script")"
    tag="$name [$opts]"
    t_eq "end" "$(tail -n1 <<<"$out")" "$tag: shell survived sourcing"
    t_eq "0" "$(get status <<<"$out")" "$tag: returns 0"
    t_eq "$R" "$(get ASCEND_HOME_PATH <<<"$out")" "$tag: ASCEND_HOME_PATH"
    t_eq "$R" "$(get ASCEND_TOOLKIT_HOME <<<"$out")" "$tag: ASCEND_TOOLKIT_HOME"
    t_eq "$R" "$(get ASCEND_INSTALL_PATH <<<"$out")" "$tag: ASCEND_INSTALL_PATH"
    t_eq "$R" "$(get ASCEND_AICPU_PATH <<<"$out")" "$tag: ASCEND_AICPU_PATH"
    t_eq "$R/opp" "$(get ASCEND_OPP_PATH <<<"$out")" "$tag: ASCEND_OPP_PATH"
    t_eq "$R/toolkit" "$(get TOOLCHAIN_HOME <<<"$out")" "$tag: TOOLCHAIN_HOME"
    t_eq "$R/lib64" "$(get LD_LIBRARY_PATH <<<"$out")" "$tag: LD_LIBRARY_PATH (was unset)"
    t_eq "$R/bin:$R/$ARCH/bin:$R/$ARCH/ccec_compiler/bin:$BASEPATH" "$(get PATH <<<"$out")" "$tag: PATH"
    t_eq "<unset>" "$(get PYTHONPATH <<<"$out")" "$tag: PYTHONPATH untouched"
    t_eq "$R/lib64/cmake" "$(get CMAKE_PREFIX_PATH <<<"$out")" "$tag: CMAKE_PREFIX_PATH (was unset)"
    t_eq "0" "$(get funcs <<<"$out")" "$tag: no helper functions left"
    t_eq "" "$(cat "$WORK/src.out")" "$tag: prints nothing on stdout"
    t_eq "" "$(cat "$WORK/src.err")" "$tag: prints nothing on stderr"
    case "$opts" in
      "set -euo pipefail"*)
        t_eq "1" "$(get pipefail <<<"$out")" "$tag: pipefail still on"
        case "$(get opts <<<"$out")" in *e*u* | *u*e*) t_ok "$tag: -e -u still on" ;;
          *) t_fail "$tag: caller options changed to $(get opts <<<"$out")" ;; esac ;;
    esac
  done
done

# Idempotence: sourcing again, in any mix, changes nothing.
out="$(env -i HOME="$WORK/home" PATH="$BASEPATH" bash -c "
set -euo pipefail
source '$R/set_env.sh'; a=\"\$LD_LIBRARY_PATH|\$PATH\"
source '$R/bin/setenv.bash'; source '$R/set_env.sh'; source '$R/set_env.sh'
b=\"\$LD_LIBRARY_PATH|\$PATH\"
[ \"\$a\" = \"\$b\" ] && echo same || echo \"differs: \$a vs \$b\"
")"
t_eq "same" "$out" "repeated sourcing leaves LD_LIBRARY_PATH and PATH unchanged"

# Existing entries: ours go first, others keep their order, no duplicates,
# empty entries the user had are kept, none is added.
out="$(probe "set -euo pipefail" "$R/set_env.sh" LD_LIBRARY_PATH="/a:$R/lib64:/b" PYTHONPATH=/py)"
t_eq "$R/lib64:/a:/b" "$(get LD_LIBRARY_PATH <<<"$out")" "own lib64 moved to the front"
t_eq "/py" "$(get PYTHONPATH <<<"$out")" "PYTHONPATH kept (no python dir in the install)"
out="$(env -i HOME="$WORK/home" PATH="/x:$R/bin:/usr/bin:/bin" LD_LIBRARY_PATH="/a::/b" bash -c "
set -eu; source '$R/set_env.sh'; echo \"\$LD_LIBRARY_PATH|\$PATH\"")"
t_eq "$R/lib64:/a::/b|$R/bin:$R/$ARCH/bin:$R/$ARCH/ccec_compiler/bin:/x:/usr/bin:/bin" "$out" "PATH entry moved, user's empty entry kept"

# Presets: ASCEND_INSTALL_PATH/OPP/TOOLCHAIN are kept; HOME/TOOLKIT always name
# this install (a spelling of the same directory is kept).
ln -s "$R" "$WORK/alias"
out="$(probe "set -euo pipefail" "$R/set_env.sh" ASCEND_INSTALL_PATH=/elsewhere \
  ASCEND_HOME_PATH=/other/cann ASCEND_TOOLKIT_HOME="$WORK/alias" ASCEND_OPP_PATH=/opp TOOLCHAIN_HOME=/tc)"
t_eq "/elsewhere" "$(get ASCEND_INSTALL_PATH <<<"$out")" "preset ASCEND_INSTALL_PATH kept"
t_eq "$R" "$(get ASCEND_HOME_PATH <<<"$out")" "foreign ASCEND_HOME_PATH replaced by this install"
t_eq "$WORK/alias" "$(get ASCEND_TOOLKIT_HOME <<<"$out")" "ASCEND_TOOLKIT_HOME naming this install kept"
t_eq "/opp" "$(get ASCEND_OPP_PATH <<<"$out")" "preset ASCEND_OPP_PATH kept"
t_eq "/tc" "$(get TOOLCHAIN_HOME <<<"$out")" "preset TOOLCHAIN_HOME kept"
out="$(probe "set -euo pipefail" "$R/set_env.sh" ASCEND_INSTALL_PATH= ASCEND_HOME_PATH=)"
t_eq "$R" "$(get ASCEND_INSTALL_PATH <<<"$out")" "empty ASCEND_INSTALL_PATH filled in"

# Reached through a symlinked file and through relative paths.
mkdir -p "$WORK/links"
ln -s "$R/set_env.sh" "$WORK/links/env.sh"
ln -s ../links/env.sh "$WORK/home/env2.sh"  # relative link to a link
for s in "$WORK/links/env.sh" "$WORK/home/env2.sh"; do
  out="$(probe "set -euo pipefail" "$s")"
  t_eq "$R" "$(get ASCEND_HOME_PATH <<<"$out")" "symlinked script $s finds the install"
done
out="$(cd "$R" && env -i HOME="$WORK/home" PATH="$BASEPATH" bash -c 'set -eu; source ./set_env.sh; echo "$ASCEND_HOME_PATH"')"
t_eq "$R" "$out" "source ./set_env.sh from the install root"
out="$(cd "$R/bin" && env -i HOME="$WORK/home" PATH="$BASEPATH" bash -c 'set -eu; source ./setenv.bash; echo "$ASCEND_HOME_PATH"')"
t_eq "$R" "$out" "source ./setenv.bash from <p>/bin"
out="$(cd "$R/$ARCH" && env -i HOME="$WORK/home" PATH="$BASEPATH" bash -c 'set -eu; source ../bin/setenv.bash; echo "$ASCEND_HOME_PATH"')"
t_eq "$R" "$out" "source ../bin/setenv.bash"

# Relocated copy (a path with a space): everything follows the new place.
mkdir -p "$WORK/moved here"
cp -a "$R" "$WORK/moved here/cann"
M="$(cd -P "$WORK/moved here/cann" && pwd -P)"
out="$(probe "set -euo pipefail" "$M/bin/setenv.bash")"
t_eq "$M" "$(get ASCEND_HOME_PATH <<<"$out")" "relocated install: ASCEND_HOME_PATH"
t_eq "$M/lib64" "$(get LD_LIBRARY_PATH <<<"$out")" "relocated install: LD_LIBRARY_PATH"
t_eq "$M/$ARCH/lib64" "$(cd -P "$M/lib64" && pwd -P)" "relocated install: lib64 link stays inside the copy"

# Sourced inside a function under set -e, and in an && list.
out="$(env -i HOME="$WORK/home" PATH="$BASEPATH" bash -c "
set -e
f() { source '$R/set_env.sh'; echo \"in-function status \$?\"; }
f
source '$R/bin/setenv.bash' && echo 'and-list ok'")"
t_eq "in-function status 0
and-list ok" "$out" "sourced from a function and in an && list"

# Run instead of sourced: harmless.
out="$(env -i HOME="$WORK/home" PATH="$BASEPATH" bash "$R/set_env.sh" 2>"$WORK/exec.err")"
t_eq "0:" "$?:$out" "executed with bash: status 0, no output"

# dash (POSIX sh) sourcing: refuses politely, returns 0, sets nothing.
if command -v dash >/dev/null 2>&1; then
  out="$(env -i PATH="$BASEPATH" dash -c ". '$R/set_env.sh'; echo \"status=\$? home=\${ASCEND_HOME_PATH:-none}\"" 2>/dev/null)"
  t_eq "status=0 home=none" "$out" "dash: returns 0, exports nothing"
fi

# The scripts never call exit, and embed no absolute install path.
for s in "$R/set_env.sh" "$R/bin/setenv.bash"; do
  if grep -nE '(^|[;&|({[:space:]])exit([[:space:]]|;|$)' "$s" >/dev/null; then
    t_fail "$s contains an exit command"
  else
    t_ok "$s has no exit command"
  fi
  if grep -F "$R" "$s" >/dev/null || grep -F "$STAGE" "$s" >/dev/null; then
    t_fail "$s embeds the install path"
  else
    t_ok "$s embeds no install path"
  fi
  if command -v shellcheck >/dev/null 2>&1; then
    t_true "$s passes shellcheck" shellcheck -s bash -S warning "$s"
  fi
done

t_done
