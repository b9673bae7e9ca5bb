#!/usr/bin/env bash
# Builds user_prog.cpp against the staged install the way a CANN user does,
# once with -lacl_rt and once with -lascendcl, runs both with
# LD_LIBRARY_PATH=<stage>/lib64 and checks their output.
# Usage: compile_run_test.sh <stage> <source> <work dir>
set -euo pipefail
stage=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$work"
expected='CHECK soc Ascend910B1
CHECK devices 8
CHECK copy_roundtrip ok
CHECK host_callbacks 1
CHECK elapsed_nonnegative yes
CHECK memset ok
CHECK null_arg 100000
CHECK errmsg_first text
CHECK errmsg_second null
CHECK current_device 0
CHECK host_callbacks_after_ctx 2
RESULT PASS'
status=0
for lib in acl_rt ascendcl; do
  echo "== -l$lib"
  g++ -std=c++17 -Wall -Werror -I"$stage/include" "$src" -L"$stage/lib64" -l"$lib" -o "prog_$lib"
  # The program must not be able to pick up a runtime from anywhere else.
  if ! env -u SIMNPU_SOC -u SIMNPU_DEVICE_COUNT -u ASCEND_RT_VISIBLE_DEVICES \
      LD_LIBRARY_PATH="$stage/lib64" "./prog_$lib" >"out_$lib.txt" 2>"err_$lib.txt"; then
    echo "prog_$lib exited with $?"
    status=1
  fi
  got=$(grep -E '^(CHECK|RESULT|FAILED) ' "out_$lib.txt" || true)
  if [[ "$got" != "$expected" ]]; then
    echo "unexpected output of prog_$lib:"
    diff <(echo "$expected") <(echo "$got") || true
    echo "-- stderr:"
    cat "err_$lib.txt"
    status=1
  fi
  # Which runtime did the program actually load?
  deps=$(LD_LIBRARY_PATH="$stage/lib64" ldd "./prog_$lib")
  grep -F "$stage/lib64/libacl_rt.so" <<<"$deps" >/dev/null || {
    echo "prog_$lib does not resolve libacl_rt.so from the stage"
    status=1
  }
done
[[ $status -eq 0 ]] && echo "compile-and-run: both link styles pass"
exit $status
