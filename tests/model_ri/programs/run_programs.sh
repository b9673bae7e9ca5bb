#!/usr/bin/env bash
# Builds the model-RI programs against the staged install as the samples'
# CMakeLists do (-O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror,
# libraries by absolute path), runs them and checks their output.
# Usage: run_programs.sh <stage> <source dir> <work dir>
set -euo pipefail
stage=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
flags=(-O2 -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=0 -Wall -Werror -I"$stage/include")
status=0
run() {  # <name> <expected output> <libraries...>
  local name=$1 expected=$2
  shift 2
  g++ "${flags[@]}" "$src/$name.cpp" "$@" -o "$name"
  local got
  if ! got=$(LD_LIBRARY_PATH="$stage/lib64" "./$name" 2>"$name.err"); then
    echo "$name exited with an error"
    status=1
  fi
  got=$(grep -E '^(CHECK|RESULT|FAILED|Switch) ' <<<"$got" || true)
  if [[ "$got" != "$expected" ]]; then
    echo "unexpected output of $name:"
    diff <(echo "$expected") <(echo "$got") || true
    cat "$name.err"
    status=1
  fi
}
run label_switch 'Switch label executed successfully with branch index 1.
RESULT PASS' "$stage/lib64/libacl_rt.so"
run external_events 'CHECK scenario1 ok
CHECK scenario2 ok
CHECK scenario3 ok
RESULT PASS' "$stage/lib64/libascendcl.so" "$stage/lib64/libacl_rt.so"
exit $status
